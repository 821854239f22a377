"""Kaplan-Meier survival curves under disclosure control.

A raw Kaplan-Meier curve discloses a great deal: each step is one event
time, each drop with the number at risk gives the number of events there
(often one), the last step is the longest follow-up, and the at-risk table
under the axes lists exact small counts. :func:`kmplot` releases the curve
first (:func:`release_survival`) and draws only the release:

- ``"suppress"``/``"generalize"``: the records are counted on a regular
  time grid from 0 whose step depends only on the menus (``bins``,
  ``factor``) and the scale of the durations; the grids of all menu
  choices are nested (each halves or doubles the same step on the same
  origin), so no two releases interleave their edges. At each edge the
  events so far and the records still at risk are rounded (to a multiple of
  the rounding base that is at least ``threshold``), and the curve is the
  grouped Kaplan-Meier product of ``1 - events / at risk`` over those
  rounded counts: its heights carry nothing the rounded counts do not. The
  curve stops at the last edge before the end of follow-up at which at
  least two rounding units of records remain at risk;
- ``"deterministic"``/``"probabilistic"``: the durations are anonymised
  within each event status and hue level (kNN centroids, keyed noise)
  first, then grouped as above;
- ``"confidential"`` (O'Keefe): the durations are winsorised, and the
  grouped curve is drawn as a smooth line through its rounded heights, with
  no step at any individual time.

Counts (at risk, censored, events) are rounded the same way (1 and 2
round to 0); confidence bands come from the released counts only
(Greenwood's formula on the released table). A higher ``threshold`` only
makes the rounding coarser.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from scipy import stats

from .._validate import clean_numeric, refuse_dask
from ..anonymize import winsorize
from ..anonymize.grids import nice_step, rare_values, safe_ticks
from ..errors import DisclosureError
from ..marks.survival import draw_survival
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ..release.guard import shown_groups
from ._common import axes_for, finish, make_report, safe_limits, takes_method_options
from ._data import categorical_order, plot_data

__all__ = [
    "ALPHA_MENU",
    "BINS_MENU",
    "FACTOR_MENU",
    "SURVIVAL_METHODS",
    "SurvivalRelease",
    "kmplot",
    "lifelines_module",
    "release_survival",
]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) a survival curve releases.
_SURVIVAL_FAMILIES = ("counts", "values", "rules")
#: Methods :func:`kmplot` supports.
SURVIVAL_METHODS = tuple(
    m.name
    for m in available_methods()
    if m.family in _SURVIVAL_FAMILIES
    and (m.family != "values" or m.groups_within_strata or m.adds_noise)
)
#: Levels of the confidence bands (1 - alpha) a release may use.
ALPHA_MENU = guard.ALPHA_MENU
#: Most intervals of the time grid a release may use; the grids are nested (see ``bins``).
BINS_MENU = (10, 20, 30, 40, 50)
#: How many times coarser ``"generalize"`` makes the grid (powers of two: nested grids).
FACTOR_MENU = (2, 4)
_STOP_NOTE = (
    "Curves end before the last follow-up: where fewer records than two rounding units "
    "(twice the rounded threshold) remain at risk, or at the end of the safe time grid."
)


def lifelines_module() -> Any:
    """Import lifelines, or say which extra installs it.

    Returns
    -------
    module
        The :mod:`lifelines` package.

    Raises
    ------
    ImportError
        When lifelines is not installed, naming ``pip install "safeplot[survival]"``.

    Examples
    --------
    >>> lifelines_module().__name__
    'lifelines'
    """
    try:
        import lifelines
    except ImportError as err:  # pragma: no cover - lifelines is a test dependency
        raise ImportError(
            "Survival curves and Cox models need lifelines, which is optional: "
            'install it with pip install "safeplot[survival]".'
        ) from err
    return lifelines


@release_kind("survival")
@dataclass
class SurvivalRelease:
    """A released Kaplan-Meier curve per hue level, with its at-risk table.

    Attributes
    ----------
    method : str
    levels : list
        The hue levels (``[None]`` without hue).
    times : list of ndarray
        Per level, the curve's times: its start, the grid time of each drop,
        and the time it stops.
    survival : list of ndarray
        Per level, the rounded survival probability from each of `times` on
        (1 at the start; the last value repeats the one before).
    lower, upper : list of ndarray
        Per level, the rounded confidence band at `times` (Greenwood on the
        released counts, log-log scale).
    at_risk, observed : list of ndarray
        Per level and drop (``times[1:-1]``): the records at risk at the
        start of the drop's grid interval and the events in it, rounded;
        the heights are ``cumprod(1 - observed / at_risk)``, rounded.
    table_times : ndarray
        The times of the at-risk table (the axis ticks the curves reach).
    table : list of ndarray
        Per level, shape ``(3, len(table_times))``: records at risk at each
        table time, and censored and events up to it, rounded; NaN past
        the level's curve.
    time_lim : tuple of float
    time_ticks : ndarray
    smooth : bool
        Draw a line through the heights rather than steps (``"confidential"``).
    alpha : float
        The bands have coverage ``1 - alpha``.
    report : DisclosureReport
    names : dict
        Labels of the duration and hue variables.
    totals : list of ndarray
        Per level, the records and the events, rounded.
    """

    method: str
    levels: list[Any]
    times: list[np.ndarray]
    survival: list[np.ndarray]
    lower: list[np.ndarray]
    upper: list[np.ndarray]
    at_risk: list[np.ndarray]
    observed: list[np.ndarray]
    table_times: np.ndarray
    table: list[np.ndarray]
    time_lim: tuple[float, float]
    time_ticks: np.ndarray
    smooth: bool
    alpha: float
    report: DisclosureReport
    names: dict[str, str | None] = field(default_factory=dict)
    totals: list[np.ndarray] = field(default_factory=list)

    def curve(self, level: Any = None) -> pd.DataFrame:
        """Return one level's released curve: time, survival and band, one row per point.

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> rel = release_survival(load_rossi(), duration="week", event="arrest")
        >>> rel.curve().iloc[:3].to_dict("list")["survival"]
        [1.0, 0.988, 0.965]
        """
        i = self.levels.index(level)
        return pd.DataFrame(
            {
                "time": self.times[i],
                "survival": self.survival[i],
                "lower": self.lower[i],
                "upper": self.upper[i],
            }
        )

    def frame(self) -> pd.DataFrame:
        """Return every level's released curve as one table (the audit log keeps it).

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> rel = release_survival(load_rossi(), duration="week", event="arrest", hue="fin")
        >>> list(rel.frame().columns)
        ['level', 'time', 'survival', 'lower', 'upper']
        """
        parts = []
        for lev in self.levels:
            part = self.curve(lev)
            part.insert(0, "level", "" if lev is None else str(lev))
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    def at(self, times: Any, level: Any = None, *, interpolate: bool = False) -> np.ndarray:
        """Return the released survival at `times` (NaN past the end of the curve).

        The released curve read at other times: a step function (or, for a
        smooth curve, the line) through the released points; no record is
        read. With ``interpolate=True``, the line through the released points
        (a drop holds the events of the interval before it, so the line runs
        through the interval where the step function waits for its end).

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> rel = release_survival(load_rossi(), duration="week", event="arrest")
        >>> rel.at([10, 20]).tolist()
        [0.988, 0.93]
        """
        i = self.levels.index(level)
        t = np.atleast_1d(np.asarray(times, dtype=float))
        ts, s = self.times[i], self.survival[i]
        if self.smooth or interpolate:
            out = np.interp(t, ts, s)
        else:
            idx = np.searchsorted(ts, t, side="right") - 1
            out = s[np.clip(idx, 0, s.size - 1)]
        out = np.where((t < ts[0]) | (t > ts[-1]), np.nan, out)
        return out.astype(float)

    def median(self, level: Any = None) -> float:
        """Return the released median survival time: the first released time with S <= 0.5.

        NaN when the released curve does not reach 0.5 (lifelines gives inf
        there; the released curve stops early, so "not reached" is all it says).

        Examples
        --------
        >>> from lifelines.datasets import load_lung
        >>> rel = release_survival(load_lung(), duration="time", event="status")
        >>> rel.median()
        356.25
        """
        i = self.levels.index(level)
        s, ts = self.survival[i][:-1], self.times[i][:-1]
        hit = np.flatnonzero(s <= 0.5)
        return float(ts[hit[0]]) if hit.size else float("nan")


# -- the stat: grouped Kaplan-Meier on a safe grid --------------------------------------------


def _nested_edges(end: float, halvings: int) -> np.ndarray:
    """Edges of the time grid: ``0``, then ``step / 32 + step * 2**-halvings * m`` past `end`.

    ``step`` is the nice step (:func:`~safeplot.anonymize.grids.nice_step`) of
    a tenth of `end`. Every grid the menus allow (``halvings`` from -2 to 2)
    halves or doubles that step a whole number of times on the same origin,
    so the edges of any two grids are nested and never interleave. The
    offset of a thirty-second of the step is fixed, not chosen from the data,
    and puts no edge on a number recorded to the step's precision or two
    digits finer (whole weeks, whole days).

    Examples
    --------
    >>> _nested_edges(52.0, 0)
    array([ 0.    ,  0.3125, 10.3125, 20.3125, 30.3125, 40.3125, 50.3125,
           60.3125])
    """
    step = nice_step(max(end, 1e-12) / 10.0)
    width = step * 2.0 ** (-halvings)
    first = step / 32.0
    count = int(np.floor((end - first) / width)) + 2
    return np.r_[0.0, first + width * np.arange(max(count, 1))]


def _rounded(n: np.ndarray, unit: int) -> np.ndarray:
    """Round counts to the nearest multiple of `unit` (halves up): with 5, 1 and 2 become 0."""
    return np.floor(np.asarray(n, dtype=float) / unit + 0.5) * unit


def _grouped_km(
    d: np.ndarray, e: np.ndarray, edges: np.ndarray, unit: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Compute a grouped Kaplan-Meier curve from rounded counts only.

    At each edge, the events up to it and the records still at risk after it
    are counted and rounded to `unit`. Per interval ``(a, b]``, the events are
    the difference of the rounded cumulative events, the records at risk the
    rounded count after ``a``, and the survival the running product of
    ``1 - events / at risk``: nothing but the rounded counts enters the
    heights.

    Returns
    -------
    survival, at_risk, events : ndarray
        Per interval (one fewer than `edges`).

    Examples
    --------
    >>> d = np.array([1.0, 2.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    >>> s, n, ev = _grouped_km(d, np.ones(10, bool), np.array([0.0, 4.5, 9.5]), 5)
    >>> s.tolist(), n.tolist(), ev.tolist()
    ([0.5, 0.0], [10.0, 5.0], [5.0, 5.0])
    """
    cum_d = _rounded([np.sum(e & (d <= t)) for t in edges], unit)
    n = _rounded([np.sum(d > t) for t in edges[:-1]], unit)
    ev = np.maximum(np.diff(cum_d), 0.0)
    n = np.maximum(n, ev)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.where(n > 0, 1.0 - ev / n, 1.0)
    return np.cumprod(factor), n, ev


