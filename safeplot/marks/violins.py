"""Draw released violins and letter-value boxes on an Axes, with seaborn's look.

The marks take a :class:`~safeplot.plots.violin.ViolinRelease` or a
:class:`~safeplot.plots.boxen.BoxenRelease`: per group (category x hue
level) the released density curve, box statistics, quantiles or values. They
never see a record; every coordinate they draw is a number of the release or
a position along the category axis.
"""

from __future__ import annotations

from colorsys import rgb_to_hls
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.patches import Patch, Rectangle
from matplotlib.transforms import ScaledTranslation

from ._axes import note_below, set_safe_axis
from ._style import level_colors

__all__ = ["NOTE_GID", "draw_boxens", "draw_violins"]

#: gid of the note under the axis saying what was left out.
NOTE_GID = "safeplot-groups-left-out"


def _desaturated(colour: Any, saturation: float) -> Any:
    import seaborn as sns

    return sns.desaturate(colour, saturation) if saturation < 1 else mpl.colors.to_rgb(colour)


def _hue_colours(rel: Any, palette: Any, saturation: float) -> dict:
    """Fill colour of each hue level, desaturated as seaborn does (``{}`` without hue)."""
    if rel.hue_levels is None:
        return {}
    levels = list(rel.hue_levels)
    return {
        h: _desaturated(c, saturation)
        for h, c in zip(levels, level_colors(levels, palette), strict=True)
    }


def _colours(rel: Any, color: Any, palette: Any, saturation: float) -> list:
    """Fill colour of each group: the hue level's, else one colour, desaturated as seaborn does."""
    if rel.hue_levels is not None:
        lookup = _hue_colours(rel, palette, saturation)
        return [lookup[h] for _, h in rel.groups]
    if color is None:
        color = mpl.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])[0]
    return [_desaturated(color, saturation)] * len(rel.groups)


def _line_colour(colours: list, linecolor: Any) -> Any:
    """Return the automatic line colour, as seaborn picks it: a grey darker than the fill."""
    if linecolor not in (None, "auto"):
        return linecolor
    light = [rgb_to_hls(*mpl.colors.to_rgb(c))[1] for c in colours] or [0.5]
    lum = min(light) * 0.6
    return (lum, lum, lum)


def _positions(rel: Any, dodge: Any, width: float, gap: float) -> tuple[np.ndarray, np.ndarray]:
    """Centre and width of each group's slot along the category axis, as seaborn dodges them."""
    levels = rel.levels if rel.levels is not None else [None]
    cat_index = {lev: i for i, lev in enumerate(levels)}
    pos = np.array([float(cat_index.get(c, 0)) for c, _ in rel.groups])
    widths = np.full(len(rel.groups), float(width))
    if rel.hue_levels is not None:
        if dodge == "auto":
            dodge = any(sum(1 for c, _ in rel.groups if c == lev) > 1 for lev in levels)
        if dodge:
            n = len(rel.hue_levels)
            hue_index = {h: j for j, h in enumerate(rel.hue_levels)}
            step = width / n
            pos = (
                pos + np.array([step * hue_index[h] for _, h in rel.groups]) + step / 2 - width / 2
            )
            widths[:] = step
    if gap:
        widths = widths * (1 - gap)
    return pos, widths


def _category_axis(ax: Axes, rel: Any) -> None:
    """Ticks, labels and limits of the category axis, as seaborn sets them."""
    levels = rel.levels if rel.levels is not None else [None]
    n = len(levels)
    axis = ax.xaxis if rel.orient == "x" else ax.yaxis
    if rel.levels is not None:
        axis.set_ticks(np.arange(n), [str(lev) for lev in levels])
    else:
        axis.set_ticks([])
    axis.grid(False)
    if rel.orient == "x":
        ax.set_xlim(-0.5, n - 0.5)
    else:
        ax.set_ylim(n - 0.5, -0.5)
    names = rel.names
    (ax.set_xlabel if rel.orient == "x" else ax.set_ylabel)(names.get("cat") or "")
    (ax.set_ylabel if rel.orient == "x" else ax.set_xlabel)(names.get("value") or "")


def _legend(ax: Axes, rel: Any, hue_colours: dict, edge: Any, fill: bool, legend: Any) -> None:
    """Draw the legend of the hue levels, as seaborn does.

    Every level of the release has an entry, a level named in ``hue_order=``
    with nothing drawn included (seaborn keeps it too).
    """
    if rel.hue_levels is None or not legend:
        return
    if rel.levels is not None and rel.names.get("hue") == rel.names.get("cat"):
        return
    handles = [
        Patch(
            facecolor=hue_colours[h] if fill else "none",
            edgecolor=edge if fill else hue_colours[h],
            label=str(h),
        )
        for h in rel.hue_levels
    ]
    ax.legend(handles=handles, title=rel.names.get("hue") or None, loc="best")


def _notes(ax: Axes, rel: Any) -> None:
    if rel.notes:
        note_below(ax, "; ".join(rel.notes), NOTE_GID)


def _segments(orient: str, pos: Any, val: Any) -> tuple[Any, Any]:
    return (pos, val) if orient == "x" else (val, pos)


def draw_violins(
    ax: Axes,
    rel: Any,
    *,
    color: Any = None,
    palette: Any = None,
    saturation: float = 0.75,
    fill: bool = True,
    dodge: Any = "auto",
    width: float = 0.8,
    gap: float = 0,
    linewidth: float | None = None,
    linecolor: Any = "auto",
    legend: Any = "auto",
    inner_kws: dict[str, Any] | None = None,
    kwargs: dict[str, Any] | None = None,
    split: bool = False,
) -> None:
    """Draw released violins: each group's density curve mirrored about its slot.

    Parameters
    ----------
    ax : Axes
    rel : ViolinRelease
        Per group the support and released density, the box statistics or
        quartiles of the inner mark, or released values (sticks, points).
    color, palette, saturation, fill, dodge, width, gap, linewidth, linecolor, legend
        As in :func:`seaborn.violinplot`.
    inner_kws, kwargs : dict, optional
        Passed to the inner marks and to the violin bodies.
    split : bool, default False
        As in seaborn: each hue level draws one half of a violin, the first
        (third, ...) level on the left of its slot and the second on the right,
        at twice the half-width.
    """
    inner_kws = dict(inner_kws or {})
    kwargs = dict(kwargs or {})
    if linewidth is None:
        linewidth = (
            1.25 * mpl.rcParams["patch.linewidth"] if fill else mpl.rcParams["lines.linewidth"]
        )
    colours = _colours(rel, color, palette, saturation)
    edge = _line_colour(colours, linecolor)
    pos, widths = _positions(rel, dodge, width, gap)
    peaks = [float(np.max(d)) if d.size else np.nan for d in rel.density]
    norm_keys = [h for _, h in rel.groups] if not rel.common_norm else [None] * len(rel.groups)
    max_density = {
        key: np.nanmax([p for p, k in zip(peaks, norm_keys, strict=True) if k == key] or [np.nan])
        for key in set(norm_keys)
    }
    max_count = {
        key: max([n for n, k in zip(rel.counts, norm_keys, strict=True) if k == key] or [1])
        for key in set(norm_keys)
    }
    box_width = inner_kws.pop("box_width", linewidth * 4.5)
    whis_width = inner_kws.pop("whis_width", box_width / 3)
    marker = inner_kws.pop("marker", "_" if rel.orient == "x" else "|")
    hue_index = {h: j for j, h in enumerate(rel.hue_levels or [])}
    for g in range(len(rel.groups)):
        support, density = rel.support[g], rel.density[g]
        if not support.size:
            continue
        face = colours[g] if fill else "none"
        line = edge if fill else colours[g]
        hw = widths[g] / 2
        if rel.density_norm == "area":
            span = density / max_density[norm_keys[g]]
        elif rel.density_norm == "count":
            span = density / peaks[g] * (rel.counts[g] / max_count[norm_keys[g]])
        else:
            span = density / peaks[g]
        span = span * hw * (2 if split else 1)
        # seaborn's asymmetric spans: a split violin's halves meet at the slot's centre
        right = hue_index.get(rel.groups[g][1], 0) % 2 if split else 0
        if split:
            edge_half = np.full_like(span, hw)
            lo, hi = (edge_half, span - hw) if right else (span - hw, edge_half)
        else:
            lo, hi = span, span
        shift = ((-1 if right else 1) * hw) if split else 0.0
        body = ax.fill_betweenx if rel.orient == "x" else ax.fill_between
        body(
            support, pos[g] - lo, pos[g] + hi,
            **{"facecolor": face, "edgecolor": line, "linewidth": linewidth, **kwargs},
        )  # fmt: skip
        if rel.inner is None:
            continue
        if rel.inner == "point":
            obs = rel.values[g]
            xy = _segments(rel.orient, np.full(obs.size, pos[g] + shift), obs)
            ax.scatter(
                *xy,
                **{"color": line, "edgecolor": line, "s": (linewidth * 2) ** 2, "zorder": 3,
                   **inner_kws},
            )  # fmt: skip
        elif rel.inner == "stick":
            obs = rel.values[g]
            reach0, reach1 = np.interp(obs, support, lo), np.interp(obs, support, hi)
            segs = [
                np.array(_segments(rel.orient, [pos[g] - r0, pos[g] + r1], [v, v])).T
                for v, r0, r1 in zip(obs, reach0, reach1, strict=True)
            ]
            ax.add_collection(
                LineCollection(segs, **{"color": line, "linewidth": linewidth / 2, **inner_kws}),
                autolim=False,
            )
        elif rel.inner == "quart":
            stats = rel.quartiles[g]
            if stats is None:
                continue
            reach0, reach1 = np.interp(stats, support, lo), np.interp(stats, support, hi)
            dashes = [(1.25, 0.75), (2.5, 1), (1.25, 0.75)]
            for i, (v, r0, r1) in enumerate(zip(stats, reach0, reach1, strict=True)):
                ax.plot(
                    *_segments(rel.orient, [pos[g] - r0, pos[g] + r1], [v, v]),
                    **{"color": line, "linewidth": linewidth, "dashes": dashes[i], **inner_kws},
                )
        elif rel.inner == "box":
            box = rel.boxes[g]
            if box is None:
                continue
            trans = ax.transData
            if split:
                # the box sits beside the halves' common edge, half its width away
                offset = (1 if right else -1) * box_width / 72 / 2
                dx, dy = (offset, 0) if rel.orient == "x" else (0, -offset)
                trans = trans + ScaledTranslation(dx, dy, ax.figure.dpi_scale_trans)
            at = pos[g] + shift
            common = {"color": line, "transform": trans, **inner_kws}
            ax.plot(
                *_segments(rel.orient, [at, at], [box.whislo, box.whishi]),
                **common, linewidth=whis_width,
            )  # fmt: skip
            ax.plot(
                *_segments(rel.orient, [at, at], [box.q1, box.q3]),
                **common, linewidth=box_width,
            )  # fmt: skip
            ax.plot(
                *_segments(rel.orient, [at], [box.med]), transform=trans,
                marker=marker, markersize=box_width / 1.2, markeredgewidth=box_width / 5,
                markeredgecolor="w", markerfacecolor="w", color=line, linestyle="none",
            )  # fmt: skip
    _category_axis(ax, rel)
    set_safe_axis(ax, rel.value_axis, rel.value_lim, rel.value_ticks)
    _legend(ax, rel, _hue_colours(rel, palette, saturation), edge, fill, legend)
    _notes(ax, rel)


