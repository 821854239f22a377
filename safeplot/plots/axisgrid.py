"""Pair and joint plots under disclosure control: seaborn's ``pairplot`` and ``jointplot``.

A pair plot (scatter-plot matrix) shows every record in every off-diagonal
panel, and a joint plot adds the two marginal distributions of the same
records. Both functions here release the data first and then build the
seaborn grid (:class:`seaborn.PairGrid`, :class:`seaborn.JointGrid`) on the
released numbers only:

- value methods (``"deterministic"``, ``"probabilistic"``,
  ``"microaggregation"``, ``"rounding"``) anonymise the plotted variables
  *jointly*, once: every off-diagonal panel is a projection of one released
  data set, and the diagonal / marginal histograms bin those same released
  values on safe edges, small bins suppressed (Avraam et al.);
- ``"suppress"`` and ``"generalize"`` release each pair as the surviving
  cells of its density grid, and each variable as its suppressed histogram;
  the marginals of a joint plot are the row and column sums of the surviving
  cells of the joint grid, so nothing hidden in the joint panel reappears;
- ``"confidential"`` follows O'Keefe (2013) for a scatter-plot matrix:
  parallel box plots in the upper triangle, confidentialised lowess trend
  lines in the lower one, confidential histograms on the diagonal.

Every axis showing a variable gets one set of safe limits and ticks for that
variable, computed from the released numbers and kept off its rare values.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Number
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validate import clean_numeric, refuse_dask, to_pandas
from ..anonymize.confidential import lowess_trend
from ..anonymize.grids import hits_any, rare_values, safe_ticks
from ..errors import DisclosureError
from ..marks._axes import LEFT_OUT_GID, note_below
from ..marks._large import distinct_rows, is_large
from ..marks.boxes import draw_boxes as _draw_boxes
from ..marks.lines import draw_fit, draw_zero_line
from ..methods import (
    AnonymizedValues,
    anonymize_values,
    available_methods,
    check_family,
    get_method,
)
from ..policy import Policy, get_policy
from ..release import DisclosureReport, GridRelease, HistogramRelease, guard
from ._boxes import BoxScatterRelease
from ._boxes import refuse_per_point as _refuse_per_point
from ._boxes import release_boxes as _release_boxes
from ._common import (
    LEFT_OUT_NOTE,
    attach_release,
    axis_from_range,
    check_positive_int,
    figure_note,
    make_report,
    method_note,
    quiet_seaborn,
    resolve_annotate,
    round_range_out,
    safe_points,
    set_safe_axis,
    takes_method_options,
)
from ._data import categorical_order, plot_data
from .distributions import kde_rows, release_histograms
from .grid import default_grid_bins, release_grid
from .kde import KdeRelease, draw_kde, release_kde
from .regression import fit_residuals, release_fit, residual_rare_values, residual_zero

__all__ = [
    "JOINT_KINDS",
    "JOINT_METHODS",
    "PAIR_KINDS",
    "PAIR_METHODS",
    "jointplot",
    "pair_axes_variables",
    "pairplot",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) the panel grids release.
_GRID_FAMILIES = ("counts", "values", "rules", "raw")
#: Methods of :func:`pairplot` and :func:`jointplot`.
PAIR_METHODS = tuple(m.name for m in available_methods() if m.family in _GRID_FAMILIES)
JOINT_METHODS = PAIR_METHODS
#: Off-diagonal kinds of :func:`pairplot` (seaborn's).
PAIR_KINDS = ("scatter", "kde", "hist", "reg")
_DIAG_KINDS = ("auto", "hist", "kde", None)
#: Joint kinds of :func:`jointplot` (seaborn's).
JOINT_KINDS = ("scatter", "kde", "hist", "hex", "reg", "resid")


_COUNT = "\x00count"
_HUE = "\x00hue"


# -- input ---------------------------------------------------------------------------------


@dataclass
class _Input:
    """Complete records of the plotted variables, with hue codes and rare values."""

    raw: np.ndarray
    names: list[str]
    codes: np.ndarray | None
    levels: list | None
    hue_name: str | None
    n_dropped: int
    rare: dict[str, np.ndarray]
    #: which hue levels are drawn (None without hue or under raw output)
    shown: guard.ShownGroups | None = None
    #: records of the hue levels left out (not in `raw`)
    n_left_out: int = 0
    #: SD of each variable over every record, those left out included
    spread: np.ndarray | None = None
    #: records of a level drawn were left out too (ShownGroups.keep_records)
    topped_up: bool = False

    @property
    def n(self) -> int:
        return self.raw.shape[0]

    @property
    def n_given(self) -> int:
        """Records given, those of the levels left out included (what reports count)."""
        return self.raw.shape[0] + self.n_left_out

    def hue_values(self) -> pd.Series | None:
        """Return the hue level of every record, as a categorical in level order."""
        if self.codes is None:
            return None
        return pd.Series(pd.Categorical.from_codes(self.codes, categories=self.levels))

    def col(self, name: str) -> np.ndarray:
        return self.raw[:, self.names.index(name)]


def _prepare(
    frame: pd.DataFrame,
    names: list[str],
    hue: str | None,
    hue_order: Sequence[Any] | None,
    method: str,
    threshold: int,
    k: int,
    pol: Policy,
    function: str,
) -> _Input:
    """Validate the plotted columns and the hue; leave out or refuse hue levels too small.

    A hue level with fewer records than the method's groups need (k, 2k, or
    the threshold) is left out by the shared rule
    (:func:`safeplot.release.guard.shown_groups`) under the methods that form
    their groups within each level (``"deterministic"``,
    ``"microaggregation"``): the figure without hue groups the same records
    differently, so the two figures' difference is not the records left out.
    Under the grid methods (``"suppress"``, ``"generalize"``) a level of
    fewer than threshold records has no cell or bin to draw: leaving it out
    takes away only its name. Under the other methods the records kept are
    released as they would be without hue (keyed noise per record, rounding,
    winsorised values), and the difference would single out the records left
    out: a small level is refused there, naming the safe alternatives. A
    level left out goes as a level without records does (a pair grid draws
    neither, whether named in `hue_order` or not), so that a named level's
    absence tells nothing. The rare values are those of every record, the
    records left out included.
    """
    m = get_method(method)
    columns = {n: frame[n] for n in names}
    if hue is not None:
        columns[_HUE] = frame[hue]
    clean = clean_numeric(pd.DataFrame(columns), names, strata=[_HUE] if hue else None)
    raw = clean.values
    codes = levels = rare = shown = None
    n_left_out, topped_up = 0, False
    spread = np.std(raw, axis=0) if raw.size else None
    if hue is not None:
        kept = frame[hue][
            (pd.DataFrame({n: pd.to_numeric(frame[n], errors="coerce") for n in names}))
            .notna()
            .all(axis=1)
            .to_numpy()
            & frame[hue].notna().to_numpy()
        ].reset_index(drop=True)
        levels = categorical_order(kept, hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = np.array([lookup.get(v, -1) for v in kept], dtype=int)
        inside = codes >= 0
        if not inside.any():
            raise ValueError(
                f"{function}: no record has a hue level in hue_order={list(levels)}. "
                "Check the level names."
            )
        raw, codes = raw[inside], codes[inside]
        if not m.raw:
            # the values to avoid are those rare among every record, those left out included
            rare = {n: rare_values(raw[:, j], threshold) for j, n in enumerate(names)}
            sizes = np.bincount(codes, minlength=len(levels))
            need, what = m.group_floor(pol, k)
            small = [levels[i] for i in np.flatnonzero((sizes > 0) & (sizes < need))]
            if small and not guard.small_group_rule(m, "markers").leave_out:
                raise DisclosureError(
                    f"{function}: {len(small)} hue level(s) have fewer than {need} records "
                    f"({what}): their records cannot be released on their own, and their "
                    f"names would appear in the legend. Under method={method!r} they cannot be "
                    "left out either: the records kept would be drawn as in the figure "
                    "without hue, and the two figures' difference would be the records left "
                    "out. Merge small levels, drop them (hue_order=...), leave hue out, or use "
                    "method='deterministic' (which leaves a small level out)."
                )
            shown = guard.shown_groups(
                sizes,
                need,
                what,
                function=function,
                what="hue level",
                fix="Merge small levels, or leave hue out.",
            )
            if shown.left_out:
                # a level too small for the method's groups, which are formed within each
                # level, is left out (DESIGN invariant 10): not drawn, not named. A level
                # named in hue_order goes as a level without records does (below)
                # one marker per record: the records left out (counted against the figure
                # without hue) are 0 or at least threshold, some of the largest level's
                # records left out too if need be
                # (the grid methods draw cells, not records: a level of fewer than threshold
                # records has no cell to draw, and nothing else is taken away)
                keep = shown.keep(codes) if m.counts_only else shown.keep_records(codes, threshold)
                n_left_out = int((~keep).sum())
                topped_up = shown.topped_up(keep, codes)
                raw, codes = raw[keep], codes[keep]
                sizes = np.bincount(codes, minlength=len(levels))
            empty = [levels[i] for i in np.flatnonzero(sizes == 0)]
            if empty:
                levels = [lev for lev in levels if lev not in empty]
                remap = np.cumsum(sizes > 0) - 1
                codes = remap[codes]
    if m.uses_k:
        k = pol.check_k(k, raw.shape[0])
    if rare is None:
        rare = (
            {n: np.array([]) for n in names}
            if m.raw
            else {n: rare_values(raw[:, j], threshold) for j, n in enumerate(names)}
        )
    return _Input(
        raw, list(names), codes, levels, hue, clean.n_dropped, rare, shown, n_left_out, spread,
        topped_up,
    )  # fmt: skip


def _release_values(
    inp: _Input, method: str, k: int, q: float, metric: str, threshold: int, pol: Policy
):
    """Anonymise every plotted variable jointly (one data set for all panels)."""
    out = anonymize_values(
        inp.raw,
        method,
        names=inp.names,
        k=k,
        q=q,
        metric=metric,
        strata=inp.codes,
        threshold=threshold,
        policy=pol,
    )
    if inp.n_left_out:
        # the method kept its values off the values rare among the records it saw; the
        # guard's last word keeps them off those rare among all, the records left out included
        values = np.column_stack(
            [
                guard.released_values(out.values[:, j], inp.rare[n], inp.spread[j])
                for j, n in enumerate(inp.names)
            ]
        )
        out = dataclasses.replace(out, values=values)
    return out


def _columns(out: AnonymizedValues, idx: list[int]) -> AnonymizedValues:
    """Return the released columns `idx` of a joint release, with its parameters."""
    return AnonymizedValues(out.values[:, idx], out.params, out.details)


# -- releases of one panel -----------------------------------------------------------------


@dataclass
class _Panel:
    """What one Axes draws: a tag saying how, the released numbers, and the report.

    Everything a panel shows is here before any figure exists: the drawing
    step takes a panel, the hue levels and style, and nothing else.
    """

    tag: str  # points, cells, mesh, kde, boxes, trend, hist, sums
    data: Any
    report: DisclosureReport
    xvar: str | None = None
    yvar: str | None = None
    #: hue level (index into the levels) of each released point ("points")
    codes: np.ndarray | None = None
    #: fitted lines (x, y) drawn over the panel, one per hue level ("reg")
    fits: list[tuple[np.ndarray, np.ndarray]] = dataclasses.field(default_factory=list)
    #: the confidence band (x, (lower, upper)) of each fitted line, or None ("reg" joint panel)
    bands: list[tuple[np.ndarray, np.ndarray] | None] = dataclasses.field(default_factory=list)


def _released_codes(inp: _Input) -> np.ndarray | None:
    """Return the hue level of each released record (a copy: it belongs to the release)."""
    return None if inp.codes is None else np.array(inp.codes, copy=True)


def _hue_labels(codes: np.ndarray, levels: list) -> np.ndarray:
    """Return the hue level (its value) of every released point, in the levels' dtype."""
    return pd.Series(pd.Categorical.from_codes(codes, categories=levels)).to_numpy()


