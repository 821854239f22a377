"""safe_ols / safe_logit: rounded statistics, refusals, and released diagnostic plots."""

import copy
import pickle

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
import statsmodels.formula.api as smf

import safeplot
from safeplot import audit
from safeplot.anonymize.statistics import round_sig
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.diagnostics import (
    MIN_DF_RESID,
    SafeGLMResults,
    SafeOLSResults,
    safe_glm,
    safe_logit,
    safe_ols,
)
from safeplot.errors import DisclosureError
from safeplot.plots._common import FOOTNOTE_GID

from .leakscan import scan_figure

PANEL_FUNCS = ("plot_resid_fitted", "plot_qq", "plot_scale_location", "plot_resid_leverage")
METHODS = (
    "deterministic",
    "probabilistic",
    "suppress",
    "generalize",
    "confidential",
    "microaggregation",
    "rounding",
)


@pytest.fixture(scope="module")
def d1():
    return simulate("D1", n=500, seed=1234)


@pytest.fixture(scope="module")
def planted():
    """D1 plus planted unique records: high leverage (far out in x) and outliers in y."""
    df = simulate("D1", n=300, seed=7)
    extra = pd.DataFrame(
        {"x": [13.9127, 6.3713, 10.0417, 12.5531], "y": [14.3311, 5.9147, 17.2219, 4.1093]}
    )
    return pd.concat([df, extra], ignore_index=True)


def _raw_diagnostics(formula, df):
    """The raw diagnostic quantities, from an independent statsmodels fit."""
    res = smf.ols(formula, df).fit()
    infl = res.get_influence()
    std = infl.resid_studentized_internal
    return {
        "fitted": np.asarray(res.fittedvalues),
        "resid": np.asarray(res.resid),
        "std": np.asarray(std),
        "sqrt": np.sqrt(np.abs(std)),
        "leverage": np.asarray(infl.hat_matrix_diag),
        "cooks": np.asarray(infl.cooks_distance[0]),
    }


def _panel_raw(func, raw):
    """Raw x and y of a panel (the Q-Q panel's x axis is theoretical quantiles, not data)."""
    return {
        "plot_resid_fitted": {"x": raw["fitted"], "y": raw["resid"]},
        "plot_qq": {"y": raw["std"]},
        "plot_scale_location": {"x": raw["fitted"], "y": raw["sqrt"]},
        "plot_resid_leverage": {"x": raw["leverage"], "y": raw["std"]},
    }[func]


# -- statistics ----------------------------------------------------------------------------


def test_summary_numbers_equal_statsmodels_rounded(d1):
    fit = safe_ols("y ~ x", data=d1)
    ref = sm.OLS(d1["y"].to_numpy(), sm.add_constant(d1["x"].to_numpy())).fit()
    np.testing.assert_array_equal(fit.params.to_numpy(), round_sig(ref.params, 3))
    np.testing.assert_array_equal(fit.bse.to_numpy(), round_sig(ref.bse, 3))
    np.testing.assert_array_equal(fit.tvalues.to_numpy(), round_sig(ref.tvalues, 3))
    np.testing.assert_array_equal(fit.pvalues.to_numpy(), round_sig(ref.pvalues, 3))
    np.testing.assert_array_equal(fit.conf_int().to_numpy(), round_sig(ref.conf_int(), 3))
    np.testing.assert_array_equal(
        fit.conf_int(alpha=0.1).to_numpy(), round_sig(ref.conf_int(alpha=0.1), 3)
    )
    assert fit.rsquared == round_sig(ref.rsquared, 3)
    assert fit.rsquared_adj == round_sig(ref.rsquared_adj, 3)
    assert fit.fvalue == round_sig(ref.fvalue, 3)
    assert fit.f_pvalue == round_sig(ref.f_pvalue, 3)
    assert fit.nobs == 500 and fit.df_resid == 500  # 498 rounded to a multiple of 5
    assert fit.df_model == 1.0
    assert list(fit.params.index) == ["Intercept", "x"]


