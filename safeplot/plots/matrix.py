"""Heat maps and safe tables: ``heatmap``, ``crosstab`` and the safe-matrix marker.

:func:`heatmap` draws either the paper's two-dimensional density grid of two
variables (``heatmap(data=df, x=..., y=...)``, released by
:func:`~safeplot.plots.grid.release_grid`), or a matrix that safeplot itself
released -- a table of counts from :func:`crosstab`, or correlations from
``safeplot.corr`` -- passed to :func:`seaborn.heatmap` unchanged. Any other
matrix is refused: a matrix of counts or statistics made by hand can
disclose individuals, and the heat map cannot anonymise a matrix it did not
make.

A released matrix carries a marker in ``frame.attrs["safeplot"]``: its kind,
its report and an HMAC-SHA256 digest of its values and labels under a key
drawn afresh in every Python process. :func:`is_safe_matrix` recomputes the
digest, so a matrix that was edited after its release, or built by hand
with a copied marker, is not accepted.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import warnings
from collections.abc import Hashable, Sequence
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import Colormap, ListedColormap, Normalize

from .. import audit
from .._validate import refuse_dask
from ..anonymize.grids import safe_ticks
from ..anonymize.tables import suppress_table
from ..errors import DisclosureError
from ..marks.bars import draw_grid_accuracy
from ..methods import available_methods, get_method
from ..policy import get_policy
from ..release import DisclosureReport, GridRelease, guard
from ._common import (
    axes_for,
    finish,
    make_report,
    quiet_seaborn,
    set_safe_axis,
    takes_method_options,
)
from ._data import plot_data
from .grid import release_grid

__all__ = ["crosstab", "heatmap", "is_safe_matrix", "mark_safe_matrix"]

#: Key of the safe-matrix marker in ``DataFrame.attrs``.
MARKER = "safeplot"

# Drawn afresh in every process: a marker is valid only in the session that made it.
_MARK_KEY = secrets.token_bytes(32)


# -- the safe-matrix marker -----------------------------------------------------------


def _digest(frame: pd.DataFrame, kind: str, report: dict[str, Any]) -> str:
    """HMAC-SHA256 of a matrix's values, labels, kind and report under the process key."""
    values = frame.to_numpy(dtype=np.float64, na_value=np.nan)
    values = np.ascontiguousarray(np.where(np.isnan(values), np.nan, values))
    parts = [
        kind,
        repr(values.shape),
        values.tobytes(),
        repr(frame.index.tolist()),
        repr(list(frame.index.names)),
        repr(frame.columns.tolist()),
        repr(list(frame.columns.names)),
        json.dumps(report, sort_keys=True, default=repr),
    ]
    mac = hmac.new(_MARK_KEY, digestmod=hashlib.sha256)
    for part in parts:
        data = part if isinstance(part, bytes) else part.encode("utf-8")
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()


def mark_safe_matrix(
    frame: pd.DataFrame, kind: str, report: DisclosureReport | dict[str, Any]
) -> pd.DataFrame:
    """Mark a matrix as released by safeplot, so that :func:`heatmap` will draw it.

    For safeplot's own release functions (:func:`crosstab`, ``corr``): call
    it on the final frame, after the last change to its values or labels.
    The marker is not a barrier against a determined analyst -- anyone can
    call this function -- but it stops a matrix that safeplot did not
    release, or one changed after its release, from being drawn by mistake.

    Parameters
    ----------
    frame : DataFrame
        The released matrix (numeric values).
    kind : str
        What the matrix is, e.g. ``"crosstab"`` or ``"corr"``.
    report : DisclosureReport or dict
        The release's report; it goes with the matrix to the heat map.

    Returns
    -------
    DataFrame
        `frame` itself, with ``frame.attrs["safeplot"] = {"kind", "digest", "report"}``.

    See Also
    --------
    is_safe_matrix : Check the marker.

    Examples
    --------
    >>> import pandas as pd
    >>> from safeplot.release import DisclosureReport
    >>> m = pd.DataFrame({"a": [1.0, 0.5], "b": [0.5, 1.0]}, index=["a", "b"])
    >>> _ = mark_safe_matrix(m, "corr", DisclosureReport("corr", "confidential"))
    >>> is_safe_matrix(m)
    True
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"mark_safe_matrix takes a pandas DataFrame, got {type(frame).__name__}.")
    if not isinstance(kind, str) or not kind:
        raise ValueError(f"kind must be a non-empty string such as 'crosstab', got {kind!r}.")
    if isinstance(report, DisclosureReport):
        report = report.to_dict()
    if not isinstance(report, dict):
        raise TypeError("report must be a DisclosureReport or its to_dict() dictionary.")
    report = json.loads(json.dumps(report, default=repr))  # a plain, detached copy
    try:
        digest = _digest(frame, kind, report)
    except (TypeError, ValueError):
        raise ValueError("A safe matrix must hold numbers only.") from None
    frame.attrs[MARKER] = {"kind": kind, "digest": digest, "report": report}
    return frame


def is_safe_matrix(frame: Any) -> bool:
    """Tell whether `frame` is a matrix released by safeplot in this session, unchanged.

    The digest in the marker is recomputed from the values and labels; any
    change after the release -- even a harmless one such as selecting rows --
    makes it fail (make the matrix you want to draw instead). A transposed
    matrix is accepted. Matrices released in another Python process are not.

    Parameters
    ----------
    frame : object
        Usually a DataFrame.

    Returns
    -------
    bool

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots.matrix import crosstab
    >>> ct = crosstab(safeplot.load_dataset("tips"), "day", "time")
    >>> is_safe_matrix(ct), is_safe_matrix(ct * 2), is_safe_matrix(ct.to_numpy())
    (True, False, False)
    """
    if not isinstance(frame, pd.DataFrame):
        return False
    marker = frame.attrs.get(MARKER)
    if not isinstance(marker, dict):
        return False
    kind, digest, report = marker.get("kind"), marker.get("digest"), marker.get("report")
    if not (isinstance(kind, str) and isinstance(digest, str) and isinstance(report, dict)):
        return False
    try:
        return any(
            hmac.compare_digest(_digest(candidate, kind, report), digest)
            for candidate in (frame, frame.T)
        )
    except (TypeError, ValueError):
        return False


# -- crosstab -------------------------------------------------------------------------


def _key_names(role: str, names: Any, frame: pd.DataFrame) -> list[Hashable]:
    listed = list(names) if isinstance(names, (list, tuple)) else [names]
    if not listed:
        raise ValueError(f"crosstab: `{role}` names no column; give a column name or a list.")
    for name in listed:
        if not isinstance(name, Hashable) or isinstance(name, (pd.Series, np.ndarray)):
            raise TypeError(
                f"crosstab: `{role}` must be a column name or a list of names, "
                f"got {type(name).__name__}."
            )
        if name not in frame.columns:
            raise ValueError(
                f"crosstab: there is no column {name!r} in `data` "
                f"(columns: {list(map(str, frame.columns))})."
            )
    if len(set(listed)) != len(listed):
        raise ValueError(f"crosstab: `{role}` names a column twice: {listed}.")
    return listed


def _check_levels(keys: pd.DataFrame, dropna: bool, threshold: int) -> None:
    """Refuse a key with a level held by fewer than `threshold` records (labels disclose it)."""
    for name in keys.columns:
        counts = keys[name].value_counts(dropna=dropna)
        rare = counts[(counts > 0) & (counts < threshold)]
        if len(rare):
            raise DisclosureError(
                f"crosstab: {len(rare)} value(s) of {name!r} are held by fewer than "
                f"threshold={threshold} records. A table's row and column labels are "
                "published, so they would show that these rare values or categories occur "
                "(for a continuous or identifying column, every record's value). Merge them "
                "into larger groups first, e.g. pandas.cut on edges of your choosing for "
                "numbers, or by recoding rare categories to 'Other'."
            )


def _normalize_mode(normalize: Any) -> str | None:
    """Return the normalisation for pandas' ``normalize`` (False, True/"all", "index"/0, ...)."""
    if isinstance(normalize, (bool, np.bool_)):
        return "all" if normalize else None
    if isinstance(normalize, str) and normalize in ("all", "index", "columns"):
        return normalize
    if isinstance(normalize, (int, np.integer)) and normalize in (0, 1):
        return ("index", "columns")[int(normalize)]
    raise ValueError(
        f"normalize={normalize!r} is not valid; use False, True or 'all', 'index' (or 0), "
        "'columns' (or 1)."
    )


