"""Microaggregation: records in groups of at least k replaced by their group's mean."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..anonymize import off_rare_values
from ..anonymize.microaggregation import microaggregate
from ..policy import Policy, get_policy
from ._base import AnonymizedValues, Method, register

__all__ = ["Microaggregation"]


class Microaggregation(Method):
    """Replace records by their group's mean, groups of at least ``k`` (Senavirathne & Torra).

    Examples
    --------
    >>> Microaggregation(k=5, algorithm="mdav").get_params()
    {'k': 5, 'algorithm': 'mdav'}
    """

    name = "microaggregation"
    summary = "Records in groups of at least k are replaced by the group mean."
    note_params = ("k", "algorithm")
    moves_values = True
    groups_within_strata = True
    uses_k = True
    param_names = ("k", "algorithm")

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
        """Return the group means of `x`, groups formed within each stratum."""
        pol = get_policy(policy)
        algorithm = options["algorithm"]
        codes = np.zeros(x.shape[0], dtype=int) if strata is None else np.asarray(strata)
        out = np.empty_like(x)
        n_groups = 0
        for code in np.unique(codes):
            rows = codes == code
            mres = microaggregate(x[rows], k, algorithm, policy=pol)
            out[rows] = mres.values
            n_groups += mres.n_groups
        return AnonymizedValues(
            off_rare_values(out, x, threshold, rare),
            {"k": int(k), "algorithm": algorithm},
            {"groups": pol.round_count(n_groups)},
        )


register(Microaggregation())
