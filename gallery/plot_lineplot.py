"""
Line plots of an estimate per x value: ``lineplot``
===================================================

:func:`safeplot.lineplot` is :func:`seaborn.lineplot` with a ``method=``
argument. seaborn draws, at each x value, the mean of the records there and
a band around it. At an x value held by one or two records the "mean" is
their value, and for a continuous x that is every x value: the raw line runs
through the records themselves.

safeplot draws a point only where at least ``threshold`` records (three by
default) stand behind it, rounds each estimate and band end to three
significant figures, and says under the x-axis how many x values it left
out. A continuous x is first cut into the bins :func:`safeplot.histplot`
would use, and each bin is drawn at its centre.

The data here are simulated: a trial of two arms measured at monthly visits,
and the continuous D2 data of Avraam et al.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot
from safeplot.datasets import simulate

rng = np.random.default_rng(7)
visits = pd.DataFrame(
    {
        "month": np.tile(np.arange(7.0), 60),
        "arm": np.repeat(["placebo", "treated"], 7 * 30),
    }
)
drift = np.where(visits["arm"] == "treated", -0.6, -0.1)
visits["score"] = np.round(50 + drift * visits["month"] + rng.normal(0, 2, len(visits)), 3)
# two treated patients came back for a late visit: their scores are their own
late = pd.DataFrame({"month": [9.0, 9.0], "arm": "treated", "score": [38.4, 44.9]})
visits = pd.concat([visits, late], ignore_index=True)

# %%
# A discrete x: monthly visits
# ----------------------------
# Left, seaborn's raw plot: the treated line reaches month 9, where the
# "mean" is the score of two patients. Right, safeplot: the same means and
# 95% bootstrap bands, rounded, and month 9 left out with a note.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.lineplot(visits, x="month", y="score", hue="arm", seed=0, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.lineplot(visits, x="month", y="score", hue="arm", seed=0, ax=safe)
safe.set_title("safeplot (suppress)")
print(safe.safeplot_report.warnings)

# %%
# A continuous x: binned first
# ----------------------------
# Every x value of the D2 data is held by one record, so seaborn's line
# (left) passes through every record. safeplot bins x on the histogram's
# safe grid (edges and centres clear of rare values) and draws the mean of y
# in each bin with at least three records; the band is mean +/- 1 SE.

d2 = simulate("D2", n=400, seed=3)
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.lineplot(d2, x="x", y="y", errorbar=("se", 1), ax=raw)
raw.set_title("seaborn (raw)")
safeplot.lineplot(d2, x="x", y="y", errorbar=("se", 1), ax=safe)
safe.set_title("safeplot (suppress)")

# %%
# Methods
# -------
# The estimates are released as :func:`safeplot.barplot` releases a group's
# (the x value is the group): from the raw values (``suppress``), from
# values winsorised at 2.6 SD (``confidential``), or from values anonymised
# within each point's records (``deterministic``: kNN centroids of three;
# ``probabilistic``: keyed noise). The estimator is ``"mean"`` or
# ``"median"``; ``estimator=None`` and ``units=`` (one line per record or
# unit) are refused, and the band comes from a fixed menu of levels.

methods = ["suppress", "confidential", "deterministic", "probabilistic"]
fig, axes = plt.subplots(1, 4, figsize=(16, 3.6), layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    safeplot.lineplot(
        visits, x="month", y="score", hue="arm", errorbar=("pi", 50), method=method, ax=ax
    )
    ax.set_title(method)

# %%
# Wide-form data and facets
# -------------------------
# A wide table gets one line per numeric column against its index (binned
# like any continuous x); ``relplot(kind="line")`` releases a line plot per
# facet.

walks = pd.DataFrame(rng.normal(size=(120, 3)).cumsum(axis=0), columns=["a", "b", "c"])
fig, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
safeplot.lineplot(walks, errorbar=("sd", 1), ax=ax)

g = safeplot.relplot(
    visits, x="month", y="score", col="arm", kind="line", errorbar=("se", 2), height=3
)
plt.show()

# %%
# Line widths per level, and dates on x
# -------------------------------------
# ``size=`` groups the release by its levels as ``hue=`` and ``style=`` do,
# and draws seaborn's widths, with a size section in the legend. A date
# column (or a DatetimeIndex of a wide table) is released as date numbers,
# binned like any continuous x when too few records share a date, and drawn
# on matplotlib's date axis. Left, seaborn's raw weekly series; right,
# safeplot's, binned so that each point averages at least three days.

visits["site"] = np.where(np.arange(len(visits)) % 2 == 0, "north", "south")
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.lineplot(visits, x="month", y="score", hue="arm", size="site", seed=0, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.lineplot(visits, x="month", y="score", hue="arm", size="site", seed=0, ax=safe)
safe.set_title("safeplot (suppress)")

days = pd.date_range("2024-01-01", periods=120, freq="D")
daily = pd.DataFrame(
    rng.normal(size=(120, 2)).cumsum(axis=0).round(2), index=days, columns=["ward a", "ward b"]
)
fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.lineplot(daily, ax=raw)
raw.set_title("seaborn (raw)")
safeplot.lineplot(daily, ax=safe)
safe.set_title("safeplot (suppress)")
fig.autofmt_xdate()  # matplotlib's slanted date labels, clear of each other
plt.show()
