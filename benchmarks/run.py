"""safeplot benchmarks: safe plots and algorithms against their raw counterparts, in one run.

Run from the repository root::

    python benchmarks/run.py --table [--sizes 1e6,1e7] [--plots histplot,boxplot,heatmap]
                             [--methods suppress,...] [--scaling] [--markdown] [--write-docs]
                             [--timeout 600]
    python benchmarks/run.py [--sizes 1e4,1e5,1e6] [--cases histplot-suppress,...]
                             [--repeat 2] [--decimals 2] [--markdown]
    python benchmarks/run.py --scaling [--sizes 1e5,1e6,1e7] [--algorithms knn_centroids,...]
    python benchmarks/run.py --list

Every measurement runs in a fresh Python process (``_child.run_child``), so
its peak resident memory (RSS, which includes the interpreter, the imports
and the simulated input) is its own. Ratios are measured side by side, in
one run on one machine: on a shared, busy machine absolute times vary, the
ratios much less.

``--table`` is the side-by-side table: for each plot (histplot,
scatterplot, boxplot, kdeplot, heatmap) the time of seaborn drawing the raw
data, the time of safeplot under each method (suppress, generalize,
deterministic, probabilistic, confidential, microaggregation) and its ratio
to raw, the time of a plain ``scipy.spatial.cKDTree`` query of the 3 nearest
neighbours of every record of the same data (the reference of the
deterministic target), and ``safe_ols`` with its diagnostic plots against
statsmodels OLS and R's four panels drawn with matplotlib. The data are
``x ~ N(10, 0.5)``, ``y = x + N(0, 1)`` and a four-level group, unrounded
(``--decimals`` to round). With ``--scaling`` and two or more sizes it adds
the fitted exponent of time in n of every cell. ``--write-docs`` writes the
table, the command and the machine (CPU, cores, memory, versions, BLAS) to
``docs/performance.rst``.

Without ``--table``, each case and its raw counterpart:

===========================  ==============================================================
case                         raw counterpart
===========================  ==============================================================
histplot-suppress            ``seaborn.histplot`` of the raw variable
scatterplot-deterministic    ``seaborn.scatterplot`` of the raw points
scatterplot-probabilistic    ``seaborn.scatterplot`` of the raw points
boxplot-confidential         ``seaborn.boxplot`` (4 groups, with fliers)
heatmap-suppress             ``seaborn.heatmap`` of ``numpy.histogram2d`` (30 x 30)
qqplot-deterministic         ``statsmodels.api.qqplot(line="s")``
pairplot4-deterministic      ``seaborn.pairplot`` of the 4 raw variables
safe_ols-diagnostics         statsmodels OLS + influence, R's 4 panels drawn with matplotlib
microaggregation-optimal     the textbook O(n k) dynamic programme in Python (k = 3)
drisk_rmd                    classical covariance + a k-d tree query for every record
deterministic-1e7            none: ``knn_centroids`` of 1e7 x 2 rows, time and memory
===========================  ==============================================================

A plot measurement is the plotting call plus one Agg render of the figure;
other cases time the call alone. The table gives the best of ``--repeat``
runs (one run at 5e6 rows and more). ``deterministic-1e7`` runs at 1e7 rows
whatever ``--sizes`` says (once). ``--scaling`` without ``--table`` times
each algorithm (kNN centroids, grid counting, optimal microaggregation,
MDAV, dRiskRMD, keyed noise; ``--algorithms all`` adds V-MDAV, rounding by
each discretiser and the other risk and utility metrics) at each size and
prints the fitted log-log slope of time against n (1 is linear, about 1.1
is n log n at these sizes).

The project's targets (ratios to raw measured in one run): at 1e6
unrounded rows, suppress, generalize and confidential at most 1.2 x raw
for histplot, scatterplot, boxplot and heatmap; probabilistic at most
1.5 x raw for every plot; deterministic at most raw plus 1.3 x the plain cKDTree query.
At 1e7 rows every method within its ratio target at 1e6 (deterministic:
raw plus 1.3 x the query of the 1e7 rows; a cell without a ratio target,
such as microaggregation's, within the ratio it reached at 1e6), in under
2.5 GB of peak memory. ``!`` marks a missed target. Timings belong here, never in test
assertions; this script is not part of the test run.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from _child import run_child

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _cases import CASES, SCALING, SCALING_MORE, TABLE_METHODS, TABLE_PLOTS  # noqa: E402

CHILD = f"import sys; sys.path.insert(0, {str(HERE)!r}); import _cases; _cases.main(sys.argv[1:])"

#: Ratio targets at 1e6 rows of the case table.
TARGETS = {
    "histplot-suppress": 1.2,
    "heatmap-suppress": 1.2,
    "boxplot-confidential": 1.2,
}
#: Ratio targets of the side-by-side table at 1e6 unrounded rows: (plot, method) -> safe / raw.
TABLE_TARGETS = {
    **{
        (plot, method): 1.2
        for plot in ("histplot", "scatterplot", "boxplot", "heatmap")
        for method in ("suppress", "generalize", "confidential")
    },
    # probabilistic: every plot
    **{(plot, "probabilistic"): 1.5 for plot in TABLE_PLOTS},
}
#: Deterministic target: at most raw + this many times the plain cKDTree k-NN query.
KNN_FACTOR = 1.3
#: Peak memory target at 1e7 rows (MB).
PEAK_MB = 2.5 * 1024
#: Cases whose size is fixed.
FIXED_SIZES = {"deterministic-1e7": "1e7"}
DET_1E7_LIMITS = (40.0, 3 * 1024.0)  # seconds, MB


#: Seconds a measurement may run before it is stopped (``--timeout``; None: no limit).
TIMEOUT: list[float | None] = [None]


def measure(case: str, impl: str, size: str, repeat: int, decimals: int) -> dict:
    """Run one measurement in a fresh interpreter; a failure is returned, not raised."""
    try:
        return run_child(CHILD, case, impl, size, repeat, decimals, timeout=TIMEOUT[0])
    except subprocess.TimeoutExpired:
        return {"error": f"> {TIMEOUT[0]:.0f} s"}
    except Exception as exc:  # a crashed child is a row of the table
        stderr = getattr(exc, "stderr", "") or ""
        last = stderr.strip().splitlines()[-1:] or [type(exc).__name__]
        return {"error": last[0][:80]}


def _row(cells: list[str], widths: list[int], markdown: bool) -> str:
    if markdown:
        return "| " + " | ".join(cells) + " |"
    return " ".join(
        c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
    )


def _fmt(value: float | None, spec: str) -> str:
    return (
        "-"
        if value is None or (isinstance(value, float) and math.isnan(value))
        else (format(value, spec))
    )


def compare(args: argparse.Namespace) -> None:
    """Print the safe-versus-raw table."""
    head = ["case", "n", "safe s", "raw s", "ratio", "target", "safe MB", "raw MB"]
    widths = [26, 8, 8, 8, 6, 6, 8, 8]
    data = "full precision" if args.decimals < 0 else f"rounded to {args.decimals} decimals"
    print(
        f"safeplot vs raw; data {data}; best of {args.repeat}; plot time = call + one Agg "
        "render; peak RSS per fresh process"
    )
    print(_row(head, widths, args.markdown))
    if args.markdown:
        print("|" + "|".join("---" for _ in head) + "|")
    start = time.perf_counter()
    for case in args.cases:
        sizes = [FIXED_SIZES[case]] if case in FIXED_SIZES else args.sizes
        for size in sizes:
            repeat = 1 if float(size) >= 5e6 else args.repeat
            safe = measure(case, "safe", size, repeat, args.decimals)
            raw = (
                {}
                if case in FIXED_SIZES or args.no_raw
                else measure(case, "raw", size, repeat, args.decimals)
            )
            ratio = (
                safe["best"] / raw["best"] if "best" in safe and "best" in raw else float("nan")
            )
            target = TARGETS.get(case)
            mark = ""
            if target is not None and float(size) >= 1e6 and not math.isnan(ratio):
                mark = "" if ratio <= target else " !"
            if case in FIXED_SIZES and "best" in safe:
                ok = safe["best"] < DET_1E7_LIMITS[0] and safe["peak_mb"] < DET_1E7_LIMITS[1]
                mark = "" if ok else " !"
                target_s = "<40s,3GB"
            else:
                target_s = _fmt(target, ".1f")
            cells = [
                case,
                f"{float(size):.0e}",
                safe.get("error") or _fmt(safe.get("best"), ".3f"),
                raw.get("error") or _fmt(raw.get("best"), ".3f"),
                _fmt(ratio, ".2f") + mark,
                target_s,
                _fmt(safe.get("peak_mb"), ".0f"),
                _fmt(raw.get("peak_mb"), ".0f"),
            ]
            print(_row(cells, widths, args.markdown), flush=True)
    print(f"total {time.perf_counter() - start:.0f} s ('!' marks a missed target)")


def scaling(args: argparse.Namespace) -> None:
    """Print time per algorithm and size, and the fitted log-log slope."""
    sizes = [float(s) for s in args.sizes]
    head = ["algorithm", *(f"{s:.0e} s" for s in sizes), "peak MB", "slope"]
    widths = [24, *(9 for _ in sizes), 8, 6]
    print(f"scaling in n; one run per size (best of {args.repeat} below 5e6); slope of log t")
    print(_row(head, widths, args.markdown))
    if args.markdown:
        print("|" + "|".join("---" for _ in head) + "|")
    for name in args.algorithms:
        times, peak = [], float("nan")
        for size in sizes:
            repeat = 1 if size >= 5e6 else args.repeat
            r = measure(f"scaling:{name}", "safe", f"{size:g}", repeat, args.decimals)
            times.append(r.get("best", float("nan")))
            peak = r.get("peak_mb", peak)
            if "error" in r:
                print(f"  {name} at {size:.0e}: {r['error']}", file=sys.stderr)
        ok = [i for i, t in enumerate(times) if np.isfinite(t) and t > 0]
        slope = (
            float(np.polyfit(np.log([sizes[i] for i in ok]), np.log([times[i] for i in ok]), 1)[0])
            if len(ok) >= 2
            else float("nan")
        )
        cells = [name, *(_fmt(t, ".3f") for t in times), _fmt(peak, ".0f"), _fmt(slope, ".2f")]
        print(_row(cells, widths, args.markdown), flush=True)


def _slope(sizes: list[float], times: list[float]) -> float:
    ok = [i for i, t in enumerate(times) if np.isfinite(t) and t > 0]
    if len(ok) < 2:
        return float("nan")
    xs, ys = np.log([sizes[i] for i in ok]), np.log([times[i] for i in ok])
    return float(np.polyfit(xs, ys, 1)[0])


def table(args: argparse.Namespace) -> list[str]:
    """Print (and return as lines) the side-by-side table of plots under every method."""
    lines: list[str] = []

    def out(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    data = "unrounded" if args.decimals < 0 else f"rounded to {args.decimals} decimals"
    out(
        f"seconds (ratio to raw); x ~ N(10, 0.5), y = x + N(0, 1), {data}; best of "
        f"{args.repeat} below 5e6 rows, else one run; call + one Agg render; fresh process each"
    )
    head = ["plot", "n", "raw", *args.methods, "kNN", "peak MB"]
    widths = [12, 6, 7, *(18 for _ in args.methods), 7, 8]
    out(_row(head, widths, args.markdown))
    if args.markdown:
        out("|" + "|".join("---" for _ in head) + "|")
    results: dict[tuple[str, str, str], dict] = {}
    missed: list[str] = []
    start = time.perf_counter()
    for size in args.sizes:
        repeat = 1 if float(size) >= 5e6 else args.repeat
        for plot in args.plots:
            cell = {}
            for method in ("raw", *args.methods, "knn"):
                r = measure(f"table:{plot}:{method}", "safe", size, repeat, args.decimals)
                results[(plot, method, size)] = cell[method] = r
            raw = cell["raw"].get("best", float("nan"))
            knn = cell["knn"].get("best", float("nan"))
            cells = [plot, f"{float(size):.0e}", cell["raw"].get("error") or _fmt(raw, ".2f")]
            peak = max((r.get("peak_mb", 0.0) for r in cell.values()), default=0.0)
            for method in args.methods:
                r = cell[method]
                if "best" not in r:
                    cells.append(r.get("error", "-")[:18])
                    continue
                ratio = r["best"] / raw
                mark = ""
                target = TABLE_TARGETS.get((plot, method))
                if method == "deterministic" and np.isfinite(knn):
                    target = (raw + KNN_FACTOR * knn) / raw
                if target is None and float(size) >= 5e6 and (plot, method, "1e6") in results:
                    # no ratio target (microaggregation's are seconds at 1e6): the ratio
                    # measured at 1e6 is the one to keep
                    small = results[(plot, method, "1e6")]
                    raw_small = results[(plot, "raw", "1e6")].get("best", float("nan"))
                    if "best" in small and np.isfinite(raw_small):
                        target = small["best"] / raw_small
                if target is not None and float(size) >= 1e6 and ratio > target:
                    mark = " !"
                    missed.append(
                        f"{plot} {method} at {float(size):.0e}: {ratio:.2f} > {target:.2f}"
                    )
                if float(size) >= 5e6 and r.get("peak_mb", 0.0) > PEAK_MB:
                    mark = " !"
                    missed.append(f"{plot} {method} at {float(size):.0e}: {r['peak_mb']:.0f} MB")
                cells.append(f"{r['best']:.2f} ({ratio:.2f}x){mark}")
            cells += [cell["knn"].get("error") or _fmt(knn, ".2f"), f"{peak:.0f}"]
            out(_row(cells, widths, args.markdown))
        if args.ols:
            ols = measure("safe_ols-diagnostics", "safe", size, repeat, args.decimals)
            ols_raw = measure("safe_ols-diagnostics", "raw", size, repeat, args.decimals)
            ratio = ols.get("best", float("nan")) / ols_raw.get("best", float("nan"))
            cells = [
                "safe_ols",
                f"{float(size):.0e}",
                ols_raw.get("error") or _fmt(ols_raw.get("best"), ".2f"),
                f"diagnostics {_fmt(ols.get('best'), '.2f')} ({_fmt(ratio, '.2f')}x)",
                *("" for _ in args.methods[1:]),
                "",
                _fmt(max(ols.get("peak_mb", 0.0), ols_raw.get("peak_mb", 0.0)), ".0f"),
            ]
            out(_row(cells, widths, args.markdown))
    if args.scaling and len(args.sizes) >= 2:
        sizes = [float(s) for s in args.sizes]
        out("")
        out("fitted exponent of time in n (1: linear)")
        head = ["plot", "raw", *args.methods]
        out(_row(head, [12, 7, *(18 for _ in args.methods)], args.markdown))
        if args.markdown:
            out("|" + "|".join("---" for _ in head) + "|")
        for plot in args.plots:
            slopes = [
                _slope(sizes, [results[(plot, m, s)].get("best", np.nan) for s in args.sizes])
                for m in ("raw", *args.methods)
            ]
            row = [plot, *(_fmt(v, ".2f") for v in slopes)]
            out(_row(row, [12, 7, *(18 for _ in args.methods)], args.markdown))
    out("")
    out(f"total {time.perf_counter() - start:.0f} s; '!' marks a missed target")
    for m in missed:
        out(f"  missed: {m}")
    return lines


def machine() -> dict[str, str]:
    """The machine and software the table was measured on."""
    import platform

    import pandas
    import scipy
    import seaborn

    cpu = "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            cpu = next(
                line.split(":", 1)[1].strip() for line in fh if line.startswith("model name")
            )
    except (OSError, StopIteration):
        cpu = platform.processor() or "unknown"
    memory = "unknown"
    try:
        with open("/proc/meminfo", encoding="utf-8") as fh:
            kb = next(int(line.split()[1]) for line in fh if line.startswith("MemTotal"))
        memory = f"{kb / 1024**2:.1f} GB"
    except (OSError, StopIteration):
        pass
    try:
        from threadpoolctl import threadpool_info

        blas = ", ".join(
            f"{i.get('internal_api')} {i.get('version')} ({i.get('num_threads')} threads)"
            for i in threadpool_info()
            if i.get("user_api") == "blas"
        )
    except ImportError:
        blas = "unknown (threadpoolctl not installed)"
    return {
        "CPU": cpu,
        "cores": str(os.cpu_count()),
        "memory": memory,
        "Python": platform.python_version(),
        "numpy": np.__version__,
        "pandas": pandas.__version__,
        "scipy": scipy.__version__,
        "seaborn": seaborn.__version__,
        "matplotlib": matplotlib_version(),
        "BLAS": blas or "none found",
    }


def matplotlib_version() -> str:
    import matplotlib

    return matplotlib.__version__


def write_docs(lines: list[str], command: str, path: Path) -> None:
    """Write docs/performance.rst: how the table was made, the machine, and the table."""
    info = machine()
    rows = "\n".join(f"   * - {k}\n     - {v}" for k, v in info.items())
    body = "\n".join(f"   {line}" if line else "" for line in lines)
    text = f"""Performance
