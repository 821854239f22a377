"""The pandas plotting backend, through the installed entry point: releases, leaks, refusals."""

from importlib.metadata import entry_points

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection, PolyCollection

import safeplot
from safeplot import DisclosureError, UnsafePlotError, audit
from safeplot.demo import demo_policy
from safeplot.integrations import pandas_backend as pb
from safeplot.integrations.pandas_backend import release_bar_counts
from safeplot.methods import get_method
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.categorical import boxplot
from safeplot.plots.distributions import histplot
from safeplot.plots.grid import grid_bins_for
from safeplot.plots.hexbin import default_gridsize, hexagon_counts, release_hexbin
from safeplot.plots.kde import kdeplot
from safeplot.plots.matrix import crosstab
from safeplot.plots.relational import scatter, scatterplot
from safeplot.policy import METHODS

from .leakscan import scan_figure

# each backend call is compared with the safeplot function it stands for: differentially private
# releases draw fresh noise each time, so they cannot be compared (tests/test_dp.py has them)
SAFE = [m for m in METHODS if m != "none" and not get_method(m).private]


@pytest.fixture(autouse=True)
def safe_backend():
    """Select the backend by its entry-point name, and restore pandas' default afterwards."""
    before = pd.options.plotting.backend
    pd.options.plotting.backend = "safeplot"
    yield
    pd.options.plotting.backend = before


def _frames():
    rng = np.random.default_rng(20260705)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    ox, oy = np.r_[x, 412.731, -97.113, 255.517], np.r_[y, -88.404, 301.219, 12.125]
    tx = rng.integers(10, 22, 400).astype(float)
    ty = rng.integers(30, 38, 400).astype(float)
    # planted rare values, clear of the numbers a method note prints (k=3, q=0.25, ...)
    tx, ty = np.r_[tx, 57.0, 71.0, 19.5], np.r_[ty, 67.0, 83.0, -4.0]
    out = {}
    for name, (a, b) in {"outliers": (ox, oy), "ties": (tx, ty)}.items():
        g = np.array(["a", "b", "c"])[np.arange(a.size) % 3]
        out[name] = pd.DataFrame({"x": a, "y": b, "g": g})
    return out


DATA = _frames()
KINDS_OF_DATA = sorted(DATA)


def _scan(fig, raw, **kw):
    found = scan_figure(fig, raw, threshold=3, **kw)
    assert not found, str(found)


def _heights(ax):
    return np.array(sorted(p.get_height() for p in ax.patches if p.get_height() > 0))


# -- the entry point ---------------------------------------------------------------------------


def test_entry_point_is_installed_and_selected():
    (ep,) = [e for e in entry_points(group="pandas_plotting_backends") if e.name == "safeplot"]
    assert ep.value == "safeplot.integrations.pandas_backend"
    from pandas.plotting._core import _get_plot_backend

    assert _get_plot_backend("safeplot") is pb
    for name in ("plot", "hist_series", "hist_frame", "boxplot", "boxplot_frame"):
        assert callable(getattr(pb, name))
    assert callable(pb.boxplot_frame_groupby)


def test_backend_keyword_works_without_the_option():
    pd.options.plotting.backend = "matplotlib"
    df = DATA["outliers"]
    ax = df.plot(kind="hist", y="x", backend="safeplot")
    assert ax.safeplot_report.method == "suppress"
    _scan(ax.figure, {"x": df["x"].to_numpy()})


# -- hist --------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", KINDS_OF_DATA)
@pytest.mark.parametrize("method", SAFE)
def test_hist_equals_histplot_and_leaks_nothing(data, method):
    df = DATA[data]
    ax = df["x"].plot.hist(method=method, bins=12)
    assert isinstance(ax, Axes)
    _, ref = plt.subplots()
    histplot(x=df["x"], bins=12, method=method, ax=ref)
    np.testing.assert_allclose(_heights(ax), _heights(ref))
    np.testing.assert_allclose(ax.get_xlim(), ref.get_xlim())
    assert ax.safeplot_report.method == method
    assert ax.safeplot_report.to_dict()["params"] == ref.safeplot_report.to_dict()["params"]
    _scan(ax.figure, {"x": df["x"].to_numpy()})


