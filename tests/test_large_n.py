"""Large-n rendering: rasterised point layers, each distinct released point drawn once."""

import io

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgba

import safeplot
import safeplot.audit
from safeplot.anonymize import knn_centroids
from safeplot.errors import DisclosureError
from safeplot.marks import _large
from safeplot.marks._large import LARGE_N, SHARED_NOTE_GID, distinct_rows
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.axisgrid import pairplot
from safeplot.plots.regression import qqplot
from safeplot.plots.relational import draw_scatter, release_scatter, scatter, scatterplot

from .leakscan import scan_figure

#: Just above LARGE_N (100,000), as the other large frames here: every behaviour tested turns
#: on n > LARGE_N alone, and fewer records are quicker to anonymise and draw.
N = 120_000


def _data(n: int, seed: int = 3, decimals: int = 1) -> pd.DataFrame:
    """Rounded data (ties, so many centroids coincide) with planted unique outliers."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(50, 10, n), decimals)
    y = np.round(0.5 * x + rng.normal(0, 5, n), decimals)
    x[:3] = [123.45, -31.7, 160.1]
    y[:3] = [-71.3, 99.9, 142.6]
    return pd.DataFrame({"x": x, "y": y})


@pytest.fixture(scope="module")
def big():
    df = _data(N)
    released = knn_centroids(df[["x", "y"]].to_numpy(), 3).values
    return df, released


def _point_layers(ax) -> list[PathCollection]:
    return [c for c in ax.collections if isinstance(c, PathCollection)]


def test_distinct_rows_matches_unique():
    rng = np.random.default_rng(0)
    pts = rng.integers(0, 5, size=(500, 2)).astype(float)
    first, shared = distinct_rows([pts[:, 0], pts[:, 1]])
    uniq, index, counts = np.unique(pts, axis=0, return_index=True, return_counts=True)
    assert np.array_equal(np.sort(first), np.sort(index))
    assert first.tolist() == sorted(first.tolist())
    # multiplicity of each first row, from an independent count
    mult = {tuple(u): c for u, c in zip(uniq, counts, strict=True)}
    assert shared.tolist() == [mult[tuple(pts[i])] > 1 for i in first]
    # a third column (hue) splits markers
    hue = np.arange(500) % 2
    first3, _ = distinct_rows([pts[:, 0], pts[:, 1], hue])
    assert first3.size == np.unique(np.column_stack([pts, hue]), axis=0).shape[0]


@pytest.mark.parametrize("first_column", ["distinct", "one repeat", "nan twice", "signed zeros"])
def test_distinct_rows_of_a_column_without_repeats_are_all_rows(first_column):
    """The sort that finds no repeat in the first column agrees with the hash table's answer."""
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=(2, 300))
    if first_column == "one repeat":
        x[7] = x[100]
        y[7] = y[100]
    elif first_column == "nan twice":
        x[[3, 9]] = np.nan
        y[[3, 9]] = 1.0
    elif first_column == "signed zeros":
        x[[3, 9]] = [0.0, -0.0]
        y[[3, 9]] = 1.0
    first, shared = distinct_rows([x, y])
    codes, uniques = pd.factorize(pd.MultiIndex.from_arrays([x, y]), use_na_sentinel=False)
    assert first.size == len(uniques)
    assert shared.sum() == (np.bincount(codes) > 1).sum()
    if first_column == "distinct":
        assert first.tolist() == list(range(300)) and not shared.any()


def _black(colours) -> np.ndarray:
    """Which of the RGBA `colours` are black."""
    return (np.asarray(colours)[:, :3] == 0).all(axis=1)


def _marks_nothing(ax) -> None:
    """No marker of `ax` is marked as shared: no black layer, no black marker, no note."""
    layers = _point_layers(ax)
    assert not any(c.get_gid() == SHARED_NOTE_GID for c in layers)
    for c in layers:
        assert not _black(c.get_facecolors()).any()
        edges = np.asarray(c.get_edgecolors())
        assert not (len(edges) and c.get_linewidths().max() > 0 and _black(edges).any())
    assert SHARED_NOTE_GID not in {t.get_gid() for t in ax.texts}
    assert not any("shared by several" in t.get_text() for t in ax.texts)


