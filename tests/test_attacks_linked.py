"""Attacks on linked releases: differencing counts, averaging noise of transformed copies.

Each test is written as a reader of the figures would attack them (DESIGN.md
section 3, invariant 6): read the bars of two histograms of the same records,
with and without ``hue``, and subtract; or release a transformed copy of the
data many times and average the noise away. The release ledger
(:mod:`safeplot.ledger`) must leave nothing to recover.
"""

from __future__ import annotations

import functools
from collections import defaultdict

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgb

import safeplot
from safeplot import DisclosureError, ledger
from safeplot.plots.distributions import release_histograms
from safeplot.policy import Policy
from safeplot.release import guard

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")


def _bars(ax) -> dict[float, float]:
    """Sum of the drawn bar heights at each bin's left edge, as a reader measures them."""
    heights: dict[float, float] = defaultdict(float)
    for patch in ax.patches:
        if np.isfinite(patch.get_height()):
            heights[round(float(patch.get_x()), 9)] += float(patch.get_height())
    return dict(heights)


def _frame() -> pd.DataFrame:
    """Bins [0, 1), [1, 2), [2, 3]: 6 records (5 'a', 1 'b'), 10 (5 and 5), 4 (all 'a')."""
    x = np.r_[np.full(5, 0.5), 0.6, np.full(10, 1.5), np.full(4, 2.5)]
    sex = ["a"] * 5 + ["b"] + ["a"] * 5 + ["b"] * 5 + ["a"] * 4
    return pd.DataFrame({"x": x, "sex": sex})


def _no_small_difference(whole, parts, threshold: int) -> None:
    """Assert that no bin's total minus the levels shown is a count in (0, threshold).

    Either release may have been refused (None): then there is nothing to difference.
    """
    if whole is None or parts is None:
        return
    for left, t in whole.items():
        if np.isfinite(t):
            rest = t - sum(np.nan_to_num(p.get(left, 0.0)) for p in parts)
            assert rest == 0 or rest >= threshold


def _hidden_totals(total: dict[float, float], split: dict[float, float]) -> list[float]:
    """What a reader computes: each shown bin total minus the hue bars shown in that bin."""
    return [t - split.get(left, 0.0) for left, t in total.items() if t > 0]


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_hue_minus_total_recovers_no_small_count(hue_first):
    df = _frame()
    order = [dict(hue="sex"), {}] if hue_first else [{}, dict(hue="sex")]
    figures = []
    for extra in order:
        _, ax = plt.subplots()
        safeplot.histplot(df, x="x", bins=[0, 1, 2, 3], **extra)
        figures.append(_bars(ax))
    split, total = (figures[0], figures[1]) if hue_first else (figures[1], figures[0])
    threshold = safeplot.get_policy().threshold
    for rest in _hidden_totals(total, split):
        assert rest == 0 or rest >= threshold, (total, split)
    # without the ledger, bin [0, 1) would have shown 6 in total and 5 for 'a': one 'b' record
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


def test_reordered_rows_and_another_binrange_are_the_same_records():
    df = _frame()
    safeplot.histplot(df, x="x", bins=[0, 1, 2, 3])
    _, ax = plt.subplots()
    shuffled = df.sample(frac=1.0, random_state=3)
    safeplot.histplot(shuffled, x="x", hue="sex", bins=[-1, 0, 1, 2, 3, 4])
    split = _bars(ax)
    # bin [0, 1) holds the same six records under the wider bins: its hue bars are hidden
    assert split.get(0.0, 0.0) == 0.0


def test_the_report_says_what_the_ledger_hid():
    df = _frame()
    safeplot.histplot(df, x="x", bins=[0, 1, 2, 3])
    plt.figure()
    safeplot.histplot(df, x="x", hue="sex", bins=[0, 1, 2, 3])
    entry = safeplot.audit.entries()[-1]
    assert any("earlier release of the same records" in w for w in entry.report["warnings"])


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 300),
    levels=st.integers(2, 4),
    bins=st.integers(3, 12),
    hue_first=st.booleans(),
)
def test_no_order_of_two_releases_differences_to_a_small_count(seed, n, levels, bins, hue_first):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, bins, n) + 0.5  # tied values, as in real data; edges at the integers
    codes = rng.integers(0, levels, n)
    names = [f"l{i}" for i in range(levels)]
    edges = np.arange(bins + 1.0)
    threshold = 3

    def by_edge(rel) -> dict[float, float]:
        return dict(zip(rel.edges[:-1].tolist(), rel.counts.tolist(), strict=True))

    with ledger.using(ledger.Ledger(Policy(threshold=threshold))):

        def total():
            return by_edge(release_histograms(x, bins=edges, threshold=threshold)[0])

        def split():
            rels = release_histograms(
                x, levels=codes, level_names=names, bins=edges, threshold=threshold
            )
            return [by_edge(r) for r in rels]

        def made(release):  # a refused release shows nothing
            try:
                return release()
            except DisclosureError:
                return None

        if hue_first:
            parts, whole = made(split), made(total)
        else:
            whole, parts = made(total), made(split)
    _no_small_difference(whole, parts, threshold)


# -- a hue level too small to show, left out ---------------------------------------------


def _small_level_frame(threshold: int) -> pd.DataFrame:
    """Bins [0, 1), [1, 2), [2, 3]: 'Smith' (2 records) has one record in the outer bins."""
    t = threshold
    x = np.r_[np.full(t + 2, 0.5), 0.7, np.full(2 * t, 1.5), np.full(t + 1, 2.5), 2.7]
    g = ["a"] * (t + 2) + ["Smith"] + ["a"] * t + ["b"] * t + ["a"] * (t + 1) + ["Smith"]
    return pd.DataFrame({"x": x, "g": g})


def _all_text(fig) -> str:
    return "\n".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))


@pytest.mark.parametrize("multiple", ["layer", "stack"])
@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_a_left_out_level_is_not_the_total_minus_the_levels_shown(hue_first, multiple):
    threshold = safeplot.get_policy().threshold
    df = _small_level_frame(threshold)
    order = [dict(hue="g", multiple=multiple), {}]
    figures, texts = [], []
    for extra in order if hue_first else order[::-1]:
        fig, ax = plt.subplots()
        safeplot.histplot(df, x="x", bins=[0, 1, 2, 3], **extra)
        figures.append(_bars(ax))
        texts.append(_all_text(fig))
        if "hue" in extra:
            report = ax.safeplot_report
            assert report.details["groups_left_out"] == 1
            assert any("not drawn" in w for w in report.warnings)
    split, total = (figures[0], figures[1]) if hue_first else (figures[1], figures[0])
    rests = _hidden_totals(total, split)
    assert all(rest == 0 or rest >= threshold for rest in rests), (total, split)
    # the attack is real: each outer bin would show 1 as its total minus the level 'a'
    assert ledger.current().decisions(), "the ledger was not consulted"
    assert not any("Smith" in t for t in texts)
    assert not any("Smith" in str(e.report) for e in safeplot.audit.entries())


def test_a_left_out_level_differenced_against_wider_bins_and_other_rows():
    threshold = safeplot.get_policy().threshold
    df = _small_level_frame(threshold)
    _, ax = plt.subplots()
    safeplot.histplot(df.sample(frac=1.0, random_state=5), x="x", bins=[-1, 0, 1, 2, 3, 4])
    total = _bars(ax)
    _, ax = plt.subplots()
    safeplot.histplot(df, x="x", hue="g", bins=[0, 1, 2, 3])
    split = _bars(ax)
    for rest in _hidden_totals(total, split):
        assert rest == 0 or rest >= threshold, (total, split)


def test_without_the_ledger_the_left_out_level_would_be_counted():
    """The attack the ledger stops: with a fresh ledger per figure, the difference is 1."""
    threshold = safeplot.get_policy().threshold
    df = _small_level_frame(threshold)
    figures = []
    for extra in ({}, dict(hue="g")):
        with ledger.using(ledger.Ledger()):
            _, ax = plt.subplots()
            safeplot.histplot(df, x="x", bins=[0, 1, 2, 3], **extra)
            figures.append(_bars(ax))
    assert 1.0 in _hidden_totals(*figures)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 300),
    levels=st.integers(2, 4),
    small=st.integers(1, 2),
    bins=st.integers(3, 12),
    hue_first=st.booleans(),
)
def test_no_order_differences_a_left_out_level(seed, n, levels, small, bins, hue_first):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, bins, n + small) + 0.5
    codes = np.r_[rng.integers(0, levels, n), np.full(small, levels)]  # the last level is small
    names = [f"l{i}" for i in range(levels + 1)]
    edges = np.arange(bins + 1.0)
    threshold = 3

    def by_edge(rel) -> dict[float, float]:
        return dict(zip(rel.edges[:-1].tolist(), rel.counts.tolist(), strict=True))

    def made(release):
        try:
            return release()
        except DisclosureError:
            return None

    with ledger.using(ledger.Ledger(Policy(threshold=threshold))):

        def total():
            return by_edge(release_histograms(x, bins=edges, threshold=threshold)[0])

        def split():
            rels = release_histograms(
                x,
                levels=codes,
                level_names=names,
                bins=edges,
                threshold=threshold,
                leave_out=True,
            )
            assert rels[-1] is None  # the small level is left out, its place kept
            return [by_edge(r) for r in rels if r is not None]

        if hue_first:
            parts, whole = made(split), made(total)
        else:
            whole, parts = made(total), made(split)
    _no_small_difference(whole, parts, threshold)


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_a_level_left_out_of_hue_order_is_not_the_total_minus_the_levels(hue_first):
    """A level of more than threshold records, not listed in hue_order, with 1 in a bin."""
    threshold = safeplot.get_policy().threshold
    df = _small_level_frame(threshold)
    extra = df.iloc[[0] * threshold].assign(x=1.5, g="c")  # 'c': 1 record in [0, 1)
    df = pd.concat([df, extra, extra.iloc[:1].assign(x=0.6)], ignore_index=True)
    calls = [dict(hue="g", hue_order=["a", "b"]), {}]
    figures = []
    for kw in calls if hue_first else calls[::-1]:
        _, ax = plt.subplots()
        safeplot.histplot(df, x="x", bins=[0, 1, 2, 3], **kw)
        figures.append(_bars(ax))
    split, total = figures if hue_first else figures[::-1]
    for rest in _hidden_totals(total, split):
        assert rest == 0 or rest >= threshold, (total, split)


