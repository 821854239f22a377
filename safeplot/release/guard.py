"""The guard: the one path from numbers computed from records to a release.

Every number a plot draws or a table prints that was computed from records
passes one of these functions on its way into a release:

- :func:`released_values` — individual values released by a method (a
  centroid, a group mean, a noisy value) are moved off rare raw values;
- :func:`released_statistics` — statistics (means, quantiles, interval
  ends, coefficients, curve heights) are rounded to the policy's
  significant figures and moved off rare raw values by one unit in their
  last figure;
- :func:`released_counts` — counts are 0 or at least the threshold, or the
  release is refused (a last line behind each method's suppression);
- :func:`shown_groups` — groups (hue levels, categories, facets) with too
  few records for the method are left out with a note, not drawn and not
  named, and the release is refused only when no group is left (DESIGN
  invariant 10);
- :func:`from_menu` — parameters that decide which records a statistic
  depends on come from a fixed menu (DESIGN invariant 5);
- :func:`link_counts`, :func:`link_groups`, :func:`charge_noise`,
  :func:`spend_epsilon` — counts, groups of records, noise draws and privacy
  loss are checked against earlier releases of the
  same records by the session's release ledger (:mod:`safeplot.ledger`),
  which applies secondary suppression, counts noise draws and spends the
  privacy budget (DESIGN invariant 6);
- :func:`admit` — each release is handed to the session's ledger, when one
  is installed (:func:`set_ledger`), *before* anything of it is drawn: the
  ledger may refuse it, and a refused release leaves the Axes untouched.
  Releases that are not drawn (tables, model summaries) reach the ledger
  when they are logged (:func:`record`).

Numbers that depend only on released, safe limits (ticks from a standard
locator, edges of a regular grid) are not data and do not pass here: they are
drawn as seaborn draws them (DESIGN invariant 2).
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import ledger as _ledger
from ..anonymize.boxes import nudge_off
from ..anonymize.grids import move_off, off_rare
from ..anonymize.statistics import round_sig, round_to_span
from ..errors import DisclosureError
from ..policy import Policy, get_policy

__all__ = [
    "ALPHA_MENU",
    "ESTIMATORS",
    "FacetTable",
    "ShownGroups",
    "SmallGroupRule",
    "Unlabelled",
    "admit",
    "avoiding",
    "capturing",
    "charge_noise",
    "from_menu",
    "link_cells",
    "link_counts",
    "link_groups",
    "link_levels",
    "link_partition",
    "linked_warning",
    "named_estimator",
    "record",
    "released_counts",
    "released_curve",
    "released_statistics",
    "released_values",
    "set_ledger",
    "shown_groups",
    "small_group_rule",
    "spend_epsilon",
]


def released_values(values: ArrayLike, avoid: ArrayLike, scale: float) -> np.ndarray:
    """Return released values, each moved off the rare raw values by ``1e-6 * scale``.

    Parameters
    ----------
    values : array-like
        Values a method released (centroids, group means, noisy values).
    avoid : array-like
        The rare raw values of the variable
        (:func:`~safeplot.anonymize.rare_values`).
    scale : float
        The variable's spread (its SD); 0 moves by 1e-6.

    Returns
    -------
    ndarray

    Examples
    --------
    >>> released_values([1.0, 2.0], avoid=[2.0], scale=1.0)
    array([1.      , 2.000001])
    """
    return off_rare(values, avoid, scale)


def released_statistics(
    values: ArrayLike,
    avoid: ArrayLike = (),
    *,
    sig: int | None = None,
    directions: ArrayLike = 1.0,
    keep: ArrayLike | None = None,
    policy: Policy | None = None,
) -> np.ndarray:
    """Return statistics rounded to significant figures and kept off rare raw values.

    Parameters
    ----------
    values : array-like
        Statistics computed from records.
    avoid : array-like, optional
        The rare raw values none of them may equal.
    sig : int, optional
        Significant figures (default: the policy's ``sig_figs``; fewer is
        allowed, more is refused by the policy).
    directions : array-like of {-1, +1}, default 1
        Which way a statistic that hits a rare value moves (outward for the
        lower statistics of a box).
    keep : array-like, optional
        Rounded values that stay even on a rare value (0, the baseline of a
        density far from the data, is no statistic).
    policy : Policy, optional
        The policy in force (default: the current one).

    Returns
    -------
    ndarray

    Examples
    --------
    >>> released_statistics([12.34, 45.61], avoid=[45.6], sig=3)
    array([12.3, 45.7])
    """
    pol = get_policy(policy)
    sig = pol.check_sig_figs(sig)
    rounded = np.asarray(round_sig(np.asarray(values, dtype=float), sig), dtype=float)
    return nudge_off(rounded, avoid, directions, sig, keep=keep)


#: Rare raw values of a whole figure that every curve drawn in it avoids (see `avoiding`).
_FIGURE_RARE: contextvars.ContextVar[np.ndarray | None] = contextvars.ContextVar(
    "safeplot_figure_rare", default=None
)


@contextlib.contextmanager
def avoiding(values: ArrayLike) -> Iterator[None]:
    """Keep every curve released inside the block off `values` as well as its own rare ones.

    A figure that draws several releases in one Axes (a facet's hue levels,
    each its own regression) shows all their numbers side by side: a curve
    of one release must not land on a value rare among the records of
    another. The grid that draws them names the rare values of the whole
    Axes here.

    Examples
    --------
    >>> with avoiding([10.57]):
    ...     released_curve([10.5678], avoid=[], span=2.0)
    array([10.58])
    """
    token = _FIGURE_RARE.set(np.unique(np.asarray(values, dtype=float)))
    try:
        yield
    finally:
        _FIGURE_RARE.reset(token)


def released_curve(
    values: ArrayLike,
    avoid: ArrayLike,
    span: float,
    *,
    sig: int | None = None,
    policy: Policy | None = None,
) -> np.ndarray:
    """Return a curve's values rounded on a grid tied to its span, and kept off rare values.

    A fitted line or band computed from records is a statistic (DESIGN.md
    invariant 4). Rounding each value to significant figures of its own
    would draw a staircase wherever the curve is far from zero and changes
    little (a line from 9 to 11 in steps of 0.1); the values are rounded
    instead to the policy's significant figures of `span`, the range of the
    variable: steps of ``10**(floor(log10(span)) - sig + 1)`` (0.01 for a
    range of 2 at 3 figures), so that a curve is a set of rounded values
    whose resolution a reader can see, and no finer. A rounded value on a
    rare raw value then moves one step up.

    Parameters
    ----------
    values : array-like
        The curve's values (y of a fitted line, or its band's ends).
    avoid : array-like
        The rare raw values of the variable.
    span : float
        The variable's range (0 or less counts as 1).
    sig : int, optional
        Significant figures (default: the policy's ``sig_figs``).
    policy : Policy, optional

    Returns
    -------
    ndarray

    Examples
    --------
    >>> released_curve([9.01234, 10.5678, 11.0049], avoid=[], span=2.0)
    array([ 9.01, 10.57, 11.  ])
    """
    pol = get_policy(policy)
    rounded, step, settle = round_to_span(values, span, pol.check_sig_figs(sig))
    figure = _FIGURE_RARE.get()
    if figure is not None:
        avoid = np.union1d(np.asarray(avoid, dtype=float), figure)
    # a rounded value on a rare raw value moves up one step, and stays rounded
    return move_off(rounded, avoid, step, settle=settle)


def released_counts(
    counts: ArrayLike,
    threshold: int | None = None,
    *,
    what: str = "count",
    policy: Policy | None = None,
) -> np.ndarray:
    """Return `counts` when each is 0, NaN (suppressed) or at least the threshold; else refuse.

    Methods suppress or merge small cells before this; the guard is the last
    line that no count in ``(0, threshold)`` is drawn whatever path made it.

    Raises
    ------
    DisclosureError
        Naming how many counts are below the threshold.

    Examples
    --------
    >>> released_counts([0, 3, 7], 3)
    array([0., 3., 7.])
    """
    pol = get_policy(policy)
    threshold = pol.check_threshold(threshold)
    arr = np.asarray(counts, dtype=float)
    small = np.isfinite(arr) & (arr > 0) & (arr < threshold)
    if small.any():
        raise DisclosureError(
            f"{int(small.sum())} {what}(s) below the threshold {threshold} would be shown; "
            "use method='suppress' or 'generalize', or fewer bins or categories."
        )
    return arr


@dataclass(frozen=True)
class ShownGroups:
    """Which groups of a release are drawn, and what to say about those left out.

    Attributes
    ----------
    shown : ndarray of bool
        One entry per group code: whether the group is drawn.
    left_out : int
        Groups with some records but fewer than `need`: not drawn, not named.
    need : int
        The fewest records a drawn group holds.
    why : str
        Where `need` comes from (``"threshold=3"``, ``"2*k=6"``).
    what : str
        What a group is, for the messages (``"hue level"``, ``"group"``).
    function : str
        The plot function, named first in a refusal.
    counted : str
        What `need` counts (``"records"``, ``"events"``).
    """

    shown: np.ndarray
    left_out: int
    need: int
    why: str
    what: str = "group"
    function: str = ""
    counted: str = "records"

    @property
    def _prefix(self) -> str:
        return f"{self.function}: " if self.function else ""

    def keep(self, codes: ArrayLike) -> np.ndarray:
        """Return, per record of group `codes` (-1: no group), whether it is drawn."""
        codes = np.asarray(codes)
        return (codes >= 0) & self.shown[np.clip(codes, 0, None)]

    def keep_records(
        self, codes: ArrayLike, threshold: int, *, on_their_own: bool = False
    ) -> np.ndarray:
        """Per record, whether it is drawn, in a figure that draws one mark per record.

        The marks of such a figure (a kNN-centroid or microaggregated scatter)
        can be counted, and so can those of the same figure without the
        grouping variable: the difference is the number of records left out.
        That number must be 0 or at least `threshold` (DESIGN invariants 3
        and 6). When it would be fewer, the last records (in row order) of the
        largest group drawn are left out too, to make up `threshold`: the
        difference then tells no more than "at least threshold records".

        A method that releases each record on its own (keyed noise,
        rounding: `on_their_own`) draws the records kept exactly as the figure
        without the grouping variable draws them, so the marks missing here
        would be the records left out: then no group is left out, and a
        figure with a group too small is refused.

        Parameters
        ----------
        codes : array-like of int
            Each record's group code (-1: in no group).
        threshold : int
            The smallest count a release may show.
        on_their_own : bool
            The method releases each record on its own, not in groups formed
            within each group here.

        Raises
        ------
        DisclosureError
            When the largest group would fall below `need`, or a group is too
            small under a method that releases records on their own.

        Examples
        --------
        >>> groups = shown_groups([6, 1], 3, "k=3", function="scatterplot")
        >>> groups.keep_records([0, 0, 0, 0, 1, 0, 0], 3).tolist()
        [True, True, True, True, False, False, False]
        """
        if on_their_own and self.left_out:
            raise DisclosureError(
                f"{self._prefix}{self.left_out} {self.what}(s) have fewer than {self.need} "
                f"records ({self.why}). Each record is drawn on its own under this method, "
                "as in the same figure without the grouping variable, so leaving the small "
                "ones out would make the difference of the two figures their records. Merge "
                "small levels, leave the grouping variable out, or use method='deterministic' "
                "(its groups are formed within each level, and it leaves a small one out)."
            )
        codes = np.asarray(codes)
        keep = self.keep(codes)
        out = int(((codes >= 0) & ~keep).sum())
        if not 0 < out < threshold:
            return keep
        sizes = np.bincount(codes[codes >= 0], minlength=self.shown.size)
        largest = int(np.argmax(np.where(self.shown, sizes, -1)))
        extra = int(threshold) - out
        if sizes[largest] - extra < self.need:
            raise DisclosureError(
                f"{self._prefix}the {self.what}(s) too small to draw hold fewer than "
                f"threshold={threshold} records, and no group drawn has records to spare to "
                "make the records left out a safe count: the figure without the grouping "
                "variable would count them. Merge small levels, or leave the grouping "
                "variable out."
            )
        keep[np.flatnonzero(codes == largest)[-extra:]] = False
        return keep

    def topped_up(self, keep: ArrayLike, codes: ArrayLike) -> bool:
        """Whether `keep` (from :meth:`keep_records`) leaves out records of a group drawn.

        Examples
        --------
        >>> groups = shown_groups([6, 1], 3, "k=3", function="scatterplot")
        >>> codes = [0, 0, 0, 0, 1, 0, 0]
        >>> groups.topped_up(groups.keep_records(codes, 3), codes)
        True
        """
        return bool((~np.asarray(keep, dtype=bool)).sum() > (~self.keep(codes)).sum())

    @property
    def note(self) -> str | None:
        """The note under the figure when groups were left out (it names none)."""
        return LEFT_OUT_NOTE if self.left_out else None

    @property
    def warning(self) -> str | None:
        """The report's warning when groups were left out (how many, not which)."""
        if not self.left_out:
            return None
        return (
            f"{self.left_out} {self.what}(s) with fewer than {self.need} {self.counted} "
            f"({self.why}) are not drawn."
        )


#: The report's warning when :meth:`ShownGroups.keep_records` left out records of a drawn group.
TOPPED_UP = (
    "Some records of the largest group drawn are left out too, so that the records left out "
    "are not a small count."
)

#: The note under a figure that left out groups too small to show (DESIGN invariant 10). It
#: names no group and no count: either, next to what is drawn and released elsewhere, could
#: tell how many records a group left out holds.
LEFT_OUT_NOTE = "Groups with fewer records than the threshold are left out."


def shown_groups(
    sizes: ArrayLike,
    need: int,
    why: str,
    *,
    function: str,
    what: str = "group",
    fix: str = "Use broader groups (merge small levels), or leave the grouping variable out.",
    counted: str = "records",
) -> ShownGroups:
    """Decide which groups are drawn: those of at least `need` records.

    A group with some records but fewer than `need` is left out as a
    suppressed cell is: it is not drawn, the legend and ticks do not name it,
    and the figure says that groups were left out, though not which or how
    many records they hold (DESIGN invariant 10). A group named by the caller
    (``hue_order=``, ``order=``) keeps its place and is drawn empty, exactly
    as a group with no records is, so leaving it out tells nothing an empty
    group does not. When no group is left the release is refused.

    Parameters
    ----------
    sizes : array-like of int
        Records per group code.
    need : int
        The fewest records a drawn group holds (the threshold, or the
        method's minimum group size when it forms groups within each one).
    why : str
        Where `need` comes from, for the messages.
    function : str
        The plot function, for the refusal.
    what : str
        What a group is (``"hue level"``, ``"facet"``).
    fix : str
        What to do when every group is too small.
    counted : str
        What `sizes` count (``"records"``, or ``"events"`` for survival curves).

    Returns
    -------
    ShownGroups

    Raises
    ------
    DisclosureError
        When every group with records has fewer than `need`.

    Examples
    --------
    >>> groups = shown_groups([40, 2, 0, 12], 3, "threshold=3", function="histplot",
    ...                       what="hue level")
    >>> groups.shown.tolist(), groups.left_out
    ([True, False, False, True], 1)
    >>> groups.warning
    '1 hue level(s) with fewer than 3 records (threshold=3) are not drawn.'
    >>> groups.keep([0, 1, 3, -1]).tolist()
    [True, False, True, False]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    shown = sizes >= need
    if not shown.any():
        raise DisclosureError(
            f"{function}: every {what} has fewer than {need} {counted} ({why}), so nothing "
            f"can be released. {fix}"
        )
    left_out = int(((sizes > 0) & ~shown).sum())
    return ShownGroups(shown, left_out, int(need), why, what, function, counted)


@dataclass(frozen=True)
class SmallGroupRule:
    """Whether a figure may leave out a group too small for its method, and why not.

    Attributes
    ----------
    leave_out : bool
        The group is left out (not drawn, not named, with a note); otherwise
        a figure holding one is refused.
    refusal : str
        Why it cannot be left out, and what to do instead (empty when it can).
    applies : bool
        False where the method draws every group whatever its size: no
        control (``"none"``), or differential privacy, whose noise covers a
        small count.
    """

    leave_out: bool
    refusal: str = ""
    applies: bool = True


_MERGE = "Merge small levels into broader ones (recode them), or leave the grouping out"


def small_group_rule(m: Any, draws: str) -> SmallGroupRule:
    """Return what a figure that `draws` does with a group too small for method `m`.

    The one place this is decided (DESIGN invariant 10). Leaving a group
    out is safe only where the figure without the grouping variable, less
    the groups drawn, does not give the group's records back:

    - ``"counts"`` (histogram bins, ECDF steps, grid cells): the methods
      that only count (``m.counts_only``) leave it out, for its hidden
      counts are linked by the release ledger with those of the same figure
      without the grouping; counts of moved values are not linked, so the
      group is refused.
    - ``"density"``: left out where the method forms its groups within each
      group here (``m.groups_within_strata``: the figure without the
      grouping forms them differently) and under the counting methods;
      refused where each record keeps its own released value (keyed noise,
      rounding, O'Keefe's winsorising): the density without the grouping
      less the densities drawn would be the group's.
    - ``"markers"`` (one mark per record: scatter, strip, swarm, rug): as
      for a density; a method that forms groups within each one leaves it
      out with the top-up of :meth:`ShownGroups.keep_records`.
    - ``"summaries"`` (O'Keefe's boxes, estimates per group): left out under
      every method; a summary of the others does not depend on its records.

    Parameters
    ----------
    m : Method
        The method in force (:func:`safeplot.methods.get_method`).
    draws : {"counts", "density", "markers", "summaries"}
        What the figure draws of each group.

    Returns
    -------
    SmallGroupRule

    Examples
    --------
    >>> from safeplot.methods import get_method
    >>> [small_group_rule(get_method(m), "counts").leave_out for m in ("suppress", "rounding")]
    [True, False]
    >>> [small_group_rule(get_method(m), "markers").leave_out
    ...  for m in ("deterministic", "confidential", "probabilistic")]
    [True, False, False]
    """
    if m.raw or m.private:
        return SmallGroupRule(True, applies=False)
    if draws == "summaries":
        return SmallGroupRule(True)
    if draws == "counts":
        if m.counts_only:
            return SmallGroupRule(True)
        return SmallGroupRule(
            False,
            "It cannot be left out: under "
            f"method={m.name!r} the counts of moved values are not linked by the release "
            "ledger, so the counts of the same figure without the grouping, minus the groups "
            f"shown, would count the records of a group left out. {_MERGE}, or use "
            "method='suppress' (which leaves a small group out).",
        )
    if draws not in ("density", "markers"):
        raise ValueError(
            f"draws must be 'counts', 'density', 'markers' or 'summaries', got {draws!r}."
        )
    if m.groups_within_strata or m.counts_only:
        return SmallGroupRule(True)
    drawn = "density" if draws == "density" else "markers"
    return SmallGroupRule(
        False,
        f"It cannot be left out: under method={m.name!r} each record keeps its own released "
        f"value, drawn the same in the figure without the grouping, so the {drawn} of that "
        f"figure less those drawn here would be the records of a group left out. {_MERGE}, or "
        "use method='deterministic' (its groups are formed within each group, and it leaves "
        "a small one out).",
    )


def from_menu(name: str, value: Any, menu: Sequence[Any], *, what: str = "") -> Any:
    """Return `value` if it is on the `menu` of allowed values, else a clear ValueError.

    A continuous parameter (a percentile, an interval level, a bandwidth)
    could be stepped until a rounded output steps; a fixed menu stops that.

    Examples
    --------
    >>> from_menu("alpha", 0.05, (0.01, 0.05, 0.1))
    0.05
    """
    for allowed in menu:
        if value == allowed:
            return allowed
    where = f" for {what}" if what else ""
    raise ValueError(
        f"{name}={value!r} is not available{where}: choose one of {list(menu)} "
        "(a free choice could be stepped to find where a released number changes)."
    )


def link_counts(
    values: ArrayLike,
    edges: ArrayLike,
    counts: dict[Any, np.ndarray],
    *,
    partition: Any = None,
    function: str = "",
) -> dict[Any, np.ndarray]:
    """Return `counts` with the secondary suppression linked releases need.

    See :meth:`safeplot.ledger.Ledger.link_counts`; the ledger in force
    (:func:`safeplot.ledger.current`) decides.

    Examples
    --------
    >>> import numpy as np
    >>> link_counts(np.zeros(4), [-1.0, 1.0], {None: np.array([4.0])})[None]
    array([4.])
    """
    return _ledger.current().link_counts(
        values, edges, counts, partition=partition, function=function
    )


@dataclass
class FacetTable:
    """The facets of a release whose levels are the cells of a facets-by-hue table.

    Level ``i`` of the release is the cell ``np.unravel_index(i, shape)`` of
    a table with one axis per facet variable and the hue last (``shape`` is
    the facet variables' numbers of levels, then the hue's).

    Attributes
    ----------
    dims : list of (ndarray, int, hashable)
        Per facet variable (``row``, ``col``): each record's level code (-1:
        missing, in no facet), the number of levels, and its name for the
        release ledger.
    level_codes : ndarray of int
        Each record's hue level (-1: not drawn; 0 for all without hue).
    """

    dims: list[tuple[np.ndarray, int, Any]]
    level_codes: np.ndarray

    def take(self, mask: np.ndarray) -> FacetTable:
        """Return the table of the records `mask` keeps."""
        return FacetTable(
            [(codes[mask], n, name) for codes, n, name in self.dims], self.level_codes[mask]
        )


@dataclass
class Unlabelled:
    """The records of a split release that have no level (a missing hue).

    The figure leaves them out, as seaborn drops rows with a missing hue,
    but a release of the same records without the split counts them in its
    totals. The release ledger therefore links them as records of a level
    not drawn (:func:`link_levels`, code -1): otherwise a total minus the
    levels shown would count them.

    Attributes
    ----------
    values : ndarray, shape (n,) or (n, p)
        The records, as the release passes its own records to the ledger
        (raw values, or rows of them).
    facets : FacetTable, optional
        Their cells of the facet table (hue level -1), when the release has
        facets.

    Examples
    --------
    >>> import numpy as np
    >>> extra = Unlabelled(np.array([7.0]))
    >>> records, codes, _ = extra.join(np.array([1.0, 2.0]), np.array([0, 1]), None)
    >>> records.tolist(), codes.tolist()
    ([1.0, 2.0, 7.0], [0, 1, -1])
    """

    values: np.ndarray
    facets: FacetTable | None = None

    @classmethod
    def select(
        cls,
        values: np.ndarray,
        rows: np.ndarray,
        dims: Sequence[tuple[np.ndarray, int]] = (),
        names: Sequence[Any] = (),
    ) -> Unlabelled:
        """Return the records `rows` selects of a figure whose facets are `dims`.

        `values` and each facet variable's codes in `dims` (``(codes,
        number of levels)``, named by `names`) hold every row of the data.
        """
        facets = None
        if dims:
            table = [(c[rows], n, name) for (c, n), name in zip(dims, names, strict=True)]
            facets = FacetTable(table, np.full(int(np.count_nonzero(rows)), -1))
        return cls(np.asarray(values)[rows], facets)

    def take(self, mask: np.ndarray) -> Unlabelled:
        """Return the records `mask` keeps."""
        return Unlabelled(
            self.values[mask], None if self.facets is None else self.facets.take(mask)
        )

    def join(
        self, records: np.ndarray, codes: np.ndarray, facets: FacetTable | None
    ) -> tuple[np.ndarray, np.ndarray, FacetTable | None]:
        """Return `records`, their level `codes` and `facets` with these records appended."""
        n = self.values.shape[0]
        records = np.concatenate([records, self.values])
        codes = np.concatenate([np.asarray(codes), np.full(n, -1, dtype=np.asarray(codes).dtype)])
        if facets is not None:
            if self.facets is None:
                raise ValueError("Unlabelled records of a faceted release need their facets.")
            dims = [
                (np.concatenate([mine, theirs]), size, name)
                for (mine, size, name), (theirs, _, _) in zip(
                    facets.dims, self.facets.dims, strict=True
                )
            ]
            facets = FacetTable(dims, np.concatenate([facets.level_codes, np.full(n, -1)]))
        return records, codes, facets


def link_levels(
    records: np.ndarray,
    codes: np.ndarray,
    counts: Sequence[np.ndarray],
    partition: Any,
    link: Callable[[np.ndarray, dict[Any, np.ndarray], Any], dict[Any, np.ndarray]],
    *,
    facets: FacetTable | None = None,
) -> list[np.ndarray]:
    """Return the counts of each level after the ledger's link (:func:`link_counts`, ...).

    `counts` holds one array per level (one, the total, when `partition` is
    None), NaN where suppressed; `codes` gives each record's level, -1 for a
    record of a level not drawn (left out of ``hue_order``). Those records
    are in the totals of an earlier release too, so they go to the ledger
    as one more level whose every cell is hidden: otherwise the total minus
    the levels drawn would count them. `link` is called with the records
    linked, the counts per level and the partition's name.

    The levels are the cells of a table: one axis for the hue (`partition`;
    none without it), and with `facets` one more per facet variable. Every
    margin of the table is linked, as the partition of its own records
    that another figure could show: for each set of axes held fixed at each
    of their levels, the records there split by the other axes. With
    ``col`` and ``hue``: the whole figure (every cell), each facet by hue
    (a histogram of that facet alone), each hue level by facet (a faceted
    histogram of that level alone) and each cell as a total (the same cell
    binned otherwise). A record in no facet or of a level not drawn is in
    the margins whose fixed axes it matches, as a hidden cell. Hiding a cell
    only adds at least ``threshold`` records to a hidden sum, so what one
    margin hides keeps the margins linked before it safe; the margins are
    linked once more when any changed, so that the ledger holds what is
    drawn.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.5] * 6 + [1.5] * 4)
    >>> link = lambda rec, per, part: link_counts(rec, [0, 1, 2], per, partition=part)
    >>> link_levels(x, np.zeros(10, dtype=int), [np.array([6.0, 4.0])], None, link)
    [array([6., 4.])]
    """
    per = [np.array(c, dtype=float, copy=True) for c in counts]
    codes = np.asarray(codes)
    dims: list[tuple[np.ndarray, int, Any]] = []
    if facets is not None:
        dims = [(np.asarray(c), int(n), name) for c, n, name in facets.dims]
    n_facets = int(np.prod([n for _, n, _ in dims])) if dims else 1
    if len(per) % n_facets:
        raise ValueError(f"{len(per)} count arrays cannot be {n_facets} facets of equal levels.")
    n_levels = len(per) // n_facets
    if partition is not None or n_levels > 1:
        if facets is not None:
            level_of = np.asarray(facets.level_codes)
        else:
            level_of = np.where(codes >= 0, codes % n_levels, -1)
        dims.append((level_of, n_levels, partition))
    shape = tuple(n for _, n, _ in dims)
    index = np.array(np.unravel_index(np.arange(len(per)), shape)).T if dims else None

    def margin(fixed: dict[int, int]) -> bool:
        """Link the records of the levels `fixed` ({axis: level}), split by the other axes."""
        free = [d for d in range(len(dims)) if d not in fixed]
        mask = None
        for d, level in fixed.items():
            hit = dims[d][0] == level
            mask = hit if mask is None else mask & hit
        cells = {}
        for i in range(len(per)):
            if all(index[i, d] == level for d, level in fixed.items()):
                key = tuple(int(index[i, d]) for d in free)
                cells[key[0] if len(key) == 1 else key] = i
        if free:
            names = [dims[d][2] for d in free]
            part = names[0] if len(names) == 1 else tuple(names)
        else:
            part = None  # one cell: its records' total
        mine = codes if mask is None else codes[mask]
        if not mine.size:
            return False
        sent = {key: per[i] for key, i in cells.items()}
        linked = records if mask is None else records[mask]
        # records of a cell not drawn (a code -1, or of a cell outside this margin)?
        seen = np.bincount(mine + 1, minlength=len(per) + 1)
        seen[[i + 1 for i in cells.values()]] = 0
        if seen.any():
            sent[-1] = np.full(np.shape(per[0]), np.nan)  # records of cells not drawn
        out = link(linked, sent, part)
        changed = False
        for key, i in cells.items():
            changed |= bool(np.isnan(out[key]).sum() > np.isnan(per[i]).sum())
            per[i] = out[key]
        return changed

    def all_margins() -> bool:
        changed = False
        # each axis held at one of its levels or free (None); no axes: the one whole margin
        for held in itertools.product(*[[None, *range(n)] for _, n, _ in dims]):
            changed |= margin({d: lev for d, lev in enumerate(held) if lev is not None})
        return changed

    if all_margins():
        all_margins()  # what a later margin hid, in the ledger of the earlier ones too
    return per


def linked_warning(added: int, what: str) -> str:
    """Return the report's warning for `added` cells the ledger hid (`what`: "bin", "cell")."""
    return (
        f"{added} more {what}(s) hidden: with an earlier release of the same records, they "
        "would have shown a suppressed count as a difference."
    )


