"""Exceptions raised by safeplot."""

from __future__ import annotations

__all__ = ["DisclosureError", "UnsafePlotError"]


class DisclosureError(ValueError):
    """A request would disclose individual values or breaks the disclosure policy.

    Raised before anything is drawn: for a parameter below a policy floor
    (``k`` below ``k_min``, ``threshold`` below the policy threshold, ...), a
    method the policy does not allow, or data that cannot be released safely
    (too few rows, a stratum smaller than ``k``, ...). The message names the
    rule that was hit and says what to do instead.

    It subclasses :class:`ValueError`, so code that already catches bad
    arguments keeps working.
    """


class UnsafePlotError(DisclosureError):
    """A plotting function has no safe version (it would draw raw values).

    The message names the safe alternative, for example ``stripplot`` ->
    ``boxplot(method="confidential")``.
    """
