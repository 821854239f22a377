"""Scripts in the style of seaborn's gallery and docs, run with only the import changed.

Each script is what a seaborn user writes (``import seaborn as sns``, no
safeplot arguments); the test runs it with ``import safeplot as sns``. It
either draws, and the leak scanner finds no rare value of any loaded variable
and no small count in the figure, or it is refused with an error that names
the safe alternative. Refusals are expected only for raw matrices given to
heatmap or clustermap, for functions mapped onto a grid that draw records,
and for calls that ask for every record (``estimator=None``, ``units=``).
A figure that draws also has no two texts overlapping (tick labels, labels,
titles, legends, notes) and no note of safeplot's cut off by the figure edge.

seaborn's fmri, flights and diamonds tables are not bundled: the scripts
simulate frames of the same shape with a seeded numpy generator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import pytest

from safeplot.errors import DisclosureError

from .leakscan import run_seaborn_script, scan_script
from .textlayout import clipped_texts, overlapping_texts

# seaborn themes set by a script are global: each test starts from and leaves the defaults
pytestmark = pytest.mark.usefixtures("restore_theme")

HEADER = """
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns
"""

# fmri: 14 subjects x 19 time points x 2 events x 2 regions, one BOLD signal each
FMRI = """
rng = np.random.default_rng(2014)
rows = []
for subject in [f"s{i}" for i in range(14)]:
    for event, amp in (("stim", 0.2), ("cue", 0.08)):
        for region, gain in (("parietal", 1.0), ("frontal", 0.6)):
            for timepoint in range(19):
                bump = amp * gain * np.sin(np.pi * timepoint / 9) * (timepoint < 10)
                rows.append((subject, timepoint, event, region, bump + rng.normal(0, 0.05)))
fmri = pd.DataFrame(rows, columns=["subject", "timepoint", "event", "region", "signal"])
"""

# flights: monthly passengers, 1949-1960
FLIGHTS = """
rng = np.random.default_rng(1949)
months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
season = 1 + 0.2 * np.sin(2 * np.pi * (np.arange(12) - 3) / 12)
flights = pd.DataFrame(
    [
        (year, month, int(round((100 + 30 * (year - 1949)) * s * rng.normal(1, 0.05))))
        for year in range(1949, 1961)
        for month, s in zip(months, season)
    ],
    columns=["year", "month", "passengers"],
)
flights["month"] = pd.Categorical(flights["month"], months)
"""

# diamonds: a few thousand stones, carat, the three Cs, depth, table and price
DIAMONDS = """
rng = np.random.default_rng(1888)
n = 3000
cuts = ["Ideal", "Premium", "Very Good", "Good", "Fair"]
colors = list("DEFGHIJ")
clarities = ["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"]
carat = np.round(rng.lognormal(-0.4, 0.5, n), 2).clip(0.2, 5)
diamonds = pd.DataFrame({
    "carat": carat,
    "cut": pd.Categorical(rng.choice(cuts, n, p=[0.4, 0.25, 0.2, 0.1, 0.05]), cuts),
    "color": pd.Categorical(rng.choice(colors, n), colors),
    "clarity": pd.Categorical(rng.choice(clarities, n), clarities),
    "depth": np.round(rng.normal(61.7, 1.4, n), 1),
    "table": np.round(rng.normal(57, 2, n)),
    "price": np.round(np.exp(8.4 + 1.7 * np.log(carat) + rng.normal(0, 0.25, n))).astype(int),
})
"""


@dataclass
class Script:
    """A seaborn script; `refused` is a phrase of the error that names the alternative."""

    code: str
    refused: str | None = None
    wide: dict | None = None
    scan: dict = field(default_factory=dict)
    slow: bool = False


SCRIPTS: dict[str, Script] = {
    # -- distributions ------------------------------------------------------------------
    "histplot-penguins-stacked-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.histplot(data=penguins, x="flipper_length_mm", hue="species", multiple="stack")
"""
    ),
    "histplot-penguins-kde-step": Script(
        """
penguins = sns.load_dataset("penguins")
sns.histplot(data=penguins, x="flipper_length_mm", kde=True, element="step")
"""
    ),
    "histplot-penguins-bivariate-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.histplot(penguins, x="bill_depth_mm", y="body_mass_g", hue="species")