def link_cells(
    x: ArrayLike,
    y: ArrayLike,
    xedges: ArrayLike,
    yedges: ArrayLike,
    counts: dict[Any, np.ndarray],
    *,
    partition: Any = None,
    function: str = "",
    cells: np.ndarray | None = None,
) -> dict[Any, np.ndarray]:
    """Return a 2-D grid's `counts` with the secondary suppression linked releases need.

    See :meth:`safeplot.ledger.Ledger.link_cells`; the ledger in force
    decides.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.zeros(4)
    >>> link_cells(x, x, [-1.0, 1.0], [-1.0, 1.0], {None: np.array([[4.0]])})[None]
    array([[4.]])
    """
    return _ledger.current().link_cells(
        x, y, xedges, yedges, counts, partition=partition, function=function, cells=cells
    )


def link_groups(
    outcome: ArrayLike, groups: dict[str, np.ndarray], *, function: str = "", **kwargs: Any
) -> None:
    """Refuse statistics of groups of records that differ by fewer than ``threshold`` records.

    See :meth:`safeplot.ledger.Ledger.link_groups`; the ledger in force
    decides.

    Examples
    --------
    >>> import numpy as np
    >>> link_groups(np.arange(10.0), {"x > 4": np.arange(10) > 4}, function="safe_ols")
    """
    _ledger.current().link_groups(outcome, groups, function=function, **kwargs)


