"""Rounding: each value replaced by the representative of its interval (Senavirathne & Torra)."""

from __future__ import annotations

import numpy as np

from ..anonymize import off_rare_values
from ..anonymize.discretize import discretize
from ._base import AnonymizedValues, Method, ValueContext, register

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

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return `x` rounded; each variable as a whole (levels share representatives)."""
        options, pol = context.options, context.policy
        dres = discretize(x, options["c"], options["discretizer"], policy=pol)
        return AnonymizedValues(
            off_rare_values(
                np.asarray(dres.values, dtype=float).reshape(x.shape),
                x,
                context.threshold,
                context.rare,
            ),
            {"c": options["c"], "discretizer": dres.discretizer},
            {"small_intervals_merged": pol.round_count(dres.small_intervals)},
        )


register(Rounding())
