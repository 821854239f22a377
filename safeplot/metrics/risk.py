"""Disclosure risk of anonymised continuous data: how close the records stay to the truth.

* :func:`drisk_rmd` — sdcMicro's ``dRiskRMD`` (Templ & Meindl 2008): intervals
  around each original record, wider for outliers (robust Mahalanobis
  distance), and whether the record's anonymised values fall inside;
* :func:`interval_disclosure_risk` — IDR: how often an original value lies
  within a fraction of an SD of its released value (Senavirathne & Torra
  2019, after Templ 2017); rank intervals as a variant;
* :func:`distance_linkage` — DDR, distance-based record linkage: how often
  is a released record's nearest original record its own?

Everything is computed with k-d trees: memory grows linearly with the number
of records (never an n x n distance matrix).

References
----------
.. [1] Templ M, Meindl B. "Robust statistics meets SDC: new disclosure risk
   measures for continuous microdata masking." Privacy in Statistical
   Databases, LNCS 5262, 113-126 (2008).
.. [2] Domingo-Ferrer J, Mateo-Sanz JM, Torra V. "Comparing SDC methods for
   microdata on the basis of information loss and disclosure risk."
   Pre-proceedings of ETK-NTTS 2001, 807-826 (2001).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.linalg import pinvh
from scipy.spatial import cKDTree

from ._common import paired, standardise
from ._mcd import cov_mcd

__all__ = ["RiskResult", "distance_linkage", "drisk_rmd", "interval_disclosure_risk"]

# Relative tolerance under which two distances count as a tie in record linkage.
_TIE_RTOL = 1e-9


@dataclass(frozen=True)
class RiskResult:
    """Output of :func:`drisk_rmd`.

    Attributes
    ----------
    risk1 : float
        Fraction of records at risk by RMDID1 (an anonymised value inside its
        interval).
    risk2 : float
        Fraction at risk by RMDID2 (at risk by RMDID1 and no other released
        record within ``w2``).
    wrisk1, wrisk2 : float
        sdcMicro's RMD-weighted versions:
        ``(number at risk) * sum(rmd over those records) / n``.
    at_risk1, at_risk2 : ndarray of bool, shape (n,)
        Which records are at risk (not shown in the repr).
    rmd : ndarray, shape (n,)
        Each record's weighted robust Mahalanobis distance ``k * sqrt(D2)``.
    """

    risk1: float
    risk2: float
    wrisk1: float
    wrisk2: float
    at_risk1: np.ndarray = field(repr=False)
    at_risk2: np.ndarray = field(repr=False)
    rmd: np.ndarray = field(repr=False)


def _mahalanobis2(z: np.ndarray, location: np.ndarray, cov: np.ndarray) -> np.ndarray:
    centred = z - location
    return np.einsum("ij,jk,ik->i", centred, pinvh(cov), centred)


def _robust_cov(z: np.ndarray, reweighting: Literal["fraction", "quantile"], random_state: int):
    """Reweighted MCD covariance of `z`, as robustbase's ``covMcd(z)$cov``."""
    import warnings

    with warnings.catch_warnings():
        # an exact fit (at least h records on a line or plane) gives a singular covariance,
        # which the pseudo-inverse used with it copes with
        warnings.simplefilter("ignore", RuntimeWarning)
        return cov_mcd(z, reweighting=reweighting, random_state=random_state).covariance


