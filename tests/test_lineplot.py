"""lineplot and relplot(kind="line"): released numbers, refusals and attacks."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import rare_values
from safeplot.anonymize.statistics import round_sig
from safeplot.errors import DisclosureError
from safeplot.marks.lines import LINE_NOTE_GID
from safeplot.plots.line import ERRORBAR_MENU, lineplot, release_lineplot
from safeplot.release.guard import released_statistics

from .leakscan import scan_figure
from .test_seaborn_scripts import FMRI as FMRI_SCRIPT

TIPS = safeplot.load_dataset("tips")


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _texts(ax):
    texts = [t.get_text() for t in ax.texts]
    legend = ax.get_legend()
    if legend is not None:
        texts += [t.get_text() for t in legend.get_texts()]
    texts += [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    return texts


# -- the released numbers -----------------------------------------------------------------


def test_estimates_and_bands_per_x_value_are_the_rounded_group_statistics():
    rel = release_lineplot(TIPS, x="size", y="tip", errorbar=("se", 1))
    groups = TIPS.groupby("size")["tip"]
    mean, sem = groups.mean(), groups.sem()
    assert rel.x.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert rel.estimates.tolist() == [1.46, 2.58, 3.42, 4.14, 4.03, 5.22]
    # rounded to 3 figures and moved off tips fewer than 3 records hold: 1.44 -> 1.46
    rare = rare_values(TIPS["tip"], 3)
    assert {1.44, 1.45} <= set(rare)
    assert rel.estimates.tolist() == list(released_statistics(mean.to_numpy(), rare))
    assert rel.lower.tolist() == [1.18, 2.5, 3.17, 3.87, 3.38, 4.7]
    assert rel.upper.tolist() == [1.69, 2.66, 3.65, 4.41, 4.68, 5.75]
    assert rel.upper.tolist() == list(released_statistics((mean + sem).to_numpy(), rare))
    assert rel.bin_width is None and rel.notes == []
    assert rel.report.function == "lineplot"
    assert rel.report.params["estimator"] == "mean"
    assert rel.report.params["errorbar"] == "se, 1"


def test_the_median_and_a_percentile_band():
    rel = release_lineplot(TIPS, x="size", y="tip", estimator="median", errorbar=("pi", 50))
    medians = TIPS.groupby("size")["tip"].median().to_numpy()
    assert medians.tolist() == [1.415, 2.5, 3.29, 3.76, 5.0, 5.0]
    # 3.76 and 5.00 are tips of fewer than 3 records: the released medians move off them
    assert rel.estimates.tolist() == [1.42, 2.5, 3.29, 3.77, 5.01, 5.01]
    # percentile bands under "suppress" come from values winsorised at mean +/- 2.6 SD
    assert rel.report.params["winsor_sd"] == 2.6


def test_a_hue_level_is_left_out_where_it_has_too_few_records():
    rel = release_lineplot(TIPS, x="size", y="tip", hue="time", errorbar=("se", 1))
    lunch = rel.line(hue="Lunch")
    assert lunch["x"].tolist() == [2.0, 3.0, 4.0, 6.0]
    assert lunch["estimate"].tolist() == [2.42, 2.76, 4.22, 5.3]
    dinner = rel.line(hue="Dinner")
    counts = TIPS[TIPS["time"] == "Dinner"].groupby("size").size()
    assert dinner["x"].tolist() == [float(s) for s in counts[counts >= 3].index]
    # size 1: two records at lunch and two at dinner: the x value is left out altogether
    assert rel.notes[0] == "x values with too few records left out"
    assert rel.notes[1] == "points of single lines with too few records left out"
    assert "2 point(s) of single lines with fewer than 3 records left out." in rel.report.warnings
    assert "1 x value(s) with fewer than 3 records left out." in rel.report.warnings


def test_a_continuous_x_is_binned_on_the_histogram_grid():
    rel = release_lineplot(TIPS, x="total_bill", y="tip", errorbar=None)
    assert rel.bin_width == 5.0
    edges = np.arange(6.25, 60, 5.0)  # the safe grid: edges and centres off rare values
    assert rel.x.tolist() == [8.75, 13.75, 18.75, 23.75, 28.75, 33.75, 38.75, 43.75, 48.75]
    idx = np.searchsorted(edges, TIPS["total_bill"], side="right")
    expected = TIPS.groupby(idx)["tip"].agg(["mean", "size"])
    expected = expected[expected["size"] >= 3]
    assert rel.estimates.tolist() == list(round_sig(expected["mean"].to_numpy(), 3))
    assert rel.notes[-1] == "x binned on a regular grid (too few records per x value)"
    assert "x binned in steps of 5 (too few records per x value)." in rel.report.warnings
    assert rel.report.details["x_bin_width"] == 5.0


def test_a_discrete_x_with_enough_records_per_value_is_not_binned():
    rng = np.random.default_rng(1)
    df = pd.DataFrame({"dose": np.repeat([0.0, 0.5, 1.0, 2.0], 20), "y": rng.normal(size=80)})
    rel = release_lineplot(df, x="dose", y="y", errorbar=None)
    assert rel.bin_width is None
    assert rel.x.tolist() == [0.0, 0.5, 1.0, 2.0]


def test_wide_form_draws_one_line_per_column_against_the_binned_index():
    wide = pd.DataFrame(
        np.random.default_rng(0).normal(size=(100, 3)).cumsum(axis=0), columns=["a", "b", "c"]
    )
    rel = release_lineplot(wide, errorbar=("sd", 1))
    assert rel.hue_levels == ["a", "b", "c"] and rel.style == rel.hue
    assert rel.bin_width == 10.0
    line = rel.line(hue="a", style="a")
    assert line["x"].iloc[0] == 5.0  # the bin [0, 10) holds the rows 0..9
    assert line["estimate"].iloc[0] == round_sig(wide.iloc[:10]["a"].mean(), 3)
    fig, ax = plt.subplots()
    safeplot.lineplot(wide, errorbar=("sd", 1), ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "b", "c"]


def test_wide_form_of_single_records_is_binned_so_each_line_fills_its_bins():
    """A pivoted table (one record per index value and column): the bins are few enough that a
    line holds threshold records in each, as seaborn's flights example needs."""
    years = np.arange(1949, 1961)
    wide = pd.DataFrame(
        np.random.default_rng(3).normal(300, 50, (years.size, 4)).round(),
        index=pd.Index(years, name="year"),
        columns=["Jan", "Feb", "Mar", "Apr"],
    )
    rel = release_lineplot(wide)
    # 12 rows a line, 3 records a point: at most 4 bins, on the nice grid of width 5
    assert rel.bin_width == 5.0
    line = rel.line(hue="Jan", style="Jan")
    assert line["x"].tolist() == [1952.5, 1957.5]
    means = np.array([wide.loc[a : a + 4, "Jan"].mean() for a in (1950, 1955)])
    rare = rare_values(wide.to_numpy().ravel(), 3)
    assert line["estimate"].tolist() == list(released_statistics(means, rare))
    assert any("left out" in w for w in rel.report.warnings)  # 1949 and 1960 alone in a bin
    fig, ax = plt.subplots()
    lineplot(wide, ax=ax)
    assert not scan_figure(fig, {"x": np.repeat(years, 4), "y": wide.to_numpy().ravel()})
    plt.close("all")


