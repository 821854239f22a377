"""Strip and swarm plots (seaborn's ``stripplot``, ``swarmplot``) of anonymised values.

A strip or swarm plot draws one marker per record at its raw value. The safe
versions (:func:`stripplot`, :func:`swarmplot`) release one *anonymised*
value per record instead (:func:`release_stripplot`), formed within each
group (category x hue level) by a method that moves values -- by default
``"deterministic"``, the centroid of each record and its ``k - 1`` nearest
neighbours in its group (Avraam et al.) -- and seaborn places only the
released values, with its own jitter or swarm layout along the category
axis. A group with fewer records than the method's groups need (at least
``threshold``) is left out and not named.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from ..anonymize.grids import rare_values
from ..marks.points import draw_categorical_points
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._categories import resolve
from ._common import (
    axes_for,
    axis_from_range,
    finish,
    make_report,
    quiet_seaborn,
    takes_method_options,
)

__all__ = ["STRIP_METHODS", "StripRelease", "release_stripplot", "stripplot", "swarmplot"]

_STRIP_FAMILIES = ("values", "raw")
#: Methods a strip or swarm plot releases: those that move every value.
STRIP_METHODS = tuple(m.name for m in available_methods() if m.family in _STRIP_FAMILIES)


@release_kind("strip")
@dataclass
class StripRelease:
    """Released values of a strip or swarm plot: one per record of each drawn group.

    Attributes
    ----------
    method : str
    values : ndarray
        The released (anonymised) value of each drawn record.
    categories : list or None
        The category of each value (None without a category variable).
    hues : list or None
        The hue level of each value (None without hue).
    levels, hue_levels : list or None
        The categories and hue levels drawn, in order (the others are not named).
    orient : str
        The category axis, ``"x"`` or ``"y"``.
    names : dict
        Role ("cat", "value", "hue") -> axis or legend label.
    value_lim : tuple of float or None
        Limits of the value axis (None: raw output).
    value_ticks : ndarray or None
    report : DisclosureReport
    groups_left_out : int
        Groups with too few records, not drawn.
    """

    method: str
    values: np.ndarray
    categories: list[Any] | None
    hues: list[Any] | None
    levels: list[Any] | None
    hue_levels: list[Any] | None
    orient: str
    names: dict[str, str]
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    groups_left_out: int = 0
    notes: list[str] = field(default_factory=list)


def release_stripplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
    function: str = "stripplot",
) -> StripRelease:
    """Release one anonymised value per record, formed within each group.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, orient
        As in :func:`stripplot`.
    method : str, optional
        A method that moves values (default: the policy's method for point
        plots, ``"deterministic"``).
    threshold : int, optional
        Fewest records of a drawn group (default and floor: the policy's).
    k, q
        Parameters of the methods.
    policy : Policy, optional
    function : str, default "stripplot"
        The public function, for the report and messages.

    Returns
    -------
    StripRelease

    Raises
    ------
    DisclosureError
        Every group too small, a parameter below a policy floor.
    ValueError
        A method that does not move every value, bad variables.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_stripplot(tips, x="day", y="tip", k=5)
    >>> rel.levels, len(rel.values) == len(tips)
    (['Thur', 'Fri', 'Sat', 'Sun'], True)
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "scatter"), _STRIP_FAMILIES, f"{function}s")
    layout, rows = resolve(function, data, x, y, hue, order, hue_order, orient, numeric=True)
    names = {
        "cat": layout.cat_name or "",
        "value": layout.value_name or "",
        "hue": layout.hue_name or "",
    }
    levels = list(layout.levels) if layout.has_cat else None
    n_hue = layout.n_hue
    codes = rows.cat * n_hue + rows.hue
    if m.raw:
        report = make_report(
            function, m.name, {}, (names["value"] or "values",), rows.values.size,
            rows.n_dropped, pol,
        )  # fmt: skip
        return StripRelease(
            m.name, np.array([]), None, None, levels, layout.hue_levels, layout.orient, names,
            None, None, report,
        )  # fmt: skip
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k)
    fewest, why = m.group_floor(pol, k)
    fewest = max(fewest, threshold)
    sizes = np.bincount(codes, minlength=len(layout.levels) * n_hue)
    groups = guard.shown_groups(
        sizes, fewest, why, function=function, fix="Use broader groups, or a smaller k."
    )
    left_out = groups.left_out
    # one marker per record, beside the same figure without hue (or categories): the records
    # left out are 0 or at least threshold, and never the marks a method drew on their own
    keep = groups.keep_records(
        codes, threshold, on_their_own=not guard.small_group_rule(m, "markers").leave_out
    )
    topped_up = groups.topped_up(keep, codes)
    # rare among every record, those of groups left out included: no released value may
    # equal one of them
    rare = rare_values(rows.all_values, threshold)
    out = anonymize_values(
        rows.values[keep][:, None],
        m.name,
        names=[names["value"] or "values"],
        k=k,
        q=q,
        strata=codes[keep],
        threshold=threshold,
        policy=pol,
        _rare=[rare],
    )
    # the guard's last word: off every rare value, whatever the method's groups were
    values = guard.released_values(out.values[:, 0], rare, float(np.std(rows.values, ddof=1)))
    kept_codes = codes[keep]
    cats = hues = None
    drawn_levels = drawn_hues = None
    if layout.has_cat:
        cats = [layout.levels[c // n_hue] for c in kept_codes]
        present = {c // n_hue for c in np.unique(kept_codes)}
        drawn_levels = [lev for i, lev in enumerate(layout.levels) if i in present]
    if layout.hue_levels is not None:
        hues = [layout.hue_levels[c % n_hue] for c in kept_codes]
        present = {c % n_hue for c in np.unique(kept_codes)}
        drawn_hues = [lev for i, lev in enumerate(layout.hue_levels) if i in present]
    notes = []
    warnings = []
    if left_out:
        notes.append(groups.note)
        warnings.append(groups.warning)
    if topped_up:
        warnings.append(guard.TOPPED_UP)
    lo, hi = float(values.min()), float(values.max())
    value_lim, value_ticks = axis_from_range(lo, hi, rare)
    params = dict(out.params, threshold=threshold)
    report = make_report(
        function,
        m.name,
        params,
        tuple(v for v in (names["value"], names["cat"], names["hue"]) if v) or ("values",),
        int(keep.sum()),
        rows.n_dropped,
        pol,
        cells_suppressed=left_out,
        details=dict(out.details),
        warnings=warnings,
    )
    return StripRelease(
        m.name,
        values,
        cats,
        hues,
        drawn_levels,
        drawn_hues,
        layout.orient,
        names,
        value_lim,
        value_ticks,
        report,
        groups_left_out=left_out,
        notes=notes,
    )


def _plot(
    kind: str,
    data: Any,
    *,
    x: Any,
    y: Any,
    hue: Any,
    order: Any,
    hue_order: Any,
    orient: Any,
    ax: Axes | None,
    method: str | None,
    threshold: int | None,
    k: int,
    q: float,
    annotate: bool | None,
    style: dict[str, Any],
    kwargs: dict[str, Any],
) -> Axes:
    """Release, then draw with seaborn's ``stripplot`` or ``swarmplot``."""
    function = f"{kind}plot"
    pol = get_policy()
    for name in ("native_scale", "log_scale"):
        if style.get(name):
            raise ValueError(
                f"{function}: {name}= is not supported yet; plot the (log of the) variable on "
                "a categorical axis."
            )
    rel = release_stripplot(
        data,
        x=x,
        y=y,
        hue=hue,
        order=order,
        hue_order=hue_order,
        orient=orient,
        method=method,
        threshold=threshold,
        k=k,
        q=q,
        policy=pol,
        function=function,
    )
    ax = axes_for(ax, rel.report, rel)
    if get_method(rel.method).raw:
        import seaborn as sns

        with quiet_seaborn():
            getattr(sns, function)(
                data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
                ax=ax, **style, **kwargs,
            )  # fmt: skip
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    style = {n: v for n, v in style.items() if n not in ("native_scale", "log_scale")}
    draw_categorical_points(ax, rel, kind, style, kwargs)
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)


_DEFAULT = object()


@takes_method_options
def stripplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    jitter: Any = True,
    dodge: bool = False,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    size: float = 5,
    edgecolor: Any = _DEFAULT,
    linewidth: float = 0,
    hue_norm: Any = None,
    log_scale: Any = None,
    native_scale: bool = False,
    formatter: Any = None,
    legend: str | bool = "auto",
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw one anonymised value per record of each group, jittered along the category axis.

    The arguments are those of :func:`seaborn.stripplot` (0.13.2), plus the
    disclosure-control parameters. Each record's value is released by a
    method that moves values, within its group (:func:`release_stripplot`),
    and seaborn places only the released values.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, or
        wide-form data whose numeric columns are each a category.
    x, y, hue : name of a column in `data`, or a vector
        The category, the numeric variable and the hue.
    order, hue_order : list, optional
        Order of the levels; records of other levels are left out.
    jitter, dodge, orient, color, palette, size, edgecolor, linewidth, hue_norm
        As in seaborn: the jitter moves markers along the category axis only.
    formatter, legend
        As in seaborn.
    log_scale, native_scale
        Not supported yet (refused).
    ax : Axes, optional
    method : str, optional
        ``"deterministic"`` (default: kNN centroids of `k` records within each
        group), ``"probabilistic"``, ``"microaggregation"``, ``"rounding"``, or
        ``"none"`` where the policy allows raw output. Methods that do not
        move every value (suppression, winsorising) are refused.
    threshold : int, optional
        Fewest records of a drawn group (default and floor: the policy's).
    k, q, algorithm, discretizer
        Parameters of the methods.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.scatter` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    DisclosureError
        Every group too small, a parameter below a policy floor.
    ValueError
        A method that does not move values, `log_scale`/`native_scale`, bad
        variables.

    See Also
    --------
    swarmplot : The same values, placed without overlap.
    boxplot : Released summaries of each group.
    seaborn.stripplot : The raw-data function this mirrors.

    Notes
    -----
    A group (category x hue level) needs at least `threshold` records, and
    as many as the method's groups need (``k`` for ``"deterministic"``,
    ``2k`` for ``"microaggregation"``); smaller groups are left out and not
    named. Values are anonymised within each group, so a centroid never
    mixes records of two categories; the value axis has limits and ticks
    that equal no rare raw value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = stripplot(tips, x="day", y="tip", hue="sex", dodge=True, ax=ax)
    >>> ax.safeplot_report.method, ax.safeplot_report.params["k"]
    ('deterministic', 3)
    >>> plt.close(fig)
    """
    style = dict(
        jitter=jitter, dodge=dodge, color=color, palette=palette, size=size,
        linewidth=linewidth, hue_norm=hue_norm, log_scale=log_scale,
        native_scale=native_scale, formatter=formatter, legend=legend,
    )  # fmt: skip
    if edgecolor is not _DEFAULT:
        style["edgecolor"] = edgecolor
    return _plot(
        "strip", data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
        ax=ax, method=method, threshold=threshold, k=k, q=q, annotate=annotate, style=style,
        kwargs=kwargs,
    )  # fmt: skip


@takes_method_options
def swarmplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    order: Sequence[Any] | None = None,
    hue_order: Sequence[Any] | None = None,
    dodge: bool = False,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    size: float = 5,
    edgecolor: Any = None,
    linewidth: float = 0,
    hue_norm: Any = None,
    log_scale: Any = None,
    native_scale: bool = False,
    formatter: Any = None,
    legend: str | bool = "auto",
    warn_thresh: float = 0.05,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    discretizer: str = "ewd",
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw one anonymised value per record of each group, placed in a swarm without overlap.

    As :func:`stripplot`, with seaborn's swarm layout (:func:`seaborn.swarmplot`
    0.13.2) of the released values instead of random jitter.

    Parameters
    ----------
    data, x, y, hue, order, hue_order, dodge, orient, color, palette, size
        As in :func:`stripplot`.
    edgecolor, linewidth, hue_norm, formatter, legend, warn_thresh
        As in seaborn.
    log_scale, native_scale
        Not supported yet (refused).
    ax : Axes, optional
    method, threshold, k, q, algorithm, discretizer, annotate
        As in :func:`stripplot`.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.scatter` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    stripplot : The same values, jittered.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = swarmplot(tips, x="time", y="tip", size=3, ax=ax)
    >>> ax.safeplot_report.function
    'swarmplot'
    >>> plt.close(fig)
    """
    style = dict(
        dodge=dodge, color=color, palette=palette, size=size, edgecolor=edgecolor,
        linewidth=linewidth, hue_norm=hue_norm, log_scale=log_scale,
        native_scale=native_scale, formatter=formatter, legend=legend,
        warn_thresh=warn_thresh,
    )  # fmt: skip
    return _plot(
        "swarm", data, x=x, y=y, hue=hue, order=order, hue_order=hue_order, orient=orient,
        ax=ax, method=method, threshold=threshold, k=k, q=q, annotate=annotate, style=style,
        kwargs=kwargs,
    )  # fmt: skip
