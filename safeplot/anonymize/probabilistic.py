"""Probabilistic anonymisation by keyed Gaussian noise (Avraam et al.).

Each variable gets independent normal noise with mean zero and standard
deviation ``q`` times the variable's sample standard deviation (``ddof=1``),
following the "probabilistic anonymisation" of Avraam et al. (2021), section
3.4. With ``q = 0.25`` the noise SD is a quarter of the variable's SD and the
noise variance 6.25 % of its variance.

The noise is *keyed*: the random generator for a variable is seeded from an
HMAC-SHA256, under a secret key (see :mod:`safeplot.keys`), of a fingerprint
of the variable's values. Consequences:

* releasing the same data again gives exactly the same noise, so averaging
  many releases of one data set recovers nothing; renaming the column does
  not change the noise either (the name is not part of the seed);
* the fingerprint ignores row order and the noise is handed to records by
  their rank, so a shuffled copy of the data gets the same noise per record;
* releases at different ``q`` share a base noise at the custodian's
  ``q_min`` and differ only by independent top-ups, so combining them
  reveals no more than a release at ``q_min``;
* changing any value (by more than about one part in 1e9: the fingerprint
  rounds each value to 30 significant bits, so that the last bits of
  computed numbers, which differ between machines, do not change the noise)
  changes the noise of every record, and nobody without the key can
  regenerate (and subtract) the noise.

Note that DataSHIELD's ``noise=`` argument is a fraction of the *variance*,
not of the SD: DataSHIELD ``noise=0.25`` corresponds to ``q = 0.5`` here.

References
----------
.. [1] Avraam D, Wilson R, Butters O, Burton T, Nicolaides C, Jones E,
   Boyd A, Burton P. "Privacy preserving data visualizations." EPJ Data
   Science 10, 2 (2021). https://doi.org/10.1140/epjds/s13688-020-00257-4
"""

from __future__ import annotations

import hashlib
import math
import struct
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..errors import DisclosureError
from ..keys import SecretKey, check_key
from ..policy import Policy, custodian_policy, get_policy
from ._sorting import stable_sort
from .grids import as_sorted
from .statistics import round_bits

__all__ = ["add_keyed_noise", "noise_sd"]

#: Domain-separation tag of the seed derivation; change it only together with
#: a deliberate change of the noise stream.
_NOISE_TAG = b"safeplot-noise-v2"
#: Significant bits of each value that enter the fingerprint (about 9 decimal digits). Values
#: computed on two machines differ by up to about 1e-14 of their magnitude (a few tens of
#: units in the last place, e.g. standardised residuals through different BLAS kernels); a
#: boundary of this rounding falls between them for about one value in 1e5.
_FINGERPRINT_BITS = 30


def noise_sd(values: ArrayLike, q: float | None = None) -> float | np.ndarray:
    """Return the standard deviation of the noise for each variable: ``q * SD``.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, p)
        Finite data, at least two records.
    q : float, optional
        Noise level as a fraction of each variable's standard deviation.
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).

    Returns
    -------
    float or ndarray of shape (p,)
        ``q`` times the sample standard deviation (``ddof=1``) of each
        variable: a float for 1-D `values`, an array for 2-D.

    Raises
    ------
    ValueError
        For non-finite data, fewer than two records, or ``q`` not a positive
        finite number.

    Examples
    --------
    >>> noise_sd([1.0, 2.0, 3.0, 4.0, 5.0], q=0.5)
    0.7905694150420949
    """
    arr = finite_array(values, min_rows=2)
    q = float(get_policy().check_q(None) if q is None else q)
    if not np.isfinite(q) or q <= 0:
        raise ValueError(f"q must be a positive finite number, got {q}.")
    data = arr[:, None] if arr.ndim == 1 else arr
    sd = q * _column_sd(list(np.sort(data, axis=0).T))
    return float(sd[0]) if arr.ndim == 1 else sd


def _column_sd(ordered: Sequence[np.ndarray]) -> np.ndarray:
    """Sample SD (``ddof=1``) of each variable, from its sorted values (one array each).

    Each variable is reduced on its own so that its SD, and hence its noise,
    depends only on its own values: floating-point sums depend on the order
    of the terms, and neither row order nor the other columns may change it.
    """
    return np.array([column.std(ddof=1) for column in ordered])


