"""
Heat maps: density grids and safe tables
========================================

``heatmap`` has two uses. Given ``x=`` and ``y=`` it draws the density grid
of Avraam et al.: the records counted in a grid of cells on rounded edges
(by default as many cells as the number of records can fill, at most
30 x 30), released under a disclosure-control method, with
every cell holding one or two records left blank. Given a matrix, it draws it as
:func:`seaborn.heatmap` does -- but only a matrix that safeplot released,
such as a table of counts from ``crosstab``, whose small cells are
suppressed together with the cells that would give them back through the
row and column totals. A matrix made by hand is refused.

Here the bill and flipper lengths of the 342 Palmer penguins on a 20 x 20
grid, under four methods. Suppression blanks the many sparse cells (as the
paper found, it costs a heat map much of its information); generalisation
merges cells two by two first (10 x 10), so fewer are lost;
the deterministic and probabilistic methods count anonymised values (kNN
centroids, keyed noise), and small cells are suppressed after them as well.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import crosstab, heatmap

penguins = safeplot.load_dataset("penguins")
methods = ["suppress", "generalize", "deterministic", "probabilistic"]

fig, axes = plt.subplots(1, 4, figsize=(17, 3.6), layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    heatmap(
        data=penguins, x="bill_length_mm", y="flipper_length_mm", bins=20, method=method, ax=ax
    )
    ax.set_title(method)

# %%
# Each Axes carries the report of its release: the method, its parameters,
# the records (rounded) and the number of cells suppressed.

print(axes[0].safeplot_report)

# %%
# A table of counts
# -----------------
#
# ``crosstab`` is :func:`pandas.crosstab` on named columns, released by cell
# suppression. With ``margins=True`` the totals are computed from all the
# records and then protected like any cell: a small total is suppressed,
# and no row or column (totals included) is left with exactly one
# suppressed cell, which its total would give back.

tips = safeplot.load_dataset("tips")
table = crosstab(tips, "day", "size", margins=True)
print(table)

# %%
# The table is marked as a safeplot release, so ``heatmap`` draws it with
# every seaborn argument; suppressed cells are blank. On the right, the
# share of each day's parties paid by men and by women (``normalize="index"``).
# Proportions are computed from the shown counts only; nothing is suppressed
# in this table.

fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), layout="constrained")
heatmap(table, annot=True, fmt=".0f", cmap="mako", ax=axes[0])
shares = crosstab(tips, "day", "sex", normalize="index")
heatmap(shares, annot=True, fmt=".2f", vmin=0, vmax=1, ax=axes[1])

# %%
# A matrix that did not come from safeplot -- or a released one changed
# afterwards -- is refused with a message saying what to use instead.

try:
    heatmap(table.fillna(0))
except safeplot.DisclosureError as err:
    print(err)
plt.show()
