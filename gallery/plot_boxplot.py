"""
Box plots: ``boxplot`` under every method
=========================================

A raw box plot draws individual values: the whisker ends are the most extreme
records inside the fences, and every outlier is a record. :func:`safeplot.boxplot`
is :func:`seaborn.boxplot` with a ``method=`` argument; the
boxes are released first and seaborn draws only released numbers, so ``hue``,
``dodge``, ``order``, palettes and legends behave as in seaborn.

Here the body mass of the Palmer penguins by species and sex. The
deterministic method (the default for box plots) replaces each bird's mass by
the centroid of its three nearest neighbours *within its box*, and the
probabilistic one adds keyed noise with a quarter of the standard deviation;
seaborn then draws Tukey's boxes of those released values. Suppression bins
the masses on a grid of 30 cells, drops the cells holding one or two birds
(and their birds) and draws the rounded box of what remains, outliers at the
centres of their cells; generalisation does so on a grid of 15 cells. The
confidential method (O'Keefe) winsorises each box at 2.6 standard deviations
and draws its rounded five-number summary, without outliers; boxes where
values were winsorised are marked ``***``.
"""

import matplotlib.pyplot as plt
import seaborn as sns

import safeplot
from safeplot import boxplot
from safeplot.plots.categorical import release_boxplot

penguins = safeplot.load_dataset("penguins")
methods = ["deterministic", "probabilistic", "suppress", "generalize", "confidential"]

fig, axes = plt.subplots(1, 5, figsize=(18, 5.5), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    boxplot(
        data=penguins,
        x="species",
        y="body_mass_g",
        hue="sex",
        method=method,
        legend=method == "deterministic",
        ax=ax,
    )
    ax.set_title(method)

# %%
# The released numbers
# --------------------
#
# :func:`~safeplot.plots.categorical.release_boxplot` returns what is drawn.
# Under the summary methods that is one five-number summary per box (and
# the outliers' cell centres); seaborn is handed exactly these five numbers,
# so the drawn quartiles, median and whisker ends are the released ones.

release = release_boxplot(penguins, x="species", y="body_mass_g", method="confidential")
for (species, _), box in zip(release.groups, release.boxes, strict=True):
    print(f"{species:<10}", box.stats, "winsorised" if box.n_winsorized else "")
print(release.report)

# %%
# Small groups are left out, with a note
# --------------------------------------
#
# A box of one or two records would show their values. Every method leaves
# out a box with fewer than ``threshold`` records (or fewer than the
# method's group size) and says so under the Axes, without naming it; the
# report counts the boxes left out. Left, seaborn draws boxes for parties of
# one, parties of five at lunch and parties of six at dinner, from one or
# two bills each; right, safeplot leaves those four boxes out and draws the
# rest. A figure is refused only when no box
# is left.

tips = safeplot.load_dataset("tips")
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
sns.boxplot(tips, x="size", y="tip", hue="time", ax=raw)
raw.set_title("seaborn (raw)")
boxplot(tips, x="size", y="tip", hue="time", ax=safe)
safe.set_title("safeplot (deterministic)")
print(safe.safeplot_report.warnings)
plt.show()