def test_wide_form_too_short_for_one_bin_is_refused_naming_long_form():
    """Two rows: no bin can hold three records of a line; the refusal names long-form data,
    not hue or style levels the call does not have."""
    wide = pd.DataFrame(
        [[310.0, 290.0, 305.0], [330.0, 300.0, 320.0]],
        index=pd.Index([1949, 1950], name="year"),
        columns=["Jan", "Feb", "Mar"],
    )
    with pytest.raises(DisclosureError, match="long-form data with x= and y=") as info:
        lineplot(wide)
    assert "hue" not in str(info.value)
    plt.close("all")


def test_values_methods_anonymise_within_each_point_and_microaggregation_needs_2k():
    rel = release_lineplot(TIPS, x="size", y="tip", method="microaggregation", errorbar=None)
    # a point needs 2k = 6 records for two groups of k: sizes 1, 5 and 6 have 4 or 5
    assert rel.x.tolist() == [2.0, 3.0, 4.0]
    assert rel.notes == ["x values with too few records left out"]
    assert "3 x value(s) with fewer than 6 records left out." in rel.report.warnings
    det = release_lineplot(TIPS, x="size", y="tip", method="deterministic", errorbar=None)
    assert det.x.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    assert det.report.method == "deterministic"


# -- the figure ---------------------------------------------------------------------------


