"""histplot(log_scale=...): released bins evenly spaced in the logarithm of the values."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.plots.distributions import histplot, release_histograms

from .leakscan import scan_figure


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _incomes() -> pd.DataFrame:
    """Incomes spread over three decades, one far above the rest."""
    rng = np.random.default_rng(4)
    x = np.round(rng.lognormal(10, 1, 600), 2)
    return pd.DataFrame(
        {
            "income": np.r_[x, 9_731_402.17],
            "g": np.append(rng.choice(["a", "b"], 600), "a"),
        }
    )


def _bars(ax):
    return sorted(
        (p.get_x(), p.get_x() + p.get_width(), p.get_height())
        for p in ax.patches
        if p.get_height() > 0
    )


def test_edges_are_evenly_spaced_in_log10_and_counts_are_those_of_log_values():
    df = _incomes()
    fig, ax = plt.subplots()
    histplot(df, x="income", log_scale=True, ax=ax)
    assert ax.get_xscale() == "log"
    bars = _bars(ax)
    left = np.array([b[0] for b in bars])
    right = np.array([b[1] for b in bars])
    steps = np.log10(right) - np.log10(left)
    np.testing.assert_allclose(steps, steps[0], rtol=1e-9)  # equal widths on the log axis
    # the counts are the released histogram of log10(income), suppressed as on a linear axis
    (rel,) = release_histograms(np.log10(df["income"].to_numpy()), name="income")
    shown = np.nan_to_num(rel.counts) > 0
    np.testing.assert_allclose(left, 10 ** rel.edges[:-1][shown], rtol=1e-9)
    np.testing.assert_array_equal([b[2] for b in bars], rel.counts[shown])
    assert all(c >= 3 for c in rel.counts[shown])
    assert ax.safeplot_report.details["log_scale"] == 10.0


def test_the_far_outlier_is_suppressed_and_nothing_rare_is_drawn():
    df = _incomes()
    fig, ax = plt.subplots()
    histplot(df, x="income", hue="g", log_scale=True, element="step", ax=ax)
    assert ax.get_xlim()[1] < 9_731_402.17
    assert not scan_figure(fig, {"x": df["income"].to_numpy()}, threshold=3, count_axis="y")


def test_the_raw_log_histogram_is_flagged_by_the_scanner():
    df = _incomes()
    fig, ax = plt.subplots()
    with safeplot.policy(allow_raw=True):
        histplot(df, x="income", log_scale=True, method="none", ax=ax)
    assert scan_figure(fig, {"x": df["income"].to_numpy()}, threshold=3, count_axis="y")


def test_another_base_and_the_y_axis():
    df = _incomes()
    fig, ax = plt.subplots()
    histplot(df, y="income", log_scale=2, method="generalize", ax=ax)
    assert ax.get_yscale() == "log" and ax.yaxis.get_transform().base == 2
    ticks = ax.get_yticks()
    np.testing.assert_allclose(np.log2(ticks), np.round(np.log2(ticks)))  # powers of 2


@pytest.mark.parametrize(
    ("values", "kwargs", "match"),
    [
        ([0.0, 1.0, 2.0] * 20, {}, "log_scale needs positive values"),
        ([-1.0, 1.0, 2.0] * 20, {}, "zero or negative"),
        ([1.0, 2.0, 3.0] * 20, {"log_scale": -10}, "log_scale must be"),
        ([1.0, 2.0, 3.0] * 20, {"log_scale": (True, True, True)}, "two values"),
        ([1.0, 2.0, 3.0] * 20, {"y": "v", "log_scale": True}, "one variable"),
    ],
)
def test_bad_log_scales_are_refused_before_drawing(values, kwargs, match):
    df = pd.DataFrame({"v": values})
    kwargs = {"log_scale": True, **kwargs}
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=match):
        histplot(df, x="v", ax=ax, **kwargs)
    assert not ax.has_data()
