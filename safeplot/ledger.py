"""The release ledger: releases of the same records, checked against each other.

A reader may hold several releases of the same data: a histogram with and
without ``hue``, a noisy scatter plot of the data and of a transformed copy,
several differentially private counts. Each is safe alone; together they may
not be (DESIGN.md section 3, invariant 6). The ledger remembers what was
released and checks each new release against it:

* **Counts** (:meth:`Ledger.link_counts`): the same records counted on the
  same bins, once in total and once split by a grouping variable, would give
  the suppressed cells as a difference (bin total minus the shown groups).
  The ledger applies *secondary suppression* to the new release, so that what
  is hidden in a bin always adds up to 0 or to at least ``threshold`` records.
  Counts of the same records on other bins are checked too: a bin minus
  the bins of another histogram inside it (half the width, a moved edge)
  must not be a small count.
* **Noise** (:meth:`Ledger.charge_noise`): re-drawing the same data gives the
  same keyed noise, so it costs nothing; a transformed copy (rescaled,
  shifted by a hair, put through a monotone function) draws new noise, and
  averaging ``m`` independent draws brings the noise down to ``q / sqrt(m)``.
  The ledger counts the independent draws of the same records and refuses
  more than the policy's ``noise_draws``.
* **Groups** (:meth:`Ledger.link_groups`, :meth:`Ledger.link_partition`):
  statistics of groups of records (the coefficient of a model's indicator,
  the records a model is fitted on, a bar's mean) from two groups, one
  holding the other and a few records more, give those records' outcomes
  as a difference: two models on a three- and a two-record dummy, or on
  the data with and without one row. Such a release is refused.
* **Privacy budget** (:meth:`Ledger.spend_epsilon`): differentially private
  releases of a data set spend from its budget (the policy's ``dp_budget``);
  a release that would overspend it is refused, naming what is left.
  (epsilon, delta) releases (the Gaussian mechanism) also spend delta: deltas
  add up (basic composition) against the policy's ``dp_delta_budget``.

"The same records" must be recognised under transformations an analyst can
apply. Two keys identify the records behind a released variable, and a noise
draw counts against both:

* the rank order of the records, in row order (no strictly monotone
  transformation changes it; a decreasing one reverses it, which is folded
  back); not used for a column already sorted, whose rank order is that of
  every sorted column;
* the sorted values standardised to mean 0 and SD 1 and rounded (no
  rescaling, shift, change of sign or reordering of the rows changes it).

Neither key is ever shown: a hash of exact values could confirm a guess of
the data. They live only in the ledger's memory.

Every session has one ledger (:func:`current`); :func:`using` installs
another for a block of code (the remote-analysis server keeps one per
analyst and data set). The guard hands each release to the current ledger
before anything is drawn.

Examples
--------
>>> import numpy as np
>>> from safeplot import ledger
>>> book = ledger.Ledger()
>>> with ledger.using(book):
...     ledger.current() is book
True
>>> book.spend_epsilon(1.0, function="histplot")
2.0
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import math
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

import numpy as np

from .anonymize._sorting import stable_sort
from .anonymize.grids import cell_index, closed_bin_index
from .anonymize.statistics import round_bits
from .errors import DisclosureError
from .policy import Policy, get_policy

__all__ = [
    "Decision",
    "Ledger",
    "bin_keys",
    "clear",
    "current",
    "records_keys",
    "summary",
    "using",
]

#: Fewest records the keys identify: the shapes and orders of fewer values coincide by chance
#: too often to tell a transformed copy from another variable.
_FEWEST = 10
#: Significant bits kept of standardised values in the shift-and-scale key (about 5 digits;
#: values below 1 in magnitude to the absolute step of those near 1).
_STANDARD_BITS = 17


@dataclass(frozen=True)
class Decision:
    """One thing the ledger did: secondary suppression, a refusal, a budget spent.

    Attributes
    ----------
    function : str
        The public function whose release was checked.
    action : str
        ``"secondary suppression"``, ``"refused"``, ``"noise draw"`` or
        ``"epsilon spent"``.
    detail : str
        What, in words a reader of the audit log understands.
    amount : float
        Cells suppressed, draws counted or epsilon spent.
    """

    function: str
    action: str
    detail: str
    amount: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Return the decision as plain JSON types."""
        return {
            "function": self.function,
            "action": self.action,
            "detail": self.detail,
            "amount": float(self.amount),
        }


def _digest(*parts: bytes | np.ndarray) -> bytes:
    """SHA-256 of the parts, each preceded by its length in bytes.

    A part is bytes or a contiguous array, hashed through its buffer: the
    bytes ``tobytes()`` would give, without copying millions of values.
    """
    h = hashlib.sha256()
    for part in parts:
        view = memoryview(np.ascontiguousarray(part) if isinstance(part, np.ndarray) else part)
        view = view.cast("B")
        h.update(view.nbytes.to_bytes(8, "big"))
        h.update(view)
    return h.digest()


def _folded_digest(tag: bytes, forward: np.ndarray, backward: np.ndarray) -> bytes:
    """Digest of the lexicographically smaller of two arrays of one length.

    A key that must not change when the data are reflected (a decreasing
    transformation, a change of sign) hashes whichever reading comes first:
    they differ first at one position, found in one pass, and only one of
    them is hashed.
    """
    differ = forward[:64] != backward[:64]  # they usually differ at once: no pass over all
    if not differ.any():
        differ = forward != backward
    at = int(np.argmax(differ))  # the first difference (0 when they are the same)
    return _digest(tag, forward if forward[at] <= backward[at] else backward)


def _monotone(column: np.ndarray) -> bool:
    """Whether `column` never decreases or never increases (one pass only when it may)."""
    head = np.diff(column[:64])  # a shuffled column shows both directions at once
    if (head > 0).any() and (head < 0).any():
        return False
    step = np.diff(column)
    return bool((step >= 0).all() or (step <= 0).all())


def _rank_key(
    column: np.ndarray, order: np.ndarray | None = None, sorted_values: np.ndarray | None = None
) -> bytes | None:
    """Key of the records' rank order in row order; a reversed order gives the same key.

    None for a column already in (reversed) order: every sorted column of
    ``n`` values has the same rank order, which then identifies nothing.
    """
    if _monotone(column):
        return None
    # tied values share a rank below, so any order a sort gives them will do (the caller's)
    if order is None:
        order, sorted_values = stable_sort(column)
    elif sorted_values is None:
        sorted_values = column[order]
    width = "<i4" if column.size < 2**31 else "<i8"  # fewer bytes to hash
    # tied values share a rank, so a transformation that keeps ties keeps the key
    new = np.r_[True, sorted_values[1:] != sorted_values[:-1]]
    if new.all():
        # no ties: the sorting order is the one permutation that sorts the column (the
        # inverse of the ranks, which it identifies as well), reversed for a reversed column
        order = order.astype(width)
        return _folded_digest(b"order", order, order[::-1])
    ranks = np.empty(column.size, dtype=width)
    ranks[order] = np.cumsum(new) - 1
    top = int(ranks.max()) if ranks.size else 0
    return _folded_digest(b"rank", ranks, top - ranks)


