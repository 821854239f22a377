"""kdeplot: the numbers each method feeds the density, the drawn curves, leaks, floors, errors."""

import dataclasses
import re
import warnings

import matplotlib.colors as mcolors
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import gaussian_kde

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize import add_keyed_noise, rare_values, round_sig, safe_edges
from safeplot.demo import demo_policy
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.grid import grid_bins_for
from safeplot.plots.kde import KdeRelease, draw_kde, kdeplot, release_kde

from .leakscan import scan_figure

METHODS = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]


def outlier_data():
    """Normal data with planted unique outliers, and a hue with three levels."""
    rng = np.random.default_rng(20261121)
    x = np.round(rng.normal(50, 10, 400), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 400), 3)
    g = rng.choice(["a", "b", "c"], 403)
    return pd.DataFrame(
        {"x": np.r_[x, 412.731, -97.113, 255.517], "y": np.r_[y, -88.404, 301.219, 12.5], "g": g}
    )


def tied_data():
    """Integer data with heavy ties, and a few rare values in the tails."""
    rng = np.random.default_rng(11)
    x = rng.poisson(60, 600).astype(float)
    y = x + rng.integers(-6, 7, 600)
    g = rng.choice(["a", "b"], 602)
    return pd.DataFrame({"x": np.r_[x, 140.0, 7.0], "y": np.r_[y, 9.0, 131.0], "g": g})


def smooth_data(n=300, seed=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(10, 2, n)
    return pd.DataFrame({"x": x, "y": x + rng.normal(0, 1, n), "g": rng.choice(["p", "q"], n)})


def knn_centroids_brute(x, k, strata=None):
    """Independent kNN centroids (brute force, Euclidean in z-space), rescaled globally."""
    x = np.asarray(x, dtype=float)
    x2 = x[:, None] if x.ndim == 1 else x
    mean, sd = x2.mean(axis=0), x2.std(axis=0, ddof=1)
    z = (x2 - mean) / sd
    strata = np.zeros(len(z), dtype=int) if strata is None else np.asarray(strata)
    cent = np.empty_like(z)
    for s in np.unique(strata):
        idx = np.flatnonzero(strata == s)
        d = np.sqrt(((z[idx][:, None, :] - z[idx][None, :, :]) ** 2).sum(axis=2))
        for row, i in enumerate(idx):
            nearest = np.argsort(d[row], kind="stable")[:k]
            cent[i] = z[idx][nearest].mean(axis=0)
    out = cent / cent.std(axis=0, ddof=1) * sd + mean  # the paper: no re-centring
    return out[:, 0] if x.ndim == 1 else out


def winsorised(x, sd=2.6):
    x = np.asarray(x, dtype=float)
    m, s = x.mean(), x.std(ddof=1)
    return np.clip(x, m - sd * s, m + sd * s)


def binned_release(values, bins=30, factor=1, threshold=3):
    """Shown bin centres and counts, computed with numpy on the safe edges."""
    edges = safe_edges(values, bins)
    counts, _ = np.histogram(values, edges)
    if factor > 1:
        pad = (-counts.size) % factor
        counts = np.r_[counts, np.zeros(pad, int)].reshape(-1, factor).sum(axis=1)
        width = edges[1] - edges[0]
        edges = np.r_[edges, edges[-1] + width * np.arange(1, pad + 1)][::factor]
    centres = (edges[:-1] + edges[1:]) / 2
    shown = counts >= threshold
    return centres[shown], counts[shown]


def rounded(values):
    """Densities as released: three significant figures (the policy's)."""
    return round_sig(np.asarray(values, dtype=float), 3)


def curve(ax, i=0):
    line = ax.lines[i]
    return np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)


def contour_sets(ax):
    return [c for c in ax.collections if type(c).__name__.endswith("ContourSet")]


# ---------------------------------------------------------------------------------------
# released inputs, exactly


def test_deterministic_releases_knn_centroids_and_draws_their_kde():
    df = smooth_data()
    rel = release_kde(df["x"], method="deterministic", k=3)
    expected = knn_centroids_brute(df["x"], 3)
    np.testing.assert_allclose(rel.data["x"], expected, rtol=1e-10)
    ax = kdeplot(df, x="x", method="deterministic", k=3)
    xs, ys = curve(ax)
    kde = gaussian_kde(expected)
    np.testing.assert_allclose(ys, rounded(kde(xs)), rtol=1e-12)
    # seaborn's support: 3 bandwidths beyond the released extremes, 200 points
    bw = np.sqrt(kde.covariance[0, 0])
    assert xs.size == 200
    np.testing.assert_allclose([xs[0], xs[-1]], [expected.min() - 3 * bw, expected.max() + 3 * bw])


