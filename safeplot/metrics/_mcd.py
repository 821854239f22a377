r"""Reweighted minimum covariance determinant (MCD), as R's ``robustbase::covMcd`` computes it.

The MCD (Rousseeuw 1984) of a data set of *n* records in *p* variables is
the mean and covariance of the *h* records (about half) whose covariance
matrix has the smallest determinant. :func:`cov_mcd` finds that subset
with the FAST-MCD concentration steps (Rousseeuw & Van Driessen 1999) and
then applies, as ``covMcd`` does by default:

* the consistency factor of Croux & Haesbroeck (1999), which makes the raw
  covariance unbiased at the normal distribution;
* the small-sample correction factors of Pison, Van Aelst & Willems
  (2002), for the raw and for the reweighted estimate;
* one reweighting step: the records whose robust squared distance is below
  the 0.975 quantile of :math:`\chi^2_p` give the reweighted mean and
  covariance, rescaled by the consistency factor again.

scikit-learn's ``MinCovDet`` differs on two counts: it rescales the raw
covariance so that the median robust distance is the :math:`\chi^2_p`
median, which on heavily tied data (many identical values) gives very
different variances, and it has no small-sample factors.

References
----------
.. [1] Rousseeuw PJ, Van Driessen K (1999). "A fast algorithm for the minimum
   covariance determinant estimator." Technometrics 41(3), 212-223.
.. [2] Croux C, Haesbroeck G (1999). "Influence function and efficiency of the
   minimum covariance determinant scatter matrix estimator." Journal of
   Multivariate Analysis 71, 161-190.
.. [3] Pison G, Van Aelst S, Willems G (2002). "Small sample corrections for
   LTS and MCD." Metrika 55, 111-123.
.. [4] Maechler M, Rousseeuw P, Croux C, Todorov V, Ruckstuhl A,
   Salibian-Barrera M, Verbeke T, Koller M, Conceicao ELT, Anna di Palma M.
   robustbase: Basic Robust Statistics. R package, ``covMcd``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import special, stats

from .._validate import finite_array

__all__ = ["MCDResult", "cov_mcd", "mcd_consistency_factor"]

#: Quantile of chi2(p) below which a record keeps weight 1 in the reweighting step.
_REWEIGHT_QUANTILE = 0.975
#: Above this many records the random starts are drawn and concentrated on a
#: subsample of this size (robustbase partitions into at most 5 x 300 records).
_SUBSAMPLE = 1500
#: Starts kept after the first two concentration steps, then iterated to convergence.
_KEEP = 10
#: Most concentration steps from one start (robustbase's ``maxcsteps`` is 200).
_MAX_STEPS = 200

# Pison, Van Aelst & Willems (2002): simulated small-sample factors for alpha = 1/2,
# by p (1-9) and n (2p to about 20), raw and reweighted; as tabulated in robustbase.
_SIM_RAW: dict[int, dict[int, float]] = {
    2: {4: 3.15342, 5: 1.799889, 6: 2.258497},
    3: {6: 2.12777, 7: 2.718898, 8: 1.993509, 9: 2.220433, 10: 1.820585},
    4: {8: 2.950549, 9: 2.145387, 10: 2.382224, 11: 1.927077, 12: 2.032489, 13: 1.8371},
    5: {
        10: 2.229573, 11: 2.494447, 12: 2.016117, 13: 2.190061,
        14: 1.877996, 15: 1.978964, 16: 1.767284,
    },
    6: {
        12: 2.580264, 13: 2.109121, 14: 2.240741, 15: 1.944719,
        16: 2.043397, 17: 1.821808, 18: 1.89725,
    },
    7: {
        14: 2.165233, 15: 2.320281, 16: 2.007836, 17: 2.086471,
        18: 1.884052, 19: 1.950563, 20: 1.76926,
    },
    8: {16: 2.340443, 17: 2.048262, 18: 2.161097, 19: 1.926082, 20: 1.995422},
    9: {18: 2.093386, 19: 2.185793, 20: 1.948989},
}  # fmt: skip
_SIM_REW: dict[int, dict[int, float]] = {
    2: {4: 2.216302, 5: 1.418526, 6: 1.635601},
    3: {6: 1.73511, 7: 2.06681, 8: 1.545905, 9: 1.659655, 10: 1.456835},
    4: {8: 2.388892, 9: 1.847626, 10: 1.96998, 11: 1.630723, 12: 1.701272, 13: 1.521008},
    5: {
        10: 1.968153, 11: 2.168931, 12: 1.784373, 13: 1.894409,
        14: 1.667912, 15: 1.693007, 16: 1.545176,
    },
    6: {
        12: 2.275891, 13: 1.866587, 14: 2.014249, 15: 1.750567,
        16: 1.829363, 17: 1.650019, 18: 1.689043,
    },
    7: {
        14: 1.95771, 15: 2.074066, 16: 1.847385, 17: 1.905408,
        18: 1.71393, 19: 1.768425, 20: 1.63908,
    },
    8: {16: 2.164121, 17: 1.871024, 18: 1.979485, 19: 1.782417, 20: 1.84489},
    9: {18: 1.938822, 19: 2.050409, 20: 1.834863},
}  # fmt: skip

# Pison et al. (2002): fitted curves f(p, n) = 1 - a / n^b of the small-sample factors.
# For p <= 2, (log a, b) at alpha = 0.5 and 0.875; for p > 2, the coefficients (alpha_q,
# beta_q) of the fits at q = 2 and 3 from which a and b are interpolated.
_FIT_SMALL_P = {
    "raw": {
        1: ((0.262024211897096, 0.604756680630497), (-0.351584646688712, 1.01646567502486)),
        2: ((0.673292623522027, 0.691365864961895), (0.446537815635445, 1.06690782995919)),
    },
    "rew": {
        1: ((1.11098143415027, 1.5182890270453), (-0.66046776772861, 0.88939595831888)),
        2: ((3.11101712909049, 1.91401056721863), (0.79473550581058, 1.10081930350091)),
    },
}
_FIT_LARGE_P = {
    "raw": (
        ((-1.42764571687802, 1.26263336932151), (-1.06141115981725, 1.28907991440387)),
        ((-0.455179464070565, 1.11192541278794), (-0.294241208320834, 1.09649329149811)),
    ),
    "rew": (
        ((-1.02842572724793, 1.67659883081926), (-0.26800273450853, 1.35968562893582)),
        ((-0.544482443573914, 1.25994483222292), (-0.343791072183285, 1.25159004257133)),
    ),
}


@dataclass(frozen=True)
class MCDResult:
    """Output of :func:`cov_mcd` (the fields of robustbase's ``mcd`` object).

    Attributes
    ----------
    location, covariance : ndarray
        The reweighted MCD estimates (robustbase's ``center`` and ``cov``).
    raw_location, raw_covariance : ndarray
        Mean of the best *h* records and their covariance (``ddof=1``) times
        the raw consistency and small-sample factors (``raw.center``,
        ``raw.cov``).
    h : int
        Records in the MCD subset (``quan``).
    log_det : float
        Log-determinant of the best subset's covariance before any factor
        (``crit``); ``-inf`` for an exact fit.
    raw_factors, factors : tuple of float
        (consistency, small-sample) factors of the raw and reweighted
        covariance (``raw.cnp2``, ``cnp2``).
    exact_fit : bool
        At least *h* records lie on a hyperplane: the raw covariance is
        singular and is returned without reweighting.
    support : ndarray of bool, shape (n,)
        The best *h*-subset (``best``), not shown in the repr.
    raw_weights : ndarray of float, shape (n,)
        1 for the records used in the reweighting step (``raw.weights``).
    weights : ndarray of float, shape (n,)
        1 for the records within the cutoff of the reweighted estimates
        (``mcd.wt``).
    dist : ndarray, shape (n,)
        Squared Mahalanobis distances from the reweighted estimates
        (``mah``).
    """

    location: np.ndarray
    covariance: np.ndarray
    raw_location: np.ndarray
    raw_covariance: np.ndarray
    h: int
    log_det: float
    raw_factors: tuple[float, float]
    factors: tuple[float, float]
    exact_fit: bool
    support: np.ndarray = field(repr=False)
    raw_weights: np.ndarray = field(repr=False)
    weights: np.ndarray = field(repr=False)
    dist: np.ndarray = field(repr=False)


def mcd_consistency_factor(p: int, fraction: float) -> float:
    r"""Return the factor that makes a trimmed covariance consistent at the normal.

    The covariance of the fraction :math:`\gamma` of normal records nearest
    the centre underestimates the covariance by :math:`P(\chi^2_{p+2} \le
    q_\gamma) / \gamma`, with :math:`q_\gamma` the :math:`\gamma` quantile of
    :math:`\chi^2_p`; the factor is its inverse (Croux & Haesbroeck 1999;
    robustbase's ``.MCDcons``).

    Parameters
    ----------
    p : int
        Number of variables.
    fraction : float
        Fraction of records kept, in (0, 1].

    Returns
    -------
    float

    Examples
    --------
    >>> round(mcd_consistency_factor(2, 0.975), 6)
    1.104468
    >>> mcd_consistency_factor(3, 1.0)
    1.0
    """
    if not 0 < fraction <= 1:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}.")
    q = stats.chi2.ppf(fraction, p)
    return float(fraction / special.gammainc(p / 2 + 1, q / 2))


def _small_sample_factor(p: int, n: int, alpha: float, kind: Literal["raw", "rew"]) -> float:
    """Pison et al.'s finite-sample factor, as robustbase's .MCDcnp2 / .MCDcnp2.rew."""
    if p > 2:
        fits = []
        for (a2, b2), (a3, b3) in _FIT_LARGE_P[kind]:
            # the fit at q = 2 and q = 3 gives log a - b log(q p^2) = log(-alpha_q / p^beta_q)
            y = np.array([math.log(-a2 / p**b2), math.log(-a3 / p**b3)])
            design = np.array([[1.0, -math.log(2 * p * p)], [1.0, -math.log(3 * p * p)]])
            log_a, b = np.linalg.solve(design, y)
            fits.append(1.0 - math.exp(log_a) / n**b)
        f500, f875 = fits
    else:
        (la500, b500), (la875, b875) = _FIT_SMALL_P[kind][p]
        f500 = 1.0 - math.exp(la500) / n**b500
        f875 = 1.0 - math.exp(la875) / n**b875
    table = (_SIM_RAW if kind == "raw" else _SIM_REW).get(p, {})
    if alpha == 0.5 and n in table:
        f500 = 1.0 / table[n]
    if alpha <= 0.875:
        f = f500 + (f875 - f500) / 0.375 * (alpha - 0.5)
    else:
        f = f875 + (1.0 - f875) / 0.125 * (alpha - 0.875)
    return 1.0 / f


def _h(alpha: float, n: int, p: int) -> int:
    """Size of the MCD subset (robustbase's h.alpha.n)."""
    n2 = (n + p + 1) // 2
    return math.floor(2 * n2 - n + 2 * (n - n2) * alpha)


def _mahalanobis2(x: np.ndarray, location: np.ndarray, cov: np.ndarray) -> np.ndarray:
    centred = x - location
    return np.einsum("ij,ij->i", centred @ np.linalg.inv(cov), centred)


def _nearest(d2: np.ndarray, h: int) -> np.ndarray:
    """Sorted indices of the h smallest `d2`, ties broken by row order (as a stable sort)."""
    threshold = np.partition(d2, h - 1)[h - 1]
    below = np.flatnonzero(d2 < threshold)
    at = np.flatnonzero(d2 == threshold)[: h - below.size]
    return np.sort(np.concatenate([below, at]))


def _fit(x: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    sub = x[rows]
    location = sub.mean(axis=0)
    cov = np.atleast_2d(np.cov(sub, rowvar=False))
    sign, logdet = np.linalg.slogdet(cov)
    return location, cov, (logdet if sign > 0 else -np.inf)


def _csteps(
    x: np.ndarray, rows: np.ndarray, h: int, steps: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Concentration steps from the subset `rows`: each never increases the determinant."""
    location, cov, logdet = _fit(x, rows)
    for _ in range(steps):
        if not np.isfinite(logdet):
            break  # an exact fit: the determinant cannot get smaller
        new = _nearest(_mahalanobis2(x, location, cov), h)
        if np.array_equal(new, rows):
            break
        new_location, new_cov, new_logdet = _fit(x, new)
        if new_logdet >= logdet - 1e-12 * max(1.0, abs(logdet)):
            break
        rows, location, cov, logdet = new, new_location, new_cov, new_logdet
    return rows, location, cov, logdet


def _batch_fit(x: np.ndarray, sets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Means, covariances (ddof=1) and log-determinants of many subsets at once."""
    sub = x[sets]  # (m, size, p)
    location = sub.mean(axis=1)
    centred = sub - location[:, None, :]
    cov = np.einsum("mij,mik->mjk", centred, centred) / (sets.shape[1] - 1)
    sign, logdet = np.linalg.slogdet(cov)
    return location, cov, np.where(sign > 0, logdet, -np.inf)


def _batch_step(x: np.ndarray, location: np.ndarray, cov: np.ndarray, h: int) -> np.ndarray:
    """Return the h records nearest each (location, cov), as sorted index rows."""
    inv = np.linalg.inv(cov)
    centred = x[None, :, :] - location[:, None, :]
    d2 = np.einsum("mij,mjk,mik->mi", centred, inv, centred)
    return np.sort(np.argsort(d2, axis=1, kind="stable")[:, :h], axis=1)


def _starts(x: np.ndarray, rng: np.random.Generator, h: int, n_starts: int) -> np.ndarray:
    """Draw random (p+1)-subsets and return the h records nearest each.

    A subset is grown until its covariance is non-singular; starts that stay singular
    are dropped.
    """
    n, p = x.shape
    draws = np.argsort(rng.random((n_starts, n)), axis=1)[:, : min(n, 4 * (p + 1))]
    out = []
    size = p + 1
    pending = np.arange(n_starts)
    while pending.size and size <= draws.shape[1]:
        location, cov, logdet = _batch_fit(x, draws[pending, :size])
        ok = np.isfinite(logdet)
        if ok.any():
            out.append(_batch_step(x, location[ok], cov[ok], h))
        pending = pending[~ok]
        size += 1
    return np.concatenate(out) if out else np.empty((0, h), dtype=np.intp)


def _raw_mcd(
    x: np.ndarray, h: int, n_starts: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Best h-subset by FAST-MCD: random starts, two steps each, the best ten to convergence."""
    n, p = x.shape
    if n > _SUBSAMPLE:
        sub = np.sort(rng.choice(n, _SUBSAMPLE, replace=False))
        xs, hs = x[sub], _h(h / n, _SUBSAMPLE, p)
    else:
        sub, xs, hs = np.arange(n), x, h
    # a deterministic start as well: the records nearest the coordinatewise median
    med = np.median(xs, axis=0)
    mad = np.median(np.abs(xs - med), axis=0)
    mad[mad == 0] = np.std(xs, axis=0)[mad == 0]
    mad[mad == 0] = 1.0
    central = _nearest((((xs - med) / mad) ** 2).sum(axis=1), hs)
    sets = np.vstack([central[None, :], _starts(xs, rng, hs, n_starts)])
    logdet = np.full(sets.shape[0], np.inf)
    for _ in range(2):  # two concentration steps for every start, all at once
        location, cov, logdet = _batch_fit(xs, sets)
        ok = np.isfinite(logdet)
        if ok.any():
            sets[ok] = _batch_step(xs, location[ok], cov[ok], hs)
    location, cov, logdet = _batch_fit(xs, sets)
    # the best distinct subsets: to convergence (small n), or carried to all records
    # with two steps there and only the best of them to convergence (large n)
    candidates = []
    seen: set[bytes] = set()
    for i in np.argsort(logdet, kind="stable"):
        key = sets[i].tobytes()
        if key in seen:
            continue
        seen.add(key)
        if sub.size == n:
            candidates.append(_csteps(x, sets[i], h, _MAX_STEPS))
        elif np.isfinite(logdet[i]):
            full = _nearest(_mahalanobis2(x, location[i], cov[i]), h)
            candidates.append(_csteps(x, full, h, 2))
        else:
            candidates.append(_csteps(x, sub[sets[i]], h, 0))
        if len(seen) >= _KEEP:
            break
    best = min(candidates, key=lambda c: c[3])
    if sub.size < n:
        best = _csteps(x, best[0], h, _MAX_STEPS)
    return best


def _raw_mcd_univariate(x: np.ndarray, h: int) -> tuple[float, float, np.ndarray]:
    """Exact univariate MCD: the h consecutive order statistics with least variance.

    Returns the centre, the SD with divisor h (as robustbase) and the sorted
    positions of the window; among equally good windows the centre is that of
    the middle one.
    """
    order = np.argsort(x, kind="stable")
    w = x[order]
    n = w.size
    c1 = np.concatenate([[0.0], np.cumsum(w)])
    c2 = np.concatenate([[0.0], np.cumsum(w * w)])
    sums = c1[h:] - c1[: n - h + 1]
    ss = (c2[h:] - c2[: n - h + 1]) - sums * sums / h
    best = np.flatnonzero(ss <= ss.min() * (1 + 1e-12) + 1e-300)
    start = int(best[(best.size + 1) // 2 - 1])
    return float(sums[start] / h), math.sqrt(max(ss[start], 0.0) / h), order[start : start + h]


def cov_mcd(
    data: ArrayLike | pd.DataFrame,
    *,
    alpha: float = 0.5,
    n_starts: int = 500,
    reweighting: Literal["quantile", "fraction"] = "quantile",
    small_sample_correction: bool = True,
    random_state: int | None = 0,
) -> MCDResult:
    r"""Return the reweighted MCD location and covariance, as R's ``robustbase::covMcd``.

    1. **Raw MCD.** The :math:`h = \lfloor (n + p + 1) / 2 \rfloor` records
       (for ``alpha = 0.5``) whose covariance has the least determinant,
       found by FAST-MCD: ``n_starts`` random (p+1)-subsets, two
       concentration steps each, the ten best iterated to convergence. For
       one variable the exact MCD (shortest half) is computed.
    2. Their mean, and their covariance (``ddof=1``; divisor *h* for one
       variable) times the consistency factor
       :math:`c(p, h/n)` (:func:`mcd_consistency_factor`) and Pison et
       al.'s small-sample factor.
    3. **Reweighting.** Records whose squared distance from the raw
       estimates is below :math:`\chi^2_{p, 0.975}` give the mean and the
       covariance (``ddof=1``), times a consistency factor and the
       reweighted small-sample factor.

    Parameters
    ----------
    data : array-like or DataFrame, shape (n, p)
        Finite numeric data, :math:`n > p + 1`.
    alpha : float, default 0.5
        Fraction of records in the MCD subset, in [0.5, 1]; 0.5 gives the
        highest breakdown point. ``alpha = 1`` gives the classical estimates
        reweighted.
    n_starts : int, default 500
        Random starts of the search (robustbase's ``nsamp``). Above 1,500
        records the starts are drawn and concentrated on 1,500 records, and
        the best ten are iterated on all of them.
    reweighting : {"quantile", "fraction"}, default "quantile"
        Consistency factor of the reweighted covariance: ``"quantile"``
        uses :math:`c(p, 0.975)`, the cutoff's nominal coverage (Croux &
        Haesbroeck 1999; robustbase 0.99-0 and later, June 2023);
        ``"fraction"`` uses :math:`c(p, m/n)` with *m* the records kept
        (robustbase 0.92 to 0.95, and so sdcMicro's ``dRiskRMD`` until
        2023).
    small_sample_correction : bool, default True
        Apply Pison et al.'s factors (robustbase's ``use.correction``).
    random_state : int or None, default 0
        Seed of the random starts. The result is deterministic for a given
        seed; R's own random draws cannot be reproduced, so on data whose
        MCD search has several local optima the subset found may differ.

    Returns
    -------
    MCDResult

    Raises
    ------
    ValueError
        Non-finite values, :math:`n \le p + 1`, or `alpha` outside
        [0.5, 1].
    TypeError
        Non-numeric data.

    Warns
    -----
    RuntimeWarning
        When at least *h* records lie on a hyperplane (an exact fit): the
        covariance returned is then singular.

    Notes
    -----
    The results agree with robustbase to its printed precision on the
    data sets of its test suite (e.g. ``hbk``, ``stackloss``,
    ``starsCYG``), where FAST-MCD finds the global optimum. ``dist`` and
    ``weights`` are computed from the reweighted estimates, as robustbase's
    ``mah`` and ``mcd.wt``.

    References
    ----------
    .. [1] Rousseeuw PJ, Van Driessen K (1999). "A fast algorithm for the
       minimum covariance determinant estimator." Technometrics 41(3),
       212-223.
    .. [2] Croux C, Haesbroeck G (1999). "Influence function and efficiency
       of the minimum covariance determinant scatter matrix estimator."
       Journal of Multivariate Analysis 71, 161-190.
    .. [3] Pison G, Van Aelst S, Willems G (2002). "Small sample corrections
       for LTS and MCD." Metrika 55, 111-123.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(200, 2))
    >>> x[:20] += 8  # a cluster of outliers
    >>> res = cov_mcd(x)
    >>> res.h
    101
    >>> np.round(res.location, 1)
    array([-0.1,  0. ])
    >>> int(res.weights[:20].sum())  # the outliers get weight 0
    0
    """
    x = finite_array(data, min_rows=2, what="data")
    x = x[:, None] if x.ndim == 1 else x
    n, p = x.shape
    if n <= p + 1:
        raise ValueError(
            f"The MCD needs more than p + 1 = {p + 1} records for {p} variable(s), got {n}."
        )
    if not 0.5 <= alpha <= 1:
        raise ValueError(f"alpha must be between 0.5 and 1, got {alpha}.")
    if reweighting not in ("quantile", "fraction"):
        raise ValueError(f"reweighting={reweighting!r}: use 'quantile' or 'fraction'.")
    if int(n_starts) != n_starts or n_starts < 1:
        raise ValueError(f"n_starts must be a positive integer, got {n_starts!r}.")
    h = _h(alpha, n, p)
    cutoff = stats.chi2.ppf(_REWEIGHT_QUANTILE, p)

    def reweight(location: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, ...]:
        raw_w = (_mahalanobis2(x, location, cov) < cutoff).astype(float)
        kept = x[raw_w == 1]
        loc = kept.mean(axis=0)
        rcov = np.atleast_2d(np.cov(kept, rowvar=False)) if kept.shape[0] > 1 else cov * 0
        return raw_w, loc, rcov

    if h >= n:  # alpha = 1: the classical estimates, reweighted
        location = x.mean(axis=0)
        raw_cov = np.atleast_2d(np.cov(x, rowvar=False))
        _, log_det = np.linalg.slogdet(raw_cov)
        raw_w, loc, cov = reweight(location, raw_cov)
        m = int(raw_w.sum())
        c_rew = mcd_consistency_factor(p, m / n) if m != n else 1.0
        cov = cov * c_rew
        return _result(
            x, loc, cov, location, raw_cov, h, log_det, (1.0, 1.0), (c_rew, 1.0),
            np.ones(n, dtype=bool), raw_w, cutoff,
        )  # fmt: skip

    rng = np.random.default_rng(random_state)
    c_raw = mcd_consistency_factor(p, h / n)
    s_raw = _small_sample_factor(p, n, alpha, "raw") if small_sample_correction else 1.0
    s_rew = _small_sample_factor(p, n, alpha, "rew") if small_sample_correction else 1.0
    support = np.zeros(n, dtype=bool)
    if p == 1:
        centre, sd, window = _raw_mcd_univariate(x[:, 0], h)
        support[window] = True
        location = np.array([centre])
        raw_cov = np.array([[c_raw * s_raw * sd * sd]])
        # robustbase's crit for p = 1: squared deviations of the h nearest, divisor h - 1
        dev = np.sort((x[:, 0] - centre) ** 2)[:h]
        log_det = math.log(dev.sum() / max(1, h - 1)) if dev.sum() > 0 else -np.inf
    else:
        rows, location, cov_h, log_det = _raw_mcd(x, h, int(n_starts), rng)
        support[rows] = True
        raw_cov = c_raw * s_raw * cov_h
    if not np.isfinite(log_det) or np.linalg.matrix_rank(raw_cov) < p:
        warnings.warn(
            f"At least h = {h} of the {n} records lie on a hyperplane (an exact fit): the MCD "
            "covariance is singular and is returned without reweighting.",
            RuntimeWarning,
            stacklevel=2,
        )
        on_plane = _on_hyperplane(x, location, raw_cov)
        return _result(
            x, location, raw_cov, location, raw_cov, h, -np.inf, (c_raw, s_raw), (1.0, 1.0),
            support, on_plane, cutoff, exact_fit=True,
        )  # fmt: skip
    raw_w, loc, cov = reweight(location, raw_cov)
    m = int(raw_w.sum())
    factors = (1.0, 1.0)
    if m != n and not (np.diag(cov) == 0).any():
        c_rew = mcd_consistency_factor(
            p, _REWEIGHT_QUANTILE if reweighting == "quantile" else m / n
        )
        factors = (c_rew, s_rew)
        cov = cov * c_rew * s_rew
    return _result(
        x, loc, cov, location, raw_cov, h, float(log_det), (c_raw, s_raw), factors,
        support, raw_w, cutoff,
    )  # fmt: skip


def _on_hyperplane(x: np.ndarray, location: np.ndarray, cov: np.ndarray) -> np.ndarray:
    _, vectors = np.linalg.eigh(cov)
    normal = vectors[:, 0]
    proj = np.abs((x - location) @ normal)
    scale = max(float(np.abs(x - location).max()), 1.0)
    return (proj <= 1e-9 * scale).astype(float)


def _result(
    x: np.ndarray,
    location: np.ndarray,
    cov: np.ndarray,
    raw_location: np.ndarray,
    raw_cov: np.ndarray,
    h: int,
    log_det: float,
    raw_factors: tuple[float, float],
    factors: tuple[float, float],
    support: np.ndarray,
    raw_weights: np.ndarray,
    cutoff: float,
    *,
    exact_fit: bool = False,
) -> MCDResult:
    if exact_fit:
        dist = np.full(x.shape[0], np.nan)
        weights = raw_weights
    else:
        dist = _mahalanobis2(x, location, cov)
        weights = (dist < cutoff).astype(float)
    return MCDResult(
        location=location,
        covariance=cov,
        raw_location=raw_location,
        raw_covariance=raw_cov,
        h=h,
        log_det=float(log_det),
        raw_factors=(float(raw_factors[0]), float(raw_factors[1])),
        factors=(float(factors[0]), float(factors[1])),
        exact_fit=exact_fit,
        support=support,
        raw_weights=raw_weights,
        weights=weights,
        dist=dist,
    )
