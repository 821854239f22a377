r"""Information loss of anonymised continuous data, and the combined IL-DR score.

The measures Senavirathne & Torra (2019) use to compare rounding and
microaggregation methods, as they define them:

* :func:`il1s` — the standardised absolute change of the values,
  :math:`|x_{ij} - x'_{ij}| / (\sqrt2\, s_j)`, summed over the values (the
  scale of the published tables) or averaged;
* :func:`il_metrics` — ILMetrics of Domingo-Ferrer & Torra (2001): 100 times
  the average of the mean variations of the values, the means, the
  covariances and the variances, and of the mean absolute error of the
  correlations;
* :func:`il_dr_score` — the equally weighted IL-DR score
  :math:`(ILMetrics + IL1s + DDR + IDR) / 4`.

References
----------
.. [1] Domingo-Ferrer J, Torra V. "A quantitative comparison of disclosure
   control methods for microdata." In: Confidentiality, Disclosure and Data
   Access, 111-133. North-Holland (2001).
.. [2] Mateo-Sanz JM, Sebé F, Domingo-Ferrer J. "Outlier protection in
   continuous microdata masking." Privacy in Statistical Databases, LNCS
   3050, 201-215 (2004).
.. [3] Senavirathne N, Torra V. "Rounding based continuous data
   discretization for statistical disclosure control." Journal of Ambient
   Intelligence and Humanized Computing (2019).
   https://doi.org/10.1007/s12652-019-01489-7
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ._common import paired
from .risk import distance_linkage, interval_disclosure_risk

__all__ = ["InformationLoss", "il1s", "il_dr_score", "il_metrics"]


def il1s(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    normalize: bool = False,
) -> float:
    r"""Return IL1s, the absolute change of the values in units of :math:`\sqrt2` SDs.

    .. math:: IL1s = \sum_{j=1}^{P} \sum_{i=1}^{N}
              \frac{|x_{ij} - x'_{ij}|}{\sqrt{2}\, s_j}

    with :math:`s_j` the sample SD (``ddof=1``) of original variable *j*,
    :math:`N` records and :math:`P` variables; with ``normalize=True`` the
    sum is divided by :math:`N P`. 0 for unchanged data.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    normalize : bool, default False
        False: the sum, the scale of Senavirathne & Torra's tables and of
        their IL-DR score. True: the mean over the :math:`N P` values, the
        formula as printed in their section 3.3.1 and in Mateo-Sanz et al.
        (2004).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values or
        constant original variables.
    TypeError
        Non-numeric data.

    Notes
    -----
    Senavirathne & Torra print the formula with the factor :math:`1/(NP)`,
    but the IL1s of their Tables 1-8 are sums: for 500 records of two
    standard normal variables microaggregated with groups of 50 the mean is
    about 0.09 and their table reports 91.08 (see
    :ref:`sphx_glr_auto_gallery_plot_paper_senavirathne_torra_table3.py`).
    The default follows the tables, so that :func:`il_dr_score` weighs the
    measures as the paper's score does. The sum grows with the number of
    records: compare it only between releases of the same data.

    sdcMicro's ``dUtility(method="IL1")`` multiplies by :math:`\sqrt2`
    instead of dividing, so its values are twice ``il1s(..., normalize=True)``.

    References
    ----------
    .. [1] Mateo-Sanz JM, Sebé F, Domingo-Ferrer J (2004). "Outlier
       protection in continuous microdata masking." Privacy in Statistical
       Databases, LNCS 3050, 201-215.
    .. [2] Senavirathne N, Torra V (2019). "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0], [2.0], [3.0]])  # SD 1
    >>> round(il1s(x, x + 1), 6)  # 3 values, each changed by 1 / sqrt(2)
    2.12132
    >>> round(il1s(x, x + 1, normalize=True), 6)
    0.707107
    """
    x, y, _ = paired(original, anonymised)
    sd = x.std(axis=0, ddof=1)
    terms = np.abs(x - y) / (math.sqrt(2.0) * sd)
    return float(terms.mean() if normalize else terms.sum())


@dataclass(frozen=True)
class InformationLoss:
    r"""Output of :func:`il_metrics`: the loss on each kind of statistic, and ILMetrics.

    Each component is a fraction (0 for no change); :attr:`value` is 100
    times their average, as Domingo-Ferrer & Torra's score.

    Attributes
    ----------
    values : float
        Mean variation of the values :math:`X - X'`.
    means : float
        Mean variation of the variable means :math:`\bar X - \bar X'`.
    covariances : float
        Mean variation of the covariance matrix :math:`V - V'` (variances
        included, each pair once).
    variances : float
        Mean variation of the variances :math:`S - S'` (the diagonal of V).
    correlations : float
        Mean absolute error of the correlations :math:`R - R'` over pairs of
        variables; NaN for a single variable.
    scale : {"statistic", "sd"}
        What the changes were divided by (see :func:`il_metrics`).
    """

    values: float
    means: float
    covariances: float
    variances: float
    correlations: float
    scale: str = "statistic"

    @property
    def value(self) -> float:
        """ILMetrics: 100 times the average of the components that are defined."""
        parts = np.array(
            [self.values, self.means, self.covariances, self.variances, self.correlations]
        )
        defined = parts[~np.isnan(parts)]
        return float(100.0 * defined.mean()) if defined.size else math.nan


def il_metrics(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    scale: Literal["statistic", "sd"] = "statistic",
) -> InformationLoss:
    r"""Return ILMetrics: the information loss on values, means, covariances and correlations.

    With :math:`x_{ij}` the original values, :math:`\bar x_j` the means,
    :math:`v_{jl}` the covariances (``ddof=1``; :math:`v_{jj}` the
    variances), :math:`r_{jl}` the correlations, primes for the anonymised
    data, :math:`N` records and :math:`P` variables, the components are the
    *mean variations* (relative changes)

    .. math::

        IL_X &= \frac{1}{NP} \sum_{i,j} \frac{|x_{ij} - x'_{ij}|}{|x_{ij}|} \\
        IL_{\bar X} &= \frac1P \sum_j \frac{|\bar x_j - \bar x'_j|}{|\bar x_j|} \\
        IL_V &= \frac{2}{P(P+1)} \sum_{j \le l} \frac{|v_{jl} - v'_{jl}|}{|v_{jl}|} \\
        IL_S &= \frac1P \sum_j \frac{|v_{jj} - v'_{jj}|}{v_{jj}}

    and the mean absolute error of the correlations,
    :math:`IL_R = \frac{2}{P(P-1)} \sum_{j<l} |r_{jl} - r'_{jl}|`, and

    .. math:: ILMetrics = 100 \cdot \tfrac15 (IL_X + IL_{\bar X} + IL_V + IL_S + IL_R)

    (of the first four for a single variable), the measure of Domingo-Ferrer
    & Torra (2001) that Senavirathne & Torra (2019) use.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    scale : {"statistic", "sd"}, default "statistic"
        ``"statistic"``: each change divided by the original statistic
        itself, as published. ``"sd"``: a variant that divides the changes
        of values and means by :math:`s_j` and of covariances by
        :math:`s_j s_l` (variances and correlations as published); it does
        not depend on the origin of the variables and never divides by a
        value, mean or covariance near zero.

    Returns
    -------
    InformationLoss
        The five components and, as :attr:`InformationLoss.value`, ILMetrics.

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values,
        constant original variables, or an unknown `scale`.
    TypeError
        Non-numeric data.

    Notes
    -----
    A relative change is undefined where the original statistic is exactly
    0 (a value of 0, a mean or covariance of 0): such terms are left out of
    their component's average (and a component with no defined term is NaN
    and left out of ILMetrics). Near such a point the relative change is
    very large, so with ``scale="statistic"`` ILMetrics is dominated by the
    values and covariances closest to zero: for centred data (means near 0,
    uncorrelated variables) it varies widely from sample to sample, as the
    irregular ILMetrics columns of Senavirathne & Torra's tables do. Use
    ``scale="sd"`` to compare methods on such data. An anonymised variable
    that became constant has correlation 0 with every other variable.

    References
    ----------
    .. [1] Domingo-Ferrer J, Torra V (2001). "A quantitative comparison of
       disclosure control methods for microdata." In: Confidentiality,
       Disclosure and Data Access, 111-133. North-Holland.
    .. [2] Senavirathne N, Torra V (2019). "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 4.0], [4.0, 3.0]])
    >>> il_metrics(x, x).value
    0.0

    Doubling every value doubles every mean and covariance and quadruples
    the variances; correlations do not change:

    >>> il = il_metrics(x, 2 * x)
    >>> parts = il.values, il.means, il.covariances, il.variances, il.correlations
    >>> [round(v, 12) for v in parts]
    [1.0, 1.0, 3.0, 3.0, 0.0]
    >>> round(il.value, 9)  # 100 * (1 + 1 + 3 + 3 + 0) / 5
    160.0
    """
    if scale not in ("statistic", "sd"):
        raise ValueError(f"scale={scale!r}: use 'statistic' (as published) or 'sd'.")
    x, y, _ = paired(original, anonymised)
    p = x.shape[1]
    cov_x = np.atleast_2d(np.cov(x, rowvar=False))
    cov_y = np.atleast_2d(np.cov(y, rowvar=False))
    var_x, var_y = np.diag(cov_x), np.diag(cov_y)
    mean_x, mean_y = x.mean(axis=0), y.mean(axis=0)
    upper = np.triu_indices(p)  # each pair once, variances included
    if scale == "statistic":
        il_x = _mean_variation(x - y, x)
        il_mean = _mean_variation(mean_x - mean_y, mean_x)
        il_cov = _mean_variation((cov_x - cov_y)[upper], cov_x[upper])
    else:
        sd = np.sqrt(var_x)
        il_x = float(np.mean(np.abs(x - y) / sd))
        il_mean = float(np.mean(np.abs(mean_x - mean_y) / sd))
        il_cov = float(np.mean(np.abs(cov_x - cov_y)[upper] / np.outer(sd, sd)[upper]))
    il_var = float(np.mean(np.abs(var_x - var_y) / var_x))
    if p == 1:
        il_cor = math.nan
    else:
        pairs = np.triu_indices(p, k=1)
        il_cor = float(np.mean(np.abs(_correlation(cov_x) - _correlation(cov_y))[pairs]))
    return InformationLoss(il_x, il_mean, il_cov, il_var, il_cor, scale)


def _mean_variation(change: np.ndarray, reference: np.ndarray) -> float:
    """Mean of ``|change| / |reference|`` over the terms whose reference is not 0 (NaN if none)."""
    defined = reference != 0
    if not defined.any():
        return math.nan
    return float(np.mean(np.abs(change[defined]) / np.abs(reference[defined])))


def _correlation(cov: np.ndarray) -> np.ndarray:
    """Correlation matrix from a covariance matrix; 0 for a constant variable."""
    sd = np.sqrt(np.diag(cov))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = cov / np.outer(sd, sd)
    return np.where(np.isfinite(r), r, 0.0)


def il_dr_score(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    w: float = 0.05,
) -> float:
    r"""Return the IL-DR score of Senavirathne & Torra (2019), the lower the better.

    .. math:: score = \tfrac14 \left( ILMetrics + IL1s + DDR + IDR \right)

    with ILMetrics from :func:`il_metrics` (in percent), IL1s from
    :func:`il1s` (the sum over the values), DDR from
    :func:`~safeplot.metrics.distance_linkage` and IDR from
    :func:`~safeplot.metrics.interval_disclosure_risk` (interval of `w`
    SDs), each as the paper defines it. Two information-loss and two
    disclosure-risk measures get equal weight: a method that keeps the data
    (high risk) and one that destroys them (high loss) both score badly.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    w : float, default 0.05
        Half-width of the IDR interval, as a fraction of each anonymised
        variable's SD.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As the component measures.
    TypeError
        Non-numeric data.

    Notes
    -----
    On the paper's scales the information loss dominates: IL1s is a sum
    over all values (hundreds for 500 records) and ILMetrics a percentage,
    while DDR and IDR are fractions between 0 and 1. The score therefore
    ranks settings of one data set mostly by their information loss, and is
    not comparable between data sets of different sizes.

    References
    ----------
    .. [1] Senavirathne N, Torra V (2019). "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing.
       https://doi.org/10.1007/s12652-019-01489-7

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(100, 2))
    >>> il_dr_score(x, x)  # no loss, full risk: (0 + 0 + 1 + 1) / 4
    0.5
    """
    return 0.25 * (
        il_metrics(original, anonymised).value
        + il1s(original, anonymised)
        + distance_linkage(original, anonymised)
        + interval_disclosure_risk(original, anonymised, w=w)
    )
