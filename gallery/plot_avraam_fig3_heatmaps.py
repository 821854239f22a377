"""
Avraam et al. Figure 3: heat maps and contour plots under each method
=====================================================================

The paper's Figure 3 shows the joint density of x and y of D1-D3 as a heat
map (counts in a grid) and as a contour plot, raw and under each method.
Here the heat maps are :func:`safeplot.heatmap` with ``x=`` and ``y=`` (a
30 x 30 grid on rounded edges) and the contour plots
:func:`safeplot.kdeplot` with ``x=`` and ``y=``. The first three rows are
the heat maps of D1, D2 and D3, the last three their contour plots.

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figure shows:

* **suppress**: every grid cell with one or two records is blanked. With 500
  records in 900 cells that is most of the occupied cells of D1 and D3: the
  heat map keeps only scattered cells of the dense centre, and the contour
  plot, estimated from the surviving cells, breaks up into islands. As the
  paper found, suppression destroys most of the information of a heat map.
* **generalize**: the cells are merged two by two (15 x 15) first, so much
  more of the density survives, at half the resolution.
* **deterministic** and **probabilistic**: the anonymised values are
  counted, and small cells are suppressed after them too, so their heat maps
  on a fine grid are also sparse. Their contour plots, estimated from the
  anonymised values themselves, keep the shape of the joint distribution
  best: the ellipse of D1, the curve of D2, the two ridges of D3.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, paper_figure

with safeplot.policy(demo_policy()):
    fig = paper_figure(3)

# %%
# How many of the 900 cells of each heat map were blanked (rows: data sets;
# columns: methods):

import numpy as np
import pandas as pd

axes = np.array(fig.axes[:30]).reshape(6, 5)  # then come the colour bars
table = pd.DataFrame(
    [[ax.safeplot_report.cells_suppressed for ax in row[1:]] for row in axes[:3]],
    index=["D1", "D2", "D3"],
    columns=[ax.safeplot_report.method for ax in axes[0, 1:]],
)
print(table)
plt.show()
