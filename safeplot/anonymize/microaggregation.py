r"""Microaggregation: records replaced by the mean of a group of at least k similar records.

Microaggregation (Senavirathne & Torra 2019) partitions the
values into groups of at least ``k`` and releases, for every value, the
mean of its group. Senavirathne & Torra work one attribute at a time
(univariate microaggregation, their Algorithm 2): each column is
partitioned on its own, so a record's columns may fall in different
groups. That is the default here. Three partitioning algorithms are
provided:

``"mdav"``
    Maximum Distance to Average Vector (Domingo-Ferrer & Mateo-Sanz 2002,
    in the MDAV-generic form of Domingo-Ferrer & Torra 2005): groups of
    exactly ``k`` formed around the value farthest from the mean of the
    values left, and around the value farthest from that one; the last
    group takes the ``k .. 2k-1`` values left over.
``"vmdav"``
    Variable-size MDAV (Solanas & Martínez-Ballesté 2006): a group of ``k``
    formed around the value farthest from the mean of the data is
    extended, up to ``2k - 1`` values, by the nearest unassigned value
    while that value is much closer to the group than to any other
    unassigned value.
``"optimal"``
    The exact optimum for one variable (Hansen & Mukherjee 2003): the
    partition into groups of at least ``k`` values with the smallest
    within-group sum of squares. Optimal groups are runs of ``k .. 2k-1``
    consecutive values in sorted order, found by dynamic programming.

MDAV and V-MDAV were designed for records of several variables, and stay
available in that form: ``"mdav_multivariate"`` and
``"vmdav_multivariate"`` (``per_variable=False`` of :func:`mdav` and
:func:`vmdav`) form one partition of whole records, measuring distances
between z-scores (each column centred and divided by its sample SD,
``ddof=1``) and releasing the group means of the original values. Records
then stay whole, at a larger loss of information. Every function is
deterministic: ties are broken by row order.

Large data: MDAV of one variable works on the sorted values (every
group is taken from one end of the values left), so a million values take
about a second, with the same groups as the general algorithm. MDAV of
whole records is exact up to :data:`MDAV_EXACT_MAX_RECORDS` records and,
above, runs on its own within blocks of at most about 1,000 nearby records
(``variant="blocked"`` of :func:`mdav`, in the manner of the blocking
methods for very large data sets); the result's ``variant`` says which.

The within-group sum of squares reported (``sse``) is that of the z-scores,
so it can be compared across algorithms: :math:`\mathrm{SSE} = \sum_g
\sum_{i \in g} \lVert z_i - \bar z_g \rVert^2`.

References
----------
.. [1] Senavirathne N, Torra V. "Rounding based continuous data
   discretization for statistical disclosure control." Journal of Ambient
   Intelligence and Humanized Computing (2019).
   https://doi.org/10.1007/s12652-019-01489-7
.. [2] Domingo-Ferrer J, Mateo-Sanz JM. "Practical data-oriented
   microaggregation for statistical disclosure control." IEEE Transactions
   on Knowledge and Data Engineering 14(1), 189-201 (2002).
.. [3] Domingo-Ferrer J, Torra V. "Ordinal, continuous and heterogeneous
   k-anonymity through microaggregation." Data Mining and Knowledge
   Discovery 11, 195-212 (2005).
.. [4] Solanas A, Martínez-Ballesté A. "V-MDAV: a multivariate
   microaggregation with variable group size." COMPSTAT 2006, 917-925.
.. [5] Hansen SL, Mukherjee S. "A polynomial algorithm for optimal
   univariate microaggregation." IEEE Transactions on Knowledge and Data
   Engineering 15(4), 1043-1044 (2003).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.lib.stride_tricks import as_strided
from numpy.typing import ArrayLike

from .._progress import progress_bar
from .._validate import finite_array
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from ._sorting import stable_sort

__all__ = [
    "ALGORITHMS",
    "MDAV_EXACT_MAX_RECORDS",
    "MicroaggregationResult",
    "mdav",
    "microaggregate",
    "optimal_univariate",
    "vmdav",
]

#: The partitioning algorithms :func:`microaggregate` accepts: per variable (the paper's
#: univariate methods) or, with the suffix ``_multivariate``, one partition of whole records.
ALGORITHMS: tuple[str, ...] = (
    "mdav",
    "vmdav",
    "optimal",
    "mdav_multivariate",
    "vmdav_multivariate",
)

# Cost entries (run ends x group sizes) computed at a time by the dynamic programme.
_COST_CHUNK = 1 << 20
# Relative widening of the bucket distance bounds: far above their rounding error
# (a few units in the last place), far below any real difference between distances.
_SLACK = 1e-9

#: Records up to which whole-record MDAV (two or more columns) is exact; above, it runs in
#: blocks (``variant="auto"`` of :func:`mdav`). Exact MDAV takes about a second at this size.
MDAV_EXACT_MAX_RECORDS = 20_000
# Largest block of blocked MDAV (at least 8k, so that blocks hold at least 4k records). Its
# time grows in proportion; at 1e6 records (k = 3) the within-group SSE is 13% above exact
# MDAV's with 512, 9% with 1024 and 8.7% with 2048.
_BLOCK_RECORDS = 1024
# Vectorised passes over the MDAV decisions of one variable before the rest are taken one at
# a time (two passes settle them in practice; see _mdav_sorted_labels).
_DECISION_PASSES = 4


@dataclass(frozen=True)
class MicroaggregationResult:
    """Records replaced by their group means, with the groups: what every algorithm returns.

    Attributes
    ----------
    values : ndarray, shape (n, p)
        Every record replaced by the mean of its group (original units),
        row for row with the input (1-D input gives one column).
    groups : ndarray of int, shape (n,) or (n, p)
        Group label of each value, numbered from 0 in the order the groups
        were formed (for ``"optimal"``: in increasing order of the values).
        Shape (n, p) when several columns were partitioned separately (the
        univariate algorithms): column ``j`` labels column ``j``.
    k : int
        Minimum group size.
    algorithm : str
        One of :data:`ALGORITHMS`.
    sse : float
        Within-group sum of squares of the z-scores (each column centred and
        divided by its SD, ``ddof=1``), summed over the columns.
    n_groups : int
        Number of groups; summed over the columns when they were
        partitioned separately.
    variant : str
        ``"exact"``, or ``"blocked"`` when whole-record MDAV ran within
        blocks of records (:func:`mdav`, large data).
    """

    values: np.ndarray
    groups: np.ndarray
    k: int
    algorithm: str
    sse: float
    n_groups: int
    variant: str = "exact"

    @property
    def group_sizes(self) -> np.ndarray:
        """Number of records in each group (concatenated over columns partitioned separately)."""
        labels = self.groups if self.groups.ndim == 2 else self.groups[:, None]
        return np.concatenate([np.bincount(col) for col in labels.T])


# -- shared checks and helpers --------------------------------------------------------------


def _prepare(values: ArrayLike, k: int, pol: Policy) -> tuple[np.ndarray, np.ndarray, int]:
    """Validate `values` and `k`; return the data as (n, p), its z-scores and k."""
    x = finite_array(values)
    x = x[:, None] if x.ndim == 1 else x
    n = x.shape[0]
    k = pol.check_k(k, n)
    if n < 2 * k:
        raise DisclosureError(
            f"Microaggregation with k={k} needs at least 2k={2 * k} records, and there are "
            f"{pol.describe_count(n)}: with fewer, one group would hold every record. "
            "Use a smaller k (not below k_min) or more data."
        )
    constant = np.ptp(x, axis=0) == 0
    if constant.any():
        raise DisclosureError(
            f"Variable(s) {np.flatnonzero(constant).tolist()} are constant: their one value would "
            "be disclosed and cannot be microaggregated. Remove constant columns."
        )
    mean = x.mean(axis=0)
    sd = x.std(axis=0, ddof=1)
    z = (x - mean) / sd
    if not (np.isfinite(sd).all() and np.isfinite(z).all()):
        raise ValueError(
            "values are too large in magnitude to compute a standard deviation (beyond about "
            "1e150). Rescale them (e.g. change units) first."
        )
    return x, z, k


def _coord_sum(d: np.ndarray) -> np.ndarray:
    """Sum `d` over its last axis (the coordinates), left to right.

    Every distance and distance bound is summed in this one order, so a
    record's distance has the same bits in every query. (It is also the
    order of ``d.sum(axis=-1)`` for fewer than 8 coordinates, and much
    faster than it on a short last axis.)
    """
    out = d[..., 0].copy()
    for j in range(1, d.shape[-1]):
        out += d[..., j]
    return out


def _sqdist(points: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Squared Euclidean distances from each row of `points` (m, p) to `q` (p,)."""
    d = points - q
    d *= d
    return _coord_sum(d)