def _pair_grid_bins(
    inp: _Input, bins: int | None, method: str, threshold: int, pol: Policy
) -> int | None:
    """Return the cells per axis of every density grid of a pair or joint grid.

    The caller's `bins` if given; else chosen by the number of records the
    grid's report states (:func:`~safeplot.plots.grid.default_grid_bins`),
    once for the whole grid rather than per panel: every panel then has the
    same cells per axis, as a seaborn pair grid bins each pair alike, and a
    panel's grid tells no more than the grid's report (its count of records,
    rounded, those of hue levels left out included).
    """
    if bins is not None or get_method(method).raw:
        return bins  # raw output: seaborn's own plots, which take no bins
    return default_grid_bins(inp.n_given, method, threshold, pol)


def _grid_for(inp, xv, yv, method, threshold, factor, bins, kind, function, pol, released=None):
    """Release the density grid of one pair (suppressed cells NaN), per hue level."""
    names = (xv, yv) if xv != yv else (f"{xv} (x)", f"{yv} (y)")
    return release_grid(
        inp.col(xv),
        inp.col(yv),
        names=names,
        hue=inp.codes,
        hue_order=None if inp.codes is None else list(range(len(inp.levels))),
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        kind=kind,
        function=function,
        policy=pol,
        released=released,
    )


