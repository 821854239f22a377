"""
Kernel density plots: ``kdeplot`` under every method
====================================================

:func:`safeplot.kdeplot` is :func:`seaborn.kdeplot` with a
``method=`` argument. The density is estimated from a release of the data,
never from the raw values: the deterministic and probabilistic methods hand
seaborn kNN centroids or noisy values; O'Keefe's confidential method
winsorises the data and evaluates the density over a range rounded outward;
suppression and generalisation estimate the density from the bins of the
suppressed histogram that are shown, each counted as often as it holds
records. Seaborn's ``hue``, ``fill``, ``multiple`` and ``bw_adjust`` work as
usual.

Here the flipper lengths of the Palmer penguins, by species.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import kdeplot

penguins = safeplot.load_dataset("penguins")
methods = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]

fig, axes = plt.subplots(1, 5, figsize=(17, 3.4), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    kdeplot(
        data=penguins,
        x="flipper_length_mm",
        hue="species",
        fill=True,
        method=method,
        legend=method == "suppress",
        ax=ax,
    )
    ax.set_title(method)

# %%
# Each Axes carries the report of its release: the method, its parameters,
# the number of records (rounded) and, for the binned methods, how many bins
# were suppressed.

print(axes[0].safeplot_report)

# %%
# Two variables: contours
# -----------------------
#
# With ``x`` and ``y``, ``"suppress"`` draws the contours on the heat map's
# density grid (chosen by the number of birds: 11 x 11 here) with every cell
# of fewer than three birds removed (``"generalize"`` coarsens it first).
# This is all the grid can show: the outline of each species, not its shape
# within. The point methods keep the shape, which is why the default for two variables,
# as for one, is ``"deterministic"`` (the kNN centroids).
# ``levels`` and ``thresh`` are iso-proportions of the mass, as in seaborn.

fig, axes = plt.subplots(1, 4, figsize=(15, 3.6), layout="constrained")
for ax, method in zip(
    axes, ["suppress", "generalize", "deterministic", "confidential"], strict=True
):
    kdeplot(
        data=penguins,
        x="bill_length_mm",
        y="bill_depth_mm",
        hue="species",
        fill=method != "deterministic",
        method=method,
        legend=method == "suppress",
        ax=ax,
    )
    ax.set_title(method)

# %%
# Smoothing and cumulative curves
# -------------------------------
#
# The bandwidth options act on the released values, and ``cumulative=True``
# draws the distribution function of the release.

fig, axes = plt.subplots(1, 2, figsize=(10, 3.4), layout="constrained")
tips = safeplot.load_dataset("tips")
for adjust in (0.5, 1, 2):
    kdeplot(data=tips, x="total_bill", bw_adjust=adjust, label=f"bw_adjust={adjust}", ax=axes[0])
axes[0].legend()
kdeplot(data=tips, x="total_bill", hue="time", cumulative=True, common_norm=False, ax=axes[1])
plt.show()