def drisk_rmd(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    w1: float = 0.01,
    w2: float = 0.05,
    k: float = 0.05,
    scaling: Literal["separate", "original"] = "separate",
    around: Literal["anonymised", "original"] = "anonymised",
    mcd_reweighting: Literal["fraction", "quantile"] = "fraction",
    random_state: int = 0,
) -> RiskResult:
    r"""Return the disclosure risk by robust Mahalanobis distances, as sdcMicro's ``dRiskRMD``.

    The algorithm of sdcMicro's ``dRiskRMD`` (methods RMDID1 and RMDID2):

    1. standardise each data set by its own mean and SD (``ddof=1``), as
       sdcMicro's ``scale(x)`` and ``scale(xm)``: :math:`z`, :math:`z'`;
    2. estimate the covariance :math:`\Sigma` of :math:`z` robustly by the
       reweighted minimum covariance determinant of R's
       ``robustbase::covMcd`` (:func:`~safeplot.metrics.cov_mcd`: its
       consistency and small-sample factors included) and compute each
       original record's squared distance
       :math:`D_i^2 = z_i^\top \Sigma^{-1} z_i` from the column means (which
       are 0: sdcMicro centres on ``colMeans``, not on the MCD location);
    3. :math:`rmd_i = k \sqrt{D_i^2}`: outlying records, easier to
       re-identify, get wider intervals;
    4. record *i* is at risk (RMDID1) when **any** of its anonymised values
       lies strictly inside its interval:
       :math:`z_{ij} - w_1\, rmd_i < z'_{ij} < z_{ij} + w_1\, rmd_i` for some
       variable *j*. Only the record's own row is checked.
    5. it is at risk by RMDID2 when, in addition, no other anonymised record
       lies within Euclidean distance :math:`w_2` of its anonymised record
       (:math:`\min_{l \ne i} \lVert z'_i - z'_l \rVert > w_2`): a released
       record with close neighbours hides among them.

    ``risk1`` and ``risk2`` are the fractions of records at risk.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    w1 : float, default 0.01
        Interval width factor (sdcMicro's ``k``).
    w2 : float, default 0.05
        Neighbourhood radius of RMDID2, in standardised units (sdcMicro's
        ``k2``).
    k : float, default 0.05
        Weight of the robust distance (the constant 0.05 in sdcMicro).
    scaling : {"separate", "original"}, default "separate"
        ``"separate"`` standardises each data set by its own mean and SD, as
        sdcMicro does; ``"original"`` standardises the anonymised data by the
        original's mean and SD, so that a shift of every released value
        counts as protection. They agree for methods that keep the mean and
        SD exactly.
    around : {"anonymised", "original"}, default "anonymised"
        Where RMDID2 looks for other released records: around the record's
        anonymised value (sdcMicro) or around its original value.
    mcd_reweighting : {"fraction", "quantile"}, default "fraction"
        Consistency factor of the reweighted MCD covariance (see
        :func:`~safeplot.metrics.cov_mcd`). ``"fraction"`` is robustbase's
        before version 0.99-0 (June 2023), with which ``dRiskRMD``'s
        published results, Avraam, Jones & Burton's included, were computed;
        ``"quantile"`` is robustbase's since, and gives smaller robust
        variances, hence wider intervals and a higher risk1.
    random_state : int, default 0
        Seed of the MCD's random starts (the result is deterministic).

    Returns
    -------
    RiskResult

    Raises
    ------
    ValueError
        Different shapes, fewer than four records, non-finite values,
        constant variables, or invalid widths.
    TypeError
        Non-numeric data.

    Notes
    -----
    The interval half-widths are small (:math:`w_1 k = 5 \times 10^{-4}`
    of a robust distance), so risk1 counts records whose released value is
    practically their own; it is sensitive to anything that moves released
    values by that much, e.g. how ties among nearest neighbours are broken
    in the deterministic anonymisation. A singular robust covariance (at
    least half the records on a line or plane) is inverted with the
    Moore-Penrose pseudo-inverse, where sdcMicro stops with an error.
    RMDID2 uses a k-d tree over the anonymised records (one two-neighbour
    query per record at risk), so time and memory grow as
    :math:`n \log n` and :math:`n`, where sdcMicro builds an n x n distance
    matrix. Identical data give ``risk1 = 1`` (every interval holds its own
    value).

    References
    ----------
    .. [1] Templ M, Meindl B (2008). "Robust statistics meets SDC: new
       disclosure risk measures for continuous microdata masking." Privacy
       in Statistical Databases, LNCS 5262, 113-126.
    .. [2] Templ M, Kowarik A, Meindl B (2015). "Statistical disclosure
       control for micro-data using the R package sdcMicro." Journal of
       Statistical Software 67(4). (``dRiskRMD``.)
    .. [3] Rousseeuw PJ, Van Driessen K (1999). "A fast algorithm for the
       minimum covariance determinant estimator." Technometrics 41(3),
       212-223.
    .. [4] Avraam D, Jones E, Burton P (2022). "A deterministic approach for
       protecting privacy in sensitive personal data." BMC Medical
       Informatics and Decision Making 22.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(300, 2))
    >>> drisk_rmd(x, x).risk1
    1.0
    >>> res = drisk_rmd(x, x[::-1])  # every record released as another's
    >>> res.risk1, res.risk2
    (0.0, 0.0)
    """
    x, y, _ = paired(original, anonymised)
    for name, value in (("w1", w1), ("w2", w2), ("k", k)):
        if not np.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a non-negative finite number, got {value}.")
    if scaling not in ("original", "separate"):
        raise ValueError(f"scaling={scaling!r}: use 'separate' or 'original'.")
    if around not in ("anonymised", "original"):
        raise ValueError(f"around={around!r}: use 'anonymised' or 'original'.")
    if mcd_reweighting not in ("fraction", "quantile"):
        raise ValueError(f"mcd_reweighting={mcd_reweighting!r}: use 'fraction' or 'quantile'.")
    n, p = x.shape
    if n <= p + 1:
        raise ValueError(
            f"The robust covariance of {p} variable(s) needs more than {p + 1} records, got {n}."
        )
    if scaling == "original":
        z, zm = standardise(x, y)
    else:
        if (np.ptp(y, axis=0) == 0).any():
            raise ValueError(
                "An anonymised variable is constant, so it cannot be standardised on its own; "
                "use scaling='original'."
            )
        (z,), (zm,) = standardise(x), standardise(y)
    cov = _robust_cov(z, mcd_reweighting, random_state)
    d2 = _mahalanobis2(z, np.zeros(z.shape[1]), cov)
    rmd = k * np.sqrt(np.maximum(d2, 0.0))
    half = (w1 * rmd)[:, None]
    at1 = ((zm > z - half) & (zm < z + half)).any(axis=1)
    at2 = np.zeros(n, dtype=bool)
    idx = np.flatnonzero(at1)
    if idx.size:
        tree = cKDTree(zm)
        if around == "anonymised":
            # the first neighbour of z'_i is z'_i itself (or an identical copy)
            dist, _ = tree.query(zm[idx], k=2)
            other = dist[:, 1]
        else:
            dist, nb = tree.query(z[idx], k=2)
            other = np.where(nb[:, 0] == idx, dist[:, 1], dist[:, 0])
        at2[idx] = other > w2
    n1, n2 = int(at1.sum()), int(at2.sum())
    return RiskResult(
        risk1=n1 / n,
        risk2=n2 / n,
        wrisk1=float(n1 * rmd[at1].sum() / n),
        wrisk2=float(n2 * rmd[at2].sum() / n),
        at_risk1=at1,
        at_risk2=at2,
        rmd=rmd,
    )


