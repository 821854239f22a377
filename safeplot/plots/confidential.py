"""O'Keefe's confidentialised plots: parallel box plots and the correspondence-analysis plot.

O'Keefe (2013) replaces the two most disclosive exploratory outputs of a
remote analysis system by plots that show the relationship and no record:

- :func:`parallelboxplot` replaces a scatter plot of two continuous
  variables by box plots of one over intervals of the other (each interval
  holding at least ``threshold`` records, adjacent intervals merged while a
  box has a zero-length half, every box winsorised and rounded, no outliers),
  optionally with a lowess trend line whose ends reveal no data value;
- :func:`correspondenceplot` replaces a contingency table of two or more
  categorical variables by a correspondence-analysis plot: the categories as
  points in the plane of the first two dimensions, no count shown, rare
  levels merged into ``"Other"`` first.

The numbers come from :mod:`safeplot.anonymize.confidential` and
:mod:`safeplot.anonymize.correspondence`; only they are drawn.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FixedFormatter, FixedLocator

from .._validate import clean_numeric
from ..anonymize.confidential import (
    ParallelBoxes,
    default_intervals,
    interval_edges,
    ordinal_boxes,
    search_division,
)
from ..anonymize.correspondence import (
    CAResult,
    merge_rare_levels,
    multiple_ca,
    simple_ca,
)
from ..anonymize.grids import hits_any, rare_values
from ..errors import DisclosureError
from ..marks._axes import LEFT_OUT_GID, note_below
from ..marks._style import level_colors as _level_colors
from ..marks.boxes import MERGE_NOTE_GID
from ..marks.boxes import draw_parallel_boxes as _draw_parallel_boxes
from ..methods import Method, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._boxes import box_positions, leave_out_small_levels, level_sizes
from ._boxes import parallel_core as _parallel_core
from ._categories import released_parallel
from ._common import (
    LEFT_OUT_NOTE,
    axes_for,
    axis_from_range,
    finish,
    make_report,
    set_safe_axis,
)
from ._data import categorical_order, plot_data

__all__ = [
    "CORRESPONDENCE_METHODS",
    "PARALLEL_METHODS",
    "CorrespondenceRelease",
    "ParallelBoxRelease",
    "correspondenceplot",
    "parallelboxplot",
    "release_correspondence",
    "release_ordinal_boxes",
    "release_parallelboxes",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) of these plots: O'Keefe's
#: rules, or the raw figure.
_OKEEFE_FAMILIES = ("rules", "raw")
#: Methods of :func:`parallelboxplot`: it is confidential by nature.
PARALLEL_METHODS = tuple(m.name for m in available_methods() if m.family in _OKEEFE_FAMILIES)
#: Methods of :func:`correspondenceplot`.
CORRESPONDENCE_METHODS = PARALLEL_METHODS
#: gid of the note naming the intervals a merged box left empty.
DROPPED_NOTE_GID = MERGE_NOTE_GID
#: gid of the category labels of a correspondence plot.
CA_LABEL_GID = "safeplot-ca-label"


#: Axes.bxp options that would move the released boxes or draw statistics they do not hold.
_BXP_REFUSED = (
    "positions",
    "widths",
    "orientation",
    "vert",
    "manage_ticks",
    "showmeans",
    "meanline",
    "shownotches",
    "notch",
    "bootstrap",
    "usermedians",
    "conf_intervals",
)


def _refuse_other_methods(method: str, function: str, policy: Policy | None = None) -> Method:
    """Return the method of a parallel box plot: allowed by the policy, O'Keefe's or raw."""
    m = get_method(get_policy(policy).check_method(method))
    if m.family not in _OKEEFE_FAMILIES:
        raise ValueError(
            f"{function}: method={method!r} is not available. A parallel box plot is O'Keefe's "
            "confidential output and takes method='confidential' (default) or 'none' (raw, if "
            "the policy allows it). For other methods draw the variables with "
            "safeplot.scatterplot(..., method=...) or safeplot.boxplot(..., method=...)."
        )
    return m


# -- parallel box plots -------------------------------------------------------------------


@release_kind("parallel_boxes")
@dataclass
class ParallelBoxRelease:
    """Released parallel box plots: boxes per interval (and hue level), optional trend lines.

    The interval variable is called ``x`` and the summarised one ``y``
    whatever the orientation they are drawn in.

    Attributes
    ----------
    levels : list
        Hue levels with boxes (``[None]`` without hue).
    boxes : list of ParallelBoxes
        Each level's boxes on the common interval edges (confidential).
    raw_stats : list of list of dict
        matplotlib ``bxp`` statistics of the raw boxes (``method="none"``).
    positions : list of ndarray
        Position of every box of each level along the interval axis.
    width : float
        Width of every box.
    trends : list of (ndarray, ndarray)
        The lowess trend line of each level (empty without ``trend=True``).
    edges : ndarray
        Interval edges.
    xlim, ylim : tuple of float
        Limits of the interval axis and of the value axis.
    xticks, yticks : ndarray
    report : DisclosureReport
    notes : list of str
        For each merged group: the range its one box summarises, where it is
        drawn, and which intervals are left empty.
    raw_stats : list of list of dict
        matplotlib ``bxp`` statistics of the raw boxes (``method="none"``).
    ticklabels : list of str, optional
        Labels of the interval axis' ticks for an ordinal variable (one per
        level, empty for a level held by fewer than ``threshold`` records);
        None for a continuous one.
    """

    method: str
    levels: list
    boxes: list[ParallelBoxes]
    positions: list[np.ndarray]
    width: float
    trends: list[tuple[np.ndarray, np.ndarray]]
    edges: np.ndarray
    xlim: tuple[float, float]
    ylim: tuple[float, float] | None
    xticks: np.ndarray
    yticks: np.ndarray | None
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)
    raw_stats: list[list[dict]] = field(default_factory=list)
    ticklabels: list[str] | None = None


def release_parallelboxes(
    x: np.ndarray,
    y: np.ndarray,
    codes: np.ndarray | None = None,
    levels: list | None = None,
    *,
    names: tuple[str, str] = ("x", "y"),
    method: str = "confidential",
    threshold: int | None = None,
    n_intervals: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    width: float = 0.8,
    trend: bool = False,
    frac: float = 2 / 3,
    n_dropped: int = 0,
    function: str = "parallelboxplot",
    role: str = "hue",
    policy: Policy | None = None,
) -> ParallelBoxRelease:
    """Release O'Keefe's parallel box plots of `y` over intervals of `x` (numbers only).

    Parameters
    ----------
    x, y : ndarray, shape (n,)
        Finite raw values (the interval variable and the summarised one).
    codes : ndarray of int, optional
        Hue level index of each record (-1: left out); default one level.
    levels : list, optional
        The hue levels (default ``[None]``).
    names : tuple of str
        Names of x and y, for the report and the notes.
    method : {"confidential", "none"}
    threshold, n_intervals, winsor_sd, sig, width, trend, frac
        As in :func:`parallelboxplot`.
    n_dropped : int
        Rows left out for missing values.
    function : str
        Calling function, for the report.
    role : str
        How the grouping variable is named in errors.
    policy : Policy, optional

    Returns
    -------
    ParallelBoxRelease

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(50, 10, 300)
    >>> rel = release_parallelboxes(x, x + rng.normal(0, 5, 300))
    >>> all(b.n >= 3 for b in rel.boxes[0].boxes), rel.report.method
    (True, 'confidential')
    """
    pol = get_policy(policy)
    m = _refuse_other_methods(method, function, pol)
    codes = np.zeros(x.size, dtype=int) if codes is None else np.asarray(codes, dtype=int)
    levels = [None] if levels is None else list(levels)
    if not 0 < float(width) <= 1:
        raise ValueError(f"width must be a number in (0, 1], got {width!r}.")
    if n_intervals is not None and (
        isinstance(n_intervals, bool)
        or not isinstance(n_intervals, (int, np.integer))
        or n_intervals < 1
    ):
        raise ValueError(f"n_intervals must be a positive integer, got {n_intervals!r}.")
    if m.raw:
        return _raw_release(
            x, y, codes, levels, names, n_intervals, width, n_dropped, function, pol
        )
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    codes, groups, n_left_out = leave_out_small_levels(
        codes, levels, threshold, function=function, role=role
    )
    division = None
    if n_intervals is None and _levels_big_enough(codes, levels, threshold):
        division = search_division(
            x, y, codes, threshold=threshold, winsor_sd=winsor_sd, sig=sig, policy=pol
        )
        n_intervals = division.n_intervals
    rare = (rare_values(x, threshold), rare_values(y, threshold))
    core = _parallel_core(
        x,
        y,
        codes,
        levels,
        threshold,
        pol,
        rare=rare,
        n_intervals=n_intervals,
        winsor_sd=winsor_sd,
        sig=sig,
        share=float(width),
        trend=trend,
        frac=frac,
        role=role,
        error_prefix=f"{function}: ",
        describe=lambda pb: pb.describe_merges(names[0], empty=True),
        merge_warning="Adjacent intervals were merged; a merged box is drawn with the width of "
        "one interval, over the one holding most of its records, and the other intervals are "
        "left empty (O'Keefe): ",
    )
    edges = core.edges
    boxes = core.boxes  # released by the core
    params = {"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig}
    details = {
        "values_winsorised": pol.round_count(core.n_winsorized),
        "intervals": len(edges) - 1,
        "interval_width": float(edges[1] - edges[0]),
        "intervals_merged": core.notes,
        "intervals_left_empty": sum(len(pb.dropped) for pb in core.boxes),
        "division": _division_text(division),
        "trend": "lowess" if trend else None,
    }
    warnings = list(core.warnings)
    if groups is not None and groups.left_out:
        details["groups_left_out"] = groups.left_out
        warnings.append(groups.warning)
    report = make_report(
        function,
        "confidential",
        params,
        names,
        int((codes >= 0).sum()) + n_left_out,
        n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return ParallelBoxRelease(
        "confidential",
        core.levels,
        boxes,
        core.positions,
        core.width,
        core.trends,
        edges,
        core.xlim,
        core.ylim,
        core.xticks,
        core.yticks,
        report,
        core.notes,
    )


def _levels_big_enough(codes: np.ndarray, levels: list, threshold: int) -> bool:
    """Whether every hue level with records has enough for boxes (else the core refuses)."""
    sizes = np.bincount(codes[codes >= 0], minlength=len(levels))
    return bool(((sizes == 0) | (sizes >= max(threshold, 3))).all() and (sizes > 0).any())


def _division_text(division: Any) -> str:
    if division is None:
        return "n_intervals given: no search"
    if division.meets_rules:
        return (
            "the finest equal-width division tried in which every interval holds at least "
            "threshold records and every box has distinct quartiles (no merging)"
        )
    return (
        "no equal-width division tried met the rules: the finest was kept and adjacent "
        "intervals were merged"
    )


def _level_label(level: Any) -> str:
    """Write a level as its tick label ("3" for the float 3.0)."""
    if isinstance(level, (float, np.floating)) and float(level).is_integer():
        return str(int(level))
    return str(level)


def release_ordinal_boxes(
    level_codes: np.ndarray,
    y: np.ndarray,
    level_names: Sequence[Any],
    codes: np.ndarray | None = None,
    levels: list | None = None,
    *,
    names: tuple[str, str] = ("x", "y"),
    method: str = "confidential",
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    width: float = 0.8,
    n_dropped: int = 0,
    function: str = "parallelboxplot",
    policy: Policy | None = None,
) -> ParallelBoxRelease:
    """Release parallel box plots of `y` over the levels of an ordinal variable (numbers only).

    O'Keefe's Figure 7(b): one box per level of the ordinal variable, in its
    order; a level with fewer than ``threshold`` records, or whose box has a
    zero-length half, is merged with an adjacent level
    (:func:`~safeplot.anonymize.confidential.ordinal_boxes`). A merged box
    is drawn over one of its levels and the others are left empty. A level
    held by fewer than ``threshold`` records (in all hue levels together) is
    not named on the axis: its name could be a rare value.

    Parameters
    ----------
    level_codes : ndarray of int, shape (n,)
        The ordinal level of each record (index into `level_names`).
    y : ndarray, shape (n,)
        Finite raw values summarised by the boxes.
    level_names : sequence
        The ordinal levels, in order.
    codes : ndarray of int, optional
        Hue level of each record (-1: left out); default one level.
    levels : list, optional
        The hue levels (default ``[None]``).
    names : tuple of str
        Names of the ordinal variable and of y.
    method : {"confidential", "none"}
    threshold, winsor_sd, sig, width
        As in :func:`parallelboxplot`.
    n_dropped : int
        Rows left out (missing values, levels outside `order`).
    function : str
        Calling function, for the report.
    policy : Policy, optional

    Returns
    -------
    ParallelBoxRelease
        Positions are level indices; `ticklabels` names the levels.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> codes = np.r_[np.zeros(30, int), [1, 1], np.full(30, 2)]
    >>> rel = release_ordinal_boxes(codes, rng.normal(size=62), ["low", "mid", "high"])
    >>> rel.ticklabels, rel.positions[0].tolist()
    (['low', '', 'high'], [0.0, 2.0])
    """
    pol = get_policy(policy)
    m = _refuse_other_methods(method, function, pol)
    level_codes = np.asarray(level_codes, dtype=int)
    codes = np.zeros(y.size, dtype=int) if codes is None else np.asarray(codes, dtype=int)
    levels = [None] if levels is None else list(levels)
    n_levels = len(level_names)
    if not 0 < float(width) <= 1:
        raise ValueError(f"width must be a number in (0, 1], got {width!r}.")
    if n_levels < 1:
        raise ValueError(f"{function}: the ordinal variable {names[0]!r} has no levels.")
    present = [i for i in range(len(levels)) if (codes == i).any()]
    ticks = np.arange(n_levels, dtype=float)
    xlim = (-0.5, n_levels - 0.5)
    if m.raw:
        from matplotlib.cbook import boxplot_stats

        stats, centres = [], []
        for i in present:
            sel = codes == i
            used = [c for c in range(n_levels) if (sel & (level_codes == c)).any()]
            stats.append([boxplot_stats(y[sel & (level_codes == c)])[0] for c in used])
            centres.append(np.array(used, dtype=float))
        positions, box_width = box_positions(centres, 1.0, np.array([]), width)
        report = make_report(function, "none", {}, names, int((codes >= 0).sum()), n_dropped, pol)
        return ParallelBoxRelease(
            "none",
            [levels[i] for i in present],
            [],
            positions,
            box_width,
            [],
            np.arange(n_levels + 1, dtype=float) - 0.5,
            xlim,
            None,
            ticks,
            None,
            report,
            raw_stats=stats,
            ticklabels=[_level_label(v) for v in level_names],
        )
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    rare_y = rare_values(y, threshold)  # of every record, those of levels left out included
    codes, groups, n_left_out = leave_out_small_levels(codes, levels, threshold, function=function)
    level_sizes(codes, levels, threshold, error_prefix=f"{function}: ")
    present = [i for i in present if (codes == i).any()]
    boxes = [
        ordinal_boxes(
            level_codes[codes == i],
            y[codes == i],
            n_levels,
            threshold=threshold,
            winsor_sd=winsor_sd,
            sig=sig,
            policy=pol,
            avoid_y=rare_y,
        )
        for i in present
    ]
    n_wins = sum(pb.n_winsorized for pb in boxes)
    boxes = released_parallel(boxes, rare_y, pol, sig)
    positions, box_width = box_positions(
        [pb.centres for pb in boxes], 1.0, np.array([]), float(width)
    )
    lows = [b.whislo for pb in boxes for b in pb.boxes]
    highs = [b.whishi for pb in boxes for b in pb.boxes]
    ylim, yticks = axis_from_range(min(lows), max(highs), rare_y)
    per_level = np.bincount(level_codes[codes >= 0], minlength=n_levels)
    ticklabels = [
        _level_label(v) if per_level[i] >= threshold else "" for i, v in enumerate(level_names)
    ]
    notes, warnings = [], []
    drawn_levels = [levels[i] for i in present]
    for level, pb in zip(drawn_levels, boxes, strict=True):
        prefix = "" if level is None else f"{level}: "
        notes += [prefix + t for t in pb.describe_merges(names[0], empty=True, unit="levels")]
        warnings += [prefix + t for t in pb.warnings]
    if notes:
        warnings.append(
            "Adjacent levels were merged (too few records, or a box with a zero-length half); "
            "a merged box is drawn over the level holding most of its records and the other "
            "levels are left empty (O'Keefe, Fig. 7b): " + "; ".join(notes)
        )
    unnamed = sum(1 for t in ticklabels if not t)
    if unnamed:
        warnings.append(
            f"{unnamed} level(s) held by fewer than threshold records are not named on the axis."
        )
    details = {
        "values_winsorised": pol.round_count(n_wins),
        "x_scale": "ordinal",
        "levels_merged": notes,
        "levels_left_empty": sum(len(pb.dropped) for pb in boxes),
        "levels_not_named": unnamed,
    }
    if groups is not None and groups.left_out:
        details["groups_left_out"] = groups.left_out
        warnings.append(groups.warning)
    report = make_report(
        function,
        "confidential",
        {"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig},
        names,
        int((codes >= 0).sum()) + n_left_out,
        n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return ParallelBoxRelease(
        "confidential",
        drawn_levels,
        boxes,
        positions,
        box_width,
        [],
        np.arange(n_levels + 1, dtype=float) - 0.5,
        xlim,
        ylim,
        ticks,
        yticks,
        report,
        notes,
        ticklabels=ticklabels,
    )


def _raw_release(x, y, codes, levels, names, n_intervals, width, n_dropped, function, pol):
    """Raw parallel boxes: Tukey boxes of y in equal intervals of x, outliers shown."""
    from matplotlib.cbook import boxplot_stats

    present = [i for i in range(len(levels)) if (codes == i).any()]
    if n_intervals is None:
        n_intervals = default_intervals(int(x.size), pol.threshold)
    edges = interval_edges(x, n_intervals)
    cell = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, edges.size - 2)
    stats, centres = [], []
    for i in present:
        level_stats, level_centres = [], []
        for c in range(edges.size - 1):
            sel = (codes == i) & (cell == c)
            if sel.any():
                level_stats.append(boxplot_stats(y[sel])[0])
                level_centres.append((edges[c] + edges[c + 1]) / 2)
        stats.append(level_stats)
        centres.append(np.array(level_centres))
    positions, box_width = box_positions(centres, float(edges[1] - edges[0]), np.array([]), width)
    report = make_report(function, "none", {}, names, int((codes >= 0).sum()), n_dropped, pol)
    return ParallelBoxRelease(
        "none",
        [levels[i] for i in present],
        [],
        positions,
        box_width,
        [],
        edges,
        (float(edges[0]), float(edges[-1])),
        None,
        edges,
        None,
        report,
        raw_stats=stats,
    )


def _draw_parallel(
    ax: Axes,
    rel: ParallelBoxRelease,
    *,
    colors: list,
    orient: str,
    legend: Any,
    title: str,
    line_kws: dict | None,
    kwargs: dict,
) -> None:
    _draw_parallel_boxes(
        ax,
        rel,
        rel.raw_stats
        if get_method(rel.method).raw
        else [[b.to_bxp() for b in pb.boxes] for pb in rel.boxes],
        note_title=f"Merged {'intervals' if rel.ticklabels is None else 'levels'} (one box "
        "each, where most of its records are; the rest left empty):",
        colors=colors,
        legend=legend,
        title=title,
        line_kws=line_kws,
        vertical=orient == "x",
        showfliers=get_method(rel.method).raw,
        bxp_kws=kwargs,
        trends_last=True,
    )
    if rel.ticklabels is not None:
        # an ordinal variable: its levels are named at their positions (rare ones left blank)
        axis = ax.xaxis if orient == "x" else ax.yaxis
        axis.set_major_locator(FixedLocator(rel.xticks))
        axis.set_major_formatter(FixedFormatter(rel.ticklabels))


def _orient(orient: str | None) -> str:
    if orient in (None, "x", "v"):
        return "x"
    if orient in ("y", "h"):
        return "y"
    raise ValueError(
        f"orient must be 'x' (or 'v': intervals of x, vertical boxes of y) or 'y' (or 'h': "
        f"intervals of y, horizontal boxes of x), got {orient!r}."
    )


def parallelboxplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    order: Sequence[Any] | None = None,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    width: float = 0.8,
    legend: str | bool = "auto",
    ax: Axes | None = None,
    method: str | None = "confidential",
    discrete: bool | None = None,
    threshold: int | None = None,
    n_intervals: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    trend: bool = False,
    frac: float = 2 / 3,
    line_kws: dict | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw O'Keefe's parallel box plots: box plots of one variable over intervals of another.

    The confidentialised replacement for a scatter plot of two continuous
    variables: no point is drawn, only a winsorised, rounded box per
    interval of the interval variable, each resting on at least
    ``threshold`` records.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by `x`, `y`, `hue`.
    x, y : name of a column in `data`, or a vector
        Numeric variables. With ``orient="x"`` (default) x is cut into
        intervals and the boxes summarise y; with ``orient="y"`` the other
        way round.
    hue : name or vector, optional
        Categorical variable: one set of boxes per level, dodged side by
        side within each interval (every level needs ``threshold`` records).
    hue_order : list, optional
        Order of the hue levels; records of other levels are left out.
    order : list, optional
        The levels of an ordinal interval variable, in their order (records
        of other levels are left out). Giving it makes the variable ordinal.
    orient : {"x", "y", "v", "h"}, optional
        Which variable is cut into intervals (see `x`, `y`).
    color : color, optional
        Box colour without hue.
    palette : palette name, list or dict, optional
        Colours of the hue levels (as seaborn picks them).
    width : float, default 0.8
        Share of an interval the boxes of the interval take up (slightly
        less when a box edge would fall on a rare value).
    legend : "auto", "brief", "full" or False
        Whether to draw the hue legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` draws raw Tukey boxes with outliers, only when the policy
        allows raw output. Other methods are refused: use
        :func:`safeplot.scatterplot` or :func:`safeplot.boxplot` for them.
    discrete : bool, optional
        Treat the interval variable as ordinal: one box per level, in order,
        instead of equal-width intervals (O'Keefe's Figure 7b). Default: an
        ordered categorical, a variable given an `order`, or a non-numeric
        one is discrete; a numeric one is continuous. A nominal variable
        (unordered categories, no `order`) is refused: its boxes have no
        neighbours to merge with.
    threshold : int, optional
        Fewest records per box (default and floor: the policy's threshold).
    n_intervals : int, optional
        Target number of intervals; the width is the "nice" step (1, 2, 2.5
        or 5 times a power of ten) at least range / n_intervals. By default
        several equal-width divisions are tried, from
        ``min(10, n // (2 * threshold))`` intervals (n of the smallest hue
        level) down to half as many, and the finest that needs no merging
        is kept (see Notes).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures of the box statistics (default and ceiling: the
        policy's).
    trend : bool, default False
        Also draw O'Keefe's confidential lowess trend line (per hue level).
    frac : float, default 2/3
        Fraction of the data in each local lowess fit.
    line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the trend lines.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.bxp` (e.g. ``boxprops``).

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Missing `x` or `y`, a non-numeric value variable, a constant
        variable, infinite values, an unknown method or orient, bad
        `n_intervals` or `width`, a nominal interval variable, or `trend`
        or `n_intervals` with an ordinal one.
    DisclosureError
        Fewer than ``threshold`` records (overall or in a hue level), a
        setting looser than the policy, ``method="none"`` when the policy
        forbids raw output.

    See Also
    --------
    safeplot.anonymize.confidential.parallel_boxes : The numbers of one set of boxes.
    safeplot.anonymize.confidential.lowess_trend : The trend line.
    boxplot : Routes ``method="confidential"`` with a continuous x here.

    Notes
    -----
    Methods: ``"confidential"`` follows O'Keefe (2013), section 2.2: x and y are
    winsorised at mean -/+ `winsor_sd` SD; the winsorised x is cut into
    equal-width intervals on a rounded grid (edges never on a rare x
    value, the outer ones beyond the data). Unless `n_intervals` is
    given, several divisions are tried, as she suggests ("several
    different divisions into equal-width intervals could be tried until
    a division is found with each frequency at least at the minimum
    threshold value"): from the default number of intervals down to half
    of it, the finest division in which every interval (of every hue
    level) holds at least ``threshold`` records and every box has
    distinct quartiles is kept
    (:func:`~safeplot.anonymize.confidential.search_division`). When
    none does, the finest is kept and merged: an interval holding fewer
    than ``threshold`` records is merged with its smaller neighbour;
    then, while a box has a zero-length half (its median equals a
    quartile, which says many records share that value), that interval
    is merged with its smaller neighbour and summarised again. Each box
    is the five-number summary of the winsorised y of its interval,
    rounded to `sig` significant figures and moved off rare y values;
    whiskers reach the winsorised extremes and no outliers are drawn.
    Boxes have equal widths: a box that summarises two (or more)
    merged intervals is drawn with the width of one, over the interval
    holding most of its records, and the other interval is left empty,
    as O'Keefe does (no double-width box); a note under the axis says
    which ranges were merged and which intervals were left empty. With
    ``trend=True`` a lowess line is fitted to the winsorised data and
    drawn over a rounded grid inside the winsorised x range, clipped to
    the rounded winsorised y range, its end points rounded.

    An ordinal (discrete) interval variable has a slot per level, in
    order, and the same merging: a level with fewer than ``threshold``
    records, or whose box has a zero-length half, is merged with an
    adjacent level, the merged box drawn over the level holding most of
    its records and the other left empty (her Figure 7b, where one year
    of education has no box). A level held by fewer than ``threshold``
    records is not named on the axis. A nominal variable is refused: "there
    is no natural way to amalgamate box plots" (use
    :func:`safeplot.boxplot`, which leaves out the boxes it cannot show).
    ``"none"`` draws Tukey boxes of the raw y in equal intervals of x,
    with outliers: the raw version, for comparison under a policy that
    allows it.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = parallelboxplot(data=penguins, x="body_mass_g", y="bill_length_mm", ax=ax)
    >>> ax.safeplot_report.method, ax.safeplot_report.details["interval_width"]
    ('confidential', 500.0)
    >>> plt.close(fig)

    An ordinal x: one box per level, small or flat levels merged.

    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = parallelboxplot(data=tips, x="size", y="total_bill", discrete=True, ax=ax)
    >>> ax.safeplot_report.details["x_scale"]
    'ordinal'
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method("confidential" if method is None else method)
    _refuse_other_methods(method, "parallelboxplot", pol)
    axis = _orient(orient)
    if x is None or y is None:
        raise ValueError(
            "parallelboxplot needs both x= and y=: two numeric variables, one cut into "
            "intervals and one summarised by a box per interval."
        )
    if not isinstance(trend, (bool, np.bool_)):
        raise ValueError(f"trend must be True or False, got {trend!r}.")
    refused = sorted(set(kwargs) & set(_BXP_REFUSED))
    if refused:
        raise ValueError(
            f"parallelboxplot: {refused} cannot be used: the boxes are placed, sized and "
            "summarised by the release (positions and widths avoid rare values; a released "
            "five-number summary has no mean or notch). Use width= for the share of an "
            "interval the boxes take."
        )
    if discrete is not None and not isinstance(discrete, (bool, np.bool_)):
        raise ValueError(f"discrete must be True, False or None, got {discrete!r}.")
    pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function="parallelboxplot")
    frame = pdata.frame
    interval_role, value_role = ("x", "y") if axis == "x" else ("y", "x")
    if _is_ordinal(frame[interval_role], order, discrete, pdata.label(interval_role)):
        if trend:
            raise ValueError(
                "parallelboxplot: trend=True needs a continuous interval variable; "
                f"{pdata.label(interval_role)!r} is ordinal (one box per level)."
            )
        if n_intervals is not None:
            raise ValueError(
                "parallelboxplot: n_intervals applies to a continuous interval variable; "
                f"{pdata.label(interval_role)!r} is ordinal and has one slot per level."
            )
        return _ordinal_parallelboxplot(
            pdata,
            interval_role,
            value_role,
            order=order,
            hue_order=hue_order,
            axis=axis,
            color=color,
            palette=palette,
            width=width,
            legend=legend,
            ax=ax,
            method=method,
            threshold=threshold,
            winsor_sd=winsor_sd,
            sig=sig,
            annotate=annotate,
            kwargs=kwargs,
            pol=pol,
        )
    names = (pdata.label(interval_role), pdata.label(value_role))
    if names[0] == names[1]:
        names = (names[0], names[1] + " ")
    missing = frame[["x", "y"]].isna().any(axis=1)
    if pdata.has("hue"):
        missing |= frame["hue"].isna()
    kept = frame[~missing.to_numpy()]
    if kept.shape[0] == 0 and frame.shape[0] > 0:
        raise ValueError(
            f"No complete records: every row has a missing value in {list(names)}"
            + (" or the hue" if pdata.has("hue") else "")
            + ". Choose other variables, or fill in the missing values."
        )
    clean = clean_numeric(
        pd.DataFrame(
            {
                names[0]: kept[interval_role].reset_index(drop=True),
                names[1]: kept[value_role].reset_index(drop=True),
            }
        )
    )
    raw = clean.values
    n_dropped = int(missing.sum()) + clean.n_dropped
    if pdata.has("hue"):
        hue_values = kept["hue"].reset_index(drop=True)
        levels = categorical_order(hue_values, hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = np.array([lookup.get(v, -1) for v in hue_values], dtype=int)
        if not (codes >= 0).any():
            raise ValueError("parallelboxplot: no records have a hue level in hue_order.")
    else:
        levels, codes = [None], np.zeros(raw.shape[0], dtype=int)
    rel = release_parallelboxes(
        raw[:, 0],
        raw[:, 1],
        codes,
        levels,
        names=names,
        method=method,
        threshold=threshold,
        n_intervals=n_intervals,
        winsor_sd=winsor_sd,
        sig=sig,
        width=width,
        trend=bool(trend),
        frac=frac,
        n_dropped=n_dropped,
        policy=pol,
    )
    all_levels = categorical_order(frame["hue"].dropna(), hue_order) if pdata.has("hue") else []
    return _finish_parallel(
        axes_for(ax, rel.report, rel),
        rel,
        pdata,
        all_levels,
        palette=palette,
        color=color,
        orient=axis,
        legend=legend,
        line_kws=line_kws,
        kwargs=kwargs,
        annotate=annotate,
        policy=pol,
        named=hue_order is not None,
    )


def _finish_parallel(
    ax: Axes,
    rel: Any,
    pdata: Any,
    hue_levels: list,
    *,
    palette: Any,
    color: Any,
    orient: str,
    legend: Any,
    line_kws: Any,
    kwargs: dict,
    annotate: bool | None,
    policy: Policy,
    named: bool = False,
) -> Axes:
    """Draw released parallel boxes in the hue palette, label the axes, and attach the report."""
    if rel.report.details.get("groups_left_out") and not named:
        # a level left out takes no colour: a gap in the palette would point at it
        hue_levels = [lev for lev in hue_levels if lev in rel.levels]
    if pdata.has("hue"):
        by_level = dict(zip(hue_levels, _level_colors(hue_levels, palette), strict=True))
        colors = [by_level[lev] for lev in rel.levels]
    else:
        colors = [color if color is not None else "C0"]
    _draw_parallel(
        ax,
        rel,
        colors=colors,
        orient=orient,
        legend=legend,
        title=pdata.label("hue"),
        line_kws=line_kws,
        kwargs=kwargs,
    )
    ax.set_xlabel(pdata.label("x"))
    ax.set_ylabel(pdata.label("y"))
    if rel.report.details.get("groups_left_out"):
        note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
    return finish(ax, rel.report, annotate=annotate, policy=policy)


def _is_ordinal(series: pd.Series, order: Any, discrete: Any, name: str) -> bool:
    """Whether the interval variable is ordinal; refuse a nominal one."""
    if discrete is False:
        if order is not None:
            raise ValueError(
                "parallelboxplot: order= lists the levels of an ordinal variable; it cannot be "
                "used with discrete=False."
            )
        return False
    categorical = isinstance(series.dtype, pd.CategoricalDtype)
    if order is not None or (categorical and series.cat.ordered):
        return True
    if not categorical and pd.api.types.is_numeric_dtype(series.dtype):
        return bool(discrete)
    if categorical or discrete:
        raise ValueError(
            f"parallelboxplot: {name!r} is nominal (categories with no order): O'Keefe gives no "
            "natural way to merge the boxes of unordered categories, so parallel boxes cannot "
            "be drawn over it. If its levels have an order, give order=[...] (or make it an "
            "ordered Categorical); otherwise draw safeplot.boxplot(..., method='confidential'), "
            "which leaves out the boxes it cannot show."
        )
    return False  # text, dates, mixed values: the numeric check names the problem


def _ordinal_parallelboxplot(
    pdata: Any,
    interval_role: str,
    value_role: str,
    *,
    order: Any,
    hue_order: Any,
    axis: str,
    color: Any,
    palette: Any,
    width: float,
    legend: Any,
    ax: Axes | None,
    method: str,
    threshold: int | None,
    winsor_sd: float | None,
    sig: int | None,
    annotate: bool | None,
    kwargs: dict,
    pol: Policy,
) -> Axes:
    """Parallel boxes over the levels of an ordinal variable (``parallelboxplot``)."""
    frame = pdata.frame
    names = (pdata.label(interval_role), pdata.label(value_role))
    if names[0] == names[1]:
        names = (names[0], names[1] + " ")
    missing = frame[[interval_role, value_role]].isna().any(axis=1)
    if pdata.has("hue"):
        missing |= frame["hue"].isna()
    kept = frame[~missing.to_numpy()]
    if kept.shape[0] == 0:
        raise ValueError(
            f"No complete records: every row has a missing value in {list(names)}"
            + (" or the hue" if pdata.has("hue") else "")
            + ". Choose other variables, or fill in the missing values."
        )
    series = kept[interval_role].reset_index(drop=True)
    level_names = categorical_order(series, order)
    if len(set(map(repr, level_names))) != len(level_names):
        raise ValueError("parallelboxplot: order lists a level more than once.")
    numeric_levels = [v for v in level_names if isinstance(v, (int, float, np.number))]
    if any(not np.isfinite(float(v)) for v in numeric_levels):
        raise ValueError(
            f"parallelboxplot: {names[0]!r} has infinite values, which are not levels of an "
            "ordinal variable. Replace them (e.g. with NaN, which is left out)."
        )
    if len(pd.unique(series[series.isin(level_names)])) < 2:
        raise ValueError(
            f"parallelboxplot: {names[0]!r} is constant (a single level among the complete "
            "records): its one value would be shown and there is nothing to compare."
        )
    lookup = {lev: i for i, lev in enumerate(level_names)}
    level_codes = np.array([lookup.get(v, -1) for v in series], dtype=int)
    clean = clean_numeric(pd.DataFrame({names[1]: kept[value_role].reset_index(drop=True)}))
    if clean.n_dropped:  # infinite values are refused by clean_numeric; NaN already dropped
        raise ValueError(f"parallelboxplot: {names[1]!r} has values that are not numbers.")
    values = clean.values[:, 0]
    if pdata.has("hue"):
        hue_values = kept["hue"].reset_index(drop=True)
        hue_levels = categorical_order(hue_values, hue_order)
        hue_lookup = {lev: i for i, lev in enumerate(hue_levels)}
        codes = np.array([hue_lookup.get(v, -1) for v in hue_values], dtype=int)
    else:
        hue_levels, codes = [None], np.zeros(values.size, dtype=int)
    codes = np.where(level_codes < 0, -1, codes)
    if not (codes >= 0).any():
        raise ValueError(
            "parallelboxplot: no records have a level in order"
            + (" and hue_order" if pdata.has("hue") else "")
            + "."
        )
    n_dropped = int(missing.sum()) + int((codes < 0).sum())
    rel = release_ordinal_boxes(
        np.where(level_codes < 0, 0, level_codes)[codes >= 0],
        values[codes >= 0],
        level_names,
        codes[codes >= 0],
        hue_levels,
        names=names,
        method=method,
        threshold=threshold,
        winsor_sd=winsor_sd,
        sig=sig,
        width=width,
        n_dropped=n_dropped,
        policy=pol,
    )
    return _finish_parallel(
        axes_for(ax, rel.report, rel),
        rel,
        pdata,
        hue_levels,
        palette=palette,
        color=color,
        orient=axis,
        legend=legend,
        line_kws=None,
        kwargs=kwargs,
        annotate=annotate,
        policy=pol,
        named=hue_order is not None,
    )


# -- correspondence analysis --------------------------------------------------------------


@release_kind("correspondence")
@dataclass
class CorrespondenceRelease:
    """A released correspondence-analysis plot: category points, no counts.

    Attributes
    ----------
    variables : list of str
        The categorical variables.
    labels : list of list
        Each variable's levels after merging (``"Other"`` for merged ones).
    coords : list of ndarray, shape (levels, 2)
        Each variable's category points in the first two dimensions, rounded.
    shares : ndarray, shape (2,)
        Share of the total inertia of the two dimensions (rounded, percent).
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    report : DisclosureReport
    """

    variables: list[str]
    labels: list[list]
    coords: list[np.ndarray]
    shares: np.ndarray
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    avoid: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)


def _numeric_rare(series: pd.Series, threshold: int) -> np.ndarray:
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype
    ):
        return rare_values(series.to_numpy(dtype=float), threshold)
    return np.array([])


def release_correspondence(
    data: pd.DataFrame,
    variables: Sequence[str],
    *,
    method: str = "confidential",
    threshold: int | None = None,
    sig: int | None = None,
    orders: dict | None = None,
    function: str = "correspondenceplot",
    policy: Policy | None = None,
) -> CorrespondenceRelease:
    """Release the category points of a (multiple) correspondence analysis (numbers only).

    Parameters
    ----------
    data : DataFrame
        The records.
    variables : sequence of str
        Two or more categorical columns of `data`.
    method : {"confidential", "none"}
    threshold, sig
        As in :func:`correspondenceplot`.
    orders : dict, optional
        Variable -> order of its levels.
    function : str
        Calling function, for the report.
    policy : Policy, optional

    Returns
    -------
    CorrespondenceRelease

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_correspondence(tips, ["day", "time", "sex"])
    >>> rel.labels[0], rel.report.details["analysis"]
    (['Thur', 'Fri', 'Sat', 'Sun'], 'multiple')
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method), _OKEEFE_FAMILIES, function)
    variables = [str(v) for v in variables]
    frame = data[variables]
    missing = frame.isna().any(axis=1).to_numpy()
    frame = frame[~missing]
    n = len(frame)
    if n == 0:
        raise ValueError(f"{function}: no records left after dropping rows with missing values.")
    orders = orders or {}
    merged_counts: dict[str, int] = {}
    codes, labels, avoid = [], [], []
    if m.rule_based:
        threshold = pol.check_threshold(threshold)
        sig = pol.check_sig_figs(sig)
        if n < threshold:
            raise DisclosureError(
                f"{function}: only {pol.describe_count(n)} complete records; at least "
                f"threshold={threshold} are needed."
            )
    for var in variables:
        series = frame[var]
        order = categorical_order(series, orders.get(var))
        if m.rule_based:
            kept = merge_rare_levels(series.tolist(), threshold, order=order, name=var)
            codes.append(kept.codes)
            labels.append(kept.levels)
            merged_counts[var] = len(kept.merged)
            avoid.append(_numeric_rare(data[var].dropna(), threshold))
        else:
            present = set(series.tolist())
            lv = [lev for lev in order if lev in present]
            index = {lev: i for i, lev in enumerate(lv)}
            codes.append(np.array([index[v] for v in series.tolist()], dtype=int))
            if len(lv) < 2:
                raise ValueError(f"{function}: {var} has fewer than two levels.")
            labels.append(lv)
    if len(variables) == 2:
        table = np.zeros((len(labels[0]), len(labels[1])))
        np.add.at(table, (codes[0], codes[1]), 1)
        res: CAResult = simple_ca(table)
        parts = [res.row_coords, res.col_coords]
        analysis = "simple"
    else:
        res = multiple_ca(codes, [len(lv) for lv in labels])
        offsets = np.cumsum([0] + [len(lv) for lv in labels])
        parts = [res.col_coords[offsets[v] : offsets[v + 1]] for v in range(len(variables))]
        analysis = "multiple"
    coords = []
    for part in parts:
        two = np.zeros((part.shape[0], 2))
        two[:, : min(2, part.shape[1])] = part[:, :2]
        coords.append(two)
    shares = np.zeros(2)
    shares[: min(2, res.shares.size)] = res.shares[:2]
    warnings = []
    if res.inertias.size < 2 or res.inertias[1] <= 0:
        warnings.append("The analysis has one dimension only: every point lies on the first axis.")
    avoid_all = np.unique(np.concatenate(avoid)) if avoid else np.array([])
    if m.rule_based:
        coords = [
            guard.released_statistics(
                c, avoid_all, sig=sig, directions=np.where(c < 0, -1.0, 1.0), policy=pol
            )
            for c in coords
        ]
        shown_shares = guard.released_statistics(
            100 * shares, avoid_all, sig=min(sig, 2), directions=[1.0, -1.0], policy=pol
        )
        merged_total = sum(merged_counts.values())
        if merged_total:
            warnings.append(
                "Levels held by fewer than threshold records were merged into 'Other' before "
                "the analysis: "
                + ", ".join(f"{v}: {k} level(s)" for v, k in merged_counts.items() if k)
                + "."
            )
        params = {"threshold": threshold, "sig": sig}
    else:
        shown_shares = 100 * shares
        params = {}
    allc = np.vstack(coords)
    lo, hi = float(allc.min()), float(allc.max())
    lim, ticks = axis_from_range(min(lo, 0.0), max(hi, 0.0), avoid_all)
    report = make_report(
        function,
        method,
        params,
        tuple(variables),
        n,
        int(missing.sum()),
        pol,
        details={
            "analysis": analysis,
            "inertia_percent": [float(s) for s in shown_shares],
            "levels_merged": merged_counts,
        },
        warnings=warnings,
    )
    return CorrespondenceRelease(
        variables, labels, coords, shown_shares, lim, lim, ticks, ticks, report, avoid_all
    )


def correspondenceplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    vars: Sequence[str] | None = None,
    orders: dict | None = None,
    palette: Any = None,
    markers: Sequence[str] | None = None,
    s: float = 40,
    fontsize: Any = "small",
    legend: bool = True,
    ax: Axes | None = None,
    method: str | None = "confidential",
    threshold: int | None = None,
    sig: int | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a correspondence-analysis plot of two or more categorical variables.

    O'Keefe's replacement for a contingency table: each category is a point
    in the plane of the first two dimensions of a correspondence analysis
    (simple for two variables, multiple for more), labelled with its name;
    categories close together occur together more often than under
    independence. No count is shown.

    Parameters
    ----------
    data : DataFrame or mapping
        The records.
    x, y : name of a column in `data`
        Two categorical variables (or give `vars`).
    vars : list of str, optional
        Two or more categorical variables (instead of `x` and `y`).
    orders : dict, optional
        Variable name -> order of its levels (labels in the legend order).
    palette : palette name, list or dict, optional
        One colour per variable.
    markers : list of str, optional
        One marker per variable (default "o", "s", "^", "D", ...).
    s : float, default 40
        Marker area.
    fontsize : size, default "small"
        Size of the category labels.
    legend : bool, default True
        Name the variables in a legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` analyses the raw levels without merging or rounding (only
        if the policy allows raw output). Other methods are refused.
    threshold : int, optional
        Fewest records per level (default and floor: the policy's threshold).
    sig : int, optional
        Significant figures of the coordinates (default and ceiling: the
        policy's).
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.scatter`.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Fewer than two variables, both `vars` and `x`/`y`, an unknown column,
        no complete record, an unknown method.
    DisclosureError
        A variable left with fewer than two levels after merging its rare
        ones, a setting looser than the policy, ``method="none"`` when the
        policy forbids raw output.

    See Also
    --------
    safeplot.anonymize.correspondence.simple_ca : The analysis of two variables.
    safeplot.anonymize.correspondence.multiple_ca : The analysis of more.
    safeplot.plots.matrix.crosstab : A suppressed table of counts instead.

    Notes
    -----
    Methods: ``"confidential"``: rows with a missing value are dropped (counted,
    rounded, in the report); in each variable the levels held by fewer
    than `threshold` records are merged into ``"Other"`` (with the next
    smallest level if ``"Other"`` is still too small; a variable left
    with one level is refused); the report says how many levels were
    merged, never which. Two variables: simple correspondence analysis,
    the SVD of the standardised residuals of their two-way table, rows
    and columns in principal coordinates (a symmetric map). More
    variables: multiple correspondence analysis of the indicator
    matrix (from the Burt matrix); every level in principal
    coordinates. Coordinates are rounded to `sig` significant figures,
    the axis labels give each dimension's share of the total inertia
    rounded to two figures, and the axes have safe limits and ticks.
    ``"none"``: the same analysis of the raw levels, unrounded.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).
    .. [2] Greenacre M. *Correspondence Analysis in Practice*, 3rd ed. (2017).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = correspondenceplot(tips, x="day", y="size", threshold=5, ax=ax)
    >>> ax.safeplot_report.details["levels_merged"]
    {'day': 0, 'size': 2}
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method("confidential" if method is None else method)
    check_family(method, _OKEEFE_FAMILIES, "correspondenceplot")
    if vars is not None and (x is not None or y is not None):
        raise ValueError("correspondenceplot: give either vars= or x= and y=, not both.")
    if vars is None:
        if x is None or y is None:
            raise ValueError(
                "correspondenceplot needs two or more categorical variables: x= and y=, or "
                "vars=[...]."
            )
        roles = {"v0": x, "v1": y}
    else:
        if isinstance(vars, str) or len(list(vars)) < 2:
            raise ValueError("correspondenceplot: vars must list two or more variables.")
        roles = {f"v{i}": v for i, v in enumerate(vars)}
    pdata = plot_data(data, roles, function="correspondenceplot")
    names = [pdata.label(r) for r in roles]
    if len(set(names)) != len(names):
        raise ValueError(f"correspondenceplot: the variables must differ, got {names}.")
    frame = pdata.frame.rename(columns=dict(zip(roles, names, strict=True)))
    order_map = dict(orders or {})
    rel = release_correspondence(
        frame,
        names,
        method=method,
        threshold=threshold,
        sig=sig,
        orders=order_map,
        policy=pol,
    )
    colors = _level_colors(names, palette)
    marks = list(markers) if markers is not None else ["o", "s", "^", "D", "v", "P", "X"]
    ax = axes_for(ax, rel.report, rel)
    if not hits_any([0.0], rel.avoid):  # the origin lines, drawn over the safe limits
        ax.plot(rel.xlim, [0.0, 0.0], color="0.8", linewidth=0.8, zorder=0)
        ax.plot([0.0, 0.0], rel.ylim, color="0.8", linewidth=0.8, zorder=0)
    for v, (name, labels, pts) in enumerate(
        zip(rel.variables, rel.labels, rel.coords, strict=True)
    ):
        ax.scatter(
            pts[:, 0],
            pts[:, 1],
            s=s,
            color=colors[v],
            marker=marks[v % len(marks)],
            label=name,
            **kwargs,
        )
        for label, (px, py) in zip(labels, pts, strict=True):
            ax.annotate(
                str(label),
                xy=(px, py),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=fontsize,
                color=colors[v],
                gid=CA_LABEL_GID,
            )
    set_safe_axis(ax, "x", rel.xlim, rel.xticks)
    set_safe_axis(ax, "y", rel.ylim, rel.yticks)
    ax.set_xlabel(f"First dimension ({rel.shares[0]:g}% of inertia)")
    ax.set_ylabel(f"Second dimension ({rel.shares[1]:g}% of inertia)")
    if legend:
        ax.legend(title=None, fontsize="small")
    return finish(ax, rel.report, annotate=annotate, policy=pol)
