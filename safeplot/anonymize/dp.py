"""Differentially private counts: OpenDP's samplers, numbers in and numbers out.

Noise is never drawn here by numpy: every noisy number comes from an OpenDP
measurement (``opendp.measurements.make_laplace`` on integer counts, which
samples the discrete Laplace distribution exactly, and
``make_private_quantile`` for a range estimate), so the floating-point
attacks on naive Laplace noise do not apply. OpenDP is an optional
dependency: ``pip install "safeplot[dp]"``.

The unit of privacy is one record; neighbouring data sets differ by adding
or removing one record. A histogram (one count per bin, or per bin and hue
level) then has L1 sensitivity 1: one record changes one count by one, so
discrete Laplace noise of scale ``1 / epsilon`` makes the whole vector of
counts ``epsilon``-differentially private.

Examples
--------
>>> from safeplot.anonymize.dp import laplace_scale, accuracy
>>> laplace_scale(0.5)
2.0
>>> accuracy(1.0)  # counts within +/- this at 95%
3
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "DELTA_MAX",
    "INSTALL_HINT",
    "MECHANISMS",
    "RANGE_CANDIDATES",
    "DPCounts",
    "DPSums",
    "accuracy",
    "accuracy_table",
    "check_delta",
    "check_epsilon",
    "check_mechanism",
    "cumulative_accuracy",
    "cumulative_counts",
    "gaussian_counts",
    "gaussian_scale",
    "km_from_counts",
    "laplace_scale",
    "mechanism_counts",
    "noise_draws",
    "noisy_counts",
    "noisy_sums",
    "opendp_available",
    "private_range",
    "smoothed_counts",
]

#: What to run when OpenDP is missing.
INSTALL_HINT = 'pip install "safeplot[dp]"'


def _candidates() -> np.ndarray:
    """Return the fixed grid of candidate bounds: 0 and +/- {1, 2, 5} x 10^k, k = -3 .. 7."""
    mags = np.array([m * 10.0**k for k in range(-3, 8) for m in (1.0, 2.0, 5.0)])
    return np.unique(np.r_[-mags, 0.0, mags])


#: Candidate bounds of a differentially private range estimate: fixed before any data is
#: read (a 1-2-5 sequence over ten decades, both signs, and 0).
RANGE_CANDIDATES: np.ndarray = _candidates()


def opendp_available() -> bool:
    """Return whether OpenDP can be imported.

    Examples
    --------
    >>> isinstance(opendp_available(), bool)
    True
    """
    try:
        import opendp.prelude  # noqa: F401
    except ImportError:
        return False
    return True


def _dp() -> Any:
    """Return ``opendp.prelude`` with the features safeplot uses enabled, or say how to install."""
    try:
        import opendp.prelude as dp
    except ImportError:
        raise ImportError(
            "method='dp' draws its noise with OpenDP, which is not installed. "
            f"Install it with: {INSTALL_HINT}"
        ) from None
    # "contrib": OpenDP's constructors that are not yet formally vetted (make_laplace and
    # make_private_quantile among them) are switched off until a program enables them
    dp.enable_features("contrib")
    return dp


def check_epsilon(epsilon: Any) -> float:
    """Return `epsilon` as a positive finite float, or raise a clear ValueError.

    Examples
    --------
    >>> check_epsilon(1)
    1.0
    """
    if isinstance(epsilon, bool):
        raise ValueError(f"epsilon must be a positive number, got {epsilon!r}.")
    try:
        value = float(epsilon)
    except (TypeError, ValueError):
        raise ValueError(f"epsilon must be a positive number, got {epsilon!r}.") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"epsilon must be a positive finite number, got {epsilon!r}.")
    return value


def laplace_scale(epsilon: float, sensitivity: int = 1) -> float:
    """Return the discrete Laplace scale that makes counts of this `sensitivity` epsilon-DP.

    The noise then has variance ``2 * scale**2`` (approximately, for the
    discrete distribution at scales above about 1).

    Examples
    --------
    >>> laplace_scale(0.1)
    10.0
    """
    return float(sensitivity) / check_epsilon(epsilon)


def accuracy(epsilon: float, alpha: float = 0.05) -> int:
    """Return the half-width within which each DP count lies with probability ``1 - alpha``.

    From OpenDP's ``discrete_laplacian_scale_to_accuracy``; the count's
    noise exceeds this with probability at most `alpha`.

    Parameters
    ----------
    epsilon : float
        Privacy loss of the release.
    alpha : float, default 0.05
        Level: 0.05 gives the 95% accuracy.

    Returns
    -------
    int
        The accuracy, in records (OpenDP's bound, rounded down, which keeps
        the coverage).

    Examples
    --------
    >>> [accuracy(e) for e in (0.1, 1.0, 10.0)]
    [30, 3, 0]
    """
    dp = _dp()
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}.")
    value = dp.discrete_laplacian_scale_to_accuracy(laplace_scale(epsilon), float(alpha))
    return math.floor(value)


def accuracy_table(
    epsilons: Sequence[float] = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0), alpha: float = 0.05
) -> Any:
    r"""Tabulate what each epsilon buys: noise scale, SD and accuracy of a DP count.

    A helper for data custodians choosing a budget (``dp_budget``) and for
    analysts splitting it over figures.

    Parameters
    ----------
    epsilons : sequence of float
        Privacy losses to tabulate.
    alpha : float, default 0.05
        Level of the accuracy column (0.05: 95%).

    Returns
    -------
    pandas.DataFrame
        One row per epsilon: ``epsilon``, ``scale`` (of the discrete
        Laplace noise), ``sd`` (its standard deviation) and ``accuracy``
        (each count within +/- this with probability ``1 - alpha``).

    Examples
    --------
    >>> accuracy_table([0.1, 1, 10])["accuracy"].tolist()
    [30, 3, 0]
    """
    import pandas as pd

    rows = []
    for eps in epsilons:
        scale = laplace_scale(eps)
        rows.append(
            {
                "epsilon": float(eps),
                "scale": scale,
                "sd": float(_discrete_laplace_sd(scale)),
                "accuracy": accuracy(eps, alpha),
            }
        )
    return pd.DataFrame(rows, columns=["epsilon", "scale", "sd", "accuracy"])


def _discrete_laplace_sd(scale: float) -> float:
    """Return the standard deviation of the discrete Laplace distribution of `scale` (exact)."""
    # P(k) proportional to exp(-|k| / scale): variance 2 p / (1 - p)^2 with p = exp(-1/scale)
    p = math.exp(-1.0 / scale)
    return math.sqrt(2.0 * p) / (1.0 - p)


@dataclass(frozen=True)
class DPCounts:
    """Counts released with discrete Laplace noise, and what the report says of them.

    Attributes
    ----------
    counts : ndarray of float
        The noisy counts, clamped at 0 (post-processing: no negative count).
    epsilon : float
        Privacy loss spent.
    scale : float
        Scale of the discrete Laplace noise added to each count.
    sd : float
        Standard deviation of that noise.
    accuracy : int
        Each count's noise lies within +/- this with 95% probability.
    delta : float
        The delta of (epsilon, delta)-DP: 0 for the Laplace mechanism.
    mechanism : str
        ``"laplace"`` or ``"gaussian"`` (see :data:`MECHANISMS`).
    """

    counts: np.ndarray
    epsilon: float
    scale: float
    sd: float
    accuracy: int
    delta: float = 0.0
    mechanism: str = "laplace"


def noisy_counts(counts: ArrayLike, epsilon: float, *, clamp: bool = True) -> DPCounts:
    """Add discrete Laplace noise (OpenDP) to integer counts of L1 sensitivity 1.

    Parameters
    ----------
    counts : array-like of int
        Exact counts, any shape (cells of a histogram, or of a histogram per
        hue level: one record is in one cell only).
    epsilon : float
        Privacy loss of releasing the whole array.
    clamp : bool, default True
        Set negative noisy counts to 0 (post-processing, which costs no
        privacy). Turn off only to study the noise itself.

    Returns
    -------
    DPCounts

    Examples
    --------
    >>> out = noisy_counts([40, 0, 12], epsilon=1.0)
    >>> out.counts.shape, bool((out.counts >= 0).all()), out.scale
    ((3,), True, 1.0)
    """
    eps = check_epsilon(epsilon)
    exact = np.asarray(counts)
    flat = exact.ravel()
    if flat.size and (
        not np.all(np.isfinite(flat.astype(float))) or np.any(flat != np.round(flat))
    ):
        raise ValueError("noisy_counts needs whole-number counts.")
    dp = _dp()
    scale = laplace_scale(eps)
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
    meas = dp.m.make_laplace(*space, scale=scale)
    # the privacy map of the measurement itself must agree with the epsilon being spent
    if meas.map(1) > eps * (1 + 1e-9):
        raise RuntimeError("OpenDP's privacy map exceeds the epsilon asked for.")
    noisy = (
        np.asarray(meas([int(v) for v in flat]), dtype=float)
        if flat.size
        else np.zeros(0, dtype=float)
    )
    if clamp:
        noisy = np.maximum(noisy, 0.0)
    return DPCounts(
        counts=noisy.reshape(exact.shape),
        epsilon=eps,
        scale=scale,
        sd=_discrete_laplace_sd(scale),
        accuracy=accuracy(eps),
    )


def private_range(
    values: ArrayLike,
    epsilon: float,
    *,
    candidates: ArrayLike | None = None,
    alpha: float = 0.05,
) -> tuple[float, float]:
    """Estimate the span of `values` with differential privacy, on a fixed grid of bounds.

    The records are counted between consecutive `candidates` (a grid fixed
    before the data is read: by default 0 and a 1-2-5 sequence over ten
    decades of either sign) and the counts released with discrete Laplace
    noise (:func:`noisy_counts`, all of `epsilon`). The span runs from the
    first to the last interval whose noisy count exceeds what noise alone
    reaches with probability `alpha` over all intervals (a Bonferroni
    bound), so empty intervals are hardly ever taken for data. Everything
    after the noisy counts is post-processing: it costs no further privacy.

    Intervals holding fewer records than that bound (a long, thin tail)
    fall outside the span; give ``binrange`` to count them.

    Parameters
    ----------
    values : array-like
        Finite raw values.
    epsilon : float
        Privacy loss of the estimate.
    candidates : array-like, optional
        Increasing candidate bounds (default :data:`RANGE_CANDIDATES`).
    alpha : float, default 0.05
        Chance that noise alone puts an empty interval in the span.

    Returns
    -------
    tuple of float
        ``(low, high)``, two candidates with ``low < high``.

    Raises
    ------
    ValueError
        When no interval stands out of the noise (too few records for this
        epsilon): give ``binrange``, or spend a larger epsilon.

    Examples
    --------
    >>> import numpy as np
    >>> private_range(np.random.default_rng(0).normal(50, 5, 2000), 1.0)
    (20.0, 100.0)
    """
    eps = check_epsilon(epsilon)
    grid = np.unique(np.asarray(RANGE_CANDIDATES if candidates is None else candidates, float))
    if grid.size < 2:
        raise ValueError("private_range needs at least two candidates.")
    x = np.asarray(values, dtype=float).ravel()
    # values beyond the grid are counted in two open-ended intervals that are never the span
    edges = np.r_[-np.inf, grid, np.inf]
    exact = np.histogram(x, bins=edges)[0]
    noisy = noisy_counts(exact, eps).counts
    dp = _dp()
    bound = float(
        dp.discrete_laplacian_scale_to_accuracy(laplace_scale(eps), float(alpha) / noisy.size)
    )
    inner = np.flatnonzero(noisy[1:-1] > bound)
    if inner.size == 0:
        raise ValueError(
            f"A differentially private range estimate at epsilon={eps:g} found no interval "
            "that stands out of the noise (too few records for this epsilon). Give binrange=("
            "low, high) from knowledge of the variable, or a larger epsilon."
        )
    return float(grid[inner[0]]), float(grid[inner[-1] + 1])


def cumulative_counts(noisy: ArrayLike) -> np.ndarray:
    """Return the cumulative sum of DP counts, made monotone and clipped to ``[0, total]``.

    Post-processing of counts released by :func:`noisy_counts` (clamped or
    not): the running sum is taken, each value is raised to the largest
    before it (a cumulative count never falls), and the result is clipped to
    ``[0, total]``, the total being the last running sum (at least 0).

    Parameters
    ----------
    noisy : array-like, shape (..., m)
        Noisy counts of consecutive bins along the last axis.

    Returns
    -------
    ndarray of float, same shape
        Non-decreasing along the last axis, between 0 and the noisy total.

    Examples
    --------
    >>> cumulative_counts([3.0, -2.0, 4.0]).tolist()
    [3.0, 3.0, 5.0]
    """
    c = np.cumsum(np.asarray(noisy, dtype=float), axis=-1)
    c = np.maximum.accumulate(c, axis=-1)
    total = np.maximum(c[..., -1:], 0.0) if c.shape[-1] else c
    return np.clip(c, 0.0, total)


def cumulative_accuracy(epsilon: float, m: int, alpha: float = 0.05) -> np.ndarray:
    """Return the half-width of a ``1 - alpha`` interval of each of `m` cumulative DP counts.

    The cumulative count at bin ``j`` (1-based) sums ``j`` independent
    discrete Laplace noises of scale ``1 / epsilon``: its standard deviation
    is ``sd * sqrt(j)``. The half-width is the normal quantile times that
    standard deviation (a sum of several noises is close to normal), but
    never below the accuracy of a single count for ``j = 1``.

    Parameters
    ----------
    epsilon : float
        Privacy loss of the counts.
    m : int
        Number of bins.
    alpha : float, default 0.05
        Level: 0.05 for 95% intervals.

    Returns
    -------
    ndarray of float, shape (m,)

    Examples
    --------
    >>> cumulative_accuracy(1.0, 3).round(2).tolist()
    [3.0, 3.76, 4.61]
    """
    from statistics import NormalDist

    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha!r}.")
    sd = _discrete_laplace_sd(laplace_scale(epsilon))
    z = NormalDist().inv_cdf(1 - alpha / 2)
    width = z * sd * np.sqrt(np.arange(1, int(m) + 1, dtype=float))
    if width.size:
        width[0] = max(width[0], float(accuracy(epsilon, alpha)))
    return width


def smoothed_counts(
    centres: ArrayLike,
    counts: ArrayLike,
    grid: ArrayLike,
    bandwidth: float,
    noise_sd: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Smooth DP counts with a Gaussian kernel: a density on `grid`, and its noise SD.

    Post-processing of released counts only: the density at each grid point
    is ``sum_j counts_j K_h(grid - centres_j) / sum_j counts_j``, with ``K_h``
    the Gaussian kernel of standard deviation `bandwidth`. Each count carries
    independent noise of standard deviation `noise_sd`; to first order the
    density moves by ``sum_j (K_h(grid - centres_j) - density) e_j / total``
    (the kernel's share of the noise, less what dividing by the noisy total
    takes back), so its noise has standard deviation ``noise_sd *
    sqrt(sum_j (K_h(...) - density)**2) / total``.

    Parameters
    ----------
    centres : array-like, shape (m,)
        Bin centres.
    counts : array-like, shape (m,)
        Non-negative (noisy) counts.
    grid : array-like, shape (g,)
        Where to evaluate the density.
    bandwidth : float
        Kernel standard deviation, in data units.
    noise_sd : float, default 0
        Standard deviation of each count's noise.

    Returns
    -------
    density, sd : ndarray, shape (g,)

    Examples
    --------
    >>> d, s = smoothed_counts([0.0, 1.0], [10, 10], [0.0, 0.5], 1.0, 1.0)
    >>> d.round(4).tolist(), s.round(4).tolist()
    ([0.3205, 0.3521], [0.0055, 0.0])

    Halfway between two equal counts the density does not move with their
    noise: what one count adds, the total takes back.
    """
    c = np.asarray(centres, dtype=float)
    w = np.asarray(counts, dtype=float)
    g = np.asarray(grid, dtype=float)
    h = float(bandwidth)
    if not (math.isfinite(h) and h > 0):
        raise ValueError(f"bandwidth must be positive, got {bandwidth!r}.")
    if np.any(w < 0):
        raise ValueError("smoothed_counts needs non-negative counts.")
    total = float(w.sum())
    if total <= 0:
        return np.zeros(g.shape), np.zeros(g.shape)
    kernel = np.exp(-0.5 * ((g[:, None] - c[None, :]) / h) ** 2) / (h * math.sqrt(2 * math.pi))
    density = kernel @ w / total
    # to first order, noise e_j moves the density by sum_j (K_j - density) e_j / total: the
    # kernel's share and, through the total it is divided by, the normalisation's
    sd = float(noise_sd) * np.sqrt(((kernel - density[:, None]) ** 2).sum(axis=1)) / total
    return density, sd