def interval_disclosure_risk(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    w: float | None = None,
    interval: Literal["sd", "rank"] = "sd",
    p: float | Sequence[float] | None = None,
) -> float:
    r"""Return the interval disclosure risk IDR: how often a released value pins the true one.

    With ``interval="sd"`` (the default, as Senavirathne & Torra 2019
    define IDR after Templ 2017): an interval of half-width :math:`w`
    standard deviations is put around each anonymised value, and IDR is the
    fraction of values whose original lies in it,

    .. math:: IDR = \frac{1}{N P} \sum_{i=1}^{N} \sum_{j=1}^{P}
              \mathbb{1}\left[x'_{ij} - w\, s'_j \le x_{ij} \le x'_{ij} + w\, s'_j\right],

    with :math:`s'_j` the sample SD (``ddof=1``) of anonymised variable
    *j*, as in sdcMicro's ``dRisk``.

    With ``interval="rank"`` (a variant, after Domingo-Ferrer, Mateo-Sanz
    & Torra 2001): an intruder who holds only the released data ranks each
    released variable and, around a released value :math:`x'_{ij}`, takes
    the released values whose ranks differ by at most
    :math:`h = \lfloor p N / 2 \rfloor` from its own,
    :math:`[x'_{(r^-_{ij} - h)}, x'_{(r^+_{ij} + h)}]` (:math:`r^-` and
    :math:`r^+` the first and last rank of the value :math:`x'_{ij}`, so
    tied values share one interval; ranks clipped to :math:`1 \dots N`); the
    value is disclosed when :math:`x_{ij}` lies in that interval. With
    several `p` the result is the average over them (Domingo-Ferrer et al.
    average over p = 1 %, ..., 10 %).

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    w : float, optional
        Half-width of the interval as a fraction of the anonymised
        variable's SD (``interval="sd"``; sdcMicro's ``k``). Default 0.05,
        sdcMicro's default, with which Senavirathne & Torra's IDR are
        reproduced.
    interval : {"sd", "rank"}, default "sd"
        ``"sd"``: the published IDR; ``"rank"``: the rank-interval variant.
    p : float or sequence of float, optional
        Width of the rank interval as a fraction of the number of records
        (``interval="rank"``). Default 0.01.

    Returns
    -------
    float
        IDR between 0 and 1 (1 for unchanged data).

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values,
        constant original variables, `w` negative or not finite, `p` outside
        (0, 1], an unknown `interval`, or a parameter given for the other
        kind of interval.
    TypeError
        Non-numeric data.

    Notes
    -----
    Senavirathne & Torra count "the number of times" an original value falls
    in its interval: a fraction of the :math:`NP` values, which is what
    reproduces their tables (see
    :ref:`sphx_glr_auto_gallery_plot_paper_senavirathne_torra_table3.py`).
    sdcMicro's ``dRisk`` counts records instead (a record is at risk when
    at most one of its variables falls outside its interval). The interval
    is closed. A released variable that is constant has SD 0: its interval
    is the released value alone.

    References
    ----------
    .. [1] Senavirathne N, Torra V (2019). "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing.
       https://doi.org/10.1007/s12652-019-01489-7
    .. [2] Templ M (2017). Statistical Disclosure Control for Microdata:
       Methods and Applications in R. Springer. (sdcMicro's ``dRisk``.)
    .. [3] Domingo-Ferrer J, Mateo-Sanz JM, Torra V (2001). "Comparing SDC
       methods for microdata on the basis of information loss and
       disclosure risk." Pre-proceedings of ETK-NTTS 2001, 807-826.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(100.0)  # SD 29.0
    >>> interval_disclosure_risk(x, x)
    1.0
    >>> interval_disclosure_risk(x, x + 1.0)  # within 0.05 SD = 1.45
    1.0
    >>> interval_disclosure_risk(x, x + 2.0)
    0.0
    >>> interval_disclosure_risk(x, x[::-1], interval="rank", p=0.01)
    0.0
    """
    if interval not in ("sd", "rank"):
        raise ValueError(f"interval={interval!r}: use 'sd' (as published) or 'rank'.")
    x, y, _ = paired(original, anonymised)
    if interval == "sd":
        if p is not None:
            raise ValueError("p is the width of a rank interval: give it with interval='rank'.")
        w = 0.05 if w is None else w
        if isinstance(w, (bool, str)) or not np.isfinite(w) or w < 0:
            raise ValueError(f"w must be a non-negative finite number, got {w!r}.")
        half = float(w) * y.std(axis=0, ddof=1)
        return float(np.mean((x >= y - half) & (x <= y + half)))
    if w is not None:
        raise ValueError("w is the width of an SD interval: give it with interval='sd'.")
    return _rank_interval_risk(x, y, 0.01 if p is None else p)


