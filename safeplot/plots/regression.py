"""Regression diagnostics under disclosure control: ``qqplot``, ``residplot`` and ``regplot``.

Residuals are as sensitive as the data they come from: a residual plus its
fitted value gives back the outcome (Avraam et al. 2021, section 4.2;
O'Keefe & Good 2009, section 2.2). The diagnostic plots here therefore treat
residuals, and the sample quantiles of a Q-Q plot, as raw values:

- :func:`qqplot` (statsmodels' call) builds the Q-Q points (theoretical
  quantile, sorted sample value) from the raw data and releases them by the
  method: kNN centroids or keyed noise on the two-dimensional points (or
  noise on the data before the plot is built, ``noise_first=True``), the
  surviving cells of a density grid, or O'Keefe's robust smooth line with no
  individual points. The reference line comes from rounded statistics of the
  raw data and is drawn over the released range only.
- :func:`residplot` and :func:`regplot` (seaborn's calls) fit the model to
  the raw data (an aggregate) and release the points through
  :func:`~safeplot.plots.relational.release_scatter`; fitted lines and
  confidence bands (:func:`release_fit`, which jointplot's ``kind="reg"``
  reuses) are evaluated on a grid inside the released x range or across the
  safe x limits (``truncate=False``), never at the raw extremes, and lowess lines come from
  :func:`~safeplot.anonymize.confidential.lowess_trend` (winsorised, rounded
  end points).

:func:`release_qq` and :func:`draw_qq` are the two halves of a Q-Q plot, for
other figures (the Q-Q panel of regression diagnostics) to reuse; the
drawing, of Q-Q plots and of the lines, bands and markers here, is
:mod:`safeplot.marks.lines`.
"""

from __future__ import annotations

import copy
import dataclasses
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from scipy import stats

from .._validate import clean_numeric, refuse_dask, to_pandas
from ..anonymize.confidential import lowess_trend
from ..anonymize.grids import rare_values
from ..anonymize.statistics import round_sig, winsorize
from ..errors import DisclosureError
from ..marks.boxes import draw_boxes
from ..marks.lines import (
    default_color,
    draw_estimates,
    draw_fit,
    draw_markers,
    draw_qq,
    draw_zero_line,
    line_style,
    marker_style,
)
from ..methods import anonymize_values, available_methods, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, PointRelease, guard, release_kind
from ._boxes import BoxScatterRelease
from ._common import (
    axes_for,
    axis_from_range,
    check_positive_int,
    finish,
    make_report,
    quiet_seaborn,
    safe_points,
    set_safe_axis,
    takes_method_options,
)
from ._data import plot_data
from .grid import release_grid
from .relational import release_scatter

__all__ = [
    "QQ_LINES",
    "QQ_METHODS",
    "QQRelease",
    "draw_qq",
    "qqplot",
    "regplot",
    "release_qq",
    "residplot",
]

#: Reference lines of a Q-Q plot (statsmodels' ``line=``).
QQ_LINES = (None, "45", "s", "r", "q")
#: Methods of a Q-Q plot (every family).
QQ_METHODS = tuple(m.name for m in available_methods() if not m.plot_kinds or "qq" in m.plot_kinds)
#: Axis labels of a Q-Q plot (statsmodels').
THEORETICAL = "Theoretical Quantiles"
SAMPLE = "Sample Quantiles"


# -- small numeric helpers -----------------------------------------------------------------


def _union(*arrays: np.ndarray) -> np.ndarray:
    parts = [np.asarray(a, dtype=float).ravel() for a in arrays if a is not None]
    return np.unique(np.concatenate(parts)) if parts else np.array([])


def _span(*arrays: np.ndarray) -> tuple[float, float]:
    v = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays if a is not None])
    v = v[np.isfinite(v)]
    return float(v.min()), float(v.max())


def _axis(lo: float, hi: float, avoid: np.ndarray) -> tuple[tuple[float, float], np.ndarray]:
    if not hi > lo:
        pad = max(abs(lo) * 0.05, 0.5)
        lo, hi = lo - pad, hi + pad
    return axis_from_range(lo, hi, avoid)


# -- Q-Q plot: release ---------------------------------------------------------------------


@release_kind("qq")
@dataclass
class QQRelease:
    """What a Q-Q plot draws: released points, grid cells or a smooth curve, and a line.

    Attributes
    ----------
    kind : {"points", "cells", "curve"}
        One marker per record (deterministic, probabilistic, microaggregation,
        rounding, none), one marker per surviving grid cell sized by its
        count (suppress, generalize), or O'Keefe's smooth line through the
        Q-Q points with no individual points (confidential).
    x, y : ndarray
        Theoretical and sample quantiles of the points, cell centres or curve.
    sizes : ndarray or None
        The count of each cell (``kind="cells"``).
    line_x, line_y : ndarray or None
        The reference line's points (None without a line).
    line : str or None
        Which reference line (statsmodels' ``line=``).
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    report : DisclosureReport
    xlabel, ylabel : str
    """

    kind: str
    x: np.ndarray
    y: np.ndarray
    sizes: np.ndarray | None
    line_x: np.ndarray | None
    line_y: np.ndarray | None
    line: str | None
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    xlabel: str = THEORETICAL
    ylabel: str = SAMPLE
    coincident: np.ndarray | None = field(default=None, repr=False)


def _check_line(line: Any) -> str | None:
    if line is None:
        return None
    if isinstance(line, str) and line in QQ_LINES:
        return line
    raise ValueError(
        f"{line!r} option for line not understood: use one of None, '45', 's' (standardised), "
        "'r' (regression) or 'q' (quartiles)."
    )


def _probplot(raw: np.ndarray, dist, distargs, a, loc, scale, fit):
    """Build statsmodels' ProbPlot of the raw data (theoretical quantiles, fitted parameters)."""
    from statsmodels.graphics.gofplots import ProbPlot

    if isinstance(dist, str):
        dist = getattr(stats, dist, None) or _bad_dist(dist)
    return ProbPlot(raw, dist=dist, fit=fit, distargs=distargs, a=a, loc=loc, scale=scale)


def _dist_name(dist: Any) -> str:
    """Return the name of a scipy distribution, frozen or not."""
    name = getattr(dist, "name", None) or getattr(getattr(dist, "dist", None), "name", None)
    return str(name) if name else type(dist).__name__


def _bad_dist(name: str):
    raise ValueError(f"dist={name!r} is not a scipy.stats distribution.")


def _sample_quantiles(pp, values: np.ndarray) -> np.ndarray:
    """Sorted values, standardised as statsmodels' ``sample_quantiles`` does under ``fit``."""
    s = np.sort(values)
    if pp.fit and pp.loc != 0 and pp.scale != 1:
        return (s - pp.loc) / pp.scale
    return s


def _line_params(line: str, tq: np.ndarray, sq: np.ndarray, pp) -> tuple[float, float]:
    """Slope and intercept of statsmodels' reference line from the raw Q-Q points."""
    if line == "s":
        return float(np.std(sq)), float(np.mean(sq))
    if line == "r":
        slope, intercept = np.polyfit(tq, sq, 1)
        return float(slope), float(intercept)
    q25, q75 = stats.scoreatpercentile(sq, 25), stats.scoreatpercentile(sq, 75)
    tq25, tq75 = pp.dist.ppf([0.25, 0.75])
    slope = (q75 - q25) / (tq75 - tq25)
    return float(slope), float(q25 - slope * tq25)