def _with_margin(labels: pd.Index, name: str, role: str) -> pd.Index:
    first = labels.get_level_values(0) if isinstance(labels, pd.MultiIndex) else labels
    if name in set(first.tolist()):
        raise ValueError(
            f"crosstab: margins_name={name!r} is already a label of the {role}; choose another."
        )
    if isinstance(labels, pd.MultiIndex):
        key = (name,) + ("",) * (labels.nlevels - 1)
        return pd.MultiIndex.from_tuples([*labels.tolist(), key], names=labels.names)
    return pd.Index([*labels.tolist(), name], name=labels.name, dtype=object)


def _normalized(shown: np.ndarray, how: str, margins: bool) -> tuple[np.ndarray, bool, bool]:
    """Proportions of the shown counts, with pandas' margins for `how`.

    Returns the values and whether they carry a margin row and column.
    """
    empty_rows = np.isnan(shown).all(axis=1)
    empty_cols = np.isnan(shown).all(axis=0)
    row_sum = np.nansum(shown, axis=1)
    col_sum = np.nansum(shown, axis=0)
    total = np.nansum(shown)
    with np.errstate(invalid="ignore", divide="ignore"):
        if how == "all":
            out = shown / total
            if not margins:
                return out, False, False
            rows = np.where(empty_rows, np.nan, row_sum / total)
            cols = np.where(empty_cols, np.nan, col_sum / total)
            full = np.block([[out, rows[:, None]], [cols[None, :], np.array([[total / total]])]])
            return full, True, True
        if how == "index":
            out = shown / row_sum[:, None]
            if not margins:
                return out, False, False
            cols = np.where(empty_cols, np.nan, col_sum / total)
            return np.vstack([out, cols[None, :]]), True, False
        out = shown / col_sum[None, :]
        if not margins:
            return out, False, False
        rows = np.where(empty_rows, np.nan, row_sum / total)
        return np.hstack([out, rows[:, None]]), False, True


