"""Disclosure-control methods: one module per method, and the registry ``method=`` reads.

Each method is a :class:`Method` object that declares what it can release
(individual values, counts, rule-based summaries), whether it groups within
strata, the fewest records a group needs, and how it applies. The plot functions ask the method,
never its name, so a new method is one module here (plus its floor in the
policy when it has a new one)::

    suppress          small-cell suppression                 (counts)
    generalize        wider bins, merged categories          (counts)
    deterministic     kNN centroids (Avraam et al.)          (values)
    probabilistic     keyed noise (Avraam et al.)            (values)
    confidential      O'Keefe's rules                        (values, summaries)
    microaggregation  group means (Senavirathne & Torra)     (values)
    rounding          interval representatives (S & T)       (values)
    dp                differentially private counts (OpenDP)  (private: histograms, counts,
                                                             bar means, KM curves)
    none              the raw plot (needs allow_raw)

``method=`` takes a name or a method object, e.g.
``method=Microaggregation(k=5, algorithm="mdav")``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..policy import Policy, get_policy
from ._base import (
    AnonymizedValues,
    Method,
    ValueContext,
    available_methods,
    check_family,
    get_method,
    refuse_unsupported,
    register,
)
from .confidential import Confidential
from .deterministic import Deterministic
from .dp import DifferentialPrivacy
from .generalize import Generalize
from .microaggregation import Microaggregation
from .none import NoControl
from .probabilistic import Probabilistic
from .rounding import Rounding
from .suppress import Suppress

__all__ = [
    "AnonymizedValues",
    "Confidential",
    "Deterministic",
    "DifferentialPrivacy",
    "Generalize",
    "Method",
    "Microaggregation",
    "NoControl",
    "Probabilistic",
    "Rounding",
    "Suppress",
    "ValueContext",
    "anonymize_values",
    "available_methods",
    "check_family",
    "get_method",
    "method_options",
    "refuse_unsupported",
    "register",
]

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
    releases values. Options left as None keep their current value. A
    method object (``Rounding(c=4)``) carries its own and needs none of this.

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


def anonymize_values(
    values: ArrayLike,
    method: str | Method,
    *,
    names: list[str] | tuple[str, ...] | None = None,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    strata: ArrayLike | None = None,
    threshold: int | None = None,
    policy: Policy | None = None,
    off_rare: bool = True,
    _rare: list[Any] | None = None,
) -> AnonymizedValues:
    """Apply a value-level disclosure-control method to a matrix of records.

    Parameters
    ----------
    values : array-like, shape (n, p)
        Complete, finite numeric records.
    method : str or Method
        A method that moves values: ``"deterministic"`` (kNN centroids),
        ``"probabilistic"`` (keyed noise), ``"confidential"`` (O'Keefe's
        winsorising), ``"microaggregation"`` (group means: ``k`` and the
        ``algorithm`` of :func:`method_options`), ``"rounding"``
        (representative values: ``c`` and ``discretizer``), or a registered
        method object. A method object's own parameters take the place of
        the keywords here.
    names : sequence of str, optional
        Variable names (they seed the keyed noise).
    k : int, optional
        Records per centroid or group; default the policy's ``k_min`` (3
        unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (probabilistic); default
        the policy's ``q_min`` (0.25 unless the custodian sets more).
    metric : str, default "euclidean"
        Neighbour distance (deterministic).
    strata : array-like, optional
        Category per record; methods that group within strata
        (:attr:`Method.groups_within_strata`) form their groups within each.
    threshold : int, optional
        Records a raw value needs not to be rare (default: the policy's);
        no released value equals a rarer raw value. At least the policy's
        ``threshold``.
    policy : Policy, optional
        The policy whose floors apply (default: the policy in force).
    off_rare : bool, default True
        Move each released value that equals a rare raw value off it. False
        when the caller only counts the values (histogram bins, grid cells:
        they are never drawn), or moves them off itself against a longer
        list (a box plot, against the values rare within each box too): the
        step costs a search per record.

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
    m = get_method(method)
    x = finite_array(values)
    if x.ndim == 1:
        x = x[:, None]
    own = m.get_params()
    options = {**_OPTION_DEFAULTS, **_OPTIONS.get()}
    options.update({n: v for n, v in own.items() if n in options})
    return m.anonymize(
        x,
        ValueContext(
            threshold=threshold,
            policy=pol,
            options=MappingProxyType(options),
            k=own.get("k", k),
            q=own.get("q", q),
            metric=metric,
            names=list(names) if names else None,
            strata=None if strata is None or not m.groups_within_strata else np.asarray(strata),
            rare=_rare,
            off_rare=bool(off_rare),
        ),
    )