def test_deterministic_with_hue_searches_within_levels():
    df = smooth_data()
    rel = release_kde(df["x"], hue=df["g"], method="deterministic", k=4)
    codes = (df["g"] == "q").astype(int).to_numpy()
    np.testing.assert_allclose(rel.data["x"], knn_centroids_brute(df["x"], 4, codes), rtol=1e-10)
    assert rel.levels == ["p", "q"]
    assert rel.data["hue"].tolist() == df["g"].tolist()


def test_probabilistic_releases_keyed_noise_and_draws_its_kde():
    df = smooth_data()
    noisy = add_keyed_noise(df["x"].to_numpy()[:, None], 0.5)[:, 0]
    rel = release_kde(df["x"], method="probabilistic", q=0.5)
    np.testing.assert_array_equal(rel.data["x"], noisy)
    ax = kdeplot(df, x="x", method="probabilistic", q=0.5)
    xs, ys = curve(ax)
    np.testing.assert_allclose(ys, rounded(gaussian_kde(noisy)(xs)), rtol=1e-12)
    # the noise is about q * SD
    assert 0.35 < np.std(noisy - df["x"]) / df["x"].std() < 0.65


def test_confidential_winsorises_and_rounds_the_range_outward():
    df = outlier_data()
    rel = release_kde(df["x"], method="confidential")
    w = winsorised(df["x"])
    # the winsorised values are raw values: only the rounded density is released
    assert rel.data.empty and list(rel.data.columns) == ["x"]
    ax = kdeplot(df, x="x", method="confidential")
    xs, ys = curve(ax)
    np.testing.assert_array_equal(xs, rel.estimate.support[0])
    kde = gaussian_kde(w)
    np.testing.assert_allclose(ys, rounded(kde(xs)), rtol=1e-12)
    bw = np.sqrt(kde.covariance[0, 0])
    lo, hi = w.min() - 3 * bw, w.max() + 3 * bw
    unit = 10.0 ** (np.floor(np.log10(max(abs(lo), abs(hi)))) - 2)  # 3 significant figures
    np.testing.assert_allclose(xs[0], np.floor(lo / unit) * unit)
    np.testing.assert_allclose(xs[-1], np.ceil(hi / unit) * unit)
    assert xs[0] <= lo and xs[-1] >= hi
    assert ax.safeplot_report.params["sig"] == 3
    note = next(t for t in ax.texts if t.get_gid() == FOOTNOTE_GID).get_text()
    assert "***" in note


def test_confidential_honours_clip_within_the_rounded_range():
    df = outlier_data()
    ax = kdeplot(df, x="x", method="confidential", clip=(20.0, 70.0))
    xs, _ = curve(ax)
    assert xs[0] == 20.0 and xs[-1] == 70.0


@pytest.mark.parametrize("method, factor", [("suppress", 1), ("generalize", 2)])
def test_binned_methods_feed_shown_bin_centres_weighted_by_counts(method, factor):
    df = outlier_data()
    rel = release_kde(df["x"], method=method)
    centres, counts = binned_release(df["x"].to_numpy(), factor=factor)
    np.testing.assert_allclose(rel.data["x"], centres)
    np.testing.assert_array_equal(rel.data["weights"], counts)
    assert (rel.data["weights"] >= 3).all()
    assert rel.report.cells_suppressed > 0  # the outliers' bins
    ax = kdeplot(df, x="x", method=method)
    xs, ys = curve(ax)
    # frequency weights: each shown centre once per record it counts
    kde = gaussian_kde(np.repeat(centres, counts))
    np.testing.assert_allclose(ys, rounded(kde(xs)), rtol=1e-12)
    # the curve does not reach towards the suppressed outliers
    assert xs.max() < 200 and xs.min() > 0


def test_binned_methods_with_hue_use_common_edges_and_suppress_per_level():
    df = outlier_data()
    rel = release_kde(df["x"], hue=df["g"], method="suppress")
    edges = safe_edges(df["x"].to_numpy(), 30)
    centres = (edges[:-1] + edges[1:]) / 2
    for level in ["a", "b", "c"]:
        counts, _ = np.histogram(df.loc[df["g"] == level, "x"], edges)
        part = rel.data[rel.data["hue"] == level]
        np.testing.assert_allclose(part["x"], centres[counts >= 3])
        np.testing.assert_array_equal(part["weights"], counts[counts >= 3])


