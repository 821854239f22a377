"""Image comparison (pytest-mpl) of heatmap: the density grid under each method, and a crosstab.

Regenerate the baseline only on purpose (``pytest tests/test_images_matrix.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.matrix import crosstab, heatmap

from .ledgers import alone

BASELINE = "../baseline_images"
METHODS = ("suppress", "generalize", "deterministic", "probabilistic")


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_heatmap_methods():
    """D2 (n=500) as a 30 x 30 density grid under each method, and tips' day x size table."""
    df = safeplot.datasets.simulate("D2", n=500, seed=1234)
    tips = safeplot.load_dataset("tips")
    fig, axes = plt.subplots(1, 5, figsize=(20, 4), layout="constrained")
    with safeplot.policy(demo_policy()):
        for ax, method in zip(axes, METHODS, strict=False):
            with alone():
                heatmap(data=df, x="x", y="y", method=method, bins=30, ax=ax)
            ax.set_title(method, fontsize=10)
        table = crosstab(tips, "day", "size", margins=True)
        heatmap(table, annot=True, fmt=".0f", cmap="mako", ax=axes[-1])
        axes[-1].set_title("crosstab(tips, 'day', 'size', margins=True)", fontsize=10)
    return fig
