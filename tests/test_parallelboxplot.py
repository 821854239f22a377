"""O'Keefe's parallel box plots through the public functions: parallelboxplot and boxplot."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError, audit
from safeplot.anonymize.confidential import lowess_trend
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.categorical import OMITTED_GID, boxplot, release_boxplot
from safeplot.plots.confidential import (
    DROPPED_NOTE_GID,
    parallelboxplot,
    release_parallelboxes,
)

from .leakscan import scan_figure


def winsor(v, sd=2.6):
    v = np.asarray(v, float)
    m, s = v.mean(), v.std(ddof=1)
    return np.clip(v, m - sd * s, m + sd * s)


def round3(values):
    return np.array([float(f"{v:.3g}") for v in values])


def drawn_boxes(ax):
    """(centre, width, q1, q3) of every box patch, from the patch vertices."""
    out = []
    for patch in ax.patches:
        v = patch.get_path().vertices
        x0, x1 = v[:, 0].min(), v[:, 0].max()
        y0, y1 = v[:, 1].min(), v[:, 1].max()
        out.append(((x0 + x1) / 2, x1 - x0, y0, y1))
    return sorted(out)


def medians(ax):
    """(x centre, y) of the median lines (the dark ones bxp draws across each box)."""
    lines = [ln for ln in ax.lines if ln.get_color() == "0.1"]
    return sorted((float(np.mean(ln.get_xdata())), float(ln.get_ydata()[0])) for ln in lines)


def notes(ax, gid):
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def uniform_frame(seed=1, n=200):
    """x uniform on [0, 100), 40 records per interval of width 20; y continuous."""
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.uniform(lo + 0.5, lo + 19.5, n // 5) for lo in range(0, 100, 20)])
    y = np.round(0.1 * x + rng.normal(0, 2, n), 4)
    return pd.DataFrame({"x": x, "y": y})


def five_intervals(seed=5):
    """Records in [0, 100): 20, 15, 20, 25, 20 per interval of width 20."""
    rng = np.random.default_rng(seed)
    parts = [
        (0.5, 19.5, 20),
        (20.5, 39.5, 15),
        (40.5, 59.5, 20),
        (60.5, 79.5, 25),
        (80.5, 99.5, 20),
    ]
    x = np.concatenate([rng.uniform(lo, hi, n) for lo, hi, n in parts])
    y = rng.normal(5, 2, 100).round(6)
    return pd.DataFrame({"x": x, "y": y})


@pytest.fixture
def outliers():
    rng = np.random.default_rng(20261121)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    g = rng.choice(["a", "b"], 300)
    return pd.DataFrame(
        {
            "x": np.r_[x, 412.731, -97.113, 255.517],
            "y": np.r_[y, -88.404, 301.219, 12.5],
            "g": np.r_[g, ["a", "b", "a"]],
        }
    )


@pytest.fixture
def ties():
    rng = np.random.default_rng(7)
    return pd.DataFrame(
        {
            "x": np.r_[rng.integers(0, 12, 400), 37, 41, 19, 5].astype(float),
            "y": np.r_[rng.integers(0, 8, 400), 15, 23, -4, 3].astype(float),
        }
    )


# -- the procedure on hand-made data --------------------------------------------------------


def test_equal_width_intervals_give_equal_width_boxes_at_the_interval_centres():
    df = uniform_frame()
    fig, ax = plt.subplots()
    parallelboxplot(data=df, x="x", y="y", n_intervals=5, ax=ax)
    rel = release_parallelboxes(df["x"].to_numpy(), df["y"].to_numpy(), n_intervals=5)
    pb = rel.boxes[0]
    np.testing.assert_array_equal(pb.edges, [0, 20, 40, 60, 80, 100])
    assert pb.groups == ((0,), (1,), (2,), (3,), (4,)) and pb.dropped == ()
    boxes = drawn_boxes(ax)
    np.testing.assert_allclose([b[0] for b in boxes], [10, 30, 50, 70, 90])
    np.testing.assert_allclose([b[1] for b in boxes], [16] * 5)  # 0.8 of one interval
    # each box: rounded quartiles of the winsorised y of its interval (winsorised overall first)
    yw = winsor(df["y"])
    for i, (_, _, q1, q3) in enumerate(boxes):
        sel = (df["x"] >= 20 * i) & (df["x"] < 20 * (i + 1))
        expected = round3(np.quantile(winsor(yw[sel]), [0, 0.25, 0.5, 0.75, 1]))
        assert (q1, q3) == pytest.approx((expected[1], expected[3]), rel=1e-12)
        assert medians(ax)[i][1] == pytest.approx(expected[2], rel=1e-12)
    assert ax.get_xlim() == (0.0, 100.0)
    assert not notes(ax, DROPPED_NOTE_GID)
    assert ax.safeplot_report.details["intervals"] == 5


def test_an_interval_with_too_few_records_is_merged_and_drawn_one_interval_wide():
    df = five_intervals()
    df = pd.concat([df[df["x"] >= 20], pd.DataFrame({"x": [5.0, 12.0], "y": [4.1, 6.3]})])
    fig, ax = plt.subplots()
    parallelboxplot(data=df, x="x", y="y", n_intervals=5, ax=ax)
    boxes = drawn_boxes(ax)
    # intervals 0 (2 records) and 1 (15) form one box, drawn over interval 1 only
    np.testing.assert_allclose([b[0] for b in boxes], [30, 50, 70, 90])
    assert {round(b[1], 9) for b in boxes} == {16.0}
    (text,) = notes(ax, DROPPED_NOTE_GID)
    assert (
        "two adjacent x intervals are one box, drawn over the second; the other is left empty"
        in text
    )
    assert ax.safeplot_report.details["intervals_left_empty"] == 1


def test_a_zero_length_half_merges_intervals_and_one_of_them_is_left_empty():
    df = five_intervals()
    df.loc[35:46, "y"] = 5.0  # 12 of interval 2's 20 records share a value: median = quartile
    fig, ax = plt.subplots()
    parallelboxplot(data=df, x="x", y="y", n_intervals=5, ax=ax)
    boxes = drawn_boxes(ax)
    # interval 2 merges with its smaller neighbour (interval 1: 15 records against 25) and the
    # box is drawn over interval 2, which holds more of its records; interval 1 stays empty
    np.testing.assert_allclose([b[0] for b in boxes], [10, 50, 70, 90])
    assert {round(b[1], 9) for b in boxes} == {16.0}  # no double-width box
    (text,) = notes(ax, DROPPED_NOTE_GID)
    assert (
        "two adjacent x intervals are one box, drawn over the second; the other is left empty"
        in text
    )
    report = ax.safeplot_report
    assert any("left empty" in w for w in report.warnings)
    assert report.details["intervals_merged"] == [
        "two adjacent x intervals are one box, drawn over the second; the other is left empty"
    ]
    # the merged box summarises both intervals
    sel = (df["x"] >= 20) & (df["x"] < 60)
    expected = round3(np.quantile(winsor(winsor(df["y"])[sel]), [0, 0.25, 0.5, 0.75, 1]))
    assert boxes[1][2:] == pytest.approx((expected[1], expected[3]), rel=1e-12)
    assert all(q1 < med < q3 for (_, med), (_, _, q1, q3) in zip(medians(ax), boxes, strict=True))


def test_a_flat_nominal_box_is_not_drawn_and_the_figure_says_why():
    rng = np.random.default_rng(2)
    y = np.round(rng.normal(10, 2, 90), 2)
    y[30:50] = 9.0  # group "b": 20 of 30 records share one value
    df = pd.DataFrame({"g": np.repeat(["a", "b", "c"], 30), "y": y})
    rel = release_boxplot(df, x="g", y="y", method="confidential")
    assert [g for g, _ in rel.groups] == ["a", "c"]
    assert rel.omitted == ["g='b'"]
    fig, ax = plt.subplots()
    boxplot(df, x="g", y="y", method="confidential", ax=ax)
    assert len(ax.patches) == 2
    assert [t.get_text() for t in ax.get_xticklabels()] == ["a", "b", "c"]  # slot left empty
    (text,) = notes(ax, OMITTED_GID)
    assert "g='b'" in text and "median equals a quartile" in text
    assert any("not drawn" in w for w in ax.safeplot_report.warnings)
    assert ax.safeplot_report.details["boxes_omitted"] == ["g='b'"]
    # other methods still draw it
    fig, ax = plt.subplots()
    boxplot(df, x="g", y="y", method="suppress", ax=ax)
    assert len(ax.patches) == 3


def test_every_box_flat_is_refused():
    df = pd.DataFrame({"g": np.repeat(["a", "b"], 20), "y": np.tile([1.0] * 15 + [2.0] * 5, 2)})
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="every box has a zero-length half"):
        boxplot(df, x="g", y="y", method="confidential")
    assert plt.get_fignums() == before and audit.entries() == []


# -- boxplot routes a continuous x --------------------------------------------------------------


def test_boxplot_with_a_continuous_x_draws_parallel_boxes():
    penguins = safeplot.load_dataset("penguins")
    fig, (left, right) = plt.subplots(1, 2)
    boxplot(penguins, x="body_mass_g", y="bill_length_mm", method="confidential", ax=left)
    parallelboxplot(data=penguins, x="body_mass_g", y="bill_length_mm", ax=right)
    assert drawn_boxes(left) == drawn_boxes(right)
    assert left.safeplot_report.function == "parallelboxplot"
    assert left.get_xlabel() == "body_mass_g" and left.get_ylabel() == "bill_length_mm"
    # few numeric levels stay categories (one box per value)
    tips = safeplot.load_dataset("tips")
    fig, ax = plt.subplots()
    boxplot(tips, x="size", y="tip", method="confidential", ax=ax)
    assert ax.safeplot_report.function == "boxplot"
    # other methods keep seaborn's reading (numeric x as categories): the values held by too
    # few records are boxes left out, and not named on the axis
    fig, ax = plt.subplots()
    boxplot(penguins, x="body_mass_g", y="bill_length_mm", method="suppress", ax=ax)
    counts = penguins["body_mass_g"].value_counts()
    shown = [float(t.get_text()) for t in ax.get_xticklabels()]
    assert shown and all(counts[v] >= 3 for v in shown)
    assert ax.safeplot_report.details["groups_left_out"] > 0


def test_boxplot_routing_horizontal_and_refused_options():
    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots()
    boxplot(
        penguins, x="bill_length_mm", y="body_mass_g", orient="y", method="confidential", ax=ax
    )
    # intervals of body mass on the y axis, boxes of bill length along x
    both = penguins[["body_mass_g", "bill_length_mm"]].dropna()
    rel = release_parallelboxes(both["body_mass_g"].to_numpy(), both["bill_length_mm"].to_numpy())
    assert ax.get_ylim() == rel.xlim
    heights = {round(float(np.ptp(p.get_path().vertices[:, 1])), 9) for p in ax.patches}
    assert heights == {round(rel.width, 9)}
    assert ax.get_xlabel() == "bill_length_mm" and ax.get_ylabel() == "body_mass_g"
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="order"):
        boxplot(penguins, x="body_mass_g", y="bill_length_mm", order=[1], method="confidential")
    assert plt.get_fignums() == before


# -- options ------------------------------------------------------------------------------------


def test_orient_y_cuts_y_into_intervals():
    df = uniform_frame()
    fig, ax = plt.subplots()
    parallelboxplot(
        data=df.rename(columns={"x": "a", "y": "b"}),
        x="b",
        y="a",
        orient="y",
        n_intervals=5,
        ax=ax,
    )
    assert ax.get_ylim() == (0.0, 100.0)
    centres = sorted(
        (p.get_path().vertices[:, 1].min() + p.get_path().vertices[:, 1].max()) / 2
        for p in ax.patches
    )
    np.testing.assert_allclose(centres, [10, 30, 50, 70, 90])
    assert ax.get_xlabel() == "b" and ax.get_ylabel() == "a"


def test_hue_dodges_one_set_of_boxes_per_level(outliers):
    fig, ax = plt.subplots()
    parallelboxplot(data=outliers, x="x", y="y", hue="g", hue_order=["a", "b"], ax=ax)
    rel = release_parallelboxes(
        outliers["x"].to_numpy(),
        outliers["y"].to_numpy(),
        (outliers["g"] == "b").to_numpy().astype(int),
        ["a", "b"],
    )
    assert len(ax.patches) == sum(len(pb.boxes) for pb in rel.boxes)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b"]
    for j, sign in ((0, -1), (1, 1)):
        np.testing.assert_allclose(rel.positions[j] - rel.boxes[j].centres, sign * rel.width / 2)


def test_trend_option_draws_the_confidential_lowess_line(outliers):
    fig, ax = plt.subplots()
    parallelboxplot(data=outliers, x="x", y="y", trend=True, ax=ax)
    xs, ys = lowess_trend(outliers["x"].to_numpy(), outliers["y"].to_numpy())
    trend = [ln for ln in ax.lines if len(ln.get_xdata()) == len(xs)]
    assert len(trend) == 1
    np.testing.assert_allclose(trend[0].get_xdata(), xs)
    np.testing.assert_allclose(trend[0].get_ydata(), ys)
    assert ax.safeplot_report.details["trend"] == "lowess"
    fig, ax = plt.subplots()
    parallelboxplot(data=outliers, x="x", y="y", ax=ax)
    assert not [ln for ln in ax.lines if len(ln.get_xdata()) == len(xs)]


def test_report_audit_and_note(outliers):
    fig, ax = plt.subplots()
    parallelboxplot(data=outliers, x="x", y="y", ax=ax)
    report = ax.safeplot_report
    assert report.method == "confidential"
    assert report.params == {"threshold": 3, "winsor_sd": 2.6, "sig": 3}
    assert report.n == 305
    assert [e.function for e in audit.entries()] == ["parallelboxplot"]
    assert [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    fig, ax = plt.subplots()
    parallelboxplot(data=outliers, x="x", y="y", ax=ax, annotate=False)
    assert not [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]


def test_missing_values_are_dropped_and_counted(outliers):
    df = outliers.copy()
    df.loc[:9, "y"] = np.nan
    ax = parallelboxplot(data=df, x="x", y="y")
    assert ax.safeplot_report.n == 295 and ax.safeplot_report.n_dropped == 10


# -- safety -------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["outliers", "ties"])
@pytest.mark.parametrize("trend", [False, True])
@pytest.mark.parametrize("hue", [None, "g"])
def test_nothing_rare_is_drawn(shape, trend, hue, outliers, ties, request):
    df = outliers if shape == "outliers" else ties.assign(g=np.where(ties.index % 2, "a", "b"))
    fig, ax = plt.subplots()
    parallelboxplot(data=df, x="x", y="y", hue=hue, trend=trend, ax=ax)
    found = scan_figure(fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}, count_axis=None)
    assert not found, str(found)
    assert found.numbers_scanned > 0


def test_routed_boxplot_draws_nothing_rare(outliers):
    fig, ax = plt.subplots()
    boxplot(outliers, x="x", y="y", method="confidential", ax=ax)
    assert ax.safeplot_report.function == "parallelboxplot"
    found = scan_figure(
        fig, {"x": outliers["x"].to_numpy(), "y": outliers["y"].to_numpy()}, count_axis=None
    )
    assert not found, str(found)


def test_the_raw_version_is_flagged(outliers):
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        parallelboxplot(data=outliers, x="x", y="y", method="none", ax=ax)
    assert ax.safeplot_report.method == "none"
    assert scan_figure(
        fig, {"x": outliers["x"].to_numpy(), "y": outliers["y"].to_numpy()}, count_axis=None
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "none"}, DisclosureError, "raw"),
        ({"threshold": 2}, DisclosureError, "threshold"),
        ({"sig": 5}, DisclosureError, "sig"),
        ({"winsor_sd": 4.0}, DisclosureError, "winsor_sd"),
        ({"method": "deterministic"}, ValueError, "scatterplot"),
        ({"method": "suppress"}, ValueError, "boxplot"),
        ({"method": "nonsense"}, ValueError, "not a safeplot method"),
        ({"y": None}, ValueError, "needs both"),
        ({"y": "g"}, ValueError, "not numeric"),
        ({"n_intervals": 0}, ValueError, "n_intervals"),
        ({"width": 2}, ValueError, "width"),
        ({"orient": "z"}, ValueError, "orient"),
        ({"trend": "yes"}, ValueError, "trend"),
        ({"x": "nope"}, ValueError, "nope"),
        ({"showmeans": True}, ValueError, "showmeans"),
        ({"positions": [1, 2]}, ValueError, "positions"),
    ],
)
def test_bad_input_and_floors_are_refused_leaving_nothing(outliers, kwargs, error, match):
    args = {"data": outliers, "x": "x", "y": "y", **kwargs}
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        parallelboxplot(**args)
    assert plt.get_fignums() == before
    assert audit.entries() == []


def test_too_little_data_constant_x_infinite_values_and_every_hue_level_small(outliers):
    cases = [
        (outliers.head(2), {}, DisclosureError, "threshold"),
        (outliers.assign(x=4.0), {}, ValueError, "constant"),
        (outliers.assign(y=np.r_[np.inf, outliers["y"].to_numpy()[1:]]), {}, ValueError, "inf"),
        (
            outliers.head(4).assign(g=["z", "z", "a", "a"]),
            {"hue": "g"},
            DisclosureError,
            "every hue level has fewer than 3 records",
        ),
    ]
    for df, kw, error, match in cases:
        before = plt.get_fignums()
        with pytest.raises(error, match=match):
            parallelboxplot(data=df, x="x", y="y", **kw)
        assert plt.get_fignums() == before
        assert audit.entries() == []


@pytest.mark.parametrize("ordinal", [False, True])
def test_a_small_hue_level_is_left_out_with_a_note(outliers, ordinal):
    """A hue level of 2 records is not drawn or named; the other levels' boxes are those of
    the data without it, in the colours they have without it (invariant 10)."""
    df = outliers.assign(g=np.where(np.arange(len(outliers)) % 2, "a", "b"))
    if ordinal:
        df = df.assign(x=np.round(df["x"]).clip(0, 6))
    small = df.assign(g=np.r_[["tiny", "tiny"], df["g"].to_numpy()[2:]])
    fig, (left, right) = plt.subplots(1, 2)
    kws = {"x": "x", "y": "y", "hue": "g"} | ({"discrete": True} if ordinal else {})
    parallelboxplot(data=small, ax=left, **kws)
    parallelboxplot(data=small[small["g"] != "tiny"], ax=right, **kws)
    assert sorted(t.get_text() for t in left.get_legend().get_texts()) == ["a", "b"]
    assert [p.get_facecolor() for p in left.patches] == [p.get_facecolor() for p in right.patches]
    for a, b in zip(left.patches, right.patches, strict=True):
        np.testing.assert_array_equal(a.get_path().vertices, b.get_path().vertices)
    texts = [t.get_text() for t in left.texts]
    assert any("Groups with fewer records than the threshold are left out" in t for t in texts)
    assert not any("tiny" in t for t in texts)
    report = left.safeplot_report
    assert report.details["groups_left_out"] == 1
    assert "1 hue level(s) with fewer than 3 records (threshold=3) are not drawn." in (
        report.warnings
    )
