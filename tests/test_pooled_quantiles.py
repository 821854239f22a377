"""Pooled quantiles across sites, from the sites' released histograms only.

The servers themselves are exercised in tests/test_server.py; here each
site's release is made in-process by the same ``run_call`` the server runs,
so many random splits can be checked quickly.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from safeplot import ledger
from safeplot.policy import Policy
from safeplot.remote import run_call
from safeplot.remote._federation import count_bounds, quantile_bounds

PROBS = (0.05, 0.25, 0.5, 0.75, 0.95)


def _site_release(frame: pd.DataFrame, args: dict) -> tuple:
    with ledger.using(ledger.Ledger()):
        call = run_call("histplot", frame, args)
    report = call.reports[0]
    bounds = count_bounds(report.n, Policy().round_n_to, report.params["threshold"])
    return call.releases[0], bounds


@pytest.mark.parametrize("policy", [Policy(), Policy(threshold=10, round_n_to=10)])
def test_count_bounds_invert_the_policys_rounding_exactly(policy):
    for n in range(0, 3000):
        rounded = policy.round_count(n)
        lo, hi = count_bounds(rounded, policy.round_n_to, policy.threshold)
        assert lo <= n <= hi, (n, rounded, lo, hi)
        # and they are tight: the counts just outside round differently
        assert lo == 0 or policy.round_count(lo - 1) != rounded
        assert policy.round_count(hi + 1) != rounded


@pytest.mark.parametrize("seed", range(12))
def test_the_pooled_quantile_lies_in_its_bounds_for_random_splits(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 900))
    values = np.round(rng.gamma(2.0 + seed % 3, 8.0, n), 1)
    whole = pd.DataFrame({"v": values})
    parts = 2 + seed % 3
    cuts = np.round(n * (np.arange(1, parts) + rng.uniform(-0.3, 0.3, parts - 1)) / parts)
    cuts = cuts.astype(int)
    shuffled = whole.sample(frac=1.0, random_state=seed)
    bounds = [0, *cuts.tolist(), n]
    sites = [shuffled.iloc[a:b] for a, b in itertools.pairwise(bounds)]
    args = {"x": "v", "binwidth": 5.0, "binrange": [0.0, 300.0]}
    released = [_site_release(site, args) for site in sites]
    table = quantile_bounds([r for r, _ in released], [b for _, b in released], PROBS)
    truth = np.quantile(values, PROBS, method="inverted_cdf")
    for p, t in zip(PROBS, truth, strict=True):
        low, estimate, high = table.loc[p]
        assert low <= t <= high, (p, t, low, high)
        assert low <= estimate <= high
    # the intervals are as narrow as the bins where the sites hid little
    mid = table.loc[0.5]
    assert mid["high"] - mid["low"] <= 3 * 5.0


def test_records_beyond_the_grids_widen_the_bounds_to_infinity():
    from safeplot.release import DisclosureReport, HistogramRelease

    edges = np.arange(0.0, 5.0)
    rel = HistogramRelease(
        edges, np.array([3.0, np.nan, 40.0, 3.0]), (0.0, 4.0), edges, DisclosureReport("h", "s")
    )
    # up to 60 records, 46 shown: 14 could all lie below 0 (or above 4)
    table = quantile_bounds([rel], [(50, 60)], [0.05, 0.5, 0.95])
    assert table.loc[0.05, "low"] == -np.inf
    assert table.loc[0.95, "high"] == np.inf
    assert np.isfinite(table.loc[0.5, ["low", "high"]]).all()


@pytest.mark.parametrize("q", [[0.0], [1.0], [1.5], [-0.1], [np.nan], []])
def test_probabilities_outside_zero_one_are_refused(q):
    rel, bounds = _site_release(pd.DataFrame({"v": np.arange(100.0)}), {"x": "v"})
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        quantile_bounds([rel, rel], [bounds, bounds], q)


def test_a_count_that_cannot_hold_the_shown_bins_is_refused():
    rel, _ = _site_release(pd.DataFrame({"v": np.arange(100.0)}), {"x": "v"})
    with pytest.raises(ValueError, match="do not belong together"):
        quantile_bounds([rel], [(10, 12)], [0.5])
