"""Text in safeplot's figures does not collide, at seaborn's default figure sizes.

Every plot family is drawn at its default size with seaborn's theme; no two
texts (tick labels, axis labels, titles, legend entries, method and other
notes) may overlap, and no note safeplot adds may run off the figure. The
scripts of tests/test_seaborn_scripts.py check the same for their figures.
The checker itself is tested on figures that do collide.
"""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
import seaborn

import safeplot
from safeplot.marks._axes import FootnoteLayout, footnotes, note_below
from safeplot.plots._common import FOOTNOTE_GID

from .textlayout import clipped_texts, overlapping_texts

pytestmark = pytest.mark.usefixtures("restore_theme")


@pytest.fixture(scope="module")
def tips():
    return safeplot.load_dataset("tips")


@pytest.fixture(scope="module")
def penguins():
    return safeplot.load_dataset("penguins")


def _themed():
    seaborn.set_theme()


#: one call per plot family, as a user makes it: default sizes, a hue where seaborn's docs use one
FAMILIES = {
    "histplot": lambda d: safeplot.histplot(d["tips"], x="total_bill", hue="time"),
    "kdeplot": lambda d: safeplot.kdeplot(d["tips"], x="total_bill", hue="time"),
    "ecdfplot": lambda d: safeplot.ecdfplot(d["tips"], x="total_bill", hue="time"),
    "rugplot": lambda d: safeplot.rugplot(d["tips"], x="total_bill"),
    "scatterplot": lambda d: safeplot.scatterplot(d["tips"], x="total_bill", y="tip", hue="time"),
    "lineplot": lambda d: safeplot.lineplot(d["tips"], x="size", y="tip", hue="time"),
    "barplot": lambda d: safeplot.barplot(d["tips"], x="day", y="total_bill", hue="sex"),
    "countplot": lambda d: safeplot.countplot(d["tips"], x="day", hue="sex"),
    "pointplot": lambda d: safeplot.pointplot(d["tips"], x="day", y="total_bill", hue="sex"),
    "boxplot": lambda d: safeplot.boxplot(d["tips"], x="day", y="total_bill"),
    "violinplot": lambda d: safeplot.violinplot(d["tips"], x="day", y="total_bill"),
    "boxenplot": lambda d: safeplot.boxenplot(d["tips"], x="day", y="total_bill"),
    "stripplot": lambda d: safeplot.stripplot(d["tips"], x="day", y="total_bill"),
    "swarmplot": lambda d: safeplot.swarmplot(d["tips"], x="day", y="total_bill"),
    "heatmap": lambda d: safeplot.heatmap(d["penguins"], x="bill_length_mm", y="bill_depth_mm"),
    "regplot": lambda d: safeplot.regplot(d["tips"], x="total_bill", y="tip"),
    "residplot": lambda d: safeplot.residplot(d["tips"], x="total_bill", y="tip"),
    "displot": lambda d: safeplot.displot(d["tips"], x="total_bill", col="time"),
    "relplot": lambda d: safeplot.relplot(d["tips"], x="total_bill", y="tip", col="time"),
    "relplot-line": lambda d: safeplot.relplot(
        d["tips"], x="size", y="tip", col="time", kind="line"
    ),
    "catplot": lambda d: safeplot.catplot(d["tips"], x="day", y="total_bill", col="time"),
    "lmplot": lambda d: safeplot.lmplot(d["tips"], x="total_bill", y="tip", col="time"),
    "pairplot": lambda d: safeplot.pairplot(
        d["penguins"][["bill_length_mm", "bill_depth_mm", "species"]], hue="species"
    ),
    "jointplot": lambda d: safeplot.jointplot(
        d["penguins"], x="bill_length_mm", y="bill_depth_mm"
    ),
    "qqplot": lambda d: safeplot.qqplot(d["tips"]["total_bill"]),
}


