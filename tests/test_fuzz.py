"""Fuzzing every plot function with hypothesis (DESIGN.md sections 3 and 7).

Frames of 0 to 60 rows (sometimes a few hundred) with float, integer and
heavily tied values, NaN and inf sprinkled in, planted outliers and a hue
with small groups, crossed with the method, k, q, threshold and bins. The
property: a call either returns, and its figure passes the leak scanner (no
rare raw value drawn, no count in (0, threshold)); or it raises
DisclosureError, ValueError or TypeError and leaves no figure open and
nothing in the audit log.

Every plot function is drawn through the shared table of ``tests.test_leaks``
(``CASES``) and, for the parameters, through ``PARAM_CALLS`` of
``tests.test_bad_inputs``. Runs are derandomised (the same examples every
run); ``SAFEPLOT_FUZZ_EXAMPLES`` sets the number of examples per function
(default 4, a few minutes for the file; raise it for a long run).

A property that holds when a call is refused would pass for a function that
refuses everything, so each fuzz test also runs one explicit, well-behaved
example (300 records of the simulated data D1, or of another shape of
``tests.test_leaks`` where D1 cannot be drawn) and asserts, from its own
count of outcomes, that it drew at least once and ran generated examples:
a test counts its own examples, so the check holds under pytest-xdist too.
"""

from __future__ import annotations

import inspect
import os
import warnings
from collections import Counter
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import safeplot
from safeplot import audit
from safeplot.plots.axisgrid import pair_axes_variables
from safeplot.plots.facets import facet_axes_variables
from safeplot.policy import METHODS

from .leakscan import scan_figure
from .test_bad_inputs import ALLOWED_ERRORS, NO_AXES, PARAM_CALLS, PREPROCESSED, QQ_CASE
from .test_leaks import CASES, SHAPES, _figure, _resid

EXAMPLES = int(os.environ.get("SAFEPLOT_FUZZ_EXAMPLES", "4"))

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

#: A well-behaved frame (a hue of two large groups): the explicit example of every fuzz test.
GOOD = SHAPES["D1"]
#: correspondenceplot crosses g with x rounded to tens: D1's x (8 to 12) rounds to one level
GOOD_FOR = {"correspondenceplot": SHAPES["outliers"]}


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    """Frames with columns x, y (numbers) and g (a hue with small groups)."""
    n = draw(st.one_of(st.integers(0, 60), st.sampled_from([80, 120, 300])))
    seed = draw(st.integers(0, 2**32 - 1))
    kind = draw(st.sampled_from(["float", "int-ties", "rounded", "skewed"]))
    rng = np.random.default_rng(seed)
    if kind == "float":
        x = rng.normal(50, 10, n)
    elif kind == "int-ties":
        x = rng.integers(0, draw(st.integers(1, 12)), n).astype(float)
    elif kind == "rounded":
        x = np.round(rng.normal(0, 3, n), draw(st.integers(0, 2)))
    else:
        x = np.round(rng.lognormal(0, 1.2, n), 3)
    y = np.round(draw(st.floats(-2, 2)) * x + rng.normal(0, 5, n), draw(st.integers(0, 3)))
    if n and draw(st.booleans()):
        # planted unique outliers
        x[rng.integers(0, n)] = draw(st.floats(-1e4, 1e4, allow_nan=False)).__round__(3)
        y[rng.integers(0, n)] = draw(st.floats(-1e4, 1e4, allow_nan=False)).__round__(3)
    for col in (x, y):
        if n and draw(st.booleans()):
            col[rng.random(n) < draw(st.sampled_from([0.05, 0.05, 0.3, 1.0]))] = np.nan
        if n and draw(st.integers(0, 9)) == 0:
            col[rng.integers(0, n)] = draw(st.sampled_from([np.inf, -np.inf]))
    levels = draw(st.sampled_from([["a"], ["a", "b"], ["a", "b", "c"]]))
    p = np.array(draw(st.lists(st.floats(0.05, 1), min_size=len(levels), max_size=len(levels))))
    g = rng.choice(levels, n, p=p / p.sum()) if n else np.array([], dtype=str)
    if n > 3 and draw(st.booleans()):
        g[rng.integers(0, n)] = "rare"  # a hue level of one row
    return pd.DataFrame({"x": x, "y": y, "g": g})


