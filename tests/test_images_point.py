"""Image comparison (pytest-mpl) of pointplot under its main methods, on simulated data.

Regenerate a baseline only on purpose (``pytest tests/test_images_point.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.demo import demo_policy
from safeplot.plots.point import pointplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


def _clinics() -> pd.DataFrame:
    """Blood pressure by clinic and sex; clinic "E" has two patients, both women."""
    rng = np.random.default_rng(11)
    clinic = rng.choice(["A", "B", "C", "D"], 300)
    sex = rng.choice(["female", "male"], 300)
    shift = pd.Series(clinic).map({"A": 0, "B": 4, "C": -3, "D": 7}).to_numpy()
    bp = np.round(128 + shift + np.where(sex == "male", 5, 0) + rng.normal(0, 9, 300), 3)
    frame = pd.DataFrame({"clinic": clinic, "sex": sex, "bp": bp})
    small = pd.DataFrame({"clinic": ["E", "E"], "sex": "female", "bp": [171.204, 98.713]})
    return pd.concat([frame, small], ignore_index=True)


@COMPARE
def test_pointplot_methods():
    """Raw, then suppress, confidential and deterministic: clinic E (named in order=) is not
    drawn, and keeps its empty slot as in the raw panel."""
    df = _clinics()
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), layout="constrained")
        for ax, method in zip(
            axes, ("none", "suppress", "confidential", "deterministic"), strict=True
        ):
            pointplot(
                df,
                x="clinic",
                y="bp",
                hue="sex",
                order=["A", "B", "C", "D", "E"],
                errorbar=("se", 2),
                dodge=True,
                capsize=0.1,
                method=method,
                ax=ax,
            )
            ax.set_title(method)
    return fig
