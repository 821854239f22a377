"""Regression output under disclosure control: ``safe_ols`` and its diagnostic plots.

A fitted regression model holds its data twice over: the residuals plus the
fitted values give back every outcome exactly, and leverages and Cook's
distances single out the unusual records (Avraam et al. 2021, section 4.2;
O'Keefe & Good 2009). :func:`safe_ols` fits an ordinary least squares model
with statsmodels' formula interface and returns a :class:`SafeOLSResults`
that releases only

- coefficients, standard errors, t statistics, p-values, confidence
  intervals, R-squared and the F test, rounded to the policy's significant
  figures, and the number of records rounded by the policy;
- R's four diagnostic plots (residuals against fitted values, normal Q-Q,
  scale-location, residuals against leverage), each drawn from points
  released by a disclosure-control method, with lowess trend lines whose
  ends are winsorised and rounded (O'Keefe).

The residuals, fitted values, leverages, Cook's distances and the model's
data are never handed out: asking for them raises
:class:`~safeplot.errors.DisclosureError`. :func:`safe_logit` and
:func:`safe_glm` do the same for a binary outcome (deviance residuals).

References
----------
.. [1] Avraam D, Wilson R, Butters O, Burton T, Nicolaides C, Jones E, Boyd A,
   Burton P. "Privacy preserving data visualizations." EPJ Data Science 10:2
   (2021).
.. [2] O'Keefe CM, Good NM. "Regression output from a remote analysis server."
   Data & Knowledge Engineering 68(11) (2009).
.. [3] Brandt M et al. "Guidelines for the checking of output based on
   microdata research." ESSnet SDC (2010).
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from scipy import stats

from ._validate import refuse_dask, to_pandas
from .anonymize.confidential import lowess_trend
from .anonymize.grids import hit_mask, hits_any, rare_values
from .errors import DisclosureError
from .methods import get_method
from .policy import Policy, get_policy
from .release import DisclosureReport, PointRelease, guard

__all__ = [
    "MIN_DF_RESID",
    "SafeGLMResults",
    "SafeOLSResults",
    "SafeSummary",
    "safe_glm",
    "safe_logit",
    "safe_ols",
]

#: Fewest residual degrees of freedom a released model may have (Brandt et al.; ACRO).
MIN_DF_RESID = 10

#: Attributes of a statsmodels results object that are as sensitive as the data.
_RAW_ATTRIBUTES = frozenset(
    {
        "resid",
        "fittedvalues",
        "get_influence",
        "outlier_test",
        "resid_pearson",
        "resid_deviance",
        "resid_response",
        "resid_working",
        "resid_anscombe",
        "resid_anscombe_scaled",
        "resid_anscombe_unscaled",
        "resid_generalized",
        "resid_dev",
        "wresid",
        "hat_matrix_diag",
        "leverage",
        "hat_values",
        "cooks_distance",
        "influence",
        "model",
        "predict",
        "get_prediction",
        "mu",
        "data",
        "exog",
        "endog",
        "wexog",
        "wendog",
        "nobs_exact",
        "get_hat_matrix_diag",
        "resid_studentized",
        "resid_studentized_internal",
        "resid_studentized_external",
        "dfbetas",
        "dffits",
        "plot_regress_exog",
        "el_test",
        "conf_int_el",
        "remove_data",
        "save",
        "load",
    }
)


class ReleaseRefused(DisclosureError, AttributeError):
    """A raw part of a fitted model was asked for; it is not released.

    A :class:`~safeplot.errors.DisclosureError` that is also an
    :class:`AttributeError`, so ``hasattr(fit, "resid")`` is False.
    """


def _refuse_attribute(name: str, what: str) -> ReleaseRefused:
    return ReleaseRefused(
        f"{what}.{name} is not released: residuals, fitted values, leverages, Cook's "
        "distances, predictions on the training data and the model's data are as sensitive "
        "as the data themselves (residual + fitted value = the outcome of each record). "
        "Use the rounded statistics (.params, .bse, .tvalues, .pvalues, .conf_int(), "
        ".rsquared, .summary()) and the diagnostic plots (.plot_diagnostics(), "
        ".plot_resid_fitted(), .plot_qq(), .plot_scale_location(), .plot_resid_leverage()), "
        "which draw released points only."
    )


# -- the raw diagnostics, kept private -----------------------------------------------------


class _RawDiagnostics:
    """The per-record quantities behind the diagnostic plots; never shown, never pickled."""

    __slots__ = ("cooks", "fitted", "leverage", "p", "resid", "std_pearson", "std_resid")

    def __init__(self, **values: Any) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, values[name])

    def __repr__(self) -> str:
        return "<raw diagnostics: not released>"

    def __reduce__(self):
        raise DisclosureError("The raw diagnostics of a model cannot be pickled or copied.")


# -- the summary ---------------------------------------------------------------------------


class SafeSummary:
    """A rounded regression summary: a table of model facts and a coefficient table.

    Its ``str`` and ``repr`` are a readable text table, as statsmodels'
    ``Summary``; :meth:`as_text`, :meth:`as_html`, and :attr:`tables` (two
    DataFrames) give the same numbers.

    Attributes
    ----------
    title : str
    tables : list of DataFrame
        The model facts (one column of values) and the coefficient table.
    notes : list of str
        What was rounded, and other remarks.
    """

    def __init__(self, title: str, info: pd.DataFrame, coefs: pd.DataFrame, notes: list[str]):
        self.title = title
        self.tables = [info, coefs]
        self.notes = list(notes)

    def as_text(self) -> str:
        """Return the summary as plain text."""
        info, coefs = self.tables
        rows = [(str(k), _fmt(v)) for k, v in info["value"].items()]
        half = (len(rows) + 1) // 2
        left, right = rows[:half], rows[half:]
        lines = []
        for i in range(half):
            a = f"{left[i][0] + ':':<24}{left[i][1]:>14}"
            b = f"{right[i][0] + ':':<22}{right[i][1]:>14}" if i < len(right) else ""
            lines.append(f"{a}    {b}".rstrip())
        table = coefs.map(_fmt) if hasattr(coefs, "map") else coefs.applymap(_fmt)
        body = table.to_string()
        width = max(len(line) for line in lines + body.splitlines() + [self.title])
        out = [self.title.center(width), "=" * width, *lines, "=" * width, body, "=" * width]
        out += [f"Note: {note}" for note in self.notes]
        return "\n".join(out)

    def as_html(self) -> str:
        """Return the summary as HTML tables (every text escaped)."""
        from html import escape

        info, coefs = self.tables
        notes = "".join(f"<p>Note: {escape(n)}</p>" for n in self.notes)
        tables = info.to_html(escape=True) + coefs.to_html(escape=True)
        return f"<h4>{escape(self.title)}</h4>" + tables + notes

    def _repr_html_(self) -> str:
        """Return the summary as HTML, as Jupyter shows it (:meth:`as_html`)."""
        return self.as_html()

    def __str__(self) -> str:
        return self.as_text()

    def __repr__(self) -> str:
        return self.as_text()


def _fmt(value: Any) -> str:
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            return str(value)
        if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e6):
            return f"{value:.3g}"
        return f"{value:g}"
    return str(value)


# -- panel releases ------------------------------------------------------------------------


@dataclass
class _Panel:
    """One released diagnostic panel: what is drawn, nothing else."""

    kind: str  # "points", "boxes" or "qq"
    release: Any
    report: DisclosureReport
    title: str
    xlabel: str
    ylabel: str
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    xticks: np.ndarray | None = None
    yticks: np.ndarray | None = None
    trend: tuple[np.ndarray, np.ndarray] | None = None
    zero_line: bool = False
    contours: list[tuple[str, np.ndarray, np.ndarray]] = field(default_factory=list)


#: Names of the four panels, in R's order (``which = c(1, 2, 3, 5)`` of ``plot.lm``).
PANELS = ("resid_fitted", "qq", "scale_location", "resid_leverage")


def _panel_doc(name: str, summary: str, description: str, example_method: str) -> str:
    """Return the docstring of one diagnostic panel: its own first lines, the rest shared."""
    return f"""{summary}

