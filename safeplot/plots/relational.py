"""Scatter plots under disclosure control: seaborn's ``scatterplot``, matplotlib's ``scatter``.

A scatter plot draws every record, so it is the most disclosive plot there
is. Each function here validates its input, turns it into a *release* (the
exact numbers that will be drawn), and draws only the release:

- ``"deterministic"`` (the policy's default for scatter plots) and
  ``"probabilistic"`` release one point per record: the centroid of its k
  nearest neighbours (Avraam et al.), or the record plus keyed noise;
- ``"suppress"`` and ``"generalize"`` release the surviving cells of a
  30 x 30 (15 x 15) density grid, one marker per cell, its area
  proportional to the count;
- ``"confidential"`` replaces the scatter by O'Keefe's parallel box plots
  of y over intervals of x with a lowess trend line
  (:mod:`safeplot.anonymize.confidential`).

:func:`release_scatter` and :func:`draw_scatter` are the two halves for two
plain variables; :func:`scatterplot` adds seaborn's semantics (hue, size,
style) and :func:`scatter` matplotlib's call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.ticker import Locator
from numpy.typing import ArrayLike

from .._validate import clean_numeric
from ..anonymize.grids import rare_values
from ..marks import points as _points
from ..marks._axes import LEFT_OUT_GID, note_below
from ..marks._large import scatter_points
from ..marks._style import level_colors, semantic_type
from ..marks.boxes import MERGE_NOTE_GID, draw_boxes
from ..marks.points import BRIEF_TICKS, draw_semantic
from ..methods import anonymize_values, available_methods, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, GridRelease, PointRelease, guard, release_kind
from ._boxes import (
    BoxScatterRelease,
    box_positions,
    leave_out_small_levels,
    refuse_per_point,
    release_boxes,
)
from ._common import (
    LEFT_OUT_NOTE,
    attach_release,
    axes_for,
    axis_from_range,
    check_positive_int,
    finish,
    finite_range,
    make_report,
    set_safe_axis,
    takes_method_options,
)
from ._data import PlotData, categorical_order, plot_data, rows_without_level
from .grid import release_grid

__all__ = [
    "MERGE_NOTE_GID",
    "SCATTER_METHODS",
    "BoxScatterRelease",
    "box_positions",
    "brief_legend_entries",
    "draw_scatter",
    "draw_scatter_release",
    "grid_points",
    "map_types",
    "release_scatter",
    "scatter",
    "scatter_cell_panels",
    "scatterplot",
]

#: Methods a scatter release supports (rule-based ones draw box plots).
SCATTER_METHODS = tuple(
    m.name for m in available_methods() if not m.plot_kinds or "scatter" in m.plot_kinds
)
#: Families of :func:`scatter` (it returns the markers, so no box plots).
_POINT_FAMILIES = ("values", "counts", "raw")
#: Methods of :func:`scatter`.
SCATTER_POINT_METHODS = tuple(m.name for m in available_methods() if m.family in _POINT_FAMILIES)


# -- releases ------------------------------------------------------------------------------


@release_kind("scatter")
@dataclass
class ScatterRelease:
    """What :func:`scatterplot` draws: released points or grid cells, with their semantics.

    Attributes
    ----------
    frame : DataFrame
        One row per drawn marker; the columns named in `columns`.
    columns : dict
        Role ("x", "y", "hue", "size", "style") -> column of `frame`.
    xlim, ylim : tuple of float, or None
        Axis limits (None only for raw output).
    xticks, yticks : ndarray or None
    report : DisclosureReport
    coincident : ndarray of bool, optional
        Rows whose released point is shared with another record.
    cells : bool
        The markers are grid cells and ``columns["size"]`` holds their counts.
    notes : list of str
        What the figure notes under its axis (combinations of levels left
        out; no group named, no count).
    """

    frame: pd.DataFrame
    columns: dict[str, str]
    xlim: tuple[float, float] | None
    ylim: tuple[float, float] | None
    xticks: np.ndarray | None
    yticks: np.ndarray | None
    report: DisclosureReport
    coincident: np.ndarray | None = None
    cells: bool = False
    notes: list[str] = field(default_factory=list)


def release_scatter(
    x: np.ndarray,
    y: np.ndarray,
    *,
    names: tuple[str, str] = ("x", "y"),
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    metric: str = "euclidean",
    n_dropped: int = 0,
    function: str = "scatterplot",
    policy: Policy | None = None,
) -> PointRelease | BoxScatterRelease:
    """Release a scatter plot of two variables under a disclosure-control method.

    Parameters
    ----------
    x, y : array-like, shape (n,)
        Raw values. Rows with a missing value are dropped and counted in the
        report; text, infinite, empty, all-missing or constant data are refused.
    names : tuple of str
        Variable names, for the report and the keyed noise.
    method : str, optional
        ``"deterministic"`` (default from the policy), ``"probabilistic"``,
        ``"suppress"``, ``"generalize"``, ``"confidential"`` or ``"none"``.
    k : int, optional
        Records per centroid (deterministic).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (probabilistic).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    threshold : int, optional
        Minimum count of a shown grid cell or box (default and floor: the policy's).
    factor : int, default 2
        Grid coarsening of ``"generalize"`` (30 x 30 -> 15 x 15).
    bins : int, optional
        Cells per axis of the density grid (suppress, generalize); by
        default chosen by the number of records, as in :func:`scatterplot`.
    metric : str, default "euclidean"
        Neighbour distance of ``"deterministic"``.
    n_dropped : int
        Rows the caller dropped for missing values.
    function : str
        Name of the calling plot function, for the report.
    policy : Policy, optional
        The policy in force.

    Returns
    -------
    PointRelease or BoxScatterRelease
        Points (or grid cells sized by count); for ``"confidential"`` the
        parallel box plots and trend line that replace the points.

    Examples
    --------
    >>> import numpy as np
    >>> x, y = np.random.default_rng(0).normal(size=(2, 300))
    >>> rel = release_scatter(x, y, method="suppress")
    >>> bool((rel.sizes >= 3).all())
    True
    """
    pol = get_policy(policy)
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    if names[0] == names[1]:
        raise ValueError(f"x and y need different names, got {names[0]!r} twice.")
    clean = clean_numeric({names[0]: x, names[1]: y})
    raw = clean.values
    n_dropped += clean.n_dropped
    if m.raw:
        report = make_report(function, method, {}, names, raw.shape[0], n_dropped, pol)
        return _point_release(raw, report, [np.array([]), np.array([])])
    threshold = pol.check_threshold(threshold)
    if bins is not None:
        check_positive_int("bins", bins)
    if m.counts_only:
        return _grid_release(raw, method, names, threshold, factor, bins, n_dropped, function, pol)
    rare = [rare_values(raw[:, j], threshold) for j in range(2)]
    if m.rule_based:
        codes = np.zeros(raw.shape[0], dtype=int)
        return release_boxes(
            raw[:, 0],
            raw[:, 1],
            codes,
            [None],
            names,
            threshold,
            n_dropped,
            function,
            pol,
            rare=(rare[0], rare[1]),
        )
    out = anonymize_values(
        raw, method, names=list(names), k=k, q=q, metric=metric, threshold=threshold, policy=pol
    )
    report = make_report(
        function, method, out.params, names, raw.shape[0], n_dropped, pol, details=out.details
    )
    return _point_release(out.values, report, rare, coincident=out.coincident)


def _point_release(points, report, rare, *, sizes=None, coincident=None) -> PointRelease:
    xlim, xticks = axis_from_range(*finite_range(points[:, 0]), rare[0])
    ylim, yticks = axis_from_range(*finite_range(points[:, 1]), rare[1])
    return PointRelease(
        points[:, 0], points[:, 1], xlim, ylim, xticks, yticks, report, sizes, coincident
    )


def _grid_release(raw, method, names, threshold, factor, bins, n_dropped, function, pol):
    grid = release_grid(
        raw[:, 0],
        raw[:, 1],
        names=names,
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        kind="scatter",
        n_dropped=n_dropped,
        function=function,
        policy=pol,
    )
    return grid_points(grid)


def grid_points(grid: GridRelease, level: Any = None) -> PointRelease:
    """Return the shown cells of a released grid as points sized by their counts.

    Parameters
    ----------
    grid : GridRelease
        A released grid (:func:`~safeplot.plots.grid.release_grid`, or a
        facet of :func:`~safeplot.plots.grid.grid_panels`).
    level : optional
        One of ``grid.levels``: that level's cells; None: every level's
        cells summed.

    Returns
    -------
    PointRelease
        A point at the centre of each cell with a count, the count as its
        size; the grid's limits, ticks and report.

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.plots.grid import release_grid
    >>> x, y = np.random.default_rng(0).normal(size=(2, 500))
    >>> points = grid_points(release_grid(x, y, method="suppress", bins=5))
    >>> bool((points.sizes >= 3).all())
    True
    """
    counts = grid.total if level is None else grid.counts[grid.levels.index(level)]
    counts = np.nan_to_num(counts)
    ix, iy = np.nonzero(counts > 0)
    return PointRelease(
        grid.xcentres[ix],
        grid.ycentres[iy],
        grid.xlim,
        grid.ylim,
        grid.xticks,
        grid.yticks,
        grid.report,
        sizes=counts[ix, iy],
    )


# -- drawing -------------------------------------------------------------------------------


def draw_scatter(
    ax: Axes,
    release: PointRelease | BoxScatterRelease,
    *,
    color: Any = None,
    mark_coincident: bool = False,
    s: float = 12,
) -> Axes:
    """Draw a released scatter (:func:`safeplot.marks.points.draw_scatter`) and attach its report.

    Parameters
    ----------
    ax : Axes
    release : PointRelease or BoxScatterRelease
    color : colour, optional
    mark_coincident : bool, default False
        Draw points whose released value is shared with other records in
        black, as Avraam et al. do for coinciding centroids.
    s : float, default 12
        Marker area for unweighted points (the median area for weighted ones).

    Returns
    -------
    Axes
        With the release's report on ``ax.safeplot_report`` (and in the audit log).
    """
    guard.admit(release.report.function, release.report, release)
    _points.draw_scatter(ax, release, color=color, mark_coincident=mark_coincident, s=s)
    if isinstance(release, BoxScatterRelease):
        attach_release(ax, release.report)
    else:
        attach_release(ax, release.report, released=release)
    return ax


# -- brief numeric legends: round numbers of seaborn's locator -----------------------------


class _LegendView:
    """The view interval a tick formatter reads: a legend has no axis of its own."""

    def __init__(self, lo: float, hi: float) -> None:
        self._interval = (lo, hi)

    def get_view_interval(self) -> tuple[float, float]:
        return self._interval


def brief_legend_entries(values: ArrayLike, *, log: bool = False) -> tuple[np.ndarray, list[str]]:
    """Entries of a brief numeric legend: round numbers of a locator over the released range.

    As seaborn: a :class:`~matplotlib.ticker.MaxNLocator` (a
    :class:`~matplotlib.ticker.LogLocator` on a log scale) over the smallest
    and largest value drawn, formatted without offset or scientific notation.
    The entries depend only on that released range, as ticks do: they are
    never moved to avoid a data value (DESIGN.md invariant 2).

    Parameters
    ----------
    values : array-like
        The released values of the variable (missing values are ignored).
    log : bool, default False
        The variable is drawn on a log scale.

    Returns
    -------
    levels : ndarray
        The values of the entries, of the dtype of `values`.
    labels : list of str
        Their labels.

    Examples
    --------
    >>> levels, labels = brief_legend_entries([3.2, 47.9])
    >>> labels
    ['8', '16', '24', '32', '40']
    """
    v = np.asarray(values)
    v = v[~pd.isna(v)]
    if v.size == 0:
        return v, []
    lo, hi = v.min(), v.max()
    integer = np.issubdtype(v.dtype, np.integer)
    if log:
        locator: Locator = mpl.ticker.LogLocator(numticks=BRIEF_TICKS)
    else:
        locator = mpl.ticker.MaxNLocator(nbins=BRIEF_TICKS, integer=integer)
    chosen = np.asarray(locator.tick_values(lo, hi))
    chosen = chosen[(chosen >= lo) & (chosen <= hi)].astype(v.dtype)
    if not chosen.size:
        return chosen, []
    if log:
        formatter: mpl.ticker.Formatter = mpl.ticker.LogFormatter()
    else:
        formatter = mpl.ticker.ScalarFormatter(useOffset=False)
        formatter.set_scientific(False)
    formatter.set_axis(_LegendView(float(lo), float(hi)))
    return chosen, list(formatter.format_ticks(chosen))


# -- seaborn-style input -------------------------------------------------------------------


def map_types(
    pdata: PlotData, palette: Any, hue_norm: Any, sizes: Any, size_norm: Any
) -> dict[str, str]:
    """Numeric or categorical, for hue and size, by seaborn's rules; style is categorical.

    The type is judged on the input, before anything is released: it decides
    how the variables are released (a numeric hue with x and y, a
    categorical one as strata).

    Parameters
    ----------
    pdata : PlotData
        The validated input.
    palette, hue_norm, sizes, size_norm
        As :func:`seaborn.scatterplot`.

    Returns
    -------
    dict
        Role -> "numeric" or "categorical" (a date counts as numeric, so that
        validation refuses it with a clear message).

    Raises
    ------
    ValueError
        The data have no rows.
    """
    if pdata.frame.shape[0] == 0:
        # an empty column has no type to judge: say what is wrong instead
        raise ValueError("The data are empty (no rows). There is nothing to plot.")
    types = {"x": "numeric", "y": "numeric"}
    if pdata.has("hue"):
        types["hue"] = semantic_type("hue", pdata.frame["hue"], palette, hue_norm, sizes)
    if pdata.has("size"):
        types["size"] = semantic_type("size", pdata.frame["size"], palette, size_norm, sizes)
    if pdata.has("style"):
        types["style"] = "categorical"
    # dates count as numbers here, so that validation refuses them with a clear message
    return {r: "numeric" if t == "datetime" else t for r, t in types.items()}


def _column_names(pdata: PlotData, roles: list[str]) -> dict[str, str]:
    """Name a column per role: its label, with the role added on a clash."""
    names: dict[str, str] = {}
    for role in roles:
        name = pdata.label(role)
        if name in names.values():
            name = f"{name} ({role})"
        names[role] = name
    return names


def _groups_word(roles: list[str]) -> str:
    """Return what a group of the categorical roles is called in messages."""
    if len(roles) == 1:
        return f"{roles[0]} level"
    return f"{' x '.join(roles)} group"


def _leave_out_small_groups(
    raw: np.ndarray,
    cats: pd.DataFrame,
    strata: np.ndarray,
    labels: list[tuple],
    roles: list[str],
    orders: dict[str, Any],
    need: int,
    why: str,
    *,
    threshold: int,
    function: str,
    smaller_k: str,
) -> tuple[np.ndarray, pd.DataFrame, np.ndarray, guard.ShownGroups, bool]:
    """Leave out the groups (levels, or combinations of levels) too small for the method.

    The shared rule (:func:`safeplot.release.guard.shown_groups`): a group of
    fewer than `need` records is not drawn, its level leaves the legend
    unless the caller named it (``hue_order=`` and the like: then it keeps its
    place and is drawn empty, as seaborn draws a level without records), and
    the figure and report say that groups were left out without saying which
    or how many records they held. Refused only when no group is left.

    Why leaving out does not disclose: the methods that get here (kNN
    centroids, microaggregation) form their groups within each level, so the
    same records are grouped differently in the figure without the grouping
    variable. The points present there and missing here are not the records
    left out (nearly every point moves), and no drawn number equals a value
    rare among all the records, those left out included (the caller's rare
    values are computed before leaving out).

    Each record drawn is one marker, so the markers of this figure and of
    the figure without the grouping variable count the records left out:
    when they would be fewer than `threshold`, some records of the largest
    group are left out too (:meth:`~safeplot.release.guard.ShownGroups.keep_records`).

    Returns
    -------
    raw, cats, strata, groups, topped_up
        The records drawn, their levels, their group codes renumbered from
        0, the decision, and whether records of a drawn group were left out.
    """
    sizes = np.bincount(strata, minlength=len(labels))
    groups = guard.shown_groups(
        sizes,
        need,
        why,
        function=function,
        what=_groups_word(roles),
        fix=f"Merge small levels or drop {' or '.join(f'{r}=' for r in roles)}{smaller_k}.",
    )
    if not groups.left_out:
        return raw, cats, strata, groups, False
    keep = groups.keep_records(strata, threshold)
    topped_up = groups.topped_up(keep, strata)
    before = {r: set(cats[r].unique()) for r in roles}
    raw = raw[keep]
    cats = cats.loc[keep].reset_index(drop=True)
    _, strata = np.unique(strata[keep], return_inverse=True)
    for r in roles:
        if isinstance(cats[r].dtype, pd.CategoricalDtype):
            # a category left without records leaves the legend too, unless the caller named
            # it; categories that had no records to begin with stay, as seaborn shows them
            named = set(orders.get(r) or ())
            gone = [c for c in before[r] - set(cats[r].unique()) if c not in named]
            if gone:
                cats[r] = cats[r].cat.remove_categories(gone)
    return raw, cats, strata, groups, topped_up


def _semantic_release(
    pdata: PlotData,
    types: dict[str, str],
    method: str,
    *,
    k: int,
    q: float,
    metric: str,
    threshold: int | None,
    factor: int,
    bins: int | None,
    orders: dict[str, Any],
    pol: Policy,
    function: str,
) -> ScatterRelease | BoxScatterRelease:
    """Release x, y and the semantic variables of a scatterplot call."""
    semantic = [r for r in ("hue", "size", "style") if pdata.has(r)]
    numeric = ["x", "y"] + [r for r in semantic if types[r] == "numeric"]
    categorical = [r for r in semantic if types[r] == "categorical"]
    cols = _column_names(pdata, numeric + categorical)
    frame = pdata.frame
    # a numeric hue or size that is x or y itself (hue="body_mass_g", y="body_mass_g") is
    # released once and drawn from the same released column
    for r in numeric[2:]:
        same = next((b for b in numeric[:2] if frame[r].equals(frame[b])), None)
        if same is not None:
            cols[r] = cols[same]
            numeric.remove(r)
    m = get_method(method)
    if m.counts_only or m.rule_based:
        what = f"method={method!r}"
        if pdata.has("size"):
            raise ValueError(
                f"size= cannot be combined with {what}: "
                + (
                    "the marker size shows the count of each grid cell. "
                    if m.counts_only
                    else "the plot shows box plots, not points. "
                )
                + "Drop size=, or use method='deterministic' or 'probabilistic'."
            )
        if types.get("hue") == "numeric":
            raise ValueError(
                f"A numeric hue cannot be drawn with {what}: the plot shows "
                + ("cells of many records" if m.counts_only else "box plots")
                + " per hue level, not individual values. Use a categorical hue (e.g. pass "
                "palette as a list or dict), or method='deterministic' or 'probabilistic'."
            )
        if m.rule_based and pdata.has("style"):
            raise ValueError(
                "style= cannot be combined with method='confidential': the plot shows box "
                "plots, not markers. Use hue= to split the boxes by a category."
            )
    clean = clean_numeric(
        {cols[r]: frame[r] for r in numeric + categorical},
        [cols[r] for r in numeric],
        strata=[cols[r] for r in categorical] or None,
    )
    keep = frame[numeric].apply(pd.to_numeric, errors="coerce").notna().all(axis=1)
    if categorical:
        keep &= frame[categorical].notna().all(axis=1)
    cats = frame.loc[keep.to_numpy(), categorical].reset_index(drop=True)
    raw = clean.values
    n = raw.shape[0]
    names = tuple(cols[r] for r in numeric)
    if m.raw:
        out_frame = pd.DataFrame({cols[r]: raw[:, j] for j, r in enumerate(numeric)})
        for r in categorical:
            out_frame[cols[r]] = cats[r].to_numpy()
        report = make_report(function, method, {}, names, n, clean.n_dropped, pol)
        return ScatterRelease(out_frame, cols, None, None, None, None, report)
    threshold = pol.check_threshold(threshold)
    if bins is not None:
        check_positive_int("bins", bins)
    rare = {r: rare_values(raw[:, j], threshold) for j, r in enumerate(numeric)}
    if m.rule_based:
        groups, n_left_out = None, 0
        if categorical:
            levels = categorical_order(cats["hue"], orders.get("hue"))
            lookup = {lev: i for i, lev in enumerate(levels)}
            codes = np.array([lookup.get(v, -1) for v in cats["hue"]], dtype=int)
            # a hue level too small for a box is left out (its boxes and trend not drawn, its
            # name not in the legend); the boxes of the others do not depend on its records,
            # save for the axes, which avoid the values rare among all the records
            codes, groups, n_left_out = leave_out_small_levels(
                codes, levels, threshold, function=function
            )
        else:
            levels, codes = [None], np.zeros(n, dtype=int)
        return release_boxes(
            raw[:, 0],
            raw[:, 1],
            codes,
            levels,
            names,
            threshold,
            clean.n_dropped,
            function,
            pol,
            rare=(rare["x"], rare["y"]),
            groups=groups,
            n_left_out=n_left_out,
        )
    if m.counts_only:
        # records with x and y but a missing hue or style: left out of the cells drawn, but a
        # scatter plot without hue counts them, so the ledger links them
        unlabelled = None
        if categorical:
            lost = rows_without_level(frame, ["x", "y"], categorical)
            unlabelled = frame.loc[lost, ["x", "y"]].to_numpy(dtype=float)
        return _grid_semantic_release(
            raw,
            cats,
            categorical,
            cols,
            method,
            names,
            threshold,
            factor,
            bins,
            orders,
            clean.n_dropped,
            function,
            pol,
            unlabelled,
        )
    if m.uses_k:
        k = pol.check_k(k, n)
    # a categorical level is a stratum: methods that group records group them within it
    strata = clean.strata if categorical else None
    notes: list[str] = []
    warnings: list[str] = []
    details: dict[str, Any] = {}
    spread = np.std(raw, axis=0)
    rule = guard.small_group_rule(m, "markers")
    if strata is not None and not rule.leave_out:
        # keyed noise and rounding release each record on its own: the markers of the levels
        # kept would be those of the figure without the grouping variable, less the records
        # left out, so a level too small to show is refused
        need, fewer = m.group_floor(pol, k)
        guard.shown_groups(
            np.bincount(strata, minlength=len(clean.strata_labels)),
            need,
            fewer,
            function=function,
            what=_groups_word(categorical),
            fix=f"Merge small levels or drop {' or '.join(f'{r}=' for r in categorical)}.",
        ).keep_records(strata, threshold, on_their_own=True)
    if strata is not None and rule.leave_out:
        # a level (or hue x style combination) too small for the method's groups, which are
        # formed within each, is left out rather than refusing the figure
        need, fewer = m.group_floor(pol, k)
        by_k = fewer.startswith(("k=", "2*k="))
        raw, cats, strata, groups, topped_up = _leave_out_small_groups(
            raw,
            cats,
            strata,
            clean.strata_labels,
            categorical,
            orders,
            need,
            fewer,
            threshold=threshold,
            function=function,
            smaller_k=f", or use a smaller k (not below k_min={pol.k_min})" if by_k else "",
        )
        if groups.left_out:
            warnings.append(groups.warning)
            details["groups_left_out"] = groups.left_out
            notes.append(groups.note)
        if topped_up:
            warnings.append(guard.TOPPED_UP)
    out = anonymize_values(
        raw,
        method,
        names=list(names),
        k=k,
        q=q,
        metric=metric,
        strata=strata,
        threshold=threshold,
        policy=pol,
    )
    released = out.values
    if details.get("groups_left_out"):
        # the method kept its values off the values rare among the records it saw; the
        # guard's last word keeps them off those rare among all, the records left out included
        released = np.column_stack(
            [
                guard.released_values(released[:, j], rare[r], spread[j])
                for j, r in enumerate(numeric)
            ]
        )
    out_frame = pd.DataFrame({cols[r]: released[:, j] for j, r in enumerate(numeric)})
    for r in categorical:
        out_frame[cols[r]] = cats[r].to_numpy()
        if isinstance(cats[r].dtype, pd.CategoricalDtype):
            out_frame[cols[r]] = out_frame[cols[r]].astype(cats[r].dtype)
    xlim, xticks = axis_from_range(*finite_range(released[:, 0]), rare["x"])
    ylim, yticks = axis_from_range(*finite_range(released[:, 1]), rare["y"])
    details.update(out.details)
    # n counts every record given, those left out included: the report's count less the
    # points drawn would otherwise count the records left out
    report = make_report(
        function,
        method,
        out.params,
        names,
        n,
        clean.n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return ScatterRelease(
        out_frame,
        cols,
        xlim,
        ylim,
        xticks,
        yticks,
        report,
        coincident=out.coincident,
        notes=notes,
    )


def _cell_combos(cats: pd.DataFrame, categorical: list[str], orders: dict) -> tuple[list, Any]:
    """Return the (hue, style) combinations present, in order, and each record's (-1: none)."""
    if not categorical:
        return [()], None
    level_lists = [categorical_order(cats[r], orders.get(r)) for r in categorical]
    present = set(map(tuple, cats[categorical].itertuples(index=False, name=None)))
    combos = [
        c
        for c in pd.MultiIndex.from_product(level_lists).to_list()
        if (c if isinstance(c, tuple) else (c,)) in present
    ]
    combos = [c if isinstance(c, tuple) else (c,) for c in combos]
    lookup = {c: i for i, c in enumerate(combos)}
    codes = np.array(
        [lookup.get(c, -1) for c in cats[categorical].itertuples(index=False, name=None)]
    )
    return combos, codes


def _grid_semantic_release(
    raw,
    cats,
    categorical,
    cols,
    method,
    names,
    threshold,
    factor,
    bins,
    orders,
    n_dropped,
    function,
    pol,
    unlabelled=None,
) -> ScatterRelease:
    """Grid cells per (hue, style) level: one row per surviving cell, with its count.

    `unlabelled`: rows (x, y) of the records with a missing hue or style,
    linked by the release ledger (:func:`~safeplot.plots.grid.release_grid`).
    """
    combos, hue = _cell_combos(cats, categorical, orders)
    grid = release_grid(
        raw[:, 0],
        raw[:, 1],
        names=names,
        hue=hue,
        hue_order=None if hue is None else list(range(len(combos))),
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        kind="scatter",
        n_dropped=n_dropped,
        function=function,
        policy=pol,
        unlabelled=unlabelled,
    )
    return _cells_release(grid, combos, cats, categorical, cols, orders, threshold)


def _cells_release(
    grid: GridRelease,
    combos: list[tuple],
    cats: pd.DataFrame,
    categorical: list[str],
    cols: dict,
    orders: dict,
    threshold: int,
) -> ScatterRelease:
    """Return the scatter of a released grid: a row per shown cell of each (hue, style) level.

    `grid`'s levels are indices into `combos`; `cats` holds the drawn records'
    levels, which tell the levels with no cell shown (left out, unless named).
    """
    count_col = "count"
    while count_col in cols.values():
        count_col += "_"
    rows = []
    for i, counts in zip(grid.levels, grid.counts, strict=True):
        counts = np.nan_to_num(counts)
        ix, iy = np.nonzero(counts > 0)
        part = {
            cols["x"]: grid.xcentres[ix],
            cols["y"]: grid.ycentres[iy],
            count_col: counts[ix, iy].astype(np.int64),
        }
        for r, value in zip(categorical, combos[0 if i is None else i], strict=True):
            part[cols[r]] = [value] * ix.size
        rows.append(pd.DataFrame(part))
    frame = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame()
    report = grid.report
    undrawn: list[str] = []
    n_gone = 0
    for r in categorical:
        # a level none of whose cells holds threshold records is suppressed as a whole: not
        # named in the legend, unless the caller named it (DESIGN invariant 3)
        named = set(orders.get(r) or ())
        drawn = set(frame[cols[r]]) if len(frame) else set()
        levels = categorical_order(cats[r], orders.get(r))
        gone = [lev for lev in levels if lev not in drawn and lev not in named]
        if gone:
            undrawn.append(f"{len(gone)} {r} level(s)")
            n_gone += len(gone)
        frame[cols[r]] = pd.Categorical(
            frame[cols[r]], categories=[lev for lev in levels if lev not in gone]
        )
    if undrawn:
        report.details["groups_left_out"] = n_gone
        report.warnings.append(
            f"{' and '.join(undrawn)} have no cell of at least threshold={threshold} records "
            "and are not drawn."
        )
    # big cells first, so that small ones stay visible on top
    frame = frame.sort_values(count_col, ascending=False, kind="stable").reset_index(drop=True)
    columns = {**cols, "size": count_col}
    return ScatterRelease(
        frame,
        columns,
        grid.xlim,
        grid.ylim,
        grid.xticks,
        grid.yticks,
        report,
        cells=True,
        notes=[LEFT_OUT_NOTE] if undrawn else [],
    )


def scatter_cell_panels(
    data: pd.DataFrame,
    *,
    x: str,
    y: str,
    hue: str | None = None,
    style: str | None = None,
    orders: dict[str, Any] | None = None,
    facets: Sequence[str] = (),
    method: str | None = None,
    bins: int | None = None,
    threshold: int | None = None,
    factor: int = 2,
    policy: Policy | None = None,
    function: str = "relplot",
) -> dict[tuple, ScatterRelease]:
    """Release the grid cells of a faceted scatter plot together, before any is drawn.

    Under the grid methods (``"suppress"``, ``"generalize"``) each facet of
    ``relplot`` shows the counts of its records in cells, by (hue, style)
    level. The facets are released on one grid and the release ledger
    links them as the cells of one table (:func:`~safeplot.plots.grid.grid_panels`),
    so that the scatter plot without ``row``/``col`` minus the facets shown
    gives no suppressed cell.

    Parameters
    ----------
    data : DataFrame
        The records: the variables and the facet columns.
    x, y, hue, style : str
        Column names (`hue` and `style` categorical, optional).
    orders : dict, optional
        ``{"hue": hue_order, "style": style_order}``.
    facets : sequence of str
        The facet columns (``row``, ``col``), naming the facetings for the ledger.
    method, bins, threshold, factor, policy, function
        As in :func:`scatterplot` (`bins`: cells per axis before
        generalisation; None chooses by the number of records).

    Returns
    -------
    dict
        Facet key (tuple of its `facets` values) -> :class:`ScatterRelease`
        of cells, for every facet with complete records.

    Examples
    --------
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> panels = scatter_cell_panels(penguins, x="bill_length_mm", y="bill_depth_mm",
    ...                              hue="species", facets=["sex"], method="suppress")
    >>> sorted(panels), list(panels[("Male",)].frame.columns)
    ([('Female',), ('Male',)], ['bill_length_mm', 'bill_depth_mm', 'count', 'species'])
    """
    from .grid import grid_panels

    pol = get_policy(policy)
    m = get_method(pol.check_method(method, "scatter"))
    orders = dict(orders or {})
    roles = {"x": x, "y": y, "hue": hue, "style": style}
    pdata = plot_data(data, {r: v for r, v in roles.items() if v is not None}, function=function)
    categorical = [r for r in ("hue", "style") if pdata.has(r)]
    cols = _column_names(pdata, ["x", "y", *categorical])
    frame = pdata.frame
    xy = frame[["x", "y"]].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    complete = np.isfinite(xy).all(axis=1)
    has_levels = ~frame[categorical].isna().any(axis=1).to_numpy() if categorical else complete
    drawn = complete & has_levels
    cats = frame.loc[drawn, categorical].reset_index(drop=True)
    combos, codes = _cell_combos(cats, categorical, orders)
    # each record's (hue, style) combination: NaN for a missing level (dropped, still linked)
    combo = np.full(len(frame), np.nan)
    combo[drawn] = 0 if codes is None else codes
    # the variables as given: grid_panels validates them (text, dates, booleans are refused)
    table = pd.DataFrame(
        {cols["x"]: frame["x"].to_numpy(), cols["y"]: frame["y"].to_numpy(), "level": combo}
    )
    for tag in facets:
        table[tag] = np.asarray(data[tag])
    partition = " x ".join(f"{r}={pdata.label(r)}" for r in categorical) or None
    grids = grid_panels(
        table,
        x=cols["x"],
        y=cols["y"],
        hue="level" if categorical else None,
        hue_order=list(range(len(combos))) if categorical else None,
        facets=list(facets),
        method=m.name,
        bins=bins,
        threshold=threshold,
        factor=factor,
        function=function,
        policy=pol,
        partition=partition,
        kind="scatter",
    )
    facet_of = table.loc[drawn, list(facets)].reset_index(drop=True)
    out = {}
    for key, grid in grids.items():
        mine = np.ones(len(cats), dtype=bool)
        for tag, value in zip(facets, key, strict=True):
            mine &= (facet_of[tag] == value).to_numpy()
        levels = [None if lev is None else int(lev) for lev in grid.levels]
        out[key] = _cells_release(
            replace(grid, levels=levels),
            combos,
            cats[mine].reset_index(drop=True),
            categorical,
            cols,
            orders,
            pol.check_threshold(threshold),
        )
    return out


def draw_scatter_release(
    rel: ScatterRelease,
    *,
    ax: Axes,
    palette: Any = None,
    hue_order: Any = None,
    hue_norm: Any = None,
    sizes: Any = None,
    size_order: Any = None,
    size_norm: Any = None,
    markers: Any = True,
    style_order: Any = None,
    legend: Any = "auto",
    mark_coincident: bool = False,
    annotate: bool | None = None,
    policy: Policy | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a released scatter (points, or the cells of :func:`scatter_cell_panels`).

    It is drawn as :func:`scatterplot` draws it. Cells get marker areas
    proportional to their counts; `mark_coincident` draws points shared by
    several records in black; the other keywords are
    :func:`seaborn.scatterplot`'s. Nothing here sees a record.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> panels = scatter_cell_panels(penguins, x="bill_length_mm", y="bill_depth_mm",
    ...                              facets=["sex"], method="suppress")
    >>> ax = draw_scatter_release(panels[("Male",)], ax=plt.figure().subplots())
    >>> ax.get_xlabel()
    'bill_length_mm'
    """
    pol = get_policy(policy)
    draw_semantic(
        ax,
        rel,
        palette=palette,
        hue_order=hue_order,
        hue_norm=hue_norm,
        sizes=sizes,
        size_order=size_order,
        size_norm=size_norm,
        markers=markers,
        style_order=style_order,
        legend=legend,
        mark_coincident=mark_coincident,
        kwargs=kwargs,
        legend_entries=brief_legend_entries,
    )
    if rel.notes:
        note_below(ax, "\n".join(rel.notes), LEFT_OUT_GID)
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)


@takes_method_options
def scatterplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    size: Any = None,
    style: Any = None,
    palette: Any = None,
    hue_order: Sequence[Any] | None = None,
    hue_norm: Any = None,
    sizes: Any = None,
    size_order: Sequence[Any] | None = None,
    size_norm: Any = None,
    markers: Any = True,
    style_order: Sequence[Any] | None = None,
    legend: str | bool = "auto",
    ax: Axes | None = None,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    metric: str = "euclidean",
    mark_coincident: bool = False,
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a scatter plot with semantic groupings, released under disclosure control.

    The call of :func:`seaborn.scatterplot` (0.13.2), plus ``method=`` and
    its parameters. The records are released first (see Methods below) and
    seaborn draws only the released numbers, so hue, size, style, palettes
    and legends look and behave as in seaborn.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data the variable names refer to.
    x, y : name of a column in `data`, or vector
        The two numeric variables (both are required: wide-form data would be
        plotted against the row index, which shows every value).
    hue : name or vector, optional
        Grouping variable drawn in colour. Categorical: the release is made
        within each level (deterministic) or per level (grid methods,
        confidential). Numeric: released together with x and y (its values
        are centroids or noised), never drawn raw.
    size : name or vector, optional
        Grouping variable drawn as marker size (categorical or numeric, as
        `hue`). Not with grid methods (the size shows the cell count) nor
        ``"confidential"``.
    style : name or vector, optional
        Categorical variable drawn as marker shape. With grid methods each
        (hue, style) combination gets its own grid; not with ``"confidential"``.
    palette : string, list, dict, or Colormap, optional
        Colours of the hue levels, as in seaborn.
    hue_order : list, optional
        Order of the hue levels.
    hue_norm : tuple or Normalize, optional
        Normalisation of a numeric hue (makes the hue numeric, as in seaborn).
    sizes : list, dict, or tuple, optional
        Marker sizes, as in seaborn. With grid methods a number or a
        ``(min, max)`` tuple: the largest cell gets the (max) area.
    size_order : list, optional
        Order of the size levels.
    size_norm : tuple or Normalize, optional
        Normalisation of a numeric size.
    markers : bool, list, or dict, default True
        Markers of the style levels.
    style_order : list, optional
        Order of the style levels.
    legend : "auto", "brief", "full", or False
        As in seaborn; numeric legend entries never equal a rare raw value.
    ax : matplotlib Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        ``"deterministic"`` (the policy's default for scatter plots),
        ``"probabilistic"``, ``"suppress"``, ``"generalize"``,
        ``"confidential"`` or ``"none"`` (raw; only if the policy allows it).
    k : int, optional
        Records per centroid (deterministic); at least the policy's ``k_min``.
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (probabilistic); at
        least the policy's ``q_min``.
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    threshold : int, optional
        Fewest records in a shown grid cell or box (default and floor: the policy's).
    factor : int, default 2
        Coarsening of ``"generalize"`` (30 x 30 grid -> 15 x 15).
    bins : int, optional
        Cells per axis of the density grid (suppress, generalize). Default:
        chosen by the number of records, as the heat map's
        (:func:`~safeplot.plots.grid.default_grid_bins`): 11 x 11 for 344
        records, 30 x 30 from about 2,700 on. ``bins=30`` gives the paper's
        grid whatever n is.
    metric : {"euclidean", "mahalanobis"}, default "euclidean"
        Neighbour distance of ``"deterministic"``.
    mark_coincident : bool, default False
        Draw points whose centroid is shared with other records in black
        (Avraam et al.'s black dots; deterministic only), at any number of
        records. Without it no point is marked, however many records share it.
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``); its number
        of values is ``c=`` given as a keyword, default 10.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.scatter` (single values only:
        per-point colours or sizes are refused). Under ``"confidential"``
        only ``color`` (of the boxes) is used.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report on ``ax.safeplot_report``.

    Raises
    ------
    DisclosureError
        A policy floor not met (k, q, threshold, raw output), or every
        hue/style level (or combination) too small for the method's groups
        (a single small one is left out instead).
    ValueError
        Bad input (missing x or y, text or infinite values, unknown column),
        or a parameter that cannot be shown safely with the method.

    See Also
    --------
    scatter : matplotlib-style call returning the markers.
    safeplot.anonymize.confidential.parallel_boxes : O'Keefe's parallel box plots.
    seaborn.scatterplot : The raw-data original.

    Notes
    -----
    **Methods**

    ``"deterministic"``
        Each record is replaced by the centroid of its k nearest neighbours
        (z-scores, then scaled to the original SD and shifted by the original
        mean; Avraam et al.).
        With a categorical hue, size or style the neighbours are searched
        within each level (each needs at least k records); a numeric hue or
        size is a third (fourth) variable of the same search. A level, or
        combination of levels (hue x style), with fewer than k records is
        left out: its points are not drawn, its name leaves the legend
        unless ``hue_order=`` (``style_order=``, ``size_order=``) named it,
        a note under the axes says that groups were left out (naming none,
        giving no count) and the report warns. The figure without hue forms
        other neighbourhoods, so the two figures' difference is not the
        records left out (``"microaggregation"`` likewise, with 2k records).
        ``mark_coincident=True`` shows shared centroids in black.
    ``"probabilistic"``
        Each variable (x, y, a numeric hue or size) gets keyed normal noise
        with SD ``q`` times its SD; the same data always get the same noise.
    ``"suppress"``
        A 30 x 30 grid on safe rounded edges (per hue/style level, on common
        edges); one marker per cell with at least ``threshold`` records, at
        the cell centre, its area proportional to the count.
    ``"generalize"``
        As ``"suppress"`` on a grid coarsened by ``factor`` (15 x 15).
    ``"confidential"``
        O'Keefe's replacement: box plots of y over intervals of x (each with
        at least ``threshold`` records, intervals merged while a box has a
        zero-length half; a merged box is drawn over one interval and the
        figure notes it), winsorised and rounded, no outliers, and a lowess
        trend line with winsorised, rounded end points. With a hue, one set
        of boxes and one trend per level, dodged; a level of fewer than
        ``threshold`` records is left out with a note.
    ``"none"``
        The raw seaborn plot, only under a policy that allows raw output.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, (left, right) = plt.subplots(1, 2)
    >>> ax = scatterplot(data=penguins, x="flipper_length_mm", y="body_mass_g",
    ...                  hue="species", ax=left)
    >>> ax.safeplot_report.method, ax.safeplot_report.params["k"]
    ('deterministic', 3)
    >>> ax = scatterplot(data=penguins, x="flipper_length_mm", y="body_mass_g",
    ...                  method="suppress", ax=right)
    >>> ax.safeplot_report.method
    'suppress'
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    if x is None or y is None:
        raise ValueError(
            "scatterplot needs both x= and y=. Wide-form data (or a single variable) would be "
            "drawn against the row index, which shows every raw value; name the two numeric "
            "variables to plot."
        )
    pdata = plot_data(
        data, {"x": x, "y": y, "hue": hue, "size": size, "style": style}, function="scatterplot"
    )
    types = map_types(pdata, palette, hue_norm, sizes, size_norm)
    if not m.raw:
        refuse_per_point(kwargs, "scatterplot")
        if m.counts_only and size_norm is not None:
            raise ValueError(
                f"size_norm cannot be used with method={method!r}: the marker area is "
                "proportional to the cell count. Leave size_norm out."
            )
    orders = {"hue": hue_order, "size": size_order, "style": style_order}
    rel = _semantic_release(
        pdata,
        types,
        method,
        k=k,
        q=q,
        metric=metric,
        threshold=threshold,
        factor=factor,
        bins=bins,
        orders=orders,
        pol=pol,
        function="scatterplot",
    )
    ax = axes_for(ax, rel.report, rel)
    if isinstance(rel, BoxScatterRelease):
        all_levels = rel.levels
        if pdata.has("hue"):
            all_levels = categorical_order(pdata.frame["hue"].dropna(), hue_order)
            if hue_order is None and rel.report.details.get("groups_left_out"):
                # a level left out takes no colour: a gap in the palette would point at it
                all_levels = [lev for lev in all_levels if lev in rel.levels]
        colors = level_colors(all_levels, palette) if pdata.has("hue") else [None]
        by_level = dict(zip(all_levels, colors, strict=True))
        drawn = [by_level.get(lev) for lev in rel.levels]
        if not pdata.has("hue"):
            drawn = [kwargs.get("color", "C0")]
        draw_boxes(ax, rel, colors=drawn, legend=legend, title=pdata.label("hue"))
        ax.set_xlabel(pdata.label("x"))
        ax.set_ylabel(pdata.label("y"))
        if rel.report.details.get("groups_left_out"):
            note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
        return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
    return draw_scatter_release(
        rel,
        ax=ax,
        palette=palette,
        hue_order=hue_order,
        hue_norm=hue_norm,
        sizes=sizes,
        size_order=size_order,
        size_norm=size_norm,
        markers=markers,
        style_order=style_order,
        legend=legend,
        mark_coincident=mark_coincident and m.marks_coincident,
        annotate=annotate,
        policy=pol,
        **kwargs,
    )


# -- matplotlib-style scatter --------------------------------------------------------------


def _colour_values(c: Any, n: int, data: Any) -> tuple[str, Any]:
    """Classify `c`: ("none", None), ("color", colour) or ("values", per-point numbers)."""
    if c is None:
        return "none", None
    if isinstance(c, str):
        if isinstance(data, (pd.DataFrame, dict)) and c in data:
            return "values", c
        if mpl.colors.is_color_like(c):
            return "color", c
        raise ValueError(f"c={c!r} is neither a colour nor a column of `data`.")
    try:
        arr = np.asarray(c, dtype=float)
    except (TypeError, ValueError):
        arr = None
    if arr is not None and arr.ndim == 1 and arr.size == n and n > 1:
        return "values", c
    if mpl.colors.is_color_like(c):
        return "color", c
    raise ValueError(
        "Per-point colours (an RGB(A) row or colour name per record) cannot be released: "
        "they would attach a raw attribute to each point. Pass c as one colour, or as numeric "
        "values (released with the points), or use scatterplot(hue=...)."
    )


@takes_method_options
def scatter(
    x: Any,
    y: Any,
    s: float | None = None,
    c: Any = None,
    *,
    marker: Any = None,
    cmap: Any = None,
    alpha: float | None = None,
    ax: Axes | None = None,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> PathCollection:
    """Scatter plot of y against x, as :meth:`matplotlib.axes.Axes.scatter`, released safely.

    Parameters
    ----------
    x, y : array-like, or names of columns of ``data=`` (in `kwargs`)
        The numeric variables.
    s : float, optional
        Marker area in points squared (one number; the median area of grid
        cells under ``"suppress"``/``"generalize"``). Per-point sizes are
        refused: use :func:`scatterplot` with ``size=``.
    c : colour, or array-like of numbers, optional
        One colour, or a number per record mapped through `cmap`: the
        numbers are released with x and y (as a third variable).
    marker : MarkerStyle, optional
    cmap : str or Colormap, optional
    alpha : float, optional
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        ``"deterministic"`` (default), ``"probabilistic"``, ``"suppress"``,
        ``"generalize"`` or ``"none"``. ``"confidential"`` draws box plots,
        not markers: use :func:`scatterplot` for it.
    k, q, threshold, factor, bins
        Parameters of the methods, as in :func:`scatterplot`.
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``); its number
        of values is ``c=`` given as a keyword, default 10.
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.scatter` (``data=`` is
        resolved first; per-point values are refused).

    Returns
    -------
    matplotlib.collections.PathCollection
        The markers of the released points; their Axes carries the report.

    See Also
    --------
    scatterplot : The seaborn-style call, with hue, size and style.

    Notes
    -----
    **Methods**

    ``"deterministic"``
        kNN centroids of (x, y[, c]) (Avraam et al.).
    ``"probabilistic"``
        Keyed noise with SD ``q`` times each variable's SD.
    ``"suppress"`` / ``"generalize"``
        One marker per grid cell (30 x 30, or 15 x 15) holding at least
        ``threshold`` records, area proportional to the count.
    ``"none"``
        Raw, only if the policy allows it.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> pc = scatter(tips["total_bill"], tips["tip"], c=tips["size"], cmap="viridis", ax=ax)
    >>> pc.axes.safeplot_report.method, pc.get_offsets().shape
    ('deterministic', (244, 2))
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    if m.family not in _POINT_FAMILIES:
        points = [o.name for o in available_methods() if o.family in _POINT_FAMILIES]
        raise ValueError(
            f"method={method!r} is not available for scatter(): O'Keefe's confidential "
            "scatter is a set of box plots, not markers. Use scatterplot(x=..., y=..., "
            f"method={method!r}), or one of {points}."
        )
    data = kwargs.pop("data", None)
    if s is not None and np.ndim(s) > 0:
        if np.size(s) != 1:
            raise ValueError(
                "Per-point marker sizes (s as an array) would encode a raw value of each "
                "record. Pass one size, or use scatterplot(..., size=<variable>), which "
                "releases the variable with the points."
            )
        s = float(np.ravel(s)[0])
    n_guess = len(data) if data is not None else np.size(x) if not isinstance(x, str) else 0
    c_kind, c_value = _colour_values(c, n_guess, data)
    if not m.raw:
        refuse_per_point(kwargs, "scatter")
    roles = {"x": x, "y": y, "c": c_value if c_kind == "values" else None}
    pdata = plot_data(data, roles, function="scatter")
    if m.counts_only and c_kind == "values":
        raise ValueError(
            f"c as values cannot be drawn with method={method!r}: each marker is a grid cell "
            "of many records. Pass one colour, or use method='deterministic' or "
            "'probabilistic'."
        )
    numeric = ["x", "y"] + (["c"] if c_kind == "values" else [])
    cols = _column_names(pdata, numeric)
    clean = clean_numeric({cols[r]: pdata.frame[r] for r in numeric})
    raw = clean.values
    names = tuple(cols[r] for r in numeric)
    kws = dict(kwargs)
    if marker is not None:
        kws["marker"] = marker
    if cmap is not None:
        kws["cmap"] = cmap
    if alpha is not None:
        kws["alpha"] = alpha
    if c_kind == "color":
        kws["c"] = c_value
    if m.counts_only or c_kind != "values":
        rel = release_scatter(
            raw[:, 0],
            raw[:, 1],
            names=names,
            method=method,
            k=k,
            q=q,
            threshold=threshold,
            factor=factor,
            bins=bins,
            n_dropped=clean.n_dropped,
            function="scatter",
            policy=pol,
        )
        ax = axes_for(ax, rel.report, rel)
        if rel.sizes is not None:
            base = np.square(mpl.rcParams["lines.markersize"]) if s is None else s
            area = base * rel.sizes / np.median(rel.sizes) if rel.sizes.size else []
            coll = ax.scatter(rel.x, rel.y, s=area, **kws)
        elif m.raw:
            coll = ax.scatter(rel.x, rel.y, s=s, **kws)
        else:
            coll = scatter_points(ax, rel.x, rel.y, s=s, **kws)
        report = rel.report
        lims = None if m.raw else (rel.xlim, rel.xticks, rel.ylim, rel.yticks)
    else:
        if m.raw:
            report = make_report("scatter", method, {}, names, raw.shape[0], clean.n_dropped, pol)
            ax = axes_for(ax, report)
            coll = ax.scatter(raw[:, 0], raw[:, 1], s=s, c=raw[:, 2], **kws)
            lims = None
        else:
            threshold = pol.check_threshold(threshold)
            rare = [rare_values(raw[:, j], threshold) for j in range(2)]
            out = anonymize_values(
                raw, method, names=list(names), k=k, q=q, threshold=threshold, policy=pol
            )
            report = make_report(
                "scatter",
                method,
                out.params,
                names,
                raw.shape[0],
                clean.n_dropped,
                pol,
                details=out.details,
            )
            xlim, xticks = axis_from_range(*finite_range(out.values[:, 0]), rare[0])
            ylim, yticks = axis_from_range(*finite_range(out.values[:, 1]), rare[1])
            lims = (xlim, xticks, ylim, yticks)
            ax = axes_for(ax, report, out.values)
            coll = scatter_points(
                ax, out.values[:, 0], out.values[:, 1], s=s, c=out.values[:, 2], **kws
            )
    if lims is not None:
        set_safe_axis(ax, "x", lims[0], lims[1])
        set_safe_axis(ax, "y", lims[2], lims[3])
    finish(ax, report, annotate=annotate, policy=pol)
    return coll
