"""``safeplot demo``: the paper's comparison of methods, and the six plot families.

For each of Avraam et al.'s simulated data sets D1-D3 it draws a histogram,
a scatter plot, a heat map, a contour plot and box plots of x and y, raw and
under suppression, generalisation, deterministic and probabilistic
anonymisation (the layout of the paper's Figures 1-5), one PNG per data set.
A fourth figure shows the six plot families (count plot, box plot,
histogram, scatter plot, O'Keefe's parallel box plots, density) on the
Palmer penguins, released safely. Three more reproduce the paper's
regression diagnostics (Figures 5-7: residuals against fitted values, normal
Q-Q plot of the standardised residuals, residuals against leverage) for the
linear model ``y ~ x`` on D1-D3 under each method. The audit log of every
release is written as JSON next to them.

The raw panels are drawn because the data are simulated: the demo runs under
its own policy, which allows raw output and uses a fixed demonstration noise
key so the figures are reproducible. Under a locked custodian policy that
forbids raw output, the raw panels are left out instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import audit
from .datasets import simulate
from .errors import DisclosureError
from .keys import SecretKey
from .policy import Policy, policy

__all__ = [
    "DEMO_METHODS",
    "DIAGNOSTIC_FIGURES",
    "FAMILIES",
    "OKEEFE_PANELS",
    "PAPER_FIGURES",
    "comparison_grid",
    "diagnostics_figure",
    "okeefe_figure",
    "paper_figure",
    "run_demo",
    "small_sample_figure",
    "sweep_figure",
]

#: Methods compared in the demo, in column order.
DEMO_METHODS = ("none", "suppress", "generalize", "deterministic", "probabilistic")
_TITLES = {
    "none": "raw (simulated data)",
    "suppress": "suppress (threshold=3)",
    "generalize": "generalize (factor=2)",
    "deterministic": "deterministic (k=3)",
    "probabilistic": "probabilistic (q=0.25)",
}


def demo_policy() -> Policy:
    """Return the demo's policy: default floors, raw output allowed, a fixed public noise key."""
    return Policy(
        allow_raw=True,
        secret_key=SecretKey("safeplot demonstration key (not secret)", source="demo policy"),
        source="demo policy (simulated data; raw panels allowed)",
    )


#: The rows of a data set's figure: Avraam et al.'s Figures 1-5 (one plot family each).
_ROWS = ("histogram", "scatter plot", "heat map", "contour plot", "box plot")

#: The plot families of the comparison figures (rows of :func:`comparison_grid`).
FAMILIES = _ROWS


def _panel(ax, plot, **kwargs) -> None:
    """Draw one panel, or say on it why the release was refused.

    On small samples every cell of a grid can fall below the threshold; the
    panel is then left empty with the reason, as in the paper's small-sample
    figures.
    """
    try:
        plot(ax=ax, **kwargs)
    except DisclosureError as err:
        ax.set_axis_off()
        reason = str(err).split(":")[0].split(".")[0]
        ax.text(
            0.5,
            0.5,
            "not released:\n" + reason.lower(),
            ha="center",
            va="center",
            wrap=True,
            fontsize=8,
            color="0.3",
            transform=ax.transAxes,
        )


def _family_call(family: str, df, method: str):
    """Return the plot function and keyword arguments that draw one of the paper's panels."""
    from .plots.categorical import boxplot
    from .plots.distributions import histplot
    from .plots.kde import kdeplot
    from .plots.matrix import heatmap
    from .plots.relational import scatterplot

    if family == "histogram":
        return histplot, {"data": df, "x": "x", "bins": 20, "color": "C0"}
    if family == "scatter plot":
        return scatterplot, {
            "data": df,
            "x": "x",
            "y": "y",
            "color": "C1",
            "mark_coincident": method == "deterministic",
            "s": 12,
        }
    if family == "heat map":
        return heatmap, {"data": df, "x": "x", "y": "y", "cmap": "viridis"}
    if family == "contour plot":
        return kdeplot, {"data": df, "x": "x", "y": "y", "color": "C2"}
    if family == "box plot":
        return boxplot, {"data": df[["x", "y"]], "color": "C4"}
    raise ValueError(f"family must be one of {list(FAMILIES)}, got {family!r}.")


