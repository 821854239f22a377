"""Deterministic anonymisation: each record is replaced by its kNN centroid (Avraam et al.)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..anonymize.deterministic import knn_centroids
from ..policy import Policy, get_policy
from ._base import AnonymizedValues, Method, register

__all__ = ["Deterministic"]


class Deterministic(Method):
    """Replace each record by the centroid of it and its ``k - 1`` nearest neighbours.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(20, 2))
    >>> Deterministic().anonymize(x, k=3, threshold=3, policy=None, options={}).params
    {'k': 3, 'metric': 'euclidean'}
    """

    name = "deterministic"
    summary = "Each record is replaced by the centroid of its k nearest neighbours."
    note_params = ("k",)
    moves_values = True
    groups_within_strata = True
    uses_k = True
    marks_coincident = True
    param_names = ("k",)

    def anonymize(
        self,
        x: np.ndarray,
        *,
        k: int = 3,
        q: float = 0.25,
        metric: str = "euclidean",
        names: list[str] | None = None,
        strata: np.ndarray | None = None,
        threshold: int,
        policy: Policy | None,
        options: Mapping[str, Any],
        rare: list[Any] | None = None,
    ) -> AnonymizedValues:
        """Return the kNN centroids of `x`, searched within each stratum."""
        res = knn_centroids(x, k, metric=metric, strata=strata, policy=policy)
        return AnonymizedValues(
            res.values,
            {"k": res.k, "metric": res.metric},
            {"coincident_centroids": get_policy(policy).round_count(res.n_coincident)},
            res.coincident,
        )


register(Deterministic())
