"""The ledger hook sees every release before anything of it is drawn, and can refuse it.

For every case of the leak table (each public plot function and its variants),
a recording ledger notes, at each call, how many artists the figure already
holds: an axes-level function must hand all of its releases to the ledger
while its Axes is still empty. A refusing ledger must leave the Axes as it
was, no figure open and no audit entry (DESIGN invariants 6 and 7).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from safeplot import DisclosureError, audit
from safeplot.release import guard

from .refusals import expected
from .test_leaks import CASES, REFUSALS, SHAPES


def _drawn(fig) -> int:
    """The artists a plot adds to a figure: lines, patches, collections, texts, images."""
    n = len(fig.texts) + len(fig.legends) + len(fig.images)
    for ax in fig.axes:
        n += len(ax.lines) + len(ax.patches) + len(ax.collections) + len(ax.texts)
        n += len(ax.images) + len(ax.tables) + (ax.get_legend() is not None)
    return n


def _axes_level(case):
    return not case.own_figure


def _drawing(case):
    """The first method and data shape on which the case draws (not a listed refusal)."""
    for method in case.methods:
        for shape in SHAPES:
            if expected(REFUSALS, case.name, method, shape) is None:
                return method, SHAPES[shape]
    raise AssertionError(f"{case.name} draws on no shape")


AXES_CASES = [c for c in CASES if _axes_level(c) and not c.name.endswith("-dask")]


@pytest.fixture
def ledger():
    calls: list[tuple[str, int]] = []
    state: dict = {"fig": None, "refuse": False}

    def hook(function, report, release):
        fig = state["fig"]
        calls.append((function, _drawn(fig) if fig is not None else -1))
        if state["refuse"]:
            raise DisclosureError("refused by the ledger: linked with an earlier release")

    guard.set_ledger(hook)
    yield calls, state
    guard.set_ledger(None)
    plt.close("all")


@pytest.mark.parametrize("case", AXES_CASES, ids=[c.name for c in AXES_CASES])
def test_every_release_reaches_the_ledger_before_it_is_drawn(case, ledger):
    calls, state = ledger
    fig, ax = plt.subplots()
    state["fig"] = fig
    method, df = _drawing(case)
    case.draw(df, method, ax)
    assert calls, "the ledger saw no release"
    assert all(n == 0 for _, n in calls), f"drawn before the ledger saw it: {calls}"
    assert len(audit.entries()) >= 1


@pytest.mark.parametrize("case", AXES_CASES, ids=[c.name for c in AXES_CASES])
def test_a_refused_release_leaves_nothing_drawn_and_nothing_logged(case, ledger):
    calls, state = ledger
    fig, ax = plt.subplots()
    state["fig"], state["refuse"] = fig, True
    before = set(plt.get_fignums())
    method, df = _drawing(case)
    with pytest.raises(DisclosureError, match="refused by the ledger"):
        case.draw(df, method, ax)
    assert _drawn(fig) == 0
    assert audit.entries() == []
    assert set(plt.get_fignums()) == before
