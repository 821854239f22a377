"""Analysts, their tokens and their grants: the file ``safeplot token add`` writes.

The analysts file is TOML, one table per analyst::

    [analysts.alice]
    token_sha256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    datasets = ["titanic"]

Only a hash of each token is stored. A token is 32 random bytes from
:func:`secrets.token_urlsafe` (256 bits), so it cannot be guessed and a fast
hash is enough: SHA-256, compared with :func:`hmac.compare_digest`. (Slow,
salted hashes such as scrypt protect *passwords*, which are guessable; they
would only slow every request down here.)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

__all__ = ["Analyst", "add_token", "hash_token", "load_analysts", "verify_token"]

#: Names of analysts and data sets: letters, digits, ``.``, ``_`` and ``-``.
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Analyst:
    """One analyst: a name, the hash of their token, the data sets granted.

    Examples
    --------
    >>> a = Analyst("alice", hash_token("s3cret"), ("titanic",))
    >>> a.may_read("titanic"), a.may_read("other")
    (True, False)
    """

    name: str
    token_sha256: str
    datasets: tuple[str, ...]

    def may_read(self, dataset: str) -> bool:
        """Whether the analyst was granted `dataset`."""
        return dataset in self.datasets


def hash_token(token: str) -> str:
    """Return the hex SHA-256 of a token (what the analysts file stores).

    Examples
    --------
    >>> hash_token("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_name(name: str, what: str) -> str:
    """Return `name` if it is a valid analyst or data-set name, else raise ValueError."""
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(
            f"{what} {name!r} is not valid: use letters, digits, '.', '_' and '-' "
            "(at most 64 characters, starting with a letter or digit)."
        )
    return name


def load_analysts(path: str | os.PathLike[str]) -> dict[str, Analyst]:
    """Read the analysts file; an absent file holds no analysts.

    Raises
    ------
    ValueError
        If the file is not a valid analysts file.
    """
    path = Path(path)
    if not path.exists():
        return {}
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"cannot read the analysts file {str(path)!r}: {exc}") from None
    table = doc.get("analysts", {})
    if not isinstance(table, dict):
        raise ValueError(f"{str(path)!r}: [analysts] must be a table.")
    out = {}
    for name, entry in table.items():
        check_name(name, "Analyst name")
        digest = entry.get("token_sha256") if isinstance(entry, dict) else None
        datasets = entry.get("datasets", []) if isinstance(entry, dict) else None
        if not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)):
            raise ValueError(f"{str(path)!r}: analyst {name!r} has no valid token_sha256.")
        if not (isinstance(datasets, list) and all(isinstance(d, str) for d in datasets)):
            raise ValueError(f"{str(path)!r}: analyst {name!r}: datasets must be a list of names.")
        out[name] = Analyst(name, digest, tuple(datasets))
    return out


def _write(path: Path, analysts: dict[str, Analyst]) -> None:
    lines = [
        "# safeplot analysts: one table per analyst, the SHA-256 of their token and the data",
        "# sets granted. Written by `safeplot token add`; tokens themselves are never stored.",
        "",
    ]
    for a in analysts.values():
        lines += [
            f"[analysts.{a.name}]",
            f"token_sha256 = {json.dumps(a.token_sha256)}",
            f"datasets = {json.dumps(list(a.datasets))}",
            "",
        ]
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    os.replace(tmp, path)


def add_token(path: str | os.PathLike[str], name: str, datasets: list[str]) -> tuple[str, Analyst]:
    """Create or extend the analysts file with a new random token for `name`.

    An analyst already in the file gets a new token (the old one stops
    working) and the data sets given are added to their grants.

    Returns
    -------
    tuple of (str, Analyst)
        The token (shown once, never stored) and the analyst's entry.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "analysts.toml"
    >>> token, alice = add_token(path, "alice", ["titanic"])
    >>> verify_token(load_analysts(path), token).name
    'alice'
    """
    path = Path(path)
    check_name(name, "Analyst name")
    if not datasets:
        raise ValueError("--datasets needs at least one data-set name.")
    for d in datasets:
        check_name(d, "Data-set name")
    analysts = load_analysts(path)
    token = secrets.token_urlsafe(32)
    old = analysts.get(name)
    grants = tuple(dict.fromkeys((*(old.datasets if old else ()), *datasets)))
    analysts[name] = Analyst(name, hash_token(token), grants)
    _write(path, analysts)
    return token, analysts[name]


def verify_token(analysts: dict[str, Analyst], token: str | None) -> Analyst | None:
    """Return the analyst whose token this is, else None (constant-time comparisons).

    Examples
    --------
    >>> book = {"a": Analyst("a", hash_token("t"), ("x",))}
    >>> verify_token(book, "t").name, verify_token(book, "u")
    ('a', None)
    """
    if not token:
        return None
    digest = hash_token(token)
    found = None
    for analyst in analysts.values():  # every entry compared: the time says nothing
        if hmac.compare_digest(digest, analyst.token_sha256):
            found = analyst
    return found