def crosstab(
    data: pd.DataFrame,
    index: Hashable | Sequence[Hashable],
    columns: Hashable | Sequence[Hashable],
    *,
    threshold: int | None = None,
    margins: bool = False,
    margins_name: str = "All",
    dropna: bool = True,
    normalize: bool | str | int = False,
    secondary: bool = True,
    method: str | None = None,
    epsilon: float | None = None,
    row_order: Sequence[Any] | None = None,
    col_order: Sequence[Any] | None = None,
) -> pd.DataFrame:
    """Cross-tabulate categorical columns, with small cells suppressed (or DP noise).

    Like :func:`pandas.crosstab`, but on a DataFrame with column names, and
    released through cell suppression: cells with ``0 < count < threshold``
    are suppressed (NaN), and so are the further cells needed so that no
    suppressed cell can be recovered from a row or column total.

    Parameters
    ----------
    data : DataFrame
        The records.
    index : str or list of str
        Column(s) whose values label the rows.
    columns : str or list of str
        Column(s) whose values label the columns.
    threshold : int, optional
        Minimum count of a shown cell (default and floor: the policy's).
    margins : bool, default False
        Add row and column totals, computed from all the records and then
        suppressed like any cell (they are published too).
    margins_name : str, default "All"
        Label of the totals.
    dropna : bool, default True
        As in pandas: leave out rows with a missing key (reported) and
        columns and rows with no records.
    normalize : bool or {"all", "index", "columns"} or {0, 1}, default False
        Show proportions instead of counts, as in pandas; they are
        proportions of the *shown* counts (suppressed cells count for
        nothing), so they disclose nothing the counts do not.
    secondary : bool, default True
        Apply secondary suppression. Turn it off only when no totals of
        the table will be published anywhere.
    method : {"suppress", "dp"}, optional
        ``"suppress"`` (default): cell suppression as below. ``"dp"``:
        differential privacy; every cell gets OpenDP's discrete Laplace
        noise of scale 1/epsilon (one record is in one cell: L1
        sensitivity 1) and nothing is suppressed.
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` table (default 1.0), spent from
        the policy's ``dp_budget``.
    row_order, col_order : sequence, optional
        ``method="dp"``: the row and column labels, public and fixed before
        the data is read (tuples for several keys). Each one is a row or
        column of the table, with its noisy count even when no record has
        it; records with other values are left out. Required with ``"dp"``.

    Returns
    -------
    DataFrame
        Counts (or proportions), suppressed cells NaN. It carries the
        safe-matrix marker in ``.attrs["safeplot"]`` (with the report), so
        :func:`heatmap` draws it; any later change to it voids the marker.

    Raises
    ------
    DisclosureError
        When a value of a key column is held by fewer than `threshold`
        records (its label would disclose it), or `threshold` is below the
        policy floor.
    ValueError
        For unknown columns, empty data or no complete rows.

    See Also
    --------
    pandas.crosstab : The unprotected table.
    heatmap : Draw the released table.
    safeplot.anonymize.tables.suppress_table : The suppression rule.

    Notes
    -----
    Methods: a table is always released by ``"suppress"``. *Primary*
    suppression removes the small cells; *secondary* suppression then
    repeats, until nothing changes, for each row and column holding exactly
    one suppressed cell: suppress also its smallest non-zero shown cell
    (the first of equal ones). With ``margins=True`` the totals take part
    as an extra row and column, so a small total is suppressed and a
    suppressed cell cannot be recovered from the published totals either.
    This is the standard heuristic, not an optimal (linear-programming)
    solution as in tau-argus: it blocks recovery from any one row or column
    equation, but combined equations can still bound a suppressed cell.

    With ``method="dp"`` the table of the named rows and columns is
    released with noise instead: negative noisy counts become 0, margins
    and proportions are computed from the noisy cells (post-processing,
    so a margin's error grows with the number of cells it adds up), and
    the report and ``.attrs["safeplot"]`` state each cell's 95% accuracy
    ("+/- N at 95%"). Labels come from `row_order` and `col_order`, never
    from the data, so no label is refused as rare.

    A row or column label is published with the table, so a key value held
    by fewer than `threshold` records is refused (merge such values first).
    The release is logged in :mod:`safeplot.audit` (``figure="crosstab"``).

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots.matrix import crosstab
    >>> tips = safeplot.load_dataset("tips")
    >>> crosstab(tips, "day", "time")  # doctest: +NORMALIZE_WHITESPACE
    time  Lunch  Dinner
    day
    Thur    NaN     NaN
    Fri     NaN     NaN
    Sat     0.0    87.0
    Sun     0.0    76.0

    One Thursday dinner is a small cell; the other three cells go with it so
    that no row or column total gives it back.

    Differentially private counts of the categories the call names:

    >>> import safeplot
    >>> with safeplot.policy(dp_budget=10):
    ...     t = crosstab(tips, "day", "time", method="dp", epsilon=1.0,
    ...                  row_order=["Thur", "Fri", "Sat", "Sun"], col_order=["Lunch", "Dinner"])
    >>> t.shape, bool((t.to_numpy() >= 0).all())
    ((4, 2), True)
    """
    pol = get_policy()
    method = pol.check_method("suppress" if method is None else method, "count")
    chosen = get_method(method)
    if not (_table_method(chosen) or chosen.private):
        takes = [m.name for m in available_methods() if _table_method(m) or m.private]
        raise ValueError(
            f"crosstab: method={method!r} is not available for tables; use one of {takes} "
            "(cell suppression, or differentially private counts)."
        )
    private = chosen.private
    if not private:
        if epsilon is not None:
            raise ValueError(
                f"crosstab: epsilon= is the privacy loss of method='dp'; method={method!r} "
                "takes no epsilon."
            )
        if row_order is not None or col_order is not None:
            raise ValueError(
                "crosstab: row_order= and col_order= name the public labels of a method='dp' "
                "table; a suppressed table takes its labels from the records."
            )
    threshold = pol.check_threshold(threshold)
    refuse_dask(data, "crosstab")
    if isinstance(data, dict):
        data = pd.DataFrame(data)
    if not isinstance(data, pd.DataFrame):
        raise TypeError(
            f"crosstab: data must be a pandas DataFrame with named columns, got "
            f"{type(data).__name__}."
        )
    rows = _key_names("index", index, data)
    cols = _key_names("columns", columns, data)
    both = set(rows) & set(cols)
    if both:
        raise ValueError(f"crosstab: column(s) {sorted(map(str, both))} are in index and columns.")
    if not isinstance(margins_name, str):
        raise ValueError(f"margins_name must be a string, got {margins_name!r}.")
    how = _normalize_mode(normalize)
    if data.shape[0] == 0:
        raise ValueError("crosstab: the data are empty (no rows). There is nothing to release.")
    if private:
        return _private_crosstab(
            data,
            rows,
            cols,
            row_order=row_order,
            col_order=col_order,
            epsilon=epsilon,
            margins=margins,
            margins_name=margins_name,
            how=how,
            policy=pol,
        )
    keys = data[rows + cols]
    complete = keys.notna().all(axis=1).to_numpy()
    if dropna:
        if not complete.any():
            raise ValueError(
                f"crosstab: no row has a value in every one of {list(map(str, rows + cols))}."
            )
        keys = keys[complete]
    _check_levels(keys, dropna, threshold)
    table = pd.crosstab(
        [data[r] for r in rows],
        [data[c] for c in cols],
        dropna=dropna,
        rownames=rows,
        colnames=cols,
    )
    counts = table.to_numpy(dtype=float)
    n = int(counts.sum())
    n_dropped = int(data.shape[0] - n)
    r, c = counts.shape
    row_labels, col_labels = table.index, table.columns
    if margins:
        counts = np.block(
            [
                [counts, counts.sum(axis=1)[:, None]],
                [counts.sum(axis=0)[None, :], np.array([[counts.sum()]])],
            ]
        )
    released = suppress_table(counts, threshold, secondary=secondary)
    values = guard.released_counts(released.counts, threshold, what="cell", policy=pol)
    if how is not None:
        values, margin_row, margin_col = _normalized(values[:r, :c], how, margins)
    else:
        margin_row = margin_col = margins
    if margin_row:
        row_labels = _with_margin(row_labels, margins_name, "rows")
    if margin_col:
        col_labels = _with_margin(col_labels, margins_name, "columns")
    out = pd.DataFrame(values, index=row_labels, columns=col_labels)
    warnings = list(released.warnings)
    if how is not None and released.n_suppressed:
        warnings.append(
            "Proportions are of the shown counts: suppressed cells count for nothing, so a "
            "row or column with suppressed cells adds up to 1 over its shown cells only."
        )
    params: dict[str, Any] = {"threshold": threshold, "secondary": bool(secondary)}
    details: dict[str, Any] = {
        "primary_suppressed": released.n_primary,
        "secondary_suppressed": released.n_secondary,
        "margins": bool(margins),
        "normalize": how or False,
    }
    report = make_report(
        "crosstab",
        method,
        params,
        tuple(str(v) for v in rows + cols),
        n,
        n_dropped,
        pol,
        cells_suppressed=released.n_suppressed,
        details=details,
        warnings=warnings,
    )
    mark_safe_matrix(out, "crosstab", report)
    audit.record(report, figure="crosstab", released=out)
    return out


