"""
Sensitivity: k of deterministic anonymisation (Figures 12 and 13)
=================================================================

Deterministic anonymisation (Avraam et al. 2021) replaces every record by
the centroid of itself and its ``k - 1`` nearest neighbours (in z-scores),
then scales the centroids to the original SDs and shifts them by the
original means, as the paper does. Section 4.4 of the paper varies ``k``
over 5, 10, 20 and 50 on D1, next to the raw data (``k = 1``):
:func:`safeplot.demo.paper_sweep_figure` draws Figure 12 (scatter plots,
heat maps and contour plots of the 30 x 30 grid, histograms of x and y with
bins of width 0.2, box plots) and Figure 13 (the regression diagnostics of
``y ~ x``).

The raw column is shown for comparison only, under
:func:`safeplot.demo.demo_policy`, which allows raw output.

What the paper found, and what the figures show: the larger ``k``, the more
each point is an average of many records and the more protection. The
linear trend of D1 is kept at every ``k``; the detail goes. Up to k = 10
the plots are close to the raw ones (black points are centroids shared by
several records, fewer as ``k`` grows). At k = 20 and 50 the extreme records
are averaged away and the cloud becomes an evenly filled ellipse; in the
Q-Q plots of Figure 13 the extreme quantiles of the residuals vanish for
k > 10, so those plots no longer tell whether the errors are normal, while
the residuals against fitted values and leverage keep their structure.

What matches the paper: D1's model and n = 500, the values of ``k``, the
scaling of the centroids and the rows of both figures. What differs: the
records (R's ``set.seed(1234)`` stream there, numpy's here), and the heat
maps and histograms, which suppress cells of the centroids holding fewer
than three records (the paper shows every count).
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import PAPER_SWEEPS, demo_policy, paper_sweep_figure

with safeplot.policy(demo_policy()):
    fig12 = paper_sweep_figure(12)

# %%
# Figure 13: the regression diagnostics of ``y ~ x`` at the same values of
# ``k``.

with safeplot.policy(demo_policy()):
    fig13 = paper_sweep_figure(13)

# %%
# The risk-utility trade-off
# --------------------------
# :func:`safeplot.assess` anonymises the records at each ``k`` and compares
# them with the originals (:mod:`safeplot.metrics`). Utility: ``U2``, the
# propensity score with squares and products (0 = the anonymised records
# cannot be told from the originals; the main-effects ``U`` stays near 0 at
# every ``k`` because the means barely move), ``delta_y`` (squared displacement
# over the variance), and ``max_std_diff``, how far the slope of ``y ~ x``
# moves, in standard errors. Risk: ``risk1`` (sdcMicro's dRiskRMD), interval
# disclosure ``IDR`` and record linkage ``DDR``. As ``k`` grows, interval
# disclosure and record linkage fall (``risk1`` is small throughout) and the
# information loss ``IL1s`` rises. These numbers describe the
# raw data: they are for choosing ``k``, not for release.

from safeplot.datasets import simulate

ks = list(PAPER_SWEEPS[12][2])
table = safeplot.assess(
    simulate("D1", n=500, seed=1234), ["x", "y"], sweep={"k": ks}, formula="y ~ x"
)
columns = ["k", "U2", "delta_y", "max_std_diff", "risk1", "IDR", "DDR", "IL1s"]
print(table[columns].to_string(index=False, float_format="{:.4f}".format))
plt.show()
