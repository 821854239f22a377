"""
Scatter plots: ``scatterplot`` under every method
=================================================

:func:`safeplot.scatterplot` is :func:`seaborn.scatterplot`
with a ``method=`` argument. A scatter plot draws every record, so nothing
raw is drawn: the records are released first and seaborn draws only the
released numbers, so ``hue``, ``size``, ``style``, palettes and legends
behave as in seaborn.

Here the flipper length and body mass of the Palmer penguins, by species.
Suppression keeps only the cells of a grid holding at least three birds of a
species, one marker per cell sized by its count; the grid is the heat map's,
chosen by the number of birds (11 x 11 for the penguins; the paper's 30 x 30
from about 2,700 records on, or with ``bins=30``). Generalisation does the
same on a grid half as fine, so fewer cells are lost. Deterministic
anonymisation replaces each bird by the centroid of its three nearest
neighbours *of the same species*; probabilistic anonymisation adds keyed
noise with a quarter of each variable's standard deviation. The confidential
method (O'Keefe) replaces the points by box plots of body mass over
intervals of flipper length, one set per species, with a lowess trend.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import scatterplot

penguins = safeplot.load_dataset("penguins")
methods = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]

fig, axes = plt.subplots(1, 5, figsize=(18, 5), layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    scatterplot(
        data=penguins,
        x="flipper_length_mm",
        y="body_mass_g",
        hue="species",
        method=method,
        legend=method == "deterministic",
        ax=ax,
    )
    ax.set_title(method)

# %%
# Each Axes carries the report of its release: the method, its parameters,
# the number of records (rounded), the cells suppressed and, for the
# deterministic method, how many records share their centroid with others.

print(axes[0].safeplot_report)
print(axes[2].safeplot_report)

# %%
# O'Keefe's parallel box plots
# ----------------------------
#
# Under ``method="confidential"`` x is cut into equal intervals on a rounded
# grid, each holding at least ``threshold`` records; y in each interval is
# summarised by a winsorised, rounded box plot without outliers, and
# adjacent intervals are merged while a box has a zero-length half (a merged
# box keeps the width of one interval and the figure says so). The trend is
# a lowess fit whose end points are winsorised and rounded.

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
scatterplot(data=penguins, x="bill_length_mm", y="bill_depth_mm", method="confidential", ax=ax)

# %%
# Numeric hue and size, and shared centroids
# ------------------------------------------
#
# A numeric ``hue`` or ``size`` is released together with x and y: here bill
# length and depth are the third and fourth variables of the neighbour
# search, so the colours and sizes are centroids too. With
# ``mark_coincident=True`` the points whose centroid is shared with other
# birds are drawn black, as in Avraam et al. (2021).

fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
scatterplot(
    data=penguins,
    x="flipper_length_mm",
    y="body_mass_g",
    hue="bill_length_mm",
    size="bill_depth_mm",
    mark_coincident=True,
    ax=ax,
)
plt.show()
