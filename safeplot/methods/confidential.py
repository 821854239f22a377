"""O'Keefe's confidentialisation rules: winsorised values, rounded counts and summaries."""

from __future__ import annotations

import numpy as np

from ..anonymize.statistics import winsorize
from ._base import AnonymizedValues, Method, ValueContext, register

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

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return `x` winsorised at the policy's ``winsor_sd``."""
        pol = context.policy
        res = winsorize(x, policy=pol)
        return AnonymizedValues(
            res.values,
            {"winsor_sd": res.sd},
            {"values_winsorised": pol.round_count(res.n_winsorized)},
        )


register(Confidential())
