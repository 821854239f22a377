"""Violin plots (seaborn's ``violinplot``) of released densities.

A raw violin is a kernel density of each group's values, by default cut two
bandwidths beyond the group's smallest and largest value, with the group's
raw quartiles, whiskers or every value drawn inside. :func:`violinplot`
draws instead, per group (category x hue level), the density
:func:`~safeplot.plots.kde.kdeplot` releases under the same method -- a
kernel density of the anonymised values (``"deterministic"``,
``"probabilistic"``, ``"microaggregation"``, ``"rounding"``), of the shown
bins of a suppressed histogram (``"suppress"``, ``"generalize"``) or of
winsorised values over a rounded range (``"confidential"``), with kdeplot's
bandwidth floor and menu of grid sizes, rounded -- cut at the released range
(seaborn's ``cut=0`` on released numbers). The inner box and quartiles are
the released box statistics of :func:`~safeplot.plots.categorical.boxplot`
under the same method; sticks and points are drawn only of values that are
anonymised per record. A group with fewer records than the method needs is
left out, and not named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ..anonymize.boxes import BoxSummary
from ..anonymize.grids import hit_mask, rare_values
from ..errors import DisclosureError
from ..marks.violins import draw_violins
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ..release.guard import LEFT_OUT_NOTE
from ._categories import Layout, Rows, resolve
from ._common import (
    axes_for,
    axis_from_range,
    check_positive_int,
    finish,
    make_report,
    quiet_seaborn,
    takes_method_options,
)
from .kde import KdeRelease, estimate_params, estimate_released, release_kde

__all__ = ["VIOLIN_METHODS", "ViolinRelease", "release_violinplot", "violinplot"]

_FAMILIES = ("values", "counts", "rules", "raw")
#: Methods a violin plot releases.
VIOLIN_METHODS = tuple(m.name for m in available_methods() if m.family in _FAMILIES)
_INNER = ("box", "quart", "stick", "point", None)
_DENSITY_NORMS = ("area", "count", "width")


@release_kind("violin")
@dataclass
class ViolinRelease:
    """Released violins: per group a density curve and the numbers of its inner mark.

    Attributes
    ----------
    method : str
    groups : list of tuple
        ``(category, hue level)`` of each violin, in drawing order (None
        for a role that is not used).
    support : list of ndarray
        Points of the value axis each density is evaluated at, from the
        group's smallest to its largest released number.
    density : list of ndarray
        The released (rounded) density at each support point.
    counts : list of int
        Records per violin, rounded by the policy (``density_norm="count"``).
    boxes : list of BoxSummary or None
        ``inner="box"``: the released box statistics of each violin.
    quartiles : list of ndarray or None
        ``inner="quart"``: the released quartiles and median of each violin.
    values : list of ndarray or None
        ``inner="stick"``/``"point"``: each violin's released values.
    levels, hue_levels : list or None
        Categories and hue levels drawn, in order (the others are not named).
    orient : str
        The category axis.
    names : dict
        Role ("cat", "value", "hue") -> axis or legend label.
    inner : str or None
    density_norm : str
    common_norm : bool
    value_lim : tuple of float
    value_ticks : ndarray
    report : DisclosureReport
    notes : list of str
        What the figure notes under its axis (number-free).
    """

    method: str
    groups: list[tuple[Any, Any]]
    support: list[np.ndarray]
    density: list[np.ndarray]
    counts: list[int]
    boxes: list[BoxSummary | None] | None
    quartiles: list[np.ndarray | None] | None
    values: list[np.ndarray] | None
    levels: list[Any] | None
    hue_levels: list[Any] | None
    orient: str
    names: dict[str, str]
    inner: str | None
    density_norm: str
    common_norm: bool
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)

    @property
    def value_axis(self) -> str:
        """The axis of the values."""
        return "y" if self.orient == "x" else "x"


@dataclass
class _Groups:
    """The groups of a categorical plot and which of them are large enough to draw."""

    codes: np.ndarray  # group code of each record: category * n_hue + hue
    shown: list[int]  # codes drawn, in drawing order
    left_out: int  # non-empty groups too small to draw
    fewest: int
    why: str


def group_records(layout: Layout, rows: Rows, fewest: int, why: str, function: str) -> _Groups:
    """Split records into groups (category x hue level); refuse when none is large enough.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots._categories import resolve
    >>> tips = safeplot.load_dataset("tips")
    >>> layout, rows = resolve("violinplot", tips, "day", "tip", None, None, None, None,
    ...                        numeric=True)
    >>> group_records(layout, rows, 20, "threshold=20", "violinplot").left_out
    1
    """
    n_hue = layout.n_hue
    codes = rows.cat * n_hue + rows.hue
    sizes = np.bincount(codes, minlength=len(layout.levels) * n_hue)
    groups = guard.shown_groups(
        sizes, fewest, why, function=function,
        fix="Use broader groups (recode the category or leave hue out).",
    )  # fmt: skip
    return _Groups(codes, [int(c) for c in np.flatnonzero(groups.shown)], groups.left_out,
                   fewest, why)  # fmt: skip


def group_labels(
    layout: Layout, shown: list[int], order: Any = None, hue_order: Any = None
) -> tuple[list, list | None, list | None]:
    """``(category, hue)`` of each shown group, and the categories and hue levels drawn.

    Levels the caller listed in `order` (`hue_order`) keep their slots, as
    seaborn keeps them, whether or not a group of theirs is drawn: they are
    named by the call, not by the data. Other levels are named only when a
    group of theirs is drawn.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots._categories import resolve
    >>> tips = safeplot.load_dataset("tips")
    >>> layout, rows = resolve("violinplot", tips, "day", "tip", None, None, None, None,
    ...                        numeric=True)
    >>> group_labels(layout, [0, 2])
    ([('Thur', None), ('Sat', None)], ['Thur', 'Sat'], None)
    """
    n_hue = layout.n_hue
    groups = [
        (
            layout.levels[c // n_hue] if layout.has_cat else None,
            None if layout.hue_levels is None else layout.hue_levels[c % n_hue],
        )
        for c in shown
    ]
    levels = None
    if layout.has_cat:
        present = {c // n_hue for c in shown}
        levels = [lev for i, lev in enumerate(layout.levels) if i in present or order is not None]
    hues = None
    if layout.hue_levels is not None:
        present = {c % n_hue for c in shown}
        hues = [
            lev for i, lev in enumerate(layout.hue_levels) if i in present or hue_order is not None
        ]
    return groups, levels, hues


def _inner(inner: Any, function: str) -> str | None:
    if inner is None:
        return None
    if isinstance(inner, str):
        for option in _INNER[:-1]:
            if inner.startswith(option):  # seaborn takes "sticks", "points", "quartiles"
                return option
    raise ValueError(
        f"{function}: inner={inner!r} is not one of 'box', 'quart', 'stick', 'point' or None."
    )


def _released_box_stats(
    layout: Layout,
    rows: Rows,
    grouped: _Groups,
    method: str,
    *,
    threshold: int,
    factor: int,
    k: int,
    q: float,
    bins: int,
    policy: Policy,
    function: str,
) -> tuple[dict[int, BoxSummary], list[str]]:
    """Return the box plot release of each shown group (summary methods): code -> summary.

    The records of the shown groups are handed to
    :func:`~safeplot.plots.categorical.release_boxplot` under the same
    method; a group whose box cannot be released (``"confidential"``: a
    zero-length half) has no entry, and the warnings say why.
    """
    from .categorical import release_boxplot

    keep = np.isin(grouped.codes, grouped.shown)
    n_hue = layout.n_hue
    codes = grouped.codes[keep]
    frame = pd.DataFrame({"value": rows.values[keep]})
    frame["cat"] = pd.Categorical(
        [layout.levels[c // n_hue] for c in codes], categories=layout.levels
    )
    hue = None
    if layout.hue_levels is not None:
        frame["hue"] = pd.Categorical(
            [layout.hue_levels[c % n_hue] for c in codes], categories=layout.hue_levels
        )
        hue = "hue"
    try:
        rel = release_boxplot(
            frame, x="cat", y="value", hue=hue, orient="x", method=method,
            threshold=threshold, factor=factor, k=k, q=q, bins=bins, policy=policy,
        )  # fmt: skip
    except DisclosureError:
        # the error names the groups; the release does not
        return {}, [
            f"{function}: the inner boxes are not drawn: under method={method!r} a group keeps "
            "too few records for a box once small cells are suppressed. Use "
            "method='generalize', fewer bins, or inner='quart'/None."
        ]
    out = {}
    for c in grouped.shown:
        cat = layout.levels[c // n_hue]
        h = None if layout.hue_levels is None else layout.hue_levels[c % n_hue]
        try:
            out[c] = rel.box(cat, h)
        except KeyError:
            continue
    return out, list(rel.report.warnings)


def _off_rare(support: np.ndarray, rare: np.ndarray) -> np.ndarray:
    """Return a curve's grid with any point equal to a rare raw value moved by 1e-6 of a step.

    The grid is regular between released ends and no data, but the violin's
    ends (seaborn's ``cut=0``) are released numbers, so its interior points
    can fall on a raw value that nobody else holds; as the x coordinates of
    other safeplot curves (:func:`~safeplot.plots._common.safe_points`), such
    a point moves invisibly off it.
    """
    support = np.array(support, dtype=float)
    if support.size < 2:
        return support
    step = (support[-1] - support[0]) / (support.size - 1) or 1.0
    for _ in range(4):
        hits = hit_mask(support, rare)
        if not hits.any():
            break
        support[hits] += 1e-6 * step
    return support


def _tukey(values: np.ndarray) -> BoxSummary:
    """Tukey's box of released values (what seaborn's box of them shows)."""
    q1, med, q3 = np.percentile(values, [25, 50, 75])
    reach = 1.5 * (q3 - q1)
    inside = values[(values >= q1 - reach) & (values <= q3 + reach)]
    return BoxSummary(
        float(inside.min()), float(q1), float(med), float(q3), float(inside.max()), n=values.size
    )


def release_violinplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    inner: str | None = "box",
    density_norm: str = "area",
    common_norm: bool = False,
    gridsize: int = 100,
    bw_method: Any = "scott",
    bw_adjust: float = 1,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    bins: int = 30,
    policy: Policy | None = None,
    function: str = "violinplot",
) -> ViolinRelease:
    """Release the densities (and inner marks) of a violin plot, one per group.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, orient, inner, density_norm, common_norm
        As in :func:`violinplot`.
    gridsize : {50, 100, 200}
        Points of each density curve (kdeplot's menu).
    bw_method, bw_adjust
        The kernel bandwidth, as in :func:`~safeplot.plots.kde.kdeplot`
        (``bw_adjust`` at least 0.5).
    method : str, optional
        Default: the policy's method for box plots (``"deterministic"``).
    threshold, factor, k, q, bins
        Parameters of the methods (``bins``: the histogram of ``"suppress"``).
    policy : Policy, optional
    function : str
        The public function, for the report and messages.

    Returns
    -------
    ViolinRelease

    Raises
    ------
    DisclosureError
        Every group too small, a parameter below a policy floor, a bandwidth
        below the floor, ``inner="stick"``/``"point"`` under a method that
        does not anonymise each record's value.
    ValueError
        An unknown `inner` or `density_norm`, a grid size off the menu, bad
        variables.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_violinplot(tips, x="day", y="tip", method="suppress")
    >>> rel.levels, rel.inner
    (['Thur', 'Fri', 'Sat', 'Sun'], 'box')
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "box"), _FAMILIES, "violin plots")
    inner = _inner(inner, function)
    if density_norm not in _DENSITY_NORMS:
        raise ValueError(
            f"{function}: density_norm={density_norm!r} is not one of {list(_DENSITY_NORMS)}."
        )
    params = estimate_params(
        bw_method=bw_method, bw_adjust=bw_adjust, gridsize=gridsize, cut=0, common_norm=False
    )
    if m.raw:
        raise ValueError(f"{function}: method='none' is drawn by seaborn, not released.")
    threshold = pol.check_threshold(threshold)
    # checked for every method: a bad value is an error even where it is not used
    bins = check_positive_int("bins", bins)
    factor = check_positive_int("factor", factor)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    if inner in ("stick", "point") and not (m.moves_values and not m.rule_based):
        raise DisclosureError(
            f"{function}: inner={inner!r} draws one mark per record, and method={m.name!r} "
            "does not anonymise each record's value (it releases counts or summaries). Use "
            "inner='box' or 'quart', or a method that moves every value (e.g. "
            "method='deterministic')."
        )
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
    names = {
        "cat": layout.cat_name or "",
        "value": layout.value_name or "",
        "hue": layout.hue_name or "",
    }
    fewest, why = m.group_floor(pol, k) if m.moves_values else (threshold, "")
    fewest = max(fewest, threshold)
    why = why or f"threshold={threshold}"
    grouped = group_records(layout, rows, fewest, why, function)
    shown = grouped.shown
    keep = np.isin(grouped.codes, shown)
    codes = grouped.codes[keep]
    values = rows.values[keep]
    # rare among every record, those of groups left out included
    rare = rare_values(rows.all_values, threshold)
    variables = tuple(v for v in (names["value"], names["cat"], names["hue"]) if v) or ("values",)
    per_record = m.moves_values and not m.rule_based
    details: dict[str, Any] = {}
    warnings: list[str] = []
    report_params: dict[str, Any] = {"threshold": threshold}
    cells = 0
    released_values = None
    if per_record:
        out = anonymize_values(
            values[:, None], m.name, names=[names["value"] or "values"], k=k, q=q,
            strata=codes, threshold=threshold, policy=pol, _rare=[rare],
        )  # fmt: skip
        released_values = guard.released_values(
            out.values[:, 0], rare, float(np.std(rows.values, ddof=1))
        )
        report_params.update(out.params)
        details.update(out.details)
        base = make_report(function, m.name, {}, variables, values.size, 0, pol)
        kde = KdeRelease(
            data=pd.DataFrame({"x": released_values, "hue": codes}),
            labels={"x": names["value"] or "x", "hue": "group"},
            levels=list(shown),
            method=m.name,
            grid=None,
            scales={"x": None},
            sig=None,
            report=base,
            avoid={"x": rare},
        )
        kde = estimate_released(kde, {"x": rare}, params, pol)
    else:
        kde = release_kde(
            values, hue=codes, hue_order=list(shown), labels={"x": names["value"] or "x"},
            method=m.name, threshold=threshold, factor=factor, k=k, q=q, bins=bins,
            function=function, policy=pol, bw_method=bw_method, bw_adjust=bw_adjust,
            gridsize=gridsize, cut=0, common_norm=False,
        )  # fmt: skip
        report_params.update(kde.report.params)
        details.update(kde.report.details)
        cells = kde.report.cells_suppressed
        # the estimate's notes name groups by internal code: the count of groups left out
        # below says it instead
        warnings.extend(w for w in kde.report.warnings if not w.startswith("Every bin"))
    est = kde.estimate
    report_params.update(gridsize=est.params["gridsize"], bw_adjust=est.params["bw_adjust"])
    report_params["cut"] = 0
    groups, _, _ = group_labels(layout, shown)
    drawn = [i for i, note in enumerate(est.notes) if not note]
    left_out = grouped.left_out + (len(shown) - len(drawn))
    if not drawn:
        raise DisclosureError(
            f"{function}: no group has a density that can be released (every bin is below "
            "the threshold, or the values do not vary). Use method='generalize', fewer bins, "
            "or method='deterministic'."
        )
    shown = [shown[i] for i in drawn]
    groups = [groups[i] for i in drawn]
    support = [_off_rare(est.support[i], rare) for i in drawn]
    density = [np.asarray(est.density[i], dtype=float) for i in drawn]
    counts = []
    for c in shown:
        n = pol.round_count(int(np.sum(codes == c)))
        counts.append(n if isinstance(n, int) else 0)
    boxes = quartiles = per_values = None
    inner_note = ""
    if per_record:
        per_values = [released_values[codes == c] for c in shown]
    if inner in ("box", "quart"):
        if per_record:
            stats = {c: _tukey(v) for c, v in zip(shown, per_values, strict=True)}
        else:
            stats, more = _released_box_stats(
                layout, rows, grouped, m.name, threshold=threshold, factor=factor, k=k, q=q,
                bins=bins, policy=pol, function=function,
            )  # fmt: skip
            warnings.extend(w for w in more if w not in warnings)
            if not stats:
                inner_note = f"inner {'boxes' if inner == 'box' else 'quartiles'} not drawn"
        boxes = [stats.get(c) for c in shown]
        if inner == "quart":
            quartiles = [None if b is None else np.array([b.q1, b.med, b.q3]) for b in boxes]
            boxes = None
    if inner not in ("stick", "point"):
        per_values = None
    _, levels, hue_levels = group_labels(layout, shown, order, hue_order)
    drawn_numbers = [np.r_[s[[0, -1]]] for s in support]
    if boxes is not None:
        drawn_numbers += [b.stats for b in boxes if b is not None]
    if per_values is not None:
        drawn_numbers += per_values
    every = np.concatenate(drawn_numbers)
    value_lim, value_ticks = axis_from_range(float(every.min()), float(every.max()), rare)
    notes = [inner_note] if inner_note else []
    if left_out:
        notes.append(LEFT_OUT_NOTE)
        warnings.append(
            f"{left_out} group(s) with fewer than {fewest} records ({why}), or with no "
            "density to release, are not drawn."
        )
    report = make_report(
        function, m.name, report_params, variables, values.size, rows.n_dropped, pol,
        cells_suppressed=cells + left_out, details=details, warnings=warnings,
    )  # fmt: skip
    return ViolinRelease(
        method=m.name,
        groups=groups,
        support=support,
        density=density,
        counts=counts,
        boxes=boxes,
        quartiles=quartiles,
        values=per_values,
        levels=levels,
        hue_levels=hue_levels,
        orient=layout.orient,
        names=names,
        inner=inner,
        density_norm=density_norm,
        common_norm=bool(common_norm),
        value_lim=value_lim,
        value_ticks=value_ticks,
        report=report,
        notes=notes,
    )


