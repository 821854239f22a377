"""Bars: a released histogram, shown bins as bars and suppressed ones as gaps."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes

from ..release import HistogramRelease
from ._axes import set_safe_axis

__all__ = ["draw_histogram"]


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
