"""boxplot and countplot (safeplot.plots.categorical): releases, drawing, leaks, refusals."""

import math
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import PathPatch

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import safe_edges
from safeplot.demo import demo_policy
from safeplot.errors import DisclosureError
from safeplot.plots._common import FOOTNOTE_GID, LEFT_OUT_NOTE
from safeplot.plots.categorical import (
    DOMINANCE_GID,
    LEFT_OUT_GID,
    OMITTED_GID,
    WINSOR_GID,
    boxplot,
    countplot,
    release_boxplot,
    release_countplot,
)

from .leakscan import scan_figure

SAFE_BOX = ("deterministic", "probabilistic", "suppress", "generalize", "confidential")
SUMMARY = ("suppress", "generalize", "confidential")
SAFE_COUNT = ("suppress", "generalize", "confidential")
OUTLIERS = (412.731, -97.113, 250.5)


# -- data ----------------------------------------------------------------------------------


@pytest.fixture
def outliers():
    """Normal data in three groups x two hue levels, with three planted unique outliers."""
    rng = np.random.default_rng(20240611)
    n = 360
    y = rng.normal(50, 10, n)
    y[[5, 130, 250]] = OUTLIERS
    return pd.DataFrame(
        {"g": np.repeat(["a", "b", "c"], n // 3), "h": np.tile(["u", "v"], n // 2), "y": y}
    )


@pytest.fixture
def ties():
    """Integers 10..25 with heavy ties, plus rare values 97, 412, -40 and 61."""
    rng = np.random.default_rng(7)
    n = 360
    y = rng.integers(10, 26, n).astype(float)
    y[[3, 140, 260, 261]] = [97.0, 412.0, -40.0, 61.0]
    return pd.DataFrame(
        {"g": np.repeat(["a", "b", "c"], n // 3), "h": np.tile(["u", "v"], n // 2), "y": y}
    )


def counts_frame(counts: dict) -> pd.DataFrame:
    """One row per record, with the given number of records per category."""
    return pd.DataFrame({"c": [k for k, n in counts.items() for _ in range(n)]})


# -- independent computations ---------------------------------------------------------------


def rare(values, threshold=3):
    vals, cnt = np.unique(np.asarray(values, dtype=float), return_counts=True)
    return vals[cnt < threshold]


def avoid_for(df, mask):
    """A box's statistics avoid values rare in the whole variable or within the box."""
    return np.union1d(rare(df["y"]), rare(df.loc[mask, "y"]))


def sig3(values):
    return np.array([float(f"{v:.3g}") for v in values])


def nudge(values, avoid, sig=3):
    """Move each value equal to a rare value outward by one unit in its 3rd significant figure."""
    out = np.array(values, dtype=float)
    dirs = [-1, -1, 1, 1, 1]
    for _ in range(10):
        for i in range(5):
            while np.any(np.isclose(out[i], avoid, rtol=1e-9, atol=0)):
                unit = 10.0 ** (math.floor(math.log10(abs(out[i]))) - sig + 1)
                out[i] = out[i] + dirs[i] * unit
        ordered = np.maximum.accumulate(out)
        if np.array_equal(ordered, out):
            break
        out = ordered
    return out


def expected_confidential(v, avoid):
    m, s = v.mean(), v.std(ddof=1)
    lo, hi = m - 2.6 * s, m + 2.6 * s
    w = np.clip(v, lo, hi)
    five = nudge(sig3(np.quantile(w, [0, 0.25, 0.5, 0.75, 1])), avoid)
    return five, int(((v < lo) | (v > hi)).sum())


def expected_grid(v, edges, avoid, whis=1.5, threshold=3):
    counts, _ = np.histogram(v, edges)
    cell = np.digitize(v, edges) - 1
    small = (counts > 0) & (counts < threshold)
    kept = v[~small[cell]]
    q1, med, q3 = np.quantile(kept, [0.25, 0.5, 0.75])
    iqr = q3 - q1
    inside = kept[(kept >= q1 - whis * iqr) & (kept <= q3 + whis * iqr)]
    five = nudge(sig3([inside.min(), q1, med, q3, inside.max()]), avoid)
    out = kept[(kept < inside.min()) | (kept > inside.max())]
    cells = np.unique(np.digitize(out, edges) - 1)
    fliers = (edges[cells] + edges[cells + 1]) / 2
    return five, fliers, int(small.sum())


def coarse(edges, factor=2):
    e = np.asarray(edges, dtype=float)
    while (e.size - 1) % factor:
        e = np.append(e, e[-1] + (e[-1] - e[-2]))
    return e[::factor]


def knn_release(v, groups, k=3):
    """Avraam et al.'s kNN centroids in one dimension, within groups, rescaled globally."""
    z = (v - v.mean()) / v.std(ddof=1)
    cent = np.empty_like(z)
    for g in np.unique(groups):
        idx = np.flatnonzero(groups == g)
        zg = z[idx]
        for i, row in enumerate(idx):
            nearest = np.argsort(np.abs(zg - zg[i]), kind="stable")[:k]
            cent[row] = zg[nearest].mean()
    scaled = cent / cent.std(ddof=1)  # the paper: no re-centring
    return scaled * v.std(ddof=1) + v.mean()


def drawn_boxes(ax, orient="x"):
    """Read back every drawn box: centre, whisker ends, quartiles and median."""
    c, v = (0, 1) if orient == "x" else (1, 0)
    boxes = []
    for patch in ax.patches:
        if not isinstance(patch, PathPatch):
            continue
        verts = patch.get_path().vertices
        lo_c, hi_c = verts[:, c].min(), verts[:, c].max()
        centre = (lo_c + hi_c) / 2
        q1, q3 = verts[:, v].min(), verts[:, v].max()
        whisk, med = [], None
        for line in ax.lines:
            xy = np.asarray(line.get_xydata())
            if xy.shape[0] != 2:
                continue
            if np.allclose(xy[:, c], centre, rtol=0, atol=1e-9) and xy[0, v] in (q1, q3):
                whisk.append(xy[1, v])
            elif (
                np.allclose(np.sort(xy[:, c]), [lo_c, hi_c])
                and xy[0, v] == xy[1, v]
                and q1 <= xy[0, v] <= q3
            ):
                med = xy[0, v]
        boxes.append({"pos": centre, "stats": np.array([min(whisk), q1, med, q3, max(whisk)])})
    return sorted(boxes, key=lambda b: b["pos"])


def flier_points(ax, orient="x"):
    """(position, value) of every drawn outlier marker (lines drawn without a line style)."""
    pts = []
    for line in ax.lines:
        if line.get_linestyle() in ("None", "none", "") and len(line.get_xdata()):
            xy = np.asarray(line.get_xydata())
            pts += [tuple(p) if orient == "x" else (p[1], p[0]) for p in xy]
    return sorted(pts)


# -- box plots: released numbers ------------------------------------------------------------


def test_confidential_release_is_okeefe_box(outliers):
    rel = release_boxplot(outliers, x="g", y="y", method="confidential")
    assert [g for g, _ in rel.groups] == ["a", "b", "c"]
    total = 0
    for (g, _), box in zip(rel.groups, rel.boxes, strict=True):
        mask = outliers.g == g
        v = outliers.loc[mask, "y"].to_numpy()
        five, n_w = expected_confidential(v, avoid_for(outliers, mask))
        np.testing.assert_allclose(box.stats, five, rtol=1e-12)
        assert box.fliers.size == 0
        assert box.n_winsorized == n_w
        total += n_w
    assert max(b.whishi for b in rel.boxes) < 200  # 412.731 and 250.5 winsorised away
    assert rel.report.details["values_winsorised"] == safeplot.get_policy().round_count(total)
    assert rel.report.params == {"threshold": 3, "winsor_sd": 2.6, "sig": 3}


def test_confidential_statistics_are_moved_off_rare_values():
    # values recorded to one decimal, 121 per box: the quartiles fall on records, and many of
    # those records are rare, so rounding alone would print them
    rng = np.random.default_rng(11)
    df = pd.DataFrame(
        {"g": np.repeat(["a", "b", "c"], 121), "y": rng.normal(50, 10, 363).round(1)}
    )
    rel = release_boxplot(df, x="g", y="y", method="confidential")
    moved = 0
    for (g, _), box in zip(rel.groups, rel.boxes, strict=True):
        mask = df.g == g
        avoid = avoid_for(df, mask)
        five, _ = expected_confidential(df.loc[mask, "y"].to_numpy(), avoid)
        np.testing.assert_allclose(box.stats, five, rtol=1e-12)
        assert not np.isclose(box.stats[:, None], avoid[None, :], rtol=1e-9, atol=0).any()
        w = df.loc[mask, "y"].to_numpy()
        moved += int((box.stats[1:4] != sig3(np.quantile(w, [0.25, 0.5, 0.75]))).sum())
    assert moved >= 1  # the nudge was exercised


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_grid_release_matches_histogram_suppression(outliers, method):
    rel = release_boxplot(outliers, x="g", y="y", hue="h", method=method)
    edges = safe_edges(outliers["y"].to_numpy(), 30, avoid=rare(outliers["y"]))
    if method == "generalize":
        edges = coarse(edges)
    cells = 0
    for (g, h), box in zip(rel.groups, rel.boxes, strict=True):
        mask = (outliers.g == g) & (outliers.h == h)
        v = outliers.loc[mask, "y"].to_numpy()
        five, fliers, small = expected_grid(v, edges, avoid_for(outliers, mask))
        np.testing.assert_allclose(box.stats, five, rtol=1e-12)
        np.testing.assert_allclose(np.sort(box.fliers), np.sort(fliers), rtol=1e-12)
        cells += small
    assert rel.report.cells_suppressed == cells > 0
    drawn = np.concatenate([np.r_[b.stats, b.fliers] for b in rel.boxes])
    assert not np.isclose(drawn[:, None], np.array(OUTLIERS)[None, :], rtol=1e-3).any()


def test_deterministic_release_is_knn_centroids_within_groups(outliers):
    rel = release_boxplot(outliers, x="g", y="y", hue="h", method="deterministic", k=3)
    v = outliers["y"].to_numpy()
    groups = (outliers["g"] + "/" + outliers["h"]).to_numpy()
    expected = knn_release(v, groups, k=3)
    for (g, h), released in zip(rel.groups, rel.values, strict=True):
        np.testing.assert_allclose(released, expected[groups == f"{g}/{h}"], rtol=1e-10)
    assert rel.report.params == {"threshold": 3, "k": 3}


def test_probabilistic_release_is_keyed_noise(outliers):
    with safeplot.policy(demo_policy()):
        a = release_boxplot(outliers, x="g", y="y", method="probabilistic", q=0.25)
        b = release_boxplot(outliers, x="g", y="y", method="probabilistic", q=0.25)
    v = outliers["y"].to_numpy()
    for (g, _), ra, rb in zip(a.groups, a.values, b.values, strict=True):
        np.testing.assert_array_equal(ra, rb)  # keyed: the same data give the same noise
        noise = ra - v[outliers.g == g]
        assert abs(noise.std(ddof=1) / (0.25 * v.std(ddof=1)) - 1) < 0.2
        assert not np.isin(ra, v).any()
    assert a.report.params == {"threshold": 3, "q": 0.25}


# -- box plots: what is drawn is the release ------------------------------------------------


@pytest.mark.parametrize("method", SUMMARY)
@pytest.mark.parametrize("orient", ["x", "y"])
def test_synthetic_frame_draws_the_summary_exactly(outliers, method, orient):
    fig, ax = plt.subplots()
    xy = {"x": "g", "y": "y"} if orient == "x" else {"x": "y", "y": "g"}
    boxplot(outliers, **xy, hue="h", method=method, ax=ax)
    rel = release_boxplot(outliers, **xy, hue="h", method=method)
    drawn = drawn_boxes(ax, orient)
    assert len(drawn) == len(rel.boxes) == 6
    # boxes in order: categories, then hue levels dodged within each
    for d, box in zip(drawn, rel.boxes, strict=True):
        np.testing.assert_array_equal(d["stats"], box.stats)  # exactly, not approximately
    fliers = flier_points(ax, orient)
    expected = sorted(
        (d["pos"], f) for d, box in zip(drawn, rel.boxes, strict=True) for f in box.fliers
    )
    assert len(fliers) == len(expected)
    np.testing.assert_allclose(
        np.array(fliers).reshape(-1, 2), np.array(expected).reshape(-1, 2), atol=1e-12
    )
    if method == "confidential":
        assert not fliers


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_value_methods_draw_tukey_boxes_of_released_values(outliers, method):
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(outliers, x="g", y="y", method=method, ax=ax)
        rel = release_boxplot(outliers, x="g", y="y", method=method)
    for d, released in zip(drawn_boxes(ax), rel.values, strict=True):
        q1, med, q3 = np.percentile(released, [25, 50, 75])
        inside = released[(released >= q1 - 1.5 * (q3 - q1)) & (released <= q3 + 1.5 * (q3 - q1))]
        np.testing.assert_allclose(
            d["stats"], [inside.min(), q1, med, q3, inside.max()], rtol=1e-12
        )


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "microaggregation"])
@pytest.mark.parametrize("whis", [1.5, (5, 95)])
def test_value_methods_release_the_boxes_seaborn_draws(outliers, method, whis):
    """Boxes are computed before drawing; seaborn draws exactly them, not its own of the values."""
    from matplotlib.cbook import boxplot_stats

    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        rel = release_boxplot(outliers, x="g", y="y", method=method, whis=whis)
        boxplot(outliers, x="g", y="y", method=method, whis=whis, ax=ax)
    assert rel.boxes is not None and len(rel.boxes) == len(rel.values)
    for box, released, drawn in zip(rel.boxes, rel.values, drawn_boxes(ax), strict=True):
        st = boxplot_stats(released, whis=whis)[0]
        np.testing.assert_allclose(
            box.stats, [st["whislo"], st["q1"], st["med"], st["q3"], st["whishi"]], rtol=1e-9
        )
        np.testing.assert_array_equal(np.sort(box.fliers), np.sort(st["fliers"]))
        np.testing.assert_array_equal(drawn["stats"], box.stats)
    fliers = np.sort([v for _, v in flier_points(ax)])
    np.testing.assert_array_equal(fliers, np.sort(np.concatenate([b.fliers for b in rel.boxes])))
    # the category axis keeps seaborn's limits, outliers or not
    assert ax.get_xlim() == (-0.5, len(rel.boxes) - 0.5)


def test_value_method_boxes_on_a_log_axis_are_those_of_the_logarithms(outliers):
    from matplotlib.cbook import boxplot_stats

    df = outliers.assign(y=outliers["y"] - outliers["y"].min() + 10 * outliers["y"].std())
    with safeplot.policy(demo_policy()):
        rel = release_boxplot(df, x="g", y="y", method="deterministic", log_scale=True)
    five = ("whislo", "q1", "med", "q3", "whishi")
    differs = False
    for box, released in zip(rel.boxes, rel.values, strict=True):
        st = boxplot_stats(np.log10(released))[0]
        expected = 10.0 ** np.array([st[k] for k in five])
        np.testing.assert_allclose(box.stats, expected, rtol=1e-9)
        assert np.isin(box.fliers, released).all()  # the released values themselves
        linear = boxplot_stats(released)[0]
        differs |= not np.allclose(box.stats, [linear[k] for k in five], rtol=1e-9)
    assert differs  # the data tell the two apart


def test_notches_are_drawn_from_the_released_values(outliers):
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(outliers, x="g", y="y", method="deterministic", notch=True, ax=ax)
    # a notched box is a polygon of more than the four corners of a plain one
    assert all(len(p.get_path().vertices) > 6 for p in ax.patches if isinstance(p, PathPatch))


def test_confidential_marks_winsorised_boxes(outliers):
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", method="confidential", ax=ax)
    rel = release_boxplot(outliers, x="g", y="y", method="confidential")
    marks = [t for t in ax.texts if t.get_gid() == WINSOR_GID]
    assert len(marks) == sum(b.n_winsorized > 0 for b in rel.boxes) >= 1
    assert all(t.get_text() == "***" for t in marks)
    note = next(t for t in ax.texts if t.get_gid() == FOOTNOTE_GID)
    assert "***" in note.get_text()


def test_value_axis_limits_and_ticks_are_safe(outliers):
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", method="suppress", ax=ax)
    rel = release_boxplot(outliers, x="g", y="y", method="suppress")
    assert ax.get_ylim() == pytest.approx(rel.value_lim)
    np.testing.assert_array_equal(ax.get_yticks(), rel.value_ticks)
    drawn = np.concatenate([np.r_[b.stats, b.fliers] for b in rel.boxes])
    assert rel.value_lim[0] < drawn.min() and rel.value_lim[1] > drawn.max()


# -- leaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", SAFE_BOX)
@pytest.mark.parametrize("dataset", ["outliers", "ties"])
def test_boxplot_leaks_nothing(method, dataset, request):
    df = request.getfixturevalue(dataset)
    raw = df["y"].to_numpy()
    fig_v, ax_v = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(df, x="g", y="y", hue="h", method=method, ax=ax_v)
    found = scan_figure(fig_v, {"y": raw}, threshold=3, count_axis=None)
    assert not found, str(found)
    fig_h, ax_h = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(df, x="y", y="g", method=method, ax=ax_h)
    found = scan_figure(fig_h, {"x": raw}, threshold=3, count_axis=None)
    assert not found, str(found)


@pytest.mark.parametrize("dataset", ["outliers", "ties"])
def test_scanner_flags_a_raw_boxplot(dataset, request):
    df = request.getfixturevalue(dataset)
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(df, x="g", y="y", hue="h", method="none", ax=ax)
    found = scan_figure(fig, {"y": df["y"].to_numpy()}, threshold=3, count_axis=None)
    assert found.leaks
    assert ax.safeplot_report.method == "none"
    assert any("Raw output" in w for w in ax.safeplot_report.warnings)


@pytest.mark.parametrize("method", SAFE_BOX)
def test_boxplot_of_penguins_leaks_nothing(method):
    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        boxplot(penguins, x="species", y="body_mass_g", hue="sex", method=method, ax=ax)
    found = scan_figure(
        fig, {"y": penguins["body_mass_g"].dropna().to_numpy()}, threshold=3, count_axis=None
    )
    assert not found, str(found)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Adelie", "Chinstrap", "Gentoo"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Male", "Female"]
    assert ax.safeplot_report.n == 335  # 333 complete records, rounded to 5


@pytest.mark.parametrize("method", SAFE_BOX)
def test_boxplot_of_tips_keeps_the_category_order(method):
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    boxplot(tips, x="day", y="total_bill", method=method, ax=ax, bins=15)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Thur", "Fri", "Sat", "Sun"]
    assert ax.get_xlabel() == "day" and ax.get_ylabel() == "total_bill"
    found = scan_figure(fig, {"y": tips["total_bill"].to_numpy()}, threshold=3, count_axis=None)
    assert not found, str(found)


# -- box plots: input forms -------------------------------------------------------------------


def test_wide_form_boxes_one_per_numeric_column():
    penguins = safeplot.load_dataset("penguins")
    cols = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm"]
    fig, ax = plt.subplots()
    boxplot(penguins[[*cols, "species"]], method="confidential", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == cols
    rel = release_boxplot(penguins[cols], method="confidential")
    for d, box in zip(drawn_boxes(ax), rel.boxes, strict=True):
        np.testing.assert_array_equal(d["stats"], box.stats)
    fig, ax = plt.subplots()
    boxplot(penguins[cols], orient="h", method="suppress", ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == cols


def test_single_variable_boxes():
    penguins = safeplot.load_dataset("penguins")
    fig, (a, b) = plt.subplots(1, 2)
    boxplot(penguins, y="body_mass_g", method="generalize", ax=a)
    boxplot(penguins, x="body_mass_g", hue="sex", method="suppress", ax=b)
    rel = release_boxplot(penguins, y="body_mass_g", method="generalize")
    (d,) = drawn_boxes(a)
    np.testing.assert_array_equal(d["stats"], rel.boxes[0].stats)
    assert d["pos"] == 0 and a.get_ylabel() == "body_mass_g"
    rel = release_boxplot(penguins, x="body_mass_g", hue="sex", method="suppress")
    assert [h for _, h in rel.groups] == ["Male", "Female"]
    for d, box in zip(drawn_boxes(b, "y"), rel.boxes, strict=True):
        np.testing.assert_array_equal(d["stats"], box.stats)


def test_order_and_hue_order_select_groups(outliers):
    rel = release_boxplot(
        outliers, x="g", y="y", hue="h", order=["c", "a"], hue_order=["v"], method="confidential"
    )
    assert rel.groups == [("c", "v"), ("a", "v")]
    assert rel.report.n == 120
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", order=["c", "a"], method="suppress", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["c", "a"]


def test_fliers_sit_in_their_dodge_slot(outliers):
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", hue="h", method="suppress", ax=ax, whis=0.5)
    positions = {round(d["pos"], 9) for d in drawn_boxes(ax)}
    assert positions == {-0.2, 0.2, 0.8, 1.2, 1.8, 2.2}
    fliers = flier_points(ax)
    assert fliers and {round(p, 9) for p, _ in fliers} <= positions


def test_showfliers_false_hides_grid_fliers(outliers):
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", method="suppress", whis=0.5, showfliers=False, ax=ax)
    assert not flier_points(ax)


def test_native_scale_numeric_categories_get_safe_ticks():
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    # (no method note: a tip of 2.6 is rare and the note says "winsor_sd=2.6")
    boxplot(
        tips, x="size", y="tip", native_scale=True, method="confidential", ax=ax, annotate=False
    )
    # party size 5's box has a zero-length half: under O'Keefe's rule for a nominal x
    # it is left out (merging has no natural order), and the report says so
    assert {round(d["pos"], 9) for d in drawn_boxes(ax)} == {1, 2, 3, 4, 6}
    assert ax.safeplot_report.details["boxes_omitted"]
    found = scan_figure(
        fig, {"x": tips["size"].to_numpy(), "y": tips["tip"].to_numpy()}, count_axis=None
    )
    assert not found, str(found)


def test_log_scale_value_axis():
    rng = np.random.default_rng(3)
    y = np.exp(rng.normal(3, 1.5, 400))
    g = np.repeat(["a", "b"], 200)
    fig, ax = plt.subplots()
    boxplot(x=g, y=y, log_scale=True, method="suppress", ax=ax)
    assert ax.get_yscale() == "log"
    ticks = ax.get_yticks()
    assert np.allclose(np.log10(ticks), np.round(np.log10(ticks)))  # decades
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"{t:g}" for t in ticks]
    assert not scan_figure(fig, {"y": y}, count_axis=None)
    with pytest.raises(ValueError, match="positive"):
        boxplot(x=g, y=y - 100, log_scale=True, method="suppress")
    with pytest.raises(ValueError, match="category axis"):
        boxplot(x=np.repeat([1, 2], 200), y=y, log_scale=True, native_scale=True)


def test_summary_methods_refuse_means_and_notches(outliers):
    n = len(plt.get_fignums())
    for kw in ({"showmeans": True}, {"notch": True}):
        with pytest.raises(ValueError, match="five-number summary"):
            boxplot(outliers, x="g", y="y", method="suppress", **kw)
    assert len(plt.get_fignums()) == n
    ax = boxplot(outliers, x="g", y="y", method="deterministic", showmeans=True)
    assert ax.safeplot_report.method == "deterministic"


def test_percentile_whiskers_need_a_value_method(outliers):
    with pytest.raises(ValueError, match="number of IQRs"):
        release_boxplot(outliers, x="g", y="y", method="suppress", whis=(5, 95))
    ax = boxplot(outliers, x="g", y="y", method="deterministic", whis=(5, 95))
    assert ax.safeplot_report.method == "deterministic"


def test_no_warning_reaches_the_user(outliers):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for method in SAFE_BOX:
            fig, (a, b) = plt.subplots(1, 2)
            with safeplot.policy(demo_policy()):
                boxplot(outliers, x="g", y="y", hue="h", method=method, ax=a)
                boxplot(outliers, x="y", y="g", method=method, ax=b, fill=False)
        fig, ax = plt.subplots()
        countplot(outliers, x="g", hue="h", ax=ax)


# -- box plots: refusals ----------------------------------------------------------------------


def _refused(call, match, exc=DisclosureError):
    n = len(plt.get_fignums())
    audit.clear()
    with pytest.raises(exc, match=match):
        call()
    assert len(plt.get_fignums()) == n
    assert audit.entries() == []


def _left_out_note(ax):
    notes = [t.get_text() for t in ax.texts if t.get_gid() in (LEFT_OUT_GID, OMITTED_GID)]
    assert notes, "no note says that groups were left out"
    return "\n".join(notes)


def test_small_groups_are_left_out_with_a_note(outliers):
    # invariant 10: a box of fewer than threshold records is not drawn, the rest is
    df = pd.concat([outliers, pd.DataFrame({"g": ["d", "d"], "h": ["u", "u"], "y": [40.0, 45.0]})])
    for method in SAFE_BOX:
        fig, ax = plt.subplots()
        boxplot(df, x="g", y="y", method=method, ax=ax)
        rel = release_boxplot(df, x="g", y="y", method=method)
        assert [cat for cat, _ in rel.groups] == ["a", "b", "c"], method
        # the group left out is not named: no tick label, no note, no report text names it
        assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"], method
        note = _left_out_note(ax)
        assert note == LEFT_OUT_NOTE
        assert not any(ch.isdigit() for ch in note)  # no count of groups or records
        report = ax.safeplot_report
        assert any("1 group(s) with fewer than 3 records" in w for w in report.warnings)
        assert not any("'d'" in w for w in report.warnings)
        assert report.details["groups_left_out"] == 1
        found = scan_figure(fig, {"y": df["y"].to_numpy()}, threshold=3, count_axis=None)
        assert not found, (method, str(found))
    # the same with hue: two boxes of one record each
    df.loc[df.index[-1], "h"] = "v"
    fig, ax = plt.subplots()
    boxplot(df, x="g", y="y", hue="h", method="confidential", ax=ax)
    assert ax.safeplot_report.details["groups_left_out"] == 2
    assert "d" not in [t.get_text() for t in ax.get_xticklabels()]
    assert _left_out_note(ax) == LEFT_OUT_NOTE
    # a level named by the call keeps its (empty) slot, as seaborn keeps it
    fig, ax = plt.subplots()
    boxplot(df, x="g", y="y", order=["a", "b", "c", "d"], method="confidential", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c", "d"]
    # the report counts every record, so that it less the records drawn counts nothing
    assert ax.safeplot_report.n == 360


def test_only_small_groups_are_refused_by_name():
    df = pd.DataFrame({"g": ["a", "a", "b", "b"], "y": [40.0, 45.0, 50.0, 55.0]})
    for method in SAFE_BOX:
        _refused(
            lambda method=method: boxplot(df, x="g", y="y", method=method),
            r"2 group\(s\) have fewer than 3 records \(threshold=3\): g='a'; g='b'.*Merge small",
        )


def test_a_hue_level_left_out_everywhere_leaves_the_legend(outliers):
    df = pd.concat([outliers, pd.DataFrame({"g": ["a", "b"], "h": ["w", "w"], "y": [40.0, 45.0]})])
    fig, ax = plt.subplots()
    boxplot(df, x="g", y="y", hue="h", method="deterministic", ax=ax)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["u", "v"]
    # the colours of the levels drawn are those they have without the level left out
    fig, ref = plt.subplots()
    boxplot(outliers, x="g", y="y", hue="h", method="deterministic", ax=ref)
    colours = [h.get_facecolor() for h in ax.get_legend().legend_handles]
    assert colours == [h.get_facecolor() for h in ref.get_legend().legend_handles]


def test_deterministic_needs_k_records_per_group(outliers):
    df = pd.concat([outliers, pd.DataFrame({"g": ["d"] * 4, "h": "u", "y": [40.0, 45, 50, 55]})])
    ax = boxplot(df, x="g", y="y", method="deterministic", k=5)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]
    assert any("fewer than 5 records (k=5)" in w for w in ax.safeplot_report.warnings)
    assert _left_out_note(ax) == LEFT_OUT_NOTE


def test_thin_groups_under_suppression_are_left_out():
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    boxplot(tips, x="day", y="tip", hue="smoker", method="suppress", ax=ax)
    rel = release_boxplot(tips, x="day", y="tip", hue="smoker", method="suppress")
    assert ("Fri", "No") not in rel.groups and ("Fri", "Yes") in rel.groups
    assert any("keep fewer than threshold=3" in w for w in ax.safeplot_report.warnings)
    assert _left_out_note(ax) == LEFT_OUT_NOTE
    found = scan_figure(fig, {"y": tips["tip"].to_numpy()}, threshold=3, count_axis=None)
    assert not found, str(found)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"method": "deterministic", "k": 2}, "k_min"),
        ({"method": "probabilistic", "q": 0.1}, "q_min"),
        ({"method": "suppress", "threshold": 2}, "threshold"),
        ({"method": "confidential", "threshold": 2}, "threshold"),
        ({"method": "none"}, "raw output"),
    ],
)
def test_boxplot_policy_floors(outliers, kwargs, match):
    _refused(lambda: boxplot(outliers, x="g", y="y", **kwargs), match)


