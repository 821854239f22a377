"""Rounding by discretisation: each value replaced by the nearest of c representatives.

Senavirathne & Torra (2019) study *rounding* as data protection: a variable
is cut into ``c`` intervals, each interval gets one representative value (a
*rounding point*), and every value is replaced by its nearest representative.
Four ways to obtain the intervals are implemented, one variable at a time:

``"ewd"``
    equal-width discretisation: ``c`` intervals of width ``(max - min) / c``.
``"efd"``
    equal-frequency discretisation: ``c`` intervals of about ``n / c`` records
    each, cut at the sample quantiles; a cut never separates equal values.
``"kmeans"``
    univariate k-means with ``c`` clusters (Lloyd's algorithm, started
    deterministically from the equal-frequency intervals).
``"resampling"``
    resampling-based discretisation (RBD): bootstrap means within the ten
    quantile groups of the data (as many bootstrap samples as the group has
    records, as the paper specifies) form a resampled set, and k-means on
    that set gives the cut points. The bootstrap is seeded by the secret key (see
    :mod:`safeplot.keys`), so it is reproducible by the custodian and cannot
    be replayed by anyone else.

Whatever the discretiser, the representative of an interval is the *mean of
the original values in it*, and an interval holding fewer than the policy's
``threshold`` records is first merged into its nearer neighbour, so that every
representative averages at least ``threshold`` records.

References
----------
.. [1] Senavirathne N, Torra V. "Rounding based continuous data
   discretization for statistical disclosure control." Journal of Ambient
   Intelligence and Humanized Computing (2019).
   https://doi.org/10.1007/s12652-019-01489-7
.. [2] Freedman D, Diaconis P. "On the histogram as a density estimator:
   L2 theory." Zeitschrift für Wahrscheinlichkeitstheorie und verwandte
   Gebiete 57, 453-476 (1981). https://doi.org/10.1007/BF01025868
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..errors import DisclosureError
from ..keys import SecretKey, check_key
from ..policy import Policy, get_policy
from .probabilistic import _fingerprint, _seed_message

__all__ = ["DISCRETIZERS", "DiscretizeResult", "discretize", "fd_bins"]

#: The discretisers :func:`discretize` accepts.
DISCRETIZERS: tuple[str, ...] = ("ewd", "efd", "kmeans", "resampling")

#: Quantile groups of the resampling-based discretiser (RBD).
_RBD_GROUPS = 10
#: Stream label of the RBD bootstrap in the keyed seed derivation.
_RBD_STREAM = b"rbd"
#: Resampled indices drawn at once, to bound memory for large groups.
_BOOTSTRAP_CHUNK = 1 << 22
#: Lloyd iterations after which k-means stops even if the partition still moves.
_MAX_ITER = 10_000


@dataclass(frozen=True)
class DiscretizeResult:
    """Output of :func:`discretize`.

    Attributes
    ----------
    values : ndarray
        Same shape as the input: every value replaced by its nearest
        representative (ties to the lower one).
    representatives : tuple of ndarray
        Per column, the sorted representatives that replace at least one
        value. Each is the mean of the original values of one interval, an
        interval of at least ``threshold`` records.
    counts : tuple of ndarray of int
        Per column, how many values were replaced by each representative (a
        value may be nearer to a neighbouring interval's mean than to its
        own, so these need not equal the interval sizes).
    c : tuple of int
        Per column, the number of intervals asked for (``"fd"`` resolved).
    discretizer : str
        ``"ewd"``, ``"efd"``, ``"kmeans"`` or ``"resampling"``.
    edges : tuple of ndarray
        Per column, the boundaries of the final intervals (after merging
        small ones): the column minimum, the interior cut points, the column
        maximum. Computed from raw values (extremes, gaps between
        neighbouring values): for diagnostics only, never to be drawn.
    small_intervals : int
        Intervals (all columns together) that held fewer than ``threshold``
        records and were merged into a neighbour before the representatives
        were computed. Report it rounded, e.g. with
        :meth:`safeplot.policy.Policy.round_count`.
    """

    values: np.ndarray
    representatives: tuple[np.ndarray, ...]
    counts: tuple[np.ndarray, ...]
    c: tuple[int, ...]
    discretizer: str
    edges: tuple[np.ndarray, ...]
    small_intervals: int


def fd_bins(values: ArrayLike) -> int:
    r"""Return the Freedman–Diaconis number of intervals for one variable.

    Parameters
    ----------
    values : array_like, shape (n,)
        Finite values of one variable.

    Returns
    -------
    int
        :math:`\max(2, \lceil (\max x - \min x) / h \rceil)` with the
        Freedman–Diaconis width :math:`h = 2\,\mathrm{IQR}\,n^{-1/3}` [1]_.

    Raises
    ------
    ValueError
        If `values` is not 1-D, is empty or holds NaN or infinite values.
    TypeError
        If `values` is not numeric.

    Notes
    -----
    The IQR is ``np.percentile(x, 75) - np.percentile(x, 25)`` (linear
    interpolation). When it is 0 (more than half of the values are equal)
    the width is undefined and Sturges' rule :math:`\lceil \log_2 n \rceil +
    1` is used instead, as numpy's ``bins="auto"`` does. A constant variable
    gives 2, the smallest number of intervals.

    References
    ----------
    .. [1] Freedman D, Diaconis P. "On the histogram as a density estimator:
       L2 theory." Zeitschrift für Wahrscheinlichkeitstheorie und verwandte
       Gebiete 57, 453-476 (1981). https://doi.org/10.1007/BF01025868

    Examples
    --------
    >>> fd_bins([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    2
    >>> fd_bins([0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0])
    3

    More than half of the values equal (IQR 0): Sturges' rule, log2(8) + 1:

    >>> fd_bins([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0])
    4
    """
    arr = finite_array(values)
    if arr.ndim != 1:
        raise ValueError(f"values must be 1-D (one variable); got shape {arr.shape}.")
    n = arr.size
    span = float(arr.max() - arr.min())
    if span == 0:
        return 2
    q25, q75 = np.percentile(arr, [25.0, 75.0])
    iqr = float(q75 - q25)
    if iqr > 0:
        width = 2.0 * iqr * n ** (-1.0 / 3.0)
        bins = math.ceil(span / width)
    else:
        bins = math.ceil(math.log2(n)) + 1
    return max(2, int(bins))


def discretize(
    values: ArrayLike,
    c: int | str = 10,
    discretizer: str = "ewd",
    *,
    key: SecretKey | None = None,
    n_resamples: int | None = None,
    policy: Policy | None = None,
) -> DiscretizeResult:
    r"""Round each variable to `c` representatives from a discretisation.

    Rounding of Senavirathne & Torra [1]_. Each column is handled on its own:

    1. cut the sorted values into `c` intervals with `discretizer`;
    2. merge every interval of fewer than ``policy.threshold`` records into a
       neighbour (see Notes);
    3. the representative of an interval is the mean of its original values;
    4. replace every value by its nearest representative, a value exactly
       half-way between two taking the lower (distances compared exactly,
       not after rounding).

    Parameters
    ----------
    values : array_like, shape (n,) or (n, p)
        Finite numeric data; each column is one variable.
    c : int or "fd", default 10
        Number of intervals, at least 2 and at most the number of distinct
        values of each column; ``"fd"`` chooses it per column by the
        Freedman–Diaconis rule (:func:`fd_bins`), capped at the number of
        distinct values.
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        Equal-width, equal-frequency, k-means, or resampling-based (RBD).
    key : SecretKey, optional
        Key seeding the RBD bootstrap. Default: ``policy.key``. Unused by
        the other discretisers.
    n_resamples : int, optional
        Bootstrap samples per quantile group (RBD only). Default: the size
        :math:`m` of the group, as Senavirathne & Torra specify (:math:`m`
        samples of size :math:`m`, so the resampled set has as many values
        as the data). The work grows as :math:`n^2 / 10`; give a number to
        bound it on large data.
    policy : Policy, optional
        Policy whose ``threshold`` applies. Default: the policy in force.

    Returns
    -------
    DiscretizeResult
        The rounded values and, per column, the representatives used, how
        many values each replaced, and the interval edges.

    Raises
    ------
    ValueError
        If `values` is empty, not 1-D or 2-D, or holds NaN or infinite
        values; if `c` is below 2, a string other than ``"fd"``, or larger
        than the number of distinct values of a column (or ``"fd"`` for a
        constant column); for an unknown `discretizer`; or if `n_resamples`
        is below 1.
    DisclosureError
        If there are fewer than ``policy.threshold`` records: no
        representative could then average ``threshold`` of them.
    TypeError
        If `values` is not numeric, `c` or `n_resamples` is not an integer,
        or `key` is not a :class:`~safeplot.keys.SecretKey`.

    Notes
    -----
    With the sorted values :math:`x_{(1)} \le \dots \le x_{(n)}` of a column:

    * ``"ewd"``: edges :math:`e_i = \min x + i (\max x - \min x) / c`,
      :math:`i = 0..c`; value :math:`x` is in interval :math:`i` when
      :math:`e_i < x \le e_{i+1}` (the first interval includes the minimum;
      as with ``pandas.cut``, a value on an edge belongs to the interval
      below it, as it does for every discretiser here). Empty intervals are
      dropped.
    * ``"efd"``: the :math:`i`-th cut (:math:`i = 1..c-1`) ideally starts a
      new interval at rank :math:`i n / c`. Cuts may only fall between two
      *different* values, so a cut that would split a run of equal values
      moves to the nearer end of the run (to its start when both ends are
      equally far); a cut that would then coincide with the previous one
      moves to the next free place (and back, if the end is reached), so
      ``c`` non-empty intervals result whenever the column has at least
      ``c`` distinct values. The interior edge is half-way between the
      values either side of the cut.
    * ``"kmeans"``: Lloyd's algorithm, which in one dimension keeps
      clusters as intervals of the sorted values: centres are the interval
      means, and the cuts fall at the mid-points between consecutive
      centres (a value on a mid-point stays with the lower centre). It
      starts from the ``"efd"`` intervals, so it is deterministic, and stops
      when the partition no longer changes (at most 10,000 iterations). A
      cluster left empty is dropped. Like any Lloyd iteration it finds a
      local optimum of the within-interval sum of squares, not always the
      global one.
    * ``"resampling"`` (RBD): the column is cut into 10 ``"efd"`` quantile
      groups; from each group of :math:`m` records, `n_resamples` (by
      default :math:`m`) bootstrap samples of size :math:`m` are drawn with
      replacement and their means form the resampled set (:math:`n` values
      by default; fewer groups when the column has fewer than 10 distinct
      values). ``"kmeans"`` with
      `c` clusters on the resampled set gives `c` centres, and the original
      values are cut at the mid-points between them. The bootstrap generator
      is ``np.random.Generator(np.random.PCG64(seed))`` with ``seed`` the
      HMAC-SHA256 under `key` of the stream label ``b"rbd"`` and a SHA-256
      fingerprint of the sorted column (the derivation of
      :mod:`safeplot.anonymize.probabilistic`): the same data and key always
      give the same result, in any row order; without the key the cuts
      cannot be reproduced. The cluster centres only place the cuts: as for
      the other discretisers, the representatives are the means of the
      original values between the cuts, so each averages at least
      ``threshold`` records.

    Small intervals: an interval with fewer than ``threshold`` records would
    publish the average of a handful of people. Before the representatives
    are computed, the smallest such interval (the lowest on ties) is merged
    with the neighbour whose mean is nearer (the lower on ties), and this is
    repeated until every interval has at least ``threshold`` records. The
    number of intervals merged away is ``small_intervals``; there may then
    be fewer than `c` representatives.

    Nearest representative: the representatives are the interval means, so
    a value near the edge of its interval can be nearer to the neighbouring
    interval's mean and is replaced by that one; a representative that is
    nearest to no value is not used and not listed.

    References
    ----------
    .. [1] Senavirathne N, Torra V. "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing (2019).
       https://doi.org/10.1007/s12652-019-01489-7

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([1.0, 2.0, 3.0, 4.0, 10.0, 11.0, 12.0, 20.0])
    >>> res = discretize(x, c=2, discretizer="ewd")
    >>> res.edges[0]
    array([ 1. , 10.5, 20. ])
    >>> res.representatives[0]
    array([ 4.        , 14.33333333])

    10 lies in the lower interval but is nearer to the upper mean:

    >>> res.values
    array([ 4.        ,  4.        ,  4.        ,  4.        , 14.33333333,
           14.33333333, 14.33333333, 14.33333333])
    >>> discretize(x, c=2, discretizer="efd").representatives[0]
    array([ 2.5 , 13.25])
    """
    pol = get_policy(policy)
    arr = finite_array(values)
    method = _check_discretizer(discretizer)
    _check_c(c)
    if method == "resampling" and n_resamples is not None:
        if isinstance(n_resamples, bool) or not hasattr(n_resamples, "__index__"):
            raise TypeError(f"n_resamples must be an integer or None, got {n_resamples!r}.")
        if n_resamples < 1:
            raise ValueError(f"n_resamples must be at least 1, got {n_resamples}.")
    one_dim = arr.ndim == 1
    data = arr[:, None] if one_dim else arr
    n, p = data.shape
    threshold = pol.threshold
    if n < threshold:
        raise DisclosureError(
            f"Only {pol.describe_count(n)} records: every representative must be the mean of at "
            f"least threshold={threshold} records ({pol.source}). Use more data."
        )

    ordered = np.sort(data, axis=0)
    columns = []
    for j in range(p):
        xs = ordered[:, j]
        distinct = 1 + int(np.count_nonzero(xs[1:] != xs[:-1]))
        where = "the values" if one_dim else f"column {j}"
        if isinstance(c, str):  # "fd"
            if distinct < 2:
                raise ValueError(
                    f"{where} are constant: rounding needs at least 2 distinct values."
                )
            cj = min(fd_bins(xs), distinct)
        else:
            cj = int(c)
            if cj > distinct:
                raise ValueError(
                    f"c={cj} is larger than the number of distinct values ({distinct}) in "
                    f"{where}: use c <= {distinct}."
                )
        if method == "resampling":
            key = pol.key if key is None else check_key(key)
            cuts, edges = _rbd_cuts(xs, cj, key, None if n_resamples is None else int(n_resamples))
        else:
            cuts, edges = _CUTTERS[method](xs, cj)
        cuts, edges, merged = _merge_small(xs, cuts, edges, threshold)
        reps = _interval_means(xs, cuts)
        columns.append((cj, reps, np.concatenate(([xs[0]], edges, [xs[-1]])), merged))

    out = np.empty_like(data)
    representatives, counts = [], []
    for j, (_, reps, _, _) in enumerate(columns):
        label = _nearest(reps, data[:, j])
        used = np.bincount(label, minlength=reps.size)
        out[:, j] = reps[label]
        representatives.append(reps[used > 0])
        counts.append(used[used > 0])
    return DiscretizeResult(
        values=out[:, 0] if one_dim else out,
        representatives=tuple(representatives),
        counts=tuple(counts),
        c=tuple(col[0] for col in columns),
        discretizer=method,
        edges=tuple(col[2] for col in columns),
        small_intervals=sum(col[3] for col in columns),
    )


# -- argument checks -------------------------------------------------------------------


def _check_discretizer(discretizer: str) -> str:
    if not isinstance(discretizer, str) or discretizer.lower() not in DISCRETIZERS:
        raise ValueError(
            f"discretizer={discretizer!r} is not known; choose one of {list(DISCRETIZERS)}."
        )
    return discretizer.lower()


def _check_c(c: int | str) -> None:
    if isinstance(c, str):
        if c != "fd":
            raise ValueError(
                f'c={c!r} is not understood: give an integer >= 2 or "fd" (Freedman-Diaconis).'
            )
        return
    if isinstance(c, bool) or not hasattr(c, "__index__"):
        raise TypeError(f'c must be an integer >= 2 or "fd", got {c!r}.')
    if c < 2:
        raise ValueError(f"c must be at least 2 (two representatives), got {c}.")


# -- the discretisers: sorted values in, cut positions and edge values out ---------------
#
# A partition of the sorted column xs (length n) is given by its cuts: strictly
# increasing positions 0 < p < n, each starting a new interval, with
# xs[p - 1] < xs[p] (equal values are never separated), and one edge value per cut.


def _midpoint(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return 0.5 * a + 0.5 * b  # cannot overflow, unlike (a + b) / 2


def _gap_edges(xs: np.ndarray, pos: np.ndarray) -> np.ndarray:
    """Edge half-way between the values either side of each cut, never on the upper one.

    Between two neighbouring floats the mid-point rounds to one of them; it
    is then put on the lower value, so that "a value on an edge belongs to
    the interval below it" still describes the cut.
    """
    below, above = xs[pos - 1], xs[pos]
    mid = _midpoint(below, above)
    return np.where(mid < above, mid, below)


def _run_starts(xs: np.ndarray) -> np.ndarray:
    """Positions 0 < p < n where a new value begins in the sorted `xs`."""
    return np.flatnonzero(xs[1:] != xs[:-1]) + 1


def _ewd_cuts(xs: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
    """Cut at ``min + i * (max - min) / c``; a value on an edge goes to the lower interval."""
    n = xs.size
    lo, hi = xs[0], xs[-1]
    grid = lo + (hi - lo) * (np.arange(1, c) / c)
    pos = np.searchsorted(xs, grid, side="right")
    keep = (pos > 0) & (pos < n)
    pos, grid = pos[keep], grid[keep]
    # several edges at one position enclose empty intervals: keep the lowest edge
    pos, first = np.unique(pos, return_index=True)
    return pos, grid[first]


def _efd_cuts(xs: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
    """Cut near ranks ``i n / c`` without splitting runs of equal values.

    Each ideal cut goes to the nearest run start (the lower one when two are
    equally near, i.e. to the start of a run it would split when that is no
    farther than its end); collisions are pushed to the next run starts,
    and back from the top, so ``min(c, distinct)`` intervals result.
    """
    n = xs.size
    starts = _run_starts(xs)  # candidate cuts
    if starts.size <= c - 1:  # no more distinct values than intervals: cut at every run
        return starts, _gap_edges(xs, starts)
    i = np.arange(1, c, dtype=np.int64)
    # nearest candidate to rank i*n/c, compared exactly in integers: |c*p - i*n|
    upper = np.clip(np.searchsorted(starts * c, i * n, side="left"), 0, starts.size - 1)
    lower = np.clip(upper - 1, 0, None)
    up_nearer = np.abs(starts[upper] * c - i * n) < np.abs(starts[lower] * c - i * n)
    idx = np.where(up_nearer, upper, lower)
    # make the indices strictly increasing (idx_k >= idx_{k-1} + 1), leaving room above
    k = np.arange(idx.size)
    idx = np.maximum.accumulate(idx - k) + k
    idx = np.minimum(idx, starts.size - idx.size + k)
    pos = starts[idx]
    return pos, _gap_edges(xs, pos)


def _kmeans_cuts(xs: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray]:
    """Lloyd's k-means on sorted values, from the equal-frequency partition.

    Clusters are intervals of `xs`; their means come from prefix sums of the
    (centred) values, so one iteration costs O(c log n), not O(n).
    """
    n = xs.size
    shift = xs[n // 2]
    prefix = np.concatenate(([0.0], np.cumsum(xs - shift)))
    bounds = np.concatenate(([0], _efd_cuts(xs, c)[0], [n]))
    mids = xs[:0]
    for _ in range(_MAX_ITER):
        centres = shift + (prefix[bounds[1:]] - prefix[bounds[:-1]]) / np.diff(bounds)
        mids = _midpoint(centres[:-1], centres[1:])
        pos = np.searchsorted(xs, mids, side="right")  # a value on a mid-point stays below
        inner = (pos > 0) & (pos < n)
        pos, first = np.unique(pos[inner], return_index=True)  # empty clusters dropped
        mids = mids[inner][first]
        new = np.concatenate(([0], pos, [n]))
        if np.array_equal(new, bounds):
            break
        bounds = new
    return bounds[1:-1], mids


def _rbd_cuts(
    xs: np.ndarray, c: int, key: SecretKey, n_resamples: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """Cut `xs` at the mid-points of k-means centres of keyed bootstrap means.

    Each quantile group of ``m`` values gives `n_resamples` (None: ``m``)
    bootstrap means of samples of size ``m``.
    """
    n = xs.size
    digest = key.digest(_seed_message(_RBD_STREAM, _fingerprint(xs)))
    rng = np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big")))
    bounds = np.concatenate(([0], _efd_cuts(xs, _RBD_GROUPS)[0], [n]))
    means = []
    for a, b in itertools.pairwise(bounds):
        group = xs[a:b]
        size = b - a
        samples = size if n_resamples is None else n_resamples
        rows = max(1, _BOOTSTRAP_CHUNK // size)
        for done in range(0, samples, rows):
            take = min(rows, samples - done)
            draws = rng.integers(0, size, size=(take, size))
            means.append(group[draws].mean(axis=1))
    resampled = np.sort(np.concatenate(means))
    distinct = 1 + int(np.count_nonzero(resampled[1:] != resampled[:-1]))
    if distinct < 2:
        return xs[:0].astype(np.intp), xs[:0]
    _, mids = _kmeans_cuts(resampled, min(c, distinct))
    pos = np.searchsorted(xs, mids, side="right")
    inner = (pos > 0) & (pos < n)
    pos, first = np.unique(pos[inner], return_index=True)
    return pos, mids[inner][first]


_CUTTERS = {"ewd": _ewd_cuts, "efd": _efd_cuts, "kmeans": _kmeans_cuts}


# -- representatives -------------------------------------------------------------------


def _interval_means(xs: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """Mean of each interval of the sorted `xs`, kept inside the interval's range.

    The clip only undoes floating-point rounding of the sum; it keeps the
    means strictly increasing, as the intervals are.
    """
    starts = np.concatenate(([0], cuts)).astype(np.intp)
    ends = np.concatenate((cuts, [xs.size])).astype(np.intp)
    means = np.add.reduceat(xs, starts) / (ends - starts)
    return np.clip(means, xs[starts], xs[ends - 1])


def _merge_small(
    xs: np.ndarray, cuts: np.ndarray, edges: np.ndarray, threshold: int
) -> tuple[np.ndarray, np.ndarray, int]:
    """Merge intervals of fewer than `threshold` records into their nearer neighbour.

    The smallest interval (lowest on ties) goes first, into the neighbour
    whose mean is nearer to its own (the lower on ties); repeated until
    every interval holds at least `threshold` records. Returns the remaining
    cuts and edges and the number of intervals merged away.
    """
    cuts = np.asarray(cuts, dtype=np.intp)
    bounds = np.concatenate(([0], cuts, [xs.size]))
    sizes = np.diff(bounds)
    if sizes.min() >= threshold:
        return cuts, edges, 0
    sums = np.add.reduceat(xs, bounds[:-1])
    merged = 0
    while sizes.size > 1 and sizes.min() < threshold:
        i = int(np.argmin(sizes))
        means = sums / sizes
        if i == 0:
            j = 1
        elif i == sizes.size - 1:
            j = i - 1
        else:
            j = i - 1 if means[i] - means[i - 1] <= means[i + 1] - means[i] else i + 1
        lo = min(i, j)  # intervals lo and lo + 1 merge: cut lo disappears
        sums[lo] += sums[lo + 1]
        sizes[lo] += sizes[lo + 1]
        sums = np.delete(sums, lo + 1)
        sizes = np.delete(sizes, lo + 1)
        cuts = np.delete(cuts, lo)
        edges = np.delete(edges, lo)
        merged += 1
    return cuts, edges, merged


def _nearest(reps: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Index of the nearest of the sorted `reps` for each `x`; half-way goes to the lower.

    Only the two representatives either side of ``x`` can be nearest. Their
    distances are compared exactly: when the rounded differences are equal,
    the rounding errors of the two subtractions (Knuth's TwoSum) decide, so
    "half-way" means exactly half-way, not equal after rounding.
    """
    upper = np.clip(np.searchsorted(reps, x, side="left"), 0, reps.size - 1)
    lower = np.clip(upper - 1, 0, None)
    d_low, e_low = _two_sum(x, -reps[lower])
    d_up, e_up = _two_sum(reps[upper], -x)
    take_lower = (d_low < d_up) | ((d_low == d_up) & (e_low <= e_up))
    return np.where(take_lower, lower, upper)


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``s = fl(a + b)`` and the exact rounding error ``e``: ``a + b = s + e``."""
    s = a + b
    b_virtual = s - a
    return s, (a - (s - b_virtual)) + (b - b_virtual)
