"""Disclosure-control numerics: numbers in, numbers out (no plotting here).

Each function takes plain arrays and the policy in force, and returns arrays:

- :func:`knn_centroids` — deterministic kNN-centroid anonymisation (Avraam et al.);
- :func:`add_keyed_noise` — probabilistic anonymisation with keyed noise (Avraam et al.);
- :func:`suppress`, :func:`generalize` — small-cell suppression and generalisation;
- :func:`safe_edges`, :func:`safe_ticks`, :func:`rare_values` — grids that reveal no raw value;
- :func:`winsorize`, :func:`round_sig`, :func:`safe_quantiles` — O'Keefe's confidentialisation;
- :func:`anonymize_values` — one entry point for the methods that move individual values.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..policy import Policy, get_policy
from .deterministic import DeterministicResult, knn_centroids
from .grids import grid_counts, histogram_counts, nice_step, rare_values, safe_edges, safe_ticks
from .probabilistic import add_keyed_noise, noise_sd
from .statistics import WinsorResult, round_sig, safe_quantiles, winsorize
from .suppression import SuppressedCounts, coarsen_counts, coarsen_edges, generalize, suppress

__all__ = [
    "VALUE_METHODS",
    "AnonymizedValues",
    "DeterministicResult",
    "SuppressedCounts",
    "WinsorResult",
    "add_keyed_noise",
    "anonymize_values",
    "coarsen_counts",
    "coarsen_edges",
    "generalize",
    "grid_counts",
    "histogram_counts",
    "knn_centroids",
    "nice_step",
    "noise_sd",
    "rare_values",
    "round_sig",
    "safe_edges",
    "safe_quantiles",
    "safe_ticks",
    "suppress",
    "winsorize",
]

#: Methods that release modified individual values (rather than counts).
VALUE_METHODS = ("deterministic", "probabilistic", "confidential")


@dataclass(frozen=True)
class AnonymizedValues:
    """Values released by a value-level method, with what the report needs.

    Attributes
    ----------
    values : ndarray, shape (n, p)
        The released values, row for row with the input.
    params : dict
        The method's parameters as applied.
    details : dict
        Facts for the report (coinciding centroids, values winsorised, ...).
    coincident : ndarray of bool or None
        Records sharing their released value with another (deterministic only).
    """

    values: np.ndarray
    params: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    coincident: np.ndarray | None = None


def anonymize_values(
    values: ArrayLike,
    method: str,
    *,
    names: list[str] | tuple[str, ...] | None = None,
    k: int = 3,
    q: float = 0.25,
    metric: str = "euclidean",
    strata: ArrayLike | None = None,
    policy: Policy | None = None,
) -> AnonymizedValues:
    """Apply a value-level disclosure-control method to a matrix of records.

    Parameters
    ----------
    values : array-like, shape (n, p)
        Complete, finite numeric records.
    method : {"deterministic", "probabilistic", "confidential"}
        kNN centroids, keyed noise, or O'Keefe's winsorising.
    names : sequence of str, optional
        Variable names (they seed the keyed noise).
    k : int, default 3
        Records per centroid (deterministic).
    q : float, default 0.25
        Noise SD as a fraction of each variable's SD (probabilistic).
    metric : str, default "euclidean"
        Neighbour distance (deterministic).
    strata : array-like, optional
        Category per record; the deterministic search runs within each.
    policy : Policy, optional
        The policy whose floors apply (default: the policy in force).

    Returns
    -------
    AnonymizedValues

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(50, 2))
    >>> out = anonymize_values(x, "deterministic", k=3)
    >>> out.values.shape, out.params
    ((50, 2), {'k': 3, 'metric': 'euclidean'})
    """
    pol = get_policy() if policy is None else policy
    x = np.asarray(values, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if method == "deterministic":
        res = knn_centroids(x, k, metric=metric, strata=strata, policy=pol)
        return AnonymizedValues(
            res.values,
            {"k": res.k, "metric": res.metric},
            {"coincident_centroids": pol.round_count(res.n_coincident)},
            res.coincident,
        )
    if method == "probabilistic":
        noisy = add_keyed_noise(x, q, names=list(names) if names else None, policy=pol)
        return AnonymizedValues(noisy, {"q": float(q)})
    if method == "confidential":
        res = winsorize(x, policy=pol)
        return AnonymizedValues(
            res.values,
            {"winsor_sd": res.sd},
            {"values_winsorised": pol.round_count(res.n_winsorized)},
        )
    raise ValueError(
        f"method={method!r} does not release individual values; value methods are "
        f"{list(VALUE_METHODS)}."
    )
