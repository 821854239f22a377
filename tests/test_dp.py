"""method="dp": OpenDP's noise, the privacy budget, the drawn uncertainty, the refusals.

OpenDP samples from the operating system's randomness, so no test fixes the
noise: the statistical tests draw many releases and compare the noise with
the discrete Laplace distribution within tolerances that fail by chance
far less than once in a million runs.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

pytest.importorskip("opendp")

import safeplot
import safeplot.policy as sp_policy
from safeplot import DisclosureError, audit, ledger
from safeplot.anonymize import dp as dpnum
from safeplot.methods import get_method
from safeplot.plots.distributions import dp_edges, release_histograms
from safeplot.policy import Policy, get_policy

N_RELEASES = 2000
#: The noise tests draw N_RELEASES noisy copies of each count from CALLS releases, each of the
#: counts tiled N_RELEASES // CALLS times (every cell of a release gets its own draw): the
#: statistics see as many draws as 2000 releases would give, with the same power, while OpenDP
#: builds its measurement (about 10 ms) 100 times, not 2000. That different releases draw
#: fresh noise is asserted on its own (``_fresh_per_release``).
CALLS = 100


def _draws(exact: np.ndarray, epsilon: float, **kws) -> np.ndarray:
    """N_RELEASES noisy copies of `exact` (one row each), from CALLS releases."""
    per = N_RELEASES // CALLS
    return np.concatenate(
        [
            dpnum.noisy_counts(np.tile(exact, per), epsilon, **kws).counts.reshape(per, -1)
            for _ in range(CALLS)
        ]
    )


def _fresh_per_release(noise: np.ndarray) -> None:
    """The noise of consecutive releases is uncorrelated: no release repeats another's."""
    per_release = noise.reshape(CALLS, -1)
    r = np.corrcoef(per_release[:-1].ravel(), per_release[1:].ravel())[0, 1]
    assert abs(r) < 6 / math.sqrt(per_release[1:].size), r


@pytest.fixture
def frame():
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(50, 10, 600), 2)
    g = rng.choice(["a", "b"], 600)
    return pd.DataFrame({"x": x, "g": g})


def _discrete_laplace_pmf(k: np.ndarray, scale: float) -> np.ndarray:
    p = math.exp(-1.0 / scale)
    return (1 - p) / (1 + p) * p ** np.abs(k)


# -- the noise -----------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_noise_of_each_count_has_the_mechanisms_mean_and_scale(epsilon):
    exact = np.array([200, 150, 400, 90])  # far from 0: the clamp never acts
    noise = _draws(exact, epsilon, clamp=False) - exact
    assert noise.shape == (N_RELEASES, exact.size)
    assert np.all(noise == np.round(noise)), "discrete Laplace noise is whole numbers"
    scale = 1.0 / epsilon
    sd = math.sqrt(2 * math.exp(-1 / scale)) / (1 - math.exp(-1 / scale))
    # OpenDP's noise cannot be seeded: every bound is 6 standard errors of its statistic,
    # worked out from the exact distribution (a false alarm about once in 10^8 runs)
    k = np.arange(-200, 201)
    pmf = _discrete_laplace_pmf(k, scale)
    kurtosis = float(np.sum(k**4 * pmf)) / sd**4
    sd_tol = 6 * math.sqrt((kurtosis - 1) / (4 * N_RELEASES))
    expected_mad = float(np.sum(np.abs(k) * pmf))
    mad_sd = math.sqrt(float(np.sum(k**2 * pmf)) - expected_mad**2)
    mad_tol = 6 * mad_sd / math.sqrt(N_RELEASES) / expected_mad
    assert max(sd_tol, mad_tol) < 0.3, "too few releases to test the scale"
    for j in range(exact.size):
        column = noise[:, j]
        # mean 0: within 6 standard errors
        assert abs(column.mean()) < 6 * sd / math.sqrt(N_RELEASES), (j, column.mean())
        # scale: the sample SD near the exact SD of the discrete distribution
        assert abs(column.std(ddof=1) / sd - 1) < sd_tol, (j, column.std(ddof=1), sd)
        # the mean absolute deviation of Laplace(b) is about b: the scale itself
        mad = np.mean(np.abs(column))
        assert abs(mad / expected_mad - 1) < mad_tol, (j, mad, expected_mad)
    # the noise of different counts is independent, and so is that of different releases
    assert abs(np.corrcoef(noise[:, 0], noise[:, 1])[0, 1]) < 6 / math.sqrt(N_RELEASES)
    _fresh_per_release(noise)


