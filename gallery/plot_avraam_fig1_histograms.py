"""
Avraam et al. Figure 1: histograms under each method
====================================================

Avraam et al. (2021) compare disclosure-control methods on three simulated
data sets of 500 records: D1 (x normal, y = x + normal error), D2 (x
log-normal, skewed to the right; y = log x + uniform error) and D3 (x
beta(5, 2), skewed to the left; y beta(0.5, 0.5), U-shaped). Their Figure 1
shows the histograms of x and of y of each data set, raw and under each
method; this page draws the same grid with :func:`safeplot.histplot`: for
each data set, the histogram of x and below it that of y.

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figure shows:

* **suppress** (threshold 3): the bins holding one or two records are
  removed, so the histogram loses its tails -- most visibly the long right
  tail of x in D2. The outer bin edges sit on a rounded grid beyond the data,
  never on the minimum or maximum.
* **generalize** (factor 2): the bins are twice as wide before small ones are
  suppressed, so fewer records are lost, at a coarser resolution.
* **deterministic** (k = 3): every value is replaced by the centroid of its
  three nearest neighbours, scaled to the original SD and shifted by the
  original mean as the paper does; the shape,
  skew and spread are kept and the extreme records are pulled in a little.
* **probabilistic** (q = 0.25): noise with a quarter of the SD blurs the
  shape slightly; as in the paper, the U shape of D3's y is flattened and
  the noisy values leave the range [0, 1] of the beta variables.

What matches the paper: the data-generating models, n = 500, the methods and
their parameters (threshold 3, bins twice as wide, k = 3, q = 0.25) and the
layout, x above y for each data set. What differs, and why:

* the records: the paper draws them in R 4.0.0 with ``set.seed(1234)``,
  safeplot with numpy's generator (:func:`safeplot.datasets.simulate`), so
  the individual values, and every count, differ;
* the bins: the paper does not give its bin widths; here 20 bins of a
  rounded width on edges strictly beyond the data (an edge on the minimum or
  maximum would print that record's value);
* the vertical axis shows counts, where the paper shows frequency density
  (count over bin width); with equal-width bins the shapes are the same;
* under the deterministic and probabilistic methods, bins of the released
  values holding fewer than three records are suppressed as well, which the
  paper does not do: a bin of one anonymised value still says where one
  record was sent.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(1)

# %%
# Each panel carries its report. The bins suppressed in each histogram (rows:
# data sets and variables; columns: methods):

import numpy as np
import pandas as pd

axes = np.array(fig.axes).reshape(6, 5)
table = pd.DataFrame(
    [[ax.safeplot_report.cells_suppressed for ax in row[1:]] for row in axes],
    index=[f"{name} {var}" for name in ["D1", "D2", "D3"] for var in ["x", "y"]],
    columns=[ax.safeplot_report.method for ax in axes[0, 1:]],
)
print(table)
plt.show()
