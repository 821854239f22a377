"""Image comparison (pytest-mpl) of kdeplot under every method, on the simulated D2 data.

Regenerate the baseline only on purpose (``pytest tests/test_images_kde.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.kde import kdeplot

from .ledgers import alone

BASELINE = "../baseline_images"
METHODS = ("suppress", "generalize", "deterministic", "probabilistic", "confidential")


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_kdeplot_methods():
    """Top: density of x; bottom: contours of (x, y). One column per method."""
    df = simulate("D2", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(2, len(METHODS), figsize=(17, 8), layout="constrained")
        for col, method in enumerate(METHODS):
            with alone():
                kdeplot(data=df, x="x", method=method, fill=True, ax=axes[0, col])
                kdeplot(data=df, x="x", y="y", method=method, ax=axes[1, col])
            axes[0, col].set_title(method, fontsize=10)
    return fig
