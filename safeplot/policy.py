"""The disclosure-control policy: floors, defaults and allowed methods.

A data custodian writes the rules once, in a TOML file named by the
``SAFEPLOT_POLICY`` environment variable (read when safeplot is imported)::

    # /secure/safeplot-policy.toml
    threshold = 5            # minimum cell count
    k_min = 5                # minimum k for kNN centroids and microaggregation
    q_min = 0.3              # minimum noise, as a fraction of the SD
    allow_raw = false        # method="none" refused
    allowed_methods = ["suppress", "generalize", "deterministic", "probabilistic"]
    secret_file = "/secure/safeplot.key"
    locked = true            # analysts may tighten these floors, never loosen them

Analysts change the policy for a session with :func:`set_policy` or for a
block with the :func:`policy` context manager. When the custodian's file is
locked, every change is checked against it: a change that loosens a floor
raises :class:`~safeplot.errors.DisclosureError` naming the floor.

Each plot call checks its own parameters against the policy in force
(``k`` against ``k_min``, ``q`` against ``q_min``, ``threshold`` against the
policy threshold, the method against ``allowed_methods`` and ``allow_raw``).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import os
import sys
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .errors import DisclosureError
from .keys import SecretKey, read_key_file, resolve_key

try:  # Python >= 3.11
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "BINNED_PLOTS",
    "METHODS",
    "POINT_PLOTS",
    "Policy",
    "custodian_policy",
    "get_policy",
    "load_policy",
    "policy",
    "set_policy",
]

#: Every value ``method=`` accepts.
METHODS: tuple[str, ...] = (
    "suppress",
    "generalize",
    "deterministic",
    "probabilistic",
    "confidential",
    "microaggregation",
    "rounding",
    "dp",
    "none",
)

# Names ``method=`` accepts: the built-in methods and those registered since
# (:func:`safeplot.methods.register` adds to it).
_known_methods: dict[str, None] = dict.fromkeys(METHODS)
# Methods only some plots take: name -> (the plot kinds that take it, their public functions),
# filled by :func:`safeplot.methods.register` from the method's ``plot_kinds`` and ``plots``.
_restricted_methods: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}

#: Plot kinds whose default method is the policy's ``default_binned``.
BINNED_PLOTS = frozenset({"hist", "heatmap", "count"})
#: Plot kinds whose default method is the policy's ``default_point``. A bivariate density
#: (``"contour"``) is one: suppressing the cells of its grid erases a small hue level, while
#: the density of anonymised values keeps every level's shape, as the univariate ``"kde"``.
POINT_PLOTS = frozenset({"scatter", "residual", "qq", "kde", "contour", "box"})

# How each field tightens: "up" means a larger value is stricter.
_FLOOR_DIRECTION = {
    "threshold": "up",
    "k_min": "up",
    "q_min": "up",
    "round_n_to": "up",
    "winsor_sd": "down",
    "sig_figs": "down",
    "dp_budget": "down",
    "dp_delta_budget": "down",
    "noise_draws": "down",
}


@dataclass(frozen=True)
class Policy:
    """Disclosure-control rules in force for every release.

    Parameters
    ----------
    threshold : int, default 3
        Minimum cell count: any drawn count is 0 or at least this.
    k_min : int, default 3
        Minimum ``k`` for kNN-centroid anonymisation and microaggregation;
        also the margin in ``k <= n - k_min``.
    q_min : float, default 0.25
        Minimum noise for probabilistic anonymisation, as a fraction of each
        variable's standard deviation.
    winsor_sd : float, default 2.6
        Winsorising bound, in standard deviations from the mean (O'Keefe).
    sig_figs : int, default 3
        Significant figures of rounded statistics.
    release_quartiles : bool, default False
        Whether summary tables (:func:`safeplot.describe`) may give the
        median and quartiles. O'Keefe (2013, section 3.1.2) does not release
        them (they may be data values), so they are off by default; when on,
        they come from winsorised values and are rounded.
    allow_raw : bool, default False
        Whether ``method="none"`` (the raw plot) may be used.
    round_n_to : int, default 5
        Reports give the number of records rounded to a multiple of this.
    default_binned : str, default "suppress"
        Method used by histograms, heat maps and count plots when
        ``method`` is omitted.
    default_point : str, default "deterministic"
        Method used by scatter, residual, Q-Q, kde (univariate and
        bivariate) and box plots when ``method`` is omitted.
    allowed_methods : frozenset of str
        Methods that may be used (``"none"`` additionally needs
        ``allow_raw``).
    annotate : bool, default True
        Whether figures carry a small footnote naming the method.
    dp_budget : float, default 3.0
        Privacy-loss budget (total epsilon) of differentially private
        releases of one data set; the session's ledger
        (:mod:`safeplot.ledger`) refuses a release that would exceed it.
    dp_delta_budget : float, default 1e-5
        Total delta of (epsilon, delta)-DP releases (``mechanism="gaussian"``)
        of one data set. Deltas add up under composition, as epsilons do
        (basic composition), and the ledger refuses a release that would take
        their sum past this. Laplace releases spend no delta.
    noise_draws : int, default 1
        Independent noise draws the ledger allows for the same records (a
        transformed copy of the data draws new noise; averaging ``m`` draws
        brings the noise to ``q / sqrt(m)``). Re-drawing the same data costs
        nothing: it gives the same noise.
    progress : bool or None, default None
        Progress bars (:mod:`tqdm.auto`) for long releases, dask
        computations and ``finalise``: True shows them, False never, None
        only when standard error is a terminal (so never in tests or CI
        logs). A display setting: it changes no release.
    secret_key : SecretKey, optional
        Key for keyed noise; see :mod:`safeplot.keys`. Never shown.
    locked : bool, default False
        A locked policy is a floor: later changes may tighten, not loosen it.
    source : str
        Where the policy came from, for messages and the audit log.

    Examples
    --------
    >>> p = Policy(threshold=5, k_min=5)
    >>> p.check_threshold(None)
    5
    >>> p.check_k(4, n=100)
    Traceback (most recent call last):
    ...
    safeplot.errors.DisclosureError: k=4 is below the policy floor k_min=5 ...
    """

    threshold: int = 3
    k_min: int = 3
    q_min: float = 0.25
    winsor_sd: float = 2.6
    sig_figs: int = 3
    release_quartiles: bool = False
    allow_raw: bool = False
    round_n_to: int = 5
    default_binned: str = "suppress"
    default_point: str = "deterministic"
    allowed_methods: frozenset[str] = frozenset(METHODS)
    annotate: bool = True
    progress: bool | None = None
    dp_budget: float = 3.0
    noise_draws: int = 1
    dp_delta_budget: float = 1e-5
    secret_key: SecretKey | None = field(default=None, repr=False, compare=False)
    locked: bool = False
    source: str = "built-in defaults"

    def __post_init__(self) -> None:
        methods = self.allowed_methods
        if isinstance(methods, str) or not isinstance(methods, (list, tuple, set, frozenset)):
            raise TypeError(f"allowed_methods must be a list of method names, got {methods!r}.")
        object.__setattr__(self, "allowed_methods", frozenset(methods))
        for name in ("allow_raw", "release_quartiles", "annotate", "locked"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(
                    f"{name} must be true or false, got {getattr(self, name)!r} "
                    f"({type(getattr(self, name)).__name__})."
                )
        if self.progress is not None and not isinstance(self.progress, bool):
            raise TypeError(f"progress must be true, false or None, got {self.progress!r}.")
        _require_int("threshold", self.threshold, 1)
        _require_int("k_min", self.k_min, 2)
        _require_int("sig_figs", self.sig_figs, 1)
        _require_int("round_n_to", self.round_n_to, 1)
        _require_positive("q_min", self.q_min)
        _require_positive("winsor_sd", self.winsor_sd)
        _require_positive("dp_budget", self.dp_budget)
        _require_positive("dp_delta_budget", self.dp_delta_budget)
        _require_int("noise_draws", self.noise_draws, 1)
        unknown = self.allowed_methods - set(_known_methods)
        if unknown:
            raise ValueError(
                f"allowed_methods has unknown method(s) {sorted(unknown)}; "
                f"choose from {list(_known_methods)}."
            )
        for name in ("default_binned", "default_point"):
            value = getattr(self, name)
            if value not in _known_methods:
                raise ValueError(
                    f"{name}={value!r} is not a method; choose from {list(_known_methods)}."
                )
        if self.secret_key is not None and not isinstance(self.secret_key, SecretKey):
            raise TypeError("secret_key must be a safeplot.keys.SecretKey")

    # -- checks used by every release ------------------------------------------------

    def default_method(self, kind: str) -> str:
        """Return the method used for plot `kind` when ``method`` is omitted.

        Examples
        --------
        >>> Policy().default_method("hist"), Policy().default_method("scatter")
        ('suppress', 'deterministic')
        """
        if kind in BINNED_PLOTS:
            return self.default_binned
        if kind in POINT_PLOTS:
            return self.default_point
        raise ValueError(
            f"Unknown plot kind {kind!r}; expected one of {sorted(BINNED_PLOTS | POINT_PLOTS)}."
        )

    def check_method(self, method: str | None, kind: str | None = None) -> str:
        """Return the method to use, refusing unknown or disallowed ones.

        Parameters
        ----------
        method : str or None
            The requested method; None means the policy default for `kind`.
        kind : str, optional
            Plot kind ("hist", "scatter", ...), needed when `method` is None.

        Raises
        ------
        ValueError
            For an unknown method name.
        DisclosureError
            For a method the policy does not allow, or ``"none"`` without
            ``allow_raw``.
        """
        if method is None:
            if kind is None:
                raise ValueError("method is None and no plot kind was given to pick a default.")
            method = self.default_method(kind)
        if not isinstance(method, str) or method.lower() not in _known_methods:
            raise ValueError(
                f"method={method!r} is not a safeplot method; choose from {list(_known_methods)}."
            )
        method = method.lower()
        if method not in self.allowed_methods:
            raise DisclosureError(
                f"method={method!r} is not allowed by the policy ({self.source}); "
                f"allowed methods: {sorted(self.allowed_methods)}."
            )
        # a method only some plots take (differential privacy) is refused by the others here,
        # before any data is read; the registry records the plot kinds that take it
        restricted = _restricted_methods.get(method)
        if restricted is not None and kind is not None and kind not in restricted[0]:
            raise ValueError(
                f"method={method!r} is not available for this plot; the plots that take it "
                f"are {', '.join(restricted[1])}."
            )
        if method == "none" and not self.allow_raw:
            raise DisclosureError(
                "method='none' draws raw data and the policy does not allow raw output "
                f"(allow_raw=False, {self.source}). Choose a disclosure-control method such as "
                "'suppress' or 'deterministic'."
            )
        return method

    def check_threshold(self, threshold: int | None) -> int:
        """Return the cell-count threshold to use (the policy's when None)."""
        if threshold is None:
            return self.threshold
        _require_int("threshold", threshold, 1)
        if threshold < self.threshold:
            raise self._below_floor("threshold", threshold, "threshold")
        return int(threshold)

    def check_k(self, k: int | None, n: int | None = None, *, what: str = "k") -> int:
        """Return the `k` to use (``k_min`` when None), checked against ``k_min`` and ``n``.

        A `k` below ``k_min`` is refused; given the number of records `n`,
        so is ``n < 2 * k_min`` or ``k > n - k_min``. None means the policy's
        floor, so a call that does not choose `k` follows the policy in force.

        Examples
        --------
        >>> Policy().check_k(None), Policy(k_min=5).check_k(None, n=100)
        (3, 5)
        """
        if k is None:
            k = self.k_min
        _require_int(what, k, 1)
        if k < self.k_min:
            raise self._below_floor(what, k, "k_min")
        if n is not None:
            if n < 2 * self.k_min:
                raise DisclosureError(
                    f"Only {self.describe_count(n)} complete records: at least "
                    f"2*k_min={2 * self.k_min} are needed to release them. "
                    "Combine groups or use a binned method on more data."
                )
            if k > n - self.k_min:
                raise DisclosureError(
                    f"{what}={k} is too large for {self.describe_count(n)} records: "
                    f"{what} must satisfy k_min <= {what} <= n - k_min (k_min={self.k_min}). "
                    f"Use a smaller {what}."
                )
        return int(k)

    def check_q(self, q: float | None) -> float:
        """Return the noise level `q` to use (``q_min`` when None), refused below ``q_min``.

        `q` is a fraction of each variable's standard deviation. None means
        the policy's floor, so a call that does not choose `q` follows the
        policy in force.

        Examples
        --------
        >>> Policy().check_q(None), Policy(q_min=0.5).check_q(None), Policy().check_q(1)
        (0.25, 0.5, 1.0)
        """
        if q is None:
            return float(self.q_min)
        _require_positive("q", q)
        if q < self.q_min:
            raise self._below_floor("q", q, "q_min")
        return float(q)

    def check_winsor_sd(self, sd: float | None) -> float:
        """Return the winsorising bound in SDs (the policy's when None); wider is refused.

        A wider bound than ``winsor_sd`` would keep more extreme raw values.
        """
        if sd is None:
            return self.winsor_sd
        _require_positive("sd", sd)
        sd = float(sd)
        if sd > self.winsor_sd:
            raise self._above_limit("sd", sd, "winsor_sd", "wider bounds keep more extreme values")
        return sd

    def check_sig_figs(self, sig: int | None) -> int:
        """Return significant figures for rounded statistics; more than ``sig_figs`` is refused."""
        if sig is None:
            return self.sig_figs
        _require_int("sig", sig, 1)
        if sig > self.sig_figs:
            raise self._above_limit(
                "sig", sig, "sig_figs", "more figures come closer to raw values"
            )
        return int(sig)

    def describe_count(self, n: int) -> str:
        """Return `n` as reports show it: rounded, and never a small exact count.

        Examples
        --------
        >>> p = Policy()
        >>> p.describe_count(0), p.describe_count(2), p.describe_count(498)
        ('0', 'fewer than 3', 'about 500')
        """
        return _describe(self.round_count(n))

    def round_count(self, n: int) -> int | str:
        """Return `n` rounded for reports: 0, ``"<threshold"``, or a rounded integer.

        Examples
        --------
        >>> p = Policy()
        >>> p.round_count(0), p.round_count(2), p.round_count(498)
        (0, '<3', 500)
        """
        n = int(n)
        if n == 0:
            return 0
        if n < self.threshold:
            return f"<{self.threshold}"
        base = self.round_n_to
        rounded = math.floor(n / base + 0.5) * base
        return max(rounded, base)

    def replace(self, **changes: Any) -> Policy:
        """Return a copy with `changes`, checked against this policy's lock.

        A locked policy can be tightened (higher ``threshold``/``k_min``/
        ``q_min``, lower ``winsor_sd``/``sig_figs``, fewer methods, raw output
        switched off) but not loosened.
        """
        _require_known_settings(changes)
        new = dataclasses.replace(self, **changes)
        if self.locked:
            _check_not_looser(new, self)
            new = dataclasses.replace(new, locked=True)
        return new

    @property
    def key(self) -> SecretKey:
        """The noise key: the policy's, else ``SAFEPLOT_SECRET``, else the key file."""
        return resolve_key(self.secret_key)

    def _above_limit(self, what: str, value: Any, limit: str, why: str) -> DisclosureError:
        return DisclosureError(
            f"{what}={value} is above the policy limit {limit}={getattr(self, limit)} "
            f"({self.source}): {why}. Use {what} <= {getattr(self, limit)}."
        )

    def _below_floor(self, what: str, value: Any, floor: str) -> DisclosureError:
        return DisclosureError(
            f"{what}={value} is below the policy floor {floor}={getattr(self, floor)} "
            f"({self.source}). Use {what} >= {getattr(self, floor)}."
        )


def _describe(rounded: int | str) -> str:
    if isinstance(rounded, str):
        return "fewer than " + rounded[1:]
    return "0" if rounded == 0 else f"about {rounded}"


def _require_int(name: str, value: Any, minimum: int) -> None:
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be an integer, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}.")


def _require_known_settings(changes: Mapping[str, Any]) -> None:
    names = [f.name for f in dataclasses.fields(Policy)]
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"Unknown policy setting(s) {sorted(unknown)}; settings are {names}.")


