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
* a Q-Q plot of residuals as a robust smooth line through the winsorised Q-Q
  points, with no individual points;
* parallel box plots and a confidential lowess trend line instead of a
  scatter plot, and a matrix of them instead of a scatter-plot matrix;
* correlations rounded, and withheld when fewer than ten records lie behind
  them (Brandt et al.);
* a summary table of the count, mean and standard deviation of the
  winsorised values, with no minimum or maximum (a record's value) and no
  quartiles unless the policy allows them;
* a correspondence-analysis plot instead of a contingency table.

All of them on the restaurant tips data, under ``method="confidential"``.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import describe, pairplot
from safeplot.demo import okeefe_figure

fig = okeefe_figure()

# %%
# What was left out, and why
# --------------------------
#
# Each Axes carries its report. The box plot's says how many values were
# winsorised (and would name a box left out for a zero-length half); the
# correspondence plot's, how many party sizes were merged into "Other"
# (never which).

print(fig.axes[0].safeplot_report)
print(fig.axes[5].safeplot_report)

# %%
# The trend-line matrix
# ---------------------
#
# :func:`safeplot.pairplot` with ``method="confidential"`` is O'Keefe's
# replacement for a scatter-plot matrix: parallel box plots above the
# diagonal, confidential lowess trend lines below it, histograms of the
# winsorised values (small bins suppressed) on the diagonal.

tips = safeplot.load_dataset("tips")
grid = pairplot(tips, vars=["total_bill", "tip", "size"], method="confidential", height=2.4)

# %%
# A confidentialised summary table
# --------------------------------
#
# :func:`~safeplot.summaries.describe` mirrors ``DataFrame.describe``: the
# count rounded to a multiple of five, and the mean and SD of the winsorised
# values, rounded; ``*`` marks the statistics that winsorising changed, ``—``
# a suppressed one. No minimum or maximum is given: each is a record's value.
# O'Keefe withholds the median and quartiles too; a custodian may allow them
# (``release_quartiles``), and they are then winsorised and rounded.

print(describe(tips))
with safeplot.policy(release_quartiles=True):
    print(describe(tips))
plt.show()