""",
        scan={"counts_in_colour": True},  # the cells' colour shows their released counts
    ),
    "histplot-diamonds-log-scale-stack": Script(
        DIAMONDS
        + """
sns.set_theme(style="ticks")
f, ax = plt.subplots(figsize=(7, 5))
sns.despine(f)
sns.histplot(
    diamonds, x="price", hue="cut", multiple="stack",
    palette="light:m_r", edgecolor=".3", linewidth=.5, log_scale=True,
)
"""
    ),
    "histplot-tips-discrete-fill": Script(
        """
tips = sns.load_dataset("tips")
sns.histplot(data=tips, x="size", hue="time", discrete=True, multiple="fill", shrink=.8)
""",
        scan={"count_axis": None},  # the y axis shows shares, not counts
    ),
    "histplot-tips-categorical-dodge": Script(
        """
tips = sns.load_dataset("tips")
sns.histplot(data=tips, x="day", hue="sex", multiple="dodge", shrink=.8)
"""
    ),
    "kdeplot-penguins-bivariate-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.kdeplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", hue="species")
"""
    ),
    "kdeplot-tips-fill-stack": Script(
        """
tips = sns.load_dataset("tips")
sns.kdeplot(data=tips, x="total_bill", hue="time", multiple="fill")
"""
    ),
    "kdeplot-diamonds-fill-palette": Script(
        DIAMONDS
        + """
sns.kdeplot(
   data=diamonds, x="price", hue="cut", log_scale=True,
   fill=True, common_norm=False, palette="crest", alpha=.5, linewidth=0,
)
"""
    ),
    "ecdfplot-penguins-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.ecdfplot(data=penguins, x="bill_length_mm", hue="species", stat="count")
"""
    ),
    "rugplot-tips-with-scatter": Script(
        """
tips = sns.load_dataset("tips")
sns.scatterplot(data=tips, x="total_bill", y="tip")
sns.rugplot(data=tips, x="total_bill", y="tip")
"""
    ),
    "histplot-penguins-density-per-species": Script(
        """
penguins = sns.load_dataset("penguins")
sns.histplot(penguins, x="flipper_length_mm", hue="species", stat="density", common_norm=False)
"""
    ),
    "histplot-titanic-horizontal-poly": Script(
        """
titanic = sns.load_dataset("titanic")
sns.histplot(data=titanic, y="age", hue="sex", element="poly")
"""
    ),
    "ecdfplot-tips-complementary": Script(
        """
tips = sns.load_dataset("tips")
sns.ecdfplot(data=tips, x="total_bill", hue="time", complementary=True)
"""
    ),
    "kdeplot-penguins-filled-levels": Script(
        """
penguins = sns.load_dataset("penguins")
sns.kdeplot(
    data=penguins, x="bill_length_mm", y="bill_depth_mm",
    fill=True, levels=10, thresh=.1, cmap="mako",
)
"""
    ),
    "displot-penguins-bivariate-hist-hue": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.displot(penguins, x="bill_length_mm", y="bill_depth_mm", hue="species", kind="hist")
""",
        scan={"counts_in_colour": True},  # the cells' colour shows their released counts
    ),
    "displot-penguins-hist-col": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.displot(data=penguins, x="flipper_length_mm", hue="species", col="sex", kind="hist")
"""
    ),
    "displot-penguins-kde-fill": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.displot(data=penguins, x="flipper_length_mm", hue="species", kind="kde", fill=True)
"""
    ),
    "displot-tips-ecdf-row": Script(
        """
tips = sns.load_dataset("tips")
g = sns.displot(data=tips, x="total_bill", hue="smoker", row="time", kind="ecdf")
"""
    ),
    "displot-penguins-bivariate-kde-rug": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.displot(data=penguins, x="flipper_length_mm", y="bill_length_mm", kind="kde", rug=True)
