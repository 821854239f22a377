"""Input validation shared by every anonymiser and plot: clear errors, never numpy tracebacks."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .errors import DisclosureError

__all__ = [
    "CleanData",
    "PlotData",
    "as_frame",
    "categorical_order",
    "clean_numeric",
    "finite_array",
    "to_pandas",
]


def is_dask_collection(obj: Any) -> bool:
    """Tell whether `obj` is a dask collection, without importing dask.

    Examples
    --------
    >>> import pandas as pd
    >>> is_dask_collection(pd.DataFrame({"a": [1]}))
    False
    """
    module = type(obj).__module__ or ""
    return module == "dask" or module.startswith(("dask.", "dask_expr"))


def refuse_dask(data: Any, function: str) -> None:
    """Refuse a dask collection given to a function that needs every record in memory.

    Only histplot, heatmap, countplot and kdeplot count a dask DataFrame out
    of core; anything else would read all of it into memory (numpy and pandas
    do so silently), so it is refused with what to use instead.

    Examples
    --------
    >>> refuse_dask([1.0, 2.0], "describe")  # not a dask collection: nothing happens
    """
    if is_dask_collection(data):
        raise ValueError(
            f"{function} does not take a dask DataFrame: it needs every record in memory. "
            "Use histplot, heatmap (x=, y=), countplot or kdeplot, which count out of core, "
            "or work on a sample: data.sample(frac=...).compute()."
        )


@dataclass
class PlotData:
    """The variables of one plot call.

    Attributes
    ----------
    frame : DataFrame
        One column per role given ("x", "y", "hue", "size", "style", "weights").
    labels : dict
        Role -> name to show on axes and legends (the column name, or the
        vector's ``.name``; the role itself when there is none).
    """

    frame: pd.DataFrame
    labels: dict[str, str]

    def has(self, role: str) -> bool:
        """Whether the role was given."""
        return role in self.frame.columns

    def label(self, role: str) -> str:
        """Return the display name of a role."""
        return self.labels.get(role, role)


def categorical_order(values: pd.Series, order: Sequence[Any] | None = None) -> list[Any]:
    """Levels of a categorical variable in seaborn's order.

    The given `order`; else the categories of a categorical dtype; else the
    unique values, sorted when numeric and in order of appearance otherwise.

    Examples
    --------
    >>> import pandas as pd
    >>> categorical_order(pd.Series(["b", "a", "b"]))
    ['b', 'a']
    >>> categorical_order(pd.Series([3, 1, 2]))
    [1, 2, 3]
    """
    if order is not None:
        return list(order)
    if isinstance(values.dtype, pd.CategoricalDtype):
        return list(values.cat.categories)
    levels = [v.item() if isinstance(v, np.generic) else v for v in pd.unique(values.dropna())]
    if pd.api.types.is_numeric_dtype(values.dtype):
        levels = sorted(levels)
    return levels


# inputs read as they are: pandas and numpy objects, Python containers and scalars
_PLAIN = (pd.DataFrame, pd.Series, pd.Index, np.ndarray, np.generic, Mapping, list, tuple, str)


def _is_plain(obj: Any) -> bool:
    return obj is None or isinstance(obj, (*_PLAIN, bytes, int, float, complex, bool))


def to_pandas(data: Any, *, function: str = "This function") -> Any:
    """Return a polars, pyarrow or other dataframe-library table as pandas; else `data` itself.

    The one adapter between other dataframe libraries and safeplot: every
    place that reads ``data=`` (and the vectors given as ``x=``, ``y=``,
    ``hue=``, ...) passes it through here first, so the rest of safeplot
    sees pandas objects only. A DataFrame or Series of any library
    narwhals supports (polars, pyarrow, modin, cuDF, ...) is converted
    with :meth:`narwhals.DataFrame.to_pandas`; an object offering only the
    Arrow PyCapsule interface (``__arrow_c_stream__``) or the dataframe
    interchange protocol (``__dataframe__``) is read through pyarrow.
    pandas and numpy objects, mappings, lists and dask collections are
    returned unchanged, and polars and pyarrow are never imported here:
    they are needed only by whoever made the table.

    Parameters
    ----------
    data : object
        The input as the user gave it.
    function : str
        The calling function, named in error messages.

    Returns
    -------
    object
        A pandas DataFrame (Series) for a table (column) of another
        library, otherwise `data` unchanged.

    Raises
    ------
    ValueError
        For a lazy frame (a polars ``LazyFrame``, a DuckDB relation, ...):
        it is a query, not data, and must be collected first.

    Examples
    --------
    >>> import pyarrow as pa
    >>> to_pandas(pa.table({"age": [30, 40]}), function="histplot")
       age
    0   30
    1   40
    >>> to_pandas([1, 2])  # not a table of another library: unchanged
    [1, 2]
    """
    if _is_plain(data) or is_dask_collection(data):
        return data
    import narwhals.stable.v1 as nw

    obj = nw.from_native(data, pass_through=True, allow_series=True)
    if isinstance(obj, nw.LazyFrame):
        raise ValueError(
            f"{function} does not take a lazy frame ({type(data).__module__.split('.')[0]}."
            f"{type(data).__name__}): it is a query, not data. Collect the columns you plot "
            "first, e.g. data.select([...]).collect() with polars. For data larger than "
            "memory, histplot, heatmap (x=, y=), countplot and kdeplot count a dask "
            "DataFrame out of core."
        )
    if isinstance(obj, nw.DataFrame) and nw.get_level(obj) == "interchange":
        # only the interchange protocol: narwhals reads it through pyarrow
        obj = nw.from_native(obj.to_arrow(), eager_only=True)
    if isinstance(obj, (nw.DataFrame, nw.Series)):
        return obj.to_pandas()
    if hasattr(data, "__arrow_c_stream__"):  # the Arrow PyCapsule interface only
        return nw.from_arrow(data, backend="pyarrow").to_pandas()
    return data


def finite_array(values: Any, *, min_rows: int = 1, what: str = "values") -> np.ndarray:
    """Return `values` as a finite float64 array of shape (n,) or (n, p), n >= `min_rows`.

    The entry check of the anonymisers, which take plain arrays: it refuses
    text, other shapes, missing and infinite values with a message saying
    what to do (plot functions clean data with :func:`clean_numeric` first).

    Examples
    --------
    >>> finite_array([1, 2, 3]).dtype
    dtype('float64')
    """
    refuse_dask(values, "safeplot.anonymize")
    kinds = (
        {np.asarray(v).dtype.kind for _, v in values.items()}
        if isinstance(values, pd.DataFrame)
        else {np.asarray(values).dtype.kind}
    )
    if "b" in kinds:
        raise TypeError(
            f"{what} are boolean, not measurements: convert them to numbers explicitly, or "
            "use them as a category (strata=, hue=)."
        )
    if kinds & {"M", "m"}:
        raise TypeError(
            f"{what} hold dates or times: convert them to numbers (e.g. days since a "
            "reference date) first."
        )
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{what} must be numeric (an array of numbers), but hold text or other objects; "
            "clean the data first, e.g. with safeplot._validate.clean_numeric."
        ) from None
    if arr.ndim not in (1, 2):
        raise ValueError(
            f"{what} must be 1-D (n,) or 2-D (n, p); got an array with {arr.ndim} dimensions."
        )
    if arr.ndim == 2 and arr.shape[1] == 0:
        raise ValueError(f"{what} has no columns: give at least one variable.")
    if arr.shape[0] == 0:
        raise ValueError(
            f"{what} are empty (no rows): there is nothing to release; at least {min_rows} "
            "are needed."
        )
    if arr.shape[0] < min_rows:
        raise ValueError(
            f"{what} has {arr.shape[0]} record(s); at least {min_rows} are needed. Use more data."
        )
    with np.errstate(invalid="ignore"):
        # the extremes are finite exactly when every value is (NaN propagates to them): two
        # reductions, no mask of every value
        extremes = (arr.min(), arr.max())
    if not np.isfinite(extremes).all():
        raise ValueError(
            f"{what} contains NaN or infinite values. Drop incomplete rows and replace "
            "infinite values first (safeplot._validate.clean_numeric does both)."
        )
    if max(-float(extremes[0]), float(extremes[1])) > 1e150:  # the largest magnitude
        raise ValueError(
            f"{what} are too large in magnitude (beyond about 1e150) to compute a standard "
            "deviation. Rescale them (e.g. change units) first."
        )
    return arr


@dataclass
class CleanData:
    """Complete, finite, numeric rows ready for an anonymiser.

    Attributes
    ----------
    values : ndarray, shape (n, p)
        float64 values, rows with a missing value removed.
    names : tuple of str
        Variable names, one per column of `values`.
    strata : ndarray of int, shape (n,), or None
        Integer code of each row's stratum (combination of categorical columns).
    strata_labels : list of tuple
        The category values of each stratum code.
    n_dropped : int
        Rows removed because a value was missing.
    """

    values: np.ndarray
    names: tuple[str, ...]
    strata: np.ndarray | None
    strata_labels: list[tuple[Any, ...]]
    n_dropped: int

    @property
    def n(self) -> int:
        """Number of complete rows."""
        return self.values.shape[0]


def as_frame(
    data: Any, columns: Sequence[Hashable] | None = None, *, function: str = "This function"
) -> pd.DataFrame:
    """Return `data` as a DataFrame with string column names.

    Accepts a DataFrame (optionally restricted to `columns`), a Series, a
    1-D or 2-D array-like, a mapping of names to arrays, or a table of
    another dataframe library (:func:`to_pandas`); a dask collection is
    refused, naming `function`.
    """
    refuse_dask(data, function)
    data = to_pandas(data, function=function)
    if isinstance(data, pd.DataFrame):
        frame = data
    elif isinstance(data, pd.Series):
        frame = data.to_frame(name=data.name if data.name is not None else "x")
    elif isinstance(data, dict):
        frame = pd.DataFrame(data, copy=False)  # the columns as they are, not one 2-D copy
    else:
        try:
            arr = np.asarray(data)
        except Exception as exc:  # pragma: no cover - exotic inputs
            raise TypeError(f"Cannot read data of type {type(data).__name__}: {exc}") from None
        if arr.ndim == 0:
            raise ValueError("Expected a column of values or a table, got a single value.")
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise ValueError(f"Expected 1-D or 2-D data, got an array with {arr.ndim} dimensions.")
        names = ["x", "y"] if arr.shape[1] == 2 else [f"x{i}" for i in range(arr.shape[1])]
        if arr.shape[1] == 1:
            names = ["x"]
        frame = pd.DataFrame(arr, columns=names)
    if columns is not None:
        missing = [c for c in columns if c not in frame.columns]
        if missing:
            raise ValueError(
                f"Column(s) {missing} not in the data; available columns: {list(frame.columns)}."
            )
        frame = frame[list(columns)]
    # a new frame with string names; its data are copied only when one of the two frames is
    # changed (copy-on-write), not for every validation of a million rows
    return frame.set_axis([str(c) for c in frame.columns], axis=1)


def _numeric_column(name: str, col: pd.Series) -> np.ndarray:
    if col.dtype == object:
        # values held as Python objects (a list of dates, of booleans): judge them by what they are
        col = col.infer_objects()
        present = col.dropna()
        if col.dtype == object and present.size and present.map(type).isin([bool, np.bool_]).all():
            # booleans with missing values (a polars or pyarrow boolean column with nulls)
            col = present.astype(bool)
    dtype = col.dtype
    if pd.api.types.is_bool_dtype(dtype):
        raise ValueError(
            f"Column {name!r} is boolean, not a measurement. Plot it as a category "
            "(hue= or countplot) or convert it to numbers explicitly."
        )
    if pd.api.types.is_datetime64_any_dtype(dtype) or pd.api.types.is_timedelta64_dtype(dtype):
        raise ValueError(
            f"Column {name!r} holds dates or times ({dtype}). Convert it to a number "
            "(e.g. days since a reference date) before releasing it."
        )
    if not pd.api.types.is_numeric_dtype(dtype):
        converted = pd.to_numeric(col, errors="coerce")
        bad = col.notna() & converted.isna()
        if bad.any():
            raise ValueError(
                f"Column {name!r} is not numeric (dtype {dtype}): it holds text such as "
                f"{str(col[bad].iloc[0])[:20]!r}. Pass numeric columns here, and categorical "
                "ones as hue/strata."
            )
        col = converted
    try:
        values = col.to_numpy(dtype="float64", na_value=np.nan)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"Column {name!r} cannot be read as numbers: {exc}") from None
    return values


def clean_numeric(
    data: Any,
    columns: Sequence[Hashable] | None = None,
    *,
    strata: Sequence[Hashable] | None = None,
    min_rows: int = 1,
    allow_constant: bool = False,
) -> CleanData:
    """Validate numeric columns (and optional categorical strata) for release.

    Rows with a missing value in any used column are dropped and counted;
    infinite values, text, booleans, dates, empty or all-missing data and
    constant columns are refused with a message saying what to do.

    Parameters
    ----------
    data : DataFrame, Series, array-like or dict
        The data.
    columns : sequence of str, optional
        Numeric columns to use (default: all columns of `data` not in `strata`).
    strata : sequence of str, optional
        Categorical columns whose combinations define strata.
    min_rows : int, default 1
        Fewest complete rows accepted.
    allow_constant : bool, default False
        Accept a constant column: for releases whose grid is fixed by the call
        and whose every number carries noise (``method="dp"``), where a
        refusal would itself depend on the records.

    Returns
    -------
    CleanData

    Examples
    --------
    >>> import pandas as pd
    >>> c = clean_numeric(pd.DataFrame({"a": [1.0, None, 3.0, 4.0], "b": [1, 2, 3, 5]}))
    >>> c.n, c.n_dropped, c.names
    (3, 1, ('a', 'b'))
    """
    strata = list(strata or [])
    frame = as_frame(data)
    if columns is None:
        columns = [c for c in frame.columns if c not in {str(s) for s in strata}]
    else:
        columns = [str(c) for c in columns]
    frame = as_frame(frame, [*columns, *[str(s) for s in strata]])
    if frame.shape[0] == 0:
        raise ValueError("The data are empty (no rows). There is nothing to release.")
    if len(columns) == 0:
        raise ValueError("No numeric column was given to release.")
    # column by column: each is contiguous, and a column without missing or infinite values
    # (the usual case) is checked by its extremes alone, with no masks of a million rows
    cols = [_numeric_column(c, frame[c]) for c in columns]
    with np.errstate(over="ignore", invalid="ignore"):
        hi = np.array([v.max() for v in cols])
        lo = np.array([v.min() for v in cols])
    dirty = [j for j in range(len(cols)) if not (np.isfinite(hi[j]) and np.isfinite(lo[j]))]
    bad = [columns[j] for j in dirty if np.isinf(cols[j]).any()]
    if bad:
        raise ValueError(
            f"Column(s) {bad} contain infinite values. Replace them with NaN (to drop those rows) "
            "or with a real value before releasing."
        )
    keep: np.ndarray | None = None
    for j in dirty:
        missing = np.isnan(cols[j])
        if missing.all():
            raise ValueError(
                f"Column {columns[j]!r} has no values (all missing). Choose another column."
            )
        keep = ~missing if keep is None else keep & ~missing
    strata_codes = None
    labels: list[tuple[Any, ...]] = []
    if strata:
        sframe = frame[[str(s) for s in strata]]
        present = sframe.notna().all(axis=1).to_numpy()
        keep = present if keep is None else keep & present
    if keep is not None and keep.all():
        keep = None
    n_dropped = 0 if keep is None else int(keep.size - np.count_nonzero(keep))
    # column-major: each column a contiguous block, as every step reads one column at a time
    n_kept = cols[0].size if keep is None else int(np.count_nonzero(keep))
    values = np.empty((n_kept, len(cols)), order="F")
    for j, v in enumerate(cols):
        values[:, j] = v if keep is None else v[keep]
    if keep is not None:
        with np.errstate(over="ignore", invalid="ignore"):
            hi, lo = values.max(axis=0, initial=-np.inf), values.min(axis=0, initial=np.inf)
    if strata:
        if keep is not None:
            sframe = sframe[keep]
        codes, uniques = pd.MultiIndex.from_frame(sframe).factorize()
        strata_codes = np.asarray(codes, dtype=np.intp)
        labels = [u if isinstance(u, tuple) else (u,) for u in uniques]
    n = values.shape[0]
    if n == 0:
        raise ValueError(
            "No complete rows: every row has a missing value in "
            f"{columns + [str(s) for s in strata]}."
        )
    if n < min_rows:
        raise DisclosureError(
            f"Too few complete rows to release ({'fewer than ' + str(min_rows)} needed). "
            "Use more data or a coarser grouping."
        )
    with np.errstate(over="ignore", invalid="ignore"):
        spread = hi - lo
        scale = np.maximum(np.abs(hi), np.abs(lo))
    for j, c in enumerate(columns):
        # below 1e100 in magnitude the variance of any number of rows is finite: computed
        # (a pass over the column) only for values that large
        huge = not np.isfinite(spread[j]) or scale[j] > 1e100
        if huge and (scale[j] > 1e150 or not np.isfinite(np.var(values[:, j]))):
            raise ValueError(
                f"Column {c!r} has values too large in magnitude to compute a standard deviation "
                "(beyond about 1e150). Rescale it (e.g. change units) first."
            )
        if spread[j] == 0 and not allow_constant:
            raise DisclosureError(
                f"Column {c!r} is constant among the complete rows: plotting it would show "
                "its one value exactly and it has no spread to anonymise. Drop it or choose "
                "another column."
            )
    return CleanData(values, tuple(columns), strata_codes, labels, n_dropped)
