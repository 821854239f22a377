"""Releases as plain data: one JSON-ready dictionary format for every kind of release.

:func:`to_dict` walks a release dataclass and writes each field as plain JSON
types; :func:`from_dict` builds the same release back. Values that JSON cannot
hold are written as small tagged objects ``{"__safeplot__": <tag>, ...}``:

- ``ndarray``: dtype, shape and the flat values (NaN and infinities as the
  strings ``"nan"``, ``"inf"``, ``"-inf"``, so the JSON is strict);
- ``scalar``: a numpy scalar, as a 0-d array;
- ``float``: a Python float that is NaN or infinite;
- ``tuple``, ``set``, ``frozenset``, and ``dict`` with keys other than strings;
- ``DataFrame``, ``Series``, ``Index``, ``RangeIndex``, ``MultiIndex``,
  ``Categorical``, ``extension`` (other pandas arrays), ``dtype``, ``NA``,
  ``NaT``, ``Timestamp``, ``Timedelta``: pandas objects with their dtypes;
- ``dataclass``: a release or a part of one (a :class:`DisclosureReport`, a
  box summary, ...), named by its registered kind.

A kind is a name registered with :func:`release_kind` (releases) or
:func:`release_part` (the dataclasses inside them); a dataclass that a
release's field is declared to hold (``boxes: list[BoxSummary] | None``) is
registered as a part under its class name. Reading never imports a module or
builds a class named by the data: only registered classes are built.
"""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pandas as pd

__all__ = ["from_dict", "from_json", "release_kind", "release_part", "to_dict", "to_json"]

#: Key that marks a tagged value.
TAG = "__safeplot__"
#: Version of the dictionary format written by :func:`to_dict`.
FORMAT = 1

T = TypeVar("T")

_REGISTRY: dict[str, type] = {}  # kind -> class
_KINDS: dict[type, str] = {}  # class -> kind
_RELEASES: set[str] = set()  # the kinds that are releases (the others are parts)
_discovered = 0  # size of the registry when parts were last looked for

_NONFINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
_ARRAY_KINDS = "biufcUMmO"


# -- registry -------------------------------------------------------------------------------


def _register(name: str, cls: type, *, release: bool) -> None:
    if not isinstance(name, str) or not name:
        raise TypeError(f"A release kind is a non-empty string, got {name!r}.")
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"Only dataclasses can be registered as release kinds, got {cls!r}.")
    old = _REGISTRY.get(name)
    if old is not None and old is not cls:
        same = (old.__module__, old.__qualname__) == (cls.__module__, cls.__qualname__)
        if not same:  # a reloaded module registers its class again; anything else is a clash
            raise ValueError(
                f"Release kind {name!r} is already registered for "
                f"{old.__module__}.{old.__qualname__}."
            )
        del _KINDS[old]
    if _KINDS.get(cls, name) != name:
        raise ValueError(f"{cls.__qualname__} is already registered as {_KINDS[cls]!r}.")
    _REGISTRY[name] = cls
    _KINDS[cls] = name
    if release:
        _RELEASES.add(name)


def release_kind(name: str) -> Callable[[type[T]], type[T]]:
    """Register a release dataclass under `name` and give it JSON methods.

    The class gains ``to_dict()``, ``to_json()`` and the class methods
    ``from_dict(d)`` and ``from_json(text)``.

    Parameters
    ----------
    name : str
        The kind written into the dictionary (``"histogram"``, ``"qq"``, ...);
        unique among releases and their parts.

    Returns
    -------
    callable
        The class decorator; put it above ``@dataclass``::

            @release_kind("histogram")
            @dataclass
            class HistogramRelease: ...

    Examples
    --------
    >>> import numpy as np
    >>> from safeplot.release import DisclosureReport, PointRelease
    >>> ticks = np.array([0.0, 3.0])
    >>> report = DisclosureReport("scatterplot", "deterministic")
    >>> rel = PointRelease(np.array([1.0]), np.array([2.0]), (0, 3), (0, 3), ticks, ticks, report)
    >>> PointRelease.from_json(rel.to_json()).xlim
    (0, 3)
    """

    def register(cls: type[T]) -> type[T]:
        for attr, method in _METHODS.items():
            if cls.__dict__.get(attr, method) is not method:
                raise TypeError(f"{cls.__qualname__} defines {attr} itself.")
        _register(name, cls, release=True)
        for attr, method in _METHODS.items():
            setattr(cls, attr, method)
        return cls

    return register


