"""Image comparison (pytest-mpl) of scatterplot under every method, on the simulated D2 data.

Regenerate the baseline only on purpose (``pytest tests/test_images_relational.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.relational import scatterplot

from .ledgers import alone

BASELINE = "../baseline_images"
METHODS = ("suppress", "generalize", "deterministic", "probabilistic", "confidential")


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_scatterplot_methods():
    """One panel per method: grid cells, centroids (shared ones black), noise, parallel boxes."""
    df = simulate("D2", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, len(METHODS), figsize=(17, 4.6), layout="constrained")
        for ax, method in zip(axes, METHODS, strict=True):
            with alone():
                scatterplot(data=df, x="x", y="y", method=method, mark_coincident=True, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig
