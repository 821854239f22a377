"""violinplot and catplot(kind="violin"): released densities cut at the released range."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.errors import DisclosureError
from safeplot.plots.strip import release_stripplot
from safeplot.plots.violin import release_violinplot, violinplot

from .leakscan import scan_figure

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _small_group() -> pd.DataFrame:
    """Three wards of 60 patients and a ward "E" of two, whose stays are unique."""
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {"ward": np.repeat(["A", "B", "C"], 60), "stay": np.round(rng.gamma(3, 2, 180), 3)}
    )
    return pd.concat(
        [df, pd.DataFrame({"ward": ["E", "E"], "stay": [47.913, 0.031]})], ignore_index=True
    )


def test_each_violin_is_the_density_of_the_released_values_cut_at_their_range():
    rel = release_violinplot(TIPS, x="day", y="tip", inner="stick")
    strip = release_stripplot(TIPS, x="day", y="tip")
    assert rel.levels == ["Thur", "Fri", "Sat", "Sun"] and rel.report.params["cut"] == 0
    for g, (day, _) in enumerate(rel.groups):
        released = strip.values[np.array(strip.categories) == day]
        # the values drawn as sticks are the strip plot's released values of the group
        np.testing.assert_array_equal(np.sort(rel.values[g]), np.sort(released))
        # seaborn's cut=0 on released values: the curve spans exactly their range
        assert rel.support[g][0] == pytest.approx(released.min(), rel=1e-12)
        assert rel.support[g][-1] == pytest.approx(released.max(), rel=1e-12)
        assert rel.support[g].size == 100
        raw = TIPS.loc[TIPS["day"] == day, "tip"]
        assert not np.isin(rel.support[g][[0, -1]], raw.to_numpy()).any()


def test_the_density_is_rounded_to_the_policy_figures():
    rel = release_violinplot(TIPS, x="day", y="total_bill", method="probabilistic")
    sig = safeplot.get_policy().sig_figs
    for d in rel.density:
        nonzero = d[d > 0]
        assert np.all(nonzero == np.array([float(f"{v:.{sig}g}") for v in nonzero]))


def test_inner_box_is_the_released_box_of_the_boxplot():
    rel = release_violinplot(TIPS, x="day", y="total_bill", method="confidential")
    box = safeplot.plots.categorical.release_boxplot(
        TIPS, x="day", y="total_bill", method="confidential"
    )
    for (day, _), mine in zip(rel.groups, rel.boxes, strict=True):
        np.testing.assert_array_equal(mine.stats, box.box(day).stats)


def test_inner_quart_draws_the_released_quartiles():
    fig, ax = plt.subplots()
    violinplot(TIPS, x="day", y="total_bill", method="suppress", bins=10, inner="quart", ax=ax)
    rel = release_violinplot(
        TIPS, x="day", y="total_bill", method="suppress", bins=10, inner="quart"
    )
    drawn = {float(line.get_ydata()[0]) for line in ax.lines}
    wanted = {float(v) for qs in rel.quartiles if qs is not None for v in qs}
    assert wanted and wanted <= drawn


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential"])
@pytest.mark.parametrize("inner", ["stick", "point"])
def test_sticks_and_points_need_values_anonymised_per_record(method, inner):
    fig, ax = plt.subplots()
    with pytest.raises(DisclosureError, match="one mark per record"):
        violinplot(TIPS, x="day", y="tip", method=method, inner=inner, ax=ax)
    assert not ax.has_data()


def test_a_small_group_is_left_out_and_not_named():
    df = _small_group()
    fig, ax = plt.subplots()
    violinplot(df, x="ward", y="stay", ax=ax)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ["A", "B", "C"]
    texts = " ".join(t.get_text() for t in ax.texts)
    assert "left out" in texts and not any(ch.isdigit() for ch in texts.split("safeplot")[0])
    assert ax.safeplot_report.cells_suppressed == 1
    assert not scan_figure(fig, {"y": df["stay"].to_numpy()}, threshold=3)


def test_every_group_too_small_is_refused():
    df = _small_group()
    with pytest.raises(DisclosureError, match="every group has fewer than 3 records"):
        violinplot(df[df["ward"] == "E"], x="ward", y="stay")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"gridsize": 173}, ValueError, "gridsize"),
        ({"bw_adjust": 0.1}, DisclosureError, "bw_adjust=0.1 is below the floor"),
        ({"inner": "swarm"}, ValueError, "inner='swarm'"),
        ({"density_norm": "height"}, ValueError, "density_norm='height'"),
        ({"log_scale": True}, ValueError, "log_scale= is not supported"),
    ],
)
def test_probing_and_unsupported_arguments_are_refused(kwargs, error, match):
    fig, ax = plt.subplots()
    with pytest.raises(error, match=match):
        violinplot(TIPS, x="day", y="tip", ax=ax, **kwargs)
    assert not ax.has_data()


@pytest.mark.parametrize("inner", ["box", "quart", None])
def test_split_draws_each_hue_level_as_one_half_of_the_released_curve(inner):
    """seaborn's split violins: the first level on the left, the second on the right."""
    fig, ax = plt.subplots()
    violinplot(TIPS, x="day", y="total_bill", hue="sex", split=True, inner=inner, ax=ax)
    rel = release_violinplot(TIPS, x="day", y="total_bill", hue="sex", inner=inner)
    bodies = [c for c in ax.collections if len(c.get_paths())]
    assert len(bodies) == len(rel.groups)
    for body, (day, sex), support in zip(bodies, rel.groups, rel.support, strict=True):
        centre = list(rel.levels).index(day)
        verts = body.get_paths()[0].vertices
        side = verts[:, 0] - centre
        if sex == "Male":
            assert side.max() == pytest.approx(0) and side.min() < -0.1
        else:
            assert side.min() == pytest.approx(0) and side.max() > 0.1
        # the widest half reaches the slot's half width, twice a dodged violin's
        assert np.abs(side).max() <= 0.4 + 1e-9
        np.testing.assert_array_equal(np.unique(verts[:, 1]), np.unique(support))
    assert not scan_figure(fig, {"y": TIPS["total_bill"].to_numpy()}, count_axis=None)


