"""Safe bin edges, ticks, grid counts, suppression and generalisation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from safeplot.anonymize.grids import (
    MATCH_RTOL,
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
@given(
    lo=finite,
    span=st.floats(1e-3, 1e5),
    avoid=st.lists(finite, max_size=30),
)
def test_safe_ticks_avoid_rare_values(lo, span, avoid):
    # a span below ~1e-6 of the magnitude is indistinguishable at the 1e-9 matching tolerance
    span = max(span, 1e-6 * abs(lo))
    hi = lo + span
    ticks = safe_ticks(lo, hi, avoid=avoid)
    assert ticks.size >= 2
    assert ticks.min() >= lo - 1e-9 * abs(lo) and ticks.max() <= hi + 1e-9 * abs(hi)
    if avoid:
        assert not equals_any(ticks, avoid)


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
