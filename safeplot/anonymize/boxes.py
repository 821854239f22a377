"""Box-plot statistics that reveal no individual value.

A box plot of raw data draws five individual values (the extremes inside the
whiskers, the quartiles when they fall on a record) and every outlier. Two
safe versions are computed here, as numbers only:

- :func:`confidential_box` follows O'Keefe (2013), section 3.1: winsorise at
  the mean plus or minus ``winsor_sd`` standard deviations, take the
  five-number summary of the winsorised data (whiskers at the winsorised
  range, no outliers), and round it to the policy's significant figures.
- :func:`grid_box` follows Avraam et al. (2021), section 4.1, for small-cell
  suppression: bin the values on a safe grid, drop the cells holding fewer
  than ``threshold`` records, and take Tukey's box statistics of the values
  in the surviving cells, rounded; outliers are shown as the centres of their
  (surviving) cells.

Either way a rounded statistic that still equals a rare raw value is moved
outward by one unit in its last significant figure (:func:`nudge_off`).

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
.. [2] Avraam D, Wilson R, Butters O, et al. "Privacy preserving data
   visualizations." EPJ Data Science 10, 2 (2021).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from .._validate import finite_array
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from .grids import histogram_counts, move_off, safe_edges
from .statistics import round_sig, sig_unit, winsorize
from .suppression import coarsen_counts, coarsen_edges

__all__ = ["BoxSummary", "confidential_box", "grid_box", "nudge_off"]


@dataclass(frozen=True)
class BoxSummary:
    """The numbers a box plot draws for one group.

    Attributes
    ----------
    whislo, q1, med, q3, whishi : float
        Lower whisker end, quartiles, median, upper whisker end.
    fliers : ndarray
        Points drawn beyond the whiskers (never raw values; empty for
        confidentialised boxes).
    n : int
        Records summarised (exact; report it rounded).
    n_winsorized : int
        Values moved to a winsorising bound (confidential boxes).
    cells_suppressed : int
        Grid cells dropped by suppression (grid boxes).
    """

    whislo: float
    q1: float
    med: float
    q3: float
    whishi: float
    fliers: np.ndarray = field(default_factory=lambda: np.array([]))
    n: int = 0
    n_winsorized: int = 0
    cells_suppressed: int = 0

    @property
    def stats(self) -> np.ndarray:
        """The five numbers, low to high."""
        return np.array([self.whislo, self.q1, self.med, self.q3, self.whishi])

    def to_bxp(self, label: str = "") -> dict:
        """Return the dict :meth:`matplotlib.axes.Axes.bxp` draws."""
        return {
            "whislo": self.whislo,
            "q1": self.q1,
            "med": self.med,
            "q3": self.q3,
            "whishi": self.whishi,
            "fliers": np.asarray(self.fliers, dtype=float),
            "label": label,
        }


def nudge_off(
    values: ArrayLike,
    avoid: ArrayLike,
    directions: ArrayLike,
    sig: int,
    *,
    keep: ArrayLike | None = None,
) -> np.ndarray:
    """Move each value equal to one in `avoid` by one unit in its last significant figure.

    Parameters
    ----------
    values : array-like
        Rounded statistics.
    avoid : array-like
        Values none may equal (the rare raw values).
    directions : array-like of {-1, +1}
        Direction to move each value (outward: -1 for lower statistics).
    sig : int
        Significant figures the values were rounded to.
    keep : array-like, optional
        Values left where they are (e.g. 0, the baseline of a density, which
        is no statistic).

    Returns
    -------
    ndarray
        The values, those that hit `avoid` moved until they no longer do.

    Examples
    --------
    >>> nudge_off([12.3, 45.6], avoid=[45.6], directions=[-1, 1], sig=3)
    array([12.3, 45.7])
    """
    return move_off(
        values,
        avoid,
        lambda v: sig_unit(v, sig),
        directions=directions,
        keep=keep,
        settle=lambda v: np.asarray(round_sig(v, sig), dtype=float),
    )


_DIRECTIONS = np.array([-1.0, -1.0, 1.0, 1.0, 1.0])


def _safe_five(stats: np.ndarray, avoid: np.ndarray, sig: int) -> np.ndarray:
    rounded = np.asarray(round_sig(stats, sig), dtype=float)
    for _ in range(10):
        rounded = nudge_off(rounded, avoid, _DIRECTIONS, sig)
        # keep the order low <= q1 <= med <= q3 <= high after moving
        ordered = np.maximum.accumulate(rounded)
        if np.array_equal(ordered, rounded):
            break
        rounded = ordered
    return rounded


def _check_enough(n: int, policy: Policy, what: str) -> None:
    if n < policy.threshold:
        raise DisclosureError(
            f"{what} has {policy.describe_count(n)} records; a box needs at least "
            f"threshold={policy.threshold} ({policy.source}). Merge it with another group "
            "or leave it out."
        )


def confidential_box(
    values: ArrayLike,
    *,
    avoid: ArrayLike | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    policy: Policy | None = None,
    what: str = "The group",
) -> BoxSummary:
    """O'Keefe's confidentialised box: winsorised, rounded five-number summary, no outliers.

    Parameters
    ----------
    values : array-like, shape (n,)
        Finite raw values of one group.
    avoid : array-like, optional
        Rare raw values no statistic may equal (default: none).
    winsor_sd : float, optional
        Winsorising bound in SDs (default and floor: the policy's, 2.6).
    sig : int, optional
        Significant figures (default and ceiling: the policy's, 3).
    policy : Policy, optional
    what : str
        How to name the group in an error.

    Returns
    -------
    BoxSummary
        Whiskers at the winsorised extremes; no fliers.

    Raises
    ------
    DisclosureError
        Fewer than ``threshold`` values.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.r_[np.arange(1.0, 21.0), 250.0]
    >>> box = confidential_box(x, avoid=[250.0])
    >>> bool(box.whishi < 250.0), box.n_winsorized
    (True, 1)
    """
    pol = get_policy(policy)
    x = finite_array(values, what="values")
    if x.ndim != 1:
        raise ValueError("confidential_box takes one variable (a 1-D array).")
    _check_enough(x.size, pol, what)
    sig = pol.check_sig_figs(sig)
    w = winsorize(x, pol.check_winsor_sd(winsor_sd), policy=pol)
    stats = np.quantile(w.values, [0.0, 0.25, 0.5, 0.75, 1.0])
    avoid_arr = np.asarray([] if avoid is None else avoid, dtype=float)
    five = _safe_five(stats, avoid_arr, sig)
    return BoxSummary(*five, n=x.size, n_winsorized=w.n_winsorized)


def grid_box(
    values: ArrayLike,
    *,
    avoid: ArrayLike | None = None,
    bins: int = 30,
    factor: int = 1,
    whis: float = 1.5,
    threshold: int | None = None,
    sig: int | None = None,
    edges: ArrayLike | None = None,
    policy: Policy | None = None,
    what: str = "The group",
) -> BoxSummary:
    """Box statistics of the values in the grid cells that survive small-cell suppression.

    The values are binned on a safe grid (`bins` cells, coarsened by `factor`
    for generalisation); cells with fewer than ``threshold`` values are
    dropped with their values. Tukey's statistics of what remains (quartiles,
    whiskers at the most extreme kept value within ``whis`` IQR) are rounded
    and moved off the rare values; outliers are drawn at the centres of their
    cells, one marker per cell.

    Parameters
    ----------
    values : array-like, shape (n,)
        Finite raw values of one group.
    avoid : array-like, optional
        Rare raw values no statistic may equal.
    bins : int, default 30
        Cells of the grid.
    factor : int, default 1
        Coarsening of the grid (2 for ``"generalize"``).
    whis : float, default 1.5
        Whisker reach in IQRs.
    threshold : int, optional
        Minimum records per surviving cell (default and floor: the policy's).
    sig : int, optional
        Significant figures (default and ceiling: the policy's).
    edges : array-like, optional
        Use these cell edges (shared by several groups) instead of a new grid.
    policy : Policy, optional
    what : str
        How to name the group in an error.

    Returns
    -------
    BoxSummary

    Examples
    --------
    >>> import numpy as np
    >>> x = np.random.default_rng(1).normal(size=300)
    >>> box = grid_box(x, avoid=x)
    >>> bool(box.whislo > x.min() and box.whishi < x.max())
    True
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    x = finite_array(values, what="values")
    avoid_arr = np.asarray([] if avoid is None else avoid, dtype=float)
    if edges is None:
        edges = safe_edges(x, bins, avoid=avoid_arr)
    edges = np.asarray(edges, dtype=float)
    counts = histogram_counts(x, edges)
    if factor > 1:
        counts, edges = coarsen_counts(counts, factor), coarsen_edges(edges, factor)
    small = (counts > 0) & (counts < threshold)
    cell = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, counts.size - 1)
    kept = x[~small[cell]]
    _check_enough(kept.size, pol, what + " (after suppressing small cells)")
    sig = pol.check_sig_figs(sig)
    q1, med, q3 = np.quantile(kept, [0.25, 0.5, 0.75])
    iqr = q3 - q1
    inside = kept[(kept >= q1 - whis * iqr) & (kept <= q3 + whis * iqr)]
    stats = np.array([inside.min(), q1, med, q3, inside.max()])
    five = _safe_five(stats, avoid_arr, sig)
    out = kept[(kept < inside.min()) | (kept > inside.max())]
    out_cells = np.unique(np.clip(np.searchsorted(edges, out, side="right") - 1, 0, None))
    fliers = (edges[:-1] + edges[1:])[out_cells] / 2
    return BoxSummary(*five, fliers=fliers, n=x.size, cells_suppressed=int(small.sum()))
