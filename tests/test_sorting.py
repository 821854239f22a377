"""stable_sort: numpy's stable order of records, from its default sort."""

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
