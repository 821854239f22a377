"""Confidentialised summary tables: ``corr`` and ``describe`` (O'Keefe; Brandt et al.).

Summary statistics leave a trusted research environment as often as plots,
and disclose in the same ways: a minimum or maximum *is* a record's value, a
correlation computed from a handful of records pins them down, and a
correlation of exactly 1 says that one variable is a function of another.
The two functions here follow pandas' ``DataFrame.corr`` and
``DataFrame.describe`` but release only numbers that pass the output rules
of O'Keefe (2013) and Brandt et al. (2010):

- :func:`corr` rounds every coefficient to the policy's significant figures,
  suppresses coefficients resting on fewer than 10 (or ``threshold``)
  pairwise-complete records, and flags exact 0 and +/-1 off the diagonal;
  the matrix it returns is marked as released, so
  :func:`safeplot.plots.matrix.heatmap` draws it;
- :func:`describe` gives, per numeric column, the rounded number of records
  and the mean and standard deviation of the *winsorised* values, rounded;
  never the minimum or maximum (a record's value), and the median and
  quartiles only where the policy's ``release_quartiles`` allows them
  (O'Keefe does not release them). Columns with fewer than 10 (or
  ``threshold``) records are suppressed.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
.. [2] Brandt M, Franconi L, Guerke C, et al. "Guidelines for the checking of
   output based on microdata research." ESSnet SDC (2010).
"""

from __future__ import annotations

import html
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from . import audit
from ._validate import refuse_dask, to_pandas
from .anonymize.grids import rare_values
from .anonymize.statistics import winsorize
from .errors import DisclosureError
from .plots import matrix as _matrix
from .plots._common import make_report
from .plots.matrix import mark_safe_matrix
from .policy import Policy, get_policy
from .release import DisclosureReport, guard

__all__ = [
    "BRANDT_MIN_RECORDS",
    "CHI2_LAMBDAS",
    "CORR_METHODS",
    "Chi2ContingencyResult",
    "Description",
    "chi2_contingency",
    "corr",
    "crosstab",
    "describe",
]

#: Fewest records behind a released statistic (Brandt et al. 2010), unless the threshold is higher.
BRANDT_MIN_RECORDS = 10
#: Correlation coefficients :func:`corr` computes (pandas' names).
CORR_METHODS = ("pearson", "spearman", "kendall")
#: Markers of :class:`Description` when printed.
WINSOR_MARK = "*"
SUPPRESS_MARK = "\u2014"
#: How close to 0 or +/-1 a coefficient must be to count as exact.
_EXACT = 1e-12


def _as_frame(data: Any, function: str) -> pd.DataFrame:
    refuse_dask(data, function)
    data = to_pandas(data, function=function)  # polars, pyarrow, ...
    if isinstance(data, pd.DataFrame):
        return data
    if isinstance(data, pd.Series):
        return data.to_frame(name=data.name if data.name is not None else "values")
    if isinstance(data, Mapping):
        return pd.DataFrame(dict(data))
    raise TypeError(
        f"{function} takes a DataFrame (pandas, polars, pyarrow, ...), a Series or a mapping "
        f"of columns, got {type(data).__name__}."
    )


def _is_number_column(series: pd.Series, *, bools: bool) -> bool:
    if pd.api.types.is_bool_dtype(series.dtype):
        return bools
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_complex_dtype(
        series.dtype
    )


def _numbers(frame: pd.DataFrame, function: str) -> pd.DataFrame:
    """Columns as float, refusing infinite values."""
    out = frame.astype(float)
    bad = [str(c) for c in out.columns if np.isinf(out[c].to_numpy()).any()]
    if bad:
        raise ValueError(
            f"{function}: column(s) {bad} hold infinite values. Replace them (e.g. with NaN, "
            "which is left out) before summarising."
        )
    return out


def _minimum(threshold: int, min_periods: int | None = None) -> int:
    return max(BRANDT_MIN_RECORDS, threshold, int(min_periods or 0))


# -- corr ----------------------------------------------------------------------------------


