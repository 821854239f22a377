"""
Figure-level plots: one release per facet
=========================================

``displot``, ``relplot``, ``catplot`` and ``lmplot`` build a
:class:`seaborn.FacetGrid` and draw every panel with safeplot's axes-level
function on that panel's records, under the same method. Each facet is
released on its own and carries its own report; shared axes get one set of
limits that spans every facet's released range and equals no rare raw value
of any facet.
"""

# %%
# Histograms per species, small bins suppressed
# ---------------------------------------------
# Every facet is ``histplot`` of that species' records; the facets share one
# bin width, as seaborn's common bins do.
import matplotlib.pyplot as plt

import safeplot
from safeplot.plots.facets import catplot, displot, lmplot, relplot

penguins = safeplot.load_dataset("penguins")
tips = safeplot.load_dataset("tips")

g = displot(penguins, x="flipper_length_mm", col="species", hue="sex", height=2.5)
print([r.cells_suppressed for r in g.safeplot_reports])

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
