"""
Avraam et al. Figure 4: box plots under each method
===================================================

The paper's Figure 4 draws box plots of x and y of D1-D3, raw and under
each method. Here with :func:`safeplot.boxplot` of the two columns.

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

A raw box plot is a list of records: the whisker ends are the most extreme
values inside the fences and every outlier is one record. What the paper
found, and what the figure shows:

* **suppress** and **generalize**: as in the paper, the records are counted
  in the 30 x 30 density grid of x and y (15 x 15 for generalisation), the
  grid of the heat map; the records in cells holding one or two are removed,
  and each variable's box is drawn from the records that remain (outliers at
  cell centres). On D1 and D3 about half of the records go with 30 x 30:
  the boxes keep their medians and quartiles roughly, but the whiskers
  shrink, most visibly y's on D1, as the paper reports.
* **deterministic** (k = 3): the box of the kNN centroids; quartiles and
  median are almost those of the raw data, and the outliers are centroids,
  not records.
* **probabilistic** (q = 0.25): the box of the noisy values; slightly wider
  whiskers, and the bounded D3 values are pushed a little past 0 and 1.

What matches the paper: the data-generating models, n = 500, the rule for
the suppressed boxes (a record goes when its cell of the two-variable grid
is small), the 30 x 30 and 15 x 15 grids, threshold 3, k = 3 and q = 0.25.
What differs, and why:

* the records: R's ``set.seed(1234)`` stream in the paper, numpy's
  generator here;
* the grid has a rounded cell width and edges strictly beyond the data, a
  little wider than the paper's 30 equal cells over the range, so a few more
  records stay: 263 of D1's 500 here; on the same records, the paper's grid
  would keep 234;
* the suppressed boxes are drawn from a released summary: quartiles, median
  and whisker ends rounded to three significant figures and moved off any
  raw value, outliers at the centres of their cells.

With only one variable (``boxplot(data=df, x="y")``), or boxes by category,
there is no second variable to form the grid: each box's values are binned
on a 1-D grid instead, which drops far fewer records (6 of D1's y).
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(4)

# %%
# The reports say which grid was used and how many cells and (rounded)
# records were removed:

for name, ax in zip(["D1", "D2", "D3"], fig.axes[1::5], strict=True):
    report = ax.safeplot_report
    print(
        f"{name}: grid {report.details['grid']}, {report.cells_suppressed} cells and about "
        f"{report.details['records_suppressed']} records suppressed"
    )
plt.show()
