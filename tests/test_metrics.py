"""Tests for safeplot.metrics: utility, disclosure risk and information loss."""

from __future__ import annotations

import math
import statistics
import warnings

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from safeplot import metrics
from safeplot.anonymize import knn_centroids
from safeplot.metrics import (
    InformationLoss,
    RiskResult,
    coefficient_comparison,
    delta,
    distance_linkage,
    drisk_rmd,
    il1s,
    il_dr_score,
    il_metrics,
    interval_disclosure_risk,
    propensity_utility,
)
from safeplot.metrics import risk as risk_module
from safeplot.metrics._mcd import cov_mcd


def normal(n: int = 300, p: int = 2, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, p)) * [1.0, 5.0, 0.3, 2.0][:p] + 10.0


# -- reference implementations (brute force, small inputs) ------------------------------


def ref_delta(x, y):
    x, y = np.atleast_2d(x.T).T, np.atleast_2d(y.T).T
    n, p = x.shape
    out = []
    for j in range(p):
        mean = sum(x[:, j]) / n
        var = sum((v - mean) ** 2 for v in x[:, j]) / (n - 1)
        out.append(sum((a - b) ** 2 for a, b in zip(x[:, j], y[:, j], strict=True)) / (n * var))
    return np.array(out)


def ref_drisk(x, y, w1=0.01, w2=0.05, k=0.05, around="anonymised", scaling="separate"):
    """sdcMicro's dRiskRMDWORK, transcribed loop by loop with a full distance matrix
    (robustbase's covMcd is cov_mcd, tested against robustbase in test_papers.py)."""
    mean, sd = x.mean(0), x.std(0, ddof=1)
    z = (x - mean) / sd
    zm = (y - mean) / sd if scaling == "original" else (y - y.mean(0)) / y.std(0, ddof=1)
    cov = cov_mcd(z, reweighting="fraction").covariance
    inv = np.linalg.pinv(cov)
    n = len(z)
    rmd = np.array([k * math.sqrt(max(z[i] @ inv @ z[i], 0.0)) for i in range(n)])
    at1 = np.array(
        [
            any(
                z[i, j] - w1 * rmd[i] < zm[i, j] < z[i, j] + w1 * rmd[i] for j in range(z.shape[1])
            )
            for i in range(n)
        ]
    )
    centre = zm if around == "anonymised" else z
    dist = np.sqrt(((centre[:, None, :] - zm[None, :, :]) ** 2).sum(-1))
    np.fill_diagonal(dist, np.inf)
    at2 = at1 & (dist.min(axis=1) > w2)
    return at1, at2, rmd


def ref_idr(x, y, p):
    x, y = np.atleast_2d(x.T).T, np.atleast_2d(y.T).T
    n, q = x.shape
    h = math.floor(p * n / 2)
    hits = 0
    for j in range(q):
        released = sorted(y[:, j])
        for i in range(n):
            ranks = [r for r, v in enumerate(released) if v == y[i, j]]
            lo = released[max(min(ranks) - h, 0)]
            hi = released[min(max(ranks) + h, n - 1)]
            hits += lo <= x[i, j] <= hi
    return hits / (n * q)


def ref_idr_sd(x, y, w):
    """IDR as Senavirathne & Torra define it: the share of values within w SDs of the release."""
    x, y = np.atleast_2d(x.T).T, np.atleast_2d(y.T).T
    n, q = x.shape
    hits = 0
    for j in range(q):
        sd = statistics.stdev(y[:, j])
        for i in range(n):
            hits += y[i, j] - w * sd <= x[i, j] <= y[i, j] + w * sd
    return hits / (n * q)


