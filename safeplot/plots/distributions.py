"""Histogram releases and their drawing.

:func:`release_histogram` turns one raw variable into a
:class:`~safeplot.release.HistogramRelease` under a method; :func:`draw_histogram`
draws a release and nothing else. The seaborn-compatible ``histplot`` builds
on these two.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize import anonymize_values
from ..anonymize.grids import histogram_counts, rare_values, safe_edges, safe_ticks
from ..anonymize.suppression import coarsen_counts, coarsen_edges, suppress
from ..policy import Policy, get_policy
from ..release import HistogramRelease
from ._common import attach_release, check_positive_int, make_report, not_available, set_safe_axis

__all__ = ["HIST_METHODS", "draw_histogram", "release_histogram"]

#: Methods a histogram release supports.
HIST_METHODS = ("suppress", "generalize", "deterministic", "probabilistic", "confidential", "none")


def release_histogram(
    values: np.ndarray,
    *,
    name: str = "x",
    method: str | None = None,
    bins: int | str = "auto",
    threshold: int | None = None,
    factor: int = 2,
    k: int = 3,
    q: float = 0.25,
    n_dropped: int = 0,
    function: str = "histplot",
    policy: Policy | None = None,
) -> HistogramRelease:
    """Release the histogram of one variable under a disclosure-control method.

    Parameters
    ----------
    values : array-like, shape (n,)
        Raw values. Missing values are dropped and counted in the report;
        text, infinite, empty, all-missing or constant data are refused.
    name : str
        The variable's name, for the report and the keyed noise.
    method : str, optional
        ``"suppress"`` (default from the policy), ``"generalize"``,
        ``"deterministic"``, ``"probabilistic"``, ``"confidential"`` or ``"none"``.
    bins : int or str, default "auto"
        Number of bins or a numpy rule; the edges lie on a safe rounded grid.
    threshold : int, optional
        Minimum count of a shown bin (default and floor: the policy's).
    factor : int, default 2
        Bin-width multiplier of ``"generalize"``.
    k, q : int, float
        Parameters of ``"deterministic"`` and ``"probabilistic"``.
    n_dropped : int
        Rows the caller dropped for missing values (reported, rounded).
    function : str
        Name of the calling plot function, for the report.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).

    Returns
    -------
    HistogramRelease
        Edges, counts with suppressed bins as NaN, limits, ticks and report.
        Every count shown is 0 or at least ``threshold`` whatever the method:
        value-level methods are binned and then suppressed as well.

    Examples
    --------
    >>> import numpy as np
    >>> rel = release_histogram(np.random.default_rng(0).normal(size=200), bins=10)
    >>> bool(np.all(np.isnan(rel.counts) | (rel.counts == 0) | (rel.counts >= 3)))
    True
    """
    pol = get_policy() if policy is None else policy
    method = pol.check_method(method, "hist")
    threshold = pol.check_threshold(threshold)
    clean = clean_numeric({name: values})
    raw = clean.values[:, 0]
    n_dropped += clean.n_dropped
    params: dict = {"threshold": threshold}
    details: dict = {}
    if method == "none":
        edges = np.histogram_bin_edges(raw, bins=bins)
        counts = histogram_counts(raw, edges).astype(float)
        report = make_report(function, method, {}, (name,), raw.size, n_dropped, pol)
        ticks = safe_ticks(edges[0], edges[-1])
        return HistogramRelease(edges, counts, (edges[0], edges[-1]), ticks, report)
    if method not in HIST_METHODS:
        raise not_available(method, "histograms", HIST_METHODS)
    rare = rare_values(raw, threshold)
    if method in ("suppress", "generalize"):
        released = raw
    else:
        out = anonymize_values(raw, method, names=[name], k=k, q=q, policy=pol)
        released = out.values[:, 0]
        params.update(out.params)
        details.update(out.details)
    edges = safe_edges(released, bins, avoid=rare)
    counts = histogram_counts(released, edges)
    if method == "generalize":
        factor = check_positive_int("factor", factor)
        params["factor"] = factor
        counts, edges = coarsen_counts(counts, factor), coarsen_edges(edges, factor)
    shown = suppress(counts, threshold)
    warnings = []
    if not np.nan_to_num(shown.counts).any():
        warnings.append(
            "Every bin is below the threshold: nothing can be shown. Use fewer bins or "
            "method='generalize'."
        )
    report = make_report(
        function,
        method,
        params,
        (name,),
        raw.size,
        n_dropped,
        pol,
        cells_suppressed=shown.n_suppressed,
        details=details,
        warnings=warnings,
    )
    ticks = safe_ticks(edges[0], edges[-1], avoid=rare)
    return HistogramRelease(edges, shown.counts, (edges[0], edges[-1]), ticks, report)


def draw_histogram(ax: Axes, release: HistogramRelease, *, color=None, label=None) -> Axes:
    """Draw a released histogram: bars for shown bins, gaps for suppressed ones.

    Only the release's numbers reach matplotlib: bar edges and heights, the
    release's axis limits and tick positions.
    """
    shown = ~np.isnan(release.counts) & (release.counts > 0)
    left = release.edges[:-1][shown]
    width = np.diff(release.edges)[shown]
    ax.bar(
        left,
        release.counts[shown],
        width=width,
        align="edge",
        color=color,
        edgecolor="white",
        linewidth=0.5,
        label=label,
    )
    set_safe_axis(ax, "x", release.xlim, release.xticks)
    ax.set_xlabel(release.report.variables[0] if release.report.variables else "")
    ax.set_ylabel("Count")
    attach_release(ax, release.report)
    return ax