{description}

Parameters
----------
ax : Axes, optional
    Axes to draw on (default: the current Axes).
method : str, optional
    Disclosure-control method (default: the policy's for residual
    plots, ``"deterministic"``); see :meth:`plot_diagnostics`.
k, q, threshold, factor, bins, metric
    Parameters of the methods, as in :meth:`plot_diagnostics`.
algorithm, c, discretizer
    Parameters of ``"microaggregation"`` and ``"rounding"``.
annotate : bool, optional
    Add the method note (default: the policy's setting).
policy : Policy, optional
    The policy in force (default: the current one).

Returns
-------
matplotlib.axes.Axes
    With the release's report on ``ax.safeplot_report``.

Raises
------
DisclosureError
    A policy floor not met, or a release that would show nothing.
ValueError
    An unknown method or metric.

See Also
--------
plot_diagnostics : The four panels together.

Notes
-----
**Methods**

As :meth:`plot_diagnostics`: kNN centroids (``"deterministic"``),
keyed noise (``"probabilistic"``), density-grid cells
(``"suppress"``, ``"generalize"``), O'Keefe's parallel box plots or
smooth Q-Q line (``"confidential"``), group means
(``"microaggregation"``) or rounding to ``c`` values (``"rounding"``).

Examples
--------
>>> import matplotlib.pyplot as plt
>>> import safeplot
>>> fit = safe_ols("y ~ x", data=safeplot.datasets.simulate("D1", n=200, seed=1))
>>> fig, ax = plt.subplots()
>>> ax = fit.{name}(ax=ax, method="{example_method}")
>>> ax.safeplot_report.method
'{example_method}'
>>> plt.close(fig)
"""


def _panel_method(which: str, summary: str, description: str, example_method: str):
    """Return the method that releases and draws one diagnostic panel, with its docstring."""

    def plot(
        self,
        ax: Axes | None = None,
        *,
        method: str | None = None,
        k: int | None = None,
        q: float | None = None,
        threshold: int | None = None,
        factor: int = 2,
        bins: int | None = None,
        metric: str = "euclidean",
        algorithm: str = "mdav_multivariate",
        c: int = 10,
        discretizer: str = "ewd",
        annotate: bool | None = None,
        policy: Policy | None = None,
    ) -> Axes:
        return self._single(
            which, ax, method, k, q, threshold, factor, bins, metric,
            algorithm, c, discretizer, annotate, policy,
        )  # fmt: skip

    plot.__name__ = f"plot_{which}"
    plot.__qualname__ = f"_SafeFitResults.plot_{which}"
    plot.__doc__ = _panel_doc(plot.__name__, summary, description, example_method)
    return plot


class _SafeFitResults:
    """Shared machinery of :class:`SafeOLSResults` and :class:`SafeGLMResults`."""

    _public = (
        "params",
        "bse",
        "tvalues",
        "pvalues",
        "conf_int",
        "df_resid",
        "df_model",
        "nobs",
        "n_dropped",
        "formula",
        "summary",
        "summary_frame",
        "plot_diagnostics",
        "plot_resid_fitted",
        "plot_qq",
        "plot_scale_location",
        "plot_resid_leverage",
    )
    _labels: ClassVar[dict[str, str]] = {
        "fitted": "Fitted values",
        "resid": "Residuals",
        "std": "Standardized residuals",
        "pearson": "Standardized residuals",
    }

    def __init__(
        self,
        *,
        formula: str,
        endog_name: str,
        params: pd.Series,
        bse: pd.Series,
        df_resid: float,
        df_model: float,
        nobs: int,
        n_dropped: int,
        stats_info: dict[str, float],
        raw: _RawDiagnostics,
        policy: Policy,
        model_name: str,
        use_t: bool,
    ) -> None:
        sig = policy.sig_figs
        object.__setattr__(self, "_formula", formula)
        object.__setattr__(self, "_endog_name", endog_name)
        object.__setattr__(self, "_raw_params", params.to_numpy(dtype=float))
        object.__setattr__(self, "_raw_bse", bse.to_numpy(dtype=float))
        object.__setattr__(self, "_names", list(params.index))
        object.__setattr__(self, "_df_resid_exact", float(df_resid))
        object.__setattr__(self, "_sig", sig)
        object.__setattr__(self, "_model_name", model_name)
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_use_t", bool(use_t))
        tv = params / bse
        dist = stats.t(df_resid) if use_t else stats.norm
        pv = 2 * dist.sf(np.abs(tv))
        object.__setattr__(self, "_policy", policy)
        rounded = {
            name: pd.Series(self._released(values), index=params.index)
            for name, values in (
                ("params", params),
                ("bse", bse),
                ("tvalues", tv),
                ("pvalues", pv),
            )
        }
        for s in rounded.values():
            s.name = None
        object.__setattr__(self, "_rounded", rounded)
        shown = self._released(list(stats_info.values()))
        object.__setattr__(self, "_stats", dict(zip(stats_info, map(float, shown), strict=True)))
        object.__setattr__(self, "_nobs", policy.round_count(nobs))
        object.__setattr__(self, "_n_dropped", policy.round_count(n_dropped))
        object.__setattr__(self, "_n_dropped_exact", int(n_dropped))
        object.__setattr__(self, "_df_resid", policy.round_count(round(df_resid)))
        object.__setattr__(self, "_df_model", float(df_model))
        object.__setattr__(self, "_policy_source", policy.source)
        object.__setattr__(self, "_nobs_exact", int(nobs))
        from . import audit

        audit.record_model(self)  # the fit releases its rounded coefficients (invariant 11)

    def _log(self, function: str, params: dict[str, Any], released: pd.DataFrame) -> None:
        """Append a release of the model (the fit, its intervals, its summary) to the audit log."""
        from . import audit

        report = DisclosureReport(
            function,
            "confidential",
            {"formula": self._formula, "sig": self._sig, **params},
            (self._endog_name, *map(str, self._names)),
            n=self._nobs,
            n_dropped=self._n_dropped,
            policy=self._policy_source,
        )
        audit.record(report, figure=None, released=released.reset_index(names="term"))

    def _alpha(self, alpha: Any) -> float:
        """Return the interval level, from the menu (a free level could be stepped as a probe)."""
        level = guard.from_menu("alpha", alpha, guard.ALPHA_MENU, what="confidence intervals")
        return float(level)

    def _released(self, values: Any) -> np.ndarray:
        """Statistics of the model on their way out: through the guard, rounded."""
        return guard.released_statistics(
            np.asarray(values, dtype=float), sig=self._sig, policy=self._policy
        )

    # -- released numbers ----------------------------------------------------------------

    @property
    def params(self) -> pd.Series:
        """Coefficients, rounded to the policy's significant figures."""
        return self._rounded["params"].copy()

    @property
    def bse(self) -> pd.Series:
        """Standard errors of the coefficients, rounded."""
        return self._rounded["bse"].copy()

    @property
    def tvalues(self) -> pd.Series:
        """Test statistics (coefficient / standard error), rounded."""
        return self._rounded["tvalues"].copy()

    @property
    def pvalues(self) -> pd.Series:
        """Two-sided p-values of the coefficients, rounded."""
        return self._rounded["pvalues"].copy()

    @property
    def df_resid(self) -> int | str:
        """Residual degrees of freedom, rounded as the policy rounds counts."""
        return self._df_resid

    @property
    def df_model(self) -> float:
        """Model degrees of freedom (number of regressors, not counting the constant)."""
        return self._df_model

    @property
    def nobs(self) -> int | str:
        """Number of records used, rounded by the policy."""
        return self._nobs

    @property
    def n_dropped(self) -> int | str:
        """Rows dropped for missing values, rounded by the policy."""
        return self._n_dropped

    @property
    def formula(self) -> str:
        """The model formula."""
        return self._formula

    def conf_int(self, alpha: float = 0.05) -> pd.DataFrame:
        """Confidence intervals of the coefficients, rounded.

        Parameters
        ----------
        alpha : {0.01, 0.05, 0.1}, default 0.05
            The intervals have coverage ``1 - alpha``. Levels come from a
            fixed menu: stepping a free level until a rounded end moves
            would give the unrounded coefficient.

        Returns
        -------
        DataFrame
            Columns 0 (lower) and 1 (upper), one row per coefficient, as statsmodels.
        """
        table = self._conf_int(alpha)
        self._log("conf_int", {"alpha": self._alpha(alpha)}, table)
        return table

    def _conf_int(self, alpha: Any) -> pd.DataFrame:
        alpha = self._alpha(alpha)
        if self._use_t:
            crit = stats.t.ppf(1 - alpha / 2, self._df_resid_exact)
        else:
            crit = stats.norm.ppf(1 - alpha / 2)
        lo = self._raw_params - crit * self._raw_bse
        hi = self._raw_params + crit * self._raw_bse
        return pd.DataFrame({0: self._released(lo), 1: self._released(hi)}, index=self._names)

    def summary_frame(self, alpha: float = 0.05) -> pd.DataFrame:
        """Return the coefficient table as a DataFrame (rounded).

        Parameters
        ----------
        alpha : {0.01, 0.05, 0.1}, default 0.05
            Coverage of the confidence intervals is ``1 - alpha``.
        """
        table = self._summary_frame(alpha)
        self._log("summary_frame", {"alpha": self._alpha(alpha)}, table)
        return table

    def _summary_frame(self, alpha: Any) -> pd.DataFrame:
        alpha = self._alpha(alpha)
        ci = self._conf_int(alpha)
        s = "t" if self._use_t else "z"
        return pd.DataFrame(
            {
                "coef": self.params,
                "std err": self.bse,
                s: self.tvalues,
                f"P>|{s}|": self.pvalues,
                f"[{alpha / 2:g}": ci[0],
                f"{1 - alpha / 2:g}]": ci[1],
            }
        )

    def _info(self) -> dict[str, Any]:  # pragma: no cover - overridden
        raise NotImplementedError

    def summary(self, alpha: float = 0.05) -> SafeSummary:
        """Return the rounded summary: model facts and the coefficient table.

        Parameters
        ----------
        alpha : {0.01, 0.05, 0.1}, default 0.05
            Coverage of the confidence intervals is ``1 - alpha``.

        Returns
        -------
        SafeSummary
            Printable (``print(fit.summary())``); ``.tables`` holds the DataFrames.
        """
        info = pd.DataFrame({"value": pd.Series(self._info(), dtype=object)})
        notes = [
            f"statistics are rounded to {self._sig} significant figures and counts of "
            f"records as the policy rounds them ({self._policy_source}).",
            "Residuals, fitted values and leverages are not released; see plot_diagnostics().",
        ]
        table = self._summary_frame(alpha)
        self._log("summary", {"alpha": self._alpha(alpha)}, table)
        return SafeSummary(
            f"{self._model_name} Regression Results (disclosure-controlled)",
            info,
            table,
            notes,
        )

    # -- refusals ------------------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        # only called for names not found normally
        if name.startswith("_"):
            raise AttributeError(name)
        what = type(self).__name__
        if name in _RAW_ATTRIBUTES:
            raise _refuse_attribute(name, what)
        raise AttributeError(
            f"{what} has no attribute {name!r}. It releases only {sorted(self._public)} "
            "(statistics rounded by the policy)."
        )

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only.")

    def __dir__(self) -> list[str]:
        return sorted(set(self._public) | {"rsquared", "rsquared_adj", "fvalue", "f_pvalue"})

    def __reduce_ex__(self, protocol: int):
        raise DisclosureError(
            f"A {type(self).__name__} cannot be pickled or copied: it holds the residuals "
            "behind its diagnostic plots. Save the rounded numbers instead, e.g. "
            "fit.summary_frame().to_csv(...)."
        )

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__}: {self._formula}, nobs={self._nobs} (rounded), "
            f"{len(self._names)} coefficients; residuals not released>"
        )

    # -- diagnostic plots ----------------------------------------------------------------

    def _quantities(
        self, which: str, noisy: bool = False
    ) -> tuple[np.ndarray, np.ndarray, tuple[str, str], str]:
        raw = self._raw
        lab = self._labels
        if which == "resid_fitted":
            if noisy:
                # keyed noise on the residuals and, in the other panels, on the standardised
                # residuals would be two draws on nearly the same numbers, which average to
                # less noise (the ledger refuses the second): this panel shows the
                # standardised residuals, with the noise the other panels draw
                return (
                    raw.fitted,
                    raw.std_resid,
                    (lab["fitted"], lab["std"]),
                    "Residuals vs Fitted",
                )
            return raw.fitted, raw.resid, (lab["fitted"], lab["resid"]), "Residuals vs Fitted"
        if which == "scale_location":
            return (
                raw.fitted,
                np.sqrt(np.abs(raw.std_resid)),
                (lab["fitted"], "\u221a|" + lab["std"] + "|"),
                "Scale-Location",
            )
        if which == "resid_leverage":
            return (
                raw.leverage,
                raw.std_pearson,
                ("Leverage", lab["pearson"]),
                ("Residuals vs Leverage"),
            )
        raise ValueError(f"Unknown panel {which!r}; choose from {list(PANELS)}.")

    def _release_panel(
        self,
        which: str,
        *,
        method: str,
        k: int,
        q: float,
        threshold: int,
        factor: int,
        bins: int | None,
        metric: str,
        function: str,
        pol: Policy,
    ) -> _Panel:
        """Release one panel: pure numbers, nothing drawn."""
        from .plots._common import axis_from_range
        from .plots.relational import BoxScatterRelease, release_scatter

        if which == "qq":
            return self._release_qq(
                method=method,
                k=k,
                q=q,
                threshold=threshold,
                factor=factor,
                bins=bins,
                metric=metric,
                function=function,
                pol=pol,
            )
        x, y, names, title = self._quantities(which, noisy=get_method(method).adds_noise)
        rel = release_scatter(
            x,
            y,
            names=names,
            method=method,
            k=k,
            q=q,
            threshold=threshold,
            factor=factor,
            bins=bins,
            metric=metric,
            function=function,
            n_dropped=self._n_dropped_exact,
            policy=pol,
        )
        rare_x, rare_y = rare_values(x, threshold), rare_values(y, threshold)
        if isinstance(rel, BoxScatterRelease):
            panel = _Panel("boxes", rel, rel.report, title, names[0], names[1])
            panel.xlim, panel.ylim = rel.xlim, rel.ylim
            panel.xticks, panel.yticks = rel.xticks, rel.yticks
        else:
            panel = _Panel("points", rel, rel.report, title, names[0], names[1])
            xs, ys = lowess_trend(
                x, y, threshold=threshold, policy=pol, avoid_x=rare_x, avoid_y=rare_y
            )
            panel.trend = (xs, ys)
            xlo, xhi = _span(rel.x, xs)
            ylo, yhi = _span(rel.y, ys)
            if get_method(method).counts_only:
                # grid releases: the grid's own limits, widened only if the trend needs it
                xlo, xhi = min(xlo, rel.xlim[0]), max(xhi, rel.xlim[1])
                ylo, yhi = min(ylo, rel.ylim[0]), max(yhi, rel.ylim[1])
            panel.xlim, panel.xticks = axis_from_range(xlo, xhi, rare_x)
            panel.ylim, panel.yticks = axis_from_range(ylo, yhi, rare_y)
        panel.zero_line = which in ("resid_fitted", "resid_leverage") and not hits_any(
            [0.0], rare_y
        )
        if which == "resid_leverage":
            panel.contours = _cook_contours(panel, self._raw.p, rare_y, threshold)
        return panel

    def _release_qq(
        self, *, method, k, q, threshold, factor, bins, metric, function, pol
    ) -> _Panel:
        from .plots.regression import release_qq

        label = self._labels["std"]
        rel = release_qq(
            self._raw.std_resid,
            line="45",
            method=method,
            k=k,
            q=q,
            threshold=threshold,
            factor=factor,
            bins=bins,
            metric=metric,
            name=label,
            function=function,
            n_dropped=self._n_dropped_exact,
            policy=pol,
        )
        return _Panel("qq", rel, rel.report, "Q-Q Residuals", "Theoretical Quantiles", label)

    def _releases(
        self,
        which: tuple[str, ...],
        method: str | None,
        k: int,
        q: float,
        threshold: int | None,
        factor: int,
        bins: int | None,
        metric: str,
        function: str,
        policy: Policy | None,
    ) -> tuple[list[_Panel], Policy]:
        from .plots._common import check_positive_int

        pol = get_policy(policy)
        method = pol.check_method(method, "residual")
        threshold = pol.check_threshold(threshold)
        check_positive_int("factor", factor)
        if bins is not None:
            check_positive_int("bins", bins)
        if metric not in ("euclidean", "mahalanobis"):
            raise ValueError(f"metric must be 'euclidean' or 'mahalanobis', got {metric!r}.")
        panels = [
            self._release_panel(
                w,
                method=method,
                k=k,
                q=q,
                threshold=threshold,
                factor=factor,
                bins=bins,
                metric=metric,
                function=function,
                pol=pol,
            )
            for w in which
        ]
        return panels, pol

    def _single(
        self, which, ax, method, k, q, threshold, factor, bins, metric, algorithm, c,
        discretizer, annotate, policy,
    ) -> Axes:  # fmt: skip
        """Release one diagnostic panel, then draw it (the body of each ``plot_*`` panel)."""
        from .methods import method_options
        from .plots._common import axes_for, finish

        function = f"plot_{which}"
        with method_options(algorithm=algorithm, c=c, discretizer=discretizer):
            (panel,), pol = self._releases(
                (which,), method, k, q, threshold, factor, bins, metric, function, policy
            )
        ax = axes_for(ax, panel.report, panel)
        _draw_panel(ax, panel)
        return finish(ax, panel.report, annotate=annotate, policy=pol)

    plot_resid_fitted = _panel_method(
        "resid_fitted",
        "Plot residuals against fitted values, released safely (R's first panel).",
        """The released points, a dotted line at zero, and a lowess trend line with
winsorised, rounded ends: a flat line around zero says the mean is
modelled well.""",
        "deterministic",
    )

    plot_qq = _panel_method(
        "qq",
        "Plot a normal Q-Q plot of the standardised residuals, released safely (R's second).",
        """The standardised residuals are the internally studentised ones,
``e_i / (s * sqrt(1 - h_ii))``; the points are released by
:func:`safeplot.plots.regression.release_qq` with a 45-degree line.""",
        "probabilistic",
    )

    plot_scale_location = _panel_method(
        "scale_location",
        "Plot the root absolute standardised residuals against fitted values (R's third).",
        """``sqrt(|r_i|)`` of the standardised residuals against the fitted values,
with a lowess trend line: a rising line says the spread grows with
the mean.""",
        "suppress",
    )

    plot_resid_leverage = _panel_method(
        "resid_leverage",
        "Plot standardised residuals against leverage with Cook's distance contours (R's fifth).",
        """The contours at Cook's distance 0.5 and 1 are the curves
``r = +/- sqrt(c * p * (1 - h) / h)`` (p coefficients) over the
released leverage range, inside the released residual range. No
point is labelled.""",
        "deterministic",
    )

    def plot_diagnostics(
        self,
        method: str | None = None,
        k: int | None = None,
        q: float | None = None,
        threshold: int | None = None,
        factor: int = 2,
        fig: Figure | None = None,
        figsize: tuple[float, float] = (9.0, 8.0),
        annotate: bool | None = None,
        *,
        bins: int | None = None,
        metric: str = "euclidean",
        algorithm: str = "mdav_multivariate",
        c: int = 10,
        discretizer: str = "ewd",
        policy: Policy | None = None,
    ) -> Figure:
        """Draw R's four regression diagnostic plots in a 2 x 2 figure, released safely.

        Residuals against fitted values, a normal Q-Q plot of the
        standardised residuals, the scale-location plot and standardised
        residuals against leverage with Cook's distance contours (R's
        ``plot.lm``, ``which = c(1, 2, 3, 5)``). Every panel draws points
        released by `method`; trend lines are lowess fits with winsorised,
        rounded ends. Points are never labelled (R labels the three most
        extreme records, which identifies them).

        Parameters
        ----------
        method : str, optional
            Disclosure-control method of every panel (default: the policy's
            for residual plots, ``"deterministic"``): ``"deterministic"``,
            ``"probabilistic"``, ``"suppress"``, ``"generalize"``,
            ``"confidential"``, ``"microaggregation"``, ``"rounding"`` or
            ``"none"`` (raw, only if the policy allows it).
        k : int, optional
            Records per centroid (deterministic) or group (microaggregation).
            Default: the policy's ``k_min`` (3 unless the custodian sets more).
        q : float, optional
            Noise SD as a fraction of each variable's SD (probabilistic).
            Default: the policy's ``q_min`` (0.25 unless the custodian sets more).
        threshold : int, optional
            Smallest count of a shown grid cell or box (default and floor:
            the policy's).
        factor : int, default 2
            Grid coarsening of ``"generalize"``.
        fig : Figure, optional
            Figure to draw into (four new subplots); default a new figure.
        figsize : tuple of float, default (9, 8)
            Size of a new figure.
        annotate : bool, optional
            Add the method note to each panel (default: the policy's setting).
        bins : int, optional
            Cells per axis of the density grid of ``"suppress"`` and
            ``"generalize"``. Default: chosen by the number of records, as
            the heat map's (:func:`~safeplot.plots.grid.default_grid_bins`):
            11 x 11 for 344 records, 30 x 30 from about 2,700 on.
            ``bins=30`` gives the paper's grid whatever n is.
        metric : {"euclidean", "mahalanobis"}, default "euclidean"
            Neighbour distance of ``"deterministic"``.
        algorithm, c, discretizer
            Parameters of ``"microaggregation"`` and ``"rounding"``.
        policy : Policy, optional
            The policy in force (default: the current one).

        Returns
        -------
        matplotlib.figure.Figure
            Four Axes, each with its report on ``ax.safeplot_report``.

        Raises
        ------
        DisclosureError
            A policy floor not met (k, q, threshold, raw output), or a
            release that would show nothing (every grid cell suppressed).
        ValueError
            An unknown method or metric, or a bad parameter.

        See Also
        --------
        plot_resid_fitted, plot_qq, plot_scale_location, plot_resid_leverage :
            The panels one at a time.

        Notes
        -----
        **Methods**

        ``"deterministic"``
            Each panel's points are kNN centroids of the two plotted
            quantities (Avraam et al.), rescaled to their mean and SD.
        ``"probabilistic"``
            Keyed normal noise with SD ``q`` times each quantity's SD.
        ``"suppress"`` / ``"generalize"``
            A density grid of ``bins`` x ``bins`` cells (chosen by n; coarsened
            by ``factor`` under ``"generalize"``); one marker per cell with at
            least ``threshold`` records, its area proportional to the count.
        ``"confidential"``
            O'Keefe's parallel box plots of the y quantity over intervals of
            the x quantity, with a lowess trend; the Q-Q panel as released
            by :func:`safeplot.plots.regression.release_qq`.
        ``"microaggregation"`` / ``"rounding"``
            Group means of at least ``k`` records / rounding to ``c`` values.

        Examples
        --------
        >>> import matplotlib.pyplot as plt
        >>> import safeplot
        >>> df = safeplot.datasets.simulate("D1", n=200, seed=1)
        >>> fit = safe_ols("y ~ x", data=df)
        >>> fig = fit.plot_diagnostics()
        >>> [ax.safeplot_report.method for ax in fig.axes]
        ['deterministic', 'deterministic', 'deterministic', 'deterministic']
        >>> plt.close(fig)
        """
        import matplotlib.pyplot as plt

        from .methods import method_options
        from .plots._common import finish

        with method_options(algorithm=algorithm, c=c, discretizer=discretizer):
            panels, pol = self._releases(
                PANELS, method, k, q, threshold, factor, bins, metric, "plot_diagnostics", policy
            )
        for panel in panels:  # every panel reaches the ledger before any is drawn
            guard.admit(panel.report.function, panel.report, panel)
        if fig is None:
            fig = plt.figure(figsize=figsize, layout="constrained")
        axes = fig.subplots(2, 2).ravel()
        for ax, panel in zip(axes, panels, strict=True):
            _draw_panel(ax, panel)
            finish(ax, panel.report, annotate=annotate, policy=pol)
        return fig


