"""The guard: values, statistics and counts on their way into a release; the ledger hook."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.grids import hit_mask, move_off
from safeplot.release import guard


def test_a_released_value_on_a_rare_value_moves_invisibly_and_others_stay():
    out = guard.released_values([1.0, 2.0, 3.0], avoid=[2.0, 5.0], scale=10.0)
    assert not hit_mask(out, [2.0, 5.0]).any()
    np.testing.assert_array_equal(out[[0, 2]], [1.0, 3.0])
    assert out[1] - 2.0 == pytest.approx(1e-5)  # 1e-6 of the spread


def test_a_statistic_is_rounded_and_moved_by_one_unit_in_its_last_figure():
    out = guard.released_statistics([12.34, 45.61, 45.64], avoid=[45.6], sig=3)
    np.testing.assert_array_equal(out, [12.3, 45.7, 45.7])
    down = guard.released_statistics([45.61], avoid=[45.6, 45.5], sig=3, directions=-1)
    np.testing.assert_array_equal(down, [45.4])


def test_a_statistic_crossing_a_power_of_ten_keeps_moving():
    """9.99 -> 10.0 changes the unit; a fixed step would stall on the rounding."""
    out = guard.released_statistics([9.99], avoid=[9.99, 10.0], sig=3)
    assert out[0] == 10.1


def test_more_figures_than_the_policy_allows_are_refused():
    with pytest.raises(DisclosureError, match="sig"):
        guard.released_statistics([1.2345], sig=safeplot.get_policy().sig_figs + 2)


def test_counts_below_the_threshold_are_refused_and_safe_ones_pass():
    np.testing.assert_array_equal(guard.released_counts([0, np.nan, 3, 9], 3), [0, np.nan, 3, 9])
    with pytest.raises(DisclosureError, match="1 bin"):
        guard.released_counts([0, 2, 5], 3, what="bin")


def test_a_parameter_off_the_menu_is_refused_naming_the_menu():
    assert guard.from_menu("alpha", 0.05, (0.01, 0.05, 0.1)) == 0.05
    with pytest.raises(ValueError, match=r"alpha=0.051 .*\[0.01, 0.05, 0.1\]"):
        guard.from_menu("alpha", 0.051, (0.01, 0.05, 0.1))


def test_the_one_nudger_leaves_grid_points_and_refuses_an_endless_run():
    grid = np.array([0.0, 0.5, 1.0])
    np.testing.assert_array_equal(move_off(grid, avoid=[0.5], step=0.1, keep=grid), grid)
    with pytest.raises(DisclosureError, match="Could not move"):
        move_off([1.0], avoid=np.arange(1.0, 3.0, 0.1), step=0.1, max_steps=5)


def test_the_one_nudger_moves_values_of_any_memory_layout():
    """A band's two rows often come transposed (Fortran order): its values move all the same."""
    band = np.asfortranarray(np.array([[2.0, 3.0], [2.0, 1.0]]))
    np.testing.assert_array_equal(move_off(band, avoid=[2.0], step=0.5), [[2.5, 3.0], [2.5, 1.0]])


def test_a_curve_is_rounded_on_its_spans_grid_and_kept_off_rare_values():
    """Steps of the span's significant figures (no staircase far from zero), and a rounded
    value on a rare raw value moves one step; inside avoiding() a figure's rare values too."""
    values = np.array([9.01234, 10.5678, 11.0049])
    np.testing.assert_array_equal(guard.released_curve(values, [], span=2.0), [9.01, 10.57, 11.0])
    np.testing.assert_array_equal(guard.released_curve(values, [10.57], 2.0), [9.01, 10.58, 11.0])
    with guard.avoiding([9.01]):
        np.testing.assert_array_equal(guard.released_curve(values, [], 2.0), [9.02, 10.57, 11.0])
    np.testing.assert_array_equal(guard.released_curve(values, [], 2.0), [9.01, 10.57, 11.0])
    with safeplot.policy(sig_figs=2):
        np.testing.assert_array_equal(guard.released_curve(values, [], 2.0), [9.0, 10.6, 11.0])