def release_qq(
    data: Any,
    *,
    dist: Any = stats.norm,
    distargs: tuple = (),
    a: float = 0,
    loc: float = 0,
    scale: float = 1,
    fit: bool = False,
    line: str | None = None,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    noise_first: bool = False,
    metric: str = "euclidean",
    name: str = SAMPLE,
    function: str = "qqplot",
    n_dropped: int = 0,
    policy: Policy | None = None,
) -> QQRelease:
    """Release a Q-Q plot of `data` under a disclosure-control method.

    Parameters
    ----------
    data : array-like, shape (n,)
        Raw values (e.g. a model's residuals). Missing values are dropped and
        counted; text, infinite, constant, empty or all-missing data are refused.
    dist, distargs, a, loc, scale, fit
        As in :func:`statsmodels.graphics.gofplots.qqplot`. ``fit=True``
        estimates the distribution's parameters from the raw data (an
        aggregate).
    line : {None, "45", "s", "r", "q"}
        The reference line. "s", "r" and "q" come from statistics of the raw
        data, rounded to the policy's significant figures; the line is drawn
        over the released x range.
    method : str, optional
        Default: the policy's method for Q-Q plots (``"deterministic"``).
    k, q, threshold, factor, metric
        Parameters of the methods.
    bins : int, optional
        Cells per axis of the grid of ``"suppress"``/``"generalize"``.
        Default: chosen by the number of records
        (:func:`~safeplot.plots.grid.default_grid_bins`).
    noise_first : bool, default False
        With ``"probabilistic"``: add the keyed noise to the data and build
        the Q-Q plot from the noisy data (a monotone set of points), instead
        of adding noise to the two-dimensional Q-Q points.
    name : str
        The variable's name (report, keyed noise).
    function : str
        The calling function, for the report.
    n_dropped : int
        Rows the caller already dropped for missing values.
    policy : Policy, optional

    Returns
    -------
    QQRelease

    Examples
    --------
    >>> import numpy as np
    >>> rel = release_qq(np.random.default_rng(0).normal(size=200), line="45")
    >>> rel.kind, rel.report.method, len(rel.x)
    ('points', 'deterministic', 200)
    """
    pol = get_policy(policy)
    method = pol.check_method(method, "qq")
    m = get_method(method)
    line = _check_line(line)
    if not isinstance(noise_first, (bool, np.bool_)):
        raise ValueError(f"noise_first must be True or False, got {noise_first!r}.")
    if bins is not None:
        check_positive_int("bins", bins)
    if noise_first and not m.adds_noise:
        raise ValueError(
            "noise_first=True adds keyed noise to the data before the Q-Q plot is built; it "
            f"applies to method='probabilistic' only, not {method!r}."
        )
    refuse_dask(data, "qqplot")
    data = to_pandas(data, function="qqplot")
    values = data.to_numpy() if isinstance(data, (pd.Series, pd.DataFrame)) else data
    arr = np.asarray(values, dtype=object)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(
            f"A Q-Q plot takes one variable (a 1-D array); got an array of shape {arr.shape}."
        )
    clean = clean_numeric({name: pd.Series(arr)})
    raw = clean.values[:, 0]
    n = raw.size
    n_dropped += clean.n_dropped
    pp = _probplot(raw, dist, distargs, a, loc, scale, fit)
    tq = np.asarray(pp.theoretical_quantiles, dtype=float)
    sq = _sample_quantiles(pp, raw)
    params: dict[str, Any] = {"line": line, "dist": _dist_name(pp.dist)}
    if fit:
        params["fit"] = True
    names = (THEORETICAL, name if name != THEORETICAL else f"{name} (sample)")
    if m.raw:
        report = make_report(function, method, params, names, n, n_dropped, pol)
        return _qq_finish("points", tq, sq, None, line, tq, sq, pp, report, None, None, pol)
    threshold = pol.check_threshold(threshold)
    if n < max(threshold, 3):
        raise DisclosureError(
            f"Only {pol.describe_count(n)} records: a Q-Q plot needs at least "
            f"threshold={threshold} (and 3). Use more data."
        )
    avoid = _union(rare_values(raw, threshold), rare_values(sq, threshold))
    details: dict[str, Any] = {}
    sizes = coincident = None
    if m.counts_only:
        grid = release_grid(
            tq,
            sq,
            names=names,
            method=method,
            threshold=threshold,
            factor=factor,
            bins=bins,
            kind="qq",
            function=function,
            policy=pol,
        )
        total = np.nan_to_num(grid.total)
        ix, iy = np.nonzero(total > 0)
        px, py, sizes = grid.xcentres[ix], grid.ycentres[iy], total[ix, iy]
        kind = "cells"
        params.update(grid.report.params)
        cells_suppressed = grid.report.cells_suppressed
        warnings = list(grid.report.warnings)
    elif m.rule_based:
        wins = winsorize(sq, policy=pol)
        px, py = lowess_trend(tq, sq, it=3, threshold=threshold, policy=pol, avoid_y=avoid)
        kind = "curve"
        params.update({"threshold": threshold, "winsor_sd": wins.sd})
        details.update(
            {"values_winsorised": pol.round_count(wins.n_winsorized), "sig_figs": pol.sig_figs}
        )
        cells_suppressed, warnings = 0, []
    else:
        kind = "points"
        if noise_first:
            noisy = anonymize_values(
                raw, method, names=[name], q=q, threshold=threshold, policy=pol
            )
            px, py = tq, _sample_quantiles(pp, noisy.values[:, 0])
            params.update(noisy.params)
            params["noise_first"] = True
        else:
            out = anonymize_values(
                np.column_stack([tq, sq]),
                method,
                names=list(names),
                k=k,
                q=q,
                metric=metric,
                threshold=threshold,
                policy=pol,
            )
            px, py = out.values[:, 0], out.values[:, 1]
            params.update(out.params)
            details.update(out.details)
            coincident = out.coincident
        cells_suppressed, warnings = 0, []
    report = make_report(
        function,
        method,
        params,
        names,
        n,
        n_dropped,
        pol,
        cells_suppressed=cells_suppressed,
        details=details,
        warnings=warnings,
    )
    return _qq_finish(kind, px, py, sizes, line, tq, sq, pp, report, avoid, coincident, pol)


def _qq_finish(kind, px, py, sizes, line, tq, sq, pp, report, avoid, coincident, pol):
    """Add the reference line and safe axes to released Q-Q points."""
    raw_out = avoid is None
    avoid = np.array([]) if raw_out else avoid
    px, py = np.asarray(px, dtype=float), np.asarray(py, dtype=float)
    xlo, xhi = _span(px)
    ylo, yhi = _span(py)
    line_x = line_y = None
    if not raw_out:
        px = guard.released_values(px, avoid, xhi - xlo)
        py = guard.released_values(py, avoid, yhi - ylo)
    if line == "45":
        lo, hi = min(xlo, ylo), max(xhi, yhi)
        lim, ticks = _axis(lo, hi, avoid)
        line_x = line_y = np.array(lim)
        return QQRelease(
            kind, px, py, sizes, line_x, line_y, line, lim, lim, ticks, ticks, report,
            coincident=coincident,
        )  # fmt: skip
    if line is not None:
        slope, intercept = _line_params(line, tq, sq, pp)
        if not raw_out:
            slope, intercept = (float(v) for v in round_sig([slope, intercept], pol.sig_figs))
            report.details.update({"line_slope": slope, "line_intercept": intercept})
        line_x = safe_points(xlo, xhi, 2, avoid) if not raw_out else np.array([xlo, xhi])
        line_y = intercept + slope * line_x
        if not raw_out:
            line_y = guard.released_values(line_y, avoid, yhi - ylo)
    xlim, xticks = _axis(*_span(px, line_x), avoid)
    ylim, yticks = _axis(*_span(py, line_y), avoid)
    return QQRelease(
        kind, px, py, sizes, line_x, line_y, line, xlim, ylim, xticks, yticks, report,
        coincident=coincident,
    )  # fmt: skip


