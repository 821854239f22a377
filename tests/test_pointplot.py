"""pointplot and catplot(kind="point"): barplot's release drawn as points, and attacks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import rare_values
from safeplot.errors import DisclosureError
from safeplot.plots.bar import release_barplot
from safeplot.plots.line import ERRORBAR_MENU
from safeplot.plots.point import pointplot, release_pointplot
from safeplot.release.guard import released_statistics

from .leakscan import on_locator_grid, scan_figure

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_the_estimates_are_barplots():
    kws = dict(x="day", y="tip", hue="sex", errorbar=("se", 1))
    rel = release_pointplot(TIPS, **kws)
    bars = release_barplot(TIPS, **kws)
    assert rel.groups == bars.groups
    np.testing.assert_array_equal(rel.estimates, bars.estimates)
    np.testing.assert_array_equal(rel.lower, bars.lower)
    np.testing.assert_array_equal(rel.upper, bars.upper)
    assert rel.report.function == "pointplot" and bars.report.function == "barplot"


def test_released_numbers_are_the_rounded_group_means():
    rel = release_pointplot(TIPS, x="day", y="tip", errorbar=("se", 1))
    groups = TIPS.groupby("day", observed=True)["tip"]
    rare = rare_values(TIPS["tip"], 3)
    assert rel.estimates.tolist() == [2.77, 2.73, 2.99, 3.26]
    assert rel.estimates.tolist() == list(released_statistics(groups.mean().to_numpy(), rare))
    upper = (groups.mean() + groups.sem()).to_numpy()
    assert rel.upper.tolist() == list(released_statistics(upper, rare))
    # the value axis spans the released numbers (no baseline at zero), its limits off rare
    # tips; its ticks are a locator's round numbers between them (invariant 2)
    assert 0 < rel.value_lim[0] < rel.lower.min()
    assert not np.isin(rel.value_lim, rare).any()
    assert on_locator_grid(rel.value_ticks)


def test_the_points_drawn_are_the_released_estimates():
    fig, ax = plt.subplots()
    pointplot(TIPS, x="day", y="tip", errorbar=("se", 1), ax=ax)
    rel = release_pointplot(TIPS, x="day", y="tip", errorbar=("se", 1))
    joined = [line for line in ax.get_lines() if len(line.get_ydata()) == 4]
    assert [list(line.get_ydata()) for line in joined] == [rel.estimates.tolist()]
    bars = sorted(
        (float(np.min(line.get_ydata())), float(np.max(line.get_ydata())))
        for line in ax.get_lines()
        if len(line.get_ydata()) == 2
    )
    assert bars == sorted(zip(rel.lower.tolist(), rel.upper.tolist(), strict=True))
    assert ax.safeplot_report.function == "pointplot"
    assert audit.entries()[-1].function == "pointplot"


@pytest.mark.parametrize("plot", [pointplot, safeplot.barplot], ids=["point", "bar"])
def test_a_small_group_is_neither_drawn_nor_named(plot):
    df = TIPS[["day", "tip"]].astype({"day": str}).copy()
    df.loc[len(df)] = ["Mon", 9.871]
    df.loc[len(df)] = ["Mon", 0.213]
    fig, ax = plt.subplots()
    plot(df, x="day", y="tip", errorbar=("sd", 1), ax=ax)
    assert "Mon" not in [t.get_text() for t in ax.get_xticklabels()]
    assert not scan_figure(fig, {"y": df["tip"].to_numpy()}, count_axis=None)
    # left out with its records, as if absent: the report does not tell it exists
    fig, ax2 = plt.subplots()
    plot(df.query("day != 'Mon'"), x="day", y="tip", errorbar=("sd", 1), ax=ax2)
    assert ax.safeplot_report.to_dict() == ax2.safeplot_report.to_dict()
    assert not any("fewer than threshold=3" in w for w in ax.safeplot_report.warnings)


def test_stepping_the_errorbar_level_is_refused_off_the_menu():
    accepted = []
    for kind in ("ci", "pi", "se", "sd"):
        for level in [*range(1, 100), 0.5, 95.5]:
            try:
                release_pointplot(TIPS, x="day", y="tip", errorbar=(kind, level), n_boot=10)
            except ValueError as err:
                assert "not available" in str(err)
            else:
                accepted.append((kind, level))
    assert sorted(accepted) == sorted(ERRORBAR_MENU)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"estimator": "max"}, DisclosureError, "returns one record's value"),
        ({"estimator": np.min}, DisclosureError, "returns one record's value"),
        ({"errorbar": lambda v: (v.min(), v.max())}, ValueError, "callable errorbar"),
        ({"errorbar": ("pi", 99)}, ValueError, "not available"),
        ({"units": "size"}, ValueError, "units= is not supported"),
        ({"weights": "size"}, ValueError, "weights= is not supported"),
        ({"method": "none"}, DisclosureError, "raw"),
        ({"ci": 95}, ValueError, "deprecated spelling"),
    ],
)
def test_refusals_draw_nothing(kwargs, error, match):
    fig, ax = plt.subplots()
    with pytest.raises(error, match=match):
        pointplot(TIPS, x="day", y="tip", ax=ax, **kwargs)
    assert not ax.lines and not ax.collections
    assert audit.entries() == []


def test_every_group_too_small_is_refused():
    with pytest.raises(DisclosureError, match="no estimate can be shown"):
        pointplot(TIPS.iloc[:3], x="day", y="tip", hue="sex")


def test_a_callable_estimator_returning_an_extreme_record_is_refused():
    def top(v):
        return float(np.max(v))

    with pytest.raises(DisclosureError, match="pointplot: estimator='top' is not one of"):
        pointplot(TIPS, x="day", y="tip", estimator=top)


def test_raw_output_needs_the_policy():
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        pointplot(TIPS, x="day", y="tip", method="none", errorbar=None, ax=ax)
    assert ax.safeplot_report.method == "none"


def test_catplot_kind_point_releases_each_facet():
    g = safeplot.catplot(
        TIPS, x="day", y="tip", col="time", kind="point", errorbar=("se", 1), height=2
    )
    assert [r.function for r in g.safeplot_reports] == ["pointplot", "pointplot"]
    from safeplot.plots.facets import facet_axes_variables

    per_axes = {ax: {"y": v["y"]} for ax, v in facet_axes_variables(g, TIPS).items()}
    assert not scan_figure(g.figure, {"y": TIPS["tip"].to_numpy()}, per_axes=per_axes)


def test_a_category_named_in_order_keeps_its_slot_empty_whether_absent_or_small():
    """As seaborn's pointplot keeps a named category without records (an empty slot), so
    does this one, and a category of 2 records (too few to draw) looks the same."""
    df = TIPS[["day", "tip"]].astype({"day": str}).copy()
    order = ["Thur", "Fri", "Sat", "Sun", "Mon"]
    seen = []
    for extra in ([], [9.871, 0.213]):
        data = df.copy()
        for v in extra:
            data.loc[len(data)] = ["Mon", v]
        fig, ax = plt.subplots()
        pointplot(data, x="day", y="tip", order=order, errorbar=("sd", 1), ax=ax)
        assert [t.get_text() for t in ax.get_xticklabels()] == order
        assert not scan_figure(fig, {"y": data["tip"].to_numpy()}, count_axis=None)
        seen.append(
            (ax.get_xlim(), ax.get_ylim(), [tuple(ln.get_xydata().ravel()) for ln in ax.lines])
        )
    assert seen[0] == seen[1]
    assert seen[0][0] == (-0.5, 4.5)  # five slots, as seaborn's
