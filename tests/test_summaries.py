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
    with safeplot.policy(release_quartiles=True):
        d = describe(df)
    assert isinstance(d, Description)
    # no minimum or maximum: they are records' values (O'Keefe 2013, section 3.1.2)
    assert list(d.table.index) == ["count", "mean", "std", "25%", "50%", "75%"]
    for col in ("a", "b"):
        v = df[col].to_numpy()
        w = winsor(v)
        q = np.quantile(w, [0.25, 0.5, 0.75])
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
    # the outlier is winsorised away: the mean moves, and is flagged
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


def test_describe_gives_no_quartiles_by_default(frame):
    # O'Keefe (2013) releases the mean and SD, and conservatively no median or quartiles
    assert safeplot.get_policy().release_quartiles is False
    d = describe(frame)
    assert list(d.table.index) == ["count", "mean", "std"]
    assert d.report.details["percentiles"] == []
    with pytest.raises(DisclosureError, match="release_quartiles"):
        describe(frame, percentiles=[0.25, 0.75])
    assert describe(frame, percentiles=[]).table.shape[0] == 3


def test_describe_percentiles_include_and_exclude(frame):
    with safeplot.policy(release_quartiles=True):
        d = describe(frame, percentiles=[0.25])
        assert list(d.table.index) == ["count", "mean", "std", "25%", "50%"]
        # other percentiles could step along the records; 0 and 1 are the extremes
        for bad in ([0.1, 0.9], [0.0], [1.0]):
            with pytest.raises(ValueError, match="quartiles"):
                describe(frame, percentiles=bad)
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


# -- the call forms people type: pandas' crosstab, df.describe(), df.corr() ----------------


def _same_release(a, b):
    pd.testing.assert_frame_equal(a, b)
    ra, rb = dict(a.attrs["safeplot"]["report"]), dict(b.attrs["safeplot"]["report"])
    assert ra == rb


def test_crosstab_in_pandas_form_releases_the_data_first_table():
    titanic = safeplot.load_dataset("titanic")
    vectors = safeplot.crosstab(titanic["class"], titanic["embark_town"])
    named = safeplot.crosstab(titanic, "class", "embark_town")
    _same_release(vectors, named)
    assert np.isnan(named.to_numpy()).any()  # cells are suppressed in both
    keywords = safeplot.crosstab(index=titanic["class"], columns=titanic["embark_town"])
    _same_release(keywords, named)
    assert vectors.index.name == "class" and vectors.columns.name == "embark_town"


def test_crosstab_pandas_form_options_match_the_data_first_form():
    tips = safeplot.load_dataset("tips")
    for options in (
        {"margins": True},
        {"normalize": "index"},
        {"margins_name": "Total", "margins": True},
    ):
        _same_release(
            safeplot.crosstab(tips["day"], tips["size"], **options),
            safeplot.crosstab(tips, "day", "size", **options),
        )
    several = safeplot.crosstab([tips["day"], tips["sex"]], tips["smoker"], margins=True)
    _same_release(several, safeplot.crosstab(tips, ["day", "sex"], "smoker", margins=True))


def test_crosstab_of_arrays_takes_pandas_default_and_given_names():
    tips = safeplot.load_dataset("tips")
    day, sex = tips["day"].to_numpy(), tips["sex"].to_numpy()
    table = safeplot.crosstab(day, sex)
    assert table.index.name == "row_0" and table.columns.name == "col_0"
    named = safeplot.crosstab(day, sex, rownames=["day"], colnames=["sex"])
    expected = safeplot.crosstab(tips.astype({"day": object, "sex": object}), "day", "sex")
    assert named.index.name == "day" and named.columns.name == "sex"
    np.testing.assert_array_equal(named.to_numpy(), expected.to_numpy())


def test_crosstab_aligns_series_on_their_common_index_as_pandas_does():
    tips = safeplot.load_dataset("tips")
    day, sex = tips["day"], tips["sex"].iloc[10:]  # the first 10 records have no sex
    table = safeplot.crosstab(day, sex)
    expected = safeplot.crosstab(tips.iloc[10:], "day", "sex")
    np.testing.assert_array_equal(table.to_numpy(), expected.to_numpy())
    assert int(np.nansum(pd.crosstab(day, sex).to_numpy())) == len(tips) - 10


def test_crosstab_refuses_values_and_mixed_forms_clearly():
    tips = safeplot.load_dataset("tips")
    with pytest.raises(ValueError, match="counts only"):
        safeplot.crosstab(tips["day"], tips["sex"], values=tips["tip"], aggfunc="mean")
    with pytest.raises(ValueError, match="counts only"):
        safeplot.crosstab(tips, "day", "sex", aggfunc="sum")
    with pytest.raises(ValueError, match="values=, which is not supported"):
        safeplot.crosstab(tips["day"], tips["sex"], tips["tip"])
    with pytest.raises(TypeError, match="names a column, so data must be a DataFrame"):
        safeplot.crosstab(tips["day"], "sex")
    with pytest.raises(ValueError, match="same length"):
        safeplot.crosstab(tips["day"].to_numpy(), tips["sex"].to_numpy()[:-1])
    with pytest.raises(ValueError, match="distinct names"):
        safeplot.crosstab(tips["day"], tips["day"])
    with pytest.raises(ValueError, match="give the row and column keys"):
        safeplot.crosstab(index=tips["day"])


def test_crosstab_rownames_rename_the_keys_of_the_data_first_form():
    tips = safeplot.load_dataset("tips")
    table = safeplot.crosstab(tips, "day", "sex", rownames=["weekday"], colnames=["gender"])
    assert table.index.name == "weekday" and table.columns.name == "gender"
    np.testing.assert_array_equal(
        table.to_numpy(), safeplot.crosstab(tips, "day", "sex").to_numpy()
    )


def test_describe_and_corr_take_pandas_positional_arguments():
    penguins = safeplot.load_dataset("penguins")
    numbers = penguins.select_dtypes("number")
    positional = describe(penguins, None, [np.number])
    keyword = describe(penguins, include=[np.number])
    pd.testing.assert_frame_equal(positional.table, keyword.table)
    pd.testing.assert_frame_equal(positional.table, describe(numbers).table)
    pd.testing.assert_frame_equal(
        corr(numbers, "spearman"), corr(numbers, method="spearman"), check_exact=True
    )
    one = describe(penguins["body_mass_g"])
    pd.testing.assert_frame_equal(one.table, describe(penguins[["body_mass_g"]]).table)
    assert list(one.table.columns) == ["body_mass_g"]
