"""Survival curves, Cox models and log-rank tests under disclosure control (issue 19).

The acceptance criteria are checked on what is drawn, on lifelines' rossi and
lung data, for every method: no drawn drop at a duration held by fewer than
threshold records; at most (events / threshold) drops per curve; every drawn
count 0 or at least threshold and a multiple of the rounding base; nothing at
or beyond the longest follow-up; heights rounded. Then utility against
lifelines' raw estimate, the Cox model against lifelines', differencing of
two releases, and bad inputs.
"""

from __future__ import annotations

import itertools
import re

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from lifelines import CoxPHFitter
from lifelines import KaplanMeierFitter as RawKMF
from lifelines.datasets import load_lung, load_rossi
from lifelines.statistics import logrank_test as raw_logrank

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import rare_values
from safeplot.anonymize.statistics import round_sig
from safeplot.errors import DisclosureError
from safeplot.marks.survival import AT_RISK_GID
from safeplot.plots.survival import SURVIVAL_METHODS, release_survival
from safeplot.release import from_json, to_json
from safeplot.release.guard import LEFT_OUT_NOTE
from safeplot.survival import KaplanMeierFitter, logrank_test, safe_coxph, survival_table

from .leakscan import scan_figure

THRESHOLD = 3
BASE = 5
RAW_ROSSI = load_rossi()
ROSSI = RAW_ROSSI.copy()
LUNG = load_lung()
# group names as words: a legend entry "1" is a category, but the scanner compares every
# number drawn with the rare durations
ROSSI["aid"] = ROSSI["fin"].map({0: "no", 1: "yes"})
LUNG["sex"] = LUNG["sex"].map({1: "male", 2: "female"})
#: data set -> (frame, duration, event, hue)
DATA = {
    "rossi": (ROSSI, "week", "arrest", "aid"),
    "lung": (LUNG, "time", "status", "sex"),
}


@pytest.fixture(autouse=True)
def _clean():
    audit.clear()
    yield
    plt.close("all")
    audit.clear()


def _curves(ax):
    """The drawn curves: (x, y) of each line on the Axes."""
    return [
        (np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float))
        for line in ax.lines
    ]


def _drops(x, y):
    return x[1:][np.diff(y) < 0]


def _table_numbers(fig):
    tables = [a for a in fig.axes if a.get_gid() == AT_RISK_GID]
    numbers = []
    for table in tables:
        for label in table.get_xticklabels():
            numbers += [float(v) for v in re.findall(r"\d+", label.get_text())]
    return tables, np.array(numbers)


def _all_x_numbers(fig):
    out = []
    for ax in fig.axes:
        out += list(ax.get_xlim()) + list(ax.get_xticks())
        for line in ax.lines:
            out += list(np.asarray(line.get_xdata(), float))
        for coll in ax.collections:
            for path in coll.get_paths():
                out += list(path.vertices[:, 0])
        if ax.get_gid() != AT_RISK_GID:
            for t in ax.get_xticklabels():
                out += [
                    float(v.replace("\u2212", "-"))
                    for v in re.findall(r"[-\u2212]?\d+\.?\d*", t.get_text())
                ]
    return np.array(out, dtype=float)