def _standard_key(column: np.ndarray, ordered: np.ndarray | None = None) -> bytes:
    """Key of the sorted standardised values: the same under rescaling, shifts and reordering.

    `ordered`: `column` sorted, when the caller has it.
    """
    values = np.sort(column) if ordered is None else ordered
    z = values - values.mean()
    sd = math.sqrt(float(np.dot(z, z)) / z.size)
    if not math.isfinite(sd) or sd == 0:
        return _digest(b"constant", np.int64(values.size).tobytes())
    z /= sd
    # 17 significant bits, small values to a step of 2**-16: exactly single precision, half
    # the bytes to hash
    rounded = round_bits(z, _STANDARD_BITS, floor=1).astype("<f4")
    # a change of sign reverses the sorted values: read backwards, negated, they are the same
    return _folded_digest(b"standard", rounded, -rounded[::-1] + np.float32(0.0))


def records_keys(
    column: Any, *, order: np.ndarray | None = None, ordered: np.ndarray | None = None
) -> tuple[bytes | None, bytes | None]:
    """Return the two keys that identify the records behind one released variable.

    Parameters
    ----------
    column : array-like, shape (n,)
        The raw values of the variable, in row order.
    order : ndarray of int, shape (n,), optional
        Row indices that sort `column` (any order among tied values), if
        known: saves a sort.
    ordered : ndarray, shape (n,), optional
        `column` sorted, if known: saves a sort.

    Returns
    -------
    tuple of bytes
        The rank-order key (None for a sorted column, whose rank order says
        nothing) and the standardised-values key (see the module docstring);
        both None for fewer than 10 values.
        Never show them: they are hashes of exact values.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([3.0, 1.0, 2.0, 7.0])
    >>> records_keys(x)[0] == records_keys(np.log(x))[0]
    True
    >>> records_keys(x)[1] == records_keys(10 * x[::-1] + 4)[1]
    True
    """
    values = np.asarray(column, dtype=float).reshape(-1)
    if values.size < _FEWEST:  # a handful of values: unrelated columns look alike too often
        return None, None
    if ordered is None and order is not None:
        ordered = values[order]
    return _rank_key(values, order, ordered), _standard_key(values, ordered)


def _mix(
    bits: np.ndarray, out: np.ndarray | None = None, scratch: np.ndarray | None = None
) -> np.ndarray:
    """SplitMix64 of each 64-bit word: a well-spread hash of each value.

    Written into `out` (which may be `bits` itself) with one scratch array
    (`scratch`, if given: uint64 of the same shape): at millions of records
    new arrays cost more than the arithmetic.
    """
    z = np.add(bits, np.uint64(0x9E3779B97F4A7C15), out=out)
    tmp = np.empty_like(z) if scratch is None else scratch
    for shift, factor in ((30, 0xBF58476D1CE4E5B9), (27, 0x94D049BB133111EB), (31, None)):
        np.right_shift(z, np.uint64(shift), out=tmp)
        z ^= tmp
        if factor is not None:
            z *= np.uint64(factor)
    return z


def bin_keys(values: Any, edges: Any) -> list[bytes | None]:
    """Return a key for the records in each bin: the same records give the same key.

    The key of a bin is its count and three sums of 20-bit hashes of its
    values; each sum is exact in floating point (fewer than ``2**33``
    records), so neither the order of the rows nor the machine changes it.
    It never leaves the ledger.

    Parameters
    ----------
    values : array-like, shape (n,)
        Raw values of the binned records.
    edges : array-like, shape (m + 1,)
        Bin edges (left-closed bins, the last one closed, as numpy's).

    Returns
    -------
    list of bytes or None
        One key per bin; None for an empty bin (nothing to link).

    Examples
    --------
    >>> import numpy as np
    >>> a = bin_keys(np.array([0.5, 1.5, 1.7]), [0, 1, 2])
    >>> b = bin_keys(np.array([1.7, 0.5, 1.5, 9.0]), [0, 1, 2, 10])
    >>> a == b[:2], a[1] == bin_keys(np.array([1.5, 1.6]), [0, 1, 2])[1]
    (True, False)
    """
    v = np.asarray(values, dtype=float).ravel() + 0.0  # -0.0 as 0.0
    return _row_keys(b"bin", _bin_sums(v, _mix(v.view(np.uint64)), edges)[:-1])


def _bin_sums(v: np.ndarray, h: np.ndarray, edges: Any) -> np.ndarray:
    """:func:`_indexed_sums` of values `v` (hashes `h`) on the bins of `edges`."""
    return _indexed_sums(closed_bin_index(v, edges), h, np.isfinite(v), len(edges) - 1)


def grid_keys(
    x: Any, y: Any, xedges: Any, yedges: Any, *, cells: np.ndarray | None = None
) -> list[bytes | None]:
    """Return a key for the records in each cell of a 2-D grid, as :func:`bin_keys` does.

    Cells run over x, then y (``ix * (len(yedges) - 1) + iy``, numpy's
    ``histogram2d`` order, flattened); a record's hash mixes both of its
    values, so a cell is recognised by its records' pairs. `cells`, each
    record's cell already found (:func:`~safeplot.anonymize.grids.cell_index`
    on these edges), saves finding it again.

    Examples
    --------
    >>> import numpy as np
    >>> x, y = np.array([0.5, 1.5, 1.5]), np.array([0.5, 0.5, 1.5])
    >>> keys = grid_keys(x, y, [0, 1, 2], [0, 1, 2])
    >>> [k is None for k in keys]
    [False, True, False, False]
    >>> keys == grid_keys(x[::-1], y[::-1], [0, 1, 2], [0, 1, 2])
    True
    """
    return _row_keys(b"cell", _grid_sums(x, y, xedges, yedges, cells)[:-1])


def _grid_sums(
    x: Any, y: Any, xedges: Any, yedges: Any, cells: np.ndarray | None = None
) -> np.ndarray:
    """:func:`_indexed_sums` of the records' pairs on the cells of a 2-D grid."""
    xv = np.asarray(x, dtype=float).reshape(-1)
    yv = np.asarray(y, dtype=float).reshape(-1)
    if cells is None:
        cells = cell_index(xv, yv, xedges, yedges)
    h, scratch = _pair_hashes(xv, yv)
    m = (len(xedges) - 1) * (len(yedges) - 1)
    return _indexed_sums(cells, h, np.isfinite(xv) & np.isfinite(yv), m, scratch)


