"""
pandas plotting backend: ``df.plot`` with disclosure control
=============================================================

With ``pd.options.plotting.backend = "safeplot"`` the plots pandas draws
from a DataFrame go through safeplot: the data are released under a
disclosure-control method first and only the release is drawn. The method is
a keyword of the usual pandas call (``df.plot.hist(method="generalize")``);
without it the policy's default applies ("suppress" for histograms, hexagon
bins and bars of counts, "deterministic" for density curves, box plots and
scatter plots).

Here the ``penguins`` data, drawn with the calls an analyst would type
anyway.
"""

import matplotlib.pyplot as plt
import pandas as pd

import safeplot

penguins = safeplot.load_dataset("penguins")
pd.options.plotting.backend = "safeplot"

# %%
# Distributions: hist, kde and box
# --------------------------------
# ``df.plot.hist`` draws safeplot's histogram: bin edges on a rounded grid
# beyond the data and bins with fewer than three records removed. The density
# curve is estimated from the kNN centroids (Avraam et al.), the box plots
# from the confidential five-number summaries (O'Keefe).

fig, axes = plt.subplots(1, 3, figsize=(13, 4), layout="constrained")
penguins[["bill_length_mm", "bill_depth_mm"]].plot.hist(bins=20, ax=axes[0])
penguins["flipper_length_mm"].plot.kde(ax=axes[1])
penguins.plot.box(column=["body_mass_g"], by="species", method="confidential", ax=axes[2:])
print(axes[0].safeplot_report.method, axes[1].safeplot_report.method)

# %%
# Two variables: scatter and hexbin
# ---------------------------------
# A scatter plot shows kNN centroids by default; colouring by a numeric
# column releases that column with the points. ``hexbin`` counts records per
# hexagon and draws only hexagons holding at least three.

fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained")
penguins.plot.scatter(x="bill_length_mm", y="body_mass_g", c="flipper_length_mm", ax=axes[0])
penguins.plot.hexbin(x="bill_length_mm", y="body_mass_g", gridsize=15, ax=axes[1])
print(axes[1].safeplot_report.cells_suppressed > 0)

# %%
# Bars of counts
# --------------
# The backend treats bar data as counts of records: counts below the threshold
# are suppressed and their categories left off the axis. A table released by
# :func:`safeplot.crosstab` is drawn as released.

fig, axes = plt.subplots(1, 2, figsize=(12, 4), layout="constrained")
penguins["island"].value_counts().plot.bar(ax=axes[0], rot=0)
safeplot.crosstab(penguins, "island", "species").plot.bar(ax=axes[1], rot=0)

# %%
# Kinds that would draw every record
# ----------------------------------
# A line, area or pie plot of raw values cannot be released; the backend
# says what to use instead.

try:
    penguins["body_mass_g"].plot.line()
except safeplot.UnsafePlotError as err:
    print(err)

pd.options.plotting.backend = "matplotlib"
