"""
Safe bin edges and suppressed bins
==================================

numpy's and seaborn's default histogram bins start at the minimum and end at
the maximum, so the outer bin edges print the smallest and largest value in
the data. safeplot puts every edge on a rounded grid that extends beyond the
data, and removes bins holding fewer than ``threshold`` records.

Here the data contain one extreme record (an age of 97.3). The left panel is
what a raw histogram shows: its last edge *is* that age. The right panel is
the released histogram: edges on a grid of fives, the bins with one or two
records gone.
"""

import matplotlib.pyplot as plt
import numpy as np

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.distributions import draw_histogram, release_histogram

rng = np.random.default_rng(7)
ages = np.r_[rng.normal(52, 9, 400).round(1), 97.3]

fig, (raw_ax, safe_ax) = plt.subplots(1, 2, figsize=(8, 3.2), layout="constrained")
counts, edges, _ = raw_ax.hist(ages, bins=20, color="0.6")
raw_ax.set_title(f"raw: last edge = {edges[-1]:.1f}", fontsize=10)

with safeplot.policy(demo_policy()):
    release = release_histogram(ages, name="age", method="suppress", bins=20)
draw_histogram(safe_ax, release, color="C0")
safe_ax.set_title("suppress (threshold=3)", fontsize=10)
print(release.report)
plt.show()
