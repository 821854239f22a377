"""Histogram bins on a log scale, as seaborn's ``histplot(log_scale=...)`` places them.

seaborn bins a variable on a log axis in the logarithm of its values: the
edges are evenly spaced in ``log(x)``. safeplot does the same with released
bins: the values are transformed first, the histogram is released on the
log scale (a safe grid of edges evenly spaced between the logarithms of the
released range, small bins suppressed as on a linear axis), and the edges
are turned back into data units for the release and the axis. Equal values
stay equal under the logarithm, so the values rare on one scale are those
rare on the other.
"""

from __future__ import annotations

import math
from dataclasses import replace
from numbers import Number
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter

from ..release import HistogramRelease
from ._categories import log_axis

__all__ = ["axis_labels", "from_log", "log_base", "to_log"]


def log_base(log_scale: Any, orient: str, function: str = "histplot") -> float | None:
    """Return the log base of the axis of the values (None: linear), as seaborn reads it.

    Examples
    --------
    >>> log_base(True, "x"), log_base(2, "x"), log_base((False, True), "x")
    (10.0, 2.0, None)
    """
    given = log_scale
    if isinstance(log_scale, (tuple, list)):
        if len(log_scale) != 2:
            raise ValueError(
                f"{function}: log_scale as a pair needs two values (x, y), got {log_scale!r}."
            )
        given = log_scale[0 if orient == "x" else 1]
    if given is None or given is False:
        return None
    if given is True:
        return 10.0
    if isinstance(given, Number) and not isinstance(given, bool):
        base = float(given)
        if math.isfinite(base) and base > 0 and base != 1:
            return base
    raise ValueError(
        f"{function}: log_scale must be True, False, a base (a positive number other than 1) "
        f"or a pair of them; got {log_scale!r}."
    )


def to_log(values: np.ndarray, base: float, name: str, function: str = "histplot") -> np.ndarray:
    """Return ``log(values)`` in `base`; refuse zero or negative values with a clear error.

    Examples
    --------
    >>> to_log(np.array([1.0, 100.0]), 10.0, "x")
    array([0., 2.])
    """
    values = np.asarray(values, dtype=float)
    if (values <= 0).any():
        raise ValueError(
            f"{function}: log_scale needs positive values, but {name!r} has values that are "
            "zero or negative, which have no logarithm. Drop them (or shift the variable) "
            "first, or plot on a linear scale."
        )
    return np.log(values) / np.log(base)


def from_log(
    releases: list[HistogramRelease], base: float, rare: np.ndarray
) -> list[HistogramRelease]:
    """Return the releases with edges in data units and a log axis' limits and ticks.

    The edges are ``base ** edge`` of the released log-scale edges; the
    limits span the shown edges with matplotlib's margin, and the ticks are
    powers of the base (or 2x, 5x them) that equal no rare raw value.
    """
    edges = base ** np.asarray(releases[0].edges, dtype=float)
    lo, hi = base ** np.asarray(releases[0].xlim, dtype=float)
    lim, ticks = log_axis(float(lo), float(hi), rare, base)
    out = []
    for rel in releases:
        rel = replace(rel, edges=edges.copy(), xlim=lim, xticks=ticks)
        rel.report.details["log_scale"] = base
        out.append(rel)
    return out


def axis_labels(ax: Axes, orient: str) -> None:
    """Plain labels for the released ticks of a log axis; minor ticks unlabelled."""
    axis = ax.xaxis if orient == "x" else ax.yaxis
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_formatter(NullFormatter())
