"""
Regression diagnostics: ``qqplot``, ``residplot`` and ``regplot``
=================================================================

A residual plus its fitted value is the outcome, so residuals are as
disclosive as the data (Avraam et al. 2021, section 4.2; O'Keefe & Good
2009). safeplot's :func:`~safeplot.plots.regression.qqplot` (statsmodels'
call), :func:`~safeplot.plots.regression.residplot` and
:func:`~safeplot.plots.regression.regplot` (seaborn's calls) fit the model to
the raw data, then release the points by a disclosure-control method before
anything is drawn.

Here an ordinary least-squares model of the simulated data set D2 of Avraam
et al. (a skewed predictor and a non-linear relationship), whose residuals
are skewed.
"""

import matplotlib.pyplot as plt
import statsmodels.formula.api as smf

from safeplot import qqplot, regplot, residplot
from safeplot.datasets import simulate

df = simulate("D2", n=500, seed=1234)
model = smf.ols("y ~ x", data=df).fit()

# %%
# Deterministic anonymisation and the size of k
# ----------------------------------------------
# The Q-Q points (theoretical quantile, sorted residual) are replaced by the
# centroids of their k nearest neighbours. With k = 3 the plot keeps its shape
# and the direction of the tails; as k grows the most extreme quantiles move
# towards the centre, and for k > 10 the tails all but vanish, as the paper
# reports. The reference line (``line="s"``: the residuals' SD and mean) is
# rounded to three significant figures and drawn over the released range.

fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), layout="constrained")
for ax, k in zip(axes, [3, 10, 50], strict=True):
    qqplot(model.resid, line="s", method="deterministic", k=k, ax=ax)
    ax.set_title(f"deterministic, k={k}")

# %%
# Other methods for the Q-Q plot
# ------------------------------
# Suppression keeps the cells of a grid of the Q-Q points with at least three
# points, one marker per cell sized by its count (the sparse tails go). The
# points lie on a curve, so the grid is as fine as the number of points
# allows: 30 x 30 from 360 points at a threshold of 3. Keyed noise
# can be added to the Q-Q points or, with ``noise_first=True``, to the
# residuals before they are sorted, which keeps a monotone line. The
# confidential method (O'Keefe) shows no points at all: a robust lowess line
# through the winsorised Q-Q points, its end points rounded.

variants = [
    ("suppress", {}),
    ("probabilistic", {}),
    ("probabilistic", {"noise_first": True}),
    ("confidential", {}),
]
fig, axes = plt.subplots(1, 4, figsize=(17, 4.2), layout="constrained")
for ax, (method, extra) in zip(axes, variants, strict=True):
    qqplot(model.resid, line="s", method=method, ax=ax, **extra)
    ax.set_title(method + (", noise first" if extra else ""))

# %%
# Residuals against the predictor, and the fitted line
# ----------------------------------------------------
# :func:`~safeplot.plots.regression.residplot` releases the points
# (x, residual); its lowess line is O'Keefe's trend with winsorised, rounded
# end points. :func:`~safeplot.plots.regression.regplot` releases the scatter
# and draws the fitted line and its bootstrap band only over the released
# range of x: seaborn would draw them to the raw minimum and maximum.

fig, axes = plt.subplots(2, 3, figsize=(13, 8), layout="constrained")
for col, method in enumerate(["deterministic", "generalize", "confidential"]):
    residplot(data=df, x="x", y="y", lowess=True, method=method, ax=axes[0, col])
    axes[0, col].set_title(f"residplot, {method}")
    regplot(data=df, x="x", y="y", order=2, n_boot=200, seed=0, method=method, ax=axes[1, col])
    axes[1, col].set_title(f"regplot (order=2), {method}")

plt.show()
