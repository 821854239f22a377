"""Kernel density plots: ``kdeplot``.

:func:`release_kde` turns one variable (a univariate density) or two (a
bivariate density) into a :class:`KdeRelease`: exactly the numbers the
density is estimated from under a method. :func:`draw_kde` draws a release
and nothing else; :func:`kdeplot` is the seaborn-compatible function built on
the two.

What the density is estimated from, per method:

* ``"deterministic"``, ``"probabilistic"`` - the anonymised values (kNN
  centroids, keyed noise); seaborn's own ``kdeplot`` draws their density.
* ``"confidential"`` - the winsorised values (O'Keefe), evaluated over a
  range whose ends are rounded outward to the policy's significant figures.
* ``"suppress"``, ``"generalize"`` - univariate: the centres of the shown bins
  of the suppressed histogram, weighted by their counts; bivariate: the
  suppressed 30 x 30 density grid (15 x 15 generalised) itself, drawn as
  contours.

The curve is evaluated on a regular grid of points (seaborn's *support*) whose
ends depend only on released values (for ``"confidential"``, on a range rounded
outward to the policy's significant figures). Such a grid is no data: it is drawn
as seaborn draws it and never shifted to avoid a raw value, since the shift would
itself say that a value sits there (DESIGN invariant 2). Contour vertices that
matplotlib interpolates between grid points are computed from the density, so
they are checked after drawing and any one equal to a rare raw value is moved by
1e-7 of its value; a vertex on a grid line keeps the grid's coordinate.
"""

from __future__ import annotations

import contextlib
import math
import textwrap
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from numbers import Number
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator, NullFormatter, StrMethodFormatter

from .._validate import clean_numeric
from ..anonymize import round_sig
from ..anonymize.grids import (
    histogram_counts,
    hit_mask,
    hits_any,
    rare_values,
    safe_edges,
    safe_ticks,
)
from ..anonymize.suppression import coarsen_counts, coarsen_edges, suppress
from ..errors import DisclosureError
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, GridRelease
from ..sources.dask import DaskColumns, check_dask_method, is_dask_collection
from ._common import (
    check_positive_int,
    finish,
    get_ax,
    make_report,
    quiet_seaborn,
    safe_limits,
    set_safe_axis,
    takes_method_options,
)
from ._data import categorical_order, plot_data, wide_to_long
from .grid import GRID_BINS, release_grid

__all__ = ["KDE_METHODS", "KdeRelease", "draw_kde", "kdeplot", "release_kde"]

#: What a kde plot can release: every family of method.
_FAMILIES = ("raw", "counts", "rules", "values")

#: Methods a kde release supports (univariate and bivariate).
KDE_METHODS = tuple(m.name for m in available_methods() if m.family in _FAMILIES)

#: Relative nudge applied to a drawn coordinate that equals a rare raw value.
_NUDGE = 1e-7


# --------------------------------------------------------------------------------------
# scales


@dataclass(frozen=True)
class _Scale:
    """An axis scale: linear (``base=None``) or logarithmic, as matplotlib transforms it."""

    base: float | None = None

    @property
    def log(self) -> bool:
        return self.base is not None

    def fwd(self, v: Any) -> np.ndarray:
        v = np.asarray(v, dtype=float)
        if self.base is None:
            return v
        log = {np.e: np.log, 2: np.log2, 10: np.log10}.get(self.base)
        return log(v) if log is not None else np.log(v) / np.log(self.base)

    def inv(self, t: Any) -> np.ndarray:
        t = np.asarray(t, dtype=float)
        return t if self.base is None else np.power(self.base, t)


def _scale_from(value: Any) -> _Scale:
    if value is None or value is False:
        return _Scale()
    if value is True:
        return _Scale(10.0)
    if isinstance(value, Number) and not isinstance(value, bool):
        base = float(value)
        if not (math.isfinite(base) and base > 0 and base != 1):
            raise ValueError(
                f"log_scale base must be a positive number other than 1, got {value}."
            )
        return _Scale(base)
    raise ValueError(
        f"log_scale must be a bool, a number (the base) or a pair of them; got {value!r}."
    )


def _resolve_scales(log_scale: Any, axes: tuple[str, ...], ax: Axes | None) -> dict[str, _Scale]:
    """Scale of each data axis, as seaborn sets it: `log_scale`, else the Axes' own scale."""
    if log_scale is None:
        given: dict[str, Any] = {a: None for a in axes}
    elif isinstance(log_scale, (tuple, list)):
        if len(log_scale) != 2:
            raise ValueError(f"log_scale as a pair needs two values (x, y), got {log_scale!r}.")
        given = {"x": log_scale[0], "y": log_scale[1]}
    else:
        given = {a: log_scale for a in axes}
    scales = {}
    for a in axes:
        scale = _scale_from(given.get(a))
        if not scale.log and ax is not None:
            axis = ax.xaxis if a == "x" else ax.yaxis
            if axis.get_scale() == "log":
                scale = _Scale(float(axis.get_transform().base))
        scales[a] = scale
    return scales


# --------------------------------------------------------------------------------------
# coordinates that must not equal a rare raw value


def _nudged(
    values: np.ndarray, avoid: np.ndarray, keep: np.ndarray | None = None
) -> np.ndarray | None:
    """`values` with every one equal to a value in `avoid` moved by 1e-7 (relative); None if none.

    The move is relative to the value's magnitude (to the spread of `values`
    for a zero), far below what a figure can show. Values exactly in `keep`
    (coordinates of the regular grid the density was evaluated on) are left
    as they are.
    """
    v = np.array(values, dtype=float)
    free = None if keep is None or keep.size == 0 else ~np.isin(v, keep)
    hit = hit_mask(v, avoid)
    if free is not None:
        hit &= free
    if not hit.any():
        return None
    finite = v[np.isfinite(v)]
    spread = float(finite.max() - finite.min()) if finite.size > 1 else 0.0
    for _ in range(50):
        scale = np.where(v[hit] != 0, np.abs(v[hit]), spread or 1.0)
        v[hit] += _NUDGE * scale
        hit = hit_mask(v, avoid)
        if free is not None:
            hit &= free
        if not hit.any():
            return v
    raise RuntimeError(
        "Could not move a drawn coordinate off the rare values."
    )  # pragma: no cover


def _round_range(
    lo: float, hi: float, sig: int, avoid: np.ndarray, scale: _Scale
) -> tuple[float, float]:
    """Round a range outward to `sig` significant figures of its larger end, off rare values.

    An end that equals a rare value moves one more unit outward. On a log
    scale an end is never moved to zero or below.
    """
    top = max(abs(lo), abs(hi))
    if not (math.isfinite(top) and top > 0):
        return lo, hi
    exponent = math.floor(math.log10(top)) - sig + 1
    unit = 10.0**exponent
    decimals = max(0, -exponent)
    m_lo, m_hi = math.floor(lo / unit), math.ceil(hi / unit)
    if scale.log:
        m_lo = max(m_lo, 1) if lo > 0 else m_lo
    r_lo, r_hi = round(m_lo * unit, decimals), round(m_hi * unit, decimals)
    while hit_mask(np.array([r_lo]), avoid).any() and not (scale.log and m_lo <= 1):
        m_lo -= 1
        r_lo = round(m_lo * unit, decimals)
    while hit_mask(np.array([r_hi]), avoid).any():
        m_hi += 1
        r_hi = round(m_hi * unit, decimals)
    return float(r_lo), float(r_hi)


# --------------------------------------------------------------------------------------
# the release


@dataclass
class KdeRelease:
    """What a kde plot draws: the exact numbers its density is estimated from.

    Attributes
    ----------
    data : DataFrame
        One row per released point, with the columns ``"x"`` and/or ``"y"``
        (released values in data units), ``"weights"`` (the shown count of a
        bin or grid cell, for ``"suppress"``/``"generalize"``) and ``"hue"``
        (the point's hue level) when used. Counts are frequency weights: the
        density is that of each shown bin centre repeated count times, so
        the bandwidth rule sees the number of records, not of bins.
    labels : dict
        Role -> axis or legend label.
    levels : list or None
        Hue levels, in order.
    method : str
    grid : GridRelease or None
        The suppressed density grid a bivariate ``"suppress"``/``"generalize"``
        plot draws as contours (in the scale's units: log10 values on a log axis).
    scales : dict
        Role -> log base of the axis (None: linear). The density is
        estimated on that scale, so the release is made on it too.
    sig : int or None
        ``"confidential"``: significant figures of the rounded range the
        density is evaluated over.
    report : DisclosureReport
    avoid : dict
        Role -> values no drawn coordinate may equal (the rare raw values).
        Used by the drawing guard only; never drawn and not shown in the repr.
    """

    data: pd.DataFrame
    labels: dict[str, str]
    levels: list | None
    method: str
    grid: GridRelease | None
    scales: dict[str, float | None]
    sig: int | None
    report: DisclosureReport
    avoid: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @property
    def bivariate(self) -> bool:
        """Whether the release has both x and y."""
        return "x" in self.data.columns and "y" in self.data.columns

    @property
    def data_axis(self) -> str:
        """The axis of the values of a univariate release ("x" or "y")."""
        return "x" if "x" in self.data.columns else "y"


