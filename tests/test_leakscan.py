"""The leak scanner reads counts as counts and values as values (tests/leakscan.py).

Each test draws by hand a figure whose numbers are known and shows what the
scanner flags and what it does not: a number is a leak where it stands for a
data value, not where it is a count or a drawing convention.
"""

import matplotlib.pyplot as plt
import numpy as np

from .leakscan import scan_figure

#: x has the rare values 15 and 0 (one record each); y has the rare values 3 and 0
RAW = {
    "x": np.r_[np.repeat([1.0, 2.0], 10), 15.0, 0.0],
    "y": np.r_[np.repeat([1.0, 2.0], 10), 3.0, 0.0],
}


def test_colour_bar_ticks_are_read_on_the_colour_bar_scale():
    """A tick at 15 on a colour bar of counts is a count, not the rare raw value 15;
    on a colour bar of values it is that value (ticks placed by hand, not a locator's)."""
    for counts, flagged in ((True, False), (False, True)):
        fig, ax = plt.subplots()
        mesh = ax.pcolormesh([[4.0, 20.0], [12.0, 8.0]], vmin=0, vmax=20)
        fig.colorbar(mesh, ticks=[0, 6, 15, 19])
        findings = scan_figure(fig, RAW, counts_in_colour=counts)
        colour_bar = [f for f in findings.leaks if "'15'" in f or "15.0" in f]
        assert bool(colour_bar) is flagged, findings.leaks


def test_a_locators_round_ticks_are_not_data_but_moved_or_named_ones_are():
    """Ticks 0, 5, 10, 15, 20 depend on the limits alone (invariant 2): 15 and 0 are rare x
    values but no leak. Ticks moved off a grid (1, 6, 11, 15) are checked, and so are labels
    that say something other than the position (a category named "15")."""
    fig, ax = plt.subplots()
    ax.plot([2.0, 18.0], [1.0, 2.0])
    ax.set_xlim(-1, 21)
    ax.set_xticks([0, 5, 10, 15, 20])
    ax.set_ylim(0.5, 2.5)
    assert not [f for f in scan_figure(fig, RAW).leaks if "tick" in f]
    fig, ax = plt.subplots()
    ax.plot([2.0, 18.0], [1.0, 2.0])
    ax.set_xlim(-1, 21)
    ax.set_xticks([1, 6, 11, 15])
    assert [f for f in scan_figure(fig, RAW).leaks if "xticks" in f]
    fig, ax = plt.subplots()
    ax.plot([0.5, 2.5], [1.0, 2.0])
    ax.set_xticks([1, 2], ["15", "b"])
    assert [f for f in scan_figure(fig, RAW).leaks if "tick label '15'" in f]


def test_a_brief_numeric_legend_is_not_data_but_other_numbers_are():
    """A legend section 0, 5, 10, 15 (or 0, 6, 12, as seaborn's MaxNLocator steps by 6) is a
    locator's round numbers; 3 and 12 (a step of 9) are not."""
    for entries, leak in (
        (("0", "5", "10", "15"), False),
        (("0", "6", "12"), False),
        (("3", "12"), True),
    ):
        fig, ax = plt.subplots()
        ax.scatter([1.0, 2.0], [1.0, 2.0], label="_")
        for text in ("size", *entries):
            ax.plot([], [], label=text)
        ax.legend()
        assert bool(scan_figure(fig, RAW, count_axis=None).leaks) is leak


def test_entries_of_a_count_legend_section_are_counts():
    """Marker sizes titled "count" are counts (3 is no raw y); a count below the threshold
    is flagged as a small count; the same 3 in another section is compared with the data."""
    for title, leak, small in (("count", False, False), ("level", True, False)):
        fig, ax = plt.subplots()
        ax.scatter([1.0, 2.0], [1.0, 2.0], label="_")
        for text in (title, "3", "12"):
            ax.plot([], [], label=text)
        ax.legend()
        findings = scan_figure(fig, RAW, count_axis=None)
        assert bool(findings.leaks) is leak, findings
        assert bool(findings.small_counts) is small, findings
    fig, ax = plt.subplots()
    for text in ("count", "2", "12"):
        ax.plot([], [], label=text)
    ax.legend()
    assert scan_figure(fig, RAW, count_axis=None).small_counts


def test_the_zero_line_of_bars_is_no_data_value_but_their_ends_are():
    """Bars growing from 0 (a rare x and y of the data) do not show 0; a bar ending on the
    rare y 3, or a histogram bin edge on the rare x 0, does."""
    fig, ax = plt.subplots()
    ax.bar([1.0, 2.0], [1.4, 2.2], width=0.5)
    ax.set_xlim(0.25, 2.75)
    ax.set_ylim(0.5, 2.5)
    assert not scan_figure(fig, {"y": RAW["y"]}, count_axis=None)
    fig, ax = plt.subplots()
    ax.bar([1.0, 2.0], [1.4, 3.0], width=0.5)
    ax.set_xlim(0.25, 2.75)
    ax.set_ylim(0.5, 3.5)
    assert scan_figure(fig, {"y": RAW["y"]}, count_axis=None).leaks
    # bins side by side, one of them starting at x = 0: the edge is a data value
    fig, ax = plt.subplots()
    ax.bar([0.0, 1.0], [5.0, 7.0], width=1.0, align="edge")
    ax.set_xlim(-0.5, 2.5)
    ax.set_ylim(0.5, 8.5)
    assert scan_figure(fig, {"x": RAW["x"]}, count_axis=None).leaks


def test_an_empty_rectangle_draws_nothing():
    """seaborn adds a rectangle of no size at the origin as a legend handle: not a 0 drawn."""
    fig, ax = plt.subplots()
    ax.bar([1.0], [1.4], width=0.5)
    ax.add_patch(plt.Rectangle((0, 0), 0, 0))
    ax.set_xlim(0.25, 1.75)
    ax.set_ylim(0.5, 1.5)
    assert not scan_figure(fig, RAW, count_axis=None)
