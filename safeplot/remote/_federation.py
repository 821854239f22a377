"""Several servers pooled (DataSHIELD's model): each site releases, the analyst's side adds.

Pooled counts
    Every site releases its own histogram, suppressed by its own policy, on
    the regular grid its release function lays (same bin width and origin at
    every site with the same policy). The pooled count of a bin is the sum of
    the sites' counts when *every* site shows that bin, and suppressed when
    any site suppressed it or left it out (a site's grid may end before a
    small bin at the edge of its data, so a bin outside it is unknown, not
    empty). A shown site count is 0 or at
    least the threshold, so a pooled count is too, and it is computed only
    from counts already released: no site's small count can be worked out
    from it. Where every site shows a bin, the pooled count is the count of
    the whole; a bin that the whole would show but a site had to suppress
    (a small count there) is suppressed in the pooled histogram as well.

Pooled logistic regression
    The usual federated Newton (IRLS) iterations: at the current coefficients
    each site releases its information matrix ``X'WX``, score ``X'(y - p)``
    and deviance (:func:`safeplot.remote._calls.glm_step`); the analyst's
    side adds them and steps, until the step is below 1e-10. The estimate is
    the maximum-likelihood fit of all the sites' records together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import DisclosureError
from ..release import DisclosureReport, HistogramRelease, guard

__all__ = [
    "FederatedFit",
    "FederatedFrame",
    "FederatedSession",
    "count_bounds",
    "pool_histograms",
    "pooled_quantiles",
    "quantile_bounds",
]

#: Newton iterations of the federated fit, at most.
MAX_ITER = 50


class FederatedSession:
    """Sessions on several servers, used together (``safeplot.connect([url_a, url_b], ...)``)."""

    def __init__(self, sessions: Sequence[Any]) -> None:
        if len(sessions) < 2:
            raise ValueError("Pooling needs at least two servers.")
        self.sessions = list(sessions)

    def __repr__(self) -> str:
        return f"FederatedSession({[s.url for s in self.sessions]})"

    def close(self) -> None:
        """Close every connection."""
        for s in self.sessions:
            s.close()

    def __enter__(self) -> FederatedSession:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def dataset(self, name: str) -> FederatedFrame:
        """Return a handle on the data set `name` at every site."""
        return FederatedFrame([s.dataset(name) for s in self.sessions])


class FederatedFrame:
    """The same data set at several sites: column names only, no values.

    ``histplot(data=...)`` and ``safe_logit(...)`` pool it; other functions
    take one site's :class:`~safeplot.remote.RemoteFrame` (``frame.sites[i]``).
    """

    def __init__(self, sites: Sequence[Any]) -> None:
        self.sites = list(sites)
        common = [c for c in self.sites[0].columns if all(c in s.columns for s in self.sites)]
        self.columns = pd.Index(common)
        self.name = self.sites[0].name

    def __repr__(self) -> str:
        return f"FederatedFrame({self.name!r} at {len(self.sites)} sites)"

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("_"):
            raise AttributeError(attr)
        raise DisclosureError(
            f"{attr} of a pooled data set: the values stay at the sites. Pass it as data= to "
            "histplot or safe_logit."
        )


def pool_histograms(
    per_site: Sequence[Sequence[HistogramRelease]], threshold: int
) -> list[HistogramRelease]:
    """Add the sites' released histograms on their common grid, under the pooling rule.

    Parameters
    ----------
    per_site : sequence of sequences of HistogramRelease
        Each site's releases (one per hue level, the same levels in the same
        order at every site).
    threshold : int
        The largest of the sites' thresholds.

    Returns
    -------
    list of HistogramRelease
        The pooled histograms: a bin's count is the sum when every site shows
        the bin, else NaN (suppressed).

    Raises
    ------
    ValueError
        If the sites' grids differ in bin width or are not aligned.

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.release import DisclosureReport
    >>> r = lambda e, c: HistogramRelease(np.array(e), np.array(c), (e[0], e[-1]),
    ...                                   np.array(e), DisclosureReport("histplot", "suppress"))
    >>> a, b = r([0.0, 1.0, 2.0], [5.0, np.nan]), r([1.0, 2.0, 3.0], [4.0, 6.0])
    >>> pool_histograms([[a], [b]], 3)[0].counts
    array([nan, nan, nan])
    >>> c = r([0.0, 1.0, 2.0, 3.0], [0.0, 4.0, 6.0])
    >>> pool_histograms([[c], [b]], 3)[0].counts
    array([nan,  8., 12.])
    """
    levels = [[r.level for r in site] for site in per_site]
    if any(lv != levels[0] for lv in levels):
        raise ValueError(
            f"The sites released different hue levels ({levels}); pool without hue, or with "
            "hue_order= naming levels every site holds."
        )
    firsts = [site[0] for site in per_site]
    edges, offsets = _common_grid(firsts)
    m = len(edges) - 1
    pooled = []
    for j, level in enumerate(levels[0]):
        total = np.zeros(m)
        hidden = np.zeros(m, dtype=bool)
        for site, off in zip(per_site, offsets, strict=True):
            counts = np.asarray(site[j].counts, dtype=float)
            # outside its released grid a site may have cut small edge bins: unknown there
            known = np.zeros(m, dtype=bool)
            known[off : off + len(counts)] = ~np.isnan(counts)
            hidden |= ~known
            total[off : off + len(counts)] += np.nan_to_num(counts)
        total[hidden] = np.nan
        total = guard.released_counts(total, threshold, what="pooled bin")
        report = DisclosureReport(
            "histplot",
            "suppress",
            {"threshold": threshold, "sites": len(per_site)},
            firsts[0].report.variables,
            cells_suppressed=int(hidden.sum()),
        )
        pooled.append(
            HistogramRelease(
                edges, total, (float(edges[0]), float(edges[-1])), _ticks(edges), report, level
            )
        )
    return pooled


def _common_grid(releases: Sequence[HistogramRelease]) -> tuple[np.ndarray, list[int]]:
    """Return the edges of the grid covering every site's bins, and where each site's grid starts.

    Raises
    ------
    ValueError
        If the sites' grids differ in bin width or are not aligned.
    """
    widths = np.concatenate([np.diff(r.edges) for r in releases])
    width = float(widths[0])
    if not np.allclose(widths, width, rtol=1e-9, atol=0):
        raise ValueError("The sites' histograms have different bin widths: give binwidth=.")
    lo = min(float(r.edges[0]) for r in releases)
    hi = max(float(r.edges[-1]) for r in releases)
    m = round((hi - lo) / width)
    offsets = []
    for r in releases:
        off = (float(r.edges[0]) - lo) / width
        if abs(off - round(off)) > 1e-6:
            raise ValueError("The sites' bin grids are not aligned: give binrange= and binwidth=.")
        offsets.append(round(off))
    # the edges as released by the sites (no new arithmetic on them where a site has one)
    edges = np.full(m + 1, np.nan)
    for r, off in zip(releases, offsets, strict=True):
        edges[off : off + len(r.edges)] = r.edges
    missing = np.isnan(edges)
    edges[missing] = lo + width * np.flatnonzero(missing)
    return edges, offsets


def count_bounds(n: int | str, base: int, threshold: int) -> tuple[int, int]:
    """Return the fewest and most records a rounded count `n` can stand for.

    The inverse of :meth:`safeplot.policy.Policy.round_count`: ``0`` is 0,
    ``"<t"`` is 1 to ``t - 1``, the smallest rounded count (``base``) is
    ``threshold`` up to ``1.5 base``, and any other is ``n - base/2`` up to
    ``n + base/2`` (half-way counts round up).

    Examples
    --------
    >>> count_bounds(500, 5, 3), count_bounds("<3", 5, 3), count_bounds(5, 5, 3)
    ((498, 502), (1, 2), (3, 7))
    """
    if isinstance(n, str):
        return 1, int(str(n).lstrip("<")) - 1
    n = int(n)
    if n == 0:
        return 0, 0
    hi = math.ceil(n + base / 2) - 1
    lo = threshold if n <= base else math.ceil(n - base / 2)
    return lo, hi


def quantile_bounds(
    per_site: Sequence[HistogramRelease],
    n_bounds: Sequence[tuple[int, int]],
    q: Sequence[float],
) -> pd.DataFrame:
    """Bound the pooled quantiles of several sites' records by their released histograms alone.

    Every site's records are its shown bin counts plus records the analyst
    cannot place: those of its suppressed bins, those outside its grid, and
    the rounding of its record count (at most ``n_max - shown`` of them).
    The pooled distribution function at a bin edge ``t`` is largest when
    every such record, and every record of a bin reaching past ``t``, lies
    below ``t`` and as many hidden records as possible exist, and smallest
    when they all lie above; the quantile lies above the last edge where the
    largest function is still below ``q``, and at or below the first edge
    where the smallest one reaches it. Both bounds are edges of the released
    grids, so they hold for *any* way the hidden records may lie, and nothing
    is read but the releases.

    Parameters
    ----------
    per_site : sequence of HistogramRelease
        One released histogram (no hue) per site. The grids need not align:
        each site's counts are read on its own bins.
    n_bounds : sequence of (int, int)
        The fewest and most records each site's histogram describes
        (:func:`count_bounds` of its rounded ``n``).
    q : sequence of float
        Probabilities, each in (0, 1).

    Returns
    -------
    DataFrame
        Indexed by `q`: ``low`` and ``high`` (grid edges; -inf/inf when the
        hidden records could lie beyond the grids) and ``estimate``, the
        quantile of the shown counts alone, interpolated linearly within its
        bin and kept between the bounds.

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.release import DisclosureReport
    >>> e = np.arange(0.0, 5.0)
    >>> r = HistogramRelease(e, np.array([10.0, 20.0, 20.0, 10.0]), (0.0, 4.0), e,
    ...                      DisclosureReport("histplot", "suppress"))
    >>> quantile_bounds([r, r], [(60, 62), (60, 62)], [0.5]).loc[0.5].tolist()
    [1.0, 2.0, 3.0]
    """
    probs = np.asarray(q, dtype=float)
    if probs.ndim != 1 or probs.size == 0 or not np.all((probs > 0) & (probs < 1)):
        raise ValueError(f"q={q!r}: give probabilities strictly between 0 and 1.")
    # every edge of every site: the grids need not align (a site may move its
    # grid off its rare values), each site's counts are read on its own bins
    points = np.unique(np.concatenate([np.asarray(r.edges, dtype=float) for r in per_site]))
    at_least = np.zeros(len(points))  # shown records certainly below each point
    at_most = np.zeros(len(points))  # shown records possibly below it
    spread = np.zeros(len(points))  # shown records below it, spread evenly in their bins
    shown = hidden_max = 0.0
    for rel, (_, n_hi) in zip(per_site, n_bounds, strict=True):
        edges = np.asarray(rel.edges, dtype=float)
        cum = np.r_[0.0, np.cumsum(np.nan_to_num(np.asarray(rel.counts, dtype=float)))]
        if cum[-1] > n_hi:
            raise ValueError(
                f"A site shows {cum[-1]:g} records in bins but at most {n_hi} in all: "
                "its histogram and its count do not belong together."
            )
        right = np.searchsorted(edges, points, side="right")  # edges <= point
        at_least += np.where(right > 0, cum[np.maximum(right - 1, 0)], 0.0)
        left = np.searchsorted(edges, points, side="left")  # first edge >= point
        at_most += np.where(left < len(edges), cum[np.minimum(left, len(edges) - 1)], cum[-1])
        spread += np.interp(points, edges, cum)
        shown += cum[-1]
        hidden_max += n_hi - cum[-1]
    total = shown + hidden_max
    if total <= 0:
        raise ValueError("The sites released no records to take quantiles of.")
    f_max = (at_most + hidden_max) / total  # every hidden record below the point
    f_min = at_least / total  # every hidden record above it
    rows = []
    for p in probs:
        below = np.flatnonzero(f_max < p)
        low = float(points[below[-1]]) if below.size else -np.inf
        reached = np.flatnonzero(f_min >= p)
        high = float(points[reached[0]]) if reached.size else np.inf
        estimate = np.nan
        if shown > 0:
            estimate = float(np.interp(p * shown, spread, points))
            estimate = min(max(estimate, low), high)
        rows.append((low, estimate, high))
    columns = ["low", "estimate", "high"]
    table = pd.DataFrame(rows, index=pd.Index(probs, name="q"), columns=columns)
    # the estimate is arithmetic on released counts; it is rounded like every statistic
    table["estimate"] = guard.released_statistics(table["estimate"].to_numpy())
    return table


def pooled_quantiles(
    frame: FederatedFrame,
    x: str,
    q: Sequence[float] = (0.25, 0.5, 0.75),
    *,
    binwidth: float | None = None,
    binrange: tuple[float, float] | None = None,
) -> pd.DataFrame:
    """Return bounds on the quantiles of a column over every site's records together.

    Each site releases its suppressed histogram of `x` (the same release as
    ``histplot``, under its own policy and the analyst's ledger there); the
    quantiles are worked out from those releases only, by
    :func:`quantile_bounds`: a safe interval that certainly holds each
    pooled quantile, and an estimate inside it. The intervals are as narrow
    as the bins; give ``binwidth=`` (and ``binrange=``) for finer ones, as far
    as the sites' thresholds let their bins be shown.

    Parameters
    ----------
    frame : FederatedFrame
        The data set at several sites (``safeplot.connect([...]).dataset(name)``).
    x : str
        A numeric column.
    q : sequence of float, default (0.25, 0.5, 0.75)
        Probabilities in (0, 1).
    binwidth, binrange : optional
        Passed to every site's histogram, so that the grids align.

    Returns
    -------
    DataFrame
        ``low``, ``estimate`` and ``high`` per probability; its
        ``attrs["report"]`` is the disclosure report, which the audit log
        also records.

    Examples
    --------
    >>> import safeplot
    >>> fed = safeplot.connect([url_a, url_b], tokens=[token_a, token_b])  # doctest: +SKIP
    >>> table = pooled_quantiles(fed.dataset("titanic"), "age")  # doctest: +SKIP
    >>> list(table.columns)  # doctest: +SKIP
    ['low', 'estimate', 'high']
    """
    from .. import audit

    if not isinstance(frame, FederatedFrame):
        raise TypeError("pooled_quantiles needs a data set at several sites (a FederatedFrame).")
    send: dict[str, Any] = {"x": x}
    if binwidth is not None:
        send["binwidth"] = binwidth
    if binrange is not None:
        send["binrange"] = list(binrange)
    calls = [
        site.session.release(site.name, "histplot", send, site._selected) for site in frame.sites
    ]
    releases, bounds = [], []
    for site, call in zip(frame.sites, calls, strict=True):
        report = call.reports[0]
        releases.append(call.releases[0])
        threshold = int(report.params.get("threshold", 1))
        bounds.append(count_bounds(report.n, site.n_rounded_to, threshold))
    table = quantile_bounds(releases, bounds, q)
    report = DisclosureReport(
        "pooled_quantiles",
        "suppress",
        {"q": [float(p) for p in table.index]},
        (x,),
        n=_rounded_sum([c.reports[0].n for c in calls]),
    )
    report.details.update(pooled_sites=len(calls))
    report.warnings.append(
        "Pooled across sites from the sites' released histograms only: each quantile lies "
        "between low and high whatever the suppressed bins hold."
    )
    report.policy = "pooled: " + "; ".join(str(c.reports[0].policy) for c in calls)
    guard.admit("pooled_quantiles", report, table)
    audit.record(report, figure=None, released=table)
    table.attrs["report"] = report
    return table


def _ticks(edges: np.ndarray) -> np.ndarray:
    from matplotlib.ticker import MaxNLocator

    ticks = MaxNLocator(nbins=6).tick_values(float(edges[0]), float(edges[-1]))
    return ticks[(ticks >= edges[0]) & (ticks <= edges[-1])]


def _rounded_sum(values: Sequence[Any]) -> int | str:
    if all(isinstance(v, int) for v in values):
        return int(sum(values))
    return "pooled"


def pooled_histplot(frame: FederatedFrame, send: dict[str, Any], **draw_kws: Any) -> Any:
    """Draw the pooled histogram of `frame` (see the module's rule)."""
    from ._calls import CallRelease
    from ._draw import draw

    if send.get("method", "suppress") != "suppress":
        raise ValueError("A pooled histogram is made of suppressed counts: method='suppress'.")
    calls = [
        site.session.release(site.name, "histplot", send, site._selected) for site in frame.sites
    ]
    threshold = max(int(c.reports[0].params.get("threshold", 0)) for c in calls)
    pooled = pool_histograms([c.releases for c in calls], threshold)
    report = pooled[0].report
    for rel in pooled[1:]:
        report = report.merge(rel.report)
    report.n = _rounded_sum([c.reports[0].n for c in calls])
    report.details.update(stat="count", pooled_sites=len(calls))
    report.policy = "pooled: " + "; ".join(str(c.reports[0].policy) for c in calls)
    report.warnings.append(
        "Pooled across sites: a bin is shown only where every site showed it, as the sum of "
        "the sites' released counts."
    )
    for rel in pooled:
        rel.report = report
    return draw(CallRelease("histplot", pooled, [report]), send, **draw_kws)


class FederatedFit:
    """A logistic regression fitted on several sites by federated Newton iterations.

    Attributes
    ----------
    params, bse : Series
        Maximum-likelihood coefficients and their standard errors, from the
        sites' pooled sufficient statistics.
    deviance : float
    iterations : int
    nobs : int or str
        The sum of the sites' rounded record counts.
    formula : str
    """

    def __init__(
        self,
        formula: str,
        names: list[str],
        beta: np.ndarray,
        info: np.ndarray,
        deviance: float,
        iterations: int,
        nobs: Any,
    ) -> None:
        self.formula = formula
        self.params = pd.Series(beta, index=names)
        cov = np.linalg.inv(info)
        self.bse = pd.Series(np.sqrt(np.diag(cov)), index=names)
        self.cov_params = pd.DataFrame(cov, index=names, columns=names)
        self.deviance = deviance
        self.iterations = iterations
        self.nobs = nobs

    def __repr__(self) -> str:
        return f"FederatedFit({self.formula!r}, iterations={self.iterations})"


def pooled_logit(frame: FederatedFrame, formula: str, *, tol: float = 1e-10) -> FederatedFit:
    """Fit a logistic regression on every site of `frame` by federated IRLS."""
    beta = None
    names: list[str] = []
    iteration = 0
    while iteration < MAX_ITER:
        iteration += 1
        steps = [
            site.session.glm_step(site.name, formula, None if beta is None else beta.tolist())
            for site in frame.sites
        ]
        names = steps[0]["names"]
        if any(s["names"] != names for s in steps):
            raise ValueError("The sites built different model terms; use the same columns.")
        info = sum(np.asarray(s["information"], dtype=float) for s in steps)
        score = sum(np.asarray(s["score"], dtype=float) for s in steps)
        deviance = float(sum(s["deviance"] for s in steps))
        current = np.zeros(len(names)) if beta is None else beta
        delta = np.linalg.solve(info, score)
        beta = current + delta
        if np.max(np.abs(delta)) < tol:
            break
    if np.max(np.abs(delta)) >= tol:
        raise ValueError(f"The federated fit did not converge in {MAX_ITER} iterations.")
    nobs = _rounded_sum([s["n"] for s in steps])
    return FederatedFit(formula, names, beta, info, deviance, iteration, nobs)
