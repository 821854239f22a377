"""A folder an output checker can take as it is: figures, supporting CSVs, ACRO's results file.

:func:`finalise` writes, for the releases of the audit log (this process's,
or one exported with :func:`safeplot.audit.export`):

* each figure file the releases were saved to (PNG, PDF, SVG, ...), copied;
* one CSV per release with the exact numbers released (``<uid>.csv``):
  counts and edges per bin or cell, the points drawn, box summaries, the
  released table or coefficient table;
* ``results.json`` in the format of ACRO's ``Records.finalise_json``, which
  ACRO's ``acro.record.load_records`` and the SACRO viewer read: one record
  per release, with status, type, properties, checks (``sdc``, ``outcome``,
  ``fair.check_status``), command, summary, files, comments and timestamp;
* ``safeplot_audit.json``: the audit log itself, listed as a record for the
  checker only (its uid ends in ``-DONT_RELEASE``, as ACRO's session
  summaries do);
* ``checksums/<file>.txt``: the SHA-256 of every file, as ACRO writes them.

ACRO outputs can be merged in, from a live ``acro.ACRO`` session or from the
folder a finalised ACRO session wrote, so that one folder and one
``results.json`` hold both.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import os
import re
import shutil
import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._progress import progress
from ._version import __version__
from .methods import get_method

__all__ = ["ACRO_FORMAT_VERSION", "ACRO_TYPES", "finalise", "results_version"]

#: The ACRO release whose results format :func:`finalise` writes. ACRO's
#: loader accepts a file only when its ``version`` equals the installed
#: ``acro.__version__``; without ACRO installed, this version is written.
ACRO_FORMAT_VERSION = "1.0.2"

#: ACRO's output type of each safeplot function; any other is ``"custom"``.
ACRO_TYPES = {
    "histplot": "histogram",
    "hist": "histogram",
    "displot": "histogram",
    "crosstab": "table",
    "describe": "table",
    "corr": "table",
    "safe_ols": "regression",
    "safe_glm": "regression",
    # a fitted model's intervals and tables
    "conf_int": "regression",
    "summary": "regression",
    "summary_frame": "regression",
}

#: The policy floor each parameter is checked against.
_FLOORS = {
    "threshold": "threshold",
    "k": "k_min",
    "q": "q_min",
    "winsor": "winsor_sd",
    "winsor_sd": "winsor_sd",
    "sig": "sig_figs",
    "sig_figs": "sig_figs",
}

_LOG_NAME = "safeplot_audit.json"
_LOG_UID = "safeplot_audit_log-DONT_RELEASE"


def results_version() -> str:
    """Return the ``version`` written to ``results.json``.

    The installed ACRO's version when ACRO can be imported (its loader
    accepts only that), else :data:`ACRO_FORMAT_VERSION`.

    Examples
    --------
    >>> results_version().count(".") >= 1
    True
    """
    try:
        from acro.version import __version__ as acro_version
    except ImportError:
        return ACRO_FORMAT_VERSION
    return str(acro_version)


def _prepare(path: str | os.PathLike[str]) -> Path:
    out = Path(path).expanduser()
    if out.exists():
        if not out.is_dir():
            raise ValueError(f"{str(out)!r} exists and is not a folder; choose a new folder name.")
        if any(out.iterdir()):
            raise ValueError(
                f"{str(out)!r} exists and is not empty; finalise writes a new folder. "
                "Choose a new folder name or empty this one."
            )
    out.mkdir(parents=True, exist_ok=True)
    return out


def _read_log(log: str | os.PathLike[str]) -> tuple[list[dict[str, Any]], str, list[Path]]:
    path = Path(log).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text)
    except OSError as exc:
        raise ValueError(
            f"cannot read the audit log {str(path)!r}: {exc.strerror or exc}"
        ) from None
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"{str(path)!r} is not JSON ({exc}); pass a file written by safeplot.audit.export."
        ) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("entries"), list):
        raise ValueError(
            f"{str(path)!r} is not a safeplot audit log (no 'entries' list); pass a file "
            "written by safeplot.audit.export."
        )
    return doc["entries"], text, [Path.cwd(), path.parent.resolve()]


def _find(name: str, bases: list[Path]) -> Path | None:
    candidate = Path(name).expanduser()
    if candidate.is_absolute():
        return candidate if candidate.is_file() else None
    for base in bases:
        if (base / candidate).is_file():
            return base / candidate
    return None


#: Formats whose saved files carry safeplot's record of the release (its audit uids).
_STAMPED = (".png", ".pdf", ".svg", ".svgz")

#: Leading bytes of the other figure formats matplotlib writes.
_MAGIC = {
    ".jpg": (b"\xff\xd8\xff",),
    ".jpeg": (b"\xff\xd8\xff",),
    ".tif": (b"II*\x00", b"MM\x00*"),
    ".tiff": (b"II*\x00", b"MM\x00*"),
    ".eps": (b"%!PS",),
    ".ps": (b"%!PS",),
    ".webp": (b"RIFF",),
}

#: A name the folder can hold: one plain file name, no folder part.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+=@-]*")


def _plain(name: Any, what: str) -> str:
    """Return `name` if it is one plain file name (it cannot leave the folder), else refuse."""
    text = str(name)
    if not _PLAIN_NAME.fullmatch(text) or ".." in text:
        raise ValueError(
            f"{what} {text!r} is not a plain file name (letters, digits and . _ - only, no "
            "folder part): finalise writes every file inside the new folder. Pass the audit "
            "log safeplot.audit.export wrote, unchanged."
        )
    return text


def _check_figure(path: Path, name: str, uid: str) -> None:
    """Refuse a figure file that is not one safeplot saved for release `uid`.

    PNG, PDF and SVG files carry the uids of their releases in their
    metadata (written by ``savefig``); a file of another format must at
    least be an image of that format. A log naming any other file (a data
    file, a figure saved over later without safeplot) would put it in the
    folder as if it were the release.
    """
    suffix = path.suffix.lower()
    content = path.read_bytes()
    if suffix == ".svgz":
        try:
            content = gzip.decompress(content)
        except (OSError, EOFError):
            content = b""
    if suffix in _STAMPED:
        ok = uid.encode("ascii", "replace") in content
        why = "does not carry this release's id in its metadata"
    else:
        ok = content.startswith(_MAGIC.get(suffix, (b"\x00\x00not an image",)))
        why = "is not an image file safeplot can check"
    if not ok:
        raise ValueError(
            f"The figure file {name!r} of release {uid} {why}: it is not the figure saved "
            "for that release (saved over since, or not a figure). Save the figure again "
            "with savefig (PNG, PDF or SVG carry the release's id) and finalise again."
        )


def _unique(name: str, taken: set[str], prefix: str) -> str:
    if name not in taken:
        return name
    stem, ext = os.path.splitext(name)
    n, out = 1, f"{prefix}_{name}"
    while out in taken:
        n += 1
        out = f"{prefix}_{stem}_{n}{ext}"
    return out


def _write_csv(path: Path, table: Mapping[str, Any]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(table["columns"])
        for row in table["data"]:
            writer.writerow(
                ["" if v is None else repr(v) if isinstance(v, float) else v for v in row]
            )


def _draws_raw(method: Any) -> bool:
    """Whether the logged method name is one that draws raw data (no disclosure control).

    A name no method is registered under here (a log written where another
    method was registered) is not taken for raw output.
    """
    try:
        return get_method(method).raw
    except ValueError:
        return False


def _checks(entry: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """One row per check: its status, the value used and the policy floor."""
    report = entry.get("report", {})
    policy = entry.get("policy", {})
    method = entry.get("method")
    rows: dict[str, dict[str, Any]] = {
        "method": {
            "status": "fail" if _draws_raw(method) else "pass",
            "value": method,
            "floor": ", ".join(policy.get("allowed_methods", [])) or None,
        }
    }
    for name, value in entry.get("params", {}).items():
        floor = _FLOORS.get(name)
        if floor is None or policy.get(floor) is None:
            continue
        rows[name] = {"status": "pass", "value": value, "floor": policy[floor]}
    rows["cells_suppressed"] = {
        "status": "pass",
        "value": report.get("cells_suppressed", 0),
        "floor": None,
    }
    for key in ("values_winsorised", "boxes_winsorised", "coincident_centroids"):
        if key in report.get("details", {}):
            rows[key] = {"status": "pass", "value": report["details"][key], "floor": None}
    n_warn = len(report.get("warnings", []))
    rows["warnings"] = {"status": "review" if n_warn else "pass", "value": n_warn, "floor": None}
    return rows


def _sdc(entry: Mapping[str, Any], checks: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """ACRO's ``sdc``: per check the number of cells flagged and their positions in the CSV."""
    summary = {name: 0 if row["status"] == "pass" else 1 for name, row in checks.items()}
    cells: dict[str, list[list[int]]] = {name: [] for name in checks}
    table = entry.get("released")
    if table and "suppressed" in table["columns"] and "count" in table["columns"]:
        flag = table["columns"].index("suppressed")
        col = table["columns"].index("count")
        cells["cells_suppressed"] = [
            [i, col] for i, row in enumerate(table["data"]) if row[flag] is True
        ]
    summary["cells_suppressed"] = int(entry.get("report", {}).get("cells_suppressed", 0))
    return {"summary": summary, "cells": cells}