def test_group_and_rounding_methods_draw_released_boxes(outliers):
    for method in ("microaggregation", "rounding"):
        fig, ax = plt.subplots()
        boxplot(outliers, x="g", y="y", method=method, ax=ax)
        assert ax.safeplot_report.method == method
        assert not scan_figure(fig, {"y": outliers["y"].to_numpy()}, count_axis=None)


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda df: boxplot(df.iloc[:0], x="g", y="y"), "no values|empty"),
        (lambda df: boxplot(df.assign(y=np.nan), x="g", y="y"), "all missing"),
        (lambda df: boxplot(df.assign(y="x"), x="g", y="y"), "not numeric"),
        (lambda df: boxplot(df.assign(y=np.inf), x="g", y="y"), "infinite"),
        (lambda df: boxplot(df, x="g", y="nope"), "no column"),
        (lambda df: boxplot(df, x="g", y="y", orient="diagonal"), "orient"),
        (lambda df: boxplot(df[["y"]], hue="g"), "wide-form"),
        (lambda df: boxplot(df, x="g", y="y", order=["zz"]), "no records"),
        (lambda df: boxplot(df.assign(y=5.0), x="g", y="y"), "constant"),
        (lambda df: boxplot(df, x="g", y="y", method="suppress", bins=0), "bins"),
    ],
)
def test_bad_box_input_gets_a_clear_error(outliers, make, match):
    _refused(lambda: make(outliers), match, ValueError)


