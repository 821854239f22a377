"""Benchmark: safe plots against seaborn drawing the raw data, in the same run.

Run with ``python benchmarks/bench_plots.py [--sizes 1e4,1e5,1e6] [--repeat 3]
[--cases histplot-suppress,scatterplot-deterministic] [--decimals 2]``.

For each case and size, the safeplot call and the matching raw seaborn call
each run in a fresh process on the same simulated data (two correlated
columns, rounded to ``--decimals`` as recorded measurements are). A
measurement is the wall time of the plotting call plus one full render of
the figure on the Agg canvas (``fig.canvas.draw()``): what an
analyst waits for. The table gives the best of ``--repeat`` runs, the peak
resident memory of each process, and the ratio safe / raw. Not part of the
test suite: timings belong here, never in assertions.
"""

from __future__ import annotations

import argparse

from _child import run_child

CHILD = r"""
import json, resource, sys, time
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
import safeplot
from safeplot.plots import distributions, relational

case, impl, n, repeat = sys.argv[1], sys.argv[2], int(float(sys.argv[3])), int(sys.argv[4])
decimals = int(sys.argv[5])
rng = np.random.default_rng(0)
x = rng.normal(50, 10, n)
df = pd.DataFrame({"x": x, "y": 0.5 * x + rng.normal(0, 5, n)})
if decimals >= 0:
    df = df.round(decimals)

def safe_hist(ax):
    distributions.histplot(data=df, x="x", method="suppress", ax=ax)

def raw_hist(ax):
    sns.histplot(data=df, x="x", ax=ax)

def safe_scatter(ax):
    relational.scatterplot(data=df, x="x", y="y", method="deterministic", ax=ax)

def raw_scatter(ax):
    sns.scatterplot(data=df, x="x", y="y", ax=ax)

CASES = {
    "histplot-suppress": (safe_hist, raw_hist),
    "scatterplot-deterministic": (safe_scatter, raw_scatter),
}
fn = CASES[case][0 if impl == "safe" else 1]
times = []
for _ in range(repeat):
    fig, ax = plt.subplots()
    t = time.perf_counter()
    fn(ax)
    fig.canvas.draw()
    times.append(time.perf_counter() - t)
    plt.close(fig)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"best": min(times), "peak_mb": peak / 1024}))
"""

CASES = ("histplot-suppress", "scatterplot-deterministic")


def run(case: str, impl: str, size: str, repeat: int, decimals: int) -> dict:
    """Measure one implementation of one case at one size in a fresh interpreter."""
    return run_child(CHILD, case, impl, size, repeat, decimals)


def main() -> None:
    """Print the table of times, memory and safe/raw ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument(
        "--decimals",
        type=int,
        default=2,
        help="round the simulated data to this many decimals, as recorded data are "
        "(ties make the exact neighbour search work harder); -1 keeps full precision",
    )
    args = parser.parse_args()
    data = "full precision" if args.decimals < 0 else f"rounded to {args.decimals} decimals"
    print(f"data {data}; best of {args.repeat} runs; time = plotting call + one Agg render")
    head = f"{'case':<27} {'n':>9} {'safe s':>8} {'raw s':>8} {'ratio':>6}"
    print(head + f" {'safe MB':>8} {'raw MB':>8}")
    for case in args.cases.split(","):
        for size in args.sizes.split(","):
            safe = run(case, "safe", size, args.repeat, args.decimals)
            raw = run(case, "raw", size, args.repeat, args.decimals)
            ratio = safe["best"] / raw["best"]
            print(
                f"{case:<27} {int(float(size)):>9} {safe['best']:>8.3f} {raw['best']:>8.3f} "
                f"{ratio:>6.2f} {safe['peak_mb']:>8.0f} {raw['peak_mb']:>8.0f}"
            )


if __name__ == "__main__":
    main()