@pytest.mark.parametrize("method", SURVIVAL_METHODS)
@pytest.mark.parametrize("name", list(DATA))
def test_acceptance_on_what_is_drawn(name, method):
    df, dur, ev, hue = DATA[name]
    levels = sorted(df[hue].unique())
    fig, ax = plt.subplots()
    kw = dict(duration=dur, event=ev, hue=hue, hue_order=levels, method=method)
    safeplot.kmplot(df, **kw, at_risk_counts=True, ax=ax)
    d = df[dur].to_numpy(float)
    rare = np.unique(
        np.concatenate(
            [rare_values(d, THRESHOLD)] + [rare_values(d[df[hue] == g], THRESHOLD) for g in levels]
        )
    )
    curves = _curves(ax)
    assert len(curves) == len(levels)
    for level, (x, y) in zip(levels, curves, strict=True):
        drops = _drops(x, y)
        # no drawn drop at a duration held by fewer than threshold records
        assert not np.isin(drops, rare).any(), drops[np.isin(drops, rare)]
        events = int(df.loc[df[hue] == level, ev].sum())
        assert drops.size <= events / THRESHOLD
        assert drops.size >= 2, "the curve shows hardly anything"
        # heights rounded to the policy's significant figures
        assert np.array_equal(y, round_sig(y, 3))
    # every drawn count 0 or >= threshold and a multiple of the rounding base
    tables, counts = _table_numbers(fig)
    assert tables and counts.size
    assert ((counts == 0) | (counts >= THRESHOLD)).all()
    assert (counts % BASE == 0).all()
    # nothing reaches the longest follow-up
    assert (_all_x_numbers(fig) < d.max()).all()
    assert ax.safeplot_report.method == method
    assert audit.entries()[-1].function == "kmplot"
    # the general leak scan of every number drawn without the table (whose numbers are
    # counts, checked above, and which the scanner would compare with whole-day durations;
    # so are the report's counts in a saved file's metadata: saved=False)
    fig, ax = plt.subplots()
    safeplot.kmplot(df, **kw, ax=ax)
    assert not scan_figure(fig, {"x": d}, count_axis=None)


def test_utility_against_lifelines_on_rossi():
    rel = release_survival(ROSSI, duration="week", event="arrest")
    raw = RawKMF().fit(ROSSI["week"], ROSSI["arrest"])
    t = rel.times[0]
    diff = np.abs(raw.predict(t).to_numpy() - rel.survival[0])
    assert diff.max() < 0.05
    # the heights come from counts rounded to 5; on rossi that costs under 0.01 (docs say 0.006)
    assert diff.max() < 0.01
    by = release_survival(ROSSI, duration="week", event="arrest", hue="fin")
    for i, level in enumerate(by.levels):
        rows = ROSSI["fin"] == level
        raw = RawKMF().fit(ROSSI.loc[rows, "week"], ROSSI.loc[rows, "arrest"])
        assert np.abs(raw.predict(by.times[i]).to_numpy() - by.survival[i]).max() < 0.05


def test_confidence_bands_come_from_released_counts():
    rel = release_survival(ROSSI, duration="week", event="arrest")
    s, lo, hi = rel.survival[0], rel.lower[0], rel.upper[0]
    assert (lo <= s).all() and (s <= hi).all()
    assert np.array_equal(lo, round_sig(lo, 3)) and np.array_equal(hi, round_sig(hi, 3))
    # recomputed from the released at-risk and event counts alone
    n, d = rel.at_risk[0], rel.observed[0]
    var = np.cumsum(d / (n * (n - d)))
    half = 1.959964 * np.sqrt(var) / np.log(s[1:-1])
    lower = np.exp(-np.exp(np.log(-np.log(s[1:-1])) - half))
    assert np.allclose(lo[1:-1], lower, atol=0.002)
    assert ((n % BASE == 0) & (n >= THRESHOLD)).all() and (
        (d % BASE == 0) & (d >= THRESHOLD)
    ).all()


def test_cox_hazard_ratios_match_lifelines():
    fit = safe_coxph(data=RAW_ROSSI, duration_col="week", event_col="arrest")
    raw = CoxPHFitter().fit(RAW_ROSSI, "week", "arrest")
    expected = round_sig(raw.hazard_ratios_.to_numpy(), 3)
    assert np.array_equal(fit.hazard_ratios_.to_numpy(), expected)
    assert np.array_equal(fit.params_.to_numpy(), round_sig(raw.params_.to_numpy(), 3))
    assert fit.concordance_index_ == round_sig(raw.concordance_index_, 3)
    ci = fit.confidence_intervals_
    assert list(ci.columns) == ["coef lower 95%", "coef upper 95%"]
    assert fit.nobs == 430 and fit.events == 115  # rounded to the base
    entry = audit.entries()[-1]
    assert entry.function == "safe_coxph" and entry.released is not None
    with pytest.raises(safeplot.diagnostics.ReleaseRefused, match="not released"):
        _ = fit.baseline_survival_
    with pytest.raises(ValueError, match=r"alpha=0\.07 is not available"):
        safe_coxph(data=RAW_ROSSI, duration_col="week", event_col="arrest", alpha=0.07)
    strat = safe_coxph(
        "age + prio", data=ROSSI, duration_col="week", event_col="arrest", strata="fin"
    )
    raw = CoxPHFitter(strata=["fin"]).fit(
        RAW_ROSSI[["week", "arrest", "fin", "age", "prio"]], "week", "arrest"
    )
    assert np.array_equal(
        strat.hazard_ratios_.to_numpy(), round_sig(raw.hazard_ratios_.to_numpy(), 3)
    )