def ref_ddr_published(x, y, ties):
    """Each anonymised record linked to its nearest original record (full distance matrix)."""
    mean, sd = x.mean(0), x.std(0, ddof=1)
    z, zm = (x - mean) / sd, (y - mean) / sd
    dist = np.sqrt(((zm[:, None, :] - z[None, :, :]) ** 2).sum(-1))
    total = 0.0
    for i in range(len(z)):
        close = np.isclose(dist[i], dist[i].min(), rtol=1e-9, atol=0)
        if close[i]:
            total += 1.0 if ties == "link" else 1.0 / close.sum()
    return total / len(z)


def ref_ddr(x, y, ties):
    mean, sd = x.mean(0), x.std(0, ddof=1)
    z, zm = (x - mean) / sd, (y - mean) / sd
    dist = np.sqrt(((z[:, None, :] - zm[None, :, :]) ** 2).sum(-1))
    total = 0.0
    for i in range(len(z)):
        nearest = dist[i].min()
        close = np.isclose(dist[i], nearest, rtol=1e-9, atol=0)
        if close[i]:
            total += 1.0 if ties == "link" else 1.0 / close.sum()
    return total / len(z)


# -- identical, separated and hand-computed data ----------------------------------------


def test_identical_data_give_the_extremes():
    x = normal(400, 3)
    assert propensity_utility(x, x) == pytest.approx(0.0, abs=1e-12)
    assert propensity_utility(x, x, degree=2) == pytest.approx(0.0, abs=1e-12)
    np.testing.assert_array_equal(delta(x, x).to_numpy(), 0.0)
    res = drisk_rmd(x, x)
    assert res.risk1 == 1.0 and res.at_risk1.all()
    assert distance_linkage(x, x) == 1.0
    assert distance_linkage(x, x, ties="share") == 1.0
    assert interval_disclosure_risk(x, x) == 1.0
    assert il1s(x, x) == 0.0
    assert il_metrics(x, x) == InformationLoss(0.0, 0.0, 0.0, 0.0, 0.0)
    assert il_dr_score(x, x) == pytest.approx(0.5)


def test_fully_separated_data_give_u_near_quarter():
    x = normal(300, 2)
    u = propensity_utility(x, x + 100.0)
    assert 0.249 < u <= 0.25
    assert 0.249 < propensity_utility(x, x + 100.0, degree=2) <= 0.25


def test_quadratic_terms_see_a_change_of_spread_that_main_effects_miss():
    x = normal(2000, 2, seed=3)
    mean = x.mean(0)
    wide = mean + 2.0 * (x - mean)  # same means, twice the SD
    assert propensity_utility(x, wide) < 1e-6
    assert propensity_utility(x, wide, degree=2) > 0.01


def test_propensity_matches_unpenalised_statsmodels_logit():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(300, 2))
    y = x + rng.normal(0.3, 0.8, size=(300, 2))
    stacked = np.vstack([x, y])
    t = np.repeat([0, 1], 300)
    fit = sm.Logit(t, sm.add_constant(stacked)).fit(disp=0)
    expected = np.mean((fit.predict(sm.add_constant(stacked)) - 0.5) ** 2)
    assert propensity_utility(x, y) == pytest.approx(expected, rel=1e-6)


def test_delta_hand_computed():
    x = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [0.0, 0.0, 1.0, 1.0]})
    y = pd.DataFrame({"a": [1.0, 2.0, 3.0, 6.0], "b": [1.0, 0.0, 1.0, 0.0]})
    out = delta(x, y)
    # a: (6-4)^2 = 4 over 4 * var(a) = 4 * 5/3; b: 2 over 4 * var(b) = 4 * 1/3
    assert list(out.index) == ["a", "b"]
    np.testing.assert_allclose(out.to_numpy(), [0.6, 1.5])
    np.testing.assert_allclose(out.to_numpy(), ref_delta(x.to_numpy(), y.to_numpy()))


def test_delta_matches_reference_on_random_data():
    x = normal(50, 3, seed=1)
    y = knn_centroids(x, 3).values
    np.testing.assert_allclose(delta(x, y).to_numpy(), ref_delta(x, y), rtol=1e-12)
    assert list(delta(x, y).index) == ["x0", "x1", "x2"]


