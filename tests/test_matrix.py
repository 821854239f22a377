"""heatmap (density grid and released matrices), crosstab and the safe-matrix marker."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize import add_keyed_noise
from safeplot.demo import demo_policy
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.grid import GRID_BINS, MIN_GRID_BINS, default_grid_bins, grid_bins_for
from safeplot.plots.matrix import crosstab, heatmap, is_safe_matrix, mark_safe_matrix
from safeplot.release import DisclosureReport

from .leakscan import scan_figure
from .ledgers import alone

GRID_METHODS = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]


def outlier_data():
    """Normal data with three planted unique outliers."""
    rng = np.random.default_rng(20261121)
    x = np.round(rng.normal(50, 10, 400), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 400), 3)
    return pd.DataFrame(
        {"x": np.r_[x, 412.731, -97.113, 255.517], "y": np.r_[y, -88.404, 301.219, 12.5]}
    )


def tied_data():
    """Integer data with heavy ties, and a few rare values in the tails."""
    rng = np.random.default_rng(11)
    x = rng.poisson(60, 600).astype(float)
    y = x + rng.integers(-6, 7, 600)
    return pd.DataFrame({"x": np.r_[x, 140.0, 7.0], "y": np.r_[y, 9.0, 131.0]})


def mesh_of(ax):
    meshes = [c for c in ax.collections if isinstance(c, plt.matplotlib.collections.QuadMesh)]
    assert len(meshes) == 1
    mesh = meshes[0]
    coords = np.asarray(mesh.get_coordinates())
    xedges, yedges = coords[0, :, 0], coords[:, 0, 1]
    return mesh, xedges, yedges


def expected_grid(x, y, xedges, yedges, threshold=3):
    """Counts per cell (rows = y cells), with small cells and empty cells masked."""
    counts, _, _ = np.histogram2d(x, y, bins=[xedges, yedges])
    counts = counts.T
    return counts, (counts == 0) | (counts < threshold)


def assert_grid_matches(ax, x, y, threshold=3):
    mesh, xedges, yedges = mesh_of(ax)
    counts, blank = expected_grid(x, y, xedges, yedges, threshold)
    drawn = mesh.get_array()
    assert drawn.shape == counts.shape
    np.testing.assert_array_equal(np.ma.getmaskarray(drawn), blank)
    np.testing.assert_array_equal(drawn.compressed(), counts[~blank])
    # small non-empty cells were there and are blank
    return counts, xedges, yedges


def knn_centroids_by_hand(values, k):
    """Avraam et al.'s deterministic method, computed directly (no ties in these data)."""
    mean, sd = values.mean(axis=0), values.std(axis=0, ddof=1)
    z = (values - mean) / sd
    d2 = ((z[:, None, :] - z[None, :, :]) ** 2).sum(axis=-1)
    nearest = np.argsort(d2, axis=1, kind="stable")[:, :k]
    cent = z[nearest].mean(axis=1)
    cent = cent / cent.std(axis=0, ddof=1)  # the paper: no re-centring
    return cent * sd + mean


def winsorise_by_hand(values, width=2.6):
    mean, sd = values.mean(axis=0), values.std(axis=0, ddof=1)
    return np.clip(values, mean - width * sd, mean + width * sd)


# -- density grid: exact counts ---------------------------------------------------------


def test_suppress_grid_counts_equal_histogram2d_with_small_cells_blank():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", method="suppress", bins=30)
    counts, xedges, yedges = assert_grid_matches(ax, df.x, df.y)
    steps = np.diff(xedges)
    np.testing.assert_allclose(steps, steps[0])
    assert ((counts > 0) & (counts < 3)).any()  # there were small cells to blank
    # the outliers' cells are suppressed and the grid does not stretch to them
    assert xedges[-1] < 255.517 and xedges[0] > -97.113
    assert yedges[-1] < 301.219 and yedges[0] > -88.404
    rep = ax.safeplot_report
    assert rep.method == "suppress" and rep.params["threshold"] == 3
    assert rep.cells_suppressed >= int(((counts > 0) & (counts < 3)).sum())
    assert ax.get_xlabel() == "x" and ax.get_ylabel() == "y"


def test_generalize_grid_is_15_by_15_with_double_cells():
    df = safeplot.datasets.simulate("D2", n=500, seed=1234)
    # each grid on its own: drawn together, the ledger hides more of the coarse grid
    with alone():
        fine = heatmap(data=df, x="x", y="y", method="suppress", bins=30, ax=plt.figure().gca())
    with alone():
        coarse = heatmap(
            data=df, x="x", y="y", method="generalize", bins=30, ax=plt.figure().gca()
        )
    _, fx, fy = mesh_of(fine)
    _, cx, cy = mesh_of(coarse)
    np.testing.assert_allclose(np.diff(cx), 2 * (fx[1] - fx[0]))
    np.testing.assert_allclose(np.diff(cy), 2 * (fy[1] - fy[0]))
    assert len(cx) - 1 <= 15 and len(cy) - 1 <= 15
    assert coarse.safeplot_report.params["bins"] == 15
    assert coarse.safeplot_report.params["factor"] == 2
    assert_grid_matches(coarse, df.x, df.y)
    # fewer cells suppressed than on the fine grid
    assert coarse.safeplot_report.cells_suppressed < fine.safeplot_report.cells_suppressed


