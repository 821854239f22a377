"""
Every kind of ``catplot``, released per facet
=============================================

seaborn's ``catplot`` draws one axes-level categorical plot per facet.
:func:`safeplot.catplot` does the same with the safe functions: its default
``kind="strip"`` and ``kind="swarm"`` draw :func:`safeplot.stripplot` and
:func:`safeplot.swarmplot` (one anonymised value per record, formed within
each category x hue group of the facet), ``"violin"`` and ``"boxen"``
draw :func:`safeplot.violinplot` and :func:`safeplot.boxenplot`. Each facet
is released on its own; the facets then share axes whose limits and ticks
equal no rare raw value of any facet.
"""

import matplotlib.pyplot as plt
import seaborn as sns

import safeplot

tips = safeplot.load_dataset("tips")

# %%
# seaborn and safeplot, ``kind="strip"``
# --------------------------------------
# Top, seaborn: every bill at its raw tip. Bottom, safeplot: each tip is the
# centroid of three neighbouring tips of the same day and sex within the
# facet; the one dinner on a Thursday is left out.

g = sns.catplot(tips, x="day", y="tip", hue="sex", col="time", height=3, aspect=1.2)
g.figure.suptitle("seaborn (raw)", y=1.04)
g = safeplot.catplot(tips, x="day", y="tip", hue="sex", col="time", height=3, aspect=1.2)
g.figure.suptitle("safeplot (deterministic, k=3)", y=1.04)

# %%
# Swarms, violins and letter values
# ---------------------------------

g = safeplot.catplot(tips, x="day", y="tip", col="time", kind="swarm", size=3, height=3)
g = safeplot.catplot(tips, x="day", y="total_bill", col="time", kind="violin", height=3)
g = safeplot.catplot(
    tips, x="day", y="total_bill", col="time", kind="boxen", method="confidential", height=3
)
plt.show()