def test_noise_distribution_matches_the_discrete_laplace_pmf():
    epsilon = 1.0
    noise = (_draws(np.array([100]), epsilon, clamp=False) - 100).ravel()
    assert noise.size == N_RELEASES
    k = np.arange(-3, 4)
    observed = np.array([(noise == v).mean() for v in k])
    expected = _discrete_laplace_pmf(k, 1.0 / epsilon)
    se = np.sqrt(expected * (1 - expected) / noise.size)
    assert np.all(np.abs(observed - expected) < 5 * se), (observed, expected)


def test_no_count_is_negative_and_small_counts_are_not_suppressed():
    exact = np.array([0, 1, 2, 0, 50])
    draws = _draws(exact, 0.5)
    assert draws.shape == (N_RELEASES, exact.size)
    assert (draws >= 0).all()
    assert not np.isnan(draws).any()
    # the noisy counts of empty or tiny bins are often 1 or 2: DP counts are not suppressed
    assert ((draws > 0) & (draws < 3)).any()


def test_accuracy_is_the_95_percent_half_width():
    for epsilon in (0.5, 1.0):
        acc = dpnum.accuracy(epsilon)
        noise = np.concatenate(
            [
                dpnum.noisy_counts(np.full(10, 100), epsilon, clamp=False).counts - 100
                for _ in range(200)
            ]
        )
        assert np.mean(np.abs(noise) > acc) <= 0.05 + 5 * math.sqrt(0.05 * 0.95 / noise.size)
        assert np.mean(np.abs(noise) > acc - 1) > 0.05 - 5 * math.sqrt(0.05 * 0.95 / noise.size)


def test_accuracy_table_for_custodians():
    table = dpnum.accuracy_table([0.1, 1.0, 10.0])
    assert list(table.columns) == ["epsilon", "scale", "sd", "accuracy"]
    assert table["accuracy"].is_monotonic_decreasing
    assert table["scale"].tolist() == [10.0, 1.0, 0.1]


def test_private_range_comes_from_the_fixed_candidates():
    x = np.random.default_rng(0).normal(50, 5, 2000)
    for _ in range(20):
        lo, hi = dpnum.private_range(x, 1.0)
        assert lo in dpnum.RANGE_CANDIDATES and hi in dpnum.RANGE_CANDIDATES
        assert lo <= 40 and hi >= 60


def test_epsilon_is_checked():
    for bad in (0, -1, float("nan"), float("inf"), "a", True):
        with pytest.raises(ValueError, match="epsilon"):
            dpnum.check_epsilon(bad)


# -- the budget ----------------------------------------------------------------------------


def test_budget_is_spent_exactly_and_a_release_past_it_is_refused(frame):
    book = ledger.current()
    for eps, left in ((1.0, 2.0), (0.5, 1.5), (1.5, 0.0)):
        ax = safeplot.histplot(data=frame, x="x", method="dp", epsilon=eps, binrange=(0, 100))
        assert ax.safeplot_report.details["budget_left"] == pytest.approx(left)
        assert book.epsilon_spent() == pytest.approx(3.0 - left)
    n_entries = len(audit.entries())
    fig_before = plt.get_fignums()
    with pytest.raises(DisclosureError, match=r"only 0 of the privacy budget dp_budget=3"):
        safeplot.histplot(data=frame, x="x", method="dp", epsilon=0.1, binrange=(0, 100))
    assert book.epsilon_spent() == pytest.approx(3.0)
    assert len(audit.entries()) == n_entries
    assert plt.get_fignums() == fig_before


def test_the_range_estimate_is_part_of_the_epsilon_spent(frame):
    ax = safeplot.histplot(data=frame, x="x", method="dp", epsilon=1.0)
    details = ax.safeplot_report.details
    assert details["epsilon_range"] == pytest.approx(0.25)
    assert details["epsilon_counts"] == pytest.approx(0.75)
    assert ledger.current().epsilon_spent() == pytest.approx(1.0)
    edges = ax.safeplot_report.details
    assert edges["bins_from"] == "a differentially private range estimate"


def test_bad_arguments_spend_nothing(frame):
    for kwargs in (
        {"epsilon": -1},
        {"epsilon": 1, "bins": "fd"},
        {"epsilon": 1, "binrange": (5, 1)},
        {"epsilon": 1, "discrete": True},
    ):
        with pytest.raises(ValueError):
            safeplot.histplot(data=frame, x="x", method="dp", **kwargs)
    assert ledger.current().epsilon_spent() == 0.0


def test_epsilon_is_refused_for_other_methods(frame):
    with pytest.raises(ValueError, match="epsilon= is the privacy loss of method='dp'"):
        safeplot.histplot(data=frame, x="x", method="suppress", epsilon=1.0)


