"""barplot: group estimates of groups with enough records, rounded, no raw error bars."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.statistics import round_sig
from safeplot.errors import DisclosureError
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.bar import BAR_METHODS, barplot, release_barplot
from safeplot.policy import METHODS

from .leakscan import scan_figure

SAFE_METHODS = tuple(m for m in BAR_METHODS if m != "none")


def _frame(seed=3):
    rng = np.random.default_rng(seed)
    g = np.r_[np.repeat(["a", "b", "c"], [40, 30, 25]), ["d", "d"]]
    y = np.round(rng.normal(50, 10, g.size), 2)
    y[:3] = [412.731, -97.113, 255.517]  # planted unique outliers
    return pd.DataFrame({"g": g, "y": y, "h": rng.choice(["u", "v"], g.size)})


def _ties(seed=4):
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c"], 300)
    y = np.r_[rng.integers(0, 8, 296), 15, 23, -4, 3].astype(float)
    return pd.DataFrame({"g": g, "y": y})


def test_means_of_shown_groups_rounded_small_category_left_out():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", errorbar=None)
    assert [c for c, _ in rel.groups] == ["a", "b", "c"]
    means = df.groupby("g")["y"].mean()
    expected = round_sig(means.loc[["a", "b", "c"]].to_numpy(), 3)
    np.testing.assert_allclose(rel.estimates, expected, rtol=1e-7)
    # "d" has 2 records in all: left out with its records, as if absent (as countplot does)
    assert rel.suppressed == [] and rel.report.cells_suppressed == 0
    assert rel.report.n == 95


def test_a_small_group_in_a_shown_category_is_suppressed():
    df = _frame().query("g != 'd'").reset_index(drop=True)
    df.loc[[0, 1], "h"] = "w"  # two records of "w" in "a"
    rel = release_barplot(df, x="g", y="y", hue="h", errorbar=None)
    assert ("a", "w") not in rel.groups
    assert rel.suppressed == ["1 group(s)"]  # how many, never which
    assert rel.report.cells_suppressed == 1


def test_se_and_sd_errorbars_from_group_rounded():
    df = _frame()
    for kind, scale in (("se", 1), ("sd", 2)):
        rel = release_barplot(df, x="g", y="y", errorbar=(kind, scale))
        grp = df[df.g == "b"]["y"]
        half = (grp.sem() if kind == "se" else grp.std()) * scale
        est, lo, hi = rel.bar("b")
        np.testing.assert_allclose(
            [lo, hi], round_sig([grp.mean() - half, grp.mean() + half], 3), rtol=1e-6
        )


def test_pi_is_from_winsorised_values():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", errorbar=("pi", 95))
    _, lo, hi = rel.bar("a")
    raw = df[df.g == "a"]["y"]
    assert hi < raw.max() and lo > raw.min()  # not the planted extremes
    assert rel.report.params["winsor_sd"] == 2.6


def test_ci_is_reproducible_with_seed():
    df = _frame()
    a = release_barplot(df, x="g", y="y", seed=1, n_boot=200)
    b = release_barplot(df, x="g", y="y", seed=1, n_boot=200)
    np.testing.assert_array_equal(a.lower, b.lower)


@pytest.mark.parametrize("estimator", ["min", "max", np.max, max, "first"])
def test_record_estimators_refused(estimator):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="one record"):
        barplot(_frame(), x="g", y="y", estimator=estimator)
    assert plt.get_fignums() == before
    assert not audit.entries()


def test_callable_returning_an_extreme_refused():
    with pytest.raises(DisclosureError, match="named estimators"):
        barplot(_frame(), x="g", y="y", estimator=lambda v: np.sort(np.asarray(v))[-1])
    with pytest.raises(DisclosureError, match="largest record"):
        barplot(_frame(), x="g", y="y", estimator=np.max)


def test_median_and_callable_mean_allowed():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", estimator="median", errorbar=None)
    np.testing.assert_allclose(rel.bar("a")[0], round_sig(df[df.g == "a"].y.median(), 3))
    rel = release_barplot(df, x="g", y="y", estimator=np.mean, errorbar=None)
    np.testing.assert_allclose(rel.bar("a")[0], round_sig(df[df.g == "a"].y.mean(), 3))


def test_callable_errorbar_units_weights_refused():
    df = _frame()
    with pytest.raises(ValueError, match="callable errorbar"):
        barplot(df, x="g", y="y", errorbar=lambda v: (v.min(), v.max()))
    with pytest.raises(ValueError, match="units="):
        barplot(df, x="g", y="y", units="h")
    with pytest.raises(ValueError, match="weights="):
        barplot(df, x="g", y="y", weights="y")


def test_generalize_merges_small_category():
    rel = release_barplot(_frame(), x="g", y="y", method="generalize", errorbar=None)
    assert rel.levels[-1] == "Other"
    assert rel.report.details["categories_merged"] >= 1


def test_sum_gets_secondary_suppression():
    df = _frame().query("g != 'd'").reset_index(drop=True)
    df.loc[[0, 1], "h"] = "w"  # a bar of two records in "a": its total is protected too
    rel = release_barplot(df, x="g", y="y", hue="h", estimator="sum", errorbar=None)
    assert rel.report.cells_suppressed >= 2  # the small group and a partner


@pytest.mark.parametrize("method", SAFE_METHODS)
@pytest.mark.parametrize("maker", [_frame, _ties])
def test_leak_scan_every_method(method, maker):
    df = maker()
    fig, ax = plt.subplots()
    barplot(df, x="g", y="y", errorbar=("se", 2), method=method, ax=ax)
    raw = df["y"].to_numpy()
    findings = scan_figure(fig, {"y": raw}, count_axis=None)
    assert not findings, str(findings)
    assert ax.safeplot_report.method == method
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    assert audit.entries()[-1].function == "barplot"
    plt.close(fig)


def test_horizontal_and_hue():
    df = _frame()
    fig, ax = plt.subplots()
    barplot(df, x="y", y="g", hue="h", ax=ax)
    assert not scan_figure(fig, {"x": df["y"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_scanner_flags_raw():
    df = pd.DataFrame({"g": ["a", "a", "b", "b", "b"], "y": [1.0, 2.0, 3.0, 4.0, 5.5]})
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        barplot(df, x="g", y="y", estimator="max", errorbar=None, method="none", ax=ax)
    assert scan_figure(fig, {"y": df["y"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_annotate_false():
    fig, ax = plt.subplots()
    barplot(_frame(), x="g", y="y", annotate=False, ax=ax)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    plt.close(fig)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 2, "method": "deterministic"},
        {"q": 0.1, "method": "probabilistic"},
        {"threshold": 2},
        {"method": "none"},
    ],
)
def test_floors(kwargs):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError):
        barplot(_frame(), x="g", y="y", **kwargs)
    assert plt.get_fignums() == before
    assert not audit.entries()


def test_all_methods_listed():
    assert set(BAR_METHODS) == set(METHODS) - {"dp"}  # dp releases counts, not means


@pytest.mark.parametrize("function", ["countplot", "barplot"])
def test_native_scale_refuses_the_merged_other_category(function):
    """generalize merges the levels 4 and 5 (2 records each) into 'Other', which has no place
    on a numeric axis: refused with what to use, nothing drawn; without native_scale it is a
    category of its own."""
    x = np.repeat([1.0, 2.0, 3.0, 4.0, 5.0], [20, 20, 20, 2, 2])
    df = pd.DataFrame({"x": x, "y": np.linspace(0, 10, x.size).round(1)})
    draw = getattr(safeplot, function)
    kw = {"y": "y"} if function == "barplot" else {}
    with pytest.raises(ValueError, match=rf"{function}: native_scale=True cannot place"):
        draw(data=df, x="x", native_scale=True, method="generalize", **kw)
    assert plt.get_fignums() == [] and audit.entries() == []
    ax = draw(data=df, x="x", native_scale=False, method="generalize", **kw)
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "Other"


def _drawn(ax):
    """What a reader sees of a bar or point plot: slots, labels, marks, legend, value axis."""
    legend = ax.get_legend()
    return {
        "ticks": [float(t) for t in ax.get_xticks()],
        "labels": [t.get_text() for t in ax.get_xticklabels()],
        "xlim": ax.get_xlim(),
        "ylim": ax.get_ylim(),
        "yticks": [float(t) for t in ax.get_yticks()],
        "bars": sorted(
            (round(p.get_x(), 9), round(p.get_width(), 9), round(p.get_height(), 9))
            for p in ax.patches
            if hasattr(p, "get_width")
        ),
        "lines": sorted(
            tuple(np.round(np.r_[line.get_xdata(), line.get_ydata()], 9)) for line in ax.lines
        ),
        "legend": None if legend is None else [t.get_text() for t in legend.get_texts()],
    }


def _with_small(frame, n, **levels):
    """`frame` plus `n` records of the given levels, with values that are theirs alone."""
    extra = pd.DataFrame({k: [v] * n for k, v in levels.items()})
    extra["y"] = [911.375, -311.625][:n]
    return pd.concat([frame, extra], ignore_index=True)


@pytest.mark.parametrize("plot", ["barplot", "pointplot"])
@pytest.mark.parametrize("method", ["suppress", "deterministic"])
def test_a_named_category_keeps_its_empty_slot_whether_absent_or_small(plot, method):
    """seaborn keeps a category named in order= that has no records as an empty slot: so
    does a bar or point plot, and one of 1 or 2 records (too few to draw) looks the same,
    so the slot tells nothing the call did not say. An unnamed small one is left out."""
    draw = getattr(safeplot, plot)
    base = _frame().query("g != 'd'")
    order = ["a", "b", "c", "d"]
    seen = []
    for n in (0, 1, 2):
        fig, ax = plt.subplots()
        draw(_with_small(base, n, g="d", h="u"), x="g", y="y", order=order, method=method,
             errorbar=("se", 1), ax=ax)  # fmt: skip
        assert [t.get_text() for t in ax.get_xticklabels()] == order
        assert ax.get_xlim() == (-0.5, 3.5)  # four slots, as seaborn's
        found = scan_figure(fig, {"y": _with_small(base, n, g="d").y.to_numpy()}, count_axis=None)
        assert not found, str(found)
        report = ax.safeplot_report
        seen.append((_drawn(ax), report.n, report.cells_suppressed, report.warnings))
        plt.close(fig)
    # neither the figure nor its report tells 1 or 2 records of "d" from none
    assert seen[0] == seen[1] == seen[2]
    # not named by the call: the small category is left out and named nowhere
    fig, ax = plt.subplots()
    draw(_with_small(base, 2, g="d", h="u"), x="g", y="y", method=method, ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert ax.safeplot_report.n == seen[0][1]
    plt.close(fig)


def test_the_report_counts_every_suppressed_group():
    """Each hue bar of fewer than threshold records in a category large enough to show is
    a suppressed group: the warning counts them all (how many, never which)."""
    rng = np.random.default_rng(7)
    g = np.repeat(["a", "b", "c"], 30)
    h = np.where(rng.random(g.size) < 0.5, "u", "v")
    h[[0, 30, 60]] = "w"  # one record of "w" in each category: three small bars
    df = pd.DataFrame({"g": g, "h": h, "y": rng.normal(50, 10, g.size).round(2)})
    rel = release_barplot(df, x="g", y="y", hue="h", errorbar=None)
    assert rel.suppressed == ["3 group(s)"]
    assert rel.report.cells_suppressed == 3
    assert any(w.startswith("3 group(s) with fewer than threshold=3") for w in rel.report.warnings)


@pytest.mark.parametrize("plot", ["barplot", "pointplot"])
def test_a_named_hue_level_keeps_its_legend_entry_and_dodge_slot(plot):
    draw = getattr(safeplot, plot)
    base = _frame().query("g != 'd'")
    seen = []
    for n in (0, 2):
        fig, ax = plt.subplots()
        draw(_with_small(base, n, g="a", h="w"), x="g", y="y", hue="h", errorbar=None,
             hue_order=["u", "v", "w"], ax=ax)  # fmt: skip
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["u", "v", "w"]
        seen.append(_drawn(ax))
        plt.close(fig)
    assert seen[0] == seen[1]
    # seaborn dodges by the three named levels: the bars are as wide (and placed) as its own
    if plot == "barplot":
        fig, ax = plt.subplots()
        import seaborn as sns

        sns.barplot(base, x="g", y="y", hue="h", hue_order=["u", "v", "w"], errorbar=None, ax=ax)
        assert [b[:2] for b in _drawn(ax)["bars"]] == [b[:2] for b in seen[0]["bars"]]
    # not named: the small level is neither drawn nor in the legend
    fig, ax = plt.subplots()
    draw(_with_small(base, 2, g="a", h="w"), x="g", y="y", hue="h", errorbar=None, ax=ax)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == ["u", "v"]


@pytest.mark.parametrize("kind", ["bar", "point"])
def test_catplot_keeps_a_named_category_in_every_facet(kind):
    base = _frame().query("g != 'd'").assign(f=lambda d: np.where(d.index % 2, "p", "q"))
    order = ["a", "b", "c", "d"]
    seen = []
    for n in (0, 2):
        g = safeplot.catplot(_with_small(base, n, g="d", h="u", f="p"), x="g", y="y", col="f",
                             kind=kind, order=order, errorbar=None, height=2)  # fmt: skip
        for ax in g.axes.flat:
            assert [t.get_text() for t in ax.get_xticklabels()] == order
        seen.append([_drawn(ax) for ax in g.axes.flat])
        plt.close(g.figure)
    assert seen[0] == seen[1]


def test_generalize_keeps_a_named_merged_category_as_an_empty_slot():
    base = _frame().query("g != 'd'")
    order = ["a", "b", "c", "d"]
    rel = release_barplot(_with_small(base, 2, g="d", h="u"), x="g", y="y", order=order,
                          method="generalize", errorbar=None)  # fmt: skip
    assert rel.levels[:4] == order and rel.levels[-1] == "Other"
    assert "d" not in [c for c, _ in rel.groups]


@pytest.mark.parametrize("function", [safeplot.barplot, safeplot.pointplot])
def test_a_group_too_small_for_microaggregation_is_left_out_not_refused(function):
    """A bar of 5 records holds no two groups of k=3: it is left out, unnamed, and the other
    bars are exactly those of the data without it (groups are formed within each bar)."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame(
        {
            "day": np.repeat(["Mon", "Tue", "Wed"], [40, 5, 30]),
            "bill": np.round(rng.gamma(4, 5, 75), 2),
        }
    )
    fig, (a, b) = plt.subplots(1, 2)
    function(df, x="day", y="bill", method="microaggregation", k=3, ax=a)
    function(df[df.day != "Tue"], x="day", y="bill", method="microaggregation", k=3, ax=b)
    assert [t.get_text() for t in a.get_xticklabels()] == ["Mon", "Wed"]
    assert "1 group(s) with fewer than 6 records (2*k=6) are not drawn." in (
        a.safeplot_report.warnings
    )
    if function is safeplot.barplot:
        with_tue = release_barplot(df, x="day", y="bill", method="microaggregation", k=3)
        without = release_barplot(
            df[df.day != "Tue"], x="day", y="bill", method="microaggregation", k=3
        )
        np.testing.assert_array_equal(
            with_tue.estimates[np.isfinite(with_tue.estimates)],
            without.estimates[np.isfinite(without.estimates)],
        )
    with pytest.raises(DisclosureError, match=r"every group has fewer than 6 \(2\*k=6\)"):
        function(df[df.day == "Tue"], x="day", y="bill", method="microaggregation", k=3)
