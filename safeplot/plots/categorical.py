"""Categorical plots of sensitive data: box plots and count plots.

:func:`boxplot` and :func:`countplot` take seaborn 0.13's arguments and
draw seaborn's figures, but only of released numbers:

- a box plot is drawn either from anonymised values (``"deterministic"``,
  ``"probabilistic"``: seaborn's box of the released values), or from a
  released five-number summary per box (``"suppress"``, ``"generalize"``,
  ``"confidential"``: seaborn is handed a synthetic frame of the five numbers
  and ``whis=(0, 100)``, so its quartiles, median and whisker ends are exactly
  the released ones);
- a count plot is drawn from a released table of counts (small cells
  suppressed, with secondary suppression; small categories merged; or counts
  rounded).

:func:`release_boxplot` and :func:`release_countplot` compute the releases
(numbers only) and are what the plot functions draw.
"""

from __future__ import annotations

import datetime
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter

from ..anonymize.boxes import BoxSummary, confidential_box, grid_box
from ..anonymize.grids import rare_values, safe_edges, union_sorted
from ..anonymize.suppression import GridSuppression, suppress_records
from ..anonymize.tables import suppress_table
from ..errors import DisclosureError
from ..marks._axes import LEFT_OUT_GID, note_below
from ..marks.bars import DP_ERRORS_GID
from ..methods import Method, anonymize_values, available_methods, check_family, get_method
from ..policy import METHODS, Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ..sources.dask import check_dask_method, is_dask_collection
from ._categories import (
    Layout,
    Rows,
    hue_dtype,
    infer_orient,
    log_axes,
    log_axis,
    log_base,
    merge_small,
    rare_categories,
    refuse_native_other,
    released_box,
    resolve,
    round_counts,
    safe_category_axis,
    stable_palette,
)
from ._common import (
    LEFT_OUT_NOTE,
    axes_for,
    axis_from_range,
    check_positive_int,
    finish,
    make_report,
    nothing_shown,
    quiet_seaborn,
    set_safe_axis,
    takes_method_options,
)
from ._dask_counts import dask_count_table
from ._data import facet_codes, plot_data

__all__ = [
    "BOX_METHODS",
    "COUNT_METHODS",
    "BoxRelease",
    "CountRelease",
    "boxplot",
    "count_panels",
    "countplot",
    "draw_count_release",
    "release_boxplot",
    "release_countplot",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) each plot releases.
_BOX_FAMILIES = ("counts", "values", "rules", "raw")
_COUNT_FAMILIES = ("counts", "rules", "raw", "private")
#: Families a count plot of a dask DataFrame releases: counted out of core, no raw record.
_DASK_COUNT_FAMILIES = ("counts", "rules")
#: Methods :func:`boxplot` supports.
BOX_METHODS = tuple(m.name for m in available_methods() if m.family in _BOX_FAMILIES)
#: Methods :func:`countplot` supports.
COUNT_METHODS = tuple(m.name for m in available_methods() if m.family in _COUNT_FAMILIES)
#: Share of the records above which one category is flagged as dominant.
DOMINANCE = 0.9
#: gid of the "***" marks above winsorised boxes and of the dominance note.
WINSOR_GID = "safeplot-winsorised"
DOMINANCE_GID = "safeplot-dominance-note"

#: gid of the note naming the boxes left out under ``"confidential"`` (zero-length half).
OMITTED_GID = "safeplot-omitted-boxes"

#: Under ``method="confidential"``, a numeric category variable with more distinct values
#: than this is continuous: :func:`boxplot` draws O'Keefe's parallel box plots of it.
CONTINUOUS_LEVELS = 20

_STATS = ("count", "percent", "probability", "proportion")
# matplotlib.Axes.bxp options that would draw statistics a five-number summary does not hold
_SUMMARY_ONLY_REFUSED = ("showmeans", "meanline", "notch", "shownotches", "bootstrap")


# -- checks ------------------------------------------------------------------------------


def _policy_checks(
    pol: Policy, method: str | None, kind: str, families: tuple[str, ...], what: str
) -> Method:
    """Return the method the policy allows for `kind`, refused when `what` cannot release it."""
    m = get_method(pol.check_method(method, kind))
    if kind == "count" and m.moves_values and not m.rule_based:
        available = sorted(
            (o.name for o in available_methods() if o.family in families),
            key=lambda name: METHODS.index(name) if name in METHODS else len(METHODS),
        )  # in the policy's order, methods registered later last
        raise ValueError(
            f"method={m.name!r} moves numeric values and does not apply to counts of "
            f"categories. Count plots support {available}."
        )
    return check_family(m, families, what)


# -- box plots ---------------------------------------------------------------------------


@release_kind("box")
@dataclass
class BoxRelease:
    """A released box plot: per box, a released summary and, under value methods, the values.

    Attributes
    ----------
    method : str
        The disclosure-control method.
    groups : list of tuple
        ``(category, hue level)`` of each released box, in drawing order
        (``None`` for a role that is not used).
    boxes : list of BoxSummary or None
        Released five-number summaries and fliers, one per group: what is
        drawn. Under the value methods (``"deterministic"``,
        ``"probabilistic"``, ...) these are Tukey's boxes of `values`, as
        seaborn would compute them. None for raw output.
    values : list of ndarray or None
        Released values per group under the value methods (raw values under
        ``"none"``); drawn themselves only for notches or means.
    value_lim : tuple of float or None
        Limits of the value axis (None: left to matplotlib, raw output only).
    value_ticks : ndarray or None
        Tick positions of the value axis.
    report : DisclosureReport
    omitted : list of str
        Boxes left out under ``"confidential"`` because their median equals
        a quartile (a zero-length half): the groups they would describe.
    notes : list of str
        What the figure notes under its axis about groups left out for
        having too few records (number-free, and naming no group).
    hue_levels_all : list or None
        Every hue level of the data, those whose boxes were all left out
        included: the drawn levels keep the colours they would have had.
    """

    method: str
    groups: list[tuple[Any, Any]]
    boxes: list[BoxSummary] | None
    values: list[np.ndarray] | None
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    avoid: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)
    avoid_categories: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)
    layout: Layout | None = field(default=None, repr=False)
    _index: list[tuple[int, int]] = field(default_factory=list, repr=False)
    omitted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hue_levels_all: list[Any] | None = None

    def box(self, category: Any = None, hue: Any = None) -> BoxSummary | np.ndarray:
        """Return the released summary (or values) of one box.

        Examples
        --------
        >>> import safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> rel = release_boxplot(tips, x="day", y="tip", method="confidential")
        >>> box = rel.box("Sun")
        >>> box.n, box.fliers.size  # records, rounded to the policy's base; no outliers
        (75, 0)
        """
        for g, (cat, h) in enumerate(self.groups):
            if (cat == category or self.layout is None or not self.layout.has_cat) and h == hue:
                return self.values[g] if self.values is not None else self.boxes[g]
        raise KeyError(f"No released box for category {category!r}, hue {hue!r}.")


