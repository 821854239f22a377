"""Benchmark: deterministic kNN-centroid anonymisation of two-column data.

Run with ``python benchmarks/bench_deterministic.py [--sizes 1e5,1e6,1e7] [--repeat 3]``.
Each size runs in a fresh process, so the peak resident memory reported is that
of one anonymisation (plus the interpreter and the input). Not part of the
test suite: timings belong here, never in assertions.
"""

from __future__ import annotations

import argparse
import time

from _child import run_child

CHILD = r"""
import json, resource, sys, time
import numpy as np
from safeplot.anonymize import knn_centroids
n, repeat, k = int(float(sys.argv[1])), int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
x = np.column_stack([rng.normal(10, 0.5, n), rng.lognormal(0, 0.5, n)])
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = []
for _ in range(repeat):
    t = time.perf_counter()
    res = knn_centroids(x, k)
    times.append(time.perf_counter() - t)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"n": n, "best": min(times), "median": sorted(times)[len(times) // 2],
                  "peak_mb": peak / 1024, "input_mb": x.nbytes / 2**20,
                  "coincident": res.n_coincident}))
"""


def run(size: str, repeat: int, k: int) -> dict:
    """Time one size in a fresh interpreter and return its measurements."""
    return run_child(CHILD, size, repeat, k)


def main() -> None:
    """Print a table of wall time and peak memory per size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e5,1e6,1e7")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--k", type=int, default=3)
    args = parser.parse_args()
    print(f"knn_centroids, k={args.k}, two columns, best and median of {args.repeat} runs")
    print(f"{'n':>10} {'best s':>8} {'median s':>9} {'peak RSS MB':>12} {'s per 1e6':>10}")
    start = time.perf_counter()
    for size in args.sizes.split(","):
        r = run(size, args.repeat if float(size) < 5e6 else 1, args.k)
        per = r["best"] / (r["n"] / 1e6)
        print(
            f"{r['n']:>10.0e} {r['best']:>8.2f} {r['median']:>9.2f} "
            f"{r['peak_mb']:>12.0f} {per:>10.2f}"
        )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
