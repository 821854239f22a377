"""O'Keefe's confidentialised scatter plot: parallel box plots and a lowess trend line.

A scatter plot draws every record. O'Keefe (2013) replaces it, in remote
analysis output, by two things that show the relationship without any
individual point:

- *parallel box plots* (:func:`parallel_boxes`): the x axis is cut into
  intervals that each hold at least ``threshold`` records, and a
  confidentialised box plot of y (winsorised, rounded five-number summary,
  no outliers; :func:`~safeplot.anonymize.boxes.confidential_box`) is drawn
  for each interval. Adjacent intervals are merged while a box has a
  zero-length half (its median equal to a quartile), because such a box
  points at a value many records share. Unless the number of intervals is
  given, several equal-width divisions are tried and the finest that needs
  no merging is kept (:func:`search_division`). An ordinal variable has a
  slot per level instead of intervals, merged in the same way
  (:func:`ordinal_boxes`, her Figure 7b);
- a *lowess trend line* (:func:`lowess_trend`) fitted to the winsorised
  data, evaluated on a rounded grid of x inside the winsorised range, with
  the fitted values kept inside the (rounded) winsorised range of y and its
  end points rounded, so neither end discloses a data value.

Everything here is numbers in, numbers out: numpy and statsmodels, no
plotting.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from .boxes import BoxSummary, confidential_box, nudge_off
from .grids import move_off, nice_step, off_rare, rare_values, safe_edges, safe_ticks
from .statistics import round_sig, round_to_span, sig_unit, winsorize

__all__ = [
    "LOWESS_EXACT_MAX",
    "Division",
    "ParallelBoxes",
    "default_intervals",
    "interval_edges",
    "lowess_trend",
    "ordinal_boxes",
    "parallel_boxes",
    "search_division",
]

#: Most records for which the lowess fit is evaluated exactly at the grid
#: points; larger data are fitted with statsmodels' ``delta`` shortcut and
#: interpolated.
LOWESS_EXACT_MAX = 5000
#: Records from which the lowess fit is computed from x binned into
#: ``LOWESS_BINS`` equal-width bins (:func:`_binned_lowess`).
LOWESS_BINNED_MIN = 100_000
#: Bins of the binned lowess fit.
LOWESS_BINS = 2048


@dataclass(frozen=True)
class ParallelBoxes:
    """O'Keefe's parallel box plots of y over intervals of x.

    Attributes
    ----------
    edges : ndarray, shape (m + 1,)
        Equally spaced interval edges on a rounded grid, the outer ones
        beyond the (winsorised) x values.
    boxes : tuple of BoxSummary
        One confidentialised box per group of intervals, left to right.
    groups : tuple of tuple of int
        The intervals each box summarises (more than one where intervals
        were merged).
    slots : ndarray of int
        The interval each box is drawn over: the interval of its group
        holding the most records (the leftmost of those on a tie). Every box
        has the width of one interval, never that of its merged group.
    dropped : tuple of int
        Intervals that have no box of their own: they were merged into the
        box drawn over a neighbouring interval, and are left empty.
    n_winsorized : int
        Values moved to a winsorising bound (x and y, and within boxes).
    warnings : tuple of str
        Anything the reader of the figure should know.
    """

    edges: np.ndarray
    boxes: tuple[BoxSummary, ...]
    groups: tuple[tuple[int, ...], ...]
    slots: np.ndarray
    dropped: tuple[int, ...]
    n_winsorized: int = 0
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def width(self) -> float:
        """Width of one interval (all are equal)."""
        return float(self.edges[1] - self.edges[0])

    @property
    def centres(self) -> np.ndarray:
        """Centre of the interval each box is drawn over."""
        return (self.edges[self.slots] + self.edges[self.slots + 1]) / 2

    @property
    def merged(self) -> tuple[tuple[int, ...], ...]:
        """Groups of more than one interval (merged intervals)."""
        return tuple(g for g in self.groups if len(g) > 1)

    def describe_merges(
        self, name: str = "x", *, empty: bool = False, unit: str = "intervals"
    ) -> list[str]:
        """Say, for each merged group, how many x intervals its box covers and where it is drawn.

        The text names no number at all: an interval edge, or even an
        interval's position, written as a number could coincide with a rare
        value of a variable in the figure. The box's place on the x axis
        shows where the group lies.

        Parameters
        ----------
        name : str, default "x"
            The x variable's name, used in the text.
        empty : bool, default False
            Also say that the other intervals of the group are left empty.
        unit : str, default "intervals"
            What the slots are called ("levels" for an ordinal variable).

        Examples
        --------
        >>> import numpy as np
        >>> pb = ParallelBoxes(np.array([0.0, 1.0, 2.0, 3.0]), (), ((0, 1), (2,)),
        ...                    np.array([1, 2]), (0,))
        >>> pb.describe_merges()
        ['two adjacent x intervals are one box, drawn over the second']
        >>> pb.describe_merges("age", empty=True)
        ['two adjacent age intervals are one box, drawn over the second; the other is left empty']
        """
        out = []
        for group, slot in zip(self.groups, self.slots, strict=True):
            if len(group) > 1:
                text = (
                    f"{_number_word(len(group))} adjacent {name} {unit} are one box, "
                    f"drawn over {_ordinal_word(slot - group[0] + 1)}"
                )
                if empty:
                    text += (
                        "; the other is left empty"
                        if len(group) == 2
                        else ("; the others are left empty")
                    )
                out.append(text)
        return out


_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)
_ORDINAL_WORDS = (
    "zeroth",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
)


def _number_word(n: int) -> str:
    """Return `n` in words ("two"); "many" beyond ten (a grid has at most ten intervals)."""
    return _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else "many"


def _ordinal_word(n: int) -> str:
    """Return "the" and the ordinal of `n` in words ("the second"); "one of them" beyond ten."""
    return f"the {_ORDINAL_WORDS[n]}" if n < len(_ORDINAL_WORDS) else "one of them"


def default_intervals(n: int, threshold: int) -> int:
    """Return the default number of x intervals: ``min(10, n // (2 * threshold))``, at least 1.

    Examples
    --------
    >>> default_intervals(500, 3), default_intervals(20, 3)
    (10, 3)
    """
    return int(max(1, min(10, n // (2 * threshold))))


def interval_edges(
    x: ArrayLike, n_intervals: int, *, avoid: ArrayLike | None = None
) -> np.ndarray:
    """Equal-width interval edges on a rounded grid covering `x`, the outer ones beyond it.

    The width is the "nice" step (1, 2, 2.5 or 5 times a power of ten) at
    least ``range / n_intervals``, so there are at most ``n_intervals + 1``
    intervals; no edge or interval centre equals a value in `avoid`.

    Parameters
    ----------
    x : array-like
        The (winsorised) x values.
    n_intervals : int
        Target number of intervals.
    avoid : array-like, optional
        Rare raw values no edge or centre may equal.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> interval_edges([0.3, 2.2, 4.9, 9.6], 5)
    array([ 0.,  2.,  4.,  6.,  8., 10.])
    """
    xv = finite_array(x, what="x")
    if isinstance(n_intervals, bool) or not isinstance(n_intervals, (int, np.integer)):
        raise ValueError(f"n_intervals must be a positive integer, got {n_intervals!r}.")
    if n_intervals < 1:
        raise ValueError(f"n_intervals must be a positive integer, got {n_intervals!r}.")
    span = float(xv.max() - xv.min())
    if not span > 0:
        raise DisclosureError(
            "x is constant: its one value would be shown and there is nothing to cut into "
            "intervals. Choose another x variable."
        )
    return safe_edges(xv, binwidth=nice_step(span / int(n_intervals)), avoid=avoid)


def _neighbour(counts: list[int], g: int) -> int:
    """Return the adjacent group `g` merges with: the one with fewer records (left on a tie)."""
    if g == 0:
        return 1
    if g == len(counts) - 1:
        return g - 1
    return g - 1 if counts[g - 1] <= counts[g + 1] else g + 1


def _merge(groups: list[list[int]], counts: list[int], g: int, h: int) -> int:
    """Merge groups `g` and `h` (adjacent) in place; return the merged group's index."""
    lo, hi = min(g, h), max(g, h)
    groups[lo] = groups[lo] + groups[hi]
    counts[lo] += counts[hi]
    del groups[hi], counts[hi]
    return lo


def _flat_half(box: BoxSummary) -> bool:
    return bool(box.med == box.q1 or box.med == box.q3)


def parallel_boxes(
    x: ArrayLike,
    y: ArrayLike,
    *,
    n_intervals: int | None = None,
    edges: ArrayLike | None = None,
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
    avoid_x: ArrayLike | None = None,
    avoid_y: ArrayLike | None = None,
) -> ParallelBoxes:
    """O'Keefe's replacement for a scatter plot: box plots of y over intervals of x.

    The steps (O'Keefe 2013):

    1. winsorise x and y at their mean plus or minus ``winsor_sd`` SDs;
    2. cut the winsorised x into equal-width intervals on a rounded grid
       (:func:`interval_edges`: edges avoid the rare x values, the outer
       ones lie beyond the data); records beyond a winsorising bound count
       in the outer intervals;
    3. merge every interval holding fewer than ``threshold`` records with a
       neighbour, smallest first, until each group holds at least
       ``threshold`` (a merge goes to the neighbour with fewer records, the
       left one on a tie);
    4. summarise y in each group with
       :func:`~safeplot.anonymize.boxes.confidential_box` (winsorised,
       rounded to ``sig`` significant figures, moved off rare y values,
       whiskers at the winsorised range, no outliers);
    5. while a box has a zero-length half (its median equal to a quartile),
       merge the leftmost such group with a neighbour (as in step 3) and
       summarise it again;
    6. draw every box with the width of one interval, over the interval
       of its group that holds the most records (the leftmost on a tie), so
       the box stands where most of its data are; the other intervals of a
       merged group are left empty ("dropped") and recorded, so the figure
       can say so.

    Parameters
    ----------
    x, y : array-like, shape (n,)
        Finite raw values of one set of records.
    n_intervals : int, optional
        Target number of intervals (default :func:`default_intervals`:
        ``min(10, n // (2 * threshold))``).
    edges : array-like, optional
        Use these equally spaced edges instead (e.g. shared by several hue
        levels); they must cover the winsorised x values.
    threshold : int, optional
        Fewest records per box (default and floor: the policy's).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures of the summaries (default and ceiling: the policy's, 3).
    policy : Policy, optional
        The policy in force.
    avoid_x, avoid_y : array-like, optional
        Raw values no edge or statistic may equal (default: the values of
        `x` and `y` held by fewer than `threshold` records).

    Returns
    -------
    ParallelBoxes

    Raises
    ------
    DisclosureError
        Fewer than ``threshold`` records, constant x, or a floor of the
        policy not met.
    ValueError
        Arrays of different lengths, non-finite values, or `edges` that are
        not equally spaced or do not cover the data.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(50, 10, 300)
    >>> y = 0.5 * x + rng.normal(0, 5, 300)
    >>> pb = parallel_boxes(x, y)
    >>> len(pb.boxes) == len(pb.slots), pb.width
    (True, 10.0)
    >>> all(box.n >= 3 for box in pb.boxes)
    True
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    xv = finite_array(x, what="x")
    yv = finite_array(y, what="y")
    if xv.ndim != 1 or yv.ndim != 1 or xv.size != yv.size:
        raise ValueError(
            f"x and y must be 1-D arrays of the same length, got shapes {xv.shape} and {yv.shape}."
        )
    n = xv.size
    if n < max(threshold, 2):
        raise DisclosureError(
            f"Only {pol.describe_count(n)} records: a box needs at least threshold={threshold}. "
            "Use more data, or merge groups."
        )
    avoid_x = rare_values(xv, threshold) if avoid_x is None else np.asarray(avoid_x, float)
    avoid_y = rare_values(yv, threshold) if avoid_y is None else np.asarray(avoid_y, float)
    wx = winsorize(xv, winsor_sd, policy=pol)
    wy = winsorize(yv, winsor_sd, policy=pol)
    xs, ys = wx.values, wy.values
    if edges is None:
        if n_intervals is None:
            n_intervals = default_intervals(n, threshold)
        edges_arr = interval_edges(xs, n_intervals, avoid=avoid_x)
    else:
        edges_arr = np.asarray(edges, dtype=float).ravel()
        steps = np.diff(edges_arr)
        if (
            edges_arr.size < 2
            or not np.isfinite(edges_arr).all()
            or not (steps > 0).all()
            or not np.allclose(steps, steps[0], rtol=1e-9, atol=0)
        ):
            raise ValueError("edges must be at least two equally spaced, increasing numbers.")
        if xs.min() < edges_arr[0] or xs.max() > edges_arr[-1]:
            raise ValueError("edges must cover the winsorised x values.")
    m = edges_arr.size - 1
    cell = np.clip(np.searchsorted(edges_arr, xs, side="right") - 1, 0, m - 1)

    def what(group: list[int]) -> str:
        return f"The x interval [{edges_arr[group[0]]:g}, {edges_arr[group[-1] + 1]:g})"

    groups, boxes, warnings = _merged_boxes(
        cell, m, ys, max(threshold, 2), avoid_y, winsor_sd, sig, pol, what
    )
    return _assemble(edges_arr, cell, groups, boxes, warnings, wx.n_winsorized + wy.n_winsorized)


def _merged_boxes(
    cell: np.ndarray,
    m: int,
    ys: np.ndarray,
    min_box: int,
    avoid_y: np.ndarray,
    winsor_sd: float,
    sig: int,
    pol: Policy,
    what: Any,
) -> tuple[list[list[int]], list[BoxSummary], list[str]]:
    """Run steps 3 to 5 of O'Keefe's parallel boxes over `m` slots (records in slot `cell`).

    Merge slots holding fewer than `min_box` records with a neighbour
    (smallest first), summarise each group with :func:`confidential_box`,
    then merge while a box has a zero-length half. Returns the groups, their
    boxes and warnings.
    """
    groups = [[i] for i in range(m)]
    counts = np.bincount(cell, minlength=m).tolist()

    # 3. every group holds at least `threshold` records
    while len(groups) > 1:
        small = [g for g in range(len(groups)) if counts[g] < min_box]
        if not small:
            break
        g = min(small, key=lambda i: (counts[i], i))
        _merge(groups, counts, g, _neighbour(counts, g))

    def summarise(group: list[int]) -> BoxSummary:
        return confidential_box(
            ys[np.isin(cell, group)],
            avoid=avoid_y,
            winsor_sd=winsor_sd,
            sig=sig,
            policy=pol,
            what=what(group),
        )

    boxes = [summarise(g) for g in groups]
    # 5. no box with a zero-length half
    while len(groups) > 1:
        flat = [i for i, box in enumerate(boxes) if _flat_half(box)]
        if not flat:
            break
        g = flat[0]
        h = _neighbour(counts, g)
        merged = _merge(groups, counts, g, h)
        del boxes[max(g, h)]
        boxes[merged] = summarise(groups[merged])
    warnings = []
    if any(_flat_half(box) for box in boxes):
        warnings.append(
            "A box still has a zero-length half (its median equals a quartile) after merging "
            "every interval: many records share that value."
        )
    return groups, boxes, warnings


def _assemble(
    edges: np.ndarray,
    cell: np.ndarray,
    groups: list[list[int]],
    boxes: list[BoxSummary],
    warnings: list[str],
    n_winsorized: int,
) -> ParallelBoxes:
    """Step 6: each box over the slot of its group holding most records; the rest dropped."""
    per_slot = np.bincount(cell, minlength=edges.size - 1)
    slots = np.array([g[int(np.argmax(per_slot[g]))] for g in groups], dtype=int)
    dropped = tuple(i for g, slot in zip(groups, slots, strict=True) for i in g if i != slot)
    n_wins = n_winsorized + sum(b.n_winsorized for b in boxes)
    return ParallelBoxes(
        edges,
        tuple(boxes),
        tuple(tuple(g) for g in groups),
        slots,
        dropped,
        int(n_wins),
        tuple(warnings),
    )


def ordinal_boxes(
    levels: ArrayLike,
    y: ArrayLike,
    n_levels: int,
    *,
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
    avoid_y: ArrayLike | None = None,
) -> ParallelBoxes:
    """O'Keefe's parallel box plots of y over the levels of an ordinal variable (her Fig. 7b).

    Each level of the ordinal variable is one slot, in order. As for
    intervals (:func:`parallel_boxes`, steps 3 to 6): a level holding fewer
    than ``threshold`` records is merged with an adjacent one (the smaller
    neighbour), then, while a box has a zero-length half, its levels are
    merged with a neighbour and summarised again ("merge adjacent box plots
    until there is no remaining box plot with zero difference between the
    median and the lower or upper quartile"). A merged box is drawn over
    the level of its group holding the most records, with the width of one
    level; the other levels of the group are left empty, as in O'Keefe's
    Figure 7(b), where the box of one year of education is missing.

    Parameters
    ----------
    levels : array-like of int, shape (n,)
        The level of each record, ``0 <= level < n_levels``, in the
        variable's order.
    y : array-like, shape (n,)
        Finite raw values summarised by the boxes.
    n_levels : int
        Number of levels (levels without records are slots too, and are
        merged into a neighbour).
    threshold, winsor_sd, sig, policy, avoid_y
        As in :func:`parallel_boxes`.

    Returns
    -------
    ParallelBoxes
        Its edges are ``-0.5, 0.5, ..., n_levels - 0.5``: level ``i`` is
        drawn at position ``i``.

    Raises
    ------
    DisclosureError
        Fewer than ``threshold`` records, or a floor of the policy not met.
    ValueError
        Levels out of range or arrays of different lengths.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(2)
    >>> levels = np.r_[np.zeros(40, int), [1, 1], np.full(40, 2)]
    >>> y = rng.normal(size=levels.size)
    >>> pb = ordinal_boxes(levels, y, 3)
    >>> pb.groups, pb.dropped
    (((0, 1), (2,)), (1,))
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    if isinstance(n_levels, bool) or not isinstance(n_levels, (int, np.integer)) or n_levels < 1:
        raise ValueError(f"n_levels must be a positive integer, got {n_levels!r}.")
    codes = np.asarray(levels)
    yv = finite_array(y, what="y")
    if codes.ndim != 1 or yv.ndim != 1 or codes.size != yv.size:
        raise ValueError(
            "levels and y must be 1-D arrays of the same length, got shapes "
            f"{codes.shape} and {yv.shape}."
        )
    if codes.size and (
        not np.issubdtype(codes.dtype, np.integer) or codes.min() < 0 or codes.max() >= n_levels
    ):
        raise ValueError(f"levels must be integers from 0 to n_levels - 1 = {n_levels - 1}.")
    n = yv.size
    if n < max(threshold, 2):
        raise DisclosureError(
            f"Only {pol.describe_count(n)} records: a box needs at least threshold={threshold}. "
            "Use more data, or merge groups."
        )
    avoid = rare_values(yv, threshold) if avoid_y is None else np.asarray(avoid_y, float)
    wy = winsorize(yv, winsor_sd, policy=pol)
    edges = np.arange(n_levels + 1, dtype=float) - 0.5
    cell = codes.astype(int)

    def what(group: list[int]) -> str:
        return "A group of adjacent levels" if len(group) > 1 else "A level"

    groups, boxes, warnings = _merged_boxes(
        cell, int(n_levels), wy.values, max(threshold, 2), avoid, winsor_sd, sig, pol, what
    )
    return _assemble(edges, cell, groups, boxes, warnings, wy.n_winsorized)


@dataclass(frozen=True)
class Division:
    """The equal-width division of x chosen by :func:`search_division`.

    Attributes
    ----------
    n_intervals : int
        The target number of intervals to pass to :func:`interval_edges`.
    edges : ndarray
        The edges it gives.
    meets_rules : bool
        Whether every interval holds at least ``threshold`` records and no
        box has a zero-length half, so that no interval is merged. False
        when no division tried does: the finest is kept, and its intervals
        are merged.
    tried : tuple of int
        The numbers of intervals of the distinct divisions tried, finest first.
    """

    n_intervals: int
    edges: np.ndarray
    meets_rules: bool
    tried: tuple[int, ...]


def search_division(
    x: ArrayLike,
    y: ArrayLike,
    codes: ArrayLike | None = None,
    *,
    max_intervals: int | None = None,
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
    avoid_x: ArrayLike | None = None,
    avoid_y: ArrayLike | None = None,
) -> Division:
    """Try several equal-width divisions of x and keep the finest that needs no merging.

    O'Keefe (2013, section 2.2): "several different divisions into
    equal-width intervals could be tried until a division is found with
    each frequency at least at the minimum threshold value"; when none is
    found, adjacent boxes are combined. Here the targets ``max_intervals``,
    ``max_intervals - 1``, ... down to half of ``max_intervals`` (a coarser
    division no longer shows the relationship in detail) are cut with
    :func:`interval_edges` (nice widths, so several targets may give the
    same division; each distinct one is tried once, finest first). A
    division meets the rules when, for every group of records (hue level),
    every interval holds at least ``threshold`` records and no box has a
    zero-length half, i.e. :func:`parallel_boxes` merges nothing. The first
    (finest) such division is kept. If none meets them, the finest is kept
    and its intervals are merged by :func:`parallel_boxes`.

    Parameters
    ----------
    x, y : array-like, shape (n,)
        Finite raw values.
    codes : array-like of int, optional
        Group (hue level) of each record; -1 leaves a record out. The edges
        are common to every group, as in the plot.
    max_intervals : int, optional
        The finest division tried (default :func:`default_intervals` of the
        smallest group).
    threshold, winsor_sd, sig, policy, avoid_x, avoid_y
        As in :func:`parallel_boxes`.

    Returns
    -------
    Division

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.uniform(0, 100, 60)
    >>> d = search_division(x, x + rng.normal(0, 5, 60), max_intervals=10)
    >>> d.meets_rules, len(d.edges) - 1 <= 10
    (True, True)
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    xv = finite_array(x, what="x")
    yv = finite_array(y, what="y")
    if xv.ndim != 1 or yv.ndim != 1 or xv.size != yv.size:
        raise ValueError("x and y must be 1-D arrays of the same length.")
    cv = np.zeros(xv.size, dtype=int) if codes is None else np.asarray(codes, dtype=int)
    present = [int(c) for c in np.unique(cv) if c >= 0]
    if not present:
        raise ValueError("No records to divide (every code is -1).")
    sizes = [int((cv == c).sum()) for c in present]
    if max_intervals is None:
        max_intervals = default_intervals(min(sizes), threshold)
    if (
        isinstance(max_intervals, bool)
        or not isinstance(max_intervals, (int, np.integer))
        or max_intervals < 1
    ):
        raise ValueError(f"max_intervals must be a positive integer, got {max_intervals!r}.")
    ax = rare_values(xv, threshold) if avoid_x is None else np.asarray(avoid_x, float)
    ay = rare_values(yv, threshold) if avoid_y is None else np.asarray(avoid_y, float)
    wx = np.concatenate([winsorize(xv[cv == c], winsor_sd, policy=pol).values for c in present])
    stats = {"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig, "policy": pol}
    lowest = max(1, math.ceil(max_intervals / 2))
    tried: list[int] = []
    first: tuple[int, np.ndarray] | None = None
    seen: set[tuple[float, ...]] = set()
    for target in range(int(max_intervals), lowest - 1, -1):
        edges = interval_edges(wx, target, avoid=ax)
        key = tuple(np.round(edges, 12))
        if key in seen:
            continue
        seen.add(key)
        tried.append(edges.size - 1)
        if first is None:
            first = (target, edges)
        ok = True
        for c in present:
            sel = cv == c
            pb = parallel_boxes(xv[sel], yv[sel], edges=edges, avoid_x=ax, avoid_y=ay, **stats)
            if pb.merged or pb.warnings:
                ok = False
                break
        if ok:
            return Division(target, edges, True, tuple(tried))
    assert first is not None
    return Division(first[0], first[1], False, tuple(tried))


def _round_inward(lo: float, hi: float, sig: int) -> tuple[float, float]:
    """Round `lo` up and `hi` down to `sig` significant figures (a range strictly inside).

    Examples
    --------
    >>> _round_inward(0.28731, 9.8765, 3)
    (0.288, 9.87)
    """
    ulo, uhi = sig_unit(lo, sig), sig_unit(hi, sig)
    new_lo = float(round_sig(math.ceil(lo / ulo) * ulo, sig + 1))
    new_hi = float(round_sig(math.floor(hi / uhi) * uhi, sig + 1))
    return new_lo, new_hi


def _tricube(d: np.ndarray) -> np.ndarray:
    return np.where(d < 1, (1 - np.minimum(d, 1) ** 3) ** 3, 0.0)


def _binned_lowess(
    x: np.ndarray, y: np.ndarray, xvals: np.ndarray, frac: float, it: int, bins: int
) -> np.ndarray:
    """Lowess of `y` on `x` at `xvals` from x binned into `bins` equal-width bins.

    statsmodels' lowess (Cleveland 1979) with every record of a bin given
    the kernel weight of the bin's mean x: each fit is the local linear
    regression on the ``frac * n`` nearest records with tricube weights and
    bisquare robustness weights from ``it`` passes, as statsmodels computes
    it, but its sums are taken over the bins' weighted moments (count, sum
    of x, of x**2, of y, of x*y) instead of over the records. The records'
    residuals, for the robustness weights, come from the fit at the bin
    edges (every eighth), interpolated linearly (statsmodels' ``delta`` does
    the same between its fitted points). The neighbourhood radius is the distance
    within which ``frac * n`` records lie, with the records spread evenly
    inside each bin. Only the kernel weights are approximated, by less than
    their change over one bin (a ``1 / bins`` fraction of the range against
    a neighbourhood of about ``frac`` of it), so at the sizes where it is
    used the curve agrees with the exact fit far below the figures released.
    Cost: a few passes over the records (no sort) and ``bins**2 / 8`` per fit.
    `bins` must be a multiple of 8.
    """
    n = x.size
    k = min(max(int(frac * n + 1e-10), 2), n)
    lo, hi = float(x.min()), float(x.max())
    h = (hi - lo) / bins
    idx = np.minimum(((x - lo) / h).astype(np.intp), bins - 1)
    edges = lo + h * np.arange(bins + 1)
    u = x - lo  # moments about the low end: no cancellation at large offsets
    count = np.bincount(idx, minlength=bins).astype(float)
    cum = np.r_[0.0, np.cumsum(count)]
    mean_u = np.bincount(idx, u, minlength=bins) / np.maximum(count, 1)
    filled = count > 0
    centre = mean_u[filled]

    def radius(at: np.ndarray) -> np.ndarray:
        # the smallest r with k records within [at - r, at + r] (evenly spread in each bin)
        a = at - lo
        lo_r, hi_r = np.zeros(a.size), np.full(a.size, hi - lo + h)
        for _ in range(60):
            r = (lo_r + hi_r) / 2
            inside = np.interp(a + r, edges - lo, cum) - np.interp(a - r, edges - lo, cum)
            enough = inside >= k
            hi_r = np.where(enough, r, hi_r)
            lo_r = np.where(enough, lo_r, r)
        return hi_r

    def fit(at: np.ndarray, rob: np.ndarray) -> np.ndarray:
        a = at - lo
        kern = _tricube(np.abs(centre[None, :] - a[:, None]) / radius(at)[:, None])
        moments = [
            np.bincount(idx, weights, minlength=bins)[filled]
            for weights in (rob, rob * u, rob * u * u, rob * y, rob * u * y)
        ]
        s0, s1, s2, t0, t1 = (kern @ m for m in moments)
        xbar, ybar = s1 / s0, t0 / s0
        var = np.maximum(s2 / s0 - xbar**2, 1e-12)
        return ybar + (a - xbar) * (t1 / s0 - xbar * ybar) / var

    # the residuals interpolate the fit between every eighth edge (256 segments; statsmodels'
    # delta of 1 % of the range fits 100)
    step = 8
    knots = edges[::step]
    seg = idx // step
    rob = np.ones(n)
    for _ in range(it):
        at_knots = fit(knots, rob)
        slope = np.diff(at_knots) / (step * h)
        resid = np.abs(y - (at_knots[seg] + slope[seg] * (x - knots[seg])))
        median = float(np.median(resid))
        scaled = (resid > 0).astype(float) if median == 0 else np.minimum(resid / (6 * median), 1)
        rob = (1 - scaled**2) ** 2
    return fit(np.asarray(xvals, dtype=float), rob)


def lowess_trend(
    x: ArrayLike,
    y: ArrayLike,
    *,
    frac: float = 2 / 3,
    gridsize: int = 50,
    it: int = 3,
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
    avoid_x: ArrayLike | None = None,
    avoid_y: ArrayLike | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Fit a lowess trend of y on x whose points, ends included, reveal no data value (O'Keefe).

    x and y are winsorised; statsmodels' lowess is fitted to the winsorised
    data and evaluated on a rounded grid of x (the ticks of
    :func:`~safeplot.anonymize.grids.safe_ticks` with about `gridsize`
    points, evenly spaced inside the winsorised x range, none equal to a
    rare raw x). The fitted values are clipped to the winsorised range of y
    rounded inward to ``sig`` significant figures, the two end points are
    rounded to ``sig`` significant figures, and no point equals a rare raw y.

    Parameters
    ----------
    x, y : array-like, shape (n,)
        Finite raw values.
    frac : float, default 2/3
        Fraction of the data in each local fit (statsmodels' ``frac``).
    gridsize : int, default 50
        Rough number of points on the curve.
    it : int, default 3
        Robustifying iterations (statsmodels' ``it``).
    threshold : int, optional
        Defines the rare values to avoid (default and floor: the policy's).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's).
    sig : int, optional
        Significant figures of the end points (default and ceiling: the policy's).
    policy : Policy, optional
    avoid_x, avoid_y : array-like, optional
        Raw values no point may equal (default: the rare values of x and y).

    Returns
    -------
    xs, ys : ndarray
        The curve's points, xs increasing (points of the round grid); ys
        rounded to `sig` figures of the clipped y range
        (:func:`~safeplot.anonymize.statistics.round_to_span`), none on a
        rare raw value. Of a run of grid points with the same rounded value
        only the middle one is kept, so that the curve is drawn smooth
        rather than as a staircase.

    Notes
    -----
    Up to ``LOWESS_EXACT_MAX`` records the fit is evaluated exactly at the
    grid points (statsmodels' ``xvals``); above, it is computed with
    ``delta`` = 1 % of the x range and interpolated, as statsmodels
    recommends for large data. From ``LOWESS_BINNED_MIN`` records the same
    fit is computed from x binned into ``LOWESS_BINS`` bins (local
    regressions on the bins' weighted moments; see the source of
    ``_binned_lowess``): statsmodels' fit visits every record for each of
    its points, 10 of 12 seconds of a plot at three million records, while
    the binned fit costs a few passes over the records and agrees with the
    exact one to far below the figures a plot shows (every record still
    counts, unlike a subsample, whose curve would change with the sample
    drawn).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.uniform(0, 10, 200)
    >>> xs, ys = lowess_trend(x, 2 * x + rng.normal(size=200))
    >>> bool(xs[0] >= x.min() and xs[-1] <= x.max()), bool(ys[-1] > ys[0])
    (True, True)
    """
    from statsmodels.nonparametric.smoothers_lowess import lowess

    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    if not (isinstance(frac, (int, float)) and 0 < frac <= 1):
        raise ValueError(f"frac must be a number in (0, 1], got {frac!r}.")
    if isinstance(gridsize, bool) or not isinstance(gridsize, (int, np.integer)) or gridsize < 2:
        raise ValueError(f"gridsize must be an integer of at least 2, got {gridsize!r}.")
    xv = finite_array(x, what="x")
    yv = finite_array(y, what="y")
    if xv.ndim != 1 or yv.ndim != 1 or xv.size != yv.size:
        raise ValueError("x and y must be 1-D arrays of the same length.")
    if xv.size < max(threshold, 3):
        raise DisclosureError(
            f"Only {pol.describe_count(xv.size)} records: a trend line needs at least "
            f"threshold={threshold} (and 3)."
        )
    avoid_x = (
        rare_values(xv, threshold) if avoid_x is None else np.sort(np.asarray(avoid_x, float))
    )
    avoid_y = (
        rare_values(yv, threshold) if avoid_y is None else np.sort(np.asarray(avoid_y, float))
    )
    wx = winsorize(xv, winsor_sd, policy=pol).values
    wy = winsorize(yv, winsor_sd, policy=pol).values
    xlo, xhi = float(wx.min()), float(wx.max())
    if not xhi > xlo:
        raise DisclosureError("x is constant: a trend line over it would show its value.")
    # the curve's x grid: round numbers over the winsorised range, any equal to a rare raw x
    # moved by 1e-6 of its step (a curve vertex is a number computed from records)
    xs = safe_ticks(xlo, xhi, n_target=int(gridsize))
    xs = off_rare(xs, avoid_x, float(xs[1] - xs[0]))
    if xv.size <= LOWESS_EXACT_MAX:
        fit = lowess(wy, wx, frac=frac, it=it, delta=0.0, xvals=xs)
    elif xv.size >= LOWESS_BINNED_MIN:
        fit = _binned_lowess(wx, wy, xs, frac, it, LOWESS_BINS)
    else:
        curve = lowess(wy, wx, frac=frac, it=it, delta=0.01 * (xhi - xlo), return_sorted=True)
        fit = np.interp(xs, curve[:, 0], curve[:, 1])
    # the clip range: the winsorised y range rounded inward, off rare values
    ylo, yhi = float(wy.min()), float(wy.max())
    clo, chi = _round_inward(ylo, yhi, sig)
    if clo > chi:  # a range narrower than one unit of the last figure
        clo = chi = float(round_sig((ylo + yhi) / 2, sig))
    clo, chi = nudge_off([clo, chi], avoid_y, [1.0, -1.0], sig)
    if clo > chi:
        clo, chi = chi, clo
    ys = np.clip(np.asarray(fit, dtype=float), clo, chi)
    mid = (clo + chi) / 2
    ends = np.clip(np.asarray(round_sig(ys[[0, -1]], sig), dtype=float), clo, chi)
    ends = nudge_off(ends, avoid_y, np.where(ends < mid, 1.0, -1.0), sig)
    ys[[0, -1]] = ends
    # the inner vertices are statistics too: rounded to figures of the y range (a curve's
    # resolution, not each value's own), kept inside the clip range, off rare values
    inner, step, settle = round_to_span(ys[1:-1], chi - clo, sig)
    inner = np.clip(inner, clo, chi)
    ys[1:-1] = move_off(
        inner, avoid_y, step, directions=np.where(inner < mid, 1.0, -1.0), settle=settle
    )
    return _through_runs(xs, ys)


def _through_runs(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep the ends and the middle vertex of each run of equal rounded inner values.

    A smooth curve sampled finely and rounded to a step repeats each value
    over several grid points; drawn as it is, it is a staircase. Drawn
    through one vertex per run (each still a grid point and a rounded value),
    it is the smooth curve the rounding allows.
    """
    if ys.size <= 3:
        return xs, ys
    inner = ys[1:-1]
    starts = np.flatnonzero(np.r_[True, inner[1:] != inner[:-1]])
    ends = np.r_[starts[1:], inner.size]
    keep = np.r_[0, 1 + (starts + ends - 1) // 2, ys.size - 1]
    return xs[keep], ys[keep]