@pytest.mark.parametrize("method, factor", [("suppress", 1), ("generalize", 2)])
def test_bivariate_binned_methods_contour_the_suppressed_grid(method, factor):
    df = outlier_data()
    assert release_kde(df["x"], df["y"], method=method).report.params["bins"] == (
        -(-grid_bins_for(len(df), 3) // factor)
    )  # by default the grid is chosen by n, as a heat map's
    rel = release_kde(df["x"], df["y"], method=method, bins=30)
    grid = rel.grid
    assert grid.counts.shape[1:] == (30 // factor, 30 // factor) or grid.counts.shape[1] < 30
    counts, _, _ = np.histogram2d(df["x"], df["y"], bins=[grid.xedges, grid.yedges])
    shown = ~np.isnan(grid.counts[0])
    np.testing.assert_array_equal(grid.counts[0][shown], counts[shown])
    assert ((counts[~shown] > 0) & (counts[~shown] < 3)).all()
    assert ((counts[shown] == 0) | (counts[shown] >= 3)).all()
    assert rel.report.params["bins"] == 30 // factor
    ax = kdeplot(df, x="x", y="y", method=method, bins=30)
    (cs,) = contour_sets(ax)
    # contour levels: seaborn's iso-proportions of mass, on the shown counts
    z = np.nan_to_num(grid.counts[0]).ravel()
    desc = np.sort(z)[::-1]
    idx = np.searchsorted(np.cumsum(desc) / z.sum(), 1 - np.linspace(0.05, 1, 10))
    np.testing.assert_array_equal(cs.levels, np.unique(np.take(desc, idx, mode="clip")))
    assert ((cs.levels == 0) | (cs.levels >= 3)).all()
    # contours close within the ring of empty cells around the grid
    w = grid.xedges[1] - grid.xedges[0]
    verts = np.concatenate([p.vertices for p in cs.get_paths() if p.vertices.size])
    assert verts[:, 0].min() > grid.xcentres[0] - w
    assert verts[:, 0].max() < grid.xcentres[-1] + w
    np.testing.assert_allclose(ax.get_xlim(), [grid.xedges[0] - w, grid.xedges[-1] + w])


def test_bivariate_grid_with_hue_draws_one_contour_set_per_level():
    df = smooth_data(600)
    ax = kdeplot(df, x="x", y="y", hue="g", method="generalize", fill=True)
    assert len(contour_sets(ax)) == 2
    levels = list(pd.unique(df["g"]))  # seaborn's order: as they appear
    assert [t.get_text() for t in ax.get_legend().get_texts()] == levels


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "confidential"])
def test_bivariate_value_methods_release_exactly(method):
    df = smooth_data()
    xy = df[["x", "y"]].to_numpy()
    rel = release_kde(df["x"], df["y"], hue=df["g"], method=method)
    got = rel.data[["x", "y"]].to_numpy()
    if method == "deterministic":
        codes = (df["g"] == "q").astype(int).to_numpy()
        np.testing.assert_allclose(got, knn_centroids_brute(xy, 3, codes), rtol=1e-10)
    elif method == "probabilistic":
        np.testing.assert_array_equal(got, add_keyed_noise(xy, 0.25))
    else:
        # the winsorised values are not released; the density of each level is theirs
        assert got.size == 0
        est = rel.estimate
        for i, level in enumerate(rel.levels):
            sel = (df["g"] == level).to_numpy()
            w = np.column_stack([winsorised(xy[:, 0]), winsorised(xy[:, 1])])[sel]
            xx, yy = np.meshgrid(est.support[i], est.support_y[i])
            density = gaussian_kde(w.T)([xx.ravel(), yy.ravel()]).reshape(xx.shape)
            share = sel.sum() / sel.size
            np.testing.assert_allclose(est.density[i], rounded(density * share), rtol=1e-12)
    assert rel.grid is None and rel.bivariate


def test_bivariate_deterministic_contours_the_kde_of_the_centroids():
    df = smooth_data()
    rel = release_kde(df["x"], df["y"], method="deterministic")
    ax = kdeplot(df, x="x", y="y", method="deterministic")
    (cs,) = contour_sets(ax)
    kde = gaussian_kde(np.vstack([rel.data["x"], rel.data["y"]]))
    # every vertex lies on the contour of its level (within interpolation error)
    for level, path in zip(cs.levels, cs.get_paths(), strict=True):
        if path.vertices.size:
            dens = kde(path.vertices.T)
            np.testing.assert_allclose(dens, level, rtol=0.05, atol=level * 0.05)


