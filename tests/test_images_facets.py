"""Image comparison (pytest-mpl) of displot, relplot, catplot and lmplot on bundled data.

Regenerate the baselines only on purpose (``pytest tests/test_images_facets.py
--mpl-generate-path=baseline_images``), look at the new PNGs, and say in the commit why they
changed.
"""

import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.facets import catplot, displot, lmplot, relplot

BASELINE = "../baseline_images"
COMPARE = {
    "baseline_dir": BASELINE,
    "style": "default",
    "savefig_kwargs": {"dpi": 50},
    "tolerance": 2,
}


@pytest.mark.mpl_image_compare(**COMPARE)
def test_displot_facets_suppress():
    penguins = safeplot.load_dataset("penguins")
    with safeplot.policy(demo_policy()):
        g = displot(
            penguins,
            x="flipper_length_mm",
            col="species",
            hue="sex",
            method="suppress",
            height=2.5,
        )
    return g.figure


@pytest.mark.mpl_image_compare(**COMPARE)
def test_relplot_facets_deterministic():
    tips = safeplot.load_dataset("tips")
    with safeplot.policy(demo_policy()):
        g = relplot(
            tips,
            x="total_bill",
            y="tip",
            col="time",
            hue="sex",
            method="deterministic",
            height=2.5,
        )
    return g.figure


@pytest.mark.mpl_image_compare(**COMPARE)
def test_catplot_facets_box_confidential():
    penguins = safeplot.load_dataset("penguins")
    with safeplot.policy(demo_policy()):
        g = catplot(
            penguins,
            x="island",
            y="body_mass_g",
            col="sex",
            kind="box",
            method="confidential",
            height=2.5,
        )
    return g.figure


@pytest.mark.mpl_image_compare(**COMPARE)
def test_lmplot_facets_probabilistic():
    penguins = safeplot.load_dataset("penguins")
    with safeplot.policy(demo_policy()):
        g = lmplot(
            penguins,
            x="flipper_length_mm",
            y="body_mass_g",
            col="species",
            hue="sex",
            method="probabilistic",
            height=2.5,
            n_boot=100,
            seed=0,
        )
    return g.figure
