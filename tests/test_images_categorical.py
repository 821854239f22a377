"""Image comparison (pytest-mpl) of boxplot and countplot, one panel per method.

Regenerate a baseline only on purpose (``pytest tests/test_images_categorical.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it
changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.categorical import boxplot, countplot

BASELINE = "../baseline_images"
COMPARE = {
    "baseline_dir": BASELINE,
    "style": "default",
    "savefig_kwargs": {"dpi": 50},
    "tolerance": 2,
}


@pytest.mark.mpl_image_compare(**COMPARE)
def test_boxplot_methods():
    """D2's y per third of x, with a random two-level hue, under each safe method."""
    df = simulate("D2", n=500, seed=1234)
    thirds = df["x"].rank(method="first") * 3 // (len(df) + 1)
    df["x third"] = pd.Categorical.from_codes(thirds.astype(int), ["low x", "mid x", "high x"])
    df["arm"] = np.where(np.random.default_rng(1234).random(len(df)) < 0.5, "A", "B")
    methods = ("suppress", "generalize", "deterministic", "probabilistic", "confidential")
    fig, axes = plt.subplots(1, len(methods), figsize=(16, 6), layout="constrained")
    with safeplot.policy(demo_policy()):
        for ax, method in zip(axes, methods, strict=True):
            boxplot(df, x="x third", y="y", hue="arm", hue_order=["A", "B"], method=method, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig


@pytest.mark.mpl_image_compare(**COMPARE)
def test_countplot_methods():
    """Party size by time of day (tips) under each method for counts."""
    tips = safeplot.load_dataset("tips")
    methods = ("suppress", "generalize", "confidential")
    fig, axes = plt.subplots(1, len(methods), figsize=(11, 4.5), layout="constrained")
    with safeplot.policy(demo_policy()):
        for ax, method in zip(axes, methods, strict=True):
            countplot(tips, x="size", hue="time", method=method, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig
