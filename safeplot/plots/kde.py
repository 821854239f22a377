"""Kernel density plots: ``kdeplot``.

:func:`release_kde` turns one variable (a univariate density) or two (a
bivariate density) into a :class:`KdeRelease`: the density itself, estimated by
safeplot from what the method releases, evaluated on a regular grid and
rounded, with the limits and ticks of the axes that show data. :func:`draw_kde`
draws a release with matplotlib and nothing else; :func:`kdeplot` is the
seaborn-compatible function built on the two.

What the density is estimated from, by what the method releases:

* methods that move values (``"deterministic"``, ``"probabilistic"``,
  ``"microaggregation"``, ``"rounding"``) - the released values (kNN
  centroids, keyed noise, group means, representatives);
* O'Keefe's rules (``"confidential"``) - the winsorised values, evaluated over
  a range whose ends are rounded outward to the policy's significant figures;
  the winsorised values themselves are not part of the release;
* counts only (``"suppress"``, ``"generalize"``) - univariate: the centres of
  the shown bins of the suppressed histogram, weighted by their counts;
  bivariate: the suppressed density grid (cells per axis chosen by the
  number of records, as a heat map's; halved by generalisation) itself,
  contoured.

The estimate follows seaborn 0.13's rules: :class:`scipy.stats.gaussian_kde`
with ``bw_method`` and ``bw_adjust``, a grid of ``gridsize`` points from
``cut`` bandwidths below the smallest released value to ``cut`` above the
largest (within ``clip``), ``common_norm``, ``common_grid``, ``cumulative``
and ``multiple``; contour levels at seaborn's iso-proportions of the density
(``levels``, ``thresh``). The density is rounded to the policy's significant
figures, and a value equal to a rare raw value moves one unit in its last
figure, as other statistics do.

The grid is regular between released limits (for ``"confidential"``, limits
rounded outward): it depends on no raw value, so it is drawn as seaborn draws
it and never shifted to avoid one, since the shift would itself say that a
value sits there (DESIGN invariant 2). The x coordinates of a curve are grid
points. Contour lines pass between grid points where matplotlib interpolates
them from the density at the release's levels; those positions are computed
when the release is made, and a level whose contour would pass through a rare
raw value moves one unit in its last figure until none does.
"""

from __future__ import annotations

import math
import textwrap
import warnings
from collections.abc import Mapping
from dataclasses import InitVar, dataclass, field, replace
from numbers import Number
from types import MappingProxyType
from typing import Any

import matplotlib as mpl
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
from ..marks._axes import LEFT_OUT_GID, note_below
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, GridRelease, guard, release_kind
from ..sources.dask import DaskColumns, check_dask_method, is_dask_collection
from ._common import (
    LEFT_OUT_NOTE,
    axes_for,
    check_positive_int,
    finish,
    make_report,
    round_range_out,
    safe_limits,
    set_safe_axis,
    takes_method_options,
)
from ._data import categorical_order, plot_data, wide_to_long
from .grid import GRID_BINS, release_grid

__all__ = [
    "KDE_METHODS",
    "KdeEstimate",
    "KdeRelease",
    "draw_kde",
    "estimate_params",
    "estimate_released",
    "kdeplot",
    "release_kde",
]

#: What a kde plot can release: every family of method.
_FAMILIES = ("raw", "counts", "rules", "values")


#: Methods a kde release supports (univariate and bivariate).
KDE_METHODS = tuple(m.name for m in available_methods() if m.family in _FAMILIES)

#: Records up to which a binned density is fitted to one point per record; beyond, the
#: counts weight the same estimate (:func:`_fit`).
_EXPAND_MAX = 100_000

#: Relative distance within which a contour vertex counts as on a rare value (ten times
#: closer than a rare value is matched, so that matplotlib's own arithmetic cannot land on it).
_VERTEX_RTOL = 1e-8

#: Significant figures by which contour levels of a count grid are moved (the levels are
#: counts; a move in the third figure would show in the drawing).
_COUNT_LEVEL_SIG = 6

#: The estimation parameters of a release, with seaborn's defaults.
#: Evaluation grids a density curve may use: a fixed menu, so that the analyst cannot choose
#: where the (rounded) curve is sampled (DESIGN invariants 4 and 5).
GRIDSIZE_MENU = (50, 100, 200)
#: Narrowest kernel, as a fraction of Scott's bandwidth for the number of records (and the
#: floor of ``bw_adjust``): narrower kernels draw a bump per record.
BW_FLOOR = 0.5

_ESTIMATE_DEFAULTS: dict[str, Any] = {
    "bw_method": "scott",
    "bw_adjust": 1,
    "gridsize": 200,
    "cut": 3,
    "clip": None,
    "cumulative": False,
    "common_norm": True,
    "common_grid": False,
    "multiple": "layer",
    "levels": 10,
    "thresh": 0.05,
}


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
# the release


@dataclass
class KdeEstimate:
    """The density a kde release draws: evaluated on regular grids and rounded.

    Each list runs over the hue levels of the release, in the order of
    :attr:`KdeRelease.levels` (one entry without hue). A level with nothing
    to draw has empty arrays, and a note saying why.

    Attributes
    ----------
    kind : {"curve", "density", "counts"}
        A univariate curve, the contours of a bivariate density, or the
        contours of a suppressed grid of counts.
    params : dict
        The estimation parameters, under seaborn's names (``bw_method``,
        ``bw_adjust``, ``gridsize``, ``cut``, ``clip``, ``cumulative``,
        ``common_norm``, ``common_grid``, ``multiple``, ``levels``, ``thresh``).
    support : list of ndarray
        Univariate: the grid along the data axis; bivariate: the grid along x
        (data units).
    support_y : list of ndarray
        Bivariate: the grid along y (data units); empty for a curve.
    density : list of ndarray
        Univariate: the curve over `support`, stacked or filled as `multiple`
        says; bivariate: the density (or count) surface, of shape
        ``(len(support_y), len(support))``.
    baseline : list of ndarray
        Univariate: where each filled area starts (0, or the curve below it).
    contour_levels : list of ndarray
        Bivariate: the densities (counts) the contours are drawn at.
    colorbar_ticks : list of ndarray
        Bivariate: ticks of a colour bar of each level's contours.
    present : list of bool
        Whether the release holds records of each level (seaborn's hue colours
        of numeric levels span the levels present).
    notes : list of str
        Why a level has nothing drawn ("" where it has a density).
    limits : dict
        Axis -> limits of the axes that show data (``"data"`` and
        ``"density"`` for a curve: the values' axis and the density axis,
        ``"density_filled"`` the density axis of filled areas; ``"x"`` and
        ``"y"`` for contours). Absent for the raw plot, which matplotlib scales.
    ticks : dict
        Axis -> tick positions, as `limits`.
    band : list of ndarray
        ``method="dp"``: per level, the 95% half-width of the curve from
        the noise of the counts it smooths (empty for the other methods, and
        for cumulative, stacked or filled curves).
    """

    kind: str
    params: dict[str, Any]
    support: list[np.ndarray]
    support_y: list[np.ndarray]
    density: list[np.ndarray]
    baseline: list[np.ndarray]
    contour_levels: list[np.ndarray]
    colorbar_ticks: list[np.ndarray]
    present: list[bool]
    notes: list[str]
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)
    ticks: dict[str, np.ndarray] = field(default_factory=dict)
    band: list[np.ndarray] = field(default_factory=list)

    @property
    def shown(self) -> list[bool]:
        """Whether each level has a density to draw."""
        return [not note for note in self.notes]


