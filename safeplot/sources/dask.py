"""Dask DataFrames as input to the binned plots: counts computed out of core.

:func:`~safeplot.histplot`, :func:`~safeplot.heatmap` (the density grid of
``x=`` and ``y=``), :func:`~safeplot.countplot` and :func:`~safeplot.kdeplot`
accept a :class:`dask.dataframe.DataFrame` as ``data=`` (install the optional
extra ``safeplot[dask]``). The records are never brought into memory: dask
computes, partition by partition, only the aggregates the release needs, and
the release code of the pandas path then runs on those aggregates, so the
released numbers are the same as for the same data in pandas.

The computation goes through whichever dask scheduler is active: the local
threads (the default), or a :class:`dask.distributed.Client`, which
:func:`dask.compute` picks up by itself. Each task reads one partition on a
worker and returns a summary of a few kilobytes; the summaries are added up
in a tree on the workers, so one result per pass reaches the client.

A histogram or a density grid takes two passes over the partitions:

1. *Summary*: number of rows, rows dropped for a missing value, infinite
   values (refused as in pandas), per hue level the number of complete rows
   and the minimum and maximum of each variable; for a histogram also the
   count of values per 1/64 of each binary order of magnitude (a sketch from
   which the quartiles of a bin rule are bracketed) and the moments of the
   standard deviation.
2. *Counts*: the edges the release code will place are worked out from the
   summary, and one pass counts the histogram (or grid) on them together with
   the records equal to any number the figure could draw there: its edges
   and bin centres (ticks depend on the limits alone). A drawn number that turns
   out to be a raw value held by fewer than `threshold` records is handed to
   the release code, which moves off it as it does for pandas. The pass
   counts on a grid 80 times finer than the edges (and at the edges shifted
   by a quarter step), so the counts on the moved edges add up from it; a
   number not counted yet is counted in a further pass when asked about.

A bin rule whose bin count the sketch does not settle (the quartiles of
``"auto"`` and ``"fd"`` bracketed too loosely) is computed exactly by
counting the values in the sketch's interval holding each quartile; with at
most :data:`COLLECT_LIMIT` complete rows the column itself is collected.

Memory on the client is bounded by the aggregates: the counts (at most 1000
bins, or 30 x 30 cells, per level, on grids up to 80 times finer), the counts
of records equal to the candidate numbers (tens of thousands), and the
sketch (the buckets holding values: at most 2**18 counts).
:func:`~safeplot.kdeplot` draws density curves through arbitrary points, so
it counts every distinct value instead.

Only the binned methods reduce to such aggregates: ``"suppress"`` and
``"generalize"`` (and ``"confidential"`` for a count plot, which rounds the
counts). The value methods (``"deterministic"``, ``"probabilistic"``,
``"microaggregation"``, ``"rounding"``, ``"confidential"`` on values) move
each record using the others and need every record in memory: they are
refused with a message suggesting a binned method or a sample. The raw plot
(``"none"``) is refused too: compute the frame first where the policy allows
raw output.

safeplot imports and works without dask: a dask collection is recognised by
the module of its type, and dask itself is imported only when one is given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._validate import (
    PlotData,
    _numeric_column,
    categorical_order,
    is_dask_collection,
    refuse_dask,
)
from ..anonymize.grids import (
    _OFFSETS,
    MATCH_RTOL,
    RareValues,
    _next_nice,
    _on_grid,
    _rule_bin_count,
    discrete_edges,
    grid_counts,
    hit_mask,
    nice_step,
    rule_bin_count,
    safe_edges,
)
from ..errors import DisclosureError
from ..methods import Method, available_methods, get_method

__all__ = [
    "BINNED_FAMILIES",
    "COLLECT_LIMIT",
    "DaskColumns",
    "check_dask_method",
    "dask_count_pairs",
    "dask_plot_data",
    "grid_step",
    "histogram_step",
    "is_dask_collection",
]

#: Families of methods a plot of a dask DataFrame supports: they need only counts.
BINNED_FAMILIES = ("counts",)

#: Complete rows up to which a bin rule is computed on the column itself (8 bytes a value).
COLLECT_LIMIT = 2_000_000

#: Functions that take a dask DataFrame.
DASK_FUNCTIONS = ("histplot", "heatmap", "countplot", "kdeplot")

# a value "near" a number: within this relative distance (the drawn-number match is 1e-9;
# the margin covers numbers computed in floating point), so every value the release code
# could match is counted, and a few more
_NEAR_RTOL = 4e-9
# sub-intervals per pass when narrowing down an order statistic
_SPLITS = 4096
# bits of the order-preserving key of a float64 kept by the quantile sketch: the sign, the
# 11 exponent bits and 6 mantissa bits, i.e. 64 buckets per binary order of magnitude
_SKETCH_BITS = 18
# largest lookup table (entries) from a value's grid position to its candidate number
_LUT_MAX = 1 << 23
# partial results added up per task of the reduction tree
_FAN_IN = 8
_SIGN = np.uint64(1 << 63)
# every nonzero number of a grid whose step is at least `step` is at least this many steps
# in magnitude (its offsets are multiples of 1/16 or 1/10 of the step, rounded)
_MIN_ABS = 0.06


def _compute(tasks: list) -> list:
    """Compute delayed tasks on the active scheduler (threads, or a distributed Client)."""
    try:
        import dask
    except ImportError:  # pragma: no cover - a dask collection implies dask
        raise ImportError(
            "Plotting a dask DataFrame needs dask: pip install 'safeplot[dask]'."
        ) from None
    from .._progress import dask_progress

    if not tasks:
        return []
    with dask_progress("dask: counting"):
        return list(dask.compute(*tasks))


def _delayed(func):
    import dask

    return dask.delayed(func, pure=True)


def _tree(tasks: list, combine: Callable) -> Any:
    """Add up per-partition results in a tree of tasks: one result reaches the client."""
    while len(tasks) > 1:
        tasks = [_delayed(combine)(*tasks[i : i + _FAN_IN]) for i in range(0, len(tasks), _FAN_IN)]
    return tasks[0]


def _method_names(families: Sequence[str]) -> str:
    """Name the methods of `families` as ``'a', 'b' or 'c'``, plain suppression first."""
    found = [m for m in available_methods() if m.family in families]
    found.sort(key=lambda m: (m.rule_based, m.coarsens))
    names = [repr(m.name) for m in found]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def check_dask_method(
    method: str | Method, function: str, *, families: Sequence[str] = BINNED_FAMILIES
) -> str | Method:
    """Refuse a method that needs every record in memory, for a dask DataFrame.

    Parameters
    ----------
    method : str or Method
        The method, as checked by the policy.
    function : str
        Calling function, for the message.
    families : sequence of str, default ``("counts",)``
        The families of :attr:`~safeplot.methods.Method.family` the plot
        makes from out-of-core counts (a count plot also takes ``"rules"``:
        its counts rounded).

    Returns
    -------
    str or Method
        `method`.

    Raises
    ------
    ValueError
        Naming the methods that work on a dask DataFrame.

    Examples
    --------
    >>> check_dask_method("suppress", "histplot")
    'suppress'
    >>> try:
    ...     check_dask_method("deterministic", "histplot")
    ... except ValueError as err:
    ...     print(str(err)[:61])
    histplot: method='deterministic' needs every record in memory
    """
    m = get_method(method)
    if m.family in families:
        return method
    use = f"method={_method_names(families)}"
    if m.raw:
        raise ValueError(
            f"{function}: method={m.name!r} draws every record, which needs them in memory; "
            f"with a dask DataFrame use {use}, or compute the frame first (data.compute()) "
            "where the policy allows raw output."
        )
    raise ValueError(
        f"{function}: method={m.name!r} needs every record in memory; with a dask DataFrame "
        f"use {use}, or plot a sample: data.sample(frac=...).compute()"
    )


def dask_plot_data(data: Any, roles: Mapping[str, Any], *, function: str):
    """Resolve seaborn-style variables against a dask DataFrame (names only).

    Returns a :class:`~safeplot._validate.PlotData` whose frame is a dask
    DataFrame with one column per role; nothing is computed.
    """
    if function not in DASK_FUNCTIONS:
        for obj in (data, *roles.values()):
            refuse_dask(obj, function)
    if not is_dask_collection(data) or not hasattr(data, "columns"):
        raise ValueError(
            f"{function}: pass the dask DataFrame as data= and name its columns (x='col'); "
            "dask Series and arrays given as variables are not supported."
        )
    columns: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for role, value in roles.items():
        if value is None:
            continue
        if is_dask_collection(value) or isinstance(value, (pd.Series, np.ndarray, list, tuple)):
            raise ValueError(
                f"{function}: with a dask DataFrame, `{role}` must name one of its columns; "
                "vectors are not supported."
            )
        if value not in data.columns:
            raise ValueError(
                f"{function}: could not interpret value `{value}` for `{role}`: there is no "
                f"column of that name in `data` (columns: {list(map(str, data.columns))})."
            )
        columns[role] = value
        labels[role] = str(value)
    if not columns:
        raise ValueError(f"{function}: name the variables of the dask DataFrame with x= (y=).")
    frame = data.assign(**{f"\x00{r}": data[c] for r, c in columns.items()})
    frame = frame[[f"\x00{r}" for r in columns]]
    frame.columns = list(columns)
    return PlotData(frame, labels)


# -- per-partition work (plain pandas/numpy; run by dask on the workers) ---------------------


def _columns_of(part: pd.DataFrame, columns: Sequence[str]) -> list[np.ndarray]:
    return [np.ascontiguousarray(_numeric_column(c, part[c])) for c in columns]


def _codes(part: pd.DataFrame, hue: str | None, levels: list | None) -> np.ndarray:
    if hue is None or levels is None:
        return np.zeros(len(part), dtype=np.intp)
    index = pd.Index(levels, dtype=object)
    return index.get_indexer(pd.Index(part[hue].to_numpy(dtype=object), dtype=object))


def _missing(part: pd.DataFrame, vals: list[np.ndarray], hue: str | None) -> np.ndarray | None:
    """Rows with a missing value (None when there is none: no copies are made then)."""
    missing = np.zeros(len(part), dtype=bool)
    for v in vals:
        missing |= np.isnan(v)
    if hue is not None:
        missing |= part[hue].isna().to_numpy()
    return missing if missing.any() else None


def _first_nonint(v: np.ndarray) -> float | None:
    for chunk in (v[:1024], v):
        odd = chunk != np.round(chunk)
        if odd.any():
            return float(chunk[odd.argmax()])
    return None


def _sketch_part(v: np.ndarray) -> dict:
    """Count `v` per sketch bucket (the top bits of its float64), with its moments."""
    half = 1 << (_SKETCH_BITS - 1)
    # the top bits as a signed integer: increasing with the value for positive values and
    # decreasing for negative ones (sign and magnitude), shifted to 0 .. 2**bits - 1
    keys = (v.view(np.int64) >> (64 - _SKETCH_BITS)) + half
    counts = np.bincount(keys.astype(np.intp), minlength=1 << _SKETCH_BITS)
    held = np.flatnonzero(counts)
    order = np.where(held < half, half - 1 - held, held)  # in the order of the values
    with np.errstate(over="ignore", invalid="ignore"):  # huge values: refused by the caller
        mean = float(v.mean()) if v.size else 0.0
        m2 = float(np.sum((v - mean) ** 2)) if v.size else 0.0
    return {"buckets": order, "counts": counts[held], "moments": (v.size, mean, m2)}


def _summary_part(part: pd.DataFrame, columns: list[str], hue: str | None, sketch: bool) -> dict:
    vals = _columns_of(part, columns)
    missing = _missing(part, vals, hue)
    comp = vals if missing is None else [v[~missing] for v in vals]
    n = comp[0].size if comp else 0
    if hue is None:
        groups = pd.DataFrame({"n": [n] if n else []}, dtype=np.int64)
        for j, w in enumerate(comp):
            groups[f"min{j}"] = [float(w.min())] if n else []
            groups[f"max{j}"] = [float(w.max())] if n else []
    else:
        frame = pd.DataFrame(dict(enumerate(comp)))
        key = part[hue] if missing is None else part[hue][~missing]
        grouped = frame.groupby(key.reset_index(drop=True), sort=False, observed=True)
        groups = pd.DataFrame({"n": grouped.size()})
        lows, highs = grouped.min(), grouped.max()
        for j in range(len(comp)):
            groups[f"min{j}"], groups[f"max{j}"] = lows[j], highs[j]
    present = [int(v.size - np.count_nonzero(np.isnan(v))) for v in vals]
    # infinite values show in the extremes of the values present (NaN left aside)
    extremes = [
        (np.fmin.reduce(v), np.fmax.reduce(v)) if p else (0.0, 0.0)
        for v, p in zip(vals, present, strict=True)
    ]
    out = {
        "rows": len(part),
        "inf": [bool(np.isinf(lo) or np.isinf(hi)) for lo, hi in extremes],
        "present": present,
        "nonint": [_first_nonint(w) for w in comp],
        "zeros": [int(np.count_nonzero(w == 0)) for w in comp],
        "groups": groups,
        "hue_dtype": None if hue is None else part[hue].dtype,
    }
    if sketch and not any(out["inf"]):  # infinite values are refused by the caller
        out["sketch"] = _sketch_part(comp[0])
    return out


def _selected(part, columns, hue, levels, restrict) -> tuple[list[np.ndarray], np.ndarray | None]:
    """Return the complete rows' values per column and their level codes (None: no hue)."""
    vals = _columns_of(part, columns)
    missing = _missing(part, vals, hue)
    codes = None if hue is None else _codes(part, hue, levels)
    if missing is not None:
        vals = [v[~missing] for v in vals]
        codes = None if codes is None else codes[~missing]
    if restrict and codes is not None and (codes < 0).any():
        inside = codes >= 0
        vals, codes = [v[inside] for v in vals], codes[inside]
    return vals, codes