def _draw_family(ax, family: str, df, method: str, **params) -> None:
    """Draw one panel of the paper's figures: `family` of `df` under `method` and `params`."""
    plot, kwargs = _family_call(family, df, method)
    _panel(ax, plot, method=method, **kwargs, **params)


def _label_rows(axes, labels, fontsize: float = 11) -> None:
    """Write each row's label to the left of its first panel."""
    for row, label in enumerate(labels):
        axes[row, 0].annotate(
            label,
            xy=(0, 0.5),
            xycoords="axes fraction",
            xytext=(-48, 0),
            textcoords="offset points",
            rotation=90,
            ha="right",
            va="center",
            fontsize=fontsize,
        )


def _raw_note(methods) -> str:
    return (
        "Raw panels are shown only because these data are simulated."
        if "none" in methods
        else "Raw panels omitted: the policy in force does not allow raw output."
    )


def _demo_figure(name: str, methods: tuple[str, ...], n: int, seed: int):
    """One simulated data set under every method: a row per plot family, a column per method."""
    import matplotlib.pyplot as plt

    df = simulate(name, n=n, seed=seed)
    fig, axes = plt.subplots(
        len(_ROWS),
        len(methods),
        figsize=(3.3 * len(methods), 2.7 * len(_ROWS)),
        layout="constrained",
        squeeze=False,
    )
    fig.set_label(f"safeplot demo {name}")
    for col, method in enumerate(methods):
        for row, family in enumerate(_ROWS):
            _draw_family(axes[row, col], family, df, method)
        axes[0, col].set_title(_TITLES[method], fontsize=10)
    _label_rows(axes, _ROWS)
    note = _raw_note(methods)
    fig.suptitle(f"{name} (n = {n}): y against x under each method. {note}", fontsize=12)
    return fig


