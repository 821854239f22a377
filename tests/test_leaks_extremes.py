"""The leak table at the extremes of each function's resolution parameters.

``tests/test_leaks.py`` draws every public plot function with its default
arguments. A reader who wants a record's value turns the knobs that resolve
records: one bin per value, a bin wider than the data, the narrowest kernel,
the finest grid, the highest polynomial order, the widest whiskers, the
finest generalisation or rounding, the narrowest interval. Each case below
sets one such knob to an extreme of what the function accepts; every method
is drawn on the data shapes with planted rare values, and each combination
must either draw and pass the leak scanner (no rare raw value, no count in
(0, threshold)), or be refused with a clear error that leaves no figure and
no audit entry. Every case must draw on the data with heavy ties
(:data:`MUST_DRAW`), so none is tested by its refusals alone.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import safeplot
from safeplot import audit
from safeplot.methods import get_method
from safeplot.plots.bar import BAR_METHODS
from safeplot.plots.categorical import BOX_METHODS
from safeplot.plots.distributions import HIST_METHODS
from safeplot.plots.ecdf import ECDF_METHODS
from safeplot.plots.grid import GRID_METHODS
from safeplot.plots.kde import GRIDSIZE_MENU, KDE_METHODS
from safeplot.plots.line import LINE_METHODS
from safeplot.plots.point import POINT_METHODS
from safeplot.plots.relational import SCATTER_METHODS
from safeplot.plots.survival import SURVIVAL_METHODS
from safeplot.policy import METHODS

from .test_leaks import (
    SHAPES,
    Case,
    _draw,
    _private_findings,
    _resid,
    _safe,
    _scan,
    _with_events,
    _xy,
)


def _x(df):
    return {"x": df["x"].to_numpy()}


def _hist(name, **kws):
    return Case(
        f"histplot-{name}",
        lambda df, m, ax: safeplot.histplot(data=df, x="x", method=m, ax=ax, **kws),
        _safe(HIST_METHODS),
        _x,
    )


#: One case per extreme setting of a resolution parameter.
EXTREMES = [
    # bins: one bin, a bin per few records, bins narrower than the rounding of the data
    _hist("bins-1", bins=1),
    _hist("bins-400", bins=400),
    _hist("binwidth-below-ties", binwidth=0.6),  # one bin per integer, gaps between
    _hist("binwidth-huge", binwidth=1e4),
    _hist("discrete", discrete=True),
    Case(
        "histplot-density-cumulative",
        lambda df, m, ax: safeplot.histplot(
            data=df, x="x", stat="density", cumulative=True, method=m, ax=ax
        ),
        _safe(HIST_METHODS),
        _x,
        {"count_axis": None},  # heights are densities; positions are still scanned
    ),
    Case(
        "histplot-bivariate-bins-100",
        lambda df, m, ax: safeplot.histplot(data=df, x="x", y="y", bins=100, method=m, ax=ax),
        _safe(GRID_METHODS),
        _xy,
        {"counts_in_colour": True},
    ),
    # kernels: the narrowest bandwidth and finest grid allowed, no cut, a wide cut
    Case(
        "kdeplot-narrowest-finest",
        lambda df, m, ax: safeplot.kdeplot(
            data=df, x="x", bw_adjust=0.5, gridsize=max(GRIDSIZE_MENU), method=m, ax=ax
        ),
        _safe(KDE_METHODS),
        _x,
    ),
    Case(
        "kdeplot-cut-0",
        lambda df, m, ax: safeplot.kdeplot(data=df, x="x", cut=0, method=m, ax=ax),
        _safe(KDE_METHODS),
        _x,
    ),
    Case(
        "kdeplot-cut-10",
        lambda df, m, ax: safeplot.kdeplot(data=df, x="x", cut=10, method=m, ax=ax),
        _safe(KDE_METHODS),
        _x,
    ),
    Case(
        "kdeplot-bivariate-many-levels",
        lambda df, m, ax: safeplot.kdeplot(
            data=df, x="x", y="y", levels=50, thresh=0.001, bw_adjust=0.5, method=m, ax=ax
        ),
        _safe(KDE_METHODS),
        _xy,
    ),
    # whiskers: shortest and longest
    Case(
        "boxplot-whis-0.1",
        lambda df, m, ax: safeplot.boxplot(data=df, x="g", y="y", whis=0.1, method=m, ax=ax),
        _safe(BOX_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "boxplot-whis-100",
        lambda df, m, ax: safeplot.boxplot(data=df, x="g", y="y", whis=100, method=m, ax=ax),
        _safe(BOX_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    # regression: the highest order allowed, binned x, the widest interval
    Case(
        "regplot-order-3",
        lambda df, m, ax: safeplot.regplot(
            data=df, x="x", y="y", order=3, n_boot=50, seed=0, method=m, ax=ax
        ),
        _safe(METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "regplot-x-bins-ci-99",
        lambda df, m, ax: safeplot.regplot(
            data=df, x="x", y="y", x_bins=10, ci=99, n_boot=50, seed=0, method=m, ax=ax
        ),
        _safe(METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "residplot-order-3",
        lambda df, m, ax: safeplot.residplot(data=df, x="x", y="y", order=3, method=m, ax=ax),
        _safe(METHODS),
        lambda df: {"x": df["x"].to_numpy(), "y": np.concatenate(_resid(df))},
        {"count_axis": None},
    ),
    # intervals: the narrowest and widest levels of the menu
    Case(
        "barplot-pi-50",
        lambda df, m, ax: safeplot.barplot(
            data=df, x="g", y="y", errorbar=("pi", 50), method=m, ax=ax
        ),
        _safe(BAR_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "pointplot-ci-99-median",
        lambda df, m, ax: safeplot.pointplot(
            data=df,
            x="g",
            y="y",
            errorbar=("ci", 99),
            estimator="median",
            n_boot=50,
            method=m,
            ax=ax,
        ),
        _safe(POINT_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "lineplot-pi-95",
        # rounding's c at most the 8 distinct values left once small x values are left out
        lambda df, m, ax: safeplot.lineplot(
            data=df,
            x="x",
            y="y",
            errorbar=("pi", 95),
            method=m,
            ax=ax,
            **({"c": 8} if m == "rounding" else {}),
        ),
        _safe(LINE_METHODS),
        _xy,
        {"count_axis": None},
    ),
    # generalisation and rounding at their finest and coarsest
    *[
        Case(
            f"scatterplot-{name}",
            lambda df, m, ax, kws=kws: safeplot.scatterplot(
                data=df, x="x", y="y", method=m, ax=ax, **kws
            ),
            _safe(SCATTER_METHODS),
            _xy,
            {"count_axis": None},
        )
        for name, kws in (("bins-2", {"bins": 2}), ("bins-500", {"bins": 500}))
    ],
    *[
        Case(
            f"scatterplot-rounding-{c}",
            lambda df, m, ax, c=c: safeplot.scatterplot(
                data=df, x="x", y="y", method=m, c=c, ax=ax
            ),
            ("rounding",),
            _xy,
            {"count_axis": None},
        )
        for c in (2, 11)
    ],
    Case(
        "ecdfplot-bins-500",
        lambda df, m, ax: safeplot.ecdfplot(data=df, x="x", bins=500, method=m, ax=ax),
        _safe(ECDF_METHODS),
        _x,
    ),
    Case(
        "kmplot-bins-50",
        lambda df, m, ax: safeplot.kmplot(
            data=_with_events(df), duration="x", event="e", bins=50, method=m, ax=ax
        ),
        _safe(SURVIVAL_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
    ),
]

#: The data shapes that plant rare values where extremes would find them: unique outliers
#: and rare values among heavy ties; plots by group also meet groups of 1 to 4 records.
EXTREME_SHAPES = ("outliers", "ties")
GROUPED_SHAPES = (*EXTREME_SHAPES, "tiny_groups")


#: Every extreme must draw on this shape (heavy ties with a few rare values, no tiny
#: groups): a case refused there as well as elsewhere would test nothing but its refusals.
MUST_DRAW = "ties"


def _shapes_of(case: Case) -> tuple[str, ...]:
    return (
        GROUPED_SHAPES
        if case.name.startswith(("boxplot", "barplot", "pointplot"))
        else (EXTREME_SHAPES)
    )


PARAMS = [
    pytest.param(case, method, shape, id=f"{case.name}-{method}-{shape}")
    for case in EXTREMES
    for method in case.methods
    for shape in _shapes_of(case)
]


def _outcome(case, method, shape):
    """Draw one combination: return the figure drawn and its result, or the refusal."""
    df = SHAPES[shape]
    before = set(plt.get_fignums())
    try:
        return _draw(case, df, method), None
    except (ValueError, TypeError) as err:  # DisclosureError included
        # refusing leaves nothing behind, and says what was wrong
        assert audit.entries() == [], f"{case.name}|{method}|{shape}: refused but logged"
        if case.own_figure:
            assert set(plt.get_fignums()) == before
        assert len(str(err)) > 20, f"{case.name}|{method}|{shape}: unclear refusal {err!r}"
        return None, err


@pytest.mark.parametrize(("case", "method", "shape"), PARAMS)
def test_no_extreme_setting_draws_a_rare_value_or_a_small_count(case, method, shape):
    drawn, err = _outcome(case, method, shape)
    if err is not None:
        # no case is tested by refusals alone: each draws on the shape of ordinary data
        assert shape != MUST_DRAW, f"{case.name}|{method} refused on {MUST_DRAW}: {err}"
        return
    fig, result = drawn
    findings = _scan(case, fig, result, SHAPES[shape])
    if get_method(method).private:
        _private_findings(findings)
    assert not findings, str(findings)
    assert findings.numbers_scanned > 0
    reported = [a for a in fig.axes if getattr(a, "safeplot_report", None) is not None]
    assert reported and {a.safeplot_report.method for a in reported} == {method}
    assert audit.entries() and audit.entries()[-1].method == method


def test_more_bins_than_the_cap_are_refused_saying_what_to_do():
    with pytest.raises(ValueError, match=r"at most 1000 are allowed\. Use a wider binwidth"):
        safeplot.histplot(data=SHAPES["outliers"], x="x", binwidth=0.01)
    assert audit.entries() == []
