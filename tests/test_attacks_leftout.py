"""Attacks on hue levels left out: the figure with hue against the same figure without it.

A hue level too small for the method is left out of the figure (DESIGN.md
invariant 10). A reader who holds the same figure drawn without ``hue``
(invariant 6) subtracts the two: the points (or density) present without hue
and missing with it would be the records left out, if the records kept were
drawn the same way in both. Under the methods that leave a level out
("deterministic", "microaggregation") the records are grouped within each
level, so the figure without hue groups them differently and the difference
singles out nothing; the methods that draw each record on its own
("probabilistic") never leave a level out. Each test attacks as that reader.
"""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection

import safeplot
from safeplot import DisclosureError, get_policy

from .leakscan import scan_figure

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")

#: The name of the small level: it must appear nowhere in a figure that leaves it out.
SECRET = "zq_secret_level"


def _frame() -> pd.DataFrame:
    """120 records of level 'a', 60 of 'b', and 2 of the secret level with unique values."""
    rng = np.random.default_rng(20261128)
    n = 180
    x = np.round(rng.normal(50, 10, n), 3)
    y = np.round(0.6 * x + rng.normal(0, 5, n), 3)
    df = pd.DataFrame({"x": x, "y": y, "g": ["a"] * 120 + ["b"] * 60})
    # the two records of the small level sit inside the bulk, where neighbours are close
    secret = pd.DataFrame({"x": [47.123, 55.871], "y": [29.457, 33.219], "g": [SECRET] * 2})
    return pd.concat([df, secret], ignore_index=True)


def _points(fig) -> np.ndarray:
    """Every marker drawn in the figure, as a reader reads them off the vector file."""
    offsets = [
        np.asarray(c.get_offsets(), dtype=float)
        for ax in fig.axes
        for c in ax.collections
        if isinstance(c, PathCollection) and len(c.get_offsets())
    ]
    return np.concatenate(offsets) if offsets else np.empty((0, 2))


def _missing(without: np.ndarray, with_hue: np.ndarray) -> np.ndarray:
    """The points drawn without hue that the figure with hue does not draw."""
    if not len(with_hue):
        return without
    near = [np.isclose(with_hue, p, rtol=1e-9, atol=0).all(axis=1).any() for p in without]
    return without[~np.asarray(near, dtype=bool)]


def _text(fig) -> str:
    """All the text of the figure, as drawn and as saved."""
    drawn = " ".join(t.get_text() for t in fig.findobj(plt.Text))
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    return drawn + buf.getvalue()


def _secret_rows(df):
    return df.loc[df["g"] == SECRET, ["x", "y"]].to_numpy()


@pytest.mark.parametrize("method", ["deterministic", "microaggregation"])
def test_scatter_with_and_without_hue_does_not_single_out_the_level_left_out(method):
    df = _frame()
    fig_all, ax_all = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", method=method, ax=ax_all)
    fig_hue, ax_hue = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", hue="g", method=method, ax=ax_hue)
    assert ax_hue.safeplot_report.details["groups_left_out"] == 1
    without, with_hue = _points(fig_all), _points(fig_hue)
    threshold = get_policy().threshold
    # counting the markers of the two figures: one per record, so the difference is the
    # number of records left out, which must not be the level's 2 but at least threshold
    assert len(without) == len(df)
    assert len(without) - len(with_hue) >= threshold
    assert any("not a small count" in w for w in ax_hue.safeplot_report.warnings)
    diff = _missing(without, with_hue)
    # the points missing with hue are not the two records left out: the grouping moved
    # other points too, so the difference is far more than two points
    assert len(np.unique(diff, axis=0)) >= threshold
    # and none of them, nor any point of either figure, is a left-out record's raw value
    for fig in (fig_all, fig_hue):
        pts = _points(fig)
        for value in _secret_rows(df):
            assert not np.isclose(pts, value, rtol=1e-9, atol=0).any()
    # the level's name is nowhere in the figure that left it out
    assert SECRET not in _text(fig_hue)
    for fig in (fig_all, fig_hue):
        assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, count_axis=None)
    plt.close(fig_all)
    plt.close(fig_hue)


