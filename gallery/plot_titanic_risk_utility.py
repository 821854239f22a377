"""
Risk and utility of deterministic anonymisation: the Titanic passengers
=======================================================================

Avraam, Jones & Burton (2022) demonstrate deterministic anonymisation on the
Titanic passengers: the continuous variables (age, fare) are replaced by
centroids of their k = 3 nearest neighbours *within* strata of the
categorical variables (class x sex x travelling with family), and the result
is judged by

* utility: the propensity score U (can a logistic model tell the anonymised
  records from the originals? 0 = no), the per-variable delta, and whether a
  logistic regression of survival gives the same coefficients;
* disclosure risk: sdcMicro's ``dRiskRMD`` measures risk1 (records whose
  anonymised value stays inside a narrow interval around the original) and
  risk2 (those that are also isolated from every other released record).

Missing ages are imputed by the median first, as in the paper. The numbers
describe the raw data: they are for choosing the method, not for release.

The second part sweeps k: risk (record linkage, interval disclosure) falls
and information loss rises as k grows. risk1 and risk2 count few records
here (many ages are the imputed median, so some centroids land on it) and
need not fall at every step. The main-effects U stays at 0 for
every k because the method keeps each variable's mean exactly; the
quadratic version U2 (squares and products in the propensity model) sees the
change.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import safeplot
import safeplot.assess
from safeplot import metrics
from safeplot.methods import anonymize_values

titanic = safeplot.load_dataset("titanic")
titanic["age"] = titanic["age"].fillna(titanic["age"].median())
titanic["family"] = (titanic["sibsp"] + titanic["parch"]) > 0
strata = ["pclass", "sex", "family"]

# %%
# Deterministic anonymisation with k = 3 within class x sex x family
# ------------------------------------------------------------------

codes = pd.MultiIndex.from_frame(titanic[strata]).factorize()[0]
values = np.ascontiguousarray(titanic[["age", "fare"]].to_numpy())  # one record per row
released = anonymize_values(values, "deterministic", k=3, strata=codes).values
anonymised = titanic.assign(age=released[:, 0], fare=released[:, 1])

original = titanic[["age", "fare"]]
masked = anonymised[["age", "fare"]]
risk = metrics.drisk_rmd(original, masked)
d = metrics.delta(original, masked)
print(f"U (main effects)      {metrics.propensity_utility(original, masked):.2e}")
print(f"U2 (with products)    {metrics.propensity_utility(original, masked, degree=2):.2e}")
print(f"delta_age             {d['age']:.4f}")
print(f"delta_fare            {d['fare']:.4f}")
print(f"risk1                 {risk.risk1:.4f}")
print(f"risk2                 {risk.risk2:.4f}")

# %%
# The logistic regression of survival, on the original and anonymised data:
# the standardised difference is ``|b_or - b_an| / SE(b_or)``; the overlap of the
# 95 % confidence intervals is Karr et al.'s measure (1 = identical).

formula = "survived ~ C(pclass) + sex + age + fare + family"
comparison = metrics.coefficient_comparison(formula, titanic, anonymised, family="logit")
print(comparison.round(4).to_string())

# %%
# Sweeping k: the risk-utility trade-off
# --------------------------------------

table = safeplot.assess(
    titanic,
    ["age", "fare"],
    strata=strata,
    sweep={"k": [3, 5, 10, 20]},
    formula=formula,
)
columns = ["k", "U", "U2", "delta_age", "delta_fare", "risk1", "risk2", "DDR", "IDR", "IL1s"]
print(table[[*columns, "max_std_diff"]].to_string(index=False, float_format="{:.4g}".format))

fig, axes = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
safeplot.assess.assess_plot(table, x="DDR", y="IL1s", ax=axes[0])
safeplot.assess.assess_plot(table, x="IDR", y="max_std_diff", ax=axes[1])
axes[1].set_title("Regression coefficients against interval disclosure")
plt.show()
