"""Safe bin edges, ticks, grid counts, suppression and generalisation."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from safeplot.anonymize.grids import (
    MATCH_RTOL,
    bin_index,
    cell_counts,
    cell_index,
    closed_bin_index,
    coarsen_cell_index,
    grid_counts,
    histogram_counts,
    nice_step,
    rare_values,
    safe_edges,
    safe_ticks,
)
from safeplot.anonymize.suppression import coarsen_counts, coarsen_edges, generalize, suppress


def equals_any(points, values):
    points = np.asarray(points, float)[:, None]
    values = np.asarray(values, float)[None, :]
    return bool(
        (np.abs(points - values) <= MATCH_RTOL * np.maximum(abs(points), abs(values))).any()
    )


def test_suppress_removes_exactly_the_small_cells():
    s = suppress([[0, 1, 5], [2, 3, 4]], threshold=3)
    np.testing.assert_array_equal(s.suppressed, [[False, True, False], [True, False, False]])
    np.testing.assert_array_equal(np.nan_to_num(s.counts, nan=-1), [[0, -1, 5], [-1, 3, 4]])
    assert s.n_suppressed == 2


@settings(max_examples=100, deadline=None)
@given(
    counts=arrays(np.int64, st.integers(1, 60), elements=st.integers(0, 20)),
    threshold=st.integers(1, 10),
)
def test_suppression_leaves_no_count_below_threshold(counts, threshold):
    out = suppress(counts, threshold).counts
    shown = out[~np.isnan(out)]
    assert not ((shown > 0) & (shown < threshold)).any()
    # cells at or above the threshold, and empty cells, are untouched
    keep = (counts == 0) | (counts >= threshold)
    np.testing.assert_array_equal(out[keep], counts[keep])


@settings(max_examples=60, deadline=None)
@given(
    counts=arrays(
        np.int64, st.tuples(st.integers(1, 31), st.integers(1, 31)), elements=st.integers(0, 6)
    ),
    factor=st.integers(1, 4),
    threshold=st.integers(1, 8),
)
def test_generalize_preserves_totals_then_suppresses(counts, factor, threshold):
    coarse, released = generalize(counts, factor, threshold)
    assert coarse.sum() == counts.sum()
    assert coarse.shape == tuple(-(-s // factor) for s in counts.shape)
    shown = released.counts[~np.isnan(released.counts)]
    assert not ((shown > 0) & (shown < threshold)).any()


def test_coarsen_edges_extends_to_cover_last_block():
    np.testing.assert_array_equal(coarsen_edges(np.arange(8.0), 3), [0, 3, 6, 9])
    np.testing.assert_array_equal(coarsen_counts(np.arange(7), 3), [3, 12, 6])


def test_factor_must_be_positive_integer():
    with pytest.raises(ValueError, match="factor"):
        coarsen_counts([1, 2], 0)
    with pytest.raises(ValueError, match="factor"):
        coarsen_edges([0, 1, 2], 1.5)


@pytest.mark.parametrize(
    ("raw", "nice"), [(0.013, 0.02), (1.0, 1.0), (2.2, 2.5), (4.0, 5.0), (6.0, 10.0)]
)
def test_nice_step(raw, nice):
    assert nice_step(raw) == nice


def test_rare_values():
    np.testing.assert_array_equal(rare_values([3, 3, 3, 1, 2, 2, 9.5], 3), [1, 2, 9.5])


finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


@settings(max_examples=150, deadline=None)
@given(
    x=arrays(np.float64, st.integers(1, 200), elements=finite),
    bins=st.one_of(st.integers(1, 60), st.sampled_from(["auto", "fd", "sturges", "sqrt"])),
    threshold=st.integers(1, 5),
)
def test_safe_edges_extend_beyond_data_and_avoid_rare_values(x, bins, threshold):
    rare = rare_values(x, threshold)
    span = np.ptp(x)
    if span > 0 and (span < 1e-12 * np.abs(x).max() or span < 1e-250):
        with pytest.raises(ValueError, match="effectively constant"):
            safe_edges(x, bins, avoid=rare)
        return
    edges = safe_edges(x, bins, avoid=rare)
    assert edges[0] < x.min() and edges[-1] > x.max()
    assert np.all(np.diff(edges) > 0)
    if isinstance(bins, int):
        assert edges.size == bins + 1
    assert not equals_any(edges, rare)
    assert not equals_any((edges[:-1] + edges[1:]) / 2, rare)
    assert histogram_counts(x, edges).sum() == x.size


@settings(max_examples=80, deadline=None)
@given(
    x=arrays(np.float64, st.integers(1, 100), elements=finite),
    width=st.sampled_from([0.5, 1.0, 2.5, 10.0]),
)
def test_binwidth_grid(x, width):
    if np.ptp(x) / width > 990:
        with pytest.raises(ValueError, match="at most 1000"):
            safe_edges(x, binwidth=width, avoid=x)
        return
    edges = safe_edges(x, binwidth=width, avoid=x)
    np.testing.assert_allclose(np.diff(edges), width)
    assert edges[0] < x.min() and edges[-1] > x.max()
    assert not equals_any(edges, x)


def test_integer_data_get_edges_between_values():
    ages = np.arange(20, 81).repeat(2)  # every age held by two people: all rare at threshold 3
    edges = safe_edges(ages, bins=12, avoid=rare_values(ages, 3))
    assert not equals_any(edges, ages)
    assert edges[0] < 20 and edges[-1] > 80


@settings(max_examples=100, deadline=None)
@given(lo=finite, span=st.floats(1e-3, 1e5))
def test_safe_ticks_are_a_locators_round_numbers(lo, span):
    """Ticks depend on the limits alone: every multiple of a 1-2-2.5-5 step inside the
    limits, as matplotlib's MaxNLocator places them (DESIGN.md invariant 2)."""
    from .leakscan import on_locator_grid

    # a span below ~1e-6 of the magnitude is indistinguishable at the 1e-9 matching tolerance
    span = max(span, 1e-6 * abs(lo))
    hi = lo + span
    ticks = safe_ticks(lo, hi)
    assert ticks.size >= 2
    assert ticks.min() >= lo - 1e-9 * abs(lo) and ticks.max() <= hi + 1e-9 * abs(hi)
    assert on_locator_grid(ticks)
    # every multiple of the step inside the limits, none left out (nothing moved or dropped)
    step = float(f"{ticks[1] - ticks[0]:.6g}")  # the nice step, without the ticks' rounding
    first, last = math.ceil(lo / step - 1e-6), math.floor(hi / step + 1e-6)
    expected = step * np.arange(first, last + 1)
    # inside the limits up to rounding (1e-12): a multiple 1e-13 beyond them is not drawn
    expected = expected[(expected >= lo - 1e-12 * abs(lo)) & (expected <= hi + 1e-12 * abs(hi))]
    np.testing.assert_allclose(ticks, expected, rtol=1e-9, atol=1e-9 * step)


