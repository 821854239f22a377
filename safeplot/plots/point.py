"""Point plots of group estimates (seaborn's ``pointplot``) under disclosure control.

A point plot shows what a bar plot shows -- one estimate per group and an
error bar -- as points joined by lines. :func:`pointplot` therefore releases
exactly what :func:`~safeplot.plots.bar.barplot` releases
(:func:`~safeplot.plots.bar.release_barplot`): groups of at least
``threshold`` records, estimates and error-bar ends rounded and moved off
rare raw values, estimators that return one record refused. The error-bar
level comes from the fixed menu of :data:`~safeplot.plots.line.ERRORBAR_MENU`.
seaborn then draws only the released numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter

from ..anonymize.grids import rare_values
from ..marks.bars import draw_estimates
from ..methods import get_method
from ..policy import Policy, get_policy
from ._categories import log_axes, refuse_native_other, resolve, safe_category_axis, stable_palette
from ._common import (
    axes_for,
    axis_from_range,
    finish,
    quiet_seaborn,
    set_safe_axis,
    takes_method_options,
)
from .bar import BAR_METHODS, BarRelease, release_barplot

__all__ = ["POINT_METHODS", "pointplot", "release_pointplot"]

#: Methods :func:`pointplot` supports: those of :func:`~safeplot.plots.bar.barplot`.
POINT_METHODS = BAR_METHODS


def release_pointplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    units: Any = None,
    weights: Any = None,
    orient: str | None = None,
    log_scale: Any = None,
    native_scale: bool = False,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
) -> BarRelease:
    """Release the numbers of a point plot: those of a bar plot, with a point plot's value axis.

    The estimates and error bars are :func:`~safeplot.plots.bar.release_barplot`'s
    (its report names ``pointplot``); the value axis spans the released
    numbers only (points need no baseline at zero), its limits and ticks
    off rare raw values.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, estimator, n_boot, seed, units, weights
        As in :func:`pointplot`.
    errorbar : tuple, str or None
        From :data:`~safeplot.plots.line.ERRORBAR_MENU` (or None).
    orient, log_scale, native_scale
        As in :func:`pointplot`.
    method, threshold, k, q, policy
        As in :func:`~safeplot.plots.bar.release_barplot`.

    Returns
    -------
    BarRelease

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_pointplot(tips, x="day", y="tip", errorbar=("se", 1))
    >>> rel.estimates.tolist(), rel.report.function
    ([2.77, 2.73, 2.99, 3.26], 'pointplot')
    """
    pol = get_policy(policy)
    # release_barplot reads the error bar against the menu (check_errorbar)
    rel = release_barplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        estimator=estimator,
        errorbar=errorbar,
        n_boot=n_boot,
        seed=seed,
        units=units,
        weights=weights,
        orient=orient,
        log_scale=log_scale,
        native_scale=native_scale,
        method=method,
        threshold=threshold,
        k=k,
        q=q,
        policy=pol,
        function="pointplot",
    )
    lay = rel.layout
    if get_method(rel.method).raw or log_axes(log_scale, lay, native_scale)[1]:
        return rel  # raw output, or a log axis: the bar release's axis serves
    _, rows = resolve("pointplot", data, x, y, hue, order, hue_order, orient, numeric=True)
    rare = rare_values(rows.all_values, pol.check_threshold(threshold))
    numbers = rel.estimates
    if rel.lower is not None:
        finite = np.isfinite(rel.lower) & np.isfinite(rel.upper)
        numbers = np.r_[numbers, rel.lower[finite], rel.upper[finite]]
    rel.value_lim, rel.value_ticks = axis_from_range(
        float(numbers.min()), float(numbers.max()), rare
    )
    return rel


@takes_method_options
def pointplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    units: Any = None,
    weights: Any = None,
    color: Any = None,
    palette: Any = None,
    hue_norm: Any = None,
    markers: Any = "default",
    linestyles: Any = "default",
    dodge: bool | float = False,
    log_scale: Any = None,
    native_scale: bool = False,
    orient: str | None = None,
    capsize: float = 0,
    formatter: Any = None,
    legend: str | bool = "auto",
    err_kws: dict[str, Any] | None = None,
    ci: Any = "deprecated",
    errwidth: Any = "deprecated",
    join: Any = "deprecated",
    scale: Any = "deprecated",
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Show an estimate per group as points joined by lines, small groups left out, rounded.

    The arguments are those of :func:`seaborn.pointplot` (0.13.2), plus the
    disclosure-control parameters. The estimates and error bars are released
    as :func:`~safeplot.plots.bar.barplot` releases them
    (:func:`release_pointplot`) and seaborn draws only them.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data whose numeric columns are each a point.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    estimator : str or callable, default "mean"
        As in :func:`~safeplot.plots.bar.barplot`: estimators that return one
        record's value (``"min"``, ``"max"``, ...) are refused.
    errorbar : tuple or str or None, default ("ci", 95)
        From a fixed menu (:data:`~safeplot.plots.line.ERRORBAR_MENU`):
        ``("ci", 90 | 95 | 99)``, ``("pi", 50 | 90 | 95)``, ``("se", 1 | 2)``,
        ``("sd", 1 | 2)``, a bare name, or None. A callable is refused.
    n_boot, seed
        Bootstrap of ``"ci"`` error bars.
    units, weights
        Only with ``method="none"``.
    color, palette, hue_norm, markers, linestyles, dodge, capsize, err_kws
        Appearance, as in seaborn.
    log_scale, native_scale, formatter, orient, legend
        As in seaborn.
    ci, errwidth, join, scale
        seaborn's deprecated options: passed on to seaborn (``ci`` refused
        with advice to use `errorbar`).
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method, as for :func:`~safeplot.plots.bar.barplot`
        (default: the policy's method for binned plots, ``"suppress"``).
    threshold : int, optional
        Minimum records of a shown point. Default and floor: the policy's.
    k, q, algorithm, c, discretizer
        Parameters of the value methods.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report on ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        An estimator that returns a record, every group below the threshold,
        a parameter below a policy floor.
    ValueError
        An error bar off the menu, `units`/`weights` under a
        disclosure-control method, bad variables.

    See Also
    --------
    barplot : The same estimates as bars.
    lineplot : Estimates per value of a numeric x.
    seaborn.pointplot : The raw-data function this mirrors.

    Notes
    -----
    Every method releases as :func:`~safeplot.plots.bar.barplot` does: a
    group (category x hue level) with fewer than `threshold` records is not
    drawn and not named, and each estimate and error-bar end is rounded to
    the policy's significant figures and moved off values fewer than
    `threshold` records hold. Lines join the points drawn, as seaborn joins
    the points it has. The value axis spans the released numbers, with
    limits and ticks that equal no rare raw value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = pointplot(penguins, x="island", y="body_mass_g", hue="sex", errorbar="se", ax=ax)
    >>> ax.safeplot_report.function, ax.safeplot_report.method
    ('pointplot', 'suppress')
    >>> plt.close(fig)
    """
    pol = get_policy()
    if not (isinstance(ci, str) and ci == "deprecated"):
        raise ValueError(
            f"pointplot: ci= is seaborn's deprecated spelling of errorbar; give errorbar=('ci', "
            f"{ci}) (or errorbar=None) instead."
        )
    rel = release_pointplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        estimator=estimator,
        errorbar=errorbar,
        n_boot=n_boot,
        seed=seed,
        units=units,
        weights=weights,
        orient=orient,
        log_scale=log_scale,
        native_scale=native_scale,
        method=method,
        threshold=threshold,
        k=k,
        q=q,
        policy=pol,
    )
    lay = rel.layout
    refuse_native_other(native_scale, rel.other, lay, "pointplot")
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    deprecated = {
        name: value
        for name, value in (("errwidth", errwidth), ("join", join), ("scale", scale))
        if not (isinstance(value, str) and value == "deprecated")
    }
    style = dict(
        color=color,
        hue_norm=hue_norm,
        dodge=dodge,
        log_scale=log_scale,
        native_scale=native_scale,
        capsize=capsize,
        formatter=formatter,
        legend=legend,
        err_kws=err_kws,
        **{n: v for n, v in (("markers", markers), ("linestyles", linestyles)) if v != "default"},
        **deprecated,
    )
    if get_method(rel.method).raw:
        import seaborn as sns

        with quiet_seaborn():
            sns.pointplot(
                data,
                x=x,
                y=y,
                hue=hue,
                order=order,
                hue_order=hue_order,
                estimator=estimator,
                errorbar=errorbar,
                n_boot=n_boot,
                seed=seed,
                units=units,
                weights=weights,
                orient=orient,
                palette=palette,
                ax=ax,
                **style,
                **kwargs,
            )
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    # a hue level whose every point is suppressed is not drawn (nor named, unless the call
    # named it in hue_order); the others keep their colours
    view = SimpleNamespace(layout=lay, hue_levels=rel.shown_hue_levels())
    style["palette"] = stable_palette(
        view, {"palette": palette, "hue_norm": hue_norm, "color": color}
    )
    draw_estimates(ax, rel, "point", style, kwargs)
    set_safe_axis(ax, lay.value_axis, rel.value_lim, rel.value_ticks)
    axis = ax.yaxis if lay.value_axis == "y" else ax.xaxis
    if axis.get_scale() == "log":
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    if native_scale and lay.cat_numeric and rel.groups:
        safe_category_axis(ax, lay, rel.avoid_categories)
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