def _greenwood(
    s: np.ndarray, n: np.ndarray, d: np.ndarray, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """Greenwood's band on the log-log scale (lifelines' default), from released counts."""
    z = stats.norm.ppf(1 - alpha / 2)
    n = np.maximum(n, d + 1.0)
    var = np.cumsum(d / (n * (n - d)))
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(s)
        half = z * np.sqrt(var) / logs
        lower = np.exp(-np.exp(np.log(-logs) - half))
        upper = np.exp(-np.exp(np.log(-logs) + half))
    lower = np.where(s >= 1, 1.0, np.where(s <= 0, 0.0, lower))
    upper = np.where(s >= 1, 1.0, np.where(s <= 0, 0.0, upper))
    return np.minimum(lower, upper), np.maximum(lower, upper)


def _check_inputs(duration: np.ndarray, event_raw: pd.Series, function: str) -> np.ndarray:
    """Validate durations (non-negative) and events (binary); return events as booleans."""
    if (duration < 0).any():
        raise ValueError(
            f"{function}: durations must be zero or positive, but {int((duration < 0).sum())} "
            "are negative. Check how durations were computed (end - start) and drop or correct "
            "those rows."
        )
    ev = event_raw
    if pd.api.types.is_bool_dtype(ev.dtype):
        return ev.to_numpy(dtype=bool)
    num = pd.to_numeric(ev, errors="coerce")
    bad = ev.notna() & (num.isna() | ~num.isin([0, 1]))
    if bad.any():
        shown = list(pd.unique(ev[bad]))[:3]
        raise ValueError(
            f"{function}: the event indicator must be 0/1 or True/False (1 = event observed, "
            f"0 = censored), but it holds other values such as {shown}. Recode it first."
        )
    return num.to_numpy(dtype=float) == 1


def release_survival(
    data: Any = None,
    *,
    duration: Any = None,
    event: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    method: str | None = None,
    threshold: int | None = None,
    bins: int = 40,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    alpha: float = 0.05,
    policy: Policy | None = None,
    function: str = "kmplot",
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    timeline: Sequence[float] | None = None,
    binrange: tuple[float, float] | None = None,
) -> SurvivalRelease:
    """Release Kaplan-Meier curves under a disclosure-control method.

    Parameters
    ----------
    data, duration, event, hue, hue_order
        As in :func:`kmplot`.
    method : str, optional
        Default: the policy's method for binned plots (``"suppress"``).
    threshold : int, optional
        Fewest events per hue level and records at risk (default and floor:
        the policy's); counts are rounded to a multiple of the rounding base
        that is at least `threshold`.
    bins : int, default 40
        Most intervals of the time grid, from :data:`BINS_MENU`: the step
        is the nice step of a tenth of the durations' range, halved once for
        20 or 30 and twice for 40 or 50, so every choice refines the same
        grid.
    factor : {2, 4}, default 2
        ``"generalize"``: the grid is `factor` times coarser
        (:data:`FACTOR_MENU`).
    k, q
        Parameters of ``"deterministic"`` and ``"probabilistic"``.
    alpha : float, default 0.05
        Bands of coverage ``1 - alpha``, from :data:`ALPHA_MENU`.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).
    function : str
        The public function, for messages and the report.
    epsilon, mechanism, delta, timeline, binrange
        ``method="dp"`` only (see :func:`kmplot`).

    Returns
    -------
    SurvivalRelease

    Raises
    ------
    DisclosureError
        A parameter below a policy floor; a hue level with fewer than
        `threshold` records or events; no events; constant durations.
    ValueError
        Negative durations, an event indicator that is not binary, missing
        arguments, a `bins`, `factor` or `alpha` not on its menu.

    Examples
    --------
    >>> from lifelines.datasets import load_rossi
    >>> rel = release_survival(load_rossi(), duration="week", event="arrest", hue="fin")
    >>> rel.levels, rel.method
    ([0, 1], 'suppress')
    """
    for given in (data, duration, event, hue):
        refuse_dask(given, function)
    pol = get_policy(policy)
    checked = get_method(pol.check_method(method, "hist"))
    if checked.private:
        return _release_private_survival(
            data,
            duration=duration,
            event=event,
            hue=hue,
            hue_order=hue_order,
            m=checked,
            bins=bins,
            alpha=alpha,
            epsilon=epsilon,
            mechanism=mechanism,
            delta=delta,
            timeline=timeline,
            binrange=binrange,
            policy=pol,
            function=function,
        )
    for name_, value in (
        ("epsilon", epsilon),
        ("delta", delta),
        ("timeline", timeline),
        ("binrange", binrange),
    ):
        if value is not None:
            raise ValueError(
                f"{function}: {name_}= belongs to method='dp'; method={checked.name!r} takes "
                f"no {name_}."
            )
    if mechanism != "laplace":
        raise ValueError(
            f"{function}: mechanism= belongs to method='dp'; method={checked.name!r} adds no "
            "DP noise."
        )
    m = check_family(checked, _SURVIVAL_FAMILIES, "survival curves")
    if m.family == "values" and not (m.groups_within_strata or m.adds_noise):
        raise ValueError(
            f"method={m.name!r} is not available for survival curves; use one of "
            f"{list(SURVIVAL_METHODS)}."
        )
    method = m.name
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    bins = guard.from_menu("bins", bins, BINS_MENU, what="the time grid")
    alpha = guard.from_menu("alpha", alpha, ALPHA_MENU, what="confidence bands")
    # every menu choice halves the coarsest grid a whole number of times (or, for generalize,
    # doubles it), so that the edges of any two releases are nested
    halvings = int(np.floor(np.log2(bins / BINS_MENU[0])))
    if m.coarsens:
        factor = guard.from_menu("factor", factor, FACTOR_MENU, what="generalisation")
        halvings -= int(np.log2(factor))
    # counts are rounded to a multiple of the rounding base that is at least the threshold:
    # a higher threshold is a coarser rounding of the same counts
    unit = pol.round_n_to * int(np.ceil(threshold / pol.round_n_to))
    if duration is None or event is None:
        raise ValueError(
            f"{function}: give duration= (time to event or censoring) and event= (1 if the "
            "event was observed, 0 if censored), as column names of data or as vectors."
        )
    pdata = plot_data(data, {"x": duration, "e": event, "hue": hue}, function=function)
    frame = pdata.frame
    name = pdata.label("x")
    # validation only: clear errors for text, booleans, dates, inf, all-missing, constant
    clean_numeric(pd.DataFrame({name: frame["x"]}))
    missing = frame.isna().any(axis=1).to_numpy()
    raw_d = pd.to_numeric(frame["x"], errors="coerce").to_numpy(dtype=float)
    keep = ~missing
    if not keep.any():
        raise ValueError(f"{function}: no records to plot (every row has a missing value).")
    ev = _check_inputs(raw_d[keep], frame["e"][keep], function)
    levels: list[Any] = [None]
    codes = np.zeros(raw_d.size, dtype=int)
    if "hue" in frame:
        levels = categorical_order(frame["hue"], hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = frame["hue"].map(lambda v: lookup.get(v, -1)).to_numpy(dtype=int)
    n_dropped = int(missing.sum())
    keep_codes = codes[keep] >= 0
    d, codes, e = raw_d[keep][keep_codes], codes[keep][keep_codes], ev[keep_codes]
    if d.size == 0:
        raise ValueError(f"{function}: no records to plot (no row is in hue_order).")
    sizes = np.bincount(codes, minlength=len(levels))
    n_events = np.bincount(codes[e], minlength=len(levels))
    if not e.any():
        raise DisclosureError(
            f"{function}: no event is observed (every record is censored): the curve would be "
            "flat and its end would show the longest follow-up. There is nothing to estimate."
        )
    if "hue" not in frame and n_events[0] < threshold:
        raise DisclosureError(
            f"{function}: fewer than threshold={threshold} events are observed; no drop of the "
            "curve could hold threshold events. There is too little to estimate."
        )
    # methods that move durations do so within each event status and hue level, which needs
    # `fewest` records in each stratum with any
    fewest = m.min_group_size(pol, k) if m.moves_values else 0
    per_stratum = np.bincount(codes * 2 + e.astype(int), minlength=2 * len(levels))
    thin = ((per_stratum > 0) & (per_stratum < fewest)).reshape(-1, 2).any(axis=1)
    if "hue" not in frame and thin[0]:
        group = f"k={k} and " if m.uses_k else ""
        raise DisclosureError(
            f"{function}: method={method!r} anonymises durations within each event status, "
            f"which needs at least {fewest} records in each ({group}threshold={threshold}); "
            "the events or the censored records have fewer. Use a smaller k or "
            "method='suppress'."
        )
    # a hue level with too few events to show one drop, or too few records in an event status
    # to anonymise, is left out as a suppressed cell is: not drawn, not named, and the figure
    # says that levels were left out (DESIGN invariant 10)
    usable = np.where(thin, np.minimum(n_events, threshold - 1), n_events)
    why = f"threshold={threshold}" + (
        f"; {fewest} records in each event status to anonymise" if fewest else ""
    )
    groups = shown_groups(
        np.where(sizes > 0, np.maximum(usable, 1), 0),
        threshold,
        why,
        function=function,
        what="hue level",
        fix="Merge hue levels, or leave hue out.",
        counted="events",
    )
    keep_rec = groups.keep(codes)
    d, codes, e = d[keep_rec], codes[keep_rec], e[keep_rec]
    sizes = np.where(groups.shown, sizes, 0)
    levels = [lev for i, lev in enumerate(levels) if sizes[i] > 0]
    sizes_kept, events_kept = sizes[sizes > 0], n_events[sizes > 0]
    remap = np.cumsum(sizes > 0) - 1
    codes = remap[codes]
    rare = rare_values(d, threshold)
    per_level = [rare_values(d[codes == i], threshold) for i in range(len(levels))]
    avoid = np.unique(np.concatenate([rare, *per_level]))
    raw_end = float(d.max())
    params: dict[str, Any] = {"threshold": threshold, "bins": bins, "alpha": alpha}
    if m.coarsens:
        params["factor"] = factor
    details: dict[str, Any] = {}
    warnings: list[str] = []
    work = d.copy()
    if m.rule_based:
        params.update(winsor_sd=pol.winsor_sd, sig=pol.sig_figs)
        n_wins = 0
        for i in range(len(levels)):
            w = winsorize(d[codes == i], policy=pol)
            work[codes == i] = np.maximum(w.values, 0.0)
            n_wins += w.n_winsorized
        details["values_winsorised"] = pol.round_count(n_wins)
    elif m.moves_values:
        strata = codes * 2 + e.astype(int)
        counts = np.bincount(strata, minlength=2 * len(levels))
        # a stratum whose durations are all equal (everyone censored at the end of the
        # study) holds one value shared by at least `fewest` records: nothing to anonymise
        spread = np.array([np.ptp(d[strata == s]) if counts[s] else 0.0 for s in strata])
        moved = spread > 0
        if moved.any():
            out = anonymize_values(
                d[moved],
                method,
                names=[name],
                k=k,
                q=q,
                strata=strata[moved],
                threshold=threshold,
                policy=pol,
            )
            params.update(out.params)
            details.update(out.details)
            work[moved] = np.maximum(out.values[:, 0], 0.0)
    # the grid: regular, on the origin, nested across every menu choice
    start = 0.0
    end = min(raw_end, float(work.max()))
    # on the scale of the raw durations for every method, so that grids of all methods nest
    edges = _nested_edges(raw_end, halvings)
    times, surv, lower, upper, at_risk, observed = [], [], [], [], [], []
    stops = []
    drawn: list[int] = []
    short: list[int] = []
    for i in range(len(levels)):
        di, ei = work[codes == i], e[codes == i]
        # the curve runs while at least two rounding units of records (two multiples of the
        # rounding base, at least twice the threshold) remain at risk: with fewer, one unit
        # more or less of rounding would be a large share of those left
        inside = (edges > start) & (edges < min(end, float(di.max())))
        ok = np.flatnonzero(inside & (np.array([np.sum(di >= t) for t in edges]) >= 2 * unit))
        if not ok.size:
            if "hue" not in frame:
                raise DisclosureError(
                    f"{function}: fewer than {2 * unit} records are at risk (two rounding "
                    f"units, threshold={threshold}) at every time of the grid after 0; the "
                    "curve cannot be shown."
                )
            short.append(i)  # left out with the levels too small above
            continue
        drawn.append(i)
        stop = int(ok[-1])
        s_int, n_int, d_int = _grouped_km(di, ei, edges[: stop + 1], unit)
        drops = np.flatnonzero(d_int > 0)
        t_drop = edges[1:][drops]
        s_drop = guard.released_statistics(s_int[drops], policy=pol)
        n_start, d_rel = n_int[drops], d_int[drops]
        lo, hi = _greenwood(s_int[drops], n_start, d_rel, alpha)
        lo = guard.released_statistics(lo, policy=pol)
        hi = guard.released_statistics(hi, policy=pol)
        t_stop = float(edges[stop])
        times.append(np.r_[start, t_drop, t_stop])
        last = s_drop[-1] if drops.size else 1.0
        surv.append(np.r_[1.0, s_drop, last])
        lower.append(np.r_[1.0, lo, lo[-1] if drops.size else 1.0])
        upper.append(np.r_[1.0, hi, hi[-1] if drops.size else 1.0])
        at_risk.append(n_start)
        observed.append(d_rel)
        stops.append(t_stop)
    left_out = groups.left_out + len(short)
    if not drawn:
        raise DisclosureError(
            f"{function}: every hue level has fewer than {2 * unit} records at risk (two "
            f"rounding units, threshold={threshold}) at every time of the grid after 0, or "
            "too few events. Merge hue levels, or leave hue out."
        )
    if left_out:
        # hue levels too small to draw: not drawn, not named; the figure says levels were left out
        details["groups_left_out"] = left_out
        warnings.append(
            f"{left_out} hue level(s) with fewer than {threshold} events ({why}), or fewer "
            f"than {2 * unit} records at risk at every time of the grid, are not drawn."
        )
    t_max = max(stops)
    lim = safe_limits(start, t_max, avoid, margin=0.02)
    if lim[1] >= raw_end:
        lim = (lim[0], t_max)
    ticks = safe_ticks(lim[0], lim[1])
    table_times = ticks[(ticks >= start) & (ticks <= t_max)]
    table = []
    for i, stop_i in zip(drawn, stops, strict=True):
        di, ei = work[codes == i], e[codes == i]
        rows = np.full((3, table_times.size), np.nan)
        for j, t in enumerate(table_times):
            if t > stop_i:
                continue
            # rounded to the same unit as the curve's counts, so that a higher threshold only
            # coarsens them (1 and 2 round to 0, as they would under any threshold)
            rows[:, j] = _rounded(
                [np.sum(di >= t), np.sum((di <= t) & ~ei), np.sum((di <= t) & ei)], unit
            )
        table.append(rows)
    warnings.append(_STOP_NOTE)
    names = {
        "duration": name,
        "event": pdata.label("e"),
        "hue": pdata.label("hue") if "hue" in frame else None,
    }
    report = make_report(
        function,
        method,
        params,
        tuple(v for v in names.values() if v),
        int(np.isin(codes, drawn).sum()),
        n_dropped,
        pol,
        details=details,
        warnings=warnings,
    )
    return SurvivalRelease(
        method,
        [levels[i] for i in drawn],
        times,
        surv,
        lower,
        upper,
        at_risk,
        observed,
        table_times,
        table,
        lim,
        ticks,
        m.rule_based,
        alpha,
        report,
        names,
        [
            np.array(
                [
                    _rounded(sizes_kept[i], unit),
                    _rounded(events_kept[i], unit),
                ]
            )
            for i in drawn
        ],
    )


#: Share of epsilon a DP range estimate of the durations spends, when no grid is given.
DP_RANGE_SHARE = 0.25
#: Simulated releases of the noise behind a DP curve's band.
DP_BAND_DRAWS = 200
#: A DP curve stops before the first bin with fewer noisy records at risk than this many
#: noise SDs of one count (where the noise would be most of the at-risk number).
DP_MIN_AT_RISK_SDS = 4.0


def _dp_grid(
    timeline: Sequence[float] | None,
    binrange: tuple[float, float] | None,
    bins: int,
    function: str,
) -> np.ndarray | None:
    """Return the time grid of a DP curve fixed by the call, None if it is to be estimated."""
    if timeline is not None:
        if binrange is not None:
            raise ValueError(f"{function}: give timeline= or binrange=, not both.")
        edges = np.asarray(timeline, dtype=float)
        if edges.ndim != 1 or edges.size < 2 or not np.isfinite(edges).all():
            raise ValueError(
                f"{function}: timeline must be at least two finite, increasing times."
            )
        if not (np.diff(edges) > 0).all() or edges[0] < 0:
            raise ValueError(
                f"{function}: timeline must be increasing times from 0 or later, got "
                f"{list(edges)!r}."
            )
        return edges if edges[0] == 0 else np.r_[0.0, edges]
    if binrange is None:
        return None
    try:
        lo, hi = (float(v) for v in binrange)
    except (TypeError, ValueError):
        raise ValueError(f"{function}: binrange must be (low, high), got {binrange!r}.") from None
    if not (np.isfinite([lo, hi]).all() and 0 <= lo < hi):
        raise ValueError(
            f"{function}: binrange must be (low, high) with 0 <= low < high, got {binrange!r}."
        )
    edges = np.linspace(lo, hi, bins + 1)
    return edges if lo == 0 else np.r_[0.0, edges]


def _release_private_survival(
    data: Any,
    *,
    duration: Any,
    event: Any,
    hue: Any,
    hue_order: Sequence[Any] | None,
    m: Any,
    bins: int,
    alpha: float,
    epsilon: float | None,
    mechanism: str,
    delta: float | None,
    timeline: Sequence[float] | None,
    binrange: tuple[float, float] | None,
    policy: Policy,
    function: str,
) -> SurvivalRelease:
    """Release DP Kaplan-Meier curves from noisy events and censorings on a fixed grid.

    Each record falls in one cell of the joint vector (hue level x [events
    per bin, censorings per bin, still at risk after the grid]), so the
    vector has L1 and L2 sensitivity 1 and one (epsilon, delta) covers it.
    The at-risk numbers, the product-limit curve and its band are computed
    from the noisy counts alone (post-processing,
    :func:`safeplot.anonymize.dp.km_from_counts`). The band combines the
    noise, simulated by re-noising the released counts with OpenDP draws of
    the same mechanism and scale (:data:`DP_BAND_DRAWS` times), with
    Greenwood's sampling variance on the noisy counts.
    """
    from ..anonymize import dp as dpnum

    eps_given = m.get_params().get("epsilon")
    if epsilon is not None and eps_given is not None and float(epsilon) != float(eps_given):
        raise ValueError(f"epsilon={epsilon!r} contradicts the method's epsilon={eps_given!r}.")
    eps = dpnum.check_epsilon(
        epsilon if epsilon is not None else eps_given if eps_given is not None else 1.0
    )
    mech = dpnum.check_mechanism(m.get_params().get("mechanism", mechanism))
    dlt = dpnum.check_delta(m.get_params().get("delta", delta), mech)
    bins = guard.from_menu("bins", bins, BINS_MENU, what="the time grid")
    alpha = guard.from_menu("alpha", alpha, ALPHA_MENU, what="confidence bands")
    if duration is None or event is None:
        raise ValueError(
            f"{function}: give duration= (time to event or censoring) and event= (1 if the "
            "event was observed, 0 if censored), as column names of data or as vectors."
        )
    if hue is not None and hue_order is None:
        raise ValueError(
            f"{function}: method='dp' needs the hue levels before the data is read: give "
            "hue_order=, from public knowledge of the variable."
        )
    edges = _dp_grid(timeline, binrange, bins, function)
    if not dpnum.opendp_available():
        dpnum._dp()  # raises, saying how to install OpenDP
    for given in (data, duration, event, hue):
        refuse_dask(given, function)
    pdata = plot_data(data, {"x": duration, "e": event, "hue": hue}, function=function)
    frame = pdata.frame
    name = pdata.label("x")
    clean_numeric(pd.DataFrame({name: frame["x"]}))
    missing = frame.isna().any(axis=1).to_numpy()
    raw_d = pd.to_numeric(frame["x"], errors="coerce").to_numpy(dtype=float)
    keep = ~missing
    if not keep.any():
        raise ValueError(f"{function}: no records to plot (every row has a missing value).")
    ev = _check_inputs(raw_d[keep], frame["e"][keep], function)
    levels: list[Any] = [None]
    codes = np.zeros(raw_d.size, dtype=int)
    if "hue" in frame:
        levels = list(hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = frame["hue"].map(lambda v: lookup.get(v, -1)).to_numpy(dtype=int)
    inside = codes[keep] >= 0
    d, codes, e = raw_d[keep][inside], codes[keep][inside], ev[inside]
    # every argument is valid: the release will be made, so its privacy loss is spent now
    left = guard.spend_epsilon(eps, function=function, delta=dlt)
    eps_range = 0.0
    if edges is None:
        eps_range = eps * DP_RANGE_SHARE
        _, hi = dpnum.private_range(d, eps_range)
        edges = np.linspace(0.0, max(hi, 0.0) or 1.0, bins + 1)
    eps_counts = eps - eps_range
    n_bins = edges.size - 1
    # one cell per record: its bin's events or censorings, or "beyond the grid"
    cell = np.clip(np.searchsorted(edges, d, side="left") - 1, 0, n_bins - 1)
    beyond = d > edges[-1]
    index = np.where(beyond, 2 * n_bins, cell + np.where(e, 0, n_bins))
    joint = np.zeros((len(levels), 2 * n_bins + 1), dtype=int)
    np.add.at(joint, (codes, index), 1)
    noisy = dpnum.mechanism_counts(joint, eps_counts, mechanism=mech, delta=dlt, clamp=False)
    counts = noisy.counts
    ev_n, ce_n, be_n = counts[:, :n_bins], counts[:, n_bins : 2 * n_bins], counts[:, -1]
    surv, at_risk, used = dpnum.km_from_counts(ev_n, ce_n, be_n)
    # the band: the noise, re-simulated about the released counts, and Greenwood's variance
    draws = dpnum.noise_draws(
        DP_BAND_DRAWS * counts.size, mechanism=mech, scale=noisy.scale
    ).reshape((DP_BAND_DRAWS, *counts.shape))
    sim = counts[None] + draws
    sim_s = dpnum.km_from_counts(sim[..., :n_bins], sim[..., n_bins : 2 * n_bins], sim[..., -1])[0]
    noise_var = sim_s.var(axis=0)
    z = float(stats.norm.ppf(1 - alpha / 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(at_risk > used, used / (at_risk * (at_risk - used)), 0.0)
    green = surv**2 * np.cumsum(terms, axis=-1)
    half = z * np.sqrt(noise_var + green)
    lower_all = np.minimum.accumulate(np.clip(surv - half, 0.0, 1.0), axis=-1)
    upper_all = np.minimum.accumulate(np.clip(surv + half, 0.0, 1.0), axis=-1)
    floor_n = DP_MIN_AT_RISK_SDS * noisy.sd
    times, survival, lower, upper, risk, observed, stops = [], [], [], [], [], [], []
    for i in range(len(levels)):
        # the curve runs over the leading bins with enough noisy records at risk
        good = at_risk[i] >= floor_n
        stop = n_bins if good.all() else int(np.argmin(good))
        if stop == 0:
            raise DisclosureError(
                f"{function}: {'the data' if levels[i] is None else f'hue level {levels[i]!r}'} "
                f"has too few noisy records at risk (fewer than {floor_n:.3g}, "
                f"{DP_MIN_AT_RISK_SDS:g} noise SDs) at the start of the grid at "
                f"epsilon={eps:g}: its curve would be noise. Use a larger epsilon or broader "
                "groups."
            )
        drops = np.flatnonzero(used[i][:stop] > 0)
        t_drop = edges[1:][drops]
        s_drop = guard.released_statistics(surv[i][drops], policy=policy)
        lo = guard.released_statistics(lower_all[i][drops], policy=policy)
        hi_ = guard.released_statistics(upper_all[i][drops], policy=policy)
        # rounding to significant figures keeps the order of the heights
        s_drop = np.minimum.accumulate(np.clip(s_drop, 0.0, 1.0)) if drops.size else s_drop
        t_stop = float(edges[stop])
        last = s_drop[-1] if drops.size else 1.0
        times.append(np.r_[0.0, t_drop, t_stop])
        survival.append(np.r_[1.0, s_drop, last])
        lower.append(np.r_[1.0, lo, lo[-1] if drops.size else 1.0])
        upper.append(np.r_[1.0, hi_, hi_[-1] if drops.size else 1.0])
        risk.append(np.round(at_risk[i][drops]))
        observed.append(np.round(used[i][drops]))
        stops.append(t_stop)
    t_max = max(stops)
    lim = safe_limits(0.0, t_max, np.array([]), margin=0.02)
    ticks = safe_ticks(lim[0], lim[1])
    table_times = ticks[(ticks >= 0) & (ticks <= t_max)]
    table = []
    for i in range(len(levels)):
        rows = np.full((3, table_times.size), np.nan)
        cum_e = np.r_[0.0, np.cumsum(np.maximum(ev_n[i], 0.0))]
        cum_c = np.r_[0.0, np.cumsum(np.maximum(ce_n[i], 0.0))]
        for j, t in enumerate(table_times):
            if t > stops[i]:
                continue
            # the bin whose start is the last edge at or before t
            b = min(int(np.searchsorted(edges, t, side="right")) - 1, n_bins - 1)
            rows[:, j] = np.round([at_risk[i][b], cum_c[b], cum_e[b]])
        table.append(rows)
    mech_name = (
        "discrete Laplace (OpenDP make_laplace)"
        if mech == "laplace"
        else "discrete Gaussian (OpenDP make_gaussian, zCDP converted to (epsilon, delta))"
    )
    # mechanism and delta are named for Gaussian releases only (Laplace: delta 0)
    params: dict[str, Any] = {"epsilon": eps}
    if mech != "laplace":
        params.update(mechanism=mech, delta=dlt)
    params |= {
        "bins": n_bins,
        "alpha": alpha,
    }
    details: dict[str, Any] = {
        "mechanism": f"{mech_name}, events and censorings per bin, sensitivity 1",
        "epsilon_counts": eps_counts,
        "noise_scale": noisy.scale,
        "noise_sd": round(noisy.sd, 3),
        "accuracy_95": noisy.accuracy,
        "grid_from": "a differentially private range estimate" if eps_range else "the call",
        "band": f"noise simulated with OpenDP ({DP_BAND_DRAWS} draws) and Greenwood's "
        "variance, both from the noisy counts",
        "budget_left": round(left, 6),
    }
    if eps_range:
        details["epsilon_range"] = eps_range
    warnings = [
        f"Differentially private survival curves (epsilon={eps:g}"
        + (f", delta={dlt:g}" if dlt else "")
        + f"): events and censorings per bin each +/- {noisy.accuracy} at 95%; each curve "
        f"stops where fewer than {floor_n:.3g} noisy records remain at risk."
    ]
    names = {
        "duration": name,
        "event": pdata.label("e"),
        "hue": pdata.label("hue") if "hue" in frame else None,
    }
    total = max(float(counts.sum()), 0.0)  # unclamped: the noise of empty cells cancels
    report = make_report(
        function,
        m.name,
        params,
        tuple(v for v in names.values() if v),
        round(float(total)),  # a sum of noisy counts: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        policy,
        details=details,
        warnings=warnings,
    )
    return SurvivalRelease(
        m.name,
        levels,
        times,
        survival,
        lower,
        upper,
        risk,
        observed,
        table_times,
        table,
        lim,
        ticks,
        False,
        alpha,
        report,
        names,
        [np.round(np.maximum([counts[i].sum(), ev_n[i].sum()], 0.0)) for i in range(len(levels))],
    )


@takes_method_options
def kmplot(
    data: Any = None,
    *,
    duration: Any = None,
    event: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    palette: Any = None,
    ci_show: bool = True,
    ci: float = 0.95,
    at_risk_counts: bool = False,
    legend: bool = True,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    bins: int = 40,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    annotate: bool | None = None,
    epsilon: float | None = None,
    mechanism: str = "laplace",
    delta: float | None = None,
    timeline: Sequence[float] | None = None,
    binrange: tuple[float, float] | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot Kaplan-Meier survival curves that show no event time, small count or longest follow-up.

    seaborn-style: long-form `data` with a duration and an event column,
    one curve per `hue` level, a legend, optional bands and at-risk table.
    The curves are released first (:func:`release_survival`) and only the
    release is drawn.

    Parameters
    ----------
    data : DataFrame, mapping or None
        Long-form data with the columns named by `duration`, `event`, `hue`.
    duration : name of a column in `data`, or a vector
        Time to the event or to censoring (zero or positive).
    event : name of a column in `data`, or a vector
        1 (or True) when the event was observed, 0 (False) when censored.
    hue : name of a column in `data`, or a vector, optional
        One curve per level; each needs `threshold` events.
    hue_order : list, optional
        Levels to show, in order.
    palette : palette name, list or dict, optional
        Colours of the levels, as in seaborn.
    ci_show : bool, default True
        Draw the confidence bands.
    ci : {0.99, 0.95, 0.9}, default 0.95
        Coverage of the bands (a menu: alpha = 1 - ci).
    at_risk_counts : bool, default False
        Add the at-risk table under the axes (rounded counts; "-" past the
        curve).
    legend : bool, default True
        Add a legend of the hue levels.
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (see Notes); default ``"suppress"``.
    threshold : int, optional
        Fewest events per hue level and records at risk; a higher threshold
        rounds counts more coarsely. Default and floor: the policy's.
    bins : {10, 20, 30, 40, 50}, default 40
        Most intervals of the time grid; every choice halves the same
        coarsest grid (10 intervals) a whole number of times.
    factor : {2, 4}, default 2
        ``"generalize"``: a grid `factor` times coarser.
    k, q
        Parameters of ``"deterministic"`` and ``"probabilistic"``.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    epsilon : float, optional
        ``method="dp"``: privacy loss of the release (default 1.0), spent
        from the policy's ``dp_budget``.
    mechanism : {"laplace", "gaussian"}, default "laplace"
        ``method="dp"``: the noise; ``"gaussian"`` needs `delta`.
    delta : float, optional
        ``method="dp"`` with ``mechanism="gaussian"``: the delta of
        (epsilon, delta)-DP, at most 1e-5, spent from ``dp_delta_budget``.
    timeline : sequence of float, optional
        ``method="dp"``: the edges of the time grid, fixed before the data
        is read (0 is added in front if missing).
    binrange : (low, high), optional
        ``method="dp"``: a grid of `bins` equal intervals over this range
        (from 0). With neither, the range is estimated with differential
        privacy (a quarter of epsilon).
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` (line width, style).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on, with the release's report as ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        A parameter below a policy floor, a hue level with fewer than
        `threshold` events, no events at all.
    ValueError
        Negative or non-numeric durations, a non-binary event, `ci`,
        `bins` or `factor` off their menus.

    See Also
    --------
    release_survival : The released curves alone.
    safeplot.survival.KaplanMeierFitter : The lifelines-style front end.
    ecdfplot : ``complementary=True`` draws a survival curve without censoring.

    Notes
    -----
    ``"suppress"`` (default)
        Records are counted on a regular time grid from 0 (nested across
        the `bins` and `factor` menus); the events so far and the records
        at risk at each edge are rounded, and the heights are the grouped
        Kaplan-Meier product of ``1 - events / at risk`` over the rounded
        counts, rounded to the policy's significant figures. A curve stops
        at the last edge before the end of follow-up with at least two
        rounding units of records at risk.
    ``"generalize"``
        As ``"suppress"`` on a grid `factor` times coarser.
    ``"deterministic"``, ``"probabilistic"``
        Durations anonymised within each event status and hue level (kNN
        centroids of `k`, keyed noise of `q`), then grouped as above.
    ``"confidential"``
        O'Keefe: durations winsorised at mean +/- 2.6 SD per level, the
        grouped curve drawn as a smooth line through its rounded heights.
    ``"dp"``
        Differential privacy: the events and the censorings in each bin of
        a grid fixed before the data is read (`timeline`, `binrange`, or a
        DP range estimate) get OpenDP noise (Laplace, or Gaussian with
        `delta`); one record is in one bin's event or censoring count, so
        the joint vector has sensitivity 1. The records at risk and the
        product-limit curve are computed from the noisy counts alone, so
        the curve is non-increasing and in [0, 1]. The band adds the noise,
        simulated from OpenDP draws about the released counts, to
        Greenwood's variance. Hue levels come from ``hue_order``. A curve
        stops where fewer noisy records than four noise SDs remain at risk.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from lifelines.datasets import load_rossi
    >>> fig, ax = plt.subplots()
    >>> ax = kmplot(load_rossi(), duration="week", event="arrest", hue="fin", ax=ax)
    >>> ax.safeplot_report.method
    'suppress'

    A differentially private curve on a public weekly grid:

    >>> ax = kmplot(load_rossi(), duration="week", event="arrest", method="dp",
    ...             epsilon=1.0, binrange=(0, 52), bins=20, ax=ax)
    >>> ax.safeplot_report.params["epsilon"]
    1.0
    """
    ci_menu = tuple(round(1 - a, 2) for a in ALPHA_MENU)
    level = guard.from_menu("ci", ci, ci_menu, what="confidence bands")
    alpha = ALPHA_MENU[ci_menu.index(level)]
    pol = get_policy()
    rel = release_survival(
        data,
        duration=duration,
        event=event,
        hue=hue,
        hue_order=hue_order,
        method=method,
        threshold=threshold,
        bins=bins,
        factor=factor,
        k=k,
        q=q,
        alpha=alpha,
        policy=pol,
        epsilon=epsilon,
        mechanism=mechanism,
        delta=delta,
        timeline=timeline,
        binrange=binrange,
    )
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    draw_survival(
        ax,
        rel,
        palette=palette,
        ci_show=ci_show,
        at_risk_counts=at_risk_counts,
        legend=legend,
        **kwargs,
    )
    return finish(ax, rel.report, annotate=annotate, policy=pol, released=rel.frame())
