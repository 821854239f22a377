"""Weigh disclosure risk against utility before choosing a method: ``safeplot.assess``.

:func:`assess` anonymises the chosen columns of a data set the way the plots
would (:func:`safeplot.methods.anonymize_values`, under the policy in
force) and measures, for one setting or a sweep of settings, how useful the
result stays and how much it still discloses (:mod:`safeplot.metrics`).
:func:`assess_plot` draws the trade-off across the sweep.

The module is callable, so after ``import safeplot.assess``,
``safeplot.assess(df, ["age", "fare"])`` is :func:`assess`.

The table describes the raw data (the metrics compare them with their
anonymised version): it is for the data holder choosing a method and its
parameters, not an output to release.

References
----------
.. [1] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
   protecting privacy in sensitive personal data." BMC Medical Informatics
   and Decision Making 22. https://doi.org/10.1186/s12911-022-01754-4
.. [2] Senavirathne N, Torra V (2019). "Rounding based continuous data
   discretization for statistical disclosure control." Journal of Ambient
   Intelligence and Humanized Computing.
"""

from __future__ import annotations

import itertools
import re
import sys
import types
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from . import metrics
from ._validate import as_frame, clean_numeric
from .methods import anonymize_values, method_options
from .policy import Policy, get_policy

__all__ = ["METRIC_LABELS", "assess", "assess_plot"]

#: Parameters of microaggregation and rounding, set through
#: :func:`safeplot.methods.method_options` rather than passed as arguments.
_OPTION_KEYS = ("algorithm", "c", "discretizer")

#: Axis labels of :func:`assess_plot` for the metric columns.
METRIC_LABELS: dict[str, str] = {
    "U": "propensity utility loss U (main effects; 0 = indistinguishable)",
    "U2": "propensity utility loss U2 (with squares and products)",
    "risk1": "disclosure risk risk1 (RMDID1, fraction of records)",
    "risk2": "disclosure risk risk2 (RMDID2, fraction of records)",
    "IDR": "interval disclosure risk IDR",
    "DDR": "distance-based record linkage DDR",
    "IL1s": "information loss IL1s",
    "ILMetrics": "information loss on means, variances, covariances, correlations",
    "IL_DR": "IL-DR score (lower is better)",
    "max_std_diff": "largest standardised coefficient difference",
    "min_ci_overlap": "smallest confidence-interval overlap",
}