def _rank_interval_risk(x: np.ndarray, y: np.ndarray, p: float | Sequence[float]) -> float:
    """Return the rank-interval IDR of ``interval_disclosure_risk(..., interval="rank")``."""
    ps = np.atleast_1d(np.asarray(p, dtype=float))
    if ps.size == 0 or not np.all(np.isfinite(ps)) or (ps <= 0).any() or (ps > 1).any():
        raise ValueError(f"p must be a fraction in (0, 1] (or a list of them), got {p!r}.")
    n, q = x.shape
    order = np.argsort(y, axis=0, kind="stable")
    released = np.take_along_axis(y, order, axis=0)
    # first and last sorted position of each value's run of ties, handed back to the records
    positions = np.arange(n)[:, None]
    starts = np.ones((n, q), dtype=bool)
    starts[1:] = released[1:] != released[:-1]
    ends = np.ones((n, q), dtype=bool)
    ends[:-1] = starts[1:]
    run_first = np.maximum.accumulate(np.where(starts, positions, 0), axis=0)
    run_last = np.minimum.accumulate(np.where(ends, positions, n - 1)[::-1], axis=0)[::-1]
    first = np.empty((n, q), dtype=np.intp)
    last = np.empty((n, q), dtype=np.intp)
    np.put_along_axis(first, order, run_first, axis=0)
    np.put_along_axis(last, order, run_last, axis=0)
    cols = np.arange(q)
    risks = []
    for frac in ps:
        h = int(np.floor(frac * n / 2))
        lo = released[np.maximum(first - h, 0), cols]
        hi = released[np.minimum(last + h, n - 1), cols]
        risks.append(np.mean((x >= lo) & (x <= hi)))
    return float(np.mean(risks))


