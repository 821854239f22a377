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
