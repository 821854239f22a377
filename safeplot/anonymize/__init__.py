"""Disclosure-control numerics: numbers in, numbers out (no plotting here).

Each function takes plain arrays and the policy in force, and returns arrays:

- :func:`knn_centroids` — deterministic kNN-centroid anonymisation (Avraam et al.);
- :func:`add_keyed_noise` — probabilistic anonymisation with keyed noise (Avraam et al.);
- :func:`suppress`, :func:`generalize` — small-cell suppression and generalisation;
- :func:`safe_edges`, :func:`safe_ticks`, :func:`rare_values` — grids that reveal no raw value;
- :func:`winsorize`, :func:`round_sig`, :func:`safe_quantiles` — O'Keefe's confidentialisation;
- :func:`microaggregate` (MDAV, V-MDAV, optimal univariate) and :func:`discretize`
  (equal-width, equal-frequency, k-means, resampling-based rounding) — Senavirathne & Torra;
- :mod:`~safeplot.anonymize.dp` — differentially private counts, accuracy and range
  estimates from OpenDP (an optional dependency, imported when first used);

The methods that use these numerics, and :func:`safeplot.methods.anonymize_values`, one
entry point for the methods that move values, live in :mod:`safeplot.methods`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dp
from .deterministic import DeterministicResult, knn_centroids
from .discretize import DISCRETIZERS, DiscretizeResult, discretize, fd_bins
from .grids import (
    RareValues,
    grid_counts,
    histogram_counts,
    move_off,
    nice_step,
    off_rare,
    rare_values,
    safe_edges,
    safe_ticks,
)
from .microaggregation import MicroaggregationResult, microaggregate
from .probabilistic import add_keyed_noise, noise_sd
from .statistics import WinsorResult, round_sig, safe_quantiles, winsorize
from .suppression import SuppressedCounts, coarsen_counts, coarsen_edges, generalize, suppress

__all__ = [
    "DISCRETIZERS",
    "DeterministicResult",
    "DiscretizeResult",
    "MicroaggregationResult",
    "SuppressedCounts",
    "WinsorResult",
    "add_keyed_noise",
    "coarsen_counts",
    "coarsen_edges",
    "discretize",
    "dp",
    "fd_bins",
    "generalize",
    "grid_counts",
    "histogram_counts",
    "knn_centroids",
    "microaggregate",
    "move_off",
    "nice_step",
    "noise_sd",
    "off_rare",
    "off_rare_values",
    "rare_values",
    "round_sig",
    "safe_edges",
    "safe_quantiles",
    "safe_ticks",
    "suppress",
    "winsorize",
]


def off_rare_values(
    released: np.ndarray,
    raw: np.ndarray,
    threshold: int,
    rare: list[Any] | None = None,
    *,
    listed: list[np.ndarray] | None = None,
) -> np.ndarray:
    """Move released values that happen to equal a rare raw value by 1e-6 of the column's SD.

    A group mean or interval mean can coincide with one record's value (means
    of integers are often integers), and a noisy value can land on another
    record's value; drawn, it would show that value. The shift is far below
    what a figure resolves, and a reader has no reference to measure it
    against, since the true value is not shown anywhere. `rare` holds the
    rare values of each column of `raw` at `threshold` when the caller has
    them already (a :class:`~safeplot.anonymize.grids.RareValues` of that
    column, whose list is then made once for both); `listed` holds them as
    this module listed them from the sorted columns.
    """
    out = np.array(released, dtype=float, copy=True)
    for j in range(out.shape[1]):
        avoid = listed[j] if listed is not None else _given_rare(rare, j, raw, threshold)
        out[:, j] = off_rare(out[:, j], avoid, np.std(raw[:, j]))
    return out


def _given_rare(rare: list[Any] | None, j: int, raw: np.ndarray, threshold: int) -> Any:
    """Return the rare values of column `j` of `raw`: the caller's, if they are of it."""
    given = None if rare is None or len(rare) != raw.shape[1] else rare[j]
    if isinstance(given, RareValues) and given.describes(raw[:, j], threshold):
        return given
    return rare_values(raw[:, j], threshold)
