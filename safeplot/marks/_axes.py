"""Axes a mark draws on: released limits and ticks, notes under them, seaborn called quietly."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.layout_engine import PlaceHolderLayoutEngine
from matplotlib.text import Annotation
from matplotlib.ticker import FixedLocator, FuncFormatter
from matplotlib.transforms import Bbox, IdentityTransform

__all__ = [
    "LEFT_OUT_GID",
    "Footnote",
    "FootnoteLayout",
    "footnotes",
    "make_room_below",
    "note_below",
    "quiet_seaborn",
    "remove_footnote",
    "set_safe_axis",
]

#: The gid of the footnote saying that groups too small to show were left out (one for every
#: plot, so that a figure says it once however many of its layers left groups out).
LEFT_OUT_GID = "safeplot-left-out"


def set_safe_axis(ax: Axes, which: str, lim: tuple[float, float], ticks: np.ndarray) -> None:
    """Fix an axis' limits and ticks to released values, so matplotlib computes none from data.

    The tick labels print each tick exactly (with the fewest decimals that do
    so for all of them): a label rounded for display, such as "56.2" for a
    tick at 56.25, would write a number the figure does not hold.

    Parameters
    ----------
    ax : Axes
    which : {"x", "y"}
        The axis.
    lim : tuple of float
        The released limits.
    ticks : ndarray
        The released tick positions.
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xlim if which == "x" else ax.set_ylim)(*lim)
    # the released limits, kept on the Axes: a grid of panels agrees its shared axes from them
    ax.__dict__.setdefault("_safeplot_limits", {})[which] = (float(lim[0]), float(lim[1]))
    ticks = np.asarray(ticks, dtype=float)
    axis.set_major_locator(FixedLocator(ticks))
    decimals = _exact_decimals(ticks)
    if decimals is not None and axis.get_scale() == "linear":
        minus = "\u2212" if mpl.rcParams["axes.unicode_minus"] else "-"
        axis.set_major_formatter(
            FuncFormatter(lambda v, _pos: f"{v + 0.0:.{decimals}f}".replace("-", minus))
        )


def _exact_decimals(ticks: np.ndarray) -> int | None:
    """Fewest decimals that write every tick exactly; None for very large or small ticks."""
    finite = np.abs(ticks[np.isfinite(ticks)])
    if finite.size == 0 or finite.max() >= 1e6 or (0 < finite[finite > 0].min(initial=1) < 1e-4):
        return None  # matplotlib's offset and scientific notation serve these better
    for d in range(11):
        if np.allclose(np.round(ticks, d), ticks, rtol=1e-12, atol=1e-12 * max(finite.max(), 1)):
            return d
    return None


#: where an Axes keeps its footnotes, top to bottom
_FOOTNOTES = "_safeplot_footnotes"
#: the gap between the x-axis label and the first footnote, and between footnotes
_GAP_PT = 2.0


def note_below(
    ax: Axes, text: str, gid: str, *, fontsize: str = "xx-small", color: str = "0.3"
) -> Annotation:
    """Write a small grey footnote under the x-axis label, from the left edge of `ax`.

    For what a figure leaves out or merges, and for the method note: the one
    place a figure's notes go, clear of the marks, ticks, titles, legends and
    neighbouring panels. Footnotes of one Axes stack under each other. A
    footnote with the same `gid` is rewritten, not repeated. The footnotes
    take part in layout (``tight_layout``, constrained layout,
    ``bbox_inches="tight"``); a figure without a layout engine has its bottom
    margin raised so that they stay on the figure.

    Parameters
    ----------
    ax : Axes
    text : str
        The note (may span several lines).
    gid : str
        The annotation's gid, by which tests and later drawing find it.
    fontsize, color : str, optional
        Its font size and colour.

    Returns
    -------
    Annotation
        The footnote.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> note = note_below(ax, "2 groups of fewer than 3 records left out", "demo-note")
    >>> note.get_gid()
    'demo-note'
    >>> plt.close(fig)
    """
    notes = footnotes(ax)
    for note in notes:
        if note.get_gid() == gid:
            note.set_text(text)
            break
    else:
        note = Footnote(
            text,
            xy=(0.0, 0.0),
            xycoords=("axes fraction", ax.xaxis.label),
            xytext=(0, -_GAP_PT),
            textcoords="offset points",
            ha="left",
            va="top",
            fontsize=fontsize,
            color=color,
            gid=gid,
            annotation_clip=False,
        )
        note.set_transform(IdentityTransform())
        ax.add_artist(note)
        note.set_clip_on(False)
        note.set_in_layout(True)
        notes.append(note)
        fig = ax.get_figure(root=True)  # a subfigure's Axes: the figure that is laid out
        if not any(isinstance(a, _FootnoteReach) for a in fig.artists):
            fig.add_artist(_FootnoteReach())
        _restack(ax, notes)
    make_room_below(ax.get_figure(root=True))
    return note


