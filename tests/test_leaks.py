"""DESIGN.md section 3 for every public plot function x every method x several data shapes.

One table lists each public plot function, how to call it on a two-column
frame, which axes show raw values, and the methods it supports. Every
combination is drawn on every data shape and must pass the leak scanner (no
drawn number equals a rare raw value, no drawn count lies in (0, threshold)),
carry a report naming the method, appear in the audit log and carry the
method note. A function added to the package without an entry here fails
``test_every_public_plot_function_is_covered``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
from matplotlib.figure import Figure

import safeplot
from safeplot import audit
from safeplot.datasets import simulate
from safeplot.errors import DisclosureError
from safeplot.methods import available_methods, get_method
from safeplot.plots._common import FOOTNOTE_GID, method_note
from safeplot.plots.axisgrid import JOINT_METHODS, PAIR_METHODS, pair_axes_variables
from safeplot.plots.bar import BAR_METHODS
from safeplot.plots.boxen import BOXEN_METHODS
from safeplot.plots.categorical import BOX_METHODS, COUNT_METHODS
from safeplot.plots.distributions import HIST_METHODS
from safeplot.plots.ecdf import ECDF_METHODS
from safeplot.plots.facets import facet_axes_variables
from safeplot.plots.grid import GRID_METHODS
from safeplot.plots.kde import KDE_METHODS
from safeplot.plots.line import LINE_METHODS
from safeplot.plots.point import POINT_METHODS
from safeplot.plots.relational import SCATTER_METHODS, SCATTER_POINT_METHODS
from safeplot.plots.rug import RUG_METHODS
from safeplot.plots.strip import STRIP_METHODS
from safeplot.plots.survival import SURVIVAL_METHODS
from safeplot.plots.violin import VIOLIN_METHODS
from safeplot.policy import METHODS

from .leakscan import scan_figure
from .refusals import Refusal, check, drawing_cells
from .refusals import expected as expected_refusal


def _shapes() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(20261121)
    n = 300
    x = np.round(rng.normal(50, 10, n), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, n), 3)
    g = rng.choice(["a", "b"], n)
    shapes = {
        # three planted unique outliers, far out on both axes
        "outliers": pd.DataFrame(
            {
                "x": np.r_[x, 412.731, -97.113, 255.517],
                "y": np.r_[y, -88.404, 301.219, 12.5],
                "g": np.r_[g, ["a", "b", "a"]],
            }
        ),
        # integers with heavy ties, plus rare values inside and outside the bulk
        "ties": pd.DataFrame(
            {
                "x": np.r_[rng.integers(0, 12, 400), 37, 41, 19, 5].astype(float),
                "y": np.r_[rng.integers(0, 8, 400), 15, 23, -4, 3].astype(float),
                "g": np.r_[rng.choice(["a", "b"], 400), ["a", "b", "a", "b"]],
            }
        ),
        # strongly skewed, bounded below
        "skewed": pd.DataFrame(
            {
                "x": np.round(rng.lognormal(0, 1, 250), 4),
                "y": np.round(rng.uniform(0, 1, 250), 4),
                "g": rng.choice(["a", "b"], 250),
            }
        ),
    }
    for name in ("D1", "D3"):
        df = simulate(name, n=300, seed=5)
        df["g"] = rng.choice(["a", "b"], 300)
        shapes[name] = df
    # hue levels of 1, 2, 3 and 4 records next to one large group; their values are unique
    sizes = {"a": 190, "b": 1, "c": 2, "d": 3, "e": 4}
    g = np.repeat(list(sizes), list(sizes.values()))
    x = np.round(rng.normal(30, 6, g.size), 2)
    shapes["tiny_groups"] = pd.DataFrame(
        {"x": x, "y": np.round(0.8 * x + rng.normal(0, 3, g.size), 2), "g": g}
    )
    # proportions piled on the bounds 0 and 1, with unique values in between
    n = 250
    x = np.round(rng.uniform(0, 1, n), 3)
    x[rng.random(n) < 0.35] = 0.0
    x[rng.random(n) < 0.2] = 1.0
    # y on a finer grid than x: text is compared with every variable, and interval edges of
    # x written as text (0.21) would otherwise meet a rare y of the same value by chance
    y = np.round(rng.beta(0.5, 0.5, n), 6)
    y[rng.random(n) < 0.1] = 0.0
    y[rng.random(n) < 0.15] = 1.0
    shapes["bounded"] = pd.DataFrame({"x": x, "y": y, "g": rng.choice(["a", "b"], n)})
    # hue groups of exactly k, k + 1 and 2k - 1 records (default k = 3) next to a large one
    sizes = {"a": 180, "b": 3, "c": 4, "d": 5}
    g = np.repeat(list(sizes), list(sizes.values()))
    x = np.round(rng.normal(100, 15, g.size), 3)
    shapes["strata_near_k"] = pd.DataFrame(
        {"x": x, "y": np.round(0.3 * x + rng.normal(0, 4, g.size), 3), "g": g}
    )
    return shapes


SHAPES = _shapes()


@dataclass
class Case:
    """How to draw one public plot function on a frame with columns x, y, g."""

    name: str
    draw: Callable[[pd.DataFrame, str, Any], Any]
    methods: tuple[str, ...]
    raw: Callable[[pd.DataFrame], dict[str, np.ndarray]]
    scan: dict[str, Any] = field(default_factory=dict)
    functions: tuple[str, ...] = ()
    #: The function makes its own figure (a grid, a diagnostics figure): no Axes is passed.
    own_figure: bool = False
    #: ``(result, df) -> {ax: {"x": ..., "y": ...}}`` for panels showing different variables.
    per_axes: Callable[[Any, pd.DataFrame], dict] | None = None


def _xy(df):
    return {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}


def _resid(df):
    """Residuals and fitted values of the straight-line fit of y on x (raw values too)."""
    x, y = df["x"].to_numpy(float), df["y"].to_numpy(float)
    ok = ~(np.isnan(x) | np.isnan(y))
    r = np.full(x.shape, np.nan)
    r[ok] = y[ok] - np.polyval(np.polyfit(x[ok], y[ok], 1), x[ok])
    return r, y - r


#: The four diagnostic panels of a fitted model (R's plot.lm).
DIAG_PANELS = ("plot_resid_fitted", "plot_qq", "plot_scale_location", "plot_resid_leverage")


def _ols_raw(df):
    """What each diagnostic panel plots, from the raw fit: residuals, fitted, leverages..."""
    res = smf.ols("y ~ x", df).fit()
    infl = res.get_influence()
    std = infl.resid_studentized_internal
    fitted = res.fittedvalues.to_numpy()
    return {
        "plot_resid_fitted": {"x": fitted, "y": res.resid.to_numpy()},
        "plot_qq": {"y": std},  # the x axis shows theoretical quantiles, not data
        "plot_scale_location": {"x": fitted, "y": np.sqrt(np.abs(std))},
        "plot_resid_leverage": {"x": infl.hat_matrix_diag, "y": std},
        "cooks": {"cooks": infl.cooks_distance[0]},
    }


def _diagnostics_axes(fig, df):
    raw = _ols_raw(df)
    return {ax: raw[p] for ax, p in zip(fig.axes, DIAG_PANELS, strict=False)}


def _safe(methods, *, private=False):
    """The methods less "none"; differentially private ones only where the plot takes them."""
    return tuple(m for m in methods if m != "none" and (private or not get_method(m).private))


#: Findings that do not apply to a differentially private release: its counts carry noise and
#: are not suppressed (a noisy 1 certifies no record), and its bin edges and every position
#: drawn from them are fixed by the call or by a DP range estimate on a fixed grid, never read
#: from the records. Tick labels write those tick positions (on the grid of the DP limits)
#: as text; other text (labels, legends, notes, metadata) is still held to the rule.
_DP_POSITIONS = (
    "bar ",
    "path ",
    "line ",
    "patch ",
    "marker ",
    "mesh ",
    "image ",
    "xlim",
    "ylim",
    "xticks",
    "yticks",
    "x tick label",
    "y tick label",
)


def _private_findings(findings):
    findings.small_counts.clear()
    findings.leaks = [f for f in findings.leaks if not f.startswith(_DP_POSITIONS)]
    return findings


def _with_events(df):
    """The frame with an event indicator e: 1 for the records with y above its mean."""
    return df.assign(e=(df["y"] > df["y"].mean()).astype(int))


def _column(df, name):
    """The frame's column `name` as a frame of one column (none if it is missing)."""
    return df[[c for c in df.columns if c == name]]


