"""A pandas plotting backend that releases data before drawing it.

With ``pd.options.plotting.backend = "safeplot"`` (or ``df.plot(...,
backend="safeplot")``) the plots pandas draws from a Series or DataFrame go
through safeplot: ``df.plot.hist()``, ``df.plot.box()``, ``df.plot.kde()``,
``df.plot.scatter()``, ``df.plot.hexbin()``, ``counts.plot.bar()``,
``df.hist()`` and ``df.boxplot()`` release the data under a disclosure-control
method (``method=`` as a keyword, the policy's default otherwise) and draw
only the release. ``method="dp"`` with ``epsilon=`` is taken by ``hist`` and
``kde`` (each panel is one release and spends its epsilon). Kinds that draw
every raw value (``line``, ``area``, ``pie``) raise
:class:`~safeplot.errors.UnsafePlotError` naming the safe alternative.

pandas finds this module through the ``pandas_plotting_backends`` entry
point ``safeplot``. It provides what pandas looks up on a backend:
:func:`plot`, :func:`hist_series`, :func:`hist_frame`, :func:`boxplot`,
:func:`boxplot_frame` and :func:`boxplot_frame_groupby`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize.grids import hits_any, rare_values, safe_ticks
from ..anonymize.suppression import suppress
from ..errors import DisclosureError, UnsafePlotError
from ..marks.hexbin import draw_hexbin
from ..methods import (
    Method,
    available_methods,
    check_family,
    get_method,
    method_options,
)
from ..plots._categories import merge_small as _merge_small
from ..plots._categories import round_counts as _round_counts
from ..plots._common import (
    check_positive_int,
    finish,
    make_report,
    refuse_if_nothing_shown,
    resolve_annotate,
    safe_limits,
    set_safe_axis,
)
from ..plots.categorical import boxplot as _sp_boxplot
from ..plots.distributions import histplot as _sp_histplot
from ..plots.hexbin import HexbinRelease, release_hexbin
from ..plots.kde import kdeplot as _sp_kdeplot
from ..plots.matrix import MARKER, is_safe_matrix
from ..plots.relational import scatter as _sp_scatter
from ..plots.relational import scatterplot as _sp_scatterplot
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind

__all__ = [
    "BAR_METHODS",
    "SAFE_KINDS",
    "UNSAFE_KINDS",
    "BarRelease",
    "boxplot",
    "boxplot_frame",
    "boxplot_frame_groupby",
    "hist_frame",
    "hist_series",
    "plot",
    "release_bar_counts",
]

#: Kinds this backend draws safely.
SAFE_KINDS: tuple[str, ...] = ("hist", "kde", "density", "box", "scatter", "hexbin", "bar", "barh")

#: Kinds that would draw every raw value, and what to use instead.
UNSAFE_KINDS: dict[str, str] = {
    "line": (
        "kind='line' draws every raw value (one vertex per record) and cannot be released. "
        "For a distribution use df.plot.hist() or df.plot.kde(); for a relation between two "
        "variables df.plot.scatter(x=..., y=...) or safeplot.regplot; for a trend over time "
        "aggregate first (e.g. means of groups of at least threshold records)."
    ),
    "area": (
        "kind='area' draws every raw value (the outline passes through each record) and cannot "
        "be released. Use df.plot.hist(stacked=True) or df.plot.kde() for distributions, or "
        "aggregate to counts and use kind='bar' (e.g. s.value_counts().plot.bar())."
    ),
    "pie": (
        "kind='pie' draws a slice per value and cannot be released. Use a bar plot of counts, "
        "which suppresses small counts: s.value_counts().plot.bar(), or safeplot.countplot."
    ),
}

#: Families of methods (:attr:`~safeplot.methods.Method.family`) of bar plots of counts.
_BAR_FAMILIES = ("counts", "rules", "raw")
#: Methods of bar plots of counts.
BAR_METHODS: tuple[str, ...] = tuple(
    m.name for m in available_methods() if m.family in _BAR_FAMILIES
)

#: pandas keywords that would draw raw values, and why they are refused.
_REFUSED = {
    "table": "table=True prints the raw data under the plot; leave it out.",
    "yerr": "error bars from raw data are not released; leave yerr out.",
    "xerr": "error bars from raw data are not released; leave xerr out.",
    "secondary_y": "secondary_y is not supported; draw the second variable on its own Axes.",
    "logx": "log axes are not supported; plot the logarithm of the variable instead.",
    "logy": "log axes are not supported; plot the logarithm of the variable instead.",
    "loglog": "log axes are not supported; plot the logarithm of the variable instead.",
    "xticks": "ticks are placed on a safe grid (no tick on a rare raw value); leave xticks out.",
    "yticks": "ticks are placed on a safe grid (no tick on a rare raw value); leave yticks out.",
    "style": "style= sets line styles, and line plots of raw values are not released.",
}
#: Values of those keywords that ask for nothing (pandas' defaults).
_HARMLESS = (None, False, ())


# -- the call: safeplot's options and pandas' styling keywords ----------------------------


@dataclass
class _Call:
    """The keywords of one backend call, validated before anything is drawn."""

    kind: str
    pol: Policy
    method: str
    threshold: int
    options: dict[str, Any]
    annotate: bool | None
    ax: Any = None
    subplots: bool = False
    sharex: bool | None = None
    sharey: bool = False
    layout: tuple[int, int] | None = None
    figsize: tuple[float, float] | None = None
    title: Any = None
    grid: bool | None = None
    legend: Any = None
    xlabel: str | None = None
    ylabel: str | None = None
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    rot: float | None = None
    fontsize: float | None = None
    color: Any = None
    alpha: float | None = None
    colormap: Any = None

    @property
    def m(self) -> Method:
        """The method, asked what it releases."""
        return get_method(self.method)

    @property
    def safe(self) -> dict[str, Any]:
        """Keyword arguments of safeplot's plot functions."""
        out = {k: v for k, v in self.options.items() if k in ("threshold", "factor", "k", "q")}
        if self.options.get("epsilon") is not None:  # method="dp": each panel spends it
            out["epsilon"] = self.options["epsilon"]
        return {"method": self.method, "annotate": self.annotate, **out}


_POLICY_KIND = {
    "hist": "hist",
    "kde": "kde",
    "box": "box",
    "scatter": "scatter",
    "hexbin": "heatmap",
    "bar": "count",
    "barh": "count",
}


