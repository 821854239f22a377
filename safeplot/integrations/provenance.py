"""The method and parameters of every release, in the metadata of the saved figure.

matplotlib has no hook for saving, so importing safeplot wraps
:meth:`matplotlib.figure.Figure.savefig` once (:func:`install`). The wrapper
acts only on figures with at least one Axes carrying a ``safeplot_report``;
any other figure is saved exactly as before. For a figure with reports it

* writes a provenance record (:func:`provenance`: the safeplot version, the
  figure's id and, per Axes, the report: function, method, parameters,
  rounded counts, cells suppressed, warnings; never data, never the noise key)
  into the file's metadata:

  ========  ==============================================================
  format    metadata
  ========  ==============================================================
  PNG       tEXt ``Software`` = ``"safeplot <version>"``, ``safeplot`` = the
            record as JSON, ``Description`` = a one-line summary
  PDF       Info ``Creator`` = ``"safeplot <version>"``, ``Subject`` = the
            summary, ``Keywords`` = the record as JSON
  SVG       Dublin Core ``Creator``, ``Description`` = the record as JSON,
            ``Keywords`` = ``safeplot`` and the methods
  ========  ==============================================================

  (``svgz`` as SVG; other formats are saved without it);
* adds the file name to the audit entries of the figure's releases
  (:func:`safeplot.audit.add_files`), so the exported log says which file
  shows which release.

Metadata given with ``savefig(..., metadata={...})`` is kept and wins over
safeplot's values (``Software``, ``Creator``, ``Subject``, ...), except the
key holding the JSON record (PNG ``safeplot``, PDF ``Keywords``, SVG
``Description``): that one is always safeplot's, cannot be removed (``None``)
or replaced, and a user value for it is dropped with a warning naming keys
that can be used instead.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from typing import Any

from matplotlib import rcParams
from matplotlib.figure import Figure

from .. import audit
from .._version import __version__
from ..plots._common import _figure_label

__all__ = ["JSON_KEY", "figure_reports", "install", "provenance", "summary_line"]

#: Per format, the metadata key that carries the JSON record.
JSON_KEY = {"png": "safeplot", "pdf": "Keywords", "svg": "Description", "svgz": "Description"}

#: Other keys a user can set instead of the protected one, per format.
_INSTEAD = {
    "png": "'Description', 'Comment' or 'Title'",
    "pdf": "'Title' or 'Subject'",
    "svg": "'Title' or 'Subject'",
    "svgz": "'Title' or 'Subject'",
}

_MARK = "_safeplot_provenance"


def _all_axes(fig: Any) -> list:
    seen, out = set(), []
    stack = [fig]
    while stack:
        f = stack.pop()
        for ax in f.get_axes():
            if id(ax) not in seen:
                seen.add(id(ax))
                out.append(ax)
        stack.extend(getattr(f, "subfigs", []))
    return out


def figure_reports(fig: Figure) -> list:
    """Return the reports of the Axes of `fig` (subfigures included), in Axes order.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> figure_reports(fig)
    []
    >>> plt.close(fig)
    """
    return [
        ax.safeplot_report
        for ax in _all_axes(fig)
        if getattr(ax, "safeplot_report", None) is not None
    ]


def _params_text(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def summary_line(reports: list) -> str:
    """Return a one-line description of the releases: function, method, parameters.

    Examples
    --------
    >>> from safeplot.release import DisclosureReport
    >>> line = summary_line([DisclosureReport("hist", "suppress", {"threshold": 3}, ("age",))])
    >>> line.split(": ", 1)[1]
    'hist of age, method=suppress (threshold=3)'
    """
    parts = []
    for r in reports:
        part = f"{r.function} of {', '.join(r.variables) or 'data'}, method={r.method}"
        if r.params:
            part += f" ({_params_text(r.params)})"
        parts.append(part)
    return f"safeplot {__version__}: " + "; ".join(parts)


def provenance(fig: Figure) -> dict[str, Any] | None:
    """Return the provenance record of `fig` (None when no Axes carries a report).

    Returns
    -------
    dict or None
        ``safeplot_version``, ``figure`` (the id its audit entries carry),
        ``audit_uids`` (the uids of those entries) and ``axes`` (one report
        dictionary per Axes with a report: function, method, params,
        variables, rounded n, cells suppressed, warnings, details, policy).

    Examples
    --------
    >>> import matplotlib.pyplot as plt, numpy as np, safeplot
    >>> fig, ax = plt.subplots()
    >>> _ = safeplot.hist(np.random.default_rng(0).normal(size=300), ax=ax)
    >>> record = provenance(fig)
    >>> record["axes"][0]["method"], record["safeplot_version"] == safeplot.__version__
    ('suppress', True)
    >>> plt.close(fig)
    """
    reports = figure_reports(fig)
    if not reports:
        return None
    label = _figure_label(_first_reported_axes(fig))
    return {
        "safeplot_version": __version__,
        "figure": label,
        "audit_uids": [e.uid for e in audit.entries() if e.figure == label],
        "axes": [r.to_dict() for r in reports],
    }


def _first_reported_axes(fig: Figure):
    for ax in _all_axes(fig):
        if getattr(ax, "safeplot_report", None) is not None:
            return ax
    raise LookupError("no Axes with a report")  # pragma: no cover


def _format(fname: Any, fmt: str | None) -> str:
    if fmt is not None:
        return str(fmt).lower()
    if isinstance(fname, (str, os.PathLike)):
        ext = os.path.splitext(os.fspath(fname))[1]
        if ext:
            return ext[1:].lower()
    return str(rcParams["savefig.format"]).lower()


def _file_name(fname: Any) -> str | None:
    if isinstance(fname, (str, os.PathLike)):
        return os.fspath(fname)
    name = getattr(fname, "name", None)
    return name if isinstance(name, str) else None


def _metadata(fmt: str, record: dict, reports: list, given: dict | None) -> dict | None:
    """Merge safeplot's metadata for `fmt` with the user's (user wins, JSON key protected)."""
    if fmt not in JSON_KEY:
        return given
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    line = summary_line(reports)
    creator = f"safeplot {__version__}"
    if fmt == "png":
        ours = {"Software": creator, "Description": line, "safeplot": text}
    elif fmt == "pdf":
        ours = {"Creator": creator, "Subject": line, "Keywords": text}
    else:
        methods = sorted({r.method for r in reports})
        ours = {"Creator": creator, "Description": text, "Keywords": ["safeplot", *methods]}
    merged = {**ours, **(given or {})}
    key = JSON_KEY[fmt]
    if given and key in given and given[key] != text:
        warnings.warn(
            f"savefig: metadata[{key!r}] holds safeplot's record of the released plot in "
            f"{fmt.upper()} files and cannot be replaced or removed; your value was dropped. "
            f"Use {_INSTEAD[fmt]} instead.",
            UserWarning,
            stacklevel=4,
        )
    merged[key] = text
    return merged


def install() -> None:
    """Wrap :meth:`matplotlib.figure.Figure.savefig` to write provenance (idempotent).

    Called when :mod:`safeplot` is imported. Figures without safeplot
    reports are saved exactly as before.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> install()
    >>> install()  # a second call changes nothing
    >>> getattr(Figure.savefig, "_safeplot_provenance", False)
    True
    """
    if getattr(Figure.savefig, _MARK, False):
        return
    original = Figure.savefig

    @functools.wraps(original)
    def savefig(self, fname, *args, **kwargs):
        record = provenance(self)
        if record is None:
            return original(self, fname, *args, **kwargs)
        reports = figure_reports(self)
        fmt = _format(fname, kwargs.get("format"))
        meta = _metadata(fmt, record, reports, kwargs.get("metadata"))
        if meta is not None:
            kwargs["metadata"] = meta
        result = original(self, fname, *args, **kwargs)
        name = _file_name(fname)
        if name is not None:
            audit.add_files(record["figure"], [name])
        return result

    setattr(savefig, _MARK, True)
    savefig.__wrapped__ = original
    Figure.savefig = savefig


install()