def test_missing_values_are_dropped_and_reported(outliers):
    df = outliers.copy()
    df.loc[:9, "y"] = np.nan
    df.loc[10:14, "g"] = None
    ax = boxplot(df, x="g", y="y", method="confidential")
    assert ax.safeplot_report.n == 345
    assert ax.safeplot_report.n_dropped == 15
    assert any("dropped" in w for w in ax.safeplot_report.warnings)


def test_boxplot_report_audit_and_note(outliers):
    ax = boxplot(outliers, x="g", y="y", method="generalize")
    rep = ax.safeplot_report
    assert rep.function == "boxplot" and rep.method == "generalize"
    assert rep.params == {"threshold": 3, "bins": 15, "factor": 2}
    assert rep.variables == ("y", "g")
    assert [e.method for e in audit.entries()] == ["generalize"]
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    fig, ax = plt.subplots()
    boxplot(outliers, x="g", y="y", method="generalize", annotate=False, ax=ax)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)


def test_default_method_is_the_policys_point_default(outliers):
    ax = boxplot(outliers, x="g", y="y")
    assert ax.safeplot_report.method == "deterministic"


# -- count plots: released numbers ----------------------------------------------------------


def test_suppress_with_secondary_suppression_one_way():
    rel = release_countplot(counts_frame({"a": 50, "b": 20, "c": 2, "d": 7}), x="c")
    # a whole level below the threshold is left out with its records, as if absent: nothing
    # else changes because of it (no secondary suppression, no count, no name)
    assert rel.levels == ["a", "b", "d"]
    np.testing.assert_array_equal(rel.counts[:, 0], [50, 20, 7])
    assert rel.report.cells_suppressed == 0
    assert rel.report.n == 75
    absent = release_countplot(counts_frame({"a": 50, "b": 20, "d": 7}), x="c")
    np.testing.assert_array_equal(absent.counts, rel.counts)
    assert absent.report.to_dict() == rel.report.to_dict()
    # within a two-way table, a small cell of a level that is shown still brings
    # secondary suppression (see the tips table below)


