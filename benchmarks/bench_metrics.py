"""Benchmark: disclosure-risk and information-loss metrics on large data.

Run with ``python benchmarks/bench_metrics.py [--sizes 1e4,1e5,1e6] [--p 4]``.
Each (size, metric) runs in a fresh process, so the peak resident memory
reported is that of one metric call (plus the interpreter, the inputs and
the imports). The anonymised data are kNN centroids (k = 3), and for
``drisk_rmd`` also the original data themselves: then every record is at
risk by RMDID1 and RMDID2 searches a neighbour for all of them (the worst
case). Not part of the test suite: timings belong here, never in assertions.
"""

from __future__ import annotations

import argparse
import time

from _child import run_child

CHILD = r"""
import json, resource, sys, time
import numpy as np
from safeplot import metrics
from safeplot.anonymize import knn_centroids
n, p, name = int(float(sys.argv[1])), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(0)
x = rng.normal(size=(n, p)) * np.arange(1, p + 1) + rng.lognormal(0, 0.5, size=(n, 1))
y = x.copy() if name == "drisk_rmd_identical" else knn_centroids(x, 3).values
fn = {
    "drisk_rmd": lambda: metrics.drisk_rmd(x, y).risk1,
    "drisk_rmd_identical": lambda: metrics.drisk_rmd(x, y).risk2,
    "distance_linkage": lambda: metrics.distance_linkage(x, y),
    "interval_disclosure_risk": lambda: metrics.interval_disclosure_risk(x, y),
    "il1s": lambda: metrics.il1s(x, y),
    "il_metrics": lambda: metrics.il_metrics(x, y).value,
    "propensity_utility": lambda: metrics.propensity_utility(x, y),
    "delta": lambda: float(metrics.delta(x, y).sum()),
}[name]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
value = fn()
elapsed = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"n": n, "p": p, "name": name, "seconds": elapsed, "value": float(value),
                  "peak_mb": peak / 1024, "before_mb": base / 1024,
                  "input_mb": 2 * x.nbytes / 2**20}))
"""

METRICS = (
    "drisk_rmd",
    "drisk_rmd_identical",
    "distance_linkage",
    "interval_disclosure_risk",
    "il1s",
    "il_metrics",
    "delta",
    "propensity_utility",
)


def run(size: str, p: int, name: str) -> dict:
    """Time one metric at one size in a fresh interpreter and return its measurements."""
    return run_child(CHILD, size, p, name)


def main() -> None:
    """Print a table of wall time and peak memory per metric and size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4,1e5,1e6")
    parser.add_argument("--p", type=int, default=4)
    parser.add_argument("--metrics", default=",".join(METRICS))
    args = parser.parse_args()
    print(f"safeplot.metrics, {args.p} columns, one call per fresh process")
    print(
        f"{'metric':<26} {'n':>8} {'seconds':>8} {'peak RSS MB':>12} {'before MB':>10} "
        f"{'inputs MB':>10} {'value':>10}"
    )
    start = time.perf_counter()
    for size in args.sizes.split(","):
        for name in args.metrics.split(","):
            r = run(size, args.p, name)
            print(
                f"{name:<26} {r['n']:>8.0e} {r['seconds']:>8.2f} {r['peak_mb']:>12.0f} "
                f"{r['before_mb']:>10.0f} {r['input_mb']:>10.1f} {r['value']:>10.4g}"
            )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