# -- the Gaussian mechanism, sums and survival counts ----------------------------------------

#: Noise mechanisms of a DP release: ``"laplace"`` (discrete Laplace, pure epsilon-DP, the
#: default) and ``"gaussian"`` (discrete Gaussian under zero-concentrated DP, converted to
#: (epsilon, delta)-DP by OpenDP's own combinators).
MECHANISMS: tuple[str, ...] = ("laplace", "gaussian")

#: Largest delta one release may take. Fixed, not derived from the number of records: a
#: refusal that depended on n (the usual advice is delta well below 1/n) would itself say
#: something about n. Any data set large enough for a DP plot has n far below 1 / 1e-5.
DELTA_MAX = 1e-5


def check_mechanism(mechanism: Any) -> str:
    """Return `mechanism` if it is one of :data:`MECHANISMS`, or raise a clear ValueError.

    Examples
    --------
    >>> check_mechanism("Gaussian")
    'gaussian'
    """
    if isinstance(mechanism, str) and mechanism.lower() in MECHANISMS:
        return mechanism.lower()
    raise ValueError(
        f"mechanism={mechanism!r} is not a noise mechanism of method='dp'; choose "
        f"'laplace' (pure epsilon-DP, the default) or 'gaussian' (with delta=)."
    )


def check_delta(delta: Any, mechanism: str = "gaussian") -> float:
    """Return the delta of a release under `mechanism`, or raise a clear ValueError.

    The Laplace mechanism is pure epsilon-DP: its delta is 0, and a delta
    given with it is refused (it would be recorded but not used). The
    Gaussian mechanism needs ``0 < delta <= DELTA_MAX``.

    Examples
    --------
    >>> check_delta(None, "laplace"), check_delta(1e-6)
    (0.0, 1e-06)
    """
    mechanism = check_mechanism(mechanism)
    if mechanism == "laplace":
        if delta not in (None, 0, 0.0):
            raise ValueError(
                f"delta={delta!r} is for mechanism='gaussian'; the Laplace mechanism is pure "
                "epsilon-DP (delta 0). Leave delta out, or give mechanism='gaussian'."
            )
        return 0.0
    if delta is None:
        raise ValueError(
            "mechanism='gaussian' needs delta=, the chance the epsilon guarantee fails: "
            f"give a small number such as delta=1e-6 (at most {DELTA_MAX:g})."
        )
    if isinstance(delta, bool):
        raise ValueError(f"delta must be a number, got {delta!r}.")
    try:
        value = float(delta)
    except (TypeError, ValueError):
        raise ValueError(f"delta must be a number, got {delta!r}.") from None
    if not (math.isfinite(value) and 0 < value <= DELTA_MAX):
        raise ValueError(
            f"delta={delta!r} is out of range: it must satisfy 0 < delta <= {DELTA_MAX:g} "
            "(a larger delta lets the guarantee fail for some record with a real chance). "
            "Use e.g. delta=1e-6."
        )
    return value


