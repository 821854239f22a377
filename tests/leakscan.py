"""A leak scanner for figures (DESIGN.md sections 3 and 7).

Given a figure and the raw data behind it, collect every number the figure
shows — bar and patch extents, marker offsets, line vertices, image data,
axis limits, tick positions, tick labels and any other text — and report each
one that equals (relative 1e-9) a raw value held by fewer than ``threshold``
records. Numbers are compared per axis: x-axis numbers against the raw x
variable, y-axis numbers against the raw y variable (a count axis is checked
for cells in ``(0, threshold)`` instead). Text is compared against every
variable, except the entries of a legend section titled "count" (marker
sizes of a density grid), which are checked as counts; the zero line that
bars grow from is no data value either. Ticks and the entries of a brief
numeric legend that are a standard locator's round numbers (every multiple of
a 1, 2, 2.5 or 5 x 10**e step between two limits, or powers of ten times
1, 2, 3 or 5 on a log axis) depend only on the limits and are not data
(DESIGN.md invariant 2): they are not compared, though any other number
written as a tick label (a category name) is. Meshes (heat maps), contour and fill
paths in data coordinates and colour-bar limits are scanned as well. The text
of the figure written as SVG (as ``savefig`` writes it) is scanned too; with ``saved=True`` also
the strings shown by the text
operators of the PDF (``Tj``/``TJ``, Type 3 fonts, no compression) and the
warnings and details of the provenance record that saved files carry in their
metadata.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass, field

import matplotlib as mpl
import numpy as np
from matplotlib.collections import Collection, LineCollection, PathCollection, QuadMesh
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from safeplot.anonymize.grids import MATCH_RTOL, rare_values
from safeplot.plots._common import FOOTNOTE_GID

NUMBER = re.compile(r"[-\u2212]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


@dataclass
class Findings:
    """What the scanner found: leaks (rare raw values shown) and small counts."""

    leaks: list[str] = field(default_factory=list)
    small_counts: list[str] = field(default_factory=list)
    numbers_scanned: int = 0

    def __bool__(self) -> bool:
        return bool(self.leaks or self.small_counts)

    def __str__(self) -> str:
        return "\n".join(self.leaks + self.small_counts)


#: The title of a legend section whose entries are counts (the marker sizes of a density grid
#: drawn as a scatter plot: safeplot names that column "count", adding "_" on a clash).
COUNT_TITLE = re.compile(r"count_*")


#: Mantissas of the steps a standard linear locator takes (matplotlib's AutoLocator).
_LOCATOR_MANTISSAS = (1.0, 2.0, 2.5, 5.0)
#: Those of MaxNLocator's default steps, which seaborn's brief legends use.
LEGEND_MANTISSAS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
#: Mantissas of the ticks of a log locator (powers of ten, and their 2-5 or 3 multiples).
_LOG_MANTISSAS = (1.0, 2.0, 3.0, 5.0)


def on_locator_grid(values, log: bool = False, mantissas=_LOCATOR_MANTISSAS) -> bool:
    """Whether `values` are a standard locator's round numbers, which depend on limits only.

    Linear: equally spaced numbers, each a multiple of the step, the step one
    of `mantissas` (1, 2, 2.5 or 5: matplotlib's axis locator) times a power
    of ten; a lone number on a short axis is one if it is 0 or such a step.
    Log: each positive number 1, 2, 3 or 5 times a power of ten. A grid
    moved off a data value (ticks at 11, 21, 31) is not one.

    Examples
    --------
    >>> on_locator_grid([0, 20, 40, 60]), on_locator_grid([11, 21, 31])
    (True, False)
    >>> on_locator_grid([0]), on_locator_grid([250]), on_locator_grid([3])
    (True, True, False)
    >>> on_locator_grid([1, 10, 100], log=True), on_locator_grid([0.7, 7], log=True)
    (True, False)
    """
    v = np.asarray(values, dtype=float)
    v = np.sort(v[np.isfinite(v)])
    if log:
        if v.size == 0 or (v <= 0).any():
            return False
        exponent = np.floor(np.log10(v) + 1e-9)
        mantissa = v / 10.0**exponent
        return bool(np.isclose(mantissa[:, None], _LOG_MANTISSAS, rtol=1e-9).any(axis=1).all())
    if v.size == 1:
        # a lone tick (a short axis): a locator's if it is 0 or a round step times 10**e
        if v[0] == 0:
            return True
        exponent = np.floor(np.log10(abs(v[0])) + 1e-9)
        return bool(np.isclose(abs(v[0]) / 10.0**exponent, mantissas, rtol=1e-9).any())
    if v.size < 2:
        return False
    steps = np.diff(v)
    step = (v[-1] - v[0]) / (v.size - 1)
    if step <= 0 or not np.allclose(steps, step, rtol=1e-6, atol=0):
        return False
    exponent = np.floor(np.log10(step) + 1e-9)
    nice = [
        m * 10.0**exponent for m in mantissas if np.isclose(step, m * 10.0**exponent, rtol=1e-6)
    ]
    if not nice:
        return False
    # multiples of the nice step, to the precision of the numbers themselves
    return bool(np.allclose(v, np.round(v / nice[0]) * nice[0], rtol=1e-9, atol=1e-9 * nice[0]))


def _legend_values(legend, check_count, counts_seen: set[str], check_section=None) -> list:
    """The legend texts to compare with raw values.

    Entries of a count section are checked as counts instead (a marker-size
    entry 3 is a count, not the raw value 3); a section of numbers that are a
    locator's round numbers (a brief numeric legend, as seaborn draws it) is
    not data. With `check_section` (``check_section(title, label, numbers)``,
    true when `title` names a variable) the other numeric entries of a section
    titled by a variable are checked against that variable alone. The text of
    all these is added to `counts_seen`, so the saved-file pass reads it the
    same way.
    """
    values, in_counts, section = [], False, None
    run: list = []  # the current run of numeric entries

    def close_run() -> None:
        numbers = [float(t.get_text().strip().replace("\u2212", "-")) for t in run]
        if len(run) >= 2 and on_locator_grid(numbers, mantissas=LEGEND_MANTISSAS):
            counts_seen.update(t.get_text() for t in run)
        elif section is not None:
            for t in run:
                text = t.get_text()
                check_section(section, f"legend {section} entry {text!r}", _text_numbers(text))
                counts_seen.add(text)
        else:
            values.extend(run)
        run.clear()

    title = legend.get_title().get_text()
    if check_section is not None and check_section(title, None, None):
        section = title  # one variable's legend titled by its name (seaborn's hue="size")
    for t in legend.get_texts():
        text = t.get_text()
        if COUNT_TITLE.fullmatch(text):
            close_run()
            in_counts, section = True, None
        elif in_counts and NUMBER.fullmatch(text.strip()):
            check_count(f"legend count {text!r}", _text_numbers(text))
            counts_seen.add(text)
            continue
        elif NUMBER.fullmatch(text.strip()):
            run.append(t)
            continue
        else:
            close_run()
            in_counts = False
            named = check_section is not None and check_section(text, None, None)
            section = text if named else None
        values.append(t)
    close_run()
    return values


def _matches(numbers: np.ndarray, rare: np.ndarray) -> np.ndarray:
    numbers = np.asarray(numbers, dtype=float).ravel()
    numbers = numbers[np.isfinite(numbers)]
    if numbers.size == 0 or rare.size == 0:
        return np.array([])
    pos = np.searchsorted(rare, numbers)
    hit = np.zeros(numbers.size, dtype=bool)
    for nb in (np.clip(pos - 1, 0, rare.size - 1), np.clip(pos, 0, rare.size - 1)):
        near = rare[nb]
        hit |= np.abs(numbers - near) <= MATCH_RTOL * np.maximum(np.abs(numbers), np.abs(near))
    return numbers[hit]


_PDF_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _pdf_literals(chunk: bytes) -> list[bytes]:
    """The literal strings ``(...)`` of a piece of PDF content, escapes undone."""
    out, i = [], 0
    while True:
        i = chunk.find(b"(", i)
        if i < 0:
            return out
        depth, buf, i = 1, bytearray(), i + 1
        while i < len(chunk) and depth:
            c = chunk[i : i + 1]
            if c == b"\\":
                nxt = chunk[i + 1 : i + 2]
                octal = re.match(rb"[0-7]{1,3}", chunk[i + 1 : i + 4])
                if octal:
                    buf.append(int(octal.group(), 8) & 0xFF)
                    i += 1 + len(octal.group())
                    continue
                buf += _PDF_ESCAPES.get(nxt, nxt)
                i += 2
                continue
            depth += c == b"("
            depth -= c == b")"
            if depth:
                buf += c
            i += 1
        out.append(bytes(buf))


def print_once(fig, fmt: str, buf) -> None:
    """Write `fig` as `fmt` ("svg" or "pdf") into `buf`, drawing it once.

    ``savefig`` draws a figure with a layout engine twice (once to lay it out,
    once to write it); the second draw lays it out again by itself, so the
    text written is the same. The leak table writes thousands of figures, and
    the first draw was a fifth of its time.
    """
    from matplotlib.backends.backend_pdf import FigureCanvasPdf
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    canvas = fig.canvas
    try:
        if fmt == "svg":
            FigureCanvasSVG(fig).print_svg(buf)
        else:
            FigureCanvasPdf(fig).print_pdf(buf)
    finally:
        fig.set_canvas(canvas)


def pdf_texts(fig) -> list[str]:
    """Every string the saved PDF shows in a text object (``Tj``/``TJ`` operators).

    The figure is saved with Type 3 fonts, whose strings are single bytes
    (Latin-1), and without compression, so the content streams can be read.
    The pieces of one ``TJ`` array (split for kerning) are joined; each line
    of text is its own text object (``BT`` ... ``ET`` on lines of their own).
    """
    buf = io.BytesIO()
    with mpl.rc_context({"pdf.fonttype": 3, "pdf.compression": 0}):
        print_once(fig, "pdf", buf)
    texts = [
        b"".join(_pdf_literals(block)).decode("latin-1")
        for block in re.findall(rb"^BT$(.*?)^ET$", buf.getvalue(), flags=re.S | re.M)
    ]
    # characters beyond Latin-1 (the minus sign U+2212 of tick labels) are drawn from a second
    # font and leave a zero code in the joined string: before a digit it is a minus sign
    return [re.sub("\x00(?=\\d)", "-", t) for t in texts]


def _record_texts(fig) -> list[str]:
    """Warnings and details of the provenance record written into a saved file's metadata.

    Parameters and rounded counts are left out: like the method note they are
    the report's own numbers, checked by the tests of each function.
    """
    from safeplot.integrations.provenance import provenance

    record = provenance(fig)
    if not record:
        return []
    out = []
    for axes in record.get("axes", []):
        out += [str(w) for w in axes.get("warnings", [])]
        out.append(json.dumps(axes.get("details", {})))
    return out


def on_date_locator(values, lim) -> bool:
    """Whether `values` are the ticks matplotlib's AutoDateLocator puts between limits `lim`.

    A date axis (limits in matplotlib date numbers) has the ticks of the date
    locator, which depend on the limits only, as a linear locator's do.

    Examples
    --------
    >>> on_date_locator([18307.0, 18314.0, 18322.0, 18329.0, 18336.0, 18343.0, 18353.0],
    ...                 (18305.0, 18355.0))
    True
    >>> on_date_locator([18308.0, 18315.0, 18322.0], (18305.0, 18355.0))
    False
    """
    import matplotlib.dates as mdates

    v = np.sort(np.asarray(values, dtype=float))
    lo, hi = sorted(float(x) for x in lim)
    if v.size == 0 or not (np.isfinite(lo) and np.isfinite(hi)) or hi <= lo:
        return False
    if lo < 1 or hi > 2.9e6:  # not date numbers (matplotlib's dates run from year 1 to 9999)
        return False
    ticks = np.asarray(
        mdates.AutoDateLocator().tick_values(mdates.num2date(lo), mdates.num2date(hi)), dtype=float
    )
    ticks = ticks[(ticks >= lo) & (ticks <= hi)]
    inside = v[(v >= lo) & (v <= hi)]
    return inside.size > 0 and inside.size == ticks.size and np.allclose(inside, ticks, rtol=0)


def _printed_ticks(numbers: np.ndarray, ticks) -> bool:
    """Whether a tick label's numbers are tick positions (as printed, to their last digit)."""
    ticks = np.asarray(ticks, dtype=float)
    return all(np.isclose(n, ticks, rtol=1e-9, atol=1e-12).any() for n in numbers)


def _text_numbers(text: str) -> np.ndarray:
    return np.array([float(m.replace("\u2212", "-")) for m in NUMBER.findall(text)], dtype=float)


def scan_figure(
    fig,
    raw: dict[str, np.ndarray],
    *,
    threshold: int = 3,
    counts_in_colour: bool = False,
    count_axis: str | None = "infer",
    per_axes: dict | None = None,
    saved: bool = False,
    pdf: bool | None = None,
    categorical: str | None = None,
    ignore: str | None = None,
    legend_sections: dict[str, np.ndarray] | None = None,
) -> Findings:
    """Scan every Axes of `fig`.

    Parameters
    ----------
    fig : Figure
    raw : dict
        ``{"x": raw x values, "y": raw y values}``; leave "y" out when the
        y axis shows counts (histograms), whose bars are then checked for
        counts in ``(0, threshold)``.
    threshold : int
    count_axis : {"x", "y", None}
        The axis along which bars show counts (checked for counts in
        ``(0, threshold)``). Default: "y" when only "x" is in `raw`, "x"
        when only "y" is, else None.
    counts_in_colour : bool
        The colour of meshes and images encodes counts (heat maps of a
        density grid): check them, and colour-bar limits, for counts in
        ``(0, threshold)`` instead of against raw values. The colour bar's
        tick labels are then counts too, not compared with raw values.
    per_axes : dict, optional
        ``{ax: {"x": ..., "y": ...}}`` for figures whose panels show
        different variables (pair plots, joint plots, diagnostic panels): each
        listed Axes is checked against its own raw x and y (an axis left out
        is not compared by position, as with `raw`); text anywhere is compared
        with the rare values of every variable in `raw` and `per_axes`.
    saved : bool, default False
        Also scan what saved files carry besides the SVG text: the strings
        the PDF's text operators show, and the warnings and details of the
        provenance record written into the metadata (the leak test of every
        public function turns this on).
    pdf : bool, optional
        Whether the saved-file pass saves and reads a PDF (default: `saved`).
        The PDF shows the same text artists as the SVG in another encoding,
        so a caller that scans many figures of one function may read the PDF
        of a few of them only; the metadata is read whenever `saved` is on.
    categorical : {"x", "y", None}
        An axis that shows categories at positions 0, 1, 2, ... (count
        plots of a numeric column): positions on it are no data values and
        are not compared; its tick labels (the category names) are.
    ignore : str, optional
        A regular expression: its matches are removed from a text (other than a tick
        label) before the numbers in it are read, for names that contain digits (a
        category "VS2", a component "PC1").
    legend_sections : dict, optional
        ``{title: raw values}``: the numeric entries of a legend section with that
        title (the size or hue levels of a numeric variable) are compared with the
        rare values of that variable alone.
    """
    found = Findings()
    if count_axis == "infer":
        count_axis = {("x",): "y", ("y",): "x"}.get(tuple(sorted(raw)))
    per_axes = per_axes or {}
    base_rare = {axis: rare_values(v, threshold) for axis, v in raw.items()}
    axes_rare = {
        ax: {axis: rare_values(v, threshold) for axis, v in panel.items()}
        for ax, panel in per_axes.items()
    }
    pools = list(base_rare.values()) + [r for panel in axes_rare.values() for r in panel.values()]
    all_rare = np.unique(np.concatenate(pools)) if pools else np.array([])
    rare = base_rare
    section_rare = {
        title: rare_values(v, threshold) for title, v in (legend_sections or {}).items()
    }

    def numbers_in(text: str) -> np.ndarray:
        return _text_numbers(re.sub(ignore, "", text) if ignore else text)

    def check_section(title: str, label: str | None, numbers) -> bool:
        if title not in section_rare:
            return False
        if label is not None:
            values = np.asarray(numbers, dtype=float).ravel()
            found.numbers_scanned += values.size
            for v in _matches(values, section_rare[title]):
                found.leaks.append(f"{label}: {v!r} equals a rare raw {title}")
        return True

    sections = check_section if section_rare else None

    def check(label: str, numbers, axis: str | None) -> None:
        values = np.asarray(numbers, dtype=float).ravel()
        found.numbers_scanned += values.size
        against = all_rare if axis is None else rare.get(axis)
        if against is None:
            return
        if (
            categorical is not None
            and axis == categorical
            and not label.startswith(f"{axis} tick label")
        ):
            return
        for v in _matches(values, against):
            found.leaks.append(f"{label}: {v!r} equals a rare raw {axis or 'value'}")

    def check_count(label: str, numbers) -> None:
        values = np.asarray(np.ma.filled(np.ma.asarray(numbers, dtype=float), np.nan)).ravel()
        values = values[np.isfinite(values)]
        found.numbers_scanned += values.size
        for v in values[(values > 0) & (values < threshold)]:
            found.small_counts.append(f"{label}: count {v!r} < {threshold}")

    # tick labels are checked against their own axis, the method note against the report;
    # the SVG pass below skips both
    tick_texts: set[str] = set()
    for ax in fig.axes:
        rare = axes_rare.get(ax, base_rare)
        colorbar = getattr(ax, "_colorbar", None)
        if colorbar is not None:
            # a colour bar's axis shows counts (or statistics of released numbers)
            norm = colorbar.mappable.norm
            if counts_in_colour:
                check_count("colour-bar limit", [norm.vmin, norm.vmax])
            check(
                "colour-bar limit",
                [norm.vmin, norm.vmax],
                None if not counts_in_colour else "colour",
            )
            # its tick labels are on the same scale as its limits: counts of a count colour
            # bar (a tick at 15 is no data value 15), values of any other one
            ticks = np.asarray(colorbar.get_ticks(), dtype=float)
            locator = on_locator_grid(ticks, log=colorbar.ax.get_yscale() == "log")
            for t in ax.get_xticklabels() + ax.get_yticklabels():
                tick_texts.add(t.get_text())
                numbers = _text_numbers(t.get_text())
                if locator and _printed_ticks(numbers, ticks):
                    continue
                check(
                    f"colour-bar tick label {t.get_text()!r}",
                    numbers,
                    None if not counts_in_colour else "colour",
                )
            continue
        check("xlim", ax.get_xlim(), "x")
        check("ylim", ax.get_ylim(), "y")
        for axis, labels in (("x", ax.get_xticklabels()), ("y", ax.get_yticklabels())):
            ticks = ax.get_xticks() if axis == "x" else ax.get_yticks()
            log = (ax.get_xscale() if axis == "x" else ax.get_yscale()) == "log"
            # a standard locator's round numbers are not data (invariant 2), nor are labels
            # that print them; a label that says something else (a category name) is
            lim = ax.get_xlim() if axis == "x" else ax.get_ylim()
            locator = axis != categorical and (
                on_locator_grid(ticks, log=log) or (not log and on_date_locator(ticks, lim))
            )
            if not locator:
                check(f"{axis}ticks", ticks, axis)
            for t in labels:
                tick_texts.add(t.get_text())
                numbers = _text_numbers(t.get_text())
                if locator and _printed_ticks(numbers, ticks):
                    continue
                check(f"{axis} tick label {t.get_text()!r}", numbers, axis)
        # bars grow from a common zero line whatever the data (seaborn's and matplotlib's
        # convention): that zero is no data value, the other end and the sides are
        # a rectangle of no width and no height draws nothing (seaborn adds one at the
        # origin as a legend handle)
        patches = [
            p
            for p in ax.patches
            if not (isinstance(p, Rectangle) and p.get_width() == 0 and p.get_height() == 0)
        ]
        bars = [p for p in patches if isinstance(p, Rectangle)]
        from_zero = {
            axis: bool(bars) and all(getattr(p, f"get_{axis}")() == 0 for p in bars)
            for axis in ("x", "y")
        }
        for patch in patches:
            if isinstance(patch, Rectangle):
                x0, y0 = patch.get_x(), patch.get_y()
                x1, y1 = x0 + patch.get_width(), y0 + patch.get_height()
                on_x_zero = from_zero["x"] and not from_zero["y"]
                on_y_zero = from_zero["y"] and not from_zero["x"]
                check("bar x extent", [x1] if on_x_zero else [x0, x1], "x")
                check("bar y extent", [y1] if on_y_zero else [y0, y1], "y")
                if count_axis is not None:
                    extent = abs(y1 - y0) if count_axis == "y" else abs(x1 - x0)
                    if 0 < extent < threshold:
                        found.small_counts.append(f"bar of {count_axis} extent {extent}")
            else:
                verts = patch.get_path().vertices
                if verts.size:
                    data = patch.get_patch_transform().transform(verts)
                    check("patch x", data[:, 0], "x")
                    check("patch y", data[:, 1], "y")
        for line in ax.lines:
            if isinstance(line, Line2D):
                check("line x", line.get_xdata(), "x")
                check("line y", line.get_ydata(), "y")
        for coll in ax.collections:
            if not isinstance(coll, Collection):
                continue
            if isinstance(coll, QuadMesh):
                coords = np.asarray(coll.get_coordinates())
                check("mesh x", coords[..., 0], "x")
                check("mesh y", coords[..., 1], "y")
                array = coll.get_array()
                if array is not None:
                    if counts_in_colour:
                        check_count("mesh value", array)
                    check(
                        "mesh value",
                        np.ma.filled(np.ma.asarray(array, float), np.nan),
                        "colour" if counts_in_colour else None,
                    )
                continue
            offsets = np.asarray(coll.get_offsets())
            if offsets.size and not (offsets.shape[0] == 1 and not offsets.any()):
                check("marker x", offsets[:, 0], "x")
                check("marker y", offsets[:, 1], "y")
            if not isinstance(coll, PathCollection) and coll.get_transform().contains_branch(
                ax.transData
            ):
                # fills, contour lines and line collections are drawn in data coordinates;
                # a shape placed at offsets (hexbin's hexagon) is in data units relative to
                # each offset, so its drawn vertices are offset + vertex
                placed = offsets.size and not (offsets.shape[0] == 1 and not offsets.any())
                for path in coll.get_paths():
                    if path.vertices.size:
                        verts = path.vertices
                        if placed:
                            verts = (offsets[:, None, :] + verts[None, :, :]).reshape(-1, 2)
                        check("path x", verts[:, 0], "x")
                        check("path y", verts[:, 1], "y")
            elif isinstance(coll, LineCollection):
                # a line collection with one coordinate in data units and the other in axes
                # units (a rug's ticks): the data coordinate is checked
                tr = coll.get_transform()
                for j, axis in enumerate(("x", "y")):
                    part = getattr(tr, f"_{axis}", None)
                    if part is not None and part.contains_branch(ax.transData):
                        for path in coll.get_paths():
                            if path.vertices.size:
                                check(f"tick {axis}", path.vertices[:, j], axis)
        for image in ax.images:
            if isinstance(image, AxesImage):
                check(
                    "image data", np.ma.filled(np.asarray(image.get_array(), float), np.nan), None
                )
                check("image extent", image.get_extent(), None)
        texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label]
        # the method note is built from the report's parameters only (tests check that)
        texts += [t for t in ax.texts if t.get_gid() != FOOTNOTE_GID]
        tick_texts.update(t.get_text() for t in ax.texts if t.get_gid() == FOOTNOTE_GID)
        legend = ax.get_legend()
        if legend is not None:
            texts += _legend_values(legend, check_count, tick_texts, sections)
        for t in texts:
            check(f"text {t.get_text()!r}", numbers_in(t.get_text()), None)
    for t in fig.texts + ([fig._suptitle] if fig._suptitle is not None else []):
        check(f"figure text {t.get_text()!r}", numbers_in(t.get_text()), None)
    for legend in fig.legends:
        for t in _legend_values(legend, check_count, tick_texts, sections):
            check(f"legend text {t.get_text()!r}", numbers_in(t.get_text()), None)

    buf = io.StringIO()
    with mpl.rc_context({"svg.fonttype": "none"}):
        print_once(fig, "svg", buf)
    for text in re.findall(r"<text[^>]*>(.*?)</text>", buf.getvalue(), flags=re.S):
        if re.sub(r"<[^>]+>", "", text) in tick_texts:
            continue
        check(f"SVG text {text!r}", numbers_in(re.sub(r"<[^>]+>", "", text)), None)
    read_pdf = saved if pdf is None else pdf
    if read_pdf:
        plain = {t.replace("\u2212", "-") for t in tick_texts}
        for text in pdf_texts(fig):
            if text in plain:
                continue
            check(f"PDF text {text!r}", numbers_in(text), None)
    if saved:
        for text in _record_texts(fig):
            check(f"metadata {text!r}", numbers_in(text), None)
    return found