def _table_method(m: Any) -> bool:
    """Whether a table releases its cells under `m` by suppression (counts kept, not coarsened)."""
    return m.counts_only and not m.coarsens and not m.private


class _Accuracy:
    """The 95% accuracy of a released DP table, as :func:`draw_grid_accuracy` reads it."""

    def __init__(self, accuracy: float) -> None:
        self.accuracy = accuracy


def _public_labels(role: str, order: Any, keys: list[Hashable]) -> pd.Index:
    """Return the labels a DP table's rows or columns take from the call."""
    what = "row_order" if role == "index" else "col_order"
    if order is None:
        raise ValueError(
            f"crosstab: method='dp' needs the {'row' if role == 'index' else 'column'} labels "
            f"before the data is read: give {what}=[...] (labels read from the records would "
            "tell which values occur, which the noise does not protect)."
        )
    labels = list(order)
    if not labels:
        raise ValueError(f"crosstab: {what} is empty; name at least one label.")
    if len(keys) > 1:
        if not all(isinstance(v, tuple) and len(v) == len(keys) for v in labels):
            raise ValueError(
                f"crosstab: with {len(keys)} keys, {what} must hold tuples of {len(keys)} values."
            )
        index = pd.MultiIndex.from_tuples(labels, names=keys)
    else:
        index = pd.Index(labels, name=keys[0])
    if index.has_duplicates:
        raise ValueError(f"crosstab: {what} names a label twice.")
    return index


def _private_crosstab(
    data: pd.DataFrame,
    rows: list[Hashable],
    cols: list[Hashable],
    *,
    row_order: Any,
    col_order: Any,
    epsilon: float | None,
    margins: bool,
    margins_name: str,
    how: str | None,
    policy: Any,
) -> pd.DataFrame:
    """Release the table of the named labels with OpenDP's discrete Laplace noise."""
    from ..anonymize import dp as dpnum
    from ._dp import dp_epsilon

    m = get_method("dp")
    eps = dp_epsilon(m, epsilon)
    row_index = _public_labels("index", row_order, rows)
    col_index = _public_labels("columns", col_order, cols)
    keys = data[rows + cols]
    complete = keys.notna().all(axis=1)
    keys = keys[complete]
    # each record counts in the cell of its labels, if the call named them; counting by
    # position in the public labels makes the table's shape depend on the call alone
    row_codes = row_index.get_indexer(
        pd.MultiIndex.from_frame(keys[rows]) if len(rows) > 1 else keys[rows[0]]
    )
    col_codes = col_index.get_indexer(
        pd.MultiIndex.from_frame(keys[cols]) if len(cols) > 1 else keys[cols[0]]
    )
    inside = (row_codes >= 0) & (col_codes >= 0)
    r, c = len(row_index), len(col_index)
    exact = np.bincount(row_codes[inside] * c + col_codes[inside], minlength=r * c).reshape(r, c)
    # every argument is valid: the release will be made, so its privacy loss is spent now
    left = guard.spend_epsilon(eps, function="crosstab")
    noisy = dpnum.noisy_counts(exact, eps)
    counts = noisy.counts
    row_labels, col_labels = row_index, col_index
    if how is not None:
        with np.errstate(invalid="ignore", divide="ignore"):  # a row or column of zeros
            values, margin_row, margin_col = _normalized(counts, how, margins)
    else:
        values, margin_row, margin_col = counts, margins, margins
        if margins:
            values = np.block(
                [
                    [counts, counts.sum(axis=1)[:, None]],
                    [counts.sum(axis=0)[None, :], np.array([[counts.sum()]])],
                ]
            )
    if margin_row:
        row_labels = _with_margin(row_labels, margins_name, "rows")
    if margin_col:
        col_labels = _with_margin(col_labels, margins_name, "columns")
    out = pd.DataFrame(values, index=row_labels, columns=col_labels)
    warnings = [
        f"Differentially private counts (epsilon={eps:g}): each cell +/- {noisy.accuracy} at "
        "95%; negative noisy counts shown as 0."
    ]
    if margins or how is not None:
        warnings.append(
            "Margins and proportions are computed from the noisy cells: a total of m cells "
            "carries the noise of all m."
        )
    report = make_report(
        "crosstab",
        "dp",
        {"epsilon": eps},
        tuple(str(v) for v in rows + cols),
        round(float(counts.sum())),  # a sum of noisy counts: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        policy,
        details={
            "mechanism": "discrete Laplace (OpenDP make_laplace), L1 sensitivity 1",
            "noise_scale": noisy.scale,
            "noise_sd": round(noisy.sd, 3),
            "accuracy_95": noisy.accuracy,
            "budget_left": round(left, 6),
            "margins": bool(margins),
            "normalize": how or False,
            "labels_from": "the call (row_order, col_order)",
        },
        warnings=warnings,
    )
    mark_safe_matrix(out, "crosstab", report)
    audit.record(report, figure="crosstab", released=out)
    return out