def release_kde(
    x: Any = None,
    y: Any = None,
    *,
    hue: Any = None,
    hue_order: list[Any] | None = None,
    labels: Mapping[str, str] | None = None,
    wide: bool = False,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int = 3,
    q: float = 0.25,
    bins: int = GRID_BINS,
    log_scale: Any = None,
    n_dropped: int = 0,
    function: str = "kdeplot",
    policy: Policy | None = None,
) -> KdeRelease:
    """Release what a kernel density plot of `x` (and/or `y`) is estimated from.

    Parameters
    ----------
    x, y : array-like, optional
        Raw values: one of them for a univariate density, both for a
        bivariate one. Rows with a missing value are dropped and reported;
        text, infinite, empty, all-missing or constant data are refused.
    hue : array-like, optional
        A category per record: one density per level.
    hue_order : list, optional
        Levels to plot, in order (records of other levels are left out).
    labels : mapping, optional
        Role -> name, for the report, the keyed noise and the axis labels.
    wide : bool, default False
        The hue levels are different variables (wide-form data): each is
        released on its own (own noise scale, own bins, own winsorising).
    method : str, optional
        Default: the policy's method for "kde" (univariate) or "contour"
        (bivariate).
    threshold : int, optional
        Minimum count of a shown bin or cell (default and floor: the policy's).
    factor : int, default 2
        Coarsening of ``"generalize"``.
    k, q : int, float
        Parameters of ``"deterministic"`` and ``"probabilistic"``.
    bins : int, default 30
        Bins of the suppressed histogram (univariate) or cells per axis of
        the density grid (bivariate), before generalisation.
    log_scale : bool, number or pair, optional
        As seaborn's: the density is estimated on the log scale, so the
        release is made on it (values must be positive).
    n_dropped : int
        Rows the caller already dropped for missing values.
    function : str
        Calling function, for the report.
    policy : Policy, optional

    Returns
    -------
    KdeRelease

    See Also
    --------
    draw_kde, kdeplot
    safeplot.plots.grid.release_grid : The density grid of bivariate binned methods.

    Examples
    --------
    >>> import numpy as np
    >>> rel = release_kde(np.random.default_rng(0).normal(size=300), method="suppress")
    >>> bool((rel.data["weights"] >= 3).all())
    True
    """
    pol = get_policy(policy)
    roles = tuple(r for r, v in (("x", x), ("y", y)) if v is not None)
    if not roles:
        raise ValueError(f"{function}: give the values to plot, as x= and/or y=.")
    bivariate = len(roles) == 2
    method = pol.check_method(method, "contour" if bivariate else "kde")
    m = check_family(method, _FAMILIES, "kernel density plots")
    threshold = pol.check_threshold(threshold)
    bins = check_positive_int("bins", bins)
    factor = check_positive_int("factor", factor)
    labels = {r: r for r in ("x", "y", "hue")} | dict(labels or {})
    if wide and (bivariate or hue is None):
        raise ValueError("wide=True needs one value variable and the column of each value as hue.")
    if any(is_dask_collection(v) for v in (x, y, hue)):  # counted out of core
        return release_kde_dask(
            x,
            y,
            hue=hue,
            hue_order=hue_order,
            labels=labels,
            method=method,
            threshold=threshold,
            factor=factor,
            bins=bins,
            scales=_resolve_scales(log_scale, roles, None)
            if not isinstance(log_scale, dict)
            else {r: log_scale.get(r, _Scale()) for r in roles},
            n_dropped=n_dropped,
            function=function,
            policy=pol,
        )

    columns: dict[str, Any] = {r: v for r, v in (("x", x), ("y", y)) if v is not None}
    if hue is not None:
        columns["hue"] = hue
    frame = pd.DataFrame({r: _as_series(v) for r, v in columns.items()})
    # validate under the user's names (clear messages), when they are distinct
    shown = [labels[r] or r for r in frame.columns]
    named = frame.set_axis(shown if len(set(shown)) == len(shown) else list(frame.columns), axis=1)
    clean = clean_numeric(
        named,
        [named.columns[frame.columns.get_loc(r)] for r in roles],
        strata=[named.columns[-1]] if hue is not None else None,
    )
    keep = frame[list(roles)].apply(pd.to_numeric, errors="coerce").notna().all(axis=1)
    if hue is not None:
        keep &= frame["hue"].notna()
    raw = clean.values
    n_dropped += clean.n_dropped
    hue_kept = frame["hue"][keep.to_numpy()].reset_index(drop=True) if hue is not None else None
    levels: list | None = None
    codes = np.zeros(raw.shape[0], dtype=int)
    if hue_kept is not None:
        levels = categorical_order(hue_kept, hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = np.array([lookup.get(h, -1) for h in hue_kept], dtype=int)
        inside = codes >= 0
        if not inside.any():
            raise ValueError(
                f"{function}: no record has a hue level in hue_order={list(levels)}. "
                "Check the level names."
            )
        raw, codes, hue_kept = raw[inside], codes[inside], hue_kept[inside].reset_index(drop=True)
    scales = (
        _resolve_scales(log_scale, roles, None)
        if not isinstance(log_scale, dict)
        else {r: log_scale.get(r, _Scale()) for r in roles}
    )
    for j, r in enumerate(roles):
        if scales[r].log and (raw[:, j] <= 0).any():
            raise ValueError(
                f"{function}: log_scale needs positive values, but {labels[r]!r} has values "
                "<= 0. Drop them first or plot on a linear scale."
            )
    groups = [np.flatnonzero(codes == i) for i in range(len(levels))] if levels else [None]
    avoid = {}
    for j, r in enumerate(roles):
        parts = [rare_values(raw[:, j] if g is None else raw[g, j], threshold) for g in groups]
        avoid[r] = np.unique(np.concatenate(parts)) if parts else np.array([])
    if wide:
        for i, g in enumerate(groups):
            if g.size and np.ptp(raw[g, 0]) == 0:
                raise DisclosureError(
                    f"Column {levels[i]!r} is constant: plotting it would show its one value "
                    "exactly and it has no spread to anonymise. Drop it or choose another column."
                )
    if m.rule_based:
        _check_group_sizes(groups, levels, raw.shape[0], pol)
    t = np.column_stack([scales[r].fwd(raw[:, j]) for j, r in enumerate(roles)])
    names = tuple(labels[r] for r in roles)
    if bivariate and names[0] == names[1]:
        names = (names[0], f"{names[1]} (y)")
    params: dict[str, Any] = {"threshold": threshold}
    details: dict[str, Any] = {}
    if any(s.log for s in scales.values()):
        details["log_scale"] = {r: s.base for r, s in scales.items() if s.log}
    warn: list[str] = []
    grid = None
    sig = None
    cells_suppressed = 0
    hue_values = hue_kept.to_numpy() if hue_kept is not None else None

    if m.raw:
        params = {}
        out = {r: raw[:, j] for j, r in enumerate(roles)}
        released = pd.DataFrame(out)
        if hue_values is not None:
            released["hue"] = hue_kept
    elif m.counts_only and bivariate:
        grid = release_grid(
            t[:, 0],
            t[:, 1],
            names=names,
            hue=None if hue_values is None else codes,
            hue_order=None if hue_values is None else list(range(len(levels))),
            method=method,
            bins=bins,
            threshold=threshold,
            factor=factor,
            kind="contour",
            n_dropped=n_dropped,
            function=function,
            policy=pol,
        )
        released = _grid_points(grid, scales, levels)
        report = grid.report
        report.details.update(details)
    elif m.counts_only:
        released, cells_suppressed, params, warn = _release_binned(
            t[:, 0],
            codes,
            levels,
            wide,
            method,
            bins,
            factor,
            threshold,
            avoid[roles[0]],
            scales[roles[0]],
            roles[0],
        )
    else:
        out_t = np.empty_like(t)
        if wide:
            for i, g in enumerate(groups):
                if g.size == 0:
                    continue
                res = anonymize_values(
                    t[g], method, names=[str(levels[i])], k=k, q=q, threshold=threshold, policy=pol
                )
                out_t[g] = res.values
                params.update(res.params)
                details = _merge_details(details, res.details)
        else:
            # methods that group within strata form their groups within hue levels
            res = anonymize_values(
                t,
                method,
                names=list(names),
                k=k,
                q=q,
                strata=codes if levels else None,
                threshold=threshold,
                policy=pol,
            )
            out_t = res.values
            params.update(res.params)
            details.update(res.details)
        if m.rule_based:
            sig = pol.sig_figs
            params["sig"] = sig
        released = pd.DataFrame({r: scales[r].inv(out_t[:, j]) for j, r in enumerate(roles)})
        if hue_values is not None:
            released["hue"] = hue_kept
    if grid is None:
        report = make_report(
            function,
            method,
            params,
            names,
            raw.shape[0],
            n_dropped,
            pol,
            cells_suppressed=cells_suppressed,
            details=details,
            warnings=warn,
        )
    return KdeRelease(
        data=released,
        labels=labels,
        levels=levels,
        method=method,
        grid=grid,
        scales={r: s.base for r, s in scales.items()},
        sig=sig,
        report=report,
        avoid=avoid,
    )


def _check_group_sizes(groups: list, levels: list | None, n: int, pol: Policy) -> None:
    """O'Keefe's density keeps the (winsorised) raw values: every group needs threshold records."""
    sizes = [n if g is None else g.size for g in groups]
    small = [i for i, size in enumerate(sizes) if 0 < size < pol.threshold]
    if small:
        what = "the data" if levels is None else f"hue level {levels[small[0]]!r}"
        raise DisclosureError(
            f"method='confidential' estimates the density from the winsorised values, and "
            f"{what} has fewer than threshold={pol.threshold} records ({pol.source}). "
            "Combine levels, or use method='suppress' or 'deterministic'."
        )


def _as_series(values: Any) -> pd.Series:
    if isinstance(values, pd.Series):
        return values.reset_index(drop=True)
    arr = np.asarray(values)
    if arr.ndim != 1:
        raise ValueError(f"Expected a 1-D vector of values, got an array of shape {arr.shape}.")
    return pd.Series(arr)


def _merge_details(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Add up per-variable counts of two reports' details (rounded counts, "<t" kept)."""
    out = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif isinstance(out[key], int) and isinstance(value, int):
            out[key] += value
        elif isinstance(out[key], int) and out[key] == 0:
            out[key] = value
    return out


def _release_binned(
    t, codes, levels, wide, method, bins, factor, threshold, avoid, scale, role, counts_from=None
):
    """Suppressed histogram per hue level: shown bin centres weighted by their counts.

    With `counts_from` (a dask DataFrame's aggregates), `t` holds only the
    extremes and the counts per level come from the aggregates.
    """
    coarsens = get_method(method).coarsens
    params: dict[str, Any] = {"threshold": threshold, "bins": bins}
    t_avoid = scale.fwd(avoid[avoid > 0]) if scale.log else avoid
    groups = [np.flatnonzero(codes == i) for i in range(len(levels))] if levels else [None]
    edges_all = None if wide else safe_edges(t, bins, avoid=t_avoid)
    binned = None if counts_from is None else counts_from.histogram(0, edges_all)
    rows = []
    n_suppressed = 0
    warn = []
    for i, g in enumerate(groups):
        values = t if g is None else t[g]
        if (values.size if binned is None else binned[1][i]) == 0:
            continue
        edges = safe_edges(values, bins, avoid=t_avoid) if wide else edges_all
        counts = histogram_counts(values, edges) if binned is None else binned[0][i]
        if coarsens:
            counts, edges = coarsen_counts(counts, factor), coarsen_edges(edges, factor)
        shown = suppress(counts, threshold)
        n_suppressed += shown.n_suppressed
        c = np.nan_to_num(shown.counts)
        centres = (edges[:-1] + edges[1:]) / 2
        keep = c > 0
        if not keep.any():
            what = "" if levels is None else f" of {levels[i]!r}"
            warn.append(
                f"Every bin{what} is below the threshold: no density can be shown. Use "
                "method='generalize', fewer bins, or method='deterministic'."
            )
        part = pd.DataFrame({role: scale.inv(centres[keep]), "weights": c[keep]})
        if levels is not None:
            part["hue"] = levels[i]
        rows.append(part)
    if coarsens:
        params.update(factor=factor, bins=-(-bins // factor))
    released = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame({role: []})
    if levels is not None and not released.empty:
        released["hue"] = _like_levels(released["hue"], levels)
    return released, n_suppressed, params, warn


def release_kde_dask(
    x: Any,
    y: Any,
    *,
    hue: Any,
    hue_order: list[Any] | None,
    labels: dict[str, str],
    method: str,
    threshold: int,
    factor: int,
    bins: int,
    scales: dict[str, _Scale],
    n_dropped: int,
    function: str,
    policy: Policy,
) -> KdeRelease:
    """Release a kde plot of dask columns under ``"suppress"``/``"generalize"``.

    The same binned release as for values in memory (see
    :func:`release_kde`), made from out-of-core counts:
    univariate, the suppressed histogram per hue level; bivariate, the
    suppressed density grid. The rare values the drawing keeps clear of are
    every distinct value held by fewer than `threshold` records (the curves
    pass through arbitrary points), so this pass holds the table of distinct
    values and their counts.

    Parameters
    ----------
    x, y, hue : dask Series or None
        Columns of one dask DataFrame (x and/or y; hue optional).
    hue_order : list, optional
        The hue levels to plot, in order.
    labels : dict
        Role -> axis or legend label.
    method : str
        A method of the "counts" family (checked here).
    threshold, factor, bins : int
        As for :func:`release_kde`.
    scales : dict
        Role -> axis scale (a log scale is refused).
    n_dropped : int
        Rows dropped by the caller already.
    function : str
        Calling function, for messages.
    policy : Policy
        The policy in force.

    Returns
    -------
    KdeRelease
        Without an estimate; the rare values are in its ``avoid``.
    """
    check_dask_method(method, function)
    roles = [r for r, v in (("x", x), ("y", y)) if v is not None]
    if any(scales[r].log for r in roles):
        raise ValueError(
            f"{function}: log_scale is not supported with a dask DataFrame; plot the logarithm "
            "of the variable instead (e.g. data.assign(lx=np.log10(data['x'])))."
        )
    parts = {r: v for r, v in (("x", x), ("y", y), ("hue", hue)) if v is not None}
    if not all(is_dask_collection(v) for v in parts.values()):
        raise ValueError(f"{function}: x, y and hue must all be columns of one dask DataFrame.")
    first = parts[roles[0]]
    frame = first.to_frame(name=roles[0]).assign(
        **{r: v for r, v in parts.items() if r != roles[0]}
    )
    source = DaskColumns(
        frame,
        roles,
        hue=None if hue is None else "hue",
        hue_order=hue_order,
        function=function,
        restrict=True,
    )
    levels = None if hue is None else source.levels
    rare = source.rare_columns(
        range(len(roles)), threshold, step=None, per_level=levels is not None
    )
    avoid = dict(zip(roles, rare, strict=True))
    n_dropped += source.n_dropped
    names = tuple(labels[r] for r in roles)
    if len(roles) == 2:
        if names[0] == names[1]:
            names = (names[0], f"{names[1]} (y)")
        keep = frame["x"].notnull() & frame["y"].notnull()
        if levels is not None:
            keep &= frame["hue"].isin(levels)
        sub = frame[keep]
        grid = release_grid(
            sub["x"],
            sub["y"],
            names=names,
            hue=None if levels is None else sub["hue"],
            hue_order=levels,
            method=method,
            bins=bins,
            threshold=threshold,
            factor=factor,
            kind="contour",
            n_dropped=n_dropped,
            function=function,
            policy=policy,
        )
        released = _grid_points(grid, scales, levels)
        report = grid.report
    else:
        role = roles[0]
        grid = None
        released, cells, params, warn = _release_binned(
            source.span_values(0),
            np.zeros(0, dtype=int),
            levels,
            False,
            method,
            bins,
            factor,
            threshold,
            avoid[role],
            scales[role],
            role,
            counts_from=source,
        )
        report = make_report(
            function,
            method,
            params,
            names,
            source.n,
            n_dropped,
            policy,
            cells_suppressed=cells,
            details={},
            warnings=warn,
        )
    return KdeRelease(
        data=released,
        labels=labels,
        levels=levels,
        method=method,
        grid=grid,
        scales={r: s.base for r, s in scales.items()},
        sig=None,
        report=report,
        avoid=avoid,
    )


def _like_levels(values: pd.Series, levels: list) -> pd.Series:
    """Hue values with the dtype seaborn needs to see them as the original levels."""
    if all(isinstance(v, Number) and not isinstance(v, bool) for v in levels):
        return values.astype(float if any(isinstance(v, float) for v in levels) else "int64")
    return pd.Series(pd.Categorical(values, categories=levels), index=values.index)


def _grid_points(
    grid: GridRelease, scales: dict[str, _Scale], levels: list | None
) -> pd.DataFrame:
    """Return the shown cells of a grid release as points (cell centres) weighted by counts."""
    parts = []
    xc, yc = scales["x"].inv(grid.xcentres), scales["y"].inv(grid.ycentres)
    for i in range(grid.counts.shape[0]):
        c = np.nan_to_num(grid.counts[i])
        ix, iy = np.nonzero(c > 0)
        part = pd.DataFrame({"x": xc[ix], "y": yc[iy], "weights": c[ix, iy]})
        if levels is not None:
            part["hue"] = levels[i]
        parts.append(part)
    released = pd.concat(parts, ignore_index=True)
    if levels is not None and not released.empty:
        released["hue"] = _like_levels(released["hue"], levels)
    return released


# --------------------------------------------------------------------------------------
# drawing


@contextlib.contextmanager
def _guarded_support(
    release: KdeRelease, scales: dict[str, _Scale], drawn: dict[str, list[np.ndarray]]
) -> Iterator[None]:
    """Place seaborn's density grid on released limits while it draws `release`.

    seaborn evaluates each density on a grid from ``min - cut * bw`` to
    ``max + cut * bw`` of the released values (within ``clip``). This
    wraps the methods of :class:`seaborn._statistics.KDE` that build the grid
    so that under ``"confidential"`` the grid spans a range rounded outward
    to the policy's significant figures (within ``clip``). The grid is not
    moved off rare raw values (it depends only on released limits; DESIGN
    invariant 2); each grid, in data units, is appended to ``drawn[axis]``
    so that the check of interpolated contour vertices leaves grid
    coordinates alone.
    """
    from seaborn._statistics import KDE

    uni, bi = KDE._define_support_univariate, KDE._define_support_bivariate

    def fix(grid: np.ndarray, axis: str, clip: Any) -> np.ndarray:
        scale, avoid = scales[axis], release.avoid.get(axis, np.array([]))
        grid = np.asarray(grid, dtype=float)
        if release.sig is not None and grid.size > 1:
            lo, hi = float(scale.inv(grid[0])), float(scale.inv(grid[-1]))
            lo, hi = _round_range(lo, hi, release.sig, avoid, scale)
            t_lo, t_hi = float(scale.fwd(lo)), float(scale.fwd(hi))
            clip = (None, None) if clip is None else clip
            if clip[0] is not None:
                t_lo = max(t_lo, float(clip[0]))
            if clip[1] is not None:
                t_hi = min(t_hi, float(clip[1]))
            grid = np.linspace(t_lo, t_hi, grid.size)
        drawn.setdefault(axis, []).append(scale.inv(grid))
        return grid

    def univariate(self, x, weights):
        return fix(uni(self, x, weights), release.data_axis, self.clip)

    def bivariate(self, x1, x2, weights):
        g1, g2 = bi(self, x1, x2, weights)
        clip = self.clip
        if clip[0] is None or np.isscalar(clip[0]):
            clip = (clip, clip)
        return fix(g1, "x", clip[0]), fix(g2, "y", clip[1])

    KDE._define_support_univariate = univariate
    KDE._define_support_bivariate = bivariate
    try:
        yield
    finally:
        KDE._define_support_univariate = uni
        KDE._define_support_bivariate = bi


#: Records up to which a binned density is drawn from one point per record; beyond, the
#: counts weight the same estimate (:func:`_frequency_weights`).
_EXPAND_MAX = 100_000


@contextlib.contextmanager
def _frequency_weights() -> Iterator[None]:
    """Make seaborn's kde read weights as frequency counts, as if each point were repeated.

    scipy's ``gaussian_kde`` treats weights as analytic weights: its
    bandwidth rule counts an effective number of points and its covariance
    is the weighted one. Here the estimate is that of the data with each
    bin centre repeated count times -- the covariance with ``fweights`` and
    Scott's or Silverman's factor for the number of records, and the grid
    of evaluation points from that fit -- without building those rows (a
    count may describe millions of records). The density is the same
    weighted sum of kernels.
    """
    from scipy import linalg
    from scipy.stats import gaussian_kde
    from seaborn._statistics import KDE

    fit = KDE._fit

    def frequency_fit(self, fit_data, weights=None):
        if weights is None:
            return fit(self, fit_data, weights)
        counts = np.asarray(weights, dtype=float)
        kde = gaussian_kde(fit_data, bw_method=self.bw_method, weights=counts)
        n, d = counts.sum(), kde.d
        if self.bw_method in (None, "scott"):
            factor = n ** (-1.0 / (d + 4))
        elif self.bw_method == "silverman":
            factor = (n * (d + 2) / 4.0) ** (-1.0 / (d + 4))
        else:
            factor = float(self.bw_method)
        cov = np.atleast_2d(
            np.cov(kde.dataset, rowvar=1, bias=False, fweights=counts.astype(np.int64))
        )
        kde._data_covariance = cov
        kde._data_cho_cov = linalg.cholesky(cov, lower=True)
        kde.set_bandwidth(factor * self.bw_adjust)
        return kde

    uni, bi = KDE._eval_univariate, KDE._eval_bivariate

    def with_support(evaluate, *data, weights=None):
        # seaborn places the grid from a fit without weights: here, from the weighted one
        self = data[0]
        if self.support is not None or weights is None:
            return evaluate(*data, weights=weights)
        self.support = self.define_support(*data[1:], weights=weights, cache=False)
        try:
            return evaluate(*data, weights=weights)
        finally:
            self.support = None

    KDE._fit = frequency_fit
    KDE._eval_univariate = lambda self, x, weights=None: with_support(
        uni, self, x, weights=weights
    )
    KDE._eval_bivariate = lambda self, x1, x2, weights=None: with_support(
        bi, self, x1, x2, weights=weights
    )
    try:
        yield
    finally:
        KDE._fit, KDE._eval_univariate, KDE._eval_bivariate = fit, uni, bi


def _artist_ids(ax: Axes) -> set[int]:
    return {id(a) for a in (*ax.lines, *ax.collections, *ax.patches)}


def _scrub(
    ax: Axes,
    before: set[int],
    avoid: dict[str, np.ndarray],
    grids: dict[str, list[np.ndarray]] | None = None,
) -> int:
    """Move any coordinate of a newly drawn artist that equals a rare raw value (1e-7 relative).

    Contour vertices are interpolated by matplotlib between grid points; this
    is the check that none lands on a rare raw value. Coordinates of the
    evaluation grid (`grids`, per axis, in data units) are no data and are
    left as they are. Returns the number of coordinates moved.
    """
    ax_x, ax_y = avoid.get("x", np.array([])), avoid.get("y", np.array([]))
    grids = grids or {}
    keep = {
        a: np.unique(np.concatenate(grids[a])) if grids.get(a) else np.array([])
        for a in ("x", "y")
    }
    moved = 0
    for line in ax.lines:
        if id(line) in before:
            continue
        for get, put, av, kp in (
            (line.get_xdata, line.set_xdata, ax_x, keep["x"]),
            (line.get_ydata, line.set_ydata, ax_y, keep["y"]),
        ):
            values = np.asarray(get(), dtype=float)
            new = _nudged(values, av, kp)
            if new is not None:
                moved += int((new != values).sum())
                put(new)
    for coll in ax.collections:
        if id(coll) in before or not coll.get_transform().contains_branch(ax.transData):
            continue
        for path in coll.get_paths():
            verts = path.vertices
            if not verts.size:
                continue
            for j, av, kp in ((0, ax_x, keep["x"]), (1, ax_y, keep["y"])):
                new = _nudged(verts[:, j], av, kp)
                if new is not None:
                    moved += int((new != verts[:, j]).sum())
                    if not verts.flags.writeable:  # pragma: no cover - read-only paths
                        verts = verts.copy()
                        path._vertices = verts
                    verts[:, j] = new
    return moved


def _log_axis(
    lo: float, hi: float, avoid: np.ndarray, scale: _Scale, pad: float = 0.05
) -> tuple[tuple[float, float], np.ndarray]:
    """Safe limits and ticks for a log axis showing released values in [lo, hi] (> 0).

    The limits are padded by `pad` of the range on the log scale. Ticks are
    powers of the base, else 1-2-5 (1-3, 2-5, ...) multiples of them, the first
    set with at least two ticks of which none is a rare value: a whole set is
    changed rather than one tick dropped.
    """
    t_lo, t_hi = float(scale.fwd(lo)), float(scale.fwd(hi))
    span = (t_hi - t_lo) or 1.0
    lim = [float(scale.inv(t_lo - pad * span)), float(scale.inv(t_hi + pad * span))]
    for i, sign in ((0, -1.0), (1, 1.0)):
        while hit_mask(np.array([lim[i]]), avoid).any():
            lim[i] *= 1 + sign * 1e-6
    base = scale.base
    exps = np.arange(math.floor(scale.fwd(lim[0])) - 1, math.ceil(scale.fwd(lim[1])) + 2)
    subsets = [(1,), (1, 2, 5), (1, 3), (2, 5), (3,), (2, 4, 6, 8), tuple(range(1, 10))]
    subsets = subsets if base == 10 else [(1,)]
    for subs in subsets:
        cand = np.unique(np.round([m * base**e for e in exps for m in subs], 12))
        ticks = cand[(cand >= lim[0]) & (cand <= lim[1])]
        if 2 <= ticks.size <= 12 and not hit_mask(ticks, avoid).any():
            return (lim[0], lim[1]), ticks
    t_avoid = scale.fwd(avoid[avoid > 0])
    ticks = scale.inv(safe_ticks(*scale.fwd(lim), avoid=t_avoid))
    rounded = np.asarray(round_sig(ticks, 2))
    if np.unique(rounded).size == ticks.size and not hit_mask(rounded, avoid).any():
        ticks = rounded
    return (lim[0], lim[1]), ticks[~hit_mask(ticks, avoid)]


def _set_data_axis(
    ax: Axes,
    which: str,
    lo: float,
    hi: float,
    avoid: np.ndarray,
    scale: _Scale,
    *,
    lim: tuple[float, float] | None = None,
    ticks: np.ndarray | None = None,
    margin: float = 0.05,
) -> None:
    """Fix an axis showing released values to safe limits and ticks (`margin` of the range)."""
    if lim is None or ticks is None:
        if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
            _set_density_ticks(ax, which, avoid)
            return
        if scale.log:
            lim, ticks = _log_axis(lo, hi, avoid, scale, pad=margin)
        else:
            lim = safe_limits(lo, hi, avoid, margin=margin)
            ticks = safe_ticks(lim[0], lim[1], avoid=avoid)
    set_safe_axis(ax, which, lim, ticks)
    if scale.log:
        axis = ax.xaxis if which == "x" else ax.yaxis
        axis.set_major_formatter(StrMethodFormatter("{x:g}"))
        axis.set_minor_formatter(NullFormatter())


def _set_density_ticks(ax: Axes, which: str, avoid: np.ndarray) -> None:
    """Put the ticks of an axis that shows densities (not data) on numbers that are no rare value.

    Tick labels are text, and every number written in a released figure must
    differ from a rare raw value, whatever it means.
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    if axis.get_scale() != "linear":
        return
    lo, hi = sorted(ax.get_xlim() if which == "x" else ax.get_ylim())
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return
    axis.set_major_locator(FixedLocator(safe_ticks(lo, hi, avoid=avoid)))


def _safe_colorbars(ax: Axes, before: set[int], avoid: np.ndarray) -> None:
    """Put the ticks of colour bars of new contours on numbers that are no rare value."""
    for coll in ax.collections:
        cb = getattr(coll, "colorbar", None)
        if id(coll) in before or cb is None:
            continue
        lo, hi = cb.norm.vmin, cb.norm.vmax
        if (
            lo is not None
            and hi is not None
            and math.isfinite(lo)
            and math.isfinite(hi)
            and hi > lo
        ):
            cb.set_ticks(safe_ticks(float(lo), float(hi), avoid=avoid))
            cb.minorticks_off()


def _bounds(ax: Axes, which: str) -> tuple[float, float]:
    lim = ax.dataLim
    lo, hi = (lim.x0, lim.x1) if which == "x" else (lim.y0, lim.y1)
    return (
        (float(lo), float(hi)) if math.isfinite(lo) and math.isfinite(hi) else (math.nan, math.nan)
    )


def _quantile_to_level(data: Any, quantile: Any) -> np.ndarray:
    """Return data levels at iso-proportions of mass (seaborn's rule, applied to counts)."""
    isoprop = np.asarray(quantile)
    values = np.ravel(data)
    sorted_values = np.sort(values)[::-1]
    normalized_values = np.cumsum(sorted_values) / values.sum()
    idx = np.searchsorted(normalized_values, 1 - isoprop)
    return np.take(sorted_values, idx, mode="clip")


def _draw_grid_contours(
    ax: Axes,
    release: KdeRelease,
    scales: dict[str, _Scale],
    *,
    palette,
    hue_norm,
    color,
    fill,
    common_norm,
    cumulative,
    levels,
    thresh,
    clip,
    legend,
    cbar,
    cbar_ax,
    cbar_kws,
    warn_singular,
    log_scale,
    kwargs,
) -> dict[str, tuple[float, float]]:
    """Draw contours of a suppressed density grid (shown counts; suppressed cells as 0).

    Returns the extent of the drawn grid per axis (data units), for the axis limits.
    """
    from seaborn.distributions import _DistributionPlotter
    from seaborn.palettes import color_palette
    from seaborn.utils import _default_color

    grid = release.grid
    counts = np.nan_to_num(grid.counts)
    wx, wy = grid.xedges[1] - grid.xedges[0], grid.yedges[1] - grid.yedges[0]
    if cumulative:
        # cumulative counts at the upper edge of each cell; 0 at the lower edges
        xs, ys = grid.xedges, grid.yedges
        z = np.pad(counts.cumsum(axis=1).cumsum(axis=2), ((0, 0), (1, 0), (1, 0)))
        half = (0.0, 0.0)
    else:
        # a ring of empty cells around the grid, so contours close as a density's do
        xs = np.r_[grid.xcentres[0] - wx, grid.xcentres, grid.xcentres[-1] + wx]
        ys = np.r_[grid.ycentres[0] - wy, grid.ycentres, grid.ycentres[-1] + wy]
        z = np.pad(counts, ((0, 0), (1, 1), (1, 1)))
        half = (wx / 2, wy / 2)
    if clip is not None:
        cx, cy = (clip, clip) if clip[0] is None or np.isscalar(clip[0]) else clip
        cx, cy = cx or (None, None), cy or (None, None)
        keep_x = (xs >= (-np.inf if cx[0] is None else cx[0])) & (
            xs <= (np.inf if cx[1] is None else cx[1])
        )
        keep_y = (ys >= (-np.inf if cy[0] is None else cy[0])) & (
            ys <= (np.inf if cy[1] is None else cy[1])
        )
        xs, ys, z = xs[keep_x], ys[keep_y], z[:, keep_x][:, :, keep_y]
    if xs.size < 2 or ys.size < 2:
        raise ValueError(
            "clip leaves fewer than two grid cells along an axis: widen clip, or use more bins."
        )
    xd, yd = scales["x"].inv(xs), scales["y"].inv(ys)
    extent = {
        "x": tuple(scales["x"].inv([xs[0] - half[0], xs[-1] + half[0]])),
        "y": tuple(scales["y"].inv([ys[0] - half[1], ys[-1] + half[1]])),
    }

    # a seaborn plotter for hue colours, legend and labels; it needs the hue levels
    # only (one row each, no coordinates: nothing is drawn from it)
    variables = {"x": "x", "y": "y"}
    has_hue = release.levels is not None
    n_rows = len(release.levels) if has_hue else 1
    frame = pd.DataFrame({"x": np.full(n_rows, np.nan), "y": np.full(n_rows, np.nan)})
    if has_hue:
        frame["hue"] = _like_levels(pd.Series(release.levels), release.levels)
        variables["hue"] = "hue"
    frame = frame.rename(columns={r: release.labels[r] or r for r in variables})
    variables = {r: release.labels[r] or r for r in variables}
    if len(set(variables.values())) < len(variables):
        frame.columns = list(variables)
        variables = {r: r for r in variables}
    plotter = _DistributionPlotter(data=frame, variables=variables)
    plotter.map_hue(palette=palette, order=release.levels, norm=hue_norm)
    plotter._attach(ax, allowed_types=["numeric"], log_scale=log_scale)

    contour_kws = dict(kwargs)
    contour_kws.pop("label", None)
    color = _default_color(
        ax.fill_between if fill else ax.plot, "hue" if has_hue else None, color, contour_kws
    )
    if thresh is None:
        thresh = 0
    if isinstance(levels, Number):
        iso = np.linspace(thresh, 1, int(levels))
    else:
        iso = np.asarray(levels, dtype=float)
        if iso.min() < 0 or iso.max() > 1:
            raise ValueError("levels must be in [0, 1]")
    shown = [i for i in range(z.shape[0]) if z[i].any()]
    if has_hue and common_norm and shown:
        common = _quantile_to_level([z[i] for i in shown], iso)
        draw_levels = {i: common for i in shown}
    else:
        draw_levels = {i: _quantile_to_level(z[i], iso) for i in shown}
    for i in range(z.shape[0]):
        if i not in draw_levels and warn_singular:
            what = f" for {release.levels[i]!r}" if has_hue else ""
            warnings.warn(
                f"No grid cell{what} reaches the threshold: no contour can be drawn. "
                "Pass `warn_singular=False` to disable this warning.",
                UserWarning,
                stacklevel=4,
            )
    if has_hue:
        for param in ("cmap", "colors"):
            if param in contour_kws:
                warnings.warn(
                    f"{param} parameter ignored when using hue mapping.", UserWarning, stacklevel=4
                )
                contour_kws.pop(param)
    else:
        given = set(contour_kws) & {"cmap", "colors"}
        if fill and not given:
            contour_kws["cmap"] = plotter._cmap_from_color(color)
        if not fill and not given:
            contour_kws["colors"] = [color]
        cmap = contour_kws.pop("cmap", None)
        if isinstance(cmap, str):
            cmap = color_palette(cmap, as_cmap=True)
        if cmap is not None:
            contour_kws["cmap"] = cmap
    for i in shown:
        if has_hue:
            c = plotter._hue_map(release.levels[i])
            if fill:
                contour_kws["cmap"] = plotter._cmap_from_color(c)
            else:
                contour_kws["colors"] = [c]
        lv = np.unique(draw_levels[i])
        if fill and lv.size < 2:
            top = z[i].max()
            lv = np.array([lv[0], top]) if top > lv[0] else np.array([lv[0], lv[0] * 1.001])
        func = ax.contourf if fill else ax.contour
        cset = func(xd, yd, z[i].T, levels=lv, **contour_kws)
        if cbar:
            ax.figure.colorbar(cset, cbar_ax, ax, **({} if cbar_kws is None else cbar_kws))
    plotter._add_axis_labels(ax)
    if has_hue and legend:
        from functools import partial

        import matplotlib as mpl

        artist = partial(mpl.patches.Patch) if fill else partial(mpl.lines.Line2D, [], [])
        plotter._add_legend(ax, artist, fill, False, "layer", 1, {}, {})
    return extent


def draw_kde(
    ax: Axes,
    release: KdeRelease,
    *,
    palette: Any = None,
    hue_norm: Any = None,
    color: Any = None,
    fill: bool | None = None,
    multiple: str = "layer",
    common_norm: bool = True,
    common_grid: bool = False,
    cumulative: bool = False,
    bw_method: Any = "scott",
    bw_adjust: float = 1,
    warn_singular: bool = True,
    log_scale: Any = None,
    levels: Any = 10,
    thresh: float | None = 0.05,
    gridsize: int = 200,
    cut: float = 3,
    clip: Any = None,
    legend: bool = True,
    cbar: bool = False,
    cbar_ax: Axes | None = None,
    cbar_kws: dict | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a kde release on `ax`.

    Only the release reaches seaborn and matplotlib: the released values
    (seaborn estimates and draws their density, on a guarded grid), or the
    suppressed grid (drawn as contours). Axes showing data get limits and
    ticks on safe numbers. The report is not attached here (see
    :func:`safeplot.plots._common.finish`).

    Parameters
    ----------
    ax : Axes
        Where to draw.
    release : KdeRelease
        What to draw, from :func:`release_kde`.
    palette, hue_norm, color, fill, multiple, common_norm, common_grid, cumulative
        As in :func:`kdeplot`.
    bw_method, bw_adjust, warn_singular, log_scale, levels, thresh, gridsize, cut, clip
        As in :func:`kdeplot`.
    legend, cbar, cbar_ax, cbar_kws
        As in :func:`kdeplot`.
    **kwargs
        Passed to matplotlib.

    Returns
    -------
    Axes

    See Also
    --------
    release_kde, kdeplot

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> rel = release_kde(np.random.default_rng(1).normal(size=200), method="generalize")
    >>> ax = draw_kde(plt.figure().gca(), rel, fill=True)
    >>> len(ax.collections)
    1
    >>> plt.close("all")
    """
    import seaborn as sns

    roles = ("x", "y") if release.bivariate else (release.data_axis,)
    scales = {r: _Scale(release.scales.get(r)) for r in roles}
    if log_scale is None and any(s.log for s in scales.values()):
        log_scale = tuple(scales[r].base if r in scales else False for r in ("x", "y"))
    before = _artist_ids(ax)
    m = get_method(release.method)
    d = release.data
    extent = None
    grids: dict[str, list[np.ndarray]] = {}
    if release.grid is not None:
        with quiet_seaborn():
            extent = _draw_grid_contours(
                ax,
                release,
                scales,
                palette=palette,
                hue_norm=hue_norm,
                color=color,
                fill=fill,
                common_norm=common_norm,
                cumulative=cumulative,
                levels=levels,
                thresh=thresh,
                clip=clip,
                legend=legend,
                cbar=cbar,
                cbar_ax=cbar_ax,
                cbar_kws=cbar_kws,
                warn_singular=warn_singular,
                log_scale=log_scale,
                kwargs=kwargs,
            )
    else:
        frequency = contextlib.nullcontext()
        if "weights" in d.columns and m.counts_only:
            if d["weights"].sum() > _EXPAND_MAX and not callable(bw_method) and not common_grid:
                # many records (e.g. counted out of core): the same estimate from the counts
                frequency = _frequency_weights()
            else:
                # frequency weights: each shown bin centre once per record it counts, so the
                # bandwidth rule sees the number of records (scipy's weights would count bins)
                d = d.loc[d.index.repeat(d["weights"].to_numpy().astype(np.int64))]
                d = d.drop(columns="weights").reset_index(drop=True)
        vectors: dict[str, Any] = {}
        for r in roles:
            vectors[r] = pd.Series(d[r].to_numpy(), name=release.labels.get(r, r))
        if release.levels is not None:
            vectors["hue"] = pd.Series(
                _like_levels(d["hue"], release.levels).to_numpy(),
                name=release.labels.get("hue", "hue"),
            )
        if "weights" in d.columns:
            vectors["weights"] = pd.Series(d["weights"].to_numpy(), name="weights")
        if warn_singular and m.counts_only:
            present = set(d["hue"]) if release.levels is not None and not d.empty else set()
            for level in release.levels if release.levels is not None else [None]:
                if (level is None and d.empty) or (level is not None and level not in present):
                    what = "" if level is None else f" of {level!r}"
                    warnings.warn(
                        f"Every bin{what} is below the threshold: no density can be drawn. "
                        "Pass `warn_singular=False` to disable this warning.",
                        UserWarning,
                        stacklevel=3,
                    )
        guard = contextlib.nullcontext() if m.raw else _guarded_support(release, scales, grids)
        with quiet_seaborn(), guard, frequency:
            sns.kdeplot(
                **vectors,
                palette=palette,
                hue_order=release.levels,
                hue_norm=hue_norm,
                color=color,
                fill=fill,
                multiple=multiple,
                common_norm=common_norm,
                common_grid=common_grid,
                cumulative=cumulative,
                bw_method=bw_method,
                bw_adjust=bw_adjust,
                warn_singular=warn_singular,
                log_scale=log_scale,
                levels=levels,
                thresh=thresh,
                gridsize=gridsize,
                cut=cut,
                clip=clip,
                legend=legend,
                cbar=cbar,
                cbar_ax=cbar_ax,
                cbar_kws=cbar_kws,
                ax=ax,
                **kwargs,
            )
    if m.raw:
        return ax
    _scrub(ax, before, release.avoid, grids)
    avoid_all = np.unique(np.concatenate([release.avoid[r] for r in roles]))
    _safe_colorbars(ax, before, avoid_all)
    for r in roles:
        lo, hi = _bounds(ax, r)
        if extent is not None:
            # the grid's outer edges (with its ring of empty cells), and anything drawn before
            lo, hi = np.nanmin([lo, extent[r][0]]), np.nanmax([hi, extent[r][1]])
            _set_data_axis(ax, r, lo, hi, release.avoid[r], scales[r], margin=0.0)
        else:
            # seaborn draws multiple="fill" without margins along the data axis
            margin = 0.0 if multiple == "fill" and not release.bivariate else 0.05
            _set_data_axis(ax, r, lo, hi, release.avoid[r], scales[r], margin=margin)
    if not release.bivariate:
        _set_density_ticks(ax, "y" if release.data_axis == "x" else "x", avoid_all)
    return ax


# --------------------------------------------------------------------------------------
# the seaborn-compatible function


def _legacy_kwargs(
    kwargs: dict[str, Any], x: Any, y: Any, data: Any
) -> tuple[Any, Any, Any, dict]:
    """Handle seaborn's deprecated kdeplot arguments as seaborn 0.13.2 does."""
    changes: dict[str, Any] = {}
    if "data2" in kwargs:
        raise TypeError("`data2` has been removed (replaced by `y`); please update your code.")
    vertical = kwargs.pop("vertical", None)
    if vertical is not None:
        if vertical:
            action = "assigning data to `y`."
            if x is None:
                data, y = y, data
            else:
                x, y = y, x
        else:
            action = "assigning data to `x`."
        warnings.warn(
            textwrap.dedent(f"""\n
            The `vertical` parameter is deprecated; {action}
            This will become an error in seaborn v0.14.0; please update your code.
            """),
            UserWarning,
            stacklevel=3,
        )
    bw = kwargs.pop("bw", None)
    if bw is not None:
        warnings.warn(
            f"The `bw` parameter is deprecated in favor of `bw_method` and `bw_adjust`. "
            f"Setting `bw_method={bw}`.",
            UserWarning,
            stacklevel=3,
        )
        changes["bw_method"] = bw
    if kwargs.pop("kernel", None) is not None:
        warnings.warn(
            "Support for alternate kernels has been removed; using Gaussian kernel.",
            UserWarning,
            stacklevel=3,
        )
    shade_lowest = kwargs.pop("shade_lowest", None)
    if shade_lowest is not None:
        if shade_lowest:
            changes["thresh"] = 0
        warnings.warn("`shade_lowest` has been replaced by `thresh`.", UserWarning, stacklevel=3)
    shade = kwargs.pop("shade", None)
    if shade is not None:
        changes["fill"] = shade
        warnings.warn(
            f"`shade` is now deprecated in favor of `fill`; setting `fill={shade}`.",
            FutureWarning,
            stacklevel=3,
        )
    if "n_levels" in kwargs:
        changes["levels"] = kwargs.pop("n_levels")
    return x, y, data, changes


def _is_flat(data: Any) -> bool:
    if isinstance(data, pd.Series):
        return True
    if isinstance(data, (pd.DataFrame, Mapping)):
        return False
    return np.ndim(data) == 1


@takes_method_options
def kdeplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    weights: Any = None,
    palette: Any = None,
    hue_order: list[Any] | None = None,
    hue_norm: Any = None,
    color: Any = None,
    fill: bool | None = None,
    multiple: str = "layer",
    common_norm: bool = True,
    common_grid: bool = False,
    cumulative: bool = False,
    bw_method: Any = "scott",
    bw_adjust: float = 1,
    warn_singular: bool = True,
    log_scale: Any = None,
    levels: Any = 10,
    thresh: float | None = 0.05,
    gridsize: int = 200,
    cut: float = 3,
    clip: Any = None,
    legend: bool = True,
    cbar: bool = False,
    cbar_ax: Axes | None = None,
    cbar_kws: dict | None = None,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int = 3,
    q: float = 0.25,
    bins: int = GRID_BINS,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot univariate or bivariate distributions using kernel density estimation, safely.

    The seaborn 0.13.2 ``kdeplot`` call, with the density estimated from a
    disclosure-controlled release of the data instead of the raw values.

    Parameters
    ----------
    data : DataFrame, mapping, vector or None
        Long-form data (with `x`, `y`, `hue` naming columns) or wide-form
        data (each numeric column is a variable, shown as a hue level).
    x, y : vector or key in `data`
        The variable(s): one of them for a density curve, both for contours.
    hue : vector or key in `data`
        Grouping variable: one density per level.
    weights : vector or key in `data`
        Per-record weights are individual data: refused unless
        ``method="none"`` (raw output allowed by the policy).
    palette, hue_order, hue_norm, color
        Colours, as in seaborn.
    fill : bool or None
        Fill the area under the curves / between the contours.
    multiple : {"layer", "stack", "fill"}
        How univariate densities of several hue levels are combined.
    common_norm : bool, default True
        Scale each level's density by its share of the records (released
        records, or shown counts for the binned methods).
    common_grid : bool, default False
        Evaluate univariate densities on a common grid.
    cumulative : bool, default False
        Draw the cumulative distribution (grid contours: of cumulative counts).
    bw_method, bw_adjust : str, scalar or callable; number
        Bandwidth, as in seaborn. They do not apply to the grid contours of
        ``"suppress"``/``"generalize"`` bivariate plots (the grid itself is
        the estimate).
    warn_singular : bool, default True
        Warn when a density cannot be estimated (or a grid shows nothing).
    log_scale : bool, number or pair
        Log axes; the density is estimated, and the data released, on the
        log scale (values must be positive).
    levels : int or vector, default 10
        Bivariate: number of contour levels, or iso-proportions in [0, 1].
    thresh : float, default 0.05
        Bivariate: lowest iso-proportion level drawn.
    gridsize : int, default 200
        Points of the evaluation grid per axis (not used by grid contours).
    cut : float, default 3
        The grid extends `cut` bandwidths beyond the released extremes (not
        used by grid contours). With ``cut=0`` the curve ends at the smallest
        and largest *released* value (a centroid, a noisy value, a bin
        centre), never a raw one.
    clip : pair of numbers or None, or a pair of such pairs
        Do not evaluate the density outside these limits (grid contours:
        draw only cells whose centres lie within them).
    legend : bool, default True
        Add a legend for the hue levels.
    cbar, cbar_ax, cbar_kws
        Bivariate: colour bar of the contour levels.
    ax : matplotlib Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure control: ``"deterministic"`` (default for univariate,
        from the policy), ``"suppress"`` (default for bivariate),
        ``"generalize"``, ``"probabilistic"``, ``"confidential"`` or
        ``"none"`` (raw, only when the policy allows raw output).
    threshold : int, optional
        Minimum count of a shown bin or grid cell (default and floor: the
        policy's); also: no drawn number equals a value held by fewer records.
    factor : int, default 2
        Coarsening of ``"generalize"`` (30 bins / 30 x 30 cells -> 15 / 15 x 15).
    k : int, default 3
        Records per centroid (``"deterministic"``).
    q : float, default 0.25
        Noise SD as a fraction of the variable's SD (``"probabilistic"``).
    bins : int, default 30
        Bins of the suppressed histogram / cells per axis of the grid.
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
        Passed to matplotlib (``plot``/``fill_between``, or
        ``contour``/``contourf``).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes, with the release's report as ``ax.safeplot_report``.

    Raises
    ------
    DisclosureError
        A parameter below a policy floor (threshold, k, q), a method the
        policy forbids, or too few records (per hue level) for the method.
    ValueError
        Bad input (empty, all missing, text, infinite, unknown column),
        weights with a disclosure-control method, or an unknown option.

    See Also
    --------
    seaborn.kdeplot : The raw-data original.
    safeplot.plots.grid.release_grid : The density grid of the binned methods.

    Notes
    -----
    **Methods.**

    Univariate (``x`` or ``y``; policy kind ``"kde"``, default
    ``"deterministic"``):

    - ``"deterministic"``: each value is replaced by the centroid of its k
      nearest neighbours (within its hue level), rescaled to the original
      mean and SD; seaborn's kdeplot draws the density of the centroids.
    - ``"probabilistic"``: keyed noise N(0, (q SD)^2) is added to every
      value; the density of the noisy values is drawn.
    - ``"confidential"`` (O'Keefe): values beyond mean +/- 2.6 SD are
      winsorised and the density of the winsorised data is evaluated over a
      range whose ends are rounded outward to the policy's significant
      figures (and off any rare value); `clip` is honoured within it.
      The note ends with ``***`` when values were winsorised.
    - ``"suppress"``: the data are binned (`bins` bins on a safe rounded
      grid, common to the hue levels), bins with fewer than `threshold`
      records are removed, and the density is estimated from the centres of
      the shown bins weighted by their counts: only released counts feed it.
      The counts are frequency weights (each centre counted once per
      record), so the bandwidth rule sees the number of records, not bins.
    - ``"generalize"``: as ``"suppress"`` with bins `factor` times wider.

    Bivariate (``x`` and ``y``; policy kind ``"contour"``, default
    ``"suppress"``):

    - ``"suppress"`` / ``"generalize"``: contours of the suppressed 30 x 30
      (15 x 15) density grid of :func:`~safeplot.plots.grid.release_grid`,
      drawn on the cell centres with suppressed cells as 0. `levels`,
      `thresh`, `fill`, `color`/`cmap`, `hue`, `common_norm`, `cumulative`
      and `clip` apply; `bw_method`, `bw_adjust`, `gridsize` and `cut` do
      not (the grid is the estimate).
    - ``"deterministic"`` / ``"probabilistic"``: seaborn's bivariate kde of
      the anonymised points (kNN centroids of (x, y) within hue levels; keyed
      noise).
    - ``"confidential"``: contours of the kde of the winsorised data over a
      range rounded outward on both axes.

    In every case the axes showing data get limits and ticks on safe
    numbers, no drawn coordinate equals a value held by fewer than
    `threshold` records, and the grid is evaluated on points moved off such
    values. With hue and ``"deterministic"`` every level needs at least k
    records.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> ax = kdeplot(data=penguins, x="flipper_length_mm", hue="species")
    >>> ax.safeplot_report.method
    'deterministic'
    >>> ax = kdeplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", ax=plt.figure().gca())
    >>> ax.safeplot_report.method, ax.safeplot_report.params["bins"]
    ('suppress', 30)
    >>> plt.close("all")
    """
    x, y, data, changes = _legacy_kwargs(kwargs, x, y, data)
    fill = changes.get("fill", fill)
    thresh = changes.get("thresh", thresh)
    bw_method = changes.get("bw_method", bw_method)
    levels = changes.get("levels", levels)
    if multiple not in ("layer", "stack", "fill"):
        raise ValueError(
            f"The value for `multiple` must be one of ['layer', 'stack', 'fill'], "
            f"but {multiple!r} was passed."
        )
    gridsize = check_positive_int("gridsize", gridsize)
    pol = get_policy()
    bivariate = x is not None and y is not None
    method = pol.check_method(method, "contour" if bivariate else "kde")
    m = check_family(method, _FAMILIES, "kernel density plots")
    pol.check_threshold(threshold)
    if weights is not None and not m.raw:
        raise ValueError(
            "kdeplot: weights= gives each record a value of its own, which would be drawn "
            "into the density unprotected. Leave weights out (the released counts weight "
            "the binned methods), or use method='none' where the policy allows raw output."
        )
    wide = x is None and y is None
    if wide:
        if data is None:
            raise ValueError(
                "kdeplot: nothing to plot. Pass x= and/or y= (with data=), or wide-form data."
            )
        if weights is not None:
            raise ValueError(
                "kdeplot: weights= needs long-form data; pass x= (and data=) with weights=."
            )
        if hue is not None:
            raise ValueError(
                "kdeplot: hue= cannot be combined with wide-form data (its columns are the hue). "
                "Pass long-form data with x= and hue=."
            )
        flat = _is_flat(data)
        long = wide_to_long(data, function="kdeplot")
        frame = long.frame
        x_values = frame["value"]
        hue_values = None if flat else frame["variable"]
        if flat and isinstance(data, pd.Series) and data.name is not None:
            x_values = x_values.rename(data.name)
        labels = {
            "x": str(data.name) if flat and getattr(data, "name", None) is not None else "",
            "hue": "",
        }
        roles = {"x": x_values}
        wide = not flat
    else:
        pdata = plot_data(
            data, {"x": x, "y": y, "hue": hue, "weights": weights}, function="kdeplot"
        )
        roles = {r: pdata.frame[r] for r in ("x", "y") if pdata.has(r)}
        hue_values = pdata.frame["hue"] if pdata.has("hue") else None
        labels = {r: pdata.label(r) for r in ("x", "y", "hue") if pdata.has(r)}
    target_ax = ax
    if target_ax is None:
        import matplotlib.pyplot as plt

        if plt.get_fignums() and plt.gcf().axes:
            target_ax = plt.gca()
    data_axes = tuple(roles)
    scales = _resolve_scales(log_scale, data_axes, target_ax)
    release = release_kde(
        roles.get("x"),
        roles.get("y"),
        hue=hue_values,
        hue_order=hue_order,
        labels=labels,
        wide=wide,
        method=method,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        bins=bins,
        log_scale=scales,
        function="kdeplot",
        policy=pol,
    )
    if m.raw and weights is not None:
        release = _with_raw_weights(release, pdata)
    _refuse_rare_clip(clip, release)
    ax = get_ax(ax)
    draw_kde(
        ax,
        release,
        palette=palette,
        hue_norm=hue_norm,
        color=color,
        fill=fill,
        multiple=multiple,
        common_norm=common_norm,
        common_grid=common_grid,
        cumulative=cumulative,
        bw_method=bw_method,
        bw_adjust=bw_adjust,
        warn_singular=warn_singular,
        log_scale=log_scale,
        levels=levels,
        thresh=thresh,
        gridsize=gridsize,
        cut=cut,
        clip=clip,
        legend=legend,
        cbar=cbar,
        cbar_ax=cbar_ax,
        cbar_kws=cbar_kws,
        **kwargs,
    )
    return finish(ax, release.report, annotate=annotate, policy=pol)


def _refuse_rare_clip(clip: Any, release: KdeRelease) -> None:
    """Refuse a `clip` bound equal to a rare raw value: the curve would end on it.

    Moving the bound a little instead would leave a tell-tale shift in a
    vector file, pointing at the value it avoided.
    """
    if clip is None or get_method(release.report.method).raw:
        return
    per_axis = (clip, clip) if clip[0] is None or np.isscalar(clip[0]) else clip
    for role, bounds in zip(("x", "y"), per_axis, strict=False):
        avoid = np.sort(np.asarray(release.avoid.get(role, []), dtype=float))
        given = [float(b) for b in bounds if b is not None and np.isfinite(b)]
        if given and hits_any(given, avoid):
            raise DisclosureError(
                f"kdeplot: a clip bound on {role} equals a value held by fewer than "
                f"threshold records. Choose round numbers clear of the data's extremes."
            )


def _with_raw_weights(release: KdeRelease, pdata) -> KdeRelease:
    """Raw output only: the records with their weights (rows as the release kept them)."""
    frame = pdata.frame
    cols = [r for r in ("x", "y") if r in frame.columns]
    keep = frame[cols].apply(pd.to_numeric, errors="coerce").notna().all(axis=1)
    if "hue" in frame.columns:
        keep &= frame["hue"].notna()
    w = pd.to_numeric(frame["weights"], errors="coerce")[keep.to_numpy()].to_numpy()
    if release.levels is not None:
        inside = frame["hue"][keep.to_numpy()].isin(release.levels).to_numpy()
        w = w[inside]
    release.data["weights"] = w
    return release
