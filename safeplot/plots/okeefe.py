"""O'Keefe's confidentialised P-P plot and principal-components biplot.

Two more exploratory outputs of O'Keefe (2013), next to the parallel box
plots and correspondence plots of :mod:`safeplot.plots.confidential`:

- :func:`ppplot` (statsmodels' ``ProbPlot.ppplot``): the P-P plot of a
  variable against a distribution (or against a second sample) is replaced
  by "a robust nonparametric regression line" through the P-P points of the
  *winsorised* data (section 2.2), with no individual point: a lowess line
  with robustifying iterations, evaluated on a fixed grid of theoretical
  probabilities and rounded;
- :func:`biplot`: a principal-components biplot (Gabriel 1971; Greenacre
  2010; O'Keefe section 3.2.2) of the winsorised variables, drawn as the
  variables' arrows (rounded loadings) and, with ``hue``, the rounded mean
  scores of groups of at least ``threshold`` records. No record's score is
  drawn: a cloud of scores is a rotated scatter plot of the data, which
  O'Keefe does not release.

Only the released numbers are drawn.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
.. [2] Gabriel KR. "The biplot graphic display of matrices with application
   to principal component analysis." Biometrika 58 (1971).
.. [3] Greenacre M. *Biplots in Practice*. BBVA Foundation (2010).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from scipy import stats

from .._validate import clean_numeric, refuse_dask, to_pandas
from ..anonymize.grids import hits_any, rare_values, safe_ticks
from ..anonymize.statistics import round_sig, winsorize
from ..errors import DisclosureError
from ..marks._style import level_colors as _level_colors
from ..methods import available_methods, check_family
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._common import (
    axes_for,
    axis_from_range,
    finish,
    get_ax,
    make_report,
    safe_limits,
    set_safe_axis,
)
from ._data import categorical_order

__all__ = [
    "BIPLOT_METHODS",
    "PP_GRID",
    "PP_LINES",
    "PP_METHODS",
    "PP_POSITIONS",
    "BiplotRelease",
    "PPRelease",
    "biplot",
    "draw_pp",
    "ppplot",
    "release_biplot",
    "release_pp",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) of the P-P plot and the
#: biplot: O'Keefe's rules, or the raw figure.
_OKEEFE_FAMILIES = ("rules", "raw")
#: Methods of :func:`ppplot`.
PP_METHODS = tuple(m.name for m in available_methods() if m.family in _OKEEFE_FAMILIES)
#: Reference lines of :func:`ppplot`: none, or the 45-degree line.
PP_LINES = (None, "45")
#: Theoretical probabilities the confidential P-P curve is released at (fixed: not the data's).
PP_GRID = np.round(np.arange(1, 100) / 100, 2)
#: Plotting-position offsets ``a`` a confidential P-P plot takes: Weibull's 0, Tukey's 1/3,
#: Blom's 3/8, Cunnane's 0.4, Gringorten's 0.44, Hazen's 1/2 and 1. A free choice would be a
#: probe: the points' range ``(1 - a) / (n - 2a + 1)`` steps past a grid point at an ``a``
#: that gives the exact number of records.
PP_POSITIONS = (0.0, 1 / 3, 0.375, 0.4, 0.44, 0.5, 1.0)
#: Robustifying iterations of the lowess line (statsmodels' ``it``) and its span.
PP_LOWESS_IT = 3
PP_LOWESS_FRAC = 2 / 3
#: Smallest expected count of a cell of the P-P plot's goodness-of-fit chi-square (Cochran).
PP_CHI2_MIN_EXPECTED = 5.0
#: Methods of :func:`biplot`.
BIPLOT_METHODS = tuple(m.name for m in available_methods() if m.family in _OKEEFE_FAMILIES)
#: Fewest complete records behind a biplot (Brandt et al.'s rule for correlations).
BIPLOT_MIN_RECORDS = 10
#: gid of the variable arrows and labels of a biplot.
BIPLOT_ARROW_GID = "safeplot-biplot-arrow"


def _one_variable(data: Any, function: str, name: str) -> tuple[np.ndarray, int]:
    """Return a 1-D numeric sample and the count of missing values dropped; refuse bad input."""
    refuse_dask(data, function)
    data = to_pandas(data, function=function)
    if isinstance(data, pd.DataFrame) and data.shape[1] != 1:
        raise ValueError(
            f"{function} takes one variable: a Series, a 1-D array or a frame of one column; "
            f"got a DataFrame with {data.shape[1]} columns."
        )
    values = data.to_numpy() if isinstance(data, (pd.Series, pd.DataFrame)) else data
    arr = np.asarray(values, dtype=object)
    if arr.ndim == 2 and 1 in arr.shape:
        arr = arr.ravel()
    if arr.ndim != 1:
        raise ValueError(
            f"{function} takes one variable (a 1-D array); got an array of shape {arr.shape}."
        )
    clean = clean_numeric({name: pd.Series(arr)})
    return clean.values[:, 0], int(clean.n_dropped)


def _data_name(data: Any, default: str) -> str:
    name = getattr(data, "name", None)
    return str(name) if name is not None else default


# -- P-P plot ------------------------------------------------------------------------------


@release_kind("pp")
@dataclass
class PPRelease:
    """A released P-P plot: a curve (confidential) or the raw points (``"none"``).

    Attributes
    ----------
    kind : {"curve", "points"}
    x, y : ndarray
        Theoretical (or second-sample) probabilities and sample
        probabilities; for a curve, `x` is part of :data:`PP_GRID` and `y`
        is rounded.
    line : {None, "45"}
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    xlabel, ylabel : str
    report : DisclosureReport
    """

    kind: str
    x: np.ndarray
    y: np.ndarray
    line: str | None
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    xlabel: str
    ylabel: str
    report: DisclosureReport


def _frozen(dist: Any, distargs: tuple, loc: float, scale: float, fit: bool, sample: np.ndarray):
    """Return the distribution to compare with, frozen, and the parameters fitted (if `fit`)."""
    if hasattr(dist, "dist") and hasattr(dist, "cdf"):  # already frozen
        if fit:
            raise ValueError("fit=True needs an unfrozen distribution (e.g. scipy.stats.norm).")
        return dist, ()
    if not hasattr(dist, "cdf"):
        raise ValueError(
            f"dist must be a scipy.stats distribution with a cdf (e.g. scipy.stats.norm), "
            f"got {dist!r}."
        )
    discrete = isinstance(dist, stats.rv_discrete)
    if fit:
        if discrete:
            raise ValueError(
                "fit=True estimates the parameters of a continuous distribution; scipy's "
                "discrete distributions have no fit. Give them as distargs (for example the "
                "mean released by safeplot.describe for a Poisson distribution)."
            )
        params = tuple(float(p) for p in dist.fit(sample))
        return dist(*params), params
    if discrete:
        if scale != 1:
            raise ValueError("A discrete distribution has no scale: leave scale=1.")
        return dist(*distargs, loc=loc), ()
    return dist(*distargs, loc=loc, scale=scale), ()


def _pp_chi2(
    raw: np.ndarray, frozen: Any, threshold: int, avoid: np.ndarray, sig: int, pol: Policy
) -> dict[str, Any]:
    """Pearson's goodness-of-fit chi-square of `raw` against a discrete `frozen`, rounded.

    Cells are the distribution's support values, merged from the lower end
    until each holds at least `threshold` records (the data decide the
    cells, on the fixed grid of the support, so no choice of the
    distribution's parameters can isolate a small count), then merged
    further until each expects at least :data:`PP_CHI2_MIN_EXPECTED`
    records. The first and last cells are open-ended (the distribution's
    tails). Returns the report entries.
    """
    if not isinstance(getattr(frozen, "dist", None), stats.rv_discrete):
        return {
            "chi2_note": "not computed: Pearson's chi-square is released for a discrete "
            "distribution, whose support gives the cells; cells chosen for a continuous one "
            "could be moved to locate records"
        }
    values, counts = np.unique(raw, return_counts=True)
    if not (np.asarray(frozen.pmf(values)) > 0).all():
        return {"chi2_note": "not computed: some values are outside the distribution's support"}
    # a cell closes at the support value where its records reach the threshold; a short
    # last cell joins the one before
    ends, held = [], 0
    for i, count in enumerate(counts):
        held += count
        if held >= threshold:
            ends.append(i)
            held = 0
    ends[-1] = counts.size - 1
    cut = np.asarray(ends)
    observed = np.add.reduceat(counts, np.r_[0, cut[:-1] + 1]).astype(float)
    cdf = np.asarray(frozen.cdf(values[cut[:-1]]), dtype=float)
    expected = raw.size * np.diff(np.r_[0.0, cdf, 1.0])
    # merge further, whole cells with their smaller neighbour, until every cell expects enough
    while expected.size > 1 and expected.min() < PP_CHI2_MIN_EXPECTED:
        i = int(np.argmin(expected))
        if i == 0 or (i + 1 < expected.size and expected[i + 1] < expected[i - 1]):
            i += 1  # merge cells i - 1 and i
        observed = np.r_[observed[: i - 1], observed[i - 1] + observed[i], observed[i + 1 :]]
        expected = np.r_[expected[: i - 1], expected[i - 1] + expected[i], expected[i + 1 :]]
    dof = expected.size - 1
    if dof < 1:
        return {
            "chi2_note": "not computed: fewer than two cells hold enough records and expect "
            f"at least {PP_CHI2_MIN_EXPECTED:g}"
        }
    statistic = float(((observed - expected) ** 2 / expected).sum())
    pvalue = float(stats.chi2.sf(statistic, dof))
    shown = guard.released_statistics([statistic, pvalue], avoid, sig=sig, policy=pol)
    return {"chi2": float(shown[0]), "chi2_pvalue": float(shown[1]), "chi2_dof": int(dof)}


def _check_line(line: Any) -> str | None:
    if line is None or (isinstance(line, str) and line == "45"):
        return line
    if isinstance(line, str) and line in ("s", "r", "q"):
        raise ValueError(
            f"ppplot: line={line!r} fits a line to the sample quantiles, which a P-P plot does "
            "not show; its reference is the 45-degree line (line='45'). For a Q-Q plot with "
            "that line use safeplot.qqplot."
        )
    raise ValueError(f"ppplot: line must be None or '45', got {line!r}.")


def _pp_curve(px: np.ndarray, py: np.ndarray, avoid: np.ndarray, sig: int, pol: Policy) -> tuple:
    """Lowess of `py` on `px` at every grid point; rounded, monotone, safe.

    The whole grid, whatever the points' range: grid points beyond the first
    or last point (fewer than 99 records) take the lowess line's end fits,
    clipped to [0, 1]. Cutting the grid at the points' range would show the
    number of records.
    """
    from statsmodels.nonparametric.smoothers_lowess import lowess

    grid = PP_GRID
    fit = lowess(py, px, frac=PP_LOWESS_FRAC, it=PP_LOWESS_IT, delta=0.0, xvals=grid)
    ys = np.maximum.accumulate(np.clip(np.asarray(fit, dtype=float), 0.0, 1.0))
    # a height on a rare value moves towards the middle, so it stays in [0, 1]
    directions = np.where(np.asarray(round_sig(ys, sig)) < 0.5, 1.0, -1.0)
    ys = guard.released_statistics(ys, avoid, sig=sig, directions=directions, policy=pol)
    ys = np.maximum.accumulate(np.clip(ys, 0.0, 1.0))  # copies of values already checked
    return grid, ys


def release_pp(
    data: Any,
    dist: Any = stats.norm,
    distargs: tuple = (),
    a: float = 0,
    loc: float = 0,
    scale: float = 1,
    fit: bool = False,
    other: Any = None,
    line: str | None = None,
    *,
    method: str | None = "confidential",
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    xlabel: str | None = None,
    ylabel: str | None = None,
    name: str = "Sample",
    function: str = "ppplot",
    policy: Policy | None = None,
) -> PPRelease:
    """Release a P-P plot of `data` (numbers only); see :func:`ppplot`.

    Parameters
    ----------
    data, dist, distargs, a, loc, scale, fit, other, line, method, threshold, winsor_sd, sig
        As in :func:`ppplot`.
    xlabel, ylabel : str, optional
        Axis labels (default statsmodels').
    name : str
        The variable's name, for the report.
    function : str
        The calling function, for the report.
    policy : Policy, optional

    Returns
    -------
    PPRelease

    Examples
    --------
    >>> import numpy as np
    >>> rel = release_pp(np.random.default_rng(0).normal(3, 2, 300), fit=True)
    >>> rel.kind, float(rel.x[0]), bool(np.all(np.diff(rel.y) >= 0))
    ('curve', 0.01, True)
    """
    pol = get_policy(policy)
    method = pol.check_method("confidential" if method is None else method)
    m = check_family(method, _OKEEFE_FAMILIES, "P-P plots")
    line = _check_line(line)
    if not isinstance(fit, (bool, np.bool_)):
        raise ValueError(f"fit must be True or False, got {fit!r}.")
    try:
        a = float(a)
    except (TypeError, ValueError):
        raise ValueError(f"a must be a number in [0, 1], got {a!r}.") from None
    if not 0 <= a <= 1:
        raise ValueError(f"a must be a number in [0, 1], got {a!r}.")
    if not m.raw and not np.isclose(a, PP_POSITIONS, rtol=0, atol=1e-12).any():
        raise ValueError(
            f"{function}: a={a!r} is not one of the plotting positions a confidential P-P "
            "plot takes: 0 (Weibull), 1/3 (Tukey), 0.375 (Blom), 0.4 (Cunnane), 0.44 "
            "(Gringorten), 0.5 (Hazen) or 1. A free choice of a could be stepped to find "
            "the exact number of records."
        )
    raw, n_dropped = _one_variable(data, function, name)
    raw_other = None
    if other is not None:
        raw_other, dropped_other = _one_variable(other, function, "other")
        n_dropped += dropped_other
    n = raw.size
    if other is None:
        labels = ("Theoretical Probabilities", "Sample Probabilities")
    else:
        labels = ("Probabilities of 2nd Sample", "Probabilities of 1st Sample")
    labels = (
        labels[0] if xlabel is None else str(xlabel),
        labels[1] if ylabel is None else str(ylabel),
    )
    params: dict[str, Any] = {"line": line}
    if other is None:
        params["dist"] = getattr(getattr(dist, "dist", dist), "name", str(dist))
    if m.raw:
        sample = np.sort(raw)
        px = (np.arange(1, n + 1) - a) / (n - 2 * a + 1)
        if raw_other is None:
            frozen, _ = _frozen(dist, tuple(distargs), loc, scale, fit, sample)
            py = frozen.cdf(sample)
        else:
            py = np.searchsorted(np.sort(raw_other), sample, side="right") / raw_other.size
        report = make_report(function, method, params, labels, n, n_dropped, pol)
        ticks = np.linspace(0, 1, 6)
        return PPRelease(
            "points", px, py, line, (0.0, 1.0), (0.0, 1.0), ticks, ticks, *labels, report
        )
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    need = max(threshold, 3, math.ceil(threshold / PP_LOWESS_FRAC))
    for what, values in (("data", raw), ("other", raw_other)):
        if values is not None and values.size < need:
            raise DisclosureError(
                f"{function}: only {pol.describe_count(values.size)} records in {what}: a "
                f"confidential P-P curve needs at least {need} (each local fit of the lowess "
                f"line rests on two thirds of them, at least threshold={threshold})."
            )
    avoid = rare_values(raw, threshold)
    w = winsorize(raw, winsor_sd, policy=pol)
    sample = np.sort(w.values)
    n_wins = w.n_winsorized
    px = (np.arange(1, n + 1) - a) / (n - 2 * a + 1)
    details: dict[str, Any] = {}
    if raw_other is None:
        frozen, fitted = _frozen(dist, tuple(distargs), loc, scale, fit, sample)
        py = np.asarray(frozen.cdf(sample), dtype=float)
        if fit:
            shown = _round_safe(np.asarray(fitted, dtype=float), avoid, sig, pol)
            details["fitted_params"] = [float(v) for v in shown]
            params["fit"] = True
        details.update(_pp_chi2(raw, frozen, threshold, avoid, sig, pol))
    else:
        avoid = np.union1d(avoid, rare_values(raw_other, threshold))
        wo = winsorize(raw_other, winsor_sd, policy=pol)
        n_wins += wo.n_winsorized
        py = np.searchsorted(np.sort(wo.values), sample, side="right") / wo.values.size
    if not np.isfinite(py).all():
        raise ValueError(f"{function}: the distribution's cdf is not finite at the data.")
    gx, gy = _pp_curve(px, py, avoid, sig, pol)
    lo, hi = safe_limits(0.0, 1.0, avoid, margin=0.0)
    ticks = safe_ticks(0.0, 1.0)
    params.update({"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig})
    details.update(
        {
            "values_winsorised": pol.round_count(n_wins),
            "curve": "lowess through the winsorised P-P points (3 robustifying iterations), "
            "rounded, on a fixed grid of probabilities",
        }
    )
    report = make_report(function, method, params, labels, n, n_dropped, pol, details=details)
    return PPRelease("curve", gx, gy, line, (lo, hi), (lo, hi), ticks, ticks, *labels, report)


def ppplot(
    data: Any,
    dist: Any = stats.norm,
    distargs: tuple = (),
    a: float = 0,
    loc: float = 0,
    scale: float = 1,
    fit: bool = False,
    xlabel: str | None = None,
    ylabel: str | None = None,
    line: str | None = None,
    other: Any = None,
    ax: Axes | None = None,
    *,
    method: str | None = "confidential",
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    annotate: bool | None = None,
    **plotkwargs: Any,
) -> Figure:
    """P-P plot of `data` against a distribution (or a second sample), confidentialised.

    statsmodels' ``ProbPlot(data, dist, fit, distargs, a, loc, scale).ppplot(
    xlabel, ylabel, line, other, ax)`` in one call. Under O'Keefe's rules no
    point is drawn: the P-P points of the winsorised data are summarised by
    a robust lowess line, released as rounded values on a fixed grid.

    Parameters
    ----------
    data : array-like
        A 1-D array of values (missing values are dropped and counted).
    dist : scipy.stats distribution, default scipy.stats.norm
        The distribution to compare with (continuous or discrete, frozen or
        not).
    distargs : tuple, optional
        Shape parameters of `dist` (e.g. ``(mu,)`` for scipy.stats.poisson).
    a : float, default 0
        Offset of the plotting positions ``(i - a) / (n - 2a + 1)``. Under
        ``"confidential"`` one of :data:`PP_POSITIONS` (0, 1/3, 0.375, 0.4,
        0.44, 0.5, 1): a free offset could be stepped to find the exact
        number of records.
    loc, scale : float
        Location and scale of `dist` (a discrete one has no scale).
    fit : bool, default False
        Estimate the parameters of a continuous `dist` from the winsorised
        data (their rounded values are in the report).
    xlabel, ylabel : str, optional
        Axis labels (default statsmodels': "Theoretical Probabilities" and
        "Sample Probabilities").
    line : {None, "45"}
        Draw the 45-degree reference line.
    other : array-like, optional
        A second sample: its empirical cdf at the (winsorised) sorted
        `data` is plotted against the plotting positions, as statsmodels
        does.
    ax : Axes, optional
        Axes to draw on; by default a new figure is created.
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` draws the raw P-P points, only if the policy allows raw
        output.
    threshold : int, optional
        Defines the rare values no drawn number may equal, and the fewest
        records (default and floor: the policy's threshold).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures of the curve (default and ceiling: the policy's).
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **plotkwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the curve (or the
        points).

    Returns
    -------
    matplotlib.figure.Figure
        The figure; its Axes carries the report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Bad input (text, all missing, infinite, constant, not 1-D), an
        unknown `line` or method, ``fit=True`` with a discrete distribution.
    DisclosureError
        Too few records, a setting looser than the policy, or ``"none"``
        when the policy forbids raw output.

    See Also
    --------
    statsmodels.graphics.gofplots.ProbPlot.ppplot : The raw-data original.
    safeplot.qqplot : The Q-Q plot, with the same confidential curve.
    release_pp : The release behind this plot.

    Notes
    -----
    Methods: ``"confidential"`` follows O'Keefe (2013), section 2.2: the data are
    winsorised at mean -/+ `winsor_sd` SD; the P-P points (plotting
    position, cdf of the winsorised value) are built as statsmodels
    builds them; a lowess line with 3 robustifying iterations and a span
    of two thirds of the records ("a robust nonparametric regression
    line") is fitted through them and evaluated at the fixed
    probabilities 0.01, 0.02, ..., 0.99 that lie inside the plotting
    positions, clipped to [0, 1], rounded to `sig` significant figures,
    kept non-decreasing, and moved one unit in the last figure where it
    would equal a rare raw value. The grid does not depend on the data or
    on the analyst's choices, and each point of the curve rests on at
    least two thirds of the records. The limits are [0, 1], as in
    statsmodels. ``"none"``: the raw points.

    Against a discrete distribution the report also carries Pearson's
    goodness-of-fit chi-square, as O'Keefe releases it beside a P-P plot
    (section 3.1.3): ``chi2`` and ``chi2_pvalue`` rounded to `sig`
    significant figures, and ``chi2_dof``. Its cells are the
    distribution's support values, pooled from the lower end until each
    holds at least `threshold` records (a short last cell joins the one
    before; the first and last cells take the distribution's tails), then
    pooled further until each expects at least 5 records. The data pool
    the cells on the support's fixed grid, so no choice of the
    distribution's parameters can isolate a small count. Against a
    continuous distribution, or with a second sample, no chi-square is
    released (``chi2_note`` says why): cells cut from a continuous
    distribution move with its parameters and could be stepped across
    single records.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig = ppplot(tips["total_bill"], fit=True, line="45")
    >>> report = fig.axes[0].safeplot_report
    >>> report.method, report.details["fitted_params"]
    ('confidential', [19.7, 8.54])
    >>> plt.close(fig)

    A discrete variable against a Poisson distribution, with the rounded
    chi-square:

    >>> from scipy import stats
    >>> fig = ppplot(tips["size"], stats.poisson, distargs=(2.57,))
    >>> details = fig.axes[0].safeplot_report.details
    >>> details["chi2"], details["chi2_dof"]  # party sizes are far from Poisson
    (221.0, 5)
    >>> plt.close(fig)
    """
    pol = get_policy()
    rel = release_pp(
        data,
        dist,
        distargs,
        a,
        loc,
        scale,
        fit,
        other,
        line,
        method=method,
        threshold=threshold,
        winsor_sd=winsor_sd,
        sig=sig,
        xlabel=xlabel,
        ylabel=ylabel,
        name=_data_name(data, "Sample"),
        policy=pol,
    )
    guard.admit(rel.report.function, rel.report, rel)
    if ax is None:
        fig, ax = plt.subplots()
    else:
        ax = get_ax(ax)
        fig = ax.figure
    draw_pp(ax, rel, **plotkwargs)
    finish(ax, rel.report, annotate=annotate, policy=pol)
    return fig


def draw_pp(ax: Axes, release: PPRelease, **plotkwargs: Any) -> Axes:
    """Draw a released P-P plot (curve or points, the 45-degree line, safe axes).

    Parameters
    ----------
    ax : Axes
    release : PPRelease
    **plotkwargs
        Passed to :meth:`~matplotlib.axes.Axes.plot`.

    Returns
    -------
    Axes
    """
    if release.kind == "points":
        style = {
            "marker": "o",
            "linestyle": "none",
            "markerfacecolor": "C0",
            "markeredgecolor": "C0",
        }
    else:
        style = {"color": "C0", "linewidth": 2.0}
    style.update(plotkwargs)
    ax.plot(release.x, release.y, **style)
    if release.line == "45":
        ax.plot(release.xlim, release.ylim, "r-")
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    set_safe_axis(ax, "y", release.ylim, release.yticks)
    ax.set_xlabel(release.xlabel)
    ax.set_ylabel(release.ylabel)
    return ax


# -- biplot --------------------------------------------------------------------------------


@release_kind("biplot")
@dataclass
class BiplotRelease:
    """A released principal-components biplot.

    Attributes
    ----------
    variables : list of str
        The variables, one arrow each.
    arrows : ndarray, shape (p, 2)
        Arrow tips on the two components: correlations of each variable
        with the components (``scale=True``), or covariances with the
        standardised components; rounded (confidential).
    shares : ndarray, shape (2,)
        Percent of the total variance of the two components (rounded).
    components : tuple of int
        The components drawn (1-based).
    levels : list
        Hue levels with a centroid (``[]`` without hue).
    centroids : ndarray, shape (levels, 2)
        Mean standardised score of each level (rounded; levels of fewer
        than ``threshold`` records are left out and not named).
    points : ndarray, shape (n, 2), optional
        Every record's standardised scores (``method="none"`` only).
    point_levels : ndarray of int, optional
        Hue level of each record (``method="none"`` with hue).
    avoid : ndarray
        The rare raw values no drawn number may equal.
    lim : tuple of float
        Limits of both axes (equal aspect).
    ticks : ndarray
    scale : bool
    report : DisclosureReport
    """

    variables: list[str]
    arrows: np.ndarray
    shares: np.ndarray
    components: tuple[int, int]
    levels: list
    centroids: np.ndarray
    lim: tuple[float, float]
    ticks: np.ndarray
    scale: bool
    report: DisclosureReport
    points: np.ndarray | None = None
    point_levels: np.ndarray | None = field(default=None, repr=False)
    avoid: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)


def _check_components(components: Any, p: int) -> tuple[int, int]:
    try:
        c = tuple(int(v) for v in components)
        ok = len(c) == 2 and all(not isinstance(v, bool) for v in components)
    except (TypeError, ValueError):
        ok = False
    if not ok or c[0] == c[1] or min(c) < 1 or max(c) > p:
        raise ValueError(
            f"components must be two different component numbers from 1 to {p} (the number of "
            f"variables), e.g. (1, 2); got {components!r}."
        )
    return c  # type: ignore[return-value]


def release_biplot(
    data: Any,
    *,
    vars: Sequence[str] | None = None,
    hue: str | None = None,
    hue_order: Sequence[Any] | None = None,
    components: tuple[int, int] = (1, 2),
    scale: bool = True,
    method: str | None = "confidential",
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    function: str = "biplot",
    policy: Policy | None = None,
) -> BiplotRelease:
    """Release a principal-components biplot (numbers only); see :func:`biplot`.

    Returns
    -------
    BiplotRelease

    Examples
    --------
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> rel = release_biplot(penguins, hue="species")
    >>> rel.variables
    ['bill_length_mm', 'bill_depth_mm', 'flipper_length_mm', 'body_mass_g']
    >>> [float(v) for v in rel.shares], rel.levels
    ([69.0, 19.0], ['Adelie', 'Chinstrap', 'Gentoo'])
    """
    pol = get_policy(policy)
    method = pol.check_method("confidential" if method is None else method)
    m = check_family(method, _OKEEFE_FAMILIES, "biplots")
    if not isinstance(scale, (bool, np.bool_)):
        raise ValueError(f"scale must be True or False, got {scale!r}.")
    refuse_dask(data, function)
    frame = to_pandas(data, function=function)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{function} takes a DataFrame of records, got {type(frame).__name__}.")
    if hue is not None and hue not in frame.columns:
        raise ValueError(f"{function}: hue={hue!r} is not a column of the data.")
    if vars is None:
        names = [
            c
            for c in frame.columns
            if c != hue
            and pd.api.types.is_numeric_dtype(frame[c].dtype)
            and not pd.api.types.is_bool_dtype(frame[c].dtype)
        ]
    else:
        if isinstance(vars, str):
            raise ValueError(f"{function}: vars must be a list of column names, got {vars!r}.")
        names = list(vars)
        unknown = [v for v in names if v not in frame.columns]
        if unknown:
            raise ValueError(f"{function}: {unknown} are not columns of the data.")
    if len(names) < 2 or len(set(names)) != len(names):
        raise ValueError(
            f"{function} needs two or more different numeric variables; got {names}. "
            "Pass vars=[...]."
        )
    comps = _check_components(components, len(names))

    cols = [*names, hue] if hue is not None else names
    sub = frame[cols]
    missing = sub.isna().any(axis=1).to_numpy()
    if len(sub) and missing.all():
        raise ValueError(
            f"{function}: no complete records: every row has a missing value in "
            f"{[str(c) for c in cols]}. Choose other variables, or fill in the missing values."
        )
    sub = sub[~missing]
    clean = clean_numeric(sub[names].reset_index(drop=True))
    x = clean.values
    n = x.shape[0]
    n_dropped = int(missing.sum()) + int(clean.n_dropped)
    labels = [str(v) for v in names]
    if not m.raw:
        threshold = pol.check_threshold(threshold)
        winsor_sd = pol.check_winsor_sd(winsor_sd)
        sig = pol.check_sig_figs(sig)
        need = max(BIPLOT_MIN_RECORDS, threshold)
        if n < need:
            raise DisclosureError(
                f"{function}: only {pol.describe_count(n)} complete records; a biplot rests on "
                f"the correlations of the variables, which need at least {need} (Brandt et al.)."
            )
        wins = [winsorize(x[:, j], winsor_sd, policy=pol) for j in range(x.shape[1])]
        values = np.column_stack([w.values for w in wins])
        n_wins = sum(w.n_winsorized for w in wins)
    else:
        values, n_wins = x, 0
    centred = values - values.mean(axis=0)
    sd = centred.std(axis=0, ddof=1)
    if not (sd > 0).all():
        flat = [labels[j] for j in np.flatnonzero(~(sd > 0))]
        raise ValueError(f"{function}: {flat} are constant (after winsorising); leave them out.")
    z = centred / sd if scale else centred
    u, s, vt = np.linalg.svd(z, full_matrices=False)
    # deterministic signs: the largest loading of each component is positive
    signs = np.sign(vt[np.arange(vt.shape[0]), np.argmax(np.abs(vt), axis=1)])
    signs[signs == 0] = 1.0
    u, vt = u * signs, vt * signs[:, None]
    eig = s**2 / (n - 1)
    idx = [c - 1 for c in comps]
    arrows = vt[idx].T * np.sqrt(eig[idx])  # p x 2
    scores = u[:, idx] * math.sqrt(n - 1)  # unit-variance scores
    shares = 100 * eig[idx] / eig.sum()
    levels: list = []
    centroids = np.zeros((0, 2))
    point_levels = None
    warnings: list[str] = []
    if hue is not None:
        hue_values = sub[hue].reset_index(drop=True)
        order = categorical_order(hue_values, hue_order)
        lookup = {lev: i for i, lev in enumerate(order)}
        codes = np.array([lookup.get(v, -1) for v in hue_values], dtype=int)
        point_levels = codes
        sizes = np.bincount(codes[codes >= 0], minlength=len(order))
        keep = [i for i, size in enumerate(sizes) if size > 0 and (m.raw or size >= threshold)]
        omitted = 0 if m.raw else sum(1 for size in sizes if 0 < size < (threshold or 1))
        if omitted:
            warnings.append(
                f"{omitted} {hue} level(s) with fewer than threshold records have no centroid "
                "and are not named."
            )
        levels = [order[i] for i in keep]
        centroids = np.array([scores[codes == i].mean(axis=0) for i in keep]).reshape(-1, 2)
    if m.raw:
        shown_shares = shares
        points = scores
        avoid = np.array([])
        params: dict[str, Any] = {"scale": bool(scale), "components": list(comps)}
        details: dict[str, Any] = {}
    else:
        points = None
        avoid = np.unique(
            np.concatenate([rare_values(x[:, j], threshold) for j in range(x.shape[1])])
        )
        arrows = _round_safe(arrows, avoid, sig, pol)
        centroids = _round_safe(centroids, avoid, sig, pol)
        shown_shares = guard.released_statistics(
            shares, avoid, sig=min(sig, 2), directions=[1.0, -1.0], policy=pol
        )
        params = {
            "threshold": threshold,
            "winsor_sd": winsor_sd,
            "sig": sig,
            "scale": bool(scale),
            "components": list(comps),
        }
        details = {
            "values_winsorised": pol.round_count(n_wins),
            "variance_percent": [float(v) for v in shown_shares],
            "arrows": "correlations of the variables with the components"
            if scale
            else "covariances of the variables with the standardised components",
            "points": "no record's score is drawn; hue levels as rounded mean scores",
        }
    extent = [np.abs(arrows).max(initial=0.0), 1.0 if scale else 0.0]
    if centroids.size:
        extent.append(np.abs(centroids).max())
    if points is not None:
        extent.append(np.abs(points).max())
    reach = 1.3 * max(extent)  # room for the labels at the arrow tips
    lim, ticks = axis_from_range(-reach, reach, avoid)
    report = make_report(
        function,
        method,
        params,
        tuple(labels),
        n,
        n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return BiplotRelease(
        labels,
        arrows,
        np.asarray(shown_shares, dtype=float),
        comps,
        levels,
        centroids,
        lim,
        ticks,
        bool(scale),
        report,
        points,
        point_levels,
        avoid,
    )


def _round_safe(values: np.ndarray, avoid: np.ndarray, sig: int, pol: Policy) -> np.ndarray:
    """Round to `sig` figures; a value equal to a rare raw value moves one unit away from 0."""
    if values.size == 0:
        return values
    directions = np.where(values < 0, -1.0, 1.0)
    return guard.released_statistics(values, avoid, sig=sig, directions=directions, policy=pol)


def biplot(
    data: Any,
    *,
    vars: Sequence[str] | None = None,
    hue: str | None = None,
    hue_order: Sequence[Any] | None = None,
    components: tuple[int, int] = (1, 2),
    scale: bool = True,
    palette: Any = None,
    color: Any = "0.25",
    s: float = 60,
    fontsize: Any = "small",
    legend: bool = True,
    ax: Axes | None = None,
    method: str | None = "confidential",
    threshold: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a principal-components biplot of numeric variables, confidentialised.

    Each variable is an arrow from the origin to its loadings on two
    principal components (Gabriel's biplot); with `hue`, each group is a
    point at its mean score. Under O'Keefe's rules the variables are
    winsorised first, every drawn number is rounded, and no record's score
    is drawn.

    Parameters
    ----------
    data : DataFrame
        The records (pandas, or a polars or pyarrow table).
    vars : list of str, optional
        The numeric variables (default: every numeric column but `hue`).
    hue : str, optional
        A categorical column: one point per level, at the mean score of its
        records (levels with fewer than ``threshold`` records left out).
    hue_order : list, optional
        Order of the hue levels (records of other levels are left out of
        the centroids, not of the analysis).
    components : tuple of int, default (1, 2)
        The two principal components drawn (1-based).
    scale : bool, default True
        Standardise the variables (a PCA of the correlation matrix, as R's
        ``prcomp(scale. = TRUE)``): the arrows are then the correlations of
        the variables with the components, inside the unit circle, which is
        drawn. ``False``: a PCA of the covariance matrix.
    palette : palette name, list or dict, optional
        Colours of the hue levels.
    color : color, default "0.25"
        Colour of the arrows and their labels.
    s : float, default 60
        Marker area of the hue points.
    fontsize : size, default "small"
        Size of the variable labels.
    legend : bool, default True
        Name the hue levels in a legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` draws every record's scores (unrounded), only if the
        policy allows raw output.
    threshold : int, optional
        Fewest records per hue point, and the rare values no number may
        equal (default and floor: the policy's threshold).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures of the arrows and points (default and ceiling:
        the policy's).
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.scatter` for the hue points.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Fewer than two numeric variables, unknown columns, constant
        variables, bad `components`, an unknown method.
    DisclosureError
        Fewer than ``max(10, threshold)`` complete records, a setting looser
        than the policy, ``method="none"`` when the policy forbids raw
        output.

    See Also
    --------
    release_biplot : The release behind this plot.
    safeplot.corr : The rounded correlations the biplot summarises.
    safeplot.correspondenceplot : The same idea for categorical variables.

    Notes
    -----
    Methods: ``"confidential"``: rows with a missing value are dropped
    (counted, rounded, in the report); fewer than ``max(10, threshold)``
    complete records are refused (a PCA summarises the correlations,
    which Brandt et al. release from ten records). Each variable is
    winsorised at mean -/+ `winsor_sd` SD (O'Keefe 2013, section 2.2),
    centred and, with ``scale=True``, standardised; the principal
    components come from its singular value decomposition, each with
    its largest loading positive. An arrow tip is the variable's loading
    times the component's SD (a correlation with ``scale=True``), rounded
    to `sig` significant figures; a hue point is the mean of the
    unit-variance scores of a level with at least ``threshold`` records,
    rounded. A rounded number equal to a rare raw value is moved one
    unit in its last figure away from zero. The axis labels give each
    component's share of the variance rounded to two figures. O'Keefe
    releases no individual score, as she releases no scatter plot: with
    two variables the scores are the data rotated. ``"none"``: every
    record's scores and unrounded arrows.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).
    .. [2] Gabriel KR. "The biplot graphic display of matrices with application
       to principal component analysis." Biometrika 58 (1971).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = biplot(penguins, hue="species", ax=ax)
    >>> ax.safeplot_report.details["variance_percent"]
    [69.0, 19.0]
    >>> plt.close(fig)
    """
    pol = get_policy()
    if hue is not None and not isinstance(hue, str):
        raise ValueError(f"biplot: hue must be a column name, got {type(hue).__name__}.")
    rel = release_biplot(
        data,
        vars=vars,
        hue=hue,
        hue_order=hue_order,
        components=components,
        scale=scale,
        method=method,
        threshold=threshold,
        winsor_sd=winsor_sd,
        sig=sig,
        policy=pol,
    )
    ax = axes_for(ax, rel.report, rel)
    if rel.scale:
        ax.add_patch(Circle((0, 0), 1.0, fill=False, edgecolor="0.8", linewidth=0.8, zorder=0))
    if not hits_any([0.0], rel.avoid):  # the origin lines, drawn over the safe limits
        ax.plot(rel.lim, [0.0, 0.0], color="0.88", linewidth=0.8, zorder=0)
        ax.plot([0.0, 0.0], rel.lim, color="0.88", linewidth=0.8, zorder=0)
    if rel.points is not None:
        ax.scatter(rel.points[:, 0], rel.points[:, 1], s=8, color="0.6", alpha=0.5, linewidths=0)
    for name, (tx, ty), nudge in zip(
        rel.variables, rel.arrows, _label_nudges(rel.arrows), strict=True
    ):
        ax.annotate(
            "",
            xy=(tx, ty),
            xytext=(0.0, 0.0),
            arrowprops={
                "arrowstyle": "-|>",
                "color": color,
                "linewidth": 1.2,
                "shrinkA": 0,
                "shrinkB": 0,
            },
            gid=BIPLOT_ARROW_GID,
        )
        norm = math.hypot(tx, ty) or 1.0
        ux, uy = tx / norm, ty / norm
        if abs(ux) > abs(uy):
            # a mostly horizontal arrow: the label above (below) its tip, centred on it
            # (labels of near-parallel arrows stacked, in the order of the arrows)
            if nudge:
                offset = (0.0, float(np.sign(ux)) * (nudge + np.sign(nudge) * 4))
                align = {"ha": "center", "va": "center"}
            else:
                up = 1.0 if uy >= 0 else -1.0
                offset = (0.0, up * 4)
                align = {"ha": "center", "va": "bottom" if up > 0 else "top"}
        else:
            offset = (6 * ux - nudge * uy, 6 * uy + nudge * ux)
            align = {"ha": "left" if ux >= 0 else "right", "va": "bottom" if uy >= 0 else "top"}
        ax.annotate(
            name,
            xy=(tx, ty),
            xytext=offset,
            textcoords="offset points",
            **align,
            fontsize=fontsize,
            color=color,
            gid=BIPLOT_ARROW_GID,
        )
    if rel.levels:
        colors = _level_colors(list(rel.levels), palette)
        for level, (cx, cy), col in zip(rel.levels, rel.centroids, colors, strict=True):
            ax.scatter(
                [cx],
                [cy],
                s=s,
                color=col,
                label=str(level),
                edgecolors="white",
                zorder=3,
                **kwargs,
            )
        if legend:
            ax.legend(title=hue, fontsize="small", loc="best")
    set_safe_axis(ax, "x", rel.lim, rel.ticks)
    set_safe_axis(ax, "y", rel.lim, rel.ticks)
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel(f"PC{rel.components[0]} ({rel.shares[0]:.3g}% of variance)")
    ax.set_ylabel(f"PC{rel.components[1]} ({rel.shares[1]:.3g}% of variance)")
    return finish(ax, rel.report, annotate=annotate, policy=pol)


def _label_nudges(arrows: np.ndarray, close: float = 12.0, step: float = 10.0) -> np.ndarray:
    """Return offsets (points, across each arrow) that keep labels of near-parallel arrows apart.

    Arrows whose directions differ by less than `close` degrees form a run;
    their labels are spread across the arrows by `step` points each.
    """
    angles = np.degrees(np.arctan2(arrows[:, 1], arrows[:, 0])) if arrows.size else np.array([])
    nudges = np.zeros(angles.size)
    order = np.argsort(angles)
    run: list[int] = []
    for i in [*order.tolist(), None]:
        if i is not None and run and angles[i] - angles[run[-1]] < close:
            run.append(i)
            continue
        if len(run) > 1:
            nudges[run] = step * (np.arange(len(run)) - (len(run) - 1) / 2)
        run = [] if i is None else [i]
    return nudges