def _require_positive(name: str, value: Any) -> None:
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{name} must be a number, got {value!r}.")
    value = float(value)
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, got {value}.")


def _check_not_looser(new: Policy, floor: Policy) -> None:
    problems = []
    for name, direction in _FLOOR_DIRECTION.items():
        a, b = getattr(new, name), getattr(floor, name)
        if (direction == "up" and a < b) or (direction == "down" and a > b):
            problems.append(f"{name}={a} (locked floor {name}={b})")
    if new.round_n_to % floor.round_n_to:
        # counts rounded to several unrelated bases can be narrowed to their exact value
        problems.append(
            f"round_n_to={new.round_n_to} (must be a multiple of the locked {floor.round_n_to})"
        )
    if new.allow_raw and not floor.allow_raw:
        problems.append("allow_raw=True (locked: allow_raw=False)")
    if new.release_quartiles and not floor.release_quartiles:
        problems.append("release_quartiles=True (locked: release_quartiles=False)")
    extra = new.allowed_methods - floor.allowed_methods
    if extra:
        problems.append(
            f"allowed_methods adds {sorted(extra)} (locked: {sorted(floor.allowed_methods)})"
        )
    if floor.annotate and not new.annotate:
        # the note is how a reader of the figure learns it is not the raw data
        problems.append("annotate=False (locked: every figure names its method)")
    if floor.secret_key is not None and new.secret_key != floor.secret_key:
        problems.append("secret_key (the custodian's key is locked)")
    if problems:
        raise DisclosureError(
            f"The custodian policy ({floor.source}) is locked: it may be tightened but not "
            "loosened. Refused: " + "; ".join(problems) + "."
        )


