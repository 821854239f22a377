"""Hexagonal binning (matplotlib's and pandas' ``hexbin``) under disclosure control.

One release serves every hexbin safeplot draws: the pandas backend's
``df.plot.hexbin()`` and the ``"safe"`` projection's ``ax.hexbin()``.
:func:`release_hexbin` counts the records (or the released values of a value
method) in matplotlib's own hexagons, on a grid placed by safe edges beyond
the data, and suppresses every hexagon with a count in ``(0, threshold)``;
:func:`safeplot.marks.hexbin.draw_hexbin` draws the hexagons shown, with
their counts as the colour array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validate import clean_numeric
from ..anonymize.grids import rare_values, safe_edges, safe_ticks
from ..anonymize.suppression import suppress
from ..methods import anonymize_values, check_family, get_method, refuse_unsupported
from ..policy import Policy, get_policy
from ..release import DisclosureReport, release_kind
from ._common import (
    axis_from_range,
    check_positive_int,
    make_report,
    refuse_if_nothing_shown,
)
from .grid import default_grid_bins

__all__ = ["HexbinRelease", "default_gridsize", "hexagon_counts", "release_hexbin"]


@release_kind("hexbin")
@dataclass
class HexbinRelease:
    """A released hexagonal binning: the hexagons shown and their counts.

    Attributes
    ----------
    x, y : ndarray
        Centres of the hexagons shown (every count at least the threshold).
    counts : ndarray
        Count of each hexagon shown.
    gridsize : (int, int)
        Hexagons across x and rows along y, as matplotlib's ``gridsize``.
    extent : (float, float, float, float)
        The hexagon grid's extent, on a rounded grid strictly beyond the data.
    xlim, ylim : tuple of float
        Axis limits around the hexagons shown.
    xticks, yticks : ndarray
        Tick positions, none on a rare raw value.
    report : DisclosureReport
    """

    x: np.ndarray
    y: np.ndarray
    counts: np.ndarray
    gridsize: tuple[int, int]
    extent: tuple[float, float, float, float]
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport


def hexagon_counts(
    x: np.ndarray,
    y: np.ndarray,
    gridsize: tuple[int, int],
    extent: tuple[float, float, float, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count points per hexagon exactly as :meth:`matplotlib.axes.Axes.hexbin` does.

    Parameters
    ----------
    x, y : ndarray
        The points.
    gridsize : (int, int)
        Hexagons across x and along y.
    extent : (float, float, float, float)
        ``(xmin, xmax, ymin, ymax)`` of the grid.

    Returns
    -------
    cx, cy, counts : ndarray
        Every hexagon's centre and count (zeros included), in matplotlib's order.

    Examples
    --------
    >>> cx, cy, n = hexagon_counts(np.array([0.1, 0.2, 3.9]), np.array([0.1, 0.1, 3.9]),
    ...                            (2, 2), (0.0, 4.0, 0.0, 4.0))
    >>> int(n.sum()), int(n.max())
    (3, 2)
    """
    nx, ny = (int(v) for v in gridsize)
    xmin, xmax, ymin, ymax = (float(v) for v in extent)
    padding = 1.0e-9 * (xmax - xmin)  # matplotlib's, so the hexagons are the same
    xmin, xmax = xmin - padding, xmax + padding
    sx, sy = (xmax - xmin) / nx, (ymax - ymin) / ny
    ix, iy = (np.asarray(x, float) - xmin) / sx, (np.asarray(y, float) - ymin) / sy
    ix1, iy1 = np.round(ix).astype(int), np.round(iy).astype(int)
    ix2, iy2 = np.floor(ix).astype(int), np.floor(iy).astype(int)
    nx1, ny1 = nx + 1, ny + 1
    i1 = np.where((ix1 >= 0) & (ix1 < nx1) & (iy1 >= 0) & (iy1 < ny1), ix1 * ny1 + iy1 + 1, 0)
    i2 = np.where((ix2 >= 0) & (ix2 < nx) & (iy2 >= 0) & (iy2 < ny), ix2 * ny + iy2 + 1, 0)
    d1 = (ix - ix1) ** 2 + 3.0 * (iy - iy1) ** 2
    d2 = (ix - ix2 - 0.5) ** 2 + 3.0 * (iy - iy2 - 0.5) ** 2
    near1 = d1 < d2
    counts = np.concatenate(
        [
            np.bincount(i1[near1], minlength=1 + nx1 * ny1)[1:],
            np.bincount(i2[~near1], minlength=1 + nx * ny)[1:],
        ]
    )
    cx = np.concatenate([np.repeat(np.arange(nx1), ny1), np.repeat(np.arange(nx) + 0.5, ny)])
    cy = np.concatenate([np.tile(np.arange(ny1), nx1), np.tile(np.arange(ny), nx) + 0.5])
    return cx * sx + xmin, cy * sy + ymin, counts.astype(np.int64)