def _group_index(layout: Layout, rows: Rows) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Code of each record's box (category x hue) and the (category, hue) index of each code."""
    flat = rows.cat * layout.n_hue + rows.hue
    present = np.unique(flat)
    # drawing order: categories in order, then hue levels in order
    pairs = [(int(f // layout.n_hue), int(f % layout.n_hue)) for f in present]
    codes = np.searchsorted(present, flat)
    return codes, pairs


def _refuse_small(
    layout: Layout, sizes: np.ndarray, pairs: list[tuple[int, int]], minimum: int, why: str
) -> None:
    small = [layout.describe(*pairs[g]) for g in np.flatnonzero(sizes < minimum)]
    if small:
        shown = "; ".join(small[:10]) + (
            f"; and {len(small) - 10} more" if len(small) > 10 else ""
        )
        raise DisclosureError(
            f"{layout.function}: {len(small)} group(s) have fewer than {minimum} records "
            f"({why}): {shown}. "
            "A box of so few records would show their values. Merge small levels into broader "
            "ones (recode the variable), or leave the groups out (filter the data, or give "
            "order=/hue_order= without them)."
        )


def _keep_groups(
    rows: Rows, codes: np.ndarray, keep: np.ndarray
) -> tuple[Rows, np.ndarray, np.ndarray]:
    """Keep the records of the groups `keep` (a mask over groups); renumber their codes."""
    new = np.full(keep.size, -1)
    new[keep] = np.arange(int(keep.sum()))
    mine = keep[codes]
    rows = replace(
        rows,
        cat=rows.cat[mine],
        hue=rows.hue[mine],
        values=rows.values[mine],
        record=None if rows.record is None else rows.record[mine],
    )
    return rows, new[codes[mine]], mine


def _drawn_layout(
    layout: Layout,
    pairs: list[tuple[int, int]],
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    named: list[tuple[int, int]] = (),
) -> tuple[Layout, list[tuple[int, int]]]:
    """Drop from the layout the levels every box of which was left out; renumber the pairs.

    A level named by the call (`order`, `hue_order`, or a column of
    wide-form data) keeps its slot, as seaborn keeps it, and so does a level
    of the `named` groups (boxes not drawn for another reason, which a note
    names); a level named only by the data is not named when none of its
    boxes is drawn.
    """
    cats = sorted({i for i, _ in [*pairs, *named]})
    hues = sorted({j for _, j in [*pairs, *named]})
    keep_cats = layout.wide or order is not None or not layout.has_cat
    keep_hues = hue_order is not None or layout.hue_levels is None
    cat_at = (
        {i: i for i in range(len(layout.levels))}
        if keep_cats
        else {i: n for n, i in enumerate(cats)}
    )
    hue_at = (
        {j: j for j in range(layout.n_hue)} if keep_hues else {j: n for n, j in enumerate(hues)}
    )
    if len(cat_at) == len(layout.levels) and len(hue_at) == layout.n_hue:
        return layout, pairs
    drawn = replace(
        layout,
        levels=[layout.levels[i] for i in cat_at],
        hue_levels=None if layout.hue_levels is None else [layout.hue_levels[j] for j in hue_at],
    )
    return drawn, [(cat_at[i], hue_at[j]) for i, j in pairs]


def _joint_grid(
    layout: Layout,
    rows: Rows,
    codes: np.ndarray,
    pairs: list[tuple[int, int]],
    avoid: list[np.ndarray],
    bins: int,
    factor: int,
    threshold: int,
) -> tuple[list[np.ndarray], list[np.ndarray], GridSuppression] | None:
    """Avraam et al.'s suppression for the box plots of two variables, or None if not two.

    Wide-form data with exactly two numeric columns (the paper's box plots of
    x and y) are counted in the `bins` x `bins` density grid of the two
    variables (coarsened by `factor`), as the heat map and the suppressed
    scatter plot count them; the records in cells below `threshold` are
    removed, and each box is drawn from the values of the records that
    remain. A record missing one of the two values has no cell and is left
    out of both boxes. Returns the edges of each variable, the values kept
    per box, and the suppression.
    """
    if not layout.wide or rows.record is None or len(pairs) != 2:
        return None
    n = int(rows.record.max()) + 1
    paired = np.full((n, 2), np.nan)
    for g in range(2):
        paired[rows.record[codes == g], g] = rows.values[codes == g]
    complete = ~np.isnan(paired).any(axis=1)
    both = paired[complete]
    if both.shape[0] == 0:
        return [np.array([])] * 2, [np.array([])] * 2, GridSuppression(np.array([], bool), 0, ())
    edges = [safe_edges(both[:, g], bins, avoid=avoid[g]) for g in range(2)]
    kept = suppress_records(both, edges, threshold, factor=factor)
    return edges, [both[kept.kept, g] for g in range(2)], kept


def _tukey_box(
    values: np.ndarray, whis: Any, base: float | None, avoid: np.ndarray, scale: float
) -> BoxSummary:
    """Return the box seaborn draws of released `values`: matplotlib's Tukey statistics.

    On a log axis (`base`) the statistics are those of the logarithms, as
    seaborn computes them. Whisker ends and outliers are released values;
    a quartile or median between two of them is moved off the rare raw
    values (`avoid`) as the values were.
    """
    from matplotlib.cbook import boxplot_stats

    data = values if base is None else np.log(values)
    st = boxplot_stats(data, whis=whis)[0]
    five = np.array([st["whislo"], st["q1"], st["med"], st["q3"], st["whishi"]], dtype=float)
    fliers = np.asarray(st["fliers"], dtype=float)
    if base is not None:  # the outliers as released, not through exp(log(.))
        five = np.exp(five)
        fliers = values[(data < st["whislo"]) | (data > st["whishi"])]
    five = guard.released_values(five, avoid, scale)
    return BoxSummary(*map(float, five), fliers=fliers, n=int(values.size))


def release_boxplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    whis: float | tuple[float, float] = 1.5,
    log_scale: Any = None,
    native_scale: bool = False,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    bins: int = 30,
    policy: Policy | None = None,
) -> BoxRelease:
    """Release the numbers of a box plot under a disclosure-control method.

    Takes :func:`boxplot`'s data arguments and returns what it draws, as
    numbers: per box either the released values or a released summary.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, orient
        As in :func:`boxplot`.
    whis : float or pair of float, default 1.5
        Whisker reach in IQRs (``"suppress"``/``"generalize"`` need a number).
    log_scale, native_scale
        As in :func:`boxplot`: a log value axis needs positive values.
    method : str, optional
        Default: the policy's method for box plots (``"deterministic"``).
    threshold : int, optional
        Minimum records per box and per shown grid cell (default and floor:
        the policy's).
    factor, k, q, bins
        As in :func:`boxplot`.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).

    Returns
    -------
    BoxRelease

    Raises
    ------
    DisclosureError
        Every box (category x hue level) with fewer than `threshold` records
        (or fewer than the method's group floor under ``"deterministic"`` and
        ``"microaggregation"``, which form their groups within each box), a
        parameter below a policy floor, or a method the policy does not
        allow. Some boxes too small: they are left out, not refused (see
        :func:`boxplot`).

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_boxplot(tips, x="day", y="total_bill", method="suppress")
    >>> [cat for cat, _ in rel.groups]
    ['Thur', 'Fri', 'Sat', 'Sun']
    """
    pol = get_policy(policy)
    m = _policy_checks(pol, method, "box", _BOX_FAMILIES, "box plots")
    method = m.name
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    # bins is checked for every method: a bad value is an error even where it is not used
    bins = check_positive_int("bins", bins)
    if m.counts_only:
        if m.coarsens:
            factor = check_positive_int("factor", factor)
        try:
            whis = float(whis)
            if not (math.isfinite(whis) and whis >= 0):
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(
                f"whis={whis!r}: method={method!r} draws Tukey whiskers and needs whis as a "
                "finite, non-negative number of IQRs (e.g. 1.5). Percentile whiskers are "
                "available with 'deterministic' or 'probabilistic'."
            ) from None
    layout, rows = resolve("boxplot", data, x, y, hue, order, hue_order, orient, numeric=True)
    _, val_log = log_axes(log_scale, layout, native_scale)
    base = log_base(val_log)
    values = rows.values
    codes, pairs = _group_index(layout, rows)
    sizes = np.bincount(codes, minlength=len(pairs))
    groups = [
        (
            layout.levels[i] if layout.has_cat else None,
            None if layout.hue_levels is None else layout.hue_levels[j],
        )
        for i, j in pairs
    ]
    variables = tuple(
        v for v in (layout.value_name, layout.cat_name, layout.hue_name) if v is not None
    ) or ("values",)
    if base is not None and (values <= 0).any():
        raise ValueError(
            "boxplot: log_scale needs positive values, but the variable has zero or negative "
            "values. Drop log_scale, or plot a shifted or transformed variable."
        )
    if m.raw:
        report = make_report("boxplot", method, {}, variables, values.size, rows.n_dropped, pol)
        per = [values[codes == g] for g in range(len(pairs))]
        return BoxRelease(
            method, groups, None, per, None, None, report, layout=layout, _index=pairs
        )
    # a box needs threshold records, and under the methods that group records within each
    # box enough for one group; smaller boxes are left out (not drawn, not named), the
    # figure and the report say so without saying which or how many records
    fewest, why = threshold, f"threshold={threshold}"
    if m.moves_values and not m.rule_based and m.groups_within_strata:
        floor, floor_why = m.group_floor(pol, k)
        if floor > fewest:
            fewest, why = floor, floor_why
    small = sizes < fewest
    if small.all():
        _refuse_small(layout, sizes, pairs, fewest, why)
    n_total = values.size
    left_out, left_out_records = int(small.sum()), int(sizes[small].sum())
    if left_out:
        rows, codes, _ = _keep_groups(rows, codes, ~small)
        values = rows.values
        pairs = [p for p, s in zip(pairs, small, strict=True) if not s]
        groups = [g for g, s in zip(groups, small, strict=True) if not s]
        sizes = sizes[~small]
    # numbers shared by every box (axis, grid) avoid the values rare in the whole variable;
    # a box's own statistics also avoid the values rare within its box
    rare = rare_values(rows.all_values, threshold)
    avoid = [
        union_sorted(rare, rare_values(values[codes == g], threshold)) for g in range(len(pairs))
    ]
    params: dict[str, Any] = {"threshold": threshold}
    details: dict[str, Any] = {}
    warnings: list[str] = []
    if left_out:
        warnings.append(
            f"{left_out} group(s) with fewer than {fewest} records ({why}) are not drawn "
            f"({pol.describe_count(left_out_records)} records in all)."
        )
        details["groups_left_out"] = left_out
    boxes: list[BoxSummary] | None = None
    released: list[np.ndarray] | None = None
    named: list[tuple[int, int]] | None = None
    cells = 0
    if m.moves_values and not m.rule_based:
        out = anonymize_values(
            values,
            method,
            names=[layout.value_name or "values"],
            k=k,
            q=q,
            strata=codes,
            threshold=threshold,
            policy=pol,
            off_rare=False,  # moved off below, against the values rare within each box too
        )
        params.update({n: v for n, v in out.params.items() if n in m.param_names})
        details.update(out.details)
        scale = float(np.std(values))
        released = [
            guard.released_values(out.values[codes == g, 0], avoid[g], scale)
            for g in range(len(pairs))
        ]
        drawn = np.concatenate(released)
    else:
        if m.rule_based:
            summaries = [
                confidential_box(
                    values[codes == g],
                    avoid=avoid[g],
                    policy=pol,
                    what=layout.describe(*pairs[g]),
                )
                for g in range(len(pairs))
            ]
            winsorised = [b.n_winsorized for b in summaries]  # exact: for the report only
            boxes = [released_box(b, avoid[g], pol) for g, b in enumerate(summaries)]
            flat = [g for g, b in enumerate(boxes) if b.med in (b.q1, b.q3)]
            if flat:
                omitted = [layout.describe(*pairs[g]) for g in flat]
                if len(flat) == len(boxes):
                    raise DisclosureError(
                        "boxplot: under method='confidential' every box has a zero-length half "
                        "(its median equals a quartile, so many records share that value): "
                        + "; ".join(omitted[:10])
                        + ". Such a box is not drawn, which leaves nothing to show. Use "
                        "method='suppress', or a variable with fewer ties."
                    )
                named = [pairs[g] for g in flat]  # named by the note: their slots stay
                keep = [g for g in range(len(pairs)) if g not in flat]
                boxes = [boxes[g] for g in keep]
                winsorised = [winsorised[g] for g in keep]
                groups = [groups[g] for g in keep]
                pairs = [pairs[g] for g in keep]
                warnings.append(
                    f"{len(flat)} box(es) not drawn: the median equals a quartile (a "
                    "zero-length half, which says many records share one value), and with "
                    "unordered categories there is no neighbour to merge with (O'Keefe): "
                    + "; ".join(omitted)
                    + "."
                )
                details["boxes_omitted"] = omitted
            params.update(winsor_sd=pol.winsor_sd, sig=pol.sig_figs)
            details["values_winsorised"] = pol.round_count(sum(winsorised))
            details["boxes_winsorised"] = sum(w > 0 for w in winsorised)
        else:
            fac = factor if m.coarsens else 1
            joint = _joint_grid(layout, rows, codes, pairs, avoid, bins, fac, threshold)
            if joint is None:
                # one variable, or boxes by category: each box's values on one shared 1-D grid
                edges = [safe_edges(values, bins, avoid=rare)] * len(pairs)
                group_values = [values[codes == g] for g in range(len(pairs))]
            else:
                edges, group_values, kept = joint
                shape = " x ".join(map(str, kept.shape))
                details["grid"] = f"{layout.levels[0]} by {layout.levels[1]} ({shape} cells)"
                details["records_suppressed"] = pol.round_count(kept.kept.size - kept.n_kept)
            boxes, thin, thin_index = [], [], set()
            for g in range(len(pairs)):
                if group_values[g].size < threshold:
                    thin.append(layout.describe(*pairs[g]))
                    thin_index.add(g)
                    continue
                try:
                    box = grid_box(
                        group_values[g],
                        avoid=avoid[g],
                        bins=bins,
                        factor=fac,
                        whis=whis,
                        threshold=threshold,
                        edges=edges[g],
                        policy=pol,
                        what=layout.describe(*pairs[g]),
                    )
                except DisclosureError:
                    thin.append(layout.describe(*pairs[g]))
                    thin_index.add(g)
                    continue
                if joint is not None:
                    # the boxes share one 2-D grid: its suppressed cells are counted once
                    box = replace(box, n=int(np.sum(codes == g)), cells_suppressed=0)
                boxes.append(released_box(box, avoid[g], pol))
            if len(thin) == len(pairs):
                raise DisclosureError(
                    f"boxplot: under method={method!r}, every group keeps fewer than "
                    f"threshold={threshold} records once the grid cells (bins={bins}"
                    + (f", factor={fac}" if fac > 1 else "")
                    + f") holding fewer than {threshold} records are suppressed: "
                    + "; ".join(layout.describe(*p) for p in pairs[:10])
                    + (f"; and {len(pairs) - 10} more" if len(pairs) > 10 else "")
                    + ". Use a coarser grid (fewer bins, or method='generalize'), "
                    "method='confidential', or merge small groups."
                )
            if thin:
                # boxes too thin once small cells are suppressed are left out as small boxes
                # are; the records they kept are not counted (that would be a small count)
                kept = [g for g in range(len(pairs)) if g not in thin_index]
                groups = [groups[g] for g in kept]
                pairs = [pairs[g] for g in kept]
                warnings.append(
                    f"{len(thin)} group(s) keep fewer than threshold={threshold} records once "
                    "the grid cells holding fewer than threshold records are suppressed, and "
                    "are not drawn."
                )
                details["groups_left_out"] = left_out + len(thin)
            cells = (
                sum(b.cells_suppressed for b in boxes)
                if joint is None
                else joint[2].cells_suppressed
            )
            params["bins"] = bins if fac == 1 else -(-bins // fac)
            if m.coarsens:
                params["factor"] = fac
        drawn = np.concatenate([np.r_[b.stats, b.fliers] for b in boxes])
    lo, hi = float(np.min(drawn)), float(np.max(drawn))
    if base is not None:
        if lo <= 0:
            raise ValueError(
                f"boxplot: under method={method!r} the released numbers include zero or "
                "negative values (anonymised or winsorised values can leave the data's range), "
                "which a log scale cannot show. Plot a log-transformed variable instead."
            )
        lim, ticks = log_axis(lo, hi, rare, base)
    else:
        lim, ticks = axis_from_range(lo, hi, rare)
    if released is not None:
        # the boxes seaborn would draw of the released values, computed here: what is drawn is
        # the release (five numbers and the outliers per box), checked by the guard; `scale`
        # is the one the values were moved off the rare values with
        boxes = [_tukey_box(r, whis, base, avoid[g], scale) for g, r in enumerate(released)]
    named = [] if named is None else named
    notes = []
    if details.get("groups_left_out"):
        notes.append(LEFT_OUT_NOTE)
    # the report counts every record given, those of the boxes left out included: the
    # records drawn, subtracted from it, would count the ones left out
    report = make_report(
        "boxplot",
        method,
        params,
        variables,
        n_total,
        rows.n_dropped,
        pol,
        cells_suppressed=cells,
        details=details,
        warnings=warnings,
    )
    drawn_layout, pairs = _drawn_layout(layout, pairs, order, hue_order, named)
    return BoxRelease(
        method,
        groups,
        boxes,
        released,
        lim,
        ticks,
        report,
        avoid=rare,
        avoid_categories=rare_categories(rows, threshold),
        layout=drawn_layout,
        _index=pairs,
        omitted=list(details.get("boxes_omitted", [])),
        notes=notes,
        hue_levels_all=layout.hue_levels,
    )


def _slot_positions(
    rel: BoxRelease, dodge: Any, width: float, native_scale: bool
) -> tuple[np.ndarray, float]:
    """Centre of each released box along the category axis, as seaborn places it."""
    lay = rel.layout
    cats = [i for i, _ in rel._index]
    if native_scale and lay.cat_numeric:
        pos = np.array([float(lay.levels[i]) for i in cats])
        uniq = np.unique(pos)
        unit = float(np.min(np.diff(uniq))) if uniq.size > 1 else 1.0
    else:
        pos = np.array(cats, dtype=float) if lay.has_cat else np.zeros(len(cats))
        unit = 1.0
    if lay.hue_levels is not None:
        if dodge == "auto":
            dodge = len(set(cats)) != len(rel._index)
        if dodge:
            n = len(lay.hue_levels)
            w = width * unit / n
            hue_idx = np.array([j for _, j in rel._index], dtype=float)
            pos = pos + w * hue_idx + w / 2 - width * unit / 2
    return pos, unit


def _whisker_colour(ax: Axes, new_lines: list, pos: float, orient: str) -> Any:
    """Return the colour seaborn gave the whiskers of the box at `pos` (for its fliers)."""
    for line in new_lines:
        data = line.get_xdata() if orient == "x" else line.get_ydata()
        data = np.asarray(data, dtype=float)
        if data.size == 2 and np.allclose(data, pos, rtol=0, atol=1e-9):
            return line.get_color()
    return mpl.rcParams["boxplot.flierprops.markeredgecolor"]


#: boxplot keywords whose drawing needs every released value, not the five numbers of a box.
_NEEDS_VALUES = ("notch", "shownotches", "bootstrap", "showmeans", "meanline", "conf_intervals")


def _draw_boxplot(
    ax: Axes,
    rel: BoxRelease,
    *,
    seaborn_kws: dict[str, Any],
    whis: Any,
    fliersize: float | None,
    kwargs: dict[str, Any],
) -> None:
    import seaborn as sns

    lay = rel.layout
    # released values carry their boxes too; notches and means need the values themselves
    summary = rel.boxes is not None and (
        rel.values is None or not any(kwargs.get(k) for k in _NEEDS_VALUES)
    )
    per_group = [b.stats for b in rel.boxes] if summary else rel.values
    if rel.hue_levels_all is not None and lay.hue_levels != rel.hue_levels_all:
        # a hue level whose every box was left out is not drawn; the others keep their colours
        shown = SimpleNamespace(
            layout=SimpleNamespace(hue_levels=rel.hue_levels_all), hue_levels=lay.hue_levels
        )
        seaborn_kws = dict(seaborn_kws, palette=stable_palette(shown, seaborn_kws))
    n_before = len(ax.lines)
    common = dict(seaborn_kws, whis=(0.0, 100.0) if summary else whis, fliersize=fliersize)
    with quiet_seaborn():
        if lay.wide:
            given = {i: v for (i, _), v in zip(rel._index, per_group, strict=True)}
            frame = pd.DataFrame(
                {
                    str(lv): pd.Series(given.get(i, []), dtype=float)
                    for i, lv in enumerate(lay.levels)
                }
            )
            sns.boxplot(data=frame, orient=lay.orient, ax=ax, **common, **kwargs)
        else:
            lengths = [len(v) for v in per_group]
            val = pd.Series(np.concatenate(per_group), name=lay.value_name, dtype=float)
            cat = hue = None
            if lay.has_cat:
                cat = pd.Series(
                    np.repeat(
                        np.array([lay.levels[i] for i, _ in rel._index], dtype=object), lengths
                    ),
                    name=lay.cat_name,
                ).astype(lay.cat_dtype)
            if lay.hue_levels is not None:
                hue = pd.Series(
                    np.repeat(
                        np.array([lay.hue_levels[j] for _, j in rel._index], dtype=object),
                        lengths,
                    ),
                    name=lay.hue_name,
                ).astype(hue_dtype(lay))
            xy = {"x": cat, "y": val} if lay.orient == "x" else {"x": val, "y": cat}
            sns.boxplot(
                **xy,
                hue=hue,
                order=lay.levels if lay.has_cat else None,
                hue_order=lay.hue_levels,
                orient=lay.orient if lay.has_cat else None,
                ax=ax,
                **common,
                **kwargs,
            )
    new_lines = list(ax.lines[n_before:])
    if not lay.wide:  # seaborn labels unnamed vectors "None"; it leaves them blank for raw data
        (ax.set_xlabel if lay.orient == "x" else ax.set_ylabel)(lay.cat_name or "")
        (ax.set_ylabel if lay.orient == "x" else ax.set_xlabel)(lay.value_name or "")
    width = seaborn_kws.get("width", 0.8)
    native = seaborn_kws.get("native_scale", False)
    pos, _ = _slot_positions(rel, seaborn_kws.get("dodge", "auto"), width, native)
    if summary:
        props = dict(kwargs.get("flierprops") or {})
        show = kwargs.get("showfliers", True)
        for g, box in enumerate(rel.boxes):
            if box.fliers.size and show:
                colour = _whisker_colour(ax, new_lines, pos[g], lay.orient)
                style = {
                    "linestyle": "none",
                    "marker": mpl.rcParams["boxplot.flierprops.marker"],
                    "markerfacecolor": mpl.rcParams["boxplot.flierprops.markerfacecolor"],
                    "markeredgecolor": colour,
                    "markersize": fliersize
                    if fliersize is not None
                    else mpl.rcParams["boxplot.flierprops.markersize"],
                    **props,
                }
                where = np.full(box.fliers.size, pos[g])
                xy = (where, box.fliers) if lay.orient == "x" else (box.fliers, where)
                # as seaborn's own outliers: the category axis keeps seaborn's limits
                ax.plot(*xy, scalex=False, scaley=False, **style)
            if box.n_winsorized:
                at = (pos[g], box.whishi) if lay.orient == "x" else (box.whishi, pos[g])
                ax.annotate(
                    "***",
                    xy=at,
                    xytext=(0, 1) if lay.orient == "x" else (2, 0),
                    textcoords="offset points",
                    ha="center" if lay.orient == "x" else "left",
                    va="bottom" if lay.orient == "x" else "center",
                    fontsize="small",
                    gid=WINSOR_GID,
                )
    if rel.value_lim is not None:
        set_safe_axis(ax, lay.value_axis, rel.value_lim, rel.value_ticks)
        axis = ax.yaxis if lay.value_axis == "y" else ax.xaxis
        if axis.get_scale() == "log":
            # plain labels for the released ticks; minor ticks unlabelled (matplotlib would
            # label minor ticks of a short log axis at positions not vetted here)
            axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
            axis.set_minor_formatter(NullFormatter())
        if native and lay.cat_numeric:
            safe_category_axis(ax, lay, rel.avoid_categories)
    if rel.omitted:
        note_below(
            ax,
            "\n".join(
                [
                    "Not drawn (median equals a quartile: many records share one value): "
                    + "; ".join(rel.omitted),
                    *rel.notes,
                ]
            ),
            OMITTED_GID,
        )
    elif rel.notes:
        note_below(ax, "\n".join(rel.notes), LEFT_OUT_GID)


@takes_method_options
def boxplot(
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
    whis: float | tuple[float, float] = 1.5,
    linecolor: Any = "auto",
    linewidth: float | None = None,
    fliersize: float | None = None,
    hue_norm: Any = None,
    native_scale: bool = False,
    log_scale: Any = None,
    formatter: Any = None,
    legend: str | bool = "auto",
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
    """Draw a box plot that discloses no individual value.

    The arguments are those of :func:`seaborn.boxplot` (long-form data with
    a categorical and a numeric variable, one numeric variable, or wide-form
    data with one box per numeric column), plus the disclosure-control
    parameters. The data are released under `method` first and only the
    release is drawn, with seaborn (colours, hue, dodge, order, legend).

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data (no `x`/`y`) whose numeric columns are each a box.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue. With only `x` (or
        only `y`) numeric, one horizontal (vertical) box is drawn.
    order, hue_order : list, optional
        Order of the category and hue levels; records of other levels are
        left out.
    orient : {"v", "h", "x", "y"}, optional
        Orientation, inferred from the variables' types when omitted.
    color, palette, saturation, fill, dodge, width, gap, linecolor, linewidth
        Appearance, as in seaborn.
    whis : float or pair of float, default 1.5
        Whisker reach in IQRs beyond the box (Tukey). Used by
        ``"deterministic"``, ``"probabilistic"``, ``"suppress"`` and
        ``"generalize"``; ``"confidential"`` whiskers always reach the
        winsorised extremes.
    fliersize : float, optional
        Size of the outlier markers.
    hue_norm : tuple or Normalize, optional
        Normalisation of a numeric hue's colour map.
    native_scale : bool, default False
        Place numeric categories at their values (tick positions are then
        chosen to avoid rare category values).
    log_scale : bool or number, or pair, optional
        Log scale of the value axis (the data must be positive). A log
        category axis is not supported.
    formatter : callable, optional
        Maps category values to tick labels.
    legend : "auto", "brief", "full" or False
        How to draw the hue legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (see Notes). Default: the policy's method
        for point plots, ``"deterministic"``.
    threshold : int, optional
        Fewest records a box (category x hue level) and a shown grid cell
        may hold. Default and floor: the policy's threshold.
    factor : int, default 2
        Grid coarsening of ``"generalize"``.
    k : int, optional
        Records per centroid of ``"deterministic"`` (floor: policy's k_min).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD of ``"probabilistic"`` as a fraction of the variable's SD
        (floor: policy's q_min).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    bins : int, default 30
        Cells per axis of the grid of ``"suppress"`` and ``"generalize"``
        (a `bins` x `bins` grid for the box plots of two columns).
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values (``method="rounding"``).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.bxp` via seaborn (e.g.
        ``boxprops``, ``medianprops``, ``flierprops``, ``showfliers``).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on, with the release's report as ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        Every box with fewer than `threshold` records (merge levels or filter
        them), a parameter below a policy floor, ``method="none"`` when the
        policy forbids raw output.
    ValueError
        Bad input: no numeric variable, text, infinite values, unknown
        columns, a constant variable, an option that would need raw data.

    See Also
    --------
    countplot : Counts of a categorical variable.
    release_boxplot : The released numbers alone.
    seaborn.boxplot : The raw-data function this mirrors.

    Notes
    -----
    What each method does to a box plot:

    ``"deterministic"`` (default)
        Each value is replaced by the centroid of its `k` nearest neighbours
        within its box (category x hue level; each needs at least `k`
        records), rescaled to the variable's mean and SD (Avraam et al.).
        seaborn draws Tukey's boxes of the released values; outliers are
        released values.
    ``"probabilistic"``
        Keyed normal noise with SD ``q`` times the variable's SD is added to
        every value; boxes as above.
    ``"microaggregation"``, ``"rounding"``
        Each value is replaced by the mean of its group of at least `k`
        records, formed within its box as for ``"deterministic"``
        (Senavirathne & Torra), or by one of `c` representative values;
        boxes as above.
    ``"suppress"``
        Records in cells of a safe grid holding fewer than `threshold`
        records are dropped. For wide-form data with two numeric columns
        (the box plots of x and y in Avraam et al.'s Figure 4) the grid is
        the `bins` x `bins` density grid of the two variables, the grid of
        the heat map and the suppressed scatter plot: a record is dropped
        when its (x, y) cell is small, from both boxes, and a record
        missing one of the two values is left out. Otherwise (one variable,
        boxes by category, three or more columns) each box's values are
        binned on a 1-D grid of `bins` cells shared by all boxes. Tukey's
        statistics of the records kept are rounded to the policy's
        significant figures and moved off rare raw values; outliers are
        drawn at the centres of their cells. The 2-D rule drops far more
        records (about half of D1's 500) than the 1-D one, which is the
        loss of range the paper reports.
    ``"generalize"``
        As ``"suppress"`` on a grid coarsened by `factor` (30 x 30 to
        15 x 15).
    ``"confidential"``
        O'Keefe's box: the values of each box are winsorised at mean +/-
        2.6 SD and the five-number summary of the result is rounded;
        whiskers reach the winsorised extremes and no outliers are drawn.
        Boxes where values were winsorised are marked ``***`` and the method
        note says so. A box whose rounded median equals a rounded quartile
        (a zero-length half: many records share that value) is not drawn:
        categories have no natural neighbour to merge it with, so its slot
        is left empty, a note under the axis names it and the report warns
        (if every box is flat the call is refused). When the category
        variable is numeric with more than ``CONTINUOUS_LEVELS`` (20)
        distinct values (seaborn would draw one box per value), it is
        treated as continuous and O'Keefe's parallel box plots are drawn
        instead (:func:`safeplot.plots.confidential.parallelboxplot`:
        intervals of it with at least `threshold` records each); `order`,
        `log_scale` and `formatter` are refused then, and the styling
        arguments other than `color`, `palette`, `width` and `legend` are
        not used.
    ``"none"``
        seaborn's raw box plot, only when the policy allows raw output.

    Under every method a box holding fewer than `threshold` records (or
    fewer than the method's groups need: ``k``, ``2k`` for
    ``"microaggregation"``), or keeping fewer than `threshold` once small
    grid cells are suppressed, is left out: not drawn, and its category or
    hue level is not named unless `order`/`hue_order` names it (the other
    hue levels keep their colours). A note under the axis says that groups
    with fewer records than the threshold were left out, naming none and
    giving no count; the report warns with the number of groups (and their
    records, rounded) and keeps it in ``details["groups_left_out"]``; its
    ``n`` counts every record given. When every box is too small the call
    is refused. The value axis gets limits and ticks that equal no rare raw
    value. The
    summary methods hand seaborn five numbers per box with
    ``whis=(0, 100)``, so the drawn quartiles, median and whisker ends are
    exactly the released ones. ``showmeans`` and notches are refused for
    them: a released summary has no mean or confidence interval.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = boxplot(penguins, x="species", y="body_mass_g", method="suppress", ax=ax)
    >>> ax.safeplot_report.method
    'suppress'
    """
    pol = get_policy()
    chosen = pol.check_method(method, "box")
    m = get_method(chosen)
    if m.rule_based:
        continuous = _continuous_axis(data, x, y, hue, orient)
        if continuous is not None:
            return _route_to_parallel(
                data,
                continuous,
                x=x,
                y=y,
                hue=hue,
                order=order,
                hue_order=hue_order,
                color=color,
                palette=palette,
                width=width,
                log_scale=log_scale,
                formatter=formatter,
                legend=legend,
                ax=ax,
                threshold=threshold,
                annotate=annotate,
                kwargs=kwargs,
            )
    if m.family in ("counts", "rules"):
        refused = [kw for kw in _SUMMARY_ONLY_REFUSED if kwargs.get(kw)]
        if refused:
            raise ValueError(
                f"boxplot: {refused} cannot be drawn under method={chosen!r}: the release is a "
                "five-number summary, which has no mean or confidence interval for the median. "
                "Use method='deterministic' or 'probabilistic' to draw them from released values."
            )
    rel = release_boxplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        orient=orient,
        whis=whis,
        log_scale=log_scale,
        native_scale=native_scale,
        method=chosen,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        bins=bins,
        policy=pol,
    )
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    seaborn_kws = dict(
        color=color,
        palette=palette,
        saturation=saturation,
        fill=fill,
        dodge=dodge,
        width=width,
        gap=gap,
        linecolor=linecolor,
        linewidth=linewidth,
        hue_norm=hue_norm,
        native_scale=native_scale,
        log_scale=log_scale,
        formatter=formatter,
        legend=legend,
    )
    if m.raw:
        import seaborn as sns

        with quiet_seaborn():
            sns.boxplot(
                data,
                x=x,
                y=y,
                hue=hue,
                order=order,
                hue_order=hue_order,
                orient=orient,
                whis=whis,
                fliersize=fliersize,
                ax=ax,
                **seaborn_kws,
                **kwargs,
            )
    else:
        _draw_boxplot(
            ax, rel, seaborn_kws=seaborn_kws, whis=whis, fliersize=fliersize, kwargs=kwargs
        )
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)


def _continuous_axis(data: Any, x: Any, y: Any, hue: Any, orient: str | None) -> str | None:
    """Return the axis whose variable is continuous (numeric, many values), or None.

    Only long-form data with both `x` and `y` qualify. The category axis is
    the one seaborn would pick (``orient``, else inferred from the types:
    ``"x"`` when both are numeric); its variable is continuous when it is
    numeric (not boolean, not a pandas categorical) and has more than
    :data:`CONTINUOUS_LEVELS` distinct values.
    """
    if x is None or y is None:
        return None
    frame = plot_data(data, {"x": x, "y": y, "hue": hue}, function="boxplot").frame
    axis = infer_orient(frame["x"], frame["y"], orient)
    cat = frame[axis]
    if (
        isinstance(cat.dtype, pd.CategoricalDtype)
        or pd.api.types.is_bool_dtype(cat.dtype)
        or not pd.api.types.is_numeric_dtype(cat.dtype)
    ):
        return None
    return axis if cat.nunique(dropna=True) > CONTINUOUS_LEVELS else None


def _route_to_parallel(
    data: Any, axis: str, *, order, log_scale, formatter, kwargs, **options
) -> Axes:
    """Draw a confidential box plot of a continuous category variable as parallel box plots."""
    from .confidential import parallelboxplot

    given = [
        name
        for name, value in (("order", order), ("log_scale", log_scale), ("formatter", formatter))
        if value is not None
    ]
    if given:
        raise ValueError(
            f"boxplot: {given} cannot be used here: under method='confidential' a numeric "
            f"{axis} with more than {CONTINUOUS_LEVELS} distinct values is cut into intervals "
            "(O'Keefe's parallel box plots), which have no levels to order or format. Leave "
            f"them out, or make {axis} categorical (e.g. pd.cut) to draw one box per level."
        )
    return parallelboxplot(data, orient=axis, method="confidential", **options, **kwargs)


# -- count plots -------------------------------------------------------------------------


@release_kind("count")
@dataclass
class CountRelease:
    """A released count plot: the counts drawn, per shown category and hue level.

    Attributes
    ----------
    levels : list
        Categories shown, in drawing order (with the merged category of
        ``"generalize"`` last). Categories whose every count was suppressed
        are left out, so no rare category appears as a tick label.
    hue_levels : list or None
        Hue levels shown (None without hue).
    counts : ndarray, shape (len(levels), n_hue)
        Released counts; NaN where suppressed. Every other count is 0 or at
        least the threshold.
    heights : ndarray
        The bar heights: `counts` in the unit of `stat`, computed from the
        shown counts only.
    stat : str
        ``"count"``, ``"percent"``, ``"probability"`` or ``"proportion"``.
    other : str or None
        Label of the merged category (``"generalize"``), if any.
    report : DisclosureReport
    """

    levels: list[Any]
    hue_levels: list[Any] | None
    counts: np.ndarray
    heights: np.ndarray
    stat: str
    other: str | None
    report: DisclosureReport
    layout: Layout | None = field(default=None, repr=False)
    avoid_categories: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)
    #: Differentially private counts: each within +/- this at 95% (None: exact counts).
    accuracy: float | None = None

    def count(self, category: Any, hue: Any = None) -> float:
        """Return the released count of one bar (NaN if suppressed).

        Examples
        --------
        >>> import safeplot
        >>> rel = release_countplot(safeplot.load_dataset("tips"), x="day")
        >>> rel.count("Sat")
        87.0
        """
        i = self.levels.index(category)
        j = 0 if self.hue_levels is None else self.hue_levels.index(hue)
        return float(self.counts[i, j])


def release_countplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    stat: str = "count",
    method: str | None = None,
    threshold: int | None = None,
    policy: Policy | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    function: str = "countplot",
) -> CountRelease:
    """Release the counts of a count plot under a disclosure-control method.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, orient, stat
        As in :func:`countplot`.
    method : {"suppress", "generalize", "confidential", "none"}, optional
        Default: the policy's method for count plots (``"suppress"``).
    threshold : int, optional
        Minimum count of a shown bar (default and floor: the policy's).
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` release (default 1.0). The
        categories must be public: ``order`` (and ``hue_order`` with ``hue``)
        name them, records of other categories are not counted, and every
        named category is shown with its noisy count.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        Noise of a ``method="dp"`` release; ``"gaussian"`` needs `delta`.
    delta : float, optional
        The delta of a Gaussian ``method="dp"`` release (at most 1e-5).
    function : str, default "countplot"
        Name of the calling plot function, for messages and the report
        (:func:`~safeplot.histplot` of a categorical variable releases its
        counts here too).

    Returns
    -------
    CountRelease

    Examples
    --------
    >>> import safeplot
    >>> rel = release_countplot(safeplot.load_dataset("tips"), x="size", hue="time")
    >>> rel.levels, rel.report.cells_suppressed
    ([2, 3, 4], 6)
    >>> rel.counts
    array([[ 52., 104.],
           [  5.,  33.],
           [  5.,  32.]])
    """
    pol = get_policy(policy)
    m = _policy_checks(pol, method, "count", _COUNT_FAMILIES, "count plots")
    method = m.name
    threshold = pol.check_threshold(threshold)
    if stat not in _STATS:
        raise ValueError(f"stat must be one of {list(_STATS)}, got {stat!r}.")
    if x is not None and y is not None:
        raise ValueError(
            "countplot: cannot pass values for both `x` and `y`: give x= for vertical bars or "
            "y= for horizontal ones (hue= adds a second categorical variable)."
        )
    if m.private:
        from ..anonymize import dp as dpnum

        mech = dpnum.check_mechanism(m.get_params().get("mechanism", mechanism))
        dpnum.check_delta(m.get_params().get("delta", delta), mech)
        if order is None or (hue is not None and hue_order is None):
            raise ValueError(
                "countplot: method='dp' needs the categories before the data is read: give "
                "order= (and hue_order= with hue), from public knowledge of the variable."
            )
    elif epsilon is not None or delta is not None or mechanism != "laplace":
        raise ValueError(
            f"countplot: epsilon= is the privacy loss of method='dp' (mechanism= and delta= "
            f"belong to it too); method={method!r} takes no epsilon."
        )
    if is_dask_collection(data):  # counted out of core: one pass over the partitions
        check_dask_method(method, "countplot", families=_DASK_COUNT_FAMILIES)
        layout, table, n_dropped, rare_cats, undrawn = dask_count_table(
            data, x, y, hue, order, hue_order, orient, threshold=threshold
        )
        panel = _CountTable(layout, table, n_dropped, rare_cats, undrawn)
    else:
        layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=False)
        panel = _count_table(layout, rows, rows.n_dropped, rare_categories(rows, threshold))
    if m.private:
        return _private_counts(
            panel.table,
            list(layout.levels),
            None if layout.hue_levels is None else list(layout.hue_levels),
            layout,
            stat,
            m,
            epsilon,
            panel.n_dropped,
            pol,
            mechanism=mechanism,
            delta=delta,
        )
    _suppress_counts(panel, m, threshold, pol)
    if not m.raw and panel.cat is not None:
        undrawn = np.array([], dtype=int) if panel.undrawn_cat is None else panel.undrawn_cat
        cat = np.concatenate([panel.cat, undrawn])
        codes = np.concatenate([panel.hue, np.full(undrawn.size, -1)])
        _link_count_tables([panel], layout, function, cat, codes)
    return _finish_counts(panel, m, stat, threshold, function, method, pol)