@release_kind("kde")
@dataclass
class KdeRelease:
    """What a kde plot draws: its density, estimated and rounded, and what it was made from.

    Attributes
    ----------
    data : DataFrame
        The released numbers the density is estimated from: one row per
        released point, with the columns ``"x"`` and/or ``"y"`` (released
        values in data units), ``"weights"`` (the shown count of a bin or grid
        cell, for methods that release counts) and ``"hue"`` (the point's hue
        level) when used. Counts are frequency weights: the density is that
        of each shown bin centre repeated count times, so the bandwidth rule
        sees the number of records, not of bins. Under ``"confidential"`` the
        winsorised values are raw values and are not released: no rows.
    labels : dict
        Role -> axis or legend label.
    levels : list or None
        Hue levels, in order.
    method : str
    grid : GridRelease or None
        The suppressed density grid a bivariate plot of counts contours (in
        the scale's units: log10 values on a log axis).
    scales : dict
        Role -> log base of the axis (None: linear). The density is
        estimated on that scale, so the release is made on it too.
    sig : int or None
        ``"confidential"``: significant figures of the rounded range the
        density is evaluated over.
    report : DisclosureReport
    estimate : KdeEstimate or None
        The density drawn. :func:`release_kde` always makes it.
    avoid : mapping, optional
        Only for a release assembled from values released elsewhere (the
        panels of pair and joint plots), which :func:`draw_kde` estimates when
        it draws: role -> the rare raw values the estimate keeps clear of. It
        is no field of the release (never shown, copied or written), and a
        release with an estimate holds none: its ``avoid`` is empty.
    """

    data: pd.DataFrame
    labels: dict[str, str]
    levels: list | None
    method: str
    grid: GridRelease | None
    scales: dict[str, float | None]
    sig: int | None
    report: DisclosureReport
    estimate: KdeEstimate | None = None
    avoid: InitVar[Mapping[str, Any]] = MappingProxyType({})

    def __post_init__(self, avoid: Mapping[str, Any]) -> None:
        if avoid and self.estimate is None:
            # not a field: never shown, copied or written; the estimate consumes it
            self.avoid = {r: np.asarray(v, dtype=float) for r, v in avoid.items()}

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
    k: int | None = None,
    q: float | None = None,
    bins: int | None = None,
    log_scale: Any = None,
    n_dropped: int = 0,
    function: str = "kdeplot",
    policy: Policy | None = None,
    weights: Any = None,
    bw_method: Any = "scott",
    bw_adjust: float = 1,
    gridsize: int = 200,
    cut: float = 3,
    clip: Any = None,
    cumulative: bool = False,
    common_norm: bool = True,
    common_grid: bool = False,
    multiple: str = "layer",
    levels: Any = 10,
    thresh: float | None = 0.05,
    epsilon: float | None = None,
    binrange: tuple[float, float] | None = None,
) -> KdeRelease:
    """Release the kernel density of `x` (and/or `y`), estimated from what the method releases.

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
        Coarsening of methods that widen bins (``"generalize"``).
    k, q : int, float, optional
        Parameters of ``"deterministic"`` and ``"probabilistic"``. Default: the
        policy's ``k_min`` and ``q_min``.
    bins : int, optional
        Bins of the suppressed histogram (univariate; default 30) or cells
        per axis of the density grid (bivariate; default: chosen by the
        number of records, :func:`~safeplot.plots.grid.grid_bins_for`),
        before generalisation.
    log_scale : bool, number or pair, optional
        As seaborn's: the density is estimated on the log scale, so the
        release is made on it (values must be positive).
    n_dropped : int
        Rows the caller already dropped for missing values.
    function : str
        Calling function, for the report.
    policy : Policy, optional
    weights : array-like, optional
        A weight per record, for the raw plot only (``method="none"``).
    bw_method, bw_adjust, gridsize, cut, clip, cumulative, common_norm, common_grid
        How the density is estimated, as in :func:`kdeplot` (seaborn's rules).
    multiple : {"layer", "stack", "fill"}
        How univariate densities of several hue levels are combined.
    levels, thresh
        Bivariate: the contour levels, as in :func:`kdeplot`.
    epsilon : float, optional
        Privacy loss of a univariate ``method="dp"`` density (default 1.0).
    binrange : (float, float), optional
        ``method="dp"``: the span of the fixed grid of `bins` whose noisy
        counts are smoothed (else a quarter of epsilon is spent on a
        differentially private range estimate).

    Returns
    -------
    KdeRelease
        With its :attr:`~KdeRelease.estimate`: the density, rounded, on its
        grid, and the limits and ticks of the axes.

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
    >>> rel.estimate.support[0].size, rel.estimate.params["cut"]
    (200, 3)
    """
    pol = get_policy(policy)
    roles = tuple(r for r, v in (("x", x), ("y", y)) if v is not None)
    if not roles:
        raise ValueError(f"{function}: give the values to plot, as x= and/or y=.")
    bivariate = len(roles) == 2
    method = pol.check_method(method, "contour" if bivariate else "kde")
    m = check_family(method, (*_FAMILIES, "private"), "kernel density plots")
    if not m.private and (epsilon is not None or binrange is not None):
        which = "epsilon=" if epsilon is not None else "binrange="
        raise ValueError(
            f"{function}: {which} applies to method='dp' (the privacy loss, the fixed grid of "
            f"bins); method={method!r} takes neither."
        )
    if m.private:
        from ._dp import dp_hue_levels

        dp_hue_levels(function, hue, hue_order)
    if m.private and wide:
        raise ValueError(
            f"{function}: method='dp' draws one variable; with several columns each record "
            "would be counted once per column. Draw each column in its own call."
        )
    threshold = pol.check_threshold(threshold)
    # a bivariate grid by the number of records (release_grid), 1-D bins as seaborn's 30
    grid_bins = None if bins is None else check_positive_int("bins", bins)
    bins = GRID_BINS if bins is None else grid_bins
    factor = check_positive_int("factor", factor)
    params = _estimate_params(
        bw_method=bw_method,
        bw_adjust=bw_adjust,
        gridsize=gridsize,
        cut=cut,
        clip=clip,
        cumulative=cumulative,
        common_norm=common_norm,
        common_grid=common_grid,
        multiple=multiple,
        levels=levels,
        thresh=thresh,
    )
    if weights is not None and not m.raw:
        raise ValueError(
            f"{function}: weights= gives each record a value of its own, which would be drawn "
            "into the density unprotected. Leave weights out (the released counts weight "
            "the binned methods), or use method='none' where the policy allows raw output."
        )
    labels = {r: r for r in ("x", "y", "hue")} | dict(labels or {})
    if wide and (bivariate or hue is None):
        raise ValueError("wide=True needs one value variable and the column of each value as hue.")
    if any(is_dask_collection(v) for v in (x, y, hue)):  # counted out of core
        pending = release_kde_dask(
            x,
            y,
            hue=hue,
            hue_order=hue_order,
            labels=labels,
            method=method,
            threshold=threshold,
            factor=factor,
            bins=grid_bins,
            scales=_resolve_scales(log_scale, roles, None)
            if not isinstance(log_scale, dict)
            else {r: log_scale.get(r, _Scale()) for r in roles},
            n_dropped=n_dropped,
            function=function,
            policy=pol,
        )
        rare = pending.avoid
        _refuse_rare_clip(clip, rare, function)
        return _estimated(pending, rare, params, pol)

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
    w = None
    if weights is not None:
        w = pd.to_numeric(_as_series(weights), errors="coerce").to_numpy(dtype=float)
        if w.size != keep.size:
            raise ValueError(f"{function}: weights= needs one weight per record.")
        w = w[keep.to_numpy()]
    hue_levels: list | None = None
    codes = np.zeros(raw.shape[0], dtype=int)
    if hue_kept is not None:
        hue_levels = categorical_order(hue_kept, hue_order)
        lookup = {lev: i for i, lev in enumerate(hue_levels)}
        codes = np.array([lookup.get(h, -1) for h in hue_kept], dtype=int)
        inside = codes >= 0
        if not inside.any():
            raise ValueError(
                f"{function}: no record has a hue level in hue_order={list(hue_levels)}. "
                "Check the level names."
            )
        raw, codes, hue_kept = raw[inside], codes[inside], hue_kept[inside].reset_index(drop=True)
        if w is not None:
            w = w[inside]
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
    groups = [np.flatnonzero(codes == i) for i in range(len(hue_levels))] if hue_levels else [None]
    avoid = {}
    for j, r in enumerate(roles):
        parts = [rare_values(raw[:, j] if g is None else raw[g, j], threshold) for g in groups]
        avoid[r] = np.unique(np.concatenate(parts)) if parts else np.array([])
    if m.private:
        # nothing in a DP release is placed or moved by the records: no rare value is avoided
        avoid = {r: np.array([]) for r in roles}
        if any(s.log for s in scales.values()):
            raise ValueError(
                f"{function}: log_scale is not supported with method='dp' (its bins are fixed "
                "on the variable's own scale); plot the logarithm of the variable instead."
            )
    if not m.raw:
        _refuse_rare_clip(clip, avoid, function)
    shown = None
    rule = guard.small_group_rule(m, "density")
    if hue_levels is not None and rule.applies and rule.leave_out:
        # a hue level too small for the method is left out (DESIGN invariant 10); the values
        # to avoid above stay those of every record, the records left out included
        raw, codes, hue_kept, w, hue_levels, shown, n_left_out = _leave_out_small_levels(
            raw, codes, hue_kept, w, hue_levels, hue_order, m, k, pol, function, wide
        )
        groups = [np.flatnonzero(codes == i) for i in range(len(hue_levels))]
    elif hue_levels is not None and rule.applies and not m.rule_based:
        # a method that releases each record's own value (keyed noise, rounding) draws the
        # levels kept as the figure without hue draws them: the density of the whole data
        # less the densities drawn would be that of a level left out, so a small one is
        # refused (O'Keefe's winsorised values are refused below, with their own reason)
        need, why = m.group_floor(pol, k)
        guard.shown_groups(
            np.bincount(codes, minlength=len(hue_levels)),
            need,
            why,
            function=function,
            what="column" if wide else "hue level",
            fix="Combine levels, leave hue out, or use method='deterministic'.",
        ).keep_records(codes, threshold, on_their_own=True)
    if wide:
        for i, g in enumerate(groups):
            if g.size and np.ptp(raw[g, 0]) == 0:
                raise DisclosureError(
                    f"Column {hue_levels[i]!r} is constant: plotting it would show its one "
                    "value exactly and it has no spread to anonymise. Drop it or choose another "
                    "column."
                )
    if m.rule_based:
        _check_group_sizes(groups, hue_levels, raw.shape[0], pol)
    t = np.column_stack([scales[r].fwd(raw[:, j]) for j, r in enumerate(roles)])
    names = tuple(labels[r] for r in roles)
    if bivariate and names[0] == names[1]:
        names = (names[0], f"{names[1]} (y)")
    report_params: dict[str, Any] = {"threshold": threshold}
    details: dict[str, Any] = {}
    if any(s.log for s in scales.values()):
        details["log_scale"] = {r: s.base for r, s in scales.items() if s.log}
    warn: list[str] = []
    grid = None
    sig = None
    cells_suppressed = 0
    hue_values = hue_kept.to_numpy() if hue_kept is not None else None

    if m.raw:
        report_params = {}
        released = pd.DataFrame({r: raw[:, j] for j, r in enumerate(roles)})
        if hue_values is not None:
            released["hue"] = hue_kept
        if w is not None:
            released["weights"] = w
    elif m.private:
        released, report_params, details, warn = _release_private_binned(
            t[:, 0], codes, hue_levels, roles[0], bins, binrange, epsilon, function
        )
        n_dropped = 0  # rows dropped are a count of records too, and not released under dp
    elif m.counts_only and bivariate:
        grid = release_grid(
            t[:, 0],
            t[:, 1],
            names=names,
            hue=None if hue_values is None else codes,
            hue_order=None if hue_values is None else list(range(len(hue_levels))),
            method=method,
            bins=grid_bins,
            threshold=threshold,
            factor=factor,
            kind="contour",
            n_dropped=n_dropped,
            function=function,
            policy=pol,
        )
        released = _grid_points(grid, scales, hue_levels)
        report = grid.report
        report.details.update(details)
    elif m.counts_only:
        released, cells_suppressed, report_params, warn = _release_binned(
            t[:, 0],
            codes,
            hue_levels,
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
                    t[g],
                    method,
                    names=[str(hue_levels[i])],
                    k=k,
                    q=q,
                    threshold=threshold,
                    policy=pol,
                )
                out_t[g] = res.values
                report_params.update(res.params)
                details = _merge_details(details, res.details)
        else:
            # methods that group within strata form their groups within hue levels
            res = anonymize_values(
                t,
                method,
                names=list(names),
                k=k,
                q=q,
                strata=codes if hue_levels else None,
                threshold=threshold,
                policy=pol,
            )
            out_t = res.values
            report_params.update(res.params)
            details.update(res.details)
        if m.rule_based:
            sig = pol.sig_figs
            report_params["sig"] = sig
        released = pd.DataFrame({r: scales[r].inv(out_t[:, j]) for j, r in enumerate(roles)})
        if hue_values is not None:
            released["hue"] = hue_kept
    if shown is not None and shown.left_out:
        details["groups_left_out"] = shown.left_out
        warn = [*warn, shown.warning]
        if grid is not None:
            report.details["groups_left_out"] = shown.left_out
            report.warnings.append(shown.warning)
    if grid is None:
        # the records of the levels left out are counted: the records drawn, subtracted from
        # the count, would otherwise count them
        report = make_report(
            function,
            method,
            report_params,
            names,
            raw.shape[0] + (n_left_out if shown is not None else 0)
            if not m.private
            else round(float(released["weights"].sum())),
            n_dropped,
            pol,
            cells_suppressed=cells_suppressed,
            details=details,
            warnings=warn,
        )
    release = KdeRelease(
        data=released,
        labels=labels,
        levels=hue_levels,
        method=method,
        grid=grid,
        scales={r: s.base for r, s in scales.items()},
        sig=sig,
        report=report,
    )
    release = _estimated(release, avoid, params, pol)
    if m.private:
        _add_dp_band(release, params, float(report.details["noise_sd"]), pol)
    if m.rule_based:
        # the winsorised values are raw values: only the rounded density is released
        release.data = release.data.iloc[:0].reset_index(drop=True)
    return release


