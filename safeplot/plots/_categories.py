"""What the categorical plots share: layout of the inputs, categories, log axes, palettes.

:func:`resolve` turns seaborn-style arguments (``data``, ``x``, ``y``,
``hue``, ``order``, ``hue_order``, ``orient``) into a :class:`Layout` (names,
levels and types only) and the raw :class:`Rows`; the box, count and bar
plots and the ECDF build their releases from these. The other helpers place
log value axes and numeric category axes on safe ticks, merge small
categories, round counts and keep the hue colours stable when levels are
left out.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .._validate import clean_numeric
from ..anonymize.boxes import BoxSummary
from ..anonymize.grids import hits_any, rare_values, safe_ticks
from ..marks._style import variable_type
from ..policy import Policy
from ..release import guard
from ._common import safe_limits, set_safe_axis
from ._data import categorical_order, plot_data, wide_to_long

__all__ = [
    "Layout",
    "Rows",
    "hue_dtype",
    "index_of",
    "infer_orient",
    "is_numeric",
    "log_axes",
    "log_axis",
    "log_base",
    "merge_small",
    "orient_axis",
    "rare_categories",
    "refuse_native_other",
    "released_box",
    "released_parallel",
    "resolve",
    "round_counts",
    "safe_category_axis",
    "stable_palette",
]


# -- orientation -------------------------------------------------------------------------


def orient_axis(orient: str | None) -> str | None:
    """Return the category axis named by seaborn's `orient` ("x", "y"), or None if not given.

    Parameters
    ----------
    orient : {"v", "h", "x", "y"} or None
        seaborn's orientation: "v..." and "x" put the categories on x.

    Returns
    -------
    str or None

    Raises
    ------
    ValueError
        For any other value.

    Examples
    --------
    >>> orient_axis("h"), orient_axis("x"), orient_axis(None)
    ('y', 'x', None)
    """
    if orient is None:
        return None
    text = str(orient)
    if text == "x" or text.startswith("v"):
        return "x"
    if text == "y" or text.startswith("h"):
        return "y"
    raise ValueError(
        f"`orient` must start with 'v' or 'h' or be 'x', 'y' or None, but {orient!r} was passed."
    )


def infer_orient(x: Any, y: Any, orient: str | None = None) -> str:
    """Return the category axis of a box or bar plot of `x` and `y`, as seaborn picks it.

    A given `orient` decides. Otherwise, from the variables' types: a
    categorical `y` beside a non-categorical `x` puts the categories on y,
    as does a numeric `x` beside a non-numeric `y`; a numeric `y` beside a
    non-numeric `x`, and every other case, puts them on x (vertical boxes).

    Parameters
    ----------
    x, y : vector
        The two variables.
    orient : {"v", "h", "x", "y"}, optional
        seaborn's orientation.

    Returns
    -------
    {"x", "y"}

    Examples
    --------
    >>> import pandas as pd
    >>> infer_orient(pd.Series([1.5, 2.0]), pd.Series(["a", "b"]))
    'y'
    >>> infer_orient(pd.Series(["a", "b"]), pd.Series([1.5, 2.0]))
    'x'
    """
    given = orient_axis(orient)
    if given is not None:
        return given
    x_type, y_type = variable_type(x), variable_type(y)
    if x_type != "categorical" and y_type == "categorical":
        return "y"
    if x_type != "numeric" and y_type == "numeric":
        return "x"
    if x_type == "numeric" and y_type != "numeric":
        return "y"
    return "x"


# -- layout and records ------------------------------------------------------------------


@dataclass
class Layout:
    """How a categorical plot is laid out: no data values, only names, levels and types."""

    function: str
    orient: str  # axis of the categories: "x" (vertical boxes/bars) or "y"
    wide: bool
    has_cat: bool  # False: one box/bar per hue level at an anonymous position
    levels: list[Any]
    hue_levels: list[Any] | None
    cat_name: str | None
    value_name: str | None
    hue_name: str | None
    cat_dtype: Any = None
    hue_dtype: Any = None
    cat_numeric: bool = False

    @property
    def value_axis(self) -> str:
        """The axis showing values or counts."""
        return "y" if self.orient == "x" else "x"

    @property
    def n_hue(self) -> int:
        return 1 if self.hue_levels is None else len(self.hue_levels)

    def describe(self, i: int, j: int) -> str:
        """Name the group of category `i` and hue level `j`, e.g. ``day='Fri', sex='Male'``."""
        parts = []
        if self.has_cat:
            level = self.levels[i]
            parts.append(
                f"column {level!r}" if self.wide else f"{self.cat_name or self.orient}={level!r}"
            )
        if self.hue_levels is not None:
            parts.append(f"{self.hue_name or 'hue'}={self.hue_levels[j]!r}")
        return ", ".join(parts) or "the data"


@dataclass
class Rows:
    """The raw records of a categorical plot (never stored on a release)."""

    cat: np.ndarray  # index into layout.levels
    hue: np.ndarray  # index into layout.hue_levels (0 without hue)
    values: np.ndarray | None  # numeric variable (box plots)
    n_dropped: int
    all_values: np.ndarray | None = None  # every non-missing value, plotted or not
    full_cat: pd.Series | None = None  # the category column, for rare numeric categories
    record: np.ndarray | None = None  # wide form: the row of the data each value comes from
    # with hue: the category of each record drawn without its hue (missing, or left out of
    # hue_order); a figure without hue counts them, so a table's secondary suppression must
    undrawn_cat: np.ndarray | None = None
    # long form: which rows of the data were kept, dropped as missing, or drawn without hue
    # (boolean, one per row), so that the records of facets can be told apart
    kept_rows: np.ndarray | None = None
    missing_rows: np.ndarray | None = None
    undrawn_rows: np.ndarray | None = None


def _name_of(value: Any) -> str | None:
    """Return the label seaborn shows for a variable: a column name or a vector's name."""
    if value is None:
        return None
    if isinstance(value, (pd.Series, pd.Index)):
        return None if value.name is None else str(value.name)
    if isinstance(value, (np.ndarray, list, tuple)):
        return None
    return str(value) if isinstance(value, Hashable) else None


