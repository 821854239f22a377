"""
Strip and swarm plots of anonymised values: ``stripplot`` and ``swarmplot``
===========================================================================

seaborn's strip and swarm plots draw one marker per record at its raw value.
:func:`safeplot.stripplot` and :func:`safeplot.swarmplot` draw one marker per
record too, but at a *released* value: by default the centroid of the record
and its ``k - 1`` nearest neighbours within its group (category x hue level;
Avraam et al.'s deterministic anonymisation), or the value plus keyed noise
(``method="probabilistic"``). seaborn then jitters or swarms only the
released values along the category axis. Under the default method a group
with fewer than ``threshold`` records (or fewer than the method's groups
need) is left out and not named. Under ``probabilistic`` each record is
drawn on its own, so leaving a small group out would let a reader difference
the figure against the same figure without the grouping: a small group is
refused instead, and the caller merges or filters it.

The data are simulated: length of stay by ward, and a ward with two
patients.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot

rng = np.random.default_rng(5)
ward = rng.choice(["A", "B", "C"], 150)
sex = rng.choice(["female", "male"], 150)
stay = np.round(rng.gamma(np.where(ward == "B", 6.0, 3.0), 1.5), 3)
wards = pd.concat(
    [
        pd.DataFrame({"ward": ward, "sex": sex, "stay": stay}),
        pd.DataFrame({"ward": ["E", "E"], "sex": "male", "stay": [31.906, 0.417]}),
    ],
    ignore_index=True,
)

# %%
# seaborn and safeplot side by side
# ---------------------------------
# Left, seaborn: every patient at their own length of stay, ward E's two
# patients among them. Right, safeplot: each value is the mean of three
# neighbouring patients of the same ward (coinciding centroids pile up in
# threes), and ward E is not drawn.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.stripplot(wards, x="ward", y="stay", ax=raw)
raw.set_title("seaborn (raw)")
safeplot.stripplot(wards, x="ward", y="stay", ax=safe)
safe.set_title("safeplot (deterministic, k=3)")
print(safe.safeplot_report.warnings)

# %%
# Swarms, hue and methods
# -----------------------
# ``swarmplot`` lays the released values out without overlap; with ``hue``
# the centroids are formed within each ward and sex. ``probabilistic`` adds
# keyed noise (SD 0.25 x the variable's SD) instead; larger ``k`` smooths
# more. Methods that leave values raw (suppression, winsorising) are refused.
# Ward E's two patients would be refused under ``probabilistic``, so that
# panel leaves the ward out of its data.

fig, axes = plt.subplots(1, 3, figsize=(15, 3.8), layout="constrained")
safeplot.swarmplot(wards, x="ward", y="stay", hue="sex", size=3, ax=axes[0])
axes[0].set_title("swarm, deterministic, k=3")
safeplot.stripplot(wards, x="ward", y="stay", k=6, ax=axes[1])
axes[1].set_title("strip, deterministic, k=6")
large_wards = wards[wards["ward"] != "E"]
safeplot.stripplot(large_wards, x="stay", y="ward", method="probabilistic", ax=axes[2])
axes[2].set_title("strip, probabilistic, horizontal")
plt.show()
