"""Lines: Q-Q plots, fitted regression lines and bands, estimates, and the markers under them.

seaborn's ``regplot`` look (colours from the Axes' cycle, marker and line
widths from the rcParams) and statsmodels' ``qqplot`` look, drawn from
released numbers: points or grid cells, a line evaluated inside the released
range, interval ends already rounded. Nothing here sees a record.
"""

from __future__ import annotations

import copy
from typing import Any

import matplotlib as mpl
import matplotlib.dates as mdates
import numpy as np
from matplotlib.axes import Axes

from ..release import PointRelease
from ._axes import set_safe_axis
from ._large import is_large, scatter_points

__all__ = [
    "LINE_NOTE_GID",
    "default_color",
    "draw_estimate_lines",
    "draw_estimates",
    "draw_fit",
    "draw_markers",
    "draw_qq",
    "draw_zero_line",
    "estimate_rows",
    "interval_of",
    "line_style",
    "marker_style",
    "set_date_axis",
]


# -- seaborn's regplot look ----------------------------------------------------------------


def default_color(ax: Axes, color: Any) -> str:
    """Return the colour seaborn would use: `color`, else the next one of the Axes' cycle.

    Parameters
    ----------
    ax : Axes
    color : colour or None

    Returns
    -------
    str
        A hex colour.
    """
    if color is None:
        (probe,) = ax.plot([], [])
        color = probe.get_color()
        probe.remove()
    return mpl.colors.rgb2hex(mpl.colors.to_rgb(color))


def marker_style(scatter_kws: dict | None, color: str, marker: Any, label: Any) -> dict:
    """Keyword arguments of the markers, as seaborn's ``regplot`` completes ``scatter_kws``.

    Parameters
    ----------
    scatter_kws : dict or None
        The user's keyword arguments (not changed).
    color : str
    marker : matplotlib marker or None
    label : str or None

    Returns
    -------
    dict
    """
    kws = {} if scatter_kws is None else copy.copy(scatter_kws)
    kws.setdefault("color", color)
    if marker is not None:
        kws["marker"] = marker
    if label is not None:
        kws["label"] = label
    line_markers = ["1", "2", "3", "4", "+", "x", "|", "_"]
    lw_key = "lines.linewidth" if kws.get("marker") in line_markers else "lines.markeredgewidth"
    kws.setdefault("linewidths", mpl.rcParams[lw_key])
    kws.setdefault("alpha", 0.8)
    return kws


def line_style(line_kws: dict | None, color: str, label: Any = None) -> dict:
    """Keyword arguments of a fitted line, as seaborn's ``regplot`` completes ``line_kws``.

    Parameters
    ----------
    line_kws : dict or None
        The user's keyword arguments (not changed).
    color : str
    label : str, optional

    Returns
    -------
    dict
    """
    kws = {} if line_kws is None else copy.copy(line_kws)
    kws.setdefault("color", color)
    lw = kws.pop("lw", mpl.rcParams["lines.linewidth"] * 1.5)
    kws.setdefault("linewidth", lw)
    if label is not None:
        kws.setdefault("label", label)
    return kws


# -- regression marks ----------------------------------------------------------------------


def draw_markers(
    ax: Axes, rel: PointRelease, x: np.ndarray, y: np.ndarray, kws: dict[str, Any]
) -> None:
    """Draw released points (or grid cells, their area proportional to the count).

    Parameters
    ----------
    ax : Axes
    rel : PointRelease
        Its ``sizes`` (the cell counts, or None for points) are used.
    x, y : ndarray
        The positions drawn: the release's, or the release's jittered.
    kws : dict
        Passed to :meth:`~matplotlib.axes.Axes.scatter` (``s`` is the median
        area of cells).
    """
    kws = dict(kws)
    if rel.sizes is not None:
        if not rel.sizes.size:
            return
        base = kws.pop("s", np.square(mpl.rcParams["lines.markersize"]))
        kws["s"] = base * rel.sizes / np.median(rel.sizes)
    scatter_points(ax, x, y, **kws)