def _span(*arrays: np.ndarray) -> tuple[float, float]:
    values = np.concatenate([np.asarray(a, dtype=float).ravel() for a in arrays])
    values = values[np.isfinite(values)]
    return float(values.min()), float(values.max())


def _cook_contours(
    panel: _Panel, p: int, rare_y: np.ndarray, threshold: int
) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """Cook's distance 0.5 and 1 curves over the released leverage range, inside the y limits."""
    from .plots._common import safe_points

    lo = max(panel.xlim[0], 1e-3)
    hi = min(panel.xlim[1], 0.999)
    if not hi > lo:
        return []
    h = safe_points(lo, hi, 60, avoid=np.array([]))
    out = []
    for level, label in ((0.5, "0.5"), (1.0, "1")):
        r = np.sqrt(level * p * (1 - h) / h)
        for sign in (1.0, -1.0):
            y = sign * r
            y = np.where((y >= panel.ylim[0]) & (y <= panel.ylim[1]), y, np.nan)
            hit = hit_mask(y, rare_y)
            y[hit] += 1e-6 * (panel.ylim[1] - panel.ylim[0])
            if np.isfinite(y).any():
                out.append((label, h, y))
    return out


def _draw_panel(ax: Axes, panel: _Panel) -> None:
    """Draw a released panel (points, boxes or Q-Q release); attach nothing."""
    from .plots._common import set_safe_axis

    if panel.kind == "qq":
        from .plots.regression import draw_qq

        draw_qq(ax, panel.release, markersize=3, alpha=0.6, markeredgewidth=0)
        ax.set_xlabel(panel.xlabel)
        ax.set_ylabel(panel.ylabel)
        ax.set_title(panel.title, fontsize="medium")
        return
    if panel.kind == "boxes":
        from .marks.boxes import draw_boxes as _draw_boxes

        _draw_boxes(ax, panel.release, colors=["C0"], legend=False)
    else:
        from .marks._large import is_large, scatter_points

        rel: PointRelease = panel.release
        kws = {"s": 10, "color": "C0", "alpha": 0.6, "lw": 0}
        if rel.sizes is not None:
            if rel.sizes.size:
                order = np.lexsort((rel.y, rel.x))  # not the records' order: nothing links panels
                sizes = rel.sizes[order]
                area = 12 * sizes / np.median(sizes)
                ax.scatter(rel.x[order], rel.y[order], s=area, color="C0", alpha=0.7, lw=0)
        elif is_large(rel.x.size):
            # each distinct point once, in the order of its coordinates, as scatter_points
            # draws the sorted points: sorted, equal points are adjacent (no hashing). Shared
            # points are drawn as any other, as below the limit. numpy sorts complex numbers
            # by real part, then imaginary part: the points in (x, y) order, at a third of
            # the cost of a lexsort and its two gathers
            ordered = np.sort(rel.x + 1j * rel.y)
            x, y = ordered.real, ordered.imag
            starts = np.flatnonzero(np.r_[True, (x[1:] != x[:-1]) | (y[1:] != y[:-1])])
            ax.scatter(x[starts], y[starts], rasterized=True, **kws)
        else:
            order = np.lexsort((rel.y, rel.x))  # not the records' order: nothing links panels
            scatter_points(ax, rel.x[order], rel.y[order], **kws)
        if panel.trend is not None:
            ax.plot(*panel.trend, color="C3", linewidth=1.4, label="lowess trend")
    if panel.zero_line:
        ax.plot(panel.xlim, [0.0, 0.0], color="0.5", linestyle=":", linewidth=1)
    shown = set()
    for label, h, y in panel.contours:
        ax.plot(
            h,
            y,
            color="C1",
            linestyle="--",
            linewidth=1,
            label=None if shown else "Cook's distance",
        )
        shown.add(label)
        i = int(np.flatnonzero(np.isfinite(y))[-1])
        ax.annotate(label, (h[i], y[i]), fontsize="x-small", color="C1", ha="right", va="bottom")
    if panel.contours:
        ax.legend(loc="lower left", fontsize="x-small", frameon=False)
    set_safe_axis(ax, "x", panel.xlim, panel.xticks)
    set_safe_axis(ax, "y", panel.ylim, panel.yticks)
    ax.set_xlabel(panel.xlabel)
    ax.set_ylabel(panel.ylabel)
    ax.set_title(panel.title, fontsize="medium")


