"""Confidentialised statistics: winsorising and rounding (O'Keefe).

O'Keefe's rules for exploratory output from remote analysis systems [1]_
replace extreme values by bounds a fixed number of standard deviations from
the mean (winsorising, default 2.6 SD) and round released statistics
(quantiles, medians, extremes, correlations) to a few significant figures,
so that no drawn number is an individual's exact value. Rounding of released
statistics is also part of the output-checking guidance of Brandt et al.
[2]_.

Everything here is plain numpy: numbers in, numbers out.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013); see also
   O'Keefe CM, Good NM, "Regression output from a remote analysis server",
   Data & Knowledge Engineering 68(11) (2009).
.. [2] Brandt M, Franconi L, Guerke C, Hundepool A, Lucarelli M, Mol J,
   Ritchie F, Seri G, Welpton R. "Guidelines for the checking of output
   based on microdata research." ESSnet SDC (2010).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..errors import DisclosureError
from ..policy import Policy, get_policy

__all__ = [
    "WinsorResult",
    "round_bits",
    "round_sig",
    "round_to_span",
    "safe_quantiles",
    "sig_unit",
    "winsorize",
]

# _POW10[e] is the float64 nearest to 10**e (int -> float conversion is
# correctly rounded, unlike repeated multiplication).
_POW10 = np.array([float(10**e) for e in range(309)])
# Largest exponent looked up in one step; bigger ones are split in two.
_MAX_STEP = 300


@dataclass(frozen=True, eq=False)
class WinsorResult:
    """Output of :func:`winsorize`.

    Attributes
    ----------
    values : ndarray
        The winsorised data, same shape as the input.
    lower, upper : float or ndarray of shape (p,)
        The bounds ``mean -/+ sd * SD``: floats for 1-D input, one per
        column for 2-D input.
    n_winsorized : int
        Number of values moved to a bound (over all columns).
    sd : float
        The number of standard deviations used for the bounds.
    """

    values: np.ndarray
    lower: float | np.ndarray
    upper: float | np.ndarray
    n_winsorized: int
    sd: float


def _check_sig(sig: object) -> int:
    if isinstance(sig, bool) or not isinstance(sig, numbers.Integral):
        raise TypeError(f"sig must be an integer number of significant figures, got {sig!r}.")
    if sig < 1:
        raise ValueError(f"sig must be at least 1 significant figure, got {sig}.")
    return int(sig)


def winsorize(
    values: ArrayLike, sd: float | None = None, *, policy: Policy | None = None
) -> WinsorResult:
    """Winsorise each variable at its mean plus or minus `sd` standard deviations.

    Values below ``mean - sd * SD`` are set to that bound and values above
    ``mean + sd * SD`` to that one, with the mean and the sample standard
    deviation (``ddof=1``) of each column computed from the input. This is
    O'Keefe's treatment of extreme values in exploratory output [1]_.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, p)
        Finite numeric data with at least two records.
    sd : float, optional
        Width of the bounds in standard deviations. Default: the policy's
        ``winsor_sd`` (2.6). It may not exceed the policy's ``winsor_sd``:
        wider bounds would keep more extreme raw values.
    policy : Policy, optional
        Policy supplying and limiting `sd`. Default: the policy in force.

    Returns
    -------
    WinsorResult
        The winsorised values, the bounds and the number of values moved.

    Raises
    ------
    DisclosureError
        If `sd` is larger than the policy's ``winsor_sd``.
    ValueError
        If `sd` is not a positive finite number, or `values` is not 1-D or
        2-D, has fewer than two records, or holds NaN or infinite values.

    See Also
    --------
    round_sig : Round released statistics.

    Notes
    -----
    A constant column has SD 0: its bounds both equal its value and nothing
    is moved. Winsorising alone does not hide such a value.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> w = winsorize([0.0, 0.0, 0.0, 3.0, 5.0, 10.0], sd=1.5, policy=Policy())
    >>> w.values  # mean 3, SD 4: bounds 3 -/+ 6
    array([0., 0., 0., 3., 5., 9.])
    >>> w.lower, w.upper, w.n_winsorized
    (-3.0, 9.0, 1)
    """
    policy = get_policy(policy)
    sd = policy.check_winsor_sd(sd)
    arr = finite_array(values, min_rows=2)
    mean = arr.mean(axis=0)
    spread = sd * arr.std(axis=0, ddof=1)
    lower = mean - spread
    upper = mean + spread
    moved = (arr < lower) | (arr > upper)
    out = np.clip(arr, lower, upper)
    if arr.ndim == 1:
        lower, upper = float(lower), float(upper)
    return WinsorResult(out, lower, upper, int(moved.sum()), sd)


def sig_unit(x: ArrayLike, sig: int) -> float | np.ndarray:
    """One unit in the last of `sig` significant figures of each value (``10**-sig`` for 0).

    The step by which a rounded statistic moves off a rare raw value and
    stays rounded.

    Examples
    --------
    >>> sig_unit(45.6, 3), sig_unit([0.0123, 0.0], 2).tolist()
    (0.1, [0.001, 0.01])
    """
    arr = np.asarray(x, dtype=float)
    mag = np.floor(np.log10(np.abs(np.where(arr == 0, 1.0, arr))))
    out = np.where(arr == 0, 10.0 ** (-sig), 10.0 ** (mag - sig + 1))
    return float(out) if out.ndim == 0 else out


def round_to_span(
    values: ArrayLike, span: float, sig: int
) -> tuple[np.ndarray, float, Callable[[np.ndarray], np.ndarray]]:
    """Round values to `sig` significant figures of `span` (a curve's resolution).

    A curve computed from records is rounded to one step for all its values,
    ``10**(floor(log10(span)) - sig + 1)`` (0.01 for a span of 2 at three
    figures), rather than each value to figures of its own, which would draw
    a staircase where the curve is far from zero and changes little.

    Parameters
    ----------
    values : array-like
        The curve's values.
    span : float
        The range of the variable (0, negative or not finite counts as 1).
    sig : int
        Significant figures of the span.

    Returns
    -------
    rounded : ndarray
    step : float
        The rounding step.
    settle : callable
        Rounds other values to the same step (for values moved by a step).

    Examples
    --------
    >>> rounded, step, _ = round_to_span([9.01234, 10.5678], span=2.0, sig=3)
    >>> rounded.tolist(), step
    ([9.01, 10.57], 0.01)
    """
    span = float(span) if np.isfinite(span) and span > 0 else 1.0
    step = float(10.0 ** (np.floor(np.log10(span)) - sig + 1))
    # the decimal places of the step, so that 10.57 is not 10.570000000000002
    decimals = max(0, int(-np.floor(np.log10(step))))

    def settle(v: np.ndarray) -> np.ndarray:
        return np.round(np.round(np.asarray(v, dtype=float) / step) * step, decimals)

    return settle(np.asarray(values, dtype=float)), step, settle


#: every bit of a double but its sign: its magnitude's bits
_MAGNITUDE_BITS = (1 << 63) - 1


def _bits_of(value: float) -> np.int64:
    """Return the bits of a non-negative double, an integer that orders as the number does."""
    return np.float64(value).view(np.int64)


def round_bits(values: ArrayLike, bits: int, floor: int | None = None) -> np.ndarray:
    """Round to `bits` significant binary digits, ties to even, ``-0.0`` as ``0.0``.

    Rounding to powers of two is exact, so every machine rounds the same
    double to the same result, which decimal rounding does not promise: the
    keys and seeds computed from data use it. A value below ``2**floor`` in
    magnitude is rounded as if it were of that magnitude, i.e. to an
    absolute step of ``2**(floor - bits)``: values near zero computed from
    larger ones (residuals, standardised values) carry errors of the larger
    ones' size, not of their own.

    Parameters
    ----------
    values : array_like
        Finite numbers (the largest doubles may round up to infinity).
    bits : int
        Significant bits kept, 2 to 52.
    floor : int, optional
        Binary exponent (as :func:`numpy.frexp` gives it) below which the
        step stays that of ``2**floor``.

    Returns
    -------
    ndarray
        float64, the shape of `values` (a 0-d array for a number).

    Examples
    --------
    >>> round_bits([1.0 / 3.0, -0.0, 1000.7], 4).tolist()
    [0.34375, 0.0, 1024.0]
    >>> round_bits([0.001, 3.3], 4, floor=2).tolist()
    [0.0, 3.25]
    """
    x = np.asarray(values, dtype=np.float64)
    if x.ndim == 0:
        return round_bits(x.reshape(1), bits, floor).reshape(())
    x = np.ascontiguousarray(x)
    if not 2 <= bits <= 52:  # one bit would round ties to an even exponent, not mantissa
        raise ValueError(f"bits must be from 2 to 52, got {bits}.")
    dropped = 53 - bits  # mantissa bits cleared
    raw = x.view(np.int64)
    # which values take another way, from their magnitudes' bits (a non-negative double's
    # bits order as the number does), in the array the rounding is then written to: at
    # millions of values new memory costs more than the arithmetic
    out = np.bitwise_and(raw, np.int64(_MAGNITUDE_BITS))
    tiny = np.finfo(np.float64).tiny
    under = None
    if floor is not None and -1074 <= floor - bits <= 969:
        under = out < _bits_of(math.ldexp(1.0, floor - 1))
        scaled = out < _bits_of(tiny)
        scaled &= ~under
    else:
        below = tiny if floor is None else max(math.ldexp(1.0, floor - 1), tiny)
        scaled = out < _bits_of(below)
    # a normal double at or above the floor, rounded on its bits: half a step less one plus
    # the last kept bit added to the magnitude (ties to even), the low bits cleared; a carry
    # moves into the exponent as it should. Four times as fast as scaling by powers of two.
    np.right_shift(raw, dropped, out=out)
    out &= 1
    out += (1 << (dropped - 1)) - 1
    out += raw
    out &= ~np.int64((1 << dropped) - 1)
    rounded = out.view(np.float64)
    # values below the floor to its step; subnormal values (fewer significant bits) and
    # steps near the ends of the doubles' range by scaling
    if under is not None and under.any():
        # to a multiple of 2**step: adding and taking away 1.5 * 2**(step + 52), whose
        # last bit is 2**step, rounds there (ties to even), as IEEE arithmetic does
        at = np.flatnonzero(under)  # positions in the flattened values
        magic = math.ldexp(1.5, floor - bits + 52)
        shifted = x.reshape(-1)[at] + magic
        shifted -= magic
        rounded.reshape(-1)[at] = shifted  # a view: both arrays are contiguous
    if scaled.any():
        rounded[scaled] = _round_bits_scaled(x[scaled], bits, floor)
    # no -0.0 is left: a zero, like any value below the smallest normal one, was rounded by
    # one of the two other ways, which both give 0.0; a normal value never rounds to zero
    return rounded


def _round_bits_scaled(values: np.ndarray, bits: int, floor: int | None = None) -> np.ndarray:
    """:func:`round_bits` by scaling each value by a power of two, rounding, scaling back."""
    _, exponent = np.frexp(values)  # values = mantissa * 2**exponent, mantissa in [0.5, 1)
    if floor is not None:
        np.maximum(exponent, floor, out=exponent)
    # in place (one float and one int array): the same operations as
    # ldexp(round(ldexp(values, bits - exponent)), exponent - bits)
    np.subtract(bits, exponent, out=exponent)
    digits = np.ldexp(values, exponent)
    np.round(digits, out=digits)
    np.negative(exponent, out=exponent)
    with np.errstate(over="ignore"):  # within a last bit of the largest double: inf
        np.ldexp(digits, exponent, out=digits)
    digits += 0.0
    return digits


def round_sig(
    x: ArrayLike, sig: int | None = None, *, policy: Policy | None = None
) -> float | np.ndarray:
    """Round to `sig` significant figures, elementwise.

    Parameters
    ----------
    x : array_like
        Numbers to round.
    sig : int, optional
        Number of significant figures, at least 1. Default: the policy's
        ``sig_figs`` (3).
    policy : Policy, optional
        Policy supplying the default `sig`. Default: the policy in force.

    Returns
    -------
    float or ndarray
        A float for scalar `x`, else a float64 array of the shape of `x`.
        Zero, NaN and infinities are returned unchanged, and so is
        everything when ``sig >= 17`` (float64 holds at most 17 significant
        figures).

    Raises
    ------
    TypeError
        If `x` is not numeric or `sig` is not an integer.
    ValueError
        If `sig` is less than 1.

    Notes
    -----
    The computation is vectorised: each value is scaled by a power of ten,
    rounded to an integer mantissa and scaled back. Powers of ten up to
    1e22 are exact in float64, so for magnitudes from about ``1e-22`` to
    ``1e22`` the result is exactly the float64 nearest to a decimal with
    `sig` significant figures; further out it can be off by about one unit
    in the last place. Halfway cases are rounded to even, as
    :func:`numpy.round` does; as most decimal fractions have no exact
    binary form, a value that *prints* as a tie (such as 9.995) may round
    either way. A value that rounds up past the largest float64 becomes
    infinite.

    Examples
    --------
    >>> round_sig(123456, 3)
    123000.0
    >>> round_sig(0.0012345, 3)
    0.00123
    >>> round_sig([-1234.5, 0.0, float("nan"), 2.718], 2)
    array([-1200. ,     0. ,     nan,     2.7])
    """
    if sig is None:
        sig = get_policy(policy).sig_figs
    sig = _check_sig(sig)
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("x must be numeric (a number or an array of numbers).") from None
    scalar = a.ndim == 0
    a = np.atleast_1d(a)
    result = a.copy()
    mask = np.isfinite(a) & (a != 0)
    # 17 significant figures identify every float64 exactly: nothing to round.
    if sig < 17 and mask.any():
        v = a[mask]
        with np.errstate(divide="ignore"):
            exponent = np.floor(np.log10(np.abs(v))).astype(np.int64)
        m, back = _round_at(v, sig - 1 - exponent)
        # log10 can land one below the true exponent next to a power of ten;
        # the rounded mantissa then has sig + 1 digits: redo those one place up.
        over = np.abs(m) >= _POW10[min(sig, 308)]
        if over.any():
            back[over] = _round_at(v[over], sig - 2 - exponent[over])[1]
        result[mask] = back
    return float(result[0]) if scalar else result


def _round_at(v: np.ndarray, decimals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Round `v` to `decimals` decimal places (negative: tens, hundreds, ...).

    Returns the integer mantissas (as floats) and the rounded values. For
    ``|decimals| <= 22`` the power of ten is exact and the scaling back is a
    single correctly rounded operation. Exponents above ``_MAX_STEP`` (only
    for subnormal inputs) are applied in two steps to avoid overflow.
    """
    e = np.abs(decimals)
    first = np.minimum(e, _MAX_STEP)
    p1 = _POW10[first]
    p2 = _POW10[e - first]  # 1.0 unless |decimals| > _MAX_STEP (subnormal inputs)
    up = decimals >= 0
    with np.errstate(over="ignore", under="ignore"):
        scaled = np.where(up, v * p1 * p2, v / p1 / p2)
        m = np.rint(scaled)
        back = np.where(up, m / p1 / p2, m * p1 * p2)
    return m, back


def safe_quantiles(
    values: ArrayLike,
    probs: ArrayLike,
    *,
    sig: int | None = None,
    policy: Policy | None = None,
) -> np.ndarray:
    """Return quantiles rounded to `sig` significant figures.

    Quantiles use numpy's default linear interpolation
    (:func:`numpy.quantile`, ``method="linear"``) along the first axis, and
    are then rounded with :func:`round_sig`. For O'Keefe's box plots,
    winsorise the data first with :func:`winsorize`.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, p)
        Finite numeric data; 2-D data give quantiles per column.
    probs : float or array_like of float
        Probabilities in [0, 1].
    sig : int, optional
        Significant figures, at least 1 and at most the policy's
        ``sig_figs``. Default: the policy's ``sig_figs`` (3).
    policy : Policy, optional
        Policy supplying and limiting `sig` and the minimum number of records
        (``threshold``). Default: the policy in force.

    Returns
    -------
    ndarray
        Rounded quantiles, shaped as :func:`numpy.quantile` shapes them with
        ``axis=0``: ``probs.shape + values.shape[1:]``.

    Raises
    ------
    DisclosureError
        If there are fewer records than the policy's ``threshold`` (a
        quantile of a handful of records is nearly an individual value), or
        `sig` is larger than the policy's ``sig_figs``.
    ValueError
        If `values` holds NaN or infinite values or is not 1-D or 2-D, or a
        probability is outside [0, 1].

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> safe_quantiles([1.25, 2.5, 3.75, 5.0, 6.25, 7.5], [0.25, 0.5, 0.75],
    ...                sig=2, policy=Policy())
    array([2.8, 4.4, 5.9])
    """
    policy = get_policy(policy)
    sig = policy.check_sig_figs(None if sig is None else _check_sig(sig))
    arr = finite_array(values, min_rows=1)
    if arr.shape[0] < policy.threshold:
        raise DisclosureError(
            f"Only {policy.describe_count(arr.shape[0])} records: quantiles need at least "
            f"threshold={policy.threshold} ({policy.source}). Combine groups or use more data."
        )
    try:
        p = np.asarray(probs, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("probs must be a number or an array of numbers in [0, 1].") from None
    if not (np.isfinite(p).all() and (p >= 0).all() and (p <= 1).all()):
        raise ValueError("probs must lie in [0, 1] (e.g. 0.25 for the lower quartile).")
    return np.asarray(round_sig(np.quantile(arr, p, axis=0), sig))