def corr(
    data: Any,
    method: str = "pearson",
    min_periods: int | None = None,
    numeric_only: bool = False,
    *,
    threshold: int | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
) -> pd.DataFrame:
    """Compute a correlation matrix that may be released: rounded, suppressed when thin, flagged.

    The arguments are those of :meth:`pandas.DataFrame.corr`; the
    coefficients are computed on pairwise-complete records as pandas does,
    then released under O'Keefe's and Brandt et al.'s rules.

    Parameters
    ----------
    data : DataFrame
        The records: a pandas, polars or pyarrow table, or a mapping of
        columns. ``corr(df)`` is ``df.corr()``; the other arguments follow
        in pandas' order (``corr(df, "spearman")``).
    method : {"pearson", "spearman", "kendall"}, default "pearson"
        The coefficient. A callable (allowed by pandas) is refused: it could
        compute anything.
    min_periods : int, optional
        Fewest pairwise-complete records for a coefficient; it can raise the
        minimum of 10 (Brandt et al.) or `threshold`, never lower it.
    numeric_only : bool, default False
        Use only the numeric (and boolean) columns. When False, a
        non-numeric column is an error, as in pandas.
    threshold : int, optional
        Fewest records per coefficient if above 10 (default and floor: the
        policy's threshold).
    sig : int, optional
        Significant figures of the coefficients (default and ceiling: the
        policy's ``sig_figs``).
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).

    Returns
    -------
    DataFrame
        The released matrix, NaN where suppressed, marked as released (its
        ``.attrs["safeplot"]`` holds the report) so that
        :func:`~safeplot.plots.matrix.heatmap` draws it. The release is
        recorded in the audit log.

    Raises
    ------
    ValueError
        Unknown `method`, non-numeric columns (without ``numeric_only``),
        infinite values, no numeric column.
    DisclosureError
        `threshold` or `sig` looser than the policy, or a method the policy
        does not allow.

    See Also
    --------
    describe : Confidentialised summary statistics.
    safeplot.plots.matrix.heatmap : Draws the released matrix.
    pandas.DataFrame.corr : The raw computation this mirrors.

    Notes
    -----
    Methods: The release is always ``"confidential"`` (O'Keefe's rules for
    statistics): each off-diagonal coefficient resting on fewer than
    ``max(10, threshold, min_periods)`` pairwise-complete records is
    suppressed (NaN) and listed in the report; the others are rounded to
    ``sig`` significant figures and, if the rounded value equals a value
    held by fewer than `threshold` records in either variable, moved by
    one unit in the last figure towards zero. A coefficient that is
    exactly 0 or +/-1 before rounding is kept but flagged in the
    report: +/-1 says that one variable is an exact (monotone) function
    of the other, which can disclose one record's value from the
    other's. A variable that is constant over the pairwise-complete
    records has no correlation (NaN, flagged). The diagonal is 1 where
    the variable has enough records, else NaN.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).
    .. [2] Brandt M, et al. "Guidelines for the checking of output based on
       microdata research." ESSnet SDC (2010).

    Examples
    --------
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> c = corr(penguins, numeric_only=True)
    >>> float(c.loc["flipper_length_mm", "body_mass_g"])
    0.871
    >>> c.attrs["safeplot"]["report"]["method"]
    'confidential'
    """
    pol = get_policy(policy)
    if callable(method) or method not in CORR_METHODS:
        raise ValueError(
            f"corr: method={method!r} is not available; use one of {list(CORR_METHODS)}. "
            "A callable is not accepted: it could compute any function of the records."
        )
    pol.check_method("confidential")
    threshold = pol.check_threshold(threshold)
    sig = pol.check_sig_figs(sig)
    if min_periods is not None and (
        isinstance(min_periods, bool) or not isinstance(min_periods, (int, np.integer))
    ):
        raise ValueError(f"min_periods must be an integer, got {min_periods!r}.")
    if not isinstance(numeric_only, (bool, np.bool_)):
        raise ValueError(f"numeric_only must be True or False, got {numeric_only!r}.")
    frame = _as_frame(data, "corr")
    text = [str(c) for c in frame.columns if not _is_number_column(frame[c], bools=True)]
    if text and not numeric_only:
        raise ValueError(
            f"corr: column(s) {text} are not numeric "
            f"({', '.join(str(frame[c].dtype) for c in frame.columns if str(c) in text)}). "
            "Pass numeric_only=True to leave them out, or select the numeric columns."
        )
    frame = frame[[c for c in frame.columns if _is_number_column(frame[c], bools=True)]]
    if frame.shape[1] == 0:
        raise ValueError("corr: there is no numeric column to correlate.")
    if not frame.columns.is_unique:
        raise ValueError("corr: the column names must be unique.")
    values = _numbers(frame, "corr")
    minimum = _minimum(threshold, min_periods)
    present = values.notna().to_numpy(dtype=float)
    counts = present.T @ present
    raw = values.corr(method=method, min_periods=1).to_numpy(dtype=float)
    names = [str(c) for c in values.columns]
    rare = [rare_values(values[c].dropna().to_numpy(), threshold) for c in values.columns]
    p = len(names)
    out = np.full((p, p), np.nan)
    suppressed, flagged, undefined = [], [], []
    for i in range(p):
        if counts[i, i] >= minimum and not np.isnan(raw[i, i]):
            out[i, i] = 1.0
        for j in range(i + 1, p):
            pair = f"{names[i]} ~ {names[j]}"
            if counts[i, j] < minimum:
                suppressed.append(pair)
                continue
            r = raw[i, j]
            if np.isnan(r):
                undefined.append(pair)
                continue
            if abs(abs(r) - 1) <= _EXACT:
                flagged.append(f"{pair}: exactly {'-' if r < 0 else ''}1")
            elif abs(r) <= _EXACT:
                flagged.append(f"{pair}: exactly 0")
            avoid = np.union1d(rare[i], rare[j])
            # a coefficient on a rare value moves towards 0, so it stays in [-1, 1]
            direction = -1.0 if r > 0 else 1.0
            shown = guard.released_statistics(
                [float(np.clip(r, -1, 1))], avoid, sig=sig, directions=direction, policy=pol
            )
            out[i, j] = out[j, i] = float(shown[0])
    warnings = []
    if suppressed:
        warnings.append(
            f"{len(suppressed)} coefficient(s) rest on fewer than {minimum} pairwise-complete "
            f"records and are suppressed (NaN): {'; '.join(suppressed)}."
        )
    if undefined:
        warnings.append(
            "No correlation (a variable is constant over the records shared): "
            + "; ".join(undefined)
            + "."
        )
    if flagged:
        warnings.append(
            "Exact correlations off the diagonal reveal a deterministic relation between "
            "variables (one is a function of the other): " + "; ".join(flagged) + "."
        )
    n_dropped = int((~values.notna().all(axis=1)).sum())
    report = make_report(
        "corr",
        "confidential",
        {"threshold": threshold, "min_records": minimum, "sig": sig, "corr_method": method},
        tuple(names),
        len(values),
        0,
        pol,
        details={
            "rows_with_missing_values": pol.round_count(n_dropped),
            "coefficients_suppressed": len(suppressed),
            "exact_coefficients": flagged,
        },
        warnings=warnings,
    )
    result = pd.DataFrame(out, index=list(values.columns), columns=list(values.columns))
    audit.record(report, figure=None, released=result)
    return mark_safe_matrix(result, "corr", report)


