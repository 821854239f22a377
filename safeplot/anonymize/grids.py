"""Safe grids: bin edges, grid cells, axis limits and ticks that reveal no raw value.

Numbers a figure shows that are not data — bin edges, cell centres, axis
limits, tick positions — can still leak data when they are computed from it:
numpy's and seaborn's default bins start exactly at the minimum and end at the
maximum, so a histogram of a registry's ages prints the oldest person's age as
its last edge. safeplot instead places every such number on a *rounded grid*:
a "nice" step (1, 2, 2.5 or 5 times a power of ten), an outermost edge on each
side strictly beyond the data, and no edge, centre or tick equal (to a relative
1e-9) to any *rare* raw value — one held by fewer than ``threshold`` records.
When a grid point would hit a rare value the grid is shifted by a fraction of
its step (or the step is widened), which reveals nothing about which value
was avoided.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..errors import DisclosureError

__all__ = [
    "grid_counts",
    "histogram_counts",
    "hits_any",
    "nice_step",
    "rare_values",
    "safe_edges",
    "safe_ticks",
]

#: Mantissas of "nice" steps, in increasing order.
NICE_MANTISSAS = (1.0, 2.0, 2.5, 5.0, 10.0)
#: Fractions of a step by which a grid may be shifted to avoid rare values.
# grid offsets tried in turn (fractions of a step); the last ones are binary fractions that
# data recorded to a few decimal places cannot hit
_OFFSETS = (0.0, 0.5, 0.25, 0.75, 0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9, 0.125, 0.375, 0.0625)
#: Relative tolerance within which a drawn number "equals" a raw value.
MATCH_RTOL = 1e-9


def nice_step(raw: float) -> float:
    """Return the smallest "nice" step (1, 2, 2.5 or 5 x 10**e) that is at least `raw`.

    Examples
    --------
    >>> nice_step(0.37), nice_step(3.0), nice_step(7.2), nice_step(230.0)
    (0.5, 5.0, 10.0, 250.0)
    """
    if not math.isfinite(raw) or raw <= 0:
        raise ValueError(f"A grid step must be positive and finite, got {raw}.")
    exponent = math.floor(math.log10(raw))
    for mantissa in NICE_MANTISSAS:
        step = mantissa * 10.0**exponent
        if step >= raw * (1 - 1e-12):
            return float(np.round(step, max(0, 3 - exponent)))
    return 10.0 ** (exponent + 1)  # pragma: no cover - mantissa 10 always fits


def _next_nice(step: float) -> float:
    return nice_step(step * (1 + 1e-9))


def _on_grid(first: float, step: float, n: int) -> np.ndarray:
    """Return ``first + step * arange(n)`` rounded to the step's precision (0.1 + 0.2 -> 0.3)."""
    decimals = max(0, 3 - math.floor(math.log10(step)))
    return np.round(first + step * np.arange(n), decimals)


def rare_values(values: ArrayLike, threshold: int) -> np.ndarray:
    """Return the distinct values held by fewer than `threshold` records, sorted.

    These are the values no drawn number may equal (DESIGN invariant 2).

    Examples
    --------
    >>> rare_values([1, 1, 1, 2, 5, 5], threshold=3)
    array([2., 5.])
    """
    x = np.asarray(values, dtype=float).ravel()
    x = np.sort(x[np.isfinite(x)])
    if x.size == 0:
        return x
    # runs of equal values in the sorted data: their starts and lengths
    starts = np.flatnonzero(np.r_[True, x[1:] != x[:-1]])
    lengths = np.diff(np.r_[starts, x.size])
    return x[starts[lengths < threshold]]


def hit_mask(points: ArrayLike, avoid: ArrayLike, rtol: float = MATCH_RTOL) -> np.ndarray:
    """Tell, per point, whether it equals (within relative `rtol`) a value in `avoid`.

    Each point is compared with its two neighbours in sorted `avoid`, so the
    cost is O((n + m) log m) however many values are to be avoided.

    Examples
    --------
    >>> hit_mask([1.0, 2.0, np.nan], [2.0 + 1e-12, 5.0])
    array([False,  True, False])
    """
    points = np.asarray(points, dtype=float)
    avoid = np.asarray(avoid, dtype=float).ravel()
    hit = np.zeros(points.shape, dtype=bool)
    if avoid.size == 0 or points.size == 0:
        return hit
    if avoid.size > 1 and (np.diff(avoid) < 0).any():
        avoid = np.sort(avoid)
    pos = np.searchsorted(avoid, points)
    for nb in (np.clip(pos - 1, 0, avoid.size - 1), np.clip(pos, 0, avoid.size - 1)):
        near = avoid[nb]
        hit |= np.abs(points - near) <= rtol * np.maximum(np.abs(points), np.abs(near))
    return hit & np.isfinite(points)


def hits_any(points: ArrayLike, avoid: ArrayLike) -> bool:
    """Tell whether any of `points` equals (relative 1e-9) a value in `avoid`.

    Examples
    --------
    >>> hits_any([1.0, 2.0], np.array([2.0 + 1e-12]))
    True
    """
    return bool(hit_mask(points, avoid).any())


def safe_edges(
    values: ArrayLike,
    bins: int | str = "auto",
    *,
    binwidth: float | None = None,
    avoid: ArrayLike | None = None,
    n_bins: int | None = None,
) -> np.ndarray:
    """Bin edges on a rounded grid that extends strictly beyond the data.

    The number of bins is ``bins`` (an int, or a numpy rule such as
    ``"auto"``, ``"fd"``, ``"sturges"``); their width is the nice step at
    least ``range / bins``; the first edge lies strictly below the minimum
    and the last strictly above the maximum, so neither discloses an extreme
    value. No edge and no bin centre equals a value in `avoid` (give the rare
    raw values).

    Parameters
    ----------
    values : array-like
        The values to bin (finite).
    bins : int or str, default "auto"
        Number of bins, or a rule understood by :func:`numpy.histogram_bin_edges`.
    binwidth : float, optional
        Use this width instead (the grid is aligned to its multiples).
    avoid : array-like, optional
        Values no edge or centre may equal (e.g. :func:`rare_values` of the raw data).
    n_bins : int, optional
        The number of bins the rule `bins` gives for the data, when `values`
        holds only their extremes (data counted out of core).

    Returns
    -------
    ndarray
        Increasing edges, ``edges[0] < min(values)`` and ``edges[-1] > max(values)``.

    Examples
    --------
    >>> safe_edges([1.3, 2.0, 4.9, 7.7], bins=4)
    array([0., 2., 4., 6., 8.])

    Two bins cannot cover [0, 10] strictly on the grid of tens, so the grid is
    shifted by half a step rather than ending on the data's extremes:

    >>> safe_edges([0.0, 10.0], bins=2)
    array([-5.,  5., 15.])

    Rare values to avoid also move the grid (edges and bin centres):

    >>> safe_edges([1.3, 2.0, 4.9, 7.7], bins=4, avoid=[2.0, 4.9])
    array([0.5, 2.5, 4.5, 6.5, 8.5])
    """
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0 or not np.isfinite(x).all():
        raise ValueError("safe_edges needs a non-empty array of finite values.")
    lo, hi = float(x.min()), float(x.max())
    avoid_arr = np.sort(np.asarray(avoid if avoid is not None else [], dtype=float).ravel())
    if binwidth is not None:
        if not (binwidth > 0 and math.isfinite(binwidth)):
            raise ValueError(f"binwidth must be positive and finite, got {binwidth}.")
        return _aligned_edges(lo, hi, float(binwidth), avoid_arr)
    n_bins = _bin_count(x, bins) if n_bins is None else int(n_bins)
    span = hi - lo if hi > lo else max(abs(lo), 1.0)
    if span < 1e-12 * max(abs(lo), abs(hi)) or span < 1e-250:
        raise ValueError(
            "The values span less than 1e-12 of their magnitude: they are effectively constant "
            "and cannot be binned. Check the units, or drop the variable."
        )
    step = nice_step(span / n_bins)
    if isinstance(bins, str):
        # a rule asks for a bin width: take the nice step nearest to it (it may be narrower)
        # and as many bins as the data need, rather than a count of wider bins
        target = span / n_bins
        nearest = min(
            {nice_step(target * f) for f in (0.4, 0.5, 0.8, 1.0)},
            key=lambda st: abs(math.log(st / target)),
        )
        if math.ceil(span / nearest) + 1 <= MAX_BINS:
            step = nearest
            n_bins = math.ceil(span / step * (1 - 1e-12)) + 1
    for _ in range(60):
        for frac in _OFFSETS:
            offset = frac * step
            # centre the grid's slack around the data, the first edge strictly below the minimum
            slack = n_bins * step - span
            first = math.floor((lo - slack / 2 - offset) / step) * step + offset
            if first >= lo:
                first -= step
            while first + n_bins * step <= hi and first + step < lo:
                first += step
            if first + n_bins * step <= hi:
                continue
            edges = _on_grid(first, step, n_bins + 1)
            centres = _on_grid(first + step / 2, step, n_bins)
            if (
                edges[0] < lo
                and edges[-1] > hi
                and not hits_any(edges, avoid_arr)
                and not hits_any(centres, avoid_arr)
            ):
                return edges
        step = _next_nice(step)
    raise DisclosureError(  # pragma: no cover - needs an adversarial set of values to avoid
        "Could not place bin edges that avoid every rare value; use fewer bins or a binwidth."
    )