"""
    ),
    # -- relational ---------------------------------------------------------------------
    "scatterplot-tips-hue-size-style": Script(
        """
tips = sns.load_dataset("tips")
sns.scatterplot(data=tips, x="total_bill", y="tip", hue="day", size="size", style="time")
"""
    ),
    "scatterplot-diamonds-gallery": Script(
        DIAMONDS
        + """
sns.set_theme(style="whitegrid")
f, ax = plt.subplots(figsize=(6.5, 6.5))
sns.despine(f, left=True, bottom=True)
clarity_ranking = ["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"]
sns.scatterplot(
    x="carat", y="price", hue="clarity", size="depth",
    palette="ch:r=-.2,d=.3_r", hue_order=clarity_ranking,
    sizes=(1, 8), linewidth=0, data=diamonds, ax=ax,
)
"""
    ),
    "relplot-tips-col-hue-style-size": Script(
        """
tips = sns.load_dataset("tips")
g = sns.relplot(
    data=tips, x="total_bill", y="tip", col="time",
    hue="smoker", style="smoker", size="size",
)
"""
    ),
    "scatterplot-tips-numeric-hue": Script(
        """
sns.set_theme(style="white")
tips = sns.load_dataset("tips")
sns.scatterplot(data=tips, x="total_bill", y="tip", hue="size", palette="ch:r=-.2,d=.3_r")
"""
    ),
    "relplot-mpg-varying-sizes": Script(
        """
mpg = sns.load_dataset("mpg")
g = sns.relplot(
    x="horsepower", y="mpg", hue="origin", size="weight",
    sizes=(40, 400), alpha=.5, palette="muted", height=6, data=mpg,
)
"""
    ),
    "relplot-fmri-line-col-region": Script(
        FMRI
        + """
g = sns.relplot(
    data=fmri, kind="line", x="timepoint", y="signal",
    col="region", hue="event", style="event",
)
"""
    ),
    "lineplot-fmri-hue-event": Script(
        FMRI
        + """
sns.lineplot(data=fmri, x="timepoint", y="signal", hue="event")
"""
    ),
    "lineplot-fmri-hue-style-markers": Script(
        FMRI
        + """
sns.lineplot(
    data=fmri, x="timepoint", y="signal", hue="region", style="event",
    markers=True, dashes=False, errorbar="sd",
)
"""
    ),
    "lineplot-fmri-size-region": Script(
        FMRI
        + """
sns.lineplot(data=fmri, x="timepoint", y="signal", hue="event", size="region")
"""
    ),
    "lineplot-flights-long-by-year": Script(
        FLIGHTS
        + """
sns.lineplot(data=flights, x="year", y="passengers")
"""
    ),
    "lineplot-flights-wide-form": Script(
        FLIGHTS
        + """
flights_wide = flights.pivot(index="year", columns="month", values="passengers")
sns.lineplot(data=flights_wide)
""",
        wide={"y": "flights_wide"},
    ),
    "lineplot-wide-random-walk-dates": Script(
        """
sns.set_theme(style="whitegrid")
rs = np.random.RandomState(365)
values = rs.randn(365, 4).cumsum(axis=0)
dates = pd.date_range("1 1 2016", periods=365, freq="D")
data = pd.DataFrame(values, dates, columns=["A", "B", "C", "D"])
data = data.rolling(7).mean()
sns.lineplot(data=data, palette="tab10", linewidth=2.5)
""",
        wide={"y": "data"},
    ),
    "lineplot-wide-random-walk-days": Script(
        """