def test_the_ledger_and_the_audit_log_record_epsilon_per_release(frame):
    safeplot.histplot(data=frame, x="x", method="dp", epsilon=0.5, binrange=(0, 100))
    safeplot.histplot(
        data=frame,
        x="x",
        hue="g",
        hue_order=["a", "b"],
        method="dp",
        epsilon=0.25,
        binrange=(0, 100),
    )
    spent = [d for d in ledger.summary() if d["action"] == "epsilon spent"]
    assert [d["amount"] for d in spent] == [0.5, 0.25]
    assert all(d["function"] == "histplot" for d in spent)
    dp_entries = [e for e in audit.entries() if e.method == "dp"]
    assert [e.params["epsilon"] for e in dp_entries] == [0.5, 0.25]
    assert audit.budget_spent() == {"session": pytest.approx(0.75)}
    assert "epsilon" in audit.summary()


LOCKED_TOML = """\
threshold = 5
dp_budget = 1.0
locked = true
"""


def test_a_locked_budget_cannot_be_raised_by_a_call(tmp_path, monkeypatch, frame):
    path = tmp_path / "custodian.toml"
    path.write_text(LOCKED_TOML, encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    sp_policy._reset()
    try:
        assert get_policy().locked and get_policy().dp_budget == 1.0
        with pytest.raises(DisclosureError, match="locked"), safeplot.policy(dp_budget=10.0):
            pass
        with pytest.raises(DisclosureError, match="locked"):
            safeplot.set_policy(Policy(dp_budget=10.0))
        safeplot.histplot(data=frame, x="x", method="dp", epsilon=0.75, binrange=(0, 100))
        with pytest.raises(DisclosureError, match="dp_budget=1"):
            safeplot.histplot(data=frame, x="x", method="dp", epsilon=0.5, binrange=(0, 100))
        with pytest.raises(DisclosureError, match="locked"):
            ledger.clear()
    finally:
        monkeypatch.delenv("SAFEPLOT_POLICY")
        sp_policy._reset()


def test_a_server_ledger_keeps_its_own_budget(frame):
    book = ledger.Ledger(name="analyst a / cohort")
    with ledger.using(book):
        safeplot.histplot(data=frame, x="x", method="dp", epsilon=2.0, binrange=(0, 100))
    assert book.epsilon_spent() == 2.0
    assert ledger.current().epsilon_spent() == 0.0


# -- the release and the figure ------------------------------------------------------------


def test_dp_histogram_release(frame):
    rels = release_histograms(
        frame["x"].to_numpy(), method="dp", bins=10, binrange=(0.0, 100.0), epsilon=1.0
    )
    (rel,) = rels
    assert np.array_equal(rel.edges, np.linspace(0, 100, 11))
    assert rel.accuracy == dpnum.accuracy(1.0)
    assert (rel.counts >= 0).all()
    exact = np.histogram(frame["x"], bins=rel.edges)[0]
    assert np.all(np.abs(rel.counts - exact) <= 40)  # 40 = 40 scales of noise at epsilon 1
    assert rel.report.method == "dp" and rel.report.cells_suppressed == 0
    # the record count is the noisy total, not the exact one
    assert rel.report.n == get_policy().round_count(int(rel.counts.sum()))


def test_edges_never_come_from_the_raw_extremes(frame):
    x = frame["x"].to_numpy()
    for bins, binrange in ((20, (0.0, 100.0)), ([0.0, 25.0, 50.0, 100.0], None)):
        assert dp_edges(bins, None, binrange, None) is not None
    rel = release_histograms(x, method="dp", epsilon=1.0)[0]
    assert rel.edges[0] in dpnum.RANGE_CANDIDATES and rel.edges[-1] in dpnum.RANGE_CANDIDATES
    assert x.min() not in rel.edges and x.max() not in rel.edges


def test_error_bars_are_drawn_with_the_accuracy(frame):
    from safeplot.marks.bars import DP_ERRORS_GID

    ax = safeplot.histplot(data=frame, x="x", method="dp", epsilon=1.0, binrange=(0, 100))
    bars = [c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]
    assert bars
    report = ax.safeplot_report
    assert report.details["accuracy_95"] == dpnum.accuracy(1.0)
    assert any("+/- 3 at 95%" in w for w in report.warnings)
    assert "epsilon=1" in ax.texts[-1].get_text()


def test_hue_shares_one_epsilon(frame):
    ax = safeplot.histplot(
        data=frame,
        x="x",
        hue="g",
        hue_order=["a", "b"],
        method="dp",
        epsilon=0.5,
        binrange=(0, 100),
        bins=10,
    )
    assert ledger.current().epsilon_spent() == 0.5
    assert ax.safeplot_report.method == "dp"


def test_dask_frames_are_refused(frame):
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(ValueError, match="dask"):
        safeplot.histplot(data=dd.from_pandas(frame, npartitions=2), x="x", method="dp")
    assert ledger.current().epsilon_spent() == 0.0


@pytest.mark.parametrize(
    "draw",
    [
        lambda df: safeplot.scatterplot(data=df, x="x", y="x", method="dp"),
        lambda df: safeplot.boxplot(data=df, x="g", y="x", method="dp"),
        lambda df: safeplot.kdeplot(data=df, x="x", y="x", method="dp"),
        lambda df: safeplot.pointplot(data=df, x="g", y="x", method="dp"),
        lambda df: safeplot.qqplot(df["x"], method="dp"),
        lambda df: df.plot.hexbin(x="x", y="x", backend="safeplot", method="dp"),
        lambda df: safeplot.clustermap(df[["x"]].T, sdc_method="dp"),
    ],
)
def test_plots_of_other_kinds_refuse_dp_naming_the_plots_that_take_it(frame, draw):
    before = plt.get_fignums()
    with pytest.raises(ValueError, match="histplot"):
        draw(frame)
    assert plt.get_fignums() == before
    assert ledger.current().epsilon_spent() == 0.0
    assert audit.entries() == []


def test_dp_is_allowed_by_default_and_can_be_left_out_by_a_policy(frame):
    assert "dp" in get_policy().allowed_methods
    with (
        safeplot.policy(allowed_methods=["suppress"]),
        pytest.raises(DisclosureError, match="not allowed"),
    ):
        safeplot.histplot(data=frame, x="x", method="dp")
    assert get_method("dp").family == "private"


def test_without_opendp_the_error_says_how_to_install(monkeypatch, frame):
    import builtins

    real_import = builtins.__import__

    def no_opendp(name, *args, **kwargs):
        if name.startswith("opendp"):
            raise ImportError("No module named 'opendp'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_opendp)
    with pytest.raises(ImportError, match=r'pip install "safeplot\[dp\]"'):
        safeplot.histplot(data=frame, x="x", method="dp", binrange=(0, 100))
    assert ledger.current().epsilon_spent() == 0.0


def test_binwidth_applies_to_an_estimated_range(frame):
    rel = release_histograms(frame["x"].to_numpy(), method="dp", binwidth=5.0, epsilon=1.0)[0]
    assert np.allclose(np.diff(rel.edges), 5.0)
    assert rel.edges[0] in dpnum.RANGE_CANDIDATES


# -- count plots ---------------------------------------------------------------------------


def test_countplot_dp_counts_the_named_categories(frame):
    from safeplot.marks.bars import DP_ERRORS_GID
    from safeplot.plots.categorical import release_countplot

    rel = release_countplot(frame, x="g", order=["a", "b", "never"], method="dp", epsilon=1.0)
    assert rel.levels == ["a", "b", "never"]
    assert (rel.counts >= 0).all() and not np.isnan(rel.counts).any()
    exact = frame["g"].value_counts()
    assert abs(rel.counts[0, 0] - exact["a"]) <= 40 and abs(rel.counts[1, 0] - exact["b"]) <= 40
    assert rel.accuracy == dpnum.accuracy(1.0)
    assert ledger.current().epsilon_spent() == 1.0
    ax = safeplot.countplot(data=frame, x="g", order=["a", "b"], method="dp", epsilon=0.5)
    assert [c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]
    assert ax.safeplot_report.params == {"epsilon": 0.5}
    assert ledger.current().epsilon_spent() == 1.5


def test_countplot_dp_needs_public_categories_and_spends_nothing_without(frame):
    with pytest.raises(ValueError, match="order="):
        safeplot.countplot(data=frame, x="g", method="dp")
    with pytest.raises(ValueError, match="hue_order="):
        safeplot.countplot(data=frame, x="g", hue="g", order=["a", "b"], method="dp")
    with pytest.raises(ValueError, match="epsilon= is the privacy loss"):
        safeplot.countplot(data=frame, x="g", method="suppress", epsilon=1.0)
    assert ledger.current().epsilon_spent() == 0.0


def test_countplot_noise_has_the_mechanisms_scale():
    from safeplot.plots.categorical import release_countplot

    df = pd.DataFrame({"g": ["a"] * 300 + ["b"] * 200})
    with safeplot.policy(dp_budget=1e6):
        draws = np.stack(
            [
                release_countplot(df, x="g", order=["a", "b"], method="dp", epsilon=1.0).counts[
                    :, 0
                ]
                for _ in range(300)
            ]
        )
    noise = draws - np.array([300, 200])
    sd = math.sqrt(2 * math.exp(-1)) / (1 - math.exp(-1))
    assert np.all(np.abs(noise.mean(axis=0)) < 5 * sd / math.sqrt(300))
    assert np.all(np.abs(noise.std(axis=0, ddof=1) / sd - 1) < 0.35)  # over 5 standard errors
    assert ledger.current().epsilon_spent() == pytest.approx(300.0)


# -- 2-D count grids: histplot(x, y) and heatmap(x, y) -------------------------------------


@pytest.fixture
def pairs():
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(50, 10, 800), 2)
    return pd.DataFrame({"x": x, "y": np.round(0.5 * x + rng.normal(0, 5, 800), 2)})


def _exact_grid(df, xedges, yedges):
    return np.histogram2d(df["x"], df["y"], bins=[xedges, yedges])[0]


def test_grid_noise_has_the_mechanisms_mean_and_scale(pairs):
    from safeplot.methods import get_method
    from safeplot.plots.grid import release_private_grid

    raw = pairs[["x", "y"]].to_numpy()
    codes = np.zeros(len(raw), dtype=int)
    epsilon = 1.0
    with safeplot.policy(dp_budget=1e6):
        draws = [
            release_private_grid(
                raw,
                codes,
                [None],
                get_method("dp"),
                names=("x", "y"),
                bins=4,
                binrange=((0, 100), (0, 60)),
                epsilon=epsilon,
                function="heatmap",
            )
            for _ in range(300)
        ]
    rel = draws[0]
    assert np.array_equal(rel.xedges, np.linspace(0, 100, 5))
    assert np.array_equal(rel.yedges, np.linspace(0, 60, 5))
    exact = _exact_grid(pairs, rel.xedges, rel.yedges)
    counts = np.stack([d.counts[0] for d in draws])
    assert (counts >= 0).all() and not np.isnan(counts).any()
    big = exact >= 60  # far from 0: the clamp never acts there
    assert big.sum() >= 3
    noise = (counts - exact)[:, big]
    sd = math.sqrt(2 * math.exp(-1)) / (1 - math.exp(-1))
    assert np.all(np.abs(noise.mean(axis=0)) < 5 * sd / math.sqrt(300))
    assert np.all(np.abs(noise.std(axis=0, ddof=1) / sd - 1) < 0.35)  # over 5 standard errors
    # the budget is the session's: spent exactly once per release
    assert ledger.current().epsilon_spent() == pytest.approx(300.0)


def test_grid_budget_is_spent_exactly_and_refused_past_it(pairs):
    book = ledger.current()
    ax = safeplot.histplot(
        data=pairs, x="x", y="y", method="dp", epsilon=1.0, binrange=((0, 100), (0, 60))
    )
    assert book.epsilon_spent() == pytest.approx(1.0)
    details = ax.safeplot_report.details
    assert details["bins_from"] == "the call" and details["epsilon_counts"] == 1.0
    ax = safeplot.heatmap(data=pairs, x="x", y="y", method="dp", epsilon=1.5, bins=10)
    details = ax.safeplot_report.details
    # both ranges estimated: a quarter of epsilon, split between the axes
    assert details["epsilon_range"] == pytest.approx(0.375)
    assert details["epsilon_counts"] == pytest.approx(1.125)
    assert book.epsilon_spent() == pytest.approx(2.5)
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match=r"only 0.5 of the privacy budget dp_budget=3"):
        safeplot.heatmap(data=pairs, x="x", y="y", method="dp", epsilon=1.0, binrange=(0, 100))
    assert book.epsilon_spent() == pytest.approx(2.5)
    assert plt.get_fignums() == before


