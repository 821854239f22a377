"""``import safeplot as sns``: seaborn's whole public namespace, each name safe.

Every public name of seaborn 0.13.2 resolves on :mod:`safeplot`, in one of
five ways (:data:`NAMESPACE` says which for each name):

``"safe"``
    A plotting function with a safe version: the name is safeplot's function
    (:func:`safeplot.histplot`, :func:`safeplot.barplot`, ...), which takes
    seaborn's arguments plus ``method=``. ``load_dataset`` and
    ``get_dataset_names`` read the datasets bundled with safeplot, offline.
``"refused"``
    A plotting function that draws individual records and has no safe
    version (``distplot``):
    the name is a function with seaborn's signature that raises
    :class:`~safeplot.errors.UnsafePlotError` naming the safe alternative,
    before anything is drawn.
``"pass"``
    A helper that sees no data (themes, palettes, ``despine``,
    ``move_legend``, colour dictionaries, the palette widgets): seaborn's
    own object, unchanged.
``"grid"``
    ``FacetGrid``, ``PairGrid`` and ``JointGrid``: subclasses of seaborn's
    classes (``isinstance(g, seaborn.FacetGrid)`` holds) whose ``map``,
    ``map_dataframe``, ``map_diag``, ``map_offdiag``, ``map_lower``,
    ``map_upper``, ``plot``, ``plot_joint`` and ``plot_marginals`` accept
    safeplot's plotting functions -- each facet is then released on its own
    -- and refuse any other function that would be handed the data (such as
    ``plt.scatter``), with :class:`~safeplot.errors.UnsafePlotError`.
``"module"``
    A submodule. Those without plotting functions (``palettes``, ``rcmod``,
    ``utils``, ``colors``, ``cm``, ``algorithms``, ``external``,
    ``widgets``, ``miscplot``, ``mpl``) are seaborn's. Those with plotting
    functions (``distributions``, ``relational``, ``categorical``,
    ``regression``, ``matrix``, ``axisgrid``) are views that resolve their
    public plotting names as the top-level namespace does, so
    ``sns.distributions.histplot`` is safeplot's ``histplot`` too.

:func:`resolve` is what ``safeplot.__getattr__`` calls for a name the
package does not define itself; :func:`namespace_dir` is its ``__dir__``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import types
from collections.abc import Callable
from typing import Any

import numpy as np
import seaborn

from ..errors import UnsafePlotError

__all__ = [
    "GRID_METHODS",
    "MODULE_VIEWS",
    "NAMESPACE",
    "PASS_THROUGH",
    "REFUSED",
    "SAFE",
    "FacetGrid",
    "JointGrid",
    "PairGrid",
    "is_safe_function",
    "namespace_dir",
    "resolve",
    "status",
]

#: seaborn plotting functions with a safe version: name -> "module:function" in safeplot.
SAFE: dict[str, str] = {
    "barplot": "safeplot.plots.bar:barplot",
    "boxplot": "safeplot:boxplot",  # the public one: it also takes a RemoteFrame
    "countplot": "safeplot:countplot",  # the public one: it also takes a RemoteFrame
    "histplot": "safeplot:histplot",  # the public one: it also takes a RemoteFrame
    "kdeplot": "safeplot:kdeplot",  # the public one: it also takes a RemoteFrame
    "lineplot": "safeplot.plots.line:lineplot",
    "pointplot": "safeplot.plots.point:pointplot",
    "rugplot": "safeplot.plots.rug:rugplot",
    "stripplot": "safeplot.plots.strip:stripplot",
    "swarmplot": "safeplot.plots.strip:swarmplot",
    "boxenplot": "safeplot.plots.boxen:boxenplot",
    "violinplot": "safeplot.plots.violin:violinplot",
    "ecdfplot": "safeplot.plots.ecdf:ecdfplot",
    "scatterplot": "safeplot:scatterplot",  # the public one: it also takes a RemoteFrame
    "heatmap": "safeplot:heatmap",  # the public one: it also takes a RemoteFrame
    "clustermap": "safeplot.plots.cluster:clustermap",
    "regplot": "safeplot.plots.regression:regplot",
    "residplot": "safeplot.plots.regression:residplot",
    "pairplot": "safeplot.plots.axisgrid:pairplot",
    "jointplot": "safeplot.plots.axisgrid:jointplot",
    "displot": "safeplot.plots.facets:displot",
    "relplot": "safeplot.plots.facets:relplot",
    "catplot": "safeplot.plots.facets:catplot",
    "lmplot": "safeplot.plots.facets:lmplot",
    "load_dataset": "safeplot.datasets:load_dataset",
    "get_dataset_names": "safeplot.datasets:get_dataset_names",
}

#: seaborn plotting functions with no safe version: name -> (what it shows, what to use).
REFUSED: dict[str, tuple[str, str]] = {
    "distplot": (
        "(deprecated in seaborn) draws a raw histogram, density and optionally a rug of "
        "every value",
        "Use safeplot.histplot(data, x=..., kde=True).",
    ),
}

#: Helpers that see no data: seaborn's own objects.
PASS_THROUGH: tuple[str, ...] = (
    "axes_style",
    "blend_palette",
    "choose_colorbrewer_palette",
    "choose_cubehelix_palette",
    "choose_dark_palette",
    "choose_diverging_palette",
    "choose_light_palette",
    "color_palette",
    "crayon_palette",
    "crayons",
    "cubehelix_palette",
    "dark_palette",
    "desaturate",
    "despine",
    "diverging_palette",
    "dogplot",
    "get_data_home",
    "hls_palette",
    "husl_palette",
    "light_palette",
    "move_legend",
    "mpl_palette",
    "palplot",
    "plotting_context",
    "reset_defaults",
    "reset_orig",
    "saturate",
    "set",
    "set_color_codes",
    "set_context",
    "set_hls_values",
    "set_palette",
    "set_style",
    "set_theme",
    "xkcd_palette",
    "xkcd_rgb",
)

#: seaborn's submodules without plotting functions (seaborn's own modules).
MODULES: tuple[str, ...] = (
    "algorithms",
    "cm",
    "colors",
    "external",
    "miscplot",
    "mpl",
    "palettes",
    "rcmod",
    "utils",
    "widgets",
)
#: seaborn's submodules with plotting functions: safe views of them.
MODULE_VIEWS: tuple[str, ...] = (
    "axisgrid",
    "categorical",
    "distributions",
    "matrix",
    "regression",
    "relational",
)

#: Methods of the grid classes that hand the data to a function.
GRID_METHODS: dict[str, tuple[str, ...]] = {
    "FacetGrid": ("map", "map_dataframe"),
    "PairGrid": ("map", "map_diag", "map_offdiag", "map_lower", "map_upper"),
    "JointGrid": ("plot", "plot_joint", "plot_marginals"),
}


def _build_namespace() -> dict[str, str]:
    space: dict[str, str] = {}
    space.update(dict.fromkeys(SAFE, "safe"))
    space.update(dict.fromkeys(REFUSED, "refused"))
    space.update(dict.fromkeys(PASS_THROUGH, "pass"))
    space.update(dict.fromkeys(GRID_METHODS, "grid"))
    space.update(dict.fromkeys(MODULES + MODULE_VIEWS, "module"))
    return space


#: Every public name of seaborn 0.13.2 and how safeplot resolves it.
NAMESPACE: dict[str, str] = _build_namespace()


def status(name: str) -> str:
    """Return how safeplot resolves seaborn's `name`: safe, refused, pass, grid or module.

    Examples
    --------
    >>> status("histplot"), status("distplot"), status("set_theme"), status("FacetGrid")
    ('safe', 'refused', 'pass', 'grid')
    """
    try:
        return NAMESPACE[name]
    except KeyError:
        raise KeyError(f"{name!r} is not a public name of seaborn.") from None


# -- refusals ----------------------------------------------------------------------------


def _refusal(name: str, what: str, advice: str) -> Callable[..., Any]:
    message = (
        f"seaborn.{name} {what}, so safeplot has no safe version of it and does not pass it "
        f"through. {advice}"
    )

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise UnsafePlotError(message)

    refused.__name__ = refused.__qualname__ = name
    refused.__module__ = __name__
    refused.__doc__ = (
        f"Refuse to draw: {message}\n\n"
        "Raises\n------\nUnsafePlotError\n    Always, before anything is drawn.\n"
    )
    refused.__signature__ = inspect.signature(getattr(seaborn, name))  # type: ignore[attr-defined]
    refused._safeplot_refused = True  # type: ignore[attr-defined]
    return refused


def _missing(name: str, target: str, error: ImportError) -> Callable[..., Any]:
    """Refuse a safe function whose module is not part of this installation."""
    advice = {
        "displot": "Use safeplot.FacetGrid(data, col=...).map(safeplot.histplot, 'x').",
        "relplot": "Use safeplot.FacetGrid(data, col=...).map(safeplot.scatterplot, 'x', 'y').",
        "catplot": "Use safeplot.FacetGrid(data, col=...).map_dataframe(safeplot.boxplot, ...).",
        "lmplot": "Use safeplot.FacetGrid(data, col=...).map(safeplot.regplot, 'x', 'y').",
    }.get(name, "Use the axes-level safeplot functions.")
    return _refusal(name, f"has no safe version in this installation ({target}: {error})", advice)


# -- safe functions inside seaborn's grids ------------------------------------------------


def is_safe_function(func: Any) -> bool:
    """Tell whether `func` is one of safeplot's plotting functions (releases before drawing).

    Partial functions are unwrapped. The refusal functions of :data:`REFUSED`
    are not safe (they raise when called).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> is_safe_function(safeplot.histplot), is_safe_function(plt.scatter)
    (True, False)
    """
    while isinstance(func, functools.partial):
        func = func.func
    if getattr(func, "_safeplot_refused", False):
        return False
    if getattr(func, "_safeplot_grid_shim", False):
        return True
    module = str(getattr(func, "__module__", "") or "")
    return module.startswith(("safeplot.plots.", "safeplot.diagnostics"))


def _as_seaborn(func: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a safeplot function so seaborn's grids call it as they call their own functions.

    seaborn hands its own functions the data as ``x=``/``y=``/``hue=`` and the
    facet's ``ax=``; it recognises them by their module name. The shim
    carries a ``seaborn.`` module name and the safeplot function's signature.
    """

    @functools.wraps(func)
    def shim(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    shim.__module__ = "seaborn.safeplot"
    shim.__signature__ = inspect.signature(func)  # type: ignore[attr-defined]
    del shim.__wrapped__
    shim._safeplot_grid_shim = True  # type: ignore[attr-defined]
    return shim


def _checked(grid: str, method: str, func: Any, hands_data: bool) -> Any:
    if func is None or isinstance(func, (str, bool)):
        return func  # seaborn's own options (e.g. JointGrid.plot_marginals needs a callable)
    if is_safe_function(func):
        return func if getattr(func, "_safeplot_grid_shim", False) else _as_seaborn(func)
    if getattr(func, "_safeplot_refused", False):
        func()  # raises the refusal, which names the alternative
    if not hands_data:
        return func
    name = getattr(func, "__name__", repr(func))
    module = str(getattr(func, "__module__", "") or "")
    alternative = {
        "scatter": "safeplot.scatterplot",
        "hist": "safeplot.histplot",
        "boxplot": "safeplot.boxplot",
        "bar": "safeplot.barplot",
        "plot": "safeplot.regplot (a trend) or safeplot.scatterplot",
        "hexbin": "safeplot.histplot(x=..., y=...)",
        "hist2d": "safeplot.histplot(x=..., y=...)",
        "kdeplot": "safeplot.kdeplot",
    }.get(name, "a safeplot plotting function (safeplot.histplot, scatterplot, boxplot, ...)")
    where = f"{module}." if module else ""
    raise UnsafePlotError(
        f"{grid}.{method} would hand the raw data of each facet to {where}{name}, which draws "
        f"it as it is. Map a safeplot function instead, e.g. {alternative}; "
        "each facet is then released on its own."
    )


def _guard(grid: str, method: str, base: Callable[..., Any]) -> Callable[..., Any]:
    if method == "plot":  # JointGrid.plot(joint_func, marginal_func, **kwargs)

        def plot(self, joint_func, marginal_func, **kwargs):
            out = base(
                self,
                _checked(grid, method, joint_func, True),
                _checked(grid, method, marginal_func, True),
                **kwargs,
            )
            _unify_shared(self, _grid_columns(self, (), {}))
            _one_note(self)
            return out

        wrapped = plot
    else:

        def mapped(self, func, *args, **kwargs):
            hands_data = bool(args) or grid != "FacetGrid" or method == "map_dataframe"
            checked = _checked(grid, method, func, hands_data)
            out = base(self, checked, *args, **kwargs)
            if checked is not func or is_safe_function(func):
                _unify_shared(self, _grid_columns(self, args, kwargs))
                _one_note(self)
            return out

        wrapped = mapped
    functools.update_wrapper(wrapped, base)
    del wrapped.__wrapped__
    return wrapped


def _one_note(grid: Any) -> None:
    """Gather the method notes the mapped functions wrote on each panel into one for the grid."""
    from ..plots._common import figure_note, quiet_seaborn

    if figure_note(grid.figure.axes) is not None and not isinstance(grid, seaborn.JointGrid):
        # a joint grid keeps seaborn's spacing; the others lay out again around the note
        with quiet_seaborn():
            grid.tight_layout()


def _grid_columns(grid: Any, args: tuple, kwargs: dict) -> list[np.ndarray]:
    """Return the numeric variables a grid call plots, whole and per facet/hue subset."""
    import pandas as pd

    if isinstance(grid, seaborn.JointGrid):
        frames = [pd.DataFrame({"x": grid.x, "y": grid.y})]
        if grid.hue is not None:
            hue = pd.Series(np.asarray(grid.hue))
            frames += [frames[0][(hue == lev).to_numpy()] for lev in hue.dropna().unique()]
        return [f[c].to_numpy() for f in frames for c in ("x", "y")]
    data = grid.data
    names = [a for a in args if isinstance(a, str)]
    names += [v for k, v in kwargs.items() if k in ("x", "y") and isinstance(v, str)]
    if isinstance(grid, seaborn.PairGrid):
        names = list(dict.fromkeys([*grid.x_vars, *grid.y_vars]))
    names = [n for n in names if n in data.columns]
    frames = [data]
    if isinstance(grid, seaborn.FacetGrid):
        frames += [sub for _, sub in grid.facet_data()]
    elif getattr(grid, "_hue_var", None) is not None:
        frames += [sub for _, sub in data.groupby(grid._hue_var, observed=True)]
    out = []
    for frame in frames:
        for n in names:
            col = pd.to_numeric(frame[n], errors="coerce") if n in frame else None
            if col is not None:
                out.append(col.to_numpy(dtype=float))
    return out


def _unify_shared(grid: Any, columns: list[np.ndarray]) -> None:
    """Give axes that share an axis one set of limits and ticks covering every panel's release.

    Each safeplot function fixes the limits and ticks of its own Axes to its
    release; on shared axes the last call would win and cut the other
    panels. The union of the released limits is used instead, kept off the
    values rare in the plotted variables and in every facet (and hue level).
    """
    from ..anonymize.grids import rare_values, safe_ticks
    from ..plots._common import safe_limits, set_safe_axis
    from ..policy import get_policy

    fig = grid.figure
    released = [ax for ax in fig.axes if getattr(ax, "safeplot_report", None) is not None]
    if len(released) < 2:
        return
    threshold = get_policy().threshold
    pools = [rare_values(c[np.isfinite(c)], threshold) for c in columns if np.isfinite(c).any()]
    avoid = np.unique(np.concatenate(pools)) if pools else np.array([])
    for which in ("x", "y"):
        done: set[int] = set()
        for ax in released:
            if id(ax) in done:
                continue
            shared = ax.get_shared_x_axes() if which == "x" else ax.get_shared_y_axes()
            group = [a for a in shared.get_siblings(ax) if a in fig.axes]
            done.update(id(a) for a in group)
            if len(group) < 2:
                continue
            scale = (ax.get_xscale if which == "x" else ax.get_yscale)()
            # the drawn (released) extent of every panel: bars, points, lines
            spans = np.array(
                [
                    (a.dataLim.x0, a.dataLim.x1) if which == "x" else (a.dataLim.y0, a.dataLim.y1)
                    for a in group
                ]
            )
            spans = spans[np.isfinite(spans).all(axis=1)]
            if scale != "linear" or spans.size == 0:
                continue
            lim = list(safe_limits(float(spans.min()), float(spans.max()), avoid))
            ticks = safe_ticks(lim[0], lim[1])
            for a in group:
                set_safe_axis(a, which, (lim[0], lim[1]), ticks)


def _grid_class(name: str) -> type:
    base = getattr(seaborn, name)
    attrs: dict[str, Any] = {
        "__module__": "safeplot",
        "__doc__": (
            f"seaborn's :class:`~seaborn.{name}`, drawing only with safeplot's functions.\n\n"
            f"Its {', '.join(GRID_METHODS[name])} accept safeplot's plotting functions (each "
            "facet or panel is released on its own) and raise UnsafePlotError for a function "
            "that would draw the raw data handed to it.\n\n" + (base.__doc__ or "")
        ),
    }
    for method in GRID_METHODS[name]:
        attrs[method] = _guard(name, method, getattr(base, method))
    return type(name, (base,), attrs)


#: seaborn's grids, mapping only safe functions.
FacetGrid = _grid_class("FacetGrid")
PairGrid = _grid_class("PairGrid")
JointGrid = _grid_class("JointGrid")
_GRIDS = {"FacetGrid": FacetGrid, "PairGrid": PairGrid, "JointGrid": JointGrid}


# -- module views ------------------------------------------------------------------------


class _ModuleView(types.ModuleType):
    """A view of one of seaborn's plotting modules through safeplot's namespace."""

    def __init__(self, name: str) -> None:
        super().__init__(f"safeplot.{name}")
        self.__doc__ = (
            f"seaborn.{name} seen through safeplot: its public plotting names resolve to "
            "safeplot's safe versions or refusals."
        )
        module = importlib.import_module(f"seaborn.{name}")
        self._names = sorted(
            n for n in vars(module) if not n.startswith("_") and NAMESPACE.get(n) != "module"
        )
        self._names = [n for n in self._names if n in NAMESPACE]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._names:
            raise AttributeError(
                f"{self.__name__} has no attribute {name!r}: only seaborn's public plotting "
                f"names resolve here ({', '.join(self._names)})."
            )
        return resolve(name)

    def __dir__(self) -> list[str]:
        return list(self._names)


# -- resolution ----------------------------------------------------------------------------

_CACHE: dict[str, Any] = {}


def resolve(name: str) -> Any:
    """Return what seaborn's `name` is on safeplot (see the module docstring).

    Raises
    ------
    AttributeError
        For a name that is not in seaborn's public namespace.

    Examples
    --------
    >>> import seaborn
    >>> resolve("set_theme") is seaborn.set_theme
    True
    >>> resolve("distplot")(x=[1, 2, 3])
    Traceback (most recent call last):
    ...
    safeplot.errors.UnsafePlotError: seaborn.distplot (deprecated in seaborn) draws a raw...
    """
    kind = NAMESPACE.get(name)
    if kind is None:
        raise AttributeError(f"module 'safeplot' has no attribute {name!r}")
    if name in _CACHE:
        return _CACHE[name]
    if kind == "safe":
        module, attr = SAFE[name].split(":")
        try:
            found = getattr(importlib.import_module(module), attr)
        except ImportError as error:
            return _missing(name, SAFE[name], error)  # not cached: the module may arrive later
    elif kind == "refused":
        found = _refusal(name, *REFUSED[name])
    elif kind == "pass":
        found = getattr(seaborn, name)
    elif kind == "grid":
        found = _GRIDS[name]
    elif name in MODULE_VIEWS:
        found = _ModuleView(name)
    else:
        found = importlib.import_module(f"seaborn.{name}") if name != "mpl" else seaborn.mpl
    _CACHE[name] = found
    return found


def namespace_dir(own: list[str] | tuple[str, ...] | set[str]) -> list[str]:
    """Return ``dir(safeplot)``: the package's own names and all of seaborn's."""
    return sorted(set(own) | set(NAMESPACE))
