"""Probabilistic anonymisation: keyed random noise added to each value (Avraam et al.)."""

from __future__ import annotations

import numpy as np

from ..anonymize import add_keyed_noise, off_rare_values
from ..anonymize.grids import RareValues, rare_values
from ..anonymize.probabilistic import _fingerprint
from ..release import guard
from ._base import AnonymizedValues, Method, ValueContext, register

__all__ = ["Probabilistic"]


class Probabilistic(Method):
    """Add keyed normal noise of SD ``q`` times each variable's SD.

    Examples
    --------
    >>> Probabilistic(q=0.5).get_params()
    {'q': 0.5}
    """

    name = "probabilistic"
    summary = "Keyed noise of SD q times each variable's SD is added to each value."
    note_params = ("q",)
    moves_values = True
    adds_noise = True
    param_names = ("q",)

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return `x` with keyed noise, no value left on a rare raw value."""
        c = context
        work: dict[str, list] = {}
        noisy = add_keyed_noise(x, c.q, names=c.names, policy=c.policy, _work=work)
        p = x.shape[1]
        # what the noise found on its way (each column sorted, its order and fingerprint)
        ordered = work.get("sorted") or [np.sort(x[:, j]) for j in range(p)]
        orders = work.get("orders") or [None] * p
        prints = work.get("fingerprints") or [_fingerprint(column) for column in ordered]
        columns = work.get("columns") or [x[:, j] for j in range(p)]  # contiguous: faster keys
        # a transformed copy of the same records draws new noise: the ledger counts it (after
        # the noise is made, so bad input gets its own error first; nothing is released yet)
        names = list(c.names) if c.names is not None else [None] * x.shape[1]
        for j in range(x.shape[1]):
            guard.charge_noise(
                columns[j],
                prints[j],
                c.q,
                name=names[j],
                function="probabilistic",
                order=orders[j],
                ordered=ordered[j],
            )
        # the rare values of a sorted column are listed without sorting it again
        given = c.rare if c.rare and len(c.rare) == x.shape[1] else [None] * x.shape[1]
        for j, known in enumerate(given):
            if isinstance(known, RareValues) and known.describes(x[:, j], c.threshold):
                known.use_sorted(ordered[j])
        if not c.off_rare:  # counted only, or moved off by the caller
            return AnonymizedValues(noisy, {"q": float(c.q)})
        listed = [rare_values(column, c.threshold) for column in ordered]
        return AnonymizedValues(
            off_rare_values(noisy, x, c.threshold, c.rare, listed=listed), {"q": float(c.q)}
        )


register(Probabilistic())