# -- fitting -------------------------------------------------------------------------------


class SafeOLSResults(_SafeFitResults):
    """A fitted OLS model that releases only rounded statistics and safe diagnostic plots.

    Returned by :func:`safe_ols`. It wraps statsmodels' results privately
    (it is not a subclass, which would hand out everything): ``.params``,
    ``.bse``, ``.tvalues``, ``.pvalues``, ``.conf_int()``, ``.rsquared``,
    ``.rsquared_adj``, ``.fvalue``, ``.f_pvalue`` are rounded to the
    policy's significant figures; ``.nobs`` and ``.df_resid`` are rounded as
    the policy rounds counts. ``.resid``, ``.fittedvalues``,
    ``.get_influence()``, ``.model``, ``.predict()`` and the like raise
    :class:`~safeplot.errors.DisclosureError`. It cannot be pickled.
    """

    _public = (*_SafeFitResults._public, "rsquared", "rsquared_adj", "fvalue", "f_pvalue")

    @property
    def rsquared(self) -> float:
        """R-squared, rounded."""
        return self._stats["rsquared"]

    @property
    def rsquared_adj(self) -> float:
        """Adjusted R-squared, rounded."""
        return self._stats["rsquared_adj"]

    @property
    def fvalue(self) -> float:
        """F statistic of the model against the constant-only model, rounded."""
        return self._stats["fvalue"]

    @property
    def f_pvalue(self) -> float:
        """p-value of the F statistic, rounded."""
        return self._stats["f_pvalue"]

    def _info(self) -> dict[str, Any]:
        return {
            "Dep. Variable": self._endog_name,
            "Model": "OLS",
            "Method": "Least Squares",
            "No. Observations": self.nobs,
            "Df Residuals": self.df_resid,
            "Df Model": _fmt(self.df_model),
            "R-squared": self.rsquared,
            "Adj. R-squared": self.rsquared_adj,
            "F-statistic": self.fvalue,
            "Prob (F-statistic)": self.f_pvalue,
        }