def test_grid_draws_its_accuracy_and_reports_it(pairs):
    from safeplot.marks.bars import DP_ERRORS_GID

    ax = safeplot.heatmap(data=pairs, x="x", y="y", method="dp", epsilon=1.0, binrange=(0, 100))
    marks = [t for t in ax.texts if t.get_gid() == DP_ERRORS_GID]
    assert marks and "+/- 3 (95%)" in marks[0].get_text()
    assert ax.safeplot_report.details["accuracy_95"] == 3
    assert any("+/- 3 at 95%" in w for w in ax.safeplot_report.warnings)
    assert ax.safeplot_report.cells_suppressed == 0
    _, ax = plt.subplots()
    ax = safeplot.histplot(data=pairs, x="x", y="y", method="dp", binrange=(0, 100), ax=ax)
    assert [t for t in ax.texts if t.get_gid() == DP_ERRORS_GID]


def test_grid_edges_never_come_from_the_raw_extremes(pairs):
    from safeplot.plots.grid import release_grid

    rel = release_grid(pairs["x"], pairs["y"], method="dp", bins=10, epsilon=1.0)
    for edges, col in ((rel.xedges, "x"), (rel.yedges, "y")):
        assert edges[0] in dpnum.RANGE_CANDIDATES and edges[-1] in dpnum.RANGE_CANDIDATES
        assert pairs[col].min() not in edges and pairs[col].max() not in edges


