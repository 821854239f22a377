"""Image comparison (pytest-mpl) of histplot with bins on a log scale.

Regenerate a baseline only on purpose (``pytest tests/test_images_histplot_log.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.distributions import histplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


@COMPARE
def test_histplot_log_scale_methods():
    """Raw log-binned histogram, then suppress, deterministic with hue, generalize on y."""
    rng = np.random.default_rng(4)
    df = pd.DataFrame(
        {
            "income": np.round(rng.lognormal(10, 1, 600), 2),
            "sector": rng.choice(["public", "private"], 600),
        }
    )
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(18, 3.6), layout="constrained")
        histplot(df, x="income", log_scale=True, method="none", ax=axes[0])
        axes[0].set_title("none")
        histplot(df, x="income", log_scale=True, ax=axes[1])
        axes[1].set_title("suppress")
        histplot(
            df, x="income", hue="sector", log_scale=True, method="deterministic",
            element="step", ax=axes[2],
        )  # fmt: skip
        safeplot.move_legend(axes[2], "upper left", bbox_to_anchor=(1.08, 1), frameon=False)
        axes[2].set_title("deterministic")
        histplot(df, y="income", log_scale=2, method="generalize", kde=True, ax=axes[3])
        axes[3].set_title("generalize (base 2)")
    return fig