def test_hist_counts_are_suppressed_counts_of_the_raw_data():
    x = DATA["ties"]["x"]
    ax = x.plot.hist(method="suppress", bins=12)
    bars = [p for p in ax.patches if p.get_height() > 0]
    edges = np.r_[[p.get_x() for p in bars], bars[-1].get_x() + bars[-1].get_width()]
    for p in bars:  # an independent count of the raw values in each drawn bin
        lo, hi = p.get_x(), p.get_x() + p.get_width()
        assert p.get_height() == ((x >= lo) & (x < hi)).sum() >= 3
    # the planted outliers (57 and 71, one record each) are the only records not drawn: their
    # bins are suppressed and neither the bars nor the axis reach them
    outliers = x[x > 50]
    assert outliers.size == 2
    assert edges[-1] < outliers.min() and ax.get_xlim()[1] < outliers.min()
    assert sum(p.get_height() for p in bars) == x.size - outliers.size
    assert ax.safeplot_report.cells_suppressed == 2


def test_raw_histograms_are_flagged():
    df = DATA["outliers"]
    fig, ax = plt.subplots()
    df["x"].plot.hist(backend="matplotlib", ax=ax)
    assert scan_figure(fig, {"x": df["x"].to_numpy()}, threshold=3)
    with safeplot.policy(demo_policy()):
        ax = df["x"].plot.hist(method="none")
    assert ax.safeplot_report.method == "none"
    assert scan_figure(ax.figure, {"x": df["x"].to_numpy()}, threshold=3)


def test_hist_of_several_columns_subplots_and_by():
    df = DATA["outliers"]
    ax = df[["x", "y"]].plot.hist(bins=10)
    ref_fig, ref = plt.subplots()
    long = pd.DataFrame({"value": np.r_[df["x"], df["y"]], "column": ["x"] * 303 + ["y"] * 303})
    histplot(data=long, x="value", hue="column", bins=10, ax=ref)
    np.testing.assert_allclose(_heights(ax), _heights(ref))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["x", "y"]
    _scan(ax.figure, {"x": np.r_[df["x"], df["y"]]})
    axes = df[["x", "y"]].plot.hist(subplots=True, bins=10)
    assert isinstance(axes, np.ndarray) and axes.shape == (2,)
    _scan(
        axes[0].figure,
        {"x": df["x"].to_numpy()},
        per_axes={axes[0]: {"x": df["x"].to_numpy()}, axes[1]: {"x": df["y"].to_numpy()}},
    )
    axes = df.plot.hist(column=["x"], by="g", bins=8)
    assert axes.shape == (3,) and [a.get_title() for a in axes] == ["a", "b", "c"]
    for a in axes:
        assert a.safeplot_report.function == "histplot"
    _scan(axes[0].figure, {"x": df["x"].to_numpy()})


def test_hist_frame_and_hist_series():
    df = DATA["ties"]
    axes = df.hist(bins=8)
    assert axes.shape == (1, 2)
    assert [a.get_title() for a in axes.ravel()] == ["x", "y"]
    _scan(
        axes[0, 0].figure,
        {"x": df["x"].to_numpy()},
        per_axes={axes[0, 0]: {"x": df["x"].to_numpy()}, axes[0, 1]: {"x": df["y"].to_numpy()}},
    )
    plt.close("all")  # as pandas, Series.hist draws on the current Axes if there is one
    ax = df["x"].hist(method="generalize", bins=8)
    assert isinstance(ax, Axes) and ax.safeplot_report.method == "generalize"
    axes = df["x"].hist(by=df["g"], bins=6)
    assert axes.shape == (2, 2) and not axes[1, 1].get_visible()
    _scan(axes[0, 0].figure, {"x": df["x"].to_numpy()})


