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

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import DisclosureError
from ..release import DisclosureReport, HistogramRelease, guard

__all__ = ["FederatedFit", "FederatedFrame", "FederatedSession", "pool_histograms"]

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
    widths = np.concatenate([np.diff(r.edges) for r in firsts])
    width = float(widths[0])
    if not np.allclose(widths, width, rtol=1e-9, atol=0):
        raise ValueError("The sites' histograms have different bin widths: give binwidth=.")
    lo = min(float(r.edges[0]) for r in firsts)
    hi = max(float(r.edges[-1]) for r in firsts)
    m = round((hi - lo) / width)
    offsets = []
    for r in firsts:
        off = (float(r.edges[0]) - lo) / width
        if abs(off - round(off)) > 1e-6:
            raise ValueError("The sites' bin grids are not aligned: give binrange= and binwidth=.")
        offsets.append(round(off))
    # the edges as released by the sites (no new arithmetic on them where a site has one)
    edges = np.full(m + 1, np.nan)
    for r, off in zip(firsts, offsets, strict=True):
        edges[off : off + len(r.edges)] = r.edges
    missing = np.isnan(edges)
    edges[missing] = lo + width * np.flatnonzero(missing)
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
