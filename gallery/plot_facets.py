"""
Figure-level plots: every facet released
========================================

``displot``, ``relplot``, ``catplot`` and ``lmplot`` build a
:class:`seaborn.FacetGrid` and draw every panel as safeplot's axes-level
function draws it, under the same method. Each facet carries its own
report; shared axes get one set of limits that spans every facet's released
range and equals no rare raw value of any facet. Histograms and ECDFs
release all their facets together, before any is drawn, so that the release
ledger can link them to the figure without facets.
"""

# %%
# Histograms per species, small bins suppressed
# ---------------------------------------------
# The facets are released together on one set of bins, as seaborn's common
# bins; each facet and sex is suppressed on its own counts.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import safeplot
from safeplot.plots.facets import catplot, displot, lmplot, relplot

penguins = safeplot.load_dataset("penguins")
tips = safeplot.load_dataset("tips")

g = displot(penguins, x="flipper_length_mm", col="species", hue="sex", height=2.5)
print([r.cells_suppressed for r in g.safeplot_reports])

# %%
# Facets and the whole: no count left to subtract
# ------------------------------------------------
# A reader who holds the histogram of every record and the same histogram
# by facet could subtract the facets shown from the whole, bin by bin. Here
# ward B holds two records in the first bin, suppressed; without the ledger
# the whole's first bar (12) minus ward A's (10) would give them. The ledger
# hides the whole's first bar as well and says so in its report.
wards = pd.DataFrame(
    {
        "stay": np.r_[np.full(10, 0.5), np.full(2, 0.5), np.full(8, 1.5), np.full(6, 2.5)],
        "ward": ["A"] * 10 + ["B"] * 10 + ["A"] * 6,
    }
)
with safeplot.ledger.using(safeplot.ledger.Ledger()):
    g = displot(wards, x="stay", col="ward", bins=[0, 1, 2, 3], height=2.2)
    fig, ax = plt.subplots(figsize=(3, 2.2))
    safeplot.histplot(wards, x="stay", bins=[0, 1, 2, 3], ax=ax)
fig.tight_layout()
print(ax.safeplot_report.warnings)

# %%
# Scatter plots per meal: deterministic centroids within each facet
# -----------------------------------------------------------------
# Each record is replaced by the centroid of its k nearest neighbours of the
# same facet and hue level (Avraam et al.).
g = relplot(tips, x="total_bill", y="tip", col="time", hue="sex", method="deterministic", k=5)

# %%
# Box plots per sex under O'Keefe's rules
# ---------------------------------------
# Winsorised, rounded five-number summaries and no outliers; ``***`` marks a
# box whose values were winsorised. ``catplot``'s default kind, ``"strip"``,
# draws every record and is refused: say ``kind="box"``.
g = catplot(
    penguins, x="island", y="body_mass_g", col="sex", kind="box", method="confidential", height=3
)

# %%
# Regression lines per species, points with keyed noise
# -----------------------------------------------------
# The line is fitted to the records (an aggregate) and drawn only over the
# released range of x.
g = lmplot(
    penguins,
    x="flipper_length_mm",
    y="body_mass_g",
    col="species",
    method="probabilistic",
    height=2.5,
    n_boot=200,
    seed=0,
)

# %%
# A facet too small to release is refused
# ----------------------------------------
# Its title would name a group of a few records; merge levels instead.
small = tips.assign(party=tips["size"].astype(str))
try:
    relplot(small, x="total_bill", y="tip", col="party")
except safeplot.DisclosureError as err:
    print(err)
plt.show()
