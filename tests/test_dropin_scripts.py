"""Realistic seaborn scripts run with only the import changed, and pass the leak scanner."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import safeplot
from safeplot.errors import UnsafePlotError

from .leakscan import columns_of_axes, run_seaborn_script, scan_figure

# seaborn themes set by a script are global: each test starts from and leaves the defaults
pytestmark = pytest.mark.usefixtures("restore_theme")

PENGUINS_EDA = """
import seaborn as sns
import matplotlib.pyplot as plt

sns.set_theme(style="ticks", palette="deep")
penguins = sns.load_dataset("penguins")
fig, axes = plt.subplots(1, 3, figsize=(12, 4))
sns.histplot(data=penguins, x="flipper_length_mm", hue="species", ax=axes[0])
sns.scatterplot(data=penguins, x="flipper_length_mm", y="body_mass_g", hue="species", ax=axes[1])
sns.boxplot(data=penguins, x="species", y="body_mass_g", ax=axes[2])
sns.despine(fig)
"""

TIPS_EDA = """
import seaborn as sns
import matplotlib.pyplot as plt

tips = sns.load_dataset("tips")
sns.set_context("paper")
fig, axes = plt.subplots(2, 2, figsize=(9, 7))
sns.regplot(data=tips, x="total_bill", y="tip", ax=axes[0, 0])
sns.residplot(data=tips, x="total_bill", y="tip", ax=axes[0, 1])
sns.barplot(data=tips, x="day", y="tip", hue="sex", ax=axes[1, 0])
sns.ecdfplot(data=tips, x="total_bill", hue="time", ax=axes[1, 1])
"""

TITANIC_HEATMAP = """
import seaborn as sns
import matplotlib.pyplot as plt

titanic = sns.load_dataset("titanic")
table = sns.crosstab(titanic, "class", "sex")
fig, ax = plt.subplots()
sns.heatmap(table, annot=True, fmt=".0f", cmap=sns.color_palette("Blues", as_cmap=True), ax=ax)
"""

PAIRPLOT = """
import seaborn as sns

penguins = sns.load_dataset("penguins")
grid = sns.pairplot(penguins[["bill_length_mm", "flipper_length_mm", "species"]], hue="species")
"""

JOINTPLOT = """
import seaborn as sns

penguins = sns.load_dataset("penguins")
grid = sns.jointplot(data=penguins, x="bill_length_mm", y="bill_depth_mm")
"""

DISPLOT = """
import seaborn as sns

penguins = sns.load_dataset("penguins")
grid = sns.displot(data=penguins, x="flipper_length_mm", col="species")
grid.set_axis_labels("Flipper length (mm)", "Count")
"""

FACETGRID = """
import seaborn as sns

