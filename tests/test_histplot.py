"""histplot and hist: released numbers, what is drawn, seaborn behaviour, refusals."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.patches import Rectangle

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize import knn_centroids, rare_values, safe_edges
from safeplot.marks._axes import LEFT_OUT_GID
from safeplot.plots._common import FOOTNOTE_GID, method_note
from safeplot.plots.distributions import hist, histplot

from .leakscan import scan_figure

METHODS = ["suppress", "generalize", "deterministic", "probabilistic", "confidential"]


@pytest.fixture
def planted():
    rng = np.random.default_rng(7)
    x = np.r_[np.round(rng.normal(50, 8, 400), 2), 412.731, -97.113, 255.517]
    g = np.concatenate([np.where(rng.random(400) < 0.5, "a", "b"), ["a", "b", "a"]])
    return pd.DataFrame({"value": x, "group": g})


def _bars(ax):
    bars = [p for p in ax.patches if isinstance(p, Rectangle) and p.get_height() > 0]
    return sorted((b.get_x(), b.get_width(), b.get_height()) for b in bars)


def test_suppressed_counts_are_exact_and_drawn_exactly(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", bins=30, ax=ax)
    x = planted["value"].to_numpy()
    full = safe_edges(x, 30, avoid=rare_values(x, 3))
    counts, _ = np.histogram(x, full)
    keep = counts >= 3
    shown = np.flatnonzero(keep)
    drawn = _bars(ax)
    expected = [
        (full[i], full[i + 1] - full[i], counts[i])
        for i in range(shown[0], shown[-1] + 1)
        if keep[i]
    ]
    np.testing.assert_allclose(np.array(drawn), np.array(expected))
    assert ax.safeplot_report.cells_suppressed == int(((counts > 0) & ~keep).sum())
    # the three planted outliers are in suppressed bins beyond the shown span
    assert ax.get_xlim()[1] < 255.517 and ax.get_xlim()[0] > -97.113


def test_hue_levels_are_suppressed_on_their_own_counts(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", hue="group", bins=25, multiple="dodge", ax=ax)
    x, g = planted["value"].to_numpy(), planted["group"].to_numpy()
    rare = np.unique(
        np.concatenate(
            [rare_values(x, 3), rare_values(x[g == "a"], 3), rare_values(x[g == "b"], 3)]
        )
    )
    edges = safe_edges(x, 25, avoid=rare)
    total = 0
    for level in ("a", "b"):
        c, _ = np.histogram(x[g == level], edges)
        total += int(c[c >= 3].sum())
    heights = sum(h for _, _, h in _bars(ax))
    assert heights == total
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(pd.unique(g))
    assert ax.get_legend().get_title().get_text() == "group"


@pytest.mark.parametrize("method", METHODS)
def test_value_methods_bin_the_released_values(method, planted):
    df = planted[planted["value"].between(0, 100)]
    fig, ax = plt.subplots()
    histplot(data=df, x="value", bins=12, method=method, ax=ax)
    rel = ax.safeplot_report
    assert rel.method == method
    heights = [h for _, _, h in _bars(ax)]
    assert all(h >= 3 for h in heights)
    # the bars account for every record but those in suppressed bins
    assert sum(heights) <= len(df)
    if method == "deterministic":
        released = knn_centroids(df["value"].to_numpy(), 3).values[:, 0]
        left = [b[0] for b in _bars(ax)]
        edges = np.r_[left, _bars(ax)[-1][0] + _bars(ax)[-1][1]]
        c, _ = np.histogram(released, edges)
        np.testing.assert_array_equal(np.sort(c[c >= 3]), np.sort(heights))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"hue": "group", "multiple": "stack", "kde": True},
        {"hue": "group", "element": "poly", "stat": "density"},
        {"element": "step", "cumulative": True},
        {"discrete": True},
    ],
    ids=["plain", "stack-kde", "poly-density", "step-cumulative", "discrete"],
)
def test_no_rare_value_and_no_small_count_is_drawn(method, options, planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", method=method, ax=ax, **options)
    stat = options.get("stat", "count")
    findings = scan_figure(
        fig, {"x": planted["value"].to_numpy()}, count_axis="y" if stat == "count" else None
    )
    assert not findings, str(findings)


@pytest.mark.parametrize("method", METHODS)
def test_integer_data_with_rare_values(method):
    rng = np.random.default_rng(3)
    x = np.r_[rng.integers(20, 40, 300), 77, 5, 61].astype(float)
    fig, ax = plt.subplots()
    histplot(x=x, method=method, discrete=True, element="poly", ax=ax)
    assert not scan_figure(fig, {"x": x}), str(scan_figure(fig, {"x": x}))
    fig, ax = plt.subplots()
    histplot(y=x, method=method, ax=ax)
    findings = scan_figure(fig, {"y": x})
    assert not findings, str(findings)


def test_scanner_flags_the_raw_histogram(planted):
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        histplot(data=planted, x="value", bins=30, method="none", ax=ax)
    findings = scan_figure(fig, {"x": planted["value"].to_numpy()})
    assert findings.leaks and findings.small_counts
    assert "Raw output" in " ".join(ax.safeplot_report.warnings)


def test_stats_come_from_released_counts(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", bins=20, stat="probability", ax=ax)
    assert sum(h for _, _, h in _bars(ax)) == pytest.approx(1.0)
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", bins=20, stat="density", ax=ax)
    assert sum(w * h for _, w, h in _bars(ax)) == pytest.approx(1.0)
    assert ax.safeplot_report.details["stat"] == "density"


def test_unequal_bins_show_frequency_density(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", bins=[20, 40, 45, 50, 55, 60, 80], ax=ax)
    report = ax.safeplot_report
    assert report.details["stat"] == "frequency"
    assert any("Unequal bins" in w for w in report.warnings)
    x = planted["value"].to_numpy()
    counts, edges = np.histogram(x, [20, 40, 45, 50, 55, 60, 80])
    expected = sorted(zip(edges[:-1], np.diff(edges), counts / np.diff(edges), strict=True))
    np.testing.assert_allclose(np.array(_bars(ax)), np.array(expected))


def test_explicit_edges_on_rare_values_are_refused(planted):
    """Refused, not moved: a moved edge would show in a vector file where the value is."""
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", bins=[20, 35, 50.0, 80], ax=ax)
    assert not scan_figure(fig, {"x": planted["value"].to_numpy()}).leaks
    with pytest.raises(DisclosureError, match="bin edge equals a value held by fewer"):
        histplot(data=planted, x="value", bins=[20, 35, 50.0, 412.731])


def test_binrange_grid_covers_the_range_not_the_values_in_it(planted):
    """A grid fitted to the few values inside a narrow binrange would say where they are."""
    x = planted["value"].to_numpy()
    from safeplot.plots.distributions import release_histograms

    (rel,) = release_histograms(x, name="value", bins=10, binrange=(30, 70))
    expected = safe_edges(np.array([30.0, 70.0]), 10, avoid=rare_values(x, 3))
    assert set(rel.edges) <= set(expected)
    # only suppressed records in the range: refused, no empty figure with their range
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="nothing can be shown"):
        histplot(x=x, binrange=(120, 2000), bins=50)
    assert plt.get_fignums() == before


def _texts(fig) -> list[str]:
    """Every text of the figure: ticks, legend, titles, notes."""
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


def _small_level():
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(50, 10, 302), 1)
    h = np.concatenate([rng.choice(["A", "B", "C"], 300), ["Smith", "Smith"]])
    return pd.DataFrame({"x": x, "h": h})


@pytest.mark.parametrize("multiple", ["layer", "stack", "fill"])
def test_a_small_hue_level_is_left_out_and_not_named(multiple):
    df = _small_level()
    fig, ax = plt.subplots()
    histplot(data=df, x="x", hue="h", multiple=multiple, ax=ax)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == ["A", "B", "C"]
    assert not any("Smith" in t for t in _texts(fig))
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue level(s) with fewer than 3 records (threshold=3) are not drawn." in (
        report.warnings
    )
    assert report.n == 300  # every record given, those left out included (rounded)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
    assert notes == [safeplot.release.guard.LEFT_OUT_NOTE]
    assert not any("Smith" in str(v) for v in audit.entries()[-1].report.values())
    # the bars are those of the three levels shown, exactly as without the small level
    shown = df[df.h != "Smith"]
    fig2, ax2 = plt.subplots()
    with safeplot.ledger.using(safeplot.ledger.Ledger()):
        histplot(data=shown, x="x", hue="h", multiple=multiple, ax=ax2)
    assert _bars(ax) == _bars(ax2)


def test_a_small_hue_level_named_in_hue_order_keeps_its_place_drawn_empty():
    df = _small_level()
    fig, ax = plt.subplots()
    histplot(data=df, x="x", hue="h", hue_order=["A", "Smith", "B", "C"], ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A", "Smith", "B", "C"]
    assert ax.safeplot_report.details["groups_left_out"] == 1
    # an empty level the caller names is drawn as seaborn draws it: a legend entry, no bars
    fig, ax = plt.subplots()
    histplot(data=df[df.h != "Smith"], x="x", hue="h", hue_order=["A", "B", "C", "Jones"], ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A", "B", "C", "Jones"]
    assert "groups_left_out" not in ax.safeplot_report.details


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "confidential"])
def test_a_small_hue_level_is_refused_under_a_value_method(method):
    # counts of moved values are not linked by the ledger: the level cannot be left out safely
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match=r"'Smith'.*cannot be left out"):
        histplot(data=_small_level(), x="x", hue="h", method=method)
    assert plt.get_fignums() == before


def test_every_hue_level_small_is_refused():
    df = pd.DataFrame({"x": np.arange(4.0), "h": ["a", "a", "b", "b"]})
    with pytest.raises(DisclosureError, match="every hue level has fewer than 3"):
        histplot(data=df, x="x", hue="h")


def test_wide_form_data_become_hue_levels():
    df = safeplot.load_dataset("penguins")[["bill_length_mm", "bill_depth_mm"]]
    fig, ax = plt.subplots()
    histplot(df, ax=ax)
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == ["bill_length_mm", "bill_depth_mm"]
    assert legend.get_title().get_text() == ""


def test_vectors_and_series_work_without_data():
    s = pd.Series(np.random.default_rng(1).normal(size=300), name="score")
    fig, ax = plt.subplots()
    histplot(x=s, ax=ax)
    assert ax.get_xlabel() == "score"
    fig, ax = plt.subplots()
    histplot(y=s.to_numpy(), ax=ax)
    assert ax.safeplot_report.variables == ("y",)


def test_bivariate_histogram_is_the_suppressed_grid():
    df = safeplot.datasets.simulate("D2", n=500, seed=1)
    fig, ax = plt.subplots()
    histplot(data=df, x="x", y="y", bins=20, cbar=True, ax=ax)
    mesh = ax.collections[0]
    shown = np.ma.compressed(mesh.get_array())
    shown = shown[shown > 0]
    assert (shown >= 3).all()
    x, y = df["x"].to_numpy(), df["y"].to_numpy()
    xe = safe_edges(x, 20, avoid=rare_values(x, 3))
    ye = safe_edges(y, 20, avoid=rare_values(y, 3))
    counts, _, _ = np.histogram2d(x, y, [xe, ye])
    assert shown.sum() == counts[counts >= 3].sum()
    assert not scan_figure(fig, {"x": x, "y": y}, counts_in_colour=True)


def test_hist_returns_released_counts_edges_and_patches(planted):
    x = planted["value"]
    fig, ax = plt.subplots()
    n, edges, patches = hist(x, bins=30, ax=ax)
    assert n.size == edges.size - 1
    shown = n[~np.isnan(n)]
    assert ((shown == 0) | (shown >= 3)).all()
    heights = [p.get_height() for p in patches]
    np.testing.assert_array_equal(heights, np.nan_to_num(n))
    assert ax.safeplot_report.function == "hist"
    assert ax.get_xlabel() == ""
    assert not scan_figure(fig, {"x": x.to_numpy()})
    fig, ax = plt.subplots()
    hist(x, orientation="horizontal", histtype="step", method="generalize", ax=ax)
    assert not scan_figure(fig, {"y": x.to_numpy()})


def test_method_note_and_annotate_false(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", method="generalize", ax=ax)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    assert notes == ["safeplot: generalize (threshold=3, factor=2)"]
    # the note is made from the report's parameters only: the leak scanner relies on that
    assert notes == [method_note(ax.safeplot_report)]
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", ax=ax, annotate=False)
    assert not [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    with safeplot.policy(annotate=False):
        fig, ax = plt.subplots()
        histplot(data=planted, x="value", ax=ax)
        assert not ax.texts


def test_confidential_note_marks_winsorising(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", method="confidential", ax=ax)
    note = next(t.get_text() for t in ax.texts if t.get_gid() == FOOTNOTE_GID)
    assert note.endswith("*** winsorised")


def test_locked_policy_keeps_the_note(tmp_path, planted):
    path = tmp_path / "policy.toml"
    path.write_text("locked = true\nannotate = true\n")
    safeplot.set_policy(safeplot.load_policy(path))
    with pytest.raises(DisclosureError, match="annotate"):
        histplot(data=planted, x="value", annotate=False)


def test_every_call_is_audited(planted):
    fig, ax = plt.subplots()
    histplot(data=planted, x="value", hue="group", ax=ax)
    assert ax.safeplot_report.variables == ("value",)
    assert audit.entries()[-1].function == "histplot"
    assert ax.safeplot_report.n == 405


def test_seaborn_deprecation_warnings_do_not_reach_users(planted):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig, ax = plt.subplots()
        histplot(data=planted, x="value", hue="group", kde=True, ax=ax)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "deterministic", "k": 2}, DisclosureError, "k_min=3"),
        ({"method": "probabilistic", "q": 0.1}, DisclosureError, "q_min=0.25"),
        ({"threshold": 2}, DisclosureError, "threshold=3"),
        ({"method": "none"}, DisclosureError, "allow_raw"),
        ({"weights": "value"}, ValueError, "weights"),
        ({"log_scale": True}, ValueError, "log_scale"),
        ({"hue": "group", "common_bins": False}, ValueError, "common_bins"),
        ({"x": "nope"}, ValueError, "no column of that name"),
        ({"x": "group", "bins": 5}, ValueError, "categorical: it is counted as one bar"),
        ({"method": "blur"}, ValueError, "not a safeplot method"),
        ({"bins": [3, 2, 1]}, ValueError, "increasing"),
    ],
)
def test_refusals_leave_no_figure(kwargs, error, match, planted):
    before = plt.get_fignums()
    call = {"data": planted, "x": "value", **kwargs}
    with pytest.raises(error, match=match):
        histplot(**call)
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_bad_input_is_explained():
    with pytest.raises(ValueError, match="needs data"):
        histplot()
    with pytest.raises(ValueError, match=r"all missing|no values"):
        histplot(x=[np.nan, np.nan, np.nan])
    with pytest.raises(ValueError, match="infinite"):
        histplot(x=[1.0, 2.0, np.inf, 4.0])
    with pytest.raises(ValueError, match="empty"):
        hist([])


@pytest.mark.parametrize("method", METHODS)
def test_released_counts_are_the_suppressed_histogram_of_the_released_values(method, planted):
    """Every method's counts, recomputed from independently released values."""
    from safeplot.anonymize import add_keyed_noise, winsorize
    from safeplot.plots.distributions import release_histograms

    x = planted["value"].to_numpy()
    released = {
        "suppress": x,
        "generalize": x,
        "deterministic": knn_centroids(x, 3).values[:, 0],
        "probabilistic": add_keyed_noise(x[:, None], 0.25, names=["value"])[:, 0],
        "confidential": winsorize(x).values,
    }[method]
    (rel,) = release_histograms(x, name="value", method=method, bins=15)
    expected, _ = np.histogram(released, rel.edges)
    small = (expected > 0) & (expected < 3)
    np.testing.assert_array_equal(np.isnan(rel.counts), small)
    np.testing.assert_array_equal(rel.counts[~small], expected[~small])
    # the span ends at shown bins, and nothing shown lies outside it
    assert rel.counts[0] >= 3 and rel.counts[-1] >= 3
    outside = (released < rel.edges[0]) | (released >= rel.edges[-1])
    if method == "generalize":
        assert (
            np.diff(rel.edges)[0]
            == 2
            * np.diff(release_histograms(x, name="value", method="suppress", bins=15)[0].edges)[0]
        )
    assert outside.sum() <= x.size - np.nansum(rel.counts)