def _ecdf_steps(ax) -> dict[float, float]:
    """The records at each step of the drawn ECDFs (stat="count"), summed over the lines."""
    steps: dict[float, float] = defaultdict(float)
    for line in ax.lines:
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        for at, height in zip(x[1:], np.diff(y), strict=True):
            steps[round(float(at) - 1.0, 9)] += float(height)  # a step at a bin's upper edge
    return dict(steps)


#: (how the total is drawn, how the split is read): an ECDF of counts, or a histogram
_TOTALS = {
    "ecdf": lambda df: safeplot.ecdfplot(df, x="x", bins=[0, 1, 2, 3], stat="count"),
    "hist": lambda df: safeplot.histplot(df, x="x", bins=[0, 1, 2, 3]),
}


@pytest.mark.parametrize("total_kind", list(_TOTALS))
@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_a_level_left_out_of_an_ecdf_is_not_the_total_minus_the_levels(total_kind, hue_first):
    threshold = safeplot.get_policy().threshold
    df = _small_level_frame(threshold)

    def split():
        fig, ax = plt.subplots()
        safeplot.ecdfplot(df, x="x", hue="g", bins=[0, 1, 2, 3], stat="count")
        assert ax.safeplot_report.details["groups_left_out"] == 1
        assert "Smith" not in _all_text(fig)
        return _ecdf_steps(ax)

    def total():
        _, ax = plt.subplots()
        _TOTALS[total_kind](df)
        return _ecdf_steps(ax) if total_kind == "ecdf" else _bars(ax)

    if hue_first:
        parts, whole = split(), total()
    else:
        whole, parts = total(), split()
    rests = _hidden_totals(whole, parts)
    assert rests and all(rest == 0 or rest >= threshold for rest in rests), (whole, parts)
    assert not any("Smith" in str(e.report) for e in safeplot.audit.entries())


def test_a_dask_frame_with_a_small_level_is_refused():
    dd = pytest.importorskip("dask.dataframe")
    df = _small_level_frame(safeplot.get_policy().threshold)
    with pytest.raises(DisclosureError, match="cannot be left out: counted out of core"):
        safeplot.histplot(dd.from_pandas(df, npartitions=2), x="x", hue="g", bins=[0, 1, 2, 3])
    assert not safeplot.audit.entries()


# -- averaging noise over transformed copies ---------------------------------------------


@pytest.fixture
def people():
    rng = np.random.default_rng(11)
    x = rng.normal(50, 10, 300).round(1)
    return pd.DataFrame({"x": x, "y": x + rng.normal(0, 5, 300).round(1)})


def _points(ax) -> np.ndarray:
    return np.vstack([c.get_offsets() for c in ax.collections if len(c.get_offsets())])


#: (transform of copy j, its inverse): what an analyst applies and a reader undoes.
TRANSFORMS = {
    "last-bits": (lambda d, j: d * (1 + j * 1e-12), lambda v, d, j: v / (1 + j * 1e-12)),
    "rescale": (lambda d, j: d * (1 + j * 1e-6), lambda v, d, j: v / (1 + j * 1e-6)),
    "affine": (lambda d, j: d * (j + 1.0) + j, lambda v, d, j: (v - j) / (j + 1.0)),
    "log": (
        lambda d, j: np.log(d - d.min() + 1 + j),
        lambda v, d, j: np.exp(v) + d.min().to_numpy() - 1 - j,
    ),
    "negate": (lambda d, j: -d * (j + 1), lambda v, d, j: v / -(j + 1)),
}


@pytest.mark.parametrize("name", list(TRANSFORMS))
def test_averaging_400_transformed_copies_gets_no_closer_than_q(people, name):
    """Release 400 transformed copies, undo each transform, average: the noise stays.

    Were the noise drawn afresh for each copy, the average of 400 would be
    20 times closer to the records than one release (q/20 of the SD), far
    below the 0.8 q the test asks for.
    """
    forward, inverse = TRANSFORMS[name]
    q = safeplot.get_policy().q_min
    raw = people[["x", "y"]].to_numpy()
    sd = raw.std(axis=0, ddof=1)
    recovered, refused = [], 0
    for j in range(400):
        plt.close("all")
        _, ax = plt.subplots()
        try:
            safeplot.scatterplot(forward(people, j), x="x", y="y", method="probabilistic", q=q)
        except DisclosureError as err:
            assert "noise_draws" in str(err)
            refused += 1
            continue
        recovered.append(inverse(_points(ax), people, j))
    assert recovered, "the first release is always made"
    averaged = np.mean(recovered, axis=0)
    error = np.sqrt(((averaged - raw) ** 2).mean(axis=0)) / sd
    # one release has noise of about q SD; the average of the copies is no better
    assert (error > 0.8 * q).all(), (error, refused)


def test_reordering_the_rows_draws_the_same_noise(people):
    _, ax = plt.subplots()
    safeplot.scatterplot(people, x="x", y="y", method="probabilistic")
    a = _points(ax)
    _, ax = plt.subplots()
    safeplot.scatterplot(
        people.sample(frac=1.0, random_state=2), x="x", y="y", method="probabilistic"
    )
    b = _points(ax)
    np.testing.assert_array_equal(np.sort(a, axis=0), np.sort(b, axis=0))


def test_a_custodian_may_allow_more_draws_and_the_limit_holds(people, regime):
    draws = 3
    if regime == "locked-strict":
        # a locked custodian policy allows one draw: the analyst cannot allow more,
        # and the limit in force is the custodian's
        with pytest.raises(DisclosureError, match="locked"):
            safeplot.set_policy(noise_draws=3)
        draws = safeplot.get_policy().noise_draws
    else:
        safeplot.set_policy(noise_draws=draws)
    for j in range(draws):
        plt.figure()
        safeplot.scatterplot(people * (1 + j), x="x", y="y", method="probabilistic")
    plt.figure()
    with pytest.raises(DisclosureError, match=f"noise_draws={draws}"):
        safeplot.scatterplot(people * 7, x="x", y="y", method="probabilistic")


@pytest.mark.parametrize("plot", ["histplot", "heatmap"])
def test_counted_noise_is_charged_to_the_ledger_too(people, plot):
    """Binned noisy values are not drawn, yet each transformed copy is a draw of noise.

    Averaging the histograms (or heat maps) of many transformed copies would
    average their noise away just as averaging scatter plots would.
    """
    draws = safeplot.get_policy().noise_draws

    def release(j: int) -> None:
        plt.figure()
        if plot == "histplot":
            safeplot.histplot(people * (1 + j), x="x", method="probabilistic")
        else:
            safeplot.heatmap(people * (1 + j), x="x", y="y", method="probabilistic")

    for j in range(draws):
        release(j)
    with pytest.raises(DisclosureError, match=f"noise_draws={draws}"):
        release(draws)


def test_a_locked_policy_keeps_the_ledger(people, tmp_path, monkeypatch):
    path = tmp_path / "policy.toml"
    path.write_text("locked = true\nnoise_draws = 1\n", encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    safeplot.policy._reset()
    with pytest.raises(DisclosureError, match="noise_draws"):
        safeplot.set_policy(noise_draws=5)
    with pytest.raises(DisclosureError, match="cannot be cleared"):
        ledger.clear()


# -- a small facet left out, and the same figure without col= ---------------------------------


def _with_a_hamlet() -> pd.DataFrame:
    """Two regions of 100 records and a 'hamlet' of 2, each with its own unique values."""
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(50, 10, 202), 3)
    region = ["hamlet"] * 2 + ["north", "south"] * 100
    x[:2] = [93.417, 7.219]  # the hamlet's two records, far from everyone else
    y = np.round(0.5 * x + rng.normal(0, 4, 202), 3)
    return pd.DataFrame({"x": x, "y": y, "region": region, "c": rng.choice(["p", "q"], 202)})


def _text(fig) -> str:
    """Everything a reader can read off the figure: its texts and its saved SVG."""
    import io

    texts = [t.get_text() for t in fig.findobj(plt.Text)]
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    return "\n".join(texts) + buf.getvalue()


#: Figure-level plots of values and summaries: a small facet is left out of them.
_VALUE_FIGURES = {
    "relplot": lambda df, **kw: safeplot.relplot(df, x="x", y="y", height=2, **kw),
    "catplot-box": lambda df, **kw: safeplot.catplot(df, x="c", y="x", kind="box", height=2, **kw),
    "catplot-point": lambda df, **kw: safeplot.catplot(
        df, x="c", y="x", kind="point", height=2, seed=0, n_boot=50, **kw
    ),
    "lmplot": lambda df, **kw: safeplot.lmplot(
        df, x="x", y="y", height=2, n_boot=50, seed=0, **kw
    ),
}
#: Figure-level plots of counts: the whole minus the facets shown would be the small facet's.
_COUNT_FIGURES = {
    "displot-hist": lambda df, **kw: safeplot.displot(df, x="x", height=2, **kw),
    "displot-ecdf": lambda df, **kw: safeplot.displot(df, x="x", kind="ecdf", height=2, **kw),
    "catplot-count": lambda df, **kw: safeplot.catplot(df, x="c", kind="count", height=2, **kw),
}


@pytest.mark.parametrize("name", list(_VALUE_FIGURES))
def test_a_left_out_facet_is_named_nowhere_and_gives_no_count(name):
    # the reader draws the figure without col= and with it, reads every text of both and the
    # records each report counts, and looks for the hamlet
    from safeplot.plots._common import LEFT_OUT_NOTE

    df = _with_a_hamlet()
    draw = _VALUE_FIGURES[name]
    whole = draw(df)
    faceted = draw(df, col="region")
    assert list(faceted.col_names) == ["north", "south"]
    for grid in (whole, faceted):
        assert "hamlet" not in _text(grid.figure)
        for report in grid.safeplot_reports:
            assert "hamlet" not in repr(report)
    assert LEFT_OUT_NOTE in _text(faceted.figure)

    # the records of the whole minus those of the facets shown: reports count records rounded,
    # so the difference is not the hamlet's 2 records
    def records(grid):
        return [r.n for r in grid.safeplot_reports]

    pol = safeplot.get_policy()
    counted = [n for n in records(whole) + records(faceted) if n != 0]
    assert all(isinstance(n, int) and n % pol.round_n_to == 0 for n in counted), counted
    assert sum(records(whole)) - sum(records(faceted)) != 2
    # the two records of the hamlet are drawn nowhere: no number of either figure is theirs
    for grid in (whole, faceted):
        assert "93.417" not in _text(grid.figure) and "7.219" not in _text(grid.figure)