@dataclass
class _CountTable:
    """One panel's table of counts on its way to a release (never stored on one)."""

    layout: Layout
    table: np.ndarray  # categories x hue levels: raw counts
    n_dropped: int
    rare_cats: np.ndarray
    # per category, the records drawn without their hue (missing, or left out of hue_order):
    # a count plot without hue counts them, so they are a column the table never shows
    undrawn: np.ndarray | None = None
    # the records counted, for the release ledger (None: counted out of core): each one's
    # category and hue level, and the category of each record drawn without its hue
    cat: np.ndarray | None = None
    hue: np.ndarray | None = None
    undrawn_cat: np.ndarray | None = None
    # filled by _suppress_counts: the counts shown (NaN where hidden), before categories
    # with nothing shown are left out, and each row's category of the layout (None: merged)
    released: np.ndarray = field(default_factory=lambda: np.empty((0, 0)))
    sources: list[int | None] = field(default_factory=list)
    levels: list[Any] = field(default_factory=list)
    other: str | None = None
    n: int = 0
    cells: int = 0
    params: dict[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _count_table(
    layout: Layout,
    rows: Rows,
    n_dropped: int,
    rare_cats: np.ndarray,
    kept: np.ndarray | None = None,
    undrawn: np.ndarray | None = None,
) -> _CountTable:
    """Count the records of `rows` by category and hue level.

    `kept` and `undrawn` select this panel's records among `rows`' records
    and among those drawn without their hue (a facet's); None: all of them.
    `rare_cats` are the categories rare among all the records
    (:func:`rare_categories`), avoided in every panel.
    """
    cat = rows.cat if kept is None else rows.cat[kept]
    hue_of = rows.hue if kept is None else rows.hue[kept]
    table = np.zeros((len(layout.levels), layout.n_hue))
    np.add.at(table, (cat, hue_of), 1)
    undrawn_cat = rows.undrawn_cat
    if undrawn_cat is not None and undrawn is not None:
        undrawn_cat = undrawn_cat[undrawn]
    counts = None
    if undrawn_cat is not None and undrawn_cat.size:
        counts = np.bincount(undrawn_cat, minlength=len(layout.levels)).astype(float)
    return _CountTable(layout, table, n_dropped, rare_cats, counts, cat, hue_of, undrawn_cat)


def _suppress_counts(panel: _CountTable, m: Method, threshold: int, pol: Policy) -> None:
    """Suppress (or merge, or round) a panel's table; fills `released` and the report's parts."""
    table = panel.table
    levels = list(panel.layout.levels)
    sources: list[int | None] = list(range(len(levels)))
    undrawn = None if panel.undrawn is None or not panel.undrawn.any() else panel.undrawn
    n = int(table.sum())
    totals = table.sum(axis=1)
    if n and (totals / n > DOMINANCE).any():
        panel.warnings.append(
            "Dominance: one category holds more than 90% of the records (O'Keefe; Brandt et "
            "al.): the figure tells that almost every record has it. Consider whether that "
            "is disclosive for this population."
        )
        panel.details["dominant_category"] = True
    panel.params["threshold"] = threshold
    if m.raw:
        released = table.copy()
    else:
        if m.coarsens:
            merged = merge_small(table, threshold)
            if merged.any():
                taken = {str(v) for v in levels}
                panel.other = "Other" if "Other" not in taken else "Other (merged)"
                keep = ~merged
                table = np.vstack([table[keep], table[merged].sum(axis=0, keepdims=True)])
                levels = [lv for lv, mg in zip(levels, merged, strict=True) if not mg]
                levels.append(panel.other)
                sources = [s for s, mg in zip(sources, merged, strict=True) if not mg] + [None]
                if undrawn is not None:
                    undrawn = np.r_[undrawn[keep], undrawn[merged].sum()]
                panel.details["categories_merged"] = int(merged.sum())
        # a level with fewer than threshold records in all is left out with its records, as
        # if absent: neither its slot, its suppression nor a secondary suppression it would
        # cause may tell a level listed in order= that exists from one that does not
        whole = table.sum(axis=1)
        small = (whole > 0) & (whole < threshold)
        if small.any():
            table = np.where(small[:, None], 0.0, table)
            sources = [None if sm else s for s, sm in zip(sources, small, strict=True)]
            n = int(table.sum())  # the report counts the records shown, not the left out
        if undrawn is None:
            sup = suppress_table(table, threshold)
            released = sup.counts
        else:
            hidden = np.zeros((table.shape[0], table.shape[1] + 1), dtype=bool)
            hidden[:, -1] = True
            sup = suppress_table(np.column_stack([table, undrawn]), threshold, hidden=hidden)
            released = sup.counts[:, :-1]
        panel.warnings += sup.warnings
        panel.cells = sup.n_suppressed
        panel.details["cells_suppressed_secondary"] = sup.n_secondary
    panel.released, panel.sources, panel.levels, panel.n = released, sources, levels, n


def _category_keys(levels: Sequence[Any]) -> np.ndarray:
    """Return a number per category, the same in every release of a session.

    The release ledger recognises records by their values. A category that
    is a number is that number (``1``, ``1.0`` and ``np.int64(1)`` are one
    category, as pandas takes them): its records are then the same records
    as in a histogram of the variable, whose bins hold the categories. Other
    categories have no number of their own (their position depends on
    ``order=``), so each is named by a 48-bit hash of its value, whatever
    type holds it: dates and times by their instant (a ``Timestamp``, a
    ``datetime`` or a ``datetime64``), text as text (a ``str`` or a
    ``np.str_``). If the numbers are not all finite and distinct as floats
    (integers beyond 2**53), every category is hashed.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> a = _category_keys([1, "p", pd.Timestamp("2024-01-01")])
    >>> b = _category_keys([np.float64(1.0), np.str_("p"), np.datetime64("2024-01-01")])
    >>> bool((a == b).all())
    True
    """
    out = np.empty(len(levels))
    numbers = [_as_number(level) for level in levels]
    if all(v is not None for v in numbers) and np.unique(numbers).size == len(numbers):
        out[:] = numbers
        return out
    for i, level in enumerate(map(_python_value, levels)):
        if isinstance(level, (datetime.date, np.datetime64, pd.Timestamp)):
            text = f"t{pd.Timestamp(level).isoformat()}"
        elif isinstance(level, bool):
            text = f"b{level}"
        elif isinstance(level, (int, float)):
            text = f"n{float(level)!r}"
        else:
            text = f"s{level}"
        digest = hashlib.blake2b(text.encode(), digest_size=6).digest()
        out[i] = float(int.from_bytes(digest, "little"))
    return out


def _python_value(level: Any) -> Any:
    """Return a numpy scalar as the Python value pandas gives (a datetime64 as it is)."""
    if isinstance(level, np.generic) and not isinstance(level, np.datetime64):
        return level.item()
    return level


def _as_number(level: Any) -> float | None:
    """Return a category's finite float value if it is a real number (not a bool), else None."""
    level = _python_value(level)
    if isinstance(level, (int, float)) and not isinstance(level, bool):
        value = float(level)
        return value + 0.0 if math.isfinite(value) else None  # -0.0 as 0.0
    return None


def _link_count_tables(
    panels: list[_CountTable],
    layout: Layout,
    function: str,
    cat: np.ndarray,
    codes: np.ndarray,
    facets: guard.FacetTable | None = None,
) -> None:
    """Apply the release ledger's secondary suppression to the panels' counts (in place).

    Each category is a bin of its own (:func:`_category_keys`, a bin that
    holds its value alone, with empty bins between, so that no bin holds
    another's category). The panels' hue levels are the levels of one release,
    linked by :func:`safeplot.release.guard.link_levels` to the figure
    without hue, to each panel alone and (with `facets`: one panel per
    facet, every combination of the facet variables' levels in order) to
    the figure without facets. `cat` and `codes` give every record's
    category and its level of the release (``panel * n_hue + hue``; -1 for
    a record drawn without its hue or in no facet). A category merged into
    ``"Other"`` or left out as too small is a hidden cell of its panel.
    """
    keys = _category_keys(list(layout.levels))
    order = np.argsort(keys, kind="stable")
    rank = np.empty(keys.size, dtype=int)
    rank[order] = np.arange(keys.size)
    # each category's bin holds its value alone, with an empty bin up to the next
    edges = np.repeat(keys[order], 2)
    edges[1::2] = np.nextafter(edges[1::2], np.inf)
    n_hue = layout.n_hue
    per = []
    for panel in panels:
        counts = np.full((n_hue, 2 * keys.size - 1), 0.0)
        counts[:, 2 * rank] = np.nan  # a category not shown on its own row: hidden
        for row, source in enumerate(panel.sources):
            if source is not None:
                counts[:, 2 * rank[source]] = panel.released[row]
        per += list(counts)
    split = None
    if layout.hue_levels is not None:
        split = layout.hue_name or ("hue", *map(str, layout.hue_levels))

    def link(rec: np.ndarray, counts: dict, part: Any) -> dict:
        return guard.link_counts(rec, edges, counts, partition=part, function=function)

    after = guard.link_levels(keys[cat], codes, per, split, link, facets=facets)
    for p, panel in enumerate(panels):
        mine = np.stack(after[p * n_hue : (p + 1) * n_hue])
        added = 0
        for row, source in enumerate(panel.sources):
            if source is not None:
                new = mine[:, 2 * rank[source]]
                added += int(np.isnan(new).sum() - np.isnan(panel.released[row]).sum())
                panel.released[row] = new
        if added:
            panel.cells += added
            panel.warnings.append(guard.linked_warning(added, "bar"))


def _finish_counts(
    panel: _CountTable,
    m: Method,
    stat: str,
    threshold: int,
    function: str,
    method: str,
    pol: Policy,
) -> CountRelease:
    """Return a panel's CountRelease: rounded, without levels that show nothing, with its stat."""
    layout = panel.layout
    released, levels = panel.released, panel.levels
    hue_levels = None if layout.hue_levels is None else list(layout.hue_levels)
    warnings = panel.warnings
    if not m.raw:
        if m.rule_based:
            panel.params["round_to"] = pol.round_n_to
            released = round_counts(released, pol.round_n_to, threshold)
        # leave out categories and hue levels with nothing shown, named in order / hue_order
        # or not: a level listed there that is absent or suppressed behaves as one not
        # listed, so the figure neither names a suppressed level nor tells it from an absent one
        shown = np.nan_to_num(released) > 0
        row_keep = shown.any(axis=1)
        col_keep = shown.any(axis=0)
        released = released[row_keep][:, col_keep]
        levels = [lv for lv, kp in zip(levels, row_keep, strict=True) if kp]
        if hue_levels is not None:
            hue_levels = [lv for lv, kp in zip(hue_levels, col_keep, strict=True) if kp]
        warnings += nothing_shown(
            released, "count", "Use method='generalize' or merge categories."
        )
        released = guard.released_counts(released, threshold, what="bar", policy=pol)
    total = np.nansum(released)
    if stat == "count" or total == 0:
        heights = released.copy()
    else:
        heights = released / total * (100.0 if stat == "percent" else 1.0)
    variables = tuple(v for v in (layout.cat_name, layout.hue_name) if v is not None) or (
        "category",
    )
    report = make_report(
        function,
        method,
        panel.params,
        variables,
        panel.n,
        panel.n_dropped,
        pol,
        cells_suppressed=panel.cells,
        details=panel.details,
        warnings=warnings,
    )
    rare = np.array([]) if m.raw else panel.rare_cats
    return CountRelease(
        levels, hue_levels, released, heights, stat, panel.other, report, layout, rare
    )


def count_panels(
    data: pd.DataFrame,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    stat: str = "count",
    method: str | None = None,
    threshold: int | None = None,
    facets: Sequence[str] = (),
    policy: Policy | None = None,
    function: str = "catplot",
) -> dict[tuple, CountRelease]:
    """Release the count plots of every facet of a figure together, before any is drawn.

    As :func:`release_countplot`, for the records of each facet (each
    combination of the `facets` columns' values). Every facet has the same
    categories (`order`, by default those of all the records), is
    suppressed on its own table, and the release ledger then links the
    facets' bars as the cells of one table (:func:`safeplot.release.guard.link_levels`):
    to the figure without facets, to each facet alone and to each hue
    level, so that the figure without ``row``/``col`` minus the facets
    shown gives no suppressed bar.

    Parameters
    ----------
    data : DataFrame
        Long-form data holding the variables and the facet columns.
    x, y, hue, order, hue_order, orient, stat, method, threshold, policy
        As in :func:`release_countplot` (``method="dp"`` is refused: each
        private facet is a release of its own, which ``countplot`` makes).
    facets : sequence of column names of `data`
        The variables whose levels make the panels (``row``, ``col``); they
        name the facetings for the ledger.
    function : str, default "catplot"
        The public function making the release, for its report.

    Returns
    -------
    dict
        Facet key (tuple of its `facets` values; ``()`` without facets) ->
        :class:`CountRelease`, for every facet with records.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> panels = count_panels(tips, x="day", facets=["time"])
    >>> sorted(panels), panels[("Dinner",)].levels
    ([('Dinner',), ('Lunch',)], ['Fri', 'Sat', 'Sun'])
    """
    pol = get_policy(policy)
    m = _policy_checks(pol, method, "count", _COUNT_FAMILIES, "count plots")
    if m.private:
        raise ValueError(
            f"{function}: the facets of a method='dp' count plot are released one at a time "
            "(each spends its own epsilon); call countplot per facet."
        )
    threshold = pol.check_threshold(threshold)
    if stat not in _STATS:
        raise ValueError(f"stat must be one of {list(_STATS)}, got {stat!r}.")
    if not isinstance(data, pd.DataFrame) or is_dask_collection(data):
        raise ValueError(f"{function}: the facets of a count plot need a pandas DataFrame.")
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=False)
    if rows.kept_rows is None or rows.missing_rows is None or rows.kept_rows.size != len(data):
        raise ValueError(f"{function}: the facets of a count plot need long-form data.")
    fcodes, keys, dims = facet_codes(data.reset_index(drop=True), list(facets))
    kept_facet = fcodes[rows.kept_rows]
    undrawn_rows = np.zeros(fcodes.size, bool) if rows.undrawn_rows is None else rows.undrawn_rows
    undrawn_facet = fcodes[undrawn_rows]
    lost = np.bincount(fcodes[rows.missing_rows & (fcodes >= 0)], minlength=len(keys))
    sizes = np.bincount(kept_facet[kept_facet >= 0], minlength=len(keys))
    rare_cats = rare_categories(rows, threshold)  # rare among all the records: avoided in each
    panels = []
    for f in range(len(keys)):  # every combination of the facets' levels, some empty
        mine, undrawn = kept_facet == f, undrawn_facet == f
        panel = _count_table(layout, rows, int(lost[f]), rare_cats, mine, undrawn)
        _suppress_counts(panel, m, threshold, pol)
        panels.append(panel)
    if not m.raw:
        # every record counted by the figure without facets or hue: one in no facet, or drawn
        # without its hue, is a hidden cell of the margins it is in
        undrawn = np.array([], dtype=int) if rows.undrawn_cat is None else rows.undrawn_cat
        cat = np.concatenate([rows.cat, undrawn])
        hue_codes = np.concatenate([rows.hue, np.full(undrawn.size, -1)])
        codes = np.where(
            np.r_[kept_facet >= 0, np.zeros(undrawn.size, bool)],
            np.r_[kept_facet, np.zeros(undrawn.size, int)] * layout.n_hue + hue_codes,
            -1,
        )
        table = guard.FacetTable(
            [
                (np.r_[c[rows.kept_rows], c[undrawn_rows]], n, tag)
                for (c, n), tag in zip(dims, facets, strict=True)
            ],
            hue_codes,
        )
        _link_count_tables(panels, layout, function, cat, codes, table if facets else None)
    method = m.name
    return {
        keys[f]: _finish_counts(panel, m, stat, threshold, function, method, pol)
        for f, panel in enumerate(panels)
        if sizes[f]
    }


