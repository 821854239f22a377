"""scatterplot and scatter: exact releases per method, leak scans, floors, errors, reports."""

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.patches import PathPatch

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize import add_keyed_noise
from safeplot.anonymize.confidential import lowess_trend, parallel_boxes
from safeplot.demo import demo_policy
from safeplot.methods import get_method
from safeplot.plots._common import FOOTNOTE_GID, LEFT_OUT_NOTE
from safeplot.plots._data import plot_data
from safeplot.plots.grid import release_grid
from safeplot.plots.relational import (
    LEFT_OUT_GID,
    MERGE_NOTE_GID,
    SCATTER_METHODS,
    _semantic_release,
    map_types,
    scatter,
    scatterplot,
)

from .leakscan import LEGEND_MANTISSAS, on_locator_grid, scan_figure

SAFE = [m for m in SCATTER_METHODS if m != "none"]


# -- data ----------------------------------------------------------------------------------


def _data():
    rng = np.random.default_rng(20261121)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    ox, oy = np.r_[x, 412.731, -97.113, 255.517], np.r_[y, -88.404, 301.219, 12.125]
    tx = rng.integers(0, 12, 400).astype(float)
    ty = rng.integers(0, 8, 400).astype(float)
    # planted values clear of the numbers a method note prints (k=3, bins=15, q=0.25, ...)
    tx, ty = np.r_[tx, 37.0, 41.0, 19.0], np.r_[ty, 17.0, 23.0, -4.0]
    frames = {}
    for name, (a, b) in {"outliers": (ox, oy), "ties": (tx, ty)}.items():
        group = np.array(["a", "b", "c"])[np.arange(a.size) % 3]
        frames[name] = pd.DataFrame({"x": a, "y": b, "group": group})
    return frames


DATA = _data()


def brute_knn(values, k, strata=None):
    """Avraam et al.'s centroids by brute force: global z-scores, exact kNN, global scaling."""
    v = np.asarray(values, float)
    mean, sd = v.mean(0), v.std(0, ddof=1)
    z = (v - mean) / sd
    strata = np.zeros(len(v), int) if strata is None else np.asarray(strata)
    cent = np.empty_like(z)
    for level in np.unique(strata):
        rows = np.flatnonzero(strata == level)
        for i in rows:
            d = ((z[rows] - z[i]) ** 2).sum(1)
            nearest = rows[np.lexsort((rows, d))[:k]]
            cent[i] = z[nearest].mean(0)
    cent = cent / cent.std(0, ddof=1)  # the paper: no re-centring
    return cent * sd + mean


def points_of(ax):
    """The markers of the (single) scatter drawn on `ax`."""
    colls = [c for c in ax.collections if isinstance(c, PathCollection) and len(c.get_offsets())]
    assert len(colls) == 1
    return colls[0]


def small_frame(seed=3, n=30):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "x": rng.normal(10, 2, n),
            "y": rng.normal(0, 1, n),
            "w": rng.gamma(3, 1, n),
            "g": np.repeat(["p", "q", "r"], n // 3),
        }
    )


# -- exact releases ------------------------------------------------------------------------


def _deterministic_release(pdata):
    """The scatter release of `pdata` under the deterministic method with k=3."""
    return _semantic_release(
        pdata,
        map_types(pdata, None, None, None, None),
        "deterministic",
        k=3,
        q=0.25,
        metric="euclidean",
        threshold=None,
        factor=2,
        bins=30,
        orders={},
        pol=safeplot.get_policy(),
        function="t",
    )


def test_deterministic_is_the_knn_centroids_of_x_and_y():
    df = small_frame()
    ax = scatterplot(data=df, x="x", y="y", method="deterministic", k=3)
    expected = brute_knn(df[["x", "y"]], 3)
    np.testing.assert_allclose(points_of(ax).get_offsets(), expected, rtol=1e-12)
    assert ax.safeplot_report.params == {"k": 3, "metric": "euclidean"}
    assert ax.get_xlabel() == "x" and ax.get_ylabel() == "y"


def test_deterministic_with_a_categorical_hue_searches_within_each_level():
    df = small_frame()
    ax = scatterplot(data=df, x="x", y="y", hue="g", method="deterministic", k=3)
    expected = brute_knn(df[["x", "y"]], 3, strata=df["g"])
    np.testing.assert_allclose(points_of(ax).get_offsets(), expected, rtol=1e-12)
    # and differs from the unstratified release
    assert not np.allclose(expected, brute_knn(df[["x", "y"]], 3))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["p", "q", "r"]


