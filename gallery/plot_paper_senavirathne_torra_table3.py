"""
Reproducing Senavirathne & Torra's Table 3 (MDAV on normal data)
================================================================

Senavirathne & Torra (2019), "Rounding based continuous data discretization
for statistical disclosure control", microaggregate synthetic data one
variable at a time and measure information loss (ILMetrics, IL1s) and
disclosure risk (IDR, DDR). Their Table 3 is for two independent standard
normal variables of 500 records (R's ``rnorm``), masked by univariate MDAV
with k = 167, 100, 50, 34, 25 and 20.

This page repeats that set-up with :func:`safeplot.anonymize.microaggregate`
(``algorithm="mdav"``, each variable on its own) and the measures of
:mod:`safeplot.metrics`, on 20 simulated data sets, and sets the mean and
spread beside the paper's one data set.

What matches and what differs, and why:

* **IDR** (:func:`~safeplot.metrics.interval_disclosure_risk`: the share of
  values whose original lies within 0.05 SD of the released value) matches
  at every k, within the spread of one data set.
* **IL1s** (:func:`~safeplot.metrics.il1s`) is on the tables' scale, a sum
  over the 1,000 values (the formula printed in the paper divides by
  :math:`mn`; its tables do not). It matches at k = 100, 50, 25 and 20. At
  k = 167 the paper's 404.89 lies about 9 SD above the simulation, and its
  optimal-microaggregation value for the same k (377.93) lies as far above
  the exact optimum of that set-up: with 500 records and k = 167 every
  method makes two groups, and no split into two groups of at least 167
  gives 405 on normal data. At k = 34 the paper's MDAV value (75.21) lies
  about 4 SD above; its optimal value at k = 34 (67.72) is what MDAV and the
  optimum give here. We have not found the cause; the test suite marks these
  two entries as known differences.
* **ILMetrics** (:func:`~safeplot.metrics.il_metrics`) is Domingo-Ferrer &
  Torra's: relative changes of the values, means and covariances. On
  centred, uncorrelated data the divisors (values, means and the covariance
  near 0) make it vary widely from one data set to the next, as the
  paper's own column does (35.85 at k = 167, then 44.73 at k = 100, then
  6.28). One data set's values cannot be reproduced; the table shows the
  median and the 10-90 % range of the simulation: the paper's values are of
  the same size and as irregular, and three of the six fall outside that
  range.
* **DDR** (:func:`~safeplot.metrics.distance_linkage`, each released record
  linked to its nearest original) comes out about twice the paper's column.
  Half of it is close to the paper's numbers, as if the paper divided the
  count of correct links by the number of values (1,000) instead of the
  number of records (500). safeplot keeps the fraction of records, which is
  what the text defines.

The IL-DR score, (ILMetrics + IL1s + DDR + IDR) / 4, is dominated by IL1s on
these scales, in the paper and here.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from safeplot import metrics
from safeplot.anonymize import microaggregate
from safeplot.policy import Policy

# Table 3, "MDAV normal": IL metrics, IL1s, IDR, DDR, IL-DR score
paper = pd.DataFrame(
    [
        (167, 35.85, 404.89, 0.05, 0.00, 110.20),
        (100, 44.73, 169.16, 0.12, 0.02, 53.51),
        (50, 6.28, 91.08, 0.31, 0.08, 24.44),
        (34, 8.44, 75.21, 0.41, 0.15, 21.05),
        (25, 5.31, 52.61, 0.54, 0.25, 14.68),
        (20, 3.24, 42.73, 0.68, 0.33, 11.75),
    ],
    columns=["k", "ILMetrics", "IL1s", "IDR", "DDR", "score"],
).set_index("k")

rng = np.random.default_rng(2019)
datasets = [rng.normal(0.0, 1.0, size=(500, 2)) for _ in range(20)]
policy = Policy()  # the default floors allow every k of the table

rows = []
for k in paper.index:
    for i, x in enumerate(datasets):
        masked = microaggregate(x, k, "mdav", policy=policy).values
        rows.append(
            {
                "k": k,
                "data set": i,
                "ILMetrics": metrics.il_metrics(x, masked).value,
                "IL1s": metrics.il1s(x, masked),
                "IDR": metrics.interval_disclosure_risk(x, masked),
                "DDR": metrics.distance_linkage(x, masked),
                "score": metrics.il_dr_score(x, masked),
            }
        )
sim = pd.DataFrame(rows)

# %%
# Paper and safeplot side by side
# -------------------------------
#
# IL1s, IDR and DDR: the simulated mean and SD (the spread of one data set).
# ILMetrics, heavy-tailed: the median and the 10-90 % range.

by_k = sim.groupby("k", sort=False)
side = pd.DataFrame(index=paper.index)
for name in ("IL1s", "IDR", "DDR"):
    side[f"{name} paper"] = paper[name]
    side[f"{name} safeplot"] = by_k[name].mean().round(3)
    side[f"{name} SD"] = by_k[name].std().round(3)
side["DDR safeplot / 2"] = (side["DDR safeplot"] / 2).round(3)
side["IL1s z"] = ((side["IL1s paper"] - side["IL1s safeplot"]) / side["IL1s SD"]).round(1)
print(side.to_string())

ilm = pd.DataFrame(
    {
        "ILMetrics paper": paper["ILMetrics"],
        "safeplot median": by_k["ILMetrics"].median().round(2),
        "safeplot 10%": by_k["ILMetrics"].quantile(0.1).round(2),
        "safeplot 90%": by_k["ILMetrics"].quantile(0.9).round(2),
        "score paper": paper["score"],
        "score safeplot": by_k["score"].median().round(2),
    }
)
print(ilm.to_string())

# %%
# IL1s and IDR against k
# ----------------------
#
# The band is the simulated mean +- 3 SD; the dots are the paper's values.

fig, axes = plt.subplots(1, 2, figsize=(8, 3.4), layout="constrained")
ks = paper.index.to_numpy()
for ax, name in zip(axes, ("IL1s", "IDR"), strict=True):
    mean, sd = by_k[name].mean().to_numpy(), by_k[name].std().to_numpy()
    ax.fill_between(ks, mean - 3 * sd, mean + 3 * sd, alpha=0.3, label="safeplot, mean +- 3 SD")
    ax.plot(ks, mean, color="C0")
    ax.plot(ks, paper[name], "o", color="C3", label="Senavirathne & Torra")
    ax.set_xlabel("k (records per group)")
    ax.set_title(name)
axes[1].legend(loc="upper right", fontsize="small")
plt.show()