def _estimate_params(**given: Any) -> dict[str, Any]:
    """Check the estimation parameters; return them as a release records them."""
    params = {**_ESTIMATE_DEFAULTS, **given}
    if params["multiple"] not in ("layer", "stack", "fill"):
        raise ValueError(
            f"The value for `multiple` must be one of ['layer', 'stack', 'fill'], "
            f"but {params['multiple']!r} was passed."
        )
    params["gridsize"] = guard.from_menu(
        "gridsize",
        check_positive_int("gridsize", params["gridsize"]),
        GRIDSIZE_MENU,
        what="density curves",
    )
    adjust = params["bw_adjust"]
    if isinstance(adjust, bool) or not isinstance(adjust, Number) or not np.isfinite(adjust):
        raise ValueError(f"bw_adjust must be a positive number, got {adjust!r}.")
    if adjust < BW_FLOOR:
        raise DisclosureError(
            f"bw_adjust={adjust:g} is below the floor {BW_FLOOR:g}: a kernel that narrow "
            "draws one bump per record, and each bump's peak is a record's value. Use "
            f"bw_adjust >= {BW_FLOOR:g}."
        )
    if not isinstance(params["levels"], Number):
        params["levels"] = [float(v) for v in np.asarray(params["levels"], dtype=float).ravel()]
    clip = params["clip"]
    if clip is not None:
        params["clip"] = tuple(
            tuple(c) if c is not None and not np.isscalar(c) else c for c in clip
        )
    return params


def estimate_params(**given: Any) -> dict[str, Any]:
    """Check estimation parameters against kdeplot's floors and menus; return them all.

    The parameters are :func:`kdeplot`'s (``bw_method``, ``bw_adjust``,
    ``gridsize``, ``cut``, ...); those not given take seaborn's defaults. Other
    plots that draw kernel densities (violins) check theirs here, before any
    record is read.

    Examples
    --------
    >>> estimate_params(gridsize=100, cut=0)["gridsize"]
    100
    """
    return _estimate_params(**given)


def estimate_released(
    release: KdeRelease,
    rare: Mapping[str, Any],
    params: Mapping[str, Any],
    policy: Policy | None = None,
) -> KdeRelease:
    """Return `release` (values released elsewhere) with its density estimated and rounded.

    As :func:`release_kde` estimates its own: on the regular grid seaborn's
    rules give (``params`` from :func:`estimate_params`), rounded to the
    policy's figures and clear of the `rare` raw values of each axis.

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.plots._common import make_report
    >>> from safeplot.policy import get_policy
    >>> values = np.random.default_rng(0).normal(size=200)
    >>> report = make_report("kdeplot", "deterministic", {}, ("x",), 200, 0, get_policy())
    >>> rel = KdeRelease(pd.DataFrame({"x": values}), {"x": "x"}, None, "deterministic", None,
    ...                  {"x": None}, None, report)
    >>> est = estimate_released(rel, {"x": np.array([])}, estimate_params(cut=0)).estimate
    >>> bool(est.support[0][0] == values.min()), est.support[0].size
    (True, 200)
    """
    return _estimated(release, rare, params, get_policy(policy))


def _recorded(params: Mapping[str, Any]) -> dict[str, Any]:
    """Return the estimation parameters as a release records them (a function by name)."""
    out = dict(params)
    if callable(out["bw_method"]):
        out["bw_method"] = repr(out["bw_method"])
    return out


def _refuse_rare_clip(clip: Any, rare: Mapping[str, np.ndarray], function: str) -> None:
    """Refuse a `clip` bound equal to a rare raw value: the curve would end on it.

    Moving the bound a little instead would leave a tell-tale shift in a
    vector file, pointing at the value it avoided.
    """
    if clip is None:
        return
    per_axis = (clip, clip) if clip[0] is None or np.isscalar(clip[0]) else clip
    for role, bounds in zip(("x", "y"), per_axis, strict=False):
        if bounds is None:
            continue
        avoid = np.sort(np.asarray(rare.get(role, []), dtype=float))
        given = [float(b) for b in bounds if b is not None and np.isfinite(b)]
        if given and hits_any(given, avoid):
            raise DisclosureError(
                f"{function}: a clip bound on {role} equals a value held by fewer than "
                f"threshold records. Choose round numbers clear of the data's extremes."
            )


def _leave_out_small_levels(
    raw: np.ndarray,
    codes: np.ndarray,
    hue_kept: pd.Series,
    w: np.ndarray | None,
    levels: list,
    hue_order: Any,
    m: Any,
    k: int | None,
    pol: Policy,
    function: str,
    wide: bool,
) -> tuple[np.ndarray, np.ndarray, pd.Series, np.ndarray | None, list, guard.ShownGroups, int]:
    """Leave out the hue levels too small for the method, by the shared rule.

    Methods that group records within each hue level (kNN centroids,
    microaggregation) need the level to hold a group (k, or 2k)
    (:func:`safeplot.release.guard.shown_groups`). A level left out is not
    drawn; it stays in the levels, drawn empty as a level without records is,
    only if the call named it in `hue_order`. The anonymiser then sees only
    the levels drawn (it stays pure numerics and never refuses a small one).

    Under the count methods (suppression, generalisation) a level needs
    `threshold` records: one with fewer has no bin of `threshold` records, so
    it would draw nothing, and leaving it out takes away only its name.

    Why leaving out does not disclose: the methods that group records form
    their groups within each level, so the figure without hue groups the
    same records differently; the difference of the two figures is not the
    curve of the records left out. Under the count methods the densities of
    the levels drawn are the same with the small level suppressed or left
    out. The values the curves avoid are those rare among every record,
    those left out included.

    Returns
    -------
    raw, codes, hue_kept, w, levels, shown, n_left_out
        The records drawn (codes renumbered to the levels kept), the levels
        kept, the decision, and how many records were left out.
    """
    sizes = np.bincount(codes, minlength=len(levels))
    shown, stays = _levels_kept(sizes, levels, hue_order, m, k, pol, function, wide)
    if not shown.left_out:
        return raw, codes, hue_kept, w, levels, shown, 0
    keep = shown.keep(codes)
    renumber = np.cumsum(stays) - 1
    levels = [lev for lev, s in zip(levels, stays, strict=True) if s]
    codes = renumber[codes[keep]]
    hue_kept = hue_kept[keep].reset_index(drop=True)
    return (
        raw[keep],
        codes,
        hue_kept,
        None if w is None else w[keep],
        levels,
        shown,
        int((~keep).sum()),
    )


def _levels_kept(
    sizes: np.ndarray,
    levels: list,
    hue_order: Any,
    m: Any,
    k: int | None,
    pol: Policy,
    function: str,
    wide: bool,
) -> tuple[guard.ShownGroups, np.ndarray]:
    """Decide, from the records per hue level, which levels are drawn and which keep a place.

    The rule of :func:`_leave_out_small_levels`, for records in memory or
    counted out of core (a dask DataFrame): a level with fewer records than
    the method needs (:func:`safeplot.release.guard.shown_groups`) is not
    drawn; it keeps its place (in the legend, drawn empty, as a level without
    records is) only if the call named it in `hue_order`.

    Returns
    -------
    shown : ShownGroups
        The decision, its warning and note.
    stays : ndarray of bool
        Per level, whether it stays among the levels of the release.

    Examples
    --------
    >>> from safeplot.methods import get_method
    >>> from safeplot.policy import get_policy
    >>> m, pol = get_method("suppress"), get_policy()
    >>> shown, stays = _levels_kept(np.array([40, 2, 30]), ["a", "b", "c"], None, m, None,
    ...                             pol, "kdeplot", False)
    >>> shown.left_out, stays.tolist()
    (1, [True, False, True])
    >>> _levels_kept(np.array([40, 2, 30]), ["a", "b", "c"], ["a", "b", "c"], m, None, pol,
    ...              "kdeplot", False)[1].tolist()
    [True, True, True]
    """
    need, why = m.group_floor(pol, k)
    shown = guard.shown_groups(
        sizes,
        need,
        why,
        function=function,
        what="column" if wide else "hue level",
        fix="Combine levels, leave hue out, or use method='suppress'.",
    )
    named = set() if hue_order is None else set(hue_order)
    # a level named by the call keeps its place (no records, as seaborn draws an empty
    # level); one inferred from the data is not named anywhere
    stays = np.array(
        [bool(shown.shown[i] or sizes[i] == 0 or lev in named) for i, lev in enumerate(levels)],
        dtype=bool,
    )
    return shown, stays


