"""Dask DataFrames as input to the binned plots: counts computed out of core.

:func:`~safeplot.histplot`, :func:`~safeplot.heatmap` (the density grid of
``x=`` and ``y=``), :func:`~safeplot.countplot` and :func:`~safeplot.kdeplot`
accept a :class:`dask.dataframe.DataFrame` as ``data=`` (install the optional
extra ``safeplot[dask]``). The records are never brought into memory: dask
computes, partition by partition, only the aggregates the release needs, and
the release code of the pandas path then runs on those aggregates, so the
released numbers are the same as for the same data in pandas.

What is computed, in passes over the partitions:

1. *Summary*: number of rows, rows dropped for a missing value, infinite
   values (refused as in pandas), and per hue level the number of complete
   rows and the minimum and maximum of each variable.
2. *Bin rule* (only for a rule such as ``bins="auto"``): with at most
   :data:`COLLECT_LIMIT` complete rows, the column itself, on which numpy's
   rule runs as in pandas. Beyond that, the rule from exact aggregates: the
   exact quartiles (``"auto"``, ``"fd"``) by repeatedly counting the values
   in ever narrower intervals around the ranks wanted, the standard
   deviation (``"scott"``, from two sums: equal to numpy's up to rounding).
   ``"doane"`` and ``"stone"`` need every value and are refused then.
3. *Rare values*: edges, bin centres, ticks and limits are placed off every
   raw value held by fewer than `threshold` records. Every such number lies
   on a decimal grid fixed by the smallest step the placement can try, so
   only the values within relative 4e-9 of that grid are counted (with
   ``value_counts``), and of those, the ones with fewer than `threshold`
   records are avoided: exactly the rare values the pandas path could hit.
   :func:`~safeplot.kdeplot` draws density curves through arbitrary points,
   so it counts every distinct value instead.
4. *Counts*: the histogram counts per hue level, the 2-D grid counts, or the
   counts per (category, hue) pair of a count plot.

Memory is bounded by one partition per worker plus the aggregates: the
counts (at most 1000 bins, or 30 x 30 cells, per level), the rare-value
candidates (the distinct values near the decimal grid: few for measured
data, and never more than the distinct values), at most
:data:`COLLECT_LIMIT` values for a bin rule, and for
:func:`~safeplot.kdeplot` the table of distinct values with their counts.

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
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._validate import _numeric_column, is_dask_collection, refuse_dask
from ..anonymize.grids import _rule_bin_count, grid_counts, hit_mask, nice_step, rule_bin_count
from ..errors import DisclosureError

__all__ = [
    "BINNED_METHODS",
    "COLLECT_LIMIT",
    "DaskColumns",
    "check_dask_method",
    "dask_count_table",
    "dask_plot_data",
    "grid_step",
    "histogram_step",
    "is_dask_collection",
    "release_kde_dask",
]

#: Methods a plot of a dask DataFrame supports (they need only counts).
BINNED_METHODS = ("suppress", "generalize")

#: Complete rows up to which a bin rule is computed on the column itself (8 bytes a value).
COLLECT_LIMIT = 2_000_000

#: Functions that take a dask DataFrame.
DASK_FUNCTIONS = ("histplot", "heatmap", "countplot", "kdeplot")

# a value "near" the decimal grid: within this relative distance of a grid point (the
# drawn-number match is 1e-9; the margin covers grid points computed in floating point)
_NEAR_RTOL = 4e-9
# sub-intervals per pass when narrowing down an order statistic
_SPLITS = 4096


def _compute(tasks: list) -> list:
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


def check_dask_method(method: str, function: str, allowed: Sequence[str] = BINNED_METHODS) -> str:
    """Refuse a method that needs every record in memory, for a dask DataFrame.

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
    if method in allowed:
        return method
    if method == "none":
        raise ValueError(
            f"{function}: method='none' draws every record, which needs them in memory; with "
            "a dask DataFrame use method='suppress' or 'generalize', or compute the frame "
            "first (data.compute()) where the policy allows raw output."
        )
    raise ValueError(
        f"{function}: method={method!r} needs every record in memory; with a dask DataFrame "
        "use method='suppress' or 'generalize', or plot a sample: "
        "data.sample(frac=...).compute()"
    )