def test_generalize_factor_3_on_10_bins():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", method="generalize", bins=12, factor=3)
    assert ax.safeplot_report.params["bins"] == 4
    assert_grid_matches(ax, df.x, df.y)


def test_deterministic_grid_counts_the_knn_centroids():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", method="deterministic", k=3)
    released = knn_centroids_by_hand(df[["x", "y"]].to_numpy(), 3)
    assert_grid_matches(ax, released[:, 0], released[:, 1])
    assert ax.safeplot_report.params["k"] == 3


def test_probabilistic_grid_counts_the_noisy_values():
    df = outlier_data()
    with safeplot.policy(demo_policy()):
        ax = heatmap(data=df, x="x", y="y", method="probabilistic", q=0.5)
        noisy = add_keyed_noise(df[["x", "y"]].to_numpy(), 0.5, names=["x", "y"])
    assert_grid_matches(ax, noisy[:, 0], noisy[:, 1])
    assert ax.safeplot_report.params["q"] == 0.5


def test_confidential_grid_counts_the_winsorised_values():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", method="confidential")
    released = winsorise_by_hand(df[["x", "y"]].to_numpy())
    assert_grid_matches(ax, released[:, 0], released[:, 1])
    assert "winsorised" in next(t for t in ax.texts if t.get_gid() == FOOTNOTE_GID).get_text()


def test_raw_grid_with_allow_raw():
    df = outlier_data()
    with safeplot.policy(allow_raw=True):
        ax = heatmap(data=df, x="x", y="y", method="none", bins=10)
    mesh, xedges, yedges = mesh_of(ax)
    np.testing.assert_allclose(xedges, np.histogram_bin_edges(df.x, 10))
    counts, _, _ = np.histogram2d(df.x, df.y, bins=[xedges, yedges])
    np.testing.assert_array_equal(mesh.get_array().filled(0), counts.T)
    assert ax.safeplot_report.method == "none"


def test_vectors_without_data_and_default_method():
    df = outlier_data()
    ax = heatmap(x=df.x.to_numpy(), y=df.y.rename("height"))
    assert ax.safeplot_report.method == "suppress"
    assert ax.get_ylabel() == "height"
    assert_grid_matches(ax, df.x, df.y)


def test_missing_values_are_dropped_and_reported():
    df = outlier_data()
    df.loc[:9, "x"] = np.nan
    ax = heatmap(data=df, x="x", y="y")
    assert ax.safeplot_report.n_dropped == 10
    keep = df.x.notna()
    assert_grid_matches(ax, df.x[keep], df.y[keep])


# -- density grid: drawing options --------------------------------------------------------


def test_colour_bar_limits_come_from_shown_counts():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", bins=20)
    mesh, _, _ = mesh_of(ax)
    shown = mesh.get_array().compressed()
    assert mesh.norm.vmin == shown.min() >= 3
    assert mesh.norm.vmax == shown.max()
    cbar_axes = [a for a in ax.figure.axes if getattr(a, "_colorbar", None) is not None]
    assert len(cbar_axes) == 1
    assert cbar_axes[0].get_ylabel() == "Count"


def test_robust_vmin_vmax_cmap_center_and_no_colour_bar():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", bins=20, robust=True, cbar=False, cmap="viridis")
    mesh, _, _ = mesh_of(ax)
    shown = mesh.get_array().compressed()
    assert mesh.norm.vmin == pytest.approx(np.percentile(shown, 2))
    assert mesh.norm.vmax == pytest.approx(np.percentile(shown, 98))
    assert len(ax.figure.axes) == 1
    assert mesh.get_cmap().name == "viridis"
    fig, ax2 = plt.subplots()
    heatmap(data=df, x="x", y="y", bins=20, vmin=0, vmax=50, center=20, ax=ax2)
    mesh2, _, _ = mesh_of(ax2)
    assert (mesh2.norm.vmin, mesh2.norm.vmax) == (0, 50)


def test_annot_writes_the_shown_counts():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y", bins=8, annot=True, fmt=".0f", annot_kws={"size": 6})
    mesh, _, _ = mesh_of(ax)
    texts = [t for t in ax.texts if t.get_gid() != FOOTNOTE_GID]
    assert sorted(int(t.get_text()) for t in texts) == sorted(mesh.get_array().compressed())
    assert all(t.get_fontsize() == 6 for t in texts)