@pytest.mark.parametrize("name", list(_COUNT_FIGURES))
def test_a_small_facet_of_counts_is_refused_so_no_count_can_be_differenced(name):
    # the counts of the facets shown would add up, with the hamlet's, to the counts of the
    # figure without col=: a facet of a few records is refused rather than left out
    df = _with_a_hamlet()
    draw = _COUNT_FIGURES[name]
    whole = draw(df)
    assert whole.safeplot_reports
    before = plt.get_fignums()
    entries = len(safeplot.audit.entries())
    with pytest.raises(DisclosureError, match=r"region = hamlet.*without row=/col="):
        draw(df, col="region")
    assert plt.get_fignums() == before
    assert len(safeplot.audit.entries()) == entries


def _markers(grid) -> int:
    """The markers a reader counts in a figure's saved file: one per record drawn."""
    from matplotlib.collections import PathCollection

    return sum(
        len(c.get_offsets())
        for ax in grid.axes.flat
        for c in ax.collections
        if isinstance(c, PathCollection)
    )


#: Figure-level plots that draw a marker per record, under a method that groups records
#: within each facet (so the markers of the two figures are not the same points).
_MARKER_FIGURES = {
    "relplot": lambda df, **kw: safeplot.relplot(df, x="x", y="y", height=2, **kw),
    "catplot-strip": lambda df, **kw: safeplot.catplot(
        df, x="c", y="x", kind="strip", height=2, **kw
    ),
    "lmplot": lambda df, **kw: safeplot.lmplot(
        df, x="x", y="y", height=2, n_boot=50, seed=0, **kw
    ),
}


@pytest.mark.parametrize("method", ["deterministic", "microaggregation"])
@pytest.mark.parametrize("name", list(_MARKER_FIGURES))
def test_counting_markers_gives_no_small_count_of_a_left_out_facet(name, method):
    # the reader counts the markers of the figure without col= and with it: the difference
    # is the number of records left out, which must not be the hamlet's 2
    df = _with_a_hamlet()
    draw = _MARKER_FIGURES[name]
    whole, faceted = draw(df, method=method), draw(df, col="region", method=method)
    assert list(faceted.col_names) == ["north", "south"]
    assert _markers(whole) == len(df)
    missing = _markers(whole) - _markers(faceted)
    assert missing == 0 or missing >= safeplot.get_policy().threshold, missing
    assert any("not a small count" in w for r in faceted.safeplot_reports for w in r.warnings)


@pytest.mark.parametrize("method", ["probabilistic", "rounding"])
@pytest.mark.parametrize("name", list(_MARKER_FIGURES))
def test_a_small_facet_of_records_drawn_on_their_own_is_refused(name, method):
    # keyed noise and rounding draw each record the same with and without col=: the markers
    # of the whole missing from the facets would be the hamlet's records, so it is refused
    df = _with_a_hamlet()
    draw = _MARKER_FIGURES[name]
    draw(df, method=method)
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="drawn on its own"):
        draw(df, col="region", method=method)
    assert plt.get_fignums() == before


def _cells(rel) -> dict[tuple[float, float], np.ndarray]:
    """Each drawn cell's counts per level, keyed by its centre, as a reader measures them."""
    counts = np.asarray(rel.counts, dtype=float)
    return {
        (round(float(cx), 9), round(float(cy), 9)): counts[:, i, j]
        for i, cx in enumerate(rel.xcentres)
        for j, cy in enumerate(rel.ycentres)
    }


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
@pytest.mark.parametrize("kind", ["heatmap", "scatter"])
def test_a_grid_with_hue_minus_the_grid_without_recovers_no_small_count(hue_first, kind):
    """The cells of a heat map (or a scatter plot's cells) with and without hue: a cell's
    total minus its levels shown would be a suppressed level's count, unless the ledger
    hides one more cell."""
    from safeplot.plots.grid import release_grid

    # cell (0, 0): 5 'a' and 1 'b'; cell (1, 1): 5 and 5; cell (2, 2): 4 'a'
    xy = np.r_[np.full(6, 0.5), np.full(10, 1.5), np.full(4, 2.5)]
    sex = np.array(["a"] * 5 + ["b"] + ["a"] * 5 + ["b"] * 5 + ["a"] * 4)
    releases = {}
    for with_hue in [True, False] if hue_first else [False, True]:
        releases[with_hue] = release_grid(
            xy, xy + 0.25, hue=sex if with_hue else None, method="suppress", bins=3, kind=kind
        )
    total, split = _cells(releases[False]), _cells(releases[True])
    threshold = safeplot.get_policy().threshold
    for centre, (t,) in total.items():
        if np.isfinite(t) and t > 0:
            rest = t - float(np.nansum(split.get(centre, [])))
            assert rest == 0 or rest >= threshold, (centre, t, split.get(centre))
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


# -- facets of a figure against the whole ---------------------------------------------------


def _facet_frame(t: int) -> pd.DataFrame:
    """Bins [0, 1), [1, 2), [2, 3]. Facet 'u': t - 1 records in the first bin (of level 'a'),
    2t in the second; facet 'v': 3t in the first, 2t in the third. Levels 'a' and 'b' split
    each facet's larger bins in half (rounded up to 'a')."""
    x = np.r_[np.full(t - 1, 0.5), np.full(2 * t, 1.5), np.full(3 * t, 0.5), np.full(2 * t, 2.5)]
    f = ["u"] * (3 * t - 1) + ["v"] * (5 * t)
    g = ["a"] * (t - 1) + ["a", "b"] * t + ["a"] * (2 * t) + ["b"] * t + ["a", "b"] * t
    return pd.DataFrame({"x": x, "f": f, "g": g})


def _facet_bars(grid) -> list[dict[float, float]]:
    return [_bars(ax) for ax in grid.axes.flat]


def _rests(whole: dict[float, float], parts: list[dict[float, float]]) -> list[float]:
    """What a reader computes: each shown bin of the whole minus the parts' bars there."""
    return [
        t - sum(p.get(left, 0.0) for p in parts)
        for left, t in whole.items()
        if np.isfinite(t) and t > 0
    ]