def release_part(name: str) -> Callable[[type[T]], type[T]]:
    """Register a dataclass held inside releases (a report, a box summary) under `name`.

    Parameters
    ----------
    name : str
        The kind written into the dictionary; unique among releases and parts.

    Returns
    -------
    callable
        The class decorator (it leaves the class unchanged).
    """

    def register(cls: type[T]) -> type[T]:
        _register(name, cls, release=False)
        return cls

    return register


def _dataclasses_in(hint: Any) -> list[type]:
    """Return the dataclasses a type hint names (``list[BoxSummary] | None`` -> BoxSummary)."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return [hint]
    return [cls for arg in typing.get_args(hint) for cls in _dataclasses_in(arg)]


def _discover_parts() -> None:
    """Register the dataclasses that the fields of registered releases are declared to hold.

    A part is found from the type hints of the releases (a box plot's
    ``boxes: list[BoxSummary] | None``), never from the data read, and is
    registered under its class name.
    """
    global _discovered
    if _discovered == len(_REGISTRY):
        return
    queue, seen = list(_REGISTRY.values()), set()
    while queue:
        cls = queue.pop()
        if cls in seen:
            continue
        seen.add(cls)
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError):  # pragma: no cover - a hint Python cannot evaluate
            continue
        for hint in hints.values():
            for part in _dataclasses_in(hint):
                if part not in _KINDS:
                    try:
                        _register(part.__name__, part, release=False)
                    except ValueError:  # its name is taken: writing it asks for release_part
                        continue
                queue.append(part)
    _discovered = len(_REGISTRY)


def _kind_of(obj: Any) -> str | None:
    if type(obj) not in _KINDS:
        _discover_parts()
    return _KINDS.get(type(obj))


def _class_of(kind: Any, *, release: bool) -> type:
    if not isinstance(kind, str):
        raise ValueError(f"Malformed release kind {kind!r}.")
    if kind not in _REGISTRY:
        _discover_parts()
    if kind not in _REGISTRY:
        raise ValueError(
            f"Unknown release kind {kind!r} (is the module that defines it imported? The "
            "pandas backend's are in safeplot.integrations.pandas_backend)."
        )
    if release and kind not in _RELEASES:
        raise ValueError(f"{kind!r} is part of a release, not a release.")
    return _REGISTRY[kind]


# -- writing --------------------------------------------------------------------------------


def _tagged(tag: str, **payload: Any) -> dict[str, Any]:
    return {TAG: tag, **payload}


def _float_list(flat: np.ndarray) -> list:
    values = flat.tolist()
    finite = np.isfinite(flat)
    if not finite.all():
        for i in np.flatnonzero(~finite):
            v = values[i]
            values[i] = "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return values


def _write_array(arr: np.ndarray, where: str) -> dict[str, Any]:
    dtype = arr.dtype
    if dtype.kind not in _ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise TypeError(f"Cannot write the array of dtype {dtype} at {where}.")
    if (dtype.kind == "f" and dtype.itemsize > 8) or (dtype.kind == "c" and dtype.itemsize > 16):
        raise TypeError(f"Cannot write {dtype} at {where} without losing precision.")
    flat = arr.ravel()
    if dtype.kind == "f":
        data: Any = _float_list(flat)
    elif dtype.kind == "c":
        data = {"real": _float_list(flat.real), "imag": _float_list(flat.imag)}
    elif dtype.kind in "Mm":
        data = flat.view("i8").tolist()
    elif dtype.kind == "O":
        data = [_write(v, f"{where}[{i}]") for i, v in enumerate(flat)]
    else:  # bool, int, unsigned, str
        data = flat.tolist()
    out = _tagged("ndarray", dtype=dtype.str, shape=list(arr.shape), data=data)
    if not arr.flags.writeable:
        out["readonly"] = True
    return out


def _write_dtype(dtype: Any, where: str) -> dict[str, Any]:
    if isinstance(dtype, np.dtype):
        if dtype.kind not in _ARRAY_KINDS or dtype.fields is not None:
            raise TypeError(f"Cannot write the dtype {dtype} at {where}.")
        return _tagged("dtype", numpy=dtype.str)
    if isinstance(dtype, pd.CategoricalDtype):
        categories = None if dtype.categories is None else _write_index(dtype.categories, where)
        return _tagged("dtype", categories=categories, ordered=bool(dtype.ordered))
    if isinstance(dtype, pd.StringDtype):
        na = "NA" if dtype.na_value is pd.NA else "nan"
        return _tagged("dtype", string=dtype.storage, na=na)
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):
        name = str(dtype)
        if pd.api.types.pandas_dtype(name) != dtype:
            raise TypeError(f"Cannot write the dtype {dtype!r} at {where}.")
        return _tagged("dtype", pandas=name)
    raise TypeError(f"Cannot write the dtype {dtype!r} at {where}.")


def _write_values(values: Any, where: str) -> dict[str, Any]:
    """Write the values of a Series, an Index or a DataFrame column, keeping their dtype."""
    if isinstance(values, pd.arrays.NumpyExtensionArray):
        values = values.to_numpy()
    dtype = values.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        cat = pd.Categorical(values)
        return _tagged(
            "Categorical",
            dtype=_write_dtype(cat.dtype, where),
            codes=_write_array(np.asarray(cat.codes), where),
        )
    if isinstance(dtype, np.dtype):
        return _write_array(np.asarray(values), where)
    return _tagged(
        "extension",
        dtype=_write_dtype(dtype, where),
        values=[_write(v, f"{where}[{i}]") for i, v in enumerate(values)],
    )


def _write_index(index: pd.Index, where: str) -> dict[str, Any]:
    name = _write(index.name, f"{where}.name") if not isinstance(index, pd.MultiIndex) else None
    if isinstance(index, pd.RangeIndex):
        return _tagged(
            "RangeIndex", start=index.start, stop=index.stop, step=index.step, name=name
        )
    if isinstance(index, pd.MultiIndex):
        return _tagged(
            "MultiIndex",
            levels=[_write_index(lev, f"{where}.levels") for lev in index.levels],
            codes=[_write_array(np.asarray(c), f"{where}.codes") for c in index.codes],
            names=[_write(n, f"{where}.names") for n in index.names],
        )
    return _tagged("Index", values=_write_values(index.array, where), name=name)


def _write_attrs(obj: pd.DataFrame | pd.Series, where: str) -> dict[str, Any]:
    return {"attrs": _write(dict(obj.attrs), f"{where}.attrs")} if obj.attrs else {}


def _write_frame(frame: pd.DataFrame, where: str) -> dict[str, Any]:
    return _tagged(
        "DataFrame",
        columns=_write_index(frame.columns, f"{where}.columns"),
        index=_write_index(frame.index, f"{where}.index"),
        data=[
            _write_values(frame.iloc[:, j].array, f"{where}[{frame.columns[j]!r}]")
            for j in range(frame.shape[1])
        ],
        **_write_attrs(frame, where),
    )


def _write_dataclass(obj: Any, kind: str, where: str) -> dict[str, Any]:
    fields = {
        f.name: _write(getattr(obj, f.name), f"{where}.{f.name}") for f in dataclasses.fields(obj)
    }
    return _tagged("dataclass", kind=kind, fields=fields)


def _write(value: Any, where: str) -> Any:
    """Return `value` as plain JSON types (tagged objects where JSON has no type for it)."""
    if value is None or isinstance(value, bool) or type(value) in (int, str):
        return value
    if isinstance(value, np.generic):
        return _tagged("scalar", array=_write_array(np.asarray(value), where))
    if type(value) is float:
        if math.isfinite(value):
            return value
        return _tagged("float", value="nan" if math.isnan(value) else str(value))
    if type(value) is list:
        return [_write(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if type(value) in (tuple, set, frozenset):
        tag = type(value).__name__
        return _tagged(tag, items=[_write(v, f"{where}[{i}]") for i, v in enumerate(value)])
    if type(value) is dict:
        if all(type(k) is str for k in value) and TAG not in value:
            return {k: _write(v, f"{where}[{k!r}]") for k, v in value.items()}
        items = [[_write(k, where), _write(v, f"{where}[{k!r}]")] for k, v in value.items()]
        return _tagged("dict", items=items)
    if type(value) is np.ndarray:
        return _write_array(value, where)
    if value is pd.NA:
        return _tagged("NA")
    if value is pd.NaT:
        return _tagged("NaT")
    if isinstance(value, pd.DataFrame):
        return _write_frame(value, where)
    if isinstance(value, pd.Series):
        return _tagged(
            "Series",
            values=_write_values(value.array, where),
            index=_write_index(value.index, f"{where}.index"),
            name=_write(value.name, f"{where}.name"),
            **_write_attrs(value, where),
        )
    if isinstance(value, pd.Index):
        return _write_index(value, where)
    if isinstance(value, pd.Categorical):
        return _write_values(value, where)
    if isinstance(value, (np.dtype, pd.api.extensions.ExtensionDtype)):
        return _write_dtype(value, where)
    if isinstance(value, pd.Timestamp):
        tz = None if value.tz is None else str(value.tz)
        return _tagged("Timestamp", ns=value.as_unit("ns").value, unit=value.unit, tz=tz)
    if isinstance(value, pd.Timedelta):
        return _tagged("Timedelta", ns=value.as_unit("ns").value, unit=value.unit)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = _kind_of(value)
        if kind is not None:
            return _write_dataclass(value, kind, where)
        raise TypeError(
            f"Cannot write {type(value).__qualname__} at {where}: register it with "
            "release_kind or release_part."
        )
    raise TypeError(f"Cannot write a {type(value).__qualname__} at {where} as JSON.")


def to_dict(release: Any) -> dict[str, Any]:
    """Return a release as a dictionary of plain JSON types.

    ``json.dumps(to_dict(release), allow_nan=False)`` works for every
    release; :func:`from_dict` builds the release back, equal field by field
    (arrays keep their dtype and shape, frames their dtypes, tuples stay
    tuples, NaN stays NaN).

    Parameters
    ----------
    release : release dataclass
        An instance of a class registered with :func:`release_kind`.

    Returns
    -------
    dict
        ``{"__safeplot__": "dataclass", "kind": ..., "fields": {...}, "format": 1}``.

    Raises
    ------
    TypeError
        If `release` is not a registered release, or a field holds a value
        of a type the format has no place for.
    """
    kind = _kind_of(release)
    if kind is None or kind not in _RELEASES:
        raise TypeError(f"{type(release).__qualname__} is not a registered release kind.")
    out = _write_dataclass(release, kind, type(release).__name__)
    out["format"] = FORMAT
    return out


# -- reading --------------------------------------------------------------------------------


def _need(node: dict[str, Any], *keys: str) -> list[Any]:
    missing = [k for k in keys if k not in node]
    if missing:
        raise ValueError(f"Malformed {node.get(TAG)!r} entry: no {', '.join(missing)}.")
    return [node[k] for k in keys]


def _read_float(v: Any) -> float:
    if isinstance(v, str):
        if v not in _NONFINITE:
            raise ValueError(f"Not a number: {v!r}.")
        return _NONFINITE[v]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError(f"Not a number: {v!r}.")
    return float(v)


def _read_dtype_str(spec: Any) -> np.dtype:
    if not isinstance(spec, str):
        raise ValueError(f"Not a dtype: {spec!r}.")
    dtype = np.dtype(spec)
    if dtype.kind not in _ARRAY_KINDS or dtype.fields is not None or dtype.subdtype is not None:
        raise ValueError(f"Unsupported dtype {spec!r}.")
    return dtype


def _read_array(node: dict[str, Any]) -> np.ndarray:
    spec, shape, data = _need(node, "dtype", "shape", "data")
    dtype = _read_dtype_str(spec)
    if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
        raise ValueError(f"Malformed array shape {shape!r}.")
    n = math.prod(shape)
    if dtype.kind == "c":
        real, imag = _need(data, "real", "imag")
        if len(real) != n or len(imag) != n:
            raise ValueError("Array data and shape disagree.")
        flat = np.empty(n, dtype=dtype)
        flat.real = [_read_float(v) for v in real]
        flat.imag = [_read_float(v) for v in imag]
    else:
        if not isinstance(data, list) or len(data) != n:
            raise ValueError("Array data and shape disagree.")
        if dtype.kind == "f":
            flat = np.array([_read_float(v) for v in data], dtype=dtype)
        elif dtype.kind in "Mm":
            flat = np.array(data, dtype="i8").view(dtype)
        elif dtype.kind == "O":
            flat = np.empty(n, dtype=object)
            for i, v in enumerate(data):
                flat[i] = _read(v)
        else:
            flat = np.array(data, dtype=dtype)
            if flat.shape != (n,):
                raise ValueError("Array data and shape disagree.")
    arr = flat.reshape(shape)
    if node.get("readonly"):
        arr.flags.writeable = False
    return arr


def _read_dtype(node: dict[str, Any]) -> Any:
    if "numpy" in node:
        return _read_dtype_str(node["numpy"])
    if "categories" in node:
        cats = node["categories"]
        return pd.CategoricalDtype(
            None if cats is None else _read(cats), ordered=bool(node.get("ordered"))
        )
    if "string" in node:
        na = pd.NA if node.get("na") == "NA" else np.nan
        return pd.StringDtype(storage=node["string"], na_value=na)
    (name,) = _need(node, "pandas")
    return pd.api.types.pandas_dtype(name)


def _read_values(node: Any) -> Any:
    """Read the values of a Series, an Index or a column: an ndarray or a pandas array."""
    value = _read(node)
    if not isinstance(value, (np.ndarray, pd.api.extensions.ExtensionArray)) or value.ndim != 1:
        raise ValueError("Malformed column values.")
    return value


def _read_index(node: Any) -> pd.Index:
    index = _read(node)
    if not isinstance(index, pd.Index):
        raise ValueError("Malformed index.")
    return index


def _read_attrs(obj: pd.DataFrame | pd.Series, node: dict[str, Any]) -> None:
    if "attrs" in node:
        obj.attrs.update(_read(node["attrs"]))


def _read_frame(node: dict[str, Any]) -> pd.DataFrame:
    columns, index, data = _need(node, "columns", "index", "data")
    columns, index = _read_index(columns), _read_index(index)
    cols = [_read_values(c) for c in data]
    if len(cols) != len(columns):
        raise ValueError("DataFrame columns and data disagree.")
    if cols:
        # built on a fresh range index, then given its own: no alignment on duplicate labels
        frame = pd.DataFrame(
            {j: pd.Series(v, dtype=v.dtype, copy=False) for j, v in enumerate(cols)}
        )
        frame.index = index
    else:
        frame = pd.DataFrame(index=index)
    frame.columns = columns
    _read_attrs(frame, node)
    return frame


def _read_dataclass(node: dict[str, Any], *, release: bool = False) -> Any:
    kind, values = _need(node, "kind", "fields")
    cls = _class_of(kind, release=release)
    if not isinstance(values, dict):
        raise ValueError(f"Malformed fields of {kind!r}.")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(values) - set(fields)
    if unknown:
        raise ValueError(f"{kind!r} has no field(s) {sorted(unknown)}.")
    read = {name: _read(v) for name, v in values.items()}
    obj = cls(**{k: v for k, v in read.items() if fields[k].init})
    for k, v in read.items():
        if not fields[k].init:
            object.__setattr__(obj, k, v)
    return obj


def _read_tagged(node: dict[str, Any]) -> Any:
    tag = node[TAG]
    if tag == "ndarray":
        return _read_array(node)
    if tag == "scalar":
        (arr,) = _need(node, "array")
        value = _read(arr)
        if not isinstance(value, np.ndarray) or value.ndim != 0:
            raise ValueError("Malformed numpy scalar.")
        return value[()]
    if tag == "float":
        (v,) = _need(node, "value")
        return _read_float(v)
    if tag in ("tuple", "set", "frozenset"):
        (items,) = _need(node, "items")
        return {"tuple": tuple, "set": set, "frozenset": frozenset}[tag](_read(items))
    if tag == "dict":
        (items,) = _need(node, "items")
        return {_read(k): _read(v) for k, v in items}
    if tag == "dataclass":
        return _read_dataclass(node)
    if tag == "NA":
        return pd.NA
    if tag == "NaT":
        return pd.NaT
    if tag == "dtype":
        return _read_dtype(node)
    if tag == "Categorical":
        dtype, codes = _need(node, "dtype", "codes")
        return pd.Categorical.from_codes(_read(codes), dtype=_read(dtype))
    if tag == "extension":
        dtype, values = _need(node, "dtype", "values")
        return pd.array([_read(v) for v in values], dtype=_read(dtype))
    if tag == "Index":
        values, name = _need(node, "values", "name")
        values = _read_values(values)
        return pd.Index(values, dtype=values.dtype, name=_read(name), copy=False)
    if tag == "RangeIndex":
        start, stop, step, name = _need(node, "start", "stop", "step", "name")
        return pd.RangeIndex(start, stop, step, name=_read(name))
    if tag == "MultiIndex":
        levels, codes, names = _need(node, "levels", "codes", "names")
        return pd.MultiIndex(
            levels=[_read_index(lev) for lev in levels],
            codes=[_read(c) for c in codes],
            names=[_read(n) for n in names],
            verify_integrity=True,
        )
    if tag == "Series":
        values, index, name = _need(node, "values", "index", "name")
        values = _read_values(values)
        series = pd.Series(
            values, index=_read_index(index), name=_read(name), dtype=values.dtype, copy=False
        )
        _read_attrs(series, node)
        return series
    if tag == "DataFrame":
        return _read_frame(node)
    if tag == "Timestamp":
        ns, unit, tz = _need(node, "ns", "unit", "tz")
        return pd.Timestamp(int(ns), unit="ns", tz=tz).as_unit(unit)
    if tag == "Timedelta":
        ns, unit = _need(node, "ns", "unit")
        return pd.Timedelta(int(ns), unit="ns").as_unit(unit)
    raise ValueError(f"Unknown tag {tag!r}.")


def _read(node: Any) -> Any:
    if node is None or isinstance(node, (bool, int, str)):
        return node
    if isinstance(node, float):
        if not math.isfinite(node):
            raise ValueError("A release dictionary holds NaN or infinity as a bare number.")
        return node
    if isinstance(node, list):
        return [_read(v) for v in node]
    if isinstance(node, dict):
        if TAG in node:
            return _read_tagged(node)
        return {k: _read(v) for k, v in node.items()}
    raise ValueError(f"Not a JSON value: {type(node).__qualname__}.")


def from_dict(d: dict[str, Any]) -> Any:
    """Build a release back from the dictionary :func:`to_dict` returned.

    Parameters
    ----------
    d : dict
        The dictionary, as written or after a JSON round trip.

    Returns
    -------
    release dataclass
        A release equal, field by field, to the one written.

    Raises
    ------
    ValueError
        If `d` is not a release dictionary of a known format and kind, or is
        malformed.
    """
    if not isinstance(d, dict) or d.get(TAG) != "dataclass":
        raise ValueError("Not a release dictionary (see safeplot.release.to_dict).")
    if d.get("format") != FORMAT:
        raise ValueError(f"Unknown release dictionary format {d.get('format')!r}.")
    return _read_dataclass({k: v for k, v in d.items() if k != "format"}, release=True)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"A release's JSON holds the non-standard number {name}.")


def to_json(release: Any, **kwargs: Any) -> str:
    """Return a release as strict JSON text (:func:`to_dict`, then :func:`json.dumps`).

    Parameters
    ----------
    release : release dataclass
    **kwargs
        Passed to :func:`json.dumps` (``indent``, ...).

    Returns
    -------
    str
    """
    return json.dumps(to_dict(release), allow_nan=False, **kwargs)


def from_json(text: str | bytes) -> Any:
    """Build a release back from the JSON text :func:`to_json` returned.

    Parameters
    ----------
    text : str or bytes

    Returns
    -------
    release dataclass
    """
    return from_dict(json.loads(text, parse_constant=_refuse_constant))


# -- the methods release_kind gives a class -----------------------------------------------


def _method_to_dict(self: Any) -> dict[str, Any]:
    """Return the release as a dictionary of plain JSON types (see :func:`to_dict`)."""
    return to_dict(self)


def _method_to_json(self: Any, **kwargs: Any) -> str:
    """Return the release as strict JSON text (see :func:`to_json`)."""
    return to_json(self, **kwargs)


def _checked(cls: type, obj: Any) -> Any:
    if not isinstance(obj, cls):
        raise TypeError(f"The dictionary holds a {type(obj).__name__}, not a {cls.__name__}.")
    return obj


def _method_from_dict(cls: type, d: dict[str, Any]) -> Any:
    """Build the release back from :meth:`to_dict`'s dictionary (see :func:`from_dict`)."""
    return _checked(cls, from_dict(d))


def _method_from_json(cls: type, text: str | bytes) -> Any:
    """Build the release back from :meth:`to_json`'s text (see :func:`from_json`)."""
    return _checked(cls, from_json(text))


_METHODS: dict[str, Any] = {
    "to_dict": _method_to_dict,
    "to_json": _method_to_json,
    "from_dict": classmethod(_method_from_dict),
    "from_json": classmethod(_method_from_json),
}
