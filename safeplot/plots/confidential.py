"""O'Keefe's confidentialised plots: parallel box plots and the correspondence-analysis plot.

O'Keefe (2013) replaces the two most disclosive exploratory outputs of a
remote analysis system by plots that show the relationship and no record:

- :func:`parallelboxplot` replaces a scatter plot of two continuous
  variables by box plots of one over intervals of the other (each interval
  holding at least ``threshold`` records, adjacent intervals merged while a
  box has a zero-length half, every box winsorised and rounded, no outliers),
  optionally with a lowess trend line whose ends reveal no data value;
- :func:`correspondenceplot` replaces a contingency table of two or more
  categorical variables by a correspondence-analysis plot: the categories as
  points in the plane of the first two dimensions, no count shown, rare
  levels merged into ``"Other"`` first.

The numbers come from :mod:`safeplot.anonymize.confidential` and
:mod:`safeplot.anonymize.correspondence`; only they are drawn.

References
----------
.. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
   remote analysis." Journal of Official Statistics 29(4) (2013).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validate import clean_numeric
from ..anonymize.boxes import nudge_off
from ..anonymize.confidential import (
    ParallelBoxes,
    default_intervals,
    interval_edges,
)
from ..anonymize.correspondence import (
    CAResult,
    merge_rare_levels,
    multiple_ca,
    simple_ca,
)
from ..anonymize.grids import hits_any, rare_values
from ..anonymize.statistics import round_sig
from ..errors import DisclosureError
from ..policy import Policy, get_policy
from ..release import DisclosureReport
from ._common import (
    axis_from_range,
    check_methods,
    finish,
    get_ax,
    make_report,
    set_safe_axis,
)
from ._data import categorical_order, plot_data
from .relational import (
    MERGE_NOTE_GID,
    _draw_parallel_boxes,
    _level_colors,
    _parallel_core,
    box_positions,
)

__all__ = [
    "CORRESPONDENCE_METHODS",
    "PARALLEL_METHODS",
    "CorrespondenceRelease",
    "ParallelBoxRelease",
    "correspondenceplot",
    "parallelboxplot",
    "release_correspondence",
    "release_parallelboxes",
]

#: Methods of :func:`parallelboxplot`: it is confidential by nature.
PARALLEL_METHODS = ("confidential", "none")
#: Methods of :func:`correspondenceplot`.
CORRESPONDENCE_METHODS = ("confidential", "none")
#: gid of the note naming the intervals a merged box left empty.
DROPPED_NOTE_GID = MERGE_NOTE_GID
#: gid of the category labels of a correspondence plot.
CA_LABEL_GID = "safeplot-ca-label"


#: Axes.bxp options that would move the released boxes or draw statistics they do not hold.
_BXP_REFUSED = (
    "positions",
    "widths",
    "orientation",
    "vert",
    "manage_ticks",
    "showmeans",
    "meanline",
    "shownotches",
    "notch",
    "bootstrap",
    "usermedians",
    "conf_intervals",
)


def _refuse_other_methods(method: str, function: str) -> None:
    if method not in PARALLEL_METHODS:
        raise ValueError(
            f"{function}: method={method!r} is not available. A parallel box plot is O'Keefe's "
            "confidential output and takes method='confidential' (default) or 'none' (raw, if "
            "the policy allows it). For other methods draw the variables with "
            "safeplot.scatterplot(..., method=...) or safeplot.boxplot(..., method=...)."
        )


# -- parallel box plots -------------------------------------------------------------------


@dataclass
class ParallelBoxRelease:
    """Released parallel box plots: boxes per interval (and hue level), optional trend lines.

    The interval variable is called ``x`` and the summarised one ``y``
    whatever the orientation they are drawn in.

    Attributes
    ----------
    levels : list
        Hue levels with boxes (``[None]`` without hue).
    boxes : list of ParallelBoxes
        Each level's boxes on the common interval edges (confidential).
    raw_stats : list of list of dict
        matplotlib ``bxp`` statistics of the raw boxes (``method="none"``).
    positions : list of ndarray
        Position of every box of each level along the interval axis.
    width : float
        Width of every box.
    trends : list of (ndarray, ndarray)
        The lowess trend line of each level (empty without ``trend=True``).
    edges : ndarray
        Interval edges.
    xlim, ylim : tuple of float
        Limits of the interval axis and of the value axis.
    xticks, yticks : ndarray
    report : DisclosureReport
    notes : list of str
        For each merged group: the range its one box summarises, where it is
        drawn, and which intervals are left empty.
    """

    method: str
    levels: list
    boxes: list[ParallelBoxes]
    positions: list[np.ndarray]
    width: float
    trends: list[tuple[np.ndarray, np.ndarray]]
    edges: np.ndarray
    xlim: tuple[float, float]
    ylim: tuple[float, float] | None
    xticks: np.ndarray
    yticks: np.ndarray | None
    report: DisclosureReport
    notes: list[str] = field(default_factory=list)
    raw_stats: list[list[dict]] = field(default_factory=list)


def release_parallelboxes(
    x: np.ndarray,
    y: np.ndarray,
    codes: np.ndarray | None = None,
    levels: list | None = None,
    *,
    names: tuple[str, str] = ("x", "y"),
    method: str = "confidential",
    threshold: int | None = None,
    n_intervals: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    width: float = 0.8,
    trend: bool = False,
    frac: float = 2 / 3,
    n_dropped: int = 0,
    function: str = "parallelboxplot",
    role: str = "hue",
    policy: Policy | None = None,
) -> ParallelBoxRelease:
    """Release O'Keefe's parallel box plots of `y` over intervals of `x` (numbers only).

    Parameters
    ----------
    x, y : ndarray, shape (n,)
        Finite raw values (the interval variable and the summarised one).
    codes : ndarray of int, optional
        Hue level index of each record (-1: left out); default one level.
    levels : list, optional
        The hue levels (default ``[None]``).
    names : tuple of str
        Names of x and y, for the report and the notes.
    method : {"confidential", "none"}
    threshold, n_intervals, winsor_sd, sig, width, trend, frac
        As in :func:`parallelboxplot`.
    n_dropped : int
        Rows left out for missing values.
    function : str
        Calling function, for the report.
    role : str
        How the grouping variable is named in errors.
    policy : Policy, optional

    Returns
    -------
    ParallelBoxRelease

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(50, 10, 300)
    >>> rel = release_parallelboxes(x, x + rng.normal(0, 5, 300))
    >>> all(b.n >= 3 for b in rel.boxes[0].boxes), rel.report.method
    (True, 'confidential')
    """
    pol = get_policy(policy)
    codes = np.zeros(x.size, dtype=int) if codes is None else np.asarray(codes, dtype=int)
    levels = [None] if levels is None else list(levels)
    if not 0 < float(width) <= 1:
        raise ValueError(f"width must be a number in (0, 1], got {width!r}.")
    if n_intervals is not None and (
        isinstance(n_intervals, bool)
        or not isinstance(n_intervals, (int, np.integer))
        or n_intervals < 1
    ):
        raise ValueError(f"n_intervals must be a positive integer, got {n_intervals!r}.")
    if method == "none":
        return _raw_release(
            x, y, codes, levels, names, n_intervals, width, n_dropped, function, pol
        )
    threshold = pol.check_threshold(threshold)
    winsor_sd = pol.check_winsor_sd(winsor_sd)
    sig = pol.check_sig_figs(sig)
    core = _parallel_core(
        x,
        y,
        codes,
        levels,
        threshold,
        pol,
        n_intervals=n_intervals,
        winsor_sd=winsor_sd,
        sig=sig,
        share=float(width),
        trend=trend,
        frac=frac,
        role=role,
        error_prefix=f"{function}: ",
        describe=lambda pb: pb.describe_merges(names[0], empty=True),
        merge_warning="Adjacent intervals were merged; a merged box is drawn with the width of "
        "one interval, over the one holding most of its records, and the other intervals are "
        "left empty (O'Keefe): ",
    )
    edges = core.edges
    params = {"threshold": threshold, "winsor_sd": winsor_sd, "sig": sig}
    details = {
        "values_winsorised": pol.round_count(core.n_winsorized),
        "intervals": len(edges) - 1,
        "interval_width": float(edges[1] - edges[0]),
        "intervals_merged": core.notes,
        "intervals_left_empty": sum(len(pb.dropped) for pb in core.boxes),
        "trend": "lowess" if trend else None,
    }
    report = make_report(
        function,
        "confidential",
        params,
        names,
        int((codes >= 0).sum()),
        n_dropped,
        pol,
        details=details,
        warnings=core.warnings,
    )
    return ParallelBoxRelease(
        "confidential",
        core.levels,
        core.boxes,
        core.positions,
        core.width,
        core.trends,
        edges,
        core.xlim,
        core.ylim,
        core.xticks,
        core.yticks,
        report,
        core.notes,
    )


def _raw_release(x, y, codes, levels, names, n_intervals, width, n_dropped, function, pol):
    """Raw parallel boxes: Tukey boxes of y in equal intervals of x, outliers shown."""
    from matplotlib.cbook import boxplot_stats

    present = [i for i in range(len(levels)) if (codes == i).any()]
    if n_intervals is None:
        n_intervals = default_intervals(int(x.size), pol.threshold)
    edges = interval_edges(x, n_intervals)
    cell = np.clip(np.searchsorted(edges, x, side="right") - 1, 0, edges.size - 2)
    stats, centres = [], []
    for i in present:
        level_stats, level_centres = [], []
        for c in range(edges.size - 1):
            sel = (codes == i) & (cell == c)
            if sel.any():
                level_stats.append(boxplot_stats(y[sel])[0])
                level_centres.append((edges[c] + edges[c + 1]) / 2)
        stats.append(level_stats)
        centres.append(np.array(level_centres))
    positions, box_width = box_positions(centres, float(edges[1] - edges[0]), np.array([]), width)
    report = make_report(function, "none", {}, names, int((codes >= 0).sum()), n_dropped, pol)
    return ParallelBoxRelease(
        "none",
        [levels[i] for i in present],
        [],
        positions,
        box_width,
        [],
        edges,
        (float(edges[0]), float(edges[-1])),
        None,
        edges,
        None,
        report,
        raw_stats=stats,
    )


def _draw_parallel(
    ax: Axes,
    rel: ParallelBoxRelease,
    *,
    colors: list,
    orient: str,
    legend: Any,
    title: str,
    line_kws: dict | None,
    kwargs: dict,
) -> None:
    _draw_parallel_boxes(
        ax,
        rel,
        [[b.to_bxp() for b in pb.boxes] for pb in rel.boxes]
        if rel.method == "confidential"
        else rel.raw_stats,
        note_title="Merged intervals (one box each, where most of its records are; the rest "
        "left empty):",
        colors=colors,
        legend=legend,
        title=title,
        line_kws=line_kws,
        vertical=orient == "x",
        showfliers=rel.method == "none",
        bxp_kws=kwargs,
        trends_last=True,
    )


def _orient(orient: str | None) -> str:
    if orient in (None, "x", "v"):
        return "x"
    if orient in ("y", "h"):
        return "y"
    raise ValueError(
        f"orient must be 'x' (or 'v': intervals of x, vertical boxes of y) or 'y' (or 'h': "
        f"intervals of y, horizontal boxes of x), got {orient!r}."
    )


def parallelboxplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    orient: str | None = None,
    color: Any = None,
    palette: Any = None,
    width: float = 0.8,
    legend: str | bool = "auto",
    ax: Axes | None = None,
    method: str | None = "confidential",
    threshold: int | None = None,
    n_intervals: int | None = None,
    winsor_sd: float | None = None,
    sig: int | None = None,
    trend: bool = False,
    frac: float = 2 / 3,
    line_kws: dict | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw O'Keefe's parallel box plots: box plots of one variable over intervals of another.

    The confidentialised replacement for a scatter plot of two continuous
    variables: no point is drawn, only a winsorised, rounded box per
    interval of the interval variable, each resting on at least
    ``threshold`` records.

    Parameters
    ----------
    data : DataFrame or mapping, optional
        Long-form data with the variables named by `x`, `y`, `hue`.
    x, y : name of a column in `data`, or a vector
        Numeric variables. With ``orient="x"`` (default) x is cut into
        intervals and the boxes summarise y; with ``orient="y"`` the other
        way round.
    hue : name or vector, optional
        Categorical variable: one set of boxes per level, dodged side by
        side within each interval (every level needs ``threshold`` records).
    hue_order : list, optional
        Order of the hue levels; records of other levels are left out.
    orient : {"x", "y", "v", "h"}, optional
        Which variable is cut into intervals (see `x`, `y`).
    color : color, optional
        Box colour without hue.
    palette : palette name, list or dict, optional
        Colours of the hue levels (as seaborn picks them).
    width : float, default 0.8
        Share of an interval the boxes of the interval take up (slightly
        less when a box edge would fall on a rare value).
    legend : "auto", "brief", "full" or False
        Whether to draw the hue legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` draws raw Tukey boxes with outliers, only when the policy
        allows raw output. Other methods are refused: use
        :func:`safeplot.scatterplot` or :func:`safeplot.boxplot` for them.
    threshold : int, optional
        Fewest records per box (default and floor: the policy's threshold).
    n_intervals : int, optional
        Target number of intervals (default ``min(10, n // (2 * threshold))``
        for the smallest hue level); the width is the "nice" step (1, 2, 2.5
        or 5 times a power of ten) at least range / n_intervals.
    winsor_sd : float, optional
        Winsorising bound in SDs (default and ceiling: the policy's, 2.6).
    sig : int, optional
        Significant figures of the box statistics (default and ceiling: the
        policy's).
    trend : bool, default False
        Also draw O'Keefe's confidential lowess trend line (per hue level).
    frac : float, default 2/3
        Fraction of the data in each local lowess fit.
    line_kws : dict, optional
        Passed to :meth:`~matplotlib.axes.Axes.plot` for the trend lines.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.bxp` (e.g. ``boxprops``).

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Missing `x` or `y`, a non-numeric or constant variable, infinite
        values, an unknown method or orient, bad `n_intervals` or `width`.
    DisclosureError
        Fewer than ``threshold`` records (overall or in a hue level), a
        setting looser than the policy, ``method="none"`` when the policy
        forbids raw output.

    See Also
    --------
    safeplot.anonymize.confidential.parallel_boxes : The numbers of one set of boxes.
    safeplot.anonymize.confidential.lowess_trend : The trend line.
    boxplot : Routes ``method="confidential"`` with a continuous x here.

    Notes
    -----
    Methods: ``"confidential"`` follows O'Keefe (2013), section 3.2: x and y are
    winsorised at mean -/+ `winsor_sd` SD; the winsorised x is cut into
    equal-width intervals on a rounded grid (edges never on a rare x
    value, the outer ones beyond the data); an interval holding fewer
    than ``threshold`` records is merged with its smaller neighbour;
    then, while a box has a zero-length half (its median equals a
    quartile, which says many records share that value), that interval
    is merged with its smaller neighbour and summarised again. Each box
    is the five-number summary of the winsorised y of its interval,
    rounded to `sig` significant figures and moved off rare y values;
    whiskers reach the winsorised extremes and no outliers are drawn.
    Boxes have equal widths: a box that summarises two (or more)
    merged intervals is drawn with the width of one, over the interval
    holding most of its records, and the other interval is left empty,
    as O'Keefe does (no double-width box); a note under the axis says
    which ranges were merged and which intervals were left empty. With
    ``trend=True`` a lowess line is fitted to the winsorised data and
    drawn over a rounded grid inside the winsorised x range, clipped to
    the rounded winsorised y range, its end points rounded.
    ``"none"`` draws Tukey boxes of the raw y in equal intervals of x,
    with outliers: the raw version, for comparison under a policy that
    allows it.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = parallelboxplot(data=penguins, x="body_mass_g", y="bill_length_mm", ax=ax)
    >>> ax.safeplot_report.method, ax.safeplot_report.details["interval_width"]
    ('confidential', 500.0)
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method("confidential" if method is None else method)
    _refuse_other_methods(method, "parallelboxplot")
    axis = _orient(orient)
    if x is None or y is None:
        raise ValueError(
            "parallelboxplot needs both x= and y=: two numeric variables, one cut into "
            "intervals and one summarised by a box per interval."
        )
    if not isinstance(trend, (bool, np.bool_)):
        raise ValueError(f"trend must be True or False, got {trend!r}.")
    refused = sorted(set(kwargs) & set(_BXP_REFUSED))
    if refused:
        raise ValueError(
            f"parallelboxplot: {refused} cannot be used: the boxes are placed, sized and "
            "summarised by the release (positions and widths avoid rare values; a released "
            "five-number summary has no mean or notch). Use width= for the share of an "
            "interval the boxes take."
        )
    pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function="parallelboxplot")
    frame = pdata.frame
    interval_role, value_role = ("x", "y") if axis == "x" else ("y", "x")
    names = (pdata.label(interval_role), pdata.label(value_role))
    if names[0] == names[1]:
        names = (names[0], names[1] + " ")
    missing = frame[["x", "y"]].isna().any(axis=1)
    if pdata.has("hue"):
        missing |= frame["hue"].isna()
    kept = frame[~missing.to_numpy()]
    if kept.shape[0] == 0 and frame.shape[0] > 0:
        raise ValueError(
            f"No complete records: every row has a missing value in {list(names)}"
            + (" or the hue" if pdata.has("hue") else "")
            + ". Choose other variables, or fill in the missing values."
        )
    clean = clean_numeric(
        pd.DataFrame(
            {
                names[0]: kept[interval_role].reset_index(drop=True),
                names[1]: kept[value_role].reset_index(drop=True),
            }
        )
    )
    raw = clean.values
    n_dropped = int(missing.sum()) + clean.n_dropped
    if pdata.has("hue"):
        hue_values = kept["hue"].reset_index(drop=True)
        levels = categorical_order(hue_values, hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = np.array([lookup.get(v, -1) for v in hue_values], dtype=int)
        if not (codes >= 0).any():
            raise ValueError("parallelboxplot: no records have a hue level in hue_order.")
    else:
        levels, codes = [None], np.zeros(raw.shape[0], dtype=int)
    rel = release_parallelboxes(
        raw[:, 0],
        raw[:, 1],
        codes,
        levels,
        names=names,
        method=method,
        threshold=threshold,
        n_intervals=n_intervals,
        winsor_sd=winsor_sd,
        sig=sig,
        width=width,
        trend=bool(trend),
        frac=frac,
        n_dropped=n_dropped,
        policy=pol,
    )
    if pdata.has("hue"):
        all_levels = categorical_order(frame["hue"].dropna(), hue_order)
        by_level = dict(zip(all_levels, _level_colors(all_levels, palette), strict=True))
        colors = [by_level[lev] for lev in rel.levels]
    else:
        colors = [color if color is not None else "C0"]
    ax = get_ax(ax)
    _draw_parallel(
        ax,
        rel,
        colors=colors,
        orient=axis,
        legend=legend,
        title=pdata.label("hue"),
        line_kws=line_kws,
        kwargs=kwargs,
    )
    ax.set_xlabel(pdata.label("x"))
    ax.set_ylabel(pdata.label("y"))
    return finish(ax, rel.report, annotate=annotate, policy=pol)


# -- correspondence analysis --------------------------------------------------------------


@dataclass
class CorrespondenceRelease:
    """A released correspondence-analysis plot: category points, no counts.

    Attributes
    ----------
    variables : list of str
        The categorical variables.
    labels : list of list
        Each variable's levels after merging (``"Other"`` for merged ones).
    coords : list of ndarray, shape (levels, 2)
        Each variable's category points in the first two dimensions, rounded.
    shares : ndarray, shape (2,)
        Share of the total inertia of the two dimensions (rounded, percent).
    xlim, ylim : tuple of float
    xticks, yticks : ndarray
    report : DisclosureReport
    """

    variables: list[str]
    labels: list[list]
    coords: list[np.ndarray]
    shares: np.ndarray
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    avoid: np.ndarray = field(default_factory=lambda: np.array([]), repr=False)


def _numeric_rare(series: pd.Series, threshold: int) -> np.ndarray:
    if pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype
    ):
        return rare_values(series.to_numpy(dtype=float), threshold)
    return np.array([])


def release_correspondence(
    data: pd.DataFrame,
    variables: Sequence[str],
    *,
    method: str = "confidential",
    threshold: int | None = None,
    sig: int | None = None,
    orders: dict | None = None,
    function: str = "correspondenceplot",
    policy: Policy | None = None,
) -> CorrespondenceRelease:
    """Release the category points of a (multiple) correspondence analysis (numbers only).

    Parameters
    ----------
    data : DataFrame
        The records.
    variables : sequence of str
        Two or more categorical columns of `data`.
    method : {"confidential", "none"}
    threshold, sig
        As in :func:`correspondenceplot`.
    orders : dict, optional
        Variable -> order of its levels.
    function : str
        Calling function, for the report.
    policy : Policy, optional

    Returns
    -------
    CorrespondenceRelease

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_correspondence(tips, ["day", "time", "sex"])
    >>> rel.labels[0], rel.report.details["analysis"]
    (['Thur', 'Fri', 'Sat', 'Sun'], 'multiple')
    """
    pol = get_policy(policy)
    variables = [str(v) for v in variables]
    frame = data[variables]
    missing = frame.isna().any(axis=1).to_numpy()
    frame = frame[~missing]
    n = len(frame)
    if n == 0:
        raise ValueError(f"{function}: no records left after dropping rows with missing values.")
    orders = orders or {}
    merged_counts: dict[str, int] = {}
    codes, labels, avoid = [], [], []
    if method == "confidential":
        threshold = pol.check_threshold(threshold)
        sig = pol.check_sig_figs(sig)
        if n < threshold:
            raise DisclosureError(
                f"{function}: only {pol.describe_count(n)} complete records; at least "
                f"threshold={threshold} are needed."
            )
    for var in variables:
        series = frame[var]
        order = categorical_order(series, orders.get(var))
        if method == "confidential":
            m = merge_rare_levels(series.tolist(), threshold, order=order, name=var)
            codes.append(m.codes)
            labels.append(m.levels)
            merged_counts[var] = len(m.merged)
            avoid.append(_numeric_rare(data[var].dropna(), threshold))
        else:
            present = set(series.tolist())
            lv = [lev for lev in order if lev in present]
            index = {lev: i for i, lev in enumerate(lv)}
            codes.append(np.array([index[v] for v in series.tolist()], dtype=int))
            if len(lv) < 2:
                raise ValueError(f"{function}: {var} has fewer than two levels.")
            labels.append(lv)
    if len(variables) == 2:
        table = np.zeros((len(labels[0]), len(labels[1])))
        np.add.at(table, (codes[0], codes[1]), 1)
        res: CAResult = simple_ca(table)
        parts = [res.row_coords, res.col_coords]
        analysis = "simple"
    else:
        res = multiple_ca(codes, [len(lv) for lv in labels])
        offsets = np.cumsum([0] + [len(lv) for lv in labels])
        parts = [res.col_coords[offsets[v] : offsets[v + 1]] for v in range(len(variables))]
        analysis = "multiple"
    coords = []
    for part in parts:
        two = np.zeros((part.shape[0], 2))
        two[:, : min(2, part.shape[1])] = part[:, :2]
        coords.append(two)
    shares = np.zeros(2)
    shares[: min(2, res.shares.size)] = res.shares[:2]
    warnings = []
    if res.inertias.size < 2 or res.inertias[1] <= 0:
        warnings.append("The analysis has one dimension only: every point lies on the first axis.")
    avoid_all = np.unique(np.concatenate(avoid)) if avoid else np.array([])
    if method == "confidential":
        rounded = []
        for c in coords:
            r = np.asarray(round_sig(c, sig), dtype=float)
            r = nudge_off(r, avoid_all, np.where(r < 0, -1.0, 1.0), sig).reshape(r.shape)
            rounded.append(r)
        coords = rounded
        shown_shares = np.asarray(round_sig(100 * shares, min(sig, 2)), dtype=float)
        shown_shares = nudge_off(shown_shares, avoid_all, [1.0, -1.0], min(sig, 2))
        merged_total = sum(merged_counts.values())
        if merged_total:
            warnings.append(
                "Levels held by fewer than threshold records were merged into 'Other' before "
                "the analysis: "
                + ", ".join(f"{v}: {k} level(s)" for v, k in merged_counts.items() if k)
                + "."
            )
        params = {"threshold": threshold, "sig": sig}
    else:
        shown_shares = 100 * shares
        params = {}
    allc = np.vstack(coords)
    lo, hi = float(allc.min()), float(allc.max())
    lim, ticks = axis_from_range(min(lo, 0.0), max(hi, 0.0), avoid_all)
    report = make_report(
        function,
        method,
        params,
        tuple(variables),
        n,
        int(missing.sum()),
        pol,
        details={
            "analysis": analysis,
            "inertia_percent": [float(s) for s in shown_shares],
            "levels_merged": merged_counts,
        },
        warnings=warnings,
    )
    return CorrespondenceRelease(
        variables, labels, coords, shown_shares, lim, lim, ticks, ticks, report, avoid_all
    )


def correspondenceplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    vars: Sequence[str] | None = None,
    orders: dict | None = None,
    palette: Any = None,
    markers: Sequence[str] | None = None,
    s: float = 40,
    fontsize: Any = "small",
    legend: bool = True,
    ax: Axes | None = None,
    method: str | None = "confidential",
    threshold: int | None = None,
    sig: int | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a correspondence-analysis plot of two or more categorical variables.

    O'Keefe's replacement for a contingency table: each category is a point
    in the plane of the first two dimensions of a correspondence analysis
    (simple for two variables, multiple for more), labelled with its name;
    categories close together occur together more often than under
    independence. No count is shown.

    Parameters
    ----------
    data : DataFrame or mapping
        The records.
    x, y : name of a column in `data`
        Two categorical variables (or give `vars`).
    vars : list of str, optional
        Two or more categorical variables (instead of `x` and `y`).
    orders : dict, optional
        Variable name -> order of its levels (labels in the legend order).
    palette : palette name, list or dict, optional
        One colour per variable.
    markers : list of str, optional
        One marker per variable (default "o", "s", "^", "D", ...).
    s : float, default 40
        Marker area.
    fontsize : size, default "small"
        Size of the category labels.
    legend : bool, default True
        Name the variables in a legend.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : {"confidential", "none"}, default "confidential"
        ``"none"`` analyses the raw levels without merging or rounding (only
        if the policy allows raw output). Other methods are refused.
    threshold : int, optional
        Fewest records per level (default and floor: the policy's threshold).
    sig : int, optional
        Significant figures of the coordinates (default and ceiling: the
        policy's).
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    **kwargs
        Passed to :meth:`~matplotlib.axes.Axes.scatter`.

    Returns
    -------
    matplotlib.axes.Axes
        With the release's report as ``.safeplot_report``.

    Raises
    ------
    ValueError
        Fewer than two variables, both `vars` and `x`/`y`, an unknown column,
        no complete record, an unknown method.
    DisclosureError
        A variable left with fewer than two levels after merging its rare
        ones, a setting looser than the policy, ``method="none"`` when the
        policy forbids raw output.

    See Also
    --------
    safeplot.anonymize.correspondence.simple_ca : The analysis of two variables.
    safeplot.anonymize.correspondence.multiple_ca : The analysis of more.
    safeplot.plots.matrix.crosstab : A suppressed table of counts instead.

    Notes
    -----
    Methods: ``"confidential"``: rows with a missing value are dropped (counted,
    rounded, in the report); in each variable the levels held by fewer
    than `threshold` records are merged into ``"Other"`` (with the next
    smallest level if ``"Other"`` is still too small; a variable left
    with one level is refused); the report says how many levels were
    merged, never which. Two variables: simple correspondence analysis,
    the SVD of the standardised residuals of their two-way table, rows
    and columns in principal coordinates (a symmetric map). More
    variables: multiple correspondence analysis of the indicator
    matrix (from the Burt matrix); every level in principal
    coordinates. Coordinates are rounded to `sig` significant figures,
    the axis labels give each dimension's share of the total inertia
    rounded to two figures, and the axes have safe limits and ticks.
    ``"none"``: the same analysis of the raw levels, unrounded.

    References
    ----------
    .. [1] O'Keefe CM. "Confidentialising exploratory data analysis output in
       remote analysis." Journal of Official Statistics 29(4) (2013).
    .. [2] Greenacre M. *Correspondence Analysis in Practice*, 3rd ed. (2017).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = correspondenceplot(tips, x="day", y="size", threshold=5, ax=ax)
    >>> ax.safeplot_report.details["levels_merged"]
    {'day': 0, 'size': 2}
    >>> plt.close(fig)
    """
    pol = get_policy()
    method = pol.check_method("confidential" if method is None else method)
    check_methods(method, CORRESPONDENCE_METHODS, "correspondenceplot")
    if vars is not None and (x is not None or y is not None):
        raise ValueError("correspondenceplot: give either vars= or x= and y=, not both.")
    if vars is None:
        if x is None or y is None:
            raise ValueError(
                "correspondenceplot needs two or more categorical variables: x= and y=, or "
                "vars=[...]."
            )
        roles = {"v0": x, "v1": y}
    else:
        if isinstance(vars, str) or len(list(vars)) < 2:
            raise ValueError("correspondenceplot: vars must list two or more variables.")
        roles = {f"v{i}": v for i, v in enumerate(vars)}
    pdata = plot_data(data, roles, function="correspondenceplot")
    names = [pdata.label(r) for r in roles]
    if len(set(names)) != len(names):
        raise ValueError(f"correspondenceplot: the variables must differ, got {names}.")
    frame = pdata.frame.rename(columns=dict(zip(roles, names, strict=True)))
    order_map = dict(orders or {})
    rel = release_correspondence(
        frame,
        names,
        method=method,
        threshold=threshold,
        sig=sig,
        orders=order_map,
        policy=pol,
    )
    colors = _level_colors(names, palette)
    marks = list(markers) if markers is not None else ["o", "s", "^", "D", "v", "P", "X"]
    ax = get_ax(ax)
    if not hits_any([0.0], rel.avoid):  # the origin lines, drawn over the safe limits
        ax.plot(rel.xlim, [0.0, 0.0], color="0.8", linewidth=0.8, zorder=0)
        ax.plot([0.0, 0.0], rel.ylim, color="0.8", linewidth=0.8, zorder=0)
    for v, (name, labels, pts) in enumerate(
        zip(rel.variables, rel.labels, rel.coords, strict=True)
    ):
        ax.scatter(
            pts[:, 0],
            pts[:, 1],
            s=s,
            color=colors[v],
            marker=marks[v % len(marks)],
            label=name,
            **kwargs,
        )
        for label, (px, py) in zip(labels, pts, strict=True):
            ax.annotate(
                str(label),
                xy=(px, py),
                xytext=(4, 3),
                textcoords="offset points",
                fontsize=fontsize,
                color=colors[v],
                gid=CA_LABEL_GID,
            )
    set_safe_axis(ax, "x", rel.xlim, rel.xticks)
    set_safe_axis(ax, "y", rel.ylim, rel.yticks)
    ax.set_xlabel(f"First dimension ({rel.shares[0]:g}% of inertia)")
    ax.set_ylabel(f"Second dimension ({rel.shares[1]:g}% of inertia)")
    if legend:
        ax.legend(title=None, fontsize="small")
    return finish(ax, rel.report, annotate=annotate, policy=pol)
