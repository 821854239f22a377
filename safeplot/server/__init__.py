"""The remote-analysis server behind ``safeplot serve`` (needs the ``server`` extra).

:mod:`safeplot.server.auth` reads and writes the analysts file (hashed
tokens, grants) and needs nothing beyond the standard library;
:mod:`safeplot.server.app` builds the FastAPI application and needs
``pip install "safeplot[server]"``.
"""

from __future__ import annotations

__all__ = ["INSTALL_HINT", "require_server_extra"]

#: What to run when FastAPI, uvicorn or httpx is missing.
INSTALL_HINT = (
    "the remote-analysis server and client need the 'server' extra: "
    'pip install "safeplot[server]" (FastAPI, uvicorn and httpx)'
)


def require_server_extra(*modules: str) -> None:
    """Raise ImportError naming the extra to install when one of `modules` is missing."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ImportError(f"{', '.join(missing)} not installed: {INSTALL_HINT}.")
