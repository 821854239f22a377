"""O'Keefe's confidentialisation rules: winsorised values, rounded counts and summaries."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..anonymize.statistics import winsorize
from ..policy import Policy, get_policy
from ._base import AnonymizedValues, Method, register

__all__ = ["Confidential"]


class Confidential(Method):
    """Apply O'Keefe's rules: winsorise values, round counts and statistics, box points.

    Examples
    --------
    >>> Confidential().rule_based
    True
    """

    name = "confidential"
    summary = "O'Keefe's rules: winsorised values, rounded counts and statistics."
    note_params = ("winsor_sd", "round_to")
    moves_values = True
    rule_based = True

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
        """Return `x` winsorised at the policy's ``winsor_sd``."""
        pol = get_policy(policy)
        res = winsorize(x, policy=pol)
        return AnonymizedValues(
            res.values,
            {"winsor_sd": res.sd},
            {"values_winsorised": pol.round_count(res.n_winsorized)},
        )


register(Confidential())
