"""Disclosure-control numerics: numbers in, numbers out (no plotting here).

Each function takes plain arrays and the policy in force, and returns arrays:

- :func:`knn_centroids` — deterministic kNN-centroid anonymisation (Avraam et al.);
- :func:`add_keyed_noise` — probabilistic anonymisation with keyed noise (Avraam et al.);
- :func:`suppress`, :func:`generalize` — small-cell suppression and generalisation;
- :func:`safe_edges`, :func:`safe_ticks`, :func:`rare_values` — grids that reveal no raw value;
- :func:`winsorize`, :func:`round_sig`, :func:`safe_quantiles` — O'Keefe's confidentialisation;
- :func:`microaggregate` (MDAV, V-MDAV, optimal univariate) and :func:`discretize`
  (equal-width, equal-frequency, k-means, resampling-based rounding) — Senavirathne & Torra;
- :func:`anonymize_values` — one entry point for the methods that move individual values,
  with :func:`method_options` to set microaggregation's and rounding's parameters for a block.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..policy import Policy, get_policy
from .deterministic import DeterministicResult, knn_centroids
from .discretize import DISCRETIZERS, DiscretizeResult, discretize, fd_bins
from .grids import (
    RareValues,
    grid_counts,
    histogram_counts,
    hit_mask,
    nice_step,
    rare_values,
    safe_edges,
    safe_ticks,
)
from .microaggregation import MicroaggregationResult, microaggregate
from .probabilistic import add_keyed_noise, noise_sd
from .statistics import WinsorResult, round_sig, safe_quantiles, winsorize
from .suppression import SuppressedCounts, coarsen_counts, coarsen_edges, generalize, suppress

__all__ = [
    "DISCRETIZERS",
    "VALUE_METHODS",
    "AnonymizedValues",
    "DeterministicResult",
    "DiscretizeResult",
    "MicroaggregationResult",
    "SuppressedCounts",
    "WinsorResult",
    "add_keyed_noise",
    "anonymize_values",
    "coarsen_counts",
    "coarsen_edges",
    "discretize",
    "fd_bins",
    "generalize",
    "grid_counts",
    "histogram_counts",
    "knn_centroids",
    "method_options",
    "microaggregate",
    "nice_step",
    "noise_sd",
    "rare_values",
    "round_sig",
    "safe_edges",
    "safe_quantiles",
    "safe_ticks",
    "suppress",
    "winsorize",
]

#: Methods that release modified individual values (rather than counts).
VALUE_METHODS = ("deterministic", "probabilistic", "confidential", "microaggregation", "rounding")

#: Defaults of the parameters of microaggregation and rounding.
# A plot releases whole records (a point is its x and y together), so its microaggregation
# groups whole records: MDAV of one column at a time would leave each point next to its own
# record (distance-based linkage of 0.96 against 0.31 on a k = 3 scatter plot). For one
# variable the two are the same partition.
_OPTION_DEFAULTS: dict[str, Any] = {
    "algorithm": "mdav_multivariate",
    "c": 10,
    "discretizer": "ewd",
}
_OPTIONS: ContextVar[Mapping[str, Any]] = ContextVar(
    "safeplot_method_options", default=MappingProxyType({})
)


@contextlib.contextmanager
def method_options(
    *, algorithm: str | None = None, c: int | str | None = None, discretizer: str | None = None
) -> Iterator[dict[str, Any]]:
    """Set the parameters of ``"microaggregation"`` and ``"rounding"`` within a block.

    The plot functions take ``algorithm=``, ``c=`` and ``discretizer=`` and
    apply them through this; it can also be used around any call that
    releases values. Options left as None keep their current value.

    Parameters
    ----------
    algorithm : str, optional
        Microaggregation algorithm of
        :func:`~safeplot.anonymize.microaggregation.microaggregate` (default
        ``"mdav_multivariate"``: groups of whole records, so that a released
        point is a group's mean point; ``"mdav"``, ``"vmdav"`` and
        ``"optimal"`` work one variable at a time, as Senavirathne & Torra,
        which keeps more of each variable but lets each point stay close to
        its own record; ``"vmdav_multivariate"`` groups whole records with
        variable group sizes).
    c : int or "fd", optional
        Number of representative values of rounding (default 10; "fd":
        Freedman-Diaconis).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, optional
        How rounding forms its intervals (default "ewd").

    Yields
    ------
    dict
        The options in force inside the block.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(60.0)
    >>> with method_options(c=4, discretizer="efd"):
    ...     out = anonymize_values(x, "rounding")
    >>> len(np.unique(out.values)), out.params["discretizer"]
    (4, 'efd')
    """
    given = {"algorithm": algorithm, "c": c, "discretizer": discretizer}
    token = _OPTIONS.set({**_OPTIONS.get(), **{k: v for k, v in given.items() if v is not None}})
    try:
        yield {**_OPTION_DEFAULTS, **_OPTIONS.get()}
    finally:
        _OPTIONS.reset(token)


@dataclass(frozen=True)
class AnonymizedValues:
    """Values released by a value-level method, with what the report needs.

    Attributes
    ----------
    values : ndarray, shape (n, p)
        The released values, row for row with the input.
    params : dict
        The method's parameters as applied.
    details : dict
        Facts for the report (coinciding centroids, values winsorised, ...).
    coincident : ndarray of bool or None
        Records sharing their released value with another (deterministic only).
    """

    values: np.ndarray
    params: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    coincident: np.ndarray | None = None


def anonymize_values(
    values: ArrayLike,
    method: str,
    *,
    names: list[str] | tuple[str, ...] | None = None,
    k: int = 3,
    q: float = 0.25,
    metric: str = "euclidean",
    strata: ArrayLike | None = None,
    threshold: int | None = None,
    policy: Policy | None = None,
    _rare: list[Any] | None = None,
) -> AnonymizedValues:
    """Apply a value-level disclosure-control method to a matrix of records.

    Parameters
    ----------
    values : array-like, shape (n, p)
        Complete, finite numeric records.
    method : {"deterministic", "probabilistic", "confidential", "microaggregation", "rounding"}
        kNN centroids, keyed noise, O'Keefe's winsorising, group means
        (parameters ``k`` and the ``algorithm`` of :func:`method_options`), or
        rounding to representative values (``c`` and ``discretizer``).
    names : sequence of str, optional
        Variable names (they seed the keyed noise).
    k : int, default 3
        Records per centroid (deterministic).
    q : float, default 0.25
        Noise SD as a fraction of each variable's SD (probabilistic).
    metric : str, default "euclidean"
        Neighbour distance (deterministic).
    strata : array-like, optional
        Category per record; the deterministic search and microaggregation's
        groups run within each.
    threshold : int, optional
        Records a raw value needs not to be rare (default: the policy's);
        no released value equals a rarer raw value. At least the policy's
        ``threshold``.
    policy : Policy, optional
        The policy whose floors apply (default: the policy in force).

    Returns
    -------
    AnonymizedValues

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=(50, 2))
    >>> out = anonymize_values(x, "deterministic", k=3)
    >>> out.values.shape, out.params
    ((50, 2), {'k': 3, 'metric': 'euclidean'})
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    x = finite_array(values)
    if x.ndim == 1:
        x = x[:, None]
    if method == "deterministic":
        res = knn_centroids(x, k, metric=metric, strata=strata, policy=pol)
        return AnonymizedValues(
            res.values,
            {"k": res.k, "metric": res.metric},
            {"coincident_centroids": pol.round_count(res.n_coincident)},
            res.coincident,
        )
    if method == "probabilistic":
        ordered: list[np.ndarray] = []
        noisy = add_keyed_noise(
            x, q, names=list(names) if names else None, policy=pol, _sorted=ordered
        )
        # the rare values of a sorted column are listed without sorting it again
        listed = None
        if len(ordered) == x.shape[1]:
            listed = [rare_values(column, threshold) for column in ordered]
            given = _rare if _rare and len(_rare) == x.shape[1] else [None] * x.shape[1]
            for j, rare in enumerate(given):
                if isinstance(rare, RareValues) and rare.describes(x[:, j], threshold):
                    rare.use_sorted(ordered[j])
        return AnonymizedValues(
            _off_rare_values(noisy, x, threshold, _rare, listed=listed), {"q": float(q)}
        )
    if method == "confidential":
        res = winsorize(x, policy=pol)
        return AnonymizedValues(
            res.values,
            {"winsor_sd": res.sd},
            {"values_winsorised": pol.round_count(res.n_winsorized)},
        )
    options = {**_OPTION_DEFAULTS, **_OPTIONS.get()}
    if method == "microaggregation":
        # groups are formed within each stratum (hue level), as deterministic's neighbours are
        codes = np.zeros(x.shape[0], dtype=int) if strata is None else np.asarray(strata)
        out = np.empty_like(x)
        n_groups = 0
        for code in np.unique(codes):
            rows = codes == code
            mres = microaggregate(x[rows], k, options["algorithm"], policy=pol)
            out[rows] = mres.values
            n_groups += mres.n_groups
        return AnonymizedValues(
            _off_rare_values(out, x, threshold, _rare),
            {"k": int(k), "algorithm": options["algorithm"]},
            {"groups": pol.round_count(n_groups)},
        )
    if method == "rounding":
        # each variable is rounded as a whole: its representatives are shared by all levels
        dres = discretize(x, options["c"], options["discretizer"], policy=pol)
        return AnonymizedValues(
            _off_rare_values(
                np.asarray(dres.values, dtype=float).reshape(x.shape), x, threshold, _rare
            ),
            {"c": options["c"], "discretizer": dres.discretizer},
            {"small_intervals_merged": pol.round_count(dres.small_intervals)},
        )
    raise ValueError(
        f"method={method!r} does not release individual values; value methods are "
        f"{list(VALUE_METHODS)}."
    )


