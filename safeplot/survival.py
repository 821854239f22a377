"""Survival analysis for lifelines users, releasing only safe numbers.

The names and arguments follow :mod:`lifelines`, so that code written for
lifelines needs little change:

- :class:`KaplanMeierFitter`: ``fit(durations, event_observed, label=)``,
  ``survival_function_``, ``confidence_interval_``,
  ``median_survival_time_``, ``event_table`` and
  ``plot_survival_function(ax=, ci_show=, at_risk_counts=)``, each from the
  released curve of :func:`safeplot.plots.survival.release_survival`
  (heights computed from counts rounded on a nested time grid, rounded
  again; no longest follow-up);
- :func:`survival_table`: median survival and survival at fixed times per
  group, read from the released curves;
- :func:`safe_coxph`: a Cox model (lifelines' ``CoxPHFitter``) whose
  coefficients, hazard ratios, intervals and concordance are rounded, with
  the regression checks of :func:`safeplot.safe_ols`;
- :func:`logrank_test`: lifelines' log-rank test, statistic and p-value
  rounded.

Every release carries a :class:`~safeplot.release.DisclosureReport` and is
recorded in the session audit log. lifelines is an optional dependency:
``pip install "safeplot[survival]"``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from . import audit
from ._validate import clean_numeric, refuse_dask, to_pandas
from .diagnostics import MIN_DF_RESID, ReleaseRefused
from .errors import DisclosureError
from .marks.survival import draw_survival
from .plots._common import axes_for, finish, make_report
from .plots.survival import (
    ALPHA_MENU,
    SurvivalRelease,
    kmplot,
    lifelines_module,
    release_survival,
)
from .policy import Policy, get_policy
from .release import DisclosureReport, guard

__all__ = [
    "ALPHA_MENU",
    "KaplanMeierFitter",
    "LogRankResult",
    "SafeCoxPHResults",
    "kmplot",
    "logrank_test",
    "safe_coxph",
    "survival_table",
]


def _vector(values: Any, what: str) -> pd.Series:
    if values is None:
        raise ValueError(f"{what} is required.")
    series = values if isinstance(values, pd.Series) else pd.Series(np.asarray(values))
    return series.reset_index(drop=True)


class KaplanMeierFitter:
    """lifelines' ``KaplanMeierFitter``, releasing a disclosure-controlled curve.

    Parameters
    ----------
    alpha : {0.01, 0.05, 0.1}, default 0.05
        The bands have coverage ``1 - alpha`` (a menu, so that no level can
        be stepped to find where a rounded band end changes).
    label : str, optional
        Name of the estimate (default ``"KM_estimate"``).
    method : str, optional
        Disclosure-control method (see :func:`safeplot.kmplot`); default
        ``"suppress"``.
    threshold : int, optional
        Fewest events per drop and records at risk (default and floor: the policy's).
    policy : Policy, optional
        The policy in force.

    Examples
    --------
    >>> from lifelines.datasets import load_rossi
    >>> rossi = load_rossi()
    >>> kmf = KaplanMeierFitter().fit(rossi["week"], rossi["arrest"], label="all")
    >>> kmf.survival_function_.iloc[:3]  # doctest: +NORMALIZE_WHITESPACE
              all
    timeline
    0.0000    1.000
    5.3125    0.988
    10.3125   0.965
    >>> kmf.median_survival_time_
    inf
    """

    def __init__(
        self,
        alpha: float = 0.05,
        label: str | None = None,
        *,
        method: str | None = None,
        threshold: int | None = None,
        policy: Policy | None = None,
    ) -> None:
        self.alpha = guard.from_menu("alpha", alpha, ALPHA_MENU, what="confidence bands")
        self.label = label or "KM_estimate"
        self.method = method
        self.threshold = threshold
        self.policy = policy
        self._release: SurvivalRelease | None = None

    def __repr__(self) -> str:
        state = "fitted" if self._release is not None else "unfitted"
        return f"<safeplot.survival.KaplanMeierFitter: {state}, label={self.label!r}>"

    def fit(
        self,
        durations: Any,
        event_observed: Any = None,
        timeline: Any = None,
        entry: Any = None,
        label: str | None = None,
        alpha: float | None = None,
        weights: Any = None,
        *,
        method: str | None = None,
        threshold: int | None = None,
        bins: int = 40,
        factor: int = 2,
        k: int | None = None,
        q: float | None = None,
    ) -> KaplanMeierFitter:
        """Release the Kaplan-Meier curve of `durations` (see :func:`safeplot.kmplot`).

        Parameters
        ----------
        durations : array-like
            Time to the event or to censoring (zero or positive).
        event_observed : array-like, optional
            1/True for an observed event, 0/False for censoring (default:
            every event observed).
        timeline : optional
            Not supported: the curve is released at safe times only.
        entry, weights : optional
            Not supported (late entry and weights would let single records
            shape the curve); give None.
        label : str, optional
            Name of the estimate.
        alpha : {0.01, 0.05, 0.1}, optional
            Band coverage ``1 - alpha`` (default: the fitter's).
        method, threshold, bins, factor, k, q
            As in :func:`safeplot.kmplot`.

        Returns
        -------
        KaplanMeierFitter
            self, fitted.

        Raises
        ------
        DisclosureError
            Fewer than `threshold` events, no events.
        ValueError
            Negative durations, a non-binary event indicator, unsupported arguments.

        Examples
        --------
        >>> from lifelines.datasets import load_lung
        >>> lung = load_lung()
        >>> kmf = KaplanMeierFitter().fit(lung["time"], lung["status"], method="generalize")
        >>> kmf.release.method, kmf.median_survival_time_
        ('generalize', 406.25)
        """
        for name, value in (("timeline", timeline), ("entry", entry), ("weights", weights)):
            if value is not None:
                raise ValueError(
                    f"KaplanMeierFitter.fit: {name}= is not supported under disclosure control; "
                    "the curve is released on a safe time grid from unweighted records."
                )
        d = _vector(durations, "KaplanMeierFitter.fit: durations")
        e = (
            pd.Series(np.ones(len(d), dtype=int))
            if event_observed is None
            else _vector(event_observed, "event_observed")
        )
        if len(e) != len(d):
            raise ValueError(
                f"KaplanMeierFitter.fit: durations has {len(d)} values but event_observed "
                f"has {len(e)}; they must describe the same records."
            )
        if label is not None:
            self.label = label
        if alpha is not None:
            self.alpha = guard.from_menu("alpha", alpha, ALPHA_MENU, what="confidence bands")
        pol = get_policy(self.policy)
        name = str(getattr(durations, "name", None) or "duration")
        rel = release_survival(
            pd.DataFrame({name: d, "event": e}),
            duration=name,
            event="event",
            method=method or self.method,
            threshold=threshold or self.threshold,
            bins=bins,
            factor=factor,
            k=k,
            q=q,
            alpha=self.alpha,
            policy=pol,
            function="KaplanMeierFitter",
        )
        audit.record(rel.report, figure=None, released=rel.frame())
        self._release = rel
        return self

    @property
    def release(self) -> SurvivalRelease:
        """The released curve behind every attribute."""
        if self._release is None:
            raise ValueError("This KaplanMeierFitter is not fitted yet; call fit() first.")
        return self._release

    @property
    def survival_function_(self) -> pd.DataFrame:
        """The released survival curve, indexed by ``timeline`` (the safe grid times)."""
        rel = self.release
        index = pd.Index(rel.times[0][:-1], name="timeline")
        return pd.DataFrame({self.label: rel.survival[0][:-1]}, index=index)

    @property
    def confidence_interval_(self) -> pd.DataFrame:
        """The released band: columns ``<label>_lower_<level>`` and ``<label>_upper_<level>``."""
        rel = self.release
        level = f"{1 - self.alpha:g}"
        index = pd.Index(rel.times[0][:-1], name="timeline")
        return pd.DataFrame(
            {
                f"{self.label}_lower_{level}": rel.lower[0][:-1],
                f"{self.label}_upper_{level}": rel.upper[0][:-1],
            },
            index=index,
        )

    @property
    def median_survival_time_(self) -> float:
        """The released median: the first released time at which the curve is 0.5 or below.

        ``inf`` when the released curve stays above 0.5, as lifelines reports it.
        """
        med = self.release.median()
        return float("inf") if np.isnan(med) else med

    @property
    def event_table(self) -> pd.DataFrame:
        """Per drop of the released curve: records at risk, events, and censored, rounded.

        ``at_risk`` is the count at the start of the drop's interval,
        ``observed`` the events in it and ``censored`` the records leaving
        it otherwise (from the released counts; NaN below the threshold).
        """
        rel = self.release
        pol = get_policy(self.policy)
        threshold = pol.check_threshold(self.threshold)
        n, d = rel.at_risk[0], rel.observed[0]
        nxt = np.r_[n[1:], np.nan]
        censored = np.maximum(n - d - nxt, 0.0)
        censored[(censored > 0) & (censored < threshold)] = np.nan
        return pd.DataFrame(
            {"at_risk": n, "observed": d, "censored": censored},
            index=pd.Index(rel.times[0][1:-1], name="event_at"),
        )

    def predict(self, times: Any) -> pd.Series:
        """Return the released curve read at `times` (NaN beyond its end).

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> rossi = load_rossi()
        >>> KaplanMeierFitter().fit(rossi["week"], rossi["arrest"]).predict([10, 60]).tolist()
        [0.988, nan]
        """
        t = np.atleast_1d(np.asarray(times, dtype=float))
        return pd.Series(self.release.at(t), index=t, name=self.label)

    survival_function_at_times = predict

    def plot_survival_function(
        self,
        ax: Axes | None = None,
        ci_show: bool = True,
        at_risk_counts: bool = False,
        *,
        annotate: bool | None = None,
        **kwargs: Any,
    ) -> Axes:
        """Draw the released curve (as lifelines' method of the same name).

        Parameters
        ----------
        ax : Axes, optional
        ci_show : bool, default True
            Draw the band.
        at_risk_counts : bool, default False
            Add the released at-risk table under the axes.
        annotate : bool, optional
            Add the method note (default: the policy's setting).
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        Axes

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> rossi = load_rossi()
        >>> kmf = KaplanMeierFitter().fit(rossi["week"], rossi["arrest"])
        >>> ax = kmf.plot_survival_function(at_risk_counts=True)
        >>> ax.safeplot_report.function
        'KaplanMeierFitter'
        """
        rel = self.release
        ax = axes_for(ax, rel.report, rel)
        draw_survival(
            ax, rel, ci_show=ci_show, at_risk_counts=at_risk_counts, legend=False, **kwargs
        )
        ax.lines[-1].set_label(self.label)
        return finish(
            ax, rel.report, annotate=annotate, policy=get_policy(self.policy), released=rel.frame()
        )

    plot = plot_survival_function


def survival_table(
    data: Any = None,
    *,
    duration: Any = None,
    event: Any = None,
    hue: Any = None,
    times: Sequence[float] = (),
    method: str | None = None,
    threshold: int | None = None,
    policy: Policy | None = None,
) -> pd.DataFrame:
    """Median survival and survival at fixed times per group, from the released curves.

    Each number is read from the released curve of its group
    (:func:`safeplot.plots.survival.release_survival`), by linear
    interpolation between its released points: the heights come from
    rounded counts and are rounded, and a time past the end of the released
    curve (where few records remain at risk) gets NaN.
    No record is read again, so the times cannot be used to probe where
    individual events lie.

    Parameters
    ----------
    data, duration, event, hue
        As in :func:`safeplot.kmplot`.
    times : sequence of float
        Times at which to give the survival probability.
    method, threshold, policy
        As in :func:`safeplot.kmplot`.

    Returns
    -------
    DataFrame
        One row per group: ``n`` (records) and ``events``, rounded by the
        policy; ``median`` (NaN when the released curve stays above 0.5);
        ``S(t)`` per time.

    Examples
    --------
    >>> from lifelines.datasets import load_lung
    >>> lung = load_lung()
    >>> survival_table(lung, duration="time", event="status", hue="sex", times=[180, 365])
    ... # doctest: +NORMALIZE_WHITESPACE
           n  events  median  S(180)  S(365)
    sex
    1    140     110   271.0   0.663   0.332
    2     90      55   405.0   0.829   0.544
    """
    pol = get_policy(policy)
    rel = release_survival(
        data,
        duration=duration,
        event=event,
        hue=hue,
        method=method,
        threshold=threshold,
        policy=pol,
        function="survival_table",
    )
    rows = []
    for i, lev in enumerate(rel.levels):
        row: dict[str, Any] = {
            "n": rel.totals[i][0],
            "events": rel.totals[i][1],
            "median": _median(rel, i),
        }
        for t in times:
            read = rel.at([t], lev, interpolate=True)
            row[f"S({t:g})"] = float(guard.released_statistics(read, policy=pol)[0])
        rows.append(row)
    index = pd.Index(rel.levels, name=rel.names.get("hue")) if rel.levels != [None] else None
    out = pd.DataFrame(rows, index=index)
    if out["n"].notna().all():
        out["n"] = out["n"].astype(int)
    out["events"] = out["events"].astype(int)
    audit.record(rel.report, figure=None, released=out.reset_index())
    return out


# -- Cox models --------------------------------------------------------------------------------


def _median(rel: SurvivalRelease, i: int) -> float:
    """Return where the line through a level's released points crosses 0.5 (NaN if it does not)."""
    t, s = rel.times[i], rel.survival[i]
    below = np.flatnonzero(s <= 0.5)
    if not below.size or below[0] == 0:
        return float("nan")
    j = below[0]
    frac = (s[j - 1] - 0.5) / (s[j - 1] - s[j])
    return float(guard.released_statistics([t[j - 1] + frac * (t[j] - t[j - 1])])[0])


class SafeCoxPHResults:
    """A Cox proportional-hazards model released safely: rounded statistics only.

    Attributes
    ----------
    params_ : Series
        Coefficients (log hazard ratios), rounded.
    hazard_ratios_ : Series
        ``exp(coef)``, rounded.
    standard_errors_ : Series
    confidence_intervals_ : DataFrame
        Interval ends of the coefficients at ``1 - alpha``.
    concordance_index_ : float
    log_likelihood_ratio_test : tuple of float
        Statistic and p-value, rounded.
    nobs, events : int or str
        Records and events used, rounded by the policy.
    alpha : float
    report : DisclosureReport
    """

    _public = (
        "params_",
        "hazard_ratios_",
        "standard_errors_",
        "confidence_intervals_",
        "concordance_index_",
        "log_likelihood_ratio_test",
        "nobs",
        "events",
        "alpha",
        "summary",
        "report",
        "print_summary",
        "plot_partial_effects_on_outcome",
    )

    def __init__(
        self,
        summary: pd.DataFrame,
        info: dict[str, Any],
        report: DisclosureReport,
        model: dict[str, Any] | None = None,
    ):
        object.__setattr__(self, "_summary", summary)
        object.__setattr__(self, "_info", info)
        object.__setattr__(self, "report", report)
        object.__setattr__(self, "_model", model or {})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SafeCoxPHResults is read-only.")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raw = {
            "baseline_hazard_",
            "baseline_survival_",
            "baseline_cumulative_hazard_",
            "predict_survival_function",
            "predict_partial_hazard",
            "compute_residuals",
            "durations",
            "event_observed",
            "weights",
        }
        if name in raw:
            raise ReleaseRefused(
                f"SafeCoxPHResults.{name} is not released: baseline hazards, predictions and "
                "residuals follow individual records' times. Use safeplot.kmplot for curves."
            )
        raise AttributeError(
            f"SafeCoxPHResults has no attribute {name!r}; it releases {list(self._public)}."
        )

    @property
    def summary(self) -> pd.DataFrame:
        """The coefficient table as lifelines prints it (rounded)."""
        return self._summary.copy()

    @property
    def params_(self) -> pd.Series:
        """Coefficients (log hazard ratios), rounded."""
        return self._summary["coef"].rename("coef")

    @property
    def hazard_ratios_(self) -> pd.Series:
        """Hazard ratios ``exp(coef)``, rounded."""
        return self._summary["exp(coef)"].rename("exp(coef)")

    @property
    def standard_errors_(self) -> pd.Series:
        """Standard errors of the coefficients, rounded."""
        return self._summary["se(coef)"].rename("se(coef)")

    @property
    def confidence_intervals_(self) -> pd.DataFrame:
        """Interval ends of the coefficients, rounded."""
        cols = [c for c in self._summary.columns if c.startswith("coef ") and "%" in c]
        return self._summary[cols].copy()

    @property
    def concordance_index_(self) -> float:
        """Harrell's concordance index, rounded."""
        return self._info["concordance"]

    @property
    def log_likelihood_ratio_test(self) -> tuple[float, float]:
        """Likelihood-ratio test of all coefficients: statistic and p-value, rounded."""
        return self._info["llr_statistic"], self._info["llr_pvalue"]

    @property
    def nobs(self) -> int | str:
        """Records used, rounded by the policy."""
        return self._info["nobs"]

    @property
    def events(self) -> int | str:
        """Events observed, rounded by the policy."""
        return self._info["events"]

    @property
    def alpha(self) -> float:
        """The intervals have coverage ``1 - alpha``."""
        return self._info["alpha"]

    def plot_partial_effects_on_outcome(
        self,
        covariates: str,
        values: Sequence[Any],
        *,
        plot_baseline: bool = True,
        ax: Axes | None = None,
        palette: Any = None,
        annotate: bool | None = None,
        **kwargs: Any,
    ) -> Axes:
        """Draw the model's survival curves for chosen values of one covariate, released safely.

        As lifelines' method of the same name: the other covariates are held
        at their means (the most common level for a category) and the
        predicted survival is drawn for each value. The curves are evaluated
        only at the drop times of the model data's released Kaplan-Meier
        curve (:func:`safeplot.plots.survival.release_survival`: times on
        the nested grid, the last before the end of follow-up) and rounded
        to an absolute step of 0.001, which gains no digits where the
        survival is small; nothing is drawn at an individual event time.
        The values must lie within the covariate's mean plus or minus two
        standard deviations (rounded), where the model is fitted from many
        records.

        Parameters
        ----------
        covariates : str
            The covariate (a column of the data) to vary.
        values : sequence
            Its values, one curve each.
        plot_baseline : bool, default True
            Add the curve at the means of all covariates.
        ax : Axes, optional
        palette : palette name, list or dict, optional
        annotate : bool, optional
            Add the method note (default: the policy's setting).
        **kwargs
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        Axes

        Raises
        ------
        ValueError
            A covariate that is not a column of the model's data, no values,
            a value outside the covariate's released range (or not one of
            its levels), or a stratified model (whose baselines differ by
            stratum).

        Examples
        --------
        >>> from lifelines.datasets import load_rossi
        >>> fit = safe_coxph(data=load_rossi(), duration_col="week", event_col="arrest")
        >>> ax = fit.plot_partial_effects_on_outcome("prio", [0, 4, 8])
        >>> [line.get_label() for line in ax.lines]
        ['prio=0', 'prio=4', 'prio=8', 'baseline']
        """
        model = self._model
        frame = model["frame"]
        if model["strata"]:
            raise ValueError(
                "plot_partial_effects_on_outcome: the model is stratified, and each stratum "
                "has its own baseline; fit one model per stratum, or without strata."
            )
        if not isinstance(covariates, str) or covariates not in frame.columns:
            raise ValueError(
                f"plot_partial_effects_on_outcome: covariates must name one column of the "
                f"model's data, got {covariates!r} (columns: {list(frame.columns)})."
            )
        values = list(values)
        if not values:
            raise ValueError("plot_partial_effects_on_outcome: give at least one value.")
        pol = model["policy"]
        _check_effect_values(frame[covariates], covariates, values, pol)
        grid = release_survival(
            frame,
            duration=model["duration"],
            event=model["event"],
            method="suppress",
            threshold=model["threshold"],
            policy=pol,
            function="safe_coxph",
        )
        times = grid.times[0]
        centre = {}
        for col in frame.columns:
            if col in (model["duration"], model["event"]):
                continue
            column = frame[col]
            numeric = pd.api.types.is_numeric_dtype(column)
            centre[col] = column.mean() if numeric else column.mode().iloc[0]
        rows = [dict(centre, **{covariates: v}) for v in values]
        labels = [f"{covariates}={v}" for v in values]
        if plot_baseline:
            rows.append(dict(centre))
            labels.append("baseline")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            predicted = model["fitter"].predict_survival_function(pd.DataFrame(rows), times=times)
        # an absolute step: significant figures would give more digits in the tail, where
        # the coefficient is read off the curve most precisely
        curves = [np.round(predicted[c].to_numpy(float), 3) for c in predicted.columns]
        # as the KM curve: from 1 at the start, flat from the last drop to the stop (the events
        # after the last drop are fewer than the threshold)
        curves = [np.r_[1.0, c[1:-1], c[-2]] if c.size > 2 else np.ones(c.size) for c in curves]
        report = make_report(
            "safe_coxph",
            "suppress",
            {**grid.report.params, "covariate": covariates, "values": [str(v) for v in values]},
            (model["duration"], model["event"], covariates),
            len(frame),
            0,
            pol,
            warnings=list(grid.report.warnings),
        )
        empty = np.array([])
        rel = SurvivalRelease(
            "suppress",
            labels,
            [times] * len(curves),
            curves,
            curves,
            curves,
            [empty] * len(curves),
            [empty] * len(curves),
            empty,
            [np.zeros((3, 0))] * len(curves),
            grid.time_lim,
            grid.time_ticks,
            False,
            grid.alpha,
            report,
            {"duration": model["duration"], "event": model["event"], "hue": None},
        )
        ax = axes_for(ax, report, rel)
        draw_survival(ax, rel, palette=palette, ci_show=False, legend=True, **kwargs)
        if plot_baseline:
            ax.lines[-1].set(color="0.3", linestyle="--")
            ax.legend(loc="lower left", frameon=False)
        return finish(ax, report, annotate=annotate, policy=pol, released=rel.frame())

    def print_summary(self) -> None:
        """Print the rounded summary."""
        print(str(self))

    def __str__(self) -> str:
        head = (
            f"<safeplot.survival.SafeCoxPHResults: n={self.nobs}, events={self.events}, "
            f"concordance={self.concordance_index_:g}>"
        )
        return head + "\n" + self._summary.to_string()

    __repr__ = __str__


def _check_effect_values(column: pd.Series, name: str, values: list[Any], pol: Policy) -> None:
    """Refuse partial-effect values outside the covariate's mean +/- 2 SD (rounded) or its levels.

    Far in the tail the predicted survival is tiny, and its digits give the
    coefficient much more precisely than the rounded summary; the range is
    two statistics of all the records, rounded to two significant figures.

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> _check_effect_values(pd.Series([1.0, 2.0, 3.0, 4.0]), "x", [2, 3], Policy())
    >>> _check_effect_values(pd.Series([1.0, 2.0, 3.0, 4.0]), "x", [40], Policy())
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: plot_partial_effects_on_outcome: values of x must lie within [-0.082, 5.1] ...
    """
    if not pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
        levels = set(pd.unique(column))
        other = [v for v in values if v not in levels]
        if other:
            raise ValueError(
                f"plot_partial_effects_on_outcome: {other} are not levels of {name}; give "
                "levels the model was fitted with."
            )
        return
    x = column.to_numpy(dtype=float)
    centre, spread = float(np.mean(x)), float(np.std(x, ddof=1))
    lo, hi = guard.released_statistics(
        [centre - 2 * spread, centre + 2 * spread], sig=2, policy=pol
    )
    try:
        v = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"plot_partial_effects_on_outcome: values of {name} must be numbers, got {values!r}."
        ) from err
    if not np.isfinite(v).all() or (v < lo).any() or (v > hi).any():
        raise ValueError(
            f"plot_partial_effects_on_outcome: values of {name} must lie within [{lo:g}, {hi:g}] "
            "(its mean plus or minus two standard deviations, rounded): far in the tail the "
            "curves would give the coefficient to more digits than it is released."
        )


#: A design column with at most this many distinct values is checked as a category: every
#: value must have threshold records and events.
MAX_COX_LEVELS = 10


def _check_cox(
    design: pd.DataFrame,
    event: np.ndarray,
    strata: pd.DataFrame | None,
    pol: Policy,
    threshold: int,
) -> None:
    """Refuse Cox models with too few records, events per category or degrees of freedom."""
    n, p = design.shape
    n_events = int(event.sum())
    if n_events < threshold:
        raise DisclosureError(
            f"safe_coxph: fewer than threshold={threshold} events; a model of so few events "
            "describes the individuals who had them."
        )
    if n - p < MIN_DF_RESID or n_events - p < MIN_DF_RESID:
        raise DisclosureError(
            f"safe_coxph: {p} coefficients for {pol.describe_count(n)} records and "
            f"{pol.describe_count(n_events)} events leaves fewer than {MIN_DF_RESID} residual "
            "degrees of freedom (records or events per coefficient): the output comes close to "
            "the data themselves. Use fewer terms or more records."
        )
    thin = []
    for col in design.columns:
        values = design[col].to_numpy(dtype=float)
        levels, counts = np.unique(values, return_counts=True)
        if levels.size <= MAX_COX_LEVELS:
            # a category however coded (0/1, 1/2, any two or few values): every level needs
            # threshold records and events
            for level in levels:
                here = values == level
                if event[here].sum() < threshold or here.sum() < threshold:
                    thin.append(f"{col}={level:g}")
            continue
        # a column that is constant outside a small group (a group's own ages, 0 elsewhere)
        # is a function of that group: its coefficient describes the group
        off = values != levels[np.argmax(counts)]
        if event[off].sum() < threshold or off.sum() < threshold:
            thin.append(f"{col} (off its most common value)")
    if thin:
        raise DisclosureError(
            f"safe_coxph: the categories {thin} have fewer than threshold={threshold} events "
            "(or records); their hazard ratio would describe those few individuals. Merge "
            "small categories or drop the term."
        )
    if strata is not None:
        keys = pd.Series(list(map(tuple, strata.to_numpy())))
        for key in pd.unique(keys):
            rows = (keys == key).to_numpy()
            if event[rows].sum() < threshold or rows.sum() < threshold:
                raise DisclosureError(
                    f"safe_coxph: a stratum ({key!r}) has fewer than threshold={threshold} "
                    "events (or records); its baseline would describe those few individuals. "
                    "Merge strata."
                )


def safe_coxph(
    formula: str | None = None,
    data: Any = None,
    *,
    duration_col: str | None = None,
    event_col: str | None = None,
    strata: str | list[str] | None = None,
    alpha: float = 0.05,
    threshold: int | None = None,
    policy: Policy | None = None,
) -> SafeCoxPHResults:
    """Fit a Cox proportional-hazards model (lifelines) and release rounded statistics.

    Parameters
    ----------
    formula : str, optional
        Right-hand side of the model, as lifelines takes it (``"fin + age +
        C(race)"``); default: every column of `data` other than the
        duration, event and strata columns.
    data : DataFrame
        The records.
    duration_col, event_col : str
        Columns of the durations and of the event indicator (0/1).
    strata : str or list of str, optional
        Columns to stratify the baseline hazard by.
    alpha : {0.01, 0.05, 0.1}, default 0.05
        Intervals of coverage ``1 - alpha`` (from a menu).
    threshold : int, optional
        Fewest events per category and stratum (default and floor: the policy's).
    policy : Policy, optional
        The policy that rounds the statistics.

    Returns
    -------
    SafeCoxPHResults

    Raises
    ------
    DisclosureError
        Fewer than 10 residual degrees of freedom (records or events per
        coefficient); a design column with few distinct values (at most
        :data:`MAX_COX_LEVELS`, however coded) one of whose values has
        fewer than `threshold` events or records; a column that departs
        from its most common value on fewer than `threshold` events or
        records; a stratum with fewer than `threshold` events or records.
    ValueError
        Missing columns, negative durations, a non-binary event, an `alpha`
        off the menu.

    Examples
    --------
    >>> from lifelines.datasets import load_rossi
    >>> fit = safe_coxph(data=load_rossi(), duration_col="week", event_col="arrest")
    >>> float(fit.hazard_ratios_["fin"]), fit.nobs, fit.events
    (0.684, 430, 115)
    """
    lifelines = lifelines_module()
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    alpha = guard.from_menu("alpha", alpha, ALPHA_MENU, what="Cox model intervals")
    refuse_dask(data, "safe_coxph")
    frame = to_pandas(data, function="safe_coxph")
    if not isinstance(frame, pd.DataFrame):
        raise TypeError("safe_coxph: data must be a DataFrame.")
    if duration_col is None or event_col is None:
        raise ValueError("safe_coxph: give duration_col= and event_col= (column names of data).")
    strata_cols = [strata] if isinstance(strata, str) else list(strata or [])
    missing = [c for c in [duration_col, event_col, *strata_cols] if c not in frame.columns]
    if missing:
        raise ValueError(
            f"safe_coxph: column(s) {missing} are not in data (columns: {list(frame.columns)})."
        )
    n_rows = len(frame)
    frame = frame.dropna()
    n_dropped = n_rows - len(frame)
    if frame.empty:
        raise ValueError("safe_coxph: no complete records (every row has a missing value).")
    from .plots.survival import _check_inputs

    # clear errors for text, booleans, dates, inf, huge and constant durations
    clean_numeric(pd.DataFrame({duration_col: frame[duration_col]}))
    dur = pd.to_numeric(frame[duration_col], errors="coerce")
    event = _check_inputs(dur.to_numpy(float), frame[event_col], "safe_coxph")
    frame = frame.assign(**{event_col: event.astype(int)})
    design = _design(frame, formula, [duration_col, event_col, *strata_cols])
    _check_cox(design, event, frame[strata_cols] if strata_cols else None, pol, threshold)
    fitter = lifelines.CoxPHFitter(alpha=alpha, strata=strata_cols or None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fitter.fit(frame, duration_col=duration_col, event_col=event_col, formula=formula)
        except Exception as err:  # lifelines' convergence and design errors
            raise ValueError(
                f"safe_coxph: the model could not be fitted ({type(err).__name__}: "
                f"{str(err).splitlines()[0] if str(err) else ''}). Check the formula and "
                "drop terms that are constant or collinear."
            ) from err
    xcols = list(fitter.params_.index)
    s = fitter.summary
    level = f"{100 * (1 - alpha):g}%"
    cols = {
        "coef": s["coef"],
        "exp(coef)": s["exp(coef)"],
        "se(coef)": s["se(coef)"],
        f"coef lower {level}": s[f"coef lower {level}"],
        f"coef upper {level}": s[f"coef upper {level}"],
        f"exp(coef) lower {level}": s[f"exp(coef) lower {level}"],
        f"exp(coef) upper {level}": s[f"exp(coef) upper {level}"],
        "z": s["z"],
        "p": s["p"],
    }
    summary = pd.DataFrame(
        {k: guard.released_statistics(v.to_numpy(float), policy=pol) for k, v in cols.items()},
        index=pd.Index([str(i) for i in s.index], name="covariate"),
    )
    llr = fitter.log_likelihood_ratio_test()
    stat = guard.released_statistics(
        [fitter.concordance_index_, llr.test_statistic, llr.p_value], policy=pol
    )
    info = {
        "concordance": float(stat[0]),
        "llr_statistic": float(stat[1]),
        "llr_pvalue": float(stat[2]),
        "nobs": pol.round_count(len(frame)),
        "events": pol.round_count(int(event.sum())),
        "alpha": alpha,
    }
    report = make_report(
        "safe_coxph",
        "confidential",
        {"threshold": threshold, "alpha": alpha, "sig": pol.sig_figs, "strata": strata_cols},
        (duration_col, event_col, *xcols),
        len(frame),
        n_dropped,
        pol,
        details={"events": info["events"], "concordance": info["concordance"]},
    )
    audit.record(report, figure=None, released=summary)
    model = {
        "fitter": fitter,
        "frame": frame,
        "duration": duration_col,
        "event": event_col,
        "strata": strata_cols,
        "threshold": threshold,
        "policy": pol,
    }
    return SafeCoxPHResults(summary, info, report, model)


def _design(frame: pd.DataFrame, formula: str | None, outcome: list[str]) -> pd.DataFrame:
    """Return the model's design matrix (as lifelines builds it), for the checks before fitting."""
    if formula is None:
        rest = frame.drop(columns=outcome)
        text = [c for c in rest.columns if not pd.api.types.is_numeric_dtype(rest[c])]
        if text:
            raise ValueError(
                f"safe_coxph: column(s) {text} are not numeric; without a formula every other "
                "column is a covariate. Give a formula such as 'age + C(group)'."
            )
        return rest.astype(float).reset_index(drop=True)
    from formulaic import model_matrix

    try:
        mm = model_matrix(formula, frame)
    except Exception as err:  # formulaic's parsing and name errors
        raise ValueError(
            f"safe_coxph: the formula {formula!r} could not be read ({type(err).__name__}: "
            f"{err}). Name columns of data (columns: {list(frame.columns)})."
        ) from err
    cols = [c for c in mm.columns if c != "Intercept"]
    return pd.DataFrame({c: np.asarray(mm[c], dtype=float) for c in cols})


class LogRankResult:
    """A released log-rank test: statistic and p-value rounded, with its report.

    Attributes
    ----------
    test_statistic : float
    p_value : float
    degrees_of_freedom : int
    report : DisclosureReport
    """

    def __init__(self, statistic: float, p_value: float, dof: int, report: DisclosureReport):
        self.test_statistic = statistic
        self.p_value = p_value
        self.degrees_of_freedom = dof
        self.report = report

    def __repr__(self) -> str:
        return (
            f"<safeplot.survival.LogRankResult: test_statistic={self.test_statistic:g}, "
            f"p_value={self.p_value:g}>"
        )


def logrank_test(
    durations_A: Any,
    durations_B: Any,
    event_observed_A: Any = None,
    event_observed_B: Any = None,
    *,
    threshold: int | None = None,
    policy: Policy | None = None,
) -> LogRankResult:
    """Compare two survival curves with lifelines' log-rank test, released rounded.

    Parameters
    ----------
    durations_A, durations_B : array-like
        Durations of the two groups.
    event_observed_A, event_observed_B : array-like, optional
        Event indicators (default: every event observed).
    threshold : int, optional
        Fewest events per group (default and floor: the policy's).
    policy : Policy, optional

    Returns
    -------
    LogRankResult

    Raises
    ------
    DisclosureError
        A group with fewer than `threshold` events.
    ValueError
        Negative, infinite, huge, constant or non-numeric durations (text,
        booleans, dates), or a non-binary event indicator.

    Examples
    --------
    >>> from lifelines.datasets import load_rossi
    >>> r = load_rossi()
    >>> a, b = r[r.fin == 1], r[r.fin == 0]
    >>> res = logrank_test(a.week, b.week, a.arrest, b.arrest)
    >>> res.test_statistic, res.p_value
    (3.84, 0.0501)
    """
    lifelines_module()
    from lifelines.statistics import logrank_test as _logrank

    from .plots.survival import _check_inputs

    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    groups = []
    for dur, ev, name in (
        (durations_A, event_observed_A, "A"),
        (durations_B, event_observed_B, "B"),
    ):
        raw = _vector(dur, f"durations_{name}")
        # clear errors for text (numbers as text too), booleans, dates, inf, huge and constant
        # durations, as kmplot and safe_coxph give
        if raw.map(lambda v: isinstance(v, (str, bytes))).any():
            raise ValueError(
                f"logrank_test: durations_{name} holds text; give numbers (convert the column "
                "with pd.to_numeric after checking it)."
            )
        clean_numeric(pd.DataFrame({f"durations_{name}": raw}))
        d = pd.to_numeric(raw, errors="coerce")
        e = pd.Series(np.ones(len(d), dtype=int)) if ev is None else _vector(ev, f"event_{name}")
        keep = d.notna() & e.notna()
        d, e = d[keep].to_numpy(float), e[keep]
        if d.size == 0:
            raise ValueError(f"logrank_test: group {name} has no complete records.")
        e = _check_inputs(d, e.reset_index(drop=True), "logrank_test")
        if e.sum() < threshold:
            raise DisclosureError(
                f"logrank_test: group {name} has fewer than threshold={threshold} events; the "
                "test would describe those few individuals."
            )
        groups.append((d, e))
    with warnings.catch_warnings():
        # lifelines' own pandas calls, nothing the caller can change
        warnings.simplefilter("ignore")
        res = _logrank(groups[0][0], groups[1][0], groups[0][1], groups[1][1])
    stat = guard.released_statistics([res.test_statistic, res.p_value], policy=pol)
    report = make_report(
        "logrank_test",
        "confidential",
        {"threshold": threshold, "sig": pol.sig_figs},
        ("durations_A", "durations_B"),
        groups[0][0].size + groups[1][0].size,
        0,
        pol,
        details={"statistic": float(stat[0]), "pvalue": float(stat[1])},
    )
    audit.record(report, figure=None)
    return LogRankResult(float(stat[0]), float(stat[1]), 1, report)