def link_partition(
    outcome: ArrayLike, labels: ArrayLike, names: Any = None, *, function: str = "", **kwargs: Any
) -> None:
    """Refuse group statistics that differ from earlier groups by fewer than ``threshold`` records.

    See :meth:`safeplot.ledger.Ledger.link_partition`; the ledger in force
    decides.

    Examples
    --------
    >>> import numpy as np
    >>> link_partition(np.arange(10.0), np.repeat([0, 1], 5), function="barplot")
    """
    _ledger.current().link_partition(outcome, labels, names, function=function, **kwargs)


def charge_noise(
    column: ArrayLike,
    seed: bytes,
    q: float,
    *,
    name: str | None = None,
    function: str = "",
    order: np.ndarray | None = None,
    ordered: np.ndarray | None = None,
) -> None:
    """Count a keyed-noise draw on the records of `column`.

    See :meth:`safeplot.ledger.Ledger.charge_noise`.
    """
    _ledger.current().charge_noise(
        column, seed, q, name=name, function=function, order=order, ordered=ordered
    )


def spend_epsilon(
    epsilon: float, *, dataset: str = "session", function: str = "", delta: float = 0.0
) -> float:
    """Spend epsilon (and delta, for (epsilon, delta)-DP) from the budget; return what is left.

    See :meth:`safeplot.ledger.Ledger.spend_epsilon`.
    """
    book = _ledger.current()
    if delta:
        return book.spend_epsilon(epsilon, dataset=dataset, function=function, delta=delta)
    return book.spend_epsilon(epsilon, dataset=dataset, function=function)


