"""Benchmark: rounding by discretisation (ewd, efd, kmeans, resampling) of one variable.

Run with ``python benchmarks/bench_discretize.py [--sizes 1e4,1e5,1e6] [--c 10] [--repeat 3]``.
Lognormal data (skewed, so k-means and the merging of small intervals have work
to do). Not part of the test suite: timings belong here, never in assertions.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from safeplot.anonymize.discretize import DISCRETIZERS, discretize
from safeplot.keys import SecretKey
from safeplot.policy import Policy


def main() -> None:
    """Print a table of the best wall time per size and discretiser."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6")
    parser.add_argument("--c", default="10")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    c = args.c if args.c == "fd" else int(args.c)
    key = SecretKey("benchmark key, not a secret", source="benchmark")
    policy = Policy()
    print(f"discretize, c={c}, one lognormal column, best of {args.repeat} runs (seconds)")
    print(f"{'n':>10} " + " ".join(f"{d:>11}" for d in DISCRETIZERS) + f" {'reps (km)':>10}")
    for size in args.sizes.split(","):
        n = int(float(size))
        x = np.random.default_rng(0).lognormal(0.0, 0.75, n)
        row, used = [], 0
        for d in DISCRETIZERS:
            times = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                res = discretize(x, c, d, key=key, policy=policy)
                times.append(time.perf_counter() - t)
            if d == "kmeans":
                used = res.representatives[0].size
            row.append(min(times))
        print(f"{n:>10} " + " ".join(f"{t:>11.4f}" for t in row) + f" {used:>10}")


if __name__ == "__main__":
    main()
