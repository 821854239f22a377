"""
Differential privacy for every release of counts
================================================

``method="dp"`` is not only for histograms and count plots: every plot
whose release is a set of counts takes it, with ``epsilon=``.

* :func:`safeplot.histplot` with ``x`` and ``y`` and :func:`safeplot.heatmap`
  with ``x`` and ``y``: every cell of a grid fixed before the data is read
  (``binrange``, one pair for both axes or one per axis) gets OpenDP's
  discrete Laplace noise; the Axes says how far any cell may be off.
* :func:`safeplot.crosstab`: the cells of the table of the labels the call
  names (``row_order``, ``col_order``), one record per cell, so the noise
  scale is ``1/epsilon`` whatever the table's size.
* :func:`safeplot.ecdfplot`: the cumulative sum of DP counts on a fixed grid,
  made monotone and kept within [0, 1]; the band is the 95% interval of each
  cumulative count (the noise of all the counts summed so far).
* :func:`safeplot.kdeplot`: the DP counts smoothed with the kernel, with the
  band the counts' noise gives the curve.

Everything drawn after the noisy counts (the colour scale, the cumulative
curve, the smoothing, the bands) is post-processing: it spends nothing more.
Each panel below spends its epsilon from the policy's ``dp_budget``; the
figure spends 0.5 + 0.5 + 1 + 1 = 3, the default budget.
"""

import matplotlib.pyplot as plt

import safeplot

penguins = safeplot.load_dataset("penguins")

fig, axes = plt.subplots(2, 2, figsize=(10, 8), layout="constrained")
safeplot.histplot(
    data=penguins,
    x="flipper_length_mm",
    y="body_mass_g",
    bins=15,
    binrange=((170, 235), (2500, 6500)),
    method="dp",
    epsilon=0.5,
    cbar=True,
    ax=axes[0, 0],
)
axes[0, 0].set_title("histplot(x, y), epsilon=0.5")

table = safeplot.crosstab(
    penguins,
    "species",
    "island",
    method="dp",
    epsilon=0.5,
    row_order=["Adelie", "Chinstrap", "Gentoo"],
    col_order=["Biscoe", "Dream", "Torgersen"],
)
safeplot.heatmap(table, annot=True, fmt=".0f", ax=axes[0, 1])
axes[0, 1].set_title("crosstab, epsilon=0.5")

safeplot.ecdfplot(
    data=penguins,
    x="flipper_length_mm",
    hue="species",
    hue_order=["Adelie", "Chinstrap", "Gentoo"],  # levels are public, named by the call
    binrange=(170, 235),
    bins=26,
    method="dp",
    epsilon=1.0,
    ax=axes[1, 0],
)
axes[1, 0].set_title("ecdfplot, epsilon=1")

safeplot.kdeplot(
    data=penguins,
    x="flipper_length_mm",
    hue="species",
    hue_order=["Adelie", "Chinstrap", "Gentoo"],  # levels are public, named by the call
    binrange=(170, 235),
    bins=26,
    method="dp",
    epsilon=1.0,
    ax=axes[1, 1],
)
axes[1, 1].set_title("kdeplot, epsilon=1")

# %%
# What was spent, and how accurate each release is
# ------------------------------------------------
#
# The reports state the accuracy of each count ("+/- N at 95%") and the
# budget left after the release; the audit log holds one entry per release
# with its epsilon.

for ax in axes.flat:
    report = ax.safeplot_report
    print(f"{report.function:10s} epsilon={report.params['epsilon']:g}  {report.warnings[0]}")
print(safeplot.audit.budget_spent())
