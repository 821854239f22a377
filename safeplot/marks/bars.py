"""Bars: a released histogram, shown bins as bars and suppressed ones as gaps."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ..release import HistogramRelease
from ._axes import quiet_seaborn, set_safe_axis
from .lines import estimate_rows, interval_of

__all__ = [
    "DP_ERRORS_GID",
    "draw_count_errors",
    "draw_estimates",
    "draw_grid_accuracy",
    "draw_histogram",
]


def draw_histogram(
    ax: Axes, release: HistogramRelease, *, color: Any = None, label: str | None = None
) -> Axes:
    """Draw a released histogram: bars for shown bins, gaps for suppressed ones.

    Only the release's numbers reach matplotlib: bar edges and heights, the
    release's axis limits and tick positions. The report is not attached
    (:func:`safeplot.plots.distributions.draw_histogram` does that).

    Parameters
    ----------
    ax : Axes
    release : HistogramRelease
    color : colour, optional
        Face colour of the bars.
    label : str, optional
        Legend label of the bars.

    Returns
    -------
    Axes
    """
    shown = ~np.isnan(release.counts) & (release.counts > 0)
    left = release.edges[:-1][shown]
    width = np.diff(release.edges)[shown]
    ax.bar(
        left,
        release.counts[shown],
        width=width,
        align="edge",
        color=color,
        edgecolor="white",
        linewidth=0.5,
        label=label,
    )
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    ax.set_xlabel(release.report.variables[0] if release.report.variables else "")
    ax.set_ylabel("Count")
    return ax


#: gid of the error bars of differentially private counts.
DP_ERRORS_GID = "safeplot-dp-errors"


def draw_count_errors(ax: Axes, release: HistogramRelease, *, orient: str = "x") -> Axes:
    """Draw each released count's 95% accuracy as an error bar at its bin centre.

    For differentially private counts (``release.accuracy`` set): the noise
    is known, so the interval of each count is drawn with it. Only the
    release's numbers reach matplotlib: bin centres (from the edges) and the
    counts plus or minus the accuracy, cut at 0.

    Parameters
    ----------
    ax : Axes
    release : HistogramRelease
    orient : {"x", "y"}
        The axis of the binned variable.

    Returns
    -------
    Axes
    """
    if release.accuracy is None or release.counts.size == 0:
        return ax
    centres = (release.edges[:-1] + release.edges[1:]) / 2
    counts = np.nan_to_num(release.counts)
    low = np.minimum(counts, float(release.accuracy))
    err = np.vstack([low, np.full(counts.shape, float(release.accuracy))])
    kwargs = {"fmt": "none", "ecolor": "0.2", "elinewidth": 0.8, "capsize": 0, "zorder": 3}
    container = (
        ax.errorbar(centres, counts, yerr=err, **kwargs)
        if orient == "x"
        else ax.errorbar(counts, centres, xerr=err, **kwargs)
    )
    for artist in container.lines[2]:
        artist.set_gid(DP_ERRORS_GID)
    return ax


def draw_grid_accuracy(ax: Axes, release: Any) -> Axes:
    """State a DP grid's 95% accuracy on the Axes, next to the cells it applies to.

    A grid of cells has no room for an error bar per cell; every cell's
    noise has the same known distribution, so one line says how far any
    count may be off: ``each cell +/- N (95%)``. The number depends on
    epsilon only, not on the records.

    Parameters
    ----------
    ax : Axes
    release : GridRelease
        A release with ``accuracy`` set (others are left alone).

    Returns
    -------
    Axes
    """
    if getattr(release, "accuracy", None) is None:
        return ax
    text = ax.text(
        0.99,
        0.99,
        f"each cell +/- {release.accuracy:g} (95%)",
        transform=ax.transAxes,
        ha="right",
        va="top",
        fontsize="x-small",
        color="0.2",
        bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "0.7", "alpha": 0.8},
    )
    text.set_gid(DP_ERRORS_GID)
    return ax


def draw_estimates(
    ax: Axes, rel: Any, kind: str, style: dict[str, Any], kwargs: dict[str, Any]
) -> None:
    """Draw released group estimates with seaborn's ``barplot`` or ``pointplot``.

    seaborn is handed, per shown group, the rows of
    :func:`~safeplot.marks.lines.estimate_rows` (the estimate three times,
    the error-bar ends once) with ``estimator="median"`` and an error bar
    from their minimum to their maximum, so the drawn estimate and error bar
    are exactly the released ones.

    Parameters
    ----------
    ax : Axes
    rel : BarRelease
        Its ``groups``, ``estimates``, ``lower``, ``upper``, ``levels`` (the
        category slots), ``other``, ``shown_hue_levels()`` (the legend's hue
        levels) and ``layout`` (names, orientation, levels and dtypes).
    kind : {"bar", "point"}
        The seaborn function that draws them.
    style : dict
        seaborn's appearance arguments, the palette already chosen.
    kwargs : dict
        Passed on to seaborn and matplotlib.
    """
    import seaborn as sns

    draw = {"bar": sns.barplot, "point": sns.pointplot}[kind]
    lay = rel.layout
    has_err = rel.lower is not None
    values, reps = estimate_rows(rel.estimates, rel.lower, rel.upper)
    per_group = [p[np.isfinite(p)] for p in values.reshape(-1, reps)]
    lengths = [len(p) for p in per_group]
    common = dict(style, estimator="median", errorbar=interval_of if has_err else None, ax=ax)
    with quiet_seaborn():
        if lay.wide:
            frame = pd.DataFrame(
                {
                    str(cat): pd.Series(vals, dtype=float)
                    for (cat, _), vals in zip(rel.groups, per_group, strict=True)
                }
            )
            draw(data=frame, orient=lay.orient, **common, **kwargs)
            return
        val = pd.Series(np.concatenate(per_group), name=lay.value_name, dtype=float)
        cat = hue = None
        if lay.has_cat:
            cat = pd.Series(
                np.repeat(np.array([c for c, _ in rel.groups], dtype=object), lengths),
                name=lay.cat_name,
            )
            if rel.other is None:
                cat = cat.astype(lay.cat_dtype)
        hue_order = None
        if lay.hue_levels is not None:
            # a categorical hue goes as plain objects (its order as hue_order): seaborn 0.13
            # compares hue and category columns, which pandas refuses for two categoricals
            dtype = object if isinstance(lay.hue_dtype, pd.CategoricalDtype) else lay.hue_dtype
            hue = pd.Series(
                np.repeat(np.array([h for _, h in rel.groups], dtype=object), lengths),
                name=lay.hue_name,
            ).astype(dtype)
            # the hue levels drawn, and those named by the call (drawn empty, as seaborn does)
            hue_order = rel.shown_hue_levels()
            if len(hue_order) < 2 and common.get("dodge"):
                # one hue level left (the others too small to draw): nothing to dodge, and
                # seaborn's pointplot divides the dodge by the levels less one
                common["dodge"] = False
        xy = {"x": cat, "y": val} if lay.orient == "x" else {"x": val, "y": cat}
        # the release's slots: a category whose every group is suppressed is not drawn, and
        # not named, unless the call named it (then its slot stays, empty, as in seaborn)
        draw(
            **xy,
            hue=hue,
            order=list(rel.levels) if lay.has_cat else None,
            hue_order=hue_order,
            orient=lay.orient if lay.has_cat else None,
            **common,
            **kwargs,
        )
    (ax.set_xlabel if lay.orient == "x" else ax.set_ylabel)(lay.cat_name or "")
    (ax.set_ylabel if lay.orient == "x" else ax.set_xlabel)(lay.value_name or "")
