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
from pathlib import Path

from . import audit
from .datasets import simulate
from .errors import DisclosureError
from .keys import SecretKey
from .policy import Policy, policy

__all__ = ["DEMO_METHODS", "DIAGNOSTIC_FIGURES", "diagnostics_figure", "run_demo"]

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


def _demo_figure(name: str, methods: tuple[str, ...], n: int, seed: int):
    """One simulated data set under every method: a row per plot family, a column per method."""
    import matplotlib.pyplot as plt

    from .plots.categorical import boxplot
    from .plots.distributions import histplot
    from .plots.kde import kdeplot
    from .plots.matrix import heatmap
    from .plots.relational import scatterplot

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
        ax = axes[:, col]
        _panel(ax[0], histplot, data=df, x="x", bins=20, method=method, color="C0")
        _panel(
            ax[1],
            scatterplot,
            data=df,
            x="x",
            y="y",
            method=method,
            color="C1",
            mark_coincident=method == "deterministic",
            s=12,
        )
        _panel(ax[2], heatmap, data=df, x="x", y="y", method=method, cmap="viridis")
        _panel(ax[3], kdeplot, data=df, x="x", y="y", method=method, color="C2")
        _panel(ax[4], boxplot, data=df[["x", "y"]], method=method, color="C4")
        ax[0].set_title(_TITLES[method], fontsize=10)
    for row, label in enumerate(_ROWS):
        axes[row, 0].annotate(
            label,
            xy=(0, 0.5),
            xycoords="axes fraction",
            xytext=(-48, 0),
            textcoords="offset points",
            rotation=90,
            ha="right",
            va="center",
            fontsize=11,
        )
    note = (
        "Raw panels are shown only because these data are simulated."
        if "none" in methods
        else "Raw panels omitted: the policy in force does not allow raw output."
    )
    fig.suptitle(f"{name} (n = {n}): y against x under each method. {note}", fontsize=12)
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
