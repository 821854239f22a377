"""Generalisation: bins are widened and small categories merged until cells are safe."""

from __future__ import annotations

from ._base import Method, register

__all__ = ["Generalize"]


class Generalize(Method):
    """Show counts of records on coarser bins (``factor``) and merged categories.

    Examples
    --------
    >>> Generalize(factor=2).get_params()
    {'factor': 2}
    """

    name = "generalize"
    summary = "Bins are widened by `factor` and small categories merged."
    note_params = ("threshold", "factor")
    counts_only = True
    coarsens = True
    param_names = ("factor",)


register(Generalize())
