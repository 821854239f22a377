"""Microaggregation: records in groups of at least k replaced by their group's mean."""

from __future__ import annotations

import numpy as np

from ..anonymize.microaggregation import microaggregate
from ..policy import Policy, get_policy
from ._base import AnonymizedValues, Method, ValueContext, register, release_representatives

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

    def group_floor(self, policy: Policy | None = None, k: int | None = None) -> tuple[int, str]:
        """Return 2k when above the base floor: with fewer, one group would hold every record."""
        if k is None:
            k = get_policy(policy).check_k(None)  # the policy's floor when the call has no k
        need, why = super().group_floor(policy, k)
        if 2 * int(k) > need:
            return 2 * int(k), f"2*k={2 * int(k)}"
        return need, why

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return the group means of `x`, groups formed within each stratum."""
        c, pol = context, context.policy
        algorithm = c.options["algorithm"]
        codes = np.zeros(x.shape[0], dtype=int) if c.strata is None else np.asarray(c.strata)
        out = np.empty_like(x)
        n_groups = 0
        for code in np.unique(codes):
            rows = codes == code
            mres = microaggregate(x[rows], c.k, algorithm, policy=pol)
            out[rows] = mres.values
            n_groups += mres.n_groups
        for j in range(x.shape[1]):
            out[:, j] = release_representatives(out[:, j], x[:, j], context, j)
        return AnonymizedValues(
            out,
            {"k": int(c.k), "algorithm": algorithm},
            {"groups": pol.round_count(n_groups)},
        )


register(Microaggregation())