def _parse(kind: str, kwargs: dict[str, Any], *, rounding_c: bool = True) -> _Call:
    """Pop safeplot's and pandas' common keywords from `kwargs`; refuse unsafe ones."""
    pol = get_policy()
    for name, why in _REFUSED.items():
        value = kwargs.pop(name, None)
        if not _harmless(value):
            raise ValueError(f"kind={kind!r}: {name}={value!r} is refused: {why}")
    for name in ("use_index", "reuse_plot", "label"):
        kwargs.pop(name, None)
    method = pol.check_method(kwargs.pop("method", None), _POLICY_KIND[kind])
    m = get_method(method)
    threshold = pol.check_threshold(kwargs.pop("threshold", None))
    k, q = kwargs.pop("k", None), kwargs.pop("q", None)  # None: the policy's floors
    factor = check_positive_int("factor", kwargs.pop("factor", 2))
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    annotate = kwargs.pop("annotate", None)
    resolve_annotate(annotate, pol)
    options: dict[str, Any] = {"threshold": threshold, "factor": factor, "k": k, "q": q}
    epsilon = kwargs.pop("epsilon", None)
    if epsilon is not None:
        if not m.private:
            raise ValueError(
                f"kind={kind!r}: epsilon= is the privacy loss of method='dp'; method={method!r} "
                "takes no epsilon."
            )
        options["epsilon"] = epsilon
    rounding = {
        "algorithm": kwargs.pop("algorithm", None),
        "discretizer": kwargs.pop("discretizer", None),
        "c": kwargs.pop("c", None) if rounding_c else None,
    }
    options["rounding"] = {n: v for n, v in rounding.items() if v is not None}
    call = _Call(kind, pol, method, threshold, options, annotate)
    for name in (
        "ax",
        "subplots",
        "sharex",
        "sharey",
        "layout",
        "figsize",
        "title",
        "grid",
        "legend",
        "xlabel",
        "ylabel",
        "xlim",
        "ylim",
        "rot",
        "fontsize",
        "color",
        "alpha",
        "colormap",
    ):
        if name in kwargs:
            setattr(call, name, kwargs.pop(name))
    if call.subplots not in (True, False):
        raise ValueError(
            "subplots must be True or False here; groups of columns on shared Axes are not "
            "supported by the safeplot backend."
        )
    for name in ("xlim", "ylim"):
        lim = getattr(call, name)
        if lim is not None:
            lim = tuple(float(v) for v in np.ravel(lim))
            if len(lim) != 2 or not all(math.isfinite(v) for v in lim) or lim[0] == lim[1]:
                raise ValueError(f"{name} must be two different finite numbers, got {lim!r}.")
            setattr(call, name, lim)
    return call


def _harmless(value: Any) -> bool:
    if isinstance(value, (pd.Series, pd.DataFrame, np.ndarray)):
        return False
    return any(value is h or value == h for h in _HARMLESS)


@contextlib.contextmanager
def _clean_up_on_error() -> Iterator[None]:
    """Close every figure opened by a call that then fails: no partial figure is left."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    try:
        yield
    except BaseException:
        for num in set(plt.get_fignums()) - before:
            plt.close(num)
        raise


# -- figures and panels -----------------------------------------------------------------


def _layout(n: int, layout: Any, default: str) -> tuple[int, int]:
    """Rows and columns for `n` panels, as pandas chooses them (``-1`` allowed in `layout`)."""
    if layout is not None:
        rows, cols = (int(v) for v in layout)
        if rows == -1 and cols == -1:
            raise ValueError("At least one dimension of layout must be positive.")
        if rows == -1:
            rows = math.ceil(n / cols)
        if cols == -1:
            cols = math.ceil(n / rows)
        if rows < 1 or cols < 1 or rows * cols < n:
            raise ValueError(f"layout {layout!r} has room for fewer than the {n} panels needed.")
        return rows, cols
    if default == "vertical":
        return n, 1
    fixed = {1: (1, 1), 2: (1, 2), 3: (2, 2), 4: (2, 2)}
    if n in fixed:
        return fixed[n]
    k = math.ceil(math.sqrt(n))
    return (k, k - 1) if (k - 1) * k >= n else (k, k)


def _new_axes(call: _Call, n: int, *, default: str, series: bool = False) -> np.ndarray:
    """Axes for `n` panels: the given ``ax`` (one or several) or a new figure, 2-D array."""
    import matplotlib.pyplot as plt

    if call.ax is not None:
        given = np.asarray(call.ax, dtype=object).ravel()
        if given.size < n or not all(isinstance(a, Axes) for a in given):
            want = "an Axes" if n == 1 else f"{n} Axes"
            raise ValueError(f"ax must be {want} for this plot, got {call.ax!r}.")
        return given[:n].reshape(1, n)
    if n == 1 and series and plt.get_fignums():
        return np.array([[plt.gca()]], dtype=object)  # as pandas does for a Series
    rows, cols = _layout(n, call.layout, default)
    _, axes = plt.subplots(
        rows,
        cols,
        figsize=call.figsize,
        sharex=bool(call.sharex) if call.sharex is not None else False,
        sharey=bool(call.sharey),
        squeeze=False,
    )
    for extra in axes.ravel()[n:]:
        extra.set_visible(False)
    return axes


def _result(axes: np.ndarray, n: int, call: _Call, *, many: bool, flat: bool = True) -> Any:
    """Return what pandas returns: one Axes, or an array of Axes for several panels.

    ``flat``: a 1-D array (``DataFrame.plot``; reshaped to ``layout`` when
    given); otherwise the 2-D grid of the figure (``DataFrame.hist``).
    """
    if not many:
        return axes.ravel()[0]
    if not flat:
        return axes
    if call.layout is not None and call.ax is None:
        return axes
    return axes.ravel()[:n]


def _rare_of(values: Sequence[np.ndarray], threshold: int) -> np.ndarray:
    """Rare raw values of each array and of all of them together."""
    parts = [rare_values(v, threshold) for v in values]
    if values:
        parts.append(
            rare_values(np.concatenate([np.asarray(v, float) for v in values]), threshold)
        )
    return np.unique(np.concatenate(parts)) if parts else np.array([])


def _check_limits(call: _Call, rare: dict[str, np.ndarray | None]) -> None:
    """Refuse an xlim/ylim on a data axis that equals a rare raw value (before drawing)."""
    for axis in ("x", "y"):
        lim = getattr(call, f"{axis}lim")
        avoid = rare.get(axis)
        if lim is not None and avoid is not None and not call.m.raw and hits_any(lim, avoid):
            raise DisclosureError(
                f"{axis}lim={lim!r} puts an axis limit on a value held by fewer than "
                f"threshold={call.threshold} records. Choose round limits clear of the data."
            )


def _style(ax: Axes, call: _Call, rare: dict[str, np.ndarray | None], *, title: Any = None):
    """Apply pandas' styling keywords to a released panel."""
    for axis in ("x", "y"):
        lim = getattr(call, f"{axis}lim")
        if lim is None:
            continue
        avoid = rare.get(axis)
        if avoid is None or call.m.raw:
            (ax.set_xlim if axis == "x" else ax.set_ylim)(*lim)
        else:
            lo, hi = sorted(lim)
            set_safe_axis(ax, axis, lim, safe_ticks(lo, hi))
    if title is not None:
        ax.set_title(str(title))
    if call.xlabel is not None:
        ax.set_xlabel(call.xlabel)
    if call.ylabel is not None:
        ax.set_ylabel(call.ylabel)
    if call.grid is not None:
        ax.grid(bool(call.grid))
    if call.legend is False and ax.get_legend() is not None:
        ax.get_legend().remove()
    if call.rot is not None or call.fontsize is not None:
        ax.tick_params(
            axis="x" if call.kind != "barh" else "y",
            **({"labelrotation": call.rot} if call.rot is not None else {}),
            **({"labelsize": call.fontsize} if call.fontsize is not None else {}),
        )


def _titles(call: _Call, axes: list[Axes], defaults: list[Any]) -> None:
    """Panel titles: pandas' list of titles, or one title (a figure title over several)."""
    title = call.title
    if isinstance(title, (list, tuple)):
        if len(title) != len(axes):
            raise ValueError(
                f"title has {len(title)} entries for {len(axes)} panels; give one per panel."
            )
        for ax, t in zip(axes, title, strict=True):
            ax.set_title(str(t))
        return
    for ax, t in zip(axes, defaults, strict=True):
        if t is not None:
            ax.set_title(str(t))
    if title is not None:
        if len(axes) == 1:
            axes[0].set_title(str(title))
        else:
            axes[0].get_figure().suptitle(str(title))


