"""A matplotlib projection whose data-taking methods are safeplot's: ``projection="safe"``.

After ``import safeplot``::

    fig = plt.figure()
    ax = fig.add_subplot(projection="safe")          # or plt.subplots(subplot_kw=...)
    ax.hist(df["age"], bins=20, method="suppress")    # released, like safeplot.hist
    ax.scatter(df["age"], df["bmi"], method="deterministic", k=5)

:class:`SafeAxes` is a :class:`matplotlib.axes.Axes` whose ``hist``,
``scatter``, ``boxplot``, ``hexbin`` and ``hist2d`` take matplotlib's
arguments plus ``method=`` (and ``threshold``, ``k``, ``q``, ...), release the
data as safeplot's functions do and return what matplotlib returns, describing
the *released* plot. The methods that draw individual values and have no safe
version here (``plot``, ``bar``, ``errorbar``, ``fill_between``, ``imshow``,
...) raise :class:`~safeplot.errors.UnsafePlotError` naming the safe
alternative.

Released numbers are drawn once
-------------------------------
safeplot's own functions draw their releases with the ordinary Axes methods
(``ax.hist`` of released counts, ``ax.bar``, ``ax.plot`` of a fitted line,
seaborn fed released numbers). On a SafeAxes those calls must not be
anonymised a second time or refused, so a SafeAxes method behaves exactly as
matplotlib's when it draws a release:

* inside :func:`drawing_release` (a context flag, :mod:`contextvars`), which
  the SafeAxes methods set while they draw their own releases; or
* when it is called from safeplot's own drawing code: the nearest caller
  outside matplotlib, seaborn, pandas and numpy is a module of the
  ``safeplot`` package. A call made by user code, directly or through
  seaborn, pandas or pyplot, gets the safe method.

So ``safeplot.histplot(data=df, x="age", ax=safe_ax)`` draws exactly what it
draws on a plain Axes, while ``safe_ax.hist(df["age"])`` and even
``seaborn.histplot(df["age"], ax=safe_ax)`` (which reaches ``safe_ax.bar``)
are released or refused.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib import cbook
from matplotlib.axes import Axes
from matplotlib.projections import get_projection_class, register_projection

from .._validate import _numeric_column, refuse_dask
from ..anonymize.grids import rare_values
from ..errors import UnsafePlotError
from ..marks.hexbin import draw_hexbin
from ..methods import get_method, refuse_unsupported
from ..plots._common import (
    finish,
    make_report,
    resolve_annotate,
    set_safe_axis,
)
from ..plots.categorical import release_boxplot
from ..plots.distributions import hist as _safe_hist
from ..plots.grid import release_grid
from ..plots.hexbin import release_hexbin
from ..plots.relational import scatter as _safe_scatter
from ..policy import get_policy
from ..release import guard
from . import provenance as _provenance  # noqa: F401 (installs the savefig hook)

__all__ = ["REFUSED", "SafeAxes", "drawing_release", "is_drawing_release", "register"]

_DRAWING = contextvars.ContextVar("safeplot_drawing_release", default=False)

#: Modules whose frames are looked through to find who asked for a drawing.
_LIBRARIES = (
    "matplotlib",
    "mpl_toolkits",
    "seaborn",
    "pandas",
    "numpy",
    "contextlib",
    "functools",
    __name__,
)


@contextlib.contextmanager
def drawing_release() -> Iterator[None]:
    """Draw released numbers: SafeAxes methods behave as plain matplotlib inside this block.

    safeplot sets it while it draws a release. Use it yourself only for
    numbers that are already released (a table from :func:`safeplot.describe`
    or :func:`safeplot.crosstab`, say): whatever is drawn inside the block is
    drawn as given.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig = plt.figure()
    >>> ax = fig.add_subplot(projection="safe")
    >>> with drawing_release():
    ...     bars = ax.bar(["a", "b"], [40, 55])  # released counts
    >>> len(bars)
    2
    >>> plt.close(fig)
    """
    token = _DRAWING.set(True)
    try:
        yield
    finally:
        _DRAWING.reset(token)


def is_drawing_release() -> bool:
    """Return whether a SafeAxes method called now draws a release (plain matplotlib).

    True inside :func:`drawing_release`, or when the nearest caller outside
    matplotlib, seaborn, pandas and numpy is safeplot's own code.

    Examples
    --------
    >>> is_drawing_release()
    False
    >>> with drawing_release():
    ...     is_drawing_release()
    True
    """
    if _DRAWING.get():
        return True
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "") or ""
        if not name.startswith(_LIBRARIES):
            return name.startswith("safeplot.")
        frame = frame.f_back
    return False


def _resolve(data: Any, value: Any) -> Any:
    """Return the column `value` names in `data` (matplotlib's convention), else `value`.

    A dask DataFrame or Series is refused: these methods need every record in memory.
    """
    for obj in (data, value):
        refuse_dask(obj, "A projection='safe' Axes")
    if data is not None and isinstance(value, str):
        return data[value]
    return value


def _xy_names(x: Any, y: Any) -> tuple[str, str]:
    """Return the variables' names for reports: a Series' own name, else "x" and "y"."""
    return str(getattr(x, "name", None) or "x"), str(getattr(y, "name", None) or "y")


def _datasets(x: Any, what: str) -> list[np.ndarray]:
    """Split matplotlib's "one array, a 2-D array (a column each) or a list of arrays"."""
    if hasattr(x, "columns"):  # DataFrame: a box per column
        return [_column(x[c], str(c)) for c in x.columns]
    if isinstance(x, (list, tuple)) and x and all(np.ndim(v) == 1 for v in x):
        return [_column(v, str(i + 1)) for i, v in enumerate(x)]
    arr = np.asarray(x)
    if arr.dtype.kind not in "fiu" and arr.ndim in (1, 2):
        # booleans, dates, text: refused with a message naming the column
        cols = arr.reshape(arr.shape[0], -1) if arr.ndim == 2 else arr[:, None]
        return [_column(cols[:, j], str(j + 1)) for j in range(cols.shape[1])]
    arr = arr.astype(float)
    if arr.ndim <= 1:
        return [arr.ravel()]
    if arr.ndim == 2:
        return [arr[:, j] for j in range(arr.shape[1])]
    raise ValueError(f"{what}: x must be one array, a 2-D array or a list of arrays.")


def _column(values: Any, name: str) -> np.ndarray:
    """One variable as floats (NaN kept); booleans, dates and text refused by name."""
    series = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values))
    return _numeric_column(name, series)