_BINS = [0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_the_whole_minus_the_facets_shown_recovers_no_small_count(facets_first):
    # the reader draws displot(col="f") and histplot of the same records, and subtracts the
    # facets' bars from the whole's, bin by bin: bin [0, 1) would be 4t - 1 - 3t = t - 1
    t = safeplot.get_policy().threshold
    df = _facet_frame(t)

    def faceted():
        return _facet_bars(safeplot.displot(df, x="x", col="f", bins=_BINS, height=2))

    def whole():
        _, ax = plt.subplots()
        return _bars(safeplot.histplot(df, x="x", bins=_BINS, ax=ax))

    if facets_first:
        parts, total = faceted(), whole()
    else:
        total, parts = whole(), faceted()
    for rest in _rests(total, parts):
        assert rest == 0 or rest >= t, (total, parts)
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


@pytest.mark.parametrize("facets_first", [False, True], ids=["hue-then-facets", "facets-first"])
def test_a_level_across_facets_minus_its_facets_shown_recovers_no_small_count(facets_first):
    # level 'a' of histplot(hue="g") against level 'a' in each facet of displot(col="f",
    # hue="g"): the level's bar minus its bars in the facets shown would be facet u's t - 1
    t = safeplot.get_policy().threshold
    df = _facet_frame(t)

    def per_level(ax) -> dict[str, dict[float, float]]:
        out: dict[str, dict[float, float]] = {"a": {}, "b": {}}
        colours = {"a": "C0", "b": "C1"}
        for patch in ax.patches:
            for level, c in colours.items():
                same = np.allclose(patch.get_facecolor()[:3], plt.matplotlib.colors.to_rgb(c))
                if same and np.isfinite(patch.get_height()) and patch.get_height() > 0:
                    left = round(float(patch.get_x()), 9)
                    out[level][left] = out[level].get(left, 0.0) + float(patch.get_height())
        return out

    def faceted():
        grid = safeplot.displot(
            df, x="x", col="f", hue="g", hue_order=["a", "b"], bins=_BINS, height=2
        )
        return [per_level(ax)["a"] for ax in grid.axes.flat]

    def by_hue():
        _, ax = plt.subplots()
        safeplot.histplot(df, x="x", hue="g", hue_order=["a", "b"], bins=_BINS, ax=ax)
        return per_level(ax)["a"]

    if facets_first:
        parts, level = faceted(), by_hue()
    else:
        level, parts = by_hue(), faceted()
    for rest in _rests(level, parts):
        assert rest == 0 or rest >= t, (level, parts)


@pytest.mark.parametrize("total_kind", list(_TOTALS))
@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_the_whole_minus_the_ecdf_facets_shown_recovers_no_small_count(total_kind, facets_first):
    # the steps of displot(kind="ecdf", col="f", stat="count") are counts of each facet's
    # bins: the whole's ECDF (or histogram) minus them would be facet u's t - 1 records
    t = safeplot.get_policy().threshold
    df = _facet_frame(t)

    def faceted():
        grid = safeplot.displot(
            df, x="x", col="f", kind="ecdf", bins=_BINS, stat="count", height=2
        )
        return [_ecdf_steps(ax) for ax in grid.axes.flat]

    def whole():
        _, ax = plt.subplots()
        _TOTALS[total_kind](df)
        return _ecdf_steps(ax) if total_kind == "ecdf" else _bars(ax)

    if facets_first:
        parts, total = faceted(), whole()
    else:
        total, parts = whole(), faceted()
    rests = _rests(total, parts)
    assert rests and all(rest == 0 or rest >= t for rest in rests), (total, parts)


def _bin0(ax, colour=None) -> float:
    """The height of the bars drawn on [0, 1) (of one colour), as a reader measures them."""
    return sum(
        p.get_height()
        for p in ax.patches
        if abs(p.get_x()) < 1e-9
        and p.get_height() > 0
        and (colour is None or np.allclose(p.get_facecolor()[:3], to_rgb(colour)))
    )


def _two_way(t: int) -> pd.DataFrame:
    """Facet A: t - 2 records of 'u' and 1 of 'v' in [0, 1); facet B: more of each; 10 of
    every cell in [1, 2)."""
    rng = np.random.default_rng(0)
    sizes = {("A", "u"): t + 2, ("A", "v"): 1, ("B", "u"): t + 4, ("B", "v"): t + 1}
    rows = []
    for (f, g), n in sizes.items():
        x = np.r_[rng.uniform(0.01, 0.99, n), rng.uniform(1.01, 1.99, 10)]
        rows += [{"x": v, "f": f, "g": g} for v in x]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("faceted_first", [True, False], ids=["col-first", "row-col-first"])
def test_row_and_col_facets_are_linked_to_each_facet_variable(faceted_first):
    # displot(col="f") and displot(row="f", col="g"): facet A's bin minus its panel A/u
    # would be the one record of A/v, unless each facet variable's margin is linked
    t = safeplot.get_policy().threshold
    df = _two_way(t)

    def by_f():
        return safeplot.displot(df, x="x", col="f", bins=[0, 1, 2], height=2)

    def by_fg():
        return safeplot.displot(df, x="x", row="f", col="g", bins=[0, 1, 2], height=2)

    first, second = (by_f, by_fg) if faceted_first else (by_fg, by_f)
    grids = {first: first(), second: second()}
    a, a_u = _bin0(grids[by_f].axes_dict["A"]), _bin0(grids[by_fg].axes_dict[("A", "u")])
    if a > 0 and a_u > 0:
        assert a - a_u == 0 or a - a_u >= t, (a, a_u)


@pytest.mark.parametrize("coarse_first", [True, False], ids=["coarse-first", "fine-first"])
def test_one_cell_of_facets_by_hue_binned_two_ways_gives_no_count(coarse_first):
    # displot(col="f", hue="g") on bins of width 1 and of width 0.5: A/u on [0, 1) minus A/u
    # on [0, 0.5) would be its one record in [0.5, 1)
    t = safeplot.get_policy().threshold
    rng = np.random.default_rng(3)
    rows = []
    for f in "AB":
        for g in "uv":
            mid = 1 if (f, g) == ("A", "u") else 2 * t
            x = np.r_[rng.uniform(0.01, 0.49, 2 * t), rng.uniform(0.51, 0.99, mid)]
            rows += [{"x": v, "f": f, "g": g} for v in np.r_[x, rng.uniform(1.01, 1.99, 2 * t)]]
    df = pd.DataFrame(rows)
    coarse, fine = [0, 1, 2], [0, 0.5, 1, 1.5, 2]
    figures = {}
    for bins in (coarse, fine) if coarse_first else (fine, coarse):
        figures[len(bins)] = safeplot.displot(
            df, x="x", col="f", hue="g", hue_order=["u", "v"], bins=bins, height=2
        )
    whole = _bin0(figures[3].axes_dict["A"], "C0")
    half = _bin0(figures[5].axes_dict["A"], "C0")
    if whole > 0 and half > 0:
        assert whole - half == 0 or whole - half >= t, (whole, half)


@pytest.mark.parametrize("facets_first", [True, False], ids=["facets-first", "level-first"])
def test_an_ecdf_record_in_no_facet_is_linked_to_its_hue_level(facets_first):
    # one record has no facet value: it is in the ECDF of its hue level (hue only) but in no
    # facet, so the level's step minus its facets' steps would count it
    t = safeplot.get_policy().threshold
    rng = np.random.default_rng(2)
    rows = [
        {"x": lo + rng.uniform(0.01, 0.99), "f": f, "g": g}
        for f in "AB"
        for g in "uv"
        for lo in (0, 1)
        for _ in range(2 * t)
    ]
    rows.append({"x": 0.5, "f": None, "g": "u"})
    df = pd.DataFrame(rows)

    def steps_of_u(ax) -> dict[float, float]:  # level u's line only (the first colour)
        for line in [
            ln for ln in ax.lines if not np.allclose(to_rgb(ln.get_color()), to_rgb("C0"))
        ]:
            line.remove()
        return _ecdf_steps(ax)

    def level():
        _, ax = plt.subplots()
        safeplot.ecdfplot(df, x="x", hue="g", hue_order=["u", "v"], stat="count", bins=2)
        return steps_of_u(ax)

    def faceted():
        grid = safeplot.displot(
            df,
            x="x",
            col="f",
            hue="g",
            hue_order=["u", "v"],
            kind="ecdf",
            stat="count",
            bins=2,
            height=2,
        )
        return [steps_of_u(ax) for ax in grid.axes.flat]

    def made(release):  # a release the ledger leaves nothing of is refused: nothing to read
        try:
            return release()
        except DisclosureError:
            return None

    if facets_first:
        parts, total = made(faceted), made(level)
    else:
        total, parts = made(level), made(faceted)
    assert parts is not None or total is not None
    # level u's step minus its steps in the facets: what is hidden, 0 or at least threshold
    for rest in _rests(total or {}, parts or []):
        assert rest == 0 or rest >= t, (total, parts)


@pytest.mark.parametrize("log_first", [True, False], ids=["log-first", "linear-first"])
def test_a_log_scale_histogram_is_linked_to_the_linear_one(log_first):
    # bins [1, 10) and [10, 100) of the same records, drawn on a log scale by facet and on a
    # linear scale without: the linear bar minus the facets' bars would count facet A's one
    t = safeplot.get_policy().threshold
    rng = np.random.default_rng(5)
    x = np.r_[rng.uniform(1.5, 9.5, 1), rng.uniform(1.5, 9.5, 2 * t), rng.uniform(11, 99, 4 * t)]
    f = ["A"] + ["B"] * (2 * t) + ["A", "B"] * (2 * t)
    df = pd.DataFrame({"x": x, "f": f})

    def linear():  # unequal bins: drawn as frequency density, so height times width
        _, ax = plt.subplots()
        safeplot.histplot(df, x="x", bins=[1, 10, 100], ax=ax)
        return {round(p.get_x(), 6): p.get_height() * p.get_width() for p in ax.patches}

    def logged():
        grid = safeplot.displot(df, x="x", col="f", log_scale=True, bins=[0, 1, 2], height=2)
        return [{round(p.get_x(), 6): p.get_height() for p in ax.patches} for ax in grid.axes.flat]

    if log_first:
        parts, whole = logged(), linear()
    else:
        whole, parts = linear(), logged()
    for rest in _rests(whole, parts):
        assert rest == 0 or rest >= t, (whole, parts)


def test_displot_refuses_unlinked_bins_and_empty_facets():
    df = _two_way(safeplot.get_policy().threshold)
    with pytest.raises(ValueError, match="common_bins=False is not supported"):
        safeplot.displot(df, x="x", col="f", common_bins=False)
    df.loc[df["f"] == "B", "x"] = np.nan
    for kind in ("hist", "ecdf"):
        with pytest.raises(ValueError, match=r"the facet \{'col=f': 'B'\} has no complete rows"):
            safeplot.displot(df, x="x", col="f", kind=kind)
    assert plt.get_fignums() == []


def test_without_the_ledger_the_whole_minus_the_facets_gives_the_count():
    """The attack the ledger stops: with a fresh ledger per figure, the count comes out."""
    t = safeplot.get_policy().threshold
    df = _facet_frame(t)
    with ledger.using(ledger.Ledger()):
        parts = _facet_bars(safeplot.displot(df, x="x", col="f", bins=_BINS, height=2))
    with ledger.using(ledger.Ledger()):
        _, ax = plt.subplots()
        total = _bars(safeplot.histplot(df, x="x", bins=_BINS, ax=ax))
    assert t - 1 in _rests(total, parts)


def test_a_facet_alone_against_the_facets_is_linked_too():
    # histplot of facet u's records alone, then displot(col="f", hue="g"): facet u's bin
    # minus its levels shown must not be a small count either
    t = safeplot.get_policy().threshold
    df = _facet_frame(t)
    df.loc[df.index[0], "g"] = "b"  # facet u's first bin: t - 2 'a' and one 'b'
    _, ax = plt.subplots()
    alone = _bars(safeplot.histplot(df[df["f"] == "u"], x="x", bins=_BINS, ax=ax))
    grid = safeplot.displot(df, x="x", col="f", hue="g", bins=_BINS, height=2)
    for rest in _rests(alone, [_bars(grid.axes.flat[0])]):
        assert rest == 0 or rest >= t, (alone, _bars(grid.axes.flat[0]))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(30, 300),
    n_facets=st.integers(2, 3),
    n_levels=st.integers(1, 3),
    bins=st.integers(3, 8),
    order=st.permutations(["whole", "hue", "facets", "both"]),
)
def test_no_order_of_faceted_releases_differences_to_a_small_count(
    seed, n, n_facets, n_levels, bins, order
):
    # four figures of the same records in any order: the whole, split by hue, by facet, and
    # by facet and hue. No margin of one minus the cells shown of another is a small count
    from safeplot.plots.distributions import histogram_panels

    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "x": rng.integers(0, bins, n) + 0.5,  # tied values; edges at the integers
            "hue": rng.choice([f"l{i}" for i in range(n_levels)], n),
            "f": rng.choice([f"f{i}" for i in range(n_facets)], n),
        }
    )
    edges = np.arange(bins + 1.0)
    pol = safeplot.get_policy()
    t = pol.threshold
    columns = {
        "whole": ["x"],
        "hue": ["x", "hue"],
        "facets": ["x", "f"],
        "both": ["x", "hue", "f"],
    }

    def counts(name):
        """(facet, level) -> {left edge: count}; None if refused."""
        labels = {"x": "x", "hue": "g"} if "hue" in columns[name] else {"x": "x"}
        facets = ["f"] if "f" in columns[name] else []
        try:
            panels = histogram_panels(
                frame[columns[name]], labels, "x", facets=facets, bins=edges, policy=pol
            )
        except DisclosureError:
            return None
        out = {}
        for key, panel in panels.items():
            for rel, level in zip(panel.binned, panel.levels, strict=True):
                out[(key, level)] = dict(zip(rel.edges[:-1].tolist(), rel.counts, strict=True))
        return out

    with ledger.using(ledger.Ledger(pol)):
        made = {name: counts(name) for name in order}

    def check(whole, parts):
        if whole is None or parts is None:
            return
        for (key, level), bars in whole.items():
            for left, total in bars.items():
                if not np.isfinite(total) or total == 0:
                    continue
                inside = [
                    p.get(left, np.nan)
                    for (pkey, plevel), p in parts.items()
                    if (not key or pkey == key) and (level is None or plevel == level)
                ]
                rest = total - float(np.nansum(inside))
                assert rest == 0 or rest >= t, (key, level, left, total, inside)

    check(made["whole"], made["facets"])
    check(made["whole"], made["hue"])
    check(made["whole"], made["both"])
    check(made["facets"], made["both"])  # each facet's bins against its levels
    check(made["hue"], made["both"])  # each level's bins against its facets