def _kth_abs_nonzero(ordered: np.ndarray, k: int) -> float:
    """Return the `k`-th smallest (from 0) |value| among the non-zero values of sorted `ordered`.

    The absolute values of the negative values, read backwards, and the
    positive values are two sorted runs: a binary search for how many of the
    ``k + 1`` smallest come from the first finds it without copying either.
    """
    neg = int(np.searchsorted(ordered, 0.0, side="left"))  # -0.0 and 0.0 are zeros
    pos = int(np.searchsorted(ordered, 0.0, side="right"))
    n_neg, n_pos = neg, ordered.size - pos

    def a(i: int) -> float:  # the i-th smallest absolute value of a negative value
        return -float(ordered[neg - 1 - i])

    def b(i: int) -> float:  # the i-th smallest positive value
        return float(ordered[pos + i])

    lo, hi = max(0, k + 1 - n_pos), min(k + 1, n_neg)
    while lo < hi:  # the most values from the first run that still come before the rest
        mid = (lo + hi + 1) // 2
        if k + 1 - mid == n_pos or a(mid - 1) <= b(k + 1 - mid):
            lo = mid
        else:
            hi = mid - 1
    taken = k + 1 - lo
    return max(a(lo - 1) if lo > 0 else -math.inf, b(taken - 1) if taken > 0 else -math.inf)


