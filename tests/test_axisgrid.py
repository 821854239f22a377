"""pairplot and jointplot: one released data set per figure, consistent marginals, leak scans."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.patches import PathPatch, Rectangle

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.grids import histogram_counts, rare_values
from safeplot.anonymize.statistics import round_sig
from safeplot.datasets import simulate
from safeplot.methods import anonymize_values
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.axisgrid import (
    JOINT_METHODS,
    PAIR_METHODS,
    jointplot,
    pair_axes_variables,
    pairplot,
)
from safeplot.plots.grid import GRID_BINS, grid_bins_for, release_grid

from .leakscan import scan_figure
from .refusals import Refusal, check, drawing_cells, expected

SAFE = [m for m in PAIR_METHODS if m != "none"]
VALUE = ["deterministic", "probabilistic", "microaggregation", "rounding"]


def _d1(n=300, seed=1):
    df = simulate("D1", n=n, seed=seed)
    rng = np.random.default_rng(seed)
    df["z"] = np.round(0.5 * df["x"] + rng.normal(0, 1, n), 3)
    df["g"] = rng.choice(["a", "b"], n)
    return df


def _shapes():
    rng = np.random.default_rng(20261121)
    n = 300
    x = np.round(rng.normal(50, 10, n), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, n), 3)
    z = np.round(x - y + rng.normal(0, 3, n), 3)
    g = rng.choice(["a", "b"], n)
    tx = rng.integers(0, 12, 400).astype(float)
    ty = rng.integers(0, 8, 400).astype(float)
    tz = rng.integers(0, 12, 400).astype(float)
    return {
        # planted unique outliers far out on every axis
        "outliers": pd.DataFrame(
            {
                "x": np.r_[x, 412.731, -97.113, 255.517],
                "y": np.r_[y, -88.404, 301.219, 12.125],
                "z": np.r_[z, 77.777, -55.551, 0.1234],
                "g": np.r_[g, ["a", "b", "a"]],
            }
        ),
        # heavy ties, plus rare integers inside and outside the bulk (clear of k=3 etc.)
        "ties": pd.DataFrame(
            {
                "x": np.r_[tx, 37.0, 41.0, 19.0],
                "y": np.r_[ty, 17.0, 23.0, -4.0],
                "z": np.r_[tz, 13.0, -7.0, 29.0],
                "g": np.r_[rng.choice(["a", "b"], 400), ["a", "b", "a"]],
            }
        ),
    }


SHAPES = _shapes()


def _offsets(ax):
    colls = [c for c in ax.collections if isinstance(c, PathCollection)]
    return np.concatenate([np.asarray(c.get_offsets()) for c in colls])


def _bars(ax):
    return [p for p in ax.patches if isinstance(p, Rectangle)]


# -- pairplot: numbers -------------------------------------------------------------------


@pytest.mark.parametrize("method", VALUE)
def test_offdiagonal_panels_are_projections_of_one_release(method):
    df = _d1()
    names = ["x", "y", "z"]
    g = pairplot(df, vars=names, method=method)
    expected = anonymize_values(df[names].to_numpy(), method, names=names, k=3, q=0.25).values
    for i in range(3):
        for j in range(3):
            if i == j:
                continue
            got = _offsets(g.axes[i, j])
            np.testing.assert_allclose(got, expected[:, [j, i]], rtol=1e-12)
    # the grid holds the released values, never the raw ones
    np.testing.assert_allclose(g.data[names].to_numpy(), expected, rtol=1e-12)
    assert not np.allclose(g.data[names].to_numpy(), df[names].to_numpy())


def test_deterministic_with_hue_searches_within_levels():
    df = _d1()
    names = ["x", "y", "z"]
    g = pairplot(df, vars=names, hue="g", hue_order=["a", "b"], method="deterministic")
    codes = (df["g"] == "b").to_numpy().astype(int)
    expected = anonymize_values(df[names].to_numpy(), "deterministic", k=3, strata=codes).values
    got = _offsets(g.axes[2, 0])
    key = np.lexsort(got.T)
    want = expected[:, [0, 2]]
    np.testing.assert_allclose(got[key], want[np.lexsort(want.T)], rtol=1e-12)
    assert list(g.hue_names) == ["a", "b"]


def test_diagonal_histograms_bin_the_same_released_values():
    df = _d1()
    names = ["x", "y", "z"]
    g = pairplot(df, vars=names, method="deterministic", diag_kind="hist")
    released = anonymize_values(df[names].to_numpy(), "deterministic", k=3).values
    for j, ax in enumerate(g.diag_axes):
        bars = _bars(ax)
        heights = np.array([b.get_height() for b in bars])
        assert heights.size and ((heights == 0) | (heights >= 3)).all()
        lefts = np.round([b.get_x() for b in bars], 9)
        rights = np.round(lefts + np.array([b.get_width() for b in bars]), 9)
        edges = np.unique(np.r_[lefts, rights])
        counts = histogram_counts(released[:, j], edges)
        # each drawn bar is the count of released values in it; empty bars hide counts < 3
        for lo, h in zip(lefts, heights, strict=True):
            count = counts[np.searchsorted(edges, lo)]
            assert count == h if h > 0 else count < 3
        rare = rare_values(df[names[j]].to_numpy(), 3)
        assert not np.isin(edges, rare).any()


def test_suppress_panels_are_the_surviving_cells_of_each_pair():
    df = _d1(n=600)
    g = pairplot(df, vars=["x", "y"], method="suppress")
    grid = release_grid(
        df["x"], df["y"], names=("x", "y"), method="suppress", kind="scatter", bins=None
    )
    total = np.nan_to_num(grid.total)
    ix, iy = np.nonzero(total > 0)
    want = np.c_[grid.xcentres[ix], grid.ycentres[iy]]
    got = _offsets(g.axes[1, 0])
    assert got.shape == want.shape
    np.testing.assert_allclose(got[np.lexsort(got.T)], want[np.lexsort(want.T)])
    assert g.data.empty and list(g.data.columns) == ["x", "y"]


def test_confidential_upper_boxes_lower_trends_diagonal_histograms():
    df = _d1()
    g = pairplot(df, vars=["x", "y", "z"], method="confidential")
    for i in range(3):
        for j in range(3):
            ax = g.axes[i, j]
            if j > i:
                assert any(isinstance(p, PathPatch) for p in ax.patches), (i, j)
                assert not _offsets_or_empty(ax)
            elif j < i:
                assert not ax.patches and ax.lines and not ax.collections, (i, j)
    for ax in g.diag_axes:
        heights = np.array([b.get_height() for b in _bars(ax)])
        assert heights.size and (heights >= 3).all()
    assert g.safeplot_report.method == "confidential"
    assert "values_winsorised" in g.safeplot_report.details


def _offsets_or_empty(ax):
    colls = [c for c in ax.collections if isinstance(c, PathCollection)]
    return any(len(c.get_offsets()) for c in colls)


def test_shared_axes_one_safe_set_per_variable():
    df = SHAPES["outliers"]
    g = pairplot(df, vars=["x", "y", "z"], method="suppress")
    for j, var in enumerate(["x", "y", "z"]):
        lims = {g.axes[i, j].get_xlim() for i in range(3)}
        assert len(lims) == 1
        ticks = {tuple(g.axes[i, j].get_xticks()) for i in range(3)}
        assert len(ticks) == 1
        rows = {g.axes[j, c].get_ylim() for c in range(3)}
        assert rows == lims
        rare = rare_values(df[var].to_numpy(), 3)
        assert not np.isin(np.r_[next(iter(lims)), next(iter(ticks))], rare).any()


def test_kinds_corner_and_non_square_grids():
    df = _d1()
    g = pairplot(df, vars=["x", "y", "z"], kind="hist", corner=True, method="generalize")
    assert g.axes[0, 1] is None and g.axes[0, 2] is None
    assert g.axes[1, 0].collections  # the mesh
    g = pairplot(df, x_vars=["x", "y"], y_vars=["z"], kind="kde", method="probabilistic")
    assert g.axes.shape == (1, 2) and not g.diag_axes
    g = pairplot(df, vars=["x", "y"], kind="reg", method="deterministic")
    assert g.axes[1, 0].lines  # the fit line
    g = pairplot(df, vars=["x", "y"], diag_kind=None, method="suppress")
    assert not g.diag_axes and _offsets_or_empty(g.axes[0, 0])


def test_reg_line_stays_inside_the_released_range():
    df = SHAPES["outliers"]
    g = pairplot(df, vars=["x", "y"], kind="reg", method="deterministic")
    ax = g.axes[1, 0]
    pts = _offsets(ax)
    xs = ax.lines[0].get_xdata()
    assert xs.min() >= pts[:, 0].min() - 1e-9 and xs.max() <= pts[:, 0].max() + 1e-9


def test_reg_line_gives_back_only_rounded_coefficients():
    """Two points of the fitted line give its slope and intercept: both are rounded (inv. 4)."""
    df = _d1()
    g = pairplot(df, vars=["x", "y"], kind="reg", method="deterministic")
    line = g.axes[1, 0].lines[0]
    xs, ys = line.get_xdata(), line.get_ydata()
    slope = (ys[-1] - ys[0]) / (xs[-1] - xs[0])
    intercept = ys[0] - slope * xs[0]
    exact_slope, exact_intercept = np.polyfit(df["x"], df["y"], 1)
    assert slope == pytest.approx(float(round_sig(exact_slope, 3)), rel=1e-4)
    assert intercept == pytest.approx(float(round_sig(exact_intercept, 3)), rel=1e-4)
    assert abs(slope - exact_slope) > 1e-6 * abs(exact_slope)
    plt.close("all")


@pytest.mark.parametrize("method", ["deterministic", "suppress"])
def test_pairplot_reg_draws_regplot_band_per_level(method):
    # seaborn's pairplot(kind="reg") draws regplot in each off-diagonal panel: one line and
    # one bootstrap band per hue level; plot_kws reach regplot (ci=None: no band)
    df = _d1()
    g = pairplot(df, vars=["x", "y"], hue="g", kind="reg", method=method, plot_kws={"seed": 0})
    ax = g.axes[1, 0]
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(ax.lines) == 2 and len(bands) == 2
    assert not scan_figure(
        g.figure, {"x": df["x"].to_numpy()}, per_axes=pair_axes_variables(g, df), count_axis="y"
    )
    plt.close(g.figure)
    g = pairplot(df, vars=["x", "y"], kind="reg", method=method, plot_kws={"ci": None})
    assert not [c for c in g.axes[1, 0].collections if isinstance(c, PolyCollection)]
    plt.close(g.figure)
    with pytest.raises(ValueError, match=r"pairplot\(kind='reg'\): ci must"):
        pairplot(df, vars=["x", "y"], kind="reg", method=method, plot_kws={"ci": 150})
    with pytest.raises(ValueError, match=r"pairplot\(kind='reg'\): order= would change"):
        pairplot(df, vars=["x", "y"], kind="reg", method=method, plot_kws={"order": 2})


def test_pairplot_reg_truncate_false_spans_the_axis():
    df = _d1()
    g = pairplot(
        df, vars=["x", "y"], kind="reg", method="deterministic", plot_kws={"truncate": False}
    )
    ax = g.axes[1, 0]
    xs = ax.lines[0].get_xdata()
    assert (xs.min(), xs.max()) == pytest.approx(ax.get_xlim())
    plt.close(g.figure)


def test_pairplot_reports_audit_and_note():
    df = _d1()
    g = pairplot(df, vars=["x", "y", "z"], hue="g")
    drawn = [a for a in g.axes.flat if a is not None and a not in np.diag(g.axes)]
    drawn += list(g.diag_axes)
    assert all(a.safeplot_report.method == "deterministic" for a in drawn)
    assert g.safeplot_report.params["k"] == 3
    # one audit entry per released data set: the joint release and each diagonal
    assert len(audit.entries()) == 1 + 3
    notes = [t for a in g.figure.axes for t in a.texts if t.get_gid() == FOOTNOTE_GID]
    assert len(notes) == 1 and "deterministic" in notes[0].get_text()
    plt.close(g.figure)
    g = pairplot(df, vars=["x", "y"], annotate=False)
    assert not [t for a in g.figure.axes for t in a.texts if t.get_gid() == FOOTNOTE_GID]


def test_size_alias_warns_as_seaborn():
    with pytest.warns(UserWarning, match="renamed to `height`"):
        g = pairplot(_d1(), vars=["x", "y"], size=2)
    assert g.figure.get_size_inches()[1] == pytest.approx(4)


# -- jointplot: numbers ------------------------------------------------------------------


def test_jointplot_value_marginals_bin_the_joint_points():
    df = _d1()
    g = jointplot(data=df, x="x", y="y", method="deterministic")
    pts = _offsets(g.ax_joint)
    released = anonymize_values(df[["x", "y"]].to_numpy(), "deterministic", k=3).values
    np.testing.assert_allclose(pts, released, rtol=1e-12)
    for ax, col, attr in ((g.ax_marg_x, 0, "x"), (g.ax_marg_y, 1, "y")):
        bars = _bars(ax)
        if attr == "x":
            lo = np.array([b.get_x() for b in bars])
            hi = lo + np.array([b.get_width() for b in bars])
            h = np.array([b.get_height() for b in bars])
        else:
            lo = np.array([b.get_y() for b in bars])
            hi = lo + np.array([b.get_height() for b in bars])
            h = np.array([b.get_width() for b in bars])
        lo, hi = np.round(lo, 9), np.round(hi, 9)
        edges = np.unique(np.r_[lo, hi])
        counts = histogram_counts(pts[:, col], edges)
        for left, height in zip(lo, h, strict=True):
            count = counts[np.searchsorted(edges, left)]
            assert count == height if height > 0 else count < 3
        assert (h[h > 0] >= 3).all()


@pytest.mark.parametrize("method", ["suppress", "generalize"])
@pytest.mark.parametrize("kind", ["scatter", "hist", "hex"])
def test_jointplot_grid_marginals_are_sums_of_surviving_cells(method, kind):
    df = _d1(n=800)
    g = jointplot(data=df, x="x", y="y", kind=kind, method=method)
    grid_kind = "scatter" if kind == "scatter" else "hist"
    grid = release_grid(
        df["x"], df["y"], names=("x", "y"), method=method, kind=grid_kind, bins=None
    )
    total = np.nan_to_num(grid.total)
    xs = np.array([b.get_height() for b in _bars(g.ax_marg_x)])
    ys = np.array([b.get_width() for b in _bars(g.ax_marg_y)])
    x_left = np.array([b.get_x() for b in _bars(g.ax_marg_x)])[xs > 0]
    xs, ys = xs[xs > 0], ys[ys > 0]
    col_sums, row_sums = total.sum(axis=1), total.sum(axis=0)
    np.testing.assert_array_equal(xs, col_sums[col_sums > 0])
    np.testing.assert_array_equal(ys, row_sums[row_sums > 0])
    assert (xs >= 3).all() and (ys >= 3).all()
    np.testing.assert_allclose(x_left, grid.xedges[:-1][col_sums > 0])


def test_jointplot_confidential_boxes_trend_and_histograms():
    df = _d1()
    g = jointplot(data=df, x="x", y="y", method="confidential")
    assert any(isinstance(p, PathPatch) for p in g.ax_joint.patches)
    assert g.ax_joint.lines
    assert not _offsets_or_empty(g.ax_joint)
    for ax, attr in ((g.ax_marg_x, "get_height"), (g.ax_marg_y, "get_width")):
        heights = np.array([getattr(b, attr)() for b in _bars(ax)])
        assert heights.size and (heights >= 3).all()


@pytest.mark.parametrize("kind", ["scatter", "kde", "hist", "hex", "reg", "resid"])
@pytest.mark.parametrize("method", SAFE)
def test_jointplot_every_kind_and_method_reports(kind, method):
    df = _d1()
    g = jointplot(data=df, x="x", y="y", kind=kind, method=method)
    for ax in (g.ax_joint, g.ax_marg_x, g.ax_marg_y):
        assert ax.safeplot_report.method == method
    assert g.safeplot_report.method == method
    assert audit.entries()[-1].method == method


def test_jointplot_refusals():
    df = _d1()
    with pytest.raises(ValueError, match="hue"):
        jointplot(data=df, x="x", y="y", hue="g", kind="resid")
    with pytest.raises(ValueError, match="hue"):
        jointplot(data=df, x="x", y="y", hue="g", kind="hex")
    with pytest.raises(ValueError, match="hue_norm"):
        jointplot(data=df, x="x", y="y", hue="g", hue_norm=(0, 1))
    rare = float(SHAPES["outliers"]["x"].max())
    with pytest.raises(DisclosureError, match="xlim"):
        jointplot(data=SHAPES["outliers"], x="x", y="y", xlim=(0, rare))
    assert plt.get_fignums() == [] and audit.entries() == []
    g = jointplot(data=df, x="x", y="y", xlim=(5, 15))
    assert g.ax_joint.get_xlim() == (5, 15)


# -- leak scans ------------------------------------------------------------------------

#: pairplot-<kind> and jointplot-<kind> refused rather than drawn, and why (every other
#: combination must draw).
GRID_REFUSALS: list[Refusal] = []

PAIR_KINDS = ["scatter", "hist", "kde"]
JOINT_KINDS = ["scatter", "hist", "kde", "reg", "hex", "resid"]


def test_every_grid_draws_on_some_shape():
    cells = [
        (f"{grid}-{kind}", m, shape)
        for grid, kinds in (("pairplot", PAIR_KINDS), ("jointplot", JOINT_KINDS))
        for kind in kinds
        for m in SAFE
        for shape in SHAPES
    ]
    never = [cell for cell, n in drawing_cells(GRID_REFUSALS, cells).items() if n == 0]
    assert not never, f"refused on every data shape: {never}"


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("method", SAFE)
@pytest.mark.parametrize("kind", PAIR_KINDS)
def test_pairplot_leaks_nothing(shape, method, kind):
    df = SHAPES[shape]
    entry = expected(GRID_REFUSALS, f"pairplot-{kind}", method, shape)
    try:
        g = pairplot(df, vars=["x", "y", "z"], hue="g", kind=kind, method=method)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"pairplot-{kind}|{method}|{shape}")
        assert plt.get_fignums() == [] and audit.entries() == []
        return
    check(entry, None, f"pairplot-{kind}|{method}|{shape}")
    found = scan_figure(
        g.figure,
        {"x": df["x"].to_numpy()},
        per_axes=pair_axes_variables(g, df),
        count_axis="y",
        counts_in_colour=kind == "hist",
    )
    assert not found, str(found)
    assert found.numbers_scanned > 100


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("method", SAFE)
@pytest.mark.parametrize("kind", JOINT_KINDS)
def test_jointplot_leaks_nothing(shape, method, kind):
    df = SHAPES[shape]
    entry = expected(GRID_REFUSALS, f"jointplot-{kind}", method, shape)
    try:
        g = jointplot(data=df, x="x", y="y", kind=kind, method=method, marginal_ticks=True)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"jointplot-{kind}|{method}|{shape}")
        assert plt.get_fignums() == [] and audit.entries() == []
        return
    check(entry, None, f"jointplot-{kind}|{method}|{shape}")
    found = scan_figure(
        g.figure,
        {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        per_axes=pair_axes_variables(g, df),
        count_axis=None,
        counts_in_colour=kind in ("hist", "hex"),
    )
    assert not found, str(found)
    for ax, attr in ((g.ax_marg_x, "get_height"), (g.ax_marg_y, "get_width")):
        counts = np.array([getattr(b, attr)() for b in _bars(ax)])
        assert not ((counts > 0) & (counts < 3)).any()


def test_the_scanner_flags_the_raw_versions():
    df = SHAPES["outliers"]
    with safeplot.policy(allow_raw=True):
        g = pairplot(df, vars=["x", "y", "z"], method="none")
        j = jointplot(data=df, x="x", y="y", method="none")
    assert g.safeplot_report.method == "none"
    assert scan_figure(g.figure, {"x": df["x"].to_numpy()}, per_axes=pair_axes_variables(g, df))
    assert scan_figure(
        j.figure, {"x": df["x"].to_numpy()}, per_axes=pair_axes_variables(j, df), count_axis=None
    )


# -- bad input and floors ------------------------------------------------------------------


def _refused(call, exc, match):
    before = plt.get_fignums()
    with pytest.raises(exc, match=match):
        call()
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_bad_input_is_refused_cleanly():
    df = _d1()
    df["text"] = "word"
    df["empty"] = np.nan
    small = df.copy()
    small.loc[:1, "g"] = "tiny"
    _refused(lambda: pairplot(df, vars=["x", "nope"]), ValueError, "unknown variable")
    _refused(lambda: pairplot(df, vars=["x", "text"]), ValueError, "not numeric")
    _refused(lambda: pairplot(df, vars=["x", "empty"]), ValueError, "all missing")
    _refused(
        lambda: pairplot(small, vars=["x", "y"], hue="g", method="probabilistic"),
        DisclosureError,
        "1 hue level.*cannot be left out either",
    )
    _refused(lambda: pairplot(df, vars=["x", "y"], kind="hex"), ValueError, "kind")
    _refused(lambda: pairplot(df.to_dict("list"), vars=["x", "y"]), TypeError, "DataFrame")
    _refused(lambda: jointplot(data=df, x="x", y="text"), ValueError, "not numeric")
    _refused(lambda: jointplot(data=df, x="x", y="empty"), ValueError, "all missing")
    _refused(
        lambda: jointplot(data=small, x="x", y="y", hue="g", method="rounding"),
        DisclosureError,
        "1 hue level.*cannot be left out either",
    )
    _refused(lambda: jointplot(data=df, x="x"), ValueError, "both x= and y=")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "deterministic", "k": 2}, "k"),
        ({"method": "probabilistic", "q": 0.1}, "q"),
        ({"method": "suppress", "threshold": 2}, "threshold"),
        ({"method": "none"}, "raw"),
    ],
)
def test_floors(kwargs, match):
    df = _d1()
    _refused(lambda: pairplot(df, vars=["x", "y"], **kwargs), DisclosureError, match)
    _refused(lambda: jointplot(data=df, x="x", y="y", **kwargs), DisclosureError, match)


@pytest.mark.parametrize("hue_order", [None, ["four", "a", "b"]])
def test_a_level_below_k_is_left_out_with_a_note(hue_order):
    # DESIGN invariant 10: the level is left out as a suppressed cell is, not refused; a
    # level named in hue_order goes as a level without records does in a pair grid
    from safeplot.plots._common import LEFT_OUT_NOTE
    from safeplot.plots.axisgrid import LEFT_OUT_GID

    df = _d1()
    df.loc[:3, "g"] = "four"
    g = pairplot(df, vars=["x", "y"], hue="g", hue_order=hue_order, k=5)
    texts = [t.get_text() for t in g.figure.findobj(plt.Text)]
    assert not any("four" in t for t in texts)
    assert sorted(t.get_text() for t in g._legend.texts) == ["a", "b"]
    notes = [t.get_text() for a in g.figure.axes for t in a.texts if t.get_gid() == LEFT_OUT_GID]
    assert notes == [LEFT_OUT_NOTE]
    report = g.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue level(s) with fewer than 5 records (k=5) are not drawn." in report.warnings
    assert report.n == len(df)  # every record given, rounded
    scatters = [a for a in g.figure.axes if _offsets_or_empty(a)]
    assert scatters and all(len(_offsets(a)) == len(df) - 4 for a in scatters)
    assert not scan_figure(
        g.figure, {"x": df["x"].to_numpy()}, per_axes=pair_axes_variables(g, df), count_axis="y"
    )
    plt.close(g.figure)


@pytest.mark.parametrize("method", ["suppress", "generalize"])
@pytest.mark.parametrize("grid", ["pair", "joint"])
def test_a_small_level_is_left_out_under_the_grid_methods(method, grid):
    # a level of 2 records has no cell or bin of threshold records: it is left out (not
    # drawn, not named), the rest drawn, and the report and note say groups were left out
    from safeplot.plots._common import LEFT_OUT_NOTE

    df = _d1()
    df.loc[:1, "g"] = "tiny"
    if grid == "pair":
        g = pairplot(df, vars=["x", "y"], hue="g", method=method)
    else:
        g = jointplot(data=df, x="x", y="y", hue="g", method=method)
    texts = [t.get_text() for t in g.figure.findobj(plt.Text)]
    assert "tiny" not in texts
    assert {"a", "b"} <= set(texts)
    assert LEFT_OUT_NOTE in texts
    report = g.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue level(s) with fewer than 3 records (threshold=3) are not drawn." in (
        report.warnings
    )
    plt.close(g.figure)


def test_every_level_below_k_is_refused():
    df = _d1(n=8)
    df["g"] = list("aabbccdd")
    _refused(
        lambda: pairplot(df, vars=["x", "y"], hue="g"),
        DisclosureError,
        "every hue level has fewer than 3 records",
    )


def test_missing_values_are_dropped_and_reported():
    df = _d1()
    df.loc[:9, "z"] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = pairplot(df, vars=["x", "y", "z"], method="deterministic")
    assert g.safeplot_report.n_dropped == 10
    assert len(_offsets(g.axes[1, 0])) == 290


def test_methods_lists():
    # every method but differential privacy, which releases counts of histograms and bars only
    expected = set(safeplot.policy.METHODS) - {"dp"}
    assert set(PAIR_METHODS) == set(JOINT_METHODS) == expected


# -- drawing sees only the release ---------------------------------------------------------

#: Grids whose drawing once took the records: fitted lines, trends, boxes, densities, grids.
RELEASE_ONLY = {
    "pair-reg-deterministic": lambda df: pairplot(
        df,
        vars=["x", "y", "z"],
        hue="g",
        kind="reg",
        method="deterministic",
        height=1.5,
        plot_kws={"seed": 0},
    ),
    "pair-kde-probabilistic": lambda df: pairplot(
        df, vars=["x", "y"], kind="kde", method="probabilistic", height=1.5
    ),
    "pair-confidential": lambda df: pairplot(
        df, vars=["x", "y"], hue="g", method="confidential", height=1.5
    ),
    "pair-hist-suppress": lambda df: pairplot(
        df, vars=["x", "y"], hue="g", kind="hist", method="suppress", height=1.5
    ),
    "joint-reg-suppress": lambda df: jointplot(
        data=df, x="x", y="y", kind="reg", method="suppress", height=3, seed=0
    ),
    "joint-kde-generalize": lambda df: jointplot(
        data=df, x="x", y="y", kind="kde", method="generalize", height=3
    ),
    "joint-scatter-rounding": lambda df: jointplot(
        data=df, x="x", y="y", hue="g", method="rounding", height=3
    ),
}


def _drawn(fig) -> list[np.ndarray]:
    """Every number a figure shows: coordinates, colours, limits and ticks of every Axes."""
    out = []
    for ax in fig.axes:
        for coll in ax.collections:
            out.append(np.asarray(coll.get_offsets(), dtype=float).ravel())
            out.append(np.asarray(coll.get_facecolors(), dtype=float).ravel())
            out += [np.asarray(p.vertices, dtype=float).ravel() for p in coll.get_paths()]
        out += [np.asarray(line.get_xydata(), dtype=float).ravel() for line in ax.lines]
        out += [np.asarray(p.get_verts(), dtype=float).ravel() for p in ax.patches]
        out += [np.asarray(ax.get_xlim()), np.asarray(ax.get_ylim())]
        out += [np.asarray(ax.get_xticks()), np.asarray(ax.get_yticks())]
    return out


@pytest.mark.parametrize("name", list(RELEASE_ONLY))
def test_drawing_uses_only_the_release(monkeypatch, name):
    """Once drawing starts the records are gone: the same figure is drawn from the release.

    The records (and hue codes) of every prepared input are overwritten the
    moment the first panel is drawn; a figure that changed, or a drawing step
    that failed, would mean a panel was computed from the records while drawing.
    """
    from safeplot.plots import axisgrid

    df = _d1(n=240, seed=5)
    expected_numbers = _drawn(RELEASE_ONLY[name](df).figure)
    plt.close("all")
    inputs = []
    prepare, draw_panel = axisgrid._prepare, axisgrid._draw_panel

    def spy_prepare(*args, **kwargs):
        inputs.append(prepare(*args, **kwargs))
        return inputs[-1]

    def spy_draw_panel(*args, **kwargs):
        for inp in inputs:
            inp.raw[...] = np.nan
            if inp.codes is not None:
                inp.codes[...] = 0
        given = [*args, *kwargs.values()]
        assert not any(isinstance(a, axisgrid._Input) for a in given), "records given to a draw"
        return draw_panel(*args, **kwargs)

    monkeypatch.setattr(axisgrid, "_prepare", spy_prepare)
    monkeypatch.setattr(axisgrid, "_draw_panel", spy_draw_panel)
    got = _drawn(RELEASE_ONLY[name](df).figure)
    assert inputs and len(got) == len(expected_numbers)
    for a, b in zip(got, expected_numbers, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=0)


def test_draw_functions_take_no_records():
    """No drawing function of the grids has a parameter for the input records."""
    import inspect

    from safeplot.plots import axisgrid

    draws = {n: f for n, f in vars(axisgrid).items() if n.startswith("_draw") and callable(f)}
    assert len(draws) >= 8
    for name, func in draws.items():
        for param in inspect.signature(func).parameters.values():
            assert param.name not in ("inp", "raw", "data", "frame"), (name, param.name)
            assert "_Input" not in str(param.annotation), (name, param.name)


def test_jointplot_reg_reads_joint_kws_as_regplot_does():
    """seaborn hands jointplot(kind="reg")'s joint_kws to regplot: truncate, line, points."""
    tips = safeplot.load_dataset("tips")
    grid = safeplot.jointplot(data=tips, x="total_bill", y="tip", kind="reg", truncate=False)
    line = grid.ax_joint.lines[0]
    # truncate=False: the line spans the x axis, not only the released points
    assert tuple(np.asarray(line.get_xdata())[[0, -1]]) == pytest.approx(grid.ax_joint.get_xlim())
    lo, hi = grid.ax_joint.get_ylim()
    assert lo <= float(np.min(line.get_ydata())) and float(np.max(line.get_ydata())) <= hi
    plt.close("all")
    grid = safeplot.jointplot(
        data=tips,
        x="total_bill",
        y="tip",
        kind="reg",
        line_kws={"color": "r"},
        scatter_kws={"s": 5},
    )
    line = grid.ax_joint.lines[0]
    points = grid.ax_joint.collections[0].get_offsets()
    assert line.get_color() == "r"
    # truncate=True (the default): the line ends at the released points' x extremes
    assert np.asarray(line.get_xdata())[[0, -1]] == pytest.approx(
        [points[:, 0].min(), points[:, 0].max()], rel=1e-5
    )
    plt.close("all")
    with pytest.raises(ValueError, match=r"order= would change the fitted curve.*regplot"):
        safeplot.jointplot(data=tips, x="total_bill", y="tip", kind="reg", order=2)
    assert not plt.get_fignums()