class SafeGLMResults(_SafeFitResults):
    """A fitted binomial GLM (logistic regression) released as :class:`SafeOLSResults` is.

    Returned by :func:`safe_logit` and :func:`safe_glm`. Statistics are
    rounded; the diagnostic plots use deviance residuals against the linear
    predictor (R's ``plot.glm``): standardised deviance residuals in the Q-Q
    and scale-location panels, standardised Pearson residuals against
    leverage in the last.
    """

    _public = (*_SafeFitResults._public, "deviance", "null_deviance", "llf", "aic")
    _labels: ClassVar[dict[str, str]] = {
        "fitted": "Predicted values",
        "resid": "Residuals",
        "std": "Std. deviance resid.",
        "pearson": "Std. Pearson resid.",
    }

    @property
    def deviance(self) -> float:
        """Residual deviance, rounded."""
        return self._stats["deviance"]

    @property
    def null_deviance(self) -> float:
        """Deviance of the constant-only model, rounded."""
        return self._stats["null_deviance"]

    @property
    def llf(self) -> float:
        """Log-likelihood, rounded."""
        return self._stats["llf"]

    @property
    def aic(self) -> float:
        """Akaike information criterion, rounded."""
        return self._stats["aic"]

    def _info(self) -> dict[str, Any]:
        return {
            "Dep. Variable": self._endog_name,
            "Model": "GLM",
            "Model Family": "Binomial",
            "Link Function": "Logit",
            "No. Observations": self.nobs,
            "Df Residuals": self.df_resid,
            "Df Model": _fmt(self.df_model),
            "Log-Likelihood": self.llf,
            "Deviance": self.deviance,
            "Null deviance": self.null_deviance,
            "AIC": self.aic,
        }