def _floor(ordered: np.ndarray) -> int | None:
    """Binary exponent of the typical magnitude of sorted `ordered`, None if every value is 0.

    The typical magnitude is the median of the non-zero absolute values (as
    :func:`numpy.median` computes it), rounded to ``_FINGERPRINT_BITS`` significant bits; its
    exponent is the floor below which :func:`_rounded` rounds to an absolute
    step.
    """
    m = ordered.size - (
        int(np.searchsorted(ordered, 0.0, side="right"))
        - int(np.searchsorted(ordered, 0.0, side="left"))
    )
    if m == 0:
        return None
    if m % 2:
        median = _kth_abs_nonzero(ordered, m // 2)
    else:  # the mean of the two middle values, as numpy.median takes it
        median = (_kth_abs_nonzero(ordered, m // 2 - 1) + _kth_abs_nonzero(ordered, m // 2)) / 2
    _, floor = np.frexp(round_bits(median, _FINGERPRINT_BITS))
    return int(floor)


def _rounded(column: np.ndarray) -> np.ndarray:
    """Return the values of one variable as the fingerprint and the ranks see them.

    Each value keeps ``_FINGERPRINT_BITS`` significant bits (about 9
    significant digits), and values much smaller than the variable's typical
    magnitude (the median of its non-zero absolute values) are rounded to
    ``2**-_FINGERPRINT_BITS`` of that magnitude instead. Computed values near
    zero (residuals, differences) carry errors of the size of the numbers they
    were computed from, not of their own size, so their own significant
    digits would not be stable across machines; a step relative to the median
    is, and no single large value (an outlier) coarsens it.
    """
    return round_bits(column, _FINGERPRINT_BITS, _floor(as_sorted(column)))


def _fingerprint(column: np.ndarray, rounded: np.ndarray | None = None) -> bytes:
    """SHA-256 of the sorted values, rounded as by ``_rounded`` (little-endian float64).

    Sorting makes the fingerprint independent of row order. Rounding to 30
    significant bits (about 9 significant decimal digits, far above
    floating-point noise; values near zero to the same step relative to the
    variable's median magnitude) makes it independent of the last bits of the
    values: numbers computed on another machine (another BLAS kernel, another
    order of summation) differ there and must get the same noise, so that the
    same script gives the same figure everywhere.

    Any value changed by more than about one part in ``1e9`` (of itself, or
    of the median magnitude for values near zero), and any value added or
    removed, changes the fingerprint and hence every draw: a transformed copy
    of the data does not share the noise of the original.
    """
    # the caller's column is sorted already, and rounding keeps the order: no second sort
    # (`rounded`: the caller's ``_rounded(column)``)
    rounded = _rounded(column) if rounded is None else rounded
    data = np.ascontiguousarray(as_sorted(rounded).astype("<f8", copy=False))
    return hashlib.sha256(memoryview(data).cast("B")).digest()  # its bytes, not copied


def _seed_message(stream: bytes, fingerprint: bytes) -> bytes:
    return _NOISE_TAG + len(stream).to_bytes(8, "big") + stream + fingerprint


def _stream(key: SecretKey, stream: bytes, fingerprint: bytes, n: int) -> np.ndarray:
    """Return `n` standard normal draws from the keyed stream `stream` of one variable."""
    digest = key.digest(_seed_message(stream, fingerprint))
    return np.random.Generator(np.random.PCG64(int.from_bytes(digest, "big"))).standard_normal(n)


def _keyed_normal(
    key: SecretKey, fingerprint: bytes, n: int, q: float, q_ref: float
) -> np.ndarray:
    """Return keyed noise with SD `q` (in units of the variable's SD), nested across `q`.

    For ``q >= q_ref`` the noise is ``q_ref * e0 + sqrt(q**2 - q_ref**2) * e_q``:
    ``e0`` is shared by every release of the variable and ``e_q`` is drawn
    afresh for each ``q``. Combining releases at different ``q`` can then
    cancel at most the top-up terms, never ``e0``: the best an attacker can
    reach is the release at ``q_ref`` (the custodian's ``q_min``), which the
    policy allows anyway. Were the draws simply scaled by ``q``, two releases
    at different ``q`` would solve exactly for the raw values.
    """
    if q < q_ref:  # only possible under a loosened, unlocked policy
        return q * _stream(key, b"q" + struct.pack(">d", q), fingerprint, n)
    noise = q_ref * _stream(key, b"base", fingerprint, n)
    if q > q_ref:
        top_up = math.sqrt(q * q - q_ref * q_ref)
        noise += top_up * _stream(key, b"q" + struct.pack(">d", q), fingerprint, n)
    return noise


def _dense_rank(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Return each value's rank among the distinct values (0, 1, ...) and their number.

    Equal values (``-0.0`` and ``0.0`` among them) share a rank; the order of
    the ranks is the order of the values.
    """
    order = np.argsort(values)
    ordered = values[order]
    starts = np.empty(ordered.size, dtype=bool)
    starts[:1] = True
    np.not_equal(ordered[1:], ordered[:-1], out=starts[1:])
    ranks = np.empty(values.size, dtype=np.int64)
    ranks[order] = np.cumsum(starts) - 1
    return ranks, max(int(np.count_nonzero(starts)), 1)


def _ranks(
    arr: np.ndarray,
    j: int,
    floors: Sequence[int | None] | None = None,
    order: np.ndarray | None = None,
    ordered: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Row indices sorted by column `j`, ties broken by the other columns; column `j` sorted.

    A stable sort of the values rounded as in the fingerprint: column `j`
    first, then the other columns in column order. The assignment of noise to
    records then depends on neither the last bits of the values (a value
    computed on another machine, or by another code path on this one, may
    differ there from one that is mathematically equal) nor on row order,
    unless two records agree to about 9 significant digits in every column:
    those keep their row order, and swapping their noise changes nothing
    visible. `floors`: each column's :func:`_floor`; `order`: row indices
    that sort column `j` (rounding keeps the order of values, so they sort
    the rounded values too); `ordered`: column `j` in that order; each if
    the caller has it. The second array returned is column `j` rounded and
    sorted, which the fingerprint hashes.
    """
    p = arr.shape[1]
    if floors is None:
        floors = [_floor(np.sort(arr[:, i])) for i in range(p)]
    if order is None:
        # the order of records tied on column j is made canonical below
        order, ordered = stable_sort(np.ascontiguousarray(arr[:, j]))
    elif ordered is None:
        ordered = arr[order, j]
    ranked = round_bits(ordered, _FINGERPRINT_BITS, floors[j])  # sorted: rounding keeps order
    # the other columns matter only among records tied on column j: sort just those (a
    # lexsort of every record by all columns costs ten times as much), by the tied value,
    # then the other columns in column order, then row (the order np.lexsort gives)
    tied = ranked[1:] == ranked[:-1]
    if not tied.any():
        return order, ranked
    order = order.copy()  # the caller's order is left as it is
    rows = np.flatnonzero(np.r_[tied, False] | np.r_[False, tied])
    # the run of each tied row: the number of runs started up to it (a cumulative sum of
    # the starts, taken at the tied rows only)
    run = np.searchsorted(np.flatnonzero(np.r_[True, ~tied]), rows, side="right")
    sub = order[rows]
    # the order np.lexsort([sub, *reversed(others), run]) gives, from one sort of integers
    # (of finite values: add_keyed_noise refuses NaN first, which would rank apart here):
    # each key as its dense rank, the ranks combined into one number, then the row
    key = run.astype(np.int64)
    limit = 2**62 // max(arr.shape[0], 1)
    for i in range(p):
        if i == j:
            continue
        dense, size = _dense_rank(round_bits(arr[sub, i], _FINGERPRINT_BITS, floors[i]))
        if int(key.max()) >= limit // size:
            key, _ = _dense_rank(key)
        key = key * size + dense
    if int(key.max()) >= limit:
        key, _ = _dense_rank(key)
    order[rows] = sub[np.argsort(key * arr.shape[0] + sub)]  # every number differs
    return order, ranked


def add_keyed_noise(
    values: ArrayLike,
    q: float | None = None,
    *,
    names: Sequence[str] | None = None,
    key: SecretKey | None = None,
    policy: Policy | None = None,
    _work: dict[str, list] | None = None,
) -> np.ndarray:
    r"""Add keyed normal noise with SD ``q * SD_j`` to each variable.

    Probabilistic anonymisation of Avraam et al. [1]_: variable ``j`` gets
    independent noise drawn from :math:`N(0, (q s_j)^2)`, with
    :math:`s_j` its sample standard deviation (``ddof=1``, computed from the
    sorted values so that row order cannot change it). With the default
    ``q = 0.25`` the noise variance is 6.25 % of the variable's variance.

    The noise of variable ``j`` is :math:`s_j (q_0 e_0 + \sqrt{q^2 - q_0^2}\, e_q)`
    with :math:`q_0` the custodian's ``q_min`` (see
    :func:`safeplot.policy.custodian_policy`); :math:`e_0` and :math:`e_q` are
    standard normal streams from ``np.random.Generator(np.random.PCG64(seed))``,
    ``seed`` the HMAC-SHA256, under `key`, of a version tag, a stream label
    (``b"base"``, or ``b"q"`` and ``q`` as a big-endian double) and a SHA-256
    fingerprint of the variable's sorted values, each rounded to 30
    significant bits (about 9 significant digits; values much smaller than
    the median of the variable's non-zero absolute values to the step of
    that median, as computed values near zero carry the absolute errors of
    the numbers they came from). The shared :math:`e_0`
    means releases at several ``q`` cannot be combined to cancel the noise.
    The noise vector is assigned to records in rank order of the variable's
    rounded values (a stable sort; records tied on it are ordered by the
    other variables, rounded), so:

    * the same data and key always give the same output, whatever the names;
    * permuting the rows of `values` permutes the output in the same way
      (two records that agree to about 9 significant digits in every
      variable may swap their noise);
    * values that differ only in their last bits, as numbers computed on two
      machines do, get the same noise: the same script gives the same figure
      everywhere;
    * changing any value of a variable by more than about one part in
      ``1e9`` changes the noise of every record of that variable, and so
      does a different key.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, p)
        Finite numeric data with at least two records (clean it first, e.g.
        with :func:`safeplot._validate.clean_numeric`).
    q : float, optional
        Noise level as a fraction of each variable's standard deviation. It
        must be at least the policy floor ``q_min``. DataSHIELD's ``noise=``
        argument is a fraction of the *variance* instead: DataSHIELD
        ``noise=0.25`` is about ``q=0.5`` here.
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    names : sequence of str, optional
        Distinct variable names, one per column, used in messages. They do
        not enter the seed: renaming a column must not re-draw its noise.
        Default ``"x0", "x1", ...``.
    key : SecretKey, optional
        Key seeding the noise. Default: ``policy.key`` (the custodian's key,
        else ``SAFEPLOT_SECRET``, else the per-user key file).
    policy : Policy, optional
        Policy to check `q` against. Default: the policy in force
        (:func:`safeplot.policy.get_policy`).

    Returns
    -------
    ndarray
        A new float64 array with the shape of `values`: the values plus noise.

    Raises
    ------
    DisclosureError
        If `q` is below the policy floor ``q_min``, or a variable is constant
        (its one value cannot be hidden by noise proportional to its SD).
    ValueError
        If `values` is not 1-D or 2-D, has fewer than two records, or holds
        NaN or infinite values; if `q` is not a positive finite number; or if
        `names` has the wrong length or repeats a name.
    TypeError
        If `values` is not numeric, a name is not a string, or `key` is not a
        :class:`~safeplot.keys.SecretKey`.

    See Also
    --------
    noise_sd : The noise SD of each variable.
    safeplot.anonymize.deterministic.knn_centroids : Deterministic anonymisation.

    Notes
    -----
    Noise with ``q > 1`` hides most of the correlation between variables [1]_.
    Keying the noise to the data means a re-release of identical data adds
    no information; it does not protect against releases of *different*
    data sets that share records, which get independent noise. Conversely,
    a copy whose values all differ by less than the fingerprint's rounding
    (about one part in 1e9) draws the same noise, as it must for the same
    script to give the same figure on every machine.

    References
    ----------
    .. [1] Avraam D, Wilson R, Butters O, Burton T, Nicolaides C, Jones E,
       Boyd A, Burton P. "Privacy preserving data visualizations." EPJ Data
       Science 10, 2 (2021). https://doi.org/10.1140/epjds/s13688-020-00257-4

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.keys import SecretKey
    >>> key = SecretKey("example", source="example")
    >>> x = np.array([3.1, 4.7, 5.0, 5.2, 6.8, 7.4])
    >>> noisy = add_keyed_noise(x, q=0.25, key=key)
    >>> noisy.shape
    (6,)
    >>> bool(np.array_equal(noisy, add_keyed_noise(x, q=0.25, key=key)))
    True

    Re-ordering the records re-orders the output the same way:

    >>> perm = np.array([5, 0, 3, 1, 4, 2])
    >>> bool(np.array_equal(add_keyed_noise(x[perm], q=0.25, key=key), noisy[perm]))
    True
    """
    policy = get_policy(policy)
    q = policy.check_q(q)
    arr = finite_array(values, min_rows=2)
    one_dim = arr.ndim == 1
    data = arr[:, None] if one_dim else arr
    n, p = data.shape

    if names is None:
        names = [f"x{j}" for j in range(p)]
    elif isinstance(names, str):
        names = [names]
    names = list(names)
    if len(names) != p:
        raise ValueError(
            f"names has {len(names)} entries but values has {p} variable(s); "
            "give one name per column."
        )
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"Variable names must be strings, got {type(name).__name__}.")
    if len(set(names)) != p:
        repeated = sorted({name for name in names if names.count(name) > 1})
        raise ValueError(f"Variable names must be distinct; repeated: {repeated}.")

    # one sort of each variable (a column of its own, not a strided view) gives its sorted
    # values (the SD, the ledger's keys, the rare values), its typical magnitude (the
    # rounding's floor) and, made canonical among ties in the rounding, its rank order
    columns = [np.ascontiguousarray(data[:, j]) for j in range(p)]
    sorts, ordered = map(list, zip(*map(stable_sort, columns), strict=True))
    floors = [_floor(column) for column in ordered]
    ranks = [_ranks(data, j, floors, sorts[j], ordered[j]) for j in range(p)]
    orders = [order for order, _ in ranks]
    sd = _column_sd(ordered)
    constant = [name for name, s in zip(names, sd, strict=True) if not s > 0]
    if constant:
        raise DisclosureError(
            f"Variable(s) {constant} are constant: noise proportional to the SD would be zero "
            "and release their one value exactly. Drop them or choose other variables."
        )

    key = policy.key if key is None else check_key(key)

    q_ref = custodian_policy().q_min
    out = np.empty((p, n))  # a row per variable: each written in one contiguous block
    fingerprints = [_fingerprint(ordered[j], ranked) for j, (_, ranked) in enumerate(ranks)]
    del ranks
    for j in range(p):
        noise = _keyed_normal(key, fingerprints[j], n, q, q_ref) * sd[j]
        order = orders[j]
        # the values in rank order: those sorted already, but for records tied in the
        # rounding that the rank order put in another order
        if order is sorts[j]:
            noise += ordered[j]
        else:
            moved = np.flatnonzero(order != sorts[j])
            in_rank_order = ordered[j].copy()
            in_rank_order[moved] = columns[j][order[moved]]
            noise += in_rank_order
        out[j, order] = noise
    if _work is not None:  # what the caller would otherwise compute again (ledger, rare values)
        _work["sorted"] = ordered
        _work["orders"] = sorts
        _work["fingerprints"] = fingerprints
        _work["columns"] = columns
    return out[0] if one_dim else out.T
