"""Drawing many released points: rasterised point layers, one marker per distinct point.

A scatter-type plot of a million released points is slow to render and
makes PDF and SVG files of hundreds of megabytes, one path per marker.
Above :data:`LARGE_N` released points every function that draws released
points (scatterplot, scatter, pairplot, jointplot, regplot, residplot,
qqplot, the regression diagnostics) therefore

- rasterises the point layer only (``rasterized=True`` on the marker
  collection or line): axes, ticks, labels and text stay vector;
- draws each distinct released point once. Deterministic anonymisation
  makes many records share one centroid; the shared centroid is drawn once,
  in the colour seaborn gives it, like any other point.

This changes how the points are rendered, not what a marker means: a figure
reads the same at any n. Markers are marked as shared by several records
only where the user asks (``mark_coincident=True`` of scatterplot and
:func:`~safeplot.plots.relational.draw_scatter`), at any n in black, as
Avraam et al. draw coinciding centroids; above the limit they go to a layer
of their own (gid :data:`SHARED_NOTE_GID`) and a note above the Axes says
what black means. How many records share a marker is not shown: only that
it is more than one. The other point-drawing functions never mark them.

Below the limit nothing changes: every released point is drawn, vector.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection

__all__ = [
    "LARGE_N",
    "SHARED_COLOR",
    "SHARED_NOTE_GID",
    "distinct_rows",
    "is_large",
    "mark_shared",
    "scatter_points",
]

#: Above this many released points the point layer is rasterised and each distinct point is
#: drawn once.
LARGE_N = 100_000
#: Colour of a marker that stands for several records, with ``mark_coincident=True`` (Avraam
#: et al.'s black dots).
SHARED_COLOR = "black"
#: gid of the note explaining shared markers.
SHARED_NOTE_GID = "safeplot-shared-note"


def is_large(n: int) -> bool:
    """Whether `n` released points are drawn the large-data way."""
    return n > LARGE_N


def distinct_rows(columns: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Return the first row of each distinct combination of `columns`, and whether it repeats.

    Parameters
    ----------
    columns : sequence of array-like, each of length n
        What makes two markers identical: coordinates, and any hue, size,
        style or colour value.

    Returns
    -------
    first : ndarray of int
        Row of the first occurrence of each distinct combination, ascending.
    shared : ndarray of bool
        For each of those rows, whether other rows have the same combination.

    Examples
    --------
    >>> import numpy as np
    >>> first, shared = distinct_rows([np.array([1.0, 2.0, 1.0]), np.array([5.0, 6.0, 5.0])])
    >>> first.tolist(), shared.tolist()
    ([0, 1], [True, False])
    """
    cols = [np.asarray(c) for c in columns]
    n = cols[0].shape[0]
    if cols[0].dtype.kind == "f" and n > 1:
        # no value of the first column repeats (keyed noise): every row is distinct. A sort
        # tells at a third of the cost of the hash table below; NaN (all one value to
        # the table) is left to it
        ordered = np.sort(cols[0])
        if not np.isnan(ordered[-1]) and (ordered[1:] != ordered[:-1]).all():
            return np.arange(n), np.zeros(n, dtype=bool)
    # each column factorised on its own, the codes combined into one integer and factorised
    # again (so they never overflow and stay numbered by first appearance)
    codes, uniques = pd.factorize(cols[0], use_na_sentinel=False)
    if len(uniques) == n:
        # no value of the first column repeats (keyed noise): every row is distinct
        return np.arange(n), np.zeros(n, dtype=bool)
    codes = codes.astype(np.int64)
    for col in cols[1:]:
        part, uniques = pd.factorize(col, use_na_sentinel=False)
        codes, _ = pd.factorize(codes * max(len(uniques), 1) + part)
    codes = np.asarray(codes, dtype=np.intp)
    if n == 0:
        return np.arange(0), np.zeros(0, dtype=bool)
    counts = np.bincount(codes)
    # codes are numbered by first appearance: a row is a first occurrence when its code
    # exceeds every code before it
    seen = np.maximum.accumulate(codes)
    first = np.flatnonzero(np.r_[True, codes[1:] > seen[:-1]])
    return first, counts[codes[first]] > 1