def draw_boxens(
    ax: Axes,
    rel: Any,
    *,
    color: Any = None,
    palette: Any = None,
    saturation: float = 0.75,
    fill: bool = True,
    dodge: Any = "auto",
    width: float = 0.8,
    gap: float = 0,
    linewidth: float | None = None,
    linecolor: Any = "auto",
    width_method: str = "exponential",
    showfliers: bool = True,
    legend: Any = "auto",
    box_kws: dict[str, Any] | None = None,
    flier_kws: dict[str, Any] | None = None,
    line_kws: dict[str, Any] | None = None,
) -> None:
    """Draw released letter-value boxes: nested boxes between released quantiles.

    Parameters
    ----------
    ax : Axes
    rel : BoxenRelease
        Per group the released letter values (``2k`` quantiles, ascending),
        the median, and released outliers.
    color, palette, saturation, fill, dodge, width, gap, linewidth, linecolor
        As in :func:`seaborn.boxenplot`.
    width_method : {"exponential", "linear", "area"}
        How box widths shrink with depth, as seaborn.
    showfliers, legend, box_kws, flier_kws, line_kws
        As in :func:`seaborn.boxenplot`.
    """
    from seaborn import light_palette

    box_kws = dict(box_kws or {})
    flier_kws = dict(flier_kws or {})
    line_kws = dict(line_kws or {})
    if linewidth is None:
        linewidth = (0.5 if fill else 1.0) * mpl.rcParams["lines.linewidth"]
    colours = _colours(rel, color, palette, saturation)
    edge = _line_colour(colours, linecolor)
    pos, widths = _positions(rel, dodge, width, gap)
    for g in range(len(rel.groups)):
        vals = np.asarray(rel.letter_values[g], dtype=float)
        k = vals.size // 2
        if not k:
            continue
        levels = k + 1 - np.concatenate([np.arange(k + 1, 1, -1), np.arange(2, k + 2)[1:]])
        exponent = (levels - 1 - k).astype(float)
        if width_method == "linear":
            rel_widths = levels + 1.0
        elif width_method == "area":
            tails = levels < (k - 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                rel_widths = 2 ** (exponent - tails) / np.diff(vals)
            rel_widths = np.nan_to_num(rel_widths, nan=0.0, posinf=0.0)
        else:
            rel_widths = 2**exponent
        peak = rel_widths.max() if rel_widths.max() > 0 else 1.0
        box_w = rel_widths / peak * widths[g]
        main = colours[g]
        boxes = []
        for i in range(2 * k - 1):
            lo, hi = vals[i], vals[i + 1]
            if rel.orient == "x":
                boxes.append(Rectangle((pos[g] - box_w[i] / 2, lo), box_w[i], hi - lo))
            else:
                boxes.append(Rectangle((lo, pos[g] - box_w[i] / 2), hi - lo, box_w[i]))
        if fill:
            cmap = light_palette(main, as_cmap=True)
            paint = {"facecolors": cmap(2 ** ((exponent + 2) / 3)), "edgecolors": edge}
        else:
            paint = {"facecolors": "none", "edgecolors": main}
        ax.add_collection(
            PatchCollection(boxes, **{**paint, "linewidth": linewidth, **box_kws}), autolim=False
        )
        hw = widths[g] / 2
        ax.plot(
            *_segments(rel.orient, [pos[g] - hw, pos[g] + hw], [rel.medians[g]] * 2),
            **{
                "color": edge if fill else main,
                "solid_capstyle": "butt",
                "linewidth": 1.25 * linewidth,
                **line_kws,
            },
        )
        fliers = np.asarray(rel.fliers[g], dtype=float)
        if showfliers and fliers.size:
            ax.scatter(
                *_segments(rel.orient, np.full(fliers.size, pos[g]), fliers),
                **{
                    "facecolor": "none",
                    "edgecolor": ".45" if fill else main,
                    "s": 25,
                    **flier_kws,
                },
            )
    _category_axis(ax, rel)
    set_safe_axis(ax, rel.value_axis, rel.value_lim, rel.value_ticks)
    _legend(ax, rel, _hue_colours(rel, palette, saturation), edge, fill, legend)
    _notes(ax, rel)
