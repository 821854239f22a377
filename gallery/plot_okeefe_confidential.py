"""
O'Keefe's confidentialised outputs on the tips data
===================================================

O'Keefe (2013) lists, for each exploratory output of a remote analysis
system, a version that shows the analyst what they need and no individual:

* a box plot from winsorised, rounded five-number summaries, no outliers,
  marked ``***`` where values were winsorised; a box with a zero-length half
  (median equal to a quartile) is left out, as categories have no neighbour
  to merge it with;
* a density estimate of the winsorised values on a rounded range;
* parallel box plots and a confidential lowess trend line instead of a
  scatter plot;
* correlations rounded, and withheld when fewer than ten records lie behind
  them (Brandt et al.);
* a summary table whose minimum and maximum are winsorised extremes, never
  a record's value;
* a correspondence-analysis plot instead of a contingency table.

All of them on the restaurant tips data.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import corr, correspondenceplot, describe, heatmap, parallelboxplot

tips = safeplot.load_dataset("tips")

fig, axes = plt.subplots(2, 3, figsize=(17, 10), layout="constrained")
safeplot.boxplot(tips, x="day", y="tip", method="confidential", ax=axes[0, 0])
axes[0, 0].set_title("box plot")
safeplot.kdeplot(data=tips, x="total_bill", method="confidential", ax=axes[0, 1])
axes[0, 1].set_title("density")
parallelboxplot(data=tips, x="total_bill", y="tip", trend=True, ax=axes[0, 2])
axes[0, 2].set_title("parallel box plots and trend")
heatmap(corr(tips, numeric_only=True), annot=True, vmin=-1, vmax=1, cmap="vlag", ax=axes[1, 0])
axes[1, 0].set_title("correlations")
correspondenceplot(tips, x="day", y="size", threshold=5, ax=axes[1, 1])
axes[1, 1].set_title("correspondence analysis: day by party size")
correspondenceplot(tips, vars=["day", "time", "sex", "smoker"], ax=axes[1, 2])
axes[1, 2].set_title("multiple correspondence analysis")

# %%
# What was left out, and why
# --------------------------
#
# Each Axes carries its report. The box plot's says how many values were
# winsorised (and would name a box left out for a zero-length half); the
# correspondence plot's, how many party sizes were merged into "Other"
# (never which).

print(axes[0, 0].safeplot_report)
print(axes[1, 1].safeplot_report)

# %%
# A confidentialised summary table
# --------------------------------
#
# :func:`~safeplot.summaries.describe` mirrors ``DataFrame.describe``: the
# count rounded to a multiple of five, the mean, SD, quartiles, minimum and
# maximum of the winsorised values, rounded; ``*`` marks the statistics that
# winsorising changed, ``—`` a suppressed one.

print(describe(tips))