def test_square_linewidths_ticklabels_mask_cbar_ax_and_kwargs():
    df = outlier_data()
    fig, (ax, cax) = plt.subplots(1, 2)
    heatmap(
        data=df,
        x="x",
        y="y",
        bins=10,
        method="generalize",
        square=True,
        cbar_ax=cax,
        linewidths=0.5,
        linecolor="k",
        xticklabels=False,
        yticklabels=2,
        alpha=0.7,
        ax=ax,
    )
    mesh, xedges, yedges = mesh_of(ax)
    assert ax.get_aspect() == pytest.approx((xedges[1] - xedges[0]) / (yedges[1] - yedges[0]))
    assert mesh.get_linewidth()[0] == 0.5 and mesh.get_alpha() == 0.7
    assert len(ax.get_xticks()) == 0
    assert cax._colorbar is not None
    full = heatmap(data=df, x="x", y="y", bins=10, method="generalize", ax=plt.figure().gca())
    assert len(ax.get_yticks()) == len(full.get_yticks()[::2])
    # mask hides further cells
    shape = mesh.get_array().shape
    hide = np.zeros(shape, dtype=bool)
    hide[:, : shape[1] // 2] = True
    masked = heatmap(
        data=df, x="x", y="y", bins=10, method="generalize", mask=hide, ax=plt.figure().gca()
    )
    assert np.ma.getmaskarray(mesh_of(masked)[0].get_array())[hide].all()


def test_footnote_report_and_audit():
    df = outlier_data()
    ax = heatmap(data=df, x="x", y="y")
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    entry = audit.entries()[-1]
    assert (entry.function, entry.method, entry.variables) == ("heatmap", "suppress", ("x", "y"))
    ax2 = heatmap(data=df, x="x", y="y", annotate=False, ax=plt.figure().gca())
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax2.texts)


# -- density grid: refusals -------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "floor"),
    [
        ({"method": "deterministic", "k": 2}, "k_min"),
        ({"method": "probabilistic", "q": 0.1}, "q_min"),
        ({"threshold": 2}, "threshold"),
        ({"method": "none"}, "allow_raw"),
    ],
)
def test_floors_refuse_before_anything_is_drawn(kwargs, floor):
    df = outlier_data()
    figs = plt.get_fignums()
    with pytest.raises(DisclosureError, match=floor):
        heatmap(data=df, x="x", y="y", **kwargs)
    assert plt.get_fignums() == figs
    assert audit.entries() == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (pd.DataFrame({"x": [], "y": []}), "empty"),
        (pd.DataFrame({"x": [np.nan] * 5, "y": np.arange(5.0)}), "all missing"),
        (pd.DataFrame({"x": list("abcde"), "y": np.arange(5.0)}), "not numeric"),
        (pd.DataFrame({"x": [1.0, np.inf, 3, 4, 5], "y": np.arange(5.0)}), "infinite"),
    ],
)
def test_bad_input_is_refused_clearly(data, message):
    figs = plt.get_fignums()
    with pytest.raises(ValueError, match=message):
        heatmap(data=data, x="x", y="y")
    assert plt.get_fignums() == figs


def test_unknown_column_hue_annot_array_and_lists_are_refused():
    df = outlier_data()
    with pytest.raises(ValueError, match="no column"):
        heatmap(data=df, x="x", y="nope")
    df["g"] = np.arange(len(df)) % 2
    with pytest.raises(ValueError, match="hue"):
        heatmap(data=df, x="x", y="y", hue="g")
    with pytest.raises(ValueError, match="both x= and y="):
        heatmap(data=df, x="x")
    with pytest.raises(ValueError, match="annot"):
        heatmap(data=df, x="x", y="y", annot=np.zeros((30, 30)))
    with pytest.raises(ValueError, match="list of labels"):
        heatmap(data=df, x="x", y="y", xticklabels=["a", "b"])
    with pytest.raises(ValueError, match="mask"):
        heatmap(data=df, x="x", y="y", mask=np.zeros((2, 2), bool))
    with pytest.raises(ValueError, match=r"not a safeplot method"):
        heatmap(data=df, x="x", y="y", method="microaggregate")
    with pytest.raises(ValueError, match="different names"):
        heatmap(data=df, x="x", y="x")
    assert plt.get_fignums() == []


def test_everything_suppressed_is_refused():
    """An empty grid would still span the data: refused, nothing drawn."""
    df = pd.DataFrame({"x": [1.25, 2.5, 6.5, 9.75], "y": [4.5, 1.5, 7.25, 2.25]})
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="nothing can be shown"):
        heatmap(data=df, x="x", y="y", bins=5)
    with pytest.raises(DisclosureError, match="nothing can be shown"):
        heatmap(data=df, x="x", y="y")  # fewer records than the threshold: 5 x 5 cells
    assert plt.get_fignums() == before