def test_grid_bad_arguments_spend_nothing(pairs):
    for kwargs in (
        {"epsilon": 0},
        {"binrange": (5, 1)},
        {"binrange": ((0, 1), (0, 1), (0, 1))},
        {"bins": 0},
    ):
        with pytest.raises(ValueError):
            safeplot.heatmap(data=pairs, x="x", y="y", method="dp", **kwargs)
    with pytest.raises(ValueError, match="epsilon= is the privacy loss"):
        safeplot.heatmap(data=pairs, x="x", y="y", method="suppress", epsilon=1.0)
    assert ledger.current().epsilon_spent() == 0.0


# -- crosstab ------------------------------------------------------------------------------


@pytest.fixture
def table_frame():
    return pd.DataFrame(
        {"a": ["u"] * 300 + ["v"] * 200 + ["w"] * 2, "b": ["p", "q"] * 251},
    )


def test_crosstab_noise_has_the_mechanisms_scale_and_no_count_is_negative(table_frame):
    exact = pd.crosstab(table_frame["a"], table_frame["b"]).reindex(["u", "v"]).to_numpy()
    with safeplot.policy(dp_budget=1e6):
        draws = np.stack(
            [
                safeplot.crosstab(
                    table_frame,
                    "a",
                    "b",
                    method="dp",
                    epsilon=1.0,
                    row_order=["u", "v", "never"],
                    col_order=["p", "q"],
                ).to_numpy()
                for _ in range(300)
            ]
        )
    assert draws.shape == (300, 3, 2)
    assert (draws >= 0).all()
    noise = draws[:, :2, :] - exact
    sd = math.sqrt(2 * math.exp(-1)) / (1 - math.exp(-1))
    assert np.all(np.abs(noise.mean(axis=0)) < 5 * sd / math.sqrt(300))
    assert np.all(np.abs(noise.std(axis=0, ddof=1) / sd - 1) < 0.35)  # over 5 standard errors
    # the named row with no record gets clamped noise around 0, never suppressed
    assert not np.isnan(draws[:, 2, :]).any() and (draws[:, 2, :] > 0).any()
    assert ledger.current().epsilon_spent() == pytest.approx(300.0)