def _numeric_columns(
    data: pd.Series | pd.DataFrame, columns: Any, exclude: Sequence[Any], what: str
) -> pd.DataFrame:
    """Return the numeric columns to plot (all of them, or those named), as a DataFrame."""
    if isinstance(data, pd.Series):
        if columns is not None:
            raise ValueError(f"{what}: column/y selects columns of a DataFrame, not of a Series.")
        name = data.name if data.name is not None else ""
        return data.to_frame(name=name)
    if columns is not None:
        names = [columns] if not isinstance(columns, (list, tuple, pd.Index)) else list(columns)
        missing = [c for c in names if c not in data.columns]
        if missing:
            raise ValueError(
                f"{what}: no column {missing[0]!r} in the data (columns: {list(data.columns)})."
            )
        frame = data[names]
        bad = [c for c in names if not _is_number(frame[c])]
        if bad:
            raise ValueError(
                f"{what}: column(s) {bad} are not numeric; plot the counts of a categorical "
                "column with s.value_counts().plot.bar() instead."
            )
        return frame
    keep = [c for c in data.columns if c not in set(exclude) and _is_number(data[c])]
    if not keep:
        raise ValueError(f"{what}: the data have no numeric column to plot.")
    return data[keep]


def _is_number(s: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)


def _groups(data: pd.DataFrame, by: Any, threshold: int, what: str) -> list[tuple[Any, Any]]:
    """Return the levels of `by` and their rows, refusing a level below threshold."""
    names = [by] if not isinstance(by, (list, tuple)) else list(by)
    missing = [b for b in names if b not in data.columns]
    if missing:
        raise ValueError(f"{what}: by={missing[0]!r} is not a column of the data.")
    grouped = data.groupby(names if len(names) > 1 else names[0], sort=True, observed=True)
    out = [(key, idx) for key, idx in grouped.groups.items()]
    small = [key for key, idx in out if len(idx) < threshold]
    if small:
        raise DisclosureError(
            f"{what}: {len(small)} group(s) of by={by!r} have fewer than threshold={threshold} "
            "records; a panel of so few records cannot be released. Merge small groups first."
        )
    return out


def _check_columns(frame: pd.DataFrame, call: _Call, *, strata: bool = False) -> None:
    """Validate every column to be released (text, inf, empty, constant) before drawing."""
    for col in frame.columns:
        clean = clean_numeric({str(col): frame[col]})
        if call.m.uses_k and not strata:
            call.pol.check_k(call.options["k"], clean.n)


def _long(frame: pd.DataFrame) -> pd.DataFrame:
    """Columns stacked as one variable "value" with the column name in "column"."""
    parts = [
        pd.DataFrame({"value": frame[c].to_numpy(dtype=float), "column": str(c)})
        for c in frame.columns
    ]
    out = pd.concat(parts, ignore_index=True)
    out["column"] = pd.Categorical(out["column"], categories=[str(c) for c in frame.columns])
    return out


@contextlib.contextmanager
def _rounding(call: _Call) -> Iterator[None]:
    with method_options(**call.options["rounding"]):
        yield


# -- hist and kde ---------------------------------------------------------------------------


def _panels(
    data: pd.Series | pd.DataFrame, call: _Call, kw: dict[str, Any], what: str
) -> tuple[list[pd.DataFrame], list[Any], bool]:
    """Split the data into panels: one, one per column (subplots) or one per group (by)."""
    by = kw.pop("by", None)
    column = kw.pop("column", None)
    x, y = kw.pop("x", None), kw.pop("y", None)
    if x is not None:
        raise ValueError(
            f"{what}: x= is not used by this kind; select columns with y= or column=."
        )
    if y is not None and column is not None:
        raise ValueError(f"{what}: give the columns with y= or column=, not both.")
    columns = y if y is not None else column
    if by is not None:
        if isinstance(data, pd.Series):
            raise ValueError(f"{what}: by= needs a DataFrame.")
        frame = _numeric_columns(
            data, columns, exclude=[by] if not isinstance(by, list) else by, what=what
        )
        groups = _groups(data, by, call.threshold, what)
        panels = [frame.loc[idx] for _, idx in groups]
        return panels, [key for key, _ in groups], True
    frame = _numeric_columns(data, columns, exclude=[], what=what)
    if call.subplots:
        return [frame[[c]] for c in frame.columns], [None] * frame.shape[1], True
    return [frame], [None], False


def _distribution(
    data,
    call: _Call,
    kw: dict[str, Any],
    what: str,
    *,
    column_titles: bool = False,
    flat: bool = True,
    default_layout: str = "vertical",
) -> Any:
    """Hist and kde: one safeplot histplot/kdeplot per panel."""
    panels, titles, many = _panels(data, call, kw, what)
    if column_titles and call.subplots:
        titles = [str(frame.columns[0]) for frame in panels]
    horizontal = kw.pop("orientation", "vertical") == "horizontal"
    hist = call.kind == "hist"
    if hist:
        bins = kw.pop("bins", 10)
        stacked = bool(kw.pop("stacked", False))
        density = bool(kw.pop("density", False))
        cumulative = bool(kw.pop("cumulative", False))
        if kw.pop("weights", None) is not None:
            raise ValueError(
                "weights= gives each record its own value, and weighted sums of a few records "
                "are not protected by small-cell suppression. Leave weights out."
            )
        extra = {
            "bins": bins,
            "multiple": "stack" if stacked else "layer",
            "stat": "density" if density else "count",
            "cumulative": cumulative,
        }
    else:
        bw = kw.pop("bw_method", None)
        ind = kw.pop("ind", None)
        if kw.pop("weights", None) is not None:
            raise ValueError("kind='kde': weights= are individual data and are refused.")
        extra = {"bw_method": "scott" if bw is None else bw}
        if ind is not None:
            if isinstance(ind, (int, np.integer)) and not isinstance(ind, bool):
                extra["gridsize"] = check_positive_int("ind", ind)
            else:
                raise ValueError(
                    "kind='kde': ind as evaluation points is refused: the density is drawn on "
                    "a grid inside the released range. Give ind as a number of points."
                )
    for frame in panels:
        _check_columns(frame, call, strata=frame.shape[1] > 1)
    rare_data = _rare_of(
        [f[c].dropna().to_numpy(float) for f in panels for c in f.columns], call.threshold
    )
    data_axis = "y" if horizontal else "x"
    rare = {data_axis: rare_data, ("x" if horizontal else "y"): None}
    _check_limits(call, rare)
    axes = _new_axes(call, len(panels), default=default_layout, series=isinstance(data, pd.Series))
    drawn = list(axes.ravel()[: len(panels)])
    colours = call.color
    for ax, frame in zip(drawn, panels, strict=True):
        style: dict[str, Any] = dict(kw)
        if call.alpha is not None:
            style["alpha"] = call.alpha
        elif hist and frame.shape[1] > 1 and not stacked:
            style["alpha"] = 0.5  # pandas' default for overlaid histograms
        if frame.shape[1] == 1:
            series = frame.iloc[:, 0]
            roles = {data_axis: series}
            if colours is not None:
                style["color"] = colours
        else:
            roles = {"data": _long(frame), data_axis: "value", "hue": "column"}
            if colours is not None:
                style["palette"] = colours if not isinstance(colours, str) else None
                if isinstance(colours, str):
                    style["color"] = colours
            elif call.colormap is not None:
                style["palette"] = call.colormap
        with _rounding(call):
            if hist:
                _sp_histplot(**roles, ax=ax, **extra, **call.safe, **style)
            else:
                _sp_kdeplot(**roles, ax=ax, **extra, **call.safe, **style)
        if frame.shape[1] > 1:
            (ax.set_xlabel if data_axis == "x" else ax.set_ylabel)("")
            if ax.get_legend() is not None:
                ax.get_legend().set_title(None)
        count_label = "Frequency" if hist else "Density"
        (ax.set_ylabel if data_axis == "x" else ax.set_xlabel)(count_label)
        _style(ax, call, rare)
    _titles(call, drawn, titles)
    return _result(axes, len(panels), call, many=many, flat=flat)