def test_deterministic_with_style_stratifies_by_the_combination():
    df = small_frame(n=36)
    df["s"] = np.tile(["u", "v"], 18)
    ax = scatterplot(data=df, x="x", y="y", hue="g", style="s", method="deterministic", k=3)
    combo = df["g"] + df["s"]
    expected = brute_knn(df[["x", "y"]], 3, strata=combo)
    np.testing.assert_allclose(points_of(ax).get_offsets(), expected, rtol=1e-12)


def test_a_numeric_hue_is_released_with_x_and_y():
    df = small_frame()
    ax = scatterplot(data=df, x="x", y="y", hue="w", method="deterministic", k=3)
    expected = brute_knn(df[["x", "y", "w"]], 3)
    np.testing.assert_allclose(points_of(ax).get_offsets(), expected[:, :2], rtol=1e-12)
    pdata = plot_data(df, {"x": "x", "y": "y", "hue": "w"}, function="t")
    rel = _deterministic_release(pdata)
    np.testing.assert_allclose(rel.frame["w"], expected[:, 2], rtol=1e-12)
    assert not np.isin(rel.frame["w"], df["w"]).any()
    assert ax.safeplot_report.variables == ("x", "y", "w")


def test_a_hue_that_is_y_itself_is_released_once():
    df = small_frame()
    ax = scatterplot(data=df, x="x", y="y", hue="y", method="deterministic")
    np.testing.assert_allclose(points_of(ax).get_offsets(), brute_knn(df[["x", "y"]], 3))
    assert ax.safeplot_report.variables == ("x", "y")


def test_a_numeric_size_is_released_too():
    df = small_frame()
    ax = scatterplot(data=df, x="x", y="y", size="w", method="deterministic", k=4)
    expected = brute_knn(df[["x", "y", "w"]], 4)
    np.testing.assert_allclose(points_of(ax).get_offsets(), expected[:, :2], rtol=1e-12)


def test_mark_coincident_draws_shared_centroids_black():
    rng = np.random.default_rng(0)
    x = np.repeat(rng.normal(size=20), 3)  # triplets: every centroid is shared
    y = np.repeat(rng.normal(size=20), 3)
    x[:10] += rng.normal(0, 0.5, 10)
    ax = scatterplot(x=x, y=y, method="deterministic", mark_coincident=True)
    faces = points_of(ax).get_facecolors()
    cent = brute_knn(np.c_[x, y], 3)
    shared = pd.DataFrame(cent).duplicated(keep=False).to_numpy()
    assert shared.any() and not shared.all()
    np.testing.assert_array_equal((faces[:, :3] == 0).all(1), shared)
    assert ax.safeplot_report.details["coincident_centroids"] == safeplot.get_policy().round_count(
        shared.sum()
    )


def test_probabilistic_is_the_keyed_noise_of_the_anonymiser():
    df = small_frame(n=60)
    with safeplot.policy(demo_policy()):
        ax = scatterplot(data=df, x="x", y="y", hue="w", method="probabilistic", q=0.5)
        expected = add_keyed_noise(df[["x", "y", "w"]].to_numpy(), 0.5)
    np.testing.assert_array_equal(points_of(ax).get_offsets(), expected[:, :2])
    noise = expected - df[["x", "y", "w"]].to_numpy()
    assert (np.abs(noise) > 0).all()
    assert ax.safeplot_report.params == {"q": 0.5}


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_grid_methods_draw_one_marker_per_surviving_cell_sized_by_count(method):
    df = DATA["outliers"]
    ax = scatterplot(data=df, x="x", y="y", method=method, bins=30)
    grid = release_grid(df["x"], df["y"], method=method, bins=30, kind="scatter")
    counts, _, _ = np.histogram2d(df["x"], df["y"], [grid.xedges, grid.yedges])
    if method == "generalize":
        assert grid.report.params["bins"] == 15
    keep = counts >= 3
    ix, iy = np.nonzero(keep)
    expected = np.c_[grid.xcentres[ix], grid.ycentres[iy], counts[ix, iy]]
    pc = points_of(ax)
    drawn = np.c_[pc.get_offsets(), pc.get_sizes()]
    order = np.lexsort((drawn[:, 1], drawn[:, 0]))
    drawn = drawn[order]
    expected = expected[np.lexsort((expected[:, 1], expected[:, 0]))]
    np.testing.assert_array_equal(drawn[:, :2], expected[:, :2])
    np.testing.assert_allclose(drawn[:, 2] / expected[:, 2], drawn[0, 2] / expected[0, 2])
    small = (counts > 0) & (counts < 3)
    assert ax.safeplot_report.cells_suppressed >= small.sum()
    assert ax.get_xlim() == grid.xlim and ax.get_ylim() == grid.ylim