def _fit_line(
    inp: _Input, xv: str, yv: str, xrange: tuple[float, float], sel: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Fit a least-squares line to the raw data; evaluate it in the released x range only.

    The slope and intercept are statistics of the records: the guard rounds
    them to the policy's significant figures (DESIGN invariant 4), so two
    points of the drawn line give back only rounded coefficients. The line
    is drawn on a grid of x between the released extremes (never the raw
    ones), its y values moved off rare raw values of y.
    """
    x, y = inp.col(xv), inp.col(yv)
    if sel is not None:
        x, y = x[sel], y[sel]
    slope, intercept = guard.released_statistics(np.polyfit(x, y, 1))
    xs = safe_points(xrange[0], xrange[1], 100, inp.rare[xv])
    ys = intercept + slope * xs
    return xs, guard.released_values(ys, inp.rare[yv], float(np.ptp(ys)))


def _with_fits(
    inp: _Input,
    panel: _Panel,
    kind: str,
    xrange: tuple[float, float] | None = None,
    band: dict[str, Any] | None = None,
    regplot_line: bool = False,
) -> _Panel:
    """Add the least-squares lines of a ``kind="reg"`` panel to its release.

    One line per hue level (one without hue), over the released x range of
    the panel (its released points, or its grid's limits), or over `xrange`
    (the axis' safe limits, for ``truncate=False``). With `band` (the
    ``ci``, ``n_boot`` and ``seed`` of regplot) each line and its confidence
    band are regplot's release
    (:func:`~safeplot.plots.regression.release_fit`), one per hue level, as
    seaborn's ``jointplot(kind="reg")`` and ``pairplot(kind="reg")`` draw
    regplot in their panels. The line is regplot's own with `regplot_line`
    (jointplot's joint panel is regplot's figure); else it is the line of
    rounded coefficients the grids draw (:func:`_fit_line`), with the band
    around it.
    """
    if kind != "reg" or panel.tag not in ("points", "cells") or panel.xvar == panel.yvar:
        return panel
    ranges = None
    if xrange is None and panel.tag == "points" and inp.levels is not None:
        # each level's line spans that level's released points, as regplot's truncate does
        xs = panel.data[:, 0]
        ranges = [
            (float(xs[panel.codes == i].min()), float(xs[panel.codes == i].max()))
            if (panel.codes == i).any()
            else (float(xs.min()), float(xs.max()))
            for i in range(len(inp.levels))
        ]
    if xrange is None and panel.tag == "points":
        xs = panel.data[:, 0]
        xrange = (float(xs.min()), float(xs.max()))
    elif xrange is None:
        xrange = panel.data.xlim
    if band is not None:
        xv, yv = panel.xvar, panel.yvar
        sels = [None] if inp.levels is None else [inp.codes == i for i in range(len(inp.levels))]
        spans = [xrange if ranges is None else ranges[i] for i in range(len(sels))]
        released = [
            release_fit(
                inp.col(xv) if sel is None else inp.col(xv)[sel],
                inp.col(yv) if sel is None else inp.col(yv)[sel],
                span,
                inp.rare[xv],
                inp.rare[yv],
                **band,
            )
            for span, sel in zip(spans, sels, strict=True)
        ]
        panel.bands = [r[1] for r in released]
        # the line: regplot's own (jointplot's joint panel is regplot's figure), else the one
        # of rounded coefficients the grids draw without a band
        panel.fits = (
            [r[0] for r in released]
            if regplot_line
            else [_fit_line(inp, xv, yv, sp, sel=sel) for sp, sel in zip(spans, sels, strict=True)]
        )
    elif inp.levels is None:
        panel.fits = [_fit_line(inp, panel.xvar, panel.yvar, xrange)]
    else:
        panel.fits = [
            _fit_line(inp, panel.xvar, panel.yvar, xrange, sel=inp.codes == i)
            for i in range(len(inp.levels))
        ]
    return panel


def _trend_panel(inp, xv, yv, threshold, pol, function, details):
    """O'Keefe's confidentialised lowess trend of y on x, one line per hue level."""
    codes = np.zeros(inp.n, dtype=int) if inp.codes is None else inp.codes
    n_levels = 1 if inp.levels is None else len(inp.levels)
    lines = []
    for i in range(n_levels):
        sel = codes == i
        lines.append(
            lowess_trend(
                inp.col(xv)[sel],
                inp.col(yv)[sel],
                threshold=threshold,
                policy=pol,
                avoid_x=inp.rare[xv],
                avoid_y=inp.rare[yv],
            )
        )
    report = make_report(
        function,
        "confidential",
        {"threshold": threshold, "winsor_sd": pol.winsor_sd, "sig": pol.sig_figs},
        (xv, yv),
        inp.n_given,
        inp.n_dropped,
        pol,
        details={**details, "trend": "lowess, end points winsorised and rounded"},
    )
    return _Panel("trend", lines, report, xv, yv)


def _boxes_panel(inp, xv, yv, threshold, pol, function):
    """O'Keefe's parallel box plots of y over intervals of x, per hue level."""
    codes = np.zeros(inp.n, dtype=int) if inp.codes is None else inp.codes
    levels = [None] if inp.levels is None else inp.levels
    rel = _release_boxes(
        inp.col(xv),
        inp.col(yv),
        codes,
        levels,
        (xv, yv),
        threshold,
        inp.n_dropped,
        function,
        pol,
    )
    return _Panel("boxes", rel, rel.report, xv, yv)


def _kde_release(inp, values, names, method, report, pol, labels) -> KdeRelease:
    """Wrap already released values (one or two columns) as a kde release."""
    roles = ("x", "y")[: values.shape[1]]
    data = pd.DataFrame({r: values[:, j] for j, r in enumerate(roles)})
    if inp.codes is not None:
        data["hue"] = inp.hue_values().to_numpy()
    return KdeRelease(
        data=data,
        labels={**labels, "hue": inp.hue_name or "hue"},
        levels=inp.levels,
        method=method,
        grid=None,
        scales=dict.fromkeys(roles),
        sig=pol.sig_figs if get_method(method).rule_based else None,
        report=report,
        avoid={r: inp.rare[n] for r, n in zip(roles, names, strict=True)},
    )


def _histogram_bins(kws: dict, function: str) -> int | str:
    """Take seaborn's ``bins`` out of a panel's keywords: the histogram is released on them.

    A number of bins is placed on the safe grid; edges, or a rule other than
    seaborn's default, are refused (they would not share it).
    """
    if "bins" not in kws:
        return "auto"
    given = kws.pop("bins")
    if isinstance(given, str) or np.ndim(given) != 0:
        raise ValueError(
            f"{function}: bins={given!r}: give the histograms' bins as a number; they are "
            "placed on a safe grid of their own."
        )
    return check_positive_int("bins", given)


def _diag_panel(
    inp, var, diag_kind, method, out, threshold, factor, k, q, bins, pol, function,
    hist_bins="auto",
):  # fmt: skip
    """Release the diagonal (marginal) panel of one variable.

    `bins` is the caller's ``bins=`` (a released density's bins; None: the
    univariate default); a histogram has `hist_bins` (seaborn's rule by
    default).
    """
    j = inp.names.index(var)
    if diag_kind == "hist":
        rels = release_histograms(
            inp.raw[:, j],
            levels=inp.codes,
            level_names=inp.levels,
            name=var,
            method=method,
            bins=hist_bins,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            n_dropped=inp.n_dropped,
            function=function,
            policy=pol,
            released=None if out is None else _columns(out, [j]),
        )
        report = rels[0].report
        for r in rels[1:]:
            report = report.merge(r.report)
        report.n = pol.round_count(inp.n_given)
        return _Panel("hist", rels, report, var)
    # kde
    if out is None:
        rel = release_kde(
            inp.raw[:, j],
            hue=inp.hue_values(),
            hue_order=inp.levels,
            labels={"x": var, "hue": inp.hue_name or "hue"},
            method=method,
            threshold=threshold,
            factor=factor,
            bins=bins,
            function=function,
            policy=pol,
        )
        rel.report.n_dropped = pol.round_count(inp.n_dropped)
        return _Panel("kde", rel, rel.report, var)
    report = make_report(
        function,
        method,
        {"threshold": threshold, **out.params},
        (var,),
        inp.n_given,
        inp.n_dropped,
        pol,
        details=out.details,
    )
    rel = _kde_release(inp, out.values[:, [j]], [var], method, report, pol, {"x": var})
    return _Panel("kde", rel, report, var)


def _offdiag_panel(
    inp, xv, yv, upper, kind, method, out, joint_report, threshold, factor, bins, pol, function
):
    """Release one off-diagonal panel (x variable `xv`, y variable `yv`)."""
    i, j = inp.names.index(xv), inp.names.index(yv)
    if get_method(method).rule_based and kind in ("scatter", "reg"):
        if upper and xv != yv:
            return _boxes_panel(inp, xv, yv, threshold, pol, function)
        return _trend_panel(inp, xv, yv, threshold, pol, function, out.details)
    if kind in ("scatter", "reg"):
        if out is not None:
            points = out.values[:, [i, j]]
            return _Panel("points", points, joint_report, xv, yv, _released_codes(inp))
        grid = _grid_for(inp, xv, yv, method, threshold, factor, bins, "scatter", function, pol)
        return _Panel("cells", grid, grid.report, xv, yv)
    if kind == "hist":
        released = None if out is None else _columns(out, [i, j])
        grid = _grid_for(
            inp, xv, yv, method, threshold, factor, bins, "hist", function, pol, released
        )
        return _Panel("mesh", grid, grid.report, xv, yv)
    # kde
    if out is None:
        names = (xv, yv) if xv != yv else (f"{xv} (x)", f"{yv} (y)")
        rel = release_kde(
            inp.col(xv),
            inp.col(yv),
            hue=inp.hue_values(),
            hue_order=inp.levels,
            labels={"x": names[0], "y": names[1], "hue": inp.hue_name or "hue"},
            method=method,
            threshold=threshold,
            factor=factor,
            bins=bins,
            function=function,
            policy=pol,
        )
        return _Panel("kde", rel, rel.report, xv, yv)
    report = make_report(
        function,
        method,
        {"threshold": threshold, **out.params},
        (xv, yv),
        inp.n_given,
        inp.n_dropped,
        pol,
        details=out.details,
    )
    rel = _kde_release(
        inp, out.values[:, [i, j]], [xv, yv], method, report, pol, {"x": xv, "y": yv}
    )
    return _Panel("kde", rel, report, xv, yv)


# -- the axes, from the releases ----------------------------------------------------------

_EMPTY = (math.inf, -math.inf)


def _span(*arrays: Any) -> tuple[float, float]:
    """Return the smallest and largest finite number of some arrays; (inf, -inf) if none."""
    finite = [a[np.isfinite(a)] for a in (np.asarray(v, dtype=float).ravel() for v in arrays)]
    finite = [a for a in finite if a.size]
    if not finite:
        return _EMPTY
    return float(min(a.min() for a in finite)), float(max(a.max() for a in finite))


def _union(*spans: tuple[float, float]) -> tuple[float, float]:
    return min(s[0] for s in spans), max(s[1] for s in spans)


def _density_support(
    values: list[np.ndarray], weights: np.ndarray | None, kws: dict
) -> list[tuple[float, float]] | None:
    """Return the ends of seaborn's evaluation grid of a density of released values, per axis.

    seaborn evaluates a density from ``min - cut * bw`` to ``max + cut * bw``
    within ``clip``, ``bw`` being the kernel's standard deviation along the
    axis; it skips (returns None here) data with fewer than two values or no
    spread. `weights` are frequency weights (shown counts of bins).
    """
    bw_method, bw_adjust = kws.get("bw_method", "scott"), kws.get("bw_adjust", 1)
    if weights is not None:
        keep = weights > 0
        values, weights = [v[keep] for v in values], weights[keep]
        if callable(bw_method):
            reps = weights.astype(np.int64)
            values, weights = [np.repeat(v, reps) for v in values], None
    n = len(values[0]) if weights is None else float(weights.sum())
    if weights is None:
        spread = min(float(np.nan_to_num(pd.Series(v).var())) for v in values)
    else:
        spread = min(float(np.ptp(v)) if v.size else 0.0 for v in values)
    if n < 2 or spread == 0:
        return None
    d = len(values)
    try:
        if weights is None:
            from scipy.stats import gaussian_kde

            kde = gaussian_kde(np.vstack(values) if d > 1 else values[0], bw_method=bw_method)
            kde.set_bandwidth(kde.factor * bw_adjust)
            cov = np.atleast_2d(kde.covariance)
        else:
            if bw_method in (None, "scott"):
                factor = n ** (-1.0 / (d + 4))
            elif bw_method == "silverman":
                factor = (n * (d + 2) / 4.0) ** (-1.0 / (d + 4))
            else:
                factor = float(bw_method)
            data = np.vstack(values)
            cov = np.atleast_2d(np.cov(data, rowvar=1, fweights=weights.astype(np.int64)))
            np.linalg.cholesky(cov)  # seaborn draws nothing where this fails
            cov = cov * (factor * bw_adjust) ** 2
    except np.linalg.LinAlgError:
        return None
    bw = np.sqrt(np.diag(cov))
    cut = kws.get("cut", 3)
    clip = kws.get("clip")
    clips = [(None, None)] * d
    if clip is not None:
        clips = [clip] * d if (clip[0] is None or np.isscalar(clip[0])) else list(clip)
    out = []
    for v, b, c in zip(values, bw, clips, strict=True):
        c = (None, None) if c is None else c
        c_lo = -math.inf if c[0] is None else float(c[0])
        c_hi = math.inf if c[1] is None else float(c[1])
        out.append((max(float(v.min()) - b * cut, c_lo), min(float(v.max()) + b * cut, c_hi)))
    return out


def _kde_extent(rel: KdeRelease, which: str, kws: dict) -> tuple[float, float]:
    """Return the range along `which` that the density of a kde release is drawn over.

    A density of released values is drawn over seaborn's whole evaluation
    grid (each hue level its own, or one common grid); under
    ``"confidential"`` the grid's ends are rounded outward to the policy's
    significant figures. A suppressed density grid is drawn as contours over
    its cells and a ring of empty cells around them.
    """
    if rel.grid is not None:
        return _contour_extent(rel.grid, which, kws)
    roles = ("x", "y") if rel.bivariate else (rel.data_axis,)
    d = rel.data
    if which not in roles or d.empty:
        return _EMPTY
    j = roles.index(which)
    values = [d[r].to_numpy(dtype=float) for r in roles]
    weights = None
    if "weights" in d.columns and get_method(rel.method).counts_only:
        weights = d["weights"].to_numpy(dtype=float)
    groups = [np.ones(len(d), dtype=bool)]
    if rel.levels is not None:
        groups = [g for g in ((d["hue"] == lev).to_numpy() for lev in rel.levels) if g.any()]
    common = None
    if (
        not rel.bivariate
        and rel.levels is not None
        and (kws.get("common_grid", False) or kws.get("multiple", "layer") in ("stack", "fill"))
    ):
        common = _density_support(values, weights, kws)
    gridsize = kws.get("gridsize", 200)
    span = _EMPTY
    for sel in groups:
        support = _density_support(
            [v[sel] for v in values], None if weights is None else weights[sel], kws
        )
        if support is None:
            continue
        lo, hi = (common or support)[j]
        if gridsize < 2:
            hi = lo
        elif rel.sig is not None:
            lo, hi = round_range_out(lo, hi, rel.sig, rel.avoid.get(which, np.array([])))
            clip = kws.get("clip")
            if clip is not None:
                c = clip if (clip[0] is None or np.isscalar(clip[0])) else clip[j]
                c = (None, None) if c is None else c
                lo = lo if c[0] is None else max(lo, float(c[0]))
                hi = hi if c[1] is None else min(hi, float(c[1]))
        span = _union(span, (lo, hi))
    return span


def _contour_extent(grid: GridRelease, which: str, kws: dict) -> tuple[float, float]:
    """Return the range along `which` of the contours of a suppressed density grid."""
    counts = np.nan_to_num(grid.counts)
    if not counts.any():
        return _EMPTY
    edges, centres = (grid.xedges, grid.xcentres) if which == "x" else (grid.yedges, grid.ycentres)
    width = edges[1] - edges[0]
    if kws.get("cumulative", False):
        coords = np.asarray(edges, dtype=float)
    else:
        coords = np.r_[centres[0] - width, centres, centres[-1] + width]
    clip = kws.get("clip")
    if clip is not None:
        cx, cy = (clip, clip) if clip[0] is None or np.isscalar(clip[0]) else clip
        c = (cx if which == "x" else cy) or (None, None)
        lo = -np.inf if c[0] is None else c[0]
        hi = np.inf if c[1] is None else c[1]
        coords = coords[(coords >= lo) & (coords <= hi)]
    if coords.size < 2:
        return _EMPTY
    return float(coords[0]), float(coords[-1])


def _boxes_extent(rel: BoxScatterRelease, which: str) -> tuple[float, float]:
    """Return the range along `which` of parallel boxes (and whiskers) and their trends."""
    if which == "x":
        half = rel.width / 2
        boxes = [np.r_[pos - half, pos + half] for pos in rel.positions if len(pos)]
        return _span(*boxes, *(xs for xs, _ in rel.trends))
    ends = [[b.whislo, b.whishi] for pb in rel.boxes for b in pb.boxes]
    return _span(*ends, *(ys for _, ys in rel.trends))


def _extent(panel: _Panel, which: str, kws: dict) -> tuple[float, float]:
    """Return the range along `which` ("x" or "y") of what `panel` shows, from its release.

    `kws` are the drawing keywords of the panel (they place a density's
    grid). (inf, -inf) when the panel shows nothing along that axis.
    """
    data, col = panel.data, 0 if which == "x" else 1
    if panel.tag == "points":
        span = _span(data[:, col]) if len(data) else _EMPTY
    elif panel.tag == "cells":
        centres = data.xcentres if which == "x" else data.ycentres
        shown = [np.nan_to_num(c) > 0 for c in data.counts]
        idx = [np.nonzero(s.any(axis=1 - col))[0] for s in shown]
        span = _span(*(centres[i] for i in idx))
    elif panel.tag == "mesh":
        edges = data.xedges if which == "x" else data.yedges
        shown = any((np.nan_to_num(c) > 0).any() for c in data.counts)
        span = (float(edges[0]), float(edges[-1])) if shown else _EMPTY
    elif panel.tag == "boxes":
        span = _boxes_extent(data, which)
    elif panel.tag == "trend":
        span = _span(*(line[col] for line in data))
    elif panel.tag == "kde":
        span = _kde_extent(data, which, kws)
    elif panel.tag == "hist":
        shown = any((np.nan_to_num(r.counts) > 0).any() for r in data)
        edges = data[0].edges
        span = (float(edges[0]), float(edges[-1])) if shown else _EMPTY
    elif panel.tag == "sums":
        edges = data.xedges if which == "x" else data.yedges
        axis = 1 if which == "x" else 0
        shown = any((np.nansum(np.nan_to_num(c), axis=axis) > 0).any() for c in data.counts)
        span = (float(edges[0]), float(edges[-1])) if shown else _EMPTY
    else:  # pragma: no cover - every tag is listed above
        raise ValueError(f"unknown panel {panel.tag!r}")
    for fit in panel.fits:
        span = _union(span, _span(fit[col]))
    for band in panel.bands:
        if band is not None:
            span = _union(span, _span(band[col]))
    return span


def _safe_axis_for(var_extent, rare, user=None):
    lo, hi = var_extent
    if user is not None:
        lim = (float(user[0]), float(user[1]))
        return lim, safe_ticks(min(lim), max(lim))
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return None
    return axis_from_range(lo, hi, rare)


# -- drawing: released numbers and style only ----------------------------------------------


def _level_palette(levels: list | None, palette: Any) -> dict | None:
    if levels is None:
        return None
    from ..marks._style import level_colors as _level_colors

    return dict(zip(levels, _level_colors(levels, palette), strict=True))


def _markers_for(levels: list | None, markers: Any) -> tuple[dict, dict]:
    """Keyword arguments of a scatter for seaborn's `markers` (one, or one per hue level)."""
    if markers is None:
        return {}, {}
    if isinstance(markers, str) or levels is None:
        marker = markers if isinstance(markers, str) else next(iter(markers))
        return {"marker": marker}, {}
    markers = list(markers)
    if len(markers) != len(levels):
        raise ValueError(
            "markers must be a singleton or a list of markers for each level of the hue variable"
        )
    return {}, dict(zip(levels, markers, strict=True))


def _draw_hist(
    ax: Axes, rels: list[HistogramRelease], levels: list | None, palette, color, orient, kws
) -> None:
    """Draw released histograms (one per hue level) with seaborn, from the shown bins only."""
    import seaborn as sns

    rows = []
    for i, rel in enumerate(rels):
        shown = np.nan_to_num(rel.counts) > 0
        part = pd.DataFrame(
            {"v": ((rel.edges[:-1] + rel.edges[1:]) / 2)[shown], _COUNT: rel.counts[shown]}
        )
        if levels is not None:
            part["hue"] = levels[i]
        rows.append(part)
    drawn = pd.concat(rows, ignore_index=True)
    if not len(drawn):
        return
    hue_kws = {}
    if levels is not None:
        drawn["hue"] = pd.Categorical(drawn["hue"], categories=levels)
        hue_kws = {"hue": "hue", "hue_order": levels, "palette": palette}
    kws = {"legend": False, **kws}
    if levels is None and color is not None:
        kws.setdefault("color", color)
    if kws.get("kde") and drawn["v"].nunique() < 2:
        # one shown bin has no spread: no density, as seaborn skips the density of a singular
        # level (its support over all levels would fail on it instead)
        kws["kde"] = False
    if kws.get("kde"):
        drawn = kde_rows(drawn, _COUNT)  # the density histplot(kde=True) draws of these bins
    with quiet_seaborn():
        sns.histplot(
            data=drawn,
            **{orient: "v"},
            weights=_COUNT,
            bins=rels[0].edges.tolist(),
            ax=ax,
            **hue_kws,
            **kws,
        )
    ax.set_xlabel("")
    ax.set_ylabel("")


def _draw_sums(ax, grid: GridRelease, levels: list | None, palette, color, orient, kws) -> None:
    """Draw a marginal of a density grid: the row or column sums of its surviving cells."""
    axis = 1 if orient == "x" else 0  # counts[level, x, y]
    edges = grid.xedges if orient == "x" else grid.yedges
    rels = []
    for counts in grid.counts:
        sums = np.nansum(np.nan_to_num(counts), axis=axis)
        rels.append(HistogramRelease(edges, sums, (0.0, 0.0), np.array([]), grid.report))
    _draw_hist(ax, rels, levels, palette, color, orient, kws)


def _draw_points(
    ax, values: np.ndarray, codes: np.ndarray | None, levels, palette, color, kws, style
) -> None:
    import seaborn as sns

    frame = pd.DataFrame({"x": values[:, 0], "y": values[:, 1]})
    sem: dict[str, Any] = {}
    if levels is not None:
        frame["hue"] = _hue_labels(codes, levels)
        sem = {"hue": "hue", "hue_order": levels, "palette": palette}
        if style:
            sem.update(style="hue", style_order=levels, markers=style)
    elif color is not None:
        kws = {"color": color, **kws}
    if is_large(len(frame)):
        # many released points: each distinct marker once, rasterised; shared markers are
        # drawn as any other (a panel marks nothing at any n)
        keep, _ = distinct_rows([frame[c].to_numpy() for c in frame.columns])
        frame = frame.iloc[keep]
        kws = {"rasterized": True, **kws}
    with quiet_seaborn():
        sns.scatterplot(data=frame, x="x", y="y", legend=False, ax=ax, **sem, **kws)


def _draw_cells(ax, grid: GridRelease, levels: list | None, palette, color, kws, style) -> None:
    import seaborn as sns

    rows = []
    for i, counts in enumerate(grid.counts):
        c = np.nan_to_num(counts)
        ix, iy = np.nonzero(c > 0)
        part = pd.DataFrame({"x": grid.xcentres[ix], "y": grid.ycentres[iy], _COUNT: c[ix, iy]})
        if levels is not None:
            part["hue"] = levels[i]
        rows.append(part)
    frame = pd.concat(rows, ignore_index=True).sort_values(_COUNT, ascending=False, kind="stable")
    counts = frame[_COUNT].to_numpy(dtype=float)
    largest = np.square(mpl.rcParams["lines.markersize"]) * counts.max() / np.median(counts)
    sem: dict[str, Any] = {}
    if levels is not None:
        frame["hue"] = pd.Categorical(frame["hue"], categories=levels)
        sem = {"hue": "hue", "hue_order": levels, "palette": palette}
        if style:
            sem.update(style="hue", style_order=levels, markers=style)
    elif color is not None:
        kws = {"color": color, **kws}
    with quiet_seaborn():
        sns.scatterplot(
            data=frame,
            x="x",
            y="y",
            size=_COUNT,
            sizes=(0.0, float(largest)),
            size_norm=(0.0, float(counts.max())),
            legend=False,
            ax=ax,
            **sem,
            **kws,
        )


def _draw_mesh(ax, grid: GridRelease, levels: list | None, palette, color, kws) -> None:
    import seaborn as sns

    rows = []
    for i, counts in enumerate(grid.counts):
        c = np.nan_to_num(counts)
        ix, iy = np.nonzero(c > 0)
        part = pd.DataFrame({"x": grid.xcentres[ix], "y": grid.ycentres[iy], _COUNT: c[ix, iy]})
        if levels is not None:
            part["hue"] = levels[i]
        rows.append(part)
    frame = pd.concat(rows, ignore_index=True)
    sem: dict[str, Any] = {}
    if levels is not None:
        frame["hue"] = pd.Categorical(frame["hue"], categories=levels)
        sem = {"hue": "hue", "hue_order": levels, "palette": palette}
    elif color is not None:
        kws = {"color": color, **kws}
    with quiet_seaborn():
        sns.histplot(
            data=frame,
            x="x",
            y="y",
            weights=_COUNT,
            bins=[grid.xedges, grid.yedges],
            legend=False,
            ax=ax,
            **sem,
            **kws,
        )


def _draw_trend(ax, lines, levels: list | None, palette, kws) -> None:
    colors = ["0.2"] if levels is None else [palette[lev] for lev in levels]
    for (xs, ys), c in zip(lines, colors, strict=True):
        ax.plot(xs, ys, **{"color": c, "linewidth": 1.6, **kws})


def _draw_fits(ax, fits, levels: list | None, palette, color, line_kws=None, bands=()) -> None:
    """Draw the released least-squares lines of a panel (one per hue level), and bands."""
    if not fits:
        return
    colors = [color or "C0"] if levels is None else [palette[lev] for lev in levels]
    bands = list(bands) or [None] * len(fits)
    for line, band, c in zip(fits, bands, colors, strict=True):
        draw_fit(ax, line, band, c, {"color": c, "linewidth": 1.6, **(line_kws or {})})


#: regplot's keywords that change what is fitted or drawn from the records; seaborn's
#: jointplot(kind="reg") hands joint_kws to regplot, safeplot draws a straight line per level.
_REG_FIT_KEYWORDS = (
    "x_estimator",
    "x_bins",
    "x_ci",
    "units",
    "order",
    "logistic",
    "lowess",
    "robust",
    "logx",
    "x_partial",
    "y_partial",
    "x_jitter",
    "y_jitter",
)


def _regplot_keywords(
    kws: dict, function: str = "jointplot(kind='reg')"
) -> tuple[dict, bool, dict, dict]:
    """Split the keywords seaborn hands to regplot (jointplot's joint_kws, pairplot's plot_kws).

    Returns the point style (``scatter_kws`` merged in), ``truncate``,
    ``line_kws`` and the band's ``ci``, ``n_boot`` and ``seed``; refuses
    keywords that change the fit, naming regplot.
    """
    kws = dict(kws)
    truncate = bool(kws.pop("truncate", True))
    line_kws = dict(kws.pop("line_kws", None) or {})
    kws.update(kws.pop("scatter_kws", None) or {})
    kws.pop("label", None)
    band = {
        "ci": kws.pop("ci", 95),
        "n_boot": kws.pop("n_boot", 1000),
        "seed": kws.pop("seed", None),
    }
    if band["ci"] is not None and not (
        isinstance(band["ci"], Number)
        and not isinstance(band["ci"], bool)
        and 0 < band["ci"] < 100
    ):
        raise ValueError(
            f"{function}: ci must be a number between 0 and 100, or None, got {band['ci']!r}."
        )
    n_boot = band["n_boot"]
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 1:
        raise ValueError(f"{function}: n_boot must be a positive integer, got {n_boot!r}.")
    for key, default in (("scatter", (True,)), ("fit_reg", (True,))):
        if key in kws and kws.pop(key) not in default:
            raise ValueError(
                f"{function}: {key}= is not available; the panel shows the "
                "released points and one rounded least-squares line per level. Use "
                f"safeplot.regplot(..., {key}=...) for it."
            )
    fitting = [key for key in _REG_FIT_KEYWORDS if key in kws]
    if fitting:
        raise ValueError(
            f"{function}: {', '.join(k + '=' for k in fitting)} would change the "
            "fitted curve, and the panel draws one rounded least-squares line per "
            "level. Use safeplot.regplot(...) for them."
        )
    return kws, truncate, line_kws, band


#: jointplot(kind="resid") hands joint_kws to residplot; these change its fit.
_RESID_FIT = ("order", "robust")
_RESID_REFUSED = ("lowess", "x_partial", "y_partial", "data", "x", "y", "ax")


def _residplot_keywords(kws: dict) -> tuple[dict, dict, dict]:
    """Split jointplot(kind="resid")'s joint_kws as seaborn's residplot reads them.

    Returns the scatter keywords (``scatter_kws`` merged in), the fit
    (``order``, ``robust``) and ``line_kws`` (seaborn styles its lowess line
    with them, and draws the line at zero as it is).
    """
    kws = dict(kws)
    refused = [key for key in _RESID_REFUSED if kws.get(key) not in (None, False)]
    if refused:
        raise ValueError(
            f"jointplot(kind='resid'): {', '.join(k + '=' for k in refused)} is not available "
            "in the joint panel. Use safeplot.residplot, which takes it, on its own Axes."
        )
    for key in _RESID_REFUSED:
        kws.pop(key, None)
    order = kws.pop("order", 1)
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)) or order < 1:
        raise ValueError(
            f"jointplot(kind='resid'): order must be a positive integer, got {order!r}."
        )
    fit = {"order": order, "robust": bool(kws.pop("robust", False))}
    kws.pop("dropna", None)  # rows with a missing value are always dropped and reported
    line_kws = dict(kws.pop("line_kws", None) or {})
    scatter = {**(kws.pop("scatter_kws", None) or {}), **kws}
    return scatter, fit, line_kws