def test_suppress_two_way_table_of_tips():
    tips = safeplot.load_dataset("tips")
    rel = release_countplot(tips, x="size", hue="time")
    table = pd.crosstab(tips["size"], tips["time"])
    # primary: (1, Lunch) = 2, (1, Dinner) = 2, (5, Lunch) = 1, (6, Dinner) = 1;
    # secondary: (5, Dinner) = 4 and (6, Lunch) = 3, alone in their rows otherwise
    assert rel.levels == [2, 3, 4]
    assert rel.hue_levels == ["Lunch", "Dinner"]
    np.testing.assert_array_equal(rel.counts, table.loc[[2, 3, 4], ["Lunch", "Dinner"]])
    assert rel.report.cells_suppressed == 6
    assert rel.report.details["cells_suppressed_secondary"] == 2
    assert rel.report.n == 245


def test_generalize_merges_small_categories():
    rel = release_countplot(
        counts_frame({"a": 50, "b": 20, "c": 2, "d": 7, "e": 1}), x="c", method="generalize"
    )
    assert rel.levels == ["a", "b", "d", "Other"] and rel.other == "Other"
    np.testing.assert_array_equal(rel.counts[:, 0], [50, 20, 7, 3])
    assert rel.report.details["categories_merged"] == 2
    # one small category alone would make "Other" its own count: the smallest other joins it
    rel = release_countplot(
        counts_frame({"a": 50, "b": 20, "c": 1, "d": 7}), x="c", method="generalize"
    )
    assert rel.levels == ["a", "b", "Other"]
    np.testing.assert_array_equal(rel.counts[:, 0], [50, 20, 8])
    assert rel.report.cells_suppressed == 0