def _command(entry: Mapping[str, Any]) -> str:
    variables = ", ".join(repr(v) for v in entry.get("variables", []))
    params = "".join(f", {k}={v!r}" for k, v in entry.get("params", {}).items())
    method = entry.get("method")
    return f"safeplot.{entry['function']}({variables}, method={method!r}{params})"


def _record(
    entry: Mapping[str, Any], files: list[str], checks: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    report = entry.get("report", {})
    sdc = _sdc(entry, checks)
    properties = {
        "method": entry["function"],
        "mitigation": entry.get("method"),
        "parameters": entry.get("params", {}),
        "variables": entry.get("variables", []),
        "n": report.get("n"),
        "n_dropped": report.get("n_dropped"),
        "cells_suppressed": report.get("cells_suppressed", 0),
        "details": report.get("details", {}),
        "policy": entry.get("policy", {}),
        "safeplot_type": entry.get("type"),
        "figure": entry.get("figure"),
        "sequence": entry.get("sequence"),
        "tool": f"safeplot {__version__}",
    }
    if "df_resid" in report.get("details", {}):
        properties["dof"] = report["details"]["df_resid"]
    outcome = {
        column: {name: row[column] for name, row in checks.items()}
        for column in ("status", "value", "floor")
    }
    return {
        "uid": entry["uid"],
        "status": entry["status"],
        "type": ACRO_TYPES.get(entry["function"], "custom"),
        "properties": properties,
        "files": [{"name": name, "sdc": sdc} for name in files],
        "outcome": outcome,
        "command": _command(entry),
        "summary": entry.get("summary", ""),
        "timestamp": entry.get("timestamp", entry.get("time", "")),
        "comments": [f"safeplot warning: {w}" for w in report.get("warnings", [])],
        "exception": "",
        "fair": {
            "check_status": {name: row["status"] for name, row in checks.items()},
            "independent": entry.get("variables", []),
        },
    }


def _acro_folder(acro: Any, scratch: Path) -> Path | None:
    """Return the folder of ACRO outputs to merge: given, or written from the session."""
    if isinstance(acro, (str, os.PathLike)):
        folder = Path(acro).expanduser()
        if not folder.is_dir():
            raise ValueError(
                f"acro={str(folder)!r} is not a folder; pass the folder a finalised ACRO "
                "session wrote (acro.finalise(folder, 'json')) or the ACRO session itself."
            )
        if not (folder / "results.json").is_file():
            raise ValueError(
                f"The ACRO folder {str(folder)!r} has no results.json; finalise the ACRO "
                "session with acro.finalise(folder, 'json') (not 'xlsx') first, or pass the "
                "session itself."
            )
        return folder
    records = getattr(acro, "results", acro)
    if not (hasattr(records, "finalise_json") and hasattr(records, "results")):
        raise TypeError(
            "acro must be an acro.ACRO session, its Records (session.results) or the folder "
            f"of a finalised ACRO session, got {type(acro).__name__}."
        )
    if not records.results:
        return None
    records.finalise_json(str(scratch))
    return scratch


def _merge_acro(
    folder: Path, out: Path, results: dict[str, Any], taken: set[str]
) -> dict[str, Any]:
    try:
        doc = json.loads((folder / "results.json").read_text(encoding="utf-8"))
        merged = doc["results"]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ValueError(
            f"{str(folder / 'results.json')!r} is not an ACRO results file ({exc})."
        ) from None
    version = str(doc.get("version"))
    if version != results_version():
        warnings.warn(
            f"The ACRO outputs in {str(folder)!r} were written by ACRO {version}; the merged "
            f"results.json is written in the format of ACRO {results_version()}.",
            UserWarning,
            stacklevel=3,
        )
    for key, rec in merged.items():
        uid = _plain(key, "The ACRO record id")
        n = 1
        while uid in results:
            uid, n = f"acro_{key}" if n == 1 else f"acro_{key}_{n}", n + 1
        rec = dict(rec, uid=uid)
        files = []
        for item in rec.get("files", []):
            source = folder / _plain(item.get("name"), f"The ACRO record {key!r} names a file")
            if not source.resolve().is_relative_to(folder.resolve()):
                raise ValueError(
                    f"The ACRO record {key!r} names {item['name']!r}, a link to a file outside "
                    f"{str(folder)!r}; finalise the ACRO session again."
                )
            if not source.is_file():
                raise ValueError(
                    f"The ACRO record {key!r} names {item['name']!r}, which is not in "
                    f"{str(folder)!r}; finalise the ACRO session again."
                )
            name = _unique(item["name"], taken, uid)
            shutil.copy2(source, out / name)
            taken.add(name)
            files.append({**item, "name": name})
        rec["files"] = files
        results[uid] = rec
    return doc.get("tool", {"name": "ACRO", "version": version})


def _write_checksums(out: Path) -> None:
    folder = out / "checksums"
    folder.mkdir(exist_ok=True)
    for item in sorted(out.iterdir()):
        if item.is_file():
            digest = hashlib.sha256(item.read_bytes()).hexdigest()
            (folder / f"{item.name}.txt").write_text(digest, encoding="utf-8")


def finalise(
    path: str | os.PathLike[str],
    *,
    acro: Any = None,
    log: str | os.PathLike[str] | None = None,
    records: list[dict[str, Any]] | None = None,
    log_text: str | None = None,
) -> Path:
    """Write a folder for output checkers: figures, supporting CSVs and ACRO's ``results.json``.

    :func:`safeplot.audit.finalise` calls this with the audit log of the
    process; call it directly with ``log=`` (an exported log).

    Parameters
    ----------
    path : path-like
        The folder to write. It must not exist, or be an empty folder.
    acro : acro.ACRO, acro Records, path-like or None
        ACRO outputs to merge into the same folder and ``results.json``: a
        live ACRO session (its ``results`` are written with ACRO's own
        ``finalise_json``, which leaves the session as it was) or the folder
        of a finalised ACRO session (``acro.finalise(folder, "json")``).
        ACRO's uids (``output_0``, ...) are kept; one that a safeplot uid
        already uses is prefixed with ``acro_``, and file names are made
        unique the same way.
    log : path-like, optional
        An audit log written by :func:`safeplot.audit.export`, to finalise
        in a new process (the ``safeplot finalise`` command). By default the
        audit log of this process is used. The figure files the log names
        are looked for as given, relative to the current folder, then
        relative to the folder of the log.
    records, log_text : optional
        The entries of a log (as ``AuditEntry.to_dict()``) and its JSON text,
        when `log` is not given (what :func:`safeplot.audit.finalise` passes).

    Returns
    -------
    pathlib.Path
        The folder written.

    Raises
    ------
    ValueError
        When `path` exists and is a file or a folder that is not empty, a
        figure file the log names cannot be found or is not the figure
        saved for its release (a PNG, PDF or SVG file must carry the
        release's uid in its metadata, as ``savefig`` writes it), a uid or
        an ACRO file name is not a plain file name, the log cannot be read,
        or an ACRO folder has no ``results.json``. Nothing is left behind
        when finalise fails.
    TypeError
        When `acro` is neither an ACRO session nor a folder.

    Notes
    -----
    One record per release of the log, keyed by its audit uid (the uid the
    saved figure's metadata lists). ``status`` is the entry's
    (:func:`safeplot.audit.status_of`), ``type`` ACRO's name where one fits
    (:data:`ACRO_TYPES`), else ``"custom"``. Each check (the method, every
    parameter with a policy floor, cells suppressed, winsorised values,
    coincident centroids, warnings) is a row of ``outcome`` (columns
    ``status``, ``value``, ``floor``), an item of ``fair["check_status"]``
    and of ``sdc["summary"]``; ``sdc["cells"]["cells_suppressed"]`` gives
    the (row, column) of each suppressed count in the release's CSV.
    Warnings become ``comments``. See :doc:`/guide_output_checkers`.

    Examples
    --------
    >>> import json, tempfile, pathlib
    >>> from safeplot import audit
    >>> from safeplot.release import DisclosureReport
    >>> audit.clear()
    >>> entry = audit.record(
    ...     DisclosureReport("crosstab", "suppress", {"threshold": 3}, ("a", "b")),
    ...     released={"columns": ["a", "x", "y"], "data": [["p", 4, None]]},
    ... )
    >>> out = audit.finalise(pathlib.Path(tempfile.mkdtemp()) / "bundle")
    >>> doc = json.loads((out / "results.json").read_text())
    >>> rec = doc["results"][entry.uid]
    >>> rec["type"], [f["name"] for f in rec["files"]] == [f"{entry.uid}.csv"]
    ('table', True)
    >>> (out / rec["files"][0]["name"]).read_text().splitlines()
    ['a,x,y', 'p,4,']
    """
    if log is None:
        if records is None or log_text is None:
            raise TypeError(
                "finalise() needs a log: give log= (a log written by safeplot.audit.export), "
                "or call safeplot.audit.finalise to finalise this process's log."
            )
        logged, bases = list(records), [Path.cwd()]
    else:
        logged, log_text, bases = _read_log(log)
    sources = {}
    for entry in logged:
        _plain(entry.get("uid"), "The release uid")
        for name in entry.get("files", []):
            found = _find(name, bases)
            if found is None:
                raise ValueError(
                    f"The figure file {name!r} of release {entry.get('uid')} does not exist "
                    f"(looked in {', '.join(str(b) for b in bases)}). Run finalise where the "
                    "figures were saved, or keep them beside the exported audit log."
                )
            _check_figure(found, name, entry["uid"])
            sources[name] = found
    with tempfile.TemporaryDirectory() as scratch:
        folder = None if acro is None else _acro_folder(acro, Path(scratch) / "acro")
        created = not Path(path).expanduser().exists()
        out = _prepare(path)
        try:
            _write(out, logged, log_text, sources, folder)
        except BaseException:
            # no half-written folder is left behind for a checker to take as finished
            if created:
                shutil.rmtree(out)
            else:
                for item in out.iterdir():
                    _remove(item)
            raise
    return out


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def _write(
    out: Path,
    logged: list[dict[str, Any]],
    log_text: str,
    sources: dict[str, Path],
    folder: Path | None,
) -> None:
    results: dict[str, Any] = {}
    taken: set[str] = {"results.json", _LOG_NAME, "checksums"}
    copied: dict[Path, str] = {}
    for entry in progress(logged, desc="finalise", unit="release"):
        files = []
        for name in entry.get("files", []):
            source = sources[name].resolve()
            if source not in copied:
                copied[source] = _unique(source.name, taken, entry["uid"])
                taken.add(copied[source])
                shutil.copy2(source, out / copied[source])
            files.append(copied[source])
        table = entry.get("released")
        if table:
            csv_name = _unique(f"{entry['uid']}.csv", taken, "safeplot")
            taken.add(csv_name)
            _write_csv(out / csv_name, table)
            files.append(csv_name)
        if not files:  # ACRO's loader needs a file per record: the report itself
            name = _unique(f"{entry['uid']}_report.json", taken, "safeplot")
            taken.add(name)
            text = json.dumps(entry.get("report", {}), indent=2, sort_keys=True)
            (out / name).write_text(text + "\n", encoding="utf-8")
            files.append(name)
        results[entry["uid"]] = _record(entry, files, _checks(entry))
    (out / _LOG_NAME).write_text(log_text, encoding="utf-8")
    results[_LOG_UID] = {
        "uid": _LOG_UID,
        "status": "review",
        "type": "custom",
        "properties": {},
        "files": [{"name": _LOG_NAME, "sdc": {}}],
        "outcome": {},
        "command": "custom",
        "summary": "review",
        "timestamp": json.loads(log_text).get("created", ""),
        "comments": ["DO NOT RELEASE - safeplot audit log, for the output checker only"],
        "exception": "",
        "fair": {},
    }
    tool = {
        "@type": "SoftwareApplication",
        "name": "safeplot",
        "version": __version__,
    }
    if folder is not None:
        tool["merged"] = [_merge_acro(folder, out, results, taken)]
    document = {"version": results_version(), "tool": tool, "results": results}
    with open(out / "results.json", "w", newline="", encoding="utf-8") as fh:
        json.dump(document, fh, indent=4, ensure_ascii=False)
    _write_checksums(out)