def test_large_scatter_rasterised_distinct_points_text_vector(big):
    df, released = big
    fig, ax = plt.subplots(figsize=(5, 4))
    scatterplot(data=df, x="x", y="y", method="deterministic", ax=ax)
    layers = _point_layers(ax)
    assert len(layers) == 1 and layers[0].get_rasterized()
    offsets = np.asarray(layers[0].get_offsets())
    uniq, counts = np.unique(released, axis=0, return_counts=True)
    # one marker per distinct released point, none repeated
    assert len(offsets) == len(uniq) < N
    assert np.array_equal(np.unique(offsets, axis=0), uniq)
    assert (counts > 1).any()
    # shared centroids are drawn as any other: in seaborn's colour, no black layer, no note
    assert np.allclose(np.asarray(layers[0].get_facecolors())[:, :3], to_rgba("C0")[:3])
    _marks_nothing(ax)
    # text, ticks and axes stay vector
    texts = [*ax.texts, ax.xaxis.label, ax.yaxis.label, *ax.get_xticklabels()]
    assert not any(t.get_rasterized() for t in texts)
    assert not any(s.get_rasterized() for s in ax.spines.values())
    notes = {t.get_gid(): t.get_text() for t in ax.texts}
    assert notes[FOOTNOTE_GID].startswith("safeplot: deterministic")
    assert ax.safeplot_report.method == "deterministic"
    assert [e.method for e in safeplot.audit.entries()] == ["deterministic"]


def test_large_scatter_mark_coincident_black_layer(big):
    df, released = big
    fig, ax = plt.subplots(figsize=(5, 4))
    scatterplot(data=df, x="x", y="y", method="deterministic", mark_coincident=True, ax=ax)
    layers = _point_layers(ax)
    assert len(layers) == 2 and all(c.get_rasterized() for c in layers)
    offsets = np.concatenate([c.get_offsets() for c in layers])
    uniq, counts = np.unique(released, axis=0, return_counts=True)
    assert len(offsets) == len(uniq) and np.array_equal(np.unique(offsets, axis=0), uniq)
    # the second layer is exactly the points shared by several records, in black
    shared = layers[1]
    assert shared.get_gid() == SHARED_NOTE_GID
    assert np.array_equal(np.unique(np.asarray(shared.get_offsets()), axis=0), uniq[counts > 1])
    assert _black(shared.get_facecolors()).all()
    assert not _black(layers[0].get_facecolors()).any()
    notes = {t.get_gid(): t.get_text() for t in ax.texts}
    assert notes[SHARED_NOTE_GID] == "black: shared by several records"


def test_large_scatter_files_small_and_leak_free(big):
    df, _ = big
    fig, ax = plt.subplots(figsize=(5, 4))
    scatterplot(data=df, x="x", y="y", ax=ax)
    for fmt in ("svg", "pdf"):
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt)
        assert len(buf.getvalue()) < 2_000_000, fmt
        if fmt == "svg":  # the points are embedded images; the axes stay vector paths
            assert b"<image" in buf.getvalue() and b'id="xtick_1"' in buf.getvalue()
    assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3, saved=True)


def test_large_raw_scatter_is_flagged(big):
    df, _ = big
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots(figsize=(5, 4))
        scatterplot(data=df, x="x", y="y", method="none", ax=ax)
    assert scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3).leaks


def test_below_limit_nothing_changes():
    df = _data(5_000)
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", ax=ax)
    layers = _point_layers(ax)
    assert len(layers) == 1 and not layers[0].get_rasterized()
    assert len(layers[0].get_offsets()) == len(df)
    assert SHARED_NOTE_GID not in {t.get_gid() for t in ax.texts}


def test_threshold_is_strict():
    """Exactly LARGE_N points is still drawn point by point; one more is large."""
    assert not _large.is_large(LARGE_N) and _large.is_large(LARGE_N + 1)


