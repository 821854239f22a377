"""Parallel box plots: O'Keefe's boxes over intervals, their trend lines and merge notes.

The boxes are drawn from a release that already holds everything: the box
statistics, their positions and width, the trend lines, the safe limits and
ticks, and the notes on merged intervals. Nothing here sees a record.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from ._axes import note_below, set_safe_axis

__all__ = [
    "MERGE_NOTE_GID",
    "BoxScatterDrawn",
    "ParallelBoxesDrawn",
    "draw_boxes",
    "draw_parallel_boxes",
]

#: gid of the note saying which x intervals of a confidential scatter were merged.
MERGE_NOTE_GID = "safeplot-merge-note"


class ParallelBoxesDrawn(Protocol):
    """What a release of parallel boxes gives its drawing (a box scatter, a parallel box plot).

    Attributes
    ----------
    levels : list
        Hue levels with boxes (``[None]`` without hue).
    positions : list of ndarray
        Position of every box of each level.
    width : float
        Width of every box.
    trends : list of (ndarray, ndarray)
        The trend line of each level (may be shorter than `levels`).
    xlim : tuple of float
        Limits of the interval axis; `xticks` its ticks.
    ylim : tuple of float or None
        Limits of the value axis (None: left to the caller); `yticks` its ticks.
    notes : list of str
        Which intervals were merged into one box.
    """

    levels: list
    positions: list[np.ndarray]
    width: float
    trends: list[tuple[np.ndarray, np.ndarray]]
    xlim: tuple[float, float]
    ylim: tuple[float, float] | None
    xticks: np.ndarray
    yticks: np.ndarray
    notes: list[str]


class BoxScatterDrawn(ParallelBoxesDrawn, Protocol):
    """A confidential scatter's release (``BoxScatterRelease``): parallel boxes per level.

    Attributes
    ----------
    boxes : list
        One ``ParallelBoxes`` per level; each box gives its ``bxp`` statistics
        (``to_bxp()``).
    """

    boxes: list


def draw_parallel_boxes(
    ax: Axes,
    rel: ParallelBoxesDrawn,
    stats: list[list[dict]],
    *,
    note_title: str,
    colors: list,
    legend: Any,
    title: str = "",
    line_kws: dict | None = None,
    vertical: bool = True,
    showfliers: bool = False,
    bxp_kws: dict | None = None,
    trends_last: bool = False,
) -> None:
    """Draw boxes (``bxp`` statistics) and trend lines per level, safe axes, the merge note.

    Parameters
    ----------
    ax : Axes
    rel : ParallelBoxesDrawn
        A ``BoxScatterRelease`` or a ``ParallelBoxRelease``: its levels,
        positions, width, trends, limits, ticks and notes are used.
    stats : list of list of dict
        The :meth:`matplotlib.axes.Axes.bxp` statistics of each level's boxes.
    note_title : str
        First line of the note listing the merged intervals.
    colors : list
        Face colour of each level's boxes (and trend line).
    legend : bool or str
        Draw a legend of the levels (when there are levels).
    title : str, optional
        Title of that legend.
    line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the trend lines.
    vertical : bool, default True
        The interval axis is x (else y).
    showfliers : bool, default False
        Draw the outliers of the statistics (raw output only).
    bxp_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.bxp`.
    trends_last : bool, default False
        Draw every trend after all the boxes (else each after its level's boxes).
    """
    levels, trends = rel.levels, rel.trends

    edge = "0.2"
    handles = []

    def draw_trend(j: int) -> None:
        xs, ys = trends[j]
        level = levels[j]
        kws = {"linewidth": 1.6, "color": edge if level is None else colors[j % len(colors)]}
        kws["zorder"] = 3
        kws.update(line_kws or {})
        ax.plot(*((xs, ys) if vertical else (ys, xs)), **kws)

    for j, (level, level_stats, pos) in enumerate(zip(levels, stats, rel.positions, strict=True)):
        color = colors[j % len(colors)]
        props = {
            "positions": pos,
            "widths": rel.width,
            "showfliers": showfliers,
            "patch_artist": True,
            "manage_ticks": False,
            "orientation": "vertical" if vertical else "horizontal",
            "boxprops": {"facecolor": color, "edgecolor": edge, "linewidth": 0.8},
            "whiskerprops": {"color": edge, "linewidth": 0.8},
            "capprops": {"color": edge, "linewidth": 0.8},
            "medianprops": {"color": "0.1", "linewidth": 1.0},
        }
        props.update(bxp_kws or {})
        ax.bxp(level_stats, **props)
        if not trends_last:
            draw_trend(j)
        if level is not None:
            handles.append(Patch(facecolor=color, edgecolor=edge, label=str(level)))
    if trends_last:
        for j in range(min(len(levels), len(trends))):
            draw_trend(j)
    interval_axis, value_axis = ("x", "y") if vertical else ("y", "x")
    set_safe_axis(ax, interval_axis, rel.xlim, rel.xticks)
    if rel.ylim is not None:
        set_safe_axis(ax, value_axis, rel.ylim, rel.yticks)
    if handles and legend:
        ax.legend(handles=handles, title=title or None)
    if rel.notes:
        # below the x-axis label, clear of the boxes
        note_below(ax, note_title + "\n" + "\n".join(rel.notes), MERGE_NOTE_GID)


def draw_boxes(
    ax: Axes,
    release: BoxScatterDrawn,
    *,
    colors: list,
    legend: Any,
    title: str = "",
    line_kws: dict | None = None,
) -> None:
    """Draw a confidential scatter: parallel boxes, trend lines, safe axes, merged intervals.

    Parameters
    ----------
    ax : Axes
    release : BoxScatterDrawn
        A ``BoxScatterRelease``: its ``boxes`` (one ``ParallelBoxes`` per
        level) give the statistics; it has one trend line per level.
    colors : list
        Face colour of each level's boxes.
    legend : bool or str
        Draw a legend of the levels.
    title : str, optional
        Title of that legend.
    line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the trend lines.
    """
    if len(release.trends) != len(release.levels):
        raise ValueError("A confidential scatter needs one trend line per level.")
    draw_parallel_boxes(
        ax,
        release,
        [[b.to_bxp() for b in pb.boxes] for pb in release.boxes],
        note_title="Merged x intervals (one box each, drawn where most of its records are):",
        colors=colors,
        legend=legend,
        title=title,
        line_kws=line_kws,
    )
