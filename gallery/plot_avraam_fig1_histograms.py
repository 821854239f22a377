"""
Avraam et al. Figure 1: histograms under each method
====================================================

Avraam et al. (2021) compare disclosure-control methods on three simulated
data sets of 500 records: D1 (x normal), D2 (x log-normal, skewed to the
right) and D3 (x beta(5, 2), skewed to the left, bounded by 1). Their
Figure 1 shows the histogram of x, raw and under each method; this page
draws the same grid with :func:`safeplot.histplot` (20 bins).

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figure shows:

* **suppress** (threshold 3): the bins holding one or two records are
  removed, so the histogram loses its tails -- most visibly the long right
  tail of D2. The outer bin edges sit on a rounded grid beyond the data,
  never on the minimum or maximum.
* **generalize** (factor 2): the bins are twice as wide before small ones are
  suppressed, so fewer records are lost, at a coarser resolution.
* **deterministic** (k = 3): every value is replaced by the centroid of its
  three nearest neighbours, scaled to the original SD and shifted by the
  original mean as the paper does; the shape,
  skew and spread are kept and the extreme records are pulled in a little.
* **probabilistic** (q = 0.25): noise with a quarter of the SD blurs the
  shape slightly and flattens the peak of D1.

Under the deterministic and probabilistic methods, bins of the released
values that hold fewer than three records are suppressed as well.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(1)

# %%
# Each panel carries its report. The bins suppressed in each histogram (rows:
# data sets; columns: methods):

import numpy as np
import pandas as pd

axes = np.array(fig.axes).reshape(3, 5)
table = pd.DataFrame(
    [[ax.safeplot_report.cells_suppressed for ax in row[1:]] for row in axes],
    index=["D1", "D2", "D3"],
    columns=[ax.safeplot_report.method for ax in axes[0, 1:]],
)
print(table)
plt.show()