# -- density grid: leak scans -----------------------------------------------------------


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("shape", ["outliers", "ties"])
def test_leak_scan_finds_nothing(method, shape):
    df = outlier_data() if shape == "outliers" else tied_data()
    with safeplot.policy(demo_policy()):
        ax = heatmap(data=df, x="x", y="y", method=method, bins=30)
    findings = scan_figure(ax.figure, {"x": df.x, "y": df.y}, threshold=3, counts_in_colour=True)
    assert not findings, str(findings)
    # cells, limits and colour-bar limits (ticks are a locator's, not compared)
    assert findings.numbers_scanned > 25
    assert ax.safeplot_report.method == method


# -- density grid: cells per axis chosen by n ---------------------------------------------


@pytest.mark.parametrize(
    ("n", "threshold", "expected"),
    [
        (0, 3, 5),
        (20, 3, 5),
        (75, 3, 5),
        (150, 3, 7),
        (344, 3, 11),
        (500, 3, 13),
        (1000, 3, 18),
        (2700, 3, 30),
        (100_000, 3, 30),
        (344, 10, 6),
        (500, 5, 10),
    ],
)
def test_grid_bins_for_is_sqrt_of_n_over_threshold_clipped(n, threshold, expected):
    assert grid_bins_for(n, threshold) == expected
    assert MIN_GRID_BINS <= grid_bins_for(n, threshold) <= GRID_BINS == 30


def test_grid_bins_grow_with_n_and_shrink_with_threshold():
    sizes = [grid_bins_for(n, 3) for n in range(0, 5000, 37)]
    assert sizes == sorted(sizes)
    assert grid_bins_for(1000, 3) > grid_bins_for(1000, 5) > grid_bins_for(1000, 20)


def test_default_grid_is_chosen_by_the_complete_records():
    df = safeplot.load_dataset("penguins")
    ax = heatmap(df, x="bill_length_mm", y="bill_depth_mm")
    rep = ax.safeplot_report
    # 342 complete records, stated (and used) rounded to 340
    assert rep.n == 340 and rep.params["bins"] == grid_bins_for(340, 3) == 11
    assert_grid_matches(ax, df.bill_length_mm.dropna(), df.bill_depth_mm.dropna())
    # a larger policy threshold gives a coarser grid
    with safeplot.policy(threshold=10):
        ax = heatmap(df, x="bill_length_mm", y="bill_depth_mm", ax=plt.figure().gca())
    assert ax.safeplot_report.params["bins"] == grid_bins_for(340, 10) == 6
    # ... and so does a larger threshold of the call
    ax = heatmap(df, x="bill_length_mm", y="bill_depth_mm", threshold=5, ax=plt.figure().gca())
    assert ax.safeplot_report.params["bins"] == grid_bins_for(340, 5)


def test_penguins_default_grid_blanks_far_fewer_cells_than_30_by_30():
    df = safeplot.load_dataset("penguins")
    with alone():  # each grid on its own: drawn together, the ledger links their cells
        by_n = heatmap(df, x="bill_length_mm", y="bill_depth_mm", ax=plt.figure().gca())
    with alone():
        paper = heatmap(df, x="bill_length_mm", y="bill_depth_mm", bins=30, ax=plt.figure().gca())
    assert paper.safeplot_report.params["bins"] == 30

    def blank_share(ax):
        """Share of the cells drawn that are blank (suppressed or empty)."""
        drawn = mesh_of(ax)[0].get_array()
        return np.ma.getmaskarray(drawn).mean()

    assert blank_share(by_n) < 0.6 < 0.8 < blank_share(paper)
    assert by_n.safeplot_report.cells_suppressed * 4 < paper.safeplot_report.cells_suppressed
    shown = {ax: mesh_of(ax)[0].get_array().sum() for ax in (by_n, paper)}
    assert shown[by_n] > 0.9 * 342 > 0.6 * 342 > shown[paper]