@takes_method_options
def violinplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    saturation: float = 0.75,
    fill: bool = True,
    inner: str | None = "box",
    split: bool = False,
    width: float = 0.8,
    dodge: bool | str = "auto",
    gap: float = 0,
    linewidth: float | None = None,
    linecolor: Any = "auto",
    cut: float = 2,
    gridsize: int = 100,
    bw_method: Any = "scott",
    bw_adjust: float = 1,
    density_norm: str = "area",
    common_norm: bool | None = False,
    hue_norm: Any = None,
    formatter: Any = None,
    log_scale: Any = None,
    native_scale: bool = False,
    legend: str | bool = "auto",
    scale: Any = "deprecated",
    scale_hue: Any = "deprecated",
    bw: Any = "deprecated",
    inner_kws: dict[str, Any] | None = None,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    bins: int = 30,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a violin per group: the released density of its values, cut at the released range.

    The arguments are those of :func:`seaborn.violinplot` (0.13.2), plus the
    disclosure-control parameters. Each group's density is released as
    :func:`~safeplot.plots.kde.kdeplot` releases it under `method`
    (:func:`release_violinplot`) and only the release is drawn.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data whose numeric columns are each a violin.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    orient, color, palette, saturation, fill, width, dodge, gap, linewidth, linecolor
        Appearance, as in seaborn.
    inner : {"box", "quart", "stick", "point", None}, default "box"
        ``"box"``: the released box statistics (whiskers, quartiles, median)
        of :func:`~safeplot.plots.categorical.boxplot` under the same method;
        ``"quart"``: its released quartiles and median as dashed lines;
        ``"stick"``/``"point"``: one mark per released value, only under a
        method that anonymises every value.
    split : bool, default False
        As in seaborn: each hue level draws half a violin, two levels meeting
        at the category's centre.
    cut : float, default 2
        Not used: a violin ends at the smallest and largest released number
        of its group (seaborn's ``cut=0``), never beyond into a raw extreme.
    gridsize : {50, 100, 200}, default 100
        Points of each density curve (a fixed menu).
    bw_method, bw_adjust
        Kernel bandwidth, as in kdeplot (``bw_adjust`` >= 0.5).
    density_norm : {"area", "count", "width"}, default "area"
        How violins are scaled, as in seaborn; ``"count"`` uses the policy's
        rounded record counts.
    common_norm : bool, default False
        Scale across all violins rather than within hue levels.
    hue_norm, formatter, legend, inner_kws
        As in seaborn.
    scale, scale_hue, bw
        seaborn's deprecated names of `density_norm`, ``not common_norm``
        and `bw_method`; used as seaborn uses them.
    log_scale, native_scale
        Not supported yet (refused).
    ax : Axes, optional
    method : str, optional
        Default: the policy's method for box plots, ``"deterministic"``.
        ``"none"`` draws seaborn's raw violins where the policy allows.
    threshold : int, optional
        Fewest records of a drawn violin (default and floor: the policy's).
    factor, k, q, bins, algorithm, c, discretizer
        Parameters of the methods.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.fill_between`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    DisclosureError
        Every group too small, a parameter or bandwidth below a floor,
        sticks or points of values that are not anonymised per record.
    ValueError
        Unknown options, ``log_scale``, ``native_scale``, bad
        variables.

    See Also
    --------
    boxplot : The released box statistics alone.
    kdeplot : The released density of one variable.
    seaborn.violinplot : The raw-data function this mirrors.

    Notes
    -----
    A group (category x hue level) needs at least `threshold` records (and
    `k` under ``"deterministic"``); smaller groups are left out, not named,
    and a note under the axis says that groups were left out.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = violinplot(tips, x="day", y="total_bill", inner="quart", ax=ax)
    >>> ax.safeplot_report.function, ax.safeplot_report.params["cut"]
    ('violinplot', 0)
    >>> plt.close(fig)
    """
    function = "violinplot"
    if scale != "deprecated":
        density_norm = scale
    if scale_hue != "deprecated":
        common_norm = not scale_hue
    if bw != "deprecated":
        bw_method = bw
    pol = get_policy()
    chosen = pol.check_method(method, "box")
    if get_method(chosen).raw:
        import seaborn as sns

        from ._categories import resolve as _resolve

        layout, rows = _resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
        report = make_report(function, chosen, {}, (layout.value_name or "values",),
                             rows.values.size, rows.n_dropped, pol)  # fmt: skip
        ax = axes_for(ax, report)
        with quiet_seaborn():
            sns.violinplot(
                data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
                color=color, palette=palette, saturation=saturation, fill=fill, inner=inner,
                split=split, width=width, dodge=dodge, gap=gap, linewidth=linewidth,
                linecolor=linecolor, cut=cut, gridsize=gridsize, bw_method=bw_method,
                bw_adjust=bw_adjust, density_norm=density_norm, common_norm=common_norm,
                hue_norm=hue_norm, formatter=formatter, log_scale=log_scale,
                native_scale=native_scale, legend=legend, inner_kws=inner_kws, ax=ax, **kwargs,
            )  # fmt: skip
        return finish(ax, report, annotate=annotate, policy=pol)
    for name, value in (
        ("native_scale", native_scale),
        ("log_scale", log_scale),
    ):
        if value:
            raise ValueError(
                f"{function}: {name}= is not supported yet. Leave it out (plot the log of the "
                "variable for a log scale)."
            )
    rel = release_violinplot(
        data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient, inner=inner,
        density_norm=density_norm, common_norm=bool(common_norm), gridsize=gridsize,
        bw_method=bw_method, bw_adjust=bw_adjust, method=chosen, threshold=threshold,
        factor=factor, k=k, q=q, bins=bins, policy=pol, function=function,
    )  # fmt: skip
    ax = axes_for(ax, rel.report, rel)
    draw_violins(
        ax, rel, color=color, palette=palette, saturation=saturation, fill=fill, dodge=dodge,
        width=width, gap=gap, linewidth=linewidth, linecolor=linecolor, legend=legend,
        inner_kws=inner_kws, kwargs=kwargs, split=split,
    )  # fmt: skip
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