def _aligned_edges(lo: float, hi: float, width: float, avoid: np.ndarray) -> np.ndarray:
    for frac in _OFFSETS:
        offset = frac * width
        first = math.floor((lo - offset) / width) * width + offset
        if first >= lo:
            first -= width
        n = math.floor((hi - first) / width) + 1
        if n > MAX_BINS:
            raise ValueError(
                f"binwidth={width} makes {n} bins over the data's range; at most {MAX_BINS} are "
                "allowed. Use a wider binwidth or give bins as a count."
            )
        if first + n * width <= hi:
            n += 1
        edges = _on_grid(first, width, n + 1)
        centres = _on_grid(first + width / 2, width, n)
        if not hits_any(edges, avoid) and not hits_any(centres, avoid):
            return edges
    raise DisclosureError(
        f"Every grid of width {width} puts an edge on a rare data value; choose another binwidth."
    )


#: Most bins a rule may ask for (numpy's "fd" asks for millions when the IQR is tiny).
MAX_BINS = 1000


def rule_bin_count(
    rule: str,
    n: int,
    span: float,
    std: Callable[[], float],
    iqr: Callable[[], float],
    values: Callable[[], np.ndarray] | None = None,
) -> int:
    """Count bins as numpy's binning rules do, from summary statistics of the data.

    The same estimators as :func:`numpy.histogram_bin_edges`, without the
    edges. `std` and `iqr` are called only by the rules that need them, so an
    out-of-core caller computes only what the rule asks for; "doane" and
    "stone" need every value (`values`) and are refused without it.

    Examples
    --------
    >>> x = np.arange(100.0)
    >>> rule_bin_count("sturges", x.size, 99.0, x.std, lambda: 49.5)
    8
    >>> len(np.histogram_bin_edges(x, "sturges")) - 1
    8
    """
    sturges = math.log2(n) + 1.0

    def from_width(width: float) -> float:
        return span / width if width > 0 and span > 0 else 1.0

    if rule == "sturges":
        count = sturges
    elif rule == "sqrt":
        count = math.sqrt(n)
    elif rule == "rice":
        count = 2.0 * n ** (1 / 3)
    elif rule == "scott":
        count = from_width((24.0 * math.sqrt(math.pi) / n) ** (1 / 3) * float(std()))
    elif rule in ("fd", "auto"):
        spread = float(iqr())
        fd = from_width(2.0 * spread * n ** (-1 / 3)) if spread > 0 else 0.0
        count = fd if rule == "fd" else max(fd, sturges)
    elif rule in ("doane", "stone"):
        if values is None:
            raise ValueError(
                f"bins={rule!r} needs every value in memory; give bins as a number, or a rule "
                "such as 'auto', 'fd' or 'sturges'."
            )
        count = len(np.histogram_bin_edges(values(), bins=rule)) - 1
    else:
        raise ValueError(
            f"bins={rule!r} is not a binning rule; use an int or one of 'auto', 'fd', 'doane', "
            "'scott', 'stone', 'rice', 'sturges', 'sqrt'."
        )
    return int(min(max(math.ceil(count), 1), MAX_BINS))


def _rule_bin_count(x: np.ndarray, rule: str) -> int:
    """Count bins as numpy's binning rules do for the values `x`."""
    return rule_bin_count(
        rule,
        x.size,
        float(x.max() - x.min()),
        lambda: float(np.std(x)),
        lambda: float(np.subtract(*np.percentile(x, [75, 25]))),
        lambda: x,
    )


def _bin_count(x: np.ndarray, bins: int | str) -> int:
    if isinstance(bins, str):
        return _rule_bin_count(x, bins)
    if isinstance(bins, bool) or not isinstance(bins, (int, np.integer)):
        raise TypeError(
            f"bins must be an int or a rule name like 'auto', got {bins!r}. "
            "Explicit edges computed from the data can disclose it; give a count or a binwidth."
        )
    if bins < 1:
        raise ValueError(f"bins must be at least 1, got {bins}.")
    if bins > MAX_BINS:
        raise ValueError(f"bins must be at most {MAX_BINS}, got {bins}.")
    return int(bins)