def _nonsingular(lo: float, hi: float) -> tuple[float, float]:
    """Return the range matplotlib's hexbin takes for raw data (a constant one widened)."""
    lo, hi = float(lo), float(hi)
    if hi > lo:
        return lo, hi
    pad = 0.1 * abs(lo) if lo != 0 else 0.1
    return lo - pad, hi + pad


#: Hexagons of matplotlib's grid per square of its side, ``2 / sqrt(3)``: ``nx`` hexagons
#: across and ``int(nx / sqrt(3))`` rows make ``(nx + 1)(ny + 1) + nx * ny``, about
#: ``2 nx**2 / sqrt(3)`` hexagons.
_HEXAGONS_PER_SQUARE = 2 / math.sqrt(3)


def default_gridsize(
    n: int, method: str, threshold: int | None = None, policy: Policy | None = None
) -> int:
    """Return the hexagons across x of a hexbin whose caller gave no ``gridsize``.

    The hexagons are chosen as a heat map's cells are
    (:func:`~safeplot.plots.grid.grid_bins_for`): about ``n / threshold``
    of them over the span of the records, so that a typical hexagon can be
    shown. A ``b x b`` grid has ``b**2`` cells, while ``nx``
    hexagons across make about ``2 nx**2 / sqrt(3)`` hexagons; the same
    number of hexagons is ``nx = b * sqrt(sqrt(3) / 2)``, which is
    ``grid_bins_for`` of ``n * sqrt(3) / 2`` records. `n` is counted as the
    report states it (rounded), and the result lies in 5 to 30 as the grid's
    cells per axis do (30: the density grid of Avraam et al., reached from
    about 3,000 records at threshold 3).

    Parameters
    ----------
    n : int
        Number of complete records.
    method : str
        The method of the release.
    threshold : int, optional
        The threshold asked for (default and floor: the policy's).
    policy : Policy, optional

    Returns
    -------
    int
        Hexagons across x, from 5 to 30.

    Examples
    --------
    >>> default_gridsize(344, "suppress"), default_gridsize(10_000, "suppress")
    (10, 30)
    """
    pol = get_policy(policy)
    stated = pol.round_count(n)
    stated = 0 if isinstance(stated, str) else stated
    return default_grid_bins(round(stated / _HEXAGONS_PER_SQUARE), method, threshold, pol)


def _grid_shape(gridsize: Any) -> tuple[int, int]:
    if np.ndim(gridsize) == 0:
        nx = check_positive_int("gridsize", gridsize)
        return nx, max(1, int(nx / math.sqrt(3)))
    nx, ny = gridsize
    return check_positive_int("gridsize", nx), check_positive_int("gridsize", ny)