def test_bivariate_confidential_rounds_both_ranges():
    df = outlier_data()
    ax = kdeplot(df, x="x", y="y", method="confidential", fill=True, thresh=0)
    (cs,) = contour_sets(ax)
    verts = np.concatenate([p.vertices for p in cs.get_paths() if p.vertices.size])
    for j, col in enumerate(["x", "y"]):
        w = winsorised(df[col])
        assert verts[:, j].min() < w.min()
        # the outermost grid value is a number with three significant figures
        lo = verts[:, j].min()
        assert lo == float(f"{lo:.3g}")


def test_cut_zero_ends_on_released_extremes():
    df = smooth_data()
    rel = release_kde(df["x"], method="deterministic")
    ax = kdeplot(df, x="x", method="deterministic", cut=0)
    xs, _ = curve(ax)
    assert xs[0] == rel.data["x"].min() and xs[-1] == rel.data["x"].max()
    assert not np.isin(xs[[0, -1]], df["x"]).any()


# ---------------------------------------------------------------------------------------
# the grid, and contours through rare values


def pending(rel, avoid):
    """The released values of `rel`, as a release estimated when drawn, clear of `avoid`."""
    return KdeRelease(
        data=rel.data,
        labels=rel.labels,
        levels=rel.levels,
        method=rel.method,
        grid=rel.grid,
        scales=rel.scales,
        sig=rel.sig,
        report=rel.report,
        avoid=avoid,
    )


def test_release_holds_no_rare_value():
    df = outlier_data()
    for rel in (release_kde(df["x"]), release_kde(df["x"], df["y"], method="deterministic")):
        assert "avoid" not in {f.name for f in dataclasses.fields(rel)}
        assert not rel.avoid


def test_grid_points_on_a_rare_value_are_not_moved():
    # the grid depends only on released values: shifting it off a raw value would say that
    # a value sits there (DESIGN invariant 2), so it is drawn exactly as seaborn draws it
    df = smooth_data()
    rel = release_kde(df["x"], method="deterministic")
    xs0 = rel.estimate.support[0]
    targets = xs0[[0, 57, 199]]
    ax = plt.figure().gca()
    draw_kde(ax, pending(rel, {"x": np.sort(np.r_[rare_values(df["x"], 3), targets])}))
    xs, ys = curve(ax)
    np.testing.assert_array_equal(xs, xs0)
    np.testing.assert_allclose(ys, rounded(gaussian_kde(rel.data["x"])(xs)), rtol=1e-12)
    np.testing.assert_allclose(np.diff(xs), np.diff(xs)[0], rtol=1e-9)


def test_contour_through_a_rare_value_moves_its_level():
    df = smooth_data()
    rel = release_kde(df["x"], df["y"], method="probabilistic")
    est = rel.estimate
    xs, z, level = est.support[0], est.density[0], est.contour_levels[0][3]
    # a vertex on a horizontal grid line: its x is interpolated between two grid points
    a, b = z[:, :-1], z[:, 1:]
    j, i = np.argwhere((np.minimum(a, b) < level) & (level < np.maximum(a, b)))[0]
    frac = (b[j, i] - level) / (b[j, i] - a[j, i])
    vx = xs[i] * frac + xs[i + 1] * (1 - frac)
    plain = plt.figure().gca()
    draw_kde(plain, rel)
    verts = np.concatenate([p.vertices for p in contour_sets(plain)[0].get_paths()])
    assert np.isclose(verts[:, 0], vx, rtol=1e-12, atol=0).any()
    rare = {"x": np.sort(np.r_[rare_values(df["x"], 3), vx]), "y": rare_values(df["y"], 3)}
    ax = plt.figure().gca()
    draw_kde(ax, pending(rel, rare))
    assert not scan_figure(ax.figure, {"x": np.r_[df["x"], vx], "y": df["y"]}, threshold=3)
    # that level moved one unit in its last (third) figure; the others stayed
    (cs,) = contour_sets(ax)
    unit = 10.0 ** (np.floor(np.log10(level)) - 2)
    np.testing.assert_allclose(np.setdiff1d(cs.levels, est.contour_levels[0]), [level + unit])
    assert np.setdiff1d(est.contour_levels[0], cs.levels).tolist() == [level]


# ---------------------------------------------------------------------------------------
# leak scans


