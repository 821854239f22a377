"""What every ``method="dp"`` plot checks first: the epsilon of its release.

Shared by the plots that take differential privacy (histograms, grids,
tables, ECDFs, densities); it imports no plot module, so any of them may
use it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["dp_epsilon", "dp_hue_levels"]


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


def dp_hue_levels(function: str, hue: Any, hue_order: Any, role: str = "hue") -> None:
    """Refuse a ``method="dp"`` plot with `hue` whose levels the call does not name.

    Under differential privacy the set of levels must be public, as a count
    plot's categories are (``order=``): levels read from the records, or a
    refusal of a level because few records hold it, would depend on
    individual records. With `hue_order` the named levels are drawn whatever
    their counts (each count carries noise) and records of other levels are
    left out. `role` names the argument in the message (``"col"`` asks for
    ``col_order=``).

    Examples
    --------
    >>> dp_hue_levels("histplot", "sex", ["female", "male"])
    >>> dp_hue_levels("histplot", None, None)
    """
    if hue is not None and hue_order is None:
        raise ValueError(
            f"{function}: method='dp' needs the {role} levels before the data is read: give "
            f"{role}_order= (the levels to show, from public knowledge of the variable). "
            "Levels read from the records would depend on individual records."
        )
