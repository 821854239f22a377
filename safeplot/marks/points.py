"""Points: released scatter points or grid cells, with seaborn's hue, size and style.

:func:`draw_scatter` draws a release of two plain variables;
:func:`draw_semantic` hands a released frame to :func:`seaborn.scatterplot`,
so palettes, sizes, markers and legends look as in seaborn, then makes the
brief numeric legends show the entries it is given (chosen by the plot, which
knows the values no entry may equal) and marks shared points.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D

from ..release import PointRelease
from ._axes import quiet_seaborn, set_safe_axis
from ._large import distinct_rows, is_large, mark_shared
from ._style import semantic_type
from .boxes import draw_boxes

__all__ = [
    "BRIEF_TICKS",
    "LegendEntries",
    "SemanticPoints",
    "draw_categorical_points",
    "draw_rug",
    "draw_scatter",
    "draw_semantic",
]

#: Entries seaborn aims for in a "brief" numeric legend (its locator's ``nbins``).
BRIEF_TICKS = 6

#: Chooses a brief numeric legend's entries: ``(values, log=...) -> (levels, labels)``.
LegendEntries = Callable[..., tuple[np.ndarray, list[str]]]


class SemanticPoints(Protocol):
    """What a scatter release with semantics gives its drawing (``ScatterRelease``).

    Attributes
    ----------
    frame : DataFrame
        One row per marker.
    columns : dict
        Role ("x", "y", "hue", "size", "style") -> column of `frame`.
    xlim, ylim : tuple of float, or None
        Axis limits (None only for raw output); `xticks`, `yticks` the ticks.
    coincident : ndarray of bool or None
        Rows whose released point is shared with another record.
    cells : bool
        The markers are grid cells and ``columns["size"]`` holds their counts.
    """

    frame: pd.DataFrame
    columns: dict[str, str]
    xlim: tuple[float, float] | None
    ylim: tuple[float, float] | None
    xticks: np.ndarray | None
    yticks: np.ndarray | None
    coincident: np.ndarray | None
    cells: bool


def draw_scatter(
    ax: Axes,
    release: Any,
    *,
    color: Any = None,
    mark_coincident: bool = False,
    s: float = 12,
) -> Axes:
    """Draw a released scatter: points, grid-cell centres sized by count, or parallel boxes.

    The report is not attached (:func:`safeplot.plots.relational.draw_scatter`
    does that).

    Parameters
    ----------
    ax : Axes
    release : PointRelease or BoxScatterRelease
    color : colour, optional
    mark_coincident : bool, default False
        Draw points whose released value is shared with other records in
        black, as Avraam et al. do for coinciding centroids.
    s : float, default 12
        Marker area for unweighted points (the median area for weighted ones).

    Returns
    -------
    Axes
    """
    if not isinstance(release, PointRelease):
        draw_boxes(ax, release, colors=[color or "C0"], legend=False)
        ax.set_xlabel(release.report.variables[0])
        ax.set_ylabel(release.report.variables[1])
        return ax
    if release.sizes is not None:
        if release.sizes.size:
            area = s * release.sizes / np.median(release.sizes)
            ax.scatter(release.x, release.y, s=area, color=color, alpha=0.7, linewidths=0)
    elif is_large(release.x.size):
        # many points: each distinct one once, the layer rasterised; coinciding ones black only
        # when asked, as below the limit
        keep, _ = distinct_rows([release.x, release.y])
        kws = {"s": s, "color": color, "alpha": 0.6, "linewidths": 0, "rasterized": True}
        coll = ax.scatter(release.x[keep], release.y[keep], **kws)
        if mark_coincident and release.coincident is not None:
            mark_shared(ax, coll, release.coincident[keep])
    else:
        ax.scatter(release.x, release.y, s=s, color=color, alpha=0.6, linewidths=0)
        if mark_coincident and release.coincident is not None and release.coincident.any():
            c = release.coincident
            ax.scatter(release.x[c], release.y[c], s=s, color="black", linewidths=0)
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    set_safe_axis(ax, "y", release.ylim, release.yticks)
    ax.set_xlabel(release.report.variables[0])
    ax.set_ylabel(release.report.variables[1])
    return ax


# -- brief numeric legends -----------------------------------------------------------------


@dataclass
class _NumericLegend:
    """A numeric hue or size whose legend is "brief": a few round numbers, not every value."""

    column: str
    log: bool
    attrs: Callable[[Any], dict[str, Any]]


def cell_pitch(ax: Axes, x: Any, y: Any, xlim: Any = None, ylim: Any = None) -> float | None:
    """Return the spacing of grid cells drawn at `x`, `y`, in points (None: one cell).

    The spacing is that of the closest distinct positions along each axis,
    measured on the Axes as it is sized now, with limits `xlim`, `ylim`
    (default: the Axes' own); the smaller of the two.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(figsize=(4, 4))
    >>> round(float(cell_pitch(ax, [1.0, 2.0, 3.0], [5.0, 5.0, 7.0], (0, 10), (0, 10))), 1)
    22.3
    >>> plt.close(fig)
    """
    bbox = ax.get_window_extent()
    points = 72.0 / ax.figure.dpi
    out = []
    for values, lim, length in (
        (x, ax.get_xlim() if xlim is None else xlim, bbox.width),
        (y, ax.get_ylim() if ylim is None else ylim, bbox.height),
    ):
        steps = np.diff(np.unique(np.asarray(values, dtype=float)))
        span = abs(lim[1] - lim[0])
        if steps.size and span > 0:
            out.append(float(steps.min() / span * length * points))
    return min(out) if out else None


def _hue_colour(values: pd.Series, palette: Any, norm: Any) -> Callable[[Any], dict[str, Any]]:
    """Return the colour seaborn gives a value of a numeric hue (its colormap at the norm)."""
    import seaborn as sns

    lookup: dict[Any, Any] = {}
    if isinstance(palette, dict):
        lookup = dict(palette)
        cmap = mpl.colors.ListedColormap([palette[key] for key in sorted(palette)])
    elif isinstance(palette, mpl.colors.Colormap):
        cmap = palette
    else:
        cmap = sns.color_palette("ch:" if palette is None else palette, as_cmap=True)
    if norm is None:
        norm = mpl.colors.Normalize()
    elif isinstance(norm, tuple):
        norm = mpl.colors.Normalize(*norm)
    if not norm.scaled():
        norm(np.asarray(values.dropna()))

    def attrs(value: Any) -> dict[str, Any]:
        if value in lookup:
            return {"color": lookup[value]}
        normed = norm(value)
        return {"color": cmap(np.nan if np.ma.is_masked(normed) else normed)}

    return attrs


def _size_area(
    values: pd.Series, sizes: Any, norm: Any, default: Any = None, attr: str = "s"
) -> Callable[[Any], dict[str, Any]]:
    """Return the marker area seaborn gives a value of a numeric size (linear in the norm).

    With `default` (seaborn's default range of the artist) and `attr` (e.g.
    ``"linewidth"``), the same for another artist size, such as line widths.
    """
    lookup: dict[Any, Any] = {}
    if isinstance(sizes, dict):
        lookup = dict(sizes)
        levels = np.sort(list(sizes))
        lo, hi = min(sizes.values()), max(sizes.values())
    else:
        levels = np.sort(values.dropna().unique())
        if default is None:
            default = np.r_[0.5, 2] * np.square(mpl.rcParams["lines.markersize"])
        lo, hi = sizes if isinstance(sizes, tuple) else default
    if norm is None:
        norm = mpl.colors.Normalize()
    elif isinstance(norm, tuple):
        norm = mpl.colors.Normalize(*norm)
    else:
        norm = copy.copy(norm)
    norm.clip = True
    if not norm.scaled():
        norm(levels)

    def attrs(value: Any) -> dict[str, Any]:
        if value in lookup:
            return {attr: lookup[value]}
        normed = norm(value)
        return {attr: lo + (np.nan if np.ma.is_masked(normed) else normed) * (hi - lo)}

    return attrs


def _brief_numeric_legends(
    frame: pd.DataFrame,
    cols: dict[str, str],
    legend: Any,
    *,
    palette: Any,
    hue_norm: Any,
    sizes: Any,
    size_norm: Any,
) -> list[_NumericLegend]:
    """Return the numeric hue and size seaborn gives a brief legend (``legend=`` decides)."""
    verbosity = "auto" if legend is True else legend
    out: list[_NumericLegend] = []
    if verbosity not in ("auto", "brief"):
        return out
    for role, norm in (("hue", hue_norm), ("size", size_norm)):
        column = cols.get(role)
        if column is None:
            continue
        values = frame[column]
        if semantic_type(role, values, palette, norm, sizes) != "numeric":
            continue
        given = palette if role == "hue" else sizes
        n_levels = len(given) if isinstance(given, dict) else values.dropna().nunique()
        if verbosity == "auto" and n_levels <= BRIEF_TICKS:
            continue  # seaborn lists every value drawn
        attrs = (
            _hue_colour(values, palette, norm)
            if role == "hue"
            else _size_area(values, sizes, norm)
        )
        out.append(_NumericLegend(column, isinstance(norm, mpl.colors.LogNorm), attrs))
    return out


def _entry_like(template: Line2D, value: Any, label: str, specs: list[_NumericLegend]) -> Line2D:
    """Return a legend entry drawn as `template` (a seaborn entry), with the look of `value`."""
    entry = Line2D([], [])
    entry.update_from(template)
    entry.set_label(label)
    face_follows = mpl.colors.same_color(template.get_markerfacecolor(), template.get_color())
    edge_follows = mpl.colors.same_color(template.get_markeredgecolor(), template.get_color())
    for spec in specs:
        for attr, setting in spec.attrs(value).items():
            if attr == "color":
                entry.set_color(setting)
                if face_follows:
                    entry.set_markerfacecolor(setting)
                if edge_follows:
                    entry.set_markeredgecolor(setting)
            elif attr == "linewidth":
                entry.set_linewidth(setting)
            else:
                entry.set_markersize(np.sqrt(setting))
    return entry


def _safe_numeric_legend(
    ax: Axes,
    artists: list[Any],
    frame: pd.DataFrame,
    numeric: list[_NumericLegend],
    legend_entries: LegendEntries,
    is_title: Callable[[Line2D], bool] | None = None,
) -> None:
    """Give every brief numeric sub-legend the entries `legend_entries` chooses.

    seaborn has drawn the legend from the released data: a sub-legend per
    variable (a title entry without a marker, then its entries; with one
    variable the legend's title names it). The entries of a numeric hue or
    size are a locator's round numbers over the released range, and one of
    them may be a rare raw value. Each such sub-legend whose entries are not
    the chosen ones gets them, drawn like seaborn's, and the legend is drawn
    again with the same call seaborn makes. `is_title` tells a title entry
    (default: no marker, or invisible, as in a scatter plot's legend).
    """
    legend = ax.get_legend()
    entries = [a for a in artists if isinstance(a, Line2D) and not a.get_label().startswith("_")]
    if legend is None or not entries:
        return
    title = legend.get_title().get_text()
    groups: list[tuple[str, Line2D | None, list[Line2D]]] = []
    if is_title is None:

        def is_title(artist: Line2D) -> bool:
            return artist.get_marker() in ("", "None", " ") or not artist.get_visible()

    for artist in entries:
        if is_title(artist):
            groups.append((artist.get_label(), artist, []))
        elif groups:
            groups[-1][2].append(artist)
        else:
            groups.append((title, None, [artist]))
    changed = False
    rebuilt: list[Line2D] = []
    for name, head, levels in groups:
        specs = [spec for spec in numeric if spec.column == name]
        if specs and levels:
            values, labels = legend_entries(frame[name], log=specs[0].log)
            if [a.get_label() for a in levels] != labels:
                levels = [
                    _entry_like(levels[0], v, lab, specs)
                    for v, lab in zip(values, labels, strict=True)
                ]
                changed = True
        rebuilt += ([] if head is None else [head]) + levels
    if not changed:
        return
    legend.remove()
    for artist in entries:
        artist.remove()
    for artist in rebuilt:
        ax.add_artist(artist)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(title=title)


# -- seaborn's scatterplot of a release -----------------------------------------------------


def draw_semantic(
    ax: Axes,
    rel: SemanticPoints,
    *,
    palette: Any,
    hue_order: Any,
    hue_norm: Any,
    sizes: Any,
    size_order: Any,
    size_norm: Any,
    markers: Any,
    style_order: Any,
    legend: Any,
    mark_coincident: bool,
    kwargs: dict[str, Any],
    legend_entries: LegendEntries,
) -> None:
    """Draw a released scatter with its hue, size and style by :func:`seaborn.scatterplot`.

    Grid cells get marker areas proportional to their counts (the largest
    ``sizes`` or seaborn's default at the largest count) and a brief legend.
    Above :data:`~safeplot.marks._large.LARGE_N` markers each distinct one is
    drawn once, rasterised. At any n, with `mark_coincident`, points shared by
    several records are drawn black (above the limit in a layer of their own,
    with a note saying what black means); without it nothing is marked.

    Parameters
    ----------
    ax : Axes
    rel : SemanticPoints
        A ``ScatterRelease``.
    palette, hue_order, hue_norm, sizes, size_order, size_norm, markers, style_order, legend
        As :func:`seaborn.scatterplot`.
    mark_coincident : bool
        Draw points shared by several records black.
    kwargs : dict
        Passed to :func:`seaborn.scatterplot`.
    legend_entries : callable
        ``legend_entries(values, log=...) -> (levels, labels)``: the entries
        of a brief numeric legend of the released `values`
        (:func:`safeplot.plots.relational.brief_legend_entries` with the
        release's ``avoid``). Every brief numeric legend shows these.
    """
    import seaborn as sns

    cols = rel.columns
    semantic = {r: cols.get(r) for r in ("hue", "size", "style")}
    if rel.cells:
        counts = rel.frame[cols["size"]].to_numpy(dtype=float)
        if counts.size:
            largest = (sizes if np.ndim(sizes) == 0 else sizes[-1]) if sizes is not None else None
            if largest is None:
                largest = (
                    np.square(mpl.rcParams["lines.markersize"]) * counts.max() / np.median(counts)
                )
                # the fullest cell's marker fits its cell, so markers never cover their
                # neighbours (or the legend the data), however skewed the counts are
                pitch = cell_pitch(
                    ax, rel.frame[cols["x"]], rel.frame[cols["y"]], rel.xlim, rel.ylim
                )
                if pitch is not None:
                    largest = min(largest, pitch**2)
            sizes, size_norm = (0.0, float(largest)), (0.0, float(counts.max()))
        if legend == "auto":
            legend = "brief"
    frame, coincident, large = rel.frame, rel.coincident, False
    if not rel.cells and is_large(len(frame)):
        # many released points: each distinct marker once and the point layer rasterised, so
        # renders and vector files stay small; text stays vector. What a marker means does
        # not change: coinciding ones are black only with mark_coincident, as below the limit
        roles = [c for c in dict.fromkeys(cols.values()) if c in frame.columns]
        keep, _ = distinct_rows([frame[c].to_numpy() for c in roles])
        large = True
        frame = frame.iloc[keep]
        coincident = None if coincident is None else coincident[keep]
        kwargs = {"rasterized": True, **kwargs}
    n_before, n_lines = len(ax.collections), len(ax.lines)
    with quiet_seaborn():
        sns.scatterplot(
            data=frame,
            x=cols["x"],
            y=cols["y"],
            **semantic,
            palette=palette,
            hue_order=hue_order,
            hue_norm=hue_norm,
            sizes=sizes,
            size_order=size_order,
            size_norm=size_norm,
            markers=markers,
            style_order=style_order,
            legend=legend,
            ax=ax,
            **kwargs,
        )
    numeric = _brief_numeric_legends(
        frame,
        {r: c for r, c in semantic.items() if c is not None},
        legend,
        palette=palette,
        hue_norm=hue_norm,
        sizes=sizes,
        size_norm=size_norm,
    )
    if numeric:
        _safe_numeric_legend(ax, ax.lines[n_lines:], frame, numeric, legend_entries)
    if mark_coincident and coincident is not None and coincident.any():
        for coll in ax.collections[n_before:]:
            if not isinstance(coll, PathCollection) or len(coll.get_offsets()) != len(frame):
                continue
            if large:
                # a layer of its own keeps one face colour per layer (Agg's fast marker path)
                mark_shared(ax, coll, coincident)
            else:
                face = np.asarray(coll.get_facecolors())
                face = np.repeat(face[:1], len(frame), axis=0) if len(face) == 1 else face
                face[coincident] = mpl.colors.to_rgba("black")
                coll.set_facecolors(face)
            break
    if rel.xlim is not None:
        set_safe_axis(ax, "x", rel.xlim, rel.xticks)
        set_safe_axis(ax, "y", rel.ylim, rel.yticks)


def draw_categorical_points(
    ax: Axes, rel: Any, kind: str, style: dict[str, Any], kwargs: dict[str, Any]
) -> None:
    """Draw released values per category with seaborn's ``stripplot`` or ``swarmplot``.

    Parameters
    ----------
    ax : Axes
    rel : StripRelease
        The released values, the category and hue level of each, the levels
        drawn (only those are named), names, and the value axis' limits and ticks.
    kind : {"strip", "swarm"}
        seaborn's jitter or swarm layout along the category axis.
    style, kwargs : dict
        seaborn's appearance arguments, and matplotlib's.
    """
    import seaborn as sns

    names = rel.names
    cols: dict[str, str] = {}
    for role in ("cat", "value", "hue"):
        name = names.get(role) or role
        while name in cols.values():
            name = f"{name} "
        cols[role] = name
    frame = pd.DataFrame({cols["value"]: np.asarray(rel.values, dtype=float)})
    roles: dict[str, Any] = {}
    if rel.categories is not None:
        frame[cols["cat"]] = pd.Categorical(
            np.array(rel.categories, dtype=object), categories=rel.levels
        )
        roles["order"] = rel.levels
    if rel.hues is not None:
        frame[cols["hue"]] = np.array(rel.hues, dtype=object)
        roles["hue"] = cols["hue"]
        roles["hue_order"] = rel.hue_levels
    cat = cols["cat"] if rel.categories is not None else None
    xy = {"x": cat, "y": cols["value"]} if rel.orient == "x" else {"x": cols["value"], "y": cat}
    with quiet_seaborn():
        getattr(sns, f"{kind}plot")(
            frame, **xy, orient=rel.orient if cat else None, ax=ax, **roles, **style, **kwargs
        )
    (ax.set_xlabel if rel.orient == "x" else ax.set_ylabel)(names.get("cat") or "")
    (ax.set_ylabel if rel.orient == "x" else ax.set_xlabel)(names.get("value") or "")
    legend = ax.get_legend()
    if legend is not None and not names.get("hue"):
        legend.set_title(None)
    set_safe_axis(ax, "y" if rel.orient == "x" else "x", rel.value_lim, rel.value_ticks)


def draw_rug(
    ax: Axes, rel: Any, style: dict[str, Any], kwargs: dict[str, Any], *, set_axes: bool
) -> None:
    """Draw a released rug with :func:`seaborn.rugplot`: a tick at each released value.

    Parameters
    ----------
    ax : Axes
    rel : RugRelease
        Released values per axis, the hue level of each, the levels drawn,
        and each axis' limits and ticks.
    style, kwargs : dict
        seaborn's appearance arguments, and matplotlib's.
    set_axes : bool
        Give the rug's axes the released limits and ticks (an empty Axes);
        otherwise the plot underneath keeps its own.
    """
    import seaborn as sns

    cols = {a: (rel.names.get(a) or a) for a in rel.values}
    if len(set(cols.values())) < len(cols):
        cols = {a: f"{name} ({a})" for a, name in cols.items()}
    frame = pd.DataFrame({cols[a]: np.asarray(v, dtype=float) for a, v in rel.values.items()})
    semantic: dict[str, Any] = {}
    if rel.hues is not None:
        hue = rel.names.get("hue") or "hue"
        while hue in frame:
            hue = f"{hue} "
        frame[hue] = pd.Categorical(np.array(rel.hues, dtype=object), categories=rel.hue_levels)
        semantic = {"hue": hue, "hue_order": rel.hue_levels}
    with quiet_seaborn():
        sns.rugplot(frame, x=cols.get("x"), y=cols.get("y"), ax=ax, **semantic, **style, **kwargs)
    if set_axes:
        for a in rel.values:
            set_safe_axis(ax, a, rel.limits[a], rel.ticks[a])