@pytest.mark.parametrize("data", [outlier_data, tied_data], ids=["outliers", "ties"])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"hue": "g"},
        {"hue": "g", "multiple": "stack"},
        {"fill": True, "cut": 0},
        {"cumulative": True},
    ],
    ids=["plain", "hue", "stack", "fill-cut0", "cumulative"],
)
def test_univariate_leak_scan(data, method, options):
    df = data()
    fig, ax = plt.subplots()
    kdeplot(df, x="x", method=method, ax=ax, **options)
    findings = scan_figure(fig, {"x": df["x"].to_numpy()}, threshold=3)
    assert not findings, str(findings)


@pytest.mark.parametrize("data", [outlier_data, tied_data], ids=["outliers", "ties"])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "options",
    [{}, {"hue": "g"}, {"fill": True, "thresh": 0, "cbar": True}],
    ids=["plain", "hue", "fill-cbar"],
)
def test_bivariate_leak_scan(data, method, options):
    df = data()
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # levels with nothing to show
        kdeplot(df, x="x", y="y", method=method, ax=ax, **options)
    findings = scan_figure(
        fig,
        {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
        threshold=3,
        counts_in_colour=method in ("suppress", "generalize"),
    )
    assert not findings, str(findings)


def test_leak_scan_of_a_y_density():
    df = outlier_data()
    fig, ax = plt.subplots()
    kdeplot(df, y="x", hue="g", method="deterministic", ax=ax)
    assert ax.get_xlabel() == "Density"
    assert not scan_figure(fig, {"y": df["x"].to_numpy()}, threshold=3)


@pytest.mark.parametrize("bivariate", [False, True])
def test_scanner_flags_the_raw_plot(bivariate):
    df = outlier_data()
    fig, ax = plt.subplots()
    with safeplot.policy(demo_policy()):
        if bivariate:
            kdeplot(df, x="x", y="y", method="none", cut=0, thresh=0, fill=True, ax=ax)
            raw = {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}
        else:
            kdeplot(df, x="x", method="none", cut=0, ax=ax)
            raw = {"x": df["x"].to_numpy()}
    assert ax.safeplot_report.method == "none"
    assert scan_figure(fig, raw, threshold=3)


# ---------------------------------------------------------------------------------------
# options


def test_log_scale_releases_on_the_log_scale():
    df = smooth_data()
    rel = release_kde(df["x"], method="deterministic", log_scale=True)
    expected = 10 ** knn_centroids_brute(np.log10(df["x"]), 3)
    np.testing.assert_allclose(rel.data["x"], expected, rtol=1e-10)
    fig, ax = plt.subplots()
    kdeplot(df, x="x", method="deterministic", log_scale=True, ax=ax)
    assert ax.get_xscale() == "log"
    xs, ys = curve(ax)
    density = gaussian_kde(np.log10(expected))(np.log10(xs))
    np.testing.assert_allclose(ys, rounded(density), rtol=1e-12)
    assert not scan_figure(fig, {"x": df["x"].to_numpy()}, threshold=3)


def test_log_scale_refuses_non_positive_values():
    with pytest.raises(ValueError, match="positive"):
        kdeplot(x=[-1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], log_scale=True)


def test_wide_form_releases_each_column_on_its_own():
    rng = np.random.default_rng(0)
    wide = pd.DataFrame({"small": rng.normal(0, 1, 200), "large": rng.normal(1000, 100, 200)})
    ax = kdeplot(wide, method="probabilistic")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["small", "large"]
    rel = release_kde(
        pd.concat([wide["small"], wide["large"]], ignore_index=True),
        hue=np.repeat(["small", "large"], 200),
        hue_order=["small", "large"],
        wide=True,
        method="probabilistic",
    )
    noise = rel.data["x"].to_numpy() - np.r_[wide["small"], wide["large"]]
    assert np.std(noise[:200]) < 1 and np.std(noise[200:]) > 10  # each column's own SD


def test_hue_order_limits_the_levels():
    df = outlier_data()
    ax = kdeplot(df, x="x", hue="g", hue_order=["c", "a"], method="suppress")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["c", "a"]
    assert len(ax.lines) == 2


def test_series_and_vectors_are_accepted():
    df = smooth_data()
    ax = kdeplot(df["x"], method="deterministic")
    assert ax.get_xlabel() == "x"
    ax2 = kdeplot(x=df["x"].to_numpy(), method="suppress", ax=plt.figure().gca())
    assert ax2.safeplot_report.method == "suppress"


def test_legacy_shade_fills():
    df = smooth_data()
    with pytest.warns(FutureWarning, match="shade"):
        ax = kdeplot(df, x="x", shade=True, method="deterministic")
    assert not ax.lines and ax.collections


def test_weights_are_refused_unless_raw():
    df = smooth_data()
    df["w"] = np.arange(len(df), dtype=float) + 1
    with pytest.raises(ValueError, match="weights"):
        kdeplot(df, x="x", weights="w")
    with safeplot.policy(demo_policy()):
        ax = kdeplot(df, x="x", weights="w", method="none")
    xs, ys = curve(ax)
    np.testing.assert_allclose(ys, gaussian_kde(df["x"], weights=df["w"])(xs), rtol=1e-8)


def test_grid_contours_honour_levels_colour_and_clip():
    df = smooth_data(600)
    ax = kdeplot(
        df,
        x="x",
        y="y",
        method="generalize",
        levels=[0.2, 0.5, 0.8],
        color="red",
        clip=((8, 12), (None, None)),
    )
    (cs,) = contour_sets(ax)
    assert len(cs.levels) <= 3
    verts = np.concatenate([p.vertices for p in cs.get_paths() if p.vertices.size])
    assert verts[:, 0].min() >= 8 and verts[:, 0].max() <= 12
    np.testing.assert_allclose(cs.get_edgecolor()[0][:3], [1, 0, 0])


# ---------------------------------------------------------------------------------------
# report, audit, note


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("bivariate", [False, True])
def test_report_audit_and_note(method, bivariate):
    df = smooth_data()
    kws = {"x": "x", "y": "y"} if bivariate else {"x": "x"}
    ax = kdeplot(df, method=method, **kws)
    assert ax.safeplot_report.method == method
    assert ax.safeplot_report.params["threshold"] == 3
    entries = audit.entries()
    assert len(entries) == 1 and entries[0].function == "kdeplot"
    assert entries[0].method == method
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    ax2 = kdeplot(df, method=method, annotate=False, ax=plt.figure().gca(), **kws)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax2.texts)