def test_summary_is_a_readable_table(d1):
    fit = safe_ols("y ~ x", data=d1)
    summary = fit.summary()
    text = str(summary)
    assert text == repr(summary) == summary.as_text()
    assert "R-squared" in text and "No. Observations" in text and "P>|t|" in text
    assert f"{round_sig(fit.params['x'], 3):g}" in text
    info, coefs = summary.tables
    assert list(coefs.columns) == ["coef", "std err", "t", "P>|t|", "[0.025", "0.975]"]
    pd.testing.assert_frame_equal(coefs, fit.summary_frame())
    assert info.loc["No. Observations", "value"] == 500
    assert "<table" in summary.as_html()


def test_robust_standard_errors_match_statsmodels(d1):
    fit = safe_ols("y ~ x", data=d1, fit_kws={"cov_type": "HC3"})
    ref = smf.ols("y ~ x", d1).fit(cov_type="HC3")
    frame = fit.summary_frame()
    assert "z" in frame.columns and "P>|z|" in frame.columns
    np.testing.assert_array_equal(fit.bse.to_numpy(), round_sig(ref.bse.to_numpy(), 3))
    np.testing.assert_array_equal(fit.pvalues.to_numpy(), round_sig(ref.pvalues.to_numpy(), 3))
    np.testing.assert_array_equal(fit.conf_int().to_numpy(), round_sig(ref.conf_int(), 3))


def test_sig_figs_follow_the_policy(d1):
    with safeplot.policy(sig_figs=2):
        fit = safe_ols("y ~ x", data=d1)
    ref = smf.ols("y ~ x", d1).fit()
    np.testing.assert_array_equal(fit.params.to_numpy(), round_sig(ref.params.to_numpy(), 2))


def test_missing_values_dropped_and_counted(d1):
    df = d1.copy()
    df.loc[:6, "y"] = np.nan
    fit = safe_ols("y ~ x", data=df)
    ref = smf.ols("y ~ x", df).fit()
    assert fit.nobs == 495 and fit.n_dropped == 5  # 493 and 7, rounded
    fig, ax = plt.subplots()
    fit.plot_qq(ax=ax)
    assert ax.safeplot_report.n_dropped == 5
    assert any("dropped" in w for w in ax.safeplot_report.warnings)
    np.testing.assert_array_equal(fit.params.to_numpy(), round_sig(ref.params.to_numpy(), 3))


def test_subset_and_formula_functions(d1):
    fit = safe_ols("np.log(y + 5) ~ x", data=d1, subset=d1["x"] > 9.5)
    ref = smf.ols("np.log(y + 5) ~ x", d1, subset=d1["x"] > 9.5).fit()
    np.testing.assert_array_equal(fit.params.to_numpy(), round_sig(ref.params.to_numpy(), 3))


# -- refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "resid",
        "fittedvalues",
        "get_influence",
        "resid_pearson",
        "hat_matrix_diag",
        "model",
        "predict",
        "wresid",
        "outlier_test",
        "cooks_distance",
    ],
)
def test_raw_attributes_are_refused(d1, name):
    fit = safe_ols("y ~ x", data=d1)
    with pytest.raises(DisclosureError, match="residual \\+ fitted value"):
        getattr(fit, name)
    assert not hasattr(fit, name)


def test_unknown_attribute_is_an_attribute_error(d1):
    fit = safe_ols("y ~ x", data=d1)
    with pytest.raises(AttributeError, match="releases only"):
        fit.no_such_thing  # noqa: B018
    with pytest.raises(AttributeError):
        fit._raw_secret  # noqa: B018


def test_no_pickle_copy_or_assignment(d1):
    fit = safe_ols("y ~ x", data=d1)
    for action in (pickle.dumps, copy.copy, copy.deepcopy):
        with pytest.raises(DisclosureError):
            action(fit)
    with pytest.raises(AttributeError):
        fit.params = None
    assert "resid" not in dir(fit) and "plot_diagnostics" in dir(fit)


def test_repr_shows_no_data(d1):
    fit = safe_ols("y ~ x", data=d1)
    text = repr(fit) + str(fit)
    assert "not released" in text
    raw = _raw_diagnostics("y ~ x", d1)
    for value in np.r_[raw["resid"][:20], raw["fitted"][:20], d1["y"].to_numpy()[:20]]:
        assert f"{value:.4f}" not in text


