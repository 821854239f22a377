"""Pieces every plot family shares: safe axes, reports, and attaching releases to an Axes."""

from __future__ import annotations

import contextlib
import functools
import inspect
import math
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
from matplotlib.axes import Axes

from .. import audit
from ..anonymize.grids import MATCH_RTOL, as_sorted, hit_mask, hits_any, safe_ticks
from ..errors import DisclosureError
from ..marks._axes import note_below, quiet_seaborn, remove_footnote, set_safe_axis
from ..methods import Method, get_method, method_options
from ..policy import Policy
from ..release import DisclosureReport, guard
from ..release.guard import LEFT_OUT_NOTE

__all__ = [
    "FOOTNOTE_GID",
    "LEFT_OUT_FIGURE_GID",
    "LEFT_OUT_NOTE",
    "all_or_nothing",
    "attach_release",
    "axes_for",
    "axis_from_range",
    "check_methods",
    "check_positive_int",
    "figure_note",
    "finish",
    "finite_range",
    "get_ax",
    "make_report",
    "method_note",
    "not_available",
    "nothing_shown",
    "quiet_seaborn",
    "refuse_if_nothing_shown",
    "resolve_annotate",
    "round_range_out",
    "safe_limits",
    "safe_points",
    "set_safe_axis",
    "takes_method_options",
]

#: gid of the method note every released figure carries (unless annotate=False).
FOOTNOTE_GID = "safeplot-method-note"


#: Methods whose release is not implemented for a plot yet get this message.
NOT_AVAILABLE = (
    "method={method!r} is not available for {what} in this version of safeplot; "
    "use one of {available}."
)


def not_available(method: str, what: str, available: tuple[str, ...]) -> ValueError:
    """Return the error for a known method a plot does not support (yet)."""
    return ValueError(NOT_AVAILABLE.format(method=method, what=what, available=list(available)))


def nothing_shown(counts: np.ndarray, what: str, advice: str) -> list[str]:
    """Return the report warning for a release whose counts are all suppressed (else none).

    Parameters
    ----------
    counts : ndarray
        Released counts, NaN where suppressed.
    what : str
        What was counted ("bin", "grid cell", "count").
    advice : str
        What to do instead, e.g. "Use fewer bins or method='generalize'."
    """
    if (np.nan_to_num(counts) > 0).any():
        return []
    return [f"Every {what} is below the threshold: nothing can be shown. {advice}"]


def refuse_if_nothing_shown(counts: np.ndarray, what: str, advice: str) -> None:
    """Refuse a binned release in which every count is suppressed.

    An empty figure is not empty of information: its axes would still span
    the grid laid over the data, which for a few outlying records says where
    they are. Raises :class:`~safeplot.errors.DisclosureError`.
    """
    if not (np.nan_to_num(counts) > 0).any():
        raise DisclosureError(
            f"Every {what} is below the threshold: nothing can be shown, and an empty figure "
            f"would still show the range of the data. {advice}"
        )


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """On any error: close the figures made inside the block and drop its audit entries.

    A figure-level call refused half-way through (one facet or panel too
    small) must leave no figure open and no release of the panels drawn
    before it in the log.
    """
    import matplotlib.pyplot as plt

    figures = set(plt.get_fignums())
    logged = len(audit.entries())
    try:
        yield
    except BaseException:
        for num in set(plt.get_fignums()) - figures:
            plt.close(num)
        audit._discard_after(logged)
        raise


def _named_method(value: Any) -> Method | None:
    """Return the registered method `value` names or is, else None (the policy refuses it)."""
    try:
        return get_method(value)
    except (TypeError, ValueError):
        return None


def takes_method_options(func):
    """Let a plot function take a method object, and apply its method parameters.

    ``method=`` may be a name or a :class:`~safeplot.methods.Method` object
    such as ``Microaggregation(k=5, algorithm="mdav")``: the object's ``k``,
    ``q`` and ``factor`` become the function's own keywords (giving the same
    one both ways, with different values, is an error), and the rest
    (``algorithm``, ``c``, ``discretizer``) parametrise the release through
    :func:`safeplot.methods.method_options`, as the function's own
    ``algorithm=``, ``c=`` and ``discretizer=`` do. A function without its own
    ``c`` (``c`` is a colour in matplotlib's scatter) takes ``c=`` from its
    keyword arguments for a method that has a ``c``.
    """
    sig = inspect.signature(func)
    names = [n for n in ("algorithm", "c", "discretizer") if n in sig.parameters]
    own_c = "c" in sig.parameters

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        bound = sig.bind_partial(*args, **kwargs)
        options = {n: bound.arguments.get(n, sig.parameters[n].default) for n in names}
        given = bound.arguments.get("method")
        if isinstance(given, Method):
            bound.arguments["method"] = given.name
            for key, value in given.get_params().items():
                if key in ("algorithm", "c", "discretizer"):
                    options[key] = value
                elif key not in sig.parameters:
                    raise ValueError(
                        f"{func.__name__}() does not take {key}=, which {given!r} sets; "
                        f"use a method {func.__name__}() supports."
                    )
                elif key in bound.arguments and bound.arguments[key] != value:
                    raise ValueError(
                        f"{key}={bound.arguments[key]!r} and method={given!r} disagree; "
                        f"give {key} once."
                    )
                else:
                    bound.arguments[key] = value
            args, kwargs = bound.args, bound.kwargs
        named = _named_method(bound.arguments.get("method"))
        if not own_c and named is not None and "c" in named.param_names and "c" in kwargs:
            options["c"] = kwargs.pop("c")
        with method_options(**options):
            return func(*args, **kwargs)

    return wrapper