# -- box ----------------------------------------------------------------------------------


def _box(data, call: _Call, kw: dict[str, Any], *, flat: bool = True) -> Any:
    by = kw.pop("by", None)
    column = kw.pop("column", None)
    x, y = kw.pop("x", None), kw.pop("y", None)
    if x is not None:
        raise ValueError("kind='box': x= is not used; select columns with y= or column=.")
    columns = y if y is not None else column
    vert = kw.pop("vert", None)
    orientation = kw.pop("orientation", None)
    horizontal = vert is False or orientation == "horizontal"
    orient = "h" if horizontal else "v"
    for name in ("return_type", "positions", "widths", "patch_artist", "sym", "notch"):
        value = kw.pop(name, None)
        if name == "return_type" and value not in (None, "axes"):
            raise ValueError(
                f"return_type={value!r} would return matplotlib's artists of a raw box plot; "
                "the safeplot backend returns Axes (return_type=None or 'axes')."
            )
        if name != "return_type" and value not in (None, False):
            raise ValueError(f"kind='box': {name}= is not supported by the safeplot backend.")
    data_axis = "x" if horizontal else "y"
    if by is not None:
        if isinstance(data, pd.Series):
            raise ValueError("kind='box': by= needs a DataFrame.")
        byl = [by] if not isinstance(by, (list, tuple)) else list(by)
        if len(byl) != 1:
            raise ValueError("kind='box': by= takes one column with the safeplot backend.")
        frame = _numeric_columns(data, columns, exclude=byl, what="kind='box'")
        _groups(data, byl[0], call.threshold, "kind='box'")
        panels = [(c, data[[byl[0], c]]) for c in frame.columns]
        many = True
    else:
        frame = _numeric_columns(data, columns, exclude=[], what="kind='box'")
        if call.subplots:
            panels = [(c, frame[[c]]) for c in frame.columns]
            many = True
        else:
            panels = [(None, frame)]
            many = False
    for _, panel in panels:
        _check_columns(
            panel.drop(columns=byl if by is not None else []), call, strata=by is not None
        )
    rare = {
        data_axis: _rare_of(
            [frame[c].dropna().to_numpy(float) for c in frame.columns], call.threshold
        )
    }
    _check_limits(call, rare)
    axes = _new_axes(call, len(panels), default="box", series=isinstance(data, pd.Series))
    drawn = list(axes.ravel()[: len(panels)])
    for ax, (name, panel) in zip(drawn, panels, strict=True):
        style = dict(kw)
        if call.color is not None:
            style["color"] = call.color
        with _rounding(call):
            if by is not None:
                roles = {"x": byl[0], "y": name} if not horizontal else {"y": byl[0], "x": name}
                _sp_boxplot(panel, **roles, orient=orient, ax=ax, **call.safe, **style)
                (ax.set_ylabel if not horizontal else ax.set_xlabel)("")
            else:
                _sp_boxplot(panel, orient=orient, ax=ax, **call.safe, **style)
        _style(ax, call, rare)
    _titles(call, drawn, [name if by is not None else None for name, _ in panels])
    return _result(axes, len(panels), call, many=many, flat=flat)


# -- scatter --------------------------------------------------------------------------------


def _scatter(data, call: _Call, kw: dict[str, Any]) -> Any:
    if not isinstance(data, pd.DataFrame):
        raise ValueError("kind='scatter' needs a DataFrame with x= and y= columns.")
    x, y = kw.pop("x", None), kw.pop("y", None)
    s, c = kw.pop("s", None), kw.pop("c", None)
    colorbar = kw.pop("colorbar", None)
    for role, name in (("x", x), ("y", y)):
        if name is None:
            raise ValueError("kind='scatter' needs both x= and y= (column names).")
        if name not in data.columns:
            raise ValueError(f"kind='scatter': {role}={name!r} is not a column of the data.")
    if s is not None and (isinstance(s, str) or np.ndim(s) > 0):
        raise ValueError(
            "kind='scatter': per-point marker sizes (s= a column or an array) would encode a raw "
            "value of each record. Pass one size, or use safeplot.scatterplot(size=...), which "
            "releases the variable with the points."
        )
    colour_values = None
    if c is not None:
        if isinstance(c, str) and c in data.columns:
            if not _is_number(data[c]):
                raise ValueError(
                    f"kind='scatter': c={c!r} is a categorical column; colour groups with "
                    f"safeplot.scatterplot(data=df, x={x!r}, y={y!r}, hue={c!r}) instead."
                )
            colour_values = data[c]
        elif isinstance(c, str) or mpl.colors.is_color_like(c):
            if not mpl.colors.is_color_like(c):
                raise ValueError(f"kind='scatter': c={c!r} is neither a colour nor a column.")
        else:
            values = np.asarray(c)
            if values.ndim == 1 and values.size == len(data) and _is_number(pd.Series(values)):
                colour_values = pd.Series(values, name="c", index=data.index)
            else:
                raise ValueError(
                    "kind='scatter': per-point colours cannot be released. Give one colour, a "
                    "numeric column name (released with the points) or use "
                    "safeplot.scatterplot(hue=...)."
                )
    elif call.color is not None:
        c = call.color
    if colour_values is not None:
        if call.m.family in ("counts", "rules"):
            raise ValueError(
                f"kind='scatter': colouring by a column cannot be shown with "
                f"method={call.method!r} (each mark stands for many records). Use "
                "method='deterministic' or 'probabilistic', or leave c out."
            )
        if "c" in call.m.param_names:
            # the method's own c= (number of values) would be taken for the colour
            raise ValueError(
                "kind='scatter': colouring by a column is not available with method='rounding' "
                "(c= is the colour here, not rounding's number of values). Use "
                "method='deterministic', 'probabilistic' or 'microaggregation', or leave c out."
            )
    if call.subplots:
        raise ValueError("kind='scatter' draws one panel; subplots=True is not supported.")
    frame = (
        data[[x, y]] if colour_values is None else data[[x, y]].assign(**{"\x00c": colour_values})
    )
    clean = clean_numeric(frame)
    if call.m.uses_k:
        call.pol.check_k(call.options["k"], clean.n)
    rare = {
        "x": rare_values(clean.values[:, 0], call.threshold),
        "y": rare_values(clean.values[:, 1], call.threshold),
    }
    _check_limits(call, rare)
    ax = _new_axes(call, 1, default="box")[0, 0]
    style = dict(kw)
    if call.alpha is not None:
        style["alpha"] = call.alpha
    with _rounding(call):
        if call.m.rule_based:
            if c is not None:
                style["color"] = c
            _sp_scatterplot(data, x=x, y=y, ax=ax, legend=False, **call.safe, **style)
        else:
            cmap = (
                call.colormap
                if call.colormap is not None
                else ("viridis" if colour_values is not None else None)
            )
            coll = _sp_scatter(
                data[x],
                data[y],
                s=s,
                c=colour_values if colour_values is not None else c,
                cmap=cmap,
                ax=ax,
                **call.safe,
                **style,
            )
            if colour_values is not None and colorbar is not False:
                _colourbar(ax, coll, colour_values, clean, call, name=str(c))
    ax.set_xlabel(str(x))
    ax.set_ylabel(str(y))
    _style(ax, call, rare)
    _titles(call, [ax], [None])
    return ax


