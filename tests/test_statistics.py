"""Tests for winsorising and rounding of statistics (O'Keefe's rules)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from safeplot.anonymize.statistics import WinsorResult, round_sig, safe_quantiles, winsorize
from safeplot.errors import DisclosureError
from safeplot.policy import Policy, policy

POLICY = Policy()

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)


# -- winsorize ---------------------------------------------------------------------------


def test_winsorize_hand_example():
    # mean 3, SD (ddof=1) 4: at 1.5 SD the bounds are -3 and 9.
    w = winsorize([0.0, 0.0, 0.0, 3.0, 5.0, 10.0], sd=1.5, policy=POLICY)
    assert isinstance(w, WinsorResult)
    np.testing.assert_array_equal(w.values, [0.0, 0.0, 0.0, 3.0, 5.0, 9.0])
    assert (w.lower, w.upper, w.n_winsorized, w.sd) == (-3.0, 9.0, 1, 1.5)
    assert isinstance(w.lower, float)


def test_winsorize_both_tails_and_columns():
    # Column 0: mean 3, SD 4 (bounds at 1 SD: -1, 7). Column 1: the same data
    # times -2 plus 1: mean -5, SD 8 (bounds -13, 3).
    col = np.array([0.0, 0.0, 0.0, 3.0, 5.0, 10.0])
    x = np.column_stack([col, 1 - 2 * col])
    w = winsorize(x, sd=1.0, policy=POLICY)
    np.testing.assert_array_equal(w.values[:, 0], [0, 0, 0, 3, 5, 7])
    np.testing.assert_array_equal(w.values[:, 1], [1, 1, 1, -5, -9, -13])
    np.testing.assert_array_equal(w.lower, [-1.0, -13.0])
    np.testing.assert_array_equal(w.upper, [7.0, 3.0])
    assert w.n_winsorized == 2


def test_winsorize_defaults_to_the_policy_sd():
    rng = np.random.default_rng(1)
    x = rng.standard_t(2, size=500)
    w = winsorize(x, policy=POLICY)
    assert w.sd == 2.6
    assert w.upper == pytest.approx(x.mean() + 2.6 * x.std(ddof=1))
    with policy(winsor_sd=2.0):
        assert winsorize(x).sd == 2.0


def test_winsorize_does_not_modify_input():
    x = np.array([0.0, 0.0, 0.0, 3.0, 5.0, 10.0])
    winsorize(x, sd=1.0, policy=POLICY)
    assert x[-1] == 10.0


def test_constant_data_are_left_alone():
    w = winsorize(np.full(5, 2.0), policy=POLICY)
    np.testing.assert_array_equal(w.values, 2.0)
    assert w.n_winsorized == 0


def test_sd_above_the_policy_limit_is_refused():
    x = np.arange(10.0)
    with pytest.raises(DisclosureError, match=r"winsor_sd=2\.6"):
        winsorize(x, sd=3.0, policy=POLICY)
    with pytest.raises(DisclosureError, match=r"winsor_sd=2\.0"):
        winsorize(x, sd=2.6, policy=Policy(winsor_sd=2.0, locked=True))
    with policy(winsor_sd=3.0):  # an unlocked policy may be widened explicitly
        assert winsorize(x, sd=3.0).sd == 3.0
    assert winsorize(x, sd=1.0, policy=POLICY).sd == 1.0  # narrower is always allowed


@pytest.mark.parametrize("sd", [0.0, -1.0, float("nan"), float("inf")])
def test_sd_must_be_positive(sd):
    with pytest.raises(ValueError, match="sd must be a positive finite number"):
        winsorize(np.arange(10.0), sd=sd, policy=POLICY)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([1.0, np.nan, 2.0], "NaN or infinite"),
        ([1.0, -np.inf, 2.0], "NaN or infinite"),
        ([1.0], "at least 2"),
        (np.ones((2, 2, 2)), "1-D .* or 2-D"),
    ],
)
def test_winsorize_bad_values(values, message):
    with pytest.raises(ValueError, match=message):
        winsorize(values, policy=POLICY)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    x=hnp.arrays(
        np.float64,
        st.one_of(
            st.tuples(st.integers(2, 60)),
            st.tuples(st.integers(2, 30), st.integers(1, 4)),
        ),
        elements=finite,
    ),
    sd=st.floats(0.1, 2.6),
)
def test_winsorize_properties(x, sd):
    w = winsorize(x, sd=sd, policy=POLICY)
    assert w.values.shape == x.shape
    lower, upper = np.asarray(w.lower), np.asarray(w.upper)
    assert np.all(lower <= upper)
    assert np.all((w.values >= lower) & (w.values <= upper))
    inside = (x >= lower) & (x <= upper)
    np.testing.assert_array_equal(w.values[inside], x[inside])
    assert np.all(
        w.values[~inside] == np.broadcast_to(np.where(x < lower, lower, upper), x.shape)[~inside]
    )
    assert w.n_winsorized == int((~inside).sum()) == int((w.values != x).sum())
    np.testing.assert_allclose(lower, x.mean(axis=0) - sd * x.std(axis=0, ddof=1))


# -- round_sig ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "sig", "expected"),
    [
        (123456, 3, 123000.0),
        (123556, 3, 124000.0),
        (0.0012345, 3, 0.00123),
        (-123456.0, 3, -123000.0),
        (-0.0012355, 2, -0.0012),
        (999.7, 3, 1000.0),
        (9.96, 2, 10.0),
        (1.0, 3, 1.0),
        (1000.0, 1, 1000.0),
        (0.1 + 0.2, 3, 0.3),
        (2.718281828, 1, 3.0),
        (6.02214076e23, 4, 6.022e23),
        (1.602176634e-19, 3, 1.6e-19),
        (0.0, 3, 0.0),
        (1.2345e20, 2, 1.2e20),
        (-1.2345e-20, 3, -1.23e-20),
        (5e-324, 1, 5e-324),
    ],
)
def test_round_sig_examples(x, sig, expected):
    result = round_sig(x, sig)
    assert isinstance(result, float)
    assert result == expected


def test_round_sig_special_values():
    assert math.isnan(round_sig(float("nan"), 3))
    assert round_sig(float("inf"), 3) == float("inf")
    assert round_sig(-float("inf"), 3) == -float("inf")
    assert math.copysign(1.0, round_sig(-0.0, 3)) == -1.0


def test_round_sig_arrays():
    x = np.array([[123456.0, -0.0012345], [0.0, np.nan]])
    result = round_sig(x, 3)
    assert isinstance(result, np.ndarray)
    assert result.shape == (2, 2)
    np.testing.assert_array_equal(result, [[123000.0, -0.00123], [0.0, np.nan]])
    np.testing.assert_array_equal(round_sig([1234, 5678], 2), [1200.0, 5700.0])
    assert isinstance(round_sig(np.float32(1.5), 3), float)
    assert isinstance(round_sig(np.array(1234.0), 2), float)
    assert round_sig(np.array([]), 3).shape == (0,)


def test_round_sig_defaults_to_the_policy():
    assert round_sig(123456, policy=Policy(sig_figs=2)) == 120000.0
    with policy(sig_figs=1):
        assert round_sig(123456) == 100000.0


def test_round_sig_does_not_modify_input():
    x = np.array([1.23456, 2.34567])
    round_sig(x, 2)
    np.testing.assert_array_equal(x, [1.23456, 2.34567])


@pytest.mark.parametrize("sig", [0, -1])
def test_round_sig_needs_one_figure(sig):
    with pytest.raises(ValueError, match="at least 1 significant figure"):
        round_sig(1.0, sig)


@pytest.mark.parametrize("sig", [1.5, "3", True])
def test_round_sig_needs_an_integer(sig):
    with pytest.raises(TypeError, match="sig must be an integer"):
        round_sig(1.0, sig)


def test_round_sig_many_figures_is_identity():
    x = np.array([np.pi, -1e-300, 1.2345678901234567e200])
    np.testing.assert_array_equal(round_sig(x, 17), x)
    np.testing.assert_array_equal(round_sig(x, 25), x)


def test_round_sig_refuses_text():
    with pytest.raises(TypeError, match="numeric"):
        round_sig(["a"], 3)


def _has_sig_digits(r: float, sig: int) -> bool:
    """Whether `r` is the float nearest to some decimal with `sig` significant figures."""
    return float(f"{r:.{sig - 1}e}") == r


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(
    x=st.one_of(
        st.floats(1e-15, 1e15),
        st.floats(-1e15, -1e-15),
        st.floats(-1e6, 1e6).filter(lambda v: v == 0 or abs(v) >= 1e-15),
        st.sampled_from([0.0, -0.0, 0.5, 1.5, 2.5, 0.125, 9.995, 0.1 + 0.2]),
    ),
    sig=st.integers(1, 7),
)
def test_round_sig_properties(x, sig):
    r = round_sig(x, sig)
    if x == 0:
        assert r == 0
        return
    assert _has_sig_digits(r, sig)
    assert abs(r - x) <= 0.5 * 10.0 ** (1 - sig) * abs(x) * (1 + 1e-12)
    # Agrees with correctly rounded decimal formatting except at exact-looking ties.
    exact = float(f"{x:.{sig - 1}e}")
    if r != exact:
        assert abs(abs(r - x) - abs(exact - x)) <= 1e-14 * abs(x)


@settings(max_examples=300, deadline=None)
@given(
    x=st.one_of(st.floats(1e-300, 1e300), st.floats(-1e300, -1e-300)),
    sig=st.integers(1, 15),
)
def test_round_sig_relative_error_at_any_magnitude(x, sig):
    r = round_sig(x, sig)
    assert math.isfinite(r)
    assert abs(r - x) <= 0.5 * 10.0 ** (1 - sig) * abs(x) * (1 + 1e-12)
    assert r == pytest.approx(float(f"{r:.{sig - 1}e}"), rel=1e-15)


@settings(max_examples=100, deadline=None)
@given(
    x=hnp.arrays(
        np.float64,
        hnp.array_shapes(max_dims=3, max_side=6),
        elements=st.one_of(st.floats(-1e12, 1e12), st.just(np.nan)),
    ),
    sig=st.integers(1, 6),
)
def test_round_sig_vectorised_matches_scalar(x, sig):
    result = round_sig(x, sig)
    assert result.shape == x.shape
    expected = np.array([round_sig(v, sig) for v in x.ravel()]).reshape(x.shape)
    np.testing.assert_array_equal(result, expected)


# -- safe_quantiles ----------------------------------------------------------------------


def test_safe_quantiles_hand_example():
    x = [1.25, 2.5, 3.75, 5.0, 6.25, 7.5]
    # np.quantile: 2.8125, 4.375, 5.9375
    np.testing.assert_array_equal(
        safe_quantiles(x, [0.25, 0.5, 0.75], sig=2, policy=POLICY), [2.8, 4.4, 5.9]
    )
    np.testing.assert_array_equal(
        safe_quantiles(x, [0.25, 0.5, 0.75], policy=POLICY), [2.81, 4.38, 5.94]
    )


@settings(max_examples=100, deadline=None)
@given(
    x=hnp.arrays(
        np.float64,
        st.one_of(
            st.tuples(st.integers(3, 50)),
            st.tuples(st.integers(3, 20), st.integers(1, 3)),
        ),
        elements=finite,
    ),
    probs=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5),
    sig=st.integers(1, 3),
)
def test_safe_quantiles_is_rounded_quantile(x, probs, sig):
    result = safe_quantiles(x, probs, sig=sig, policy=POLICY)
    expected = round_sig(np.quantile(x, probs, axis=0), sig)
    assert isinstance(result, np.ndarray)
    np.testing.assert_array_equal(result, expected)


def test_safe_quantiles_scalar_probability():
    result = safe_quantiles(np.arange(10.0), 0.5, policy=POLICY)
    assert isinstance(result, np.ndarray)
    assert result.shape == ()
    assert result == 4.5


def test_safe_quantiles_needs_threshold_records():
    with pytest.raises(DisclosureError, match="threshold=3"):
        safe_quantiles([1.0, 2.0], [0.5], policy=POLICY)
    with pytest.raises(DisclosureError, match="threshold=10"):
        safe_quantiles(np.arange(9.0), [0.5], policy=Policy(threshold=10))


def test_safe_quantiles_sig_limited_by_policy():
    with pytest.raises(DisclosureError, match="sig_figs=3"):
        safe_quantiles(np.arange(10.0), [0.5], sig=4, policy=POLICY)


@pytest.mark.parametrize("probs", [[-0.1], [1.5], [np.nan], [0.5, 2.0]])
def test_safe_quantiles_probs_in_unit_interval(probs):
    with pytest.raises(ValueError, match=r"probs must lie in \[0, 1\]"):
        safe_quantiles(np.arange(10.0), probs, policy=POLICY)


def test_safe_quantiles_bad_values():
    with pytest.raises(ValueError, match="NaN or infinite"):
        safe_quantiles([1.0, np.nan, 3.0, 4.0], [0.5], policy=POLICY)