def test_il1s_hand_computed_and_half_of_sdcmicro_code():
    x = np.array([[1.0], [2.0], [3.0]])
    # a sum over the values, the scale of Senavirathne & Torra's tables
    assert il1s(x, x + 1) == pytest.approx(3 / math.sqrt(2))
    assert il1s(x, x + 1, normalize=True) == pytest.approx(1 / math.sqrt(2))
    # sdcMicro's dUtility code: mean of |x - xm| / sd * sqrt(2) (twice the printed formula)
    x2 = normal(100, 2)
    y2 = knn_centroids(x2, 5).values
    sdcmicro = np.mean(np.abs(x2 - y2) / x2.std(0, ddof=1) * math.sqrt(2))
    assert il1s(x2, y2, normalize=True) == pytest.approx(sdcmicro / 2)
    assert il1s(x2, y2) == pytest.approx(sdcmicro / 2 * x2.size)


def test_il_metrics_reference():
    """Domingo-Ferrer & Torra's mean variations, written out term by term."""
    x = normal(200, 3, seed=2)
    y = x + np.random.default_rng(9).normal(0, 0.5, size=x.shape)
    il = il_metrics(x, y)
    n, p = x.shape
    cx, cy = np.cov(x, rowvar=False), np.cov(y, rowvar=False)
    rx, ry = np.corrcoef(x, rowvar=False), np.corrcoef(y, rowvar=False)
    mx, my = x.mean(0), y.mean(0)
    values = sum(abs(x[i, j] - y[i, j]) / abs(x[i, j]) for i in range(n) for j in range(p))
    upper = [(a, b) for a in range(p) for b in range(a, p)]
    pairs = [(a, b) for a in range(p) for b in range(a + 1, p)]
    assert il.values == pytest.approx(values / (n * p))
    assert il.means == pytest.approx(np.mean([abs(mx[j] - my[j]) / abs(mx[j]) for j in range(p)]))
    assert il.covariances == pytest.approx(
        np.mean([abs(cx[a, b] - cy[a, b]) / abs(cx[a, b]) for a, b in upper])
    )
    assert il.variances == pytest.approx(
        np.mean([abs(cx[j, j] - cy[j, j]) / cx[j, j] for j in range(p)])
    )
    assert il.correlations == pytest.approx(np.mean([abs(rx[a, b] - ry[a, b]) for a, b in pairs]))
    parts = [il.values, il.means, il.covariances, il.variances, il.correlations]
    assert il.value == pytest.approx(100 * np.mean(parts))
    assert il.scale == "statistic"


def test_il_metrics_sd_scale_variant():
    x = normal(200, 3, seed=2)
    y = x + np.random.default_rng(9).normal(0, 0.5, size=x.shape)
    il = il_metrics(x, y, scale="sd")
    sx = x.std(0, ddof=1)
    cx, cy = np.cov(x, rowvar=False), np.cov(y, rowvar=False)
    upper = np.triu_indices(3)
    assert il.values == pytest.approx(np.mean(np.abs(x - y) / sx))
    assert il.means == pytest.approx(np.mean(np.abs(x.mean(0) - y.mean(0)) / sx))
    assert il.covariances == pytest.approx(np.mean((np.abs(cx - cy) / np.outer(sx, sx))[upper]))
    published = il_metrics(x, y)
    assert il.variances == published.variances and il.correlations == published.correlations
    # unchanged by a shift of origin, unlike the published relative changes
    shifted = il_metrics(x - 10.0, y - 10.0, scale="sd")
    assert shifted.value == pytest.approx(il.value)
    assert il_metrics(x - 10.0, y - 10.0).value != pytest.approx(published.value)
    with pytest.raises(ValueError, match="scale"):
        il_metrics(x, y, scale="range")


