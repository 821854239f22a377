"""O'Keefe (2013) as she specifies it: summaries, ordinal parallel boxes, the division search,
P-P plots, biplots and the chi-square test, each rule asserted on its numbers."""

import dataclasses

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.nonparametric.smoothers_lowess import lowess

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.confidential import (
    interval_edges,
    ordinal_boxes,
    parallel_boxes,
    search_division,
)
from safeplot.anonymize.grids import MATCH_RTOL, rare_values
from safeplot.anonymize.statistics import round_sig
from safeplot.plots.confidential import parallelboxplot, release_ordinal_boxes
from safeplot.plots.okeefe import PP_GRID, biplot, ppplot, release_biplot, release_pp
from safeplot.policy import Policy
from safeplot.release import DisclosureReport
from safeplot.summaries import Chi2ContingencyResult, chi2_contingency, describe

from .leakscan import scan_figure


def winsor(v, sd=2.6):
    v = np.asarray(v, float)
    m, s = v.mean(), v.std(ddof=1)
    return np.clip(v, m - sd * s, m + sd * s)


def round3(values):
    """Round to three significant figures with the rounding the releases use."""
    return np.asarray(round_sig(np.asarray(values, dtype=float), 3), dtype=float)


def hits(values, rare):
    values = np.ravel(np.asarray(values, float))
    return [
        v for v in values if np.any(np.abs(rare - v) <= MATCH_RTOL * np.maximum(abs(v), abs(rare)))
    ]


def close_to_rounded(got, expected, rare):
    """Rounded to 3 figures, or moved unit by unit (last figure) over rare values only."""
    for g, e in zip(np.ravel(got), np.ravel(round3(expected)), strict=True):
        unit = 10 ** (np.floor(np.log10(abs(e))) - 2) if e else 1e-3
        steps = round((g - e) / unit)
        assert abs(g - (e + steps * unit)) <= 1e-9 * max(abs(g), 1), (g, e)
        # every value passed over on the way is a rare raw value
        passed = [e + k * np.sign(steps) * unit for k in range(abs(steps))]
        assert len(hits(passed, rare)) == abs(steps), (g, e)


def with_outliers_and_ties(seed=3):
    """Continuous x and y with planted unique outliers, ties, and a group of two records."""
    rng = np.random.default_rng(seed)
    n = 300
    x = np.round(rng.normal(50, 10, n), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, n), 3)
    y[:40] = 25.0  # a tie held by many records
    g = rng.choice(["a", "b"], n)
    return pd.DataFrame(
        {
            "x": np.r_[x, 412.731, -97.113, 255.517, 61.25, 61.25],
            "y": np.r_[y, -88.404, 301.219, 12.5, 7.75, 7.75],
            "g": np.r_[g, ["a", "b", "a", "c", "c"]],
        }
    )


# -- describe: no minimum or maximum, quartiles only if the policy allows -----------------


def test_describe_releases_neither_minimum_nor_maximum():
    df = with_outliers_and_ties()[["x", "y"]]
    for quartiles in (False, True):
        with safeplot.policy(release_quartiles=quartiles):
            d = describe(df)
        assert "min" not in d.table.index and "max" not in d.table.index
        assert ("25%" in d.table.index) is quartiles
        for col in ("x", "y"):
            v = df[col].to_numpy()
            shown = d.table[col].to_numpy()[1:]
            assert not hits(shown, np.array([v.min(), v.max()]))
            w = winsor(v)
            close_to_rounded(shown[:2], [w.mean(), w.std(ddof=1)], rare_values(v, 3))
    assert [e.function for e in audit.entries()] == ["describe", "describe"]
    assert isinstance(audit.entries()[0].report, dict)


def test_a_locked_policy_keeps_quartiles_off():
    locked = Policy(locked=True)
    safeplot.policy._reset(locked)
    with pytest.raises(DisclosureError, match="release_quartiles"):
        safeplot.set_policy(release_quartiles=True)
    with pytest.raises(DisclosureError, match="release_quartiles"):
        describe(pd.DataFrame({"a": np.arange(20.0)}), percentiles=[0.5])
    with pytest.raises(TypeError, match="release_quartiles"):
        Policy(release_quartiles="yes")