def _draw_panel(
    ax, panel: _Panel, levels: list | None, palette, color, kws, style, orient="x", line_kws=None
) -> None:
    """Draw one released panel; nothing but the release reaches matplotlib."""
    if panel.tag == "points":
        _draw_points(ax, panel.data, panel.codes, levels, palette, color, kws, style)
    elif panel.tag == "cells":
        _draw_cells(ax, panel.data, levels, palette, color, kws, style)
    elif panel.tag == "mesh":
        _draw_mesh(ax, panel.data, levels, palette, color, kws)
    elif panel.tag == "boxes":
        rel: BoxScatterRelease = panel.data
        colors = [color or "C0"] if levels is None else [palette[lev] for lev in rel.levels]
        # the merged intervals are listed in the report; a note under every panel of a grid
        # would crowd it
        _draw_boxes(ax, dataclasses.replace(rel, notes=[]), colors=colors, legend=False)
    elif panel.tag == "trend":
        _draw_trend(ax, panel.data, levels, palette, kws)
    elif panel.tag == "kde":
        kde_kws = {"legend": False, "warn_singular": False, **kws}
        if levels is not None:
            kde_kws["palette"] = palette
        elif color is not None:
            kde_kws.setdefault("color", color)
        draw_kde(ax, panel.data, **kde_kws)
    elif panel.tag == "hist":
        _draw_hist(ax, panel.data, levels, palette, color, orient, kws)
    elif panel.tag == "sums":
        _draw_sums(ax, panel.data, levels, palette, color, orient, kws)
    _draw_fits(ax, panel.fits, levels, palette, color, line_kws, panel.bands)
    ax.set_xlabel("")
    ax.set_ylabel("")