def _hist_counts(v, codes, n_levels, edges, within, points=False) -> tuple:
    """Count `v` per level in `edges` as numpy's histogram does (the last bin closed).

    The bin of a value comes from arithmetic on the evenly spaced edges; the
    values within relative 4e-9 of an edge (and a margin for the arithmetic)
    are placed by comparison instead. With `points`, those values also give
    the records exactly equal to each edge, per level row (the last row: no
    level), and the (row, value) counts of the ones close to an edge without
    being equal to it: the records at every edge, for the price of the
    histogram.
    """
    if within is not None:
        keep = (v >= within[0]) & (v <= within[1])
        v = v[keep]
        codes = None if codes is None else codes[keep]
    nb = edges.size - 1
    scale = nb / (edges[-1] - edges[0])
    eps = 1e-7 + 8e-9 * max(abs(edges[0]), abs(edges[-1])) * scale
    # how far the edges are from evenly spaced, in bins
    uneven = np.max(np.abs((edges - edges[0]) * scale - np.arange(nb + 1)))
    if not uneven < eps / 4:  # numpy's search
        ix = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, nb - 1)
        inside = (v >= edges[0]) & (v <= edges[-1])
        points = False
    else:
        t = (v - edges[0]) * scale
        i = np.floor(t)
        t -= i
        # the nearest edge of each value; a value on it is in the bin it opens (the last
        # edge closes the last bin), a value near it but off it is placed by comparison
        k = i + (t > 0.5)
        np.clip(k, 0, nb, out=k)
        near_edge = k.astype(np.intp)
        on = edges[near_edge] == v
        odd = np.flatnonzero(((t < eps) | (t > 1 - eps)) & ~on)
        np.clip(i, -1, nb, out=i)
        ix = i.astype(np.intp)
        ix[on] = np.minimum(near_edge[on], nb - 1)
        ix[odd] = np.searchsorted(edges, v[odd], side="right") - 1
        ix[odd[v[odd] == edges[-1]]] = nb - 1
        inside = (ix >= 0) & (ix < nb)
    out_codes = None if codes is None else codes
    if out_codes is None:
        counts = np.bincount(ix[inside], minlength=nb)[None, :]
        sizes = np.array([v.size])
    else:
        sel = inside & (out_codes >= 0)
        flat = np.bincount(out_codes[sel] * nb + ix[sel], minlength=n_levels * nb)
        counts = flat.reshape(n_levels, nb)
        sizes = np.bincount(out_codes[out_codes >= 0], minlength=n_levels)
    if not points:
        return counts, sizes, None, None
    m = edges.size
    n_rows = n_levels + 1
    rows = None if codes is None else np.where(codes >= 0, codes, n_levels)
    hits = near_edge[on]
    if rows is None:
        pts = np.zeros((n_rows, m), dtype=np.int64)
        pts[0] = np.bincount(hits, minlength=m)
    else:
        pts = np.bincount(rows[on] * m + hits, minlength=n_rows * m).reshape(n_rows, m)
    w, c = v[odd], edges[near_edge[odd]]
    close = np.abs(w - c) <= _NEAR_RTOL * np.maximum(np.abs(w), np.abs(c))
    r = np.zeros(odd.size, dtype=np.intp) if rows is None else rows[odd]
    return counts, sizes, pts, _pair_counts(r[close], w[close])


def _pair_counts(rows: np.ndarray, values: np.ndarray) -> pd.Series:
    pairs = pd.DataFrame({"code": rows, "value": values})
    return pairs.groupby(["code", "value"], sort=False).size()


