"""Rounding: each value replaced by the representative of its interval (Senavirathne & Torra)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..anonymize import off_rare_values
from ..anonymize.discretize import discretize
from ..policy import Policy, get_policy
from ._base import AnonymizedValues, Method, register

__all__ = ["Rounding"]


class Rounding(Method):
    """Round each value to one of ``c`` representatives formed by a ``discretizer``.

    Examples
    --------
    >>> Rounding(c=4, discretizer="efd").get_params()
    {'c': 4, 'discretizer': 'efd'}
    """

    name = "rounding"
    summary = "Each value is replaced by its interval's representative."
    note_params = ("c", "discretizer")
    moves_values = True
    param_names = ("c", "discretizer")

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
        """Return `x` rounded; each variable as a whole (levels share representatives)."""
        pol = get_policy(policy)
        dres = discretize(x, options["c"], options["discretizer"], policy=pol)
        return AnonymizedValues(
            off_rare_values(
                np.asarray(dres.values, dtype=float).reshape(x.shape), x, threshold, rare
            ),
            {"c": options["c"], "discretizer": dres.discretizer},
            {"small_intervals_merged": pol.round_count(dres.small_intervals)},
        )


register(Rounding())
