"""Deterministic anonymisation by k-nearest-neighbour centroids (Avraam et al.).

Each record is replaced by the centroid of itself and its ``k - 1`` nearest
neighbours, so every released point summarises at least ``k`` people. The
procedure follows Avraam et al. (2021), section 3.3:

1. standardise every variable to z-scores (sample SD, ``ddof=1``), with the
   mean and SD computed as R computes them (extended-precision sums in row
   order, the mean refined by a second pass), as DataSHIELD does;
2. for each record, find the ``k`` nearest records in z-space (Euclidean, or
   Mahalanobis with ``metric="mahalanobis"``), the record itself included;
   the search is exact: floating-point distances are compared as they are,
   and ties at the boundary (exactly equal distances) are broken by row
   order (the earlier row wins), or with ``tie_break="kd_tree"`` in the
   order the k-d tree search of R's ``RANN::nn2`` meets them;
3. replace the record by the centroid (mean) of those ``k`` records;
4. scale each variable's centroids by the ratio of the original SD to the
   centroids' SD (the centroids are less spread out than the data), then undo
   the standardisation by multiplying by the original SD and adding the
   original mean (the paper's step (v), as DataSHIELD implements it). The
   centroids are not re-centred first, so the released mean drifts slightly
   from the original one while the SD is restored exactly;
   ``preserve_mean=True`` re-centres the centroids instead, which keeps the
   mean exactly (a departure from the paper).

With categorical strata (a hue, a facet) the search runs within each stratum
and the scaling of step 4 is global, over the whole data set. The result
depends only on the data: the same input always gives the same output.

Why the arithmetic of step 1 matters: two neighbours can be mathematically
equally far from a record (ages 27 and 29 from 28, at the same fare) while
their computed distances differ in the last bit, and which of them is nearer
then depends on how the mean and SD were rounded. A summation that rounds
differently can change such choices, hence the centroids' mean and SD, hence
every released value slightly. Measures that look at released values within
a tiny distance of the originals are sensitive to that: on Avraam, Jones &
Burton's Titanic example, sdcMicro's risk1 counts 38 records at risk with
R's arithmetic (the paper's 38), 31 with numpy's column sums of the same
data. The R arithmetic, with ``tie_break="kd_tree"``, reproduces DataSHIELD's
and the paper's neighbours exactly.

References
----------
.. [1] Avraam D, Wilson R, Butters O, Burton T, Nicolaides C, Jones E,
   Boyd A, Burton P. "Privacy preserving data visualizations." EPJ Data
   Science 10, 2 (2021). https://doi.org/10.1140/epjds/s13688-020-00257-4
.. [2] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
   protecting privacy in sensitive personal data." BMC Medical Informatics
   and Decision Making 22.
.. [3] Arya S, Mount DM, Netanyahu NS, Silverman R, Wu AY (1998). "An
   optimal algorithm for approximate nearest neighbor searching in fixed
   dimensions." Journal of the ACM 45(6), 891-923. (The ANN library.)
.. [4] Maneewongvatana S, Mount DM (1999). "It's okay to be skinny, if your
   friends are fat." Center for Geometric Computing 4th Annual Workshop on
   Computational Geometry. (The sliding-midpoint rule.)

"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.spatial import cKDTree

from .._progress import progress
from .._validate import finite_array
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from ._sorting import stable_sort

__all__ = ["DeterministicResult", "knn_centroids"]

# Relative gap below which two neighbour distances are treated as a possible
# tie and resolved exactly (well above floating-point noise, far below any
# real difference in distances).
_TIE_RTOL = 1e-10
# Rows handled per chunk of the neighbour query, to bound memory at large n.
_CHUNK = 1 << 18
# Unique points above which they are renumbered in spatial order before the search.
_SPATIAL_ORDER_MIN = 50_000
# Rows first checked for a monotone chain, before every row is.
_CHAIN_PROBE = 1024
# Values added per step of the sequential extended-precision sums of the standardisation.
_SUM_CHUNK = 1 << 20


@dataclass(frozen=True)
class DeterministicResult:
    """Output of :func:`knn_centroids`.

    Attributes
    ----------
    values : ndarray, shape (n, p)
        The anonymised records, in the input's row order.
    k : int
        Number of records in each centroid.
    metric : str
        Distance used for the neighbour search.
    coincident : ndarray of bool, shape (n,)
        True where a record's anonymised value is shared with another record
        (coinciding centroids; the paper draws them as black dots).
    scale : ndarray, shape (p,)
        Factor by which each variable's centroids were stretched to restore
        the original SD (always >= 1 up to rounding).
    """

    values: np.ndarray
    k: int
    metric: str
    coincident: np.ndarray
    scale: np.ndarray

    @property
    def n_coincident(self) -> int:
        """Number of records whose anonymised value coincides with another's."""
        return int(self.coincident.sum())


def _as_matrix(values: ArrayLike) -> np.ndarray:
    # row-major whatever the input's layout: means and SDs summed in another order differ in
    # the last bits, and the result must not depend on how the caller stored the data
    x = np.ascontiguousarray(finite_array(values))
    return x[:, None] if x.ndim == 1 else x


def _sequential_sum(
    values: np.ndarray, centre: np.longdouble | None = None, *, square: bool = False
) -> np.longdouble:
    """Sum `values`, their deviations from `centre` or their squares, one by one in long double.

    The order and precision of R's C loops: an extended-precision accumulator
    (``LDOUBLE``) that adds the terms in row order, here in chunks that carry
    the running total. Pairwise or SIMD summation (numpy's) rounds
    differently.
    """
    total = np.longdouble(0)
    for start in range(0, values.size, _SUM_CHUNK):
        part = values[start : start + _SUM_CHUNK].astype(np.longdouble)
        if centre is not None:
            part -= centre
        if square:
            part *= part
        part[0] += total
        total = np.add.accumulate(part)[-1]
    return total