def _gaussian_measurement(scale: float, delta: float, *, floats: bool = False) -> Any:
    """OpenDP's Gaussian mechanism on vectors (L2 distance), as an (epsilon, delta) measure."""
    dp = _dp()
    atom = dp.atom_domain(T=float, nan=False) if floats else dp.atom_domain(T=int)
    space = dp.vector_domain(atom), dp.l2_distance(T=float if floats else int)
    meas = dp.m.make_gaussian(*space, scale=float(scale))
    return dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(meas), float(delta))


def gaussian_scale(epsilon: float, delta: float, sensitivity: float = 1.0) -> float:
    """Return the smallest Gaussian noise SD that OpenDP certifies (epsilon, delta)-DP.

    The discrete Gaussian mechanism is zero-concentrated DP; OpenDP converts
    its rho to the privacy curve (``make_zCDP_to_approxDP``) and reads the
    epsilon at `delta` (``make_fix_delta``). The scale is found by OpenDP's
    ``binary_search_param`` on that map, for an L2 `sensitivity`.

    Examples
    --------
    >>> round(gaussian_scale(1.0, 1e-6), 2)
    4.53
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, "gaussian")
    return _gaussian_scale(eps, dlt, float(sensitivity), False)


@functools.lru_cache(maxsize=256)
def _gaussian_scale(eps: float, dlt: float, sensitivity: float, floats: bool) -> float:
    """Search the scale of :func:`gaussian_scale`, on integer (sensitivity up) or float data."""
    dp = _dp()
    d_in = sensitivity if floats else math.ceil(sensitivity)
    return float(
        dp.binary_search_param(
            lambda s: _gaussian_measurement(s, dlt, floats=floats), d_in=d_in, d_out=(eps, dlt)
        )
    )


def gaussian_counts(
    counts: ArrayLike, epsilon: float, delta: float, *, clamp: bool = True
) -> DPCounts:
    """Add discrete Gaussian noise (OpenDP) to integer counts of L2 sensitivity 1.

    One record is in one cell, so the whole array has L2 sensitivity 1. The
    noise SD is :func:`gaussian_scale` of ``(epsilon, delta)``, and OpenDP's
    privacy map of the very measurement used is checked against them.

    Parameters
    ----------
    counts : array-like of int
        Exact counts, any shape.
    epsilon, delta : float
        The (epsilon, delta)-DP guarantee of releasing the whole array.
    clamp : bool, default True
        Set negative noisy counts to 0 (post-processing).

    Returns
    -------
    DPCounts

    Examples
    --------
    >>> out = gaussian_counts([40, 0, 12], epsilon=1.0, delta=1e-6)
    >>> out.mechanism, out.delta, round(out.sd, 2)
    ('gaussian', 1e-06, 4.53)
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta, "gaussian")
    exact = np.asarray(counts)
    flat = exact.ravel()
    if flat.size and (
        not np.all(np.isfinite(flat.astype(float))) or np.any(flat != np.round(flat))
    ):
        raise ValueError("gaussian_counts needs whole-number counts.")
    scale = gaussian_scale(eps, dlt)
    meas = _gaussian_measurement(scale, dlt)
    got_eps, got_delta = meas.map(1)
    if got_eps > eps * (1 + 1e-9) or got_delta > dlt * (1 + 1e-9):
        raise RuntimeError("OpenDP's privacy map exceeds the (epsilon, delta) asked for.")
    noisy = (
        np.asarray(meas([int(v) for v in flat]), dtype=float)
        if flat.size
        else np.zeros(0, dtype=float)
    )
    if clamp:
        noisy = np.maximum(noisy, 0.0)
    dp = _dp()
    return DPCounts(
        counts=noisy.reshape(exact.shape),
        epsilon=eps,
        scale=scale,
        sd=scale,
        accuracy=math.floor(dp.discrete_gaussian_scale_to_accuracy(scale, 0.05)),
        delta=dlt,
        mechanism="gaussian",
    )