@takes_method_options
def qqplot(
    data: Any,
    dist: Any = stats.norm,
    distargs: tuple = (),
    a: float = 0,
    loc: float = 0,
    scale: float = 1,
    fit: bool = False,
    line: str | None = None,
    ax: Axes | None = None,
    *,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    noise_first: bool = False,
    metric: str = "euclidean",
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **plotkwargs: Any,
) -> Figure:
    """Q-Q plot of the quantiles of `data` against a distribution's, released safely.

    The call of :func:`statsmodels.graphics.gofplots.qqplot` (same
    parameters, same return value) followed by safeplot's parameters. The
    sample quantiles are the sorted data: as disclosive as the data
    themselves, and for a model's residuals as disclosive as its outcome.

    Parameters
    ----------
    data : array-like
        A 1-D array of values, e.g. ``model.resid`` of a statsmodels fit.
    dist : scipy.stats distribution, default scipy.stats.norm
        Comparison distribution.
    distargs : tuple, optional
        Shape parameters of `dist`.
    a : float, default 0
        Offset of the plotting positions ``(i - a) / (n - 2a + 1)``.
    loc, scale : float
        Location and scale of `dist`.
    fit : bool, default False
        Estimate `dist`'s parameters from the data (an aggregate of the raw
        data) and standardise the sample quantiles, as statsmodels does.
    line : {None, "45", "s", "r", "q"}
        Reference line: the 45-degree line, a standardised line (sample SD
        and mean), a regression of the sample on the theoretical quantiles,
        or the line through the quartiles. Its slope and intercept are
        rounded to the policy's significant figures, and it is drawn over the
        released x range.
    ax : Axes, optional
        Axes to draw on; by default a new figure is created.
    method : str, optional
        Disclosure-control method (default: the policy's for Q-Q plots,
        ``"deterministic"``).
    k : int, optional
        Records per centroid (deterministic) or group (microaggregation).
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (probabilistic).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    threshold : int, optional
        Minimum count of a shown grid cell (default and floor: the policy's).
    factor : int, default 2
        Grid coarsening of ``"generalize"``.
    bins : int, optional
        Cells per axis of the grid of ``"suppress"``/``"generalize"``.
        Default: chosen by the number of records, as the heat map's
        (:func:`~safeplot.plots.grid.default_grid_bins`); ``bins=30`` gives
        the paper's grid.
    noise_first : bool, default False
        ``"probabilistic"`` only: add the noise to the data and build the Q-Q
        plot from the noisy data, instead of adding noise to the Q-Q points.
    metric : {"euclidean", "mahalanobis"}, default "euclidean"
        Neighbour distance of ``"deterministic"``.
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm: groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How ``"rounding"`` forms its intervals; its number of values is
        ``c=`` given as a keyword (default 10).
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    **plotkwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` for the points.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the plot; its Axes carries the report
        (``fig.axes[0].safeplot_report`` when a new figure was made).

    Raises
    ------
    DisclosureError
        A policy floor not met (k, q, threshold, raw output), constant data,
        or too few records.
    ValueError
        Bad input (text, all missing, infinite, not 1-D) or an unknown
        ``line``.

    See Also
    --------
    statsmodels.graphics.gofplots.qqplot : The raw-data original.
    release_qq : The release behind this plot.
    residplot : Residuals against a predictor.

    Notes
    -----
    **Methods**

    ``"deterministic"`` (default)
        The two-dimensional Q-Q points (theoretical quantile, sample
        quantile) are replaced by the centroids of their k nearest neighbours
        (Avraam et al.). The shape and the direction of the tails are kept;
        the most extreme quantiles move towards the centre as k grows (for
        k > 10 the tails all but vanish, as the paper reports).
    ``"probabilistic"``
        Keyed noise with SD ``q`` times each coordinate's SD on the Q-Q
        points; with ``noise_first=True`` the noise is added to the data,
        which are then sorted, so the points stay monotone.
    ``"suppress"`` / ``"generalize"``
        A 30 x 30 (15 x 15) density grid of the Q-Q points; one marker per
        cell with at least ``threshold`` points, sized by its count. The
        sparse tails are usually suppressed.
    ``"confidential"``
        O'Keefe: no individual points; a robust lowess line (3 robustifying
        iterations) through the winsorised Q-Q points, its end points
        rounded.
    ``"microaggregation"`` / ``"rounding"``
        Group means of at least k Q-Q points, or each coordinate rounded to
        ``c`` representative values.
    ``"none"``
        The raw plot, only under a policy that allows raw output.

    References
    ----------
    Avraam D, Wilson R, Butters O, et al. (2021). Privacy preserving data
    visualizations. EPJ Data Science 10:2.

    O'Keefe CM, Good NM (2009). Regression output from a remote analysis
    server. Data & Knowledge Engineering 68:1175-1186.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import statsmodels.formula.api as smf
    >>> import safeplot
    >>> df = safeplot.datasets.simulate("D1", n=200, seed=1)
    >>> model = smf.ols("y ~ x", data=df).fit()
    >>> fig = qqplot(model.resid, line="45", method="deterministic")
    >>> fig.axes[0].safeplot_report.method
    'deterministic'
    >>> plt.close(fig)
    """
    pol = get_policy()
    rel = release_qq(
        data,
        dist=dist,
        distargs=distargs,
        a=a,
        loc=loc,
        scale=scale,
        fit=fit,
        line=line,
        method=method,
        k=k,
        q=q,
        threshold=threshold,
        factor=factor,
        bins=bins,
        noise_first=noise_first,
        metric=metric,
        name=_data_name(data),
        function="qqplot",
        policy=pol,
    )
    guard.admit("qqplot", rel.report, rel)
    if ax is None:
        import matplotlib.pyplot as plt

        fig = plt.figure()
        ax = fig.add_subplot(111)
    else:
        fig = ax.get_figure()
    draw_qq(ax, rel, **plotkwargs)
    finish(ax, rel.report, annotate=annotate, policy=pol)
    return fig


def _data_name(data: Any) -> str:
    name = getattr(data, "name", None)
    return str(name) if name is not None and str(name) != THEORETICAL else SAMPLE


# -- residplot and regplot: shared pieces --------------------------------------------------


@dataclass
class _FitData:
    """Complete rows of a regression call: raw arrays and display names."""

    x: np.ndarray
    y: np.ndarray
    x_partial: np.ndarray | None
    y_partial: np.ndarray | None
    units: np.ndarray | None
    xname: str
    yname: str
    n_dropped: int
    #: every finite value of x and of y, those of rows dropped for a missing value of the
    #: other variable too: a value held only by such rows is rare all the same
    x_all: np.ndarray | None = None
    y_all: np.ndarray | None = None

    def rare(self, x: np.ndarray, y: np.ndarray, threshold: int) -> tuple[np.ndarray, np.ndarray]:
        """Return the rare values a drawn x and y must avoid.

        Those of `x` and `y` as plotted (partialled, or residuals), of the
        complete rows, and of every row that has the value.
        """
        out = []
        for drawn, complete, every in ((x, self.x, self.x_all), (y, self.y, self.y_all)):
            parts = [rare_values(drawn, threshold), rare_values(complete, threshold)]
            if every is not None and every.size > complete.size:
                parts.append(rare_values(every, threshold))
            out.append(_union(*parts))
        return out[0], out[1]


