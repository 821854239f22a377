"""Image comparison (pytest-mpl) of the four binned plots drawn from a dask DataFrame.

The top row is drawn from a dask DataFrame of four partitions, the bottom row
from the same data in pandas: the two rows must look the same.

Regenerate the baseline only on purpose (``pytest tests/test_images_dask.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")

import safeplot  # noqa: E402
from safeplot.datasets import simulate  # noqa: E402
from safeplot.demo import demo_policy  # noqa: E402
from safeplot.plots.categorical import countplot  # noqa: E402
from safeplot.plots.distributions import histplot  # noqa: E402
from safeplot.plots.kde import kdeplot  # noqa: E402
from safeplot.plots.matrix import heatmap  # noqa: E402

BASELINE = "../baseline_images"


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_dask_binned_plots():
    """Histogram by group, generalised heat map, count plot and density; dask above pandas."""
    df = simulate("D1", n=3000, seed=7)
    df["group"] = np.where(df["x"] > 10.5, "high", np.where(df["x"] < 9.5, "low", "mid"))
    ddf = dd.from_pandas(df, npartitions=4)
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(2, 4, figsize=(16, 7), layout="constrained")
        for row, data in enumerate((ddf, df)):
            histplot(data, x="x", hue="group", hue_order=["low", "mid", "high"], ax=axes[row, 0])
            heatmap(data, x="x", y="y", method="generalize", bins=30, ax=axes[row, 1])
            countplot(data, x="group", order=["low", "mid", "high"], ax=axes[row, 2])
            kdeplot(data, x="y", method="suppress", fill=True, ax=axes[row, 3])
        titles = ["histplot", "heatmap", "countplot", "kdeplot"]
        for ax, title in zip(axes[0], titles, strict=True):
            ax.set_title(f"{title} (dask)", fontsize=10)
    return fig
