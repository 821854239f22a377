"""The table of a count plot of a dask DataFrame, from the pairs counted out of core.

:func:`safeplot.sources.dask.dask_count_pairs` reads the partitions once and
returns each distinct (category, hue level) pair with the rows holding it;
the count plot's own layout code then runs on that small table of pairs, so
the levels, their order and the counts are those of the same records in
pandas.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..sources.dask import dask_count_pairs
from ._categories import Layout, index_of, is_numeric, resolve

__all__ = ["dask_count_table"]


def dask_count_table(
    data: Any,
    x: Any,
    y: Any,
    hue: Any,
    order: Sequence[Any] | None,
    hue_order: Sequence[Any] | None,
    orient: str | None,
    *,
    threshold: int,
) -> tuple[Layout, np.ndarray, int, np.ndarray, np.ndarray | None]:
    """Count the table (category x hue level) of a count plot of a dask DataFrame.

    Parameters
    ----------
    data : dask DataFrame
        The records.
    x, y, hue : str or None
        Column names, as :func:`~safeplot.countplot` takes them.
    order, hue_order : sequence, optional
        The levels to show, in order.
    orient : str, optional
        seaborn's orientation.
    threshold : int
        The minimum count: numeric categories held by fewer records are rare.

    Returns
    -------
    layout : Layout
        Names, levels and types of the plot.
    table : ndarray
        Records per (category, hue level).
    n_dropped : int
        Rows left out for a missing value.
    rare_categories : ndarray
        Numeric categories held by fewer than `threshold` records.
    undrawn : ndarray or None
        With `hue`: per category, the records drawn without their hue (a
        missing hue, or a level left out of `hue_order`), which a count plot
        without hue counts.
    """
    first, weights = dask_count_pairs(data, x, y, hue)
    layout, _ = resolve("countplot", first, x, y, hue, order, hue_order, orient, numeric=False)
    cat = first[x if x is not None else y]
    missing = cat.isna().to_numpy().copy()
    hue_idx = np.zeros(len(first), dtype=np.intp)
    cat_idx = index_of(cat, layout.levels)
    undrawn = None
    if hue is not None:
        no_hue = first[hue].isna().to_numpy()
        hue_idx = index_of(first[hue], layout.hue_levels)
        out = ~missing & (cat_idx >= 0) & (no_hue | (hue_idx < 0))
        undrawn = np.zeros(len(layout.levels))
        np.add.at(undrawn, cat_idx[out], weights[out])
        missing |= no_hue
    keep = ~missing & (cat_idx >= 0) & (hue_idx >= 0)
    table = np.zeros((len(layout.levels), layout.n_hue))
    np.add.at(table, (cat_idx[keep], hue_idx[keep]), weights[keep])
    n_dropped = int(weights[missing].sum())
    rare = np.array([])
    if is_numeric(cat):
        per_value = (
            pd.DataFrame({"v": cat[~missing].to_numpy(dtype=float), "n": weights[~missing]})
            .groupby("v")["n"]
            .sum()
        )
        rare = per_value.index.to_numpy(dtype=float)[per_value.to_numpy() < threshold]
    return layout, table, n_dropped, rare, undrawn
