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

* **suppress** and **generalize**: the values are binned (30 or 15 cells),
  the cells with one or two records dropped with their records, and the box
  drawn from what remains, outliers at cell centres. The boxes keep their
  medians and quartiles but the whiskers shrink: the tails were suppressed.
* **deterministic** (k = 3): the box of the kNN centroids; quartiles and
  median are almost those of the raw data, and the outliers are centroids,
  not records.
* **probabilistic** (q = 0.25): the box of the noisy values; slightly wider
  whiskers, and the bounded D3 values are pushed a little past 0 and 1.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(4)
plt.show()
