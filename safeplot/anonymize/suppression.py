"""Small-cell suppression and generalisation of counts (k-anonymisation of binned data).

*Suppression*: any bin or grid cell with ``0 < count < threshold`` is removed
(released as missing and drawn as a gap), so every count that is shown
describes at least ``threshold`` records. *Generalisation* first coarsens the
bins (a histogram's bin width times ``factor``; a 30 x 30 grid to 15 x 15) and
then suppresses, trading resolution for fewer suppressed cells. Both follow
Avraam et al. (2021), section 3.1, and the minimum-cell-count rules used by
output checkers (e.g. ACRO, DataSHIELD's ``nfilter.tab``).

References
----------
.. [1] Avraam D, Wilson R, Butters O, et al. "Privacy preserving data
   visualizations." EPJ Data Science 10, 2 (2021), section 3.1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "GridSuppression",
    "SuppressedCounts",
    "coarsen_counts",
    "coarsen_edges",
    "generalize",
    "suppress",
    "suppress_records",
    "trim_to_shown",
]


@dataclass(frozen=True)
class SuppressedCounts:
    """Counts after small-cell suppression.

    Attributes
    ----------
    counts : ndarray of float
        The counts, NaN where suppressed (every other value is 0 or >= threshold).
    suppressed : ndarray of bool
        True where a cell was suppressed.
    threshold : int
        The minimum cell count applied.
    """

    counts: np.ndarray
    suppressed: np.ndarray
    threshold: int

    @property
    def n_suppressed(self) -> int:
        """Number of cells suppressed."""
        return int(self.suppressed.sum())


def suppress(counts: ArrayLike, threshold: int) -> SuppressedCounts:
    """Remove every cell with ``0 < count < threshold``.

    Parameters
    ----------
    counts : array-like of int
        Bin or cell counts, any shape.
    threshold : int
        Minimum count a cell needs to be shown.

    Returns
    -------
    SuppressedCounts

    Examples
    --------
    >>> s = suppress([0, 1, 2, 3, 10], threshold=3)
    >>> s.counts
    array([ 0., nan, nan,  3., 10.])
    >>> s.n_suppressed
    2
    """
    c = np.asarray(counts)
    if c.size and (np.any(c < 0) or not np.all(np.isfinite(c))):
        raise ValueError("Counts must be finite and non-negative.")
    if int(threshold) != threshold or threshold < 1:
        raise ValueError(f"threshold must be a positive integer, got {threshold}.")
    small = (c > 0) & (c < threshold)
    out = c.astype(float)
    out[small] = np.nan
    return SuppressedCounts(out, small, int(threshold))


def coarsen_counts(counts: ArrayLike, factor: int) -> np.ndarray:
    """Sum counts over blocks of `factor` cells along every axis (zero-padded at the end).

    Examples
    --------
    >>> coarsen_counts([1, 2, 3, 4, 5], 2)
    array([3, 7, 5])
    >>> coarsen_counts([[1, 1], [1, 1]], 2)
    array([[4]])
    """
    factor = _check_factor(factor)
    c = np.asarray(counts)
    pad = [(0, (-s) % factor) for s in c.shape]
    c = np.pad(c, pad)
    shape = []
    for s in c.shape:
        shape += [s // factor, factor]
    return c.reshape(shape).sum(axis=tuple(range(1, 2 * c.ndim, 2)))


def coarsen_edges(edges: ArrayLike, factor: int) -> np.ndarray:
    """Every `factor`-th edge of an equal-width grid, extended to cover the last block.

    Examples
    --------
    >>> coarsen_edges([0, 1, 2, 3, 4, 5], 2)
    array([0., 2., 4., 6.])
    """
    factor = _check_factor(factor)
    e = np.asarray(edges, dtype=float)
    n_bins = e.size - 1
    short = (-n_bins) % factor
    if short:
        width = e[-1] - e[-2]
        e = np.concatenate([e, e[-1] + width * np.arange(1, short + 1)])
    return e[::factor]


def generalize(
    counts: ArrayLike, factor: int, threshold: int
) -> tuple[np.ndarray, SuppressedCounts]:
    """Coarsen by `factor`, then suppress: k-anonymisation by generalisation.

    Parameters
    ----------
    counts : array-like of int
        Counts on the fine grid.
    factor : int
        Cells merged along each axis (2: bin width doubled, 30x30 -> 15x15).
    threshold : int
        Minimum count a coarse cell needs to be shown.

    Returns
    -------
    coarse : ndarray
        The coarsened counts before suppression (for the caller's own use).
    released : SuppressedCounts
        The coarsened counts after suppression.

    Examples
    --------
    >>> _, s = generalize([1, 1, 0, 2, 5, 0], factor=2, threshold=3)
    >>> s.counts
    array([nan, nan,  5.])
    """
    coarse = coarsen_counts(counts, factor)
    return coarse, suppress(coarse, threshold)


@dataclass(frozen=True)
class GridSuppression:
    """Which records survive small-cell suppression of a grid of cells.

    Attributes
    ----------
    kept : ndarray of bool, shape (n,)
        True for a record whose cell is shown (holds at least ``threshold``
        records).
    cells_suppressed : int
        Cells with ``0 < count < threshold``, removed with their records.
    shape : tuple of int
        Cells per axis of the grid the rule was applied on (after
        coarsening).
    """

    kept: np.ndarray
    cells_suppressed: int
    shape: tuple[int, ...]

    @property
    def n_kept(self) -> int:
        """Number of records kept."""
        return int(self.kept.sum())


def suppress_records(
    values: ArrayLike, edges: Sequence[ArrayLike], threshold: int, *, factor: int = 1
) -> GridSuppression:
    """Drop the records that lie in grid cells holding fewer than `threshold` records.

    The records are counted in the grid whose cells are the products of the
    intervals given by `edges` (one sequence of edges per column of
    `values`: a histogram's bins for one column, a density grid's cells for
    two), coarsened by `factor` along every axis for generalisation. A record
    is kept when its cell holds at least `threshold` records. This is
    Avraam et al.'s rule for the box plots of two variables (section 4.1):
    records in the cells of the 30 x 30 density grid of x and y that are
    suppressed are removed, and each variable's box is drawn from the
    records that remain.

    Parameters
    ----------
    values : array-like, shape (n, d)
        Finite values, a column per axis of the grid (a 1-D array is one
        column).
    edges : sequence of array-like
        Increasing cell edges of each axis, covering the values.
    threshold : int
        Minimum records a cell needs to keep them.
    factor : int, default 1
        Cells merged along each axis before suppression (2: 30 x 30 -> 15 x 15).

    Returns
    -------
    GridSuppression

    Raises
    ------
    ValueError
        When the number of edge sequences is not the number of columns, an
        edge sequence has fewer than two edges, or a value lies outside its
        edges.

    Examples
    --------
    >>> import numpy as np
    >>> xy = np.array([[0.5, 0.5], [0.6, 0.4], [0.7, 0.2], [1.5, 1.5]])
    >>> out = suppress_records(xy, [[0, 1, 2], [0, 1, 2]], threshold=3)
    >>> out.kept, out.cells_suppressed
    (array([ True,  True,  True, False]), 1)
    >>> suppress_records(xy, [[0, 1, 2], [0, 1, 2]], threshold=3, factor=2).n_kept
    4
    """
    v = np.asarray(values, dtype=float)
    if v.ndim == 1:
        v = v[:, None]
    if v.ndim != 2 or len(edges) != v.shape[1]:
        raise ValueError(
            f"suppress_records needs one sequence of edges per column of values: got "
            f"{len(edges)} for values of shape {v.shape}."
        )
    if not np.isfinite(v).all():
        raise ValueError("suppress_records needs finite values: drop missing values first.")
    if int(threshold) != threshold or threshold < 1:
        raise ValueError(f"threshold must be a positive integer, got {threshold!r}.")
    factor = _check_factor(factor)
    index = []
    for j, e in enumerate(edges):
        e = np.asarray(e, dtype=float)
        if e.ndim != 1 or e.size < 2 or np.any(np.diff(e) <= 0):
            raise ValueError(f"The edges of axis {j} must be increasing, at least two of them.")
        if v.size and (v[:, j].min() < e[0] or v[:, j].max() > e[-1]):
            raise ValueError(
                f"Values of axis {j} lie outside its edges [{e[0]:g}, {e[-1]:g}]; give edges "
                "that cover the data."
            )
        # left-closed cells, the last one closed (as numpy.histogram)
        cell = np.clip(np.searchsorted(e, v[:, j], side="right") - 1, 0, e.size - 2)
        index.append(cell // factor)
    shape = tuple(-(-(np.asarray(e).size - 1) // factor) for e in edges)
    flat = np.ravel_multi_index(tuple(index), shape) if v.shape[0] else np.array([], dtype=int)
    counts = np.bincount(flat, minlength=int(np.prod(shape)))
    small = (counts > 0) & (counts < threshold)
    return GridSuppression(~small[flat], int(small.sum()), shape)


def _check_factor(factor: int) -> int:
    if isinstance(factor, bool) or int(factor) != factor or factor < 1:
        raise ValueError(f"factor must be a positive integer (e.g. 2), got {factor!r}.")
    return int(factor)


def trim_to_shown(
    counts: ArrayLike, *edges: ArrayLike
) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """Drop the outer rows of bins that show nothing (suppressed or empty).

    A suppressed outlier's bin would otherwise still stretch the grid, and
    with it the axis, towards the outlier: the extent of the plot would say
    where it lies. After trimming, the grid spans only bins that are shown.

    Parameters
    ----------
    counts : array-like
        Suppressed counts (NaN where suppressed), shape ``(..., n1, ..., nd)``:
        the last ``len(edges)`` axes are binned axes; leading axes (e.g. hue
        levels) are kept whole.
    *edges : array-like
        The edges of each binned axis (``n_i + 1`` values).

    Returns
    -------
    counts : ndarray
        The counts restricted to the shown span on every binned axis.
    edges : tuple of ndarray
        The matching edges.

    Examples
    --------
    >>> import numpy as np
    >>> c, (e,) = trim_to_shown([np.nan, 5.0, 0.0, 7.0, np.nan], [0, 1, 2, 3, 4, 5])
    >>> c, e
    (array([5., 0., 7.]), array([1., 2., 3., 4.]))
    """
    c = np.asarray(counts, dtype=float)
    shown = np.nan_to_num(c) > 0
    d = len(edges)
    lead = c.ndim - d
    out_edges = []
    index: list[slice] = [slice(None)] * c.ndim
    for i, e in enumerate(edges):
        axis = lead + i
        other = tuple(a for a in range(c.ndim) if a != axis)
        any_shown = shown.any(axis=other) if other else shown
        e = np.asarray(e, dtype=float)
        if not any_shown.any():
            out_edges.append(e)
            continue
        idx = np.flatnonzero(any_shown)
        lo, hi = int(idx[0]), int(idx[-1]) + 1
        index[axis] = slice(lo, hi)
        out_edges.append(e[lo : hi + 1])
    return c[tuple(index)], tuple(out_edges)