def test_the_figure_draws_the_release_and_notes_what_was_left_out():
    fig, ax = plt.subplots()
    lineplot(TIPS, x="size", y="tip", hue="time", errorbar=("se", 1), ax=ax)
    rel = release_lineplot(TIPS, x="size", y="tip", hue="time", errorbar=("se", 1))
    lines = [line for line in ax.get_lines() if line.get_label() in ("Lunch", "Dinner")]
    lines = [line for line in ax.get_lines() if len(line.get_xdata()) > 1]
    drawn = {tuple(line.get_ydata()) for line in lines}
    assert tuple(rel.line(hue="Lunch")["estimate"]) in drawn
    assert tuple(rel.line(hue="Dinner")["estimate"]) in drawn
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LINE_NOTE_GID]
    assert notes == ["\n".join(rel.notes)]
    assert ax.safeplot_report.function == "lineplot"
    assert audit.entries()[-1].function == "lineplot"


def test_a_level_keeps_its_colour_when_another_is_left_out():
    df = TIPS.assign(party=TIPS["day"].astype(str))
    df.loc[df.index[df["size"] == 5][:2], "party"] = "five"  # two records: left out
    fig, (a, b) = plt.subplots(1, 2)
    order = ["Thur", "five", "Fri", "Sat", "Sun"]
    lineplot(df, x="size", y="tip", hue="party", hue_order=order, errorbar=None, ax=a)
    lineplot(TIPS, x="size", y="tip", hue="day", errorbar=None, ax=b)
    labels = [t.get_text() for t in a.get_legend().get_texts()]
    assert "five" not in labels
    colours = {
        t.get_text(): plt.matplotlib.colors.to_hex(h.get_color())
        for t, h in zip(a.get_legend().get_texts(), a.get_legend().legend_handles, strict=True)
    }
    assert colours["Fri"] == plt.matplotlib.colors.to_hex("C2")


# -- attacks ------------------------------------------------------------------------------


def test_a_one_record_x_value_is_neither_drawn_nor_named():
    df = TIPS[["size", "tip"]].copy()
    df.loc[len(df)] = [17.0, 9.871]  # one party of 17: its tip is its record
    fig, ax = plt.subplots()
    lineplot(df, x="size", y="tip", errorbar=("se", 1), ax=ax)
    assert not scan_figure(fig, {"x": df["size"].to_numpy(), "y": df["tip"].to_numpy()})
    for line in ax.get_lines():
        assert 17.0 not in line.get_xdata()
    assert not any("17" in t or "9.87" in t for t in _texts(ax))
    assert ax.get_xlim()[1] < 17


def test_stepping_the_errorbar_level_is_refused_off_the_menu():
    accepted = []
    for kind in ("ci", "pi", "se", "sd"):
        for level in [*range(1, 100), 2.5, 94.9]:
            try:
                release_lineplot(TIPS, x="size", y="tip", errorbar=(kind, level), n_boot=10)
            except ValueError as err:
                assert "not available" in str(err)
            else:
                accepted.append((kind, level))
    assert sorted(accepted) == sorted(ERRORBAR_MENU)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"estimator": None}, DisclosureError, "estimator=None draws every record"),
        ({"estimator": np.mean}, DisclosureError, "callable estimator"),
        ({"estimator": "max"}, DisclosureError, "'max' is not a released estimator"),
        ({"estimator": "sum"}, DisclosureError, "'mean' or 'median'"),
        ({"units": "day"}, DisclosureError, "units= draws one line per unit"),
        ({"weights": "size"}, ValueError, "weights= is not supported"),
        ({"errorbar": lambda v: (v.min(), v.max())}, ValueError, "callable errorbar"),
        ({"errorbar": ("ci", 94)}, ValueError, "not available"),
        ({"errorbar": "iqr"}, ValueError, "must be one of"),
        ({"orient": "y"}, ValueError, "orient='y' is not supported"),
        ({"method": "generalize"}, ValueError, "not available for line plots"),
        ({"method": "none"}, DisclosureError, "raw"),
        ({"threshold": 2}, DisclosureError, "threshold"),
        ({"ci": 95}, ValueError, "deprecated spelling"),
    ],
)
def test_refusals_name_the_safe_alternative_and_draw_nothing(kwargs, error, match):
    fig, ax = plt.subplots()
    with pytest.raises(error, match=match):
        lineplot(TIPS, x="size", y="tip", ax=ax, **kwargs)
    assert not ax.lines and not ax.collections and not ax.texts
    assert audit.entries() == []