def test_bad_bins():
    with pytest.raises(TypeError, match="Explicit edges"):
        safe_edges([1.0, 2.0], bins=[1, 2, 3])
    with pytest.raises(ValueError, match="at least 1"):
        safe_edges([1.0, 2.0], bins=0)
    with pytest.raises(ValueError, match="rule"):
        safe_edges([1.0, 2.0], bins="nonsense")
    with pytest.raises(ValueError, match="finite"):
        safe_edges([1.0, np.inf])


def test_grid_counts_match_histogram2d():
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=(2, 5000))
    xe, ye = safe_edges(x, 30), safe_edges(y, 30)
    ref, _, _ = np.histogram2d(x, y, [xe, ye])
    np.testing.assert_array_equal(grid_counts(x, y, xe, ye), ref)


def _numpy_bins(v, edges):
    """numpy's histogram bin of each value (-1: in none), one value at a time."""
    out = []
    for x in v:
        c, _ = np.histogram([x], bins=edges)
        out.append(int(np.argmax(c)) if c.sum() else -1)
    return np.array(out)


@settings(max_examples=60, deadline=None)
@given(
    lo=st.floats(-1e6, 1e6),
    width=st.floats(1e-6, 1e3),
    nb=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_bin_indices_are_numpys_histogram_bins(lo, width, nb, seed):
    edges = lo + width * np.arange(nb + 1)
    rng = np.random.default_rng(seed)
    v = np.concatenate(
        [
            rng.uniform(edges[0] - 2 * width, edges[-1] + 2 * width, 200),
            edges,
            np.nextafter(edges, -np.inf),
            np.nextafter(edges, np.inf),
            [np.nan],
        ]
    )
    expected = _numpy_bins(v, edges)
    np.testing.assert_array_equal(closed_bin_index(v, edges), expected)
    # the open-ended index agrees inside the edges and says below (-1) or above (nb) outside
    open_ended = bin_index(v, edges)
    inside = expected >= 0
    np.testing.assert_array_equal(
        open_ended[inside & (v != edges[-1])], expected[inside & (v != edges[-1])]
    )
    assert (open_ended[v < edges[0]] == -1).all() and (open_ended[v > edges[-1]] == nb).all()
    assert open_ended[np.isnan(v)].tolist() == [-1]


def test_cell_index_and_counts_agree_with_histogram2d_at_the_edges():
    rng = np.random.default_rng(1)
    xe, ye = np.linspace(0, 3, 4), np.linspace(-1, 1, 5)
    x = np.r_[rng.uniform(-0.5, 3.5, 3000), xe, 3.0, np.nan]
    y = np.r_[rng.uniform(-1.5, 1.5, 3000), ye[:4], 1.0, 0.0]
    cells = cell_index(x, y, xe, ye)
    ok = np.isfinite(x)
    ref, _, _ = np.histogram2d(x[ok], y[ok], [xe, ye])
    np.testing.assert_array_equal(cell_counts(cells, ref.shape), ref)
    outside = ~ok | (x < 0) | (x > 3) | (y < -1) | (y > 1)
    assert (cells[outside] == -1).all() and (cells[~outside] >= 0).all()


@pytest.mark.parametrize("factor", [2, 3, 4])
def test_coarse_cells_are_the_cells_of_the_coarse_grid(factor):
    rng = np.random.default_rng(2)
    x, y = rng.normal(size=(2, 4000))
    xe, ye = safe_edges(x, 13), safe_edges(y, 7)
    fine = cell_index(x, y, xe, ye)
    coarse = coarsen_cell_index(fine, ye.size - 1, factor)
    np.testing.assert_array_equal(
        coarse, cell_index(x, y, coarsen_edges(xe, factor), coarsen_edges(ye, factor))
    )


# -- rare values looked up fast: the same answers as the plain search ----------------------


def _plain_hits(points, avoid, rtol=MATCH_RTOL):
    """Every point against every value to avoid (quadratic: small inputs only)."""
    p = np.asarray(points, dtype=float).ravel()[:, None]
    a = np.asarray(avoid, dtype=float).ravel()[None, :]
    if a.size == 0:
        return np.zeros(p.shape[0], dtype=bool)
    close = np.abs(p - a) <= rtol * np.maximum(np.abs(p), np.abs(a))
    return close.any(axis=1) & np.isfinite(p[:, 0])


def _data(kind, n, rng):
    if kind == "continuous":
        return rng.normal(10, 0.5, n)
    if kind == "one decimal":
        return np.round(rng.normal(10, 3, n), 1)
    if kind == "signed":
        return np.round(rng.lognormal(0, 2, n), 3) * rng.choice([-1.0, 1.0], n)
    return rng.integers(-5, 6, n).astype(float)


@pytest.mark.parametrize("kind", ["continuous", "one decimal", "signed", "integers"])
@pytest.mark.parametrize("threshold", [2, 5])
def test_rare_values_object_answers_as_the_plain_search(kind, threshold):
    from safeplot.anonymize.grids import RareValues, hit_mask

    rng = np.random.default_rng(threshold)
    x = _data(kind, 3000, rng)
    groups = rng.integers(-1, 3, x.size)
    listed = rare_values(x, threshold)
    within = [rare_values(x[groups == g], threshold) for g in range(3)]
    nearby = rng.choice(x, 40) * (1 + rng.choice([0.0, 5e-10, 2e-9, 1e-6], 40))
    points = np.r_[nearby, np.nan, 0.0]
    for rtol in (MATCH_RTOL, 10 * MATCH_RTOL):
        lazy = RareValues(x, threshold)
        got = hit_mask(points, lazy, rtol)
        assert lazy._sorted is None  # found by a scan of the records, not by listing them
        np.testing.assert_array_equal(got, _plain_hits(points, listed, rtol))
    both = RareValues(x, threshold, groups)
    union = np.unique(np.concatenate([listed, *within]))
    np.testing.assert_array_equal(hit_mask(points, both), _plain_hits(points, union))
    np.testing.assert_array_equal(np.asarray(both), union)


def test_rare_values_object_gives_the_same_grid():
    from safeplot.anonymize.grids import RareValues

    x = np.round(np.random.default_rng(3).normal(10, 3, 20000), 1)
    listed = rare_values(x, 3)
    for bins in (10, 30, "auto"):
        np.testing.assert_array_equal(
            safe_edges(x, bins, avoid=RareValues(x, 3)), safe_edges(x, bins, avoid=listed)
        )


def test_hit_mask_of_many_points_sorts_them_and_answers_the_same():
    from safeplot.anonymize.grids import hit_mask

    rng = np.random.default_rng(4)
    avoid = np.sort(rng.normal(10, 1, 40000))
    few_hits = rng.normal(10, 1, 50000)
    few_hits[::1000] = avoid[::800][: few_hits[::1000].size]
    many_hits = rng.choice(avoid, 50000) * (1 + rng.choice([0.0, 2e-9], 50000))
    for points in (few_hits, many_hits):
        got = hit_mask(points, avoid)
        pos = np.clip(np.searchsorted(avoid, points), 1, avoid.size - 1)
        ref = np.zeros(points.size, dtype=bool)
        for nb in (pos - 1, pos):
            near = avoid[nb]
            ref |= np.abs(points - near) <= MATCH_RTOL * np.maximum(np.abs(points), np.abs(near))
        np.testing.assert_array_equal(got, ref)
        assert got.any()


def test_off_rare_moves_exactly_the_values_the_repeated_check_moves():
    from safeplot.anonymize import off_rare
    from safeplot.anonymize.grids import hit_mask

    rng = np.random.default_rng(5)
    avoid = np.round(np.arange(0, 10, 1e-6 * 0.5), 7)[::3]  # dense: moved values hit again
    values = rng.choice(avoid, 2000)
    expected = values.copy()
    for _ in range(100):  # the plain loop: every value checked at every step
        hit = hit_mask(expected, avoid)
        if not hit.any():
            break
        expected[hit] += 1e-6 * 0.5
    got = off_rare(values, avoid, 0.5)
    np.testing.assert_array_equal(got, expected)
    assert not hit_mask(got, avoid).any()


def test_union_sorted_and_as_sorted():
    from safeplot.anonymize.grids import as_sorted, union_sorted

    rng = np.random.default_rng(6)
    a, b = np.unique(rng.integers(0, 50, 30)), np.unique(rng.integers(0, 80, 30))
    np.testing.assert_array_equal(union_sorted(a, b), np.union1d(a, b))
    np.testing.assert_array_equal(union_sorted(a, a), a)
    ordered = np.arange(5.0)
    assert np.shares_memory(as_sorted(ordered), ordered)  # sorted already: not sorted again
    np.testing.assert_array_equal(as_sorted([3.0, 1.0, 2.0]), [1.0, 2.0, 3.0])