def test_il_metrics_single_variable_zero_statistics_and_constant_release():
    x = normal(100, 1)
    il = il_metrics(x, x * 2)
    assert math.isnan(il.correlations)
    assert (il.values, il.means, il.covariances, il.variances) == pytest.approx((1, 1, 3, 3))
    assert il.value == pytest.approx(100 * 8 / 4)
    # a value of exactly 0 has no relative change: it is left out of the average
    z = np.array([[0.0], [1.0], [2.0], [4.0]])
    y = z + 1.0
    assert il_metrics(z, y).values == pytest.approx(np.mean([1 / 1, 1 / 2, 1 / 4]))
    x2 = normal(100, 2)
    flat = x2.copy()
    flat[:, 1] = 7.0  # a released variable that became constant: correlation taken as 0
    r = np.corrcoef(x2, rowvar=False)[0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert il_metrics(x2, flat).correlations == pytest.approx(abs(r))


def test_il_dr_score_is_the_mean_of_its_parts():
    x = normal(300, 2)
    y = knn_centroids(x, 5).values
    expected = 0.25 * (
        il_metrics(x, y).value
        + il1s(x, y)
        + distance_linkage(x, y)
        + interval_disclosure_risk(x, y, w=0.1)
    )
    assert il_dr_score(x, y, w=0.1) == pytest.approx(expected)


# -- coefficient comparison -------------------------------------------------------------


def regression_data(n=200, seed=1):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"x": rng.normal(size=n), "z": rng.normal(size=n)})
    df["y"] = 1.0 + 2.0 * df["x"] - df["z"] + rng.normal(size=n)
    return df


def test_coefficients_identical_data():
    df = regression_data()
    table = coefficient_comparison("y ~ x + z", df, df)
    assert list(table.index) == ["Intercept", "x", "z"]
    assert list(table.columns) == ["b_or", "b_an", "se_or", "se_an", "std_diff", "ci_overlap"]
    np.testing.assert_array_equal(table["std_diff"], 0.0)
    np.testing.assert_allclose(table["ci_overlap"], 1.0)


@pytest.mark.parametrize("shift", [0.05, 0.3, 5.0])
def test_coefficients_shifted_outcome_known_answer(shift):
    """Shifting y moves only the intercept, by `shift`: both measures are then exact."""
    df = regression_data()
    moved = df.assign(y=df["y"] + shift)
    table = coefficient_comparison("y ~ x + z", df, moved)
    fit = sm.OLS(df["y"], sm.add_constant(df[["x", "z"]])).fit()
    se = fit.bse["const"]
    half_width = stats.t.ppf(0.975, fit.df_resid) * se
    assert table.loc["Intercept", "std_diff"] == pytest.approx(shift / se)
    # equal widths 2w, offset c: overlap (2w - c) / 2w (negative once disjoint)
    assert table.loc["Intercept", "ci_overlap"] == pytest.approx(1 - shift / (2 * half_width))
    np.testing.assert_allclose(table.loc[["x", "z"], "std_diff"], 0.0, atol=1e-9)
    if shift == 5.0:
        assert table.loc["Intercept", "ci_overlap"] < 0


def test_coefficients_logit():
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"x": rng.normal(size=400)})
    df["d"] = (rng.random(400) < 1 / (1 + np.exp(-df["x"]))).astype(int)
    an = df.assign(x=knn_centroids(df[["x"]], 3).values[:, 0])
    table = coefficient_comparison("d ~ x", df, an, family="logit")
    fit = sm.Logit(df["d"], sm.add_constant(df[["x"]])).fit(disp=0)
    assert table.loc["x", "b_or"] == pytest.approx(fit.params["x"])
    assert table.loc["x", "se_or"] == pytest.approx(fit.bse["x"])
    assert 0 < table.loc["x", "ci_overlap"] <= 1