def test_cox_refusals():
    small = RAW_ROSSI.copy()
    small["rare"] = 0
    small.loc[small.index[small["arrest"] == 1][:2], "rare"] = 1
    with pytest.raises(DisclosureError, match=r"categories \['rare=1'\] have fewer than"):
        safe_coxph("fin + rare", data=small, duration_col="week", event_col="arrest")
    few = RAW_ROSSI.iloc[:14]
    with pytest.raises(
        DisclosureError, match=r"residual\s+degrees of freedom|fewer than threshold"
    ):
        safe_coxph(data=few, duration_col="week", event_col="arrest")
    with pytest.raises(DisclosureError, match="stratum"):
        tiny = RAW_ROSSI.assign(site=np.where(RAW_ROSSI.index < 2, "x", "y"))
        safe_coxph("age", data=tiny, duration_col="week", event_col="arrest", strata="site")
    assert audit.entries() == []


def test_logrank_is_lifelines_rounded():
    a, b = ROSSI[ROSSI.fin == 1], ROSSI[ROSSI.fin == 0]
    res = logrank_test(a.week, b.week, a.arrest, b.arrest)
    raw = raw_logrank(a.week, b.week, a.arrest, b.arrest)
    assert res.test_statistic == round_sig(raw.test_statistic, 3)
    assert res.p_value == round_sig(raw.p_value, 3)
    assert audit.entries()[-1].function == "logrank_test"
    with pytest.raises(DisclosureError, match="group B has fewer than threshold"):
        logrank_test(a.week, b.week[:30], a.arrest, np.r_[1, 1, np.zeros(28)])


def test_kaplan_meier_fitter_releases_only_safe_numbers():
    kmf = KaplanMeierFitter().fit(LUNG["time"], LUNG["status"], label="lung")
    rel = kmf.release
    sf = kmf.survival_function_
    assert list(sf.columns) == ["lung"] and sf.index.name == "timeline"
    assert np.array_equal(sf["lung"].to_numpy(), rel.survival[0][:-1])
    ci = kmf.confidence_interval_
    assert list(ci.columns) == ["lung_lower_0.95", "lung_upper_0.95"]
    raw = RawKMF().fit(LUNG["time"], LUNG["status"])
    # the released median is the first released time at or below one half, after lifelines'
    assert raw.median_survival_time_ <= kmf.median_survival_time_ < raw.median_survival_time_ + 60
    table = kmf.event_table.to_numpy()
    shown = table[np.isfinite(table)]
    assert ((shown == 0) | (shown >= THRESHOLD)).all() and (shown % BASE == 0).all()
    d = LUNG["time"].to_numpy(float)
    assert not np.isin(kmf.event_table.index, rare_values(d, THRESHOLD)).any()
    assert sf.index.max() < d.max()
    assert audit.entries()[-1].function == "KaplanMeierFitter"
    fig, ax = plt.subplots()
    kmf.plot_survival_function(ax=ax, at_risk_counts=True)
    assert ax.lines[0].get_label() == "lung"
    tables, counts = _table_numbers(fig)
    assert ((counts == 0) | (counts >= THRESHOLD)).all()
    with pytest.raises(ValueError, match="weights= is not supported"):
        KaplanMeierFitter().fit(LUNG["time"], LUNG["status"], weights=np.ones(len(LUNG)))


