"""Bar plots of group estimates (seaborn's ``barplot``) under disclosure control.

A bar plot shows one number per group -- by default the mean -- and an error
bar. Neither is an individual value, but both can be: the mean of a group of
one or two records is their value, the extremes of a percentile interval
are raw values, and ``estimator="max"`` is a record. :func:`barplot`
therefore releases (:func:`release_barplot`):

- only groups (category x hue level) holding at least ``threshold``
  records; the others are suppressed (not drawn);
- each estimate and error-bar end computed from the group (an aggregate),
  rounded to the policy's significant figures and moved off values that
  fewer than ``threshold`` records hold;
- percentile intervals from winsorised values; estimators that return one
  record's value (``"min"``, ``"max"``, ...) refused.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from numbers import Number
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter

from ..anonymize import winsorize
from ..anonymize.grids import hits_any, rare_values, safe_ticks
from ..anonymize.tables import suppress_table
from ..errors import DisclosureError
from ..marks.bars import draw_estimates
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._categories import (
    Layout,
    log_axes,
    log_axis,
    log_base,
    merge_small,
    rare_categories,
    refuse_native_other,
    resolve,
    safe_category_axis,
    stable_palette,
)
from ._common import (
    axes_for,
    finish,
    make_report,
    quiet_seaborn,
    safe_limits,
    set_safe_axis,
    takes_method_options,
)

__all__ = ["BAR_METHODS", "BarRelease", "barplot", "check_errorbar", "release_barplot"]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) a bar plot releases.
_BAR_FAMILIES = ("counts", "values", "rules", "raw")
#: Methods :func:`barplot` supports.
BAR_METHODS = tuple(m.name for m in available_methods() if m.family in _BAR_FAMILIES)

#: Estimator names that return one record's value.
_RECORD_ESTIMATORS = ("min", "max", "first", "last", "idxmin", "idxmax")
_RECORD_FUNCTIONS = (min, max, np.min, np.max, np.amin, np.amax, np.nanmin, np.nanmax)
#: Error-bar methods and their default levels (seaborn's).
_ERRORBAR_LEVELS = {"ci": 95, "pi": 95, "se": 1, "sd": 1}
#: The levels each error bar may use: a fixed menu, since stepping a free level until a
#: rounded end moves finds an order statistic (a record) or an unrounded estimate.
ERRORBAR_MENU = {"ci": (90, 95, 99), "pi": (50, 90, 95), "se": (1, 2), "sd": (1, 2)}
#: Estimators a bar may show, by name (a custom callable could return anything).
ESTIMATORS = guard.ESTIMATORS
#: Estimators whose bars add up to a total (secondary suppression applies).
_TOTALS = ("sum", "count", "size")


@release_kind("bar")
@dataclass
class BarRelease:
    """A released bar plot: per shown group, its estimate and error-bar ends.

    Attributes
    ----------
    method : str
        The disclosure-control method.
    groups : list of tuple
        ``(category, hue level)`` of each shown bar (``None`` for a role
        that is not used), in drawing order.
    estimates : ndarray
        The released estimate of each shown group.
    lower, upper : ndarray or None
        The released error-bar ends (None without error bars; NaN for a
        group without one).
    value_lim : tuple of float or None
        Limits of the value axis (None: left to matplotlib, raw output only).
    value_ticks : ndarray or None
        Tick positions of the value axis.
    report : DisclosureReport
    suppressed : list of str
        The groups left out (fewer than ``threshold`` records, or secondary
        suppression of a total).
    levels : list
        The category slots, in order: the categories drawn and those named in
        ``order=`` (a named category none of whose bars is drawn keeps its
        slot and tick label, empty, as seaborn keeps a named category without
        records); ``"Other"`` last when ``"generalize"`` merged some.
    other : str or None
        The name of the merged category (``"generalize"``), or None.
    hue_levels : list or None
        The hue levels in the legend, in order: those drawn and those named
        in ``hue_order=`` (None: no hue, or a release made before this field
        existed, whose hue levels drawn are those of `groups`).
    """

    method: str
    groups: list[tuple[Any, Any]]
    estimates: np.ndarray
    lower: np.ndarray | None
    upper: np.ndarray | None
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    suppressed: list[str] = field(default_factory=list)
    levels: list[Any] = field(default_factory=list)
    other: str | None = None
    layout: Layout | None = field(default=None, repr=False)
    avoid_categories: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)
    hue_levels: list[Any] | None = None

    def shown_hue_levels(self) -> list[Any] | None:
        """Return the hue levels in the legend: those drawn and those the call named.

        Examples
        --------
        >>> import safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> rel = release_barplot(tips, x="day", y="tip", hue="sex", errorbar=None,
        ...                       hue_order=["Female", "Male", "Other"])
        >>> rel.shown_hue_levels()  # "Other" has no records: named by the call, drawn empty
        ['Female', 'Male', 'Other']
        """
        if self.layout is None or self.layout.hue_levels is None:
            return None
        if self.hue_levels is not None:
            return list(self.hue_levels)
        present = {h for _, h in self.groups}
        return [h for h in self.layout.hue_levels if h in present]

    def bar(self, category: Any = None, hue: Any = None) -> tuple[float, float, float]:
        """Return ``(estimate, lower, upper)`` of one shown bar (NaN ends without error bars).

        Examples
        --------
        >>> import safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> rel = release_barplot(tips, x="day", y="tip", errorbar=("se", 1))
        >>> [round(v, 2) for v in rel.bar("Sun")]  # mean -/+ SE, rounded, off rare tips
        [3.26, 3.13, 3.42]
        """
        for g, (cat, h) in enumerate(self.groups):
            if (cat == category or self.layout is None or not self.layout.has_cat) and h == hue:
                lo = np.nan if self.lower is None else float(self.lower[g])
                hi = np.nan if self.upper is None else float(self.upper[g])
                return float(self.estimates[g]), lo, hi
        raise KeyError(f"No released bar for category {category!r}, hue {hue!r}.")


# -- checks --------------------------------------------------------------------------------


def _check_estimator(estimator: Any, function: str = "barplot") -> str:
    """Return the estimator's name, refusing record-valued and custom estimators."""
    name = estimator if isinstance(estimator, str) else getattr(estimator, "__name__", "")
    if (isinstance(estimator, str) and estimator in _RECORD_ESTIMATORS) or any(
        estimator is f for f in _RECORD_FUNCTIONS
    ):
        raise DisclosureError(
            f"{function}: estimator={name!r} returns one record's value (the group's "
            f"{'smallest' if 'min' in name else 'largest' if 'max' in name else 'first/last'} "
            "record), which a bar would show. Use estimator='mean' or 'median' (rounded), or "
            "safeplot.boxplot(..., method='confidential') for the range of each group."
        )
    if not (isinstance(estimator, str) or callable(estimator)):
        raise ValueError(f"{function}: estimator must be a name or a callable, got {estimator!r}.")
    return guard.named_estimator(estimator, function=function)


