"""The measurements of ``benchmarks/run.py``: one case, one implementation, one size per process.

Run as ``python benchmarks/_cases.py CASE IMPL N REPEAT DECIMALS`` (``run.py``
does this through ``_child.run_child``, so each measurement starts from a
fresh interpreter and its peak resident memory is its own). It prints one
JSON line: the best and median wall time of ``REPEAT`` runs and the peak
resident set size of the process.

A plot measurement is the wall time of the plotting call plus one full
render of the figure on the Agg canvas (``fig.canvas.draw()``): what an
analyst waits for. Other measurements time the call alone. Data are
simulated with a fixed seed and rounded to ``DECIMALS`` decimals, as
recorded measurements are (ties are what make exact neighbour searches
work hardest); ``DECIMALS < 0`` keeps full precision.

``IMPL`` is ``safe`` (safeplot), ``raw`` (seaborn / statsmodels drawing the
raw data, or a plain reference implementation of the same algorithm) or,
for the ``scaling:`` cases of ``run.py --scaling`` and the
``table:PLOT:METHOD`` cells of ``run.py --table`` (``METHOD`` ``raw`` for
seaborn on the raw data, ``knn`` for a plain cKDTree query), ``safe`` only.
"""

from __future__ import annotations

import json
import resource
import sys
import time
import warnings
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

# -- data ----------------------------------------------------------------------------------


def frame(n: int, decimals: int, p: int = 2) -> pd.DataFrame:
    """Two correlated columns x, y (or p columns v0..) and a four-level group g."""
    rng = np.random.default_rng(0)
    base = rng.normal(50, 10, n)
    if p == 2:
        df = pd.DataFrame({"x": base, "y": 0.5 * base + rng.normal(0, 5, n)})
    else:
        df = pd.DataFrame({f"v{j}": 0.5 * base + rng.normal(0, 5 + j, n) for j in range(p)})
    if decimals >= 0:
        df = df.round(decimals)
    if p == 2:
        df["g"] = pd.Categorical(np.array(list("abcd"))[rng.integers(0, 4, n)])
    return df


def matrix(n: int, decimals: int, p: int = 2) -> np.ndarray:
    """Two columns, one normal and one log-normal (the deterministic and scaling cases)."""
    rng = np.random.default_rng(0)
    x = np.column_stack([rng.normal(10, 0.5, n), rng.lognormal(0, 0.5, n)])[:, :p]
    return np.round(x, decimals) if decimals >= 0 else x


# -- reference implementations -------------------------------------------------------------


def reference_optimal(x: np.ndarray, k: int) -> np.ndarray:
    """Optimal univariate microaggregation by the textbook O(n k) dynamic programme.

    Hansen & Mukherjee: sort; ``best[i]`` = least SSE of the first ``i``
    sorted values cut into groups of ``k .. 2k-1``; one Python loop over
    ``i`` with prefix sums for the group SSE. Returns the released values.
    """
    order = np.argsort(x, kind="stable")
    xs = x[order]
    n = xs.size
    s1 = np.concatenate([[0.0], np.cumsum(xs)]).tolist()
    s2 = np.concatenate([[0.0], np.cumsum(xs * xs)]).tolist()
    inf = float("inf")
    best = [inf] * (n + 1)
    back = [0] * (n + 1)
    best[0] = 0.0
    for i in range(k, n + 1):
        b, arg = inf, 0
        for size in range(k, min(2 * k - 1, i) + 1):
            j = i - size
            prev = best[j]
            if prev == inf:
                continue
            total = s1[i] - s1[j]
            cost = prev + (s2[i] - s2[j]) - total * total / size
            if cost < b:
                b, arg = cost, j
        best[i], back[i] = b, arg
    out = np.empty(n)
    i = n
    while i > 0:
        j = back[i]
        out[j:i] = xs[j:i].mean()
        i = j
    released = np.empty(n)
    released[order] = out
    return released


def reference_drisk(x: np.ndarray, y: np.ndarray, w1: float = 0.01, w2: float = 0.05) -> float:
    """dRiskRMD (RMDID2) directly: classical covariance, one k-d tree query for every record.

    The plain version of sdcMicro's measure: the covariance is the ordinary
    sample covariance (no MCD) and every record's nearest other anonymised
    record is searched, not only the records at risk by RMDID1.
    """
    from scipy.spatial import cKDTree

    mean, sd = x.mean(axis=0), x.std(axis=0, ddof=1)
    z, zm = (x - mean) / sd, (y - mean) / sd
    inv = np.linalg.pinv(np.atleast_2d(np.cov(z, rowvar=False)))
    rmd = 0.05 * np.sqrt(np.einsum("ij,jk,ik->i", z, inv, z))
    half = (w1 * rmd)[:, None]
    at1 = ((zm > z - half) & (zm < z + half)).any(axis=1)
    dist, _ = cKDTree(zm).query(zm, k=2)
    return float((at1 & (dist[:, 1] > w2)).mean())


