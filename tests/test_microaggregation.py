"""Microaggregation (MDAV, V-MDAV, optimal univariate) against brute force and references."""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from safeplot import DisclosureError, Policy
from safeplot.anonymize.microaggregation import (
    ALGORITHMS,
    MicroaggregationResult,
    mdav,
    microaggregate,
    optimal_univariate,
    vmdav,
)

# -- independent references -------------------------------------------------------------------


def zscores(x):
    x = np.asarray(x, dtype=float)
    x = x[:, None] if x.ndim == 1 else x
    return x, (x - x.mean(axis=0)) / x.std(axis=0, ddof=1)


def sq(points, q):
    return ((points - q) ** 2).sum(axis=1)


def ref_mdav(x, k):
    """MDAV-generic by full scans of the records left: O(n^2/k)."""
    _, z = zscores(x)
    n = z.shape[0]
    alive = np.ones(n, dtype=bool)
    labels = np.full(n, -1)
    state = {"total": z.sum(axis=0), "gid": 0}

    def farthest(q):
        rows = np.flatnonzero(alive)
        return rows[np.argmax(sq(z[rows], q))]  # first maximum: the earliest row

    def group_around(r):
        rows = np.flatnonzero(alive)
        take = rows[np.lexsort((rows, sq(z[rows], z[r])))[:k]]
        assert take[0] == r
        alive[take] = False
        labels[take] = state["gid"]
        state["total"] = state["total"] - z[take].sum(axis=0)
        state["gid"] += 1

    while alive.sum() >= 3 * k:
        r = farthest(state["total"] / alive.sum())
        group_around(r)
        group_around(farthest(z[r]))
    if alive.sum() >= 2 * k:
        group_around(farthest(state["total"] / alive.sum()))
    labels[alive] = state["gid"]
    return labels


def ref_vmdav(x, k, gamma):
    """V-MDAV by full scans of the unassigned records."""
    _, z = zscores(x)
    n = z.shape[0]
    alive = np.ones(n, dtype=bool)
    labels = np.full(n, -1)
    order = np.lexsort((np.arange(n), -sq(z, z.mean(axis=0))))
    gid = 0
    while alive.sum() >= 2 * k:
        r = next(i for i in order if alive[i])
        rows = np.flatnonzero(alive)
        group = list(rows[np.lexsort((rows, sq(z[rows], z[r])))[:k]])
        alive[group] = False
        while len(group) < 2 * k - 1 and alive.sum() - 1 >= k:
            rows = np.flatnonzero(alive)
            d_group = np.min([sq(z[rows], z[g]) for g in group], axis=0)
            best = np.lexsort((rows, d_group))[0]
            e, d_in = rows[best], d_group[best]
            others = rows[rows != e]
            d_out = sq(z[others], z[e]).min()
            if math.sqrt(d_in) < gamma * math.sqrt(d_out):
                group.append(e)
                alive[e] = False
            else:
                break
        labels[group] = gid
        gid += 1
    labels[alive] = gid
    return labels


def sse(z, labels):
    total = 0.0
    for g in np.unique(labels):
        part = z[labels == g]
        total += ((part - part.mean(axis=0)) ** 2).sum()
    return total


def brute_runs(values, k):
    """Minimum SSE over all partitions of the sorted values into runs of at least k."""
    v = np.sort(np.asarray(values, dtype=float))
    n = v.size
    best = math.inf

    def walk(start, acc):
        nonlocal best
        if start == n:
            best = min(best, acc)
            return
        for end in range(start + k, n + 1):
            if n - end == 0 or n - end >= k:
                run = v[start:end]
                walk(end, acc + ((run - run.mean()) ** 2).sum())

    walk(0, 0.0)
    return best


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]
        yield [[first], *part]


def brute_sets(values, k):
    """Minimum SSE over every partition of the records into groups of at least k."""
    v = np.asarray(values, dtype=float)
    best = math.inf
    for part in set_partitions(list(range(v.size))):
        if min(len(b) for b in part) < k:
            continue
        best = min(best, sum(((v[b] - v[b].mean()) ** 2).sum() for b in part))
    return best


def dp_all_sizes(values, k):
    """Plain O(n^2) dynamic programme over sorted runs of any size >= k (no 2k-1 cap)."""
    v = np.sort(np.asarray(values, dtype=float))
    n = v.size
    best = [0.0] + [math.inf] * n
    for i in range(1, n + 1):
        for s in range(k, i + 1):
            run = v[i - s : i]
            best[i] = min(best[i], best[i - s] + ((run - run.mean()) ** 2).sum())
    return best[n]