@pytest.mark.parametrize("bins", [8, 30])
def test_explicit_bins_are_respected(bins):
    df = outlier_data()
    with alone():  # each grid on its own: drawn together, the ledger links their cells
        ax = heatmap(data=df, x="x", y="y", bins=bins, method="generalize")
    assert ax.safeplot_report.params["bins"] == -(-bins // 2)
    with alone():
        ax = heatmap(data=df, x="x", y="y", bins=bins, ax=plt.figure().gca())
    assert ax.safeplot_report.params["bins"] == bins
    assert_grid_matches(ax, df.x, df.y)


def test_default_grid_bins_is_the_rule_on_the_stated_count():
    """The default every density grid takes: grid_bins_for of the count a report states."""
    assert default_grid_bins(342, "suppress") == grid_bins_for(340, 3) == 11
    assert default_grid_bins(342, "deterministic", threshold=10) == grid_bins_for(340, 10)
    assert default_grid_bins(2, "suppress") == MIN_GRID_BINS  # "<3" counts as none
    # raw output has no threshold of its own: the policy's
    assert default_grid_bins(342, "none", threshold=50) == 11
    # the private grid's cells may not depend on n
    assert {default_grid_bins(n, "dp") for n in (10, 342, 100_000)} == {GRID_BINS}
    with safeplot.policy(round_n_to=100):
        assert default_grid_bins(342, "suppress") == grid_bins_for(300, 3) == 10


def test_default_grid_of_dp_does_not_depend_on_n():
    """A private grid's cells are fixed before the data is read: 30 whatever n is."""
    df = safeplot.load_dataset("penguins")
    ax = heatmap(
        df, x="bill_length_mm", y="bill_depth_mm", method="dp", binrange=((30, 60), (13, 22))
    )
    assert ax.safeplot_report.params["bins"] == [30, 30]


@pytest.mark.parametrize("method", GRID_METHODS)
@pytest.mark.parametrize("shape", ["outliers", "ties", "penguins"])
def test_leak_scan_finds_nothing_on_the_default_grid(method, shape):
    if shape == "penguins":
        pen = safeplot.load_dataset("penguins").dropna(subset=["bill_length_mm", "bill_depth_mm"])
        df = pd.DataFrame({"x": pen.bill_length_mm, "y": pen.bill_depth_mm})
    else:
        df = outlier_data() if shape == "outliers" else tied_data()
    with safeplot.policy(demo_policy()):
        ax = heatmap(data=df, x="x", y="y", method=method)
    chosen = grid_bins_for(ax.safeplot_report.n, 3)
    assert ax.safeplot_report.params["bins"] in {chosen, -(-chosen // 2)}
    findings = scan_figure(ax.figure, {"x": df.x, "y": df.y}, threshold=3, counts_in_colour=True)
    assert not findings, str(findings)
    assert findings.numbers_scanned > 5


def test_scanner_flags_a_raw_heat_map():
    for df in (outlier_data(), tied_data()):
        with safeplot.policy(allow_raw=True):
            ax = heatmap(data=df, x="x", y="y", method="none", ax=plt.figure().gca())
        findings = scan_figure(ax.figure, {"x": df.x, "y": df.y}, counts_in_colour=True)
        assert findings.leaks and findings.small_counts


# -- crosstab ----------------------------------------------------------------------------


def small_table_data():
    """Rows whose counts are known by hand: a x b = [[2, 10, 7], [5, 20, 9], [8, 6, 30]]."""
    cells = [[2, 10, 7], [5, 20, 9], [8, 6, 30]]
    rows = []
    for i, a in enumerate(["p", "q", "r"]):
        for j, b in enumerate(["u", "v", "w"]):
            rows += [(a, b)] * cells[i][j]
    return pd.DataFrame(rows, columns=["a", "b"])


def test_crosstab_on_a_table_known_by_hand():
    ct = crosstab(small_table_data(), "a", "b")
    expected = pd.DataFrame(
        [[np.nan, 10, np.nan], [np.nan, 20, np.nan], [8, 6, 30]],
        index=pd.Index(["p", "q", "r"], name="a"),
        columns=pd.Index(["u", "v", "w"], name="b"),
    )
    pd.testing.assert_frame_equal(
        ct, expected, check_dtype=False, check_index_type=False, check_column_type=False
    )
    rep = ct.attrs["safeplot"]["report"]
    assert rep["details"]["primary_suppressed"] == 1
    assert rep["details"]["secondary_suppressed"] == 3
    assert rep["cells_suppressed"] == 4 and rep["method"] == "suppress"


def test_crosstab_matches_pandas_with_primary_and_secondary_masks():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, "day", "size")
    full = pd.crosstab(tips["day"], tips["size"])
    assert list(ct.index) == list(full.index) and list(ct.columns) == list(full.columns)
    hidden = ct.isna().to_numpy()
    counts = full.to_numpy()
    # every small cell is hidden; every shown cell is exact
    assert hidden[(counts > 0) & (counts < 3)].all()
    np.testing.assert_array_equal(ct.to_numpy()[~hidden], counts[~hidden])
    # secondary: no row or column holds exactly one hidden cell
    assert not (hidden.sum(axis=0) == 1).any() and not (hidden.sum(axis=1) == 1).any()
    # with secondary=False only the small cells go
    primary = crosstab(tips, "day", "size", secondary=False)
    np.testing.assert_array_equal(primary.isna().to_numpy(), (counts > 0) & (counts < 3))


def test_crosstab_margins_come_from_the_full_data_and_are_suppressed_when_small():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, "day", "size", margins=True)
    full = pd.crosstab(tips["day"], tips["size"], margins=True)
    assert list(ct.index) == list(full.index) and list(ct.columns) == list(full.columns)
    hidden = ct.isna().to_numpy()
    np.testing.assert_array_equal(ct.to_numpy()[~hidden], full.to_numpy()[~hidden])
    assert ct.loc["All", "All"] == len(tips)
    counts = full.to_numpy()
    assert hidden[(counts > 0) & (counts < 3)].all()
    # the published totals cannot give back a hidden cell: every line of the table
    # with its totals holds zero or at least two hidden cells
    assert not (hidden.sum(axis=0) == 1).any() and not (hidden.sum(axis=1) == 1).any()


def test_crosstab_small_margin_is_suppressed_and_margins_name():
    df = small_table_data()
    df = pd.concat([df, pd.DataFrame({"a": ["p", "q"], "b": ["x", "x"]})], ignore_index=True)
    # column "x" has 2 records but the key b has a value held by 2 records: refused ...
    with pytest.raises(DisclosureError, match="fewer than threshold"):
        crosstab(df, "a", "b", margins=True)
    # ... while a column with 3 records spread 1/1/1 is fine, its total shown
    df = pd.concat([df, pd.DataFrame({"a": ["r"], "b": ["x"]})], ignore_index=True)
    ct = crosstab(df, "a", "b", margins=True, margins_name="Total")
    assert ct.loc["Total", "x"] == 3
    assert ct["x"].iloc[:3].isna().all()
    with pytest.raises(ValueError, match="margins_name"):
        crosstab(df, "a", "b", margins=True, margins_name="p")


def test_crosstab_multiple_keys_margins_label():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, ["day", "sex"], "smoker", margins=True)
    full = pd.crosstab([tips["day"], tips["sex"]], tips["smoker"], margins=True)
    assert list(ct.index) == list(full.index)
    hidden = ct.isna().to_numpy()
    np.testing.assert_array_equal(ct.to_numpy()[~hidden], full.to_numpy()[~hidden])