# -- reports -------------------------------------------------------------------------------


def _attach_all(pairs: list[tuple[list[Axes], DisclosureReport]]) -> None:
    """Put each release's report on the Axes that draw it; log each release once."""
    for axes, report in pairs:
        first, *rest = axes
        attach_release(first, report)
        for ax in rest:
            previous = getattr(ax, "safeplot_report", None)
            ax.safeplot_report = report if previous is None else previous.merge(report)


def _grid_report(
    function: str,
    method: str,
    reports: list[DisclosureReport],
    names: list[str],
    n: int,
    n_dropped: int,
    pol: Policy,
    *,
    shown: guard.ShownGroups | None = None,
    topped_up: bool = False,
) -> DisclosureReport:
    """One report for the whole grid: the method, its parameters, the panels released.

    `shown` is the decision on the hue levels (:func:`_prepare`): the report
    says how many were left out, not which; `topped_up`, that records of a
    level drawn were left out too.
    """
    params: dict[str, Any] = {}
    warns: list[str] = []
    for r in reports:
        params.update(r.params)
        warns += r.warnings
    details: dict[str, Any] = {"releases": len({id(r) for r in reports})}
    if get_method(method).rule_based:
        wins = [r.details.get("values_winsorised", 0) for r in reports]
        details["values_winsorised"] = next((w for w in wins if w not in (0, "0")), 0)
    report = make_report(
        function,
        method,
        params,
        tuple(names),
        n,
        n_dropped,
        pol,
        cells_suppressed=sum(r.cells_suppressed for r in {id(r): r for r in reports}.values()),
        details=details,
    )
    report.warnings = list(dict.fromkeys(report.warnings + warns))
    if shown is not None and shown.left_out:
        report.details["groups_left_out"] = shown.left_out
        report.warnings.append(shown.warning)
    if topped_up:
        report.warnings.append(guard.TOPPED_UP)
    return report


def _figure_note(grid: Any, report: DisclosureReport, annotate: bool) -> None:
    """Write the method note of the whole figure once, under its bottom-left panel.

    The note is a footnote of that panel (the one place every method note
    goes); a pair grid lays itself out again to make room for it, a joint
    grid keeps seaborn's spacing and raises its bottom margin. When hue
    levels were left out, the note saying so (naming none) goes there too.
    """
    left_out = bool(report.details.get("groups_left_out"))
    if left_out:
        # hue levels too small for the method were left out: said once, naming none
        axes = [a for a in grid.figure.axes if a.get_visible()]
        host = min(axes, key=lambda a: (round(a.get_position().y0, 6), a.get_position().x0))
        note_below(host, LEFT_OUT_NOTE, LEFT_OUT_GID)
    if annotate:
        figure_note(grid.figure.axes, method_note(report))
    if (annotate or left_out) and not hasattr(grid, "ax_joint"):
        with quiet_seaborn():
            grid.tight_layout()


def _check_user_lim(lim: Any, rare: np.ndarray, name: str) -> tuple[float, float] | None:
    if lim is None:
        return None
    lo, hi = (float(v) for v in lim)
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo == hi:
        raise ValueError(f"{name} must be two different finite numbers, got {lim!r}.")
    if hits_any([lo, hi], rare):
        raise DisclosureError(
            f"{name}={lim!r} puts an axis limit on a value held by fewer than threshold "
            "records. Use round limits clear of the data, or leave it out."
        )
    return lo, hi


# -- pairplot ------------------------------------------------------------------------------


def _pair_variables(data, hue, vars, x_vars, y_vars) -> tuple[list, list]:
    """Resolve the grid's variables as seaborn's PairGrid does, checking they exist."""
    if vars is not None:
        x_vars = y_vars = list(vars) if not np.isscalar(vars) else [vars]
    numeric = [
        c
        for c in data.columns
        if c != hue
        and pd.api.types.is_numeric_dtype(data[c].dtype)
        and not pd.api.types.is_bool_dtype(data[c].dtype)
    ]
    x_vars = numeric if x_vars is None else ([x_vars] if np.isscalar(x_vars) else list(x_vars))
    y_vars = numeric if y_vars is None else ([y_vars] if np.isscalar(y_vars) else list(y_vars))
    if not x_vars:
        raise ValueError("No variables found for grid columns.")
    if not y_vars:
        raise ValueError("No variables found for grid rows.")
    unknown = [v for v in dict.fromkeys(x_vars + y_vars) if v not in data.columns]
    if hue is not None and hue not in data.columns:
        unknown.append(hue)
    if unknown:
        raise ValueError(
            f"pairplot: unknown variable(s) {unknown}: not columns of `data` "
            f"(columns: {list(map(str, data.columns))})."
        )
    if hue is not None and hue in x_vars + y_vars:
        raise ValueError(f"pairplot: {hue!r} is the hue; it cannot also be a plotted variable.")
    return x_vars, y_vars


def _grid_frame(inp: _Input, out: AnonymizedValues | None) -> pd.DataFrame:
    """Return the data of the seaborn grid: the released values with their hue levels.

    Without released values (grid methods, O'Keefe's) the frame has the
    grid's columns and hue levels and no rows: there is nothing to draw from.
    """
    if out is None:
        frame = pd.DataFrame({n: pd.Series([], dtype=float) for n in inp.names})
        if inp.hue_name is not None:
            frame[inp.hue_name] = pd.Categorical([], categories=inp.levels)
        return frame
    frame = pd.DataFrame(out.values, columns=inp.names)
    if inp.hue_name is not None:
        frame[inp.hue_name] = _hue_labels(_released_codes(inp), inp.levels)
    return frame


def _noop(*args: Any, **kwargs: Any) -> None:
    """Draw nothing (creates PairGrid's diagonal Axes without plotting on them)."""