def test_default_methods_come_from_the_policy():
    df = smooth_data()
    assert kdeplot(df, x="x").safeplot_report.method == "deterministic"
    ax = kdeplot(df, x="x", y="y", ax=plt.figure().gca())
    assert ax.safeplot_report.method == "deterministic"
    with safeplot.policy(default_point="probabilistic"):
        ax = kdeplot(df, x="x", y="y", ax=plt.figure().gca())
    assert ax.safeplot_report.method == "probabilistic"
    ax = kdeplot(df, x="x", y="y", method="suppress", ax=plt.figure().gca())
    assert ax.safeplot_report.method == "suppress"


def test_bivariate_default_keeps_a_small_hue_level():
    """68 Chinstrap penguins: the suppressed 30 x 30 grid keeps a quarter of them, the default
    (kNN centroids) draws the whole level, and so does the grid chosen by n (11 x 11)."""
    pen = safeplot.load_dataset("penguins")
    kws = {"x": "bill_length_mm", "y": "bill_depth_mm", "hue": "species"}

    def chinstrap_extent(ax):
        """Area of the bounding box of the Chinstrap contours (the legend's second colour)."""
        colour = ax.get_legend().legend_handles[1].get_color()
        pts = [
            path.vertices
            for c in ax.collections
            if len(c.get_edgecolor())
            and np.allclose(c.get_edgecolor()[0][:3], mcolors.to_rgb(colour))
            for path in c.get_paths()
            if len(path.vertices)
        ]
        pts = np.vstack(pts)
        return np.ptp(pts[:, 0]) * np.ptp(pts[:, 1])

    default = kdeplot(pen, **kws, ax=plt.figure().gca())
    assert default.safeplot_report.method == "deterministic"
    suppressed = kdeplot(pen, **kws, method="suppress", bins=30, ax=plt.figure().gca())
    assert suppressed.safeplot_report.cells_suppressed > 100
    assert chinstrap_extent(default) > 10 * chinstrap_extent(suppressed)
    by_n = kdeplot(pen, **kws, method="suppress", ax=plt.figure().gca())
    assert by_n.safeplot_report.params["bins"] == 11
    assert chinstrap_extent(by_n) > 5 * chinstrap_extent(suppressed)
    findings = scan_figure(default.figure, {"x": pen.bill_length_mm, "y": pen.bill_depth_mm})
    assert not findings, str(findings)


# ---------------------------------------------------------------------------------------
# floors and bad input