def distance_linkage(
    original: ArrayLike | pd.DataFrame,
    anonymised: ArrayLike | pd.DataFrame,
    *,
    ties: Literal["share", "link"] = "share",
    direction: Literal[
        "anonymised_to_original", "original_to_anonymised"
    ] = "anonymised_to_original",
) -> float:
    r"""Return the distance-based record-linkage rate DDR.

    Both data sets are standardised by the original's mean and SD
    (``ddof=1``). As Senavirathne & Torra (2019) define DDR, an intruder
    links each *anonymised* record to its nearest *original* record
    (Euclidean distance), and DDR is the fraction of anonymised records
    linked to their own original:

    .. math:: DDR = \frac{1}{N} \sum_{i=1}^{N}
              \frac{\mathbb{1}\left[\lVert z'_i - z_i \rVert = d_i\right]}{m_i},
              \qquad d_i = \min_l \lVert z'_i - z_l \rVert,
              \quad m_i = \#\{l : \lVert z'_i - z_l \rVert = d_i\}.

    When several original records are equally near (repeated records) the
    intruder picks one of the :math:`m_i` at random, so a correct link
    counts :math:`1 / m_i`.

    Parameters
    ----------
    original, anonymised : array-like or DataFrame, shape (n, p)
        The data before and after anonymisation, row for row.
    ties : {"share", "link"}, default "share"
        ``"share"`` as above; ``"link"`` counts a record as linked whenever
        its own record is among the nearest (:math:`m_i = 1`), the worst
        case.
    direction : {"anonymised_to_original", "original_to_anonymised"}, optional
        Default ``"anonymised_to_original"``: the published DDR. A variant,
        ``"original_to_anonymised"``, links each original record to its
        nearest anonymised record instead (an intruder who holds one
        person's true values and looks for them in the release); ties then
        come from anonymised records that coincide (shared centroids,
        group means, rounded values), and with ``ties="link"`` methods that
        release shared values score close to 1 whatever their parameters.

    Returns
    -------
    float
        DDR between 0 and 1 (1 for unchanged data without repeated records).

    Raises
    ------
    ValueError
        Different shapes, fewer than two records, non-finite values,
        constant variables, or an unknown `ties` or `direction`.
    TypeError
        Non-numeric data.

    Notes
    -----
    Distances within a relative 1e-9 of each other count as equal. Nearest
    neighbours come from a k-d tree over the records linked to, and
    :math:`m_i` from a ball query (counts only), so memory is linear in the
    number of records.

    Senavirathne & Torra's DDR columns are about half of this fraction for
    two variables, as if the count of correct links were divided by the
    number of values :math:`NP` rather than of records (see
    :ref:`sphx_glr_auto_gallery_plot_paper_senavirathne_torra_table3.py`);
    the fraction of records is what their text defines.

    References
    ----------
    .. [1] Senavirathne N, Torra V (2019). "Rounding based continuous data
       discretization for statistical disclosure control." Journal of
       Ambient Intelligence and Humanized Computing.
    .. [2] Domingo-Ferrer J, Mateo-Sanz JM, Torra V (2001). "Comparing SDC
       methods for microdata on the basis of information loss and
       disclosure risk." Pre-proceedings of ETK-NTTS 2001, 807-826.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(200, 2))
    >>> distance_linkage(x, x)
    1.0

    Pairs of records released as their common mean: the mean is equally far
    from both originals, and the intruder links it to one of them:

    >>> x = np.arange(10.0)
    >>> y = np.repeat(x[::2] + 0.5, 2)
    >>> distance_linkage(x, y), distance_linkage(x, y, ties="link")
    (0.5, 1.0)

    From the other side, each original has two equally near released
    records, its own and its partner's:

    >>> distance_linkage(x, y, direction="original_to_anonymised")
    0.5
    """
    if ties not in ("link", "share"):
        raise ValueError(f"ties={ties!r}: use 'link' or 'share'.")
    if direction not in ("anonymised_to_original", "original_to_anonymised"):
        raise ValueError(
            f"direction={direction!r}: use 'anonymised_to_original' (as published) or "
            "'original_to_anonymised'."
        )
    x, y, _ = paired(original, anonymised)
    z, zm = standardise(x, y)
    # `source` records are linked to their nearest `target` record
    source, target = (zm, z) if direction == "anonymised_to_original" else (z, zm)
    n = z.shape[0]
    tree = cKDTree(target)
    nearest, _ = tree.query(source, k=1)
    own = np.sqrt(((source - target) ** 2).sum(axis=1))
    slack = _TIE_RTOL * np.maximum(own, nearest) + 1e-300
    linked = own <= nearest + slack
    if ties == "link" or not linked.any():
        return float(linked.mean())
    cand = np.flatnonzero(linked)
    counts = tree.query_ball_point(source[cand], own[cand] + slack[cand], return_length=True)
    return float(np.sum(1.0 / np.maximum(counts, 1)) / n)