def _off_rare_values(
    released: np.ndarray,
    raw: np.ndarray,
    threshold: int,
    rare: list[Any] | None = None,
    *,
    listed: list[np.ndarray] | None = None,
) -> np.ndarray:
    """Move released values that happen to equal a rare raw value by 1e-6 of the column's SD.

    A group mean or interval mean can coincide with one record's value (means
    of integers are often integers), and a noisy value can land on another
    record's value; drawn, it would show that value. The shift is far below
    what a figure resolves, and a reader has no reference to measure it
    against, since the true value is not shown anywhere. `rare` holds the
    rare values of each column of `raw` at `threshold` when the caller has
    them already (a :class:`~safeplot.anonymize.grids.RareValues` of that
    column, whose list is then made once for both); `listed` holds them as
    this module listed them from the sorted columns.
    """
    out = np.array(released, dtype=float, copy=True)
    for j in range(out.shape[1]):
        avoid = listed[j] if listed is not None else _given_rare(rare, j, raw, threshold)
        out[:, j] = off_rare(out[:, j], avoid, np.std(raw[:, j]))
    return out


def _given_rare(rare: list[Any] | None, j: int, raw: np.ndarray, threshold: int) -> Any:
    """Return the rare values of column `j` of `raw`: the caller's, if they are of it."""
    given = None if rare is None or len(rare) != raw.shape[1] else rare[j]
    if isinstance(given, RareValues) and given.describes(raw[:, j], threshold):
        return given
    return rare_values(raw[:, j], threshold)


def off_rare(values: ArrayLike, avoid: ArrayLike, scale: float) -> np.ndarray:
    """Move each value equal to one in `avoid` up by ``1e-6 * scale`` until none is.

    Every value is checked once; after that only the values just moved can
    equal one in `avoid`, so only those are checked again (the values that
    did not move are still clear).

    Parameters
    ----------
    values : array-like
        Released values.
    avoid : array-like
        Values none may equal (relative 1e-9), e.g. :func:`rare_values` of the raw data.
    scale : float
        The spread of the variable (its SD); 0 moves by 1e-6.

    Returns
    -------
    ndarray
        A new float array: `values`, those on a value of `avoid` moved.

    Examples
    --------
    >>> off_rare([1.0, 2.0, 3.0], avoid=[2.0], scale=1.0)
    array([1.      , 2.000001, 3.      ])
    """
    out = np.array(values, dtype=float, copy=True)
    step = 1e-6 * (float(scale) or 1.0)
    flat = out.reshape(-1)
    moved = np.flatnonzero(hit_mask(flat, avoid))
    for _ in range(100):
        if moved.size == 0:
            break
        flat[moved] += step
        moved = moved[hit_mask(flat[moved], avoid)]
    return out
