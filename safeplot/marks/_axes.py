"""Axes a mark draws on: released limits and ticks, notes under them, seaborn called quietly."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

import matplotlib as mpl
import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator, FuncFormatter

__all__ = ["note_below", "quiet_seaborn", "set_safe_axis"]


def set_safe_axis(ax: Axes, which: str, lim: tuple[float, float], ticks: np.ndarray) -> None:
    """Fix an axis' limits and ticks to released values, so matplotlib computes none from data.

    The tick labels print each tick exactly (with the fewest decimals that do
    so for all of them): a label rounded for display, such as "56.2" for a
    tick at 56.25, would write a number the figure does not hold.

    Parameters
    ----------
    ax : Axes
    which : {"x", "y"}
        The axis.
    lim : tuple of float
        The released limits.
    ticks : ndarray
        The released tick positions.
    """
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xlim if which == "x" else ax.set_ylim)(*lim)
    # the released limits, kept on the Axes: a grid of panels agrees its shared axes from them
    ax.__dict__.setdefault("_safeplot_limits", {})[which] = (float(lim[0]), float(lim[1]))
    ticks = np.asarray(ticks, dtype=float)
    axis.set_major_locator(FixedLocator(ticks))
    decimals = _exact_decimals(ticks)
    if decimals is not None and axis.get_scale() == "linear":
        minus = "\u2212" if mpl.rcParams["axes.unicode_minus"] else "-"
        axis.set_major_formatter(
            FuncFormatter(lambda v, _pos: f"{v + 0.0:.{decimals}f}".replace("-", minus))
        )


def _exact_decimals(ticks: np.ndarray) -> int | None:
    """Fewest decimals that write every tick exactly; None for very large or small ticks."""
    finite = np.abs(ticks[np.isfinite(ticks)])
    if finite.size == 0 or finite.max() >= 1e6 or (0 < finite[finite > 0].min(initial=1) < 1e-4):
        return None  # matplotlib's offset and scientific notation serve these better
    for d in range(11):
        if np.allclose(np.round(ticks, d), ticks, rtol=1e-12, atol=1e-12 * max(finite.max(), 1)):
            return d
    return None


def note_below(ax: Axes, text: str, gid: str) -> None:
    """Write a small grey note under the x-axis label, from the left edge of `ax`.

    For what a figure leaves out or merges, clear of the marks and legends.

    Parameters
    ----------
    ax : Axes
    text : str
        The note (may span several lines).
    gid : str
        The annotation's gid, by which tests and later drawing find it.
    """
    ax.annotate(
        text,
        xy=(0.0, 0.0),
        xycoords=("axes fraction", ax.xaxis.label),
        xytext=(0, -2),
        textcoords="offset points",
        ha="left",
        va="top",
        fontsize="xx-small",
        color="0.3",
        gid=gid,
    )


@contextlib.contextmanager
def quiet_seaborn() -> Iterator[None]:
    """Silence the deprecation warnings seaborn 0.13 triggers in newer matplotlib and pandas.

    They concern seaborn's own calls (``vert=`` of ``Axes.bxp``, pandas
    option names), not anything the user can change.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*vert: bool.*")
        warnings.filterwarnings("ignore", category=FutureWarning, module="seaborn")
        warnings.filterwarnings("ignore", category=DeprecationWarning, module="seaborn")
        warnings.filterwarnings("ignore", category=PendingDeprecationWarning, module="seaborn")
        yield
