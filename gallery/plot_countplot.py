"""
Count plots: suppression, merging and rounding
==============================================

:func:`safeplot.countplot` is :func:`seaborn.countplot` with
a ``method=`` argument. The table of counts is released first and seaborn
draws only the released counts: every bar holds at least ``threshold``
records.

Here the party sizes of the ``tips`` data by time of day. Parties of one,
five and six are rare at lunch or dinner. Suppression (the default) removes
the bars with one or two parties, and then, by *secondary suppression*, the
bars that would give them back: a size left with one suppressed bar would
reveal it as its total (known from a plot without hue) minus the other bar.
Sizes left with nothing to show disappear from the axis, so no rare value is
ever a tick label. Generalisation instead merges the small sizes into one
"Other" category; the confidential method suppresses and then rounds every
count to a multiple of five.
"""

import matplotlib.pyplot as plt

import safeplot
from safeplot import countplot
from safeplot.plots.categorical import release_countplot

tips = safeplot.load_dataset("tips")
methods = ["suppress", "generalize", "confidential"]

fig, axes = plt.subplots(1, 3, figsize=(13, 4.5), sharey=True, layout="constrained")
for ax, method in zip(axes, methods, strict=True):
    countplot(tips, x="size", hue="time", method=method, legend=method == "suppress", ax=ax)
    ax.set_title(method)

# %%
# The released table
# ------------------
#
# :func:`~safeplot.plots.categorical.release_countplot` returns the counts
# drawn (NaN where suppressed) and a report saying how many bars were
# suppressed and how many of them only to protect the others.

release = release_countplot(tips, x="size", hue="time")
print(release.levels, release.hue_levels)
print(release.counts)
print(release.report)

# %%
# Percentages
# -----------
#
# ``stat="percent"`` (or ``"proportion"``) is computed from the shown
# counts only, which is what is released. A category holding more than 90%
# of the records is flagged (the dominance rule), with a note on the figure:
# here every party at the weekend dines in the evening.

fig, axes = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
countplot(tips, x="day", stat="percent", ax=axes[0])
weekend = tips[tips["day"].isin(["Sat", "Sun"])]
countplot(weekend, x="time", order=["Dinner"], ax=axes[1])
print(axes[1].safeplot_report.warnings)

# %%
# Secondary suppression can cost a lot: by day and time, Thursday's one
# dinner is suppressed, then Thursday's lunches (its row would give it back),
# then Friday's dinners (its column would), then Friday's lunches. Merging
# small categories, or a coarser variable, often shows more.

fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True, layout="constrained")
countplot(tips, x="day", hue="time", ax=axes[0])
countplot(tips, x="day", hue="time", method="generalize", legend=False, ax=axes[1])
print(axes[0].safeplot_report)
plt.show()