# -- heatmap --------------------------------------------------------------------------


def _colormap(cmap: Any, center: float | None, vmin: float, vmax: float) -> Colormap:
    """Resolve `cmap` and recentre it on `center`, as seaborn's heatmap does."""
    from seaborn import cm

    if cmap is None:
        cmap = cm.rocket if center is None else cm.icefire
    elif isinstance(cmap, str):
        cmap = mpl.colormaps[cmap]
    elif isinstance(cmap, list):
        cmap = ListedColormap(cmap)
    if center is None:
        return cmap
    bad = cmap(np.ma.masked_invalid([np.nan]))[0]
    under, over = cmap(-np.inf), cmap(np.inf)
    under_set, over_set = under != cmap(0), over != cmap(cmap.N - 1)
    vrange = max(vmax - center, center - vmin)
    cmin, cmax = Normalize(center - vrange, center + vrange)([vmin, vmax])
    return ListedColormap(cmap(np.linspace(cmin, cmax, 256))).with_extremes(
        bad=bad, under=under if under_set else None, over=over if over_set else None
    )


def _tick_choice(which: str, labels: Any, ticks: np.ndarray) -> np.ndarray:
    """Ticks of a numeric grid axis for seaborn's ``xticklabels``/``yticklabels`` values."""
    if isinstance(labels, str):
        if labels != "auto":
            raise ValueError(f"{which}ticklabels={labels!r}: use 'auto', True, False or an int.")
        return ticks
    if isinstance(labels, (bool, np.bool_)):
        return ticks if labels else np.array([])
    if isinstance(labels, (int, np.integer)) and labels >= 0:
        return ticks[:: int(labels)] if labels else np.array([])
    raise ValueError(
        f"{which}ticklabels: the axes of a density grid are numeric and their ticks lie on the "
        "safe grid of the release, so they cannot take a list of labels. Use 'auto', True, "
        "False, or an int n to label every n-th tick."
    )


def _grid_heatmap(
    data: Any,
    x: Any,
    y: Any,
    hue: Any,
    *,
    vmin: float | None,
    vmax: float | None,
    cmap: Any,
    center: float | None,
    robust: bool,
    annot: Any,
    fmt: str,
    annot_kws: dict | None,
    linewidths: float,
    linecolor: Any,
    cbar: bool,
    cbar_kws: dict | None,
    cbar_ax: Axes | None,
    square: bool,
    xticklabels: Any,
    yticklabels: Any,
    mask: Any,
    ax: Axes | None,
    bins: int | None,
    method: str | None,
    threshold: int | None,
    epsilon: float | None = None,
    binrange: Any = None,
    factor: int,
    k: int,
    q: float,
    annotate: bool | None,
    kwargs: dict[str, Any],
) -> Axes:
    """Release and draw the density grid of (x, y)."""
    if hue is not None:
        raise ValueError(
            "heatmap: hue= is not supported with x= and y=: one heat map shows one density "
            "grid. Draw one heat map per level, e.g. a FacetGrid or a loop over the levels on "
            "plt.subplots, passing each level's rows as data."
        )
    if x is None or y is None:
        raise ValueError(
            "heatmap: a density grid needs both x= and y= (two numeric variables). To draw a "
            "table, pass a matrix from safeplot.crosstab or safeplot.corr as data."
        )
    if annot is not None and not isinstance(annot, (bool, np.bool_)):
        raise ValueError(
            "heatmap: annot must be True or False with x= and y=; the cells are written with "
            "their released counts (an array of your own cannot be matched to the grid)."
        )
    pol = get_policy()
    pdata = plot_data(data, {"x": x, "y": y}, function="heatmap")
    names = (pdata.label("x"), pdata.label("y"))
    rel = release_grid(
        pdata.frame["x"],
        pdata.frame["y"],
        names=names,
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        kind="heatmap",
        function="heatmap",
        policy=pol,
        epsilon=epsilon,
        binrange=binrange,
    )
    method = rel.report.method
    private = rel.accuracy is not None
    threshold_used = rel.report.params.get("threshold", pol.threshold)
    counts = rel.counts[0]
    if not get_method(method).raw and not private:
        counts = guard.released_counts(counts, threshold_used, what="cell", policy=pol)
    shown = np.isfinite(counts) & (counts > 0)
    grid = np.ma.array(np.where(shown, counts, 0.0).T, mask=~shown.T)  # rows = y cells
    if mask is not None:
        extra = np.asarray(mask, dtype=bool)
        if extra.shape != grid.shape:
            raise ValueError(
                f"heatmap: mask has shape {extra.shape} but the grid drawn has {grid.shape} "
                "cells (y cells from the bottom, x cells from the left)."
            )
        grid.mask = grid.mask | extra
    xticks = _tick_choice("x", xticklabels, rel.xticks)
    yticks = _tick_choice("y", yticklabels, rel.yticks)
    values = grid.compressed()
    if not values.size:  # nothing shown: a colour scale from 0 to the threshold
        vmin = 0.0 if vmin is None else vmin
        vmax = float(threshold_used) if vmax is None else vmax
    if vmin is None:
        vmin = float(np.percentile(values, 2) if robust else values.min())
    if vmax is None:
        vmax = float(np.percentile(values, 98) if robust else values.max())
    if vmin == vmax and vmin > 0:
        # every shown cell has one count: matplotlib would widen the scale by 10% each way
        # (2.7 to 3.3 for a count of 3), putting a colour-bar limit below the threshold
        vmin = 0.0
    colormap = _colormap(cmap, center, vmin, vmax)

    ax = axes_for(ax, rel.report, rel)
    kws = dict(kwargs)
    kws.setdefault("linewidths", linewidths)
    kws.setdefault("edgecolor", linecolor)
    if kws.get("norm") is None:
        kws.setdefault("vmin", vmin)
        kws.setdefault("vmax", vmax)
    mesh = ax.pcolormesh(rel.xedges, rel.yedges, grid, cmap=colormap, **kws)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    set_safe_axis(ax, "x", rel.xlim, xticks)
    set_safe_axis(ax, "y", rel.ylim, yticks)
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    if square:
        ax.set_aspect(float(np.diff(rel.xedges[:2])[0] / np.diff(rel.yedges[:2])[0]))
    if cbar:
        cbar_kws = dict(cbar_kws or {})
        cb = ax.figure.colorbar(mesh, cbar_ax, ax, **cbar_kws)
        cb.outline.set_linewidth(0)
        lo, hi = mesh.norm.vmin, mesh.norm.vmax
        if "ticks" not in cbar_kws and lo is not None and hi is not None and hi > lo:
            ticks = safe_ticks(float(lo), float(hi))
            whole = ticks[ticks == np.round(ticks)]  # counts: whole-number ticks if there are
            cb.set_ticks(whole if whole.size >= 2 else ticks)
        if "label" not in cbar_kws:
            cb.set_label("Count" if not private else f"Count (+/- {rel.accuracy:g} at 95%)")
    if private:
        draw_grid_accuracy(ax, rel)
    if annot:
        _annotate_grid(ax, mesh, rel, grid, fmt, annot_kws)
    return finish(ax, rel.report, annotate=annotate, policy=pol)