@pytest.mark.parametrize("n, ok", [(MIN_DF_RESID + 1, False), (MIN_DF_RESID + 2, True)])
def test_degrees_of_freedom_rule(n, ok):
    df = simulate("D1", n=n, seed=3)
    if ok:
        assert safe_ols("y ~ x", data=df).df_model == 1.0
    else:
        with pytest.raises(DisclosureError, match="residual degrees of freedom"):
            safe_ols("y ~ x", data=df)


def _bad_inputs():
    df = simulate("D1", n=60, seed=2)
    df["x2"] = 2 * df["x"] + 1
    df["t"] = np.where(df["y"] > 10, "high", "low")
    df["exact"] = 3 * df["x"] - 2
    small = df.head(4)
    return [
        ("singular", "y ~ x + x2", df, ValueError, "singular.*x2"),
        ("missing", "y ~ x + age", df, ValueError, "'age'.*available columns.*'x'"),
        ("n<k", "y ~ x + x2 + exact + t", small, DisclosureError, "complete records for"),
        ("perfect", "exact ~ x", df, DisclosureError, "fits the data exactly"),
        ("text outcome", "t ~ x", df, ValueError, "not numeric"),
        ("not a formula", "y x", df, ValueError, "formula must be"),
        ("empty", "y ~ x", df.iloc[:0], ValueError, "No complete records"),
        ("all missing", "y ~ x", df.assign(y=np.nan), ValueError, "No complete records"),
        ("infinite", "y ~ x", df.assign(y=np.inf), ValueError, "infinite"),
    ]


@pytest.mark.parametrize("case", _bad_inputs(), ids=lambda c: c[0])
def test_bad_input_gives_clear_errors(case):
    _, formula, df, error, match = case
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        safe_ols(formula, data=df)
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_a_category_of_one_record_is_refused():
    df = simulate("D1", n=60, seed=2)
    df["g"] = ["a"] * 59 + ["b"]
    with pytest.raises(
        DisclosureError, match=r"'a level of C\(g\) \(column 2 of the design\)' holds fewer"
    ) as err:
        safe_ols("y ~ x + C(g)", data=df)
    assert "T.b" not in str(err.value)  # the small level is not named


def test_leverage_one_record_is_refused():
    # no column is an indicator of one record, but z2 - z1 is: record 0 is fitted exactly
    df = simulate("D1", n=60, seed=2)
    df["z1"] = (np.arange(60) < 10).astype(float)
    df["z2"] = df["z1"] + (np.arange(60) == 0)
    with pytest.raises(DisclosureError, match="leverage 1"):
        safe_ols("y ~ x + z1 + z2", data=df)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"k": 2}, "k_min"),
        ({"q": 0.1, "method": "probabilistic"}, "q_min"),
        ({"threshold": 2, "method": "suppress"}, "threshold"),
        ({"method": "none"}, "allow_raw"),
    ],
)
@pytest.mark.parametrize("func", ("plot_diagnostics", *PANEL_FUNCS))
def test_floors_refused_nothing_drawn(d1, func, kwargs, match):
    fit = safe_ols("y ~ x", data=d1)
    with pytest.raises(DisclosureError, match=match):
        getattr(fit, func)(**kwargs)
    assert plt.get_fignums() == []
    assert [e.function for e in audit.entries()] == ["safe_ols"]  # the fit, nothing drawn


def test_unknown_method_and_metric(d1):
    fit = safe_ols("y ~ x", data=d1)
    with pytest.raises(ValueError, match="not a safeplot method"):
        fit.plot_diagnostics(method="blur")
    with pytest.raises(ValueError, match="metric"):
        fit.plot_qq(metric="cosine")
    assert plt.get_fignums() == []


# -- plots ---------------------------------------------------------------------------------


def _released_points(ax):
    """Offsets (and sizes) of the drawn points of a panel."""
    coll = [c for c in ax.collections if len(c.get_offsets())]
    pts = np.concatenate([c.get_offsets() for c in coll])
    sizes = np.concatenate([np.broadcast_to(c.get_sizes(), len(c.get_offsets())) for c in coll])
    return np.asarray(pts, float), sizes