def raw_diagnostics(df: pd.DataFrame) -> plt.Figure:
    """Fit OLS with statsmodels and draw R's four diagnostic plots from the raw influence."""
    import statsmodels.formula.api as smf
    from scipy import stats

    fit = smf.ols("y ~ x", data=df).fit()
    infl = fit.get_influence()
    fitted, resid = fit.fittedvalues.to_numpy(), fit.resid.to_numpy()
    std = infl.resid_studentized_internal
    lev = infl.hat_matrix_diag
    fig, axes = plt.subplots(2, 2, figsize=(9, 8))
    axes[0, 0].scatter(fitted, resid, s=10)
    axes[0, 0].set(title="Residuals vs Fitted", xlabel="Fitted values", ylabel="Residuals")
    osm = stats.norm.ppf((np.arange(1, std.size + 1) - 0.5) / std.size)
    axes[0, 1].scatter(osm, np.sort(std), s=10)
    axes[0, 1].plot(osm, osm, color="C3")
    axes[0, 1].set(title="Normal Q-Q", xlabel="Theoretical quantiles")
    axes[1, 0].scatter(fitted, np.sqrt(np.abs(std)), s=10)
    axes[1, 0].set(title="Scale-Location", xlabel="Fitted values")
    axes[1, 1].scatter(lev, std, s=10)
    axes[1, 1].set(title="Residuals vs Leverage", xlabel="Leverage")
    infl.cooks_distance  # noqa: B018 - computed as R's plot does, for the contours
    return fig


# -- the cases -----------------------------------------------------------------------------
# Each builder takes (n, decimals) and returns (setup data, safe callable, raw callable).
# A callable returns a Figure (rendered and closed by the harness) or None.


def _axes() -> tuple[plt.Figure, plt.Axes]:
    return plt.subplots(figsize=(6, 4))


def case_hist(n: int, d: int):
    """histplot, suppress: one variable in safe bins; raw seaborn histplot."""
    import seaborn as sns

    from safeplot.plots.distributions import histplot

    df = frame(n, d)

    def safe():
        fig, ax = _axes()
        histplot(data=df, x="x", method="suppress", ax=ax)
        return fig

    def raw():
        fig, ax = _axes()
        sns.histplot(data=df, x="x", ax=ax)
        return fig

    return safe, raw


def _scatter(method: str):
    def build(n: int, d: int):
        import seaborn as sns

        from safeplot.plots.relational import scatterplot

        df = frame(n, d)

        def safe():
            fig, ax = _axes()
            scatterplot(data=df, x="x", y="y", method=method, ax=ax)
            return fig

        def raw():
            fig, ax = _axes()
            sns.scatterplot(data=df, x="x", y="y", ax=ax)
            return fig

        return safe, raw

    return build


def case_box(n: int, d: int):
    """boxplot, confidential: y by a four-level group; raw seaborn boxplot (with fliers)."""
    import seaborn as sns

    from safeplot.plots.categorical import boxplot

    df = frame(n, d)

    def safe():
        fig, ax = _axes()
        boxplot(data=df, x="g", y="y", method="confidential", ax=ax)
        return fig

    def raw():
        fig, ax = _axes()
        sns.boxplot(data=df, x="g", y="y", ax=ax)
        return fig

    return safe, raw


def case_heatmap(n: int, d: int):
    """heatmap, suppress: 30 x 30 grid counts; raw seaborn heatmap of numpy's histogram2d."""
    import seaborn as sns

    from safeplot.plots.matrix import heatmap

    df = frame(n, d)

    def safe():
        fig, ax = _axes()
        heatmap(df, x="x", y="y", bins=30, method="suppress", ax=ax)
        return fig

    def raw():
        fig, ax = _axes()
        counts, _, _ = np.histogram2d(df["x"], df["y"], bins=30)
        sns.heatmap(counts.T[::-1], ax=ax)
        return fig

    return safe, raw


def case_qq(n: int, d: int):
    """qqplot, deterministic, line 's'; raw statsmodels qqplot."""
    import statsmodels.api as sm

    from safeplot.plots.regression import qqplot

    x = frame(n, d)["x"].to_numpy()

    def safe():
        return qqplot(x, line="s", method="deterministic")

    def raw():
        return sm.qqplot(x, line="s")

    return safe, raw


