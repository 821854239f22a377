"""Image comparison of barplot and ecdfplot under their main methods (pytest-mpl)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

import safeplot
import safeplot.demo
from safeplot.plots.bar import barplot
from safeplot.plots.ecdf import ecdfplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


@COMPARE
def test_barplot_methods():
    tips = safeplot.load_dataset("tips")
    with safeplot.policy(safeplot.demo.demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(14, 3.5), layout="constrained")
        for ax, method in zip(
            axes, ("none", "suppress", "generalize", "confidential"), strict=True
        ):
            barplot(tips, x="size", y="tip", errorbar=("se", 1), method=method, seed=0, ax=ax)
            ax.set_title(method)
    return fig


@COMPARE
def test_ecdfplot_methods():
    penguins = safeplot.load_dataset("penguins")
    with safeplot.policy(safeplot.demo.demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(14, 3.5), layout="constrained")
        for ax, method in zip(
            axes, ("none", "suppress", "deterministic", "confidential"), strict=True
        ):
            ecdfplot(penguins, x="body_mass_g", hue="species", method=method, ax=ax)
            ax.set_title(method)
    return fig
