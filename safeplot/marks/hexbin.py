"""Hexagons: a released hexagonal binning, the hexagons shown coloured by their counts."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection

from ._axes import set_safe_axis

__all__ = ["draw_hexbin"]


def draw_hexbin(ax: Axes, release: Any, *, limits: bool = True, **kwargs: Any) -> PolyCollection:
    """Draw a released hexbin (:class:`~safeplot.plots.hexbin.HexbinRelease`).

    Each hexagon shown is drawn once, at its centre, with its released count
    as the colour value: matplotlib's own hexagons on the release's grid
    (``gridsize``, ``extent``), so no hexagon is recounted from records.

    Parameters
    ----------
    ax : Axes
    release : HexbinRelease
    limits : bool, default True
        Set the release's axis limits and ticks (off for raw output, which
        matplotlib scales as it does).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.hexbin` (``cmap``, ``bins``,
        ``norm``, ``alpha``, ``linewidths``, ...).

    Returns
    -------
    PolyCollection
        The hexagons; ``get_array()`` holds the released counts.
    """
    coll = Axes.hexbin(
        ax,
        release.x,
        release.y,
        C=release.counts,
        reduce_C_function=np.sum,
        gridsize=release.gridsize,
        extent=release.extent,
        mincnt=1,
        **kwargs,
    )
    if limits:
        set_safe_axis(ax, "x", release.xlim, release.xticks)
        set_safe_axis(ax, "y", release.ylim, release.yticks)
        shown = np.asarray(coll.get_array(), dtype=float)
        if shown.size and shown.min() == shown.max() and kwargs.get("norm") is None:
            # one distinct count: matplotlib would widen the colour range to 0.9..1.1 times
            # it, a limit below the threshold; start the scale at 0 instead
            coll.set_clim(0.0, float(shown.max()))
    return coll