# -- ordinal parallel boxes (Fig. 7b) ------------------------------------------------------


def education_frame(seed=7):
    """Years of education 1..8 against age: year 2 has two records, year 6 a flat box."""
    rng = np.random.default_rng(seed)
    sizes = {1: 30, 2: 2, 3: 40, 4: 45, 5: 35, 6: 25, 7: 30, 8: 20}
    years = np.repeat(list(sizes), list(sizes.values()))
    age = np.round(rng.normal(60 + years, 6), 2)
    six = np.flatnonzero(years == 6)
    age[six[:15]] = 66.0  # most of year 6 share one age: median = a quartile
    return pd.DataFrame({"educyrs": years, "age": age})


def test_ordinal_boxes_merge_small_and_flat_levels():
    df = education_frame()
    levels = df["educyrs"].to_numpy() - 1
    pb = ordinal_boxes(levels, df["age"].to_numpy(), 8)
    sizes = np.bincount(levels, minlength=8)
    # every box rests on at least threshold records and has two halves of non-zero length
    for box, group in zip(pb.boxes, pb.groups, strict=True):
        assert box.n == sizes[list(group)].sum() >= 3
        assert box.q1 < box.med < box.q3
    # the level of two records is merged with a neighbour, and so is the flat one
    merged = {tuple(g) for g in pb.merged}
    assert any(1 in g and (0 in g or 2 in g) for g in merged)
    assert any(5 in g and (4 in g or 6 in g) for g in merged)
    # a merged box is drawn over the level holding most of its records; the others are empty
    for group, slot in zip(pb.groups, pb.slots, strict=True):
        assert slot == group[int(np.argmax(sizes[list(group)]))]
    assert set(pb.dropped) == {i for g in pb.groups for i in g} - set(pb.slots)
    # the five numbers: the winsorised group's quantiles, rounded (or moved off a rare value)
    age = df["age"].to_numpy()
    wy = winsor(age)
    rare = rare_values(age, 3)
    for box, group in zip(pb.boxes, pb.groups, strict=True):
        sel = np.isin(levels, group)
        expected = np.quantile(winsor(wy[sel]), [0, 0.25, 0.5, 0.75, 1])
        close_to_rounded(box.stats, expected, rare)
        assert not hits(box.stats, rare)


def test_parallelboxplot_draws_an_ordinal_x_as_her_figure_7b():
    df = education_frame()
    fig, ax = plt.subplots()
    parallelboxplot(data=df, x="educyrs", y="age", discrete=True, ax=ax)
    rep = ax.safeplot_report
    assert rep.details["x_scale"] == "ordinal"
    assert rep.details["levels_left_empty"] >= 2
    labels = [t.get_text() for t in ax.get_xticklabels()]
    # year 2 (two records) is not named; the other years are
    assert labels == ["1", "", "3", "4", "5", "6", "7", "8"]
    centres = sorted(
        (p.get_path().vertices[:, 0].min() + p.get_path().vertices[:, 0].max()) / 2
        for p in ax.patches
    )
    rel = release_ordinal_boxes(
        df["educyrs"].to_numpy() - 1, df["age"].to_numpy(), list(range(1, 9))
    )
    assert np.allclose(centres, sorted(rel.positions[0]))
    assert len(ax.patches) == len(rel.boxes[0].boxes) < 8
    assert audit.entries()[-1].function == "parallelboxplot"


def test_ordinal_levels_from_an_ordered_categorical_or_order():
    rng = np.random.default_rng(1)
    grade = rng.choice(["low", "mid", "high"], 120, p=[0.4, 0.2, 0.4])
    df = pd.DataFrame({"grade": grade, "y": rng.normal(size=120)})
    order = ["low", "mid", "high"]
    ax = parallelboxplot(data=df, x="grade", y="y", order=order)
    assert [t.get_text() for t in ax.get_xticklabels()] == order
    df["grade"] = pd.Categorical(df["grade"], categories=order, ordered=True)
    plt.figure()
    ax = parallelboxplot(
        data=df, x="grade", y="y", hue=rng.choice(["f", "m"], 120), hue_order=["f", "m"]
    )
    assert ax.safeplot_report.details["x_scale"] == "ordinal"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["f", "m"]


