"""The numbers a release shows, as a plain table for the audit log and supporting files.

:func:`released_table` turns what a release drew or returned (a histogram's
bins, a density grid's cells, released points, box summaries, a released
table, a model's coefficient table) into ``{"columns": [...], "data": [...]}``
of plain JSON types, row by row (rows of floats only, such as released
points, as a read-only :class:`FloatRows` whose rows read as lists of
floats; :func:`plain_table` makes them lists). Suppressed numbers are
``None``, and so are the empty bins and cells of a histogram or grid, which
the figure draws as it draws suppressed ones; every other number is the one
drawn or returned, unchanged (floats are kept at full precision, so a CSV
written from the table reads back equal to the release).
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["FloatRows", "gc_paused", "plain_table", "released_table"]

#: Rows turned into Python lists at a time when :class:`FloatRows` are iterated.
_ROWS_AT_A_TIME = 1 << 16


class FloatRows(Sequence):
    """The rows of a released table of floats, held as one read-only array.

    A scatter plot of ten million released points logs ten million rows. As
    lists of Python floats they take more than a gigabyte and seconds to
    build; here they stay one float array, and each row becomes a list of
    Python floats (the values :func:`released_table` gives) when it is read.
    The rows compare equal to the same rows as lists, and cannot be changed.

    Parameters
    ----------
    array : array-like, shape (n, p)
        Finite floats, one row per released point.

    Examples
    --------
    >>> import numpy as np
    >>> rows = FloatRows(np.array([[1.5, 2.0], [3.0, 4.25]]))
    >>> len(rows), rows[1]
    (2, [3.0, 4.25])
    >>> rows == [[1.5, 2.0], [3.0, 4.25]]
    True
    """

    __slots__ = ("_array",)

    def __init__(self, array: Any) -> None:
        arr = np.array(array, dtype=float)  # its own copy: the release may be changed later
        if arr.ndim != 2:
            raise ValueError(f"FloatRows takes a 2-D array, got shape {arr.shape}.")
        arr.setflags(write=False)
        self._array = arr

    @classmethod
    def _adopt(cls, array: np.ndarray) -> FloatRows:
        """Wrap a new float array that nothing else refers to, without copying it."""
        rows = cls.__new__(cls)
        array.setflags(write=False)
        rows._array = array
        return rows

    def __len__(self) -> int:
        return self._array.shape[0]

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return self._array[index].tolist()
        return self._array[int(index)].tolist()

    def __iter__(self) -> Iterator[list[float]]:
        for start in range(0, len(self), _ROWS_AT_A_TIME):
            yield from self._array[start : start + _ROWS_AT_A_TIME].tolist()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FloatRows):
            return bool(np.array_equal(self._array, other._array))
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(
                a == b for a, b in zip(self, other, strict=True)
            )
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        n, p = self._array.shape
        return f"FloatRows({n} rows x {p} columns)"

    def __copy__(self) -> FloatRows:
        return self  # read-only: a copy is the same rows

    def __deepcopy__(self, memo: dict) -> FloatRows:
        return self

    def tolist(self) -> list[list[float]]:
        """Return the rows as lists of Python floats."""
        with gc_paused():
            return self._array.tolist()


def plain_table(table: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return a copy of a released table in plain JSON types (:class:`FloatRows` as lists).

    Examples
    --------
    >>> import numpy as np
    >>> plain_table({"columns": ["x"], "data": FloatRows(np.array([[1.0]]))})
    {'columns': ['x'], 'data': [[1.0]]}
    """
    if table is None:
        return None
    data = table["data"]
    with gc_paused():
        rows = data.tolist() if isinstance(data, FloatRows) else [list(row) for row in data]
    return {"columns": list(table["columns"]), "data": rows}


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a large table of plain rows is built.

    A table of rows holds no reference cycles, yet each new row list counts
    towards the collector's thresholds: building a million rows runs
    collection after collection over every object of the session, about
    two thirds of the time. The collector runs again as before once the
    table is built (it stays off if it was off).

    Examples
    --------
    >>> with gc_paused():
    ...     rows = [[i, float(i)] for i in range(3)]
    >>> rows[2]
    [2, 2.0]
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _cell(value: Any) -> Any:
    """Return a plain JSON value: NaN and missing become None, numpy scalars Python ones."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None if math.isnan(value) else value
    if isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _table(columns: list[str], rows: list[list[Any]]) -> dict[str, Any]:
    return {"columns": [str(c) for c in columns], "data": [[_cell(v) for v in r] for r in rows]}


def _column_cells(values: Any) -> np.ndarray:
    """Return one column as an object array of the plain values :func:`_cell` gives."""
    arr = np.asarray(values)
    if arr.dtype.kind == "f":
        out = arr.astype(object)  # Python floats
        out[np.isnan(arr)] = None
        return out
    if arr.dtype.kind in "iub":
        return arr.astype(object)  # Python ints and bools
    return np.array([_cell(v) for v in arr], dtype=object)


def _columns_table(columns: list[str], arrays: list[Any]) -> dict[str, Any]:
    """Return the table of equally long columns, built column by column (no call per cell)."""
    floats = [np.asarray(a) for a in arrays]
    if floats and all(a.dtype.kind == "f" and not np.isnan(a).any() for a in floats):
        # numbers only, none missing: the rows stay one array, read as Python floats
        rows = np.column_stack(floats).astype(float, copy=False)  # a new array
        return {"columns": [str(c) for c in columns], "data": FloatRows._adopt(rows)}
    cells = [_column_cells(a) for a in arrays]
    n = len(cells[0]) if cells else 0
    data = np.empty((n, len(cells)), dtype=object)
    for j, col in enumerate(cells):
        data[:, j] = col
    return {"columns": [str(c) for c in columns], "data": data.tolist()}


def _label(key: Any) -> str:
    if isinstance(key, tuple):
        return " | ".join(str(k) for k in key)
    return "" if key is None else str(key)


def _frame(frame: pd.DataFrame) -> dict[str, Any]:
    names = [n if n is not None else "" for n in frame.index.names]
    if len(names) == 1 and names[0] == "":
        names = ["index"]
    columns = [*names, *(_label(c) for c in frame.columns)]
    rows = []
    for key, values in zip(frame.index, frame.itertuples(index=False), strict=True):
        keys = list(key) if isinstance(key, tuple) else [key]
        rows.append([*keys, *values])
    return _table(columns, rows)


def _withheld(counts: np.ndarray) -> np.ndarray:
    """Return counts as the figure shows them: suppressed and empty cells both withheld (NaN).

    The figure draws nothing (or a zero-height bar) for a cell of fewer than
    ``threshold`` records and for an empty one alike; a table that told them
    apart would place a record of a small cell the figure hides.
    """
    return np.where(counts == 0, np.nan, counts)


def _histogram(rel: Any) -> dict[str, Any]:
    edges = np.asarray(rel.edges, dtype=float)
    counts = _withheld(np.asarray(rel.counts, dtype=float))
    level = getattr(rel, "level", None)
    rows = [
        [_label(level), edges[i], edges[i + 1], counts[i], bool(np.isnan(counts[i]))]
        for i in range(counts.size)
    ]
    return _table(["level", "bin_left", "bin_right", "count", "suppressed"], rows)


def _grid(rel: Any) -> dict[str, Any]:
    counts = _withheld(np.asarray(rel.counts, dtype=float))
    xe, ye = np.asarray(rel.xedges, dtype=float), np.asarray(rel.yedges, dtype=float)
    rows = []
    for li, level in enumerate(rel.levels):
        for i in range(xe.size - 1):
            for j in range(ye.size - 1):
                c = counts[li, i, j]
                rows.append(
                    [_label(level), xe[i], xe[i + 1], ye[j], ye[j + 1], c, bool(np.isnan(c))]
                )
    columns = ["level", "x_left", "x_right", "y_bottom", "y_top", "count", "suppressed"]
    return _table(columns, rows)


def _points(rel: Any) -> dict[str, Any]:
    x, y = np.asarray(rel.x, dtype=float), np.asarray(rel.y, dtype=float)
    names = list(rel.report.variables[:2]) or ["x", "y"]
    if len(names) < 2:
        names = ["x", "y"]
    if rel.sizes is not None:
        return _columns_table([*names, "count"], [x, y, np.asarray(rel.sizes, dtype=float)])
    return _columns_table(names, [x, y])


def _scatter(rel: Any) -> dict[str, Any]:
    roles = [r for r in ("x", "y", "hue", "size", "style") if r in rel.columns]
    frame = rel.frame[[rel.columns[r] for r in roles]]
    names = [rel.columns[r] for r in roles]
    return _columns_table(names, [frame.iloc[:, j].to_numpy() for j in range(len(names))])


def _concat(tables: list[dict[str, Any] | None]) -> dict[str, Any] | None:
    if not tables or any(t is None for t in tables):
        return None
    columns = tables[0]["columns"]
    if any(t["columns"] != columns for t in tables):
        return None
    return {"columns": columns, "data": [row for t in tables for row in t["data"]]}


def _boxes(rel: Any) -> dict[str, Any]:
    groups = [(_label(cat), _label(hue)) for cat, hue in rel.groups]
    if rel.boxes is not None:
        rows = []
        for (cat, hue), box in zip(groups, rel.boxes, strict=True):
            fliers = " ".join(repr(float(f)) for f in np.asarray(box.fliers, dtype=float))
            rows.append([cat, hue, box.whislo, box.q1, box.med, box.q3, box.whishi, fliers])
        columns = ["category", "hue", "whislo", "q1", "med", "q3", "whishi", "fliers"]
        return _table(columns, rows)
    columns = ["category", "hue", "value"]
    arrays = [np.asarray(values, dtype=float) for values in rel.values]
    if any(np.isnan(a).any() for a in arrays):
        rows = [[cat, hue, v] for (cat, hue), a in zip(groups, arrays, strict=True) for v in a]
        return _table(columns, rows)
    # released values are finite floats: tolist() gives the plain floats _cell would
    data = [
        [cat, hue, v] for (cat, hue), a in zip(groups, arrays, strict=True) for v in a.tolist()
    ]
    return {"columns": columns, "data": data}


def _violins(rel: Any) -> dict[str, Any]:
    """One row per drawn number of each violin or letter-value box: its part and value."""
    rows = []
    for g, (cat, hue) in enumerate(rel.groups):
        cat, hue = _label(cat), _label(hue)
        if hasattr(rel, "density"):
            for v, d in zip(rel.support[g], rel.density[g], strict=True):
                rows.append([cat, hue, "density", float(v), float(d)])
            box = rel.boxes[g] if rel.boxes is not None else None
            if box is not None:
                for part in ("whislo", "q1", "med", "q3", "whishi"):
                    rows.append([cat, hue, part, getattr(box, part), None])
            if rel.quartiles is not None and rel.quartiles[g] is not None:
                for part, v in zip(("q1", "med", "q3"), rel.quartiles[g], strict=True):
                    rows.append([cat, hue, part, float(v), None])
            if rel.values is not None:
                rows += [[cat, hue, "value", float(v), None] for v in rel.values[g]]
        else:
            rows += [[cat, hue, "letter value", float(v), None] for v in rel.letter_values[g]]
            rows.append([cat, hue, "med", float(rel.medians[g]), None])
            rows += [[cat, hue, "flier", float(v), None] for v in rel.fliers[g]]
    return _table(["category", "hue", "part", "value", "density"], rows)


def released_table(obj: Any) -> dict[str, Any] | None:
    """Return the numbers a release shows as ``{"columns": [...], "data": [[...], ...]}``.

    Parameters
    ----------
    obj : release, DataFrame or model summary
        A :class:`~safeplot.release.HistogramRelease` (one row per bin:
        ``level``, ``bin_left``, ``bin_right``, ``count``, ``suppressed``), a
        :class:`~safeplot.release.GridRelease` (one row per cell), a
        :class:`~safeplot.release.PointRelease` or scatter-plot release (one
        row per point drawn, with ``count`` for grid-cell centres and the
        hue, size and style of each point), a box-plot release (one row per
        box: whisker ends, quartiles, median, fliers; or the released values
        of each box), a DataFrame (its index, then its columns) or anything
        with ``summary_frame()`` (a safe model fit: its coefficient table).
        A list of releases of one kind (the hue levels of a histogram) gives
        their rows one after the other.

    Returns
    -------
    dict or None
        The table, or None for an object of another kind. Its ``"data"`` is a
        list of rows, or :class:`FloatRows` when every cell is a float.

    Examples
    --------
    >>> import pandas as pd
    >>> released_table(pd.DataFrame({"n": [5, None]}, index=["a", "b"]))
    {'columns': ['index', 'n'], 'data': [['a', 5.0], ['b', None]]}
    """
    with gc_paused():
        return _released_table(obj)


def _released_table(obj: Any) -> dict[str, Any] | None:
    if isinstance(obj, pd.DataFrame):
        return _frame(obj)
    if isinstance(obj, (list, tuple)):
        return _concat([_released_table(o) for o in obj])
    if hasattr(obj, "frame") and hasattr(obj, "columns") and hasattr(obj, "cells"):
        return _scatter(obj)
    if hasattr(obj, "edges") and hasattr(obj, "counts"):
        return _histogram(obj)
    if hasattr(obj, "xedges") and hasattr(obj, "levels"):
        return _grid(obj)
    if hasattr(obj, "x") and hasattr(obj, "y") and hasattr(obj, "sizes"):
        return _points(obj)
    if hasattr(obj, "groups") and (hasattr(obj, "density") or hasattr(obj, "medians")):
        return _violins(obj)
    if hasattr(obj, "groups") and hasattr(obj, "boxes") and hasattr(obj, "values"):
        return _boxes(obj)
    summary_frame = getattr(type(obj), "summary_frame", None)
    if callable(summary_frame):
        return _frame(obj.summary_frame())
    return None
