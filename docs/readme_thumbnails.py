"""Regenerate the three README thumbnails in docs/_static/readme/.

Run from the repository root after a change to the figures they show::

    python docs/readme_thumbnails.py

The figures come from the same functions as the gallery pages
(:mod:`safeplot.demo`): Avraam et al.'s Figure 2 (scatter plots of D2 under
each method; the raw panel is allowed by the demonstration policy because the
data are simulated), O'Keefe's confidential box plot and Q-Q plot of the tips
data, and the sweep of ``k`` of deterministic anonymisation. Each PNG is
about 900 pixels wide, shown at full width in the README so its labels can be
read; look at them before committing.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt

import safeplot
from safeplot.demo import demo_policy, okeefe_figure, paper_figure, sweep_figure

OUT = Path(__file__).resolve().parent / "_static" / "readme"
WIDTH_PX = 900


def _save(fig, name: str) -> Path:
    """Save `fig` about WIDTH_PX pixels wide and close it."""
    path = OUT / f"{name}.png"
    fig.savefig(path, dpi=WIDTH_PX / fig.get_figwidth())
    plt.close(fig)
    return path


def main() -> list[Path]:
    """Write the three thumbnails; return their paths."""
    OUT.mkdir(parents=True, exist_ok=True)
    written = []
    with safeplot.policy(demo_policy()):
        fig = paper_figure(
            2,
            ("none", "suppress", "deterministic"),
            names=("D2",),
            panel_size=(3.2, 3.0),
        )
        fig.suptitle("Scatter plot of D2: raw, suppressed, deterministic", fontsize=11)
        written.append(_save(fig, "scatter_methods"))
    fig = okeefe_figure(["box plot", "Q-Q plot"], ncols=2, panel_size=(4.6, 3.6))
    fig.axes[1].set_title("Q-Q plot of residuals")
    fig.suptitle("O'Keefe's confidential box plot and Q-Q plot", fontsize=11)
    written.append(_save(fig, "okeefe_confidential"))
    fig = sweep_figure(
        "deterministic",
        "k",
        [3, 10, 50],
        families=("scatter plot",),
        names=("D2",),
        panel_size=(3.2, 3.0),
    )
    fig.suptitle("Deterministic anonymisation of D2: k = 3, 10, 50", fontsize=11)
    written.append(_save(fig, "deterministic_sweep"))
    return written


if __name__ == "__main__":
    for path in main():
        print(path)