def test_nominal_x_and_options_that_need_intervals_are_refused():
    tips = safeplot.load_dataset("tips")
    with pytest.raises(ValueError, match="nominal"):
        parallelboxplot(data=tips, x="day", y="tip")
    with pytest.raises(ValueError, match="trend=True"):
        parallelboxplot(data=tips, x="size", y="tip", discrete=True, trend=True)
    with pytest.raises(ValueError, match="n_intervals"):
        parallelboxplot(data=tips, x="size", y="tip", discrete=True, n_intervals=4)
    with pytest.raises(ValueError, match="discrete"):
        parallelboxplot(data=tips, x="size", y="tip", discrete="yes")
    with pytest.raises(ValueError, match="order"):
        parallelboxplot(data=tips, x="size", y="tip", discrete=False, order=[1, 2])
    with pytest.raises(ValueError, match="constant"):
        parallelboxplot(data=tips.assign(one=2), x="one", y="tip", discrete=True)
    with pytest.raises(ValueError, match="infinite"):
        parallelboxplot(
            data=tips.assign(s=tips["size"].replace(6, np.inf)), x="s", y="tip", discrete=True
        )
    with pytest.raises(ValueError, match="n_levels"):
        ordinal_boxes([0, 1, 2], [1.0, 2.0, 3.0], 2)
    assert audit.entries() == []
    assert len(plt.gca().patches) == 0


# -- the division search -------------------------------------------------------------------


def sparse_interval_frame(seed=11):
    """x on [0.5, 99.5]: 20 records per interval of width 10, except two in [30, 40)."""
    rng = np.random.default_rng(seed)
    x = np.concatenate(
        [rng.uniform(lo + 0.5, lo + 9.5, 2 if lo == 30 else 20) for lo in range(0, 100, 10)]
    )
    y = 0.2 * x + rng.normal(0, 3, x.size)
    return x, y


def test_the_search_keeps_the_finest_division_that_meets_the_rules():
    x, y = sparse_interval_frame()
    division = search_division(x, y)
    # the default (ten intervals of 10) has an interval of two records; the next division
    # tried, five intervals of 20, has none below threshold and no flat box: it is kept
    finest = interval_edges(winsor(x), 10, avoid=rare_values(x, 3))
    counts = np.histogram(winsor(x), finest)[0]
    assert np.diff(finest)[0] == 10 and counts.min() < 3
    assert division.meets_rules
    assert division.tried == (10, 5)
    assert np.diff(division.edges)[0] == 20
    pb = parallel_boxes(x, y, edges=division.edges)
    assert not pb.merged and all(b.q1 < b.med < b.q3 for b in pb.boxes)
    ax = parallelboxplot(x=x, y=y)
    assert ax.safeplot_report.details["interval_width"] == 20.0
    assert ax.safeplot_report.details["intervals_merged"] == []
    assert "finest equal-width division" in ax.safeplot_report.details["division"]


def test_without_a_division_that_meets_the_rules_the_finest_is_merged():
    x, y = sparse_interval_frame()
    y = np.where((x > 20) & (x < 70), 5.0, y)  # flat boxes at every width tried
    division = search_division(x, y)
    assert not division.meets_rules
    assert division.tried == (10, 5)
    assert np.diff(division.edges)[0] == 10
    ax = parallelboxplot(x=x, y=y)
    rep = ax.safeplot_report
    assert rep.details["interval_width"] == 10.0 and rep.details["intervals_merged"]
    assert "no equal-width division" in rep.details["division"]
    # a given n_intervals is used as it is
    plt.figure()
    ax = parallelboxplot(x=x, y=y, n_intervals=10)
    assert ax.safeplot_report.details["division"] == "n_intervals given: no search"


