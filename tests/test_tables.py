"""Primary and secondary cell suppression of frequency tables (safeplot.anonymize.tables)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from safeplot.anonymize.tables import lines_with_one_suppressed, suppress_table


def shown_with(out, fill=-1.0):
    return np.where(np.isnan(out.counts), fill, out.counts)


def test_primary_and_secondary_on_a_worked_example():
    # (0, 0) is small. Row 0: its smallest non-zero shown cell is 7 at (0, 2).
    # Column 0: smallest shown is 5 at (1, 0). Column 2 now holds only (0, 2): its
    # smallest shown is 9 at (1, 2). Row 1 then holds two: stable.
    out = suppress_table([[2, 10, 7], [5, 20, 9], [8, 6, 30]], threshold=3)
    np.testing.assert_array_equal(
        out.primary, [[True, False, False], [False, False, False], [False, False, False]]
    )
    np.testing.assert_array_equal(
        out.secondary, [[False, False, True], [True, False, True], [False, False, False]]
    )
    np.testing.assert_array_equal(shown_with(out), [[-1, 10, -1], [-1, 20, -1], [8, 6, 30]])
    assert (out.n_primary, out.n_secondary, out.n_suppressed) == (1, 3, 4)
    assert out.protected
    assert out.warnings == []


def test_ties_go_to_the_first_cell_by_position():
    out = suppress_table([[1, 5, 5], [5, 5, 5]], threshold=3)
    np.testing.assert_array_equal(out.suppressed, [[True, True, False], [True, True, False]])
    np.testing.assert_array_equal(shown_with(out)[:, 2], [5, 5])


def test_a_line_with_only_zeros_left_suppresses_a_zero_and_says_so():
    out = suppress_table([[2, 0, 0], [0, 5, 5], [0, 5, 5]], threshold=3)
    np.testing.assert_array_equal(shown_with(out), [[-1, -1, 0], [-1, -1, 5], [0, 5, 5]])
    assert out.protected
    assert any("zeros" in w for w in out.warnings)


def test_lines_of_one_cell_need_no_partner():
    column = suppress_table([[1], [5], [6]], threshold=3)
    np.testing.assert_array_equal(shown_with(column).ravel(), [-1, -1, 6])
    row = suppress_table([[1, 0, 4, 9]], threshold=3)
    np.testing.assert_array_equal(shown_with(row).ravel(), [-1, 0, -1, 9])
    single = suppress_table([[2]], threshold=3)
    assert single.n_suppressed == 1 and single.protected


def test_totals_as_an_extra_row_and_column_are_protected_and_suppressed_when_small():
    interior = np.array([[2, 0], [0, 9]])
    table = np.block([[interior, interior.sum(1)[:, None]], [interior.sum(0), interior.sum()]])
    out = suppress_table(table, threshold=3)
    # the row total 2 and the column total 2 are small themselves
    np.testing.assert_array_equal(out.primary, [[1, 0, 1], [0, 0, 0], [1, 0, 0]])
    assert out.protected
    shown = out.counts[~np.isnan(out.counts)]
    assert not ((shown > 0) & (shown < 3)).any()


def test_without_secondary_only_small_cells_go_and_a_warning_says_it_is_unprotected():
    out = suppress_table([[2, 10, 7], [5, 20, 9]], threshold=3, secondary=False)
    assert out.n_secondary == 0 and out.n_primary == 1
    assert not out.protected
    assert any("recovered" in w for w in out.warnings)


def test_nothing_small_nothing_suppressed():
    out = suppress_table([[0, 3], [4, 0]], threshold=3)
    assert out.n_suppressed == 0
    np.testing.assert_array_equal(out.counts, [[0, 3], [4, 0]])


def test_everything_suppressed_is_reported():
    out = suppress_table([[1, 4], [4, 9]], threshold=3)
    assert out.suppressed.all()
    assert any("shows nothing" in w for w in out.warnings)


def test_lines_with_one_suppressed():
    rows, cols = lines_with_one_suppressed([[True, True], [False, True]])
    assert rows.tolist() == [1] and cols.tolist() == [0]


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([1, 2, 3], "2-D"),
        (np.zeros((2, 2, 2)), "2-D"),
        (np.zeros((0, 3)), "empty"),
        ([[1, -1]], "non-negative"),
        ([[1, np.nan]], "non-negative"),
        ([[1, np.inf]], "non-negative"),
    ],
)
def test_bad_tables_are_refused(counts, message):
    with pytest.raises(ValueError, match=message):
        suppress_table(counts, 3)


def test_bad_threshold_and_text_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        suppress_table([[1, 2]], 0)
    with pytest.raises(TypeError, match="integer"):
        suppress_table([[1, 2]], 2.5)
    with pytest.raises(TypeError, match="numbers"):
        suppress_table([["a", "b"]], 3)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    counts=arrays(
        np.int64, st.tuples(st.integers(1, 7), st.integers(1, 7)), elements=st.integers(0, 12)
    ),
    threshold=st.integers(1, 6),
)
def test_no_suppressed_cell_is_alone_in_its_row_or_column(counts, threshold):
    out = suppress_table(counts, threshold)
    hidden = np.isnan(out.counts)
    np.testing.assert_array_equal(hidden, out.suppressed)
    # primary suppression is exactly the small cells
    np.testing.assert_array_equal(out.primary, (counts > 0) & (counts < threshold))
    assert not (out.primary & out.secondary).any()
    # no shown count lies in (0, threshold), and shown cells are unchanged
    shown = out.counts[~hidden]
    assert not ((shown > 0) & (shown < threshold)).any()
    np.testing.assert_array_equal(shown, counts[~hidden])
    # recovery from one row or column equation: a line of two or more cells with
    # exactly one hidden cell would give it back as total - shown
    r, c = counts.shape
    if c > 1:
        assert not (hidden.sum(axis=1) == 1).any()
    if r > 1:
        assert not (hidden.sum(axis=0) == 1).any()
    assert out.protected
    # secondary cells are shown-sized (>= threshold) unless a zero had to be used
    if not any("zeros" in w for w in out.warnings):
        assert (counts[out.secondary] >= threshold).all()


def test_hidden_cells_take_part_in_the_secondary_rule():
    # column 2 holds records never shown (a missing hue); row 0 hides 2 of them, so its
    # smallest shown cell is hidden too: the row's total minus its shown cells is 2 + 6
    hidden = np.zeros((3, 3), dtype=bool)
    hidden[:, 2] = True
    out = suppress_table([[8, 6, 2], [6, 9, 0], [10, 7, 0]], threshold=3, hidden=hidden)
    assert np.isnan(out.counts[:, 2]).all()
    assert np.isnan(out.counts[0, 1])
    assert (out.n_primary, out.hidden.sum()) == (0, 1)  # the hidden zeros hide nothing
    assert out.protected
    for i, total in enumerate([16, 15, 17]):
        rest = total - np.nansum(out.counts[i])
        assert rest == 0 or rest >= 3


def test_a_line_hiding_a_small_sum_hides_one_more_cell():
    # row 0 hides a primary 1 and a hidden 1: two suppressed cells, but 2 records in all
    hidden = np.zeros((2, 3), dtype=bool)
    hidden[:, 2] = True
    out = suppress_table([[8, 1, 1], [6, 6, 0]], threshold=3, hidden=hidden)
    assert np.isnan(out.counts[0]).all()  # the 8 is hidden with them: 10 in all
    assert out.protected
    # the plain rule stops at two suppressed cells in the row, whose sum is then 2
    plain = suppress_table([[8, 1, 1], [6, 6, 0]], threshold=3)
    assert plain.counts[0, 0] == 8


def test_hidden_must_have_the_tables_shape():
    with pytest.raises(ValueError, match="hidden must have the table's shape"):
        suppress_table([[5, 5]], threshold=3, hidden=[[True]])
