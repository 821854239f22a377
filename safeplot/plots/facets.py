"""Figure-level plots under disclosure control: ``displot``, ``relplot``, ``catplot``, ``lmplot``.

seaborn's figure-level functions lay a :class:`seaborn.FacetGrid` over the
data (one panel per level of ``row`` and ``col``) and draw an axes-level plot
on every panel. The versions here build the same grid, but every panel is
drawn by safeplot's axes-level function on that panel's records, with the
same method and parameters, so each facet is released on its own:

- ``displot``: :func:`~safeplot.plots.distributions.histplot` (``kind="hist"``),
  :func:`~safeplot.plots.kde.kdeplot` (``"kde"``) or ``ecdfplot`` (``"ecdf"``);
- ``relplot``: :func:`~safeplot.plots.relational.scatterplot`;
- ``catplot``: :func:`~safeplot.plots.categorical.boxplot`,
  :func:`~safeplot.plots.categorical.countplot` or ``barplot``;
- ``lmplot``: :func:`~safeplot.plots.regression.regplot` per facet and hue level.

Facet levels are category labels shown in the panel titles: a facet with
fewer than ``threshold`` records (``2k`` under the value methods that need
``k`` neighbours) is left out before anything is drawn, as a suppressed cell
is (DESIGN invariant 10): not drawn, its level not named unless the caller
named it, and a note under the figure that says groups were left out. The
figures whose facets show counts refuse it instead, since the same figure
without ``row``/``col`` would give its counts as a difference. Shared axes get one
set of limits and ticks at the end, spanning the limits every facet's release
set and equal to no rare raw value of any facet (those are found before the
first facet is drawn), so nothing drawn is clipped and no panel's limits
point at another panel's outlier. Nothing is read back from matplotlib.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import Locator
from seaborn import FacetGrid

from .. import audit
from ..anonymize.grids import hits_any, rare_values, safe_edges, safe_ticks
from ..errors import DisclosureError, UnsafePlotError
from ..marks._axes import footnotes, remove_footnote
from ..marks._style import variable_type
from ..marks.lines import set_date_axis
from ..methods import Method, get_method
from ..policy import Policy, get_policy
from ..release import guard
from ..release.guard import (
    LEFT_OUT_NOTE,
    TOPPED_UP,
    SmallGroupRule,
    shown_groups,
    small_group_rule,
)
from ._categories import infer_orient
from ._common import (
    all_or_nothing,
    axes_for,
    figure_note,
    resolve_annotate,
    safe_limits,
    set_safe_axis,
)
from ._data import categorical_order, plot_data

__all__ = [
    "CATPLOT_KINDS",
    "DISPLOT_KINDS",
    "RELPLOT_KINDS",
    "catplot",
    "displot",
    "facet_axes_variables",
    "lmplot",
    "relplot",
]

#: Kinds of :func:`displot` (all have a safe version; ``"ecdf"`` once ``ecdfplot`` exists).
DISPLOT_KINDS = ("hist", "kde", "ecdf")
#: Kinds of :func:`relplot` with a safe version.
RELPLOT_KINDS = ("scatter", "line")
#: Kinds of :func:`catplot` with a safe version (``"bar"`` once ``barplot`` exists).
CATPLOT_KINDS = ("strip", "swarm", "box", "count", "bar", "point", "violin", "boxen")

#: safeplot's own keyword arguments, passed on only to functions that take them.
_OWN = ("method", "threshold", "factor", "k", "q", "metric", "algorithm", "c", "discretizer")

# -- optional axes-level functions -------------------------------------------------------


def _optional(module: str, name: str) -> Callable | None:
    """Return safeplot.plots.<module>.<name> if that module exists (it may be added later)."""
    try:
        mod = importlib.import_module(f"safeplot.plots.{module}")
    except ModuleNotFoundError as err:
        if err.name != f"safeplot.plots.{module}":
            raise
        return None
    return getattr(mod, name, None)


def _ecdfplot() -> Callable:
    func = _optional("ecdf", "ecdfplot")
    if func is None:
        raise UnsafePlotError(
            "displot(kind='ecdf') needs a safe ecdfplot, which this version of safeplot does "
            "not have: a raw ECDF steps at every record's value. Use "
            "displot(kind='hist', cumulative=True, stat='proportion') (safeplot.histplot "
            "with suppressed bins) instead."
        )
    return func


def _barplot() -> Callable:
    func = _optional("bar", "barplot")
    if func is None:
        raise UnsafePlotError(
            "catplot(kind='bar') needs a safe barplot, which this version of safeplot does "
            "not have: means of small groups and their error bars show raw values. Use "
            "catplot(kind='box') (safeplot.boxplot) or catplot(kind='count') instead."
        )
    return func


def _call(func: Callable, **kws: Any) -> Any:
    """Call an axes-level function, leaving out safeplot options it does not take."""
    params = inspect.signature(func).parameters
    for name in (*_OWN, "annotate"):
        if name in kws and name not in params:
            kws.pop(name)
    return func(**kws)


def _facet_grid(
    frame: pd.DataFrame,
    names: dict[str, str],
    levels: dict[str, list],
    col_wrap: int | None,
    height: float,
    aspect: float,
    fkws: dict[str, Any],
    **extra: Any,
) -> FacetGrid:
    """Make the FacetGrid of a figure-level call: facets by row and col, in released order."""
    return FacetGrid(
        data=frame,
        row=names.get("row"),
        col=names.get("col"),
        col_wrap=col_wrap,
        row_order=levels.get("row"),
        col_order=levels.get("col"),
        height=height,
        aspect=aspect,
        **extra,
        **fkws,
    )


# -- input -------------------------------------------------------------------------------


def _frame(data: Any, roles: dict[str, Any], function: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """Resolve the variables; return a frame with one column per distinct name, and the names.

    Columns are named as seaborn names them (the column name, or the vector's
    name); a role without a name gets ``_role_``.
    """
    pdata = plot_data(data, {r: v for r, v in roles.items() if v is not None}, function=function)
    columns: dict[str, pd.Series] = {}
    names: dict[str, str] = {}
    for role in pdata.frame.columns:
        label = pdata.label(role)
        # a column may share its role's name (tips' "size" given as size=): it keeps it
        given = roles.get(role)
        named = label != role or isinstance(given, str) or getattr(given, "name", None) == role
        name = label if label and (named or role in ("x", "y")) else f"_{role}_"
        series = pdata.frame[role]
        if name in columns and not columns[name].equals(series):
            name = f"{name} ({role})"
        columns[name] = series
        names[role] = name
    return pd.DataFrame(columns), names


def _numeric(series: pd.Series) -> np.ndarray:
    if pd.api.types.is_datetime64_any_dtype(series.dtype):
        # dates are released (and drawn) as matplotlib date numbers: their rare values too
        if isinstance(series.dtype, pd.DatetimeTZDtype):
            series = series.dt.tz_convert(None)
        present = series.dropna().to_numpy(dtype="datetime64[ns]")
        return np.asarray(mdates.date2num(present), dtype=float)
    values = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
    return values[np.isfinite(values)]


def _facet_levels(frame: pd.DataFrame, names: dict, orders: dict) -> dict[str, list]:
    return {
        role: categorical_order(frame[names[role]], orders.get(role))
        for role in ("row", "col")
        if role in names
    }


def _describe(keys: tuple, roles: list[str], names: dict) -> str:
    return ", ".join(f"{names[r]} = {v}" for r, v in zip(roles, keys, strict=True))


@dataclass
class _Shown:
    """The facets (and hue levels within them) a figure-level plot draws.

    Attributes
    ----------
    frame : DataFrame
        The records drawn: those of facets and hue groups left out are taken out.
    levels : dict
        The grid's levels of ``row`` and ``col``: a level inferred from the data
        whose every facet was left out is gone (no panel, no title); a level the
        caller named keeps its panel, drawn empty.
    left_out : int
        Facets and hue groups with some records, too few to draw.
    warnings : list of str
        What the facets' reports say about them (how many, not which).
    dropped : DataFrame
        The records left out (for the values no limit or tick may equal),
        including those of hue levels a facet's axes-level function leaves
        out itself (they stay in `frame`, see :func:`_check_facets`).
    whole : DataFrame
        Every record, for the order of levels.
    hue_hidden : set
        Hue levels left out of every facet that holds records of them: the
        grid's legend does not name them unless the caller did.
    logged : int
        Entries in the audit log before the first facet is drawn: the
        facets' entries are those after them.
    """

    frame: pd.DataFrame
    levels: dict[str, list]
    left_out: int = 0
    warnings: list[str] = field(default_factory=list)
    dropped: pd.DataFrame = field(default_factory=pd.DataFrame)
    whole: pd.DataFrame = field(default_factory=pd.DataFrame)
    hue_hidden: set = field(default_factory=set)
    logged: int = 0

    def order(self, column: str | None, order: list | None = None) -> list | None:
        """Return the levels of `column` in the records drawn, in the order of all records.

        A level only records left out hold is not named, unless the caller
        named it (`order`, or the categories of a categorical column).
        """
        if column is None:
            return order
        levels = categorical_order(self.whole[column], order)
        if self.dropped.empty or _named(self.whole[column], order):
            return levels
        present = set(pd.unique(self.frame[column].dropna()))
        return [lev for lev in levels if lev in present]

    def hidden_labels(self, column: str | None, order: list | None) -> set[str]:
        """Return the labels of hue levels drawn in no facet, unless the caller named them."""
        if column is None or not self.hue_hidden or _named(self.whole[column], order):
            return set()
        return {str(lev) for lev in self.hue_hidden}

    def finish(self, grid: FacetGrid) -> None:
        """Say in every facet's report and audit entry that groups were left out (not which)."""
        if not self.left_out:
            return
        for report in getattr(grid, "safeplot_reports", []):
            report.warnings.extend(w for w in self.warnings if w not in report.warnings)
            report.details["groups_left_out"] = (
                int(report.details.get("groups_left_out", 0)) + self.left_out
            )
        audit._warn_after(self.logged, self.warnings, self.left_out)


def _named(values: pd.Series, order: list | None) -> bool:
    """Whether the caller named the levels of `values` (an order, or a categorical dtype)."""
    return order is not None or isinstance(values.dtype, pd.CategoricalDtype)