# -- models on nested groups of records --------------------------------------------------------


def _patients(n: int = 200) -> pd.DataFrame:
    """Outcomes y, a covariate x and a row number: groups are the first few rows."""
    rng = np.random.default_rng(3)
    return pd.DataFrame(
        {"x": rng.normal(size=n), "y": np.round(rng.normal(50, 10, n), 2), "row": np.arange(n)}
    )


def _group_sum(fit, n_in: int, name: str = "d") -> float:
    """What a reader computes from a fit of y ~ d: the group's size times its mean outcome."""
    return n_in * (float(fit.params["Intercept"]) + float(fit.params[name]))


@pytest.mark.parametrize("first", ["larger", "smaller"])
def test_two_models_on_nested_dummies_give_no_outcome(first):
    # the reader fits y ~ d on a dummy of t + 1 records and on one of its first t records:
    # (t + 1) * mean - t * mean is the outcome of the record in one and not the other
    t = safeplot.get_policy().threshold
    df = _patients()
    sizes = [t + 1, t] if first == "larger" else [t, t + 1]
    frames = [df.assign(d=(df["row"] < size).astype(int)) for size in sizes]
    safeplot.safe_ols("y ~ d", frames[0])
    with pytest.raises(DisclosureError, match=f"differ by fewer than {t} records"):
        safeplot.safe_ols("y ~ d", frames[1])
    refused = [d for d in ledger.current().decisions() if d.action == "refused"]
    assert refused and refused[-1].function == "safe_ols"


def test_without_the_ledger_nested_dummies_would_give_the_outcome():
    """The attack the ledger stops: with a fresh ledger per model, the outcome comes out."""
    t = safeplot.get_policy().threshold
    df = _patients()
    sums = []
    for size in (t + 1, t):
        with ledger.using(ledger.Ledger()):
            fit = safeplot.safe_ols("y ~ d", df.assign(d=(df["row"] < size).astype(int)))
        sums.append(_group_sum(fit, size))
    assert abs((sums[0] - sums[1]) - df["y"].iloc[t]) < 1.0


@pytest.mark.parametrize("small", [1, 2])
def test_a_dummy_or_reference_level_of_few_records_is_refused(small):
    # a level of `small` records, as an indicator and as the reference level of a category
    t = safeplot.get_policy().threshold
    df = _patients()
    df["d"] = (df["row"] < small).astype(int)
    df["g"] = np.where(df["row"] < small, "aa", np.where(df["row"] < 100, "b", "c"))
    with pytest.raises(DisclosureError, match=f"'d' holds fewer than {t} records"):
        safeplot.safe_ols("y ~ x + d", df)
    with pytest.raises(DisclosureError, match=r"'the reference level of C\(g\)' holds fewer"):
        safeplot.safe_ols("y ~ x + C(g)", df)  # 'aa' is the reference: the intercept
    with pytest.raises(DisclosureError, match="holds fewer"):
        safeplot.safe_ols("y ~ x + d", df.assign(d=1 - df["d"]))  # all but a few
    with pytest.raises(DisclosureError, match="holds fewer"):
        safeplot.safe_logit("d2 ~ x + d", df.assign(d2=(df["row"] % 2 == 0).astype(int)))


def test_nested_dummies_in_one_model_are_refused():
    # y ~ d5 + d4: d5's coefficient is the mean of the one record in d5 and not d4
    t = safeplot.get_policy().threshold
    df = _patients().assign(
        big=lambda d: (d["row"] < t + 1).astype(int), small=lambda d: (d["row"] < t).astype(int)
    )
    with pytest.raises(DisclosureError, match="groups 'big' and 'small' differ"):
        safeplot.safe_ols("y ~ x + big + small", df)


def test_a_model_with_and_without_a_few_rows_is_refused():
    # the intercept-only models of the data with and without a record give its outcome
    t = safeplot.get_policy().threshold
    df = _patients()
    safeplot.safe_ols("y ~ x", df)
    with pytest.raises(DisclosureError, match="'all records'"):
        safeplot.safe_ols("y ~ x", df.iloc[1:])
    with pytest.raises(DisclosureError, match="'all records'"):
        safeplot.safe_ols("y ~ x", df, subset=df["row"] >= t - 1)
    # a missing covariate drops a record: the same refusal, which says what to do
    with pytest.raises(DisclosureError, match="dropna"):
        safeplot.safe_ols("y ~ x + z", df.assign(z=np.where(df["row"] == 7, np.nan, df["y"] % 1)))
    # the same records in another order, with other columns, or t records fewer: fitted
    safeplot.safe_ols("y ~ x", df.sample(frac=1.0, random_state=2).assign(extra=1.0))
    safeplot.safe_ols("y ~ x", df.iloc[t:])


def test_a_binary_outcome_is_linked_as_a_continuous_one():
    # logit models on nested dummies: the difference of the events counts the extra record's
    t = safeplot.get_policy().threshold
    df = _patients(400)
    df["event"] = (df["y"] > 50).astype(int)
    df["d"] = (df["row"] < 4 * t).astype(int)
    safeplot.safe_logit("event ~ d", df)
    with pytest.raises(DisclosureError, match="differ by fewer"):
        safeplot.safe_logit("event ~ d", df.assign(d=(df["row"] < 4 * t + 1).astype(int)))
    # groups of other records with other events counts are not linked
    safeplot.safe_logit("event ~ d", df.assign(d=(df["row"] >= 200).astype(int)))


def test_regplot_bins_of_the_data_with_and_without_a_record_are_refused():
    # the reader draws x_bins estimates of the data, then of the data without one record:
    # the record's bin holds one record fewer, and size times mean differs by its outcome
    df = _patients(300)
    safeplot.regplot(df, x="x", y="y", x_bins=4, n_boot=50, seed=0)
    plt.figure()
    with pytest.raises(DisclosureError, match="differ by fewer"):
        safeplot.regplot(df.drop(index=17), x="x", y="y", x_bins=4, n_boot=50, seed=0)
    # after a model of the same outcome on nearly the same records as well
    with pytest.raises(DisclosureError, match="differ by fewer"):
        safeplot.safe_ols("y ~ x", df.drop(index=[3]))
    # the same records again (reordered), or other bins of them: drawn
    plt.figure()
    safeplot.regplot(df.sample(frac=1.0, random_state=1), x="x", y="y", x_bins=4, n_boot=50)
    plt.figure()
    safeplot.regplot(df, x="x", y="y", x_bins=6, n_boot=50, seed=0)


def _bar_frame() -> pd.DataFrame:
    """Category 'b' holds 20 records of hue 'x' and one of hue 'y', the last row."""
    rng = np.random.default_rng(8)
    return pd.DataFrame(
        {
            "g": ["a"] * 20 + ["b"] * 21,
            "h": ["x"] * 40 + ["y"],
            "v": np.round(rng.normal(50, 10, 41), 1),
        }
    )


_ESTIMATE_PLOTS = {
    "barplot": lambda df, **kw: safeplot.barplot(df, x="g", y="v", errorbar=None, **kw),
    "pointplot": lambda df, **kw: safeplot.pointplot(df, x="g", y="v", errorbar=None, **kw),
}


def _estimates(ax) -> list[float]:
    """The drawn estimates: bar heights, or the points' y coordinates."""
    if ax.patches:
        return [float(p.get_height()) for p in ax.patches if np.isfinite(p.get_height())]
    return [float(v) for line in ax.lines for v in line.get_ydata()]


@pytest.mark.parametrize("method", ["suppress", "confidential", "deterministic"])
@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
@pytest.mark.parametrize("name", list(_ESTIMATE_PLOTS))
def test_a_category_and_its_large_hue_level_are_not_both_drawn(name, hue_first, method):
    # the reader reads category b's mean over 21 records, and its hue level x's over 20:
    # 21 * one - 20 * the other is the outcome of the one record of hue level y (left out)
    t = safeplot.get_policy().threshold
    df = _bar_frame()
    draw = functools.partial(_ESTIMATE_PLOTS[name], method=method)
    order = [{}, {"hue": "h"}] if not hue_first else [{"hue": "h"}, {}]
    draw(df, **order[0])
    plt.figure()
    with pytest.raises(DisclosureError, match=f"differ by fewer than {t} records"):
        draw(df, **order[1])
    # other records entirely: not linked
    plt.figure()
    draw(df.assign(v=df["v"] + 1000.0), **order[1])


@pytest.mark.parametrize("method", ["suppress", "confidential"])
@pytest.mark.parametrize("name", list(_ESTIMATE_PLOTS))
def test_without_the_ledger_the_category_minus_its_hue_level_is_the_record(name, method):
    # moved values lie close to the raw ones: the difference comes close to the record's
    df = _bar_frame()
    draw = functools.partial(_ESTIMATE_PLOTS[name], method=method)
    drawn = []
    for kw in ({}, {"hue": "h"}):
        with ledger.using(ledger.Ledger()):
            _, ax = plt.subplots()
            draw(df, **kw)
            drawn.append(_estimates(ax))
    whole_b = drawn[0][1]  # categories a, b
    guesses = [21 * whole_b - 20 * v for v in drawn[1]]
    assert min(abs(g - df["v"].iloc[-1]) for g in guesses) < 2.0


# -- stepping a method's own parameter: rounding's c, microaggregation's k ---------------------


def _values(seed: int = 0, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {"x": np.round(rng.normal(50, 10, n), 2), "y": np.round(rng.normal(50, 10, n), 2)}
    )


def _drawn_x(ax) -> np.ndarray:
    return np.unique(np.asarray(ax.collections[0].get_offsets())[:, 0])


