"""
Tables as figures: ``crosstab``, ``corr``, ``clustermap`` and ``describe``
==========================================================================

A heat map or clustered heat map of a table shows every cell, so safeplot
draws only tables it released itself:

* :func:`safeplot.crosstab` counts records like :func:`pandas.crosstab`,
  suppresses the cells below the threshold and, by *secondary suppression*,
  the cells that would give them back through the row and column totals;
* :func:`safeplot.corr` rounds correlations to the policy's significant
  figures and withholds those resting on fewer than ten records;
* :func:`safeplot.describe` is a confidentialised ``DataFrame.describe``.

:func:`safeplot.clustermap` (seaborn's call) and :func:`safeplot.heatmap`
accept such a table and refuse a matrix made by hand: it could hold raw
values. The clustering is computed from the released numbers only.
"""

import matplotlib.pyplot as plt
import numpy as np

import safeplot
from safeplot import clustermap, corr, crosstab, describe, heatmap

mpg = safeplot.load_dataset("mpg")

# %%
# A table of counts with small cells suppressed
# ---------------------------------------------
# Restaurant parties by day and size. Parties of one, five and six are rare:
# their cells are blank, and so are further cells in their rows and columns
# (secondary suppression), or the totals of a plot without them would give
# them back. Thursday keeps only its parties of two.

tips = safeplot.load_dataset("tips")
table = crosstab(tips, "day", "size")
print(table)
fig, ax = plt.subplots(figsize=(5, 3), layout="constrained")
heatmap(table, annot=True, fmt=".0f", cmap="Blues", ax=ax)

# %%
# Clustered correlations
# ----------------------
# The rounded correlation matrix of the numeric columns of the cars data,
# clustered. Under
# the default policy every correlation rests on hundreds of cars, so none is
# withheld; the clustering uses the rounded values.

correlations = corr(mpg, numeric_only=True)
g = clustermap(correlations, annot=True, fmt=".2f", cmap="vlag", vmin=-1, vmax=1, figsize=(6, 6))
print(g.ax_heatmap.safeplot_report.method)

# %%
# A matrix made by hand is refused
# --------------------------------

try:
    clustermap(np.random.default_rng(0).normal(size=(4, 4)))
except safeplot.DisclosureError as err:
    print(err)

# %%
# A confidentialised summary table
# --------------------------------
# Counts rounded to a multiple of five; means, SDs and quartiles rounded;
# the minimum and maximum are the winsorised extremes (``*``), never a car's
# value.

print(describe(mpg))
plt.show()