def _original(data: Any, value: Any, fallback: pd.Series) -> pd.Series:
    """Return the variable as given, keeping its dtype (a categorical's order of categories)."""
    if isinstance(value, pd.Series):
        series = value
    elif isinstance(value, pd.Index):
        series = value.to_series()
    elif (
        isinstance(data, pd.DataFrame)
        and isinstance(value, Hashable)
        and not isinstance(value, tuple)
        and value in data.columns
    ):
        series = data[value]
    else:
        return fallback
    return series.reset_index(drop=True).rename(fallback.name)


def hue_dtype(lay: Layout) -> Any:
    """Return the dtype to hand seaborn a released hue in.

    A categorical hue goes as plain objects (its order is passed as
    ``hue_order``): seaborn 0.13 compares hue and category columns, which
    pandas refuses for two categoricals with different categories.
    """
    return object if isinstance(lay.hue_dtype, pd.CategoricalDtype) else lay.hue_dtype


def is_numeric(series: pd.Series) -> bool:
    """Return whether `series` holds numbers (not booleans, not a pandas categorical)."""
    dtype = series.dtype
    return (
        pd.api.types.is_numeric_dtype(dtype)
        and not pd.api.types.is_bool_dtype(dtype)
        and not isinstance(dtype, pd.CategoricalDtype)
    )


def index_of(values: pd.Series, levels: list[Any]) -> np.ndarray:
    """Position of each value in `levels`, -1 for values not in it (NaN included)."""
    index = pd.Index(levels, dtype=object)
    if not index.is_unique:
        raise ValueError(f"The order of levels lists a level twice: {list(levels)!r}.")
    try:
        return index.get_indexer(pd.Index(values.to_numpy(dtype=object), dtype=object))
    except TypeError:  # unhashable category values
        raise ValueError("Category values must be hashable (text, numbers).") from None