def test_draw_scatter_and_scatter_large(big):
    df, released = big
    n_distinct = len(np.unique(released, axis=0))
    rel = release_scatter(df["x"], df["y"], method="deterministic")
    fig, ax = plt.subplots()
    draw_scatter(ax, rel)
    layers = _point_layers(ax)
    assert len(layers) == 1 and layers[0].get_rasterized()
    assert len(layers[0].get_offsets()) == n_distinct
    _marks_nothing(ax)
    # asked for, the coinciding centroids are black, as below the limit
    fig, ax = plt.subplots()
    draw_scatter(ax, rel, mark_coincident=True)
    layers = _point_layers(ax)
    assert len(layers) == 2 and layers[1].get_gid() == SHARED_NOTE_GID
    assert sum(len(c.get_offsets()) for c in layers) == n_distinct
    coincident = np.unique(np.column_stack([rel.x, rel.y])[rel.coincident], axis=0)
    assert np.array_equal(np.unique(np.asarray(layers[1].get_offsets()), axis=0), coincident)
    assert _black(layers[1].get_facecolors()).all()
    # scatter has no mark_coincident: nothing is marked
    fig, ax = plt.subplots()
    coll = scatter(df["x"], df["y"], ax=ax)
    assert coll.get_rasterized() and len(coll.get_offsets()) < N
    assert sum(len(c.get_offsets()) for c in _point_layers(ax)) == n_distinct
    _marks_nothing(ax)
    assert not scan_figure(fig, {"x": df["x"], "y": df["y"]}, threshold=3, saved=True)


def test_scatter_colour_values_large_marks_nothing():
    df = _data(120_000, seed=5)
    df["w"] = np.round(df["x"] / 10)
    fig, ax = plt.subplots()
    coll = scatter(df["x"], df["y"], c=df["w"], ax=ax)
    assert coll.get_rasterized()
    # one layer, colour shows c alone: no black edge, no note
    assert _point_layers(ax) == [coll]
    assert len(coll.get_offsets()) < len(df)
    _marks_nothing(ax)


def test_hue_large_keeps_hue_colours():
    df = _data(120_000, seed=7)
    df["g"] = np.where(np.arange(len(df)) % 3 == 0, "a", "b")
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", ax=ax)
    layers = _point_layers(ax)
    assert len(layers) == 1 and layers[0].get_rasterized()
    hue_colours = {tuple(np.round(c[:3], 6)) for c in np.asarray(layers[0].get_facecolors())}
    assert hue_colours == {tuple(np.round(to_rgba(c)[:3], 6)) for c in ("C0", "C1")}
    _marks_nothing(ax)
    # with mark_coincident shared centroids are black, as below the limit; the rest keep hue
    fig, ax = plt.subplots()
    scatterplot(data=df, x="x", y="y", hue="g", mark_coincident=True, ax=ax)
    layers = _point_layers(ax)
    shared = [c for c in layers if c.get_gid() == SHARED_NOTE_GID]
    assert len(shared) == 1 and _black(shared[0].get_facecolors()).all()
    assert not _black(layers[0].get_facecolors()).any()


def test_pairplot_large_panels(big):
    df, _ = big
    sub = df.iloc[:120_000]
    g = pairplot(sub, method="deterministic", diag_kind="hist")
    off = [g.axes[0, 1], g.axes[1, 0]]
    for ax in off:
        layers = _point_layers(ax)
        assert layers and all(c.get_rasterized() for c in layers)
        assert sum(len(c.get_offsets()) for c in layers) < len(sub)
        # a panel has no mark_coincident: shared markers are not marked
        _marks_nothing(ax)
    per_axes = {
        g.axes[i, j]: {"x": sub[g.x_vars[j]], "y": sub[g.y_vars[i]]}
        for i in range(2)
        for j in range(2)
        if i != j
    }
    assert not scan_figure(g.figure, {"x": sub["x"]}, threshold=3, per_axes=per_axes)


def test_qqplot_large_point_line_rasterised(big):
    df, _ = big
    fig = qqplot(df["x"].to_numpy(), line="s", method="deterministic")
    ax = fig.axes[0]
    points = [ln for ln in ax.lines if ln.get_linestyle() == "None"]
    assert points and all(ln.get_rasterized() for ln in points)
    assert not any(ln.get_rasterized() for ln in ax.lines if ln.get_linestyle() != "None")
    buf = io.BytesIO()
    fig.savefig(buf, format="pdf")
    assert len(buf.getvalue()) < 2_000_000


def test_floor_refusals_leave_nothing():
    df = _data(120_000, seed=9)
    before = plt.get_fignums()
    for kwargs in ({"k": 2}, {"method": "probabilistic", "q": 0.1}, {"method": "none"}):
        with pytest.raises(DisclosureError):
            scatterplot(data=df, x="x", y="y", **kwargs)
    with pytest.raises(DisclosureError):
        scatterplot(data=df, x="x", y="y", method="suppress", threshold=2)
    assert plt.get_fignums() == before
    assert safeplot.audit.entries() == []
