"""``safeplot demo``: the paper's comparison of methods, and the six plot families.

For each of Avraam et al.'s simulated data sets D1-D3 it draws histograms of
x and of y, a scatter plot, a heat map and a contour plot of the 30 x 30
density grid, and box plots of x and y, raw and under suppression,
generalisation, deterministic and probabilistic anonymisation (the plot
families of the paper's Figures 1-4), one PNG per data set. A fourth figure
shows the six plot families (count plot, box plot, histogram, scatter plot,
O'Keefe's parallel box plots, density) on the Palmer penguins, released
safely. Three more show the paper's regression diagnostics of the linear
model ``y ~ x`` on D1-D3 under each method, one diagnostic per figure:
residuals against fitted values, normal Q-Q plots of the standardised
residuals and residuals against leverage (panels A, B and C of the paper's
Figures 5, 6 and 7). The audit log of every release is written as JSON next
to them.

The functions behind the gallery draw the paper's figures themselves:
:func:`paper_figure` (Figures 1-4), :func:`paper_diagnostics_figure`
(Figures 5-7) and :func:`paper_sweep_figure` (the sensitivity Figures 8-15).

The raw panels are drawn because the data are simulated: the demo runs under
its own policy, which allows raw output and uses a fixed demonstration noise
key so the figures are reproducible. Under a locked custodian policy that
forbids raw output, the raw panels are left out instead.
"""

from __future__ import annotations

import contextlib
import math
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import audit, ledger
from .datasets import simulate
from .errors import DisclosureError
from .keys import SecretKey
from .methods import get_method
from .policy import Policy, policy