def test_the_search_holds_for_every_hue_level():
    rng = np.random.default_rng(0)
    x = np.r_[rng.uniform(0.5, 99.5, 200), rng.uniform(0.5, 99.5, 40)]
    y = 0.2 * x + rng.normal(0, 3, x.size)
    codes = np.r_[np.zeros(200, int), np.ones(40, int)]
    # alone, the large level meets the rules with the finest division; the small one does not
    alone = search_division(x[:200], y[:200], max_intervals=10)
    assert alone.meets_rules and alone.tried == (10,)
    division = search_division(x, y, codes, max_intervals=10)
    assert division.meets_rules and len(division.tried) > 1
    assert np.diff(division.edges)[0] > np.diff(alone.edges)[0]
    for c in (0, 1):
        pb = parallel_boxes(x[codes == c], y[codes == c], edges=division.edges)
        assert not pb.merged and not pb.warnings
    with pytest.raises(ValueError, match="max_intervals"):
        search_division(x, y, max_intervals=0)


# -- P-P plot ------------------------------------------------------------------------------


def expected_pp(values, grid_lo, grid_hi):
    w = np.sort(winsor(values))
    n = w.size
    px = np.arange(1, n + 1) / (n + 1)
    py = stats.norm.cdf(w, *stats.norm.fit(w))
    grid = PP_GRID[(px[0] - 1e-12 <= PP_GRID) & (px[-1] + 1e-12 >= PP_GRID)]
    fit = lowess(py, px, frac=2 / 3, it=3, delta=0.0, xvals=grid)
    assert grid[0] == grid_lo and grid[-1] == grid_hi
    return grid, np.maximum.accumulate(round3(np.clip(fit, 0, 1)))


def test_ppplot_is_a_rounded_robust_curve_on_a_fixed_grid():
    # values in [0, 1] on a grid of 0.001: rounded probabilities meet rare data values
    rng = np.random.default_rng(4)
    v = np.round(rng.beta(2, 2, 400), 3)
    rel = release_pp(v, fit=True)
    rare = rare_values(v, 3)
    grid, expected = expected_pp(v, rel.x[0], rel.x[-1])
    assert np.array_equal(rel.x, grid) and set(rel.x) <= set(PP_GRID)
    assert hits(expected, rare), "the data should make the check bite"
    close_to_rounded(rel.y, expected, rare)
    assert not hits(rel.y, rare)
    assert np.all(np.diff(rel.y) >= 0) and rel.y.min() >= 0 and rel.y.max() <= 1
    assert np.array_equal(rel.y, round3(rel.y))
    fig = ppplot(v, fit=True, line="45")
    ax = fig.axes[0]
    curve = [ln for ln in ax.lines if ln.get_color() == "C0"]
    assert len(curve) == 1 and np.array_equal(curve[0].get_ydata(), rel.y)
    assert ax.get_xlabel() == "Theoretical Probabilities"
    assert all(ln.get_marker() in ("None", "", None) for ln in ax.lines)
    entry = audit.entries()[-1]
    assert entry.function == "ppplot" and entry.method == "confidential"
    assert len(rel.report.details["fitted_params"]) == 2


def test_ppplot_discrete_distribution_and_second_sample():
    tips = safeplot.load_dataset("tips")
    fig = ppplot(tips["size"], dist=stats.poisson, distargs=(2.57,), line="45")
    assert fig.axes[0].safeplot_report.params["dist"] == "poisson"
    with pytest.raises(ValueError, match="discrete"):
        ppplot(tips["size"], dist=stats.poisson, fit=True)
    fig = ppplot(tips["total_bill"], other=tips["tip"] * 6)
    assert fig.axes[0].get_ylabel() == "Probabilities of 1st Sample"


