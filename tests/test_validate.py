"""Bad input gets a clear DisclosureError/ValueError saying what to do (DESIGN invariant 7)."""

import numpy as np
import pandas as pd
import pytest

from safeplot import DisclosureError
from safeplot._validate import clean_numeric
from safeplot.plots.distributions import release_histogram
from safeplot.plots.relational import release_scatter

RNG = np.random.default_rng(0)
GOOD = RNG.normal(size=40)

BAD = {
    "empty": (np.array([]), "empty"),
    "all missing": (np.full(40, np.nan), "all missing"),
    "constant": (np.full(40, 7.5), "constant"),
    "infinite": (np.r_[GOOD[:-1], np.inf], "infinite values"),
    "text": (pd.Series(["1.5", "abc"] * 20), "not numeric"),
    "boolean": (pd.Series([True, False] * 20), "boolean"),
    "dates": (pd.Series(pd.date_range("2020-01-01", periods=40)), "dates or times"),
    "huge": (np.r_[GOOD[:-1], 1e300], "too large in magnitude"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_clean_numeric_refuses_with_advice(case):
    values, match = BAD[case]
    with pytest.raises((ValueError, DisclosureError), match=match):
        clean_numeric({"v": values})


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("method", ["suppress", "deterministic", "probabilistic"])
def test_histogram_release_refuses_bad_input(case, method):
    values, match = BAD[case]
    with pytest.raises((ValueError, DisclosureError), match=match):
        release_histogram(values, method=method)


@pytest.mark.parametrize("case", sorted(BAD))
@pytest.mark.parametrize("method", ["suppress", "generalize", "deterministic", "probabilistic"])
def test_scatter_release_refuses_bad_input(case, method):
    values, match = BAD[case]
    with pytest.raises((ValueError, DisclosureError), match=match):
        release_scatter(values, GOOD[: len(values)] if len(values) else values, method=method)


def test_missing_rows_are_dropped_and_reported_rounded():
    x = np.r_[RNG.normal(size=200), [np.nan] * 7]
    y = np.r_[RNG.normal(size=203), [np.nan] * 4]
    rel = release_scatter(x, y, method="deterministic")
    assert rel.x.size == 200
    assert rel.report.n_dropped == 5  # 7 rows, rounded to a multiple of 5
    assert any("dropped" in w for w in rel.report.warnings)


def test_few_missing_rows_are_reported_as_fewer_than_threshold():
    x = np.r_[RNG.normal(size=100), np.nan]
    rel = release_histogram(x, method="suppress")
    assert rel.report.n_dropped == "<3"
    assert "fewer than 3 rows" in " ".join(rel.report.warnings)


def test_too_few_rows_for_k():
    with pytest.raises(DisclosureError, match="at least 2\\*k_min=6"):
        release_scatter(GOOD[:5], GOOD[5:10], method="deterministic")


def test_stratum_smaller_than_k():
    from safeplot.anonymize import knn_centroids

    strata = np.array(["a"] * 38 + ["b"] * 2)
    with pytest.raises(DisclosureError, match="fewer than k=3"):
        knn_centroids(np.c_[GOOD, GOOD**2], 3, strata=strata)


def test_wrong_column_name():
    df = pd.DataFrame({"age": GOOD})
    with pytest.raises(ValueError, match=r"not in the data; available columns: \['age'\]"):
        clean_numeric(df, ["agee"])


def test_strata_rows_with_missing_category_are_dropped():
    df = pd.DataFrame({"v": GOOD, "g": ["a", None] * 20})
    clean = clean_numeric(df, ["v"], strata=["g"])
    assert clean.n == 20 and clean.n_dropped == 20
    assert clean.strata_labels == [("a",)]


def test_numeric_text_is_converted():
    clean = clean_numeric({"v": pd.Series(["1.5", "2.5", "4"])})
    np.testing.assert_array_equal(clean.values[:, 0], [1.5, 2.5, 4.0])