def release_hexbin(
    x: Any,
    y: Any,
    *,
    names: tuple[str, str] = ("x", "y"),
    gridsize: int | tuple[int, int] | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
) -> HexbinRelease:
    """Release the hexagon counts of (x, y): hexagons with a count in (0, threshold) removed.

    Parameters
    ----------
    x, y : array-like
        Raw values; rows with a missing value are dropped and reported.
    names : tuple of str
        Variable names (report, keyed noise).
    gridsize : int or (int, int), optional
        Hexagons across x (and rows along y), as in matplotlib. Default:
        chosen by the number of complete records as a heat map's grid is,
        :func:`default_gridsize` (10 for the 344 penguins, 30 from about
        3,000 records on), not matplotlib's 100.
    method : str, optional
        ``"suppress"`` (the policy's default for binned plots),
        ``"generalize"`` (``gridsize`` divided by `factor`, then suppression),
        a value method (``"deterministic"``, ``"probabilistic"``,
        ``"confidential"``, ``"microaggregation"``, ``"rounding"``: the
        released values are binned, then suppressed), or ``"none"``.
    threshold : int, optional
        Fewest records in a shown hexagon (default and floor: the policy's).
    factor : int, default 2
        Coarsening of ``"generalize"``.
    k, q : int, float, optional
        Parameters of ``"deterministic"`` / ``"probabilistic"``. Default: the
        policy's ``k_min`` and ``q_min``.
    policy : Policy, optional
        The policy in force.

    Returns
    -------
    HexbinRelease

    Examples
    --------
    >>> xy = np.random.default_rng(0).normal(size=(2, 500))
    >>> rel = release_hexbin(*xy, gridsize=10)
    >>> bool((rel.counts >= 3).all()), int(rel.counts.sum()) <= 500
    (True, True)
    """
    pol = get_policy(policy)
    method = pol.check_method(method, "heatmap")
    # hexagons are no heat-map grid of counts on fixed edges: methods of such grids only
    refuse_unsupported(method, "hexbin", "hexbin")
    m = get_method(method)
    if names[0] == names[1]:
        names = (f"{names[0]} (x)", f"{names[1]} (y)")
    clean = clean_numeric({names[0]: x, names[1]: y})
    raw = clean.values
    if gridsize is None:  # by n, as a heat map's grid
        gridsize = default_gridsize(clean.n, method, threshold, pol)
    nx, ny = _grid_shape(gridsize)
    params: dict[str, Any] = {"gridsize": [nx, ny]}
    details: dict[str, Any] = {}
    if m.raw:
        xmin, xmax = _nonsingular(raw[:, 0].min(), raw[:, 0].max())
        ymin, ymax = _nonsingular(raw[:, 1].min(), raw[:, 1].max())
        extent = (float(xmin), float(xmax), float(ymin), float(ymax))
        cx, cy, counts = hexagon_counts(raw[:, 0], raw[:, 1], (nx, ny), extent)
        keep = counts > 0
        report = make_report("hexbin", method, params, names, clean.n, clean.n_dropped, pol)
        return HexbinRelease(
            cx[keep],
            cy[keep],
            counts[keep].astype(float),
            (nx, ny),
            extent,
            extent[:2],
            extent[2:],
            safe_ticks(*extent[:2]),
            safe_ticks(*extent[2:]),
            report,
        )
    threshold = pol.check_threshold(threshold)
    params["threshold"] = threshold
    # rare in the whole column, incomplete records included: a value held by one record is
    # that record's, whether or not its other coordinate is missing
    columns = [np.asarray(v, dtype=float).ravel() for v in (x, y)]
    rare = [rare_values(c[np.isfinite(c)], threshold) for c in columns]
    if m.moves_values:
        out = anonymize_values(
            raw, method, names=list(names), k=k, q=q, threshold=threshold, policy=pol
        )
        released = out.values
        params.update(out.params)
        details.update(out.details)
    else:
        check_family(m, ("counts",), "hexbin plots")
        released = raw
    if m.coarsens:
        factor = check_positive_int("factor", factor)
        nx, ny = max(1, -(-nx // factor)), max(1, -(-ny // factor))
        params.update(factor=factor, gridsize=[nx, ny])
    # hexagon centres lie on the edges and bin centres of these grids, which avoid rare values
    xedges = safe_edges(released[:, 0], nx, avoid=rare[0])
    yedges = safe_edges(released[:, 1], ny, avoid=rare[1])
    extent = (float(xedges[0]), float(xedges[-1]), float(yedges[0]), float(yedges[-1]))
    cx, cy, counts = hexagon_counts(released[:, 0], released[:, 1], (nx, ny), extent)
    shown = suppress(counts, threshold)
    refuse_if_nothing_shown(
        shown.counts,
        "hexagon",
        "Use a smaller gridsize, method='generalize', or a larger sample.",
    )
    keep = np.nan_to_num(shown.counts) > 0
    sx = (extent[1] - extent[0]) / nx
    sy = (extent[3] - extent[2]) / ny
    xlim, xticks = axis_from_range(
        float(cx[keep].min() - sx / 2), float(cx[keep].max() + sx / 2), rare[0]
    )
    ylim, yticks = axis_from_range(
        float(cy[keep].min() - sy / 3), float(cy[keep].max() + sy / 3), rare[1]
    )
    report = make_report(
        "hexbin",
        method,
        params,
        names,
        clean.n,
        clean.n_dropped,
        pol,
        cells_suppressed=shown.n_suppressed,
        details=details,
    )
    return HexbinRelease(
        cx[keep],
        cy[keep],
        shown.counts[keep],
        (nx, ny),
        extent,
        xlim,
        ylim,
        xticks,
        yticks,
        report,
    )