def _check_group_sizes(groups: list, levels: list | None, n: int, pol: Policy) -> None:
    """O'Keefe's density keeps the (winsorised) raw values: every group needs threshold records."""
    sizes = [n if g is None else g.size for g in groups]
    small = [i for i, size in enumerate(sizes) if 0 < size < pol.threshold]
    if small:
        what = "the data" if levels is None else f"hue level {levels[small[0]]!r}"
        raise DisclosureError(
            f"method='confidential' estimates the density from the winsorised values, and "
            f"{what} has fewer than threshold={pol.threshold} records ({pol.source}). "
            + (
                "It cannot be left out either: each record keeps its own value, so the density "
                "without hue less the densities drawn would be that of its records. Combine "
                "levels, or use method='deterministic' (which leaves a small level out)."
                if levels is not None
                else "Combine levels, or use method='suppress' or 'deterministic'."
            )
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


def _release_private_binned(
    t: np.ndarray,
    codes: np.ndarray,
    levels: list | None,
    role: str,
    bins: int,
    binrange: tuple[float, float] | None,
    epsilon: float | None,
    function: str,
) -> tuple[pd.DataFrame, dict[str, Any], dict[str, Any], list[str]]:
    """DP histogram per hue level: bin centres weighted by their noisy counts, to be smoothed.

    The counts come from :func:`~safeplot.plots.distributions.private_bin_counts`
    (OpenDP's discrete Laplace noise, negative counts set to 0, bins fixed by
    `binrange` or a DP range estimate); the density smoothed from them is
    post-processing and spends nothing more.
    """
    from ._dp import dp_epsilon
    from .distributions import private_bin_counts

    # the levels are the call's (dp_hue_levels): each is drawn whatever its count
    eps = dp_epsilon(get_method("dp"), epsilon)
    n_levels = len(levels) if levels else 1
    edges, noisy, details = private_bin_counts(
        t, codes, n_levels, epsilon=eps, bins=bins, binrange=binrange, function=function
    )
    centres = (edges[:-1] + edges[1:]) / 2
    rows = []
    for i in range(n_levels):
        c = noisy.counts[i]
        keep = c > 0
        part = pd.DataFrame({role: centres[keep], "weights": c[keep]})
        if levels is not None:
            part["hue"] = levels[i]
        rows.append(part)
    released = pd.concat(rows, ignore_index=True)
    if levels is not None and not released.empty:
        released["hue"] = _like_levels(released["hue"], levels)
    details = dict(details, smoothing="Gaussian kernel over the noisy counts (post-processing)")
    warn = [
        f"Differentially private density (epsilon={eps:g}): noisy counts of {edges.size - 1} "
        f"fixed bins (each +/- {noisy.accuracy} at 95%, negative ones set to 0) smoothed with "
        "the kernel; the band is the 95% interval from that noise."
    ]
    return released, {"epsilon": eps, "bins": int(edges.size - 1)}, details, warn


def _add_dp_band(release: KdeRelease, params: Mapping[str, Any], noise_sd: float, pol: Policy):
    """Set the 95% band of each DP density curve: the counts' noise carried through the kernel."""
    from statistics import NormalDist

    from ..anonymize.dp import smoothed_counts

    est = release.estimate
    if est is None or est.kind != "curve":
        return
    est.band = [np.array([]) for _ in est.support]
    if params["cumulative"] or (release.levels is not None and params["multiple"] != "layer"):
        return  # the report keeps the accuracy of the counts
    z = NormalDist().inv_cdf(0.975)
    rows = _level_rows(release)
    axis = release.data_axis
    whole = float(release.data["weights"].sum()) if "weights" in release.data else 0.0
    common = params["common_norm"] and release.levels is not None
    for i, part in enumerate(rows):
        if not est.shown[i] or part.empty:
            continue
        centres = part[axis].to_numpy(dtype=float)
        counts = part["weights"].to_numpy(dtype=float)
        kde = _fit(centres[None, :], params, counts=counts)
        bw = float(np.sqrt(np.squeeze(kde.covariance)))
        _, sd = smoothed_counts(centres, counts, est.support[i], bw, noise_sd)
        if common and whole > 0:
            sd = sd * float(counts.sum()) / whole
        est.band[i] = np.asarray(round_sig(z * sd, pol.sig_figs), dtype=float)


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
    bins: int | None,
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
    shown = None
    drawn = levels
    if levels is not None:
        # a hue level too small for the method is left out, by the rule of the records in
        # memory: not drawn, named only if hue_order names it; the values to avoid above
        # stay those of every record, the records left out included
        shown, stays = _levels_kept(
            source.level_sizes, levels, hue_order, get_method(method), None, policy,
            function, False,
        )  # fmt: skip
        drawn = [lev for lev, s in zip(levels, shown.shown, strict=True) if s]
        levels = [lev for lev, s in zip(levels, stays, strict=True) if s]
    left_out = shown is not None and shown.left_out > 0
    if len(roles) == 2:
        if names[0] == names[1]:
            names = (names[0], f"{names[1]} (y)")
        keep = frame["x"].notnull() & frame["y"].notnull()
        if levels is not None:
            keep &= frame["hue"].isin(drawn)
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
        if left_out:
            report.details["groups_left_out"] = shown.left_out
            report.warnings.append(shown.warning)
    else:
        role = roles[0]
        grid = None
        # the bins are placed and counted on the records drawn, as in memory (the summary
        # pass is kept, so leaving a level out costs no extra pass for it)
        counted = source
        if left_out:
            counted = DaskColumns(
                frame, roles, hue="hue", hue_order=drawn, function=function, restrict=True
            )
        released, cells, params, warn = _release_binned(
            counted.span_values(0),
            np.zeros(0, dtype=int),
            None if levels is None else counted.levels,
            False,
            method,
            GRID_BINS if bins is None else bins,
            factor,
            threshold,
            avoid[role],
            scales[role],
            role,
            counts_from=counted,
        )
        if left_out and not released.empty:
            released["hue"] = _like_levels(released["hue"].astype(object), levels)
        details: dict[str, Any] = {}
        if left_out:
            details["groups_left_out"] = shown.left_out
            warn = [*warn, shown.warning]
        report = make_report(
            function,
            method,
            params,
            names,
            source.n,
            n_dropped,
            policy,
            cells_suppressed=cells,
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
# the estimate


def _estimated(
    release: KdeRelease, rare: Mapping[str, Any], params: Mapping[str, Any], pol: Policy
) -> KdeRelease:
    """Return `release` with its density estimated from its released numbers, and no rare values.

    `rare` holds, per axis, the rare raw values the estimate keeps clear of:
    the ends of a range rounded outward, the curve values, the contour
    levels and the vertices of their contours, and the axis limits and ticks.
    The raw plot (``"none"``) is estimated as seaborn estimates it, unrounded.
    """
    m = get_method(release.method)
    rounded = not m.raw
    sig = pol.sig_figs if release.sig is None else release.sig
    roles = ("x", "y") if release.bivariate else (release.data_axis,)
    avoid = {r: np.sort(np.asarray(rare.get(r, []), dtype=float).ravel()) for r in roles}
    if not release.bivariate and not avoid[roles[0]].size and len(rare) == 1:
        # a univariate release turned to be drawn along the other axis
        avoid[roles[0]] = np.sort(np.asarray(next(iter(rare.values())), dtype=float).ravel())
    if release.grid is not None:
        est = _counts_estimate(release, params, avoid, rounded)
    elif release.bivariate:
        est = _surface_estimate(release, params, avoid, sig, rounded)
    else:
        est = _curve_estimate(release, params, avoid[roles[0]], sig, rounded, pol)
    return replace(release, estimate=est)


def _fit(points: np.ndarray, params: Mapping[str, Any], counts: Any = None, weights: Any = None):
    """Fit scipy's Gaussian kde to `points` (d, n), with seaborn's `bw_method` and `bw_adjust`.

    `counts` are frequency weights: the estimate is that of each point
    repeated count times (Scott's or Silverman's factor for the number of
    records, the covariance of the repeated points). Up to :data:`_EXPAND_MAX`
    records the points are repeated; beyond, the counts weight the same
    estimate (a count may describe millions of records). `weights` are
    seaborn's analytic weights (the raw plot's ``weights=``).
    """
    from scipy.stats import gaussian_kde

    bw_method, bw_adjust = params["bw_method"], params["bw_adjust"]
    if counts is not None:
        counts = np.asarray(counts, dtype=float)
        n = float(counts.sum())
        if callable(bw_method) or n <= _EXPAND_MAX:
            points = np.repeat(points, counts.astype(np.int64), axis=1)
        else:
            d = points.shape[0]
            if bw_method in (None, "scott"):
                factor = n ** (-1.0 / (d + 4))
            elif bw_method == "silverman":
                factor = (n * (d + 2) / 4.0) ** (-1.0 / (d + 4))
            elif np.isscalar(bw_method) and not isinstance(bw_method, str):
                factor = float(bw_method)
            else:
                raise ValueError(
                    "`bw_method` should be 'scott', 'silverman', a scalar or a callable."
                )
            # scipy's covariance of weighted points is that of analytic weights; the covariance
            # of the repeated points differs from it by this factor
            share = counts / n
            to_frequency = math.sqrt(n * (1.0 - float(np.sum(share**2))) / (n - 1.0))
            _check_bandwidth(factor * bw_adjust, n, d)
            return gaussian_kde(
                points, bw_method=factor * bw_adjust * to_frequency, weights=counts
            )
    kde = gaussian_kde(points, bw_method=bw_method, weights=weights)
    kde.set_bandwidth(kde.factor * bw_adjust)
    _check_bandwidth(kde.factor, kde.neff, kde.d)
    return kde


def _check_bandwidth(factor: float, n: float, d: int) -> None:
    """Refuse a kernel narrower than :data:`BW_FLOOR` times Scott's for `n` records."""
    floor = BW_FLOOR * float(n) ** (-1.0 / (d + 4))
    if not factor >= floor * (1 - 1e-9):
        raise DisclosureError(
            f"The kernel bandwidth (factor {factor:.3g} of the data's SD) is below the floor "
            f"{floor:.3g} ({BW_FLOOR:g} times Scott's for these records): a kernel that narrow "
            "draws one bump per record, and each bump's peak is a record's value. Use "
            "bw_method='scott' or 'silverman' with bw_adjust >= 0.5."
        )


def _grid_1d(
    t: np.ndarray,
    bw: float,
    params: Mapping[str, Any],
    clip: Any,
    scale: _Scale,
    range_sig: int | None,
    avoid: np.ndarray,
) -> np.ndarray:
    """Return seaborn's evaluation grid of one axis (O'Keefe's rules: a range rounded outward).

    The grid runs from `cut` bandwidths below the smallest released value to
    `cut` above the largest, within `clip`, in `gridsize` points. With
    `range_sig` its ends are rounded outward to that many significant figures
    (an end on a rare value one unit further) and `clip` applies within them.
    """
    clip = (None, None) if clip is None else clip
    cut, gridsize = params["cut"], params["gridsize"]
    lo = max(float(t.min()) - bw * cut, -np.inf if clip[0] is None else float(clip[0]))
    hi = min(float(t.max()) + bw * cut, np.inf if clip[1] is None else float(clip[1]))
    grid = np.linspace(lo, hi, gridsize)
    if range_sig is not None and grid.size > 1:
        r_lo, r_hi = round_range_out(
            float(scale.inv(grid[0])),
            float(scale.inv(grid[-1])),
            range_sig,
            avoid,
            log=scale.log,
        )
        t_lo, t_hi = float(scale.fwd(r_lo)), float(scale.fwd(r_hi))
        if clip[0] is not None:
            t_lo = max(t_lo, float(clip[0]))
        if clip[1] is not None:
            t_hi = min(t_hi, float(clip[1]))
        grid = np.linspace(t_lo, t_hi, grid.size)
    return grid


def _level_rows(release: KdeRelease) -> list[pd.DataFrame]:
    """Return the released rows of each hue level (all rows without hue)."""
    d = release.data
    if release.levels is None:
        return [d]
    hue = d["hue"]
    return [d[(hue == level).to_numpy(dtype=bool)] for level in release.levels]


def _numeric(levels: list) -> bool:
    return all(isinstance(v, Number) and not isinstance(v, bool) for v in levels)


def _stack_order(levels: list | None, present: list[bool]) -> list[int]:
    """Return the indices of the levels in seaborn's order of hue levels (numbers sorted)."""
    if levels is None:
        return [0]
    if _numeric(levels):
        return sorted((i for i, p in enumerate(present) if p), key=lambda i: levels[i])
    return list(range(len(levels)))


_SINGULAR_1D = (
    "Dataset has 0 variance; skipping density estimate. "
    "Pass `warn_singular=False` to disable this warning."
)
_SINGULAR_2D = (
    "KDE cannot be estimated (0 variance or perfect covariance). "
    "Pass `warn_singular=False` to disable this warning."
)


def _curve_estimate(
    release: KdeRelease,
    params: Mapping[str, Any],
    avoid: np.ndarray,
    sig: int,
    rounded: bool,
    pol: Policy,
) -> KdeEstimate:
    """Estimate the univariate densities of a release, as seaborn's kdeplot does."""
    axis = release.data_axis
    scale = _Scale(release.scales.get(axis))
    counts_only = get_method(release.method).counts_only or get_method(release.method).private
    has_weights = "weights" in release.data.columns
    frequency, analytic = has_weights and counts_only, has_weights and not counts_only
    rows = _level_rows(release)
    n_levels = len(rows)
    has_hue = release.levels is not None
    multiple = params["multiple"]
    common_norm, common_grid = params["common_norm"], params["common_grid"]
    if not (has_hue or analytic):
        common_norm = False
    if has_hue and multiple in ("stack", "fill"):
        common_grid = True
    range_sig = release.sig
    obs = [scale.fwd(r[axis].to_numpy(dtype=float)) for r in rows]
    weight = [r["weights"].to_numpy(dtype=float) if has_weights else None for r in rows]
    present = [o.size > 0 for o in obs]
    if has_weights and (frequency or common_norm):
        whole = float(sum(w.sum() for w in weight))
    else:
        whole = float(sum(o.size for o in obs))

    common = None
    if (has_hue or analytic) and common_grid and any(present):
        every = np.concatenate(obs)
        every_counts = np.concatenate(weight) if frequency else None
        kde = _fit(every[None, :], params, counts=every_counts)
        bw = float(np.sqrt(np.squeeze(kde.covariance)))
        common = _grid_1d(every, bw, params, params["clip"], scale, range_sig, avoid)

    curves: list[np.ndarray | None] = [None] * n_levels
    supports: list[np.ndarray] = [np.array([])] * n_levels
    notes = [""] * n_levels
    for i, t in enumerate(obs):
        counts = weight[i] if frequency else None
        if t.size == 0:
            what = "" if not has_hue else f" of {release.levels[i]!r}"
            notes[i] = (
                f"Every bin{what} is below the threshold: no density can be drawn. "
                "Pass `warn_singular=False` to disable this warning."
                if counts_only
                else f"No record{what} to estimate a density from."
            )
            continue
        if counts is not None:
            n = float(counts.sum())
            mean = float(np.sum(counts * t) / n) if n else 0.0
            variance = float(np.sum(counts * (t - mean) ** 2) / (n - 1)) if n > 1 else 0.0
        else:
            n = float(t.size)
            variance = float(np.var(t, ddof=1)) if t.size > 1 else 0.0
        if n < 2 or math.isclose(np.nan_to_num(variance), 0):
            notes[i] = _SINGULAR_1D
            continue
        try:
            kde = _fit(t[None, :], params, counts=counts, weights=weight[i] if analytic else None)
            if common is not None:
                support = common
            else:
                # seaborn places the grid from a fit without analytic weights
                fitted = _fit(t[None, :], params, counts=counts) if analytic else kde
                bw = float(np.sqrt(np.squeeze(fitted.covariance)))
                support = _grid_1d(t, bw, params, params["clip"], scale, range_sig, avoid)
            if params["cumulative"]:
                density = np.array([kde.integrate_box_1d(support[0], s) for s in support])
            else:
                density = kde(support)
        except np.linalg.LinAlgError:
            notes[i] = _SINGULAR_1D
            continue
        if common_norm:
            part = float(weight[i].sum()) if has_weights else float(t.size)
            density = density * (part / whole)
        curves[i] = np.asarray(density, dtype=float)
        supports[i] = scale.inv(support)

    baselines = [np.zeros_like(c) if c is not None else np.array([]) for c in curves]
    stacked = [i for i in _stack_order(release.levels, present) if curves[i] is not None]
    probability = bool(params["cumulative"]) or multiple == "fill"
    if has_hue and multiple in ("stack", "fill") and stacked:
        # seaborn's order: the last level at the bottom
        bottom_up = stacked[::-1]
        block = np.vstack([curves[i] for i in bottom_up])
        total = block.sum(axis=0)
        block = np.cumsum(block, axis=0)
        if multiple == "fill":
            with np.errstate(divide="ignore", invalid="ignore"):
                block = block / total
        if rounded:
            block = np.vstack([_round_off(row, avoid, sig, probability, pol) for row in block])
        below = np.nan_to_num(np.vstack([np.zeros(block.shape[1]), block[:-1]]), nan=0.0)
        for j, i in enumerate(bottom_up):
            curves[i], baselines[i] = block[j], below[j]
    elif rounded:
        curves = [
            None if c is None else _round_off(c, avoid, sig, probability, pol) for c in curves
        ]

    est = KdeEstimate(
        kind="curve",
        params=_recorded(params),
        support=supports,
        support_y=[np.array([]) for _ in range(n_levels)],
        density=[np.array([]) if c is None else c for c in curves],
        baseline=baselines,
        contour_levels=[np.array([]) for _ in range(n_levels)],
        colorbar_ticks=[np.array([]) for _ in range(n_levels)],
        present=present,
        notes=notes,
    )
    if rounded:
        drawn = [s for s, note in zip(supports, notes, strict=True) if not note]
        lo = min((float(s.min()) for s in drawn), default=math.nan)
        hi = max((float(s.max()) for s in drawn), default=math.nan)
        # seaborn draws multiple="fill" without margins along the data axis
        _put_axis(
            est, "data", *_data_axis(lo, hi, avoid, scale, 0.0 if multiple == "fill" else 0.05)
        )
        _density_axes(est, curves, baselines, multiple, axis)
    return est


def _all_rare(release: KdeRelease, avoid: Mapping[str, np.ndarray] | np.ndarray) -> np.ndarray:
    """Every rare value of the release's variables, sorted (what a density may not equal)."""
    parts = list(avoid.values()) if isinstance(avoid, Mapping) else [avoid]
    parts = [np.asarray(p, dtype=float).ravel() for p in parts]
    return np.unique(np.concatenate(parts)) if parts else np.array([])


def _round_off(
    values: np.ndarray, avoid: np.ndarray, sig: int, probability: bool, pol: Policy
) -> np.ndarray:
    """Round to `sig` significant figures; a value equal to a rare raw value moves one unit.

    The move is away from zero, except for a probability at 1 or above
    (cumulative or filled curves), which moves down. Zero (the density far
    from the data, the baseline of a fill) is no statistic and stays.
    """
    r = np.asarray(round_sig(np.asarray(values, dtype=float), sig), dtype=float)
    down = ((r >= 1) & probability) | (r < 0)
    return guard.released_statistics(
        values, avoid, sig=sig, directions=np.where(down, -1.0, 1.0), keep=(0.0,), policy=pol
    )


def _put_axis(est: KdeEstimate, name: str, lim: Any, ticks: Any) -> None:
    if lim is not None:
        est.limits[name] = (float(lim[0]), float(lim[1]))
    if ticks is not None:
        est.ticks[name] = np.asarray(ticks, dtype=float)


def _data_axis(
    lo: float, hi: float, avoid: np.ndarray, scale: _Scale, margin: float
) -> tuple[tuple[float, float] | None, np.ndarray | None]:
    """Safe limits and ticks of an axis showing released values in [lo, hi] (`margin` of it)."""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        # nothing drawn: ticks for the empty axis' (0, 1)
        return None, None if scale.log else safe_ticks(0.0, 1.0)
    if hi <= lo:
        return None, None
    if scale.log:
        return _log_axis(lo, hi, avoid, scale, pad=margin)
    lim = safe_limits(lo, hi, avoid, margin=margin)
    return lim, safe_ticks(lim[0], lim[1])


def _density_axes(
    est: KdeEstimate,
    curves: list,
    baselines: list,
    multiple: str,
    data_axis: str,
) -> None:
    """Ticks of the density axis, on the view matplotlib gives a fresh Axes.

    The view starts at 0 (seaborn's sticky edge) and ends a margin above the
    highest curve; lines start their margin from their lowest value, filled
    areas from their baseline. A fill of proportions spans (0, 1).
    """
    margin = mpl.rcParams["axes.ymargin" if data_axis == "x" else "axes.xmargin"]
    drawn = [c for c in curves if c is not None and np.isfinite(c).any()]
    if multiple == "fill" or not drawn:
        views = {"density": (0.0, 1.0), "density_filled": (0.0, 1.0)}
    else:
        top = max(float(np.nanmax(c)) for c in drawn)
        low = min(float(np.nanmin(c)) for c in drawn)
        floor = min(
            [0.0] + [float(np.nanmin(b)) for b in baselines if b.size and np.isfinite(b).any()]
        )
        views = {
            "density": (max(low - margin * (top - low), 0.0), top + margin * (top - low)),
            "density_filled": (max(floor, 0.0), top + margin * (top - floor)),
        }
    for name, (lo, hi) in views.items():
        if hi > lo:
            est.limits[name] = (lo, hi)
            est.ticks[name] = safe_ticks(lo, hi)


def _surface_estimate(
    release: KdeRelease,
    params: Mapping[str, Any],
    avoid: Mapping[str, np.ndarray],
    sig: int,
    rounded: bool,
) -> KdeEstimate:
    """Estimate the bivariate densities of a release and their contour levels, as seaborn does."""
    scales = {r: _Scale(release.scales.get(r)) for r in ("x", "y")}
    has_weights = "weights" in release.data.columns
    frequency = has_weights and (
        get_method(release.method).counts_only or get_method(release.method).private
    )
    analytic = has_weights and not frequency
    rows = _level_rows(release)
    n_levels = len(rows)
    has_hue = release.levels is not None
    common_norm = params["common_norm"] and (has_hue or analytic)
    clip = params["clip"] if params["clip"] is not None else (None, None)
    if clip[0] is None or np.isscalar(clip[0]):
        clip = (clip, clip)
    n_all = sum(len(r) for r in rows)
    present = [len(r) > 0 for r in rows]
    xs: list[np.ndarray] = [np.array([])] * n_levels
    ys: list[np.ndarray] = [np.array([])] * n_levels
    surfaces: list[np.ndarray | None] = [None] * n_levels
    notes = [""] * n_levels
    for i, r in enumerate(rows):
        if not len(r):
            what = "" if not has_hue else f" of {release.levels[i]!r}"
            notes[i] = f"No record{what} to estimate a density from."
            continue
        x, y = (scales[a].fwd(r[a].to_numpy(dtype=float)) for a in ("x", "y"))
        counts = r["weights"].to_numpy(dtype=float) if frequency else None
        w = r["weights"].to_numpy(dtype=float) if analytic else None
        min_variance = min(float(np.var(v, ddof=1)) if v.size > 1 else 0.0 for v in (x, y))
        if math.isclose(np.nan_to_num(min_variance), 0):
            notes[i] = _SINGULAR_2D
            continue
        try:
            kde = _fit(np.vstack([x, y]), params, counts=counts, weights=w)
            # seaborn places the grid from a fit without analytic weights
            fitted = _fit(np.vstack([x, y]), params, counts=counts) if analytic else kde
            bw = np.sqrt(np.diag(fitted.covariance)).ravel()
            gx = _grid_1d(x, float(bw[0]), params, clip[0], scales["x"], release.sig, avoid["x"])
            gy = _grid_1d(y, float(bw[1]), params, clip[1], scales["y"], release.sig, avoid["y"])
            if params["cumulative"]:
                p0 = (gx.min(), gy.min())
                density = np.array([[kde.integrate_box(p0, (xi, yj)) for xi in gx] for yj in gy])
            else:
                xx, yy = np.meshgrid(gx, gy)
                density = kde([xx.ravel(), yy.ravel()]).reshape(xx.shape)
        except np.linalg.LinAlgError:
            notes[i] = _SINGULAR_2D
            continue
        if common_norm:
            density = density * (len(r) / n_all)
        if rounded:
            density = np.asarray(round_sig(density, sig), dtype=float)
        surfaces[i] = density
        xs[i], ys[i] = scales["x"].inv(gx), scales["y"].inv(gy)
    est = _contoured("density", params, xs, ys, surfaces, present, notes, has_hue and common_norm)
    if rounded:
        _guard_contours(est, avoid, sig, _all_rare(release, avoid))
        for a, grids in (("x", xs), ("y", ys)):
            drawn = [g for g, note in zip(grids, notes, strict=True) if not note]
            lo = min((float(g.min()) for g in drawn), default=math.nan)
            hi = max((float(g.max()) for g in drawn), default=math.nan)
            _put_axis(est, a, *_data_axis(lo, hi, avoid[a], scales[a], 0.05))
    return est


def _counts_estimate(
    release: KdeRelease,
    params: Mapping[str, Any],
    avoid: Mapping[str, np.ndarray],
    rounded: bool,
) -> KdeEstimate:
    """Contour a suppressed grid of counts (suppressed cells as 0) at seaborn's levels.

    The surface is the counts on the cell centres, in a ring of empty cells
    so that contours close as a density's do; cumulative: the cumulative
    counts at the upper edges of the cells, 0 at the lower edges. `clip`
    keeps the cells whose centres lie within it. The bandwidth, grid size
    and cut do not apply: the grid is the estimate.
    """
    grid = release.grid
    scales = {r: _Scale(release.scales.get(r)) for r in ("x", "y")}
    counts = np.nan_to_num(grid.counts)
    wx, wy = grid.xedges[1] - grid.xedges[0], grid.yedges[1] - grid.yedges[0]
    if params["cumulative"]:
        gx, gy = grid.xedges, grid.yedges
        z = np.pad(counts.cumsum(axis=1).cumsum(axis=2), ((0, 0), (1, 0), (1, 0)))
        half = (0.0, 0.0)
    else:
        gx = np.r_[grid.xcentres[0] - wx, grid.xcentres, grid.xcentres[-1] + wx]
        gy = np.r_[grid.ycentres[0] - wy, grid.ycentres, grid.ycentres[-1] + wy]
        z = np.pad(counts, ((0, 0), (1, 1), (1, 1)))
        half = (wx / 2, wy / 2)
    clip = params["clip"]
    if clip is not None:
        cx, cy = (clip, clip) if clip[0] is None or np.isscalar(clip[0]) else clip
        cx, cy = cx or (None, None), cy or (None, None)
        keep_x = (gx >= (-np.inf if cx[0] is None else cx[0])) & (
            gx <= (np.inf if cx[1] is None else cx[1])
        )
        keep_y = (gy >= (-np.inf if cy[0] is None else cy[0])) & (
            gy <= (np.inf if cy[1] is None else cy[1])
        )
        gx, gy, z = gx[keep_x], gy[keep_y], z[:, keep_x][:, :, keep_y]
    if gx.size < 2 or gy.size < 2:
        raise ValueError(
            "clip leaves fewer than two grid cells along an axis: widen clip, or use more bins."
        )
    has_hue = release.levels is not None
    n_levels = z.shape[0]
    xd, yd = scales["x"].inv(gx), scales["y"].inv(gy)
    surfaces: list[np.ndarray | None] = []
    notes = []
    for i in range(n_levels):
        if z[i].any():
            surfaces.append(z[i].T.astype(float))
            notes.append("")
        else:
            what = f" for {release.levels[i]!r}" if has_hue else ""
            surfaces.append(None)
            notes.append(
                f"No grid cell{what} reaches the threshold: no contour can be drawn. "
                "Pass `warn_singular=False` to disable this warning."
            )
    est = _contoured(
        "counts",
        params,
        [xd] * n_levels,
        [yd] * n_levels,
        surfaces,
        [True] * n_levels,
        notes,
        has_hue and params["common_norm"],
    )
    # a filled plot of one level fills up to the highest count
    if rounded:
        _guard_contours(est, avoid, _COUNT_LEVEL_SIG, _all_rare(release, avoid))
        extent = {
            "x": scales["x"].inv([gx[0] - half[0], gx[-1] + half[0]]),
            "y": scales["y"].inv([gy[0] - half[1], gy[-1] + half[1]]),
        }
        for a in ("x", "y"):
            lo, hi = (float(v) for v in extent[a])
            _put_axis(est, a, *_data_axis(lo, hi, avoid[a], scales[a], 0.0))
    return est


def _quantile_to_level(data: Any, quantile: Any) -> np.ndarray:
    """Return data levels at iso-proportions of mass (seaborn's rule)."""
    isoprop = np.asarray(quantile)
    values = np.ravel(data)
    sorted_values = np.sort(values)[::-1]
    normalized_values = np.cumsum(sorted_values) / values.sum()
    idx = np.searchsorted(normalized_values, 1 - isoprop)
    return np.take(sorted_values, idx, mode="clip")


def _contoured(
    kind: str,
    params: Mapping[str, Any],
    xs: list[np.ndarray],
    ys: list[np.ndarray],
    surfaces: list[np.ndarray | None],
    present: list[bool],
    notes: list[str],
    common: bool,
) -> KdeEstimate:
    """Return an estimate of contours: seaborn's iso-proportion levels of each surface."""
    thresh = 0 if params["thresh"] is None else params["thresh"]
    levels = params["levels"]
    if isinstance(levels, Number):
        iso = np.linspace(thresh, 1, levels)
    else:
        iso = np.asarray(levels, dtype=float)
        if iso.size == 0 or iso.min() < 0 or iso.max() > 1:
            raise ValueError("levels must be in [0, 1]")
    shown = [i for i, s in enumerate(surfaces) if s is not None]
    if common and shown:
        at = _quantile_to_level([surfaces[i] for i in shown], iso)
        draw = {i: at for i in shown}
    else:
        draw = {i: _quantile_to_level(surfaces[i], iso) for i in shown}
    n = len(surfaces)
    return KdeEstimate(
        kind=kind,
        params=_recorded(params),
        support=[xs[i] if i in draw else np.array([]) for i in range(n)],
        support_y=[ys[i] if i in draw else np.array([]) for i in range(n)],
        density=[surfaces[i] if i in draw else np.array([]) for i in range(n)],
        baseline=[np.array([]) for _ in range(n)],
        contour_levels=[np.unique(draw[i]) if i in draw else np.array([]) for i in range(n)],
        colorbar_ticks=[np.array([]) for _ in range(n)],
        present=present,
        notes=notes,
    )


def _guard_contours(
    est: KdeEstimate, avoid: Mapping[str, np.ndarray], sig: int, avoid_all: np.ndarray
) -> None:
    """Move contour levels until no level and no contour vertex equals a rare raw value.

    matplotlib draws the contour of a level through the points where it
    interpolates the level linearly between neighbouring grid points: a
    vertex on a grid line has the grid's coordinate along that line (no
    data) and an interpolated one across it. Those are computed here; a
    level whose contour would pass through a rare value (or which is one)
    moves one unit in its `sig`-th significant figure until none does.
    Then the ticks of each level's colour bar.
    """
    shown = [i for i, note in enumerate(est.notes) if not note]
    levels = {i: est.contour_levels[i].copy() for i in shown}
    for value in np.unique(np.concatenate([levels[i] for i in shown])) if shown else []:
        users = [i for i in shown if (levels[i] == value).any()]
        surfaces = [(est.support[i], est.support_y[i], est.density[i]) for i in users]
        new = float(value)
        for _ in range(1000):
            if not _level_hits(new, surfaces, avoid["x"], avoid["y"], avoid_all):
                break
            new = _next_level(new, sig)
        else:  # pragma: no cover - a thousand units on rare values
            raise DisclosureError("Could not place contour levels clear of the rare values.")
        if new != value:
            for i in users:
                levels[i][levels[i] == value] = new
    for i in shown:
        lv = np.unique(levels[i])
        est.contour_levels[i] = lv
        top = float(np.max(est.density[i]))
        if lv.size >= 2:
            lo, hi = float(lv[0]), float(lv[-1])
        elif est.kind == "counts" and lv.size == 1:
            # a filled plot of one level fills from it up to the highest count
            lo = float(lv[0])
            hi = top if top > lo else lo * 1.001
        else:
            continue
        if hi > lo:
            est.colorbar_ticks[i] = safe_ticks(lo, hi)


def _level_hits(
    level: float,
    surfaces: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    rare_x: np.ndarray,
    rare_y: np.ndarray,
    avoid_all: np.ndarray,
) -> bool:
    """Whether a contour level, or a vertex of its contour on any surface, is a rare value."""
    if level != 0 and hits_any([level], avoid_all):
        return True
    for xs, ys, z in surfaces:
        # across grid columns (x interpolated, y on a grid line), then across grid rows
        for za, zb, lo_c, hi_c, rare, along in (
            (z[:, :-1], z[:, 1:], xs[:-1], xs[1:], rare_x, 1),
            (z[:-1, :], z[1:, :], ys[:-1], ys[1:], rare_y, 0),
        ):
            if not rare.size:
                continue
            jj, ii = np.nonzero((np.minimum(za, zb) < level) & (level < np.maximum(za, zb)))
            if not ii.size:
                continue
            a, b = za[jj, ii], zb[jj, ii]
            frac = (b - level) / (b - a)
            k = ii if along == 1 else jj
            vertex = lo_c[k] * frac + hi_c[k] * (1.0 - frac)
            if hit_mask(vertex, rare, _VERTEX_RTOL).any():
                return True
    return False


def _next_level(value: float, sig: int) -> float:
    """`value` one unit up in its `sig`-th significant figure."""
    if value == 0:
        return value
    unit = 10.0 ** (math.floor(math.log10(abs(value))) - sig + 1)
    return float(round_sig(value + unit, sig))


def _log_axis(
    lo: float, hi: float, avoid: np.ndarray, scale: _Scale, pad: float = 0.05
) -> tuple[tuple[float, float], np.ndarray]:
    """Safe limits and ticks for a log axis showing released values in [lo, hi] (> 0).

    The limits are padded by `pad` of the range on the log scale. Ticks are
    powers of the base, else 1-2-5 (1-3, 2-5, ...) multiples of them: the first
    set with two to twelve ticks inside the limits, as a log locator chooses
    them from the limits alone.
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
        if 2 <= ticks.size <= 12:
            return (lim[0], lim[1]), ticks
    ticks = scale.inv(safe_ticks(*scale.fwd(lim)))
    rounded = np.asarray(round_sig(ticks, 2))
    return (lim[0], lim[1]), rounded if np.unique(rounded).size == ticks.size else ticks


# --------------------------------------------------------------------------------------
# drawing


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

    Only the release's estimate reaches matplotlib: its curves
    (``Axes.plot``, ``Axes.fill_between``) or the contours of its density
    or count surface (``Axes.contour``, ``Axes.contourf``) at its levels,
    coloured as seaborn colours them. Axes showing data get the release's
    limits and ticks (widened to what the Axes already shows). The report
    is not attached here (see :func:`safeplot.plots._common.finish`).

    Parameters
    ----------
    ax : Axes
        Where to draw.
    release : KdeRelease
        What to draw, from :func:`release_kde`.
    palette, hue_norm, color, fill
        As in :func:`kdeplot`.
    multiple, common_norm, common_grid, cumulative, bw_method, bw_adjust
        How the density was estimated: the release's own. Left at their
        defaults they take the release's values; given otherwise, they must
        equal them (a release cannot be estimated again without its data).
    levels, thresh, gridsize, cut, clip
        As `multiple`: the release's own.
    warn_singular : bool, default True
        Warn of each hue level with nothing to draw.
    log_scale
        Not needed: the release's axes are drawn on the scales it was made on.
    legend, cbar, cbar_ax, cbar_kws
        As in :func:`kdeplot`.
    **kwargs
        Passed to matplotlib.

    Returns
    -------
    Axes

    Raises
    ------
    ValueError
        An estimation parameter other than the release's.

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
    given = {
        "bw_method": bw_method,
        "bw_adjust": bw_adjust,
        "gridsize": gridsize,
        "cut": cut,
        "clip": clip,
        "cumulative": cumulative,
        "common_norm": common_norm,
        "common_grid": common_grid,
        "multiple": multiple,
        "levels": levels,
        "thresh": thresh,
    }
    if release.estimate is None:
        # assembled from values released elsewhere: estimated now, clear of its rare values
        params = _estimate_params(**given)
        release = _estimated(release, release.avoid, params, get_policy())
    else:
        _check_estimate(release.estimate, given)
    est = release.estimate
    multiple = est.params["multiple"]
    fresh = not ax.has_data()
    before = None if fresh else {w: (_view(ax, w), _fixed_ticks(ax, w)) for w in ("x", "y")}
    roles = ("x", "y") if release.bivariate else (release.data_axis,)
    for r in roles:
        base = release.scales.get(r)
        if base is not None:
            (ax.set_xscale if r == "x" else ax.set_yscale)("log", base=base)
    has_hue = release.levels is not None
    color = None if has_hue else _default_color(ax, fill, color, kwargs)
    order, lookup = _hue_map(release, est, palette, hue_norm) if has_hue else ([None], {})
    if warn_singular:
        for note in est.notes:
            if note and not note.startswith(_ABSENT):
                warnings.warn(note, UserWarning, stacklevel=3)
    if est.kind == "curve":
        filled = _draw_curves(ax, release, order, lookup, color, fill, multiple, legend, kwargs)
    else:
        filled = bool(fill)
        _draw_contours(
            ax, release, order, lookup, color, fill, cbar, cbar_ax, cbar_kws, legend, kwargs
        )
    if release.report.details.get("groups_left_out"):
        note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
    if get_method(release.method).raw:
        return ax
    for r in roles:
        name = r if release.bivariate else "data"
        _set_data_axis(
            ax,
            r,
            est.limits.get(name),
            est.ticks.get(name),
            _Scale(release.scales.get(r)),
            None if before is None else before[r],
        )
    if not release.bivariate and fresh:
        other = "y" if release.data_axis == "x" else "x"
        ticks = est.ticks.get("density_filled" if filled else "density")
        axis = ax.xaxis if other == "x" else ax.yaxis
        if ticks is not None and axis.get_scale() == "linear":
            lo, hi = sorted(_view(ax, other))
            tol = 1e-9 * max(abs(lo), abs(hi), 1e-300)
            axis.set_major_locator(FixedLocator(ticks[(ticks >= lo - tol) & (ticks <= hi + tol)]))
    return ax


#: The note of a hue level without records (no warning: seaborn skips such a level).
_ABSENT = "No record"


def _check_estimate(est: KdeEstimate, given: Mapping[str, Any]) -> None:
    """Refuse estimation parameters, given to draw a release, other than its own."""
    asked = _recorded(_estimate_params(**given))
    for key, value in asked.items():
        if _same(value, _recorded(_ESTIMATE_DEFAULTS)[key]) or _same(value, est.params.get(key)):
            continue
        raise ValueError(
            f"draw_kde: the density of this release was estimated with "
            f"{key}={est.params.get(key)!r}, not {value!r}, and cannot be estimated again "
            f"without its data. Pass {key}= to release_kde (kdeplot does)."
        )


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b, strict=True))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _view(ax: Axes, which: str) -> tuple[float, float]:
    return ax.get_xlim() if which == "x" else ax.get_ylim()


def _fixed_ticks(ax: Axes, which: str) -> np.ndarray | None:
    """Return the ticks of an axis fixed to released numbers (a plot drawn before), else None."""
    locator = (ax.xaxis if which == "x" else ax.yaxis).get_major_locator()
    if isinstance(locator, FixedLocator):
        return np.asarray(locator.locs, dtype=float)
    return None


def _set_data_axis(
    ax: Axes,
    which: str,
    lim: tuple[float, float] | None,
    ticks: np.ndarray | None,
    scale: _Scale,
    before: tuple[tuple[float, float], np.ndarray | None] | None,
) -> None:
    """Fix an axis showing released values to the release's limits and ticks.

    On an Axes that showed something before (`before`: its view and its
    fixed ticks), the limits widen to that view and its ticks are kept.
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    if lim is None:
        if ticks is not None and before is None and axis.get_scale() == "linear":
            axis.set_major_locator(FixedLocator(ticks))
        return
    if before is not None:
        (a, b), old = before
        lim = (min(lim[0], a, b), max(lim[1], a, b))
        if old is not None:
            ticks = np.union1d(ticks, old[(old >= lim[0]) & (old <= lim[1])])
    set_safe_axis(ax, which, lim, ticks)
    if scale.log:
        axis.set_major_formatter(StrMethodFormatter("{x:g}"))
        axis.set_minor_formatter(NullFormatter())


def _default_color(ax: Axes, fill: bool | None, color: Any, kws: Mapping[str, Any]) -> Any:
    """Return the colour of a plot without hue: `color`, else the next of the Axes' cycle."""
    from matplotlib.cbook import normalize_kwargs
    from matplotlib.colors import to_rgb

    if color is not None:
        return color
    kws = dict(kws)
    kws.pop("label", None)
    if fill:
        kws = normalize_kwargs(kws, mpl.collections.PolyCollection)
        scout = ax.fill_between([], [], **kws)
        color = to_rgb(scout.get_facecolor()[0])
    else:
        given = normalize_kwargs(kws, mpl.lines.Line2D).get("color")
        (scout,) = ax.plot([], [], scalex=False, scaley=False, color=given)
        color = scout.get_color()
    scout.remove()
    return color


def _hue_map(
    release: KdeRelease, est: KdeEstimate, palette: Any, norm: Any
) -> tuple[list, dict[Any, Any]]:
    """Return the hue levels in seaborn's order and their colours, as seaborn maps them.

    Numeric levels take a colour map (default ``"ch:"``) normalised over the
    levels present, unless the palette is qualitative, a list or a dict;
    other levels take the palette's colours in order (default: the colour
    cycle, or husl for more levels than it has).
    """
    from seaborn.palettes import QUAL_PALETTES, color_palette

    levels = list(release.levels)
    data_levels = [lev for lev, p in zip(levels, est.present, strict=True) if p]
    if isinstance(palette, np.ndarray):
        warnings.warn(
            "Numpy array is not a supported type for `palette`. Please convert your palette "
            "to a list. This will become an error in v0.14",
            stacklevel=4,
        )
        palette = palette.tolist()
    if isinstance(palette, str) and palette in QUAL_PALETTES:
        numeric = False
    elif norm is not None:
        numeric = True
    elif isinstance(palette, (dict, list)):
        numeric = False
    else:
        numeric = _numeric(levels)
    if numeric:
        if isinstance(palette, dict):
            order = sorted(palette)
            return order, {lev: palette[lev] for lev in order}
        order = sorted(set(data_levels))
        if isinstance(palette, mpl.colors.Colormap):
            cmap = palette
        else:
            cmap = color_palette("ch:" if palette is None else palette, as_cmap=True)
        if norm is None:
            norm = mpl.colors.Normalize()
        elif isinstance(norm, tuple):
            norm = mpl.colors.Normalize(*norm)
        elif not isinstance(norm, mpl.colors.Normalize):
            raise ValueError("``hue_norm`` must be None, tuple, or Normalize object.")
        if not norm.scaled() and data_levels:
            norm(np.asarray(data_levels, dtype=float))
        return order, dict(zip(order, cmap(norm(np.asarray(order, dtype=float))), strict=True))
    if isinstance(palette, dict):
        missing = set(levels) - set(palette)
        if any(missing):
            raise ValueError(f"The palette dictionary is missing keys: {missing}")
        return levels, dict(palette)
    n = len(levels)
    if palette is None:
        cycle = mpl.rcParams["axes.prop_cycle"].by_key().get("color", [".15"])
        colors = color_palette(None, n) if n <= len(cycle) else color_palette("husl", n)
    elif isinstance(palette, list):
        colors = list(palette)
        if len(colors) < n:
            warnings.warn(
                f"The palette list has fewer values ({len(colors)}) than needed ({n}) and will "
                "cycle, which may produce an uninterpretable plot.",
                UserWarning,
                stacklevel=4,
            )
            colors = [colors[i % len(colors)] for i in range(n)]
        elif len(colors) > n:
            warnings.warn(
                f"The palette list has more values ({len(colors)}) than needed ({n}), which may "
                "not be intended.",
                UserWarning,
                stacklevel=4,
            )
            colors = colors[:n]
    else:
        colors = color_palette(palette, n)
    return levels, dict(zip(levels, colors, strict=True))


def _level_index(release: KdeRelease, level: Any) -> int | None:
    """Return the position of a hue level in the release (None: a palette's level only)."""
    if level is None:
        return 0
    for i, lev in enumerate(release.levels):
        if lev == level:
            return i
    return None


def _cmap_from_color(color: Any) -> mpl.colors.Colormap:
    """Return a sequential colour map from a seed colour (seaborn's, in husl space)."""
    from matplotlib.colors import to_rgba
    from seaborn.external import husl

    r, g, b, _ = to_rgba(color)
    h, s, _ = husl.rgb_to_husl(r, g, b)
    xx = np.linspace(-1, 1, int(1.15 * 256))[:256]
    ramp = np.zeros((256, 3))
    ramp[:, 0] = h
    ramp[:, 1] = s * np.cos(xx)
    ramp[:, 2] = np.linspace(35, 80, 256)
    colors = np.clip([husl.husl_to_rgb(*hsl) for hsl in ramp], 0, 1)
    return mpl.colors.ListedColormap(colors[::-1])


def _artist_kws(
    kws: Mapping[str, Any], fill: bool, multiple: str, color: Any, alpha: float
) -> dict[str, Any]:
    """Colours of a filled area or a line, as seaborn gives them."""
    from matplotlib.cbook import normalize_kwargs
    from matplotlib.colors import to_rgba

    kws = dict(kws)
    if fill:
        kws = normalize_kwargs(kws, mpl.collections.PolyCollection)
        kws.setdefault("facecolor", to_rgba(color, alpha))
        if multiple in ("stack", "fill"):
            kws.setdefault("edgecolor", mpl.rcParams["patch.edgecolor"])
        else:
            kws.setdefault("edgecolor", to_rgba(color, 1))
    else:
        kws["color"] = to_rgba(color, alpha)
    return kws


def _draw_curves(
    ax: Axes,
    release: KdeRelease,
    order: list,
    lookup: Mapping[Any, Any],
    color: Any,
    fill: bool | None,
    multiple: str,
    legend: bool,
    kwargs: Mapping[str, Any],
) -> bool:
    """Draw the univariate curves (last hue level first, as seaborn); return whether filled."""
    from matplotlib.cbook import normalize_kwargs

    est = release.estimate
    has_hue = release.levels is not None
    if fill is None:
        fill = multiple in ("stack", "fill")
    plot_kws = normalize_kwargs(
        dict(kwargs), mpl.collections.PolyCollection if fill else mpl.lines.Line2D
    )
    alpha = plot_kws.pop("alpha", (0.25 if multiple == "layer" else 0.75) if fill else 1)
    sticky_density = (0, 1) if multiple == "fill" else (0, np.inf)
    shown = [s for s, ok in zip(est.support, est.shown, strict=True) if ok]
    sticky_support = (
        [min(float(s.min()) for s in shown), max(float(s.max()) for s in shown)]
        if multiple == "fill" and shown
        else []
    )
    for key in reversed(order):
        i = _level_index(release, key)
        if i is None or not est.shown[i]:
            continue
        kws = _artist_kws(plot_kws, fill, multiple, lookup[key] if has_hue else color, alpha)
        support, density, base = est.support[i], est.density[i], est.baseline[i]
        if release.data_axis == "x":
            if fill:
                artist = ax.fill_between(support, base, density, **kws)
            else:
                (artist,) = ax.plot(support, density, **kws)
            artist.sticky_edges.x[:] = sticky_support
            artist.sticky_edges.y[:] = sticky_density
        else:
            if fill:
                artist = ax.fill_betweenx(support, base, density, **kws)
            else:
                (artist,) = ax.plot(density, support, **kws)
            artist.sticky_edges.x[:] = sticky_density
            artist.sticky_edges.y[:] = sticky_support
        if est.band and est.band[i].size:
            _draw_band(ax, release, i, artist)
    _axis_labels(ax, release)
    if has_hue and legend:
        _legend(ax, release, order, lookup, fill, multiple, alpha, plot_kws)
    return bool(fill)


def _draw_band(ax: Axes, release: KdeRelease, i: int, artist: Any) -> None:
    """Shade a DP curve's 95% band (cut at 0) in the colour of its curve."""
    from ..marks.bars import DP_ERRORS_GID

    est = release.estimate
    support, density, half = est.support[i], est.density[i], est.band[i]
    low, high = np.maximum(density - half, 0.0), density + half
    if isinstance(artist, mpl.lines.Line2D):
        colour = artist.get_color()
    else:
        colour = mpl.colors.to_hex(np.asarray(artist.get_facecolor()).reshape(-1, 4)[0])
    fill = ax.fill_between if release.data_axis == "x" else ax.fill_betweenx
    band = fill(support, low, high, color=colour, alpha=0.2, lw=0)
    band.set_gid(DP_ERRORS_GID)


def _draw_contours(
    ax: Axes,
    release: KdeRelease,
    order: list,
    lookup: Mapping[Any, Any],
    color: Any,
    fill: bool | None,
    cbar: bool,
    cbar_ax: Axes | None,
    cbar_kws: dict | None,
    legend: bool,
    kwargs: Mapping[str, Any],
) -> None:
    """Draw the contours of each hue level's surface at its levels (seaborn's colours)."""
    from seaborn.palettes import color_palette

    est = release.estimate
    has_hue = release.levels is not None
    contour_kws = dict(kwargs)
    if has_hue:
        for param in ("cmap", "colors"):
            if param in contour_kws:
                warnings.warn(
                    f"{param} parameter ignored when using hue mapping.", UserWarning, stacklevel=4
                )
                contour_kws.pop(param)
    else:
        coloring_given = set(contour_kws) & {"cmap", "colors"}
        if fill and not coloring_given:
            contour_kws["cmap"] = _cmap_from_color(color)
        if not fill and not coloring_given:
            contour_kws["colors"] = [color]
        cmap = contour_kws.pop("cmap", None)
        if isinstance(cmap, str):
            cmap = color_palette(cmap, as_cmap=True)
        if cmap is not None:
            contour_kws["cmap"] = cmap
    for key in order:
        i = _level_index(release, key)
        if has_hue:
            if fill:
                contour_kws["cmap"] = _cmap_from_color(lookup[key])
            else:
                contour_kws["colors"] = [lookup[key]]
        if i is None or not est.shown[i]:
            continue
        contour_kws.pop("label", None)
        lv = est.contour_levels[i]
        if fill and est.kind == "counts" and lv.size < 2:
            # one level of counts: filled up to the highest count
            top = float(np.max(est.density[i]))
            lv = np.array([lv[0], top]) if top > lv[0] else np.array([lv[0], lv[0] * 1.001])
        func = ax.contourf if fill else ax.contour
        cset = func(est.support[i], est.support_y[i], est.density[i], levels=lv, **contour_kws)
        if cbar:
            bar = ax.figure.colorbar(cset, cbar_ax, ax, **({} if cbar_kws is None else cbar_kws))
            if est.colorbar_ticks[i].size and np.size(lv) >= 2:
                bar.set_ticks(est.colorbar_ticks[i])
                bar.minorticks_off()
    _axis_labels(ax, release)
    if has_hue and legend:
        _legend(ax, release, order, lookup, bool(fill), "layer", 1, {})


def _axis_labels(ax: Axes, release: KdeRelease) -> None:
    """Label the axes with the variables' names (and "Density"), unless labelled (seaborn)."""
    if release.bivariate:
        names = {"x": release.labels.get("x"), "y": release.labels.get("y")}
    else:
        other = "y" if release.data_axis == "x" else "x"
        names = {release.data_axis: release.labels.get(release.data_axis), other: "Density"}
    if not ax.get_xlabel():
        visible = any(t.get_visible() for t in ax.get_xticklabels())
        ax.set_xlabel(names["x"], visible=visible)
    if not ax.get_ylabel():
        visible = any(t.get_visible() for t in ax.get_yticklabels())
        ax.set_ylabel(names["y"], visible=visible)


def _legend(
    ax: Axes,
    release: KdeRelease,
    order: list,
    lookup: Mapping[Any, Any],
    fill: bool,
    multiple: str,
    alpha: float,
    artist_kws: Mapping[str, Any],
) -> None:
    """Add a legend entry per hue level, as seaborn does (patches when filled, else lines)."""
    handles = []
    for level in order:
        kws = _artist_kws(artist_kws, fill, multiple, lookup[level], alpha)
        if "facecolor" in kws:
            kws.pop("color", None)
        handles.append(mpl.patches.Patch(**kws) if fill else mpl.lines.Line2D([], [], **kws))
    ax.legend(handles, order, title=release.labels.get("hue", "hue"))


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
    k: int | None = None,
    q: float | None = None,
    bins: int | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    epsilon: float | None = None,
    binrange: tuple[float, float] | None = None,
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
        Disclosure control: ``"deterministic"`` (default, univariate and
        bivariate, from the policy's ``default_point``), ``"suppress"``,
        ``"generalize"``, ``"probabilistic"``, ``"confidential"`` or
        ``"none"`` (raw, only when the policy allows raw output). A
        bivariate density defaults to the kNN centroids rather than the
        suppressed grid: suppression blanks most cells of a small hue level
        (17 of the 68 Chinstrap penguins' bill measurements survive on
        30 x 30 cells), the centroids keep its shape.
    threshold : int, optional
        Minimum count of a shown bin or grid cell (default and floor: the
        policy's); also: no drawn number equals a value held by fewer records.
    factor : int, default 2
        Coarsening of ``"generalize"`` (bins, or cells per axis, divided by it).
    k : int, optional
        Records per centroid (``"deterministic"``).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of the variable's SD (``"probabilistic"``).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    bins : int, optional
        Bins of the suppressed histogram (default 30) / cells per axis of the
        bivariate grid (default: chosen by the number of records, as a heat
        map's, :func:`~safeplot.plots.grid.grid_bins_for`).
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
    epsilon : float, optional
        Privacy loss of a univariate ``method="dp"`` density (default 1.0),
        spent from the policy's ``dp_budget``.
    binrange : (float, float), optional
        ``method="dp"``: the span of the fixed grid of `bins` whose noisy
        counts are smoothed; without it a quarter of epsilon is spent on a
        differentially private range estimate.
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
        policy forbids, too few records for the method, or (under
        ``"confidential"``) a hue level of fewer than `threshold` records.
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
      mean and SD; the density of the centroids is drawn.
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
    - ``"dp"``: differential privacy. The records are counted in `bins`
      bins fixed before the data is read (`binrange`, or a DP range
      estimate spending a quarter of epsilon), the counts get OpenDP's
      discrete Laplace noise of scale 1/epsilon and negative ones are set
      to 0; the density is those noisy counts smoothed with the kernel, as
      for ``"suppress"`` (post-processing: nothing more is spent). A band
      shows the 95% interval that the counts' noise gives the curve (for
      layered, non-cumulative curves). Bivariate densities do not take it.

    Bivariate (``x`` and ``y``; policy kind ``"contour"``, default the
    policy's ``default_point``, ``"deterministic"``):

    - ``"suppress"`` / ``"generalize"``: contours of the suppressed density
      grid of :func:`~safeplot.plots.grid.release_grid` (by n, as a heat map's),
      drawn on the cell centres with suppressed cells as 0. `levels`,
      `thresh`, `fill`, `color`/`cmap`, `hue`, `common_norm`, `cumulative`
      and `clip` apply; `bw_method`, `bw_adjust`, `gridsize` and `cut` do
      not (the grid is the estimate).
    - ``"deterministic"`` / ``"probabilistic"``: the bivariate kde of the
      anonymised points (kNN centroids of (x, y) within hue levels; keyed
      noise).
    - ``"confidential"``: contours of the kde of the winsorised data over a
      range rounded outward on both axes.

    ``"microaggregation"`` and ``"rounding"`` release group means and
    representative values, whose density is drawn as the others'.

    **The release.** safeplot estimates the density before anything is
    drawn, with seaborn's rules (:class:`scipy.stats.gaussian_kde`), on a
    regular grid between released limits, and rounds it to the policy's
    significant figures; a value equal to a value held by fewer than
    `threshold` records moves one unit in its last figure. The grid depends
    on no raw value and is never moved. Contour levels are chosen with the
    release, and a level whose contour would pass through such a value
    moves the same way. Axes showing data get limits and ticks on safe
    numbers. Methods that group within strata (``"deterministic"``,
    ``"microaggregation"``) form their groups within hue levels: a level
    with fewer records than the groups need (k, 2k) is left out, its name
    not in the legend unless ``hue_order=`` named it, with a note under the
    axes that names no group; only when every level is too small is the
    call refused. The density without hue comes from other groups of the
    same records, so the two figures' difference is not the records left
    out. Under ``"confidential"`` each record keeps its winsorised value,
    and the same difference would be the density of the records left out:
    a small level is refused there.

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
    >>> ax.safeplot_report.method
    'deterministic'
    >>> ax = kdeplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", method="suppress",
    ...              ax=plt.figure().gca())
    >>> ax.safeplot_report.params["bins"]  # the grid by n: 340 records at threshold 3
    11

    A density smoothed from differentially private counts of 26 bins:

    >>> ax = kdeplot(data=penguins, x="flipper_length_mm", method="dp", epsilon=0.5,
    ...              binrange=(170, 235), bins=26, ax=plt.figure().gca())
    >>> ax.safeplot_report.params
    {'epsilon': 0.5, 'bins': 26}
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
    m = check_family(method, (*_FAMILIES, "private"), "kernel density plots")
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
        weights=None if weights is None else pdata.frame["weights"],
        bw_method=bw_method,
        bw_adjust=bw_adjust,
        gridsize=gridsize,
        cut=cut,
        clip=clip,
        cumulative=cumulative,
        common_norm=common_norm,
        common_grid=common_grid,
        multiple=multiple,
        levels=levels,
        thresh=thresh,
        epsilon=epsilon,
        binrange=binrange,
    )
    ax = axes_for(ax, release.report, release)
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
