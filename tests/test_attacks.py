"""Attacks on released figures, each shown to fail, be refused, or be recorded.

Every test runs an attack an analyst or a reader of released outputs could
try, and asserts numbers: what the attacker recovers and how far it is from
the raw data. Where an attack succeeds within the limits of the papers'
methods (differencing a bin of a large count, averaging releases under keys
the analyst chooses, or of data sets that differ), the test asserts the
actual behaviour and the Security model page of the documentation lists it
as a residual risk.
"""

from __future__ import annotations

import stat

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import PathCollection

import safeplot
import safeplot.policy as sp_policy
from safeplot import DisclosureError, audit, ledger
from safeplot.anonymize.grids import rare_values
from safeplot.anonymize.probabilistic import add_keyed_noise
from safeplot.datasets import simulate
from safeplot.keys import KEY_BYTES, SecretKey, default_key_path, resolve_key
from safeplot.methods import anonymize_values
from safeplot.metrics import distance_linkage, drisk_rmd
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.distributions import release_histograms
from safeplot.plots.relational import release_scatter
from safeplot.policy import Policy

from .leakscan import LEGEND_MANTISSAS, on_locator_grid, scan_figure

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")

#: Planted unique outliers, far from the bulk of D1 (x about 10 +/- 0.5, y about 10 +/- 1).
OUTLIERS = np.array([[25.123, 31.777], [-3.219, 0.415], [18.888, -6.606]])


@pytest.fixture
def data():
    """D1 (n=200, seed=1) rounded to 3 decimals, with three unique outliers appended."""
    df = simulate("D1", n=200, seed=1).round(3)
    return pd.concat([df, pd.DataFrame(OUTLIERS, columns=["x", "y"])], ignore_index=True)


def _rms(a, b):
    return float(np.sqrt(np.mean((np.asarray(a, float) - np.asarray(b, float)) ** 2)))


def _points(ax):
    """Offsets of the marker collections of `ax` (the drawn points)."""
    return np.vstack([c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)])


# -- averaging ---------------------------------------------------------------------------


def test_averaging_100_releases_of_the_same_data_recovers_nothing(data):
    x, y = data["x"].to_numpy(), data["y"].to_numpy()
    # q is left to the policy: its floor q_min (0.25 by default) is the least noise allowed
    releases = [release_scatter(x, y, method="probabilistic") for _ in range(100)]
    mean_x = np.mean([r.x for r in releases], axis=0)
    mean_y = np.mean([r.y for r in releases], axis=0)
    # keyed noise: every release is the same, so their mean is the single release
    assert all(np.array_equal(r.x, releases[0].x) for r in releases)
    assert all(np.array_equal(r.y, releases[0].y) for r in releases)
    assert np.allclose(mean_x, releases[0].x, rtol=1e-12, atol=0)
    assert np.allclose(mean_y, releases[0].y, rtol=1e-12, atol=0)
    # and that release is as far from the raw data as one release is: q * SD
    assert _rms(mean_x, x) > 0.15 * np.std(x, ddof=1)
    assert _rms(mean_y, y) > 0.15 * np.std(y, ddof=1)
    assert not np.isclose(mean_x[:, None], OUTLIERS[:, 0], rtol=1e-9).any()
    # the drawn figures are identical too, and each release is in the audit log
    first = _points(safeplot.scatterplot(data=data, x="x", y="y", method="probabilistic"))
    plt.close("all")
    again = _points(safeplot.scatterplot(data=data, x="x", y="y", method="probabilistic"))
    assert np.array_equal(first, again)
    assert [e.method for e in audit.entries()] == ["probabilistic", "probabilistic"]


def test_averaging_across_keys_only_with_keys_the_analyst_controls(data, monkeypatch, regime):
    """Residual risk: under keys the analyst chooses, the mean of many releases nears the data.

    Without a custodian key the analyst can set ``SAFEPLOT_SECRET`` (or move
    ``SAFEPLOT_HOME``) between releases: 100 keys bring the noise down by a
    factor of 10. A custodian key in a locked policy closes this route.
    """
    x = data["x"].to_numpy()
    sd = np.std(x, ddof=1)
    q = sp_policy.get_policy().q_min  # the least noise the policy allows (0.25 by default)
    means = []
    for i in range(100):
        monkeypatch.setenv("SAFEPLOT_SECRET", f"analyst key number {i:04d} of many")
        means.append(add_keyed_noise(x))
    averaged = np.mean(means, axis=0)
    assert _rms(means[0], x) > 0.6 * q * sd  # one release: about q * sd
    if regime == "locked-strict":
        # the custodian's policy sets the key: SAFEPLOT_SECRET chooses nothing, every
        # release is the same, and their mean is as far from the data as one release
        assert all(np.array_equal(v, means[0]) for v in means)
        assert _rms(averaged, x) > 0.6 * q * sd
    else:
        assert _rms(averaged, x) < 0.2 * q * sd  # 100 keys: about q * sd / 10
    # with the custodian's key locked in, the environment no longer chooses the key
    sp_policy._reset(Policy(secret_key=SecretKey("custodian key material 0123"), locked=True))
    locked = [add_keyed_noise(x) for _ in range(3)]
    monkeypatch.setenv("SAFEPLOT_SECRET", "yet another analyst key of length")
    locked.append(add_keyed_noise(x))
    assert all(np.array_equal(v, locked[0]) for v in locked)


def test_averaging_releases_of_data_that_differ_in_other_records(data):
    """Residual risk: data sets that differ get independent noise, so their releases average.

    Releasing the data 50 times, each time without a different (other)
    record, gives 50 independent noisy copies of every remaining record; an
    attacker who can tell which point is which averages them. The audit log
    holds all 50 releases for the output checker.

    The release ledger recognises the same records only where the rank order
    of the released records is unchanged, which leaving out a record changes
    unless its neighbour in value sits next to it: it refuses a few of these
    releases, not all. Each release here gets a fresh ledger, to measure what
    the noise alone gives.
    """
    values = data[["x", "y"]].to_numpy()

    q = sp_policy.get_policy().q_min  # the least noise the policy allows (0.25 by default)

    def release(drop):
        with ledger.using(ledger.Ledger()):
            return anonymize_values(np.delete(values, drop, axis=0), "probabilistic")

    # records 50.. are in every release; release i leaves out record i, so record r sits at r - 1
    copies = np.array([release(drop).values[49:] for drop in range(50)])
    kept = values[50:]
    sd = values.std(axis=0, ddof=1)
    one = np.sqrt(((copies[0] - kept) ** 2).mean(axis=0)) / sd
    averaged = np.sqrt(((copies.mean(axis=0) - kept) ** 2).mean(axis=0)) / sd
    assert (one > 0.8 * q).all()  # one release: noise of about q SD
    assert (averaged < 0.24 * q).all()  # 50 independent releases: about q / sqrt(50) = 0.14 q SD
    assert not np.isclose(copies, kept, rtol=1e-9).any()  # no single copy is exact


# -- key guessing ------------------------------------------------------------------------


def test_default_key_is_256_random_bits_owner_only_and_per_user(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path / "a_user"))
    key = resolve_key()
    path = default_key_path()
    text = path.read_text().strip()
    assert len(text) == 2 * KEY_BYTES and len(bytes.fromhex(text)) == KEY_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # another user (another home) gets another key
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path / "another_user"))
    other = resolve_key()
    assert other != key
    other_text = default_key_path().read_text().strip()
    assert other_text != text
    # the bits look random: about half of the 256 differ between the two keys
    a, b = int(text, 16), int(other_text, 16)
    assert 80 < bin(a ^ b).count("1") < 176


def test_without_the_key_the_noise_cannot_be_reproduced(data):
    x = data["x"].to_numpy()
    # at the policy's q_min, under the key in force (the per-user key, or the custodian's)
    real_noise = add_keyed_noise(x) - x
    guesses = [
        SecretKey(np.random.default_rng(i).bytes(32), source=f"guess {i}") for i in range(20)
    ]
    guesses += [SecretKey(g, source="guess") for g in ("", "0", "safeplot", "secret")[1:]]
    for guess in guesses:
        guessed_noise = add_keyed_noise(x, key=guess) - x
        r = np.corrcoef(real_noise, guessed_noise)[0, 1]
        assert abs(r) < 0.3, r  # n = 203: |r| of independent noise is about 0.07
        assert _rms(x + real_noise - guessed_noise, x) > 0.2 * np.std(x, ddof=1)
    # with the key itself the noise is reproduced exactly: the key file must stay private
    key = sp_policy.get_policy().key  # resolve_key() unless a custodian policy sets the key
    assert np.array_equal(add_keyed_noise(x, key=key) - x, real_noise)