@pytest.mark.parametrize("method", ["deterministic", "microaggregation"])
def test_scatter_difference_moves_most_points_not_just_the_records_left_out(method):
    # grouping within levels changes the groups of records far from the level left out:
    # most points drawn without hue are missing with hue, so "missing" does not mean "left
    # out", and the points nearest a left-out record's value are several, not one
    df = _frame()
    fig_all, ax_all = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", method=method, ax=ax_all)
    fig_hue, ax_hue = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", hue="g", method=method, ax=ax_hue)
    diff = _missing(_points(fig_all), _points(fig_hue))
    assert len(diff) >= len(df) // 2
    sd = df[["x", "y"]].std().to_numpy()
    for value in _secret_rows(df):
        dist = np.sqrt((((diff - value) / sd) ** 2).sum(axis=1))
        # within 0.25 SD of the record lie several missing points (other records' too)
        assert (dist < 0.25).sum() >= get_policy().threshold
    plt.close(fig_all)
    plt.close(fig_hue)


def test_pairplot_with_and_without_hue_does_not_single_out_the_level_left_out():
    df = _frame()
    g_all = safeplot.pairplot(df, vars=["x", "y"], method="deterministic")
    g_hue = safeplot.pairplot(df, vars=["x", "y"], hue="g", method="deterministic")
    assert g_hue.safeplot_report.details["groups_left_out"] == 1
    # the lower-left panel plots (x, y): compare its markers in both figures
    without = np.asarray(g_all.axes[1, 0].collections[0].get_offsets(), dtype=float)
    with_hue = _points_of_axes(g_hue.axes[1, 0])
    # the markers counted: the records left out are at least threshold, not the level's 2
    assert len(without) - len(with_hue) >= get_policy().threshold
    assert any("not a small count" in w for w in g_hue.safeplot_report.warnings)
    diff = _missing(without, with_hue)
    assert len(np.unique(diff, axis=0)) >= get_policy().threshold
    for value in _secret_rows(df):
        assert not np.isclose(with_hue, value, rtol=1e-9, atol=0).all(axis=1).any()
        assert not np.isclose(without, value, rtol=1e-9, atol=0).all(axis=1).any()
    assert SECRET not in _text(g_hue.figure)
    plt.close(g_all.figure)
    plt.close(g_hue.figure)


def _points_of_axes(ax) -> np.ndarray:
    offsets = [
        np.asarray(c.get_offsets(), dtype=float)
        for c in ax.collections
        if isinstance(c, PathCollection) and len(c.get_offsets())
    ]
    return np.concatenate(offsets)


def test_kde_left_out_level_is_not_named_and_nothing_rare_is_drawn():
    df = _frame()
    fig_all, ax_all = plt.subplots()
    safeplot.kdeplot(data=df, x="x", method="deterministic", ax=ax_all)
    fig_hue, ax_hue = plt.subplots()
    safeplot.kdeplot(data=df, x="x", hue="g", method="deterministic", ax=ax_hue)
    assert ax_hue.safeplot_report.details["groups_left_out"] == 1
    assert SECRET not in _text(fig_hue)
    for fig in (fig_all, fig_hue):
        assert not scan_figure(fig, {"x": df["x"].to_numpy()}, count_axis=None)
    plt.close(fig_all)
    plt.close(fig_hue)


def test_scatter_under_keyed_noise_refuses_the_small_level_as_pairplot_does():
    # why "probabilistic" never leaves a level out: a record's noisy point is the same with
    # and without hue, so leaving the level's points out of the figure with hue would make
    # the difference of the two figures exactly the level's (noisy) records; drawing them
    # would show the level's count under its name. Both scatterplot and pairplot refuse it
    df = _frame()
    fig_all, ax_all = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", method="probabilistic", ax=ax_all)
    fig_hue, ax_hue = plt.subplots()
    with pytest.raises(DisclosureError, match="leaving the small ones out would"):
        safeplot.scatterplot(data=df, x="x", y="y", hue="g", method="probabilistic", ax=ax_hue)
    assert len(_points(fig_hue)) == 0
    with pytest.raises(DisclosureError, match="cannot be left out either"):
        safeplot.pairplot(df, vars=["x", "y"], hue="g", method="probabilistic")
    plt.close("all")


def _facet_frame() -> pd.DataFrame:
    """The frame of the tests above in two facets; the secret level's 2 records both in "u"."""
    df = _frame()
    df["f"] = np.where(np.arange(len(df)) % 2 == 0, "u", "v")
    df.loc[df["g"] == SECRET, "f"] = "u"
    return df


