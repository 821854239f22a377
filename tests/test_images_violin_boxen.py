"""Image comparison (pytest-mpl) of violinplot and boxenplot of released numbers.

Regenerate a baseline only on purpose (``pytest tests/test_images_violin_boxen.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.boxen import boxenplot
from safeplot.plots.violin import violinplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


def _wards() -> pd.DataFrame:
    """Length of stay by ward and sex; ward "E" has two patients."""
    rng = np.random.default_rng(5)
    ward = rng.choice(["A", "B", "C"], 300)
    sex = rng.choice(["female", "male"], 300)
    stay = np.round(rng.gamma(np.where(ward == "B", 6.0, 3.0), 1.5), 3)
    small = pd.DataFrame({"ward": ["E", "E"], "sex": "male", "stay": [31.906, 0.417]})
    return pd.concat(
        [pd.DataFrame({"ward": ward, "sex": sex, "stay": stay}), small], ignore_index=True
    )


@COMPARE
def test_violinplot_methods():
    """Raw violins, then deterministic (hue), confidential quartiles, suppress, sticks."""
    df = _wards()
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 5, figsize=(20, 3.8), layout="constrained")
        violinplot(df, x="ward", y="stay", method="none", ax=axes[0])
        axes[0].set_title("none")
        violinplot(df, x="ward", y="stay", hue="sex", ax=axes[1])
        axes[1].set_title("deterministic")
        # beside the axes, clear of the violins and of the method note
        safeplot.move_legend(axes[1], "upper left", bbox_to_anchor=(1.08, 1), frameon=False)
        violinplot(df, x="ward", y="stay", method="confidential", inner="quart", ax=axes[2])
        axes[2].set_title("confidential (quart)")
        violinplot(df, x="ward", y="stay", method="generalize", bins=20, ax=axes[3])
        axes[3].set_title("generalize")
        violinplot(df, x="stay", y="ward", method="probabilistic", inner="stick", ax=axes[4])
        axes[4].set_title("probabilistic (stick)")
    return fig


@COMPARE
def test_boxenplot_methods():
    """Raw boxen, then deterministic (hue), suppress, confidential, probabilistic horizontal."""
    df = _wards()
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 5, figsize=(20, 3.8), layout="constrained")
        boxenplot(df, x="ward", y="stay", method="none", ax=axes[0])
        axes[0].set_title("none")
        boxenplot(df, x="ward", y="stay", hue="sex", ax=axes[1])
        axes[1].set_title("deterministic")
        safeplot.move_legend(axes[1], "upper left", bbox_to_anchor=(1.08, 1), frameon=False)
        boxenplot(df, x="ward", y="stay", method="suppress", bins=20, ax=axes[2])
        axes[2].set_title("suppress")
        boxenplot(df, x="ward", y="stay", method="confidential", ax=axes[3])
        axes[3].set_title("confidential")
        boxenplot(df, x="stay", y="ward", method="probabilistic", k_depth="proportion", ax=axes[4])
        axes[4].set_title("probabilistic (proportion)")
    return fig


@COMPARE
def test_catplot_strip_swarm_facets():
    """catplot's default kind (strip) per facet, hue dodged; the small ward left out."""
    df = _wards()
    df["unit"] = np.where(df.index % 3 == 0, "day", "night")
    with safeplot.policy(demo_policy()):
        np.random.seed(0)  # noqa: NPY002 (seaborn jitters with the global generator)
        g = safeplot.catplot(
            df, x="ward", y="stay", hue="sex", col="unit", dodge=True, height=3, aspect=1.2
        )
    return g.figure


@COMPARE
def test_displot_rug_facets():
    """displot(rug=True): each facet's suppressed histogram with its released rug."""
    df = _wards()
    with safeplot.policy(demo_policy()):
        g = safeplot.displot(
            df[df["ward"] != "E"],
            x="stay",
            col="ward",
            rug=True,
            rug_kws={"height": 0.08, "color": "0.2"},
            height=2.6,
            aspect=1.1,
        )
    return g.figure