def test_the_ledger_sees_every_release_and_can_refuse_one():
    seen = []

    def ledger(function, report, release):
        seen.append((function, report.method))
        if function == "countplot":
            raise DisclosureError("linked with an earlier release")

    audit.clear()
    df = safeplot.load_dataset("tips")
    guard.set_ledger(ledger)
    try:
        safeplot.histplot(df, x="total_bill")
        with pytest.raises(DisclosureError, match="linked"):
            safeplot.countplot(df, x="day")
    finally:
        guard.set_ledger(None)
        plt.close("all")
    assert seen == [("histplot", "suppress"), ("countplot", "suppress")]
    assert [e.function for e in audit.entries()] == ["histplot"]
    guard.record("histplot", None)  # no ledger installed: nothing happens


# -- every number a plot or table computes from records passes the guard ------------------


@pytest.fixture
def recorded(monkeypatch):
    """Record what a guard function returns, by its name on the guard module.

    The plots call ``guard.<name>(...)`` through the module, so the patch is
    seen; a plot that made its numbers some other way would leave nothing here.
    """

    def record(name):
        outputs = []
        original = getattr(guard, name)

        def wrapper(*args, **kwargs):
            out = original(*args, **kwargs)
            outputs.append(np.asarray(out, dtype=float).ravel())
            return out

        monkeypatch.setattr(guard, name, wrapper)
        return outputs

    yield record
    plt.close("all")


def _all_released(drawn, outputs):
    """Each drawn number (NaN aside) is one the guard returned."""
    drawn = np.asarray(drawn, dtype=float).ravel()
    drawn = drawn[np.isfinite(drawn)]
    released = np.concatenate(outputs) if outputs else np.array([])
    released = np.unique(released[np.isfinite(released)])
    assert drawn.size, "nothing drawn"
    assert released.size, "the guard was not called"
    pos = np.clip(np.searchsorted(released, drawn), 1, max(released.size - 1, 1))
    near = np.minimum(
        np.abs(drawn - released[pos - 1]),
        np.abs(drawn - released[np.minimum(pos, released.size - 1)]),
    )
    missing = drawn[near > 1e-12 * np.maximum(np.abs(drawn), 1.0)]
    assert not missing.size, f"drawn but not released by the guard: {missing[:10]}"


def _line_values(ax, axis="y"):
    """The values along `axis` of the solid lines of `ax` (markers-only lines left out)."""
    data = [
        line.get_ydata() if axis == "y" else line.get_xdata()
        for line in ax.lines
        if line.get_linestyle() not in ("None", "none", "")
    ]
    return np.concatenate([np.asarray(d, dtype=float).ravel() for d in data])


def _bar_heights(ax):
    return np.array([p.get_height() for p in ax.patches if hasattr(p, "get_height")])


def _tips():
    return safeplot.load_dataset("tips")


@pytest.mark.parametrize("method", ["suppress", "confidential"])
def test_box_statistics_drawn_are_the_guards(recorded, method):
    outputs = recorded("released_statistics")
    ax = safeplot.boxplot(_tips(), x="day", y="tip", method=method)
    boxes = np.concatenate(
        [p.get_path().vertices[:, 1] for p in ax.patches if hasattr(p, "get_path")]
    )
    _all_released(np.r_[_line_values(ax), boxes], outputs)


def test_released_values_of_a_box_plot_are_the_guards(recorded):
    outputs = recorded("released_values")
    rel = safeplot.plots.categorical.release_boxplot(
        _tips(), x="day", y="tip", method="deterministic"
    )
    _all_released(np.concatenate(rel.values), outputs)


def test_count_plot_bars_are_counts_the_guard_passed(recorded):
    outputs = recorded("released_counts")
    ax = safeplot.countplot(_tips(), x="size", hue="time")
    heights = _bar_heights(ax)
    _all_released(heights[heights > 0], outputs)  # seaborn's empty slots are 0


@pytest.mark.parametrize("method", ["suppress", "confidential"])
def test_bar_heights_and_error_bars_are_the_guards(recorded, method):
    outputs = recorded("released_statistics")
    ax = safeplot.barplot(_tips(), x="size", y="tip", errorbar=("se", 1), method=method)
    _all_released(np.r_[_bar_heights(ax), _line_values(ax)], outputs)


def test_ecdf_steps_under_the_rules_are_the_guards(recorded):
    outputs = recorded("released_statistics")
    ax = safeplot.ecdfplot(_tips(), x="tip", method="confidential", stat="count")
    (line,) = ax.lines
    x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
    x = x[np.isfinite(x)]
    _all_released(x[1:-1], outputs)  # the ends of the step line are the axis limits
    # the steps are counts of records per step, released (rounded) by the guard
    per_step = np.diff(np.unique(y[np.isfinite(y)]))
    _all_released(per_step, outputs)


def test_ecdf_steps_of_released_values_are_the_guards(recorded):
    outputs = recorded("released_values")
    rel = safeplot.plots.ecdf.release_ecdf(_tips(), x="tip", method="deterministic")
    _all_released(rel.positions[0], outputs)


def test_ecdf_counts_are_counts_the_guard_passed(recorded):
    outputs = recorded("released_counts")
    rel = safeplot.plots.ecdf.release_ecdf(_tips(), x="tip", method="suppress")
    _all_released(rel.weights[0], outputs)


def test_pp_curve_and_biplot_numbers_are_the_guards(recorded):
    outputs = recorded("released_statistics")
    rng = np.random.default_rng(0)
    fig = safeplot.plots.okeefe.ppplot(np.round(rng.normal(3, 2, 300), 1), fit=True)
    (curve,) = [line for line in fig.axes[0].lines if len(line.get_ydata()) > 2]
    _all_released(curve.get_ydata(), outputs)
    rel = safeplot.plots.okeefe.release_biplot(safeplot.load_dataset("penguins"), hue="species")
    _all_released(np.r_[rel.arrows.ravel(), rel.centroids.ravel(), rel.shares], outputs)


def test_correspondence_points_and_parallel_boxes_are_the_guards(recorded):
    outputs = recorded("released_statistics")
    ax = safeplot.plots.confidential.correspondenceplot(_tips(), vars=["day", "time", "sex"])
    points = np.concatenate([c.get_offsets() for c in ax.collections])
    _all_released(points, outputs)
    rng = np.random.default_rng(0)
    x = rng.normal(50, 10, 300)
    rel = safeplot.plots.confidential.release_parallelboxes(x, np.round(x + rng.normal(0, 5, 300)))
    _all_released([b.stats for pb in rel.boxes for b in pb.boxes], outputs)


def test_cross_table_cells_are_counts_the_guard_passed(recorded):
    outputs = recorded("released_counts")
    table = safeplot.crosstab(_tips(), "day", "size", margins=True)
    _all_released(table.to_numpy(), outputs)


def test_heat_map_counts_are_counts_the_guard_passed(recorded):
    outputs = recorded("released_counts")
    df = safeplot.load_dataset("penguins")
    ax = safeplot.heatmap(df, x="bill_length_mm", y="body_mass_g")
    _all_released(ax.collections[0].get_array().compressed(), outputs)


def test_summary_tables_are_the_guards(recorded):
    outputs = recorded("released_statistics")
    df = safeplot.load_dataset("penguins")
    desc = safeplot.describe(df)
    _all_released(desc.table.drop(index="count").to_numpy(), outputs)
    r = safeplot.corr(df, numeric_only=True).to_numpy()
    _all_released(r[~np.eye(len(r), dtype=bool)], outputs)
    test = safeplot.summaries.chi2_contingency(_tips(), "sex", "smoker")
    _all_released([test.statistic, test.pvalue], outputs)


def test_regression_summary_numbers_are_the_guards(recorded):
    outputs = recorded("released_statistics")
    fit = safeplot.diagnostics.safe_ols("tip ~ total_bill + size", data=_tips())
    frame = fit.summary_frame()
    _all_released(np.r_[frame.to_numpy().ravel(), fit.rsquared, fit.fvalue], outputs)