# -- describe ------------------------------------------------------------------------------


@dataclass
class Description:
    """Released summary statistics, with a flag for every statistic.

    Attributes
    ----------
    table : DataFrame
        Statistics (rows: count, mean, std and, where the policy releases
        them, the quartiles) by column, NaN where suppressed. No minimum or
        maximum.
    flags : DataFrame
        Same shape: ``"rounded"``, ``"winsorised"`` (computed from
        winsorised values, which changed it) or ``"suppressed: ..."``.
    report : DisclosureReport
    """

    table: pd.DataFrame
    flags: pd.DataFrame
    report: DisclosureReport

    def _cells(self) -> pd.DataFrame:
        def cell(value: float, flag: str) -> str:
            if flag.startswith("suppressed"):
                return SUPPRESS_MARK
            mark = WINSOR_MARK if flag == "winsorised" else ""
            return f"{value:g}{mark}"

        return pd.DataFrame(
            [
                [
                    cell(self.table.iat[i, j], self.flags.iat[i, j])
                    for j in range(self.table.shape[1])
                ]
                for i in range(self.table.shape[0])
            ],
            index=self.table.index,
            columns=self.table.columns,
        )

    def legend(self) -> list[str]:
        """Return the lines explaining the markers."""
        lines = [
            f"{WINSOR_MARK} computed from winsorised values (mean -/+ "
            f"{self.report.params.get('winsor_sd')} SD), which changed it",
            f"{SUPPRESS_MARK} suppressed: fewer than {self.report.params.get('min_records')} "
            "records",
            f"All values rounded to {self.report.params.get('sig')} significant figures; "
            f"counts to a multiple of {self.report.details.get('count_rounded_to')}.",
        ]
        return lines

    def __str__(self) -> str:
        return self._cells().to_string() + "\n\n" + "\n".join(self.legend())

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in self.legend())
        return self._cells().to_html() + f"<ul>{items}</ul>"


def _percentile_names(percentiles: Sequence[float]) -> list[str]:
    return [f"{100 * p:g}%" for p in percentiles]


#: The percentiles :func:`describe` can give (when the policy releases quartiles).
DESCRIBE_PERCENTILES = (0.25, 0.5, 0.75)


def _check_percentiles(percentiles: Any, policy: Policy) -> list[float]:
    """Return the percentiles to give: quartiles only, if the policy releases them."""
    if percentiles is None:
        return list(DESCRIBE_PERCENTILES) if policy.release_quartiles else []
    try:
        ps = [float(p) for p in np.atleast_1d(np.asarray(percentiles, dtype=float))]
    except (TypeError, ValueError):
        raise ValueError("percentiles must be numbers between 0 and 1.") from None
    if not all(0 <= p <= 1 for p in ps):
        raise ValueError(f"percentiles must all lie between 0 and 1, got {list(percentiles)}.")
    if len(set(ps)) != len(ps):
        raise ValueError("percentiles must be unique.")
    if not ps:
        return []
    other = [p for p in ps if p not in DESCRIBE_PERCENTILES]
    if other:
        raise ValueError(
            f"describe: percentiles {other} are not available. Only the quartiles "
            f"{list(DESCRIBE_PERCENTILES)} can be given: a free choice of percentiles could "
            "step along the sorted records, and the extremes (0 and 1) are records' values."
        )
    if not policy.release_quartiles:
        raise DisclosureError(
            "describe: the policy does not release medians or quartiles "
            f"(release_quartiles=False, {policy.source}): they may be records' values "
            "(O'Keefe 2013). Leave percentiles out for the count, mean and standard "
            "deviation, or ask the data custodian to allow quartiles."
        )
    return sorted(set(ps) | {0.5})