@pytest.mark.parametrize(
    "method", ["deterministic", "probabilistic", "suppress", "generalize", "microaggregation"]
)
def test_d1_residuals_show_no_trend(d1, method):
    fit = safe_ols("y ~ x", data=d1)
    raw = _raw_diagnostics("y ~ x", d1)
    fig, ax = plt.subplots()
    fit.plot_resid_fitted(ax=ax, method=method)
    pts, sizes = _released_points(ax)
    weights = sizes if method in ("suppress", "generalize") else None
    slope = np.polyfit(pts[:, 0], pts[:, 1], 1, w=None if weights is None else np.sqrt(weights))[0]
    scale = raw["resid"].std(ddof=1) / raw["fitted"].std(ddof=1)
    assert abs(slope) < 0.1 * scale
    (trend,) = [line for line in ax.lines if line.get_label() == "lowess trend"]
    assert np.abs(trend.get_ydata()).max() < 0.25 * raw["resid"].std(ddof=1)
    # the lowess line lies inside the released x range: its ends are rounded grid points
    xs = trend.get_xdata()
    assert xs[0] >= ax.get_xlim()[0] and xs[-1] <= ax.get_xlim()[1]
    assert ax.safeplot_report.method == method


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_released_points_are_not_the_raw_ones(d1, method):
    fit = safe_ols("y ~ x", data=d1)
    raw = _raw_diagnostics("y ~ x", d1)
    fig, ax = plt.subplots()
    fit.plot_resid_fitted(ax=ax, method=method)
    pts, _ = _released_points(ax)
    assert pts.shape == (500, 2)
    assert not np.isin(pts[:, 1], raw["resid"]).any()
    # the released residuals keep the raw SD (deterministic rescales exactly; noise adds q^2)
    factor = 1.0 if method == "deterministic" else np.sqrt(1 + 0.25**2)
    np.testing.assert_allclose(pts[:, 1].std(ddof=1), factor * raw["resid"].std(ddof=1), rtol=0.1)


def test_plot_diagnostics_four_panels(d1):
    fit = safe_ols("y ~ x", data=d1)
    fig = fit.plot_diagnostics()
    assert isinstance(fig, plt.Figure) and len(fig.axes) == 4
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == [
        "Residuals vs Fitted",
        "Q-Q Residuals",
        "Scale-Location",
        "Residuals vs Leverage",
    ]
    for ax in fig.axes:
        assert ax.safeplot_report.method == "deterministic"
        assert ax.safeplot_report.params["k"] == 3
        assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    entries = audit.entries()
    assert [e.function for e in entries] == ["safe_ols"] + ["plot_diagnostics"] * 4
    # no point is labelled by its row number
    assert [t for ax in fig.axes for t in ax.texts if t.get_gid() != FOOTNOTE_GID] == []


def test_annotate_false_and_existing_figure(d1):
    fit = safe_ols("y ~ x", data=d1)
    fig = plt.figure(figsize=(6, 5))
    out = fit.plot_diagnostics(method="probabilistic", fig=fig, annotate=False)
    assert out is fig and len(fig.axes) == 4
    assert not any(t.get_gid() == FOOTNOTE_GID for ax in fig.axes for t in ax.texts)


@pytest.mark.parametrize("func", PANEL_FUNCS)
def test_single_panels_report_and_audit(d1, func):
    fit = safe_ols("y ~ x", data=d1)
    fig, ax = plt.subplots()
    out = getattr(fit, func)(ax=ax, method="suppress")
    assert out is ax
    assert ax.safeplot_report.method == "suppress"
    assert [e.function for e in audit.entries()] == ["safe_ols", func]


