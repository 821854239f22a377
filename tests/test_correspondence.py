"""Correspondence analysis: the numerics against hand computations, and the plot."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from scipy.stats import chi2_contingency

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.correspondence import (
    OTHER,
    merge_rare_levels,
    multiple_ca,
    simple_ca,
)
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.confidential import CA_LABEL_GID, correspondenceplot, release_correspondence

from .leakscan import scan_figure

# Greenacre's smoking data: staff groups (rows) by smoking (none, light, medium, heavy)
SMOKE = np.array(
    [[4, 2, 3, 2], [4, 3, 7, 4], [25, 10, 12, 4], [18, 24, 33, 13], [10, 6, 7, 2]], dtype=float
)


def test_simple_ca_reproduces_the_textbook_smoking_analysis():
    res = simple_ca(SMOKE)
    # principal inertias and total (Greenacre 1984, Correspondence Analysis in Practice)
    np.testing.assert_allclose(res.inertias, [0.07476, 0.01002, 0.00041], atol=5e-6)
    assert res.total_inertia == pytest.approx(0.08519, abs=5e-6)
    # principal coordinates of the staff groups on dimension 1 (sign is arbitrary)
    rows = res.row_coords[:, 0] * np.sign(res.row_coords[2, 0]) * -1
    np.testing.assert_allclose(rows, [-0.066, 0.259, -0.381, 0.233, -0.201], atol=5e-4)
    cols = res.col_coords[:, 0] * np.sign(res.row_coords[2, 0]) * -1
    np.testing.assert_allclose(cols, [-0.393, 0.099, 0.196, 0.294], atol=5e-4)
    np.testing.assert_allclose(res.shares[:2], [0.8776, 0.1176], atol=5e-4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_simple_ca_properties(seed):
    rng = np.random.default_rng(seed)
    table = rng.integers(1, 40, size=(4, 5)).astype(float)
    res = simple_ca(table)
    n = table.sum()
    chi2 = chi2_contingency(table, correction=False)[0]
    # the inertias sum to the total inertia, chi-squared / n
    assert res.inertias.sum() == pytest.approx(chi2 / n, rel=1e-10)
    assert res.total_inertia == pytest.approx(chi2 / n, rel=1e-10)
    # reconstitution: p_ij = r_i c_j (1 + sum_k f_ik g_jk / sqrt(lambda_k))
    p = table / n
    sv = np.sqrt(res.inertias)
    recon = np.outer(res.row_masses, res.col_masses) * (
        1 + (res.row_coords / sv) @ res.col_coords.T
    )
    np.testing.assert_allclose(recon, p, atol=1e-12)
    # transition formula: row points are weighted averages of column standard coordinates
    profiles = table / table.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(profiles @ (res.col_coords / sv), res.row_coords, atol=1e-12)
    # centred: the weighted mean of the points is zero
    np.testing.assert_allclose(res.row_masses @ res.row_coords, 0, atol=1e-12)


def test_mca_of_two_variables_matches_the_simple_ca():
    rng = np.random.default_rng(4)
    a = rng.integers(0, 3, 300)
    b = (a + rng.integers(0, 2, 300)) % 4
    table = np.zeros((3, 4))
    np.add.at(table, (a, b), 1)
    ca = simple_ca(table)
    mca = multiple_ca([a, b], [3, 4])
    # for two variables the indicator-matrix inertias are (1 +/- sqrt(lambda)) / 2
    top = (1 + np.sqrt(ca.inertias)) / 2
    np.testing.assert_allclose(mca.inertias[: top.size], top, atol=1e-10)
    assert mca.total_inertia == pytest.approx((3 + 4) / 2 - 1)
    # the column coordinates are proportional to those of the simple CA
    ratio = mca.col_coords[3:, 0] / ca.col_coords[:, 0]
    np.testing.assert_allclose(ratio, ratio[0], rtol=1e-8)


def test_mca_total_inertia_and_shape():
    rng = np.random.default_rng(5)
    codes = [rng.integers(0, k, 200) for k in (2, 3, 4)]
    res = multiple_ca(codes, [2, 3, 4])
    assert res.col_coords.shape == (9, 9 - 3)
    assert res.total_inertia == pytest.approx(9 / 3 - 1)
    assert res.inertias.sum() == pytest.approx(9 / 3 - 1)
    # the levels of each variable are centred
    for lo, hi in ((0, 2), (2, 5), (5, 9)):
        np.testing.assert_allclose(res.col_masses[lo:hi] @ res.col_coords[lo:hi], 0, atol=1e-10)


def test_ca_refuses_bad_tables():
    with pytest.raises(ValueError, match="2 x 2"):
        simple_ca([1, 2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        simple_ca([[1, -2], [3, 4]])
    with pytest.raises(ValueError, match="positive total"):
        simple_ca([[0, 0], [3, 4]])
    with pytest.raises(ValueError, match="two variables"):
        multiple_ca([[0, 1]], [2])


def test_merge_rare_levels():
    m = merge_rare_levels(["a"] * 5 + ["b"] * 4 + ["c", "d", "d"], 3)
    assert m.levels == ["a", "b", OTHER] and m.merged == ["c", "d"]
    np.testing.assert_array_equal(m.codes, [0] * 5 + [1] * 4 + [2] * 3)
    # "Other" too small on its own: the smallest remaining level joins it
    m = merge_rare_levels(["a"] * 5 + ["b"] * 4 + ["c"] * 6 + ["d"], 3)
    assert m.levels == ["a", "c", OTHER] and m.merged == ["b", "d"]
    # nothing rare: unchanged
    assert merge_rare_levels(["x"] * 3 + ["y"] * 3, 3).levels == ["x", "y"]
    with pytest.raises(DisclosureError, match="fewer than two levels"):
        merge_rare_levels(["a"] * 5 + ["b", "c"], 3)


# -- the plot -----------------------------------------------------------------------------------


@pytest.fixture
def cats():
    rng = np.random.default_rng(11)
    n = 400
    a = rng.choice(["red", "green", "blue"], n, p=[0.5, 0.3, 0.2])
    b = np.where(rng.random(n) < 0.6, np.where(a == "red", "hot", "cold"), "mild")
    c = rng.choice(["s", "m", "l"], n)
    df = pd.DataFrame({"a": a, "b": b, "c": c})
    df.loc[:1, "a"] = "violet"  # two records: a rare level
    return df


def test_two_variables_draw_the_rounded_simple_ca_with_labels_and_no_counts(cats):
    fig, ax = plt.subplots()
    correspondenceplot(cats, x="a", y="b", ax=ax)
    merged = cats.assign(a=cats["a"].replace({"violet": OTHER}))
    # "Other" (2 records) is still too small: the smallest level joins it
    small = merged["a"].value_counts().drop(OTHER).idxmin()
    merged["a"] = merged["a"].replace({small: OTHER})
    rows = [lv for lv in pd.unique(cats["a"]) if lv not in ("violet", small)] + [OTHER]
    cols = list(pd.unique(cats["b"]))
    table = pd.crosstab(merged["a"], merged["b"]).loc[rows, cols].to_numpy()
    res = simple_ca(table)
    expected = np.vstack([res.row_coords[:, :2], res.col_coords[:, :2]])
    expected = np.array([[float(f"{v:.3g}") for v in row] for row in expected])
    drawn = np.vstack([c.get_offsets() for c in ax.collections])
    np.testing.assert_allclose(drawn, expected, rtol=1e-12)
    labels = [t.get_text() for t in ax.texts if t.get_gid() == CA_LABEL_GID]
    assert labels == [*rows, *cols]
    assert "violet" not in labels
    share = float(f"{100 * res.shares[0]:.2g}")
    assert ax.get_xlabel() == f"First dimension ({share:g}% of inertia)"
    report = ax.safeplot_report
    assert report.details["levels_merged"] == {"a": 2, "b": 0}
    assert report.details["analysis"] == "simple"
    assert any("merged into 'Other'" in w for w in report.warnings)
    assert "violet" not in str(report)
    # no count anywhere in the figure
    counts = set(np.unique(table)) | set(cats["a"].value_counts()) | set(cats["b"].value_counts())
    texts = " ".join(t.get_text() for t in ax.texts)
    assert not any(f" {int(c)} " in f" {texts} " for c in counts if c > 9)


def test_three_variables_use_mca(cats):
    fig, ax = plt.subplots()
    correspondenceplot(cats, vars=["a", "b", "c"], ax=ax)
    assert ax.safeplot_report.details["analysis"] == "multiple"
    labels = [t.get_text() for t in ax.texts if t.get_gid() == CA_LABEL_GID]
    assert set(labels) >= {"hot", "cold", "mild", "s", "m", "l", OTHER}
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b", "c"]
    rel = release_correspondence(cats, ["a", "b", "c"])
    assert len(rel.coords) == 3
    for c in rel.coords:
        np.testing.assert_array_equal(c, [[float(f"{v:.3g}") for v in row] for row in c])


def test_report_audit_note(cats):
    fig, ax = plt.subplots()
    correspondenceplot(cats, x="a", y="b", ax=ax)
    assert ax.safeplot_report.method == "confidential"
    assert [e.function for e in audit.entries()] == ["correspondenceplot"]
    assert [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    fig, ax = plt.subplots()
    correspondenceplot(cats, x="a", y="b", ax=ax, annotate=False)
    assert not [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]


def test_numeric_levels_never_show_a_rare_value():
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    correspondenceplot(tips, x="day", y="size", threshold=5, ax=ax)
    labels = [t.get_text() for t in ax.texts if t.get_gid() == CA_LABEL_GID]
    assert "1" not in labels and "6" not in labels  # 4 records each at threshold 5
    found = scan_figure(fig, {"x": tips["size"].to_numpy()}, count_axis=None, threshold=5)
    assert not found, str(found)


def test_no_rare_value_is_drawn_and_the_raw_version_is_flagged():
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {"u": rng.choice([1.0, 2.0, 3.0], 200), "v": rng.choice([10.0, 20.0, 30.0], 200)}
    )
    df.loc[0, "u"] = 0.271  # a unique level
    df.loc[1, "v"] = 0.315
    fig, ax = plt.subplots()
    correspondenceplot(df, x="u", y="v", ax=ax)
    raw = {"x": df["u"].to_numpy(), "y": df["v"].to_numpy()}
    found = scan_figure(fig, raw, count_axis=None)
    assert not found, str(found)
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        correspondenceplot(df, x="u", y="v", method="none", ax=ax)
    assert ax.safeplot_report.method == "none"
    assert scan_figure(fig, raw, count_axis=None)  # the unique levels are labelled


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "none"}, DisclosureError, "raw"),
        ({"threshold": 2}, DisclosureError, "threshold"),
        ({"sig": 5}, DisclosureError, "sig"),
        ({"method": "suppress"}, ValueError, "not available"),
        ({"y": None}, ValueError, "two or more"),
        ({"vars": ["a", "b"]}, ValueError, "not both"),
        ({"x": "zz"}, ValueError, "zz"),
        ({"x": "a", "y": "a"}, ValueError, "differ"),
    ],
)
def test_bad_input_is_refused_leaving_nothing(cats, kwargs, error, match):
    args = {"x": "a", "y": "b", **kwargs}
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        correspondenceplot(cats, **args)
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_a_variable_left_with_one_level_is_refused(cats):
    df = cats.assign(b=np.r_[["x"] * (len(cats) - 2), ["y", "z"]])
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="fewer than two levels"):
        correspondenceplot(df, x="a", y="b")
    assert plt.get_fignums() == before and audit.entries() == []