@pytest.mark.parametrize(
    ("data", "kwargs", "match"),
    [
        (TIPS, {"x": "day", "y": "tip"}, "text|numeric|categor"),
        (TIPS, {"x": "size"}, "needs both x= and y="),
        (TIPS.iloc[:0], {"x": "size", "y": "tip"}, "empty"),
        (TIPS.assign(t=np.inf), {"x": "size", "y": "t"}, "inf"),
        (TIPS, {"x": "size", "y": "nope"}, "no column"),
        (TIPS.set_index("day"), {}, "index, which must be numeric"),
    ],
)
def test_bad_input_gets_a_clear_error(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        lineplot(data, **kwargs)


def test_raw_output_needs_the_policy():
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        lineplot(TIPS, x="size", y="tip", method="none", errorbar=None, ax=ax)
    assert ax.safeplot_report.method == "none"


def test_relplot_kind_line_releases_each_facet():
    g = safeplot.relplot(
        TIPS, x="size", y="tip", col="time", kind="line", errorbar=("se", 1), height=2
    )
    reports = g.safeplot_reports
    assert [r.function for r in reports] == ["lineplot", "lineplot"]
    assert [r.method for r in reports] == ["suppress", "suppress"]
    raw = {"x": TIPS["size"].to_numpy(), "y": TIPS["tip"].to_numpy()}
    from safeplot.plots.facets import facet_axes_variables

    assert not scan_figure(g.figure, raw, per_axes=facet_axes_variables(g, TIPS))


# -- size: a line width per level ----------------------------------------------------------


def _fmri() -> pd.DataFrame:
    """fmri's shape (subjects x time points x events x regions), as the scripts make it."""
    namespace = {"np": np, "pd": pd}
    exec(FMRI_SCRIPT, namespace)
    return namespace["fmri"]


FMRI = _fmri()


def _legend(ax) -> dict[str, float]:
    legend = ax.get_legend()
    return {
        t.get_text(): h.get_linewidth()
        for t, h in zip(legend.get_texts(), legend.legend_handles, strict=True)
    }


def _widths(ax) -> list[float]:
    return [line.get_linewidth() for line in ax.get_lines() if len(line.get_xdata()) > 1]


def test_size_groups_the_release_by_its_levels_as_hue_does():
    rel = release_lineplot(
        FMRI, x="timepoint", y="signal", hue="event", size="region", errorbar=("se", 1)
    )
    assert rel.size_levels == ["parietal", "frontal"] and rel.hue_levels == ["stim", "cue"]
    assert rel.names["size"] == "region" and not rel.size_numeric
    rare = rare_values(FMRI["signal"], 3)
    for event in ("stim", "cue"):
        for region in ("parietal", "frontal"):
            line = rel.line(hue=event, size=region)
            sub = FMRI[(FMRI["event"] == event) & (FMRI["region"] == region)]
            mean = sub.groupby("timepoint")["signal"].mean()
            assert line["x"].tolist() == [float(t) for t in range(19)]
            assert line["estimate"].tolist() == list(released_statistics(mean.to_numpy(), rare))


def test_size_draws_seaborns_line_width_per_level_and_a_size_legend_section():
    fig, (ax, raw) = plt.subplots(1, 2)
    lineplot(FMRI, x="timepoint", y="signal", hue="event", size="region", ax=ax)
    import seaborn as sns

    sns.lineplot(FMRI, x="timepoint", y="signal", hue="event", size="region", ax=raw)
    assert _legend(ax) == _legend(raw)  # event and region sections, seaborn's widths
    assert list(_legend(ax)) == ["event", "stim", "cue", "region", "parietal", "frontal"]
    lw = plt.rcParams["lines.linewidth"]
    assert _legend(ax)["parietal"] == 2 * lw and _legend(ax)["frontal"] == 0.5 * lw
    assert sorted(_widths(ax)) == sorted(_widths(raw)) == [0.5 * lw] * 2 + [2 * lw] * 2
    raw.remove()  # seaborn's panel drew the records; scan safeplot's alone
    assert not scan_figure(
        fig, {"x": FMRI["timepoint"].to_numpy(), "y": FMRI["signal"].to_numpy()}
    )


def test_a_small_size_level_is_left_out_unnamed_and_the_others_keep_their_widths():
    df = TIPS.assign(when=TIPS["time"].astype(str))
    df.loc[df.index[:2], "when"] = "Brunch"  # two records: left out
    order = ["Lunch", "Brunch", "Dinner"]
    fig, ax = plt.subplots()
    lineplot(df, x="size", y="tip", size="when", size_order=order, errorbar=None, ax=ax)
    rel = release_lineplot(df, x="size", y="tip", size="when", size_order=order, errorbar=None)
    assert rel.size_levels == ["Lunch", "Dinner"] and rel.size_positions == [0, 2]
    widths = _legend(ax)
    assert "Brunch" not in widths
    lw = plt.rcParams["lines.linewidth"]
    # three levels: 2, 1.25 and 0.5 times lines.linewidth; Dinner keeps the third
    assert widths["Lunch"] == 2 * lw and widths["Dinner"] == 0.5 * lw
    assert "points of single lines with too few records left out" in rel.notes
    assert not any("Brunch" in t for t in _texts(ax))


def _numeric_sized(n_levels: int) -> pd.DataFrame:
    rng = np.random.default_rng(7)
    dose = np.repeat(np.arange(1, n_levels + 1) * 1.5, 60)
    x = np.tile(np.repeat([0.0, 1.0, 2.0], 20), n_levels)
    df = pd.DataFrame({"x": x, "dose": dose, "y": rng.normal(size=dose.size) + dose})
    # one record at a rare dose: left out, and its value is neither drawn nor printed
    df.loc[len(df)] = [1.0, 13.37, 9.25]
    return df


def test_a_numeric_size_is_normalised_over_the_drawn_levels_with_a_brief_legend():
    df = _numeric_sized(8)
    fig, ax = plt.subplots()
    lineplot(df, x="x", y="y", size="dose", errorbar=None, ax=ax)
    rel = release_lineplot(df, x="x", y="y", size="dose", errorbar=None)
    assert rel.size_numeric and 13.37 not in rel.size_levels
    assert rel.size_levels == [1.5 * i for i in range(1, 9)]
    lw = plt.rcParams["lines.linewidth"]
    widths = sorted(_widths(ax))
    assert widths[0] == 0.5 * lw and widths[-1] == 2 * lw  # the drawn levels span the range
    legend = _legend(ax)
    # more than six levels: a locator's round numbers between 1.5 and 12, as scatterplot's
    from safeplot.plots.relational import brief_legend_entries

    assert list(legend) == brief_legend_entries(np.array(rel.size_levels))[1]
    assert "13.37" not in legend
    for label, width in legend.items():
        assert width == pytest.approx(0.5 * lw + (float(label) - 1.5) / 10.5 * 1.5 * lw)
    assert not scan_figure(fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()})