def test_stepping_c_gives_a_sum_of_records_only_to_the_rounding():
    """A residual risk, measured: rounding's c stepped from 10 to 11 is not linked.

    The lowest interval holds the 20 lowest values at c = 10 and the 18 lowest at
    c = 11, so 20 * one representative - 18 * the other is the sum of two records.
    Unrounded representatives gave it to the last digit; rounded to 3 figures of the
    range (steps of 0.1 here), it comes out within 38 * 0.05 = 1.9, and not exactly.
    """
    df = _values()
    drawn = {}
    for c in (10, 11):
        _, ax = plt.subplots()
        safeplot.scatterplot(df, x="x", y="y", method="rounding", c=c, discretizer="efd")
        drawn[c] = _drawn_x(ax)
    lowest = np.sort(df["x"].to_numpy())
    guess = 20 * drawn[10][0] - 18 * drawn[11][0]
    error = abs(guess - lowest[18:20].sum())
    assert 0.01 < error < 1.9 + 1e-9


@pytest.mark.parametrize(
    "method, params", [("rounding", {"c": 10}), ("microaggregation", {"k": 5})]
)
def test_representatives_are_rounded_to_figures_of_the_range(method, params):
    # representatives are group means: statistics, rounded (invariant 4) to 3 figures of the
    # range of x (about 60 here: steps of 0.1)
    df = _values()
    _, ax = plt.subplots()
    safeplot.scatterplot(df, x="x", y="y", method=method, **params)
    xs = _drawn_x(ax)
    # (set a thousandth of a step off the grid: statistics of them fall off round numbers)
    np.testing.assert_allclose(xs * 10, np.round(xs * 10), atol=2e-3)
    assert len(xs) > 3


# -- the same records on other bins: coarser, finer, shifted, another range --------------------


def _nested_rests(first: dict[float, float], second: dict[float, float], edges_of) -> list:
    """Each shown bin of one histogram minus the shown bins of the other inside it."""
    rests = []
    for a, b in ((first, second), (second, first)):
        for left, count in a.items():
            lo, hi = edges_of(a, left)
            inner = [
                c
                for l2, c in b.items()
                if l2 >= lo - 1e-9 and edges_of(b, l2)[1] <= hi + 1e-9 and np.isfinite(c)
            ]
            if inner and np.isfinite(count):
                rests.append(count - sum(inner))
    return rests


def _hist(df: pd.DataFrame, **kw) -> tuple[dict[float, float], dict[float, float]]:
    """Heights and widths of the drawn bars (a suppressed bin is drawn as an empty one)."""
    _, ax = plt.subplots()
    safeplot.histplot(df, x="x", **kw)
    patches = [p for p in ax.patches if np.isfinite(p.get_height())]
    return (
        {round(p.get_x(), 9): float(p.get_height()) for p in patches},
        {round(p.get_x(), 9): float(p.get_width()) for p in patches},
    )


_UNIT = [0.0, 1.0, 2.0, 3.0, 4.0]
_HALF = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]
_OTHER_BINS = {
    "half-width": (dict(bins=_UNIT), dict(bins=_HALF)),
    "double-width": (dict(bins=_HALF), dict(bins=_UNIT)),
    "edge-moved": (dict(bins=_UNIT), dict(bins=[0.0, 0.9, 2.0, 3.0, 4.0])),
    "edge-moved-first": (dict(bins=[0.0, 0.9, 2.0, 3.0, 4.0]), dict(bins=_UNIT)),
}


@pytest.mark.parametrize("case", list(_OTHER_BINS))
def test_other_bins_of_the_same_records_difference_to_no_small_count(case):
    # bin [0, 1) holds 2 records in [0.5, 1) and t + 1 in [0, 0.5); [0.9, 1) holds one of them
    t = safeplot.get_policy().threshold
    x = np.r_[np.full(t + 1, 0.25), 0.75, 0.95, np.full(2 * t, 1.5), np.full(3 * t, 2.5)]
    x = np.r_[x, np.full(t, 3.5)]
    df = pd.DataFrame({"x": x}).sample(frac=1.0, random_state=1)
    first, second = _OTHER_BINS[case]
    (h1, w1), (h2, w2) = _hist(df, **first), _hist(df, **second)
    widths = {**{("a", k): v for k, v in w1.items()}, **{("b", k): v for k, v in w2.items()}}

    def edges_of(which, left):
        w = widths[("a" if which is h1 else "b", left)]
        return left, left + w

    rests = _nested_rests(h1, h2, edges_of)
    assert rests, "the two histograms share no nested bins: the attack was not set up"
    assert all(r == 0 or r >= t for r in rests), (h1, h2, rests)
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


def test_without_the_ledger_half_width_bins_give_the_small_count():
    t = safeplot.get_policy().threshold
    x = np.r_[np.full(t + 1, 0.25), 0.75, 0.95, np.full(2 * t, 1.5), np.full(3 * t, 2.5)]
    df = pd.DataFrame({"x": x})
    drawn = []
    for kw in (dict(bins=_UNIT), dict(bins=_HALF)):
        with ledger.using(ledger.Ledger()):
            drawn.append(_hist(df, **kw)[0])
    assert drawn[0][0.0] - drawn[1][0.0] == 2  # the two records in [0.5, 1)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(20, 200),
    coarse=st.sampled_from([1.0, 2.0]),
    fine=st.sampled_from([0.5, 0.25]),
    shift=st.sampled_from([0.0, 0.5, 1.0]),
    fine_first=st.booleans(),
)
def test_no_two_binnings_difference_to_a_small_count(seed, n, coarse, fine, shift, fine_first):
    rng = np.random.default_rng(seed)
    x = np.round(rng.gamma(2.0, 1.5, n), 2) + 0.005  # no value on an edge
    threshold = 3
    hi = float(np.ceil(x.max())) + 2

    def release(width, start):
        edges = np.arange(start, hi + width, width)
        try:
            (rel,) = release_histograms(x, bins=edges, threshold=threshold)
        except DisclosureError:  # every bin below the threshold: nothing is released
            return None
        return rel

    with ledger.using(ledger.Ledger(Policy(threshold=threshold))):
        if fine_first:
            b, a = release(fine, 0.0), release(coarse, shift)
        else:
            a, b = release(coarse, shift), release(fine, 0.0)
    for outer, inner in ((a, b), (b, a)):
        if outer is None or inner is None:
            continue
        for i in range(outer.counts.size):
            lo, up = outer.edges[i], outer.edges[i + 1]
            inside = (inner.edges[:-1] >= lo - 1e-9) & (inner.edges[1:] <= up + 1e-9)
            known = inside & np.isfinite(inner.counts)
            if known.any() and np.isfinite(outer.counts[i]):
                rest = outer.counts[i] - inner.counts[known].sum()
                assert rest == 0 or rest >= threshold, (lo, up, outer.counts[i], rest)


# -- records with a missing hue ---------------------------------------------------------------


def _missing_hue_frame(t: int) -> pd.DataFrame:
    """Bins [0, 1), [1, 2), [2, 3], each with t + 1 records of 'a' and of 'b'; bin [0, 1)
    holds t - 1 more records whose hue is missing (a figure with hue leaves them out).
    Facet 'u' holds the records of bins [0, 1) and [1, 2), facet 'v' the rest; y is
    x + 0.25."""
    x = np.r_[np.repeat([0.5, 1.5, 2.5], 2 * (t + 1)), np.full(t - 1, 0.6)]
    g = np.r_[np.tile(["a"] * (t + 1) + ["b"] * (t + 1), 3), [None] * (t - 1)]
    f = np.where(x < 2.0, "u", "v")
    return pd.DataFrame({"x": x, "y": x + 0.25, "g": pd.Series(g, dtype=object), "f": f})


def _rests_are_safe(whole: dict, parts: list[dict], t: int) -> list[float]:
    rests = _rests(whole, parts)
    assert rests and all(rest == 0 or rest >= t for rest in rests), (whole, parts)
    return rests


def _hist_reads(df, **kw):
    _, ax = plt.subplots()
    safeplot.histplot(df, x="x", bins=_BINS, ax=ax, **kw)
    return [_bars(ax)]


def _ecdf_reads(df, **kw):
    _, ax = plt.subplots()
    safeplot.ecdfplot(df, x="x", bins=_BINS, stat="count", ax=ax, **kw)
    return [_ecdf_steps(ax)]


def _facet_reads(df, **kw):
    return _facet_bars(safeplot.displot(df, x="x", col="f", bins=_BINS, height=2, **kw))


def _grid_reads(df, **kw):
    from safeplot.plots.grid import release_grid

    hue = df["g"].to_numpy() if kw else None
    rel = release_grid(df["x"], df["y"], hue=hue, method="suppress", bins=3)
    return [{k: float(np.nansum(v)) for k, v in _cells(rel).items()}]


def _count_reads(df, **kw):
    from safeplot.plots.categorical import release_countplot

    rel = release_countplot(df.assign(c=np.floor(df["x"])), x="c", **kw)  # a category per bin
    return [dict(zip(rel.levels, np.nansum(rel.counts, axis=1).tolist(), strict=True))]


def _scatter_cell_reads(df, **kw):
    """The cells of a scatter plot under "suppress", read from the release in the audit log."""
    _, ax = plt.subplots()
    safeplot.scatterplot(df, x="x", y="y", method="suppress", bins=3, ax=ax, **kw)
    released = safeplot.audit.entries()[-1].to_dict()["released"]
    cells: dict[tuple, float] = defaultdict(float)
    at = {name: i for i, name in enumerate(released["columns"])}
    for row in released["data"]:
        cells[(row[at["x"]], row[at["y"]])] += float(row[at["count"]])
    return [dict(cells)]


