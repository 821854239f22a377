"""A fresh release ledger for one panel of a figure that compares methods.

The release ledger links releases of the same records: a ``"generalize"``
grid drawn after a ``"suppress"`` grid of the same data hides the coarse
cells whose fine cells shown would difference to a suppressed count
(``test_attacks_linked.py`` tests it). A figure that shows what each method
draws on its own releases each panel as its own session would.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from safeplot import ledger


@contextlib.contextmanager
def alone() -> Iterator[ledger.Ledger]:
    """Release what the block draws in a ledger of its own, as a new session would."""
    with ledger.using(ledger.Ledger()) as book:
        yield book
