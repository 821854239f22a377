"""stripplot and swarmplot: anonymised values per category, and attacks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.deterministic import knn_centroids
from safeplot.errors import DisclosureError
from safeplot.plots.strip import release_stripplot, stripplot, swarmplot

from .leakscan import scan_figure

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _offsets(ax):
    return np.concatenate([c.get_offsets() for c in ax.collections if len(c.get_offsets())])


def test_values_are_knn_centroids_within_each_category():
    rel = release_stripplot(TIPS, x="day", y="tip", k=3)
    assert rel.method == "deterministic" and rel.report.params["k"] == 3
    assert len(rel.values) == len(TIPS) and rel.levels == ["Thur", "Fri", "Sat", "Sun"]
    # within a category, the released mean stays close to the raw one, and no value is raw
    for day in rel.levels:
        mine = rel.values[np.array(rel.categories) == day]
        raw = TIPS.loc[TIPS["day"] == day, "tip"].to_numpy()
        assert abs(mine.mean() - raw.mean()) < 0.1 * raw.std()
    rare = pd.Series(TIPS["tip"]).value_counts()
    rare = rare[rare < 3].index.to_numpy()
    assert not np.isin(rel.values, rare).any()


def test_the_points_drawn_are_the_released_values():
    fig, ax = plt.subplots()
    stripplot(TIPS, x="day", y="tip", jitter=False, ax=ax)
    rel = release_stripplot(TIPS, x="day", y="tip")
    drawn = np.sort(_offsets(ax)[:, 1])
    np.testing.assert_array_equal(drawn, np.sort(rel.values))
    assert ax.safeplot_report.function == "stripplot"
    assert audit.entries()[-1].function == "stripplot"


def test_deterministic_centroids_are_those_of_the_category_alone():
    df = pd.DataFrame(
        {"g": np.repeat(["a", "b"], 30), "v": np.r_[np.arange(30.0), 100 + np.arange(30.0)]}
    )
    rel = release_stripplot(df, x="g", y="v", k=3)
    a = rel.values[np.array(rel.categories) == "a"]
    assert a.max() < 50  # no centroid mixes records of the two categories
    assert not np.isin(rel.values, df["v"]).any()  # every value moved
    assert knn_centroids is not None


def test_a_small_group_is_neither_drawn_nor_named():
    df = TIPS[["day", "tip"]].astype({"day": str}).copy()
    df.loc[len(df)] = ["Mon", 9.871]
    df.loc[len(df)] = ["Mon", 0.213]
    for plot in (stripplot, swarmplot):
        fig, ax = plt.subplots()
        plot(df, x="day", y="tip", ax=ax, size=2)
        assert "Mon" not in [t.get_text() for t in ax.get_xticklabels()]
        # the 2 records of Mon, and 1 more of the largest group: the markers missing against
        # the same plot without x= are at least threshold=3, not Mon's 2
        assert len(_offsets(ax)) == len(df) - 3
        assert not scan_figure(fig, {"y": df["tip"].to_numpy()}, count_axis=None)
        assert ax.safeplot_report.cells_suppressed == 1
        assert any("not a small count" in w for w in ax.safeplot_report.warnings)
        # under keyed noise each record is drawn the same with and without x=: refused
        with pytest.raises(DisclosureError, match="drawn on its own"):
            plot(df, x="day", y="tip", ax=ax, size=2, method="probabilistic")


def test_a_hue_level_left_out_is_not_in_the_legend():
    df = TIPS.assign(who=np.where(TIPS.index < 2, "tiny", TIPS["sex"].astype(str)))
    fig, ax = plt.subplots()
    stripplot(df, x="time", y="tip", hue="who", ax=ax)
    assert "tiny" not in [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "suppress"}, ValueError, "not available"),
        ({"method": "confidential"}, ValueError, "not available"),
        ({"method": "none"}, DisclosureError, "raw"),
        ({"k": 1}, DisclosureError, r"\bk\b"),
        ({"log_scale": True}, ValueError, "log_scale= is not supported"),
        ({"native_scale": True}, ValueError, "native_scale= is not supported"),
    ],
)
def test_refusals_draw_nothing(kwargs, error, match):
    fig, ax = plt.subplots()
    with pytest.raises(error, match=match):
        stripplot(TIPS, x="day", y="tip", ax=ax, **kwargs)
    assert not ax.collections
    assert audit.entries() == []


def test_every_group_too_small_is_refused():
    with pytest.raises(DisclosureError, match="every group has fewer than"):
        swarmplot(TIPS.iloc[:20].assign(g=np.arange(20) % 10), x="g", y="tip")


def test_microaggregation_needs_two_groups_per_category():
    rel = release_stripplot(TIPS, x="size", y="tip", method="microaggregation", k=3)
    # parties of 1, 5 and 6 have 4 or 5 records: fewer than 2k = 6
    assert rel.levels == [2, 3, 4]
    assert rel.groups_left_out == 3


def test_raw_output_needs_the_policy():
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        swarmplot(TIPS, x="day", y="tip", method="none", size=2, ax=ax)
    assert ax.safeplot_report.method == "none"