def test_coefficients_bad_input():
    df = regression_data()
    with pytest.raises(TypeError, match="DataFrame"):
        coefficient_comparison("y ~ x", df.to_numpy(), df)
    with pytest.raises(ValueError, match="family"):
        coefficient_comparison("y ~ x", df, df, family="probit")
    with pytest.raises(ValueError, match="formula"):
        coefficient_comparison("y ~ nothere", df, df)
    with pytest.raises(ValueError, match="alpha"):
        coefficient_comparison("y ~ x", df, df, alpha=1.5)
    sep = pd.DataFrame({"x": np.arange(20.0), "d": (np.arange(20) >= 10).astype(int)})
    with pytest.raises(ValueError, match="cannot be fitted"):
        coefficient_comparison("d ~ x", sep, sep, family="logit")


# -- drisk_rmd ---------------------------------------------------------------------------


@pytest.mark.parametrize("around", ["anonymised", "original"])
@pytest.mark.parametrize("scaling", ["original", "separate"])
def test_drisk_matches_sdcmicro_transcription(around, scaling):
    x = normal(250, 3, seed=4)
    # round so many released values land inside the narrow intervals
    y = np.round(knn_centroids(x, 3).values, 1)
    y[::7] = x[::7]
    res = drisk_rmd(x, y, around=around, scaling=scaling)
    at1, at2, rmd = ref_drisk(x, y, around=around, scaling=scaling)
    np.testing.assert_allclose(res.rmd, rmd, rtol=1e-9)
    np.testing.assert_array_equal(res.at_risk1, at1)
    np.testing.assert_array_equal(res.at_risk2, at2)
    assert res.risk1 == pytest.approx(at1.mean()) and res.risk2 == pytest.approx(at2.mean())
    assert 0 < res.risk2 <= res.risk1 < 1
    n1, n2 = at1.sum(), at2.sum()
    assert res.wrisk1 == pytest.approx(n1 * rmd[at1].sum() / len(x))
    assert res.wrisk2 == pytest.approx(n2 * rmd[at2].sum() / len(x))


def test_drisk_known_fraction_and_isolation():
    # a grid: the nearest other record is 1 SD-ish away, far beyond w2
    g = np.arange(10.0)
    x = np.column_stack([np.repeat(g, 10), np.tile(g, 10)])
    y = x.copy()
    y[::2] += 0.5  # every other record moves outside its interval, off the grid
    res = drisk_rmd(x, y, scaling="original")
    assert res.risk1 == 0.5 and res.risk2 == 0.5
    np.testing.assert_array_equal(res.at_risk1, np.arange(100) % 2 == 1)
    # with a neighbour within w2, an at-risk record is no longer at risk by RMDID2
    assert drisk_rmd(x, y, w2=10.0, scaling="original").risk2 == 0.0
    # sdcMicro standardises each data set by its own mean and SD: the shift of the mean
    # moves the unmoved records too, and a common shift protects nothing
    assert drisk_rmd(x, y).risk1 == 0.0
    assert drisk_rmd(x, x + 5.0).risk1 == 1.0
    assert drisk_rmd(x, x + 5.0, scaling="original").risk1 == 0.0


def test_drisk_repr_hides_arrays_and_widths_validated():
    x = normal(100, 2)
    res = drisk_rmd(x, x)
    assert isinstance(res, RiskResult)
    assert "at_risk1" not in repr(res) and "rmd" not in repr(res)
    with pytest.raises(ValueError, match="w1"):
        drisk_rmd(x, x, w1=-1)
    with pytest.raises(ValueError, match="scaling"):
        drisk_rmd(x, x, scaling="robust")
    with pytest.raises(ValueError, match="around"):
        drisk_rmd(x, x, around="both")
    flat = x.copy()
    flat[:, 0] = 1.0
    with pytest.raises(ValueError, match="constant"):
        drisk_rmd(x, flat, scaling="separate")


