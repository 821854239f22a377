"""The method base class and the registry that maps ``method=`` names to methods.

A method says *how* a release is made safe; a plot says *what* is shown. The
plots never compare method names: they ask the method what it can do
(:attr:`Method.moves_values`, :attr:`Method.counts_only`, ...), take its
minimum group size, and hand it values or counts to make safe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .. import policy as _policy
from ..policy import Policy, get_policy

__all__ = [
    "AnonymizedValues",
    "Method",
    "ValueContext",
    "available_methods",
    "check_family",
    "get_method",
    "refuse_unsupported",
    "register",
    "release_representatives",
]


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
        Records sharing their released value with another (kNN centroids only).
    """

    values: np.ndarray
    params: dict[str, Any]
    details: dict[str, Any] = field(default_factory=dict)
    coincident: np.ndarray | None = None


@dataclass(frozen=True)
class ValueContext:
    """What a value method is given besides the values: the call's parameters and the policy.

    Attributes
    ----------
    threshold : int
        Records a raw value needs not to be rare; no released value may equal a rarer one.
    policy : Policy
        The policy whose floors apply.
    options : Mapping
        ``algorithm``, ``c`` and ``discretizer`` in force.
    k : int, optional
        Records per centroid or group; default (None) the policy's ``k_min``.
    q : float, optional
        Noise SD as a fraction of each variable's SD; default (None) the
        policy's ``q_min``.
    metric : str
        Neighbour distance.
    names : list of str or None
        Variable names (they seed the keyed noise).
    strata : ndarray or None
        Category per record, given only to methods that group within strata.
    rare : list or None
        The rare raw values of each column, when the caller has them.
    off_rare : bool
        Move released values off the rare raw values (False: the caller
        counts them only, or moves them off itself).
    """

    threshold: int
    policy: Policy
    options: Mapping[str, Any]
    k: int | None = None
    q: float | None = None
    metric: str = "euclidean"
    names: list[str] | None = None
    strata: np.ndarray | None = None
    rare: list[Any] | None = None
    off_rare: bool = True

    def __post_init__(self) -> None:
        # None is the policy's floor: the methods and their reports see the value used
        if self.k is None:
            object.__setattr__(self, "k", self.policy.check_k(None))
        if self.q is None:
            object.__setattr__(self, "q", self.policy.check_q(None))