# -- differencing ------------------------------------------------------------------------


def _hist(values):
    return release_histograms(values, binwidth=0.25, binrange=(8, 12))[0]


def test_differencing_a_suppressed_bin_does_not_reveal_the_record(data):
    """One record added where no bin can show it: the two figures are the same."""
    x = data["x"].to_numpy()[:200]
    before, after = _hist(x), _hist(np.r_[x, 11.8771])
    assert np.array_equal(before.edges, after.edges)
    assert np.array_equal(before.counts, after.counts, equal_nan=True)
    # what differs is the number of suppressed cells in the report (output checker only)
    assert after.report.cells_suppressed == before.report.cells_suppressed + 1


def test_differencing_a_bin_above_the_threshold_reveals_the_bin(data):
    """Residual risk, as in the papers: a record added to a shown bin changes it by one.

    Suppression protects counts below the threshold, not the difference of
    two releases; safeplot records both releases in the audit log so the
    output checker sees the pair.
    """
    x = data["x"].to_numpy()[:200]
    before = _hist(x)
    after = _hist(np.r_[x, 10.0123])
    diff = np.nan_to_num(after.counts) - np.nan_to_num(before.counts)
    assert diff.sum() == 1 and np.count_nonzero(diff) == 1
    bin_of = np.flatnonzero(diff)[0]
    assert after.edges[bin_of] <= 10.0123 < after.edges[bin_of + 1]
    assert before.counts[bin_of] >= 3
    # both figures are in the audit log
    safeplot.histplot(x=x, binwidth=0.25, binrange=(8, 12))
    safeplot.histplot(x=np.r_[x, 10.0123], binwidth=0.25, binrange=(8, 12))
    assert len(audit.entries()) == 2


def test_differencing_generalized_and_rounded_scatter(data):
    """A new record in a coarse cell of a grid release is hidden unless its cell is shown."""
    x, y = data["x"].to_numpy()[:200], data["y"].to_numpy()[:200]
    before = release_scatter(x, y, method="generalize")
    after = release_scatter(np.r_[x, 11.3], np.r_[y, 13.4], method="generalize")
    # the new record lands in a cell below the threshold: no point changes
    b = {
        (round(px, 9), round(py, 9)): s
        for px, py, s in zip(before.x, before.y, before.sizes, strict=True)
    }
    a = {
        (round(px, 9), round(py, 9)): s
        for px, py, s in zip(after.x, after.y, after.sizes, strict=True)
    }
    changed = {c for c in set(a) | set(b) if a.get(c) != b.get(c)}
    assert len(changed) <= 1
    for cell in changed:  # if one did, it is a cell of at least threshold records
        assert a.get(cell, 0) >= 3 and (b.get(cell, 0) == 0 or b.get(cell) >= 3)


# -- re-identification of outliers from kNN centroids ------------------------------------


def test_k_below_the_floor_is_refused(data):
    floor = sp_policy.get_policy().k_min  # 3 by default; k=2 is below any floor
    before = set(plt.get_fignums())
    for call in (
        lambda: anonymize_values(data[["x", "y"]].to_numpy(), "deterministic", k=2),
        lambda: safeplot.scatterplot(data=data, x="x", y="y", method="deterministic", k=2),
        lambda: safeplot.scatterplot(data=data, x="x", y="y", method="microaggregation", k=2),
    ):
        with pytest.raises(DisclosureError, match=f"k_min={floor}"):
            call()
    assert set(plt.get_fignums()) == before
    assert audit.entries() == []


#: Risk of the planted outliers at k = 3 (numbers quoted on the Security model page).
K3_RISK = {"risk1": 0.0, "risk2": 0.0, "ddr": 0.0591, "outlier_shift_sd": 0.79}