def test_a_numeric_size_with_few_levels_lists_each_drawn_level():
    df = _numeric_sized(3)
    fig, ax = plt.subplots()
    lineplot(df, x="x", y="y", size="dose", errorbar=None, ax=ax)
    assert list(_legend(ax)) == ["1.5", "3.0", "4.5"]


def test_relplot_kind_line_gives_a_size_level_one_width_in_every_facet():
    g = safeplot.relplot(
        TIPS, x="size", y="tip", col="time", size="smoker", kind="line", errorbar=None, height=2
    )
    lw = plt.rcParams["lines.linewidth"]
    labels = [t.get_text() for t in g.legend.get_texts()]
    assert labels == ["Yes", "No"]
    assert [h.get_linewidth() for h in g.legend.legend_handles] == [2 * lw, 0.5 * lw]
    for ax in g.axes.flat:
        assert set(_widths(ax)) <= {2 * lw, 0.5 * lw}


# -- dates on x ----------------------------------------------------------------------------


def _daily(days: int = 30, per_day: int = 4) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    when = np.repeat(pd.date_range("2021-03-01", periods=days, freq="D"), per_day)
    df = pd.DataFrame({"when": when, "y": rng.normal(size=when.size).cumsum()})
    # a visit on a day of its own: its date is one record's
    df.loc[len(df)] = [pd.Timestamp("2021-05-17 13:45"), 3.125]
    return df