def case_pair(n: int, d: int):
    """pairplot of four variables, deterministic; raw seaborn pairplot."""
    import seaborn as sns

    from safeplot.plots.axisgrid import pairplot

    df = frame(n, d, p=4)

    def safe():
        return pairplot(df, method="deterministic").figure

    def raw():
        return sns.pairplot(df).figure

    return safe, raw


def case_ols(n: int, d: int):
    """safe_ols + plot_diagnostics (policy default method); raw statsmodels + matplotlib."""
    from safeplot.diagnostics import safe_ols

    df = frame(n, d)

    def safe():
        return safe_ols("y ~ x", data=df).plot_diagnostics()

    def raw():
        return raw_diagnostics(df)

    return safe, raw


def case_optimal(n: int, d: int):
    """Optimal univariate microaggregation, k = 3; reference: the O(n k) Python DP."""
    from safeplot.anonymize.microaggregation import optimal_univariate

    x = frame(n, d)["x"].to_numpy()

    def safe():
        optimal_univariate(x, 3)

    def raw():
        reference_optimal(x, 3)

    return safe, raw


def case_drisk(n: int, d: int):
    """dRiskRMD of kNN centroids (k = 3), 2 columns; reference: classical cov + full k-d query."""
    from safeplot.anonymize import knn_centroids
    from safeplot.metrics import drisk_rmd

    x = frame(n, d)[["x", "y"]].to_numpy()
    y = knn_centroids(x, 3).values

    def safe():
        drisk_rmd(x, y)

    def raw():
        reference_drisk(x, y)

    return safe, raw


def case_det(n: int, d: int):
    """knn_centroids, k = 3, on n x 2 rows (normal and log-normal); no raw counterpart."""
    from safeplot.anonymize import knn_centroids

    x = matrix(n, d)

    def safe():
        knn_centroids(x, 3)

    return safe, None


CASES: dict[str, Callable] = {
    "histplot-suppress": case_hist,
    "scatterplot-deterministic": _scatter("deterministic"),
    "scatterplot-probabilistic": _scatter("probabilistic"),
    "boxplot-confidential": case_box,
    "heatmap-suppress": case_heatmap,
    "qqplot-deterministic": case_qq,
    "pairplot4-deterministic": case_pair,
    "safe_ols-diagnostics": case_ols,
    "microaggregation-optimal": case_optimal,
    "drisk_rmd": case_drisk,
    "deterministic-1e7": case_det,
}


# -- the side-by-side table: each plot raw and under every method --------------------------

#: Plots of ``run.py --table``.
TABLE_PLOTS = ("histplot", "scatterplot", "boxplot", "kdeplot", "heatmap")
#: Methods of ``run.py --table``, in column order.
TABLE_METHODS = (
    "suppress",
    "generalize",
    "deterministic",
    "probabilistic",
    "confidential",
    "microaggregation",
)


def table_frame(n: int, decimals: int) -> pd.DataFrame:
    """x ~ N(10, 0.5), y = x + N(0, 1) and a four-level group g (the table's data)."""
    rng = np.random.default_rng(0)
    x = rng.normal(10, 0.5, n)
    y = x + rng.normal(0, 1, n)
    if decimals >= 0:
        x, y = np.round(x, decimals), np.round(y, decimals)
    g = pd.Categorical(np.array(list("abcd"))[rng.integers(0, 4, n)])
    return pd.DataFrame({"x": x, "y": y, "g": g})


def table_case(plot: str, method: str, n: int, d: int) -> Callable:
    """One cell of the table: `plot` under `method` ("raw": seaborn on the raw data)."""
    import seaborn as sns

    from safeplot.plots.categorical import boxplot
    from safeplot.plots.distributions import histplot
    from safeplot.plots.kde import kdeplot
    from safeplot.plots.matrix import heatmap
    from safeplot.plots.relational import scatterplot

    df = table_frame(n, d)
    raw = method == "raw"
    kws = {} if raw else {"method": method}

    def draw() -> plt.Figure:
        fig, ax = _axes()
        if plot == "histplot":
            (sns.histplot if raw else histplot)(data=df, x="x", ax=ax, **kws)
        elif plot == "scatterplot":
            (sns.scatterplot if raw else scatterplot)(data=df, x="x", y="y", ax=ax, **kws)
        elif plot == "boxplot":
            (sns.boxplot if raw else boxplot)(data=df, x="g", y="y", ax=ax, **kws)
        elif plot == "kdeplot":
            (sns.kdeplot if raw else kdeplot)(data=df, x="x", ax=ax, **kws)
        elif raw:  # heatmap: seaborn draws numpy's 30 x 30 counts
            counts, _, _ = np.histogram2d(df["x"], df["y"], bins=30)
            sns.heatmap(counts.T[::-1], ax=ax)
        else:
            heatmap(df, x="x", y="y", bins=30, ax=ax, **kws)
        return fig

    return draw


