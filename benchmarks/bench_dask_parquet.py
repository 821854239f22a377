"""Benchmark: histplot, heatmap, countplot and kdeplot of a parquet data set too big for memory.

Run with ``python benchmarks/bench_dask_parquet.py [--rows 1e8] [--path DIR]
[--chunk 2e6] [--workers 2] [--plots histplot,heatmap,countplot,kdeplot]``.

The data set is generated first, chunk by chunk (never all of it in memory),
as one parquet file per chunk in ``--path`` (default
``/tmp/safeplot_bench_parquet``; reused when it already holds ``--rows``
rows): ``glucose`` (a measurement recorded to one decimal, many ties),
``score`` (a continuous float, every value distinct) and ``group`` (five
categories and one held by a single record). Then each plot runs in a fresh
process on ``dd.read_parquet(path)`` with dask's threads scheduler and
``--workers`` threads; the table gives the wall time of the call (all passes
over the data, the drawing and one render on the Agg canvas) and the peak
resident memory of that process (``resource.getrusage``: dask's threads
included). Not part of the test suite.
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
import dask
import dask.dataframe as dd
import safeplot

plot, path, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
dask.config.set(scheduler="threads", num_workers=workers)
data = dd.read_parquet(path)
fig, ax = plt.subplots(figsize=(6, 4))
start = time.perf_counter()
if plot == "histplot":
    safeplot.histplot(data, x="glucose", ax=ax)
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
                  "suppressed": report.cells_suppressed}))
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
    """Generate the data set, then time each plot in its own process."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="1e8")
    parser.add_argument("--path", default="/tmp/safeplot_bench_parquet")
    parser.add_argument("--chunk", default="2e6", help="rows per parquet file")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--plots", default="histplot,histplot-hue,heatmap,countplot,kdeplot")
    args = parser.parse_args()
    rows, chunk = int(float(args.rows)), int(float(args.chunk))
    seconds = generate(args.path, rows, chunk)
    print(f"data set: {rows:,} rows in {args.path} (generated in {seconds:.1f} s; 0 = reused)")
    print(f"{'plot':<14} {'seconds':>9} {'peak MB':>9} {'n (rounded)':>14} {'suppressed':>10}")
    for plot in args.plots.split(","):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, plot, args.path, str(args.workers)],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode:
            print(f"{plot:<14} failed:\n{out.stderr[-2000:]}")
            continue
        res = json.loads(out.stdout.strip().splitlines()[-1])
        print(
            f"{plot:<14} {res['seconds']:>9.1f} {res['peak_mb']:>9.0f} {res['n']:>14,} "
            f"{res['suppressed']:>10}"
        )


if __name__ == "__main__":
    main()
