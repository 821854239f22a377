"""Image comparison (pytest-mpl) of large-n rendering: one marker per distinct released point.

Regenerate the baseline only on purpose (``pytest tests/test_images_large_n.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.relational import scatterplot

BASELINE = "../baseline_images"


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_large_deterministic_scatter():
    """120,000 rounded records: rasterised centroids, each drawn once in its seaborn colour."""
    rng = np.random.default_rng(2)
    x = np.round(rng.normal(50, 10, 120_000), 1)
    df = pd.DataFrame({"x": x, "y": np.round(0.5 * x + rng.normal(0, 5, x.size), 1)})
    df["g"] = np.where(np.arange(len(df)) % 2 == 0, "a", "b")
    with safeplot.policy(demo_policy()):
        fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4), layout="constrained")
        scatterplot(data=df, x="x", y="y", method="deterministic", ax=left)
        scatterplot(data=df, x="x", y="y", hue="g", method="deterministic", ax=right)
        left.set_title("deterministic", loc="left", fontsize=10)
        right.set_title("deterministic, hue", loc="left", fontsize=10)
    return fig