def _columns(data: Any) -> list[str]:
    if isinstance(data, pd.DataFrame):
        return [str(c) for c in data.columns]
    if isinstance(data, Mapping):
        return [str(c) for c in data]
    return []


def _build_model(
    kind: str,
    formula: str,
    data: Any,
    subset: Any,
    drop_cols: Any,
    args: tuple,
    kwargs: dict,
    eval_env: Any,
):
    """Build the statsmodels model, turning patsy's errors into clear ones."""
    import patsy
    import statsmodels.formula.api as smf

    if not isinstance(formula, str) or "~" not in formula:
        raise ValueError(
            f"formula must be a string such as 'y ~ x1 + x2', got {formula!r}: the outcome, "
            "a '~', then the predictors."
        )
    refuse_dask(data, "safe_ols" if kind == "ols" else "safe_glm")
    if not isinstance(data, (pd.DataFrame, Mapping)):
        raise TypeError(
            f"data must be a pandas DataFrame (or a dict of columns), got {type(data).__name__}."
        )
    from statsmodels.tools.sm_exceptions import MissingDataError

    _check_formula_columns(formula, data)
    kwargs = dict(kwargs)
    kwargs.setdefault("eval_env", eval_env)
    factory = {"ols": smf.ols, "glm": smf.glm}[kind]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return factory(formula, data, subset, drop_cols, *args, **kwargs)
    except patsy.PatsyError as err:
        msg = str(err)
        missing = re.search(r"name '([^']+)' is not defined", msg)
        if missing:
            raise ValueError(
                f"The formula {formula!r} names {missing.group(1)!r}, which is not a column of "
                f"the data (nor a function or variable in scope); available columns: "
                f"{_columns(data)}."
            ) from None
        raise ValueError(
            f"The formula {formula!r} could not be read: {msg.splitlines()[0]}"
        ) from None
    except IndexError:
        # statsmodels' missing-value handling fails on a single row with a missing value
        raise ValueError(
            "No complete records: the data are empty, or every row has a missing value "
            "in a model variable. Check the formula and the data."
        ) from None
    except MissingDataError:
        raise ValueError(
            "The model variables contain infinite values; replace them (or set them to "
            "missing, so the rows are dropped) before fitting."
        ) from None
    except ValueError as err:
        if "zero-size" in str(err):
            raise ValueError(
                "No complete records: the data are empty, or every row has a missing value "
                "in a model variable. Check the formula and the data."
            ) from None
        if "multiple columns" in str(err):
            outcome = formula.split("~")[0].strip()
            advice = (
                "for a binary outcome use safe_logit (with 0/1 values)"
                if kind == "ols"
                else "code the outcome as 0/1 numbers"
            )
            raise ValueError(
                f"The outcome {outcome!r} is not numeric (text, categories or booleans): the "
                f"model needs a numeric outcome; {advice}."
            ) from None
        raise


def _check_formula_columns(formula: str, data: Any) -> None:
    """Refuse model columns patsy would misread: dates, numbers mixed with text, huge values.

    patsy turns a date or a column of numbers with a stray text entry into a
    categorical term with one level per value (a model that fits every record),
    and values beyond about 1e150 overflow the fit.
    """
    for name in data.keys() if isinstance(data, Mapping) else data.columns:
        if not (
            isinstance(name, str) and re.search(rf"(?<![\w.]){re.escape(name)}(?![\w.])", formula)
        ):
            continue
        col = pd.Series(data[name])
        if col.dtype == object:
            col = col.infer_objects()
        if pd.api.types.is_datetime64_any_dtype(col.dtype) or pd.api.types.is_timedelta64_dtype(
            col.dtype
        ):
            raise ValueError(
                f"Column {name!r} holds dates or times ({col.dtype}). Convert it to a number "
                "(e.g. days since a reference date) before using it in a model."
            )
        if col.dtype == object:
            numbers = pd.to_numeric(col, errors="coerce")
            text = col.notna() & numbers.isna()
            if numbers.notna().sum() > text.sum():
                raise ValueError(
                    f"Column {name!r} mixes numbers and text (such as "
                    f"{str(col[text].iloc[0])[:20]!r}): the model would read it as a category "
                    "with one level per value. Convert it with pandas.to_numeric (text becomes "
                    "missing) or recode it."
                )
        elif pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(
            col.dtype
        ):
            with np.errstate(invalid="ignore"):
                values = np.abs(col.to_numpy(dtype=float, na_value=np.nan))
            if (values[np.isfinite(values)] > 1e150).any():
                raise ValueError(
                    f"Column {name!r} has values too large in magnitude (beyond about 1e150) "
                    "to fit a model. Rescale it (e.g. change units) first."
                )


def _collinear_columns(exog: np.ndarray, names: list[str]) -> list[str]:
    """Columns that are linear combinations of the ones before them."""
    out, keep = [], []
    scale = np.abs(exog).max(axis=0)
    scale[scale == 0] = 1.0
    z = exog / scale
    for j in range(z.shape[1]):
        cols = [*keep, j]
        if np.linalg.matrix_rank(z[:, cols]) < len(cols):
            out.append(names[j])
        else:
            keep.append(j)
    return out


def _check_design(model, pol: Policy, what: str) -> None:
    """Refuse designs that cannot be fitted or released: too few records, collinear columns."""
    exog = np.asarray(model.exog, dtype=float)
    n, k = exog.shape
    if not (np.isfinite(exog).all() and np.isfinite(np.asarray(model.endog, float)).all()):
        raise ValueError(
            "The model variables contain infinite values; replace them (or set them to "
            "missing, so the rows are dropped) before fitting."
        )
    if n == 0:
        raise ValueError("No complete records: every row has a missing value in the model.")
    if n <= k:
        raise DisclosureError(
            f"Only {pol.describe_count(n)} complete records for {k} coefficients: the model "
            f"would fit the data exactly. {what} needs at least {k + MIN_DF_RESID} records "
            f"for {k} coefficients (residual degrees of freedom at least {MIN_DF_RESID})."
        )
    rank = np.linalg.matrix_rank(exog)
    if rank < k:
        bad = _collinear_columns(exog, list(model.exog_names))
        raise ValueError(
            f"The design matrix is singular (rank {rank} < {k} columns): {bad} "
            "are exact linear combinations of the other terms (collinearity, or a constant "
            "column next to the intercept). Drop them from the formula (or use drop_cols=)."
        )
    if n - rank < MIN_DF_RESID:
        raise DisclosureError(
            f"The model has {n - rank} residual degrees of freedom, fewer than "
            f"{MIN_DF_RESID}: with so few records per coefficient the output comes close to "
            "the data themselves (degrees-of-freedom rule of output checking). Use fewer "
            "terms or more records."
        )
    guard.link_groups(
        np.asarray(model.endog, dtype=float),
        _design_groups(model, exog),
        function=what,
        advice="Merge small categories or drop the term, and fit every model on the same "
        "records (drop the rows with a missing value in any model variable first, e.g. "
        "data.dropna(subset=[...])).",
    )


