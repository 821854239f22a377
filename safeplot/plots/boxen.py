"""Letter-value plots (seaborn's ``boxenplot``) of released quantiles.

A raw boxen plot draws, per group, nested boxes between the quartiles, the
eighths, the sixteenths, ... of the raw values -- with ``k_depth="full"``
out to the minimum and maximum -- and every record beyond the outermost box.
:func:`boxenplot` draws the same boxes between *released* quantiles
(:func:`release_boxenplot`): quantiles of the anonymised values
(``"deterministic"``, ``"probabilistic"``, ``"microaggregation"``,
``"rounding"``), of the records in the grid cells that survive small-cell
suppression (``"suppress"``, ``"generalize"``) or of the winsorised values
(``"confidential"``), rounded to the policy's significant figures and kept
off rare raw values. The number of letter values is seaborn's rule
(``k_depth``) capped so that the outermost box, and the tail beyond it, each
hold at least ``threshold`` records; outliers are drawn only as released
anonymised values. A group with fewer records than the method needs is left
out, and not named.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from ..anonymize.grids import histogram_counts, rare_values, safe_edges
from ..anonymize.statistics import winsorize
from ..anonymize.suppression import coarsen_counts, coarsen_edges
from ..errors import DisclosureError
from ..marks.violins import draw_boxens
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ..release.guard import LEFT_OUT_NOTE
from ._categories import resolve
from ._common import (
    axes_for,
    axis_from_range,
    check_positive_int,
    finish,
    make_report,
    quiet_seaborn,
    takes_method_options,
)
from .violin import group_labels, group_records

__all__ = ["BOXEN_METHODS", "BoxenRelease", "boxenplot", "letter_depth", "release_boxenplot"]

_FAMILIES = ("values", "counts", "rules", "raw")
#: Methods a boxen plot releases.
BOXEN_METHODS = tuple(m.name for m in available_methods() if m.family in _FAMILIES)
_K_RULES = ("tukey", "proportion", "trustworthy")


@release_kind("boxen")
@dataclass
class BoxenRelease:
    """Released letter-value boxes: per group ``2k`` quantiles, the median and outliers.

    Attributes
    ----------
    method : str
    groups : list of tuple
        ``(category, hue level)`` of each group drawn.
    letter_values : list of ndarray
        Per group the released quantiles at ``0.5**(k+1), ..., 0.25, 0.75,
        ..., 1 - 0.5**(k+1)``, ascending (seaborn's letter values).
    medians : list of float
        The released median of each group.
    fliers : list of ndarray
        Released (anonymised) values beyond the outermost box; empty under
        methods that do not anonymise each value.
    depths : list of int
        ``k`` of each group, after the cap.
    levels, hue_levels : list or None
        Categories and hue levels drawn (the others are not named).
    orient : str
    names : dict
    value_lim : tuple of float
    value_ticks : ndarray
    report : DisclosureReport
    notes : list of str
    """

    method: str
    groups: list[tuple[Any, Any]]
    letter_values: list[np.ndarray]
    medians: list[float]
    fliers: list[np.ndarray]
    depths: list[int]
    levels: list[Any] | None
    hue_levels: list[Any] | None
    orient: str
    names: dict[str, str]
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)

    @property
    def value_axis(self) -> str:
        """The axis of the values."""
        return "y" if self.orient == "x" else "x"


def letter_depth(
    n: int, k_depth: Any, threshold: int, *, outlier_prop: float = 0.007, trust_alpha: float = 0.05
) -> tuple[int, int]:
    """Return seaborn's number of letter values for `n` records, and that number capped.

    The cap is the largest ``k`` for which the outermost box, and the tail
    beyond it, each hold at least `threshold` of the `n` records on either
    side (``n * 0.5**(k+1) >= threshold``); one box (the quartiles) is always
    allowed.

    Parameters
    ----------
    n : int
        Records of the group.
    k_depth : {"tukey", "proportion", "trustworthy"} or int
        seaborn's rule (``"full"``, which reaches the extremes, is refused).
    threshold : int
        Fewest records of the outermost box and of each tail.
    outlier_prop, trust_alpha : float
        Parameters of the "proportion" and "trustworthy" rules.

    Returns
    -------
    tuple of int
        ``(k asked for, k drawn)``.

    Examples
    --------
    >>> letter_depth(1000, "tukey", 3)
    (6, 6)
    >>> letter_depth(1000, 12, 10)
    (12, 5)
    """
    if k_depth == "full":
        raise DisclosureError(
            "boxenplot: k_depth='full' extends the outermost boxes to the smallest and largest "
            "value, which are single records. Use k_depth='tukey' (the default), "
            "'proportion', 'trustworthy' or a number; it is capped so that the outermost box "
            "holds at least threshold records."
        )
    if k_depth == "tukey":
        k = int(np.log2(n)) - 3
    elif k_depth == "proportion":
        k = int(np.log2(n)) - int(np.log2(n * outlier_prop)) + 1
    elif k_depth == "trustworthy":
        point_conf = 2 * NormalDist().inv_cdf(1 - trust_alpha / 2) ** 2
        k = int(np.log2(n / point_conf)) + 1
    elif isinstance(k_depth, (int, np.integer)) and not isinstance(k_depth, bool):
        k = int(k_depth)
    else:
        raise ValueError(
            f"boxenplot: k_depth={k_depth!r} is not one of {list(_K_RULES)} or a whole number."
        )
    k = max(k, 1)
    cap = max(1, math.floor(math.log2(n / threshold)) - 1) if n >= threshold else 1
    return k, min(k, cap)


def _letters(v: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """Seaborn's letter values of `v` at depth `k` (ascending) and the median."""
    lower = 0.5 ** np.arange(k + 1, 1, -1)
    upper = 1 - 0.5 ** np.arange(2, k + 2)
    return np.percentile(v, 100 * np.r_[lower, upper]), float(np.percentile(v, 50))


def release_boxenplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    k_depth: Any = "tukey",
    outlier_prop: float = 0.007,
    trust_alpha: float = 0.05,
    showfliers: bool = True,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    bins: int = 30,
    policy: Policy | None = None,
    function: str = "boxenplot",
) -> BoxenRelease:
    """Release the letter values (and outliers) of a boxen plot, one set per group.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, orient, k_depth, outlier_prop, trust_alpha, showfliers
        As in :func:`boxenplot`.
    method : str, optional
        Default: the policy's method for box plots (``"deterministic"``).
    threshold, factor, k, q, bins
        Parameters of the methods (``bins``: the grid of ``"suppress"``).
    policy : Policy, optional
    function : str
        The public function, for the report and messages.

    Returns
    -------
    BoxenRelease

    Raises
    ------
    DisclosureError
        Every group too small, ``k_depth="full"``, a parameter below a floor.
    ValueError
        Bad `k_depth`, `outlier_prop` or `trust_alpha`, bad variables.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_boxenplot(tips, x="day", y="total_bill", method="confidential")
    >>> rel.depths  # the tukey rule, capped at threshold records per outer box
    [2, 1, 3, 3]
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "box"), _FAMILIES, "boxen plots")
    if m.raw:
        raise ValueError(f"{function}: method='none' is drawn by seaborn, not released.")
    threshold = pol.check_threshold(threshold)
    bins = check_positive_int("bins", bins)
    factor = check_positive_int("factor", factor)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    if not (0 < outlier_prop < 1):
        raise ValueError(f"{function}: outlier_prop must be in (0, 1), got {outlier_prop!r}.")
    if not (0 < trust_alpha < 1):
        raise ValueError(f"{function}: trust_alpha must be in (0, 1), got {trust_alpha!r}.")
    letter_depth(1000, k_depth, threshold)  # refuse a bad rule before any record is read
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
    names = {
        "cat": layout.cat_name or "",
        "value": layout.value_name or "",
        "hue": layout.hue_name or "",
    }
    fewest, why = m.group_floor(pol, k)
    fewest = max(fewest, threshold)
    grouped = group_records(layout, rows, fewest, why, function)
    shown = grouped.shown
    keep = np.isin(grouped.codes, shown)
    codes = grouped.codes[keep]
    values = rows.values[keep]
    rare = rare_values(rows.all_values, threshold)
    per_record = m.moves_values and not m.rule_based
    params: dict[str, Any] = {"threshold": threshold, "k_depth": k_depth}
    details: dict[str, Any] = {}
    cells = 0
    if per_record:
        out = anonymize_values(
            values[:, None], m.name, names=[names["value"] or "values"], k=k, q=q,
            strata=codes, threshold=threshold, policy=pol, _rare=[rare],
        )  # fmt: skip
        released = guard.released_values(
            out.values[:, 0], rare, float(np.std(rows.values, ddof=1))
        )
        params.update(out.params)
        details.update(out.details)
        per_group = [released[codes == c] for c in shown]
    elif m.counts_only:
        edges = safe_edges(values, bins, avoid=rare)
        if m.coarsens:
            params.update(factor=factor)
        params["bins"] = bins if not m.coarsens else -(-bins // factor)
        per_group = []
        for c in shown:
            v = values[codes == c]
            counts, e = histogram_counts(v, edges), edges
            if m.coarsens:
                counts, e = coarsen_counts(counts, factor), coarsen_edges(edges, factor)
            small = (counts > 0) & (counts < threshold)
            cells += int(small.sum())
            cell = np.clip(np.searchsorted(e, v, side="right") - 1, 0, counts.size - 1)
            per_group.append(v[~small[cell]])
    else:
        per_group = []
        winsorised = 0
        for c in shown:
            w = winsorize(values[codes == c], policy=pol)
            winsorised += w.n_winsorized
            per_group.append(np.asarray(w.values, dtype=float))
        params.update(winsor_sd=pol.winsor_sd, sig=pol.sig_figs)
        details["values_winsorised"] = pol.round_count(winsorised)
    groups, _, _ = group_labels(layout, shown)
    letter_values, medians, fliers, depths, drawn = [], [], [], [], []
    capped = False
    for i, v in enumerate(per_group):
        if v.size < fewest:  # too few records left once small cells are suppressed
            continue
        asked, depth = letter_depth(
            v.size, k_depth, threshold, outlier_prop=outlier_prop, trust_alpha=trust_alpha
        )
        capped |= depth < asked
        letters, med = _letters(v, depth)
        stats = guard.released_statistics(
            np.r_[letters, med],
            rare,
            directions=np.r_[-np.ones(depth), np.ones(depth), 1.0],
            policy=pol,
        )
        # rounding may tie neighbours; the boxes stay nested
        letters = np.maximum.accumulate(stats[:-1])
        letter_values.append(letters)
        medians.append(float(stats[-1]))
        out_of_box = v[(v < letters[0]) | (v > letters[-1])] if per_record and showfliers else []
        fliers.append(np.asarray(out_of_box, dtype=float))
        depths.append(depth)
        drawn.append(i)
    left_out = grouped.left_out + (len(shown) - len(drawn))
    if not drawn:
        raise DisclosureError(
            f"{function}: no group keeps {fewest} records once small cells are suppressed. "
            "Use method='generalize', fewer bins, or method='deterministic'."
        )
    shown = [shown[i] for i in drawn]
    groups = [groups[i] for i in drawn]
    _, levels, hue_levels = group_labels(layout, shown, order, hue_order)
    every = np.concatenate([*letter_values, *fliers])
    value_lim, value_ticks = axis_from_range(float(every.min()), float(every.max()), rare)
    notes, warnings = [], []
    if left_out:
        notes.append(LEFT_OUT_NOTE)
        warnings.append(
            f"{left_out} group(s) with fewer than {fewest} records ({why}) are not drawn."
        )
    if capped:
        warnings.append(
            f"k_depth={k_depth!r} asked for more letter values than the data allow: the "
            f"outermost box and each tail hold at least threshold={threshold} records."
        )
    report = make_report(
        function, m.name, params, tuple(v for v in names.values() if v) or ("values",),
        values.size, rows.n_dropped, pol, cells_suppressed=cells + left_out, details=details,
        warnings=warnings,
    )  # fmt: skip
    return BoxenRelease(
        method=m.name,
        groups=groups,
        letter_values=letter_values,
        medians=medians,
        fliers=fliers,
        depths=depths,
        levels=levels,
        hue_levels=hue_levels,
        orient=layout.orient,
        names=names,
        value_lim=value_lim,
        value_ticks=value_ticks,
        report=report,
        notes=notes,
    )


@takes_method_options
def boxenplot(
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
    dodge: bool | str = "auto",
    width: float = 0.8,
    gap: float = 0,
    linewidth: float | None = None,
    linecolor: Any = None,
    width_method: str = "exponential",
    k_depth: Any = "tukey",
    outlier_prop: float = 0.007,
    trust_alpha: float = 0.05,
    showfliers: bool = True,
    hue_norm: Any = None,
    log_scale: Any = None,
    native_scale: bool = False,
    formatter: Any = None,
    legend: str | bool = "auto",
    scale: Any = "deprecated",
    box_kws: dict[str, Any] | None = None,
    flier_kws: dict[str, Any] | None = None,
    line_kws: dict[str, Any] | None = None,
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
    """Draw letter-value boxes per group between released quantiles.

    The arguments are those of :func:`seaborn.boxenplot` (0.13.2), plus the
    disclosure-control parameters. Each group's letter values are released
    first (:func:`release_boxenplot`) and only they are drawn.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data whose numeric columns are each a group.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    orient, color, palette, saturation, fill, dodge, width, gap, linewidth, linecolor
        Appearance, as in seaborn.
    width_method : {"exponential", "linear", "area"}, default "exponential"
        How the boxes narrow with depth.
    k_depth : {"tukey", "proportion", "trustworthy"} or int, default "tukey"
        seaborn's rule for the number of boxes, capped so that the outermost
        box and the tail beyond it each hold at least `threshold` records.
        ``"full"`` (boxes out to the extremes) is refused.
    outlier_prop, trust_alpha : float
        Parameters of the "proportion" and "trustworthy" rules.
    showfliers : bool, default True
        Draw the released values beyond the outermost box (only methods that
        anonymise every value have any).
    hue_norm, formatter, legend, box_kws, flier_kws, line_kws
        As in seaborn.
    log_scale, native_scale
        Not supported yet (refused when given).
    scale : str, optional
        seaborn's deprecated name of `width_method` ("linear" there is
        "exponential" here, as seaborn maps it).
    ax : Axes, optional
    method : str, optional
        Default: the policy's method for box plots, ``"deterministic"``.
        ``"none"`` draws seaborn's raw boxen plot where the policy allows.
    threshold : int, optional
        Fewest records of a drawn group and of each outer box.
    factor, k, q, bins, algorithm, c, discretizer
        Parameters of the methods.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :class:`matplotlib.collections.PatchCollection`.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    DisclosureError
        Every group too small, ``k_depth="full"``, a parameter below a floor.
    ValueError
        Unknown options, ``log_scale``, ``native_scale``, bad variables.

    See Also
    --------
    boxplot : Released five-number summaries.
    violinplot : Released densities per group.
    seaborn.boxenplot : The raw-data function this mirrors.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = boxenplot(tips, x="day", y="total_bill", method="suppress", ax=ax)
    >>> ax.safeplot_report.function, ax.safeplot_report.params["k_depth"]
    ('boxenplot', 'tukey')
    >>> plt.close(fig)
    """
    function = "boxenplot"
    if scale != "deprecated":
        width_method = {"linear": "exponential", "exponential": "exponential"}.get(scale, scale)
    pol = get_policy()
    chosen = pol.check_method(method, "box")
    if get_method(chosen).raw:
        import seaborn as sns

        layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
        report = make_report(function, chosen, {}, (layout.value_name or "values",),
                             rows.values.size, rows.n_dropped, pol)  # fmt: skip
        ax = axes_for(ax, report)
        with quiet_seaborn():
            sns.boxenplot(
                data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
                color=color, palette=palette, saturation=saturation, fill=fill, dodge=dodge,
                width=width, gap=gap, linewidth=linewidth, linecolor=linecolor,
                width_method=width_method, k_depth=k_depth, outlier_prop=outlier_prop,
                trust_alpha=trust_alpha, showfliers=showfliers, hue_norm=hue_norm,
                log_scale=log_scale, native_scale=native_scale, formatter=formatter,
                legend=legend, box_kws=box_kws, flier_kws=flier_kws, line_kws=line_kws, ax=ax,
                **kwargs,
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
    if width_method not in ("exponential", "linear", "area"):
        raise ValueError(
            f"{function}: width_method={width_method!r} is not 'exponential', 'linear' or 'area'."
        )
    rel = release_boxenplot(
        data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
        k_depth=k_depth, outlier_prop=outlier_prop, trust_alpha=trust_alpha,
        showfliers=showfliers, method=chosen, threshold=threshold, factor=factor, k=k, q=q,
        bins=bins, policy=pol, function=function,
    )  # fmt: skip
    ax = axes_for(ax, rel.report, rel)
    draw_boxens(
        ax, rel, color=color, palette=palette, saturation=saturation, fill=fill, dodge=dodge,
        width=width, gap=gap, linewidth=linewidth, linecolor=linecolor,
        width_method=width_method, showfliers=showfliers, legend=legend,
        box_kws={**(box_kws or {}), **kwargs}, flier_kws=flier_kws, line_kws=line_kws,
    )  # fmt: skip
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
