"""Information loss of anonymised continuous data, and the combined IL-DR score.

* :func:`il1s` — sdcMicro's IL1s, the mean standardised absolute change of
  the values (Mateo-Sanz, Sebé & Domingo-Ferrer 2004; Yancey et al. 2002);
* :func:`il_metrics` — change of the means, variances, covariances and
  correlations (after Domingo-Ferrer & Torra 2001);
* :func:`il_dr_score` — the equally weighted score of Senavirathne & Torra
  (2019) combining information loss and disclosure risk.

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
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ._common import paired
from .risk import distance_linkage, interval_disclosure_risk

__all__ = ["InformationLoss", "il1s", "il_dr_score", "il_metrics"]


def il1s(original: ArrayLike | pd.DataFrame, anonymised: ArrayLike | pd.DataFrame) -> float:
    r"""Return IL1s, the mean absolute change of the values in units of :math:`\sqrt2` SDs.

    .. math:: IL1s = \frac{1}{N P} \sum_{j=1}^{P} \sum_{i=1}^{N}
              \frac{|x_{ij} - x'_{ij}|}{\sqrt{2}\, s_j}

    with :math:`s_j` the sample SD (``ddof=1``) of original variable *j*,
    :math:`N` records and :math:`P` variables. 0 for unchanged data.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.

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
    This is the published formula (Mateo-Sanz et al. 2004, dividing by
    :math:`\sqrt2 s_j`, the SD of the difference of two independent draws).
    sdcMicro's ``dUtility(method="IL1")`` code multiplies by :math:`\sqrt2`
    instead, so its values are exactly twice these.

    References
    ----------
    .. [1] Mateo-Sanz JM, Sebé F, Domingo-Ferrer J (2004). "Outlier
       protection in continuous microdata masking." Privacy in Statistical
       Databases, LNCS 3050, 201-215.
    .. [2] Yancey WE, Winkler WE, Creecy RH (2002). "Disclosure risk
       assessment in perturbative microdata protection." Inference Control
       in Statistical Databases, LNCS 2316, 135-152.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[1.0], [2.0], [3.0]])  # SD 1
    >>> round(il1s(x, x + 1), 6)  # 1 / sqrt(2)
    0.707107
    """
    x, y, _ = paired(original, anonymised)
    sd = x.std(axis=0, ddof=1)
    return float(np.mean(np.abs(x - y) / (math.sqrt(2.0) * sd)))


@dataclass(frozen=True)
class InformationLoss:
    """Output of :func:`il_metrics`: the loss on each kind of statistic and their mean.

    Attributes
    ----------
    means, variances : float
        Mean relative change of the means (in SDs) and of the variances.
    covariances, correlations : float
        Mean change of the covariances (relative to the product of SDs) and
        of the correlations, over pairs of variables; NaN for one variable.
    """

    means: float
    variances: float
    covariances: float
    correlations: float

    @property
    def value(self) -> float:
        """ILMetrics: the mean of the components that are defined."""
        parts = [self.means, self.variances, self.covariances, self.correlations]
        return float(np.nanmean(parts))


def il_metrics(
    original: ArrayLike | pd.DataFrame, anonymised: ArrayLike | pd.DataFrame
) -> InformationLoss:
    r"""Return the information loss on means, variances, covariances and correlations.

    With :math:`\bar x_j, s_j^2, s_{jl}, r_{jl}` the original means,
    variances, covariances and correlations (``ddof=1``), primes for the
    anonymised data, :math:`P` variables and pairs :math:`j < l`:

    .. math::

        IL_{mean} &= \frac1P \sum_j \frac{|\bar x_j - \bar x'_j|}{s_j} \\
        IL_{var}  &= \frac1P \sum_j \frac{|s_j^2 - s_j'^2|}{s_j^2} \\
        IL_{cov}  &= \frac{2}{P(P-1)} \sum_{j<l} \frac{|s_{jl} - s'_{jl}|}{s_j s_l} \\
        IL_{cor}  &= \frac{2}{P(P-1)} \sum_{j<l} |r_{jl} - r'_{jl}|

    and ILMetrics (:attr:`InformationLoss.value`) is the mean of the four
    (of the first two for a single variable).

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.

    Returns
    -------
    InformationLoss

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values or
        constant original variables.
    TypeError
        Non-numeric data.

    Notes
    -----
    The components are those of Domingo-Ferrer & Torra (2001), who divide
    each change by the original statistic itself (:math:`|\bar x_j|`,
    :math:`|s_{jl}|`). Here the mean and covariance changes are divided by
    the original SDs instead, as IL1s does for the values: the measures are
    then unchanged by a shift of origin and never divide by a mean or
    covariance near zero. An anonymised variable that became constant has
    correlation 0 with every other variable.

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
    >>> il = il_metrics(x, 2 * x)
    >>> round(il.means, 4), round(il.variances, 4), round(il.correlations, 4)
    (1.9365, 3.0, 0.0)
    """
    x, y, _ = paired(original, anonymised)
    p = x.shape[1]
    sd = x.std(axis=0, ddof=1)
    il_mean = float(np.mean(np.abs(x.mean(axis=0) - y.mean(axis=0)) / sd))
    cov_x = np.atleast_2d(np.cov(x, rowvar=False))
    cov_y = np.atleast_2d(np.cov(y, rowvar=False))
    var_x, var_y = np.diag(cov_x), np.diag(cov_y)
    il_var = float(np.mean(np.abs(var_x - var_y) / var_x))
    if p == 1:
        return InformationLoss(il_mean, il_var, math.nan, math.nan)
    upper = np.triu_indices(p, k=1)
    outer = np.outer(sd, sd)
    il_cov = float(np.mean(np.abs(cov_x - cov_y)[upper] / outer[upper]))
    r_x, r_y = _correlation(cov_x), _correlation(cov_y)
    il_cor = float(np.mean(np.abs(r_x - r_y)[upper]))
    return InformationLoss(il_mean, il_var, il_cov, il_cor)


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
    p: float | Sequence[float] = 0.01,
) -> float:
    r"""Return the IL-DR score of Senavirathne & Torra (2019), the lower the better.

    .. math:: score = \tfrac14 \left( ILMetrics + IL1s + DDR + IDR \right)

    with ILMetrics from :func:`il_metrics`, IL1s from :func:`il1s`, DDR
    from :func:`distance_linkage` and IDR from
    :func:`interval_disclosure_risk` (rank interval width `p`). Two
    information-loss and two disclosure-risk measures get equal weight: a
    method that keeps the data (high risk) and one that destroys them (high
    loss) both score badly.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    p : float or sequence of float, default 0.01
        Rank-interval width of the IDR.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As the component measures.
    TypeError
        Non-numeric data.

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
    il = il_metrics(original, anonymised)
    return 0.25 * (
        il.value
        + il1s(original, anonymised)
        + distance_linkage(original, anonymised)
        + interval_disclosure_risk(original, anonymised, p=p)
    )
