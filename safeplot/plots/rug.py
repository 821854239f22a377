"""Rug plots (seaborn's ``rugplot``) of released values.

A rug draws a tick at every record's raw value. :func:`rugplot` draws a tick
at every record's *released* value instead (:func:`release_rugplot`): by
default the centroid of the record and its ``k - 1`` nearest neighbours
(Avraam et al.), within each hue level, or the value plus keyed noise. A hue
level with fewer records than the method's groups need (at least
``threshold``) is left out and not named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize.grids import rare_values
from ..marks.points import draw_rug
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._common import (
    axes_for,
    axis_from_range,
    finish,
    make_report,
    quiet_seaborn,
    takes_method_options,
)
from ._data import categorical_order, plot_data

__all__ = ["RUG_METHODS", "RugRelease", "release_rugplot", "rugplot"]

_RUG_FAMILIES = ("values", "raw")
#: Methods a rug releases: those that move every value.
RUG_METHODS = tuple(m.name for m in available_methods() if m.family in _RUG_FAMILIES)


@release_kind("rug")
@dataclass
class RugRelease:
    """Released values of a rug: one per record, on the x and/or y axis.

    Attributes
    ----------
    method : str
    values : dict
        Axis ("x", "y") -> the released value of each drawn record.
    hues : list or None
        The hue level of each drawn record.
    hue_levels : list or None
        The hue levels drawn (the others are not named).
    names : dict
        Role ("x", "y", "hue") -> label.
    limits : dict
        Axis -> released limits of that axis.
    ticks : dict
        Axis -> tick positions of that axis.
    report : DisclosureReport
    notes : list of str
    """

    method: str
    values: dict[str, np.ndarray]
    hues: list[Any] | None
    hue_levels: list[Any] | None
    names: dict[str, str]
    limits: dict[str, tuple[float, float]]
    ticks: dict[str, np.ndarray]
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)


def release_rugplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    hue_order: Any = None,
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
) -> RugRelease:
    """Release one value per record for a rug (x and y together when both are given).

    Parameters
    ----------
    data, x, y, hue, hue_order
        As in :func:`rugplot`.
    method : str, optional
        A method that moves values (default: the policy's for point plots,
        ``"deterministic"``).
    threshold, k, q, policy
        As in :func:`rugplot`.

    Returns
    -------
    RugRelease

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_rugplot(tips, x="total_bill", k=5)
    >>> rel.values["x"].size, rel.report.params["k"]
    (244, 5)
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "scatter"), _RUG_FAMILIES, "rug plots")
    if x is None and y is None:
        raise ValueError("rugplot needs x= and/or y= naming a numeric variable.")
    pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function="rugplot")
    axes = [a for a in ("x", "y") if pdata.has(a)]
    names = {r: pdata.label(r) for r in ("x", "y", "hue") if pdata.has(r)}
    frame = pdata.frame
    labels = [names[a] for a in axes]
    if len(set(labels)) < len(labels):
        labels = [f"{names[a]} ({a})" for a in axes]
    # validation: clear errors for text, booleans, dates, inf, all-missing, constants
    clean = clean_numeric({lab: frame[a] for lab, a in zip(labels, axes, strict=True)})
    keep = frame[axes].apply(pd.to_numeric, errors="coerce").notna().all(axis=1)
    levels = None
    codes = np.zeros(int(keep.sum()), dtype=np.intp)
    if pdata.has("hue"):
        keep &= frame["hue"].notna()
        levels = categorical_order(frame.loc[keep, "hue"], hue_order)
        keep &= frame["hue"].isin(levels)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = np.array([lookup[v] for v in frame.loc[keep, "hue"]], dtype=np.intp)
    raw = frame.loc[keep, axes].to_numpy(dtype=float)
    if m.raw:
        report = make_report("rugplot", m.name, {}, tuple(labels), raw.shape[0], 0, pol)
        return RugRelease(m.name, {}, None, levels, names, {}, {}, report)
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k, raw.shape[0])
    fewest, why = m.group_floor(pol, k)
    fewest = max(fewest, threshold)
    sizes = np.bincount(codes, minlength=len(levels or [None]))
    groups = guard.shown_groups(
        sizes, fewest, why, function="rugplot", what="hue level",
        fix="Use broader levels, or leave hue out.",
    )  # fmt: skip
    shown, left_out = groups.shown, groups.left_out
    # one tick per record, beside the same rug without hue: the records left out are 0 or at
    # least threshold, and never the ticks a method drew on their own
    in_shown = groups.keep_records(
        codes, threshold, on_their_own=not guard.small_group_rule(m, "markers").leave_out
    )
    topped_up = groups.topped_up(in_shown, codes)
    # rare among every record, those of hue levels left out included: no released value may
    # equal one of them
    rare = [
        rare_values(pd.to_numeric(frame[a], errors="coerce").dropna().to_numpy(), threshold)
        for a in axes
    ]
    out = anonymize_values(
        raw[in_shown],
        m.name,
        names=labels,
        k=k,
        q=q,
        strata=codes[in_shown] if levels is not None else None,
        threshold=threshold,
        policy=pol,
        _rare=rare,
    )
    # the guard's last word: off every rare value, whatever the method's groups were
    values = {
        a: guard.released_values(out.values[:, j], rare[j], float(np.std(raw[:, j], ddof=1)))
        for j, a in enumerate(axes)
    }
    limits, ticks = {}, {}
    for j, a in enumerate(axes):
        limits[a], ticks[a] = axis_from_range(
            float(values[a].min()), float(values[a].max()), rare[j]
        )
    hues = drawn = None
    if levels is not None:
        hues = [levels[c] for c in codes[in_shown]]
        drawn = [lev for i, lev in enumerate(levels) if shown[i] and sizes[i] > 0]
    notes, warnings = [], []
    if left_out:
        notes.append(groups.note)
        warnings.append(groups.warning)
    if topped_up:
        warnings.append(guard.TOPPED_UP)
    report = make_report(
        "rugplot",
        m.name,
        dict(out.params, threshold=threshold),
        tuple(labels),
        int(in_shown.sum()),
        clean.n_dropped,
        pol,
        cells_suppressed=left_out,
        details=dict(out.details),
        warnings=warnings,
    )
    return RugRelease(m.name, values, hues, drawn, names, limits, ticks, report, notes)


@takes_method_options
def rugplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    height: float = 0.025,
    expand_margins: bool = True,
    palette: Any = None,
    hue_order: Any = None,
    hue_norm: Any = None,
    legend: bool = True,
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
    """Draw a tick at every record's released value along the x and/or y axis.

    The arguments are those of :func:`seaborn.rugplot` (0.13.2), plus the
    disclosure-control parameters. The values are released first
    (:func:`release_rugplot`) and seaborn draws only them.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by `x`, `y`, `hue`.
    x, y : name of a column in `data`, or a vector
        The numeric variables (released together when both are given).
    hue : name or vector, optional
        Ticks coloured per level; values are anonymised within each level.
    height, expand_margins, palette, hue_order, hue_norm, legend
        As in seaborn.
    ax : Axes, optional
    method : str, optional
        ``"deterministic"`` (default), ``"probabilistic"``,
        ``"microaggregation"``, ``"rounding"``, or ``"none"`` where the
        policy allows raw output.
    threshold : int, optional
        Fewest records of a drawn hue level (default and floor: the policy's).
    k, q, algorithm, discretizer
        Parameters of the methods.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :class:`matplotlib.collections.LineCollection` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    DisclosureError
        Every hue level too small, a parameter below a policy floor.
    ValueError
        A method that leaves values raw (suppression, winsorising), bad variables.

    See Also
    --------
    histplot, kdeplot : Distributions the rug usually accompanies.
    seaborn.rugplot : The raw-data function this mirrors.

    Notes
    -----
    On an empty Axes the rug's axis gets limits and ticks from the released
    values, none equal to a rare raw value; drawn over another safeplot plot,
    the rug keeps that plot's axes.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = safeplot.histplot(tips, x="total_bill", ax=ax)
    >>> ax = rugplot(tips, x="total_bill", ax=ax)
    >>> safeplot.audit.entries()[-1].function, safeplot.audit.entries()[-1].method
    ('rugplot', 'deterministic')
    >>> plt.close(fig)
    """
    pol = get_policy()
    rel = release_rugplot(
        data, x=x, y=y, hue=hue, hue_order=hue_order, method=method, threshold=threshold,
        k=k, q=q, policy=pol,
    )  # fmt: skip
    ax = axes_for(ax, rel.report, rel)
    style = dict(
        height=height, expand_margins=expand_margins, palette=palette, hue_norm=hue_norm,
        legend=legend,
    )  # fmt: skip
    if get_method(rel.method).raw:
        import seaborn as sns

        with quiet_seaborn():
            sns.rugplot(data, x=x, y=y, hue=hue, hue_order=hue_order, ax=ax, **style, **kwargs)
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    empty = not (ax.lines or ax.collections or ax.patches or ax.images)
    draw_rug(ax, rel, style, kwargs, set_axes=empty)
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
