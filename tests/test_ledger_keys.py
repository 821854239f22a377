"""The ledger's keys of records: the same records give the same key, however found.

A release computes each record's cell (or sort order) once and hands it to
the ledger; the keys must be exactly those the ledger computes on its own,
or a release of the same records by another path would not be linked.
"""

from __future__ import annotations

import numpy as np
import pytest

from safeplot.anonymize.grids import cell_index, coarsen_cell_index, safe_edges
from safeplot.anonymize.probabilistic import add_keyed_noise
from safeplot.anonymize.suppression import coarsen_edges
from safeplot.keys import SecretKey
from safeplot.ledger import grid_keys, records_keys

KEY = SecretKey("ledger key tests", source="tests")


def _data(kind: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "continuous":
        return rng.normal(10, 0.5, (n, 2))
    if kind == "ties":
        return np.round(rng.normal(0, 1, (n, 2)), 1)
    # signed zeros and values equal in their first 9 digits (tied in the noise's rounding)
    x = np.round(rng.normal(0, 1, (n, 2)), 2)
    x[::7, 0] = -0.0
    x[1::5, 1] += 1e-12
    return x


@pytest.mark.parametrize("kind", ["continuous", "ties", "zeros and near ties"])
def test_grid_keys_from_cells_found_once_equal_the_ledgers_own(kind):
    xy = _data(kind, 3000, 0)
    xe, ye = safe_edges(xy[:, 0], 20), safe_edges(xy[:, 1], 15)
    own = grid_keys(xy[:, 0], xy[:, 1], xe, ye)
    cells = cell_index(xy[:, 0], xy[:, 1], xe, ye)
    assert grid_keys(xy[:, 0], xy[:, 1], xe, ye, cells=cells) == own
    # the rows in another order, -0.0 written as 0.0: the same records, the same keys
    perm = np.random.default_rng(1).permutation(len(xy))
    assert grid_keys(xy[perm, 0] + 0.0, xy[perm, 1], xe, ye) == own
    # coarse cells found from the fine ones are the cells of the coarse grid
    cx, cy = coarsen_edges(xe, 3), coarsen_edges(ye, 3)
    coarse = coarsen_cell_index(cells, ye.size - 1, 3)
    assert grid_keys(xy[:, 0], xy[:, 1], cx, cy, cells=coarse) == grid_keys(
        xy[:, 0], xy[:, 1], cx, cy
    )


def test_a_different_record_gives_a_different_cell_key():
    xy = _data("continuous", 500, 2)
    xe, ye = safe_edges(xy[:, 0], 5), safe_edges(xy[:, 1], 5)
    before = grid_keys(xy[:, 0], xy[:, 1], xe, ye)
    moved = xy.copy()
    moved[0, 1] = np.nextafter(moved[0, 1], np.inf)  # same cell, another value
    after = grid_keys(moved[:, 0], moved[:, 1], xe, ye)
    assert sum(a != b for a, b in zip(before, after, strict=True)) == 1


@pytest.mark.parametrize("kind", ["continuous", "ties", "zeros and near ties"])
def test_records_keys_from_the_noises_sort_equal_the_ledgers_own(kind):
    x = _data(kind, 4000, 3)
    work: dict = {}
    add_keyed_noise(x, 0.5, key=KEY, _work=work)
    for j in range(x.shape[1]):
        order, ordered = work["orders"][j], work["sorted"][j]
        assert order is not None
        np.testing.assert_array_equal(x[order, j], ordered)  # the order sorts the raw values
        assert (np.diff(ordered) >= 0).all()
        expected = records_keys(x[:, j])
        assert records_keys(x[:, j], order=order, ordered=ordered) == expected
        assert records_keys(x[:, j], order=order) == expected
        assert None not in expected


def test_records_keys_see_through_monotone_and_affine_transforms():
    x = np.abs(_data("continuous", 200, 4)[:, 0])
    rank, standard = records_keys(x)
    assert records_keys(np.log(x))[0] == rank  # the rank order survives a monotone map
    assert records_keys(3.0 * x[::-1] - 7.0)[1] == standard  # rescaled, shifted, reordered
    assert records_keys(x + np.r_[1e-3, np.zeros(199)]) != (rank, standard)


def test_the_runs_of_shown_bins_are_every_sum_a_reader_knows():
    from safeplot.ledger import _runs

    lo = np.arange(5.0)
    left, right, count, first, last = _runs(lo, lo + 1, np.array([3.0, np.nan, 4, 5, 0]))
    runs = set(zip(left.tolist(), right.tolist(), count.tolist(), strict=True))
    assert runs == {
        (0.0, 1.0, 3.0),
        (2.0, 3.0, 4.0),
        (3.0, 4.0, 5.0),
        (4.0, 5.0, 0.0),
        (2.0, 4.0, 9.0),
        (3.0, 5.0, 5.0),
        (2.0, 5.0, 9.0),
    }
    np.testing.assert_array_equal(lo[first], left)
    np.testing.assert_array_equal(lo[last] + 1, right)
    assert _runs(lo[:0], lo[:0], lo[:0])[0].size == 0
