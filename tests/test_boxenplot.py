"""boxenplot and catplot(kind="boxen"): letter values from released quantiles only."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.errors import DisclosureError
from safeplot.plots.boxen import boxenplot, letter_depth, release_boxenplot
from safeplot.plots.strip import release_stripplot

from .leakscan import scan_figure

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _wards(n: int = 600) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    df = pd.DataFrame({"ward": rng.choice(["A", "B"], n), "stay": np.round(rng.gamma(3, 2, n), 3)})
    return pd.concat(
        [df, pd.DataFrame({"ward": ["E", "E"], "stay": [61.207, 0.013]})], ignore_index=True
    )


@pytest.mark.parametrize(
    ("n", "rule", "threshold", "expected"),
    [
        (1000, "tukey", 3, (6, 6)),
        (1000, "full", 3, None),
        (1000, 12, 10, (12, 5)),
        (40, "tukey", 3, (2, 2)),
        (40, 5, 3, (5, 2)),
        (40, 5, 11, (5, 1)),
        (8, "trustworthy", 3, (1, 1)),
    ],
)
def test_the_depth_is_capped_so_the_outer_box_holds_threshold_records(
    n, rule, threshold, expected
):
    if expected is None:
        with pytest.raises(DisclosureError, match="k_depth='full'"):
            letter_depth(n, rule, threshold)
        return
    asked, k = letter_depth(n, rule, threshold)
    assert (asked, k) == expected
    # the tail beyond the outermost box (and the box itself) hold at least threshold records
    assert k == 1 or n * 0.5 ** (k + 1) >= threshold


def test_letter_values_are_released_quantiles_of_the_anonymised_values():
    rel = release_boxenplot(TIPS, x="day", y="tip")
    strip = release_stripplot(TIPS, x="day", y="tip")
    sig = safeplot.get_policy().sig_figs
    for g, (day, _) in enumerate(rel.groups):
        released = strip.values[np.array(strip.categories) == day]
        k = rel.depths[g]
        assert rel.letter_values[g].size == 2 * k
        p = np.r_[0.5 ** np.arange(k + 1, 1, -1), 1 - 0.5 ** np.arange(2, k + 2)]
        expected = np.percentile(released, 100 * p)
        # rounded to the policy's figures, and moved a few units further off rare raw values
        np.testing.assert_allclose(rel.letter_values[g], expected, rtol=5 * 10.0 ** (1 - sig))
        assert np.all(rel.letter_values[g] == np.round(rel.letter_values[g], 2))
        # outliers are released values, beyond the outermost box
        fliers = rel.fliers[g]
        assert np.isin(fliers, released).all()
        assert ((fliers < rel.letter_values[g][0]) | (fliers > rel.letter_values[g][-1])).all()


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential"])
def test_summary_methods_draw_no_outliers_and_no_raw_extremes(method):
    df = _wards()
    fig, ax = plt.subplots()
    boxenplot(df, x="ward", y="stay", method=method, ax=ax)
    rel = release_boxenplot(df, x="ward", y="stay", method=method)
    assert all(f.size == 0 for f in rel.fliers)
    raw = df["stay"].to_numpy()
    for g, (ward, _) in enumerate(rel.groups):
        mine = df.loc[df["ward"] == ward, "stay"]
        assert rel.letter_values[g][0] > mine.min() and rel.letter_values[g][-1] < mine.max()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["A", "B"]
    assert not scan_figure(fig, {"y": raw}, threshold=3)


def test_a_small_group_is_left_out_and_not_named():
    df = _wards()
    fig, ax = plt.subplots()
    boxenplot(df, x="ward", y="stay", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["A", "B"]
    assert any("left out" in t.get_text() for t in ax.texts)
    assert not scan_figure(fig, {"y": df["stay"].to_numpy()}, threshold=3)
    assert audit.entries()[-1].function == "boxenplot"


def test_the_boxes_drawn_are_the_released_letter_values():
    fig, ax = plt.subplots()
    boxenplot(TIPS, x="day", y="tip", method="confidential", ax=ax)
    rel = release_boxenplot(TIPS, x="day", y="tip", method="confidential")
    coll = [c for c in ax.collections if len(c.get_paths())]
    assert len(coll) == 4
    for g, c in enumerate(coll):
        ys = np.unique(np.concatenate([p.vertices[:, 1] for p in c.get_paths()]))
        np.testing.assert_allclose(ys, np.unique(rel.letter_values[g]))
    medians = [line.get_ydata()[0] for line in ax.lines]
    assert medians == rel.medians


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"k_depth": "full"}, DisclosureError, "k_depth='full'"),
        ({"k_depth": "deep"}, ValueError, "k_depth='deep'"),
        ({"outlier_prop": 1.5}, ValueError, "outlier_prop"),
        ({"log_scale": True}, ValueError, "log_scale= is not supported"),
        ({"width_method": "wide"}, ValueError, "width_method='wide'"),
    ],
)
def test_bad_and_unsafe_arguments_are_refused(kwargs, error, match):
    fig, ax = plt.subplots()
    with pytest.raises(error, match=match):
        boxenplot(TIPS, x="day", y="tip", ax=ax, **kwargs)
    assert not ax.has_data()


def test_catplot_boxen():
    g = safeplot.catplot(TIPS, x="day", y="tip", hue="sex", col="time", kind="boxen", height=2)
    assert [r.function for r in g.safeplot_reports] == ["boxenplot"] * 2


@pytest.mark.parametrize("name", ["boxenplot", "violinplot"])
def test_signature_is_seaborns_plus_safeplot_parameters(name):
    import inspect

    import seaborn as sns

    theirs = inspect.signature(getattr(sns, name)).parameters
    ours = inspect.signature(getattr(safeplot, name)).parameters
    head = [(k, p.kind) for k, p in theirs.items() if k != "kwargs"]
    assert [(k, p.kind) for k, p in ours.items()][: len(head)] == head
    for k, p in theirs.items():
        if k != "kwargs" and type(p.default).__name__ != "Deprecated":
            assert ours[k].default == p.default, k
    extra = [k for k in ours if k not in theirs]
    assert extra[0] == "method" and extra[-1] == "annotate"
    assert list(ours)[-1] == "kwargs"
