"""
Every plot family under every method: the ``safeplot demo`` figure
==================================================================

``safeplot demo`` (or :func:`safeplot.demo.run_demo`) writes one figure per
simulated data set of Avraam et al. (2021): a row per plot family
(histogram, scatter plot, heat map, contour plot, box plot), a column per
method (raw, suppress, generalize, deterministic, probabilistic). Here the
figure of D1 (x normal, y = x + normal noise: a linear trend).

The raw column is shown for comparison only: the data are simulated, and the
figure is drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

Reading down a column shows what one method does to every kind of plot:
suppression keeps the histogram but empties most of the scatter plot and
heat map; generalisation keeps more at half the resolution; deterministic
anonymisation keeps shape and trend everywhere; probabilistic noise blurs
them a little. The paper's figures, one plot family on all three data sets,
have pages of their own: :ref:`histograms
<sphx_glr_auto_gallery_plot_avraam_fig1_histograms.py>`, :ref:`scatter plots
<sphx_glr_auto_gallery_plot_avraam_fig2_scatter.py>`, :ref:`heat maps and
contour plots <sphx_glr_auto_gallery_plot_avraam_fig3_heatmaps.py>` and
:ref:`box plots <sphx_glr_auto_gallery_plot_avraam_fig4_boxplots.py>`.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import DEMO_METHODS, _demo_figure, demo_policy

with safeplot.policy(demo_policy()):
    fig = _demo_figure("D1", DEMO_METHODS, n=500, seed=1234)
plt.show()