def draw_estimates(
    ax: Axes,
    x: np.ndarray,
    y: np.ndarray,
    cis: list,
    kws: dict[str, Any],
    *,
    scatter_kws: dict | None = None,
) -> None:
    """Draw released estimates of y per x value or bin, and their intervals, as seaborn does.

    Parameters
    ----------
    ax : Axes
    x, y : ndarray
        The released estimates.
    cis : list of (float, float) or None
        The released interval of each estimate (None: no interval).
    kws : dict
        Keyword arguments of the markers (:func:`marker_style`).
    scatter_kws : dict, optional
        The user's ``scatter_kws`` (their ``alpha`` is kept, seaborn's default dropped).
    """
    kws = dict(kws)
    user = scatter_kws or {}
    ci_kws = {"color": kws["color"], "linewidth": mpl.rcParams["lines.linewidth"] * 1.75}
    if "alpha" in user:
        ci_kws["alpha"] = user["alpha"]
    for xv, ci in zip(x, cis, strict=True):
        if ci is not None:
            ax.plot([xv, xv], ci, **ci_kws)
    kws.setdefault("s", 50)
    kws.pop("linewidths", None)
    if "alpha" not in user:
        kws.pop("alpha", None)
    ax.scatter(x, y, **kws)


def draw_fit(
    ax: Axes,
    line: tuple[np.ndarray, np.ndarray] | None,
    band: tuple[np.ndarray, np.ndarray] | None,
    color: Any,
    kws: dict[str, Any],
) -> None:
    """Draw a released fitted line and its confidence band.

    Parameters
    ----------
    ax : Axes
    line : (ndarray, ndarray) or None
        x and y of the line (None: nothing is drawn).
    band : (ndarray, ndarray of shape (2, n)) or None
        x, and the lower and upper ends, of the band.
    color : colour
        Of the band.
    kws : dict
        Keyword arguments of the line (:func:`line_style`).
    """
    if line is None:
        return
    ax.plot(line[0], line[1], **kws)
    if band is not None:
        ax.fill_between(band[0], *band[1], facecolor=color, alpha=0.15)


def draw_zero_line(ax: Axes, xlim: tuple[float, float], zero: float) -> None:
    """Draw the dotted line of a residual plot at `zero` across the safe x limits.

    Parameters
    ----------
    ax : Axes
    xlim : tuple of float
    zero : float
        Where the line is drawn (0, or 0 moved off a rare residual).
    """
    ax.plot(xlim, [zero, zero], ls=":", c=".2")


# -- Q-Q plot ------------------------------------------------------------------------------


def draw_qq(ax: Axes, release: Any, **plotkwargs: Any) -> Axes:
    """Draw a released Q-Q plot: points, cells or curve, the reference line, safe axes.

    The report is not attached (the caller does that, with
    :func:`~safeplot.plots._common.finish`).

    Parameters
    ----------
    ax : Axes
    release : QQRelease
    **plotkwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the points, as
        statsmodels does (colour and alpha only for cells and the curve).

    Returns
    -------
    Axes
    """
    style = {
        "marker": "o",
        "markerfacecolor": "C0",
        "markeredgecolor": "C0",
        "linestyle": "none",
    }
    style.update(plotkwargs)
    color = style.get("color", style.get("markerfacecolor", "C0"))
    if release.kind == "points":
        if is_large(np.size(release.x)):
            style = {"rasterized": True, **style}  # the point layer only; text stays vector
        ax.plot(release.x, release.y, **style)
    elif release.kind == "cells":
        if release.sizes is not None and release.sizes.size:
            base = np.square(mpl.rcParams["lines.markersize"])
            area = base * release.sizes / np.median(release.sizes)
            ax.scatter(
                release.x,
                release.y,
                s=area,
                color=color,
                alpha=style.get("alpha", 0.7),
                linewidths=0,
                label=style.get("label"),
            )
    else:
        ax.plot(
            release.x,
            release.y,
            color=color,
            linewidth=2.0,
            alpha=style.get("alpha"),
            label=style.get("label"),
        )
    if release.line_x is not None:
        ax.plot(release.line_x, release.line_y, color="r", linestyle="-")
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    set_safe_axis(ax, "y", release.ylim, release.yticks)
    ax.set_xlabel(release.xlabel)
    ax.set_ylabel(release.ylabel)
    return ax


# -- estimates per x value: seaborn's lineplot and pointplot ------------------------------

#: gid of the note saying which x values of a line plot were left out (or binned).
LINE_NOTE_GID = "safeplot-line-note"


