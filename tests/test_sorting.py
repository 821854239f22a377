"""stable_sort: numpy's stable order of records, from a sort of integers."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from safeplot.anonymize import _sorting
from safeplot.anonymize._sorting import stable_sort

few_values = st.sampled_from([-1.5, -0.0, 0.0, 0.25, 1e-300, 3.0, 1e300])
values = arrays(
    np.float64,
    st.integers(0, 400),
    elements=st.one_of(few_values, st.floats(-1e6, 1e6, allow_nan=False)),
)


@settings(max_examples=200, deadline=None)
@given(x=values)
def test_the_order_is_numpys_stable_order(x):
    expected = np.argsort(x, kind="stable")
    order, ordered = stable_sort(x)
    np.testing.assert_array_equal(order, expected)
    assert_same_values(ordered, x[expected])


def assert_same_values(a, b):
    """Equal values with equal signs (-0.0 and 0.0 told apart)."""
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(np.signbit(a), np.signbit(b))


def stable_argsort(x):
    order, ordered = stable_sort(x)
    assert_same_values(ordered, x[order])
    return order


def test_runs_of_equal_values_keep_row_order_whichever_way_is_taken(monkeypatch):
    rng = np.random.default_rng(2)
    x = rng.normal(size=50_000)
    x[rng.integers(0, x.size, 600)] = 0.0  # one long run, with -0.0 among it
    x[rng.integers(0, x.size, 50)] = -0.0
    x[rng.integers(0, x.size, 400)] = np.round(x[rng.integers(0, x.size, 400)], 1)
    expected = np.argsort(x, kind="stable")
    np.testing.assert_array_equal(stable_argsort(x), expected)  # runs put back in order
    monkeypatch.setattr(_sorting, "_TIED_SHARE", 0.0)  # numpy's stable sort instead
    np.testing.assert_array_equal(stable_argsort(x), expected)
    rounded = np.round(x, 0)  # mostly ties: the stable sort's own path
    np.testing.assert_array_equal(stable_argsort(rounded), np.argsort(rounded, kind="stable"))


def test_integers_and_short_arrays():
    x = np.array([3, 1, 3, 2, 1])
    np.testing.assert_array_equal(stable_argsort(x), [1, 4, 3, 0, 2])
    assert stable_argsort(np.array([])).size == 0
    assert stable_argsort(np.array([5.0])).tolist() == [0]


def test_values_closer_than_the_keys_resolution_are_sorted_again():
    # pairs one last bit apart share a key and come out in row order; the later row holds
    # the smaller value, so each pair is inverted until it is sorted again
    rng = np.random.default_rng(5)
    x = rng.normal(size=40_000)
    first, later = np.arange(0, 400), np.arange(20_000, 20_400)
    x[later] = np.nextafter(x[first], -np.inf)
    keys = _sorting._keys(x, centre=float(np.median(x)), row_bits=(x.size - 1).bit_length())
    assert (keys[later] == keys[first]).mean() > 0.9  # the case under test does occur
    np.testing.assert_array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


def test_an_array_of_many_values_that_share_integers_takes_numpys_stable_sort(monkeypatch):
    x = np.random.default_rng(6).normal(size=30_000)
    monkeypatch.setattr(_sorting, "_TIED_SHARE", 0.0)  # any inversion: the fallback
    x[1] = np.nextafter(x[0], -np.inf)  # a later row one last bit below an earlier one
    np.testing.assert_array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


def test_extreme_values():
    big = np.array([2**62 + 3, 2**62 + 1, 2**62 + 3, -(2**62), 2**62 + 2], dtype=np.int64)
    np.testing.assert_array_equal(stable_argsort(big), np.argsort(big, kind="stable"))
    for x in (
        np.array([1.0, np.inf, -np.inf, 0.0, np.inf]),
        np.array([np.inf, np.inf, 1.0, -np.inf, 2.0, np.inf, 0.5, np.inf]),  # median inf
        np.array([-1e308, 1e308, 0.0, 1e308]),  # a range beyond the largest double
        np.full(5, 2.5),
        np.array([5e-324, 0.0, 5e-324, -0.0]),  # a subnormal range
    ):
        np.testing.assert_array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


def test_a_long_run_of_one_integer_with_few_inversions_is_sorted_again_at_once():
    # one integer held by half the values, a few of them one last bit apart: the run is
    # found in one step, not widened a position at a time
    n = 200_000
    x = np.zeros(n)
    x[n // 2 :] = 1e6
    x[n // 2 + np.arange(0, n // 2, n // 40)] = np.nextafter(1e6, 2e6)
    np.testing.assert_array_equal(stable_argsort(x), np.argsort(x, kind="stable"))
