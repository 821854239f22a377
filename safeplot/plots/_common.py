"""Pieces every plot family shares: safe axes, reports, and attaching releases to an Axes."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator

from .. import audit
from ..anonymize.grids import hits_any, safe_ticks
from ..policy import Policy
from ..release import DisclosureReport

__all__ = [
    "attach_release",
    "axis_from_range",
    "check_positive_int",
    "finite_range",
    "make_report",
    "not_available",
    "safe_limits",
    "set_safe_axis",
]

#: Methods whose release is not implemented for a plot yet get this message.
NOT_AVAILABLE = (
    "method={method!r} is not available for {what} in this version of safeplot; "
    "use one of {available}."
)


def not_available(method: str, what: str, available: tuple[str, ...]) -> ValueError:
    """Return the error for a known method a plot does not support (yet)."""
    return ValueError(NOT_AVAILABLE.format(method=method, what=what, available=list(available)))


def safe_limits(
    lo: float, hi: float, avoid: np.ndarray, margin: float = 0.05
) -> tuple[float, float]:
    """Axis limits around released values [lo, hi], padded, equal to no value in `avoid`.

    The padding is `margin` of the range on each side (matplotlib's default);
    a limit that would equal a rare raw value is nudged outward by a further
    1e-6 of the range.
    """
    span = hi - lo if hi > lo else max(abs(lo), 1.0)
    limits = [lo - margin * span, hi + margin * span]
    avoid = np.sort(np.asarray(avoid, dtype=float))
    for i, sign in ((0, -1.0), (1, 1.0)):
        while hits_any([limits[i]], avoid):
            limits[i] += sign * 1e-6 * span
    return float(limits[0]), float(limits[1])


def axis_from_range(
    lo: float, hi: float, avoid: np.ndarray
) -> tuple[tuple[float, float], np.ndarray]:
    """Return padded safe limits and ticks for released values spanning [lo, hi]."""
    lim = safe_limits(lo, hi, avoid)
    return lim, safe_ticks(lim[0], lim[1], avoid=avoid)


def set_safe_axis(ax: Axes, which: str, lim: tuple[float, float], ticks: np.ndarray) -> None:
    """Fix an axis' limits and ticks to released values, so matplotlib computes none from data."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xlim if which == "x" else ax.set_ylim)(*lim)
    axis.set_major_locator(FixedLocator(np.asarray(ticks, dtype=float)))


def make_report(
    function: str,
    method: str,
    params: dict[str, Any],
    variables: tuple[str, ...],
    n: int,
    n_dropped: int,
    policy: Policy,
    *,
    cells_suppressed: int = 0,
    details: dict[str, Any] | None = None,
    warnings: list[str] | None = None,
) -> DisclosureReport:
    """Build a report with the record counts rounded by the policy."""
    warnings = list(warnings or [])
    if n_dropped:
        warnings.append(
            f"{policy.describe_count(n_dropped)} rows with missing values were dropped."
        )
    if method == "none":
        warnings.append("Raw output: no disclosure control was applied (policy allows raw).")
    return DisclosureReport(
        function=function,
        method=method,
        params=params,
        variables=variables,
        n=policy.round_count(n),
        n_dropped=policy.round_count(n_dropped),
        cells_suppressed=int(cells_suppressed),
        warnings=warnings,
        details=dict(details or {}),
        policy=policy.source,
    )


def attach_release(ax: Axes, report: DisclosureReport) -> None:
    """Record the release on the Axes (``ax.safeplot_report``) and in the audit log.

    A second release drawn on the same Axes is merged into its report.
    """
    previous = getattr(ax, "safeplot_report", None)
    ax.safeplot_report = report if previous is None else previous.merge(report)
    audit.record(report, figure=_figure_label(ax))


def _figure_label(ax: Axes) -> str:
    fig = ax.get_figure()
    label = fig.get_label() if fig is not None else ""
    return label or f"figure-{id(fig):x}"


def finite_range(values: np.ndarray) -> tuple[float, float]:
    """Min and max of finite values, as floats."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return float(v.min()), float(v.max())


def check_positive_int(name: str, value: Any) -> int:
    """Validate a positive integer parameter such as ``bins`` or ``factor``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}.")
    return int(value)