def test_generalize_two_way_and_everything_small():
    tips = safeplot.load_dataset("tips")
    rel = release_countplot(tips, x="size", hue="time", method="generalize")
    assert rel.levels == [2, 3, 4, "Other"]
    table = pd.crosstab(tips["size"], tips["time"])[["Lunch", "Dinner"]]
    np.testing.assert_array_equal(rel.counts[-1], table.loc[[1, 5, 6]].sum())
    rel = release_countplot(counts_frame({"a": 1, "b": 1}), x="c", method="generalize")
    assert rel.levels == [] and "nothing can be shown" in " ".join(rel.report.warnings)


def test_generalize_label_does_not_collide():
    df = counts_frame({"Other": 40, "b": 20, "c": 2, "d": 1})
    rel = release_countplot(df, x="c", method="generalize")
    assert rel.levels == ["Other", "b", "Other (merged)"]


def test_confidential_rounds_shown_counts():
    rel = release_countplot(
        counts_frame({"a": 52, "b": 18, "c": 2, "d": 7, "e": 1}), x="c", method="confidential"
    )
    assert rel.levels == ["a", "b", "d"]
    np.testing.assert_array_equal(rel.counts[:, 0], [50, 20, 5])
    assert rel.report.params == {"threshold": 3, "round_to": 5}
    with safeplot.policy(threshold=7):
        rel = release_countplot(
            counts_frame({"a": 52, "b": 7, "c": 8, "d": 2, "e": 1}), x="c", method="confidential"
        )
    # 7 rounds to 5, below the threshold: it is shown as 10, the smallest multiple of 5 >= 7
    np.testing.assert_array_equal(rel.counts[:, 0], [50, 10, 10])


