"""
Letter-value plots of released quantiles: ``boxenplot``
=======================================================

seaborn's boxen plot draws nested boxes between the quartiles, eighths,
sixteenths, ... of each group's raw values, and every record beyond the
outermost box. :func:`safeplot.boxenplot` draws the same boxes between
*released* quantiles: of the kNN centroids by default, of the records in
the grid cells that survive small-cell suppression, or of winsorised
values, rounded and kept off rare raw values. seaborn's ``k_depth`` rule
chooses the number of boxes, capped so that the outermost box and the tail
beyond it each hold at least ``threshold`` records (``k_depth="full"``,
which reaches the extremes, is refused). Outliers are drawn only as
released anonymised values. A group with fewer than ``threshold`` records
is left out and not named.

The data are simulated: length of stay by ward, and a ward with two
patients.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

import safeplot

rng = np.random.default_rng(5)
ward = rng.choice(["A", "B", "C"], 600)
sex = rng.choice(["female", "male"], 600)
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
# Left, seaborn: each ward's boxes reach out to a few records, and each
# record beyond them is a marker; ward E is drawn from its two patients.
# Right, safeplot: the boxes end where at least three records lie beyond,
# the markers are released centroids, and ward E is left out.

fig, (raw, safe) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
sns.boxenplot(wards, x="ward", y="stay", ax=raw)
raw.set_title("seaborn (raw)")
safeplot.boxenplot(wards, x="ward", y="stay", ax=safe)
safe.set_title("safeplot (deterministic, k=3)")
print(safe.safeplot_report.warnings)

# %%
# Hue and methods
# ---------------
# Under ``"suppress"`` the quantiles are those of the records in grid cells
# holding at least ``threshold`` records, and no outliers are drawn;
# ``"confidential"`` takes them from winsorised values (O'Keefe).

fig, axes = plt.subplots(1, 3, figsize=(16, 3.8), layout="constrained")
safeplot.boxenplot(wards, x="ward", y="stay", hue="sex", ax=axes[0])
safeplot.move_legend(axes[0], "upper left", bbox_to_anchor=(1.08, 1), frameon=False)
axes[0].set_title("deterministic, hue")
safeplot.boxenplot(wards, x="ward", y="stay", method="suppress", ax=axes[1])
axes[1].set_title("suppress")
safeplot.boxenplot(wards, x="stay", y="ward", method="confidential", ax=axes[2])
axes[2].set_title("confidential, horizontal")
plt.show()