#: how a reader reads one figure, with or without hue (a list of panels, summed per bin)
_MISSING_HUE_READS = {
    "histplot": _hist_reads,
    "ecdfplot": _ecdf_reads,
    "displot-col": _facet_reads,
    "grid": _grid_reads,
    "countplot": _count_reads,
    "scatter-cells": _scatter_cell_reads,
}


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
@pytest.mark.parametrize("kind", list(_MISSING_HUE_READS))
def test_records_with_a_missing_hue_are_not_the_total_minus_the_levels(kind, hue_first):
    """seaborn leaves rows with a missing hue out of a figure with hue; the same figure
    without hue counts them. Bin [0, 1) would show 3t + 1 in total and 2t + 2 by level:
    t - 1 records with a missing hue there, unless one more cell is hidden."""
    t = safeplot.get_policy().threshold
    df = _missing_hue_frame(t)
    read = _MISSING_HUE_READS[kind]
    if hue_first:
        split, whole = read(df, hue="g"), read(df)
    else:
        whole, split = read(df), read(df, hue="g")
    for total, part in zip(whole, split, strict=True):
        _rests_are_safe(total, [part], t)
    if kind != "countplot":  # the table's own secondary suppression (no earlier release)
        assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_a_count_plot_level_left_out_of_hue_order_is_not_the_total_minus_the_levels(hue_first):
    """countplot(x) beside countplot(x, hue, hue_order=[...]) naming all levels but one:
    a category's total minus its bars shown would count the records of the level left out."""
    t = safeplot.get_policy().threshold
    df = _missing_hue_frame(t).assign(g=lambda d: d["g"].fillna("c"))
    if hue_first:
        (split,), (whole,) = _count_reads(df, hue="g", hue_order=["a", "b"]), _count_reads(df)
    else:
        (whole,), (split,) = _count_reads(df), _count_reads(df, hue="g", hue_order=["a", "b"])
    _rests_are_safe(whole, [split], t)


def test_without_the_link_the_missing_hue_would_be_counted():
    """The attack above is real: with an empty ledger for each figure the difference is t - 1."""
    t = safeplot.get_policy().threshold
    df = _missing_hue_frame(t)
    (whole,) = _hist_reads(df)
    with ledger.using(ledger.Ledger()):
        (split,) = _hist_reads(df, hue="g")
    assert t - 1 in _rests(whole, [split])


def _differenced(facets_first: bool, faceted, whole, t: int) -> None:
    """Draw the faceted figure and the whole in the order given, and subtract as a reader:
    each shown cell of the whole minus the facets' there is 0 or at least `t`, and the
    ledger had to hide something for it."""
    if facets_first:
        parts, total = faceted(), whole()
    else:
        total, parts = whole(), faceted()
    rests = _rests(total, parts)
    assert rests and all(rest == 0 or rest >= t for rest in rests), (total, parts)
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


# -- count plots by facet against the whole -----------------------------------------------


def _count_bars(ax) -> dict[str, float]:
    """The bars drawn per category (summed over hue levels), read by their tick labels."""
    labels = zip(ax.get_xticks(), ax.get_xticklabels(), strict=True)
    ticks = {round(float(p), 6): t.get_text() for p, t in labels}
    out: dict[str, float] = defaultdict(float)
    for patch in ax.patches:
        height = float(patch.get_height())
        if np.isfinite(height) and height > 0:
            centre = patch.get_x() + patch.get_width() / 2
            nearest = min(ticks, key=lambda p: abs(p - centre))
            out[ticks[nearest]] += height
    return dict(out)