def test_crosstab_dp_labels_come_from_the_call_and_budget_is_spent(table_frame):
    t = safeplot.crosstab(
        table_frame, "a", "b", method="dp", epsilon=0.5, row_order=["u", "w"], col_order=["q"]
    )
    assert list(t.index) == ["u", "w"] and list(t.columns) == ["q"]
    report = t.attrs["safeplot"]["report"]
    details = report["details"] if isinstance(report, dict) else report.details
    assert details["accuracy_95"] == dpnum.accuracy(0.5)
    assert ledger.current().epsilon_spent() == 0.5
    entry = audit.entries()[-1]
    assert entry.method == "dp" and entry.params == {"epsilon": 0.5}
    # the rare level "w" (2 records) is not refused: its label is the call's
    with_margins = safeplot.crosstab(
        table_frame,
        "a",
        "b",
        method="dp",
        epsilon=0.5,
        row_order=["u", "v"],
        col_order=["p", "q"],
        margins=True,
    )
    cells = with_margins.to_numpy()
    assert np.allclose(cells[:2, 2], cells[:2, :2].sum(axis=1))
    assert np.allclose(cells[2, :], cells[:2, :].sum(axis=0))
    assert ledger.current().epsilon_spent() == 1.0
    ax = safeplot.heatmap(with_margins)
    from safeplot.marks.bars import DP_ERRORS_GID

    assert [t for t in ax.texts if t.get_gid() == DP_ERRORS_GID]
    with (
        pytest.raises(DisclosureError, match=r"only 0 of the privacy budget"),
        safeplot.policy(dp_budget=1.0),
    ):
        safeplot.crosstab(table_frame, "a", "b", method="dp", row_order=["u"], col_order=["p"])


def test_crosstab_dp_refusals_spend_nothing(table_frame):
    with pytest.raises(ValueError, match="row_order="):
        safeplot.crosstab(table_frame, "a", "b", method="dp", col_order=["p"])
    with pytest.raises(ValueError, match="col_order="):
        safeplot.crosstab(table_frame, "a", "b", method="dp", row_order=["u"])
    with pytest.raises(ValueError, match="epsilon= is the privacy loss"):
        safeplot.crosstab(table_frame, "a", "b", epsilon=1.0)
    with pytest.raises(ValueError, match="not available for tables"):
        safeplot.crosstab(table_frame, "a", "b", method="generalize")
    with pytest.raises(ValueError, match="epsilon"):
        safeplot.crosstab(
            table_frame, "a", "b", method="dp", epsilon=-1, row_order=["u"], col_order=["p"]
        )
    assert ledger.current().epsilon_spent() == 0.0


