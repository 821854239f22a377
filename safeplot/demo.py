"""``safeplot demo``: the paper's comparison of methods on simulated data.

For each of Avraam et al.'s simulated data sets D1-D3 it draws a histogram
of x and a scatter plot of y against x, raw and under suppression,
generalisation, deterministic and probabilistic anonymisation (the layout of
the paper's Figures 1 and 2), writes one PNG per data set and the audit log
of every release as JSON.

The raw panels are drawn because the data are simulated: the demo runs under
its own policy, which allows raw output and uses a fixed demonstration noise
key so the figures are reproducible. Under a locked custodian policy that
forbids raw output, the raw panels are left out instead.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from . import audit
from .datasets import simulate
from .errors import DisclosureError
from .keys import SecretKey
from .policy import Policy, policy

__all__ = ["DEMO_METHODS", "run_demo"]

#: Methods compared in the demo, in column order.
DEMO_METHODS = ("none", "suppress", "generalize", "deterministic", "probabilistic")
_TITLES = {
    "none": "raw (simulated data)",
    "suppress": "suppress (threshold=3)",
    "generalize": "generalize (factor=2)",
    "deterministic": "deterministic (k=3)",
    "probabilistic": "probabilistic (q=0.25)",
}


def demo_policy() -> Policy:
    """Return the demo's policy: default floors, raw output allowed, a fixed public noise key."""
    return Policy(
        allow_raw=True,
        secret_key=SecretKey("safeplot demonstration key (not secret)", source="demo policy"),
        source="demo policy (simulated data; raw panels allowed)",
    )


def _demo_figure(name: str, methods: tuple[str, ...], n: int, seed: int):
    import matplotlib.pyplot as plt

    from .plots.distributions import draw_histogram, release_histogram
    from .plots.relational import draw_scatter, release_scatter

    df = simulate(name, n=n, seed=seed)
    x, y = df["x"].to_numpy(), df["y"].to_numpy()
    fig, axes = plt.subplots(
        2, len(methods), figsize=(3.2 * len(methods), 6.4), layout="constrained", squeeze=False
    )
    fig.set_label(f"safeplot demo {name}")
    for col, method in enumerate(methods):
        hist = release_histogram(x, name="x", method=method, bins=20, function="demo histogram")
        draw_histogram(axes[0, col], hist, color="C0")
        axes[0, col].set_title(_TITLES[method], fontsize=10)
        pts = release_scatter(x, y, names=("x", "y"), method=method, function="demo scatter")
        draw_scatter(axes[1, col], pts, color="C1", mark_coincident=method == "deterministic")
    note = (
        "Raw panels are shown only because these data are simulated."
        if "none" in methods
        else "Raw panels omitted: the policy in force does not allow raw output."
    )
    fig.suptitle(
        f"{name} (n = {n}): histogram of x and scatter of y against x. {note}", fontsize=11
    )
    return fig


def run_demo(out: str | Path = "safeplot-demo", *, n: int = 500, seed: int = 1234) -> list[Path]:
    """Write the demo figures and the audit log to `out`; return the paths written.

    Parameters
    ----------
    out : path-like, default "safeplot-demo"
        Folder to write into (created if needed).
    n : int, default 500
        Records per simulated data set.
    seed : int, default 1234
        Seed of the simulation.

    Returns
    -------
    list of Path
        The PNG files and the audit-log JSON.

    Examples
    --------
    >>> import tempfile
    >>> paths = run_demo(tempfile.mkdtemp(), n=200)  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(policy(demo_policy()))
            methods = DEMO_METHODS
        except DisclosureError:
            # a locked custodian policy refuses the demo's: keep it, without raw panels
            methods = tuple(m for m in DEMO_METHODS if m != "none")
        for name in ("D1", "D2", "D3"):
            fig = _demo_figure(name, methods, n, seed)
            path = out / f"demo_{name}.png"
            fig.savefig(path, dpi=100)
            plt.close(fig)
            written.append(path)
        written.append(audit.export(out / "audit_log.json"))
    return written