@pytest.mark.parametrize("theme", [False, True], ids=["matplotlib", "seaborn-theme"])
@pytest.mark.parametrize("family", list(FAMILIES))
def test_no_text_overlaps_at_default_size(family, theme, tips, penguins):
    if theme:
        _themed()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # no layout warnings either
        FAMILIES[family]({"tips": tips, "penguins": penguins})
    figures = [plt.figure(n) for n in plt.get_fignums()]
    assert figures
    for fig in figures:
        notes = [t for ax in fig.axes for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
        assert len(notes) == 1, "a figure names its method once"
        assert not overlapping_texts(fig), overlapping_texts(fig)
        assert not clipped_texts(fig) or all(
            not b.kind.startswith("safeplot") for b in clipped_texts(fig)
        ), clipped_texts(fig)


def test_notes_stack_under_the_axis_label_and_stay_on_the_figure():
    """Notes written under one Axes stack; a label set later moves them, still on the figure."""
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    first = note_below(ax, "2 groups of fewer than 3 records left out", "a")
    second = note_below(ax, "safeplot: suppress (threshold=3)", "b")
    assert footnotes(ax) == [first, second]
    ax.set_xlabel("a label set after the notes\non two lines")
    seaborn.despine(ax=ax, offset=10)
    assert isinstance(fig.get_layout_engine(), FootnoteLayout)
    assert not overlapping_texts(fig)
    assert not clipped_texts(fig)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    label, a, b = (t.get_window_extent(r) for t in (ax.xaxis.label, first, second))
    assert label.y0 > a.y1 and a.y0 > b.y1
    # the same gid rewrites its note; a removed note's neighbour moves up
    note_below(ax, "3 groups left out", "a")
    assert [n.get_text() for n in footnotes(ax)] == ["3 groups left out", second.get_text()]
    first.remove()
    assert footnotes(ax) == [second]
    assert not clipped_texts(fig) and not overlapping_texts(fig)


@pytest.mark.parametrize("layout", ["tight", "constrained"])
def test_layout_engines_make_room_for_notes(layout):
    fig, ax = plt.subplots(layout=layout)
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x")
    note_below(ax, "safeplot: suppress (threshold=3)", FOOTNOTE_GID)
    assert fig.get_layout_engine().__class__.__name__.lower().startswith(layout)
    assert not clipped_texts(fig)
    assert not overlapping_texts(fig)


def test_tight_layout_after_a_note_is_quiet_and_keeps_it_on_the_figure():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x")
    note_below(ax, "safeplot: suppress (threshold=3)", FOOTNOTE_GID)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.tight_layout()
    assert not clipped_texts(fig)


def test_two_panels_side_by_side_keep_their_notes_apart(tips):
    fig, axes = plt.subplots(1, 2)
    safeplot.histplot(tips, x="total_bill", ax=axes[0])
    safeplot.scatterplot(tips, x="total_bill", y="tip", ax=axes[1])
    assert [len([t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]) for ax in axes] == [1, 1]
    assert not overlapping_texts(fig)
    assert not clipped_texts(fig) or all(
        not b.kind.startswith("safeplot") for b in clipped_texts(fig)
    )


def test_the_checker_finds_overlapping_and_clipped_text():
    """The checks above can fail: a note on a tick label, a note off the figure edge."""
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    ax.set_xticks([0.0, 0.5, 1.0])
    ax.annotate("on the ticks", xy=(0.5, 0.0), xycoords="axes fraction", va="top", gid="x-note")
    pairs = overlapping_texts(fig)
    assert any("x-note" in (a.kind, b.kind) for a, b in pairs)
    ax.annotate("off", xy=(1.0, -0.3), xycoords="axes fraction", gid="safeplot-test")
    assert [b.kind for b in clipped_texts(fig)] == ["safeplot-test"]
    # the labels of ticks outside the view are not drawn, and not counted
    fig2, ax2 = plt.subplots()
    ax2.plot([0, 1], [0, 1])
    ax2.set_xticks(np.linspace(-10, 10, 21))
    ax2.set_xlim(0, 1)
    assert not overlapping_texts(fig2)


def test_a_note_wider_than_its_axes_is_saved_whole_and_pushes_no_panel():
    """Tight layout gives a long note room below, not beside; a tight save keeps all of it."""
    import io

    def laid_out(text):
        fig, axes = plt.subplots(1, 2, figsize=(4, 2))
        for ax in axes:
            ax.plot([0, 1], [0, 1])
            ax.set_xlabel("x")
        note = note_below(axes[0], text, "n")
        fig.tight_layout()
        return fig, note, [v for ax in axes for v in ax.get_position().bounds]

    _, _, short = laid_out("short")
    fig, note, long = laid_out("a note much wider than this narrow left panel is, " * 2)
    assert long == pytest.approx(short, abs=1e-3)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", bbox_inches="tight")
    renderer = fig.canvas.get_renderer()
    box = note.get_window_extent(renderer)
    assert box.width > fig.axes[0].get_window_extent(renderer).width
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)
    assert tight.x0 <= box.x0 and box.x1 <= tight.x1 and tight.y0 <= box.y0