# -- ECDF ------------------------------------------------------------------------------------


def test_ecdf_is_monotone_within_0_and_1_and_spends_once(frame):
    from safeplot.plots.ecdf import release_ecdf

    with safeplot.policy(dp_budget=1e6):
        for _ in range(100):
            rel = release_ecdf(
                frame,
                x="x",
                hue="g",
                hue_order=["a", "b"],
                method="dp",
                epsilon=0.2,
                binrange=(0, 100),
                bins=25,
            )
            for level in rel.levels:
                assert (rel.weights[rel.levels.index(level)] >= 0).all()
                pos, cum = rel.curve(level)
                assert np.all(np.diff(cum) >= 0)
                assert cum.min() >= 0 and cum[-1] == pytest.approx(1.0)
                assert np.array_equal(pos, np.linspace(0, 100, 26)[1:])
    assert ledger.current().epsilon_spent() == pytest.approx(20.0)


def test_ecdf_is_unbiased_where_the_counts_are_large(frame):
    from safeplot.plots.ecdf import release_ecdf

    edges = np.linspace(0, 100, 21)
    exact = np.cumsum(np.histogram(frame["x"], bins=edges)[0])
    with safeplot.policy(dp_budget=1e6):
        cums = np.stack(
            [
                np.cumsum(
                    release_ecdf(
                        frame, x="x", method="dp", epsilon=1.0, binrange=(0, 100)
                    ).weights[0]
                )
                for _ in range(300)
            ]
        )
    # the middle of the curve: cumulative noise of j counts has SD sd * sqrt(j)
    sd = math.sqrt(2 * math.exp(-1)) / (1 - math.exp(-1))
    j = 10
    err = cums[:, j - 1] - exact[j - 1]
    assert abs(err.mean()) < 5 * sd * math.sqrt(j) / math.sqrt(300) + 1.0
    assert err.std(ddof=1) < 1.5 * sd * math.sqrt(j)


def test_ecdf_draws_its_band_and_reports_the_accuracy(frame):
    from safeplot.marks.bars import DP_ERRORS_GID

    ax = safeplot.ecdfplot(frame, x="x", method="dp", epsilon=1.0, binrange=(0, 100))
    bands = [c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]
    assert len(bands) == 1
    report = ax.safeplot_report
    assert report.details["accuracy_95"] == 3 and report.params == {"epsilon": 1.0}
    assert any("+/- 3 at 95%" in w and "monotone" in w for w in report.warnings)
    assert ledger.current().epsilon_spent() == 1.0
    _, ax = plt.subplots()
    ax = safeplot.ecdfplot(
        frame, x="x", hue="g", hue_order=["a", "b"], method="dp", epsilon=0.5, ax=ax
    )
    assert len([c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]) == 2
    assert ax.safeplot_report.details["epsilon_range"] == pytest.approx(0.125)
    assert ledger.current().epsilon_spent() == 1.5


def test_ecdf_refusals_spend_nothing(frame):
    for kwargs in ({"epsilon": 0}, {"bins": "fd"}, {"binrange": (3, 1)}, {"log_scale": True}):
        with pytest.raises(ValueError):
            safeplot.ecdfplot(frame, x="x", method="dp", **kwargs)
    with pytest.raises(ValueError, match="epsilon="):
        safeplot.ecdfplot(frame, x="x", method="suppress", epsilon=1.0)
    assert ledger.current().epsilon_spent() == 0.0


# -- KDE -------------------------------------------------------------------------------------


def test_kde_is_smoothed_from_dp_counts_with_a_band(frame):
    from safeplot.marks.bars import DP_ERRORS_GID
    from safeplot.plots.kde import release_kde

    rel = release_kde(frame["x"], method="dp", epsilon=1.0, binrange=(0, 100), bins=20)
    assert (rel.data["weights"] > 0).all()
    centres = np.linspace(2.5, 97.5, 20)
    assert set(rel.data["x"]) <= set(centres)
    est = rel.estimate
    assert est.band and est.band[0].size == est.support[0].size
    assert (est.band[0] >= 0).all() and est.band[0].max() > 0
    area = np.trapezoid(est.density[0], est.support[0])
    assert area == pytest.approx(1.0, abs=0.02)
    assert ledger.current().epsilon_spent() == 1.0
    _, ax = plt.subplots()
    ax = safeplot.kdeplot(
        frame,
        x="x",
        hue="g",
        hue_order=["a", "b"],
        method="dp",
        epsilon=0.5,
        binrange=(0, 100),
        ax=ax,
    )
    assert len([c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]) == 2
    assert ax.safeplot_report.params == {"epsilon": 0.5, "bins": 30}
    assert ledger.current().epsilon_spent() == 1.5


