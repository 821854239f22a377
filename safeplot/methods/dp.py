"""Differential privacy: counts released with OpenDP's discrete Laplace noise.

Unlike the disclosure-control methods, ``"dp"`` gives a guarantee that does
not depend on what a reader knows: each released count carries discrete
Laplace noise of scale ``1 / epsilon`` (one record changes one count by one),
drawn by OpenDP (:mod:`safeplot.anonymize.dp`), and each release spends
``epsilon`` from the data set's privacy budget (the policy's ``dp_budget``,
tracked by the session's ledger). Its counts are not suppressed: a noisy
count of 1 or 2 says nothing certain about any record, and suppressing the
small ones would make the release depend on the exact counts again.
"""

from __future__ import annotations

from ._base import Method, register

__all__ = ["DifferentialPrivacy"]


class DifferentialPrivacy(Method):
    """Release counts with differentially private noise, spending ``epsilon`` of the budget.

    Parameters
    ----------
    epsilon : float, optional
        Privacy loss of one release (default 1.0); the policy's
        ``dp_budget`` caps the total over the session.

    Examples
    --------
    >>> m = DifferentialPrivacy(epsilon=0.5)
    >>> m.family, m.get_params()
    ('private', {'epsilon': 0.5})
    >>> m.plots
    ('histplot', 'hist', 'displot', 'countplot', 'heatmap', 'crosstab', 'ecdfplot', 'kdeplot')
    """

    name = "dp"
    summary = "Counts carry OpenDP's discrete Laplace noise of scale 1/epsilon."
    note_params = ("epsilon",)
    private = True
    plots = (
        "histplot",
        "hist",
        "displot",
        "countplot",
        "heatmap",
        "crosstab",
        "ecdfplot",
        "kdeplot",
    )
    #: "heatmap": 2-D count grids (heatmap with x and y, histplot with x and y); "kde": the
    #: univariate density smoothed from DP counts; ECDFs take the "hist" kind.
    plot_kinds = ("hist", "count", "heatmap", "kde")
    param_names = ("epsilon",)

    #: epsilon of a release that names none.
    default_epsilon = 1.0


register(DifferentialPrivacy())