@takes_method_options
def pairplot(
    data: pd.DataFrame,
    *,
    hue: str | None = None,
    hue_order: Sequence[Any] | None = None,
    palette: Any = None,
    vars: Sequence[str] | None = None,
    x_vars: Sequence[str] | None = None,
    y_vars: Sequence[str] | None = None,
    kind: str = "scatter",
    diag_kind: str | None = "auto",
    markers: Any = None,
    height: float = 2.5,
    aspect: float = 1,
    corner: bool = False,
    dropna: bool = False,
    plot_kws: dict | None = None,
    diag_kws: dict | None = None,
    grid_kws: dict | None = None,
    size: float | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    bins: int | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
):
    """Plot pairwise relationships in a dataset, released under disclosure control.

    The call of :func:`seaborn.pairplot` (0.13.2), plus ``method=`` and its
    parameters. The plotted variables are released first (see Methods) and a
    :class:`seaborn.PairGrid` is built on the released numbers only; every
    panel is drawn from its release.

    Parameters
    ----------
    data : DataFrame
        Long-form data, one column per variable.
    hue : name of a column, optional
        Categorical variable drawn in colour. Every level needs at least
        ``threshold`` records (and ``k`` under ``"deterministic"`` and
        ``"microaggregation"``, whose groups are formed within each level).
    hue_order : list, optional
        Order of the hue levels (records of other levels are left out).
    palette : str, list, or dict, optional
        Colours of the hue levels.
    vars, x_vars, y_vars : list of str, optional
        Variables to plot (default: every numeric column but the hue).
    kind : {"scatter", "kde", "hist", "reg"}, default "scatter"
        Kind of off-diagonal plot.
    diag_kind : {"auto", "hist", "kde", None}, default "auto"
        Kind of diagonal plot ("auto": "kde" with a hue or for ``kind="kde"``
        unless ``kind="hist"``; "hist" otherwise), as in seaborn.
    markers : marker or list of markers, optional
        One marker, or one per hue level (scatter and reg kinds).
    height : float, default 2.5
        Height of each panel in inches.
    aspect : float, default 1
        Width / height of each panel.
    corner : bool, default False
        Leave out the upper triangle.
    dropna : bool, default False
        Accepted for compatibility: records with a missing value in a plotted
        variable or the hue are always dropped (the release is one data set
        of complete records); the report gives their number, rounded.
    plot_kws, diag_kws : dict, optional
        Passed to the drawing of the off-diagonal (seaborn's scatterplot,
        histplot or kdeplot, given released numbers) and diagonal panels.
        Per-point values are refused.
    grid_kws : dict, optional
        Passed to :class:`seaborn.PairGrid` (layout only).
    size : float, optional
        Deprecated alias of `height` (as in seaborn).
    method : str, optional
        Disclosure-control method (default: the policy's method for scatter
        plots, ``"deterministic"``).
    threshold : int, optional
        Fewest records in a shown bin, grid cell or box (default and floor:
        the policy's).
    factor : int, default 2
        Coarsening of ``"generalize"``.
    k : int, optional
        Records per centroid (``"deterministic"``) or group
        (``"microaggregation"``).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (``"probabilistic"``).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    metric : {"euclidean", "mahalanobis"}, default "euclidean"
        Neighbour distance of ``"deterministic"``.
    bins : int, optional
        Cells per axis of every pair's density grid (the cells of
        ``"suppress"``/``"generalize"``, the ``kind="hist"`` panels, and the
        grid a ``kind="kde"`` panel is smoothed from), before
        generalisation. Default: chosen by the number of complete records,
        as a heat map's grid (:func:`~safeplot.plots.grid.grid_bins_for`:
        11 x 11 for the 344 penguins, 30 x 30 from 2,700 records on), once
        for the whole grid, so every panel has the same cells. A given
        value also sets the bins a diagonal density is smoothed from
        (default 30, as a univariate density's).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm: groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Representative values of ``"rounding"``.
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How ``"rounding"`` forms its intervals.
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).

    Returns
    -------
    seaborn.PairGrid
        Built on the released values (value methods) or on an empty frame
        with the grid's columns and hue levels (other methods): ``grid.data``
        is never the raw frame. Every drawn Axes carries the report of its
        release (``ax.safeplot_report``) and the grid a summary
        (``grid.safeplot_report``).

    Raises
    ------
    DisclosureError
        A policy floor not met (k, q, threshold, raw output), a hue level
        with fewer than ``threshold`` records under a method that releases
        each record on its own (under ``"deterministic"`` and
        ``"microaggregation"`` a level too small for the groups, k or 2k, is
        left out with a note instead; refused only when every level is), or
        a panel with no cell at or above the threshold.
    ValueError
        Unknown or non-numeric variables, an all-missing or constant column,
        an unknown kind, or a parameter that cannot be drawn safely.
    TypeError
        `data` is not a DataFrame (as in seaborn).

    See Also
    --------
    jointplot : Two variables with their marginal distributions.
    safeplot.scatterplot : One released scatter.
    seaborn.pairplot : The raw-data original.

    Notes
    -----
    **Methods**

    ``"deterministic"``, ``"probabilistic"``, ``"microaggregation"``, ``"rounding"``
        The plotted variables are anonymised jointly, once, as an n x p
        matrix (kNN centroids searched within each hue level, keyed noise,
        group means, representative values): panel (i, j) shows columns j and
        i of that one released data set. The diagonal shows histograms of
        the same released values on safe edges with small bins suppressed
        (or their density). ``kind="hist"``/``"kde"`` bin or smooth the
        released pairs; ``kind="reg"`` adds regplot's release of each hue
        level: a least-squares line of the raw data and its bootstrap
        confidence band (``plot_kws`` takes regplot's ``ci``, ``n_boot``,
        ``seed``, ``truncate`` and ``line_kws``), rounded and drawn over the
        released x range (the axis with ``truncate=False``).
    ``"suppress"``, ``"generalize"``
        Each pair is released as its density grid (cells per axis chosen
        by the number of records, or `bins`; halved by ``"generalize"``) with
        cells below ``threshold`` removed: one marker per surviving cell
        sized by its count (``"scatter"``/``"reg"``), the grid itself
        (``"hist"``) or its contours (``"kde"``). Each diagonal is the
        suppressed histogram of its variable (or a density of its shown bins).
    ``"confidential"``
        O'Keefe's scatter-plot matrix: parallel box plots of the row variable
        over intervals of the column variable in the upper triangle, lowess
        trend lines (end points winsorised and rounded) in the lower one,
        confidential histograms (winsorised values, small bins suppressed) on
        the diagonal. ``kind="hist"``/``"kde"`` bin or smooth the winsorised
        pairs instead.
    ``"none"``
        seaborn's raw pair plot, only under a policy that allows raw output.

    The audit log gets one entry per released data set: the joint release
    (value methods), each pair's grid, boxes or trend (other methods), and
    each diagonal histogram or density.

    References
    ----------
    .. [1] Avraam D, Wilson R, Butters O, et al. "Privacy preserving data
       visualizations." EPJ Data Science 10, 2 (2021).
    .. [2] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> g = pairplot(penguins, vars=["bill_length_mm", "flipper_length_mm"], hue="species")
    >>> g.safeplot_report.method, g.axes.shape
    ('deterministic', (2, 2))
    >>> plt.close(g.figure)
    """
    refuse_dask(data, "pairplot")
    data = to_pandas(data, function="pairplot")
    import seaborn as sns

    if size is not None:
        height = size
        warnings.warn(
            "The `size` parameter has been renamed to `height`; please update your code.",
            UserWarning,
            stacklevel=3,
        )
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"'data' must be pandas DataFrame object, not: {type(data)}")
    pol = get_policy()
    method = pol.check_method(method, "scatter")
    check_family(method, _GRID_FAMILIES, "pairplot")
    m = get_method(method)
    show_note = resolve_annotate(annotate, pol)
    if kind not in PAIR_KINDS:
        raise ValueError(f"kind must be one of {list(PAIR_KINDS)}, got {kind!r}.")
    if diag_kind not in _DIAG_KINDS:
        raise ValueError(f"diag_kind must be one of {list(_DIAG_KINDS)}, got {diag_kind!r}.")
    plot_kws = dict(plot_kws or {})
    diag_kws = dict(diag_kws or {})
    grid_kws = dict(grid_kws or {})
    if diag_kind == "auto":
        if m.rule_based:
            diag_kind = "hist"  # O'Keefe's confidential histograms
        elif hue is None:
            diag_kind = "kde" if kind == "kde" else "hist"
        else:
            diag_kind = "hist" if kind == "hist" else "kde"
    x_vars, y_vars = _pair_variables(data, hue, vars, x_vars, y_vars)
    names = list(dict.fromkeys(list(x_vars) + list(y_vars)))
    threshold = pol.check_threshold(threshold)
    factor = check_positive_int("factor", factor)
    bins = None if bins is None else check_positive_int("bins", bins)
    inp = _prepare(data, names, hue, hue_order, method, threshold, k, pol, "pairplot")
    grid_bins = _pair_grid_bins(inp, bins, method, threshold, pol)

    if m.raw:
        with quiet_seaborn():
            grid = sns.pairplot(
                data,
                hue=hue,
                hue_order=hue_order,
                palette=palette,
                vars=vars,
                x_vars=x_vars,
                y_vars=y_vars,
                kind=kind,
                diag_kind=diag_kind,
                markers=markers,
                height=height,
                aspect=aspect,
                corner=corner,
                dropna=dropna,
                plot_kws=plot_kws,
                diag_kws=diag_kws,
                grid_kws=grid_kws,
            )
        report = make_report("pairplot", "none", {}, tuple(names), inp.n, inp.n_dropped, pol)
        drawn = [a for a in grid.axes.flat if a is not None] + list(grid.diag_axes or [])
        _attach_all([(drawn, report)])
        grid.safeplot_report = report
        _figure_note(grid, report, show_note)
        return grid

    _refuse_per_point(plot_kws, "pairplot(plot_kws)")
    _refuse_per_point(diag_kws, "pairplot(diag_kws)")
    diag_bins = _histogram_bins(diag_kws, "pairplot(diag_kws)")
    marker_kws, style = (
        _markers_for(inp.levels, markers) if kind in ("scatter", "reg") else ({}, {})
    )
    line_kws: dict = {}
    band = None
    truncate = True
    if kind == "reg":
        # seaborn hands plot_kws to regplot: its band and line keywords, and the point style
        plot_kws, truncate, line_kws, band = _regplot_keywords(plot_kws, "pairplot(kind='reg')")
    plot_kws = {**marker_kws, **plot_kws}
    if diag_kind == "kde":
        diag_kws.setdefault("fill", True)

    # 1. release: every number that will be drawn, and the axes, before any figure exists
    out = joint_report = None
    if m.moves_values:
        out = _release_values(inp, method, k, q, metric, threshold, pol)
        joint_report = make_report(
            "pairplot",
            method,
            out.params,
            tuple(names),
            inp.n_given,
            inp.n_dropped,
            pol,
            details=out.details,
        )
    cells: dict[tuple[int, int], _Panel] = {}
    for i, yv in enumerate(y_vars):
        for j, xv in enumerate(x_vars):
            if corner and j > i:
                continue
            if diag_kind is not None and xv == yv:
                continue
            panel = _offdiag_panel(
                inp,
                xv,
                yv,
                j > i,
                kind,
                method,
                out,
                joint_report,
                threshold,
                factor,
                grid_bins,
                pol,
                "pairplot",
            )
            cells[i, j] = _with_fits(inp, panel, kind, band=band if truncate else None)
    diags: dict[str, _Panel] = {}
    if diag_kind is not None:
        for var in dict.fromkeys(v for v in x_vars if v in y_vars):
            diags[var] = _diag_panel(
                inp,
                var,
                diag_kind,
                method,
                out,
                threshold,
                factor,
                k,
                q,
                bins,
                pol,
                "pairplot",
                hist_bins=diag_bins,
            )
    # one safe set of limits and ticks per variable, spanning every panel that shows it
    extents = dict.fromkeys(names, _EMPTY)
    for (i, j), panel in cells.items():
        extents[x_vars[j]] = _union(extents[x_vars[j]], _extent(panel, "x", plot_kws))
        extents[y_vars[i]] = _union(extents[y_vars[i]], _extent(panel, "y", plot_kws))
    for var, panel in diags.items():
        extents[var] = _union(extents[var], _extent(panel, "x", diag_kws))
    # small panels: fewer ticks than a single plot, as seaborn's locator gives them
    n_ticks = max(3, round(1.5 * height * min(aspect, 1)))
    axis_sets = {}
    for var, (lo, hi) in extents.items():
        if not math.isfinite(lo):
            lo, hi = (float(np.min(inp.col(var))), float(np.max(inp.col(var))))
            if out is not None:
                col = out.values[:, inp.names.index(var)]
                lo, hi = float(col.min()), float(col.max())
        lim = axis_from_range(lo, hi, inp.rare[var])[0]
        axis_sets[var] = (lim, safe_ticks(*lim, n_target=n_ticks))
    if kind == "reg" and not truncate:
        # truncate=False: each line spans its panel's x axis (safe limits), as regplot's does
        for (_i, j), panel in cells.items():
            _with_fits(inp, panel, kind, xrange=axis_sets[x_vars[j]][0], band=band)
    frame = _grid_frame(inp, out)
    levels, n, n_dropped, shown = inp.levels, inp.n_given, inp.n_dropped, inp.shown
    topped_up = inp.topped_up
    del inp, out  # what follows draws the release, and only the release

    # 2. draw: a PairGrid that holds released values (or none), each panel from its release
    grid_kws.setdefault("diag_sharey", diag_kind == "hist")
    pal = _level_palette(levels, palette)
    with quiet_seaborn():
        grid = sns.PairGrid(
            frame,
            vars=None,
            x_vars=x_vars,
            y_vars=y_vars,
            hue=hue,
            hue_order=levels,
            palette=None if pal is None else [pal[lev] for lev in levels],
            corner=corner,
            height=height,
            aspect=aspect,
            dropna=dropna,
            **grid_kws,
        )
    fig = grid.figure
    try:
        pairs: list[tuple[list[Axes], DisclosureReport]] = []
        if diag_kind is not None:
            grid.map_diag(_noop)
            for var, ax in zip(grid.diag_vars, grid.diag_axes, strict=True):
                panel = diags[var]
                _draw_panel(ax, panel, levels, pal, None, dict(diag_kws), {})
                pairs.append(([ax], panel.report))
        by_report: dict[int, tuple[list[Axes], DisclosureReport]] = {}
        for (i, j), panel in cells.items():
            ax = grid.axes[i, j]
            _draw_panel(ax, panel, levels, pal, None, dict(plot_kws), style, line_kws=line_kws)
            by_report.setdefault(id(panel.report), ([], panel.report))[0].append(ax)
        pairs += list(by_report.values())
        for i, yv in enumerate(y_vars):
            for j, xv in enumerate(x_vars):
                ax = grid.axes[i, j]
                if ax is None:
                    continue
                set_safe_axis(ax, "x", *axis_sets[xv])
                set_safe_axis(ax, "y", *axis_sets[yv])
        for var, ax in zip(grid.diag_vars or [], grid.diag_axes or [], strict=True):
            set_safe_axis(ax, "x", *axis_sets[var])
        grid._add_axis_labels()
        if levels is not None:
            handles = _legend_handles(levels, pal, kind, method)
            grid.add_legend(
                legend_data={str(lev): h for lev, h in handles.items()},
                label_order=[str(lev) for lev in levels],
                title=hue,
            )
        with quiet_seaborn():
            grid.tight_layout()
    except Exception:
        plt.close(fig)
        raise
    reports = [r for _, r in pairs]
    grid.safeplot_report = _grid_report(
        "pairplot", method, reports, names, n, n_dropped, pol, shown=shown,
        topped_up=topped_up,
    )  # fmt: skip
    _attach_all(pairs)
    _figure_note(grid, grid.safeplot_report, show_note)
    return grid


def _legend_handles(levels: list, pal: dict, kind: str, method: str) -> dict:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    point = kind in ("scatter", "reg") and not get_method(method).rule_based
    out = {}
    for lev in levels:
        if point:
            out[lev] = Line2D([], [], marker="o", linestyle="", color=pal[lev])
        else:
            out[lev] = Patch(facecolor=pal[lev], edgecolor="0.2", linewidth=0.5)
    return out