def _design_groups(model, exog: np.ndarray) -> dict[str, np.ndarray]:
    """Return the groups of records a model's coefficients are, in effect, statistics of.

    Each column of two values (a dummy, an interaction of dummies) marks the
    records at its larger value; each term coded by dummies also has its
    reference level, the records at 0 in all its columns. With the intercept,
    the ledger adds all the records fitted (:func:`guard.link_groups`). A
    dummy of a category is named by its term and column number, not by its
    level: a refusal must not name a small level.
    """
    names = [str(v) for v in (getattr(model, "exog_names", None) or range(exog.shape[1]))]
    low, high = exog.min(axis=0), exog.max(axis=0)
    two = [j for j in range(exog.shape[1]) if low[j] < high[j]]
    two = [j for j in two if np.all((exog[:, j] == low[j]) | (exog[:, j] == high[j]))]
    labels = dict(enumerate(names))
    data = getattr(model, "data", None)
    info = getattr(data, "model_spec", None) or getattr(data, "design_info", None)
    slices = getattr(info, "term_slices", {})  # patsy's terms (statsmodels' model_spec)
    reference = {}
    for term, cols in slices.items():
        js = list(range(exog.shape[1]))[cols]
        for j in js:
            if names[j] != term.name():  # a level's column, e.g. C(g)[T.b]
                labels[j] = f"a level of {term.name()} (column {j + 1} of the design)"
        if len(js) > 1 and all(j in two and low[j] == 0 for j in js):
            reference[f"the reference level of {term.name()}"] = ~(exog[:, js] != 0).any(axis=1)
    return {labels[j]: exog[:, j] == high[j] for j in two} | reference


def _n_used(data: Any, subset: Any, nobs: int) -> int:
    if isinstance(data, pd.DataFrame):
        total = len(data.loc[subset]) if subset is not None else len(data)
    else:
        lengths = [len(v) for v in data.values()] if isinstance(data, Mapping) else [nobs]
        total = max(lengths) if lengths else nobs
    return max(int(total) - int(nobs), 0)