def test_suppress_with_hue_gives_per_level_cells_on_common_edges():
    df = DATA["outliers"]
    ax = scatterplot(data=df, x="x", y="y", hue="group", method="suppress", bins=30)
    grid = release_grid(
        df["x"], df["y"], hue=df["group"], method="suppress", bins=30, kind="scatter"
    )
    pc = points_of(ax)
    rows = []
    for i, level in enumerate(["a", "b", "c"]):
        sel = df["group"] == level
        counts, _, _ = np.histogram2d(df["x"][sel], df["y"][sel], [grid.xedges, grid.yedges])
        ix, iy = np.nonzero(counts >= 3)
        rows += [(grid.xcentres[a], grid.ycentres[b], i) for a, b in zip(ix, iy, strict=True)]
    assert len(pc.get_offsets()) == len(rows)
    np.testing.assert_array_equal(
        np.unique(pc.get_offsets(), axis=0), np.unique(np.array(rows)[:, :2], axis=0)
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()][:4] == ["group", "a", "b", "c"]


def test_grid_methods_take_a_style_as_extra_levels():
    df = DATA["ties"].assign(kind=np.where(np.arange(len(DATA["ties"])) % 2, "odd", "even"))
    ax = scatterplot(data=df, x="x", y="y", hue="group", style="kind", method="generalize")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "even" in labels and "odd" in labels and "count" in labels


def test_confidential_draws_parallel_boxes_and_a_trend():
    df = DATA["outliers"]
    ax = scatterplot(data=df, x="x", y="y", method="confidential")
    pb = parallel_boxes(df["x"], df["y"])
    xs, ys = lowess_trend(df["x"], df["y"])
    boxes = [p for p in ax.patches if isinstance(p, PathPatch)]
    assert len(boxes) == len(pb.boxes)
    for patch, box, centre in zip(boxes, pb.boxes, pb.centres, strict=True):
        verts = patch.get_path().vertices
        assert set(np.round(verts[:, 1], 12)) == {box.q1, box.q3}
        np.testing.assert_allclose(np.ptp(verts[:, 0]) / 2 + verts[:, 0].min(), centre)
        np.testing.assert_allclose(np.ptp(verts[:, 0]), 0.8 * pb.width)
    trend = [ln for ln in ax.lines if len(ln.get_xdata()) == len(xs)]
    np.testing.assert_array_equal(trend[0].get_xdata(), xs)
    np.testing.assert_array_equal(trend[0].get_ydata(), ys)
    report = ax.safeplot_report
    assert report.method == "confidential"
    assert report.params["threshold"] == 3 and report.params["winsor_sd"] == 2.6
    assert "***" in next(t.get_text() for t in ax.texts if t.get_gid() == FOOTNOTE_GID)


def test_confidential_notes_merged_intervals_in_the_figure_and_the_report():
    rng = np.random.default_rng(5)
    parts = [(0.5, 19.5, 20), (20.5, 39.5, 15), (40.5, 59.5, 20), (60.5, 79.5, 25)]
    x = np.concatenate([rng.uniform(lo, hi, n) for lo, hi, n in parts] + [[80.5, 99.5]])
    y = rng.normal(5, 2, x.size).round(6)
    y[35:47] = 5.0
    ax = scatterplot(x=x, y=y, method="confidential")
    pb = parallel_boxes(x, y)
    assert pb.merged
    note = next(t for t in ax.texts if t.get_gid() == MERGE_NOTE_GID)
    for line in pb.describe_merges():
        assert line in note.get_text()
        assert line in ax.safeplot_report.details["intervals_merged"]
    assert any("merged" in w for w in ax.safeplot_report.warnings)


def test_confidential_with_hue_dodges_one_set_of_boxes_per_level():
    df = DATA["outliers"]
    ax = scatterplot(data=df, x="x", y="y", hue="group", method="confidential")
    boxes = [p for p in ax.patches if isinstance(p, PathPatch)]
    colours = {tuple(np.round(p.get_facecolor(), 6)) for p in boxes}
    assert len(colours) == 3
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b", "c"]
    for level in "abc":
        sel = df["group"] == level
        xs, _ = lowess_trend(df["x"][sel], df["y"][sel])
        assert any(np.array_equal(ln.get_xdata(), xs) for ln in ax.lines)


def test_raw_output_only_when_the_policy_allows_it():
    df = DATA["outliers"]
    with safeplot.policy(allow_raw=True):
        ax = scatterplot(data=df, x="x", y="y", method="none")
    np.testing.assert_array_equal(points_of(ax).get_offsets(), df[["x", "y"]])
    assert any("Raw output" in w for w in ax.safeplot_report.warnings)