===========

safeplot's plots cost more than seaborn's on the same data: each release
validates the data, looks for the values held by fewer than ``threshold``
records so that no drawn number equals one, and applies its method. The
table below puts each plot under each method beside seaborn drawing the raw
data, measured side by side in one run, each measurement in a fresh Python
process (call plus one render on the Agg canvas; peak resident memory of the
process). The ratio to raw is what to read: the machine was shared and busy,
so absolute times vary from run to run, ratios much less.

The ``kNN`` column is a plain ``scipy.spatial.cKDTree`` query of the 3
nearest neighbours of every record of the same data: the deterministic
method cannot be cheaper than such a search, and its target is raw plus
1.3 times that query. The targets of the other methods at 1e6 rows are
1.2 times raw for suppress, generalize and confidential (histograms,
scatter plots, box plots and heat maps) and 1.5 times raw for
probabilistic (every plot); at 1e7 rows each
method should meet the same ratio, in under 2.5 GB of memory. A cell
without a ratio target at 1e6 (microaggregation, whose targets there are
in seconds, and the kernel density's methods other than probabilistic) is
held at 1e7 to the ratio it reached at 1e6, even below 1.

What the misses cost, as profiled on this machine: keyed noise gives each
variable its noise in rank order (so that reordering the rows permutes the
noise), which takes a sort of each variable (one per variable: the same
sort gives the sorted values, the rounding's scale, the fingerprint and the
ledger's keys) and look-ups in that order. The sort is numpy's sort of
64-bit integers that hold each value's order-keeping bits above its row
number: 0.8 s for ten million values, where numpy's stable argsort takes
2.4 s. At 1e6 rows the heat map, whose raw version is one pass of numpy's
two-dimensional histogram, comes close to its target; at 1e7 rows the two
sorts, with the new memory they touch, still take longer than the whole
raw heat map. Microaggregation and the deterministic method sort every
variable (n log n, where the raw plots are linear). The diagnostic plots
of ``safe_ols`` search the neighbours of every point in each of four
panels (the deterministic method; the Q-Q panel's points lie on a
monotone chain and are searched in a window instead), which alone costs
more than statsmodels and matplotlib together.

At ten million rows new memory costs more than arithmetic: each page a
process touches for the first time is a fault. On this machine numpy asks
the kernel for transparent huge pages (``madvise``), and with the kernel's
``defrag`` setting at ``madvise`` each fault first tries to compact memory:
touching 160 MB of new memory took 0.25 s, and 0.08 s with
``NUMPY_MADVISE_HUGEPAGE=0`` in the environment. Measured one after the
other, outside the table, the heat map at 1e7 rows took 1.28 s raw and
2.08 s with ``suppress`` by default, and 0.98 s and 1.36 s with that
variable set. The table is measured with numpy's default; the setting is a
property of the machine, worth checking where large data are plotted. The
raw heat map at 1e7 rows, a single pass of about a second, varied between
0.8 s and 1.4 s from one run of the table to the next, and its ratios with
it.

Reproduce it from the repository root with::

    {command}

Machine
-------

.. list-table::
   :widths: 20 80

{rows}

Table
-----

::

{body}
"""
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and run the table or the scaling study."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="comma-separated n (default 1e4,1e5,1e6)")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated case names")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument(
        "--decimals",
        type=int,
        default=None,
        help="round the data to this many decimals (-1: unrounded; default 2, -1 with --table)",
    )
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--no-raw", action="store_true", help="skip the raw counterparts")
    parser.add_argument("--scaling", action="store_true", help="time the algorithms in n")
    parser.add_argument(
        "--algorithms",
        default=",".join(SCALING),
        help="comma-separated algorithms of --scaling, or 'all' (see --list)",
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument(
        "--table", action="store_true", help="each plot raw and under every method, side by side"
    )
    parser.add_argument("--plots", default=",".join(TABLE_PLOTS), help="plots of --table")
    parser.add_argument("--methods", default=",".join(TABLE_METHODS), help="methods of --table")
    parser.add_argument(
        "--no-ols", dest="ols", action="store_false", help="--table without the safe_ols row"
    )
    parser.add_argument(
        "--write-docs", action="store_true", help="write the --table to docs/performance.rst"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="stop a measurement after this many seconds (its cell reads '> N s')",
    )
    args = parser.parse_args(argv)
    TIMEOUT[0] = args.timeout
    if args.table:
        args.decimals = -1 if args.decimals is None else args.decimals
        args.sizes = (args.sizes or "1e6").split(",")
        args.plots, args.methods = args.plots.split(","), args.methods.split(",")
        bad = [p for p in args.plots if p not in TABLE_PLOTS] + [
            m for m in args.methods if m not in TABLE_METHODS
        ]
        if bad:
            parser.error(
                f"unknown plot or method {bad}; plots {TABLE_PLOTS}, methods {TABLE_METHODS}"
            )
        lines = table(args)
        if args.write_docs:
            command = "python benchmarks/run.py " + " ".join(argv or sys.argv[1:])
            write_docs(lines, command, HERE.parent / "docs" / "performance.rst")
        return
    if args.list:
        print("cases:", ", ".join(CASES))
        print("scaling algorithms:", ", ".join(SCALING))
        print("more (--algorithms all):", ", ".join(SCALING_MORE))
        return
    args.decimals = 2 if args.decimals is None else args.decimals
    default = "1e5,1e6,1e7" if args.scaling else "1e4,1e5,1e6"
    args.sizes = (args.sizes or default).split(",")
    args.cases = args.cases.split(",")
    every = (*SCALING, *SCALING_MORE)
    args.algorithms = list(every) if args.algorithms == "all" else args.algorithms.split(",")
    unknown = [c for c in args.cases if c not in CASES] + [
        a for a in args.algorithms if a not in every
    ]
    if unknown:
        parser.error(f"unknown case or algorithm {unknown}; see --list")
    if args.scaling:
        scaling(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
