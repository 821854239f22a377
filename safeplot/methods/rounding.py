"""Rounding: each value replaced by the representative of its interval (Senavirathne & Torra)."""

from __future__ import annotations

import numpy as np

from ..anonymize.discretize import discretize
from ._base import AnonymizedValues, Method, ValueContext, register, release_representatives

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
        values = np.asarray(dres.values, dtype=float).reshape(x.shape)
        out = np.empty_like(values)
        for j in range(x.shape[1]):
            out[:, j] = release_representatives(values[:, j], x[:, j], context, j)
        return AnonymizedValues(
            out,
            {"c": options["c"], "discretizer": dres.discretizer},
            {"small_intervals_merged": pol.round_count(dres.small_intervals)},
        )


register(Rounding())
