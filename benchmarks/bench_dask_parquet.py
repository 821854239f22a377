"""Benchmark: histplot, heatmap, countplot and kdeplot of a parquet data set too big for memory.

Run with ``python benchmarks/bench_dask_parquet.py [--rows 1e8] [--path DIR]
[--chunk 2e6] [--workers 2] [--scheduler threads|distributed]
[--plots histplot,histplot-score,heatmap,...]``.

The data set is generated first, chunk by chunk (never all of it in memory),
as one parquet file per chunk in ``--path`` (default
``/tmp/safeplot_bench_parquet``; reused when it already holds ``--rows``
rows): ``glucose`` (a measurement recorded to one decimal, many ties),
``score`` (a continuous float, every value distinct) and ``group`` (five
categories and one held by a single record). Then each plot runs in a fresh
process on ``dd.read_parquet(path)``, with dask's threads scheduler and
``--workers`` threads, or with ``--scheduler distributed`` on a
:class:`distributed.LocalCluster` of ``--workers`` worker processes (one
thread each) to which the process connects a ``Client``.

In the same process and on the same scheduler, a *reference* is timed first:
a plain dask histogram of the same column(s) with a fixed range and as many
bins (``np.histogram`` per partition, added up; ``np.histogram2d`` for the
heat map), which reads the data once and computes nothing for disclosure
control. The table gives the wall time of the safeplot call (all passes over
the data, the drawing and one render on the Agg canvas), the reference's
time and their ratio, the passes over the data, and the peak resident memory
of the process (``resource.getrusage``: the client; with the threads
scheduler dask's threads are in it, with the distributed one the workers are
separate processes). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CHILD = r"""
import json, resource, sys, time
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import dask
import dask.dataframe as dd
import safeplot
import safeplot.sources.dask as sdask

plot, path, workers, scheduler = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
if scheduler == "distributed":
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=None)
    client = Client(cluster)
else:
    dask.config.set(scheduler="threads", num_workers=workers)
data = dd.read_parquet(path)

# the reference: a plain dask histogram, fixed range, one read of the data
RANGES = {"glucose": (0.0, 50.0), "score": (-7.0, 7.0)}
REFERENCE = {
    "histplot": ["glucose"], "histplot-score": ["score"], "histplot-hue": ["glucose"],
    "heatmap": ["glucose", "score"], "kdeplot": ["glucose"],
}


def reference(columns):
    def count(part):
        if len(columns) == 1:
            (c,) = columns
            return np.histogram(part[c].to_numpy(), bins=1000, range=RANGES[c])[0]
        x, y = (part[c].to_numpy() for c in columns)
        return np.histogram2d(x, y, bins=30, range=[RANGES[c] for c in columns])[0]

    parts = [dask.delayed(count)(p) for p in data[columns].to_delayed()]
    while len(parts) > 1:
        parts = [dask.delayed(sum)(parts[i : i + 8]) for i in range(0, len(parts), 8)]
    start = time.perf_counter()
    total = parts[0].compute()
    return time.perf_counter() - start, int(total.sum())


ref_seconds = None
if plot in REFERENCE:
    ref_seconds, _ = reference(REFERENCE[plot])

passes = []
compute = sdask._compute
sdask._compute = lambda tasks: passes.append(len(tasks)) or compute(tasks)
fig, ax = plt.subplots(figsize=(6, 4))
start = time.perf_counter()
if plot == "histplot":
    safeplot.histplot(data, x="glucose", ax=ax)
elif plot == "histplot-score":
    safeplot.histplot(data, x="score", ax=ax)
elif plot == "histplot-hue":
    safeplot.histplot(data, x="glucose", hue="group", hue_order=list("abcde"), bins=40, ax=ax)
elif plot == "heatmap":
    safeplot.heatmap(data, x="glucose", y="score", ax=ax)
elif plot == "countplot":
    safeplot.countplot(data, x="group", ax=ax)
elif plot == "kdeplot":
    safeplot.kdeplot(data, x="glucose", method="suppress", ax=ax)
else:
    raise SystemExit(f"unknown plot {plot}")
fig.canvas.draw()
seconds = time.perf_counter() - start
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
report = ax.safeplot_report
print(json.dumps({"seconds": seconds, "peak_mb": peak_mb, "n": report.n,
                  "suppressed": report.cells_suppressed, "reference": ref_seconds,
                  "passes": len(passes)}))
"""


def generate(path: str, rows: int, chunk: int, seed: int = 0) -> float:
    """Write `rows` rows as parquet files of `chunk` rows each; return the seconds taken."""
    import numpy as np
    import pandas as pd

    os.makedirs(path, exist_ok=True)
    marker = os.path.join(path, "_rows")
    if os.path.exists(marker):
        with open(marker) as fh:
            if fh.read().strip() == str(rows):
                return 0.0
    for name in os.listdir(path):
        os.remove(os.path.join(path, name))
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    groups = np.array(["a", "b", "c", "d", "e"])
    written = 0
    part = 0
    while written < rows:
        m = min(chunk, rows - written)
        frame = pd.DataFrame(
            {
                "glucose": np.round(rng.lognormal(np.log(5.5), 0.2, m), 1),
                "score": rng.normal(0.0, 1.0, m),
                "group": pd.Categorical(groups[rng.integers(0, 5, m)], categories=[*groups, "z"]),
            }
        )
        if written == 0:
            frame.loc[0, "group"] = "z"  # a category held by one record
            frame.loc[1, "glucose"] = 41.3  # a unique outlier
        frame.to_parquet(os.path.join(path, f"part-{part:05d}.parquet"), index=False)
        written += m
        part += 1
    with open(marker, "w") as fh:
        fh.write(str(rows))
    return time.perf_counter() - start


def main() -> None:
    """Generate the data set, then time each plot and its reference in its own process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e8")
    parser.add_argument("--path", default="/tmp/safeplot_bench_parquet")
    parser.add_argument("--chunk", default="2e6", help="rows per parquet file (a partition)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--scheduler", choices=["threads", "distributed"], default="threads")
    parser.add_argument(
        "--plots", default="histplot,histplot-score,histplot-hue,heatmap,countplot,kdeplot"
    )
    args = parser.parse_args()
    rows, chunk = int(float(args.rows)), int(float(args.chunk))
    seconds = generate(args.path, rows, chunk)
    print(f"data set: {rows:,} rows in {args.path} (generated in {seconds:.1f} s; 0 = reused)")
    print(f"scheduler: {args.scheduler}, {args.workers} workers")
    print(
        f"{'plot':<15} {'seconds':>8} {'reference':>9} {'ratio':>6} {'passes':>6} "
        f"{'peak MB':>8} {'n (rounded)':>14} {'suppressed':>10}"
    )
    for plot in args.plots.split(","):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, plot, args.path, str(args.workers), args.scheduler],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode:
            print(f"{plot:<15} failed:\n{out.stderr[-2000:]}")
            continue
        res = json.loads(out.stdout.strip().splitlines()[-1])
        ref = res["reference"]
        ref_text = f"{ref:>9.1f} {res['seconds'] / ref:>6.1f}" if ref else f"{'-':>9} {'-':>6}"
        print(
            f"{plot:<15} {res['seconds']:>8.1f} {ref_text} {res['passes']:>6} "
            f"{res['peak_mb']:>8.0f} {res['n']:>14,} {res['suppressed']:>10}"
        )


if __name__ == "__main__":
    main()