def comparison_grid(
    rows: Sequence[tuple[str, str, int, str]],
    columns: Sequence[tuple[str, str, dict[str, Any]]],
    *,
    seed: int = 1234,
    title: str | None = None,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw a grid of the paper's panels: a row per data set and plot family, a column per setting.

    This is the figure builder behind the gallery's comparison pages (Avraam
    et al.'s Figures 1-4, the sensitivity sweeps and the small-sample
    figures). A panel whose release is refused (every cell below the
    threshold, too few records for ``k``) is left empty with the reason
    written on it.

    Parameters
    ----------
    rows : sequence of (label, data set, n, family)
        Each row: its label, a simulated data set (``"D1"``, ``"D2"`` or
        ``"D3"``), its number of records and a plot family, one of
        :data:`FAMILIES`.
    columns : sequence of (title, method, params)
        Each column: its title, the method and further keyword arguments of
        the plot function (e.g. ``{"k": 10}`` or ``{"threshold": 5}``).
    seed : int, default 1234
        Seed of the simulation.
    title : str, optional
        The figure's title.
    panel_size : tuple of float, default (3.3, 2.7)
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        An unknown plot family or data set.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.demo import comparison_grid
    >>> fig = comparison_grid(
    ...     [("D1: histogram", "D1", 200, "histogram")],
    ...     [("suppress", "suppress", {}), ("deterministic, k=5", "deterministic", {"k": 5})],
    ... )
    >>> [ax.safeplot_report.method for ax in fig.axes]
    ['suppress', 'deterministic']
    """
    import matplotlib.pyplot as plt

    for row in rows:
        if row[3] not in FAMILIES:
            raise ValueError(f"family must be one of {list(FAMILIES)}, got {row[3]!r}.")
    frames: dict[tuple[str, int], Any] = {}
    for _, name, n, _ in rows:
        if (name, n) not in frames:
            frames[name, n] = simulate(name, n=n, seed=seed)
    fig, axes = plt.subplots(
        len(rows),
        len(columns),
        figsize=(panel_size[0] * len(columns), panel_size[1] * len(rows)),
        layout="constrained",
        squeeze=False,
    )
    for r, (_, name, n, family) in enumerate(rows):
        for c, (_, method, params) in enumerate(columns):
            _draw_family(axes[r, c], family, frames[name, n], method, **params)
            axes[r, c].tick_params(labelsize=8)
    for c, (col_title, _, _) in enumerate(columns):
        axes[0, c].set_title(col_title, fontsize=10)
    _label_rows(axes, [row[0] for row in rows], fontsize=10)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


#: Avraam et al.'s comparison figures: number -> (plot families, title).
PAPER_FIGURES = {
    1: (("histogram",), "histograms of x"),
    2: (("scatter plot",), "scatter plots of y against x"),
    3: (("heat map", "contour plot"), "heat maps and contour plots of y against x"),
    4: (("box plot",), "box plots of x and y"),
}


def paper_figure(
    number: int,
    methods: tuple[str, ...] = DEMO_METHODS,
    n: int = 500,
    seed: int = 1234,
    *,
    names: tuple[str, ...] = ("D1", "D2", "D3"),
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw one of Avraam et al.'s Figures 1-4: a plot family on D1-D3 under each method.

    Rows are the data sets (for Figure 3, the heat maps of D1-D3 and then
    their contour plots), columns the methods with their default
    parameters.

    Parameters
    ----------
    number : {1, 2, 3, 4}
        Figure 1 (histograms), 2 (scatter plots), 3 (heat maps and contour
        plots) or 4 (box plots).
    methods : tuple of str
        The columns (default: raw, suppress, generalize, deterministic,
        probabilistic; raw needs a policy that allows it, such as
        :func:`demo_policy`).
    n, seed : int
        Size and seed of the simulated data sets.
    names : tuple of str
        The data sets.
    panel_size : tuple of float
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        An unknown figure number.

    Examples
    --------
    >>> from safeplot.demo import paper_figure
    >>> fig = paper_figure(1, ("suppress", "deterministic"), n=200, names=("D1",))
    >>> fig.axes[1].safeplot_report.params["k"]
    3
    """
    if number not in PAPER_FIGURES:
        raise ValueError(f"number must be one of {list(PAPER_FIGURES)}, got {number!r}.")
    families, what = PAPER_FIGURES[number]
    rows = [(f"{name}: {family}", name, n, family) for family in families for name in names]
    columns = [(_TITLES.get(m, m), m, {}) for m in methods]
    title = f"Figure {number} of Avraam et al.: {what} (n = {n}). {_raw_note(methods)}"
    fig = comparison_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot figure {number}")
    return fig