# -- kde ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("data", KINDS_OF_DATA)
@pytest.mark.parametrize("method", SAFE)
def test_kde_equals_kdeplot_and_leaks_nothing(data, method):
    df = DATA[data]
    ax = df["x"].plot.density(method=method)
    _, ref = plt.subplots()
    kdeplot(x=df["x"], method=method, ax=ref)
    (line,), (ref_line,) = ax.lines, ref.lines
    np.testing.assert_allclose(line.get_xydata(), ref_line.get_xydata())
    assert ax.safeplot_report.function == "kdeplot" and ax.safeplot_report.method == method
    assert ax.get_ylabel() == "Density"
    _scan(ax.figure, {"x": df["x"].to_numpy()}, count_axis=None)


def test_kde_keywords():
    df = DATA["outliers"]
    ax = df["x"].plot.kde(bw_method=0.5, ind=50)
    assert ax.lines[0].get_xdata().size == 50
    with pytest.raises(ValueError, match="ind as evaluation points"):
        df["x"].plot.kde(ind=np.linspace(0, 1, 5))
    ax = df[["x", "y"]].plot.kde()
    assert len(ax.lines) == 2
    assert not scan_figure(ax.figure, {"x": np.r_[df["x"], df["y"]]}, count_axis=None)


# -- box ---------------------------------------------------------------------------------------


def _box_lines(ax):
    return sorted(tuple(np.round(ln.get_xydata().ravel(), 9)) for ln in ax.lines)


@pytest.mark.parametrize("data", KINDS_OF_DATA)
@pytest.mark.parametrize("method", SAFE)
def test_box_equals_boxplot_and_leaks_nothing(data, method):
    df = DATA[data]
    ax = df[["y"]].plot.box(method=method)
    _, ref = plt.subplots()
    boxplot(data=df[["y"]], orient="v", method=method, ax=ref)
    assert _box_lines(ax) == _box_lines(ref)
    assert ax.safeplot_report.function == "boxplot" and ax.safeplot_report.method == method
    _scan(ax.figure, {"y": df["y"].to_numpy()}, count_axis=None)


def test_raw_box_is_flagged():
    df = DATA["outliers"]
    fig, ax = plt.subplots()
    df[["y"]].plot.box(backend="matplotlib", ax=ax)
    assert scan_figure(fig, {"y": df["y"].to_numpy()}, threshold=3, count_axis=None)


def test_box_by_group_boxplot_frame_and_groupby():
    df = DATA["outliers"]
    axes = df.plot.box(column=["y"], by="g", method="confidential")
    assert axes.shape == (1,) and axes[0].get_title() == "y"
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["a", "b", "c"]
    _scan(axes[0].figure, {"y": df["y"].to_numpy()}, count_axis=None)
    ax = df.boxplot(column=["x", "y"], method="suppress")
    assert isinstance(ax, Axes) and ax.safeplot_report.method == "suppress"
    axes = df.boxplot(column=["y"], by="g")
    assert axes.shape == (1, 1)
    ax = df.plot.box(vert=False, column=["x"])
    _scan(ax.figure, {"x": df["x"].to_numpy()}, count_axis=None)
    with pytest.raises(ValueError, match="return_type"):
        df.boxplot(column=["y"], return_type="dict")
    axes = df.groupby("g").boxplot(column=["y"], method="confidential")
    assert isinstance(axes, pd.Series) and list(axes.index) == ["a", "b", "c"]
    for a in axes:
        assert a.safeplot_report.method == "confidential"
    # each panel is its group's own release: checked against that group's rare values
    own = {a: {"y": df.loc[df["g"] == key, "y"].to_numpy()} for key, a in axes.items()}
    _scan(axes.iloc[0].figure, {"y": np.array([])}, count_axis=None, per_axes=own)
    ax = df.groupby("g").boxplot(column=["y"], subplots=False)
    assert isinstance(ax, Axes) and len(ax.get_xticklabels()) == 3
    ax = pb.boxplot(df, column="y", method="suppress")
    assert ax.safeplot_report.method == "suppress"


