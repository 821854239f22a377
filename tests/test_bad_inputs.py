"""Bad-input matrix: every public function that takes data x every kind of bad input.

DESIGN.md section 3, invariant 7. Each cell either raises DisclosureError,
ValueError or TypeError with a message naming the problem, leaving no
figure open, no audit entry and no artist on a passed Axes; or the input is
one the function legitimately copes with (listed in ``ACCEPTED`` with the
reason), and then what it draws must pass the leak scanner.

The plot functions are drawn through the shared table of ``tests.test_leaks``
(``CASES``: one entry per public plot function and variant, on a frame with
columns x, y, g). Parameters (k, q, threshold, bins) are passed through
``PARAM_CALLS``, one call per public function that takes them.
"""

from __future__ import annotations

import inspect
import re
import warnings
from collections.abc import Callable
from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
import safeplot.anonymize as anon
import safeplot.methods as sp_methods
from safeplot import audit
from safeplot.errors import DisclosureError

from .leakscan import scan_figure
from .test_leaks import CASES, Case, _figure

ALLOWED_ERRORS = (DisclosureError, ValueError, TypeError)


def _base(n: int = 60, seed: int = 11) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(50, 10, n), 2)
    y = np.round(0.5 * x + rng.normal(0, 5, n), 2)
    g = np.array(["a", "b"] * (n // 2) + ["a"] * (n % 2))
    return pd.DataFrame({"x": x, "y": y, "g": g})


BASE = _base()


def _with_x(values: Any) -> pd.DataFrame:
    df = BASE.copy()
    df["x"] = values
    return df


def _mixed() -> pd.Series:
    col = BASE["x"].astype(object).copy()
    col.iloc[::7] = "n/a"
    return col


#: input name -> (frame with columns x, y, g, regex the error message must match)
DATA_INPUTS: dict[str, tuple[pd.DataFrame, str]] = {
    "empty": (BASE.iloc[:0], r"(?i)empty|no (usable|finite|complete|rows|data|counts)|nothing"),
    "one-row": (
        BASE.iloc[:1],
        r"(?i)record|row|at least|too few|fewer|constant|one value|single|below the threshold",
    ),
    "all-nan": (_with_x(np.nan), r"(?i)missing|nan|no (usable|complete|finite)|no row has a"),
    "constant": (_with_x(7.5), r"(?i)constant|no spread|one value|single value|distinct values"),
    "inf": (_with_x(np.r_[BASE["x"].to_numpy()[:-1], np.inf]), r"(?i)inf|finite"),
    "mixed-types": (_with_x(_mixed()), r"(?i)numeric|text|number|mixed"),
    "datetime": (
        _with_x(pd.date_range("2020-01-01", periods=len(BASE), freq="D")),
        r"(?i)date|time",
    ),
    "boolean": (_with_x(BASE["x"] > 50), r"(?i)bool"),
    "huge": (_with_x(BASE["x"] * 1e298), r"(?i)large|magnitude|rescale|overflow"),
    "tiny-n": (
        BASE.iloc[:4],
        r"(?i)\bk\b|rows|records|too few|at least|fewer|group|below the threshold|distinct values",
    ),
    "small-stratum": (
        pd.concat([BASE, pd.DataFrame({"x": [61.3], "y": [28.4], "g": ["c"]})], ignore_index=True),
        r"(?i)stratum|strata|group|level|\bk\b|fewer",
    ),
    "wrong-column": (BASE.rename(columns={"x": "age"}), r"(?i)column|\bx\b|age"),
}

#: cases whose draw reads df["x"] itself (vectors, not names): no wrong-column cell
NO_NAMES = re.compile(
    r"^(hist|scatter|qqplot(-direct)?|pandas-(hist|kde|box|bar)(-dp)?|safe-axes-.*|heatmap-corr"
    r"|histplot-categorical)$"
)
#: cases whose draw computes from x in the test before the call (residuals of a fit, rounding,
#: a correlation matrix): bad x breaks the test's own arithmetic, so they get no data cells;
#: qqplot is covered by ``QQ_CASE`` below, corr and crosstab by the table functions
PREPROCESSED = {"qqplot", "correspondenceplot", "heatmap-corr"}

QQ_CASE = Case(
    "qqplot-direct",
    lambda df, m, ax: safeplot.qqplot(df["x"], line="s", method=m, ax=ax),
    ("deterministic", "probabilistic", "confidential"),
    lambda df: {"y": df["x"].to_numpy()},
    {"count_axis": None},
)

#: Inputs where k and n interact: also tried with the deterministic method.
K_INPUTS = ("tiny-n", "small-stratum", "one-row")

#: input -> {case-name pattern: why the function copes with it}. A cell listed here may draw;
#: what it draws must then pass the leak scanner.
ACCEPTED: dict[str, dict[str, str]] = {
    # g is a hue/category for some functions and unused by the rest: a hue level of one row is
    # suppressed (binned methods), merged or refused (value methods, strata below k); whatever is
    # drawn must not show the unique row's x (61.3) or y (28.4), which the scan checks
    "small-stratum": {".*": "a small hue level is suppressed, or g is not plotted"},
}
# the cases that do not plot x: any x is ignored (pandas-bar and countplot-dp count g,
# crosstab-heatmap-dp tabulates g by y; barplot-hue-pi, pointplot-hue-pi-median,
# stripplot-hue-horizontal, pandas-box, violinplot-hue-horizontal-quart and
# boxenplot-hue-horizontal-deep plot y)
_NO_X = (
    r"pandas-bar|barplot-hue-pi|pointplot-hue-pi-median|stripplot-hue-horizontal|pandas-box"
    r"|countplot-dp|crosstab-heatmap-dp|violinplot-hue-horizontal-quart"
    r"|boxenplot-hue-horizontal-deep"
)
# x is a category: its levels are counted, and levels held by fewer than threshold records are
# suppressed (a constant, a date, a boolean, text and inf are all just labels)
_X_CATEGORY = r"countplot|countplot-dask|catplot-count|histplot-categorical"
for _name in DATA_INPUTS:
    ACCEPTED.setdefault(_name, {})[_NO_X] = "the function does not plot x"
for _name in (
    "one-row",
    "constant",
    "inf",
    "mixed-types",
    "datetime",
    "boolean",
    "huge",
    "tiny-n",
):
    ACCEPTED[_name][_X_CATEGORY] = "x is a category whose small counts are suppressed"
for _name in ("all-nan", "constant"):
    # a box per column: an all-missing column is left empty, a constant one is a box of 60
    ACCEPTED[_name]["safe-axes-boxplot"] = "a box per column; y is still drawn"
# dates on x of a line plot are released as matplotlib date numbers, per x value or bin of the
# safe grid (one record per day here: binned), and drawn on a date axis
ACCEPTED["datetime"]["lineplot.*|relplot-line"] = "dates are released as date numbers"
# numbers mixed with text make x categorical (as in seaborn): histplot counts its levels as
# countplot does, each held by one record and suppressed
ACCEPTED["mixed-types"]["histplot|histplot-dask"] = "x is a category whose small counts are hidden"
# a boxplot grouped by x: a constant or boolean x is one or two groups of many records
ACCEPTED["constant"]["boxplot-continuous-x"] = "one group of all records"
ACCEPTED["boolean"]["boxplot-continuous-x"] = "two groups, True and False, of many records"
# numbers mixed with text make x categorical (as in seaborn): its 50 groups of one record each
# are left out unnamed (DESIGN invariant 10) and the box of the "n/a" records is drawn
ACCEPTED["mixed-types"]["boxplot-continuous-x"] = "small groups left out, the large one drawn"
# 4 records on one line: lineplot bins x into one bin that a line fills, one point of all four
ACCEPTED["tiny-n"]["lineplot"] = "one x bin holding all four records"
# a boolean predictor is a categorical term of the model (patsy's treatment coding)
ACCEPTED["boolean"]["safe_ols-.*"] = "a boolean predictor is a 0/1 term of the model"
# 4 records: one box (parallelboxplot), a density left empty with a warning (kde), or 8 values
# in two strata of 4 >= k (wide-form boxplot of two columns)
ACCEPTED["tiny-n"][
    "parallelboxplot.*|kdeplot.*|pandas-kde|pandas-kde-dp|displot-kde-dp|safe-axes-boxplot"
] = "a box or strata of at least threshold records; a kde of too few records is left empty"
# a DP release may show 4 records: every number carries noise of a known scale whatever n (it
# may also refuse, when no noisy count is large enough to show)
ACCEPTED["tiny-n"]["barplot-dp|kmplot-dp"] = "a DP release: the guarantee does not depend on n"


#: (input, case-name pattern) -> another message the refusal may give, and why it is right
OTHER_REASONS: dict[tuple[str, str], str] = {
    # a boolean predictor takes two values, 30 records each: every leverage is 1/30, and a
    # constant leverage axis is refused as constant
    ("boolean", r"safe_ols-plot_(resid_leverage|diagnostics)"): r"effectively constant",
    # a DP count plot counts the categories its call names: with no rows there is none of them
    ("empty", r"countplot-dp"): r"no records to plot",
}


def _other_reason(input_name: str, case_name: str) -> str | None:
    for (name, pattern), reason in OTHER_REASONS.items():
        if name == input_name and re.fullmatch(pattern, case_name):
            return reason
    return None


def _accepted(input_name: str, case_name: str) -> str | None:
    for pattern, why in ACCEPTED.get(input_name, {}).items():
        if re.fullmatch(pattern, case_name):
            return why
    return None


def _artists(ax) -> int:
    return sum(
        len(a) for a in (ax.lines, ax.patches, ax.collections, ax.texts, ax.images, ax.tables)
    )


def _methods(case: Case, name: str) -> list[str]:
    """The first method of the case; for inputs where k matters, deterministic too."""
    chosen = [case.methods[0]]
    if name in K_INPUTS and "deterministic" in case.methods[1:]:
        chosen.append("deterministic")
    return chosen


DATA_PARAMS = [
    pytest.param(case, method, name, id=f"{case.name}-{method}-{name}")
    for case in [*CASES, QQ_CASE]
    if case.name not in PREPROCESSED
    for name in DATA_INPUTS
    for method in _methods(case, name)
    if not (name == "wrong-column" and NO_NAMES.match(case.name))
]


def _check_refused(err: BaseException, pattern: str, before: set[int], ax=None, n_art=0):
    assert isinstance(err, ALLOWED_ERRORS), f"{type(err).__name__}: {err}"
    assert re.search(pattern, str(err)), f"message does not name the problem: {err}"
    # a model fitted before its refused diagnostic plot is a release of its own (the fit)
    refused = [e for e in audit.entries() if e.function not in ("safe_ols", "safe_glm")]
    assert refused == [], "a refused call left an entry in the audit log"
    now = set(plt.get_fignums())
    if ax is not None:
        now.discard(ax.figure.number)
        assert _artists(ax) == n_art, "a refused call drew on the Axes it was given"
    assert now == before, "a refused call left a figure open"


def _call(fn: Callable[[], Any]) -> tuple[Any, BaseException | None]:
    with warnings.catch_warnings():
        # a numpy warning is a failure, not a message (a UserWarning is a deliberate message)
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("error", np.exceptions.RankWarning)
        try:
            return fn(), None
        except Exception as err:  # the type is what is tested
            return None, err


@pytest.mark.parametrize(("case", "method", "name"), DATA_PARAMS)
def test_plot_function_refuses_bad_data(case, method, name):
    df, pattern = DATA_INPUTS[name]
    before = set(plt.get_fignums())
    ax = None
    if not case.own_figure:
        _, ax = plt.subplots()
    n_art = _artists(ax) if ax is not None else 0
    result, err = _call(lambda: case.draw(df, method, ax))
    if err is not None:
        if not _draws_good_data(case, method):
            # refused on good data too (e.g. every grid cell of a small facet below the
            # threshold): which check fires first is not this test's business
            pattern = "."
        other = _other_reason(name, case.name)
        if other:
            pattern = f"{pattern}|{other}"
        _check_refused(err, pattern, before, ax, n_art)
        return
    why = _accepted(name, case.name)
    assert why, f"{case.name} drew {name!r} data with method={method!r} instead of refusing"
    fig = _figure(result, ax)
    per_axes = case.per_axes(result, df) if case.per_axes else None
    if "x" in df.columns and pd.api.types.is_datetime64_any_dtype(df["x"].dtype):
        # dates in x: scan against the date numbers a line plot draws them at
        raw = case.raw(df.assign(x=mdates.date2num(df["x"].to_numpy())))
    else:
        try:
            raw = case.raw(df)
        except (TypeError, ValueError):
            # text in x: scan against its numeric entries
            raw = case.raw(df.assign(x=pd.to_numeric(df["x"], errors="coerce").astype(float)))
    if "x_labels" in raw:
        raw = {"x": pd.to_numeric(pd.Series(raw["x_labels"]), errors="coerce").to_numpy(float)}
    # text mixed with numbers (a categorical x, counted): scan against its numeric entries
    raw = {
        axis: pd.to_numeric(pd.Series(v), errors="coerce").to_numpy(float)
        if np.asarray(v).dtype == object
        else v
        for axis, v in raw.items()
    }
    assert not scan_figure(fig, raw, per_axes=per_axes, **case.scan)


_GOOD: dict[tuple[str, str], bool] = {}


def _draws_good_data(case: Case, method: str) -> bool:
    """Whether the case draws the good frame with this method (cached)."""
    key = (case.name, method)
    if key not in _GOOD:
        before = set(plt.get_fignums())
        ax = None if case.own_figure else plt.subplots()[1]
        _, err = _call(lambda: case.draw(BASE, method, ax))
        _GOOD[key] = err is None
        for num in set(plt.get_fignums()) - before:
            plt.close(num)
        audit.clear()
    return _GOOD[key]


# heatmap-corr releases a matrix with corr (logged) before heatmap sees the method
@pytest.mark.parametrize(
    "case", [c for c in CASES if c.name != "heatmap-corr"], ids=lambda c: c.name
)
def test_unknown_method_name_is_refused(case):
    before = set(plt.get_fignums())
    ax = None if case.own_figure else plt.subplots()[1]
    n_art = _artists(ax) if ax is not None else 0
    _, err = _call(lambda: case.draw(BASE, "kanonymise", ax))
    assert err is not None, "an unknown method name was accepted"
    _check_refused(err, r"kanonymise", before, ax, n_art)
    assert re.search(r"(?i)method", str(err))


# ---------------------------------------------------------------------------------------------
# Parameters: one call per public function, keyword arguments passed through.


PARAM_CALLS: dict[str, Callable] = {
    "histplot": lambda df, ax, **kw: safeplot.histplot(data=df, x="x", ax=ax, **kw),
    "hist": lambda df, ax, **kw: safeplot.hist(df["x"], ax=ax, **kw),
    "scatterplot": lambda df, ax, **kw: safeplot.scatterplot(data=df, x="x", y="y", ax=ax, **kw),
    "scatter": lambda df, ax, **kw: safeplot.scatter(df["x"], df["y"], ax=ax, **kw),
    "boxplot": lambda df, ax, **kw: safeplot.boxplot(data=df, x="g", y="x", ax=ax, **kw),
    "heatmap": lambda df, ax, **kw: safeplot.heatmap(data=df, x="x", y="y", ax=ax, **kw),
    "kdeplot": lambda df, ax, **kw: safeplot.kdeplot(data=df, x="x", ax=ax, **kw),
    "countplot": lambda df, ax, **kw: safeplot.countplot(data=df, x="g", ax=ax, **kw),
    "qqplot": lambda df, ax, **kw: safeplot.qqplot(df["x"], ax=ax, **kw),
    "residplot": lambda df, ax, **kw: safeplot.residplot(data=df, x="x", y="y", ax=ax, **kw),
    "regplot": lambda df, ax, **kw: safeplot.regplot(
        data=df, x="x", y="y", n_boot=20, seed=0, ax=ax, **kw
    ),
    "parallelboxplot": lambda df, ax, **kw: safeplot.parallelboxplot(
        data=df, x="x", y="y", ax=ax, **kw
    ),
    "correspondenceplot": lambda df, ax, **kw: safeplot.correspondenceplot(
        df.assign(x10=df["x"].round(-1)), x="g", y="x10", ax=ax, **kw
    ),
    "barplot": lambda df, ax, **kw: safeplot.barplot(data=df, x="g", y="x", ax=ax, **kw),
    "lineplot": lambda df, ax, **kw: safeplot.lineplot(data=df, x="x", y="y", ax=ax, **kw),
    "pointplot": lambda df, ax, **kw: safeplot.pointplot(data=df, x="g", y="x", ax=ax, **kw),
    "stripplot": lambda df, ax, **kw: safeplot.stripplot(data=df, x="g", y="x", ax=ax, **kw),
    "rugplot": lambda df, ax, **kw: safeplot.rugplot(data=df, x="x", ax=ax, **kw),
    "boxenplot": lambda df, ax, **kw: safeplot.boxenplot(data=df, x="g", y="x", ax=ax, **kw),
    "violinplot": lambda df, ax, **kw: safeplot.violinplot(data=df, x="g", y="x", ax=ax, **kw),
    "swarmplot": lambda df, ax, **kw: safeplot.swarmplot(
        data=df, x="g", y="x", size=2, ax=ax, **kw
    ),
    "ecdfplot": lambda df, ax, **kw: safeplot.ecdfplot(data=df, x="x", ax=ax, **kw),
    "kmplot": lambda df, ax, **kw: safeplot.kmplot(
        data=df.assign(e=(df["y"] > df["y"].mean()).astype(int)),
        duration="x",
        event="e",
        ax=ax,
        **kw,
    ),
    "pairplot": lambda df, ax, **kw: safeplot.pairplot(df, vars=["x", "y"], **kw),
    "jointplot": lambda df, ax, **kw: safeplot.jointplot(data=df, x="x", y="y", **kw),
    "displot": lambda df, ax, **kw: safeplot.displot(df, x="x", height=2, **kw),
    "relplot": lambda df, ax, **kw: safeplot.relplot(df, x="x", y="y", height=2, **kw),
    "catplot": lambda df, ax, **kw: safeplot.catplot(df, x="g", y="x", kind="box", height=2, **kw),
    "lmplot": lambda df, ax, **kw: safeplot.lmplot(
        df, x="x", y="y", height=2, n_boot=20, seed=0, **kw
    ),
    "clustermap": lambda df, ax, **kw: safeplot.clustermap(
        safeplot.corr(df[["x", "y"]].assign(z=df["x"] - df["y"])), **kw
    ),
    "crosstab": lambda df, ax, **kw: safeplot.crosstab(
        df.assign(x10=df["x"].round(-1)), "g", "x10", **kw
    ),
    "corr": lambda df, ax, **kw: safeplot.corr(df[["x", "y"]], **kw),
    "describe": lambda df, ax, **kw: safeplot.describe(df[["x", "y"]], **kw),
}

OWN_FIGURE = {"pairplot", "jointplot", "displot", "relplot", "catplot", "lmplot", "clustermap"}
NO_AXES = OWN_FIGURE | {"crosstab", "corr", "describe"}

#: parameter cell -> (keyword arguments, methods it is tried with, message pattern)
PARAM_INPUTS: dict[str, tuple[dict[str, Any], tuple[str | None, ...], str]] = {
    "k=0": ({"k": 0}, ("deterministic", "microaggregation"), r"\bk\b"),
    "k=1": ({"k": 1}, ("deterministic", "microaggregation"), r"\bk\b"),
    "k>n": ({"k": 500}, ("deterministic", "microaggregation"), r"\bk\b"),
    "q<0": ({"q": -0.1}, ("probabilistic",), r"\bq\b"),
    "threshold=0": ({"threshold": 0}, (None,), r"threshold"),
    "threshold=-1": ({"threshold": -1}, (None,), r"threshold"),
    "threshold=2.5": ({"threshold": 2.5}, (None,), r"threshold"),
    "bins=0": ({"bins": 0}, (None,), r"bins"),
    "bins=-3": ({"bins": -3}, (None,), r"bins"),
    # method="dp": the privacy loss must be a positive finite number, and the bins must be
    # fixed by the call before the data is read (a numpy rule reads the data; discrete bins
    # need binrange). A DP count plot refuses first for want of its public categories (order=)
    "epsilon=0": ({"epsilon": 0}, ("dp",), r"epsilon|order="),
    "epsilon=-1": ({"epsilon": -1}, ("dp",), r"epsilon|order="),
    "epsilon=nan": ({"epsilon": float("nan")}, ("dp",), r"epsilon|order="),
    "epsilon=inf": ({"epsilon": float("inf")}, ("dp",), r"epsilon|order="),
    "epsilon=True": ({"epsilon": True}, ("dp",), r"epsilon|order="),
    "epsilon-without-dp": ({"epsilon": 1.0}, ("suppress",), r"epsilon"),
    "bins=numpy-rule": ({"bins": "fd"}, ("dp",), r"bins"),
    "discrete-without-binrange": ({"discrete": True}, ("dp",), r"binrange"),
    "binrange-reversed": ({"binrange": (5.0, 1.0)}, ("dp",), r"binrange"),
    # method="dp": delta out of (0, 1e-5], an unknown mechanism, no clipping bounds
    "delta=2e-5": ({"delta": 2e-5, "mechanism": "gaussian"}, ("dp",), r"delta=2e-05"),
    "delta=0": ({"delta": 0.0, "mechanism": "gaussian"}, ("dp",), r"delta"),
    "delta=0.5": ({"delta": 0.5, "mechanism": "gaussian"}, ("dp",), r"delta"),
    "delta-laplace": ({"delta": 1e-6}, ("dp",), r"delta=1e-06 is for mechanism='gaussian'"),
    "delta-missing": ({"mechanism": "gaussian"}, ("dp",), r"needs delta="),
    "mechanism=exponential": ({"mechanism": "exponential"}, ("dp",), r"mechanism"),
    "bounds-missing": ({"bounds": None}, ("dp",), r"bounds=\(low, high\)"),
    "bounds-reversed": ({"bounds": (10.0, 0.0)}, ("dp",), r"bounds"),
}


def _param_cells():
    for fname in PARAM_CALLS:
        fn = getattr(safeplot, fname)
        params = inspect.signature(fn).parameters
        for pname, (kw, methods, _) in PARAM_INPUTS.items():
            key = next(iter(kw))
            if key not in params:
                continue
            for method in methods:
                if method is not None and "method" not in params:
                    continue
                yield pytest.param(fname, pname, method, id=f"{fname}-{pname}-{method}")


PARAM_PARAMS = list(_param_cells())


@pytest.mark.parametrize(("fname", "pname", "method"), PARAM_PARAMS)
def test_invalid_parameters_are_refused(fname, pname, method):
    kw, _, pattern = PARAM_INPUTS[pname]
    kw = dict(kw)
    if method is not None:
        kw["method"] = method
    before = set(plt.get_fignums())
    ax = None if fname in NO_AXES else plt.subplots()[1]
    n_art = _artists(ax) if ax is not None else 0
    result, err = _call(lambda: PARAM_CALLS[fname](BASE, ax, **kw))
    if (
        err is not None
        and "method" in kw
        and re.search(r"not (available|supported)", str(err))
        and not re.search(pattern, str(err))
    ):
        # the function does not offer that method: refused for that reason, also fine
        pattern = r"(?i)method"
    assert err is not None, f"{fname} accepted {pname} (method={method!r})"
    _check_refused(err, pattern, before, ax, n_art)


# ---------------------------------------------------------------------------------------------
# Functions without a figure: tables, models and the public anonymisers.


def _ols(kind: str) -> Callable:
    fn = {"ols": safeplot.safe_ols, "glm": safeplot.safe_glm, "logit": safeplot.safe_logit}[kind]
    if kind == "ols":
        return lambda df: fn("y ~ x", data=df)
    # safe_glm's default family is binomial, as safe_logit's model
    return lambda df: fn("b ~ x", data=df.assign(b=(df["g"] == "a").astype(int)))


def _xy_array(df: pd.DataFrame) -> Any:
    return df[["x", "y"]]


TABLE_CALLS: dict[str, Callable[[pd.DataFrame], Any]] = {
    "crosstab": lambda df: safeplot.crosstab(df, "g", "x"),
    "corr": lambda df: safeplot.corr(df[["x", "y"]]),
    "describe": lambda df: safeplot.describe(df[["x", "y"]]),
    "safe_ols": _ols("ols"),
    "safe_glm": _ols("glm"),
    "safe_logit": _ols("logit"),
    # x is the duration, y a covariate and the event indicator (y above its mean)
    "safe_coxph": lambda df: safeplot.safe_coxph(
        "y",
        data=df.assign(e=(df["y"] > df["y"].mean()).astype(int)),
        duration_col="x",
        event_col="e",
    ),
    "anonymize_values-deterministic": lambda df: sp_methods.anonymize_values(
        _xy_array(df), "deterministic"
    ),
    "anonymize_values-probabilistic": lambda df: sp_methods.anonymize_values(
        _xy_array(df), "probabilistic"
    ),
    "anonymize_values-microaggregation": lambda df: sp_methods.anonymize_values(
        _xy_array(df), "microaggregation"
    ),
    "anonymize_values-rounding": lambda df: sp_methods.anonymize_values(_xy_array(df), "rounding"),
    "knn_centroids": lambda df: anon.knn_centroids(_xy_array(df), k=3),
    "microaggregate": lambda df: anon.microaggregate(_xy_array(df), k=3),
    "add_keyed_noise": lambda df: anon.add_keyed_noise(_xy_array(df), q=0.25),
    "discretize": lambda df: anon.discretize(df["x"]),
    "winsorize": lambda df: anon.winsorize(df["x"]),
    "safe_quantiles": lambda df: anon.safe_quantiles(df["x"], [0.25, 0.5, 0.75]),
}

TABLE_ACCEPTED: dict[str, dict[str, str]] = {
    # mirrors pandas.describe: cells of fewer than 10 records are suppressed, text and date
    # columns left out of a numeric summary as pandas leaves them out
    name: {"describe": "cells below 10 records suppressed; non-numeric columns left out"}
    for name in DATA_INPUTS
}
# the extra row's g is not used by these calls
TABLE_ACCEPTED["small-stratum"][".*"] = "g is not used"
for _name in ("empty", "one-row", "all-nan", "constant", "boolean", "huge", "tiny-n"):
    # mirrors pandas.DataFrame.corr: a pair with too few records or no variance is released
    # as an empty (NaN) cell and reported; correlation does not depend on the scale
    TABLE_ACCEPTED[_name]["corr"] = "undefined and small cells released empty"
# x is a category of the table: a constant or boolean x is one or two large categories
TABLE_ACCEPTED["constant"]["crosstab"] = "one category of all records"
TABLE_ACCEPTED["boolean"]["crosstab"] = "two categories of many records"
# a boolean predictor is a 0/1 term of the model
TABLE_ACCEPTED["boolean"]["safe_(ols|logit|glm)"] = "a boolean predictor is a 0/1 term"
# noise needs no minimum of records (the plots apply their own floors); the statistics helpers
# release rounded, winsorised statistics of whatever they are given (the plot and table
# functions that call them apply the record floors)
TABLE_ACCEPTED["tiny-n"]["add_keyed_noise|anonymize_values-probabilistic"] = "no n floor"
for _name in ("constant", "tiny-n"):
    TABLE_ACCEPTED[_name]["winsorize|safe_quantiles"] = "statistics building blocks"
# the labels of a table are raw values: inf and dates are labels held by one record each, so
# crosstab refuses them for being rare, which is the disclosure reason
CROSSTAB_RARE = r"held by fewer than threshold"

TABLE_PARAMS = [
    pytest.param(fname, name, id=f"{fname}-{name}")
    for fname in TABLE_CALLS
    for name in DATA_INPUTS
    if not (name == "wrong-column" and fname not in ("safe_ols", "safe_glm", "safe_logit"))
]


@pytest.mark.parametrize(("fname", "name"), TABLE_PARAMS)
def test_table_and_anonymiser_functions_refuse_bad_data(fname, name):
    df, pattern = DATA_INPUTS[name]
    before = set(plt.get_fignums())
    result, err = _call(lambda: TABLE_CALLS[fname](df))
    if err is not None:
        if fname == "crosstab":
            pattern = f"{pattern}|{CROSSTAB_RARE}"
        _check_refused(err, pattern, before)
        return
    why = next(
        (w for p, w in TABLE_ACCEPTED.get(name, {}).items() if re.fullmatch(p, fname)), None
    )
    assert why, f"{fname} accepted {name!r} data instead of refusing"


# ---------------------------------------------------------------------------------------------
# A dask DataFrame where every record must be in memory: numpy and pandas would read all of it
# silently (a data set that does not fit in memory is the reason to use dask).

#: cases that are not safeplot functions of a frame: the pandas backend is reached through
#: pandas' own ``.plot`` (a dask frame has none); qqplot's and crosstab-heatmap-dp's cases
#: compute in the test first (crosstab's refusal of a dask frame is tested with the tables)
DASK_NOT_APPLICABLE = re.compile(r"pandas-.*|qqplot|crosstab-heatmap-dp")
DASK_PARAMS = [
    pytest.param(case, id=case.name)
    for case in [*CASES, QQ_CASE]
    if not case.name.endswith("-dask") and not DASK_NOT_APPLICABLE.fullmatch(case.name)
]


#: the cases of the four functions that count a dask DataFrame out of core (heatmap-corr is a
#: heatmap of a correlation matrix, which corr computes from every record)
OUT_OF_CORE = re.compile(
    r"(histplot|heatmap|countplot|kdeplot)(-(hue-stack-kde|bivariate|dp|bivariate-dp|categorical))?"
)


def test_out_of_core_cases_are_the_dask_functions():
    from safeplot.sources.dask import DASK_FUNCTIONS

    names = {c.name.split("-")[0] for c in CASES if OUT_OF_CORE.fullmatch(c.name)}
    assert names == set(DASK_FUNCTIONS)


@pytest.mark.parametrize("case", DASK_PARAMS)
def test_a_dask_frame_is_refused_unless_counted_out_of_core(case):
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(BASE, npartitions=2)
    before = set(plt.get_fignums())
    ax = None if case.own_figure else plt.subplots()[1]
    n_art = _artists(ax) if ax is not None else 0
    result, err = _call(lambda: case.draw(frame, case.methods[0], ax))
    if OUT_OF_CORE.fullmatch(case.name):
        # histplot, heatmap, countplot and kdeplot count it out of core and draw it (a 2-D
        # grid is chosen by n: 60 records get 5 x 5 cells, some of threshold records)
        assert err is None, f"{case.name} refused a dask frame it counts out of core: {err}"
        assert audit.entries(), "a drawn figure is missing from the audit log"
        return
    assert err is not None, f"{case.name} read a dask DataFrame into memory instead of refusing"
    _check_refused(err, r"does not take a dask", before, ax, n_art)
    assert "histplot" in str(err), "the message says what to use instead"


@pytest.mark.parametrize("fname", TABLE_CALLS)
def test_tables_models_and_anonymisers_refuse_a_dask_frame(fname):
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(BASE, npartitions=2)
    before = set(plt.get_fignums())
    _, err = _call(lambda: TABLE_CALLS[fname](frame))
    assert err is not None, f"{fname} read a dask DataFrame into memory instead of refusing"
    _check_refused(err, r"does not take a dask DataFrame", before)


def test_matrix_size():
    """The numbers quoted for the matrix: functions x bad inputs tried."""
    functions = {c.name for c in CASES} | set(PARAM_CALLS) | set(TABLE_CALLS)
    cells = len(DATA_PARAMS) + len(CASES) + len(PARAM_PARAMS) + len(TABLE_PARAMS)
    assert len(functions) >= 60
    assert cells >= 1000
