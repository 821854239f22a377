"""
Small samples: n = 50, 100 and 300
==================================

Avraam et al. (2021) repeat their comparison on small samples, where
disclosure control costs most. Here the histogram, the scatter plot and the
heat map of the simulated data set D1 with 50, 100 and 300 records, raw and
under each method.

The raw column is shown for comparison only: the data are simulated, and the
figures are drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What the paper found, and what the figures show: at small ``n`` suppression
removes almost everything. With 50 records spread over a 30 x 30 grid no
cell holds three, so the suppressed scatter plot and heat map are refused
outright -- an empty figure would still show the range of the data -- and
their panels say so. Generalisation (15 x 15) rescues a few cells at
n = 100 and more at 300. The deterministic and probabilistic scatter plots
and histograms release every record at every size and keep the shape and
trend; their heat maps, however, still count the released values in small
cells, so they lose most cells too, and the probabilistic heat map is
refused at n = 50 and 100.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, small_sample_figure

with safeplot.policy(demo_policy()):
    for family in ["histogram", "scatter plot", "heat map"]:
        fig = small_sample_figure(family, sizes=(50, 100, 300))

# %%
# What was refused, and why
# -------------------------
# A refusal is a :class:`~safeplot.errors.DisclosureError` with the reason
# and what to do instead; nothing is drawn and nothing is logged. Releasing
# the heat maps of the 50 records without drawing them shows the message
# behind the empty panels, and what generalisation keeps:

from safeplot.datasets import simulate
from safeplot.plots.grid import release_grid

small = simulate("D1", n=50, seed=1234)
for method in ["suppress", "generalize"]:
    try:
        grid = release_grid(small["x"], small["y"], method=method)
        print(f"{method}: {grid.report.cells_suppressed} cells suppressed, the rest released")
    except safeplot.DisclosureError as err:
        print(f"{method}: refused. {err}")

# %%
# Deterministic anonymisation needs at least twice the policy's minimum
# ``k`` records (``k`` may be at most ``n - k_min``), so a tiny sample is
# refused as well:

from safeplot.methods import anonymize_values

tiny = simulate("D1", n=5, seed=1)
try:
    anonymize_values(tiny[["x", "y"]].to_numpy(), "deterministic", k=3)
except safeplot.DisclosureError as err:
    print(err)
plt.show()
