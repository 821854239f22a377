"""Image comparison (pytest-mpl) of lineplot: a discrete x under the main methods, a binned x.

Regenerate a baseline only on purpose (``pytest tests/test_images_line.py
--mpl-generate-path=baseline_images``), look at the new PNG, and say in the commit why it changed.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.datasets import simulate
from safeplot.demo import demo_policy
from safeplot.plots.line import lineplot

COMPARE = pytest.mark.mpl_image_compare(
    baseline_dir="../baseline_images",
    style="default",
    savefig_kwargs={"dpi": 50},
    tolerance=2,
)


def _visits() -> pd.DataFrame:
    """Two arms measured at monthly visits, and two late visits of one arm."""
    rng = np.random.default_rng(7)
    visits = pd.DataFrame(
        {"month": np.tile(np.arange(7.0), 60), "arm": np.repeat(["placebo", "treated"], 210)}
    )
    drift = np.where(visits["arm"] == "treated", -0.6, -0.1)
    visits["score"] = np.round(50 + drift * visits["month"] + rng.normal(0, 2, 420), 3)
    late = pd.DataFrame({"month": [9.0, 9.0], "arm": "treated", "score": [38.4, 44.9]})
    return pd.concat([visits, late], ignore_index=True)


@COMPARE
def test_lineplot_methods():
    """Raw, then suppress, confidential and deterministic: month 9 is left out with a note."""
    visits = _visits()
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.8), layout="constrained")
        for ax, method in zip(
            axes, ("none", "suppress", "confidential", "deterministic"), strict=True
        ):
            lineplot(
                visits, x="month", y="score", hue="arm", errorbar=("se", 2), method=method, ax=ax
            )
            ax.set_title(method)
    return fig


@COMPARE
def test_lineplot_binned_x():
    """A continuous x binned on the histogram grid, lines per group with markers and bars."""
    df = simulate("D2", n=400, seed=3)
    df["group"] = np.random.default_rng(3).choice(["a", "b"], 400)
    with safeplot.policy(demo_policy()):
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
        lineplot(df, x="x", y="y", errorbar=("se", 1), method="none", ax=axes[0])
        axes[0].set_title("none")
        lineplot(
            df,
            x="x",
            y="y",
            hue="group",
            style="group",
            markers=True,
            err_style="bars",
            errorbar=("se", 1),
            ax=axes[1],
        )
        axes[1].set_title("suppress")
    return fig
