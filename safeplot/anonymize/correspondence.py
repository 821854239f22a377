"""Correspondence analysis of categorical variables, with rare levels merged first (numbers only).

O'Keefe (2013) replaces a contingency table, whose small cells identify
people, by a correspondence-analysis plot: the categories of two (or more)
variables as points in a plane, close together when they occur together
more often than independence predicts, with no count shown.

- :func:`simple_ca` is the correspondence analysis of a two-way table: the
  singular value decomposition of the standardised residuals
  ``D_r^{-1/2} (P - r c') D_c^{-1/2}`` of the table of proportions ``P``
  with row and column masses ``r`` and ``c``. The squared singular values
  are the principal inertias; they sum to the total inertia, Pearson's
  chi-squared statistic divided by the number of records.
- :func:`multiple_ca` is the multiple correspondence analysis of three or
  more variables: the correspondence analysis of the indicator matrix (one
  column per level), computed from the Burt matrix (all two-way tables
  stacked) so its size does not grow with the number of records.
- :func:`merge_rare_levels` merges the levels held by fewer than
  ``threshold`` records into ``"Other"`` before the analysis.

numpy only, no plotting.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
.. [2] Greenacre M. *Correspondence Analysis in Practice*, 3rd ed.
   Chapman & Hall/CRC (2017).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ..errors import DisclosureError

__all__ = [
    "OTHER",
    "CAResult",
    "MergedLevels",
    "merge_rare_levels",
    "multiple_ca",
    "simple_ca",
]

#: Label of the level that collects rare levels.
OTHER = "Other"


@dataclass(frozen=True)
class MergedLevels:
    """A categorical variable after merging its rare levels.

    Attributes
    ----------
    codes : ndarray of int
        Index of each record's level in `levels`.
    levels : list
        The levels kept, ``"Other"`` last when rare levels were merged.
    merged : list
        The original levels that now form ``"Other"``.
    """

    codes: np.ndarray
    levels: list
    merged: list


def merge_rare_levels(
    values: Sequence, threshold: int, *, order: Sequence | None = None, name: str = "variable"
) -> MergedLevels:
    """Merge the levels held by fewer than `threshold` records into one level, ``"Other"``.

    When ``"Other"`` itself would hold fewer than `threshold` records, the
    smallest remaining level joins it (repeatedly) until it holds enough.

    Parameters
    ----------
    values : sequence
        One categorical value per record (no missing values).
    threshold : int
        Fewest records a level may hold.
    order : sequence, optional
        The order of the levels (default: order of first appearance).
    name : str
        The variable's name, for messages.

    Returns
    -------
    MergedLevels

    Raises
    ------
    DisclosureError
        Fewer than two levels would remain: the variable cannot be shown
        without naming a level held by too few records.

    Examples
    --------
    >>> m = merge_rare_levels(["a"] * 5 + ["b"] * 4 + ["c", "d", "d"], 3)
    >>> m.levels, m.merged
    (['a', 'b', 'Other'], ['c', 'd'])
    """
    vals = list(values)
    levels = list(dict.fromkeys(vals)) if order is None else list(order)
    index = {lev: i for i, lev in enumerate(levels)}
    raw_codes = np.array([index[v] for v in vals], dtype=int)
    counts = np.bincount(raw_codes, minlength=len(levels))
    rare = [i for i in range(len(levels)) if counts[i] < threshold]
    merged_set = set(rare)
    if merged_set and OTHER in index and index[OTHER] not in merged_set:
        merged_set.add(index[OTHER])  # an existing "Other" level joins the merged one
    while merged_set and counts[sorted(merged_set)].sum() < threshold:
        rest = [i for i in range(len(levels)) if i not in merged_set]
        if not rest:
            break
        merged_set.add(min(rest, key=lambda i: (counts[i], i)))
    kept = [i for i in range(len(levels)) if i not in merged_set and counts[i] > 0]
    n_out = len(kept) + (1 if merged_set and counts[sorted(merged_set)].sum() > 0 else 0)
    if n_out < 2:
        raise DisclosureError(
            f"{name}: after merging the levels held by fewer than threshold={threshold} records "
            f"into {OTHER!r}, fewer than two levels are left, so there is nothing to compare. "
            "Use a variable with larger categories, or recode it into broader ones."
        )
    new_levels = [levels[i] for i in kept]
    lookup = np.full(len(levels), len(kept), dtype=int)
    lookup[kept] = np.arange(len(kept))
    merged = [levels[i] for i in sorted(merged_set) if counts[i] > 0]
    if merged:
        new_levels.append(OTHER)
    return MergedLevels(lookup[raw_codes], new_levels, merged)


@dataclass(frozen=True)
class CAResult:
    """Coordinates and inertias of a (multiple) correspondence analysis.

    Attributes
    ----------
    row_coords : ndarray, shape (r, d)
        Principal coordinates of the row categories (simple CA; empty for MCA).
    col_coords : ndarray, shape (c, d)
        Principal coordinates of the column categories (every level for MCA).
    inertias : ndarray, shape (d,)
        Principal inertias (squared singular values), largest first.
    total_inertia : float
        Their sum (for simple CA, chi-squared divided by n).
    row_masses, col_masses : ndarray
        Masses of the rows and columns.
    """

    row_coords: np.ndarray
    col_coords: np.ndarray
    inertias: np.ndarray
    total_inertia: float
    row_masses: np.ndarray
    col_masses: np.ndarray

    @property
    def shares(self) -> np.ndarray:
        """Share of the total inertia of each dimension."""
        if self.total_inertia <= 0:
            return np.zeros_like(self.inertias)
        return self.inertias / self.total_inertia


def _orient_signs(col: np.ndarray, *others: np.ndarray) -> None:
    """Flip each dimension (in place) so its largest column coordinate in size is positive."""
    for k in range(col.shape[1]):
        j = int(np.argmax(np.abs(col[:, k])))
        if col[j, k] < 0:
            col[:, k] *= -1
            for other in others:
                other[:, k] *= -1


def simple_ca(table: ArrayLike) -> CAResult:
    """Correspondence analysis of a two-way table of counts.

    Parameters
    ----------
    table : array-like, shape (r, c)
        Non-negative counts; every row and column must have a positive total.

    Returns
    -------
    CAResult
        Principal coordinates of rows and columns in all ``min(r, c) - 1``
        dimensions, with the sign of each dimension fixed so that its largest
        column coordinate (in absolute value) is positive.

    Raises
    ------
    ValueError
        Not a 2-D table of at least 2 x 2 non-negative finite counts, or a
        row or column with total zero.

    Examples
    --------
    >>> res = simple_ca([[10, 2], [3, 12]])
    >>> res.inertias.round(4), round(res.total_inertia, 4)
    (array([0.3967]), 0.3967)
    """
    n_ij = np.asarray(table, dtype=float)
    if n_ij.ndim != 2 or min(n_ij.shape) < 2:
        raise ValueError(
            f"A correspondence analysis needs a 2-D table of at least 2 x 2, got {n_ij.shape}."
        )
    if not np.isfinite(n_ij).all() or (n_ij < 0).any():
        raise ValueError("The table must hold non-negative finite counts.")
    if (n_ij.sum(axis=1) <= 0).any() or (n_ij.sum(axis=0) <= 0).any():
        raise ValueError("Every row and column of the table needs a positive total.")
    p = n_ij / n_ij.sum()
    r, c = p.sum(axis=1), p.sum(axis=0)
    s = (p - np.outer(r, c)) / np.sqrt(np.outer(r, c))
    u, sv, vt = np.linalg.svd(s, full_matrices=False)
    d = min(n_ij.shape) - 1
    u, sv, v = u[:, :d], sv[:d], vt[:d].T
    rows = u * sv / np.sqrt(r)[:, None]
    cols = v * sv / np.sqrt(c)[:, None]
    _orient_signs(cols, rows)
    inertias = sv**2
    return CAResult(rows, cols, inertias, float((s**2).sum()), r, c)


def multiple_ca(codes: Sequence[ArrayLike], n_levels: Sequence[int]) -> CAResult:
    """Multiple correspondence analysis (of the indicator matrix) of several categorical variables.

    Parameters
    ----------
    codes : sequence of array-like of int
        For each variable, the level index of every record (same length).
    n_levels : sequence of int
        Number of levels of each variable (every level must occur).

    Returns
    -------
    CAResult
        `col_coords` holds the principal coordinates of every level, the
        variables' levels one after another; `row_coords` is empty. There are
        ``J - Q`` dimensions for ``J`` levels of ``Q`` variables.

    Notes
    -----
    With ``Z`` the n x J indicator matrix and ``B = Z'Z`` the Burt matrix,
    the correspondence matrix of ``Z`` is ``P = Z / (nQ)`` with row masses
    ``1/n`` and column masses ``c``; ``S'S = D_c^{-1/2} (B / (n Q^2) - c c')
    D_c^{-1/2}``, whose eigenvalues are the principal inertias and whose
    eigenvectors give the column coordinates. The total inertia is
    ``J / Q - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> a = np.array([0, 0, 1, 1, 2, 2, 0, 1])
    >>> b = np.array([0, 0, 1, 1, 1, 0, 0, 1])
    >>> res = multiple_ca([a, b, a], [3, 2, 3])
    >>> res.col_coords.shape, round(res.total_inertia, 4)
    ((8, 5), 1.6667)
    """
    arrays = [np.asarray(c, dtype=int).ravel() for c in codes]
    q = len(arrays)
    if q < 2:
        raise ValueError("A multiple correspondence analysis needs at least two variables.")
    n = arrays[0].size
    if any(a.size != n for a in arrays) or n == 0:
        raise ValueError("Every variable needs one level per record (same, positive lengths).")
    offsets = np.concatenate([[0], np.cumsum(n_levels)])
    j_total = int(offsets[-1])
    z = np.zeros((n, j_total))
    for v, a in enumerate(arrays):
        if a.min() < 0 or a.max() >= n_levels[v]:
            raise ValueError(f"Variable {v} has a level index outside 0..{n_levels[v] - 1}.")
        z[np.arange(n), offsets[v] + a] = 1.0
    burt = z.T @ z
    c = burt.diagonal() / (n * q)
    if (c <= 0).any():
        raise ValueError("Every level must occur at least once.")
    m = (burt / (n * q * q) - np.outer(c, c)) / np.sqrt(np.outer(c, c))
    eigval, eigvec = np.linalg.eigh((m + m.T) / 2)
    order = np.argsort(eigval)[::-1]
    d = j_total - q
    eigval, eigvec = np.clip(eigval[order][:d], 0, None), eigvec[:, order][:, :d]
    cols = eigvec * np.sqrt(eigval) / np.sqrt(c)[:, None]
    _orient_signs(cols)
    return CAResult(np.zeros((0, d)), cols, eigval, float(np.trace(m)), np.full(n, 1 / n), c)
