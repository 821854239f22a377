"""Image comparison (pytest-mpl) of qqplot, residplot and regplot, one panel per method.

Regenerate the baselines only on purpose (``pytest tests/test_images_regression.py
--mpl-generate-path=baseline_images``), look at the new PNGs, and say in the commit why they
changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.regression import qqplot, regplot, residplot

from .ledgers import alone

BASELINE = "../baseline_images"
METHODS = ("none", "suppress", "generalize", "deterministic", "probabilistic", "confidential")
COMPARE = {"baseline_dir": BASELINE, "style": "default", "savefig_kwargs": {"dpi": 50}}


def _panels():
    fig, axes = plt.subplots(2, 3, figsize=(12, 7.5), layout="constrained")
    return fig, axes.ravel()


@pytest.mark.mpl_image_compare(**COMPARE, tolerance=2)
def test_qqplot_methods():
    """Q-Q plot of the skewed D2 outcome: raw, grid cells, centroids, noise, smooth line."""
    df = simulate("D2", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fig, axes = _panels()
        for ax, method in zip(axes, METHODS, strict=True):
            with alone():
                qqplot(df["y"], line="s", method=method, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig


@pytest.mark.mpl_image_compare(**COMPARE, tolerance=2)
def test_residplot_methods():
    """Residuals of the D1 fit with a lowess line: raw, cells, centroids, noise, boxes."""
    df = simulate("D1", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fig, axes = _panels()
        for ax, method in zip(axes, METHODS, strict=True):
            with alone():
                residplot(data=df, x="x", y="y", lowess=True, method=method, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig


@pytest.mark.mpl_image_compare(**COMPARE, tolerance=2)
def test_regplot_methods():
    """D1 with the fitted line and its bootstrap band over the released x range."""
    df = simulate("D1", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fig, axes = _panels()
        for ax, method in zip(axes, METHODS, strict=True):
            with alone():
                regplot(data=df, x="x", y="y", method=method, n_boot=200, seed=0, ax=ax)
            ax.set_title(method, fontsize=10)
    return fig