def _raw_clean(raw: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The raw variables with missing/infinite values dropped (they are never drawn)."""
    out = {}
    for key, values in raw.items():
        arr = np.asarray(values)
        if arr.dtype.kind == "f":
            arr = arr[np.isfinite(arr)]
        out[key] = arr
    return out


def _check(run, scan_raw, threshold: int) -> str:
    """Run a draw; assert the property; return the outcome, "drawn" or "refused"."""
    before = set(plt.get_fignums())
    with warnings.catch_warnings():
        # a numpy warning would be an unexpected exception (a UserWarning is a message)
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("error", np.exceptions.RankWarning)
        try:
            result = run()
        except ALLOWED_ERRORS as err:
            assert str(err)
            # a model fitted before its refused diagnostic plot is a release of its own
            refused = [e for e in audit.entries() if e.function not in ("safe_ols", "safe_glm")]
            assert refused == [], "a refused call left an audit entry"
            assert set(plt.get_fignums()) == before, "a refused call left a figure open"
            return "refused"
    fig, raw, per_axes, scan = scan_raw(result)
    findings = scan_figure(fig, raw, threshold=threshold, per_axes=per_axes, **scan)
    assert not findings, str(findings)
    assert audit.entries(), "a drawn figure is missing from the audit log"
    return "drawn"


def _assert_exercised(outcomes: Counter[str]) -> None:
    """The explicit example was drawn, and generated examples ran as well."""
    assert outcomes["good-drawn"] == 1, f"the well-behaved frame was not drawn: {dict(outcomes)}"
    generated = outcomes["drawn"] + outcomes["refused"]
    assert generated >= min(EXAMPLES, 1), f"no generated example ran: {dict(outcomes)}"


# the scan below holds counts to the small-cell rule, which differentially private counts are
# exempt from by design: tests/test_dp.py and the leak table cover method="dp"
METHOD_CHOICES = [m for m in METHODS if m not in ("none", "dp")] + ["none"]


#: the shared table, less the cases whose draw computes from x in the test (a fit's residuals,
#: a correlation matrix logged by corr before heatmap is called): qqplot is drawn directly
FUZZ_CASES = [c for c in CASES if c.name not in PREPROCESSED] + [QQ_CASE]


@pytest.mark.slow
@pytest.mark.parametrize("case", FUZZ_CASES, ids=[c.name for c in FUZZ_CASES])
def test_fuzz_every_plot_function(case):
    outcomes: Counter[str] = Counter()

    @FUZZ
    @given(df=frames(), method=st.sampled_from(METHOD_CHOICES), threshold=st.integers(3, 6))
    @example(df=GOOD, method=case.methods[0], threshold=3)
    def run(df, method, threshold):
        audit.clear()
        plt.close("all")
        with safeplot.policy(threshold=threshold):
            ax = None if case.own_figure else plt.subplots()[1]

            def scan_raw(result):
                fig = _figure(result, ax)
                raw = case.raw(df)
                if "x_labels" in raw:
                    raw = {"x": raw["x_labels"]}
                per_axes = case.per_axes(result, df) if case.per_axes else None
                if per_axes:
                    per_axes = {a: _raw_clean(v) for a, v in per_axes.items()}
                return fig, _raw_clean(raw), per_axes, case.scan

            outcome = _check(lambda: case.draw(df, method, ax), scan_raw, threshold)
        outcomes[f"good-{outcome}" if df is GOOD else outcome] += 1

    run()
    _assert_exercised(outcomes)


PARAM_RAW = {
    # one variable on x (counts, proportions or densities on y)
    **{
        f: (lambda df: {"x": df["x"].to_numpy()})
        for f in ("histplot", "hist", "displot", "ecdfplot", "kdeplot")
    },
    "qqplot": lambda df: {"y": df["x"].to_numpy()},
    # the y axis shows residuals (and the fit), not y
    "residplot": lambda df: {"x": df["x"].to_numpy(), "y": np.concatenate(_resid(df))},
    # the bars count the levels of g (labels, no numbers): only the counts are checked
    "countplot": lambda df: {"x": np.array([])},
    "boxplot": lambda df: {"y": df["x"].to_numpy()},
    "barplot": lambda df: {"y": df["x"].to_numpy()},
    "lineplot": lambda df: {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()},
    "pointplot": lambda df: {"y": df["x"].to_numpy()},
    "stripplot": lambda df: {"y": df["x"].to_numpy()},
    "rugplot": lambda df: {"x": df["x"].to_numpy()},
    "swarmplot": lambda df: {"y": df["x"].to_numpy()},
    "catplot": lambda df: {"y": df["x"].to_numpy()},
    "correspondenceplot": lambda df: {"x": df["x"].round(-1).to_numpy()},
}
PARAM_SCAN = {
    "histplot": {},
    "hist": {},
    "displot": {"count_axis": "y"},
    "countplot": {"count_axis": "y"},
    "heatmap": {"counts_in_colour": True},
    "clustermap": {"count_axis": None},
}
#: figures whose panels show different variables (marginal counts, facets)
PARAM_PER_AXES = {
    "jointplot": pair_axes_variables,
    "pairplot": pair_axes_variables,
    **{f: facet_axes_variables for f in ("displot", "relplot", "catplot", "lmplot")},
}
#: clustermap and the tables take a released matrix or give no figure: covered by the matrix
FUZZ_PARAM_FUNCTIONS = [
    f for f in PARAM_CALLS if f not in ("crosstab", "corr", "describe", "clustermap")
]


@pytest.mark.slow
@pytest.mark.parametrize("fname", FUZZ_PARAM_FUNCTIONS)
def test_fuzz_parameters(fname):
    outcomes: Counter[str] = Counter()
    params = inspect.signature(getattr(safeplot, fname)).parameters
    good = GOOD_FOR.get(fname, GOOD)

    @FUZZ
    @given(
        df=frames(),
        method=st.sampled_from([*METHOD_CHOICES, None]),
        k=st.integers(-1, 12),
        q=st.sampled_from([-0.5, 0.0, 0.1, 0.25, 0.5, 1.5]),
        threshold=st.integers(0, 6),
        bins=st.sampled_from([None, 0, 1, 2, 5, 30, "auto"]),
    )
    @example(df=good, method=None, k=3, q=0.25, threshold=3, bins=None)
    def run(df, method, k, q, threshold, bins):
        audit.clear()
        plt.close("all")
        kw: dict[str, Any] = {"method": method}
        if "k" in params:
            kw["k"] = k
        if "q" in params:
            kw["q"] = q
        if "threshold" in params:
            kw["threshold"] = threshold
        if "bins" in params and bins is not None:
            kw["bins"] = bins
        kw = {key: v for key, v in kw.items() if key in params}
        ax = None if fname in NO_AXES else plt.subplots()[1]

        def scan_raw(result):
            fig = _figure(result, ax)
            raw = PARAM_RAW.get(
                fname, lambda df: {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}
            )
            scan = PARAM_SCAN.get(fname, {"count_axis": None})
            per_axes = PARAM_PER_AXES[fname](result, df) if fname in PARAM_PER_AXES else None
            if per_axes:
                per_axes = {a: _raw_clean(v) for a, v in per_axes.items()}
            return fig, _raw_clean(raw(df)), per_axes, scan

        # the policy's threshold is the call's (a call below the floor of 3 is refused): the
        # value methods move released values off the rare values of the policy's threshold
        # (see test_threshold_argument_reaches_the_rare_value_shift)
        with safeplot.policy(threshold=max(threshold, 3)):
            outcome = _check(lambda: PARAM_CALLS[fname](df, ax, **kw), scan_raw, max(threshold, 3))
        outcomes[f"good-{outcome}" if df is good else outcome] += 1

    run()
    _assert_exercised(outcomes)


def test_threshold_argument_reaches_the_rare_value_shift():
    """Found by fuzzing (fixed): with threshold=4 passed to the call (policy 3), a group mean
    could equal a value held by 3 records, rare at the threshold the analyst asked for."""
    rng = np.random.default_rng(0)
    y = rng.integers(-8, 9, 29).astype(float)
    x = np.round(rng.normal(50, 8, 29), 3)
    df = pd.DataFrame({"x": x, "y": y})
    leaks = []
    for seed in range(20):
        yy = np.random.default_rng(seed).permutation(y)
        d = df.assign(y=yy)
        fig, ax = plt.subplots()
        safeplot.regplot(
            data=d,
            x="x",
            y="y",
            method="microaggregation",
            k=3,
            threshold=4,
            n_boot=10,
            seed=0,
            ax=ax,
        )
        leaks += scan_figure(fig, {"x": x, "y": yy}, threshold=4, count_axis=None).leaks
        plt.close(fig)
    assert not leaks, leaks[:3]


def test_hexbin_vertex_on_rare_value():
    """Found by fuzzing: the scanner read hexbin's hexagon, which is drawn relative to each
    centre, as absolute coordinates (its vertex offset 0.0 equals a value of one record); the
    drawn vertices are centre + offset, and none is a rare value."""
    df = pd.DataFrame(
        {
            "x": [
                0.4,
                -0.4,
                1.9,
                0.3,
                -1.6,
                1.1,
                3.9,
                2.8,
                -2.1,
                -3.8,
                -1.9,
                0.1,
                0.0,
                -0.7,
                -3.7,
            ],
            "y": [-3.0, -4, 2, 3, 2, 2, 15, 2, -2, -3, 0, -4, -19, -4, -6],
        }
    )
    fig, ax = plt.subplots()
    df.plot.hexbin(x="x", y="y", gridsize=10, method="suppress", ax=ax, backend="safeplot")
    found = scan_figure(
        fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}, counts_in_colour=True
    )
    assert not found, str(found)