def _colourbar(ax: Axes, coll: Any, raw_c: pd.Series, clean: Any, call: _Call, name: str):
    """Add a colour bar for released colour values, its limits and ticks on no rare value."""
    shown = np.asarray(coll.get_array(), dtype=float)
    avoid = np.unique(
        np.concatenate([rare_values(clean.values[:, j], call.threshold) for j in range(3)])
    )
    if call.m.raw:
        lo, hi = float(shown.min()), float(shown.max())
    else:
        lo, hi = safe_limits(float(shown.min()), float(shown.max()), avoid, margin=0.0)
    if hi <= lo:
        lo, hi = safe_limits(lo - 0.5, hi + 0.5, avoid, margin=0.0)
    coll.set_clim(lo, hi)
    cb = ax.get_figure().colorbar(coll, ax=ax)
    cb.set_label(name)
    cb.set_ticks(safe_ticks(lo, hi))
    cb.minorticks_off()


# -- hexbin ---------------------------------------------------------------------------------


def _hexbin(data, call: _Call, kw: dict[str, Any]) -> Any:
    if not isinstance(data, pd.DataFrame):
        raise ValueError("kind='hexbin' needs a DataFrame with x= and y= columns.")
    x, y = kw.pop("x", None), kw.pop("y", None)
    for role, name in (("x", x), ("y", y)):
        if name is None:
            raise ValueError("kind='hexbin' needs both x= and y= (column names).")
        if name not in data.columns:
            raise ValueError(f"kind='hexbin': {role}={name!r} is not a column of the data.")
    for name, why in (
        (
            "C",
            "values reduced per hexagon (a mean, a maximum ...) of a few records are not "
            "protected; plot counts (leave C out)",
        ),
        ("reduce_C_function", "it applies to C, which is refused"),
        ("extent", "the hexagon grid is placed on a rounded range beyond the data"),
        ("mincnt", "small hexagons are removed by threshold="),
        ("marginals", "marginal bars of raw data are not released"),
        ("xscale", "log axes are not supported; plot the logarithm of the variable"),
        ("yscale", "log axes are not supported; plot the logarithm of the variable"),
    ):
        value = kw.pop(name, None)
        if (
            value is not None
            and not (name in ("marginals",) and value is False)
            and not (name in ("xscale", "yscale") and value == "linear")
        ):
            raise ValueError(f"kind='hexbin': {name}= is refused: {why}.")
    colorbar = kw.pop("colorbar", True)
    gridsize = kw.pop("gridsize", None)
    if call.subplots:
        raise ValueError("kind='hexbin' draws one panel; subplots=True is not supported.")
    names = (str(x), str(y))
    o = call.options
    rel = (
        release_hexbin(
            data[x],
            data[y],
            names=names,
            gridsize=gridsize,
            method=call.method,
            threshold=call.threshold,
            factor=o["factor"],
            k=o["k"],
            q=o["q"],
            policy=call.pol,
        )
        if not o["rounding"]
        else _with_rounding(call, data[x], data[y], names, gridsize)
    )
    raw = clean_numeric({names[0]: data[x], names[1]: data[y]}).values
    rare = {
        "x": rare_values(raw[:, 0], call.threshold),
        "y": rare_values(raw[:, 1], call.threshold),
    }
    _check_limits(call, rare)
    guard.admit(rel.report.function, rel.report, rel)
    ax = _new_axes(call, 1, default="box")[0, 0]
    cmap = call.colormap if call.colormap is not None else kw.pop("cmap", "BuGn")
    if call.alpha is not None:
        kw["alpha"] = call.alpha
    coll = draw_hexbin(ax, rel, limits=not call.m.raw, cmap=cmap, **kw)
    if colorbar:
        cb = ax.get_figure().colorbar(coll, ax=ax)
        cb.set_label("count")
        lo, hi = coll.norm.vmin, coll.norm.vmax
        if lo is not None and hi is not None and hi > lo:
            cb.set_ticks(safe_ticks(lo, hi))
            cb.minorticks_off()
    ax.set_xlabel(names[0])
    ax.set_ylabel(names[1])
    finish(ax, rel.report, annotate=call.annotate, policy=call.pol)
    _style(ax, call, rare)
    _titles(call, [ax], [None])
    return ax


def _with_rounding(call: _Call, x, y, names, gridsize) -> HexbinRelease:
    o = call.options
    with method_options(**o["rounding"]):
        return release_hexbin(
            x,
            y,
            names=names,
            gridsize=gridsize,
            method=call.method,
            threshold=call.threshold,
            factor=o["factor"],
            k=o["k"],
            q=o["q"],
            policy=call.pol,
        )


# -- bar and barh of counts ------------------------------------------------------------------


@release_kind("pandas_bar")
@dataclass
class BarRelease:
    """Released counts for a bar plot: categories shown, suppressed counts NaN.

    Attributes
    ----------
    table : DataFrame
        One row per category shown, one column per series; every count is
        0, NaN (suppressed) or at least the threshold. Categories whose every
        count was suppressed are left out (their labels would name them).
    report : DisclosureReport
    """

    table: pd.DataFrame
    report: DisclosureReport