class Method:
    """A disclosure-control method: what it releases, and how it applies.

    Subclasses set the class attributes below, implement :meth:`anonymize`
    when they move values (the plots suppress or coarsen counts themselves
    for methods of counts), and :func:`register` an instance. Parameters are
    given to the constructor, as in scikit-learn; a plot unpacks them into
    its own keywords, where the policy's floors are checked.

    Attributes
    ----------
    name : str
        The value of ``method=`` that selects the method.
    summary : str
        One line for the documentation and error messages.
    raw : bool
        Draws the data as it is (``"none"``).
    moves_values : bool
        Releases modified individual values (points, and counts and curves
        of those values).
    counts_only : bool
        Releases counts of records only (histograms, grids, bars).
    coarsens : bool
        Widens bins and merges small categories instead of hiding them.
    rule_based : bool
        Applies O'Keefe's confidentialisation rules: winsorised values,
        rounded counts and summaries, and boxes where others draw points.
    groups_within_strata : bool
        Forms its groups within each hue level (stratum).
    uses_k : bool
        Has a group size ``k`` checked against the policy's ``k_min``.
    adds_noise : bool
        Adds keyed random noise (``q`` checked against ``q_min``).
    marks_coincident : bool
        Several records can share one released point (kNN centroids), which
        scatter plots can mark.
    private : bool
        Releases counts with differentially private noise, spending privacy
        budget from the ledger (:func:`safeplot.release.guard.spend_epsilon`);
        its counts are exempt from small-cell suppression. Its family is
        ``"private"``, which only the plots named in :attr:`plots` take.
    plots : tuple of str
        For a method only some plots release: the public functions that
        take it (named when another plot refuses it).
    plot_kinds : tuple of str
        The policy's plot kinds (``"hist"``, ...) whose functions may be
        handed the method at all; the others refuse it before any data is read.
    param_names : tuple of str
        The keyword arguments of the plot functions that parametrise it.
    note_params : tuple of str
        The parameters the note under a figure names (the report has all).

    Examples
    --------
    >>> from safeplot.methods import get_method
    >>> m = get_method("deterministic")
    >>> m.moves_values, m.groups_within_strata, m.counts_only
    (True, True, False)
    """

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    raw: ClassVar[bool] = False
    moves_values: ClassVar[bool] = False
    counts_only: ClassVar[bool] = False
    coarsens: ClassVar[bool] = False
    rule_based: ClassVar[bool] = False
    groups_within_strata: ClassVar[bool] = False
    uses_k: ClassVar[bool] = False
    adds_noise: ClassVar[bool] = False
    marks_coincident: ClassVar[bool] = False
    private: ClassVar[bool] = False
    plots: ClassVar[tuple[str, ...]] = ()
    plot_kinds: ClassVar[tuple[str, ...]] = ()
    param_names: ClassVar[tuple[str, ...]] = ()
    note_params: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **params: Any) -> None:
        unknown = set(params) - set(self.param_names)
        if unknown:
            raise TypeError(
                f"{type(self).__name__} got unknown parameter(s) {sorted(unknown)}; "
                f"it takes {list(self.param_names)}."
            )
        self._params = dict(params)

    # -- scikit-learn style parameters ---------------------------------------------

    def get_params(self) -> dict[str, Any]:
        """Return the parameters given to the constructor."""
        return dict(self._params)

    def set_params(self, **params: Any) -> Method:
        """Return a copy with `params` changed (the method itself is immutable)."""
        return type(self)(**{**self._params, **params})

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self._params.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._params == self._params  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(self._params.items(), key=str))))

    @property
    def family(self) -> str:
        """What the method releases, in one word: "raw", "private", "counts", "rules" or "values".

        Plots that support only some methods name the families they support
        (a bar plot of counts takes "counts", "rules" and "raw").
        """
        if self.raw:
            return "raw"
        if self.private:
            return "private"
        if self.rule_based:
            return "rules"
        if self.counts_only:
            return "counts"
        if self.moves_values:
            return "values"
        raise TypeError(f"{type(self).__name__} declares no capability (see Method).")

    # -- what the policy asks ------------------------------------------------------

    def min_group_size(self, policy: Policy | None = None, k: int | None = None) -> int:
        """Return the fewest records a group (hue level, facet) needs to be shown."""
        return self.group_floor(policy, k)[0]

    def group_floor(self, policy: Policy | None = None, k: int | None = None) -> tuple[int, str]:
        """Return the fewest records a group needs, and the rule that sets it, for messages.

        Examples
        --------
        >>> from safeplot.methods import get_method
        >>> get_method("deterministic").group_floor(k=5)
        (5, 'k=5')
        >>> get_method("microaggregation").group_floor(k=4)
        (8, '2*k=8')
        """
        pol = get_policy(policy)
        threshold = pol.threshold
        if self.uses_k and k is None:
            k = pol.check_k(None)  # a call that does not choose k uses the policy's floor
        if self.uses_k and self.groups_within_strata and int(k) >= threshold:
            return int(k), f"k={int(k)}"
        return threshold, f"threshold={threshold}"

    # -- what the method does ------------------------------------------------------

    def anonymize(self, x: np.ndarray, context: ValueContext) -> AnonymizedValues:
        """Return released values for the complete, finite records `x` (n, p).

        `context` holds the call's parameters (``k``, ``q``, ...), the strata
        when the method groups within them, the threshold and policy, and the
        rare raw values of each column when the caller has listed them.
        """
        raise ValueError(
            f"method={self.name!r} does not release individual values; value methods are "
            f"{[m.name for m in available_methods() if m.moves_values]}."
        )


_REGISTRY: dict[str, Method] = {}


def release_representatives(
    values: np.ndarray, raw: np.ndarray, context: ValueContext, j: int = 0
) -> np.ndarray:
    """Return a method's representatives (group or interval means) as released statistics.

    A representative is the mean of its records: a statistic, rounded as a
    curve is (DESIGN invariant 4), to the policy's significant figures of
    the variable's range (:func:`~safeplot.release.guard.released_curve`),
    and off the variable's rare raw values. Rounding each to figures of its
    own would collapse the representatives of data far from zero (years, say)
    onto a few values. They are then set a thousandth of a step off the
    rounding's grid, so that statistics a plot draws of them (a box's
    median, the mean of two of them) do not fall on round numbers, where raw
    values often lie.

    Parameters
    ----------
    values : ndarray, shape (n,)
        Each record's representative, in row order.
    raw : ndarray, shape (n,)
        The records' raw values of the variable.
    context : ValueContext
        The call's threshold, policy and rare values.
    j : int
        The variable's column (to use the rare values the caller listed).

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.policy import Policy
    >>> raw = np.arange(20.0)
    >>> reps = np.repeat([raw[:10].mean(), raw[10:].mean() + 1 / 3], 10)
    >>> ctx = ValueContext(threshold=3, policy=Policy(), options={})
    >>> np.unique(release_representatives(reps, raw, ctx)).round(4).tolist()
    [4.5001, 14.8001]
    """
    from ..anonymize.grids import RareValues, rare_values
    from ..anonymize.statistics import round_to_span
    from ..release import guard

    given = context.rare[j] if context.rare and j < len(context.rare) else None
    if not (isinstance(given, RareValues) and given.describes(raw, context.threshold)):
        given = rare_values(raw, context.threshold)
    span = float(np.ptp(raw)) if raw.size else 1.0
    rounded = guard.released_curve(values, given, span, policy=context.policy)
    # a plot may draw statistics of the released values (a box's median, the mean of two
    # representatives): on the rounding's grid they would fall on round numbers, where raw
    # values often lie. A fixed thousandth of the step, far below what a figure shows, keeps
    # them off that grid; the values are then moved off rare values once more
    _, step, _ = round_to_span([], span, context.policy.check_sig_figs(None))
    return guard.released_values(rounded + 1e-3 * step, given, step)