def test_k3_reidentification_risk_of_outliers_is_measured(data, regime):
    values = data[["x", "y"]].to_numpy()
    if regime == "locked-strict":
        # k=3 is below this policy's floor: refused, and the least k it allows (k_min=5)
        # must keep the planted outliers safe (a larger k moves them further)
        with pytest.raises(DisclosureError, match="k_min=5"):
            anonymize_values(values, "deterministic", k=3)
        released = anonymize_values(values, "deterministic").values
        risk = drisk_rmd(values, released)
        shift = np.abs(released[200:] - values[200:]) / values.std(axis=0, ddof=1)
        assert shift.min() >= K3_RISK["outlier_shift_sd"] - 0.02
        assert not risk.at_risk1[200:].any()
        assert not np.isclose(released[200:], values[200:], rtol=1e-9).any()
        return
    released = anonymize_values(values, "deterministic", k=3).values
    risk = drisk_rmd(values, released)
    ddr = distance_linkage(values, released)
    sd = values.std(axis=0, ddof=1)
    # how far (in SDs) each planted outlier's centroid is from the outlier itself
    shift = np.abs(released[200:] - values[200:]) / sd
    measured = {
        "risk1": round(risk.risk1, 4),
        "risk2": round(risk.risk2, 4),
        "ddr": round(ddr, 4),
        "outlier_shift_sd": round(float(shift.min()), 2),
    }
    assert measured == pytest.approx(K3_RISK, abs=0.02), measured
    # no planted outlier is at risk by RMDID1, and none keeps one of its raw values
    assert not risk.at_risk1[200:].any()
    assert not np.isclose(released[200:], values[200:], rtol=1e-9).any()


# -- extreme values through axis limits, edges, whiskers, ticks, colour bars, legends --------


@pytest.fixture
def extreme():
    """D1 with one extreme record; z is a numeric hue with its own extreme value."""
    df = simulate("D1", n=200, seed=3).round(3)
    df["z"] = np.round(np.random.default_rng(4).normal(50, 10, 200), 2)
    df["g"] = np.where(np.arange(200) % 2, "a", "b")
    df.loc[200] = [47.321, 52.654, 144.444, "a"]
    return df


def _numbers(texts):
    from .leakscan import _text_numbers

    return np.concatenate([_text_numbers(t) for t in texts] + [np.array([])])


def _assert_none_rare(label, numbers, raw):
    rare = rare_values(np.asarray(raw, float), 3)
    numbers = np.asarray(numbers, float).ravel()
    hits = [v for v in numbers if np.isclose(v, rare, rtol=1e-9, atol=0).any()]
    assert not hits, f"{label} shows rare raw values {hits}"


def _limits_and_ticks(ax, extreme_df, xvar="x", yvar="y"):
    raw = {"x": extreme_df[xvar].astype(float), "y": extreme_df[yvar].astype(float)}
    _assert_none_rare("xlim", ax.get_xlim(), raw["x"])
    _assert_none_rare("ylim", ax.get_ylim(), raw["y"])
    # ticks are a locator's round numbers between the limits (invariant 2): they may be any
    # such number, rare or not, but never a number moved off that grid, nor another value
    for axis, ticks, labels in (
        ("x", ax.get_xticks(), ax.get_xticklabels()),
        ("y", ax.get_yticks(), ax.get_yticklabels()),
    ):
        assert on_locator_grid(ticks), (axis, ticks)
        printed = _numbers(t.get_text() for t in labels)
        assert np.isclose(np.asarray(printed)[:, None], ticks, rtol=1e-9).any(axis=1).all()