sns.set_theme(style="whitegrid")
rs = np.random.RandomState(365)
values = rs.randn(365, 4).cumsum(axis=0)
days = pd.RangeIndex(365, name="day")
data = pd.DataFrame(values, days, columns=["A", "B", "C", "D"])
data = data.rolling(7).mean()
sns.lineplot(data=data, palette="tab10", linewidth=2.5)
""",
        wide={"y": "data"},
    ),
    "lineplot-fmri-units-estimator-none": Script(
        FMRI
        + """
sns.lineplot(
    data=fmri.query("region == 'frontal'"), x="timepoint", y="signal", hue="event",
    units="subject", estimator=None, lw=1,
)
""",
        refused="Leave units out",
    ),
    # -- categorical --------------------------------------------------------------------
    "boxplot-tips-hue": Script(
        """
tips = sns.load_dataset("tips")
sns.boxplot(data=tips, x="day", y="total_bill", hue="smoker", palette=["m", "g"])
sns.despine(offset=10, trim=True)
"""
    ),
    "boxplot-titanic-horizontal": Script(
        """
titanic = sns.load_dataset("titanic")
sns.boxplot(data=titanic, x="age", y="class")
"""
    ),
    "boxplot-iris-wide-form": Script(
        """
iris = sns.load_dataset("iris")
sns.boxplot(data=iris, orient="h")
""",
        wide={"x": "iris"},
    ),
    "stripplot-iris-wide-form": Script(
        """
iris = sns.load_dataset("iris")
sns.stripplot(data=iris)
""",
        wide={"y": "iris"},
    ),
    "kdeplot-iris-wide-form": Script(
        """
iris = sns.load_dataset("iris")
sns.kdeplot(data=iris, fill=True)
""",
        wide={"x": "iris"},
    ),
    "boxplot-mpg-numeric-category": Script(
        """
mpg = sns.load_dataset("mpg")
sns.boxplot(data=mpg, x="cylinders", y="mpg")
"""
    ),
    "barplot-tips-horizontal-median": Script(
        """
tips = sns.load_dataset("tips")
sns.barplot(data=tips, x="total_bill", y="day", estimator="median", errorbar=("pi", 50))
"""
    ),
    "pointplot-penguins-markers": Script(
        """
penguins = sns.load_dataset("penguins")
sns.pointplot(
    data=penguins, x="island", y="bill_length_mm", hue="species",
    errorbar="sd", markers=["o", "s", "^"], linestyles="none", dodge=.4,
)
"""
    ),
    "countplot-titanic-horizontal": Script(
        """
sns.set_palette("husl")
titanic = sns.load_dataset("titanic")
sns.countplot(data=titanic, y="embark_town", hue="alive")
"""
    ),
    "violinplot-tips-split": Script(
        """
tips = sns.load_dataset("tips")
sns.violinplot(data=tips, x="day", y="total_bill", hue="sex", split=True, inner="quart")
"""
    ),
    "violinplot-penguins-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.violinplot(data=penguins, x="species", y="body_mass_g", hue="sex", bw_adjust=.5)
"""
    ),
    "boxenplot-diamonds-clarity": Script(
        DIAMONDS
        + """
clarity_ranking = ["I1", "SI2", "SI1", "VS2", "VS1", "VVS2", "VVS1", "IF"]
sns.boxenplot(
    diamonds, x="clarity", y="carat", color="b", order=clarity_ranking, width_method="linear",
)
"""
    ),
    "stripplot-tips-hue-dodge": Script(
        """
tips = sns.load_dataset("tips")
sns.stripplot(data=tips, x="total_bill", y="day", hue="time", dodge=True, jitter=.2)
"""
    ),
    "swarmplot-penguins-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.swarmplot(data=penguins, x="body_mass_g", y="sex", hue="species")
"""
    ),
    "countplot-titanic-hue": Script(
        """
titanic = sns.load_dataset("titanic")
sns.countplot(data=titanic, x="class", hue="who")
"""
    ),
    "barplot-penguins-hue": Script(
        """
penguins = sns.load_dataset("penguins")
sns.barplot(data=penguins, x="island", y="body_mass_g", hue="sex", errorbar="sd")
"""
    ),
    "pointplot-titanic-hue": Script(
        """