tips = sns.load_dataset("tips")
grid = sns.FacetGrid(tips, col="time", row="sex")
grid.map(sns.histplot, "total_bill")
"""


def _scan_all(fig, frame, **kws):
    per_axes = {ax: columns_of_axes(ax, frame) for ax in fig.axes}
    raw = {}
    return scan_figure(fig, raw, count_axis=None, per_axes=per_axes, **kws)


def test_penguins_eda():
    ns = run_seaborn_script(PENGUINS_EDA)
    fig = plt.gcf()
    penguins = ns["penguins"]
    assert len(fig.axes) >= 3
    for ax in fig.axes[:3]:
        assert ax.safeplot_report is not None
    assert not _scan_all(fig, penguins)


def test_tips_eda():
    ns = run_seaborn_script(TIPS_EDA)
    fig = plt.gcf()
    tips = ns["tips"]
    axes = fig.axes
    per_axes = {
        axes[0]: {"x": tips["total_bill"].to_numpy(), "y": tips["tip"].to_numpy()},
        axes[1]: {"x": tips["total_bill"].to_numpy()},
        axes[2]: {"y": tips["tip"].to_numpy()},
        axes[3]: {"x": tips["total_bill"].to_numpy()},
    }
    assert not scan_figure(fig, {}, count_axis=None, per_axes=per_axes)
    assert [a.safeplot_report.function for a in axes[:4]] == [
        "regplot",
        "residplot",
        "barplot",
        "ecdfplot",
    ]


def test_titanic_heatmap_of_safe_crosstab():
    run_seaborn_script(TITANIC_HEATMAP)
    fig = plt.gcf()
    assert fig.axes[0].safeplot_report.function == "heatmap"
    assert not scan_figure(fig, {}, count_axis=None, counts_in_colour=True)


def _needs(name):
    func = getattr(safeplot, name)
    if getattr(func, "_safeplot_refused", False):
        pytest.skip(f"{name} is not available in this installation")


def test_pairplot_script():
    _needs("pairplot")
    ns = run_seaborn_script(PAIRPLOT)
    from safeplot.plots.axisgrid import pair_axes_variables

    grid = ns["grid"]
    per_axes = pair_axes_variables(grid, ns["penguins"])
    assert not scan_figure(grid.figure, {}, count_axis=None, per_axes=per_axes)


def test_jointplot_script():
    _needs("jointplot")
    ns = run_seaborn_script(JOINTPLOT)
    grid, df = ns["grid"], ns["penguins"].dropna(subset=["bill_length_mm", "bill_depth_mm"])
    x, y = df["bill_length_mm"].to_numpy(), df["bill_depth_mm"].to_numpy()
    per_axes = {
        grid.ax_joint: {"x": x, "y": y},
        grid.ax_marg_x: {"x": x},
        grid.ax_marg_y: {"y": y},
    }
    assert not scan_figure(grid.figure, {}, count_axis=None, per_axes=per_axes)


def test_displot_facets_script():
    _needs("displot")
    ns = run_seaborn_script(DISPLOT)
    grid, df = ns["grid"], ns["penguins"]
    per_axes = {}
    for ax, (_, sub) in zip(grid.axes.flat, df.groupby("species"), strict=True):
        per_axes[ax] = {"x": sub["flipper_length_mm"].dropna().to_numpy()}
        assert ax.safeplot_report is not None
    raw = {"x": df["flipper_length_mm"].dropna().to_numpy()}
    assert not scan_figure(grid.figure, raw, per_axes=per_axes)


def test_facetgrid_script():
    ns = run_seaborn_script(FACETGRID)
    grid, tips = ns["grid"], ns["tips"]
    per_axes = {}
    # each panel shows its facet's records (the shared ticks avoid every facet's rare values)
    for (i, j, _), sub in grid.facet_data():
        ax = grid.axes[i, j]
        assert ax.safeplot_report.method == "suppress"
        per_axes[ax] = {"x": sub["total_bill"].to_numpy()}
    assert not scan_figure(grid.figure, {"x": tips["total_bill"].to_numpy()}, per_axes=per_axes)


UNSAFE = {
    "facet-scatter": (
        "g = sns.FacetGrid(tips, col='time'); g.map(plt.scatter, 'total_bill', 'tip')",
        "scatterplot",
    ),
}


@pytest.mark.parametrize("name", sorted(UNSAFE))
def test_unsafe_scripts_raise_naming_alternative(name):
    call, alternative = UNSAFE[name]
    script = (
        "import seaborn as sns\nimport matplotlib.pyplot as plt\n"
        "tips = sns.load_dataset('tips')\n" + call + "\n"
    )
    with pytest.raises(UnsafePlotError, match=alternative.replace("(", r"\(")):
        run_seaborn_script(script)


def test_scripts_run_unchanged_under_seaborn():
    """The scripts are seaborn scripts: they run with seaborn itself (raw)."""
    namespace: dict = {}
    script = PENGUINS_EDA.replace("sns.load_dataset", "__import__('safeplot').load_dataset")
    exec(compile(script, "s", "exec"), namespace)
    assert np.isfinite(plt.gcf().axes[0].get_xlim()).all()
