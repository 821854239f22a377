"""Line plots of an estimate per x value (seaborn's ``lineplot``) under disclosure control.

seaborn's line plot draws, for each x value, the mean of the records there
and an error band. For most continuous x values that mean is one record's
value, and ``estimator=None`` or ``units=`` draw the records themselves.
:func:`lineplot` therefore releases (:func:`release_lineplot`):

- one estimate per x value and line (hue x style x size level) over at least
  ``threshold`` records, computed and rounded exactly as
  :func:`~safeplot.plots.bar.release_barplot` releases a group's estimate
  and error bar (the x value is the group); x values with fewer records are
  left out, and the figure and the report say how many;
- when most records sit on x values held by fewer than ``threshold``
  records (a continuous x), x is first binned on the safe grid
  :func:`~safeplot.plots.distributions.histplot` uses (numpy's ``"auto"``
  rule, edges and centres off rare values) and each bin is drawn at its
  centre;
- only the named estimators ``"mean"`` and ``"median"``, and error bars from
  a fixed menu (:data:`ERRORBAR_MENU`).

Dates and times on x (a datetime64 column, or a DatetimeIndex of wide-form
data) are turned into matplotlib date numbers (days since matplotlib's epoch)
before the release, released as any numeric x, and drawn on a date axis.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._validate import clean_numeric, to_pandas
from ..anonymize.grids import rare_values, safe_edges
from ..errors import DisclosureError
from ..marks._style import variable_type
from ..marks.lines import LINE_NOTE_GID, draw_estimate_lines
from ..methods import available_methods, check_family, get_method
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
from .bar import ERRORBAR_MENU as BAR_ERRORBAR_MENU
from .bar import check_errorbar, release_barplot
from .relational import brief_legend_entries

__all__ = [
    "ERRORBAR_MENU",
    "ESTIMATORS",
    "LINE_METHODS",
    "LINE_NOTE_GID",
    "LineRelease",
    "check_estimate_args",
    "date_ticks",
    "lineplot",
    "release_lineplot",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) a line plot releases.
_LINE_FAMILIES = ("counts", "values", "rules", "raw")
#: Methods :func:`lineplot` supports ("generalize" merges categories, which x values are not).
LINE_METHODS = tuple(
    m.name for m in available_methods() if m.family in _LINE_FAMILIES and not m.coarsens
)
#: The estimators a line or point plot releases: statistics of the whole group.
ESTIMATORS = ("mean", "median")
#: The error bars a line or point plot releases: (method, level) pairs, those of a bar plot
#: (:data:`safeplot.plots.bar.ERRORBAR_MENU`).
ERRORBAR_MENU: tuple[tuple[str, int], ...] = tuple(
    (kind, level) for kind, levels in BAR_ERRORBAR_MENU.items() for level in levels
)
#: A continuous x is binned when more than this share of the records sit on rare x values.
BIN_SHARE = 0.5


@release_kind("line")
@dataclass
class LineRelease:
    """A released line plot: per drawn point, its x position, estimate and band ends.

    Attributes
    ----------
    method : str
        The disclosure-control method.
    x : ndarray
        The x position of each drawn point: an x value held by at least
        ``threshold`` records, or the centre of a bin of the safe grid
        (matplotlib date numbers when `x_dates`).
    estimates : ndarray
        The released estimate of each point.
    lower, upper : ndarray or None
        The released band ends (None without error bars).
    hue, style : list or None
        The hue and style level of each point (None when the role is unused).
    hue_levels, style_levels : list or None
        The levels drawn, in order (levels with no point drawn are not named).
    names : dict
        Role ("x", "y", "hue", "style", "size") -> label of the axis or legend.
    xlim, ylim : tuple of float or None
        Limits of the axes (None: raw output, left to seaborn).
    xticks, yticks : ndarray or None
        Tick positions.
    report : DisclosureReport
    hue_positions : list of int or None
        Where each drawn hue level stands among all the hue levels, so that
        a level keeps its colour when another is left out.
    n_hue : int or None
        How many hue levels there are (drawn or not).
    bin_width : float or None
        Width of the x bins when x was binned (in days when `x_dates`), else None.
    notes : list of str
        What the figure notes under its x-axis (x values left out, binning).
    size : list or None
        The size level of each point (None when `size` is unused).
    size_levels : list or None
        The size levels drawn, in order.
    size_positions : list of int or None
        Where each drawn size level stands among all the size levels, so that
        a categorical level keeps its line width when another is left out.
    n_size : int or None
        How many size levels there are (drawn or not).
    size_numeric : bool
        The size variable is numeric (seaborn normalises its levels to line
        widths); else categorical (evenly spaced widths).
    x_dates : bool
        x held dates or times: `x`, the limits and ticks are matplotlib date
        numbers and the x-axis is a date axis.
    """

    method: str
    x: np.ndarray
    estimates: np.ndarray
    lower: np.ndarray | None
    upper: np.ndarray | None
    hue: list[Any] | None
    style: list[Any] | None
    hue_levels: list[Any] | None
    style_levels: list[Any] | None
    names: dict[str, str]
    xlim: tuple[float, float] | None
    ylim: tuple[float, float] | None
    xticks: np.ndarray | None
    yticks: np.ndarray | None
    report: DisclosureReport
    hue_positions: list[int] | None = None
    n_hue: int | None = None
    bin_width: float | None = None
    notes: list[str] = field(default_factory=list)
    size: list[Any] | None = None
    size_levels: list[Any] | None = None
    size_positions: list[int] | None = None
    n_size: int | None = None
    size_numeric: bool = False
    x_dates: bool = False

    def line(self, hue: Any = None, style: Any = None, size: Any = None) -> pd.DataFrame:
        """Return the points of one line: x, estimate, lower and upper.

        Parameters
        ----------
        hue, style, size : optional
            The line's levels (those of roles in use).

        Returns
        -------
        DataFrame

        Examples
        --------
        >>> import safeplot
        >>> tips = safeplot.load_dataset("tips")
        >>> rel = release_lineplot(tips, x="size", y="tip", hue="time", errorbar=("se", 1))
        >>> lunch = rel.line(hue="Lunch")  # no lunch party of 1 or 5 is drawn
        >>> lunch["x"].tolist(), lunch["estimate"].tolist(), lunch["upper"].tolist()
        ([2.0, 3.0, 4.0, 6.0], [2.42, 2.76, 4.22, 5.3], [2.57, 3.22, 4.62, 6.04])
        """
        keep = np.ones(self.x.size, dtype=bool)
        if self.hue is not None:
            keep &= np.array([h == hue for h in self.hue], dtype=bool)
        if self.style is not None:
            keep &= np.array([s == style for s in self.style], dtype=bool)
        if self.size is not None:
            keep &= np.array([s == size for s in self.size], dtype=bool)
        nan = np.full(self.x.size, np.nan)
        return pd.DataFrame(
            {
                "x": self.x[keep],
                "estimate": self.estimates[keep],
                "lower": (nan if self.lower is None else self.lower)[keep],
                "upper": (nan if self.upper is None else self.upper)[keep],
            }
        )


# -- checks --------------------------------------------------------------------------------


def check_estimate_args(
    function: str, estimator: Any, errorbar: Any, units: Any, alternative: str
) -> tuple[str | None, int | None]:
    """Refuse what a released estimate cannot be; return the error bar from the menu.

    Parameters
    ----------
    function : str
        The public function, for messages.
    estimator : Any
        Must be ``"mean"`` or ``"median"``.
    errorbar : Any
        A name or (name, level) pair on :data:`ERRORBAR_MENU`, or None.
    units : Any
        Must be None.
    alternative : str
        The safe plot of individual records to name in refusals.

    Returns
    -------
    tuple
        ``(method, level)`` of the error bar, ``(None, None)`` without one.

    Raises
    ------
    DisclosureError
        ``estimator=None``, a callable or another estimator, or `units`.
    ValueError
        An error bar off the menu (a callable included).

    Examples
    --------
    >>> check_estimate_args("lineplot", "mean", "se", None, "")
    ('se', 1)
    """
    if units is not None:
        raise DisclosureError(
            f"{function}: units= draws one line per unit through its raw values. Leave units "
            f"out: the estimate per x value over at least threshold records is released. "
            f"{alternative}"
        )
    if estimator is None:
        raise DisclosureError(
            f"{function}: estimator=None draws every record at its raw value. Use "
            f"estimator='mean' or 'median' (over at least threshold records). {alternative}"
        )
    if not (isinstance(estimator, str) and estimator in ESTIMATORS):
        what = (
            "a callable estimator can return one record's value"
            if callable(estimator)
            else f"estimator={estimator!r} is not a released estimator"
        )
        raise DisclosureError(
            f"{function}: {what}. Use estimator='mean' or 'median' (rounded, over at least "
            f"threshold records). {alternative}"
        )
    if callable(errorbar):
        raise ValueError(
            f"{function}: a callable errorbar computes its interval from the raw values and "
            f"could return records. Use one of {[list(e) for e in ERRORBAR_MENU]} or None."
        )
    method, level = check_errorbar(errorbar)
    if method is None:
        return None, None
    chosen = guard.from_menu("errorbar", (method, level), ERRORBAR_MENU, what="error bars")
    return chosen[0], chosen[1]


# -- release -------------------------------------------------------------------------------


def _wide_frame(data: Any, function: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """Wide-form data: one line per numeric column, its values against the index."""
    data = to_pandas(data, function=function)
    if isinstance(data, pd.Series):
        data = data.to_frame(name=data.name if data.name is not None else "y")
    elif isinstance(data, Mapping):
        data = pd.DataFrame(dict(data))
    elif not isinstance(data, pd.DataFrame):
        arr = np.asarray(data)
        if arr.ndim == 1:
            arr = arr[:, None]
        if arr.ndim != 2:
            raise ValueError(f"{function}: wide-form data must be 1-D or 2-D.")
        data = pd.DataFrame(arr)
    index = data.index
    dates = pd.api.types.is_datetime64_any_dtype(index.dtype)
    if not (
        dates
        or (pd.api.types.is_numeric_dtype(index.dtype) and not pd.api.types.is_bool_dtype(index))
    ):
        raise ValueError(
            f"{function}: wide-form data are drawn against their index, which must be numeric "
            f"or dates (got {index.dtype}). Reset the index to numbers, or pass long-form data "
            "with x=."
        )
    numeric = [
        c
        for c in data.columns
        if pd.api.types.is_numeric_dtype(data[c].dtype)
        and not pd.api.types.is_bool_dtype(data[c].dtype)
    ]
    if not numeric:
        raise ValueError(f"{function}: the wide-form data have no numeric column to plot.")
    parts = [
        pd.DataFrame(
            {
                "x": index if dates else index.to_numpy(dtype=float),
                "y": data[c].to_numpy(dtype=float),
                "hue": str(c),
            }
        )
        for c in numeric
    ]
    frame = pd.concat(parts, ignore_index=True)
    frame["style"] = frame["hue"]
    label = "" if index.name is None else str(index.name)
    return frame, {"x": label, "y": "", "hue": "", "style": ""}


def _long_frame(
    data: Any, x: Any, y: Any, hue: Any, style: Any, size: Any, function: str
) -> tuple[pd.DataFrame, dict[str, str]]:
    if x is None and y is None:
        if data is None:
            raise ValueError(f"{function}: nothing to plot. Give data= with x= and y=.")
        if hue is not None or style is not None or size is not None:
            raise ValueError(
                f"{function}: hue=, style= and size= need long-form data with x= and y= "
                "(wide-form data get one line per column)."
            )
        return _wide_frame(data, function)
    if x is None or y is None:
        raise ValueError(
            f"{function} needs both x= and y= (or wide-form data): a single variable would be "
            "drawn against the row index, one record per point."
        )
    roles = {"x": x, "y": y, "hue": hue, "style": style, "size": size}
    pdata = plot_data(data, roles, function=function)
    if pdata.frame.shape[0] == 0:
        raise ValueError(f"{function}: the data are empty (no rows). There is nothing to plot.")
    names = {r: pdata.label(r) for r in roles if pdata.has(r)}
    return pdata.frame, names


def _dates_to_numbers(frame: pd.DataFrame, label: str, function: str) -> bool:
    """Turn dates or times on x into matplotlib date numbers in place; say whether x held them.

    Timezone-aware times are refused: their date numbers would be in UTC while
    the axis showed local times.
    """
    col = frame["x"]
    if col.dtype == object:
        col = col.infer_objects()
    if isinstance(col.dtype, pd.DatetimeTZDtype):
        raise ValueError(
            f"{function}: x ({label or 'the index'}) holds timezone-aware times ({col.dtype}). "
            "Convert them to naive local times first, e.g. x.dt.tz_localize(None) (or "
            "index.tz_localize(None) for wide-form data), or to UTC with "
            "x.dt.tz_convert(None)."
        )
    if not pd.api.types.is_datetime64_any_dtype(col.dtype):
        return False
    values = col.to_numpy(dtype="datetime64[ns]")
    numbers = np.full(values.size, np.nan)
    present = ~np.isnat(values)
    numbers[present] = mdates.date2num(values[present])
    frame["x"] = numbers
    return True


def release_lineplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    style: Any = None,
    size: Any = None,
    units: Any = None,
    weights: Any = None,
    hue_order: Sequence[Any] | None = None,
    style_order: Sequence[Any] | None = None,
    size_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] | None = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    orient: str = "x",
    method: str | None = None,
    threshold: int | None = None,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
) -> LineRelease:
    """Release the numbers of a line plot: an estimate and band per x value and line.

    Parameters
    ----------
    data, x, y, hue, style, size, units, weights, hue_order, style_order, size_order
        As in :func:`lineplot`.
    estimator, errorbar, n_boot, seed, orient
        As in :func:`lineplot`.
    method : str, optional
        Default: the policy's method for binned plots (``"suppress"``).
    threshold : int, optional
        Fewest records behind a drawn point (default and floor: the policy's).
    k, q
        Parameters of ``"deterministic"``/``"microaggregation"`` and
        ``"probabilistic"``.
    policy : Policy, optional
        The policy in force.

    Returns
    -------
    LineRelease

    Raises
    ------
    DisclosureError
        ``estimator=None``, a callable or other estimator, ``units=``, a
        parameter below a policy floor, or no point with enough records.
    ValueError
        An error bar off the menu, bad variables.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> rel = release_lineplot(tips, x="size", y="total_bill", errorbar=None)
    >>> rel.x.tolist(), rel.estimates.tolist()
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [7.24, 16.5, 23.3, 28.6, 30.1, 34.8])
    """
    function = "lineplot"
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "count"), _LINE_FAMILIES, "line plots")
    if m.name not in LINE_METHODS:
        raise ValueError(
            f"method={m.name!r} is not available for line plots: it merges categories, and "
            f"x values are binned on a safe grid already. Use one of {list(LINE_METHODS)}."
        )
    alternative = "For individual records use safeplot.scatterplot(..., method='deterministic')."
    if not m.raw:
        err = check_estimate_args(function, estimator, errorbar, units, alternative)
        if weights is not None:
            raise ValueError(
                f"{function}: weights= is not supported under method={m.name!r} (a weighted "
                "estimate can rest on a few records). Leave it out."
            )
    if orient != "x":
        raise ValueError(
            f"{function}: orient={orient!r} is not supported; the estimate of y is released "
            "per x value (orient='x'). Swap x and y instead."
        )
    frame, names = _long_frame(data, x, y, hue, style, size, function)
    if m.raw:
        report = make_report(function, m.name, {}, (names["x"], names["y"]), len(frame), 0, pol)
        return LineRelease(
            m.name, np.array([]), np.array([]), None, None, None, None, None, None,
            names, None, None, None, None, report,
        )  # fmt: skip
    threshold = pol.check_threshold(threshold)
    x_dates = _dates_to_numbers(frame, names["x"], function)
    # validation only: clear errors for text, booleans, dates, inf, all-missing, constants
    xlab = names["x"] or "x"
    ylab = names["y"] if names["y"] and names["y"] != xlab else f"{names['y'] or 'y'} (y)"
    clean_numeric(pd.DataFrame({xlab: frame["x"], ylab: frame["y"]}))
    xs = pd.to_numeric(frame["x"], errors="coerce").to_numpy(dtype=float)
    ys = pd.to_numeric(frame["y"], errors="coerce").to_numpy(dtype=float)
    keep = ~(np.isnan(xs) | np.isnan(ys))
    roles = [r for r in ("hue", "style", "size") if r in frame]
    orders = {"hue": hue_order, "style": style_order, "size": size_order}
    levels: dict[str, list[Any]] = {}
    for r in roles:
        keep &= frame[r].notna().to_numpy()
        levels[r] = categorical_order(frame.loc[keep, r], orders[r])
        keep &= frame[r].isin(levels[r]).to_numpy()
    n_dropped = int((~keep).sum())
    if not keep.any():
        raise ValueError(
            f"{function}: no complete records to plot (every row has a missing value)."
        )
    xv, yv = xs[keep], ys[keep]
    # one group per line: a combination of hue, style and size levels; roles given the same
    # variable (and wide form's columns, both hue and style) group once
    line_roles: list[str] = []
    alias: dict[str, str] = {}
    for r in roles:
        alias[r] = next((q for q in line_roles if frame[q].equals(frame[r])), r)
        if alias[r] == r:
            line_roles.append(r)
    codes = np.zeros(xv.size, dtype=np.intp)
    if line_roles:
        parts = [frame.loc[keep, r].to_numpy(dtype=object) for r in line_roles]
        keys = list(zip(*parts, strict=True))
        present = set(keys)
        combos = [c for c in _product([levels[r] for r in line_roles]) if c in present]
        labels = [c[0] if len(c) == 1 else " / ".join(map(str, c)) for c in combos]
        lookup = dict(zip(combos, range(len(combos)), strict=True))
        codes = np.array([lookup[c] for c in keys], dtype=np.intp)
        title = " / ".join(names.get(r) or r for r in line_roles)
        group = pd.Series(np.array(labels, dtype=object)[codes], name=title)
        group_order: list[Any] | None = labels
        by_label = dict(zip(labels, combos, strict=True))
    else:
        group, group_order, by_label = None, None, {}
    rare_x = rare_values(xv, threshold)
    # records whose point (x value and line) holds fewer than threshold records
    _, point_of, point_size = np.unique(
        np.c_[xv, codes], axis=0, return_inverse=True, return_counts=True
    )
    bin_width = None
    if (point_size[point_of.ravel()] < threshold).mean() > BIN_SHARE:
        edges = safe_edges(xv, "auto", avoid=rare_x)
        # the rule counts the records of every line together; a line holding few of them
        # (a wide table of 12 rows, one column per line) needs bins it can fill: at most
        # as many as a typical line holds threshold records for
        fill = int(np.median(np.bincount(codes)) // threshold)
        if 1 <= fill < edges.size - 1:
            edges = safe_edges(xv, fill, avoid=rare_x)
        bin_width = float(edges[1] - edges[0])
        centres = edges[:-1] + bin_width / 2
        idx = np.clip(np.searchsorted(edges, xv, side="right") - 1, 0, centres.size - 1)
        pos = centres[idx]
    else:
        pos = xv
    positions = np.unique(pos)
    if m.uses_k:
        k = pol.check_k(k, xv.size)
    if m.moves_values and m.groups_within_strata:
        # values are anonymised within each point's records: a drawn point needs enough
        # records for the method's groups, and smaller ones are left out like rare ones
        threshold = max(threshold, m.group_floor(pol, k)[0])
    try:
        bar = release_barplot(
            None,
            x=pd.Series(pos, name=names["x"] or "x"),
            y=pd.Series(yv, name=names["y"] or "y"),
            hue=group,
            order=positions.tolist(),
            hue_order=group_order,
            estimator=estimator,
            errorbar=errorbar if err[0] is None else err,
            n_boot=n_boot,
            seed=seed,
            orient="x",
            method=m.name,
            threshold=threshold,
            k=k,
            q=q,
            policy=pol,
            function=function,
        )
    except DisclosureError as error:
        if x is not None or y is not None or "every group" not in str(error):
            raise
        raise DisclosureError(
            f"{function}: wide-form data draw one line per column through its values at "
            f"each index value (or bin of them), and every line has fewer than {threshold} "
            "records at each, so each point would show one record or two. Give long-form "
            "data with x= and y= "
            f"so that each point averages at least {threshold} records (for a frame made "
            "with DataFrame.pivot, plot the frame before pivoting: "
            "lineplot(data=long_df, x=..., y=...))."
        ) from error
    drawn_x = np.array([float(c) for c, _ in bar.groups])
    has_err = bar.lower is not None
    point_roles: dict[str, list[Any] | None] = {"hue": None, "style": None, "size": None}
    for j, r in enumerate(line_roles):
        point_roles[r] = [by_label[g][j] for _, g in bar.groups]
    for r in roles:
        point_roles[r] = point_roles[alias[r]]
    drawn_levels = {
        r: (
            None
            if point_roles[r] is None
            else [lev for lev in levels[r] if any(v == lev for v in point_roles[r])]
        )
        for r in ("hue", "style", "size")
    }
    notes = []
    drawn_pos = np.unique(drawn_x)
    left_out = positions.size - drawn_pos.size
    what = "x bin" if bin_width is not None else "x value"
    # the figure's note says what was left out, not how many: a count drawn in the figure
    # could equal a raw value; the report keeps the counts
    counted = []
    if left_out:
        notes.append(f"{what}s with too few records left out")
        counted.append(f"{left_out} {what}(s) with fewer than {threshold} records left out")
    if line_roles:
        # points of single lines left out at x values that are drawn for other lines
        pairs = np.unique(np.c_[pos, codes], axis=0)
        partial = int(np.isin(pairs[:, 0], drawn_pos).sum()) - len(bar.groups)
        if partial:
            notes.append("points of single lines with too few records left out")
            counted.append(
                f"{partial} point(s) of single lines with fewer than {threshold} records left out"
            )
    if bin_width is not None:
        notes.append("x binned on a regular grid (too few records per x value)")
        step = f"{bin_width:g} days" if x_dates else f"{bin_width:g}"
        counted.append(f"x binned in steps of {step} (too few records per x value)")
    report = bar.report
    report.details["x_bin_width"] = bin_width
    report.details["x_left_out"] = int(left_out)
    if n_dropped:
        report.n_dropped = pol.round_count(n_dropped)
        report.warnings.append(
            f"{pol.describe_count(n_dropped)} rows with missing values were dropped."
        )
    # the notes say what the bar release's count of suppressed groups said, per x value
    report.warnings[:] = [w for w in report.warnings if "group(s) with fewer than" not in w]
    report.warnings.extend(f"{n}." for n in counted)
    numbers = bar.estimates
    if has_err:
        numbers = np.r_[
            numbers, bar.lower[np.isfinite(bar.lower)], bar.upper[np.isfinite(bar.upper)]
        ]
    ylim, yticks = axis_from_range(
        float(numbers.min()), float(numbers.max()), rare_values(yv, threshold)
    )
    xlim, xticks = axis_from_range(float(drawn_x.min()), float(drawn_x.max()), rare_x)
    if x_dates:
        xticks = date_ticks(*xlim)
    return LineRelease(
        m.name,
        drawn_x,
        bar.estimates,
        bar.lower,
        bar.upper,
        point_roles["hue"],
        point_roles["style"],
        drawn_levels["hue"],
        drawn_levels["style"],
        {r: names.get(r, "") for r in ("x", "y", "hue", "style", "size")},
        xlim,
        ylim,
        xticks,
        yticks,
        report,
        hue_positions=None
        if drawn_levels["hue"] is None
        else [levels["hue"].index(lev) for lev in drawn_levels["hue"]],
        n_hue=len(levels["hue"]) if "hue" in levels else None,
        bin_width=bin_width,
        notes=notes,
        size=point_roles["size"],
        size_levels=drawn_levels["size"],
        size_positions=None
        if drawn_levels["size"] is None
        else [levels["size"].index(lev) for lev in drawn_levels["size"]],
        n_size=len(levels["size"]) if "size" in levels else None,
        size_numeric="size" in frame
        and variable_type(frame["size"], boolean_type="categorical") == "numeric",
        x_dates=x_dates,
    )


def date_ticks(lo: float, hi: float) -> np.ndarray:
    """Ticks of a date axis with limits [lo, hi]: matplotlib's AutoDateLocator's, inside them.

    They depend only on the (released) limits, as :func:`safe_ticks` does.

    Parameters
    ----------
    lo, hi : float
        The limits, in matplotlib date numbers.

    Returns
    -------
    ndarray
        The ticks, in matplotlib date numbers.

    Examples
    --------
    >>> lo, hi = mdates.date2num(np.array(["2016-01-01", "2016-12-31"], dtype="datetime64[D]"))
    >>> [str(mdates.num2date(t).date()) for t in date_ticks(lo, hi)][:3]
    ['2016-01-01', '2016-02-01', '2016-03-01']
    """
    locator = mdates.AutoDateLocator()
    ticks = np.asarray(locator.tick_values(mdates.num2date(lo), mdates.num2date(hi)), dtype=float)
    return ticks[(ticks >= lo) & (ticks <= hi)]


def _product(lists: list[list[Any]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = [()]
    for lst in lists:
        out = [(*c, v) for c in out for v in lst]
    return out


# -- the public function -------------------------------------------------------------------


@takes_method_options
def lineplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    size: Any = None,
    style: Any = None,
    units: Any = None,
    weights: Any = None,
    palette: Any = None,
    hue_order: Sequence[Any] | None = None,
    hue_norm: Any = None,
    sizes: Any = None,
    size_order: Sequence[Any] | None = None,
    size_norm: Any = None,
    dashes: Any = True,
    markers: Any = None,
    style_order: Sequence[Any] | None = None,
    estimator: str | Callable[..., float] | None = "mean",
    errorbar: Any = ("ci", 95),
    n_boot: int = 1000,
    seed: Any = None,
    orient: str = "x",
    sort: bool = True,
    err_style: str = "band",
    err_kws: dict[str, Any] | None = None,
    legend: str | bool = "auto",
    ci: Any = "deprecated",
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
    """Draw the estimate of y per x value as lines, over enough records and rounded.

    The arguments are those of :func:`seaborn.lineplot` (0.13.2), plus the
    disclosure-control parameters. The estimates and bands are released
    first (:func:`release_lineplot`) and seaborn draws only them.

    Parameters
    ----------
    data : DataFrame, mapping, array or None
        Long-form data with the variables named by `x`, `y`, `hue`, `style`,
        `size`, or wide-form data (no `x`/`y`): one line per numeric column,
        drawn against the index (numbers or dates, binned like any
        continuous x).
    x, y : name of a column in `data`, or a vector
        The x variable (numbers, or naive dates and times, drawn on a date
        axis) and the numeric variable estimated per x value.
    hue, style : name or vector, optional
        Lines per level, told apart by colour and by dashes/markers. A
        numeric hue is drawn as categories (one line per level).
    size : name or vector, optional
        Lines per level, told apart by line width: categorical levels get
        evenly spaced widths (the first widest), numeric levels widths
        normalised over the levels drawn.
    sizes : tuple, list or dict, optional
        Line widths: a ``(min, max)`` range (default 0.5 to 2 times
        ``lines.linewidth``), one width per level, or level -> width.
    size_order : list, optional
        Order of the size levels; records of other levels are left out.
    size_norm : tuple or Normalize, optional
        Normalisation of a numeric size (makes the size numeric).
    hue_norm
        Unused (hue is drawn as categories).
    units : None
        Refused with :class:`~safeplot.errors.DisclosureError`: it draws
        one line through each unit's records.
    weights : None
        Only with ``method="none"``.
    palette, dashes, markers, sort, err_style, err_kws, legend
        Appearance, as in seaborn.
    hue_order, style_order : list, optional
        Order of the levels; records of other levels are left out.
    estimator : {"mean", "median"}, default "mean"
        The estimate per x value. ``None`` (every record), callables and
        other names are refused with :class:`~safeplot.errors.DisclosureError`.
    errorbar : tuple or str or None, default ("ci", 95)
        The band, from a fixed menu (:data:`ERRORBAR_MENU`): ``("ci", 90 |
        95 | 99)``, ``("pi", 50 | 90 | 95)``, ``("se", 1 | 2)``, ``("sd", 1 |
        2)``, a bare name for seaborn's default level, or None.
    n_boot, seed
        Bootstrap of ``"ci"`` bands.
    orient : "x"
        Only ``"x"`` (the estimate of y per x value).
    ci : deprecated
        seaborn's deprecated spelling of `errorbar`; refused with advice.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (see Notes); default the policy's method
        for binned plots, ``"suppress"``.
    threshold : int, optional
        Fewest records behind a drawn point (default and floor: the policy's).
    k, q, algorithm, discretizer
        Parameters of ``"deterministic"``/``"microaggregation"``,
        ``"probabilistic"``, ``"microaggregation"`` and ``"rounding"``.
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
        ``estimator=None``, a callable or other estimator, ``units=``, no x
        value with enough records, a parameter below a policy floor.
    ValueError
        An error bar off the menu, ``orient="y"``, timezone-aware dates, bad
        variables.

    See Also
    --------
    pointplot : Estimates per category, joined.
    barplot : Estimates per category as bars.
    seaborn.lineplot : The raw-data function this mirrors.

    Notes
    -----
    x values. A point is drawn for each x value and line whose records
    number at least `threshold`; the others are left out, and a note under
    the x-axis (and the report) says how many. A continuous x, on which more
    than half of the records sit at values held by fewer than `threshold`
    records, is first cut into the bins :func:`histplot` would use (numpy's
    ``"auto"`` rule on a rounded grid whose edges and centres are no rare
    value): each bin is drawn at its centre and the note gives the bin
    width. A discrete x (doses, years, visits) is drawn at its own values.
    Dates are released as matplotlib date numbers in the same way (bin
    widths in days) and drawn on matplotlib's automatic date axis, whose
    ticks depend only on the released limits.

    Lines. A line is a combination of hue, style and size levels; a size
    legend shows every drawn level, or, when brief, a locator's round
    numbers between the smallest and largest numeric level drawn.

    Methods. Estimates and band ends are released as
    :func:`barplot` releases a group's (the x value, or bin, is the
    group): rounded to the policy's significant figures and moved off rare
    raw values. ``"suppress"`` (default) computes them from the raw values
    of each point's records (``"pi"`` bands from values winsorised at
    mean +/- 2.6 SD); ``"confidential"`` from winsorised values;
    ``"deterministic"``, ``"probabilistic"``, ``"microaggregation"`` and
    ``"rounding"`` from values anonymised within each point's records.
    ``"none"`` draws seaborn's raw line plot where the policy allows.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> fig, ax = plt.subplots()
    >>> ax = lineplot(tips, x="size", y="tip", hue="time", errorbar=("se", 1), ax=ax)
    >>> ax.safeplot_report.method
    'suppress'
    >>> plt.close(fig)
    """
    pol = get_policy()
    if not (isinstance(ci, str) and ci == "deprecated"):
        raise ValueError(
            f"lineplot: ci= is seaborn's deprecated spelling of errorbar; give errorbar=('ci', "
            f"{ci}) (or errorbar=None) instead."
        )
    rel = release_lineplot(
        data,
        x=x,
        y=y,
        hue=hue,
        style=style,
        size=size,
        units=units,
        weights=weights,
        hue_order=hue_order,
        style_order=style_order,
        size_order=size_order,
        estimator=estimator,
        errorbar=errorbar,
        n_boot=n_boot,
        seed=seed,
        orient=orient,
        method=method,
        threshold=threshold,
        k=k,
        q=q,
        policy=pol,
    )
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    look = dict(
        palette=palette,
        dashes=dashes,
        markers=markers,
        sort=sort,
        err_style=err_style,
        err_kws=err_kws,
        legend=legend,
    )
    if get_method(rel.method).raw:
        import seaborn as sns

        with quiet_seaborn():
            sns.lineplot(
                data,
                x=x,
                y=y,
                hue=hue,
                size=size,
                style=style,
                units=units,
                weights=weights,
                hue_order=hue_order,
                hue_norm=hue_norm,
                sizes=sizes,
                size_order=size_order,
                size_norm=size_norm,
                style_order=style_order,
                estimator=estimator,
                errorbar=errorbar,
                n_boot=n_boot,
                seed=seed,
                orient=orient,
                ax=ax,
                **look,
                **kwargs,
            )
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    draw_estimate_lines(
        ax,
        rel,
        sizes=sizes,
        size_norm=size_norm,
        legend_entries=brief_legend_entries,
        **look,
        **kwargs,
    )
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel)