def resolve(
    function: str,
    data: Any,
    x: Any,
    y: Any,
    hue: Any,
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    orient: str | None,
    *,
    numeric: bool,
) -> tuple[Layout, Rows]:
    """Resolve seaborn-style inputs into a layout and the raw records.

    `numeric` says whether the plot needs a numeric variable (box plots) or
    only categories (count plots).
    """
    given = orient_axis(orient)
    cat = value = hue_s = None
    cat_name = value_name = hue_name = None
    wide = False
    wide_record: np.ndarray | None = None
    has_cat = True
    if x is None and y is None:
        if data is None:
            raise ValueError(
                f"{function}: nothing to plot. Give data= with x= and/or y= naming columns, or a "
                "wide-form table of numeric columns."
            )
        if hue is not None:
            raise ValueError(
                f"{function}: hue= cannot be used with wide-form data (no x= or y=). Pass "
                "long-form data and name the variables with x=, y= and hue=."
            )
        long = wide_to_long(data, function=function)
        cat, value = long.frame["variable"], long.frame["value"]
        wide = True
        # the columns are stacked one after another: value i is from row i % (rows per column)
        wide_record = np.arange(len(value)) % max(1, len(value) // len(cat.cat.categories))
        axis = given or "x"
    else:
        pdata = plot_data(data, {"x": x, "y": y, "hue": hue}, function=function)
        frame = pdata.frame
        for role, given_value in (("x", x), ("y", y), ("hue", hue)):
            if role in frame:
                frame[role] = _original(data, given_value, frame[role])
        hue_s = frame.get("hue")
        hue_name = _name_of(hue)
        if x is not None and y is not None:
            if not numeric:
                raise ValueError(
                    f"{function}: cannot pass values for both `x` and `y`; a count plot counts "
                    "one categorical variable (give x= for vertical bars, y= for horizontal)."
                )
            axis = infer_orient(frame["x"], frame["y"], orient)
            value_role = "y" if axis == "x" else "x"
            cat, value = frame[axis], frame[value_role]
            cat_name, value_name = (
                _name_of(x if axis == "x" else y),
                _name_of(y if axis == "x" else x),
            )
        else:
            role = "x" if x is not None else "y"
            if numeric:
                # one numeric variable: one box, across the other axis
                value, value_name = frame[role], _name_of(x if role == "x" else y)
                axis = "y" if role == "x" else "x"
                has_cat = False
            else:
                cat, cat_name = frame[role], _name_of(x if role == "x" else y)
                axis = role
    n_rows = len(cat) if cat is not None else len(value)
    levels: list[Any] = [""] if cat is None else categorical_order(cat, order)
    if cat is not None and order is None and not levels:
        raise ValueError(
            f"{function}: the category variable has no values (the data are empty or the "
            "values all missing)."
        )
    hue_levels = None if hue_s is None else categorical_order(hue_s, hue_order)
    cat_idx = np.zeros(n_rows, dtype=np.intp) if cat is None else index_of(cat, levels)
    hue_idx = np.zeros(n_rows, dtype=np.intp) if hue_s is None else index_of(hue_s, hue_levels)
    no_hue = np.zeros(n_rows, bool) if hue_s is None else hue_s.isna().to_numpy()
    missing = np.zeros(n_rows, bool) if cat is None else cat.isna().to_numpy(copy=True)
    values = None
    if wide and not numeric:  # a wide-form count is the number of values in each column
        missing |= value.isna().to_numpy()
    if numeric:
        col = value.reset_index(drop=True)
        # validation only: clear errors for text, booleans, dates, inf, all-missing, constant
        clean_numeric(pd.DataFrame({value_name or "values": col}))
        num = pd.to_numeric(col, errors="coerce").to_numpy(dtype=float)
        missing |= np.isnan(num)
        values = num
    undrawn_rows = None
    if hue_s is not None:
        undrawn_rows = ~missing & (cat_idx >= 0) & (no_hue | (hue_idx < 0))
    missing |= no_hue
    n_dropped = int(missing.sum())
    keep = ~missing & (cat_idx >= 0) & (hue_idx >= 0)
    if not keep.any():
        raise ValueError(
            f"{function}: no records to plot: every row has a missing value or a category "
            "outside `order`/`hue_order`. Check the variables and the orders given."
        )
    layout = Layout(
        function=function,
        orient=axis,
        wide=wide,
        has_cat=has_cat,
        levels=levels,
        hue_levels=hue_levels,
        cat_name=cat_name,
        value_name=value_name,
        hue_name=hue_name,
        cat_dtype=None if cat is None else cat.dtype,
        hue_dtype=None if hue_s is None else hue_s.dtype,
        cat_numeric=cat is not None and not wide and is_numeric(cat),
    )
    rows = Rows(
        cat=cat_idx[keep],
        hue=hue_idx[keep],
        values=None if values is None else values[keep],
        n_dropped=n_dropped,
        all_values=None if values is None else values[~np.isnan(values)],
        full_cat=None if cat is None else cat[~missing],
        record=None if wide_record is None else wide_record[keep],
        undrawn_cat=None if undrawn_rows is None else cat_idx[undrawn_rows],
        kept_rows=None if wide else keep,
        missing_rows=None if wide else missing,
        undrawn_rows=None if wide else undrawn_rows,
    )
    return layout, rows


# -- axes ----------------------------------------------------------------------------------


def refuse_native_other(native_scale: bool, other: Any, layout: Layout, function: str) -> None:
    """Refuse native_scale with generalize's merged 'Other' category on a numeric axis."""
    if native_scale and other is not None and layout.cat_numeric:
        raise ValueError(
            f"{function}: native_scale=True cannot place the merged 'Other' category of "
            "method='generalize' on the numeric axis. Use native_scale=False or "
            "method='suppress'."
        )


def log_axes(log_scale: Any, layout: Layout, native_scale: bool) -> tuple[Any, Any]:
    """Split seaborn's `log_scale` into (category axis, value axis) settings."""
    if log_scale is None or log_scale is False:
        return False, False
    if isinstance(log_scale, (tuple, list)):
        if len(log_scale) != 2:
            raise ValueError(f"log_scale must be a bool, a number or a pair, got {log_scale!r}.")
        x_log, y_log = log_scale
        cat_log, val_log = (x_log, y_log) if layout.orient == "x" else (y_log, x_log)
    else:
        val_log = log_scale
        cat_log = log_scale if (native_scale and layout.cat_numeric) else False
    if cat_log not in (None, False):
        raise ValueError(
            f"{layout.function}: a log scale on the category axis is not supported by safeplot "
            "(its ticks would be placed from the raw category values). Use native_scale=False, "
            "or log-transform the category variable."
        )
    return False, val_log


def log_base(val_log: Any) -> float | None:
    """Return the base of a log axis given as seaborn's `log_scale` (None: a linear axis)."""
    if val_log in (None, False):
        return None
    if val_log is True:
        return 10.0
    base = float(val_log)
    if not (base > 0 and base != 1 and math.isfinite(base)):
        raise ValueError(f"A log scale's base must be positive and not 1, got {val_log!r}.")
    return base


def log_axis(
    lo: float, hi: float, avoid: np.ndarray, base: float
) -> tuple[tuple[float, float], np.ndarray]:
    """Limits and ticks of a log value axis: powers of the base (or 2x, 5x, 3x them).

    The limits are padded and kept off the rare values in `avoid`; the ticks
    depend on the limits alone, as a log locator's. When fewer than two such
    ticks fit (a range of about a decade), the ticks are the linear safe ticks
    of the limits.
    """
    span = math.log(hi / lo, base) if hi > lo else 1.0
    lim = [lo * base ** (-0.05 * span), hi * base ** (0.05 * span)]
    for i, sign in ((0, -1.0), (1, 1.0)):
        while hits_any([lim[i]], avoid):
            lim[i] *= base ** (sign * 1e-6 * span)
    k0, k1 = math.floor(math.log(lim[0], base)), math.ceil(math.log(lim[1], base))
    powers = np.array([base**k for k in range(k0, k1 + 1)], dtype=float)
    for mult in (1.0, 2.0, 5.0, 3.0):
        ticks = mult * powers
        ticks = ticks[(ticks >= lim[0]) & (ticks <= lim[1])]
        if ticks.size >= 2:
            return (float(lim[0]), float(lim[1])), ticks
    return (float(lim[0]), float(lim[1])), safe_ticks(lim[0], lim[1])


def safe_category_axis(ax: Axes, lay: Layout, rare_cats: np.ndarray) -> None:
    """Fix the numeric category axis of a native-scale plot to safe limits and ticks."""
    current = ax.get_xlim() if lay.orient == "x" else ax.get_ylim()
    lo, hi = sorted(current)
    lim = safe_limits(lo, hi, rare_cats, margin=0.0)
    ticks = safe_ticks(lim[0], lim[1])
    set_safe_axis(ax, lay.orient, lim if current[0] <= current[1] else lim[::-1], ticks)


def rare_categories(rows: Rows, threshold: int) -> np.ndarray:
    """Return the values of a numeric category variable held by fewer than `threshold` rows."""
    if rows.full_cat is None or not is_numeric(rows.full_cat):
        return np.array([])
    return rare_values(pd.to_numeric(rows.full_cat).to_numpy(dtype=float), threshold)


# -- counts and colours -------------------------------------------------------------------


def round_counts(counts: np.ndarray, base: int, threshold: int) -> np.ndarray:
    """Round shown counts to the nearest multiple of `base`, never below `threshold`.

    Halves round up (12.5 -> 15 for base 5), as the policy's record counts do.
    A count that would round below the threshold takes the smallest multiple
    of `base` at or above it, so no drawn count lies in ``(0, threshold)``.
    """
    c = np.asarray(counts, dtype=float)
    out = np.floor(c / base + 0.5) * base
    floor = math.ceil(threshold / base) * base
    shown = np.isfinite(c) & (c > 0)
    out[shown] = np.maximum(out[shown], floor)
    out[~np.isfinite(c)] = np.nan
    out[c == 0] = 0.0
    return out


#: Which way each of a box's five numbers moves off a rare raw value: outward.
BOX_DIRECTIONS = (-1.0, -1.0, 1.0, 1.0, 1.0)


def released_box(
    box: BoxSummary, avoid: ArrayLike, policy: Policy, sig: int | None = None
) -> BoxSummary:
    """Return `box` with its numbers passed through the guard on their way to a release.

    The whisker ends, quartiles and median are statistics of the box's
    records: :func:`~safeplot.release.guard.released_statistics` rounds them
    to the policy's significant figures and moves one that equals a rare raw
    value outward by one unit in its last figure. Outliers drawn at the
    centres of grid cells are not data (DESIGN invariant 2) and stay as
    they are. The counts the summary carries leave as a report gives them:
    the records behind the box rounded by the policy (``round_n_to``), and
    whether any value was winsorised (1) or not (0), not how many: a
    release is plain data that may be written out (JSON) and read by
    anyone who reads the figure.

    Parameters
    ----------
    box : BoxSummary
        The box's summary, as :mod:`safeplot.anonymize.boxes` computes it.
    avoid : array-like
        The rare raw values none of the five numbers may equal.
    policy : Policy
        The policy in force.
    sig : int, optional
        Significant figures the box was rounded to (default: the policy's).

    Returns
    -------
    BoxSummary
    """
    five = guard.released_statistics(
        box.stats, avoid, sig=sig, directions=BOX_DIRECTIONS, policy=policy
    )
    return replace(
        box,
        whislo=float(five[0]),
        q1=float(five[1]),
        med=float(five[2]),
        q3=float(five[3]),
        whishi=float(five[4]),
        n=_rounded_count(box.n, policy),
        n_winsorized=int(box.n_winsorized > 0),
    )


def _rounded_count(n: int, policy: Policy) -> int:
    """Return the policy's rounded count as a number (0 for a count below the threshold)."""
    rounded = policy.round_count(n)
    return rounded if isinstance(rounded, int) else 0


def released_parallel(
    parallel: Sequence[Any], avoid: ArrayLike, policy: Policy, sig: int | None = None
) -> list[Any]:
    """Return parallel boxes (:class:`~safeplot.anonymize.ParallelBoxes`) as released.

    Each box passes :func:`released_box`, and the count of winsorised values
    of a level becomes a flag, as in a single box.
    """
    return [
        replace(
            pb,
            boxes=tuple(released_box(b, avoid, policy, sig) for b in pb.boxes),
            n_winsorized=int(pb.n_winsorized > 0),
        )
        for pb in parallel
    ]


def merge_small(table: np.ndarray, threshold: int) -> np.ndarray:
    """Categories (rows) to merge into "Other" under ``"generalize"``; a boolean mask.

    Every row with a count in ``(0, threshold)`` is merged. While the merged
    row still has a count in ``(0, threshold)`` -- which would have to be
    suppressed, and with exactly one category merged, the category's count
    could be worked out -- the smallest remaining non-empty row is merged as
    well (secondary generalisation).
    """
    small = ((table > 0) & (table < threshold)).any(axis=1)
    if not small.any():
        return small
    merged = small.copy()
    while True:
        other = table[merged].sum(axis=0)
        if not ((other > 0) & (other < threshold)).any():
            break
        totals = np.where(merged | (table.sum(axis=1) == 0), np.inf, table.sum(axis=1))
        if not np.isfinite(totals).any():
            break  # everything merged: the rest is suppressed
        merged[int(np.argmin(totals))] = True
    return merged


def stable_palette(rel: Any, style: dict[str, Any]) -> Any:
    """Give each hue level the colour it would have had with no level left out.

    A hue level whose every bar is suppressed is left out of the legend; without
    this, the remaining levels would shift to other colours, and the same level
    would change colour between the methods of one figure.

    Parameters
    ----------
    rel : release
        Has ``layout`` (a :class:`Layout`) and ``hue_levels`` (the levels
        shown, or None).
    style : dict
        The seaborn styling arguments (``palette``, ``hue_norm``, ``color``).

    Returns
    -------
    palette
        The palette to hand seaborn: a mapping of level to colour where
        levels were left out, else the palette given.
    """
    palette = style.get("palette")
    lay = rel.layout
    if (
        rel.hue_levels is None
        or len(rel.hue_levels) == len(lay.hue_levels)
        or style.get("hue_norm") is not None
        or style.get("color") is not None
        or not (palette is None or isinstance(palette, (str, list, tuple)))
    ):
        return palette
    from seaborn import color_palette
    from seaborn.palettes import get_color_cycle

    n = len(lay.hue_levels)
    if palette is None:
        palette = None if n <= len(get_color_cycle()) else "husl"
    colours = color_palette(palette, n)
    return dict(zip(lay.hue_levels, colours, strict=True))
