"""Image comparison (pytest-mpl) against baseline_images/: the demo's method grids.

Regenerate a baseline only on purpose (``pytest tests/test_images.py --mpl-generate-path=
baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import pytest

import safeplot
from safeplot.demo import DEMO_METHODS, _demo_figure, _penguins_figure, demo_policy

BASELINE = "../baseline_images"


@pytest.mark.parametrize("name", ["D1", "D2", "D3"])
@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_method_grid(name):
    """Every plot family of Avraam et al.'s Figures 1-4 (histograms of x and y, scatter, heat
    map, contours of the density grid, box plots of x and y) under every method."""
    with safeplot.policy(demo_policy()):
        return _demo_figure(name, DEMO_METHODS, n=500, seed=1234)


@pytest.mark.mpl_image_compare(
    baseline_dir=BASELINE, style="default", savefig_kwargs={"dpi": 50}, tolerance=2
)
def test_penguins_families():
    """The six plot families on a real data set under the default policy (no raw panels)."""
    return _penguins_figure()