# -- seaborn scripts run with only the import changed ---------------------------------------


def run_seaborn_script(script: str) -> dict:
    """Run a seaborn script with ``import seaborn as sns`` replaced by safeplot; its namespace."""
    assert "import seaborn as sns" in script
    namespace: dict = {}
    exec(
        compile(script.replace("import seaborn as sns", "import safeplot as sns"), "s", "exec"),
        namespace,
    )
    return namespace


def columns_of_axes(ax, frame) -> dict:
    """The raw float columns of `frame` an Axes shows, found from its axis labels."""
    out = {}
    for which, label in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())):
        if label in frame.columns and frame[label].dtype.kind == "f":
            out[which] = frame[label].to_numpy()
    return out


def _numeric_columns(frame) -> dict:
    return {
        col: frame[col].to_numpy(dtype=float)
        for col in frame.columns
        if getattr(frame[col].dtype, "kind", "O") in "iuf"
    }


def _axis_column(label: str, frames: list) -> np.ndarray | None:
    for frame in frames:
        if label and label in frame.columns and getattr(frame[label].dtype, "kind", "O") in "iuf":
            return frame[label].to_numpy(dtype=float)
    return None


def _grid_frame(grid, frames: list):
    """The frame a grid was drawn from: the first one holding every variable it names."""
    names = set(getattr(grid, "_safeplot_data_axes", {}).values())
    names |= {getattr(grid, "_row_var", None), getattr(grid, "_col_var", None)} - {None}
    names |= set(getattr(grid, "x_vars", []) or []) | set(getattr(grid, "y_vars", []) or [])
    if hasattr(grid, "ax_joint"):
        names |= {grid.ax_joint.get_xlabel(), grid.ax_joint.get_ylabel()}
    for frame in frames:
        if names <= set(frame.columns):
            return frame
    return None