def _names(value: str | Sequence[Hashable] | None, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    names = [str(v) for v in value]
    if len(set(names)) != len(names):
        raise ValueError(f"{what} lists a column twice: {names}.")
    return names


def _settings(sweep: Mapping[str, Sequence[Any]] | None) -> list[dict[str, Any]]:
    if sweep is None:
        return [{}]
    if not isinstance(sweep, Mapping) or not sweep:
        raise ValueError(
            "sweep must be a dict of parameter name -> list of values, e.g. {'k': [3, 5, 10]}."
        )
    values = []
    for name, options in sweep.items():
        if isinstance(options, (str, bytes)) or not isinstance(options, Sequence | np.ndarray):
            raise ValueError(f"sweep[{name!r}] must be a list of values, got {options!r}.")
        if len(options) == 0:
            raise ValueError(f"sweep[{name!r}] is empty; give at least one value.")
        values.append([v.item() if isinstance(v, np.generic) else v for v in options])
    return [dict(zip(sweep, combo, strict=True)) for combo in itertools.product(*values)]


def _family(formula: str, frame: pd.DataFrame) -> str:
    """Logit for a 0/1 (or boolean) outcome column, OLS otherwise."""
    outcome = formula.split("~", 1)[0].strip()
    if outcome in frame.columns:
        values = pd.unique(frame[outcome].dropna())
        if len(values) <= 2 and set(np.asarray(values, dtype=object).tolist()) <= {0, 1}:
            return "logit"
    return "ols"


def assess(
    data: Any,
    vars: str | Sequence[Hashable],
    *,
    method: str = "deterministic",
    k: int | None = None,
    q: float | None = None,
    strata: str | Sequence[Hashable] | None = None,
    sweep: Mapping[str, Sequence[Any]] | None = None,
    formula: str | None = None,
    family: str | None = None,
    propensity_vars: str | Sequence[Hashable] | None = None,
    policy: Policy | None = None,
    **method_params: Any,
) -> pd.DataFrame:
    r"""Anonymise `vars` and measure utility and disclosure risk, for one setting or a sweep.

    The rows with a value in every column of `vars` and `strata` are
    anonymised with :func:`safeplot.methods.anonymize_values` (strata:
    one code per combination of the categorical `strata` columns; the
    policy's floors apply) and compared with the originals:

    * ``U`` — propensity-score utility with main effects
      (:func:`safeplot.metrics.propensity_utility`), fitted as Avraam et al.
      fit it, on every variable of the merged data: `vars`, `strata` and
      the formula's columns (or `propensity_vars`). ``U2`` adds squares and
      products (``degree=2``), which also sees changed spread and
      correlation;
    * ``delta_<var>`` for each variable (:func:`safeplot.metrics.delta`);
    * ``risk1``, ``risk2`` (:func:`safeplot.metrics.drisk_rmd`), ``IDR``
      (:func:`~safeplot.metrics.interval_disclosure_risk`), ``DDR``
      (:func:`~safeplot.metrics.distance_linkage`);
    * ``IL1s``, ``ILMetrics`` and the score
      :math:`IL\_DR = (ILMetrics + IL1s + DDR + IDR) / 4`
      (:mod:`safeplot.metrics.information_loss`);
    * with a `formula`: ``max_std_diff``, the largest
      :math:`|b_{or} - b_{an}| / SE(b_{or})` over the coefficients, and
      ``min_ci_overlap``, the smallest confidence-interval overlap
      (:func:`~safeplot.metrics.coefficient_comparison`, fitted to the same
      rows with `vars` replaced by their anonymised values).

    Parameters
    ----------
    data : DataFrame (or anything :func:`safeplot._validate.as_frame` reads)
        The data.
    vars : str or list of str
        Numeric columns to anonymise.
    method : str, default "deterministic"
        A value-level method: ``"deterministic"``, ``"probabilistic"``,
        ``"confidential"``, ``"microaggregation"`` or ``"rounding"``.
    k : int, optional
        Records per centroid (deterministic) or per group (microaggregation).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each SD (probabilistic).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    strata : str or list of str, optional
        Categorical columns; the deterministic search runs within each
        combination.
    sweep : dict, optional
        Parameters to vary, e.g. ``{"k": [3, 5, 10, 20]}``: one row per
        value (per combination for several parameters).
    formula : str, optional
        A statsmodels formula fitted to the original and anonymised data.
    family : {"ols", "logit"}, optional
        The formula's model; default logit for a 0/1 outcome, else OLS.
    propensity_vars : str or list of str, optional
        Columns of the propensity model of ``U`` and ``U2`` (default: `vars`,
        `strata` and the columns the formula names). Numeric columns enter
        as they are, categorical ones (strings, ``category``) as indicators;
        rows missing one of them are left out of U. ``propensity_vars=vars``
        measures the anonymised variables' marginal change only.
    policy : Policy, optional
        The policy whose floors apply (default: the policy in force).
    **method_params
        Further parameters of the method: ``algorithm`` (microaggregation),
        ``c`` and ``discretizer`` (rounding) are set with
        :func:`~safeplot.methods.method_options`, the rest (e.g.
        ``metric=``) are passed to :func:`~safeplot.methods.anonymize_values`.
        Any of them can also be swept.

    Returns
    -------
    pandas.DataFrame
        One row per setting: ``method``, the swept parameters, the
        parameters as applied, then the metrics. ``table.attrs`` holds
        ``method``, ``vars`` and ``sweep`` (the swept names).

    Raises
    ------
    DisclosureError
        A method the policy refuses, parameters below its floors, a stratum
        smaller than ``k``, too few rows.
    ValueError
        Unknown columns, non-numeric `vars`, a bad sweep or formula, a
        method that does not release values, or a parameter the method
        does not take.

    Examples
    --------
    >>> from safeplot.datasets import simulate
    >>> table = assess(simulate("D1", n=300), ["x", "y"], sweep={"k": [3, 10]})
    >>> table[["k", "U", "risk1", "risk2"]].round(3)
        k    U  risk1  risk2
    0   3  0.0  0.010  0.003
    1  10  0.0  0.003  0.003
    >>> bool((table["IL1s"].diff().dropna() > 0).all())
    True
    """
    pol = get_policy(policy)
    columns = _names(vars, "vars")
    if not columns:
        raise ValueError("vars is empty: name at least one numeric column to anonymise.")
    strata_cols = _names(strata, "strata")
    overlap = set(columns) & set(strata_cols)
    if overlap:
        raise ValueError(f"Column(s) {sorted(overlap)} are in both vars and strata.")
    method = pol.check_method(method)
    settings = _settings(sweep)
    frame = as_frame(data, function="assess")
    clean = clean_numeric(frame, columns, strata=strata_cols, min_rows=2)
    keep = frame[columns + strata_cols].notna().all(axis=1).to_numpy()
    original = clean.values
    rows = frame.loc[keep].reset_index(drop=True)
    if formula is not None:
        if not isinstance(formula, str) or "~" not in formula:
            raise ValueError(
                f"formula must be a statsmodels formula 'y ~ x + ...', got {formula!r}."
            )
        family = _family(formula, rows) if family is None else family
    u_cols = _propensity_columns(propensity_vars, columns, strata_cols, formula, rows)
    u_rows = rows.loc[rows[u_cols].notna().all(axis=1).to_numpy(), u_cols]
    swept = list(settings[0])
    table = []
    for setting in settings:
        params = {"k": k, "q": q, **method_params, **setting}
        options = {key: params.pop(key) for key in _OPTION_KEYS if key in params}
        try:
            with method_options(**options):
                out = anonymize_values(
                    original, method, names=columns, strata=clean.strata, policy=pol, **params
                )
        except TypeError as exc:
            if "keyword" not in str(exc):
                raise
            raise ValueError(
                f"method={method!r} does not take one of the parameters "
                f"{sorted([*params, *options])}: {exc}"
            ) from None
        released = out.values
        row: dict[str, Any] = {"method": method, **setting}
        for name, value in out.params.items():
            row.setdefault(name, value)
        u_released = u_rows.copy()
        u_released[columns] = released[u_rows.index.to_numpy()]
        row.update(_measures(original, released, columns, u_rows, u_released))
        if formula is not None:
            anonymised = rows.copy()
            anonymised[columns] = released
            comp = metrics.coefficient_comparison(formula, rows, anonymised, family=family)
            row["max_std_diff"] = float(comp["std_diff"].max())
            row["min_ci_overlap"] = float(comp["ci_overlap"].min())
        table.append(row)
    result = pd.DataFrame(table)
    result.attrs.update({"method": method, "vars": columns, "sweep": swept})
    return result


def _propensity_columns(
    chosen: str | Sequence[Hashable] | None,
    columns: list[str],
    strata: list[str],
    formula: str | None,
    frame: pd.DataFrame,
) -> list[str]:
    """Columns of the propensity model: as chosen, or vars, strata and the formula's columns."""
    if chosen is not None:
        names = _names(chosen, "propensity_vars")
        missing = [c for c in names if c not in frame.columns]
        if missing:
            raise ValueError(
                f"propensity_vars names column(s) {missing} that are not in the data; "
                f"columns: {list(map(str, frame.columns))}."
            )
        if not set(columns) & set(names):
            raise ValueError(
                f"propensity_vars={names} holds none of the anonymised vars {columns}, so U "
                "would be 0 whatever the anonymisation; include them."
            )
        return names
    names = columns + strata
    if formula is not None:
        quoted = re.findall(r"Q\(\s*['\"](.+?)['\"]\s*\)", formula)
        words = re.findall(r"[A-Za-z_.][A-Za-z0-9_.]*", formula)
        for word in [*quoted, *words]:
            if word in frame.columns and word not in names:
                names.append(word)
    return names


def _measures(
    original: np.ndarray,
    released: np.ndarray,
    names: list[str],
    u_original: pd.DataFrame,
    u_released: pd.DataFrame,
) -> dict[str, float]:
    """Every metric of one setting, each computed once."""
    x = pd.DataFrame(original, columns=names)
    y = pd.DataFrame(released, columns=names)
    out: dict[str, float] = {
        "U": metrics.propensity_utility(u_original, u_released),
        "U2": metrics.propensity_utility(u_original, u_released, degree=2),
    }
    for name, value in metrics.delta(x, y).items():
        out[f"delta_{name}"] = float(value)
    risk = metrics.drisk_rmd(x, y)
    out["risk1"], out["risk2"] = risk.risk1, risk.risk2
    out["IDR"] = metrics.interval_disclosure_risk(x, y)
    out["DDR"] = metrics.distance_linkage(x, y)
    out["IL1s"] = metrics.il1s(x, y)
    out["ILMetrics"] = metrics.il_metrics(x, y).value
    out["IL_DR"] = 0.25 * (out["ILMetrics"] + out["IL1s"] + out["DDR"] + out["IDR"])
    return out


def assess_plot(
    table: pd.DataFrame,
    x: str = "risk1",
    y: str = "U",
    *,
    label: str | None = None,
    ax: Any = None,
) -> Any:
    """Draw the risk-utility trade-off of an :func:`assess` table, points labelled by setting.

    Parameters
    ----------
    table : DataFrame
        The output of :func:`assess`.
    x, y : str, default "risk1" and "U"
        Metric columns for the axes (e.g. ``"DDR"``, ``"IL1s"``, ``"U2"``).
    label : str, optional
        Column whose value labels each point (default: the swept parameter).
    ax : matplotlib Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        When a column is not in the table, or the table is empty.

    Examples
    --------
    >>> from safeplot.datasets import simulate
    >>> table = assess(simulate("D2", n=300), ["x", "y"], sweep={"k": [3, 5, 10]})
    >>> ax = assess_plot(table, x="risk1", y="IL1s")
    >>> [t.get_text() for t in ax.texts]
    ['k=3', 'k=5', 'k=10']
    """
    import matplotlib.pyplot as plt

    if not isinstance(table, pd.DataFrame) or table.empty:
        raise ValueError("table must be a non-empty DataFrame returned by safeplot.assess.")
    if label is None:
        swept = table.attrs.get("sweep") or []
        label = swept[0] if swept else None
    for column in (x, y, label):
        if column is not None and column not in table.columns:
            raise ValueError(
                f"Column {column!r} is not in the table; columns: {list(table.columns)}."
            )
    if ax is None:
        _, ax = plt.subplots(figsize=(5.5, 4.0))
    xs = table[x].to_numpy(dtype=float)
    ys = table[y].to_numpy(dtype=float)
    ax.plot(xs, ys, "-o", color="C0")
    ax.margins(0.12)  # room for the labels
    if label is not None:
        for xv, yv, value in zip(xs, ys, table[label], strict=True):
            ax.annotate(
                f"{label}={value}",
                (xv, yv),
                textcoords="offset points",
                xytext=(5, 5),
                fontsize=9,
            )
    ax.set_xlabel(METRIC_LABELS.get(x, x))
    ax.set_ylabel(METRIC_LABELS.get(y, y))
    method = table.attrs.get("method") or (
        table["method"].iloc[0] if "method" in table.columns else None
    )
    if method:
        ax.set_title(f"Risk and utility: {method}")
    return ax


class _AssessModule(types.ModuleType):
    """Make this module callable: ``safeplot.assess(...)`` is :func:`assess`.

    Keeps ``safeplot.assess`` one object, usable both as the module
    (``safeplot.assess.assess_plot``) and as the function, as
    :mod:`safeplot.policy` does.
    """

    def __call__(self, data: Any, vars: str | Sequence[Hashable], **kwargs: Any) -> pd.DataFrame:
        return assess(data, vars, **kwargs)


sys.modules[__name__].__class__ = _AssessModule
