"""
Avraam et al. Figure 2: scatter plots under each method
=======================================================

The paper's Figure 2 draws y against x for the simulated data sets D1
(linear trend), D2 (logarithmic trend) and D3 (no relationship, y U-shaped),
raw and under each method. Here with :func:`safeplot.scatterplot`.

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figure shows:

* **suppress**: the points are counted in a 30 x 30 grid and one marker is
  drawn at the centre of every cell holding at least three records, sized by
  its count. On 500 records most cells hold fewer, so only the dense core
  survives: the scatter plot loses most of its information.
* **generalize**: the grid is coarsened to 15 x 15 first, so more cells reach
  the threshold; the trend is visible at a coarse resolution.
* **deterministic** (k = 3): each record becomes the centroid of itself and
  its two nearest neighbours, scaled to the original SDs and shifted by the
  original means, as the paper does. The
  cloud, its outline and the trend are kept best of all methods. Black
  points are centroids shared by several records.
* **probabilistic** (q = 0.25): keyed noise with a quarter of each SD blurs
  every point; the overall pattern is kept, and, as in the paper, D3's noisy
  y leaves its range [0, 1].

What matches the paper: the data-generating models, n = 500, the 30 x 30
and 15 x 15 grids with markers at the centres of the cells holding at least
three records, sized by their counts, k = 3 with shared centroids in black,
and q = 0.25. What differs, and why:

* the records: R's ``set.seed(1234)`` stream in the paper, numpy's generator
  here, so the individual points and the counts differ;
* the grid: the paper divides the range of each variable into 30 equal
  cells; safeplot's 30 cells have a rounded width and edges strictly beyond
  the data, so they are a little wider (an edge on the minimum or maximum
  would print that record's value); the grid then spans only the cells
  shown, so a suppressed outlier does not stretch the axes;
* the paper draws the raw and the anonymised linear trend lines on D1's
  panels; they are left out here (:func:`safeplot.regplot` draws a released
  trend), and the count legend of the suppressed panels stands beside the
  panel, off the data.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(2)

# %%
# The suppressed panels count the grid cells removed; the deterministic ones,
# the records whose centroid coincides with another record's (drawn black).

import numpy as np

axes = np.array(fig.axes).reshape(3, 5)
for name, row in zip(["D1", "D2", "D3"], axes, strict=True):
    suppressed = row[1].safeplot_report.cells_suppressed
    shared = row[3].safeplot_report.details["coincident_centroids"]
    print(f"{name}: {suppressed} grid cells suppressed, {shared} coincident centroids")
plt.show()
