"""
Logistic regression: ``safe_logit`` and ``safe_glm``
====================================================

A logistic regression fitted to sensitive records releases its coefficients
and tests; its fitted probabilities, deviance residuals and predictions on
the training data are as sensitive as the outcomes themselves.
:func:`safeplot.diagnostics.safe_logit` (and :func:`~safeplot.diagnostics.safe_glm`
with the binomial family) fits the model with statsmodels' formula interface
and releases only rounded statistics, the same way
:func:`~safeplot.diagnostics.safe_ols` does for linear models.

The Titanic passenger list is public, but it is the kind of table a cohort
study holds: who survived, by sex, class and age.
"""

import matplotlib.pyplot as plt
import numpy as np

import safeplot
from safeplot import safe_logit
from safeplot.errors import DisclosureError

titanic = safeplot.load_dataset("titanic")
fit = safe_logit("survived ~ C(sex) + C(pclass) + age", data=titanic)

# %%
# The summary
# -----------
#
# Coefficients, standard errors, z statistics, p-values and confidence
# intervals are rounded to the policy's significant figures (three by
# default). Passengers without an age are dropped; the number of records
# used is rounded as counts are, so the table does not say exactly how
# many were dropped.

print(fit.summary())

# %%
# Odds ratios from the released coefficients
# ------------------------------------------
#
# Anything computed from the released numbers is as safe as they are. The
# odds ratios and their intervals below come from the rounded coefficients,
# so they carry that rounding and nothing more.

odds = np.exp(fit.params)
interval = np.exp(fit.conf_int())
table = interval.assign(odds_ratio=odds)[["odds_ratio", 0, 1]]
table.columns = ["odds ratio", "2.5 %", "97.5 %"]
print(table.round(3))

fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
terms = table.index[1:]
ax.errorbar(
    table.loc[terms, "odds ratio"],
    np.arange(len(terms)),
    xerr=[
        table.loc[terms, "odds ratio"] - table.loc[terms, "2.5 %"],
        table.loc[terms, "97.5 %"] - table.loc[terms, "odds ratio"],
    ],
    fmt="o",
    capsize=3,
)
ax.axvline(1, color="0.5", lw=0.8)
ax.set_xscale("log")
ax.set_yticks(np.arange(len(terms)), terms)
ax.set_xlabel("odds ratio of survival (log scale), from the released coefficients")

# %%
# What is not released
# --------------------
#
# Fitted probabilities, residuals, influence measures and predictions on the
# training data raise :class:`~safeplot.errors.DisclosureError`: a fitted
# probability next to the known covariates of one passenger is that
# passenger's record.

for name in ("fittedvalues", "resid_deviance"):
    try:
        getattr(fit, name)
    except DisclosureError as err:
        print(f"{name}: {str(err)[:110]} ...")

# %%
# Refused models
# --------------
#
# A model whose design is singular (here decks F and G, where no first-class
# passenger had a cabin), that separates the
# outcome perfectly, or that leaves fewer than ten residual degrees of
# freedom is refused with a message saying what to change, before anything
# is released.

first_class = titanic[titanic["pclass"] == 1]
try:
    safe_logit("survived ~ C(sex) + C(embark_town) + C(deck)", data=first_class)
except (DisclosureError, ValueError) as err:
    print(err)
