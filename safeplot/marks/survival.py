"""Survival curves: released Kaplan-Meier steps, their bands and the at-risk table.

Draws a survival release (:class:`safeplot.plots.survival.SurvivalRelease`)
with seaborn's look: one colour per hue level from the palette, steps (or a
smooth line) through the released heights, translucent bands, a legend
clear of the curves, and an at-risk table of released counts under the
axes, as lifelines lays it out. Nothing here sees a record.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import seaborn as sns
from matplotlib.axes import Axes

from ..release.guard import LEFT_OUT_NOTE
from ._axes import LEFT_OUT_GID, note_below, set_safe_axis
from ._style import level_colors
from .lines import default_color

__all__ = ["AT_RISK_GID", "STOP_NOTE", "STOP_NOTE_GID", "draw_at_risk_table", "draw_survival"]

#: gid of the Axes holding the at-risk table.
AT_RISK_GID = "safeplot-at-risk"
#: gid of the note saying where the curves stop.
STOP_NOTE_GID = "safeplot-survival-stop"
_ROWS = ("At risk", "Censored", "Events")
#: The note under the axes (the report says why in full).
STOP_NOTE = "Curves stop before the last follow-up."
_Y_TICKS = np.array([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])


def _colours(ax: Axes, levels: list[Any], palette: Any, color: Any) -> list[Any]:
    """One colour per level, as seaborn picks them: `color`, else the palette or the cycle."""
    if levels == [None]:
        if color is None and palette is not None and not isinstance(palette, dict):
            color = sns.color_palette(palette, 1)[0]
        return [default_color(ax, color)]
    if palette is None and color is not None:
        return list(sns.light_palette(color, len(levels) + 1, reverse=True))[: len(levels)]
    return list(level_colors(levels, palette))


def _count_text(value: float) -> str:
    return "\u2013" if not np.isfinite(value) else f"{int(value)}"


def draw_at_risk_table(ax: Axes, release: Any, colours: list[Any]) -> Axes:
    """Draw the release's at-risk table under `ax` on an Axes of its own; return that Axes.

    One column per table time (the released ticks the curves reach), and per
    hue level three rows: records at risk, censored and events up to that
    time, each rounded (1 and 2 round to 0); a dash where the level's curve
    has stopped.

    Parameters
    ----------
    ax : Axes
        The Axes of the curves.
    release : SurvivalRelease
    colours : list
        One colour per level, for the level's name.

    Returns
    -------
    Axes
        The table's Axes (gid :data:`AT_RISK_GID`).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from lifelines.datasets import load_rossi
    >>> from safeplot.plots.survival import release_survival
    >>> rel = release_survival(load_rossi(), duration="week", event="arrest")
    >>> fig, ax = plt.subplots()
    >>> _ = draw_survival(ax, rel)
    >>> table = draw_at_risk_table(ax, rel, ["C0"])
    >>> table.get_xticklabels()[0].get_text().splitlines()
    ['430', '0', '0']
    """
    table_ax = ax.twiny()
    table_ax.set_gid(AT_RISK_GID)
    table_ax.set_xlim(ax.get_xlim())
    table_ax.xaxis.set_ticks_position("bottom")
    table_ax.xaxis.set_label_position("bottom")
    table_ax.spines["bottom"].set_position(("outward", 40))
    for side in ("top", "bottom", "left", "right"):
        table_ax.spines[side].set_visible(False)
    table_ax.tick_params(axis="x", length=0, labelsize="small")
    grouped = release.levels != [None]
    columns = []
    for j in range(release.table_times.size):
        lines = []
        for rows in release.table:
            if grouped:
                lines.append("")
            lines += [_count_text(rows[r, j]) for r in range(len(_ROWS))]
        columns.append("\n".join(lines))
    table_ax.set_xticks(release.table_times, labels=columns)
    names = []
    for lev in release.levels:
        if grouped:
            names.append(str(lev))
        names += [("  " if grouped else "") + r for r in _ROWS]
    label = table_ax.annotate(
        "\n".join(names),
        xy=(0.0, 1.0),
        xycoords=table_ax.get_xticklabels()[0] if columns else table_ax,
        xytext=(-8, 0),
        textcoords="offset points",
        ha="right",
        va="top",
        multialignment="left",
        fontsize="small",
    )
    label.set_gid(AT_RISK_GID)
    ax.figure.sca(ax)  # the curves' Axes stays the current one (plt.title and the like)
    return table_ax


def draw_survival(
    ax: Axes,
    release: Any,
    *,
    palette: Any = None,
    ci_show: bool = True,
    at_risk_counts: bool = False,
    legend: bool = True,
    **kwargs: Any,
) -> Axes:
    """Draw a survival release on `ax`: curves, bands, legend, axes and optional table.

    Parameters
    ----------
    ax : Axes
    release : SurvivalRelease
        The released curves.
    palette : palette name, list or dict, optional
        Colours of the hue levels (seaborn's palettes).
    ci_show : bool, default True
        Draw the confidence bands.
    at_risk_counts : bool, default False
        Draw the at-risk table under the axes.
    legend : bool, default True
        Add a legend of the hue levels (lower left, where falling curves leave room).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot`.

    Returns
    -------
    Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from lifelines.datasets import load_rossi
    >>> from safeplot.plots.survival import release_survival
    >>> rel = release_survival(load_rossi(), duration="week", event="arrest", hue="fin")
    >>> fig, ax = plt.subplots()
    >>> ax = draw_survival(ax, rel, palette="deep")
    >>> [line.get_label() for line in ax.lines]
    ['0', '1']
    """
    colours = _colours(ax, release.levels, palette, kwargs.pop("color", kwargs.pop("c", None)))
    style = {"drawstyle": "default" if release.smooth else "steps-post", **kwargs}
    for lev, t, s, lo, hi, colour in zip(
        release.levels,
        release.times,
        release.survival,
        release.lower,
        release.upper,
        colours,
        strict=True,
    ):
        label = None if lev is None else str(lev)
        ax.plot(t, s, color=colour, label=label, **style)
        if ci_show:
            ax.fill_between(
                t,
                lo,
                hi,
                step=None if release.smooth else "post",
                color=colour,
                alpha=0.2,
                linewidth=0,
            )
    set_safe_axis(ax, "x", release.time_lim, release.time_ticks)
    set_safe_axis(ax, "y", (0.0, 1.05), _Y_TICKS)
    ax.set_xlabel(release.names.get("duration") or "time")
    ax.set_ylabel("Survival probability")
    if legend and release.levels != [None]:
        ax.legend(title=release.names.get("hue"), loc="lower left", frameon=False)
    below = draw_at_risk_table(ax, release, colours) if at_risk_counts else ax
    note_below(below, STOP_NOTE, STOP_NOTE_GID)
    if release.report.details.get("groups_left_out"):
        note_below(below, LEFT_OUT_NOTE, LEFT_OUT_GID)
    return ax