def describe(
    data: Any,
    percentiles: Sequence[float] | None = None,
    include: Any = None,
    exclude: Any = None,
    *,
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
) -> Description:
    """Summarise numeric columns as :meth:`pandas.DataFrame.describe` does, confidentialised.

    Parameters
    ----------
    data : DataFrame or Series
        The records: a pandas, polars or pyarrow table or column, or a
        mapping of columns. ``describe(df)`` is ``df.describe()``, and
        `percentiles`, `include` and `exclude` follow in pandas' order.
    percentiles : list of float, optional
        Quartiles to give, from ``[0.25, 0.5, 0.75]`` (the median is always
        added). Only under a policy with ``release_quartiles=True``, where
        they are also the default; otherwise none are given and asking for
        them is refused. Other percentiles are refused: the extremes are
        records' values, and a free choice could step along the records.
    include, exclude : dtype, list of dtypes, or "all", optional
        Which columns to summarise, as in pandas (default: the numeric
        columns). Only numeric columns can be released here; a selected
        text or categorical column is an error (use
        :func:`safeplot.plots.categorical.countplot` or
        :func:`safeplot.plots.matrix.crosstab` for those).
    threshold : int, optional
        Fewest records per column if above 10 (default and floor: the
        policy's threshold); also defines the rare values no statistic may
        equal.
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures (default and ceiling: the policy's ``sig_figs``).
    policy : Policy, optional
        The policy in force.

    Returns
    -------
    Description
        ``.table`` (numbers, NaN where suppressed), ``.flags`` (same shape),
        ``.report``; printing it shows the table with ``*`` on statistics
        winsorising changed and ``—`` where suppressed, and a legend. The
        release is recorded in the audit log.

    Raises
    ------
    ValueError
        No numeric column, non-numeric columns selected, infinite values,
        percentiles other than the quartiles.
    DisclosureError
        A setting looser than the policy, or percentiles asked for under a
        policy that does not release quartiles.

    See Also
    --------
    corr : Confidentialised correlations.
    pandas.DataFrame.describe : The raw computation this mirrors.

    Notes
    -----
    Methods: The release is ``"confidential"`` (O'Keefe 2013): per column, missing
    values are left out; a column with fewer than
    ``max(10, threshold)`` records is suppressed entirely (Brandt et
    al.). Otherwise ``count`` is rounded by the policy (to a multiple
    of ``round_n_to``); the values are winsorised at mean -/+
    ``winsor_sd`` SD and the mean and SD (``ddof=1``) are computed from
    the winsorised values, rounded to ``sig`` significant figures and,
    where the rounded value equals a value held by fewer than
    `threshold` records, moved one unit in the last figure. The minimum
    and maximum are not released: they are records' values (O'Keefe
    2013, section 3.1.2). The median and quartiles "may reveal data
    values" and O'Keefe conservatively withholds them; a custodian may
    allow them (``release_quartiles=True``), and they are then computed
    from the winsorised values, rounded and moved off rare values in
    the same way (the lower quartile down, the others up). A statistic
    that winsorising changed is flagged ``"winsorised"`` (``*``).

    Examples
    --------
    >>> import safeplot
    >>> d = describe(safeplot.load_dataset("penguins"))
    >>> list(d.table.index)
    ['count', 'mean', 'std']
    >>> d.table.loc["count", "body_mass_g"], d.table.loc["mean", "body_mass_g"]
    (np.float64(340.0), np.float64(4200.0))
    >>> with safeplot.policy(release_quartiles=True):
    ...     list(describe(safeplot.load_dataset("penguins")).table.index)
    ['count', 'mean', 'std', '25%', '50%', '75%']
    """
    pol = get_policy(policy)
    pol.check_method("confidential")
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    ps = _check_percentiles(percentiles, pol)
    frame = _as_frame(data, "describe")
    if include is None and exclude is None:
        chosen = frame[[c for c in frame.columns if _is_number_column(frame[c], bools=False)]]
    elif isinstance(include, str) and include == "all":
        if exclude is not None:
            raise ValueError("describe: exclude must be None when include='all'.")
        chosen = frame
    else:
        chosen = frame.select_dtypes(include=include, exclude=exclude)
    other = [str(c) for c in chosen.columns if not _is_number_column(chosen[c], bools=False)]
    if other:
        raise ValueError(
            f"describe: column(s) {other} are not numeric. Their most frequent values and "
            "counts would be released as they are; use countplot or crosstab for categorical "
            "variables, and leave them out here (the default selects numeric columns)."
        )
    if chosen.shape[1] == 0:
        raise ValueError("describe: there is no numeric column to summarise.")
    values = _numbers(chosen, "describe")
    minimum = _minimum(threshold)
    index = ["count", "mean", "std", *_percentile_names(ps)]
    table = pd.DataFrame(np.nan, index=index, columns=chosen.columns)
    flags = pd.DataFrame("rounded", index=index, columns=chosen.columns)
    suppressed, n_wins = [], 0
    for col in chosen.columns:
        v = values[col].dropna().to_numpy()
        if v.size < minimum:
            table[col] = np.nan
            flags[col] = f"suppressed: fewer than {minimum} records"
            suppressed.append(str(col))
            continue
        # the mean of these records beside an earlier one of nearly the same records (the
        # data with and without a row, a model's records) differences out the rows between
        guard.link_groups(
            v,
            {},
            function="describe",
            advice="Describe the same records as before (or a subset that differs by more "
            "records).",
        )
        rare = rare_values(v, threshold)
        w = winsorize(v, winsor_sd, policy=pol)
        n_wins += w.n_winsorized
        probs = list(ps)
        wq = np.quantile(w.values, probs) if probs else np.array([])
        rq = np.quantile(v, probs) if probs else np.array([])
        directions = np.where(np.asarray(probs) < 0.5, -1.0, 1.0)
        rounded = guard.released_statistics(wq, rare, sig=sig, directions=directions, policy=pol)
        for _ in range(10 if probs else 0):
            # keep the quantiles in order after moving: a copy of a released one is checked
            ordered = np.maximum.accumulate(rounded)
            if np.array_equal(ordered, rounded):
                break
            rounded = guard.released_statistics(
                ordered, rare, sig=sig, directions=directions, policy=pol
            )
        moments = np.array([w.values.mean(), w.values.std(ddof=1)])
        raw_moments = np.array([v.mean(), v.std(ddof=1)])
        moments_r = guard.released_statistics(moments, rare, sig=sig, policy=pol)
        count = pol.round_count(v.size)
        table[col] = [float(count), *moments_r, *rounded]
        changed = [False, *(~np.isclose(moments, raw_moments, rtol=1e-12, atol=0))]
        changed += list(~np.isclose(wq, rq, rtol=1e-12, atol=0))
        flags[col] = ["winsorised" if c else "rounded" for c in changed]
    warnings = []
    if suppressed:
        warnings.append(
            f"Column(s) {suppressed} have fewer than {minimum} records and are suppressed."
        )
    report = make_report(
        "describe",
        "confidential",
        {"threshold": threshold, "min_records": minimum, "winsor_sd": winsor_sd, "sig": sig},
        tuple(str(c) for c in chosen.columns),
        len(values),
        0,
        pol,
        details={
            "values_winsorised": pol.round_count(n_wins),
            "columns_suppressed": suppressed,
            "count_rounded_to": pol.round_n_to,
            "percentiles": ps,
            "min_max": "not released (O'Keefe 2013)",
        },
        warnings=warnings,
    )
    audit.record(report, figure=None, released=table)
    return Description(table, flags, report)