@pytest.mark.parametrize("method", ["suppress", "generalize", "deterministic", "probabilistic"])
def test_extreme_value_not_in_histogram_limits_edges_or_ticks(extreme, method):
    ax = safeplot.histplot(data=extreme, x="x", method=method)
    x = extreme["x"].astype(float)
    _limits_and_ticks(ax, extreme.assign(y=0.0))
    edges = [p.get_x() for p in ax.patches] + [p.get_x() + p.get_width() for p in ax.patches]
    _assert_none_rare("bin edges", edges, x)
    lo, hi = ax.get_xlim()
    if method in ("suppress", "generalize"):
        # the outlier's bin has one record: suppressed, and the axis does not reach out to it
        assert hi < 47.321
    assert not scan_figure(ax.figure, {"x": x}, saved=True)


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "confidential"])
def test_extreme_value_not_at_whisker_ends(extreme, method):
    ax = safeplot.boxplot(data=extreme, x="g", y="y", method=method)
    y = extreme["y"].astype(float)
    ends = np.concatenate([line.get_ydata() for line in ax.lines])
    _assert_none_rare("whisker ends and medians", ends, y)
    _assert_none_rare(
        "box extents", [v for p in ax.patches for v in p.get_path().vertices[:, 1]], y
    )
    _assert_none_rare("ylim", ax.get_ylim(), y)
    assert not np.isclose(ends, 52.654).any() and max(ax.get_ylim()) != 52.654


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_extreme_value_not_in_colour_bar_limits_or_annotations(extreme, method):
    ax = safeplot.histplot(data=extreme, x="x", y="y", cbar=True, method=method)
    cbar_ax = next(a for a in ax.figure.axes if a is not ax)
    vmin, vmax = cbar_ax._colorbar.mappable.norm.vmin, cbar_ax._colorbar.mappable.norm.vmax
    assert not (0 < vmin < 3) and not (0 < vmax < 3)
    _assert_none_rare("colour bar", [vmin, vmax], np.r_[extreme["x"], extreme["y"]])
    _limits_and_ticks(ax, extreme)
    plt.close("all")
    ax = safeplot.heatmap(data=extreme, x="x", y="y", annot=True, method=method)
    annotations = _numbers(t.get_text() for t in ax.texts if t.get_gid() != FOOTNOTE_GID)
    assert not ((annotations > 0) & (annotations < 3)).any()  # no small count written out
    _assert_none_rare("annotations", annotations, np.r_[extreme["x"], extreme["y"]])


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_extreme_value_not_in_legend_entries(extreme, method):
    ax = safeplot.scatterplot(data=extreme, x="x", y="y", hue="z", method=method)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels
    # seaborn's brief legend: round numbers of a locator over the released range, which may
    # be any such number (invariant 2); the planted extreme 144.444 is never written
    assert on_locator_grid(_numbers(labels), mantissas=LEGEND_MANTISSAS), labels
    assert "144.444" not in " ".join(labels) and "144.44" not in " ".join(labels)
    _limits_and_ticks(ax, extreme)


@pytest.mark.parametrize("method", ["suppress", "deterministic", "probabilistic", "confidential"])
def test_extreme_value_not_in_titles_notes_or_saved_text(extreme, method):
    ax = (
        safeplot.parallelboxplot(data=extreme, x="x", y="y", method=method)
        if method == "confidential"
        else safeplot.scatterplot(data=extreme, x="x", y="y", method=method)
    )
    texts = [t.get_text() for t in ax.texts] + [ax.get_title(), ax.get_xlabel(), ax.get_ylabel()]
    _assert_none_rare("annotations", _numbers(texts), np.r_[extreme["x"], extreme["y"]])
    from .leakscan import pdf_texts

    saved = _numbers(pdf_texts(ax.figure))
    for value in (47.321, 52.654):
        assert not np.isclose(saved, value, rtol=1e-9).any()


# -- regression: outcomes from released diagnostics ---------------------------------------


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "suppress", "generalize"])
def test_outcomes_cannot_be_recovered_from_released_residuals_and_fitted(data, method):
    y = data["y"].to_numpy()
    fit = safeplot.safe_ols("y ~ x", data=data)
    ax = fit.plot_resid_fitted(method=method)
    fitted, resid = _points(ax).T
    # attack 1: outcome = fitted + residual, point by point
    recovered = fitted + resid
    exact = np.isclose(recovered[:, None], y[None, :], rtol=0, atol=1e-6).any(axis=1)
    assert exact.sum() == 0
    # attack 2: the released coefficients and the (known) x give the fitted values; add the
    # released residuals in record order (value methods keep one point per record)
    if method in ("deterministic", "probabilistic"):
        assert len(recovered) == len(y)
        b = fit.params
        refit = b["Intercept"] + b["x"] * data["x"].to_numpy()
        guess = refit + resid
        raw_resid = y - np.polyval(np.polyfit(data["x"], y, 1), data["x"])
        error = _rms(guess, y)
        assert error > 0.1 * np.std(raw_resid, ddof=1), error
        assert not np.isclose(guess, y, rtol=0, atol=1e-6).any()
        # the planted outliers' outcomes are not recovered
        assert (np.abs(guess[200:] - y[200:]) > 1e-3).all()
        # attack 3 (an upper bound): the best linear map from the released fitted values and
        # residuals to the outcomes, fitted with the outcomes themselves, still misses them
        design = np.c_[np.ones_like(fitted), fitted, resid]
        best = design @ np.linalg.lstsq(design, y, rcond=None)[0]
        assert _rms(best, y) > 0.1 * np.std(raw_resid, ddof=1)
        assert not np.isclose(best, y, rtol=0, atol=1e-6).any()
    # the release is recorded
    assert audit.entries()[-1].method == method