def mechanism_counts(
    counts: ArrayLike,
    epsilon: float,
    *,
    mechanism: str = "laplace",
    delta: float | None = None,
    clamp: bool = True,
) -> DPCounts:
    """Release counts of sensitivity 1 under `mechanism` (Laplace or Gaussian).

    Examples
    --------
    >>> mechanism_counts([5, 7], 1.0).mechanism
    'laplace'
    """
    mech = check_mechanism(mechanism)
    dlt = check_delta(delta, mech)
    if mech == "laplace":
        return noisy_counts(counts, epsilon, clamp=clamp)
    return gaussian_counts(counts, epsilon, dlt, clamp=clamp)


@dataclass(frozen=True)
class DPSums:
    """Sums of bounded values released with noise, and the noise's known spread.

    Attributes
    ----------
    sums : ndarray of float
        The noisy sums.
    sensitivity : float
        The most one record changes one sum (the half-width of its bounds).
    scale : float
        The noise scale (Laplace scale, or Gaussian SD).
    sd : float
        Standard deviation of each sum's noise.
    epsilon, delta : float
    mechanism : str
    """

    sums: np.ndarray
    sensitivity: float
    scale: float
    sd: float
    epsilon: float
    delta: float
    mechanism: str


def noisy_sums(
    sums: ArrayLike,
    sensitivity: float,
    epsilon: float,
    *,
    mechanism: str = "laplace",
    delta: float | None = None,
) -> DPSums:
    """Add OpenDP noise to sums of bounded values, one record in one sum.

    Each record adds a value in ``[-sensitivity, sensitivity]`` to one sum,
    so the vector of sums has L1 and L2 sensitivity `sensitivity` (adding or
    removing a record). Laplace noise of scale ``sensitivity / epsilon``
    (OpenDP's ``make_laplace`` on floats, which samples on a fine lattice
    and so resists floating-point attacks), or Gaussian noise of
    :func:`gaussian_scale` for that sensitivity.

    Parameters
    ----------
    sums : array-like of float
        Exact sums of values already clipped to the bounds (centred).
    sensitivity : float
        The largest absolute value a record adds (positive).
    epsilon : float
    mechanism : {"laplace", "gaussian"}
    delta : float, optional
        Only with ``"gaussian"``.

    Returns
    -------
    DPSums

    Examples
    --------
    >>> out = noisy_sums([10.0, -3.5], 2.0, 0.5)
    >>> out.scale, out.sums.shape
    (4.0, (2,))
    """
    eps = check_epsilon(epsilon)
    mech = check_mechanism(mechanism)
    dlt = check_delta(delta, mech)
    sens = float(sensitivity)
    if not (math.isfinite(sens) and sens > 0):
        raise ValueError(f"sensitivity must be positive, got {sensitivity!r}.")
    exact = np.asarray(sums, dtype=float)
    flat = exact.ravel()
    if not np.all(np.isfinite(flat)):
        raise ValueError("noisy_sums needs finite sums.")
    dp = _dp()
    if mech == "laplace":
        scale = sens / eps
        space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
        meas = dp.m.make_laplace(*space, scale=scale)
        # OpenDP rounds its map outwards: widen the scale until the map is within epsilon
        while meas.map(sens) > eps * (1 + 1e-9):
            scale *= 1 + 1e-6
            meas = dp.m.make_laplace(*space, scale=scale)
        sd = math.sqrt(2.0) * scale
    else:
        # the privacy of Gaussian noise depends on sensitivity / scale only: search the scale
        # for sensitivity 1 (OpenDP's search overflows at large sensitivities), then scale up
        scale = _gaussian_scale(eps, dlt, 1.0, True) * sens
        meas = _gaussian_measurement(scale, dlt, floats=True)
        for _ in range(100):
            got_eps, got_delta = meas.map(sens)
            if got_eps <= eps * (1 + 1e-9) and got_delta <= dlt * (1 + 1e-9):
                break
            scale *= 1 + 1e-6
            meas = _gaussian_measurement(scale, dlt, floats=True)
        else:
            raise RuntimeError("OpenDP's privacy map exceeds the (epsilon, delta) asked for.")
        sd = scale
    noisy = np.asarray(meas([float(v) for v in flat]), dtype=float) if flat.size else flat
    return DPSums(noisy.reshape(exact.shape), sens, scale, sd, eps, dlt, mech)


