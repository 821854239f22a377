"""
The "safe" projection: matplotlib calls, released data
======================================================

Scripts written against matplotlib's Axes (``ax.hist``, ``ax.scatter``,
``ax.boxplot``, ``ax.hexbin``, ``ax.hist2d``) become safe by changing one
argument: ``projection="safe"``. Each of these methods takes ``method=``
(and ``threshold``, ``k``, ``q``, ...), releases the data as safeplot's own
functions do, and returns what matplotlib returns, describing the released
plot. Methods that draw individual values (``plot``, ``bar``, ``errorbar``,
``imshow``, ...) raise :class:`~safeplot.errors.UnsafePlotError` naming the
safe alternative.

Below, the penguins data under the default policy: no panel is raw.
"""

import matplotlib.pyplot as plt

import safeplot

penguins = safeplot.load_dataset("penguins").dropna()

# %%
# Five matplotlib methods on SafeAxes
# -----------------------------------
# ``plt.subplots(subplot_kw={"projection": "safe"})`` gives SafeAxes. The
# histogram suppresses small bins, the scatter plot shows kNN centroids
# (Avraam et al.'s deterministic method), the box plots are O'Keefe's
# winsorised, rounded summaries, and the two density plots count records in
# the released grid with small cells suppressed.

fig, axes = plt.subplots(
    2, 3, figsize=(11, 6.5), layout="constrained", subplot_kw={"projection": "safe"}
)
n, bins, patches = axes[0, 0].hist("flipper_length_mm", data=penguins, bins=20)
axes[0, 0].set_title("hist: suppress", fontsize=10)

axes[0, 1].scatter(
    "flipper_length_mm", "body_mass_g", data=penguins, method="deterministic", k=5, s=8
)
axes[0, 1].set_title("scatter: deterministic (k=5)", fontsize=10)

parts = axes[0, 2].boxplot(penguins[["bill_length_mm", "bill_depth_mm"]], method="confidential")
axes[0, 2].set_title("boxplot: confidential", fontsize=10)

axes[1, 0].hexbin("flipper_length_mm", "body_mass_g", data=penguins, gridsize=12, cmap="Blues")
axes[1, 0].set_title("hexbin: suppress", fontsize=10)

h, xedges, yedges, mesh = axes[1, 1].hist2d(
    "flipper_length_mm", "body_mass_g", data=penguins, bins=12, method="generalize"
)
axes[1, 1].set_title("hist2d: generalize", fontsize=10)

# safeplot's seaborn-style functions draw onto a SafeAxes exactly as onto a
# plain Axes: their releases are not anonymised a second time.
safeplot.kdeplot(data=penguins, x="bill_length_mm", hue="species", ax=axes[1, 2])
axes[1, 2].set_title("safeplot.kdeplot on a SafeAxes", fontsize=10)
plt.show()

# %%
# What each panel released
# ------------------------
# Every Axes carries its report; the audit log has one entry per release,
# and :func:`safeplot.audit.summary` prints them for the output checker.

print(axes[0, 0].safeplot_report)
safeplot.audit.summary()

# %%
# Methods with no safe version are refused
# ----------------------------------------
# A line through individual records cannot be released; the error names
# what to use instead.

try:
    axes[0, 1].plot(penguins["flipper_length_mm"], penguins["body_mass_g"])
except safeplot.UnsafePlotError as err:
    print(err)