# -- scatter -----------------------------------------------------------------------------------


@pytest.mark.parametrize("data", KINDS_OF_DATA)
@pytest.mark.parametrize("method", SAFE)
def test_scatter_equals_scatter_and_leaks_nothing(data, method):
    df = DATA[data]
    ax = df.plot.scatter(x="x", y="y", method=method)
    _, ref = plt.subplots()
    if method == "confidential":
        scatterplot(data=df, x="x", y="y", method=method, ax=ref, legend=False)
        assert _box_lines(ax) == _box_lines(ref)
    else:
        scatter(df["x"], df["y"], method=method, ax=ref)
        (pts,) = [c for c in ax.collections if isinstance(c, PathCollection)]
        (ref_pts,) = [c for c in ref.collections if isinstance(c, PathCollection)]
        np.testing.assert_allclose(pts.get_offsets(), ref_pts.get_offsets())
        np.testing.assert_allclose(pts.get_sizes(), ref_pts.get_sizes())
    assert ax.safeplot_report.method == method
    assert ax.get_xlabel() == "x" and ax.get_ylabel() == "y"
    _scan(ax.figure, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()})


def test_raw_scatter_is_flagged():
    df = DATA["ties"]
    fig, ax = plt.subplots()
    df.plot.scatter(x="x", y="y", backend="matplotlib", ax=ax)
    assert scan_figure(fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}, threshold=3)


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "microaggregation"])
def test_scatter_coloured_by_a_column_releases_the_colours(method):
    # z is no monotone copy of x (the ledger would take its noise for a second draw of x's)
    out = DATA["outliers"]
    df = out.assign(z=out["x"] * 0.3 + out["y"] * 0.2 + 7.123)
    ax = df.plot.scatter(x="x", y="y", c="z", method=method)
    _, ref = plt.subplots()
    ref_pc = scatter(df["x"], df["y"], c=df["z"], method=method, ax=ref)
    (pts,) = [c for c in ax.collections if isinstance(c, PathCollection)]
    np.testing.assert_allclose(pts.get_array(), ref_pc.get_array())
    assert not np.isin(pts.get_array(), df["z"].to_numpy()).all()
    assert len(ax.figure.axes) == 2  # the colour bar
    _scan(
        ax.figure,
        {"x": df["x"].to_numpy(), "y": df["y"].to_numpy(), "colour": df["z"].to_numpy()},
    )


def test_scatter_keyword_refusals():
    df = DATA["outliers"].assign(s=1.0)
    with pytest.raises(ValueError, match="per-point marker sizes"):
        df.plot.scatter(x="x", y="y", s="s")
    with pytest.raises(ValueError, match="categorical column"):
        df.plot.scatter(x="x", y="y", c="g")
    with pytest.raises(ValueError, match="colouring by a column"):
        df.plot.scatter(x="x", y="y", c="s", method="suppress")
    with pytest.raises(ValueError, match="needs both x= and y="):
        pb.plot(df, kind="scatter", x="x")
    assert plt.get_fignums() == [] and audit.entries() == []
    ax = df.plot.scatter(x="x", y="y", c="red", s=20, alpha=0.5)
    assert ax.safeplot_report.method == "deterministic"


# -- hexbin ------------------------------------------------------------------------------------


def test_hexagon_counts_match_matplotlib():
    df = DATA["outliers"]
    fig, ax = plt.subplots()
    extent = (-100.0, 420.0, -90.0, 310.0)
    coll = ax.hexbin(df["x"], df["y"], gridsize=(20, 11), extent=extent, mincnt=1)
    cx, cy, counts = hexagon_counts(df["x"].to_numpy(), df["y"].to_numpy(), (20, 11), extent)
    keep = counts > 0
    np.testing.assert_allclose(coll.get_offsets(), np.c_[cx[keep], cy[keep]])
    np.testing.assert_array_equal(coll.get_array(), counts[keep])


