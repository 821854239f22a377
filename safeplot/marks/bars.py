"""Bars: a released histogram, shown bins as bars and suppressed ones as gaps."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes

from ..release import HistogramRelease
from ._axes import set_safe_axis

__all__ = ["DP_ERRORS_GID", "draw_count_errors", "draw_histogram"]


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