class Footnote(Annotation):
    """A note under an Axes that claims room below it, not beside it, in layouts.

    Tight and constrained layout make room for every text of an Axes; a
    footnote longer than its Axes is wide would otherwise push the next
    panel away (as matplotlib already narrows Axes titles for layout). Its
    extent for layout keeps its height and the Axes' width. A note wider than
    its Axes is wide still draws in full; ``savefig(bbox_inches="tight")``
    keeps the part beside the Axes when other content reaches that far (the
    next panel, a legend), as it does in the figures safeplot draws.
    """

    def get_tightbbox(self, renderer: Any = None) -> Bbox:
        """Return the footnote's extent, cut to the width of its Axes."""
        bbox = super().get_tightbbox(renderer)
        ax = self.axes
        if ax is None or bbox is None:
            return bbox
        box = ax.get_window_extent(renderer)
        x0, x1 = max(bbox.x0, box.x0), min(bbox.x1, box.x1)
        return Bbox.from_extents(x0, bbox.y0, max(x0, x1), bbox.y1)


class _FootnoteReach(Artist):
    """The whole extent of a figure's footnotes, for a tight save; it draws nothing.

    A figure's own artists count in ``savefig(bbox_inches="tight")`` but not
    in tight or constrained layout, which is what a footnote wider than its
    Axes needs: all of it saved, none of it pushing panels apart.
    """

    def draw(self, renderer: Any) -> None:
        """Draw nothing: the footnotes draw themselves."""

    def get_tightbbox(self, renderer: Any = None) -> Bbox | None:
        """Return the union of the figure's footnotes, each in full."""
        fig = self.get_figure()
        boxes = [
            Annotation.get_tightbbox(note, renderer)
            for ax in (fig.axes if fig is not None else [])
            for note in footnotes(ax)
            if note.get_visible() and ax.get_visible()
        ]
        return Bbox.union(boxes) if boxes else None


def footnotes(ax: Axes) -> list[Annotation]:
    """Return the footnotes of `ax` still drawn, top to bottom (the list `ax` keeps).

    A footnote removed from the Axes (``note.remove()``) is dropped, and the
    ones under it hang from the one above it.
    """
    notes = ax.__dict__.setdefault(_FOOTNOTES, [])
    kept = [n for n in notes if n.axes is ax and n in ax.texts]
    if len(kept) != len(notes):
        notes[:] = kept
        _restack(ax, notes)
    return notes


def remove_footnote(ax: Axes, gid: str) -> str | None:
    """Remove the footnote of `ax` with `gid`; its text, or None if it had none."""
    for note in footnotes(ax):
        if note.get_gid() == gid:
            note.remove()
            footnotes(ax)
            return note.get_text()
    return None


def _restack(ax: Axes, notes: list[Annotation]) -> None:
    """Hang each footnote under the one above it, the first under the x-axis label."""
    anchor: Artist = ax.xaxis.label
    for note in notes:
        note.xycoords = ("axes fraction", anchor)
        anchor = note


def make_room_below(fig: Figure) -> None:
    """Keep a figure's footnotes on the figure, now and whenever it is drawn again.

    A figure laid out by tight or constrained layout makes room for them
    itself, as footnotes take part in layout. A figure without a layout
    engine gets a small one that, at each draw, raises the bottom margin
    just enough for the lowest footnote (labels set or spines moved after
    the plot are accounted for); it does nothing else.
    """
    engine = fig.get_layout_engine()
    if isinstance(engine, FootnoteLayout):
        engine.execute(fig)
        return
    if engine is not None and type(engine) is not PlaceHolderLayoutEngine:
        return
    try:
        fig.set_layout_engine(FootnoteLayout())
    except RuntimeError:  # a colorbar made under another engine: make room once
        FootnoteLayout().execute(fig)
        return
    fig.get_layout_engine().execute(fig)


class FootnoteLayout(PlaceHolderLayoutEngine):
    """The layout of a figure with footnotes and no layout engine: room for the footnotes only.

    It is matplotlib's engine for "no layout" (so ``fig.tight_layout()``
    still simply lays the figure out, without a warning), extended to raise
    the bottom margin at each draw until the lowest footnote is on the figure.
    """

    def __init__(self) -> None:
        super().__init__(adjust_compatible=True, colorbar_gridspec=True)

    def execute(self, fig: Figure) -> None:
        """Raise the bottom margin of `fig` until its lowest footnote is on the figure."""
        renderer = _renderer(fig)
        lowest = np.inf
        for ax in fig.axes:
            notes = footnotes(ax)
            if notes and ax.get_visible():
                ax.xaxis.get_tightbbox(renderer)  # places the x-axis label under the tick labels
                lowest = min(lowest, notes[-1].get_window_extent(renderer).y0)
        pad = _GAP_PT * fig.dpi / 72
        if not np.isfinite(lowest) or lowest >= pad:
            return
        pars = fig.subplotpars
        bottom = pars.bottom + (pad - lowest) / fig.bbox.height
        if bottom < pars.top - 0.2:
            fig.subplots_adjust(bottom=bottom)


def _renderer(fig: Figure) -> Any:
    """Return a renderer to measure text with: the canvas' own, or Agg's for vector ones."""
    get = getattr(fig.canvas, "get_renderer", None)
    if get is not None:
        return get()
    from matplotlib.backends.backend_agg import RendererAgg

    return RendererAgg(fig.bbox.width, fig.bbox.height, fig.dpi)


@contextlib.contextmanager
def quiet_seaborn() -> Iterator[None]:
    """Silence the deprecation warnings seaborn 0.13 triggers in newer matplotlib and pandas.

    They concern seaborn's own calls (``vert=`` of ``Axes.bxp``, pandas
    option names), not anything the user can change.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*vert: bool.*")
        warnings.filterwarnings("ignore", category=FutureWarning, module="seaborn")
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="seaborn")
        warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module="seaborn")
        yield