@pytest.mark.parametrize("data", KINDS_OF_DATA)
@pytest.mark.parametrize("method", SAFE)
def test_hexbin_shows_only_hexagons_of_threshold_records(data, method):
    df = DATA[data]
    ax = df.plot.hexbin(x="x", y="y", gridsize=10, method=method)
    rel = release_hexbin(df["x"], df["y"], names=("x", "y"), gridsize=10, method=method)
    (coll,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    np.testing.assert_array_equal(coll.get_array(), rel.counts)
    np.testing.assert_allclose(coll.get_offsets(), np.c_[rel.x, rel.y], rtol=1e-12)
    assert (rel.counts >= 3).all()
    if method == "suppress":  # independently: matplotlib's own counts of the raw data, suppressed
        fig2, ax2 = plt.subplots()
        raw = ax2.hexbin(df["x"], df["y"], gridsize=rel.gridsize, extent=rel.extent, mincnt=1)
        big = raw.get_array() >= 3
        np.testing.assert_array_equal(raw.get_array()[big], rel.counts)
        assert rel.report.cells_suppressed == int((~big).sum())
        plt.close(fig2)
    assert ax.safeplot_report.function == "hexbin"
    assert ax.safeplot_report.method == method
    _scan(
        ax.figure,
        {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        counts_in_colour=True,
    )


def test_hexbin_gridsize_is_chosen_by_n():
    """342 complete penguins (340 as reported): 10 hexagons across, not 30; a gridsize given
    is kept."""
    penguins = safeplot.load_dataset("penguins")
    xy = {"x": "bill_length_mm", "y": "bill_depth_mm"}
    rel = release_hexbin(penguins[xy["x"]], penguins[xy["y"]], method="suppress")
    assert rel.report.n == 340 and rel.gridsize == (10, 5)
    assert rel.report.params["gridsize"] == [10, 5]
    # about as many hexagons as the heat map's 11 x 11 cells of the same records
    hexagons = 11 * 6 + 10 * 5
    assert abs(hexagons - grid_bins_for(340, 3) ** 2) <= 0.05 * 121
    ax = penguins.plot.hexbin(**xy, method="suppress")
    assert ax.safeplot_report.params["gridsize"] == [10, 5]
    plt.close(ax.figure)
    given = release_hexbin(penguins[xy["x"]], penguins[xy["y"]], gridsize=30, method="suppress")
    assert given.gridsize == (30, 17)
    # a coarser grid for a larger threshold, coarsened by generalisation, at most 30 across
    assert default_gridsize(340, "suppress", threshold=10) == 5
    gen = release_hexbin(penguins[xy["x"]], penguins[xy["y"]], method="generalize")
    assert gen.gridsize == (5, 3)
    assert default_gridsize(100_000, "suppress") == 30
    assert [default_gridsize(n, "suppress") for n in (20, 344, 1000)] == [5, 10, 17]


def test_raw_hexbin_is_flagged():
    df = DATA["ties"]
    fig, ax = plt.subplots()
    df.plot.hexbin(x="x", y="y", gridsize=10, backend="matplotlib", ax=ax)
    found = scan_figure(
        fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}, threshold=3, count_axis=None
    )
    assert found
    with safeplot.policy(demo_policy()):
        ax = df.plot.hexbin(x="x", y="y", gridsize=10, method="none")
    (coll,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert (coll.get_array() < 3).any()


def test_hexbin_refuses_values_per_hexagon():
    df = DATA["outliers"]
    with pytest.raises(ValueError, match="C= is refused"):
        df.plot.hexbin(x="x", y="y", C="x")
    with pytest.raises(ValueError, match="extent= is refused"):
        df.plot.hexbin(x="x", y="y", extent=(0, 1, 0, 1))
    assert plt.get_fignums() == [] and audit.entries() == []


# -- bar ---------------------------------------------------------------------------------------


def _counts_data():
    rng = np.random.default_rng(5)
    s = pd.Series(rng.choice(["alpha", "beta", "gamma"], 200).tolist() + ["rare1", "rare2"] * 1)
    nums = pd.Series(np.r_[rng.integers(40, 46, 300), 97, 98, 98], name="age")
    return s, nums


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential"])
def test_bar_of_counts_suppresses_small_counts(method):
    s, nums = _counts_data()
    counts = nums.value_counts()
    ax = counts.plot.bar(method=method)
    rel = release_bar_counts(counts, method=method)
    shown = rel.table.iloc[:, 0].dropna()
    np.testing.assert_allclose(_heights(ax), np.sort(shown[shown > 0].to_numpy()))
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert "97" not in labels and "98" not in labels
    if method == "suppress":
        expected = counts[counts >= 3].sort_index()
        np.testing.assert_array_equal(shown.sort_index(), expected.astype(float))
    assert ax.safeplot_report.method == method
    assert ax.safeplot_report.details["treated_as"] == "counts of records"
    _scan(ax.figure, {"x": nums.to_numpy()}, count_axis="y")
    plt.figure()  # as pandas, a Series is drawn on the current Axes
    ax = s.value_counts().plot.barh(method=method)
    assert not {"rare1", "rare2"} & {t.get_text() for t in ax.get_yticklabels()}
    _scan(ax.figure, {"y": np.array([])}, count_axis="x")


def test_raw_bar_is_flagged():
    _, nums = _counts_data()
    fig, ax = plt.subplots()
    nums.value_counts().plot.bar(backend="matplotlib", ax=ax)
    found = scan_figure(fig, {"x": nums.to_numpy()}, threshold=3, count_axis="y")
    assert found.small_counts


def test_bar_refuses_what_does_not_look_like_counts():
    df = DATA["outliers"]
    with pytest.raises(ValueError, match="indexed by row number"):
        df["y"].round().abs().plot.bar()
    with pytest.raises(ValueError, match="counts only"):
        df.groupby("g")["y"].mean().plot.bar()
    with pytest.raises(ValueError, match=r"not available"):
        df["g"].value_counts().plot.bar(method="deterministic")
    assert plt.get_fignums() == [] and audit.entries() == []


def test_bar_of_a_safeplot_crosstab_is_drawn_as_released():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, "day", "time")
    ax = ct.plot.bar()
    shown = ct.to_numpy()[np.isfinite(ct.to_numpy()) & (ct.to_numpy() > 0)]
    np.testing.assert_allclose(_heights(ax), np.sort(shown))
    assert ax.safeplot_report.details["released_by"] == "crosstab"


# -- unsafe kinds, bad input, floors -----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "alternative"),
    [("line", "plot.hist"), ("area", "value_counts"), ("pie", "value_counts().plot.bar")],
)
def test_unsafe_kinds_name_the_alternative(kind, alternative):
    s = DATA["outliers"]["x"]
    with pytest.raises(
        UnsafePlotError,
        match=alternative.replace(".", r"\.").replace("(", r"\(").replace(")", r"\)"),
    ):
        getattr(s.plot, kind)()
    with pytest.raises(UnsafePlotError):
        s.plot(kind=kind)
    assert plt.get_fignums() == [] and audit.entries() == []


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda df: df.plot.hist(y="nope"), ValueError, "no column 'nope'"),
        (lambda df: df.plot.hist(y="g"), ValueError, "not numeric"),
        (lambda df: df.plot.hist(table=True), ValueError, "table=True"),
        (lambda df: df.plot.hist(logy=True), ValueError, "log axes"),
        (lambda df: df.plot.hist(xticks=[1, 2]), ValueError, "safe grid"),
        (lambda df: df.plot.hist(y="x", weights=df["y"]), ValueError, "weights"),
        (lambda df: df.plot.box(yerr=df["y"]), ValueError, "error bars"),
        (lambda df: df.plot.hist(method="nonsense"), ValueError, "not a safeplot method"),
        (lambda df: df.plot.hist(method="none"), DisclosureError, "allow_raw"),
        (lambda df: df.plot.scatter(x="x", y="y", k=2), DisclosureError, "k_min"),
        (lambda df: df.plot.kde(method="probabilistic", q=0.1), DisclosureError, "q_min"),
        (lambda df: df.plot.hist(threshold=2), DisclosureError, "threshold"),
        (lambda df: df.plot.hist(y="x", xlim=(0, 412.731)), DisclosureError, "xlim"),
        (lambda df: df.head(4).plot.hist(by="g"), DisclosureError, "fewer than threshold"),
        (lambda df: df.assign(c=1.0).plot.hist(y="c"), ValueError, "constant|span"),
        (lambda df: pb.plot(df, kind="violin"), ValueError, "not a plot kind"),
    ],
)
def test_bad_input_leaves_nothing_behind(call, error, match):
    df = DATA["outliers"]
    with pytest.raises(error, match=match):
        call(df)
    assert plt.get_fignums() == []
    assert audit.entries() == []