def release_bar_counts(
    data: pd.Series | pd.DataFrame,
    *,
    method: str | None = None,
    threshold: int | None = None,
    function: str = "bar",
    policy: Policy | None = None,
) -> BarRelease:
    """Release a table of counts (categories x series) for a bar plot.

    The backend cannot tell counts from raw values, so it treats what it is
    given as *counts of records* and checks that they look like counts:
    non-negative whole numbers, one per labelled category (a table indexed
    by row numbers is a table of records, not of categories, and is
    refused). A table released by :func:`safeplot.crosstab` is drawn as
    released.

    Parameters
    ----------
    data : Series or DataFrame
        Counts, e.g. ``s.value_counts()``, ``df.groupby("g").size()`` or
        ``pd.crosstab(...)``; or a table made by :func:`safeplot.crosstab`.
    method : {"suppress", "generalize", "confidential", "none"}, optional
        Default: the policy's method for counts (``"suppress"``).
    threshold : int, optional
        Fewest records in a shown bar (default and floor: the policy's).
    function : str
        Name for the report.
    policy : Policy, optional

    Returns
    -------
    BarRelease

    Raises
    ------
    ValueError
        Values that are not counts, a table of records (row-number index),
        duplicated category labels.

    Examples
    --------
    >>> import pandas as pd
    >>> counts = pd.Series([40, 2, 15, 0], index=["a", "b", "c", "d"], name="count")
    >>> rel = release_bar_counts(counts)
    >>> rel.table["count"].tolist(), rel.report.cells_suppressed
    ([40.0, 15.0, 0.0], 1)
    """
    pol = get_policy(policy)
    frame = data.to_frame() if isinstance(data, pd.Series) else data
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{function}: expected a Series or DataFrame of counts.")
    if isinstance(data, pd.DataFrame) and is_safe_matrix(data):
        marker = data.attrs[MARKER]["report"]
        report = DisclosureReport(
            function=function,
            method=str(marker.get("method", "suppress")),
            params=dict(marker.get("params") or {}),
            variables=tuple(marker.get("variables") or ()),
            n=marker.get("n", 0),
            n_dropped=marker.get("n_dropped", 0),
            cells_suppressed=int(marker.get("cells_suppressed", 0)),
            warnings=list(marker.get("warnings") or []),
            details={"released_by": marker.get("function", "crosstab")},
            policy=str(marker.get("policy", "")),
        )
        return BarRelease(data.copy(), report)
    method = pol.check_method(method, "count")
    m = check_family(method, _BAR_FAMILIES, "bar plots of counts")
    if frame.empty:
        raise ValueError(f"{function}: there are no counts to plot.")
    if isinstance(frame.index, pd.RangeIndex):
        raise ValueError(
            f"{function}: the data are indexed by row number, so they look like records, not "
            "counts of categories; a bar per record would draw each raw value. Count first, "
            "e.g. df['col'].value_counts().plot.bar() or df.groupby('g').size().plot.bar(), or "
            "use safeplot.countplot / safeplot.crosstab."
        )
    if frame.index.has_duplicates:
        raise ValueError(
            f"{function}: category labels repeat; counts have one row per category. Count "
            "first, e.g. s.value_counts()."
        )
    bad = [c for c in frame.columns if not _is_number(frame[c])]
    if bad:
        raise ValueError(f"{function}: column(s) {bad} are not counts (not numeric).")
    values = frame.to_numpy(dtype=float)
    finite = values[np.isfinite(values)]
    if np.isinf(values).any() or (finite < 0).any() or (finite != np.round(finite)).any():
        raise ValueError(
            f"{function}: the safeplot backend draws bars of counts only (non-negative whole "
            "numbers), treated as counts of records and suppressed below the threshold. Bars of "
            "other values (means, sums, measurements) are not released here: use "
            "safeplot.crosstab for counts or safeplot.countplot."
        )
    threshold = pol.check_threshold(threshold)
    counts = np.nan_to_num(values)
    labels = list(frame.index)
    params: dict[str, Any] = {} if m.raw else {"threshold": threshold}
    details: dict[str, Any] = {"treated_as": "counts of records"}
    if m.raw:
        shown_counts, n_supp = counts, 0
    else:
        if m.coarsens:
            merged = _merge_small(counts, threshold)
            if merged.any():
                other = counts[merged].sum(axis=0, keepdims=True)
                counts = np.vstack([counts[~merged], other])
                labels = [lab for lab, g in zip(labels, merged, strict=True) if not g] + ["Other"]
                details["categories_merged"] = int(merged.sum())
        shown = suppress(counts, threshold)
        shown_counts, n_supp = shown.counts, shown.n_suppressed
        if m.rule_based:
            shown_counts = _round_counts(shown_counts, pol.round_n_to, threshold)
            params["round_to"] = pol.round_n_to
    keep = ~np.isnan(shown_counts).all(axis=1)
    if not m.raw:
        refuse_if_nothing_shown(
            shown_counts, "count", "Merge small categories, or use method='generalize'."
        )
        details["categories_suppressed"] = int((~keep).sum())
    index = pd.Index(
        [lab for lab, k_ in zip(labels, keep, strict=True) if k_], name=frame.index.name
    )
    table = pd.DataFrame(shown_counts[keep], index=index, columns=frame.columns)
    report = make_report(
        function,
        method,
        params,
        tuple(str(c) for c in frame.columns),
        int(counts.sum()),
        0,
        pol,
        cells_suppressed=n_supp,
        details=details,
    )
    return BarRelease(table, report)


def _bar(data, call: _Call, kw: dict[str, Any]) -> Any:
    x, y = kw.pop("x", None), kw.pop("y", None)
    frame = data
    if x is not None:
        if not isinstance(data, pd.DataFrame) or x not in data.columns:
            raise ValueError(f"kind={call.kind!r}: x={x!r} is not a column of the data.")
        frame = data.set_index(x)
    if y is not None:
        if not isinstance(frame, pd.DataFrame):
            raise ValueError(f"kind={call.kind!r}: y= selects columns of a DataFrame.")
        names = [y] if not isinstance(y, (list, tuple)) else list(y)
        missing = [c for c in names if c not in frame.columns]
        if missing:
            raise ValueError(f"kind={call.kind!r}: y={missing[0]!r} is not a column.")
        frame = frame[names]
    rel = release_bar_counts(
        frame,
        method=call.method,
        threshold=call.threshold,
        function=f"plot.{call.kind}",
        policy=call.pol,
    )
    guard.admit(rel.report.function, rel.report, rel)
    n = rel.table.shape[1] if call.subplots else 1
    axes = _new_axes(call, n, default="vertical", series=isinstance(data, pd.Series))
    flat = list(axes.ravel()[:n])
    table = rel.table.iloc[:, 0] if isinstance(data, pd.Series) else rel.table
    pandas_kws = {
        k: v
        for k, v in dict(
            color=call.color,
            alpha=call.alpha,
            colormap=call.colormap,
            rot=call.rot,
            fontsize=call.fontsize,
            legend=call.legend if call.legend is not None else isinstance(data, pd.DataFrame),
        ).items()
        if v is not None
    }
    if call.subplots:
        table.plot(
            kind=call.kind, subplots=True, ax=flat, backend="matplotlib", **pandas_kws, **kw
        )
    else:
        table.plot(kind=call.kind, ax=flat[0], backend="matplotlib", **pandas_kws, **kw)
    for ax in flat:
        finish(ax, rel.report, annotate=call.annotate, policy=call.pol)
        _style(ax, call, {})
    _titles(call, flat, [None] * n)
    return _result(axes, n, call, many=call.subplots)


# -- the backend's entry points --------------------------------------------------------------

_HANDLERS = {
    "hist": lambda d, c, k: _distribution(d, c, k, "kind='hist'"),
    "kde": lambda d, c, k: _distribution(d, c, k, "kind='kde'"),
    "box": _box,
    "scatter": _scatter,
    "hexbin": _hexbin,
    "bar": _bar,
    "barh": _bar,
}


