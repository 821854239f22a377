"""Histogram releases and their drawing.

:func:`release_histogram` turns one raw variable into a
:class:`~safeplot.release.HistogramRelease` under a method; :func:`draw_histogram`
draws a release and nothing else (the bars are
:func:`safeplot.marks.bars.draw_histogram`) and attaches its report. The
seaborn-compatible ``histplot`` builds on these two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize.grids import (
    RareValues,
    discrete_edges,
    histogram_counts,
    hits_any,
    rare_values,
    safe_edges,
    safe_ticks,
)
from ..anonymize.suppression import coarsen_counts, coarsen_edges, suppress, trim_to_shown
from ..errors import DisclosureError
from ..marks import bars
from ..marks._axes import LEFT_OUT_GID, note_below
from ..marks._style import variable_type
from ..methods import AnonymizedValues, anonymize_values, available_methods, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, GridRelease, HistogramRelease, guard
from ..sources.dask import DaskColumns, check_dask_method, histogram_step, is_dask_collection
from . import _logbins
from ._categories import hue_dtype, stable_palette
from ._common import (
    LEFT_OUT_NOTE,
    attach_release,
    axes_for,
    check_positive_int,
    dropped_warning,
    finish,
    make_report,
    nothing_shown,
    quiet_seaborn,
    refuse_if_nothing_shown,
    resolve_annotate,
    set_safe_axis,
    takes_method_options,
)
from ._data import (
    categorical_order,
    facet_codes,
    plot_data,
    refuse_empty_facets,
    rows_without_level,
    wide_to_long,
)
from ._dp import dp_epsilon, dp_hue_levels
from .grid import release_grid

__all__ = [
    "HIST_METHODS",
    "HistogramPanel",
    "dp_epsilon",
    "draw_grid_histogram",
    "draw_histogram",
    "draw_histogram_panel",
    "hist",
    "histogram_panels",
    "histplot",
    "private_bin_counts",
    "release_histogram",
    "release_histograms",
]

#: Methods a histogram release supports (every family: value methods are binned too).
HIST_METHODS = tuple(m.name for m in available_methods())


def release_histogram(
    values: np.ndarray,
    *,
    name: str = "x",
    method: str | None = None,
    bins: int | str = "auto",
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    n_dropped: int = 0,
    function: str = "histplot",
    policy: Policy | None = None,
) -> HistogramRelease:
    """Release the histogram of one variable under a disclosure-control method.

    Parameters
    ----------
    values : array-like, shape (n,)
        Raw values. Missing values are dropped and counted in the report;
        text, infinite, empty, all-missing or constant data are refused.
    name : str
        The variable's name, for the report and the keyed noise.
    method : str, optional
        ``"suppress"`` (default from the policy), ``"generalize"``,
        ``"deterministic"``, ``"probabilistic"``, ``"confidential"`` or ``"none"``.
    bins : int or str, default "auto"
        Number of bins or a numpy rule; the edges lie on a safe rounded grid.
    threshold : int, optional
        Minimum count of a shown bin (default and floor: the policy's).
    factor : int, default 2
        Bin-width multiplier of ``"generalize"``.
    k, q : int, float, optional
        Parameters of ``"deterministic"`` and ``"probabilistic"``. Default: the
        policy's ``k_min`` and ``q_min``.
    n_dropped : int
        Rows the caller dropped for missing values (reported, rounded).
    function : str
        Name of the calling plot function, for the report.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).

    Returns
    -------
    HistogramRelease
        Edges, counts with suppressed bins as NaN, limits, ticks and report.
        Every count shown is 0 or at least ``threshold`` whatever the method:
        value-level methods are binned and then suppressed as well.

    Examples
    --------
    >>> import numpy as np
    >>> rel = release_histogram(np.random.default_rng(0).normal(size=200), bins=10)
    >>> bool(np.all(np.isnan(rel.counts) | (rel.counts == 0) | (rel.counts >= 3)))
    True
    """
    clean = clean_numeric({name: values})
    return release_histograms(
        clean.values[:, 0],
        name=name,
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        n_dropped=n_dropped + clean.n_dropped,
        function=function,
        policy=policy,
    )[0]


def draw_histogram(
    ax: Axes, release: HistogramRelease, *, color: Any = None, label: str | None = None
) -> Axes:
    """Draw a released histogram (:func:`safeplot.marks.bars.draw_histogram`), attach its report.

    Only the release's numbers reach matplotlib: bar edges and heights, the
    release's axis limits and tick positions.

    Parameters
    ----------
    ax : Axes
    release : HistogramRelease
    color : colour, optional
        Face colour of the bars.
    label : str, optional
        Legend label of the bars.

    Returns
    -------
    Axes
        With the release's report on ``ax.safeplot_report`` (and in the audit log).
    """
    guard.admit(release.report.function, release.report, release)
    bars.draw_histogram(ax, release, color=color, label=label)
    attach_release(ax, release.report, released=release)
    return ax


# -- seaborn-compatible functions ------------------------------------------------------


def _user_edges(bins: object, rare: np.ndarray) -> np.ndarray:
    """Validate explicit bin edges; an edge on a rare raw value is refused.

    Moving such an edge a little instead would leave a tell-tale shift in a
    vector file, pointing at the value it avoided.
    """
    try:
        edges = np.array(bins, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(
            f"bins must be a number of bins, a numpy rule name or increasing edges, got {bins!r}."
        ) from None
    if edges.ndim != 1 or edges.size < 2 or not np.isfinite(edges).all():
        raise ValueError("Explicit bins must be at least two finite, increasing edges.")
    if not (np.diff(edges) > 0).all():
        raise ValueError("Explicit bin edges must be strictly increasing.")
    if hits_any(edges, rare):
        raise DisclosureError(
            "An explicit bin edge equals a value held by fewer than threshold records. "
            "Use edges on a round grid clear of the data, or give bins as a number."
        )
    return edges


def _link(
    values: np.ndarray,
    codes: np.ndarray,
    releases: list[HistogramRelease],
    level_names: list,
    levels: np.ndarray | None,
    partition: str | None,
    function: str,
    facets: guard.FacetTable | None = None,
    log: tuple[float, np.ndarray] | None = None,
    unlabelled: guard.Unlabelled | None = None,
) -> None:
    """Apply the ledger's secondary suppression to histograms of raw counts (in place).

    A histogram with ``hue`` and one without, of the same records, would give
    a suppressed cell as the bin's total minus the shown levels; the ledger
    hides one more cell where that difference would be a small count. The
    records of levels not drawn (left out of `hue_order`) are in the bins'
    totals too, as one more level whose every bin is hidden: otherwise the
    total minus the levels drawn would count them per bin. `log` is
    ``(base, raw values)`` when `values` are logarithms (``log_scale``): the
    ledger then knows the records by their raw values and the bins in data
    units, as a histogram of the same records on a linear scale has them.
    `unlabelled` holds the records with no level (a missing hue): they are in
    the totals of a histogram without ``hue`` as well, so they join the link
    as records of a level not drawn.
    """
    if any(not np.array_equal(r.edges, releases[0].edges) for r in releases):
        return  # bins per level: no common bin to difference
    split = None if levels is None else (partition or ("hue", *map(str, level_names)))
    if facets is not None and partition is None:
        split = None  # facets without hue: one level per facet
    edges = releases[0].edges
    if log is not None:
        edges, values = log[0] ** edges, log[1]
    if unlabelled is not None and unlabelled.values.size:
        values, codes, facets = unlabelled.join(values, codes, facets)

    def link(records: np.ndarray, per: dict, part: Any) -> dict:
        return guard.link_counts(records, edges, per, partition=part, function=function)

    before = [r.counts for r in releases]
    after = guard.link_levels(values, codes, before, split, link, facets=facets)
    for rel, old, new in zip(releases, before, after, strict=True):
        added = int(np.isnan(new).sum() - np.isnan(old).sum())
        if added:
            rel.counts = new
            rel.report.cells_suppressed += added
            rel.report.warnings.append(guard.linked_warning(added, "bin"))


def release_histograms(
    values: np.ndarray,
    *,
    levels: np.ndarray | None = None,
    level_names: list | None = None,
    name: str = "x",
    method: str | None = None,
    bins: int | str | np.ndarray = "auto",
    binwidth: float | None = None,
    binrange: tuple[float, float] | None = None,
    discrete: bool | None = None,
    common_bins: bool = True,
    centres_drawn: bool = True,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    n_dropped: int = 0,
    function: str = "histplot",
    policy: Policy | None = None,
    released: AnonymizedValues | None = None,
    counts_from: DaskColumns | None = None,
    partition: str | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    leave_out: bool = False,
    facets: guard.FacetTable | None = None,
    log: tuple[float, np.ndarray] | None = None,
    unlabelled: guard.Unlabelled | None = None,
) -> list[HistogramRelease | None]:
    """Release one histogram per hue level, suppressed per level, on common bins.

    Parameters
    ----------
    values : ndarray, shape (n,)
        Finite raw values (clean them first).
    levels : ndarray of int, shape (n,), optional
        Hue level code of each value (``-1`` for values not plotted).
    level_names : list, optional
        The label of each level code.
    name, method, threshold, factor, k, q, n_dropped, function, policy
        As in :func:`release_histogram`.
    bins, binwidth, binrange, discrete, common_bins
        As in :func:`seaborn.histplot`; edges are placed on a safe grid
        (explicit edges are moved off rare raw values).
    centres_drawn : bool, default True
        Whether the drawing shows bin centres (step and polygon outlines
        do, bars do not); discrete bins then avoid rare values at centres.
    released : AnonymizedValues, optional
        Values already released from `values` by `method` (a value method),
        row for row; its first column is binned instead of anonymising
        `values` again, so that the histogram describes the same released
        data as another panel (pair and joint plots). Rare values are still
        those of the raw `values`.
    counts_from : DaskColumns, optional
        Count out of core instead (a dask DataFrame; `values` and `levels`
        are not given): the extremes, rare values, bin rule and counts come
        from these aggregates, and the release is made from them exactly as
        from the values (``"suppress"`` and ``"generalize"`` only).
    partition : str, optional
        Name of the variable that splits the records into `levels` (the
        hue), for the release ledger; by default the level names stand for it.
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` release (default 1.0), spent from
        the policy's ``dp_budget`` (see :func:`_release_private_histograms`).
    mechanism : {"laplace", "gaussian"}, default "laplace"
        Noise of a ``method="dp"`` release; ``"gaussian"`` needs `delta`.
    delta : float, optional
        The delta of a Gaussian ``method="dp"`` release (at most 1e-5), spent
        from the policy's ``dp_delta_budget``.
    leave_out : bool, default False
        What to do with a level of some records but fewer than the threshold
        (or the method's group floor): by default the release is refused;
        with True the level is left out (:func:`safeplot.release.guard.shown_groups`)
        and its place in the list is None. Only counts the release ledger
        links are left out (``"suppress"`` and ``"generalize"`` of values
        in memory): the left-out level goes to the ledger as a level whose
        every bin is hidden, so that a histogram of the same records without
        the split cannot show its counts as bin total minus the levels shown.
        Under a value method, or counted out of core, a small level is
        refused still. The shown releases' reports carry the warning and
        ``details["groups_left_out"]``.
    facets : FacetTable, optional
        When `levels` are the cells of a table of facets by hue levels
        (:class:`safeplot.release.guard.FacetTable`): each value's level of
        every facet variable and of the hue, for the ledger, which then
        links every margin of the table (:func:`safeplot.release.guard.link_levels`).
    log : (float, ndarray), optional
        ``(base, raw values)`` when `values` are the logarithms of the raw
        values in that base (``log_scale``): the ledger links the records by
        their raw values, on the bins in data units.
    unlabelled : Unlabelled, optional
        The records with a value but no level (a missing hue), by their raw
        values in data units. They are neither binned nor drawn, but a
        histogram without ``hue`` counts them, so the ledger links them as
        a level whose every bin is hidden (``"suppress"`` and
        ``"generalize"``).

    Returns
    -------
    list of HistogramRelease or None
        One per level, in level order (None for a level left out); each is
        suppressed on its own counts and the list shares one span of bins
        (when `common_bins`).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(0).normal(size=400)
    >>> a, b = release_histograms(x, levels=np.arange(400) % 2, level_names=['odd', 'even'])
    >>> bool(np.array_equal(a.edges, b.edges))
    True
    >>> few = release_histograms(np.r_[x, 0.1, 0.2], levels=np.r_[np.arange(400) % 2, 2, 2],
    ...                          level_names=['odd', 'even', 'few'], leave_out=True)
    >>> few[2] is None, few[0].report.details["groups_left_out"]
    (True, 1)
    """
    pol = get_policy(policy)
    method = pol.check_method(method, "hist")
    m = get_method(method)
    if counts_from is not None:
        check_dask_method(method, function)
        raw = counts_from.span_values(0)  # the extremes only; nothing here is drawn
        codes = np.full(raw.size, -1)
        levels = None if not counts_from.has_hue else codes
    else:
        raw = np.asarray(values, dtype=float)
        codes = np.zeros(raw.size, dtype=int) if levels is None else np.asarray(levels)
    if levels is not None and level_names is None:
        raise ValueError("level_names must be given with levels.")
    level_names = [None] if level_names is None else list(level_names)
    n_levels = len(level_names)
    threshold = pol.check_threshold(threshold)
    params: dict = {} if m.raw else {"threshold": threshold}
    details: dict = {}
    rule_bins = None
    groups = None
    left_out = np.array([], dtype=int)
    if counts_from is not None:
        if isinstance(bins, str) and binrange is None and binwidth is None and not discrete:
            rule_bins = counts_from.rule_bins(0, bins)
        step, points = histogram_step(
            counts_from,
            0,
            bins=bins,
            binwidth=binwidth,
            binrange=binrange,
            discrete=discrete,
            n_bins=rule_bins,
        )
        rare = counts_from.rare(
            0, threshold, step=step, per_level=levels is not None, points=points
        )
    elif not m.raw:
        # values rare within a level are avoided as well as values rare overall; they are
        # looked for only near the few edges and ticks a grid would draw
        rare = RareValues(raw, threshold, None if levels is None else codes)
    else:
        rare = np.array([])
    if levels is not None and not m.raw and not m.private:
        # (under dp the levels are the call's, dp_hue_levels: each is drawn whatever its count)
        sizes = (
            np.bincount(codes[codes >= 0], minlength=n_levels)
            if counts_from is None
            else counts_from.level_sizes
        )
        # a method that groups records within each level needs enough of them for its groups
        need, why = (
            m.group_floor(pol, k)
            if m.groups_within_strata and released is None
            else (threshold, f"threshold={threshold}")
        )
        need = max(need, threshold)
        small = [str(level_names[i]) for i in np.flatnonzero((sizes > 0) & (sizes < need))]
        # a level left out is safe only where the ledger links these counts with other
        # releases of the same records (the bin total minus the levels shown would count it)
        linked = (
            guard.small_group_rule(m, "counts").leave_out and counts_from is None and common_bins
        )
        if small and leave_out and linked:
            groups = guard.shown_groups(sizes, need, why, function=function, what="hue level")
            left_out = np.flatnonzero((sizes > 0) & ~groups.shown)
        elif small:
            names = ", ".join(repr(s) for s in small)
            if not leave_out:
                raise DisclosureError(
                    f"{function}: hue level(s) {names} have fewer than {need} records ({why}); "
                    "their names would appear in the legend with nothing drawn. Merge them "
                    "with other levels or leave them out."
                )
            how = (
                "counted out of core, the counts are not linked"
                if counts_from is not None
                else "bins per level are not linked"
                if not common_bins
                else f"under method={method!r} the counts of moved values are not linked"
            )
            raise DisclosureError(
                f"{function}: hue level(s) {names} have fewer than {need} records ({why}), and "
                f"cannot be left out: {how} by the release ledger, so the bin totals of another "
                "release minus the levels shown would count the records of a level left out. "
                "Merge small levels with others, or use method='suppress' on data in memory "
                "(which leaves them out)."
            )
    if m.private:
        if released is not None:
            raise ValueError(f"released= needs a value method, not method={method!r}.")
        return _release_private_histograms(
            raw,
            codes,
            n_levels,
            m,
            name=name,
            method=method,
            bins=bins,
            binwidth=binwidth,
            binrange=binrange,
            discrete=discrete,
            epsilon=epsilon,
            function=function,
            policy=pol,
            mechanism=mechanism,
            delta=delta,
        )
    if epsilon is not None or delta is not None or mechanism != "laplace":
        raise ValueError(
            f"{function}: epsilon= is the privacy loss of method='dp' (mechanism= and delta= "
            f"belong to it too); method={method!r} takes no epsilon."
        )
    if released is not None:
        if not m.moves_values:
            raise ValueError(f"released= needs a value method, not method={method!r}.")
        given = np.asarray(released.values, dtype=float)
        given = given[:, 0] if given.ndim == 2 else given
        if given.shape[0] != raw.size:
            raise ValueError("released= must have one row per value.")
        params.update(released.params)
        details.update(released.details)
    released = raw if released is None else given
    if m.moves_values and released is raw:
        out = anonymize_values(
            raw[:, None],
            method,
            names=[name],
            k=k,
            q=q,
            strata=None if levels is None else codes,
            threshold=threshold,
            policy=pol,
            off_rare=False,  # binned, never drawn
            _rare=None if levels is not None else [rare],  # one list of rare values for both
        )
        released = out.values[:, 0]
        params.update(out.params)
        details.update(out.details)
    if binrange is not None:
        lo, hi = (float(v) for v in binrange)
        if not (np.isfinite([lo, hi]).all() and hi > lo):
            raise ValueError(f"binrange must be (low, high) with low < high, got {binrange!r}.")
        inside = (released >= lo) & (released <= hi)
        released, codes = released[inside], codes[inside]
        if facets is not None:
            facets = facets.take(inside)
        if log is not None:
            log = (log[0], np.asarray(log[1])[inside])
        if unlabelled is not None:
            u = np.asarray(unlabelled.values, dtype=float)
            if log is not None:  # binrange is in log units; no log: outside every bin
                u = np.log(np.where(u > 0, u, np.nan)) / np.log(log[0])
            unlabelled = unlabelled.take((u >= lo) & (u <= hi))

    def edges_for(v: np.ndarray) -> np.ndarray:
        if m.raw:
            if binwidth is not None:
                return np.arange(v.min(), v.max() + binwidth, binwidth)
            return np.histogram_bin_edges(v, bins=bins, range=binrange)
        if not isinstance(bins, (str, int, np.integer)) and binwidth is None:
            return _user_edges(bins, rare)
        # with binrange the grid covers the range asked for, not the values inside it
        # (a grid fitted to the few values in a narrow range would say where they are)
        span = v if binrange is None else np.asarray(binrange, dtype=float)
        if discrete:
            return discrete_edges(span, rare, centres_drawn)
        return safe_edges(
            span,
            bins if binrange is None or not isinstance(bins, str) else 10,
            binwidth=binwidth,
            avoid=rare,
            n_bins=rule_bins,
        )

    common = edges_for(released) if common_bins or counts_from is not None else None
    if counts_from is not None:
        level_counts, level_sizes = counts_from.histogram(0, common, within=binrange)
    if m.coarsens:
        factor = check_positive_int("factor", factor)
        params["factor"] = factor
    out_releases = []
    first_shown = min(set(range(n_levels)) - set(left_out.tolist()), default=-1)
    for i in range(n_levels):
        v = released[codes == i]
        if v.size == 0 and common is None:
            raise ValueError(
                f"{function}: hue level {level_names[i]!r} has no values to plot; "
                "remove it from hue_order."
            )
        edges = common if common is not None else edges_for(v)
        if counts_from is None:
            counts, n_level = histogram_counts(v, edges), int(v.size)
        else:
            counts, n_level = level_counts[i], int(level_sizes[i])
        if m.coarsens:
            counts, edges = coarsen_counts(counts, factor), coarsen_edges(edges, factor)
        if m.raw:
            shown_counts, n_supp = counts.astype(float), 0
        elif i in left_out:
            # every bin hidden: the ledger learns that this level's counts are not shown
            shown_counts, n_supp = np.full(counts.shape, np.nan), 0
        else:
            shown = suppress(counts, threshold)
            shown_counts, n_supp = shown.counts, shown.n_suppressed
        warnings = nothing_shown(shown_counts, "bin", "Use fewer bins or method='generalize'.")
        if groups is not None:
            warnings.append(groups.warning)
        report = make_report(
            function,
            method,
            params,
            (name,),
            n_level,
            n_dropped if i == first_shown else 0,
            pol,
            cells_suppressed=n_supp,
            details=details if groups is None else {**details, "groups_left_out": len(left_out)},
            warnings=warnings,
        )
        out_releases.append(
            HistogramRelease(edges, shown_counts, (0.0, 0.0), np.array([]), report)
        )
    if not m.raw and not m.moves_values and counts_from is None:
        # the records of a level left out are binned with the rest, its bins all hidden
        _link(
            released,
            codes,
            out_releases,
            level_names,
            levels,
            partition,
            function,
            facets,
            log,
            unlabelled,
        )
    releases_out: list[HistogramRelease | None] = [
        None if i in left_out else r for i, r in enumerate(out_releases)
    ]
    out_releases = [r for r in releases_out if r is not None]
    if not m.raw:
        refuse_if_nothing_shown(
            np.concatenate([r.counts for r in out_releases]),
            "bin",
            "Use fewer bins, a wider binrange or method='generalize'.",
        )
    # one span for every level: from the first to the last bin any level shows
    if common_bins and not m.raw:
        stacked = np.stack([r.counts for r in out_releases])
        _, (span_edges,) = trim_to_shown(stacked, out_releases[0].edges)
        first = int(np.searchsorted(out_releases[0].edges, span_edges[0]))
        for r in out_releases:
            r.edges = span_edges
            r.counts = r.counts[first : first + span_edges.size - 1]
    for r in out_releases:
        if not m.raw and not common_bins:
            r.counts, (r.edges,) = trim_to_shown(r.counts, r.edges)
        lo_edge = min(float(rr.edges[0]) for rr in out_releases)
        hi_edge = max(float(rr.edges[-1]) for rr in out_releases)
        r.xlim = (lo_edge, hi_edge)
        r.xticks = safe_ticks(lo_edge, hi_edge)
    return releases_out


#: Bins of a differentially private histogram given no number of bins.
DP_BINS = 20
#: Share of epsilon a differentially private range estimate spends, when no binrange is given.
DP_RANGE_SHARE = 0.25


def dp_edges(
    bins: object,
    binwidth: float | None,
    binrange: tuple[float, float] | None,
    discrete: bool | None,
) -> np.ndarray | None:
    """Return the bin edges of a DP histogram fixed by the call alone, or None if the data must.

    The edges come from explicit ``bins``, or from ``binrange`` with
    ``bins`` or ``binwidth``; nothing here reads the data. None means the
    range is to be estimated with differential privacy.

    Examples
    --------
    >>> dp_edges(4, None, (0.0, 8.0), None)
    array([0., 2., 4., 6., 8.])
    >>> dp_edges("auto", None, None, None) is None
    True
    """
    if not isinstance(bins, (str, int, np.integer)):
        if binrange is not None or binwidth is not None:
            raise ValueError("Give bins as edges, or binrange with bins or binwidth, not both.")
        edges = np.asarray(bins, dtype=float)
        if edges.ndim != 1 or edges.size < 2 or not np.isfinite(edges).all():
            raise ValueError("Explicit bins must be at least two finite, increasing edges.")
        if not (np.diff(edges) > 0).all():
            raise ValueError("Explicit bin edges must be strictly increasing.")
        return edges
    if isinstance(bins, str) and bins != "auto":
        raise ValueError(
            f"bins={bins!r}: a numpy bin rule reads the data, which method='dp' may not do "
            "before its noise is added; give a number of bins, edges, or binwidth."
        )
    n_bins = DP_BINS if isinstance(bins, str) else int(bins)
    if n_bins < 1:
        raise ValueError(f"bins must be a positive number of bins, got {bins!r}.")
    if binrange is None:
        return None
    lo, hi = (float(v) for v in binrange)
    if not (np.isfinite([lo, hi]).all() and hi > lo):
        raise ValueError(f"binrange must be (low, high) with low < high, got {binrange!r}.")
    if discrete:
        return np.arange(np.floor(lo), np.ceil(hi) + 1.0) - 0.5 if hi - lo < 10_000 else None
    if binwidth is not None:
        width = float(binwidth)
        if not (np.isfinite(width) and width > 0):
            raise ValueError(f"binwidth must be positive, got {binwidth!r}.")
        count = int(np.ceil((hi - lo) / width - 1e-9))
        if count > 10_000:
            raise ValueError("binwidth gives more than 10000 bins over binrange.")
        return lo + width * np.arange(count + 1)
    return np.linspace(lo, hi, n_bins + 1)


def private_bin_counts(
    raw: np.ndarray,
    codes: np.ndarray,
    n_levels: int,
    *,
    epsilon: float,
    bins: object = "auto",
    binwidth: float | None = None,
    binrange: tuple[float, float] | None = None,
    clamp: bool = True,
    function: str = "histplot",
) -> tuple[np.ndarray, Any, dict[str, Any]]:
    """Spend `epsilon` on DP counts of `raw` per level, on bins fixed before the data is read.

    The edges come from the call (:func:`dp_edges`) or, without
    ``binrange``, from a differentially private range estimate spending a
    quarter of epsilon; the rest covers the counts (L1 sensitivity 1: one
    record is in one bin of one level). The arguments are checked before
    anything is spent.

    Parameters
    ----------
    raw : ndarray, shape (n,)
        Finite raw values.
    codes : ndarray of int, shape (n,)
        Level of each value (``-1``: not counted).
    n_levels : int
        Number of levels.
    epsilon : float
        Privacy loss of the whole release (checked: :func:`dp_epsilon`).
    bins, binwidth, binrange
        As in :func:`dp_edges`.
    clamp : bool, default True
        Set negative noisy counts to 0; off for a caller that post-processes
        the raw noisy counts itself (a cumulative sum is less biased from them).
    function : str
        The calling function, for the ledger.

    Returns
    -------
    edges : ndarray
    noisy : DPCounts
        Counts of shape ``(n_levels, len(edges) - 1)``.
    details : dict
        What the report says of the mechanism, the epsilon split and the budget.
    """
    from ..anonymize import dp as dpnum

    edges = dp_edges(bins, binwidth, binrange, False)
    n_bins = DP_BINS if isinstance(bins, str) else int(bins) if edges is None else edges.size - 1
    left = guard.spend_epsilon(epsilon, function=function)
    eps_range = 0.0
    if edges is None:
        eps_range = epsilon * DP_RANGE_SHARE
        lo, hi = dpnum.private_range(raw, eps_range)
        edges = dp_edges(n_bins, binwidth, (lo, hi), False)
    eps_counts = epsilon - eps_range
    counts = np.stack(
        [histogram_counts(raw[(codes == i)], edges) for i in range(n_levels)]
    ).astype(int)
    noisy = dpnum.noisy_counts(counts, eps_counts, clamp=clamp)
    details: dict[str, Any] = {
        "mechanism": "discrete Laplace (OpenDP make_laplace), L1 sensitivity 1",
        "epsilon_counts": eps_counts,
        "noise_scale": noisy.scale,
        "noise_sd": round(noisy.sd, 3),
        "accuracy_95": noisy.accuracy,
        "bins_from": "a differentially private range estimate" if eps_range else "the call",
        "budget_left": round(left, 6),
    }
    if eps_range:
        details["epsilon_range"] = eps_range
    return np.asarray(edges, dtype=float), noisy, details


def _release_private_histograms(
    raw: np.ndarray,
    codes: np.ndarray,
    n_levels: int,
    m: Any,
    *,
    name: str,
    method: str,
    bins: object,
    binwidth: float | None,
    binrange: tuple[float, float] | None,
    discrete: bool | None,
    epsilon: float | None,
    function: str,
    policy: Policy,
    mechanism: str = "laplace",
    delta: float | None = None,
) -> list[HistogramRelease]:
    """Release DP histograms (one per hue level) of `raw`, spending epsilon from the budget.

    The edges are fixed before the data is read (:func:`dp_edges`) or, with
    no ``binrange``, placed on a range estimated with differential privacy
    (:func:`safeplot.anonymize.dp.private_range`, a quarter of epsilon).
    One record falls in one bin of one level, so all the levels' counts
    together have L1 sensitivity 1 and one epsilon covers the release.
    Values outside the edges are not counted (as seaborn with ``binrange``).
    The arguments are checked first; epsilon is spent once the release is
    certain to be made, and before anything is drawn.
    """
    from ..anonymize import dp as dpnum

    given = m.get_params().get("epsilon")
    if epsilon is not None and given is not None and float(epsilon) != float(given):
        raise ValueError(f"epsilon={epsilon!r} contradicts the method's epsilon={given!r}.")
    eps = dpnum.check_epsilon(
        epsilon if epsilon is not None else given if given is not None else m.default_epsilon
    )
    mech = dpnum.check_mechanism(m.get_params().get("mechanism", mechanism))
    dlt = dpnum.check_delta(m.get_params().get("delta", delta), mech)
    if not dpnum.opendp_available():
        dpnum._dp()  # raises, saying how to install OpenDP
    edges = dp_edges(bins, binwidth, binrange, discrete)
    if edges is None and discrete:
        raise ValueError(
            f"{function}: discrete bins with method='dp' need binrange=(low, high), fixed "
            "before the data is read."
        )
    n_bins = DP_BINS if isinstance(bins, str) else int(bins) if edges is None else edges.size - 1
    # every argument is valid: the release will be made, so its privacy loss is spent now
    left = guard.spend_epsilon(eps, function=function, delta=dlt)
    eps_range = 0.0
    if edges is None:
        eps_range = eps * DP_RANGE_SHARE
        lo, hi = dpnum.private_range(raw, eps_range)
        # post-processing of the estimate: binwidth, else the number of bins, over its span
        edges = dp_edges(n_bins, binwidth, (lo, hi), False)
    eps_counts = eps - eps_range
    counts = np.stack(
        [histogram_counts(raw[(codes == i)], edges) for i in range(n_levels)]
    ).astype(int)
    noisy = dpnum.mechanism_counts(counts, eps_counts, mechanism=mech, delta=dlt or None)
    params: dict[str, Any] = {"epsilon": eps}
    if mech != "laplace":
        params.update(mechanism=mech, delta=dlt)
    details: dict[str, Any] = {
        "mechanism": "discrete Laplace (OpenDP make_laplace), L1 sensitivity 1"
        if mech == "laplace"
        else "discrete Gaussian (OpenDP make_gaussian, zCDP converted to (epsilon, delta)), "
        "L2 sensitivity 1",
        "epsilon_counts": eps_counts,
        "noise_scale": noisy.scale,
        "noise_sd": round(noisy.sd, 3),
        "accuracy_95": noisy.accuracy,
        "bins_from": "a differentially private range estimate" if eps_range else "the call",
        "budget_left": round(left, 6),
    }
    if eps_range:
        details["epsilon_range"] = eps_range
    warnings = [
        f"Differentially private counts (epsilon={eps:g}"
        + (f", delta={dlt:g}" if dlt else "")
        + f"): each count +/- {noisy.accuracy} at 95%; negative noisy counts shown as 0."
    ]
    xlim = (float(edges[0]), float(edges[-1]))
    xticks = safe_ticks(*xlim)
    out = []
    for i in range(n_levels):
        shown = noisy.counts[i]
        report = make_report(
            function,
            method,
            params,
            (name,),
            round(float(shown.sum())),  # a sum of noisy counts: post-processing
            0,  # rows dropped are a count of records too, and not released under dp
            policy,
            details=details,
            warnings=warnings if i == 0 else [],
        )
        out.append(
            HistogramRelease(
                np.asarray(edges, dtype=float),
                shown,
                xlim,
                xticks,
                report,
                accuracy=float(noisy.accuracy),
            )
        )
    return out


def _refuse_weights(weights: object, method: str, function: str) -> None:
    if weights is not None and not get_method(method).raw:
        raise ValueError(
            f"{function}: weights= gives each record its own value, and weighted sums of a few "
            "records are not protected by small-cell suppression. Drop weights, or aggregate "
            "the data to counts first (e.g. safeplot.crosstab)."
        )


def _level_codes(frame, hue_order) -> tuple[np.ndarray | None, list]:
    """Integer hue code per row (-1: not in hue_order) and the level names."""
    if "hue" not in frame.columns:
        return None, [None]
    levels = categorical_order(frame["hue"], hue_order)
    lookup = {lev: i for i, lev in enumerate(levels)}
    codes = frame["hue"].map(lambda v: lookup.get(v, -1)).to_numpy(dtype=int)
    return codes, levels


def _drawn_frame(releases: list[HistogramRelease], var: str, hue: str | None) -> pd.DataFrame:
    """One row per shown bin: its centre, its released count and its hue level."""
    rows = []
    for rel in releases:
        shown = np.nan_to_num(rel.counts) > 0
        centres = (rel.edges[:-1] + rel.edges[1:])[shown] / 2
        part = pd.DataFrame({var: centres, _COUNT: rel.counts[shown]})
        if hue is not None:
            part[hue] = rel.level
        rows.append(part)
    return pd.concat(rows, ignore_index=True)


_COUNT = "\x00count"


@takes_method_options
def histplot(
    data=None,
    *,
    x=None,
    y=None,
    hue=None,
    weights=None,
    stat="count",
    bins="auto",
    binwidth=None,
    binrange=None,
    discrete=None,
    cumulative=False,
    common_bins=True,
    common_norm=True,
    multiple="layer",
    element="bars",
    fill=True,
    shrink=1,
    kde=False,
    kde_kws=None,
    line_kws=None,
    thresh=0,
    pthresh=None,
    pmax=None,
    cbar=False,
    cbar_ax=None,
    cbar_kws=None,
    palette=None,
    hue_order=None,
    hue_norm=None,
    color=None,
    log_scale=None,
    legend=True,
    ax: Axes | None = None,
    method: str | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs,
) -> Axes:
    """Plot a histogram of released data, as :func:`seaborn.histplot` does.

    The data are released first (see Methods) and only the released bins are
    drawn, by seaborn, so ``stat``, ``multiple``, ``element``, ``kde``,
    ``hue`` and the palette behave as in seaborn. Bin edges lie on a rounded
    grid that avoids every rare raw value, and the axis spans only bins that
    are shown.

    Parameters
    ----------
    data : DataFrame, Series, array or mapping, optional
        Long-form data with variables named by `x`, `y`, `hue`; or wide-form
        data (no `x`/`y`): one histogram per numeric column, as hue levels.
    x, y : name or vector, optional
        The variable (vertical bars for `x`, horizontal for `y`); both give
        a bivariate histogram on the safe density grid. A categorical
        variable (text, a pandas categorical) is counted as seaborn counts
        it, one bar per level at positions 0, 1, ... with the level names as
        tick labels; see Notes.
    hue : name or vector, optional
        Levels drawn in different colours; each level's bins are suppressed
        on its own counts. A level with some records but fewer than
        ``threshold`` (or the method's minimum) is left out, with a note
        under the Axes that names no level: one found in the data is not
        named, one named in `hue_order` keeps its legend entry and is drawn
        empty. Under a value method, or for a dask DataFrame, such a level is
        refused instead (see Notes).
    weights : None
        Per-record weights are refused (weighted sums of a few records are
        not protected by small-cell suppression), except with ``method="none"``.
    stat : {"count", "frequency", "probability", "percent", "density"}
        As in seaborn, computed from the released counts. With unequal bins
        (explicit `bins` edges) ``"count"`` becomes ``"frequency"`` (count
        per unit width), so bar areas stay comparable; the report says so.
    bins : int, str or sequence, default "auto"
        Number of bins or a numpy rule (placed on the safe grid), or explicit
        edges (any edge equal to a rare raw value is moved off it). For a
        bivariate histogram, a number of cells per axis; a rule name chooses
        the cells by the number of records, as seaborn's rules do
        (:func:`~safeplot.plots.grid.grid_bins_for`: 11 x 11 for 344
        records, 30 x 30 from about 2,700 at the default threshold).
    binwidth : float, optional
        Width of each bin, on a grid aligned to its multiples.
    binrange : (float, float), optional
        Only values in this range are binned.
    discrete : bool, optional
        Unit-width bins centred on the integers.
    cumulative, common_norm, multiple, element, fill, shrink : optional
        As in seaborn.
    common_bins : bool, default True
        Hue levels share bins. ``False`` is refused: each level is suppressed
        on the same grid so levels can be compared.
    kde : bool, default False
        Add a kernel density estimate of the released bins: each shown
        record placed at its bin centre.
    kde_kws, line_kws, thresh, pthresh, pmax, cbar, cbar_ax, cbar_kws : optional
        As in seaborn (the bivariate ones act on the released grid).
    palette, hue_order, hue_norm, color, legend : optional
        As in seaborn.
    log_scale : bool or number, or pair, optional
        As in seaborn: the bins are evenly spaced in the logarithm of the
        values (base 10 for ``True``), between the logarithms of the
        released bin range, and the value axis is logarithmic. The values
        must be positive (zero or negative values are refused). Histograms of
        one variable of a pandas frame only.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (default: the policy's for histograms,
        ``"suppress"``). See Methods.
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` release (default 1.0), spent from the
        policy's ``dp_budget``. The bins are fixed before the data is read: give
        ``binrange`` (and ``bins`` or ``binwidth``), or a quarter of epsilon is spent
        on a differentially private range estimate. Each count carries discrete
        Laplace noise of scale 1/epsilon, is shown with its 95% error bar, and is
        not suppressed (see the security notes). With `x` and `y` the grid of
        cells gets the noise (``binrange`` one pair for both axes or one per axis)
        and the Axes states each cell's 95% accuracy.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        ``method="dp"``: the noise; ``"gaussian"`` (discrete Gaussian, (epsilon,
        delta)-DP through OpenDP) needs `delta`.
    delta : float, optional
        ``method="dp"`` with ``mechanism="gaussian"``: at most 1e-5, spent from
        the policy's ``dp_delta_budget``.
    threshold : int, optional
        Minimum count of a shown bin (default and floor: the policy's).
    factor : int, default 2
        Bin-width multiplier of ``"generalize"``.
    k : int, optional
        Records per centroid (``"deterministic"``).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of the variable's SD (``"probabilistic"``).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    annotate : bool, optional
        Add the note naming the method (default: the policy's choice).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values (``method="rounding"``).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``).
    **kwargs
        Passed to seaborn and on to matplotlib.

    Returns
    -------
    Axes
        With ``.safeplot_report`` describing the release.

    See Also
    --------
    hist : The matplotlib-style call.
    safeplot.plots.distributions.release_histograms : The release alone.

    Notes
    -----
    What each method releases:

    - ``"suppress"``: bins with a count in ``(0, threshold)`` are removed and
      shown as gaps.
    - ``"generalize"``: bins ``factor`` times wider, then suppression.
    - ``"deterministic"``: the histogram of the kNN centroids (Avraam et al.),
      within each hue level; small bins are then suppressed as well.
    - ``"probabilistic"``: the histogram of the values plus keyed noise.
    - ``"confidential"``: the histogram of the winsorised values (O'Keefe).
    - ``"none"``: the raw histogram, only where the policy allows raw output.

    Whatever the method, every count drawn is 0 or at least ``threshold``.

    A hue level left out is not a gap another release can fill: its bins go
    to the session's release ledger as hidden cells, its records counted in
    each bin's total, so that a histogram of the same records without `hue`
    (drawn before or after) cannot show its counts as the bin's total minus
    the levels shown; the ledger hides one more cell of such a bin instead.
    The counts of the value methods (moved values) and of a dask DataFrame
    (counted out of core) are not linked by the ledger, so there a small
    level is refused.

    A categorical `x` (or `y`) is counted per level (and hue level) as
    :func:`~safeplot.countplot` releases its counts (``"suppress"``,
    ``"generalize"``, ``"confidential"``; the policy's method for count
    plots by default): cells below ``threshold`` are suppressed, with
    secondary suppression, and a level or hue level with nothing shown is
    left out and not named. seaborn then draws the released counts with
    ``multiple``, ``shrink``, ``stat`` (of the released counts), ``element``
    and the legend as it draws a discrete histogram. ``bins``, ``binwidth``,
    ``binrange``, ``discrete=False``, ``log_scale``, ``kde`` and
    ``method="dp"`` (use ``countplot(order=..., method="dp")``) are refused
    for a categorical variable, as are the value methods.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> ax = safeplot.histplot(data=tips, x="day", hue="sex", multiple="dodge", shrink=.8)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['Thur', 'Fri', 'Sat', 'Sun']
    >>> penguins = safeplot.load_dataset("penguins")
    >>> ax = safeplot.histplot(data=penguins, x="flipper_length_mm", hue="species")
    >>> ax.safeplot_report.method
    'suppress'
    """
    pol = get_policy()
    requested = method
    method = pol.check_method(method, "hist")
    resolve_annotate(annotate, pol)
    _refuse_weights(weights, method, "histplot")
    if hue is not None and not common_bins:
        raise ValueError(
            "histplot: common_bins=False is not supported: hue levels are suppressed on one "
            "common grid so that they can be compared. Leave common_bins=True."
        )
    if x is None and y is None:
        if data is None:
            raise ValueError("histplot needs data: pass data= and x= (or y=).")
        if hue is not None:
            raise ValueError("histplot: hue needs long-form data with x= or y= named.")
        pdata = wide_to_long(data, function="histplot")
        frame = pdata.frame.rename(columns={"value": "x", "variable": "hue"})
        labels = {"x": "", "hue": ""}
        orient = "x"
    else:
        pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function="histplot")
        frame, labels = pdata.frame, pdata.labels
        orient = "x" if x is not None else "y"
        categorical = [r for r in ("x", "y") if r in frame.columns and _is_categorical(frame[r])]
        if categorical and x is not None and y is not None:
            raise ValueError(
                f"histplot: {categorical[0]}={labels.get(categorical[0])!r} is categorical, and "
                "a bivariate histogram needs two numeric variables. Count one categorical "
                "variable per call (histplot(x=..., hue=...) or countplot), or tabulate both "
                "with safeplot.crosstab."
            )
        if categorical:
            return _categorical_histplot(
                data,
                x=x,
                y=y,
                hue=hue,
                hue_order=hue_order,
                method=requested,
                threshold=threshold,
                stat=stat,
                bins=bins,
                binwidth=binwidth,
                binrange=binrange,
                discrete=discrete,
                cumulative=cumulative,
                common_norm=common_norm,
                multiple=multiple,
                element=element,
                fill=fill,
                shrink=shrink,
                kde=kde,
                log_scale=log_scale,
                palette=palette,
                hue_norm=hue_norm,
                color=color,
                legend=legend,
                ax=ax,
                epsilon=epsilon,
                mechanism=mechanism,
                delta=delta,
                annotate=annotate,
                policy=pol,
                kwargs=kwargs,
            )
    base = _logbins.log_base(log_scale, orient) if log_scale else None
    if base is not None and is_dask_collection(frame):
        raise ValueError(
            "histplot with log_scale does not take a dask DataFrame yet: use histplot without "
            "log_scale (counted out of core) on the logarithm of the variable."
        )
    if base is not None and x is not None and y is not None:
        raise ValueError(
            "histplot: log_scale is supported for histograms of one variable; for two "
            "variables plot the logarithm of each."
        )
    if x is not None and y is not None:
        return _bivariate_histplot(
            frame,
            labels,
            ax,
            method=method,
            bins=bins,
            hue_order=hue_order,
            thresh=thresh,
            pthresh=pthresh,
            pmax=pmax,
            cbar=cbar,
            cbar_ax=cbar_ax,
            cbar_kws=cbar_kws,
            palette=palette,
            hue_norm=hue_norm,
            color=color,
            legend=legend,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            annotate=annotate,
            policy=pol,
            kwargs=kwargs,
            epsilon=epsilon,
            binrange=binrange,
        )
    panel = histogram_panels(
        frame,
        labels,
        orient,
        hue_order=hue_order,
        method=method,
        bins=bins,
        binwidth=binwidth,
        binrange=binrange,
        discrete=discrete,
        element=element,
        stat=stat,
        log_scale=log_scale,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
        policy=pol,
    )[()]
    ax = axes_for(ax, panel.report, panel.releases)  # only now: a refused release leaves no figure
    return draw_histogram_panel(
        ax,
        panel,
        cumulative=cumulative,
        common_norm=common_norm,
        multiple=multiple,
        element=element,
        fill=fill,
        shrink=shrink,
        kde=kde,
        kde_kws=kde_kws,
        line_kws=line_kws,
        palette=palette,
        hue_norm=hue_norm,
        color=color,
        legend=legend,
        annotate=annotate,
        **kwargs,
    )


@dataclass
class HistogramPanel:
    """What one histogram Axes shows, released and not yet drawn.

    :func:`histogram_panels` makes one per Axes (one for ``histplot``, one
    per facet for ``displot``); :func:`draw_histogram_panel` draws it.

    Attributes
    ----------
    releases : list of HistogramRelease
        One per hue level shown, in data units (bins turned back from the
        log scale under ``log_scale``).
    binned : list of HistogramRelease
        The same on the scale the bins are even on (the logarithm under
        ``log_scale``; else the same objects as `releases`).
    levels : list
        The hue level of each release (``[None]`` without hue).
    hue_order : list or None
        The levels the legend names: `hue_order` as given, else None.
    left_out : int
        Hue levels left out for having too few records.
    stat : str
        The statistic drawn (``"frequency"`` where bins are unequal).
    report : DisclosureReport
        The report of the Axes (its levels' reports merged).
    orient : {"x", "y"}
        The binned axis.
    labels : dict
        Role -> variable name, for the axis label and legend title.
    base : float or None
        The log base of ``log_scale``.
    """

    releases: list[HistogramRelease]
    binned: list[HistogramRelease]
    levels: list
    hue_order: list | None
    left_out: int
    stat: str
    report: DisclosureReport
    orient: str
    labels: dict
    base: float | None = None


def histogram_panels(
    frame: pd.DataFrame,
    labels: dict,
    orient: str,
    *,
    facets: Sequence[Any] = (),
    hue_order: list | None = None,
    method: str | None = None,
    bins: Any = "auto",
    binwidth: float | None = None,
    binrange: tuple[float, float] | None = None,
    discrete: bool | None = None,
    element: str = "bars",
    stat: str = "count",
    log_scale: Any = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    policy: Policy | None = None,
    function: str = "histplot",
) -> dict[tuple, HistogramPanel]:
    """Release the histograms of every Axes of a figure, before any is drawn.

    The records of all facets are released together: one set of bins for
    the figure (seaborn's common bins), each facet and hue level suppressed
    on its own counts, and every count linked in the release ledger as one
    partition of the figure's records. A histogram of the same records
    without ``col=``/``row=`` (or with other facets) then cannot show a
    facet's suppressed bin as the whole bin minus the facets shown: the
    ledger hides one more cell wherever that difference would be a small
    count, in whichever order the two figures are made.

    Parameters
    ----------
    frame : DataFrame
        The plot's variables as resolved by :func:`~safeplot.plots._data.plot_data`:
        the binned column named `orient`, optionally ``"hue"``, and the
        `facets` columns; or a dask DataFrame (no facets).
    labels : dict
        Role -> variable name.
    orient : {"x", "y"}
        The binned variable's role.
    facets : sequence of column names, optional
        The columns whose levels make the panels (``row``, ``col``).
    hue_order, method, bins, binwidth, binrange, discrete, element, stat, log_scale
        As in :func:`histplot`.
    threshold, factor, k, q, epsilon, mechanism, delta, policy, function
        As in :func:`release_histograms`.

    Returns
    -------
    dict
        Facet key (the tuple of its `facets` values; ``()`` without
        facets) -> :class:`HistogramPanel`, for each facet with records.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots._data import plot_data
    >>> tips = safeplot.load_dataset("tips")
    >>> pdata = plot_data(tips, {"x": "total_bill", "time": "time"}, function="displot")
    >>> panels = histogram_panels(pdata.frame, pdata.labels, "x", facets=["time"])
    >>> sorted(panels)
    [('Dinner',), ('Lunch',)]
    >>> a, b = panels.values()
    >>> bool(np.array_equal(a.releases[0].edges, b.releases[0].edges))
    True
    """
    pol = get_policy(policy)
    method = pol.check_method(method, "hist")
    m = get_method(method)
    facets = list(facets)
    base = _logbins.log_base(log_scale, orient) if log_scale else None
    has_hue = "hue" in frame.columns
    if has_hue and m.private:
        dp_hue_levels(function, "hue", hue_order)
    name = labels.get(orient) or orient
    source = None
    unlabelled = None
    dropped_per_facet = None
    if is_dask_collection(frame):  # counted out of core: only aggregates are computed
        if facets:
            raise ValueError(
                f"{function}: facets of a dask DataFrame are not released together yet; "
                "compute the data first, or draw one histplot per facet."
            )
        check_dask_method(method, function)
        source = DaskColumns(frame, [orient], hue="hue" if has_hue else None, hue_order=hue_order)
        values, codes, levels = None, None, source.levels
        n_clean, n_dropped = source.n, source.n_dropped
        fcodes, keys = None, [()]
    else:
        clean = clean_numeric(
            frame,
            [orient],
            strata=["hue"] if has_hue else None,
            allow_constant=m.private,
        )
        complete = _complete_rows(frame, orient)
        missing_hue = rows_without_level(frame, [orient], ["hue"] if has_hue else [])
        codes, levels = _level_codes(frame.loc[complete], hue_order)
        values, n_clean, n_dropped = clean.values[:, 0], clean.n, clean.n_dropped
        all_codes, keys, dims = facet_codes(frame, facets)
        fcodes = all_codes[complete]
        if missing_hue.any():
            # records without a hue level are in a histogram without hue: the ledger links them
            raw_all = pd.to_numeric(frame[orient], errors="coerce").to_numpy(dtype=float)
            unlabelled = guard.Unlabelled.select(raw_all, missing_hue, dims, facets)
        if facets:
            # rows dropped for a missing value are reported by the facet they belong to
            lost = np.bincount(all_codes[~complete & (all_codes >= 0)], minlength=len(keys))
            dropped_per_facet = dict(zip(keys, lost.tolist(), strict=True))
            n_dropped = 0
            refuse_empty_facets(all_codes, fcodes, keys, facets, name, function)
    n_hue = len(levels)
    if base is not None:
        # seaborn bins on the log scale: release the histogram of log(x), edges evenly
        # spaced there, and turn the edges back into data units below
        raw_values = values
        values = _logbins.to_log(values, base, name)
        if binrange is not None:
            binrange = tuple(_logbins.to_log(np.asarray(binrange, dtype=float), base, "binrange"))
    split = has_hue or bool(facets)
    combos, facet_info = codes, None
    if facets:
        # level h of facet f is level f * n_hue + h of one release of the figure's records
        hue_codes = np.zeros(values.size, dtype=int) if codes is None else codes
        combos = np.where((hue_codes >= 0) & (fcodes >= 0), fcodes * n_hue + hue_codes, -1)
        facet_info = guard.FacetTable(
            [(c[complete], n, tag) for (c, n), tag in zip(dims, facets, strict=True)],
            hue_codes,
        )
    partition = labels.get("hue") if has_hue else None
    released = release_histograms(
        values,
        levels=combos if split else None,
        level_names=[lev for _ in keys for lev in levels] if split else None,
        name=name,
        method=method,
        bins=bins,
        binwidth=binwidth,
        binrange=binrange,
        discrete=discrete,
        centres_drawn=element != "bars",
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        n_dropped=n_dropped,
        function=function,
        policy=pol,
        counts_from=source,
        partition=partition,
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
        leave_out=True,
        facets=facet_info,
        log=(base, raw_values) if base is not None else None,
        unlabelled=unlabelled,
    )
    threshold = pol.check_threshold(threshold)
    facet_sizes = np.bincount(fcodes[fcodes >= 0], minlength=len(keys)) if facets else [n_clean]
    if base is not None:
        rare_overall = rare_values(raw_values, threshold)
    panels = {}
    for f, key in enumerate(keys):
        own = released[f * n_hue : (f + 1) * n_hue]
        if not facet_sizes[f]:
            continue  # no records in this facet (a missing facet value): nothing drawn
        if all(rel is None for rel in own):
            raise DisclosureError(
                f"{function}: every hue level of the facet {dict(zip(facets, key, strict=True))} "
                "has too few records to show. Merge small levels, or facet by another variable."
            )
        for rel, level in zip(own, levels, strict=True):
            if rel is not None:
                rel.level = level
        # a level too small to show is left out (DESIGN invariant 10): one named in hue_order
        # keeps its legend entry and is drawn empty, as seaborn draws a level of no records;
        # one found in the data is not named at all
        shown_levels = [lev for lev, rel in zip(levels, own, strict=True) if rel is not None]
        binned = [rel for rel in own if rel is not None]
        if facets and not m.raw:
            refuse_if_nothing_shown(
                np.concatenate([r.counts for r in binned]),
                "bin",
                f"(facet {dict(zip(facets, key, strict=True))}) Use fewer bins, or "
                "method='generalize'.",
            )
        shown = binned
        if base is not None:
            rare = rare_overall
            if facets:  # values rare within the facet too
                rare = np.union1d(rare, rare_values(raw_values[fcodes == f], threshold))
            shown = _logbins.from_log(binned, base, rare)
        panel_stat = stat
        widths = np.diff(binned[0].edges)
        if stat == "count" and not np.allclose(widths, widths[0], rtol=1e-9):
            panel_stat = "frequency"
            shown[0].report.warnings.append(
                "Unequal bins: bars show frequency density (count per unit width)."
            )
        report = shown[0].report
        for rel in shown[1:]:
            report = report.merge(rel.report)
        if shown[0].accuracy is None:  # a DP release states only its noisy total
            report.n = pol.round_count(int(facet_sizes[f]))
        if dropped_per_facet is not None and dropped_per_facet.get(key):
            lost = dropped_per_facet[key]
            report.n_dropped = pol.round_count(lost)
            report.warnings.append(dropped_warning(lost, pol))
        report.details["stat"] = panel_stat
        panels[key] = HistogramPanel(
            releases=shown,
            binned=binned,
            levels=shown_levels,
            hue_order=levels if hue_order is not None else None,
            left_out=n_hue - len(shown_levels),
            stat=panel_stat,
            report=report,
            orient=orient,
            labels=labels,
            base=base,
        )
    return panels


def draw_histogram_panel(
    ax: Axes,
    panel: HistogramPanel,
    *,
    cumulative: bool = False,
    common_norm: bool = True,
    multiple: str = "layer",
    element: str = "bars",
    fill: bool = True,
    shrink: float = 1,
    kde: bool = False,
    kde_kws: dict | None = None,
    line_kws: dict | None = None,
    palette: Any = None,
    hue_norm: Any = None,
    color: Any = None,
    legend: bool = True,
    annotate: bool | None = None,
    policy: Policy | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a released histogram panel (:func:`histogram_panels`) as seaborn draws it.

    Only the panel's numbers reach seaborn: one row per shown bin (its
    centre, weighted by its released count), on the released edges. The
    drawing options are :func:`histplot`'s.

    Returns
    -------
    Axes
        With the panel's report on ``ax.safeplot_report``.
    """
    pol = get_policy(policy)
    orient, labels, base = panel.orient, panel.labels, panel.base
    releases, has_hue = panel.releases, panel.levels != [None]
    name = labels.get(orient) or orient
    var = name if name not in ("", _COUNT) else orient
    hue_col = (labels.get("hue") or "hue") if has_hue else None
    if hue_col == var:
        hue_col = f"{hue_col} "
    drawn = _drawn_frame(panel.binned, var, hue_col)
    if base is not None:
        drawn[var] = base ** drawn[var]  # each bin's centre on the log scale
    if kde and len(drawn):
        drawn = kde_rows(drawn)
    report, stat = panel.report, panel.stat
    if len(drawn):
        with quiet_seaborn():
            sns.histplot(
                data=drawn,
                **{orient: var},
                hue=hue_col,
                weights=_COUNT,
                stat=stat,
                bins=panel.binned[0].edges.tolist(),
                cumulative=cumulative,
                common_norm=common_norm,
                multiple=multiple,
                element=element,
                fill=fill,
                shrink=shrink,
                kde=kde,
                kde_kws=kde_kws,
                line_kws=line_kws,
                palette=palette,
                hue_order=(panel.hue_order or panel.levels) if has_hue else None,
                hue_norm=hue_norm,
                color=color,
                legend=legend,
                log_scale=base,
                ax=ax,
                **kwargs,
            )
    if has_hue and not labels.get("hue") and ax.get_legend() is not None:
        ax.get_legend().set_title(None)  # wide-form data: the levels are the columns
    if releases[0].accuracy is not None:
        if stat == "count" and not cumulative and (not has_hue or multiple == "layer"):
            # the noise is known: each count +/- its 95% accuracy, drawn as seaborn draws
            # error bars; a stacked or normalised histogram keeps the accuracy in the report
            for rel in releases:
                bars.draw_count_errors(ax, rel, orient=orient)
        else:
            report.warnings.append(
                "Error bars are drawn for stat='count' histograms without stacking; the "
                "accuracy of each count is in this report."
            )
    rel0 = releases[0]
    if base is not None:
        (ax.set_xscale if orient == "x" else ax.set_yscale)("log", base=base)
    set_safe_axis(ax, orient, rel0.xlim, rel0.xticks)
    if base is not None:
        _logbins.axis_labels(ax, orient)
    (ax.set_xlabel if orient == "x" else ax.set_ylabel)(labels.get(orient, ""))
    if panel.left_out:
        note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
    return finish(ax, report, annotate=annotate, policy=pol, released=releases)


def kde_rows(drawn: pd.DataFrame, weights: str = _COUNT) -> pd.DataFrame:
    """Return the shown bins of released histograms as one row per record, for a density.

    Each row of `drawn` is a shown bin (its centre, its released count in
    column `weights`); it becomes as many rows as the count, each of weight
    1, at the bin centre. seaborn's density of them (``kde=True``) then
    takes its bandwidth from the number of records, not of bins (as weights
    would make it), and sees only released bin centres and counts.

    Parameters
    ----------
    drawn : DataFrame
        Shown bins, with their released counts in `weights`.
    weights : str
        The column of the counts.

    Returns
    -------
    DataFrame
    """
    rows = drawn.loc[drawn.index.repeat(drawn[weights].astype(int))].copy()
    rows[weights] = 1.0
    return rows


#: seaborn's histogram statistics.
_HIST_STATS = ("count", "frequency", "probability", "proportion", "percent", "density")


def _is_categorical(values: Any) -> bool:
    """Whether seaborn would count `values` as categories (text, a pandas categorical)."""
    if is_dask_collection(values):
        dtype = values.dtype
        return isinstance(dtype, pd.CategoricalDtype) or not (
            pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_datetime64_any_dtype(dtype)
        )
    return variable_type(values) == "categorical"


def _categorical_histplot(
    data,
    *,
    x,
    y,
    hue,
    hue_order,
    method,
    threshold,
    stat,
    bins,
    binwidth,
    binrange,
    discrete,
    cumulative,
    common_norm,
    multiple,
    element,
    fill,
    shrink,
    kde,
    log_scale,
    palette,
    hue_norm,
    color,
    legend,
    ax,
    epsilon,
    mechanism,
    delta,
    annotate,
    policy,
    kwargs,
) -> Axes:
    """Histogram of a categorical variable: one bar per released level, as seaborn counts it.

    seaborn bins a categorical variable as discrete bars centred on the
    integer positions of its levels. The counts per level (and hue level)
    are released as :func:`~safeplot.plots.categorical.release_countplot`
    releases them -- small cells suppressed, a level with nothing shown left
    out and not named -- and seaborn draws the released counts as weights,
    so ``stat``, ``multiple``, ``shrink``, ``element`` and the legend are its own.
    """
    from .categorical import dominance_note, release_countplot

    role = "x" if x is not None else "y"
    name = x if role == "x" else y
    shown = repr(name) if isinstance(name, str) else "a categorical vector"
    if stat not in _HIST_STATS:
        raise ValueError(f"stat must be one of {list(_HIST_STATS)}, got {stat!r}.")
    unused = {
        "bins": not (isinstance(bins, str) and bins == "auto"),
        "binwidth": binwidth is not None,
        "binrange": binrange is not None,
        "discrete=False": discrete is False,
        "log_scale": bool(log_scale),
        "kde": bool(kde),
    }
    given = [k for k, v in unused.items() if v]
    if given:
        raise ValueError(
            f"histplot: {role}={shown} is categorical: it is counted as one bar per level, so "
            f"{', '.join(given)} does not apply. Leave it out, or make the variable numeric "
            "to bin it."
        )
    if method is not None and get_method(policy.check_method(method, "count")).private:
        raise ValueError(
            f"histplot: method='dp' of a categorical {role}={shown} needs its levels named "
            "before the data is read; use safeplot.countplot(order=..., hue_order=..., "
            "method='dp')."
        )
    if epsilon is not None or delta is not None or mechanism != "laplace":
        raise ValueError(
            "histplot: epsilon=, mechanism= and delta= belong to method='dp', which a "
            "categorical variable takes through safeplot.countplot(order=..., method='dp')."
        )
    try:
        rel = release_countplot(
            data,
            x=x,
            y=y,
            hue=hue,
            hue_order=hue_order,
            method=method,
            threshold=threshold,
            policy=policy,
            function="histplot",
        )
    except ValueError as err:
        if "moves numeric values" in str(err):
            raise ValueError(
                f"histplot: {role}={shown} is categorical, and its bars are counts per level: "
                f"{err}"
            ) from None
        raise
    lay = rel.layout
    report = rel.report
    report.details["stat"] = stat
    ax = axes_for(ax, report, rel)  # only now: a refused release leaves no figure
    var = lay.cat_name or role
    hue_col = None
    if rel.hue_levels is not None:
        hue_col = lay.hue_name or "hue"
        if hue_col == var:
            hue_col = f"{hue_col} "
    ii, jj = np.nonzero(np.nan_to_num(rel.counts) > 0)
    # the levels as seaborn labels them (text): numbers and a merged "Other" then mix
    names = [str(level) for level in rel.levels]
    drawn = pd.DataFrame(
        {
            var: pd.Categorical([names[i] for i in ii], categories=list(dict.fromkeys(names))),
            _COUNT: rel.counts[ii, jj].astype(float),
        }
    )
    if hue_col is not None:
        drawn[hue_col] = pd.Series([rel.hue_levels[j] for j in jj], dtype=object).astype(
            hue_dtype(lay)
        )
    style = {"palette": palette, "hue_norm": hue_norm, "color": color}
    if len(drawn):
        with quiet_seaborn():
            sns.histplot(
                data=drawn,
                **{role: var},
                hue=hue_col,
                weights=_COUNT,
                stat=stat,
                discrete=True,
                cumulative=cumulative,
                common_norm=common_norm,
                multiple=multiple,
                element=element,
                fill=fill,
                shrink=shrink,
                palette=stable_palette(rel, style),
                hue_order=rel.hue_levels,
                hue_norm=hue_norm,
                color=color,
                legend=legend,
                ax=ax,
                **kwargs,
            )
    else:
        # every count suppressed: no category ticks (matplotlib's default 0, 0.2, ... 1
        # could be read as values of the variable)
        (ax.set_xticks if role == "x" else ax.set_yticks)([])
    (ax.set_xlabel if role == "x" else ax.set_ylabel)(lay.cat_name or "")
    dominance_note(ax, rel)
    return finish(ax, report, annotate=annotate, policy=policy, released=rel)


def _complete_rows(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Rows clean_numeric keeps: the value and (if present) the hue are not missing."""
    values = pd.to_numeric(frame[column], errors="coerce")
    keep = values.notna()
    if "hue" in frame.columns:
        keep &= frame["hue"].notna()
    return keep.to_numpy()


def _bivariate_histplot(
    frame,
    labels,
    ax,
    *,
    method,
    bins,
    hue_order,
    thresh,
    pthresh,
    pmax,
    cbar,
    cbar_ax,
    cbar_kws,
    palette,
    hue_norm,
    color,
    legend,
    threshold,
    factor,
    k,
    q,
    annotate,
    policy,
    kwargs,
    epsilon=None,
    binrange=None,
) -> Axes:
    has_hue = "hue" in frame.columns
    names = (labels.get("x") or "x", labels.get("y") or "y")
    if names[0] == names[1]:
        names = (names[0] + " (x)", names[1] + " (y)")
    # a rule name ("auto") chooses the cells by the number of records, as for a heat map
    n_bins = None if isinstance(bins, str) else check_positive_int("bins", bins)
    grid = release_grid(
        frame["x"],
        frame["y"],
        names=names,
        hue=frame["hue"] if has_hue else None,
        hue_order=hue_order,
        method=method,
        bins=n_bins,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        kind="hist",
        function="histplot",
        policy=policy,
        epsilon=epsilon,
        # the other methods place their cells on a safe grid of their own (binrange unused)
        binrange=binrange if get_method(method).private else None,
    )
    return draw_grid_histogram(
        grid,
        ax=axes_for(ax, grid.report, grid),
        x=labels.get("x", ""),
        y=labels.get("y", ""),
        hue=(labels.get("hue") or "hue") if has_hue else None,
        thresh=thresh,
        pthresh=pthresh,
        pmax=pmax,
        cbar=cbar,
        cbar_ax=cbar_ax,
        cbar_kws=cbar_kws,
        palette=palette,
        hue_norm=hue_norm,
        color=color,
        legend=legend,
        annotate=annotate,
        policy=policy,
        **kwargs,
    )


def draw_grid_histogram(
    grid: GridRelease,
    *,
    ax: Axes,
    x: str = "",
    y: str = "",
    hue: str | None = None,
    thresh: float | None = 0,
    pthresh: float | None = None,
    pmax: float | None = None,
    cbar: bool = False,
    cbar_ax: Axes | None = None,
    cbar_kws: dict | None = None,
    palette: Any = None,
    hue_norm: Any = None,
    color: Any = None,
    legend: bool = True,
    annotate: bool | None = None,
    policy: Policy | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a released 2-D grid as seaborn draws a bivariate histogram.

    The cells are the released counts (:func:`~safeplot.plots.grid.release_grid`,
    :func:`~safeplot.plots.grid.grid_panels`), given to
    :func:`seaborn.histplot` as weights on the released edges; `x`, `y` and
    `hue` are the axis labels and the legend's title (None: no hue). The
    other keywords are :func:`seaborn.histplot`'s. Nothing here sees a record.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.grid import release_grid
    >>> penguins = safeplot.load_dataset("penguins").dropna()
    >>> grid = release_grid(penguins["bill_length_mm"], penguins["bill_depth_mm"], bins=10)
    >>> ax = draw_grid_histogram(grid, ax=plt.figure().subplots(), x="length", y="depth")
    >>> ax.get_xlabel()
    'length'
    """
    policy = get_policy(policy)
    names = (x or "x", y or "y")
    if names[0] == names[1]:
        names = (names[0] + " (x)", names[1] + " (y)")
    rows = []
    for level, counts in zip(grid.levels, grid.counts, strict=True):
        ix, iy = np.nonzero(np.nan_to_num(counts) > 0)
        part = pd.DataFrame(
            {names[0]: grid.xcentres[ix], names[1]: grid.ycentres[iy], _COUNT: counts[ix, iy]}
        )
        if hue is not None:
            part[hue] = level
        rows.append(part)
    drawn = pd.concat(rows, ignore_index=True)
    if len(drawn):
        with quiet_seaborn():
            sns.histplot(
                data=drawn,
                x=names[0],
                y=names[1],
                hue=hue,
                weights=_COUNT,
                bins=[grid.xedges, grid.yedges],
                thresh=thresh,
                pthresh=pthresh,
                pmax=pmax,
                cbar=cbar,
                cbar_ax=cbar_ax,
                cbar_kws=cbar_kws,
                palette=palette,
                hue_order=grid.levels if hue is not None else None,
                hue_norm=hue_norm,
                color=color,
                legend=legend,
                ax=ax,
                **kwargs,
            )
    set_safe_axis(ax, "x", grid.xlim, grid.xticks)
    set_safe_axis(ax, "y", grid.ylim, grid.yticks)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    bars.draw_grid_accuracy(ax, grid)  # DP: how far each cell's count may be off
    if grid.report.details.get("groups_left_out"):
        note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
    return finish(ax, grid.report, annotate=annotate, policy=policy)


@takes_method_options
def hist(
    x,
    bins=None,
    *,
    range=None,
    density=False,
    weights=None,
    cumulative=False,
    histtype="bar",
    orientation="vertical",
    color=None,
    label=None,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    epsilon: float | None = None,
    **kwargs,
):
    """Plot a histogram of released data, as :meth:`matplotlib.axes.Axes.hist` does.

    Parameters
    ----------
    x : array-like, shape (n,)
        One variable (a Series keeps its name for the label).
    bins : int, str or sequence, optional
        Number of bins (default: numpy's "auto" rule), a rule, or edges;
        placed on the safe grid as in :func:`histplot`.
    range : (float, float), optional
        Only values in this range are binned.
    density, cumulative, histtype, orientation, color, label : optional
        As in matplotlib, applied to the released counts.
    weights : None
        Refused except with ``method="none"`` (see :func:`histplot`).
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method, threshold, factor, k, q, annotate : optional
        As in :func:`histplot`.
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values (``method="rounding"``).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``).
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` histogram (default 1.0), spent from
        the policy's ``dp_budget``; give ``range`` to fix the bins, else a
        quarter of it is spent on a differentially private range estimate.
        Each count is drawn with its 95% error bar (unless ``density``,
        ``cumulative`` or a stacked type, where the report keeps it).
    **kwargs
        Passed to matplotlib.

    Returns
    -------
    n : ndarray
        The released counts, NaN for suppressed bins.
    bins : ndarray
        The bin edges (on the safe grid).
    patches : BarContainer or list of Polygon
        As returned by matplotlib.

    Examples
    --------
    >>> import numpy as np, safeplot
    >>> n, edges, patches = safeplot.hist(np.random.default_rng(0).normal(size=500), bins=20)
    >>> bool(np.all(np.isnan(n) | (n == 0) | (n >= 3)))
    True

    Differentially private counts of 10 bins over a range fixed by the call:

    >>> n, edges, _ = safeplot.hist(np.random.default_rng(0).normal(size=500), bins=10,
    ...                             range=(-4, 4), method="dp", epsilon=0.5)
    >>> edges.tolist()[:3], bool((n >= 0).all())
    ([-4.0, -3.2, -2.4], True)
    """
    pol = get_policy()
    method = pol.check_method(method, "hist")
    resolve_annotate(annotate, pol)
    _refuse_weights(weights, method, "hist")
    if is_dask_collection(x):
        raise ValueError(
            "hist does not take a dask collection (it would be read into memory); use "
            "histplot(data=<dask DataFrame>, x='column'), which counts out of core."
        )
    name = str(getattr(x, "name", None) or "x")
    clean = clean_numeric({name: x})
    rel = release_histograms(
        clean.values[:, 0],
        name=name,
        method=method,
        bins="auto" if bins is None else bins,
        binrange=range,
        centres_drawn=histtype != "bar" and histtype != "barstacked",
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        n_dropped=clean.n_dropped,
        function="hist",
        policy=pol,
        epsilon=epsilon,
    )[0]
    ax = axes_for(ax, rel.report, rel)
    shown = np.nan_to_num(rel.counts)
    centres = (rel.edges[:-1] + rel.edges[1:]) / 2
    keep = shown > 0
    _, _, patches = ax.hist(
        centres[keep],
        bins=rel.edges,
        weights=shown[keep],
        density=density,
        cumulative=cumulative,
        histtype=histtype,
        orientation=orientation,
        color=color,
        label=label,
        **kwargs,
    )
    axis = "x" if orientation == "vertical" else "y"
    if rel.accuracy is not None:
        if not density and not cumulative and histtype in ("bar", "step", "stepfilled"):
            bars.draw_count_errors(ax, rel, orient=axis)  # each count +/- its 95% accuracy
        else:
            rel.report.warnings.append(
                "Error bars are drawn for plain count histograms; the accuracy of each count "
                "is in this report."
            )
    set_safe_axis(ax, axis, rel.xlim, rel.xticks)
    finish(ax, rel.report, annotate=annotate, policy=pol)
    return rel.counts, rel.edges, patches
