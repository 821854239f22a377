"""safeplot: seaborn- and statsmodels-style plots of sensitive data, released safely."""

from . import policy  # callable module: ``with safeplot.policy(threshold=5): ...``
from ._version import __version__
from .errors import DisclosureError, UnsafePlotError
from .policy import Policy, get_policy, load_policy, set_policy

__all__ = [
    "DisclosureError",
    "Policy",
    "UnsafePlotError",
    "__version__",
    "get_policy",
    "load_policy",
    "policy",
    "set_policy",
]