def test_drisk_large_n_uses_subsampled_mcd_close_to_full_fit():
    # above 1,500 records the MCD search starts on a subsample; on normal data the
    # consistency-corrected MCD estimates the covariance, as the classical one does
    x = normal(8000, 3, seed=6)
    z = (x - x.mean(0)) / x.std(0, ddof=1)
    fast = risk_module._robust_cov(z, "quantile", 0)
    np.testing.assert_allclose(fast, np.cov(z, rowvar=False), rtol=0.05, atol=0.03)
    y = x + np.random.default_rng(1).normal(0, 0.002, size=x.shape)
    a, b = drisk_rmd(x, y), drisk_rmd(x, y)
    np.testing.assert_array_equal(a.at_risk2, b.at_risk2)  # deterministic
    assert a.risk1 > 0.1


def test_drisk_linear_memory_at_fifty_thousand_records():
    # an n x n float matrix would need 20 GB here
    x = normal(50_000, 2, seed=7)
    y = x + np.random.default_rng(2).normal(0, 0.001, size=x.shape)
    res = drisk_rmd(x, y)
    assert 0 < res.risk2 <= res.risk1 <= 1


def test_drisk_tied_data_uses_pseudo_inverse():
    x = np.column_stack([np.repeat([1.0, 2.0, 3.0], 40), np.tile([1.0, 2.0], 60)])
    res = drisk_rmd(x, x)
    assert np.isfinite(res.rmd).all()
    # the 60 records on the line x1 = 1 make the reweighted MCD singular: its
    # pseudo-inverse measures along x0 alone, so the 40 records at the mean of x0 get
    # rmd = 0 and an empty interval (sdcMicro's comparison is strict)
    np.testing.assert_array_equal(res.rmd == 0, x[:, 0] == 2.0)
    assert res.risk1 == pytest.approx(2 / 3)


# -- interval disclosure and record linkage -----------------------------------------------


@pytest.mark.parametrize("p", [0.01, 0.05, 0.2, [0.01, 0.05, 0.1]])
def test_idr_matches_reference_with_ties(p):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(120, 2))
    y = np.round(x + rng.normal(0, 0.3, size=x.shape), 1)  # many tied released values
    ps = p if isinstance(p, list) else [p]
    expected = np.mean([ref_idr(x, y, v) for v in ps])
    assert interval_disclosure_risk(x, y, interval="rank", p=p) == pytest.approx(expected)


def test_idr_bad_p():
    x = normal(50)
    for bad in (0, -0.1, 1.5, [], [0.1, float("nan")]):
        with pytest.raises(ValueError, match="p must"):
            interval_disclosure_risk(x, x, interval="rank", p=bad)


@pytest.mark.parametrize("w", [0.0, 0.01, 0.05, 0.5])
def test_idr_matches_the_published_definition(w):
    rng = np.random.default_rng(3)
    x = rng.normal(size=(120, 2))
    y = np.round(x + rng.normal(0, 0.1, size=x.shape), 1)
    assert interval_disclosure_risk(x, y, w=w) == pytest.approx(ref_idr_sd(x, y, w))


def test_idr_hand_computed_and_arguments():
    x = np.arange(10.0)
    y = x + np.array([0.1, 0.1, 0.1, 0.3, 0.3, 0, 0, 0, 0, 0])
    sd = statistics.stdev(y)  # 3.0: the interval is +-0.05 * sd = +-0.15 around y
    assert 0.1 < 0.05 * sd < 0.3
    assert interval_disclosure_risk(x, y) == pytest.approx(0.8)
    assert interval_disclosure_risk(x, y, w=0.3 / sd + 1e-9) == 1.0
    assert interval_disclosure_risk(x, np.full(10, 3.0) + 0 * x) == pytest.approx(0.1)
    with pytest.raises(ValueError, match="w must"):
        interval_disclosure_risk(x, y, w=-0.1)
    with pytest.raises(ValueError, match="interval='rank'"):
        interval_disclosure_risk(x, y, p=0.05)
    with pytest.raises(ValueError, match="interval='sd'"):
        interval_disclosure_risk(x, y, interval="rank", w=0.05)
    with pytest.raises(ValueError, match="interval="):
        interval_disclosure_risk(x, y, interval="quantile")