# -- leak scans ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(DATA))
@pytest.mark.parametrize("hue", [None, "group"])
@pytest.mark.parametrize(
    ("method", "bins"),
    [(m, None) for m in SAFE] + [(m, 30) for m in SAFE if get_method(m).counts_only],
)
def test_scatterplot_leaks_nothing(name, hue, method, bins):
    """Every method at its defaults; the grid methods also on the paper's 30 x 30 grid."""
    df = DATA[name]
    with safeplot.policy(demo_policy()):
        fig, ax = plt.subplots()
        scatterplot(
            data=df, x="x", y="y", hue=hue, method=method, ax=ax, mark_coincident=True, bins=bins
        )
    findings = scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3)
    assert not findings, str(findings)
    # points (or cells) and limits; ticks are a locator's round numbers, not compared (a
    # default grid of a small data set may keep one cell: its two numbers and the limits)
    assert findings.numbers_scanned >= (8 if bins or not get_method(method).counts_only else 6)
    assert ax.safeplot_report.method == method
    assert audit.entries()[-1].function == "scatterplot"


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_numeric_hue_and_size_legends_are_round_numbers_of_the_released_range(method):
    """Brief numeric legends are seaborn's: a locator's round numbers over the released
    range, never moved off a data value (40.0 is a rare hue here and may be an entry)."""
    df = DATA["outliers"]
    rng = np.random.default_rng(9)
    hue = np.round(rng.normal(10, 2, len(df)), 2)
    hue[:3] = [99.5, -20.25, 40.0]
    size = np.round(rng.uniform(0, 10, len(df)), 1)
    size[:2] = [8.0, 4.0]
    with safeplot.policy(demo_policy()):
        fig, ax = plt.subplots()
        scatterplot(data=df, x="x", y="y", hue=hue, size=size, method=method, ax=ax)
    raw = {"x": df["x"], "y": df["y"], "hue": hue, "size": size}
    assert not scan_figure(fig, raw, threshold=3)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    sections, current = [], []
    for text in labels:
        if text.replace(".", "").replace("-", "").replace("\u2212", "").isdigit():
            current.append(float(text.replace("\u2212", "-")))
        elif current:
            sections.append(current)
            current = []
    sections += [current] if current else []
    assert len(sections) == 2  # hue and size
    for numbers in sections:
        assert on_locator_grid(numbers, mantissas=LEGEND_MANTISSAS), numbers


@pytest.mark.parametrize("method", ["suppress", "generalize", "deterministic", "probabilistic"])
def test_scatter_leaks_nothing(method):
    df = DATA["outliers"]
    with safeplot.policy(demo_policy()):
        fig, ax = plt.subplots()
        scatter(df["x"], df["y"], method=method, ax=ax)
    assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3)


def test_the_scanner_flags_the_raw_plots():
    df = DATA["outliers"]
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        scatterplot(data=df, x="x", y="y", hue="group", method="none", ax=ax)
        assert scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3).leaks
        fig, ax = plt.subplots()
        scatter(df["x"], df["y"], method="none", ax=ax)
        assert scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3).leaks


@pytest.mark.parametrize("method", SAFE)
def test_penguins_by_species_and_sex(method):
    penguins = safeplot.load_dataset("penguins")
    style = "sex" if method != "confidential" else None
    with safeplot.policy(demo_policy()):
        fig, ax = plt.subplots()
        scatterplot(
            data=penguins,
            x="flipper_length_mm",
            y="body_mass_g",
            hue="species",
            style=style,
            method=method,
            ax=ax,
        )
    # the records released: those complete in every variable used (style included)
    used = ["flipper_length_mm", "body_mass_g", "species"] + ([style] if style else [])
    clean = penguins.dropna(subset=used)
    raw = {"x": clean["flipper_length_mm"], "y": clean["body_mass_g"]}
    assert not scan_figure(fig, raw, threshold=3)
    assert ax.get_xlabel() == "flipper_length_mm"
    assert ax.safeplot_report.n_dropped in ("<3", 0, 5, 10)


# -- reports, audit, notes -----------------------------------------------------------------


@pytest.mark.parametrize("method", SAFE)
def test_every_method_reports_audits_and_notes(method):
    df = DATA["outliers"]
    ax = scatterplot(data=df, x="x", y="y", method=method)
    report = ax.safeplot_report
    assert report.method == method and report.params
    assert report.n == 305
    entry = audit.entries()[-1]
    assert entry.function == "scatterplot" and entry.method == method
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    ax2 = scatterplot(data=df, x="x", y="y", method=method, annotate=False, ax=plt.figure().gca())
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax2.texts)


def test_missing_rows_are_dropped_and_reported_rounded():
    df = DATA["outliers"].copy()
    df.loc[:6, "y"] = np.nan
    ax = scatterplot(data=df, x="x", y="y")
    assert ax.safeplot_report.n_dropped == 5  # 7, rounded
    assert ax.safeplot_report.n == 295  # 296, rounded