#: Estimators a release may show, by name: a custom callable could return anything (a record).
ESTIMATORS: tuple[str, ...] = ("mean", "median", "sum", "count", "size", "std", "var", "sem")
#: numpy and built-in functions that are one of :data:`ESTIMATORS`.
_NAMED_FUNCTIONS: dict[Any, str] = {
    np.mean: "mean",
    np.nanmean: "mean",
    np.median: "median",
    np.nanmedian: "median",
    np.sum: "sum",
    np.nansum: "sum",
    sum: "sum",
    len: "size",
    np.std: "std",
    np.var: "var",
}


def named_estimator(
    estimator: Any, allowed: Sequence[str] = ESTIMATORS, *, function: str = ""
) -> str:
    """Return the name of an estimator, refusing custom callables (DESIGN invariant 5).

    Parameters
    ----------
    estimator : str or callable
        A pandas aggregation name, or a numpy/built-in function with one.
    allowed : sequence of str
        The names this release may show.
    function : str
        The public function, for the message.

    Examples
    --------
    >>> import numpy as np
    >>> named_estimator(np.median), named_estimator("mean")
    ('median', 'mean')
    """
    named = _NAMED_FUNCTIONS.get(estimator) if callable(estimator) else estimator
    if not isinstance(named, str) or named not in allowed:
        shown = getattr(estimator, "__name__", estimator)
        prefix = f"{function}: " if function else ""
        raise DisclosureError(
            f"{prefix}estimator={shown!r} is not one of the named estimators "
            f"{list(allowed)}. A custom function of each group's records could return a "
            "record's value, which the figure would show; use one of the names (np.mean and "
            "np.median are accepted as 'mean' and 'median')."
        )
    return named