def pair_axes_variables(grid, data: pd.DataFrame) -> dict:
    """Map each Axes of a pair or joint grid to the raw variables its x and y axes show.

    For leak scans (``scan_figure(..., per_axes=pair_axes_variables(grid, df))``):
    panel (i, j) of a :class:`seaborn.PairGrid` shows ``x_vars[j]`` and
    ``y_vars[i]``; a diagonal Axes shows its variable along x (its y axis
    shows counts or densities); a :class:`seaborn.JointGrid`'s joint panel
    shows x and y, each marginal its own variable along the shared axis (for
    ``kind="resid"`` the y axis shows the residuals of the fit of y on x: a
    residual plus its fitted value is y, so both are scanned).

    Parameters
    ----------
    grid : PairGrid or JointGrid
    data : DataFrame
        The raw data the grid was drawn from.

    Returns
    -------
    dict
        ``{ax: {"x": raw values, "y": raw values}}``.
    """
    if hasattr(grid, "ax_joint"):
        names = grid.ax_joint.get_xlabel(), grid.ax_joint.get_ylabel()
        x, y = data[names[0]].to_numpy(), data[names[1]].to_numpy()
        params = getattr(grid, "safeplot_report", None)
        params = {} if params is None else params.params
        if params.get("kind") == "resid":
            fit = {"order": params["order"], "robust": params["robust"]}
            fd, _, resid = fit_residuals(data, names[0], names[1], function="jointplot", **fit)
            y = np.concatenate([resid, fd.y - resid])  # the residuals and the fitted values
        return {
            grid.ax_joint: {"x": x, "y": y},
            grid.ax_marg_x: {"x": x},
            grid.ax_marg_y: {"y": y},
        }
    out = {}
    for i, yv in enumerate(grid.y_vars):
        for j, xv in enumerate(grid.x_vars):
            ax = grid.axes[i, j]
            if ax is not None:
                out[ax] = {"x": data[xv].to_numpy(), "y": data[yv].to_numpy()}
    for var, ax in zip(grid.diag_vars or [], grid.diag_axes or [], strict=True):
        out[ax] = {"x": data[var].to_numpy()}
    return out


# -- jointplot -----------------------------------------------------------------------------


@takes_method_options
def jointplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    kind: str = "scatter",
    height: float = 6,
    ratio: int = 5,
    space: float = 0.2,
    dropna: bool = False,
    xlim: Any = None,
    ylim: Any = None,
    color: Any = None,
    palette: Any = None,
    hue_order: Sequence[Any] | None = None,
    hue_norm: Any = None,
    marginal_ticks: bool = False,
    joint_kws: dict | None = None,
    marginal_kws: dict | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    bins: int | None = None,
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
):
    """Draw two variables with bivariate and univariate graphs, released under disclosure control.

    The call of :func:`seaborn.jointplot` (0.13.2), plus ``method=`` and its
    parameters. The joint panel and both marginals are released consistently
    (see Methods): the marginals describe the same released data as the joint
    panel, or the same suppressed grid.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data the variable names refer to.
    x, y : name of a column in `data`, or vector
        The two numeric variables (both required).
    hue : name or vector, optional
        Categorical grouping variable (each level needs at least
        ``threshold`` records, and ``k`` under ``"deterministic"`` and
        ``"microaggregation"``). Not with ``kind="hex"`` or ``"reg"`` (as in
        seaborn).
    kind : {"scatter", "kde", "hist", "hex", "reg", "resid"}, default "scatter"
        Kind of plot. ``"hex"`` draws the suppressed density grid with
        rectangular cells. ``"resid"`` draws the released (x, residual)
        pairs of :func:`safeplot.residplot` with its line at zero, and the
        histograms of the released x and residuals in the margins
        (``joint_kws`` may hold residplot's ``order``, ``robust`` and
        ``scatter_kws``). ``"reg"`` draws regplot's release in the joint
        panel (points, the fitted line and its bootstrap confidence band;
        ``joint_kws`` may hold regplot's ``ci``, ``n_boot``, ``seed``,
        ``truncate``, ``scatter_kws`` and ``line_kws``) and histplot's
        ``kde=True`` density of each released marginal histogram.
    height : float, default 6
        Size of the (square) figure in inches.
    ratio : int, default 5
        Ratio of joint to marginal axes height.
    space : float, default 0.2
        Space between the joint and marginal axes.
    dropna : bool, default False
        Accepted for compatibility: records with a missing x, y or hue are
        always dropped and counted in the report.
    xlim, ylim : pair of numbers, optional
        Axis limits; refused when one equals a rare raw value.
    color : colour, optional
        Colour of the plot without hue.
    palette, hue_order : optional
        Colours and order of the hue levels.
    hue_norm : optional
        Refused: a numeric hue would show every record's value.
    marginal_ticks : bool, default False
        Show ticks on the count axes of the marginals (on safe numbers).
    joint_kws, marginal_kws : dict, optional
        Passed to the drawing of the joint and marginal panels (seaborn,
        given released numbers). Per-point values are refused.
    method : str, optional
        Disclosure-control method (default: the policy's method for scatter
        plots, or for residual plots with ``kind="resid"``; both
        ``"deterministic"`` unless the custodian sets others).
    threshold, factor, k, q, metric, bins, algorithm, discretizer
        As in :func:`pairplot`; rounding's number of values is ``c=`` given
        as a keyword (default 10).
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    **kwargs
        Added to `joint_kws` (as in seaborn).

    Returns
    -------
    seaborn.JointGrid
        Built on the released points (value methods) or on no data (other
        methods); the joint and marginal Axes carry the reports of their
        releases, the grid a summary (``grid.safeplot_report``).

    Raises
    ------
    DisclosureError
        A policy floor not met, a small hue level, limits on rare values, or a
        grid with no cell at or above the threshold.
    ValueError
        Missing x or y, non-numeric data, an unknown kind, a numeric hue,
        hue with ``kind="hex"``/``"reg"``/``"resid"``, or ``lowess`` or
        partialling with ``kind="resid"`` (use :func:`safeplot.residplot`).

    See Also
    --------
    pairplot : Every pair of several variables.
    safeplot.scatterplot : One released scatter.
    seaborn.jointplot : The raw-data original.

    Notes
    -----
    **Methods**

    ``"deterministic"``, ``"probabilistic"``, ``"microaggregation"``, ``"rounding"``
        x and y are anonymised jointly, once. ``"scatter"``: the released
        points, and marginal histograms of the same released x and y on safe
        edges with small bins suppressed (densities of them with a hue).
        ``"kde"``: densities of the released values. ``"hist"``/``"hex"``:
        the density grid of the released points, suppressed, and its row and
        column sums as marginals. ``"reg"``: released points, and a raw-data
        least-squares line with its confidence band (regplot's release) drawn
        over the released x range only (the safe x limits with
        ``truncate=False``); the marginal histograms carry the density of
        their released bins, as ``histplot(kde=True)`` draws it.
    ``"suppress"``, ``"generalize"``
        The density grid (cells per axis chosen by the number of records,
        or `bins`; halved by ``"generalize"``) with cells below ``threshold``
        removed: markers sized by count, the grid, or its contours; the
        marginals are the row and column sums of the surviving cells, so
        nothing hidden in the joint panel reappears in a marginal
        (``"reg"``: regplot's line and band over the surviving cells' x
        range, and densities of the sums).
    ``"confidential"``
        O'Keefe: parallel box plots of y over intervals of x with a lowess
        trend (``"scatter"``/``"reg"``), confidential histograms of x and y
        in the margins; ``"kde"``/``"hist"``/``"hex"`` use the winsorised values.
    ``"none"``
        seaborn's raw joint plot, only under a policy that allows raw output.

    References
    ----------
    .. [1] Avraam D, Wilson R, Butters O, et al. "Privacy preserving data
       visualizations." EPJ Data Science 10, 2 (2021).
    .. [2] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> g = jointplot(data=tips, x="total_bill", y="tip", method="suppress")
    >>> g.ax_joint.safeplot_report.method, g.ax_marg_x.safeplot_report.method
    ('suppress', 'suppress')
    >>> plt.close(g.figure)
    """
    import seaborn as sns

    if kwargs.pop("ax", None) is not None:
        warnings.warn(
            "Ignoring `ax`; jointplot is a figure-level function.", UserWarning, stacklevel=3
        )
    pol = get_policy()
    if kind not in JOINT_KINDS:
        raise ValueError(f"kind must be one of {list(JOINT_KINDS)}, got {kind!r}.")
    # the joint panel of kind="resid" is a residual plot: the policy's method for those
    method = pol.check_method(method, "residual" if kind == "resid" else "scatter")
    check_family(method, _GRID_FAMILIES, "jointplot")
    m = get_method(method)
    show_note = resolve_annotate(annotate, pol)
    if hue is not None and kind in ("hex", "reg", "resid"):
        raise ValueError(f"Use of `hue` with `kind='{kind}'` is not currently supported.")
    if x is None or y is None:
        raise ValueError("jointplot needs both x= and y= (two numeric variables).")
    joint_kws = {**(joint_kws or {}), **kwargs}
    marginal_kws = dict(marginal_kws or {})
    pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function="jointplot")
    if m.raw:
        with quiet_seaborn():
            grid = sns.jointplot(
                data=data,
                x=x,
                y=y,
                hue=hue,
                kind=kind,
                height=height,
                ratio=ratio,
                space=space,
                dropna=dropna,
                xlim=xlim,
                ylim=ylim,
                color=color,
                palette=palette,
                hue_order=hue_order,
                hue_norm=hue_norm,
                marginal_ticks=marginal_ticks,
                joint_kws=joint_kws,
                marginal_kws=marginal_kws,
            )
        names = [pdata.label("x"), pdata.label("y")]
        n = int(pdata.frame[["x", "y"]].notna().all(axis=1).sum())
        report = make_report("jointplot", "none", {}, tuple(names), n, 0, pol)
        _attach_all([([grid.ax_joint, grid.ax_marg_x, grid.ax_marg_y], report)])
        grid.safeplot_report = report
        _figure_note(grid, report, show_note)
        return grid
    if hue_norm is not None:
        raise ValueError(
            "hue_norm makes the hue numeric, and a numeric hue would colour each point by a raw "
            "value. Use a categorical hue, or safeplot.scatterplot(hue=...), which releases a "
            "numeric hue with the points."
        )
    truncate, line_kws, band = True, {}, None
    if kind == "reg":
        joint_kws, truncate, line_kws, band = _regplot_keywords(joint_kws)
    fit: dict[str, Any] = {}
    if kind == "resid":
        joint_kws, fit, line_kws = _residplot_keywords(joint_kws)
    _refuse_per_point(joint_kws, "jointplot")
    _refuse_per_point(marginal_kws, "jointplot(marginal_kws)")
    xname, yname = pdata.label("x"), pdata.label("y")
    if xname == yname:
        xname, yname = f"{xname} (x)", f"{yname} (y)"
    frame = pd.DataFrame({xname: pdata.frame["x"], yname: pdata.frame["y"]})
    resid = None
    if kind == "resid":
        # the joint panel shows (x, residual of the fit of y on x): both are released as one
        # scatter would be, and the marginals describe those released pairs (seaborn draws
        # histograms of the residual plot's points)
        fd, px, resid = fit_residuals(frame, xname, yname, function="jointplot", **fit)
        yname = "residuals" if xname != "residuals" else "residuals (y)"
        frame = pd.DataFrame({xname: px, yname: resid})
    hue_name = None
    if pdata.has("hue"):
        hue_name = pdata.label("hue")
        if hue_name in (xname, yname):
            hue_name = f"{hue_name} (hue)"
        frame[hue_name] = pdata.frame["hue"]
    threshold = pol.check_threshold(threshold)
    factor = check_positive_int("factor", factor)
    bins = None if bins is None else check_positive_int("bins", bins)
    marginal_bins = _histogram_bins(marginal_kws, "jointplot(marginal_kws)")
    names = [xname, yname]
    inp = _prepare(frame, names, hue_name, hue_order, method, threshold, k, pol, "jointplot")
    grid_bins = _pair_grid_bins(inp, bins, method, threshold, pol)
    zero = None
    if resid is not None:
        inp.n_dropped = fd.n_dropped
        inp.rare[xname], inp.rare[yname] = residual_rare_values(fd, px, resid, threshold)
        zero = residual_zero(resid, inp.rare[yname])
        del fd, px, resid, frame
    user_xlim = _check_user_lim(xlim, inp.rare[xname], "xlim")
    user_ylim = _check_user_lim(ylim, inp.rare[yname], "ylim")

    # 1. release
    out = None
    if m.moves_values:
        out = _release_values(inp, method, k, q, metric, threshold, pol)
    margins: dict[str, _Panel] = {}
    kind_drawn = kind
    if kind == "resid":
        kind = "scatter"  # the released (x, residual) pairs, drawn as a scatter plot's are
    if kind in ("hist", "hex"):
        grid_rel = _grid_for(
            inp, xname, yname, method, threshold, factor, grid_bins, "hist", "jointplot", pol, out
        )
        joint = _Panel("mesh", grid_rel, grid_rel.report, xname, yname)
        margins = {
            "x": _Panel("sums", grid_rel, grid_rel.report, xname),
            "y": _Panel("sums", grid_rel, grid_rel.report, yname),
        }
    elif m.counts_only:
        grid_kind = "kde" if kind == "kde" else "scatter"
        grid_rel = _grid_for(
            inp, xname, yname, method, threshold, factor, grid_bins, grid_kind, "jointplot", pol
        )
        if kind == "kde":
            joint = _Panel("kde", _grid_kde(inp, grid_rel, method, names), grid_rel.report)
            margins = {
                ax: _Panel("kde", _sums_kde(inp, grid_rel, method, names, ax), grid_rel.report)
                for ax in ("x", "y")
            }
        else:
            joint = _Panel("cells", grid_rel, grid_rel.report, xname, yname)
            margins = {
                "x": _Panel("sums", grid_rel, grid_rel.report, xname),
                "y": _Panel("sums", grid_rel, grid_rel.report, yname),
            }
        joint.xvar, joint.yvar = xname, yname
    else:
        joint_report = make_report(
            "jointplot",
            method,
            out.params,
            tuple(names),
            inp.n_given,
            inp.n_dropped,
            pol,
            details=out.details,
        )
        # under "confidential" the upper-triangle release: boxes with their lowess trend
        joint = _offdiag_panel(
            inp,
            xname,
            yname,
            True,
            kind,
            method,
            out,
            joint_report,
            threshold,
            factor,
            grid_bins,
            pol,
            "jointplot",
        )
        marg_kind = "kde" if (kind == "kde" or (kind == "scatter" and hue is not None)) else "hist"
        margins = {
            ax: _diag_panel(
                inp,
                var,
                marg_kind,
                method,
                out,
                threshold,
                factor,
                k,
                q,
                bins,
                pol,
                "jointplot",
                hist_bins=marginal_bins,
            )
            for ax, var in (("x", xname), ("y", yname))
        }
        if marg_kind == "kde":
            margins["y"].data = _on_y(margins["y"].data)

    joint = _with_fits(inp, joint, kind, band=band, regplot_line=True)
    # drawing keywords (they place a density's grid), and one safe set of limits and ticks
    # per variable, spanning the joint panel and its marginal
    col = color or "C0"
    jk = dict(joint_kws)
    if kind == "hex" and inp.levels is None:
        from seaborn.palettes import blend_palette
        from seaborn.utils import set_hls_values

        rgb = mpl.colors.to_rgb(col)
        jk.setdefault(
            "cmap",
            blend_palette([set_hls_values(rgb, l=v) for v in np.linspace(1, 0, 12)], as_cmap=True),
        )
    mk = dict(marginal_kws)
    if kind == "reg" and margins["x"].tag in ("hist", "sums"):
        # seaborn's histplot(kde=True) margins: a density of each released histogram
        mk.setdefault("kde", True)
    if margins["x"].tag == "kde":
        mk.setdefault("fill", joint_kws.get("fill", True))
    sets = {}
    for var, which, user in ((xname, "x", user_xlim), (yname, "y", user_ylim)):
        span = _union(_extent(joint, which, jk), _extent(margins[which], which, mk))
        if zero is not None and which == "y":
            span = _union(span, (zero, zero))
        sets[which] = _safe_axis_for(span, inp.rare[var], user)
    if not truncate and joint.fits:
        # seaborn's truncate=False: the lines span the x axis, and the y axis then spans them
        joint = _with_fits(inp, joint, kind, xrange=sets["x"][0], band=band, regplot_line=True)
        span = _union(_extent(joint, "y", jk), _extent(margins["y"], "y", mk))
        sets["y"] = _safe_axis_for(span, inp.rare[yname], user_ylim)
    grid_frame = _grid_frame(inp, out)
    levels, n, n_dropped, shown = inp.levels, inp.n_given, inp.n_dropped, inp.shown
    topped_up = inp.topped_up
    del inp, out  # what follows draws the release, and only the release

    # 2. draw on a JointGrid holding released points (or none)
    pal = _level_palette(levels, palette)
    grid = sns.JointGrid(
        data=grid_frame,
        x=xname,
        y=yname,
        hue=hue_name,
        palette=palette if pal is None else pal,
        hue_order=levels,
        height=height,
        ratio=ratio,
        space=space,
        marginal_ticks=marginal_ticks,
    )
    fig = grid.figure
    try:
        if zero is not None:
            draw_zero_line(grid.ax_joint, sets["x"][0], zero)
            line_kws = {}  # seaborn's are for the lowess line, which is not drawn here
        _draw_panel(grid.ax_joint, joint, levels, pal, col, jk, {}, line_kws=line_kws)
        _draw_panel(grid.ax_marg_x, margins["x"], levels, pal, col, dict(mk), {}, "x")
        _draw_panel(grid.ax_marg_y, margins["y"], levels, pal, col, dict(mk), {}, "y")
        set_safe_axis(grid.ax_joint, "x", *sets["x"])
        set_safe_axis(grid.ax_joint, "y", *sets["y"])
        set_safe_axis(grid.ax_marg_x, "x", *sets["x"])
        set_safe_axis(grid.ax_marg_y, "y", *sets["y"])
        grid.ax_marg_x.tick_params(labelbottom=False)
        grid.ax_marg_y.tick_params(labelleft=False)
        if not marginal_ticks:
            grid.ax_marg_x.tick_params(axis="y", left=False, labelleft=False)
            grid.ax_marg_y.tick_params(axis="x", bottom=False, labelbottom=False)
        for ax in (grid.ax_marg_x, grid.ax_marg_y):
            ax.set_xlabel("")
            ax.set_ylabel("")
        grid.ax_joint.set_xlabel(pdata.label("x"))
        grid.ax_joint.set_ylabel(pdata.label("y"))
        if levels is not None:
            handles = _legend_handles(levels, pal, kind, method)
            grid.ax_joint.legend(
                handles=[handles[lev] for lev in levels],
                labels=[str(lev) for lev in levels],
                title=pdata.label("hue"),
            )
        plt.sca(grid.ax_joint)
    except Exception:
        plt.close(fig)
        raise
    pairs = [([grid.ax_joint], joint.report)]
    for name, ax in (("x", grid.ax_marg_x), ("y", grid.ax_marg_y)):
        rep = margins[name].report
        for axes, r in pairs:
            if r is rep:
                axes.append(ax)
                break
        else:
            pairs.append(([ax], rep))
    grid.safeplot_report = _grid_report(
        "jointplot", method, [r for _, r in pairs], names, n, n_dropped, pol, shown=shown,
        topped_up=topped_up,
    )  # fmt: skip
    if kind_drawn == "resid":
        # the residuals' model, which a reader needs to link this release with others
        grid.safeplot_report.params.update(kind="resid", order=fit["order"], robust=fit["robust"])
    _attach_all(pairs)
    _figure_note(grid, grid.safeplot_report, show_note)
    return grid