def _leverage(exog: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    x = exog if weights is None else exog * np.sqrt(weights)[:, None]
    qmat, _ = np.linalg.qr(x)
    return np.sum(qmat**2, axis=1)


def _refuse_exact(h: np.ndarray) -> None:
    if (h > 1 - 1e-8).any():
        raise DisclosureError(
            "A record has leverage 1: the model fits it exactly (for example a category level "
            "held by a single record), so its coefficient gives away that record's outcome. "
            "Merge small categories or drop the term."
        )


def safe_ols(
    formula: str,
    data: Any,
    subset: Any = None,
    drop_cols: Any = None,
    *args: Any,
    policy: Policy | None = None,
    fit_kws: dict | None = None,
    **kwargs: Any,
) -> SafeOLSResults:
    """Fit an OLS model from a formula and release it safely.

    ``smf.ols(formula, data, subset, drop_cols, *args, **kwargs).fit()``
    underneath (statsmodels' ``from_formula`` naming); the result releases
    rounded statistics and disclosure-controlled diagnostic plots only.

    Parameters
    ----------
    formula : str
        A patsy formula, such as ``"y ~ x1 + C(group)"``.
    data : DataFrame
        The data. Rows with a missing value in a model variable are dropped
        (and counted, rounded, in the summary).
    subset : array-like, optional
        Booleans, integers or index values selecting the rows to use.
    drop_cols : array-like, optional
        Columns to drop from the design matrix.
    *args
        Passed to the model.
    policy : Policy, optional
        The policy that rounds the statistics (default: the current one).
    fit_kws : dict, optional
        Passed to ``fit()``, e.g. ``{"cov_type": "HC3"}``.
    **kwargs
        Passed to the model (``eval_env`` to patsy).

    Returns
    -------
    SafeOLSResults

    Raises
    ------
    DisclosureError
        Residual degrees of freedom below 10, fewer records than
        coefficients, a perfect fit (zero residuals: R-squared 1 reveals the
        outcome exactly), a record with leverage 1, or a group of records
        too small or too close to another: a dummy (or a category's
        reference level) marking fewer than ``threshold`` records, or a
        group -- of this model, or of an earlier model of the same outcome
        in the session (all its records included) -- that holds another and
        fewer than ``threshold`` records more
        (:meth:`safeplot.ledger.Ledger.link_groups`).
    ValueError
        A formula naming a column that is not in the data (the message lists
        the columns), a text outcome, or a singular design (collinear terms,
        named).

    See Also
    --------
    safe_logit : The same for a binary outcome.
    SafeOLSResults.plot_diagnostics : R's four diagnostic plots, released safely.

    Notes
    -----
    Residuals plus fitted values give back each outcome, and leverages and
    Cook's distances single out unusual records, so none of them is
    released (Avraam et al. 2021, section 4.2; O'Keefe & Good 2009). The
    degrees-of-freedom rule (at least 10 residual degrees of freedom)
    follows the output-checking guidance of Brandt et al. (2010).

    **Methods**

    The statistics are rounded to the policy's significant figures (not a
    method). The diagnostic plots take ``method=``; see
    :meth:`SafeOLSResults.plot_diagnostics`.

    References
    ----------
    .. [1] Avraam D et al. "Privacy preserving data visualizations." EPJ Data
       Science 10:2 (2021).
    .. [2] O'Keefe CM, Good NM. "Regression output from a remote analysis
       server." Data & Knowledge Engineering 68(11) (2009).

    Examples
    --------
    >>> import safeplot
    >>> df = safeplot.datasets.simulate("D1", n=200, seed=1)
    >>> fit = safe_ols("y ~ x", data=df)
    >>> fit.nobs, float(fit.params["x"])
    (200, 1.08)
    >>> fit.resid
    Traceback (most recent call last):
    ...
    safeplot.diagnostics.ReleaseRefused: SafeOLSResults.resid is not released: ...
    """
    import patsy

    pol = get_policy(policy)
    env = kwargs.pop("eval_env", None)
    if env is None:
        env = patsy.EvalEnvironment.capture(1)
    data = to_pandas(data, function="safe_ols")
    model = _build_model("ols", formula, data, subset, drop_cols, args, kwargs, env)
    _check_design(model, pol, "safe_ols")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = model.fit(**(fit_kws or {}))
    exog = np.asarray(model.exog, dtype=float)
    n, p = exog.shape
    resid = np.asarray(res.resid, dtype=float)
    fitted = np.asarray(res.fittedvalues, dtype=float)
    y = np.asarray(model.endog, dtype=float)
    tss = float(np.sum((y - y.mean()) ** 2))
    ssr = float(np.sum(resid**2))
    if ssr <= 1e-20 * max(float(np.sum(y**2)), 1e-300) or (tss > 0 and ssr <= 1e-12 * tss):
        raise DisclosureError(
            "The model fits the data exactly (all residuals are zero, R-squared = 1): its "
            "coefficients give back every outcome, and residual diagnostics would be constant. "
            "Check the formula (is the outcome, or a copy of it, among the predictors?)."
        )
    h = _leverage(exog)
    _refuse_exact(h)
    s = math.sqrt(ssr / res.df_resid)
    std = resid / (s * np.sqrt(1 - h))
    cooks = std**2 * h / (p * (1 - h))
    raw = _RawDiagnostics(
        fitted=fitted, resid=resid, std_resid=std, std_pearson=std, leverage=h, cooks=cooks, p=p
    )
    info = {
        "rsquared": res.rsquared,
        "rsquared_adj": res.rsquared_adj,
        "fvalue": res.fvalue if np.isfinite(res.fvalue) else np.nan,
        "f_pvalue": res.f_pvalue if np.isfinite(res.f_pvalue) else np.nan,
    }
    return SafeOLSResults(
        formula=formula,
        endog_name=str(model.endog_names),
        params=res.params,
        bse=res.bse,
        use_t=res.use_t,
        df_resid=res.df_resid,
        df_model=res.df_model,
        nobs=n,
        n_dropped=_n_used(data, subset, n),
        stats_info=info,
        raw=raw,
        policy=pol,
        model_name="OLS",
    )


def safe_glm(
    formula: str,
    data: Any,
    subset: Any = None,
    drop_cols: Any = None,
    *args: Any,
    family: Any = None,
    policy: Policy | None = None,
    fit_kws: dict | None = None,
    **kwargs: Any,
) -> SafeGLMResults:
    """Fit a binomial GLM (logistic regression) from a formula and release it safely.

    ``smf.glm(formula, data, subset, drop_cols, *args, family=family,
    **kwargs).fit()`` underneath. Only the binomial family with its logit
    link is supported; the outcome must be 0/1.

    Parameters
    ----------
    formula : str
        A patsy formula with a 0/1 outcome, such as ``"died ~ age + sex"``.
    data : DataFrame
        The data; rows with missing values are dropped and counted (rounded).
    subset, drop_cols, *args
        As statsmodels' ``from_formula``.
    family : statsmodels family, optional
        ``sm.families.Binomial()`` (the default); other families are refused.
    policy : Policy, optional
        The policy that rounds the statistics.
    fit_kws : dict, optional
        Passed to ``fit()``.
    **kwargs
        Passed to the model.

    Returns
    -------
    SafeGLMResults

    Raises
    ------
    DisclosureError
        Residual degrees of freedom below 10, perfect separation (the
        fitted probabilities are 0 or 1: the outcome of those records is
        given away), a record with leverage 1, or a group of records too
        small or too close to another, as in :func:`safe_ols`.
    ValueError
        An outcome that is not 0/1, a missing column, a singular design, or
        a family other than binomial.

    See Also
    --------
    safe_logit : The same, with the family fixed.
    safe_ols : Linear regression.

    Notes
    -----
    **Methods**

    Statistics are rounded to the policy's significant figures; the
    diagnostic plots take ``method=`` (see
    :meth:`SafeOLSResults.plot_diagnostics`) and show deviance residuals
    against the linear predictor.

    Examples
    --------
    >>> import safeplot
    >>> titanic = safeplot.load_dataset("titanic")
    >>> fit = safe_glm("survived ~ age + C(sex)", data=titanic)
    >>> fit.nobs, float(fit.params["C(sex)[T.male]"])
    (715, -2.47)
    """
    import patsy
    import statsmodels.api as sm

    pol = get_policy(policy)
    if family is None:
        family = sm.families.Binomial()
    if not isinstance(family, sm.families.Binomial) or not isinstance(
        family.link, sm.families.links.Logit
    ):
        raise ValueError(
            "safe_glm supports the binomial family with its logit link only "
            "(sm.families.Binomial()); for a numeric outcome use safe_ols."
        )
    env = kwargs.pop("eval_env", None)
    if env is None:
        env = patsy.EvalEnvironment.capture(1)
    kwargs["family"] = family
    data = to_pandas(data, function="safe_glm")
    model = _build_model("glm", formula, data, subset, drop_cols, args, kwargs, env)
    y = np.asarray(model.endog, dtype=float)
    if y.ndim != 1 or not np.isin(y, (0.0, 1.0)).all():
        raise ValueError(
            "The outcome must be coded 0/1 for a binomial model (a single column of 0s and "
            "1s); recode it, e.g. (df['outcome'] == 'yes').astype(int)."
        )
    if y.min() == y.max():
        raise DisclosureError(
            "The outcome takes a single value: every record's outcome would be given away. "
            "There is nothing to model."
        )
    _check_design(model, pol, "safe_glm")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = model.fit(**(fit_kws or {}))
        except Exception as err:  # statsmodels' separation errors
            if "separation" in str(err).lower():
                raise _separation() from None
            raise
        mu = np.asarray(res.fittedvalues, dtype=float)
    if (mu < 1e-8).any() or (mu > 1 - 1e-8).any():
        raise _separation()
    exog = np.asarray(model.exog, dtype=float)
    n, p = exog.shape
    w = mu * (1 - mu)
    h = _leverage(exog, w)
    _refuse_exact(h)
    dev = np.asarray(res.resid_deviance, dtype=float)
    pearson = np.asarray(res.resid_pearson, dtype=float)
    std_dev = dev / np.sqrt(1 - h)
    std_pearson = pearson / np.sqrt(1 - h)
    cooks = std_pearson**2 * h / (p * (1 - h))
    raw = _RawDiagnostics(
        fitted=exog @ np.asarray(res.params, dtype=float),
        resid=dev,
        std_resid=std_dev,
        std_pearson=std_pearson,
        leverage=h,
        cooks=cooks,
        p=p,
    )
    info = {
        "deviance": res.deviance,
        "null_deviance": res.null_deviance,
        "llf": res.llf,
        "aic": res.aic,
    }
    return SafeGLMResults(
        formula=formula,
        endog_name=str(model.endog_names),
        params=res.params,
        bse=res.bse,
        use_t=res.use_t,
        df_resid=res.df_resid,
        df_model=res.df_model,
        nobs=n,
        n_dropped=_n_used(data, subset, n),
        stats_info=info,
        raw=raw,
        policy=pol,
        model_name="Binomial GLM",
    )


def _separation() -> DisclosureError:
    return DisclosureError(
        "Perfect or quasi-complete separation: some fitted probabilities are 0 or 1, so the "
        "model gives away the outcome of those records (and its coefficients are not "
        "estimable). Drop or merge the predictor that separates the outcome."
    )


def safe_logit(
    formula: str,
    data: Any,
    subset: Any = None,
    drop_cols: Any = None,
    *args: Any,
    policy: Policy | None = None,
    fit_kws: dict | None = None,
    **kwargs: Any,
) -> SafeGLMResults:
    """Fit a logistic regression from a formula and release it safely.

    :func:`safe_glm` with ``family=sm.families.Binomial()``; see there.

    Parameters
    ----------
    formula : str
        A patsy formula with a 0/1 outcome.
    data : DataFrame
    subset, drop_cols, *args, **kwargs
        As statsmodels' ``from_formula``.
    policy : Policy, optional
    fit_kws : dict, optional

    Returns
    -------
    SafeGLMResults

    Raises
    ------
    DisclosureError, ValueError
        As :func:`safe_glm`.

    See Also
    --------
    safe_glm, safe_ols

    Notes
    -----
    **Methods**

    As :func:`safe_glm`.

    Examples
    --------
    >>> import safeplot
    >>> titanic = safeplot.load_dataset("titanic")
    >>> fit = safe_logit("survived ~ fare", data=titanic)
    >>> fit.pvalues["fare"] < 0.001
    np.True_
    """
    import patsy

    env = kwargs.pop("eval_env", None)
    if env is None:
        env = patsy.EvalEnvironment.capture(1)
    return safe_glm(
        formula,
        data,
        subset,
        drop_cols,
        *args,
        policy=policy,
        fit_kws=fit_kws,
        eval_env=env,
        **kwargs,
    )
