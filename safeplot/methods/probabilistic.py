"""Probabilistic anonymisation: keyed random noise added to each value (Avraam et al.)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..anonymize import add_keyed_noise, off_rare_values
from ..anonymize.grids import RareValues, rare_values
from ..policy import Policy
from ._base import AnonymizedValues, Method, register

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
        """Return `x` with keyed noise, no value left on a rare raw value."""
        ordered: list[np.ndarray] = []
        noisy = add_keyed_noise(
            x, q, names=list(names) if names else None, policy=policy, _sorted=ordered
        )
        # the rare values of a sorted column are listed without sorting it again
        listed = None
        if len(ordered) == x.shape[1]:
            listed = [rare_values(column, threshold) for column in ordered]
            given = rare if rare and len(rare) == x.shape[1] else [None] * x.shape[1]
            for j, known in enumerate(given):
                if isinstance(known, RareValues) and known.describes(x[:, j], threshold):
                    known.use_sorted(ordered[j])
        return AnonymizedValues(
            off_rare_values(noisy, x, threshold, rare, listed=listed), {"q": float(q)}
        )


register(Probabilistic())