titanic = sns.load_dataset("titanic")
sns.pointplot(data=titanic, x="sex", y="survived", hue="class", dodge=True)
"""
    ),
    "catplot-titanic-bar-col": Script(
        """
titanic = sns.load_dataset("titanic")
g = sns.catplot(data=titanic, x="sex", y="survived", hue="class", col="embark_town", kind="bar")
"""
    ),
    "catplot-tips-box-col": Script(
        """
tips = sns.load_dataset("tips")
g = sns.catplot(data=tips, x="day", y="total_bill", hue="smoker", col="time", kind="box")
"""
    ),
    "catplot-tips-violin-split": Script(
        """
tips = sns.load_dataset("tips")
g = sns.catplot(data=tips, x="day", y="total_bill", hue="sex", kind="violin", split=True)
"""
    ),
    "catplot-tips-strip-default": Script(
        """
tips = sns.load_dataset("tips")
g = sns.catplot(data=tips, x="day", y="total_bill")
"""
    ),
    "catplot-penguins-swarm-col": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.catplot(data=penguins, x="species", y="flipper_length_mm", col="sex", kind="swarm")
"""
    ),
    "catplot-titanic-count-col": Script(
        """
titanic = sns.load_dataset("titanic")
g = sns.catplot(data=titanic, x="deck", col="class", kind="count", col_wrap=2)
"""
    ),
    "catplot-tips-point-hue": Script(
        """
tips = sns.load_dataset("tips")
g = sns.catplot(data=tips, x="day", y="tip", hue="sex", kind="point", col="time")
"""
    ),
    "catplot-diamonds-boxen": Script(
        DIAMONDS
        + """
g = sns.catplot(data=diamonds, x="color", y="price", kind="boxen")
"""
    ),
    # -- regression ---------------------------------------------------------------------
    "regplot-mpg": Script(
        """
mpg = sns.load_dataset("mpg")
sns.regplot(data=mpg, x="weight", y="acceleration")
"""
    ),
    "regplot-mpg-order-2": Script(
        """
mpg = sns.load_dataset("mpg")
sns.regplot(data=mpg, x="horsepower", y="mpg", order=2)
"""
    ),
    "residplot-mpg-lowess": Script(
        """
mpg = sns.load_dataset("mpg")
sns.residplot(data=mpg, x="horsepower", y="mpg", lowess=True, line_kws=dict(color="r"))
"""
    ),
    "regplot-titanic-logistic": Script(
        """
titanic = sns.load_dataset("titanic")
sns.regplot(data=titanic, x="age", y="survived", logistic=True)
""",
        slow=True,
    ),
    "lmplot-mpg-col-order-2": Script(
        """
mpg = sns.load_dataset("mpg")
g = sns.lmplot(data=mpg, x="horsepower", y="mpg", col="origin", order=2, height=3)
"""
    ),
    "lmplot-tips-hue": Script(
        """
tips = sns.load_dataset("tips")
g = sns.lmplot(data=tips, x="total_bill", y="tip", hue="smoker")
"""
    ),
    "lmplot-penguins-col": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.lmplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", col="species", height=3)
"""
    ),
    # -- matrix -------------------------------------------------------------------------
    "heatmap-titanic-crosstab": Script(
        """
titanic = sns.load_dataset("titanic")
table = pd.crosstab(titanic["class"], titanic["who"])
sns.heatmap(table, annot=True, fmt="d", cmap="Blues")
""",
        refused="safeplot.crosstab",
    ),
    "heatmap-titanic-safe-crosstab": Script(
        """
titanic = sns.load_dataset("titanic")
table = sns.crosstab(titanic, index="class", columns="who")
sns.heatmap(table, annot=True, fmt=".0f", cmap="Blues")
""",
        # the annotations are the cells' released counts (6, 66, ... as counts, not as the
        # age 66 or parch 6 of one passenger): they are checked as counts with the cells
        scan={"counts_in_colour": True, "ignore": r"^\d+$"},
    ),
    "heatmap-flights-pivot": Script(
        FLIGHTS
        + """