def noise_draws(size: int, *, mechanism: str = "laplace", scale: float = 1.0) -> np.ndarray:
    """Draw `size` values of a mechanism's integer noise from OpenDP (for simulated bands).

    The draws are noise about zero (OpenDP's measurement applied to zeros):
    used to simulate what noise of a known scale does to a post-processed
    statistic, never to protect data.

    Examples
    --------
    >>> noise_draws(5, scale=2.0).shape
    (5,)
    """
    mech = check_mechanism(mechanism)
    dp = _dp()
    if mech == "laplace":
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int)
        meas = dp.m.make_laplace(*space, scale=float(scale))
    else:
        space = dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int)
        meas = dp.m.make_gaussian(*space, scale=float(scale))
    return np.asarray(meas([0] * int(size)), dtype=float)


def km_from_counts(
    events: ArrayLike, censored: ArrayLike, beyond: ArrayLike | float = 0.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compute a grouped Kaplan-Meier curve from (noisy) events and censorings per time bin.

    Post-processing only: the records at risk at the start of each bin are
    the noisy total less everyone who left (noisy events and censorings) in
    earlier bins, floored at 0; the counts enter these sums unclamped, so
    that the noise of the many empty cells does not add up to a bias. The
    events of a bin are then clamped to ``[0, at risk]`` and the survival is
    the running product of ``1 - events / at risk``: non-increasing and in
    [0, 1] whatever the noise.

    Parameters
    ----------
    events, censored : array-like, shape (..., bins)
        Counts per bin (the last axis is time).
    beyond : array-like or float
        Records still at risk after the last bin (shape ``(...)``).

    Returns
    -------
    survival, at_risk, events : ndarray, shape (..., bins)
        Survival at the end of each bin, records at risk at its start, and
        the events used.

    Examples
    --------
    >>> s, n, d = km_from_counts([5, 5], [0, 0], 0)
    >>> s.tolist(), n.tolist()
    ([0.5, 0.0], [10.0, 5.0])
    """
    d = np.asarray(events, dtype=float)
    c = np.asarray(censored, dtype=float)
    b = np.asarray(beyond, dtype=float)
    left = d + c
    total = left.sum(axis=-1) + b
    gone = np.cumsum(left, axis=-1) - left
    n = np.maximum(total[..., None] - gone, 0.0)
    d = np.clip(d, 0.0, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(n > 0, 1.0 - d / n, 1.0)
    return np.cumprod(factor, axis=-1), n, d