# -- chi-square test of a contingency table ----------------------------------------------

#: Power-divergence statistics :func:`chi2_contingency` computes (scipy's ``lambda_`` names).
CHI2_LAMBDAS = (
    None,
    "pearson",
    "log-likelihood",
    "freeman-tukey",
    "mod-log-likelihood",
    "neyman",
    "cressie-read",
)


@dataclass(frozen=True)
class Chi2ContingencyResult:
    """A released chi-square test of independence (scipy's names, rounded).

    Attributes
    ----------
    statistic : float
        The test statistic, rounded to the policy's significant figures.
    pvalue : float
        Its p-value, rounded likewise.
    dof : int
        Degrees of freedom, ``(rows - 1) * (columns - 1)``.
    report : DisclosureReport

    Notes
    -----
    scipy's result also holds ``expected_freq``; it is withheld here:
    the expected counts are ``row total * column total / n``, so they give
    every margin of the table exactly, which the policy releases only
    rounded. Reading it raises :class:`~safeplot.errors.DisclosureError`.
    """

    statistic: float
    pvalue: float
    dof: int
    report: DisclosureReport

    @property
    def expected_freq(self) -> None:
        """Withheld: the expected counts give the table's margins exactly."""
        raise DisclosureError(
            "chi2_contingency does not release expected_freq: the expected counts are row "
            "total x column total / n and give the margins of the table exactly. Use "
            "safeplot.crosstab for a table of rounded, suppressed counts."
        )

    def __repr__(self) -> str:
        return (
            f"Chi2ContingencyResult(statistic={self.statistic:g}, pvalue={self.pvalue:g}, "
            f"dof={self.dof})"
        )


