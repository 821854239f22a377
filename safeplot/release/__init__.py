"""Releases: exactly the numbers a plot will draw, and the report that goes with them.

A plot function never hands raw data to matplotlib. It validates the input,
turns it into a *release* (anonymised points, suppressed counts on safe bin
edges, vetted axis limits and ticks) and draws only the release. Every release
carries a :class:`DisclosureReport` saying what was done, which ends up on the
Axes (``ax.safeplot_report``) and in the session audit log.

Releases are plain data. :func:`to_dict` writes any release (a histogram, a
Q-Q plot, a box plot, ...) as a dictionary of JSON types, and
:func:`from_dict` builds it back, equal field by field, so that it draws the
same figure; :func:`to_json` and :func:`from_json` do the same with text, and
every release has these as methods too. Arrays keep their dtype and shape,
data frames their dtypes; NaN (a suppressed count) and infinities are
written so that the JSON is strict. A release records its kind by a
registered name (:func:`release_kind`); reading builds only registered
classes.

The dictionary holds everything the release holds, including what only the
drawing guards use (``avoid``: the rare raw values no tick, label or legend
entry may equal) and the exact number of records behind each box. It is for
saving a release and drawing it again inside the secure environment, not an
output to check out: the figure, its report and the audit log are.

Examples
--------
>>> import json
>>> import numpy as np
>>> from safeplot.plots.distributions import release_histogram
>>> rng = np.random.default_rng(0)
>>> rel = release_histogram(rng.normal(50, 10, 300), name="age", method="suppress")
>>> text = json.dumps(to_dict(rel), allow_nan=False)
>>> back = from_dict(json.loads(text))
>>> type(back).__name__, back.counts.dtype, bool(np.array_equal(back.counts, rel.counts, True))
('HistogramRelease', dtype('float64'), True)
>>> HistogramRelease.from_json(rel.to_json()).report.method
'suppress'
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ._serial import from_dict, from_json, release_kind, release_part, to_dict, to_json

__all__ = [
    "DisclosureReport",
    "GridRelease",
    "HistogramRelease",
    "PointRelease",
    "from_dict",
    "from_json",
    "release_kind",
    "release_part",
    "to_dict",
    "to_json",
]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _release_html(kind: str, rows: list[tuple[str, Any]], report: DisclosureReport) -> str:
    from .._display import html_table

    return html_table(rows, caption=kind) + report._repr_html_()


@release_part("DisclosureReport")
@dataclass
class DisclosureReport:
    """What a release did: method, parameters, rounded counts, suppression, warnings.

    Counts of records are rounded by the policy (``round_n_to``) and small
    ones are shown as ``"<threshold"``, so the report itself discloses
    nothing the figure does not.

    Attributes
    ----------
    function : str
        The plotting or anonymising function that made the release.
    method : str
        The disclosure-control method.
    params : dict
        The method's parameters as used (``k``, ``q``, ``threshold``, ...).
    variables : tuple of str
        The variables released.
    n : int or str
        Number of records released, rounded.
    n_dropped : int or str
        Rows dropped for missing values, rounded.
    cells_suppressed : int
        Bins or grid cells removed by small-cell suppression.
    warnings : list of str
        Anything the analyst or output checker should know.
    details : dict
        Method-specific facts (e.g. ``n_coincident`` centroids).
    policy : str
        Where the policy in force came from.

    Examples
    --------
    >>> r = DisclosureReport("histplot", "suppress", {"threshold": 3}, ("age",), n=500)
    >>> r.to_dict()["method"]
    'suppress'
    """

    function: str
    method: str
    params: dict[str, Any] = field(default_factory=dict)
    variables: tuple[str, ...] = ()
    n: int | str = 0
    n_dropped: int | str = 0
    cells_suppressed: int = 0
    warnings: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    policy: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return the report as plain JSON-serialisable types."""
        return _jsonable(dataclasses.asdict(self))

    def to_json(self) -> str:
        """Return the report as a JSON string."""
        return json.dumps(self.to_dict(), indent=2, sort_keys=True)

    def merge(self, other: DisclosureReport) -> DisclosureReport:
        """Combine two reports of one figure (e.g. two panels) into one."""
        return DisclosureReport(
            function=self.function,
            method=self.method,
            params={**self.params, **other.params},
            variables=tuple(dict.fromkeys(self.variables + other.variables)),
            n=self.n,
            n_dropped=self.n_dropped,
            cells_suppressed=self.cells_suppressed + other.cells_suppressed,
            warnings=list(dict.fromkeys(self.warnings + other.warnings)),
            details={**self.details, **other.details},
            policy=self.policy,
        )

    def _repr_html_(self) -> str:
        """Return the report as a small HTML table, as Jupyter shows it."""
        from .._display import html_table

        rows = [
            ("method", self.method),
            ("parameters", ", ".join(f"{k}={v}" for k, v in self.params.items()) or "-"),
            ("variables", ", ".join(self.variables) or "-"),
            ("records (rounded)", self.n),
            ("rows dropped", self.n_dropped),
            ("cells suppressed", self.cells_suppressed),
        ]
        rows += [(str(k), v) for k, v in self.details.items()]
        rows += [("warning", w) for w in self.warnings]
        if self.policy:
            rows.append(("policy", self.policy))
        return html_table(rows, caption=f"DisclosureReport for {self.function}")

    def __str__(self) -> str:
        lines = [
            f"DisclosureReport for {self.function}",
            f"  method            {self.method}",
            f"  parameters        {self.params}",
            f"  variables         {', '.join(self.variables)}",
            f"  records (rounded) {self.n}",
            f"  rows dropped      {self.n_dropped}",
            f"  cells suppressed  {self.cells_suppressed}",
        ]
        lines += [f"  {k:<17} {v}" for k, v in self.details.items()]
        lines += [f"  warning: {w}" for w in self.warnings]
        return "\n".join(lines)