def test_scatter_returns_the_released_markers():
    df = small_frame(n=60)
    pc = scatter(df["x"], df["y"], c=df["w"], cmap="viridis", method="deterministic")
    assert isinstance(pc, PathCollection)
    expected = brute_knn(df[["x", "y", "w"]], 3)
    np.testing.assert_allclose(pc.get_offsets(), expected[:, :2], rtol=1e-12)
    np.testing.assert_allclose(pc.get_array(), expected[:, 2], rtol=1e-12)
    assert pc.axes.safeplot_report.variables == ("x", "y", "w")
    pc = scatter("x", "y", c="tab:red", s=20, data=df, ax=plt.figure().gca())
    np.testing.assert_allclose(pc.get_offsets(), brute_knn(df[["x", "y"]], 3), rtol=1e-12)
    assert pc.get_sizes()[0] == 20


def test_scatter_grid_methods_are_cell_centres():
    df = DATA["outliers"]
    pc = scatter(df["x"], df["y"], method="suppress", s=10, bins=30)
    grid = release_grid(
        df["x"], df["y"], names=("x", "y"), method="suppress", bins=30, kind="scatter"
    )
    counts = np.nan_to_num(grid.total)
    assert len(pc.get_offsets()) == (counts > 0).sum()
    np.testing.assert_allclose(np.median(pc.get_sizes()), 10)


# -- floors and errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "floor"),
    [
        (lambda df: scatterplot(data=df, x="x", y="y", method="deterministic", k=2), "k_min=3"),
        (lambda df: scatterplot(data=df, x="x", y="y", method="probabilistic", q=0.1), "q_min"),
        (lambda df: scatterplot(data=df, x="x", y="y", method="suppress", threshold=2), "thres"),
        (lambda df: scatterplot(data=df, x="x", y="y", method="confidential", threshold=2), "th"),
        (lambda df: scatterplot(data=df, x="x", y="y", method="none"), "allow_raw=False"),
        (lambda df: scatter(df["x"], df["y"], method="deterministic", k=2), "k_min=3"),
        (lambda df: scatter(df["x"], df["y"], method="probabilistic", q=0.1), "q_min"),
        (lambda df: scatter(df["x"], df["y"], method="generalize", threshold=2), "threshold=3"),
        (lambda df: scatter(df["x"], df["y"], method="none"), "allow_raw=False"),
    ],
)
def test_floors_refuse_before_anything_is_drawn(call, floor):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match=floor):
        call(DATA["outliers"])
    assert plt.get_fignums() == before
    assert audit.entries() == []


def _legend_labels(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


def _kept(df: pd.DataFrame, small: pd.Series, key: pd.Series, threshold: int = 3):
    """The records drawn: all but the small groups', and, when those are fewer than the
    threshold, the last records of the largest group (guard's ShownGroups.keep_records)."""
    keep = ~small.to_numpy()
    left = int(small.sum())
    if 0 < left < threshold:
        sizes = key[keep].value_counts()
        largest = sorted(sizes[sizes == sizes.max()].index)[0]
        keep[np.flatnonzero((key == largest).to_numpy() & keep)[left - threshold :]] = False
    return df[keep].reset_index(drop=True)


@pytest.mark.parametrize("method", ["deterministic", "microaggregation", "confidential"])
def test_a_hue_level_too_small_for_the_method_is_left_out_with_a_note(method):
    # invariant 10: the level is left out as a suppressed cell is (not drawn, not named),
    # rather than the whole figure being refused
    df = small_frame()
    df.loc[0, "g"] = "tiny"
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", method=method, ax=ax)
    assert "tiny" not in _legend_labels(ax)
    assert {"p", "q", "r"} <= set(_legend_labels(ax))
    texts = [t.get_text() for t in fig.findobj(mpl.text.Text)]
    assert not any("tiny" in t for t in texts)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
    assert notes == [LEFT_OUT_NOTE]
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert any("1 hue level(s) with fewer than" in w for w in report.warnings)
    assert not any("tiny" in w for w in report.warnings)
    assert report.n == 30  # every record given: the points drawn subtract to nothing
    # one record left out, so 2 more of the largest level: the markers of the figure without
    # hue, counted, are 3 more, not 1 (the confidential scatter draws boxes, no markers)
    topped = any("not a small count" in w for w in report.warnings)
    assert topped == (method != "confidential")
    if method == "deterministic":
        kept = _kept(df, df["g"] == "tiny", df["g"])
        expected = brute_knn(kept[["x", "y"]], 3, pd.factorize(kept["g"], sort=True)[0])
        np.testing.assert_allclose(points_of(ax).get_offsets(), expected, rtol=1e-12)
    assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3)
    plt.close(fig)