def _r_mean_sd(values: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Return each column's mean and SD (``ddof=1``) as R's ``mean()`` and ``sd()`` compute them.

    R sums in extended precision (``long double``), in row order, and
    refines the mean by a second pass over the deviations from it; its
    variance sums the squared deviations from that mean in extended
    precision too. The results are almost always the correctly rounded mean
    and SD, whatever the order or memory layout of the data, where a plain
    floating-point sum can be a few units in the last place off.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Finite numeric data, at least two records.

    Returns
    -------
    mean, sd : ndarray, shape (p,)

    Notes
    -----
    The neighbour search of :func:`knn_centroids` compares floating-point
    distances exactly, so where two neighbours are mathematically equally
    far (ages 27 and 29 from 28, at the same fare) the last bits of the
    z-scores decide between them. Standardising with R's arithmetic makes
    those choices R's, as in DataSHIELD and Avraam, Jones & Burton's
    Titanic example. Where ``long double`` is plain double precision (as on
    some platforms), R and this function add in double precision.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.1, 0.2, 0.3])
    >>> mean, sd = _r_mean_sd(x)  # R's mean(x): the double nearest 0.6 / 3
    >>> float(mean[0]), float(x.mean())
    (0.2, 0.20000000000000004)
    """
    x = _as_matrix(values)
    n = x.shape[0]
    means = np.empty(x.shape[1])
    sds = np.empty(x.shape[1])
    count = np.longdouble(n)
    for j in range(x.shape[1]):
        col = np.ascontiguousarray(x[:, j])
        # summary.c: the sum over n, then the mean deviation from it added back
        mean = _sequential_sum(col) / count
        if np.isfinite(mean):
            mean = mean + _sequential_sum(col, mean) / count
        means[j] = float(mean)
        # cov.c: squared deviations from the (double) mean, over n - 1, rounded, then sqrt
        var = _sequential_sum(col, np.longdouble(means[j]), square=True) / np.longdouble(n - 1)
        sds[j] = np.sqrt(float(var))
    return means, sds


def _row_codes(points: np.ndarray) -> np.ndarray:
    """Label identical rows with one integer code, numbered in order of first appearance."""
    if points.shape[1] == 2:
        # each column on its own, then the pair of codes as one integer: 25% faster than
        # hashing the rows as complex numbers, and the same codes (numbered by first appearance)
        first, _ = pd.factorize(points[:, 0])
        second, uniques = pd.factorize(points[:, 1])
        codes, _ = pd.factorize(first.astype(np.int64) * len(uniques) + second)
        return codes.astype(np.intp)
    codes = np.zeros(points.shape[0], dtype=np.int64)
    for j in range(points.shape[1]):
        col, uniques = pd.factorize(points[:, j])
        # re-factorise the combined code so it never overflows int64
        codes, _ = pd.factorize(codes * len(uniques) + col)
    return codes.astype(np.intp)


class _Groups:
    """Identical rows grouped: unique points, each row's group, sizes and member rows.

    Continuous data rarely repeat a row; when the first column has no
    repeated value every row is its own group and no hashing is needed.
    """

    def __init__(self, points: np.ndarray) -> None:
        n = points.shape[0]
        if pd.Index(points[:, 0]).is_unique:
            self.inverse = np.arange(n)
        else:
            self.inverse = _row_codes(points)
        self.counts = self.counts_by_code = np.bincount(self.inverse)
        if self.counts.size == n:
            self.first_row = self.inverse
            self.points = points
        else:
            # codes are numbered by first appearance: a row starts a group
            # when its code exceeds every code before it
            seen = np.maximum.accumulate(self.inverse)
            self.first_row = np.flatnonzero(np.r_[True, self.inverse[1:] > seen[:-1]])
            self.points = points[self.first_row]
        self.label = np.arange(self.points.shape[0])  # position -> group code
        self._order: np.ndarray | None = None
        self._starts: np.ndarray | None = None

    @classmethod
    def sorted_1d(cls, values: np.ndarray) -> _Groups:
        """Group one column by sorting it: unique values ascending, each numbered by its rank.

        One stable sort gives what hashing gives for many columns: the
        unique points (in ascending order, the order the one-dimensional
        search walks), each row's point, the multiplicities and, since a
        stable sort keeps equal values in row order, each point's rows in
        ascending order.
        """
        order, ordered = stable_sort(values)
        return cls._runs(ordered[:, None], order)

    @classmethod
    def chain(cls, points: np.ndarray) -> _Groups:
        """Group the rows of a monotone chain (:func:`_is_chain`) without hashing or sorting.

        Along a chain equal rows are adjacent (every row between two equal
        ones is squeezed to the same values), so the runs of equal rows are
        the unique points, already in the order the window search walks.
        """
        return cls._runs(points, None)

    @classmethod
    def _runs(cls, ordered: np.ndarray, order: np.ndarray | None) -> _Groups:
        """Group rows given in chain order (`order` maps them to rows; None: the identity)."""
        self = cls.__new__(cls)
        n = ordered.shape[0]
        new = np.empty(n, dtype=bool)
        new[:1] = True
        if ordered.shape[1] == 1:
            np.not_equal(ordered[1:, 0], ordered[:-1, 0], out=new[1:])
        else:
            np.any(ordered[1:] != ordered[:-1], axis=1, out=new[1:])
        starts = np.flatnonzero(new)
        code = np.arange(n) if starts.size == n else np.cumsum(new) - 1
        if order is None:
            order = np.arange(n)
            self.inverse = code
        else:
            self.inverse = np.empty(n, dtype=np.intp)
            self.inverse[order] = code
        self.counts = self.counts_by_code = np.diff(np.r_[starts, n])
        self.first_row = order[starts]
        self.points = ordered[starts]
        self.label = np.arange(starts.size)
        self._order = order
        self._starts = starts
        return self

    def reorder(self, order: np.ndarray) -> None:
        """Put the unique points in `order` (e.g. spatial order, so queries stay in cache)."""
        self.points = self.points[order]
        self.counts = self.counts[order]
        self.first_row = self.first_row[order]
        self.label = self.label[order]

    def position(self) -> np.ndarray:
        """Return each row's position among the (reordered) unique points."""
        where = np.empty_like(self.label)
        where[self.label] = np.arange(self.label.size)
        return where[self.inverse]

    def _index(self) -> None:
        if self._order is None:
            self._order = np.argsort(self.inverse, kind="stable")
            self._starts = np.concatenate([[0], np.cumsum(self.counts_by_code)[:-1]])

    def first_rows(self, g: np.ndarray, length: int) -> np.ndarray:
        """Return the first `length` rows of each unique point in `g` (any shape), ascending.

        Points with fewer rows are padded with the largest integer.
        """
        self._index()
        code = self.label[g]
        step = np.arange(length)
        idx = self._starts[code][..., None] + step
        valid = step < self.counts_by_code[code][..., None]
        rows = self._order[np.minimum(idx, self._order.size - 1)]
        return np.where(valid, rows, np.iinfo(np.intp).max)

    def __getitem__(self, g: int) -> np.ndarray:
        """Return the rows of the unique point at position `g`, ascending (only ties need them)."""
        self._index()
        code = self.label[g]
        start = self._starts[code]
        return self._order[start : start + self.counts_by_code[code]]