flights_wide = flights.pivot(index="month", columns="year", values="passengers")
sns.heatmap(flights_wide, annot=True, fmt="d", linewidths=.5)
""",
        refused="safeplot.crosstab",
    ),
    "heatmap-penguins-corr": Script(
        """
penguins = sns.load_dataset("penguins")
sns.heatmap(penguins.corr(numeric_only=True), annot=True, vmin=-1, vmax=1, cmap="vlag")
""",
        refused="safeplot.corr",
    ),
    "heatmap-penguins-safe-corr": Script(
        """
penguins = sns.load_dataset("penguins")
corr = sns.corr(penguins, numeric_only=True)
sns.heatmap(corr, annot=True, vmin=-1, vmax=1, cmap="vlag")
"""
    ),
    "clustermap-iris": Script(
        """
iris = sns.load_dataset("iris")
species = iris.pop("species")
g = sns.clustermap(iris)
""",
        refused="safeplot.crosstab",
    ),
    "clustermap-diamonds-safe-crosstab": Script(
        DIAMONDS
        + """
table = sns.crosstab(diamonds, index="color", columns="clarity")
g = sns.clustermap(table, standard_scale=1, cmap="mako")
""",
    ),
    # -- multi-plot grids ---------------------------------------------------------------
    "pairplot-penguins-hue": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.pairplot(penguins, hue="species")
"""
    ),
    "pairplot-iris-kde-corner": Script(
        """
iris = sns.load_dataset("iris")
g = sns.pairplot(iris, hue="species", kind="kde", corner=True)
""",
        slow=True,
    ),
    "jointplot-penguins-scatter-hue": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.jointplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", hue="species")
"""
    ),
    "jointplot-penguins-kde": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.jointplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", kind="kde")
"""
    ),
    "jointplot-penguins-hist": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.jointplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", kind="hist")