def pp_chi2_reference(x, mu, threshold=3):
    """Pearson's chi-square of `x` against Poisson(mu), cells pooled by hand.

    The support values pooled from the lower end until each cell holds at least
    `threshold` records (a short last cell joins the one before), tails open-ended; then
    the cell expecting fewest records merged with its smaller neighbour until each
    expects at least 5. Returns the observed and expected counts of the cells.
    """
    values, counts = np.unique(x, return_counts=True)
    ends, held = [], 0
    for i, c in enumerate(counts):
        held += c
        if held >= threshold:
            ends.append(i)
            held = 0
    ends[-1] = counts.size - 1
    cut = np.asarray(ends)
    observed = np.add.reduceat(counts, np.r_[0, cut[:-1] + 1])
    expected = x.size * np.diff(np.r_[0.0, stats.poisson.cdf(values[cut[:-1]], mu), 1.0])
    while expected.min() < 5:
        i = int(np.argmin(expected))
        if i == 0 or (i + 1 < expected.size and expected[i + 1] < expected[i - 1]):
            i += 1
        observed = np.r_[observed[: i - 1], observed[i - 1] + observed[i], observed[i + 1 :]]
        expected = np.r_[expected[: i - 1], expected[i - 1] + expected[i], expected[i + 1 :]]
    return observed, expected


def test_ppplot_releases_the_rounded_pearson_chi2_of_a_discrete_fit():
    """O'Keefe's section 3.1.3: the Pearson chi-square beside a P-P plot, rounded.

    She releases it rounded to three figures (0.988 from 0.9877984); safeplot puts the
    statistic, its p-value (both rounded through the guard) and its degrees of freedom in
    the report and the audit.
    """
    x = np.random.default_rng(0).poisson(4, 400)
    x[:2] = [17, 19]  # one record each, far in the upper tail
    fig = ppplot(x, stats.poisson, distargs=(4,))
    details = fig.axes[0].safeplot_report.details
    observed, expected = pp_chi2_reference(x, 4)
    # the two far records share the open upper cell with others: no small cell
    assert observed.min() >= 3 and observed[-1] > 2
    res = stats.chisquare(observed, expected)
    assert details["chi2_dof"] == observed.size - 1 == 9
    assert details["chi2"] == round3(res.statistic)
    assert details["chi2_pvalue"] == round3(res.pvalue)
    assert details["chi2"] != res.statistic  # rounded
    entry = audit.entries()[-1]
    assert entry.function == "ppplot" and entry.report["details"]["chi2"] == details["chi2"]


def test_ppplot_chi2_cells_do_not_follow_the_parameters():
    """The data pool the cells on the support's fixed grid: no mean isolates a small count.

    Sweeping the Poisson mean changes only the expected counts and their pooling; every
    cell pooled still holds at least threshold records.
    """
    x = np.random.default_rng(1).poisson(6, 300)
    x[0] = 30
    for mu in (2.0, 5.5, 6.0, 6.5, 12.0):
        details = ppplot(x, stats.poisson, distargs=(mu,)).axes[0].safeplot_report.details
        plt.close("all")
        observed, expected = pp_chi2_reference(x, mu)
        assert observed.min() >= 3
        assert details["chi2"] == round3(stats.chisquare(observed, expected).statistic)


def test_ppplot_chi2_only_for_a_discrete_distribution_on_its_support():
    tips = safeplot.load_dataset("tips")
    details = ppplot(tips["total_bill"], fit=True).axes[0].safeplot_report.details
    assert "chi2" not in details and "discrete" in details["chi2_note"]
    x = np.random.default_rng(2).poisson(3, 200) + 0.5
    details = ppplot(x, stats.poisson, distargs=(3,)).axes[0].safeplot_report.details
    assert "chi2" not in details and "support" in details["chi2_note"]
    plt.close("all")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"data": ["a", "b", "c"] * 10}, ValueError, "text|numeric"),
        ({"data": np.ones((10, 3))}, ValueError, "1-D"),
        ({"data": pd.DataFrame({"a": range(20), "b": range(20)})}, ValueError, "2 columns"),
        ({"data": np.arange(30.0), "line": "s"}, ValueError, "45-degree"),
        ({"data": np.arange(30.0), "line": "x"}, ValueError, "line"),
        ({"data": np.arange(4.0)}, DisclosureError, "records"),
        ({"data": np.arange(30.0), "method": "suppress"}, ValueError, "suppress"),
        ({"data": np.arange(30.0), "method": "none"}, DisclosureError, "raw"),
        ({"data": np.arange(30.0), "sig": 5}, DisclosureError, "sig_figs"),
        ({"data": np.arange(30.0), "a": 2}, ValueError, "a must"),
        ({"data": np.r_[np.arange(30.0), np.inf]}, ValueError, "infinite"),
    ],
)
def test_ppplot_bad_input(kwargs, error, match):
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        ppplot(**kwargs)
    assert plt.get_fignums() == before
    assert audit.entries() == []


