"""Benchmark: microaggregation (optimal univariate, MDAV, V-MDAV).

Run with ``python benchmarks/bench_microaggregation.py [--repeat 3] [--quick]``.
Each case runs in a fresh process, so the peak resident memory reported is
that of one microaggregation (plus the interpreter and the input). Not part
of the test suite: timings belong here, never in assertions.

Cases: ``optimal_univariate`` of 1e5 and 1e6 normal values (k = 3, 5, 10);
``mdav`` and ``vmdav`` of 1e4 and 1e5 records of two columns (one normal,
one log-normal, as in bench_deterministic.py), k = 3 and 5.
"""

from __future__ import annotations

import argparse
import time

from _child import run_child

CHILD = r"""
import json, resource, sys, time
import numpy as np
from safeplot.anonymize import microaggregation as m
algorithm, n, k, repeat = sys.argv[1], int(float(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(0)
if algorithm == "optimal":
    x = rng.normal(size=n)
else:
    x = np.column_stack([rng.normal(10, 0.5, n), rng.lognormal(0, 0.5, n)])
func = {"optimal": m.optimal_univariate, "mdav": m.mdav, "vmdav": m.vmdav}[algorithm]
times = []
for _ in range(repeat):
    t = time.perf_counter()
    res = func(x, k)
    times.append(time.perf_counter() - t)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"best": min(times), "median": sorted(times)[len(times) // 2],
                  "peak_mb": peak / 1024, "groups": res.n_groups, "sse": res.sse,
                  "p": x.shape[1] if x.ndim == 2 else 1}))
"""

CASES = [
    ("optimal", "1e5", 5),
    ("optimal", "1e6", 3),
    ("optimal", "1e6", 5),
    ("optimal", "1e6", 10),
    ("mdav", "1e4", 3),
    ("mdav", "1e5", 3),
    ("mdav", "1e5", 5),
    ("vmdav", "1e4", 3),
    ("vmdav", "1e5", 3),
]
QUICK = [("optimal", "1e6", 5), ("mdav", "1e5", 3)]


def run(algorithm: str, size: str, k: int, repeat: int) -> dict:
    """Time one case in a fresh interpreter and return its measurements."""
    return run_child(CHILD, algorithm, size, k, repeat)


def main() -> None:
    """Print a table of wall time and peak memory per case."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="only the two headline cases")
    args = parser.parse_args()
    print(f"microaggregation, best and median of {args.repeat} runs, each case in a fresh process")
    header = f"{'algorithm':>10} {'n':>8} {'p':>2} {'k':>3} {'best s':>8} {'median s':>9}"
    print(f"{header} {'peak RSS MB':>12} {'groups':>8} {'SSE/(n-1)':>10}")
    start = time.perf_counter()
    for algorithm, size, k in QUICK if args.quick else CASES:
        r = run(algorithm, size, k, args.repeat)
        n = int(float(size))
        print(
            f"{algorithm:>10} {n:>8.0e} {r['p']:>2} {k:>3} {r['best']:>8.2f} {r['median']:>9.2f} "
            f"{r['peak_mb']:>12.0f} {r['groups']:>8} {r['sse'] / (r['p'] * (n - 1)):>10.2e}"
        )
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
