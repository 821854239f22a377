"""Cell suppression for frequency tables: primary and secondary suppression.

A frequency table (a cross-tabulation of two or more categorical variables)
is published with its totals, or its totals can be computed from other
output. *Primary suppression* removes every cell with
``0 < count < threshold``. That alone is not enough: when a row holds one
suppressed cell, the row total minus the shown cells gives it back.
*Secondary suppression* removes further cells so that every row and every
column holding a suppressed cell holds at least two, and no suppressed cell
is the only unknown of a row or column equation.

The rule used here is the standard heuristic of statistical agencies (see
Hundepool et al., *Statistical Disclosure Control*, 2012, ch. 5): repeat
until nothing changes -- for each row, then each column, that holds exactly
one suppressed cell, also suppress its smallest non-zero shown cell (ties go
to the first by position); when the line has no non-zero shown cell left,
suppress its first shown zero instead. A line of a single cell is its own
total and needs no partner.

Limit: the rule blocks recovery of a suppressed cell from any *one* row or
column equation. It is not an optimal solution of the linear-programming
problem that tools such as tau-argus solve: by combining several equations
(and the knowledge that counts are non-negative) a reader can still bound a
suppressed cell, sometimes tightly. Nor does it use the fewest suppressions.
And when it had to suppress a zero, the protection assumes that readers
cannot tell which cells are structurally empty.

Everything here is plain numpy: numbers in, numbers out.

References
----------
.. [1] Hundepool A, Domingo-Ferrer J, Franconi L, Giessing S, Nordholt ES,
   Spicer K, de Wolf PP. *Statistical Disclosure Control*. Wiley (2012),
   chapter 5 (magnitude and frequency tables, secondary cell suppression).
.. [2] de Wolf PP, Hundepool A, Giessing S, Salazar-Gonzalez JJ, Castro J.
   *tau-argus user's manual* (optimal and modular secondary suppression).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["TableSuppression", "lines_with_one_suppressed", "suppress_table"]


@dataclass(frozen=True)
class TableSuppression:
    """A frequency table after primary and secondary cell suppression.

    Attributes
    ----------
    counts : ndarray of float, shape (r, c)
        The counts, NaN where suppressed; every shown count is 0 or at least
        `threshold`.
    primary : ndarray of bool, shape (r, c)
        Cells with ``0 < count < threshold``.
    secondary : ndarray of bool, shape (r, c)
        Further cells suppressed so that no suppressed cell can be recovered
        from one row or column total.
    threshold : int
        The minimum count of a shown cell.
    warnings : list of str
        What the analyst or output checker should know (zeros suppressed,
        nothing left to show, table left unprotected on request).
    hidden : ndarray of bool, shape (r, c), optional
        Cells holding records that are not shown whatever their count
        (``hidden=`` of :func:`suppress_table`); they are counted in neither
        `primary` nor `secondary`.
    """

    counts: np.ndarray
    primary: np.ndarray
    secondary: np.ndarray
    threshold: int
    warnings: list[str] = field(default_factory=list)
    hidden: np.ndarray | None = None

    @property
    def suppressed(self) -> np.ndarray:
        """Boolean mask of every cell not shown (primary, secondary or hidden)."""
        out = self.primary | self.secondary
        return out if self.hidden is None else out | self.hidden

    @property
    def n_primary(self) -> int:
        """Number of cells suppressed because they are small."""
        return int(self.primary.sum())

    @property
    def n_secondary(self) -> int:
        """Number of cells suppressed to protect the small ones."""
        return int(self.secondary.sum())

    @property
    def n_suppressed(self) -> int:
        """Number of cells suppressed in all."""
        return self.n_primary + self.n_secondary

    @property
    def protected(self) -> bool:
        """Whether no row or column (of two or more cells) holds exactly one suppressed cell.

        A hidden cell counts as suppressed where it holds records; a line
        that shows no cell at all (a level never drawn) needs no protection.
        """
        if self.hidden is None:
            rows, cols = lines_with_one_suppressed(self.suppressed)
            return not (rows.size or cols.size)
        rows, cols = lines_with_one_suppressed(self.primary | self.secondary | self.hidden)
        shown = ~np.isnan(self.counts)
        return not (shown[rows].any() or shown[:, cols].any())


def lines_with_one_suppressed(suppressed: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Return the rows and the columns (of two or more cells) with exactly one suppressed cell.

    Such a cell equals its line's total minus the line's shown cells.

    Parameters
    ----------
    suppressed : array-like of bool, shape (r, c)

    Returns
    -------
    rows, cols : ndarray of int
        Indices of the offending rows and columns.

    Examples
    --------
    >>> lines_with_one_suppressed([[True, False], [True, False]])
    (array([0, 1]), array([], dtype=int64))
    """
    s = np.asarray(suppressed, dtype=bool)
    rows = np.flatnonzero(s.sum(axis=1) == 1) if s.shape[1] > 1 else np.array([], dtype=np.int64)
    cols = np.flatnonzero(s.sum(axis=0) == 1) if s.shape[0] > 1 else np.array([], dtype=np.int64)
    return rows.astype(np.int64), cols.astype(np.int64)