@pytest.mark.parametrize("normalize", [True, "all", "index", "columns", 0, 1])
def test_crosstab_normalize_is_computed_from_shown_counts(normalize):
    tips = safeplot.load_dataset("tips")
    counts = crosstab(tips, "day", "size").to_numpy()
    ct = crosstab(tips, "day", "size", normalize=normalize)
    how = "all" if normalize is True else {0: "index", 1: "columns"}.get(normalize, normalize)
    with np.errstate(invalid="ignore"):
        if how == "all":
            expected = counts / np.nansum(counts)
        elif how == "index":
            expected = counts / np.nansum(counts, axis=1, keepdims=True)
        else:
            expected = counts / np.nansum(counts, axis=0, keepdims=True)
    np.testing.assert_allclose(ct.to_numpy(), expected)
    assert is_safe_matrix(ct)
    assert any("shown counts" in w for w in ct.attrs["safeplot"]["report"]["warnings"])


def test_crosstab_normalize_with_margins_follows_pandas_layout():
    tips = safeplot.load_dataset("tips")
    for how in ("all", "index", "columns"):
        ct = crosstab(tips, "day", "time", normalize=how, margins=True)
        full = pd.crosstab(tips["day"], tips["time"], normalize=how, margins=True)
        assert list(ct.index) == list(full.index) and list(ct.columns) == list(full.columns)
    ct = crosstab(tips, "sex", "smoker", normalize="all", margins=True)
    full = pd.crosstab(tips["sex"], tips["smoker"], normalize="all", margins=True)
    np.testing.assert_allclose(ct.to_numpy(), full.to_numpy())  # nothing suppressed here


def test_crosstab_drops_missing_keys_and_reports_them():
    tips = safeplot.load_dataset("tips").copy()
    tips["day"] = tips["day"].astype(object)
    tips.loc[:19, "day"] = None
    ct = crosstab(tips, "day", "time")
    assert ct.attrs["safeplot"]["report"]["n_dropped"] == 20
    full = pd.crosstab(tips["day"], tips["time"])
    hidden = ct.isna().to_numpy()
    np.testing.assert_array_equal(ct.to_numpy()[~hidden], full.to_numpy()[~hidden])


def test_crosstab_is_logged_and_marked():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, "day", "time")
    entry = audit.entries()[-1]
    assert (entry.function, entry.figure, entry.method) == ("crosstab", "crosstab", "suppress")
    assert entry.variables == ("day", "time")
    marker = ct.attrs["safeplot"]
    assert marker["kind"] == "crosstab" and len(marker["digest"]) == 64
    assert is_safe_matrix(ct)


