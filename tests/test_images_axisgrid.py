"""Image comparison (pytest-mpl) of pairplot and jointplot under every method, on simulated D1.

Regenerate the baselines only on purpose (``pytest tests/test_images_axisgrid.py
--mpl-generate-path=baseline_images``), look at the new PNGs, and say in the commit why they
changed.
"""

import numpy as np
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.axisgrid import jointplot, pairplot

BASELINE = "../baseline_images"
METHODS = (
    "suppress",
    "generalize",
    "deterministic",
    "probabilistic",
    "confidential",
    "microaggregation",
    "rounding",
)


def _data():
    df = simulate("D1", n=400, seed=7)
    rng = np.random.default_rng(7)
    df["z"] = np.round(0.6 * df["x"] - 0.3 * df["y"] + rng.normal(0, 0.8, len(df)), 3)
    df["group"] = rng.choice(["a", "b"], len(df))
    return df


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_pairplot_method(method):
    """x, y and a derived z with a two-level hue: one released data set per figure."""
    with safeplot.policy(demo_policy()):
        g = pairplot(_data(), vars=["x", "y", "z"], hue="group", method=method, height=1.8)
    return g.figure


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_jointplot_method(method):
    """Joint panel and marginals released together (sums of the grid, or the same points)."""
    with safeplot.policy(demo_policy()):
        g = jointplot(data=_data(), x="x", y="y", method=method, height=4.5)
    return g.figure