def mark_shared(ax: Axes, coll: PathCollection, shared: np.ndarray) -> None:
    """Draw the markers of `coll` that stand for several records black, and say so above the Axes.

    Called only where the user asked for the marking (``mark_coincident=True``):
    the large-data counterpart of drawing coinciding points black.

    Parameters
    ----------
    ax : Axes
    coll : PathCollection
        The (rasterised) point layer, one marker per distinct released point. The
        shared ones are moved out of it into a second collection (gid
        :data:`SHARED_NOTE_GID`) drawn just after it.
    shared : ndarray of bool
        One entry per marker.
    """
    if not shared.any():
        return
    # the shared markers move to a second collection of their own: both keep one face and one
    # edge colour, so Agg draws each with its fast marker path (per-marker colours are ~20x slower)
    offsets = np.asarray(coll.get_offsets())
    sizes = np.asarray(coll.get_sizes())
    if sizes.size == shared.size:
        coll.set_sizes(sizes[~shared])
        sizes = sizes[shared]
    face = np.asarray(coll.get_facecolors())
    if face.shape[0] == shared.size:
        coll.set_facecolors(face[~shared])
    edge_colors = np.asarray(coll.get_edgecolors())
    if edge_colors.shape[0] == shared.size:
        coll.set_edgecolors(edge_colors[~shared])
        edge_colors = edge_colors[shared]
    paths = coll.get_paths()
    if len(paths) == shared.size and shared.size > 1:  # one marker shape per point (style)
        coll.set_paths([p for p, keep in zip(paths, ~shared, strict=True) if keep])
        paths = [p for p, mark in zip(paths, shared, strict=True) if mark]
    coll.set_offsets(offsets[~shared])
    marked = PathCollection(
        paths,
        sizes=sizes,
        offsets=offsets[shared],
        offset_transform=coll.get_offset_transform(),
        facecolors=[mpl.colors.to_rgba(SHARED_COLOR)],
        edgecolors=edge_colors,
        linewidths=coll.get_linewidths(),
        alpha=coll.get_alpha(),
        zorder=coll.get_zorder(),
        rasterized=coll.get_rasterized(),
        gid=SHARED_NOTE_GID,
    )
    marked.set_transform(coll.get_transform())
    ax.add_collection(marked, autolim=False)
    if any(artist.get_gid() == SHARED_NOTE_GID for artist in ax.texts):
        return
    ax.annotate(
        "black: shared by several records",
        xy=(1.0, 1.0),
        xycoords="axes fraction",
        xytext=(0, 2),
        textcoords="offset points",
        ha="right",
        va="bottom",
        fontsize="x-small",
        color="0.35",
        gid=SHARED_NOTE_GID,
    )


def scatter_points(ax: Axes, x: np.ndarray, y: np.ndarray, **kws) -> PathCollection:
    """Draw released points with ``ax.scatter``; above :data:`LARGE_N` the large-data way.

    Per-point keyword arguments (``c``, ``s`` as arrays of length n) are
    thinned with the points and count in what makes two markers identical.
    Markers shared by several records are drawn as any other: these
    functions have no ``mark_coincident``, and mark nothing at any n.
    """
    x, y = np.asarray(x), np.asarray(y)
    n = x.shape[0]
    if not is_large(n):
        return ax.scatter(x, y, **kws)
    per_point = [
        name
        for name in ("c", "s")
        if name in kws
        and np.ndim(kws[name]) >= 1
        and len(kws[name]) == n
        and not _is_colour(kws[name])
    ]
    keep, _ = distinct_rows([x, y, *(np.asarray(kws[p]) for p in per_point)])
    kws = {"rasterized": True, **kws}
    for name in per_point:
        kws[name] = np.asarray(kws[name])[keep]
    return ax.scatter(x[keep], y[keep], **kws)


def _is_colour(value) -> bool:
    try:
        mpl.colors.to_rgba(value)
    except (TypeError, ValueError):
        return False
    return True