def _count_facet_frame(t: int) -> pd.DataFrame:
    """Categories p, q, r; facet 'u' holds 2t of each, facet 'v' holds t - 1 of 'p' and 2t of
    'q' and 'r'. Each cell splits into hue levels 'a' and 'b' of t records each (rounded up
    to 'a'), so only facet v's 'p' is small."""
    rows = []
    for facet, sizes in (("u", {"p": 2 * t, "q": 2 * t, "r": 2 * t}),
                         ("v", {"p": t - 1, "q": 2 * t, "r": 2 * t})):  # fmt: skip
        for cat, n in sizes.items():
            rows += [(cat, facet, "a" if i < (n + 1) // 2 else "b") for i in range(n)]
    return pd.DataFrame(rows, columns=["c", "f", "g"])


@pytest.mark.parametrize("hue", [None, "g"])
@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_a_count_plots_whole_minus_its_facets_shown_recovers_no_small_count(facets_first, hue):
    """countplot(x="c") gives p = 3t - 1; catplot(kind="count", col="f") shows facet u's
    2t: facet v's t - 1 records, unless one more bar is hidden."""
    t = safeplot.get_policy().threshold
    df = _count_facet_frame(t)

    def faceted():
        grid = safeplot.catplot(df, x="c", col="f", hue=hue, kind="count", height=2)
        return [_count_bars(ax) for ax in grid.axes.flat]

    def whole():
        _, ax = plt.subplots()
        return _count_bars(safeplot.countplot(df, x="c", hue=hue, ax=ax))

    _differenced(facets_first, faceted, whole, t)


def test_without_the_link_a_count_facet_would_be_the_whole_minus_the_others():
    t = safeplot.get_policy().threshold
    df = _count_facet_frame(t)
    _, ax = plt.subplots()
    total = _count_bars(safeplot.countplot(df, x="c", ax=ax))
    with ledger.using(ledger.Ledger()):
        grid = safeplot.catplot(df, x="c", col="f", kind="count", height=2)
    assert t - 1 in _rests(total, [_count_bars(a) for a in grid.axes.flat])


# -- bivariate histograms by facet against the whole ---------------------------------------


def _grid_cells(ax) -> dict[tuple[float, float], float]:
    """The drawn cells of a bivariate histogram (summed over hue levels), by their centres."""
    out: dict[tuple[float, float], float] = defaultdict(float)
    for mesh in ax.collections:
        counts = np.ma.filled(np.ma.masked_invalid(mesh.get_array()), 0.0)
        coords = mesh.get_coordinates()  # (ny + 1, nx + 1, 2) corners
        centres = (coords[:-1, :-1] + coords[1:, 1:]) / 2
        for (cx, cy), c in zip(centres.reshape(-1, 2), np.asarray(counts).ravel(), strict=True):
            if c > 0:
                out[(round(float(cx), 6), round(float(cy), 6))] += float(c)
    return dict(out)


def _bivariate_facet_frame(t: int) -> pd.DataFrame:
    """Cells around (0.5, 0.5), (1.5, 1.5), (2.5, 2.5); both facets span all three, so the
    facets and the whole share their cells; facet v holds t - 1 records of the middle one."""
    blocks = [("u", 0.5, 3 * t), ("u", 1.5, 3 * t), ("u", 2.5, 3 * t)]
    blocks += [("v", 0.5, 3 * t), ("v", 1.5, t - 1), ("v", 2.5, 3 * t)]
    rows = [(f, c, c, "a" if i % 2 else "b") for f, c, n in blocks for i in range(n)]
    return pd.DataFrame(rows, columns=["f", "x", "y", "g"])


@pytest.mark.parametrize("hue", [None, "g"])
@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_a_bivariate_histograms_whole_minus_its_facets_recovers_no_small_count(facets_first, hue):
    """histplot(x, y) gives the middle cell 4t - 1; displot(x, y, col="f") shows facet u's
    3t there: facet v's t - 1 records, unless one more cell is hidden."""
    t = safeplot.get_policy().threshold
    df = _bivariate_facet_frame(t)

    def faceted():
        grid = safeplot.displot(df, x="x", y="y", col="f", hue=hue, bins=3, height=2)
        return [_grid_cells(ax) for ax in grid.axes.flat]

    def whole():
        _, ax = plt.subplots()
        return _grid_cells(safeplot.histplot(df, x="x", y="y", hue=hue, bins=3, ax=ax))

    _differenced(facets_first, faceted, whole, t)


def test_the_facets_of_a_bivariate_histogram_share_the_wholes_cells():
    t = safeplot.get_policy().threshold
    df = _bivariate_facet_frame(t)
    grid = safeplot.displot(df, x="x", y="y", col="f", bins=3, height=2)
    edges = [mesh.get_coordinates()[0, :, 0] for ax in grid.axes.flat for mesh in ax.collections]
    assert len(edges) == 2 and np.array_equal(edges[0], edges[1])


def _released_cells(entry) -> dict[tuple, float]:
    """A scatter plot's cells as the audit log holds them, summed over (hue, style) levels."""
    released = entry.to_dict()["released"]
    at = {name: i for i, name in enumerate(released["columns"])}
    cells: dict[tuple, float] = defaultdict(float)
    for row in released["data"]:
        cells[(row[at["x"]], row[at["y"]])] += float(row[at["count"]])
    return dict(cells)


@pytest.mark.parametrize("hue", [None, "g"])
@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_a_scatter_plots_cells_minus_its_facets_recovers_no_small_count(facets_first, hue):
    """scatterplot under "suppress" gives the middle cell 4t - 1; relplot(col="f") shows facet
    u's 3t there: facet v's t - 1 records, unless one more cell is hidden. The cells are
    read from the audit log, as an output checker reads them."""
    t = safeplot.get_policy().threshold
    df = _bivariate_facet_frame(t)
    kws = dict(x="x", y="y", hue=hue, method="suppress", bins=3)

    def faceted():
        grid = safeplot.relplot(df, col="f", height=2, **kws)
        assert len(grid.axes.flat) == 2
        return [_released_cells(e) for e in safeplot.audit.entries()[-2:]]

    def whole():
        _, ax = plt.subplots()
        safeplot.scatterplot(df, ax=ax, **kws)
        return _released_cells(safeplot.audit.entries()[-1])

    _differenced(facets_first, faceted, whole, t)


# -- 2-D grids on nested cells ---------------------------------------------------------------


def _nested_cells_frame(t: int) -> pd.DataFrame:
    """3t records at the centre of each cell of an 8 x 8 grid on [0, 4]^2, but t - 1 in one:
    a 4 x 4 grid's cell holds four fine cells, so it shows 10t - 1 where the fine grid shows
    three cells of 3t and hides the fourth."""
    rows = []
    for i in range(8):
        for j in range(8):
            rows += [(0.25 + 0.5 * i, 0.25 + 0.5 * j)] * (t - 1 if (i, j) == (1, 1) else 3 * t)
    return pd.DataFrame(rows, columns=["x", "y"])


_GRIDS = {
    "heatmap": lambda df, bins, method: safeplot.heatmap(
        df, x="x", y="y", bins=bins, method=method, ax=plt.subplots()[1]
    ),
    "histplot": lambda df, bins, method: safeplot.histplot(
        df, x="x", y="y", bins=bins, method=method, ax=plt.subplots()[1]
    ),
}


def _released_grid(draw) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The edges and shown totals of a 2-D grid, as released to the analyst (NaN: hidden)."""
    with guard.capturing() as seen:
        draw()
    grids = [r for _, _, r in seen if hasattr(r, "xedges")]
    assert len(grids) == 1
    total = np.asarray(grids[0].total, dtype=float)
    return np.asarray(grids[0].xedges), np.asarray(grids[0].yedges), total


@pytest.mark.parametrize(
    "fine, coarse",
    [
        (("heatmap", 8, "suppress"), ("heatmap", 4, "suppress")),
        (("heatmap", 8, "suppress"), ("heatmap", 8, "generalize")),  # 2 x 2 cells merged
        (("histplot", 8, "suppress"), ("heatmap", 4, "suppress")),
    ],
    ids=["8x8-4x4", "suppress-generalize", "histogram-heatmap"],
)
@pytest.mark.parametrize("fine_first", [False, True], ids=["coarse-first", "fine-first"])
def test_a_coarse_grid_cell_minus_the_fine_cells_inside_recovers_no_small_count(
    fine_first, fine, coarse
):
    """A reader subtracts the shown fine cells inside a coarse cell from it: the rest must be
    0 or at least t (the fine cell of t - 1 records), in either order of release."""
    t = safeplot.get_policy().threshold
    df = _nested_cells_frame(t)

    def release(spec):
        func, bins, method = spec
        return _released_grid(lambda: _GRIDS[func](df, bins, method))

    first, second = (fine, coarse) if fine_first else (coarse, fine)
    got = {id(first): release(first)}
    got[id(second)] = release(second)
    fx, fy, ftot = got[id(fine)]
    cx, cy, ctot = got[id(coarse)]
    fcx, fcy = (fx[:-1] + fx[1:]) / 2, (fy[:-1] + fy[1:]) / 2
    rests = []
    for i in range(cx.size - 1):
        for j in range(cy.size - 1):
            if not np.isfinite(ctot[i, j]):
                continue
            inx = (fcx > cx[i]) & (fcx < cx[i + 1])
            iny = (fcy > cy[j]) & (fcy < cy[j + 1])
            inner = ftot[np.ix_(inx, iny)]
            rests.append(ctot[i, j] - np.nansum(inner))
    assert rests and all(rest == 0 or rest >= t for rest in rests), rests
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


def _lmplot_cells(seen, per_facet: int) -> list[dict[tuple, float]]:
    """lmplot's cells per facet, as released to the analyst (summed over its hue levels)."""
    points = [release["release"] for _, _, release in seen if isinstance(release, dict)]
    facets = []
    for start in range(0, len(points), per_facet):
        cells: dict[tuple, float] = defaultdict(float)
        for rel in points[start : start + per_facet]:
            for x, y, count in zip(rel.x, rel.y, rel.sizes, strict=True):
                cells[(float(x), float(y))] += float(count)
        facets.append(dict(cells))
    return facets


@pytest.mark.parametrize("hue", [None, "g"])
@pytest.mark.parametrize("facets_first", [False, True], ids=["whole-then-facets", "facets-first"])
def test_a_scatter_plots_cells_minus_lmplots_facets_recovers_no_small_count(facets_first, hue):
    """scatterplot under "suppress" gives the middle cell 4t - 1; lmplot(col="f") draws facet
    u's 3t there: facet v's t - 1 records, unless one more cell is hidden. lmplot's cells are
    read as the remote-analysis server hands them to the analyst: exact counts."""
    t = safeplot.get_policy().threshold
    df = _bivariate_facet_frame(t)
    kws = dict(x="x", y="y", hue=hue, method="suppress", bins=3)

    def faceted():
        with guard.capturing() as seen:
            grid = safeplot.lmplot(df, col="f", height=2, n_boot=20, seed=0, **kws)
        assert len(grid.axes.flat) == 2
        return _lmplot_cells(seen, 1 if hue is None else 2)

    def whole():
        _, ax = plt.subplots()
        safeplot.scatterplot(df, ax=ax, **kws)
        return _released_cells(safeplot.audit.entries()[-1])

    _differenced(facets_first, faceted, whole, t)


@pytest.mark.parametrize(
    "order",
    [np.array(["p", "q", "r"]), pd.Index(["p", "q", "r"]), ["p", "q", "r"]],
    ids=["numpy-str", "index", "list"],
)
def test_a_count_facet_is_linked_whatever_type_holds_its_order(order):
    """The ledger names a category by its value: order= given as numpy strings (or the
    Timestamps of df.day.unique()) is the same category as the data's own values."""
    t = safeplot.get_policy().threshold
    df = _count_facet_frame(t)

    def faceted():
        grid = safeplot.catplot(df, x="c", col="f", kind="count", order=order, height=2)
        return [_count_bars(ax) for ax in grid.axes.flat]

    def whole():
        _, ax = plt.subplots()
        return _count_bars(safeplot.countplot(df, x="c", ax=ax))

    _differenced(False, faceted, whole, t)


def test_count_plots_of_dates_are_linked_across_their_types():
    t = safeplot.get_policy().threshold
    df = _count_facet_frame(t)
    df["d"] = pd.to_datetime("2024-01-01") + pd.to_timedelta(
        df["c"].map({"p": 0, "q": 1, "r": 2}), "D"
    )

    def faceted():
        order = df["d"].unique()  # a DatetimeArray of Timestamps, not the data's datetimes
        grid = safeplot.catplot(df, x="d", col="f", kind="count", order=order, height=2)
        return [_count_bars(ax) for ax in grid.axes.flat]

    def whole():
        _, ax = plt.subplots()
        return _count_bars(safeplot.countplot(df, x="d", ax=ax))

    _differenced(True, faceted, whole, t)


# -- a count plot of a number beside its histogram ----------------------------------------


@pytest.mark.parametrize("counts_first", [False, True], ids=["hist-then-counts", "counts-first"])
def test_a_count_plot_of_a_number_beside_its_histogram_recovers_no_small_count(counts_first):
    """countplot(x="age") hides age 25 (t - 1 records); a histogram of age shows bin
    [20, 30): its count minus the ages 20 to 29 that the count plot shows would be t - 1,
    unless the ledger knows a category of a number is the records of that value."""
    t = safeplot.get_policy().threshold
    ages = np.repeat(np.arange(20, 40), 2 * t)
    df = pd.DataFrame({"age": np.r_[ages[ages != 25], np.full(t - 1, 25)]})

    def counts() -> dict[float, float]:
        _, ax = plt.subplots()
        drawn = _count_bars(safeplot.countplot(df, x="age", ax=ax))
        return {float(age): count for age, count in drawn.items()}

    def histogram() -> dict[float, float]:
        _, ax = plt.subplots()
        return _bars(safeplot.histplot(df, x="age", binwidth=10, binrange=(19.5, 39.5), ax=ax))

    if counts_first:
        levels, bins = counts(), histogram()
    else:
        bins, levels = histogram(), counts()
    assert 25.0 not in levels and bins  # what the attack needs: a hidden age, a bin over it
    rests = [  # a hidden bin is drawn 0 high: only the bins drawn with records are read
        total - sum(c for age, c in levels.items() if left <= age < left + 10)
        for left, total in bins.items()
        if total > 0
    ]
    assert all(rest == 0 or rest >= t for rest in rests), (bins, levels)
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


# -- histograms on shifted bins ------------------------------------------------------------


def _shown_bins(ax) -> list[tuple[float, float, float]]:
    """The bins drawn with records, as a reader measures them: (left, right, count)."""
    return sorted(
        (round(p.get_x(), 9), round(p.get_x() + p.get_width(), 9), float(p.get_height()))
        for p in ax.patches
        if np.isfinite(p.get_height()) and p.get_height() > 0
    )


def _runs_of(bins: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Every run of drawn bins end to end: its left and right edge and its count."""
    runs = []
    for i in range(len(bins)):
        total = 0.0
        for j in range(i, len(bins)):
            if j > i and not np.isclose(bins[j][0], bins[j - 1][1]):
                break
            total += bins[j][2]
            runs.append((bins[i][0], bins[j][1], total))
    return runs


def _run_differences(first, second) -> list[float]:
    """Each run of drawn bins of one histogram less the drawn bins of the other inside it."""
    rests = []
    for outer, inner in ((first, second), (second, first)):
        for left, right, total in _runs_of(outer):
            inside = [c for lo, hi, c in inner if lo >= left - 1e-9 and hi <= right + 1e-9]
            if inside:
                rests.append(total - sum(inside))
    return rests


def test_histograms_on_bins_shifted_by_half_a_width_give_no_small_count():
    """[0, 2) and [2, 4) hold t + 1 and t records, [1, 3) holds 2t: [0, 4) less [1, 3)
    is the one record of [0, 1), which the second histogram hides in its bin [-1, 1)."""
    t = safeplot.get_policy().threshold
    df = pd.DataFrame({"x": np.r_[0.5, np.full(t, 1.5), np.full(t, 2.5), np.full(t, 4.5)]})
    drawn = []
    for bins in ([0, 2, 4, 6], [-1, 1, 3, 5]):
        _, ax = plt.subplots()
        drawn.append(_shown_bins(safeplot.histplot(df, x="x", bins=bins, ax=ax)))
    rests = _run_differences(*drawn)
    assert rests and all(r == 0 or r >= t for r in rests), drawn
    assert any(d.action == "secondary suppression" for d in ledger.current().decisions())


@pytest.mark.parametrize("seed", range(12))
def test_no_two_histograms_on_shifted_bins_difference_to_a_small_count(seed):
    """Random counts of whole numbers, binned twice on random widths and offsets: every
    run of drawn bins of either, less the drawn bins of the other inside it, is 0 or at
    least the threshold."""
    t = safeplot.get_policy().threshold
    rng = np.random.default_rng(seed)
    values = np.repeat(np.arange(20), rng.choice([0, 1, 2, t, 2 * t], 20))
    df = pd.DataFrame({"x": values + 0.5})
    drawn = []
    for _ in range(2):
        width, offset = int(rng.integers(1, 5)), float(rng.integers(0, 4))
        _, ax = plt.subplots()
        edges = np.arange(-offset, 24 + width, width)
        drawn.append(_shown_bins(safeplot.histplot(df, x="x", bins=edges, ax=ax)))
    rests = _run_differences(*drawn)
    assert all(r == 0 or r >= t for r in rests), drawn
