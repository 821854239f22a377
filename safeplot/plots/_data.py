"""seaborn-style input handling: ``data=`` plus variables given by name or as vectors.

Every public plot function accepts its data the way seaborn 0.13 does: a
long-form table with ``x=``, ``y=``, ``hue=`` ... naming columns, vectors
passed directly, or (for the distribution and box plots) a wide-form table
whose numeric columns are plotted side by side. :func:`plot_data` turns all
of these into one frame whose columns are the *roles* ("x", "y", "hue", ...),
with the original names kept for axis labels and legends. Nothing here looks
at values beyond their shape: validation of numbers is in ``safeplot._validate``.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._validate import PlotData, categorical_order

__all__ = [
    "PlotData",
    "categorical_order",
    "facet_codes",
    "plot_data",
    "refuse_empty_facets",
    "rows_without_level",
    "wide_to_long",
]


def _is_vector(value: Any) -> bool:
    return isinstance(value, (pd.Series, pd.Index, np.ndarray, list, tuple))


def _names_column(data: Any, value: Any) -> bool:
    """Whether a tuple names a column (a MultiIndex column, as after ``.stack()``)."""
    if not isinstance(value, tuple) or not isinstance(data, pd.DataFrame):
        return False
    try:
        return value in data.columns
    except TypeError:  # a tuple holding something unhashable is no name
        return False


def plot_data(data: Any, roles: Mapping[str, Any], *, function: str) -> PlotData:
    """Resolve seaborn-style variables against `data`.

    Parameters
    ----------
    data : DataFrame, mapping, or None
        The long-form table the names refer to (a polars or pyarrow table is
        read as pandas, see :func:`safeplot._validate.to_pandas`).
    roles : mapping
        Role -> column name, vector, or None (role not used).
    function : str
        Calling function, for error messages.

    Returns
    -------
    PlotData

    Raises
    ------
    ValueError
        A name not in `data`, vectors of different lengths, or a vector
        whose length does not match `data`.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"age": [30, 40, 50], "sex": ["f", "m", "f"]})
    >>> pdata = plot_data(df, {"x": "age", "hue": "sex", "y": None}, function="histplot")
    >>> list(pdata.frame.columns), pdata.label("x")
    (['x', 'hue'], 'age')
    """
    from .._validate import to_pandas
    from ..sources.dask import dask_plot_data, is_dask_collection

    data = to_pandas(data, function=function)  # polars, pyarrow, ...: read as pandas
    roles = {role: to_pandas(value, function=function) for role, value in roles.items()}
    if is_dask_collection(data) or any(is_dask_collection(v) for v in roles.values()):
        return dask_plot_data(data, roles, function=function)  # names only, nothing computed
    if data is not None and not isinstance(data, pd.DataFrame):
        if isinstance(data, Mapping):
            data = pd.DataFrame(dict(data))
        else:
            raise TypeError(
                f"{function}: data must be a pandas DataFrame or a mapping of columns when "
                f"variables are given by name, got {type(data).__name__}."
            )
    columns: dict[str, Any] = {}
    labels: dict[str, str] = {}
    for role, value in roles.items():
        if value is None:
            continue
        if _is_vector(value) and not _names_column(data, value):
            vec = value if isinstance(value, pd.Series) else pd.Series(np.asarray(value))
            if vec.ndim != 1 or (data is not None and len(vec) != len(data)):
                raise ValueError(
                    f"{function}: the vector given for `{role}` has {len(vec)} values but `data` "
                    f"has {len(data)} rows. Give a column name, or a vector of the same length."
                )
            columns[role] = vec
            name = getattr(value, "name", None)
            labels[role] = str(name) if name is not None else role
        elif isinstance(value, Hashable):
            if data is None:
                raise ValueError(
                    f"{function}: `{role}={value!r}` names a column but no `data` was given. "
                    "Pass data=<DataFrame>, or pass the values themselves."
                )
            if value not in data.columns:
                raise ValueError(
                    f"{function}: could not interpret value `{value}` for `{role}`: there is no "
                    f"column of that name in `data` (columns: {list(map(str, data.columns))})."
                )
            columns[role] = data[value]
            labels[role] = str(value)
        else:
            raise TypeError(
                f"{function}: `{role}` must be a column name or a vector, "
                f"got {type(value).__name__}."
            )
    lengths = {len(v) for v in columns.values()}
    if len(lengths) > 1:
        raise ValueError(
            f"{function}: the variables have different lengths "
            f"({ {r: len(v) for r, v in columns.items()} }); they must describe the same records."
        )
    if columns:
        # keep each column's dtype (a categorical's order of levels matters)
        frame = pd.DataFrame({r: v.reset_index(drop=True) for r, v in columns.items()})
    else:
        frame = pd.DataFrame(index=pd.RangeIndex(0))
    return PlotData(frame, labels)


def wide_to_long(data: Any, *, function: str) -> PlotData:
    """Turn wide-form data (one numeric column per variable) into long form.

    The result has a role "value" with every numeric value and a role
    "variable" naming its column, which the plot uses as hue or category.

    Examples
    --------
    >>> import pandas as pd
    >>> long = wide_to_long(pd.DataFrame({"a": [1, 2], "b": [3, 4]}), function="boxplot")
    >>> long.frame["variable"].tolist()
    ['a', 'a', 'b', 'b']
    """
    from .._validate import to_pandas
    from ..sources.dask import is_dask_collection

    data = to_pandas(data, function=function)
    if is_dask_collection(data):
        raise ValueError(
            f"{function}: wide-form dask data is not supported (it would be read into memory); "
            "name the variable with x= (histplot, kdeplot, countplot), or plot a sample: "
            "data.sample(frac=...).compute()."
        )
    if isinstance(data, pd.Series):
        data = data.to_frame(name=data.name if data.name is not None else "x")
    elif isinstance(data, Mapping):
        data = pd.DataFrame(dict(data))
    elif not isinstance(data, pd.DataFrame):
        arr = np.asarray(data)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise ValueError(f"{function}: wide-form data must be 1-D or 2-D.")
        data = pd.DataFrame(arr)
    numeric = [c for c in data.columns if pd.api.types.is_numeric_dtype(data[c].dtype)]
    numeric = [c for c in numeric if not pd.api.types.is_bool_dtype(data[c].dtype)]
    if not numeric:
        raise ValueError(
            f"{function}: the data have no numeric column to plot. Name the variable with x= "
            "or y=, or pass numeric columns."
        )
    parts = [
        pd.DataFrame({"value": data[c].to_numpy(dtype=float), "variable": str(c)}) for c in numeric
    ]
    frame = pd.concat(parts, ignore_index=True)
    frame["variable"] = pd.Categorical(frame["variable"], categories=[str(c) for c in numeric])
    return PlotData(frame, {"value": "", "variable": ""})


def rows_without_level(
    frame: pd.DataFrame, values: Sequence[Hashable], levels: Sequence[Hashable]
) -> np.ndarray:
    """Rows whose `values` columns are all finite numbers but one of `levels` is missing.

    seaborn leaves such rows out of a figure split by those levels (a
    missing hue or style), while the same figure without the split counts
    them; the release ledger links them as records of a level not drawn
    (:class:`safeplot.release.guard.Unlabelled`). All False without levels.

    Examples
    --------
    >>> df = pd.DataFrame({"x": [1.0, None, 3.0, 4.0], "hue": ["a", None, None, "b"]})
    >>> rows_without_level(df, ["x"], ["hue"]).tolist()
    [False, False, True, False]
    """
    if not levels:
        return np.zeros(len(frame), dtype=bool)
    numbers = frame[list(values)].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    missing = frame[list(levels)].isna().any(axis=1).to_numpy()
    return np.isfinite(numbers).all(axis=1) & missing


def facet_codes(
    frame: pd.DataFrame, columns: Sequence[Hashable]
) -> tuple[np.ndarray, list[tuple], list[tuple[np.ndarray, int]]]:
    """Return each row's facet, the facets' keys and each facet variable's codes.

    A facet is a combination of one level of each of `columns` (``row``,
    ``col``). Facets are numbered over every combination of the levels
    found (some may hold no rows); a row with a missing facet value is in no
    facet (-1), as seaborn's :class:`~seaborn.FacetGrid` leaves it out.

    Parameters
    ----------
    frame : DataFrame
    columns : sequence of column names
        The facet variables; none gives one facet, ``()``, of every row.

    Returns
    -------
    codes : ndarray of int, shape (n,)
        Each row's facet number (-1: in none).
    keys : list of tuple
        Each facet's values, one per column, by facet number.
    dims : list of (ndarray, int)
        Per column: each row's level code (-1: missing) and the number of levels.

    Examples
    --------
    >>> df = pd.DataFrame({"r": ["a", "b", "a", None], "c": [1, 1, 2, 2]})
    >>> codes, keys, dims = facet_codes(df, ["r", "c"])
    >>> codes.tolist(), keys
    ([0, 2, 1, -1], [('a', 1), ('a', 2), ('b', 1), ('b', 2)])
    """
    if not columns:
        return np.zeros(len(frame), dtype=int), [()], []
    dims, uniques = [], []
    for column in columns:
        found, levels = pd.factorize(frame[column], use_na_sentinel=True)
        dims.append((np.asarray(found, dtype=int), len(levels)))
        uniques.append(list(levels))
    shape = tuple(n for _, n in dims)
    stacked = np.stack([c for c, _ in dims])
    missing = (stacked < 0).any(axis=0)
    codes = np.full(len(frame), -1, dtype=int)
    if (~missing).any():
        codes[~missing] = np.ravel_multi_index(tuple(stacked[:, ~missing]), shape)
    return codes, list(itertools.product(*uniques)), dims


def refuse_empty_facets(
    all_codes: np.ndarray,
    kept_codes: np.ndarray,
    keys: list[tuple],
    facets: Sequence[Hashable],
    name: str,
    function: str,
) -> None:
    """Refuse a facet with rows but no complete one: its panel would stand over nothing.

    `all_codes` are the facets of every row (:func:`facet_codes`),
    `kept_codes` those of the rows kept (a value present).

    Examples
    --------
    >>> codes, keys = np.array([0, 1]), [("a",), ("b",)]
    >>> refuse_empty_facets(codes, np.array([0]), keys, ["g"], "x", "f")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: f: the facet {'g': 'b'} has no complete rows: ...
    """
    empty = np.setdiff1d(np.unique(all_codes[all_codes >= 0]), kept_codes)
    if empty.size:
        where = dict(zip(facets, keys[int(empty[0])], strict=True))
        raise ValueError(
            f"{function}: the facet {where} has no complete rows: every one misses {name!r} "
            "(or the hue). Drop those rows, or fill the values, before plotting."
        )