def _names(x: Any, n: int) -> list[str]:
    if hasattr(x, "columns"):
        return [str(c) for c in x.columns]
    return [str(i + 1) for i in range(n)]


def _refuse(condition: bool, message: str) -> None:
    if condition:
        raise ValueError(message)


class SafeAxes(Axes):
    """An Axes whose data-taking methods release the data first (``projection="safe"``).

    ``hist``, ``scatter``, ``boxplot``, ``hexbin`` and ``hist2d`` take
    matplotlib's arguments plus safeplot's (``method``, ``threshold``,
    ``factor``, ``k``, ``q``, ``annotate``, ...) and return matplotlib's
    return values for the released plot; each release is attached to the
    Axes (``ax.safeplot_report``) and logged in :mod:`safeplot.audit`.
    Methods listed in :data:`REFUSED` raise
    :class:`~safeplot.errors.UnsafePlotError`. Everything else (titles,
    labels, ``text``, ``axhline``, legends, ...) is matplotlib's.

    While safeplot draws a release (:func:`is_drawing_release`), every method
    is matplotlib's own, so nothing is anonymised twice.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> fig, ax = plt.subplots(subplot_kw={"projection": "safe"})
    >>> type(ax).__name__
    'SafeAxes'
    >>> x = np.random.default_rng(0).normal(size=300)
    >>> n, edges, patches = ax.hist(x, bins=15, method="suppress")
    >>> bool(np.all(np.isnan(n) | (n == 0) | (n >= 3)))
    True
    >>> ax.safeplot_report.method
    'suppress'
    >>> plt.close(fig)
    """

    #: The projection name: ``fig.add_subplot(projection="safe")``.
    name = "safe"

    # -- histogram --------------------------------------------------------------------------
    def hist(
        self,
        x,
        bins=None,
        *,
        range=None,
        density=False,
        weights=None,
        cumulative=False,
        bottom=None,
        histtype="bar",
        align="mid",
        orientation="vertical",
        rwidth=None,
        log=False,
        color=None,
        label=None,
        stacked=False,
        data=None,
        method: str | None = None,
        threshold: int | None = None,
        factor: int = 2,
        k: int | None = None,
        q: float | None = None,
        algorithm: str = "mdav_multivariate",
        c: int | str = 10,
        discretizer: str = "ewd",
        annotate: bool | None = None,
        **kwargs,
    ):
        """Plot a histogram of released data (:meth:`matplotlib.axes.Axes.hist`).

        Parameters
        ----------
        x : array-like or str
            One variable (a column name with ``data=``). Several datasets at
            once are refused: call ``hist`` once per dataset, or use
            :func:`safeplot.histplot` with ``hue=``.
        bins, range, density, weights, cumulative, bottom, histtype, align, orientation, \
rwidth, log, color, label, stacked, data
            As in matplotlib; the bins are placed on a safe grid as in
            :func:`safeplot.hist` (default: numpy's "auto" rule).
        method, threshold, factor, k, q, algorithm, c, discretizer, annotate
            As in :func:`safeplot.hist`.
        **kwargs
            Passed to matplotlib.

        Returns
        -------
        n : ndarray
            The released counts, NaN for suppressed bins.
        bins : ndarray
            The released bin edges.
        patches : BarContainer or list of Polygon

        Notes
        -----
        **Methods** are those of :func:`safeplot.hist`: ``"suppress"``
        (default) removes bins of fewer than `threshold` records,
        ``"generalize"`` doubles the bin width first, and the value methods
        (``"deterministic"``, ``"probabilistic"``, ``"confidential"``,
        ``"microaggregation"``, ``"rounding"``) bin the released values and
        suppress small bins as well; ``"none"`` only if the policy allows raw
        output.

        Examples
        --------
        >>> import matplotlib.pyplot as plt, safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> fig = plt.figure()
        >>> ax = fig.add_subplot(projection="safe")
        >>> _ = ax.hist("total_bill", data=tips, method="generalize")
        >>> ax.safeplot_report.params["factor"]
        2
        >>> plt.close(fig)
        """
        if is_drawing_release():
            return super().hist(
                x,
                bins,
                range=range,
                density=density,
                weights=weights,
                cumulative=cumulative,
                bottom=bottom,
                histtype=histtype,
                align=align,
                orientation=orientation,
                rwidth=rwidth,
                log=log,
                color=color,
                label=label,
                stacked=stacked,
                data=data,
                **kwargs,
            )
        x = _resolve(data, x)
        if (isinstance(x, (list, tuple)) and x and np.ndim(x[0]) > 0) or np.ndim(x) > 1:
            raise ValueError(
                "SafeAxes.hist releases one variable at a time: call hist once per dataset, "
                "or use safeplot.histplot(data=..., x=..., hue=...) for several groups."
            )
        extra = {
            k_: v
            for k_, v, default in (
                ("bottom", bottom, None),
                ("align", align, "mid"),
                ("rwidth", rwidth, None),
                ("log", log, False),
            )
            if v is not default and v != default
        }
        return _safe_hist(
            x,
            bins,
            range=range,
            density=density,
            weights=weights,
            cumulative=cumulative,
            histtype=histtype,
            orientation=orientation,
            color=color,
            label=label,
            ax=self,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            algorithm=algorithm,
            c=c,
            discretizer=discretizer,
            annotate=annotate,
            **extra,
            **kwargs,
        )

    # -- scatter ----------------------------------------------------------------------------
    def scatter(
        self,
        x,
        y,
        s=None,
        c=None,
        *,
        marker=None,
        cmap=None,
        norm=None,
        vmin=None,
        vmax=None,
        alpha=None,
        linewidths=None,
        edgecolors=None,
        colorizer=None,
        plotnonfinite=False,
        data=None,
        method: str | None = None,
        k: int | None = None,
        q: float | None = None,
        threshold: int | None = None,
        factor: int = 2,
        algorithm: str = "mdav_multivariate",
        discretizer: str = "ewd",
        annotate: bool | None = None,
        **kwargs,
    ):
        """Scatter plot of released points (:meth:`matplotlib.axes.Axes.scatter`).

        Parameters
        ----------
        x, y : array-like or str
            The numeric variables (column names with ``data=``).
        s, c, marker, cmap, norm, vmin, vmax, alpha, linewidths, edgecolors, colorizer, \
plotnonfinite, data
            As in matplotlib and :func:`safeplot.scatter` (per-point sizes
            are refused; ``c`` as numbers is released with x and y).
        method, k, q, threshold, factor, algorithm, discretizer, annotate
            As in :func:`safeplot.scatter`.
        **kwargs
            Passed to matplotlib.

        Returns
        -------
        matplotlib.collections.PathCollection
            The markers of the released points.

        Notes
        -----
        **Methods** are those of :func:`safeplot.scatter`:
        ``"deterministic"`` (default, kNN centroids), ``"probabilistic"``
        (keyed noise), ``"microaggregation"``, ``"rounding"``, and
        ``"suppress"``/``"generalize"`` (one marker per grid cell holding at
        least `threshold` records); ``"none"`` only if the policy allows raw
        output.

        Examples
        --------
        >>> import matplotlib.pyplot as plt, safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> fig = plt.figure()
        >>> ax = fig.add_subplot(projection="safe")
        >>> pc = ax.scatter("total_bill", "tip", data=tips, method="suppress")
        >>> ax.safeplot_report.method
        'suppress'
        >>> plt.close(fig)
        """
        if is_drawing_release():
            return super().scatter(
                x,
                y,
                s,
                c,
                marker=marker,
                cmap=cmap,
                norm=norm,
                vmin=vmin,
                vmax=vmax,
                alpha=alpha,
                linewidths=linewidths,
                edgecolors=edgecolors,
                colorizer=colorizer,
                plotnonfinite=plotnonfinite,
                data=data,
                **kwargs,
            )
        extra = {
            k_: v
            for k_, v in (
                ("norm", norm),
                ("vmin", vmin),
                ("vmax", vmax),
                ("linewidths", linewidths),
                ("edgecolors", edgecolors),
                ("colorizer", colorizer),
                ("data", data),
            )
            if v is not None
        }
        if plotnonfinite:
            extra["plotnonfinite"] = plotnonfinite
        return _safe_scatter(
            x,
            y,
            s,
            c,
            marker=marker,
            cmap=cmap,
            alpha=alpha,
            ax=self,
            method=method,
            k=k,
            q=q,
            threshold=threshold,
            factor=factor,
            algorithm=algorithm,
            discretizer=discretizer,
            annotate=annotate,
            **extra,
            **kwargs,
        )

    # -- box plot ---------------------------------------------------------------------------
    def boxplot(
        self,
        x,
        *,
        notch=None,
        sym=None,
        vert=None,
        orientation="vertical",
        whis=None,
        positions=None,
        widths=None,
        patch_artist=None,
        bootstrap=None,
        usermedians=None,
        conf_intervals=None,
        meanline=None,
        showmeans=None,
        showcaps=None,
        showbox=None,
        showfliers=None,
        boxprops=None,
        tick_labels=None,
        flierprops=None,
        medianprops=None,
        meanprops=None,
        capprops=None,
        whiskerprops=None,
        manage_ticks=True,
        autorange=False,
        zorder=None,
        capwidths=None,
        label=None,
        data=None,
        method: str | None = None,
        threshold: int | None = None,
        factor: int = 2,
        k: int | None = None,
        q: float | None = None,
        bins: int = 30,
        annotate: bool | None = None,
    ):
        """Draw released box plots (:meth:`matplotlib.axes.Axes.boxplot`).

        Parameters
        ----------
        x : array-like, 2-D array, list of arrays or DataFrame
            One box per array (per column).
        notch, sym, vert, orientation, whis, positions, widths, patch_artist, bootstrap, \
meanline, showmeans, showcaps, showbox, showfliers, boxprops, tick_labels, flierprops, \
medianprops, meanprops, capprops, whiskerprops, manage_ticks, autorange, zorder, capwidths, \
label, data
            As in matplotlib. ``notch`` and ``showmeans`` need released
            values (``"deterministic"``, ``"probabilistic"``); the summary
            methods release five numbers per box and no mean.
        usermedians, conf_intervals : None
            Refused: they would draw numbers computed outside the release.
        method, threshold, factor, k, q, bins, annotate
            As in :func:`safeplot.boxplot`.

        Returns
        -------
        dict
            matplotlib's dictionary of artists (``boxes``, ``medians``,
            ``whiskers``, ``caps``, ``fliers``, ``means``) of the released
            boxes.

        Raises
        ------
        DisclosureError
            A box of fewer than `threshold` records (or `k` under
            ``"deterministic"``), or a parameter below a policy floor.
        ValueError
            ``usermedians``/``conf_intervals``, or notches or means under a
            summary method.

        Notes
        -----
        **Methods** (as :func:`safeplot.boxplot`): ``"deterministic"``
        (default) and ``"probabilistic"`` draw Tukey boxes of released
        values; ``"confidential"`` draws winsorised, rounded five-number
        summaries without fliers; ``"suppress"`` and ``"generalize"`` draw
        boxes of the grid cells holding at least `threshold` records.

        Examples
        --------
        >>> import matplotlib.pyplot as plt, safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> fig = plt.figure()
        >>> ax = fig.add_subplot(projection="safe")
        >>> parts = ax.boxplot(tips[["total_bill", "tip"]], method="confidential")
        >>> len(parts["boxes"]), ax.safeplot_report.method
        (2, 'confidential')
        >>> plt.close(fig)
        """
        given = dict(
            notch=notch,
            sym=sym,
            vert=vert,
            orientation=orientation,
            whis=whis,
            positions=positions,
            widths=widths,
            patch_artist=patch_artist,
            bootstrap=bootstrap,
            usermedians=usermedians,
            conf_intervals=conf_intervals,
            meanline=meanline,
            showmeans=showmeans,
            showcaps=showcaps,
            showbox=showbox,
            showfliers=showfliers,
            boxprops=boxprops,
            tick_labels=tick_labels,
            flierprops=flierprops,
            medianprops=medianprops,
            meanprops=meanprops,
            capprops=capprops,
            whiskerprops=whiskerprops,
            manage_ticks=manage_ticks,
            autorange=autorange,
            zorder=zorder,
            capwidths=capwidths,
            label=label,
        )
        if is_drawing_release():
            return super().boxplot(x, data=data, **given)
        _refuse(
            usermedians is not None or conf_intervals is not None,
            "usermedians and conf_intervals draw numbers computed outside the release (from "
            "the raw data); SafeAxes.boxplot refuses them. Leave them out: the released "
            "medians are drawn.",
        )
        rc = mpl.rcParams
        pol = get_policy()
        method = pol.check_method(method, "box")
        resolve_annotate(annotate, pol)
        x = _resolve(data, x)
        sets = _datasets(x, "SafeAxes.boxplot")
        labels = list(tick_labels) if tick_labels is not None else _names(x, len(sets))
        if len(labels) != len(sets):
            raise ValueError(f"tick_labels has {len(labels)} labels for {len(sets)} boxes.")
        whis = rc["boxplot.whiskers"] if whis is None else whis
        notch = rc["boxplot.notch"] if notch is None else notch
        showmeans = rc["boxplot.showmeans"] if showmeans is None else showmeans
        vertical = orientation == "vertical" if vert is None else bool(vert)
        value_name = str(getattr(x, "name", None) or "values")
        keys = [f"\x00box{i}" for i in range(len(sets))]
        import pandas as pd

        frame = pd.DataFrame(
            {
                "box": pd.Categorical(np.repeat(keys, [v.size for v in sets]), categories=keys),
                value_name: np.concatenate(sets) if sets else np.array([]),
            }
        )
        rel = release_boxplot(
            frame,
            x="box" if vertical else value_name,
            y=value_name if vertical else "box",
            order=keys,
            orient="x" if vertical else "y",
            whis=whis,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            bins=bins,
            policy=pol,
        )
        rel.report.variables = tuple(labels) if hasattr(x, "columns") else (value_name,)
        pos_all = list(range(1, len(sets) + 1)) if positions is None else list(positions)
        index = [keys.index(cat) for cat, _ in rel.groups]
        if rel.values is None:  # five numbers per box (values, when released, are drawn)
            _refuse(
                notch or showmeans,
                f"method={method!r} releases five numbers per box: no notches (a confidence "
                "interval of the median) and no mean. Use method='deterministic' or "
                "'probabilistic' for them.",
            )
            stats = [box.to_bxp(labels[i]) for box, i in zip(rel.boxes, index, strict=True)]
        else:
            stats = cbook.boxplot_stats(
                rel.values,
                whis=whis,
                bootstrap=rc["boxplot.bootstrap"] if bootstrap is None else bootstrap,
                labels=[labels[i] for i in index],
                autorange=autorange,
            )
        kws = {k_: given[k_] for k_ in ("boxprops", "medianprops", "meanprops", "capprops")}
        kws.update(whiskerprops=whiskerprops, flierprops=dict(flierprops or {}) or None)
        show_fliers = rc["boxplot.showfliers"] if showfliers is None else showfliers
        if sym == "":
            show_fliers = False
        elif sym is not None:
            kws["flierprops"] = {"marker": sym, **(kws["flierprops"] or {})}
        guard.admit(rel.report.function, rel.report, rel)
        with drawing_release():
            artists = super().bxp(
                stats,
                positions=[pos_all[i] for i in index],
                widths=widths
                if widths is None or np.ndim(widths) == 0
                else [np.asarray(widths)[i] for i in index],
                orientation="vertical" if vertical else "horizontal",
                patch_artist=rc["boxplot.patchartist"] if patch_artist is None else patch_artist,
                shownotches=notch,
                showmeans=showmeans,
                showcaps=rc["boxplot.showcaps"] if showcaps is None else showcaps,
                showbox=rc["boxplot.showbox"] if showbox is None else showbox,
                showfliers=show_fliers,
                meanline=rc["boxplot.meanline"] if meanline is None else meanline,
                manage_ticks=manage_ticks,
                zorder=zorder,
                capwidths=capwidths,
                label=label,
                **kws,
            )
        if rel.value_lim is not None:
            set_safe_axis(self, "y" if vertical else "x", rel.value_lim, rel.value_ticks)
        finish(self, rel.report, annotate=annotate, policy=pol)
        return artists

    # -- two-dimensional histograms ---------------------------------------------------------
    def _grid(self, x, y, data, function, *, bins, method, threshold, factor, k, q, pol):
        x, y = _resolve(data, x), _resolve(data, y)
        names = _xy_names(x, y)
        if names[0] == names[1]:
            names = (names[0] + " (x)", names[1] + " (y)")
        rel = release_grid(
            x,
            y,
            names=names,
            method=method,
            bins=bins,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            kind="heatmap",
            function=function,
            policy=pol,
        )
        thr = rel.report.params["threshold"]
        rare = []
        for v in (x, y):
            vals = np.asarray(v, dtype=float).ravel()
            rare.append(rare_values(vals[np.isfinite(vals)], thr))
        return rel, rare

    def hist2d(
        self,
        x,
        y,
        bins=10,
        *,
        range=None,
        density=False,
        weights=None,
        cmin=None,
        cmax=None,
        data=None,
        method: str | None = None,
        threshold: int | None = None,
        factor: int = 2,
        k: int | None = None,
        q: float | None = None,
        annotate: bool | None = None,
        **kwargs,
    ):
        """Plot a released two-dimensional histogram (:meth:`matplotlib.axes.Axes.hist2d`).

        Parameters
        ----------
        x, y : array-like or str
            The numeric variables (column names with ``data=``).
        bins : int, default 10
            Cells per axis of the released grid (edges on a safe grid that
            extends beyond the data). Edges or a pair of numbers are refused
            except with ``method="none"``.
        range : ((float, float), (float, float)), optional
            Only records inside it are counted.
        density : bool, default False
            Draw the released counts divided by their total and the cell area.
        weights : None
            Refused except with ``method="none"``.
        cmin, cmax : float, optional
            Cells with a released count below `cmin` or above `cmax` are not
            drawn (NaN), as in matplotlib.
        data : indexable, optional
            Columns named by `x` and `y`.
        method : str, optional
            Default: the policy's method for heat maps (``"suppress"``).
        threshold, factor, k, q, annotate
            As in :func:`safeplot.heatmap`.
        **kwargs
            Passed to :meth:`~matplotlib.axes.Axes.pcolormesh`.

        Returns
        -------
        h : ndarray, shape (nx, ny)
            The released counts (NaN where suppressed or outside cmin/cmax).
        xedges, yedges : ndarray
            The released cell edges.
        image : QuadMesh

        Notes
        -----
        **Methods** (the grid release of :func:`safeplot.heatmap`):
        ``"suppress"`` removes cells of fewer than `threshold` records;
        ``"generalize"`` merges `factor` x `factor` cells first; the value
        methods count released values and suppress small cells as well.

        Examples
        --------
        >>> import matplotlib.pyplot as plt, safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> fig = plt.figure()
        >>> ax = fig.add_subplot(projection="safe")
        >>> h, xe, ye, mesh = ax.hist2d("total_bill", "tip", data=tips, bins=8)
        >>> shown = h[~np.isnan(h)]
        >>> bool(((shown == 0) | (shown >= 3)).all())
        True
        >>> plt.close(fig)
        """
        given = dict(range=range, density=density, weights=weights, cmin=cmin, cmax=cmax)
        if is_drawing_release():
            return super().hist2d(x, y, bins, data=data, **given, **kwargs)
        pol = get_policy()
        method = pol.check_method(method, "heatmap")
        refuse_unsupported(method, "projection", "safeplot axes")
        resolve_annotate(annotate, pol)
        if get_method(method).raw:
            return self._raw(
                "hist2d",
                super().hist2d,
                (x, y, bins),
                dict(data=data, **given, **kwargs),
                (x, y),
                data,
                pol,
                annotate,
            )
        _refuse(
            weights is not None,
            "weights are refused on a SafeAxes: a weighted cell can show one record's weight. "
            "Leave weights out, or aggregate first and plot a released table "
            "(safeplot.heatmap).",
        )
        _refuse(
            not isinstance(bins, (int, np.integer)) or isinstance(bins, bool),
            "SafeAxes.hist2d takes bins as one number of cells per axis: the release places "
            "the edges on a safe grid, and edges of your own could sit on a raw value.",
        )
        x, y = _resolve(data, x), _resolve(data, y)
        if range is not None:
            xv, yv = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
            (x0, x1), (y0, y1) = range
            inside = (xv >= x0) & (xv <= x1) & (yv >= y0) & (yv <= y1)
            x = _keep(x, inside)
            y = _keep(y, inside)
        rel, _ = self._grid(
            x,
            y,
            None,
            "hist2d",
            bins=int(bins),
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            pol=pol,
        )
        h = rel.total.astype(float)
        if density:
            area = np.outer(np.diff(rel.xedges), np.diff(rel.yedges))
            h = h / (np.nansum(h) * area)
        if cmin is not None:
            h[h < cmin] = np.nan
        if cmax is not None:
            h[h > cmax] = np.nan
        guard.admit(rel.report.function, rel.report, rel)
        with drawing_release():
            mesh = super().pcolormesh(rel.xedges, rel.yedges, h.T, **kwargs)
        set_safe_axis(self, "x", rel.xlim, rel.xticks)
        set_safe_axis(self, "y", rel.ylim, rel.yticks)
        finish(self, rel.report, annotate=annotate, policy=pol)
        return h, rel.xedges, rel.yedges, mesh

    def hexbin(
        self,
        x,
        y,
        C=None,
        *,
        gridsize=None,
        bins=None,
        xscale="linear",
        yscale="linear",
        extent=None,
        cmap=None,
        norm=None,
        vmin=None,
        vmax=None,
        alpha=None,
        linewidths=None,
        edgecolors="face",
        reduce_C_function=np.mean,
        mincnt=None,
        marginals=False,
        colorizer=None,
        data=None,
        method: str | None = None,
        threshold: int | None = None,
        factor: int = 2,
        k: int | None = None,
        q: float | None = None,
        annotate: bool | None = None,
        **kwargs,
    ):
        """Plot released counts in hexagons (:meth:`matplotlib.axes.Axes.hexbin`).

        The records are counted in matplotlib's own hexagons on a grid placed
        beyond the data (:func:`safeplot.plots.hexbin.release_hexbin`, the
        same release as the pandas backend's ``df.plot.hexbin()``); every
        hexagon with a count in ``(0, threshold)`` is suppressed, so every
        hexagon drawn holds at least `threshold` records.

        Parameters
        ----------
        x, y : array-like or str
            The numeric variables (column names with ``data=``).
        C : None
            Refused: a per-hexagon reduction of a third variable can show one
            record's value.
        gridsize : int or (int, int), optional
            Hexagons across x (and rows along y). Default: chosen by the
            number of complete records, as a heat map's grid
            (:func:`safeplot.plots.hexbin.default_gridsize`: 10 for the 344
            penguins, at most 30), rather than matplotlib's 100, under which
            most hexagons of a modest sample would be suppressed.
        bins, cmap, norm, vmin, vmax, alpha, linewidths, edgecolors, colorizer, data
            As in matplotlib (``bins="log"`` for a log colour scale).
        xscale, yscale : "linear"
            Log binning is refused: plot log-transformed variables.
        extent : None
            Refused: the released grid sets the extent.
        reduce_C_function : callable
            Unused (the counts are summed).
        mincnt : int, optional
            Hexagons with fewer released records are not drawn.
        marginals : False
            Refused: marginal bars of individual records.
        method, threshold, factor, k, q, annotate
            As in :func:`safeplot.heatmap`.
        **kwargs
            Passed to matplotlib.

        Returns
        -------
        matplotlib.collections.PolyCollection
            The hexagons; their colour array holds the released counts.

        Notes
        -----
        **Methods**: ``"suppress"`` (default) and ``"generalize"`` (``gridsize``
        divided by ``factor``) count raw values and drop hexagons of fewer
        than `threshold` records; the value methods count released values,
        with the same suppression. ``"none"`` draws matplotlib's hexbin of the raw
        data, only if the policy allows raw output.

        Examples
        --------
        >>> import matplotlib.pyplot as plt, safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> fig = plt.figure()
        >>> ax = fig.add_subplot(projection="safe")
        >>> hexes = ax.hexbin("total_bill", "tip", data=tips, gridsize=10)
        >>> bool((hexes.get_array() >= 3).all())
        True
        >>> plt.close(fig)
        """
        given = dict(
            gridsize=gridsize,
            bins=bins,
            xscale=xscale,
            yscale=yscale,
            extent=extent,
            cmap=cmap,
            norm=norm,
            vmin=vmin,
            vmax=vmax,
            alpha=alpha,
            linewidths=linewidths,
            edgecolors=edgecolors,
            reduce_C_function=reduce_C_function,
            mincnt=mincnt,
            marginals=marginals,
            colorizer=colorizer,
        )
        # matplotlib's own hexbin (a release drawn as given, or raw output): its default grid
        plain = dict(given, gridsize=100 if gridsize is None else gridsize)
        if is_drawing_release():
            return super().hexbin(x, y, C, data=data, **plain, **kwargs)
        pol = get_policy()
        method = pol.check_method(method, "heatmap")
        refuse_unsupported(method, "projection", "safeplot axes")
        resolve_annotate(annotate, pol)
        if get_method(method).raw:
            return self._raw(
                "hexbin",
                super().hexbin,
                (x, y, C),
                dict(data=data, **plain, **kwargs),
                (x, y),
                data,
                pol,
                annotate,
            )
        _refuse(
            C is not None,
            "C= reduces a third variable per hexagon, which for a hexagon of few records "
            "shows their values; SafeAxes.hexbin draws counts only. Use safeplot.scatter(x, "
            "y, c=values, method='deterministic') to show a third variable.",
        )
        _refuse(
            bool(marginals),
            "marginals=True draws a bar per row and column of hexagons from the records; "
            "use safeplot.jointplot (released margins) instead.",
        )
        _refuse(
            xscale != "linear" or yscale != "linear",
            "log binning is not available on a SafeAxes: plot log-transformed variables.",
        )
        _refuse(
            extent is not None,
            "extent is set by the released grid (safe edges beyond the data); leave it out.",
        )
        x, y = _resolve(data, x), _resolve(data, y)
        rel = release_hexbin(
            x,
            y,
            names=_xy_names(x, y),
            gridsize=gridsize,
            method=method,
            threshold=threshold,
            factor=factor,
            k=k,
            q=q,
            policy=pol,
        )
        if mincnt is not None:
            show = rel.counts >= mincnt
            rel = replace(rel, x=rel.x[show], y=rel.y[show], counts=rel.counts[show])
        style = {k_: given[k_] for k_ in ("bins", "cmap", "norm", "vmin", "vmax", "alpha")}
        style.update(linewidths=linewidths, edgecolors=edgecolors, colorizer=colorizer)
        guard.admit(rel.report.function, rel.report, rel)
        with drawing_release():
            coll = draw_hexbin(self, rel, **style, **kwargs)
        finish(self, rel.report, annotate=annotate, policy=pol)
        return coll

    def _raw(self, function, draw, args, kwargs, xy, data, pol, annotate):
        """Draw raw output (``method="none"``, allowed by the policy) and report it."""
        x, y = (_resolve(data, v) for v in xy)
        n = int(np.size(np.asarray(x, dtype=float)))
        names = _xy_names(x, y)
        report = make_report(function, "none", {}, names, n, 0, pol)
        guard.admit(function, report)
        with drawing_release():
            out = draw(*args, **kwargs)
        finish(self, report, annotate=annotate, policy=pol)
        return out