CASES = [
    Case(
        "histplot",
        lambda df, m, ax: safeplot.histplot(data=df, x="x", method=m, ax=ax),
        _safe(HIST_METHODS, private=True),
        lambda df: {"x": df["x"].to_numpy()},
        functions=("histplot",),
    ),
    Case(
        # bins evenly spaced in log10(x), per hue level, with the density of the bin centres
        "histplot-log-hue",
        lambda df, m, ax: safeplot.histplot(
            data=df, x="x", hue="g", log_scale=True, kde=True, method=m, ax=ax
        ),
        _safe(HIST_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
    ),
    Case(
        "histplot-hue-stack-kde",
        lambda df, m, ax: safeplot.histplot(
            data=df,
            x="x",
            hue="g",
            multiple="stack",
            kde=True,
            method=m,
            ax=ax,
            **_dp_levels(df, m),
        ),
        _safe(HIST_METHODS, private=True),
        lambda df: {"x": df["x"].to_numpy()},
    ),
    Case(
        "histplot-bivariate",
        lambda df, m, ax: safeplot.histplot(data=df, x="x", y="y", cbar=True, method=m, ax=ax),
        _safe(GRID_METHODS),
        _xy,
        {"counts_in_colour": True},
    ),
    Case(
        "hist",
        lambda df, m, ax: safeplot.hist(df["x"], bins=25, method=m, ax=ax),
        _safe(HIST_METHODS, private=True),
        lambda df: {"x": df["x"].to_numpy()},
        functions=("hist",),
    ),
    Case(
        "scatterplot",
        lambda df, m, ax: safeplot.scatterplot(
            data=df, x="x", y="y", method=m, mark_coincident=True, ax=ax
        ),
        _safe(SCATTER_METHODS),
        _xy,
        {"count_axis": None},
        functions=("scatterplot",),
    ),
    Case(
        "scatterplot-hue",
        lambda df, m, ax: safeplot.scatterplot(data=df, x="x", y="y", hue="g", method=m, ax=ax),
        _safe(SCATTER_METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "scatter",
        lambda df, m, ax: safeplot.scatter(df["x"], df["y"], method=m, ax=ax),
        _safe(SCATTER_POINT_METHODS),
        _xy,
        {"count_axis": None},
        functions=("scatter",),
    ),
    Case(
        "boxplot",
        lambda df, m, ax: safeplot.boxplot(data=df, x="g", y="x", method=m, ax=ax),
        _safe(BOX_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("boxplot",),
    ),
    Case(
        "heatmap",
        lambda df, m, ax: safeplot.heatmap(data=df, x="x", y="y", method=m, ax=ax),
        _safe(GRID_METHODS),
        _xy,
        {"counts_in_colour": True},
        functions=("heatmap",),
    ),
    Case(
        "kdeplot",
        lambda df, m, ax: safeplot.kdeplot(data=df, x="x", hue="g", method=m, ax=ax),
        _safe(KDE_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("kdeplot",),
    ),
    Case(
        "kdeplot-bivariate",
        lambda df, m, ax: safeplot.kdeplot(data=df, x="x", y="y", method=m, ax=ax),
        _safe(KDE_METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "countplot",
        lambda df, m, ax: safeplot.countplot(data=df, x="x", hue="g", method=m, ax=ax),
        _safe(COUNT_METHODS),
        lambda df: {"x_labels": df["x"].to_numpy()},
        {"count_axis": "y", "categorical": "x"},
        functions=("countplot",),
    ),
    Case(
        # a DP count plot counts the categories the call names (order=), public by
        # construction, so its labels are not data; its text is checked against the rare
        # values of the numeric column
        "countplot-dp",
        lambda df, m, ax: safeplot.countplot(data=df, x="g", order=["a", "b"], method=m, ax=ax),
        # suppression first: the tables that share this one try their first method
        ("suppress", *(m for m in COUNT_METHODS if get_method(m).private)),
        lambda df: {"x_labels": _column(df, "x").to_numpy().ravel()},
        {"count_axis": "y", "categorical": "x"},
        functions=("countplot",),
    ),
    Case(
        # a DP bar plot of the named categories (order=), values clipped to public bounds
        "barplot-dp",
        lambda df, m, ax: safeplot.barplot(
            data=df, x="g", y="x", order=["a", "b"], bounds=(-500, 500), method=m, ax=ax
        ),
        tuple(m.name for m in available_methods() if m.private),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("barplot",),
    ),
]

#: The plots that take method="dp" besides histograms and count plots: each is tried under
#: suppression first (the tables that share this one try their first method), then under dp.
_DP = ("suppress", "dp")


def _dp_binrange(df, m):
    """Bins fixed by the call under dp, as published bounds would fix them; each facet spends
    epsilon, so four facets spend 0.5 each."""
    if m != "dp":
        return {}
    return {
        "binrange": (float(df["x"].min()) - 1, float(df["x"].max()) + 1),
        "epsilon": 0.5,
        **_dp_levels(df, m, "col"),
    }


def _dp_levels(df, m, role="hue"):
    """Under dp the levels of g are the call's, as public knowledge of the variable names them."""
    return {f"{role}_order": sorted(df["g"].unique())} if m == "dp" else {}


def _eps(m):
    """The whole budget for one DP release (a range estimate of few records needs it)."""
    return {"epsilon": 3.0} if m == "dp" else {}


def _crosstab_heatmap(df, m, ax):
    """A table of g by (y above its median), released by crosstab and drawn as a heat map."""
    frame = df.assign(h=np.where(df["y"] > df["y"].median(), "high", "low"))
    labels = {"row_order": ["a", "b"], "col_order": ["low", "high"]} if m == "dp" else {}
    return safeplot.heatmap(
        safeplot.crosstab(frame, "g", "h", method=m, **labels, **_eps(m)), annot=True, ax=ax
    )


CASES += [
    Case(
        "histplot-bivariate-dp",
        lambda df, m, ax: safeplot.histplot(
            data=df, x="x", y="y", cbar=True, method=m, ax=ax, **_eps(m)
        ),
        _DP,
        _xy,
        {"counts_in_colour": True},
    ),
    Case(
        "heatmap-dp",
        lambda df, m, ax: safeplot.heatmap(data=df, x="x", y="y", method=m, ax=ax, **_eps(m)),
        _DP,
        _xy,
        {"counts_in_colour": True},
    ),
    Case(
        # a table's axes are its labels and its colour bar counts: no data value to compare
        # (the labels of a DP table are the call's); its cell counts are checked in test_dp
        "crosstab-heatmap-dp",
        _crosstab_heatmap,
        _DP,
        lambda df: {"x": np.array([]), "y": np.array([])},
        {"count_axis": None},
    ),
    Case(
        "ecdfplot-dp",
        lambda df, m, ax: safeplot.ecdfplot(
            data=df, x="x", hue="g", method=m, ax=ax, **_eps(m), **_dp_levels(df, m)
        ),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "kdeplot-dp",
        lambda df, m, ax: safeplot.kdeplot(
            data=df, x="x", hue="g", method=m, ax=ax, **_eps(m), **_dp_levels(df, m)
        ),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    # one panel of every record: facets of a few records leave a DP range estimate in the
    # noise at random (the "displot" row covers facets)
    Case(
        "displot-ecdf-dp",
        lambda df, m, ax: safeplot.displot(df, x="x", kind="ecdf", method=m, height=2, **_eps(m)),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "displot-kde-dp",
        lambda df, m, ax: safeplot.displot(df, x="x", kind="kde", method=m, height=2, **_eps(m)),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "pandas-hist-dp",
        lambda df, m, ax: df["x"].plot.hist(method=m, ax=ax, backend="safeplot", **_eps(m)),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
    ),
    Case(
        "pandas-kde-dp",
        lambda df, m, ax: df["x"].plot.kde(method=m, ax=ax, backend="safeplot", **_eps(m)),
        _DP,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
    ),
]

CASES += [
    Case(
        "qqplot",
        lambda df, m, ax: safeplot.qqplot(_resid(df)[0], line="s", method=m, ax=ax),
        _safe(METHODS),
        lambda df: {"y": _resid(df)[0]},
        {"count_axis": None},
        functions=("qqplot",),
    ),
    Case(
        "residplot",
        lambda df, m, ax: safeplot.residplot(data=df, x="x", y="y", lowess=True, method=m, ax=ax),
        _safe(METHODS),
        lambda df: {"x": df["x"].to_numpy(), "y": np.concatenate(_resid(df))},
        {"count_axis": None},
        functions=("residplot",),
    ),
    Case(
        "regplot",
        lambda df, m, ax: safeplot.regplot(
            data=df, x="x", y="y", n_boot=100, seed=0, method=m, ax=ax
        ),
        _safe(METHODS),
        _xy,
        {"count_axis": None},
        functions=("regplot",),
    ),
]

CASES += [
    *[
        Case(
            f"safe_ols-{panel}",
            lambda df, m, ax, panel=panel: getattr(safeplot.safe_ols("y ~ x", data=df), panel)(
                ax=ax, method=m
            ),
            _safe(METHODS),
            lambda df, panel=panel: _ols_raw(df)[panel],
            {"count_axis": None},
            functions=("safe_ols",) if panel == "plot_resid_fitted" else (),
        )
        for panel in DIAG_PANELS
    ],
    Case(
        "safe_ols-plot_diagnostics",
        lambda df, m, ax: safeplot.safe_ols("y ~ x", data=df).plot_diagnostics(method=m),
        _safe(METHODS),
        lambda df: _ols_raw(df)["cooks"],
        {"count_axis": None},
        own_figure=True,
        per_axes=lambda fig, df: _diagnostics_axes(fig, df),
    ),
]

CASES += [
    Case(
        "parallelboxplot",
        lambda df, m, ax: safeplot.parallelboxplot(
            data=df, x="x", y="y", trend=True, method=m, ax=ax
        ),
        ("confidential",),
        _xy,
        {"count_axis": None},
        functions=("parallelboxplot",),
    ),
    Case(
        "parallelboxplot-hue-horizontal",
        lambda df, m, ax: safeplot.parallelboxplot(
            data=df, x="y", y="x", hue="g", orient="y", trend=True, method=m, ax=ax
        ),
        ("confidential",),
        lambda df: {"x": df["y"].to_numpy(), "y": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "boxplot-continuous-x",
        lambda df, m, ax: safeplot.boxplot(data=df, x="x", y="y", method=m, ax=ax),
        ("confidential",),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "correspondenceplot",
        lambda df, m, ax: safeplot.correspondenceplot(
            df.assign(x10=df["x"].round(-1)), x="g", y="x10", method=m, ax=ax
        ),
        ("confidential",),
        lambda df: {"x": df["x"].round(-1).to_numpy()},
        {"count_axis": None},
        functions=("correspondenceplot",),
    ),
    Case(
        "parallelboxplot-ordinal",
        lambda df, m, ax: safeplot.parallelboxplot(
            data=df, x="g", y="x", order=["a", "b", "c", "d", "e"], method=m, ax=ax
        ),
        ("confidential",),
        # the x axis shows ordered levels at positions 0, 1, 2, ...: no data value
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None, "categorical": "x"},
    ),
    Case(
        "ppplot",
        # a frame of column x: a missing column is then the function's error to report
        lambda df, m, ax: safeplot.ppplot(_column(df, "x"), fit=True, line="45", method=m, ax=ax),
        ("confidential",),
        # probabilities on both axes; the curve is compared with the data's rare values
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("ppplot",),
    ),
    Case(
        "ppplot-other",
        lambda df, m, ax: safeplot.ppplot(
            _column(df, "x"), other=_column(df, "y"), method=m, ax=ax
        ),
        ("confidential",),
        lambda df: {"y": np.r_[df["x"].to_numpy(), df["y"].to_numpy()]},
        {"count_axis": None},
    ),
    Case(
        "biplot",
        lambda df, m, ax: safeplot.biplot(df, vars=["x", "y"], hue="g", method=m, ax=ax),
        ("confidential",),
        # arrows and group points are compared with the rare values of both variables
        lambda df: {"x": np.r_[df["x"], df["y"]], "y": np.r_[df["x"], df["y"]]},
        {"count_axis": None},
        functions=("biplot",),
    ),
    Case(
        "heatmap-corr",
        lambda df, m, ax: safeplot.heatmap(
            safeplot.corr(df[["x", "y"]].assign(xy=df["x"] * df["y"]))
            if m != "none"
            else df[["x", "y"]].corr(),
            annot=True,
            method=m,
            ax=ax,
        ),
        ("confidential",),
        # a correlation matrix has categorical axes (cells at 0.5, 1.5, ...) and a colour bar of
        # coefficients from -1 to 1: none of its numbers is a data value to compare (its
        # rounded coefficients are checked in test_matrix)
        lambda df: {"x": np.array([]), "y": np.array([])},
        {"count_axis": None},
    ),
]

CASES += [
    Case(
        "pairplot",
        lambda df, m, ax: safeplot.pairplot(df, vars=["x", "y"], hue="g", method=m),
        _safe(PAIR_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": "y"},
        functions=("pairplot",),
        own_figure=True,
        per_axes=pair_axes_variables,
    ),
    Case(
        "pairplot-hist",
        lambda df, m, ax: safeplot.pairplot(df, vars=["x", "y"], kind="hist", method=m),
        _safe(PAIR_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        # a cell count may equal a rare value by chance: colours are checked as counts
        {"count_axis": "y", "counts_in_colour": True},
        own_figure=True,
        per_axes=pair_axes_variables,
    ),
    Case(
        "jointplot",
        lambda df, m, ax: safeplot.jointplot(data=df, x="x", y="y", method=m, marginal_ticks=True),
        _safe(JOINT_METHODS),
        _xy,
        # the right marginal's bars count along x: its counts are checked in test_axisgrid
        {"count_axis": None},
        functions=("jointplot",),
        own_figure=True,
        per_axes=pair_axes_variables,
    ),
    Case(
        # the joint panel shows residuals (a residual plus its fitted value is y)
        "jointplot-resid",
        lambda df, m, ax: safeplot.jointplot(
            data=df, x="x", y="y", kind="resid", method=m, marginal_ticks=True
        ),
        _safe(JOINT_METHODS),
        lambda df: {"x": df["x"].to_numpy(), "y": np.concatenate(_resid(df))},
        {"count_axis": None},
        functions=("jointplot",),
        own_figure=True,
        per_axes=pair_axes_variables,
    ),
    Case(
        # a categorical x is counted as a count plot counts it: its levels are labels
        "histplot-categorical",
        lambda df, m, ax: safeplot.histplot(
            data=df.assign(x=df["x"].astype("category")),
            x="x",
            hue="g",
            multiple="dodge",
            shrink=0.8,
            method=m,
            ax=ax,
        ),
        _safe(COUNT_METHODS),
        lambda df: {"x_labels": df["x"].to_numpy()},
        {"count_axis": "y", "categorical": "x"},
        functions=("histplot",),
    ),
]


def _pandas(draw):
    """Draw through pandas' plotting API with safeplot as its backend (the entry point)."""
    return lambda df, m, ax: draw(df, m, ax, {"method": m, "ax": ax, "backend": "safeplot"})


CASES += [
    Case(
        "pandas-hist",
        _pandas(lambda df, m, ax, kw: df["x"].plot.hist(**kw)),
        _safe(METHODS),
        lambda df: {"x": df["x"].to_numpy()},
    ),
    Case(
        "pandas-kde",
        _pandas(lambda df, m, ax, kw: df["x"].plot.kde(**kw)),
        _safe(METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "pandas-box",
        _pandas(lambda df, m, ax, kw: df[["y"]].plot.box(**kw)),
        _safe(METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "pandas-scatter",
        _pandas(lambda df, m, ax, kw: df.plot.scatter(x="x", y="y", **kw)),
        _safe(METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "pandas-hexbin",
        _pandas(lambda df, m, ax, kw: df.plot.hexbin(x="x", y="y", gridsize=10, **kw)),
        _safe(METHODS),
        _xy,
        {"counts_in_colour": True},
    ),
    Case(
        "pandas-bar",
        _pandas(lambda df, m, ax, kw: df["g"].value_counts().plot.bar(**kw)),
        ("suppress", "generalize", "confidential"),
        # the bars are counts of category labels: checked for counts in (0, threshold)
        lambda df: {"y": np.array([])},
        {"count_axis": "y"},
    ),
]


def _on_safe_axes(draw):
    """Draw on a new SafeAxes (projection="safe"); close its figure if the call is refused."""

    def run(df, m, ax):
        fig = plt.figure()
        sax = fig.add_subplot(projection="safe")
        try:
            draw(sax, df, m)
        except (ValueError, TypeError):  # DisclosureError included
            plt.close(fig)
            raise
        return fig

    return run


CASES += [
    Case(
        "safe-axes-hist",
        _on_safe_axes(lambda ax, df, m: ax.hist(df["x"], bins=25, method=m)),
        _safe(HIST_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        own_figure=True,
    ),
    Case(
        "safe-axes-scatter",
        _on_safe_axes(lambda ax, df, m: ax.scatter(df["x"], df["y"], method=m)),
        _safe(SCATTER_POINT_METHODS),
        _xy,
        {"count_axis": None},
        own_figure=True,
    ),
    Case(
        "safe-axes-boxplot",
        _on_safe_axes(lambda ax, df, m: ax.boxplot(df[["x", "y"]], method=m)),
        _safe(BOX_METHODS),
        lambda df: {"y": np.r_[df["x"].to_numpy(), df["y"].to_numpy()]},
        {"count_axis": None},
        own_figure=True,
    ),
    Case(
        "safe-axes-hexbin",
        _on_safe_axes(lambda ax, df, m: ax.hexbin(df["x"], df["y"], gridsize=12, method=m)),
        _safe(GRID_METHODS),
        _xy,
        {"counts_in_colour": True, "count_axis": None},
        own_figure=True,
    ),
    Case(
        "safe-axes-hist2d",
        _on_safe_axes(lambda ax, df, m: ax.hist2d(df["x"], df["y"], bins=15, method=m)),
        _safe(GRID_METHODS),
        _xy,
        {"counts_in_colour": True, "count_axis": None},
        own_figure=True,
    ),
]

CASES += [
    Case(
        "barplot",
        lambda df, m, ax: safeplot.barplot(
            data=df, x="g", y="x", errorbar=("se", 2), method=m, ax=ax
        ),
        _safe(BAR_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("barplot",),
    ),
    Case(
        "barplot-hue-pi",
        lambda df, m, ax: safeplot.barplot(
            data=df, x="g", y="y", hue="g", errorbar=("pi", 90), method=m, ax=ax
        ),
        _safe(BAR_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "lineplot",
        lambda df, m, ax: safeplot.lineplot(
            data=df, x="x", y="y", errorbar=("se", 2), method=m, ax=ax
        ),
        _safe(LINE_METHODS),
        _xy,
        {"count_axis": None},
        functions=("lineplot",),
    ),
    Case(
        # extreme arguments: lines per level, the widest percentile band, the median
        "lineplot-hue-style-pi-median",
        lambda df, m, ax: safeplot.lineplot(
            data=df,
            x="x",
            y="y",
            hue="g",
            style="g",
            estimator="median",
            errorbar=("pi", 95),
            markers=True,
            err_style="bars",
            method=m,
            ax=ax,
        ),
        _safe(LINE_METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "lineplot-ci99-threshold6",
        lambda df, m, ax: safeplot.lineplot(
            data=df,
            x="x",
            y="y",
            errorbar=("ci", 99),
            n_boot=50,
            seed=0,
            threshold=6,
            method=m,
            ax=ax,
        ),
        _safe(LINE_METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "relplot-line",
        lambda df, m, ax: safeplot.relplot(
            df,
            x="x",
            y="y",
            col="g",
            hue="g",
            kind="line",
            errorbar=("se", 1),
            method=m,
            height=2,
        ),
        _safe(LINE_METHODS),
        _xy,
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "pointplot",
        lambda df, m, ax: safeplot.pointplot(
            data=df, x="g", y="x", errorbar=("se", 2), method=m, ax=ax
        ),
        _safe(POINT_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("pointplot",),
    ),
    Case(
        # extreme arguments: the widest percentile interval, the median, dodged hue levels
        "pointplot-hue-pi-median",
        lambda df, m, ax: safeplot.pointplot(
            data=df,
            x="g",
            y="y",
            hue="g",
            estimator="median",
            errorbar=("pi", 95),
            dodge=True,
            capsize=0.2,
            method=m,
            ax=ax,
        ),
        _safe(POINT_METHODS),
        lambda df: {"y": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "catplot-violin",
        lambda df, m, ax: safeplot.catplot(
            df, x="g", y="x", col="g", kind="violin", method=m, height=2
        ),
        _safe(VIOLIN_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-boxen",
        lambda df, m, ax: safeplot.catplot(
            df, x="g", y="x", col="g", kind="boxen", method=m, height=2
        ),
        _safe(BOXEN_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-strip",
        lambda df, m, ax: safeplot.catplot(
            df, x="g", y="x", col="g", kind="strip", method=m, height=2
        ),
        _safe(STRIP_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-swarm",
        lambda df, m, ax: safeplot.catplot(
            df, x="g", y="x", hue="g", row="g", kind="swarm", size=2, method=m, height=2
        ),
        _safe(STRIP_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-point",
        lambda df, m, ax: safeplot.catplot(
            df,
            x="g",
            y="x",
            col="g",
            kind="point",
            errorbar=("ci", 99),
            n_boot=50,
            seed=0,
            method=m,
            height=2,
        ),
        _safe(POINT_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "stripplot",
        lambda df, m, ax: safeplot.stripplot(data=df, x="g", y="x", method=m, ax=ax),
        _safe(STRIP_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("stripplot",),
    ),
    Case(
        # extreme arguments: horizontal, dodged hue levels, the smallest k, no jitter
        "stripplot-hue-horizontal",
        lambda df, m, ax: safeplot.stripplot(
            data=df, x="y", y="g", hue="g", dodge=True, jitter=False, k=3, method=m, ax=ax
        ),
        _safe(STRIP_METHODS),
        lambda df: {"x": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "swarmplot",
        lambda df, m, ax: safeplot.swarmplot(
            data=df, x="g", y="x", hue="g", size=2, method=m, ax=ax
        ),
        _safe(STRIP_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("swarmplot",),
    ),
    Case(
        "violinplot",
        lambda df, m, ax: safeplot.violinplot(data=df, x="g", y="x", method=m, ax=ax),
        _safe(VIOLIN_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("violinplot",),
    ),
    Case(
        # extreme arguments: horizontal, dodged hue levels, quartiles, widths by count, the
        # coarsest grid of the menu and the narrowest kernel allowed
        "violinplot-hue-horizontal-quart",
        lambda df, m, ax: safeplot.violinplot(
            data=df,
            x="y",
            y="g",
            hue="g",
            inner="quart",
            density_norm="count",
            gridsize=50,
            bw_adjust=0.5,
            method=m,
            ax=ax,
        ),
        _safe(VIOLIN_METHODS),
        lambda df: {"x": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        # one mark per released value
        "violinplot-stick",
        lambda df, m, ax: safeplot.violinplot(
            data=df, x="g", y="x", inner="stick", method=m, ax=ax
        ),
        tuple(m for m in _safe(VIOLIN_METHODS) if m in STRIP_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "boxenplot",
        lambda df, m, ax: safeplot.boxenplot(data=df, x="g", y="x", method=m, ax=ax),
        _safe(BOXEN_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("boxenplot",),
    ),
    Case(
        # extreme arguments: horizontal, dodged hue levels, as many letter values as asked
        "boxenplot-hue-horizontal-deep",
        lambda df, m, ax: safeplot.boxenplot(
            data=df, x="y", y="g", hue="g", k_depth=20, width_method="area", method=m, ax=ax
        ),
        _safe(BOXEN_METHODS),
        lambda df: {"x": df["y"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        "rugplot",
        lambda df, m, ax: safeplot.rugplot(data=df, x="x", method=m, ax=ax),
        _safe(RUG_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("rugplot",),
    ),
    Case(
        # extreme arguments: both axes released together, per hue level, tall ticks
        "rugplot-xy-hue",
        lambda df, m, ax: safeplot.rugplot(
            data=df, x="x", y="y", hue="g", height=0.2, method=m, ax=ax
        ),
        _safe(RUG_METHODS),
        _xy,
        {"count_axis": None},
    ),
    Case(
        "ecdfplot",
        lambda df, m, ax: safeplot.ecdfplot(data=df, x="x", hue="g", method=m, ax=ax),
        _safe(ECDF_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("ecdfplot",),
    ),
    Case(
        "ecdfplot-count-complementary",
        lambda df, m, ax: safeplot.ecdfplot(
            data=df, y="x", stat="count", complementary=True, method=m, ax=ax
        ),
        _safe(ECDF_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
    ),
    Case(
        # x is the duration; the event indicator is made from y (bad inputs change x only)
        "kmplot",
        lambda df, m, ax: safeplot.kmplot(
            data=_with_events(df), duration="x", event="e", hue="g", method=m, ax=ax
        ),
        _safe(SURVIVAL_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("kmplot",),
    ),
    Case(
        # a DP survival curve on a public grid (binrange=), from noisy events and censorings
        "kmplot-dp",
        lambda df, m, ax: safeplot.kmplot(
            data=_with_events(df), duration="x", event="e", binrange=(0, 500), method=m, ax=ax
        ),
        tuple(m.name for m in available_methods() if m.private),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("kmplot",),
    ),
]

CASES += [
    Case(
        "displot",
        # under dp the bins come from the call (a DP range estimate of a facet of 3 records
        # finds nothing, or by chance something: its own tests are in test_dp)
        lambda df, m, ax: safeplot.displot(
            df, x="x", col="g", method=m, height=2, **_dp_binrange(df, m)
        ),
        _safe(HIST_METHODS, private=True),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": "y"},
        functions=("displot",),
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        # the rug of each facet, released under the facets' method, x and y together
        "displot-rug",
        lambda df, m, ax: safeplot.displot(
            df, x="x", y="y", col="g", kind="kde", rug=True, method=m, height=2
        ),
        tuple(m for m in _safe(KDE_METHODS) if m in RUG_METHODS),
        _xy,
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "displot-kde",
        lambda df, m, ax: safeplot.displot(df, x="x", col="g", kind="kde", method=m, height=2),
        _safe(KDE_METHODS),
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "relplot",
        lambda df, m, ax: safeplot.relplot(df, x="x", y="y", col="g", hue="g", method=m, height=2),
        _safe(SCATTER_METHODS),
        _xy,
        {"count_axis": None},
        functions=("relplot",),
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-box",
        lambda df, m, ax: safeplot.catplot(
            df, x="g", y="x", col="g", kind="box", method=m, height=2
        ),
        _safe(BOX_METHODS),
        lambda df: {"y": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("catplot",),
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
    Case(
        "catplot-count",
        lambda df, m, ax: safeplot.catplot(df, x="x", col="g", kind="count", method=m, height=2),
        _safe(COUNT_METHODS),
        lambda df: {"x_labels": df["x"].to_numpy()},
        {"count_axis": "y", "categorical": "x"},
        own_figure=True,
    ),
    Case(
        "lmplot",
        lambda df, m, ax: safeplot.lmplot(
            df, x="x", y="y", col="g", method=m, height=2, n_boot=50, seed=0
        ),
        _safe(METHODS),
        _xy,
        {"count_axis": None},
        functions=("lmplot",),
        own_figure=True,
        per_axes=facet_axes_variables,
    ),
]


def _dask(df):
    """The frame as a dask DataFrame of three partitions (the out-of-core path)."""
    return pytest.importorskip("dask.dataframe").from_pandas(df, npartitions=3)


#: Binned plots of a dask DataFrame: counted out of core, suppress and generalize only.
DASK_METHODS = ("suppress", "generalize")
CASES += [
    Case(
        "histplot-dask",
        lambda df, m, ax: safeplot.histplot(data=_dask(df), x="x", hue="g", method=m, ax=ax),
        DASK_METHODS,
        lambda df: {"x": df["x"].to_numpy()},
        functions=("histplot",),
    ),
    Case(
        "heatmap-dask",
        lambda df, m, ax: safeplot.heatmap(data=_dask(df), x="x", y="y", method=m, ax=ax),
        DASK_METHODS,
        _xy,
        {"counts_in_colour": True},
        functions=("heatmap",),
    ),
    Case(
        "countplot-dask",
        lambda df, m, ax: safeplot.countplot(data=_dask(df), x="x", hue="g", method=m, ax=ax),
        (*DASK_METHODS, "confidential"),
        lambda df: {"x_labels": df["x"].to_numpy()},
        {"count_axis": "y", "categorical": "x"},
        functions=("countplot",),
    ),
    Case(
        "kdeplot-dask",
        lambda df, m, ax: safeplot.kdeplot(data=_dask(df), x="x", hue="g", method=m, ax=ax),
        DASK_METHODS,
        lambda df: {"x": df["x"].to_numpy()},
        {"count_axis": None},
        functions=("kdeplot",),
    ),
    Case(
        "kdeplot-bivariate-dask",
        lambda df, m, ax: safeplot.kdeplot(data=_dask(df), x="x", y="y", method=m, ax=ax),
        DASK_METHODS,
        _xy,
        {"count_axis": None},
        functions=("kdeplot",),
    ),
]


PARAMS = [
    pytest.param(
        case,
        method,
        shape,
        id=f"{case.name}-{method}-{shape}",
    )
    for case in CASES
    for method in case.methods
    for shape in SHAPES
]


def _figure(result, ax):
    """The figure a plot function drew on: its own (grids, Figures) or that of `ax`."""
    if isinstance(result, Figure):
        return result
    fig = getattr(result, "figure", None)
    if isinstance(fig, Figure):
        return fig
    return ax.figure


def _draw(case, df, method):
    """Call the case's function; return what it drew (a figure) and its result."""
    if case.own_figure:
        result = case.draw(df, method, None)
        return _figure(result, None), result
    fig, ax = plt.subplots()
    result = case.draw(df, method, ax)
    return _figure(result, ax), result


#: the shapes whose figures are also saved as PDF and its text read: the PDF shows the same
#: text artists as the SVG (scanned for every shape), in another encoding, and saving it took
#: nearly a third of the table's time
PDF_SHAPES = ("outliers", "tiny_groups")


def _scan(case, fig, result, df, shape="outliers"):
    raw = case.raw(df)
    if "x_labels" in raw:
        # category labels are raw values: they are checked as text against every value
        raw = {"x": raw["x_labels"]}
    per_axes = case.per_axes(result, df) if case.per_axes else None
    return scan_figure(
        fig, raw, per_axes=per_axes, saved=True, pdf=shape in PDF_SHAPES, **case.scan
    )


#: Every combination of the table that is refused rather than drawn, and why. A refusal not
#: listed fails ``test_nothing_rare_and_no_small_count_is_drawn``, and so does a listed one
#: that draws; ``test_every_case_and_method_draws_on_some_shape`` fails for a case that would
#: be refused on every shape.
REFUSALS: list[Refusal] = [
    Refusal(
        "crosstab-heatmap-dp",
        "suppress",
        "tiny_groups",
        DisclosureError,
        "value\\(s\\) of 'g' are held by fewer than threshold=3 records",
        "a suppressed table takes its labels from the records, and rare ones would be named",
    ),
    Refusal(
        "catplot-point",
        "rounding",
        "strata_near_k",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values in each facet",
    ),
    Refusal(
        "relplot-line",
        "rounding",
        "strata_near_k",
        ValueError,
        "larger than the number of distinct values",
        "rounding's c= asks for more intervals than a facet has distinct values",
    ),
    Refusal(
        "(relplot-line|lineplot(-.*)?)",
        "rounding",
        "ties",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values among the records drawn: "
        "x values of fewer than threshold records are left out with their records (and the "
        "rare values among them), which leaves 8",
    ),
    Refusal(
        "catplot-box",
        "(generalize|suppress)",
        "(strata_near_k|tiny_groups)",
        DisclosureError,
        "every group keeps fewer than threshold=3 records once the grid cells",
        "a facet (b, 3 records) whose only box keeps fewer than threshold records once its "
        "small grid cells are suppressed has nothing to show; a small box next to others is "
        "left out instead",
    ),
    Refusal(
        "catplot-box",
        "rounding",
        "strata_near_k",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values",
    ),
    Refusal(
        "catplot-(violin|boxen)",
        "(generalize|suppress)",
        "(strata_near_k|tiny_groups)",
        DisclosureError,
        "no group (has a density that can be released|keeps 3 records)",
        "every bin of a facet of 3 to 5 records is below the threshold (the facets of 1 and "
        "2 records are left out)",
    ),
    Refusal(
        "(catplot-(box|boxen|point|violin)|displot-kde|relplot-line)",
        "rounding",
        "tiny_groups",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "the facets of 1 and 2 records are left out; rounding to c=10 points needs at least 10 "
        "distinct values in each facet drawn, and the facet of 3 records has 3",
    ),
    Refusal(
        "(stripplot|stripplot-hue-horizontal|swarmplot|rugplot-xy-hue)",
        "(probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "fewer than 3 records \\(threshold=3\\). Each record is drawn on its own",
        "one marker per record, drawn the same with and without the grouping: a group left out "
        "would be the markers missing against the plot without it, so a small group is refused",
    ),
    Refusal(
        "(catplot-(strip|swarm)|displot-rug|lmplot|relplot)",
        "(probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "facet\\(s\\) have fewer than threshold=3 records. Each record is drawn on its own",
        "one marker per record, drawn the same with and without col=: a facet left out would be "
        "the whole figure's markers missing from the facets, so a small facet is refused",
    ),
    Refusal(
        "(relplot|lmplot)",
        "(generalize|suppress)",
        "tiny_groups",
        DisclosureError,
        "facet\\(s\\) have fewer than threshold=3 records .* without row=/col=",
        "the grid-cell methods show counts of each facet's records: a facet left out would be "
        "the figure without col= minus the facets shown, and the ledger does not link facets",
    ),
    Refusal(
        "catplot-(violin|boxen|strip|swarm)",
        "rounding",
        "strata_near_k",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values",
    ),
    Refusal(
        "catplot-count",
        "(confidential|generalize|suppress)",
        "tiny_groups",
        DisclosureError,
        "facet\\(s\\) have fewer than (threshold=3|2\\*k=6) records",
        "a facet of counts below the threshold is refused, not left out: its title names a "
        "group of a few records, whose counts the ledger would have to hide in every bar",
    ),
    Refusal(
        "correspondenceplot",
        "confidential",
        "(D1|D3|bounded)",
        DisclosureError,
        "fewer than two levels are left",
        "x rounded to tens leaves fewer than two levels of threshold records",
    ),
    Refusal(
        "displot",
        "(confidential|generalize|probabilistic|rounding|suppress)",
        "strata_near_k",
        DisclosureError,
        "Every bin is below the threshold: nothing can be shown",
        "every bin of the small facet is below the threshold (the facets are released "
        "together: rounding's intervals span them all)",
    ),
    Refusal(
        "displot",
        "(deterministic|microaggregation)",
        "(strata_near_k|tiny_groups)",
        DisclosureError,
        "facet\\(s\\) have fewer than (threshold=3|2\\*k=6) records",
        "a facet of counts below the threshold (or 2k) is refused, not left out: the figure "
        "without col= minus the facets shown would give its counts (the value methods' moved "
        "values are not linked by the ledger)",
    ),
    Refusal(
        "displot",
        "(confidential|generalize|probabilistic|rounding|suppress)",
        "tiny_groups",
        DisclosureError,
        "facet\\(s\\) have fewer than (threshold=3|2\\*k=6) records",
        "a facet of counts below the threshold is refused, not left out: its title names a "
        "group of a few records, whose counts the ledger would have to hide in every bin",
    ),
    Refusal(
        "histplot-log-hue",
        ".*",
        "(outliers|ties|bounded)",
        ValueError,
        "log_scale needs positive values",
        "zero and negative values have no logarithm",
    ),
    Refusal(
        "displot-rug",
        "rounding",
        "ties",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "the rug rounds y too, and a facet of the tied data has fewer than 10 distinct y values",
    ),
    Refusal(
        "displot-(kde|rug)",
        "rounding",
        "strata_near_k",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values",
    ),
    Refusal(
        "ecdfplot",
        "microaggregation",
        "strata_near_k",
        DisclosureError,
        "needs at least 6 records \\(2\\*k=6\\) in every hue level; .* have fewer",
        "a level of about 5 records holds no two groups of k, and is named in the refusal",
    ),
    Refusal(
        # (under suppress and generalize a small level is left out, its bins linked)
        "ecdfplot",
        "(confidential|deterministic|microaggregation|probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "hue level\\(s\\) .* have fewer than .* cannot be left out",
        "the steps of released values or quantiles are not linked by the release ledger, so "
        "a level of 1 or 2 records left out would show as an ECDF of all records minus the rest",
    ),
    Refusal(
        "histplot-dask",
        "(generalize|suppress)",
        "tiny_groups",
        DisclosureError,
        "hue level\\(s\\) .* have fewer than .* cannot be left out: counted out of core",
        "counts made out of core are not linked by the release ledger, so a level of 1 or 2 "
        "records left out would be the bin totals of another release minus the levels shown",
    ),
    Refusal(
        "histplot-(hue-stack-kde|log-hue)",
        "microaggregation",
        "strata_near_k",
        DisclosureError,
        "hue level\\(s\\) .* have fewer than 6 records \\(2\\*k=6\\)",
        "a level of about 5 records holds no two groups of k, and is named in the refusal",
    ),
    Refusal(
        # (under suppress and generalize a small level is left out, its counts linked)
        "histplot-(hue-stack-kde|log-hue)",
        "(confidential|deterministic|microaggregation|probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "hue level\\(s\\) .* have fewer than .* cannot be left out",
        "counts of moved values are not linked by the release ledger, so a level of 1 or 2 "
        "records left out would be the bin totals of another release minus the levels shown",
    ),
    Refusal(
        "kdeplot",
        "confidential",
        "tiny_groups",
        DisclosureError,
        "hue level '.' has fewer than",
        "O'Keefe's density keeps each record's winsorised value: with the level left out, the "
        "density without hue less this one would be that of its 1 or 2 records",
    ),
    Refusal(
        "lmplot",
        "(generalize|suppress)",
        "strata_near_k",
        DisclosureError,
        "Every grid cell is below the threshold: nothing can be shown",
        "every grid cell of the small data is below the threshold",
    ),
    Refusal(
        "lmplot",
        "rounding",
        "(strata_near_k|ties)",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values",
    ),
    Refusal(
        "pairplot",
        "(confidential|probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "hue level\\(s\\) have fewer than .* cannot be left out either",
        "hue levels of 1 or 2 records would be named in the legend; left out, the records kept "
        "are released as without hue, and the difference would single out those left out",
    ),
    Refusal(
        "(scatterplot-hue|kdeplot)",
        "(probabilistic|rounding)",
        "tiny_groups",
        DisclosureError,
        "hue level\\(s\\) have fewer than .* Each record is drawn on its own",
        "keyed noise and rounding draw each record as the figure without hue does: a level "
        "of 1 or 2 records would show its count under its name, and left out, the difference "
        "of the two figures would be its records",
    ),
    Refusal(
        "relplot",
        "(generalize|suppress)",
        "strata_near_k",
        DisclosureError,
        "Every grid cell is below the threshold: nothing can be shown",
        "every grid cell of the small data is below the threshold",
    ),
    Refusal(
        "relplot",
        "rounding",
        "(strata_near_k|ties)",
        ValueError,
        "c=10 is larger than the number of distinct values",
        "rounding to c=10 points needs at least 10 distinct values",
    ),
    Refusal(
        "kmplot(-dp)?",
        ".*",
        "outliers",
        ValueError,
        "durations must be zero or positive",
        "x is the duration, and the planted outlier -97.113 is a negative duration",
    ),
]


@pytest.mark.parametrize(("case", "method", "shape"), PARAMS)
def test_nothing_rare_and_no_small_count_is_drawn(case, method, shape):
    df = SHAPES[shape]
    entry = expected_refusal(REFUSALS, case.name, method, shape)
    before = set(plt.get_fignums())
    try:
        fig, result = _draw(case, df, method)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"{case.name}|{method}|{shape}")
        # refusing leaves nothing behind
        assert audit.entries() == []
        if case.own_figure:
            assert set(plt.get_fignums()) == before
        return
    check(entry, None, f"{case.name}|{method}|{shape}")
    findings = _scan(case, fig, result, df, shape)
    if get_method(method).private:
        _private_findings(findings)
    assert not findings, str(findings)
    assert findings.numbers_scanned > 0
    reported = [a for a in fig.axes if getattr(a, "safeplot_report", None) is not None]
    assert reported, "no Axes carries a report"
    assert {a.safeplot_report.method for a in reported} == {method}
    assert audit.entries() and audit.entries()[-1].method == method
    notes = [t.get_text() for a in fig.axes for t in a.texts if t.get_gid() == FOOTNOTE_GID]
    notes += [t.get_text() for t in fig.texts if t.get_gid() == FOOTNOTE_GID]
    expected = {method_note(a.safeplot_report) for a in reported}
    assert notes and set(notes) <= expected, (notes, expected)
    for a in reported:
        assert sum(t.get_gid() == FOOTNOTE_GID for t in a.texts) <= 1, "method note drawn twice"


def test_every_case_and_method_draws_on_some_shape():
    """No case is tested only by its refusals: each (case, method) draws on some shape."""
    cells = [
        (case.name, method, shape) for case in CASES for method in case.methods for shape in SHAPES
    ]
    never = [cell for cell, n in drawing_cells(REFUSALS, cells).items() if n == 0]
    assert not never, f"refused on every data shape: {never}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_scanner_catches_the_raw_version(case):
    """The scan is not vacuous: each function's raw output of the outlier data is flagged."""
    if case.name.endswith("-dask"):
        pytest.skip("raw output of a dask frame is refused; test_dask flags the pandas raw one")
    if case.name in (
        "countplot",
        "countplot-dp",
        "catplot-count",
        "heatmap",
        "histplot-bivariate",
    ):
        pytest.skip("counts of raw categories or cells: checked in the function's own tests")
    if case.name.startswith(("barplot", "pointplot", "catplot-point")):
        pytest.skip("raw means and intervals are rarely data values: test_bar flags a raw one")
    if case.name == "pandas-bar":
        pytest.skip("value_counts are counts, not values: test_pandas_backend checks them")
    if case.name in ("kmplot", "kmplot-dp"):
        pytest.skip("durations cannot be negative, as in the outlier data: test_survival flags")
    if case.name == "histplot-log-hue":
        pytest.skip("the outlier data are negative, which a log scale refuses: test_histplot_log")
    if case.name in ("correspondenceplot", "heatmap-corr", "biplot", "ppplot", "ppplot-other"):
        pytest.skip("coordinates and coefficients are no data values: checked in their own tests")
    if case.name == "crosstab-heatmap-dp":
        pytest.skip("a table's cells are counts, not values: test_matrix and test_dp check them")
    if case.name.startswith("kdeplot") or case.name in (
        "pandas-kde",
        "displot-kde",
        "pandas-kde-dp",
        "displot-kde-dp",
    ):
        pytest.skip("a raw density with cut=3 ends 3 bandwidths beyond the data: test_kde checks")
    df = SHAPES["outliers"]
    with safeplot.policy(allow_raw=True):
        fig, result = _draw(case, df, "none")
    assert _scan(case, fig, result, df), case.name


def test_every_public_plot_function_is_covered():
    plotting = {
        name
        for name in safeplot.__all__
        if name.endswith("plot") or name in ("hist", "scatter", "heatmap")
    }
    covered = {f for case in CASES for f in case.functions}
    assert plotting <= covered, sorted(plotting - covered)
