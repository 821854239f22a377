"""
Pair and joint plots: ``pairplot`` and ``jointplot`` under disclosure control
=============================================================================

:func:`safeplot.pairplot` and :func:`safeplot.jointplot` are seaborn's
figure-level functions with a ``method=`` argument. They release the data
once and build the seaborn grid on the released numbers only.

Here the simulated data set D1 of Avraam et al. (x and y, bivariate normal)
with a third variable ``z`` derived from them plus noise, and a two-level
group. Under deterministic anonymisation every off-diagonal panel is a
projection of *one* anonymised data set (the kNN centroids of the three
variables together, searched within each group), and the diagonal shows the
density of the same released values.
"""

import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns

from safeplot import jointplot, pairplot
from safeplot.datasets import simulate

df = simulate("D1", n=500, seed=3)
rng = np.random.default_rng(3)
df["z"] = np.round(0.6 * df["x"] - 0.3 * df["y"] + rng.normal(0, 0.8, len(df)), 3)
df["group"] = rng.choice(["a", "b"], len(df))

g = pairplot(df, vars=["x", "y", "z"], hue="group", method="deterministic", height=2)
print(g.safeplot_report)

# %%
# O'Keefe's confidential scatter-plot matrix
# ------------------------------------------
#
# Under ``method="confidential"`` no point is drawn: the upper triangle shows
# parallel box plots of the row variable over intervals of the column
# variable (each interval with at least ``threshold`` records, winsorised and
# rounded five-number summaries, no outliers), the lower triangle lowess trend
# lines whose end points are winsorised and rounded, and the diagonal
# confidential histograms. The note ends in ``***`` when values were
# winsorised.

g = pairplot(df, vars=["x", "y", "z"], method="confidential", height=2)

# %%
# Suppression: the surviving cells of each pair's density grid
# -------------------------------------------------------------
#
# Each pair is counted in a grid on safe edges, one size for every panel
# chosen by the number of records (as the heat map's), and only cells with
# at least three records are drawn, one marker per cell sized by its count.
# ``"generalize"`` (a grid half as fine) keeps more of the records.

g = pairplot(df, vars=["x", "y", "z"], method="generalize", height=2)

# %%
# Joint plots: marginals that match the joint panel
# -------------------------------------------------
#
# With a value method the marginal histograms bin the same released points as
# the joint panel. With suppression or generalisation the marginals are the
# row and column sums of the surviving cells of the joint grid, so a record
# hidden in the joint panel does not reappear in a margin.

for method in ("deterministic", "generalize", "confidential"):
    g = jointplot(data=df, x="x", y="y", method=method, height=4.5)
    g.figure.suptitle(method, y=1.0)
    print(method, g.ax_marg_x.safeplot_report.method)

plt.show()

# %%
# Residuals: ``kind="resid"``
# ---------------------------
#
# seaborn's residual joint plot draws the residuals of a linear fit against
# x, with histograms of x and of the residuals in the margins. safeplot fits
# as :func:`safeplot.residplot` does and releases the (x, residual) pairs
# with the residual plot's default method (``"deterministic"``); the
# margins bin the released pairs, so no raw residual reaches the figure.

raw = sns.jointplot(data=df, x="x", y="y", kind="resid", height=4.5)
raw.figure.suptitle("seaborn (raw)", y=1.0)
g = jointplot(data=df, x="x", y="y", kind="resid", height=4.5)
g.figure.suptitle("safeplot (deterministic)", y=1.0)
plt.show()

# %%
# Regression panels: ``pairplot(kind="reg")``
# -------------------------------------------
#
# seaborn's ``kind="reg"`` draws regplot in every off-diagonal panel: per
# group, a least-squares line over the group's points and its bootstrap
# confidence band. safeplot draws the released points, the line of rounded
# coefficients over each group's released x range and regplot's released
# band; ``plot_kws`` takes regplot's keywords (``ci``, ``n_boot``, ``seed``,
# ``truncate``, ``line_kws``).

raw = sns.pairplot(df, vars=["x", "y"], hue="group", kind="reg", height=2.5)
raw.figure.suptitle("seaborn (raw)", y=1.02)
g = pairplot(df, vars=["x", "y"], hue="group", kind="reg", height=2.5, plot_kws={"seed": 0})
g.figure.suptitle("safeplot (deterministic)", y=1.02)
plt.show()