def _private_counts(
    table: np.ndarray,
    levels: list[Any],
    hue_levels: list[Any] | None,
    layout: Layout,
    stat: str,
    m: Method,
    epsilon: float | None,
    n_dropped: int,
    pol: Policy,
    *,
    mechanism: str = "laplace",
    delta: float | None = None,
) -> CountRelease:
    """Release the count table of the named categories with DP noise, spending epsilon.

    One record is in one cell (category and hue level), so the table has L1
    sensitivity 1. The categories are the caller's (``order``): every one is
    shown, with its noisy count, none suppressed.
    """
    from ..anonymize import dp as dpnum

    given = m.get_params().get("epsilon")
    eps = dpnum.check_epsilon(
        epsilon if epsilon is not None else given if given is not None else 1.0
    )
    mech = dpnum.check_mechanism(m.get_params().get("mechanism", mechanism))
    dlt = dpnum.check_delta(m.get_params().get("delta", delta), mech)
    if not dpnum.opendp_available():
        dpnum._dp()  # raises, saying how to install OpenDP
    left = guard.spend_epsilon(eps, function="countplot", delta=dlt)
    noisy = dpnum.mechanism_counts(table.astype(int), eps, mechanism=mech, delta=dlt or None)
    released = noisy.counts
    total = float(released.sum())
    if stat == "count" or total == 0:
        heights = released.copy()
    else:
        heights = released / total * (100.0 if stat == "percent" else 1.0)
    variables = tuple(v for v in (layout.cat_name, layout.hue_name) if v is not None) or (
        "category",
    )
    report = make_report(
        "countplot",
        m.name,
        {"epsilon": eps}
        if mech == "laplace"
        else {"epsilon": eps, "mechanism": mech, "delta": dlt},
        variables,
        round(total),  # a sum of noisy counts: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        pol,
        details={
            "mechanism": "discrete Laplace (OpenDP make_laplace), L1 sensitivity 1"
            if mech == "laplace"
            else "discrete Gaussian (OpenDP make_gaussian, zCDP converted to (epsilon, "
            "delta)), L2 sensitivity 1",
            "noise_scale": noisy.scale,
            "noise_sd": round(noisy.sd, 3),
            "accuracy_95": noisy.accuracy,
            "budget_left": round(left, 6),
        },
        warnings=[
            f"Differentially private counts (epsilon={eps:g}): each count +/- "
            f"{noisy.accuracy} at 95%; negative noisy counts shown as 0."
        ],
    )
    return CountRelease(
        levels,
        hue_levels,
        released,
        heights,
        stat,
        None,
        report,
        layout,
        np.array([]),
        accuracy=float(noisy.accuracy),
    )