def _on_y(rel: KdeRelease) -> KdeRelease:
    """Turn a univariate kde release to be drawn along y (a joint plot's right marginal)."""
    rel.data = rel.data.rename(columns={"x": "y"})
    rel.labels = {**rel.labels, "y": rel.labels.get("x", "y")}
    rel.scales = {"y": rel.scales.get("x")}
    rel.avoid = {"y": rel.avoid.get("x", np.array([]))}
    return rel


def _cell_points(grid: GridRelease, levels: list | None) -> pd.DataFrame:
    """Return the shown cells of a grid as points (cell centres) weighted by their counts.

    The hue column holds the levels with the dtype seaborn needs to see them
    as the levels (numbers as numbers, anything else as a categorical).
    """
    parts = []
    for i, counts in enumerate(grid.counts):
        c = np.nan_to_num(counts)
        ix, iy = np.nonzero(c > 0)
        part = pd.DataFrame({"x": grid.xcentres[ix], "y": grid.ycentres[iy], "weights": c[ix, iy]})
        if levels is not None:
            part["hue"] = levels[i]
        parts.append(part)
    points = pd.concat(parts, ignore_index=True)
    if levels is not None and not points.empty:
        if all(isinstance(v, Number) and not isinstance(v, bool) for v in levels):
            dtype = float if any(isinstance(v, float) for v in levels) else "int64"
            points["hue"] = points["hue"].astype(dtype)
        else:
            points["hue"] = pd.Categorical(points["hue"], categories=levels)
    return points


def _grid_kde(inp: _Input, grid: GridRelease, method: str, names: list[str]) -> KdeRelease:
    """Wrap a suppressed density grid as a kde release (drawn as contours)."""
    return KdeRelease(
        data=_cell_points(grid, inp.levels),
        labels={"x": names[0], "y": names[1], "hue": inp.hue_name or "hue"},
        levels=inp.levels,
        method=method,
        grid=GridRelease(
            grid.xedges,
            grid.yedges,
            grid.counts,
            inp.levels if inp.levels is not None else [None],
            grid.xlim,
            grid.ylim,
            grid.xticks,
            grid.yticks,
            grid.report,
        ),
        scales={"x": None, "y": None},
        sig=None,
        report=grid.report,
        avoid={"x": inp.rare[names[0]], "y": inp.rare[names[1]]},
    )


def _sums_kde(inp, grid: GridRelease, method: str, names: list[str], which: str) -> KdeRelease:
    """Release the row (column) sums of a suppressed grid as weighted points for a density."""
    axis = 1 if which == "x" else 0
    centres = grid.xcentres if which == "x" else grid.ycentres
    parts = []
    for i, counts in enumerate(grid.counts):
        sums = np.nansum(np.nan_to_num(counts), axis=axis)
        keep = sums > 0
        part = pd.DataFrame({which: centres[keep], "weights": sums[keep]})
        if inp.levels is not None:
            part["hue"] = inp.levels[i]
        parts.append(part)
    data = pd.concat(parts, ignore_index=True)
    if inp.levels is not None:
        data["hue"] = pd.Categorical(data["hue"], categories=inp.levels)
    name = names[0] if which == "x" else names[1]
    return KdeRelease(
        data=data,
        labels={which: name, "hue": inp.hue_name or "hue"},
        levels=inp.levels,
        method=method,
        grid=None,
        scales={which: None},
        sig=None,
        report=grid.report,
        avoid={which: inp.rare[name]},
    )