def test_cook_contours_over_released_leverage_range():
    rng = np.random.default_rng(11)
    x = np.r_[rng.normal(0, 1, 40), 4.0, 4.5, 5.0, -3.5]
    df = pd.DataFrame({"x": x, "y": 1 + x + rng.normal(0, 1, x.size)})
    fit = safe_ols("y ~ x", data=df)
    fig, ax = plt.subplots()
    fit.plot_resid_leverage(ax=ax, method="deterministic")
    contours = [line for line in ax.lines if line.get_color() == "C1"]
    assert contours
    lo, hi = ax.get_xlim()
    for line in contours:
        h, r = line.get_xdata(), line.get_ydata()
        assert h.min() >= lo and h.max() <= hi
        ok = np.isfinite(r)
        c = r[ok] ** 2 * h[ok] / (2 * (1 - h[ok]))  # Cook's distance along the curve
        assert np.allclose(c, 0.5, rtol=1e-4) or np.allclose(c, 1.0, rtol=1e-4)


# -- leak scan -----------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("func", ("plot_diagnostics", *PANEL_FUNCS))
def test_leak_scan_planted_outliers(planted, func, method):
    fit = safe_ols("y ~ x", data=planted)
    raw = _raw_diagnostics("y ~ x", planted)
    if func == "plot_diagnostics":
        fig = fit.plot_diagnostics(method=method)
        per_axes = {ax: _panel_raw(f, raw) for ax, f in zip(fig.axes, PANEL_FUNCS, strict=True)}
    else:
        fig, ax = plt.subplots()
        getattr(fit, func)(ax=ax, method=method)
        per_axes = {ax: _panel_raw(func, raw)}
    extra = {"cooks": raw["cooks"], "leverage": raw["leverage"], "resid": raw["resid"]}
    found = scan_figure(fig, extra, threshold=3, count_axis=None, per_axes=per_axes)
    assert not found, str(found)
    assert all(ax.safeplot_report.method == method for ax in per_axes)


def test_leak_scan_heavy_ties():
    rng = np.random.default_rng(5)
    x = np.r_[rng.integers(0, 12, 300), 37, 41].astype(float)
    y = np.r_[rng.integers(0, 8, 300), 23, -4].astype(float)
    df = pd.DataFrame({"x": x, "y": y})
    fit = safe_ols("y ~ x", data=df)
    raw = _raw_diagnostics("y ~ x", df)
    for method in ("deterministic", "probabilistic", "suppress", "confidential"):
        fig = fit.plot_diagnostics(method=method)
        per_axes = {ax: _panel_raw(f, raw) for ax, f in zip(fig.axes, PANEL_FUNCS, strict=True)}
        found = scan_figure(fig, {"cooks": raw["cooks"]}, count_axis=None, per_axes=per_axes)
        assert not found, f"{method}: {found}"
        plt.close(fig)


def test_the_scanner_flags_raw_diagnostics(planted):
    fit = safe_ols("y ~ x", data=planted)
    raw = _raw_diagnostics("y ~ x", planted)
    with safeplot.policy(demo_policy()):
        fig = fit.plot_diagnostics(method="none")
    per_axes = {ax: _panel_raw(f, raw) for ax, f in zip(fig.axes, PANEL_FUNCS, strict=True)}
    found = scan_figure(fig, {}, count_axis=None, per_axes=per_axes)
    assert len(found.leaks) > 100
    assert fig.axes[0].safeplot_report.method == "none"


# -- binomial ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def titanic():
    return safeplot.load_dataset("titanic")


def test_logit_numbers_equal_statsmodels_rounded(titanic):
    fit = safe_logit("survived ~ age + fare + C(sex)", data=titanic)
    ref = smf.logit("survived ~ age + fare + C(sex)", titanic).fit(disp=0)
    assert isinstance(fit, SafeGLMResults) and not isinstance(fit, SafeOLSResults)
    np.testing.assert_allclose(fit.params.to_numpy(), round_sig(ref.params.to_numpy(), 3))
    np.testing.assert_allclose(fit.bse.to_numpy(), round_sig(ref.bse.to_numpy(), 3))
    np.testing.assert_allclose(fit.pvalues.to_numpy(), round_sig(ref.pvalues.to_numpy(), 3))
    assert fit.llf == round_sig(ref.llf, 3)
    assert fit.nobs == 715 and fit.n_dropped == 175  # 714 and 177 rounded
    assert "z" in fit.summary_frame().columns and "Deviance" in str(fit.summary())
    with pytest.raises(DisclosureError):
        fit.resid_deviance  # noqa: B018