def test_tick_labels_print_ticks_exactly():
    """A label rounded for display ("56.2" for 56.25) could spell a rare raw value."""
    from safeplot.plots._common import set_safe_axis

    fig, ax = plt.subplots()
    set_safe_axis(ax, "x", (-60.0, 120.0), np.array([-56.25, 0.0, 56.25, 112.5]))
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["\u221256.25", "0.00", "56.25", "112.50"]


def _bivariate_tiny_level():
    rng = np.random.default_rng(8)
    n = 600
    df = pd.DataFrame(
        {
            "x": np.round(rng.normal(10, 2, n), 2),
            "y": np.round(rng.normal(5, 1, n), 2),
            "g": rng.choice(["a", "b"], n),
        }
    )
    df.loc[[0, 1], "g"] = "tiny"
    return df


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_bivariate_a_level_with_no_cell_shown_is_not_named(method):
    # invariant 3: a level all of whose cells are suppressed is not named in the legend; the
    # note and the report say a group was left out
    from safeplot.release.guard import LEFT_OUT_NOTE

    df = _bivariate_tiny_level()
    fig, ax = plt.subplots()
    histplot(df, x="x", y="y", hue="g", method=method, ax=ax)
    texts = [t.get_text() for t in fig.findobj(plt.Text)]
    assert "tiny" not in texts
    assert {"a", "b"} <= set(texts)
    assert LEFT_OUT_NOTE in texts
    assert ax.safeplot_report.details["groups_left_out"] == 1
    plt.close(fig)


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "rounding", "confidential"])
def test_bivariate_a_small_level_of_moved_values_is_refused(method):
    # counts of moved values are not linked by the ledger: the grid without hue, less the
    # levels shown, would count a level left out; refused before anything is drawn
    df = _bivariate_tiny_level()
    fig, ax = plt.subplots()
    with pytest.raises(DisclosureError, match=r"histplot: 1 hue level.*method='suppress'"):
        histplot(df, x="x", y="y", hue="g", method=method, ax=ax)
    assert not ax.collections
    plt.close(fig)
