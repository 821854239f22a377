"""
Bar plots and ECDFs: ``barplot`` and ``ecdfplot``
=================================================

:func:`safeplot.barplot` and :func:`safeplot.ecdfplot` are seaborn's calls
with a ``method=`` argument. A bar plot of means looks harmless, but a group
of one record shows that record's value, and a ``max`` bar is always one
record; an ECDF is a staircase whose every step is a record's value.

Here the Palmer penguins.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import barplot, ecdfplot

penguins = safeplot.load_dataset("penguins")

# %%
# Mean body mass by species and sex
# ---------------------------------
# Under every method a group (species x sex) with fewer than three birds is
# not drawn, and every bar and error-bar end is rounded to three significant
# figures. ``suppress`` computes the means and bootstrap intervals from the
# raw values of the groups shown; ``confidential`` from values winsorised at
# 2.6 SD; ``deterministic`` from kNN centroids of three birds within each
# group; ``probabilistic`` from keyed noisy values. The bars barely differ:
# means are robust, which is why the risk lies in small groups, not in the
# method.

methods = ["suppress", "confidential", "deterministic", "probabilistic"]
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    barplot(penguins, x="species", y="body_mass_g", hue="sex", method=method, seed=0, ax=ax)
    ax.set_title(method)
    print(f"{method:14s}", ax.safeplot_report.params)

# %%
# The ECDF of flipper length by species
# -------------------------------------
# A raw ECDF steps up at every record's value, so it starts at the minimum
# and ends at the maximum. ``suppress`` (the default) draws the cumulative
# counts of the released histogram (rounded edges, small bins suppressed):
# steps on a grid, never at a record. ``deterministic`` and
# ``probabilistic`` draw the ECDF of kNN centroids or noisy values; the
# confidential one is a step function through at most 40 rounded quantiles
# of the winsorised values, each step covering at least three birds.

methods = ["suppress", "deterministic", "probabilistic", "confidential"]
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    ecdfplot(penguins, x="flipper_length_mm", hue="species", method=method, ax=ax)
    ax.set_title(method)
plt.show()