def check_errorbar(errorbar: Any) -> tuple[str | None, float | None]:
    """Read seaborn's `errorbar` argument as ``(method, level)``; refuse a callable.

    A bare name gets seaborn's default level; None gives ``(None, None)``.

    Examples
    --------
    >>> check_errorbar("se"), check_errorbar(("pi", 50)), check_errorbar(None)
    (('se', 1), ('pi', 50), (None, None))
    """
    if callable(errorbar):
        raise ValueError(
            "barplot: a callable errorbar computes its interval from the raw values of each "
            "group, and safeplot cannot tell whether it returns records (e.g. the minimum and "
            "maximum). Use errorbar=('ci', 95), ('se', 1), ('sd', 1) or ('pi', 50)."
        )
    if errorbar is None:
        return None, None
    usage = "`errorbar` must be a callable, string, or (string, number) tuple"
    if isinstance(errorbar, str):
        method, level = errorbar, _ERRORBAR_LEVELS.get(errorbar)
    else:
        try:
            method, level = errorbar
        except (ValueError, TypeError) as err:
            raise err.__class__(usage) from err
    options = list(_ERRORBAR_LEVELS)
    if method not in options:
        raise ValueError(
            f"The value for `errorbar` must be one of {options}, but {method!r} was passed."
        )
    if level is not None and not isinstance(level, Number):
        raise TypeError(usage)
    if level is not None:
        level = guard.from_menu(
            "errorbar level", level, ERRORBAR_MENU[method], what=f"{method!r} error bars"
        )
    return method, level


# -- release -------------------------------------------------------------------------------


def _estimate(vals: np.ndarray, estimator: Any) -> Any:
    """Return the estimate of one group: a pandas aggregation by name, or a function of it."""
    series = pd.Series(vals)
    return estimator(series) if callable(estimator) else series.agg(estimator)


def _percentile_interval(vals: np.ndarray, width: float) -> np.ndarray:
    """Return the central interval holding `width` percent of `vals` (missing values ignored)."""
    edge = (100 - width) / 2
    return np.nanpercentile(vals, (edge, 100 - edge))


def _bootstrap(vals: np.ndarray, estimator: Any, n_boot: int, seed: Any) -> np.ndarray:
    """Return the estimates of `n_boot` resamples of `vals`, drawn as seaborn 0.13 does.

    The resampling generator is ``numpy.random.default_rng(seed)`` (or
    `seed` itself when it is a ``RandomState``) and each resample is
    ``n`` indices drawn with replacement, so a given `seed` gives seaborn's
    interval. A named estimator is the numpy function of that name (its
    ``nan`` version when the values have missing ones).
    """
    rng = seed if isinstance(seed, np.random.RandomState) else np.random.default_rng(seed)
    integers = rng.randint if isinstance(rng, np.random.RandomState) else rng.integers
    a = np.asarray(vals)
    func = estimator
    if isinstance(estimator, str):
        func = getattr(np, estimator)
        if np.isnan(np.sum(a)) and not estimator.startswith("nan"):
            nan_func = getattr(np, f"nan{estimator}", None)
            if nan_func is None:
                warnings.warn(
                    f"Data contain nans but no nan-aware version of `{estimator}` found",
                    UserWarning,
                    stacklevel=2,
                )
            else:
                func = nan_func
    n = a.shape[0]
    return np.array(
        [func(a.take(integers(0, n, n, dtype=np.intp), axis=0)) for _ in range(int(n_boot))]
    )


def _aggregate(
    vals: np.ndarray,
    estimator: Any,
    err: tuple[str | None, float | None],
    n_boot: int,
    seed: Any,
    pi_vals: np.ndarray,
) -> tuple[float, float, float]:
    """Estimate and error-bar ends of one group, as seaborn 0.13's barplot computes them.

    ``"sd"`` and ``"se"`` are the estimate -/+ `level` standard deviations
    or standard errors; ``"pi"`` the central `level` percent of `pi_vals`;
    ``"ci"`` the central `level` percent of the bootstrapped estimates. A
    group of one value has no error bar (NaN ends).
    """
    method, level = err
    est = _estimate(vals, estimator)
    lo = hi = np.nan
    if method is not None and len(vals) > 1:
        if method in ("sd", "se"):
            series = pd.Series(vals)
            half = (series.std() if method == "sd" else series.sem()) * level
            lo, hi = est - half, est + half
        elif method == "pi":
            lo, hi = _percentile_interval(pi_vals, level)
        else:
            boots = _bootstrap(vals, estimator, n_boot, seed)
            lo, hi = _percentile_interval(boots, level)
    return float(est), float(lo), float(hi)


