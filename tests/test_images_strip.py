"""Image comparison (pytest-mpl) of stripplot and swarmplot of anonymised values.

Regenerate a baseline only on purpose (``pytest tests/test_images_strip.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.strip import stripplot, swarmplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


def _wards() -> pd.DataFrame:
    """Length of stay by ward and sex; ward "E" has two patients."""
    rng = np.random.default_rng(5)
    ward = rng.choice(["A", "B", "C"], 150)
    sex = rng.choice(["female", "male"], 150)
    stay = np.round(rng.gamma(np.where(ward == "B", 6.0, 3.0), 1.5), 3)
    small = pd.DataFrame({"ward": ["E", "E"], "sex": "male", "stay": [31.906, 0.417]})
    return pd.concat(
        [pd.DataFrame({"ward": ward, "sex": sex, "stay": stay}), small], ignore_index=True
    )


@COMPARE
def test_stripplot_swarmplot_methods():
    """Raw strip, deterministic strip (dodged hue), probabilistic strip, deterministic swarm."""
    df = _wards()
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), layout="constrained")
        np.random.seed(0)  # noqa: NPY002 (seaborn jitters with the global generator)
        stripplot(df, x="ward", y="stay", method="none", ax=axes[0])
        axes[0].set_title("none")
        np.random.seed(0)  # noqa: NPY002
        stripplot(df, x="ward", y="stay", hue="sex", dodge=True, ax=axes[1])
        axes[1].set_title("deterministic")
        np.random.seed(0)  # noqa: NPY002
        # keyed noise draws each record as the plot without x= would: ward E's two patients
        # cannot be left out of it (the difference would show them), so they are filtered out
        stripplot(df[df["ward"] != "E"], x="ward", y="stay", method="probabilistic", ax=axes[2])
        axes[2].set_title("probabilistic")
        swarmplot(df, x="ward", y="stay", hue="sex", size=3, ax=axes[3])
        axes[3].set_title("deterministic (swarm)")
    return fig