def _indexed_sums(
    index: np.ndarray,
    h: np.ndarray,
    finite: np.ndarray,
    m: int,
    scratch: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`_cell_sums` of `m` cells, and one more row for the finite records in none.

    `index`: each record's cell, negative for none (outside the bins, or
    missing). The rows of the cells are their keys' (:func:`_row_keys`); all
    the rows together are the records' key (:func:`_records_key`), whatever
    bins or range, so one pass over the records gives both.
    """
    if index.size and index.min() < 0:
        index = np.where(index >= 0, index, m)
        if not finite.all():
            index, h, scratch = index[finite], h[finite], None
    return _cell_sums(index, h, m + 1, scratch)


def _row_keys(tag: bytes, sums: np.ndarray) -> list[bytes | None]:
    """One key per row of :func:`_cell_sums`, its sums digested (None: an empty cell)."""
    return [_digest(tag, row.tobytes()) if row[0] else None for row in sums]


def _pair_hashes(xv: np.ndarray, yv: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One hash per record mixing both its values, and a scratch array of its shape."""
    # two arrays for the whole computation: at millions of records, touching new memory
    # costs more than the arithmetic
    h = np.add(xv, 0.0).view(np.uint64)  # -0.0 as 0.0
    scratch = np.empty_like(h)
    _mix(h, out=h, scratch=scratch)
    h ^= np.add(yv, 0.0, out=scratch.view(float)).view(np.uint64)
    _mix(h, out=h, scratch=scratch)
    return h, scratch


def _cell_sums(
    index: np.ndarray, h: np.ndarray, m: int, scratch: np.ndarray | None = None
) -> np.ndarray:
    """Per cell: the count and three exact sums of 20-bit chunks of the records' hashes.

    Each sum is of integers below ``2**20`` (fewer than ``2**33`` records), so
    it is exact in floating point whatever the order of the rows; the sums of
    several cells add up to the sums of their records together. Shape
    ``(m, 4)``, little-endian float64.
    """
    sums = [np.bincount(index, minlength=m).astype(float)]
    chunk = np.empty(h.shape, dtype=np.uint64) if scratch is None else scratch
    weights = np.empty(h.shape, dtype=float)
    for shift in (0, 20, 40):
        np.right_shift(h, np.uint64(shift), out=chunk)
        chunk &= np.uint64(0xFFFFF)
        np.copyto(weights, chunk, casting="unsafe")  # exact: below 2**20
        sums.append(np.bincount(index, weights=weights, minlength=m))
    return np.column_stack(sums).astype("<f8")


def _records_key(sums: np.ndarray) -> bytes | None:
    """Key of a set of records from the :func:`_cell_sums` of cells that hold them all."""
    total = sums.sum(axis=0).astype("<f8")  # exact: sums of integers below 2**53
    return _digest(b"records", total.tobytes()) if total[0] else None


def _tolerance(*bounds: np.ndarray) -> float:
    """Return how far apart two bin edges may be and still be the same edge."""
    edges = np.concatenate([b.ravel() for b in bounds])
    return 1e-12 * max(1.0, float(np.abs(edges).max(initial=0.0)))


def _end_to_end(lo: np.ndarray, hi: np.ndarray) -> bool:
    """Tell whether bins, taken in order, each begin where the one before ends (no overlap)."""
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    return bool(np.abs(hi[:-1] - lo[1:]).max(initial=0.0) <= _tolerance(lo, hi))


def _within(lo: np.ndarray, hi: np.ndarray, olo: np.ndarray, ohi: np.ndarray) -> np.ndarray:
    """``out[i, j]``: box j (`olo`, `ohi`) lies inside box i (`lo`, `hi`); boxes are rows."""
    tol = _tolerance(lo, hi, olo, ohi)
    inside = np.ones((lo.shape[0], olo.shape[0]), dtype=bool)
    for d in range(lo.shape[1]):
        inside &= (olo[None, :, d] >= lo[:, None, d] - tol) & (
            ohi[None, :, d] <= hi[:, None, d] + tol
        )
    return inside


#: Pairs of boxes compared at once when bins of two releases are matched (memory bound).
_BOX_PAIRS = 1 << 21