def _regression_data(data, x, y, x_partial, y_partial, units, function: str) -> _FitData:
    """Resolve and validate the variables of a regression plot (clear errors, NaN rows dropped)."""
    if x is None or y is None:
        raise ValueError(f"{function} needs both x= and y= (column names or vectors).")
    roles = {"x": x, "y": y, "x_partial": x_partial, "y_partial": y_partial, "units": units}
    pdata = plot_data(data, roles, function=function)
    numeric = [r for r in ("x", "y", "x_partial", "y_partial") if pdata.has(r)]
    frame = pdata.frame
    cols = {r: f"{pdata.label(r)} ({r})" for r in numeric}
    cols["x"], cols["y"] = pdata.label("x"), pdata.label("y")
    if cols["x"] == cols["y"]:
        cols["y"] = f"{cols['y']} (y)"
    columns = {cols[r]: frame[r] for r in numeric}
    strata = None
    if pdata.has("units"):
        columns["units"] = frame["units"]
        strata = ["units"]
    clean = clean_numeric(columns, [cols[r] for r in numeric], strata=strata)
    vals = {r: clean.values[:, j] for j, r in enumerate(numeric)}
    unit_codes = clean.strata if strata else None
    every = {}
    for r in ("x", "y"):
        column = pd.to_numeric(frame[r], errors="coerce").to_numpy(dtype=float)
        every[r] = column[np.isfinite(column)]
    return _FitData(
        vals["x"],
        vals["y"],
        vals.get("x_partial"),
        vals.get("y_partial"),
        unit_codes,
        pdata.label("x"),
        pdata.label("y"),
        clean.n_dropped,
        every["x"],
        every["y"],
    )


# -- the regression fit (computed here from the data before anything is released) ----------


def _partialled(fd: _FitData) -> tuple[np.ndarray, np.ndarray]:
    """Return x and y with `x_partial` and `y_partial` regressed out, as seaborn does."""
    px = fd.x if fd.x_partial is None else _regress_out(fd.x, fd.x_partial)
    py = fd.y if fd.y_partial is None else _regress_out(fd.y, fd.y_partial)
    return np.asarray(px, dtype=float), np.asarray(py, dtype=float)


