"""Notebook display: escaped HTML for reports, releases, summaries and the audit log."""

import io
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot._display import AuditSummary, html_table
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.release import DisclosureReport, GridRelease, HistogramRelease, PointRelease

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "notebooks" / "report_display.ipynb"


class _Cells(HTMLParser):
    """Collects the text of every table cell, and any tag other than the table's own."""

    TABLE_TAGS = frozenset(
        {"table", "caption", "thead", "tbody", "tr", "th", "td", "p", "strong", "ul", "li"}
    )

    def __init__(self):
        super().__init__()
        self.cells, self.other_tags, self._in_cell = [], [], False

    def handle_starttag(self, tag, attrs):
        if tag not in self.TABLE_TAGS:
            self.other_tags.append(tag)
        self._in_cell = tag in ("td", "th")
        if self._in_cell:
            self.cells.append("")

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self._in_cell = False

    def handle_data(self, data):
        if self._in_cell:
            self.cells[-1] += data


def parse(markup):
    parser = _Cells()
    parser.feed(markup)
    return parser


def hostile_report():
    return DisclosureReport(
        "histplot",
        "suppress",
        {"threshold": 3},
        ("<script>alert(1)</script>", "a&b"),
        n=500,
        n_dropped="<3",
        cells_suppressed=2,
        warnings=["<img src=x onerror=alert(1)>"],
        details={"bins": 12},
        policy="built-in defaults",
    )


def test_report_html_is_a_table_of_its_fields_escaped():
    markup = hostile_report()._repr_html_()
    parsed = parse(markup)
    assert parsed.other_tags == []  # no <script>, no <img>: the text is escaped
    assert "&lt;script&gt;" in markup
    cells = dict(zip(parsed.cells[::2], parsed.cells[1::2], strict=True))
    assert cells["method"] == "suppress"
    assert cells["parameters"] == "threshold=3"
    assert cells["variables"] == "<script>alert(1)</script>, a&b"
    assert cells["records (rounded)"] == "500"
    assert cells["rows dropped"] == "<3"
    assert cells["cells suppressed"] == "2"
    assert cells["bins"] == "12"
    assert cells["warning"] == "<img src=x onerror=alert(1)>"
    assert cells["policy"] == "built-in defaults"


def test_html_table_escapes_headers_captions_and_cells():
    markup = html_table([("<b>", "&")], header=("<i>", "x"), caption="<u>")
    assert parse(markup).other_tags == []
    assert parse(markup).cells == ["<i>", "x", "<b>", "&"]
    assert "<caption>&lt;u&gt;</caption>" in markup


def test_releases_show_what_is_drawn_and_their_report():
    report = hostile_report()
    hist = HistogramRelease(
        edges=np.array([0.0, 1.0, 2.0, 3.0]),
        counts=np.array([4.0, np.nan, 5.0]),
        xlim=(0.0, 3.0),
        xticks=np.array([0.0, 3.0]),
        report=report,
        level="<Adelie>",
    )
    cells = parse(hist._repr_html_()).cells
    expected = ["level", "<Adelie>", "bins", "3", "suppressed bins", "1", "edges", "0 to 3"]
    assert cells[:8] == expected
    assert "<script>alert(1)</script>, a&b" in cells
    points = PointRelease(
        x=np.arange(4.0),
        y=np.arange(4.0),
        xlim=(0.0, 5.0),
        ylim=(-1.0, 4.0),
        xticks=np.array([0.0]),
        yticks=np.array([0.0]),
        report=report,
        coincident=np.array([True, True, False, False]),
    )
    cells = parse(points._repr_html_()).cells
    expected = ["points", "4", "x limits", "0 to 5", "y limits", "-1 to 4", "coincident points"]
    assert cells[:8] == [*expected, "2"]
    grid = GridRelease(
        xedges=np.arange(4.0),
        yedges=np.arange(3.0),
        counts=np.array([[[3.0, np.nan], [0.0, 4.0], [5.0, 6.0]]]),
        levels=[None],
        xlim=(0.0, 3.0),
        ylim=(0.0, 2.0),
        xticks=np.array([0.0]),
        yticks=np.array([0.0]),
        report=report,
    )
    cells = parse(grid._repr_html_()).cells
    assert cells[:6] == ["cells", "3 x 2", "levels", "1", "suppressed cells", "1"]


