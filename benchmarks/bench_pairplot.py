"""Benchmark: a deterministic safe pairplot against seaborn's raw pairplot, in the same run.

Run with ``python benchmarks/bench_pairplot.py [--sizes 1e4,1e5] [--vars 5] [--repeat 2]
[--decimals 2] [--method deterministic]``.

For each size, the safeplot call and seaborn's raw ``pairplot`` each run in a
fresh process (benchmarks/_child.py) on the same simulated data: ``--vars``
correlated columns rounded to ``--decimals`` as recorded measurements are.
A measurement is the wall time of the call plus one full render of the
figure on the Agg canvas (``fig.canvas.draw()``). The table gives the best of
``--repeat`` runs, the peak resident memory of each process and the ratio
safe / raw. Not part of the test suite: timings belong here, never in
assertions.
"""

from __future__ import annotations

import argparse

from _child import run_child

CHILD = r"""
import json, resource, sys, time, warnings
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from safeplot.plots.axisgrid import pairplot

impl, n, p, repeat = sys.argv[1], int(float(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
decimals, method = int(sys.argv[5]), sys.argv[6]
rng = np.random.default_rng(0)
base = rng.normal(50, 10, n)
df = pd.DataFrame({f"v{j}": 0.5 * base + rng.normal(0, 5 + j, n) for j in range(p)})
if decimals >= 0:
    df = df.round(decimals)
warnings.simplefilter("ignore")
times = []
for _ in range(repeat):
    t = time.perf_counter()
    if impl == "safe":
        g = pairplot(df, method=method)
    else:
        g = sns.pairplot(df)
    g.figure.canvas.draw()
    times.append(time.perf_counter() - t)
    plt.close(g.figure)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"best": min(times), "peak_mb": peak / 1024}))
"""


def run(impl: str, size: str, p: int, repeat: int, decimals: int, method: str) -> dict:
    """Measure one implementation at one size in a fresh interpreter."""
    return run_child(CHILD, impl, size, p, repeat, decimals, method)


def main() -> None:
    """Print the table of times, memory and safe/raw ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,1e5")
    parser.add_argument("--vars", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--method", default="deterministic")
    parser.add_argument(
        "--decimals",
        type=int,
        default=2,
        help="round the simulated data to this many decimals (-1 keeps full precision)",
    )
    args = parser.parse_args()
    data = "full precision" if args.decimals < 0 else f"rounded to {args.decimals} decimals"
    print(
        f"pairplot of {args.vars} variables, method={args.method!r}; data {data}; "
        f"best of {args.repeat} runs; time = call + one Agg render"
    )
    print(f"{'n':>9} {'safe s':>8} {'raw s':>8} {'ratio':>6} {'safe MB':>8} {'raw MB':>8}")
    for size in args.sizes.split(","):
        safe = run("safe", size, args.vars, args.repeat, args.decimals, args.method)
        raw = run("raw", size, args.vars, args.repeat, args.decimals, args.method)
        ratio = safe["best"] / raw["best"]
        print(
            f"{int(float(size)):>9} {safe['best']:>8.3f} {raw['best']:>8.3f} {ratio:>6.2f} "
            f"{safe['peak_mb']:>8.0f} {raw['peak_mb']:>8.0f}"
        )


if __name__ == "__main__":
    main()