def _check_counts(counts: ArrayLike) -> np.ndarray:
    try:
        c = np.asarray(counts, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("counts must be a table of numbers (a 2-D array of counts).") from None
    if c.ndim != 2:
        raise ValueError(
            f"counts must be a 2-D table (rows x columns), got {c.ndim} dimension(s). "
            "Reshape a one-way table to one column, e.g. counts[:, None]."
        )
    if c.size == 0:
        raise ValueError("counts is an empty table: there is nothing to release.")
    if not np.isfinite(c).all() or (c < 0).any():
        raise ValueError("counts must be finite and non-negative (numbers of records per cell).")
    return c


def _check_threshold(threshold: int) -> int:
    if isinstance(threshold, bool) or not isinstance(threshold, (int, np.integer)):
        raise TypeError(f"threshold must be an integer, got {threshold!r}.")
    if threshold < 1:
        raise ValueError(f"threshold must be at least 1, got {threshold}.")
    return int(threshold)


def _protect(c: np.ndarray, supp: np.ndarray, never_shown: np.ndarray | None = None) -> bool:
    """Add secondary suppressions to `supp` in place until every line is protected.

    A line whose every cell is `never_shown` is never shown, so it needs no
    protection. Returns whether a shown zero had to be suppressed.
    """
    used_zero = False
    changed = True
    while changed:
        changed = False
        for axis in (0, 1):  # rows first, then columns
            values = c if axis == 0 else c.T
            mask = supp if axis == 0 else supp.T  # a view: writes reach `supp`
            if values.shape[1] < 2:
                continue  # a line of one cell is its own total
            lines = mask.sum(axis=1) == 1
            if never_shown is not None:
                lines &= ~(never_shown if axis == 0 else never_shown.T).all(axis=1)
            for i in np.flatnonzero(lines):
                line, hidden = values[i], mask[i]
                if hidden.sum() != 1:  # changed earlier in this pass
                    continue
                open_nonzero = np.flatnonzero(~hidden & (line > 0))
                if open_nonzero.size:
                    # smallest non-zero shown cell; argmin takes the first of equal ones
                    j = open_nonzero[np.argmin(line[open_nonzero])]
                else:
                    j = np.flatnonzero(~hidden)[0]
                    used_zero = True
                mask[i, j] = True
                changed = True
    return used_zero


def _cover_hidden(c: np.ndarray, supp: np.ndarray, hidden: np.ndarray, threshold: int) -> bool:
    """Suppress one more cell of each line whose unshown cells add up to a small count.

    Only lines holding a `hidden` cell are checked: their totals, published
    elsewhere, count records this table never shows. Returns whether a cell
    was added.
    """
    added = False
    for axis in (0, 1):
        values, mask, held = (c, supp, hidden) if axis == 0 else (c.T, supp.T, hidden.T)
        for i in np.flatnonzero(held.any(axis=1)):
            total = values[i][mask[i]].sum()
            open_nonzero = np.flatnonzero(~mask[i] & (values[i] > 0))
            if 0 < total < threshold and open_nonzero.size:
                mask[i, open_nonzero[np.argmin(values[i][open_nonzero])]] = True
                added = True
    return added


def suppress_table(
    counts: ArrayLike,
    threshold: int,
    *,
    secondary: bool = True,
    hidden: ArrayLike | None = None,
) -> TableSuppression:
    """Suppress small cells of a frequency table, and enough others to protect them.

    Parameters
    ----------
    counts : array-like, shape (r, c)
        Counts of records per cell (non-negative, finite). When the table is
        published with its totals, pass the totals as an extra row and
        column (the last row holding the column totals and the grand
        total): every line of that table adds up, and the rule then
        protects against the published totals and suppresses small totals.
    threshold : int
        Minimum count of a shown cell; cells with ``0 < count < threshold``
        are suppressed (primary suppression).
    secondary : bool, default True
        Also suppress the cells needed so that no row or column holds
        exactly one suppressed cell (secondary suppression). Without it a
        suppressed cell can be recovered from the totals.
    hidden : array-like of bool, shape (r, c), optional
        Cells never shown, whatever their count: records that another
        release counts in its totals but this table does not draw (a missing
        hue, a level left out of ``hue_order``). They take part in the
        secondary rule as suppressed cells, and a line holding one must hide
        0 or at least `threshold` records in all: where its unshown cells
        add up to fewer, its smallest non-zero shown cell is suppressed too.

    Returns
    -------
    TableSuppression
        Counts with suppressed cells as NaN, and the primary and secondary
        masks.

    See Also
    --------
    safeplot.anonymize.suppress : Primary suppression only, for grids and histograms.

    Notes
    -----
    The secondary rule, repeated until nothing changes: for each row and
    then each column holding exactly one suppressed cell, suppress also the
    smallest non-zero shown cell of that line (the first of equal ones, by
    position); if the line has no non-zero shown cell, suppress its first
    shown zero (a warning says so: that only protects against readers who
    cannot tell which cells are structurally empty). Lines of a single cell
    are skipped, being their own totals. The rule always ends: each round
    suppresses one more cell.

    This is the standard heuristic, not an optimal linear-programming
    solution as in tau-argus: it blocks the recovery of a suppressed cell
    from any one row or column equation, but combining several equations
    can still give bounds on a suppressed cell, and the number of cells
    suppressed is not minimal.

    Examples
    --------
    >>> out = suppress_table([[2, 10, 7], [5, 20, 9], [8, 6, 30]], threshold=3)
    >>> out.counts
    array([[nan, 10., nan],
           [nan, 20., nan],
           [ 8.,  6., 30.]])
    >>> out.n_primary, out.n_secondary, out.protected
    (1, 3, True)
    """
    c = _check_counts(counts)
    threshold = _check_threshold(threshold)
    held = None
    if hidden is not None:
        held = np.asarray(hidden, dtype=bool)
        if held.shape != c.shape:
            raise ValueError(f"hidden must have the table's shape {c.shape}, got {held.shape}.")
    primary = (c > 0) & (c < threshold)
    if held is not None:
        primary &= ~held
    supp = primary.copy() if held is None else primary | (held & (c > 0))
    warnings: list[str] = []
    used_zero = False
    if secondary and supp.any():
        used_zero = _protect(c, supp, held)
        while held is not None and _cover_hidden(c, supp, held & (c > 0), threshold):
            used_zero |= _protect(c, supp, held)
        if used_zero:
            warnings.append(
                "Secondary suppression had to suppress empty cells (zeros) in a row or column "
                "with no other non-zero shown cell; this protects the small cell only from "
                "readers who cannot tell which cells are structurally empty."
            )
    elif not secondary and primary.any():
        rows, cols = lines_with_one_suppressed(primary)
        if rows.size or cols.size:
            warnings.append(
                "Secondary suppression is off: a suppressed cell alone in its row or column "
                "can be recovered from the totals. Publish no totals, or use secondary=True."
            )
    out = c.copy()
    out[supp] = np.nan
    if primary.any() and not (c[~supp] > 0).any():
        warnings.append("Every non-zero cell is suppressed: the table shows nothing.")
    if held is not None:
        out[held] = np.nan
        held = held & (c > 0)
    other = primary if held is None else primary | held
    return TableSuppression(out, primary, supp & ~other, threshold, warnings, held)
