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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ._version import __version__
from .policy import Policy, get_policy
from .release import DisclosureReport

__all__ = ["AuditEntry", "clear", "entries", "export", "record", "to_json"]


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

    def to_dict(self) -> dict[str, Any]:
        """Return the entry as plain JSON-serialisable types (a deep copy)."""
        return {
            "time": self.time,
            "function": self.function,
            "variables": list(self.variables),
            "method": self.method,
            "params": copy.deepcopy(self.params),
            "report": copy.deepcopy(self.report),
            "figure": self.figure,
            "sequence": self.sequence,
            "policy": copy.deepcopy(self.policy),
        }


_lock = threading.Lock()
_log: list[AuditEntry] = []


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def record(report: DisclosureReport, *, figure: str | None = None) -> AuditEntry:
    """Append a release to the audit log.

    Plot functions call this once per released figure; call it yourself only
    for releases made outside the plotting functions.

    Parameters
    ----------
    report : DisclosureReport
        The report of the release. Its function, variables, method and
        parameters are copied into the entry, and the whole report is kept as
        a dictionary.
    figure : str, optional
        An id or label of the figure, to match entries to saved files.

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
    if not isinstance(report, DisclosureReport):
        raise TypeError(
            f"record() takes a safeplot DisclosureReport, got {type(report).__name__}."
        )
    if figure is not None and not isinstance(figure, str):
        raise TypeError(
            f"figure must be a string id or label (or None), got {type(figure).__name__}; "
            "pass for example fig.get_label() or a file name."
        )
    data = report.to_dict()
    floors = _policy_summary(get_policy())
    with _lock:
        entry = AuditEntry(
            time=_now(),
            function=str(data["function"]),
            variables=tuple(str(v) for v in data["variables"]),
            method=str(data["method"]),
            params=copy.deepcopy(data["params"]),
            report=data,
            figure=figure,
            sequence=len(_log) + 1,
            policy=floors,
        )
        _log.append(entry)
    return _copy_entry(entry)


def _copy_entry(entry: AuditEntry) -> AuditEntry:
    return dataclasses.replace(
        entry, params=copy.deepcopy(entry.params), report=copy.deepcopy(entry.report)
    )


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
    noise key) and ``entries`` (one object per :class:`AuditEntry`). Keys are
    sorted and the text is indented, so two exports can be compared with
    ``diff``.

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
