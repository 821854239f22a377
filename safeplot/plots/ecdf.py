"""Empirical cumulative distribution plots (seaborn's ``ecdfplot``) under disclosure control.

The ECDF of raw data has a step at every value: it shows each record (the
first step is the minimum, the last the maximum). :func:`ecdfplot`
releases the steps instead (:func:`release_ecdf`):

- ``"suppress"``/``"generalize"``: the cumulative counts of the suppressed
  histogram, one step per shown bin at its upper edge on the safe grid;
- value methods: the ECDF of the released (anonymised) values, steps at
  rare raw values moved off them;
- ``"confidential"``: a step function through rounded quantiles of the
  winsorised values, each step covering at least ``threshold`` records.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FuncFormatter, NullFormatter

from .._validate import clean_numeric
from ..anonymize import winsorize
from ..anonymize.grids import rare_values, safe_ticks
from ..errors import DisclosureError
from ..marks._axes import LEFT_OUT_GID, note_below
from ..methods import anonymize_values, available_methods, check_family, get_method
from ..policy import Policy, get_policy
from ..release import DisclosureReport, guard, release_kind
from ._categories import log_axis, log_base
from ._common import (
    LEFT_OUT_NOTE,
    axes_for,
    axis_from_range,
    finish,
    make_report,
    quiet_seaborn,
    set_safe_axis,
    takes_method_options,
)
from ._data import (
    categorical_order,
    facet_codes,
    plot_data,
    refuse_empty_facets,
    rows_without_level,
)
from .distributions import release_histograms

__all__ = ["ECDF_METHODS", "EcdfRelease", "draw_ecdf", "ecdf_panels", "ecdfplot", "release_ecdf"]

#: Families of methods (:attr:`~safeplot.methods.Method.family`) an ECDF releases.
_ECDF_FAMILIES = ("counts", "values", "rules", "raw")
#: Methods :func:`ecdfplot` supports.
ECDF_METHODS = tuple(m.name for m in available_methods() if m.family in _ECDF_FAMILIES)
#: Most steps of a ``"confidential"`` ECDF (quantiles at 1/40, 2/40, ..., 1).
CONFIDENTIAL_STEPS = 40
_STATS = ("proportion", "percent", "count")


@release_kind("ecdf")
@dataclass
class EcdfRelease:
    """A released ECDF: per hue level, the step positions and their weights.

    Attributes
    ----------
    method : str
    levels : list
        The hue levels (``[None]`` without hue).
    positions : list of ndarray
        Per level, where the steps are (bin edges, released values or
        rounded quantiles).
    weights : list of ndarray
        Per level, the height of each step in records (shown bin counts, 1
        per released value, or records per quantile step).
    value_lim : tuple of float or None
        Limits of the value axis (None: raw output only).
    value_ticks : ndarray or None
    report : DisclosureReport
    var : str
        The axis of the values, "x" or "y".
    band : list of ndarray, optional
        ``method="dp"``: per level, the 95% half-width of the cumulative
        count after each step (the noise of the counts summed so far);
        None for the other methods.
    """

    method: str
    levels: list[Any]
    positions: list[np.ndarray]
    weights: list[np.ndarray]
    value_lim: tuple[float, float] | None
    value_ticks: np.ndarray | None
    report: DisclosureReport
    var: str = "x"
    names: dict[str, str | None] = field(default_factory=dict)
    hue_dtype: Any = None
    band: list[np.ndarray] | None = None

    def curve(self, level: Any = None, stat: str = "proportion") -> tuple[np.ndarray, np.ndarray]:
        """Return the step positions and the ECDF after each step for one hue level.

        Examples
        --------
        >>> import safeplot
        >>> rel = release_ecdf(safeplot.load_dataset("tips"), x="total_bill", bins=10)
        >>> pos, ecdf = rel.curve()
        >>> pos[:3].tolist(), ecdf[:3].round(3).tolist()
        ([11.25, 16.25, 21.25], [0.132, 0.397, 0.669])
        """
        i = self.levels.index(level)
        order = np.argsort(self.positions[i], kind="stable")
        pos, w = self.positions[i][order], self.weights[i][order]
        cum = np.cumsum(w)
        if stat == "proportion":
            cum = cum / cum[-1]
        elif stat == "percent":
            cum = 100 * cum / cum[-1]
        return pos, cum


def release_ecdf(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    log_scale: Any = None,
    method: str | None = None,
    threshold: int | None = None,
    bins: int | str = "auto",
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
    epsilon: float | None = None,
    binrange: tuple[float, float] | None = None,
) -> EcdfRelease:
    """Release the steps of an ECDF under a disclosure-control method.

    Parameters
    ----------
    data, x, y, hue, hue_order, log_scale
        As in :func:`ecdfplot`.
    method : str, optional
        Default: the policy's method for histograms (``"suppress"``).
    threshold : int, optional
        Minimum count of a shown bin / records per step (default and floor:
        the policy's).
    bins, factor
        Bins of the histogram behind ``"suppress"``/``"generalize"``.
    k, q
        Parameters of the value methods.
    policy : Policy, optional
        The policy in force (default: :func:`safeplot.get_policy`).
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` release (default 1.0).
    binrange : (float, float), optional
        ``method="dp"``: the span of the fixed grid of bins (else a quarter
        of epsilon is spent on a differentially private range estimate).

    Returns
    -------
    EcdfRelease

    Raises
    ------
    DisclosureError
        A parameter below a policy floor, a hue level with fewer than
        `threshold` records under a method other than ``"suppress"`` and
        ``"generalize"`` (which leave it out, see :func:`ecdfplot`), or
        nothing left to show.
    ValueError
        Both `x` and `y`, no variable, bad values.

    Examples
    --------
    >>> import safeplot
    >>> rel = release_ecdf(safeplot.load_dataset("penguins"), x="body_mass_g", hue="sex")
    >>> rel.levels, rel.method
    (['Male', 'Female'], 'suppress')
    """
    return ecdf_panels(
        data,
        x=x,
        y=y,
        hue=hue,
        hue_order=hue_order,
        log_scale=log_scale,
        method=method,
        threshold=threshold,
        bins=bins,
        factor=factor,
        k=k,
        q=q,
        policy=policy,
        epsilon=epsilon,
        binrange=binrange,
    )[()]


def ecdf_panels(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    hue_order: Sequence[Any] | None = None,
    facets: Sequence[Any] = (),
    log_scale: Any = None,
    method: str | None = None,
    threshold: int | None = None,
    bins: int | str = "auto",
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    policy: Policy | None = None,
    epsilon: float | None = None,
    binrange: tuple[float, float] | None = None,
    function: str = "ecdfplot",
) -> dict[tuple, EcdfRelease]:
    """Release the ECDFs of every facet of a figure together, before any is drawn.

    As :func:`release_ecdf`, for the records of each facet (each
    combination of the `facets` columns' values). Under ``"suppress"`` and
    ``"generalize"`` the steps are the shown counts of one histogram of the
    figure's records split by facet and hue level (one set of bins), which
    the release ledger links to the whole, to each facet alone and to each
    hue level (:func:`safeplot.release.guard.link_levels`); the value
    methods treat each facet as a stratum; ``"confidential"`` takes the
    quantiles of each facet and level.

    Parameters
    ----------
    data, x, y, hue, hue_order, log_scale, method, threshold, bins, factor, k, q, policy
        As in :func:`release_ecdf`.
    facets : sequence of column names of `data`, optional
        The variables whose levels make the panels (``row``, ``col``).
    epsilon, binrange
        ``method="dp"`` only, without facets (each facet of a private ECDF
        is a release of its own).
    function : str
        The public function making the release, for its report.

    Returns
    -------
    dict
        Facet key (tuple of its `facets` values; ``()`` without facets) ->
        :class:`EcdfRelease`, for every facet with records.

    Examples
    --------
    >>> import safeplot
    >>> tips = safeplot.load_dataset("tips")
    >>> panels = ecdf_panels(tips, x="total_bill", facets=["time"], bins=10)
    >>> sorted(panels), panels[("Lunch",)].method
    ([('Dinner',), ('Lunch',)], 'suppress')
    """
    pol = get_policy(policy)
    m = check_family(pol.check_method(method, "hist"), (*_ECDF_FAMILIES, "private"), "ECDF plots")
    method = m.name
    facets = list(facets)
    if m.private:
        if facets:
            raise ValueError(
                f"{function}: the facets of a method='dp' ECDF are released one at a time "
                "(each spends its own epsilon); call release_ecdf per facet."
            )
        from ._dp import dp_hue_levels

        dp_hue_levels("ecdfplot", hue, hue_order)
    if not m.private and (epsilon is not None or binrange is not None):
        which = "epsilon=" if epsilon is not None else "binrange="
        raise ValueError(
            f"ecdfplot: {which} applies to method='dp' (the privacy loss, the fixed grid of "
            f"bins); method={method!r} takes neither."
        )
    threshold = pol.check_threshold(threshold)
    if m.uses_k:
        k = pol.check_k(k)
    if m.adds_noise:
        q = pol.check_q(q)
    if isinstance(data, (pd.Series, np.ndarray, list, tuple)) and x is None and y is None:
        x, data = data, None
    if x is not None and y is not None:
        raise ValueError(
            "ecdfplot: an ECDF describes one variable; give x= (or y= for a horizontal one), "
            "not both. For two variables use safeplot.histplot(x=..., y=...)."
        )
    if x is None and y is None:
        raise ValueError(
            "ecdfplot: nothing to plot. Give data= with x= naming a numeric column (wide-form "
            "data is not supported: name the column, and use hue= for groups)."
        )
    var = "x" if x is not None else "y"
    roles = {var: x if var == "x" else y, "hue": hue}
    roles.update({f"facet {i}": name for i, name in enumerate(facets)})
    pdata = plot_data(data, roles, function=function)
    frame = pdata.frame
    # a record with its value (and hue) is in the figure without facets; one in no facet or of
    # a level not drawn is counted there too, so the ledger links it as a hidden level
    missing = frame[[c for c in (var, "hue") if c in frame]].isna().any(axis=1).to_numpy()
    # validation only: clear errors for text, booleans, dates, inf, all-missing, constant
    clean_numeric(pd.DataFrame({pdata.label(var): frame[var]}))
    values = pd.to_numeric(frame[var], errors="coerce").to_numpy(dtype=float)
    keep = ~missing
    base = log_base(log_scale if not isinstance(log_scale, (tuple, list)) else None)
    if isinstance(log_scale, (tuple, list)):
        x_log, y_log = log_scale
        if (y_log if var == "x" else x_log) not in (None, False):
            raise ValueError(
                "ecdfplot: a log scale on the axis of the cumulative share is not supported; "
                "give log_scale for the value axis only."
            )
        base = log_base(x_log if var == "x" else y_log)
    levels: list[Any] = [None]
    codes = np.zeros(values.size, dtype=int)
    hue_dtype = None
    if "hue" in frame:
        levels = categorical_order(frame["hue"], hue_order)
        lookup = {lev: i for i, lev in enumerate(levels)}
        codes = frame["hue"].map(lambda v: lookup.get(v, -1)).to_numpy(dtype=int)
        keep &= codes >= 0
        hue_dtype = frame["hue"].dtype
    fcodes, keys, dims = facet_codes(frame, [f"facet {i}" for i in range(len(facets))])
    keep &= fcodes >= 0
    dropped = np.bincount(fcodes[missing & (fcodes >= 0)], minlength=len(keys))
    present = ~missing
    # every record of the figure without facets or hue_order, for the ledger: its value, its
    # facet, its level of each facet variable and its hue level (-1 where not drawn)
    every = (values[present], fcodes[present], [c[present] for c, _ in dims], codes[present])
    # a record with its value but no hue is in the figure without hue: linked, never drawn
    no_hue = rows_without_level(frame, [var], ["hue"] if "hue" in frame else [])
    unlabelled = guard.Unlabelled.select(values, no_hue, dims, facets)
    row_facets = fcodes
    values, codes, fcodes = values[keep], codes[keep], fcodes[keep]
    if values.size == 0:
        if present.any() and "hue" in frame and not (codes >= 0).any():
            raise ValueError(
                f"ecdfplot: no records to plot: hue_order={list(hue_order or [])!r} names no "
                "level of the data. Name levels that occur, or leave hue_order out."
            )
        raise ValueError("ecdfplot: no records to plot (every row has a missing value).")
    if facets:
        refuse_empty_facets(row_facets, fcodes, keys, facets, pdata.label(var), function)
    if base is not None and (every[0] <= 0).any():
        raise ValueError(
            "ecdfplot: log_scale needs positive values, but the variable has zero or negative "
            "values. Drop log_scale, or plot a shifted or transformed variable."
        )
    name = pdata.label(var)
    names = {"value": name, "hue": pdata.label("hue") if "hue" in frame else None}
    if m.private:
        if base is not None:
            raise ValueError(
                "ecdfplot: log_scale is not supported with method='dp' (its bins are fixed on "
                "the variable's own scale); plot the logarithm of the variable instead."
            )
        return {
            (): _release_private_ecdf(
                values, codes, levels, name, names, var, hue_dtype, bins, binrange, epsilon, pol
            )
        }
    n_levels, n_facets = len(levels), len(keys)
    combos = fcodes * n_levels + codes  # level h of facet f
    panel_of = [list(range(f * n_levels, (f + 1) * n_levels)) for f in range(n_facets)]
    facet_sizes = np.bincount(fcodes, minlength=n_facets)  # the rows kept are in a facet

    def report_of(f: int, params: dict, cells: int = 0, details=None, warnings=None):
        return make_report(
            function,
            method,
            params,
            (name,),
            int(facet_sizes[f]),
            int(dropped[f]) if facets else int(missing.sum()),
            pol,
            cells_suppressed=cells,
            details=details,
            warnings=warnings,
        )

    if m.raw:
        return {
            key: EcdfRelease(
                method,
                levels,
                [values[combos == i] for i in panel_of[f]],
                [np.ones(int((combos == i).sum())) for i in panel_of[f]],
                None,
                None,
                report_of(f, {}),
                var,
                names,
                hue_dtype,
            )
            for f, key in enumerate(keys)
            if facet_sizes[f]
        }
    sizes = np.bincount(combos, minlength=n_levels * n_facets)
    small = [repr(levels[i % n_levels]) for i in np.flatnonzero((sizes > 0) & (sizes < threshold))]
    groups = None
    if small and guard.small_group_rule(m, "counts").leave_out:
        # the steps are the shown counts of a histogram, linked by the release ledger as a
        # histogram's are: the level left out is a level of hidden bins (release_histograms)
        groups = guard.shown_groups(
            sizes, threshold, f"threshold={threshold}", function=function, what="hue level"
        )
    elif small:
        raise DisclosureError(
            f"ecdfplot: hue level(s) {', '.join(dict.fromkeys(small))} have fewer than "
            f"threshold={threshold} records; their ECDF would show each of them, and under "
            f"method={method!r} they cannot be left out (the other levels' steps are not "
            "linked by the release ledger, so an ECDF of all records would give theirs "
            "away). Merge them with other levels, or use method='suppress' (which leaves "
            "them out)."
        )
    # values rare overall and within a level of a facet are avoided (a value rare within a
    # facet is rare within each of its levels there)
    pools = [rare_values(values, threshold)]
    pools += [rare_values(values[combos == i], threshold) for i in range(n_levels * n_facets)]
    avoid = np.unique(np.concatenate(pools))
    work = np.log(values) / math.log(base) if base is not None else values
    scale = float(np.std(work)) or 1.0
    params: dict[str, Any] = {"threshold": threshold}
    details: dict[str, Any] = {}
    positions: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    cells = np.zeros(n_levels * n_facets, dtype=int)
    if m.counts_only:
        all_values, all_facets, all_dims, all_levels = every
        all_combos = np.where(
            (all_facets >= 0) & (all_levels >= 0), all_facets * n_levels + all_levels, -1
        )
        table = guard.FacetTable(
            [(c, n, tag) for c, (_, n), tag in zip(all_dims, dims, facets, strict=True)],
            all_levels,
        )
        rels = release_histograms(
            np.log(all_values) / math.log(base) if base is not None else all_values,
            levels=all_combos,
            level_names=levels * n_facets,
            name=name,
            method=method,
            bins=bins,
            centres_drawn=False,
            threshold=threshold,
            factor=factor,
            function=function,
            policy=pol,
            leave_out=True,
            partition=names["hue"] if n_levels > 1 else None,
            facets=table if facets else None,
            log=(base, all_values) if base is not None else None,
            unlabelled=unlabelled if no_hue.any() else None,
        )
        params.update(next(r for r in rels if r is not None).report.params)
        for i, r in enumerate(rels):
            if r is None:  # a level left out: no steps
                positions.append(np.array([]))
                weights.append(np.array([]))
                continue
            shown = np.nan_to_num(r.counts) > 0
            positions.append(r.edges[1:][shown])
            weights.append(guard.released_counts(r.counts[shown], threshold, what="bin"))
            cells[i] = r.report.cells_suppressed
    elif m.rule_based:
        params.update(winsor_sd=pol.winsor_sd, sig=pol.sig_figs)
        n_wins = 0
        # the quantiles are rounded where they are computed (on the log scale for a log axis)
        avoid_work = avoid if base is None else np.log(avoid[avoid > 0]) / math.log(base)
        for i in range(n_levels * n_facets):
            v = work[combos == i]
            if v.size == 0:
                positions.append(np.array([]))
                weights.append(np.array([]))
                continue
            w = winsorize(v, policy=pol)
            n_wins += w.n_winsorized
            steps = int(min(CONFIDENTIAL_STEPS, v.size // threshold))
            probs = np.arange(1, steps + 1) / steps
            qs = np.quantile(w.values, probs)
            positions.append(guard.released_statistics(qs, avoid_work, policy=pol))
            # records per step: a statistic of the level's size, rounded as the others
            weights.append(guard.released_statistics(np.full(steps, v.size / steps), policy=pol))
        details["values_winsorised"] = pol.round_count(n_wins)
    else:
        if m.groups_within_strata:
            # groups are formed within each hue level: a level needs enough records for one
            fewest, why = m.group_floor(pol, k)
            thin = np.flatnonzero((sizes > 0) & (sizes < fewest))
            if thin.size:
                named = ", ".join(dict.fromkeys(repr(levels[i % n_levels]) for i in thin))
                raise DisclosureError(
                    f"ecdfplot: method={method!r} with k={k} needs at least {fewest} records "
                    f"({why}) in every hue level; {named} have fewer."
                )
        out = anonymize_values(
            work, method, names=[name], k=k, q=q, strata=combos, threshold=threshold, policy=pol
        )
        params.update(out.params)
        details.update(out.details)
        for i in range(n_levels * n_facets):
            released = out.values[combos == i, 0]
            positions.append(released)
            weights.append(np.ones(released.size))
    if base is not None:
        positions = [base**p for p in positions]
    positions = [
        guard.released_values(p, avoid, scale if base is None else 1.0) for p in positions
    ]
    panels = {}
    for f, key in enumerate(keys):
        own = panel_of[f]
        if not facet_sizes[f]:
            continue
        drawn = [positions[i] for i in own if positions[i].size]
        if not drawn:
            raise DisclosureError(
                f"{function}: nothing to show in the facet "
                f"{dict(zip(facets, key, strict=True))}: every hue level has too few records."
            )
        drawn = np.concatenate(drawn)
        lo, hi = float(drawn.min()), float(drawn.max())
        if base is not None:
            lim, ticks = log_axis(lo, hi, avoid, base)
        else:
            lim, ticks = axis_from_range(lo, hi, avoid)
        shown_levels, shown_pos, shown_w = (
            levels,
            [positions[i] for i in own],
            [weights[i] for i in own],
        )
        panel_details = dict(details)
        warnings: list[str] = []
        n_cells = int(cells[own].sum())
        if n_cells:
            warnings.append(
                f"{n_cells} bin(s) below the threshold are left out of the cumulative counts; "
                "the ECDF is that of the records in shown bins."
            )
        gone = (sizes[own] > 0) & ~groups.shown[own] if groups is not None else None
        if gone is not None and gone.any():
            # not drawn, and not named unless the caller named it (the report counts its records)
            panel_details["groups_left_out"] = int(gone.sum())
            warnings.append(dataclasses.replace(groups, left_out=int(gone.sum())).warning)
            kept = [not gone[i] or hue_order is not None for i in range(n_levels)]
            shown_levels = [lev for lev, ok in zip(levels, kept, strict=True) if ok]
            shown_pos = [p for p, ok in zip(shown_pos, kept, strict=True) if ok]
            shown_w = [w for w, ok in zip(shown_w, kept, strict=True) if ok]
        report = report_of(f, params, n_cells, panel_details, warnings)
        panels[key] = EcdfRelease(
            method, shown_levels, shown_pos, shown_w, lim, ticks, report, var, names, hue_dtype
        )
    return panels


def _release_private_ecdf(
    values: np.ndarray,
    codes: np.ndarray,
    levels: list[Any],
    name: str,
    names: dict[str, str | None],
    var: str,
    hue_dtype: Any,
    bins: Any,
    binrange: tuple[float, float] | None,
    epsilon: float | None,
    pol: Policy,
) -> EcdfRelease:
    """Release a DP ECDF: the cumulative sum of DP counts on a fixed grid of bins.

    The counts are those of a ``method="dp"`` histogram (OpenDP's discrete
    Laplace noise, negative counts set to 0, edges fixed by the call or a
    DP range estimate); the steps are at the bins' upper edges. Counts that
    are never negative sum to a non-decreasing curve, and dividing by their
    total keeps it in [0, 1]: everything after the noisy counts is
    post-processing. The band is the 95% half-width of each cumulative count.
    """
    from ..anonymize import dp as dpnum
    from ._dp import dp_epsilon
    from .distributions import private_bin_counts

    # the levels are the call's (dp_hue_levels): each is drawn whatever its count
    eps = dp_epsilon(get_method("dp"), epsilon)
    edges, noisy, details = private_bin_counts(
        values,
        codes,
        len(levels),
        epsilon=eps,
        bins=bins,
        binrange=binrange,
        clamp=False,
        function="ecdfplot",
    )
    # post-processing of the raw noisy counts: a monotone cumulative sum within [0, total];
    # its steps are the heights seaborn sums again, none negative
    cum = dpnum.cumulative_counts(noisy.counts)
    steps = np.diff(np.concatenate([np.zeros((cum.shape[0], 1)), cum], axis=1), axis=1)
    band = dpnum.cumulative_accuracy(float(details["epsilon_counts"]), edges.size - 1)
    report = make_report(
        "ecdfplot",
        "dp",
        {"epsilon": eps},
        (name,),
        round(float(cum[:, -1].sum())),  # the noisy totals: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        pol,
        details=details,
        warnings=[
            f"Differentially private ECDF (epsilon={eps:g}): the cumulative sum of noisy "
            f"counts (each +/- {noisy.accuracy} at 95%), made monotone, within [0, total], "
            "divided by the noisy total; the band is the 95% interval of each cumulative count."
        ],
    )
    lim = (float(edges[0]), float(edges[-1]))
    return EcdfRelease(
        "dp",
        levels,
        [edges[1:].copy() for _ in levels],
        [steps[i] for i in range(len(levels))],
        lim,
        safe_ticks(*lim),
        report,
        var,
        names,
        hue_dtype,
        band=[band.copy() for _ in levels],
    )


def _draw_ecdf_band(ax: Axes, rel: EcdfRelease, stat: str, complementary: bool) -> None:
    """Shade each level's 95% band around a DP ECDF, in the colour of its line."""
    from ..anonymize.dp import cumulative_counts
    from ..marks.bars import DP_ERRORS_GID

    lines = [ln for ln in ax.lines if ln.get_gid() != DP_ERRORS_GID]
    for pos, counts, half in zip(rel.positions, rel.weights, rel.band or [], strict=False):
        cum = cumulative_counts(counts)
        total = float(cum[-1]) if cum.size else 0.0
        if total <= 0:
            continue
        scale = {"proportion": 1.0 / total, "percent": 100.0 / total, "count": 1.0}[stat]
        top = {"proportion": 1.0, "percent": 100.0, "count": total}[stat]
        curve = cum * scale
        low = np.clip((cum - half) * scale, 0.0, top)
        high = np.clip((cum + half) * scale, 0.0, top)
        if complementary:
            curve, low, high = top - curve, top - high, top - low
        colour = "0.4"
        for ln in lines:  # the line seaborn drew for this level: its steps are these values
            ys = np.asarray(ln.get_ydata() if rel.var == "x" else ln.get_xdata(), dtype=float)
            if ys.size and np.isin(np.round(curve, 9), np.round(ys, 9)).all():
                colour = ln.get_color()
                break
        x = np.r_[pos[0] - (pos[1] - pos[0]) if pos.size > 1 else pos[0], pos]
        start = top if complementary else 0.0
        lo, hi = np.r_[start, low], np.r_[start, high]
        if rel.var == "x":
            patch = ax.fill_between(x, lo, hi, step="post", color=colour, alpha=0.2, lw=0)
        else:
            patch = ax.fill_betweenx(x, lo, hi, step="post", color=colour, alpha=0.2, lw=0)
        patch.set_gid(DP_ERRORS_GID)


@takes_method_options
def ecdfplot(
    data: Any = None,
    *,
    x: Any = None,
    y: Any = None,
    hue: Any = None,
    weights: Any = None,
    stat: str = "proportion",
    complementary: bool = False,
    palette: Any = None,
    hue_order: Sequence[Any] | None = None,
    hue_norm: Any = None,
    log_scale: Any = None,
    legend: bool = True,
    ax: Axes | None = None,
    method: str | None = None,
    threshold: int | None = None,
    bins: int | str = "auto",
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    algorithm: str = "mdav_multivariate",
    c: int | str = 10,
    discretizer: str = "ewd",
    annotate: bool | None = None,
    epsilon: float | None = None,
    binrange: tuple[float, float] | None = None,
    **kwargs: Any,
) -> Axes:
    """Plot an empirical cumulative distribution whose steps disclose no individual value.

    The arguments are those of :func:`seaborn.ecdfplot`, plus the
    disclosure-control parameters. The steps are released under `method`
    first (:func:`release_ecdf`) and seaborn draws only the release.

    Parameters
    ----------
    data : DataFrame, mapping, vector or None
        Long-form data with the variables named by `x`/`y` and `hue`, or
        the values themselves.
    x, y : name of a column in `data`, or a vector
        The variable: `x` for the usual ECDF, `y` for a horizontal one.
    hue : name of a column in `data`, or a vector, optional
        One ECDF per level. Under ``"suppress"`` and ``"generalize"`` a
        level with fewer than `threshold` records is left out, with a note
        under the Axes that names no level: its steps are the counts of a
        histogram's bins, which the release ledger links as it links a
        histogram's (the level left out is a level of hidden bins), so an
        ECDF or histogram of the same records without `hue` cannot give its
        counts away, with ``stat="count"`` or another. Under the other
        methods such a level is refused.
    weights : optional
        Only with ``method="none"``: a weighted ECDF of a few heavy records
        would show them.
    stat : {"proportion", "percent", "count"}, default "proportion"
        Unit of the cumulative axis.
    complementary : bool, default False
        Plot 1 - ECDF (the survival function).
    palette, hue_order, hue_norm, legend
        As in seaborn.
    log_scale : bool or number, or pair, optional
        Log scale of the value axis (bins and quantiles on the log scale).
    ax : Axes, optional
        Axes to draw on (default: the current Axes).
    method : str, optional
        Disclosure-control method (see Notes). Default: the policy's method
        for histograms, ``"suppress"``.
    threshold : int, optional
        Minimum count of a shown bin and of a hue level. Default and floor:
        the policy's.
    bins : int or str, default "auto"
        Bins of the histogram behind ``"suppress"`` and ``"generalize"``.
    factor : int, default 2
        Bin-width multiplier of ``"generalize"``.
    k, q, algorithm, c, discretizer
        Parameters of ``"deterministic"``, ``"probabilistic"``,
        ``"microaggregation"`` and ``"rounding"``.
    annotate : bool, optional
        Add the method note (default: the policy's setting).
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` ECDF (default 1.0), spent from the
        policy's ``dp_budget``.
    binrange : (float, float), optional
        ``method="dp"``: the span of the fixed grid of `bins` (20 bins for
        "auto"); without it a quarter of epsilon is spent on a
        differentially private range estimate.
    **kwargs
        Passed to :meth:`matplotlib.axes.Axes.plot` via seaborn.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on, with the release's report as ``.safeplot_report``.

    Raises
    ------
    DisclosureError
        A parameter below a policy floor, a small hue level, nothing left to
        show, ``method="none"`` when the policy forbids raw output.
    ValueError
        `weights` under a disclosure-control method, both `x` and `y`, an
        unknown `stat`, bad values.

    See Also
    --------
    histplot : The suppressed histogram behind the default ECDF.
    kdeplot : A density of released values.
    release_ecdf : The released steps alone.
    seaborn.ecdfplot : The raw-data function this mirrors.

    Notes
    -----
    Methods. What each method releases:

    ``"suppress"`` (default)
        The histogram on a safe grid of `bins`, bins with a count in
        ``(0, threshold)`` suppressed; the ECDF steps up by each shown bin's
        count at its upper edge. At every edge the curve is the share of the
        records in shown bins that lie below it. Suppressed records are left
        out of the total.
    ``"generalize"``
        As ``"suppress"`` with bins `factor` times wider.
    ``"deterministic"``, ``"probabilistic"``, ``"microaggregation"``, ``"rounding"``
        The ECDF of the released values (kNN centroids within each hue
        level, keyed noise, group means, representative values); a step at a
        rare raw value is moved off it by an invisible amount.
    ``"confidential"``
        O'Keefe: the values are winsorised at mean +/- 2.6 SD and the ECDF is
        a step function through their quantiles at 1/m, 2/m, ..., 1 (m = 40,
        or fewer so that each step covers at least `threshold` records),
        rounded to the policy's significant figures.
    ``"none"``
        seaborn's raw ECDF, only when the policy allows raw output.
    ``"dp"``
        Differential privacy: the counts of a grid of bins fixed before the
        data is read (`binrange` and `bins`, or a DP range estimate) get
        OpenDP's discrete Laplace noise of scale 1/epsilon and are set to 0
        where negative. The ECDF is their cumulative sum, monotone by
        construction, divided by the noisy total, so it lies in [0, 1]
        (in [0, n] for ``stat="count"``, n the noisy total). A band shows
        the 95% interval of each cumulative count (the noise of the j
        counts summed so far). Post-processing only: no further privacy
        is spent.

    The value axis gets limits and ticks that equal no rare raw value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> fig, ax = plt.subplots()
    >>> ax = ecdfplot(penguins, x="flipper_length_mm", hue="species", ax=ax)
    >>> ax.safeplot_report.method
    'suppress'

    A differentially private ECDF on 20 bins between 150 and 250 mm:

    >>> ax = ecdfplot(penguins, x="flipper_length_mm", method="dp", epsilon=0.5,
    ...               binrange=(150, 250))
    >>> ax.safeplot_report.params["epsilon"]
    0.5
    """
    if stat not in _STATS:
        raise ValueError(f"ecdfplot: stat must be one of {list(_STATS)}, got {stat!r}.")
    pol = get_policy()
    chosen = pol.check_method(method, "hist")
    if weights is not None and not get_method(chosen).raw:
        raise ValueError(
            "ecdfplot: weights= gives records their own step heights, and a few heavy records "
            "would show in the curve. Drop weights (or aggregate the data first)."
        )
    rel = release_ecdf(
        data,
        x=x,
        y=y,
        hue=hue,
        hue_order=hue_order,
        log_scale=log_scale,
        method=chosen,
        threshold=threshold,
        bins=bins,
        factor=factor,
        k=k,
        q=q,
        policy=pol,
        epsilon=epsilon,
        binrange=binrange,
    )
    ax = axes_for(ax, rel.report, rel)  # only now: a refused release leaves no figure behind
    style = dict(
        stat=stat,
        complementary=complementary,
        palette=palette,
        hue_norm=hue_norm,
        log_scale=log_scale,
        legend=legend,
    )
    if get_method(rel.method).raw:
        import seaborn as sns

        with quiet_seaborn():
            sns.ecdfplot(
                data,
                x=x,
                y=y,
                hue=hue,
                weights=weights,
                hue_order=hue_order,
                ax=ax,
                **style,
                **kwargs,
            )
        return finish(ax, rel.report, annotate=annotate, policy=pol)
    return draw_ecdf(ax, rel, annotate=annotate, policy=pol, **style, **kwargs)


def draw_ecdf(
    ax: Axes,
    rel: EcdfRelease,
    *,
    stat: str = "proportion",
    complementary: bool = False,
    palette: Any = None,
    hue_norm: Any = None,
    log_scale: Any = None,
    legend: bool = True,
    annotate: bool | None = None,
    policy: Policy | None = None,
    **kwargs: Any,
) -> Axes:
    """Draw a released ECDF (:func:`release_ecdf`, :func:`ecdf_panels`) as seaborn draws one.

    Only the release's steps reach seaborn: each step's position weighted
    by its released height, on the release's axis limits and ticks.

    Returns
    -------
    Axes
        With the release's report on ``ax.safeplot_report``.
    """
    import seaborn as sns

    pol = get_policy(policy)
    style = dict(
        stat=stat,
        complementary=complementary,
        palette=palette,
        hue_norm=hue_norm,
        log_scale=log_scale,
        legend=legend,
        ax=ax,
    )
    pos = np.concatenate(rel.positions)
    wts = np.concatenate(rel.weights)
    frame = pd.DataFrame({"value": pos, "weight": wts})
    hue_var = None
    hue_levels = None
    if rel.levels != [None]:
        # every level in order, drawn or not: a level with no steps keeps its colour slot, so
        # colours agree between facets and figures that lack a level
        hue_levels = list(rel.levels)
        lab = np.repeat(np.array(rel.levels, dtype=object), [p.size for p in rel.positions])
        hue_var = rel.names["hue"] or "hue"
        frame[hue_var] = lab
        if isinstance(rel.hue_dtype, pd.CategoricalDtype):
            frame[hue_var] = frame[hue_var].astype(object)
    value_name = rel.names["value"] or rel.var
    frame = frame.rename(columns={"value": value_name})
    with quiet_seaborn():
        sns.ecdfplot(
            frame,
            **{rel.var: value_name},
            hue=hue_var,
            weights="weight",
            hue_order=hue_levels,
            **style,
            **kwargs,
        )
    if rel.band is not None:
        _draw_ecdf_band(ax, rel, stat, complementary)
    set_safe_axis(ax, rel.var, rel.value_lim, rel.value_ticks)
    axis = ax.xaxis if rel.var == "x" else ax.yaxis
    if axis.get_scale() == "log":
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_formatter(NullFormatter())
    if rel.report.details.get("groups_left_out"):
        note_below(ax, LEFT_OUT_NOTE, LEFT_OUT_GID)
    return finish(ax, rel.report, annotate=annotate, policy=pol)