""",
        scan={"counts_in_colour": True},  # the joint cells' colour shows their released counts
    ),
    "jointplot-penguins-kde-hue": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.jointplot(
    data=penguins, x="bill_length_mm", y="bill_depth_mm", hue="species", kind="kde",
)
"""
    ),
    "jointplot-diamonds-hex": Script(
        DIAMONDS
        + """
sns.set_theme(style="ticks")
g = sns.jointplot(data=diamonds, x="carat", y="price", kind="hex", color="#4CB391")
""",
        scan={"counts_in_colour": True},  # the hexagons' colour shows counts
    ),
    "jointplot-tips-reg": Script(
        """
tips = sns.load_dataset("tips")
g = sns.jointplot(data=tips, x="total_bill", y="tip", kind="reg")
"""
    ),
    "jointplot-mpg-resid": Script(
        """
mpg = sns.load_dataset("mpg")
g = sns.jointplot(data=mpg, x="horsepower", y="mpg", kind="resid")
"""
    ),
    "facetgrid-tips-map-histplot": Script(
        """
tips = sns.load_dataset("tips")
g = sns.FacetGrid(tips, col="time", row="sex")
g.map(sns.histplot, "total_bill")
""",
        scan={"columns": {"x": "total_bill"}},
    ),
    "facetgrid-tips-map-dataframe-scatter": Script(
        """
tips = sns.load_dataset("tips")
g = sns.FacetGrid(tips, col="sex", hue="smoker")
g.map_dataframe(sns.scatterplot, x="total_bill", y="tip")
g.add_legend()
""",
        scan={"columns": {"x": "total_bill", "y": "tip"}},
    ),
    "facetgrid-tips-map-plt-scatter": Script(
        """
tips = sns.load_dataset("tips")
g = sns.FacetGrid(tips, col="time")
g.map(plt.scatter, "total_bill", "tip")
""",
        refused="safeplot.scatterplot",
    ),
    "pairgrid-iris-map-parts": Script(
        """
iris = sns.load_dataset("iris")
g = sns.PairGrid(iris, diag_sharey=False)
g.map_upper(sns.scatterplot)
g.map_lower(sns.kdeplot)
g.map_diag(sns.histplot)
"""
    ),
    "jointgrid-penguins-plot": Script(
        """
penguins = sns.load_dataset("penguins")
g = sns.JointGrid(data=penguins, x="bill_length_mm", y="bill_depth_mm")
g.plot(sns.scatterplot, sns.histplot)
""",
        scan={"count_axis": None},  # the marginals count along different axes
    ),
    # -- themes -------------------------------------------------------------------------
    "set-theme-darkgrid-pastel-countplot": Script(
        """
sns.set_theme(style="darkgrid", palette="pastel")
tips = sns.load_dataset("tips")
sns.countplot(data=tips, x="day", hue="sex")
"""
    ),
    "set-context-talk-violin": Script(
        """
sns.set_theme(style="whitegrid")
sns.set_context("talk", font_scale=0.8)
iris = sns.load_dataset("iris")
sns.violinplot(data=iris, x="species", y="petal_length", inner="stick")
"""
    ),
    "move-legend-histplot-dodge": Script(
        """
penguins = sns.load_dataset("penguins")
ax = sns.histplot(penguins, x="bill_length_mm", hue="species", multiple="dodge", bins=15)
sns.move_legend(ax, "upper left", bbox_to_anchor=(1, 1), title="Species")
"""
    ),
    "boxplot-tips-unfilled-gap": Script(
        """
sns.set_theme(style="ticks", palette="pastel")
tips = sns.load_dataset("tips")
sns.boxplot(data=tips, x="time", y="total_bill", hue="sex", fill=False, gap=.1)
"""
    ),
    "kdeplot-tips-cumulative": Script(
        """
tips = sns.load_dataset("tips")
sns.kdeplot(data=tips, x="total_bill", hue="time", cumulative=True, common_norm=False)
"""
    ),
    "stripplot-tips-numeric-hue": Script(
        """
tips = sns.load_dataset("tips")
sns.stripplot(data=tips, x="tip", y="day", hue="size", palette="flare", jitter=False)
"""
    ),
    "facetgrid-titanic-map-dataframe-set-titles": Script(
        """
titanic = sns.load_dataset("titanic")
g = sns.FacetGrid(titanic, col="class", row="sex", margin_titles=True, height=2.5)
g.map_dataframe(sns.histplot, x="age", binwidth=10)
g.set_axis_labels("Age", "Passengers")
g.set_titles(col_template="{col_name} class", row_template="{row_name}")
""",
        scan={"columns": {"x": "age"}},
    ),
    # -- safeplot's other exported plots, called in the same style ---------------------
    "hist-matplotlib-style": Script(
        """
penguins = sns.load_dataset("penguins")
fig, ax = plt.subplots()
sns.hist(penguins["body_mass_g"].dropna(), bins=20, ax=ax)
ax.set_xlabel("body_mass_g")
"""
    ),
    "scatter-matplotlib-style": Script(
        """
iris = sns.load_dataset("iris")
fig, ax = plt.subplots()
sns.scatter(iris["sepal_length"], iris["sepal_width"], ax=ax)
ax.set(xlabel="sepal_length", ylabel="sepal_width")
"""
    ),
    "qqplot-mpg": Script(
        """
mpg = sns.load_dataset("mpg")
sns.qqplot(mpg["mpg"], line="s")
""",
        scan={"columns": {"y": "mpg"}},  # the sample quantiles
    ),
    "ppplot-tips": Script(
        """
tips = sns.load_dataset("tips")
sns.ppplot(tips["total_bill"], fit=True, line="45")
"""
    ),
    "biplot-iris": Script(
        """
iris = sns.load_dataset("iris")
sns.biplot(iris, hue="species")
""",
        # component names and their rounded share of variance are no data values
        scan={"ignore": r"PC\d+|\(\d+% of variance\)"},
    ),
    "kmplot-simulated-trial": Script(
        """
rng = np.random.default_rng(7)
trial = pd.DataFrame({
    "months": np.round(rng.exponential(20, 600), 1).clip(0.1, 60),
    "died": rng.random(600) < 0.7,
    "arm": rng.choice(["control", "treatment"], 600),
})
sns.kmplot(trial, duration="months", event="died", hue="arm")
"""
    ),
    "parallelboxplot-mpg": Script(
        """
mpg = sns.load_dataset("mpg")
sns.parallelboxplot(mpg, x="weight", y="mpg")
"""
    ),
    "correspondenceplot-titanic": Script(
        """
titanic = sns.load_dataset("titanic")
sns.correspondenceplot(titanic, x="class", y="embark_town")
""",
        # the rounded share of inertia is a statistic of the two categorical variables
        scan={"ignore": r"\(\d+% of inertia\)"},
    ),
}