@release_kind("histogram")
@dataclass
class HistogramRelease:
    """A released histogram: safe bin edges and counts, suppressed bins as NaN.

    Attributes
    ----------
    edges : ndarray, shape (m + 1,)
        Bin edges on a rounded grid that extends beyond the data.
    counts : ndarray, shape (m,)
        Counts per bin; suppressed bins are NaN (drawn as gaps).
    xlim : tuple of float
        Axis limits (two bin edges).
    xticks : ndarray
        Tick positions, all on the safe grid.
    report : DisclosureReport
    level : object, optional
        The hue level this histogram describes (None without hue).
    accuracy : float, optional
        For differentially private counts: each count lies within +/- this
        of the true count with 95% probability (drawn as error bars); None
        for exact counts.
    """

    edges: np.ndarray
    counts: np.ndarray
    xlim: tuple[float, float]
    xticks: np.ndarray
    report: DisclosureReport
    level: object = None
    accuracy: float | None = None

    @property
    def suppressed(self) -> np.ndarray:
        """Boolean mask of the suppressed bins."""
        return np.isnan(self.counts)

    def _repr_html_(self) -> str:
        """Return the released bins and the report as HTML, as Jupyter shows them."""
        rows = [
            ("level", "-" if self.level is None else self.level),
            ("bins", len(self.counts)),
            ("suppressed bins", int(self.suppressed.sum())),
            ("edges", f"{self.edges[0]:g} to {self.edges[-1]:g}"),
        ]
        return _release_html("HistogramRelease", rows, self.report)


@release_kind("points")
@dataclass
class PointRelease:
    """Released points (anonymised values or surviving grid-cell centres).

    Attributes
    ----------
    x, y : ndarray
        Coordinates to draw.
    sizes : ndarray, optional
        Marker weights (the cell counts for grid releases), else None.
    xlim, ylim : tuple of float
        Axis limits on the safe grid.
    xticks, yticks : ndarray
        Tick positions on the safe grid.
    coincident : ndarray of bool, optional
        Points whose released value is shared with another record (kNN
        centroids that coincide), drawn distinctly when asked.
    report : DisclosureReport
    """

    x: np.ndarray
    y: np.ndarray
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    sizes: np.ndarray | None = None
    coincident: np.ndarray | None = None

    def _repr_html_(self) -> str:
        """Return what is drawn and the report as HTML, as Jupyter shows them."""
        rows = [
            ("points", len(self.x)),
            ("x limits", f"{self.xlim[0]:g} to {self.xlim[1]:g}"),
            ("y limits", f"{self.ylim[0]:g} to {self.ylim[1]:g}"),
        ]
        if self.coincident is not None:
            rows.append(("coincident points", int(np.sum(self.coincident))))
        return _release_html("PointRelease", rows, self.report)


@release_kind("grid")
@dataclass
class GridRelease:
    """A released two-dimensional density grid: counts per cell, suppressed cells NaN.

    The grid behind suppressed scatter plots, heat maps and contour plots
    (Avraam et al.: 30 x 30 cells, 15 x 15 after generalisation).

    Attributes
    ----------
    xedges, yedges : ndarray
        Cell edges on rounded grids that extend beyond the data.
    counts : ndarray, shape (n_levels, nx, ny)
        Counts per hue level and cell, NaN where suppressed; every other
        count is 0 or at least the threshold.
    levels : list
        The hue level of each slice of `counts` (``[None]`` without hue).
    xlim, ylim : tuple of float
        Axis limits (outer edges).
    xticks, yticks : ndarray
        Tick positions on the safe grid.
    report : DisclosureReport
    accuracy : float, optional
        For differentially private counts: each cell's count lies within
        +/- this of the true count with 95% probability; None for exact
        counts.
    """

    xedges: np.ndarray
    yedges: np.ndarray
    counts: np.ndarray
    levels: list
    xlim: tuple[float, float]
    ylim: tuple[float, float]
    xticks: np.ndarray
    yticks: np.ndarray
    report: DisclosureReport
    accuracy: float | None = None

    @property
    def xcentres(self) -> np.ndarray:
        """Centres of the cells along x."""
        return (self.xedges[:-1] + self.xedges[1:]) / 2

    @property
    def ycentres(self) -> np.ndarray:
        """Centres of the cells along y."""
        return (self.yedges[:-1] + self.yedges[1:]) / 2

    @property
    def total(self) -> np.ndarray:
        """Counts summed over hue levels, shape (nx, ny); NaN where every level is suppressed."""
        shown = np.nansum(self.counts, axis=0)
        return np.where(np.isnan(self.counts).all(axis=0), np.nan, shown)

    def _repr_html_(self) -> str:
        """Return the grid and the report as HTML, as Jupyter shows them."""
        rows = [
            ("cells", f"{len(self.xedges) - 1} x {len(self.yedges) - 1}"),
            ("levels", len(self.levels)),
            ("suppressed cells", int(np.isnan(self.counts).sum())),
            ("x limits", f"{self.xlim[0]:g} to {self.xlim[1]:g}"),
            ("y limits", f"{self.ylim[0]:g} to {self.ylim[1]:g}"),
        ]
        return _release_html("GridRelease", rows, self.report)
