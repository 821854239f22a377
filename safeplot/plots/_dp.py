"""What every ``method="dp"`` plot checks first: the epsilon of its release.

Shared by the plots that take differential privacy (histograms, grids,
tables, ECDFs, densities); it imports no plot module, so any of them may
use it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["dp_epsilon"]


def dp_epsilon(m: Any, epsilon: float | None) -> float:
    """Return the epsilon of a ``method="dp"`` release: the call's, the method's, or the default.

    Raises a ValueError when the call and the method object name different
    epsilons, or the epsilon is not a positive finite number, and an
    ImportError saying how to install OpenDP when it is missing. Nothing is
    spent here.

    Examples
    --------
    >>> from safeplot.methods import get_method
    >>> dp_epsilon(get_method("dp"), 0.5)
    0.5
    """
    from ..anonymize import dp as dpnum

    given = m.get_params().get("epsilon")
    if epsilon is not None and given is not None and float(epsilon) != float(given):
        raise ValueError(f"epsilon={epsilon!r} contradicts the method's epsilon={given!r}.")
    eps = dpnum.check_epsilon(
        epsilon if epsilon is not None else given if given is not None else m.default_epsilon
    )
    if not dpnum.opendp_available():
        dpnum._dp()  # raises, saying how to install OpenDP
    return eps