def _reg_band(ax):
    """The confidence band of a regression panel (the one PolyCollection of the Axes)."""
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    return band.get_paths()[0].vertices


@pytest.mark.parametrize("method", ["deterministic", "suppress", "microaggregation"])
def test_jointplot_reg_draws_regplots_band_and_marginal_densities(method):
    """seaborn's jointplot(kind="reg"): regplot in the joint panel, histplot(kde=True) margins.

    The line and band are regplot's release over the same released x range
    (the same bootstrap seed), and each marginal density is the one
    histplot(kde=True) draws of the marginal's released bins.
    """
    import seaborn as sns

    tips = safeplot.load_dataset("tips")
    g = jointplot(data=tips, x="total_bill", y="tip", kind="reg", method=method, seed=0)
    line = g.ax_joint.lines[0]
    xs = np.asarray(line.get_xdata())
    fig, ax = plt.subplots()
    safeplot.regplot(data=tips, x="total_bill", y="tip", seed=0, method=method, ax=ax)
    if method == "suppress":
        # regplot's own grid differs from the joint grid: its release function over this range
        from safeplot.plots.regression import release_fit

        x, y = tips["total_bill"].to_numpy(float), tips["tip"].to_numpy(float)
        ref_line, ref_band = release_fit(
            x, y, (xs[0], xs[-1]), rare_values(x, 3), rare_values(y, 3), seed=0
        )
        np.testing.assert_allclose(xs, ref_line[0], rtol=1e-12)
        np.testing.assert_allclose(line.get_ydata(), ref_line[1], rtol=1e-12)
        ax.clear()
        ax.fill_between(ref_band[0], *ref_band[1])
    else:
        np.testing.assert_allclose(xs, ax.lines[0].get_xdata(), rtol=1e-12)
        np.testing.assert_allclose(line.get_ydata(), ax.lines[0].get_ydata(), rtol=1e-12)
    got = _reg_band(g.ax_joint)
    assert got[:, 0].min() == pytest.approx(xs[0]) and got[:, 0].max() == pytest.approx(xs[-1])
    np.testing.assert_allclose(got, _reg_band(ax), rtol=1e-12)
    plt.close(fig)
    # each margin: one density line, the one histplot(kde=True) draws of the released bins
    for ax_m, orient in ((g.ax_marg_x, "x"), (g.ax_marg_y, "y")):
        (curve,) = ax_m.lines
        bars = _bars(ax_m)
        if orient == "x":
            centres = [b.get_x() + b.get_width() / 2 for b in bars]
            counts = [b.get_height() for b in bars]
            edges = sorted({b.get_x() for b in bars} | {b.get_x() + b.get_width() for b in bars})
        else:
            centres = [b.get_y() + b.get_height() / 2 for b in bars]
            counts = [b.get_width() for b in bars]
            edges = sorted({b.get_y() for b in bars} | {b.get_y() + b.get_height() for b in bars})
        shown = np.array(counts) > 0
        rows = pd.DataFrame(
            {"v": np.repeat(np.array(centres)[shown], np.array(counts)[shown].astype(int))}
        )
        fig, ref_ax = plt.subplots()
        sns.histplot(data=rows, **{orient: "v"}, bins=edges, kde=True, ax=ref_ax)
        (ref_curve,) = ref_ax.lines
        np.testing.assert_allclose(curve.get_xydata(), ref_curve.get_xydata(), rtol=1e-9)
        plt.close(fig)
    found = scan_figure(
        g.figure,
        {"x": tips["total_bill"].to_numpy(), "y": tips["tip"].to_numpy()},
        per_axes=pair_axes_variables(g, tips),
        count_axis=None,
    )
    assert not found, str(found)
    plt.close("all")