def _annotate_grid(
    ax: Axes, mesh: Any, rel: GridRelease, grid: np.ma.MaskedArray, fmt: str, annot_kws: Any
) -> None:
    """Write each shown count at its cell's centre, in black or white as seaborn does."""
    from seaborn.utils import relative_luminance

    mesh.update_scalarmappable()
    colours = mesh.get_facecolors()
    xc, yc = np.meshgrid(rel.xcentres, rel.ycentres)
    for i, (xv, yv, val) in enumerate(zip(xc.flat, yc.flat, grid.flat, strict=True)):
        if val is np.ma.masked:
            continue
        colour = colours[i] if len(colours) > i else colours[0]
        kws = {
            "color": ".15" if relative_luminance(colour) > 0.408 else "w",
            "ha": "center",
            "va": "center",
        }
        kws.update(annot_kws or {})
        ax.text(xv, yv, ("{:" + fmt + "}").format(val), **kws)


def matrix_report(marker: dict[str, Any]) -> DisclosureReport:
    """Return the report of a released matrix, made the heat map's report.

    Parameters
    ----------
    marker : dict
        The safeplot marker a released matrix carries (``attrs[MARKER]``).

    Returns
    -------
    DisclosureReport
    """
    d = marker["report"]
    details = dict(d.get("details") or {})
    details.update(matrix=marker["kind"], released_by=d.get("function", marker["kind"]))
    return DisclosureReport(
        function="heatmap",
        method=str(d.get("method", "")),
        params=dict(d.get("params") or {}),
        variables=tuple(d.get("variables") or ()),
        n=d.get("n", 0),
        n_dropped=d.get("n_dropped", 0),
        cells_suppressed=int(d.get("cells_suppressed", 0)),
        warnings=list(d.get("warnings") or []),
        details=details,
        policy=str(d.get("policy", "")),
    )


def refuse_raw_matrix() -> DisclosureError:
    """Return the error for a matrix that safeplot did not release (drawn only as raw output)."""
    return DisclosureError(
        "heatmap was given a matrix that safeplot did not release (a DataFrame or array "
        "without a valid safeplot marker, or a safeplot matrix changed after its release). A "
        "matrix of counts or statistics can disclose individuals, and heatmap cannot "
        "anonymise a matrix it did not make. Make the matrix with safeplot.crosstab(data, "
        "index=..., columns=...) (counts, small cells suppressed) or safeplot.corr "
        "(correlations) and pass it unchanged, or draw the density grid of two variables "
        "with heatmap(data=df, x=..., y=...)."
    )


