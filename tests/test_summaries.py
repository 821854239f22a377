"""Confidentialised summaries: corr (rounded, suppressed, flagged) and describe (winsorised)."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.grids import MATCH_RTOL, rare_values
from safeplot.plots.matrix import heatmap, is_safe_matrix
from safeplot.summaries import Description, corr, describe

from .leakscan import scan_figure


def round3(v):
    return float(f"{v:.3g}")


def equals_any(points, values):
    p = np.asarray(points, float).ravel()[:, None]
    v = np.asarray(values, float).ravel()[None, :]
    return bool((np.abs(p - v) <= MATCH_RTOL * np.maximum(abs(p), abs(v))).any())


@pytest.fixture
def frame():
    rng = np.random.default_rng(8)
    n = 200
    a = rng.normal(50, 10, n).round(2)
    b = (0.6 * a + rng.normal(0, 8, n)).round(2)
    c = rng.normal(0, 1, n).round(3)
    d = np.full(n, np.nan)
    d[:8] = rng.normal(size=8)  # only 8 records
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d, "name": ["p"] * n})


# -- corr -----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall"])
def test_corr_rounds_pandas_coefficients(frame, method):
    c = corr(frame[["a", "b", "c"]], method=method)
    raw = frame[["a", "b", "c"]].corr(method=method)
    for i in "abc":
        for j in "abc":
            expected = 1.0 if i == j else round3(raw.loc[i, j])
            assert c.loc[i, j] == pytest.approx(expected, abs=1e-3)  # at most one unit moved
    assert c.loc["a", "b"] == round3(raw.loc["a", "b"]) or equals_any(
        [round3(raw.loc["a", "b"])], np.r_[rare_values(frame["a"], 3), rare_values(frame["b"], 3)]
    )
    assert is_safe_matrix(c)
    report = c.attrs["safeplot"]["report"]
    assert report["method"] == "confidential"
    assert report["params"]["corr_method"] == method
    assert [e.function for e in audit.entries()] == ["corr"]


def test_corr_suppresses_coefficients_on_fewer_than_ten_records(frame):
    c = corr(frame, numeric_only=True)
    assert list(c.columns) == ["a", "b", "c", "d"]
    assert c[["d"]].isna().all().all() and c.loc[["d"]].isna().all().all()
    report = c.attrs["safeplot"]["report"]
    assert report["details"]["coefficients_suppressed"] == 3
    assert any("fewer than 10" in w for w in report["warnings"])
    # min_periods and threshold can raise the minimum, never lower it
    assert (
        corr(frame[["a", "b"]], min_periods=5).attrs["safeplot"]["report"]["params"]["min_records"]
        == 10
    )
    thin = frame[["a", "b"]].head(30)
    assert corr(thin, min_periods=31).isna().to_numpy().all()
    assert corr(thin, threshold=40).isna().to_numpy().all()


def test_corr_uses_pairwise_complete_counts(frame):
    df = frame[["a", "b", "c"]].copy()
    df.loc[:191, "c"] = np.nan  # c has 8 records: its coefficients go, a ~ b stays
    c = corr(df)
    assert np.isnan(c.loc["a", "c"]) and np.isnan(c.loc["c", "c"])
    assert not np.isnan(c.loc["a", "b"])


def test_corr_flags_exact_coefficients(frame):
    df = frame[["a", "c"]].assign(twice=2 * frame["a"] + 1, minus=-frame["c"])
    c = corr(df)
    assert c.loc["a", "twice"] == 1.0 and c.loc["c", "minus"] == -1.0
    report = c.attrs["safeplot"]["report"]
    flagged = report["details"]["exact_coefficients"]
    assert "a ~ twice: exactly 1" in flagged and "c ~ minus: exactly -1" in flagged
    assert any("deterministic relation" in w for w in report["warnings"])
    zero = pd.DataFrame(
        {"u": np.tile([1.0, -1.0, 1.0, -1.0], 5), "v": np.tile([1, 1, -1, -1.0], 5)}
    )
    assert (
        "u ~ v: exactly 0"
        in corr(zero).attrs["safeplot"]["report"]["details"]["exact_coefficients"]
    )


def test_corr_moves_a_coefficient_off_a_rare_value():
    rng = np.random.default_rng(1)
    x = rng.normal(size=100)
    df = pd.DataFrame({"x": x, "y": x + rng.normal(size=100)})
    for _ in range(20):  # a unique raw x equal to the rounded coefficient (a fixed point)
        r = round3(df.corr().loc["x", "y"])
        if df.loc[0, "x"] == r:
            break
        df.loc[0, "x"] = r
    assert df.loc[0, "x"] == r
    c = corr(df)
    assert c.loc["x", "y"] == pytest.approx(r - 0.001, abs=1e-12)  # one unit towards zero


def test_heatmap_draws_a_released_correlation_matrix_and_refuses_a_raw_one(frame):
    fig, ax = plt.subplots()
    heatmap(corr(frame[["a", "b", "c"]]), annot=True, ax=ax)
    assert ax.safeplot_report.method == "confidential"
    assert [t.get_text() for t in ax.texts if t.get_text() in ("1", "0.5")]
    found = scan_figure(
        fig, {"x": frame["a"].to_numpy(), "y": frame["b"].to_numpy()}, count_axis=None
    )
    assert not found, str(found)
    before = plt.get_fignums()
    with pytest.raises(DisclosureError):
        heatmap(frame[["a", "b", "c"]].corr())
    assert plt.get_fignums() == before
    edited = corr(frame[["a", "b"]])
    edited.iloc[0, 1] = 0.123456
    with pytest.raises(DisclosureError):
        heatmap(edited)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "callable"}, ValueError, "not available"),
        ({"method": np.corrcoef}, ValueError, "callable"),
        ({"threshold": 2}, DisclosureError, "threshold"),
        ({"sig": 4}, DisclosureError, "sig"),
        ({"min_periods": 2.5}, ValueError, "min_periods"),
        ({"numeric_only": "yes"}, ValueError, "numeric_only"),
    ],
)
def test_corr_refuses_bad_arguments(frame, kwargs, error, match):
    with pytest.raises(error, match=match):
        corr(frame[["a", "b"]], **kwargs)
    assert audit.entries() == []


def test_corr_refuses_text_columns_and_bad_data(frame):
    with pytest.raises(ValueError, match="numeric_only=True"):
        corr(frame)
    with pytest.raises(ValueError, match="infinite"):
        corr(frame[["a", "b"]].assign(a=np.r_[np.inf, frame["a"].to_numpy()[1:]]))
    with pytest.raises(ValueError, match="no numeric column"):
        corr(frame[["name"]], numeric_only=True)
    with pytest.raises(TypeError, match="DataFrame"):
        corr([1, 2, 3])
    assert audit.entries() == []


def test_corr_respects_a_policy_that_forbids_confidential(frame):
    allowed = frozenset({"suppress", "generalize"})
    with safeplot.policy(allowed_methods=allowed), pytest.raises(DisclosureError):
        corr(frame[["a", "b"]])


# -- describe -------------------------------------------------------------------------------


def winsor(v, sd=2.6):
    m, s = v.mean(), v.std(ddof=1)
    return np.clip(v, m - sd * s, m + sd * s)


def test_describe_gives_winsorised_rounded_statistics(frame):
    df = frame[["a", "b"]].copy()
    df.loc[0, "a"] = 250.0  # a unique outlier
    d = describe(df)
    assert isinstance(d, Description)
    assert list(d.table.index) == ["count", "mean", "std", "min", "25%", "50%", "75%", "max"]
    for col in ("a", "b"):
        v = df[col].to_numpy()
        w = winsor(v)
        q = np.quantile(w, [0, 0.25, 0.5, 0.75, 1])
        expected = [200, w.mean(), w.std(ddof=1), *q]
        got = d.table[col].to_numpy()
        rare = rare_values(v, 3)
        for e, g in zip(expected, got, strict=True):
            r = round3(e)
            # rounded, or moved one unit in the last figure off a rare value
            assert g == r or (
                equals_any([r], rare)
                and abs(g - r) <= 10 ** (np.floor(np.log10(abs(r))) - 2) + 1e-9
            )
        assert not equals_any(got[1:], rare)
    # the outlier is winsorised away: the maximum is the rounded bound, flagged
    assert d.table.loc["max", "a"] < 250.0
    assert d.flags.loc["max", "a"] == "winsorised"
    assert d.flags.loc["mean", "a"] == "winsorised"
    assert d.flags.loc["count", "a"] == "rounded"


def test_describe_suppresses_thin_columns_and_marks_the_printout(frame):
    d = describe(frame)
    assert list(d.table.columns) == ["a", "b", "c", "d"]
    assert d.table["d"].isna().all()
    assert (d.flags["d"] == "suppressed: fewer than 10 records").all()
    text = str(d)
    assert "\u2014" in text and "suppressed: fewer than 10 records" in text
    assert "winsorised" in text
    html = d._repr_html_()
    assert "<table" in html and "<li>" in html
    assert d.report.details["columns_suppressed"] == ["d"]
    assert [e.function for e in audit.entries()] == ["describe"]


def test_describe_percentiles_include_and_exclude(frame):
    d = describe(frame, percentiles=[0.1, 0.9])
    assert list(d.table.index) == ["count", "mean", "std", "min", "10%", "50%", "90%", "max"]
    assert list(describe(frame, include=[np.number]).table.columns) == ["a", "b", "c", "d"]
    assert list(describe(frame, exclude=["str"]).table.columns) == ["a", "b", "c", "d"]
    assert list(describe(frame["a"]).table.columns) == ["a"]
    with pytest.raises(ValueError, match="not numeric"):
        describe(frame, include="all")
    with pytest.raises(ValueError, match="between 0 and 1"):
        describe(frame, percentiles=[1.5])


def test_describe_threshold_raises_the_minimum(frame):
    d = describe(frame[["a"]].head(30), threshold=40)
    assert d.table["a"].isna().all()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"threshold": 2}, DisclosureError, "threshold"),
        ({"sig": 4}, DisclosureError, "sig"),
        ({"winsor_sd": 3.0}, DisclosureError, "winsor_sd"),
    ],
)
def test_describe_floors(frame, kwargs, error, match):
    with pytest.raises(error, match=match):
        describe(frame, **kwargs)
    assert audit.entries() == []


def test_describe_bad_data(frame):
    with pytest.raises(ValueError, match="no numeric column"):
        describe(frame[["name"]])
    with pytest.raises(ValueError, match="infinite"):
        describe(frame[["a"]].assign(a=np.r_[np.inf, frame["a"].to_numpy()[1:]]))
    assert audit.entries() == []
