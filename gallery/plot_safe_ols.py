"""
Regression output: ``safe_ols`` and R's diagnostic plots
========================================================

A fitted regression model holds its data twice over: the residuals plus the
fitted values give back every outcome exactly, and leverages and Cook's
distances point at the unusual records. :func:`safeplot.diagnostics.safe_ols`
fits the model with statsmodels' formula interface and releases only the
rounded statistics and disclosure-controlled diagnostic plots.

Here body mass of the Palmer penguins is modelled on flipper length and
species.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import safe_ols
from safeplot.errors import DisclosureError

penguins = safeplot.load_dataset("penguins")
fit = safe_ols("body_mass_g ~ flipper_length_mm + C(species)", data=penguins)

# %%
# The summary
# -----------
#
# Coefficients, standard errors, t statistics, p-values, confidence
# intervals, R-squared and the F test are rounded to the policy's
# significant figures (three by default); the number of records and the
# residual degrees of freedom are rounded as the policy rounds counts. A
# model with fewer than ten residual degrees of freedom is refused.

print(fit.summary())

# %%
# The raw residuals are not released
# ----------------------------------
#
# Asking for them, for the fitted values, the influence measures, the model
# (which holds the data) or predictions on the training data raises
# :class:`~safeplot.errors.DisclosureError`, and the results cannot be
# pickled.

try:
    residuals = fit.resid
except DisclosureError as err:
    print(str(err)[:160], "...")

# %%
# R's four diagnostic plots
# -------------------------
#
# :meth:`~safeplot.diagnostics.SafeOLSResults.plot_diagnostics` draws
# residuals against fitted values, a normal Q-Q plot of the standardised
# residuals, the scale-location plot and standardised residuals against
# leverage with Cook's distance contours. Every panel shows released points
# (here kNN centroids of three records, the default); the red trend lines are
# lowess fits with winsorised, rounded end points. Unlike R, no point is
# labelled with its row number: that would identify the record.

fig = fit.plot_diagnostics(figsize=(9, 8))

# %%
# Other methods
# -------------
#
# The same panels under keyed noise, small-cell suppression on a density
# grid, and O'Keefe's parallel box plots, here for the residuals against
# fitted values.

fig, axes = plt.subplots(1, 3, figsize=(14, 4), layout="constrained")
for ax, method in zip(axes, ["probabilistic", "suppress", "confidential"], strict=True):
    fit.plot_resid_fitted(ax=ax, method=method)
    ax.set_title(method)

# %%
# Each panel carries the report of its release.

print(axes[1].safeplot_report)