def table_knn(plot: str, n: int, d: int) -> Callable:
    """A plain k-d tree query of the 3 nearest neighbours of every record (scipy cKDTree).

    The same columns the plot's deterministic method searches: x for a
    histogram and a density curve, y for box plots, (x, y) otherwise.
    """
    from scipy.spatial import cKDTree

    df = table_frame(n, d)
    cols = {"histplot": ["x"], "kdeplot": ["x"], "boxplot": ["y"]}.get(plot, ["x", "y"])
    values = df[cols].to_numpy()

    def query() -> None:
        cKDTree(values).query(values, k=3)

    return query


# -- scaling: the algorithms alone ---------------------------------------------------------


def scaling(name: str, n: int, d: int):
    """Return the call of one algorithm on n simulated records (for ``run.py --scaling``)."""
    from safeplot.anonymize import knn_centroids
    from safeplot.anonymize import microaggregation as m
    from safeplot.anonymize.probabilistic import add_keyed_noise
    from safeplot.keys import SecretKey
    from safeplot.metrics import drisk_rmd
    from safeplot.plots.grid import release_grid

    x = matrix(n, d)
    if name == "knn_centroids":
        return lambda: knn_centroids(x, 3)
    if name == "grid_counts":
        return lambda: release_grid(x[:, 0], x[:, 1], method="suppress")
    if name == "optimal":
        return lambda: m.optimal_univariate(x[:, 0], 3)
    if name == "mdav":
        return lambda: m.mdav(x, 3)
    if name == "drisk_rmd":
        y = knn_centroids(x, 3).values
        return lambda: drisk_rmd(x, y)
    key = SecretKey("benchmark key, not a secret", source="benchmark")
    if name == "noise":
        return lambda: add_keyed_noise(x, 0.25, names=["a", "b"], key=key)
    if name == "vmdav":
        return lambda: m.vmdav(x, 3)
    if name.startswith("rounding-"):
        from safeplot.anonymize.discretize import discretize
        from safeplot.policy import Policy

        skewed = np.random.default_rng(0).lognormal(0.0, 0.75, n)
        return lambda: discretize(skewed, 10, name.split("-", 1)[1], key=key, policy=Policy())
    from safeplot import metrics

    y = knn_centroids(x, 3).values
    other = {
        "distance_linkage": lambda: metrics.distance_linkage(x, y),
        "interval_disclosure_risk": lambda: metrics.interval_disclosure_risk(x, y),
        "il1s": lambda: metrics.il1s(x, y),
        "il_metrics": lambda: metrics.il_metrics(x, y),
        "propensity_utility": lambda: metrics.propensity_utility(x, y),
        "delta": lambda: metrics.delta(x, y),
    }
    return other[name]


#: The algorithms of the scaling study (run by default).
SCALING = ("knn_centroids", "grid_counts", "optimal", "mdav", "drisk_rmd", "noise")
#: Further algorithms (``--algorithms all``): V-MDAV, rounding by each discretiser, metrics.
SCALING_MORE = (
    "vmdav",
    "rounding-ewd",
    "rounding-efd",
    "rounding-kmeans",
    "rounding-resampling",
    "distance_linkage",
    "interval_disclosure_risk",
    "il1s",
    "il_metrics",
    "propensity_utility",
    "delta",
)


# -- harness -------------------------------------------------------------------------------


def measure(fn: Callable, repeat: int) -> list[float]:
    """Wall times of `repeat` runs of `fn` (plus one Agg render when it returns a Figure)."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fig = fn()
        if isinstance(fig, plt.Figure):
            fig.canvas.draw()
        times.append(time.perf_counter() - t)
        plt.close("all")
    return times


def main(argv: list[str]) -> None:
    """Measure one case in this process and print its JSON line."""
    case, impl, n, repeat, decimals = argv[0], argv[1], int(float(argv[2])), int(argv[3]), argv[4]
    decimals = int(decimals)
    warnings.simplefilter("ignore")
    if case.startswith("scaling:"):
        fn = scaling(case.split(":", 1)[1], n, decimals)
    elif case.startswith("table:"):  # table:PLOT:METHOD, METHOD "raw" or "knn"
        _, plot, method = case.split(":")
        fn = (
            table_knn(plot, n, decimals)
            if method == "knn"
            else table_case(plot, method, n, decimals)
        )
    else:
        safe, raw = CASES[case](n, decimals)
        fn = safe if impl == "safe" else raw
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times = measure(fn, repeat)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "best": min(times),
                "median": sorted(times)[len(times) // 2],
                "peak_mb": peak / 1024,
                "before_mb": before / 1024,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
