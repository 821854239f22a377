"""Parallel box plots of y over intervals of x: the release shared by the plots that draw them.

O'Keefe's confidential scatter (``scatterplot``, ``regplot``, ``residplot``,
``pairplot``, ``jointplot`` under ``"confidential"``) and the parallel box
plot (``parallelboxplot``) replace points by box plots of y over intervals
of x. The boxes, trend lines, interval edges, box positions and axes are
computed here, from the records, and released; :mod:`safeplot.marks.boxes`
draws them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import matplotlib as mpl
import numpy as np

from ..anonymize.confidential import (
    ParallelBoxes,
    default_intervals,
    interval_edges,
    lowess_trend,
    parallel_boxes,
)
from ..anonymize.grids import MATCH_RTOL, hit_mask, rare_values, safe_ticks
from ..anonymize.statistics import winsorize
from ..errors import DisclosureError
from ..policy import Policy
from ..release import DisclosureReport, release_kind
from ..release.guard import ShownGroups, shown_groups
from ._categories import released_parallel
from ._common import axis_from_range, make_report

__all__ = [
    "BoxScatterRelease",
    "ParallelCore",
    "box_positions",
    "level_sizes",
    "parallel_core",
    "refuse_per_point",
    "release_boxes",
]


@release_kind("box_scatter")
@dataclass
class BoxScatterRelease:
    """A confidential scatter (O'Keefe): parallel box plots of y over intervals of x, and trends.

    Attributes
    ----------
    levels : list
        Hue levels with boxes (``[None]`` without hue).
    boxes : list of ParallelBoxes
        The boxes of each level, on common interval edges.
    positions : list of ndarray
        x position of every box of each level (dodged when there are levels).
    width : float
        Width of every box.
    trends : list of (ndarray, ndarray)
        The lowess trend line of each level.
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    report : DisclosureReport
    notes : list of str
        Which intervals were merged into one box (the figure shows them).
    """

    levels: list
    boxes: list[ParallelBoxes]
    positions: list[np.ndarray]
    width: float
    trends: list[tuple[np.ndarray, np.ndarray]]
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)


def box_positions(
    centres: list[np.ndarray], step: float, avoid: np.ndarray, share: float = 0.8
) -> tuple[list[np.ndarray], float]:
    """Positions (dodged by level) and one width for parallel boxes.

    matplotlib draws a box at ``pos -/+ w/2``, its caps at ``pos -/+ w/4`` and
    its whiskers and median through ``pos``. The boxes of one interval take
    `share` of its width `step` together. On data recorded to a few decimals
    these round positions can meet a rare raw value, so the share is lowered
    by irrational steps of about 1.4 % (box edges then almost never land on
    the round numbers where such values cluster) until none lies within ten
    times the matching tolerance of a value in `avoid`.

    The geometry depends only on the interval grid, a regular grid on safe
    limits, so it is not data (DESIGN invariant 2): where every one of the
    forty shares meets a rare value -- continuous data of millions of
    records, whose distinct values are dense on the scale of the tolerance --
    the nominal geometry is drawn as it is rather than the plot refused.

    Parameters
    ----------
    centres : list of ndarray
        Centre of the interval each box is drawn over, per level.
    step : float
        Width of one interval.
    avoid : ndarray
        Rare raw values the drawn x should not equal.
    share : float, default 0.8
        Nominal share of an interval the boxes take.

    Returns
    -------
    positions : list of ndarray
        Box positions per level.
    width : float
        Width of every box.

    Examples
    --------
    >>> import numpy as np
    >>> pos, w = box_positions([np.array([1.0, 3.0]), np.array([1.0, 3.0])], 2.0, np.array([]))
    >>> [p.tolist() for p in pos], float(w)
    ([[0.6, 2.6], [1.4, 3.4]], 0.8)
    """
    n_levels = len(centres)

    def geometry(i: int) -> tuple[list[np.ndarray], float]:
        w = share * (1 - 0.01 * np.sqrt(2) * i) * step / n_levels
        return [c + (j - (n_levels - 1) / 2) * w for j, c in enumerate(centres)], w

    avoid = np.asarray(avoid, dtype=float)
    for i in range(40 if avoid.size else 1):
        positions, w = geometry(i)
        if not avoid.size:
            return positions, w
        drawn = np.concatenate([p + d * w for p in positions for d in (-0.5, -0.25, 0, 0.25, 0.5)])
        if not hit_mask(drawn, avoid, rtol=10 * MATCH_RTOL).any():
            return positions, w
    return geometry(0)


@dataclass
class ParallelCore:
    """Parallel boxes of y over common intervals of x, per level, and their drawing geometry.

    Attributes
    ----------
    levels : list
        The levels with records, in order.
    boxes : list of ParallelBoxes
        The boxes of each level.
    trends : list of (ndarray, ndarray)
        The lowess trend of each level (empty without trends).
    edges : ndarray
        The common interval edges.
    positions : list of ndarray
        Box positions of each level; `width` the width of every box.
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    notes : list of str
        Which intervals were merged, per level.
    warnings : list of str
        For the report.
    n_winsorized : int
        Values winsorised over all levels (exact: round it before it is shown).
    """

    levels: list
    boxes: list[ParallelBoxes]
    trends: list[tuple[np.ndarray, np.ndarray]]
    edges: np.ndarray
    positions: list[np.ndarray]
    width: float
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    notes: list[str]
    warnings: list[str]
    n_winsorized: int


def leave_out_small_levels(
    codes: np.ndarray, levels: list, threshold: int, *, function: str, role: str = "hue"
) -> tuple[np.ndarray, ShownGroups | None, int]:
    """Leave out the levels too small for box plots of their own (DESIGN invariant 10).

    A box summarises its own level's records only, so the boxes of the other
    levels are those of the data without the small one
    (:func:`~safeplot.release.guard.small_group_rule`, ``"summaries"``): a
    level of fewer than ``max(threshold, 3)`` records is left out, not drawn
    and not named, and the report says that levels were left out. Without
    levels (``[None]``) nothing is left out; :func:`level_sizes` refuses a
    data set too small for one box.

    Parameters
    ----------
    codes : ndarray of int
        Level of each record (-1: in no level).
    levels : list
        The levels `codes` index.
    threshold : int
        Fewest records in a box.
    function : str
        The plot function, for the refusal when every level is too small.
    role : str, default "hue"
        What the levels are.

    Returns
    -------
    codes, groups, n_left_out
        The codes with the records of levels left out set to -1, the
        decision (None without levels), and how many records were left out.

    Examples
    --------
    >>> codes, groups, n = leave_out_small_levels(
    ...     np.r_[np.zeros(20, int), 1, 1], ["a", "b"], 3, function="parallelboxplot")
    >>> int((codes == -1).sum()), groups.left_out, n
    (2, 1, 2)
    """
    if list(levels) == [None]:
        return codes, None, 0
    need = max(threshold, 3)
    groups = shown_groups(
        np.bincount(codes[codes >= 0], minlength=len(levels)),
        need,
        f"threshold={threshold}" if threshold >= 3 else "a box needs 3",
        function=function,
        what=f"{role} level",
        fix=f"Merge small levels or drop {role}=.",
    )
    drop = (codes >= 0) & ~groups.keep(codes)
    return np.where(drop, -1, codes), groups, int(drop.sum())


def level_sizes(
    codes: np.ndarray, levels: list, threshold: int, *, role: str = "hue", error_prefix: str = ""
) -> np.ndarray:
    """Count the records per level; refuse a level too small for box plots of its own.

    Parameters
    ----------
    codes : ndarray of int
        Level of each record (-1: in no level).
    levels : list
        The levels `codes` index.
    threshold : int
        Fewest records in a box.
    role, error_prefix : str
        Words of the refusal of a small level.

    Returns
    -------
    ndarray of int
        Records per level (0 for a level with none).

    Raises
    ------
    DisclosureError
        A level with fewer than ``max(threshold, 3)`` records, but some.
    """
    sizes = np.bincount(codes[codes >= 0], minlength=len(levels))
    need = max(threshold, 3)
    small = [lev for lev, n in zip(levels, sizes, strict=True) if 0 < n < need]
    if small:
        raise DisclosureError(
            f"{error_prefix}{role} level(s) {small} have fewer than {need} records: a box plot of "
            f"a level needs at least threshold={threshold} (and 3). Merge small levels or drop "
            f"{role}."
        )
    return sizes


def parallel_core(
    x: np.ndarray,
    y: np.ndarray,
    codes: np.ndarray,
    levels: list,
    threshold: int,
    pol: Policy,
    *,
    n_intervals: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    share: float = 0.8,
    trend: bool = True,
    frac: float = 2 / 3,
    role: str = "hue",
    error_prefix: str = "",
    describe: Callable[[ParallelBoxes], list[str]] = ParallelBoxes.describe_merges,
    merge_warning: str = "",
    rare: tuple[np.ndarray, np.ndarray] | None = None,
) -> ParallelCore:
    """O'Keefe's parallel boxes (and lowess trends) per level on common interval edges.

    Parameters
    ----------
    x, y : ndarray
        Raw values.
    codes : ndarray of int
        Level of each record (-1: in no level).
    levels : list
        The levels `codes` index.
    threshold : int
        Fewest records in a box.
    pol : Policy
    n_intervals : int, optional
        Number of x intervals (default: from the smallest level's size).
    winsor_sd, sig : optional
        Winsorising bound and significant figures (default: the policy's).
    share : float, default 0.8
        Share of an interval the boxes of all levels take.
    trend : bool, default True
        Compute a lowess trend per level; `frac` its smoothing span.
    frac : float, default 2/3
    role, error_prefix : str
        Words of the refusal of a small level.
    describe : callable
        Words the merges of one level's boxes (prefixed by the level).
    merge_warning : str
        Heads the warning listing all merges.
    rare : (ndarray, ndarray), optional
        The rare values of x and y at `threshold`, when the caller has them.

    Returns
    -------
    ParallelCore

    Raises
    ------
    DisclosureError
        A level with fewer than ``max(threshold, 3)`` records.
    """
    rare_x, rare_y = (
        (rare_values(x, threshold), rare_values(y, threshold)) if rare is None else rare
    )
    sizes = level_sizes(codes, levels, threshold, role=role, error_prefix=error_prefix)
    present = [i for i, s in enumerate(sizes) if s > 0]
    # common interval edges, over each level's winsorised x
    wx = np.concatenate([winsorize(x[codes == i], winsor_sd, policy=pol).values for i in present])
    if n_intervals is None:
        n_intervals = default_intervals(int(sizes[present].min()), threshold)
    edges = interval_edges(wx, n_intervals, avoid=rare_x)
    stats = {"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig, "policy": pol}
    avoid = {"avoid_x": rare_x, "avoid_y": rare_y}
    boxes, trends = [], []
    for i in present:
        sel = codes == i
        boxes.append(parallel_boxes(x[sel], y[sel], edges=edges, **stats, **avoid))
        if trend:
            trends.append(lowess_trend(x[sel], y[sel], frac=frac, **stats, **avoid))
    n_winsorized = sum(pb.n_winsorized for pb in boxes)  # exact: for the report only
    boxes = released_parallel(boxes, rare_y, pol, sig)
    positions, width = box_positions(
        [pb.centres for pb in boxes], float(edges[1] - edges[0]), rare_x, share
    )
    lows = [b.whislo for pb in boxes for b in pb.boxes] + [float(t[1].min()) for t in trends]
    highs = [b.whishi for pb in boxes for b in pb.boxes] + [float(t[1].max()) for t in trends]
    ylim, yticks = axis_from_range(min(lows), max(highs), rare_y)
    xlim = (float(edges[0]), float(edges[-1]))
    notes, warnings = [], []
    drawn_levels = [levels[i] for i in present]
    for level, pb in zip(drawn_levels, boxes, strict=True):
        prefix = "" if level is None else f"{level}: "
        notes += [prefix + text for text in describe(pb)]
        warnings += [prefix + text for text in pb.warnings]
    if notes:
        warnings.append(merge_warning + "; ".join(notes))
    return ParallelCore(
        drawn_levels,
        boxes,
        trends,
        edges,
        positions,
        width,
        xlim,
        ylim,
        safe_ticks(*xlim),
        yticks,
        notes,
        warnings,
        n_winsorized,
    )


def release_boxes(
    x: np.ndarray,
    y: np.ndarray,
    codes: np.ndarray,
    levels: list,
    names: tuple[str, str],
    threshold: int,
    n_dropped: int,
    function: str,
    pol: Policy,
    *,
    role: str = "hue",
    rare: tuple[np.ndarray, np.ndarray] | None = None,
    groups: ShownGroups | None = None,
    n_left_out: int = 0,
) -> BoxScatterRelease:
    """O'Keefe's confidential scatter: parallel boxes and a lowess trend per level.

    Parameters
    ----------
    x, y : ndarray
        Raw values (complete rows).
    codes : ndarray of int
        Level of each record (-1: in no level, not counted).
    levels : list
        The levels `codes` index (``[None]`` without hue).
    names : tuple of str
        Names of x and y, for the report.
    threshold : int
        Fewest records in a box.
    n_dropped : int
        Rows dropped for missing values.
    function : str
        The calling plot function, for the report.
    pol : Policy
    role : str, default "hue"
        What the levels are, for the refusal of a small one.
    rare : (ndarray, ndarray), optional
        The rare values of x and y at `threshold`, when the caller has them.
    groups : ShownGroups, optional
        The caller's decision on which levels are drawn
        (:func:`safeplot.release.guard.shown_groups`); the records of the
        levels it left out have code -1 here, and there are `n_left_out` of
        them. The report counts them (the records drawn, subtracted from its
        count, would otherwise count those left out) and warns that levels
        were left out.
    n_left_out : int, default 0
        Records of the levels `groups` left out.

    Returns
    -------
    BoxScatterRelease
    """
    core = parallel_core(
        x,
        y,
        codes,
        levels,
        threshold,
        pol,
        role=role,
        rare=rare,
        merge_warning="Adjacent x intervals were merged (each merged box is drawn over the "
        "interval holding most of its records; the others are left empty): ",
    )
    details: dict[str, Any] = {
        "values_winsorised": pol.round_count(core.n_winsorized),
        "sig_figs": pol.sig_figs,
        "intervals": len(core.edges) - 1,
        "intervals_merged": core.notes,
    }
    warnings = list(core.warnings)
    n = int((codes >= 0).sum())
    if groups is not None and groups.left_out:
        details["groups_left_out"] = groups.left_out
        warnings.append(groups.warning)
        n += int(n_left_out)
    report = make_report(
        function,
        "confidential",
        {"threshold": threshold, "winsor_sd": pol.winsor_sd},
        names,
        n,
        n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return BoxScatterRelease(
        core.levels,
        core.boxes,
        core.positions,
        core.width,
        core.trends,
        core.xlim,
        core.ylim,
        xticks=core.xticks,
        yticks=core.yticks,
        report=report,
        notes=core.notes,
    )


def refuse_per_point(kwargs: dict[str, Any], what: str) -> None:
    """Refuse matplotlib keyword arguments that would give every record its own look.

    Parameters
    ----------
    kwargs : dict
        Keyword arguments meant for :meth:`~matplotlib.axes.Axes.scatter`.
    what : str
        The call, for the message.

    Raises
    ------
    ValueError
        A per-point colour or size (one colour or one number is fine).
    """
    for key in ("c", "s", "color", "facecolor", "facecolors", "edgecolor", "edgecolors"):
        if key not in kwargs or kwargs[key] is None or isinstance(kwargs[key], str):
            continue
        value = kwargs[key]
        if key != "s" and mpl.colors.is_color_like(value):
            continue
        if np.ndim(value) == 0:
            continue
        raise ValueError(
            f"{what}: a per-point `{key}=` would encode raw values of each record and cannot "
            "be released. Use hue= (colour) or size= (marker size) with a variable instead; "
            "those are released with the points."
        )
