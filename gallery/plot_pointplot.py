"""
Point plots of group estimates: ``pointplot``
=============================================

:func:`safeplot.pointplot` is :func:`seaborn.pointplot` with a ``method=``
argument. A point plot shows what a bar plot shows -- the mean of each group
and an error bar -- as points joined by lines, so safeplot releases exactly
what :func:`safeplot.barplot` releases: groups of at least ``threshold``
records, each estimate and error-bar end rounded to three significant
figures and moved off values fewer than ``threshold`` records hold. A group
too small is not drawn, and not named on the axis or in the legend unless
``order=``/``hue_order=`` names it: then it keeps its empty slot, as seaborn
keeps a named category with no records.

The data are simulated: blood pressure by clinic and sex, and a fifth
clinic with two patients.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot

rng = np.random.default_rng(11)
clinic = rng.choice(["A", "B", "C", "D"], 300)
sex = rng.choice(["female", "male"], 300)
shift = pd.Series(clinic).map({"A": 0, "B": 4, "C": -3, "D": 7}).to_numpy()
bp = np.round(128 + shift + np.where(sex == "male", 5, 0) + rng.normal(0, 9, 300), 3)
clinics = pd.concat(
    [
        pd.DataFrame({"clinic": clinic, "sex": sex, "bp": bp}),
        pd.DataFrame({"clinic": ["E", "E"], "sex": "female", "bp": [171.204, 98.713]}),
    ],
    ignore_index=True,
)
order = ["A", "B", "C", "D", "E"]

# %%
# seaborn and safeplot side by side
# ---------------------------------
# Left, seaborn's raw plot: clinic E's "mean" is the average of two
# patients, and its error bar spans their values. Right, safeplot: clinic E
# is not drawn; ``order=`` names it, so it keeps its slot, empty, exactly as
# a clinic with no patients would (unnamed, it would be left out and not
# named). The other means and 95% bootstrap intervals are rounded.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.pointplot(clinics, x="clinic", y="bp", hue="sex", order=order, dodge=True, seed=0, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.pointplot(
    clinics, x="clinic", y="bp", hue="sex", order=order, dodge=True, seed=0, ax=safe
)
safe.set_title("safeplot (suppress)")
for ax in (raw, safe):
    sns.move_legend(ax, "lower right")  # clear of the points of clinic A
print(safe.safeplot_report.warnings)

# %%
# Methods and error bars
# ----------------------
# The methods are barplot's: ``confidential`` estimates from values
# winsorised at 2.6 SD, ``deterministic`` from kNN centroids of three
# patients within each group, ``probabilistic`` from keyed noisy values.
# Error bars come from a fixed menu -- ``("ci", 90 | 95 | 99)``,
# ``("pi", 50 | 90 | 95)``, ``("se", 1 | 2)``, ``("sd", 1 | 2)`` -- so no
# sequence of levels can find where a rounded end steps.

methods = ["suppress", "confidential", "deterministic", "probabilistic"]
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6), layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    safeplot.pointplot(
        clinics, x="clinic", y="bp", hue="sex", errorbar=("sd", 1), method=method, ax=ax
    )
    ax.set_title(method)

# %%
# Facets
# ------
# ``catplot(kind="point")`` draws a released point plot per facet.

g = safeplot.catplot(
    clinics, x="clinic", y="bp", col="sex", kind="point", errorbar=("se", 2), height=3
)
plt.show()
