"""Image comparison (pytest-mpl) of O'Keefe's confidentialised outputs.

Parallel box plots (penguins, and a case that forces merging, with its note),
a confidential categorical box plot with an omitted box, a correspondence
plot, and a heat map of ``corr()``.

Regenerate a baseline only on purpose (``pytest tests/test_images_confidential.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it
changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.categorical import boxplot
from safeplot.plots.confidential import correspondenceplot, parallelboxplot
from safeplot.plots.matrix import heatmap
from safeplot.summaries import corr

BASELINE = "../baseline_images"
COMPARE = {
    "baseline_dir": BASELINE,
    "style": "default",
    "savefig_kwargs": {"dpi": 50},
    "tolerance": 2,
}


@pytest.mark.mpl_image_compare(**COMPARE)
def test_parallelboxplot_penguins():
    """Bill length by body mass: parallel boxes alone, and with hue and trend lines."""
    penguins = safeplot.load_dataset("penguins")
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    with safeplot.policy(demo_policy()):
        parallelboxplot(data=penguins, x="body_mass_g", y="bill_length_mm", ax=axes[0])
        parallelboxplot(
            data=penguins,
            x="body_mass_g",
            y="bill_length_mm",
            hue="species",
            trend=True,
            n_intervals=5,
            ax=axes[1],
        )
    return fig


@pytest.mark.mpl_image_compare(**COMPARE)
def test_parallelboxplot_forced_merge():
    """A zero-length half merges two intervals; one is left empty and the note says so."""
    rng = np.random.default_rng(5)
    parts = [
        (0.5, 19.5, 20),
        (20.5, 39.5, 15),
        (40.5, 59.5, 20),
        (60.5, 79.5, 25),
        (80.5, 99.5, 20),
    ]
    x = np.concatenate([rng.uniform(lo, hi, n) for lo, hi, n in parts])
    y = rng.normal(5, 2, 100).round(6)
    y[35:47] = 5.0
    fig, ax = plt.subplots(figsize=(6, 4.5), layout="constrained")
    with safeplot.policy(demo_policy()):
        parallelboxplot(x=x, y=y, n_intervals=5, ax=ax)
    return fig


@pytest.mark.mpl_image_compare(**COMPARE)
def test_confidential_boxplot_with_an_omitted_box():
    """Group b has a zero-length half: its box is not drawn, and the figure says why."""
    rng = np.random.default_rng(2)
    y = np.round(rng.normal(10, 2, 90), 2)
    y[30:50] = 9.0
    df = pd.DataFrame({"group": np.repeat(["a", "b", "c"], 30), "value": y})
    fig, ax = plt.subplots(figsize=(5, 4.5), layout="constrained")
    with safeplot.policy(demo_policy()):
        boxplot(df, x="group", y="value", method="confidential", ax=ax)
    return fig


@pytest.mark.mpl_image_compare(**COMPARE)
def test_correspondenceplot_tips():
    """Simple CA of day by party size, and MCA of day, time, sex and smoker."""
    tips = safeplot.load_dataset("tips")
    fig, axes = plt.subplots(1, 2, figsize=(11, 5), layout="constrained")
    with safeplot.policy(demo_policy()):
        correspondenceplot(tips, x="day", y="size", threshold=5, ax=axes[0])
        correspondenceplot(tips, vars=["day", "time", "sex", "smoker"], ax=axes[1])
    return fig


@pytest.mark.mpl_image_compare(**COMPARE)
def test_heatmap_of_corr():
    """Released correlations of the penguins' measurements, annotated."""
    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots(figsize=(6, 5), layout="constrained")
    with safeplot.policy(demo_policy()):
        heatmap(corr(penguins, numeric_only=True), annot=True, vmin=-1, vmax=1, cmap="vlag", ax=ax)
    return fig
