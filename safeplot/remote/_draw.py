"""Draw a release that came from a server, with the marks the local call uses.

One function per plot, each the drawing half of its local function: the
local function builds a release and draws it; here the release comes from
the server and only the drawing half runs, with the same mark helpers and
the same defaults (read from the local function's signature).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from ..plots._common import finish, get_ax, quiet_seaborn, set_safe_axis
from ..policy import get_policy
from ._calls import CallRelease, _function

__all__ = ["DRAWS", "draw"]


def _defaults(function: str, given: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """Return the local function's defaults for `names`, with what the analyst gave instead."""
    sig = inspect.signature(_function(function))
    return {n: given.get(n, sig.parameters[n].default) for n in names}


def _histplot(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    import seaborn as sns

    from ..plots.distributions import _COUNT, _drawn_frame

    releases = call.releases
    report = call.reports[0]
    var = args["x"]
    hue_col = args.get("hue")
    if hue_col == var:
        hue_col = f"{hue_col} "
    drawn = _drawn_frame(releases, var, hue_col)
    kws = _defaults(
        "histplot",
        style,
        (
            "cumulative",
            "common_norm",
            "multiple",
            "element",
            "fill",
            "shrink",
            "palette",
            "hue_norm",
            "color",
            "legend",
        ),
    )
    kws["element"] = args.get("element", kws["element"])
    if len(drawn):
        with quiet_seaborn():
            sns.histplot(
                data=drawn,
                x=var,
                hue=hue_col,
                weights=_COUNT,
                stat=report.details.get("stat", "count"),
                bins=releases[0].edges.tolist(),
                hue_order=[r.level for r in releases] if hue_col else None,
                ax=ax,
                **kws,
                **kwargs,
            )
    set_safe_axis(ax, "x", releases[0].xlim, releases[0].xticks)
    ax.set_xlabel(var)


def _scatterplot(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    from ..marks._axes import note_below
    from ..marks._style import level_colors
    from ..marks.boxes import draw_boxes
    from ..marks.points import draw_semantic
    from ..methods import get_method
    from ..plots._boxes import BoxScatterRelease
    from ..plots._common import LEFT_OUT_NOTE
    from ..plots.relational import LEFT_OUT_GID, brief_legend_entries

    (rel,) = call.releases
    kws = _defaults(
        "scatterplot",
        style,
        (
            "palette",
            "hue_norm",
            "sizes",
            "size_order",
            "size_norm",
            "markers",
            "style_order",
            "legend",
            "mark_coincident",
        ),
    )
    if isinstance(rel, BoxScatterRelease):
        hue = args.get("hue")
        colors = level_colors(rel.levels, kws["palette"]) if hue else [kwargs.get("color", "C0")]
        draw_boxes(ax, rel, colors=colors, legend=kws["legend"], title=hue)
        ax.set_xlabel(args["x"])
        ax.set_ylabel(args["y"])
        if rel.report.details.get("groups_left_out"):
            note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
        return
    draw_semantic(
        ax,
        rel,
        palette=kws["palette"],
        hue_order=args.get("hue_order"),
        hue_norm=kws["hue_norm"],
        sizes=kws["sizes"],
        size_order=kws["size_order"],
        size_norm=kws["size_norm"],
        markers=kws["markers"],
        style_order=kws["style_order"],
        legend=kws["legend"],
        mark_coincident=kws["mark_coincident"] and get_method(rel.report.method).marks_coincident,
        kwargs=kwargs,
        legend_entries=brief_legend_entries,
    )
    if rel.notes:
        # groups left out (DESIGN invariant 10): the same note as the local figure
        note_below(ax, "\n".join(rel.notes), LEFT_OUT_GID)


def _boxplot(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    from ..plots.categorical import _draw_boxplot

    (rel,) = call.releases
    seaborn_kws = _defaults(
        "boxplot",
        style,
        (
            "color",
            "palette",
            "saturation",
            "fill",
            "dodge",
            "width",
            "gap",
            "linecolor",
            "linewidth",
            "hue_norm",
            "native_scale",
            "log_scale",
            "formatter",
            "legend",
        ),
    )
    extra = _defaults("boxplot", style, ("whis", "fliersize"))
    _draw_boxplot(ax, rel, seaborn_kws=seaborn_kws, kwargs=kwargs, **extra)


def _countplot(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    from ..plots.categorical import DOMINANCE_GID, _draw_counts

    (rel,) = call.releases
    kws = _defaults(
        "countplot",
        style,
        (
            "color",
            "palette",
            "saturation",
            "fill",
            "hue_norm",
            "width",
            "dodge",
            "gap",
            "native_scale",
            "formatter",
            "legend",
        ),
    )
    _draw_counts(ax, rel, dict(kws, log_scale=None), kwargs)
    if not rel.levels:
        (ax.set_xticks if rel.layout.orient == "x" else ax.set_yticks)([])
    if rel.report.details.get("dominant_category"):
        ax.annotate(
            "dominance: one category holds > 90% of records",
            xy=(0.0, 1.0),
            xycoords="axes fraction",
            xytext=(0, 3),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize="x-small",
            color="0.35",
            gid=DOMINANCE_GID,
        )


def _heatmap(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    from ..anonymize.grids import safe_ticks
    from ..plots.matrix import _colormap

    (rel,) = call.releases
    kws = _defaults("heatmap", style, ("cmap", "center", "vmin", "vmax", "cbar", "cbar_kws"))
    counts = rel.counts[0]
    shown = np.isfinite(counts) & (counts > 0)
    grid = np.ma.array(np.where(shown, counts, 0.0).T, mask=~shown.T)
    values = grid.compressed()
    threshold = rel.report.params.get("threshold", get_policy().threshold)
    vmin, vmax = kws["vmin"], kws["vmax"]
    if not values.size:
        vmin = 0.0 if vmin is None else vmin
        vmax = float(threshold) if vmax is None else vmax
    vmin = float(values.min()) if vmin is None else vmin
    vmax = float(values.max()) if vmax is None else vmax
    if vmin == vmax and vmin > 0:
        vmin = 0.0
    mesh = ax.pcolormesh(
        rel.xedges,
        rel.yedges,
        grid,
        cmap=_colormap(kws["cmap"], kws["center"], vmin, vmax),
        vmin=vmin,
        vmax=vmax,
        linewidths=0,
        edgecolor="white",
        **kwargs,
    )
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    set_safe_axis(ax, "x", rel.xlim, rel.xticks)
    set_safe_axis(ax, "y", rel.ylim, rel.yticks)
    ax.set_xlabel(args["x"])
    ax.set_ylabel(args["y"])
    if kws["cbar"]:
        cb = ax.figure.colorbar(mesh, None, ax, **dict(kws["cbar_kws"] or {}))
        cb.outline.set_linewidth(0)
        if vmax > vmin:
            # counts only: the ticks depend on the released counts and nothing else
            ticks = safe_ticks(float(vmin), float(vmax))
            whole = ticks[ticks == np.round(ticks)]
            cb.set_ticks(whole if whole.size >= 2 else ticks)
        cb.set_label("Count")


def _kdeplot(ax: Axes, call: CallRelease, args: dict, style: dict, kwargs: dict) -> None:
    from ..plots.kde import draw_kde

    (rel,) = call.releases
    names = (
        "palette", "hue_norm", "color", "fill", "multiple", "common_norm", "common_grid",
        "cumulative", "bw_method", "bw_adjust", "warn_singular", "log_scale", "levels",
        "thresh", "gridsize", "cut", "clip", "legend", "cbar", "cbar_ax", "cbar_kws",
    )  # fmt: skip
    # what shaped the estimate on the server is drawn with the same values here
    kws = _defaults("kdeplot", {**style, **args}, names)
    draw_kde(ax, rel, **kws, **kwargs)


#: Plot name -> its drawing half.
DRAWS: dict[str, Callable[[Axes, CallRelease, dict, dict, dict], None]] = {
    "histplot": _histplot,
    "scatterplot": _scatterplot,
    "boxplot": _boxplot,
    "countplot": _countplot,
    "heatmap": _heatmap,
    "kdeplot": _kdeplot,
}


def draw(
    call: CallRelease,
    args: dict[str, Any],
    *,
    ax: Axes | None = None,
    annotate: bool | None = None,
    style: dict[str, Any] | None = None,
    kwargs: dict[str, Any] | None = None,
) -> Axes:
    """Draw a server's release of a plot on `ax` and log it, as the local call would.

    Parameters
    ----------
    call : CallRelease
        What the server released.
    args : dict
        The arguments the server ran the function with.
    ax : Axes, optional
        Where to draw (default: the current Axes).
    annotate : bool, optional
        The method note (the local policy decides by default).
    style : dict, optional
        The local function's styling arguments (palette, legend, ...).
    kwargs : dict, optional
        Further keyword arguments for the marks.

    Returns
    -------
    Axes
    """
    pol = get_policy()
    ax = get_ax(ax)
    DRAWS[call.function](ax, call, args, dict(style or {}), dict(kwargs or {}))
    released = call.releases if call.function == "histplot" else call.releases[0]
    return finish(ax, call.reports[0], annotate=annotate, policy=pol, released=released)