def _result(
    x: np.ndarray,
    z: np.ndarray,
    labels: np.ndarray,
    k: int,
    algorithm: str,
    variant: str = "exact",
) -> MicroaggregationResult:
    """Release the group means of `x` and measure the within-group SSE of `z`.

    `labels` is (n,) for one partition of all columns or (n, p) for one per column.
    """
    p = x.shape[1]
    per_column = labels.ndim == 2
    out = np.empty_like(x)
    sse = 0.0
    n_groups = 0
    for j in range(p):
        lab = labels[:, j] if per_column else labels
        sizes = np.bincount(lab)
        if per_column or j == 0:
            n_groups += sizes.size
        means = np.bincount(lab, weights=x[:, j]) / sizes
        out[:, j] = means[lab]
        zmeans = np.bincount(lab, weights=z[:, j]) / sizes
        sse += float(np.square(z[:, j] - zmeans[lab]).sum())
    return MicroaggregationResult(out, labels, k, algorithm, sse, n_groups, variant)


def _labels(
    z: np.ndarray, per_variable: bool, partition: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray:
    """Labels from `partition` (z-scores -> labels) of all columns, or of each on its own."""
    if not per_variable or z.shape[1] == 1:
        return partition(z)
    return np.column_stack([partition(z[:, j : j + 1]) for j in range(z.shape[1])])


def _check_per_variable(per_variable: bool) -> bool:
    if not isinstance(per_variable, (bool, np.bool_)):
        raise TypeError(f"per_variable must be True or False, got {per_variable!r}.")
    return bool(per_variable)


# -- exact nearest / farthest queries among the records not yet grouped --------------------


def _kd_buckets(z: np.ndarray, leaf: int) -> tuple[np.ndarray, np.ndarray]:
    """Split the points into buckets of at most `leaf` by recursive median cuts (a kd-tree).

    Returns a permutation of the rows that makes every bucket contiguous and
    the bucket boundaries in it. One level of cuts is one sort: every
    segment longer than `leaf` is ordered along its widest coordinate and
    cut in half.
    """
    n = z.shape[0]
    perm = np.arange(n)
    bounds = np.array([0, n])
    while True:
        lengths = np.diff(bounds)
        split = lengths > leaf
        if not split.any():
            return perm, bounds
        starts = bounds[:-1]
        pts = z[perm]
        lo = np.minimum.reduceat(pts, starts, axis=0)
        spread = np.maximum.reduceat(pts, starts, axis=0) - lo
        seg = np.repeat(np.arange(lengths.size), lengths)
        key = pts[np.arange(n), spread.argmax(axis=1)[seg]]
        perm = perm[np.lexsort((key, seg))]
        bounds = np.sort(np.concatenate([bounds, starts[split] + lengths[split] // 2]))


def _leaf_size(n: int) -> int:
    """Return the records per kd-tree bucket for `n` records: about 2 n^(1/3).

    It balances the pass over all buckets against the records examined in
    the buckets a query cannot rule out (measured at 1e5 records).
    """
    return int(min(256, max(16, round(2 * n ** (1 / 3)))))


class _Unassigned:
    """The records not yet grouped, in kd-tree buckets, with exact nearest and farthest queries.

    Each query bounds the distance from the query point to every bucket by
    the bucket's bounding box (one vectorised pass over the buckets), then
    computes exact distances only in the buckets that can hold the answer.
    A bound is off by at most a few units in the last place of the
    distances it bounds, and is widened by a relative ``_SLACK`` far larger
    than that, so no record the exact distances would pick is ever ruled
    out: the answers equal those of a full scan, ties included (the earliest
    row wins).

    The boxes of the non-empty buckets are kept in the first ``n_active``
    columns of ``lo``/``hi``; a bucket that empties is swapped out, and a
    bucket that loses records has its box shrunk to the records left.
    The pruning works best in few dimensions (plots have one or two); in
    five or more, farthest queries examine a large share of the records.
    """

    def __init__(self, z: np.ndarray) -> None:
        n = z.shape[0]
        perm, bounds = _kd_buckets(z, _leaf_size(n))
        self.pts = np.ascontiguousarray(z[perm])
        self.row = perm
        self.where = np.empty(n, dtype=np.intp)
        self.where[perm] = np.arange(n)
        self.start = bounds[:-1]
        self.size = np.diff(bounds)
        n_buckets = self.size.size
        self.bucket = np.repeat(np.arange(n_buckets), self.size)
        # boxes of the active buckets, column-major (p, buckets): one row per coordinate
        self.lo = np.ascontiguousarray(np.minimum.reduceat(self.pts, self.start, axis=0).T)
        self.hi = np.ascontiguousarray(np.maximum.reduceat(self.pts, self.start, axis=0).T)
        self.active = np.arange(n_buckets)  # bucket id of each active slot
        self.slot = np.arange(n_buckets)  # active slot of each bucket
        self.n_active = n_buckets
        self.alive = np.ones(n, dtype=bool)
        self.count = self.size.tolist()
        self.n_alive = n

    def _members(self, slots: np.ndarray) -> np.ndarray:
        """Positions of the unassigned records in the buckets of active `slots`."""
        buckets = self.active[slots]
        lengths = self.size[buckets]
        ends = np.cumsum(lengths)
        idx = np.arange(ends[-1]) + np.repeat(self.start[buckets] - (ends - lengths), lengths)
        return idx[self.alive[idx]]

    def _members_of(self, slot: int) -> np.ndarray:
        """Positions of the unassigned records in the bucket of one active `slot`."""
        b = self.active[slot]
        s = self.start[b]
        idx = np.arange(s, s + self.size[b])
        return idx[self.alive[idx]]

    def _dist(self, pos: np.ndarray, qs: np.ndarray) -> np.ndarray:
        """Squared distance from each position to the nearest of the points `qs` (r, p)."""
        if qs.shape[0] == 1:
            return _sqdist(self.pts.take(pos, axis=0), qs[0])
        d = self.pts.take(pos, axis=0)[:, None, :] - qs[None, :, :]
        d *= d
        return _coord_sum(d).min(axis=1)

    def farthest(self, q: np.ndarray) -> int:
        """Row of the unassigned record farthest from `q` (the earliest row among ties)."""
        na = self.n_active
        g = np.maximum(q[:, None] - self.lo[:, :na], self.hi[:, :na] - q[:, None])
        g *= g
        ub = _coord_sum(g.T)  # at least the squared distance of any record in the box
        ub *= 1.0 + _SLACK
        # a lower bound on the answer: the farthest record of the most promising bucket
        pos = self._members_of(int(ub.argmax()))
        d2 = _sqdist(self.pts.take(pos, axis=0), q)
        cand = np.flatnonzero(ub >= d2.max())
        if cand.size > 1:
            pos = self._members(cand)
            d2 = _sqdist(self.pts.take(pos, axis=0), q)
        hits = pos[d2 == d2.max()]
        return int(self.row[hits[0]] if hits.size == 1 else self.row[hits].min())

    def nearest(self, qs: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows of the `m` unassigned records nearest to the points `qs` (r, p), and distances.

        The distance of a record to several points is to the nearest of
        them. Records come in order of (squared distance, row).
        """
        na = self.n_active
        q = qs[:, :, None]
        g = np.maximum(self.lo[None, :, :na] - q, q - self.hi[None, :, :na])
        np.maximum(g, 0.0, out=g)
        g *= g
        lb = _coord_sum(g.transpose(0, 2, 1))  # at most the squared distance of any record
        lb = lb[0] if qs.shape[0] == 1 else lb.min(axis=0)
        lb *= 1.0 - _SLACK
        first = int(lb.argmin())
        pos = self._members_of(first)
        seed = None
        if pos.size < m:
            t = 4
            while True:
                seed = np.arange(na) if t >= na - 1 else np.argpartition(lb, t)[: t + 1]
                pos = self._members(seed)
                if pos.size >= m:
                    break
                t *= 4
        d2 = self._dist(pos, qs)
        # an upper bound on the m-th distance, from records that exist
        tau = d2.min() if m == 1 else np.partition(d2, m - 1)[m - 1]
        cand = np.flatnonzero(lb <= tau)
        if seed is not None or not (cand.size == 1 and cand[0] == first):
            pos = self._members(cand)
            d2 = self._dist(pos, qs)
        if m == 1:
            hits = np.flatnonzero(d2 == d2.min())
            order = hits[:1] if hits.size == 1 else hits[[self.row[pos[hits]].argmin()]]
        else:
            order = np.lexsort((self.row[pos], d2))[:m]
        return self.row[pos[order]], d2[order]

    def remove(self, rows: np.ndarray) -> None:
        """Mark `rows` as grouped, and shrink the boxes of their buckets to what remains."""
        pos = self.where[rows]
        self.alive[pos] = False
        self.n_alive -= pos.size
        touched: dict[int, int] = {}
        for b in self.bucket[pos].tolist():
            touched[b] = touched.get(b, 0) + 1
        for b, gone in touched.items():
            self.count[b] -= gone
            j = self.slot[b]
            if self.count[b] == 0:
                # swap the last active bucket into this slot
                last = self.n_active - 1
                moved = self.active[last]
                self.lo[:, j] = self.lo[:, last]
                self.hi[:, j] = self.hi[:, last]
                self.active[j] = moved
                self.slot[moved] = j
                self.n_active = last
            else:
                s = self.start[b]
                idx = np.arange(s, s + self.size[b])
                pts = self.pts.take(idx[self.alive[idx]], axis=0)
                self.lo[:, j] = pts.min(axis=0)
                self.hi[:, j] = pts.max(axis=0)

    def remaining(self) -> np.ndarray:
        """Rows not yet grouped, in row order."""
        return np.sort(self.row[self.alive])


# -- MDAV ------------------------------------------------------------------------------------


def _mdav_labels(z: np.ndarray, k: int) -> np.ndarray:
    """Group labels of the MDAV-generic partition of the z-scores `z` (exact).

    One column goes to the sorted-values algorithm; several columns, or one
    whose distinct values are too close together for it, to the kd-tree one.
    """
    if z.shape[1] == 1:
        labels = _mdav_sorted_labels(z, k)
        if labels is not None:
            return labels
    return _mdav_kd_labels(z, k)


def _mdav_kd_labels(z: np.ndarray, k: int) -> np.ndarray:
    """Group labels of the MDAV-generic partition of `z`, by kd-tree queries, a group at a time."""
    n = z.shape[0]
    labels = np.full(n, -1, dtype=np.intp)
    index = _Unassigned(z)
    total = z.sum(axis=0)  # sum of the records not yet grouped, updated group by group
    gid = 0
    bar = progress_bar(total=n, desc="microaggregation (MDAV)", unit="record", size=n)

    def group_around(r: int) -> None:
        nonlocal total, gid
        rows, _ = index.nearest(z[r][None, :], k)  # r itself comes first (distance 0)
        index.remove(rows)
        labels[rows] = gid
        total = total - z[rows].sum(axis=0)
        gid += 1
        bar.update(len(rows))

    while index.n_alive >= 3 * k:
        r = index.farthest(total / index.n_alive)
        group_around(r)
        group_around(index.farthest(z[r]))
    if index.n_alive >= 2 * k:
        group_around(index.farthest(total / index.n_alive))
    bar.close()
    labels[index.remaining()] = gid
    return labels


def _mdav_sorted_labels(z: np.ndarray, k: int) -> np.ndarray | None:
    r"""Group labels of MDAV-generic on one column, from its sorted values: no search per group.

    Returns the labels :func:`_mdav_kd_labels` gives, or None when two
    distinct values are so close (within ``8 eps max|z|``) that rounding
    could make their distances from a point equal or reversed; the caller
    then uses the kd-tree algorithm.

    On one line the record farthest from any point is at one end of the
    values left, and the ``k`` records nearest to an end are the ``k`` next
    values from that end. Let :math:`v_{(1)} \le \dots \le v_{(n)}` be the
    values sorted. Each round of MDAV takes ``k`` values from the low end and
    ``k`` from the high end (the second group of a round is around the value
    farthest from the first group's seed: the other end), so before round
    ``j`` the values left are :math:`v_{(jk+1)} .. v_{(n-jk)}` whatever was
    decided earlier. A round only decides which end comes first, and with
    it the labels ``2j`` and ``2j + 1``: the low end if
    :math:`(v_{(jk+1)} - c_j)^2 > (v_{(n-jk)} - c_j)^2`, where :math:`c_j`
    is the mean of the values left; on equal distances, the end holding the
    earliest row left. Among equal values, rows are grouped in increasing
    row order by whichever group reaches them first, which fixes the rows
    of each group.

    :math:`c_j` is the running total of the kd-tree algorithm (the sum of
    all values minus each group's sum, in the order the groups were formed)
    divided by the count, with the same floating-point operations, so
    every decision, ties included, is that algorithm's. The order of the
    two subtractions of a round depends on the round's decision, so the
    decisions are found as a fixed point: decide every round from the
    totals of the current decisions, recompute the totals
    (``np.subtract.accumulate``, strictly left to right), and repeat. A
    decision depends only on the ones before it, so each pass settles
    every decision up to the first one that changed; after
    ``_DECISION_PASSES`` passes the rounds left are decided one at a time.
    Cost: one sort, O(n) per pass.
    """
    col = z[:, 0]
    n = col.size
    order, v = stable_sort(col)  # by value, then row
    step = np.diff(v)
    reach = max(abs(float(v[0])), abs(float(v[-1])))
    if (step[step > 0] <= 8 * np.finfo(float).eps * reach).any():
        return None
    rounds = (n - 3 * k) // (2 * k) + 1 if n >= 3 * k else 0
    cut = rounds * k
    j = np.arange(rounds + 1)  # before round j (j = rounds: before the single last group)
    lo_pos = j * k
    hi_pos = n - 1 - j * k
    lo, hi = v[lo_pos], v[hi_pos]
    # earliest row left at each end: the rows of one value are taken in increasing order, so
    # at the low end it is the row at lo_pos; at the high end, as many rows of the value as
    # the high end has taken are gone from the start of its rows
    first = np.searchsorted(v, hi, side="left")
    after = np.searchsorted(v, hi, side="right")
    lo_row = order[lo_pos]
    hi_row = order[first + after - 1 - hi_pos]
    # group sums in the kd-tree algorithm's order: nearest to the seed first
    low_sum = v[:cut].reshape(rounds, k).sum(axis=1)
    high_sum = np.ascontiguousarray(v[n - cut :][::-1]).reshape(rounds, k).sum(axis=1)
    left = n - 2 * k * j
    seq = np.empty(2 * rounds + 1)
    seq[0] = z.sum(axis=0)[0]

    def decide(c: np.ndarray, at: slice) -> np.ndarray:
        d_lo = lo[at] - c
        d_lo *= d_lo
        d_hi = hi[at] - c
        d_hi *= d_hi
        return (d_lo > d_hi) | ((d_lo == d_hi) & (lo_row[at] < hi_row[at]))

    def subtractions(low_first: np.ndarray) -> None:
        seq[1::2] = np.where(low_first, low_sum, high_sum)
        seq[2::2] = np.where(low_first, high_sum, low_sum)

    low_first = np.ones(rounds, dtype=bool)
    settled = 0
    for _ in range(_DECISION_PASSES):
        if settled == rounds:
            break
        subtractions(low_first)
        at = slice(settled, rounds)
        totals = np.subtract.accumulate(seq)[2 * settled : 2 * rounds : 2]
        new = decide(totals / left[at], at)
        changed = np.flatnonzero(new != low_first[at])
        if changed.size == 0:
            settled = rounds
            break
        first_change = settled + int(changed[0])
        low_first[first_change:] = new[first_change - settled :]
        settled = first_change + 1
    subtractions(low_first)
    if settled < rounds:
        total = float(np.subtract.accumulate(seq[: 2 * settled + 1])[-1])
        lo_v, hi_v = lo.tolist(), hi.tolist()
        lo_r, hi_r = lo_row.tolist(), hi_row.tolist()
        low_s, high_s = low_sum.tolist(), high_sum.tolist()
        for i in range(settled, rounds):
            c = total / int(left[i])
            d_lo = (lo_v[i] - c) * (lo_v[i] - c)
            d_hi = (hi_v[i] - c) * (hi_v[i] - c)
            low = d_lo > d_hi or (d_lo == d_hi and lo_r[i] < hi_r[i])
            low_first[i] = low
            total = (total - low_s[i]) - high_s[i] if low else (total - high_s[i]) - low_s[i]
        subtractions(low_first)
    # labels by sorted position, then handed to the rows of each value in increasing order
    pos_label = np.empty(n, dtype=np.intp)
    ids = 2 * np.arange(rounds)
    pos_label[:cut] = np.repeat(np.where(low_first, ids, ids + 1), k)
    pos_label[n - cut :] = np.repeat(np.where(low_first, ids + 1, ids), k)[::-1]
    pos_label[cut : n - cut] = 2 * rounds
    if left[rounds] >= 2 * k:  # one more group of k, at the end farther from the mean
        total = np.subtract.accumulate(seq)[-1]
        at = slice(rounds, rounds + 1)
        if decide(np.array([total / left[rounds]]), at)[0]:
            pos_label[cut + k : n - cut] += 1
        else:
            pos_label[cut : n - cut - k] += 1
    value = np.concatenate([[0], np.cumsum(step != 0)])
    labels = np.empty(n, dtype=np.intp)
    labels[order] = pos_label[np.lexsort((pos_label, value))]
    return labels


# -- blocked MDAV for many records --------------------------------------------------------------


def _median_blocks(z: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Split the records into blocks of at most `size` by median cuts (a kd-tree).

    Every level cuts every block in two along the coordinate where it is
    widest: the lower part takes the records of lowest rank along it (rank:
    by value, then row), half of the block rounded up or down, so all
    blocks of a level hold equally many records give or take one. Cuts
    stop when no block holds more than `size`.

    The blocks are a (blocks, width) table of each record's rank along
    every coordinate, padded with rank ``n`` (after every record); a
    block's spread along a coordinate is the difference between the values
    of its extreme ranks. A level is one ``argpartition``
    of the ranks along the chosen coordinates, all distinct, so the blocks
    do not depend on how numpy breaks ties.

    Returns the rows block by block, each block's rows in increasing order,
    and the block boundaries in that array.
    """
    n, p = z.shape
    order, ordered = zip(*(stable_sort(z[:, j]) for j in range(p)), strict=True)
    ranks = np.empty((p, 1, n), dtype=np.intp)
    for j in range(p):
        ranks[j, 0, order[j]] = np.arange(n)
    while ranks.shape[2] > size:
        _, blocks, width = ranks.shape
        spread = np.empty((p, blocks))
        for j in range(p):
            top = np.where(ranks[j] < n, ranks[j], 0).max(axis=1)
            spread[j] = ordered[j][top] - ordered[j][ranks[j].min(axis=1)]
        key = ranks[spread.argmax(axis=0), np.arange(blocks)]
        half = width // 2
        ranks = np.take_along_axis(ranks, np.argpartition(key, half - 1, axis=1)[None], axis=2)
        lower, upper = ranks[:, :, :half], ranks[:, :, half:]
        if width % 2:  # the lower parts are one short: pad them
            lower = np.concatenate([lower, np.full((p, blocks, 1), n)], axis=2)
        ranks = np.stack([lower, upper], axis=2).reshape(p, 2 * blocks, width - half)
    rank0 = ranks[0]
    rows = np.sort(np.where(rank0 < n, order[0][np.minimum(rank0, n - 1)], n), axis=1)
    real = rows < n
    return rows[real], np.concatenate([[0], np.cumsum(real.sum(axis=1))])


def _blocked_mdav_labels(z: np.ndarray, k: int, size: int) -> np.ndarray:
    """Group labels of MDAV-generic run on its own in each block of :func:`_median_blocks`.

    All blocks run in step: each step is one round of MDAV (two groups) in
    every block with at least ``3k`` records left, as numpy operations on a
    (blocks, width) table of coordinates, unassigned records marked by a
    penalty of 0 (``inf`` once grouped). Within a block ties go to the
    earliest row, and the mean of the records left is a running total (the
    block's sum, minus each grouped record in row order) over the count.
    When every block has lost half its width the table is compacted.
    Groups are numbered block by block, in the order each block formed them.
    """
    n, p = z.shape
    rows, bounds = _median_blocks(z, size)
    sizes = np.diff(bounds)
    n_blocks = sizes.size
    width = int(sizes.max())
    block = np.repeat(np.arange(n_blocks), sizes)
    col = np.arange(n) - np.repeat(bounds[:-1], sizes)
    coords = np.zeros((p, n_blocks, width))
    coords[:, block, col] = z[rows].T
    penalty = np.full((n_blocks, width), np.inf)
    penalty[block, col] = 0.0
    where = np.zeros((n_blocks, width), dtype=np.intp)  # position in `rows`
    where[block, col] = np.arange(n)
    local = np.empty(n, dtype=np.intp)  # group within the block, by position in `rows`
    count = sizes.copy()
    made = np.zeros(n_blocks, dtype=np.intp)
    total = coords[:, :, 0].copy()
    for w in range(1, width):
        total += coords[:, :, w]
    everything = np.arange(n_blocks)

    def sqdist(sel: slice | np.ndarray, q: np.ndarray) -> np.ndarray:
        d = coords[0, sel] - q[0][:, None]
        d *= d
        for j in range(1, p):
            e = coords[j, sel] - q[j][:, None]
            e *= e
            d += e
        return d

    def farthest(sel: slice | np.ndarray, q: np.ndarray) -> np.ndarray:
        d = sqdist(sel, q)
        d -= penalty[sel]
        return d.argmax(axis=1)

    def group_around(sel: slice | np.ndarray, seed: np.ndarray) -> np.ndarray:
        """Group each seed with its k - 1 nearest; return the record left farthest from it."""
        b = everything[sel]
        m = b.size
        q = coords[:, b, seed]
        far = sqdist(sel, q)
        d = far + penalty[sel]
        if k <= 8:
            pos = np.empty((m, k), dtype=np.intp)
            ar = np.arange(m)
            for t in range(k):  # the nearest left, earliest position among ties
                pos[:, t] = d.argmin(axis=1)
                d[ar, pos[:, t]] = np.inf
            pos.sort(axis=1)
        else:
            kth = np.partition(d, k - 1, axis=1)[:, k - 1 : k]
            tied = d == kth
            need = k - (d < kth).sum(axis=1)
            take = (d < kth) | (tied & (np.cumsum(tied, axis=1) <= need[:, None]))
            pos = np.nonzero(take)[1].reshape(m, k)
        bb = b[:, None]
        penalty[bb, pos] = np.inf
        local[where[bb, pos]] = made[bb]
        made[b] += 1
        count[b] -= k
        t_sel = total[:, b]
        for t in range(k):
            t_sel -= coords[:, b, pos[:, t]]
        total[:, b] = t_sel
        far -= penalty[sel]
        return far.argmax(axis=1)

    bar = progress_bar(total=n, desc="microaggregation (blocked MDAV)", unit="record", size=n)
    while True:
        run = count >= 3 * k
        if not run.any():
            break
        sel: slice | np.ndarray = slice(None) if run.all() else np.flatnonzero(run)
        b = everything[sel]
        s = group_around(sel, farthest(sel, total[:, b] / count[b]))
        group_around(sel, s)
        bar.update(2 * k * b.size)
        new_width = int(count.max())
        if new_width <= width // 2:  # move the records left to the front, in order
            keep = np.argsort(penalty > 0, axis=1, kind="stable")[:, :new_width]
            coords = np.take_along_axis(coords, keep[None], axis=2)
            penalty = np.take_along_axis(penalty, keep, axis=1)
            where = np.take_along_axis(where, keep, axis=1)
            width = new_width
    last = np.flatnonzero(count >= 2 * k)
    if last.size:
        group_around(last, farthest(last, total[:, last] / count[last]))
    bar.close()
    bi, pos = np.nonzero(penalty == 0)
    local[where[bi, pos]] = made[bi]
    made += 1
    offset = np.concatenate([[0], np.cumsum(made)[:-1]])
    labels = np.empty(n, dtype=np.intp)
    labels[rows] = local + offset[block]
    return labels


def mdav(
    values: ArrayLike,
    k: int | None = None,
    *,
    per_variable: bool = True,
    variant: Literal["auto", "exact", "blocked"] = "auto",
    policy: Policy | None = None,
) -> MicroaggregationResult:
    r"""Microaggregate with MDAV: groups of k around the most distant values or records.

    Each value is released as the mean of its group in the original units.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Complete, finite numeric data (one column per variable).
    k : int, optional
        Group size; the policy requires ``k_min <= k <= n - k_min``, and
        ``n >= 2k``. Default: the policy's ``k_min`` (3 unless the custodian sets more).
    per_variable : bool, default True
        True: each column is partitioned on its own (univariate MDAV, as
        Senavirathne & Torra apply it). False: one partition of whole
        records, by Euclidean distances between z-scores (multivariate
        MDAV).
    variant : {"auto", "exact", "blocked"}, default "auto"
        How whole records of two or more columns are partitioned:
        ``"exact"``, MDAV over all records; ``"blocked"``, MDAV run on its
        own within blocks of about 1,000 nearby records (see Notes);
        ``"auto"``, exact up to :data:`MDAV_EXACT_MAX_RECORDS` records and
        blocked above. One column (and ``per_variable=True``) is always
        exact: its exact algorithm is fast at any size.
    policy : Policy, optional
        Policy whose floors apply (default: the policy in force).

    Returns
    -------
    MicroaggregationResult
        Groups of exactly ``k``, except the last (of each block, when
        blocked), which has ``k .. 2k-1``; ``groups`` has shape (n, p) when
        several columns were partitioned separately; ``variant`` says
        whether the records were blocked.

    Raises
    ------
    DisclosureError
        ``k`` below ``k_min`` or above ``n - k_min``, fewer than ``2k``
        records, or a constant column.
    ValueError
        Empty or non-finite data; an unknown `variant`.
    TypeError
        Non-numeric data.

    Notes
    -----
    MDAV-generic (Domingo-Ferrer & Torra 2005), with :math:`R` the records
    not yet grouped:

    1. while :math:`|R| \ge 3k`: let :math:`\bar z` be the mean of
       :math:`R`, :math:`r` the record of :math:`R` farthest from
       :math:`\bar z`; group :math:`r` with its :math:`k-1` nearest records
       of :math:`R` and remove them; let :math:`s` be the record left
       farthest from :math:`r`, and group it likewise;
    2. if :math:`2k \le |R| < 3k`: group the record farthest from the mean
       of :math:`R` with its :math:`k-1` nearest;
    3. the :math:`k .. 2k-1` records left form the last group.

    Ties (equal distances) go to the earliest row. :math:`s` is looked for
    after :math:`r`'s group is removed (the same record as in the original
    description, except in degenerate ties). The mean of :math:`R` is kept
    as a running sum, the sum of all z-scores minus each group's as it is
    removed.

    *One variable* (``per_variable=True``, or one column): the record
    farthest from any point is at one end of the sorted values left, and
    the :math:`k` records nearest to an end are the :math:`k` next values
    from that end. Each round therefore takes :math:`k` values from each
    end, and before round :math:`j` the values left are the
    :math:`(jk+1)`-th to :math:`(n-jk)`-th smallest whatever was decided
    before; a round only decides which end comes first (the end farther
    from the mean left, on equal distances the one holding the earliest
    row), and among equal values rows are taken in increasing order. All
    rounds are decided together from the running sums (with the same
    floating-point operations, ties included), after one sort: O(n log n),
    a million values in well under a second. If two distinct values are
    within :math:`8\epsilon\max|z|` of each other, where rounding could
    tie their distances, the general algorithm below is used instead.

    *Whole records, exact*: each step is exact but avoids a full scan: the
    records sit in kd-tree buckets whose bounding boxes rule out most of
    them, so 1e5 records take seconds, not the minutes of the O(n²/k)
    direct method; the steps are sequential, one group at a time.

    *Whole records, blocked*: large data sets are microaggregated in
    fragments (Solé, Muntés-Mulero & Domingo-Ferrer 2012 review this
    practice and its loss of quality; Solanas et al. 2006 form the
    fragments with a :math:`2^d`-tree). Here the fragments are the leaves
    of a kd-tree of median cuts along the widest coordinate of the
    z-scores, of 512 to 1,024 records (at least ``4k``), and MDAV-generic
    as above runs on its own in each, all blocks in step as numpy
    operations: O(n log n) for the tree and O(n b / k) for MDAV with
    blocks of b records. Groups are numbered block by block. Groups
    cannot cross a block's border, so the within-group SSE is higher than
    exact MDAV's: by about 9% at 1e6 records of two correlated normal
    variables with ``k = 3``, and less with fewer blocks.

    References
    ----------
    .. [1] Domingo-Ferrer J, Mateo-Sanz JM. "Practical data-oriented
       microaggregation for statistical disclosure control." IEEE TKDE
       14(1), 189-201 (2002).
    .. [2] Domingo-Ferrer J, Torra V. "Ordinal, continuous and heterogeneous
       k-anonymity through microaggregation." Data Mining and Knowledge
       Discovery 11, 195-212 (2005).
    .. [3] Solé M, Muntés-Mulero V, Domingo-Ferrer J. "Efficient
       microaggregation techniques for large numerical data volumes."
       International Journal of Information Security 11(4), 253-267
       (2012). https://doi.org/10.1007/s10207-012-0158-5
    .. [4] Solanas A, Martínez-Ballesté A, Domingo-Ferrer J, Mateo-Sanz JM.
       "A 2^d-tree-based blocking method for microaggregating very large
       data sets." First International Conference on Availability,
       Reliability and Security (ARES 2006), 922-928.

    Examples
    --------
    >>> x = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [10.0, 10.0], [10.0, 11.0], [11.0, 10.0]]
    >>> res = mdav(x, k=3, per_variable=False)
    >>> res.groups.tolist()
    [0, 0, 0, 1, 1, 1]
    >>> res.values[:, 0].round(3).tolist()
    [0.333, 0.333, 0.333, 10.333, 10.333, 10.333]

    One variable at a time (the default), each column is grouped by its
    own values:

    >>> x = [[0.0, 0.0], [1.0, 9.0], [2.0, 0.0], [10.0, 9.0], [11.0, 0.0], [12.0, 9.0]]
    >>> mdav(x, k=3).values.tolist()
    [[1.0, 0.0], [1.0, 9.0], [1.0, 0.0], [11.0, 9.0], [11.0, 0.0], [11.0, 9.0]]

    Many whole records are blocked (``variant="auto"``):

    >>> import numpy as np
    >>> big = np.random.default_rng(0).normal(size=(30_000, 2))
    >>> res = mdav(big, k=3, per_variable=False)
    >>> res.variant, int(res.group_sizes.min()), int(res.group_sizes.max())
    ('blocked', 3, 5)
    """
    pol = get_policy(policy)
    per_variable = _check_per_variable(per_variable)
    if variant not in ("auto", "exact", "blocked"):
        raise ValueError(
            f"variant={variant!r} is not an MDAV variant; choose 'auto' (exact up to "
            f"{MDAV_EXACT_MAX_RECORDS:,} records, blocked above), 'exact' or 'blocked'."
        )
    x, z, k = _prepare(values, k, pol)
    name = "mdav" if per_variable else "mdav_multivariate"
    whole = not per_variable and z.shape[1] > 1
    if whole and (
        variant == "blocked" or (variant == "auto" and z.shape[0] > MDAV_EXACT_MAX_RECORDS)
    ):
        labels = _blocked_mdav_labels(z, k, max(_BLOCK_RECORDS, 8 * k))
        return _result(x, z, labels, k, name, "blocked")
    labels = _labels(z, per_variable, lambda zz: _mdav_labels(zz, k))
    return _result(x, z, labels, k, name)


# -- V-MDAV ----------------------------------------------------------------------------------


def _vmdav_labels(z: np.ndarray, k: int, gamma: float) -> np.ndarray:
    """Group labels of the V-MDAV partition of the z-scores `z`."""
    n = z.shape[0]
    labels = np.full(n, -1, dtype=np.intp)
    index = _Unassigned(z)
    # the records in order of decreasing distance from the centroid of all data (fixed)
    order = np.lexsort((np.arange(n), -_sqdist(z, z.mean(axis=0))))
    assigned = np.zeros(n, dtype=bool)
    nxt = 0
    gid = 0
    bar = progress_bar(total=n, desc="microaggregation (V-MDAV)", unit="record", size=n)
    while index.n_alive >= 2 * k:
        while True:  # the next record of `order` not yet assigned, a window at a time
            free = np.flatnonzero(~assigned[order[nxt : nxt + 64]])
            if free.size:
                nxt += int(free[0])
                break
            nxt += 64
        r = order[nxt]
        group, _ = index.nearest(z[r][None, :], k)  # r itself comes first (distance 0)
        index.remove(group)
        members = list(group)
        # extend while it leaves at least k records for the groups still to come
        while len(members) < 2 * k - 1 and index.n_alive - 1 >= k:
            e_rows, d_in2 = index.nearest(z[members], 1)
            e = int(e_rows[0])
            # the nearest other unassigned record: e itself is at distance 0
            near, d2 = index.nearest(z[e][None, :], 2)
            d_out2 = d2[1] if near[0] == e else d2[0]
            if not math.sqrt(d_in2[0]) < gamma * math.sqrt(d_out2):
                break
            index.remove(e_rows)
            members.append(e)
        rows = np.asarray(members)
        labels[rows] = gid
        assigned[rows] = True
        gid += 1
        bar.update(rows.size)
    bar.close()
    labels[index.remaining()] = gid
    return labels


def vmdav(
    values: ArrayLike,
    k: int | None = None,
    *,
    gamma: float = 0.2,
    per_variable: bool = True,
    policy: Policy | None = None,
) -> MicroaggregationResult:
    r"""Microaggregate with V-MDAV: groups of k..2k-1 that follow the data's clusters.

    Each value is released as the mean of its group in the original units.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Complete, finite numeric data (one column per variable).
    k : int, optional
        Minimum group size; the policy requires ``k_min <= k <= n - k_min``,
        and ``n >= 2k``. Default: the policy's ``k_min`` (3 unless the custodian sets more).
    gamma : float, default 0.2
        Extension gain: a group takes the nearest unassigned record while
        its distance to the group is below ``gamma`` times its distance to
        the nearest other unassigned record. 0 never extends; the paper
        suggests about 0.2 for scattered data and about 1.1 for clustered.
    per_variable : bool, default True
        True: each column is partitioned on its own (univariate V-MDAV,
        Senavirathne & Torra's Algorithm 2). False: one partition of whole
        records, by Euclidean distances between z-scores (multivariate
        V-MDAV).
    policy : Policy, optional
        Policy whose floors apply (default: the policy in force).

    Returns
    -------
    MicroaggregationResult
        Groups of ``k .. 2k-1``; ``groups`` has shape (n, p) when several
        columns were partitioned separately.

    Raises
    ------
    DisclosureError
        ``k`` below ``k_min`` or above ``n - k_min``, fewer than ``2k``
        records, or a constant column.
    ValueError
        Empty or non-finite data, ``gamma`` negative or not finite.
    TypeError
        Non-numeric data or ``gamma``.

    Notes
    -----
    With :math:`c` the centroid of all z-scores and :math:`U` the
    unassigned records, while :math:`|U| \ge 2k`:

    1. :math:`e` is the record of :math:`U` farthest from :math:`c`; it
       forms a group :math:`g` with its :math:`k-1` nearest records of
       :math:`U`;
    2. extension: let :math:`e_{in}` be the record of :math:`U` nearest to
       :math:`g`, :math:`d_{in} = \min_{y \in g} d(e_{in}, y)` and
       :math:`d_{out} = \min_{u \in U, u \ne e_{in}} d(e_{in}, u)`; if
       :math:`d_{in} < \gamma\, d_{out}` move :math:`e_{in}` into
       :math:`g` and repeat, up to :math:`|g| = 2k - 1`.

    The records left (:math:`k .. 2k-1` of them) form the last group. The
    paper lets the main loop run while :math:`|U| \ge k` and hands any
    last fewer-than-k records to their nearest groups, which can make a
    group larger than :math:`2k-1`; here a group is extended only while at
    least :math:`k` records stay unassigned, so every group has
    :math:`k .. 2k-1` records (the optimal range, Domingo-Ferrer &
    Mateo-Sanz 2002). Ties go to the earliest row.

    References
    ----------
    .. [1] Solanas A, Martínez-Ballesté A. "V-MDAV: a multivariate
       microaggregation with variable group size." COMPSTAT 2006, 917-925.

    Examples
    --------
    >>> x = [0.0, 0.1, 0.2, 0.3, 5.0, 5.1, 5.2, 9.0, 9.1, 9.2]
    >>> res = vmdav(x, k=3, gamma=1.1)
    >>> res.group_sizes.tolist()
    [3, 4, 3]
    >>> res.values[:, 0].round(3).tolist()
    [0.15, 0.15, 0.15, 0.15, 5.1, 5.1, 5.1, 9.1, 9.1, 9.1]
    """
    per_variable = _check_per_variable(per_variable)
    pol = get_policy(policy)
    if isinstance(gamma, (bool, str, bytes)) or not isinstance(gamma, (int, float, np.number)):
        raise TypeError(f"gamma must be a number, got {gamma!r}.")
    gamma = float(gamma)
    if not math.isfinite(gamma) or gamma < 0:
        raise ValueError(f"gamma must be a finite number >= 0, got {gamma}.")
    x, z, k = _prepare(values, k, pol)
    labels = _labels(z, per_variable, lambda zz: _vmdav_labels(zz, k, gamma))
    return _result(x, z, labels, k, "vmdav" if per_variable else "vmdav_multivariate")


# -- optimal univariate microaggregation ------------------------------------------------------


def _run_costs(xp: np.ndarray, x: np.ndarray, i0: int, i1: int, k: int) -> np.ndarray:
    r"""Within-run sum of squares of every run ending at prefix lengths ``i0 .. i1-1``.

    Returns an array (i1 - i0, k) whose column ``jj`` holds the cost of the
    run of size ``s = 2k - 1 - jj`` ending just before position ``i`` (the
    values ``x[i-s:i]``); inf where ``s > i``. `xp` is `x` with ``2k - 2``
    copies of ``x[0]`` in front.

    The sum of squares of a run is computed from differences to its last
    value, :math:`D_t = x_{e-t} - x_e`:
    :math:`\sum_t D_t^2 - (\sum_t D_t)^2 / s`, updated one ``t`` at a time
    (a loop over ``2k - 1`` offsets, vectorised over the run ends). Unlike
    global prefix sums it loses no accuracy to large values: the two terms
    are at most ``2s`` times the result.
    """
    rows = i1 - i0
    last = x[i0 - 1 : i1 - 1]
    a = np.zeros(rows)
    b = np.zeros(rows)
    cost = np.empty((rows, k))
    too_long = np.arange(i0, i1)
    pad = 2 * k - 2
    for t in range(2 * k - 1):
        d = xp[i0 - 1 - t + pad : i1 - 1 - t + pad] - last
        a += d
        b += d * d
        s = t + 1
        if s >= k:
            c = b - a * a / s
            np.maximum(c, 0.0, out=c)
            c[too_long < s] = np.inf
            cost[:, 2 * k - 1 - s] = c
    return cost


def _optimal_sizes(x: np.ndarray, k: int) -> list[int]:
    """Sizes, in sorted order, of the groups of the optimal partition of sorted `x`.

    The dynamic programme (Hansen & Mukherjee's shortest path):
    ``best[0] = 0`` and ``best[i] = min over s in k..2k-1 of best[i-s] +
    cost(i-s, i)`` for prefix lengths ``i = 1..n``. ``best[i]`` depends only
    on entries at least ``k`` back, so the ``k`` prefix lengths
    ``i0 .. i0+k-1`` are computed together, from entries before ``i0``: one
    vectorised minimum over a (k, k) table of candidates per block, n/k
    blocks. The table ``best[i-s]`` is a strided (Hankel) view of the
    padded ``best`` array, so a block costs three numpy calls. Among equal
    totals the shortest last group wins; backtracking from ``i = n`` then
    gives every group as the shortest that attains the optimum of its prefix.
    """
    n = x.size
    pad = 2 * k - 1
    best = np.full(pad + n + 1, np.inf)  # best[pad + i] is the optimum of the first i values
    best[pad] = 0.0
    stride = best.strides[0]
    # prev[i0, r, jj] = best[pad + (i0 + r) - s] with s = 2k-1-jj, as a read-only view
    prev = as_strided(best, shape=(n + 1, k, k), strides=(stride, stride, stride), writeable=False)
    choice = np.zeros(n + 1, dtype=np.intp)  # s - k of the best last group for each prefix
    xp = np.concatenate([np.full(2 * k - 2, x[0]), x])
    buf = np.empty((k, k))
    chunk = max(1, _COST_CHUNK // (k * k)) * k  # prefix lengths per cost table (multiple of k)
    for c0 in range(1, n + 1, chunk):
        c1 = min(n + 1, c0 + chunk)
        cost = _run_costs(xp, x, c0, c1, k)
        full_end = c0 + (c1 - c0) // k * k
        for i0 in range(c0, full_end, k):
            np.add(prev[i0], cost[i0 - c0 : i0 - c0 + k], out=buf)
            np.min(buf, axis=1, out=best[pad + i0 : pad + i0 + k])
            np.argmin(buf[:, ::-1], axis=1, out=choice[i0 : i0 + k])
        if full_end < c1:
            rows = c1 - full_end
            tot = prev[full_end][:rows] + cost[full_end - c0 :]
            best[pad + full_end : pad + c1] = tot.min(axis=1)
            choice[full_end:c1] = tot[:, ::-1].argmin(axis=1)
    steps = choice.tolist()
    sizes = []
    i = n
    while i > 0:
        s = steps[i] + k
        sizes.append(s)
        i -= s
    sizes.reverse()
    return sizes


def _optimal_labels(col: np.ndarray, k: int) -> np.ndarray:
    """Group labels of the optimal univariate partition of one column."""
    order, ordered = stable_sort(col)
    sizes = _optimal_sizes(ordered, k)
    labels = np.empty(col.size, dtype=np.intp)
    labels[order] = np.repeat(np.arange(len(sizes)), sizes)
    return labels


def optimal_univariate(
    values: ArrayLike, k: int | None = None, *, policy: Policy | None = None
) -> MicroaggregationResult:
    r"""Microaggregate each variable with the exact optimal partition (Hansen & Mukherjee).

    For one variable, the partition into groups of at least ``k`` records
    with the smallest within-group sum of squares (SSE) is found exactly;
    each record is released as the mean of its group. Several columns are
    aggregated one at a time, each with its own optimal partition.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Complete, finite numeric data (one column per variable).
    k : int, optional
        Minimum group size; the policy requires ``k_min <= k <= n - k_min``,
        and ``n >= 2k``. Default: the policy's ``k_min`` (3 unless the custodian sets more).
    policy : Policy, optional
        Policy whose floors apply (default: the policy in force).

    Returns
    -------
    MicroaggregationResult
        Groups of ``k .. 2k-1`` records, numbered in increasing order of the
        values; ``groups`` has shape (n, p) when p > 1.

    Raises
    ------
    DisclosureError
        ``k`` below ``k_min`` or above ``n - k_min``, fewer than ``2k``
        records, or a constant column.
    ValueError
        Empty or non-finite data.
    TypeError
        Non-numeric data.

    Notes
    -----
    Hansen & Mukherjee (2003) show that an optimal partition of sorted
    values :math:`x_{(1)} \le \dots \le x_{(n)}` consists of runs of
    :math:`k .. 2k-1` consecutive values, so the optimum is a shortest
    path, computed by dynamic programming over prefix lengths:

    .. math::

        B_0 = 0, \qquad
        B_i = \min_{k \le s \le 2k-1,\, s \le i}
              \bigl(B_{i-s} + \mathrm{SSE}(x_{(i-s+1)}, \dots, x_{(i)})\bigr),

    with :math:`\mathrm{SSE}` of a run computed from differences to its
    last value (no cancellation at large values). :math:`B_i` needs only
    :math:`B_{i-2k+1} .. B_{i-k}`, so blocks of :math:`k` consecutive
    :math:`i` are computed at once with one vectorised minimum: O(n·k) work
    in n/k numpy steps after the O(n log n) sort. Among optimal partitions
    the one chosen has, backwards from the largest values, each group as
    short as possible. The partition does not depend on the scale of a
    column; the reported ``sse`` is in z-score units, like the other
    algorithms'.

    References
    ----------
    .. [1] Hansen SL, Mukherjee S. "A polynomial algorithm for optimal
       univariate microaggregation." IEEE Transactions on Knowledge and Data
       Engineering 15(4), 1043-1044 (2003).

    Examples
    --------
    >>> res = optimal_univariate([1, 2, 3, 7, 8, 9, 20, 21, 22, 23], k=3)
    >>> res.values[:, 0].tolist()
    [2.0, 2.0, 2.0, 8.0, 8.0, 8.0, 21.5, 21.5, 21.5, 21.5]
    >>> res.groups.tolist(), res.n_groups
    ([0, 0, 0, 1, 1, 1, 2, 2, 2, 2], 3)
    """
    pol = get_policy(policy)
    x, z, k = _prepare(values, k, pol)
    labels = np.column_stack([_optimal_labels(x[:, j], k) for j in range(x.shape[1])])
    return _result(x, z, labels[:, 0] if x.shape[1] == 1 else labels, k, "optimal")


# -- dispatcher ------------------------------------------------------------------------------


def microaggregate(
    values: ArrayLike,
    k: int | None = None,
    algorithm: Literal[
        "mdav", "vmdav", "optimal", "mdav_multivariate", "vmdav_multivariate"
    ] = "mdav",
    *,
    policy: Policy | None = None,
) -> MicroaggregationResult:
    r"""Replace every value by the mean of its group of at least k similar values.

    Parameters
    ----------
    values : array-like, shape (n,) or (n, p)
        Complete, finite numeric data (one column per variable).
    k : int, optional
        Minimum group size; the policy requires ``k_min <= k <= n - k_min``,
        and ``n >= 2k``. Default: the policy's ``k_min`` (3 unless the custodian sets more).
    algorithm : str, default "mdav"
        Each column on its own, as Senavirathne & Torra: ``"mdav"``,
        fixed-size groups (:func:`mdav`); ``"vmdav"``, groups of ``k ..
        2k-1`` (:func:`vmdav`, ``gamma=0.2``); ``"optimal"``, the exact
        univariate optimum (:func:`optimal_univariate`). Whole records:
        ``"mdav_multivariate"`` and ``"vmdav_multivariate"`` (:func:`mdav`
        and :func:`vmdav` with ``per_variable=False``);
        ``"mdav_multivariate"`` is exact up to
        :data:`MDAV_EXACT_MAX_RECORDS` records and blocked above
        (``variant="auto"`` of :func:`mdav`; the result's ``variant`` says
        which).
    policy : Policy, optional
        Policy whose floors apply (default: the policy in force).

    Returns
    -------
    MicroaggregationResult

    Raises
    ------
    ValueError
        An unknown algorithm; empty or non-finite data.
    DisclosureError
        ``k`` outside the policy's range, fewer than ``2k`` records, or a
        constant column.

    Notes
    -----
    Every released value is a group mean :math:`\bar x_g = |g|^{-1}
    \sum_{i \in g} x_i` with :math:`|g| \ge k`, so the released data keep
    the mean of every variable. The univariate algorithms (the default)
    partition each column on its own: each column loses less information,
    but a record's columns may come from different groups, so the
    combination of a record's released values can be unique, and the
    disclosure risk is higher than with one partition of whole records
    (Senavirathne & Torra, section 1). The ``_multivariate`` algorithms keep
    records whole.

    References
    ----------
    .. [1] Senavirathne N, Torra V. "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing (2019).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(100, 2))
    >>> res = microaggregate(x, k=3, algorithm="mdav")
    >>> res.values.shape, res.groups.shape, res.n_groups, int(res.group_sizes.min())
    ((100, 2), (100, 2), 66, 3)
    >>> microaggregate(x, k=3, algorithm="mdav_multivariate").n_groups
    33
    >>> bool(np.allclose(res.values.mean(axis=0), x.mean(axis=0)))
    True
    """
    name = algorithm.lower() if isinstance(algorithm, str) else algorithm
    if name in ("mdav", "mdav_multivariate"):
        return mdav(values, k, per_variable=name == "mdav", policy=policy)
    if name in ("vmdav", "vmdav_multivariate"):
        return vmdav(values, k, per_variable=name == "vmdav", policy=policy)
    if name == "optimal":
        return optimal_univariate(values, k, policy=policy)
    raise ValueError(
        f"algorithm={algorithm!r} is not a microaggregation algorithm; choose from "
        f"{list(ALGORITHMS)}."
    )