def _level_names(frames: list) -> list[str]:
    """The levels of the non-numeric columns of `frames` that contain a digit ("VS2", "s10")."""
    names = set()
    for frame in frames:
        for col in frame.columns:
            if getattr(frame[col].dtype, "kind", "O") not in "iufb":
                names |= {str(v) for v in frame[col].dropna().unique() if re.search(r"\d", str(v))}
    return sorted(names, key=len, reverse=True)


def scan_script(
    namespace: dict,
    *,
    wide: dict | None = None,
    columns: dict | None = None,
    ignore: str | None = None,
    **kws,
) -> Findings:
    """Scan every open figure a script drew against the rare values of every loaded variable.

    Each Axes is compared by position with the numeric columns its axis labels
    name (the records of its facet, for a facet grid drawn by safeplot; its
    panel's variables, for a pair or joint grid); every text (titles, legends,
    annotations, saved text) is compared with the rare values of every numeric
    column of every DataFrame in the script's `namespace` (category names with digits,
    such as "VS2", and matches of `ignore` are no numbers; the numeric entries of a legend
    section titled by a column are compared with that column). ``wide={"y": name}``
    compares an axis with no column label with all values of the wide-form
    frame `name` (``sns.boxplot(data=iris)``); ``columns={"x": "age"}`` names the
    column an axis shows when its label does not (relabelled axes, Q-Q plots). On a
    seaborn grid the columns are the records of each facet. Bars are checked for small
    counts along an axis labelled "Count".
    """
    import matplotlib.pyplot as plt
    import pandas as pd
    from matplotlib.axes import Axes

    from safeplot import is_safe_matrix
    from safeplot.plots.axisgrid import pair_axes_variables
    from safeplot.plots.facets import facet_axes_variables

    # the loaded data: a matrix safeplot released (crosstab, corr) is output, not data
    frames = [
        v for v in namespace.values() if isinstance(v, pd.DataFrame) and not is_safe_matrix(v)
    ]
    # text anywhere is compared with the rare values of every pool in `raw`; keys other than
    # "x" and "y" are compared with no axis by position
    text_pools = {
        f"{i}:{col}": values
        for i, frame in enumerate(frames)
        for col, values in _numeric_columns(frame).items()
    }
    wide = {
        axis: np.concatenate(list(_numeric_columns(namespace[name]).values()))
        for axis, name in (wide or {}).items()
    }
    names = [re.escape(n) for n in _level_names(frames)]
    parts = [rf"(?<![\w.])(?:{'|'.join(names)})(?![\w.])"] if names else []
    pattern = "|".join([*parts, *([ignore] if ignore else [])]) or None
    sections = {}
    for frame in frames:
        for col, values in _numeric_columns(frame).items():
            sections.setdefault(col, values)
    grids = [
        v
        for v in namespace.values()
        if hasattr(v, "figure") and hasattr(v, "axes") and not isinstance(v, Axes)
    ]
    found = Findings()
    for num in plt.get_fignums():
        fig = plt.figure(num)
        per_axes: dict = {}
        for grid in grids:
            if grid.figure is not fig:
                continue
            frame = _grid_frame(grid, frames)
            if frame is None:
                continue
            if hasattr(grid, "_safeplot_data_axes"):
                per_axes.update(facet_axes_variables(grid, frame))
            elif hasattr(grid, "facet_data") and columns:
                for (i, j, _), sub in grid.facet_data():
                    per_axes[grid.axes[i, j]] = {
                        axis: sub[col].to_numpy(dtype=float) for axis, col in columns.items()
                    }
            elif hasattr(grid, "ax_joint") or hasattr(grid, "diag_axes"):
                per_axes.update(pair_axes_variables(grid, frame))
        for ax in fig.axes:
            if ax in per_axes or getattr(ax, "_colorbar", None) is not None:
                continue
            panel = {}
            for axis in ("x", "y"):
                values = _axis_column(getattr(ax, f"get_{axis}label")(), frames)
                if values is None and axis in (columns or {}):
                    values = _axis_column(columns[axis], frames)
                if values is None:
                    values = wide.get(axis)
                if values is not None:
                    panel[axis] = values
            per_axes[ax] = panel
        labels = [(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes]
        count_axis = None
        if any(y.lower() == "count" for _, y in labels):
            count_axis = "y"
        elif any(x.lower() == "count" for x, _ in labels):
            count_axis = "x"
        options = {"count_axis": count_axis, **kws}
        one = scan_figure(
            fig,
            text_pools,
            per_axes=per_axes,
            ignore=pattern,
            legend_sections=sections,
            **options,
        )
        found.leaks += one.leaks
        found.small_counts += one.small_counts
        found.numbers_scanned += one.numbers_scanned
    return found
