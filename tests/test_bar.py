"""barplot: group estimates of groups with enough records, rounded, no raw error bars."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.statistics import round_sig
from safeplot.errors import DisclosureError
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.bar import BAR_METHODS, barplot, release_barplot
from safeplot.policy import METHODS

from .leakscan import scan_figure

SAFE_METHODS = tuple(m for m in BAR_METHODS if m != "none")


def _frame(seed=3):
    rng = np.random.default_rng(seed)
    g = np.r_[np.repeat(["a", "b", "c"], [40, 30, 25]), ["d", "d"]]
    y = np.round(rng.normal(50, 10, g.size), 2)
    y[:3] = [412.731, -97.113, 255.517]  # planted unique outliers
    return pd.DataFrame({"g": g, "y": y, "h": rng.choice(["u", "v"], g.size)})


def _ties(seed=4):
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c"], 300)
    y = np.r_[rng.integers(0, 8, 296), 15, 23, -4, 3].astype(float)
    return pd.DataFrame({"g": g, "y": y})


def test_means_of_shown_groups_rounded_small_group_suppressed():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", errorbar=None)
    assert [c for c, _ in rel.groups] == ["a", "b", "c"]
    means = df.groupby("g")["y"].mean()
    expected = round_sig(means.loc[["a", "b", "c"]].to_numpy(), 3)
    np.testing.assert_allclose(rel.estimates, expected, rtol=1e-7)
    assert rel.suppressed == ["1 group(s)"]  # how many, never which
    assert rel.report.cells_suppressed == 1


def test_se_and_sd_errorbars_from_group_rounded():
    df = _frame()
    for kind, scale in (("se", 1), ("sd", 2)):
        rel = release_barplot(df, x="g", y="y", errorbar=(kind, scale))
        grp = df[df.g == "b"]["y"]
        half = (grp.sem() if kind == "se" else grp.std()) * scale
        est, lo, hi = rel.bar("b")
        np.testing.assert_allclose(
            [lo, hi], round_sig([grp.mean() - half, grp.mean() + half], 3), rtol=1e-6
        )


def test_pi_is_from_winsorised_values():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", errorbar=("pi", 95))
    _, lo, hi = rel.bar("a")
    raw = df[df.g == "a"]["y"]
    assert hi < raw.max() and lo > raw.min()  # not the planted extremes
    assert rel.report.params["winsor_sd"] == 2.6


def test_ci_is_reproducible_with_seed():
    df = _frame()
    a = release_barplot(df, x="g", y="y", seed=1, n_boot=200)
    b = release_barplot(df, x="g", y="y", seed=1, n_boot=200)
    np.testing.assert_array_equal(a.lower, b.lower)


@pytest.mark.parametrize("estimator", ["min", "max", np.max, max, "first"])
def test_record_estimators_refused(estimator):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="one record"):
        barplot(_frame(), x="g", y="y", estimator=estimator)
    assert plt.get_fignums() == before
    assert not audit.entries()


def test_callable_returning_an_extreme_refused():
    with pytest.raises(DisclosureError, match="named estimators"):
        barplot(_frame(), x="g", y="y", estimator=lambda v: np.sort(np.asarray(v))[-1])
    with pytest.raises(DisclosureError, match="largest record"):
        barplot(_frame(), x="g", y="y", estimator=np.max)


def test_median_and_callable_mean_allowed():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", estimator="median", errorbar=None)
    np.testing.assert_allclose(rel.bar("a")[0], round_sig(df[df.g == "a"].y.median(), 3))
    rel = release_barplot(df, x="g", y="y", estimator=np.mean, errorbar=None)
    np.testing.assert_allclose(rel.bar("a")[0], round_sig(df[df.g == "a"].y.mean(), 3))


def test_callable_errorbar_units_weights_refused():
    df = _frame()
    with pytest.raises(ValueError, match="callable errorbar"):
        barplot(df, x="g", y="y", errorbar=lambda v: (v.min(), v.max()))
    with pytest.raises(ValueError, match="units="):
        barplot(df, x="g", y="y", units="h")
    with pytest.raises(ValueError, match="weights="):
        barplot(df, x="g", y="y", weights="y")


def test_generalize_merges_small_category():
    rel = release_barplot(_frame(), x="g", y="y", method="generalize", errorbar=None)
    assert rel.levels[-1] == "Other"
    assert rel.report.details["categories_merged"] >= 1


def test_sum_gets_secondary_suppression():
    df = _frame()
    rel = release_barplot(df, x="g", y="y", hue="h", estimator="sum", errorbar=None)
    assert rel.report.cells_suppressed >= 2  # the small group and a partner


@pytest.mark.parametrize("method", SAFE_METHODS)
@pytest.mark.parametrize("maker", [_frame, _ties])
def test_leak_scan_every_method(method, maker):
    df = maker()
    fig, ax = plt.subplots()
    barplot(df, x="g", y="y", errorbar=("se", 2), method=method, ax=ax)
    raw = df["y"].to_numpy()
    findings = scan_figure(fig, {"y": raw}, count_axis=None)
    assert not findings, str(findings)
    assert ax.safeplot_report.method == method
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    assert audit.entries()[-1].function == "barplot"
    plt.close(fig)


def test_horizontal_and_hue():
    df = _frame()
    fig, ax = plt.subplots()
    barplot(df, x="y", y="g", hue="h", ax=ax)
    assert not scan_figure(fig, {"x": df["y"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_scanner_flags_raw():
    df = pd.DataFrame({"g": ["a", "a", "b", "b", "b"], "y": [1.0, 2.0, 3.0, 4.0, 5.5]})
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        barplot(df, x="g", y="y", estimator="max", errorbar=None, method="none", ax=ax)
    assert scan_figure(fig, {"y": df["y"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_annotate_false():
    fig, ax = plt.subplots()
    barplot(_frame(), x="g", y="y", annotate=False, ax=ax)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    plt.close(fig)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 2, "method": "deterministic"},
        {"q": 0.1, "method": "probabilistic"},
        {"threshold": 2},
        {"method": "none"},
    ],
)
def test_floors(kwargs):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError):
        barplot(_frame(), x="g", y="y", **kwargs)
    assert plt.get_fignums() == before
    assert not audit.entries()


def test_all_methods_listed():
    assert set(BAR_METHODS) == set(METHODS) - {"dp"}  # dp releases counts, not means


@pytest.mark.parametrize("function", ["countplot", "barplot"])
def test_native_scale_refuses_the_merged_other_category(function):
    """generalize merges the levels 4 and 5 (2 records each) into 'Other', which has no place
    on a numeric axis: refused with what to use, nothing drawn; without native_scale it is a
    category of its own."""
    x = np.repeat([1.0, 2.0, 3.0, 4.0, 5.0], [20, 20, 20, 2, 2])
    df = pd.DataFrame({"x": x, "y": np.linspace(0, 10, x.size).round(1)})
    draw = getattr(safeplot, function)
    kw = {"y": "y"} if function == "barplot" else {}
    with pytest.raises(ValueError, match=rf"{function}: native_scale=True cannot place"):
        draw(data=df, x="x", native_scale=True, method="generalize", **kw)
    assert plt.get_fignums() == [] and audit.entries() == []
    ax = draw(data=df, x="x", native_scale=False, method="generalize", **kw)
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "Other"
