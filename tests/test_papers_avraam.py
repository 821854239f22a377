"""Avraam et al. (2021), "Privacy preserving data visualizations": the paper's numbers and rules.

The paper simulates D1-D3 in R 4.0.0 with ``set.seed(1234)``; safeplot draws
the same distributions with numpy's generator (:func:`safeplot.datasets.simulate`),
so the individual records, and with them every count below, differ from the
paper's. Where the paper gives a number for its D1, the test states the
paper's number next to the one asserted for safeplot's D1, and asserts the
property the paper draws from it.
"""

import math

import numpy as np
import pytest

import safeplot
from safeplot.anonymize.grids import rare_values, safe_edges
from safeplot.anonymize.suppression import suppress_records
from safeplot.datasets import simulate
from safeplot.demo import (
    DIAGNOSTIC_FIGURES,
    PAPER_FIGURES,
    PAPER_SWEEPS,
    SWEEP_BINWIDTH,
    demo_policy,
    grid_contourplot,
    paper_diagnostics_figure,
    paper_figure,
    paper_sweep_figure,
)
from safeplot.methods import anonymize_values
from safeplot.plots.categorical import release_boxplot
from safeplot.plots.grid import release_grid

from .ledgers import alone


@pytest.fixture(scope="module")
def d1():
    return simulate("D1", n=500, seed=1234)


def _refusals(ax):
    texts = [" ".join(t.get_text().split()) for t in ax.texts]
    return [t for t in texts if t.startswith("not released")]


# -- the data (section 3) ------------------------------------------------------------------


def test_d1_has_the_papers_distribution(d1):
    """X ~ N(10, 0.5^2), Y = X + N(0, 1); the draws are numpy's, not R's seed-1234 stream."""
    assert len(d1) == 500
    assert d1["x"].mean() == pytest.approx(10, abs=0.1)
    assert d1["x"].std() == pytest.approx(0.5, abs=0.05)
    assert (d1["y"] - d1["x"]).std() == pytest.approx(1, abs=0.1)


# -- box plots under suppression (section 4.1, Figure 4) -----------------------------------


def test_paper_grid_keeps_234_of_d1(d1):
    """The paper's rule on its own grid: 30 equal cells over the range of x and of y.

    On safeplot's D1 the records in cells with fewer than three records are
    removed, leaving 234 of 500 ("more than half of the data are aggregated
    and/or suppressed", section 4.1). The paper gives no record count for its
    own D1.
    """
    xy = d1[["x", "y"]].to_numpy()
    edges = [np.linspace(xy[:, j].min(), xy[:, j].max(), 31) for j in range(2)]
    kept = suppress_records(xy, edges, threshold=3)
    assert kept.n_kept == 234
    assert kept.shape == (30, 30)
    # with cells twice as wide (the paper's 15 x 15 generalisation) more records stay
    assert suppress_records(xy, edges, threshold=3, factor=2).n_kept == 421


def test_box_plots_of_x_and_y_use_the_2d_grid(d1):
    """safeplot's box plots of x and y drop records by their cell of the heat map's grid.

    The grid is the heat map's: 30 x 30 cells on rounded edges, a little
    wider than the paper's (the edges lie strictly beyond the data), so 263
    of 500 records stay. 183 of its 900 cells are suppressed (the paper: 164
    of 900 on its D1), 42 of 225 after generalisation to 15 x 15 (the paper:
    42 of 225).
    """
    box = release_boxplot(d1[["x", "y"]], method="suppress")
    heat = release_grid(d1["x"], d1["y"], method="suppress")
    assert box.report.details["grid"] == "x by y (30 x 30 cells)"
    assert box.report.cells_suppressed == heat.report.cells_suppressed == 183
    xy = d1[["x", "y"]].to_numpy()
    edges = [safe_edges(xy[:, j], 30, avoid=rare_values(xy[:, j], 3)) for j in range(2)]
    kept = suppress_records(xy, edges, threshold=3)
    assert (kept.n_kept, kept.cells_suppressed) == (263, 183)
    assert box.report.details["records_suppressed"] == safeplot.get_policy().round_count(237)
    general = release_boxplot(d1[["x", "y"]], method="generalize")
    assert general.report.details["grid"] == "x by y (15 x 15 cells)"
    assert general.report.cells_suppressed == 42
    assert suppress_records(xy, edges, threshold=3, factor=2).n_kept == 446


def test_2d_rule_drops_far_more_than_the_1d_rule(d1):
    """One variable keeps the 1-D rule, which drops only the few records in sparse bins."""
    one = release_boxplot(d1, x="y", method="suppress")
    assert "grid" not in one.report.details
    assert one.report.cells_suppressed <= 6
    two = release_boxplot(d1[["x", "y"]], method="suppress")
    assert two.report.details["records_suppressed"] >= 200


