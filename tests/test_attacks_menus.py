"""Attacks by stepping a parameter, and the audit of every release.

A reader who can choose a continuous parameter (an interval level, an
error-bar level) steps it until a rounded output steps: the point where it
steps gives an unrounded coefficient or an order statistic, i.e. a record.
Parameters that resolve records therefore come from fixed menus (DESIGN.md
section 3, invariant 5); these tests step each one as an attacker would.
Every release, tables and model summaries included, is in the audit log
(invariant 11).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError, audit
from safeplot.plots.bar import ERRORBAR_MENU, ESTIMATORS
from safeplot.release import guard

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")


@pytest.fixture
def df():
    rng = np.random.default_rng(4)
    x = rng.normal(10, 2, 200).round(2)
    return pd.DataFrame(
        {
            "x": x,
            "y": (1.5 * x + rng.normal(0, 1, 200)).round(2),
            "g": rng.choice(["a", "b", "c"], 200),
        }
    )


@pytest.mark.parametrize("call", ["conf_int", "summary_frame", "summary"])
def test_stepping_alpha_finds_no_level_outside_the_menu(df, call):
    fit = safeplot.safe_ols("y ~ x", data=df)
    accepted = []
    for alpha in np.round(np.linspace(0.005, 0.2, 40), 4):
        try:
            getattr(fit, call)(alpha=float(alpha))
        except ValueError as err:
            assert "choose one of" in str(err)
            continue
        accepted.append(float(alpha))
    assert set(accepted) <= set(guard.ALPHA_MENU)
    # the menu's levels all work, and the header of the table names the level used
    for alpha in guard.ALPHA_MENU:
        frame = fit.summary_frame(alpha=alpha)
        assert f"[{alpha / 2:g}" in frame.columns


@pytest.mark.parametrize("kind", list(ERRORBAR_MENU))
def test_stepping_an_error_bar_level_finds_no_step(df, kind):
    import matplotlib.pyplot as plt

    shown = {}
    for level in np.arange(1, 100, 0.5):
        plt.close("all")
        try:
            ax = safeplot.barplot(df, x="g", y="y", errorbar=(kind, float(level)))
        except ValueError as err:
            assert "choose one of" in str(err)
            continue
        shown[float(level)] = [line.get_ydata().tolist() for line in ax.lines]
    assert set(shown) == {float(v) for v in ERRORBAR_MENU[kind]}


def test_custom_estimators_are_refused_and_numpy_names_accepted(df):
    with pytest.raises(DisclosureError, match="named estimators"):
        safeplot.barplot(df, x="g", y="y", estimator=lambda v: float(np.sort(v)[1]))
    with pytest.raises(DisclosureError, match="record"):
        safeplot.barplot(df, x="g", y="y", estimator="max")
    import matplotlib.pyplot as plt

    heights = []
    for estimator in (np.mean, "mean"):
        plt.close("all")
        ax = safeplot.barplot(df, x="g", y="y", estimator=estimator, errorbar=None)
        heights.append([p.get_height() for p in ax.patches])
    assert heights[0] == heights[1]
    assert "mean" in ESTIMATORS


def test_every_release_of_a_session_is_in_the_audit_log(df):
    """Fit, summary, conf_int, describe and corr: one entry each, with what links them."""
    fit = safeplot.safe_ols("y ~ x", data=df)
    str(fit.summary())
    fit.conf_int(alpha=0.1)
    safeplot.describe(df[["x", "y"]])
    safeplot.corr(df[["x", "y"]])
    functions = [e.function for e in audit.entries()]
    assert functions == ["safe_ols", "summary", "conf_int", "describe", "corr"]
    conf = audit.entries()[2]
    assert conf.params["alpha"] == 0.1 and conf.params["formula"] == "y ~ x"
    assert conf.released is not None  # the released numbers, for the output checker
