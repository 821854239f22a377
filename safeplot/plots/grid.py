"""The two-dimensional density grid behind heat maps, contour plots and suppressed scatters.

:func:`release_grid` counts the records of two variables in a grid of cells
on safe rounded edges (Avraam et al.: 30 x 30) and releases the counts under
a method: small cells suppressed (``"suppress"``), the grid coarsened first
(``"generalize"``, 15 x 15), or the counts of anonymised values
(``"deterministic"``, ``"probabilistic"``, ``"confidential"``), which are
suppressed as well so that no drawn count lies in ``(0, threshold)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validate import clean_numeric
from ..anonymize.grids import (
    RareValues,
    cell_counts,
    cell_index,
    coarsen_cell_index,
    grid_counts,
    safe_edges,
    safe_ticks,
)
from ..anonymize.suppression import coarsen_counts, coarsen_edges, suppress, trim_to_shown
from ..errors import DisclosureError
from ..methods import (
    AnonymizedValues,
    anonymize_values,
    available_methods,
    get_method,
    refuse_unsupported,
)
from ..policy import Policy, get_policy
from ..release import GridRelease, guard
from ..sources.dask import DaskColumns, check_dask_method, grid_step, is_dask_collection
from ._categories import index_of
from ._common import (
    check_positive_int,
    dropped_warning,
    make_report,
    refuse_if_nothing_shown,
)
from ._data import categorical_order, facet_codes, rows_without_level

__all__ = [
    "GRID_BINS",
    "GRID_METHODS",
    "MIN_GRID_BINS",
    "default_grid_bins",
    "grid_bins_for",
    "grid_panels",
    "release_grid",
    "release_private_grid",
]

#: Cells per axis of the density grid (Avraam et al.), and the most :func:`grid_bins_for` picks.
GRID_BINS = 30

#: The fewest cells per axis :func:`grid_bins_for` picks.
MIN_GRID_BINS = 5


def grid_bins_for(n: int, threshold: int, *, curve: bool = False) -> int:
    """Return the cells per axis of a density grid of `n` records: ``sqrt(n / threshold)``.

    The rule is ``clip(round(sqrt(n / threshold)), 5, 30)``: a grid of
    ``b x b`` cells over the span of the records holds ``threshold``
    records per cell on average, so a typical cell can be shown. Records
    fill only part of the box that spans them (an ellipse fills about half
    of it, a curve less), so an occupied cell holds more than that on
    average and most occupied cells survive suppression, while the grid
    stays as fine as the threshold allows. At the paper's threshold of 3,
    the 344 penguins get 11 x 11 cells, 500 records 13 x 13, and from
    2,700 records on the paper's 30 x 30 (the cap, :data:`GRID_BINS`);
    below about 90 records the grid stays at 5 x 5 (:data:`MIN_GRID_BINS`),
    where suppression rather than resolution decides what is shown. A
    larger threshold asks for more records per cell, so a coarser grid.

    Records on a monotone curve (the points of a Q-Q plot, ``curve=True``)
    cross between ``b`` and ``2b`` cells of a ``b x b`` grid rather than
    filling an area, so ``b`` grows with ``n`` rather than its square root:
    ``clip(round(n / (4 * threshold)), 5, 30)``, which leaves a crossed cell
    ``2 * threshold`` records or more on average (30 x 30 from 360 records
    at a threshold of 3).

    Like seaborn's bin rules this depends on the number of records only
    (never on where they lie). :func:`release_grid` passes the number of
    complete records as its report states it (rounded by the policy's
    ``round_n_to``), so the grid's size tells a reader nothing more.

    Parameters
    ----------
    n : int
        Number of complete records.
    threshold : int
        The smallest count a cell may show (the policy's ``threshold``).
    curve : bool, default False
        The records lie on a monotone curve (a Q-Q plot's points).

    Returns
    -------
    int
        Cells per axis, from 5 to 30.

    Examples
    --------
    >>> grid_bins_for(344, 3), grid_bins_for(500, 3), grid_bins_for(10_000, 3)
    (11, 13, 30)
    >>> grid_bins_for(20, 3), grid_bins_for(344, 10)
    (5, 6)
    >>> grid_bins_for(120, 3, curve=True), grid_bins_for(500, 3, curve=True)
    (10, 30)
    """
    n = max(int(n), 0)
    threshold = max(int(threshold), 1)
    cells = n / (4 * threshold) if curve else np.sqrt(n / threshold)
    return int(np.clip(round(float(cells)), MIN_GRID_BINS, GRID_BINS))


def default_grid_bins(
    n: int,
    method: str,
    threshold: int | None = None,
    policy: Policy | None = None,
    *,
    curve: bool = False,
) -> int:
    """Return the cells per axis of a density grid whose caller gave no ``bins``.

    :func:`grid_bins_for` of the number of complete records as a report
    states it (rounded by the policy's ``round_n_to``; a count below the
    threshold counts as 0), at the threshold in force, so that the grid's
    size tells a reader no more than the report. A private method
    (``"dp"``) gets :data:`GRID_BINS`: the cells of a private grid are fixed
    before the data is read, so they may not depend on `n`.

    Parameters
    ----------
    n : int
        Number of complete records (before rounding).
    method : str
        The method of the release (a registered name).
    threshold : int, optional
        The threshold asked for (default and floor: the policy's; the
        policy's for raw output, which has none).
    policy : Policy, optional
    curve : bool, default False
        The records lie on a monotone curve (see :func:`grid_bins_for`).

    Returns
    -------
    int
        Cells per axis, from 5 to 30.

    Examples
    --------
    >>> default_grid_bins(344, "suppress"), default_grid_bins(344, "dp")
    (11, 30)
    >>> default_grid_bins(344, "suppress", threshold=10), default_grid_bins(2, "suppress")
    (6, 5)
    """
    pol = get_policy(policy)
    m = get_method(method)
    if m.private:
        return GRID_BINS
    stated = pol.round_count(n)
    stated = 0 if isinstance(stated, str) else stated  # "<threshold"
    chosen = pol.threshold if threshold is None or m.raw else pol.check_threshold(threshold)
    return grid_bins_for(stated, chosen, curve=curve)


#: Methods a density-grid release supports (every family: value methods are counted too).
GRID_METHODS = tuple(
    m.name for m in available_methods() if not m.plot_kinds or "heatmap" in m.plot_kinds
)

_HUE = "\x00hue"


def _link_cells(
    counts: np.ndarray,
    raw: np.ndarray,
    cells: np.ndarray,
    codes: np.ndarray,
    hue: Any,
    levels: list[Any],
    xedges: np.ndarray,
    yedges: np.ndarray,
    function: str,
    unlabelled: tuple[np.ndarray, np.ndarray] | None = None,
    facets: guard.FacetTable | None = None,
    partition: Any = None,
) -> np.ndarray:
    """Apply the ledger's secondary suppression to a grid of raw counts per level.

    A grid with ``hue`` and one without, of the same records, would give a
    suppressed cell as the cell's total minus the shown levels; the ledger
    hides one more cell where that difference would be a small count (as
    for histograms, :func:`safeplot.plots.distributions.release_histograms`).
    The records of levels left out of `hue_order` are in the cells' totals
    too, as one more level whose every cell is hidden
    (:func:`~safeplot.release.guard.link_levels`). `cells` is each record's
    cell on the edges (:func:`~safeplot.anonymize.grids.cell_index`).
    `unlabelled` gives the records with no hue level (a missing hue) and
    their cells: a grid without ``hue`` counts them, so they join the link
    as records of a level not drawn (:class:`~safeplot.release.guard.Unlabelled`).
    With `facets` (:func:`grid_panels`), the levels are the cells of a table
    of facets by hue levels, and `facets` covers the records followed by the
    unlabelled ones; `partition` names the hue for the ledger.
    """
    if facets is None:
        partition = None if hue is None else ("hue", *map(str, levels))
    if unlabelled is not None and unlabelled[0].shape[0]:
        raw, codes, _ = guard.Unlabelled(unlabelled[0]).join(raw, codes, None)
        cells = np.concatenate([cells, unlabelled[1]])
    rows = np.arange(raw.shape[0])  # the records of a margin, as row numbers

    def link(sub: np.ndarray, per: dict, part: Any) -> dict:
        whole = sub is rows  # every record: no copies
        x, y = (raw[:, 0], raw[:, 1]) if whole else (raw[sub, 0], raw[sub, 1])
        return guard.link_cells(
            x,
            y,
            xedges,
            yedges,
            per,
            partition=part,
            function=function,
            cells=cells if whole else cells[sub],
        )

    return np.stack(guard.link_levels(rows, codes, list(counts), partition, link, facets=facets))


def _missing_hue(x: ArrayLike, y: ArrayLike, hue: ArrayLike) -> np.ndarray:
    """Rows (x, y) of the records with both values finite and a missing hue.

    They are left out of the grids per level, but a grid without ``hue``
    counts them; the release ledger links them (:func:`_link_cells`).
    """
    import pandas as pd

    frame = pd.DataFrame(
        {"x": np.asarray(x), "y": np.asarray(y), "hue": np.asarray(hue, dtype=object)}
    )
    rows = rows_without_level(frame, ["x", "y"], ["hue"])
    return frame.loc[rows, ["x", "y"]].to_numpy(dtype=float)


def release_grid(
    x: ArrayLike,
    y: ArrayLike,
    *,
    names: tuple[str, str] = ("x", "y"),
    hue: ArrayLike | None = None,
    hue_order: list[Any] | None = None,
    method: str | None = None,
    bins: int | None = GRID_BINS,
    threshold: int | None = None,
    factor: int = 2,
    k: int | None = None,
    q: float | None = None,
    metric: str = "euclidean",
    kind: str = "heatmap",
    n_dropped: int = 0,
    function: str = "heatmap",
    policy: Policy | None = None,
    released: AnonymizedValues | None = None,
    epsilon: float | None = None,
    binrange: Any = None,
    facets: guard.FacetTable | None = None,
    partition: Any = None,
    unlabelled: ArrayLike | None = None,
) -> GridRelease:
    """Release the counts of (x, y) in a grid of cells, per hue level.

    Parameters
    ----------
    x, y : array-like, shape (n,)
        Raw values; rows with a missing value are dropped and reported.
    names : tuple of str
        Variable names (report, keyed noise).
    hue : array-like, shape (n,), optional
        A category per record: one grid per level, on common edges. The
        deterministic method searches neighbours within each level.
    hue_order : list, optional
        Order of the hue levels.
    method : str, optional
        Default: the policy's method for `kind`.
    bins : int or None, default 30
        Cells per axis before generalisation. None: chosen by the number of
        complete records, :func:`grid_bins_for` (for ``method="dp"``: 30,
        as the cells of a private grid may not depend on the data).
    threshold : int, optional
        Minimum count of a shown cell (default and floor: the policy's).
    factor : int, default 2
        Coarsening of ``"generalize"``.
    k, q, metric
        Parameters of the value methods.
    kind : str, default "heatmap"
        Plot kind, for the policy's default method.
    n_dropped : int
        Rows the caller already dropped.
    function : str
        Calling function, for the report.
    policy : Policy, optional
    released : AnonymizedValues, optional
        Values already released from (x, y) by `method` (a value method),
        row for row, two columns: they are counted instead of anonymising
        (x, y) again, so that the grid describes the same released data as
        another panel (pair and joint plots). Rows are matched after
        dropping missing values, so give complete (x, y).
    epsilon : float, optional
        Privacy loss of a ``method="dp"`` release (default 1.0), spent from
        the policy's ``dp_budget`` (see :func:`release_private_grid`).
    binrange : (low, high) or ((xlow, xhigh), (ylow, yhigh)), optional
        ``method="dp"`` only: the span of the cells, fixed before the data
        is read (one pair for both axes, or one per axis). An axis without
        one spends part of epsilon on a differentially private range.
    facets, partition
        For :func:`grid_panels`: the hue levels are the cells of a table of
        facets by hue levels (:class:`~safeplot.release.guard.FacetTable`,
        over the complete records in row order, then those with a missing
        level), and `partition` names the hue for the release ledger.
    unlabelled : array-like, shape (m, 2), optional
        Rows (x, y) of records the caller left out for a missing level of
        a grouping given as `hue` (a scatter plot's style, say): neither
        counted nor reported, but linked by the release ledger as records
        of a level not drawn, as those with a missing `hue` are.

    Returns
    -------
    GridRelease

    Examples
    --------
    >>> import numpy as np
    >>> x, y = np.random.default_rng(0).normal(size=(2, 500))
    >>> rel = release_grid(x, y, method="suppress")
    >>> rel.counts.shape  # one level; the 30 x 30 grid trimmed to the cells shown
    (1, 12, 15)
    >>> shown = rel.counts[~np.isnan(rel.counts)]
    >>> bool(((shown == 0) | (shown >= 3)).all())
    True
    """
    pol = get_policy(policy)
    method = pol.check_method(method, kind)
    # a bivariate histogram reaches here with the kind "hist"; its grid is a heat map's
    refuse_unsupported(method, "heatmap", function)
    m = get_method(method)
    if names[0] == names[1]:
        raise ValueError(f"x and y need different names, got {names[0]!r} twice.")
    if bins is not None:
        bins = check_positive_int("bins", bins)
    columns: dict[str, Any] = {names[0]: x, names[1]: y}
    if hue is not None:
        columns[_HUE] = hue
    source = None
    if is_dask_collection(x):  # a dask DataFrame's columns: counted out of core
        check_dask_method(method, function)
        source = _dask_source(x, y, hue, hue_order, function)
        raw = np.column_stack([source.span_values(j)[:2] for j in range(2)])  # extremes only
        n_dropped += source.n_dropped
        levels, codes = source.levels, np.full(2, -1)
    else:
        clean = clean_numeric(columns, list(names), strata=[_HUE] if hue is not None else None)
        raw = clean.values
        n_dropped += clean.n_dropped
    given = None if unlabelled is None else np.asarray(unlabelled, dtype=float).reshape(-1, 2)
    unlabelled = None
    if source is None and hue is not None:
        unlabelled = _missing_hue(x, y, hue)
        if given is not None:
            unlabelled = np.concatenate([unlabelled, given])
        present = [lab[0] for lab in clean.strata_labels]
        import pandas as pd

        levels = categorical_order(pd.Series(present), hue_order)
        codes = np.array([levels.index(p) if p in levels else -1 for p in present])[clean.strata]
    elif source is None:
        levels, codes = [None], np.zeros(raw.shape[0], dtype=int)
    if bins is None:  # by n; a private grid's cells are fixed before the data is read
        n_complete = raw.shape[0] if source is None else source.n
        bins = default_grid_bins(n_complete, method, threshold, pol, curve=kind == "qq")
    if m.private:
        if released is not None:
            raise ValueError(f"released= needs a value method, not method={method!r}.")
        return release_private_grid(
            raw,
            codes,
            levels,
            m,
            names=names,
            bins=bins,
            binrange=binrange,
            epsilon=epsilon,
            function=function,
            policy=pol,
        )
    if epsilon is not None:
        raise ValueError(
            f"{function}: epsilon= is the privacy loss of method='dp'; method={method!r} "
            "takes no epsilon."
        )
    if binrange is not None:
        raise ValueError(
            f"{function}: binrange= fixes the cells of a method='dp' grid; the other methods "
            "place their cells on a safe grid of their own. Leave binrange out."
        )
    if m.raw:
        xedges = np.histogram_bin_edges(raw[:, 0], bins)
        yedges = np.histogram_bin_edges(raw[:, 1], bins)
        counts = np.stack(
            [grid_counts(*raw[codes == i].T, xedges, yedges) for i in range(len(levels))]
        ).astype(float)
        report = make_report(function, method, {"bins": bins}, names, raw.shape[0], n_dropped, pol)
        xlim, ylim = (xedges[0], xedges[-1]), (yedges[0], yedges[-1])
        return GridRelease(
            xedges,
            yedges,
            counts,
            levels,
            xlim,
            ylim,
            safe_ticks(*xlim),
            safe_ticks(*ylim),
            report,
        )
    threshold = pol.check_threshold(threshold)
    if source is None:
        rare = [RareValues(raw[:, j], threshold) for j in range(2)]  # looked up near the grid
    else:
        step = min(grid_step(source, j, bins) for j in range(2))
        rare = source.rare_columns([0, 1], threshold, step=step)
    params: dict[str, Any] = {"threshold": threshold, "bins": bins}
    details: dict[str, Any] = {}
    if released is not None:
        if not m.moves_values:
            raise ValueError(f"released= needs a value method, not method={method!r}.")
        released_values = np.asarray(released.values, dtype=float)
        if released_values.shape != raw.shape:
            raise ValueError("released= must hold the two released columns, one row per record.")
        params.update(released.params)
        details.update(released.details)
        released = released_values
    elif m.moves_values:
        strata = clean.strata if hue is not None else None
        if hue is not None:
            _refuse_small_levels(codes, levels, m, k, pol, function)
        out = anonymize_values(
            raw,
            method,
            names=list(names),
            k=k,
            q=q,
            metric=metric,
            strata=strata,
            threshold=threshold,
            policy=pol,
            off_rare=False,  # counted in cells, never drawn
        )
        released = out.values
        params.update(out.params)
        details.update(out.details)
    else:
        released = raw
    xedges = safe_edges(released[:, 0], bins, avoid=rare[0])
    yedges = safe_edges(released[:, 1], bins, avoid=rare[1])
    cells = None
    if source is None:
        # each record's cell, found once: the counts of every level, and the ledger's cells
        cells = cell_index(released[:, 0], released[:, 1], xedges, yedges)
        if unlabelled is not None:
            u_cells = cell_index(unlabelled[:, 0], unlabelled[:, 1], xedges, yedges)
            unlabelled = (unlabelled, u_cells)
        shape = (xedges.size - 1, yedges.size - 1)
        if hue is None:
            counts = cell_counts(cells, shape)[None]
        else:
            cell_count = shape[0] * shape[1]
            by_level = np.where((cells >= 0) & (codes >= 0), codes * cell_count + cells, -1)
            counts = cell_counts(by_level, (len(levels), cell_count)).reshape(-1, *shape)
    else:
        counts = source.grid(xedges, yedges)
    if m.coarsens:
        factor = check_positive_int("factor", factor)
        params.update(factor=factor, bins=-(-bins // factor))
        counts = np.stack([coarsen_counts(c, factor) for c in counts])
        if cells is not None:
            cells = coarsen_cell_index(cells, yedges.size - 1, factor)
        if unlabelled is not None:
            ny = yedges.size - 1
            unlabelled = (unlabelled[0], coarsen_cell_index(unlabelled[1], ny, factor))
        xedges, yedges = coarsen_edges(xedges, factor), coarsen_edges(yedges, factor)
    shown = suppress(counts, threshold)
    cells_suppressed = shown.n_suppressed
    warnings: list[str] = []
    linked = shown.counts
    if m.counts_only and source is None:
        # the records counted are the raw ones (a counts-only method moves no value)
        linked = _link_cells(
            shown.counts,
            raw,
            cells,
            codes,
            hue,
            levels,
            xedges,
            yedges,
            function,
            unlabelled,
            facets,
            partition,
        )
        added = int(np.isnan(linked).sum() - np.isnan(shown.counts).sum())
        if added:
            cells_suppressed += added
            warnings.append(guard.linked_warning(added, "cell"))
    hidden_per_level = np.isnan(linked).reshape(len(linked), -1).sum(axis=1)
    # the grid spans only shown cells: a suppressed outlier must not stretch the axes
    shown_counts, (xedges, yedges) = trim_to_shown(linked, xedges, yedges)
    refuse_if_nothing_shown(
        shown_counts,
        "grid cell",
        "Use method='generalize', fewer bins, or a point method such as 'deterministic'.",
    )
    if hue is not None:
        # a level none of whose cells holds threshold records is suppressed as a whole: it is
        # not named (legend) unless the caller named it (DESIGN invariant 3)
        named = set(hue_order or ())
        drawn = [(np.nan_to_num(c) > 0).any() or lev in named for c, lev in zip(
            shown_counts, levels, strict=True)]  # fmt: skip
        if not all(drawn):
            gone = len(drawn) - sum(drawn)
            shown_counts = shown_counts[np.asarray(drawn)]
            levels = [lev for lev, d in zip(levels, drawn, strict=True) if d]
            details["groups_left_out"] = gone
            warnings.append(
                f"{gone} hue level(s) have no cell of at least threshold={threshold} records "
                "and are not drawn."
            )
    report = make_report(
        function,
        method,
        params,
        names,
        raw.shape[0] if source is None else source.n,
        n_dropped,
        pol,
        cells_suppressed=cells_suppressed,
        details=details,
        warnings=warnings,
    )
    if facets is not None:  # for grid_panels: each facet's report counts its own cells
        report.details["cells_suppressed_per_level"] = hidden_per_level.tolist()
    xlim, ylim = (float(xedges[0]), float(xedges[-1])), (float(yedges[0]), float(yedges[-1]))
    return GridRelease(
        xedges,
        yedges,
        shown_counts,
        levels,
        xlim,
        ylim,
        safe_ticks(*xlim),
        safe_ticks(*ylim),
        report,
    )


def grid_panels(
    data: Any,
    *,
    x: str,
    y: str,
    hue: str | None = None,
    hue_order: list[Any] | None = None,
    facets: Sequence[str] = (),
    names: tuple[str, str] | None = None,
    method: str | None = None,
    bins: int | None = None,
    threshold: int | None = None,
    factor: int = 2,
    function: str = "displot",
    policy: Policy | None = None,
    partition: Any = None,
    kind: str = "hist",
) -> dict[tuple, GridRelease]:
    """Release the 2-D grids of every facet of a figure together, before any is drawn.

    As :func:`release_grid`, for the records of each facet (each
    combination of the `facets` columns' values), on one set of cells, as
    seaborn's facets share their bins. The facets' hue levels are the levels
    of one release, suppressed each on its own counts, and the release
    ledger links them as the cells of one table
    (:func:`safeplot.release.guard.link_levels`): to the grid without
    facets, to each facet alone and to each hue level across the facets,
    so that the figure without ``row``/``col`` minus the facets shown gives
    no suppressed cell. Records with a missing facet or hue value are in
    those totals as hidden cells. Only the counting methods
    (``"suppress"``, ``"generalize"``) are released so; the others release
    each facet on its own.

    Parameters
    ----------
    data : DataFrame
        The records, with the variables and the facet columns.
    x, y, hue : str
        Column names of the two variables and of the hue (optional).
    hue_order : list, optional
        The hue levels to draw, in order.
    facets : sequence of str
        The facet columns (``row``, ``col``); they name the facetings for
        the ledger.
    names : (str, str), optional
        The variables' names in the reports (default: `x` and `y`).
    method, bins, threshold, factor, function, policy, kind
        As in :func:`release_grid`.
    partition : hashable, optional
        The grouping's name for the ledger (default: `hue`).

    Returns
    -------
    dict
        Facet key (tuple of its `facets` values) -> :class:`GridRelease`
        of that facet's hue levels, for every facet with complete records.

    Examples
    --------
    >>> import safeplot
    >>> penguins = safeplot.load_dataset("penguins")
    >>> panels = grid_panels(penguins, x="bill_length_mm", y="bill_depth_mm",
    ...                      facets=["sex"], bins=10)
    >>> sorted(panels)
    [('Female',), ('Male',)]
    >>> bool(np.array_equal(panels[("Male",)].xedges, panels[("Female",)].xedges))
    True
    """
    import pandas as pd

    pol = get_policy(policy)
    m = get_method(pol.check_method(method, kind))
    if not m.counts_only:
        raise ValueError(
            f"{function}: grid_panels releases counts of raw records (method='suppress' or "
            f"'generalize'), not method={m.name!r}; release each facet with release_grid."
        )
    frame = pd.DataFrame(data).reset_index(drop=True)
    # validation only: clear errors for text, booleans, dates, inf, all-missing, constant
    clean_numeric({c: frame[c] for c in (x, y)}, [x, y])
    fcodes, keys, dims = facet_codes(frame, list(facets))
    if hue is None:
        levels: list[Any] = [None]
        hue_codes = np.zeros(len(frame), dtype=int)
        no_hue = np.zeros(len(frame), dtype=bool)
    else:
        levels = categorical_order(frame[hue], hue_order)
        hue_codes = index_of(frame[hue], levels)  # -1: missing, or left out of hue_order
        no_hue = frame[hue].isna().to_numpy()
    n_hue = len(levels)
    # each record's cell of the table of facets by hue levels; -1 for a level left out of
    # hue_order (counted, never drawn); NaN for a missing facet or hue (dropped, still linked)
    combined = np.where(hue_codes >= 0, fcodes * n_hue + hue_codes, -1).astype(float)
    combined[(fcodes < 0) | no_hue] = np.nan
    xy = np.column_stack(
        [pd.to_numeric(frame[c], errors="coerce").to_numpy(dtype=float) for c in (x, y)]
    )
    complete = np.isfinite(xy).all(axis=1)
    labelled, unlabelled = complete & ~np.isnan(combined), complete & np.isnan(combined)
    level_codes = np.where(no_hue, -1, hue_codes)
    table = guard.FacetTable(
        [
            (np.r_[c[labelled], c[unlabelled]], n, tag)
            for (c, n), tag in zip(dims, facets, strict=True)
        ],
        np.r_[level_codes[labelled], level_codes[unlabelled]],
    )
    cells = list(range(len(keys) * n_hue))
    whole = release_grid(
        xy[:, 0],
        xy[:, 1],
        names=names or (x, y),
        hue=combined,
        hue_order=cells,
        method=m.name,
        bins=bins,
        threshold=threshold,
        factor=factor,
        kind=kind,
        function=function,
        policy=pol,
        facets=table,
        partition=None if hue is None else (partition or hue),
    )
    counts = whole.counts.reshape(len(keys), n_hue, *whole.counts.shape[1:])
    # a hue level shown in no facet is not named (unless the caller named it), as in one grid
    named = set(hue_order or ())
    keep = [(np.nan_to_num(counts[:, h]) > 0).any() or levels[h] in named for h in range(n_hue)]
    sizes = np.bincount(fcodes[labelled & (fcodes >= 0)], minlength=len(keys))
    # per facet, its rows dropped for a missing value (x, y or the hue), as one grid reports
    lost = np.bincount(fcodes[~labelled & (fcodes >= 0)], minlength=len(keys))
    rows = np.bincount(fcodes[fcodes >= 0], minlength=len(keys))
    for f in np.flatnonzero((rows > 0) & (sizes == 0)):
        raise ValueError(
            f"{function}: the facet {keys[f]!r} has no record with both {x!r} and {y!r}"
            + (f" and a {hue!r}" if hue is not None else "")
            + ": nothing to plot in it. Drop its rows, or fill the missing values."
        )
    # the whole grid's warning of rows dropped is replaced by each facet's own
    whole_dropped = dropped_warning(int(np.count_nonzero(~labelled)), pol)
    others = [w for w in whole.report.warnings if w != whole_dropped]
    hidden = np.asarray(whole.report.details.pop("cells_suppressed_per_level"))
    hidden = hidden.reshape(len(keys), n_hue).sum(axis=1)
    out = {}
    for f, key in enumerate(keys):
        if not sizes[f]:
            continue
        mine = counts[f][np.asarray(keep)]
        # (hidden cells included: those the ledger hid so that no facet is a difference)
        refuse_if_nothing_shown(
            mine,
            "grid cell",
            f"(facet {key!r} of {function}) Use method='generalize', fewer bins, or merge "
            "small facets.",
        )
        report = replace(
            whole.report,
            n=pol.round_count(int(sizes[f])),
            n_dropped=pol.round_count(int(lost[f])),
            cells_suppressed=int(hidden[f]),
            warnings=others + ([dropped_warning(int(lost[f]), pol)] if lost[f] else []),
            details=dict(whole.report.details),
        )
        out[key] = replace(
            whole,
            counts=mine,
            levels=[lev for lev, k in zip(levels, keep, strict=True) if k],
            report=report,
        )
    return out


def _refuse_small_levels(
    codes: np.ndarray, levels: list, m: Any, k: Any, pol: Policy, function: str
) -> None:
    """Refuse a hue level too small for a grid of moved values (as ``histplot`` refuses it).

    Its cells would count fewer than threshold records, and it cannot be left
    out (:func:`~safeplot.release.guard.small_group_rule`: the counts of
    moved values are not linked by the release ledger).
    """
    from ..release import guard

    need, why = m.group_floor(pol, k)
    sizes = np.bincount(codes[codes >= 0], minlength=len(levels))
    small = int(((sizes > 0) & (sizes < need)).sum())
    rule = guard.small_group_rule(m, "counts")
    if small and not rule.leave_out:
        raise DisclosureError(
            f"{function}: {small} hue level(s) have fewer than {need} records ({why}). "
            f"{rule.refusal}"
        )


def _dask_source(x: Any, y: Any, hue: Any, hue_order: Any, function: str) -> DaskColumns:
    """Return the aggregates of two columns (and a hue) of one dask DataFrame."""
    parts = {"x": x, "y": y} | ({} if hue is None else {"hue": hue})
    if not all(is_dask_collection(v) for v in parts.values()):
        raise ValueError(f"{function}: x, y and hue must all be columns of one dask DataFrame.")
    frame = x.to_frame(name="x").assign(**{r: v for r, v in parts.items() if r != "x"})
    return DaskColumns(
        frame,
        ["x", "y"],
        hue=None if hue is None else "hue",
        hue_order=hue_order,
        function=function,
        level_dtype=False,
    )


#: Share of epsilon a DP grid spends on estimating the ranges it is not given (split between
#: the axes), as a DP histogram does for its one axis.
DP_RANGE_SHARE = 0.25


def _fixed_edges(n_bins: int, binrange: tuple[float, float] | None) -> np.ndarray | None:
    """Return `n_bins` equal cells over `binrange` (None: the range is to be estimated)."""
    if binrange is None:
        return None
    lo, hi = (float(v) for v in binrange)
    if not (np.isfinite([lo, hi]).all() and hi > lo):
        raise ValueError(f"binrange must be (low, high) with low < high, got {binrange!r}.")
    return np.linspace(lo, hi, int(n_bins) + 1)


def _axis_ranges(binrange: Any) -> list[tuple[float, float] | None]:
    """Return the (x, y) binranges of a DP grid: one pair for both axes, or one per axis."""
    if binrange is None:
        return [None, None]
    parts = list(binrange) if isinstance(binrange, (tuple, list)) else None
    if parts is None or len(parts) != 2:
        raise ValueError(
            f"binrange must be (low, high) or ((xlow, xhigh), (ylow, yhigh)), got {binrange!r}."
        )
    if all(p is None or isinstance(p, (tuple, list, np.ndarray)) for p in parts):
        out = []
        for p in parts:
            if p is not None and len(p) != 2:
                raise ValueError(f"binrange must hold two (low, high) pairs, got {binrange!r}.")
            out.append(None if p is None else (p[0], p[1]))
        return out
    return [(parts[0], parts[1]), (parts[0], parts[1])]


def _axis_bins(bins: Any) -> tuple[int, int]:
    """Return the number of cells along x and y: one int for both, or a pair."""
    if isinstance(bins, (tuple, list)) and len(bins) == 2:
        return check_positive_int("bins", bins[0]), check_positive_int("bins", bins[1])
    return (check_positive_int("bins", bins),) * 2


def release_private_grid(
    raw: np.ndarray,
    codes: np.ndarray,
    levels: list[Any],
    m: Any,
    *,
    names: tuple[str, str],
    bins: Any = GRID_BINS,
    binrange: Any = None,
    epsilon: float | None = None,
    function: str = "heatmap",
    policy: Policy | None = None,
) -> GridRelease:
    """Release the counts of (x, y) per cell (and hue level) with OpenDP's noise.

    The cell edges are fixed before the data is read: from `binrange` (per
    axis), else on a span estimated with differential privacy
    (:func:`safeplot.anonymize.dp.private_range`) that spends a quarter of
    epsilon, split between the axes that need it. One record falls in one
    cell of one level, so the whole array of counts has L1 sensitivity 1
    and the rest of epsilon covers it: each count carries discrete Laplace
    noise of scale ``1 / epsilon_counts``. Negative noisy counts are set to
    0 (post-processing); no count is suppressed. Records outside the edges
    are not counted.

    Parameters
    ----------
    raw : ndarray, shape (n, 2)
        Finite raw values.
    codes : ndarray of int, shape (n,)
        Level of each record (``-1``: not counted).
    levels : list
        The level names (``[None]`` without hue).
    m : Method
        The ``"dp"`` method object (it may carry an epsilon).
    names : tuple of str
        Variable names, for the report.
    bins : int or (int, int), default 30
        Cells per axis.
    binrange : (low, high) or ((xlow, xhigh), (ylow, yhigh)), optional
        The span of the cells.
    epsilon : float, optional
        Privacy loss of the release (default: the method's, else 1.0).
    function : str
        The calling function, for the report and the ledger.
    policy : Policy, optional

    Returns
    -------
    GridRelease
        With ``accuracy`` set: each count within +/- this at 95%.

    Examples
    --------
    >>> import numpy as np
    >>> import safeplot
    >>> from safeplot.methods import get_method
    >>> xy = np.random.default_rng(0).uniform(0, 10, size=(500, 2))
    >>> with safeplot.policy(dp_budget=10):
    ...     rel = release_private_grid(
    ...         xy, np.zeros(500, int), [None], get_method("dp"), names=("a", "b"),
    ...         bins=5, binrange=(0, 10), epsilon=1.0)
    >>> rel.counts.shape, bool((rel.counts >= 0).all()), rel.accuracy
    ((1, 5, 5), True, 3.0)
    """
    from ..anonymize import dp as dpnum
    from ..release import guard
    from ._dp import dp_epsilon

    pol = get_policy(policy)
    eps = dp_epsilon(m, epsilon)
    n_bins = _axis_bins(bins)
    ranges = _axis_ranges(binrange)
    edges = [_fixed_edges(n_bins[j], ranges[j]) for j in range(2)]
    # every argument is valid: the release will be made, so its privacy loss is spent now
    left = guard.spend_epsilon(eps, function=function)
    missing = [j for j in range(2) if edges[j] is None]
    eps_range = eps * DP_RANGE_SHARE if missing else 0.0
    for j in missing:
        lo, hi = dpnum.private_range(raw[:, j], eps_range / len(missing))
        edges[j] = _fixed_edges(n_bins[j], (lo, hi))
    xedges, yedges = (np.asarray(e, dtype=float) for e in edges)
    eps_counts = eps - eps_range
    exact = np.stack(
        [grid_counts(*raw[codes == i].T, xedges, yedges) for i in range(len(levels))]
    ).astype(int)
    noisy = dpnum.noisy_counts(exact, eps_counts)
    details: dict[str, Any] = {
        "mechanism": "discrete Laplace (OpenDP make_laplace), L1 sensitivity 1",
        "epsilon_counts": eps_counts,
        "noise_scale": noisy.scale,
        "noise_sd": round(noisy.sd, 3),
        "accuracy_95": noisy.accuracy,
        "bins_from": "a differentially private range estimate" if missing else "the call",
        "budget_left": round(left, 6),
    }
    if eps_range:
        details["epsilon_range"] = eps_range
    report = make_report(
        function,
        m.name,
        {"epsilon": eps, "bins": [xedges.size - 1, yedges.size - 1]},
        names,
        round(float(noisy.counts.sum())),  # a sum of noisy counts: post-processing
        0,  # rows dropped are a count of records too, and not released under dp
        pol,
        details=details,
        warnings=[
            f"Differentially private counts (epsilon={eps:g}): each cell +/- "
            f"{noisy.accuracy} at 95%; negative noisy counts shown as 0."
        ],
    )
    xlim = (float(xedges[0]), float(xedges[-1]))
    ylim = (float(yedges[0]), float(yedges[-1]))
    return GridRelease(
        xedges,
        yedges,
        noisy.counts,
        levels,
        xlim,
        ylim,
        safe_ticks(*xlim),
        safe_ticks(*ylim),
        report,
        accuracy=float(noisy.accuracy),
    )