def _keep(values: Any, mask: np.ndarray) -> Any:
    if hasattr(values, "iloc"):
        return values[mask]
    return np.asarray(values, dtype=float)[mask]


#: Methods that draw individual values and have no safe version on a SafeAxes,
#: with the safe alternative each error names.
REFUSED: dict[str, str] = {
    "plot": "safeplot.scatter / ax.scatter(method=...) for points, safeplot.regplot for a "
    "fitted line",
    "loglog": "ax.scatter(method=...) of log-transformed variables",
    "semilogx": "ax.scatter(method=...) of log-transformed variables",
    "semilogy": "ax.scatter(method=...) of log-transformed variables",
    "step": "ax.hist(..., histtype='step', method=...)",
    "stairs": "ax.hist(..., histtype='step', method=...)",
    "stem": "ax.hist(method=...) or safeplot.countplot",
    "errorbar": "ax.boxplot(method='confidential') or safeplot.regplot",
    "bar": "safeplot.countplot (counts with small cells suppressed)",
    "barh": "safeplot.countplot(y=...) (counts with small cells suppressed)",
    "broken_barh": "safeplot.countplot",
    "fill": "safeplot.kdeplot(fill=True, method=...)",
    "fill_between": "safeplot.kdeplot(fill=True, method=...)",
    "fill_betweenx": "safeplot.kdeplot(fill=True, method=...)",
    "stackplot": "safeplot.histplot(hue=..., multiple='stack', method=...)",
    "pie": "safeplot.countplot",
    "violinplot": "safeplot.violinplot(data, x=..., y=..., ax=ax)",
    "violin": "safeplot.violinplot(data, x=..., y=..., ax=ax)",
    "bxp": "ax.boxplot(method=...), which computes the statistics from released data",
    "eventplot": "ax.hist(method=...)",
    "hlines": "ax.axhline for a reference value; ax.boxplot(method=...) for data",
    "vlines": "ax.axvline for a reference value; ax.hist(method=...) for data",
    "imshow": "safeplot.heatmap or ax.hist2d(method=...)",
    "matshow": "safeplot.heatmap",
    "pcolor": "safeplot.heatmap or ax.hist2d(method=...)",
    "pcolormesh": "safeplot.heatmap or ax.hist2d(method=...)",
    "pcolorfast": "safeplot.heatmap or ax.hist2d(method=...)",
    "contour": "safeplot.kdeplot(x=..., y=..., method=...)",
    "contourf": "safeplot.kdeplot(x=..., y=..., fill=True, method=...)",
    "tricontour": "safeplot.kdeplot(x=..., y=..., method=...)",
    "tricontourf": "safeplot.kdeplot(x=..., y=..., fill=True, method=...)",
    "tripcolor": "ax.hist2d(method=...)",
    "triplot": "ax.scatter(method=...)",
    "quiver": "no safe version (arrows at individual records)",
    "barbs": "no safe version (barbs at individual records)",
    "streamplot": "no safe version",
    "spy": "safeplot.heatmap",
    "ecdf": "ax.hist(cumulative=True, density=True, method=...)",
    "acorr": "no safe version (series of individual values)",
    "xcorr": "no safe version (series of individual values)",
    "specgram": "no safe version (series of individual values)",
    "psd": "no safe version (series of individual values)",
    "csd": "no safe version (series of individual values)",
    "cohere": "no safe version (series of individual values)",
    "magnitude_spectrum": "no safe version (series of individual values)",
    "angle_spectrum": "no safe version (series of individual values)",
    "phase_spectrum": "no safe version (series of individual values)",
}


