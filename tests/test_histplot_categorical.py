"""histplot of a categorical variable: countplot's released counts in histplot's layouts."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from matplotlib.patches import Rectangle

import safeplot
from safeplot import DisclosureError, audit
from safeplot.plots.categorical import release_countplot
from safeplot.plots.distributions import histplot

from .leakscan import scan_figure


@pytest.fixture
def tips():
    return safeplot.load_dataset("tips")


@pytest.fixture
def small():
    """Four common levels, one rare level ("Zed", 2 records) and one small hue cell."""
    rng = np.random.default_rng(3)
    cat = np.r_[rng.choice(["Ant", "Bee", "Cat", "Dog"], 400), ["Zed", "Zed"]]
    hue = np.r_[rng.choice(["f", "m", "x"], 400), ["f", "m"]]
    hue[np.flatnonzero((cat == "Cat") & (hue == "m"))[2:]] = "f"  # Cat x m: 2 records
    value = np.round(rng.normal(50, 10, cat.size), 3)
    return pd.DataFrame({"kind": cat, "sex": hue, "value": value})


def _bars(ax):
    """(left, width, height) of each drawn bar, in drawing order."""
    return [
        (p.get_x(), p.get_width(), p.get_height())
        for p in ax.patches
        if isinstance(p, Rectangle) and p.get_height() > 0
    ]


def _texts(fig):
    out = []
    for ax in fig.axes:
        out += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
        out += [t.get_text() for t in ax.texts]
        if ax.get_legend() is not None:
            out += [t.get_text() for t in ax.get_legend().texts]
    return out


def test_dodged_bars_are_countplots_counts_where_seaborn_draws_them(tips):
    fig, (ours, theirs) = plt.subplots(1, 2)
    histplot(data=tips, x="day", hue="sex", multiple="dodge", shrink=0.8, ax=ours)
    sns.histplot(data=tips, x="day", hue="sex", multiple="dodge", shrink=0.8, ax=theirs)
    # nothing is small in tips' day x sex: the same bars, ticks and legend as seaborn
    np.testing.assert_allclose(np.array(_bars(ours)), np.array(_bars(theirs)))
    assert [t.get_text() for t in ours.get_xticklabels()] == ["Thur", "Fri", "Sat", "Sun"]
    assert list(ours.get_xticks()) == [0, 1, 2, 3]
    assert [t.get_text() for t in ours.get_legend().texts] == ["Male", "Female"]
    assert ours.get_legend().get_title().get_text() == "sex"
    assert (ours.get_xlabel(), ours.get_ylabel()) == ("day", "Count")
    rel = release_countplot(tips, x="day", hue="sex")
    heights = sorted(h for _, _, h in _bars(ours))
    assert heights == sorted(np.nan_to_num(rel.counts).ravel()[rel.counts.ravel() > 0])
    rep = ours.safeplot_report
    assert (rep.function, rep.method, rep.variables) == ("histplot", "suppress", ("day", "sex"))
    assert audit.entries()[-1].function == "histplot"


def test_a_small_level_is_suppressed_and_not_named(small):
    fig, ax = plt.subplots()
    histplot(data=small, x="kind", hue="sex", multiple="dodge", shrink=0.8, ax=ax)
    rel = release_countplot(small, x="kind", hue="sex")
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks == [str(level) for level in rel.levels]
    assert {"Ant", "Cat"} <= set(ticks)
    assert not any("Zed" in text for text in _texts(fig))
    heights = np.array([h for _, _, h in _bars(ax)])
    assert (heights >= 3).all()
    # Cat x m (2 records) is hidden (and one more cell, by secondary suppression)
    assert np.isnan(rel.count("Cat", "m"))
    assert ax.safeplot_report.cells_suppressed >= 1
    assert heights.size == int((np.nan_to_num(rel.counts) > 0).sum())
    found = scan_figure(fig, {"y": small["value"].to_numpy()}, count_axis="y", categorical="x")
    assert not found, str(found)


@pytest.mark.parametrize("multiple", ["layer", "dodge", "stack", "fill"])
def test_every_layout_draws_the_released_counts(tips, multiple):
    fig, (ours, theirs) = plt.subplots(1, 2)
    histplot(data=tips, x="day", hue="time", multiple=multiple, ax=ours)
    sns.histplot(data=tips, x="day", hue="time", multiple=multiple, ax=theirs)
    rel = release_countplot(tips, x="day", hue="time")
    shown = np.nan_to_num(rel.counts)
    assert rel.report.cells_suppressed > 0  # Thur dinner (1 record), Fri lunch, ...
    # seaborn draws every cell; safeplot the shown cells only, where seaborn draws them
    theirs_by_place = {round(x, 9): (w, h) for x, w, h in _bars(theirs)}
    for x, _w, h in _bars(ours):
        assert round(x, 9) in theirs_by_place
        if multiple == "fill":
            assert 0 < h <= 1
        else:
            assert h in shown
    assert len(_bars(ours)) == int((shown > 0).sum())


@pytest.mark.parametrize(
    ("stat", "total"), [("probability", 1.0), ("proportion", 1.0), ("percent", 100.0)]
)
def test_stats_are_shares_of_the_released_counts(small, stat, total):
    fig, ax = plt.subplots()
    histplot(data=small, x="kind", hue="sex", stat=stat, multiple="stack", ax=ax)
    heights = np.array([h for _, _, h in _bars(ax)])
    assert heights.sum() == pytest.approx(total)
    rel = release_countplot(small, x="kind", hue="sex")
    counts = np.sort(rel.counts[np.nan_to_num(rel.counts) > 0])
    np.testing.assert_allclose(np.sort(heights), counts / counts.sum() * total)
    assert ax.safeplot_report.details["stat"] == stat


def test_density_of_unit_bins_is_the_probability(small):
    fig, (a, b) = plt.subplots(1, 2)
    histplot(data=small, x="kind", stat="density", ax=a)
    histplot(data=small, x="kind", stat="probability", ax=b)
    np.testing.assert_allclose(np.array(_bars(a)), np.array(_bars(b)))
    assert a.get_ylabel() == "Density"


def test_y_gives_horizontal_bars(tips):
    fig, ax = plt.subplots()
    histplot(data=tips, y="day", hue="sex", multiple="dodge", shrink=0.8, ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Thur", "Fri", "Sat", "Sun"]
    widths = sorted(p.get_width() for p in ax.patches if isinstance(p, Rectangle))
    rel = release_countplot(tips, y="day", hue="sex")
    assert widths == sorted(rel.counts.ravel())
    assert ax.get_ylabel() == "day"


def test_generalize_merges_small_levels_into_other(small):
    fig, ax = plt.subplots()
    histplot(data=small, x="kind", method="generalize", ax=ax)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    rel = release_countplot(small, x="kind", method="generalize")
    assert ticks == [str(level) for level in rel.levels] and ticks[-1] == "Other"
    assert "Zed" not in ticks
    assert ax.safeplot_report.method == "generalize"


def test_text_and_vectors_count_as_categories():
    rng = np.random.default_rng(0)
    levels = rng.choice(["lo", "mid", "hi"], 200)
    fig, ax = plt.subplots()
    histplot(x=pd.Series(levels, name="band"), ax=ax)
    assert sorted(t.get_text() for t in ax.get_xticklabels()) == ["hi", "lo", "mid"]
    assert sum(h for _, _, h in _bars(ax)) == 200


@pytest.mark.parametrize(
    ("kws", "error", "match"),
    [
        ({"bins": 5}, ValueError, "categorical.*bins does not apply"),
        ({"binwidth": 1}, ValueError, "binwidth does not apply"),
        ({"discrete": False}, ValueError, "discrete=False does not apply"),
        ({"kde": True}, ValueError, "kde does not apply"),
        ({"log_scale": True}, ValueError, "log_scale does not apply"),
        ({"stat": "mean"}, ValueError, "stat must be one of"),
        ({"method": "deterministic"}, ValueError, "categorical.*moves numeric values"),
        ({"method": "dp"}, ValueError, "countplot.*order="),
        ({"epsilon": 1.0}, ValueError, "method='dp'"),
        ({"y": "sex"}, ValueError, "bivariate histogram needs two numeric"),
        ({"y": "tip"}, ValueError, "bivariate histogram needs two numeric"),
        ({"threshold": 1}, DisclosureError, "threshold"),
    ],
)
def test_bad_inputs_get_clear_errors_and_no_figure(tips, kws, error, match):
    audit.clear()
    with pytest.raises(error, match=match):
        histplot(data=tips, x="day", **kws)
    assert plt.get_fignums() == [] and audit.entries() == []


def test_everything_suppressed_draws_no_category_ticks():
    df = pd.DataFrame({"c": ["a", "a", "b", "b", "c"]})
    fig, ax = plt.subplots()
    histplot(data=df, x="c", ax=ax)
    assert not _bars(ax)
    assert list(ax.get_xticks()) == []
    assert not any(s in text for s in "abc" for text in _texts(fig) if len(text) == 1)


def test_numeric_categories_with_a_merged_other():
    rng = np.random.default_rng(0)
    x = np.r_[rng.integers(0, 4, 300), [7, 9]]
    df = pd.DataFrame({"x": pd.Series(x).astype("category"), "g": rng.choice(["a", "b"], 302)})
    fig, ax = plt.subplots()
    histplot(data=df, x="x", hue="g", method="generalize", ax=ax)
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert ticks[-1] == "Other" and "7" not in ticks and "9" not in ticks
    assert list(ax.get_xticks()) == list(range(len(ticks)))