# -- biplot --------------------------------------------------------------------------------


def test_biplot_arrows_are_rounded_correlations_of_the_winsorised_variables():
    df = with_outliers_and_ties()
    rel = release_biplot(df, vars=["x", "y"], hue="g")
    w = np.column_stack([winsor(df["x"]), winsor(df["y"])])
    vals, vecs = np.linalg.eigh(np.corrcoef(w, rowvar=False))
    order = np.argsort(vals)[::-1]
    vals, vecs = vals[order], vecs[:, order]
    vecs *= np.sign(vecs[np.argmax(np.abs(vecs), axis=0), range(2)])
    expected = vecs * np.sqrt(vals)
    rare = np.union1d(rare_values(df["x"], 3), rare_values(df["y"], 3))
    close_to_rounded(rel.arrows, expected, rare)
    assert not hits(rel.arrows, rare) and not hits(rel.centroids, rare)
    assert np.array_equal(rel.centroids, round3(rel.centroids))
    assert rel.shares.tolist() == [float(f"{v:.2g}") for v in 100 * vals / vals.sum()]
    # level c has two records: no point, and not named
    assert rel.levels == ["a", "b"]
    assert any("not named" in w for w in rel.report.warnings)
    fig, ax = plt.subplots()
    biplot(df, vars=["x", "y"], hue="g", ax=ax)
    offsets = np.vstack([c.get_offsets() for c in ax.collections])
    assert offsets.shape == (2, 2)  # the two centroids, no record
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    assert audit.entries()[-1].function == "biplot"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"vars": ["x"]}, ValueError, "two or more"),
        ({"vars": ["x", "nope"]}, ValueError, "not columns"),
        ({"vars": ["x", "y"], "components": (1, 1)}, ValueError, "components"),
        ({"vars": ["x", "y"], "components": (1, 3)}, ValueError, "components"),
        ({"vars": ["x", "g"]}, ValueError, "numeric|text"),
        ({"vars": ["x", "y"], "hue": "nope"}, ValueError, "hue"),
        ({"vars": ["x", "y"], "method": "deterministic"}, ValueError, "deterministic"),
        ({"vars": ["x", "y"], "data": "all-nan"}, ValueError, "no complete records"),
    ],
)
def test_biplot_bad_input(kwargs, error, match):
    df = with_outliers_and_ties()
    if kwargs.pop("data", None) == "all-nan":
        df["x"] = np.nan
    with pytest.raises(error, match=match):
        biplot(df, **kwargs)
    assert audit.entries() == []


def test_biplot_needs_ten_records():
    with pytest.raises(DisclosureError, match="10"):
        biplot(with_outliers_and_ties().iloc[50:58], vars=["x", "y"])


# -- chi-square of a contingency table -----------------------------------------------------


