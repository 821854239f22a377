"""
A seaborn script with one line changed
======================================

This is an ordinary seaborn exploratory script of the penguins data. The
only change is its first line: ``import safeplot as sns`` instead of
``import seaborn as sns``. Every plot is released under the policy's default
method (small cells suppressed for histograms, ECDFs and bar plots; kNN
centroids for scatter and box plots), each Axes carries its report, and the
seaborn helpers (theme, palette, despine) are seaborn's own.
"""

# %%
# The script
# ----------
# Themes and palettes pass through; ``load_dataset`` reads the bundled copy.

import matplotlib.pyplot as plt

import safeplot as sns  # was: import seaborn as sns

sns.set_theme(style="ticks")
penguins = sns.load_dataset("penguins")

fig, axes = plt.subplots(2, 3, figsize=(13, 7), layout="constrained")
sns.histplot(data=penguins, x="flipper_length_mm", hue="species", ax=axes[0, 0])
sns.scatterplot(
    data=penguins, x="flipper_length_mm", y="body_mass_g", hue="species", ax=axes[0, 1]
)
sns.boxplot(data=penguins, x="species", y="body_mass_g", ax=axes[0, 2])
sns.barplot(data=penguins, x="island", y="body_mass_g", hue="sex", ax=axes[1, 0])
sns.ecdfplot(data=penguins, x="bill_length_mm", hue="species", ax=axes[1, 1])
sns.kdeplot(data=penguins, x="bill_depth_mm", hue="species", ax=axes[1, 2])
sns.despine(fig)

# %%
# What was released
# -----------------
# Each Axes says which method made it.

for ax in axes.flat:
    report = ax.safeplot_report
    print(f"{report.function:12s} {report.method}")

# %%
# Functions with no safe version
# ------------------------------
# A strip plot would draw every penguin at its raw value. It is refused, and
# the message names what to use instead.

try:
    sns.stripplot(data=penguins, x="species", y="body_mass_g")
except sns.UnsafePlotError as error:
    print(error)

# %%
# Facet grids
# -----------
# ``FacetGrid`` is seaborn's, restricted to safeplot's functions: each facet
# is released on its own.

grid = sns.FacetGrid(penguins, col="species", height=2.6)
grid.map(sns.histplot, "flipper_length_mm")
plt.show()