def _bars(ax) -> dict[float, float]:
    """Sum of the drawn bar heights at each bin's left edge, as a reader measures them."""
    heights: dict[float, float] = {}
    for patch in ax.patches:
        if np.isfinite(patch.get_height()) and patch.get_height() > 0:
            left = round(float(patch.get_x()), 9)
            heights[left] = heights.get(left, 0.0) + float(patch.get_height())
    return heights


def _rests(g_all, g_hue) -> list[float]:
    """Per facet and bin: the total without hue minus the hue levels' bars shown with it."""
    rests = []
    for ax_all, ax_hue in zip(g_all.axes.flat, g_hue.axes.flat, strict=True):
        split = _bars(ax_hue)
        rests += [t - split.get(left, 0.0) for left, t in _bars(ax_all).items()]
    return rests


@pytest.mark.parametrize("hue_first", [False, True], ids=["total-then-hue", "hue-then-total"])
def test_displot_with_and_without_hue_counts_no_level_left_out_of_a_facet(hue_first):
    # a reader holds displot(col=) with and without hue=: in the facet holding the secret
    # level, each bin's total minus the levels shown would be its records, unless the
    # level's hidden counts are linked with the total by the release ledger
    df = _facet_frame()
    threshold = get_policy().threshold
    bins = np.arange(0.0, 101.0, 5.0).tolist()
    grids = {}
    for hue in ("g", None) if hue_first else (None, "g"):
        grids[hue] = safeplot.displot(
            df, x="x", col="f", hue=hue, bins=bins, method="suppress", height=2
        )
    g_hue, g_all = grids["g"], grids[None]
    assert g_hue.safeplot_reports[0].details["groups_left_out"] >= 1
    rests = _rests(g_all, g_hue)
    assert all(rest == 0 or rest >= threshold for rest in rests), rests
    assert SECRET not in _text(g_hue.figure)
    assert not any(SECRET in str(e.report) for e in safeplot.audit.entries())
    plt.close("all")


def test_displot_without_the_ledger_would_count_the_level_left_out_of_a_facet():
    """The attack the test above stops: with a fresh ledger per figure, a bin differences."""
    df = _facet_frame()
    threshold = get_policy().threshold
    bins = np.arange(0.0, 101.0, 5.0).tolist()
    grids = {}
    for hue in (None, "g"):
        with safeplot.ledger.using(safeplot.ledger.Ledger()):
            grids[hue] = safeplot.displot(
                df, x="x", col="f", hue=hue, bins=bins, method="suppress", height=2
            )
    assert any(0 < rest < threshold for rest in _rests(grids[None], grids["g"]))
    plt.close("all")


@pytest.mark.parametrize("method", ["deterministic", "microaggregation"])
def test_lmplot_markers_per_facet_give_no_small_count_of_a_left_out_level(method):
    # the reader counts each panel's markers with and without hue: in every facet the
    # difference is 0 or at least threshold, also when the small level's records are spread
    # over the facets (2 in each: 4 left out in all, but 2 per panel)
    df = _frame()
    df["f"] = np.where(np.arange(len(df)) % 2 == 0, "u", "v")
    extra = pd.DataFrame({"x": [44.317, 58.909], "y": [31.771, 36.013], "g": [SECRET] * 2})
    extra["f"] = "v"
    df.loc[df["g"] == SECRET, "f"] = "u"
    df = pd.concat([df, extra], ignore_index=True)
    assert df.groupby(["f", "g"]).size()[("u", SECRET)] == 2
    assert df.groupby(["f", "g"]).size()[("v", SECRET)] == 2
    g_all = safeplot.lmplot(df, x="x", y="y", col="f", method=method, fit_reg=False)
    g_hue = safeplot.lmplot(df, x="x", y="y", col="f", hue="g", method=method, fit_reg=False)
    for ax_all, ax_hue in zip(g_all.axes.flat, g_hue.axes.flat, strict=True):
        missing = len(_points_of_axes(ax_all)) - len(_points_of_axes(ax_hue))
        assert missing == 0 or missing >= 3, missing
    texts = [t.get_text() for t in g_hue.figure.findobj(plt.Text)]
    assert SECRET not in texts
    plt.close("all")