def _cand_counts(v: np.ndarray, rows: np.ndarray | None, n_rows: int, cand: dict) -> tuple:
    """Count the records equal (relative 4e-9) to each candidate number, per level row.

    Returns the counts of records *exactly* equal to a candidate, shape
    ``(n_rows, m)``, and the (row, value) counts of records within the
    tolerance of a candidate without being equal to it.
    """
    c_all = cand["values"]
    m = c_all.size
    lut = _lookup_table(cand)
    if lut is not None:
        # the candidate at each value's multiple of the unit (-1: none); a value equal to a
        # candidate is at the candidate's multiple, so no other value needs a closer look
        k = v * cand["inv_unit"]
        np.rint(k, out=k)
        k -= cand["kmin"] - 1
        np.clip(k, 0, lut.size - 1, out=k)
        ci = lut[k.astype(np.intp)]
        exact = v == np.take(c_all, ci, mode="clip")
        look = np.flatnonzero((ci >= 0) & ~exact)
    else:  # the nearest candidate of each value near the unit's grid
        t = v * cand["inv_unit"]
        look = np.flatnonzero(np.abs(t - np.rint(t)) <= _NEAR_RTOL * np.abs(t))
        w = v[look]
        pos = np.clip(np.searchsorted(c_all, w), 1, max(m - 1, 1))
        left = np.maximum(pos - 1, 0)
        right = np.minimum(pos, m - 1)
        nearest = np.where(np.abs(w - c_all[left]) <= np.abs(c_all[right] - w), left, right)
        ci = np.full(v.size, -1, dtype=np.intp)
        ci[look] = nearest
        exact = np.zeros(v.size, dtype=bool)
        exact[look] = w == c_all[nearest]
        look = look[~exact[look]]
    hits = ci[exact]
    if rows is None:
        counts = np.bincount(hits, minlength=m)[None, :]
        counts = np.vstack([counts, np.zeros((n_rows - 1, m), dtype=counts.dtype)])
    else:
        flat = np.bincount(rows[exact] * m + hits, minlength=n_rows * m)
        counts = flat.reshape(n_rows, m)
    w, c = v[look], c_all[ci[look]]
    close = np.abs(w - c) <= _NEAR_RTOL * np.maximum(np.abs(w), np.abs(c))
    r = np.zeros(look.size, dtype=np.intp) if rows is None else rows[look]
    return counts, _pair_counts(r[close], w[close])


def _near_grid(v: np.ndarray, decimals: int, min_abs: float) -> np.ndarray:
    """Values within relative 4e-9 of the decimal grid 10**-decimals (zero, or |v| >= min_abs)."""
    with np.errstate(invalid="ignore", over="ignore"):
        p = np.round(v, decimals)
        near = np.abs(v - p) <= _NEAR_RTOL * np.maximum(np.abs(v), np.abs(p))
    return near & ((np.abs(v) >= min_abs) | (v == 0))


def _count_part(part, columns, hue, levels, restrict, spec) -> dict:
    """Everything one pass counts in one partition (see :meth:`DaskColumns._pass`)."""
    vals, codes = _selected(part, columns, hue, levels, restrict)
    n_levels = len(levels)
    # level rows of the candidate counts: one per level, the last for rows in no level
    rows = None if codes is None else np.where(codes >= 0, codes, n_levels)
    out: dict = {"hist": [], "cand": [], "near": []}
    for j, edges, within in spec["hist"]:
        # the records at the edges, when none is left out by `within`
        points = within is None
        out["hist"].append(_hist_counts(vals[j], codes, n_levels, edges, within, points))
    if spec["grid"] is not None:
        xedges, yedges = spec["grid"]
        if codes is None:
            out["grid"] = grid_counts(vals[0], vals[1], xedges, yedges)[None]
        else:
            out["grid"] = np.stack(
                [
                    grid_counts(vals[0][codes == i], vals[1][codes == i], xedges, yedges)
                    for i in range(n_levels)
                ]
            )
    for j, cand in spec["cand"]:
        out["cand"].append(_cand_counts(vals[j], rows, n_levels + 1, cand))
    for j, decimals, min_abs in spec["near"]:
        v = vals[j]
        near = (
            np.ones(v.shape, dtype=bool) if decimals is None else _near_grid(v, decimals, min_abs)
        )
        r = np.zeros(v.size, dtype=np.intp) if rows is None else rows
        out["near"].append(_pair_counts(r[near], v[near]))
    return out


def _add_pairs(series: list[pd.Series]) -> pd.Series:
    series = [s for s in series if len(s)]
    if not series:
        return pd.Series([], dtype=np.int64, index=pd.MultiIndex.from_arrays([[], []]))
    if len(series) == 1:
        return series[0]
    return pd.concat(series).groupby(level=[0, 1], sort=False).sum()


def _combine(*results: dict) -> dict:
    """Add up the results of several partitions (or of several partial sums)."""
    first = results[0]
    out: dict = {
        "hist": [
            (
                sum(r["hist"][i][0] for r in results),
                sum(r["hist"][i][1] for r in results),
                None if first["hist"][i][2] is None else sum(r["hist"][i][2] for r in results),
                None
                if first["hist"][i][3] is None
                else _add_pairs([r["hist"][i][3] for r in results]),
            )
            for i in range(len(first["hist"]))
        ],
        "cand": [
            (
                sum(r["cand"][i][0] for r in results),
                _add_pairs([r["cand"][i][1] for r in results]),
            )
            for i in range(len(first["cand"]))
        ],
        "near": [_add_pairs([r["near"][i] for r in results]) for i in range(len(first["near"]))],
    }
    if "grid" in first:
        out["grid"] = sum(r["grid"] for r in results)
    return out


# -- candidate numbers: what a figure could draw ------------------------------------------


class _TooManyNumbers(Exception):
    """A grid of candidate numbers too fine to list (edges of very uneven widths)."""


def _candidates(numbers: np.ndarray) -> dict:
    """Sorted candidate numbers with the decimal unit they lie on and a lookup table.

    A value equal to a candidate lies within relative 4e-9 of a multiple of
    the unit, and its multiple indexes the table; values off that grid (almost
    every value of a continuous variable) are passed over after one rounding.
    """
    values = np.unique(np.asarray(numbers, dtype=float))
    values = values[np.isfinite(values)]
    scale = float(np.max(np.abs(values))) if values.size else 1.0
    exponent = math.floor(math.log10(scale)) if scale > 0 else 0
    unit_exp = exponent - 20
    for p in range(exponent, exponent - 20, -1):
        t = values / 10.0**p
        if np.all(np.abs(t - np.rint(t)) <= 1e-10 * np.maximum(np.abs(t), 1.0)):
            unit_exp = p
            break
    inv_unit = 10.0**-unit_exp
    keys = np.rint(values * inv_unit)
    table, kmin = False, 0.0
    # a table works while the tolerance window of a candidate is well within one unit
    window_ok = 16 * _NEAR_RTOL * scale < 10.0**unit_exp
    if values.size and window_ok and keys.max() - keys.min() < _LUT_MAX:
        kmin = float(keys.min())
        table = np.unique(keys).size == keys.size
    # the table itself is built where the partitions are counted (it is not sent)
    return {"values": values, "inv_unit": inv_unit, "kmin": kmin, "table": table}


def _lookup_table(cand: dict) -> np.ndarray | None:
    """Return the candidate index of each multiple of the unit (-1: none), built once."""
    if not cand["table"]:
        return None
    lut = cand.get("lut")
    if lut is None:
        values = cand["values"]
        # one slot more at each end: the values below and above every candidate
        index = (np.rint(values * cand["inv_unit"]) - cand["kmin"] + 1).astype(np.intp)
        lut = np.full(int(index.max()) + 2, -1, dtype=np.int32)
        lut[index] = np.arange(values.size, dtype=np.int32)
        cand["lut"] = lut  # the tasks of one worker share the spec: built once per worker
    return lut


def _step_of(edges: np.ndarray) -> float:
    widths = np.diff(edges)
    return float(widths.min()) if widths.size else 1.0


def _decimals(step: float) -> int:
    return max(0, 3 - math.floor(math.log10(step)))


def _with_neighbours(points: np.ndarray, step: float) -> np.ndarray:
    """`points` and their neighbours on the rounding grid of `step` (ties rounded either way)."""
    unit = 10.0 ** -_decimals(step)
    return np.concatenate([points, points - unit, points + unit])


def _grid_numbers(lo: float, hi: float, step: float, fracs: Sequence[float]) -> np.ndarray:
    """Every point of the grids ``k * step + frac * step`` in [lo, hi], as placed on a grid."""
    out = []
    for frac in fracs:
        offset = frac * step
        first = math.floor((lo - offset) / step) * step + offset
        n = int((hi - first) / step) + 2
        if n > 200_000:
            raise _TooManyNumbers
        pts = _on_grid(first, step, n)
        out.append(pts if frac == 0 else _with_neighbours(pts, step))
    return np.concatenate(out) if out else np.array([])


