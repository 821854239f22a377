"""Tables of expected refusals for the tests that draw every function on every data shape.

A leak test that returns early whenever a call is refused passes for a
function that refuses everything, and for a refusal bug. Instead, each such
test keeps a table of the combinations that are refused, with the error and a
fragment of its message; every other combination must draw and pass the scan.
``check`` enforces both directions, and ``drawing_cells`` lets a coverage test
assert that every function draws on at least one data shape.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Refusal:
    """Combinations that are refused, and how.

    ``name``, ``method`` and ``shape`` are regular expressions matched in full
    against the function's name in the test, the method and the data shape;
    ``error`` is the exact exception type and ``match`` a regular expression
    searched in its message. ``why`` says why refusing is right.
    """

    name: str
    method: str
    shape: str
    error: type[Exception]
    match: str
    why: str

    def covers(self, name: str, method: str, shape: str) -> bool:
        return all(
            re.fullmatch(pattern, value)
            for pattern, value in ((self.name, name), (self.method, method), (self.shape, shape))
        )


def expected(table: Iterable[Refusal], name: str, method: str, shape: str) -> Refusal | None:
    """The entry of `table` covering this combination, or None (it must draw)."""
    hits = [r for r in table if r.covers(name, method, shape)]
    assert len(hits) <= 1, f"{name}-{method}-{shape} is covered twice: {hits}"
    return hits[0] if hits else None


def check(entry: Refusal | None, err: BaseException | None, where: str) -> None:
    """Assert that the call was refused as `entry` says, or drawn if `entry` is None.

    The failure messages start with ``REFUSED-UNEXPECTEDLY`` or
    ``DRAWN-UNEXPECTEDLY`` and name the combination, the error and its
    message: what to fix, or to add to the table with its reason.
    """
    if err is None:
        assert entry is None, f"DRAWN-UNEXPECTEDLY|{where}: listed as refused ({entry.why})"
        return
    assert entry is not None, f"REFUSED-UNEXPECTEDLY|{where}|{type(err).__name__}|{err}"
    assert type(err) is entry.error, f"{where}: expected {entry.error.__name__}, got {err!r}"
    assert re.search(entry.match, str(err)), f"{where}: unexpected message: {err}"


def drawing_cells(
    table: Iterable[Refusal], cells: Iterable[tuple[str, str, str]]
) -> dict[tuple[str, str], int]:
    """For each (name, method), how many of its data shapes are not listed as refused."""
    table = list(table)
    counts: dict[tuple[str, str], int] = {}
    for name, method, shape in cells:
        counts.setdefault((name, method), 0)
        if expected(table, name, method, shape) is None:
            counts[(name, method)] += 1
    return counts