def test_suppression_shrinks_the_whiskers_of_y(d1):
    """Figure 4(A): the whiskers of Y under suppression are shorter than the raw ones."""
    y = d1["y"].to_numpy()
    q1, q3 = np.quantile(y, [0.25, 0.75])
    inside = y[(y >= q1 - 1.5 * (q3 - q1)) & (y <= q3 + 1.5 * (q3 - q1))]
    raw_span = inside.max() - inside.min()
    spans = {}
    for method in ("suppress", "generalize"):
        box_y = release_boxplot(d1[["x", "y"]], method=method).boxes[1]
        assert inside.min() < box_y.whislo and box_y.whishi < inside.max()
        spans[method] = box_y.whishi - box_y.whislo
    # 30 x 30 cuts the range by more than a third; the coarser 15 x 15 grid loses less
    assert spans["suppress"] < 0.7 * raw_span
    assert spans["suppress"] < spans["generalize"] < raw_span


def test_a_record_missing_one_value_is_left_out_of_both_boxes(d1):
    df = d1[["x", "y"]].copy()
    df.loc[:19, "y"] = np.nan
    box = release_boxplot(df, method="suppress")
    assert [b.n for b in box.boxes] == [500, 480]
    # the box plots count the complete records on the heat map's grid
    heat = release_grid(df["x"], df["y"], method="suppress")
    assert box.report.cells_suppressed == heat.report.cells_suppressed


def test_three_columns_keep_the_1d_rule(d1):
    df = d1.assign(z=d1["x"] - d1["y"])
    box = release_boxplot(df, method="suppress")
    assert "grid" not in box.report.details
    assert len(box.boxes) == 3
    # order= picking two of them applies the 2-D rule to those two
    pair = release_boxplot(df, order=["x", "z"], method="suppress")
    assert pair.report.details["grid"] == "x by z (30 x 30 cells)"


def test_suppress_records_rejects_bad_edges():
    xy = np.array([[0.5, 0.5], [1.5, 1.5]])
    with pytest.raises(ValueError, match="one sequence of edges per column"):
        suppress_records(xy, [[0, 1, 2]], threshold=3)
    with pytest.raises(ValueError, match="outside its edges"):
        suppress_records(xy, [[0, 1], [0, 1, 2]], threshold=3)
    with pytest.raises(ValueError, match="increasing"):
        suppress_records(xy, [[0, 2, 1], [0, 1, 2]], threshold=3)
    with pytest.raises(ValueError, match="threshold"):
        suppress_records(xy, [[0, 1, 2], [0, 1, 2]], threshold=0)


# -- heat maps and contour plots (Figure 3) ------------------------------------------------


def test_contours_are_drawn_from_the_released_grid(d1):
    """Figure 3's contour plots are of the density grid, the heat map's released counts."""
    import matplotlib.pyplot as plt

    for method, cells in (("suppress", 183), ("generalize", 42)):
        fig, ax = plt.subplots()
        with alone():  # each method's grid on its own, as the paper's panels are
            grid_contourplot(d1, x="x", y="y", method=method, ax=ax)
            heat = release_grid(d1["x"], d1["y"], method=method)
        assert ax.safeplot_report.cells_suppressed == heat.report.cells_suppressed == cells
        assert ax.safeplot_report.params == heat.report.params
        # the lines lie inside the grid and the ring of empty cells around it
        w = heat.xedges[1] - heat.xedges[0]
        assert ax.get_xlim() == pytest.approx((heat.xlim[0] - w / 2, heat.xlim[1] + w / 2))
        plt.close(fig)


# -- the figures: what each panel is -------------------------------------------------------


def test_figure_1_has_histograms_of_x_and_y():
    assert PAPER_FIGURES[1][0] == ("histogram of x", "histogram of y")
    fig = paper_figure(1, ("suppress",), n=200, names=("D1", "D2"))
    assert [ax.get_xlabel() for ax in fig.axes] == ["x", "y", "x", "y"]


def test_diagnostic_figures_are_labelled_as_the_papers():
    """The paper's Figures 5, 6 and 7 are D1, D2 and D3; rows (A)-(C) are the diagnostics."""
    for which, panel in (("resid_fitted", "A"), ("qq", "B"), ("leverage", "C")):
        assert f"panels {panel} of Figures 5-7" in DIAGNOSTIC_FIGURES[which][1]
    fig = paper_diagnostics_figure(6, ("deterministic", "probabilistic"), n=200)
    assert fig.get_suptitle().startswith("Figure 6 of Avraam et al.")
    assert "on D2" in fig.get_suptitle()
    assert len(fig.axes) == 6
    with pytest.raises(ValueError, match="5, 6 or 7"):
        paper_diagnostics_figure(4)