def chi2_contingency(
    data: Any,
    index: Hashable,
    columns: Hashable,
    *,
    correction: bool = True,
    lambda_: str | None = None,
    threshold: int | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
) -> Chi2ContingencyResult:
    """Test the independence of two categorical variables, releasing a rounded chi-square.

    :func:`scipy.stats.chi2_contingency` of the table of `index` by
    `columns`, under O'Keefe's rules: the statistic and its p-value are
    rounded ("round ... Pearson chi-square statistics"), and a table with
    small cells is refused, not suppressed and then tested.

    Parameters
    ----------
    data : DataFrame
        The records (pandas, or a polars or pyarrow table).
    index, columns : column name
        The two categorical variables (rows and columns of the table).
    correction : bool, default True
        Yates' continuity correction when the table has one degree of
        freedom (scipy's default).
    lambda_ : str, optional
        The power-divergence statistic, one of :data:`CHI2_LAMBDAS`
        (default Pearson's). A number is refused: a free parameter could be
        stepped to probe the table.
    threshold : int, optional
        Fewest records per non-empty cell, and per expected cell (default
        and floor: the policy's threshold).
    sig : int, optional
        Significant figures of the statistic and the p-value (default and
        ceiling: the policy's ``sig_figs``).
    policy : Policy, optional
        The policy in force.

    Returns
    -------
    Chi2ContingencyResult
        ``statistic``, ``pvalue``, ``dof`` and ``report``; the release is
        recorded in the audit log.

    Raises
    ------
    ValueError
        Unknown columns, the same column twice, a variable with fewer than
        two levels, an unknown `lambda_`, no complete record.
    DisclosureError
        Fewer than ``max(10, threshold)`` complete records, a cell with
        between 1 and ``threshold - 1`` records, an expected count below
        ``threshold``, or a setting looser than the policy.

    See Also
    --------
    scipy.stats.chi2_contingency : The raw computation this mirrors.
    safeplot.crosstab : The table itself, with small cells suppressed.
    safeplot.correspondenceplot : O'Keefe's replacement for the table.

    Notes
    -----
    Methods: The release is ``"confidential"``. Rows missing either variable
    are dropped (counted, rounded, in the report); the table is built
    from the levels present. The test is computed on the *full* table
    and only when that table is safe: every cell is 0 or holds at least
    `threshold` records, and every expected count is at least
    `threshold`. It is never computed on a table with suppressed cells:
    that would test other data than the records, and a statistic of the
    full table next to a suppressed table would help recover the
    suppressed cells. Fewer than ``max(10, threshold)`` records are
    refused, as Brandt et al. (2010) ask of test statistics. The
    statistic and the p-value are rounded to `sig` significant figures
    and, where one would equal a value held by fewer than `threshold`
    records of a numeric variable, moved one unit in the last figure.
    The expected counts are not released (see
    :class:`Chi2ContingencyResult`).

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).
    .. [2] Brandt M, et al. "Guidelines for the checking of output based on
       microdata research." ESSnet SDC (2010).

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> res = chi2_contingency(tips, "day", "smoker")
    >>> res
    Chi2ContingencyResult(statistic=25.8, pvalue=1.06e-05, dof=3)
    >>> res.statistic, res.report.method
    (25.8, 'confidential')

    One Thursday bill is a dinner: a small cell, and no test.

    >>> chi2_contingency(tips, "day", "time")
    Traceback (most recent call last):
    ...
    safeplot.errors.DisclosureError: chi2_contingency: 1 cell(s) of the table hold between ...
    """
    from scipy import stats
    from scipy.stats.contingency import expected_freq

    pol = get_policy(policy)
    pol.check_method("confidential")
    threshold = pol.check_threshold(threshold)
    sig = pol.check_sig_figs(sig)
    if not isinstance(correction, (bool, np.bool_)):
        raise ValueError(f"correction must be True or False, got {correction!r}.")
    if isinstance(lambda_, (int, float)) or lambda_ not in CHI2_LAMBDAS:
        raise ValueError(
            f"chi2_contingency: lambda_={lambda_!r} is not available; use one of "
            f"{list(CHI2_LAMBDAS)}. A number is not accepted: stepping it could probe the table."
        )
    frame = _as_frame(data, "chi2_contingency")
    for name, key in (("index", index), ("columns", columns)):
        if key not in frame.columns:
            raise ValueError(f"chi2_contingency: {name}={key!r} is not a column of the data.")
    if index == columns:
        raise ValueError("chi2_contingency: index and columns must be two different columns.")
    pair = frame[[index, columns]]
    complete = pair.notna().all(axis=1).to_numpy()
    pair = pair[complete]
    n = len(pair)
    n_dropped = int((~complete).sum())
    if n == 0:
        raise ValueError("chi2_contingency: no record has both variables.")
    minimum = _minimum(threshold)
    if n < minimum:
        raise DisclosureError(
            f"chi2_contingency: only {pol.describe_count(n)} complete records; a test "
            f"statistic needs at least {minimum} (Brandt et al. 2010)."
        )
    observed = pd.crosstab(pair[index], pair[columns]).to_numpy(dtype=float)
    if min(observed.shape) < 2:
        raise ValueError(
            "chi2_contingency: each variable needs at least two levels among the complete "
            f"records; the table is {observed.shape[0]} x {observed.shape[1]}."
        )
    small = int(((observed > 0) & (observed < threshold)).sum())
    if small:
        raise DisclosureError(
            f"chi2_contingency: {small} cell(s) of the table hold between 1 and {threshold - 1} "
            f"records (threshold={threshold}). The test is computed on the full table only "
            "when it has no small cell (never on a suppressed table). Merge rare levels first."
        )
    low = int((expected_freq(observed) < threshold).sum())
    if low:
        raise DisclosureError(
            f"chi2_contingency: {low} cell(s) have an expected count below threshold="
            f"{threshold}: their terms rest on a handful of records, and the chi-square "
            "approximation does not hold there. Merge rare levels first."
        )
    res = stats.chi2_contingency(observed, correction=bool(correction), lambda_=lambda_)
    rare = [
        rare_values(pair[c].to_numpy(dtype=float), threshold)
        for c in (index, columns)
        if _is_number_column(pair[c], bools=False)
    ]
    avoid = np.unique(np.concatenate(rare)) if rare else np.array([])
    shown = guard.released_statistics(
        [float(res.statistic), float(res.pvalue)], avoid, sig=sig, policy=pol
    )
    report = make_report(
        "chi2_contingency",
        "confidential",
        {
            "threshold": threshold,
            "min_records": minimum,
            "sig": sig,
            "correction": bool(correction),
            "lambda_": lambda_ or "pearson",
        },
        (str(index), str(columns)),
        n,
        n_dropped,
        pol,
        details={
            "statistic": float(shown[0]),
            "pvalue": float(shown[1]),
            "dof": int(res.dof),
            "expected_freq": "withheld (it gives the margins exactly)",
        },
    )
    audit.record(report, figure=None)
    return Chi2ContingencyResult(float(shown[0]), float(shown[1]), int(res.dof), report)


