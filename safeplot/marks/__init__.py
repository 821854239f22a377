"""Marks: draw one kind of release on an Axes, with seaborn's look, never raw data.

A plot function in :mod:`safeplot.plots` validates its input, releases it
(method and guard) and hands the release to a mark, which draws only the
numbers the release holds: positions, counts, box statistics, lines, safe
limits and ticks. A mark does not attach the report or write the audit log;
the plot does (``plots/_common.py``). Mark modules import numpy, pandas,
matplotlib, public seaborn, :mod:`safeplot.release` and each other, nothing
that reads or anonymises data (``tests/test_architecture.py`` checks).

- :mod:`~safeplot.marks.points`: scatter points and grid cells, with hue,
  size and style through :func:`seaborn.scatterplot`;
- :mod:`~safeplot.marks.boxes`: O'Keefe's parallel box plots and trend lines;
- :mod:`~safeplot.marks.bars`: histogram bars;
- :mod:`~safeplot.marks.lines`: Q-Q plots, fitted lines, bands and estimates;
- ``_style``, ``_axes``, ``_large``: seaborn's colours and semantic types,
  safe axes, and many points drawn rasterised, each distinct one once.
"""

from __future__ import annotations

from .bars import draw_histogram
from .boxes import draw_boxes, draw_parallel_boxes
from .lines import draw_qq
from .points import draw_scatter, draw_semantic

__all__ = [
    "draw_boxes",
    "draw_histogram",
    "draw_parallel_boxes",
    "draw_qq",
    "draw_scatter",
    "draw_semantic",
]
