"""
Parallel box plots: O'Keefe's confidential scatter plot
=======================================================

A scatter plot draws every record. O'Keefe (2013) replaces it, in the output
of a remote analysis system, by *parallel box plots*: the x variable is cut
into equal-width intervals that each hold at least ``threshold`` records, and
a confidentialised box plot of y is drawn for each interval — winsorised at
the mean plus or minus 2.6 standard deviations, its five numbers rounded to
three significant figures, no outliers. Adjacent intervals are merged while a
box has a zero-length half (its median equal to a quartile, which says that
many records share one value); a merged box keeps the width of one interval
and is drawn over the interval holding most of its records, the other being
left empty, and a note under the axis says so.

:func:`~safeplot.plots.confidential.parallelboxplot` draws them; with
``trend=True`` it adds O'Keefe's confidential lowess trend line, whose end
points are rounded and kept inside the winsorised range so they reveal no
record. Here the penguins' bill length against body mass, alone and by
species; on the right the raw scatter plot for comparison (drawn under the
demonstration policy, which allows raw output; a custodian's policy would
refuse it).
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import parallelboxplot
from safeplot.demo import demo_policy

penguins = safeplot.load_dataset("penguins")

fig, axes = plt.subplots(1, 3, figsize=(17, 5.5), layout="constrained")
parallelboxplot(data=penguins, x="body_mass_g", y="bill_length_mm", trend=True, ax=axes[0])
axes[0].set_title("parallel box plots and trend")
parallelboxplot(
    data=penguins,
    x="body_mass_g",
    y="bill_length_mm",
    hue="species",
    n_intervals=5,
    ax=axes[1],
)
axes[1].set_title("by species (boxes dodged within each interval)")
with safeplot.policy(demo_policy()):
    safeplot.scatterplot(
        data=penguins, x="body_mass_g", y="bill_length_mm", method="none", ax=axes[2]
    )
axes[2].set_title("raw scatter plot (comparison only)")

# %%
# Merging on hand-made data
# -------------------------
#
# Five intervals of width 20 hold 20, 15, 20, 25 and 20 records; in the third,
# twelve records share the value 5, so its median equals a quartile. It is
# merged with its smaller neighbour (the second interval); the merged box is
# drawn over the third interval, which holds more of its records, and the
# second is left empty rather than drawn as one double-width box.

import numpy as np

rng = np.random.default_rng(5)
parts = [(0.5, 19.5, 20), (20.5, 39.5, 15), (40.5, 59.5, 20), (60.5, 79.5, 25), (80.5, 99.5, 20)]
x = np.concatenate([rng.uniform(lo, hi, n) for lo, hi, n in parts])
y = rng.normal(5, 2, 100).round(6)
y[35:47] = 5.0
fig, ax = plt.subplots(figsize=(6.5, 4.5), layout="constrained")
ax = parallelboxplot(x=x, y=y, n_intervals=5, ax=ax)
print(ax.safeplot_report)

# %%
# A box plot with a continuous x
# ------------------------------
#
# Under ``method="confidential"``, :func:`safeplot.boxplot` treats a numeric
# category variable with more than 20 distinct values as continuous and draws
# these parallel box plots instead of one box per value (seaborn's reading,
# which would show a box for almost every record).

fig, ax = plt.subplots(figsize=(6.5, 4.5), layout="constrained")
safeplot.boxplot(penguins, x="flipper_length_mm", y="body_mass_g", method="confidential", ax=ax)
print(ax.safeplot_report.function)