def dask_plot_data(data: Any, roles: Mapping[str, Any], *, function: str):
    """Resolve seaborn-style variables against a dask DataFrame (names only).

    Returns a :class:`~safeplot.plots._data.PlotData` whose frame is a dask
    DataFrame with one column per role; nothing is computed.
    """
    from ..plots._data import PlotData

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


# -- per-partition work (plain pandas/numpy; run by dask) -----------------------------------


def _values(part: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    if not len(columns):
        return np.empty((len(part), 0))
    return np.column_stack([_numeric_column(c, part[c]) for c in columns])


def _codes(part: pd.DataFrame, hue: str | None, levels: list | None) -> np.ndarray:
    if hue is None or levels is None:
        return np.zeros(len(part), dtype=np.intp)
    index = pd.Index(levels, dtype=object)
    return index.get_indexer(pd.Index(part[hue].to_numpy(dtype=object), dtype=object))


def _complete(part: pd.DataFrame, vals: np.ndarray, hue: str | None) -> np.ndarray:
    keep = ~np.isnan(vals).any(axis=1)
    if hue is not None:
        keep &= part[hue].notna().to_numpy()
    return keep


def _summary_part(part: pd.DataFrame, columns: list[str], hue: str | None) -> dict:
    vals = _values(part, columns)
    keep = _complete(part, vals, hue)
    v = vals[keep]
    nonint = []
    for j in range(v.shape[1]):
        odd = v[:, j] != np.round(v[:, j])
        first = int(odd.argmax()) if odd.size else 0
        nonint.append(float(v[first, j]) if odd.size and odd[first] else None)
    frame = pd.DataFrame(v, columns=range(v.shape[1]))
    if hue is None:
        key = pd.Series(np.zeros(v.shape[0], dtype=int))
    else:
        key = part[hue][keep].reset_index(drop=True)
    grouped = frame.groupby(key, sort=False, observed=True, dropna=True)
    groups = pd.DataFrame({"n": grouped.size()})
    lows, highs = grouped.min(), grouped.max()
    for j in range(v.shape[1]):
        groups[f"min{j}"], groups[f"max{j}"] = lows[j], highs[j]
    return {
        "rows": len(part),
        "inf": np.isinf(vals).any(axis=0),
        "present": (~np.isnan(vals)).sum(axis=0),
        "nonint": nonint,
        "groups": groups,
        "hue_dtype": None if hue is None else part[hue].dtype,
    }


def _selected(part, columns, hue, levels, restrict) -> tuple[np.ndarray, np.ndarray]:
    vals = _values(part, columns)
    keep = _complete(part, vals, hue)
    codes = _codes(part, hue, levels)[keep]
    vals = vals[keep]
    if restrict:
        inside = codes >= 0
        vals, codes = vals[inside], codes[inside]
    return vals, codes


def _near_grid(v: np.ndarray, decimals: int | None, points: np.ndarray) -> np.ndarray:
    """Values within relative 4e-9 of a point of the decimal grid 10**-decimals, or of `points`."""
    if decimals is None:
        return np.ones(v.shape, dtype=bool)
    with np.errstate(invalid="ignore", over="ignore"):
        p = np.round(v, decimals)
        near = np.abs(v - p) <= _NEAR_RTOL * np.maximum(np.abs(v), np.abs(p))
    if points.size:
        near |= hit_mask(v, points, rtol=_NEAR_RTOL)
    return near


def _rare_part(part, columns, hue, levels, restrict, js, decimals, points) -> list[pd.Series]:
    vals, codes = _selected(part, columns, hue, levels, restrict)
    out = []
    for j in js:
        v = vals[:, j]
        near = _near_grid(v, decimals, points)
        pairs = pd.DataFrame({"code": codes[near], "value": v[near]})
        out.append(pairs.groupby(["code", "value"], sort=False).size())
    return out


def _collect_part(part, columns, hue, levels, restrict, j, lo, hi, closed) -> np.ndarray:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[:, j]
    inside = (v >= lo) & ((v <= hi) if closed else (v < hi))
    return v[inside]


def _narrow_part(part, columns, hue, levels, restrict, j, intervals) -> list:
    vals, _ = _selected(part, columns, hue, levels, restrict)
    v = vals[:, j]
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
    v = vals[:, j]
    if mean is None:
        return v.size, float(np.sum(v))
    return v.size, float(np.sum((v - mean) ** 2))


def _hist_part(part, columns, hue, levels, restrict, j, edges, within, n_levels) -> np.ndarray:
    vals, codes = _selected(part, columns, hue, levels, restrict)
    v = vals[:, j]
    if within is not None:
        inside = (v >= within[0]) & (v <= within[1])
        v, codes = v[inside], codes[inside]
    out = np.zeros((n_levels, edges.size), dtype=np.int64)
    for i in range(n_levels):
        w = v[codes == i]
        counts, _ = np.histogram(w, bins=edges)
        out[i, :-1] = counts
        out[i, -1] = w.size
    return out


def _grid_part(part, columns, hue, levels, restrict, xedges, yedges, n_levels) -> np.ndarray:
    vals, codes = _selected(part, columns, hue, levels, restrict)
    out = np.zeros((n_levels, xedges.size - 1, yedges.size - 1), dtype=np.int64)
    for i in range(n_levels):
        w = vals[codes == i]
        out[i] = grid_counts(w[:, 0], w[:, 1], xedges, yedges)
    return out


def _pairs_part(part: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    sub = part[keys].reset_index(drop=True)
    counts = sub.groupby(keys, dropna=False, sort=False, observed=True).size()
    first = sub.drop_duplicates()
    return first.merge(counts.rename("\x00n").reset_index(), on=keys, how="left")


# -- the aggregates of one or two numeric columns ------------------------------------------


class DaskColumns:
    """The aggregates of numeric columns (and a hue) of a dask DataFrame, computed on demand.

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
        from ..plots._data import categorical_order

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
        summary = _compute([_delayed(_summary_part)(p, self.columns, hue) for p in self._parts])
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
        self._rare_cache: dict = {}

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
        for j in range(len(self.columns)):
            found = [s["nonint"][j] for s in summary if s["nonint"][j] is not None]
            self.nonint.append(found[0] if found else None)

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
        return _compute([_delayed(func)(p, *common, *args) for p in self._parts])

    # -- what the release code asks for ----------------------------------------------------

    def span_values(self, j: int) -> np.ndarray:
        """Return a few values with the column's extremes and (non-)integer character.

        :func:`~safeplot.anonymize.grids.safe_edges` and the discrete bins of a
        histogram look at nothing else of the data (a bin rule is given apart).
        """
        odd = self.nonint[j]
        extra = [] if odd is None or not self.lo[j] <= odd <= self.hi[j] else [odd]
        return np.array([self.lo[j], self.hi[j], *extra], dtype=float)

    def rare(
        self,
        j: int,
        threshold: int,
        *,
        step: float | None,
        per_level: bool = False,
        points: Sequence[float] = (),
    ) -> np.ndarray:
        """Return the values of column `j` held by fewer than `threshold` records, near a grid.

        Parameters
        ----------
        j : int
            Column index.
        threshold : int
            The minimum count.
        step : float or None
            The smallest step of any grid of edges, centres or ticks that will
            be placed: only values near the decimal grid of that step's
            precision are counted. None: every value (kdeplot).
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
    ) -> list[np.ndarray]:
        """Return :meth:`rare` of several columns, counted in one pass."""
        decimals = None if step is None else max(0, 3 - math.floor(math.log10(step)))
        pts = np.sort(np.asarray(points, dtype=float))
        found: dict[int, np.ndarray] = {}
        for j in js:
            key = (j, threshold, per_level, tuple(pts))
            for (dec, k), known in self._rare_cache.items():
                if k == key and (dec is None or (decimals is not None and dec >= decimals)):
                    found[j] = known
        todo = [j for j in js if j not in found]
        if todo:
            per_part = self._run(_rare_part, todo, decimals, pts)
            for i, j in enumerate(todo):
                parts = [p[i] for p in per_part if len(p[i])]
                rare = [np.array([])]
                if parts:
                    counts = pd.concat(parts).groupby(level=["code", "value"], sort=False).sum()
                    table = counts.reset_index(name="n")
                    overall = table.groupby("value")["n"].sum()
                    rare.append(overall.index[overall.to_numpy() < threshold].to_numpy(float))
                    if per_level:
                        lev = table[(table["code"] >= 0) & (table["n"] < threshold)]
                        rare.append(lev["value"].to_numpy(dtype=float))
                found[j] = np.unique(np.concatenate(rare))
                self._rare_cache[(decimals, (j, threshold, per_level, tuple(pts)))] = found[j]
        return [found[j] for j in js]

    def rule_bins(self, j: int, rule: str) -> int:
        """Return the number of bins numpy's rule `rule` gives for column `j`."""
        if self.n <= COLLECT_LIMIT:
            x = np.concatenate(self._run(_collect_part, j, -math.inf, math.inf, True))
            return _rule_bin_count(x, rule)
        if rule in ("doane", "stone"):
            raise ValueError(
                f"{self.function}: bins={rule!r} needs every value in memory; with a dask "
                "DataFrame give bins as a number, or a rule such as 'auto', 'fd' or 'sturges'."
            )
        return rule_bin_count(
            rule,
            self.n,
            self.hi[j] - self.lo[j],
            lambda: self._std(j),
            lambda: float(np.subtract(*self.percentiles(j, [75, 25]))),
        )

    def _std(self, j: int) -> float:
        n, total = np.sum(self._run(_moments_part, j, None), axis=0)
        mean = total / n
        _, squares = np.sum(self._run(_moments_part, j, float(mean)), axis=0)
        return float(np.sqrt(squares / n))

    def order_statistics(self, j: int, ranks: Sequence[int]) -> list[float]:
        """Return the values of rank `ranks` (0-based) of column `j`, exactly.

        Each pass counts the values in the interval still holding a rank, cut
        into 4096 parts, and keeps the part holding it; once an interval has
        at most :data:`COLLECT_LIMIT` values (or one distinct value) they are
        collected and sorted.
        """
        state = [
            {"lo": self.lo[j], "hi": self.hi[j], "closed": True, "below": 0, "n": self.n}
            for _ in ranks
        ]
        result: list[float | None] = [None] * len(ranks)
        for _ in range(64):
            todo = [i for i, r in enumerate(result) if r is None]
            if not todo:
                break
            collect = [i for i in todo if state[i]["n"] <= COLLECT_LIMIT]
            for i in collect:
                s = state[i]
                v = np.sort(
                    np.concatenate(self._run(_collect_part, j, s["lo"], s["hi"], s["closed"]))
                )
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

        Only values in `within` (closed) are counted when given; the sizes are
        of the values counted or not (in `within`).
        """
        edges = np.asarray(edges, dtype=float)
        parts = self._run(_hist_part, j, edges, within, len(self.levels))
        total = np.sum(parts, axis=0)
        return total[:, :-1], total[:, -1]

    def grid(self, xedges: np.ndarray, yedges: np.ndarray) -> np.ndarray:
        """Count the two columns per hue level in the grid of `xedges` x `yedges`."""
        xedges = np.asarray(xedges, dtype=float)
        yedges = np.asarray(yedges, dtype=float)
        parts = self._run(_grid_part, xedges, yedges, len(self.levels))
        return np.sum(parts, axis=0)


# -- step bounds: the finest grid a placement can try ----------------------------------------


def _first_step(span: float, n_bins: int, rule: bool) -> float:
    """Return a lower bound of the first (smallest) step :func:`safe_edges` tries."""
    target = span / n_bins
    return 0.4 * target if rule else nice_step(target)


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
    """Return the smallest step of a histogram's edges, centres and ticks, and explicit edges."""
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


def grid_step(source: DaskColumns, j: int, bins: int) -> float:
    """Return the smallest step of the edges and ticks of one axis of a density grid."""
    span = source.hi[j] - source.lo[j]
    return 0.15 * _first_step(span, bins, False)


# -- count plots -------------------------------------------------------------------------


def dask_count_table(
    data: Any,
    x: Any,
    y: Any,
    hue: Any,
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    orient: str | None,
    *,
    threshold: int,
) -> tuple[Any, np.ndarray, int, np.ndarray]:
    """Count the table (category x hue level) of a count plot of a dask DataFrame.

    One pass counts the rows of every (category, hue) pair, missing values
    included, in order of first appearance; the count plot's own layout code
    then runs on that small table of pairs.

    Returns
    -------
    layout, table, n_dropped, rare_categories
    """
    from ..plots.categorical import _index_of, _is_numeric, _resolve

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
    layout, _ = _resolve("countplot", first, x, y, hue, order, hue_order, orient, numeric=False)
    cat = first[x if x is not None else y]
    missing = cat.isna().to_numpy().copy()
    hue_idx = np.zeros(len(first), dtype=np.intp)
    if hue is not None:
        missing |= first[hue].isna().to_numpy()
        hue_idx = _index_of(first[hue], layout.hue_levels)
    cat_idx = _index_of(cat, layout.levels)
    keep = ~missing & (cat_idx >= 0) & (hue_idx >= 0)
    table = np.zeros((len(layout.levels), layout.n_hue))
    np.add.at(table, (cat_idx[keep], hue_idx[keep]), weights[keep])
    n_dropped = int(weights[missing].sum())
    rare = np.array([])
    if _is_numeric(cat):
        per_value = (
            pd.DataFrame({"v": cat[~missing].to_numpy(dtype=float), "n": weights[~missing]})
            .groupby("v")["n"]
            .sum()
        )
        rare = per_value.index.to_numpy(dtype=float)[per_value.to_numpy() < threshold]
    return layout, table, n_dropped, rare


# -- kernel density plots ----------------------------------------------------------------


def release_kde_dask(
    x: Any,
    y: Any,
    *,
    hue: Any,
    hue_order: Sequence[Any] | None,
    labels: dict[str, str],
    method: str,
    threshold: int,
    factor: int,
    bins: int,
    scales: dict,
    n_dropped: int,
    function: str,
    policy: Any,
):
    """Release a kde plot of dask columns under ``"suppress"``/``"generalize"``.

    The same binned release as for values in memory (see
    :func:`safeplot.plots.kde.release_kde`), made from out-of-core counts:
    univariate, the suppressed histogram per hue level; bivariate, the
    suppressed density grid. The rare values the drawing keeps clear of are
    every distinct value held by fewer than `threshold` records (the curves
    pass through arbitrary points), so this pass holds the table of distinct
    values and their counts.
    """
    from ..plots._common import make_report
    from ..plots.grid import release_grid
    from ..plots.kde import KdeRelease, _grid_points, _release_binned

    check_dask_method(method, function)
    roles = [r for r, v in (("x", x), ("y", y)) if v is not None]
    if any(scales[r].log for r in roles):
        raise ValueError(
            f"{function}: log_scale is not supported with a dask DataFrame; plot the logarithm "
            "of the variable instead (e.g. data.assign(lx=np.log10(data['x'])))."
        )
    parts = {r: v for r, v in (("x", x), ("y", y), ("hue", hue)) if v is not None}
    if not all(is_dask_collection(v) for v in parts.values()):
        raise ValueError(f"{function}: x, y and hue must all be columns of one dask DataFrame.")
    first = parts[roles[0]]
    frame = first.to_frame(name=roles[0]).assign(
        **{r: v for r, v in parts.items() if r != roles[0]}
    )
    source = DaskColumns(
        frame,
        roles,
        hue=None if hue is None else "hue",
        hue_order=hue_order,
        function=function,
        restrict=True,
    )
    levels = None if hue is None else source.levels
    rare = source.rare_columns(
        range(len(roles)), threshold, step=None, per_level=levels is not None
    )
    avoid = dict(zip(roles, rare, strict=True))
    n_dropped += source.n_dropped
    names = tuple(labels[r] for r in roles)
    if len(roles) == 2:
        if names[0] == names[1]:
            names = (names[0], f"{names[1]} (y)")
        keep = frame["x"].notnull() & frame["y"].notnull()
        if levels is not None:
            keep &= frame["hue"].isin(levels)
        sub = frame[keep]
        grid = release_grid(
            sub["x"],
            sub["y"],
            names=names,
            hue=None if levels is None else sub["hue"],
            hue_order=levels,
            method=method,
            bins=bins,
            threshold=threshold,
            factor=factor,
            kind="contour",
            n_dropped=n_dropped,
            function=function,
            policy=policy,
        )
        released = _grid_points(grid, scales, levels)
        report = grid.report
    else:
        role = roles[0]
        grid = None
        released, cells, params, warn = _release_binned(
            source.span_values(0),
            np.zeros(0, dtype=int),
            levels,
            False,
            method,
            bins,
            factor,
            threshold,
            avoid[role],
            scales[role],
            role,
            counts_from=source,
        )
        report = make_report(
            function,
            method,
            params,
            names,
            source.n,
            n_dropped,
            policy,
            cells_suppressed=cells,
            details={},
            warnings=warn,
        )
    return KdeRelease(
        data=released,
        labels=labels,
        levels=levels,
        method=method,
        grid=grid,
        scales={r: s.base for r, s in scales.items()},
        sig=None,
        report=report,
        avoid=avoid,
    )
