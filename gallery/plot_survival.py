"""
Survival curves and Cox models: ``kmplot`` and ``safe_coxph``
=============================================================

A raw Kaplan-Meier curve steps down at every event time, each drop with the
number at risk gives the number of events there (often one), the curve ends
at the longest follow-up, and the at-risk table lists exact small counts.
:func:`safeplot.kmplot` draws the curve from a release instead: counts
rounded to fives on a fixed time grid, heights computed from those rounded
counts alone, and a stop before the end of follow-up. The Cox model and the
log-rank test are lifelines' (``pip install "safeplot[survival]"``).

Here the recidivism data of Rossi et al. (1980), which lifelines ships: 432
released prisoners followed for a year, ``week`` of arrest or of the end of
follow-up, ``arrest`` 1 if arrested, ``fin`` 1 for those given financial aid.
"""

import matplotlib.pyplot as plt
from lifelines import KaplanMeierFitter as RawKaplanMeierFitter
from lifelines.datasets import load_rossi

import safeplot

rossi = load_rossi()
rossi["aid"] = rossi["fin"].map({0: "no aid", 1: "financial aid"})

# %%
# The raw curve beside each method
# --------------------------------
# lifelines' raw curve (left) has a step at every week with an arrest and
# runs to week 52. ``suppress`` (the default) counts the arrests and those
# at risk on a grid of 2.5 weeks, rounds the counts to fives and computes the
# curve from them, so it drops only where the rounded arrests rise;
# ``generalize`` uses a grid twice as coarse; ``deterministic`` and
# ``probabilistic`` anonymise the weeks first (within arrested and not
# arrested); ``confidential`` winsorises them and draws a smooth line through
# rounded heights. Every safe curve stops before week 52.

methods = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]
fig, axes = plt.subplots(2, 3, figsize=(13, 7), sharey=True, layout="constrained")
raw_ax = axes.flat[0]
RawKaplanMeierFitter().fit(rossi["week"], rossi["arrest"]).plot_survival_function(
    ax=raw_ax, legend=False
)
raw_ax.set(title="raw (lifelines)", xlabel="week", ylabel="Survival probability", ylim=(0, 1.05))
for ax, method in zip(axes.flat[1:], methods, strict=True):
    safeplot.kmplot(rossi, duration="week", event="arrest", method=method, ax=ax)
    ax.set_title(method)

# %%
# By group, with the at-risk table
# --------------------------------
# One curve per ``hue`` level, each level with at least three arrests. The
# table under the axes gives the numbers at risk, censored and arrested up
# to each tick, rounded to fives (one or two round to 0).

fig, ax = plt.subplots(figsize=(7, 5.5), layout="constrained")
safeplot.kmplot(rossi, duration="week", event="arrest", hue="aid", at_risk_counts=True, ax=ax)

# %%
# Median survival and survival at fixed times
# -------------------------------------------
# Read from the released curves, so the times cannot probe where single
# arrests lie. Fewer than half were arrested within the year: no median.

print(
    safeplot.survival.survival_table(
        rossi, duration="week", event="arrest", hue="aid", times=[13, 26, 39]
    )
)

# %%
# A Cox model and the log-rank test
# ---------------------------------
# :func:`safeplot.safe_coxph` fits lifelines' ``CoxPHFitter`` and releases the
# coefficients, hazard ratios and intervals rounded to three significant
# figures (lifelines gives 0.684 for ``fin`` too); the log-rank test's
# statistic and p-value are rounded the same way.

fit = safeplot.safe_coxph(
    "fin + age + race + wexp + mar + paro + prio",
    data=rossi,
    duration_col="week",
    event_col="arrest",
)
print(fit.summary[["coef", "exp(coef)", "exp(coef) lower 95%", "exp(coef) upper 95%", "p"]])
print("concordance", fit.concordance_index_, "records", fit.nobs, "arrests", fit.events)

# %%
# The model's curves for a few numbers of prior convictions, the other
# covariates at their means: evaluated only at the released curve's drop
# times and rounded to 0.001, for values within the mean plus or minus two
# standard deviations of ``prio``.

fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
fit.plot_partial_effects_on_outcome("prio", [0, 2, 4, 8], palette="flare", ax=ax)

aid, none = rossi[rossi.fin == 1], rossi[rossi.fin == 0]
print(safeplot.survival.logrank_test(aid.week, none.week, aid.arrest, none.arrest))
plt.show()