#: Scripts refused for a reason outside the accepted ones: what refuses, and what would fix it.
XFAIL: dict[str, str] = {}


def _params():
    for name, script in SCRIPTS.items():
        marks = [pytest.mark.slow] if script.slow else []
        if name in XFAIL:
            marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[name]))
        yield pytest.param(script, id=name, marks=marks)


@pytest.mark.parametrize("script", list(_params()))
def test_seaborn_script(script):
    code = HEADER + script.code
    if script.refused is not None:
        with pytest.raises(DisclosureError, match=script.refused):
            run_seaborn_script(code)
        return
    namespace = run_seaborn_script(code)
    drawn = [ax for num in plt.get_fignums() for ax in plt.figure(num).axes if ax.has_data()]
    assert drawn, "the script drew nothing"
    findings = scan_script(namespace, wide=script.wide, **script.scan)
    assert not findings, str(findings)
    # no two texts of a figure overlap, and no note safeplot adds runs off the figure
    # (seaborn itself may cut a long axis label at matplotlib's default margins)
    for num in plt.get_fignums():
        fig = plt.figure(num)
        assert not overlapping_texts(fig), overlapping_texts(fig)
        assert not [b for b in clipped_texts(fig) if b.kind.startswith("safeplot")]


def test_every_exported_plot_is_scripted():
    """Each plot function and figure-level kind safeplot exports appears in a script."""
    import safeplot

    code = "\n".join(s.code for s in SCRIPTS.values())
    plots = [n for n in safeplot.__all__ if n.endswith("plot") or n in ("hist", "scatter")]
    plots += ["heatmap", "clustermap", "lmplot", "FacetGrid", "PairGrid", "JointGrid"]
    missing = [n for n in plots if f"sns.{n}(" not in code]
    assert not missing
    for figure_level, kinds in {
        "displot": ("hist", "kde", "ecdf"),
        "relplot": ("line",),
        "catplot": ("bar", "box", "violin", "swarm", "count", "point", "boxen"),
        "jointplot": ("kde", "hist", "hex", "reg", "resid"),
    }.items():
        for kind in kinds:
            assert any(
                f"sns.{figure_level}(" in c and f'kind="{kind}"' in c
                for c in (s.code for s in SCRIPTS.values())
            ), (figure_level, kind)


@pytest.mark.parametrize(
    "name", ["scatterplot-diamonds-gallery", "relplot-tips-col-hue-style-size", "boxplot-tips-hue"]
)
def test_the_scan_finds_what_seaborn_itself_draws(name):
    """The same scripts run with seaborn itself show rare values: the scan can see them."""
    namespace: dict = {}
    code = SCRIPTS[name].code.replace("sns.load_dataset", "__import__('safeplot').load_dataset")
    exec(compile(HEADER + code, "s", "exec"), namespace)
    assert scan_script(namespace, wide=SCRIPTS[name].wide, **SCRIPTS[name].scan).leaks