def test_audit_summary_is_the_printed_text_and_an_html_table():
    audit.clear()
    fig, ax = plt.subplots()
    safeplot.histplot(safeplot.load_dataset("penguins"), x="body_mass_g", ax=ax)
    plt.close(fig)
    out = io.StringIO()
    log = audit.summary(file=out)
    assert isinstance(log, str) and isinstance(log, AuditSummary)
    assert out.getvalue() == log + "\n"
    parsed = parse(log._repr_html_())
    assert parsed.other_tags == []
    assert parsed.cells[: len(AuditSummary.COLUMNS)] == list(AuditSummary.COLUMNS)
    row = parsed.cells[len(AuditSummary.COLUMNS) :]
    entry = audit.entries()[0]
    assert row[:4] == [entry.uid, entry.status, "histogram", "suppress"]
    assert row[-1] == entry.summary
    assert "safeplot audit log: 1 release" in log._repr_html_()


def test_audit_summary_of_an_empty_log_has_no_table():
    audit.clear()
    log = audit.summary(file=io.StringIO())
    assert "<table" not in log._repr_html_()
    assert "0 releases" in log._repr_html_()


def test_model_summary_html_is_escaped():
    tips = safeplot.load_dataset("tips")
    summary = safeplot.safe_ols("tip ~ total_bill", data=tips).summary()
    summary.title = "<script>x</script>"
    summary.notes = ["a < b & c"]
    markup = summary._repr_html_()
    assert "<script>" not in markup
    assert "&lt;script&gt;x&lt;/script&gt;" in markup
    assert "<p>Note: a &lt; b &amp; c</p>" in markup
    assert markup.count("<table") == 2


def test_description_html_is_escaped():
    frame = pd.DataFrame({"<b>mass</b>": np.random.default_rng(0).normal(50, 5, 40)})
    markup = safeplot.describe(frame)._repr_html_()
    assert "<b>mass</b>" not in markup
    assert "&lt;b&gt;mass&lt;/b&gt;" in markup


@pytest.mark.parametrize("figsize", [(6.4, 4.8), (3.0, 1.2)])
def test_method_note_is_inside_the_inline_image(figsize):
    # %matplotlib inline saves with bbox_inches="tight": the note must lie inside that box,
    # also in a small figure
    from IPython.core.pylabtools import print_figure
    from PIL import Image

    fig, ax = plt.subplots(figsize=figsize)
    safeplot.scatterplot(
        safeplot.load_dataset("penguins"), x="bill_length_mm", y="body_mass_g", ax=ax
    )
    fig.canvas.draw()  # places the x-axis label, and the note under it, as a render does
    renderer = fig.canvas.get_renderer()
    (note,) = [t for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    assert note.get_text().startswith("safeplot: deterministic")
    box = note.get_window_extent(renderer)
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)
    assert tight.x0 <= box.x0 and box.x1 <= tight.x1
    assert tight.y0 <= box.y0 and box.y1 <= tight.y1
    png = Image.open(io.BytesIO(print_figure(fig, "png")))
    pad = 2 * 0.1 * fig.dpi  # IPython's inline pad_inches=0.1
    assert png.size[0] >= tight.width + pad - 2 and png.size[1] >= tight.height + pad - 2
    plt.close(fig)


def test_notebook_executes_and_shows_the_html_report():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3").execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    html_outputs = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert any("<caption>DisclosureReport for histplot</caption>" in h for h in html_outputs)
    assert any("safeplot audit log: 1 release" in h and "<table" in h for h in html_outputs)
    printed = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "DisclosureReport for histplot" in printed
    assert any("image/png" in o.get("data", {}) for o in outputs)