def _sq_dist(points: np.ndarray, rows: np.ndarray, cand: np.ndarray) -> np.ndarray:
    """Squared Euclidean distance from points[rows] to points[cand] (one formula everywhere)."""
    if points.shape[1] == 2:
        # the same two terms added once, as the sum below adds them, one column at a time:
        # a reduction over an axis of length two walks the array several times slower
        x, y = points[:, 0], points[:, 1]
        dx = x[cand] - x[rows][..., None]
        dy = y[cand] - y[rows][..., None]
        dx *= dx
        dy *= dy
        dx += dy
        return dx
    diff = points[cand] - points[rows][..., None, :]
    return (diff * diff).sum(axis=-1)


def _neighbour_weights(
    groups: _Groups, k: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Find, for every unique point with fewer than k copies, its k nearest records.

    Works on unique points weighted by their multiplicity, so heavily tied
    data cost no more than distinct data. The tree's distances decide the
    neighbours; where the last neighbour is (nearly) tied with the next one,
    the distances are recomputed exactly and ties go to the earliest rows.

    Yields (rows, candidates, weights) chunk by chunk, so memory stays
    bounded at any n: for each unique point in `rows`, ``weights[i, j]``
    records of unique point ``candidates[i, j]`` are among its k nearest.
    Each row of candidates is in original-row order, so equal neighbour sets
    give bit-identical centroids.
    """
    points, counts, first_row = groups.points, groups.counts, groups.first_row
    need = np.flatnonzero(counts < k)
    m = min(k + 1, points.shape[0])
    tree = cKDTree(points, balanced_tree=False, compact_nodes=False)
    chunks = range(0, need.size, _CHUNK)
    for start in progress(chunks, desc="kNN centroids", unit="chunk", size=need.size):
        rows = need[start : start + _CHUNK]
        dist, cand = tree.query(points[rows], k=m, workers=-1)
        cand = cand.reshape(rows.size, m)
        d2 = np.square(dist.reshape(rows.size, m))
        # order by distance, then by the earliest row of each point
        order = np.lexsort((first_row[cand], d2), axis=-1)
        cand = np.take_along_axis(cand, order, axis=1)
        d2 = np.take_along_axis(d2, order, axis=1)
        c = counts[cand]
        w = np.clip(k - (np.cumsum(c, axis=1) - c), 0, c)
        # the boundary: the last candidate that contributes records
        b = (w > 0).sum(axis=1) - 1
        r = np.arange(rows.size)
        db = d2[r, b]
        tol = _TIE_RTOL * db
        tie_next = (b + 1 < m) & (np.abs(d2[r, np.minimum(b + 1, m - 1)] - db) <= tol)
        tie_prev = (
            (b >= 1) & (np.abs(db - d2[r, np.maximum(b - 1, 0)]) <= tol) & (w[r, b] < c[r, b])
        )
        tied = np.flatnonzero(tie_next | tie_prev)
        if tied.size:
            c_t, w_t, ok = _resolve_ties_batch(groups, tree, rows[tied], k, m)
            cand[tied[ok]], w[tied[ok]] = c_t[ok], w_t[ok]
            for i in tied[~ok]:
                cand[i], w[i] = _resolve_ties(groups, tree, rows[i], db[i], k, m)
        # sum each centroid in the order of original rows: the same neighbour set gives the
        # same bits whatever the internal numbering of the points
        canon = np.argsort(np.where(w > 0, first_row[cand], np.iinfo(np.intp).max), axis=1)
        yield rows, np.take_along_axis(cand, canon, axis=1), np.take_along_axis(w, canon, axis=1)


#: Candidates fetched per point when (nearly) tied boundaries are resolved in one batch.
_TIE_BATCH_CANDIDATES = 4


def _resolve_ties_batch(
    groups: _Groups, tree: cKDTree, us: np.ndarray, k: int, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Exact neighbour sets for many tied points at once, where a short candidate list decides.

    Rounded data tie often: resolving them one by one was the slowest part
    of the search. Here the ``k + 4`` nearest points of each are fetched in
    one query, their distances recomputed exactly, and the k nearest taken
    in order of (exact distance, earliest row), as :func:`_resolve_ties`
    does; where only some of the records at the boundary distance are taken,
    the earliest rows over all copies of the points there win. A point is
    left to :func:`_resolve_ties` (``ok`` False) when the short list may miss
    a point at the boundary distance.
    """
    points, counts, first_row = groups.points, groups.counts, groups.first_row
    m2 = min(k + _TIE_BATCH_CANDIDATES, points.shape[0])
    _, cand = tree.query(points[us], k=m2, workers=-1)
    cand = cand.reshape(us.size, m2)
    d2 = _sq_dist(points, us, cand)
    order = np.lexsort((first_row[cand], d2), axis=-1)
    cand = np.take_along_axis(cand, order, axis=1)
    d2 = np.take_along_axis(d2, order, axis=1)
    c = counts[cand]
    w = np.clip(k - (np.cumsum(c, axis=1) - c), 0, c)
    r = np.arange(us.size)
    b = (w > 0).sum(axis=1) - 1
    db = d2[r, b][:, None]
    at_boundary = d2 == db
    if m2 == points.shape[0]:
        complete = np.ones(us.size, dtype=bool)  # every point is a candidate
    else:
        complete = d2[:, -1] > db[:, 0] * (1 + 1e-6) + 1e-300
    partial = np.flatnonzero(
        (np.where(at_boundary, c - w, 0).sum(axis=1) > 0) & (at_boundary & (c > 1)).any(axis=1)
    )
    if partial.size:
        # some records at the boundary distance are taken and some not, and repeated
        # points are among them: take the earliest rows over all their copies
        bnd = at_boundary[partial]
        left = k - np.where(bnd, 0, w[partial]).sum(axis=1)
        rows = groups.first_rows(cand[partial], k)  # (p, m2, k): no member gives more than k
        rows = np.where(bnd[..., None], rows, np.iinfo(np.intp).max)
        cutoff = np.sort(rows.reshape(partial.size, -1), axis=1)[np.arange(partial.size), left - 1]
        taken = (rows <= cutoff[:, None, None]).sum(axis=2)
        w[partial] = np.where(bnd, taken, w[partial])
    ok = complete.copy()
    out_c = np.zeros((us.size, m), dtype=np.intp)
    out_w = np.zeros((us.size, m), dtype=np.int64)
    keep = w > 0
    # the taken candidates come first in each row (they are the nearest)
    n_keep = keep.sum(axis=1)
    ok &= n_keep <= m
    cols = np.arange(m2)[None, :]
    take = keep & (cols < m)
    out_c[:, : min(m, m2)] = np.where(take, cand, 0)[:, : min(m, m2)]
    out_w[:, : min(m, m2)] = np.where(take, w, 0)[:, : min(m, m2)]
    return out_c, out_w, ok


def _resolve_ties(
    groups: _Groups, tree: cKDTree, u: int, d_boundary: float, k: int, m: int
) -> tuple[np.ndarray, np.ndarray]:
    """Exact neighbour set for one point whose boundary distance is (nearly) tied.

    Candidates at exactly equal distance compete by row order: the earliest
    rows among all of them are taken.
    """
    radius = np.sqrt(d_boundary) * (1 + 1e-6) + 1e-300
    cand = np.asarray(tree.query_ball_point(groups.points[u], radius), dtype=np.intp)
    return _take_nearest(groups, u, cand, k, m)


def _take_nearest(
    groups: _Groups, u: int, cand: np.ndarray, k: int, m: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return the k nearest records of point `u` among the points `cand` (holding all of them).

    Distances are computed exactly; records at equal distance are taken in
    row order, over all copies of the points at that distance.
    """
    points, counts, first_row = groups.points, groups.counts, groups.first_row
    d2 = _sq_dist(points, np.array([u]), cand[None, :])[0]
    order = np.lexsort((first_row[cand], d2))
    cand, d2 = cand[order], d2[order]
    weights = np.zeros(cand.size, dtype=np.int64)
    taken = 0
    i = 0
    while taken < k:
        j = i + int(np.searchsorted(d2[i:], d2[i], side="right"))
        group = cand[i:j]
        sizes = counts[group]
        left = k - taken
        if sizes.sum() <= left:
            weights[i:j] = sizes
            taken += int(sizes.sum())
        else:
            rows = np.concatenate([groups[g] for g in group])
            owner = np.repeat(np.arange(group.size), sizes)
            chosen = owner[np.argsort(rows, kind="stable")[:left]]
            weights[i:j] = np.bincount(chosen, minlength=group.size)
            taken = k
        i = j
    keep = weights > 0
    out_c = np.zeros(m, dtype=np.intp)
    out_w = np.zeros(m, dtype=np.int64)
    out_c[: keep.sum()] = cand[keep]
    out_w[: keep.sum()] = weights[keep]
    return out_c, out_w


def _is_chain(points: np.ndarray) -> bool:
    """Tell whether the rows form a monotone chain: each column monotone down the rows.

    Each column may rise or fall (weakly). Walking along a chain away from a
    row, no coordinate difference shrinks, so squared distances, even as
    rounded in floating point, never decrease: the nearest rows lie in a
    window around each row, as for one sorted variable. Q-Q points (both
    coordinates sorted) are the usual case. Random data fail on the first
    rows of the first column, before any pass over every value.
    """
    if points.shape[0] < 2:
        return False
    for rows in (slice(0, _CHAIN_PROBE), slice(None)):
        for j in range(points.shape[1]):
            step = np.diff(points[rows, j])
            if not ((step >= 0).all() or (step <= 0).all()):
                return False
    return True


def _neighbour_weights_chain(
    groups: _Groups, k: int
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`_neighbour_weights` along a monotone chain, by a window instead of a k-d tree.

    `groups` holds the unique points in chain order: one variable's values
    ascending (:meth:`_Groups.sorted_1d`) or the rows of a monotone chain
    (:meth:`_Groups.chain`, :func:`_is_chain`). Squared distances never
    decrease away from a point along the chain, so its k nearest records lie
    among the ``k - 1`` unique points on either side of it, and every
    point's candidates are its ``k`` neighbours on each side (one more than
    needed, to see whether points at the boundary distance go on beyond the
    window). The candidates are ordered by exact squared distance, computed
    as :func:`_sq_dist` does, then by earliest row, and weighted exactly as
    the k-d tree path weights them, so the two give the same neighbour sets
    and bit-identical centroids. A point whose boundary distance is shared
    by a point outside its window (rounding can make distances on one side
    equal) is resolved from every point within that distance.
    """
    points, counts, first_row = groups.points, groups.counts, groups.first_row
    nu = points.shape[0]
    # the coordinate that spreads most along the chain, made ascending: points within a
    # distance of a point lie within that distance of it in this coordinate, a contiguous
    # run of the chain (a constant coordinate, possible within a stratum, would be all of it)
    span = points[-1] - points[0]
    widest = int(np.argmax(np.abs(span)))
    key = points[:, widest] if span[widest] >= 0 else -points[:, widest]
    need = np.flatnonzero(counts < k)
    m = min(k + 1, nu)
    offsets = np.arange(-k, k + 1)
    chunks = range(0, need.size, _CHUNK)
    for start in progress(chunks, desc="kNN centroids", unit="chunk", size=need.size):
        rows = need[start : start + _CHUNK]
        r = np.arange(rows.size)
        pos = rows[:, None] + offsets
        valid = (pos >= 0) & (pos < nu)
        pos = np.clip(pos, 0, nu - 1)
        if points.shape[1] == 1:
            diff = points[:, 0][pos] - points[:, 0][rows][:, None]
            d2 = diff * diff
        else:
            d2 = _sq_dist(points, rows, pos)
        d2 = np.where(valid, d2, np.inf)
        order = np.lexsort((first_row[pos], d2), axis=-1)
        cand = np.take_along_axis(pos, order, axis=1)
        d2s = np.take_along_axis(d2, order, axis=1)
        c = np.where(np.take_along_axis(valid, order, axis=1), counts[cand], 0)
        w = np.clip(k - (np.cumsum(c, axis=1) - c), 0, c)
        b = (w > 0).sum(axis=1) - 1
        db = d2s[r, b]
        at_boundary = d2s == db[:, None]
        partial = np.flatnonzero(
            (np.where(at_boundary, c - w, 0).sum(axis=1) > 0) & (at_boundary & (c > 1)).any(axis=1)
        )
        if partial.size:
            # records at the boundary distance taken in row order over all copies of the
            # points there, as _resolve_ties_batch does
            bnd = at_boundary[partial]
            left = k - np.where(bnd, 0, w[partial]).sum(axis=1)
            firsts = groups.first_rows(cand[partial], k)
            firsts = np.where(bnd[..., None], firsts, np.iinfo(np.intp).max)
            flat = np.sort(firsts.reshape(partial.size, -1), axis=1)
            cutoff = flat[np.arange(partial.size), left - 1]
            taken = (firsts <= cutoff[:, None, None]).sum(axis=2)
            w[partial] = np.where(bnd, taken, w[partial])
        # the taken candidates are a prefix of each row: keep the first m columns
        cand, w = cand[:, :m], w[:, :m]
        # the values at the boundary distance may go on beyond the window
        beyond = np.flatnonzero((d2[:, 0] <= db) | (d2[:, -1] <= db))
        for i in beyond:
            u = rows[i]
            radius = np.sqrt(db[i]) * (1 + 1e-6) + 1e-300
            lo = np.searchsorted(key, key[u] - radius, side="left")
            hi = np.searchsorted(key, key[u] + radius, side="right")
            cand[i], w[i] = _take_nearest(groups, u, np.arange(lo, hi), k, m)
        canon = np.argsort(np.where(w > 0, first_row[cand], np.iinfo(np.intp).max), axis=1)
        yield rows, np.take_along_axis(cand, canon, axis=1), np.take_along_axis(w, canon, axis=1)


class _KdTree:
    """The k-d tree of the ANN library (Arya & Mount), which R's ``RANN::nn2`` searches.

    Only the order in which records at exactly equal distances are met
    depends on it: the k nearest are the same records whatever the tree.
    DataSHIELD and Avraam, Jones & Burton find neighbours with ``nn2``, so
    reproducing their centroids where distances tie exactly needs its
    order. The tree (Maneewongvatana & Mount's sliding-midpoint rule, one
    record per leaf):

    * a cell is cut across its longest side (within 0.1 %; of those, the
      one along which its records spread most, the first on a tie) at the
      side's midpoint, slid to the nearest record when all records lie on
      one side of it;
    * the records are partitioned in place, below the cut, then at it,
      then above, by two passes that swap from both ends; the lower child
      takes half of them when the cut falls among records equal to it.

    A search visits the child on the query's side first (the upper one when
    the query lies on the cut) and the other only if its cell is strictly
    nearer than the current k-th neighbour; a record is taken only if
    strictly nearer than the current k-th, so among exactly equal distances
    the first met wins. Distances are sums of squared coordinate
    differences, query minus record, in coordinate order.
    """

    _ERR = 0.001

    def __init__(self, points: np.ndarray) -> None:
        self.points = [tuple(float(v) for v in row) for row in points]
        n, self.dim = points.shape
        self.lo = [float(v) for v in points.min(axis=0)]
        self.hi = [float(v) for v in points.max(axis=0)]
        self.root = self._build(list(range(n)), 0, n, list(self.lo), list(self.hi))

    def _partition(self, order: list[int], start: int, n: int, d: int, cut: float) -> tuple:
        pts = self.points
        lo, hi = 0, n - 1
        while True:
            while lo < n and pts[order[start + lo]][d] < cut:
                lo += 1
            while hi >= 0 and pts[order[start + hi]][d] >= cut:
                hi -= 1
            if lo > hi:
                break
            order[start + lo], order[start + hi] = order[start + hi], order[start + lo]
            lo, hi = lo + 1, hi - 1
        below = lo
        hi = n - 1
        while True:
            while lo < n and pts[order[start + lo]][d] <= cut:
                lo += 1
            while hi >= below and pts[order[start + hi]][d] > cut:
                hi -= 1
            if lo > hi:
                break
            order[start + lo], order[start + hi] = order[start + hi], order[start + lo]
            lo, hi = lo + 1, hi - 1
        return below, lo

    def _build(self, order: list[int], start: int, n: int, box_lo: list, box_hi: list) -> Any:
        if n <= 1:
            return order[start] if n == 1 else None
        pts = self.points
        longest = max(box_hi[d] - box_lo[d] for d in range(self.dim))
        spread, dim = -1.0, 0
        for d in range(self.dim):
            if box_hi[d] - box_lo[d] >= (1 - self._ERR) * longest:
                values = [pts[order[start + i]][d] for i in range(n)]
                if max(values) - min(values) > spread:
                    spread, dim = max(values) - min(values), d
        values = [pts[order[start + i]][dim] for i in range(n)]
        smallest, largest = min(values), max(values)
        ideal = (box_lo[dim] + box_hi[dim]) / 2
        cut = min(max(ideal, smallest), largest)
        below, up_to = self._partition(order, start, n, dim, cut)
        if ideal < smallest:
            n_lo = 1
        elif ideal > largest:
            n_lo = n - 1
        elif below > n // 2:
            n_lo = below
        elif up_to < n // 2:
            n_lo = up_to
        else:
            n_lo = n // 2
        old_lo, old_hi = box_lo[dim], box_hi[dim]
        box_hi[dim] = cut
        lower = self._build(order, start, n_lo, box_lo, box_hi)
        box_hi[dim], box_lo[dim] = old_hi, cut
        upper = self._build(order, start + n_lo, n - n_lo, box_lo, box_hi)
        box_lo[dim] = old_lo
        return (dim, cut, old_lo, old_hi, lower, upper)

    def query(self, q: tuple, k: int) -> list[int]:
        """Return the k nearest records of `q`, nearest first, equal distances as first met."""
        keys: list[float] = []
        rows: list[int] = []
        pts, dim = self.points, self.dim

        def kth() -> float:
            return keys[k - 1] if len(keys) == k else math.inf

        def visit(node: Any, box: float) -> None:
            if node is None:
                return
            if not isinstance(node, tuple):  # a leaf: one record
                bound = kth()
                p = pts[node]
                dist = 0.0
                for d in range(dim):
                    t = q[d] - p[d]
                    dist = dist + t * t
                    if dist > bound:
                        return
                i = len(keys)
                while i > 0 and keys[i - 1] > dist:
                    i -= 1
                keys.insert(i, dist)
                rows.insert(i, node)
                if len(keys) > k:
                    keys.pop()
                    rows.pop()
                return
            d, cut, cell_lo, cell_hi, lower, upper = node
            diff = q[d] - cut
            if diff < 0:
                near, far, edge = lower, upper, cell_lo - q[d]
            else:
                near, far, edge = upper, lower, q[d] - cell_hi
            visit(near, box)
            edge = max(edge, 0.0)
            box = box + (diff * diff - edge * edge)
            if box < kth():
                visit(far, box)

        start = 0.0  # the query's distance to the tree's bounding box
        for d in range(dim):
            t = max(self.lo[d] - q[d], q[d] - self.hi[d], 0.0)
            start = start + t * t
        visit(self.root, start)
        return rows


def _kd_tree_centroids(z: np.ndarray, search: np.ndarray, k: int) -> np.ndarray:
    """Centroids (z-space) of the k nearest records of every row, ties as ANN's tree meets them."""
    limit = sys.getrecursionlimit()
    # the tree is about 2 log2(n) deep, deeper where records pile up off the middle of cells
    sys.setrecursionlimit(max(limit, 4 * search.shape[0] + 100))
    try:
        tree = _KdTree(search)
        nearest = np.array([tree.query(q, k) for q in tree.points], dtype=np.intp)
    finally:
        sys.setrecursionlimit(limit)
    return z[nearest].mean(axis=1)


def _column_ranges(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each column's minimum and maximum, one column at a time.

    A reduction along the rows of a row-major (n, 2) array walks two
    values per inner loop; one column at a time is about 40 times faster.
    """
    lo = np.array([x[:, j].min() for j in range(x.shape[1])])
    hi = np.array([x[:, j].max() for j in range(x.shape[1])])
    return lo, hi


def _spread_bits(v: np.ndarray) -> np.ndarray:
    """Spread the low 16 bits of `v` to the even bits of a 32-bit code (Morton interleaving)."""
    v = (v | (v << np.uint64(8))) & np.uint64(0x00FF00FF)
    v = (v | (v << np.uint64(4))) & np.uint64(0x0F0F0F0F)
    v = (v | (v << np.uint64(2))) & np.uint64(0x33333333)
    return (v | (v << np.uint64(1))) & np.uint64(0x55555555)


def _spatial_order(points: np.ndarray) -> np.ndarray:
    """Return an order of `points` that keeps near points near in memory.

    Two columns: the Z-order (Morton) curve over a 65536 x 65536 grid, one
    sort (about 4x cheaper than building a k-d tree only for its leaf
    order). More columns: the leaf order of a k-d tree. Only the speed of
    the neighbour search depends on this order, never its result.
    """
    if points.shape[1] != 2:
        return cKDTree(points, balanced_tree=False, compact_nodes=False).indices
    lo, hi = _column_ranges(points)
    span = hi - lo
    span[span == 0] = 1.0
    cells = ((points - lo) * (65535.0 / span)).astype(np.uint64)
    code = _spread_bits(cells[:, 0]) | (_spread_bits(cells[:, 1]) << np.uint64(1))
    return np.argsort(code)  # any order of equal codes: the result does not depend on it


def _centroids_in_stratum(z: np.ndarray, search: np.ndarray, k: int) -> np.ndarray:
    """Centroids (in z-space) of the k nearest records of every row of one stratum."""
    if search.shape[1] == 1:
        # one variable: the neighbours are adjacent in sorted order (no k-d tree)
        groups = _Groups.sorted_1d(search[:, 0])
        neighbours = _neighbour_weights_chain(groups, k)
    elif _is_chain(search):
        # e.g. Q-Q points: the neighbours are adjacent along the chain (no k-d tree)
        groups = _Groups.chain(search)
        neighbours = _neighbour_weights_chain(groups, k)
    else:
        groups = _Groups(search)
        if groups.points.shape[0] > _SPATIAL_ORDER_MIN:
            # number the points in the order of a kd-tree's leaves: the neighbour queries
            # then walk the tree and the data in cache order (3x faster at 1e7 points)
            groups.reorder(_spatial_order(groups.points))
        neighbours = _neighbour_weights(groups, k)
    # the search points are the z-scores of the unique points, unless whitened (Mahalanobis)
    z_uniq = groups.points if search is z else z[groups.first_row]
    cent = z_uniq.copy()  # a point with at least k copies is its own centroid
    for rows, cand, w in neighbours:
        cent[rows] = np.einsum("ij,ijp->ip", w.astype(float), z_uniq[cand]) / k
    return cent[groups.position()]


def knn_centroids(
    values: ArrayLike,
    k: int | None = None,
    *,
    metric: Literal["euclidean", "mahalanobis"] = "euclidean",
    strata: ArrayLike | None = None,
    preserve_mean: bool = False,
    tie_break: Literal["row_order", "kd_tree"] = "row_order",
    policy: Policy | None = None,
) -> DeterministicResult:
    """Replace every record by the centroid of its k nearest neighbours.

    The deterministic anonymisation of Avraam et al. (2021): z-score (mean
    and SD computed as R computes them), exact kNN (record included, exact
    ties broken by row order), centroid, scale by the ratio of the original
    SD to the centroids' SD, un-standardise.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Complete, finite numeric data (one column per variable).
    k : int, optional
        Records per centroid; the policy requires ``k_min <= k <= n - k_min``.
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    metric : {"euclidean", "mahalanobis"}, default "euclidean"
        Distance in z-space. Mahalanobis whitens by the correlation matrix so
        strongly correlated variables are not counted twice.
    strata : array-like, shape (n,), optional
        A category per record; the search runs within each category (each
        must have at least ``k`` records) and the rescaling is global.
    preserve_mean : bool, default False
        Subtract the centroids' mean before scaling, so the released mean
        equals the original mean exactly. The paper and DataSHIELD do not
        re-centre (their released means drift slightly); this option is a
        departure from them, for analyses that need exact means.
    tie_break : {"row_order", "kd_tree"}, default "row_order"
        Which of several records at exactly the same distance is taken when
        only some of them fit among the k: the earliest row, or the first
        that the k-d tree search of the ANN library meets, as R's
        ``RANN::nn2`` does in DataSHIELD and in Avraam, Jones & Burton's
        code (see Notes). ``"kd_tree"`` reproduces their centroids exactly;
        it runs in Python (a fraction of a millisecond per record), so it is
        meant for reproducing their results rather than for large data.
    policy : Policy, optional
        Policy whose floors apply (default: the policy in force).

    Returns
    -------
    DeterministicResult
        ``.values`` has the input's shape (2-D ``(n, p)``) and SD; its mean is
        the original mean only with ``preserve_mean=True``.

    Raises
    ------
    DisclosureError
        ``k`` outside the policy's range, too few records, or a stratum
        with fewer than ``k`` records.
    ValueError
        Empty, non-finite or constant data; an unknown metric or tie break.

    Notes
    -----
    Exactly equal distances are common in rounded data (ages 27 and 29 from
    28, at one fare), and so is the choice among them when one of them
    completes the k. Both rules are deterministic; they differ only there.
    On Avraam, Jones & Burton's Titanic example (k = 3 within 12 strata)
    both give the paper's risk1 and risk2 (38 and 8 records), and
    ``"kd_tree"`` also gives its Table 3 to every printed digit, where
    ``"row_order"`` moves the standardised differences by up to 0.018.

    References
    ----------
    .. [1] Avraam et al., "Privacy preserving data visualizations", EPJ Data
       Science 10, 2 (2021), section 3.3.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(100, 2))
    >>> res = knn_centroids(x, k=3)
    >>> res.values.shape
    (100, 2)
    >>> bool(np.allclose(res.values.std(0, ddof=1), x.std(0, ddof=1)))
    True
    >>> bool(np.allclose(res.values.mean(0), x.mean(0)))  # the paper's mean drifts
    False
    >>> exact = knn_centroids(x, k=3, preserve_mean=True)
    >>> bool(np.allclose(exact.values.mean(0), x.mean(0)))
    True
    """
    pol = get_policy(policy)
    x = _as_matrix(values)
    n, p = x.shape
    if metric not in ("euclidean", "mahalanobis"):
        raise ValueError(f"metric={metric!r} is not supported; use 'euclidean' or 'mahalanobis'.")
    if tie_break not in ("row_order", "kd_tree"):
        raise ValueError(f"tie_break={tie_break!r}: use 'row_order' or 'kd_tree'.")
    centroids_of = _centroids_in_stratum if tie_break == "row_order" else _kd_tree_centroids
    k = pol.check_k(k, n)
    mean, sd = _r_mean_sd(x)
    lo, hi = _column_ranges(x)
    constant = lo == hi  # not sd == 0: a constant's float SD can be ~1e-16
    if constant.any():
        raise DisclosureError(
            f"Variable(s) {np.flatnonzero(constant).tolist()} are constant: their one value would "
            "be disclosed and cannot be anonymised. Remove constant columns."
        )
    z = np.subtract(x, mean)  # (x - mean) / sd, without a second array of every value
    z /= sd
    del x  # not needed below: its memory (a copy, for column-major input) goes back now
    search = z
    if metric == "mahalanobis" and p > 1:
        corr = np.atleast_2d(np.cov(z, rowvar=False))
        try:
            chol = np.linalg.cholesky(corr)
        except np.linalg.LinAlgError:
            raise ValueError(
                "The variables are perfectly collinear, so the Mahalanobis distance is undefined. "
                "Drop a redundant variable or use metric='euclidean'."
            ) from None
        search = np.linalg.solve(chol, z.T).T

    if strata is None:
        cent = centroids_of(z, search, k)
    else:
        codes = _strata_codes(strata, n)
        cent = np.empty_like(z)
        sizes = np.bincount(codes)
        small = np.flatnonzero((sizes > 0) & (sizes < k))
        if small.size:
            raise DisclosureError(
                f"{small.size} stratum/strata have fewer than k={k} records, so their records "
                "cannot be hidden among k neighbours. Merge small categories, drop the hue, or "
                "use a smaller k (not below k_min)."
            )
        for code in np.flatnonzero(sizes):
            idx = np.flatnonzero(codes == code)
            z_in = z[idx]
            cent[idx] = centroids_of(z_in, z_in if search is z else search[idx], k)

    c_sd = cent.std(axis=0, ddof=1)
    if (c_sd == 0).any():
        raise DisclosureError(
            "Every centroid is the same for at least one variable, so the data cannot be "
            "rescaled. "
            "Use a smaller k or more data."
        )
    # step (v): scale by sd(z) / sd(centroids) (sd(z) = 1) and undo the z-scores
    # in place (cent is this function's own array): the same operations, one array of memory
    if preserve_mean:
        cent -= cent.mean(axis=0)
    cent /= c_sd
    cent *= sd
    cent += mean
    out = cent
    coincident = _coincident_rows(out)
    return DeterministicResult(out, k, metric, coincident, 1.0 / c_sd)


def _strata_codes(strata: ArrayLike, n: int) -> np.ndarray:
    arr = np.asarray(strata)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"strata must have one entry per record ({n}), got shape {arr.shape}.")
    if arr.dtype.kind in "iu" and (arr.size == 0 or arr.min() >= 0):
        return arr.astype(np.intp)
    _, codes = np.unique(arr.astype(str) if arr.dtype == object else arr, return_inverse=True)
    return codes.astype(np.intp)


def _coincident_rows(x: np.ndarray) -> np.ndarray:
    # only rows whose first value repeats can coincide: hash the full rows of those alone
    out = pd.Series(x[:, 0]).duplicated(keep=False).to_numpy().copy()
    idx = np.flatnonzero(out)
    if idx.size:
        codes = _row_codes(x[idx])
        out[idx] = np.bincount(codes)[codes] > 1
    return out


def n_coincident(values: Sequence[Sequence[float]] | np.ndarray) -> int:
    """Count records whose value equals another record's (coinciding centroids)."""
    return int(_coincident_rows(_as_matrix(values)).sum())
