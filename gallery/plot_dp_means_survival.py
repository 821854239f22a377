"""
Differential privacy for means and survival curves
==================================================

``method="dp"`` goes beyond counts. A bar plot's means are released as a
noisy sum of the values, clipped to bounds fixed before the data is read,
over a noisy count; a Kaplan-Meier curve is computed from noisy numbers of
events and censorings per bin of a fixed time grid. Both spend ``epsilon``
from the policy's ``dp_budget``; with ``mechanism="gaussian"`` they add
discrete Gaussian noise instead of Laplace noise and also spend ``delta``
from ``dp_delta_budget``. All noise is drawn by OpenDP.

Top: the penguins' mean body mass per island, under suppression and under
differential privacy at epsilon 0.2 (Laplace) and 1 (Gaussian, delta
1e-6). The bounds (2000 to 7000 g) come from knowledge of the species, not
from the data; the error bars of the DP panels are the 95% interval of the
noise alone.

Bottom: the Rossi recidivism data, time to re-arrest by financial aid,
under rounding (``"suppress"``) and under differential privacy on a public
weekly grid (0 to 52 weeks). The DP curve is non-increasing and stays in
[0, 1] whatever the noise; its band adds the noise, simulated with OpenDP,
to Greenwood's sampling variance.
"""

import matplotlib.pyplot as plt
from lifelines.datasets import load_rossi

import safeplot

penguins = safeplot.load_dataset("penguins")
rossi = load_rossi()
islands = ["Biscoe", "Dream", "Torgersen"]
bars = [
    ("suppress", {}),
    ("dp", {"epsilon": 0.2, "bounds": (2000, 7000)}),
    ("dp", {"epsilon": 1.0, "bounds": (2000, 7000), "mechanism": "gaussian", "delta": 1e-6}),
]

fig, axes = plt.subplots(2, 3, figsize=(13, 7), layout="constrained")
for ax, (method, extra) in zip(axes[0], bars, strict=True):
    safeplot.barplot(
        data=penguins,
        x="island",
        y="body_mass_g",
        order=islands,
        errorbar=("ci", 95),
        method=method,
        ax=ax,
        **extra,
    )
    title = method
    if extra:
        title = f"dp, {extra.get('mechanism', 'laplace')}, epsilon={extra['epsilon']:g}"
    ax.set_title(title)

for ax, (method, extra) in zip(
    axes[1],
    [
        ("suppress", {}),
        ("dp", {"epsilon": 0.5, "binrange": (0, 52), "bins": 20}),
        ("dp", {"epsilon": 1.0, "binrange": (0, 52), "bins": 20}),
    ],
    strict=True,
):
    safeplot.kmplot(
        rossi,
        duration="week",
        event="arrest",
        hue="fin",
        hue_order=[0, 1],
        method=method,
        ax=ax,
        **extra,
    )
    ax.set_title(method if not extra else f"dp, epsilon={extra['epsilon']:g}")

# %%
# The budget, spent
# -----------------
#
# Every DP release is in the audit log with its epsilon, delta and
# mechanism; the ledger keeps the totals. Here: 0.2 + 1 + 0.5 + 1 = 2.7 of
# the default budget of 3, and a delta of 1e-6 of 1e-5.

print(safeplot.audit.budget_spent())
print(safeplot.ledger.current().delta_spent())
print(axes[0, 2].safeplot_report.warnings[0])
print(axes[1, 2].safeplot_report.details["band"])