def _refusing(name: str, alternative: str):
    base = getattr(Axes, name)

    @functools.wraps(base, assigned=("__module__", "__name__", "__qualname__"))
    def method(self, *args, **kwargs):
        if is_drawing_release():
            return base(self, *args, **kwargs)
        raise UnsafePlotError(
            f"SafeAxes.{name} draws individual values and has no safe version here. Use "
            f"{alternative}. (Numbers that are already released can be drawn inside "
            "safeplot.integrations.projection.drawing_release().)"
        )

    method.__doc__ = (
        f"Refused on a SafeAxes: it would draw individual values; use {alternative}.\n\n"
        f"While a release is drawn (:func:`drawing_release`) it is "
        f":meth:`matplotlib.axes.Axes.{name}`."
    )
    method.__qualname__ = f"SafeAxes.{name}"
    return method


for _name, _alternative in REFUSED.items():
    if hasattr(Axes, _name):
        setattr(SafeAxes, _name, _refusing(_name, _alternative))
del _name, _alternative


def register() -> None:
    """Register :class:`SafeAxes` as matplotlib's ``"safe"`` projection (idempotent).

    Called when :mod:`safeplot` is imported.

    Examples
    --------
    >>> from matplotlib.projections import get_projection_class
    >>> register()
    >>> get_projection_class("safe").__name__
    'SafeAxes'
    """
    try:
        if get_projection_class(SafeAxes.name) is SafeAxes:
            return
    except ValueError:
        pass
    register_projection(SafeAxes)


register()
