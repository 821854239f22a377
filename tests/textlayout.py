"""Where a figure's text lands: pairs of text objects that overlap, and text cut off by the edge.

A reader cannot read a tick label under a note, or a note that runs off the
figure. `overlapping_texts` and `clipped_texts` find both, from the rendered
extents of every visible, non-empty text of a figure (tick labels, axis labels,
titles, legend entries and titles, notes, annotations).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

__all__ = ["TextBox", "clipped_texts", "overlapping_texts", "text_boxes"]

#: overlaps of less than this many pixels each way are antialiasing, not collisions
TOLERANCE_PX = 1.0


@dataclass(frozen=True)
class TextBox:
    """One drawn text: what it says, what it is, and its extent in display pixels."""

    text: str
    kind: str
    bbox: Bbox

    def __repr__(self) -> str:
        x0, y0, x1, y1 = np.round(self.bbox.extents, 1)
        return f"{self.kind}{self.text!r}@({x0}, {y0}, {x1}, {y1})"


def _kind(text: Text, fig: Figure) -> str:
    gid = text.get_gid()
    if gid:
        return gid
    for ax in fig.axes:
        if text in ax.get_xticklabels(which="both") or text in ax.get_yticklabels(which="both"):
            return "tick"
        if text is ax.xaxis.label or text is ax.yaxis.label:
            return "axis label"
        if text in (ax.title, ax._left_title, ax._right_title):
            return "title"
        legend = ax.get_legend()
        if legend is not None and (text in legend.get_texts() or text is legend.get_title()):
            return "legend"
    for legend in fig.legends:
        if text in legend.get_texts() or text is legend.get_title():
            return "legend"
    return "text"


def text_boxes(fig: Figure) -> list[TextBox]:
    """Every visible, non-empty text `fig` draws, with its window extent."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    tick_labels, drawn_ticks = set(), set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                tick_labels |= {id(tick.label1), id(tick.label2)}
                if ax.get_visible() and ax.axison and _in_view(axis, tick.get_loc()):
                    drawn_ticks |= {id(tick.label1), id(tick.label2)}
    out = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        if id(text) in tick_labels and id(text) not in drawn_ticks:
            continue  # matplotlib draws only the labels of ticks within the view limits
        hidden = text.axes is not None and not (text.axes.get_visible() and text.axes.axison)
        if hidden and (
            id(text) in tick_labels or text in (text.axes.xaxis.label, text.axes.yaxis.label)
        ):
            continue  # the labels of an Axes drawn without its axes
        bbox = text.get_window_extent(renderer)
        if bbox.width <= 0 or bbox.height <= 0:
            continue
        out.append(TextBox(text.get_text(), _kind(text, fig), bbox))
    # the same text drawn twice on the same spot (twin Axes of a grid) reads as one
    unique = {(b.text, tuple(np.round(b.bbox.extents, 1))): b for b in out}
    return list(unique.values())


def _in_view(axis, loc: float) -> bool:
    """Whether matplotlib draws the tick at `loc`: within the view limits, to rounding."""
    if loc is None or not np.isfinite(loc):
        return False
    transform = axis.get_transform()
    lo, hi = sorted(transform.transform(np.asarray(axis.get_view_interval(), dtype=float)))
    pos = float(transform.transform(np.asarray([loc], dtype=float))[0])
    slack = 1e-10 * max(abs(hi - lo), 1e-300)
    return lo - slack <= pos <= hi + slack


def overlapping_texts(fig: Figure) -> list[tuple[TextBox, TextBox]]:
    """Pairs of drawn texts of `fig` whose extents overlap by more than a pixel each way."""
    boxes = text_boxes(fig)
    pairs = []
    for a, b in combinations(boxes, 2):
        w = min(a.bbox.x1, b.bbox.x1) - max(a.bbox.x0, b.bbox.x0)
        h = min(a.bbox.y1, b.bbox.y1) - max(a.bbox.y0, b.bbox.y0)
        if w > TOLERANCE_PX and h > TOLERANCE_PX:
            pairs.append((a, b))
    return pairs


def clipped_texts(fig: Figure) -> list[TextBox]:
    """Drawn texts of `fig` that run past the edge of the figure."""
    edge = fig.bbox
    return [
        box
        for box in text_boxes(fig)
        if box.bbox.x0 < edge.x0 - TOLERANCE_PX
        or box.bbox.y0 < edge.y0 - TOLERANCE_PX
        or box.bbox.x1 > edge.x1 + TOLERANCE_PX
        or box.bbox.y1 > edge.y1 + TOLERANCE_PX
    ]