@pytest.mark.parametrize(
    "kws",
    [
        {"method": "deterministic", "k": 2},
        {"method": "probabilistic", "q": 0.1},
        {"method": "suppress", "threshold": 2},
        {"method": "none"},
        {"method": "deterministic", "k": 2, "y": "y"},
        {"method": "suppress", "threshold": 2, "y": "y"},
    ],
)
def test_floors_refuse_and_leave_nothing(kws):
    df = smooth_data()
    figs = plt.get_fignums()
    with pytest.raises(DisclosureError):
        kdeplot(df, x="x", **kws)
    assert plt.get_fignums() == figs
    assert audit.entries() == []


def test_small_hue_level_is_refused_by_confidential_and_left_out_by_deterministic():
    df = smooth_data()
    df.loc[:1, "g"] = "tiny"
    with pytest.raises(DisclosureError, match="cannot be left out either"):
        kdeplot(df, x="x", hue="g", method="confidential")
    ax = kdeplot(df, x="x", hue="g", method="deterministic")
    assert "tiny" not in [t.get_text() for t in ax.get_legend().get_texts()]
    assert ax.safeplot_report.details["groups_left_out"] == 1


@pytest.mark.parametrize("method", ["microaggregation", "rounding"])
def test_group_and_rounding_methods_release_values(method):
    ax = kdeplot(smooth_data(), x="x", method=method, k=5, c=6)
    assert ax.safeplot_report.method == method
    assert ax.safeplot_report.params.get("k" if method == "microaggregation" else "c") in (5, 6)


@pytest.mark.parametrize(
    "data, kws, match",
    [
        (pd.DataFrame({"x": np.array([], dtype=float)}), {"x": "x"}, "empty"),
        (pd.DataFrame({"x": [np.nan] * 5}), {"x": "x"}, "missing"),
        (pd.DataFrame({"x": ["a", "b", "c", "d", "e", "f"]}), {"x": "x"}, "not numeric"),
        (pd.DataFrame({"x": [1.0, 2.0, np.inf, 4.0, 5.0, 6.0]}), {"x": "x"}, "infinite"),
        (pd.DataFrame({"x": [1.0, 2.0, 3.0]}), {"x": "nope"}, "no column"),
        (None, {}, "nothing to plot"),
        (smooth_data(), {"x": "x", "multiple": "dodge"}, "multiple"),
    ],
)
def test_bad_input_gets_clear_errors(data, kws, match):
    with pytest.raises(ValueError, match=match):
        kdeplot(data, **kws)
    assert audit.entries() == []


