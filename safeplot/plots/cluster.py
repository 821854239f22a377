"""Clustered heat maps (seaborn's ``clustermap``) of matrices safeplot released.

A clustermap colours every cell of a matrix and orders rows and columns by
a hierarchical clustering of them. Given a table of records it would show
every raw value, so :func:`clustermap` draws only a matrix released by
safeplot in this session -- :func:`safeplot.crosstab` (counts, small cells
suppressed) or :func:`safeplot.corr` (rounded correlations) -- exactly as
:func:`safeplot.heatmap` does. The clustering and any ``z_score`` or
``standard_scale`` are computed from the released numbers only.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from ..errors import DisclosureError
from ..methods import get_method, refuse_unsupported
from ..policy import get_policy
from ..release import guard
from ._common import finish, make_report, quiet_seaborn
from .matrix import MARKER, is_safe_matrix, matrix_report, refuse_raw_matrix

__all__ = ["clustermap"]


def clustermap(
    data: Any,
    *,
    pivot_kws: dict[str, Any] | None = None,
    method: str = "average",
    metric: str = "euclidean",
    z_score: int | None = None,
    standard_scale: int | None = None,
    figsize: tuple[float, float] = (10, 10),
    cbar_kws: dict[str, Any] | None = None,
    row_cluster: bool = True,
    col_cluster: bool = True,
    row_linkage: Any = None,
    col_linkage: Any = None,
    row_colors: Any = None,
    col_colors: Any = None,
    mask: Any = None,
    dendrogram_ratio: float | tuple[float, float] = 0.2,
    colors_ratio: float | tuple[float, float] = 0.03,
    cbar_pos: tuple[float, float, float, float] | None = (0.02, 0.8, 0.05, 0.18),
    tree_kws: dict[str, Any] | None = None,
    sdc_method: str | None = None,
    annotate: bool | None = None,
    **kwargs: Any,
) -> Any:
    """Draw a clustered heat map of a matrix released by safeplot.

    The arguments are those of :func:`seaborn.clustermap`. Its ``method``
    is the linkage method of the clustering (seaborn's meaning), so the
    disclosure-control method is not chosen here: it is the one the matrix
    was released with (give it to :func:`safeplot.crosstab` or
    :func:`safeplot.corr`).

    Parameters
    ----------
    data : DataFrame
        A matrix from :func:`safeplot.crosstab` or :func:`safeplot.corr`,
        unchanged. Anything else is refused.
    pivot_kws : dict, optional
        Refused: pivoting builds a new matrix from records.
    method, metric, z_score, standard_scale, figsize, cbar_kws, row_cluster, col_cluster
        As in seaborn (computed from the released numbers).
    row_linkage, col_linkage, row_colors, col_colors, mask
        As in seaborn.
    dendrogram_ratio, colors_ratio, cbar_pos, tree_kws
        Layout, as in seaborn.
    sdc_method : str, optional
        ``"none"`` (with a policy allowing raw output) draws any matrix
        raw; otherwise leave it out.
    annotate : bool, optional
        Add the method note to the heat map (default: the policy's setting).
    **kwargs
        Passed to :func:`seaborn.heatmap` (``annot`` must be a bool).

    Returns
    -------
    seaborn.matrix.ClusterGrid
        seaborn's grid; ``grid.ax_heatmap.safeplot_report`` is the release's
        report.

    Raises
    ------
    DisclosureError
        A matrix safeplot did not release (or changed after release), or
        ``annot`` given as numbers.
    ValueError
        `pivot_kws`; suppressed (missing) cells, which the clustering cannot
        use.

    See Also
    --------
    heatmap : The same matrix without clustering.
    crosstab : Counts with small cells suppressed.

    Notes
    -----
    Methods. The matrix carries its method: ``"suppress"``/``"generalize"``
    (:func:`safeplot.crosstab`) or ``"confidential"`` (:func:`safeplot.corr`);
    the clustering adds no disclosure, as it uses only released numbers. A
    table with suppressed cells cannot be clustered (the distances need
    every cell): use ``crosstab(..., method="generalize")`` or fewer levels.

    Examples
    --------
    >>> import safeplot
    >>> from safeplot.plots.matrix import crosstab
    >>> tips = safeplot.load_dataset("tips")
    >>> g = clustermap(crosstab(tips, "day", "sex"), figsize=(4, 4))
    >>> g.ax_heatmap.safeplot_report.function
    'heatmap'
    """
    pol = get_policy()
    if pivot_kws is not None:
        raise ValueError(
            "clustermap: pivot_kws builds a matrix from records, which safeplot cannot vet. "
            "Make the matrix with safeplot.crosstab (counts) or safeplot.corr instead."
        )
    if is_safe_matrix(data):
        report = matrix_report(data.attrs[MARKER])
        if report.method:
            pol.check_method(report.method)
        if sdc_method is not None and sdc_method != report.method:
            raise ValueError(
                f"clustermap: this matrix was released with method {report.method!r}; leave "
                "sdc_method out."
            )
        annot = kwargs.get("annot")
        if not (annot is None or isinstance(annot, (bool, np.bool_))):
            raise DisclosureError(
                "clustermap: annot= must be True or False with a released matrix (numbers "
                "given here would be drawn without any check)."
            )
        if np.isnan(data.to_numpy(dtype=float)).any():
            raise ValueError(
                "clustermap: the matrix has suppressed (missing) cells, and the clustering "
                "needs every cell. Release it with crosstab(..., method='generalize'), merge "
                "small levels, or draw it with safeplot.heatmap."
            )
    else:
        chosen = pol.check_method(sdc_method, "heatmap")
        refuse_unsupported(chosen, "clustermap", "clustermap")
        if not get_method(chosen).raw:
            raise refuse_raw_matrix()
        report = make_report(
            "heatmap", "none", {}, ("matrix",), 0, 0, pol, details={"matrix": "raw"}
        )
    import seaborn as sns

    guard.admit(report.function, report, data)
    with quiet_seaborn(), warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module="seaborn")
        grid = sns.clustermap(
            data,
            method=method,
            metric=metric,
            z_score=z_score,
            standard_scale=standard_scale,
            figsize=figsize,
            cbar_kws=cbar_kws,
            row_cluster=row_cluster,
            col_cluster=col_cluster,
            row_linkage=row_linkage,
            col_linkage=col_linkage,
            row_colors=row_colors,
            col_colors=col_colors,
            mask=mask,
            dendrogram_ratio=dendrogram_ratio,
            colors_ratio=colors_ratio,
            cbar_pos=cbar_pos,
            tree_kws=tree_kws,
            **kwargs,
        )
    finish(grid.ax_heatmap, report, annotate=annotate, policy=pol)
    grid.safeplot_report = grid.ax_heatmap.safeplot_report
    return grid
