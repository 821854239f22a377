"""Run one measurement in a fresh interpreter, so peak memory is that measurement's own."""

from __future__ import annotations

import json
import subprocess
import sys


def run_child(code: str, *args: object, timeout: float | None = None) -> dict:
    """Run `code` with `args` as ``sys.argv[1:]`` in a new Python and parse its JSON output.

    A child still running after `timeout` seconds is killed and
    ``subprocess.TimeoutExpired`` raised.
    """
    done = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
        timeout=timeout,
    )
    return json.loads(done.stdout)
