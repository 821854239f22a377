"""Small-cell suppression: counts below the threshold are not shown."""

from __future__ import annotations

from ._base import Method, register

__all__ = ["Suppress"]


class Suppress(Method):
    """Show counts of records only, each 0 or at least the policy's threshold.

    Examples
    --------
    >>> Suppress().counts_only
    True
    """

    name = "suppress"
    summary = "Counts below the threshold are hidden."
    note_params = ("threshold",)
    counts_only = True


register(Suppress())