def test_a_small_level_named_in_hue_order_keeps_its_legend_place():
    # a level the caller named is drawn empty, as seaborn draws a level without records
    df = small_frame()
    df.loc[0, "g"] = "tiny"
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", hue_order=["p", "tiny", "q", "r"], ax=ax)
    assert _legend_labels(ax) == ["p", "tiny", "q", "r"]
    assert len(points_of(ax).get_offsets()) == 27  # 1 left out, and 2 to make up threshold
    assert ax.safeplot_report.details["groups_left_out"] == 1
    plt.close(fig)


def test_a_small_level_of_a_categorical_dtype_leaves_the_legend():
    # categories inferred from the data are not named once their records are left out
    df = small_frame()
    df.loc[0, "g"] = "tiny"
    df["g"] = df["g"].astype("category")
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", ax=ax)
    assert _legend_labels(ax) == ["p", "q", "r"]
    plt.close(fig)


def test_refused_only_when_every_level_is_too_small():
    df = small_frame(n=12)
    df["g"] = np.repeat(["p", "q", "r", "s", "t", "u"], 2)
    before = plt.get_fignums()
    with pytest.raises(
        DisclosureError, match=r"every hue level has fewer than 3 records \(k=3\).*Merge small"
    ):
        scatterplot(data=df, x="x", y="y", hue="g")
    assert plt.get_fignums() == before
    assert audit.entries() == []


@pytest.mark.parametrize("method", ["probabilistic", "rounding"])
def test_a_small_level_is_refused_where_each_record_is_drawn_on_its_own(method):
    # keyed noise and rounding draw each record as the figure without hue draws it: leaving
    # the level out would single out its records by difference, and drawing it would show a
    # count of 1 under its name (invariant 3), so the call is refused, naming the alternative
    df = small_frame()
    df.loc[0, "g"] = "tiny"
    fig, ax = plt.subplots()
    with pytest.raises(DisclosureError, match=r"scatterplot: 1 hue level.*method='deterministic'"):
        scatterplot(data=df, x="x", y="y", hue="g", method=method, ax=ax)
    assert not ax.collections
    plt.close(fig)


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_a_level_with_no_cell_drawn_is_not_named(method):
    # under the grid methods a level of 2 records has no cell of threshold records: it draws
    # nothing and its name is in no legend entry or text of the figure (invariant 3)
    df = small_frame(n=300)
    df.loc[[0, 1], "g"] = "tiny"
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", method=method, ax=ax)
    texts = [t.get_text() for t in fig.findobj(plt.Text)]
    assert "tiny" not in texts
    assert any(t in texts for t in set(df["g"]) - {"tiny"})
    assert ax.safeplot_report.details["groups_left_out"] == 1
    assert any("not drawn" in w for w in ax.safeplot_report.warnings)
    plt.close(fig)
    # named by the caller, it keeps its legend entry, as a level without records does
    fig, ax = plt.subplots()
    order = sorted(set(df["g"]))
    scatterplot(data=df, x="x", y="y", hue="g", hue_order=order, method=method, ax=ax)
    assert "tiny" in [t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


def _hue_style_frame():
    """Hue levels a, b, c and style levels early, late; the combination (a, late) has 1 record."""
    df = DATA["outliers"].copy()
    df["when"] = np.where(np.arange(len(df)) % 2 == 0, "early", "late")
    df.loc[df["group"] == "a", "when"] = "early"
    df.loc[df.index[df["group"] == "a"][7], "when"] = "late"
    return df


def test_a_small_hue_style_combination_is_left_out_with_a_note():
    # invariant 10: the combination too small for the method's groups is not drawn; every
    # level keeps points, so the legend names each level and each drawn level is drawn
    df = _hue_style_frame()
    small = (df["group"] == "a") & (df["when"] == "late")
    assert small.sum() == 1
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="group", style="when", ax=ax)
    kept = _kept(df, small, df["group"] + "/" + df["when"])
    strata = pd.factorize(kept["group"] + "/" + kept["when"], sort=True)[0]
    expected = brute_knn(kept[["x", "y"]], 3, strata)
    offsets = points_of(ax).get_offsets()
    assert len(offsets) == len(kept)  # the record left out has no marker
    np.testing.assert_allclose(offsets, expected, rtol=1e-12)
    pdata = plot_data(df, {"x": "x", "y": "y", "hue": "group", "style": "when"}, function="t")
    rel = _deterministic_release(pdata)
    shown = set(zip(rel.frame["group"], rel.frame["when"], strict=True))
    assert ("a", "late") not in shown and ("b", "late") in shown and ("a", "early") in shown
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["group", "a", "b", "c", "when", "early", "late"]
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
    assert notes == [LEFT_OUT_NOTE]
    assert not any(ch.isdigit() for ch in notes[0])  # neither which nor how many
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue x style group(s) with fewer than 3 records (k=3) are not drawn." in (
        report.warnings
    )
    assert not any("'a'" in w or "late" in w for w in report.warnings)
    assert report.n == 305  # every record given, rounded: the points drawn subtract to nothing
    assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3)