@pytest.mark.parametrize("ties", ["link", "share"])
def test_ddr_matches_reference(ties):
    x = normal(150, 2, seed=8)
    y = knn_centroids(x, 3).values  # many coinciding centroids: ties
    y2 = x + np.random.default_rng(0).normal(0, 0.2, size=x.shape)
    tied = np.vstack([x[:75], x[:75]])  # repeated original records: ties the other way
    for a, b in ((x, y), (x, y2), (tied, tied + 0.01)):
        assert distance_linkage(a, b, ties=ties) == pytest.approx(ref_ddr_published(a, b, ties))
        assert distance_linkage(
            a, b, ties=ties, direction="original_to_anonymised"
        ) == pytest.approx(ref_ddr(a, b, ties))


def test_ddr_links_anonymised_records_to_originals():
    # two originals close together, a third far away; the release moves record 0 onto
    # record 1: from the release, record 0's value is nearest to original 1 (a wrong link)
    x = np.array([[0.0, 0.0], [1.0, 0.0], [10.0, 5.0]])
    y = np.array([[0.9, 0.0], [1.0, 0.0], [10.0, 5.0]])
    assert distance_linkage(x, y) == pytest.approx(2 / 3)
    # from the originals, record 0 is still nearest to its own release (0.9 vs 1.0)
    assert distance_linkage(x, y, direction="original_to_anonymised") == 1.0
    with pytest.raises(ValueError, match="direction"):
        distance_linkage(x, y, direction="both")


def test_ddr_bad_ties():
    x = normal(20)
    with pytest.raises(ValueError, match="ties"):
        distance_linkage(x, x, ties="random")


# -- input validation ---------------------------------------------------------------------

ALL = [
    propensity_utility,
    delta,
    drisk_rmd,
    interval_disclosure_risk,
    distance_linkage,
    il1s,
    il_metrics,
    il_dr_score,
]


@pytest.mark.parametrize("fn", ALL)
def test_bad_input_is_refused_clearly(fn):
    x = normal(30, 2)
    with pytest.raises(ValueError, match="shape"):
        fn(x, x[:-1])
    with pytest.raises(ValueError, match="at least 2"):
        fn(x[:1], x[:1])
    bad = x.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN or infinite"):
        fn(x, bad)
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite"):
        fn(bad, x)
    with pytest.raises(TypeError, match="numeric"):
        fn(x, np.array([["a", "b"]] * 30))
    flat = x.copy()
    flat[:, 0] = 2.0
    with pytest.raises(ValueError, match="constant"):
        fn(flat, x)
    frame = pd.DataFrame(x, columns=["a", "b"])
    with pytest.raises(ValueError, match="different columns"):
        fn(frame, frame.rename(columns={"b": "c"}))
    with pytest.raises(ValueError, match="empty"):
        fn(np.empty((0, 2)), np.empty((0, 2)))


def test_dataframe_columns_are_aligned_by_name():
    x = pd.DataFrame(normal(60, 2), columns=["a", "b"])
    y = x * 1.1
    swapped = y[["b", "a"]]
    pd.testing.assert_series_equal(delta(x, swapped), delta(x, y))
    assert il1s(x, swapped) == il1s(x, y)


def test_one_dimensional_input_and_series():
    x = pd.Series(np.arange(20.0), name="age")
    out = delta(x, x + 1)
    assert list(out.index) == ["age"]
    assert distance_linkage(x.to_numpy(), x.to_numpy() + 0.1) == 1.0


# -- properties on random data ------------------------------------------------------------