def check_methods(method: str, available: tuple[str, ...], what: str) -> str:
    """Refuse a known method that `what` does not support, naming the ones it does."""
    if method not in available:
        raise not_available(method, what, available)
    return method


def axes_for(ax: Axes | None, report: DisclosureReport, released: Any = None) -> Axes:
    """Hand a release to the ledger, then return the Axes to draw it on.

    Every plot calls this once its release is complete and before it draws
    anything (:func:`safeplot.release.guard.admit`): a release the ledger
    refuses leaves no Axes touched and no figure made.
    """
    guard.admit(report.function, report, released)
    return get_ax(ax)


def get_ax(ax: Axes | None) -> Axes:
    """Return the Axes to draw on: `ax`, else the current Axes (as seaborn does)."""
    if ax is None:
        import matplotlib.pyplot as plt

        return plt.gca()
    return ax


def resolve_annotate(annotate: bool | None, policy: Policy) -> bool:
    """Whether to add the method note: the policy decides unless the call says otherwise.

    A locked custodian policy that asks for the note cannot be overridden.
    """
    if annotate is None:
        return policy.annotate
    if not annotate and policy.annotate and policy.locked:
        raise DisclosureError(
            f"The custodian policy ({policy.source}) is locked and requires every figure to "
            "name its disclosure-control method (annotate=True); annotate=False is refused."
        )
    return bool(annotate)


def method_note(report: DisclosureReport) -> str:
    """Return a short line naming the method and its main parameter, e.g. ``... (k=3)``.

    Under ``"confidential"`` it ends with ``***`` when values were winsorised,
    as O'Keefe asks. The full parameters are in the report.
    """
    m = _named_method(report.method)
    names = m.note_params if m is not None else ()
    shown = {k: report.params[k] for k in names if k in report.params}
    params = ", ".join(
        f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in shown.items()
    )
    note = f"safeplot: {report.method}" + (f" ({params})" if params else "")
    winsorised = report.details.get("values_winsorised", 0)
    if m is not None and m.rule_based and winsorised not in (0, "0"):
        note += " *** winsorised"
    return note


def finish(
    ax: Axes,
    report: DisclosureReport,
    *,
    annotate: bool | None,
    policy: Policy,
    released: Any = None,
) -> Axes:
    """Attach the release's report to `ax`, log it (with `released`), and add the method note."""
    attach_release(ax, report, released=released)
    if resolve_annotate(annotate, policy):
        # a footnote under the x-axis label: clear of titles, legends and neighbouring panels
        note_below(ax, method_note(ax.safeplot_report), FOOTNOTE_GID, **_METHOD_NOTE_STYLE)
    return ax


#: the method note is a little larger and darker than the other footnotes
_METHOD_NOTE_STYLE = {"fontsize": "x-small", "color": "0.35"}


#: The gid of a figure's note that groups too small to show were left out (:func:`figure_note`).
LEFT_OUT_FIGURE_GID = "safeplot-left-out-facets"


def figure_note(
    axes: Iterable[Axes], text: str | None = None, *, left_out: str | None = None
) -> Axes | None:
    """Gather the method notes of a figure's panels into one, under its bottom-left panel.

    Figure-level plots (facets, pair and joint grids) name the method once,
    not on every panel. Distinct notes are joined with "; ". `text` is the
    note to write instead of the panels' own (a grid's whole report).
    `left_out` is the figure's note that groups were left out
    (:data:`LEFT_OUT_NOTE`), written under the method note.

    Returns
    -------
    Axes or None
        The panel holding the note; None when there is no note to write.
    """
    axes = [ax for ax in axes if ax is not None and ax.get_visible()]
    notes = [remove_footnote(ax, FOOTNOTE_GID) for ax in axes]
    notes = list(dict.fromkeys(n for n in notes if n))
    # a panel's note that another panel's extends (" *** winsorised") is said once, in full
    notes = [n for n in notes if not any(o != n and o.startswith(n) for o in notes)]
    if (text is None and not notes and not left_out) or not axes:
        return None
    host = min(axes, key=lambda a: (round(a.get_position().y0, 6), a.get_position().x0))
    if text is not None or notes:
        note_below(
            host,
            text if text is not None else "; ".join(notes),
            FOOTNOTE_GID,
            **_METHOD_NOTE_STYLE,
        )
    if left_out:
        note_below(host, left_out, LEFT_OUT_FIGURE_GID)
    return host