def test_jointplot_reg_band_keywords():
    """ci=None leaves the band out; ci, n_boot and seed are regplot's; bad values refused."""
    tips = safeplot.load_dataset("tips")
    g = jointplot(data=tips, x="total_bill", y="tip", kind="reg", ci=None)
    assert not [c for c in g.ax_joint.collections if isinstance(c, PolyCollection)]
    g = jointplot(data=tips, x="total_bill", y="tip", kind="reg", marginal_kws={"kde": False})
    assert not g.ax_marg_x.lines and not g.ax_marg_y.lines
    narrow = jointplot(data=tips, x="total_bill", y="tip", kind="reg", ci=50, n_boot=200, seed=1)
    wide = jointplot(data=tips, x="total_bill", y="tip", kind="reg", ci=99, n_boot=200, seed=1)
    width = [np.ptp(_reg_band(a.ax_joint)[:, 1]) for a in (narrow, wide)]
    assert width[0] < width[1]
    plt.close("all")
    for bad in ({"ci": 150}, {"n_boot": 0}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            jointplot(data=tips, x="total_bill", y="tip", kind="reg", **bad)
    assert not plt.get_fignums()


# -- jointplot(kind="resid") ---------------------------------------------------------------


def _raw_residuals(df, x="x", y="y"):
    xs, ys = df[x].to_numpy(float), df[y].to_numpy(float)
    ok = ~(np.isnan(xs) | np.isnan(ys))
    return xs[ok], ys[ok] - np.polyval(np.polyfit(xs[ok], ys[ok], 1), xs[ok])


def test_jointplot_resid_draws_the_released_residual_plot():
    """The joint panel is residplot's release; the marginals bin the same released pairs."""
    df = _d1()
    g = jointplot(data=df, x="x", y="y", kind="resid")
    assert g.safeplot_report.method == "deterministic"  # the policy's method for residuals
    assert g.safeplot_report.variables == ("x", "residuals")
    assert g.safeplot_report.params["kind"] == "resid"
    pts = _offsets(g.ax_joint)
    fig, ax = plt.subplots()
    safeplot.residplot(data=df, x="x", y="y", ax=ax)
    np.testing.assert_allclose(pts, _offsets(ax), rtol=1e-12)
    x, resid = _raw_residuals(df)
    released = anonymize_values(np.c_[x, resid], "deterministic", k=3).values
    np.testing.assert_allclose(pts, released, rtol=1e-9)
    assert not np.isin(np.round(pts[:, 1], 9), np.round(resid, 9)).any()
    # the line at zero across the safe x axis, inside the y axis
    (zero,) = [ln for ln in g.ax_joint.lines if ln.get_linestyle() == ":"]
    assert tuple(zero.get_ydata()) == (0.0, 0.0)
    assert tuple(zero.get_xdata()) == pytest.approx(g.ax_joint.get_xlim())
    lo, hi = g.ax_joint.get_ylim()
    assert lo < 0 < hi
    # the right marginal is the histogram of the released residuals, small bins left out
    bars = _bars(g.ax_marg_y)
    y0 = np.round([b.get_y() for b in bars], 9)
    y1 = np.round([b.get_y() + b.get_height() for b in bars], 9)
    widths = np.array([b.get_width() for b in bars])
    edges = np.unique(np.r_[y0, y1])
    counts = histogram_counts(pts[:, 1], edges)
    for left, width in zip(y0, widths, strict=True):
        count = counts[np.searchsorted(edges, left)]
        assert count == width if width > 0 else count < 3
    assert widths.sum() > 0.9 * len(df) and (widths[widths > 0] >= 3).all()
    # labels as seaborn's: the outcome's name on the residual axis
    assert (g.ax_joint.get_xlabel(), g.ax_joint.get_ylabel()) == ("x", "y")


@pytest.mark.parametrize("method", ["suppress", "confidential", "probabilistic"])
def test_jointplot_resid_other_methods_leak_nothing(method):
    mpg = safeplot.load_dataset("mpg")
    g = jointplot(data=mpg, x="horsepower", y="mpg", kind="resid", method=method)
    assert g.safeplot_report.method == method
    assert g.safeplot_report.n_dropped > 0  # horsepower has missing values
    x, resid = _raw_residuals(mpg, "horsepower", "mpg")
    found = scan_figure(
        g.figure,
        {"x": x, "y": resid},
        per_axes=pair_axes_variables(g, mpg),
        count_axis=None,
    )
    assert not found, str(found)
    assert found.numbers_scanned > 50
    for ax, attr in ((g.ax_marg_x, "get_height"), (g.ax_marg_y, "get_width")):
        counts = np.array([getattr(b, attr)() for b in _bars(ax)])
        assert counts.size and not ((counts > 0) & (counts < 3)).any()


def test_jointplot_resid_reads_joint_kws_as_residplot_does():
    df = _d1()
    g = jointplot(data=df, x="x", y="y", kind="resid", order=2, scatter_kws={"s": 5})
    assert g.safeplot_report.params["order"] == 2
    fig, ax = plt.subplots()
    safeplot.residplot(data=df, x="x", y="y", order=2, ax=ax)
    np.testing.assert_allclose(_offsets(g.ax_joint), _offsets(ax), rtol=1e-12)
    plt.close("all")
    audit.clear()
    for kws, match in (
        ({"lowess": True}, "lowess=.*residplot"),
        ({"x_partial": "z"}, "x_partial=.*residplot"),
        ({"order": 0}, "order must be a positive integer"),
        ({"order": 2, "robust": True}, "Mutually exclusive"),
    ):
        with pytest.raises(ValueError, match=match):
            jointplot(data=df, x="x", y="y", kind="resid", **kws)
    with pytest.raises(ValueError, match="exactly"):
        jointplot(
            data=pd.DataFrame({"x": np.arange(50.0), "y": 2 * np.arange(50.0)}),
            x="x",
            y="y",
            kind="resid",
        )
    assert plt.get_fignums() == [] and audit.entries() == []


def test_jointplot_resid_raw_is_seaborns():
    df = _d1()
    with safeplot.policy(allow_raw=True):
        g = jointplot(data=df, x="x", y="y", kind="resid", method="none")
    x, resid = _raw_residuals(df)
    np.testing.assert_allclose(
        np.sort(g.ax_joint.collections[0].get_offsets()[:, 1]), np.sort(resid), rtol=1e-9
    )


@pytest.mark.parametrize(
    ("call", "keywords", "margin"),
    [
        (safeplot.jointplot, "marginal_kws", lambda g: g.ax_marg_x),
        (safeplot.pairplot, "diag_kws", lambda g: g.diag_axes[0]),
    ],
    ids=["jointplot", "pairplot"],
)
def test_bins_of_the_margins_come_from_their_keywords(call, keywords, margin):
    """seaborn's marginal_kws/diag_kws bins set the histograms' bins (not a clash of keywords)."""
    penguins = safeplot.load_dataset("penguins")[["bill_length_mm", "bill_depth_mm"]]
    xy = {"x": "bill_length_mm", "y": "bill_depth_mm"} if call is safeplot.jointplot else {}
    widths = {}
    for bins in (5, 40):
        grid = call(penguins, **xy, **{keywords: {"bins": bins}})
        bars = [p for p in margin(grid).patches if isinstance(p, Rectangle)]
        assert bars
        widths[bins] = {round(p.get_width(), 9) for p in bars}
        plt.close("all")
    # more bins asked, narrower bins drawn, each on one safe width
    assert len(widths[5]) == len(widths[40]) == 1
    assert min(widths[5]) > min(widths[40])
    with pytest.raises(ValueError, match="give the histograms' bins as a number"):
        call(penguins, **xy, **{keywords: {"bins": [30, 40, 50]}})
    assert plt.get_fignums() == []


PENGUIN_VARS = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm"]


def _panel_bins(axes):
    return {ax.safeplot_report.params["bins"] for ax in axes}


@pytest.mark.parametrize(
    ("method", "kind"),
    [
        ("suppress", "hist"),
        ("suppress", "scatter"),
        ("suppress", "kde"),
        ("deterministic", "hist"),
        ("confidential", "hist"),
    ],
)
def test_pairplot_grids_are_chosen_by_n(method, kind):
    """342 complete penguins (340 as reported): every pair's grid is 11 x 11, not 30 x 30."""
    penguins = safeplot.load_dataset("penguins")
    g = pairplot(penguins, vars=PENGUIN_VARS, kind=kind, method=method)
    off = [g.axes[i, j] for i in range(3) for j in range(3) if i != j]
    assert g.safeplot_report.n == 340
    # one size for every panel: chosen once, from the count the grid's report states
    assert _panel_bins(off) == {grid_bins_for(340, 3)} == {11}
    plt.close(g.figure)
    g = pairplot(penguins, vars=PENGUIN_VARS, kind=kind, method=method, bins=GRID_BINS)
    off = [g.axes[i, j] for i in range(3) for j in range(3) if i != j]
    assert _panel_bins(off) == {30}  # a caller's bins are kept
    plt.close(g.figure)


def test_pairplot_grid_follows_the_threshold_and_generalisation():
    penguins = safeplot.load_dataset("penguins")
    g = pairplot(penguins, vars=PENGUIN_VARS[:2], kind="hist", method="suppress", threshold=10)
    assert _panel_bins([g.axes[1, 0], g.axes[0, 1]]) == {grid_bins_for(340, 10)} == {6}
    plt.close(g.figure)
    g = pairplot(penguins, vars=PENGUIN_VARS[:2], kind="hist", method="generalize")
    assert _panel_bins([g.axes[1, 0], g.axes[0, 1]]) == {6}  # 11 x 11 coarsened two by two
    plt.close(g.figure)
    g = pairplot(penguins, vars=PENGUIN_VARS[:2], kind="hist", method="generalize", bins=30)
    assert _panel_bins([g.axes[1, 0], g.axes[0, 1]]) == {15}
    plt.close(g.figure)


def test_pairplot_grid_counts_the_records_of_a_level_left_out():
    """A hue level left out counts in the grid's n, as in its report: no panel tells it."""
    penguins = safeplot.load_dataset("penguins").dropna(subset=PENGUIN_VARS[:2])
    small = penguins.iloc[:2].assign(species="Tiny")  # a level of 2 records, left out
    df = pd.concat([penguins, small], ignore_index=True)
    g = pairplot(df, vars=PENGUIN_VARS[:2], hue="species", kind="hist", method="suppress")
    assert g.safeplot_report.n == 345
    assert _panel_bins([g.axes[1, 0], g.axes[0, 1]]) == {grid_bins_for(345, 3)}
    plt.close(g.figure)


@pytest.mark.parametrize(
    ("kind", "method"),
    [
        ("hist", "suppress"),
        ("hex", "suppress"),
        ("scatter", "suppress"),
        ("kde", "suppress"),
        ("hist", "deterministic"),
        ("hex", "generalize"),
    ],
)
def test_jointplot_grid_is_chosen_by_n(kind, method):
    coarsen = 2 if method == "generalize" else 1
    penguins = safeplot.load_dataset("penguins")
    xy = {"x": "bill_length_mm", "y": "bill_depth_mm"}
    g = jointplot(penguins, **xy, kind=kind, method=method)
    assert grid_bins_for(340, 3) == 11
    assert g.ax_joint.safeplot_report.params["bins"] == -(-11 // coarsen)
    plt.close(g.figure)
    g = jointplot(penguins, **xy, kind=kind, method=method, bins=25)
    assert g.ax_joint.safeplot_report.params["bins"] == -(-25 // coarsen)
    plt.close(g.figure)
