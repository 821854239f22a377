"""Image comparison (pytest-mpl) of the regression diagnostics: Avraam et al.'s Figures 5-7.

Regenerate the baselines only on purpose (``pytest tests/test_images_diagnostics.py
--mpl-generate-path=baseline_images``), look at the new PNGs, and say in the commit why they
changed.
"""

import matplotlib.pyplot as plt
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import DEMO_METHODS, demo_policy, diagnostics_figure
from safeplot.diagnostics import safe_ols

BASELINE = "../baseline_images"
COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)


@COMPARE
@pytest.mark.parametrize("which", ["resid_fitted", "qq", "leverage"])
def test_paper_diagnostic_figures(which):
    """y ~ x on D1-D3 (rows) raw, suppressed, generalised, deterministic, probabilistic.

    Each figure is one row, (A), (B) or (C), of the paper's Figures 5 (D1), 6 (D2), 7 (D3).
    """
    with safeplot.policy(demo_policy()):
        return diagnostics_figure(which, DEMO_METHODS, n=500, seed=1234, figsize=(16.5, 8.1))


@COMPARE
@pytest.mark.parametrize("method", ["deterministic", "confidential"])
def test_plot_diagnostics_d2(method):
    """R's four panels for the misspecified linear model on D2 (a curved trend in panel one)."""
    df = simulate("D2", n=500, seed=1234)
    with safeplot.policy(demo_policy()):
        fit = safe_ols("y ~ x", data=df)
        fig = plt.figure(figsize=(9, 8), layout="constrained")
        return fit.plot_diagnostics(method=method, fig=fig)