arrays = st.builds(
    lambda n, p, seed, scale: (
        np.random.default_rng(seed).normal(size=(n, p)),
        np.random.default_rng(seed + 1).normal(size=(n, p)) * scale,
    ),
    st.integers(8, 60),
    st.integers(1, 3),
    st.integers(0, 10_000),
    st.sampled_from([0.0, 0.01, 0.3, 2.0]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arrays)
def test_metric_ranges(pair):
    x, noise = pair
    y = x + noise
    assert 0.0 <= propensity_utility(x, y) <= 0.25
    assert (delta(x, y) >= 0).all()
    res = drisk_rmd(x, y)
    assert 0.0 <= res.risk2 <= res.risk1 <= 1.0
    assert not (res.at_risk2 & ~res.at_risk1).any()
    link, share = distance_linkage(x, y), distance_linkage(x, y, ties="share")
    assert 0.0 <= share <= link <= 1.0
    narrow = interval_disclosure_risk(x, y, interval="rank", p=0.05)
    wide = interval_disclosure_risk(x, y, interval="rank", p=0.5)
    assert 0.0 <= narrow <= wide <= 1.0
    assert 0.0 <= interval_disclosure_risk(x, y) <= interval_disclosure_risk(x, y, w=0.5) <= 1.0
    back = distance_linkage(x, y, direction="original_to_anonymised")
    assert 0.0 <= back <= distance_linkage(x, y, ties="link", direction="original_to_anonymised")
    assert il1s(x, y) >= 0.0 and il_metrics(x, y, scale="sd").value >= 0.0


@settings(max_examples=25, deadline=None)
@given(arrays, st.integers(0, 2**32 - 1))
def test_row_order_does_not_matter(pair, seed):
    x, noise = pair
    y = x + noise
    perm = np.random.default_rng(seed).permutation(len(x))
    np.testing.assert_allclose(delta(x[perm], y[perm]), delta(x, y), rtol=1e-9)
    assert il1s(x[perm], y[perm]) == pytest.approx(il1s(x, y))
    assert interval_disclosure_risk(x[perm], y[perm]) == pytest.approx(
        interval_disclosure_risk(x, y)
    )
    assert distance_linkage(x[perm], y[perm]) == pytest.approx(distance_linkage(x, y))


@settings(max_examples=25, deadline=None)
@given(arrays, st.floats(0.01, 100), st.floats(-1e3, 1e3))
def test_change_of_units_does_not_matter(pair, scale, shift):
    x, noise = pair
    y = x + noise
    a, b = x * scale + shift, y * scale + shift
    np.testing.assert_allclose(delta(a, b), delta(x, y), rtol=1e-6)
    assert il1s(a, b) == pytest.approx(il1s(x, y), rel=1e-6)
    assert il_metrics(a, b, scale="sd").value == pytest.approx(
        il_metrics(x, y, scale="sd").value, rel=1e-6, abs=1e-12
    )
    # the published mean variations are relative changes: unchanged by a change of scale
    assert il_metrics(x * scale, y * scale).value == pytest.approx(
        il_metrics(x, y).value, rel=1e-6, abs=1e-12
    )
    assert interval_disclosure_risk(a, b, interval="rank") == interval_disclosure_risk(
        x, y, interval="rank"
    )
    # a value on the edge of its SD interval may fall either side after rounding
    assert interval_disclosure_risk(a, b) == pytest.approx(
        interval_disclosure_risk(x, y), abs=1.5 / x.size
    )


def test_public_names():
    assert set(metrics.__all__) == {
        "InformationLoss",
        "MCDResult",
        "RiskResult",
        "coefficient_comparison",
        "cov_mcd",
        "delta",
        "distance_linkage",
        "drisk_rmd",
        "il1s",
        "il_dr_score",
        "il_metrics",
        "interval_disclosure_risk",
        "mcd_consistency_factor",
        "propensity_utility",
    }