__all__ = [
    "DEMO_METHODS",
    "DIAGNOSTIC_FIGURES",
    "FAMILIES",
    "OKEEFE_PANELS",
    "PAPER_FIGURES",
    "PAPER_SWEEPS",
    "SWEEP_FAMILIES",
    "comparison_grid",
    "diagnostic_grid",
    "diagnostics_figure",
    "grid_contourplot",
    "okeefe_figure",
    "paper_diagnostics_figure",
    "paper_figure",
    "paper_sweep_figure",
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


#: The rows of a data set's figure: the plot families of Avraam et al.'s Figures 1-4.
_ROWS = (
    "histogram of x",
    "histogram of y",
    "scatter plot",
    "heat map",
    "contour plot",
    "box plot",
)

#: The plot families of the comparison figures (rows of :func:`comparison_grid`).
#: ``"histogram"`` is accepted as another name for ``"histogram of x"``.
FAMILIES = _ROWS

#: The rows of the paper's sensitivity figures 8, 9, 12 and 14, panels (A) to (F).
SWEEP_FAMILIES = (
    "scatter plot",
    "heat map",
    "contour plot",
    "histogram of x",
    "histogram of y",
    "box plot",
)


def _panel(ax, plot, **kwargs) -> None:
    """Draw one panel, or say on it why the release was refused.

    On small samples every cell of a grid can fall below the threshold; the
    panel is then left empty with the reason, as in the paper's small-sample
    figures.

    Each panel is an analysis of its own, as each panel of the paper's
    figures is, and gets its own release ledger: the simulated data sets
    share their random draws (D3's x is a transform of D1's), and the
    regression diagnostics' fitted values are a rescaled x, which one
    session's ledger would rightly take for copies of the same records.
    """
    try:
        with ledger.using(ledger.Ledger()):
            plot(ax=ax, **kwargs)
    except DisclosureError as err:
        ax.set_axis_off()
        # the first sentence or clause: a full stop ends it, not the point of "q=0.1"
        reason = re.split(r"[.:](?:\s|$)", str(err), maxsplit=1)[0]
        reason = re.sub(r"\s*\([^)]*\)", "", reason)  # the policy's source is in the report
        ax.text(
            0.5,
            0.5,
            "not released:\n" + textwrap.fill(reason.lower(), 30),
            ha="center",
            va="center",
            fontsize=8,
            color="0.3",
            transform=ax.transAxes,
        )


def grid_contourplot(
    data,
    *,
    x: str,
    y: str,
    method: str | None = None,
    bins: int = 30,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    color: Any = "C2",
    ax=None,
    annotate: bool | None = None,
):
    """Draw contour lines of the released density grid of two variables (Avraam et al.'s Fig. 3).

    The paper's contour plots are drawn from the same `bins` x `bins`
    density grid as its heat maps: the counts of the raw records with small
    cells suppressed (``"suppress"``), of a grid coarsened by `factor`
    first (``"generalize"``), or of the anonymised records
    (``"deterministic"``, ``"probabilistic"``). This draws the contour lines
    of exactly the counts :func:`safeplot.heatmap` shows (suppressed cells
    as 0, a ring of empty cells around the grid so that the lines close),
    not a kernel density estimate.

    Parameters
    ----------
    data : DataFrame
        The records.
    x, y : str
        Columns of `data`.
    method : str, optional
        Default: the policy's method for heat maps.
    bins, threshold, factor, k, q
        As in :func:`safeplot.heatmap`.
    color : matplotlib colour, default "C2"
        Colour of the lines.
    ax : matplotlib.axes.Axes, optional
        Default: the current Axes.
    annotate : bool, optional
        Add the method note (default: the policy's setting).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.demo import grid_contourplot
    >>> ax = grid_contourplot(safeplot.datasets.simulate("D1"), x="x", y="y", method="suppress")
    >>> ax.safeplot_report.method, ax.safeplot_report.params["bins"]
    ('suppress', 30)
    """
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    from .plots._common import axes_for, finish, set_safe_axis
    from .plots.grid import release_grid
    from .policy import get_policy

    pol = get_policy()
    rel = release_grid(
        data[x],
        data[y],
        names=(x, y),
        method=method,
        bins=bins,
        threshold=threshold,
        factor=factor,
        k=k,
        q=q,
        kind="heatmap",
        function="grid_contourplot",
        policy=pol,
    )
    ax = axes_for(ax, rel.report, rel)
    counts = np.nan_to_num(rel.total)
    wx, wy = np.diff(rel.xedges[:2])[0], np.diff(rel.yedges[:2])[0]
    xs = np.r_[rel.xcentres[0] - wx, rel.xcentres, rel.xcentres[-1] + wx]
    ys = np.r_[rel.ycentres[0] - wy, rel.ycentres, rel.ycentres[-1] + wy]
    z = np.pad(counts, 1)
    levels = MaxNLocator(6, integer=True).tick_values(0, counts.max())
    levels = levels[(levels > 0) & (levels < counts.max())]
    ax.contour(xs, ys, z.T, levels=levels if levels.size else 1, colors=[color], linewidths=1)
    for which, lim, ticks, w in (("x", rel.xlim, rel.xticks, wx), ("y", rel.ylim, rel.yticks, wy)):
        # the axis shows half a cell more on each side, where the lines close: keep the
        # ticks as far apart on the page as on the heat map of the same grid
        stride = max(1, round((lim[1] - lim[0] + w) / (lim[1] - lim[0])))
        set_safe_axis(ax, which, (lim[0] - w / 2, lim[1] + w / 2), np.asarray(ticks)[::stride])
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    return finish(ax, rel.report, annotate=annotate, policy=pol)


def _family_call(family: str, df, method: str, binwidth: float | None = None):
    """Return the plot function and keyword arguments that draw one of the paper's panels."""
    from .plots.categorical import boxplot
    from .plots.distributions import histplot
    from .plots.matrix import heatmap
    from .plots.relational import scatterplot

    if family in ("histogram", "histogram of x", "histogram of y"):
        var, color = ("y", "C3") if family == "histogram of y" else ("x", "C0")
        bins = {"bins": 20} if binwidth is None else {"binwidth": binwidth}
        return histplot, {"data": df, "x": var, "color": color, **bins}
    if family == "scatter plot":
        return scatterplot, {
            "data": df,
            "x": "x",
            "y": "y",
            "color": "C1",
            "mark_coincident": get_method(method).marks_coincident,
            "s": 12,
            "bins": 30,  # the paper's 30 x 30 grid under suppress/generalize, whatever n is
        }
    if family == "heat map":
        return heatmap, {"data": df, "x": "x", "y": "y", "cmap": "viridis", "bins": 30}
    if family == "contour plot":
        return grid_contourplot, {"data": df, "x": "x", "y": "y", "color": "C2"}
    if family == "box plot":
        # two columns: under suppress/generalize the paper's rule on the 2-D grid of x and y
        return boxplot, {"data": df[["x", "y"]], "color": "C4"}
    raise ValueError(f"family must be one of {list(FAMILIES)}, got {family!r}.")


def _check_family(family: str) -> None:
    if family not in FAMILIES and family != "histogram":
        raise ValueError(f"family must be one of {list(FAMILIES)}, got {family!r}.")


def _thin_xticks(ax, most: int = 5) -> None:
    """Keep every other x tick when their labels would crowd a narrow panel.

    Fixed ticks (released ones) are thinned to a subset, so they stay safe;
    an automatic locator (raw panels) is asked for fewer ticks.
    """
    from matplotlib.ticker import FixedLocator, MaxNLocator

    locator = ax.xaxis.get_major_locator()
    if not isinstance(locator, FixedLocator):
        if isinstance(locator, MaxNLocator):
            ax.locator_params(axis="x", nbins=most)
        return
    lo, hi = sorted(ax.get_xlim())
    inside = [t for t in locator.locs if lo <= t <= hi]
    labels = [ax.xaxis.get_major_formatter()(t, i) for i, t in enumerate(inside)]
    if len(inside) > 3 and (
        sum(map(len, labels)) >= 4 * most or _labels_crowd(ax, inside, labels)
    ):
        ax.xaxis.set_major_locator(FixedLocator(inside[::2]))


def _labels_crowd(ax, ticks: list[float], labels: list[str]) -> bool:
    """Whether two neighbouring x tick labels would nearly touch at the Axes' current size."""
    ticks_px = [float(ax.transData.transform((t, 0.0))[0]) for t in ticks]
    major = ax.xaxis.get_major_ticks()
    size = major[0].label1.get_fontsize() if major else 10.0
    char_px = 0.62 * size * ax.figure.dpi / 72  # a digit of DejaVu Sans is about 0.62 em wide
    # leave a gap of a few characters: the layout engine may still narrow the Axes
    return any(
        abs(b - a) < 0.5 * (len(la) + len(lb)) * char_px + 3 * char_px
        for a, b, la, lb in zip(ticks_px, ticks_px[1:], labels, labels[1:], strict=False)
    )


def _fit_method_note(ax) -> None:
    """Break a long method note before its parameters, so it stays under its panel, legible.

    Shrinking it to the panel's width made a note of several parameters too
    small to read; two lines at the usual size fit instead.
    """
    from .plots._common import FOOTNOTE_GID

    for text in ax.texts:
        note = text.get_text()
        if text.get_gid() == FOOTNOTE_GID and len(note) > 32 and " (" in note and "\n" not in note:
            head, params = note.split(" (", 1)
            text.set_text(f"{head}\n({params}")


def _draw_family(
    ax, family: str, df, method: str, binwidth: float | None = None, **params
) -> None:
    """Draw one panel of the paper's figures: `family` of `df` under `method` and `params`."""
    plot, kwargs = _family_call(family, df, method, binwidth)
    _panel(ax, plot, method=method, **{**kwargs, **params})  # a column may set bins
    _thin_xticks(ax)
    _fit_method_note(ax)
    if ax.get_legend() is not None:
        # the count legend of a suppressed scatter goes beside the panel, off the data
        import seaborn as sns

        sns.move_legend(
            ax,
            "upper left",
            bbox_to_anchor=(1.08, 1.0),
            fontsize=6,
            title_fontsize=7,
            frameon=False,
            markerscale=0.8,
        )


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
        if any(get_method(m).raw for m in methods)
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
    fig.suptitle(
        f"{name} (n = {n}): the plot families of Avraam et al.'s Figures 1-4 under each method. "
        + note,
        fontsize=12,
    )
    return fig


def comparison_grid(
    rows: Sequence[tuple[str, str, int, str]],
    columns: Sequence[tuple[str, str, dict[str, Any]]],
    *,
    seed: int = 1234,
    title: str | None = None,
    panel_size: tuple[float, float] = (3.3, 2.7),
    binwidth: float | None = None,
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
    binwidth : float, optional
        Bin width of the histograms (the paper's sensitivity figures use
        0.2; ``"generalize"`` doubles it). Default: 20 bins.

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
        _check_family(row[3])
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
            _draw_family(axes[r, c], family, frames[name, n], method, binwidth, **params)
            axes[r, c].tick_params(labelsize=8)
    for c, (col_title, _, _) in enumerate(columns):
        axes[0, c].set_title(col_title, fontsize=10)
    _label_rows(axes, [row[0] for row in rows], fontsize=10)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


#: Avraam et al.'s comparison figures: number -> (plot families, title).
PAPER_FIGURES = {
    1: (("histogram of x", "histogram of y"), "histograms of x and y"),
    2: (("scatter plot",), "scatter plots of y against x"),
    3: (("heat map", "contour plot"), "heat maps and contour plots of the density grid"),
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

    Rows are the data sets in the paper's order, (A) D1, (B) D2, (C) D3:
    for Figure 1 the histogram of x and then of y of each data set, for
    Figure 3 its heat map and then its contour plot (both of the 30 x 30
    density grid). Columns are the methods with their default parameters.

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
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['x', 'x', 'y', 'y']
    >>> fig.axes[1].safeplot_report.params["k"]
    3
    """
    if number not in PAPER_FIGURES:
        raise ValueError(f"number must be one of {list(PAPER_FIGURES)}, got {number!r}.")
    families, what = PAPER_FIGURES[number]
    rows = [(f"{name}: {family}", name, n, family) for name in names for family in families]
    columns = [(_TITLES.get(m, m), m, {}) for m in methods]
    title = f"Figure {number} of Avraam et al.: {what} (n = {n}). {_raw_note(methods)}"
    fig = comparison_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot figure {number}")
    return fig


#: Avraam et al.'s sensitivity figures (D1 only): number -> (method, parameter, values,
#: whether the rows are regression diagnostics rather than exploratory plots).
PAPER_SWEEPS: dict[int, tuple[str, str, tuple[float, ...], bool]] = {
    8: ("suppress", "threshold", (3, 5, 7, 9), False),
    9: ("generalize", "threshold", (3, 5, 7, 9), False),
    10: ("suppress", "threshold", (3, 5, 7, 9), True),
    11: ("generalize", "threshold", (3, 5, 7, 9), True),
    12: ("deterministic", "k", (5, 10, 20, 50), False),
    13: ("deterministic", "k", (5, 10, 20, 50), True),
    14: ("probabilistic", "q", (0.1, 0.5, 1, math.sqrt(2)), False),
    15: ("probabilistic", "q", (0.1, 0.5, 1, math.sqrt(2)), True),
}

#: Histogram bin width of the sensitivity figures (``"generalize"`` doubles it to 0.4).
SWEEP_BINWIDTH = 0.2

#: The parameter value that leaves the data as they are (the paper's first column).
_NO_CONTROL = {"threshold": 1, "k": 1, "q": 0}


def _fmt(value: Any) -> str:
    if isinstance(value, float) and math.isclose(value, math.sqrt(2)):
        return "\u221a2"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _sweep_columns(method: str, param: str, values: Sequence[Any], raw: bool) -> list:
    columns = [(f"{method}, {param} = {_fmt(v)}", method, {param: v}) for v in values]
    if raw:
        ref = _NO_CONTROL.get(param)
        label = "raw" if ref is None else f"raw ({param} = {ref})"
        columns.insert(0, (label, "none", {}))
    return columns


def sweep_figure(
    method: str,
    param: str,
    values: Sequence[Any],
    *,
    families: tuple[str, ...] = SWEEP_FAMILIES,
    names: tuple[str, ...] = ("D1",),
    n: int = 500,
    seed: int = 1234,
    raw: bool = False,
    binwidth: float | None = SWEEP_BINWIDTH,
    title: str | None = None,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw a sensitivity sweep: one method, one parameter over `values` (a column each).

    The layout of Avraam et al.'s Figures 8, 9, 12 and 14: rows are the
    plot families of each data set, (A) scatter plot, (B) heat map,
    (C) contour plot, (D) histogram of x, (E) histogram of y and (F) box
    plots by default, columns the parameter's values. A value the policy in
    force refuses (``q`` below ``q_min``, ``k`` below ``k_min``) leaves its
    panels empty with the reason written on them.

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
    raw : bool, default False
        Add a first column of the raw data (the paper's ``k = 1`` or
        ``q = 0``); needs a policy that allows raw output.
    binwidth : float or None, default 0.2
        Bin width of the histograms, as in the paper; None for 20 bins.
    title : str, optional
        The figure's title (default: the method and the values).
    panel_size : tuple of float
        Width and height of one panel, in inches.

    Returns
    -------
    matplotlib.figure.Figure

    See Also
    --------
    paper_sweep_figure : The paper's Figures 8-15 with its values.

    Examples
    --------
    >>> from safeplot.demo import sweep_figure
    >>> fig = sweep_figure("deterministic", "k", [3, 10], families=("histogram of x",), n=200)
    >>> [ax.safeplot_report.params["k"] for ax in fig.axes]
    [3, 10]
    """
    rows = [(f"{name}: {family}", name, n, family) for family in families for name in names]
    columns = _sweep_columns(method, param, values, raw)
    if title is None:
        title = f"{method}: {param} = {', '.join(map(_fmt, values))} (n = {n})"
    fig = comparison_grid(
        rows, columns, seed=seed, title=title, panel_size=panel_size, binwidth=binwidth
    )
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


#: The paper's regression diagnostics: file stem -> (panel method of SafeOLSResults, title).
#: Each is one row, (A), (B) or (C), of the paper's Figures 5 (D1), 6 (D2) and 7 (D3).
DIAGNOSTIC_FIGURES = {
    "resid_fitted": (
        "plot_resid_fitted",
        "Residuals against fitted values (panels A of Figures 5-7)",
    ),
    "qq": ("plot_qq", "Normal Q-Q plots of the standardised residuals (panels B of Figures 5-7)"),
    "leverage": (
        "plot_resid_leverage",
        "Standardised residuals against leverage (panels C of Figures 5-7)",
    ),
}

#: The rows of the paper's diagnostic figures, (A) to (C).
_DIAGNOSTIC_ROWS = {
    "resid_fitted": "(A) residuals vs fitted",
    "qq": "(B) normal Q-Q",
    "leverage": "(C) residuals vs leverage",
}


def diagnostic_grid(
    rows: Sequence[tuple[str, str, int, str]],
    columns: Sequence[tuple[str, str, dict[str, Any]]],
    *,
    seed: int = 1234,
    title: str | None = None,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw a grid of regression diagnostics of ``y ~ x``: a row each, a column per setting.

    The figure builder behind Avraam et al.'s Figures 5-7 (one data set
    each) and the diagnostic sensitivity figures 10, 11, 13 and 15. The
    linear model is fitted once per data set on the raw records and each
    panel releases its diagnostic under the column's method; a refused
    panel says why.

    Parameters
    ----------
    rows : sequence of (label, data set, n, diagnostic)
        Each row: its label, a simulated data set, its number of records
        and the diagnostic, a key of :data:`DIAGNOSTIC_FIGURES`.
    columns : sequence of (title, method, params)
        Each column: its title, the method and further keyword arguments of
        the diagnostic plot (e.g. ``{"k": 10}``).
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
        An unknown diagnostic or data set.

    Examples
    --------
    >>> from safeplot.demo import diagnostic_grid
    >>> fig = diagnostic_grid(
    ...     [("D1: Q-Q", "D1", 200, "qq")],
    ...     [("k = 5", "deterministic", {"k": 5}), ("k = 10", "deterministic", {"k": 10})],
    ... )
    >>> [ax.safeplot_report.params["k"] for ax in fig.axes]
    [5, 10]
    """
    import matplotlib.pyplot as plt

    from .diagnostics import safe_ols

    for row in rows:
        if row[3] not in DIAGNOSTIC_FIGURES:
            raise ValueError(
                f"diagnostic must be one of {list(DIAGNOSTIC_FIGURES)}, got {row[3]!r}."
            )
    fits: dict[tuple[str, int], Any] = {}
    for _, name, n, _ in rows:
        if (name, n) not in fits:
            fits[name, n] = safe_ols("y ~ x", data=simulate(name, n=n, seed=seed))
    fig, axes = plt.subplots(
        len(rows),
        len(columns),
        figsize=(panel_size[0] * len(columns), panel_size[1] * len(rows)),
        layout="constrained",
        squeeze=False,
    )
    for r, (_, name, n, which) in enumerate(rows):
        for c, (_, method, params) in enumerate(columns):
            ax = axes[r, c]
            # the paper's 30 x 30 grid under suppress/generalize, unless a column sets bins
            plot = getattr(fits[name, n], DIAGNOSTIC_FIGURES[which][0])
            _panel(ax, plot, method=method, **{"bins": 30, **params})
            ax.set_title("")  # the row label names the diagnostic, the column title the method
            ax.xaxis.label.set_fontsize(8)
            ax.yaxis.label.set_fontsize(8)
            ax.tick_params(labelsize=7)
            _thin_xticks(ax)
            _fit_method_note(ax)
    for c, (col_title, _, _) in enumerate(columns):
        axes[0, c].set_title(col_title, fontsize=10)
    _label_rows(axes, [row[0] for row in rows], fontsize=10)
    if title:
        fig.suptitle(title, fontsize=12)
    return fig


def paper_diagnostics_figure(
    number: int,
    methods: tuple[str, ...] = DEMO_METHODS,
    n: int = 500,
    seed: int = 1234,
    *,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw Avraam et al.'s Figure 5, 6 or 7: the diagnostics of ``y ~ x`` on D1, D2 or D3.

    Rows are the paper's panels (A) residuals against fitted values,
    (B) normal Q-Q plot and (C) standardised residuals against leverage;
    columns the methods.

    Parameters
    ----------
    number : {5, 6, 7}
        Figure 5 (D1), 6 (D2) or 7 (D3).
    methods : tuple of str
        The columns (raw needs a policy that allows it).
    n, seed : int
        Size and seed of the simulated data set.
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
    >>> from safeplot.demo import paper_diagnostics_figure
    >>> fig = paper_diagnostics_figure(6, ("deterministic",), n=200)
    >>> [ax.safeplot_report.method for ax in fig.axes]
    ['deterministic', 'deterministic', 'deterministic']
    """
    names = {5: "D1", 6: "D2", 7: "D3"}
    if number not in names:
        raise ValueError(f"number must be 5, 6 or 7, got {number!r}.")
    name = names[number]
    rows = [(f"{name}: {label}", name, n, which) for which, label in _DIAGNOSTIC_ROWS.items()]
    columns = [(_TITLES.get(m, m), m, {}) for m in methods]
    title = (
        f"Figure {number} of Avraam et al.: regression diagnostics of y ~ x on {name} "
        f"(n = {n}). {_raw_note(methods)}"
    )
    fig = diagnostic_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot figure {number}")
    return fig


def paper_sweep_figure(
    number: int,
    n: int = 500,
    seed: int = 1234,
    *,
    raw: bool = True,
    panel_size: tuple[float, float] = (3.3, 2.7),
):
    """Draw one of Avraam et al.'s sensitivity figures 8-15 on D1, with the paper's values.

    =======  ============================  ======================  =============
    figure   method                        values                  rows
    =======  ============================  ======================  =============
    8, 10    ``"suppress"`` (30 x 30)      threshold 3, 5, 7, 9    8: plots,
                                                                   10: diagnostics
    9, 11    ``"generalize"`` (15 x 15)    threshold 3, 5, 7, 9    9: plots,
                                                                   11: diagnostics
    12, 13   ``"deterministic"``           k 5, 10, 20, 50         12: plots,
                                                                   13: diagnostics
    14, 15   ``"probabilistic"``           q 0.1, 0.5, 1, sqrt(2)  14: plots,
                                                                   15: diagnostics
    =======  ============================  ======================  =============

    The rows of Figures 8, 9, 12 and 14 are (A) scatter plots, (B) heat maps,
    (C) contour plots, (D)-(E) histograms of x and y (bin width 0.2, 0.4
    under ``"generalize"``) and (F) box plots; those of Figures 10, 11, 13
    and 15 the diagnostics (A)-(C) of ``y ~ x``. The first column is the raw
    data, as in the paper (``k = 1``, ``q = 0``). Values the policy in force
    refuses (the default ``q_min = 0.25`` refuses ``q = 0.1``) leave their
    column empty with the reason; run under a policy with a lower floor to
    draw them.

    Parameters
    ----------
    number : int
        The figure, 8 to 15.
    n, seed : int
        Size and seed of the simulated D1.
    raw : bool, default True
        Draw the first, raw column (needs a policy that allows raw output).
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
    >>> from safeplot.demo import paper_sweep_figure
    >>> fig = paper_sweep_figure(13, n=200, raw=False)
    >>> [ax.safeplot_report.params["k"] for ax in fig.axes[:4]]
    [5, 10, 20, 50]
    """
    if number not in PAPER_SWEEPS:
        raise ValueError(f"number must be one of {list(PAPER_SWEEPS)}, got {number!r}.")
    method, param, values, diagnostic = PAPER_SWEEPS[number]
    shown = ", ".join(map(_fmt, values))
    title = f"Figure {number} of Avraam et al.: {method}, {param} = {shown} (D1, n = {n})"
    if not diagnostic:
        fig = sweep_figure(
            method, param, values, n=n, seed=seed, raw=raw, title=title, panel_size=panel_size
        )
    else:
        rows = [(label, "D1", n, which) for which, label in _DIAGNOSTIC_ROWS.items()]
        columns = _sweep_columns(method, param, values, raw)
        fig = diagnostic_grid(rows, columns, seed=seed, title=title, panel_size=panel_size)
    fig.set_label(f"safeplot figure {number}")
    return fig


def diagnostics_figure(
    which: str,
    methods: tuple[str, ...] = DEMO_METHODS,
    n: int = 500,
    seed: int = 1234,
    *,
    names: tuple[str, ...] = ("D1", "D2", "D3"),
    figsize: tuple[float, float] | None = None,
):
    """Draw one of Avraam et al.'s regression diagnostics of ``y ~ x`` on D1-D3 under each method.

    Rows are the data sets, columns the methods: one row, (A), (B) or (C),
    of each of the paper's Figures 5 (D1), 6 (D2) and 7 (D3), side by side
    (:func:`paper_diagnostics_figure` draws the paper's figures
    themselves). A panel whose release is refused says why.

    Parameters
    ----------
    which : {"resid_fitted", "qq", "leverage"}
        The diagnostic: panels (A), (B) or (C) of the paper's Figures 5-7.
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
            _panel(ax, getattr(fit, func), method=method, bins=30)  # the paper's grid
            ax.set_title(f"{name}: {_TITLES[method]}", fontsize=9)
            ax.xaxis.label.set_fontsize(8)
            ax.yaxis.label.set_fontsize(8)
            ax.tick_params(labelsize=7)
            _thin_xticks(ax)
            _fit_method_note(ax)
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
            methods = tuple(m for m in DEMO_METHODS if not get_method(m).raw)
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