def test_crosstab_refusals():
    tips = safeplot.load_dataset("tips")
    with pytest.raises(ValueError, match="no column"):
        crosstab(tips, "day", "nope")
    with pytest.raises(DisclosureError, match="fewer than threshold"):
        crosstab(tips, "total_bill", "sex")  # continuous: every label a raw value
    with pytest.raises(ValueError, match="empty"):
        crosstab(tips.iloc[:0], "day", "sex")
    with pytest.raises(ValueError, match="index and columns"):
        crosstab(tips, "day", ["day", "sex"])
    with pytest.raises(ValueError, match="normalize"):
        crosstab(tips, "day", "sex", normalize="rows")
    with pytest.raises(DisclosureError, match="threshold"):
        crosstab(tips, "day", "sex", threshold=2)
    with pytest.raises(TypeError, match="DataFrame"):
        crosstab([[1, 2]], "a", "b")
    assert audit.entries() == []


def test_crosstab_threshold_raises_suppression():
    tips = safeplot.load_dataset("tips")
    loose = crosstab(tips, "day", "time")
    strict = crosstab(tips, "day", "time", threshold=10)
    assert strict.isna().sum().sum() >= loose.isna().sum().sum()
    shown = strict.to_numpy()[~strict.isna().to_numpy()]
    assert not ((shown > 0) & (shown < 10)).any()


# -- the safe-matrix marker --------------------------------------------------------------


def test_marker_survives_copies_and_transposes_but_not_edits():
    ct = crosstab(safeplot.load_dataset("tips"), "day", "time")
    assert is_safe_matrix(ct.copy()) and is_safe_matrix(ct.T)
    edited = ct.copy()
    edited.iloc[2, 1] = 88.0
    assert "safeplot" in edited.attrs and not is_safe_matrix(edited)
    assert not is_safe_matrix(ct * 2)
    assert not is_safe_matrix(ct.iloc[:3])
    relabelled = ct.rename(index={"Sat": "Saturday"})
    assert not is_safe_matrix(relabelled)
    forged = pd.DataFrame(np.ones(ct.shape), index=ct.index, columns=ct.columns)
    forged.attrs = dict(ct.attrs)
    assert not is_safe_matrix(forged)
    report_edit = ct.copy()
    report_edit.attrs["safeplot"] = dict(ct.attrs["safeplot"])
    report_edit.attrs["safeplot"]["report"] = {**ct.attrs["safeplot"]["report"], "method": "x"}
    assert not is_safe_matrix(report_edit)
    for bad in (None, ct.to_numpy(), {"a": 1}, pd.DataFrame({"a": ["x"]})):
        assert not is_safe_matrix(bad)
    junk = ct.copy()
    junk.attrs["safeplot"] = "yes"
    assert not is_safe_matrix(junk)


def test_mark_safe_matrix_for_other_releases():
    m = pd.DataFrame([[1.0, 0.3], [0.3, 1.0]], index=["a", "b"], columns=["a", "b"])
    out = mark_safe_matrix(m, "corr", DisclosureReport("corr", "confidential", {"sig": 2}))
    assert out is m and is_safe_matrix(m)
    assert m.attrs["safeplot"]["report"]["function"] == "corr"
    with pytest.raises(TypeError):
        mark_safe_matrix(m.to_numpy(), "corr", {})
    with pytest.raises(ValueError, match="kind"):
        mark_safe_matrix(m, "", {})
    with pytest.raises(ValueError, match="numbers"):
        mark_safe_matrix(pd.DataFrame({"a": ["x"]}), "corr", {})


# -- heatmap of matrices ------------------------------------------------------------------


def test_heatmap_of_a_crosstab_passes_through_to_seaborn():
    tips = safeplot.load_dataset("tips")
    ct = crosstab(tips, "day", "size", margins=True)
    ax = heatmap(ct, annot=True, fmt=".0f", cmap="mako", linewidths=1, cbar=False)
    ref = seaborn.heatmap(
        ct, annot=True, fmt=".0f", cmap="mako", linewidths=1, cbar=False, ax=plt.figure().gca()
    )
    mine, theirs = ax.collections[0].get_array(), ref.collections[0].get_array()
    np.testing.assert_array_equal(np.ma.getmaskarray(mine), ct.isna().to_numpy())
    np.testing.assert_array_equal(mine.compressed(), theirs.compressed())
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        t.get_text() for t in ref.get_xticklabels()
    ]
    texts = [t.get_text() for t in ax.texts if t.get_gid() != FOOTNOTE_GID]
    assert texts == [t.get_text() for t in ref.texts]
    rep = ax.safeplot_report
    assert (rep.function, rep.method, rep.details["matrix"]) == ("heatmap", "suppress", "crosstab")
    assert rep.params["threshold"] == 3
    assert [e.function for e in audit.entries()] == ["crosstab", "heatmap"]
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)


