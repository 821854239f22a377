"""No disclosure control: the raw plot, for data that is not confidential."""

from __future__ import annotations

from ._base import Method, register

__all__ = ["NoControl"]


class NoControl(Method):
    """Draw the data as it is; the policy must set ``allow_raw=True``.

    Examples
    --------
    >>> NoControl().raw
    True
    """

    name = "none"
    summary = "The raw plot (needs allow_raw=True)."
    raw = True


register(NoControl())
