"""O'Keefe's confidential scatter: parallel box plots and the lowess trend (numbers only)."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from statsmodels.nonparametric.smoothers_lowess import lowess

import safeplot
from safeplot import DisclosureError
from safeplot.anonymize.confidential import (
    default_intervals,
    interval_edges,
    lowess_trend,
    parallel_boxes,
)
from safeplot.anonymize.grids import MATCH_RTOL, rare_values


def winsor(v, sd=2.6):
    """Winsorise at mean -/+ sd * SD (ddof=1), computed here with numpy alone."""
    v = np.asarray(v, float)
    m, s = v.mean(), v.std(ddof=1)
    return np.clip(v, m - sd * s, m + sd * s)


def round3(values):
    return np.array([float(f"{v:.3g}") for v in values])


def equals_any(points, values):
    p = np.asarray(points, float).ravel()[:, None]
    v = np.asarray(values, float).ravel()[None, :]
    return bool((np.abs(p - v) <= MATCH_RTOL * np.maximum(abs(p), abs(v))).any())


def five_intervals(seed=5):
    """Records in [0, 100): 20, 15, 20, 25, 20 per interval of width 20; interval 2 has ties."""
    rng = np.random.default_rng(seed)
    parts = [
        (0.5, 19.5, 20),
        (20.5, 39.5, 15),
        (40.5, 59.5, 20),
        (60.5, 79.5, 25),
        (80.5, 99.5, 20),
    ]
    x = np.concatenate([rng.uniform(lo, hi, n) for lo, hi, n in parts])
    y = rng.normal(5, 2, 100).round(6)
    return x, y


def outliers(seed=20261121):
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(50, 10, 300), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, 300), 3)
    return np.r_[x, 412.731, -97.113, 255.517], np.r_[y, -88.404, 301.219, 12.5]


# -- intervals -----------------------------------------------------------------------------


def test_default_number_of_intervals():
    assert default_intervals(500, 3) == 10
    assert default_intervals(30, 3) == 5
    assert default_intervals(30, 5) == 3
    assert default_intervals(4, 3) == 1


def test_interval_edges_are_equal_width_on_a_round_grid_beyond_the_data():
    x = np.random.default_rng(1).normal(50, 10, 400)
    edges = interval_edges(x, 8)
    steps = np.diff(edges)
    np.testing.assert_allclose(steps, steps[0])
    assert steps[0] == 10.0  # the nice step at least range / 8
    assert edges[0] < x.min() and edges[-1] > x.max()
    assert len(edges) - 1 <= 9
    # rare values move the grid
    shifted = interval_edges(x, 8, avoid=edges)
    assert not equals_any(shifted, edges)


def test_boxes_are_the_rounded_quartiles_of_winsorised_y_per_interval():
    x, y = five_intervals()
    y[35:47] = y[40]  # not yet flat: spread over intervals 1 and 2
    pb = parallel_boxes(x, y, n_intervals=5)
    np.testing.assert_array_equal(pb.edges, [0, 20, 40, 60, 80, 100])
    yw = winsor(y)
    cell = np.searchsorted(pb.edges, x, side="right") - 1
    for group, box in zip(pb.groups, pb.boxes, strict=True):
        values = winsor(yw[np.isin(cell, group)])
        expected = round3(np.quantile(values, [0, 0.25, 0.5, 0.75, 1]))
        np.testing.assert_allclose(box.stats, expected, rtol=1e-12)
        assert box.n == np.isin(cell, group).sum() >= 3
        assert box.fliers.size == 0


def test_a_box_with_a_zero_length_half_is_merged_with_its_smaller_neighbour():
    x, y = five_intervals()
    y[35:47] = 5.0  # 12 of the 20 records of interval 2: its median equals a quartile
    pb = parallel_boxes(x, y, n_intervals=5)
    # interval 2's neighbours hold 15 (left) and 25 (right) records: it joins the left one;
    # the box is drawn over interval 2, which holds more of its records (20 against 15)
    assert pb.groups == ((0,), (1, 2), (3,), (4,))
    np.testing.assert_array_equal(pb.slots, [0, 2, 3, 4])
    assert pb.dropped == (1,)
    assert pb.merged == ((1, 2),)
    # the merged box summarises both intervals, and is drawn over one interval's width
    sel = (x >= 20) & (x < 60)
    expected = round3(np.quantile(winsor(winsor(y)[sel]), [0, 0.25, 0.5, 0.75, 1]))
    np.testing.assert_allclose(pb.boxes[1].stats, expected, rtol=1e-12)
    assert pb.boxes[1].q1 < pb.boxes[1].med < pb.boxes[1].q3
    np.testing.assert_array_equal(pb.centres, [10, 50, 70, 90])
    assert pb.width == 20
    assert pb.describe_merges() == ["two adjacent x intervals are one box, drawn over the second"]
    # no remaining box has a zero-length half
    assert all(b.q1 < b.med < b.q3 for b in pb.boxes)


def test_intervals_with_too_few_records_are_merged_first():
    x, y = five_intervals()
    x = np.r_[x[x >= 20], 5.0, 12.0]  # interval 0 keeps two records
    y = np.r_[y[-x.size + 2 :], 4.1, 6.3]
    pb = parallel_boxes(x, y, n_intervals=5)
    assert pb.groups[0] == (0, 1)
    assert pb.slots[0] == 1 and pb.dropped[0] == 0  # drawn where most of its records are
    assert all(b.n >= 3 for b in pb.boxes)


def test_whiskers_sit_at_the_winsorised_range_and_never_on_an_outlier():
    x, y = outliers()
    pb = parallel_boxes(x, y)
    stats = np.concatenate([b.stats for b in pb.boxes])
    assert not equals_any(stats, rare_values(y, 3))
    assert not equals_any(pb.edges, rare_values(x, 3))
    yw = winsor(y)
    assert stats.max() <= float(f"{yw.max():.3g}") + 1e-9
    assert stats.min() >= float(f"{yw.min():.3g}") - 1e-9
    assert pb.n_winsorized > 0
    # the outer edges lie beyond the winsorised x, not at the raw outliers
    xw = winsor(x)
    assert pb.edges[0] < xw.min() and pb.edges[-1] > xw.max()
    assert pb.edges[-1] < 412.731 and pb.edges[0] > -97.113


def test_heavy_ties_merge_until_no_box_is_flat_or_one_box_is_left():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 12, 400).astype(float)
    y = rng.integers(0, 3, 400).astype(float)  # three values: most boxes are flat
    pb = parallel_boxes(x, y)
    flat = [b.med in (b.q1, b.q3) for b in pb.boxes]
    assert not any(flat) or len(pb.boxes) == 1
    if any(flat):
        assert pb.warnings
    # the groups are contiguous and cover every interval once
    covered = [i for g in pb.groups for i in g]
    assert covered == list(range(len(pb.edges) - 1))


def test_shared_edges_are_used_as_given():
    x, y = five_intervals()
    pb = parallel_boxes(x, y, edges=[-25, 0, 25, 50, 75, 100, 125])
    assert pb.width == 25
    with pytest.raises(ValueError, match="cover"):
        parallel_boxes(x, y, edges=[20, 40, 60])
    with pytest.raises(ValueError, match="equally spaced"):
        parallel_boxes(x, y, edges=[0, 10, 100])


def test_parallel_boxes_refuse_too_little_data_and_looser_settings():
    x, y = five_intervals()
    with pytest.raises(DisclosureError, match="at least threshold"):
        parallel_boxes(x[:2], y[:2])
    with pytest.raises(DisclosureError, match="threshold=3"):
        parallel_boxes(x, y, threshold=2)
    with pytest.raises(DisclosureError, match="sig_figs"):
        parallel_boxes(x, y, sig=5)
    with pytest.raises(DisclosureError, match="winsor_sd"):
        parallel_boxes(x, y, winsor_sd=4.0)
    with pytest.raises(DisclosureError, match="constant"):
        parallel_boxes(np.ones(50), y[:50])
    with pytest.raises(ValueError, match="same length"):
        parallel_boxes(x, y[:10])
    with pytest.raises(ValueError, match="NaN or infinite"):
        parallel_boxes(np.r_[x[:-1], np.inf], y)


def test_threshold_raises_the_records_per_box():
    x, y = outliers()
    pb = parallel_boxes(x, y, threshold=40)
    assert all(b.n >= 40 for b in pb.boxes)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(8, 150),
    seed=st.integers(0, 2**16),
    decimals=st.sampled_from([0, 1, 3]),
    threshold=st.integers(3, 6),
)
def test_parallel_boxes_invariants(n, seed, decimals, threshold):
    rng = np.random.default_rng(seed)
    x = np.round(rng.gamma(2, 10, n), decimals)
    y = np.round(rng.normal(0, 3, n) + 0.1 * x, decimals)
    assume(np.ptp(x) > 0)  # n >= 8 records, more than any threshold drawn
    with safeplot.policy(threshold=threshold):
        pb = parallel_boxes(x, y)
    assert all(b.n >= threshold for b in pb.boxes)
    assert sum(b.n for b in pb.boxes) == n
    covered = [i for g in pb.groups for i in g]
    assert covered == list(range(len(pb.edges) - 1))
    assert not equals_any(np.concatenate([b.stats for b in pb.boxes]), rare_values(y, threshold))
    assert not equals_any(pb.edges, rare_values(x, threshold))
    assert not equals_any(pb.centres, rare_values(x, threshold))


# -- lowess trend --------------------------------------------------------------------------


def test_lowess_is_statsmodels_on_winsorised_data_at_a_round_grid():
    x, y = outliers()
    xs, ys = lowess_trend(x, y)
    xw, yw = winsor(x), winsor(y)
    # points of a regular grid of round numbers (one per run of equal rounded values)
    steps = np.diff(xs)
    unit = steps.min()
    np.testing.assert_allclose(steps / unit, np.round(steps / unit), atol=1e-6)
    assert xw.min() <= xs[0] and xs[-1] <= xw.max()
    assert xs[0] - xw.min() < unit and xw.max() - xs[-1] < unit
    assert (np.diff(ys[1:-1]) != 0).all()  # no run of equal values: no staircase
    fit = lowess(yw, xw, frac=2 / 3, it=3, xvals=xs)
    inner = slice(1, -1)
    # the inner vertices are rounded to 3 figures of the y range: a step of 0.1 here
    step = 10.0 ** (np.floor(np.log10(np.ptp(yw))) - 2)
    assert step == 0.1
    np.testing.assert_allclose(ys[inner], fit[inner], atol=step / 2 + 1e-12)
    np.testing.assert_allclose(ys[inner] / step, np.round(ys[inner] / step), atol=1e-9)
    np.testing.assert_array_equal(ys[[0, -1]], round3(fit[[0, -1]]))


def test_lowess_end_points_lie_inside_the_winsorised_range_and_are_no_data_value():
    rng = np.random.default_rng(11)
    x = rng.uniform(0, 10, 120)
    y = np.r_[rng.normal(0, 1, 118), 40.0, -35.0]  # the fit is pulled towards the ends
    x[-2:] = [9.99, 0.01]
    xs, ys = lowess_trend(x, y, frac=0.2, it=0)
    xw, yw = winsor(x), winsor(y)
    for v in (xs[0], xs[-1]):
        assert xw.min() <= v <= xw.max()
        assert not equals_any([v], x)
    for v in (ys[0], ys[-1]):
        assert yw.min() <= v <= yw.max()
        assert not equals_any([v], y)
        assert v == float(f"{v:.3g}")  # rounded to 3 significant figures
    assert not equals_any(xs, x) and not equals_any(ys, y)


def test_lowess_clips_to_the_rounded_winsorised_range():
    x = np.arange(60.0)
    y = np.where(x > 55, 100.0, 0.0) + np.random.default_rng(0).normal(0, 0.1, 60)
    xs, ys = lowess_trend(x, y, frac=0.1, it=0)
    yw = winsor(y)
    assert ys.max() <= yw.max() and ys.min() >= yw.min()


def test_lowess_for_large_data_interpolates_a_delta_fit():
    rng = np.random.default_rng(2)
    x = rng.uniform(0, 1, 6000)
    y = np.sin(3 * x) + rng.normal(0, 0.1, 6000)
    xs, ys = lowess_trend(x, y, frac=0.1)
    exact = lowess(winsor(y), winsor(x), frac=0.1, it=3, xvals=xs)
    # within the delta fit's error and half the rounding step (0.01: 3 figures of the range)
    np.testing.assert_allclose(ys[1:-1], exact[1:-1], atol=2e-3 + 0.005)
    np.testing.assert_allclose(ys[1:-1], np.sin(3 * xs[1:-1]), atol=0.03)


@pytest.mark.parametrize(
    ("kind", "frac", "it"),
    [("linear", 2 / 3, 3), ("wave", 0.2, 3), ("heavy tails", 2 / 3, 3), ("rounded", 0.5, 0)],
)
def test_binned_lowess_agrees_with_the_exact_fit(kind, frac, it):
    from safeplot.anonymize.confidential import _binned_lowess

    rng = np.random.default_rng(5)
    x = rng.normal(10, 0.5, 4000)
    y = {
        "linear": x + rng.normal(0, 1, x.size),
        "wave": np.sin(4 * x) + 0.3 * rng.standard_t(3, x.size),
        "heavy tails": 2 * x + 0.2 * rng.standard_cauchy(x.size),
        "rounded": np.round(x**2 / 10 + rng.normal(0, 1, x.size), 1),
    }[kind]
    if kind == "rounded":
        x = np.round(x, 1)
    xs = np.linspace(x.min() + 0.05, x.max() - 0.05, 40)
    exact = lowess(y, x, frac=frac, it=it, delta=0.0, xvals=xs)
    binned = _binned_lowess(x, y, xs, frac, it, 2048)
    # far below the third significant figure the trend line is released to
    assert np.abs(binned - exact).max() < 5e-4 * np.ptp(exact)
    # the robustness weights matter: without them the heavy tails pull the fit away
    if kind == "heavy tails":
        plain = _binned_lowess(x, y, xs, frac, 0, 2048)
        assert np.abs(plain - exact).max() > 10 * np.abs(binned - exact).max()


def test_lowess_for_very_large_data_is_binned(monkeypatch):
    import safeplot.anonymize.confidential as conf

    rng = np.random.default_rng(6)
    x = rng.normal(50, 10, 20_000)
    y = 0.5 * x + rng.normal(0, 5, x.size)
    delta_fit = lowess_trend(x, y)
    monkeypatch.setattr(conf, "LOWESS_BINNED_MIN", 10_000)
    calls = []
    binned = conf._binned_lowess
    monkeypatch.setattr(conf, "_binned_lowess", lambda *a: calls.append(1) or binned(*a))
    xs, ys = lowess_trend(x, y)
    assert calls
    np.testing.assert_array_equal(xs, delta_fit[0])
    np.testing.assert_array_equal(ys[[0, -1]], delta_fit[1][[0, -1]])  # rounded end points
    np.testing.assert_allclose(ys, delta_fit[1], atol=1e-3)


def test_lowess_refuses_bad_input():
    x, y = five_intervals()
    with pytest.raises(ValueError, match="frac"):
        lowess_trend(x, y, frac=0)
    with pytest.raises(ValueError, match="gridsize"):
        lowess_trend(x, y, gridsize=1)
    with pytest.raises(DisclosureError, match="trend line needs"):
        lowess_trend(x[:2], y[:2])
    with pytest.raises(DisclosureError, match="constant"):
        lowess_trend(np.ones(10), y[:10])