@takes_method_options
def heatmap(
    data: Any = None,
    *,
    vmin: float | None = None,
    vmax: float | None = None,
    cmap: Any = None,
    center: float | None = None,
    robust: bool = False,
    annot: Any = None,
    fmt: str = ".2g",
    annot_kws: dict[str, Any] | None = None,
    linewidths: float = 0,
    linecolor: Any = "white",
    cbar: bool = True,
    cbar_kws: dict[str, Any] | None = None,
    cbar_ax: Axes | None = None,
    square: bool = False,
    xticklabels: Any = "auto",
    yticklabels: Any = "auto",
    mask: Any = None,
    ax: Axes | None = None,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    bins: int | None = None,
    method: str | None = None,
    epsilon: float | None = None,
    binrange: Any = None,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot a released matrix, or the density grid of two variables, as a colour-encoded grid.

    Two uses. ``heatmap(ct)`` draws a matrix that safeplot released -- a
    table of counts from :func:`crosstab`, correlations from
    ``safeplot.corr`` -- exactly as :func:`seaborn.heatmap` does, with every
    seaborn argument. Any other matrix is refused. ``heatmap(data=df,
    x="a", y="b")`` draws the density grid of two numeric variables
    (Avraam et al.: counts in a grid of cells; as many cells as the number
    of records can fill, up to the paper's 30 x 30), released under
    `method`, on numeric axes with a colour bar of counts.

    Parameters
    ----------
    data : DataFrame, optional
        A matrix from :func:`crosstab` or ``safeplot.corr`` (unchanged); or,
        with `x` and `y`, the records.
    vmin, vmax : float, optional
        Limits of the colour scale. Default: the smallest and largest value
        shown (for a density grid, shown counts, all at least `threshold`).
    cmap : str, list of colours or Colormap, optional
        Colour map; default seaborn's "rocket" ("icefire" with `center`).
    center : float, optional
        Value at the centre of a diverging colour map.
    robust : bool, default False
        Take the colour limits from the 2nd and 98th percentiles of the
        values shown.
    annot : bool or DataFrame, optional
        Write the values in the cells (a density grid: its shown counts).
        With a released matrix, a second released matrix of the same shape
        may give the numbers to write; other arrays are refused, as they
        could write anything.
    fmt : str, default ".2g"
        Format of the annotations.
    annot_kws : dict, optional
        Keyword arguments of :meth:`matplotlib.axes.Axes.text` for them.
    linewidths : float, default 0
        Width of the lines between cells.
    linecolor : colour, default "white"
        Colour of those lines.
    cbar : bool, default True
        Draw a colour bar.
    cbar_kws : dict, optional
        Keyword arguments of :meth:`matplotlib.figure.Figure.colorbar`.
    cbar_ax : Axes, optional
        Axes to draw the colour bar into.
    square : bool, default False
        Make the cells square.
    xticklabels, yticklabels : "auto", bool, list-like or int
        As in seaborn for a matrix. For a density grid the axes are numeric
        with ticks on the release's safe grid: "auto"/True show them, False
        hides them, an int n keeps every n-th one; lists are refused.
    mask : bool array or DataFrame, optional
        Cells not to draw. For a density grid: shape (y cells, x cells),
        the first row at the bottom.
    ax : Axes, optional
        Axes to draw on; default the current Axes.
    x, y : str or vector, optional
        The two numeric variables of a density grid (names in `data`, or
        vectors).
    hue : optional
        Refused with a density grid (draw one heat map per level).
    bins : int, optional
        Cells per axis of a density grid (before generalisation). Default:
        chosen by the number n of complete records so that a typical cell
        can hold `threshold` records, ``clip(round(sqrt(n / threshold)),
        5, 30)`` (:func:`~safeplot.plots.grid.grid_bins_for`; 11 for the
        344 penguins, 30 from 2,700 records at threshold 3). The report's
        ``params["bins"]`` says which. Give ``bins=30`` for the paper's
        grid. ``method="dp"``: 30 unless given, as a private grid's cells
        may not depend on the data.
    method : str, optional
        Disclosure-control method of a density grid; default the policy's
        for heat maps (``"suppress"``). See Notes. With a raw matrix only
        ``"none"`` (if the policy allows raw output) draws it.
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` density grid (default 1.0), spent
        from the policy's ``dp_budget``. Each cell's count carries discrete
        Laplace noise of scale 1/epsilon (OpenDP); the 95% accuracy is
        written on the colour bar's label and in the report.
    binrange : (low, high) or ((xlow, xhigh), (ylow, yhigh)), optional
        ``method="dp"`` only: the span of the grid, fixed before the data
        is read. Without it a quarter of epsilon is spent on a
        differentially private range estimate.
    threshold : int, optional
        Minimum shown count of a density grid (default and floor: the
        policy's). For a table, give it to :func:`crosstab`.
    factor : int, default 2
        Coarsening of ``"generalize"`` (e.g. 30 x 30 -> 15 x 15).
    k : int, optional
        Records per centroid of ``"deterministic"``.
        Default: the policy's ``k_min`` (3 unless the custodian sets more).
    q : float, optional
        Noise SD as a fraction of each variable's SD (``"probabilistic"``).
        Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
    annotate : bool, optional
        Add the note naming the method (default: the policy's setting).
    algorithm : str, default "mdav_multivariate"
        Microaggregation algorithm (``method="microaggregation"``): groups of whole
        records; ``"mdav"``, ``"vmdav"`` and ``"optimal"`` group one variable at
        a time (see :func:`~safeplot.anonymize.microaggregation.microaggregate`).
    c : int or "fd", default 10
        Number of representative values (``method="rounding"``).
    discretizer : {"ewd", "efd", "kmeans", "resampling"}, default "ewd"
        How rounding forms its intervals (``method="rounding"``).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.pcolormesh`.

    Returns
    -------
    matplotlib.axes.Axes
        With ``.safeplot_report``: the density grid's report, or the
        matrix's report (``details["matrix"]`` names its kind).

    Raises
    ------
    DisclosureError
        For a matrix safeplot did not release (or one changed since), a
        parameter below a policy floor, or ``method="none"`` when the
        policy does not allow raw output.
    ValueError
        For bad input (unknown column, text, empty, all missing, infinite
        values), `hue` with a density grid, or an argument that cannot be
        made safe.

    See Also
    --------
    crosstab : A table of counts with small cells suppressed, to draw here.
    seaborn.heatmap : The function this mirrors.
    safeplot.plots.grid.release_grid : The density-grid release.

    Notes
    -----
    Methods (density grid, ``x=`` and ``y=``); in every one, each count
    drawn is 0 or at least `threshold`, and suppressed and empty cells are
    blank:

    - ``"suppress"``: counts in a `bins` x `bins` grid on rounded edges
      beyond the data; cells with ``0 < count < threshold`` are blank.
    - ``"generalize"``: the grid coarsened by `factor` (e.g. 30 x 30 ->
      15 x 15), then suppressed.
    - ``"deterministic"``: the counts of the kNN centroids (k records each),
      then suppressed.
    - ``"probabilistic"``: the counts of the values with keyed noise
      (SD = q x the variable's SD), then suppressed.
    - ``"confidential"``: the counts of the winsorised values, then
      suppressed.
    - ``"none"``: the raw grid, if the policy allows raw output.
    - ``"dp"``: differential privacy. Every cell of a `bins` x `bins` grid
      on edges fixed by `binrange` (or by a DP range estimate) gets OpenDP's
      discrete Laplace noise of scale 1/epsilon; negative counts are shown
      as 0 and no cell is suppressed (a noisy count certifies no record).
      The colour bar says how far each count may be off (+/- N at 95%).

    A matrix is drawn as released: :func:`crosstab` suppresses small cells
    and the cells that would give them back through the totals.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> from safeplot.plots.matrix import crosstab, heatmap
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, (left, right) = plt.subplots(1, 2)
    >>> ax = heatmap(penguins, x="bill_length_mm", y="flipper_length_mm", bins=15, ax=left)
    >>> ax.safeplot_report.method
    'suppress'
    >>> ct = crosstab(safeplot.load_dataset("tips"), "day", "size")
    >>> ax = heatmap(ct, annot=True, ax=right)
    >>> ax.safeplot_report.details["matrix"]
    'crosstab'
    >>> plt.close(fig)

    A density grid of differentially private counts on cells fixed by the call:

    >>> ax = heatmap(penguins, x="bill_length_mm", y="flipper_length_mm", bins=10,
    ...              binrange=((30, 60), (170, 235)), method="dp", epsilon=0.5)
    >>> ax.safeplot_report.details["accuracy_95"]
    6
    >>> plt.close("all")
    """
    if x is not None or y is not None or hue is not None:
        return _grid_heatmap(
            data,
            x,
            y,
            hue,
            vmin=vmin,
            vmax=vmax,
            cmap=cmap,
            center=center,
            robust=robust,
            annot=annot,
            fmt=fmt,
            annot_kws=annot_kws,
            linewidths=linewidths,
            linecolor=linecolor,
            cbar=cbar,
            cbar_kws=cbar_kws,
            cbar_ax=cbar_ax,
            square=square,
            xticklabels=xticklabels,
            yticklabels=yticklabels,
            mask=mask,
            ax=ax,
            bins=bins,
            method=method,
            epsilon=epsilon,
            binrange=binrange,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            annotate=annotate,
            kwargs=kwargs,
        )
    if data is None:
        raise ValueError(
            "heatmap needs data: a matrix from safeplot.crosstab or safeplot.corr, or the "
            "records with x= and y= for a density grid."
        )
    pol = get_policy()
    if epsilon is not None or binrange is not None:
        raise ValueError(
            "heatmap: epsilon= and binrange= apply to a method='dp' density grid (x=, y=). A "
            "table is released by crosstab(..., method='dp', epsilon=...); draw it as it is."
        )
    if is_safe_matrix(data):
        marker = data.attrs[MARKER]
        report = matrix_report(marker)
        if threshold is not None:
            raise ValueError(
                "heatmap: threshold= applies to a density grid (x=, y=); this matrix was "
                f"already released by {marker['report'].get('function')}. Give threshold to "
                "that function."
            )
        if method is not None and method != report.method:
            raise ValueError(
                f"heatmap: this matrix was released by {marker['report'].get('function')} "
                f"(method {report.method!r}) and is drawn as it is; method={method!r} applies "
                "to a density grid (x=, y=). Leave method out."
            )
        if report.method:
            pol.check_method(report.method)
        if not (annot is None or isinstance(annot, (bool, np.bool_)) or is_safe_matrix(annot)):
            raise DisclosureError(
                "heatmap: annot= writes its own numbers into the cells, so with a released "
                "matrix it must be True/False or another matrix released by safeplot (e.g. "
                "crosstab(..., normalize='index') to write shares on a table of counts)."
            )
        made_with = report.params.get("threshold")
        if isinstance(made_with, int) and made_with < pol.threshold:
            raise DisclosureError(
                f"heatmap: this matrix was released with threshold={made_with}, below the "
                f"policy in force (threshold={pol.threshold}, {pol.source}). Release it again."
            )
        with np.errstate(invalid="ignore"):
            cells = np.asarray(data, dtype=float)
        if not np.isfinite(cells).any():
            raise ValueError(
                f"heatmap: every cell of this matrix is empty (suppressed by "
                f"{marker['report'].get('function')}, or undefined: too few records, or a "
                "constant or missing column), so there is nothing to draw. Use more records "
                "or other variables."
            )
    else:
        method = pol.check_method(method, "heatmap")
        if not get_method(method).raw:
            raise refuse_raw_matrix()
        shape = np.shape(data)
        report = make_report(
            "heatmap",
            "none",
            {},
            ("matrix",),
            0,
            0,
            pol,
            details={"matrix": "raw", "shape": list(shape)},
        )
    import seaborn as sns

    ax = axes_for(ax, report, data)
    with quiet_seaborn(), warnings.catch_warnings():
        # seaborn 0.13 recentres colour maps with Colormap.set_bad, pending deprecation
        warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module="seaborn")
        sns.heatmap(
            data,
            vmin=vmin,
            vmax=vmax,
            cmap=cmap,
            center=center,
            robust=robust,
            annot=annot,
            fmt=fmt,
            annot_kws=annot_kws,
            linewidths=linewidths,
            linecolor=linecolor,
            cbar=cbar,
            cbar_kws=cbar_kws,
            cbar_ax=cbar_ax,
            square=square,
            xticklabels=xticklabels,
            yticklabels=yticklabels,
            mask=mask,
            ax=ax,
            **kwargs,
        )
    if (
        report.method
        and get_method(report.method).private
        and report.details.get("accuracy_95") is not None
    ):
        # a DP table: one line says how far each cell's count may be off
        draw_grid_accuracy(ax, _Accuracy(float(report.details["accuracy_95"])))
    return finish(ax, report, annotate=annotate, policy=pol)
