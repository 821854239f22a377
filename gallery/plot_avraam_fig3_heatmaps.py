"""
Avraam et al. Figure 3: heat maps and contour plots under each method
=====================================================================

The paper's Figure 3 shows the joint density of x and y of D1-D3 as a heat
map of the counts in a 30 x 30 grid and as a contour plot of the same grid,
raw and under each method. Here the heat maps are :func:`safeplot.heatmap`
with ``x=`` and ``y=``, and the contour plots
:func:`safeplot.demo.grid_contourplot`: the contour lines of exactly the
counts the heat map releases (suppressed cells as 0). For each data set the
heat map comes first and its contour plot below it, as in the paper's panels
(A), (B) and (C).

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figure shows:

* **suppress**: every grid cell with one or two records is blanked. With 500
  records in 900 cells that is most of the occupied cells of D1 and D3: the
  heat map keeps scattered cells of the dense centre, and the contour lines
  break up into islands. As the paper found, suppression destroys most of
  the information of a heat map.
* **generalize**: the cells are merged two by two (15 x 15) first, so much
  more of the density survives, at half the resolution, and the contours
  show the ellipse of D1, the curve of D2 and the two ridges of D3.
* **deterministic** and **probabilistic**: the 30 x 30 grid of the
  anonymised values. The deterministic grid keeps the outline of the raw
  one; noise spreads the counts over more cells.

What matches the paper: the data-generating models, n = 500, the 30 x 30 and
15 x 15 density grids, threshold 3, k = 3, q = 0.25, and contours drawn from
the grids rather than from a smoothed density. What differs, and why:

* the records: R's ``set.seed(1234)`` stream in the paper, numpy's generator
  here. The paper suppresses 164 of the 900 cells of its D1 and 42 of the
  225 generalised cells; on safeplot's D1 it is 183 and 42 (printed below);
* the grid has a rounded cell width and edges strictly beyond the data,
  instead of 30 equal cells over the exact range, and it spans only the
  cells shown;
* under the deterministic and probabilistic methods, cells of the released
  values holding fewer than three records are suppressed too (the paper
  shows every count): a cell of one anonymised record still places it. Their
  fine-grid heat maps are therefore sparser than the paper's.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(3)

# %%
# How many cells of each heat map were blanked (rows: data sets; columns:
# methods; the generalised grid has 225 cells, the others 900):

import numpy as np
import pandas as pd

axes = np.array(fig.axes[:30]).reshape(6, 5)  # then come the colour bars
table = pd.DataFrame(
    [[ax.safeplot_report.cells_suppressed for ax in row[1:]] for row in axes[::2]],
    index=["D1", "D2", "D3"],
    columns=[ax.safeplot_report.method for ax in axes[0, 1:]],
)
print(table)
plt.show()