def test_kde_band_matches_the_spread_of_many_releases(frame):
    from safeplot.plots.kde import release_kde

    with safeplot.policy(dp_budget=1e6):
        rels = [
            release_kde(frame["x"], method="dp", epsilon=0.5, binrange=(0, 100), bins=20, cut=0)
            for _ in range(200)
        ]
    mid = [float(np.interp(50.0, r.estimate.support[0], r.estimate.density[0])) for r in rels]
    bands = [np.interp(50.0, r.estimate.support[0], r.estimate.band[0]) for r in rels]
    band = float(np.median(bands))
    # the band is 1.96 SD of the curve's noise: the curves' spread at the mode agrees
    assert np.std(mid, ddof=1) == pytest.approx(band / 1.96, rel=0.35)


def test_kde_refusals_spend_nothing(frame):
    for kwargs in ({"epsilon": -1}, {"binrange": (3, 1)}, {"log_scale": True}):
        with pytest.raises(ValueError):
            safeplot.kdeplot(frame, x="x", method="dp", **kwargs)
    with pytest.raises(ValueError, match="epsilon="):
        safeplot.kdeplot(frame, x="x", method="deterministic", epsilon=1.0)
    with pytest.raises(ValueError, match="not available"):
        safeplot.kdeplot(frame, x="x", y="x", method="dp")
    assert ledger.current().epsilon_spent() == 0.0


# -- hist(), the pandas backend and displot ----------------------------------------------------


def test_hist_takes_epsilon_and_draws_error_bars(frame):
    from safeplot.marks.bars import DP_ERRORS_GID

    fig, ax = plt.subplots()
    n, edges, _ = safeplot.hist(
        frame["x"], bins=10, range=(0, 100), method="dp", epsilon=0.5, ax=ax
    )
    assert np.array_equal(edges, np.linspace(0, 100, 11)) and (n >= 0).all()
    assert [c for c in ax.collections if c.get_gid() == DP_ERRORS_GID]
    assert ax.safeplot_report.params == {"epsilon": 0.5}
    assert ledger.current().epsilon_spent() == 0.5
    with pytest.raises(ValueError, match="epsilon= is the privacy loss"):
        safeplot.hist(frame["x"], method="suppress", epsilon=0.5)


def test_pandas_backend_hist_and_kde_take_epsilon(frame):
    ax = frame["x"].hist(backend="safeplot", method="dp", epsilon=0.25, bins=10)
    assert ax.safeplot_report.params == {"epsilon": 0.25}
    ax = frame.plot.kde(y="x", backend="safeplot", method="dp", epsilon=0.25)
    assert ax.safeplot_report.params["epsilon"] == 0.25
    assert ledger.current().epsilon_spent() == pytest.approx(0.5)
    with pytest.raises(ValueError, match="epsilon= is the privacy loss"):
        frame.plot.box(backend="safeplot", epsilon=0.5)


@pytest.mark.parametrize("kind", ["hist", "kde", "ecdf"])
def test_displot_spends_epsilon_per_facet(frame, kind):
    g = safeplot.displot(
        frame,
        x="x",
        col="g",
        col_order=["a", "b"],
        kind=kind,
        method="dp",
        epsilon=0.5,
        binrange=(0, 100),
    )
    assert [a.safeplot_report.params["epsilon"] for a in g.axes.flat] == [0.5, 0.5]
    assert ledger.current().epsilon_spent() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "draw",
    [
        lambda df: safeplot.histplot(data=df, x="x", hue="g", method="dp", binrange=(0, 100)),
        lambda df: safeplot.ecdfplot(data=df, x="x", hue="g", method="dp", binrange=(0, 100)),
        lambda df: safeplot.kdeplot(data=df, x="x", hue="g", method="dp", binrange=(0, 100)),
        lambda df: safeplot.displot(df, x="x", col="g", method="dp", binrange=(0, 100)),
    ],
)
def test_dp_levels_come_from_the_call_not_the_records(frame, draw):
    """A level read from the records, or refused for its few records, would depend on them."""
    with pytest.raises(ValueError, match=r"needs the (hue|col) levels before the data is read"):
        draw(frame)
    assert ledger.current().epsilon_spent() == 0
    rare = frame.copy()
    rare.loc[0, "g"] = "rare"  # one record: named by the call, drawn with noisy counts
    ax = safeplot.histplot(
        data=rare, x="x", hue="g", hue_order=["a", "rare"], method="dp", binrange=(0, 100)
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a", "rare"]