def safe_ticks(
    lo: float, hi: float, *, avoid: ArrayLike | None = None, n_target: int = 5
) -> np.ndarray:
    """Tick positions on a nice grid inside [lo, hi], none equal to a value in `avoid`.

    The step is the nice step nearest to ``(hi - lo) / n_target``; if a tick
    would equal a rare value the ticks are shifted by a fraction of the step or
    the step widened, so the scheme never drops just one tick (a missing tick
    would itself point at the rare value).

    Examples
    --------
    >>> safe_ticks(0.0, 10.0)
    array([ 0.,  2.,  4.,  6.,  8., 10.])
    >>> safe_ticks(0.0, 10.0, avoid=[4.0])
    array([1., 3., 5., 7., 9.])
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        raise ValueError(f"Tick range must be finite and increasing, got ({lo}, {hi}).")
    avoid_arr = np.sort(np.asarray(avoid if avoid is not None else [], dtype=float).ravel())
    step = nice_step((hi - lo) / max(n_target, 1) * 0.75)
    for _ in range(30):
        for frac in _OFFSETS:
            offset = frac * step
            first = math.ceil((lo - offset) / step - 1e-9) * step + offset
            ticks = _on_grid(first, step, int((hi - first) / step + 1e-9) + 1)
            ticks = ticks[(ticks >= lo - 1e-12 * abs(lo)) & (ticks <= hi + 1e-12 * abs(hi))]
            if ticks.size >= 2 and not hits_any(ticks, avoid_arr):
                return ticks
        step = _next_nice(step)
    raise DisclosureError(  # pragma: no cover
        "Could not place axis ticks that avoid every rare value."
    )


def histogram_counts(values: ArrayLike, edges: Sequence[float] | np.ndarray) -> np.ndarray:
    """Count values per bin (left-closed bins, the last one closed), as integers.

    Examples
    --------
    >>> histogram_counts([0.5, 1.5, 1.7, 3.0], [0, 1, 2, 3])
    array([1, 2, 1])
    """
    counts, _ = np.histogram(np.asarray(values, dtype=float), bins=np.asarray(edges, dtype=float))
    return counts.astype(np.int64)


def grid_counts(x: ArrayLike, y: ArrayLike, xedges: np.ndarray, yedges: np.ndarray) -> np.ndarray:
    """Count (x, y) pairs per cell of a rectangular grid; shape ``(len(xedges)-1, len(yedges)-1)``.

    Equivalent to :func:`numpy.histogram2d` for edges that cover the data,
    and linear-time (``bincount`` of cell indices) for millions of points.

    Examples
    --------
    >>> grid_counts([0.5, 0.6, 1.5], [0.5, 0.5, 0.5], [0, 1, 2], [0, 1])
    array([[2],
           [1]])
    """
    xv = np.asarray(x, dtype=float)
    yv = np.asarray(y, dtype=float)
    xedges = np.asarray(xedges, dtype=float)
    yedges = np.asarray(yedges, dtype=float)
    nx, ny = xedges.size - 1, yedges.size - 1
    ix = np.clip(_bin_index(xv, xedges), 0, nx - 1)
    iy = np.clip(_bin_index(yv, yedges), 0, ny - 1)
    inside = (xv >= xedges[0]) & (xv <= xedges[-1]) & (yv >= yedges[0]) & (yv <= yedges[-1])
    flat = np.bincount(ix[inside] * ny + iy[inside], minlength=nx * ny)
    return flat.reshape(nx, ny).astype(np.int64)


def _bin_index(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Return ``searchsorted(edges, values, side="right") - 1``, clipped to [-1, len(edges) - 1].

    Evenly spaced edges (every safe grid) are computed arithmetically and
    corrected where rounding put a value one bin off, which is exact and
    about twice as fast as the binary search at a million values.
    """
    nb = edges.size - 1
    widths = np.diff(edges)
    if nb < 1 or np.ptp(widths) > 1e-9 * abs(widths[0]) or widths[0] <= 0:
        return np.clip(np.searchsorted(edges, values, side="right") - 1, -1, nb)
    i = np.floor((values - edges[0]) * (nb / (edges[-1] - edges[0])))
    np.clip(i, -1, nb, out=i)
    with np.errstate(invalid="ignore"):  # NaN: no bin (the caller's range test drops it)
        i = i.astype(np.intp)
    i -= (values < edges[np.clip(i, 0, nb)]) & (i >= 0)
    i += (values >= edges[np.clip(i + 1, 0, nb)]) & (i < nb)
    return i
