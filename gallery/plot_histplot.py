"""
Histograms: ``histplot`` under every method
===========================================

:func:`safeplot.histplot` is :func:`seaborn.histplot` with a ``method=``
argument. The data are released first and seaborn draws only the released
bins, so ``hue``, ``multiple``, ``stat``, ``element`` and ``kde`` behave as
they do in seaborn.

Here the flipper lengths of the Palmer penguins, by species, under the five
disclosure-control methods. Suppression removes the bins of each species
holding fewer than three birds (the gaps); generalisation doubles the bin
width first, so fewer bins need removing; the deterministic, probabilistic
and confidential methods bin anonymised, noisy or winsorised values, and
small bins are suppressed after them too, so no bar ever counts one or two
birds.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot

penguins = safeplot.load_dataset("penguins")
methods = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]

fig, axes = plt.subplots(1, 5, figsize=(17, 3.4), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    safeplot.histplot(
        data=penguins,
        x="flipper_length_mm",
        hue="species",
        multiple="stack",
        method=method,
        legend=method == "suppress",
        ax=ax,
    )
    ax.set_title(method)

# %%
# Each Axes carries the report of its release: the method, its parameters,
# the number of records (rounded) and how many bins were suppressed.

print(axes[0].safeplot_report)

# %%
# Density and the kernel density estimate
# ---------------------------------------
#
# ``stat="density"`` and ``kde=True`` work on the released bins: the density
# is computed from the shown counts and the kernel density estimate is
# smoothed from the bin centres, weighted by those counts, so it too shows
# only released numbers.

fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
safeplot.histplot(
    data=penguins, x="body_mass_g", hue="sex", stat="density", kde=True, element="step", ax=ax
)

# %%
# Two variables
# -------------
#
# Given both ``x`` and ``y``, ``histplot`` draws the suppressed density grid of
# Avraam et al., its cells chosen by the number of records as the heat map's
# (at most the paper's 30 x 30; coarser under ``"generalize"``), with the
# cells of one or two records left blank.

fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
for ax, method in zip(axes, ["suppress", "generalize"], strict=True):
    safeplot.histplot(
        data=penguins, x="flipper_length_mm", y="body_mass_g", method=method, cbar=True, ax=ax
    )
    ax.set_title(method)

# %%
# The matplotlib-style call
# -------------------------
#
# :func:`safeplot.hist` mirrors :meth:`matplotlib.axes.Axes.hist` and returns
# ``(n, bins, patches)``; suppressed bins are NaN in ``n``.

fig, ax = plt.subplots(figsize=(6, 3.2), layout="constrained")
n, bins, patches = safeplot.hist(penguins["bill_depth_mm"], bins=20, ax=ax)
print(n)

# %%
# Bins on a log scale
# -------------------
#
# With ``log_scale=True`` seaborn places the bins evenly in ``log10`` of the
# values; so does safeplot, between the logarithms of the released bin range,
# suppressing small bins as on a linear axis. Left, seaborn draws the highest
# income's bin (one person); right, safeplot does not. Zero or negative
# values have no logarithm and are refused.

rng = np.random.default_rng(4)
incomes = pd.DataFrame({"income": np.round(rng.lognormal(10, 1, 600), 2)})
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")
sns.histplot(incomes, x="income", log_scale=True, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.histplot(incomes, x="income", log_scale=True, ax=safe)
safe.set_title("safeplot (suppress)")
plt.show()

# %%
# A categorical variable: one bar per level
# -----------------------------------------
#
# seaborn counts a categorical x as discrete bars. safeplot releases the
# counts as :func:`safeplot.countplot` does (a count below the threshold is
# suppressed, and a level with nothing left is not named) and draws them
# with histplot's ``multiple=`` layouts. Left seaborn, right safeplot.

tips = safeplot.load_dataset("tips")
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")
sns.histplot(tips, x="day", hue="sex", multiple="dodge", shrink=0.8, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.histplot(tips, x="day", hue="sex", multiple="dodge", shrink=0.8, ax=safe)
safe.set_title("safeplot (suppress)")
plt.show()