def plot(data: pd.Series | pd.DataFrame, kind: str, **kwargs: Any) -> Any:
    """Draw ``data.plot(kind=...)`` safely: the entry point pandas calls on this backend.

    Parameters
    ----------
    data : Series or DataFrame
        What pandas' ``.plot`` accessor was called on.
    kind : str
        ``"hist"``, ``"kde"``/``"density"``, ``"box"``, ``"scatter"``,
        ``"hexbin"``, ``"bar"`` or ``"barh"``. ``"line"``, ``"area"`` and
        ``"pie"`` raise :class:`~safeplot.errors.UnsafePlotError`.
    **kwargs
        pandas' keywords (``x``, ``y``, ``by``, ``column``, ``bins``, ``c``,
        ``s``, ``gridsize``, ``subplots``, ``ax``, ``figsize``, ``layout``,
        ``title``, ``legend``, ``xlabel``, ``ylabel``, ``xlim``, ``ylim``,
        ``grid``, ``color``, ``alpha``, ``colormap``, ``rot``, ``fontsize``,
        ...) and safeplot's: ``method``, ``threshold``, ``factor``, ``k``,
        ``q``, ``algorithm``, ``discretizer``, ``c`` (rounding's number of
        values, except in scatter plots where ``c`` is the colour) and
        ``annotate``. Other keywords go to matplotlib.

    Returns
    -------
    Axes or ndarray of Axes
        As pandas: one Axes, or an array of them with ``subplots=True`` or
        ``by=``. Each carries ``.safeplot_report``.

    Raises
    ------
    UnsafePlotError
        For a kind that draws every raw value.
    DisclosureError
        A policy floor not met, ``method="none"`` without ``allow_raw``, a
        group with fewer than threshold records, a limit on a rare value.
    ValueError
        Bad input or a keyword that would reveal raw data.

    See Also
    --------
    hist_frame, hist_series, boxplot_frame, boxplot_frame_groupby

    Notes
    -----
    **Methods** (the policy's default when ``method`` is omitted):

    - ``hist``: safeplot's :func:`~safeplot.histplot` per panel, every
      method (default ``"suppress"``).
    - ``kde``: :func:`~safeplot.kdeplot` per panel, every method (default
      ``"deterministic"``).
    - ``box``: :func:`~safeplot.boxplot` per panel, every method (default
      ``"deterministic"``).
    - ``scatter``: :func:`~safeplot.scatter` (``"confidential"``:
      :func:`~safeplot.scatterplot`'s parallel box plots), default
      ``"deterministic"``; a numeric ``c`` column is released with x and y.
    - ``hexbin``: :func:`~safeplot.plots.hexbin.release_hexbin`, hexagons with a count in
      ``(0, threshold)`` removed (default ``"suppress"``).
    - ``bar``/``barh``: :func:`release_bar_counts`: the values are treated
      as counts and small ones suppressed (``"suppress"``, ``"generalize"``
      merges small categories into "Other", ``"confidential"`` also rounds).

    Examples
    --------
    >>> import pandas as pd, safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> ax = penguins.plot(kind="hist", y="body_mass_g", backend="safeplot")
    >>> ax.safeplot_report.method
    'suppress'
    """
    kind = {"density": "kde"}.get(kind, kind)
    if kind in UNSAFE_KINDS:
        raise UnsafePlotError(UNSAFE_KINDS[kind])
    if kind not in _HANDLERS:
        raise ValueError(
            f"{kind!r} is not a plot kind of the safeplot backend; safe kinds: "
            f"{list(SAFE_KINDS)} (refused as unsafe: {list(UNSAFE_KINDS)})."
        )
    if not isinstance(data, (pd.Series, pd.DataFrame)):
        raise TypeError(f"Expected a Series or DataFrame, got {type(data).__name__}.")
    kwargs = dict(kwargs)
    call = _parse(kind, kwargs, rounding_c=kind != "scatter")
    with _clean_up_on_error():
        return _HANDLERS[kind](data, call, kwargs)


def _tick_style(axes: Any, xlabelsize, xrot, ylabelsize, yrot) -> None:
    """Pandas' ``xlabelsize``, ``xrot``, ``ylabelsize`` and ``yrot`` of DataFrame.hist."""
    for ax in np.ravel(np.asarray(axes, dtype=object)):
        if not isinstance(ax, Axes):
            continue
        for axis, size, rot in (("x", xlabelsize, xrot), ("y", ylabelsize, yrot)):
            opts = {}
            if size is not None:
                opts["labelsize"] = size
            if rot is not None:
                opts["labelrotation"] = rot
            if opts:
                ax.tick_params(axis=axis, **opts)


def hist_series(
    self: pd.Series,
    by: Any = None,
    ax: Axes | None = None,
    grid: bool = True,
    xlabelsize: float | None = None,
    xrot: float | None = None,
    ylabelsize: float | None = None,
    yrot: float | None = None,
    figsize: tuple[float, float] | None = None,
    bins: Any = 10,
    legend: bool = False,
    **kwargs: Any,
) -> Any:
    """Draw ``Series.hist()`` safely: a released histogram of the Series.

    Parameters
    ----------
    self : Series
        The values.
    by : array-like, optional
        Group labels, one per value: one panel per group (each group needs
        at least threshold values).
    ax, grid, xlabelsize, xrot, ylabelsize, yrot, figsize, bins, legend
        As in :meth:`pandas.Series.hist`; ``bins`` are placed on a safe grid.
    **kwargs
        safeplot's ``method``, ``threshold``, ``factor``, ``k``, ``q``, ...
        (see :func:`plot`), else passed to matplotlib.

    Returns
    -------
    Axes or ndarray of Axes
        One Axes, or a 2-D array of them with `by`.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> ax = tips["total_bill"].hist(backend="safeplot", bins=8)
    >>> ax.safeplot_report.function, ax.safeplot_report.method
    ('histplot', 'suppress')
    """
    if not isinstance(self, pd.Series):
        raise TypeError(f"hist_series takes a Series, got {type(self).__name__}.")
    kwargs = dict(kwargs, ax=ax, grid=grid, figsize=figsize, bins=bins, legend=legend)
    call = _parse("hist", kwargs)
    name = self.name if self.name is not None else "values"
    with _clean_up_on_error():
        if by is None:
            out = _distribution(self, call, kwargs, "Series.hist")
        else:
            labels = self.index.to_series() if isinstance(by, str) and by == "index" else by
            groups = pd.Series(np.asarray(labels), index=self.index)
            if len(groups) != len(self):
                raise ValueError("Series.hist: by= must give one group label per value.")
            frame = pd.DataFrame({name: self, "\x00by": groups})
            kwargs["by"] = "\x00by"
            out = _distribution(
                frame, call, kwargs, "Series.hist", flat=False, default_layout="box"
            )
        _tick_style(out, xlabelsize, xrot, ylabelsize, yrot)
    return out


def hist_frame(
    data: pd.DataFrame,
    column: Any = None,
    by: Any = None,
    grid: bool = True,
    xlabelsize: float | None = None,
    xrot: float | None = None,
    ylabelsize: float | None = None,
    yrot: float | None = None,
    ax: Any = None,
    sharex: bool = False,
    sharey: bool = False,
    figsize: tuple[float, float] | None = None,
    layout: tuple[int, int] | None = None,
    bins: Any = 10,
    legend: bool = False,
    **kwargs: Any,
) -> Any:
    """Draw ``DataFrame.hist()`` safely: one released histogram per numeric column.

    Parameters
    ----------
    data : DataFrame
    column : label or list of labels, optional
        Columns to plot (default: every numeric column).
    by : label, optional
        One panel per group of this column, holding the columns' histograms.
    grid, xlabelsize, xrot, ylabelsize, yrot, ax, sharex, sharey, figsize, layout, bins, legend
        As in :meth:`pandas.DataFrame.hist`.
    **kwargs
        safeplot's ``method``, ``threshold``, ... (see :func:`plot`).

    Returns
    -------
    ndarray of Axes
        The figure's grid of Axes (2-D, as pandas), each with its report.

    Examples
    --------
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> axes = penguins.hist(column=["bill_length_mm", "body_mass_g"], backend="safeplot")
    >>> axes.shape, [ax.get_title() for ax in axes.ravel()]
    ((1, 2), ['bill_length_mm', 'body_mass_g'])
    """
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"hist_frame takes a DataFrame, got {type(data).__name__}.")
    kwargs = dict(
        kwargs,
        ax=ax,
        grid=grid,
        figsize=figsize,
        layout=layout,
        sharex=sharex,
        sharey=sharey,
        bins=bins,
        legend=legend,
        column=column,
        by=by,
        subplots=by is None,
    )
    call = _parse("hist", kwargs)
    with _clean_up_on_error():
        out = _distribution(
            data,
            call,
            kwargs,
            "DataFrame.hist",
            column_titles=True,
            flat=False,
            default_layout="box",
        )
        if not isinstance(out, np.ndarray):
            out = np.array([[out]], dtype=object)
        _tick_style(out, xlabelsize, xrot, ylabelsize, yrot)
    return out


