"""
Regression diagnostics under each method: Avraam et al.'s Figures 5-7
=====================================================================

Avraam et al. (2021, section 4.2) fit the linear model ``y ~ x`` to their
three simulated data sets and compare the diagnostic plots drawn from raw,
suppressed, generalised, deterministically and probabilistically anonymised
residuals. D1 is a correct linear model, so its residuals show no trend; D2
has a curved relationship, which the residuals against fitted values show
under every method; D3 has a U-shaped outcome, whose Q-Q plot bends away
from the line at both ends.

The raw column is shown for comparison only: the data are simulated, and the
figures are drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.
"""

import safeplot
from safeplot.demo import demo_policy, diagnostics_figure

# %%
# Residuals against fitted values (Figure 5)
# ------------------------------------------
#
# Deterministic anonymisation (kNN centroids of three records) keeps the
# shape of the cloud and its trend; suppression and generalisation keep only
# the grid cells holding at least three records, so the sparse edges, where
# outliers live, disappear.

with safeplot.policy(demo_policy()):
    fig = diagnostics_figure("resid_fitted")

# %%
# Normal Q-Q plot of the standardised residuals (Figure 6)
# --------------------------------------------------------
#
# The departure from normality in D3 survives every method; noise blurs the
# tails of the Q-Q plot, while the centroids pull the extreme quantiles in.

with safeplot.policy(demo_policy()):
    fig = diagnostics_figure("qq")

# %%
# Standardised residuals against leverage (Figure 7)
# --------------------------------------------------
#
# Leverage is the most identifying of the diagnostics: a record far out in x
# stands alone on the right of the raw panel. The released panels show the
# spread of leverage without any individual record; Cook's distance contours
# at 0.5 and 1 are drawn over the released leverage range when they fall
# inside the plot.

with safeplot.policy(demo_policy()):
    fig = diagnostics_figure("leverage")
