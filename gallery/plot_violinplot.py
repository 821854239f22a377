"""
Violin plots of released densities: ``violinplot``
==================================================

seaborn's violin plot draws, for each group, a kernel density of the raw
values that runs two bandwidths past the smallest and largest value, with
the raw quartiles and whiskers inside. :func:`safeplot.violinplot` draws
per group the density :func:`safeplot.kdeplot` releases under the same
method -- of the kNN centroids by default, of the shown bins of a
suppressed histogram, or of winsorised values over a rounded range -- with
kdeplot's bandwidth floor and menu of grid sizes, and cuts it at the
released range (seaborn's ``cut=0`` on released numbers). The inner box and
quartiles are :func:`safeplot.boxplot`'s released statistics; sticks and
points are drawn only of values anonymised per record. A group with fewer
than ``threshold`` records is left out and not named.

The data are simulated: length of stay by ward, and a ward with two
patients.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot

rng = np.random.default_rng(5)
ward = rng.choice(["A", "B", "C"], 300)
sex = rng.choice(["female", "male"], 300)
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
# Left, seaborn: ward E's violin is drawn from its two patients, and every
# violin's tails reach past the longest and shortest stays. Right, safeplot:
# each violin is the density of the released centroids, ending at their
# range; ward E is left out, and a note under the axis says that a group
# was.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.violinplot(wards, x="ward", y="stay", ax=raw)
raw.set_title("seaborn (raw)")
safeplot.violinplot(wards, x="ward", y="stay", ax=safe)
safe.set_title("safeplot (deterministic, k=3)")
print(safe.safeplot_report.warnings)

# %%
# Inner marks, hue and methods
# ----------------------------
# With ``hue`` the densities are released per ward and sex. ``inner="quart"``
# under ``"confidential"`` draws O'Keefe's rounded quartiles; ``"generalize"``
# estimates each density from the shown bins of a coarsened histogram;
# ``inner="stick"`` draws each released value, and is refused under methods
# that do not anonymise every value.

fig, axes = plt.subplots(1, 3, figsize=(16, 3.8), layout="constrained")
safeplot.violinplot(wards, x="ward", y="stay", hue="sex", ax=axes[0])
safeplot.move_legend(axes[0], "upper left", bbox_to_anchor=(1.08, 1), frameon=False)
axes[0].set_title("deterministic, hue")
safeplot.violinplot(wards, x="ward", y="stay", method="confidential", inner="quart", ax=axes[1])
axes[1].set_title("confidential, quartiles")
safeplot.violinplot(wards, x="stay", y="ward", method="probabilistic", inner="stick", ax=axes[2])
axes[2].set_title("probabilistic, sticks")
plt.show()
