"""Disclosure risk and information loss of anonymised data (pure numerics).

Each measure compares the original records with their anonymised versions,
row for row (arrays or DataFrames of the same shape):

Utility (Avraam, Jones & Burton 2022):

- :func:`propensity_utility` — propensity-score utility U (0 = indistinguishable, 0.25 = apart);
- :func:`delta` — per-variable squared displacement over the variance;
- :func:`coefficient_comparison` — regression coefficients, standardised
  differences and confidence-interval overlap (Karr et al. 2006).

Disclosure risk:

- :func:`drisk_rmd` — sdcMicro's ``dRiskRMD`` (risk1, risk2), with
  :func:`cov_mcd`, the reweighted MCD of R's ``robustbase::covMcd``;
- :func:`interval_disclosure_risk` — IDR;
- :func:`distance_linkage` — distance-based record linkage DDR.

Information loss (Senavirathne & Torra 2019):

- :func:`il1s`, :func:`il_metrics` and the combined :func:`il_dr_score`.

These functions read the raw data: their results are for the data holder
choosing a method and its parameters, not figures to release. See
:func:`safeplot.assess.assess` for all of them at once over a sweep of
parameters.
"""

from __future__ import annotations

from ._mcd import MCDResult, cov_mcd, mcd_consistency_factor
from .information_loss import InformationLoss, il1s, il_dr_score, il_metrics
from .risk import RiskResult, distance_linkage, drisk_rmd, interval_disclosure_risk
from .utility import coefficient_comparison, delta, propensity_utility

__all__ = [
    "InformationLoss",
    "MCDResult",
    "RiskResult",
    "coefficient_comparison",
    "cov_mcd",
    "delta",
    "distance_linkage",
    "drisk_rmd",
    "il1s",
    "il_dr_score",
    "il_metrics",
    "interval_disclosure_risk",
    "mcd_consistency_factor",
    "propensity_utility",
]
