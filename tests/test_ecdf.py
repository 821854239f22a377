"""ecdfplot: steps of a suppressed histogram or of released values, never of raw records."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import histogram_counts
from safeplot.errors import DisclosureError
from safeplot.marks._axes import LEFT_OUT_GID
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.ecdf import ECDF_METHODS, ecdfplot, release_ecdf

from .leakscan import scan_figure

SAFE_METHODS = tuple(m for m in ECDF_METHODS if m != "none")


def _outliers(seed=7):
    rng = np.random.default_rng(seed)
    x = np.r_[np.round(rng.normal(50, 10, 300), 3), 412.731, -97.113, 255.517]
    return pd.DataFrame({"x": x, "g": rng.choice(["a", "b"], x.size)})


def _ties(seed=8):
    rng = np.random.default_rng(seed)
    x = np.r_[rng.integers(0, 12, 400), 37, 41, 19, 5].astype(float)
    return pd.DataFrame({"x": x, "g": rng.choice(["a", "b"], x.size)})


def test_suppress_steps_are_cumulative_shown_counts():
    df = _outliers()
    rel = release_ecdf(df, x="x", bins=20)
    pos, cum = rel.curve(stat="count")
    # independent: counts on the same edges, suppressed below threshold
    edges = np.r_[pos[0] - np.diff(pos)[0], pos]  # upper edges -> all edges (equal widths)
    counts = histogram_counts(df["x"].to_numpy(), edges)
    shown = np.where(counts >= 3, counts, 0)
    np.testing.assert_array_equal(cum, np.cumsum(shown)[shown > 0] if (shown > 0).all() else cum)
    assert cum[-1] == shown.sum()
    assert rel.report.cells_suppressed >= 1
    assert np.all(np.diff(cum) >= 3)


def test_proportion_ends_at_one_and_complementary():
    rel = release_ecdf(_outliers(), x="x", hue="g")
    for level in rel.levels:
        _, cum = rel.curve(level)
        assert cum[-1] == pytest.approx(1.0)


def test_value_methods_release_one_step_per_record():
    df = _outliers()
    rel = release_ecdf(df, x="x", method="deterministic")
    assert rel.positions[0].size == len(df)
    assert rel.positions[0].max() < 412.731  # outlier pulled in by its neighbours


def test_confidential_steps_cover_threshold_records():
    df = _outliers()
    rel = release_ecdf(df, x="x", method="confidential")
    assert rel.positions[0].size == 40
    assert np.all(rel.weights[0] >= 3)
    assert rel.positions[0].max() < 412.731
    assert rel.report.details["values_winsorised"] != 0


@pytest.mark.parametrize("method", SAFE_METHODS)
@pytest.mark.parametrize("maker", [_outliers, _ties])
@pytest.mark.parametrize("options", [{}, {"stat": "count", "complementary": True}])
def test_leak_scan_every_method(method, maker, options):
    df = maker()
    fig, ax = plt.subplots()
    ecdfplot(df, x="x", hue="g", method=method, ax=ax, **options)
    findings = scan_figure(fig, {"x": df["x"].to_numpy()}, count_axis=None)
    assert not findings, str(findings)
    assert ax.safeplot_report.method == method
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    assert audit.entries()[-1].function == "ecdfplot"
    plt.close(fig)


def test_horizontal():
    df = _outliers()
    fig, ax = plt.subplots()
    ecdfplot(df, y="x", ax=ax)
    assert not scan_figure(fig, {"y": df["x"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_scanner_flags_raw():
    df = _outliers()
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        ecdfplot(df, x="x", method="none", ax=ax)
    assert scan_figure(fig, {"x": df["x"].to_numpy()}, count_axis=None)
    plt.close(fig)


def test_annotate_false_and_bad_input():
    fig, ax = plt.subplots()
    ecdfplot(_outliers(), x="x", annotate=False, ax=ax)
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.texts)
    plt.close(fig)
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="weights"):
        ecdfplot(_outliers(), x="x", weights="x")
    with pytest.raises(ValueError, match="not both"):
        ecdfplot(_outliers(), x="x", y="x")
    with pytest.raises(ValueError, match="stat"):
        ecdfplot(_outliers(), x="x", stat="density")
    assert plt.get_fignums() == before


@pytest.mark.parametrize(
    "kwargs",
    [
        {"k": 2, "method": "deterministic"},
        {"q": 0.1, "method": "probabilistic"},
        {"threshold": 2},
        {"method": "none"},
    ],
)
def test_floors(kwargs):
    before = plt.get_fignums()
    with pytest.raises(DisclosureError):
        ecdfplot(_outliers(), x="x", **kwargs)
    assert plt.get_fignums() == before
    assert not audit.entries()


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


@pytest.mark.parametrize("method", ["suppress", "generalize"])
@pytest.mark.parametrize("stat", ["proportion", "count"])
def test_a_small_hue_level_is_left_out_and_not_named(method, stat):
    df = _outliers()
    df.loc[:1, "g"] = "tiny"
    fig, ax = plt.subplots()
    ecdfplot(df, x="x", hue="g", method=method, stat=stat, ax=ax)
    assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == ["a", "b"]
    assert not any("tiny" in t for t in _texts(fig))
    report = ax.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert any(w.endswith("are not drawn.") for w in report.warnings)
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
    assert notes == [safeplot.release.guard.LEFT_OUT_NOTE]
    assert not any("tiny" in str(e.report) for e in audit.entries())
    rel = release_ecdf(df, x="x", hue="g", method=method)
    assert "tiny" not in rel.levels


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "confidential"])
def test_a_small_hue_level_is_refused_where_it_cannot_be_left_out(method):
    df = _outliers()
    df.loc[:1, "g"] = "tiny"
    with pytest.raises(DisclosureError, match=r"tiny.*cannot be left out"):
        ecdfplot(df, x="x", hue="g", method=method)
    assert not audit.entries()


def test_a_hue_order_naming_no_level_is_said_so():
    tips = safeplot.load_dataset("tips")
    with pytest.raises(ValueError, match=r"hue_order=\['zz'\] names no level of the data"):
        safeplot.ecdfplot(tips, x="total_bill", hue="sex", hue_order=["zz"])
    with pytest.raises(ValueError, match="every row has a missing value"):
        safeplot.ecdfplot(tips.assign(sex=np.nan), x="total_bill", hue="sex")
    assert plt.get_fignums() == []
