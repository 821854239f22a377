"""Utility of anonymised data: propensity scores, per-variable delta, regression coefficients.

The measures Avraam, Jones & Burton (2022) use to show that deterministic
anonymisation keeps the data useful:

* :func:`propensity_utility` — can a classifier tell the anonymised records
  from the original ones (Woo et al. 2009)?
* :func:`delta` — how far each variable moved, relative to its variance;
* :func:`coefficient_comparison` — does a regression fitted to the
  anonymised data give the same coefficients, and overlapping confidence
  intervals (Karr et al. 2006)?

References
----------
.. [1] Avraam D, Jones E, Burton P. "A deterministic approach for protecting
   privacy in sensitive personal data." BMC Medical Informatics and Decision
   Making 22 (2022). https://doi.org/10.1186/s12911-022-01754-4
.. [2] Woo M-J, Reiter JP, Oganian A, Karr AF. "Global measures of data
   utility for microdata masked for disclosure limitation." Journal of
   Privacy and Confidentiality 1(1) (2009).
.. [3] Karr AF, Kohnen CN, Oganian A, Reiter JP, Sanil AP. "A framework for
   evaluating the utility of data altered to protect confidentiality." The
   American Statistician 60(3), 224-232 (2006).
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ._common import paired

__all__ = ["coefficient_comparison", "delta", "propensity_utility"]

#: Inverse L2 penalty of the propensity model (on standardised inputs): large enough to
#: leave any non-separable fit practically unpenalised, small enough to keep the
#: coefficients finite when the two data sets are perfectly separable.
_PROPENSITY_C = 1e6
#: Convergence tolerance of the L-BFGS fit (scikit-learn's default 1e-4 moves U by ~0.1 %).
_PROPENSITY_TOL = 1e-8


def _sklearn() -> Any:
    try:
        import sklearn.exceptions
        import sklearn.linear_model
        import sklearn.preprocessing
    except ImportError:  # pragma: no cover - scikit-learn is installed with safeplot's extras
        raise ImportError(
            "safeplot.metrics needs scikit-learn for this measure: pip install scikit-learn"
        ) from None
    return sklearn


def _is_categorical(column: pd.Series) -> bool:
    return not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)


def _propensity_design(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    variables: Sequence[Hashable] | None,
) -> np.ndarray:
    """Return the stacked (original over anonymised) design matrix.

    Numbers enter as they are, categories as indicator columns (first level dropped).
    """
    if not (isinstance(original, pd.DataFrame) and isinstance(anonymised, pd.DataFrame)):
        x, y, names = paired(original, anonymised)
        if variables is not None:
            raise ValueError(
                "variables= selects columns by name: give the data as DataFrames "
                f"(got {type(original).__name__} and {type(anonymised).__name__})."
            )
        return np.vstack([x, y])
    names = list(original.columns) if variables is None else list(variables)
    if isinstance(variables, str):
        names = [variables]
    if not names:
        raise ValueError("variables is empty: name at least one column for the propensity model.")
    for what, frame in (("original", original), ("anonymised", anonymised)):
        missing = [c for c in names if c not in frame.columns]
        if missing:
            raise ValueError(
                f"The original and anonymised data have different columns: {missing} not in "
                f"the {what} data. The propensity model needs the same variables in both."
            )
    numeric = [c for c in names if not _is_categorical(original[c])]
    categorical = [c for c in names if c not in numeric]
    parts = []
    if numeric:
        x, y, _ = paired(original[numeric], anonymised[numeric])
        parts.append(np.vstack([x, y]))
    for c in categorical:
        stacked = pd.concat([original[c], anonymised[c]], ignore_index=True)
        if stacked.isna().any():
            raise ValueError(
                f"Categorical column {c!r} has missing values; drop those rows or give the "
                "missing category a name."
            )
        if len(original) != len(anonymised):
            raise ValueError(
                f"The original data have {len(original)} rows and the anonymised data "
                f"{len(anonymised)}; the records must correspond row for row."
            )
        codes = pd.get_dummies(stacked.astype("category"), drop_first=True, dtype=float)
        parts.append(codes.to_numpy())
    return np.hstack(parts)


def propensity_utility(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    variables: Sequence[Hashable] | None = None,
    degree: Literal[1, 2] = 1,
    max_iter: int = 1000,
) -> float:
    r"""Return the propensity-score utility U of anonymised data (0 = indistinguishable).

    The original and anonymised records are stacked (:math:`N = 2n` rows)
    with an indicator :math:`T_i` (1 for an anonymised record); a logistic
    regression of :math:`T` on every variable of the merged data (as
    Avraam et al.: the unchanged categorical variables too, so the model
    compares the anonymised variables within their categories) gives each
    row its fitted
    probability :math:`\hat p_i` of being anonymised, and

    .. math:: U = \frac{1}{N} \sum_{i=1}^{N} (\hat p_i - c)^2,
              \qquad c = \frac{n_{an}}{N} = \frac12 .

    If the classifier cannot tell the two data sets apart every
    :math:`\hat p_i = c` and :math:`U = 0`; if it separates them perfectly
    :math:`\hat p_i \in \{0, 1\}` and :math:`U = 0.25`.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row. In
        DataFrames, numeric columns enter the model as they are and
        categorical ones (strings, ``category``, booleans) as indicators of
        their levels (the first level dropped); make an integer-coded
        category (e.g. a passenger class 1-3) a ``category`` to have it
        treated as one.
    variables : list of str, optional
        Columns of the DataFrames to put in the model (default: all of
        them). Restricting to the anonymised variables alone measures their
        marginal change only.
    degree : {1, 2}, default 1
        Terms of the logistic model: 1 = an intercept and the main effects
        (as Avraam et al.); 2 adds the squares and pairwise products, which
        also detects changed variances and correlations (Woo et al.).
    max_iter : int, default 1000
        Iterations of the L-BFGS fit.

    Returns
    -------
    float
        U, between 0 and 0.25.

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values,
        constant original numeric variables, missing categories, unknown
        `variables`, or an invalid `degree`.
    TypeError
        Non-numeric array data.

    Notes
    -----
    The design columns (and, for ``degree=2``, the products) are standardised
    over the stacked data before the fit. The fit is scikit-learn's
    ``LogisticRegression`` with a negligible L2 penalty (``C = 1e6``) and a
    tight tolerance (``tol = 1e-8``): for data sets that overlap, U agrees
    with the unpenalised maximum-likelihood fit to about 1e-7 relative; for
    separable data, where that maximum does not exist, the coefficients stay
    finite and :math:`\hat p_i` ends near 0 or 1. The convergence warning
    scikit-learn then gives is silenced: U is within about 1e-3 of 0.25
    whatever the iteration count.

    References
    ----------
    .. [1] Woo M-J, Reiter JP, Oganian A, Karr AF (2009). "Global measures of
       data utility for microdata masked for disclosure limitation." Journal
       of Privacy and Confidentiality 1(1).
    .. [2] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
       protecting privacy in sensitive personal data." BMC Medical
       Informatics and Decision Making 22.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(500, 2))
    >>> round(propensity_utility(x, x), 6)
    0.0
    >>> round(propensity_utility(x, x + 10), 2)
    0.25

    With DataFrames, categorical columns enter the model as indicators:

    >>> import pandas as pd
    >>> df = pd.DataFrame({"group": ["a", "b"] * 250, "x": x[:, 0]})
    >>> shifted = df.assign(x=df["x"] + (df["group"] == "b"))
    >>> round(propensity_utility(df, shifted), 4)
    0.0143
    >>> round(propensity_utility(df, shifted, variables=["x"]), 4)
    0.0138
    """
    if degree not in (1, 2):
        raise ValueError(f"degree must be 1 (main effects) or 2 (with products), got {degree!r}.")
    stacked = _propensity_design(original, anonymised, variables)
    sk = _sklearn()
    n = stacked.shape[0] // 2
    if degree == 2:
        stacked = sk.preprocessing.PolynomialFeatures(2, include_bias=False).fit_transform(stacked)
    mean = stacked.mean(axis=0)
    sd = stacked.std(axis=0)
    sd[sd == 0] = 1.0  # a constant column carries no information; leave it at zero
    z = (stacked - mean) / sd
    t = np.repeat([0, 1], n)
    model = sk.linear_model.LogisticRegression(
        C=_PROPENSITY_C, tol=_PROPENSITY_TOL, max_iter=max_iter
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sk.exceptions.ConvergenceWarning)
        model.fit(z, t)
    p = model.predict_proba(z)[:, 1]
    c = 0.5  # n anonymised records out of N = 2n
    return float(np.mean((p - c) ** 2))


def delta(original: ArrayLike | pd.DataFrame, anonymised: ArrayLike | pd.DataFrame) -> pd.Series:
    r"""Return each variable's squared displacement relative to its variance.

    .. math:: \delta_j = \frac{\sum_{i=1}^{N} (x_{ij} - x'_{ij})^2}{N\, s_j^2}

    with :math:`x` the original and :math:`x'` the anonymised values,
    :math:`N` the number of records and :math:`s_j^2` the sample variance
    (``ddof=1``) of the original variable. 0 means the values are unchanged;
    an anonymisation that replaced every value by an independent draw from
    the same distribution would give about 2.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.

    Returns
    -------
    pandas.Series
        One value per variable, indexed by the original's column names
        (``x0, x1, ...`` for arrays).

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values or a
        constant original variable.
    TypeError
        Non-numeric data.

    References
    ----------
    .. [1] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
       protecting privacy in sensitive personal data." BMC Medical
       Informatics and Decision Making 22.

    Examples
    --------
    >>> import pandas as pd
    >>> x = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    >>> delta(x, x + 1).round(4)  # 4 * 1**2 / (4 * var) with var = 5/3
    a    0.6
    Name: delta, dtype: float64
    """
    x, y, names = paired(original, anonymised)
    n = x.shape[0]
    var = x.var(axis=0, ddof=1)
    values = ((x - y) ** 2).sum(axis=0) / (n * var)
    return pd.Series(values, index=names, name="delta")


def _karr_overlap(lo_a: np.ndarray, hi_a: np.ndarray, lo_b: np.ndarray, hi_b: np.ndarray):
    lo = np.maximum(lo_a, lo_b)
    hi = np.minimum(hi_a, hi_b)
    with np.errstate(divide="ignore", invalid="ignore"):
        return 0.5 * ((hi - lo) / (hi_a - lo_a) + (hi - lo) / (hi_b - lo_b))


def coefficient_comparison(
    formula: str,
    original: pd.DataFrame,
    anonymised: pd.DataFrame,
    *,
    family: Literal["ols", "logit"] = "ols",
    alpha: float = 0.05,
) -> pd.DataFrame:
    r"""Fit a regression to the original and the anonymised data and compare the coefficients.

    For each coefficient :math:`b` of the statsmodels `formula`:

    * the standardised difference :math:`|b_{or} - b_{an}| / SE(b_{or})`
      (Avraam et al.): how many original standard errors the estimate moved;
    * the confidence-interval overlap of Karr et al. (2006). With the
      :math:`1 - \alpha` intervals :math:`(L_{or}, U_{or})` and
      :math:`(L_{an}, U_{an})`, :math:`L = \max(L_{or}, L_{an})` and
      :math:`U = \min(U_{or}, U_{an})`,

      .. math:: J = \frac12 \left( \frac{U - L}{U_{or} - L_{or}}
                + \frac{U - L}{U_{an} - L_{an}} \right).

      :math:`J = 1` for identical intervals and decreases as they part;
      it is left negative (not truncated at 0) when they are disjoint, so it
      still says how far apart they are.

    Parameters
    ----------
    formula : str
        A statsmodels/patsy formula, e.g. ``"survived ~ C(pclass) + sex + age"``.
    original, anonymised : DataFrame
        The data before and after anonymisation, with the formula's columns.
    family : {"ols", "logit"}, default "ols"
        Linear regression (``statsmodels.formula.api.ols``) or logistic
        regression (``logit``).
    alpha : float, default 0.05
        The intervals have coverage ``1 - alpha``.

    Returns
    -------
    pandas.DataFrame
        Indexed by term, with columns ``b_or``, ``b_an``, ``se_or``,
        ``se_an``, ``std_diff`` and ``ci_overlap``.

    Raises
    ------
    TypeError
        When the data are not DataFrames.
    ValueError
        An unknown family, a formula naming a missing column, too few rows,
        or a model that cannot be fitted (e.g. perfect separation).

    References
    ----------
    .. [1] Karr AF, Kohnen CN, Oganian A, Reiter JP, Sanil AP (2006). "A
       framework for evaluating the utility of data altered to protect
       confidentiality." The American Statistician 60(3), 224-232.
    .. [2] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
       protecting privacy in sensitive personal data." BMC Medical
       Informatics and Decision Making 22.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> df = pd.DataFrame({"x": rng.normal(size=200)})
    >>> df["y"] = 2 * df["x"] + rng.normal(size=200)
    >>> table = coefficient_comparison("y ~ x", df, df)
    >>> table[["std_diff", "ci_overlap"]]
               std_diff  ci_overlap
    Intercept       0.0         1.0
    x               0.0         1.0
    """
    import statsmodels.formula.api as smf
    from statsmodels.tools.sm_exceptions import PerfectSeparationError, PerfectSeparationWarning

    for what, frame in (("original", original), ("anonymised", anonymised)):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(
                f"The {what} data must be a pandas DataFrame with the formula's columns, "
                f"got {type(frame).__name__}."
            )
        if len(frame) < 2:
            raise ValueError(f"The {what} data have {len(frame)} row(s); at least 2 are needed.")
    if family not in ("ols", "logit"):
        raise ValueError(f"family={family!r} is not supported; use 'ols' or 'logit'.")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be between 0 and 1, got {alpha}.")
    fitter = smf.ols if family == "ols" else smf.logit

    def fit(frame: pd.DataFrame, what: str) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", PerfectSeparationWarning)
                model = fitter(formula, data=frame)
                if family == "ols":
                    return model.fit()
                result = model.fit(disp=0, warn_convergence=False)
        except (PerfectSeparationError, PerfectSeparationWarning, np.linalg.LinAlgError) as exc:
            raise ValueError(
                f"The {family} model {formula!r} cannot be fitted to the {what} data: {exc}"
            ) from None
        except Exception as exc:  # patsy errors: unknown column, bad syntax
            if type(exc).__name__ in ("PatsyError", "NameError", "SyntaxError"):
                raise ValueError(
                    f"The formula {formula!r} does not fit the {what} data: {exc}"
                ) from None
            raise
        if not result.mle_retvals.get("converged", True):
            raise ValueError(
                f"The logit model {formula!r} cannot be fitted to the {what} data: the "
                "likelihood maximisation did not converge (perfect separation?)."
            )
        return result

    f_or = fit(original, "original")
    f_an = fit(anonymised, "anonymised")
    b_or, b_an = f_or.params, f_an.params.reindex(f_or.params.index)
    se_or, se_an = f_or.bse, f_an.bse.reindex(f_or.params.index)
    ci_or = f_or.conf_int(alpha).to_numpy()
    ci_an = f_an.conf_int(alpha).reindex(f_or.params.index).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        std_diff = (b_or - b_an).abs() / se_or
    overlap = _karr_overlap(ci_or[:, 0], ci_or[:, 1], ci_an[:, 0], ci_an[:, 1])
    return pd.DataFrame(
        {
            "b_or": b_or,
            "b_an": b_an,
            "se_or": se_or,
            "se_an": se_an,
            "std_diff": std_diff,
            "ci_overlap": overlap,
        }
    )
