"""Deterministic anonymisation: each record is replaced by its kNN centroid (Avraam et al.)."""

from __future__ import annotations

import numpy as np

from ..anonymize.deterministic import knn_centroids
from ._base import AnonymizedValues, Method, ValueContext, register

__all__ = ["Deterministic"]


class Deterministic(Method):
    """Replace each record by the centroid of it and its ``k - 1`` nearest neighbours.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(20, 2))
    >>> from safeplot import get_policy
    >>> context = ValueContext(threshold=3, policy=get_policy(), options={}, k=4)
    >>> Deterministic().anonymize(x, context).params
    {'k': 4, 'metric': 'euclidean'}
    """

    name = "deterministic"
    summary = "Each record is replaced by the centroid of its k nearest neighbours."
    note_params = ("k",)
    moves_values = True
    groups_within_strata = True
    uses_k = True
    marks_coincident = True
    param_names = ("k",)

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return the kNN centroids of `x`, searched within each stratum."""
        c = context
        res = knn_centroids(x, c.k, metric=c.metric, strata=c.strata, policy=c.policy)
        return AnonymizedValues(
            res.values,
            {"k": res.k, "metric": res.metric},
            {"coincident_centroids": c.policy.round_count(res.n_coincident)},
            res.coincident,
        )


register(Deterministic())