def test_chi2_is_rounded_and_matches_scipy():
    tips = safeplot.load_dataset("tips")
    res = chi2_contingency(tips, "day", "smoker")
    raw = stats.chi2_contingency(pd.crosstab(tips["day"], tips["smoker"]).to_numpy())
    assert isinstance(res, Chi2ContingencyResult)
    assert res.statistic == round3(raw.statistic) and res.pvalue == round3(raw.pvalue)
    assert res.dof == raw.dof == 3
    with pytest.raises(DisclosureError, match="margins"):
        _ = res.expected_freq
    assert isinstance(res.report, DisclosureReport) and res.report.method == "confidential"
    entry = audit.entries()[-1]
    assert entry.function == "chi2_contingency" and entry.report["details"]["pvalue"] == res.pvalue
    yates = chi2_contingency(tips, "sex", "time", correction=False)
    plain = stats.chi2_contingency(pd.crosstab(tips["sex"], tips["time"]), correction=False)
    assert yates.statistic == round3(plain.statistic)


def test_chi2_is_refused_on_small_cells_and_small_expected_counts():
    tips = safeplot.load_dataset("tips")
    with pytest.raises(DisclosureError, match="1 cell"):  # one Thursday dinner
        chi2_contingency(tips, "day", "time")
    # every observed cell is 0 or large, but one expected count is small
    a = np.r_[["p"] * 60, ["q"] * 60, ["r"] * 4]
    b = np.r_[["u"] * 30, ["v"] * 30, ["u"] * 30, ["v"] * 30, ["w"] * 4]
    with pytest.raises(DisclosureError, match="expected count"):
        chi2_contingency(pd.DataFrame({"a": a, "b": b}), "a", "b")
    with pytest.raises(DisclosureError, match="10"):
        chi2_contingency(tips.head(8), "sex", "smoker")
    with pytest.raises(ValueError, match="lambda_"):
        chi2_contingency(tips, "sex", "smoker", lambda_=0.5)
    with pytest.raises(ValueError, match="not a column"):
        chi2_contingency(tips, "sex", "nope")
    with pytest.raises(ValueError, match="two levels"):
        chi2_contingency(tips.assign(one="x"), "sex", "one")
    with pytest.raises(DisclosureError, match="threshold"):
        chi2_contingency(tips, "sex", "smoker", threshold=2)
    assert audit.entries() == []


def test_chi2_result_is_a_frozen_release():
    res = chi2_contingency(safeplot.load_dataset("tips"), "sex", "smoker")
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.statistic = 1.0  # type: ignore[misc]
    assert repr(res).startswith("Chi2ContingencyResult(statistic=")


# -- leak scans: planted outliers and ties -------------------------------------------------


def _draw(kind, df, ax):
    """Draw one of the new plots; return the raw values each axis is compared with."""
    both = np.r_[df["x"], df["y"]]
    if kind == "ppplot":
        ppplot(df["x"], fit=True, line="45", ax=ax)
        return {"y": df["x"].to_numpy()}
    if kind == "ppplot-other":
        ppplot(df["x"], other=df["y"], ax=ax)
        return {"y": both}
    if kind == "biplot":
        biplot(df, vars=["x", "y"], hue="g", ax=ax)
        return {"x": both, "y": both}
    levels = df.assign(x10=df["x"].round(-1))
    parallelboxplot(levels, x="x10", y="y", discrete=True, ax=ax)
    return {"x": levels["x10"].to_numpy(), "y": df["y"].to_numpy()}


@pytest.mark.parametrize("kind", ["ppplot", "ppplot-other", "biplot", "ordinal"])
def test_new_plots_pass_the_leak_scan(kind):
    df = with_outliers_and_ties()
    fig, ax = plt.subplots()
    raw = _draw(kind, df, ax)
    extra = {"categorical": "x"} if kind == "ordinal" else {}
    findings = scan_figure(fig, raw, count_axis=None, saved=True, **extra)
    assert not findings, str(findings)
    assert findings.numbers_scanned > 0


def test_the_scan_catches_raw_ordinal_boxes():
    df = with_outliers_and_ties()
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        levels = df.assign(x10=df["x"].round(-1))
        parallelboxplot(levels, x="x10", y="y", discrete=True, method="none", ax=ax)
    raw = {"x": levels["x10"].to_numpy(), "y": df["y"].to_numpy()}
    assert scan_figure(fig, raw, count_axis=None, categorical="x")