@pytest.mark.parametrize(
    ("stat", "scale"), [("percent", 100.0), ("probability", 1.0), ("proportion", 1.0)]
)
def test_stat_is_computed_from_shown_counts(stat, scale):
    df = counts_frame({"a": 50, "b": 20, "c": 2, "d": 1})
    rel = release_countplot(df, x="c", stat=stat)
    np.testing.assert_allclose(rel.heights[:, 0], np.array([50, 20]) / 70 * scale)
    fig, ax = plt.subplots()
    countplot(df, x="c", stat=stat, ax=ax)
    np.testing.assert_allclose(
        sorted(p.get_height() for p in ax.patches), np.array([20, 50]) / 70 * scale
    )
    assert ax.get_ylabel() == stat


def test_dominant_category_is_flagged():
    fig, ax = plt.subplots()
    countplot(counts_frame({"a": 95, "b": 5}), x="c", ax=ax)
    assert any("Dominance" in w for w in ax.safeplot_report.warnings)
    assert any(t.get_gid() == DOMINANCE_GID for t in ax.texts)
    fig, ax = plt.subplots()
    countplot(counts_frame({"a": 85, "b": 15}), x="c", ax=ax)
    assert not any(t.get_gid() == DOMINANCE_GID for t in ax.texts)


# -- count plots: drawing and leaks -----------------------------------------------------------