@dataclass
class _HistPlan:
    """How the histogram release places its edges (the arguments of its edge placement)."""

    bins: Any
    binwidth: float | None
    binrange: tuple[float, float] | None
    discrete: bool | None
    n_bins: int | None

    @property
    def explicit(self) -> bool:
        return not isinstance(self.bins, (str, int, np.integer)) and self.binwidth is None

    @property
    def within(self) -> tuple[float, float] | None:
        return None if self.binrange is None else tuple(float(v) for v in self.binrange)

    def placements(self, source: DaskColumns, j: int, avoid: np.ndarray) -> list[np.ndarray]:
        """Return the edges the release places with `avoid` (both ways of drawing centres)."""
        if self.explicit:
            return [np.asarray(self.bins, dtype=float)]
        if self.binrange is not None:
            lo, hi = (float(v) for v in self.binrange)
            if not (math.isfinite(lo) and math.isfinite(hi) and hi > lo):
                return []  # the release refuses it, with its own message
            span = np.array([lo, hi])
        else:
            span = source.span_values(j)
        if self.discrete:
            return [discrete_edges(span, avoid, drawn) for drawn in (True, False)]
        bins = self.bins if self.binrange is None or not isinstance(self.bins, str) else 10
        return [safe_edges(span, bins, binwidth=self.binwidth, avoid=avoid, n_bins=self.n_bins)]


@dataclass
class _GridPlan:
    """How a density grid places the edges of one axis."""

    bins: int
    within = None

    def placements(self, source: DaskColumns, j: int, avoid: np.ndarray) -> list[np.ndarray]:
        return [safe_edges(source.span_values(j)[:2], self.bins, avoid=avoid)]