# -- crosstab ------------------------------------------------------------------------------


def _is_table(obj: Any) -> bool:
    return isinstance(obj, (pd.DataFrame, Mapping))


def _key_list(arg: Any) -> list[Any]:
    """One key, or several given as a list of vectors (pandas' ``maybe_make_list``)."""
    if isinstance(arg, (list, tuple)) and arg and all(_is_vector(a) for a in arg):
        return list(arg)
    return [arg]


def _is_vector(obj: Any) -> bool:
    obj = to_pandas(obj, function="crosstab")
    if isinstance(obj, (pd.Series, pd.Index, pd.Categorical, np.ndarray)):
        return True
    return isinstance(obj, (list, tuple)) and not any(isinstance(v, (list, tuple)) for v in obj)


def _vector_names(keys: list[Any], names: Sequence[Hashable] | None, prefix: str) -> list[str]:
    if names is not None:
        names = [names] if isinstance(names, str) else list(names)
        if len(names) != len(keys):
            raise ValueError(
                f"crosstab: {len(names)} {prefix}name(s) given for {len(keys)} key(s); give one "
                "name per vector."
            )
        return [str(n) for n in names]
    return [
        str(k.name) if isinstance(k, pd.Series) and k.name is not None else f"{prefix}_{i}"
        for i, k in enumerate(keys)
    ]


def _frame_of_vectors(keys: list[Any], names: list[str]) -> pd.DataFrame:
    """Return the key vectors as columns of one frame, Series aligned on their common index."""
    keys = [to_pandas(k, function="crosstab") for k in keys]
    indexes = [k.index for k in keys if isinstance(k, pd.Series)]
    if indexes:
        common = indexes[0]
        for other in indexes[1:]:
            if not other.equals(common):
                common = common.intersection(other, sort=False)
    else:
        common = pd.RangeIndex(len(keys[0]))
    columns = {}
    for name, key in zip(names, keys, strict=True):
        if isinstance(key, pd.Series):
            columns[name] = key if key.index.equals(common) else key.reindex(common)
            continue
        values = key if isinstance(key, pd.Categorical) else np.asarray(key, dtype=object)
        if getattr(values, "ndim", 1) != 1 or len(values) != len(common):
            raise ValueError(
                f"crosstab: every key must be a vector of the same length ({len(common)} "
                f"records); {name!r} has shape {np.shape(values)}."
            )
        columns[name] = pd.Series(values, index=common)
    return pd.DataFrame(columns)


