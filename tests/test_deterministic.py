"""Deterministic kNN-centroid anonymisation against an independent brute-force reference."""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from safeplot import DisclosureError, Policy
from safeplot.anonymize.deterministic import knn_centroids


def r_mean_sd(x):
    """Column means and SDs as R's mean() and sd() compute them, one value at a time.

    R's summary.c and cov.c: a long double accumulator in row order, the mean refined by
    the mean deviation from it, the variance from squared deviations from the double mean.
    """
    means, sds = [], []
    for col in np.asarray(x, dtype=float).T:
        n = np.longdouble(col.size)
        total = np.longdouble(0)
        for v in col:
            total += np.longdouble(v)
        mean = total / n
        dev = np.longdouble(0)
        for v in col:
            dev += np.longdouble(v) - mean
        mean = float(mean + dev / n)
        ss = np.longdouble(0)
        for v in col:
            d = np.longdouble(v) - np.longdouble(mean)
            ss += d * d
        means.append(mean)
        sds.append(np.sqrt(float(ss / (n - 1))))
    return np.array(means), np.array(sds)


def brute_force(x, k, strata=None, metric="euclidean", preserve_mean=False):
    """All-pairs reference on raw values, written from the paper's five steps.

    z-score (mean and SD as R computes them, as DataSHIELD standardises), stable sort of
    every row's distances, centroid, then step (v): multiply by sd(z) / sd(centroids) and
    undo the z-scores (no re-centring unless ``preserve_mean``).
    """
    x = np.asarray(x, dtype=float)
    n = x.shape[0]
    mean, sd = r_mean_sd(x)
    z = (x - mean) / sd
    search = z
    if metric == "mahalanobis":
        chol = np.linalg.cholesky(np.atleast_2d(np.cov(z, rowvar=False)))
        search = np.linalg.solve(chol, z.T).T
    groups = (
        [np.arange(n)]
        if strata is None
        else [np.flatnonzero(strata == s) for s in np.unique(strata)]
    )
    cent = np.empty_like(z)
    for idx in groups:
        s = search[idx]
        d = ((s[:, None, :] - s[None, :, :]) ** 2).sum(axis=-1)
        for a in range(idx.size):
            nearest = np.lexsort((np.arange(idx.size), d[a]))[:k]
            cent[idx[a]] = z[idx][nearest].mean(axis=0)
    shift = cent.mean(axis=0) if preserve_mean else 0.0
    masked = (cent - shift) * (z.std(axis=0, ddof=1) / cent.std(axis=0, ddof=1))
    return masked * sd + mean


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["continuous", "integer", "rounded"])
def test_matches_brute_force_2d(seed, kind):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 250))
    k = int(rng.integers(3, 12))
    if kind == "continuous":
        x = rng.normal(size=(n, 2)) * [1.0, 40.0] + [10.0, -3.0]
    elif kind == "integer":
        x = rng.integers(0, 6, size=(n, 2)).astype(float)
    else:
        x = np.round(rng.normal(size=(n, 2)), 1)
    got = knn_centroids(x, k).values
    np.testing.assert_allclose(got, brute_force(x, k), rtol=0, atol=1e-12)


@pytest.mark.parametrize("k", [3, 5, 8])
def test_dense_ties_and_repeated_points_match_brute_force(k):
    """Many points tied at the boundary, some repeated: the batched tie resolution path."""
    rng = np.random.default_rng(k)
    x = rng.integers(0, 25, size=(1500, 2)).astype(float)
    np.testing.assert_allclose(knn_centroids(x, k).values, brute_force(x, k), atol=1e-12)


def test_matches_brute_force_mahalanobis_and_strata():
    rng = np.random.default_rng(7)
    x = rng.multivariate_normal([0, 5, 1], [[1, 0.9, 0.2], [0.9, 1, 0.1], [0.2, 0.1, 1]], size=150)
    strata = rng.integers(0, 3, size=150)
    got = knn_centroids(x, 4, metric="mahalanobis", strata=strata).values
    np.testing.assert_allclose(got, brute_force(x, 4, strata, "mahalanobis"), atol=1e-12)


