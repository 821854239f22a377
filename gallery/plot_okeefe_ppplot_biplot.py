"""
O'Keefe's P-P plot, biplot, ordinal boxes and chi-square test
=============================================================

Four more of O'Keefe's (2013) confidentialised outputs, each next to the raw
version it replaces (drawn here under a policy that allows raw output, as
only synthetic or public data should be):

* a P-P plot becomes a robust lowess line through the P-P points of the
  winsorised data, rounded, on a fixed grid of probabilities: no point;
  against a discrete distribution its Pearson chi-square is released
  rounded beside it, as O'Keefe does;
* a principal-components biplot keeps the variables' arrows (rounded
  correlations with the components) and shows groups by their mean scores,
  never a record's score;
* parallel box plots over an ordinal variable merge a level that is too small,
  or whose box has a zero-length half, with its neighbour, and leave its slot
  empty (her Figure 7b);
* a chi-square test is rounded, and refused when the table has small cells.
"""

import matplotlib.pyplot as plt
import pandas as pd
from scipy import stats

import safeplot
from safeplot import parallelboxplot
from safeplot.plots.okeefe import biplot, ppplot
from safeplot.summaries import chi2_contingency

penguins = safeplot.load_dataset("penguins")
tips = safeplot.load_dataset("tips")

# %%
# P-P plots
# ---------
#
# The bill lengths of the penguins against a normal distribution fitted to
# them. The raw plot draws one point per penguin; the confidentialised one a
# lowess line with three robustifying iterations through the P-P points of
# the winsorised values, released as rounded values at 0.01, 0.02, ..., 0.99.

fig, axes = plt.subplots(1, 2, figsize=(9, 4.2), layout="constrained")
with safeplot.policy(allow_raw=True):
    ppplot(penguins["bill_length_mm"], fit=True, line="45", ax=axes[0], method="none")
ppplot(penguins["bill_length_mm"], fit=True, line="45", ax=axes[1])
axes[0].set_title("raw (method='none')")
axes[1].set_title("confidential")
print(axes[1].safeplot_report.details["fitted_params"])

# %%
# A discrete variable: the party sizes of the tips data against a Poisson
# distribution with their mean (O'Keefe compares years of education with a
# Poisson distribution). Beside the curve, the report carries Pearson's
# goodness-of-fit chi-square, rounded: cells are party sizes pooled until each
# holds at least ``threshold`` records and expects at least 5.

fig, ax = plt.subplots(figsize=(4.5, 4.2), layout="constrained")
ppplot(tips["size"], stats.poisson, distargs=(2.57,), line="45", ax=ax)
details = ax.safeplot_report.details
ax.set_title(f"chi-square {details['chi2']:g} on {details['chi2_dof']} df")
print({key: details[key] for key in ("chi2", "chi2_pvalue", "chi2_dof")})

# %%
# Biplots
# -------
#
# The four measurements of the penguins. Raw, every penguin is a point at its
# scores; confidentialised, the variables are winsorised first, the arrows
# are rounded, and each species is one point at its mean score (a species of
# fewer than ``threshold`` penguins would be left out and not named).

fig, axes = plt.subplots(1, 2, figsize=(10, 4.6), layout="constrained")
with safeplot.policy(allow_raw=True):
    biplot(penguins, hue="species", ax=axes[0], method="none", legend=False)
biplot(penguins, hue="species", ax=axes[1])
axes[0].set_title("raw (method='none')")
axes[1].set_title("confidential")

# %%
# Parallel box plots over an ordinal variable
# -------------------------------------------
#
# Party size orders the tips data. Raw, the parties of one, five and six have
# a box each from four or five bills, outliers included; under a threshold of
# five, the parties of one and of six are merged with their neighbours, and
# their slots are left empty and unnamed.

fig, axes = plt.subplots(1, 2, figsize=(9, 4.2), layout="constrained")
with safeplot.policy(allow_raw=True):
    parallelboxplot(data=tips, x="size", y="total_bill", discrete=True, method="none", ax=axes[0])
parallelboxplot(data=tips, x="size", y="total_bill", discrete=True, threshold=5, ax=axes[1])
axes[0].set_title("raw (method='none')")
axes[1].set_title("confidential, threshold=5")
print(axes[1].safeplot_report.details["levels_merged"])

# %%
# An ordered categorical works the same way, and so does a variable given
# ``order=``; an unordered one is refused, because its boxes have no
# neighbours to merge with.

tips["day_ordered"] = pd.Categorical(
    tips["day"], categories=["Thur", "Fri", "Sat", "Sun"], ordered=True
)
fig, ax = plt.subplots(figsize=(5, 4), layout="constrained")
parallelboxplot(data=tips, x="day_ordered", y="tip", hue="smoker", ax=ax)
safeplot.move_legend(ax, "lower center", bbox_to_anchor=(0.5, 1.0), ncol=2, frameon=False)

# %%
# Chi-square tests
# ----------------
#
# The statistic and its p-value are rounded to the policy's three significant
# figures. The day against the time of the meal has a cell of one bill (one
# Thursday dinner): the test is refused, not computed on a suppressed table.

print(chi2_contingency(tips, "day", "smoker"))
print(stats.chi2_contingency(pd.crosstab(tips["day"], tips["smoker"]))[:3])
try:
    chi2_contingency(tips, "day", "time")
except safeplot.DisclosureError as err:
    print(err)
plt.show()