def test_the_body_drawn_is_the_released_curve():
    fig, ax = plt.subplots()
    violinplot(TIPS, x="day", y="tip", inner=None, density_norm="width", ax=ax)
    rel = release_violinplot(TIPS, x="day", y="tip", inner=None, density_norm="width")
    bodies = [c for c in ax.collections if len(c.get_paths())]
    assert len(bodies) == 4
    for i, body in enumerate(bodies):
        verts = body.get_paths()[0].vertices
        # the widest point of each violin is the slot's half width (0.4) at the curve's peak
        assert np.max(verts[:, 0]) - i == pytest.approx(0.4)
        assert np.isin(rel.support[i], verts[:, 1]).all()
    assert audit.entries()[-1].function == "violinplot"


def test_horizontal_violins_with_hue():
    fig, ax = plt.subplots()
    violinplot(TIPS, x="tip", y="day", hue="sex", ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["Thur", "Fri", "Sat", "Sun"]
    assert ax.get_legend() is not None and ax.get_legend().get_title().get_text() == "sex"
    assert not scan_figure(fig, {"x": TIPS["tip"].to_numpy()}, threshold=3)


def test_catplot_violin_draws_one_release_per_facet():
    g = safeplot.catplot(TIPS, x="day", y="tip", col="time", kind="violin", height=2)
    assert [r.function for r in g.safeplot_reports] == ["violinplot"] * 2
    # every facet keeps catplot's order of categories, so slots line up across facets
    for ax in g.axes.flat:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["Thur", "Fri", "Sat", "Sun"]


@pytest.mark.parametrize("plot", ["violinplot", "boxenplot"])
def test_a_named_hue_level_keeps_its_legend_entry_whether_absent_or_small(plot):
    """seaborn keeps a level named in hue_order= that has no records, in the legend and as a
    dodge slot: so do violin and boxen plots, and a level of 2 records (too few to draw)
    has the same legend and marks, so the entry tells nothing the call did not say."""
    hue_order = ["Thur", "Fri", "Sat", "Sun"]
    base = TIPS.query("day != 'Thur'").astype({"day": str})
    small = pd.concat(
        [base, pd.DataFrame({"sex": ["Male"] * 2, "day": ["Thur"] * 2, "tip": [9.871, 0.213]})],
        ignore_index=True,
    )
    seen = []
    for df in (base, small):
        fig, ax = plt.subplots()
        getattr(safeplot, plot)(df, x="sex", y="tip", hue="day", hue_order=hue_order, ax=ax)
        legend = ax.get_legend()
        assert [t.get_text() for t in legend.get_texts()] == hue_order
        assert not scan_figure(fig, {"y": df["tip"].to_numpy()}, count_axis=None)
        seen.append(
            (
                [tuple(h.get_facecolor()) for h in legend.legend_handles],
                len(ax.collections),
            )
        )
    assert seen[0] == seen[1]
    # the legend's colours are seaborn's for the four levels
    fig, ax = plt.subplots()
    getattr(__import__("seaborn"), plot)(
        base, x="sex", y="tip", hue="day", hue_order=hue_order, ax=ax
    )
    expected = [tuple(h.get_facecolor()) for h in ax.get_legend().legend_handles]
    np.testing.assert_allclose(seen[0][0], expected, atol=1e-6)
