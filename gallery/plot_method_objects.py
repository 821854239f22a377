"""
Methods as objects: the registry behind ``method=``
===================================================

``method=`` takes a name (``"deterministic"``) or a method object that carries
its parameters, as scikit-learn estimators do:
``method=Microaggregation(k=5, algorithm="mdav")`` is the same release as
``method="microaggregation", k=5, algorithm="mdav"``. An object is checked
against the policy's floors like the keywords are, and giving a parameter both
ways with different values is an error.

Every method is a module of :mod:`safeplot.methods` and says what it can
release. The plots ask the method, never its name, which is why the same
``method=`` means the same thing in every plot.
"""

import matplotlib.pyplot as plt
import pandas as pd

import safeplot
from safeplot.methods import Deterministic, Microaggregation, available_methods

penguins = safeplot.load_dataset("penguins")

fig, axes = plt.subplots(1, 2, figsize=(9, 4), sharex=True, sharey=True, layout="constrained")
for ax, method in zip(axes, [Deterministic(k=5), Microaggregation(k=5)], strict=True):
    safeplot.scatterplot(
        data=penguins,
        x="flipper_length_mm",
        y="body_mass_g",
        hue="species",
        method=method,
        ax=ax,
        legend=ax is axes[1],
    )
    ax.set_title(repr(method))

# %%
# What each method releases
# -------------------------
# The capabilities the plots read. A method that moves values releases
# points, and histograms and densities of those points; a method of counts
# releases histograms, grids and bars; O'Keefe's rules release winsorised
# values and rounded summaries, and draw boxes where others draw points.
# Methods that group within strata form their groups within each hue level,
# so a hue level needs ``max(threshold, k)`` records.

pd.DataFrame(
    [
        {
            "method": m.name,
            "releases": m.family,
            "groups within hue levels": m.groups_within_strata,
            "parameters": ", ".join(m.param_names) or "-",
            "what it does": m.summary,
        }
        for m in available_methods()
    ]
)