def test_survival_table_reads_the_released_curves():
    out = survival_table(LUNG, duration="time", event="status", hue="sex", times=[180, 365, 5000])
    assert list(out.columns) == ["n", "events", "median", "S(180)", "S(365)", "S(5000)"]
    assert out["S(5000)"].isna().all()  # past the released curve
    for level in ("male", "female"):
        rows = LUNG["sex"] == level
        raw = RawKMF().fit(LUNG.loc[rows, "time"], LUNG.loc[rows, "status"])
        assert abs(out.loc[level, "S(180)"] - raw.predict(180)) < 0.05
        assert abs(out.loc[level, "median"] - raw.median_survival_time_) < 50
    assert (out[["n", "events"]].to_numpy() % BASE == 0).all()


# -- differencing ------------------------------------------------------------------------------


def _released_numbers(rel):
    """Every drawn time and count of a release, per level."""
    return [
        (rel.times[i][1:-1], rel.table[i], rel.at_risk[i], rel.observed[i])
        for i in range(len(rel.levels))
    ]


@pytest.mark.parametrize("name", list(DATA))
def test_differencing_with_and_without_one_record(name):
    df, dur, ev, hue = DATA[name]
    d = df[dur].to_numpy(float)
    # the record with the latest event: the one a raw curve's last drop would show
    target = df.index[df[ev] == 1][np.argmax(d[df[ev].to_numpy() == 1])]
    full = release_survival(df, duration=dur, event=ev)
    less = release_survival(df.drop(index=target), duration=dur, event=ev)
    rare = np.union1d(rare_values(d, THRESHOLD), rare_values(np.delete(d, target), THRESHOLD))
    for rel in (full, less):
        assert not np.isin(rel.times[0], rare).any()
        assert not np.isin(rel.times[0], [d[target]]).any()
    # counts at the times both show differ by 0 or at least the threshold
    common = np.intersect1d(full.table_times, less.table_times)
    a = full.table[0][:, np.isin(full.table_times, common)]
    b = less.table[0][:, np.isin(less.table_times, common)]
    diff = np.abs(np.nan_to_num(a) - np.nan_to_num(b))
    assert ((diff == 0) | (diff >= THRESHOLD)).all()
    # the drop times that differ between the two are grid times, none of them a rare duration
    changed = np.setxor1d(full.times[0], less.times[0])
    assert not np.isin(changed, rare).any()
    # heights at common drops differ by rounding and the one record, never by a step of 1/n
    # at a time only that record holds
    assert not np.isin(changed, d[target]).any()


@pytest.mark.parametrize("name", list(DATA))
def test_differencing_with_and_without_a_group(name):
    df, dur, ev, hue = DATA[name]
    pooled = release_survival(df, duration=dur, event=ev)
    grouped = release_survival(df, duration=dur, event=ev, hue=hue)
    one = release_survival(df, duration=dur, event=ev, hue=hue, hue_order=[grouped.levels[0]])
    common = np.intersect1d(pooled.table_times, grouped.table_times)
    at = lambda rel, i: rel.table[i][:, np.isin(rel.table_times, common)]  # noqa: E731
    total = np.nan_to_num(at(grouped, 0)) + np.nan_to_num(at(grouped, 1))
    diff = np.abs(np.nan_to_num(at(pooled, 0)) - total)
    assert ((diff == 0) | (diff >= THRESHOLD)).all()
    diff = np.abs(np.nan_to_num(at(pooled, 0)) - np.nan_to_num(at(one, 0)))
    assert ((diff == 0) | (diff >= THRESHOLD)).all()
    d = df[dur].to_numpy(float)
    rare = rare_values(d, THRESHOLD)
    for rel in (pooled, grouped, one):
        for times, *_ in _released_numbers(rel):
            assert not np.isin(times, rare).any()


# -- bad inputs --------------------------------------------------------------------------------


def _frame(durations, events, groups=None):
    out = pd.DataFrame({"t": durations, "e": events})
    if groups is not None:
        out["g"] = groups
    return out


_RNG = np.random.default_rng(19)
_T = np.round(_RNG.exponential(20, 120), 1) + 0.5
_E = (_RNG.random(120) < 0.7).astype(int)