#: Interval levels any release may use (alpha, or 1 - coverage): a fixed menu, so that no
#: sequence of levels can be stepped to where a rounded interval end moves (invariant 5).
ALPHA_MENU: tuple[float, ...] = (0.01, 0.05, 0.1)


_LEDGER: list[Callable[[str, Any, Any], None]] = []
#: Where :func:`capturing` collects the releases admitted in this thread or task.
_CAPTURE: contextvars.ContextVar[list[tuple[str, Any, Any]] | None] = contextvars.ContextVar(
    "safeplot_capture", default=None
)
#: Reports the ledger has seen, by id (weakly: an id is unique while its report lives).
_ADMITTED: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()


def set_ledger(ledger: Callable[[str, Any, Any], None] | None) -> None:
    """Install the session's release ledger (None removes it).

    The ledger is called as ``ledger(function, report, release)`` once for
    each release, before anything of it is drawn (:func:`admit`); it may
    raise :class:`~safeplot.errors.DisclosureError` to refuse a release that
    combines with earlier ones into a disclosure (DESIGN invariant 6).
    """
    _LEDGER.clear()
    if ledger is not None:
        _LEDGER.append(ledger)


def admit(function: str, report: Any, release: Any = None) -> Any:
    """Hand a release to the ledger before it is drawn; return the release.

    Every plot calls this between building its release and drawing it, so a
    ledger that refuses (by raising) stops the figure before any artist
    exists. The audit log's :func:`record` later skips a report admitted
    here, so the ledger sees each release once.

    Parameters
    ----------
    function : str
        The public function making the release.
    report : DisclosureReport
        The release's report (what the audit log will hold).
    release : object, optional
        The release itself, as the mark will draw it.

    Returns
    -------
    object
        `release`, unchanged.

    Examples
    --------
    >>> from safeplot.release import DisclosureReport
    >>> report = DisclosureReport("histplot", "suppress", {"threshold": 3}, ("age",))
    >>> admit("histplot", report, release=None) is None
    True
    """
    if report is not None and id(report) in _ADMITTED:
        return release
    for ledger in _LEDGER:
        ledger(function, report, release)
    captured = _CAPTURE.get()
    if captured is not None:
        captured.append((function, report, release))
    if report is not None:
        # a report that is not weakly referable may reach the ledger again when logged
        with contextlib.suppress(TypeError):
            _ADMITTED[id(report)] = report
    return release


@contextlib.contextmanager
def capturing() -> Iterator[list[tuple[str, Any, Any]]]:
    """Collect ``(function, report, release)`` of every release admitted inside the block.

    Per thread and task, like :func:`safeplot.ledger.using`: the
    remote-analysis server runs a public function on its own frame inside
    this block and sends what the function released (and nothing else) to
    the analyst, who draws it. A release the ledger refuses is not collected.

    Examples
    --------
    >>> from safeplot.release import DisclosureReport
    >>> with capturing() as seen:
    ...     _ = admit("histplot", DisclosureReport("histplot", "suppress"), "released")
    >>> [(function, release) for function, _, release in seen]
    [('histplot', 'released')]
    """
    token = _CAPTURE.set([])
    try:
        yield _CAPTURE.get()
    finally:
        _CAPTURE.reset(token)


def record(function: str, report: Any, release: Any = None) -> None:
    """Hand a logged release to the ledger, unless :func:`admit` already did."""
    admit(function, report, release)
