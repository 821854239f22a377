"""
Rugs of released values: ``rugplot``
=====================================

seaborn's :func:`~seaborn.rugplot` draws a tick at every record's value --
the plainest way to publish every value of a variable. :func:`safeplot.rugplot`
draws a tick at every record's *released* value: by default the centroid of
the record and its two nearest neighbours (Avraam et al.), or the value plus
keyed noise (``method="probabilistic"``). With ``hue`` the values are
anonymised within each level, and a level with fewer than ``threshold``
records is left out.

The data are the simulated D2 data of Avraam et al., with one planted
outlier at x = 7.3.
"""

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

import safeplot
from safeplot.datasets import simulate

d2 = simulate("D2", n=300, seed=8)
d2 = pd.concat([d2, pd.DataFrame({"x": [7.3], "y": [1.0]})], ignore_index=True)

# %%
# seaborn and safeplot side by side
# ---------------------------------
# Left, seaborn's rug marks the outlier at 7.3 exactly. Right, safeplot's
# rug: the outlier's tick is the centroid of it and its two neighbours, far
# from 7.3, and every tick is such a centroid.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")
sns.rugplot(d2, x="x", height=0.1, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.rugplot(d2, x="x", height=0.1, ax=safe)
safe.set_title("safeplot (deterministic, k=3)")

# %%
# Under a histogram, and on both axes
# -----------------------------------
# Drawn over another safeplot plot, the rug keeps that plot's safe axes.
# With x and y both given, the two are anonymised together.

fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.6), layout="constrained")
safeplot.histplot(d2, x="x", ax=left)
safeplot.rugplot(d2, x="x", method="probabilistic", ax=left)
left.set_title("histplot + rugplot (probabilistic)")
safeplot.scatterplot(d2, x="x", y="y", ax=right)
safeplot.rugplot(d2, x="x", y="y", ax=right)
right.set_title("scatterplot + rugplot (deterministic)")

# %%
# ``displot(rug=True)``
# ---------------------
# seaborn's ``displot(rug=True)`` adds a raw rug to every facet (top);
# safeplot's adds each facet's released rug (bottom), under the facets'
# method when it moves every value, else under the policy's method for
# point plots (here the histograms are suppressed, the rug deterministic).

d2["half"] = ["first" if i % 2 else "second" for i in range(len(d2))]
g = sns.displot(d2, x="x", col="half", rug=True, rug_kws={"height": 0.08}, height=2.8)
g.figure.suptitle("seaborn (raw)", y=1.04)
g = safeplot.displot(d2, x="x", col="half", rug=True, rug_kws={"height": 0.08}, height=2.8)
g.figure.suptitle("safeplot (suppress, rug deterministic)", y=1.04)
plt.show()
