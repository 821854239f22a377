"""DESIGN.md section 3 for every release function x every method x several data shapes."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import safeplot
from safeplot import DisclosureError, audit
from safeplot.datasets import simulate
from safeplot.methods import get_method
from safeplot.plots.distributions import HIST_METHODS, draw_histogram, release_histogram
from safeplot.plots.grid import grid_bins_for, release_grid
from safeplot.plots.relational import SCATTER_METHODS, draw_scatter, release_scatter

from .leakscan import scan_figure
from .refusals import Refusal, check, drawing_cells, expected


def _shapes():
    rng = np.random.default_rng(20261121)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    outliers = (
        np.r_[x, 412.731, -97.113, 255.517],
        np.r_[y, -88.404, 301.219, 12.5],
    )
    tx = rng.integers(0, 12, 400).astype(float)
    ty = rng.integers(0, 8, 400).astype(float)
    ties = (np.r_[tx, 37.0, 41.0, 19.0], np.r_[ty, 15.0, 23.0, -4.0])
    sx = rng.lognormal(0, 1, 250)
    skewed = (sx, np.log(sx) + rng.uniform(0, 1, 250))
    small = (rng.normal(size=30), rng.normal(size=30))
    shapes = {"outliers": outliers, "ties": ties, "skewed": skewed, "small": small}
    for name in ("D1", "D2", "D3"):
        df = simulate(name, n=300)
        shapes[name] = (df["x"].to_numpy(), df["y"].to_numpy())
    return shapes


SHAPES = _shapes()
# the small-cell rules below are SDC's: differentially private counts are noisy and not
# suppressed by design (tests/test_dp.py tests them, tests/test_leaks.py scans their figures)
SAFE_HIST = [m for m in HIST_METHODS if m != "none" and not get_method(m).private]
SAFE_SCATTER = [m for m in SCATTER_METHODS if m != "none"]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("method", SAFE_HIST)
def test_histogram_release_leaks_nothing(shape, method):
    x, _ = SHAPES[shape]
    fig, ax = plt.subplots()
    rel = release_histogram(x, name="x", method=method, bins=20)
    draw_histogram(ax, rel)
    findings = scan_figure(fig, {"x": x}, threshold=3)
    assert not findings, str(findings)
    # the shown bars' edges and the limits (ticks are a locator's round numbers, not compared)
    assert findings.numbers_scanned >= 8
    # limits never sit on the raw extremes, and the outer bins are shown ones
    rare = safeplot.anonymize.rare_values(x, 3)
    assert not np.isin(rel.xlim, rare).any()
    assert rel.counts[0] > 0 and rel.counts[-1] > 0
    shown = rel.counts[~np.isnan(rel.counts)]
    assert not ((shown > 0) & (shown < 3)).any()
    assert ax.safeplot_report.method == method
    assert audit.entries()[-1].method == method


#: Scatter releases refused rather than drawn, and why (every other combination must draw).
#: None: the grid of suppress/generalize is chosen by n, so 30 records get 5 x 5 cells, some
#: of which hold three records (on the paper's 30 x 30 every cell of them was suppressed).
SCATTER_REFUSALS: list[Refusal] = []


def test_every_scatter_method_draws_on_some_shape():
    cells = [("scatter", m, shape) for m in SAFE_SCATTER for shape in SHAPES]
    never = [cell for cell, n in drawing_cells(SCATTER_REFUSALS, cells).items() if n == 0]
    assert not never, f"refused on every data shape: {never}"


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("method", SAFE_SCATTER)
def test_scatter_release_leaks_nothing(shape, method):
    x, y = SHAPES[shape]
    entry = expected(SCATTER_REFUSALS, "scatter", method, shape)
    fig, ax = plt.subplots()
    try:
        rel = release_scatter(x, y, method=method)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"scatter|{method}|{shape}")
        assert audit.entries() == []
        return
    check(entry, None, f"scatter|{method}|{shape}")
    draw_scatter(ax, rel, mark_coincident=True)
    findings = scan_figure(fig, {"x": x, "y": y}, threshold=3)
    assert not findings, str(findings)
    if getattr(rel, "sizes", None) is not None:
        assert (rel.sizes >= 3).all()
    assert ax.safeplot_report.method == method
    assert audit.entries()[-1].function == "scatterplot"


def test_scanner_catches_a_raw_plot():
    """The scanner is not vacuous: the raw plot of the outlier data is flagged."""
    x, y = SHAPES["outliers"]
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        draw_scatter(ax, release_scatter(x, y, method="none"))
        assert scan_figure(fig, {"x": x, "y": y}, threshold=3).leaks
        fig, ax = plt.subplots()
        ax.hist(x, bins=20)
        findings = scan_figure(fig, {"x": x}, threshold=3)
        assert findings.leaks and findings.small_counts


def test_suppressed_outliers_do_not_stretch_the_axes():
    """A suppressed bin far out would say where the outlier is: the release ends before it."""
    x, y = SHAPES["outliers"]
    rel = release_histogram(x, method="suppress", bins=40)
    bulk = x[:-3]
    assert rel.xlim[1] < 255.517 and rel.xlim[0] > -97.113
    assert rel.edges[0] <= bulk.min() + 3 * np.diff(rel.edges)[0]
    pts = release_scatter(x, y, method="suppress")
    assert pts.xlim[1] < 255.517 and pts.ylim[1] < 301.219 and pts.ylim[0] > -88.404


@pytest.mark.parametrize("threshold", [3, 5, 10])
def test_suppressed_histogram_counts_are_exact(threshold):
    x = SHAPES["D2"][0]
    rel = release_histogram(x, method="suppress", bins=25, threshold=threshold)
    full = safeplot.anonymize.safe_edges(x, 25, avoid=safeplot.anonymize.rare_values(x, threshold))
    expected, _ = np.histogram(x, full)
    small = (expected > 0) & (expected < threshold)
    shown = np.flatnonzero(~small & (expected > 0))
    span = slice(shown[0], shown[-1] + 1)  # the release ends at the outermost shown bins
    np.testing.assert_array_equal(rel.edges, full[span.start : span.stop + 1])
    np.testing.assert_array_equal(rel.suppressed, small[span])
    np.testing.assert_array_equal(rel.counts[~small[span]], expected[span][~small[span]])
    assert rel.report.cells_suppressed == small.sum()


def test_generalized_histogram_merges_pairs_of_bins():
    x = SHAPES["D1"][0]
    fine_edges = safeplot.anonymize.safe_edges(x, 20, avoid=safeplot.anonymize.rare_values(x, 3))
    with safeplot.policy(threshold=1):
        coarse = release_histogram(x, method="generalize", bins=20, factor=2)
    pairs = np.r_[fine_edges, fine_edges[-1] + np.diff(fine_edges)[-1]][::2]
    assert set(coarse.edges) <= set(pairs)  # every other edge of the fine grid
    np.testing.assert_allclose(np.diff(coarse.edges), 2 * np.diff(fine_edges)[0])
    expected, _ = np.histogram(x, coarse.edges)
    np.testing.assert_array_equal(coarse.counts, expected)
    assert expected.sum() == x.size


def test_suppressed_scatter_is_the_surviving_cells_of_a_30_by_30_grid():
    x, y = SHAPES["D1"]
    rel = release_scatter(x, y, method="suppress", bins=30)
    xe = safeplot.anonymize.safe_edges(x, 30, avoid=safeplot.anonymize.rare_values(x, 3))
    ye = safeplot.anonymize.safe_edges(y, 30, avoid=safeplot.anonymize.rare_values(y, 3))
    counts, _, _ = np.histogram2d(x, y, [xe, ye])
    keep = counts >= 3
    assert rel.sizes.sum() == counts[keep].sum()
    assert len(rel.x) == keep.sum()
    assert rel.report.cells_suppressed == ((counts > 0) & (counts < 3)).sum()
    gen = release_scatter(x, y, method="generalize", bins=30)
    assert gen.report.params["bins"] == 15


def test_the_default_scatter_grid_is_the_heat_maps_chosen_by_n():
    """Without bins= the cells are those of heatmap(data, x=, y=) of the same records."""
    x, y = SHAPES["D1"]
    rel = release_scatter(x, y, method="suppress")
    grid = release_grid(x, y, method="suppress", bins=None, kind="scatter")
    assert rel.report.params["bins"] == grid.report.params["bins"] == grid_bins_for(x.size, 3)
    total = np.nan_to_num(grid.total)
    ix, iy = np.nonzero(total > 0)
    np.testing.assert_array_equal(rel.sizes, total[ix, iy])
    np.testing.assert_array_equal(rel.x, grid.xcentres[ix])
    assert release_scatter(x, y, method="generalize").report.params["bins"] == -(
        -grid.report.params["bins"] // 2
    )


@pytest.mark.parametrize(
    ("call", "floor"),
    [
        (lambda x, y: release_histogram(x, method="deterministic", k=2), "k_min=3"),
        (lambda x, y: release_scatter(x, y, method="deterministic", k=2), "k_min=3"),
        (lambda x, y: release_scatter(x, y, method="probabilistic", q=0.1), "q_min=0.25"),
        (lambda x, y: release_histogram(x, method="suppress", threshold=2), "threshold=3"),
        (lambda x, y: release_scatter(x, y, method="suppress", threshold=1), "threshold=3"),
        (lambda x, y: release_histogram(x, method="none"), "allow_raw=False"),
        (lambda x, y: release_scatter(x, y, method="none"), "allow_raw=False"),
    ],
)
def test_floors_refuse_before_anything_is_drawn(call, floor):
    x, y = SHAPES["D1"]
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match=floor):
        call(x, y)
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_unknown_and_unavailable_methods_are_clear():
    x, y = SHAPES["D1"]
    with pytest.raises(ValueError, match="not a safeplot method"):
        release_histogram(x, method="blur")
    with pytest.raises(ValueError, match="does not apply to counts"):
        safeplot.countplot(x=np.repeat(["a", "b"], 20), method="microaggregation")


def test_report_rounds_counts():
    x = SHAPES["D1"][0][:298]
    rel = release_histogram(x, method="suppress")
    assert rel.report.n == 300
    assert "298" not in rel.report.to_json()


def test_two_releases_on_one_axes_merge_their_reports():
    x, y = SHAPES["D1"]
    _, ax = plt.subplots()
    draw_histogram(ax, release_histogram(x, name="x", method="suppress", bins=20))
    draw_histogram(ax, release_histogram(y, name="y", method="suppress", bins=20))
    assert ax.safeplot_report.variables == ("x", "y")
    assert len(audit.entries()) == 2
    assert audit.entries()[0].figure == audit.entries()[1].figure