def test_a_level_whose_every_combination_is_small_leaves_the_legend():
    # level a has 4 records, 2 early and 2 late: both combinations are left out, and with
    # them the level, which the legend no longer names (it was not named by the call)
    df = _hue_style_frame()
    rows_a = df.index[df["group"] == "a"]
    df.loc[rows_a[4:], "group"] = "b"
    df.loc[rows_a[:4], "when"] = ["early", "early", "late", "late"]
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="group", style="when", ax=ax)
    labels = _legend_labels(ax)
    assert labels[:4] == ["group", "b", "c", "when"]
    assert sorted(labels[4:]) == ["early", "late"]
    assert ax.safeplot_report.details["groups_left_out"] == 2
    assert len(points_of(ax).get_offsets()) == len(df) - 4
    plt.close(fig)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "suppress", "size": "w"}, "size= cannot be combined with method='suppress'"),
        ({"method": "confidential", "size": "w"}, "box plots"),
        ({"method": "generalize", "hue": "w"}, "numeric hue cannot be drawn"),
        ({"method": "confidential", "hue": "w"}, "numeric hue cannot be drawn"),
        ({"method": "confidential", "style": "g"}, "style= cannot be combined"),
        ({"method": "suppress", "hue": "g", "size_norm": (0, 1)}, "size_norm"),
        ({"c": np.arange(30.0)}, "per-point `c=`"),
        ({"s": np.arange(30.0)}, "per-point `s=`"),
        ({"method": "blur"}, "not a safeplot method"),
    ],
)
def test_unsafe_or_unknown_options_are_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        scatterplot(data=small_frame(), x="x", y="y", **kwargs)


def test_bad_input_gets_clear_errors():
    df = small_frame()
    with pytest.raises(ValueError, match="needs both x= and y="):
        scatterplot(data=df, x="x")
    with pytest.raises(ValueError, match="needs both x= and y="):
        scatterplot(data=df)
    with pytest.raises(ValueError, match="no column of that name"):
        scatterplot(data=df, x="x", y="nope")
    with pytest.raises(ValueError, match="empty"):
        scatterplot(x=[], y=[])
    with pytest.raises(ValueError, match="all missing"):
        scatterplot(x=df["x"], y=np.full(30, np.nan))
    with pytest.raises(ValueError, match="not numeric"):
        scatterplot(data=df, x="x", y="g")
    with pytest.raises(ValueError, match="infinite"):
        scatterplot(x=np.r_[df["x"][:-1], np.inf], y=df["y"])
    with pytest.raises(DisclosureError, match="constant"):
        scatterplot(x=np.ones(30), y=df["y"])


def test_scatter_refuses_per_point_sizes_colours_and_box_plots():
    df = small_frame()
    with pytest.raises(ValueError, match=r"scatterplot\(\.\.\., size="):
        scatter(df["x"], df["y"], s=df["w"])
    with pytest.raises(ValueError, match="Per-point colours"):
        scatter(df["x"], df["y"], c=np.tile([[1, 0, 0]], (30, 1)))
    with pytest.raises(ValueError, match="scatterplot"):
        scatter(df["x"], df["y"], method="confidential")
    with pytest.raises(ValueError, match="grid cell"):
        scatter(df["x"], df["y"], c=df["w"], method="suppress")
    with pytest.raises(ValueError, match="not a safeplot method"):
        scatter(df["x"], df["y"], method="blur")


