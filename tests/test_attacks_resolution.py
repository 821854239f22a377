"""Attacks by resolution: a kernel, a grid, a polynomial or bins fine enough to show records.

A reader who chooses how finely a statistic is resolved (a tiny ``bw_adjust``
with a huge ``gridsize``, a polynomial through every x value, bins one record
wide) can make a curve pass through each record (DESIGN.md section 3,
invariants 4 and 5). Each test takes the resolution parameters to their
extremes, as an attacker would, and asserts that the call is refused or
draws nothing a rare raw value can be read from.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError
from safeplot.plots.kde import BW_FLOOR, GRIDSIZE_MENU
from safeplot.plots.regression import MAX_ORDER

from .leakscan import scan_figure

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")


@pytest.fixture
def people():
    rng = np.random.default_rng(8)
    x = rng.normal(50, 10, 150).round(1)
    return pd.DataFrame({"x": x, "y": (0.5 * x + rng.normal(0, 3, 150)).round(1)})


@pytest.mark.parametrize("method", ["confidential", "deterministic", "suppress"])
def test_one_bump_per_record_is_refused(people, method):
    """The attack: a kernel far narrower than the records' spacing, sampled very finely."""
    with pytest.raises((DisclosureError, ValueError)):
        safeplot.kdeplot(people, x="x", method=method, bw_adjust=0.01, gridsize=100_000)
    assert plt.get_fignums() == []


def test_stepping_bw_adjust_is_refused_below_the_floor(people):
    drawn = []
    for adjust in np.round(np.arange(0.05, 1.0, 0.05), 2):
        plt.close("all")
        try:
            safeplot.kdeplot(people, x="x", method="confidential", bw_adjust=float(adjust))
        except DisclosureError as err:
            assert "floor" in str(err)
            continue
        drawn.append(float(adjust))
    assert min(drawn) >= BW_FLOOR


@pytest.mark.parametrize("bw_method", [1e-4, 0.01, lambda kde: 1e-3])
def test_a_narrow_bw_method_is_refused(people, bw_method):
    with pytest.raises(DisclosureError, match="bandwidth"):
        safeplot.kdeplot(people, x="x", method="confidential", bw_method=bw_method)


def test_gridsize_comes_from_the_menu(people):
    accepted = []
    for gridsize in (10, 49, 50, 51, 100, 150, 200, 201, 1000, 100_000):
        plt.close("all")
        try:
            safeplot.kdeplot(people, x="x", method="confidential", gridsize=gridsize)
        except ValueError as err:
            assert "choose one of" in str(err)
            continue
        accepted.append(gridsize)
    assert accepted == list(GRIDSIZE_MENU)


@pytest.mark.parametrize("gridsize", GRIDSIZE_MENU)
def test_the_narrowest_kernel_allowed_draws_no_bump_per_record(people, gridsize):
    ax = safeplot.kdeplot(
        people, x="x", method="confidential", bw_adjust=BW_FLOOR, gridsize=gridsize
    )
    (line,) = ax.lines
    y = line.get_ydata()
    peaks = int(((y[1:-1] > y[:-2]) & (y[1:-1] > y[2:])).sum())
    assert peaks <= 5  # 150 records: a bump per record would give dozens
    assert not scan_figure(ax.figure, {"x": people["x"].to_numpy()}, count_axis=None)


def test_a_polynomial_through_every_x_value_is_refused():
    """Degree = distinct x values - 1 passes through each x value's mean outcome."""
    rng = np.random.default_rng(1)
    x = np.repeat([1.0, 2.0, 3.0, 4.0], [20, 20, 20, 1])
    df = pd.DataFrame({"x": x, "y": rng.normal(0, 1, x.size).round(2)})
    for order in range(3, 6):
        plt.close("all")
        with pytest.raises(DisclosureError, match="order"):
            safeplot.regplot(df, x="x", y="y", order=order, method="confidential")
        assert plt.get_fignums() == []
    # a quadratic through three large groups and a record is a least-squares fit, no more
    ax = safeplot.regplot(df, x="x", y="y", order=2, method="confidential")
    assert ax.lines


def test_orders_up_to_the_cap_draw_on_continuous_x(people):
    for order in range(1, MAX_ORDER + 1):
        plt.close("all")
        ax = safeplot.regplot(people, x="x", y="y", order=order, n_boot=50, seed=0)
        assert not scan_figure(
            ax.figure, {"x": people["x"].to_numpy(), "y": people["y"].to_numpy()}
        )
    with pytest.raises(DisclosureError, match="highest order"):
        safeplot.regplot(people, x="x", y="y", order=MAX_ORDER + 1)


def test_custom_x_estimators_and_explicit_x_bins_are_refused(people):
    with pytest.raises(DisclosureError, match="named estimators"):
        safeplot.regplot(people, x="x", y="y", x_estimator=lambda v: np.sort(v)[0])
    with pytest.raises(DisclosureError, match="x_bins"):
        safeplot.regplot(people, x="x", y="y", x_bins=[40.0, 50.0, 60.05])
    ax = safeplot.regplot(people, x="x", y="y", x_estimator=np.median, x_bins=4, n_boot=50)
    assert ax.safeplot_report is not None


@pytest.mark.parametrize(
    "kwargs", [{"bins": 1}, {"bins": 500}, {"binwidth": 0.001}, {"bins": "auto"}]
)
def test_histogram_bin_extremes_draw_no_small_count(people, kwargs):
    try:
        ax = safeplot.histplot(people, x="x", **kwargs)
    except (DisclosureError, ValueError):
        assert plt.get_fignums() == [] or not plt.gcf().axes[0].patches
        return
    assert not scan_figure(ax.figure, {"x": people["x"].to_numpy()})
