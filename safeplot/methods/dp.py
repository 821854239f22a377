"""Differential privacy: counts released with OpenDP's discrete Laplace noise.

Unlike the disclosure-control methods, ``"dp"`` gives a guarantee that does
not depend on what a reader knows: each released count carries discrete
Laplace noise of scale ``1 / epsilon`` (one record changes one count by one),
drawn by OpenDP (:mod:`safeplot.anonymize.dp`), and each release spends
``epsilon`` from the data set's privacy budget (the policy's ``dp_budget``,
tracked by the session's ledger). Its counts are not suppressed: a noisy
count of 1 or 2 says nothing certain about any record, and suppressing the
small ones would make the release depend on the exact counts again.

``mechanism="gaussian"`` with ``delta=`` adds discrete Gaussian noise instead
(zero-concentrated DP, converted by OpenDP to (epsilon, delta)-DP); deltas
add up against the policy's ``dp_delta_budget``. Bar plots release DP means
(a noisy sum of clipped values over a noisy count) and Kaplan-Meier curves
are computed from noisy events and censorings per bin of a fixed grid.
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
    mechanism : {"laplace", "gaussian"}, optional
        The noise (default ``"laplace"``, pure epsilon-DP).
    delta : float, optional
        With ``"gaussian"``: the delta of (epsilon, delta)-DP (at most 1e-5).

    Examples
    --------
    >>> m = DifferentialPrivacy(epsilon=0.5)
    >>> m.family, m.get_params()
    ('private', {'epsilon': 0.5})
    >>> m.plots[:4]
    ('histplot', 'hist', 'displot', 'countplot')
    >>> "kmplot" in m.plots
    True
    """

    name = "dp"
    summary = "Counts carry OpenDP's discrete Laplace noise of scale 1/epsilon."
    note_params = ("epsilon", "delta")
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
        "barplot",
        "kmplot",
    )
    #: "heatmap": 2-D count grids (heatmap with x and y, histplot with x and y); "kde": the
    #: univariate density smoothed from DP counts; ECDFs take the "hist" kind.
    plot_kinds = ("hist", "count", "heatmap", "kde")
    param_names = ("epsilon", "mechanism", "delta")

    #: epsilon of a release that names none.
    default_epsilon = 1.0


register(DifferentialPrivacy())
