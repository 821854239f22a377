"""rugplot: ticks at released values, and attacks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.errors import DisclosureError
from safeplot.plots.rug import release_rugplot, rugplot

from .leakscan import scan_figure

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _ticks(ax):
    segments = [s for c in ax.collections for s in c.get_segments()]
    return np.array([s[0][0] for s in segments])


def test_ticks_are_the_released_values():
    fig, ax = plt.subplots()
    rugplot(TIPS, x="total_bill", ax=ax)
    rel = release_rugplot(TIPS, x="total_bill")
    np.testing.assert_array_equal(np.sort(_ticks(ax)), np.sort(rel.values["x"]))
    assert rel.method == "deterministic" and rel.report.params["k"] == 3
    counts = TIPS["total_bill"].value_counts()
    assert not np.isin(rel.values["x"], counts[counts < 3].index).any()
    assert audit.entries()[-1].function == "rugplot"


def test_a_unique_outlier_gets_no_tick_at_its_value():
    df = TIPS[["total_bill"]].copy()
    df.loc[len(df)] = [251.173]
    fig, ax = plt.subplots()
    rugplot(df, x="total_bill", ax=ax)
    assert not np.isclose(_ticks(ax), 251.173).any()
    assert not scan_figure(fig, {"x": df["total_bill"].to_numpy()})


def test_a_small_hue_level_is_left_out_and_not_named():
    df = TIPS.assign(who=np.where(TIPS.index < 2, "tiny", TIPS["time"].astype(str)))
    fig, ax = plt.subplots()
    rugplot(df, x="tip", hue="who", ax=ax)
    assert "tiny" not in [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(_ticks(ax)) == len(df) - 3  # and 1 more, so the ticks missing are 3, not 2
    assert ax.safeplot_report.cells_suppressed == 1
    with pytest.raises(DisclosureError, match="drawn on its own"):
        rugplot(df, x="tip", hue="who", ax=ax, method="rounding")


def test_over_another_plot_the_rug_keeps_its_axes():
    fig, ax = plt.subplots()
    safeplot.histplot(TIPS, x="total_bill", ax=ax)
    lim = ax.get_xlim()
    rugplot(TIPS, x="total_bill", ax=ax)
    assert ax.get_xlim() == lim


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "suppress"}, ValueError, "not available"),
        ({"method": "confidential"}, ValueError, "not available"),
        ({"method": "none"}, DisclosureError, "raw"),
        ({"k": 1}, DisclosureError, r"\bk\b"),
        ({"x": None}, ValueError, "needs x= and/or y="),
    ],
)
def test_refusals_draw_nothing(kwargs, error, match):
    fig, ax = plt.subplots()
    kwargs = {"x": "tip", **kwargs}
    with pytest.raises(error, match=match):
        rugplot(TIPS, ax=ax, **kwargs)
    assert not ax.collections
    assert audit.entries() == []


def test_bad_input_gets_a_clear_error():
    with pytest.raises(ValueError, match=r"text|numeric"):
        rugplot(TIPS, x="day")
    with pytest.raises(ValueError, match="inf"):
        rugplot(pd.DataFrame({"v": [1.0, 2.0, np.inf] * 5}), x="v")


def test_raw_output_needs_the_policy():
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        rugplot(TIPS, x="tip", method="none", ax=ax)
    assert ax.safeplot_report.method == "none"
