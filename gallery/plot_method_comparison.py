"""
Comparing the methods on the simulated data sets
================================================

Avraam et al. (2021) compare disclosure-control methods on three simulated
data sets: D1 (normal, linear trend), D2 (log-normal, log trend) and D3 (two
independent beta variables). This is the layout of their Figures 1 and 2: a
histogram of x and a scatter plot of y against x, raw and under each method.

What the paper found, and what the figures show:

* suppression removes the tails of the histogram and most of a scatter plot
  (only grid cells holding at least three records survive);
* generalisation keeps more of the data at a coarser resolution;
* deterministic anonymisation (k = 3 nearest-neighbour centroids) keeps the
  shape and the linear trend best; points drawn black are centroids shared by
  several records;
* probabilistic anonymisation (noise with 25 % of each variable's SD) blurs
  the points but keeps the overall pattern.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import DEMO_METHODS, _demo_figure, demo_policy

# The raw column is allowed only because the data are simulated.
with safeplot.policy(demo_policy()):
    for name in ("D1", "D2", "D3"):
        fig = _demo_figure(name, DEMO_METHODS, n=500, seed=1234)
plt.show()
