"""What a remote analyst may ask for, and how the server answers: releases only.

The server runs the *same* public function a local call runs, on its own
frame, with the arguments listed here and nothing else, and collects what
the function hands to the guard (:func:`safeplot.release.guard.capturing`).
What it sends back is a :class:`CallRelease`: the releases, with the fields
that only drawing guards inside the secure environment use removed
(:func:`for_analyst`), their reports, and for tables and models the
released table.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..errors import DisclosureError
from ..release import DisclosureReport, guard, release_kind

__all__ = [
    "CALLS",
    "PLOTS",
    "CallRelease",
    "for_analyst",
    "run_call",
]

#: The argument types of the allow-list (the server validates them with pydantic models).
STR, INT, FLOAT, BOOL, STRS, FLOATS, INT_OR_STR, STR_OR_STRS = (
    "str",
    "int",
    "float",
    "bool",
    "list[str]",
    "list[float]",
    "int | str",
    "str | list[str]",
)

_METHOD = {"method": STR, "threshold": INT}
_VALUES = {"k": INT, "q": FLOAT, "factor": INT}

#: Function name -> the arguments a remote call may give it, with their types. Arguments
#: that only style the drawing (palette, colour, legend, ...) stay on the analyst's side.
CALLS: dict[str, dict[str, str]] = {
    "histplot": {
        "x": STR,
        "hue": STR,
        "hue_order": STRS,
        "bins": INT_OR_STR,
        "binwidth": FLOAT,
        "binrange": FLOATS,
        "discrete": BOOL,
        "stat": STR,
        "element": STR,
        **_METHOD,
        **_VALUES,
    },
    "scatterplot": {
        "x": STR,
        "y": STR,
        "hue": STR,
        "hue_order": STRS,
        "metric": STR,
        "bins": INT,
        **_METHOD,
        **_VALUES,
    },
    "boxplot": {
        "x": STR,
        "y": STR,
        "hue": STR,
        "order": STRS,
        "hue_order": STRS,
        "orient": STR,
        "bins": INT,
        **_METHOD,
        **_VALUES,
    },
    "countplot": {
        "x": STR,
        "y": STR,
        "hue": STR,
        "order": STRS,
        "hue_order": STRS,
        "orient": STR,
        "stat": STR,
        **_METHOD,
    },
    "heatmap": {"x": STR, "y": STR, "bins": INT, **_METHOD, **_VALUES},
    "kdeplot": {
        "x": STR,
        "y": STR,
        "hue": STR,
        "hue_order": STRS,
        "bw_method": STR,
        "bw_adjust": FLOAT,
        "gridsize": INT,
        "cut": FLOAT,
        "common_norm": BOOL,
        "common_grid": BOOL,
        "cumulative": BOOL,
        "multiple": STR,
        "fill": BOOL,
        "levels": INT,
        "thresh": FLOAT,
        "bins": INT,
        **_METHOD,
        **_VALUES,
    },
    "describe": {"percentiles": FLOATS, "threshold": INT, "winsor_sd": FLOAT, "sig": INT},
    "crosstab": {
        "index": STR_OR_STRS,
        "columns": STR_OR_STRS,
        "margins": BOOL,
        "threshold": INT,
    },
    "corr": {
        "method": STR,
        "min_periods": INT,
        "numeric_only": BOOL,
        "threshold": INT,
        "sig": INT,
    },
    "safe_ols": {"formula": STR},
    "safe_logit": {"formula": STR},
    # one regression-diagnostic panel of a model fitted on the server (RemoteFit.plot_*)
    "diagnostics": {
        "formula": STR,
        "model": STR,
        "panel": STR,
        "metric": STR,
        **_METHOD,
        **_VALUES,
    },
}

#: The functions that draw (the rest release a table or a model).
PLOTS = ("histplot", "scatterplot", "boxplot", "countplot", "heatmap", "kdeplot")
#: Methods a server never runs: their output is the records themselves.
RAW_METHODS = ("none",)


@release_kind("remote_call")
@dataclass
class CallRelease:
    """What a server sends back for one call: releases, reports, released tables.

    Attributes
    ----------
    function : str
        The public function that ran on the server.
    releases : list
        The releases the function made, as its marks draw them
        (:func:`for_analyst` has removed what only drawing guards use).
    reports : list of DisclosureReport
        The report of each release, in order.
    table : DataFrame, optional
        The released table (``describe``, ``crosstab``, ``corr``, a model's
        coefficient table).
    flags : DataFrame, optional
        ``describe``'s flag for every statistic.
    values : dict
        Released scalars of a model (rounded counts and statistics).

    Examples
    --------
    >>> rel = CallRelease("describe", [], [DisclosureReport("describe", "confidential")])
    >>> CallRelease.from_json(rel.to_json()).reports[0].method
    'confidential'
    """

    function: str
    releases: list
    reports: list[DisclosureReport]
    table: pd.DataFrame | None = None
    flags: pd.DataFrame | None = None
    values: dict = field(default_factory=dict)


def _register_panel() -> None:
    """Let a diagnostic panel travel as part of a release (it holds a release and labels)."""
    from .. import diagnostics
    from ..release._serial import _KINDS, release_part

    if diagnostics._Panel not in _KINDS:
        release_part("diagnostic_panel")(diagnostics._Panel)


_register_panel()


def _function(name: str) -> Callable[..., Any]:
    from .. import diagnostics, summaries
    from ..plots import categorical, distributions, kde, matrix, relational

    return {
        "histplot": distributions.histplot,
        "scatterplot": relational.scatterplot,
        "boxplot": categorical.boxplot,
        "countplot": categorical.countplot,
        "heatmap": matrix.heatmap,
        "kdeplot": kde.kdeplot,
        "describe": summaries.describe,
        "crosstab": summaries.crosstab,
        "corr": summaries.corr,
        "safe_ols": diagnostics.safe_ols,
        "safe_logit": diagnostics.safe_logit,
        "diagnostics": _diagnostic_panel,
    }[name]


def check_call(function: str, args: dict[str, Any]) -> dict[str, Any]:
    """Return `args` if `function` and every argument are on the allow-list; else ValueError.

    Examples
    --------
    >>> check_call("histplot", {"x": "age"})
    {'x': 'age'}
    """
    if function not in CALLS:
        raise ValueError(
            f"{function!r} cannot be called remotely; the functions that can are {sorted(CALLS)}."
        )
    unknown = sorted(set(args) - set(CALLS[function]))
    if unknown:
        raise ValueError(
            f"{function}() takes no remote argument(s) {unknown}; the arguments sent to the "
            f"server are {sorted(CALLS[function])} (styling arguments stay local)."
        )
    if "formula" in args:
        check_formula(args["formula"])
    method = args.get("method")
    if method in RAW_METHODS:
        raise DisclosureError(
            f"method={method!r} releases the records themselves, which a remote-analysis "
            "server never does."
        )
    return dict(args)


#: Names a remote formula may use besides column names (patsy evaluates formulas as Python).
FORMULA_NAMES = frozenset({"C", "I", "np.log", "np.log1p", "np.exp", "np.sqrt", "np.abs"})
_FORMULA_TOKEN = re.compile(
    r"\s+|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)"
    r"|(?P<number>\d+(?:\.\d+)?)|(?P<op>\*\*|[~+\-*/:(),^])"
)


def check_formula(formula: Any, columns: Any = None) -> str:
    """Return `formula` if it uses only column names, operators and a few functions.

    statsmodels reads formulas with patsy, which evaluates each term as
    Python: a server must not evaluate whatever an analyst writes. A remote
    formula may hold names (column names, and ``C``, ``I``, ``np.log``,
    ``np.log1p``, ``np.exp``, ``np.sqrt``, ``np.abs``), numbers and the
    operators ``~ + - * / : ( ) , ** ^``; nothing else (no quotes, no
    brackets, no attribute access, no names that start with ``_``).

    Examples
    --------
    >>> check_formula("survived ~ age + C(pclass) + np.log(fare + 1)")
    'survived ~ age + C(pclass) + np.log(fare + 1)'
    >>> check_formula("y ~ __import__('os')")
    Traceback (most recent call last):
    ...
    ValueError: The formula may hold only column names, numbers, ...
    """
    if not isinstance(formula, str) or "~" not in formula or len(formula) > 500:
        raise ValueError(
            "A remote formula is a string 'outcome ~ terms' (at most 500 characters)."
        )
    pos = 0
    problem = ""
    while pos < len(formula):
        m = _FORMULA_TOKEN.match(formula, pos)
        if m is None:
            problem = f"{formula[pos]!r}"
            break
        name = m.group("name")
        if name is not None:
            known = columns is None or name in set(columns)
            if name.startswith("_") or "._" in name or ("." in name and name not in FORMULA_NAMES):
                problem = repr(name)
                break
            if not known and name not in FORMULA_NAMES:
                problem = repr(name)
                break
        pos = m.end()
    if problem:
        raise ValueError(
            "The formula may hold only column names, numbers, the operators ~ + - * / : ( ) "
            f"and the functions {sorted(FORMULA_NAMES)}; {problem} is not allowed."
        )
    return formula


def run_call(function: str, frame: Any, args: dict[str, Any]) -> CallRelease:
    """Run a public function on `frame` and return what it released, for the analyst.

    The function runs exactly as a local call would (same release builders,
    same guard, the ledger and policy in force), drawing on a figure that is
    then thrown away; what it handed to the guard is returned.

    Parameters
    ----------
    function : str
        A name in :data:`CALLS`.
    frame : DataFrame
        The records (pandas or dask).
    args : dict
        The call's arguments (checked against :data:`CALLS`).

    Returns
    -------
    CallRelease

    Examples
    --------
    >>> import safeplot
    >>> titanic = safeplot.load_dataset("titanic")
    >>> out = run_call("histplot", titanic, {"x": "age"})
    >>> type(out.releases[0]).__name__, out.reports[0].method
    ('HistogramRelease', 'suppress')
    """
    from matplotlib.figure import Figure

    args = check_call(function, args)
    if "formula" in args:
        check_formula(args["formula"], frame.columns)
    func = _function(function)
    with guard.capturing() as seen:
        if function in PLOTS:
            fig = Figure()
            func(data=frame, ax=fig.add_subplot(), **args)
            result = None
        elif function in ("safe_ols", "safe_logit"):
            result = func(args["formula"], data=frame)
        elif function == "diagnostics":
            _diagnostic_panel(frame, args)
            result = None
        else:
            result = func(frame, **args)
    if function in ("safe_ols", "safe_logit"):
        return _model_release(function, result)
    if function == "diagnostics":
        panels = [for_analyst(release) for _, _, release in seen]
        return CallRelease(function, panels, [r for _, r, _ in seen])
    releases: list[Any] = []
    reports: list[DisclosureReport] = []
    for _, report, release in seen:
        reports.append(report)
        items = release if isinstance(release, list) else [release]
        releases += [for_analyst(r) for r in items if _is_release(r)]
    if function == "describe":
        return CallRelease(function, [], [result.report], result.table, result.flags)
    if function in ("crosstab", "corr"):
        table = result.copy()
        table.attrs = {}
        return CallRelease(function, [], reports, table)
    return CallRelease(function, releases, reports)


def _diagnostic_panel(frame: Any, args: dict[str, Any]) -> None:
    """Fit the model on `frame` and draw one diagnostic panel on a throw-away figure."""
    from matplotlib.figure import Figure

    from .. import diagnostics

    model = {"ols": diagnostics.safe_ols, "logit": diagnostics.safe_logit}.get(
        args.get("model", "ols")
    )
    if model is None:
        raise ValueError("model must be 'ols' or 'logit'.")
    if args.get("panel") not in diagnostics.PANELS:
        raise ValueError(f"panel must be one of {list(diagnostics.PANELS)}.")
    fit = model(args["formula"], data=frame)
    options = {k: v for k, v in args.items() if k not in ("formula", "model", "panel")}
    getattr(fit, f"plot_{args['panel']}")(ax=Figure().add_subplot(), **options)


def _is_release(value: Any) -> bool:
    from ..release._serial import _RELEASES, _kind_of

    return _kind_of(value) in _RELEASES


def _model_release(function: str, fit: Any) -> CallRelease:
    from .. import audit

    entry = audit.record_model(fit)
    report = DisclosureReport(**{**entry.report, "variables": tuple(entry.report["variables"])})
    stats = {
        name: getattr(fit, name)
        for name in ("rsquared", "rsquared_adj", "fvalue", "f_pvalue", "deviance", "llf", "aic")
        if hasattr(type(fit), name)
    }
    values = {
        "formula": fit.formula,
        "nobs": fit.nobs,
        "n_dropped": fit.n_dropped,
        "df_resid": fit.df_resid,
        "df_model": float(fit.df_model),
        "stats": {k: float(v) for k, v in stats.items()},
        "conf_int": {str(a): fit.conf_int(alpha=a) for a in (0.05,)},
    }
    return CallRelease(function, [], [report], fit.summary_frame(), values=values)


def for_analyst(release: Any) -> Any:
    """Return a copy of `release` without what only drawing guards inside the environment use.

    A release keeps, for drawing it again inside the secure environment, the
    rare raw values no tick or label may equal (``avoid`` fields) and the
    exact number of records behind each box. Neither leaves a server: the
    ``avoid`` fields are emptied, exact counts are set to 0 (the rounded
    counts are in the report), and categorical dtypes keep only the levels
    the release shows.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots.categorical import release_boxplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_boxplot(tips, x="day", y="tip", method="confidential")
    >>> int(for_analyst(rel).box("Sun").n), for_analyst(rel).avoid.size
    (0, 0)
    """
    return _strip(release)


def _strip(value: Any) -> Any:
    if isinstance(value, list):
        return [_strip(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_strip(v) for v in value)
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items()}
    if not (dataclasses.is_dataclass(value) and not isinstance(value, type)):
        return value
    out = copy.copy(value)
    names = [f.name for f in dataclasses.fields(value)]
    for name in names:
        v = getattr(value, name)
        if name.startswith("avoid"):
            v = np.array([], dtype=v.dtype) if isinstance(v, np.ndarray) else type(v)()
        elif type(value).__name__ == "BoxSummary" and name in ("n", "n_winsorized"):
            v = 0
        else:
            v = _strip(v)
        object.__setattr__(out, name, v)
    if type(value).__name__ == "Layout":
        for levels, dtype in (("levels", "cat_dtype"), ("hue_levels", "hue_dtype")):
            shown = getattr(out, levels)
            cats = getattr(out, dtype)
            if isinstance(cats, pd.CategoricalDtype) and shown is not None:
                kept = [c for c in cats.categories if c in set(shown)]
                object.__setattr__(out, dtype, pd.CategoricalDtype(kept, cats.ordered))
    return out


#: Most records per model parameter a federated GLM step needs (DataSHIELD's nfilter.glm).
GLM_RECORDS_PER_PARAMETER = 5
#: Significant figures of the sufficient statistics a GLM step releases.
GLM_SIG = 10


def glm_step(frame: Any, formula: str, beta: Any = None) -> dict[str, Any]:
    """Return one site's sufficient statistics of a logistic regression at `beta`.

    The federated fit (DataSHIELD's model) adds these across sites and takes
    a Newton step; no site releases more than these sums over its records:
    the information matrix ``X' W X``, the score ``X' (y - p)`` and the
    deviance, at the coefficients the analyst's side holds.

    Parameters
    ----------
    frame : DataFrame
        The site's records.
    formula : str
        ``"outcome ~ terms"`` (checked by :func:`check_formula`); the outcome is 0/1.
    beta : sequence of float, optional
        Coefficients, in the order of ``names`` (default: zeros).

    Returns
    -------
    dict
        ``names``, ``information``, ``score``, ``deviance`` (rounded to
        :data:`GLM_SIG` significant figures) and ``n`` (rounded by the policy).

    Raises
    ------
    DisclosureError
        With fewer than :data:`GLM_RECORDS_PER_PARAMETER` records per
        parameter, or fewer than ``threshold`` records in either outcome class.

    Examples
    --------
    >>> import safeplot
    >>> step = glm_step(safeplot.load_dataset("titanic"), "survived ~ age")
    >>> step["names"], len(step["information"])
    (['Intercept', 'age'], 2)
    """
    import statsmodels.formula.api as smf

    from ..policy import get_policy

    check_formula(formula, frame.columns)
    pol = get_policy()
    model = smf.logit(formula, data=frame)
    X = np.asarray(model.exog, dtype=float)
    y = np.asarray(model.endog, dtype=float)
    n, p = X.shape
    if n < max(pol.threshold, GLM_RECORDS_PER_PARAMETER * p):
        raise DisclosureError(
            f"A model with {p} parameters needs at least {GLM_RECORDS_PER_PARAMETER} records "
            f"per parameter and at least the threshold {pol.threshold}; this site has fewer."
        )
    ones = int(y.sum())
    if min(ones, n - ones) < pol.threshold:
        raise DisclosureError(
            f"Each outcome class needs at least the threshold {pol.threshold} records at every "
            "site; one has fewer here."
        )
    b = np.zeros(p) if beta is None else np.asarray(beta, dtype=float)
    if b.shape != (p,) or not np.isfinite(b).all():
        raise ValueError(f"beta must be {p} finite numbers ({', '.join(model.exog_names)}).")
    eta = X @ b
    mu = 1.0 / (1.0 + np.exp(-eta))
    w = mu * (1.0 - mu)
    info = X.T @ (w[:, None] * X)
    score = X.T @ (y - mu)
    with np.errstate(divide="ignore"):
        ll = np.where(y > 0, np.log(mu), np.log1p(-mu))
    deviance = float(-2.0 * ll.sum())

    def sig(values: Any) -> Any:
        return np.vectorize(lambda v: float(f"{v:.{GLM_SIG}g}"))(np.asarray(values, dtype=float))

    return {
        "names": list(model.exog_names),
        "information": sig(info).tolist(),
        "score": sig(score).tolist(),
        "deviance": float(sig(deviance)),
        "n": pol.round_count(n),
    }