def test_many_points_draw_each_distinct_marker_once_rasterised(monkeypatch):
    """Above LARGE_N released points, each marker is drawn once, rasterised, meaning the same.

    Coinciding centroids are black only with mark_coincident, at any n.
    """
    from safeplot.marks import _large
    from safeplot.plots import relational

    rng = np.random.default_rng(11)
    df = pd.DataFrame({"x": np.round(rng.normal(size=400), 1), "y": rng.integers(0, 4, 400)})
    fig, ax = plt.subplots()
    relational.scatterplot(data=df, x="x", y="y", ax=ax)
    every = np.asarray(ax.collections[0].get_offsets())
    assert len(every) == len(df) and not ax.collections[0].get_rasterized()
    fig, ax = plt.subplots()
    relational.scatterplot(data=df, x="x", y="y", mark_coincident=True, ax=ax)
    small_faces = np.asarray(ax.collections[0].get_facecolors())
    small_black = np.unique(every[(small_faces[:, :3] == 0).all(axis=1)], axis=0)
    assert 0 < len(small_black) < len(np.unique(every, axis=0))
    monkeypatch.setattr(_large, "LARGE_N", 50)
    # by default nothing is marked at large n either: one layer, no black, no note
    fig, ax = plt.subplots()
    relational.scatterplot(data=df, x="x", y="y", ax=ax)
    (points,) = ax.collections
    assert points.get_rasterized()
    assert len(points.get_offsets()) == len(np.unique(every, axis=0)) < len(df)
    assert not (np.asarray(points.get_facecolors())[:, :3] == 0).all(axis=1).any()
    assert _large.SHARED_NOTE_GID not in {t.get_gid() for t in ax.texts}
    # asked for, the same points are black as at small n
    fig, ax = plt.subplots()
    relational.scatterplot(data=df, x="x", y="y", mark_coincident=True, ax=ax)
    points, shared = ax.collections[:2]
    offsets = np.concatenate([points.get_offsets(), shared.get_offsets()])
    assert len(offsets) == len(np.unique(every, axis=0)) < len(df)
    assert len(np.unique(offsets, axis=0)) == len(offsets)
    assert points.get_rasterized() and shared.get_rasterized()
    # coinciding centroids are marked black, in a layer of their own, with the note
    assert shared.get_gid() == _large.SHARED_NOTE_GID
    assert (np.asarray(shared.get_facecolors())[:, :3] == 0).all()
    assert not (np.asarray(points.get_facecolors())[:, :3] == 0).all(axis=1).any()
    assert np.array_equal(np.unique(np.asarray(shared.get_offsets()), axis=0), small_black)
    assert _large.SHARED_NOTE_GID in {t.get_gid() for t in ax.texts}


def test_box_geometry_misses_rare_values_of_rounded_data():
    from safeplot.plots.relational import box_positions

    centres = [np.array([15.0, 25.0])]
    # the nominal boxes of width 8 have edges at 11 and 19, caps at 13 and 17
    nominal, w = box_positions(centres, 10.0, np.array([]))
    assert w == 8.0
    rare = np.array([11.0, 13.0, 17.0, 19.0, 21.0])
    moved, w2 = box_positions(centres, 10.0, rare)
    assert w2 < w
    drawn = np.concatenate([moved[0] + d * w2 for d in (-0.5, -0.25, 0, 0.25, 0.5)])
    assert not np.isin(drawn, rare).any()


def test_box_geometry_is_nominal_where_rare_values_are_dense():
    # millions of continuous records leave no share free of a rare value within the
    # tolerance: the geometry depends only on the intervals, so it is drawn as it is
    from safeplot.plots.relational import box_positions

    centres = [np.array([9.5, 10.5]), np.array([9.5, 10.5])]
    dense = np.sort(np.random.default_rng(0).uniform(8.5, 11.5, 2_000_000))
    nominal, w = box_positions(centres, 1.0, np.array([]))
    got, w2 = box_positions(centres, 1.0, dense)
    assert w2 == w
    for a, b in zip(got, nominal, strict=True):
        np.testing.assert_array_equal(a, b)


def test_a_tuple_naming_a_multiindex_column_is_a_column_not_a_vector():
    """After ``.stack()``/``.unstack()`` columns are tuples: seaborn reads them as names."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        rng.normal(size=(200, 2)), columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y")])
    )
    ax = safeplot.scatterplot(data=df, x=("a", "x"), y=("a", "y"))
    assert ax.safeplot_report.variables == ("('a', 'x')", "('a', 'y')")
    grid = safeplot.relplot(data=df, x=("a", "x"), y=("a", "y"))
    assert grid.axes.flat[0].safeplot_report.method == "deterministic"
    with pytest.raises(ValueError, match="has 2 values but `data` has 200 rows"):
        safeplot.scatterplot(data=df, x=("b", "x"), y=("a", "y"))


@pytest.mark.parametrize("method", ["deterministic", "confidential"])
def test_a_remote_release_that_left_a_level_out_draws_the_same_note(method):
    from safeplot.remote import run_call
    from safeplot.remote._draw import draw

    df = small_frame()
    df.loc[0, "g"] = "tiny"
    args = {"x": "x", "y": "y", "hue": "g", "method": method}
    call = run_call("scatterplot", df, args)
    fig, ax = plt.subplots()
    draw(call, args, ax=ax)
    assert [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID] == [LEFT_OUT_NOTE]
    assert "tiny" not in _legend_labels(ax)
    plt.close(fig)
