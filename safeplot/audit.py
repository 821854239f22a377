"""The audit log: every release made in this Python process, for output checkers.

Each figure that safeplot releases appends an :class:`AuditEntry` (what was
plotted, with which method and parameters, and the full
:class:`~safeplot.release.DisclosureReport`). At the end of the analysis the
log is exported as JSON with :func:`export`, and the output checker reviews
that file next to the figures instead of re-deriving what each one shows.

The log lives in memory, holds only what the reports hold (rounded counts,
parameters, suppression totals, warnings) and never the noise key. It starts
empty when safeplot is imported and grows until :func:`clear` is called or the
process ends.

For output checkers each entry also carries ACRO-like fields: ``uid``,
``status`` (``"pass"``, ``"review"`` or ``"fail"``, see :func:`status_of`),
``type`` (the kind of output), ``summary`` (one readable line),
``timestamp`` and ``files`` (the files the figure was saved to with
``savefig``), and ``released``: the numbers the release showed (bin counts
and edges, cell counts, released points, box summaries, the released table
or coefficient table), so they can be handed over as supporting files.
:func:`summary` prints the log as a table, and :func:`finalise` writes a
folder for output checkers in ACRO's results format.

Examples
--------
>>> from safeplot import audit
>>> from safeplot.release import DisclosureReport
>>> audit.clear()
>>> report = DisclosureReport("histplot", "suppress", {"threshold": 3}, ("age",), n=500)
>>> entry = audit.record(report, figure="fig-1")
>>> entry.sequence, entry.function, entry.variables
(1, 'histplot', ('age',))
>>> len(audit.entries())
1
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ._released import FloatRows, _cell, gc_paused, plain_table, released_table
from ._version import __version__
from .bundle import _draws_raw
from .bundle import finalise as _finalise
from .policy import Policy, get_policy
from .release import DisclosureReport, guard

__all__ = [
    "STATUSES",
    "AuditEntry",
    "add_files",
    "budget_spent",
    "clear",
    "entries",
    "export",
    "finalise",
    "log_release",
    "output_type",
    "record",
    "record_model",
    "status_of",
    "summary",
    "to_json",
]

#: What each status means for an output checker.
STATUSES = {
    "pass": "disclosure control applied and nothing to note",
    "review": "disclosure control applied; the report has warnings to read",
    "fail": "raw output (method='none'): no disclosure control, not for release",
}

#: The kind of output each function releases (the entry's ``type``).
_TYPES = {
    "histplot": "histogram",
    "hist": "histogram",
    "displot": "histogram",
    "scatterplot": "scatter plot",
    "scatter": "scatter plot",
    "relplot": "scatter plot",
    "boxplot": "box plot",
    "parallelboxplot": "parallel box plots",
    "countplot": "bar chart of counts",
    "barplot": "bar chart",
    "heatmap": "heat map",
    "hist2d": "heat map",
    "hexbin": "hexagonal bin plot",
    "kdeplot": "density plot",
    "qqplot": "Q-Q plot",
    "residplot": "residual plot",
    "regplot": "regression plot",
    "correspondenceplot": "correspondence plot",
    "pairplot": "pair plot",
    "jointplot": "joint plot",
    "corr": "table",
    "describe": "table",
    "crosstab": "table",
    "safe_ols": "regression",
    "safe_glm": "regression",
    # a fitted model's intervals and tables
    "conf_int": "regression",
    "summary": "regression",
    "summary_frame": "regression",
}


@dataclass(frozen=True)
class AuditEntry:
    """One release in the audit log.

    Attributes
    ----------
    time : str
        When the release was recorded, ISO 8601 in UTC
        (``"2024-05-01T12:00:00.123+00:00"``).
    function : str
        The function that made the release (``"histplot"``, ...).
    variables : tuple of str
        The variables released.
    method : str
        The disclosure-control method.
    params : dict
        The method's parameters as used.
    report : dict
        The whole report, as :meth:`DisclosureReport.to_dict` returns it.
    figure : str or None
        An id or label of the figure the release was drawn on, if known.
    sequence : int
        Position in the log, starting at 1.
    policy : dict
        The policy in force when the release was made: its source and floors
        (never the noise key), so a checker sees the rules of every figure
        even when the policy changed between figures.
    uid : str
        A unique id of the entry (``"0001-3f9a1c2b"``: the sequence number
        and a random part, so entries of two sessions never share one).
    status : str
        ``"pass"``, ``"review"`` or ``"fail"`` (:func:`status_of`).
    type : str
        The kind of output (``"histogram"``, ``"scatter plot"``, ...).
    summary : str
        One readable line: function, variables, method, parameters, counts.
    files : tuple of str
        The files the figure was saved to (``savefig``), in order.
    released : dict or None
        The numbers released, as a plain table ``{"columns": [...], "data":
        [[...], ...]}`` (suppressed numbers are None): per bin, per grid
        cell, per point drawn, per box, or the rows of a released table or
        coefficient table. None when the release kept no such table. Rows
        of points (floats only) are a read-only
        :class:`~safeplot._released.FloatRows`, each row read as a list of
        Python floats; :meth:`to_dict` gives them as lists.

    Examples
    --------
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> e = audit.record(DisclosureReport("scatterplot", "deterministic", {"k": 3}, ("x", "y")))
    >>> e.to_dict()["params"]
    {'k': 3}
    """

    time: str
    function: str
    variables: tuple[str, ...]
    method: str
    params: dict[str, Any] = field(hash=False)
    report: dict[str, Any] = field(hash=False)
    figure: str | None
    sequence: int
    policy: dict[str, Any] = field(default_factory=dict, hash=False)
    uid: str = ""
    status: str = ""
    type: str = ""
    summary: str = ""
    files: tuple[str, ...] = ()
    released: dict[str, Any] | None = field(default=None, hash=False)

    @property
    def timestamp(self) -> str:
        """The time of the release (ACRO's name for :attr:`time`)."""
        return self.time

    def to_dict(self) -> dict[str, Any]:
        """Return the entry as plain JSON-serialisable types (a deep copy)."""
        return {
            "uid": self.uid,
            "status": self.status,
            "type": self.type,
            "summary": self.summary,
            "timestamp": self.time,
            "files": list(self.files),
            "time": self.time,
            "function": self.function,
            "variables": list(self.variables),
            "method": self.method,
            "params": copy.deepcopy(self.params),
            "report": copy.deepcopy(self.report),
            "figure": self.figure,
            "sequence": self.sequence,
            "policy": copy.deepcopy(self.policy),
            "released": plain_table(self.released),
        }


_lock = threading.Lock()
_log: list[AuditEntry] = []


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def log_release(
    report: DisclosureReport, *, figure: str | None = None, released: Any = None
) -> None:
    """Append a release to the audit log, as :func:`record` does, returning nothing.

    The plotting functions' path: :func:`record` returns a copy of the entry,
    which for a figure of a million released points is a million-row table
    copied for nobody.

    Examples
    --------
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> audit.log_release(DisclosureReport("histplot", "suppress", {}, ("age",)))
    >>> [e.function for e in audit.entries()]
    ['histplot']
    """
    _append(report, figure=figure, released=released)


def record(
    report: DisclosureReport, *, figure: str | None = None, released: Any = None
) -> AuditEntry:
    """Append a release to the audit log.

    Plot functions log each released figure (:func:`log_release`); call this yourself only
    for releases made outside the plotting functions.

    Parameters
    ----------
    report : DisclosureReport
        The report of the release. Its function, variables, method and
        parameters are copied into the entry, and the whole report is kept as
        a dictionary.
    figure : str, optional
        An id or label of the figure, to match entries to saved files.
    released : optional
        What was released: the release drawn (histogram, grid, points,
        boxes), the released DataFrame, or a plain table
        ``{"columns": [...], "data": [...]}``. Its numbers are kept as the
        entry's ``released`` table. The plotting functions pass it for
        histograms, scatter plots, box plots, ``crosstab``, ``describe``
        and ``corr``; other releases keep None.

    Returns
    -------
    AuditEntry
        The entry appended, with its `sequence` number.

    Raises
    ------
    TypeError
        When `report` is not a :class:`~safeplot.release.DisclosureReport`
        or `figure` is neither a string nor None.

    Examples
    --------
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> audit.record(DisclosureReport("boxplot", "confidential", {"winsor": 2.6}, ("bmi",))).method
    'confidential'
    """
    return _copy_entry(_append(report, figure=figure, released=released))


def _append(report: DisclosureReport, *, figure: str | None, released: Any) -> AuditEntry:
    """Append a release to the log and return the log's own entry (not a copy)."""
    if not isinstance(report, DisclosureReport):
        raise TypeError(
            f"record() takes a safeplot DisclosureReport, got {type(report).__name__}."
        )
    if figure is not None and not isinstance(figure, str):
        raise TypeError(
            f"figure must be a string id or label (or None), got {type(figure).__name__}; "
            "pass for example fig.get_label() or a file name."
        )
    # the session's release ledger sees each release first and may refuse it (invariant 6)
    guard.record(report.function, report, released)
    data = report.to_dict()
    table = _as_table(released)
    floors = _policy_summary(get_policy())
    with _lock:
        sequence = len(_log) + 1
        entry = AuditEntry(
            time=_now(),
            function=str(data["function"]),
            variables=tuple(str(v) for v in data["variables"]),
            method=str(data["method"]),
            params=copy.deepcopy(data["params"]),
            report=data,
            figure=figure,
            sequence=sequence,
            policy=floors,
            uid=f"{sequence:04d}-{uuid.uuid4().hex[:8]}",
            status=status_of(data),
            type=output_type(str(data["function"])),
            summary=_summary_text(data),
            released=table,
        )
        _log.append(entry)
    return entry


def _as_table(released: Any) -> dict[str, Any] | None:
    if released is None:
        return None
    if isinstance(released, dict) and set(released) == {"columns", "data"}:
        # the log holds plain scalars only, so that a copy of a row is a copy of its cells
        with gc_paused():
            return {
                "columns": [str(c) for c in released["columns"]],
                "data": [[_cell(v) for v in row] for row in released["data"]],
            }
    return released_table(released)


_MODEL_FUNCTIONS = {"SafeOLSResults": "safe_ols", "SafeGLMResults": "safe_glm"}


def record_model(fit: Any) -> AuditEntry:
    """Append a fitted safe model's summary to the audit log, with its coefficient table.

    :func:`~safeplot.diagnostics.safe_ols`, :func:`~safeplot.diagnostics.safe_logit`
    and :func:`~safeplot.diagnostics.safe_glm` call this when they fit a
    model, and the model's ``conf_int``, ``summary_frame`` and ``summary``
    log their own entries, so every release of a model is in the log. Call
    it again to log a model anew (after :func:`clear`, say), so that the
    output checker gets its released coefficient table
    (``fit.summary_frame()``) with the figures.

    Parameters
    ----------
    fit : SafeOLSResults or SafeGLMResults
        The fitted model.

    Returns
    -------
    AuditEntry
        The entry appended: function ``"safe_ols"`` or ``"safe_glm"``, method
        ``"confidential"`` (statistics rounded to the policy's significant
        figures, counts rounded), type ``"regression"``.

    Raises
    ------
    TypeError
        When `fit` is not a safe model fit.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot import audit
    >>> audit.clear()
    >>> fit = safeplot.safe_ols("y ~ x", data=safeplot.datasets.simulate("D1", n=200, seed=1))
    >>> [e.function for e in audit.entries()]
    ['safe_ols']
    >>> entry = audit.record_model(fit)
    >>> entry.function, entry.type, entry.released["columns"][:3]
    ('safe_ols', 'regression', ['index', 'coef', 'std err'])
    """
    function = _MODEL_FUNCTIONS.get(type(fit).__name__)
    if function is None:
        raise TypeError(
            "record_model() takes a fitted safe model (the result of safe_ols, safe_logit "
            f"or safe_glm), got {type(fit).__name__}."
        )
    pol = get_policy()
    names = [str(n) for n in fit.params.index if str(n) not in ("Intercept", "const")]
    endog = str(fit.formula.split("~", 1)[0].strip())
    warnings = []
    if fit.n_dropped not in (0, "0"):
        warnings.append(f"{fit.n_dropped} rows with missing values were dropped.")
    report = DisclosureReport(
        function=function,
        method="confidential",
        params={"sig_figs": fit._sig, "formula": fit.formula},
        variables=(endog, *names),
        n=fit.nobs,
        n_dropped=fit.n_dropped,
        warnings=warnings,
        details={"df_resid": fit.df_resid, "df_model": fit.df_model},
        policy=getattr(fit, "_policy_source", pol.source),
    )
    return record(report, figure=None, released=fit._summary_frame(0.05))


def status_of(report: DisclosureReport | dict[str, Any]) -> str:
    """Return an entry's status for an output checker: ``"pass"``, ``"review"`` or ``"fail"``.

    ``"fail"``: raw output (``method="none"``, allowed by the policy), which
    had no disclosure control and is not for release. ``"review"``: the
    report has warnings (rows dropped, boxes left out, ...) a checker should
    read. ``"pass"``: disclosure control applied and nothing to note.
    safeplot logs releases only: a call refused with
    :class:`~safeplot.errors.DisclosureError` draws nothing and is not logged.

    Examples
    --------
    >>> from safeplot.release import DisclosureReport
    >>> status_of(DisclosureReport("hist", "suppress", {"threshold": 3}, ("age",)))
    'pass'
    >>> status_of(DisclosureReport("hist", "none", {}, ("age",)))
    'fail'
    """
    data = report.to_dict() if isinstance(report, DisclosureReport) else report
    if _draws_raw(data.get("method")):
        return "fail"
    return "review" if data.get("warnings") else "pass"


def output_type(function: str) -> str:
    """Return the kind of output a function releases (the entry's ``type``).

    Examples
    --------
    >>> output_type("histplot"), output_type("plot_qq")
    ('histogram', 'plot_qq')
    """
    return _TYPES.get(function, function)


def _summary_text(data: dict[str, Any]) -> str:
    params = ", ".join(f"{k}={v}" for k, v in data.get("params", {}).items())
    variables = ", ".join(data.get("variables", [])) or "data"
    text = f"{data['function']} of {variables}: {data['method']}"
    if params:
        text += f" ({params})"
    text += f"; n={data.get('n')}"
    if data.get("cells_suppressed"):
        cells = data["cells_suppressed"]
        text += f"; {cells} cell{'s' if cells != 1 else ''} suppressed"
    n_warn = len(data.get("warnings", []))
    if n_warn:
        text += f"; {n_warn} warning" + ("s" if n_warn > 1 else "")
    return text


def add_files(figure: str, files: Iterable[str]) -> list[AuditEntry]:
    """Record that the figure `figure` was saved to `files` (its entries' ``files``).

    ``savefig`` calls it for figures with safeplot reports. A file already
    listed is not listed twice.

    Parameters
    ----------
    figure : str
        The figure id the entries carry (:attr:`AuditEntry.figure`).
    files : iterable of str
        File names, as given to ``savefig``.

    Returns
    -------
    list of AuditEntry
        The entries updated (copies).

    Examples
    --------
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> _ = audit.record(DisclosureReport("hist", "suppress", {}, ("age",)), figure="fig-1")
    >>> [e.files for e in audit.add_files("fig-1", ["age.png", "age.pdf"])]
    [('age.png', 'age.pdf')]
    """
    names = [str(f) for f in files]
    updated = []
    with _lock:
        for i, entry in enumerate(_log):
            if entry.figure == figure:
                files_now = tuple(dict.fromkeys(entry.files + tuple(names)))
                _log[i] = dataclasses.replace(entry, files=files_now)
                updated.append(_copy_entry(_log[i]))
    return updated


_COLUMNS = ("uid", "status", "type", "method", "parameters", "files", "timestamp")


def summary(*, file: Any = None) -> str:
    """Print the audit log as a table for a human reader, and return the text.

    One row per release: uid, status, type, method, parameters, files and
    time; then one line per entry with its summary. Nothing in it comes
    from data beyond what the reports hold (never the noise key).

    Parameters
    ----------
    file : file-like, optional
        Where to print (default: standard output).

    Returns
    -------
    str
        The table printed.

    Examples
    --------
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> text = audit.summary()
    safeplot audit log: 0 releases
    >>> _ = audit.record(DisclosureReport("hist", "suppress", {"threshold": 3}, ("age",)))
    >>> import io
    >>> "histogram" in audit.summary(file=io.StringIO())
    True
    """
    logged = entries()
    lines = [f"safeplot audit log: {len(logged)} release" + ("" if len(logged) == 1 else "s")]
    if logged:
        rows = [
            (
                e.uid,
                e.status,
                e.type,
                e.method,
                ", ".join(f"{k}={v}" for k, v in e.params.items()),
                ", ".join(os.path.basename(f) for f in e.files) or "-",
                e.time[:19].replace("T", " "),
            )
            for e in logged
        ]
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(_COLUMNS)]
        for r in [_COLUMNS, ["-" * w for w in widths], *rows]:
            lines.append("  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip())
        lines.append("")
        lines += [f"{e.uid}  {e.summary}" for e in logged]
        for e in logged:
            lines += [f"{e.uid}  warning: {w}" for w in e.report.get("warnings", [])]
    spent = budget_spent()
    if spent:
        budget = get_policy().dp_budget
        lines.append("")
        lines += [
            f"privacy budget of {name!r}: epsilon {eps:g} spent of dp_budget={budget:g}"
            for name, eps in spent.items()
        ]
        from . import ledger

        book = ledger.current()
        delta_budget = get_policy().dp_delta_budget
        lines += [
            f"delta budget of {name!r}: delta {book.delta_spent(name):g} spent of "
            f"dp_delta_budget={delta_budget:g}"
            for name in spent
            if book.delta_spent(name) > 0
        ]
    from ._display import AuditSummary  # the same text, shown as a table in notebooks

    text = AuditSummary("\n".join(lines), logged)
    print(text, file=file)
    return text


def budget_spent() -> dict[str, float]:
    """Return the privacy loss (epsilon) spent so far on each data set by ``method="dp"``.

    Read from the release ledger in force (:func:`safeplot.ledger.current`;
    on a server, the analyst's). Each DP release's own epsilon is in its
    entry's parameters.

    Examples
    --------
    >>> from safeplot import audit
    >>> audit.budget_spent()
    {}
    """
    from . import ledger

    return ledger.current().epsilon_by_dataset()


def _copy_entry(entry: AuditEntry) -> AuditEntry:
    return dataclasses.replace(
        entry,
        params=copy.deepcopy(entry.params),
        report=copy.deepcopy(entry.report),
        released=_copy_table(entry.released),
    )


def _copy_table(table: dict[str, Any] | None) -> dict[str, Any] | None:
    """Return a copy of a released table of the log, row by row.

    The log's tables hold only plain immutable scalars (:func:`record` makes
    them so), so copying each row copies the table; ``copy.deepcopy`` keeps a
    memo of every cell and takes seconds for a million released points.
    Read-only :class:`~safeplot._released.FloatRows` are shared.
    """
    if table is None:
        return None
    if isinstance(table["data"], FloatRows):  # read-only rows: shared, not copied
        return {"columns": list(table["columns"]), "data": table["data"]}
    with gc_paused():
        return {"columns": list(table["columns"]), "data": [list(row) for row in table["data"]]}


def entries() -> list[AuditEntry]:
    """Return the entries of the audit log, oldest first.

    Returns
    -------
    list of AuditEntry
        A copy: changing it (or the dictionaries in it) does not change the
        log.

    Examples
    --------
    >>> from safeplot import audit
    >>> audit.clear()
    >>> audit.entries()
    []
    """
    with _lock:
        return [_copy_entry(e) for e in _log]


def _discard_after(count: int) -> None:
    """Drop the entries after the first `count` (package use: a release refused half-way).

    A figure-level call that fails after some of its panels were released
    leaves no figure, so its panels' entries go as well.
    """
    with _lock:
        del _log[count:]


def _warn_after(count: int, warnings: list[str], groups_left_out: int) -> None:
    """Add `warnings` to the entries after the first `count` (package use).

    A figure-level call that left out groups too small to show (facets, hue
    levels within a facet) says so in every panel's report once all are
    drawn; this says it in those panels' entries as well, with
    ``details["groups_left_out"]`` raised by `groups_left_out` as in the
    reports.
    """
    with _lock:
        for i in range(count, len(_log)):
            report = copy.deepcopy(_log[i].report)
            have = list(report.get("warnings") or [])
            report["warnings"] = have + [w for w in warnings if w not in have]
            details = dict(report.get("details") or {})
            details["groups_left_out"] = int(details.get("groups_left_out", 0)) + groups_left_out
            report["details"] = details
            _log[i] = dataclasses.replace(
                _log[i], report=report, status=status_of(report), summary=_summary_text(report)
            )


def clear() -> None:
    """Empty the audit log; the next entry is numbered 1 again.

    Examples
    --------
    >>> from safeplot import audit
    >>> audit.clear()
    >>> len(audit.entries())
    0
    """
    with _lock:
        _log.clear()


def _policy_summary(pol: Policy) -> dict[str, Any]:
    # Built field by field, so that the noise key (``secret_key``) can never
    # end up in the file, whatever fields Policy gains later.
    return {
        "source": pol.source,
        "threshold": pol.threshold,
        "k_min": pol.k_min,
        "q_min": pol.q_min,
        "winsor_sd": pol.winsor_sd,
        "sig_figs": pol.sig_figs,
        "round_n_to": pol.round_n_to,
        "allow_raw": pol.allow_raw,
        "allowed_methods": sorted(pol.allowed_methods),
        "locked": pol.locked,
    }


def _document() -> dict[str, Any]:
    with _lock:
        logged = [e.to_dict() for e in _log]
    return {
        "safeplot_version": __version__,
        "created": _now(),
        "policy": _policy_summary(get_policy()),
        "entries": logged,
    }


def to_json() -> str:
    """Return the audit log as the JSON text :func:`export` writes.

    The document has four keys: ``safeplot_version``, ``created`` (ISO 8601,
    UTC), ``policy`` (where the policy in force came from and its floors:
    ``threshold``, ``k_min``, ``q_min``, ``winsor_sd``, ``sig_figs``,
    ``round_n_to``, ``allow_raw``, ``allowed_methods``, ``locked``; never the
    noise key) and ``entries`` (one object per :class:`AuditEntry`, as
    :meth:`AuditEntry.to_dict`: ``uid``, ``status``, ``type``, ``method``,
    ``params``, ``summary``, ``timestamp``, ``files``, ``function``,
    ``variables``, ``report``, ``figure``, ``sequence``, ``time``,
    ``policy``). Keys are sorted and the text is indented, so two exports can
    be compared with ``diff``.

    Returns
    -------
    str

    Notes
    -----
    The top-level ``policy`` describes the policy in force when the log is
    exported; each entry's ``policy`` gives the floors its release was made
    under.

    Examples
    --------
    >>> import json
    >>> from safeplot import audit
    >>> audit.clear()
    >>> doc = json.loads(audit.to_json())
    >>> sorted(doc)
    ['created', 'entries', 'policy', 'safeplot_version']
    """
    return json.dumps(_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export(path: str | os.PathLike[str]) -> Path:
    """Write the audit log as JSON for an output checker.

    Parameters
    ----------
    path : path-like
        The file to write (UTF-8); an existing file is replaced. Its folder
        must exist.

    Returns
    -------
    pathlib.Path
        The path written.

    See Also
    --------
    to_json : The text written, and what it contains.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> _ = audit.record(DisclosureReport("histplot", "suppress", {"threshold": 3}, ("age",)))
    >>> out = audit.export(pathlib.Path(tempfile.mkdtemp()) / "audit.json")
    >>> doc = json.loads(out.read_text(encoding="utf-8"))
    >>> [e["function"] for e in doc["entries"]]
    ['histplot']
    """
    path = Path(path).expanduser()
    path.write_text(to_json(), encoding="utf-8")
    return path


def finalise(
    path: str | os.PathLike[str],
    *,
    acro: Any = None,
    log: str | os.PathLike[str] | None = None,
) -> Path:
    """Write a folder for output checkers: figures, supporting CSVs and ACRO's ``results.json``.

    See :func:`safeplot.bundle.finalise`, which this calls, for the layout
    of the folder and how it maps to ACRO's format.

    Parameters
    ----------
    path : path-like
        The folder to write; it must not exist or be empty.
    acro : ACRO session, path-like or None
        ACRO outputs to merge: an ``acro.ACRO`` session (its ``results``) or
        the folder of a finalised ACRO session (with ``results.json``).
    log : path-like, optional
        An audit log written by :func:`export` to finalise instead of this
        process's log.

    Returns
    -------
    pathlib.Path
        The folder written.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> _ = audit.record(DisclosureReport("crosstab", "suppress", {"threshold": 3}, ("a", "b")))
    >>> out = audit.finalise(pathlib.Path(tempfile.mkdtemp()) / "bundle")
    >>> (out / "results.json").is_file()
    True
    """
    if log is not None:
        return _finalise(path, acro=acro, log=log)
    return _finalise(path, acro=acro, records=[e.to_dict() for e in entries()], log_text=to_json())