def _numeric_categories():
    values = [10] * 40 + [20] * 30 + [30] * 25 + [40] * 12 + [7] + [1000] * 2
    return pd.DataFrame({"v": values, "h": (["p", "q"] * 60)[: len(values)]})


@pytest.mark.parametrize("method", SAFE_COUNT)
def test_countplot_bars_are_the_release(method):
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    countplot(tips, x="size", hue="time", method=method, ax=ax)
    rel = release_countplot(tips, x="size", hue="time", method=method)
    bars = sorted(p.get_height() for p in ax.patches if p.get_height() > 0)
    shown = np.sort(rel.counts[np.isfinite(rel.counts) & (rel.counts > 0)])
    np.testing.assert_array_equal(bars, shown)
    assert [t.get_text() for t in ax.get_xticklabels()] == [str(v) for v in rel.levels]
    assert not ax.lines  # no error bars


@pytest.mark.parametrize("method", SAFE_COUNT)
def test_countplot_leaks_nothing(method):
    df = _numeric_categories()
    fig, ax = plt.subplots()
    countplot(df, x="v", hue="h", method=method, ax=ax)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert "7" not in labels and "1000" not in labels
    found = scan_figure(fig, {"x": df["v"].to_numpy()}, threshold=3, count_axis="y")
    assert not found, str(found)
    fig, ax = plt.subplots()
    countplot(df, y="v", method=method, ax=ax)
    found = scan_figure(fig, {"y": df["v"].to_numpy()}, threshold=3, count_axis="x")
    assert not found, str(found)


def test_scanner_flags_a_raw_countplot():
    df = _numeric_categories()
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        countplot(df, x="v", method="none", ax=ax)
    found = scan_figure(fig, {"x": df["v"].to_numpy()}, threshold=3, count_axis="y")
    assert found.small_counts and found.leaks


def test_countplot_of_penguins():
    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots()
    countplot(penguins, y="island", hue="species", ax=ax)
    assert ax.get_xlabel() == "count" and ax.get_ylabel() == "island"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["Adelie", "Chinstrap", "Gentoo"]
    rel = release_countplot(penguins, y="island", hue="species")
    expected = pd.crosstab(penguins["island"], penguins["species"])
    np.testing.assert_array_equal(rel.counts, expected.loc[rel.levels, rel.hue_levels])
    assert rel.report.cells_suppressed == 0
    assert not scan_figure(fig, {"y": np.array([])}, count_axis="x")