BAD = {
    "all-censored": (_frame(_T, np.zeros(120, int)), DisclosureError, "no event is observed"),
    "one-event": (
        _frame(_T, np.r_[1, np.zeros(119, int)]),
        DisclosureError,
        "fewer than threshold=3",
    ),
    "every-group-small": (
        _frame(_T, _E, np.arange(120) % 60),
        DisclosureError,
        r"every hue level has fewer than 3 events \(threshold=3\)",
    ),
    "negative": (
        _frame(np.r_[-1.0, _T[1:]], _E),
        ValueError,
        "durations must be zero or positive",
    ),
    "all-missing": (_frame(np.full(120, np.nan), _E), ValueError, "no values|missing"),
    "non-binary": (_frame(_T, np.r_[2, _E[1:]]), ValueError, "event indicator must be 0/1"),
    "text-events": (_frame(_T, np.r_[["yes"], _E[1:].astype(str)]), ValueError, "event indicator"),
    "constant": (_frame(np.full(120, 7.0), _E), DisclosureError, "constant"),
    "text-durations": (
        _frame(np.r_[["soon"], _T[1:]].astype(object), _E),
        ValueError,
        "text|numeric",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_refused_clearly(case):
    df, error, match = BAD[case]
    hue = "g" if "g" in df else None
    before = set(plt.get_fignums())
    with pytest.raises(error, match=match):
        safeplot.kmplot(df, duration="t", event="e", hue=hue)
    assert set(plt.get_fignums()) == before
    assert audit.entries() == []
    if hue is None:
        with pytest.raises(error, match=match):
            KaplanMeierFitter().fit(df["t"], df["e"])


def test_tied_times_and_missing_rows_are_handled():
    tied = _frame(np.round(_T / 10) * 10 + 10, _E)
    rel = release_survival(tied, duration="t", event="e")
    assert rel.times[0].size > 2
    assert not np.isin(rel.times[0], rare_values(tied["t"], THRESHOLD)).any()
    holes = _frame(np.r_[np.nan, np.nan, _T[2:]], _E)
    rel = release_survival(holes, duration="t", event="e")
    assert any("missing values were dropped" in w for w in rel.report.warnings)


def test_parameters_come_from_menus():
    with pytest.raises(ValueError, match=r"ci=0\.93 is not available"):
        safeplot.kmplot(ROSSI, duration="week", event="arrest", ci=0.93)
    with pytest.raises(ValueError, match="bins=37 is not available"):
        safeplot.kmplot(ROSSI, duration="week", event="arrest", bins=37)
    with pytest.raises(DisclosureError, match="threshold"):
        safeplot.kmplot(ROSSI, duration="week", event="arrest", threshold=2)
    with pytest.raises(ValueError, match="not available for survival curves"):
        safeplot.kmplot(ROSSI, duration="week", event="arrest", method="rounding")
    assert plt.get_fignums() == []


def test_release_json_round_trip_and_audit():
    fig, ax = plt.subplots()
    safeplot.kmplot(ROSSI, duration="week", event="arrest", hue="fin", ax=ax)
    entry = audit.entries()[-1]
    assert entry.function == "kmplot" and entry.released is not None
    rel = release_survival(ROSSI, duration="week", event="arrest", hue="fin")
    back = from_json(to_json(rel))
    assert back.levels == rel.levels
    for a, b in zip(rel.table, back.table, strict=True):
        assert np.array_equal(a, b, equal_nan=True)


def test_the_scanner_flags_a_raw_lifelines_curve():
    """The scans above are not vacuous: lifelines' own plot of rossi shows rare weeks."""
    fig, ax = plt.subplots()
    RawKMF().fit(ROSSI["week"], ROSSI["arrest"]).plot_survival_function(ax=ax)
    assert scan_figure(fig, {"x": ROSSI["week"].to_numpy(float)}, count_axis=None)


PARTIAL = {
    "rossi": (RAW_ROSSI, "week", "arrest", "prio", [0, 4, 8]),
    "lung": (load_lung()[["time", "status", "age"]], "time", "status", "age", [50, 60, 70]),
}


@pytest.mark.parametrize("name", list(PARTIAL))
def test_cox_partial_effects_are_drawn_like_released_curves(name):
    df, dur, ev, cov, values = PARTIAL[name]
    fit = safe_coxph(data=df, duration_col=dur, event_col=ev)
    fig, ax = plt.subplots()
    fit.plot_partial_effects_on_outcome(cov, values, ax=ax)
    km = release_survival(df, duration=dur, event=ev)
    d = df[dur].to_numpy(float)
    events = int(df[ev].sum())
    labels = [f"{cov}={v}" for v in values] + ["baseline"]
    assert [line.get_label() for line in ax.lines] == labels
    for x, y in _curves(ax):
        # the drops of the released KM curve only: at least threshold events each, no rare week
        assert np.array_equal(x, km.times[0])
        assert set(_drops(x, y)) <= set(km.times[0][1:-1])
        assert _drops(x, y).size <= events / THRESHOLD
        assert np.array_equal(y, round_sig(y, 3))
    assert (_all_x_numbers(fig) < d.max()).all()
    # the legend names the values the call chose (prio=4), which are no durations
    ax.get_legend().remove()
    assert not scan_figure(fig, {"x": d}, count_axis=None)
    assert ax.safeplot_report.function == "safe_coxph"
    assert audit.entries()[-1].function == "safe_coxph"
    strat = safe_coxph(
        "age", data=RAW_ROSSI, duration_col="week", event_col="arrest", strata="fin"
    )
    with pytest.raises(ValueError, match="stratified"):
        strat.plot_partial_effects_on_outcome("age", [20, 30])
    with pytest.raises(ValueError, match="one column"):
        fit.plot_partial_effects_on_outcome("height", [1])


def test_the_curves_axes_stays_current_after_the_table():
    ax = safeplot.kmplot(ROSSI, duration="week", event="arrest", at_risk_counts=True)
    assert plt.gca() is ax
    assert [a.get_gid() for a in ax.figure.axes] == [None, AT_RISK_GID]


# -- attack tests: what a reader holding several releases can work out ----------------------


def _reader_events(rel, i, n):
    """The reader's events up to each released time: (1 - S) * n, exact when nobody is censored."""
    return {
        float(t): (1 - s) * n for t, s in zip(rel.times[i][:-1], rel.survival[i][:-1], strict=True)
    }


def test_attack_combining_every_menu_setting_recovers_no_small_count():
    """Every bins, factor and threshold setting of one curve, differenced as a reader would.

    Nobody in rossi is censored before week 52, so a height S gives the events
    up to its time as (1 - S) * n; between two released times of different
    settings that would be the events in a short interval. The reader is given
    the exact n (432).
    """
    from safeplot.plots.survival import BINS_MENU, FACTOR_MENU

    n = len(ROSSI)
    week, arrest = ROSSI["week"].to_numpy(float), ROSSI["arrest"].to_numpy(bool)
    seen: dict[float, list[float]] = {}
    settings = [dict(method="suppress", bins=b) for b in BINS_MENU] + [
        dict(method="generalize", bins=b, factor=f) for b in BINS_MENU for f in FACTOR_MENU
    ]
    for kw in settings:
        for threshold in (3, 4, 5, 6):
            rel = release_survival(
                ROSSI, duration="week", event="arrest", threshold=threshold, **kw
            )
            for t, v in _reader_events(rel, 0, n).items():
                seen.setdefault(t, []).append(v)
    times = sorted(seen)
    # the grids of all settings are nested: every released time lies on the finest grid
    steps = np.diff(times[1:])
    assert np.allclose(steps / steps.min(), np.round(steps / steps.min())), times
    recovered = []
    for a, b in itertools.pairwise(times):
        truth = int(((week > a) & (week <= b) & arrest).sum())
        for va in seen[a]:
            for vb in seen[b]:
                if round(vb - va) == truth and 0 < truth < THRESHOLD:
                    recovered.append((a, b, truth))
    assert not recovered, sorted(set(recovered))
    # lung, with censoring: the events of an interval as -log(S_b / S_a) * at risk
    time, status = LUNG["time"].to_numpy(float), LUNG["status"].to_numpy(bool)
    heights: dict[float, float] = {}
    for kw in settings:
        rel = release_survival(LUNG, duration="time", event="status", **kw)
        heights.update(zip(rel.times[0][:-1].tolist(), rel.survival[0][:-1].tolist(), strict=True))
    times = sorted(heights)
    for a, b in itertools.pairwise(times):
        truth = int(((time > a) & (time <= b) & status).sum())
        at_risk = int((time > a).sum())
        guess = -np.log(heights[b] / heights[a]) * at_risk
        assert not (0 < truth < THRESHOLD and round(guess) == truth), (a, b, guess, truth)


def test_attack_heights_with_and_without_one_record():
    """Two figures, with and without record 42 (rossi: arrested in week 10, alone that week).

    Without censoring the reader reads events up to each time from the heights
    of both releases; their difference at every common time would be that
    record's event indicator (0 before week 10, 1 from it on).
    """
    target = 42
    assert ROSSI.loc[target, "week"] == 10 and ROSSI.loc[target, "arrest"] == 1
    full = release_survival(ROSSI, duration="week", event="arrest")
    less = release_survival(ROSSI.drop(index=target), duration="week", event="arrest")
    a = _reader_events(full, 0, len(ROSSI))
    b = _reader_events(less, 0, len(ROSSI) - 1)
    common = sorted(set(a) & set(b) - {0.0})
    assert common
    guess = np.array([round(a[t] - b[t]) for t in common])
    truth = (np.array(common) >= 10).astype(int)
    assert not (truth.any() and np.array_equal(guess, truth)), list(
        zip(common, guess, strict=True)
    )
    # the later heights do not all move together by one record's weight
    moved = np.array([less.at(t)[0] - full.at(t)[0] for t in common if t >= 10])
    assert not (moved > 0).all(), moved
    # and no height carries more than the released counts: the curve is their product
    for rel in (full, less):
        s = np.cumprod(1 - rel.observed[0] / rel.at_risk[0])
        assert np.allclose(rel.survival[0][1:-1], round_sig(s, 3), atol=1e-12)


def test_attack_pooled_curve_minus_shown_levels_rebuilds_no_refused_level():
    """A level of one event is left out; pooled minus shown levels must not rebuild it."""
    rng = np.random.default_rng(7)
    parts = []
    for g in ("A", "B"):
        t = np.round(rng.uniform(0.5, 60, 150), 1)
        parts.append(pd.DataFrame({"t": t, "e": (t <= 50).astype(int), "g": g}))
    parts.append(pd.DataFrame({"t": [23.7, 55.0, 56.0, 57.0], "e": [1, 0, 0, 0], "g": "C"}))
    df = pd.concat(parts, ignore_index=True)
    pooled = release_survival(df, duration="t", event="e")
    shown = release_survival(df, duration="t", event="e", hue="g")
    assert shown.levels == ["A", "B"] and shown.report.details["groups_left_out"] == 1
    # leaving C out draws what the caller leaving it out draws, and says so without naming it
    named = release_survival(df, duration="t", event="e", hue="g", hue_order=["A", "B"])
    for a, b in zip(shown.survival, named.survival, strict=True):
        np.testing.assert_array_equal(a, b)
    assert any("1 hue level(s) with fewer than" in w for w in shown.report.warnings)
    assert '"C"' not in to_json(shown)
    p = _reader_events(pooled, 0, len(df))
    a, b = _reader_events(shown, 0, 150), _reader_events(shown, 1, 150)
    common = sorted(set(p) & set(a) & set(b) - {0.0})
    assert common
    guess = np.array([round(p[t] - a[t] - b[t]) for t in common])
    truth = (np.array(common) >= 23.7).astype(int)
    assert not (truth.any() and np.array_equal(guess, truth)), list(
        zip(common, guess, strict=True)
    )
    # the reader cannot read the exact number of records from the heights either
    s = pooled.survival[0][1:-1]
    exact = [
        n for n in range(len(df) - 2, len(df) + 3) if np.allclose(1 - np.round((1 - s) * n) / n, s)
    ]
    assert exact != [len(df)]


def test_attack_cox_small_category_in_any_coding():
    """A category of three records (one event) is refused however it is coded."""
    r = RAW_ROSSI[["week", "arrest", "fin", "age", "prio"]]
    small = [42, *r.index[r.arrest == 0][:2]]
    for low, high in [(0, 1), (1, 2), (-3, 7.5)]:
        d = r.assign(grp=np.where(r.index.isin(small), high, low))
        with pytest.raises(DisclosureError, match="grp"):
            safe_coxph(data=d, duration_col="week", event_col="arrest")
    # a column that is a function of the small group: the group's ages, 0 elsewhere
    d = r.assign(grp_age=np.where(r.index.isin(small), r.age, 0.0))
    with pytest.raises(DisclosureError, match="grp_age"):
        safe_coxph(data=d, duration_col="week", event_col="arrest")
    # lung's ph.ecog == 3 is one patient: refused as a 1/2 code and as a level of ph.ecog
    lung = load_lung()[["time", "status", "age", "ph.ecog"]].dropna()
    assert (lung["ph.ecog"] == 3).sum() == 1
    coded = lung.assign(ecog3=np.where(lung["ph.ecog"] == 3, 2, 1)).drop(columns="ph.ecog")
    with pytest.raises(DisclosureError, match="ecog3"):
        safe_coxph(data=coded, duration_col="time", event_col="status")
    with pytest.raises(DisclosureError, match=r"ph\.ecog"):
        safe_coxph(data=lung, duration_col="time", event_col="status")
    assert audit.entries() == []


def test_attack_partial_effects_at_extreme_values():
    """Curves far in the tail would give the coefficient to many more digits than released."""
    r = RAW_ROSSI[["week", "arrest", "fin", "age", "prio"]]
    fit = safe_coxph(data=r, duration_col="week", event_col="arrest")
    m = r["prio"].mean()
    with pytest.raises(ValueError, match="prio"):
        fit.plot_partial_effects_on_outcome("prio", [m + 70, m + 80, m + 90])
    fig, ax = plt.subplots()
    fit.plot_partial_effects_on_outcome("prio", [0, 4, 8], ax=ax)
    for _, y in _curves(ax):
        # an absolute step: no more digits where the survival is small
        assert np.array_equal(y, np.round(y, 3))
        assert ((y == 0) | (y >= 0.001)).all()


LOGRANK_BAD = {
    "inf": np.r_[np.inf, _T[1:30]],
    "huge": np.r_[1e300, _T[1:30]],
    "dates": pd.date_range("2020", periods=30).to_numpy(),
    "booleans": _T[:30] > 10,
    "constant": np.full(30, 5.0),
    "numeric-strings": _T[:30].astype(str),
}


@pytest.mark.parametrize("case", list(LOGRANK_BAD))
def test_logrank_refuses_what_the_other_survival_functions_refuse(case):
    ones = np.ones(30, int)
    with pytest.raises((ValueError, DisclosureError)):
        logrank_test(LOGRANK_BAD[case], _T[30:60], ones, ones)
    assert audit.entries() == []


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential", "deterministic"])
def test_a_small_hue_level_is_left_out_with_a_note(method):
    """One hue level of two events (or, under kNN centroids, two censored records) is not
    drawn or named; the others are drawn as without it, and the figure says levels were left
    out (invariant 10), rather than the whole figure being refused."""
    r = ROSSI.copy()
    r["g"] = np.where(r["fin"] == 1, "aid", "none")
    tiny = r.index[r["arrest"] == 1][:2]
    if method == "deterministic":  # enough events, too few censored to anonymise
        tiny = np.r_[r.index[r["arrest"] == 1][:6], r.index[r["arrest"] == 0][:2]]
    r.loc[tiny, "g"] = "tiny"
    fig, ax = plt.subplots()
    safeplot.kmplot(r, duration="week", event="arrest", hue="g", method=method, ax=ax)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["none", "aid"]
    texts = " ".join(t.get_text() for a in fig.axes for t in a.texts)
    assert "tiny" not in texts
    assert LEFT_OUT_NOTE in [t.get_text() for a in fig.axes for t in a.texts]
    report = ax.safeplot_report
    assert any(w.startswith("1 hue level(s) with fewer than 3 events") for w in report.warnings)
    without = release_survival(
        r[r["g"] != "tiny"], duration="week", event="arrest", hue="g", method=method
    )
    drawn = release_survival(r, duration="week", event="arrest", hue="g", method=method)
    for a, b in zip(drawn.survival, without.survival, strict=True):
        np.testing.assert_array_equal(a, b)