def register(method: Method, *, replace: bool = False) -> Method:
    """Add `method` to the methods ``method=`` accepts, under ``method.name``.

    A registered method still has to be allowed by the policy
    (``allowed_methods``) before a plot uses it.

    Parameters
    ----------
    method : Method
        An instance of a :class:`Method` subclass with a ``name``.
    replace : bool, default False
        Whether an existing method of that name may be replaced.

    Returns
    -------
    Method
        `method`, so that ``register`` can be used on a definition.

    Examples
    --------
    >>> from safeplot.methods import Method, register, get_method
    >>> class Halve(Method):
    ...     name = "halve_example"
    ...     summary = "Halves each value (an example only: it is not safe)."
    ...     moves_values = True
    >>> _ = register(Halve())
    >>> get_method("halve_example").summary
    'Halves each value (an example only: it is not safe).'
    """
    if not isinstance(method, Method) or not method.name:
        raise TypeError("register() needs an instance of a Method subclass that sets `name`.")
    name = method.name.lower()
    if name in _REGISTRY and not replace:
        if type(_REGISTRY[name]) is type(method):
            return _REGISTRY[name]
        raise ValueError(f"A method named {name!r} is registered already; pass replace=True.")
    _REGISTRY[name] = method
    _policy._known_methods[name] = None
    if method.plot_kinds:
        _policy._restricted_methods[name] = (tuple(method.plot_kinds), tuple(method.plots))
    else:
        _policy._restricted_methods.pop(name, None)
    return method


def available_methods() -> list[Method]:
    """Return the registered methods: the built-in ones in the policy's order, then the others.

    Examples
    --------
    >>> [m.name for m in available_methods()][:3]
    ['suppress', 'generalize', 'deterministic']
    """
    order = {name: i for i, name in enumerate(_policy.METHODS)}
    return sorted(_REGISTRY.values(), key=lambda m: order.get(m.name, len(order)))


def get_method(method: str | Method) -> Method:
    """Return the registered method named `method` (a method object is returned as is).

    Raises
    ------
    ValueError
        For a name no method is registered under.

    Examples
    --------
    >>> get_method("suppress").counts_only
    True
    """
    if isinstance(method, Method):
        return method
    if isinstance(method, str) and method.lower() in _REGISTRY:
        return _REGISTRY[method.lower()]
    raise ValueError(f"method={method!r} is not a safeplot method; choose from {list(_REGISTRY)}.")


def check_family(method: str | Method, families: tuple[str, ...], what: str) -> Method:
    """Return the method, refused when `what` supports none of its family.

    Parameters
    ----------
    method : str or Method
        The method, as checked by the policy.
    families : tuple of str
        Families of :attr:`Method.family` that `what` can release.
    what : str
        The plot, for the message ("bar plots").

    Raises
    ------
    ValueError
        Naming the methods that `what` does support.

    Examples
    --------
    >>> check_family("suppress", ("counts", "raw"), "bar plots").name
    'suppress'
    """
    m = get_method(method)
    if m.family not in families:
        available = [o.name for o in available_methods() if o.family in families]
        takes = f" method={m.name!r} is available in {', '.join(m.plots)}." if m.plots else ""
        raise ValueError(
            f"method={m.name!r} is not available for {what} in this version of safeplot; "
            f"use one of {available}.{takes}"
        )
    return m


def refuse_unsupported(method: str | Method, kind: str | None, function: str = "") -> None:
    """Refuse a method that only some plots take, for a plot of another `kind`.

    Parameters
    ----------
    method : str or Method
        The method, as named by the policy.
    kind : str or None
        The policy's plot kind of the calling function (None: a function
        with no plot kind, which such a method never reaches).
    function : str
        The calling function, for the message.

    Raises
    ------
    ValueError
        Naming the plots that take the method.

    Examples
    --------
    >>> refuse_unsupported("suppress", "scatter")
    """
    m = get_method(method)
    if not m.plot_kinds or (kind is not None and kind in m.plot_kinds):
        return
    where = f"{function}: " if function else ""
    raise ValueError(
        f"{where}method={m.name!r} ({m.summary}) is not available here; the plots that take "
        f"it are {', '.join(m.plots)}."
    )