def check_result(res, x, k, sizes_exact=False):
    """Group sizes, released means and preserved means."""
    x = np.asarray(x, dtype=float)
    x = x[:, None] if x.ndim == 1 else x
    n, p = x.shape
    assert isinstance(res, MicroaggregationResult)
    assert res.values.shape == (n, p)
    labels = res.groups if res.groups.ndim == 2 else np.repeat(res.groups[:, None], p, axis=1)
    for j in range(p):
        lab = labels[:, j]
        sizes = np.bincount(lab)
        assert (sizes >= k).all() and (sizes <= 2 * k - 1).all()
        if sizes_exact:
            assert (sizes[:-1] == k).all()
        for g in range(sizes.size):
            members = lab == g
            np.testing.assert_allclose(res.values[members, j], x[members, j].mean(), rtol=1e-12)
            assert np.unique(res.values[members, j]).size == 1
    scale = np.abs(x).max(axis=0) + 1
    np.testing.assert_allclose(res.values.mean(axis=0), x.mean(axis=0), atol=1e-12 * scale.max())
    _, z = zscores(x)
    expected = sum(sse(z[:, [j]], labels[:, j]) for j in range(p))
    assert res.sse == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert res.group_sizes.sum() == n * (p if res.groups.ndim == 2 else 1)


