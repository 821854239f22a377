"""Tests for rounding by discretisation (Senavirathne & Torra 2019)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import safeplot
from safeplot.anonymize.discretize import (
    DISCRETIZERS,
    DiscretizeResult,
    _efd_cuts,
    _merge_small,
    _nearest,
    discretize,
    fd_bins,
)
from safeplot.errors import DisclosureError
from safeplot.keys import SecretKey
from safeplot.policy import Policy

from .test_probabilistic import documented_fingerprint

KEY = SecretKey("discretize-test-key-0123456789", source="test")
OTHER_KEY = SecretKey("a different key altogether!!", source="test")
RAW = Policy(threshold=1)  # no merging: the bare discretisers
POLICY = Policy()  # threshold 3


def rounded(values, c=10, discretizer="ewd", policy=RAW, **kwargs) -> DiscretizeResult:
    kwargs.setdefault("key", KEY)
    return discretize(values, c, discretizer, policy=policy, **kwargs)


def reps(res: DiscretizeResult) -> list[float]:
    return res.representatives[0].tolist()


# -- exact answers on hand-made data ----------------------------------------------------


def test_ewd_exact():
    x = np.array([0.0, 1.0, 2.0, 6.0, 9.0, 10.0])
    res = rounded(x, 2, "ewd")
    # intervals [0, 5) and [5, 10]: means 1 and 25/3; 6 is nearer 25/3 than 1
    np.testing.assert_allclose(reps(res), [1.0, 25 / 3])
    np.testing.assert_allclose(res.values, [1, 1, 1, 25 / 3, 25 / 3, 25 / 3])
    np.testing.assert_array_equal(res.edges[0], [0.0, 5.0, 10.0])
    assert res.counts[0].tolist() == [3, 3]
    assert res.c == (2,)
    assert res.discretizer == "ewd"
    assert res.small_intervals == 0


def test_ewd_value_on_an_edge_goes_down_and_empty_intervals_are_dropped():
    res = rounded([0.0, 5.0, 10.0], 2, "ewd")
    assert reps(res) == [2.5, 10.0]  # 5 sits on the edge 5: lower interval, as pandas.cut
    res = rounded([0.0, 1.0, 9.0, 10.0], 3, "ewd")
    assert reps(res) == [0.5, 9.5]  # the middle third is empty
    np.testing.assert_allclose(res.edges[0], [0.0, 10 / 3, 10.0])


def test_value_nearer_to_the_neighbouring_mean_takes_it():
    # the docstring example: 10 is in [1, 10.5) whose mean is 4, but nearer 43/3
    x = np.array([1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0, 20.0])
    res = discretize(x, 2, "ewd", policy=POLICY)
    np.testing.assert_allclose(reps(res), [4.0, 43 / 3])
    assert res.counts[0].tolist() == [4, 4]


def test_efd_exact():
    res = rounded(np.arange(1.0, 10.0), 3, "efd")
    assert reps(res) == [2.0, 5.0, 8.0]
    np.testing.assert_array_equal(res.edges[0], [1.0, 3.5, 6.5, 9.0])


def test_efd_moves_cuts_to_the_nearer_end_of_a_run_of_ties():
    # ideal cuts at ranks 10/3 and 20/3; run starts at 2, 6, 9 -> cuts at 2 and 6
    x = np.array([1, 1, 2, 2, 2, 2, 3, 3, 3, 4], dtype=float)
    res = rounded(x, 3, "efd")
    assert reps(res) == [1.0, 2.0, 3.25]
    np.testing.assert_array_equal(res.edges[0], [1.0, 1.5, 2.5, 4.0])


def test_efd_cut_half_way_through_a_run_goes_to_its_start():
    # ideal cut at rank 3, inside the run of 1s spanning ranks 1..4: both ends 2 away
    x = np.array([0.0, 1.0, 1.0, 1.0, 1.0, 2.0])
    assert reps(rounded(x, 2, "efd")) == [0.0, 1.2]


def test_efd_colliding_cuts_move_to_the_next_free_place():
    # both ideal cuts fall in the run of eight 1s and would move to its end
    x = np.array([1.0] * 8 + [2.0, 3.0])
    res = rounded(x, 3, "efd")
    assert reps(res) == [1.0, 2.0, 3.0]
    assert res.counts[0].tolist() == [8, 1, 1]


def test_kmeans_exact():
    x = np.array([1, 2, 3, 10, 11, 12, 30, 31, 32], dtype=float)
    assert reps(rounded(x, 3, "kmeans")) == [2.0, 11.0, 31.0]
    # Lloyd moves the cut from the equal-frequency start (ranks 5 | 5) to 9 | 1
    x = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 20], dtype=float)
    res = rounded(x, 2, "kmeans")
    assert reps(res) == [4.0, 20.0]
    np.testing.assert_array_equal(res.edges[0], [0.0, 12.0, 20.0])
    assert reps(res) == brute_force_kmeans(x, 2)


def brute_force_kmeans(x: np.ndarray, c: int) -> list[float]:
    """Best split of the sorted values into c intervals (exhaustive), as means."""
    xs = np.sort(x)
    best, best_means = math.inf, None
    from itertools import combinations

    for cuts in combinations(range(1, xs.size), c - 1):
        groups = np.split(xs, cuts)
        sse = sum(((g - g.mean()) ** 2).sum() for g in groups)
        if sse < best:
            best, best_means = sse, [float(g.mean()) for g in groups]
    return best_means


@pytest.mark.parametrize(
    "x, c",
    [
        ([0.0, 0.5, 1, 1.5, 2, 7, 7.5, 8], 2),
        ([3.0, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8], 4),
    ],
)
def test_kmeans_finds_the_optimum_on_small_examples(x, c):
    np.testing.assert_allclose(reps(rounded(x, c, "kmeans")), brute_force_kmeans(np.array(x), c))


def test_kmeans_can_stop_at_a_local_optimum():
    # Lloyd from the equal-frequency thirds is already stable; the optimum is 5 | 3 | 1
    x = np.array([1.0, 2, 4, 7, 8, 9, 15, 16, 30])
    np.testing.assert_allclose(reps(rounded(x, 3, "kmeans")), [7 / 3, 8.0, 61 / 3])
    assert brute_force_kmeans(x, 3) == [5.166666666666667, 15.5, 30.0]


def test_kmeans_is_a_lloyd_fixed_point():
    x = np.random.default_rng(3).lognormal(size=500)
    res = rounded(x, 6, "kmeans")
    r = res.representatives[0]
    assert r.size == 6
    label = np.argmin(np.abs(x[:, None] - r[None, :]), axis=1)
    for i in range(r.size):
        assert r[i] == pytest.approx(x[label == i].mean(), rel=1e-12)


# -- small intervals are merged ---------------------------------------------------------


def test_small_interval_merges_into_the_nearer_neighbour():
    # EWD thirds: {0, .5, 1} mean .5, {6}, {9, 9.5, 10} mean 9.5; 6 is nearer 9.5
    x = np.array([0.0, 0.5, 1.0, 6.0, 9.0, 9.5, 10.0])
    res = discretize(x, 3, "ewd", policy=POLICY)
    assert reps(res) == [0.5, 8.625]
    assert res.small_intervals == 1
    np.testing.assert_allclose(res.edges[0], [0.0, 10 / 3, 10.0])
    # equally near: the lower neighbour
    x = np.array([0.0, 0.5, 1.0, 5.0, 9.0, 9.5, 10.0])
    assert reps(discretize(x, 3, "ewd", policy=POLICY)) == [1.625, 9.5]


def test_a_lone_extreme_value_is_averaged_in():
    x = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 100], dtype=float)
    res = discretize(x, 2, "ewd", policy=POLICY)
    assert reps(res) == [13.6]  # 100 alone would have been released exactly
    assert res.small_intervals == 1
    assert res.counts[0].tolist() == [10]


def test_merge_small_smallest_first():
    xs = np.array([0.0, 1, 2, 3, 10, 20, 21, 22, 23, 24])
    # intervals {0..3} {10} {20..24}, threshold 2: {10} is 8.5 from 1.5 and 12 from 22
    cuts, edges, merged = _merge_small(xs, np.array([4, 5]), np.array([5.0, 15.0]), 2)
    assert cuts.tolist() == [5] and edges.tolist() == [15.0] and merged == 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-30, 30), min_size=6, max_size=60),
    st.integers(2, 6),
    st.sampled_from(DISCRETIZERS),
    st.integers(1, 5),
)
def test_every_representative_is_the_mean_of_at_least_threshold_records(
    ints, c, discretizer, threshold
):
    x = np.array(ints, dtype=float)
    distinct = np.unique(x).size
    policy = Policy(threshold=threshold)
    if distinct < c:
        with pytest.raises(ValueError, match=f"c={c} is larger than the number of distinct"):
            discretize(x, c, discretizer, key=KEY, policy=policy)
        return
    if x.size < threshold:
        with pytest.raises(DisclosureError, match=f"at least threshold={threshold} records"):
            discretize(x, c, discretizer, key=KEY, policy=policy)
        return
    res = discretize(x, c, discretizer, key=KEY, policy=policy)
    edges = res.edges[0]
    assert edges[0] == x.min() and edges[-1] == x.max()
    # a value on an interior edge belongs to the interval below it
    interval = np.searchsorted(edges[1:-1], x, side="left")
    sizes = np.bincount(interval, minlength=edges.size - 1)
    assert sizes.min() >= threshold
    means = np.array([x[interval == i].mean() for i in range(sizes.size)])
    for r in res.representatives[0]:
        assert np.isclose(means, r, rtol=1e-12, atol=0).any()
    assert res.counts[0].sum() == x.size


# -- equal-frequency never splits ties --------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 12), min_size=2, max_size=80), st.integers(2, 15))
def test_efd_never_splits_ties(ints, c):
    xs = np.sort(np.array(ints, dtype=float))
    distinct = np.unique(xs).size
    cuts, edges = _efd_cuts(xs, c)
    assert np.all(np.diff(cuts) > 0)
    assert np.all((cuts > 0) & (cuts < xs.size))
    assert np.all(xs[cuts - 1] < xs[cuts])  # a cut never lies inside a run of equal values
    assert cuts.size == min(c, distinct) - 1
    assert np.all((xs[cuts - 1] < edges) & (edges < xs[cuts]))
    if distinct >= c:
        res = rounded(xs, c, "efd")
        interval = np.searchsorted(edges, xs, side="left")
        for v in np.unique(xs):  # each value in exactly one interval
            assert np.unique(interval[xs == v]).size == 1
        assert res.c == (c,)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 300), st.integers(2, 20))
def test_efd_without_ties_has_sizes_within_one_of_n_over_c(n, c):
    assume(c <= n)
    xs = np.arange(n, dtype=float)
    cuts, _ = _efd_cuts(xs, c)
    sizes = np.diff(np.concatenate(([0], cuts, [n])))
    assert sizes.size == c
    assert np.all(np.abs(sizes - n / c) < 1)


# -- replacement by the nearest representative ------------------------------------------

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=120, deadline=None)
@given(
    st.lists(finite, min_size=3, max_size=60),
    st.integers(2, 8),
    st.sampled_from(DISCRETIZERS),
    st.integers(1, 4),
)
def test_values_are_replaced_by_their_nearest_representative(xs, c, discretizer, threshold):
    x = np.array(xs)
    # fewer distinct values than c is refused (test_every_representative_is_the_mean_...)
    assume(np.unique(x).size >= c and x.size >= threshold)
    res = discretize(x, c, discretizer, key=KEY, policy=Policy(threshold=threshold))
    r = res.representatives[0]
    assert res.values.shape == x.shape
    assert np.all(np.diff(r) > 0)
    assert np.isin(res.values, r).all()
    assert np.array_equal(np.unique(res.values), r)  # every listed representative is used
    assert_nearest(x, res.values, r)
    assert res.counts[0].tolist() == [int((res.values == v).sum()) for v in r]
    assert np.all((r >= x.min()) & (r <= x.max()))


def assert_nearest(x: np.ndarray, out: np.ndarray, r: np.ndarray) -> None:
    """`out` is the representative nearest each `x`, the lower one on an exact tie.

    Brute force over all representatives; where several are equally near in
    floating point (e.g. 0.1 from 0 and from 1e-300), exact rational
    distances decide.
    """
    distance = np.abs(x[:, None] - r[None, :])
    best = distance.min(axis=1)
    np.testing.assert_array_equal(np.abs(x - out), best)
    for i in np.flatnonzero((distance == best[:, None]).sum(axis=1) > 1):
        exact = [abs(Fraction(x[i]) - Fraction(v)) for v in r]
        assert out[i] == r[exact.index(min(exact))]


def test_half_way_goes_to_the_lower_representative():
    # equal-frequency halves {0, 2} and {3, 5, 7}: means 1 and 5, and 3 is half-way
    res = rounded([0.0, 2.0, 3.0, 5.0, 7.0], 2, "efd")
    assert reps(res) == [1.0, 5.0]
    assert res.values.tolist() == [1.0, 1.0, 1.0, 5.0, 5.0]


def test_half_way_is_decided_exactly_not_after_rounding():
    r = np.array([5 / 7, 23 / 7])  # 2.0 - r[0] and r[1] - 2.0 round to the same double
    assert 2.0 - r[0] == r[1] - 2.0
    assert abs(Fraction(2) - Fraction(r[1])) < abs(Fraction(2) - Fraction(r[0]))
    assert _nearest(r, np.array([2.0, 3.0, -1.0, 9.0])).tolist() == [1, 1, 0, 1]
    assert _nearest(np.array([1.0, 5.0]), np.array([3.0])).tolist() == [0]


def test_a_representative_nearest_to_no_value_is_not_listed():
    # equal-frequency thirds {-1} {0, 10} {11}: 0 is nearer -1 than 5, 10 nearer 11 than 5
    res = rounded([-1.0, 0.0, 10.0, 11.0], 3, "efd")
    assert reps(res) == [-1.0, 11.0]
    assert res.counts[0].tolist() == [2, 2]
    assert res.values.tolist() == [-1.0, -1.0, 11.0, 11.0]


# -- Freedman–Diaconis ------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.lists(finite, min_size=2, max_size=200))
def test_fd_bins_formula(xs):
    x = np.array(xs)
    iqr = stats.iqr(x)
    span = x.max() - x.min()
    if span == 0:
        expected = 2
    elif iqr > 0:
        expected = math.ceil(span / (2 * iqr * len(x) ** (-1 / 3)))
    else:
        expected = math.ceil(math.log2(len(x))) + 1
    assert fd_bins(x) == max(2, expected)


def test_fd_bins_matches_numpy():
    x = np.random.default_rng(1).normal(size=1000)
    assert fd_bins(x) == np.histogram_bin_edges(x, bins="fd").size - 1
    tied = np.array([0.0] * 40 + [1.0, 2.0, 5.0])
    assert fd_bins(tied) == np.histogram_bin_edges(tied, bins="sturges").size - 1


def test_fd_is_resolved_per_column_and_capped_at_distinct_values():
    rng = np.random.default_rng(2)
    x = np.column_stack([rng.normal(size=400), rng.integers(0, 3, 400).astype(float)])
    res = discretize(x, "fd", "efd", policy=POLICY)
    assert res.c == (fd_bins(x[:, 0]), 3)
    assert res.representatives[1].tolist() == [0.0, 1.0, 2.0]


# -- keyed resampling (RBD) -------------------------------------------------------------


def continuous(n=1500, seed=0) -> np.ndarray:
    return np.random.default_rng(seed).gamma(2.0, 3.0, size=n)


def test_rbd_is_reproducible_with_the_key_and_changes_with_another():
    x = continuous()
    a = rounded(x, 8, "resampling", policy=POLICY)
    np.testing.assert_array_equal(a.values, rounded(x, 8, "resampling", policy=POLICY).values)
    b = rounded(x, 8, "resampling", key=OTHER_KEY, policy=POLICY)
    assert not np.array_equal(a.edges[0], b.edges[0])
    assert not np.array_equal(a.values, b.values)


def test_rbd_key_from_policy_and_from_environment(monkeypatch):
    x = continuous()
    with_key = discretize(x, 8, "resampling", key=KEY).values
    with safeplot.policy(secret_key=KEY):
        np.testing.assert_array_equal(discretize(x, 8, "resampling").values, with_key)
    secret = "environment-secret-0123456789"
    monkeypatch.setenv("SAFEPLOT_SECRET", secret)
    from_env = discretize(x, 8, "resampling").values
    np.testing.assert_array_equal(
        from_env, discretize(x, 8, "resampling", key=SecretKey(secret)).values
    )
    assert not np.array_equal(from_env, with_key)


def test_rbd_refuses_a_raw_secret_as_key():
    with pytest.raises(TypeError, match="SecretKey") as err:
        discretize(continuous(100), 3, "resampling", key="raw secret text")
    assert "raw secret" not in str(err.value)


def test_rbd_matches_a_reference_implementation():
    """The documented recipe, written out plainly: keyed seed, deciles, bootstrap, Lloyd."""
    x = continuous(300, seed=4)
    c, n_resamples = 5, 40
    xs = np.sort(x)
    fingerprint = documented_fingerprint(xs)  # the keyed-noise fingerprint
    label = b"rbd"
    message = b"safeplot-noise-v2" + len(label).to_bytes(8, "big") + label + fingerprint
    rng = np.random.Generator(np.random.PCG64(int.from_bytes(KEY.digest(message), "big")))
    deciles = np.array_split(xs, 10)  # 300 distinct values: exact tenths
    resampled = np.sort(
        np.concatenate(
            [g[rng.integers(0, g.size, (n_resamples, g.size))].mean(1) for g in deciles]
        )
    )
    # Lloyd from the equal-frequency intervals of the resampled set
    centres = np.array([g.mean() for g in np.array_split(resampled, c)])
    for _ in range(1000):
        label_ = np.argmin(np.abs(resampled[:, None] - centres[None, :]), axis=1)
        new = np.array([resampled[label_ == i].mean() for i in range(c)])
        if np.allclose(new, centres, rtol=0, atol=1e-13):
            break
        centres = new
    mids = (centres[:-1] + centres[1:]) / 2
    interval = np.searchsorted(mids, x, side="left")
    means = np.array([x[interval == i].mean() for i in range(c)])
    expected = means[np.argmin(np.abs(x[:, None] - means[None, :]), axis=1)]
    res = rounded(x, c, "resampling", n_resamples=n_resamples)
    np.testing.assert_allclose(res.edges[0][1:-1], mids, rtol=1e-12)
    np.testing.assert_allclose(res.values, expected, rtol=1e-12)


# -- invariances ------------------------------------------------------------------------


@pytest.mark.parametrize("discretizer", DISCRETIZERS)
def test_row_order_does_not_matter(discretizer):
    x = continuous(400, seed=5)
    perm = np.random.default_rng(6).permutation(x.size)
    res = discretize(x, 6, discretizer, key=KEY, policy=POLICY)
    np.testing.assert_array_equal(
        discretize(x[perm], 6, discretizer, key=KEY, policy=POLICY).values, res.values[perm]
    )


@pytest.mark.parametrize("discretizer", DISCRETIZERS)
def test_columns_are_rounded_separately(discretizer):
    rng = np.random.default_rng(7)
    x = np.column_stack([rng.normal(size=300), rng.exponential(size=300)])
    before = x.copy()
    res = discretize(x, 5, discretizer, key=KEY, policy=POLICY)
    np.testing.assert_array_equal(x, before)
    assert res.values.shape == x.shape
    for j in range(2):
        one = discretize(x[:, j], 5, discretizer, key=KEY, policy=POLICY)
        np.testing.assert_array_equal(res.values[:, j], one.values)
        np.testing.assert_array_equal(res.representatives[j], one.representatives[0])
    assert res.c == (5, 5)


def test_lists_and_integers_are_accepted():
    np.testing.assert_array_equal(
        discretize([1, 5, 2, 8, 3, 9, 4], 2).values,
        discretize(np.array([1, 5, 2, 8, 3, 9, 4], dtype=float), 2).values,
    )


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("c", [1, 0, -3])
def test_c_below_two_is_refused(c):
    with pytest.raises(ValueError, match="at least 2"):
        discretize([1.0, 2, 3, 4], c)


@pytest.mark.parametrize("c", [2.5, True, None])
def test_c_not_an_integer_is_refused(c):
    with pytest.raises(TypeError, match="integer"):
        discretize([1.0, 2, 3, 4], c)


def test_c_unknown_string_is_refused():
    with pytest.raises(ValueError, match='"fd"'):
        discretize([1.0, 2, 3, 4], "auto")


def test_c_above_distinct_values_is_refused():
    with pytest.raises(
        ValueError, match=r"c=4 is larger than the number of distinct values \(3\)"
    ):
        discretize([1.0, 1, 2, 2, 3, 3], 4)
    x = np.column_stack([np.arange(6.0), [1.0, 1, 1, 2, 2, 2]])
    with pytest.raises(ValueError, match="column 1"):
        discretize(x, 3)
    with pytest.raises(ValueError, match="constant"):
        discretize([2.0, 2.0, 2.0], "fd")


def test_unknown_discretizer_lists_the_four():
    with pytest.raises(ValueError, match="'ewd', 'efd', 'kmeans', 'resampling'"):
        discretize([1.0, 2, 3, 4], 2, "quantile")


@pytest.mark.parametrize(
    "values, error",
    [
        ([], ValueError),
        ([1.0, np.nan, 3.0, 4.0], ValueError),
        ([1.0, np.inf, 3.0, 4.0], ValueError),
        (np.zeros((2, 2, 2)), ValueError),
        (["a", "b", "c"], TypeError),
    ],
)
def test_bad_values_are_refused(values, error):
    with pytest.raises(error):
        discretize(values, 2)
    with pytest.raises(error):
        fd_bins(values)


def test_fd_bins_wants_one_variable():
    with pytest.raises(ValueError, match="1-D"):
        fd_bins(np.ones((4, 2)))


def test_fewer_records_than_threshold_is_refused():
    with pytest.raises(DisclosureError, match="threshold=5"):
        discretize([1.0, 2.0, 3.0, 4.0], 2, policy=Policy(threshold=5))


def test_n_resamples_is_checked():
    with pytest.raises(ValueError, match="n_resamples"):
        discretize(continuous(50), 3, "resampling", key=KEY, n_resamples=0)
    with pytest.raises(TypeError, match="n_resamples"):
        discretize(continuous(50), 3, "resampling", key=KEY, n_resamples=2.5)


def test_rbd_draws_as_many_bootstrap_samples_as_each_group_has_records():
    # Senavirathne & Torra: m bootstrap samples of size m from each quantile group of m
    # values. 300 distinct values make ten groups of exactly 30.
    x = continuous(300, seed=4)
    default = discretize(x, 5, "resampling", key=KEY)
    explicit = discretize(x, 5, "resampling", key=KEY, n_resamples=30)
    np.testing.assert_array_equal(default.edges[0], explicit.edges[0])
    np.testing.assert_array_equal(default.values, explicit.values)
    fewer = discretize(x, 5, "resampling", key=KEY, n_resamples=2)
    assert not np.array_equal(default.edges[0], fewer.edges[0])