def test_glm_diagnostics_use_deviance_residuals(titanic):
    fit = safe_glm("survived ~ age + C(sex)", data=titanic, family=sm.families.Binomial())
    fig = fit.plot_diagnostics(method="deterministic")
    assert fig.axes[0].get_xlabel() == "Predicted values"
    assert fig.axes[1].get_ylabel() == "Std. deviance resid."
    assert fig.axes[3].get_ylabel() == "Std. Pearson resid."
    ref = smf.glm("survived ~ age + C(sex)", titanic, family=sm.families.Binomial()).fit()
    infl = ref.get_influence()
    raw = {
        "fitted": np.asarray(ref.predict(which="linear")),
        "resid": np.asarray(ref.resid_deviance),
        "std": np.asarray(ref.resid_deviance) / np.sqrt(1 - infl.hat_matrix_diag),
        "leverage": np.asarray(infl.hat_matrix_diag),
    }
    raw["sqrt"] = np.sqrt(np.abs(raw["std"]))
    per_axes = {ax: _panel_raw(f, raw) for ax, f in zip(fig.axes, PANEL_FUNCS, strict=True)}
    per_axes[fig.axes[3]]["y"] = np.asarray(infl.resid_studentized)
    assert not scan_figure(fig, {}, count_axis=None, per_axes=per_axes)


def test_glm_refusals():
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    df = pd.DataFrame({"x": x, "sep": (x > 0).astype(int), "three": rng.integers(0, 3, 200)})
    df["y"] = (rng.uniform(size=200) < 1 / (1 + np.exp(-x))).astype(int)
    with pytest.raises(DisclosureError, match="separation"):
        safe_logit("sep ~ x", data=df)
    with pytest.raises(ValueError, match="0/1"):
        safe_logit("three ~ x", data=df)
    with pytest.raises(ValueError, match="binomial"):
        safe_glm("y ~ x", data=df, family=sm.families.Gaussian())
    with pytest.raises(ValueError, match="available columns"):
        safe_logit("y ~ z", data=df)
    assert plt.get_fignums() == [] and audit.entries() == []


def test_large_panel_rasterised_marks_nothing(d1, monkeypatch):
    """Above LARGE_N points a panel draws each distinct point once, rasterised, unmarked."""
    from matplotlib.collections import PathCollection

    from safeplot.marks import _large

    fit = safe_ols("y ~ x", data=d1)
    monkeypatch.setattr(_large, "LARGE_N", 50)
    fig, ax = plt.subplots()
    fit.plot_resid_fitted(ax=ax, method="deterministic")
    layers = [c for c in ax.collections if isinstance(c, PathCollection)]
    assert len(layers) == 1 and layers[0].get_rasterized()
    pts = np.asarray(layers[0].get_offsets())
    assert len(np.unique(pts, axis=0)) == len(pts) < len(d1)
    assert not (np.asarray(layers[0].get_facecolors())[:, :3] == 0).all(axis=1).any()
    assert _large.SHARED_NOTE_GID not in {t.get_gid() for t in ax.texts}


def test_diagnostic_panels_take_one_bins_for_their_grids():
    """Under suppress every panel is a grid of counts: bins= sizes all four (the paper's
    figures pass bins=30); without it, each is chosen by n."""
    from safeplot.plots.grid import grid_bins_for

    fit = safe_ols("y ~ x", data=simulate("D1", n=500, seed=3))
    fig = fit.plot_diagnostics(method="suppress", bins=12)
    assert [ax.safeplot_report.params["bins"] for ax in fig.axes] == [12] * 4
    plt.close(fig)
    fig = fit.plot_diagnostics(method="suppress")
    sizes = [ax.safeplot_report.params["bins"] for ax in fig.axes]
    assert (
        sizes
        == [grid_bins_for(500, 3), grid_bins_for(500, 3, curve=True)] + [grid_bins_for(500, 3)] * 2
    )
    plt.close(fig)
    ax = fit.plot_resid_fitted(method="generalize", bins=30)
    assert ax.safeplot_report.params["bins"] == 15
    plt.close(ax.figure)