# -- optimal univariate -----------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_optimal_equals_brute_force_over_runs(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 19))
    k = int(rng.integers(3, n // 2 + 1))
    x = rng.normal(size=n) if seed % 2 else rng.integers(0, 5, size=n).astype(float)
    if np.ptp(x) == 0:
        x[0] += 1
    res = optimal_univariate(x, k)
    check_result(res, x, k)
    sd2 = x.var(ddof=1)
    assert res.sse == pytest.approx(brute_runs(x, k) / sd2, rel=1e-9, abs=1e-12)
    assert res.sse == pytest.approx(dp_all_sizes(x, k) / sd2, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_optimal_equals_brute_force_over_all_set_partitions(seed):
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(6, 9))  # Bell(8) = 4140 partitions
    x = rng.normal(size=n) if seed % 2 else rng.integers(0, 4, size=n).astype(float)
    if np.ptp(x) == 0:
        x[0] += 1
    res = optimal_univariate(x, 3)
    assert res.sse == pytest.approx(brute_sets(x, 3) / x.var(ddof=1), rel=1e-9, abs=1e-12)


@given(
    st.lists(st.integers(-50, 50), min_size=6, max_size=60).map(lambda v: np.array(v, float)),
    st.integers(3, 8),
)
@settings(max_examples=60, deadline=None)
def test_optimal_equals_quadratic_dp_property(x, k):
    assume(x.size >= 2 * k and np.ptp(x) > 0)
    res = optimal_univariate(x, k)
    check_result(res, x, k)
    assert res.sse == pytest.approx(dp_all_sizes(x, k) / x.var(ddof=1), rel=1e-9, abs=1e-12)


def test_optimal_known_case_and_tie_rule():
    res = optimal_univariate([1, 2, 3, 7, 8, 9, 20, 21, 22, 23], k=3)
    assert res.values[:, 0].tolist() == [2, 2, 2, 8, 8, 8, 21.5, 21.5, 21.5, 21.5]
    assert res.groups.tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    assert res.n_groups == 3 and res.algorithm == "optimal" and res.k == 3
    # 0..6: (0,1,2,3)(4,5,6) and (0,1,2)(3,4,5,6) both have SSE 5 + 2 = 7; the last
    # group is the shortest that attains the optimum
    res = optimal_univariate(np.arange(7.0), k=3)
    assert res.groups.tolist() == [0, 0, 0, 0, 1, 1, 1]
    assert res.values[:, 0].tolist() == [1.5] * 4 + [5.0] * 3
    assert res.sse == pytest.approx(7 / np.var(np.arange(7.0), ddof=1))
    # the order of the rows does not matter
    x = np.array([22, 1, 9, 21, 3, 8, 23, 2, 7, 20], float)
    res = optimal_univariate(x, 3)
    np.testing.assert_array_equal(res.values[:, 0], [21.5, 2, 8, 21.5, 2, 8, 21.5, 2, 8, 21.5])


def test_optimal_accurate_at_large_offsets():
    """Run costs from differences: a huge common offset leaves the partition unchanged."""
    x = np.random.default_rng(3).integers(0, 1000, size=500).astype(float)
    a = optimal_univariate(x, 4)
    b = optimal_univariate(x + 1e12, 4)
    np.testing.assert_array_equal(a.groups, b.groups)
    assert a.sse == pytest.approx(b.sse, rel=1e-9)


def test_optimal_large_input_matches_block_free_dp():
    """Many blocks and several cost chunks: compare with a simple vectorised DP."""
    import safeplot.anonymize.microaggregation as m

    rng = np.random.default_rng(5)
    x = np.sort(rng.lognormal(size=3001))
    k = 4
    old = m._COST_CHUNK
    m._COST_CHUNK = 200  # force many chunks
    try:
        sizes = m._optimal_sizes(x, k)
    finally:
        m._COST_CHUNK = old
    assert sizes == m._optimal_sizes(x, k)
    n = x.size
    best = np.full(n + 1, np.inf)
    best[0] = 0
    for i in range(k, n + 1):
        for s in range(k, min(2 * k - 1, i) + 1):
            run = x[i - s : i]
            best[i] = min(best[i], best[i - s] + ((run - run.mean()) ** 2).sum())
    got = sum(((r - r.mean()) ** 2).sum() for r in np.split(x, np.cumsum(sizes)[:-1]))
    assert got == pytest.approx(best[n], rel=1e-9)
    assert all(k <= s <= 2 * k - 1 for s in sizes) and sum(sizes) == n


def test_optimal_columnwise_on_two_columns():
    rng = np.random.default_rng(1)
    x = np.column_stack([rng.normal(size=40), rng.exponential(size=40)])
    res = optimal_univariate(x, 3)
    assert res.groups.shape == (40, 2)
    check_result(res, x, 3)
    for j in range(2):
        one = optimal_univariate(x[:, j], 3)
        np.testing.assert_array_equal(res.groups[:, j], one.groups)
        np.testing.assert_array_equal(res.values[:, j], one.values[:, 0])
    assert res.n_groups == sum(optimal_univariate(x[:, j], 3).n_groups for j in range(2))
    assert res.sse == pytest.approx(sum(optimal_univariate(x[:, j], 3).sse for j in range(2)))
    via = microaggregate(x, 3, "optimal")
    np.testing.assert_array_equal(via.values, res.values)


# -- MDAV ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("kind", ["continuous", "integer", "one-column"])
def test_mdav_matches_direct_reference(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    k = int(rng.integers(3, 8))
    if kind == "continuous":
        x = rng.normal(size=(n, 3)) * [1.0, 30.0, 0.1] + [5.0, -2.0, 0.0]
    elif kind == "integer":
        x = rng.integers(0, 5, size=(n, 2)).astype(float)  # many ties and duplicates
    else:
        x = rng.lognormal(size=n)
    res = mdav(x, k, per_variable=False)
    np.testing.assert_array_equal(res.groups, ref_mdav(x, k))
    check_result(res, x, k, sizes_exact=True)


@pytest.mark.parametrize("kind", ["continuous", "integer"])
def test_mdav_matches_reference_with_many_buckets(kind):
    rng = np.random.default_rng(11)
    if kind == "continuous":
        x = np.column_stack([rng.normal(10, 0.5, 2500), rng.lognormal(0, 0.5, 2500)])
    else:
        x = rng.integers(0, 30, size=(2500, 2)).astype(float)
    res = mdav(x, 3, per_variable=False)
    np.testing.assert_array_equal(res.groups, ref_mdav(x, 3))


def test_mdav_known_cases():
    # three clusters of three, far apart: one group each
    x = np.array([[0, 0], [0, 1], [1, 0], [10, 10], [10, 11], [11, 10], [20, 0], [20, 1], [21, 0]])
    res = mdav(x, 3, per_variable=False)
    assert sorted(np.bincount(res.groups).tolist()) == [3, 3, 3]
    for g in range(3):
        assert np.unique(res.groups[3 * g : 3 * g + 3]).size == 1
    np.testing.assert_allclose(res.values[:3], [[1 / 3, 1 / 3]] * 3)
    # z-scores equal the data (mean 0, SD 1): every +-1 is equally far from the centroid,
    # so the earliest row (a +1) starts the first group
    x = np.array([1.0, -1, -1, 0, 1, -1, 1])
    res = mdav(x, 3, per_variable=False)
    assert res.groups.tolist() == [0, 1, 1, 1, 0, 1, 0]
    assert res.values[:, 0].tolist() == [1, -0.75, -0.75, -0.75, 1, -0.75, 1]
    assert res.sse == pytest.approx(0.75)  # (-1+0.75)^2 * 3 + 0.75^2
    res = mdav(-x, 3, per_variable=False)
    assert res.groups.tolist() == [0, 1, 1, 1, 0, 1, 0]


def test_mdav_permuting_rows_permutes_the_partition():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(300, 2))
    perm = rng.permutation(300)
    a, b = mdav(x, 4, per_variable=False), mdav(x[perm], 4, per_variable=False)
    np.testing.assert_allclose(b.values, a.values[perm], rtol=1e-12)
    assert a.sse == pytest.approx(b.sse, rel=1e-12)


# -- V-MDAV -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("gamma", [0.0, 0.2, 1.1, 5.0])
def test_vmdav_matches_direct_reference(seed, gamma):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    k = int(rng.integers(3, 7))
    if seed % 2:
        x = rng.normal(size=(n, 2))
    else:
        # clusters, so that groups do grow
        centres = rng.normal(scale=10, size=(n // 4 + 1, 2))
        x = centres[rng.integers(0, centres.shape[0], n)] + rng.normal(scale=0.1, size=(n, 2))
    if seed == 4:
        x = np.round(x)  # ties
    res = vmdav(x, k, gamma=gamma, per_variable=False)
    np.testing.assert_array_equal(res.groups, ref_vmdav(x, k, gamma))
    check_result(res, x, k)


def test_vmdav_known_cases_and_gamma():
    x = [0.0, 0.1, 0.2, 0.3, 5.0, 5.1, 5.2, 9.0, 9.1, 9.2]
    res = vmdav(x, 3, gamma=1.1)
    assert res.groups.tolist() == [1, 1, 1, 1, 2, 2, 2, 0, 0, 0]
    assert res.values[:, 0].tolist() == pytest.approx([0.15] * 4 + [5.1] * 3 + [9.1] * 3)
    # gamma = 0 never extends: 0.3 ends up in the last group with the 5s
    res = vmdav(x, 3, gamma=0.0)
    assert res.groups.tolist() == [1, 1, 1, 2, 2, 2, 2, 0, 0, 0]
    assert res.algorithm == "vmdav"


def test_vmdav_groups_grow_on_clustered_data():
    rng = np.random.default_rng(4)
    centres = rng.normal(scale=20, size=(30, 2))
    x = np.repeat(centres, 4, axis=0) + rng.normal(scale=0.01, size=(120, 2))
    res = vmdav(x, 3, gamma=1.1, per_variable=False)
    check_result(res, x, 3)
    # a group of 3 takes the 4th record of its cluster, much closer than any other record
    assert (np.bincount(res.groups) == 4).all()
    for g in range(30):
        assert np.unique(res.groups[4 * g : 4 * g + 4]).size == 1
    fixed = mdav(x, 3, per_variable=False)
    assert res.sse < fixed.sse


# -- properties over random data --------------------------------------------------------------


@given(
    st.lists(
        st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False), min_size=6, max_size=50
    ).map(lambda v: np.array(v)),
    st.integers(3, 6),
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_sse_order_and_group_properties(x, k):
    assume(x.size >= 2 * k and np.ptp(x) > 1e-6 * (np.abs(x).max() + 1))
    opt = optimal_univariate(x, k)
    fixed = mdav(x, k, per_variable=False)
    var = vmdav(x, k, per_variable=False)
    total = float(((x - x.mean()) ** 2).sum() / x.var(ddof=1))  # n - 1
    tol = 1e-9 * total
    assert opt.sse <= fixed.sse + tol
    assert opt.sse <= var.sse + tol
    assert fixed.sse <= total + tol and var.sse <= total + tol
    check_result(opt, x, k)
    check_result(fixed, x, k, sizes_exact=True)
    check_result(var, x, k)


@given(st.integers(0, 10_000), st.integers(12, 80), st.integers(3, 5), st.integers(1, 3))
@settings(max_examples=30, deadline=None)
def test_multivariate_properties(seed, n, k, p):
    assume(n >= 2 * k)
    x = np.random.default_rng(seed).normal(size=(n, p))
    for algorithm in ("mdav", "vmdav"):
        res = microaggregate(x, k, algorithm)
        check_result(res, x, k, sizes_exact=algorithm == "mdav")
        again = microaggregate(x, k, algorithm)
        np.testing.assert_array_equal(res.values, again.values)


def test_dispatcher_and_shapes():
    x = np.random.default_rng(0).normal(size=60)
    for name in ALGORITHMS:
        res = microaggregate(x, 4, name)
        assert res.values.shape == (60, 1) and res.groups.shape == (60,)
        assert res.algorithm == name and res.k == 4
    np.testing.assert_array_equal(microaggregate(x, 3).values, mdav(x, 3).values)
    np.testing.assert_array_equal(microaggregate(x, 3, "vmdav").values, vmdav(x, 3).values)
    np.testing.assert_array_equal(microaggregate(x, 3, "MDAV").values, mdav(x, 3).values)


# -- policy and bad input -----------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_policy_floor(algorithm):
    x = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(DisclosureError, match=r"k=2 is below the policy floor k_min=3"):
        microaggregate(x, 2, algorithm)
    res = microaggregate(x, 2, algorithm, policy=Policy(k_min=2))
    assert res.group_sizes.min() >= 2
    with pytest.raises(DisclosureError, match="k_min=5"):
        microaggregate(x, 4, algorithm, policy=Policy(k_min=5))
    with pytest.raises(DisclosureError, match=r"k_min <= k <= n - k_min"):
        microaggregate(x, 28, algorithm)


def test_policy_in_force_is_used():
    import safeplot

    x = np.random.default_rng(0).normal(size=40)
    with safeplot.policy(k_min=5), pytest.raises(DisclosureError, match="k_min=5"):
        mdav(x, 4)


@pytest.mark.parametrize("func", [mdav, vmdav, optimal_univariate])
def test_too_few_records(func):
    with pytest.raises(DisclosureError, match=r"2k=10"):
        func(np.arange(9.0), 5)  # k=5 passes k <= n - k_min, but n < 2k
    with pytest.raises(DisclosureError, match="at least 2\\*k_min=6"):
        func(np.arange(5.0), 3)


@pytest.mark.parametrize("func", [mdav, vmdav, optimal_univariate])
@pytest.mark.parametrize(
    ("x", "error", "match"),
    [
        (np.empty((0, 2)), ValueError, "empty"),
        (np.array([[1.0, np.nan]] * 10), ValueError, "NaN"),
        (np.array([1.0, np.inf] * 5), ValueError, "infinite"),
        (np.array(["a", "b", "c", "d", "e", "f"]), TypeError, "numeric"),
        (np.c_[np.ones(10), np.arange(10.0)], DisclosureError, "constant"),
        (np.zeros((2, 2, 2)), ValueError, "1-D"),
    ],
)
def test_bad_input(func, x, error, match):
    with pytest.raises(error, match=match):
        func(x, 3)


def test_bad_arguments():
    x = np.random.default_rng(0).normal(size=20)
    with pytest.raises(ValueError, match=r"\['mdav', 'vmdav', 'optimal', 'mdav_multivariate'"):
        microaggregate(x, 3, "kmeans")
    with pytest.raises(ValueError, match="gamma"):
        vmdav(x, 3, gamma=-1)
    with pytest.raises(ValueError, match="gamma"):
        vmdav(x, 3, gamma=float("nan"))
    with pytest.raises(TypeError, match="gamma"):
        vmdav(x, 3, gamma="0.2")
    with pytest.raises(TypeError, match="integer"):
        mdav(x, 3.5)
    with pytest.raises(TypeError, match="per_variable"):
        mdav(x, 3, per_variable="yes")


def test_no_small_group_over_many_random_sizes():
    """Many n, every algorithm: sizes always in k..2k-1 (mdav: k, the last k..2k-1)."""
    rng = np.random.default_rng(9)
    for k, n in itertools.product((3, 4), range(8, 22)):
        if n < 2 * k:
            continue
        x = rng.normal(size=(n, 2))
        for algorithm in ALGORITHMS:
            res = microaggregate(x, k, algorithm)
            labels = res.groups if res.groups.ndim == 2 else res.groups[:, None]
            for col in labels.T:
                sizes = np.bincount(col)
                assert sizes.min() >= k and sizes.max() <= 2 * k - 1
                if algorithm == "mdav":
                    assert (sizes[:-1] == k).all()


@pytest.mark.parametrize("leaf", [1, 2, 5])
def test_tiny_buckets_match_reference(monkeypatch, leaf):
    """Buckets smaller than a group: the neighbour search must widen its seed."""
    import safeplot.anonymize.microaggregation as m

    monkeypatch.setattr(m, "_leaf_size", lambda n: leaf)
    rng = np.random.default_rng(leaf)
    x = rng.normal(size=(150, 2))
    xi = rng.integers(0, 6, size=(150, 2)).astype(float)
    for data in (x, xi):
        np.testing.assert_array_equal(mdav(data, 7, per_variable=False).groups, ref_mdav(data, 7))
        np.testing.assert_array_equal(
            vmdav(data, 7, gamma=1.1, per_variable=False).groups, ref_vmdav(data, 7, 1.1)
        )


# -- one variable at a time (Senavirathne & Torra) -----------------------------------------


@pytest.mark.parametrize("func", [mdav, vmdav])
def test_per_variable_partitions_each_column_on_its_own(func):
    rng = np.random.default_rng(4)
    x = np.column_stack([rng.normal(size=90), rng.exponential(size=90), rng.uniform(size=90)])
    res = func(x, 5)
    assert res.groups.shape == (90, 3) and res.algorithm == func.__name__
    check_result(res, x, 5, sizes_exact=func is mdav)
    for j in range(3):
        one = func(x[:, j], 5)
        np.testing.assert_array_equal(res.groups[:, j], one.groups)
        np.testing.assert_array_equal(res.values[:, j], one.values[:, 0])
    assert res.n_groups == sum(func(x[:, j], 5).n_groups for j in range(3))
    # the columns are partitioned differently, unlike one partition of whole records
    assert not np.array_equal(res.groups[:, 0], res.groups[:, 1])
    whole = func(x, 5, per_variable=False)
    assert whole.groups.shape == (90,) and whole.algorithm == f"{func.__name__}_multivariate"
    assert res.sse < whole.sse  # each column grouped by its own values loses less


def test_univariate_mdav_takes_runs_from_the_farther_end():
    # 500 records, k=167 (Senavirathne & Torra's largest k): fewer than 3k records, so one
    # group of k at the end farther from the mean, and the 333 others form the last group
    x = np.random.default_rng(0).normal(size=500)
    res = mdav(x, 167)
    assert res.group_sizes.tolist() == [167, 333]
    order = np.argsort(x)
    first = res.groups[order[0]] == 0  # the first group holds the smallest values?
    expect_low = abs(x.min() - x.mean()) >= abs(x.max() - x.mean())
    assert first == expect_low
    sorted_groups = res.groups[order]
    assert np.count_nonzero(np.diff(sorted_groups)) == 1  # two runs of sorted values


def test_univariate_mdav_alternates_ends_in_runs_of_k():
    x = np.random.default_rng(1).normal(size=100)
    res = mdav(x, 10)
    sorted_groups = res.groups[np.argsort(x)]
    # ten runs of ten consecutive sorted values: groups 0, 2, 4, 6 from one end, 1, 3, 5, 7 from
    # the other, 8 and 9 (the last) in between
    runs = sorted_groups.reshape(10, 10)
    assert (runs == runs[:, :1]).all()
    ends = runs[:, 0].tolist()
    assert sorted(ends[:4] + ends[-4:]) == list(range(8))
    assert sorted(ends[4:6]) == [8, 9]


@pytest.mark.parametrize("name", ["mdav", "vmdav"])
def test_multivariate_names_dispatch(name):
    x = np.random.default_rng(2).normal(size=(60, 2))
    func = {"mdav": mdav, "vmdav": vmdav}[name]
    uni = microaggregate(x, 4, name)
    multi = microaggregate(x, 4, f"{name}_multivariate")
    np.testing.assert_array_equal(uni.values, func(x, 4).values)
    np.testing.assert_array_equal(multi.values, func(x, 4, per_variable=False).values)
    assert multi.algorithm == f"{name}_multivariate" and multi.groups.shape == (60,)


# -- MDAV of one variable on its sorted values ----------------------------------------------


def one_column(kind, n, rng):
    """One variable of a given shape: continuous, tie-heavy, symmetric, outlier, rounded."""
    if kind == "continuous":
        x = rng.normal(10, 0.5, n)
    elif kind == "integers":
        x = rng.integers(0, 7, n).astype(float)  # a handful of values, thousands of ties
    elif kind == "symmetric":
        # every round's two ends are equally far from the mean, up to rounding
        half = rng.integers(-3, 4, n // 2)
        x = rng.permutation(np.concatenate([half, -half, np.zeros(n % 2, int)])).astype(float)
    elif kind == "outlier":
        x = rng.integers(0, 3, n).astype(float)
        x[rng.integers(n)] = 1e4
    else:
        x = np.round(rng.lognormal(size=n), 1)
    if np.ptp(x) == 0:
        x[0] += 1
    return x


def zcol(x):
    return zscores(x)[1]


KINDS = ["continuous", "integers", "symmetric", "outlier", "rounded"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", KINDS)
def test_sorted_mdav_equals_kd_tree_mdav(seed, kind):
    """The 1-D algorithm gives the kd-tree algorithm's groups, row for row, ties included."""
    import safeplot.anonymize.microaggregation as m

    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 700))
    k = int(rng.integers(3, min(20, n // 2) + 1))  # k > 8: numpy's pairwise sums of a group
    z = zcol(one_column(kind, n, rng))
    got = m._mdav_sorted_labels(z, k)
    assert got is not None
    np.testing.assert_array_equal(got, m._mdav_kd_labels(z, k))
    if n <= 300:
        np.testing.assert_array_equal(got, ref_mdav(z, k))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("k", [3, 10])
def test_sorted_mdav_equals_kd_tree_mdav_on_10000_rows(kind, k):
    import safeplot.anonymize.microaggregation as m

    z = zcol(one_column(kind, 10_000, np.random.default_rng(k)))
    np.testing.assert_array_equal(m._mdav_sorted_labels(z, k), m._mdav_kd_labels(z, k))


@pytest.mark.parametrize("passes", [0, 1, 2])
@pytest.mark.parametrize("kind", ["continuous", "symmetric", "integers"])
def test_sorted_mdav_decisions_settled_one_at_a_time(monkeypatch, passes, kind):
    """Fewer vectorised passes leave more rounds to the sequential loop: same groups."""
    import safeplot.anonymize.microaggregation as m

    z = zcol(one_column(kind, 3001, np.random.default_rng(passes)))
    expected = m._mdav_kd_labels(z, 4)
    monkeypatch.setattr(m, "_DECISION_PASSES", passes)
    np.testing.assert_array_equal(m._mdav_sorted_labels(z, 4), expected)


@given(
    st.lists(st.integers(-6, 6), min_size=6, max_size=80).map(lambda v: np.array(v, float)),
    st.integers(3, 9),
)
@example(np.array([0, 0, 0, 1, -1, 3, 3, 4, 4, 3, 0, 4, 4], float), 3)
@example(np.array([0, 0, 0, 0, 1, 1, -1, 2, 2, 2, 2, 2], float), 3)
@settings(max_examples=80, deadline=None)
def test_sorted_mdav_equals_reference_property(x, k):
    """The sorted path makes the kd-tree algorithm's decisions, equal distances included.

    Both compute the mean of the records left with the same floating-point
    operations, so a round whose two ends are equally far from it (the
    examples: 0 and 4 around 2) is decided the same way. A reference with
    other arithmetic (``ref_mdav``, ``ref_mdav_on``) may see such a tie a
    last bit apart and decide it the other way; away from ties they agree
    (the tests above).
    """
    import safeplot.anonymize.microaggregation as m

    assume(x.size >= 2 * k and np.ptp(x) > 0)
    z = zcol(x)
    labels = m._mdav_sorted_labels(z, k)
    assume(labels is not None)
    sizes = np.bincount(labels)
    assert sizes.min() >= k and sizes.max() <= 2 * k - 1
    np.testing.assert_array_equal(labels, m._mdav_kd_labels(z, k))


def test_sorted_mdav_leaves_nearly_equal_values_to_the_kd_tree(monkeypatch):
    """Distinct values a few ulps apart could tie in distance: the general algorithm decides."""
    import safeplot.anonymize.microaggregation as m

    x = np.random.default_rng(0).normal(size=200)
    x[1] = np.nextafter(x[0], np.inf)
    z = zcol(x)
    assert m._mdav_sorted_labels(z, 3) is None
    calls = []
    original = m._mdav_kd_labels
    monkeypatch.setattr(m, "_mdav_kd_labels", lambda zz, k: calls.append(k) or original(zz, k))
    res = mdav(x, 3)
    assert calls == [3]
    np.testing.assert_array_equal(res.groups, ref_mdav(x, 3))


def test_one_variable_never_searches_a_tree(monkeypatch):
    """Univariate MDAV, per column or as one-column records, takes the sorted path."""
    import safeplot.anonymize.microaggregation as m

    def refuse(z, k):
        raise AssertionError("the kd-tree algorithm was used")

    rng = np.random.default_rng(1)
    x = np.column_stack([rng.normal(size=5000), rng.integers(0, 9, 5000)])
    expected = np.column_stack([m._mdav_kd_labels(zcol(x[:, j]), 3) for j in range(2)])
    monkeypatch.setattr(m, "_mdav_kd_labels", refuse)
    res = mdav(x, 3)
    np.testing.assert_array_equal(res.groups, expected)
    assert res.variant == "exact"
    one = microaggregate(x[:, 0], 3, "mdav_multivariate")
    np.testing.assert_array_equal(one.groups, expected[:, 0])
    check_result(one, x[:, 0], 3, sizes_exact=True)


# -- blocked MDAV of whole records ----------------------------------------------------------------


def ref_mdav_on(z, k):
    """MDAV-generic on the z-scores given (no standardising), by full scans.

    The mean of the records left is the sequential sum of the block's records
    in row order minus each grouped record in row order, over the count.
    """
    n = z.shape[0]
    alive = np.ones(n, dtype=bool)
    labels = np.full(n, -1)
    total = z[0].copy()
    for i in range(1, n):
        total = total + z[i]
    gid = 0

    def farthest(q):
        return int(np.argmax(np.where(alive, sq(z, q), -np.inf)))

    def group_around(r):
        nonlocal total, gid
        rows = np.flatnonzero(alive)
        take = np.sort(rows[np.lexsort((rows, sq(z[rows], z[r])))[:k]])
        alive[take] = False
        labels[take] = gid
        gid += 1
        for t in take:
            total = total - z[t]

    while alive.sum() >= 3 * k:
        r = farthest(total / alive.sum())
        group_around(r)
        group_around(farthest(z[r]))
    if alive.sum() >= 2 * k:
        group_around(farthest(total / alive.sum()))
    labels[alive] = gid
    return labels


def ref_median_blocks(z, size):
    """Blocks by recursive median cuts along the widest coordinate, lowest ranks below."""
    n, p = z.shape
    ranks = np.empty((n, p), dtype=int)
    for j in range(p):
        ranks[np.lexsort((np.arange(n), z[:, j])), j] = np.arange(n)
    out = []

    def cut(rows, width):  # width: the rows plus padding, as the vectorised tables hold them
        if width <= size:
            out.append(np.sort(rows))
            return
        spread = z[rows].max(axis=0) - z[rows].min(axis=0)
        axis = int(np.argmax(spread))
        ordered = rows[np.argsort(ranks[rows, axis])]
        cut(ordered[: width // 2], width - width // 2)
        cut(ordered[width // 2 :], width - width // 2)

    cut(np.arange(n), n)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_median_blocks_match_recursive_cuts(seed):
    import safeplot.anonymize.microaggregation as m

    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(100, 3000)), int(rng.integers(1, 4))
    x = rng.normal(size=(n, p)) if seed % 2 else rng.integers(0, 4, (n, p)).astype(float)
    size = int(rng.choice([16, 50, 128]))
    rows, bounds = m._median_blocks(x, size)
    expected = ref_median_blocks(x, size)
    assert len(bounds) - 1 == len(expected)
    for i, block in enumerate(expected):
        np.testing.assert_array_equal(rows[bounds[i] : bounds[i + 1]], block)
    sizes = np.diff(bounds)
    assert sizes.max() <= size and sizes.max() - sizes.min() <= 1 and sizes.sum() == n


@pytest.mark.parametrize("seed", range(6))
def test_blocked_mdav_is_mdav_within_each_block(monkeypatch, seed):
    import safeplot.anonymize.microaggregation as m

    rng = np.random.default_rng(seed)
    n, p = int(rng.integers(200, 2500)), int(rng.integers(2, 4))
    k = int(rng.integers(3, 13))  # k > 8: the partition-based neighbour selection
    if seed % 2:
        x = rng.normal(size=(n, p)) * rng.uniform(0.1, 10, p)
    else:
        x = rng.integers(0, 5, size=(n, p)).astype(float)  # ties everywhere
    monkeypatch.setattr(m, "_BLOCK_RECORDS", int(rng.choice([64, 200])))
    res = mdav(x, k, per_variable=False, variant="blocked")
    assert res.variant == "blocked" and res.algorithm == "mdav_multivariate"
    check_result(res, x, k)
    _, z = zscores(x)
    rows, bounds = m._median_blocks(z, max(m._BLOCK_RECORDS, 8 * k))
    assert np.diff(bounds).min() >= 4 * k
    first = 0
    for a, b in itertools.pairwise(bounds):
        block = rows[a:b]
        expected = ref_mdav_on(z[block], k)
        np.testing.assert_array_equal(res.groups[block], expected + first)
        sizes = np.bincount(expected)
        assert (sizes[:-1] == k).all() and k <= sizes[-1] <= 2 * k - 1
        first += sizes.size
    assert res.n_groups == first


def test_mdav_chooses_blocks_by_size(monkeypatch):
    import safeplot.anonymize.microaggregation as m

    monkeypatch.setattr(m, "MDAV_EXACT_MAX_RECORDS", 600)
    monkeypatch.setattr(m, "_BLOCK_RECORDS", 100)
    rng = np.random.default_rng(3)
    x = rng.normal(size=(601, 2))
    exact = mdav(x[:600], 3, per_variable=False)
    assert exact.variant == "exact"
    np.testing.assert_array_equal(exact.groups, ref_mdav(x[:600], 3))
    blocked = mdav(x, 3, per_variable=False)
    assert blocked.variant == "blocked"
    assert np.bincount(blocked.groups).min() >= 3
    forced = mdav(x, 3, per_variable=False, variant="exact")
    assert forced.variant == "exact"
    np.testing.assert_array_equal(forced.groups, ref_mdav(x, 3))
    np.testing.assert_array_equal(microaggregate(x, 3, "mdav_multivariate").groups, blocked.groups)
    # one variable, or one column at a time, is exact at any size
    assert mdav(x[:, 0], 3, per_variable=False).variant == "exact"
    assert mdav(x, 3, variant="blocked").variant == "exact"
    with pytest.raises(ValueError, match=r"variant='fast'.*'auto'"):
        mdav(x, 3, variant="fast")


def test_blocked_mdav_loses_little_against_exact():
    """Blocks of about a thousand records: within-group SSE close to exact MDAV's."""
    rng = np.random.default_rng(0)
    x = rng.normal(10, 0.5, 8000)
    data = np.column_stack([x, x + rng.normal(0, 1, 8000)])
    exact = mdav(data, 3, per_variable=False, variant="exact")
    blocked = mdav(data, 3, per_variable=False, variant="blocked")
    assert blocked.n_groups >= exact.n_groups - 8  # at most one short group per block
    assert exact.sse < blocked.sse < 1.1 * exact.sse
    check_result(blocked, data, 3)


def test_blocked_mdav_progress_counts_every_record(monkeypatch):
    import safeplot._progress as _progress
    import safeplot.anonymize.microaggregation as m

    bars = []

    class Recorder(_progress._NoBar):
        def __init__(self, **kwargs):
            self.kwargs, self.done, self.closed = kwargs, 0, False
            bars.append(self)

        def update(self, n=1):
            self.done += n

        def close(self):
            self.closed = True

    monkeypatch.setattr(m, "progress_bar", Recorder)
    monkeypatch.setattr(m, "_BLOCK_RECORDS", 100)
    n, k = 1000, 4
    mdav(np.random.default_rng(5).normal(size=(n, 2)), k, per_variable=False, variant="blocked")
    (bar,) = bars
    assert bar.kwargs["total"] == n and "blocked MDAV" in bar.kwargs["desc"]
    # each block's rounds are counted; its last one or two groups (< 3k records) are not
    assert n - 16 * 3 * k < bar.done < n and bar.closed


@pytest.mark.parametrize("plot", ["scatterplot", "histplot", "boxplot", "ecdfplot", "barplot"])
def test_a_hue_level_too_small_for_two_groups_is_named(plot):
    """A level between max(threshold, k) and 2k records fails in the plot, by its name.

    A box plot, a bar plot and a scatter plot leave such a level out, with a note, rather
    than failing.

    Microaggregation within a level needs two groups of k; a level of 7 records at
    k=4 would otherwise fail deep in the algorithm with no word of which level.
    """
    import safeplot

    rng = np.random.default_rng(7)
    n_big = 60
    df = pd.DataFrame(
        {
            "x": np.r_[rng.normal(0, 1, n_big), rng.normal(0, 1, 7)],
            "y": np.r_[rng.normal(0, 1, n_big), rng.normal(0, 1, 7)],
            "g": ["big"] * n_big + ["seven"] * 7,
        }
    )
    call = {
        "scatterplot": lambda: safeplot.scatterplot(
            data=df, x="x", y="y", hue="g", method="microaggregation", k=4
        ),
        "histplot": lambda: safeplot.histplot(
            data=df, x="x", hue="g", method="microaggregation", k=4
        ),
        "boxplot": lambda: safeplot.boxplot(data=df, x="g", y="x", method="microaggregation", k=4),
        "ecdfplot": lambda: safeplot.ecdfplot(
            data=df, x="x", hue="g", method="microaggregation", k=4
        ),
        "barplot": lambda: safeplot.barplot(data=df, x="g", y="x", method="microaggregation", k=4),
    }[plot]
    if plot == "scatterplot":
        # groups formed within each level: the scatter leaves the level out (DESIGN invariant
        # 10), naming it nowhere; its 7 records are left out, at least threshold
        ax = call()
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "seven" not in labels and "big" in labels
        assert any("fewer than 8 records (2*k=8)" in w for w in ax.safeplot_report.warnings)
        assert not any("seven" in w for w in ax.safeplot_report.warnings)
        assert len(ax.collections[0].get_offsets()) == n_big
        return
    if plot in ("boxplot", "barplot"):
        # a box or bar plot leaves the group out instead (DESIGN invariant 10), naming it
        # nowhere: groups are formed within each box or bar
        ax = call()
        assert [t.get_text() for t in ax.get_xticklabels()] == ["big"]
        assert any("fewer than 8 records (2*k=8)" in w for w in ax.safeplot_report.warnings)
        assert not any("seven" in w for w in ax.safeplot_report.warnings)
        return
    with pytest.raises(DisclosureError) as err:
        call()
    assert "seven" in str(err.value) and "2*k=8" in str(err.value), str(err.value)
