"""method="dp" beyond counts: the Gaussian mechanism and delta, DP means, DP survival curves.

OpenDP samples from the operating system's randomness, so no test fixes the
noise: the statistical tests draw many releases and compare them with what
the mechanism promises, within tolerances of about five standard errors.
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
from safeplot.plots.bar import release_barplot
from safeplot.plots.survival import release_survival
from safeplot.policy import Policy, get_policy

N_RELEASES = 2000


@pytest.fixture
def groups():
    rng = np.random.default_rng(7)
    n = 3000
    g = rng.choice(["a", "b", "c"], n)
    y = rng.normal(40, 8, n) + np.where(g == "b", 10.0, 0.0)
    return pd.DataFrame({"g": g, "y": np.round(y, 2)})


@pytest.fixture
def survival():
    rng = np.random.default_rng(11)
    n = 20000
    t = rng.exponential(10.0, n)
    c = rng.uniform(0, 30, n)
    return pd.DataFrame(
        {
            "d": np.round(np.minimum(t, c), 3),
            "e": (t <= c).astype(int),
            "arm": rng.choice(["x", "y"], n),
        }
    )


def _opendp_gaussian_map(scale: float, delta: float) -> float:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int)
    meas = dp.c.make_fix_delta(
        dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=scale)), delta
    )
    return float(meas.map(1)[0])


# -- the Gaussian mechanism ------------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 1e-6), (1.0, 1e-6), (2.0, 1e-5)])
def test_gaussian_noise_has_mean_zero_and_the_sd_opendp_certifies(epsilon, delta):
    exact = np.array([300, 150, 500])  # far from 0: the clamp never acts
    # one release of the counts repeated N_RELEASES times: each count gets its own draw
    draws = dpnum.gaussian_counts(
        np.tile(exact, N_RELEASES), epsilon, delta, clamp=False
    ).counts.reshape(N_RELEASES, exact.size)
    noise = draws - exact
    assert np.all(noise == np.round(noise)), "discrete Gaussian noise is whole numbers"
    sigma = dpnum.gaussian_scale(epsilon, delta)
    for j in range(exact.size):
        column = noise[:, j]
        assert abs(column.mean()) < 5 * sigma / math.sqrt(N_RELEASES), (j, column.mean())
        # the SD of a sample SD of normal draws is sigma / sqrt(2 n): 8% is over 5 of them
        assert abs(column.std(ddof=1) / sigma - 1) < 0.08, (j, column.std(ddof=1), sigma)
        # normal, not Laplace: the kurtosis is near 3
        kurt = np.mean((column - column.mean()) ** 4) / column.var() ** 2
        assert abs(kurt - 3.0) < 0.5, kurt
    assert abs(np.corrcoef(noise[:, 0], noise[:, 1])[0, 1]) < 5 / math.sqrt(N_RELEASES)


@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 1e-6), (1.0, 1e-7), (3.0, 1e-5)])
def test_gaussian_scale_is_the_smallest_opendp_certifies(epsilon, delta):
    sigma = dpnum.gaussian_scale(epsilon, delta)
    assert _opendp_gaussian_map(sigma, delta) <= epsilon * (1 + 1e-9)
    # 2% less noise would no longer be (epsilon, delta)-DP by OpenDP's own map
    assert _opendp_gaussian_map(sigma * 0.98, delta) > epsilon
    # the analytic bound of Dwork and Roth is looser (more noise) for epsilon < 1
    if epsilon < 1:
        assert sigma < math.sqrt(2 * math.log(1.25 / delta)) / epsilon


def test_a_smaller_delta_costs_more_noise():
    sigmas = [dpnum.gaussian_scale(1.0, d) for d in (1e-5, 1e-6, 1e-7, 1e-8)]
    assert sigmas == sorted(sigmas)


def test_delta_and_mechanism_are_checked():
    assert dpnum.check_delta(None, "laplace") == 0.0
    assert dpnum.check_delta(1e-6, "gaussian") == 1e-6
    for bad in (0.0, -1e-6, 2e-5, 0.5, 1.0, float("nan"), "small", True):
        with pytest.raises(ValueError, match="delta"):
            dpnum.check_delta(bad, "gaussian")
    with pytest.raises(ValueError, match="needs delta="):
        dpnum.check_delta(None, "gaussian")
    with pytest.raises(ValueError, match="is for mechanism='gaussian'"):
        dpnum.check_delta(1e-6, "laplace")
    with pytest.raises(ValueError, match="mechanism='exponential'"):
        dpnum.check_mechanism("exponential")


def test_noisy_sums_have_the_scale_of_their_sensitivity():
    exact = np.array([1000.0, -250.0])
    for mech, delta in (("laplace", None), ("gaussian", 1e-6)):
        draws = dpnum.noisy_sums(
            np.tile(exact, 1000), 5.0, 1.0, mechanism=mech, delta=delta
        ).sums.reshape(1000, exact.size)
        out = dpnum.noisy_sums(exact, 5.0, 1.0, mechanism=mech, delta=delta)
        noise = draws - exact
        assert abs(noise.mean()) < 5 * out.sd / math.sqrt(noise.size)
        assert abs(noise.std(ddof=1) / out.sd - 1) < 0.15, (mech, noise.std(), out.sd)
    # Laplace: scale = sensitivity / epsilon
    assert dpnum.noisy_sums(exact, 5.0, 0.5).scale == pytest.approx(10.0)


def test_noise_comes_from_opendp_not_numpy(monkeypatch, groups, survival):
    def refuse(*args, **kwargs):
        raise AssertionError("numpy's random numbers were used for DP noise")

    for name in ("default_rng", "normal", "laplace", "random", "uniform", "randint"):
        monkeypatch.setattr(np.random, name, refuse)
    release_barplot(groups, x="g", y="y", order=["a", "b"], method="dp", bounds=(0, 100))
    release_survival(
        survival.iloc[:2000], duration="d", event="e", method="dp", binrange=(0, 30), bins=20
    )


# -- the budget: epsilon and delta ---------------------------------------------------------


def test_deltas_add_up_against_the_policy_delta_budget(groups):
    assert get_policy().dp_delta_budget == 1e-5
    kw = {"x": "g", "y": "y", "order": ["a", "b"], "method": "dp", "bounds": (0, 100)}
    release_barplot(groups, epsilon=0.5, mechanism="gaussian", delta=4e-6, **kw)
    release_barplot(groups, epsilon=0.5, mechanism="gaussian", delta=4e-6, **kw)
    release_barplot(groups, epsilon=0.5, **kw)  # Laplace: no delta
    book = ledger.current()
    assert book.epsilon_spent() == pytest.approx(1.5)
    assert book.delta_spent() == pytest.approx(8e-6)
    with pytest.raises(DisclosureError, match="dp_delta_budget=1e-05"):
        release_barplot(groups, epsilon=0.5, mechanism="gaussian", delta=4e-6, **kw)
    # a refused release spends neither
    assert book.epsilon_spent() == pytest.approx(1.5)
    assert book.delta_spent() == pytest.approx(8e-6)


LOCKED_TOML = """\
dp_budget = 2.0
dp_delta_budget = 2e-6
locked = true
"""


def test_a_locked_delta_budget_cannot_be_raised(tmp_path, monkeypatch):
    path = tmp_path / "custodian.toml"
    path.write_text(LOCKED_TOML, encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    sp_policy._reset()
    try:
        assert get_policy().dp_delta_budget == 2e-6
        with pytest.raises(DisclosureError, match="locked"), safeplot.policy(dp_delta_budget=1e-5):
            pass
        with pytest.raises(DisclosureError, match="locked"):
            safeplot.set_policy(Policy(dp_budget=2.0, dp_delta_budget=1e-5))
        with safeplot.policy(dp_delta_budget=1e-6):  # tightening is allowed
            assert get_policy().dp_delta_budget == 1e-6
    finally:
        monkeypatch.delenv("SAFEPLOT_POLICY")
        sp_policy._reset()


def test_barplot_spends_its_epsilon_exactly_as_documented(groups):
    kw = {"x": "g", "y": "y", "order": ["a", "b", "c"], "method": "dp"}
    rel = release_barplot(groups, epsilon=0.6, bounds=(0, 100), **kw)
    assert ledger.current().epsilon_spent() == pytest.approx(0.6)
    assert rel.report.details["epsilon_counts"] == pytest.approx(0.3)
    assert rel.report.details["epsilon_sums"] == pytest.approx(0.3)
    rel = release_barplot(groups, epsilon=0.8, bounds="dp", **kw)
    assert ledger.current().epsilon_spent() == pytest.approx(1.4)
    d = rel.report.details
    assert d["epsilon_bounds"] == pytest.approx(0.2)
    assert d["epsilon_counts"] + d["epsilon_sums"] + d["epsilon_bounds"] == pytest.approx(0.8)
    assert rel.report.params["bounds"][0] in dpnum.RANGE_CANDIDATES
    rel = release_barplot(
        groups, epsilon=0.4, mechanism="gaussian", delta=1e-6, **kw, bounds=(0, 100)
    )
    assert rel.report.details["delta_counts"] + rel.report.details["delta_sums"] == 1e-6
    assert ledger.current().delta_spent() == pytest.approx(1e-6)


def test_past_the_budget_nothing_is_drawn_or_spent(groups, survival):
    safeplot.barplot(groups, x="g", y="y", order=["a"], method="dp", bounds=(0, 99), epsilon=2.5)
    before = plt.get_fignums()
    n_audit = len(audit.entries())
    with pytest.raises(DisclosureError, match="dp_budget=3"):
        safeplot.barplot(
            groups, x="g", y="y", order=["a"], method="dp", bounds=(0, 99), epsilon=1.0
        )
    with pytest.raises(DisclosureError, match="dp_budget=3"):
        safeplot.kmplot(survival, duration="d", event="e", method="dp", epsilon=1.0)
    assert plt.get_fignums() == before
    assert len(audit.entries()) == n_audit
    assert ledger.current().epsilon_spent() == pytest.approx(2.5)


def test_bad_arguments_spend_nothing(groups, survival):
    with pytest.raises(ValueError, match="order="):
        release_barplot(groups, x="g", y="y", method="dp", bounds=(0, 100))
    with pytest.raises(ValueError, match="estimator='mean'"):
        release_barplot(
            groups, x="g", y="y", order=["a"], method="dp", bounds=(0, 100), estimator="sum"
        )
    with pytest.raises(ValueError, match="interval of the noise"):
        release_barplot(
            groups, x="g", y="y", order=["a"], method="dp", bounds=(0, 100), errorbar="sd"
        )
    with pytest.raises(ValueError, match="hue_order="):
        release_survival(survival, duration="d", event="e", hue="arm", method="dp")
    with pytest.raises(ValueError, match="timeline"):
        release_survival(survival, duration="d", event="e", method="dp", timeline=[5, 3])
    with pytest.raises(ValueError, match="method='dp'"):
        release_barplot(groups, x="g", y="y", bounds=(0, 100))
    with pytest.raises(ValueError, match="method='dp'"):
        release_survival(survival, duration="d", event="e", epsilon=1.0)
    assert ledger.current().epsilon_spent() == 0.0
    assert audit.entries() == []


def test_the_audit_log_records_epsilon_and_delta_per_release(groups, survival):
    safeplot.barplot(
        groups,
        x="g",
        y="y",
        order=["a", "b"],
        method="dp",
        bounds=(0, 100),
        epsilon=0.5,
        mechanism="gaussian",
        delta=1e-6,
    )
    safeplot.kmplot(survival, duration="d", event="e", method="dp", epsilon=0.25, binrange=(0, 30))
    entries = [e for e in audit.entries() if e.method == "dp"]
    assert [e.function for e in entries] == ["barplot", "kmplot"]
    assert [e.params["epsilon"] for e in entries] == [0.5, 0.25]
    # mechanism and delta are named for a Gaussian release; a Laplace release has delta 0
    assert [e.params.get("delta", 0.0) for e in entries] == [1e-6, 0.0]
    assert [e.params.get("mechanism", "laplace") for e in entries] == ["gaussian", "laplace"]
    assert "Laplace" in entries[1].report["details"]["mechanism"]
    spent = [d for d in ledger.summary() if d["action"] == "epsilon spent"]
    assert [d["amount"] for d in spent] == [0.5, 0.25]
    assert "delta=1e-06" in spent[0]["detail"]
    assert audit.budget_spent() == {"session": pytest.approx(0.75)}


# -- bar-plot means ------------------------------------------------------------------------


def test_dp_means_are_unbiased_and_their_bars_cover_the_clipped_mean(groups):
    small = groups.groupby("g").head(150)  # 150 a group: the noise is a visible share
    bounds = (0.0, 100.0)
    truth = small.assign(y=small["y"].clip(*bounds)).groupby("g")["y"].mean()
    order = ["a", "b", "c"]
    # The noise is OpenDP's (not seeded), so each bound below must hold by a wide margin. At
    # 300 releases this test failed about once in 50 runs: the bars cover the clipped mean
    # about 93.5% of the time (the delta method's interval), 2.5 standard errors above 0.9,
    # and the SD of Laplace noise is estimated with about 6.5% error. At 1200 releases the
    # bounds are about 5 standard errors away, or more.
    n_rel = 1200
    est, covered, sds = [], [], []
    with safeplot.policy(dp_budget=10_000.0):
        for _ in range(n_rel):
            rel = release_barplot(
                small, x="g", y="y", order=order, method="dp", bounds=bounds, epsilon=0.5
            )
            assert [c for c, _ in rel.groups] == order
            est.append(rel.estimates)
            covered.append((rel.lower <= truth[order].values) & (truth[order].values <= rel.upper))
            sds.append(rel.report.details["mean_noise_sd"])
    est, covered, sds = np.array(est), np.array(covered), np.array(sds)
    for j, cat in enumerate(order):
        spread = est[:, j].std(ddof=1)
        # unbiased: the mean of the releases within 5 standard errors of the clipped mean
        assert abs(est[:, j].mean() - truth[cat]) < 5 * spread / math.sqrt(n_rel) + 0.05, cat
        # the documented noise SD (delta method) matches the spread of the releases
        assert abs(spread / np.median(sds[:, j]) - 1) < 0.2, (cat, spread, np.median(sds[:, j]))
        # the 95% bars of the noise cover the clipped mean about 95% of the time
        assert covered[:, j].mean() > 0.9, (cat, covered[:, j].mean())


def test_dp_means_at_large_n_are_close_to_the_means(groups):
    big = pd.concat([groups] * 10, ignore_index=True)
    rel = release_barplot(
        big, x="g", y="y", order=["a", "b", "c"], method="dp", bounds=(0, 100), epsilon=1.0
    )
    truth = big.groupby("g")["y"].mean()
    assert np.allclose(rel.estimates, truth[["a", "b", "c"]].values, atol=0.15)
    assert (rel.lower <= rel.estimates).all() and (rel.estimates <= rel.upper).all()


def test_dp_means_with_hue_and_the_drawn_bars(groups):
    df = groups.assign(h=np.where(np.arange(len(groups)) % 2, "u", "v"))
    fig, ax = plt.subplots()
    safeplot.barplot(
        df,
        x="g",
        y="y",
        hue="h",
        order=["a", "b"],
        hue_order=["u", "v"],
        method="dp",
        bounds=(0, 100),
        epsilon=1.0,
        ax=ax,
    )
    assert ax.safeplot_report.method == "dp"
    heights = sorted(round(p.get_height(), 1) for p in ax.patches if p.get_height() > 0)
    assert len(heights) == 4
    assert len(ax.lines) >= 4, "error bars are drawn by default"
    # clipped values: a mean never leaves the bounds
    rel = release_barplot(df, x="g", y="y", order=["a", "b"], method="dp", bounds=(0, 30))
    assert (rel.estimates <= 30).all() and (rel.upper <= 30).all()


def test_a_method_object_carries_mechanism_and_delta(groups):
    m = safeplot.methods.DifferentialPrivacy(epsilon=0.5, mechanism="gaussian", delta=1e-6)
    ax = safeplot.barplot(groups, x="g", y="y", order=["a"], method=m, bounds=(0, 100))
    assert ax.safeplot_report.params["mechanism"] == "gaussian"
    assert ledger.current().delta_spent() == pytest.approx(1e-6)


# -- Kaplan-Meier curves -------------------------------------------------------------------


def _lifelines_at(df: pd.DataFrame, times: np.ndarray) -> np.ndarray:
    from lifelines import KaplanMeierFitter

    km = KaplanMeierFitter().fit(df["d"], df["e"])
    return km.survival_function_at_times(times).to_numpy()


@pytest.mark.parametrize(("mechanism", "delta"), [("laplace", None), ("gaussian", 1e-6)])
def test_dp_km_curve_is_close_to_lifelines_at_large_n(survival, mechanism, delta):
    rel = release_survival(
        survival,
        duration="d",
        event="e",
        method="dp",
        epsilon=1.0,
        mechanism=mechanism,
        delta=delta,
        binrange=(0, 30),
        bins=40,
    )
    t, s = rel.times[0][1:-1], rel.survival[0][1:-1]
    assert t.size >= 30
    assert np.max(np.abs(s - _lifelines_at(survival, t))) < 0.03
    lo, hi = rel.lower[0][1:-1], rel.upper[0][1:-1]
    # the band holds the curve, and lifelines' curve at most times
    assert (lo <= s + 1e-12).all() and (s <= hi + 1e-12).all()
    inside = (lo - 0.01 <= _lifelines_at(survival, t)) & (_lifelines_at(survival, t) <= hi + 0.01)
    assert inside.mean() > 0.8


def test_dp_km_curves_are_monotone_and_in_the_unit_interval_whatever_the_noise(survival):
    small = survival.iloc[:400]
    with safeplot.policy(dp_budget=1000.0):
        for _ in range(20):
            rel = release_survival(
                small,
                duration="d",
                event="e",
                hue="arm",
                hue_order=["x", "y"],
                method="dp",
                epsilon=0.5,
                binrange=(0, 30),
                bins=30,
            )
            for s, lo, hi in zip(rel.survival, rel.lower, rel.upper, strict=True):
                for curve in (s, lo, hi):
                    assert (np.diff(curve) <= 1e-12).all()
                    assert ((curve >= 0) & (curve <= 1)).all()


def test_dp_km_noise_has_sensitivity_one_on_the_joint_vector(survival):
    rel = release_survival(
        survival,
        duration="d",
        event="e",
        hue="arm",
        hue_order=["x", "y"],
        method="dp",
        epsilon=0.5,
        binrange=(0, 30),
    )
    # one epsilon for every hue level together: Laplace scale 1 / epsilon
    assert rel.report.details["noise_scale"] == pytest.approx(2.0)
    assert ledger.current().epsilon_spent() == pytest.approx(0.5)
    assert rel.levels == ["x", "y"]


def test_dp_km_grid_from_a_range_estimate_spends_a_quarter(survival):
    rel = release_survival(survival, duration="d", event="e", method="dp", epsilon=1.0)
    d = rel.report.details
    assert d["grid_from"] == "a differentially private range estimate"
    assert d["epsilon_range"] + d["epsilon_counts"] == pytest.approx(1.0)
    assert d["noise_scale"] == pytest.approx(1 / 0.75)
    # the grid ends on a fixed candidate, never on the longest follow-up
    assert rel.times[0][-1] != survival["d"].max()


def test_dp_km_timeline_is_used_as_given(survival):
    grid = [0, 2, 5, 10, 20]
    rel = release_survival(survival, duration="d", event="e", method="dp", timeline=grid)
    assert set(rel.times[0][1:]) <= set(grid)
    fig, ax = plt.subplots()
    safeplot.kmplot(survival, duration="d", event="e", method="dp", timeline=grid, ax=ax)
    assert ax.safeplot_report.params["bins"] == 4


def test_gaussian_sums_of_a_wide_range_get_noise_proportional_to_it():
    # OpenDP's scale search overflows at large sensitivities: the scale is searched at 1
    narrow = dpnum.noisy_sums([0.0], 1.0, 1.0, mechanism="gaussian", delta=1e-6)
    wide = dpnum.noisy_sums([0.0], 2500.0, 1.0, mechanism="gaussian", delta=1e-6)
    assert wide.sd / narrow.sd == pytest.approx(2500.0, rel=1e-3)
    assert _opendp_float_gaussian_map(wide.scale, 2500.0, 1e-6) <= 1.0 * (1 + 1e-9)


def _opendp_float_gaussian_map(scale: float, d_in: float, delta: float) -> float:
    import opendp.prelude as dp

    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float)
    meas = dp.c.make_fix_delta(
        dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=scale)), delta
    )
    return float(meas.map(d_in)[0])


def test_histplot_and_countplot_take_the_gaussian_mechanism(groups):
    fig, (a1, a2) = plt.subplots(1, 2)
    safeplot.histplot(
        groups,
        x="y",
        method="dp",
        binrange=(0, 100),
        bins=10,
        mechanism="gaussian",
        delta=1e-6,
        epsilon=0.5,
        ax=a1,
    )
    safeplot.countplot(
        groups,
        x="g",
        order=["a", "b", "c"],
        method="dp",
        mechanism="gaussian",
        delta=2e-6,
        epsilon=0.5,
        ax=a2,
    )
    sigma = dpnum.gaussian_scale(0.5, 1e-6)
    assert a1.safeplot_report.details["noise_sd"] == pytest.approx(sigma, abs=1e-3)
    assert a2.safeplot_report.params == {"epsilon": 0.5, "mechanism": "gaussian", "delta": 2e-6}
    assert ledger.current().epsilon_spent() == pytest.approx(1.0)
    assert ledger.current().delta_spent() == pytest.approx(3e-6)
    with pytest.raises(ValueError, match="method='dp'"):
        safeplot.countplot(groups, x="g", mechanism="gaussian", delta=1e-6)
    with pytest.raises(ValueError, match="needs delta="):
        safeplot.histplot(groups, x="y", method="dp", binrange=(0, 100), mechanism="gaussian")
    assert ledger.current().epsilon_spent() == pytest.approx(1.0)


def test_the_audit_summary_gives_the_delta_spent(groups):
    release_barplot(
        groups,
        x="g",
        y="y",
        order=["a"],
        method="dp",
        bounds=(0, 100),
        mechanism="gaussian",
        delta=1e-6,
    )
    text = str(safeplot.audit.summary())
    assert "delta 1e-06 spent of dp_delta_budget=1e-05" in text
