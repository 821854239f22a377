"""
Regression diagnostics under each method: Avraam et al.'s Figures 5-7
=====================================================================

Avraam et al. (2021, section 4.2) fit the linear model ``y ~ x`` to their
three simulated data sets and compare the diagnostic plots drawn from raw,
suppressed, generalised, deterministically and probabilistically anonymised
regression outcomes. Each of their Figures 5, 6 and 7 is one data set (D1,
D2, D3) with three rows: (A) residuals against fitted values, (B) the normal
Q-Q plot of the standardised residuals and (C) standardised residuals
against leverage. :func:`safeplot.demo.paper_diagnostics_figure` draws them
with the panels of :func:`safeplot.safe_ols`.

The raw column is shown for comparison only: the data are simulated, and the
figures are drawn under :func:`safeplot.demo.demo_policy`, which allows raw
output. The default policy refuses ``method="none"``.

What matches the paper: the model, the data-generating models, n = 500, the
five columns (30 x 30 and 15 x 15 grids with threshold 3, k = 3, q = 0.25),
and the anonymisation of the plotted points, the same way as a scatter plot:
the pairs (fitted value, residual), (theoretical quantile, standardised
residual) and (leverage, standardised residual) are suppressed on a grid,
replaced by kNN centroids or given noise in both coordinates. What differs,
and why:

* the records: R's ``set.seed(1234)`` stream in the paper, numpy's generator
  here;
* the suppressed and generalised panels draw one marker per surviving grid
  cell, sized by its count, as safeplot's suppressed scatter plots do;
* a released trend (red) and, on the leverage panels, Cook's distance
  contours where they fall inside the plot are added, as statsmodels and R
  draw them.
"""

import safeplot
from safeplot.demo import demo_policy, paper_diagnostics_figure

# %%
# Figure 5: D1, a correct linear model
# ------------------------------------
#
# The residuals show no trend and no change of spread, and the Q-Q points
# follow the line (the error is normal). Deterministic anonymisation keeps
# the shape of each cloud; suppression keeps only the grid cells holding at
# least three records, so the sparse edges, where outliers live, disappear.

with safeplot.policy(demo_policy()):
    fig = paper_diagnostics_figure(5)

# %%
# Figure 6: D2, a curved relationship fitted with a line
# ------------------------------------------------------
#
# The residuals against fitted values bend under every method: the
# misspecification survives anonymisation. The uniform error makes the Q-Q
# plot S-shaped.

with safeplot.policy(demo_policy()):
    fig = paper_diagnostics_figure(6)

# %%
# Figure 7: D3, no relationship
# -----------------------------
#
# The fitted values span a narrow band around 0.5, and the U-shaped outcome
# bends the Q-Q plot away from the line at both ends. Leverage is the most
# identifying of the diagnostics: a record far out in x stands alone on the
# right of the raw panel (C); the released panels show the spread of
# leverage without any individual record.

with safeplot.policy(demo_policy()):
    fig = paper_diagnostics_figure(7)

# %%
# The same diagnostics can be compared across data sets, one figure per row
# of the paper's figures: :func:`safeplot.demo.diagnostics_figure` draws
# panels (A), (B) or (C) of Figures 5-7 side by side, as ``safeplot demo``
# writes them.
