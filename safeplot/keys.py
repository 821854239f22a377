"""The secret key behind keyed noise, and where it comes from.

Probabilistic anonymisation adds noise whose generator is seeded from an
HMAC of a secret key and a fingerprint of the data, so re-drawing the same
data gives the same noise (averaging many releases recovers nothing) while
nobody without the key can reproduce or subtract the noise. The fingerprint
rounds each value to about 9 significant digits, so the same key gives the
same noise on every machine even where computed values differ in their last
bits (see :mod:`safeplot.anonymize.probabilistic`).

The key is resolved in this order:

1. the custodian's policy file (``secret_file = "..."`` or ``secret = "..."``);
2. the ``SAFEPLOT_SECRET`` environment variable;
3. a per-user key file, created on first use with 256 random bits and
   owner-only permissions: ``$SAFEPLOT_HOME/secret.key`` if ``SAFEPLOT_HOME``
   is set, else ``$XDG_CONFIG_HOME/safeplot/secret.key`` (default
   ``~/.config/safeplot/secret.key``).

A :class:`SecretKey` never shows its bytes: not in ``repr``/``str``, not in
reports or the audit log, and it refuses to be pickled.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from .errors import DisclosureError

__all__ = ["SecretKey", "check_key", "default_key_path", "resolve_key"]

#: Number of random bytes in a generated key (256 bits).
KEY_BYTES = 32
#: Shortest ``SAFEPLOT_SECRET`` accepted.
MIN_SECRET_CHARS = 16


class SecretKey:
    """A secret key whose bytes never leave the object except through HMAC.

    Parameters
    ----------
    material : bytes or str
        The key material. A string is encoded as UTF-8.
    source : str
        Where the key came from ("policy file", "SAFEPLOT_SECRET", "key file
        ~/.config/..."): shown in reprs instead of the key.

    Examples
    --------
    >>> key = SecretKey(b"not a real key", source="example")
    >>> key
    SecretKey(source='example')
    >>> len(key.digest(b"message"))
    32
    """

    __slots__ = ("__material", "source")

    def __init__(self, material: bytes | str, source: str = "unknown") -> None:
        if isinstance(material, str):
            material = material.encode("utf-8")
        if not isinstance(material, bytes) or len(material) == 0:
            raise DisclosureError(
                "The secret key is empty. Set SAFEPLOT_SECRET to a long random string, "
                "or remove it to let safeplot create a per-user key file."
            )
        self.__material = material
        self.source = source

    def digest(self, message: bytes) -> bytes:
        """Return HMAC-SHA256 of `message` under this key (32 bytes)."""
        return hmac.new(self.__material, message, hashlib.sha256).digest()

    def __repr__(self) -> str:
        return f"SecretKey(source={self.source!r})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SecretKey):
            return NotImplemented
        return hmac.compare_digest(self.digest(b"eq"), other.digest(b"eq"))

    def __hash__(self) -> int:
        return hash(self.digest(b"hash"))

    def __reduce__(self):
        """Refuse pickling: the key must not leave the process."""
        raise TypeError(
            "A safeplot SecretKey cannot be pickled: the noise key must stay on this machine."
        )

    def __copy__(self) -> SecretKey:
        return self

    def __deepcopy__(self, memo: dict) -> SecretKey:
        return self


def default_key_path() -> Path:
    """Return the path of the per-user key file (it may not exist yet).

    Examples
    --------
    >>> default_key_path().name
    'secret.key'
    """
    home = os.environ.get("SAFEPLOT_HOME")
    if home:
        return Path(home).expanduser() / "secret.key"
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config).expanduser() / "safeplot" / "secret.key"


def read_key_file(path: str | os.PathLike[str], source: str | None = None) -> SecretKey:
    """Read a key file written by safeplot or by a custodian.

    The file holds the key as text (hex or any string); surrounding white
    space is ignored.
    """
    path = Path(path).expanduser()
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise DisclosureError(
            f"Cannot read the safeplot key file {str(path)!r} ({exc.strerror}). "
            "Ask the data custodian for the key file, or fix the path in the policy."
        ) from None
    return SecretKey(text, source=source or f"key file {path}")


def _create_key_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o600)
    except FileExistsError:  # another process created it first: use theirs
        return
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(secrets.token_hex(KEY_BYTES) + "\n")
    os.chmod(path, 0o600)


def resolve_key(policy_key: SecretKey | None = None) -> SecretKey:
    """Return the key to use: the policy's, then ``SAFEPLOT_SECRET``, then the key file.

    Parameters
    ----------
    policy_key : SecretKey, optional
        The key named by the custodian's policy, if any.

    Returns
    -------
    SecretKey

    Examples
    --------
    >>> resolve_key(SecretKey("abc", source="policy")).source
    'policy'
    """
    if policy_key is not None:
        return policy_key
    env = os.environ.get("SAFEPLOT_SECRET")
    if env:
        if len(env) < MIN_SECRET_CHARS:
            # a short secret can be guessed, and the noise regenerated and subtracted
            raise DisclosureError(
                f"SAFEPLOT_SECRET is too short to keep the noise secret (fewer than "
                f"{MIN_SECRET_CHARS} characters). Use a long random value, e.g. the output of "
                "python -c 'import secrets; print(secrets.token_hex(32))', or unset it to use "
                "the per-user key file."
            )
        return SecretKey(env, source="SAFEPLOT_SECRET")
    path = default_key_path()
    if not path.exists():
        _create_key_file(path)
    return read_key_file(path)


def check_key(key: object) -> SecretKey:
    """Return `key` if it is a :class:`SecretKey`, else refuse it.

    The refusal names only the type: the object given may be the secret itself.

    Examples
    --------
    >>> k = SecretKey("a demonstration secret", source="example")
    >>> check_key(k) is k
    True
    """
    if not isinstance(key, SecretKey):
        raise TypeError(
            f"key must be a safeplot.keys.SecretKey, not {type(key).__name__}; "
            "wrap the secret as SecretKey(secret, source=...)."
        )
    return key