def _key(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _group_codes(frame: pd.DataFrame, by: list[str], groups: list[tuple]) -> np.ndarray:
    """Each record's position in `groups` by its levels of the columns `by` (-1: none)."""
    index = {g: i for i, g in enumerate(groups)}
    keys = zip(*(frame[b].tolist() for b in by), strict=True)
    return np.array([index.get(key, -1) for key in keys], dtype=int)


def _in_groups(frame: pd.DataFrame, by: list[str], groups: set[tuple]) -> pd.Series:
    """Whether each record's levels of the columns `by` are one of `groups`."""
    keys = zip(*(frame[b].tolist() for b in by), strict=True)
    return pd.Series([key in groups for key in keys], index=frame.index, dtype=bool)


def _check_facets(
    frame: pd.DataFrame,
    names: dict,
    orders: dict,
    complete: list[str],
    minimum: int,
    why: str,
    function: str,
    hue_min: int | None = None,
    hue_why: str = "",
    *,
    counts: str | None = None,
    hue_left_out: bool = False,
    hue_rule: SmallGroupRule | None = None,
    marks: str | None = None,
    threshold: int = 3,
) -> _Shown:
    """Leave out facets (and hue levels within a facet) with too few records.

    A facet (a combination of the levels of ``row`` and ``col``) with some
    records but fewer than `minimum` is left out as a suppressed cell is
    (:func:`~safeplot.release.guard.shown_groups`): its records are not
    drawn, and a level of it inferred from the data that has no facet left
    is not named (no panel, no title). A level the caller named in
    ``row_order``/``col_order`` keeps its panel, drawn empty, as seaborn
    draws a facet of no records. The release is refused when no facet is
    left, and whenever `counts` says why the facets release counts: the
    figure drawn without ``row``/``col`` would then give a left-out facet's
    counts as the whole minus the facets shown.

    Hue levels within a facet with fewer than `hue_min` records are left out
    of that facet the same way when `hue_left_out` (each is a release of its
    own), and refused otherwise. With a `hue_rule` (:func:`_small_hue_rule`:
    the rule of the axes-level function drawn on every facet) a small level
    is refused where that function refuses it, with its reason; where it
    leaves the level out, the level's records stay in the frame and reach
    the facet's function, which leaves them out itself, exactly as it does
    standalone (the release ledger then links the level's hidden counts
    with the figure without ``hue``, and the records left out against that
    figure are topped up within the facet). They are listed in ``dropped``
    all the same, the facets' reports and note say that groups were left
    out, and a level left out of every facet holding it is ``hue_hidden``.

    `marks` says whether the figure draws one mark per record (points,
    rug ticks), which a reader can count and compare with the figure
    without ``row``/``col``: ``"grouped"`` (the method forms its groups
    within each facet, so the marks differ between the two figures) leaves
    a small facet out, with more records of the largest facet drawn left
    out if the records left out would be fewer than the threshold
    (:meth:`~safeplot.release.guard.ShownGroups.keep_records`); ``"own"``
    (each record is released on its own, as keyed noise or rounding do, and
    drawn the same in both figures, whose difference would be the facet's
    records) refuses a small facet.
    """
    roles = [r for r in ("row", "col") if r in names]
    levels = _facet_levels(frame, names, orders)
    keep = pd.Series(True, index=frame.index)
    for role in complete:
        col = frame[names[role]]
        keep &= pd.to_numeric(col, errors="coerce").notna() if role in ("x", "y") else col.notna()
    for role in roles:
        keep &= frame[names[role]].isin(levels[role])
    sub = frame[keep]
    if sub.shape[0] == 0:
        used = [names[r] for r in [*complete, *roles] if r in names]
        raise ValueError(
            f"{function}: no complete records to plot: the data are empty, or every row has a "
            f"missing or non-numeric value in {used}. Check the data and the variable names."
        )
    shown = _Shown(frame, levels, whole=frame)
    topped_up = False
    if roles:
        by = [names[r] for r in roles]
        found = {_key(k): int(n) for k, n in sub.groupby(by, observed=True).size().items()}
        combos = list(itertools.product(*(levels[r] for r in roles)))
        sizes = np.array([found.get(c, 0) for c in combos], dtype=np.int64)
        small = [c for c, n in zip(combos, sizes, strict=True) if 0 < n < minimum]
        if small and counts is not None:
            described = "; ".join(_describe(c, roles, names) for c in small[:5])
            raise DisclosureError(
                f"{function}: {len(small)} facet(s) have fewer than {why} records "
                f"({described}). A panel of so few records would show their counts, and "
                f"leaving it out would not hide them: {counts}, so the same figure without "
                "row=/col= gives a left-out facet's counts as the whole minus the facets shown. "
                "Merge small levels of the facet variable into broader ones (recode it), or "
                "leave them out of the data (filter it) in every figure of it."
            )
        groups = shown_groups(
            sizes,
            minimum,
            why,
            function=function,
            what="facet",
            fix="Merge small levels of the facet variable into broader ones (recode it), "
            "or facet by fewer variables.",
        )
        if groups.left_out and marks == "own":
            raise DisclosureError(
                f"{function}: {groups.left_out} facet(s) have fewer than {why} records. Each "
                "record is drawn on its own under this method, as in the same figure without "
                "row=/col=, so leaving a facet out would make the difference of the two figures "
                "its records. Merge small levels of the facet variable into broader ones "
                "(recode it), or use method='deterministic', whose groups are formed within "
                "each facet and which leaves a small facet out."
            )
        if groups.left_out:
            out = {c for c, s, n in zip(combos, groups.shown, sizes, strict=True) if n and not s}
            gone = _in_groups(frame, by, out)
            if marks == "grouped":
                # one mark per record: the records left out, counted against the figure
                # without row=/col=, are 0 or at least the threshold
                codes = _group_codes(frame, by, combos)
                codes[~keep.to_numpy(dtype=bool)] = -1
                more = ~groups.keep_records(codes, threshold) & ~gone.to_numpy(dtype=bool)
                more &= codes >= 0
                if more.any():
                    gone = gone | pd.Series(more, index=frame.index)
                    topped_up = True
            drawn = {c for c, s in zip(combos, groups.shown, strict=True) if s}
            for i, role in enumerate(roles):
                if _named(frame[names[role]], orders.get(role)):
                    continue  # named by the caller: its panels stay, drawn empty
                dropped = {c[i] for c in out} - {c[i] for c in drawn}
                levels[role] = [lev for lev in levels[role] if lev not in dropped]
            gone_rows = gone.to_numpy(dtype=bool)
            shown = _Shown(
                frame[~gone_rows], levels, groups.left_out, dropped=frame[gone_rows], whole=frame
            )
            shown.warnings.append(groups.warning)
            if topped_up:
                shown.warnings.append(TOPPED_UP)
            sub = sub[~gone[keep].to_numpy(dtype=bool)]
    if hue_min is not None and "hue" in names:
        by = [names[r] for r in roles] + [names["hue"]]
        sizes_s = sub.groupby(by, observed=True, dropna=True).size()
        small = [_key(k) for k, n in sizes_s.items() if 0 < n < hue_min]
        if small and hue_rule is not None and hue_rule.leave_out:
            small_rows = _in_groups(shown.frame, by, set(small)).to_numpy(dtype=bool)
            shown.dropped = pd.concat([shown.dropped, shown.frame[small_rows]])
            drawn = {_key(k)[-1] for k, n in sizes_s.items() if n >= hue_min}
            shown.hue_hidden |= {k[-1] for k in small} - drawn
            shown.left_out += len(small)
            shown.warnings.append(
                f"{len(small)} hue level(s) with fewer than {hue_min} records ({hue_why}) are "
                "not drawn in their facet."
            )
        elif small and hue_rule is not None:
            raise DisclosureError(
                f"{function}: {len(small)} hue level(s) within a facet have fewer than "
                f"{hue_why} records. {hue_rule.refusal}"
            )
        elif small and hue_left_out and marks != "own":
            groups = shown_groups(
                sizes_s.to_numpy(),
                hue_min,
                hue_why,
                function=function,
                what="hue level",
                fix="Merge small hue levels, drop hue=, or facet by fewer variables.",
            )
            gone_rows = _in_groups(shown.frame, by, set(small)).to_numpy(dtype=bool, copy=True)
            if marks == "grouped" and _top_up_per_facet(
                shown.frame, by, sizes_s, gone_rows, hue_min, hue_why, threshold, function
            ):
                shown.warnings.append(TOPPED_UP)
            shown.dropped = pd.concat([shown.dropped, shown.frame[gone_rows]])
            shown.frame = shown.frame[~gone_rows]
            shown.left_out += groups.left_out
            shown.warnings.append(f"{groups.warning[:-1]} in their facet.")
        elif small:
            described = "; ".join(_describe(k, [*roles, "hue"], names) for k in small[:5])
            raise DisclosureError(
                f"{function}: {len(small)} hue level(s) within a facet have fewer than "
                f"{hue_why} records ({described}). Merge small hue levels, drop hue=, or facet "
                "by fewer variables."
            )
    shown.logged = len(audit.entries())  # the facets' entries come after these
    return shown


def _top_up_per_facet(
    frame: pd.DataFrame,
    by: list[str],
    sizes: pd.Series,
    gone: np.ndarray,
    need: int,
    why: str,
    threshold: int,
    function: str,
) -> bool:
    """Leave out more records where a facet would lose fewer than `threshold` (in place).

    One mark per record: each panel's markers, counted against the same
    panel of the figure without hue, say how many records of that facet
    were left out. In every facet where that number would be in
    ``(0, threshold)``, the last records of its largest hue level drawn are
    left out too (:meth:`~safeplot.release.guard.ShownGroups.keep_records`),
    so each panel's difference is 0 or at least `threshold`. `sizes` counts
    the records of each (facet, hue level) group, `gone` marks the records
    left out so far (updated). Returns whether any record was added.
    """
    keys = [_key(k) for k in sizes.index]
    codes = _group_codes(frame, by, keys)
    counts = sizes.to_numpy()
    per_facet: dict[tuple, list[int]] = {}
    for i, key in enumerate(keys):
        per_facet.setdefault(key[:-1], []).append(i)
    added = False
    for idx in per_facet.values():
        local = np.full(len(keys), -1)
        local[idx] = np.arange(len(idx))
        lc = np.where(codes >= 0, local[np.clip(codes, 0, None)], -1)
        out = int((gone & (lc >= 0)).sum())
        if not 0 < out < threshold or not (counts[idx] >= need).any():
            continue
        groups = shown_groups(counts[idx], need, why, function=function, what="hue level")
        more = ~groups.keep_records(lc, threshold) & (lc >= 0) & ~gone
        gone |= more
        added = added or bool(more.any())
    return added


def _marks(m: Method, draws_points: bool) -> str | None:
    """Whether a figure draws one mark per record, and how (see :func:`_check_facets`).

    O'Keefe's rules (``"confidential"``, rule based) draw boxes and trends,
    not records; the grid methods
    draw cells; raw output is not protected.
    """
    if not draws_points or m.raw or not m.moves_values or m.rule_based:
        return None
    return "grouped" if m.groups_within_strata else "own"


def _minimum(m: Method, threshold: int, k: int, pol: Policy) -> tuple[int, str]:
    """Return the fewest records a facet needs, and why.

    A method with a group size ``k`` anonymises each facet on its own, so a
    facet needs ``2*k`` records (``k <= n - k``).
    """
    if m.uses_k:
        k = pol.check_k(k)
        if 2 * k > threshold:
            return 2 * k, f"2*k={2 * k}"
    return threshold, f"threshold={threshold}"


def _hue_minimum(m: Method, k: int, pol: Policy) -> tuple[int | None, str]:
    """Return the fewest records a hue level within a facet needs (None: no check), and why."""
    if m.raw:
        return None, ""
    return m.group_floor(pol, k)


def _small_hue_rule(m: Method, kind: str) -> SmallGroupRule:
    """Return the rule of the axes-level function of `kind` for a small hue level under `m`.

    The facet-level functions apply, within each facet, the rule the
    axes-level function drawn there applies to a level of the whole data
    (:func:`~safeplot.release.guard.small_group_rule`): histogram bins and
    ECDF steps are counts, a kde is a density, and a scatter plot draws
    markers, or O'Keefe's boxes under ``"confidential"``.

    Examples
    --------
    >>> from safeplot.methods import get_method
    >>> [_small_hue_rule(get_method(m), "hist").leave_out for m in ("suppress", "rounding")]
    [True, False]
    >>> [_small_hue_rule(get_method(m), "scatter").leave_out
    ...  for m in ("deterministic", "confidential", "probabilistic")]
    [True, True, False]
    """
    if kind in ("hist", "ecdf"):
        return small_group_rule(m, "counts")
    if kind == "kde":
        return small_group_rule(m, "density")
    return small_group_rule(m, "summaries" if m.rule_based else "markers")


def _facet_kws(facet_kws: dict | None, function: str) -> tuple[dict, Any, Any]:
    """Copy facet_kws; take out user xlim/ylim (they are checked and set at the end)."""
    kws = dict(facet_kws or {})
    for key in ("hue", "row", "col", "data"):
        if key in kws:
            raise ValueError(f"{function}: pass {key}= to {function} itself, not in facet_kws.")
    return kws, kws.pop("xlim", None), kws.pop("ylim", None)


def _warn_ax(kwargs: dict, function: str, kind: str) -> None:
    if "ax" in kwargs:
        warnings.warn(
            f"`{function}` is a figure-level function and does not accept the ax= parameter. "
            f"You may wish to try {kind}plot.",
            UserWarning,
            stacklevel=3,
        )
        kwargs.pop("ax")


# -- shared axes -------------------------------------------------------------------------


class _Axes:
    """The shared axes of a facet grid, agreed from the facets' releases.

    Before any facet is drawn, the rare raw values of every facet's records
    (and of every hue level's, where each level is a release of its own) are
    found: no limit or tick of a shared axis may equal one, and a user limit
    equal to one is refused then. Each facet's axes-level function releases
    its records and draws the release; the limits that release gives the
    facet's data axes are what :func:`~safeplot.marks._axes.set_safe_axis`
    records on the Axes (``ax._safeplot_limits``). At the end each group of
    shared axes gets one set of safe limits and ticks spanning those released
    limits. Nothing is read back from matplotlib, and no record is looked at
    once a facet has been released.
    """

    def __init__(self, data_axes: dict[str, str], threshold: int, raw: bool) -> None:
        self.data_axes = data_axes  # "x"/"y" -> column of the raw values it shows
        self.threshold = threshold
        self.raw = raw
        self.drawn: list[Axes] = []
        self.limits: dict[Axes, dict[str, list]] = {}
        self.rare: dict[Axes, dict[str, list]] = {}
        # rare values of records left out of the figure: no limit or tick equals one either
        self.everywhere: dict[str, list] = {}

    def leave_out(self, records: pd.DataFrame) -> None:
        """Note the values of records left out (small facets or hue groups): all avoided."""
        if self.raw or records.empty:
            return
        for axis, col in self.data_axes.items():
            values = _numeric(records[col])
            self.everywhere.setdefault(axis, []).append(np.unique(values))

    def release(self, ax: Axes, sub: pd.DataFrame) -> None:
        """Note the rare values of the records one call will release on `ax` (before drawing)."""
        for axis, col in self.data_axes.items():
            self.add_rare(ax, axis, sub[col])

    def add_rare(self, ax: Axes, axis: str, values: pd.Series) -> None:
        if self.raw:
            return
        rare = rare_values(_numeric(values), self.threshold)
        self.rare.setdefault(ax, {}).setdefault(axis, []).append(rare)

    def rare_of(self, ax: Axes, axis: str) -> np.ndarray:
        """Return the rare values of every release noted on `ax`, and of the records left out."""
        pools = self.rare.get(ax, {}).get(axis, []) + self.everywhere.get(axis, [])
        return np.unique(np.concatenate(pools)) if pools else np.array([])

    def check_user(self, user: dict[str, Any]) -> None:
        """Refuse user limits equal to a rare value of any facet, before anything is drawn."""
        for axis in self.data_axes:
            if user.get(axis) is None:
                continue
            pools = [r for per in self.rare.values() for r in per.get(axis, [])]
            pools += self.everywhere.get(axis, [])
            avoid = np.unique(np.concatenate(pools)) if pools else np.array([])
            if hits_any([float(v) for v in user[axis]], avoid):
                raise DisclosureError(
                    f"{axis}lim in facet_kws has a limit equal to a value held by fewer "
                    "than threshold records of a facet. Choose round limits clear of "
                    "the data, or leave them out."
                )

    def before(self, ax: Axes) -> None:
        """Forget the limits an earlier release put on `ax` (each call records its own)."""
        ax.__dict__.pop("_safeplot_limits", None)

    def after(self, ax: Axes) -> None:
        """Keep the limits the release just drawn on `ax` gave its data axes."""
        if ax not in self.drawn:
            self.drawn.append(ax)
        released = ax.__dict__.get("_safeplot_limits", {})
        for axis in self.data_axes:
            if axis in released:
                lim = sorted(float(v) for v in released[axis])
                self.limits.setdefault(ax, {}).setdefault(axis, []).append(lim)

    def finish(self, user: dict[str, Any]) -> None:
        """Give every group of shared axes one set of safe limits and ticks.

        An axis no release gave limits to (raw output) is left as matplotlib
        shares it, unless the user set its limits.
        """
        for axis in self.data_axes:
            done: set[Axes] = set()
            for ax in self.drawn:
                if ax in done:
                    continue
                shared = ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes()
                group = [a for a in shared.get_siblings(ax) if a in self.drawn]
                done.update(group)
                lims = np.array(
                    [lim for a in group for lim in self.limits.get(a, {}).get(axis, [])]
                )
                pools = [r for a in group for r in self.rare.get(a, {}).get(axis, [])]
                pools += self.everywhere.get(axis, [])
                avoid = np.unique(np.concatenate(pools)) if pools else np.array([])
                # fewer ticks on small panels, so labels of shared axes do not run together
                size = ax.figure.get_size_inches()[0 if axis == "x" else 1]
                size *= ax.get_position().width if axis == "x" else ax.get_position().height
                n_target = int(np.clip(round(size * 1.8), 2, 5))
                if user.get(axis) is not None:
                    lim = tuple(float(v) for v in user[axis])
                elif len(lims):
                    lim = safe_limits(float(lims[:, 0].min()), float(lims[:, 1].max()), avoid, 0)
                else:
                    # no release fixed this axis (raw output): matplotlib's shared range, with
                    # ticks placed as on the other grids
                    for a in group:
                        (a.xaxis if axis == "x" else a.yaxis).set_major_locator(
                            _SafeTicks(n_target)
                        )
                    continue
                ticks = safe_ticks(min(lim), max(lim), n_target=n_target)
                for a in group:
                    set_safe_axis(a, axis, lim, ticks)
                    if axis in a.__dict__.get("_safeplot_date_axes", ()):
                        set_date_axis(a, axis)


class _SafeTicks(Locator):
    """Ticks over an axis' range as matplotlib scales it, about `n_target` intervals of it."""

    def __init__(self, n_target: int) -> None:
        self.n_target = n_target

    def __call__(self) -> np.ndarray:
        return self.tick_values(*self.axis.get_view_interval())

    def tick_values(self, vmin: float, vmax: float) -> np.ndarray:
        lo, hi = sorted((float(vmin), float(vmax)))
        if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
            return np.array([])
        return safe_ticks(lo, hi, n_target=self.n_target)


def _is_number(label: str) -> bool:
    try:
        float(label.replace("\u2212", "-"))
    except ValueError:
        return False
    return True


def _legend_from_facets(
    grid: FacetGrid,
    title: str | None,
    order: list | None,
    drop: Callable[[str], bool] | None = None,
) -> None:
    """Move the facets' legends into one legend of the grid (as seaborn's figure-level plots).

    Entries whose label `drop` accepts are left out.
    """
    data: dict[str, Any] = {}
    found_title = None
    for ax in grid.axes.flat:
        legend = ax.get_legend()
        if legend is not None:
            handles = legend.legend_handles
            for handle, text in zip(handles, legend.get_texts(), strict=False):
                data.setdefault(text.get_text(), handle)
            found_title = found_title or legend.get_title().get_text()
            legend.remove()
        handles, labels = ax.get_legend_handles_labels()
        for handle, label in zip(handles, labels, strict=True):
            if not label.startswith("_"):
                data.setdefault(label, handle)
    if drop is not None:
        data = {label: handle for label, handle in data.items() if not drop(label)}
    if data:
        labels = [str(v) for v in order] if order is not None else list(data)
        labels = [lab for lab in labels if lab in data] or list(data)
        grid.add_legend(
            legend_data=data, title=title if title is not None else found_title, label_order=labels
        )


def _drop_from_legends(grid: FacetGrid, labels: set[str]) -> None:
    """Take the entries `labels` out of the legends left on the facets (each facet's own scale)."""
    if not labels:
        return
    for ax in grid.axes.flat:
        legend = ax.get_legend()
        if legend is None:
            continue
        entries = list(zip(legend.legend_handles, legend.get_texts(), strict=False))
        if not any(text.get_text() in labels for _, text in entries):
            continue
        kept = [(h, t.get_text()) for h, t in entries if t.get_text() not in labels]
        title = legend.get_title().get_text() or None
        legend.remove()
        if kept:
            ax.legend([h for h, _ in kept], [lab for _, lab in kept], title=title)


def _finish_grid(
    grid: FacetGrid,
    tracker: _Axes,
    user_lims: dict,
    xlabel: str,
    ylabel: str,
    shown: _Shown | None = None,
) -> FacetGrid:
    tracker.finish(user_lims)
    grid._safeplot_data_axes = dict(tracker.data_axes)
    # the grid keeps the columns and levels of the data but none of its records: a later
    # ``grid.map(plt.scatter, ...)`` would otherwise draw the raw values
    grid.data = grid.data.iloc[0:0]
    grid._not_na = grid._not_na.iloc[0:0] if hasattr(grid._not_na, "iloc") else grid._not_na[:0]
    grid.set_axis_labels(xlabel, ylabel)
    grid.set_titles()
    left_out = shown is not None and shown.left_out > 0
    if left_out:
        # a facet's own function that left a hue level out noted it on its panel: the grid
        # says it once, under the figure
        for ax in grid.axes.flat:
            for note in list(footnotes(ax)):
                if note.get_text() == LEFT_OUT_NOTE:
                    remove_footnote(ax, note.get_gid())
    figure_note(grid.axes.flat, left_out=LEFT_OUT_NOTE if left_out else None)
    grid.tight_layout()
    grid.safeplot_reports = [
        ax.safeplot_report
        for ax in grid.axes.flat
        if getattr(ax, "safeplot_report", None) is not None
    ]
    if shown is not None:
        shown.finish(grid)
    return grid


def _labels(grid: FacetGrid) -> tuple[str, str]:
    for ax in grid.axes.flat:
        if getattr(ax, "safeplot_report", None) is not None:
            return ax.get_xlabel(), ax.get_ylabel()
    return "", ""


def _draw(
    grid: FacetGrid,
    tracker: _Axes,
    draw_one: Callable[[Axes, pd.DataFrame], None],
    user: dict[str, Any],
) -> None:
    """Release and draw every non-empty facet with `draw_one`.

    The rare values of every facet are found (and user limits checked)
    before the first facet is drawn.
    """
    for (i, j, _), sub in grid.facet_data():
        if not sub.empty:
            tracker.release(grid.facet_axis(i, j), sub)
    tracker.check_user(user)
    for (i, j, _), sub in grid.facet_data():
        if sub.empty:
            continue
        ax = grid.facet_axis(i, j)
        tracker.before(ax)
        draw_one(ax, sub)
        tracker.after(ax)


def facet_axes_variables(grid: FacetGrid, data: pd.DataFrame) -> dict:
    """Return ``{ax: {"x": values, "y": values}}``: each facet's records of `data`.

    For every facet of a grid drawn by this module, the values of the
    variables on its data axes, taken from `data` (the frame given to the
    plot function, with the variables as named columns). The grid itself
    keeps no raw values; this is for checking a figure against its data,
    e.g. with a leak scanner.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> g = relplot(tips, x="total_bill", y="tip", col="time", height=2)
    >>> sorted(len(v["x"]) for v in facet_axes_variables(g, tips).values())
    [68, 176]
    >>> plt.close(g.figure)
    """
    data_axes: dict[str, str] = getattr(grid, "_safeplot_data_axes", {})
    rows = grid.row_names or [None]
    cols = grid.col_names or [None]
    out = {}
    for i, row_name in enumerate(rows):
        for j, col_name in enumerate(cols):
            mask = pd.Series(True, index=data.index)
            if row_name is not None:
                mask &= data[grid._row_var] == row_name
            if col_name is not None:
                mask &= data[grid._col_var] == col_name
            if not mask.any():
                continue
            ax = grid.axes[i, j] if grid._col_wrap is None else grid.axes.flat[j]
            out[ax] = {
                axis: pd.to_numeric(data.loc[mask, col], errors="coerce").to_numpy(dtype=float)
                for axis, col in data_axes.items()
            }
    return out


# -- displot -----------------------------------------------------------------------------


def _common_binwidth(
    frame: pd.DataFrame, col: str, levels: dict, names: dict, kwargs: dict, threshold: int
) -> None:
    """Give every facet bins of one width, on one grid (seaborn's common bins across facets).

    The width comes from safe edges over all facets' records; each facet's
    histplot then places its bins on multiples of it. Explicit ``bins``
    edges, ``binwidth``, ``binrange`` and ``discrete`` are left as given.
    """
    bins = kwargs.get("bins", "auto")
    if any(kwargs.get(key) is not None for key in ("binwidth", "binrange", "discrete")):
        return
    if not isinstance(bins, (str, int, np.integer)) or not kwargs.get("common_bins", True):
        return
    values = frame[col]
    pools = [rare_values(_numeric(values), threshold)]
    for role in ("row", "col"):
        if role in names:
            for level in levels[role]:
                pools.append(rare_values(_numeric(values[frame[names[role]] == level]), threshold))
    avoid = np.unique(np.concatenate(pools))
    edges = safe_edges(_numeric(values), bins, avoid=avoid)
    kwargs.pop("bins", None)
    kwargs["binwidth"] = float(edges[1] - edges[0])


#: histplot keywords that shape the release rather than the drawing.
_HIST_RELEASE_KEYS = (
    "bins",
    "binwidth",
    "binrange",
    "discrete",
    "stat",
    "epsilon",
    "mechanism",
    "delta",
)
#: histplot keywords of bivariate histograms only (ignored for one variable, as by histplot).
_HIST_BIVARIATE_KEYS = ("thresh", "pthresh", "pmax", "cbar", "cbar_ax", "cbar_kws")


def _grid_panels_apply(
    kind: str, data_roles: list[str], frame: pd.DataFrame, names: dict, weights: Any, m: Method
) -> bool:
    """Whether displot releases its facets as one grid: a bivariate histogram of counts.

    Under the counting methods (``"suppress"``, ``"generalize"``) of two
    numeric variables; the value methods' grids count moved values, which
    the ledger does not link, and each facet releases its own.
    """
    return (
        kind == "hist"
        and len(data_roles) == 2
        and m.counts_only
        and weights is None
        and all(variable_type(frame[names[r]]) == "numeric" for r in data_roles)
    )


def _panels_apply(
    kind: str,
    data_roles: list[str],
    frame: pd.DataFrame,
    names: dict,
    weights: Any,
    kws: dict,
    m: Method,
) -> bool:
    """Whether displot releases all its facets at once: counts of one numeric variable.

    Histograms (any method but ``"dp"``) and ECDFs (not ``"dp"`` or raw
    output). Under ``method="dp"`` each facet spends its own epsilon on its
    own noisy counts, which the ledger does not link.
    """
    if kind == "ecdf" and m.raw:
        return False
    return (
        kind in ("hist", "ecdf")
        and not m.private
        and len(data_roles) == 1
        and weights is None
        and variable_type(frame[names[data_roles[0]]]) == "numeric"
    )


def _facet_key(sub: pd.DataFrame, names: dict) -> tuple:
    """Return the key of the facet whose rows are `sub`, as the ``*_panels`` name it."""
    return tuple(sub[names[r]].iloc[0] for r in ("row", "col") if r in names)


def _panel_frame(
    frame: pd.DataFrame, names: dict, role: str, also: Sequence[str] = ()
) -> tuple[pd.DataFrame, list[str]]:
    """Return the variable, the hue and the facets of a figure, and the facet columns' names.

    Facet columns are named by role and variable (``"col=species"``): the
    release ledger tells two facetings of the same records apart by name.
    `also` names more roles to keep (the second variable of a bivariate plot).
    """
    columns = {names[r]: frame[names[r]] for r in (role, *also)}
    if "hue" in names:
        columns[names["hue"]] = frame[names["hue"]]
    tags = []
    for r in ("row", "col"):
        if r in names:
            tags.append(f"{r}={names[r]}")
            columns[tags[-1]] = frame[names[r]]
    return pd.DataFrame(columns), tags


def _facet_grids(frame: pd.DataFrame, names: dict, hue_order: list | None, **kws: Any) -> dict:
    """Release the 2-D grid of (x, y) of every facet and hue level together.

    :func:`~safeplot.plots.grid.grid_panels` on the figure's records, the
    facet columns named for the ledger (:func:`_panel_frame`); `kws` go to it.
    """
    from .grid import grid_panels

    panel_data, tags = _panel_frame(frame, names, "x", also=["y"])
    return grid_panels(
        panel_data,
        x=names["x"],
        y=names["y"],
        hue=names.get("hue"),
        hue_order=hue_order,
        facets=tags,
        **kws,
    )


def _facet_panels(
    kind: str,
    frame: pd.DataFrame,
    names: dict,
    role: str,
    kws: dict,
    *,
    hue_order: list | None,
    method: str,
    log_scale: Any,
    threshold: int,
    factor: int,
    k: int | None,
    q: float | None,
    algorithm: str,
    c: int | str,
    discretizer: str,
    policy: Policy,
) -> tuple[dict, dict]:
    """Release every facet of a histogram or ECDF, before any is drawn.

    (:func:`~safeplot.plots.distributions.histogram_panels`,
    :func:`~safeplot.plots.ecdf.ecdf_panels`.) Returns the releases by facet
    key, and the keywords left for drawing.
    """
    from ..methods import method_options

    data, tags = _panel_frame(frame, names, role)
    common = dict(
        hue_order=hue_order,
        method=method,
        log_scale=log_scale,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        policy=policy,
        function="displot",
    )
    with method_options(algorithm=algorithm, c=c, discretizer=discretizer):
        if kind == "ecdf":
            from .ecdf import ecdf_panels

            draw = {key: v for key, v in kws.items() if key != "bins"}
            panels = ecdf_panels(
                data,
                **{role: names[role]},
                hue=names.get("hue"),
                facets=tags,
                bins=kws.get("bins", "auto"),
                **common,
            )
            return panels, draw
        from .distributions import histogram_panels

        if not kws.get("common_bins", True):
            raise ValueError(
                "displot: common_bins=False is not supported: the facets (and hue levels) are "
                "released on one set of bins, so that the release ledger can link them to the "
                "figure without facets. Leave common_bins=True."
            )
        release = {key: kws[key] for key in _HIST_RELEASE_KEYS if key in kws}
        draw = {
            key: v
            for key, v in kws.items()
            if key not in (*_HIST_RELEASE_KEYS, *_HIST_BIVARIATE_KEYS, "common_bins")
        }
        labels = {role: names[role], "hue": names.get("hue")}
        data = data.rename(columns={names[role]: role})
        if "hue" in names:
            data = data.rename(columns={names["hue"]: "hue"})
        else:
            labels.pop("hue")
        panels = histogram_panels(
            data,
            labels,
            role,
            facets=tags,
            element=draw.get("element", "bars"),
            **common,
            **release,
        )
    return panels, draw


def displot(
    data=None,
    *,
    x=None,
    y=None,
    hue=None,
    row=None,
    col=None,
    weights=None,
    kind="hist",
    rug=False,
    rug_kws=None,
    log_scale=None,
    legend=True,
    palette=None,
    hue_order=None,
    hue_norm=None,
    color=None,
    col_wrap=None,
    row_order=None,
    col_order=None,
    height=5,
    aspect=1,
    facet_kws=None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs,
) -> FacetGrid:
    """Draw released distribution plots on a FacetGrid, as :func:`seaborn.displot` does.

    Every facet (level of `row` x level of `col`) is drawn as
    :func:`~safeplot.plots.distributions.histplot` (``kind="hist"``),
    :func:`~safeplot.plots.kde.kdeplot` (``"kde"``) or ``ecdfplot``
    (``"ecdf"``) draws it, with the same method and parameters. Histograms
    and ECDFs of one numeric variable are released together before any
    facet is drawn (:func:`~safeplot.plots.distributions.histogram_panels`,
    :func:`~safeplot.plots.ecdf.ecdf_panels`): one set of bins for the
    figure, each facet suppressed on its own counts, and the facets linked
    in the release ledger to the figure of the whole, of each facet and of
    each hue level. Histograms of two numeric variables under
    ``"suppress"`` and ``"generalize"`` are released so too, on one grid of
    cells (:func:`~safeplot.plots.grid.grid_panels`). Densities release
    each facet on its own records.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by `x`, `y`, `hue`, `row`, `col`.
    x, y : name or vector, optional
        The variable(s) to plot; both give a bivariate plot per facet.
    hue : name or vector, optional
        Levels drawn in different colours in every facet; one legend for the grid.
        A level within a facet with fewer than ``threshold`` records (``k``
        under ``"deterministic"``, ``2*k`` under ``"microaggregation"``) is
        treated as the facet's function treats it: left out of the facet with
        a note where it leaves a small level out (histograms and ECDFs under
        ``"suppress"`` and ``"generalize"``; densities under
        ``"deterministic"``, ``"microaggregation"`` and the counting
        methods), not named in the legend unless named in `hue_order`;
        refused elsewhere.
    row, col : name or vector, optional
        Facet variables. A facet needs at least ``threshold`` records
        (``2*k`` under ``"deterministic"`` and ``"microaggregation"``): a
        smaller one is left out with a note (``kind="kde"``), or refused
        (``"hist"``, ``"ecdf"``: its counts would be the figure without
        ``row``/``col`` minus the facets shown).
    weights : None
        Refused except with ``method="none"`` (as in ``histplot``).
    kind : {"hist", "kde", "ecdf"}, default "hist"
        The axes-level function drawn on every facet.
    rug : bool, default False
        Add :func:`safeplot.rugplot`'s released rug to each facet: a tick at
        each record's released value (by default the kNN centroid of `k`
        records, within each hue level), not at its raw value.
    rug_kws : dict, optional
        Passed to :func:`safeplot.rugplot` (``height``, ``color``, ...). Its
        ``method`` defaults to `method` when that moves every value
        (``"deterministic"``, ``"probabilistic"``, ...), else to the
        policy's method for point plots; binned and summary methods release
        no value per record.
    log_scale, legend, palette, hue_order, hue_norm, color : optional
        As in seaborn, passed to every facet (hue levels in one order, so
        colours match across facets).
    col_wrap, row_order, col_order, height, aspect, facet_kws : optional
        As in seaborn (:class:`seaborn.FacetGrid`). ``xlim``/``ylim`` in
        `facet_kws` are refused if equal to a rare raw value.
    method : str, optional
        Disclosure-control method of every facet (default: the policy's for
        the kind). See Methods.
    threshold : int, optional
        Minimum count of a shown bin and of a facet (default and floor: the policy's).
    factor : int, default 2
        Bin-width multiplier of ``"generalize"``.
    k : int, optional
        Records per centroid or group (``"deterministic"``, ``"microaggregation"``).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of the variable's SD (``"probabilistic"``).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    algorithm, c, discretizer : optional
        Options of ``"microaggregation"`` and ``"rounding"``.
    annotate : bool, optional
        Add each facet's method note (default: the policy's choice).
    **kwargs
        Passed to the axes-level function (``bins``, ``stat``, ``element``,
        ``multiple``, ``fill``, ``bw_adjust``, ...).

    Returns
    -------
    FacetGrid
        Each facet Axes carries its ``.safeplot_report``; the grid has
        ``.safeplot_reports`` (one per facet drawn, in facet order).

    Raises
    ------
    DisclosureError
        A facet of a histogram or ECDF with too few records, a hue level
        within a facet too small where the facet's function cannot leave it
        out, every facet too small, a parameter below a policy floor, or a
        facet the method cannot release; nothing is drawn, no figure is left
        open and nothing is logged.
    UnsafePlotError
        ``kind="ecdf"`` without a safe ``ecdfplot``.

    See Also
    --------
    safeplot.plots.distributions.histplot : The histogram of each facet.
    safeplot.plots.kde.kdeplot : The density of each facet.

    Notes
    -----
    Methods: each facet is released as the axes-level function releases
    the levels of a hue (see its Methods); in short, ``"suppress"`` and
    ``"generalize"`` remove bins (or density grid cells) with fewer than
    ``threshold`` records of that facet; ``"deterministic"`` (kNN centroids)
    and ``"microaggregation"`` form their groups within each facet;
    ``"probabilistic"`` (keyed noise), ``"rounding"`` and ``"confidential"``
    (winsorising) anonymise the values, then small bins are suppressed as
    well; ``"none"`` draws the raw facets where the policy allows raw
    output. Densities (``kind="kde"``) and ``method="dp"`` release each
    facet on its own records.

    Histogram and ECDF facets share one set of bins (seaborn's common
    bins), placed on safe edges over all facets. Shared axes get one set of
    limits spanning every facet's released range, equal to no rare raw
    value of any facet.

    References
    ----------
    .. [1] Avraam D, Wilson R, Butters O, et al. (2021). Privacy preserving data
       visualizations. EPJ Data Science 10:2.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.facets import displot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> g = displot(data=penguins, x="flipper_length_mm", col="species", height=2)
    >>> [r.method for r in g.safeplot_reports]
    ['suppress', 'suppress', 'suppress']
    >>> plt.close(g.figure)
    """
    pol = get_policy()
    resolve_annotate(annotate, pol)
    if kind not in DISPLOT_KINDS:
        raise ValueError(f"kind must be one of {list(DISPLOT_KINDS)}, got {kind!r}.")
    if kind == "ecdf":
        func = _ecdfplot()
    else:
        from .distributions import draw_histogram_panel, histplot
        from .kde import kdeplot

        func = histplot if kind == "hist" else kdeplot
    _warn_ax(kwargs, "displot", kind)
    if x is None and y is None:
        raise ValueError(
            "displot needs x= (or y=) naming the variable. For wide-form data, reshape it "
            "first (df.melt()) and pass x='value', hue='variable'."
        )
    method = pol.check_method(method, {"hist": "hist", "kde": "kde", "ecdf": "hist"}[kind])
    m = get_method(method)
    threshold = pol.check_threshold(threshold)
    frame, names = _frame(
        data, {"x": x, "y": y, "hue": hue, "row": row, "col": col, "weights": weights}, "displot"
    )
    orders = {"row": row_order, "col": col_order}
    minimum, why = _minimum(m, threshold, k, pol)
    hue_min, hue_why = _hue_minimum(m, k, pol)
    if m.private:
        from ._dp import dp_hue_levels

        # under dp every level is the call's and is drawn whatever its count: a refusal of a
        # small facet or hue level would depend on individual records
        for role, order in (("row", row_order), ("col", col_order), ("hue", hue_order)):
            dp_hue_levels("displot", names.get(role), order, role)
        minimum, hue_min = 1, None
    data_roles = [r for r in ("x", "y") if r in names]
    # a histogram's bins and an ECDF's steps are counts of each facet's records: a facet left
    # out of them would be the figure without row=/col= minus the facets shown
    counts = None
    if kind in ("hist", "ecdf"):
        what = "histogram bins" if kind == "hist" else "ECDF steps"
        counts = f"displot(kind={kind!r}) shows {what}, which are counts of each facet's records"
    shown = _check_facets(
        frame,
        names,
        orders,
        data_roles,
        minimum,
        why,
        "displot",
        hue_min=hue_min,
        hue_why=hue_why,
        counts=counts,
        hue_rule=_small_hue_rule(m, kind),
        marks=_marks(m, bool(rug)),  # rug ticks: one per record
        threshold=threshold,
    )
    frame, levels = shown.frame, shown.levels
    hue_levels = shown.order(names.get("hue"), hue_order)
    fkws, xlim, ylim = _facet_kws(facet_kws, "displot")
    kws = dict(kwargs)
    panels = None
    if _panels_apply(kind, data_roles, frame, names, weights, kws, m):
        # every facet is released before the first is drawn: one set of bins, and all facets
        # linked in the ledger as one partition of the figure's records
        panels, kws = _facet_panels(
            kind,
            frame,
            names,
            data_roles[0],
            kws,
            hue_order=hue_levels,
            method=method,
            log_scale=log_scale,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            algorithm=algorithm,
            c=c,
            discretizer=discretizer,
            policy=pol,
        )
    elif _grid_panels_apply(kind, data_roles, frame, names, weights, m):
        # a bivariate histogram of counts: every facet on one grid, all linked in the ledger
        from .distributions import draw_grid_histogram

        bins = kws.pop("bins", "auto")
        panels = _facet_grids(
            frame,
            names,
            hue_levels,
            method=method,
            bins=None if isinstance(bins, str) else bins,
            threshold=threshold,
            factor=factor,
            policy=pol,
        )
    elif kind == "hist" and len(data_roles) == 1 and not m.raw:
        _common_binwidth(frame, names[data_roles[0]], levels, names, kws, threshold)
    elif (
        kind == "hist"
        and len(data_roles) == 1
        and isinstance(kws.get("bins", "auto"), (str, int, np.integer))
        and kws.get("binwidth") is None
        and kws.get("binrange") is None
    ):
        # raw facets (policy allows raw): seaborn's common bins over all facets
        kws["bins"] = np.histogram_bin_edges(
            _numeric(frame[names[data_roles[0]]]), kws.get("bins", "auto")
        )
    if color is None and hue is None:
        color = "C0"
    tracker = _Axes({r: names[r] for r in data_roles}, threshold, m.raw)
    tracker.leave_out(shown.dropped)
    rug_kws = dict(rug_kws or {})
    if rug:
        from .rug import RUG_METHODS, rugplot

        # a rug releases one value per record: the method of the facets if it moves every
        # value, else the policy's method for point plots
        rug_method = rug_kws.pop("method", None)
        if rug_method is None:
            rug_method = method if method in RUG_METHODS else pol.check_method(None, "scatter")
        if color is not None and hue is None:
            rug_kws.setdefault("color", color)

    def draw_one(ax: Axes, sub: pd.DataFrame) -> None:
        draw_facet(ax, sub)
        if rug:
            _call(
                rugplot,
                data=sub,
                x=names.get("x"),
                y=names.get("y"),
                hue=names.get("hue"),
                hue_order=hue_levels,
                palette=palette,
                hue_norm=hue_norm,
                legend=False,
                ax=ax,
                method=rug_method,
                threshold=threshold,
                k=k,
                q=q,
                algorithm=algorithm,
                discretizer=discretizer,
                annotate=annotate,
                **rug_kws,
            )

    def draw_facet(ax: Axes, sub: pd.DataFrame) -> None:
        if panels is not None:
            panel = panels[_facet_key(sub, names)]
            if len(data_roles) == 2:  # a bivariate histogram's grid (grid_panels)
                draw, released = draw_grid_histogram, panel
                given = {"grid": panel, "x": names["x"], "y": names["y"], "hue": names.get("hue")}
            elif kind == "ecdf":
                from .ecdf import draw_ecdf

                # an ECDF release is drawn whole; a histogram panel's releases are its levels'
                draw, given = draw_ecdf, {"rel": panel, "log_scale": log_scale}
                released = panel
            else:
                draw, given, released = draw_histogram_panel, {"panel": panel}, panel.releases
            _call(
                draw,
                ax=axes_for(ax, panel.report, released),
                legend=legend,
                palette=palette,
                hue_norm=hue_norm,
                color=color,
                annotate=annotate,
                **given,
                **kws,
            )
            return
        _call(
            func,
            data=sub,
            x=names.get("x"),
            y=names.get("y"),
            hue=names.get("hue"),
            weights=names.get("weights"),
            log_scale=log_scale,
            legend=legend,
            palette=palette,
            hue_order=hue_levels,
            hue_norm=hue_norm,
            color=color,
            ax=ax,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            algorithm=algorithm,
            c=c,
            discretizer=discretizer,
            annotate=annotate,
            **kws,
        )

    with all_or_nothing():
        grid = _facet_grid(frame, names, levels, col_wrap, height, aspect, fkws)
        _draw(grid, tracker, draw_one, {"x": xlim, "y": ylim})
        xlabel, ylabel = _labels(grid)
        if legend and "hue" in names:
            hidden = shown.hidden_labels(names["hue"], hue_order)
            _legend_from_facets(grid, names["hue"], hue_levels, drop=hidden.__contains__)
        _finish_grid(grid, tracker, {"x": xlim, "y": ylim}, xlabel, ylabel, shown)
    return grid


# -- relplot -----------------------------------------------------------------------------


def _shared_grid_bins(
    frame: pd.DataFrame, by: list[str], m: Method, threshold: int, pol: Policy
) -> int | None:
    """Return one grid for every facet (and level) of a figure drawn as density cells.

    Under the grid methods each release drawn (a facet, or a facet's hue
    level) is a grid of counts. They share one size, as seaborn's facets
    share their bins: chosen by n as the heat map's
    (:func:`~safeplot.plots.grid.default_grid_bins`), from the records of a
    typical release, the records drawn over the releases that hold any.
    None under the other methods (no grid).
    """
    from .grid import default_grid_bins

    if not m.counts_only or frame.empty:
        return None
    releases = frame.groupby(by, observed=True, dropna=False).ngroups if by else 1
    return default_grid_bins(round(len(frame) / max(releases, 1)), m.name, threshold, pol)


def relplot(
    data=None,
    *,
    x=None,
    y=None,
    hue=None,
    size=None,
    style=None,
    units=None,
    weights=None,
    row=None,
    col=None,
    col_wrap=None,
    row_order=None,
    col_order=None,
    palette=None,
    hue_order=None,
    hue_norm=None,
    sizes=None,
    size_order=None,
    size_norm=None,
    markers=None,
    dashes=None,
    style_order=None,
    legend="auto",
    kind="scatter",
    height=5,
    aspect=1,
    facet_kws=None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs,
) -> FacetGrid:
    """Draw released scatter plots on a FacetGrid, as :func:`seaborn.relplot` does.

    Every facet is drawn by :func:`~safeplot.plots.relational.scatterplot`
    on that facet's records, with the same method and parameters. Under the
    grid methods (``"suppress"``, ``"generalize"``) the facets' cells are
    released together first, on one grid, and linked in the release ledger
    to the scatter plot without ``row``/``col``
    (:func:`~safeplot.plots.relational.scatter_cell_panels`).

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by the other arguments.
    x, y : name or vector
        The two numeric variables.
    hue, size, style : name or vector, optional
        Semantic variables, as in :func:`~safeplot.plots.relational.scatterplot`.
        A categorical hue level within a facet too small for the method is
        left out of that facet with a note, as ``scatterplot`` leaves it out
        (``"deterministic"``, ``"microaggregation"``, ``"confidential"``
        and the grid-cell methods), and refused under ``"probabilistic"``
        and ``"rounding"``.
    units, weights : None
        Used by line plots only (seaborn warns and ignores them for scatter plots; so does this).
    row, col : name or vector, optional
        Facet variables. A facet needs at least ``threshold`` records
        (``2*k`` under ``"deterministic"`` and ``"microaggregation"``): a
        smaller one is left out with a note, or refused under the grid-cell
        methods (``"suppress"``, ``"generalize"``), whose counts the figure
        without ``row``/``col`` would difference.
    col_wrap, row_order, col_order, height, aspect, facet_kws : optional
        As in seaborn (:class:`seaborn.FacetGrid`).
    palette, hue_order, hue_norm, sizes, size_order, size_norm, markers, style_order : optional
        As in seaborn, passed to every facet.
    dashes : optional
        Line plots only; ignored.
    legend : "auto", "brief", "full" or False
        A categorical hue/style legend is drawn once for the grid; numeric
        hue or size legends, and the cell-count legends of ``"suppress"``
        and ``"generalize"``, stay on each facet (their scales are per facet).
    kind : {"scatter", "line"}, default "scatter"
        ``"line"`` draws :func:`~safeplot.plots.line.lineplot` per facet: the
        estimate of y per x value over at least ``threshold`` records
        (method default ``"suppress"``), with `units`, `weights` and `size`
        refused as there.
    method : str, optional
        Disclosure-control method of every facet (default: the policy's for
        scatter plots, ``"deterministic"``).
    threshold, factor, k, q, metric, algorithm, discretizer : optional
        As in :func:`~safeplot.plots.relational.scatterplot`; ``c=`` (rounding)
        is taken from `kwargs` with ``method="rounding"``, and ``bins=`` too
        (under ``"suppress"``/``"generalize"`` one grid size for every facet,
        by default chosen by n from the records of a typical facet).
    annotate : bool, optional
        Add each facet's method note (default: the policy's choice).
    **kwargs
        Passed to ``scatterplot`` and on to matplotlib.

    Returns
    -------
    FacetGrid
        Facet Axes carry ``.safeplot_report``; the grid ``.safeplot_reports``.

    Raises
    ------
    DisclosureError
        A hue level within a facet too small under a method that draws each
        record on its own, every facet too small, a small facet of grid
        cells, or a parameter below a policy floor; nothing is drawn or
        logged.

    See Also
    --------
    safeplot.plots.relational.scatterplot : The plot of each facet.
    lmplot : Scatter plots with a fitted trend per facet.

    Notes
    -----
    Methods: ``"deterministic"`` replaces each record of a facet by the
    centroid of its k nearest neighbours within the facet (and hue level),
    rescaled to the facet's mean and SD; ``"probabilistic"`` adds keyed noise
    (SD = q x the facet's SD); ``"microaggregation"`` and ``"rounding"``
    replace values by group means or representative points; ``"suppress"``
    and ``"generalize"`` show the cells of the facet's density grid with at
    least ``threshold`` records; ``"confidential"`` draws O'Keefe's parallel
    box plots per facet; ``"none"`` draws raw points where the policy allows.

    Shared axes get one set of limits spanning every facet's released range,
    equal to no rare raw value of any facet.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.facets import relplot
    >>> tips = safeplot.load_dataset("tips")
    >>> g = relplot(data=tips, x="total_bill", y="tip", col="time", height=2)
    >>> g.safeplot_reports[0].method
    'deterministic'
    >>> plt.close(g.figure)
    """
    from .relational import map_types as _map_types
    from .relational import scatterplot

    pol = get_policy()
    resolve_annotate(annotate, pol)
    if kind == "line":
        return _relplot_line(
            data,
            roles={"x": x, "y": y, "hue": hue, "size": size, "style": style},
            facets={"row": row, "col": col},
            orders={"row": row_order, "col": col_order},
            units=units,
            weights=weights,
            col_wrap=col_wrap,
            palette=palette,
            hue_order=hue_order,
            sizes=sizes,
            size_order=size_order,
            size_norm=size_norm,
            dashes=True if dashes is None else dashes,
            markers=markers,
            style_order=style_order,
            legend=legend,
            height=height,
            aspect=aspect,
            facet_kws=facet_kws,
            method=method,
            threshold=threshold,
            k=k,
            q=q,
            algorithm=algorithm,
            discretizer=discretizer,
            annotate=annotate,
            pol=pol,
            kwargs=kwargs,
        )
    if kind != "scatter":
        raise ValueError(f"Plot kind {kind} not recognized")
    _warn_ax(kwargs, "relplot", kind)
    for name, value in (("units", units), ("weights", weights)):
        if value is not None:
            warnings.warn(
                f"The `{name}` parameter has no effect with kind='scatter'.", stacklevel=2
            )
    if x is None or y is None:
        raise ValueError("relplot needs both x= and y= naming numeric variables.")
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    threshold = pol.check_threshold(threshold)
    roles = {"x": x, "y": y, "hue": hue, "size": size, "style": style, "row": row, "col": col}
    frame, names = _frame(data, roles, "relplot")
    orders = {"row": row_order, "col": col_order}
    minimum, why = _minimum(m, threshold, k, pol)
    pdata = plot_data(
        frame, {r: names[r] for r in ("x", "y", "hue", "size") if r in names}, function="relplot"
    )
    types = _map_types(pdata, palette, hue_norm, sizes, size_norm)
    categorical_hue = "hue" in names and types.get("hue") == "categorical"
    hue_min, hue_why = _hue_minimum(m, k, pol) if categorical_hue else (None, "")
    # under the grid methods each facet shows counts of its records in cells, which the
    # figure without row=/col= would difference
    counts = None
    if m.counts_only or m.private:
        counts = f"method={method!r} shows counts of each facet's records in grid cells"
    shown = _check_facets(
        frame,
        names,
        orders,
        ["x", "y"],
        minimum,
        why,
        "relplot",
        hue_min=hue_min,
        hue_why=hue_why,
        counts=counts,
        hue_rule=_small_hue_rule(m, "scatter"),
        marks=_marks(m, counts is None),  # a marker per record, under the value methods
        threshold=threshold,
    )
    frame, levels = shown.frame, shown.levels
    if "bins" not in kwargs:  # one grid size for every facet
        facet_cols = [names[r] for r in ("row", "col") if r in names]
        kwargs["bins"] = _shared_grid_bins(frame, facet_cols, m, threshold, pol)
    hue_levels = hue_order
    if categorical_hue:
        hue_levels = shown.order(names["hue"], hue_order)
    style_levels = shown.order(names.get("style"), style_order)
    # under the grid methods, markers are cells sized by their count on each facet's own
    # scale; the count entries are left out of the grid's legend
    cells = m.counts_only
    one_legend = (
        legend and types.get("hue", "categorical") == "categorical" and "size" not in names
    )
    fkws, xlim, ylim = _facet_kws(facet_kws, "relplot")
    tracker = _Axes({"x": names["x"], "y": names["y"]}, threshold, m.raw)
    tracker.leave_out(shown.dropped)
    panels = None
    if cells and "size" not in names and types.get("hue", "categorical") == "categorical":
        # every facet's cells on one grid, linked in the ledger to the figure without
        # row=/col= (whose cells minus the facets' would give a suppressed one), then drawn
        from .relational import draw_scatter_release, scatter_cell_panels

        panel_data, tags = _panel_frame(
            frame, names, "x", also=[r for r in ("y", "style") if r in names]
        )
        panels = scatter_cell_panels(
            panel_data,
            x=names["x"],
            y=names["y"],
            hue=names.get("hue"),
            style=names.get("style"),
            orders={"hue": hue_levels, "style": style_levels},
            facets=tags,
            method=method,
            bins=kwargs.get("bins"),
            threshold=threshold,
            factor=factor,
            policy=pol,
        )

    # how every facet is drawn, whether released here (cells) or by scatterplot
    style = dict(
        palette=palette,
        hue_order=hue_levels,
        hue_norm=hue_norm,
        sizes=sizes,
        size_order=size_order,
        size_norm=size_norm,
        markers=True if markers is None else markers,
        style_order=style_levels,
        legend=legend,
    )

    def draw_one(ax: Axes, sub: pd.DataFrame) -> None:
        key = _facet_key(sub, names)
        if panels is not None and key in panels:
            rel = panels[key]
            draw_scatter_release(
                rel,
                ax=axes_for(ax, rel.report, rel),
                annotate=annotate,
                policy=pol,
                **style,
                **{name: v for name, v in kwargs.items() if name != "bins"},
            )
            return
        _call(
            scatterplot,
            data=sub,
            x=names["x"],
            y=names["y"],
            hue=names.get("hue"),
            size=names.get("size"),
            style=names.get("style"),
            **style,
            ax=ax,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            metric=metric,
            algorithm=algorithm,
            discretizer=discretizer,
            annotate=annotate,
            **kwargs,
        )

    with all_or_nothing():
        grid = _facet_grid(frame, names, levels, col_wrap, height, aspect, fkws, dropna=False)
        _draw(grid, tracker, draw_one, {"x": xlim, "y": ylim})
        xlabel, ylabel = _labels(grid)
        if one_legend:
            titles = {names.get("hue"), names.get("style")} - {None}

            hidden = shown.hidden_labels(names.get("hue"), hue_order)

            def drop(lab: str) -> bool:
                if lab in hidden:
                    return True  # a hue level left out of every facet that holds it
                return cells and (_is_number(lab) or lab.startswith("count") or lab in titles)

            _legend_from_facets(
                grid, names.get("hue") if cells and len(titles) == 1 else None, None, drop=drop
            )
        elif legend and categorical_hue:
            # the legends stay on the facets (a numeric size has each facet's own scale)
            _drop_from_legends(grid, shown.hidden_labels(names["hue"], hue_order))
        _finish_grid(grid, tracker, {"x": xlim, "y": ylim}, xlabel, ylabel, shown)
    return grid


def _relplot_line(
    data: Any,
    *,
    roles: dict[str, Any],
    facets: dict[str, Any],
    orders: dict[str, Any],
    units: Any,
    weights: Any,
    col_wrap: int | None,
    palette: Any,
    hue_order: Any,
    sizes: Any,
    size_order: Any,
    size_norm: Any,
    dashes: Any,
    markers: Any,
    style_order: Any,
    legend: Any,
    height: float,
    aspect: float,
    facet_kws: dict | None,
    method: str | None,
    threshold: int | None,
    k: int,
    q: float,
    algorithm: str,
    discretizer: str,
    annotate: bool | None,
    pol: Policy,
    kwargs: dict[str, Any],
) -> FacetGrid:
    """Draw relplot(kind="line"): a released line plot per facet (``lineplot``).

    Every facet releases its own estimates per x value (and bins a
    continuous x on its own safe grid); the shared axes are agreed from the
    releases, as for scatter plots.
    """
    from .line import lineplot

    _warn_ax(kwargs, "relplot", "line")
    if roles["x"] is None or roles["y"] is None:
        raise ValueError("relplot(kind='line') needs both x= and y= naming numeric variables.")
    method = pol.check_method(method, "count")
    m = get_method(method)
    threshold = pol.check_threshold(threshold)
    frame, names = _frame(data, {**roles, **facets}, "relplot")
    minimum, why = _minimum(m, threshold, k, pol)
    # each facet's line is an estimate (mean or median) per x value of at least threshold
    # records, not a count: a facet left out cannot be differenced from the whole
    shown = _check_facets(frame, names, orders, ["x", "y"], minimum, why, "relplot")
    frame, levels = shown.frame, shown.levels
    hue_levels = shown.order(names.get("hue"), hue_order)
    style_levels = shown.order(names.get("style"), style_order)
    # every facet places a size level among all of them: a categorical level has one width
    size_levels = shown.order(names.get("size"), size_order)
    fkws, xlim, ylim = _facet_kws(facet_kws, "relplot")
    tracker = _Axes({"x": names["x"], "y": names["y"]}, threshold, m.raw)
    tracker.leave_out(shown.dropped)

    def draw_one(ax: Axes, sub: pd.DataFrame) -> None:
        lineplot(
            sub,
            x=names["x"],
            y=names["y"],
            hue=names.get("hue"),
            size=names.get("size"),
            style=names.get("style"),
            units=units,
            weights=weights,
            palette=palette,
            hue_order=hue_levels,
            sizes=sizes,
            size_order=size_levels,
            size_norm=size_norm,
            dashes=dashes,
            markers=markers,
            style_order=style_levels,
            legend=legend,
            ax=ax,
            method=method,
            threshold=threshold,
            k=k,
            q=q,
            algorithm=algorithm,
            discretizer=discretizer,
            annotate=annotate,
            **kwargs,
        )

    with all_or_nothing():
        grid = _facet_grid(frame, names, levels, col_wrap, height, aspect, fkws, dropna=False)
        _draw(grid, tracker, draw_one, {"x": xlim, "y": ylim})
        xlabel, ylabel = _labels(grid)
        if legend and ("hue" in names or "style" in names or "size" in names):
            _legend_from_facets(grid, None, None)
        _finish_grid(grid, tracker, {"x": xlim, "y": ylim}, xlabel, ylabel, shown)
    return grid


# -- catplot -----------------------------------------------------------------------------


def _cat_orient(frame: pd.DataFrame, names: dict, orient: str | None, kind: str) -> str:
    """'x' (categories along x, values on y) or 'y', by seaborn's rules.

    With one variable, the other axis holds the values; with both, an
    explicit `orient` or the variables' types decide (:func:`infer_orient`).
    """
    if kind == "count":
        return "y" if "x" not in names else "x"
    if "x" not in names:
        return "x"
    if "y" not in names:
        return "y"
    return infer_orient(frame[names["x"]], frame[names["y"]], orient)


def _catplot_counts(kind: str, estimator: Any) -> str | None:
    """Why the facets of a catplot release counts or totals (None: they do not).

    Counts, and sums and counts as a bar's estimator, add up over the
    facets: the figure without row=/col= minus the facets shown would give
    those of a facet left out. Means, medians, spreads, quantiles, densities
    and anonymised points do not add up so.
    """
    if kind == "count":
        return "catplot(kind='count') shows counts of each facet's records"
    name = estimator if isinstance(estimator, str) else getattr(estimator, "__name__", "")
    if kind in ("bar", "point") and name in ("sum", "count", "size", "len", "nansum"):
        return f"catplot(kind={kind!r}, estimator={name!r}) shows totals of each facet's records"
    return None


def _hide_small_levels(
    shown: _Shown,
    names: dict,
    roles: dict[str, tuple[list | None, list | None, bool]],
    floor: tuple[int, str],
) -> tuple[list | None, list | None]:
    """Take out of the orders the levels whose every group is too small to draw.

    `roles` maps the category role and ``"hue"`` to (levels, the caller's
    order, whether its levels may be hidden). A group is a combination of
    a facet, a category and a hue level; a level none of whose groups holds
    `floor` records is drawn in no facet, so it is left out of the order
    passed to each facet's function (its records are then not drawn; the
    values no limit or statistic may equal stay those of every record). A
    level the caller named keeps its place, drawn empty. The facets'
    reports and note say that groups were left out, not which.
    """
    need, why = floor
    present: list[str] = []
    for r in roles:
        if r in names and names[r] not in [names[p] for p in present]:
            present.append(r)  # a hue that is the category variable is one grouping
    frame = shown.frame
    out: dict[str, list | None] = {r: roles[r][0] for r in roles}
    if not present or frame.empty:
        return out[next(iter(roles))], out["hue"]
    by = [names[r] for r in ("row", "col") if r in names] + [names[r] for r in present]
    sizes = frame.groupby(by, observed=True, dropna=True).size()
    hidden = 0
    for i, role in enumerate(present):
        levels, order, may_hide = roles[role]
        if levels is None or not may_hide or order is not None:
            continue
        pos = len(by) - len(present) + i
        keys = (
            sizes.index if isinstance(sizes.index, pd.MultiIndex) else [(k,) for k in sizes.index]
        )
        big = {_key(k)[pos] for k, n in zip(keys, sizes.to_numpy(), strict=True) if n >= need}
        gone = [lev for lev in levels if lev not in big]
        if gone and len(gone) < len(levels):
            out[role] = [lev for lev in levels if lev in big]
            hidden += len(gone)
    if hidden:
        shown.left_out += hidden
        shown.warnings.append(
            f"{hidden} level(s) with fewer than {need} records ({why}) in every group are "
            "not drawn."
        )
    return out[next(iter(roles))], out["hue"]


def catplot(
    data=None,
    *,
    x=None,
    y=None,
    hue=None,
    row=None,
    col=None,
    kind="strip",
    estimator="mean",
    errorbar=("ci", 95),
    n_boot=1000,
    seed=None,
    units=None,
    weights=None,
    order=None,
    hue_order=None,
    row_order=None,
    col_order=None,
    col_wrap=None,
    height=5,
    aspect=1,
    log_scale=None,
    native_scale=False,
    formatter=None,
    orient=None,
    color=None,
    palette=None,
    hue_norm=None,
    legend="auto",
    legend_out=True,
    sharex=True,
    sharey=True,
    margin_titles=False,
    facet_kws=None,
    ci="deprecated",
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs,
) -> FacetGrid:
    """Draw released categorical plots on a FacetGrid, as :func:`seaborn.catplot` does.

    Every facet is drawn by :func:`~safeplot.plots.categorical.boxplot`
    (``kind="box"``), :func:`~safeplot.plots.categorical.countplot`
    (``"count"``) or ``barplot`` (``"bar"``) on that facet's records, with
    the same method and parameters.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by the other arguments.
    x, y, hue : name or vector, optional
        As in seaborn: a category and a value (``"box"``, ``"bar"``), or one
        category (``"count"``).
    row, col : name or vector, optional
        Facet variables. A facet needs at least ``threshold`` records (``2*k``
        under ``"deterministic"`` and ``"microaggregation"``): a smaller one
        is left out with a note, or refused by the kinds that show counts or
        totals (``"count"``, and ``"bar"``/``"point"`` with a count or sum
        estimator), whose counts the figure without ``row``/``col`` would
        difference.
    kind : str, default "strip"
        ``"strip"``, ``"swarm"``, ``"box"``, ``"violin"``, ``"boxen"``,
        ``"count"``, ``"bar"`` or ``"point"``: each facet is drawn by the
        safe function of that name (``stripplot``, ``violinplot``, ...).
    estimator, errorbar, n_boot, seed, units, weights : optional
        Used by ``kind="bar"`` and ``"point"`` (passed to ``barplot`` or
        ``pointplot``). With ``"box"`` and
        ``"count"``, `units` and `weights` are refused (they would change what
        is released) and the others are ignored, as seaborn ignores them.
    order, hue_order : list, optional
        Category and hue levels, in one order for every facet.
    row_order, col_order, col_wrap, height, aspect, facet_kws : optional
        As in seaborn (:class:`seaborn.FacetGrid`).
    log_scale, native_scale, formatter, orient, color, palette, hue_norm : optional
        As in seaborn, passed to every facet.
    legend : "auto", "brief", "full" or False
        One legend for the grid, as in seaborn.
    legend_out, sharex, sharey, margin_titles : optional
        As in seaborn.
    ci : deprecated
        As in seaborn 0.13 (use `errorbar`).
    method : str, optional
        Disclosure-control method of every facet (default: the policy's for
        the kind: ``"deterministic"`` for box, ``"suppress"`` for count).
    threshold, factor, k, q, algorithm, c, discretizer : optional
        As in the axes-level function.
    annotate : bool, optional
        Add each facet's method note (default: the policy's choice).
    **kwargs
        Passed to the axes-level function (``whis``, ``stat``, ``width``, ...).

    Returns
    -------
    FacetGrid
        Facet Axes carry ``.safeplot_report``; the grid ``.safeplot_reports``.

    Raises
    ------
    UnsafePlotError
        ``kind="bar"`` without a safe ``barplot``.
    DisclosureError
        A facet of counts with too few records, every facet too small, a
        facet none of whose groups can be shown, or a parameter below a
        policy floor; nothing is drawn or logged. (A single box of too few
        records is left out of its facet with a note, as
        :func:`~safeplot.plots.categorical.boxplot` leaves it out.)

    See Also
    --------
    safeplot.plots.categorical.boxplot : The box plot of each facet.
    safeplot.plots.categorical.countplot : The counts of each facet.

    Notes
    -----
    Methods: with ``kind="box"`` each facet's boxes are released as
    ``boxplot`` releases them (``"deterministic"``, ``"probabilistic"``,
    ``"microaggregation"``, ``"rounding"``: boxes of the anonymised values;
    ``"suppress"``/``"generalize"``: boxes from a suppressed histogram;
    ``"confidential"``: O'Keefe's winsorised, rounded five-number summaries
    with no fliers). With ``kind="count"`` each facet's counts below
    ``threshold`` are suppressed (``"suppress"``), merged into coarser
    levels (``"generalize"``) or rounded (``"confidential"``).

    With ``kind="strip"`` (the default) and ``"swarm"`` each facet draws
    one anonymised value per record (``stripplot``: kNN centroids formed
    within each category x hue group, or values plus keyed noise);
    ``"violin"`` draws kdeplot's released density per group and
    ``"boxen"`` letter values from released quantiles.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.facets import catplot
    >>> tips = safeplot.load_dataset("tips")
    >>> g = catplot(data=tips, x="day", y="total_bill", col="sex", kind="box", height=2)
    >>> g.safeplot_reports[0].method
    'deterministic'
    >>> plt.close(g.figure)
    """
    from .categorical import boxplot, countplot

    pol = get_policy()
    resolve_annotate(annotate, pol)
    if kind not in CATPLOT_KINDS:
        raise ValueError(
            f"Invalid `kind`: {kind!r}. Options are 'strip', 'swarm', "
            "'box', 'boxen', 'violin', 'bar', 'count', and 'point'."
        )
    _warn_ax(kwargs, "catplot", kind)
    from .boxen import boxenplot
    from .point import pointplot
    from .strip import stripplot, swarmplot
    from .violin import violinplot

    func = {
        "box": boxplot,
        "count": countplot,
        "point": pointplot,
        "violin": violinplot,
        "boxen": boxenplot,
        "strip": stripplot,
        "swarm": swarmplot,
    }.get(kind) or _barplot()
    if kind not in ("bar", "point"):
        for name, value in (("units", units), ("weights", weights)):
            if value is not None:
                raise ValueError(
                    f"catplot(kind={kind!r}): {name}= is not supported; it would change what "
                    "each facet releases. Leave it out."
                )
    if kind == "count" and x is not None and y is not None:
        raise ValueError("Cannot pass values for both `x` and `y`.")
    if x is None and y is None:
        raise ValueError(
            "catplot needs x= and/or y= naming the variables (reshape wide-form data with "
            "df.melt() first)."
        )
    method = pol.check_method(
        method,
        {
            "box": "box",
            "count": "count",
            "bar": "count",
            "point": "count",
            "violin": "box",
            "boxen": "box",
            "strip": "scatter",
            "swarm": "scatter",
        }[kind],
    )
    m = get_method(method)
    threshold = pol.check_threshold(threshold)
    roles = {"x": x, "y": y, "hue": hue, "row": row, "col": col}
    frame, names = _frame(data, roles, "catplot")
    orders = {"row": row_order, "col": col_order}
    cat_axis = _cat_orient(frame, names, orient, kind)
    value_axis = "y" if cat_axis == "x" else "x"
    minimum, why = _minimum(m, threshold, k, pol)
    complete = [value_axis] if kind != "count" and value_axis in names else []
    shown = _check_facets(
        frame,
        names,
        orders,
        complete,
        minimum,
        why,
        "catplot",
        counts=_catplot_counts(kind, estimator),
        marks=_marks(m, kind in ("strip", "swarm")),  # a marker per record
        threshold=threshold,
    )
    frame, levels = shown.frame, shown.levels
    cat_levels = shown.order(names.get(cat_axis), order)
    if kind == "count" and order is None and not m.raw and cat_axis in names:
        # one category axis for every facet, without the labels of categories held by fewer
        # than threshold records (each facet's countplot would suppress or merge them)
        counts = frame[names[cat_axis]].value_counts()
        cat_levels = [lev for lev in cat_levels if counts.get(lev, 0) >= threshold] or None
    hue_levels = shown.order(names.get("hue"), hue_order)
    numeric_cat = cat_axis in names and pd.api.types.is_numeric_dtype(frame[names[cat_axis]])
    if kind in ("box", "violin", "boxen", "bar", "point") and not m.raw:
        # each facet's function draws a group (category x hue level) only when it holds the
        # method's floor of records; a level too small in every facet is not passed on in
        # the order, so that no tick label or legend entry names it (DESIGN invariant 3)
        cat_levels, hue_levels = _hide_small_levels(
            shown,
            names,
            {cat_axis: (cat_levels, order, not (native_scale and numeric_cat)),
             "hue": (hue_levels, hue_order, True)},
            m.group_floor(pol, k),
        )  # fmt: skip
    data_axes = {}
    if kind != "count" and value_axis in names:
        data_axes[value_axis] = names[value_axis]
    if native_scale and numeric_cat:
        data_axes[cat_axis] = names[cat_axis]
    fkws, xlim, ylim = _facet_kws(facet_kws, "catplot")
    fkws.setdefault("sharex", sharex)
    fkws.setdefault("sharey", sharey)
    fkws.setdefault("legend_out", legend_out)
    fkws.setdefault("margin_titles", margin_titles)
    extra = {}
    if kind in ("bar", "point"):
        extra = {
            "estimator": estimator,
            "errorbar": errorbar,
            "n_boot": n_boot,
            "seed": seed,
            "units": names.get("units", units),
            "weights": weights,
        }
        if ci != "deprecated":
            extra["ci"] = ci
    tracker = _Axes(data_axes, threshold, m.raw)
    tracker.leave_out(shown.dropped)
    panels = None
    if kind == "count" and not m.raw and not m.private:
        # every facet's counts are released together, so that the release ledger links them
        # to the figure without row=/col= (whose bars minus the facets' would give a
        # suppressed bar), then drawn
        from .categorical import count_panels, draw_count_release

        panel_data, tags = _panel_frame(frame, names, cat_axis)
        panels = count_panels(
            panel_data,
            **{cat_axis: names[cat_axis]},
            hue=names.get("hue"),
            order=cat_levels,
            hue_order=hue_levels,
            orient=orient,
            stat=kwargs.get("stat", "count"),
            method=method,
            threshold=threshold,
            facets=tags,
            policy=pol,
        )

    def draw_one(ax: Axes, sub: pd.DataFrame) -> None:
        key = _facet_key(sub, names)
        if panels is not None and key in panels:
            draw_count_release(
                panels[key],
                ax=ax,
                color=color,
                palette=palette,
                hue_norm=hue_norm,
                native_scale=native_scale,
                log_scale=log_scale,
                formatter=formatter,
                legend=legend,
                annotate=annotate,
                policy=pol,
                **{name: v for name, v in kwargs.items() if name != "stat"},
            )
            return
        _call(
            func,
            data=sub,
            x=names.get("x"),
            y=names.get("y"),
            hue=names.get("hue"),
            order=cat_levels,
            hue_order=hue_levels,
            orient=orient,
            color=color,
            palette=palette,
            hue_norm=hue_norm,
            native_scale=native_scale,
            log_scale=log_scale,
            formatter=formatter,
            legend=legend,
            ax=ax,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            algorithm=algorithm,
            c=c,
            discretizer=discretizer,
            annotate=annotate,
            **extra,
            **kwargs,
        )

    with all_or_nothing():
        grid = _facet_grid(frame, names, levels, col_wrap, height, aspect, fkws, dropna=False)
        _draw(grid, tracker, draw_one, {"x": xlim, "y": ylim})
        xlabel, ylabel = _labels(grid)
        if legend and "hue" in names and names["hue"] not in (names.get(cat_axis),):
            _legend_from_facets(grid, names["hue"], hue_levels)
        else:
            for ax in grid.axes.flat:
                if ax.get_legend() is not None:
                    ax.get_legend().remove()
        _finish_grid(grid, tracker, {"x": xlim, "y": ylim}, xlabel, ylabel, shown)
    return grid


# -- lmplot ------------------------------------------------------------------------------


def lmplot(
    data,
    *,
    x=None,
    y=None,
    hue=None,
    col=None,
    row=None,
    palette=None,
    col_wrap=None,
    height=5,
    aspect=1,
    markers="o",
    sharex=None,
    sharey=None,
    hue_order=None,
    col_order=None,
    row_order=None,
    legend=True,
    legend_out=None,
    x_estimator=None,
    x_bins=None,
    x_ci="ci",
    scatter=True,
    fit_reg=True,
    ci=95,
    n_boot=1000,
    units=None,
    seed=None,
    order=1,
    logistic=False,
    lowess=False,
    robust=False,
    logx=False,
    x_partial=None,
    y_partial=None,
    truncate=True,
    x_jitter=None,
    y_jitter=None,
    scatter_kws=None,
    line_kws=None,
    facet_kws=None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    bins: int | None = None,
) -> FacetGrid:
    """Draw released scatter plots with fitted lines on a FacetGrid, as :func:`seaborn.lmplot`.

    Every facet, and every hue level within it, is drawn by
    :func:`~safeplot.plots.regression.regplot` on those records: the points
    are released under the method, and the line is fitted to the raw records
    (an aggregate) but drawn only over the released range of x. Under
    ``"suppress"`` and ``"generalize"`` the cells of every facet and hue
    level are released first, together, on one grid
    (:func:`~safeplot.plots.grid.grid_panels`), and linked in the release
    ledger to the scatter plot without facets; each regplot then draws its
    level's cells.

    Parameters
    ----------
    data : DataFrame
        Long-form data; `x`, `y`, `hue`, `col`, `row` name its columns.
    x, y : str
        The numeric variables.
    hue : str, optional
        One released scatter and one fit per level, in the grid's palette.
    col, row : str, optional
        Facet variables. A facet needs at least ``threshold`` records, and a
        hue level within a facet as many (``2*k`` under ``"deterministic"``
        and ``"microaggregation"``): a smaller facet, or hue level of a
        facet, is left out with a note (refused under the grid-cell methods
        ``"suppress"`` and ``"generalize"``).
    palette, col_wrap, height, aspect, hue_order, col_order, row_order : optional
        As in seaborn.
    markers : marker or list, default "o"
        One marker, or one per hue level.
    sharex, sharey, legend_out : bool, optional
        Deprecated in seaborn in favour of `facet_kws`; still honoured.
    legend : bool, default True
        One legend of the hue levels for the grid.
    x_estimator, x_bins, x_ci, scatter, fit_reg, ci, n_boot, units, seed : optional
        As in :func:`~safeplot.plots.regression.regplot`.
    order, logistic, lowess, robust, logx, x_partial, y_partial, truncate : optional
        As in :func:`~safeplot.plots.regression.regplot`.
    x_jitter, y_jitter, scatter_kws, line_kws : optional
        As in :func:`~safeplot.plots.regression.regplot`.
    facet_kws : dict, optional
        Passed to :class:`seaborn.FacetGrid`.
    method : str, optional
        Disclosure-control method of every panel (default: the policy's for
        scatter plots, ``"deterministic"``).
    threshold, factor, k, q, metric, algorithm, c, discretizer : optional
        As in :func:`~safeplot.plots.regression.regplot`.
    annotate : bool, optional
        Add each facet's method note (default: the policy's choice).
    bins : int, optional
        Cells per axis of the density grid of ``"suppress"`` and
        ``"generalize"``, the same in every facet and hue level. Default:
        chosen by n as the heat map's, from the records of a typical facet
        and hue level.

    Returns
    -------
    FacetGrid
        Facet Axes carry ``.safeplot_report`` (merged over hue levels); the
        grid ``.safeplot_reports``. Each regplot call is one audit entry.

    Raises
    ------
    DisclosureError
        Every facet too small, a small facet of grid cells, or a parameter
        below a policy floor; nothing is drawn or logged.

    See Also
    --------
    safeplot.plots.regression.regplot : The plot of each facet and hue level.
    relplot : Released scatter plots per facet without a fit.

    Notes
    -----
    Methods: the points of each facet and hue level are released as
    ``regplot`` releases them: ``"deterministic"`` kNN centroids,
    ``"probabilistic"`` keyed noise, ``"microaggregation"`` group means,
    ``"rounding"`` representative points, ``"suppress"``/``"generalize"``
    the surviving cells of a density grid, ``"confidential"`` parallel box
    plots (with a lowess trend when ``lowess=True``). The fitted line is an
    aggregate of the raw records, drawn over the released range of x with
    its values moved off rare raw values; confidence bands likewise.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.facets import lmplot
    >>> tips = safeplot.load_dataset("tips")
    >>> g = lmplot(tips, x="total_bill", y="tip", col="time", height=2, n_boot=50, seed=0)
    >>> g.safeplot_reports[0].method
    'deterministic'
    >>> plt.close(g.figure)
    """
    from .regression import regplot

    pol = get_policy()
    resolve_annotate(annotate, pol)
    fkws, xlim, ylim = _facet_kws(facet_kws, "lmplot")
    for key, value in (("sharex", sharex), ("sharey", sharey), ("legend_out", legend_out)):
        if value is not None:
            warnings.warn(
                f"{key} is deprecated from the `lmplot` function signature. "
                "Please update your code to pass it using `facet_kws`.",
                UserWarning,
                stacklevel=2,
            )
            fkws[key] = value
    if data is None:
        raise TypeError("Missing required keyword argument `data`.")
    if x is None or y is None:
        raise ValueError("lmplot needs both x= and y= naming numeric columns of data.")
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    threshold = pol.check_threshold(threshold)
    roles = {"x": x, "y": y, "hue": hue, "row": row, "col": col}
    frame, names = _frame(data, roles, "lmplot")
    for extra_name in (units, x_partial, y_partial):
        if extra_name is not None and isinstance(extra_name, str):
            frame[extra_name] = data[extra_name].reset_index(drop=True)
    orders = {"row": row_order, "col": col_order}
    minimum, why = _minimum(m, threshold, k, pol)
    # each hue level of a facet is its own regplot release, so it needs what a facet needs
    # each hue level of a facet is its own regplot release, so it needs what a facet needs, and
    # is left out of its facet as a facet is left out of the grid
    shown = _check_facets(
        frame,
        names,
        orders,
        ["x", "y"],
        minimum,
        why,
        "lmplot",
        hue_min=None if m.raw else minimum,
        hue_why=why,
        counts=f"method={method!r} shows counts of each facet's records in grid cells"
        if m.counts_only
        else None,
        hue_left_out=True,
        marks=_marks(m, bool(scatter) and not m.counts_only),  # the scatter's markers
        threshold=threshold,
    )
    all_hue = categorical_order(frame[names["hue"]], hue_order) if "hue" in names else None
    frame, levels = shown.frame, shown.levels
    if bins is None:  # one grid size for every facet and hue level
        by = [names[r] for r in ("row", "col", "hue") if r in names]
        bins = _shared_grid_bins(frame, by, m, threshold, pol)
    hue_levels = shown.order(names.get("hue"), hue_order)
    n_markers = 1 if all_hue is None else len(all_hue)
    marker_list = markers if isinstance(markers, list) else [markers] * n_markers
    if len(marker_list) != n_markers:
        raise ValueError(
            "markers must be a singleton or a list of markers for each level of the hue variable"
        )
    if all_hue is not None and hue_levels is not None:
        # a hue level left out everywhere is gone; the others keep their markers
        by_level = dict(zip(all_hue, marker_list, strict=True))
        marker_list = [by_level[lev] for lev in hue_levels]
    tracker = _Axes({"x": names["x"], "y": names["y"]}, threshold, m.raw)
    tracker.leave_out(shown.dropped)
    cells = None
    if m.counts_only and scatter and x_estimator is None and x_bins is None:
        # every facet's and hue level's cells on one grid, linked in the ledger to the scatter
        # plot without row=/col= (whose cells minus the facets' would give a suppressed one),
        # released before any is drawn; each regplot then draws its level's cells
        from .relational import grid_points

        cells = _facet_grids(
            frame,
            names,
            hue_levels,
            method=m.name,
            bins=bins,
            threshold=threshold,
            factor=factor,
            function="lmplot",
            policy=pol,
            kind="scatter",
        )

    def points_of(sub: pd.DataFrame, h: int) -> Any:
        """Return the released cells of one facet and hue level, if released above."""
        facet = None if cells is None else cells.get(_facet_key(sub, names))
        if facet is None:
            return None
        return grid_points(facet, None if hue_levels is None else hue_levels[h])

    with all_or_nothing():
        grid = _facet_grid(
            frame,
            names,
            levels,
            col_wrap,
            height,
            aspect,
            fkws,
            hue=names.get("hue"),
            palette=palette,
            hue_order=hue_levels,
        )
        # the records of every release (each facet and hue level), and of every whole facet:
        # values rare in a facet, not only within a hue level, are avoided as well
        for (i, j, _), sub in grid.facet_data():
            if not sub.empty:
                tracker.release(grid.facet_axis(i, j), sub)
        if "hue" in names and not m.raw:
            for (i, j, _), sub in _facets_only(grid):
                if not sub.empty:
                    tracker.release(grid.facet_axis(i, j), sub)
        tracker.check_user({"x": xlim, "y": ylim})
        for (i, j, h), sub in grid.facet_data():
            if sub.empty:
                continue
            ax = grid.facet_axis(i, j)
            tracker.before(ax)
            # each hue level's line is its own release: it avoids the facet's rare values
            with guard.avoiding(tracker.rare_of(ax, "y")):
                _call(
                    regplot,
                    data=sub,
                    x=names["x"],
                    y=names["y"],
                    x_estimator=x_estimator,
                    x_bins=x_bins,
                    x_ci=x_ci,
                    scatter=scatter,
                    fit_reg=fit_reg,
                    ci=ci,
                    n_boot=n_boot,
                    units=units,
                    seed=seed,
                    order=order,
                    logistic=logistic,
                    lowess=lowess,
                    robust=robust,
                    logx=logx,
                    x_partial=x_partial,
                    y_partial=y_partial,
                    truncate=truncate,
                    x_jitter=x_jitter,
                    y_jitter=y_jitter,
                    label=None if hue_levels is None else str(hue_levels[h]),
                    color=grid._colors[h],
                    marker=marker_list[h],
                    scatter_kws=scatter_kws,
                    line_kws=line_kws,
                    ax=ax,
                    method=method,
                    threshold=threshold,
                    factor=factor,
                    bins=bins,
                    k=k,
                    q=q,
                    metric=metric,
                    algorithm=algorithm,
                    c=c,
                    discretizer=discretizer,
                    annotate=annotate,
                    release=points_of(sub, h),
                )
            tracker.after(ax)
        if legend and "hue" in names and names["hue"] not in (names.get("row"), names.get("col")):
            _legend_from_facets(grid, names["hue"], hue_levels)
        _finish_grid(grid, tracker, {"x": xlim, "y": ylim}, names["x"], names["y"], shown)
    return grid


def _facets_only(grid: FacetGrid) -> Iterator[tuple[tuple[int, int, int], pd.DataFrame]]:
    """Subsets per facet, all hue levels together."""
    data = grid.data
    rows = [data[grid._row_var] == n for n in grid.row_names] if grid.row_names else [None]
    cols = [data[grid._col_var] == n for n in grid.col_names] if grid.col_names else [None]
    for i, rmask in enumerate(rows):
        for j, cmask in enumerate(cols):
            mask = pd.Series(True, index=data.index)
            if rmask is not None:
                mask &= rmask
            if cmask is not None:
                mask &= cmask
            yield (i, j, 0), data[mask]
