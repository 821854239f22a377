"""Progress bars for long releases, shown with :mod:`tqdm.auto` when they help.

A release over many records (kNN centroids or microaggregation of 100,000
rows and more), a dask computation and :func:`safeplot.bundle.finalise`
can take a while. They report their progress through the two helpers
here, which show a bar only when

- the policy's ``progress`` setting is ``True``, or
- it is ``None`` (the default) and standard error is a terminal,

and never when ``progress=False``. Tests, CI logs and scripts whose
standard error is redirected therefore stay free of progress output
unless asked. :mod:`tqdm.auto` draws a notebook widget in Jupyter (where
standard error is not a terminal: set ``progress=True`` there) and a text
bar on a terminal. Nothing about the data is shown: only the share of the
work done and the time (:data:`BAR_FORMAT`), not the number of records.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from .policy import Policy, get_policy

__all__ = ["LONG_RELEASE_ROWS", "progress", "progress_bar", "progress_enabled"]

#: Records from which a release is long enough to show a progress bar.
LONG_RELEASE_ROWS = 100_000

#: What a bar shows: the share done and the time, never the steps themselves. tqdm's
#: default ``n/total`` and rate would print the exact number of records of a release
#: (the report rounds it).
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]"

T = TypeVar("T")


def _stderr_is_terminal() -> bool:
    stream = sys.stderr
    try:
        return stream is not None and bool(stream.isatty())
    except (AttributeError, ValueError):  # closed or replaced by an object without isatty
        return False


def progress_enabled(policy: Policy | None = None) -> bool:
    """Tell whether progress bars are shown under `policy` (default: the policy in force).

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> progress_enabled(Policy(progress=False)), progress_enabled(Policy(progress=True))
    (False, True)
    """
    setting = get_policy(policy).progress
    if setting is None:
        return _stderr_is_terminal()
    return bool(setting)


def _show(size: int | None, min_size: int | None, policy: Policy | None) -> bool:
    if min_size is None:
        min_size = LONG_RELEASE_ROWS
    return (size is None or size >= min_size) and progress_enabled(policy)


class _NoBar:
    """Stands in for a tqdm bar when none is shown: every call does nothing."""

    def update(self, n: float = 1) -> None:
        """Do nothing."""

    def close(self) -> None:
        """Do nothing."""

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def progress_bar(
    *,
    total: float | None,
    desc: str,
    unit: str = "it",
    size: int | None = None,
    min_size: int | None = None,
    policy: Policy | None = None,
) -> Any:
    """Return a :mod:`tqdm.auto` bar to update by hand, or a stand-in that does nothing.

    Parameters
    ----------
    total : float or None
        Steps to completion (None: unknown).
    desc : str
        What is in progress (shown before the bar).
    unit : str, default "it"
        Name of a step.
    size : int, optional
        Records the work is about; below `min_size` no bar is shown. None
        shows a bar whenever progress is enabled.
    min_size : int, optional
        Fewest records for a bar (default: :data:`LONG_RELEASE_ROWS`).
    policy : Policy, optional
        The policy whose ``progress`` setting decides (default: in force).

    Returns
    -------
    tqdm.auto.tqdm or a stand-in
        Either way it has ``update(n)`` and ``close()`` and is a context
        manager.

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> with progress_bar(total=3, desc="work", policy=Policy(progress=False)) as bar:
    ...     bar.update(3)
    """
    if not _show(size, min_size, policy):
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(
        total=total, desc=desc, unit=unit, leave=False, file=sys.stderr, bar_format=BAR_FORMAT
    )


def progress(
    iterable: Iterable[T],
    *,
    desc: str,
    total: float | None = None,
    unit: str = "it",
    size: int | None = None,
    min_size: int | None = None,
    policy: Policy | None = None,
) -> Iterator[T]:
    """Iterate over `iterable`, with a progress bar when enabled (see :func:`progress_bar`).

    Without a bar this is the iterable itself, at no cost.

    Examples
    --------
    >>> from safeplot.policy import Policy
    >>> list(progress(range(3), desc="chunks", policy=Policy(progress=False)))
    [0, 1, 2]
    """
    if not _show(size, min_size, policy):
        return iter(iterable)
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    return _iterate(iterable, progress_bar(total=total, desc=desc, unit=unit, policy=policy))


def _iterate(iterable: Iterable[T], bar: Any) -> Iterator[T]:
    try:
        for item in iterable:
            yield item
            bar.update(1)
    finally:
        bar.close()


def dask_progress(desc: str, policy: Policy | None = None) -> Any:
    """Return a dask callback that shows a bar of the tasks of a computation, or a stand-in.

    Use it as a context manager around ``dask.compute`` (local schedulers:
    the threaded and synchronous ones).
    """
    if not progress_enabled(policy):
        return _NoBar()
    from dask.callbacks import Callback

    class _TaskBar(Callback):
        def _start_state(self, dsk: Any, state: Any) -> None:
            total = sum(len(state[k]) for k in ("ready", "waiting", "running", "finished"))
            self._bar = progress_bar(total=total, desc=desc, unit="task", policy=policy)

        def _posttask(self, *args: Any) -> None:
            self._bar.update(1)

        def _finish(self, *args: Any) -> None:
            self._bar.close()

    return _TaskBar()