def safe_points(lo: float, hi: float, num: int, avoid: np.ndarray) -> np.ndarray:
    """``num`` evenly spaced points on [lo, hi], any equal to a value in `avoid` moved a little.

    For the x coordinates of curves (density estimates, smooth lines) drawn
    over a range of released values: a grid point that happens to equal a
    rare raw value is shifted by 1e-6 of the spacing, invisible in the figure.
    """
    pts = np.linspace(lo, hi, num)
    avoid = as_sorted(avoid)
    if avoid.size:
        step = (hi - lo) / max(num - 1, 1) or 1.0
        pos = np.clip(np.searchsorted(avoid, pts), 1, max(avoid.size - 1, 1))
        for nb in (pos - 1, np.minimum(pos, avoid.size - 1)):
            near = avoid[nb]
            hit = np.abs(pts - near) <= MATCH_RTOL * np.maximum(np.abs(pts), np.abs(near))
            pts[hit] += 1e-6 * step
    return pts


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
    avoid = as_sorted(avoid)
    for i, sign in ((0, -1.0), (1, 1.0)):
        # a step below the matching tolerance of a large limit would never leave the value
        step = max(1e-6 * span, 4 * MATCH_RTOL * abs(limits[i]), np.finfo(float).tiny)
        while hits_any([limits[i]], avoid):
            limits[i] += sign * step
    return float(limits[0]), float(limits[1])


def round_range_out(
    lo: float, hi: float, sig: int, avoid: np.ndarray, log: bool = False
) -> tuple[float, float]:
    """Round a range outward to `sig` significant figures of its larger end, off rare values.

    The ends of a density's grid under ``"confidential"``: an end that equals
    a rare value moves one more unit outward.

    Parameters
    ----------
    lo, hi : float
        The range.
    sig : int
        Significant figures, counted on the larger absolute end.
    avoid : ndarray
        Rare values no end may equal.
    log : bool, default False
        A log axis: a positive lower end is never rounded or moved to zero or below.

    Returns
    -------
    tuple of float
        The rounded ends; `lo` and `hi` unchanged when neither is finite and nonzero.

    Examples
    --------
    >>> import numpy as np
    >>> round_range_out(0.123, 4.56, 2, np.array([]))
    (0.1, 4.6)
    >>> round_range_out(0.123, 4.56, 2, np.array([4.6]))
    (0.1, 4.7)
    """
    top = max(abs(lo), abs(hi))
    if not (math.isfinite(top) and top > 0):
        return lo, hi
    exponent = math.floor(math.log10(top)) - sig + 1
    unit = 10.0**exponent
    decimals = max(0, -exponent)
    m_lo, m_hi = math.floor(lo / unit), math.ceil(hi / unit)
    if log:
        m_lo = max(m_lo, 1) if lo > 0 else m_lo
    r_lo, r_hi = round(m_lo * unit, decimals), round(m_hi * unit, decimals)
    while hit_mask(np.array([r_lo]), avoid).any() and not (log and m_lo <= 1):
        m_lo -= 1
        r_lo = round(m_lo * unit, decimals)
    while hit_mask(np.array([r_hi]), avoid).any():
        m_hi += 1
        r_hi = round(m_hi * unit, decimals)
    return float(r_lo), float(r_hi)


def axis_from_range(
    lo: float, hi: float, avoid: np.ndarray
) -> tuple[tuple[float, float], np.ndarray]:
    """Return padded safe limits and ticks for released values spanning [lo, hi]."""
    lim = safe_limits(lo, hi, avoid)
    return lim, safe_ticks(lim[0], lim[1])


def dropped_warning(n_dropped: int, policy: Policy) -> str:
    """Return the report's warning for `n_dropped` rows dropped for missing values (rounded)."""
    return f"{policy.describe_count(n_dropped)} rows with missing values were dropped."


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
        warnings.append(dropped_warning(n_dropped, policy))
    if get_method(method).raw:
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


def attach_release(ax: Axes, report: DisclosureReport, *, released: Any = None) -> None:
    """Record the release on the Axes (``ax.safeplot_report``) and in the audit log.

    A second release drawn on the same Axes is merged into its report.
    `released` (the release drawn) gives the audit entry its numbers.
    """
    previous = getattr(ax, "safeplot_report", None)
    ax.safeplot_report = report if previous is None else previous.merge(report)
    audit.log_release(report, figure=_figure_label(ax), released=released)


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