def test_failure_while_drawing_closes_the_new_figure():
    df = DATA["outliers"]
    with pytest.raises((AttributeError, TypeError, ValueError)):
        df["x"].plot.hist(no_such_artist_property=3)
    assert plt.get_fignums() == []


def test_raw_output_only_where_the_policy_allows_it():
    df = DATA["outliers"]
    with safeplot.policy(allow_raw=True):
        ax = df["x"].plot.hist(method="none")
    assert ax.safeplot_report.method == "none"
    assert any("Raw output" in w for w in ax.safeplot_report.warnings)


# -- styling keywords, reports and the audit log -----------------------------------------------


def test_pandas_keywords_are_honoured():
    df = DATA["outliers"]
    ax = df["x"].plot.hist(
        bins=10,
        title="T",
        xlabel="X",
        ylabel="Y",
        grid=True,
        color="C2",
        alpha=0.4,
        xlim=(0.0, 100.0),
        figsize=(4, 3),
    )
    assert ax.get_title() == "T" and ax.get_xlabel() == "X" and ax.get_ylabel() == "Y"
    assert ax.get_xlim() == (0.0, 100.0)
    assert tuple(ax.figure.get_size_inches()) == (4.0, 3.0)
    assert ax.patches[0].get_facecolor()[3] == pytest.approx(0.4)
    assert ax.xaxis.get_gridlines()[0].get_visible()
    _scan(ax.figure, {"x": df["x"].to_numpy()})
    fig, given = plt.subplots()
    assert df["x"].plot.hist(ax=given) is given
    axes = df[["x", "y"]].plot.kde(subplots=True, title=["a", "b"], legend=False)
    assert [a.get_title() for a in axes] == ["a", "b"]


def test_reports_audit_and_method_note():
    df = DATA["ties"]
    draws = [
        lambda: df["x"].plot.hist(),
        lambda: df["x"].plot.kde(),
        lambda: df[["x"]].plot.box(),
        lambda: df.plot.scatter(x="x", y="y"),
        lambda: df.plot.hexbin(x="x", y="y", gridsize=8),
        lambda: df["g"].value_counts().plot.bar(),
    ]
    axes = []
    for draw in draws:
        plt.figure()  # a Series is drawn on the current Axes, as pandas does
        axes.append(draw())
    expected = [
        "suppress",
        "deterministic",
        "deterministic",
        "deterministic",
        "suppress",
        "suppress",
    ]
    assert [a.safeplot_report.method for a in axes] == expected
    entries = audit.entries()
    assert [e.method for e in entries] == expected
    assert [e.function for e in entries] == [
        "histplot",
        "kdeplot",
        "boxplot",
        "scatter",
        "hexbin",
        "plot.bar",
    ]
    for ax in axes:
        assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    plt.figure()
    ax = df["x"].plot.hist(annotate=False)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
