"""Senavirathne & Torra (2019), Table 3: univariate MDAV on normal data, IL1s and IDR.

The set-up of their section 4: two independent standard normal variables of
500 records each (R's ``rnorm``), each variable microaggregated on its own by
MDAV with k in {167, 100, 50, 34, 25, 20} (about 3 .. 25 groups), then IL1s
and IDR measured between the original and the masked data.

Scale. IL1s is the *sum* of |x - x'| / (sqrt(2) s) over the 1,000 values (the
tables are sums although the printed formula has 1/(mn)); IDR is the share of
the 1,000 values whose original lies within 0.05 SD of its masked value
(sdcMicro's ``dRisk`` interval, counted per value).

Tolerance. The paper reports one simulated data set; we simulate 50 and ask
that the published number lies within 3 SD of the replicates' mean (the
spread of a single data set), plus half a unit of the last printed digit.
Two IL1s entries fall outside that band and are marked as known differences
(strict xfail, so a change that makes them pass is noticed): at k=167 the
published MDAV value is about 9 SD above the simulation, and the paper's
optimal-microaggregation value at k=167 (377.93) is likewise about 7 SD above
the exact optimum of the same set-up, so the difference lies in that row of
the paper, not in MDAV; at k=34 the published MDAV value is about 4 SD above
(the paper's optimal value at k=34, 67.72, matches our MDAV and optimum).

No reading of the definitions explains those two entries (simulated means of
the 50 data sets, paper in brackets):

* the printed denominator sqrt(2s) instead of sdcMicro's sqrt(2) s: 359.2 at
  k=167 and 66.5 at k=34 (404.89, 75.21): s is about 1 for these data;
* the masked data's SD in the denominator: 464.6 and 67.3;
* one multivariate MDAV partition of whole records instead of each variable
  on its own: 465 at k=167 but 155 at k=20 (42.73), far off elsewhere;
* MDAV's groups at k=167 are 167 and 333 records (n=500 < 3k); three groups
  give 247, and the two groups either way round 358 and 360.

DDR is not tested. As the paper defines it (each masked record linked to its
nearest original record, a fraction of the records), MDAV gives 0.62, 0.51,
0.32, 0.19, 0.05, 0.008 at k = 20, 25, 34, 50, 100, 167, about twice the
published 0.33, 0.25, 0.15, 0.08, 0.02, 0.00. Counting the correct links per
value (over N P = 1,000, as IDR counts) gives 0.309, 0.255, 0.162, 0.094,
0.025, 0.004: closer, but 7 SD from the paper at k=50 and about 3 SD at
k=20 and 34, so that is not the paper's scale either; standardising each
data set by its own SD, or not at all, changes DDR by less than 0.003.
"""

from __future__ import annotations

import numpy as np
import pytest

from safeplot.anonymize.microaggregation import mdav
from safeplot.metrics import il1s, interval_disclosure_risk
from safeplot.policy import Policy

#: Table 3, "MDAV normal": k -> (IL metrics, IL1s, IDR, DDR).
TABLE3_MDAV = {
    167: (35.85, 404.89, 0.05, 0.00),
    100: (44.73, 169.16, 0.12, 0.02),
    50: (6.28, 91.08, 0.31, 0.08),
    34: (8.44, 75.21, 0.41, 0.15),
    25: (5.31, 52.61, 0.54, 0.25),
    20: (3.24, 42.73, 0.68, 0.33),
}
REPLICATES = 50
N_SD = 3.0


@pytest.fixture(scope="module")
def simulated() -> dict[int, np.ndarray]:
    """IL1s and IDR of each k over the replicate data sets: k -> array (replicates, 2)."""
    rng = np.random.default_rng(2019)
    data = [rng.normal(0.0, 1.0, size=(500, 2)) for _ in range(REPLICATES)]
    policy = Policy()  # k_min 3: every k of the table is allowed
    out = {}
    for k in TABLE3_MDAV:
        rows = []
        for x in data:
            masked = mdav(x, k, policy=policy).values  # each variable on its own
            rows.append((il1s(x, masked), interval_disclosure_risk(x, masked)))
        out[k] = np.array(rows)
    return out


def _within(published: float, draws: np.ndarray, digits: int) -> tuple[bool, str]:
    mean, sd = float(draws.mean()), float(draws.std(ddof=1))
    band = N_SD * sd + 0.5 * 10.0**-digits
    return abs(published - mean) <= band, f"paper {published}, simulated {mean:.3f} +- {sd:.3f}"


def _known(k: int, reason: str) -> object:
    return pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=reason))


@pytest.mark.parametrize(
    "k",
    [
        _known(167, "published IL1s 9 SD above the set-up's (OMA's too), unexplained"),
        100,
        50,
        _known(34, "published IL1s 4 SD above the set-up's, unexplained"),
        25,
        20,
    ],
)
def test_table3_mdav_il1s(simulated, k):
    ok, msg = _within(TABLE3_MDAV[k][1], simulated[k][:, 0], digits=2)
    assert ok, msg


@pytest.mark.parametrize("k", sorted(TABLE3_MDAV, reverse=True))
def test_table3_mdav_idr(simulated, k):
    ok, msg = _within(TABLE3_MDAV[k][2], simulated[k][:, 1], digits=2)
    assert ok, msg


def test_table3_directions(simulated):
    """As the paper says: larger k, more information loss and less disclosure risk."""
    ks = sorted(TABLE3_MDAV, reverse=True)
    il = [simulated[k][:, 0].mean() for k in ks]
    idr = [simulated[k][:, 1].mean() for k in ks]
    assert np.all(np.diff(il) < 0) and np.all(np.diff(idr) > 0)


def test_idr_counts_values_not_records():
    """A per-record count (any variable inside, sdcMicro's dRisk) is far from the table."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(500, 2))
    y = mdav(x, 20, policy=Policy()).values
    inside = np.abs(x - y) <= 0.05 * y.std(axis=0, ddof=1)
    per_value, per_record = inside.mean(), inside.any(axis=1).mean()
    assert interval_disclosure_risk(x, y) == pytest.approx(per_value)
    assert abs(per_value - TABLE3_MDAV[20][2]) < 0.05 < abs(per_record - TABLE3_MDAV[20][2])