def boxplot_frame(
    self: pd.DataFrame,
    column: Any = None,
    by: Any = None,
    ax: Axes | None = None,
    fontsize: float | None = None,
    rot: float = 0,
    grid: bool = True,
    figsize: tuple[float, float] | None = None,
    layout: tuple[int, int] | None = None,
    return_type: str | None = None,
    **kwargs: Any,
) -> Any:
    """Draw ``DataFrame.boxplot()`` safely: released box plots of the columns.

    Parameters
    ----------
    self : DataFrame
    column : label or list of labels, optional
        Columns to plot (default: every numeric column).
    by : label, optional
        One panel per column, one box per group of `by` (each group needs
        at least threshold records).
    ax, fontsize, rot, grid, figsize, layout
        As in :meth:`pandas.DataFrame.boxplot`.
    return_type : {None, "axes"}
        ``"dict"`` and ``"both"`` (matplotlib's artists) are refused.
    **kwargs
        safeplot's ``method``, ``threshold``, ``k``, ``q``, ... (see
        :func:`plot`), else passed to :func:`safeplot.boxplot`.

    Returns
    -------
    Axes or ndarray of Axes
        One Axes, or (with `by`) the 2-D grid of panels.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> ax = tips.boxplot(column=["total_bill", "tip"], backend="safeplot", method="confidential")
    >>> ax.safeplot_report.method
    'confidential'
    """
    if not isinstance(self, pd.DataFrame):
        raise TypeError(f"boxplot_frame takes a DataFrame, got {type(self).__name__}.")
    kwargs = dict(
        kwargs,
        column=column,
        by=by,
        ax=ax,
        fontsize=fontsize,
        rot=rot,
        grid=grid,
        figsize=figsize,
        layout=layout,
        return_type=return_type,
    )
    call = _parse("box", kwargs)
    with _clean_up_on_error():
        return _box(self, call, kwargs, flat=False)


def boxplot(
    data: pd.DataFrame,
    column: Any = None,
    by: Any = None,
    ax: Axes | None = None,
    fontsize: float | None = None,
    rot: float = 0,
    grid: bool = True,
    figsize: tuple[float, float] | None = None,
    layout: tuple[int, int] | None = None,
    return_type: str | None = None,
    **kwargs: Any,
) -> Any:
    """Draw ``pandas.plotting.boxplot(data)`` safely (as :func:`boxplot_frame`).

    pandas itself sends ``pandas.plotting.boxplot`` to matplotlib whatever the
    backend option says; ``DataFrame.boxplot`` comes here. This function
    serves code that calls the backend directly.

    Parameters
    ----------
    data, column, by, ax, fontsize, rot, grid, figsize, layout, return_type, **kwargs
        As in :func:`boxplot_frame`.

    Returns
    -------
    Axes or ndarray of Axes

    Examples
    --------
    >>> import safeplot
    >>> ax = boxplot(safeplot.load_dataset("tips"), column="tip", method="suppress")
    >>> ax.safeplot_report.method
    'suppress'
    """
    return boxplot_frame(
        data,
        column=column,
        by=by,
        ax=ax,
        fontsize=fontsize,
        rot=rot,
        grid=grid,
        figsize=figsize,
        layout=layout,
        return_type=return_type,
        **kwargs,
    )


def boxplot_frame_groupby(
    grouped: Any,
    subplots: bool = True,
    column: Any = None,
    fontsize: float | None = None,
    rot: float = 0,
    grid: bool = True,
    ax: Any = None,
    figsize: tuple[float, float] | None = None,
    layout: tuple[int, int] | None = None,
    sharex: bool = False,
    sharey: bool = True,
    **kwargs: Any,
) -> Any:
    """Draw ``df.groupby(...).boxplot()`` safely: released box plots per group.

    Parameters
    ----------
    grouped : DataFrameGroupBy
    subplots : bool, default True
        One panel per group (boxes of its columns); False: one Axes with a
        box per (group, column).
    column : label or list of labels, optional
        Columns to plot (default: every numeric column but the keys).
    fontsize, rot, grid, ax, figsize, layout, sharex, sharey
        As in :meth:`pandas.core.groupby.DataFrameGroupBy.boxplot`.
    **kwargs
        safeplot's ``method``, ``threshold``, ... (see :func:`plot`).

    Returns
    -------
    Series of Axes or Axes
        With `subplots`, a Series of Axes indexed by group (as pandas);
        otherwise one Axes.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> axes = tips.groupby("time").boxplot(column=["tip"], backend="safeplot")
    >>> list(axes.index), axes.iloc[0].safeplot_report.method
    (['Lunch', 'Dinner'], 'deterministic')
    """
    keys = getattr(grouped, "keys", None)
    keys = [] if keys is None else ([keys] if not isinstance(keys, list) else keys)
    kwargs = dict(
        kwargs,
        ax=ax,
        fontsize=fontsize,
        rot=rot,
        grid=grid,
        figsize=figsize,
        layout=layout,
        sharex=sharex,
        sharey=sharey,
    )
    call = _parse("box", kwargs)
    items = [(key, frame) for key, frame in grouped]
    if not items:
        raise ValueError("groupby().boxplot(): there are no groups to plot.")
    small = [key for key, frame in items if len(frame) < call.threshold]
    if small:
        raise DisclosureError(
            f"groupby().boxplot(): {len(small)} group(s) have fewer than "
            f"threshold={call.threshold} records; merge small groups first."
        )
    exclude = [k for k in keys if isinstance(k, str)]
    frames = [
        (key, _numeric_columns(f, column, exclude, "groupby().boxplot()")) for key, f in items
    ]
    labels = [key[0] if isinstance(key, tuple) and len(key) == 1 else key for key, _ in frames]
    with _clean_up_on_error():
        if subplots:
            for _, frame in frames:
                _check_columns(frame, call)
            call.subplots = False
            axes = _new_axes(call, len(frames), default="box")
            drawn = list(axes.ravel()[: len(frames)])
            for axis, (_, frame) in zip(drawn, frames, strict=True):
                call.ax = axis
                _box(frame, call, dict(kwargs))
            for axis, label in zip(drawn, labels, strict=True):
                axis.set_title(str(label))
            return pd.Series(drawn, index=labels)
        parts = {
            f"({label}, {col})": frame[col].reset_index(drop=True)
            for label, (_, frame) in zip(labels, frames, strict=True)
            for col in frame.columns
        }
        wide = pd.DataFrame(parts)
        return _box(wide, call, kwargs)