# -- sensitivity (sections 4.3-4.5, Figures 8-15) ------------------------------------------


def test_sweeps_use_the_papers_values():
    assert {n: (m, p, v) for n, (m, p, v, _) in PAPER_SWEEPS.items()} == {
        8: ("suppress", "threshold", (3, 5, 7, 9)),
        9: ("generalize", "threshold", (3, 5, 7, 9)),
        10: ("suppress", "threshold", (3, 5, 7, 9)),
        11: ("generalize", "threshold", (3, 5, 7, 9)),
        12: ("deterministic", "k", (5, 10, 20, 50)),
        13: ("deterministic", "k", (5, 10, 20, 50)),
        14: ("probabilistic", "q", (0.1, 0.5, 1, math.sqrt(2))),
        15: ("probabilistic", "q", (0.1, 0.5, 1, math.sqrt(2))),
    }
    assert [n for n, spec in PAPER_SWEEPS.items() if spec[3]] == [10, 11, 13, 15]
    assert SWEEP_BINWIDTH == 0.2


def test_fewer_records_survive_a_higher_threshold(d1):
    """Section 4.3: utility degrades as k grows; 15 x 15 loses less than 30 x 30."""
    xy = d1[["x", "y"]].to_numpy()
    edges = [safe_edges(xy[:, j], 30, avoid=rare_values(xy[:, j], 3)) for j in range(2)]
    fine = [suppress_records(xy, edges, threshold=t).n_kept for t in (3, 5, 7, 9)]
    coarse = [suppress_records(xy, edges, threshold=t, factor=2).n_kept for t in (3, 5, 7, 9)]
    assert fine == sorted(fine, reverse=True) and fine[0] > fine[-1]
    assert all(c > f for c, f in zip(coarse, fine, strict=True))


def test_histogram_bins_double_under_generalisation(d1):
    """Figures 8 and 9: bins of width 0.2, and 0.4 with the doubled generalisation."""
    from safeplot.plots.distributions import release_histograms

    for method, width in (("suppress", 0.2), ("generalize", 0.4)):
        (rel,) = release_histograms(d1["x"].to_numpy(), method=method, binwidth=SWEEP_BINWIDTH)
        assert np.diff(rel.edges) == pytest.approx(np.full(rel.edges.size - 1, width))


def test_noise_above_q_1_hides_the_correlation(d1):
    """Section 4.5: the correlation of noisy x and y falls as q grows."""
    xy = d1[["x", "y"]].to_numpy()
    with safeplot.policy(demo_policy().replace(q_min=0.1)):
        corr = [
            np.corrcoef(anonymize_values(xy, "probabilistic", q=q, names=["x", "y"]).values.T)[
                0, 1
            ]
            for q in (0.1, 0.5, 1, math.sqrt(2))
        ]
    raw = np.corrcoef(xy.T)[0, 1]
    assert raw > corr[1] > corr[3]
    assert corr[0] == pytest.approx(raw, abs=0.05)
    assert corr[3] < raw / 2


def test_q_below_the_floor_is_shown_as_refused():
    """q = 0.1 is below the default q_min = 0.25: its column says so; a lower floor draws it."""
    with safeplot.policy(demo_policy()):
        fig = paper_sweep_figure(15, n=200, raw=False)
    first = fig.axes[0::4]  # the q = 0.1 column, rows (A)-(C)
    assert all(_refusals(ax) for ax in first)
    assert "q=0.1 is below the policy floor q_min=0.25" in _refusals(first[0])[0]
    assert all(hasattr(ax, "safeplot_report") for ax in fig.axes[1:4])
    with safeplot.policy(demo_policy().replace(q_min=0.1)):
        fig = paper_sweep_figure(15, n=200, raw=False)
    assert [ax.safeplot_report.params["q"] for ax in fig.axes[:4]] == pytest.approx(
        [0.1, 0.5, 1, math.sqrt(2)]
    )


def test_exploratory_sweep_has_the_papers_rows_and_a_raw_column():
    with safeplot.policy(demo_policy()):
        fig = paper_sweep_figure(12, n=200)
    assert len(fig.axes) >= 6 * 5  # six rows (A)-(F), raw and four values of k (+ colour bars)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[:5] == [
        "raw (k = 1)",
        "deterministic, k = 5",
        "deterministic, k = 10",
        "deterministic, k = 20",
        "deterministic, k = 50",
    ]
