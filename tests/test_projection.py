"""Tests of the "safe" matplotlib projection (safeplot.integrations.projection)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn
from matplotlib.axes import Axes
from matplotlib.projections import get_projection_class

import safeplot
from safeplot import audit
from safeplot.errors import DisclosureError, UnsafePlotError
from safeplot.integrations import pandas_backend
from safeplot.integrations.projection import (
    REFUSED,
    SafeAxes,
    drawing_release,
    is_drawing_release,
)
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.grid import release_grid
from safeplot.plots.hexbin import release_hexbin

from .leakscan import scan_figure
from .refusals import Refusal, check, drawing_cells, expected

SAFE_METHODS = (
    "suppress",
    "generalize",
    "deterministic",
    "probabilistic",
    "confidential",
    "microaggregation",
    "rounding",
)


def _shapes():
    rng = np.random.default_rng(7)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    return {
        "outliers": pd.DataFrame(
            {"x": np.r_[x, 412.731, -97.113, 255.517], "y": np.r_[y, -88.404, 301.219, 12.5]}
        ),
        "ties": pd.DataFrame(
            {
                "x": np.r_[rng.integers(0, 12, 400), 37, 41, 19, 5].astype(float),
                "y": np.r_[rng.integers(0, 8, 400), 15, 23, -4, 3].astype(float),
            }
        ),
    }


SHAPES = _shapes()


def safe_axes():
    fig = plt.figure()
    return fig, fig.add_subplot(projection="safe")


#: name -> (draw(ax, df, method, **kws), raw(df), scan options, methods)
DRAW = {
    "hist": (
        lambda ax, df, m, **kw: ax.hist(df["x"], bins=20, method=m, **kw),
        lambda df: {"x": df["x"].to_numpy()},
        {},
        SAFE_METHODS,
    ),
    "scatter": (
        lambda ax, df, m, **kw: ax.scatter(df["x"], df["y"], method=m, **kw),
        lambda df: {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        {"count_axis": None},
        tuple(m for m in SAFE_METHODS if m != "confidential"),
    ),
    "boxplot": (
        lambda ax, df, m, **kw: ax.boxplot(df[["x", "y"]], method=m, **kw),
        lambda df: {"y": np.r_[df["x"].to_numpy(), df["y"].to_numpy()]},
        {"count_axis": None},
        SAFE_METHODS,
    ),
    "boxplot-horizontal": (
        lambda ax, df, m, **kw: ax.boxplot(
            [df["x"].to_numpy(), df["y"].to_numpy()], orientation="horizontal", method=m, **kw
        ),
        lambda df: {"x": np.r_[df["x"].to_numpy(), df["y"].to_numpy()]},
        {"count_axis": None},
        SAFE_METHODS,
    ),
    "hexbin": (
        lambda ax, df, m, **kw: ax.hexbin(df["x"], df["y"], gridsize=12, method=m, **kw),
        lambda df: {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        {"counts_in_colour": True, "count_axis": None},
        SAFE_METHODS,
    ),
    "hist2d": (
        lambda ax, df, m, **kw: ax.hist2d(df["x"], df["y"], bins=15, method=m, **kw),
        lambda df: {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        {"counts_in_colour": True, "count_axis": None},
        SAFE_METHODS,
    ),
}

LEAK_PARAMS = [
    pytest.param(name, method, shape, id=f"{name}-{method}-{shape}")
    for name, (_, _, _, methods) in DRAW.items()
    for method in methods
    for shape in SHAPES
]


# -- registration ------------------------------------------------------------------------
def test_projection_is_registered_on_import():
    assert get_projection_class("safe") is SafeAxes
    assert issubclass(SafeAxes, Axes)
    _, ax = safe_axes()
    assert type(ax) is SafeAxes
    _, axes = plt.subplots(1, 2, subplot_kw={"projection": "safe"})
    assert all(isinstance(a, SafeAxes) for a in axes)


# -- numbers -----------------------------------------------------------------------------
def test_hist_returns_the_released_histogram():
    x = SHAPES["outliers"]["x"].to_numpy()
    _, ax = safe_axes()
    n, edges, patches = ax.hist(x, bins=20, method="suppress")
    raw = np.histogram(x, edges)[0].astype(float)
    expected = np.where((raw > 0) & (raw < 3), np.nan, raw)
    np.testing.assert_array_equal(n, expected)
    assert np.nansum(n) < x.size  # the outliers' bins are suppressed
    heights = np.array([p.get_height() for p in patches])
    np.testing.assert_array_equal(heights, np.nan_to_num(n))
    # the same release as safeplot.hist on a plain Axes
    _, plain = plt.subplots()
    n2, edges2, _ = safeplot.hist(x, bins=20, method="suppress", ax=plain)
    np.testing.assert_array_equal(edges, edges2)
    np.testing.assert_array_equal(n, n2)


def test_hist_takes_data_and_matplotlib_keywords():
    tips = safeplot.load_dataset("tips")
    _, ax = safe_axes()
    n, edges, patches = ax.hist(
        "total_bill", data=tips, histtype="step", orientation="horizontal", method="generalize"
    )
    assert ax.safeplot_report.method == "generalize"
    assert ax.safeplot_report.params["factor"] == 2
    assert len(patches) == 1  # one step outline, as matplotlib returns for histtype="step"


def test_hist_refuses_several_datasets():
    _, ax = safe_axes()
    with pytest.raises(ValueError, match="one variable at a time"):
        ax.hist([np.arange(10.0), np.arange(20.0)])
    assert audit.entries() == []


def test_scatter_matches_safeplot_scatter():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    coll = ax.scatter(df["x"], df["y"], method="deterministic", k=5)
    _, plain = plt.subplots()
    ref = safeplot.scatter(df["x"], df["y"], method="deterministic", k=5, ax=plain)
    np.testing.assert_array_equal(coll.get_offsets(), ref.get_offsets())
    assert ax.safeplot_report.params["k"] == 5


def test_boxplot_returns_matplotlib_dict_of_released_boxes():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    parts = ax.boxplot(df[["x", "y"]], method="confidential")
    assert set(parts) >= {"boxes", "medians", "whiskers", "caps", "fliers", "means"}
    assert len(parts["boxes"]) == 2
    assert all(len(f.get_xdata()) == 0 for f in parts["fliers"])  # none under confidential
    # the whiskers end at the released (winsorised) extremes, not at the outliers
    tops = [max(w.get_ydata()) for w in parts["whiskers"]]
    assert max(tops) < 200
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["x", "y"]


def test_boxplot_deterministic_stats_are_of_released_values():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    parts = ax.boxplot([df["x"].to_numpy()], method="deterministic", k=3)
    med = parts["medians"][0].get_ydata()[0]
    assert med != np.median(df["x"])  # median of the centroids, not of the raw values
    assert abs(med - np.median(df["x"])) < 2


def test_boxplot_refusals():
    _, ax = safe_axes()
    x = SHAPES["outliers"]["x"].to_numpy()
    with pytest.raises(ValueError, match="usermedians"):
        ax.boxplot(x, usermedians=[50])
    with pytest.raises(ValueError, match="no notches"):
        ax.boxplot(x, notch=True, method="confidential")
    assert audit.entries() == []


def test_hist2d_equals_the_grid_release():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    h, xe, ye, mesh = ax.hist2d(df["x"], df["y"], bins=15, method="suppress")
    rel = release_grid(df["x"], df["y"], names=("x", "y"), method="suppress", bins=15)
    np.testing.assert_array_equal(xe, rel.xedges)
    np.testing.assert_array_equal(ye, rel.yedges)
    np.testing.assert_array_equal(h, rel.total)
    # independent: every drawn count is a raw count of its cell, and 0 or >= 3
    raw = np.histogram2d(df["x"], df["y"], [xe, ye])[0]
    shown = ~np.isnan(h)
    np.testing.assert_array_equal(h[shown], raw[shown])
    assert ((h[shown] == 0) | (h[shown] >= 3)).all()
    assert (raw[~shown] < 3).all()
    assert mesh.get_array().size == h.size


def test_hist2d_cmin_density_and_refusals():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    h, xe, ye, _ = ax.hist2d(df["x"], df["y"], bins=10, cmin=5)
    assert np.nanmin(h) >= 5
    _, ax2 = safe_axes()
    d, xe, ye, _ = ax2.hist2d(df["x"], df["y"], bins=10, density=True)
    area = np.outer(np.diff(xe), np.diff(ye))
    assert np.nansum(d * area) == pytest.approx(1.0)
    _, ax3 = safe_axes()
    with pytest.raises(ValueError, match="weights"):
        ax3.hist2d(df["x"], df["y"], weights=np.ones(len(df)))
    with pytest.raises(ValueError, match="one number of cells"):
        ax3.hist2d(df["x"], df["y"], bins=[np.arange(5.0), np.arange(5.0)])


def test_hexbin_is_the_one_hexbin_release_of_the_pandas_backend():
    """SafeAxes.hexbin and df.plot.hexbin() draw the same release: the same hexagons."""
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    hexes = ax.hexbin(df["x"], df["y"], gridsize=10, method="suppress")
    rel = release_hexbin(df["x"], df["y"], names=("x", "y"), gridsize=10, method="suppress")
    np.testing.assert_array_equal(np.asarray(hexes.get_array()), rel.counts)
    np.testing.assert_allclose(np.asarray(hexes.get_offsets()), np.c_[rel.x, rel.y])
    _, ax2 = plt.subplots()
    pandas_backend.plot(df, kind="hexbin", x="x", y="y", gridsize=10, ax=ax2, colorbar=False)
    other = ax2.collections[0]
    np.testing.assert_array_equal(np.asarray(other.get_array()), rel.counts)
    assert (rel.counts >= 3).all()
    assert rel.counts.sum() < len(df)  # the outliers' hexagons are suppressed
    assert ax.safeplot_report.function == "hexbin"


def test_hexbin_refusals():
    df = SHAPES["outliers"]
    _, ax = safe_axes()
    with pytest.raises(ValueError, match="third variable"):
        ax.hexbin(df["x"], df["y"], C=df["x"])
    with pytest.raises(ValueError, match="marginals"):
        ax.hexbin(df["x"], df["y"], marginals=True)
    with pytest.raises(ValueError, match="log binning"):
        ax.hexbin(df["x"], df["y"], xscale="log")
    assert audit.entries() == []
    assert not ax.collections


def test_hexbin_mincnt_hides_small_hexagons():
    df = SHAPES["ties"]
    _, ax = safe_axes()
    hexes = ax.hexbin(df["x"], df["y"], gridsize=8, mincnt=20)
    assert (np.asarray(hexes.get_array()) >= 20).all()
    assert len(hexes.get_offsets()) == len(hexes.get_array())


# -- leak scan ---------------------------------------------------------------------------

#: SafeAxes methods refused rather than drawn, and why (every other combination must draw).
PROJECTION_REFUSALS: list[Refusal] = []


def test_every_method_draws_on_some_shape():
    cells = [(p.values[0], p.values[1], p.values[2]) for p in LEAK_PARAMS]
    never = [cell for cell, n in drawing_cells(PROJECTION_REFUSALS, cells).items() if n == 0]
    assert not never, f"refused on every data shape: {never}"


@pytest.mark.parametrize(("name", "method", "shape"), LEAK_PARAMS)
def test_nothing_rare_is_drawn(name, method, shape):
    draw, raw, scan, _ = DRAW[name]
    df = SHAPES[shape]
    entry = expected(PROJECTION_REFUSALS, name, method, shape)
    fig, ax = safe_axes()
    try:
        draw(ax, df, method)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"{name}|{method}|{shape}")
        assert audit.entries() == []
        return
    check(entry, None, f"{name}|{method}|{shape}")
    findings = scan_figure(fig, raw(df), threshold=3, **scan)
    assert not findings, str(findings)
    assert findings.numbers_scanned > 0
    assert ax.safeplot_report.method == method
    assert [e.method for e in audit.entries()] == [method]
    notes = [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    assert len(notes) == 1


@pytest.mark.parametrize("name", list(DRAW))
def test_the_scanner_flags_the_raw_version(name):
    draw, raw, scan, _ = DRAW[name]
    df = SHAPES["outliers"]
    with safeplot.policy(allow_raw=True):
        fig, ax = safe_axes()
        draw(ax, df, "none")
    assert ax.safeplot_report.method == "none"
    assert scan_figure(fig, raw(df), threshold=3, **scan), name


@pytest.mark.parametrize("name", list(DRAW))
def test_raw_is_refused_without_allow_raw(name):
    draw, _, _, _ = DRAW[name]
    fig, ax = safe_axes()
    before = plt.get_fignums()
    with pytest.raises(DisclosureError):
        draw(ax, SHAPES["outliers"], "none")
    assert plt.get_fignums() == before
    assert not (ax.patches or ax.collections or ax.lines)
    assert audit.entries() == []
    assert getattr(ax, "safeplot_report", None) is None


@pytest.mark.parametrize("name", list(DRAW))
@pytest.mark.parametrize(
    "kws",
    [{"threshold": 2}, {"k": 2, "method": "deterministic"}, {"q": 0.1, "method": "probabilistic"}],
    ids=["threshold=2", "k=2", "q=0.1"],
)
def test_policy_floors(name, kws):
    draw = DRAW[name][0]
    kws = dict(kws)
    method = kws.pop("method", "suppress")
    _, ax = safe_axes()
    with pytest.raises(DisclosureError):
        draw(ax, SHAPES["outliers"], method, **kws)
    assert audit.entries() == []


def test_annotate_false_leaves_out_the_note():
    _, ax = safe_axes()
    ax.hist(SHAPES["outliers"]["x"], annotate=False)
    assert not [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]


# -- not anonymised twice ----------------------------------------------------------------
def _artists(ax):
    out = []
    for p in ax.patches:
        out.append(("patch", tuple(np.round(p.get_path().vertices.ravel(), 12))))
    for c in ax.collections:
        out.append(("coll", tuple(np.asarray(c.get_offsets(), float).ravel())))
        out += [("path", tuple(p.vertices.ravel())) for p in c.get_paths()]
    for line in ax.lines:
        out.append(("line", tuple(np.asarray(line.get_xydata(), float).ravel())))
    out.append(("lim", ax.get_xlim(), ax.get_ylim()))
    out.append(("ticks", tuple(ax.get_xticks()), tuple(ax.get_yticks())))
    out.append(("text", tuple(t.get_text() for t in ax.texts)))
    return out


TWICE = {
    "histplot": lambda df, ax: safeplot.histplot(data=df, x="x", kde=True, ax=ax),
    "hist": lambda df, ax: safeplot.hist(df["x"], ax=ax),
    "scatterplot": lambda df, ax: safeplot.scatterplot(data=df, x="x", y="y", ax=ax),
    "boxplot": lambda df, ax: safeplot.boxplot(data=df, y="x", method="confidential", ax=ax),
    "kdeplot": lambda df, ax: safeplot.kdeplot(data=df, x="x", fill=True, ax=ax),
    "regplot": lambda df, ax: safeplot.regplot(data=df, x="x", y="y", n_boot=50, seed=0, ax=ax),
    "heatmap": lambda df, ax: safeplot.heatmap(data=df, x="x", y="y", ax=ax),
}


@pytest.mark.parametrize("name", list(TWICE))
def test_safeplot_drawing_on_a_safe_axes_is_not_anonymised_twice(name):
    df = SHAPES["outliers"]
    _, plain = plt.subplots()
    TWICE[name](df, plain)
    _, safe = safe_axes()
    TWICE[name](df, safe)
    assert _artists(safe) == _artists(plain)
    assert safe.safeplot_report.to_dict() == plain.safeplot_report.to_dict()
    assert len(audit.entries()) == 2  # one release per call, none added by the SafeAxes


def test_user_calls_are_safe_but_drawing_release_is_plain():
    _, ax = safe_axes()
    assert not is_drawing_release()
    with drawing_release():
        assert is_drawing_release()
        ax.plot([1, 2], [3, 4])
        ax.hist([1.0, 2.0, 3.0], bins=2)
    assert not is_drawing_release()
    assert audit.entries() == []  # drawn as given: no release made
    assert getattr(ax, "safeplot_report", None) is None


@pytest.mark.parametrize("name", sorted(n for n in REFUSED if hasattr(Axes, n)))
def test_raw_drawing_methods_are_refused(name):
    _, ax = safe_axes()
    with pytest.raises(UnsafePlotError, match=f"SafeAxes.{name} draws individual values"):
        getattr(ax, name)([1.0, 2.0, 3.0], [4.0, 5.0, 6.0])
    assert not (ax.patches or ax.collections or ax.lines or ax.images)


def test_refusal_names_the_alternative():
    _, ax = safe_axes()
    with pytest.raises(UnsafePlotError, match="countplot"):
        ax.bar(["a", "b"], [1, 2])
    with pytest.raises(UnsafePlotError, match="regplot"):
        ax.plot([1, 2], [3, 4])


def test_reference_lines_and_text_stay_available():
    _, ax = safe_axes()
    ax.axhline(0)
    ax.axvline(1)
    ax.text(0.5, 0.5, "note")
    ax.set_title("title")
    assert len(ax.lines) == 2


def test_seaborn_and_pyplot_called_by_the_user_get_the_safe_methods():
    df = SHAPES["outliers"]
    fig, ax = safe_axes()
    with pytest.raises(UnsafePlotError):
        seaborn.histplot(df["x"], ax=ax)  # seaborn draws raw counts with ax.bar
    with pytest.raises(UnsafePlotError):
        df.plot(x="x", y="y", ax=ax, backend="matplotlib")  # pandas draws raw lines
    plt.sca(ax)
    n, edges, _ = plt.hist(df["x"], bins=20)  # pyplot reaches the SafeAxes
    assert ax.safeplot_report.method == "suppress"
    assert not scan_figure(fig, {"x": df["x"].to_numpy()}, threshold=3)