def sweep_figure(
    method: str,
    param: str,
    values: Sequence[Any],
    *,
    families: tuple[str, ...] = ("histogram", "heat map"),
    names: tuple[str, ...] = ("D1",),
    n: int = 500,
    seed: int = 1234,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw a sensitivity sweep: one method, one parameter over `values` (a column each).

    The layout of Avraam et al.'s Figures 8-15: rows are the plot families
    of each data set, columns the parameter's values.

    Parameters
    ----------
    method : str
        The method, e.g. ``"suppress"``, ``"deterministic"`` or
        ``"probabilistic"``.
    param : str
        The plot functions' parameter to vary: ``"threshold"``, ``"k"`` or
        ``"q"``.
    values : sequence
        Its values, one column each.
    families : tuple of str
        The plot families (rows), from :data:`FAMILIES`.
    names : tuple of str
        The simulated data sets; each family is drawn for each.
    n, seed : int
        Size and seed of the simulated data sets.
    panel_size : tuple of float
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from safeplot.demo import sweep_figure
    >>> fig = sweep_figure("deterministic", "k", [3, 10], families=("histogram",), n=200)
    >>> [ax.safeplot_report.params["k"] for ax in fig.axes]
    [3, 10]
    """
    rows = [(f"{name}: {family}", name, n, family) for family in families for name in names]
    columns = [(f"{method}, {param}={value}", method, {param: value}) for value in values]
    title = f"{method}: {param} = {', '.join(map(str, values))} (n = {n})"
    fig = comparison_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot sweep {method} {param}")
    return fig


def small_sample_figure(
    family: str,
    sizes: Sequence[int] = (50, 100, 300),
    methods: tuple[str, ...] = DEMO_METHODS,
    *,
    name: str = "D1",
    seed: int = 1234,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw one plot family of a small simulated sample under each method, a row per size.

    Parameters
    ----------
    family : str
        One of :data:`FAMILIES`.
    sizes : sequence of int
        The sample sizes (rows).
    methods : tuple of str
        The columns; raw needs a policy that allows it.
    name : str
        The simulated data set.
    seed : int
        Seed of the simulation.
    panel_size : tuple of float
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from safeplot.demo import small_sample_figure
    >>> fig = small_sample_figure("histogram", [50], ("suppress", "deterministic"))
    >>> fig.axes[1].safeplot_report.n
    50
    """
    rows = [(f"{name}, n = {n}", name, n, family) for n in sizes]
    columns = [(_TITLES.get(m, m), m, {}) for m in methods]
    title = f"{name}: {family} at small sample sizes. {_raw_note(methods)}"
    fig = comparison_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot small samples {family}")
    return fig


#: The paper's diagnostic figures: file stem -> (panel method of SafeOLSResults, title).
DIAGNOSTIC_FIGURES = {
    "resid_fitted": ("plot_resid_fitted", "Residuals against fitted values (Figure 5)"),
    "qq": ("plot_qq", "Normal Q-Q plot of the standardised residuals (Figure 6)"),
    "leverage": ("plot_resid_leverage", "Standardised residuals against leverage (Figure 7)"),
}


def diagnostics_figure(
    which: str,
    methods: tuple[str, ...] = DEMO_METHODS,
    n: int = 500,
    seed: int = 1234,
    *,
    names: tuple[str, ...] = ("D1", "D2", "D3"),
    figsize: tuple[float, float] | None = None,
):
    """Draw one of Avraam et al.'s diagnostic figures: ``y ~ x`` on D1-D3 under each method.

    Rows are the data sets, columns the methods; a panel whose release is
    refused says why.

    Parameters
    ----------
    which : {"resid_fitted", "qq", "leverage"}
        The diagnostic (the paper's Figure 5, 6 or 7).
    methods : tuple of str
        The columns (default: raw, suppress, generalize, deterministic,
        probabilistic; raw needs a policy that allows it, such as
        :func:`demo_policy`).
    n, seed : int
        Size and seed of the simulated data sets.
    names : tuple of str
        The data sets (rows).
    figsize : tuple of float, optional
        Default 3.3 x 2.7 inches per panel.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    from .diagnostics import safe_ols

    if which not in DIAGNOSTIC_FIGURES:
        raise ValueError(f"which must be one of {list(DIAGNOSTIC_FIGURES)}, got {which!r}.")
    func, title = DIAGNOSTIC_FIGURES[which]
    fits = [safe_ols("y ~ x", data=simulate(name, n=n, seed=seed)) for name in names]
    if figsize is None:
        figsize = (3.3 * len(methods), 2.7 * len(names))
    fig, axes = plt.subplots(
        len(names), len(methods), figsize=figsize, layout="constrained", squeeze=False
    )
    fig.set_label(f"safeplot demo diagnostics {which}")
    for row, (name, fit) in enumerate(zip(names, fits, strict=True)):
        for col, method in enumerate(methods):
            ax = axes[row, col]
            _panel(ax, getattr(fit, func), method=method)
            ax.set_title(f"{name}: {_TITLES[method]}", fontsize=9)
            ax.xaxis.label.set_fontsize(8)
            ax.yaxis.label.set_fontsize(8)
            ax.tick_params(labelsize=7)
    fig.suptitle(f"{title}, linear model y ~ x (n = {n})", fontsize=11)
    return fig


def _penguins_figure():
    """Draw the six plot families on a real data set (no raw panels)."""
    import matplotlib.pyplot as plt

    from .datasets import load_dataset
    from .plots.categorical import boxplot, countplot
    from .plots.distributions import histplot
    from .plots.kde import kdeplot
    from .plots.relational import scatterplot

    penguins = load_dataset("penguins")
    fig, axes = plt.subplots(2, 3, figsize=(15, 8.5), layout="constrained")
    fig.set_label("safeplot demo penguins")
    countplot(data=penguins, x="island", hue="species", ax=axes[0, 0])
    axes[0, 0].set_title("countplot: suppress (threshold=3)", fontsize=10)
    boxplot(data=penguins, x="species", y="body_mass_g", method="confidential", ax=axes[0, 1])
    axes[0, 1].set_title("boxplot: confidential (O'Keefe)", fontsize=10)
    histplot(data=penguins, x="flipper_length_mm", hue="species", multiple="stack", ax=axes[0, 2])
    axes[0, 2].set_title("histplot: suppress, per species", fontsize=10)
    scatterplot(
        data=penguins,
        x="flipper_length_mm",
        y="body_mass_g",
        hue="species",
        method="deterministic",
        ax=axes[1, 0],
    )
    axes[1, 0].set_title("scatterplot: deterministic (k=3), per species", fontsize=10)
    scatterplot(
        data=penguins,
        x="flipper_length_mm",
        y="body_mass_g",
        method="confidential",
        ax=axes[1, 1],
    )
    axes[1, 1].set_title("scatterplot: confidential (parallel box plots)", fontsize=10)
    kdeplot(data=penguins, x="bill_length_mm", hue="species", fill=True, ax=axes[1, 2])
    axes[1, 2].set_title("kdeplot: deterministic (k=3), per species", fontsize=10)
    fig.suptitle("Palmer penguins: the six plot families, released safely", fontsize=12)
    return fig


#: O'Keefe's confidentialised outputs drawn by :func:`okeefe_figure`, in order.
OKEEFE_PANELS = (
    "box plot",
    "density",
    "Q-Q plot",
    "parallel box plots",
    "correlations",
    "correspondence analysis",
    "multiple correspondence analysis",
)


def okeefe_figure(
    panels: Sequence[str] = OKEEFE_PANELS,
    *,
    ncols: int = 4,
    panel_size: tuple[float, float] = (4.3, 4.0),
):
    """Draw O'Keefe's confidentialised outputs on the restaurant tips data, a panel each.

    Every panel is released under ``method="confidential"`` (O'Keefe 2013):
    box plots of tip by day from winsorised, rounded five-number summaries;
    the density of the winsorised bill; the Q-Q plot of the residuals of
    ``tip ~ total_bill`` as a robust line with no points; parallel box plots
    of tip against bill with a confidential lowess trend; rounded
    correlations; correspondence analyses instead of contingency tables.

    Parameters
    ----------
    panels : sequence of str
        Which outputs, from :data:`OKEEFE_PANELS`.
    ncols : int, default 4
        Panels per row.
    panel_size : tuple of float
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        An unknown panel.

    Examples
    --------
    >>> from safeplot.demo import okeefe_figure
    >>> fig = okeefe_figure(["box plot", "Q-Q plot"], ncols=2)
    >>> [ax.safeplot_report.method for ax in fig.axes[:2]]
    ['confidential', 'confidential']
    """
    import matplotlib.pyplot as plt
    import numpy as np
    import statsmodels.formula.api as smf

    from .datasets import load_dataset
    from .plots.categorical import boxplot
    from .plots.confidential import correspondenceplot, parallelboxplot
    from .plots.kde import kdeplot
    from .plots.matrix import heatmap
    from .plots.regression import qqplot
    from .summaries import corr

    unknown = [p for p in panels if p not in OKEEFE_PANELS]
    if unknown:
        raise ValueError(f"panels must be taken from {list(OKEEFE_PANELS)}, got {unknown}.")
    tips = load_dataset("tips")
    ncols = min(ncols, len(panels))
    nrows = -(-len(panels) // ncols)
    fig, axes = plt.subplots(
        nrows,
        ncols,
        figsize=(panel_size[0] * ncols, panel_size[1] * nrows),
        layout="constrained",
        squeeze=False,
    )
    fig.set_label("safeplot O'Keefe")
    for ax, panel in zip(axes.flat, panels, strict=False):
        if panel == "box plot":
            boxplot(tips, x="day", y="tip", method="confidential", ax=ax)
        elif panel == "density":
            kdeplot(data=tips, x="total_bill", method="confidential", ax=ax)
        elif panel == "Q-Q plot":
            resid = smf.ols("tip ~ total_bill", data=tips).fit().resid
            qqplot(resid, line="s", method="confidential", ax=ax)
        elif panel == "parallel box plots":
            parallelboxplot(data=tips, x="total_bill", y="tip", trend=True, ax=ax)
        elif panel == "correlations":
            heatmap(corr(tips, numeric_only=True), annot=True, vmin=-1, vmax=1, cmap="vlag", ax=ax)
        elif panel == "correspondence analysis":
            correspondenceplot(tips, x="day", y="size", threshold=5, ax=ax)
        else:
            correspondenceplot(tips, vars=["day", "time", "sex", "smoker"], ax=ax)
        ax.set_title(
            {
                "Q-Q plot": "Q-Q plot of the residuals of tip ~ total_bill",
                "parallel box plots": "parallel box plots and trend",
                "correspondence analysis": "correspondence analysis: day by party size",
            }.get(panel, panel)
        )
    for ax in np.ravel(axes)[len(panels) :]:
        ax.set_axis_off()
    fig.suptitle("O'Keefe's confidentialised outputs: restaurant tips", fontsize=13)
    return fig


def run_demo(out: str | Path = "safeplot-demo", *, n: int = 500, seed: int = 1234) -> list[Path]:
    """Write the demo figures and the audit log to `out`; return the paths written.

    Parameters
    ----------
    out : path-like, default "safeplot-demo"
        Folder to write into (created if needed).
    n : int, default 500
        Records per simulated data set.
    seed : int, default 1234
        Seed of the simulation.

    Returns
    -------
    list of Path
        The PNG files and the audit-log JSON.

    Examples
    --------
    >>> import tempfile
    >>> paths = run_demo(tempfile.mkdtemp(), n=200)  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(policy(demo_policy()))
            methods = DEMO_METHODS
        except DisclosureError:
            # a locked custodian policy refuses the demo's: keep it, without raw panels
            methods = tuple(m for m in DEMO_METHODS if m != "none")
        for name in ("D1", "D2", "D3"):
            fig = _demo_figure(name, methods, n, seed)
            path = out / f"demo_{name}.png"
            fig.savefig(path, dpi=100)
            plt.close(fig)
            written.append(path)
        fig = _penguins_figure()
        path = out / "demo_penguins.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
        for which in DIAGNOSTIC_FIGURES:
            fig = diagnostics_figure(which, methods, n, seed)
            path = out / f"demo_diagnostics_{which}.png"
            fig.savefig(path, dpi=100)
            plt.close(fig)
            written.append(path)
        written.append(audit.export(out / "audit_log.json"))
    return written