# -- loading ---------------------------------------------------------------------------

_FILE_KEYS = {f.name for f in dataclasses.fields(Policy)} - {"secret_key", "source"}


def load_policy(path: str | os.PathLike[str]) -> Policy:
    """Read a custodian policy from a TOML file.

    Every :class:`Policy` setting may appear as a top-level key; the noise
    key is given as ``secret_file = "path"`` (preferred) or ``secret = "..."``.
    Unknown keys are refused so a typo cannot silently leave a floor at its
    default.

    Parameters
    ----------
    path : path-like
        The TOML file.

    Returns
    -------
    Policy

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "policy.toml"
    >>> _ = f.write_text("threshold = 10" + chr(10) + "locked = true" + chr(10))
    >>> p = load_policy(f)
    >>> p.threshold, p.locked
    (10, True)
    """
    path = Path(path).expanduser()
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except OSError as exc:
        raise DisclosureError(
            f"Cannot read the safeplot policy file {str(path)!r} ({exc.strerror}). "
            "Check SAFEPLOT_POLICY or ask the data custodian."
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise DisclosureError(
            f"The safeplot policy file {str(path)!r} is not valid TOML: {exc}."
        ) from None
    if isinstance(raw.get("safeplot"), Mapping):
        outside = sorted(set(raw) - {"safeplot"})
        if outside:
            raise DisclosureError(
                f"The safeplot policy file {str(path)!r} has settings {outside} outside its "
                "[safeplot] table, where they would be ignored. Put every setting in the table."
            )
        raw = dict(raw["safeplot"])
    else:
        raw = dict(raw)
    settings: dict[str, Any] = {}
    secret_file = raw.pop("secret_file", None)
    secret = raw.pop("secret", None)
    unknown = set(raw) - _FILE_KEYS
    if unknown:
        raise DisclosureError(
            f"The safeplot policy file {str(path)!r} has unknown setting(s) {sorted(unknown)}; "
            f"known settings: {sorted(_FILE_KEYS | {'secret', 'secret_file'})}."
        )
    settings.update(raw)
    if isinstance(settings.get("allowed_methods"), str):  # one method, written as a string
        settings["allowed_methods"] = [settings["allowed_methods"]]
    if secret_file is not None and secret is not None:
        raise DisclosureError(
            f"The safeplot policy file {str(path)!r} gives both secret and secret_file; "
            "keep one (secret_file is preferred: the key stays out of the policy file)."
        )
    if secret_file is not None:
        key_path = Path(secret_file).expanduser()
        if not key_path.is_absolute():
            key_path = path.parent / key_path
        settings["secret_key"] = read_key_file(key_path, source=f"policy file {path}")
    elif secret is not None:
        settings["secret_key"] = SecretKey(str(secret), source=f"policy file {path}")
    try:
        return Policy(source=f"policy file {path}", **settings)
    except (TypeError, ValueError) as exc:
        raise DisclosureError(
            f"The safeplot policy file {str(path)!r} is invalid: {exc}"
        ) from None


def _policy_from_environment() -> Policy:
    path = os.environ.get("SAFEPLOT_POLICY")
    if path:
        return load_policy(path)
    return Policy()


# -- the policy in force ---------------------------------------------------------------

#: The policy read at import time; a locked one is the floor for the whole process.
_BASE: Policy = _policy_from_environment()
_global: Policy = _BASE
_context: contextvars.ContextVar[Policy | None] = contextvars.ContextVar(
    "safeplot_policy", default=None
)


def custodian_policy() -> Policy:
    """Return the policy read at import time (the custodian's file, else the defaults).

    Its floors are the reference that stays fixed for the whole process,
    whatever the analyst changes later.

    Examples
    --------
    >>> custodian_policy().q_min > 0
    True
    """
    return _BASE


def get_policy(given: Policy | None = None, /) -> Policy:
    """Return the policy in force (the innermost :func:`policy` block, else the global one).

    Parameters
    ----------
    given : Policy, optional
        A policy passed to one call (``policy=`` of :func:`safeplot.corr`,
        :func:`safeplot.safe_ols`, the anonymisers, ...). It is returned
        instead, once checked against a locked custodian policy: a call
        cannot loosen the custodian's floors either.

    Returns
    -------
    Policy

    Raises
    ------
    DisclosureError
        When the custodian's policy is locked and `given` is looser.

    Examples
    --------
    >>> get_policy().threshold >= 1
    True
    >>> get_policy(Policy(threshold=7)).threshold
    7
    """
    if given is not None:
        if not isinstance(given, Policy):
            raise TypeError(f"policy must be a safeplot Policy, got {type(given).__name__}.")
        if _BASE.locked and given is not _BASE:
            _check_not_looser(given, _BASE)
        return given
    current = _context.get()
    return _global if current is None else current


def _derive(base: Policy, new: Policy | None, changes: Mapping[str, Any]) -> Policy:
    """Apply `new` or `changes` to `base`; a locked custodian policy is the floor."""
    if new is not None and not isinstance(new, Policy):
        raise TypeError(f"Expected a safeplot Policy, got {type(new).__name__}.")
    _require_known_settings(changes)
    new = base if new is None else new
    if changes:
        new = dataclasses.replace(new, **changes)
    if _BASE.locked:
        _check_not_looser(new, _BASE)
        new = dataclasses.replace(new, locked=True)
    return new


def set_policy(new: Policy | None = None, /, **changes: Any) -> Policy:
    """Set the policy for the rest of the session.

    Parameters
    ----------
    new : Policy, optional
        A whole policy to use; otherwise the current one is copied.
    **changes
        Settings to change, e.g. ``threshold=10``.

    Returns
    -------
    Policy
        The policy now in force.

    Raises
    ------
    DisclosureError
        When the custodian's policy is locked and a change would loosen it.

    Examples
    --------
    >>> old = get_policy()
    >>> set_policy(threshold=old.threshold + 2).threshold == old.threshold + 2
    True
    >>> _ = set_policy(old)
    """
    global _global
    derived = _derive(get_policy(), new, changes)
    if _context.get() is not None:
        # inside a ``with safeplot.policy(...)`` block: change the block's policy,
        # which the block restores on exit, as matplotlib's rc_context does
        _context.set(derived)
    else:
        _global = derived
    return derived


@contextlib.contextmanager
def policy(new: Policy | None = None, /, **changes: Any) -> Iterator[Policy]:
    """Use a changed policy inside a ``with`` block.

    Parameters
    ----------
    new : Policy, optional
        A whole policy to use inside the block.
    **changes
        Settings to change, e.g. ``k_min=5``.

    Yields
    ------
    Policy
        The policy in force inside the block.

    Examples
    --------
    >>> import safeplot
    >>> with safeplot.policy(threshold=10) as p:
    ...     p.threshold
    10
    """
    derived = _derive(get_policy(), new, changes)
    token = _context.set(derived)
    try:
        yield derived
    finally:
        _context.reset(token)


def _reset(base: Policy | None = None) -> None:
    """Reload the policy from the environment (or use `base`); for tests only."""
    global _BASE, _global
    _BASE = _policy_from_environment() if base is None else base
    _global = _BASE
    _context.set(None)


class _PolicyModule(types.ModuleType):
    """Make this module callable: ``safeplot.policy(...)`` is the :func:`policy` context manager.

    Keeps ``safeplot.policy`` one object, usable both as the module
    (``safeplot.policy.Policy``) and as the context manager, instead of the
    function shadowing the module.
    """

    def __call__(
        self, new: Policy | None = None, /, **changes: Any
    ) -> contextlib.AbstractContextManager[Policy]:
        return policy(new, **changes)


sys.modules[__name__].__class__ = _PolicyModule