def test_heatmap_of_a_marked_matrix_with_mask_center_and_annotate_false():
    m = pd.DataFrame([[1.0, 0.3], [0.3, 1.0]], index=["a", "b"], columns=["a", "b"])
    mark_safe_matrix(m, "corr", DisclosureReport("corr", "confidential", {"sig": 2}))
    ax = heatmap(m, center=0, mask=np.triu(np.ones((2, 2), bool), 1), annotate=False)
    assert ax.safeplot_report.details["matrix"] == "corr"
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    assert np.ma.getmaskarray(ax.collections[0].get_array()).sum() == 1


@pytest.mark.parametrize(
    "matrix",
    [
        pd.DataFrame([[1, 2], [3, 4]]),
        np.array([[1.0, 2.0], [3.0, 4.0]]),
        [[1, 2], [3, 4]],
    ],
)
@pytest.mark.parametrize("method", [None, "suppress", "deterministic"])
def test_raw_matrices_are_refused(matrix, method):
    with pytest.raises(DisclosureError, match=r"safeplot\.crosstab"):
        heatmap(matrix, method=method)
    assert plt.get_fignums() == []
    assert audit.entries() == []


def test_edited_safe_matrix_is_refused():
    ct = crosstab(safeplot.load_dataset("tips"), "day", "time")
    ct.iloc[0, 0] = 1.0
    with pytest.raises(DisclosureError, match="changed after its release"):
        heatmap(ct)
    with pytest.raises(DisclosureError):
        heatmap(ct.fillna(0))
    assert plt.get_fignums() == []


def test_raw_matrix_with_method_none_needs_allow_raw():
    matrix = pd.DataFrame([[1, 2], [3, 4]], index=["a", "b"], columns=["u", "v"])
    with pytest.raises(DisclosureError, match="allow_raw"):
        heatmap(matrix, method="none")
    assert plt.get_fignums() == []
    with safeplot.policy(allow_raw=True):
        ax = heatmap(matrix, method="none", annot=True)
    assert ax.safeplot_report.method == "none"
    np.testing.assert_array_equal(ax.collections[0].get_array(), matrix.to_numpy())
    assert audit.entries()[-1].method == "none"


def test_matrix_mode_refuses_grid_only_arguments_and_stale_thresholds():
    ct = crosstab(safeplot.load_dataset("tips"), "day", "time")
    with pytest.raises(ValueError, match="threshold"):
        heatmap(ct, threshold=5)
    with pytest.raises(ValueError, match="method"):
        heatmap(ct, method="generalize")
    with safeplot.policy(threshold=5), pytest.raises(DisclosureError, match="threshold=3"):
        heatmap(ct)
    with pytest.raises(ValueError, match="needs data"):
        heatmap()
    assert plt.get_fignums() == []
    ax = heatmap(ct, method="suppress")
    assert ax.safeplot_report.method == "suppress"


def test_annotations_of_a_matrix_must_be_released_too():
    tips = safeplot.load_dataset("tips")
    counts = crosstab(tips, "day", "sex")
    shares = crosstab(tips, "day", "sex", normalize="index")
    ax = heatmap(counts, annot=shares, fmt=".2f")
    texts = [t.get_text() for t in ax.texts if t.get_gid() != FOOTNOTE_GID]
    assert texts == [f"{v:.2f}" for v in shares.to_numpy().ravel()]
    raw = pd.crosstab(tips["day"], tips["sex"])
    with pytest.raises(DisclosureError, match="annot"):
        heatmap(counts, annot=raw, ax=plt.figure().gca())


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    cells=arrays(
        np.int64, st.tuples(st.integers(1, 5), st.integers(2, 5)), elements=st.integers(0, 9)
    ),
    margins=st.booleans(),
)
def test_crosstab_property_no_lone_hidden_cell_and_exact_shown_counts(cells, margins):
    assume((cells.sum(axis=1) >= 3).all() and (cells.sum(axis=0) >= 3).all())
    rows = [
        (f"r{i}", f"c{j}")
        for i in range(cells.shape[0])
        for j in range(cells.shape[1])
        for _ in range(cells[i, j])
    ]
    df = pd.DataFrame(rows, columns=["a", "b"])
    ct = crosstab(df, "a", "b", margins=margins)
    full = pd.crosstab(df["a"], df["b"], margins=margins).to_numpy()
    hidden = ct.isna().to_numpy()
    np.testing.assert_array_equal(ct.to_numpy()[~hidden], full[~hidden])
    assert hidden[(full > 0) & (full < 3)].all()
    assert not (hidden.sum(axis=0) == 1).any()
    if hidden.shape[1] > 1:
        assert not (hidden.sum(axis=1) == 1).any()
    assert is_safe_matrix(ct)
