"""safeplot: seaborn- and statsmodels-style plots of sensitive data, released safely.

Use it as ``import safeplot as sns``: plot functions take the usual arguments
plus ``method=`` and route the data through statistical disclosure control
before anything is drawn. See :mod:`safeplot.policy` for the custodian's
rules, :mod:`safeplot.methods` for the methods, :mod:`safeplot.anonymize` for their
numerics and :mod:`safeplot.audit`
for the log an output checker reads.
"""

from . import (
    anonymize,
    assess,  # callable module: ``safeplot.assess(df, vars, method=..., sweep=...)``
    audit,
    datasets,
    ledger,
    methods,
    metrics,
    policy,  # callable module: ``with safeplot.policy(threshold=5): ...``
)
from ._version import __version__
from .datasets import get_dataset_names, load_dataset
from .diagnostics import SafeGLMResults, SafeOLSResults, safe_glm, safe_logit, safe_ols
from .errors import DisclosureError, UnsafePlotError
from .integrations import projection as _projection  # noqa: F401 (projection, savefig hook)
from .plots.axisgrid import jointplot, pairplot
from .plots.bar import barplot
from .plots.boxen import boxenplot
from .plots.categorical import boxplot, countplot
from .plots.cluster import clustermap
from .plots.confidential import correspondenceplot, parallelboxplot
from .plots.distributions import hist, histplot
from .plots.ecdf import ecdfplot
from .plots.facets import catplot, displot, lmplot, relplot
from .plots.kde import kdeplot
from .plots.line import lineplot
from .plots.matrix import heatmap, is_safe_matrix
from .plots.okeefe import biplot, ppplot
from .plots.point import pointplot
from .plots.regression import qqplot, regplot, residplot
from .plots.relational import scatter, scatterplot
from .plots.rug import rugplot
from .plots.strip import stripplot, swarmplot
from .plots.survival import kmplot
from .plots.violin import violinplot
from .policy import Policy, get_policy, load_policy, set_policy
from .remote import accepts_remote as _accepts_remote
from .remote import connect
from .summaries import chi2_contingency, corr, crosstab, describe
from .survival import safe_coxph

# a RemoteFrame as data= sends the call to the server holding the data (safeplot.remote)
histplot = _accepts_remote("histplot")(histplot)
scatterplot = _accepts_remote("scatterplot")(scatterplot)
boxplot = _accepts_remote("boxplot")(boxplot)
countplot = _accepts_remote("countplot")(countplot)
heatmap = _accepts_remote("heatmap")(heatmap)
kdeplot = _accepts_remote("kdeplot")(kdeplot)
describe = _accepts_remote("describe")(describe)
crosstab = _accepts_remote("crosstab")(crosstab)
corr = _accepts_remote("corr")(corr)
safe_ols = _accepts_remote("safe_ols")(safe_ols)
safe_logit = _accepts_remote("safe_logit")(safe_logit)

__all__ = [
    "DisclosureError",
    "Policy",
    "SafeGLMResults",
    "SafeOLSResults",
    "UnsafePlotError",
    "__version__",
    "anonymize",
    "assess",
    "audit",
    "barplot",
    "biplot",
    "boxenplot",
    "boxplot",
    "catplot",
    "chi2_contingency",
    "clustermap",
    "connect",
    "corr",
    "correspondenceplot",
    "countplot",
    "crosstab",
    "datasets",
    "describe",
    "displot",
    "ecdfplot",
    "get_dataset_names",
    "get_policy",
    "heatmap",
    "hist",
    "histplot",
    "is_safe_matrix",
    "jointplot",
    "kdeplot",
    "kmplot",
    "ledger",
    "lineplot",
    "lmplot",
    "load_dataset",
    "load_policy",
    "methods",
    "metrics",
    "pairplot",
    "parallelboxplot",
    "pointplot",
    "policy",
    "ppplot",
    "qqplot",
    "regplot",
    "relplot",
    "residplot",
    "rugplot",
    "safe_coxph",
    "safe_glm",
    "safe_logit",
    "safe_ols",
    "scatter",
    "scatterplot",
    "set_policy",
    "stripplot",
    "swarmplot",
    "violinplot",
]


def __getattr__(name: str):
    """Resolve the rest of seaborn's namespace (``import safeplot as sns``).

    Safe versions, data-free helpers passed through, guarded grids, or
    refusals naming the safe alternative: see
    :mod:`safeplot.integrations.seaborn_compat`.
    """
    from .integrations.seaborn_compat import resolve

    return resolve(name)


def __dir__() -> list[str]:
    """List the package's names and every name of seaborn's namespace."""
    from .integrations.seaborn_compat import namespace_dir

    return namespace_dir(globals())