def _inside_sums(
    lo: np.ndarray, hi: np.ndarray, olo: np.ndarray, ohi: np.ndarray, ototals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Return, per box, whether shown boxes of the other release lie inside it, and their sum.

    The other release's boxes (`olo`, `ohi`) have counts `ototals` (NaN
    where hidden). Boxes are compared a block of rows at a time, so that
    grids of many cells never build an (m, m') matrix at once.
    """
    oshown = np.isfinite(ototals)
    values = np.where(oshown, ototals, 0.0)
    known = np.zeros(lo.shape[0], dtype=bool)
    sums = np.zeros(lo.shape[0])
    step = max(1, _BOX_PAIRS // max(olo.shape[0], 1))
    for start in range(0, lo.shape[0], step):
        part = slice(start, start + step)
        inside = _within(lo[part], hi[part], olo, ohi) & oshown[None, :]
        known[part] = inside.any(axis=1)
        sums[part] = inside @ values  # counts: exact in any order
    return known, sums


def _nested_small(
    lo: np.ndarray,
    hi: np.ndarray,
    totals: np.ndarray,
    earlier: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    threshold: int,
) -> int | None:
    """Return a bin of this release to hide so that no bin difference is small, or None.

    A shown bin of one release minus the shown bins of another that lie
    inside it is what a reader computes; it must be 0 or at least
    `threshold`. Checked both ways against each earlier release; the bin to
    hide is this release's outer bin, or its smallest shown inner bin. Bins
    are boxes: `lo` and `hi` of shape ``(m, d)``. Histogram bins (one
    dimension, end to end) are checked with runs of consecutive shown bins
    as the outer count too (:func:`_runs_small`).
    """
    shown = np.isfinite(totals)
    for olo, ohi, ototals in earlier:
        if lo.shape[1] == 1:
            bins, other = (lo[:, 0], hi[:, 0]), (olo[:, 0], ohi[:, 0])
            if _end_to_end(*bins) and _end_to_end(*other):
                hide = _runs_small(*bins, totals, *other, ototals, threshold)
                if hide is None:
                    continue
                return hide
        oshown = np.isfinite(ototals)
        # this release's bins holding earlier shown bins
        known, inner = _inside_sums(lo, hi, olo, ohi, ototals)
        rest = totals - inner
        bad = shown & known & (rest > 0) & (rest < threshold)
        if bad.any():
            return int(np.flatnonzero(bad)[0])
        # earlier shown bins holding this release's shown bins
        known, inner = _inside_sums(olo, ohi, lo, hi, totals)
        rest = ototals - inner
        bad = oshown & known & (rest > 0) & (rest < threshold)
        if bad.any():
            j = int(np.flatnonzero(bad)[0])
            mine = _within(olo[j : j + 1], ohi[j : j + 1], lo, hi)[0] & shown
            candidates = np.flatnonzero(mine & (totals > 0))
            if candidates.size == 0:
                return int(np.flatnonzero(mine)[0])
            return int(candidates[np.argmin(totals[candidates])])
    return None


#: Consecutive bins in a run of shown ones, at most, that :func:`_runs_small` adds up
#: (every run, however long, when a release has at most ``_ALL_RUNS`` bins).
_RUN_BINS = 64
_ALL_RUNS = 512


def _runs(lo: np.ndarray, hi: np.ndarray, totals: np.ndarray) -> tuple[np.ndarray, ...]:
    """Every run of consecutive shown bins of one release: its bounds, count, first and last bin.

    `lo`, `hi`: the bins, sorted and each ending where the next begins (the
    bins of a histogram); `totals`: their counts, NaN where hidden. A run of
    shown bins is a count a reader knows as well as a bin's: the run from
    bin ``i`` to bin ``j`` holds the records of ``[lo[i], hi[j])``.
    """
    m = lo.size
    if m == 0:
        none = np.zeros(0, dtype=np.intp)
        return lo[none], hi[none], np.zeros(0), none, none
    shown = np.isfinite(totals)
    hidden = np.r_[0, np.cumsum(~shown)]  # hidden bins before each bin
    longest = m if m <= _ALL_RUNS else _RUN_BINS
    first, last = [], []
    for length in range(1, min(longest, m) + 1):  # runs of each length, all at once
        i = np.arange(m - length + 1)
        ok = hidden[i + length] - hidden[i] == 0  # no bin of the run hidden
        first.append(i[ok])
        last.append(i[ok] + length - 1)
        if not ok.any():
            break  # no run of this length: none longer either
    first_a, last_a = np.concatenate(first), np.concatenate(last)
    counts = np.r_[0.0, np.cumsum(np.where(shown, totals, 0.0))]
    return lo[first_a], hi[last_a], counts[last_a + 1] - counts[first_a], first_a, last_a


def _runs_small(
    lo: np.ndarray,
    hi: np.ndarray,
    totals: np.ndarray,
    olo: np.ndarray,
    ohi: np.ndarray,
    ototals: np.ndarray,
    threshold: int,
) -> int | None:
    """:func:`_nested_small` of one-dimensional bins against one earlier release, with runs.

    The outer count is a run of consecutive shown bins (a single bin among
    them), not only a bin: bins shifted by half a width, ``[0, 2), [2, 4)``
    beside ``[1, 3)``, give ``[0, 4)`` minus ``[1, 3)``, the records of
    ``[0, 1)`` and ``[3, 4)``, which must be 0 or at least `threshold`. The
    bin to hide is this release's smallest shown bin with records, in the
    outer run (its count is then not known) or inside the earlier outer run
    (the difference then holds it, at least `threshold`). The bins of each
    release lie end to end (:func:`_end_to_end`), as a histogram's do.
    """
    mine, theirs = np.argsort(lo, kind="stable"), np.argsort(olo, kind="stable")
    lo, hi, totals = lo[mine], hi[mine], totals[mine]
    olo, ohi, ototals = olo[theirs], ohi[theirs], ototals[theirs]
    tol = _tolerance(lo, hi, olo, ohi)
    shown = np.isfinite(totals)

    def inside(lo_, hi_, totals_, left, right) -> tuple[np.ndarray, np.ndarray]:
        """Whether shown bins lie inside each run ``[left, right)``, and their sum."""
        ok = np.isfinite(totals_)
        counts = np.r_[0.0, np.cumsum(np.where(ok, totals_, 0.0))]
        number = np.r_[0, np.cumsum(ok)]
        start = np.searchsorted(lo_, left - tol, side="left")
        stop = np.searchsorted(hi_, right + tol, side="right")
        stop = np.maximum(stop, start)
        return number[stop] - number[start] > 0, counts[stop] - counts[start]

    def smallest(within: np.ndarray) -> int:
        candidates = np.flatnonzero(within & shown & (totals > 0))
        if candidates.size == 0:
            candidates = np.flatnonzero(within & shown)
        return int(mine[candidates[np.argmin(totals[candidates])]])

    def small_run(outer: tuple, inner: tuple) -> tuple[float, float] | None:
        """Return the first run of `outer`'s bins whose count less `inner`'s is small."""
        left, right, count, _, _ = _runs(*outer)
        known, sums = inside(*inner, left, right)
        rest = count - sums
        bad = np.flatnonzero(known & (rest > 0) & (rest < threshold))
        return (left[bad[0]], right[bad[0]]) if bad.size else None

    this, other = (lo, hi, totals), (olo, ohi, ototals)
    # runs of this release holding earlier shown bins, then the other way round
    found = small_run(this, other) or small_run(other, this)
    if found is None:
        return None
    return smallest((lo >= found[0] - tol) & (hi <= found[1] + tol))


def _nested_by_few(only_a: Any, only_b: Any, threshold: int) -> Any:
    """Tell whether one group holds the other and 1 to ``threshold - 1`` records more.

    `only_a` and `only_b` count the records of each group not in the other.
    Their sums then differ by exactly those few records' values. Groups that
    each hold records of their own (one record swapped for another) give a
    difference of two records' values, no value of one record; they are not
    refused (cell suppression draws the same line).
    """
    only_a, only_b = np.asarray(only_a), np.asarray(only_b)
    few = (only_a > 0) & (only_a < threshold) & (only_b == 0)
    return few | ((only_b > 0) & (only_b < threshold) & (only_a == 0))


@dataclass(frozen=True)
class _Partition:
    """Groups of records whose statistics were released together, no record in two.

    A record is identified by its outcome value (a hash of it) and, among
    records of equal value, by its place in order of group: two releases are
    matched record by record, so that the records two groups share are
    counted by sorting, whatever the number of groups.
    """

    function: str
    names: tuple[str, ...]
    sizes: np.ndarray  # records per group
    ids: np.ndarray  # one id per record of a group (value hash and occurrence)
    labels: np.ndarray  # the group of each id

    @classmethod
    def of(cls, outcome: np.ndarray, labels: np.ndarray, names: tuple[str, ...], function: str):
        y = np.asarray(outcome, dtype=float).ravel() + 0.0  # -0.0 as 0.0
        member = labels >= 0
        keys, labels = _mix(y[member].view(np.uint64)), labels[member].astype(np.int64)
        ids = keys
        order = np.argsort(keys)
        tied = keys[order][1:] == keys[order][:-1]
        if tied.any():  # equal values: the i-th of a value in one release is the i-th in another
            order = np.lexsort((labels, keys))
            run = np.r_[True, keys[order][1:] != keys[order][:-1]]
            first = np.maximum.accumulate(np.where(run, np.arange(order.size), 0))
            occurrence = np.empty(order.size, dtype=np.uint64)
            occurrence[order] = (np.arange(order.size) - first).astype(np.uint64)
            ids = keys ^ _mix(occurrence)
        sizes = np.bincount(labels, minlength=len(names))
        return cls(function, names, sizes, ids, labels)

    def shared(self, other: _Partition) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the pairs of groups (this, other) that share records, and how many they share."""
        _, i, j = np.intersect1d(self.ids, other.ids, assume_unique=True, return_indices=True)
        m = len(other.names)
        pairs, counts = np.unique(self.labels[i] * m + other.labels[j], return_counts=True)
        return pairs // m, pairs % m, counts


@dataclass
class _Bin:
    """What has been released about the records of one bin.

    A bin is recognised by its records' values, so two bins of different
    records with the same values (five records of 0.5 in two facets) are
    one key: every release of it is kept and checked, not the last one only.
    """

    #: (partition name (None = the bin's total), {level: count, NaN when hidden}), per release
    entries: list[tuple[Any, dict[Any, float]]] = field(default_factory=list)

    def add(self, partition: Any, cells: dict[Any, float]) -> None:
        """Keep a release of the bin (once: the same release again adds nothing).

        An earlier release of the same records that showed more is kept as
        well: it is what a reader of that release knows.
        """
        for p, old in self.entries:
            if (
                p == partition
                and old.keys() == cells.keys()
                and all(old[k] == v or (v != v and old[k] != old[k]) for k, v in cells.items())
            ):
                return
        self.entries.append((partition, cells))


def _total(cells: dict[Any, float]) -> float | None:
    """Return the bin's count that a release shows, if it shows every part of it."""
    values = cells.values()
    if values and not any(v != v for v in values):  # v != v: NaN (a few floats: no numpy)
        return float(math.fsum(values))
    return None


class Ledger:
    """What one session has released, and the checks of each new release.

    Parameters
    ----------
    policy : Policy, optional
        The policy whose ``threshold``, ``noise_draws`` and ``dp_budget`` apply;
        by default the policy in force at each check.
    name : str, default "session"
        A label for reports (e.g. the analyst and data set on a server).

    Examples
    --------
    >>> book = Ledger()
    >>> book.epsilon_spent()
    0.0
    >>> book.spend_epsilon(0.5, function="countplot")
    2.5
    >>> book.epsilon_spent()
    0.5
    """

    def __init__(self, policy: Policy | None = None, *, name: str = "session") -> None:
        self.name = name
        self._policy = policy
        self._lock = threading.RLock()
        #: records key -> {noise seed fingerprint: q}
        self._draws: dict[bytes, dict[bytes, float]] = {}
        #: data set -> epsilon spent
        self._epsilon: dict[str, float] = {}
        #: data set -> delta spent ((epsilon, delta) releases only)
        self._delta: dict[str, float] = {}
        #: the records of a bin (see :func:`bin_keys`) -> what was released of them
        self._bins: dict[bytes, _Bin] = {}
        #: groups of records whose statistics were released (a model's dummies and records,
        #: bars, x_bins, the columns describe summarises)
        self._partitions: list[_Partition] = []
        #: (all the records counted: a multiset hash, dimensions) -> each release's bins as
        #: boxes: (lo, hi, totals)
        self._intervals: dict[tuple, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}
        self._decisions: list[Decision] = []

    def __repr__(self) -> str:
        return f"Ledger(name={self.name!r}, decisions={len(self._decisions)})"

    @property
    def policy(self) -> Policy:
        """The policy whose floors the ledger applies."""
        return self._policy if self._policy is not None else get_policy()

    # -- the log of decisions ------------------------------------------------------------

    def decisions(self) -> list[Decision]:
        """Return what the ledger has done so far (a copy)."""
        with self._lock:
            return list(self._decisions)

    def _decide(self, function: str, action: str, detail: str, amount: float = 0.0) -> Decision:
        decision = Decision(function, action, detail, amount)
        with self._lock:
            self._decisions.append(decision)
        return decision

    # -- differential privacy ------------------------------------------------------------

    def epsilon_spent(self, dataset: str = "session") -> float:
        """Return the privacy loss spent on `dataset` so far."""
        with self._lock:
            return float(self._epsilon.get(dataset, 0.0))

    def epsilon_by_dataset(self) -> dict[str, float]:
        """Return the privacy loss spent so far on each data set (a copy).

        Examples
        --------
        >>> book = Ledger()
        >>> _ = book.spend_epsilon(0.5, dataset="cohort")
        >>> book.epsilon_by_dataset()
        {'cohort': 0.5}
        """
        with self._lock:
            return {name: float(v) for name, v in self._epsilon.items()}

    def delta_spent(self, dataset: str = "session") -> float:
        """Return the delta spent on `dataset` so far (the sum over its releases).

        Examples
        --------
        >>> book = Ledger()
        >>> _ = book.spend_epsilon(0.5, delta=1e-6)
        >>> book.delta_spent()
        1e-06
        """
        with self._lock:
            return float(self._delta.get(dataset, 0.0))

    def budget_left(self, dataset: str = "session") -> float:
        """Return the privacy-loss budget left for `dataset` (the policy's ``dp_budget``)."""
        return max(0.0, float(self.policy.dp_budget) - self.epsilon_spent(dataset))

    def spend_epsilon(
        self,
        epsilon: float,
        *,
        dataset: str = "session",
        function: str = "",
        delta: float = 0.0,
    ) -> float:
        """Spend `epsilon` of `dataset`'s budget; return what is left.

        Parameters
        ----------
        epsilon : float
            Privacy loss of the release (sequential composition: losses add).
        dataset : str, default "session"
            Whose budget. In a local session every differentially private
            release spends from one budget, since the ledger cannot tell
            whether two frames hold the same people; a server names its data
            sets.
        function : str
            The function making the release (for the log).
        delta : float, default 0.0
            The delta of an (epsilon, delta)-DP release (0 for pure DP).
            Deltas add up, and their sum may not pass the policy's
            ``dp_delta_budget``.

        Raises
        ------
        DisclosureError
            If the release would take the spent total past the budget (of
            epsilon, or of delta); the message names the budget left.
            Nothing is spent then.
        """
        try:
            epsilon = float(epsilon)
        except (TypeError, ValueError):
            raise ValueError(f"epsilon must be a positive number, got {epsilon!r}.") from None
        if not math.isfinite(epsilon) or epsilon <= 0:
            raise ValueError(f"epsilon must be a positive finite number, got {epsilon}.")
        try:
            delta = float(delta)
        except (TypeError, ValueError):
            raise ValueError(f"delta must be a number in [0, 1), got {delta!r}.") from None
        if not (math.isfinite(delta) and 0 <= delta < 1):
            raise ValueError(f"delta must be a number in [0, 1), got {delta}.")
        budget = float(self.policy.dp_budget)
        delta_budget = float(getattr(self.policy, "dp_delta_budget", 0.0))
        with self._lock:
            spent = self._epsilon.get(dataset, 0.0)
            spent_delta = self._delta.get(dataset, 0.0)
            if delta > 0 and spent_delta + delta > delta_budget * (1 + 1e-12):
                left_delta = max(0.0, delta_budget - spent_delta)
                self._decide(
                    function,
                    "refused",
                    f"delta={delta:g} with {left_delta:g} of {delta_budget:g} left",
                )
                raise DisclosureError(
                    f"This differentially private release needs delta={delta:g}, but only "
                    f"{left_delta:g} of the delta budget dp_delta_budget={delta_budget:g} is "
                    f"left for {dataset!r} (spent so far: {spent_delta:g}; deltas add up). Use "
                    "a smaller delta, mechanism='laplace' (no delta), or ask the data "
                    "custodian: the budget is the policy's, not the call's."
                )
            if spent + epsilon > budget * (1 + 1e-12):
                left = max(0.0, budget - spent)
                self._decide(
                    function, "refused", f"epsilon={epsilon:g} with {left:g} of {budget:g} left"
                )
                raise DisclosureError(
                    f"This differentially private release needs epsilon={epsilon:g}, but only "
                    f"{left:g} of the privacy budget dp_budget={budget:g} is left for "
                    f"{dataset!r} (spent so far: {spent:g}). Use a smaller epsilon, or ask the "
                    "data custodian: the budget is the policy's, not the call's."
                )
            self._epsilon[dataset] = spent + epsilon
            if delta > 0:
                self._delta[dataset] = spent_delta + delta
        shown = f"epsilon={epsilon:g}" + (f", delta={delta:g}" if delta > 0 else "")
        self._decide(function, "epsilon spent", f"{shown} on {dataset!r}", epsilon)
        return max(0.0, budget - spent - epsilon)

    # -- keyed noise ---------------------------------------------------------------------

    def charge_noise(
        self,
        column: Any,
        seed: bytes,
        q: float,
        *,
        name: str | None = None,
        function: str = "",
        order: np.ndarray | None = None,
        ordered: np.ndarray | None = None,
    ) -> None:
        """Count a noise draw on the records of `column`, refusing one too many.

        Parameters
        ----------
        column : array-like, shape (n,)
            The raw values the noise is added to, in row order.
        seed : bytes
            What seeds the noise (the keyed fingerprint of the values): the
            same seed gives the same noise, and costs nothing again.
        q : float
            Noise SD as a fraction of the variable's SD.
        name : str, optional
            The variable's name, for the message.
        function : str
            The function making the release.
        order, ordered : ndarray, optional
            Row indices that sort `column`, and `column` sorted, when the
            caller has them (the noise sorts each variable): the keys then
            need no sort of their own (:func:`records_keys`).

        Raises
        ------
        DisclosureError
            When the records already carry ``noise_draws`` independent draws:
            averaging them would bring the noise below what the policy allows.
        """
        found = records_keys(column, order=order, ordered=ordered)
        keys = [key for key in found if key is not None]
        limit = int(self.policy.noise_draws)
        with self._lock:
            for key in keys:
                seen = self._draws.get(key, {})
                if seed not in seen and len(seen) >= limit:
                    what = f" of {name!r}" if name else ""
                    self._decide(function, "refused", f"noise draw {len(seen) + 1}{what}")
                    raise DisclosureError(
                        f"The values{what} were already released with keyed noise, and this "
                        "data is a transformed copy of them (rescaled, shifted, reordered or "
                        "put through a monotone function), which draws new noise: averaging "
                        f"{len(seen) + 1} independent draws would bring the noise below q/"
                        f"sqrt({len(seen) + 1}) (policy noise_draws={limit}). Plot the same "
                        "values as before (they get the same noise), or use another method "
                        "such as method='deterministic'."
                    )
            for key in keys:
                self._draws.setdefault(key, {})[seed] = float(q)
        self._decide(function, "noise draw", f"q={q:g}" + (f" on {name!r}" if name else ""), 1)

    # -- groups of records ---------------------------------------------------------------

    def link_groups(
        self,
        outcome: Any,
        groups: Mapping[str, np.ndarray],
        *,
        function: str = "",
        advice: str = "Release statistics of the same records, or of groups that differ by "
        "more records.",
        whole: bool = True,
    ) -> None:
        """Refuse statistics of groups that differ from each other by a few records.

        A model's coefficient of an indicator is, in effect, a statistic of
        the records the indicator marks, and its intercept one of all the
        records fitted; two such statistics on groups that differ by fewer
        than ``threshold`` records give those records' outcomes as a
        difference (a three- and a two-record dummy, a model fitted with and
        without one row). No group -- of this release, or released before on
        the same outcome -- may hold another and 1 to ``threshold - 1``
        records more, and every group must hold 0 or at least ``threshold``
        records. Groups that each hold records of their own give a
        difference of several records' values and are not refused. Across
        releases, a record is recognised by its outcome value: a group's
        records not in the other are those whose outcomes are not matched
        there (which is exactly what a difference of their sums leaves).

        Parameters
        ----------
        outcome : array-like, shape (n,)
            The outcome of each record of the release, in row order.
        groups : mapping
            Group name -> boolean mask over the records (an indicator
            column, a level's records).
        whole : bool, default True
            Whether a statistic of all the records is released too (a
            model's intercept and fit statistics): then they are a group
            named ``"all records"``.
        function : str
            The function making the release.
        advice : str
            What the refusal tells the analyst to do instead.

        Raises
        ------
        DisclosureError
            A group of 1 to ``threshold - 1`` records, or two groups that
            differ by so few; nothing is recorded then.

        Examples
        --------
        >>> import numpy as np
        >>> book = Ledger()
        >>> y = np.arange(20.0)
        >>> book.link_groups(y, {"d": np.arange(20) < 5}, function="safe_ols")
        >>> book.link_groups(y, {"d": np.arange(20) < 4}, function="safe_ols")
        Traceback (most recent call last):
        ...
        safeplot.errors.DisclosureError: safe_ols: the group 'd' and the group 'd' of an ...
        """
        threshold = int(self.policy.threshold)
        y = np.asarray(outcome, dtype=float).ravel() + 0.0  # -0.0 as 0.0
        masks = {"all records": np.ones(y.size, dtype=bool)} if whole else {}
        masks.update({str(k): np.asarray(m, dtype=bool).ravel() for k, m in groups.items()})
        sizes = {name: int(m.sum()) for name, m in masks.items()}

        def refuse(detail: str) -> None:
            rule = "every group, and every difference of two groups,"
            self._refuse_groups(function, detail, "outcomes", rule, advice)

        for name, size in sizes.items():
            if 0 < size < threshold or (whole and 0 < y.size - size < threshold):
                refuse(
                    f"the group {name!r} holds fewer than {threshold} records, or all but "
                    f"fewer than {threshold}"
                )
        names = list(masks)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if abs(sizes[a] - sizes[b]) < threshold:  # else they differ by >= threshold
                    only_a = int(np.count_nonzero(masks[a] & ~masks[b]))
                    only_b = int(np.count_nonzero(masks[b] & ~masks[a]))
                    if _nested_by_few(only_a, only_b, threshold):
                        refuse(
                            f"the groups {a!r} and {b!r} differ by fewer than {threshold} "
                            "records, one holding the other"
                        )
        # overlapping groups (a model's dummies) are stored one by one
        parts = [
            _Partition.of(y, np.where(m, 0, -1), (name,), function)
            for name, m in masks.items()
            if m.any()
        ]
        self._link_partitions(parts, function, threshold, refuse)

    def link_partition(
        self,
        outcome: Any,
        labels: Any,
        names: Any = None,
        *,
        function: str = "",
        advice: str = "Release statistics of the same groups as before, or of groups that "
        "differ by more records.",
    ) -> None:
        """Refuse group statistics of a partition that differ from earlier ones by a few records.

        As :meth:`link_groups`, for groups no record is in twice (the bars
        of a bar plot, the points of a line): the groups of this release are
        not compared with each other (they share no record), and the
        comparison with earlier groups costs a sort of the records, whatever
        the number of groups. A category's bar beside the bar of its one
        large hue level, a record or two fewer, gives those records' values
        as a difference.

        Parameters
        ----------
        outcome : array-like, shape (n,)
            The values of the variable whose group statistics are released.
        labels : array-like of int, shape (n,)
            The group of each record, -1 for none.
        names : sequence of str, optional
            A name per group, for the message (default ``"group i"``).
        function : str
            The function making the release.
        advice : str
            What the refusal tells the analyst to do instead.

        Raises
        ------
        DisclosureError
            A group that differs from an earlier group of the same outcome
            by 1 to ``threshold - 1`` records; nothing is recorded then.

        Examples
        --------
        >>> import numpy as np
        >>> book = Ledger()
        >>> x = np.arange(30.0)
        >>> book.link_partition(x, np.repeat([0, 1, 2], 10), function="barplot")
        >>> book.link_partition(x, np.repeat([0, 1, 2], [9, 10, 11]), function="barplot")
        Traceback (most recent call last):
        ...
        safeplot.errors.DisclosureError: barplot: the group 'group 1' and the group ...
        """
        threshold = int(self.policy.threshold)
        labels = np.asarray(labels).ravel().astype(np.int64)
        m = int(labels.max()) + 1 if labels.size else 0
        names = tuple(str(v) for v in names) if names is not None else ()
        names = names if len(names) == m else tuple(f"group {i + 1}" for i in range(m))

        def refuse(detail: str) -> None:
            self._refuse_groups(
                function, detail, "values", "every difference of two groups", advice
            )

        part = _Partition.of(np.asarray(outcome, dtype=float), labels, names, function)
        self._link_partitions([part], function, threshold, refuse)

    def _refuse_groups(
        self, function: str, detail: str, what: str, rule: str, advice: str
    ) -> NoReturn:
        """Log a refusal of group statistics and raise it (`rule`: what needs the threshold)."""
        self._decide(function, "refused", detail)
        raise DisclosureError(
            f"{function}: {detail}, so statistics of them would give those records' {what} "
            f"({rule} needs 0 or at least {int(self.policy.threshold)} records). {advice}"
        )

    def _link_partitions(
        self, new: list[_Partition], function: str, threshold: int, refuse: Callable
    ) -> None:
        """Compare `new` with every partition released before, then keep it."""
        with self._lock:
            for part in new:
                for old in self._partitions:
                    mine, theirs, common = part.shared(old)
                    bad = np.flatnonzero(
                        _nested_by_few(
                            part.sizes[mine] - common, old.sizes[theirs] - common, threshold
                        )
                    )
                    if bad.size:
                        g, h = int(mine[bad[0]]), int(theirs[bad[0]])
                        refuse(
                            f"the group {part.names[g]!r} and the group {old.names[h]!r} of an "
                            f"earlier {old.function or 'release'} differ by fewer than "
                            f"{threshold} records, one holding the other"
                        )
            self._partitions.extend(new)

    # -- counts --------------------------------------------------------------------------

    def link_counts(
        self,
        values: Any,
        edges: Any,
        counts: Mapping[Any, np.ndarray],
        *,
        partition: Any = None,
        function: str = "",
    ) -> dict[Any, np.ndarray]:
        """Check counts of binned records against earlier counts of the same records.

        The records are counted on `edges`, either in total (`partition`
        None, one entry in `counts`) or split by a grouping variable (one
        entry per level). Suppressed cells are NaN. A bin is recognised by
        the records in it (their values, in any order), so the same bin is
        found again under other bins beside it, another ``binrange`` or
        another order of the rows. When an earlier release shows every part
        of a bin (its total, or all its groups), what this release hides in
        that bin must add up to 0 or to at least the threshold; where it
        would not, one more cell of the bin is hidden (the smallest shown
        group; a cell so hidden held at least the threshold, so what is
        hidden then does too), or the bin's total is hidden. The same is
        checked of earlier releases against this one.

        Parameters
        ----------
        values : array-like, shape (n,)
            Every binned record's raw value (all groups together).
        edges : array-like
            The bin edges (left-closed bins, the last one closed).
        counts : mapping
            Level -> counts per bin (NaN where suppressed).
        partition : hashable, optional
            The grouping variable's name; None for the total.
        function : str
            The function making the release.

        Returns
        -------
        dict
            The counts to release: `counts` with the secondary suppression
            applied (copies; the input is not changed).

        Examples
        --------
        >>> import numpy as np
        >>> book = Ledger()
        >>> x = np.array([0.5] * 6 + [1.5] * 4)
        >>> edges = np.array([0.0, 1.0, 2.0])
        >>> book.link_counts(x, edges, {None: np.array([6.0, 4.0])})[None]
        array([6., 4.])
        >>> split = {"a": np.array([5.0, 4.0]), "b": np.array([np.nan, 0.0])}
        >>> out = book.link_counts(x, edges, split, partition="sex")
        >>> out["a"], out["b"]
        (array([nan,  4.]), array([nan,  0.]))
        """
        v = np.asarray(values, dtype=float).ravel() + 0.0  # -0.0 as 0.0
        sums = _bin_sums(v, _mix(v.view(np.uint64)), edges)  # the bins' and the whole's keys
        out = self._link(_row_keys(b"bin", sums[:-1]), counts, partition, function)
        e = np.asarray(edges, dtype=float).ravel()
        return self._link_intervals(_records_key(sums), e[:-1, None], e[1:, None], out, function)

    def _link_intervals(
        self, key: bytes | None, lo: np.ndarray, hi: np.ndarray, counts: dict, function: str
    ) -> dict[Any, np.ndarray]:
        """Secondary suppression against counts of the same records on other bins.

        A bin of one histogram holds the bins of another that lie inside it
        (bins of half the width, a shifted range, edges given by hand): its
        count minus theirs is the count of the rest of it, which must be 0
        or at least ``threshold``. Bins are boxes of any dimension: the bins
        of histograms, the cells of 2-D grids (a heat map at 8 x 8 cells
        beside one at 4 x 4). The records are recognised as a whole (`key`:
        :func:`_records_key`, a multiset hash of all their values, whatever
        bins or range), and each bin by its box (`lo`, `hi`: shape
        ``(m, d)``, one column per variable). Where a difference would be small, one more
        bin of this release is hidden: the outer one, or the smallest inner
        one (a shown bin holds at least ``threshold`` records, so the
        difference then does too). For a release split by a grouping
        variable, a bin's total is known where every level of it is shown,
        and hiding a bin hides it in every level.
        """
        threshold = int(self.policy.threshold)
        if key is None:
            return counts
        levels = list(counts)
        stack = np.stack([np.asarray(counts[level], dtype=float).ravel() for level in levels])
        totals = stack.sum(axis=0)  # NaN where any level is hidden: the total is not known
        added = 0
        with self._lock:
            earlier = self._intervals.setdefault((key, lo.shape[1]), [])
            for _ in range(totals.size + 1):
                hide = _nested_small(lo, hi, totals, earlier, threshold)
                if hide is None:
                    break
                totals[hide] = np.nan
                stack[:, hide] = np.where(stack[:, hide] == 0, 0.0, np.nan)
                added += 1
            earlier.append((lo.copy(), hi.copy(), totals.copy()))
        if added:
            self._decide(
                function,
                "secondary suppression",
                f"{added} more bin(s) hidden so that the counts cannot be differenced "
                "against earlier counts of the same records on other bins",
                added,
            )
        return {level: stack[i].reshape(np.shape(counts[level])) for i, level in enumerate(levels)}

    def link_cells(
        self,
        x: Any,
        y: Any,
        xedges: Any,
        yedges: Any,
        counts: Mapping[Any, np.ndarray],
        *,
        partition: Any = None,
        function: str = "",
        cells: np.ndarray | None = None,
    ) -> dict[Any, np.ndarray]:
        """Check counts of a 2-D grid against earlier counts of the same records.

        As :meth:`link_counts`, for the cells of a grid (a heat map, a
        bivariate histogram, the cells of a scatter plot): a cell is
        recognised by the pairs of values of its records
        (:func:`grid_keys`), and `counts` are per level, of shape
        ``(len(xedges) - 1, len(yedges) - 1)``. `cells`: each record's cell
        on these edges, when the caller found it already.

        Examples
        --------
        >>> import numpy as np
        >>> book = Ledger()
        >>> x = y = np.array([0.5] * 6 + [1.5] * 4)
        >>> total = np.array([[6.0, 0.0], [0.0, 4.0]])
        >>> book.link_cells(x, y, [0, 1, 2], [0, 1, 2], {None: total})[None].tolist()
        [[6.0, 0.0], [0.0, 4.0]]
        >>> split = {"a": np.array([[5.0, 0], [0, 4]]), "b": np.array([[np.nan, 0], [0, 0]])}
        >>> out = book.link_cells(x, y, [0, 1, 2], [0, 1, 2], split, partition="sex")
        >>> out["a"].tolist(), out["b"].tolist()
        ([[nan, 0.0], [0.0, 4.0]], [[nan, 0.0], [0.0, 0.0]])
        """
        flat = {level: np.asarray(c, dtype=float).ravel() for level, c in counts.items()}
        xe = np.asarray(xedges, dtype=float).ravel()
        ye = np.asarray(yedges, dtype=float).ravel()
        sums = _grid_sums(x, y, xe, ye, cells)  # the cells' keys and the whole's
        out = self._link(_row_keys(b"cell", sums[:-1]), flat, partition, function)
        # cells of other grids of the same records inside these cells, or holding them
        ny = ye.size - 1
        lo = np.column_stack([np.repeat(xe[:-1], ny), np.tile(ye[:-1], xe.size - 1)])
        hi = np.column_stack([np.repeat(xe[1:], ny), np.tile(ye[1:], xe.size - 1)])
        out = self._link_intervals(_records_key(sums), lo, hi, out, function)
        return {level: out[level].reshape(np.shape(counts[level])) for level in out}

    def _link(
        self,
        keys: list[bytes | None],
        counts: Mapping[Any, np.ndarray],
        partition: Any,
        function: str,
    ) -> dict[Any, np.ndarray]:
        """Secondary suppression of the cells `keys` name, against earlier releases."""
        threshold = int(self.policy.threshold)
        out = {level: np.array(c, dtype=float, copy=True) for level, c in counts.items()}
        levels = list(out)
        added = 0
        with self._lock:
            for b, key in enumerate(keys):
                if key is None:
                    continue
                state = self._bins.setdefault(key, _Bin())
                cells = {level: float(out[level][b]) for level in levels}
                added += self._secondary(state, partition, cells, threshold)
                for level in levels:
                    out[level][b] = cells[level]
                state.add(partition, cells)
        if added:
            self._decide(
                function,
                "secondary suppression",
                f"{added} more cell(s) hidden so that the counts cannot be differenced against "
                "an earlier release of the same records",
                added,
            )
        return out

    @staticmethod
    def _secondary(state: _Bin, partition: Any, cells: dict[Any, float], threshold: int) -> int:
        """Hide cells of one bin of a new release until it and the earlier ones are safe."""

        def unsafe(known: float | None, shown: dict[Any, float]) -> bool:
            if known is None or not any(v != v for v in shown.values()):
                return False
            rest = known - math.fsum(v for v in shown.values() if v == v)
            return 0 < rest < threshold

        added = 0
        others = [c for _, c in state.entries]
        knowns = [t for t in map(_total, others) if t is not None]
        # this release's hidden cells, differenced against an earlier total
        while any(unsafe(known, cells) for known in knowns):
            shown = [(v, level) for level, v in cells.items() if v == v]
            if not shown:
                break
            _, level = min(shown, key=lambda t: (t[0], str(t[1])))
            cells[level] = np.nan
            added += 1
        # an earlier release's hidden cells, differenced against this release's total
        mine = _total(cells)
        if any(unsafe(mine, shown) for shown in others):
            for level in cells:
                if cells[level] != 0:
                    cells[level] = np.nan
                    added += 1
        return added


_default = Ledger()
_current: contextvars.ContextVar[Ledger | None] = contextvars.ContextVar(
    "safeplot_ledger", default=None
)


def current() -> Ledger:
    """Return the ledger in force: the one installed by :func:`using`, else the session's.

    Examples
    --------
    >>> isinstance(current(), Ledger)
    True
    """
    installed = _current.get()
    return installed if installed is not None else _default


@contextlib.contextmanager
def using(ledger: Ledger) -> Iterator[Ledger]:
    """Make `ledger` the one in force inside a ``with`` block (per thread and task).

    Examples
    --------
    >>> book = Ledger(name="analyst a / titanic")
    >>> with using(book) as active:
    ...     active.name
    'analyst a / titanic'
    """
    if not isinstance(ledger, Ledger):
        raise TypeError(f"using() takes a safeplot Ledger, got {type(ledger).__name__}.")
    token = _current.set(ledger)
    try:
        yield ledger
    finally:
        _current.reset(token)


def clear() -> None:
    """Forget everything the session's ledger holds (a new session).

    Refused under a locked custodian policy: forgetting earlier releases
    would reset the budgets the custodian set.

    Examples
    --------
    >>> clear()
    >>> current().decisions()
    []
    """
    policy = get_policy()
    if policy.locked:
        raise DisclosureError(
            f"The custodian policy ({policy.source}) is locked: the release ledger keeps its "
            "budgets for the whole session and cannot be cleared. Start a new Python session."
        )
    _reset()


def _reset() -> None:
    """Start a fresh session ledger, whatever the policy (for test isolation)."""
    global _default
    _default = Ledger()


def summary(ledger: Ledger | None = None) -> list[dict[str, Any]]:
    """Return the ledger's decisions as plain rows (for the audit log and bundles)."""
    book = ledger if ledger is not None else current()
    return [d.to_dict() for d in book.decisions()]
