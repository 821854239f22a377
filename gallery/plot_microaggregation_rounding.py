"""
Microaggregation and rounding
=============================

Senavirathne & Torra (2019) compare two further ways of releasing individual
values, one variable at a time. *Microaggregation* replaces each value by the
mean of a group of at least ``k`` similar values: MDAV forms groups of exactly
``k``, V-MDAV lets them grow to ``2k - 1`` where the data are dense, and the
optimal univariate partition (Hansen & Mukherjee) finds the grouping with the
least loss of information. *Rounding* replaces each value by one of ``c`` representative
values, the means of intervals found by equal-width, equal-frequency,
k-means or resampling-based discretisation.

Both are ``method=`` values of every plot of continuous values. Here the
body mass of the Palmer penguins, first as histograms, then against flipper
length.
"""

import matplotlib.pyplot as plt

import safeplot

penguins = safeplot.load_dataset("penguins")

settings = [
    ("microaggregation", {"k": 5, "algorithm": "mdav"}),
    ("microaggregation", {"k": 5, "algorithm": "vmdav"}),
    ("microaggregation", {"k": 5, "algorithm": "optimal"}),
    ("rounding", {"c": 12, "discretizer": "ewd"}),
    ("rounding", {"c": 12, "discretizer": "efd"}),
    ("rounding", {"c": 12, "discretizer": "kmeans"}),
]
fig, axes = plt.subplots(2, 3, figsize=(13, 6.5), sharey=True, layout="constrained")
for ax, (method, params) in zip(axes.flat, settings, strict=True):
    safeplot.histplot(data=penguins, x="body_mass_g", bins=25, method=method, ax=ax, **params)
    ax.set_title(f"{method} ({', '.join(f'{k}={v}' for k, v in params.items())})", fontsize=9)

# %%
# The optimal partition loses least: its within-group sum of squares is never
# above MDAV's. The release reports the parameters and the number of groups.

print(axes[0, 2].safeplot_report)

# %%
# Two variables
# -------------
#
# MDAV, as the paper applies it, groups each variable on its own: every
# coordinate is the mean of ``k`` birds, but a bird's two coordinates come
# from different groups, so the points stay close to the birds'. With
# ``algorithm="mdav_multivariate"`` MDAV groups whole records, and each point
# is the mean of at least ``k`` birds close in both flipper length and body
# mass. Rounding rounds each variable to its own representatives, which puts
# the points on a lattice.

fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), layout="constrained")
for ax, (method, params) in zip(
    axes,
    [
        ("microaggregation", {"k": 3, "algorithm": "mdav"}),
        ("microaggregation", {"k": 3, "algorithm": "mdav_multivariate"}),
        ("rounding", {"c": 15, "discretizer": "kmeans"}),
    ],
    strict=True,
):
    safeplot.scatterplot(
        data=penguins,
        x="flipper_length_mm",
        y="body_mass_g",
        hue="species",
        method=method,
        legend=ax is axes[0],
        ax=ax,
        **params,
    )
    ax.set_title(f"{method} {params}", fontsize=9)
plt.show()