#: The refusals heavy-tie data may meet: a grid of small cells only, or centroids all equal.
HEAVY_TIE_REFUSALS = {
    "suppress": "below the threshold: nothing can be shown",
    "generalize": "below the threshold: nothing can be shown",
    "deterministic": "Every centroid is the same",
}


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(20, 120),
    spread=st.sampled_from([3, 8, 40]),
    method=st.sampled_from(METHODS),
    bivariate=st.booleans(),
)
def test_property_no_rare_value_is_drawn(seed, n, spread, method, bivariate):
    """Heavy-tie integer data of random size and spread: nothing rare is drawn, any method."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, spread, n).astype(float) * 7 + 100
    y = x + rng.integers(-spread, spread + 1, n) * 3
    assume(np.ptp(x) > 0 and np.ptp(y) > 0)
    fig, ax = plt.subplots()
    raw = {"x": x, "y": y} if bivariate else {"x": x}
    logged = len(audit.entries())  # earlier examples of this test have logged theirs
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            kdeplot(method=method, ax=ax, warn_singular=False, **raw)
    except DisclosureError as err:
        # only a refusal this data can meet is a safe outcome, never any refusal
        assert re.search(HEAVY_TIE_REFUSALS.get(method, "^$"), str(err)), f"{method}: {err}"
        assert len(audit.entries()) == logged
        plt.close(fig)
        return
    findings = scan_figure(fig, raw, threshold=3, counts_in_colour=True)
    plt.close(fig)
    assert not findings, str(findings)


def test_clip_bound_on_a_rare_value_is_refused():
    """Refused rather than moved: a moved curve end would point at the value in a vector file."""
    y = np.r_[np.round(np.random.default_rng(5).normal(0, 1, 300), 2), 7.77]
    df = pd.DataFrame({"y": y})
    fig, ax = plt.subplots()
    safeplot.kdeplot(data=df, x="y", clip=(-10, 7.76), ax=ax)
    with pytest.raises(DisclosureError, match="clip bound"):
        safeplot.kdeplot(data=df, x="y", clip=(-10, 7.77))


# -- hue levels too small for the method (DESIGN invariant 10) ----------------------------


def _tiny_level_frame():
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(40, 8, 62), 2)
    g = np.r_[["p"] * 30, ["q"] * 30, ["tiny"] * 2]
    return pd.DataFrame({"x": x, "g": g})


def _legend_texts(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


@pytest.mark.parametrize("method", ["deterministic", "microaggregation"])
def test_a_hue_level_too_small_for_the_method_is_left_out_with_a_note(method):
    from safeplot.plots._common import LEFT_OUT_NOTE
    from safeplot.plots.kde import LEFT_OUT_GID

    df = _tiny_level_frame()
    fig, ax = plt.subplots()
    kdeplot(data=df, x="x", hue="g", method=method, ax=ax)
    assert _legend_texts(ax) == ["p", "q"]
    assert not any("tiny" in t.get_text() for t in fig.findobj(plt.Text))
    assert [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID] == [LEFT_OUT_NOTE]
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert any("1 hue level(s) with fewer than" in w for w in report.warnings)
    assert not any("tiny" in w for w in report.warnings)
    assert report.n == 60  # every record given, rounded
    assert len(ax.lines) + len(ax.collections) >= 2
    assert not scan_figure(fig, {"x": df["x"].to_numpy()}, threshold=3, count_axis=None)
    plt.close(fig)


def test_a_small_level_named_in_hue_order_keeps_its_place():
    df = _tiny_level_frame()
    fig, ax = plt.subplots()
    kdeplot(data=df, x="x", hue="g", hue_order=["p", "tiny", "q"], ax=ax)
    plain, axb = plt.subplots()
    kdeplot(data=df[df["g"] != "tiny"], x="x", hue="g", hue_order=["p", "tiny", "q"], ax=axb)
    # drawn exactly as a level without records is
    assert _legend_texts(ax) == _legend_texts(axb)
    assert ax.safeplot_report.details["groups_left_out"] == 1
    plt.close(fig)
    plt.close(plain)


def test_refused_only_when_every_hue_level_is_too_small():
    df = pd.DataFrame({"x": np.arange(8.0) * 1.37, "g": list("aabbccdd")})
    with pytest.raises(DisclosureError, match="every hue level has fewer than 3 records"):
        kdeplot(data=df, x="x", hue="g", method="deterministic")
    assert audit.entries() == []


def test_a_small_level_is_still_refused_where_the_values_are_the_records_own():
    # O'Keefe's density keeps each record's winsorised value: leaving the level out, the
    # density without hue less the one drawn would be the density of the level's records
    df = _tiny_level_frame()
    with pytest.raises(DisclosureError, match="hue level 'tiny' has fewer than threshold=3"):
        kdeplot(data=df, x="x", hue="g", method="confidential")
    assert audit.entries() == []


@pytest.mark.parametrize("method", ["probabilistic", "rounding"])
def test_a_small_level_is_refused_where_each_record_is_released_on_its_own(method):
    # keyed noise and rounding release each record as the figure without hue does: the
    # density of the level would be a statistic of 2 records, and leaving it out would let
    # the difference of the two figures give it; refused, naming the alternative
    df = _tiny_level_frame()
    with pytest.raises(DisclosureError, match=r"kdeplot: 1 hue level.*method='deterministic'"):
        kdeplot(data=df, x="x", hue="g", method=method)
    assert audit.entries() == []


@pytest.mark.parametrize("bivariate", [False, True])
@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_a_small_level_is_left_out_under_the_count_methods(method, bivariate):
    # a level of 2 records has no bin of threshold records: it draws nothing, and is not
    # named either (invariant 3); the report and the note say a group was left out
    from safeplot.plots._common import LEFT_OUT_NOTE

    rng = np.random.default_rng(2)
    df = pd.DataFrame(
        {
            "x": np.round(rng.normal(40, 8, 602), 2),
            "y": np.round(rng.normal(0, 1, 602), 2),
            "g": np.r_[["p"] * 300, ["q"] * 300, ["tiny"] * 2],
        }
    )
    fig, ax = plt.subplots()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # sparse bins: no contour at some levels
        kdeplot(data=df, x="x", y="y" if bivariate else None, hue="g", method=method, ax=ax)
    assert not any("tiny" in t.get_text() for t in fig.findobj(plt.Text))
    assert LEFT_OUT_NOTE in [t.get_text() for t in fig.findobj(plt.Text)]
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue level(s) with fewer than 3 records (threshold=3) are not drawn." in (
        report.warnings
    )
    plt.close(fig)