def test_dates_are_released_as_date_numbers_and_a_one_record_date_is_left_out():
    import matplotlib.dates as mdates

    df = _daily()
    rel = release_lineplot(df, x="when", y="y", errorbar=None)
    assert rel.x_dates and rel.bin_width is None
    kept = pd.date_range("2021-03-01", periods=30, freq="D")
    assert rel.x.tolist() == mdates.date2num(kept.to_numpy()).tolist()
    means = df.iloc[:-1].groupby("when")["y"].mean().to_numpy()
    assert rel.estimates.tolist() == list(released_statistics(means, rare_values(df["y"], 3)))
    assert rel.notes == ["x values with too few records left out"]
    assert "1 x value(s) with fewer than 3 records left out." in rel.report.warnings


def test_dates_are_drawn_on_a_date_axis_with_no_rare_date():
    import matplotlib.dates as mdates

    df = _daily()
    fig, ax = plt.subplots()
    lineplot(df, x="when", y="y", errorbar=("se", 1), ax=ax)
    assert isinstance(ax.xaxis.get_major_locator(), mdates.AutoDateLocator)
    assert isinstance(ax.xaxis.get_major_formatter(), mdates.AutoDateFormatter)
    fig.canvas.draw()
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels and all(lab[:7] in ("2021-03", "2021-04") for lab in labels)
    # the ticks are the locator's over the released limits, as the release lists them
    rel = release_lineplot(df, x="when", y="y", errorbar=("se", 1))
    assert ax.get_xticks().tolist() == rel.xticks.tolist()
    lone = mdates.date2num(np.datetime64("2021-05-17T13:45"))
    assert ax.get_xlim()[1] < lone
    for line in ax.get_lines():
        assert lone not in np.asarray(line.get_xdata(), dtype=float)
    numbers = mdates.date2num(df["when"].to_numpy())
    assert not scan_figure(fig, {"x": numbers, "y": df["y"].to_numpy()})
    notes = [t.get_text() for t in ax.texts if t.get_gid() == LINE_NOTE_GID]
    assert notes == ["x values with too few records left out"]


def test_a_wide_frame_with_a_datetime_index_is_binned_in_days():
    dates = pd.date_range("2016-01-01", periods=365, freq="D")
    wide = pd.DataFrame(
        np.random.default_rng(365).normal(size=(365, 4)).cumsum(axis=0),
        index=dates,
        columns=["A", "B", "C", "D"],
    )
    rel = release_lineplot(wide, errorbar=("sd", 1))
    assert rel.x_dates and rel.bin_width == 25.0
    assert "x binned in steps of 25 days (too few records per x value)." in rel.report.warnings
    fig, ax = plt.subplots()
    lineplot(wide, palette="tab10", linewidth=2.5, ax=ax)
    fig.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()][:2] == ["2016-01", "2016-03"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["A", "B", "C", "D"]


@pytest.mark.parametrize("wide", [False, True])
def test_timezone_aware_dates_are_refused_with_advice(wide):
    df = _daily().assign(when=lambda d: d["when"].dt.tz_localize("Europe/London"))
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match=r"timezone-aware.*tz_localize\(None\)"):
        if wide:
            lineplot(df.set_index("when")[["y"]], ax=ax)
        else:
            lineplot(df, x="when", y="y", ax=ax)
    assert not ax.lines and audit.entries() == []


def test_relplot_kind_line_keeps_the_date_axis_on_shared_limits():
    import matplotlib.dates as mdates

    from safeplot.plots.facets import facet_axes_variables

    df = _daily(40, 6).assign(g=lambda d: np.where(np.arange(len(d)) % 2, "a", "b"))
    g = safeplot.relplot(df, x="when", y="y", col="g", kind="line", errorbar=None, height=2)
    g.figure.canvas.draw()
    for ax in g.axes.flat:
        assert isinstance(ax.xaxis.get_major_formatter(), mdates.AutoDateFormatter)
        assert [t.get_text()[:4] for t in ax.get_xticklabels()] == ["2021"] * len(ax.get_xticks())
    dated = df.assign(when=mdates.date2num(df["when"].to_numpy()))
    raw = {"x": dated["when"].to_numpy(), "y": dated["y"].to_numpy()}
    per_axes = facet_axes_variables(g, dated)
    assert not scan_figure(g.figure, raw, per_axes=per_axes)
