"""Scatter releases and their drawing.

:func:`release_scatter` turns two raw variables into a
:class:`~safeplot.release.PointRelease`: anonymised points (deterministic,
probabilistic) or the centres of the surviving cells of a density grid
(suppress, generalize), sized by their counts. :func:`draw_scatter` draws a
release and nothing else. The seaborn-compatible ``scatterplot`` builds on them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize import anonymize_values
from ..anonymize.grids import rare_values
from ..policy import Policy, get_policy
from ..release import PointRelease
from ._common import (
    attach_release,
    axis_from_range,
    finite_range,
    make_report,
    not_available,
    set_safe_axis,
)
from .grid import GRID_BINS, release_grid

__all__ = ["SCATTER_METHODS", "draw_scatter", "release_scatter"]

#: Methods a scatter release supports.
SCATTER_METHODS = ("deterministic", "probabilistic", "suppress", "generalize", "none")


def release_scatter(
    x: np.ndarray,
    y: np.ndarray,
    *,
    names: tuple[str, str] = ("x", "y"),
    method: str | None = None,
    k: int = 3,
    q: float = 0.25,
    threshold: int | None = None,
    factor: int = 2,
    bins: int = GRID_BINS,
    metric: str = "euclidean",
    n_dropped: int = 0,
    function: str = "scatterplot",
    policy: Policy | None = None,
) -> PointRelease:
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
        ``"suppress"``, ``"generalize"`` or ``"none"``.
    k : int, default 3
        Records per centroid (deterministic).
    q : float, default 0.25
        Noise SD as a fraction of each variable's SD (probabilistic).
    threshold : int, optional
        Minimum count of a shown grid cell (default and floor: the policy's).
    factor : int, default 2
        Grid coarsening of ``"generalize"`` (30 x 30 -> 15 x 15).
    bins : int, default 30
        Cells per axis of the density grid (suppress, generalize).
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
    PointRelease

    Examples
    --------
    >>> import numpy as np
    >>> x, y = np.random.default_rng(0).normal(size=(2, 300))
    >>> rel = release_scatter(x, y, method="suppress")
    >>> bool((rel.sizes >= 3).all())
    True
    """
    pol = get_policy() if policy is None else policy
    method = pol.check_method(method, "scatter")
    if names[0] == names[1]:
        raise ValueError(f"x and y need different names, got {names[0]!r} twice.")
    clean = clean_numeric({names[0]: x, names[1]: y})
    raw = clean.values
    n_dropped += clean.n_dropped
    if method == "none":
        report = make_report(function, method, {}, names, raw.shape[0], n_dropped, pol)
        return _point_release(raw, report, [np.array([]), np.array([])])
    if method not in SCATTER_METHODS:
        raise not_available(method, "scatter plots", SCATTER_METHODS)
    threshold = pol.check_threshold(threshold)
    rare = [rare_values(raw[:, j], threshold) for j in range(2)]
    if method in ("suppress", "generalize"):
        return _grid_release(raw, method, names, threshold, factor, bins, n_dropped, function, pol)
    out = anonymize_values(raw, method, names=list(names), k=k, q=q, metric=metric, policy=pol)
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
    total = np.nan_to_num(grid.total)
    ix, iy = np.nonzero(total > 0)
    return PointRelease(
        grid.xcentres[ix],
        grid.ycentres[iy],
        grid.xlim,
        grid.ylim,
        grid.xticks,
        grid.yticks,
        grid.report,
        sizes=total[ix, iy],
    )


def draw_scatter(
    ax: Axes, release: PointRelease, *, color=None, mark_coincident: bool = False, s: float = 12
) -> Axes:
    """Draw a released scatter: points, or grid-cell centres with area proportional to count.

    Parameters
    ----------
    ax : Axes
    release : PointRelease
    color : color, optional
    mark_coincident : bool, default False
        Draw points whose released value is shared with other records in
        black, as Avraam et al. do for coinciding centroids.
    s : float, default 12
        Marker area for unweighted points (the median area for weighted ones).
    """
    if release.sizes is not None:
        if release.sizes.size:
            area = s * release.sizes / np.median(release.sizes)
            ax.scatter(release.x, release.y, s=area, color=color, alpha=0.7, linewidths=0)
    else:
        ax.scatter(release.x, release.y, s=s, color=color, alpha=0.6, linewidths=0)
        if mark_coincident and release.coincident is not None and release.coincident.any():
            c = release.coincident
            ax.scatter(release.x[c], release.y[c], s=s, color="black", linewidths=0)
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    set_safe_axis(ax, "y", release.ylim, release.yticks)
    ax.set_xlabel(release.report.variables[0])
    ax.set_ylabel(release.report.variables[1])
    attach_release(ax, release.report)
    return ax
