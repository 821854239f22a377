"""Image comparison (pytest-mpl) of rugplot: ticks at released values.

Regenerate a baseline only on purpose (``pytest tests/test_images_rug.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.distributions import histplot
from safeplot.plots.rug import rugplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


@COMPARE
def test_rugplot_methods():
    """Raw rug, then deterministic and probabilistic rugs under a suppressed histogram."""
    df = simulate("D2", n=300, seed=8)
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.6), layout="constrained")
        for ax, method in zip(axes, ("none", "deterministic", "probabilistic"), strict=True):
            histplot(df, x="x", ax=ax)
            rugplot(df, x="x", height=0.05, method=method, ax=ax)
            ax.set_title(method)
    return fig