def estimate_rows(
    estimates: np.ndarray, lower: np.ndarray | None, upper: np.ndarray | None
) -> tuple[np.ndarray, int]:
    """Rows that make seaborn draw exactly the released estimate and interval of a point.

    Each point becomes the rows ``(e, e, e, lower, upper)``: their median is
    the estimate whatever the interval, and their range is the interval
    (``errorbar=lambda v: (min(v), max(v))``). Without an interval, one row.

    Returns
    -------
    tuple
        The values, point after point, and the rows per point.

    Examples
    --------
    >>> estimate_rows(np.array([2.0]), np.array([1.5]), np.array([2.5]))
    (array([2. , 2. , 2. , 1.5, 2.5]), 5)
    """
    if lower is None or upper is None:
        return np.asarray(estimates, dtype=float), 1
    e = np.asarray(estimates, dtype=float)
    return np.column_stack([e, e, e, lower, upper]).ravel(), 5


def interval_of(values: np.ndarray) -> tuple[float, float]:
    """Return the error bar seaborn draws for the rows of :func:`estimate_rows`: their range."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return float(v.min()), float(v.max())


def set_date_axis(ax: Axes, which: str) -> None:
    """Make an axis whose limits are released date numbers a date axis, as matplotlib's.

    matplotlib's :class:`~matplotlib.dates.AutoDateLocator` (its ticks depend
    only on the limits) and :class:`~matplotlib.dates.AutoDateFormatter`. The
    Axes remembers it, so that a grid agreeing shared limits keeps the date axis.

    Parameters
    ----------
    ax : Axes
    which : {"x", "y"}
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    locator = mdates.AutoDateLocator()
    axis.set_major_locator(locator)
    axis.set_major_formatter(mdates.AutoDateFormatter(locator))
    ax.__dict__.setdefault("_safeplot_date_axes", set()).add(which)


def _line_widths(release: Any, sizes: Any) -> dict[Any, float]:
    """Return the width of each drawn categorical size level, as seaborn maps all levels.

    seaborn spaces the widths evenly over `sizes` (a (min, max) tuple, by default
    0.5 to 2 times ``lines.linewidth``), the first level widest; a list gives one
    width per level. Each drawn level keeps the width of its place among all the
    levels, whichever are left out.
    """
    n, positions = release.n_size, release.size_positions
    if isinstance(sizes, list):
        if len(sizes) != n:
            raise ValueError(
                f"lineplot: sizes= has {len(sizes)} values for {n} size levels; give one "
                "width per level (or a dict level -> width, or a (min, max) tuple)."
            )
        widths = np.asarray(sizes, dtype=float)
    else:
        low_high = sizes if sizes is not None else np.r_[0.5, 2] * mpl.rcParams["lines.linewidth"]
        widths = np.linspace(*low_high, n)[::-1]
    return {lev: float(widths[i]) for lev, i in zip(release.size_levels, positions, strict=True)}


def draw_estimate_lines(
    ax: Axes,
    release: Any,
    *,
    sizes: Any = None,
    size_norm: Any = None,
    legend_entries: Any = None,
    **kws: Any,
) -> None:
    """Draw a released line plot with :func:`seaborn.lineplot`: only the released points.

    Parameters
    ----------
    ax : Axes
    release : LineRelease
        Positions, estimates, band ends, the hue/style/size level of each
        point, limits, ticks and notes.
    sizes, size_norm
        seaborn's line widths of the size levels. A categorical size gets
        evenly spaced widths (the first level widest) by its place among all
        the levels; a numeric size is normalised over the drawn levels.
    legend_entries : callable, optional
        ``legend_entries(values, log=...) -> (levels, labels)``: the entries of
        a brief legend of a numeric size
        (:func:`safeplot.plots.relational.brief_legend_entries`).
    **kws
        seaborn's appearance arguments (palette, dashes, markers, err_style,
        err_kws, legend, sort, and matplotlib's).
    """
    import pandas as pd
    import seaborn as sns

    from ._axes import note_below, quiet_seaborn

    values, reps = estimate_rows(release.estimates, release.lower, release.upper)
    names = release.names
    cols: dict[str, str] = {}
    for role in ("x", "y", "hue", "style", "size"):
        name = names.get(role) or ("" if role in ("x", "y") else role)
        while name in cols.values() or name == "":
            name = f"{name or role} "
        cols[role] = name
    frame = pd.DataFrame({cols["x"]: np.repeat(release.x, reps), cols["y"]: values})
    semantic: dict[str, Any] = {}
    size = getattr(release, "size", None)
    numeric_size = size is not None and (
        size_norm is not None or (release.size_numeric and not isinstance(sizes, (dict, list)))
    )
    done: dict[str, tuple[list[Any], str]] = {}  # role -> (its points, its column)
    for role, per_point, levels in (
        ("hue", release.hue, release.hue_levels),
        ("style", release.style, release.style_levels),
        ("size", size, getattr(release, "size_levels", None)),
    ):
        if per_point is None:
            continue
        # a variable given to two roles (wide form's columns, hue and style) is one column
        col = next(
            (
                c
                for r, (points, c) in done.items()
                if points == per_point
                and names.get(r) == names.get(role)
                and not (role == "size" and numeric_size)
            ),
            cols[role],
        )
        done[role] = (per_point, col)
        if col not in frame:
            if role == "size" and numeric_size:
                frame[col] = np.repeat(np.asarray(per_point, dtype=float), reps)
            else:
                frame[col] = pd.Categorical(
                    np.repeat(np.array(per_point, dtype=object), reps), categories=levels
                )
        semantic[role] = col
        if not (role == "size" and numeric_size):
            semantic[f"{role}_order"] = levels
    if size is not None:
        semantic["size_norm"] = size_norm
        if numeric_size or isinstance(sizes, dict):
            semantic["sizes"] = sizes
        else:
            semantic["sizes"] = _line_widths(release, sizes)
    has_err = release.lower is not None
    palette = kws.pop("palette", None)
    if release.hue_positions is not None and (
        palette is None or isinstance(palette, (str, list, tuple))
    ):
        # each level keeps the colour it has among all levels, whichever are left out
        from seaborn.palettes import get_color_cycle

        n = release.n_hue
        if palette is None and n > len(get_color_cycle()):
            palette = "husl"
        colours = sns.color_palette(palette, n)
        palette = {
            lev: colours[i]
            for lev, i in zip(release.hue_levels, release.hue_positions, strict=True)
        }
    n_lines = len(ax.lines)
    with quiet_seaborn():
        sns.lineplot(
            frame,
            x=cols["x"],
            y=cols["y"],
            estimator="median",
            errorbar=interval_of if has_err else None,
            palette=palette,
            ax=ax,
            **semantic,
            **kws,
        )
    if numeric_size and legend_entries is not None:
        _safe_size_legend(ax, n_lines, frame, semantic, kws.get("legend", "auto"), legend_entries)
    ax.set_xlabel(names.get("x") or "")
    ax.set_ylabel(names.get("y") or "")
    legend = ax.get_legend()
    if legend is not None and not (names.get("hue") or names.get("style") or names.get("size")):
        legend.set_title(None)  # wide form: the columns, untitled, as seaborn draws them
    if release.xlim is not None:
        set_safe_axis(ax, "x", release.xlim, release.xticks)
        set_safe_axis(ax, "y", release.ylim, release.yticks)
    if getattr(release, "x_dates", False):
        set_date_axis(ax, "x")
    if release.notes:
        note_below(ax, "\n".join(release.notes), LINE_NOTE_GID)


def _safe_size_legend(
    ax: Axes,
    n_lines: int,
    frame: Any,
    semantic: dict[str, Any],
    legend: Any,
    legend_entries: Any,
) -> None:
    """Give a brief legend of a numeric size the entries `legend_entries` chooses.

    seaborn lists every drawn level (each held by enough records) in a full
    legend, and a locator's round numbers over the drawn levels in a brief one
    (``legend="brief"``, or ``"auto"`` with more than six levels); the brief
    entries are those a scatter plot's size legend shows, drawn at seaborn's
    line widths.
    """
    from seaborn.utils import adjust_legend_subtitles

    from .points import BRIEF_TICKS, _NumericLegend, _safe_numeric_legend, _size_area

    verbosity = "auto" if legend is True else legend
    column = semantic["size"]
    n_levels = frame[column].nunique()
    if verbosity not in ("auto", "brief") or (verbosity == "auto" and n_levels <= BRIEF_TICKS):
        return
    norm = semantic.get("size_norm")
    default = np.r_[0.5, 2] * mpl.rcParams["lines.linewidth"]
    spec = _NumericLegend(
        column,
        isinstance(norm, mpl.colors.LogNorm),
        _size_area(frame[column], semantic.get("sizes"), norm, default=default, attr="linewidth"),
    )
    _safe_numeric_legend(
        ax,
        ax.lines[n_lines:],
        frame,
        [spec],
        legend_entries,
        is_title=lambda artist: not artist.get_visible(),
    )
    if ax.get_legend() is not None:
        adjust_legend_subtitles(ax.get_legend())
