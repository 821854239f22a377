"""Rich display in notebooks: small, escaped HTML tables for reports and logs.

Jupyter shows an object through its ``_repr_html_`` when it has one. The
reports, summaries and the audit log build theirs here, from text they
already hold: every piece is escaped with :func:`html.escape`, so a
variable name or a warning can never inject markup.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["AuditSummary", "html_table"]

_TABLE_STYLE = "border-collapse: collapse; text-align: left"
_CELL_STYLE = "padding: 0.1em 0.6em; text-align: left; vertical-align: top"


def _cell(tag: str, value: Any) -> str:
    return f'<{tag} style="{_CELL_STYLE}">{html.escape(str(value))}</{tag}>'


def html_table(
    rows: Iterable[Sequence[Any]],
    *,
    header: Sequence[Any] | None = None,
    caption: str | None = None,
    css_class: str = "safeplot",
) -> str:
    """Return an HTML table of `rows`, every cell escaped.

    Parameters
    ----------
    rows : iterable of sequences
        The cells, row by row; each is shown as ``str(value)``.
    header : sequence, optional
        Column headings.
    caption : str, optional
        A caption above the table.
    css_class : str, default "safeplot"
        The table's ``class`` attribute, for notebook style sheets.

    Returns
    -------
    str

    Examples
    --------
    >>> html_table([("method", "<b>suppress</b>")], header=("field", "value"))[:29]
    '<table class="safeplot" style'
    >>> "&lt;b&gt;suppress&lt;/b&gt;" in html_table([("method", "<b>suppress</b>")])
    True
    """
    parts = [f'<table class="{html.escape(css_class)}" style="{_TABLE_STYLE}">']
    if caption is not None:
        parts.append(f"<caption>{html.escape(caption)}</caption>")
    if header is not None:
        parts.append("<thead><tr>" + "".join(_cell("th", h) for h in header) + "</tr></thead>")
    parts.append("<tbody>")
    for row in rows:
        parts.append("<tr>" + "".join(_cell("td", v) for v in row) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


class AuditSummary(str):
    """The text of :func:`safeplot.audit.summary`, shown as a table in a notebook.

    It is the printed text itself (a :class:`str`, so code that used the
    returned text keeps working); Jupyter displays it through
    :meth:`_repr_html_` as one row per release (uid, status, type, method,
    parameters, files, time and summary), with the warnings below.

    Parameters
    ----------
    text : str
        The printed log.
    entries : sequence of AuditEntry
        The entries it shows.

    Examples
    --------
    >>> s = AuditSummary("safeplot audit log: 0 releases", [])
    >>> s.startswith("safeplot audit log")
    True
    >>> "0 releases" in s._repr_html_()
    True
    """

    #: Column headings of the notebook table.
    COLUMNS = ("uid", "status", "type", "method", "parameters", "files", "time", "summary")

    def __new__(cls, text: str, entries: Sequence[Any] = ()) -> AuditSummary:
        obj = super().__new__(cls, text)
        obj._rows = [
            (
                e.uid,
                e.status,
                e.type,
                e.method,
                ", ".join(f"{k}={v}" for k, v in e.params.items()),
                ", ".join(os.path.basename(f) for f in e.files) or "-",
                e.time[:19].replace("T", " "),
                e.summary,
            )
            for e in entries
        ]
        obj._warnings = [(e.uid, w) for e in entries for w in e.report.get("warnings", [])]
        return obj

    def _repr_html_(self) -> str:
        title = self.splitlines()[0] if self else "safeplot audit log"
        out = f"<p><strong>{html.escape(title)}</strong></p>"
        if self._rows:
            out += html_table(self._rows, header=self.COLUMNS)
        if self._warnings:
            items = "".join(
                f"<li>{html.escape(uid)}: {html.escape(text)}</li>" for uid, text in self._warnings
            )
            out += f"<ul>{items}</ul>"
        return out