def countplot(
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
    hue_norm: Any = None,
    stat: str = "count",
    width: float = 0.8,
    dodge: bool | str = "auto",
    gap: float = 0,
    log_scale: Any = None,
    native_scale: bool = False,
    formatter: Any = None,
    legend: str | bool = "auto",
    ax: Axes | None = None,
    method: str | None = None,
    epsilon: float | None = None,
    threshold: int | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Show the counts of a categorical variable as bars, with small counts protected.

    The arguments are those of :func:`seaborn.countplot`, plus the
    disclosure-control parameters. The table of counts (category x hue
    level) is released under `method` first and seaborn draws only the
    released counts, without error bars.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`/`y` and `hue`, or
        wide-form data (no `x`/`y`): one bar per numeric column, its number
        of values.
    x, y : name of a column in `data`, or a vector
        The categorical variable: `x` for vertical bars, `y` for horizontal
        ones (not both).
    hue : name of a column in `data`, or a vector, optional
        A second categorical variable, drawn as coloured (dodged) bars.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    orient : {"v", "h", "x", "y"}, optional
        Orientation (seaborn's: inferred from whether `x` or `y` is given).
    color, palette, saturation, fill, hue_norm, width, dodge, gap
        Appearance, as in seaborn.
    stat : {"count", "percent", "probability", "proportion"}, default "count"
        Unit of the bars. Percentages and proportions are of the *shown*
        counts (suppressed bars excluded), which is what is released.
    log_scale : bool or number, or pair, optional
        Log scale of the count axis.
    native_scale : bool, default False
        Place numeric categories at their values (not with a merged
        ``"Other"`` category).
    formatter : callable, optional
        Maps category values to tick labels.
    legend : "auto", "brief", "full" or False
        How to draw the hue legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"suppress", "generalize", "confidential", "none"}, optional
        Disclosure-control method (see Notes). Default: the policy's method
        for count plots, ``"suppress"``.
    threshold : int, optional
        Minimum count of a shown bar. Default and floor: the policy's.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    epsilon : float, optional
        ``method="dp"``: privacy loss of the release (default 1.0), spent
        from the policy's ``dp_budget``; the categories come from ``order``.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        ``method="dp"``: the noise; ``"gaussian"`` needs `delta`.
    delta : float, optional
        ``method="dp"`` with ``mechanism="gaussian"``: at most 1e-5, spent
        from the policy's ``dp_delta_budget``.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.bar` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on, with the release's report as ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        A parameter below a policy floor, or ``method="none"`` when the
        policy forbids raw output.
    ValueError
        ``"deterministic"``/``"probabilistic"`` (they move numbers, not
        counts), both `x` and `y`, unknown columns, empty data.

    See Also
    --------
    boxplot : Distributions of a numeric variable per category.
    release_countplot : The released counts alone.
    seaborn.countplot : The raw-data function this mirrors.

    Notes
    -----
    What each method does to a count plot:

    ``"suppress"`` (default)
        Bars (category x hue cells) with a count in ``(0, threshold)`` are
        removed, and so, by secondary suppression, is the smallest other
        non-zero bar of any category or hue level left with exactly one
        suppressed bar -- otherwise the suppressed count would follow from a
        total published elsewhere (e.g. a count plot without hue). Records
        drawn without their hue (a missing hue, a level left out of
        ``hue_order``) count as a hidden bar of their category, and the
        session's release ledger hides one more bar where an earlier count
        plot of the same records (without hue, or the facets of
        ``catplot(kind="count")``) would give a suppressed one as a
        difference. A category or hue level with nothing left to show is
        dropped from the axis and legend, so a rare category's label is
        never drawn. The report counts the suppressed bars.
    ``"generalize"``
        Categories with a count in ``(0, threshold)`` are merged into one
        ``"Other"`` category (shown last). While "Other" itself would have
        a count below the threshold (it would have to be suppressed, and
        then the merged count could be worked out from the total) the
        smallest remaining category is merged into it too; only if
        everything has been merged is the remainder suppressed.
    ``"confidential"``
        As ``"suppress"``, then every shown count is rounded to a multiple
        of the policy's ``round_n_to`` (5 by default; halves up, never
        below the threshold), as O'Keefe and the ONS round frequencies.
    ``"none"``
        seaborn's raw count plot, only when the policy allows raw output.

    A category holding more than 90% of the records is flagged (dominance
    rule of O'Keefe and Brandt et al.): a warning in the report and a note
    on the figure.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = countplot(tips, x="size", hue="time", method="generalize", ax=ax)
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['2', '3', '4', 'Other']
    >>> ax.safeplot_report.method
    'generalize'
    """
    pol = get_policy()
    rel = release_countplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        orient=orient,
        stat=stat,
        method=method,
        threshold=threshold,
        policy=pol,
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
    )
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
    )
    if not get_method(rel.report.method).raw:
        return draw_count_release(rel, ax=ax, annotate=annotate, policy=pol, **style, **kwargs)
    refuse_native_other(native_scale, rel.other, rel.layout, "countplot")
    ax = axes_for(ax, rel.report, rel)
    import seaborn as sns

    with quiet_seaborn():
        sns.countplot(
            data,
            x=x,
            y=y,
            hue=hue,
            order=order,
            hue_order=hue_order,
            orient=orient,
            stat=stat,
            ax=ax,
            **style,
            **kwargs,
        )
    return finish(ax, rel.report, annotate=annotate, policy=pol)


def draw_count_release(
    rel: CountRelease,
    *,
    ax: Axes | None = None,
    annotate: bool | None = None,
    policy: Policy | None = None,
    log_scale: Any = None,
    native_scale: bool = False,
    **style: Any,
) -> Axes:
    """Draw a released count plot (:func:`release_countplot`, :func:`count_panels`).

    The bars are the released counts, drawn with seaborn's look; `style`
    takes :func:`countplot`'s drawing keywords (``color``, ``palette``,
    ``dodge``, ...) and matplotlib's. Nothing here sees a record.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> rel = release_countplot(safeplot.load_dataset("tips"), x="day")
    >>> ax = draw_count_release(rel, ax=plt.figure().subplots())
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['Thur', 'Fri', 'Sat', 'Sun']
    """
    pol = get_policy(policy)
    lay = rel.layout
    if lay is None:
        raise ValueError("draw_count_release needs a release made by release_countplot.")
    _, count_log = log_axes(log_scale, lay, native_scale)
    count_base = log_base(count_log)
    refuse_native_other(native_scale, rel.other, lay, "countplot")
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    # countplot's drawing keywords, with its defaults; the rest go on to matplotlib
    defaults = dict(
        color=None,
        palette=None,
        saturation=0.75,
        fill=True,
        hue_norm=None,
        width=0.8,
        dodge="auto",
        gap=0,
        formatter=None,
        legend="auto",
    )
    kwargs = {key: v for key, v in style.items() if key not in defaults}
    style = {key: style.get(key, v) for key, v in defaults.items()}
    style.update(native_scale=native_scale)
    # the log count axis is set here, not by seaborn: seaborn 0.13 would sum the logs of the
    # counts and mask the bars' zero baseline, drawing no bars
    _draw_counts(ax, rel, dict(style, log_scale=None), kwargs)
    if rel.accuracy is not None:
        if rel.stat == "count" and rel.hue_levels is None and rel.levels:
            # each noisy count with its 95% interval, at the category positions 0, 1, ...
            counts = np.nan_to_num(rel.counts[:, 0])
            err = np.vstack(
                [np.minimum(counts, rel.accuracy), np.full(counts.shape, rel.accuracy)]
            )
            positions = np.arange(len(rel.levels), dtype=float)
            kw = {"fmt": "none", "ecolor": "0.2", "elinewidth": 0.8, "zorder": 3}
            bars = (
                ax.errorbar(positions, counts, yerr=err, **kw)
                if lay.orient == "x"
                else ax.errorbar(counts, positions, xerr=err, **kw)
            )
            for artist in bars.lines[2]:
                artist.set_gid(DP_ERRORS_GID)
        else:
            rel.report.warnings.append(
                "Error bars are drawn for stat='count' without hue; the accuracy of each "
                "count is in this report."
            )
    if not rel.levels:
        # every count suppressed: no category ticks (matplotlib's default 0, 0.2, ... 1 could
        # be read as values of the variable, and may coincide with one)
        (ax.set_xticks if lay.orient == "x" else ax.set_yticks)([])
    if count_base is not None:
        set_scale = ax.set_yscale if lay.orient == "x" else ax.set_xscale
        set_scale("log", base=count_base, nonpositive="clip")
    if native_scale and lay.cat_numeric and rel.levels:
        safe_category_axis(ax, lay, rel.avoid_categories)
    dominance_note(ax, rel)
    return finish(ax, rel.report, annotate=annotate, policy=pol)


def dominance_note(ax: Axes, rel: CountRelease) -> None:
    """Note above `ax` that one category holds more than 90% of the records, if it does."""
    if rel.report.details.get("dominant_category"):
        ax.annotate(
            "dominance: one category holds > 90% of records",
            xy=(0.0, 1.0),
            xycoords="axes fraction",
            xytext=(0, 3),
            textcoords="offset points",
            ha="left",
            va="bottom",
            fontsize="x-small",
            color="0.35",
            gid=DOMINANCE_GID,
        )


def _draw_counts(ax: Axes, rel: CountRelease, style: dict[str, Any], kwargs: dict) -> None:
    import seaborn as sns

    lay = rel.layout
    style = dict(style, palette=stable_palette(rel, style))
    shown = np.isfinite(rel.counts) & (rel.counts > 0)
    ii, jj = np.nonzero(shown)
    heights = pd.Series(rel.heights[ii, jj], name=rel.stat, dtype=float)
    with quiet_seaborn():
        if lay.wide:
            frame = pd.DataFrame(
                {
                    str(lv): [h]
                    for lv, h in zip(rel.levels, np.nan_to_num(rel.heights[:, 0]), strict=True)
                }
            )
            sns.barplot(
                data=frame,
                orient=lay.orient,
                estimator="sum",
                errorbar=None,
                ax=ax,
                **style,
                **kwargs,
            )
            (ax.set_ylabel if lay.orient == "x" else ax.set_xlabel)(rel.stat)
            return
        values = np.array([rel.levels[i] for i in ii], dtype=object)
        cat = pd.Series(values, name=lay.cat_name)
        if rel.other is None:
            cat = cat.astype(lay.cat_dtype)
        hue = None
        if rel.hue_levels is not None:
            hue = pd.Series(
                np.array([rel.hue_levels[j] for j in jj], dtype=object), name=lay.hue_name
            ).astype(hue_dtype(lay))
        xy = {"x": cat, "y": heights} if lay.orient == "x" else {"x": heights, "y": cat}
        if ii.size:
            sns.barplot(
                **xy,
                hue=hue,
                order=rel.levels,
                hue_order=rel.hue_levels,
                orient=lay.orient,
                estimator="sum",
                errorbar=None,
                ax=ax,
                **style,
                **kwargs,
            )
    (ax.set_xlabel if lay.orient == "x" else ax.set_ylabel)(lay.cat_name or "")
    (ax.set_ylabel if lay.orient == "x" else ax.set_xlabel)(rel.stat)