def _regress_out(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Regress `b` out of `a`, keeping the mean of `a` (seaborn's ``x_partial``, ``y_partial``)."""
    a_mean = a.mean()
    centred = a - a_mean
    b = np.c_[b - b.mean()]
    return np.asarray(centred - b.dot(np.linalg.pinv(b).dot(centred)) + a_mean).reshape(a.shape)


def _bootstrap(
    *args: np.ndarray,
    func: Callable[..., Any],
    n_boot: int,
    units: np.ndarray | None = None,
    seed: Any = None,
) -> np.ndarray:
    """Return `func` of `n_boot` resamples of the rows of `args` (seaborn's bootstrap).

    Rows are drawn with replacement from a generator made from `seed` as
    seaborn makes it (``numpy.random.default_rng``; a ``RandomState`` is used
    as it is), draw for draw as seaborn draws them, so that a seed gives
    seaborn's band. With `units`, units are resampled and then rows within
    each unit drawn.
    """
    rng = seed if isinstance(seed, np.random.RandomState) else np.random.default_rng(seed)
    integers = rng.randint if isinstance(rng, np.random.RandomState) else rng.integers
    arrays = [np.asarray(a) for a in args]
    out = []
    if units is None:
        n = len(arrays[0])
        for _ in range(int(n_boot)):
            rows = integers(0, n, n, dtype=np.intp)
            out.append(func(*(a.take(rows, axis=0) for a in arrays)))
        return np.array(out)
    units = np.asarray(units)
    labels = np.unique(units)
    parts = [[a[units == label] for label in labels] for a in arrays]
    for _ in range(int(n_boot)):
        picked = integers(0, len(labels), len(labels), dtype=np.intp)
        sample = [[a[i] for i in picked] for a in parts]
        rows = [integers(0, len(part), len(part), dtype=np.intp) for part in sample[0]]
        out.append(
            func(
                *(
                    np.concatenate([c.take(r, axis=0) for c, r in zip(a, rows, strict=True)])
                    for a in sample
                )
            )
        )
    return np.array(out)


def _percentile_interval(values: np.ndarray, which: float, axis: int | None = None) -> np.ndarray:
    """Return the central `which` per cent of `values` (NaN ignored), as seaborn's ``ci``."""
    return np.nanpercentile(values, (50 - which / 2, 50 + which / 2), axis)


def _fit_line(
    x: np.ndarray,
    y: np.ndarray,
    grid: np.ndarray,
    *,
    order: int = 1,
    logistic: bool = False,
    robust: bool = False,
    logx: bool = False,
    ci: float | None = None,
    n_boot: int = 1000,
    units: np.ndarray | None = None,
    seed: Any = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Fit seaborn's regression model of y on x; return it on `grid`, and its band.

    The model is seaborn's: least squares of y on x (or on ``log(x)``), a
    polynomial of degree `order`, a logistic GLM or a robust linear model
    (statsmodels). The band is the central `ci` per cent of the fits to
    `n_boot` bootstrap resamples (:func:`_bootstrap`), at each grid point.

    Returns
    -------
    yhat : ndarray, shape (len(grid),)
    band : ndarray, shape (2, len(grid)), or None without `ci`
    """
    ones = np.ones(len(x))
    design = np.c_[ones, x]
    if order > 1:

        def fit(_x: np.ndarray, _y: np.ndarray) -> np.ndarray:
            return np.polyval(np.polyfit(_x, _y, order), grid)

        data: tuple[np.ndarray, ...] = (x, y)
        at = None
    elif logistic or robust:
        from statsmodels.genmod.families import Binomial
        from statsmodels.genmod.generalized_linear_model import GLM
        from statsmodels.robust.robust_linear_model import RLM
        from statsmodels.tools import sm_exceptions as sme

        model, kws = (GLM, {"family": Binomial()}) if logistic else (RLM, {})
        at_grid = np.c_[np.ones(len(grid)), grid]
        separation = tuple(
            getattr(sme, name)
            for name in ("PerfectSeparationError", "PerfectSeparationWarning")
            if hasattr(sme, name)
        )

        def fit(_x: np.ndarray, _y: np.ndarray) -> np.ndarray:
            try:
                with warnings.catch_warnings():
                    if hasattr(sme, "PerfectSeparationWarning"):
                        warnings.simplefilter("error", sme.PerfectSeparationWarning)
                    return np.asarray(model(_y, _x, **kws).fit().predict(at_grid))
            except separation:  # a resample the model cannot fit draws no line
                return np.full(len(grid), np.nan)

        data, at = (design, y), None
    else:

        def fit(_x: np.ndarray, _y: np.ndarray) -> np.ndarray:
            if logx:
                _x = np.c_[_x[:, 0], np.log(_x[:, 1])]
            return np.linalg.pinv(_x).dot(_y)

        data = (design, y)
        at = np.c_[np.ones(len(grid)), np.log(grid) if logx else grid]
    # resamples of few distinct x values are degenerate: their fits are NaN or rank
    # deficient, and the band ignores NaN, as seaborn's does
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yhat = fit(*data)
        if at is not None:
            yhat = at.dot(yhat)
        if ci is None:
            return np.asarray(yhat, dtype=float), None
        boots = _bootstrap(*data, func=fit, n_boot=n_boot, units=units, seed=seed)
        if at is not None:
            boots = at.dot(boots.T).T
        band = _percentile_interval(boots, ci, axis=0)
    return np.asarray(yhat, dtype=float), np.asarray(band, dtype=float)


def release_fit(
    x: np.ndarray,
    y: np.ndarray,
    xrange: tuple[float, float],
    rare_x: np.ndarray,
    rare_y: np.ndarray,
    *,
    order: int = 1,
    logistic: bool = False,
    robust: bool = False,
    logx: bool = False,
    ci: float | None = 95,
    n_boot: int = 1000,
    units: np.ndarray | None = None,
    seed: Any = None,
    policy: Policy | None = None,
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray] | None]:
    """Release regplot's fitted line and confidence band over a released x range.

    The model (:func:`_fit_line`) is fitted to the records `x`, `y`; it is
    evaluated only on 100 points of `xrange` (released values or safe axis
    limits, never the raw extremes), none on a rare raw value of x, and
    every y of the line and of the band is rounded to the policy's
    significant figures of the range of y and kept off the rare raw values
    of y (:func:`~safeplot.release.guard.released_curve`).

    Parameters
    ----------
    x, y : ndarray
        The records (complete pairs).
    xrange : (float, float)
        Released x range the fit is drawn over.
    rare_x, rare_y : ndarray
        Rare raw values no vertex may equal.
    order, logistic, robust, logx, ci, n_boot, units, seed
        As in :func:`regplot`.
    policy : Policy, optional
        The policy in force (its ``sig_figs``).

    Returns
    -------
    line : (ndarray, ndarray)
        x and y of the fitted line.
    band : (ndarray, ndarray of shape (2, 100)) or None
        x, and the lower and upper ends, of the band (None without `ci`).
    """
    lo, hi = xrange
    if logx:
        if hi <= 0:
            raise ValueError("logx=True needs positive x values.")
        lo = max(lo, hi * 1e-3) if lo <= 0 else lo
    grid = safe_points(lo, hi, 100, rare_x)
    yhat, bands = _fit_line(
        x,
        y,
        grid,
        order=order,
        logistic=logistic,
        robust=robust,
        logx=logx,
        ci=ci,
        n_boot=n_boot,
        units=units,
        seed=seed,
    )
    span = float(np.ptp(y)) or 1.0
    line = (grid, guard.released_curve(yhat, rare_y, span, policy=policy))
    band = (
        None if bands is None else (grid, guard.released_curve(bands, rare_y, span, policy=policy))
    )
    return line, band


def _refuse_per_point_kws(kws: dict | None, what: str) -> None:
    """Refuse per-point sizes or colours: they would attach raw values to each marker."""
    for key in ("s", "c", "color", "facecolor", "facecolors", "edgecolor", "edgecolors"):
        value = (kws or {}).get(key)
        if value is None or isinstance(value, str) or np.ndim(value) == 0:
            continue
        if key != "s" and mpl.colors.is_color_like(value):
            continue
        raise ValueError(
            f"{what}: a per-point `{key}=` in scatter_kws would encode a raw value of each "
            "record and cannot be released. Pass one value."
        )


def _release_range(rel: PointRelease | BoxScatterRelease) -> tuple[float, float]:
    """Return the released x range a fitted line may be drawn over."""
    if isinstance(rel, BoxScatterRelease):
        return float(rel.xlim[0]), float(rel.xlim[1])
    return _span(rel.x)


def _extend_box_limits(
    rel: BoxScatterRelease, ys: list[np.ndarray], avoid_y: np.ndarray
) -> BoxScatterRelease:
    """Widen a confidential release's y axis to hold lines drawn over it."""
    lo, hi = _span(np.array(rel.ylim), *ys)
    if lo < rel.ylim[0] or hi > rel.ylim[1]:
        ylim, yticks = _axis(lo, hi, avoid_y)
        return dataclasses.replace(rel, ylim=ylim, yticks=yticks)
    return rel


# -- residplot -----------------------------------------------------------------------------


def fit_residuals(
    data: Any,
    x: Any,
    y: Any,
    *,
    x_partial: Any = None,
    y_partial: Any = None,
    order: int = 1,
    robust: bool = False,
    function: str = "residplot",
) -> tuple[_FitData, np.ndarray, np.ndarray]:
    """Fit y on x as seaborn's residplot does; return the rows, x and the raw residuals.

    The residuals are raw values (residual plus fitted value is the outcome):
    they go to a release, never to a figure.

    Parameters
    ----------
    data, x, y, x_partial, y_partial, order, robust
        As in :func:`residplot`.
    function : str, default "residplot"
        Name of the calling plot function, for messages.

    Returns
    -------
    fd : _FitData
        The complete rows and the display names.
    px : ndarray
        x (with `x_partial` regressed out).
    resid : ndarray
        The residual of each row.

    Raises
    ------
    ValueError
        Both ``order > 1`` and `robust`, bad input, or a perfect fit.
    """
    if order > 1 and robust:
        raise ValueError("Mutually exclusive regression options: order > 1 and robust=True.")
    fd = _regression_data(data, x, y, x_partial, y_partial, None, function)
    px, py = _partialled(fd)
    yhat, _ = _fit_line(px, py, px, order=order, robust=robust)
    resid = py - yhat
    scale_y = max(float(np.abs(py).max()), float(np.std(py)), 1e-300)
    if not np.isfinite(resid).all() or float(np.abs(resid).max()) <= 1e-9 * scale_y:
        raise ValueError(
            "The model fits y exactly (every residual is zero, or the fit failed): a residual "
            "plot would show nothing but x. Check the model (is y a function of x?)."
        )
    return fd, px, resid


def residual_rare_values(
    fd: _FitData, px: np.ndarray, resid: np.ndarray, threshold: int
) -> tuple[np.ndarray, np.ndarray]:
    """Rare values a residual plot's x and residual axes avoid (those of x and y too)."""
    rare_x, rare_r = fd.rare(px, resid, threshold)
    return rare_x, rare_r


def residual_zero(resid: np.ndarray, rare_r: np.ndarray) -> float:
    """Where a residual plot draws its line at zero: 0, kept off a rare residual."""
    return float(guard.released_values(np.array([0.0]), rare_r, float(np.ptp(resid)))[0])


@takes_method_options
def residplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    x_partial: Any = None,
    y_partial: Any = None,
    lowess: bool = False,
    order: int = 1,
    robust: bool = False,
    dropna: bool = True,
    label: Any = None,
    color: Any = None,
    scatter_kws: dict | None = None,
    line_kws: dict | None = None,
    ax: Axes | None = None,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    metric: str = "euclidean",
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
) -> Axes:
    """Plot the residuals of a regression of y on x, released safely (seaborn's ``residplot``).

    The model (polynomial of degree `order`, or robust) is fitted to the raw
    data, as seaborn does; the points (x, residual) are then released by the
    method. Residuals are treated as raw values: a residual plus its fitted
    value is the outcome.

    Parameters
    ----------
    data : DataFrame, optional
        Long-form data, when `x` and `y` are column names.
    x, y : str or vector
        Predictor and outcome.
    x_partial, y_partial : str or vector, optional
        Confounding variables regressed out of x or y before plotting.
    lowess : bool, default False
        Draw a lowess line through the residuals: O'Keefe's trend of
        :func:`~safeplot.anonymize.confidential.lowess_trend` (winsorised
        data, rounded end points), never the raw lowess ends.
    order : int, default 1
        Order of the polynomial fitted.
    robust : bool, default False
        Fit a robust linear model (statsmodels' RLM), as seaborn does.
    dropna : bool, default True
        Rows with a missing value are always dropped (they cannot be drawn)
        and the rounded count is reported.
    label : str, optional
        Legend label of the points.
    color : colour, optional
    scatter_kws, line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.scatter` and
        :meth:`~matplotlib.axes.Axes.plot` (single values only).
    ax : Axes, optional
    method : str, optional
        Disclosure-control method (default: the policy's for residual plots,
        ``"deterministic"``).
    k, q, threshold, factor, bins, metric
        Parameters of the methods, as in :func:`safeplot.scatterplot`.
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm: groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values of ``"rounding"``.
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How ``"rounding"`` forms its intervals.
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report on ``ax.safeplot_report``.

    Raises
    ------
    DisclosureError
        A policy floor not met, or too few records.
    ValueError
        Bad input, mutually exclusive options, or a perfect fit (every
        residual zero: there is nothing to plot, and the points would show x).

    See Also
    --------
    regplot : The data and the fitted line.
    qqplot : Q-Q plot of residuals.
    seaborn.residplot : The raw-data original.

    Notes
    -----
    **Methods**

    ``"deterministic"`` (default) / ``"probabilistic"``
        The points (x, residual) are replaced by kNN centroids (Avraam et
        al.) or get keyed noise of ``q`` times each variable's SD.
    ``"suppress"`` / ``"generalize"``
        One marker per cell of a 30 x 30 (15 x 15) grid with at least
        ``threshold`` points, sized by its count.
    ``"confidential"``
        O'Keefe's parallel box plots of the residuals over intervals of x,
        winsorised and rounded, with a lowess trend line.
    ``"microaggregation"`` / ``"rounding"``
        Group means of at least k points, or values rounded to ``c``
        representatives.
    ``"none"``
        seaborn's raw plot, only under a policy that allows raw output.

    The horizontal line at zero is drawn across the safe x axis.

    References
    ----------
    Avraam D, et al. (2021). Privacy preserving data visualizations. EPJ Data
    Science 10:2.

    O'Keefe CM, Good NM (2009). Regression output from a remote analysis
    server. Data & Knowledge Engineering 68:1175-1186.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> df = safeplot.datasets.simulate("D1", n=200, seed=1)
    >>> fig, ax = plt.subplots()
    >>> ax = residplot(data=df, x="x", y="y", ax=ax)
    >>> ax.safeplot_report.method, ax.safeplot_report.variables
    ('deterministic', ('x', 'residuals'))
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method(method, "residual")
    m = get_method(method)
    if order > 1 and robust:
        raise ValueError("Mutually exclusive regression options: order > 1 and robust=True.")
    if not m.raw:
        _refuse_per_point_kws(scatter_kws, "residplot")
    fd, px, resid = fit_residuals(
        data, x, y, x_partial=x_partial, y_partial=y_partial, order=order, robust=robust
    )
    rname = "residuals" if fd.xname != "residuals" else "residuals (y)"
    if m.raw:
        import seaborn as sns

        report = make_report(
            "residplot", method, {}, (fd.xname, rname), px.size, fd.n_dropped, pol
        )
        ax = axes_for(ax, report)
        frame = pd.DataFrame({fd.xname: fd.x, fd.yname: fd.y})
        with quiet_seaborn():
            sns.residplot(
                data=frame,
                x=fd.xname,
                y=fd.yname,
                x_partial=fd.x_partial,
                y_partial=fd.y_partial,
                lowess=lowess,
                order=order,
                robust=robust,
                label=label,
                color=color,
                scatter_kws=scatter_kws,
                line_kws=line_kws,
                ax=ax,
            )
        return finish(ax, report, annotate=annotate, policy=pol)
    threshold = pol.check_threshold(threshold)
    rare_x, rare_r = residual_rare_values(fd, px, resid, threshold)
    rel = release_scatter(
        px,
        resid,
        names=(fd.xname, rname),
        method=method,
        k=k,
        q=q,
        threshold=threshold,
        factor=factor,
        bins=bins,
        metric=metric,
        n_dropped=fd.n_dropped,
        function="residplot",
        policy=pol,
    )
    trend = None
    if lowess and not m.rule_based:
        trend = lowess_trend(
            px, resid, threshold=threshold, policy=pol, avoid_x=rare_x, avoid_y=rare_r
        )
    zero = residual_zero(resid, rare_r)
    if lowess:
        rel.report.params["lowess"] = True
    ax = axes_for(ax, rel.report, {"release": rel, "trend": trend, "zero": zero})
    color = default_color(ax, color)
    if isinstance(rel, BoxScatterRelease):
        rel = _extend_box_limits(rel, [np.array([zero])], rare_r)
        draw_zero_line(ax, rel.xlim, zero)
        draw_boxes(ax, rel, colors=[color], legend=False, line_kws=line_style(line_kws, ".2"))
    else:
        extra_x = [] if trend is None else [trend[0]]
        extra_y = [np.array([zero])] + ([] if trend is None else [trend[1]])
        xlim, xticks = _axis(*_span(rel.x, *extra_x), rare_x)
        ylim, yticks = _axis(*_span(rel.y, *extra_y), rare_r)
        draw_zero_line(ax, xlim, zero)
        draw_markers(ax, rel, rel.x, rel.y, marker_style(scatter_kws, color, None, label))
        draw_fit(ax, trend, None, color, line_style(line_kws, color))
        set_safe_axis(ax, "x", xlim, xticks)
        set_safe_axis(ax, "y", ylim, yticks)
    ax.set_xlabel(fd.xname)
    ax.set_ylabel(fd.yname)
    return finish(ax, rel.report, annotate=annotate, policy=pol)


# -- regplot -------------------------------------------------------------------------------


@dataclass
class _Estimates:
    """Point estimates of y per x value or bin, for groups of at least `threshold` records."""

    x: np.ndarray
    y: np.ndarray
    cis: list
    n_groups: int
    suppressed: int


#: Highest polynomial order a fitted curve may have.
MAX_ORDER = 3
#: x with at most this many distinct values is treated as discrete by the order check.
_DISCRETE_X = 20


def _check_order(order: Any, x: np.ndarray, threshold: int) -> None:
    """Refuse a polynomial that could pass through the mean outcome of each x value.

    A polynomial of degree ``g - 1`` through ``g`` x groups interpolates each
    group's mean: with a group of one record, its outcome. The order must be
    at most :data:`MAX_ORDER`, below ``g - 1``, and, for a discrete x (at
    most 20 distinct values), below the number of x values held by at least
    `threshold` records.
    """
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)) or order < 1:
        raise ValueError(f"order must be a positive integer, got {order!r}.")
    if order <= 1:
        return
    if order > MAX_ORDER:
        raise DisclosureError(
            f"regplot: order={order} is above the highest order {MAX_ORDER}: a polynomial "
            "of high degree bends through the outcomes of single records. Use order <= "
            f"{MAX_ORDER}, or lowess=True for a flexible trend."
        )
    _, sizes = np.unique(x, return_counts=True)
    big = int((sizes >= threshold).sum())
    # a curve of degree g - 1 interpolates g x values; with few x values (a discrete x), the
    # order must stay below those held by threshold records, or it bends to the small ones
    if order >= sizes.size - 1 or (sizes.size <= _DISCRETE_X and order >= big):
        raise DisclosureError(
            f"regplot: order={order} needs more than {order} x values held by at least "
            f"threshold={threshold} records each, and these data have {big} (of "
            f"{sizes.size} x values): the curve would pass through each x value's mean "
            "outcome. Use a lower order."
        )


def _release_estimates(
    px: np.ndarray,
    py: np.ndarray,
    units: np.ndarray | None,
    *,
    x_estimator: Any,
    x_bins: Any,
    x_ci: Any,
    n_boot: int,
    seed: Any,
    threshold: int,
    rare_x: np.ndarray,
    rare_y: np.ndarray,
    pol: Policy,
) -> _Estimates:
    """Compute seaborn's ``estimate_data`` on raw groups, groups below `threshold` suppressed."""
    name = "mean" if x_estimator is None else x_estimator
    name = guard.named_estimator(name, ("mean", "median"), function="regplot")
    estimator = np.mean if name == "mean" else np.median
    if x_bins is not None:
        if not np.isscalar(x_bins):
            raise DisclosureError(
                "regplot: x_bins as explicit bin centres is refused: two releases with a "
                "centre moved past one record difference out that record's outcome. Give "
                "the number of bins (x_bins=5), placed at rounded quantiles."
            )
        if np.isscalar(x_bins):
            bins = np.percentile(px, np.linspace(0, 100, int(x_bins) + 2)[1:-1])
            bins = guard.released_statistics(bins, rare_x, sig=pol.sig_figs, policy=pol)
        else:
            bins = np.ravel(np.asarray(x_bins, dtype=float))
        bins = np.unique(bins)
        groups = bins[np.argmin(np.abs(np.subtract.outer(px, bins)), axis=1)]
    else:
        groups = px
    xs, ys, cis = [], [], []
    values, inverse, sizes = np.unique(groups, return_inverse=True, return_counts=True)
    # a mask per group that is shown only: continuous x has a group per record
    kept = np.flatnonzero(sizes >= threshold)
    shown = {f"x group {i + 1}": inverse == i for i in kept}
    # a group's estimate beside another release's of nearly the same records (the bins of
    # the data with and without a record, or a model's) would difference out a record
    guard.link_groups(
        py,
        shown,
        function="regplot",
        advice="Draw the estimates of the same records as before, or use fewer x_bins.",
    )
    for i, sel in zip(kept, shown.values(), strict=True):
        val = values[i]
        _y = py[sel]
        est = float(estimator(_y))
        if x_ci is None:
            ci = None
        elif x_ci == "sd":
            sd = float(np.std(_y))
            ci = (est - sd, est + sd)
        else:
            boots = _bootstrap(
                _y,
                func=estimator,
                n_boot=n_boot,
                units=None if units is None else units[sel],
                seed=seed,
            )
            ci = tuple(float(v) for v in _percentile_interval(boots, x_ci))
        xs.append(float(val))
        ys.append(est)
        cis.append(ci)
    if not xs:
        raise DisclosureError(
            f"Every x value or bin holds fewer than threshold={threshold} records: no estimate "
            "can be shown. Use x_bins=<a few bins> (or fewer bins), or drop x_estimator."
        )
    # the group estimates are statistics of the records: rounded, and off rare outcomes
    ys_arr = guard.released_statistics(np.array(ys, dtype=float), rare_y, policy=pol)
    out_cis = []
    for ci in cis:
        if ci is None:
            out_cis.append(None)
            continue
        lo, hi = guard.released_statistics(ci, rare_y, directions=[-1.0, 1.0], policy=pol)
        out_cis.append((float(lo), float(hi)))
    return _Estimates(
        guard.released_values(np.array(xs), rare_x, float(np.ptp(px)) or 1.0),
        ys_arr,
        out_cis,
        len(xs),
        len(values) - len(xs),
    )


@takes_method_options
def regplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    x_estimator: Any = None,
    x_bins: Any = None,
    x_ci: Any = "ci",
    scatter: bool = True,
    fit_reg: bool = True,
    ci: float | None = 95,
    n_boot: int = 1000,
    units: Any = None,
    seed: Any = None,
    order: int = 1,
    logistic: bool = False,
    lowess: bool = False,
    robust: bool = False,
    logx: bool = False,
    x_partial: Any = None,
    y_partial: Any = None,
    truncate: bool = True,
    dropna: bool = True,
    x_jitter: float | None = None,
    y_jitter: float | None = None,
    label: Any = None,
    color: Any = None,
    marker: Any = "o",
    scatter_kws: dict | None = None,
    line_kws: dict | None = None,
    ax: Axes | None = None,
    method: str | None = None,
    k: int | None = None,
    q: float | None = None,
    threshold: int | None = None,
    factor: int = 2,
    bins: int | None = None,
    metric: str = "euclidean",
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    release: PointRelease | None = None,
) -> Axes:
    """Plot data and a regression model fit, released safely (seaborn's ``regplot``).

    The scatter is released by the method (as :func:`safeplot.scatterplot`
    does). The model is fitted to the raw data, as seaborn does: its line
    and confidence band are aggregates, but they are evaluated only on a grid
    inside the *released* x range (seaborn draws them to the raw minimum and
    maximum, which shows the extremes), or across the Axes' safe x limits
    with ``truncate=False``, with no vertex on a rare raw value
    (:func:`release_fit`).

    Parameters
    ----------
    data : DataFrame, optional
        Long-form data, when `x` and `y` are column names.
    x, y : str or vector
        Predictor and outcome.
    x_estimator : callable, optional
        Draw an estimate of y (e.g. ``np.mean``) per distinct x value instead
        of the points; only values held by at least ``threshold`` records are
        shown (the others are suppressed and counted in the report).
    x_bins : int or vector, optional
        Bin x first (a number of bins placed at rounded percentiles, or the
        bin centres); an estimate is shown per bin of at least ``threshold``
        records, with ``np.mean`` as the default estimator.
    x_ci : "ci", "sd", int or None
        Interval of each estimate, from the raw group (an aggregate), its
        ends rounded outward to the policy's significant figures.
    scatter : bool, default True
        Draw the released points.
    fit_reg : bool, default True
        Draw the fitted model.
    ci : int or None, default 95
        Bootstrap confidence band of the fit.
    n_boot : int, default 1000
    units : str or vector, optional
        Sampling units for a multilevel bootstrap.
    seed : int, Generator or None
        Seed of the bootstrap and of any jitter.
    order : int, default 1
        Polynomial order of the fit.
    logistic : bool, default False
        Logistic regression of a binary y (fitted to the raw data). The
        released points of a 0/1 outcome under ``"deterministic"`` become
        fractions (centroids); that is the price of not showing who is 0 and
        who is 1.
    lowess : bool, default False
        A lowess trend from
        :func:`~safeplot.anonymize.confidential.lowess_trend` (winsorised
        data, rounded end points) under every method.
    robust, logx : bool, default False
        Robust (RLM) or log(x) fit, as in seaborn.
    x_partial, y_partial : str or vector, optional
        Confounders regressed out of x or y before plotting.
    truncate : bool, default True
        Draw the line and band over the released x range only (the released
        points, estimates or boxes); ``False`` extends them to the x limits
        of the Axes, as seaborn does. The limits are released (safe) values,
        so the line then ends on them, not on a data value.
    dropna : bool, default True
        Rows with a missing value are always dropped (and counted).
    x_jitter, y_jitter : float, optional
        Uniform jitter added to the released points (not grid cells).
    label : str, optional
    color : colour, optional
    marker : matplotlib marker, default "o"
    scatter_kws, line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.scatter` and
        :meth:`~matplotlib.axes.Axes.plot` (single values only).
    ax : Axes, optional
    method : str, optional
        Disclosure-control method of the points (default: the policy's for
        scatter plots, ``"deterministic"``).
    k, q, threshold, factor, bins, metric
        Parameters of the methods, as in :func:`safeplot.scatterplot`.
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm: groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values of ``"rounding"``.
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How ``"rounding"`` forms its intervals.
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    release : PointRelease, optional
        The scatter's points, released already (by a figure that releases
        every panel before drawing any: :func:`~safeplot.plots.facets.lmplot`
        puts the cells of every facet and hue level on one grid, linked in
        the release ledger). None: the points of `x` and `y` are released
        here under `method`. The fit is computed here either way.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report on ``ax.safeplot_report``.

    Raises
    ------
    DisclosureError
        A policy floor not met, too few records, no x value/bin with at
        least ``threshold`` records for ``x_estimator``, or estimates of
        groups nested in (or holding) groups released before with fewer than
        ``threshold`` records between them (the data with and without a
        record; see :meth:`safeplot.ledger.Ledger.link_groups`).
    ValueError
        Bad input or mutually exclusive regression options.

    See Also
    --------
    residplot : Residuals of the same fit.
    safeplot.scatterplot : The released points alone.
    seaborn.regplot : The raw-data original.

    Notes
    -----
    **Methods** (of the points; the fit is always from the raw data)

    ``"deterministic"`` (default) / ``"probabilistic"``
        kNN centroids of (x, y) (Avraam et al.), or keyed noise of ``q``
        times each variable's SD.
    ``"suppress"`` / ``"generalize"``
        One marker per cell of a 30 x 30 (15 x 15) grid with at least
        ``threshold`` records, sized by its count.
    ``"confidential"``
        O'Keefe's parallel box plots of y over intervals of x (winsorised,
        rounded), with the fitted line over them.
    ``"microaggregation"`` / ``"rounding"``
        Group means of at least k records, or values rounded to ``c``
        representatives.
    ``"none"``
        seaborn's raw plot, only under a policy that allows raw output.

    References
    ----------
    Avraam D, et al. (2021). Privacy preserving data visualizations. EPJ Data
    Science 10:2.

    O'Keefe CM, Good NM (2009). Regression output from a remote analysis
    server. Data & Knowledge Engineering 68:1175-1186.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = regplot(data=penguins, x="flipper_length_mm", y="body_mass_g", n_boot=200,
    ...              seed=0, ax=ax)
    >>> ax.safeplot_report.method
    'deterministic'
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method(method, "scatter")
    m = get_method(method)
    if sum((order > 1, logistic, robust, lowess, logx)) > 1:
        raise ValueError(
            "Mutually exclusive regression options: use at most one of order > 1, logistic, "
            "robust, lowess and logx."
        )
    if not m.raw:
        _refuse_per_point_kws(scatter_kws, "regplot")
    fd = _regression_data(data, x, y, x_partial, y_partial, units, "regplot")
    if m.raw:
        return _raw_regplot(fd, locals(), pol)
    threshold = pol.check_threshold(threshold)
    px, py = _partialled(fd)
    _check_order(order, px, threshold)
    rare_x, rare_y = fd.rare(px, py, threshold)
    estimates = None
    if x_estimator is not None or x_bins is not None:
        estimates = _release_estimates(
            px,
            py,
            fd.units,
            x_estimator=x_estimator,
            x_bins=x_bins,
            x_ci=ci if x_ci == "ci" else x_ci,
            n_boot=n_boot,
            seed=seed,
            threshold=threshold,
            rare_x=rare_x,
            rare_y=rare_y,
            pol=pol,
        )
        report = make_report(
            "regplot",
            method,
            {"threshold": threshold, "x_estimator": getattr(x_estimator, "__name__", "mean")},
            (fd.xname, fd.yname),
            px.size,
            fd.n_dropped,
            pol,
            cells_suppressed=estimates.suppressed,
            details={"groups_shown": estimates.n_groups},
            warnings=[
                "x_estimator/x_bins: each point is an estimate over a group of at least "
                f"threshold={threshold} records; smaller groups are suppressed."
            ],
        )
        rel = None
        xrange = _span(estimates.x)
    elif release is not None:
        rel = release
        report = copy.deepcopy(rel.report)  # a figure's release may be drawn more than once
        xrange = _release_range(rel)
    else:
        rel = release_scatter(
            px,
            py,
            names=(fd.xname, fd.yname),
            method=method,
            k=k,
            q=q,
            threshold=threshold,
            factor=factor,
            bins=bins,
            metric=metric,
            n_dropped=fd.n_dropped,
            function="regplot",
            policy=pol,
        )
        report = rel.report
        xrange = _release_range(rel)
    # the fit, over the released range (or the x axis' safe limits, truncate=False)
    line = band = None
    xlim = xticks = None
    if fit_reg and px.size > 1:
        if lowess:
            if not isinstance(rel, BoxScatterRelease):
                line = lowess_trend(
                    px, py, threshold=threshold, policy=pol, avoid_x=rare_x, avoid_y=rare_y
                )
        else:
            if not truncate and not isinstance(rel, BoxScatterRelease):
                # seaborn's truncate=False: the fit spans the x axis; the released limits
                # are safe, so the line and band end on them
                xlim, xticks = _axis(*xrange, rare_x)
                xrange = xlim
            elif not truncate:
                xrange = (float(rel.xlim[0]), float(rel.xlim[1]))
            line, band = release_fit(
                px,
                py,
                xrange,
                rare_x,
                rare_y,
                order=order,
                logistic=logistic,
                robust=robust,
                logx=logx,
                ci=ci,
                n_boot=n_boot,
                units=fd.units,
                seed=seed,
                policy=pol,
            )
    fit_params = {"order": order} if order > 1 else {}
    for name, flag in (
        ("logistic", logistic),
        ("lowess", lowess),
        ("robust", robust),
        ("logx", logx),
    ):
        if flag:
            fit_params[name] = True
    report.params.update(fit_params)
    released = {"release": rel, "line": line, "band": band, "estimates": estimates}
    # draw
    ax = axes_for(ax, report, released)
    color = default_color(ax, color)
    skws = marker_style(scatter_kws, color, marker, label if scatter else None)
    lkws = line_style(line_kws, color, None if scatter else label)
    line_ys = [] if line is None else [line[1]] + ([] if band is None else [band[1]])
    line_xs = [] if line is None else [line[0]]
    if isinstance(rel, BoxScatterRelease):
        keep_trend = lowess and fit_reg
        if not keep_trend:
            rel = dataclasses.replace(rel, trends=[(np.array([]), np.array([]))] * len(rel.levels))
        rel = _extend_box_limits(rel, line_ys, rare_y)
        draw_boxes(ax, rel, colors=[color], legend=False, line_kws=lkws if keep_trend else None)
    else:
        if estimates is not None:
            xs_draw, ys_draw = estimates.x, estimates.y
        else:
            xs_draw, ys_draw = rel.x, rel.y
        if truncate or xlim is None:
            xlim, xticks = _axis(*_span(xs_draw, *line_xs), rare_x)
        if estimates is not None:
            ci_y = [np.array(ci_) for ci_ in estimates.cis if ci_ is not None]
        else:
            ci_y = []
        ylim, yticks = _axis(*_span(ys_draw, *line_ys, *ci_y), rare_y)
        if scatter:
            if estimates is not None:
                draw_estimates(
                    ax, estimates.x, estimates.y, estimates.cis, skws, scatter_kws=scatter_kws
                )
            else:
                jx, jy = _jitter(rel, x_jitter, y_jitter, seed, rare_x, rare_y)
                draw_markers(ax, rel, jx, jy, skws)
        set_safe_axis(ax, "x", xlim, xticks)
        set_safe_axis(ax, "y", ylim, yticks)
    draw_fit(ax, line, band, color, lkws)
    if isinstance(rel, BoxScatterRelease):
        set_safe_axis(ax, "x", rel.xlim, rel.xticks)
        set_safe_axis(ax, "y", rel.ylim, rel.yticks)
    ax.set_xlabel(fd.xname)
    ax.set_ylabel(fd.yname)
    return finish(ax, report, annotate=annotate, policy=pol)


def _jitter(rel, x_jitter, y_jitter, seed, rare_x, rare_y):
    """Uniform jitter on released points (grid cells are not moved)."""
    x, y = np.asarray(rel.x, dtype=float), np.asarray(rel.y, dtype=float)
    if rel.sizes is not None or (x_jitter is None and y_jitter is None):
        return x, y
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if x_jitter is not None:
        x = guard.released_values(
            x + rng.uniform(-x_jitter, x_jitter, x.size), rare_x, float(np.ptp(x))
        )
    if y_jitter is not None:
        y = guard.released_values(
            y + rng.uniform(-y_jitter, y_jitter, y.size), rare_y, float(np.ptp(y))
        )
    return x, y


def _raw_regplot(fd: _FitData, args: dict[str, Any], pol: Policy) -> Axes:
    """Draw seaborn's own regplot on the complete rows (raw output, policy permitting)."""
    import seaborn as sns

    names = (fd.xname, fd.yname)
    report = make_report("regplot", args["method"], {}, names, fd.x.size, fd.n_dropped, pol)
    ax = axes_for(args["ax"], report)
    frame = pd.DataFrame({fd.xname: fd.x, fd.yname: fd.y})
    keys = [
        "x_estimator",
        "x_bins",
        "x_ci",
        "scatter",
        "fit_reg",
        "ci",
        "n_boot",
        "seed",
        "order",
        "logistic",
        "lowess",
        "robust",
        "logx",
        "truncate",
        "x_jitter",
        "y_jitter",
        "label",
        "color",
        "marker",
        "scatter_kws",
        "line_kws",
    ]
    with quiet_seaborn():
        sns.regplot(
            data=frame,
            x=fd.xname,
            y=fd.yname,
            units=fd.units,
            x_partial=fd.x_partial,
            y_partial=fd.y_partial,
            ax=ax,
            **{key: args[key] for key in keys},
        )
    return finish(ax, report, annotate=args["annotate"], policy=pol)
