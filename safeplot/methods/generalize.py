"""Generalisation: bins are widened and small categories merged until cells are safe."""

from __future__ import annotations

from typing import Any

from ..policy import Policy
from ._base import Method, register

__all__ = ["Generalize"]


class Generalize(Method):
    """Show counts of records on coarser bins (``factor``) and merged categories.

    Examples
    --------
    >>> Generalize(factor=2).get_params()
    {'factor': 2}
    """

    name = "generalize"
    summary = "Bins are widened by `factor` and small categories merged."
    note_params = ("threshold", "factor")
    counts_only = True
    coarsens = True
    param_names = ("factor",)

    def validate(self, policy: Policy | None = None, **params: Any) -> dict[str, Any]:
        """Check ``factor`` (a positive whole number) as well as the policy's floors."""
        used = super().validate(policy, **params)
        if "factor" in used:
            factor = used["factor"]
            if isinstance(factor, bool) or not isinstance(factor, int) or factor < 1:
                raise ValueError(f"factor must be a positive whole number, got {factor!r}.")
        return used


register(Generalize())