def test_ties_go_to_earlier_rows():
    # the query point 0 has three neighbours at distance 1; with k=3 it must
    # take the two earliest rows among them (rows 1 and 2), not row 3.
    x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [5.0, 5.0], [6.0, 5.0], [5, 6]])
    got = knn_centroids(x, 3, policy=Policy(k_min=3)).values
    np.testing.assert_allclose(got, brute_force(x, 3), atol=1e-12)


def test_heavy_duplicates_use_row_order_across_groups():
    # value A=(0,0) once at row 9; value B=(1,0) at rows 0,1,2 and C=(-1,0) at row 3;
    # A needs 2 more records at distance 1 from {B x3, C x1}:
    # the earliest rows are 0 and 1 (both B)
    x = np.array(
        [[1, 0], [1, 0], [1, 0], [-1, 0], [9, 9], [9, 8], [8, 9], [9, 9], [8, 8], [0, 0]], float
    )
    got = knn_centroids(x, 3).values
    np.testing.assert_allclose(got, brute_force(x, 3), atol=1e-12)


def test_reproducible_and_shape_preserving():
    x = np.random.default_rng(3).lognormal(size=(300, 2))
    a, b = knn_centroids(x, 5), knn_centroids(x.copy(), 5)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.values.shape == x.shape


def test_one_dimensional_input():
    x = np.random.default_rng(4).normal(size=50)
    res = knn_centroids(x, 3)
    assert res.values.shape == (50, 1)
    np.testing.assert_allclose(res.values[:, 0], brute_force(x[:, None], 3)[:, 0], atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("kind", ["continuous", "integer", "rounded", "strata"])
def test_one_variable_sorted_search_matches_brute_force(seed, kind):
    # one variable goes through the sorted-window search, not the k-d tree
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 300))
    k = int(rng.integers(3, 10))
    strata = None
    if kind == "integer":
        x = rng.integers(0, 7, n).astype(float)
    elif kind == "rounded":
        x = np.round(rng.lognormal(size=n), 1)
    else:
        x = rng.normal(10, 0.5, n)
    if kind == "strata":
        x, strata = np.round(x, 1), np.repeat([0, 1], [n // 2, n - n // 2])
    got = knn_centroids(x, k, strata=strata).values[:, 0]
    np.testing.assert_allclose(got, brute_force(x[:, None], k, strata)[:, 0], atol=1e-12)


def test_one_variable_ties_on_one_side_go_to_earlier_rows():
    # distinct values 1e-16 apart near 0 are all at the same rounded distance from 5.0: their
    # earliest rows win, even beyond the window of k values on either side of 5.0
    rng = np.random.default_rng(3)
    cluster = rng.permutation(np.arange(1, 40)) * 1e-16
    x = rng.permutation(np.r_[cluster, [5.0, 5.2, -5.0, -5.1, -4.9], cluster + 1e-3])
    for k in (3, 4, 6):
        got = knn_centroids(x, k).values[:, 0]
        np.testing.assert_allclose(got, brute_force(x[:, None], k)[:, 0], atol=1e-12)


@pytest.mark.parametrize("decimals", [None, 2, 0])
def test_one_variable_sorted_search_is_bit_identical_to_the_tree_search(decimals):
    from safeplot.anonymize.deterministic import (
        _Groups,
        _neighbour_weights,
        _neighbour_weights_chain,
    )

    x = np.random.default_rng(8).normal(10, 3, 20_000)
    x = x if decimals is None else np.round(x, decimals)
    z = ((x - x.mean()) / x.std(ddof=1))[:, None]

    def centroids(groups, search):
        out = z[groups.first_row].copy()
        for rows, cand, w in search(groups, 4):
            out[rows] = np.einsum("ij,ijp->ip", w.astype(float), z[groups.first_row][cand]) / 4
        return out[groups.position()]

    tree = centroids(_Groups(z), _neighbour_weights)
    window = centroids(_Groups.sorted_1d(z[:, 0]), _neighbour_weights_chain)
    np.testing.assert_array_equal(window, tree)


def _centroids_by(z, groups, search, k):
    out = z[groups.first_row].copy()
    for rows, cand, w in search(groups, k):
        out[rows] = np.einsum("ij,ijp->ip", w.astype(float), z[groups.first_row][cand]) / k
    return out[groups.position()]


@pytest.mark.parametrize("decimals", [None, 1, 0])
@pytest.mark.parametrize("falling", [False, True])
def test_chain_search_is_bit_identical_to_the_tree_search(decimals, falling):
    # Q-Q points: both coordinates sorted (the second may fall), ties from rounding
    from safeplot.anonymize.deterministic import (
        _Groups,
        _is_chain,
        _neighbour_weights,
        _neighbour_weights_chain,
    )

    rng = np.random.default_rng(11)
    n = 20_000
    theoretical = stats.norm.ppf((np.arange(1, n + 1) - 0.5) / n)
    sample = np.sort(rng.standard_t(4, n))
    if decimals is not None:
        theoretical, sample = np.round(theoretical, decimals + 1), np.round(sample, decimals)
    if falling:
        sample = -sample
    z = np.column_stack([theoretical, sample])
    z = (z - z.mean(axis=0)) / z.std(axis=0, ddof=1)
    assert _is_chain(z)
    for k in (3, 5):
        tree = _centroids_by(z, _Groups(z), _neighbour_weights, k)
        window = _centroids_by(z, _Groups.chain(z), _neighbour_weights_chain, k)
        np.testing.assert_array_equal(window, tree)


def test_chain_ties_beyond_the_window_go_to_earlier_rows():
    # distinct points 1e-17 apart near the origin are all at the same rounded distance from
    # (5, 5): its nearest records beyond (5.2, 5.2) are the earliest rows of that cluster,
    # which lie outside the window of k points on its left
    from safeplot.anonymize.deterministic import (
        _Groups,
        _is_chain,
        _neighbour_weights,
        _neighbour_weights_chain,
    )

    cluster = np.arange(1, 40) * 1e-17
    z = np.column_stack([np.r_[cluster, 5.0, 5.2, 19.0], np.r_[cluster, 5.0, 5.2, 19.5]])
    assert _is_chain(z)
    for k in (3, 4, 6):
        tree = _centroids_by(z, _Groups(z), _neighbour_weights, k)
        window = _centroids_by(z, _Groups.chain(z), _neighbour_weights_chain, k)
        np.testing.assert_array_equal(window, tree)
        # (5, 5) takes (5.2, 5.2) and then the first rows of the cluster
        expected = z[[39, 40, *range(k - 2)]].mean(axis=0)
        np.testing.assert_allclose(window[39], expected, rtol=0, atol=1e-15)
    # the same chain beside a constant column (a stratum can hold one value of a variable)
    flat = np.column_stack([np.ones(z.shape[0]), z[:, 1]])
    for k in (3, 4, 6):
        tree = _centroids_by(flat, _Groups(flat), _neighbour_weights, k)
        window = _centroids_by(flat, _Groups.chain(flat), _neighbour_weights_chain, k)
        np.testing.assert_array_equal(window, tree)


@settings(max_examples=60, deadline=None)
@given(
    x=arrays(np.float64, st.integers(8, 60), elements=st.sampled_from([0.0, 0.1, 0.2, 0.5, 1.0])),
    y=arrays(np.float64, st.integers(8, 60), elements=st.floats(-3, 3, width=16)),
    k=st.integers(3, 5),
    falling=st.booleans(),
)
def test_chain_centroids_equal_the_all_pairs_reference(x, y, k, falling):
    # sorted columns with many repeated points and exactly tied distances
    n = min(x.size, y.size)
    x, y = np.sort(x[:n]), np.sort(y[:n])[:: -1 if falling else 1]
    pts = np.column_stack([x, y])
    assume(k <= n - 3 and (np.ptp(pts, axis=0) > 0).all())
    try:
        got = knn_centroids(pts, k).values
    except DisclosureError as exc:  # every centroid equal: refused
        assert "centroid" in str(exc)
        return
    np.testing.assert_allclose(got, brute_force(pts, k), rtol=1e-12, atol=1e-12)


def test_random_points_are_not_a_chain():
    from safeplot.anonymize.deterministic import _is_chain

    rng = np.random.default_rng(0)
    assert not _is_chain(rng.normal(size=(100, 2)))
    assert _is_chain(np.column_stack([np.arange(5.0), -np.arange(5.0), np.ones(5)]))
    assert not _is_chain(np.column_stack([np.arange(5.0), [0, 1, 0, 1, 0.0]]))


def test_coincident_centroids_are_counted_exactly():
    # three tight, well separated clusters of three: with k=3 each cluster collapses to one point
    base = np.array([[0, 0], [10, 0], [0, 10]], float)
    x = np.repeat(base, 3, axis=0) + np.tile([[0, 0], [0.1, 0], [0, 0.1]], (3, 1))
    res = knn_centroids(x, 3)
    assert res.n_coincident == 9
    assert len(np.unique(res.values, axis=0)) == 3


data_2d = arrays(
    np.float64,
    st.tuples(st.integers(8, 120), st.integers(1, 3)),
    elements=st.floats(-1e6, 1e6, allow_nan=False, width=64),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(x=data_2d, k=st.integers(3, 6))
def test_properties_mean_sd_reproducible(x, k):
    n = x.shape[0]
    sd = x.std(axis=0, ddof=1)
    if k > n - 3 or (np.ptp(x, axis=0) == 0).any():
        with pytest.raises((DisclosureError, ValueError)):
            knn_centroids(x, k)
        return
    # near-constant columns are valid but ill-conditioned: compare only well-scaled data
    assume((sd > 1e-6 * (np.abs(x).max(axis=0) + 1)).all())
    try:
        res = knn_centroids(x, k)
    except DisclosureError as exc:  # every centroid equal: refused, never wrong numbers
        assert "centroid" in str(exc)
        return
    out = res.values
    assert out.shape == x.shape
    np.testing.assert_allclose(out.std(axis=0, ddof=1), sd, rtol=1e-9)
    np.testing.assert_array_equal(out, knn_centroids(x, k).values)
    exact = knn_centroids(x, k, preserve_mean=True).values
    np.testing.assert_allclose(exact.mean(axis=0), x.mean(axis=0), rtol=1e-9, atol=1e-9 * sd.max())
    np.testing.assert_allclose(exact.std(axis=0, ddof=1), sd, rtol=1e-9)
    # the two differ by the shift of the centroids' mean alone
    np.testing.assert_allclose(
        (out - exact).std(axis=0), 0.0, atol=1e-9 * (np.abs(x).max(axis=0) + sd).max()
    )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(10, 400),
    k=st.integers(3, 7),
    p=st.integers(1, 3),
)
def test_no_record_released_unchanged_for_continuous_data(seed, n, k, p):
    x = np.random.default_rng(seed).normal(size=(n, p))
    out = knn_centroids(x, k).values
    assert not (out == x).all(axis=1).any()


def test_k_floor_and_range_enforced():
    x = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(DisclosureError, match=r"k=2 is below the policy floor k_min=3"):
        knn_centroids(x, 2)
    with pytest.raises(DisclosureError, match=r"k_min <= k <= n - k_min"):
        knn_centroids(x, 18)
    with pytest.raises(DisclosureError, match="k_min=5"):
        knn_centroids(x, 4, policy=Policy(k_min=5))


def test_too_few_rows_refused():
    with pytest.raises(DisclosureError, match="at least"):
        knn_centroids(np.arange(5.0), 3)


def test_small_stratum_refused():
    x = np.random.default_rng(0).normal(size=(30, 2))
    strata = np.array(["a"] * 28 + ["b"] * 2)
    with pytest.raises(DisclosureError, match="fewer than k=3"):
        knn_centroids(x, 3, strata=strata)


@pytest.mark.parametrize(
    ("x", "match"),
    [
        (np.empty((0, 2)), "empty"),
        (np.array([[1.0, np.nan]] * 10), "NaN"),
        (np.array([[1.0, np.inf]] * 10), "infinite"),
        (np.c_[np.ones(10), np.arange(10.0)], "constant"),
    ],
)
def test_bad_input_messages(x, match):
    with pytest.raises((ValueError, DisclosureError), match=match):
        knn_centroids(x, 3)


def test_unknown_metric_and_collinear_mahalanobis():
    x = np.random.default_rng(0).normal(size=(30, 1))
    with pytest.raises(ValueError, match="metric="):
        knn_centroids(x, 3, metric="cosine")
    with pytest.raises(ValueError, match="collinear"):
        knn_centroids(np.c_[x, 2 * x], 3, metric="mahalanobis")


@pytest.mark.parametrize("kind", ["continuous", "integer"])
def test_spatial_renumbering_matches_brute_force(monkeypatch, kind):
    # large inputs are renumbered in kd-tree order before the search; force it on small ones
    monkeypatch.setattr("safeplot.anonymize.deterministic._SPATIAL_ORDER_MIN", 10)
    rng = np.random.default_rng(11)
    x = rng.normal(size=(200, 2)) if kind == "continuous" else rng.integers(0, 5, (200, 2)) * 1.0
    np.testing.assert_allclose(knn_centroids(x, 4).values, brute_force(x, 4), atol=1e-12)


def test_spatial_renumbering_changes_nothing_at_scale(monkeypatch):
    x = np.random.default_rng(12).normal(size=(100_000, 2))
    renumbered = knn_centroids(x, 3)
    monkeypatch.setattr("safeplot.anonymize.deterministic._SPATIAL_ORDER_MIN", 10**9)
    plain = knn_centroids(x, 3)
    np.testing.assert_array_equal(renumbered.values, plain.values)
    np.testing.assert_array_equal(renumbered.coincident, plain.coincident)


def test_result_does_not_depend_on_memory_layout():
    """Column-major input (as DataFrame.to_numpy gives) releases the very same centroids."""
    x = np.round(np.random.default_rng(3).normal(size=(400, 3)), 1)
    np.testing.assert_array_equal(
        knn_centroids(np.asfortranarray(x), 3).values, knn_centroids(x, 3).values
    )


@pytest.mark.parametrize("preserve_mean", [False, True])
@pytest.mark.parametrize("metric", ["euclidean", "mahalanobis"])
def test_raw_values_equal_the_papers_scaling(preserve_mean, metric):
    """Raw values (not z-scores) equal the independent reference to 1e-9, with strata."""
    rng = np.random.default_rng(11)
    x = np.column_stack([rng.gamma(2.0, 15.0, 240), rng.normal(32.0, 20.0, 240)])
    strata = rng.integers(0, 4, 240)
    got = knn_centroids(x, 3, strata=strata, metric=metric, preserve_mean=preserve_mean).values
    ref = brute_force(x, 3, strata, metric, preserve_mean=preserve_mean)
    np.testing.assert_allclose(got, ref, rtol=1e-9, atol=0)


def test_titanic_released_means_drift_as_in_the_paper():
    """Titanic (Avraam, Jones & Burton): strata Pclass x Sex x Family, k = 3, median-filled age.

    The paper's scaling does not re-centre, so the released mean age drifts from the
    original 29.36 (the re-centred variant keeps it exactly).
    """
    import safeplot

    t = safeplot.load_dataset("titanic")
    age = t["age"].fillna(t["age"].median()).to_numpy()
    fam = (t["sibsp"] + t["parch"] > 0).to_numpy()
    strata = t["pclass"].astype(str) + t["sex"] + fam.astype(str)
    x = np.column_stack([age, t["fare"].to_numpy()])
    paper = knn_centroids(x, 3, strata=strata.to_numpy()).values
    exact = knn_centroids(x, 3, strata=strata.to_numpy(), preserve_mean=True).values
    assert x[:, 0].mean() == pytest.approx(29.36, abs=0.005)
    assert exact[:, 0].mean() == pytest.approx(x[:, 0].mean(), rel=1e-12)
    assert abs(paper[:, 0].mean() - x[:, 0].mean()) > 0.01
    np.testing.assert_allclose(paper.std(axis=0, ddof=1), x.std(axis=0, ddof=1), rtol=1e-12)


def test_standardisation_is_r_arithmetic(monkeypatch):
    """The z-scores use R's mean and sd: extended-precision sums in row order.

    On the Titanic ages and fares they are the correctly rounded mean and SD, which
    numpy's column sums of the same (row-major) matrix are not.
    """
    from fractions import Fraction

    import safeplot
    from safeplot.anonymize import deterministic

    df = safeplot.load_dataset("titanic")
    x = np.column_stack([df["age"].fillna(df["age"].median()), df["fare"]])
    mean, sd = deterministic._r_mean_sd(x)
    ref_mean, ref_sd = r_mean_sd(x)
    np.testing.assert_array_equal(mean, ref_mean)
    np.testing.assert_array_equal(sd, ref_sd)
    for j in range(2):
        exact = sum(Fraction(v) for v in x[:, j]) / len(x)
        assert mean[j] == float(exact)
        ss = sum((Fraction(v) - Fraction(mean[j])) ** 2 for v in x[:, j])
        assert sd[j] == np.sqrt(float(ss / (len(x) - 1)))
    assert (np.ascontiguousarray(x).std(axis=0, ddof=1) != sd).any()
    # the chunks carry the running total: the same bits as one pass
    monkeypatch.setattr(deterministic, "_SUM_CHUNK", 7)
    chunked = deterministic._r_mean_sd(x)
    np.testing.assert_array_equal(chunked[0], mean)
    np.testing.assert_array_equal(chunked[1], sd)
    np.testing.assert_array_equal(deterministic._r_mean_sd(np.asfortranarray(x))[1], sd)


def test_kd_tree_tie_break_takes_what_the_tree_meets_first():
    """On a tie the k-d tree search keeps the record it met first, not the earlier row.

    Records 0, -1 and 1: the root cuts at 0 (the cell's midpoint); a query on the cut
    goes up first and meets 1, then finds -1 exactly as far and keeps 1.
    """
    from safeplot.anonymize.deterministic import _KdTree

    tree = _KdTree(np.array([[0.0], [-1.0], [1.0]]))
    assert tree.query((0.0,), 2) == [0, 2]
    assert tree.query((0.0,), 3) == [0, 2, 1]


@pytest.mark.parametrize("seed", range(3))
def test_kd_tree_tie_break_finds_the_k_nearest(seed):
    """The tree changes only which of exactly equal distances is taken: the k nearest
    distances are brute force's, and without ties the centroids are row order's."""
    from safeplot.anonymize.deterministic import _KdTree

    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(size=(400, 2)), 1)  # many exact ties and repeated points
    tree = _KdTree(x)
    d = ((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1)
    for k in (3, 5):
        nearest = np.array([tree.query(q, k) for q in tree.points])
        np.testing.assert_array_equal(
            np.take_along_axis(d, nearest, axis=1), np.sort(d, axis=1)[:, :k]
        )
    smooth = rng.normal(size=(300, 2))
    strata = rng.integers(0, 3, 300)
    np.testing.assert_allclose(
        knn_centroids(smooth, 4, strata=strata, tie_break="kd_tree").values,
        knn_centroids(smooth, 4, strata=strata).values,
        rtol=1e-12,
    )
    tied = knn_centroids(x, 3, tie_break="kd_tree").values
    assert tied.shape == x.shape and not np.allclose(tied, knn_centroids(x, 3).values)
    with pytest.raises(ValueError, match="tie_break"):
        knn_centroids(x, 3, tie_break="random")