def _bucket_bounds(order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the smallest and largest float64 of each sketch bucket (by order key)."""
    shift = np.uint64(64 - _SKETCH_BITS)
    first = order.astype(np.uint64) << shift
    last = first | ((np.uint64(1) << shift) - np.uint64(1))

    def value(key: np.ndarray) -> np.ndarray:
        positive = (key & _SIGN) != 0
        bits = np.where(positive, key ^ _SIGN, ~key)
        return bits.view(np.float64)

    a, b = value(first), value(last)
    with np.errstate(invalid="ignore"):
        return np.fmin(a, b), np.fmax(a, b)


class _AskedPoints(RareValues):
    """Values to avoid that record the numbers a placement checks, and hit none of them."""

    def __init__(self) -> None:
        super().__init__([], 1)
        self.points: list[np.ndarray] = []

    def hit_mask(self, points: ArrayLike, rtol: float = MATCH_RTOL) -> np.ndarray:
        """Record `points`; none is a rare value."""
        p = np.asarray(points, dtype=float)
        self.points.append(p.ravel())
        return np.zeros(p.shape, dtype=bool)


class _CountedRare(RareValues):
    """The rare values of a dask column, counted at the numbers a release asks about.

    Stands for the rare values of the column (held by fewer than `threshold`
    records, overall or within a hue level) where
    :func:`~safeplot.anonymize.grids.safe_edges` looks for them: asked about
    points, it answers from the records counted at those numbers, which the
    counting pass counted ahead for the numbers the release draws first. A
    point not counted yet is counted in a further pass, with the grids
    shifted and widened from it that a placement tries next. The answers are
    those of :func:`~safeplot.anonymize.grids.hit_mask` on the full list of
    rare values; ``numpy.asarray`` gives that list (a pass counting every
    distinct value).
    """

    def __init__(self, source: DaskColumns, j: int, threshold: int, per_level: bool) -> None:
        super().__init__([], threshold)
        self._source, self._j, self.per_level = source, j, per_level
        self._counted = np.array([])
        self._rare = np.array([])

    def __repr__(self) -> str:
        return (
            f"_CountedRare(column={self._source.columns[self._j]!r}, threshold={self.threshold})"
        )

    def values(self) -> np.ndarray:
        """Every rare value of the column, sorted (one pass over every distinct value)."""
        if self._sorted is None:
            (self._sorted,) = self._source.rare_columns(
                [self._j], self.threshold, step=None, per_level=self.per_level
            )
        return self._sorted

    def uncounted(self, numbers: ArrayLike) -> np.ndarray:
        """Return the distinct finite `numbers` at which the records have not been counted.

        Numbers beyond the column's extremes (by more than the match
        tolerance) hold no record: they need no count.
        """
        p = np.unique(np.asarray(numbers, dtype=float))
        lo, hi = self._source.lo[self._j], self._source.hi[self._j]
        pad = 2 * _NEAR_RTOL * max(abs(lo), abs(hi))
        p = p[(p >= lo - pad) & (p <= hi + pad)]
        c = self._counted
        if not c.size or not p.size:
            return p
        pos = np.clip(np.searchsorted(c, p), 1, max(c.size - 1, 1))
        near = np.minimum(np.abs(c[pos - 1] - p), np.abs(c[np.minimum(pos, c.size - 1)] - p))
        return p[near > 1e-12 * np.abs(p)]

    def counted(self, numbers: np.ndarray, rare: np.ndarray) -> None:
        """Note that the records at `numbers` were counted and `rare` found among them."""
        self._counted = np.union1d(self._counted, numbers)
        self._rare = np.union1d(self._rare, rare)

    def hit_mask(self, points: ArrayLike, rtol: float = MATCH_RTOL) -> np.ndarray:
        """Tell, per point, whether it equals (within `rtol`) a rare value, as :func:`hit_mask`."""
        if self._sorted is not None:
            return hit_mask(points, self._sorted, rtol)
        new = self.uncounted(points)
        if new.size:
            src, j = self._source, self._j
            hist, grid = (), None
            edges = _edges_asked(np.asarray(points, dtype=float).ravel())
            if edges is not None:  # a placement checking new edges: count on them as well
                src._placed[j] = edges
                plan = src._plans.get(j)
                if isinstance(plan, _HistPlan) and src._from_fine(j, edges, plan.within) is None:
                    hist = [src._fine_job(j, edges, plan.within)]
                elif isinstance(plan, _GridPlan) and len(src._placed) == 2:
                    grid = (src._placed[0], src._placed[1])
            src._count_at({j: self}, {j: _next_tries(new)}, hist=hist, grid=grid)
        return hit_mask(points, self._rare, rtol)


def _edges_asked(points: np.ndarray) -> np.ndarray | None:
    """Return the edges of `points` when they are a grid's edges followed by its centres."""
    n = points.size
    if n < 3 or n % 2 == 0:
        return None
    edges, centres = points[: (n + 1) // 2], points[(n + 1) // 2 :]
    if not (np.diff(edges) > 0).all():
        return None
    mid = (edges[:-1] + edges[1:]) / 2
    return edges if np.allclose(centres, mid, rtol=1e-9, atol=0) else None


def _next_tries(points: np.ndarray) -> np.ndarray:
    """`points` and the grids a placement tries after them: shifted, then widened."""
    if points.size < 2:
        return points
    step = float(np.median(np.diff(points)))
    if not step > 0:
        return points
    mid, half = (points[0] + points[-1]) / 2, (points[-1] - points[0]) / 2
    out = [points]
    try:
        base = nice_step(step * (1 - 1e-9))
        for _ in range(6):
            reach = half * base / step + 2 * base
            fracs = sorted({*_OFFSETS, *((f + 0.5) % 1 for f in _OFFSETS)})
            out.append(_grid_numbers(mid - reach, mid + reach, base, fracs))
            base = _next_nice(base)
    except _TooManyNumbers:
        pass  # these points alone, then: later tries are counted as they come
    return np.concatenate(out)


#: The summary pass of the last source, by the columns it read (see `_origins`), until a
#: source on the same columns takes it.
_SUMMARIES: dict = {}


def _origins(frame: Any, columns: Sequence[str]) -> tuple | None:
    """Name each column by the dask expression it is read from, through renames and frames.

    ``data[["x", "y"]]`` and ``data["x"].to_frame("x").assign(y=data["y"])``
    read the same columns of the same expression: both give the same names,
    so the summary of one serves the other. None when a column's origin is
    not a plain column of an expression (nothing is shared then).
    """
    try:
        from dask.dataframe.dask_expr._expr import Assign, Projection, ToFrame
    except ImportError:  # pragma: no cover - older dask
        return None
    out = []
    for c in columns:
        expr, col = frame.expr, c
        for _ in range(32):
            if isinstance(expr, Projection) and not isinstance(expr.operand("columns"), list):
                expr, col = expr.frame, expr.operand("columns")
            elif isinstance(expr, ToFrame) and expr.operand("name") == col:
                expr, col = expr.frame, None
            elif isinstance(expr, Assign):
                ops = expr.operands[1:]
                named = [
                    v
                    for k, v in zip(ops[0::2], ops[1::2], strict=False)
                    if type(k) is str and k == col
                ]
                expr, col = (named[-1], None) if named else (expr.frame, col)
            else:
                break
            if col is None:  # a series: its own origin
                if not isinstance(expr, Projection):
                    return None
                expr, col = expr.frame, expr.operand("columns")
        out.append((expr._name, col))
    return tuple(out)


# -- the aggregates of one or two numeric columns ------------------------------------------


class DaskColumns:
    """The aggregates of numeric columns (and a hue) of a dask DataFrame, computed on demand.

    Creating it makes the summary pass; :meth:`rare`, :meth:`histogram` and
    :meth:`grid` make the counting pass, which counts the histogram (or grid)
    and the records equal to the numbers the figure could draw together.

    Parameters
    ----------
    frame : dask DataFrame
        The data; only `columns` and `hue` are read.
    columns : list of str
        The numeric columns (one for a histogram, two for a grid).
    hue : str, optional
        A categorical column: aggregates per level.
    hue_order : list, optional
        The levels to plot, in order.
    function : str
        Calling function, for messages.
    restrict : bool, default False
        Leave out rows whose hue level is not in `hue_order` from every
        aggregate (kdeplot); otherwise they count for ranges and rare values
        but belong to no level (histplot).
    level_dtype : bool, default True
        Order levels as seaborn does on the hue column (its categories for
        a categorical); False: as the density grid does, on the plain values.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> data = dd.from_pandas(pd.DataFrame({"x": [1.5, 2.0, 2.0, 7.25]}), npartitions=2)
    >>> src = DaskColumns(data, ["x"])
    >>> src.n, src.lo, src.hi
    (4, [1.5], [7.25])
    >>> src.histogram(0, [0.0, 5.0, 10.0])[0]
    array([[3, 1]])
    """

    def __init__(
        self,
        frame: Any,
        columns: Sequence[str],
        *,
        hue: str | None = None,
        hue_order: Sequence[Any] | None = None,
        function: str = "histplot",
        restrict: bool = False,
        level_dtype: bool = True,
    ) -> None:
        self.columns = [str(c) for c in columns]
        self.hue = hue
        self.function = function
        self.restrict = restrict
        self.has_hue = hue is not None
        used = [*self.columns, *([hue] if hue is not None else [])]
        self.frame = frame[used]
        meta = self.frame._meta
        for c in self.columns:  # dtype errors (booleans, dates) before any work
            _numeric_column(c, meta[c])
        self._parts = self.frame.to_delayed()
        sketch = function == "histplot" and len(self.columns) == 1
        origin = _origins(frame, used), sketch
        summary = _SUMMARIES.pop(origin, None)
        if summary is None:
            summary = _compute(
                [_delayed(_summary_part)(p, self.columns, hue, sketch) for p in self._parts]
            )
            if origin[0] is not None:  # the next call on these columns (a colour bar) takes it
                _SUMMARIES.clear()
                _SUMMARIES[origin] = summary
        self._summarise(summary)
        groups = pd.concat([s["groups"] for s in summary if len(s["groups"])])
        if hue is None:
            self.levels: list = [None]
        else:
            present = groups.index
            if level_dtype:
                order_of = pd.Series(present).drop_duplicates()
                dtype = summary[0]["hue_dtype"]
                if isinstance(dtype, pd.CategoricalDtype):
                    order_of = order_of.astype(dtype)
            else:
                order_of = pd.Series(list(dict.fromkeys(present.tolist())))
            self.levels = categorical_order(order_of, hue_order)
        codes = _codes(pd.DataFrame({"h": groups.index}), "h" if hue else None, self.levels)
        n_levels = len(self.levels)
        sizes = np.zeros(n_levels, dtype=np.int64)
        np.add.at(sizes, codes[codes >= 0], groups["n"].to_numpy()[codes >= 0])
        self.level_sizes = sizes
        use = (codes >= 0) if restrict else np.ones(len(groups), dtype=bool)
        if restrict and not use.any():
            raise ValueError(
                f"{function}: no record has a hue level in hue_order={list(self.levels)}. "
                "Check the level names."
            )
        self.n = int(groups["n"].to_numpy()[use].sum())
        self.lo = [float(groups[f"min{j}"].to_numpy()[use].min()) for j in range(len(columns))]
        self.hi = [float(groups[f"max{j}"].to_numpy()[use].max()) for j in range(len(columns))]
        self._check_spread()
        self._sketch = self._merge_sketch(summary) if sketch and not restrict else None
        self._plans: dict[int, Any] = {}
        self._placed: dict[int, np.ndarray] = {}
        self._fine: dict[tuple, list[np.ndarray]] = {}
        self._fine_grid: tuple[np.ndarray, np.ndarray] | None = None
        self._exact: dict[int, dict[float, np.ndarray]] = {j: {} for j in range(len(columns))}
        self._counted: dict[int, np.ndarray] = {j: np.array([]) for j in range(len(columns))}
        self._rare_cache: dict = {}
        self._hist_cache: dict = {}
        self._grid_cache: dict = {}
        #: passes over the partitions so far (the summary included)
        self.passes = 1

    def _summarise(self, summary: list[dict]) -> None:
        rows = sum(s["rows"] for s in summary)
        if rows == 0:
            raise ValueError("The data are empty (no rows). There is nothing to release.")
        inf = np.any([s["inf"] for s in summary], axis=0)
        if inf.any():
            bad = [c for c, b in zip(self.columns, inf, strict=True) if b]
            raise ValueError(
                f"Column(s) {bad} contain infinite values. Replace them with NaN (to drop those "
                "rows) or with a real value before releasing."
            )
        present = np.sum([s["present"] for s in summary], axis=0)
        for c, p in zip(self.columns, present, strict=True):
            if p == 0:
                raise ValueError(
                    f"Column {c!r} has no values (all missing). Choose another column."
                )
        complete = sum(int(s["groups"]["n"].sum()) for s in summary)
        if complete == 0:
            used = self.columns + ([self.hue] if self.hue else [])
            raise ValueError(f"No complete rows: every row has a missing value in {used}.")
        self.n_rows = rows
        self.n_dropped = rows - complete
        self.nonint = []
        self.zeros = np.sum([s["zeros"] for s in summary], axis=0)
        for j in range(len(self.columns)):
            found = [s["nonint"][j] for s in summary if s["nonint"][j] is not None]
            self.nonint.append(found[0] if found else None)

    @staticmethod
    def _merge_sketch(summary: list[dict]) -> dict:
        counts = np.zeros(1 << _SKETCH_BITS, dtype=np.int64)
        n, mean, m2 = 0, 0.0, 0.0
        for s in summary:
            sk = s.get("sketch")
            if sk is None:
                continue
            np.add.at(counts, sk["buckets"], sk["counts"])
            nb, mb, m2b = sk["moments"]
            if nb:  # the parallel update of the mean and the sum of squared deviations
                total = n + nb
                delta = mb - mean
                mean += delta * nb / total
                m2 += m2b + delta * delta * n * nb / total
                n = total
        buckets = np.flatnonzero(counts)
        return {"buckets": buckets, "cum": np.cumsum(counts[buckets]), "std": math.sqrt(m2 / n)}

    def _check_spread(self) -> None:
        for j, c in enumerate(self.columns):
            lo, hi = self.lo[j], self.hi[j]
            if max(abs(lo), abs(hi)) > 1e150 or not math.isfinite(hi - lo):
                raise ValueError(
                    f"Column {c!r} has values too large in magnitude to compute a standard "
                    "deviation (beyond about 1e150). Rescale it (e.g. change units) first."
                )
            if hi == lo:
                raise DisclosureError(
                    f"Column {c!r} is constant among the complete rows: plotting it would show "
                    "its one value exactly and it has no spread to anonymise. Drop it or choose "
                    "another column."
                )

    def _run(self, func, *args) -> list:
        common = (self.columns, self.hue, self.levels, self.restrict)
        self.passes += 1
        return _compute([_delayed(func)(p, *common, *args) for p in self._parts])

    def _pass(self, *, hist=(), grid=None, cand=(), near=()) -> dict:
        """One pass over the partitions, added up on the workers: one result comes back."""
        import dask

        spec = dask.delayed(
            {"hist": list(hist), "grid": grid, "cand": list(cand), "near": list(near)},
            pure=True,
        )
        common = (self.columns, self.hue, self.levels, self.restrict)
        tasks = [_delayed(_count_part)(p, *common, spec) for p in self._parts]
        self.passes += 1
        (result,) = _compute([_tree(tasks, _combine)])
        for (j, edges, within), counts in zip(hist, result["hist"], strict=True):
            self._hist_cache[_hist_key(j, edges, within)] = counts[:2]
        if grid is not None:
            self._grid_cache[_grid_key(*grid)] = result["grid"]
        return result

    # -- what the release code asks for ----------------------------------------------------

    def span_values(self, j: int) -> np.ndarray:
        """Return a few values with the column's extremes and (non-)integer character.

        :func:`~safeplot.anonymize.grids.safe_edges` and the discrete bins of a
        histogram look at nothing else of the data (a bin rule is given apart).
        """
        odd = self.nonint[j]
        extra = [] if odd is None or not self.lo[j] <= odd <= self.hi[j] else [odd]
        return np.array([self.lo[j], self.hi[j], *extra], dtype=float)

    def plan(self, j: int, plan: Any) -> None:
        """Record how the release will place the edges of column `j` (see :meth:`rare`)."""
        self._plans[j] = plan

    def rare(
        self,
        j: int,
        threshold: int,
        *,
        step: float | None,
        per_level: bool = False,
        points: Sequence[float] = (),
    ) -> np.ndarray | RareValues:
        """Return the rare values of column `j` that a number of the figure could equal.

        With a placement recorded by :func:`histogram_step` or
        :func:`grid_step`: a :class:`~safeplot.anonymize.grids.RareValues`
        that :func:`~safeplot.anonymize.grids.safe_edges` asks about the
        numbers it places. This call makes the counting pass: it places the
        edges as the release will, and counts the histogram (or grid) on them
        together with the records equal to each of their edges and bin
        centres, so those questions are answered
        without reading the data again. Without a placement: the rare values
        near the decimal grid of `step`, as an array.

        Parameters
        ----------
        j : int
            Column index.
        threshold : int
            The minimum count.
        step : float or None
            Without a recorded placement: the smallest step of any grid that
            will be placed; only values near the decimal grid of that step's
            precision (and zero or at least ``0.06 * step`` in magnitude, as
            every number of such a grid is) are counted. None: every value
            (kdeplot).
        per_level : bool
            Also the values rare within a hue level.
        points : sequence of float
            Further numbers to check (explicit bin edges).
        """
        return self.rare_columns([j], threshold, step=step, per_level=per_level, points=points)[0]

    def rare_columns(
        self,
        js: Sequence[int],
        threshold: int,
        *,
        step: float | None,
        per_level: bool = False,
        points: Sequence[float] = (),
    ) -> list[np.ndarray | RareValues]:
        """Return :meth:`rare` of several columns, counted in the same passes."""
        js = list(js)
        key = (tuple(js), threshold, per_level, tuple(np.asarray(points, dtype=float).tolist()))
        if step is not None and all(j in self._plans for j in js):
            try:
                return self._rare_placed(js, threshold, per_level, np.asarray(points, float))
            except _TooManyNumbers:
                pass  # edges too uneven to list their numbers: every value near the grid
        return self._rare_near(js, threshold, step, per_level, key)

    def _rare_from(self, counts, pairs, values, threshold, per_level) -> np.ndarray:
        """Rare values among exact counts per candidate and (row, value) counts of near values."""
        n_levels = len(self.levels)
        rare = [np.array([])]
        if counts is not None and values.size:
            total = counts.sum(axis=0)
            rare.append(values[(total > 0) & (total < threshold)])
            if per_level:
                lev = counts[:n_levels]
                rare.append(values[((lev > 0) & (lev < threshold)).any(axis=0)])
        if len(pairs):
            table = pairs.rename("n").reset_index()
            table.columns = ["code", "value", "n"]
            overall = table.groupby("value")["n"].sum()
            rare.append(overall.index[overall.to_numpy() < threshold].to_numpy(float))
            if per_level:
                lev = table[(table["code"] < n_levels) & (table["n"] < threshold)]
                rare.append(lev["value"].to_numpy(dtype=float))
        return np.unique(np.concatenate(rare))

    def _rare_near(self, js, threshold, step, per_level, key) -> list[np.ndarray]:
        """Rare values near the decimal grid of `step` (every distinct value: `step` None)."""
        cache_key = ("near", step, key)
        if cache_key in self._rare_cache:
            return self._rare_cache[cache_key]
        jobs, out = [], {}
        for j in js:
            if step is None:
                jobs.append((j, None, 0.0))
                continue
            min_abs = _MIN_ABS * step
            if max(abs(self.lo[j]), abs(self.hi[j])) < min_abs and not per_level:
                # only zero can equal a number of such a grid: the summary counted the zeros
                z = int(self.zeros[j])
                out[j] = np.array([0.0]) if 0 < z < threshold else np.array([])
                continue
            jobs.append((j, _decimals(step), min_abs))
        if jobs:
            result = self._pass(near=jobs)
            for (j, _, _), pairs in zip(jobs, result["near"], strict=True):
                out[j] = self._rare_from(None, pairs, np.array([]), threshold, per_level)
        found = [out[j] for j in js]
        self._rare_cache[cache_key] = found
        return found

    def _rare_placed(self, js, threshold, per_level, points) -> list[_CountedRare]:
        """Rare values counted at the numbers drawn on the edges the release will place.

        The edges are placed as the release code will place them (no rare
        value known yet: each number a placement checks is recorded), and one
        pass counts the histogram or grid on them together with the records
        equal to every number checked and every bin centre. The values
        returned answer the release's checks from those counts, and count any
        number not counted yet in a further pass (with the shifted grids the
        release may try next).
        """
        oracles = {j: _CountedRare(self, j, threshold, per_level) for j in js}
        numbers, hist, placed = {}, [], {}
        for j in js:
            plan = self._plans[j]
            asked = _AskedPoints()
            try:
                placed[j] = plan.placements(self, j, asked)
            except (ValueError, TypeError, DisclosureError):
                placed[j] = []  # the release refuses these bins, with its own message
            # the edges and centres of the grids shifted by a quarter, a half or three
            # quarters of a step: the shifts a placement tries first when a number is rare
            shifted = [
                _fine_over(e[0] - _step_of(e), e[-1] + _step_of(e), e, parts=4)
                for e in placed[j][:1]
            ]
            numbers[j] = np.concatenate([points, *asked.points, *shifted])
            if placed[j] and isinstance(plan, _HistPlan):
                hist.append(self._fine_job(j, placed[j][0], plan.within))
        self._placed = {j: placed[j][0] for j in js if placed[j]}
        grid = None
        grids = len(js) == 2 and all(isinstance(self._plans[j], _GridPlan) for j in js)
        if grids and len(self._placed) == 2:
            # a quarter step as fine: the grids shifted by a quarter, a half or three quarters
            grid = tuple(_fine_over(self.lo[j], self.hi[j], self._placed[j], parts=4) for j in js)
            self._fine_grid = grid
        self._count_at(oracles, numbers, hist=hist, grid=grid)
        return [oracles[j] for j in js]

    def _extent(self, j: int, within: tuple | None) -> tuple[float, float]:
        """Return the range of the values of column `j` (in `within`, if given)."""
        if within is None:
            return self.lo[j], self.hi[j]
        return max(self.lo[j], within[0]), min(self.hi[j], within[1])

    def _fine_job(self, j: int, edges: np.ndarray, within: tuple | None) -> tuple:
        """Return a histogram job on a grid fine enough for `edges` and its shifts.

        The fine grid divides the step of `edges` into 80 parts (fewer when
        that makes too many bins) over the range of the values: its counts add
        up to the counts on any grid whose edges inside that range are its
        points, e.g. the grids shifted by any fraction of the step a placement
        tries, or widened to a multiple of it.
        """
        lo, hi = self._extent(j, within)
        fine = edges if not hi > lo else _fine_over(lo, hi, edges, parts=80)
        self._fine.setdefault((j, within), []).append(fine)
        return j, fine, within

    def _count_at(self, oracles: dict, numbers: dict, *, hist=(), grid=None) -> None:
        """Count the records equal to `numbers` (per column) in one pass; tell the `oracles`."""
        # numbers that are edges of a histogram counted in this pass are counted with it
        fine = {j: e for j, e, within in hist if within is None and j in oracles}
        cand = []
        for j, nums in numbers.items():
            new = oracles[j].uncounted(nums)
            if j in fine:
                e = fine[j]
                pos = np.minimum(np.searchsorted(e, new), e.size - 1)
                new = new[e[pos] != new]
            if new.size:
                cand.append((j, _candidates(new)))
        if not cand and not hist and grid is None:
            return
        result = self._pass(hist=hist, grid=grid, cand=cand)
        counted = [
            (j, c["values"], *res) for (j, c), res in zip(cand, result["cand"], strict=True)
        ]
        for (j, edges, _), res in zip(hist, result["hist"], strict=True):
            if j in oracles and res[2] is not None:
                counted.append((j, edges, res[2], res[3]))
        for j, values, counts, pairs in counted:
            # the records exactly at each number, per level row (a closed last bin needs them)
            held = np.flatnonzero(counts.any(axis=0))
            self._exact[j].update(zip(values[held].tolist(), counts[:, held].T, strict=True))
            self._counted[j] = np.union1d(self._counted[j], values)
            oracle = oracles[j]
            found = self._rare_from(counts, pairs, values, oracle.threshold, oracle.per_level)
            oracle.counted(values, found)

    def rule_bins(self, j: int, rule: str) -> int:
        """Return the number of bins numpy's rule `rule` gives for column `j`.

        From the sketch of the summary pass when it settles the edges (the
        quartiles of ``"auto"`` and ``"fd"`` are bracketed by its buckets, and
        every bin count between the bounds gives the same edges); otherwise
        from exact statistics.
        """
        if self.n <= COLLECT_LIMIT:
            x = np.concatenate(self._run(_collect_part, j, -math.inf, math.inf, True))
            return _rule_bin_count(x, rule)
        if rule in ("doane", "stone"):
            raise ValueError(
                f"{self.function}: bins={rule!r} needs every value in memory; with a dask "
                "DataFrame give bins as a number, or a rule such as 'auto', 'fd' or 'sturges'."
            )
        span = self.hi[j] - self.lo[j]
        sk = self._sketch if j == 0 else None
        if sk is not None and rule in ("auto", "fd"):
            (q75_lo, q75_hi), (q25_lo, q25_hi) = self._percentile_bounds([75, 25])
            counts = {
                rule_bin_count(rule, self.n, span, lambda: sk["std"], lambda iqr=iqr: iqr)
                for iqr in (max(q75_lo - q25_hi, 0.0), q75_hi - q25_lo)
            }
            low, high = min(counts), max(counts)
            if high - low <= 2000:
                span_values = self.span_values(j)
                edges = {
                    safe_edges(span_values, rule, n_bins=nb).tobytes()
                    for nb in range(low, high + 1)
                }
                if len(edges) == 1:
                    return low
        std = (lambda: sk["std"]) if sk is not None else (lambda: self._std(j))
        return rule_bin_count(
            rule,
            self.n,
            span,
            std,
            lambda: float(np.subtract(*self.percentiles(j, [75, 25]))),
        )

    def _rank_bounds(self, rank: int) -> tuple[float, float, int, int]:
        """Return the sketch bucket holding `rank`: its bounds, the values below, its size."""
        sk = self._sketch
        b = int(np.searchsorted(sk["cum"], rank, side="right"))
        below = int(sk["cum"][b - 1]) if b else 0
        lo, hi = _bucket_bounds(sk["buckets"][b : b + 1])
        size = int(sk["cum"][b]) - below
        lo, hi = max(float(lo[0]), self.lo[0]), min(float(hi[0]), self.hi[0])
        if lo <= 0 <= hi:  # -0.0 and 0.0 fall in two buckets: take the whole range
            return self.lo[0], self.hi[0], 0, self.n
        return lo, hi, below, size

    def _percentile_bounds(self, q: Sequence[float]) -> list[tuple[float, float]]:
        n = self.n
        out = []
        for p in q:
            virtual = (n - 1) * p / 100
            prev = math.floor(virtual)
            nxt = min(prev + 1, n - 1)
            lo = self._rank_bounds(prev)[0]
            hi = self._rank_bounds(nxt)[1]
            out.append((lo, hi))
        return out

    def _std(self, j: int) -> float:
        n, total = np.sum(self._run(_moments_part, j, None), axis=0)
        mean = total / n
        _, squares = np.sum(self._run(_moments_part, j, float(mean)), axis=0)
        return float(np.sqrt(squares / n))

    def order_statistics(self, j: int, ranks: Sequence[int]) -> list[float]:
        """Return the values of rank `ranks` (0-based) of column `j`, exactly.

        Each rank starts in its bucket of the summary's sketch (or the whole
        range); each pass counts the values in the interval still holding a
        rank, cut into 4096 parts, and keeps the part holding it; once an
        interval has at most :data:`COLLECT_LIMIT` values (or one distinct
        value) they are collected and sorted.
        """
        state = []
        for r in ranks:
            if self._sketch is not None and j == 0:
                lo, hi, below, size = self._rank_bounds(r)
                state.append({"lo": lo, "hi": hi, "closed": True, "below": below, "n": size})
            else:
                state.append(
                    {"lo": self.lo[j], "hi": self.hi[j], "closed": True, "below": 0, "n": self.n}
                )
        result: list[float | None] = [None] * len(ranks)
        for _ in range(64):
            todo = [i for i, r in enumerate(result) if r is None]
            if not todo:
                break
            for i in todo:
                if state[i]["lo"] == state[i]["hi"]:
                    result[i] = state[i]["lo"]
            collect = [i for i in todo if result[i] is None and state[i]["n"] <= COLLECT_LIMIT]
            if collect:  # every interval to collect in one pass
                keys = list(
                    dict.fromkeys(
                        (state[i]["lo"], state[i]["hi"], state[i]["closed"]) for i in collect
                    )
                )
                per_part = self._run(_collect_many_part, j, keys)
                for i in collect:
                    s = state[i]
                    k = keys.index((s["lo"], s["hi"], s["closed"]))
                    v = np.sort(np.concatenate([p[k] for p in per_part]))
                    result[i] = float(v[ranks[i] - s["below"]])
            narrow = [i for i in todo if result[i] is None]
            if not narrow:
                break
            # ranks in the same interval share its pass
            keys = list(
                dict.fromkeys((state[i]["lo"], state[i]["hi"], state[i]["closed"]) for i in narrow)
            )
            intervals = [(np.linspace(lo, hi, _SPLITS + 1), closed) for lo, hi, closed in keys]
            per_part = self._run(_narrow_part, j, intervals)
            for i in narrow:
                s = state[i]
                k = keys.index((s["lo"], s["hi"], s["closed"]))
                counts = np.sum([p[k][0] for p in per_part], axis=0)
                lo = min(p[k][1] for p in per_part)
                hi = max(p[k][2] for p in per_part)
                if lo == hi:
                    result[i] = lo
                    continue
                edges = intervals[k][0]
                cum = np.cumsum(counts)
                b = int(np.searchsorted(cum, ranks[i] - s["below"], side="right"))
                s["below"] += int(cum[b - 1]) if b else 0
                s["n"] = int(counts[b])
                s["closed"] = s["closed"] and b == edges.size - 2
                s["lo"], s["hi"] = float(edges[b]), float(edges[b + 1])
        if any(r is None for r in result):  # pragma: no cover - 64 passes always suffice
            raise RuntimeError("Could not locate the order statistics.")
        return [float(r) for r in result]

    def percentiles(self, j: int, q: Sequence[float]) -> list[float]:
        """Exact ``np.percentile(column, q)`` (linear method) from order statistics."""
        n = self.n
        quant = np.true_divide(np.asarray(q, dtype=float), 100)
        virtual = (n - 1) * quant
        prev = np.floor(virtual).astype(np.int64)
        nxt = np.minimum(prev + 1, n - 1)
        wanted = sorted(set(prev.tolist()) | set(nxt.tolist()))
        stats = dict(zip(wanted, self.order_statistics(j, wanted), strict=True))
        a = np.array([stats[i] for i in prev])
        b = np.array([stats[i] for i in nxt])
        gamma = np.asanyarray(virtual - prev)
        diff = b - a
        out = np.add(a, diff * gamma)
        np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5)
        return [float(v) for v in out]

    def histogram(
        self, j: int, edges: np.ndarray, *, within: tuple[float, float] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Count column `j` per hue level in `edges` (numpy's bins); also each level's size.

        Only values in `within` (closed) are counted when given, and the sizes
        are of those values. The counts come from the counting pass when it
        counted these edges already.
        """
        edges = np.asarray(edges, dtype=float)
        within = None if within is None else tuple(float(v) for v in within)
        key = _hist_key(j, edges, within)
        if key not in self._hist_cache:
            found = self._from_fine(j, edges, within)
            if found is not None:
                self._hist_cache[key] = found
            else:
                self._pass(hist=[(j, edges, within)])
        return self._hist_cache[key]

    def _from_fine(self, j: int, edges: np.ndarray, within: tuple | None) -> tuple | None:
        """Return the histogram on `edges` added up from a finer one counted before (or None)."""
        for fine in self._fine.get((j, within), []):
            counts, sizes = self._hist_cache[_hist_key(j, fine, within)]
            coarse = _coarsen(counts, fine, edges)
            if coarse is None:
                continue
            if fine[0] < edges[-1] < fine[-1]:  # values on the last edge: the last bin's
                at_last = self._at(j, edges[-1], within)
                if at_last is None:
                    continue
                coarse[:, -1] += at_last[: coarse.shape[0]]
            return coarse, sizes
        return None

    def _at(self, j: int, value: float, within: tuple[float, float] | None) -> np.ndarray | None:
        """Return the records exactly equal to `value` per level row (None: not counted)."""
        if not self.lo[j] <= value <= self.hi[j]:  # beyond the extremes: no record
            return np.zeros(len(self.levels) + 1, dtype=np.int64)
        c = self._counted[j]
        pos = int(np.searchsorted(c, value))
        if pos >= c.size or c[pos] != value:
            return None
        if within is not None and not within[0] <= value <= within[1]:
            return np.zeros(len(self.levels) + 1, dtype=np.int64)
        return self._exact[j].get(float(value), np.zeros(len(self.levels) + 1, dtype=np.int64))

    def grid(self, xedges: np.ndarray, yedges: np.ndarray) -> np.ndarray:
        """Count the two columns per hue level in the grid of `xedges` x `yedges`."""
        xedges = np.asarray(xedges, dtype=float)
        yedges = np.asarray(yedges, dtype=float)
        key = _grid_key(xedges, yedges)
        if key not in self._grid_cache and self._fine_grid is not None:
            fine = self._grid_cache[_grid_key(*self._fine_grid)]
            coarse = _coarsen(fine, self._fine_grid[0], xedges, axis=1)
            if coarse is not None:
                coarse = _coarsen(coarse, self._fine_grid[1], yedges, axis=2)
            # records on the last (closed) edge of either axis would need a count of their own
            ends = [
                self._at(j, e[-1], None) if f[0] < e[-1] < f[-1] else np.zeros(1)
                for j, e, f in ((0, xedges, self._fine_grid[0]), (1, yedges, self._fine_grid[1]))
            ]
            if coarse is not None and all(a is not None and not a.any() for a in ends):
                self._grid_cache[key] = coarse
        if key not in self._grid_cache:
            self._pass(grid=(xedges, yedges))
        return self._grid_cache[key]


def _fine_over(lo: float, hi: float, edges: np.ndarray, parts: int) -> np.ndarray:
    """Return a grid `parts` times as fine as regular `edges`, strictly around [lo, hi].

    Its points are multiples of the finer step, so every edge of `edges` in
    [lo, hi] (and of a grid shifted by a multiple of the finer step) is one.
    Uneven `edges` are returned as they are.
    """
    widths = np.diff(edges)
    step = float(widths.min())
    if np.ptp(widths) > 1e-9 * step:
        return edges
    while parts > 1 and (hi - lo) / (step / parts) > 200_000:
        parts //= 2
    unit = step / parts
    first = math.floor(lo / unit) * unit - unit
    fine = _on_grid(first, unit, math.ceil((hi - first) / unit) + 2)
    if not (fine[0] < lo and fine[-1] > hi):
        return edges
    return fine


def _coarsen(counts: np.ndarray, fine: np.ndarray, edges: np.ndarray, axis: int = 1):
    """Return counts on `edges` from counts on a finer grid holding them (None: it does not).

    Every edge strictly inside the fine grid must be one of its points; the
    fine grid lies strictly around the values, so bins beyond it are empty.
    The values on the last edge of `edges` (its last bin is closed) are left
    to the caller.
    """
    inner = (edges > fine[0]) & (edges < fine[-1])
    pos = np.searchsorted(fine, edges)
    if not np.array_equal(fine[pos[inner]], edges[inner]):
        return None
    pos = np.clip(pos, 0, fine.size - 1)
    shape = list(counts.shape)
    shape[axis] = 1
    cum = np.concatenate([np.zeros(shape, dtype=counts.dtype), np.cumsum(counts, axis=axis)], axis)
    return np.take(cum, pos[1:], axis=axis) - np.take(cum, pos[:-1], axis=axis)


def _hist_key(j: int, edges: np.ndarray, within: tuple[float, float] | None) -> tuple:
    return j, np.asarray(edges, dtype=float).tobytes(), within


def _grid_key(xedges: np.ndarray, yedges: np.ndarray) -> tuple:
    return np.asarray(xedges, dtype=float).tobytes(), np.asarray(yedges, dtype=float).tobytes()


def _collect_part(part, columns, hue, levels, restrict, j, lo, hi, closed) -> np.ndarray:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[j]
    inside = (v >= lo) & ((v <= hi) if closed else (v < hi))
    return v[inside]


def _collect_many_part(part, columns, hue, levels, restrict, j, intervals) -> list:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[j]
    return [v[(v >= lo) & ((v <= hi) if closed else (v < hi))] for lo, hi, closed in intervals]


def _narrow_part(part, columns, hue, levels, restrict, j, intervals) -> list:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[j]
    out = []
    for edges, closed in intervals:
        inside = (v >= edges[0]) & ((v <= edges[-1]) if closed else (v < edges[-1]))
        w = v[inside]
        idx = np.clip(np.searchsorted(edges, w, side="right") - 1, 0, edges.size - 2)
        counts = np.bincount(idx, minlength=edges.size - 1)
        out.append(
            (
                counts,
                float(w.min()) if w.size else math.inf,
                float(w.max()) if w.size else -math.inf,
            )
        )
    return out


def _moments_part(part, columns, hue, levels, restrict, j, mean) -> tuple[int, float]:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[j]
    if mean is None:
        return v.size, float(np.sum(v))
    return v.size, float(np.sum((v - mean) ** 2))


# -- the placements the release code will make -----------------------------------------------


def histogram_step(
    source: DaskColumns,
    j: int,
    *,
    bins: Any,
    binwidth: float | None,
    binrange: tuple[float, float] | None,
    discrete: bool | None,
    n_bins: int | None,
) -> tuple[float, tuple[float, ...]]:
    """Record how a histogram of column `j` places its edges; return a step and explicit edges.

    The arguments are those of the release's edge placement, so that
    :meth:`DaskColumns.rare` can place the same edges and count the records
    on every number they draw. The step returned is the smallest step any
    grid of them could have (for sources without a recorded placement).
    """
    source.plan(j, _HistPlan(bins, binwidth, binrange, discrete, n_bins))
    if discrete:
        return 0.15, ()
    if binwidth is not None:
        return 0.15 * float(binwidth), ()
    if not isinstance(bins, (str, int, np.integer)):
        edges = np.asarray(bins, dtype=float)
        diffs = np.diff(edges)
        return 0.15 * float(diffs.min()) if diffs.size else 1.0, tuple(edges.tolist())
    lo, hi = (source.lo[j], source.hi[j]) if binrange is None else binrange
    span = hi - lo if hi > lo else max(abs(lo), 1.0)
    if isinstance(bins, str):
        count = n_bins if binrange is None else 10
        return 0.15 * _first_step(span, count or 1, binrange is None), ()
    return 0.15 * _first_step(span, int(bins), False), ()


def _first_step(span: float, n_bins: int, rule: bool) -> float:
    """Return a lower bound of the first (smallest) step :func:`safe_edges` tries."""
    target = span / n_bins
    return 0.4 * target if rule else nice_step(target)


def grid_step(source: DaskColumns, j: int, bins: int) -> float:
    """Record how a density grid places the edges of axis `j`; return their smallest step."""
    source.plan(j, _GridPlan(int(bins)))
    span = source.hi[j] - source.lo[j]
    return 0.15 * _first_step(span, bins, False)


def _pairs_part(part: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    sub = part[keys].reset_index(drop=True)
    counts = sub.groupby(keys, dropna=False, sort=False, observed=True).size()
    first = sub.drop_duplicates()
    return first.merge(counts.rename("\x00n").reset_index(), on=keys, how="left")


# -- count plots -------------------------------------------------------------------------


def dask_count_pairs(data: Any, x: Any, y: Any, hue: Any) -> tuple[pd.DataFrame, np.ndarray]:
    """Count the rows of every (category, hue level) pair of a dask DataFrame, in one pass.

    Missing values are counted as pairs of their own; the pairs come in
    order of first appearance, with the columns' dtypes (a categorical's
    order of categories), so that a count plot lays them out as it lays out
    the records themselves.

    Parameters
    ----------
    data : dask DataFrame
        The records.
    x, y, hue : str or None
        Names of the columns counted (one of `x` and `y`; `hue` optional).

    Returns
    -------
    pairs : DataFrame
        One row per distinct pair, one column per name given.
    weights : ndarray of int
        The rows holding each pair.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> data = dd.from_pandas(pd.DataFrame({"g": ["a", "b", "a", "a"]}), npartitions=2)
    >>> pairs, weights = dask_count_pairs(data, "g", None, None)
    >>> pairs["g"].tolist(), weights.tolist()
    (['a', 'b'], [3, 1])
    """
    if x is None and y is None:
        raise ValueError(
            "countplot: wide-form dask data is not supported; name the column with x= or y=."
        )
    for role, value in (("x", x), ("y", y), ("hue", hue)):
        if value is not None and (
            is_dask_collection(value) or not isinstance(value, str) or value not in data.columns
        ):
            raise ValueError(
                f"countplot: with a dask DataFrame, `{role}` must name one of its columns "
                f"(columns: {list(map(str, data.columns))})."
            )
    keys = list(dict.fromkeys(v for v in (x, y, hue) if v is not None))
    parts = _compute([_delayed(_pairs_part)(p, keys) for p in data[keys].to_delayed()])
    pairs = pd.concat([p for p in parts if len(p)] or parts, ignore_index=True)
    counts = pairs.groupby(keys, dropna=False, sort=False, observed=True)["\x00n"].sum()
    first = pairs[keys].drop_duplicates().reset_index(drop=True)
    first = first.merge(counts.reset_index(), on=keys, how="left")
    for k in keys:  # keep the column's dtype (a categorical's order of categories)
        dtype = data[keys]._meta[k].dtype
        unknown = isinstance(dtype, pd.CategoricalDtype) and (
            "__UNKNOWN_CATEGORIES__" in dtype.categories
        )
        if not unknown:  # unknown categories: as the partitions hold them
            first[k] = first[k].astype(dtype)
    weights = first.pop("\x00n").to_numpy(dtype=np.int64)
    return first, weights
