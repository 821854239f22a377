"""qqplot, residplot and regplot: released numbers, leak scans, floors, errors, reports."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
import statsmodels.formula.api as smf
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.figure import Figure
from scipy import stats

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize import add_keyed_noise, rare_values, round_sig
from safeplot.anonymize.confidential import lowess_trend
from safeplot.datasets import simulate
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.regression import (
    QQ_METHODS,
    QQRelease,
    draw_qq,
    qqplot,
    regplot,
    release_qq,
    residplot,
)

from .leakscan import scan_figure
from .test_relational import brute_knn

SAFE = [m for m in QQ_METHODS if m != "none"]


# -- data ----------------------------------------------------------------------------------


def _frames():
    """D1 with planted unique outliers and high-leverage points; heavy-tie integers."""
    df = simulate("D1", n=300, seed=3)
    df.loc[0, ["x", "y"]] = [13.1234, 25.4321]  # high leverage, large residual
    df.loc[1, ["x", "y"]] = [6.5432, 1.2345]  # high leverage, on the line's side
    df.loc[2, ["x", "y"]] = [10.01, 17.77]  # outlier in y
    rng = np.random.default_rng(5)
    x = rng.integers(0, 12, 300).astype(float)
    y = x + rng.integers(-3, 4, 300)
    x[:3], y[:3] = [40.0, -7.0, 25.0], [55.0, -20.0, 3.0]
    return {"outliers": df, "ties": pd.DataFrame({"x": x, "y": y})}


FRAMES = _frames()


def ols(df):
    return smf.ols("y ~ x", data=df).fit()


def qq_raw(values):
    """Theoretical and sample quantiles as statsmodels computes them."""
    pp = sm.ProbPlot(np.asarray(values, float))
    return pp.theoretical_quantiles, pp.sample_quantiles


def markers(ax):
    return [c for c in ax.collections if isinstance(c, PathCollection) and len(c.get_offsets())]


# -- qqplot: released numbers --------------------------------------------------------------


def test_qq_raw_points_are_statsmodels():
    data = simulate("D2", n=200, seed=4)["y"]
    with safeplot.policy(allow_raw=True):
        rel = release_qq(data, method="none", line="r")
    tq, sq = qq_raw(data)
    np.testing.assert_allclose(rel.x, tq)
    np.testing.assert_allclose(rel.y, sq)
    slope, intercept = np.polyfit(tq, sq, 1)
    np.testing.assert_allclose(rel.line_y, intercept + slope * rel.line_x)


def test_qq_deterministic_is_knn_of_the_qq_points():
    data = simulate("D1", n=150, seed=2)["y"]
    rel = release_qq(data, method="deterministic", k=3)
    tq, sq = qq_raw(data)
    expected = brute_knn(np.column_stack([tq, sq]), 3)
    np.testing.assert_allclose(rel.x, expected[:, 0], rtol=1e-6)
    np.testing.assert_allclose(rel.y, expected[:, 1], rtol=1e-6)
    assert rel.kind == "points" and rel.report.params["k"] == 3


def test_qq_deterministic_keeps_tail_direction_and_large_k_shrinks_it():
    """Right-skewed data: the upper tail still bends up at k=3; at k=50 the extremes shrink."""
    data = np.random.default_rng(11).lognormal(0, 0.6, 500)
    tq, sq = qq_raw(data)
    r3 = release_qq(data, method="deterministic", k=3, line="s")
    r50 = release_qq(data, method="deterministic", k=50, line="s")
    top = np.argsort(r3.x)[-10:]
    line_at = float(round_sig(np.mean(sq), 3)) + float(round_sig(np.std(sq), 3)) * r3.x[top]
    assert (r3.y[top] > line_at).all()
    # the paper's finding: with a large k the extreme quantiles move toward the centre
    centre = np.median(sq)
    assert r50.y.max() - centre < 0.8 * (r3.y.max() - centre)
    assert r3.y.max() < sq.max()
    # seeded numbers: raw max 8.79, released max 6.82 at k=3 and 3.54 at k=50 (the paper's
    # scaling, with no re-centring of the centroids)
    assert sq.max() == pytest.approx(8.795, abs=1e-3)
    assert r3.y.max() == pytest.approx(6.819, abs=1e-3)
    assert r50.y.max() == pytest.approx(3.537, abs=1e-3)


def test_qq_probabilistic_on_points_and_noise_first():
    data = simulate("D1", n=200, seed=5)["y"].to_numpy()
    pol = safeplot.get_policy()
    tq, sq = qq_raw(data)
    rel = release_qq(data, method="probabilistic", q=0.5, name="y")
    expected = add_keyed_noise(
        np.column_stack([tq, sq]), 0.5, names=["Theoretical Quantiles", "y"], policy=pol
    )
    np.testing.assert_allclose(np.c_[rel.x, rel.y], expected)
    first = release_qq(data, method="probabilistic", q=0.5, noise_first=True, name="y")
    noisy = add_keyed_noise(data, 0.5, names=["y"], policy=pol)
    np.testing.assert_allclose(first.x, tq)
    np.testing.assert_allclose(first.y, np.sort(noisy.ravel()))
    assert (np.diff(first.y) >= 0).all()  # a monotone Q-Q line
    assert first.report.params["noise_first"] is True


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_qq_grid_cells(method):
    data = simulate("D1", n=500, seed=6)["y"]
    rel = release_qq(data, method=method, line="45")
    assert rel.kind == "cells"
    assert (rel.sizes >= 3).all()
    assert rel.sizes.sum() + rel.report.cells_suppressed <= 500
    assert rel.sizes.sum() > 400
    assert len(rel.x) == len(rel.sizes) < (30 if method == "suppress" else 15) ** 2


def test_qq_confidential_is_a_smooth_line_without_points():
    data = simulate("D2", n=400, seed=7)["y"]
    tq, sq = qq_raw(data)
    fig = qqplot(data, method="confidential", line="q")
    ax = fig.axes[0]
    rel = release_qq(data, method="confidential", line="q")
    xs, ys = lowess_trend(tq, sq, it=3, avoid_y=rare_values(sq, 3))
    np.testing.assert_allclose(rel.x, xs)
    np.testing.assert_allclose(rel.y, ys)
    assert rel.kind == "curve"
    assert not markers(ax)
    assert all(line.get_marker() in ("None", None, "") for line in ax.lines)
    assert ys[0] == round_sig(ys[0], 3) and ys[-1] == round_sig(ys[-1], 3)
    assert "values_winsorised" in ax.safeplot_report.details


@pytest.mark.parametrize("line", ["s", "r", "q"])
def test_qq_reference_line_rounded_and_over_released_range(line):
    data = simulate("D2", n=300, seed=8)["y"].to_numpy()
    tq, sq = qq_raw(data)
    if line == "s":
        slope, icpt = np.std(sq), np.mean(sq)
    elif line == "r":
        slope, icpt = np.polyfit(tq, sq, 1)
    else:
        q25, q75 = np.percentile(sq, [25, 75])
        t25, t75 = stats.norm.ppf([0.25, 0.75])
        slope = (q75 - q25) / (t75 - t25)
        icpt = q25 - slope * t25
    rel = release_qq(data, method="deterministic", line=line)
    slope, icpt = round_sig(slope, 3), round_sig(icpt, 3)
    assert rel.report.details["line_slope"] == slope
    assert rel.report.details["line_intercept"] == icpt
    np.testing.assert_allclose(rel.line_y, icpt + slope * rel.line_x, rtol=1e-6)
    assert rel.line_x[0] >= rel.x.min() - 1e-9 and rel.line_x[-1] <= rel.x.max() + 1e-9


def test_qq_45_line_spans_both_axes():
    data = simulate("D1", n=200, seed=9)["y"]
    rel = release_qq(data, line="45")
    assert rel.xlim == rel.ylim
    np.testing.assert_allclose(rel.line_x, rel.xlim)
    np.testing.assert_allclose(rel.line_y, rel.xlim)


def test_qq_fit_and_other_distributions():
    data = simulate("D2", n=200, seed=10)["x"]  # lognormal
    fig = qqplot(data, stats.t, distargs=(4,), line="45")
    assert fig.axes[0].safeplot_report.params["dist"] == "t"
    fig = qqplot(data, stats.lognorm, fit=True, line="45")
    assert fig.axes[0].safeplot_report.params["fit"] is True
    pp = sm.ProbPlot(data.to_numpy(), stats.lognorm, fit=True)
    rel = release_qq(data, dist=stats.lognorm, fit=True, method="deterministic")
    np.testing.assert_allclose(
        rel.x,
        brute_knn(np.c_[pp.theoretical_quantiles, pp.sample_quantiles], 3)[:, 0],
        rtol=1e-6,
    )


def test_qq_microaggregation_and_rounding():
    data = simulate("D1", n=200, seed=12)["y"]
    rel = release_qq(data, method="microaggregation", k=4)
    _, counts = np.unique(np.c_[rel.x, rel.y], axis=0, return_counts=True)
    assert counts.min() >= 4
    fig = qqplot(data, method="rounding", c=5)
    rel_r = fig.axes[0].safeplot_report
    assert rel_r.params["c"] == 5
    ys = fig.axes[0].lines[0].get_ydata()
    assert len(np.unique(np.round(ys, 6))) <= 5


# -- qqplot: the statsmodels workflow and the public function -------------------------------


def test_statsmodels_workflow():
    df = simulate("D1", n=300, seed=1)
    model = smf.ols("y ~ x", data=df).fit()
    n_figs = len(plt.get_fignums())
    fig = qqplot(model.resid, line="45", method="deterministic")
    assert isinstance(fig, Figure)
    assert len(plt.get_fignums()) == n_figs + 1
    ax = fig.axes[0]
    assert ax.safeplot_report.method == "deterministic"
    assert ax.safeplot_report.function == "qqplot"
    assert ax.get_xlabel() == "Theoretical Quantiles"
    assert ax.get_ylabel() == "Sample Quantiles"
    entries = audit.entries()
    assert len(entries) == 1 and entries[0].function == "qqplot"
    assert [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    found = scan_figure(fig, {"y": model.resid.to_numpy()}, count_axis=None)
    assert not found, str(found)


def test_qqplot_on_given_axes_returns_its_figure_and_plotkwargs():
    fig, ax = plt.subplots()
    out = qqplot(np.random.default_rng(0).normal(size=100), ax=ax, color="k", annotate=False)
    assert out is fig
    assert ax.lines[0].get_color() == "k"
    assert not [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]


def test_draw_qq_does_not_attach():
    rel = release_qq(np.random.default_rng(1).normal(size=100), line="s")
    assert isinstance(rel, QQRelease)
    fig, ax = plt.subplots()
    draw_qq(ax, rel)
    assert getattr(ax, "safeplot_report", None) is None
    assert audit.entries() == []
    assert ax.get_xlim() == pytest.approx(rel.xlim)


# -- residplot -----------------------------------------------------------------------------


def test_residplot_deterministic_releases_knn_of_x_and_residuals():
    df = simulate("D1", n=200, seed=13)
    fig, ax = plt.subplots()
    residplot(data=df, x="x", y="y", ax=ax)
    slope, icpt = np.polyfit(df.x, df.y, 1)
    resid = df.y - (icpt + slope * df.x)
    expected = brute_knn(np.c_[df.x, resid], 3)
    (coll,) = markers(ax)
    np.testing.assert_allclose(coll.get_offsets(), expected, rtol=1e-6, atol=1e-9)
    assert ax.safeplot_report.variables == ("x", "residuals")
    assert ax.safeplot_report.function == "residplot"
    # the zero line, drawn across the safe x axis
    zero = [ln for ln in ax.lines if ln.get_linestyle() == ":"]
    assert (
        zero
        and np.allclose(zero[0].get_ydata(), 0)
        and np.allclose(zero[0].get_xdata(), ax.get_xlim())
    )


def test_residplot_order_and_robust_residuals():
    df = simulate("D1", n=200, seed=14)
    with safeplot.policy(allow_raw=True):
        fig, (a, b) = plt.subplots(1, 2)
        residplot(data=df, x="x", y="y", robust=True, method="none", ax=a)
        residplot(data=df, x="x", y="y", order=2, method="deterministic", ax=b)
    rlm = sm.RLM(df.y, sm.add_constant(df.x)).fit()
    np.testing.assert_allclose(markers(a)[0].get_offsets()[:, 1], rlm.resid, rtol=1e-6)
    poly = df.y - np.polyval(np.polyfit(df.x, df.y, 2), df.x)
    np.testing.assert_allclose(
        markers(b)[0].get_offsets(), brute_knn(np.c_[df.x, poly], 3), rtol=1e-6
    )


def test_residplot_lowess_is_the_winsorised_trend():
    df = simulate("D1", n=200, seed=15)
    fig, ax = plt.subplots()
    residplot(data=df, x="x", y="y", lowess=True, method="probabilistic", ax=ax)
    slope, icpt = np.polyfit(df.x, df.y, 1)
    resid = (df.y - (icpt + slope * df.x)).to_numpy()
    xs, ys = lowess_trend(
        df.x.to_numpy(),
        resid,
        avoid_x=rare_values(df.x, 3),
        avoid_y=np.union1d(rare_values(resid, 3), rare_values(df.y, 3)),
    )
    trend = [ln for ln in ax.lines if ln.get_linestyle() == "-"]
    assert len(trend) == 1
    np.testing.assert_allclose(trend[0].get_xdata(), xs)
    np.testing.assert_allclose(trend[0].get_ydata(), ys)
    assert xs[0] > df.x.min() and xs[-1] < df.x.max()
    assert ax.safeplot_report.params["lowess"] is True


def test_residplot_grid_and_confidential():
    df = simulate("D1", n=500, seed=16)
    fig, (a, b) = plt.subplots(1, 2)
    residplot(data=df, x="x", y="y", method="suppress", ax=a)
    residplot(data=df, x="x", y="y", method="confidential", ax=b)
    assert (markers(a)[0].get_sizes() > 0).all()
    assert a.safeplot_report.params["threshold"] == 3
    assert not markers(b) and b.patches  # boxes, not points
    assert b.safeplot_report.method == "confidential"


def test_residplot_partial():
    rng = np.random.default_rng(17)
    z = rng.normal(size=200)
    x = z + rng.normal(size=200)
    y = 2 * x + z + rng.normal(size=200)
    df = pd.DataFrame({"x": x, "y": y, "z": z})
    fig, ax = plt.subplots()
    residplot(data=df, x="x", y="y", x_partial="z", ax=ax)
    xp = x - x.mean()
    zc = z - z.mean()
    xp = xp - zc * (zc @ xp) / (zc @ zc) + x.mean()
    slope, icpt = np.polyfit(xp, y, 1)
    expected = brute_knn(np.c_[xp, y - icpt - slope * xp], 3)
    np.testing.assert_allclose(markers(ax)[0].get_offsets(), expected, rtol=1e-6, atol=1e-9)


def test_residplot_perfect_fit_refused():
    df = pd.DataFrame({"x": np.arange(20.0), "y": 3 * np.arange(20.0) + 1})
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="fits y exactly"):
        residplot(data=df, x="x", y="y")
    assert plt.get_fignums() == before
    assert audit.entries() == []


# -- regplot -------------------------------------------------------------------------------


def test_regplot_line_and_band_over_released_range():
    df = FRAMES["outliers"]
    fig, ax = plt.subplots()
    regplot(data=df, x="x", y="y", n_boot=100, seed=0, ax=ax)
    (coll,) = markers(ax)
    px = coll.get_offsets()[:, 0]
    np.testing.assert_allclose(coll.get_offsets(), brute_knn(df[["x", "y"]], 3), rtol=1e-6)
    (line,) = [ln for ln in ax.lines if len(ln.get_xdata()) == 100]
    gx, gy = line.get_xdata(), line.get_ydata()
    assert gx[0] == pytest.approx(px.min()) and gx[-1] == pytest.approx(px.max())
    assert gx[0] > df.x.min() and gx[-1] < df.x.max()  # not the raw extremes
    slope, icpt = np.polyfit(df.x, df.y, 1)
    # the fit on the records, rounded to 3 significant figures of the range of y (a
    # statistic, DESIGN.md invariant 4): steps of 10**(floor(log10(range)) - 2)
    step = 10.0 ** (np.floor(np.log10(np.ptp(df.y))) - 2)
    np.testing.assert_allclose(gy, icpt + slope * gx, atol=step / 2 + 1e-12)
    np.testing.assert_allclose(gy / step, np.round(gy / step), atol=1e-6)
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    verts = band.get_paths()[0].vertices
    assert verts[:, 0].min() >= gx[0] - 1e-9 and verts[:, 0].max() <= gx[-1] + 1e-9
    np.testing.assert_allclose(verts[:, 1] / step, np.round(verts[:, 1] / step), atol=1e-6)


@pytest.mark.parametrize("method", ["deterministic", "suppress", "microaggregation"])
def test_regplot_truncate_false_extends_the_fit_to_the_x_limits(method):
    """seaborn's truncate=False: the line and band span the Axes' (released) x limits."""
    df = FRAMES["outliers"]
    fig, axes = plt.subplots(1, 2)
    for ax, truncate in zip(axes, (True, False), strict=True):
        regplot(data=df, x="x", y="y", n_boot=100, seed=0, truncate=truncate, method=method, ax=ax)
    ends = []
    for ax in axes:
        (line,) = [ln for ln in ax.lines if len(ln.get_xdata()) == 100]
        ends.append(np.asarray(line.get_xdata())[[0, -1]])
        (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
        bx = band.get_paths()[0].vertices[:, 0]
        assert (bx.min(), bx.max()) == pytest.approx(tuple(ends[-1]), rel=1e-12)
    lo, hi = axes[1].get_xlim()
    assert tuple(ends[1]) == pytest.approx((lo, hi), rel=1e-12)
    lo, hi = axes[0].get_xlim()
    assert ends[0][0] > lo and ends[0][1] < hi  # only over the released x range
    assert ends[1][0] < ends[0][0] and ends[1][1] > ends[0][1]
    found = scan_figure(fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()})
    assert not found, str(found)
    plt.close(fig)


def test_regplot_x_bins_estimates_from_groups_of_threshold():
    df = simulate("D1", n=300, seed=18)
    fig, ax = plt.subplots()
    regplot(data=df, x="x", y="y", x_bins=4, ci=None, x_ci="sd", ax=ax)
    centres = round_sig(np.percentile(df.x, [20, 40, 60, 80]), 3)
    groups = centres[np.argmin(np.abs(np.subtract.outer(df.x.to_numpy(), centres)), axis=1)]
    means = [df.y[groups == c].mean() for c in centres]
    (coll,) = markers(ax)
    np.testing.assert_allclose(coll.get_offsets()[:, 0], centres, rtol=1e-6)
    # each group's mean outcome is a statistic of its records: rounded to the policy's figures
    np.testing.assert_allclose(coll.get_offsets()[:, 1], round_sig(means, 3), rtol=1e-12)
    assert not np.allclose(coll.get_offsets()[:, 1], means, rtol=1e-6)
    assert ax.safeplot_report.details["groups_shown"] == 4


def test_regplot_x_estimator_suppresses_small_groups():
    rng = np.random.default_rng(19)
    x = np.r_[np.repeat([1.0, 2.0, 3.0], 10), [4.0, 4.0]]
    df = pd.DataFrame({"x": x, "y": x + rng.normal(size=x.size)})
    fig, ax = plt.subplots()
    regplot(data=df, x="x", y="y", x_estimator=np.mean, n_boot=100, seed=1, ax=ax)
    (coll,) = markers(ax)
    np.testing.assert_allclose(coll.get_offsets()[:, 0], [1, 2, 3])
    assert ax.safeplot_report.cells_suppressed == 1
    cont = simulate("D1", n=100, seed=2)
    with pytest.raises(DisclosureError, match="x_bins"):
        regplot(data=cont, x="x", y="y", x_estimator=np.mean)


def test_regplot_logistic_lowess_jitter_confidential():
    rng = np.random.default_rng(20)
    x = rng.normal(size=300)
    y = (x + rng.normal(size=300) > 0).astype(float)
    df = pd.DataFrame({"x": x, "y": y})
    fig, axes = plt.subplots(1, 4)
    regplot(data=df, x="x", y="y", logistic=True, n_boot=50, seed=0, ax=axes[0])
    assert axes[0].safeplot_report.params["logistic"] is True
    d1 = simulate("D1", n=200, seed=21)
    regplot(data=d1, x="x", y="y", lowess=True, ax=axes[1])
    trend = axes[1].lines[-1]
    xs, ys = lowess_trend(d1.x.to_numpy(), d1.y.to_numpy())
    np.testing.assert_allclose(trend.get_ydata(), ys)
    regplot(data=d1, x="x", y="y", x_jitter=0.1, seed=3, ci=None, ax=axes[2])
    off = markers(axes[2])[0].get_offsets()
    assert np.abs(off[:, 0] - brute_knn(d1[["x", "y"]], 3)[:, 0]).max() <= 0.1
    regplot(data=d1, x="x", y="y", method="confidential", ci=None, ax=axes[3])
    assert not markers(axes[3]) and axes[3].patches


def test_regplot_units_bootstrap():
    d1 = simulate("D1", n=120, seed=26)
    d1["unit"] = np.repeat(np.arange(20), 6)
    fig, ax = plt.subplots()
    regplot(data=d1, x="x", y="y", units="unit", n_boot=50, seed=0, ax=ax)
    (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert band.get_paths()[0].vertices.shape[0] > 100


def test_regplot_mutually_exclusive_and_per_point_kws():
    d1 = simulate("D1", n=100, seed=22)
    with pytest.raises(ValueError, match="Mutually exclusive"):
        regplot(data=d1, x="x", y="y", robust=True, lowess=True)
    with pytest.raises(ValueError, match="per-point"):
        regplot(data=d1, x="x", y="y", scatter_kws={"s": d1.y.to_numpy()})
    assert plt.get_fignums() == []


# -- leak scans ----------------------------------------------------------------------------


def _scan_qq(df, method, line):
    resid = ols(df).resid
    with safeplot.policy(allow_raw=True):
        fig = qqplot(resid, line=line, method=method)
    return scan_figure(fig, {"x": resid.to_numpy(), "y": resid.to_numpy()}, count_axis=None)


def _scan_resid(df, method, kw):
    model = ols(df)
    fig, ax = plt.subplots()
    with safeplot.policy(allow_raw=True):
        residplot(data=df, x="x", y="y", method=method, ax=ax, **kw)
    raw_y = np.r_[model.resid, model.fittedvalues]
    return scan_figure(fig, {"x": df.x.to_numpy(), "y": raw_y}, count_axis=None)


def _scan_reg(df, method, kw):
    fig, ax = plt.subplots()
    with safeplot.policy(allow_raw=True):
        regplot(data=df, x="x", y="y", method=method, n_boot=100, seed=0, ax=ax, **kw)
    return scan_figure(fig, {"x": df.x.to_numpy(), "y": df.y.to_numpy()}, count_axis=None)


@pytest.mark.parametrize("frame", sorted(FRAMES))
@pytest.mark.parametrize("method", SAFE)
def test_no_leaks(frame, method):
    df = FRAMES[frame]
    for line in ("45", "s", "r", "q"):
        found = _scan_qq(df, method, line)
        assert not found, f"qqplot line={line}: {found}"
    for kw in ({}, {"lowess": True}, {"order": 2}):
        found = _scan_resid(df, method, kw)
        assert not found, f"residplot {kw}: {found}"
    for kw in ({}, {"lowess": True}, {"order": 2}, {"x_bins": 4}, {"x_jitter": 0.1}):
        found = _scan_reg(df, method, kw)
        assert not found, f"regplot {kw}: {found}"


@pytest.mark.parametrize("frame", sorted(FRAMES))
def test_scanner_flags_raw_output(frame):
    df = FRAMES[frame]
    assert _scan_qq(df, "none", "45").leaks
    assert _scan_resid(df, "none", {}).leaks
    assert _scan_reg(df, "none", {}).leaks


# -- floors, bad input, reports -------------------------------------------------------------


def _calls(method="deterministic", **kw):
    df = simulate("D1", n=100, seed=23)
    return [
        lambda: qqplot(df.y, method=method, **kw),
        lambda: residplot(data=df, x="x", y="y", method=method, **kw),
        lambda: regplot(data=df, x="x", y="y", method=method, n_boot=50, **kw),
    ]


@pytest.mark.parametrize(
    "method, kw",
    [
        ("deterministic", {"k": 2}),
        ("probabilistic", {"q": 0.1}),
        ("suppress", {"threshold": 2}),
        ("none", {}),
    ],
)
def test_floors(method, kw):
    for call in _calls(method, **kw):
        with pytest.raises(DisclosureError):
            call()
        assert plt.get_fignums() == []
        assert audit.entries() == []


BAD_QQ = [
    (np.full(50, 3.0), DisclosureError, "constant"),
    (np.random.default_rng(0).normal(size=5), DisclosureError, "records"),
    (np.full(50, np.nan), ValueError, "all missing"),
    (np.array(["a", "b", "c"] * 10), ValueError, "not numeric"),
    (np.zeros((10, 3)), ValueError, "1-D"),
]


@pytest.mark.parametrize("data, error, match", BAD_QQ)
def test_qqplot_bad_input(data, error, match):
    with pytest.raises(error, match=match):
        qqplot(data, line="45")
    assert plt.get_fignums() == []
    assert audit.entries() == []


def test_bad_options():
    data = np.random.default_rng(1).normal(size=100)
    with pytest.raises(ValueError, match="line not understood"):
        qqplot(data, line="z")
    with pytest.raises(ValueError, match="noise_first"):
        qqplot(data, noise_first=True, method="deterministic")
    with pytest.raises(DisclosureError, match="too large"):
        qqplot(data[:10], method="deterministic", k=8)
    df = pd.DataFrame({"x": list("abcdefghij") * 3, "y": np.arange(30.0)})
    with pytest.raises(ValueError, match="not numeric"):
        residplot(data=df, x="x", y="y")
    with pytest.raises(ValueError, match="needs both"):
        regplot(data=df, x="y")
    with pytest.raises(ValueError, match="no column"):
        residplot(data=df, x="w", y="y")
    assert plt.get_fignums() == []
    assert audit.entries() == []


@pytest.mark.parametrize("method", SAFE)
def test_reports_and_notes(method):
    df = simulate("D1", n=200, seed=24)
    fig, axes = plt.subplots(1, 3)
    qqplot(df.y, method=method, line="s", ax=axes[0])
    residplot(data=df, x="x", y="y", method=method, ax=axes[1])
    regplot(data=df, x="x", y="y", method=method, n_boot=50, ax=axes[2], annotate=False)
    for ax in axes:
        assert ax.safeplot_report.method == method
        assert ax.safeplot_report.n == 200
    assert [e.function for e in audit.entries()] == ["qqplot", "residplot", "regplot"]
    notes = [[t for t in ax.texts if t.get_gid() == FOOTNOTE_GID] for ax in axes]
    assert notes[0] and notes[1] and not notes[2]


def test_missing_values_dropped_and_reported():
    df = simulate("D1", n=200, seed=25)
    df.loc[:9, "y"] = np.nan
    fig = qqplot(df.y)
    assert fig.axes[0].safeplot_report.n_dropped == 10
    fig, ax = plt.subplots()
    residplot(data=df, x="x", y="y", ax=ax)
    assert ax.safeplot_report.n_dropped == 10 and ax.safeplot_report.n == 190


def test_qq_grid_is_chosen_by_n_for_points_on_a_curve():
    """Q-Q points lie on a monotone curve: the grid grows with n (n / (4 threshold)), not
    with its square root as a scatter's does; a bins= given is kept."""
    from safeplot.plots.grid import grid_bins_for

    for n, expected in ((120, 10), (500, 30)):
        data = np.random.default_rng(n).normal(size=n)
        rel = release_qq(data, method="suppress")
        assert rel.report.params["bins"] == expected == grid_bins_for(n, 3, curve=True)
        assert grid_bins_for(n, 3) < expected  # finer than a cloud of n points gets
    data = np.random.default_rng(1).normal(size=500)
    assert release_qq(data, method="suppress", bins=12).report.params["bins"] == 12
    assert release_qq(data, method="generalize", bins=12).report.params["bins"] == 6


def test_a_value_held_only_by_a_row_missing_x_is_avoided_too():
    """A y held by one record whose x is missing: the record is dropped from the fit, but the
    value is still rare, and a fitted line rounded onto it would show it (found by the
    seaborn-script scan of mpg, where a bootstrap band landed on such a value now and then).
    The line of y = x + 0.001 is rounded to steps of 0.01 and passes 5.451 at x = 5.45."""
    x = np.repeat(np.linspace(0.05, 9.95, 100), 3)
    frame = pd.DataFrame({"x": np.r_[x, np.nan], "y": np.r_[x + 0.001, 5.45]})
    _, ax = plt.subplots()
    safeplot.regplot(data=frame, x="x", y="y", ci=None, ax=ax)
    drawn = np.round(ax.lines[0].get_ydata(), 9)
    assert 5.44 in drawn or 5.46 in drawn  # the line steps over where 5.45 would be
    assert 5.45 not in drawn
    assert not scan_figure(ax.figure, frame).leaks