def crosstab(
    data: Any = None,
    index: Any = None,
    columns: Any = None,
    values: Any = None,
    rownames: Sequence[Hashable] | None = None,
    colnames: Sequence[Hashable] | None = None,
    aggfunc: Any = None,
    margins: bool = False,
    margins_name: str = "All",
    dropna: bool = True,
    normalize: bool | str | int = False,
    *,
    threshold: int | None = None,
    secondary: bool = True,
    method: str | None = None,
    epsilon: float | None = None,
    row_order: Sequence[Any] | None = None,
    col_order: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """Cross-tabulate categorical variables, with small cells suppressed (or DP noise).

    Two call forms release the same table:

    - pandas' form, :func:`pandas.crosstab`: ``crosstab(index, columns)``
      with Series or arrays (a list of them for several levels), named by
      their ``.name`` or by `rownames` / `colnames`;
    - safeplot's data-first form: ``crosstab(data, index, columns)`` with
      a table and the names of its columns.

    Either way, the counts are released by
    :func:`safeplot.plots.matrix.crosstab`: cells with
    ``0 < count < threshold`` are suppressed (NaN), and so are the further
    cells needed so that no suppressed cell can be recovered from a row or
    column total.

    Parameters
    ----------
    data : DataFrame, optional
        The records (pandas, polars, pyarrow, ..., or a mapping of
        columns) when `index` and `columns` name columns. Given a Series or
        an array instead, the call is read as pandas' form: `data` is then
        the index vector, `index` the columns vector.
    index, columns : str, list of str, Series, array, or list of those
        Column names of `data`, or the vectors themselves (pandas' form).
    values, aggfunc : None
        Not supported: a table of a statistic per cell (the mean of a cell
        of one record is that record's value) is refused; see Raises.
    rownames, colnames : sequence of str, optional
        Names of the row and column keys (default: the Series' names, else
        ``row_0``, ``col_0``, ... as in pandas; the column names in the
        data-first form).
    margins : bool, default False
        Add row and column totals, suppressed like any cell.
    margins_name : str, default "All"
        Label of the totals.
    dropna : bool, default True
        As in pandas: leave out records with a missing key.
    normalize : bool or {"all", "index", "columns"} or {0, 1}, default False
        Show proportions of the *shown* counts instead of counts.
    threshold : int, optional
        Minimum count of a shown cell (default and floor: the policy's).
    secondary : bool, default True
        Apply secondary suppression (turn it off only when no totals of the
        table are published anywhere).
    method : {"suppress", "dp"}, optional
        ``"suppress"`` (default), or ``"dp"``: every cell of the table of
        the labels named by `row_order` and `col_order` gets OpenDP's
        discrete Laplace noise of scale 1/epsilon (one record is in one
        cell: L1 sensitivity 1); nothing is suppressed.
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` table (default 1.0), spent from
        the policy's ``dp_budget``.
    row_order, col_order : sequence, optional
        ``method="dp"`` only, and required there: the public row and column
        labels (tuples for several keys).

    Returns
    -------
    DataFrame
        Counts (or proportions), suppressed cells NaN, marked as released
        (``.attrs["safeplot"]`` holds the report) so that
        :func:`~safeplot.heatmap` draws it. The release is logged in
        :mod:`safeplot.audit`.

    Raises
    ------
    ValueError
        `values` or `aggfunc` given; keys of different lengths; unknown
        columns; no complete records.
    TypeError
        Column names given with `data` that is not a table.
    DisclosureError
        A key value held by fewer than `threshold` records (its label would
        disclose it), or `threshold` below the policy floor.

    See Also
    --------
    pandas.crosstab : The unprotected table.
    safeplot.plots.matrix.crosstab : The release, on a table with names.
    describe : Confidentialised summary statistics.

    Notes
    -----
    Methods: ``"suppress"`` (primary and secondary cell suppression;
    see :func:`safeplot.plots.matrix.crosstab`), or ``"dp"`` (noisy counts
    of the named labels, each cell +/- the 95% accuracy in the report). Series given in pandas'
    form are aligned on the intersection of their indexes, as pandas
    does; arrays must have as many values as that index.

    Examples
    --------
    >>> import safeplot as sns
    >>> titanic = sns.load_dataset("titanic")
    >>> t1 = sns.crosstab(titanic["class"], titanic["embark_town"])  # pandas' form
    >>> t2 = sns.crosstab(titanic, "class", "embark_town")  # data first
    >>> t1.equals(t2)
    True
    >>> t1.loc["Third"].tolist()
    [66.0, 72.0, 353.0]
    """
    if values is not None or aggfunc is not None:
        raise ValueError(
            "crosstab releases counts only: values= and aggfunc= would publish a statistic of "
            "each cell's records, and a cell of one or two records gives their values away. "
            "Draw the statistic per group with barplot(..., estimator=...), summarise each "
            "group with describe(), or count the records with crosstab(index, columns)."
        )
    refuse_dask(data, "crosstab")
    data = to_pandas(data, function="crosstab")
    if data is not None and not _is_table(data):
        if index is not None and not _is_vector(index):
            raise TypeError(
                f"crosstab: index={index!r} names a column, so data must be a DataFrame (pandas, "
                f"polars, pyarrow) or a mapping of columns, got {type(data).__name__}. For "
                "pandas' form, pass the vectors: crosstab(df['a'], df['b'])."
            )
        if columns is not None:
            raise ValueError(
                "crosstab: in pandas' form crosstab(index, columns) a third vector would be "
                "values=, which is not supported (counts only)."
            )
        data, index, columns = None, data, index  # pandas' form: crosstab(index, columns)
    if data is None:
        if index is None or columns is None:
            raise ValueError(
                "crosstab: give the row and column keys: crosstab(df['a'], df['b']) or "
                "crosstab(df, 'a', 'b')."
            )
        row_keys = [to_pandas(k, function="crosstab") for k in _key_list(index)]
        col_keys = [to_pandas(k, function="crosstab") for k in _key_list(columns)]
        for key in (*row_keys, *col_keys):
            if not _is_vector(key):
                raise TypeError(
                    "crosstab: without data=, index and columns must be vectors (Series, "
                    f"arrays, lists), got {type(key).__name__}; to name columns, pass the "
                    "table first: crosstab(df, 'a', 'b')."
                )
        rows = _vector_names(row_keys, rownames, "row")
        cols = _vector_names(col_keys, colnames, "col")
        if len(set(rows + cols)) < len(rows + cols):
            raise ValueError(
                f"crosstab: the keys need distinct names, got {rows + cols}; name them with "
                "rownames= and colnames=."
            )
        data = _frame_of_vectors(row_keys + col_keys, rows + cols)
        index, columns = (rows if len(rows) > 1 else rows[0]), (cols if len(cols) > 1 else cols[0])
    elif rownames is not None or colnames is not None:
        frame = data if isinstance(data, pd.DataFrame) else pd.DataFrame(dict(data))
        old_rows = index if isinstance(index, list) else [index]
        old_cols = columns if isinstance(columns, list) else [columns]
        new_rows = _vector_names(old_rows, rownames, "row") if rownames is not None else old_rows
        new_cols = _vector_names(old_cols, colnames, "col") if colnames is not None else old_cols
        missing = [c for c in old_rows + old_cols if c not in frame.columns]
        if missing:
            raise ValueError(f"crosstab: column(s) {missing} not in the data.")
        data = frame[old_rows + old_cols].set_axis(new_rows + new_cols, axis=1)
        index = new_rows if isinstance(index, list) else new_rows[0]
        columns = new_cols if isinstance(columns, list) else new_cols[0]
    return _matrix.crosstab(
        data,
        index,
        columns,
        threshold=threshold,
        margins=margins,
        margins_name=margins_name,
        dropna=dropna,
        normalize=normalize,
        secondary=secondary,
        method=method,
        epsilon=epsilon,
        row_order=row_order,
        col_order=col_order,
    )