def release_barplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    units: Any = None,
    weights: Any = None,
    orient: str | None = None,
    log_scale: Any = None,
    native_scale: bool = False,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
    function: str = "barplot",
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    bounds: tuple[float, float] | str | None = None,
) -> BarRelease:
    """Release the numbers of a bar plot: group estimates and error bars, small groups left out.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, estimator, errorbar, n_boot, seed, orient
        As in :func:`barplot`.
    units, weights
        Only with ``method="none"`` (see :func:`barplot`).
    log_scale, native_scale
        As in :func:`barplot`: with a log value axis the estimate is computed
        from the logarithms (seaborn's geometric mean).
    method : str, optional
        Default: the policy's method for binned plots (``"suppress"``).
    threshold : int, optional
        Minimum records of a shown group (default and floor: the policy's).
    k, q
        Parameters of ``"deterministic"``/``"microaggregation"`` and
        ``"probabilistic"``.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).
    function : str, default "barplot"
        The public function releasing the estimates (a point or line plot
        releases them as a bar plot does), for its report and messages.
    epsilon, mechanism, delta, bounds
        ``method="dp"`` only (see :func:`barplot`).

    Returns
    -------
    BarRelease

    Raises
    ------
    DisclosureError
        An estimator returning one record's value, a parameter below a
        policy floor, a method the policy does not allow, or every group
        below the threshold.
    ValueError
        A callable errorbar, `units`/`weights` under a disclosure-control
        method, bad variables.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_barplot(tips, x="day", y="total_bill", errorbar=None)
    >>> [cat for cat, _ in rel.groups], rel.estimates.tolist()
    (['Thur', 'Fri', 'Sat', 'Sun'], [17.7, 17.2, 20.4, 21.4])
    """
    pol = get_policy(policy)
    checked = get_method(pol.check_method(method, "count"))
    if checked.private and function == "barplot":
        return _release_private_bars(
            data,
            x=x,
            y=y,
            hue=hue,
            order=order,
            hue_order=hue_order,
            estimator=estimator,
            errorbar=errorbar,
            units=units,
            weights=weights,
            orient=orient,
            log_scale=log_scale,
            m=checked,
            epsilon=epsilon,
            mechanism=mechanism,
            delta=delta,
            bounds=bounds,
            policy=pol,
            function=function,
        )
    m = check_family(checked, _BAR_FAMILIES, "bar plots")
    method = m.name
    for name, value in (("epsilon", epsilon), ("delta", delta), ("bounds", bounds)):
        if value is not None:
            raise ValueError(
                f"{function}: {name}= belongs to method='dp'; method={method!r} takes no {name}."
            )
    if mechanism != "laplace":
        raise ValueError(
            f"{function}: mechanism= belongs to method='dp'; method={method!r} adds no DP noise."
        )
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    if not m.raw:
        estimator = _check_estimator(estimator, function)
    err = check_errorbar(errorbar)
    if not m.raw:
        for name, value, why in (
            ("units", units, "a bootstrap over units"),
            ("weights", weights, "a weighted estimate"),
        ):
            if value is not None:
                raise ValueError(
                    f"{function}: {name}= is not supported under method={method!r} ({why} can "
                    "rest on a few records, which safeplot does not check yet). Leave it out, or "
                    "aggregate the data per unit first."
                )
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
    _, val_log = log_axes(log_scale, layout, native_scale)
    base = log_base(val_log)
    values = rows.values
    if base is not None and (values <= 0).any():
        raise ValueError(
            f"{function}: log_scale needs positive values, but the variable has zero or negative "
            "values. Drop log_scale, or plot a shifted or transformed variable."
        )
    levels = list(layout.levels)
    cat = rows.cat.copy()
    params: dict[str, Any] = {}
    details: dict[str, Any] = {}
    warnings: list[str] = []
    other = None
    n_hue = layout.n_hue
    table = np.zeros((len(levels), n_hue))
    np.add.at(table, (cat, rows.hue), 1)
    if m.coarsens:
        merged = merge_small(table, threshold)
        if merged.any():
            taken = {str(v) for v in levels}
            other = "Other" if "Other" not in taken else "Other (merged)"
            keep = np.flatnonzero(~merged)
            remap = np.full(len(levels), len(keep), dtype=np.intp)
            remap[keep] = np.arange(len(keep))
            cat = remap[cat]
            levels = [levels[i] for i in keep] + [other]
            details["categories_merged"] = int(merged.sum())
            table = np.zeros((len(levels), n_hue))
            np.add.at(table, (cat, rows.hue), 1)
    hue = rows.hue
    if not m.raw:
        # a category of fewer than threshold records in all is left out with its records, as
        # if absent (as countplot does): neither the report's counts nor its n tell one named
        # in order= that has 1 or 2 records from one that has none
        whole = table.sum(axis=1)
        absent = (whole > 0) & (whole < threshold)
        if absent.any():
            kept = ~absent[cat]
            cat, hue, values = cat[kept], hue[kept], values[kept]
            table[absent] = 0
    codes = cat * n_hue + hue
    sizes = table.ravel()
    # groups shown: at least `threshold` records (and secondary suppression of totals)
    if m.raw:
        shown = sizes > 0
        cells = 0
    else:
        sup = suppress_table(table, threshold, secondary=_is_total(estimator))
        shown = (np.nan_to_num(sup.counts) > 0).ravel()
        cells = int(((sizes > 0) & ~shown).sum())
        params["threshold"] = threshold
    present = np.flatnonzero(sizes > 0)

    def describe(g: int) -> str:
        parts = []
        if layout.has_cat:
            name = layout.cat_name or layout.orient
            parts.append(f"{name}={levels[g // n_hue]!r}")
        if layout.hue_levels is not None:
            parts.append(f"{layout.hue_name or 'hue'}={layout.hue_levels[g % n_hue]!r}")
        return ", ".join(parts) or "the data"

    # groups with too few records, or suppressed to protect a total (before those too small
    # for the method's groups are taken out below, which are counted on their own)
    suppressed = [describe(g) for g in present if not shown[g]]
    too_few = 0
    if m.groups_within_strata:
        # groups are formed within each bar's records: a bar too small for one group of the
        # method is left out as a suppressed one is (its records change no other bar)
        fewest, why = m.group_floor(pol, k)
        thin = shown & (sizes > 0) & (sizes < fewest)
        too_few = int(thin.sum())
        shown = shown & ~thin
        if too_few:
            warnings.append(
                f"{too_few} group(s) with fewer than {fewest} records ({why}) are not drawn."
            )
    n_suppressed = len(suppressed)
    if not m.raw:
        # a suppressed group is never named: the release keeps how many, not which
        suppressed = [f"{n_suppressed} group(s)"] if suppressed else []
    if suppressed:
        warnings.append(
            f"{n_suppressed} group(s) with fewer than threshold={threshold} records (or "
            "suppressed so that a total cannot reveal them) are not drawn."
        )
    if not m.raw and not shown.any():
        floor = f"{fewest} ({why})" if too_few else f"threshold={threshold}"
        raise DisclosureError(
            f"{function}: every group has fewer than {floor} records, so no "
            f"{'bar' if function == 'barplot' else 'estimate'} can be shown. "
            + (
                "Merge categories (method='generalize'), or use broader groups."
                if function == "barplot"
                else "Use broader groups (fewer hue or style levels)."
            )
        )
    stat_values = np.log(values) / math.log(base) if base is not None else values
    pi_values = stat_values
    if m.moves_values:
        # groups formed within each bar use the bars shown; noise is each record's own
        in_shown = shown[codes] if m.groups_within_strata else np.ones(values.size, bool)
        out = anonymize_values(
            stat_values[in_shown],
            method,
            names=[layout.value_name or "values"],
            k=k,
            q=q,
            strata=codes[in_shown],
            threshold=threshold,
            policy=pol,
        )
        released = np.full(values.size, np.nan)
        released[in_shown] = out.values[:, 0]
        stat_values = pi_values = released
        params.update(out.params)
        details.update(out.details)
    elif m.counts_only and err[0] == "pi":
        pi_values = winsorize(stat_values, policy=pol).values
        params["winsor_sd"] = pol.winsor_sd
    if not m.raw:
        params["sig"] = pol.sig_figs
    drawn_groups = [g for g in present if shown[g]]
    if not m.raw:
        # a bar's estimate beside an earlier one of nearly the same records (the category's
        # bar without hue, beside the bar of its one large hue level) differences out the
        # records between them (their moved values too, which lie close to the raw ones);
        # groups are named by position, never by a level
        label = np.full(len(sizes), -1, dtype=np.int64)
        label[drawn_groups] = np.arange(len(drawn_groups))
        guard.link_partition(
            values,
            label[codes],
            function=function,
            advice="Draw both figures with groups that differ by more records (merge the "
            "small levels, e.g. with method='generalize'), or draw only one of them.",
        )
    rare = np.array([]) if m.raw else rare_values(rows.all_values, threshold)
    est = np.empty(len(drawn_groups))
    lo = np.empty(len(drawn_groups))
    hi = np.empty(len(drawn_groups))
    for i, g in enumerate(drawn_groups):
        members = codes == g
        vals = stat_values[members]
        raw = values[members]
        e, a, b = _aggregate(vals, estimator, err, n_boot, seed, pi_values[members])
        if base is not None:
            e, a, b = (base**v for v in (e, a, b))
        if not m.raw:
            # the estimator is a name here (_check_estimator): record-valued ones are refused
            avoid = np.union1d(rare, rare_values(raw, threshold))
            released = guard.released_statistics([e, a, b], avoid, policy=pol)
            e, a, b = (float(v) for v in released)
        est[i], lo[i], hi[i] = e, a, b
    has_err = err[0] is not None
    groups = [
        (
            levels[g // n_hue] if layout.has_cat else None,
            None if layout.hue_levels is None else layout.hue_levels[g % n_hue],
        )
        for g in drawn_groups
    ]
    levels, hue_levels = _slots(layout, groups, levels, other, order, hue_order, m.raw)
    value_lim = value_ticks = None
    if not m.raw:
        numbers = np.r_[est, lo[np.isfinite(lo)], hi[np.isfinite(hi)]] if has_err else est
        value_lim, value_ticks = _value_axis(numbers, rare, base)
    variables = tuple(
        v for v in (layout.value_name, layout.cat_name, layout.hue_name) if v is not None
    ) or ("values",)
    params["estimator"] = estimator if isinstance(estimator, str) else repr(estimator)
    params["errorbar"] = None if err[0] is None else f"{err[0]}, {err[1]}"
    report = make_report(
        function,
        method,
        params,
        variables,
        int(values.size),
        rows.n_dropped,
        pol,
        cells_suppressed=cells,
        details=details,
        warnings=warnings,
    )
    return BarRelease(
        method,
        groups,
        est,
        lo if has_err else None,
        hi if has_err else None,
        value_lim,
        value_ticks,
        report,
        suppressed=suppressed,
        levels=levels,
        other=other,
        layout=layout,
        avoid_categories=np.array([]) if m.raw else rare_categories(rows, threshold),
        hue_levels=hue_levels,
    )


def _slots(
    layout: Layout,
    groups: list[tuple[Any, Any]],
    levels: list[Any],
    other: str | None,
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    raw: bool,
) -> tuple[list[Any], list[Any] | None]:
    """Return the category slots and the legend's hue levels of the bars `groups` drawn.

    A category or hue level named by the call (`order`, `hue_order`) keeps
    its slot and its label, as seaborn keeps a named level without records,
    whether none of its bars is drawn because it has no records or because
    they are too few: the two look the same, so the empty slot tells nothing
    the call did not say. Under ``"generalize"`` a named category merged into
    ``"Other"`` keeps its slot too (its records are drawn in ``"Other"``).
    A level named only by the data is drawn only when a bar of it is: a small
    one is left out and not named.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots._categories import resolve
    >>> tips = safeplot.load_dataset("tips")
    >>> order = ["Thur", "Fri", "Mon"]
    >>> lay, _ = resolve("barplot", tips, "day", "tip", None, order, None, None, numeric=True)
    >>> _slots(lay, [("Thur", None)], order, None, order, None, False)
    (['Thur', 'Fri', 'Mon'], None)
    >>> _slots(lay, [("Thur", None)], order, None, None, None, False)
    (['Thur'], None)
    """
    drawn_cats = {c for c, _ in groups}
    drawn_hues = {h for _, h in groups}
    if raw or not layout.has_cat:
        slots = list(levels)
    elif order is not None:
        # every category of the layout is named by `order`; "Other" only when drawn
        merged = [other] if other is not None and other in drawn_cats else []
        slots = list(layout.levels) + merged
    else:
        # a category none of whose bars is drawn gets no tick, no slot and no label
        slots = [level for level in levels if level in drawn_cats]
    hues = None
    if layout.hue_levels is not None:
        named = raw or hue_order is not None
        hues = [h for h in layout.hue_levels if named or h in drawn_hues]
    return slots, hues


#: Share of epsilon a DP range estimate of the bar variable spends (``bounds="dp"``).
DP_BOUNDS_SHARE = 0.25
#: Share of the (remaining) epsilon and delta spent on the counts; the sums get the rest.
DP_COUNT_SHARE = 0.5
#: A group is drawn when its noisy count is at least this (a mean over fewer noisy records
#: would be mostly noise); deciding from the noisy count is post-processing.
DP_MIN_COUNT = 1.0


def _dp_bounds(bounds: Any, function: str) -> tuple[float, float] | None:
    """Return the analyst's clipping bounds, None for a DP estimate, or refuse clearly."""
    if isinstance(bounds, str) and bounds == "dp":
        return None
    if bounds is None:
        raise ValueError(
            f"{function}: method='dp' clips the values to bounds fixed before the data is read "
            "(one record then changes a group's sum by a known amount). Give bounds=(low, high) "
            "from knowledge of the variable, or bounds='dp' to estimate them with part of "
            "epsilon."
        )
    try:
        lo, hi = (float(v) for v in bounds)
    except (TypeError, ValueError):
        raise ValueError(
            f"{function}: bounds must be (low, high) or 'dp', got {bounds!r}."
        ) from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise ValueError(
            f"{function}: bounds must be two finite numbers with low < high, got {bounds!r}."
        )
    return lo, hi


def _release_private_bars(
    data: Any,
    *,
    x: Any,
    y: Any,
    hue: Any,
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    estimator: Any,
    errorbar: Any,
    units: Any,
    weights: Any,
    orient: str | None,
    log_scale: Any,
    m: Any,
    epsilon: float | None,
    mechanism: str,
    delta: float | None,
    bounds: Any,
    policy: Policy,
    function: str,
) -> BarRelease:
    """Release DP means per group: a DP sum over a DP count, values clipped to `bounds`.

    The epsilon (less a quarter for ``bounds="dp"``) and the delta are split
    equally (:data:`DP_COUNT_SHARE`) between the counts (sensitivity 1) and
    the sums of the values centred in their bounds (sensitivity half the
    bounds' width), one record in one group. The error bar is the
    approximate interval of the noise alone, by the delta method:
    ``sd(mean) = sqrt(sd_sum**2 + (mean - centre)**2 * sd_count**2) / count``.
    Everything after the noisy sums and counts is post-processing.
    """
    from scipy import stats

    from ..anonymize import dp as dpnum

    eps_given = m.get_params().get("epsilon")
    if epsilon is not None and eps_given is not None and float(epsilon) != float(eps_given):
        raise ValueError(f"epsilon={epsilon!r} contradicts the method's epsilon={eps_given!r}.")
    eps = dpnum.check_epsilon(
        epsilon if epsilon is not None else eps_given if eps_given is not None else 1.0
    )
    params_m = m.get_params()
    mech = dpnum.check_mechanism(params_m.get("mechanism", mechanism))
    dlt = dpnum.check_delta(params_m.get("delta", delta), mech)
    clip = _dp_bounds(bounds, function)
    if order is None or (hue is not None and hue_order is None):
        raise ValueError(
            f"{function}: method='dp' needs the categories before the data is read: give "
            "order= (and hue_order= with hue), from public knowledge of the variable."
        )
    name = _check_estimator(estimator, function)
    if name != "mean":
        raise ValueError(
            f"{function}: method='dp' releases means (a DP sum over a DP count); "
            f"estimator={name!r} is not available under it. Use estimator='mean'."
        )
    if errorbar is not None:
        err = check_errorbar(errorbar)
        if err[0] != "ci":
            raise ValueError(
                f"{function}: under method='dp' the error bar is the interval of the noise, "
                f"errorbar=('ci', level) with level in {list(ERRORBAR_MENU['ci'])}, or None; "
                f"got {errorbar!r}."
            )
        level: float | None = float(err[1])
    else:
        level = None
    for what, value in (("units", units), ("weights", weights), ("log_scale", log_scale)):
        if value is not None:
            raise ValueError(
                f"{function}: {what}= is not supported under method='dp'. Leave it out."
            )
    if not dpnum.opendp_available():
        dpnum._dp()  # raises, saying how to install OpenDP
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
    values = np.asarray(rows.values, dtype=float)
    n_hue = layout.n_hue
    levels = list(layout.levels)
    # every argument is valid: the release will be made, so its privacy loss is spent now
    left = guard.spend_epsilon(eps, function=function, delta=dlt)
    eps_bounds = 0.0
    if clip is None:
        eps_bounds = eps * DP_BOUNDS_SHARE
        clip = dpnum.private_range(values, eps_bounds)
    lo, hi = clip
    centre, half = (lo + hi) / 2.0, (hi - lo) / 2.0
    rest = eps - eps_bounds
    eps_count, eps_sum = rest * DP_COUNT_SHARE, rest * (1 - DP_COUNT_SHARE)
    d_count = dlt * DP_COUNT_SHARE if dlt else None
    d_sum = dlt * (1 - DP_COUNT_SHARE) if dlt else None
    codes = rows.cat * n_hue + rows.hue
    cells = len(levels) * n_hue
    counts = np.bincount(codes, minlength=cells)
    sums = np.bincount(codes, weights=np.clip(values, lo, hi) - centre, minlength=cells)
    noisy_n = dpnum.mechanism_counts(counts, eps_count, mechanism=mech, delta=d_count, clamp=False)
    noisy_s = dpnum.noisy_sums(sums, half, eps_sum, mechanism=mech, delta=d_sum)
    ns, ss = noisy_n.counts, noisy_s.sums
    shown = np.flatnonzero(ns >= DP_MIN_COUNT)
    if not shown.size:
        raise DisclosureError(
            f"{function}: every group's noisy count is below {DP_MIN_COUNT:g}, so no mean can "
            "be shown at this epsilon. Use a larger epsilon, or broader groups."
        )
    with np.errstate(divide="ignore", invalid="ignore"):
        raw_mean = centre + ss / ns
    mean = np.clip(raw_mean, lo, hi)
    sd = np.sqrt(noisy_s.sd**2 + (mean - centre) ** 2 * noisy_n.sd**2) / np.maximum(ns, 1.0)
    est = guard.released_statistics(mean[shown], policy=policy)
    if level is not None:
        z = float(stats.norm.ppf(0.5 + level / 200.0))
        lower = guard.released_statistics(
            np.clip(mean[shown] - z * sd[shown], lo, hi), policy=policy
        )
        upper = guard.released_statistics(
            np.clip(mean[shown] + z * sd[shown], lo, hi), policy=policy
        )
    groups = [
        (
            levels[g // n_hue] if layout.has_cat else None,
            None if layout.hue_levels is None else layout.hue_levels[g % n_hue],
        )
        for g in shown
    ]
    numbers = np.r_[est, lower, upper] if level is not None else est
    value_lim, value_ticks = _value_axis(numbers, np.array([]), None)
    variables = tuple(
        v for v in (layout.value_name, layout.cat_name, layout.hue_name) if v is not None
    ) or ("values",)
    # mechanism and delta are named for Gaussian releases only (Laplace: delta 0), as in every
    # DP plot, so that the method note names delta exactly when there is one
    params: dict[str, Any] = {"epsilon": eps}
    if mech != "laplace":
        params.update(mechanism=mech, delta=dlt)
    params |= {
        "bounds": (lo, hi),
        "estimator": "mean",
        "errorbar": None if level is None else f"ci, {level:g}",
        "sig": policy.sig_figs,
    }
    mech_name = (
        "discrete Laplace (OpenDP make_laplace)"
        if mech == "laplace"
        else "Gaussian (OpenDP make_gaussian, zCDP converted to (epsilon, delta))"
    )
    details: dict[str, Any] = {
        "mechanism": f"{mech_name}: counts of sensitivity 1, sums of values clipped to the "
        "bounds and centred, sensitivity half their width",
        "epsilon_counts": eps_count,
        "epsilon_sums": eps_sum,
        "delta_counts": d_count or 0.0,
        "delta_sums": d_sum or 0.0,
        "bounds_from": "a differentially private range estimate" if eps_bounds else "the call",
        "count_noise_sd": round(noisy_n.sd, 3),
        "sum_noise_sd": round(noisy_s.sd, 3),
        "mean_noise_sd": [round(float(v), 4) for v in sd[shown]],
        "budget_left": round(left, 6),
    }
    if eps_bounds:
        details["epsilon_bounds"] = eps_bounds
    warnings = [
        f"Differentially private means (epsilon={eps:g}"
        + (f", delta={dlt:g}" if dlt else "")
        + f"): values clipped to [{lo:g}, {hi:g}]; "
        + (
            f"error bars are the {level:g}% interval of the noise alone (approximate)."
            if level is not None
            else "no error bars."
        )
    ]
    hidden = cells - shown.size
    if hidden:
        warnings.append(
            f"{hidden} group(s) with a noisy count below {DP_MIN_COUNT:g} are not drawn."
        )
    report = make_report(
        function,
        m.name,
        params,
        variables,
        round(float(np.maximum(ns, 0).sum())),  # a sum of noisy counts: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        policy,
        details=details,
        warnings=warnings,
    )
    return BarRelease(
        m.name,
        groups,
        est,
        lower if level is not None else None,
        upper if level is not None else None,
        value_lim,
        value_ticks,
        report,
        suppressed=[],
        levels=levels,
        other=None,
        layout=layout,
        avoid_categories=np.array([]),
        hue_levels=None if layout.hue_levels is None else list(layout.hue_levels),
    )


def _is_total(estimator: Any) -> bool:
    """Whether the (named) estimator adds the group up, so its bars are totals of counts."""
    return isinstance(estimator, str) and estimator in _TOTALS


def _value_axis(
    numbers: np.ndarray, rare: np.ndarray, base: float | None
) -> tuple[tuple[float, float], np.ndarray]:
    """Limits and ticks of the value axis: bars start at zero (or at the bottom of a log axis)."""
    if base is not None:
        return log_axis(float(np.min(numbers)), float(np.max(numbers)), rare, base)
    lo, hi = min(0.0, float(np.min(numbers))), max(0.0, float(np.max(numbers)))
    lim = list(safe_limits(lo, hi, rare))
    # the bars' baseline: keep the axis on zero, as seaborn does, unless zero is a rare value
    if lo == 0.0 and not hits_any([0.0], rare):
        lim[0] = 0.0
    if hi == 0.0 and not hits_any([0.0], rare):
        lim[1] = 0.0
    return (lim[0], lim[1]), safe_ticks(lim[0], lim[1])


# -- drawing ---------------------------------------------------------------------------------


def _draw_bars(ax: Axes, rel: BarRelease, style: dict[str, Any], kwargs: dict[str, Any]) -> None:
    """Draw the released bars (:func:`~safeplot.marks.bars.draw_estimates`), colours kept.

    A hue level whose every bar is suppressed is not drawn; the others keep
    the colours they would have had with it (:func:`stable_palette`).
    """
    style = dict(style, palette=stable_palette(_PaletteView(rel), style))
    draw_estimates(ax, rel, "bar", style, kwargs)


@dataclass
class _PaletteView:
    """What :func:`stable_palette` needs to know of a release: hue levels shown and all."""

    rel: BarRelease

    @property
    def layout(self) -> Layout:
        return self.rel.layout

    @property
    def hue_levels(self) -> list[Any] | None:
        return self.rel.shown_hue_levels()


@takes_method_options
def barplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    units: Any = None,
    weights: Any = None,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    saturation: float = 0.75,
    fill: bool = True,
    hue_norm: Any = None,
    width: float = 0.8,
    dodge: bool | str = "auto",
    gap: float = 0,
    log_scale: Any = None,
    native_scale: bool = False,
    formatter: Any = None,
    legend: str | bool = "auto",
    capsize: float = 0,
    err_kws: dict[str, Any] | None = None,
    ci: Any = "deprecated",
    errcolor: Any = "deprecated",
    errwidth: Any = "deprecated",
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    bounds: tuple[float, float] | str | None = None,
    **kwargs: Any,
) -> Axes:
    """Show an estimate per group as bars, with small groups left out and numbers rounded.

    The arguments are those of :func:`seaborn.barplot`, plus the
    disclosure-control parameters. The group estimates and error bars are
    released first (:func:`release_barplot`) and seaborn draws only them.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data (no `x`/`y`) whose numeric columns are each a bar.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    estimator : str or callable, default "mean"
        Statistic of each group (a pandas aggregation name or a function of
        a vector). ``"min"``, ``"max"``, ``"first"``, ``"last"`` and
        numpy's or Python's ``min``/``max`` are refused: they return one
        record's value.
    errorbar : ("ci", level), ("se", scale), ("sd", scale), ("pi", level) or None
        Error bars, computed from each group as seaborn does and released
        rounded. A callable is refused.
    n_boot, seed
        Bootstrap of ``"ci"`` error bars.
    units, weights
        seaborn's multilevel bootstrap and weighted estimates: only with
        ``method="none"``; refused otherwise.
    orient : {"v", "h", "x", "y"}, optional
        Orientation, inferred from the variables' types when omitted.
    color, palette, saturation, fill, hue_norm, width, dodge, gap, capsize, err_kws
        Appearance, as in seaborn.
    log_scale : bool or number, or pair, optional
        Log scale of the value axis (estimates of the logarithms, as seaborn).
    native_scale : bool, default False
        Place numeric categories at their values.
    formatter : callable, optional
        Maps category values to tick labels.
    legend : "auto", "brief", "full" or False
        How to draw the hue legend.
    ci, errcolor, errwidth
        seaborn's deprecated options, passed on to seaborn.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (see Notes). Default: the policy's method
        for binned plots, ``"suppress"``.
    threshold : int, optional
        Minimum records of a shown bar. Default and floor: the policy's.
    k, q, algorithm, c, discretizer
        Parameters of ``"deterministic"``, ``"probabilistic"``,
        ``"microaggregation"`` and ``"rounding"``.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    epsilon : float, optional
        ``method="dp"``: privacy loss of the release (default 1.0), spent
        from the policy's ``dp_budget``.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        ``method="dp"``: the noise; ``"gaussian"`` needs `delta`.
    delta : float, optional
        ``method="dp"`` with ``mechanism="gaussian"``: the delta of
        (epsilon, delta)-DP, at most 1e-5, spent from ``dp_delta_budget``.
    bounds : (low, high) or "dp", optional
        ``method="dp"`` (required): the values are clipped to these bounds,
        fixed before the data is read; ``"dp"`` estimates them with a
        quarter of epsilon.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.bar` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on, with the release's report as ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        An estimator that returns a record, every group below the threshold,
        a parameter below a policy floor, ``method="none"`` when the policy
        forbids raw output.
    ValueError
        A callable errorbar, `units` or `weights` under a disclosure-control
        method, bad variables.

    See Also
    --------
    countplot : Counts of a categorical variable.
    boxplot : The distribution of each group.
    release_barplot : The released numbers alone.
    seaborn.barplot : The raw-data function this mirrors.

    Notes
    -----
    Methods. Under every method other than ``"none"`` a group (category x
    hue level) with fewer than `threshold` records is not drawn (with
    ``estimator="sum"`` or ``"count"``, secondary suppression also hides a
    further group wherever one suppressed group could be worked out from a
    total), and every estimate and error-bar end is rounded to the policy's
    significant figures (3) and moved off values held by fewer than
    `threshold` records.

    ``"suppress"`` (default)
        Estimates and error bars computed from the raw values of each shown
        group. Percentile intervals (``("pi", level)``) come from the values
        winsorised at mean +/- 2.6 SD, so their ends are not extreme records.
    ``"generalize"``
        Categories with a group below the threshold are merged into one
        ``"Other"`` category (with secondary merging, as countplot does);
        then as ``"suppress"``.
    ``"confidential"``
        O'Keefe: the variable is winsorised at mean +/- 2.6 SD and the
        estimates and error bars are computed from the winsorised values.
    ``"deterministic"``, ``"microaggregation"``
        The values are replaced by kNN centroids (Avraam et al.) or group
        means of at least `k` records (Senavirathne & Torra) within each
        group; estimates from the released values.
    ``"probabilistic"``, ``"rounding"``
        Keyed noise (SD `q` times the variable's SD) or rounding to `c`
        representative values; estimates from the released values.
    ``"none"``
        seaborn's raw bar plot, only when the policy allows raw output.
    ``"dp"``
        Differential privacy: each group's mean is a noisy sum of the values
        clipped to `bounds` over a noisy count (OpenDP; Laplace, or Gaussian
        with `delta`), the epsilon and delta split equally between sums and
        counts. The categories come from ``order`` (and ``hue_order``), and
        every group with a noisy count of at least 1 is drawn, none
        suppressed. The error bars (``errorbar=("ci", level)`` or None) are
        the approximate interval of the noise alone (delta method); they do
        not include sampling error.

    The value axis gets limits and ticks that equal no rare raw value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = barplot(penguins, x="island", y="body_mass_g", hue="sex", errorbar=("se", 1), ax=ax)
    >>> ax.safeplot_report.method
    'suppress'

    Differentially private means of named categories, values clipped to public bounds:

    >>> ax = barplot(penguins, x="island", y="body_mass_g", order=["Biscoe", "Dream"],
    ...              method="dp", epsilon=0.5, bounds=(2000, 7000), ax=ax)
    >>> ax.safeplot_report.params["bounds"]
    (2000.0, 7000.0)
    """
    pol = get_policy()
    rel = release_barplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        estimator=estimator,
        errorbar=errorbar,
        n_boot=n_boot,
        seed=seed,
        units=units,
        weights=weights,
        orient=orient,
        log_scale=log_scale,
        native_scale=native_scale,
        method=method,
        threshold=threshold,
        k=k,
        q=q,
        policy=pol,
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
        bounds=bounds,
    )
    lay = rel.layout
    refuse_native_other(native_scale, rel.other, lay, "barplot")
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    style = dict(
        color=color,
        palette=palette,
        saturation=saturation,
        fill=fill,
        hue_norm=hue_norm,
        width=width,
        dodge=dodge,
        gap=gap,
        log_scale=log_scale,
        native_scale=native_scale,
        formatter=formatter,
        legend=legend,
        capsize=capsize,
        err_kws=err_kws,
    )
    deprecated = {
        name: value
        for name, value in (("ci", ci), ("errcolor", errcolor), ("errwidth", errwidth))
        if not (isinstance(value, str) and value == "deprecated")
    }
    import seaborn as sns

    if get_method(rel.method).raw:
        with quiet_seaborn():
            sns.barplot(
                data,
                x=x,
                y=y,
                hue=hue,
                order=order,
                hue_order=hue_order,
                estimator=estimator,
                errorbar=errorbar,
                n_boot=n_boot,
                seed=seed,
                units=units,
                weights=weights,
                orient=orient,
                ax=ax,
                **style,
                **deprecated,
                **kwargs,
            )
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    if "ci" in deprecated:
        raise ValueError(
            "barplot: ci= is seaborn's deprecated spelling of errorbar; give errorbar=('ci', "
            f"{deprecated['ci']}) (or errorbar=None) instead."
        )
    _draw_bars(ax, rel, style, {**deprecated, **kwargs})
    set_safe_axis(ax, lay.value_axis, rel.value_lim, rel.value_ticks)
    axis = ax.yaxis if lay.value_axis == "y" else ax.xaxis
    if axis.get_scale() == "log":
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    if native_scale and lay.cat_numeric and rel.groups:
        safe_category_axis(ax, lay, rel.avoid_categories)
    return finish(ax, rel.report, annotate=annotate, policy=pol)