def test_native_scale_counts():
    df = _numeric_categories()
    fig, ax = plt.subplots()
    countplot(df, x="v", native_scale=True, ax=ax)
    centres = sorted(p.get_x() + p.get_width() / 2 for p in ax.patches if p.get_height() > 0)
    np.testing.assert_allclose(centres, [10, 20, 30, 40])
    assert not scan_figure(fig, {"x": df["v"].to_numpy()}, count_axis="y")
    _refused(
        lambda: countplot(
            counts_frame({1: 40, 2: 30, 3: 2, 4: 1}).astype(int),
            x="c",
            native_scale=True,
            method="generalize",
        ),
        "native_scale",
        ValueError,
    )


def test_wide_form_countplot():
    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots()
    countplot(penguins[["bill_length_mm", "body_mass_g"]], method="confidential", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["bill_length_mm", "body_mass_g"]
    # 342 values each (two birds lack measurements), rounded to 340
    assert sorted(p.get_height() for p in ax.patches if p.get_height()) == [340, 340]


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_value_methods_make_no_sense_for_counts(method):
    _refused(
        lambda: countplot(counts_frame({"a": 5}), x="c", method=method),
        r"does not apply to counts.*'suppress', 'generalize', 'confidential', 'dp', 'none'",
        ValueError,
    )


@pytest.mark.parametrize(
    ("kwargs", "match", "exc"),
    [
        ({"threshold": 2}, "threshold", DisclosureError),
        ({"method": "none"}, "raw output", DisclosureError),
        ({"method": "rounding"}, "does not apply to counts", ValueError),
        ({"y": "c"}, "both `x` and `y`", ValueError),
        ({"stat": "density"}, "stat", ValueError),
    ],
)
def test_countplot_refusals(kwargs, match, exc):
    _refused(lambda: countplot(counts_frame({"a": 5, "b": 6}), x="c", **kwargs), match, exc)


def test_countplot_report_audit_and_note():
    ax = countplot(counts_frame({"a": 50, "b": 20, "c": 2, "d": 1}), x="c")
    rep = ax.safeplot_report
    assert (rep.function, rep.method, rep.params) == ("countplot", "suppress", {"threshold": 3})
    assert rep.n == 70 and rep.cells_suppressed == 0  # small levels left out as if absent
    assert [e.function for e in audit.entries()] == ["countplot"]
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    fig, ax = plt.subplots()
    countplot(counts_frame({"a": 50}), x="c", annotate=False, ax=ax)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)


def test_hue_colours_stay_put_when_a_level_is_suppressed():
    tips = safeplot.load_dataset("tips")
    fig, (a, b) = plt.subplots(1, 2)
    countplot(tips, x="day", hue="time", ax=a)  # every lunch bar is suppressed
    countplot(tips, x="day", hue="time", method="generalize", ax=b)
    assert [t.get_text() for t in a.get_legend().get_texts()] == ["Dinner"]
    assert [t.get_text() for t in b.get_legend().get_texts()] == ["Lunch", "Dinner"]
    dinner_a = {p.get_facecolor() for p in a.patches if p.get_height() > 0}
    dinner_b = {
        p.get_facecolor() for p in b.patches if p.get_height() > 0 and p.get_x() < 1
    }  # Sat's bar: dinners only
    assert dinner_a == dinner_b


def test_log_count_axis_shows_the_bars():
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    countplot(tips, x="day", log_scale=True, ax=ax)
    assert ax.get_yscale() == "log"
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == sorted(tips["day"].value_counts().tolist())  # exact counts, not logs
    assert ax.get_ylim()[0] > 0 and ax.patches[0].get_window_extent().height > 0


def test_unnamed_vectors_get_no_axis_labels():
    y = np.random.default_rng(0).normal(size=100)
    ax = boxplot(y=list(y), method="confidential")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("", "")
    fig, ax = plt.subplots()
    countplot(x=list(np.repeat(["a", "b"], 20)), ax=ax)
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("", "count")


@pytest.mark.parametrize("name", ["boxplot", "countplot"])
def test_signature_is_seaborns_plus_safeplot_parameters(name):
    import inspect

    import seaborn as sns

    from safeplot.plots import categorical

    theirs = inspect.signature(getattr(sns, name)).parameters
    ours = inspect.signature(getattr(categorical, name)).parameters
    head = [(k, p.default, p.kind) for k, p in theirs.items() if k != "kwargs"]
    assert [(k, p.default, p.kind) for k, p in ours.items()][: len(head)] == head
    extra = [k for k in ours if k not in theirs]
    assert extra[0] == "method" and extra[-1] == "annotate"
    assert all(ours[k].kind is inspect.Parameter.KEYWORD_ONLY for k in extra)
    assert list(ours)[-1] == "kwargs"


def test_countplot_named_categories_absent_or_suppressed_behave_as_not_named():
    """A category named in order= but absent or suppressed is left out, as if not named:
    the figure neither names a suppressed level nor tells it from an absent one."""
    c = np.append(np.random.default_rng(4).choice(["A", "B", "C"], 200), ["Smith"])
    df = pd.DataFrame({"c": c})
    labels = {}
    for name in ("Smith", "Jones", None):
        fig, ax = plt.subplots()
        order = ["A", "B", "C"] + ([name] if name else [])
        safeplot.countplot(data=df, x="c", order=order, ax=ax)
        labels[name] = [t.get_text() for t in ax.get_xticklabels()]
    assert labels["Smith"] == labels["Jones"] == labels[None] == ["A", "B", "C"]
    # a rare category nobody named is left out
    fig, ax = plt.subplots()
    safeplot.countplot(data=df, x="c", ax=ax)
    assert "Smith" not in [t.get_text() for t in ax.get_xticklabels()]
