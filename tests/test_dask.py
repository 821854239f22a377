"""Dask DataFrames in histplot, heatmap, countplot and kdeplot: counted out of core.

Every test compares the dask path with the pandas path on the same data: the
released numbers (counts, edges, suppressed bins, limits, ticks, reports) must
be equal, not close.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")

import safeplot  # noqa: E402
import safeplot.sources.dask as sdask  # noqa: E402
from safeplot import DisclosureError, audit, ledger  # noqa: E402
from safeplot.anonymize.grids import _rule_bin_count, rare_values, safe_edges  # noqa: E402
from safeplot.plots._common import FOOTNOTE_GID  # noqa: E402
from safeplot.plots.categorical import countplot, release_countplot  # noqa: E402
from safeplot.plots.distributions import histplot, release_histograms  # noqa: E402
from safeplot.plots.grid import release_grid  # noqa: E402
from safeplot.plots.kde import kdeplot, release_kde  # noqa: E402
from safeplot.plots.matrix import heatmap  # noqa: E402
from safeplot.sources.dask import DaskColumns, is_dask_collection  # noqa: E402

from .leakscan import scan_figure  # noqa: E402


def _frame(n=700, seed=1):
    """Measured values (one decimal: ties), planted unique outliers, NaN rows, a hue."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "x": np.round(rng.normal(50, 10, n), 1),
            "y": rng.normal(0, 1, n),
            "g": rng.choice(["b", "a", "c"], n, p=[0.5, 0.3, 0.2]),
            "k": rng.integers(1, 7, n),
        }
    )
    df.loc[5, "x"] = 151.3  # unique outliers: never on an edge, tick or limit
    df.loc[7, "y"] = -9.25
    df.loc[9, "k"] = 40
    df.loc[10:20, "x"] = np.nan
    df.loc[30:33, "g"] = None
    return df


@pytest.fixture
def df():
    return _frame()


@pytest.fixture
def ddf(df):
    return dd.from_pandas(df, npartitions=4)


@pytest.fixture
def ties():
    """Heavy-tie integer data: values 0..40, a few held by one or two records."""
    rng = np.random.default_rng(2)
    x = rng.binomial(40, 0.5, 900).astype(float)
    y = rng.binomial(30, 0.3, 900).astype(float)
    x[:3] = [0.0, 1.0, 40.0]
    return pd.DataFrame({"x": x, "y": y, "g": rng.choice(["u", "v"], 900)})


def _bars(ax):
    return np.array([(p.get_x(), p.get_width(), p.get_y(), p.get_height()) for p in ax.patches])


def _same_axes(a, b):
    """The two Axes draw the same bars, curves, filled areas, limits, ticks and report."""
    assert np.array_equal(_bars(a), _bars(b))
    assert len(a.lines) == len(b.lines)
    for la, lb in zip(a.lines, b.lines, strict=True):
        assert np.array_equal(la.get_xydata(), lb.get_xydata())
    assert len(a.collections) == len(b.collections)
    for ca, cb in zip(a.collections, b.collections, strict=True):
        for pa, pb in zip(ca.get_paths(), cb.get_paths(), strict=True):
            assert np.array_equal(pa.vertices, pb.vertices)
    assert a.get_xlim() == b.get_xlim() and a.get_ylim() == b.get_ylim()
    assert np.array_equal(a.get_xticks(), b.get_xticks())
    assert np.array_equal(a.get_yticks(), b.get_yticks())
    assert [t.get_text() for t in a.get_xticklabels()] == [
        t.get_text() for t in b.get_xticklabels()
    ]
    assert a.safeplot_report.to_dict() == b.safeplot_report.to_dict()


def _pair():
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 3))
    return fig, a, b


# -- recognising a dask collection ------------------------------------------------------


def test_is_dask_collection(df, ddf):
    assert is_dask_collection(ddf) and is_dask_collection(ddf["x"])
    assert not is_dask_collection(df) and not is_dask_collection(df["x"].to_numpy())


# -- histograms --------------------------------------------------------------------------

HIST_CASES = [
    {},
    {"hue": "g"},
    {"hue": "g", "hue_order": ["c", "a"]},
    {"bins": 20},
    {"bins": "sturges"},
    {"bins": "fd"},
    {"bins": "scott"},
    {"binwidth": 2.5},
    {"binrange": (30, 70)},
    {"bins": [-100.25, 0.25, 100.25, 300.25]},
    {"element": "step"},
    {"stat": "density", "hue": "g", "multiple": "stack"},
]


@pytest.mark.parametrize("method", ["suppress", "generalize"])
@pytest.mark.parametrize("kws", HIST_CASES, ids=[str(c) for c in HIST_CASES])
def test_histplot_same_release_as_pandas(df, ddf, method, kws):
    fig, a, b = _pair()
    histplot(df, x="x", method=method, ax=a, **kws)
    histplot(ddf, x="x", method=method, ax=b, **kws)
    _same_axes(a, b)
    assert len(a.patches) + len(a.collections) > 0


def test_release_histograms_numbers(df, ddf):
    """Edges, counts (NaN where suppressed), limits, ticks and reports are equal."""
    src = DaskColumns(ddf.assign(v=ddf["x"]), ["v"], hue="g")
    keep = df["x"].notna() & df["g"].notna()
    levels = sorted(df["g"].dropna().unique(), key=list(df["g"][keep].unique()).index)
    assert src.levels == levels
    codes = df["g"][keep].map({lv: i for i, lv in enumerate(levels)}).to_numpy()
    mine = release_histograms(None, level_names=levels, bins=25, counts_from=src)
    theirs = release_histograms(
        df["x"][keep].to_numpy(), levels=codes, level_names=levels, bins=25
    )
    for m, t in zip(mine, theirs, strict=True):
        assert np.array_equal(m.edges, t.edges)
        assert np.array_equal(m.counts, t.counts, equal_nan=True)
        assert m.xlim == t.xlim and np.array_equal(m.xticks, t.xticks)
        assert m.report.to_dict() == t.report.to_dict()
    # independent check: the counts of shown bins, and suppression of the rest
    x, g = df["x"][keep].to_numpy(), df["g"][keep].to_numpy()
    for m, lv in zip(mine, levels, strict=True):
        counts, _ = np.histogram(x[g == lv], bins=m.edges)
        shown = ~np.isnan(m.counts)
        assert np.array_equal(m.counts[shown], counts[shown])
        assert (counts[~shown] > 0).all() and (counts[~shown] < 3).all()
    assert src.n == keep.sum() and src.n_dropped == (~keep).sum()


def test_discrete_and_heavy_ties(ties):
    ddf = dd.from_pandas(ties, npartitions=3)
    for kws in ({"discrete": True}, {"discrete": True, "element": "step"}, {"bins": 7}, {}):
        fig, a, b = _pair()
        # each pair in a ledger of its own: the ledger links the pandas histograms of the
        # same records on other bins (test_attacks_linked), and counts out of core are not
        with ledger.using(ledger.Ledger()):
            histplot(ties, x="x", hue="g", ax=a, **kws)
        histplot(ddf, x="x", hue="g", ax=b, **kws)
        _same_axes(a, b)
        assert not scan_figure(fig, {"x": ties["x"].to_numpy()})
        plt.close(fig)


def test_exact_quartiles_out_of_core(monkeypatch):
    """Beyond COLLECT_LIMIT the quartiles are found by narrowing; equal to numpy's."""
    rng = np.random.default_rng(7)
    for x in (
        rng.normal(size=3000),
        np.round(rng.exponential(3, 3000), 2),
        rng.integers(0, 5, 3000).astype(float),
    ):
        monkeypatch.setattr(sdask, "COLLECT_LIMIT", 50)
        src = DaskColumns(dd.from_pandas(pd.DataFrame({"x": x}), npartitions=4), ["x"])
        assert src.percentiles(0, [75, 25]) == list(np.percentile(x, [75, 25]))
        for rule in ("auto", "fd", "sturges", "sqrt", "rice", "scott"):
            # the bin count may come from the sketch's bracket of the quartiles: any count in
            # the bracket gives the same edges, which are what the release uses
            edges = safe_edges(src.span_values(0), rule, n_bins=src.rule_bins(0, rule))
            assert np.array_equal(edges, safe_edges(x, rule)), rule
        for rule in ("sturges", "sqrt", "rice", "scott"):
            assert src.rule_bins(0, rule) == _rule_bin_count(x, rule), rule
        with pytest.raises(ValueError, match="needs every value in memory"):
            src.rule_bins(0, "doane")


def test_histplot_auto_bins_out_of_core(monkeypatch, df, ddf):
    monkeypatch.setattr(sdask, "COLLECT_LIMIT", 40)
    fig, a, b = _pair()
    histplot(df, x="x", hue="g", ax=a)
    histplot(ddf, x="x", hue="g", ax=b)
    _same_axes(a, b)


def test_rare_values_near_the_grid_only():
    """The rare-value pass counts only values that a grid number could hit."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=5000)  # continuous: every value is rare
    x[:6] = [0.5, 0.5, 1.25, -2.0, -2.0, -2.0]
    src = DaskColumns(dd.from_pandas(pd.DataFrame({"x": x}), npartitions=3), ["x"])
    near = src.rare(0, 3, step=0.01)
    full = src.rare(0, 3, step=None)
    assert np.array_equal(full, rare_values(x, 3))
    assert {0.5, 1.25} <= set(near) and -2.0 not in set(near)  # -2.0 is held by 3 records
    assert set(near) <= set(full) and near.size < 50  # a handful, not 5000


def _count_passes(monkeypatch):
    calls = []
    compute = sdask._compute
    monkeypatch.setattr(
        sdask, "_compute", lambda tasks: calls.append(len(tasks)) or compute(tasks)
    )
    return calls


@pytest.mark.parametrize(
    ("plot", "kws"),
    [
        (histplot, {"x": "y", "bins": 30}),
        (histplot, {"x": "x", "hue": "g", "binwidth": 2.5}),
        # the paper's grid: some other sizes place an edge on a rare value and recount
        (heatmap, {"x": "x", "y": "y", "bins": 30}),
    ],
)
def test_two_passes(monkeypatch, df, ddf, plot, kws):
    """A summary and one count: the rare-value checks and the counts share the pass."""
    calls = _count_passes(monkeypatch)
    fig, a, b = _pair()
    plot(df, ax=a, **kws)
    plot(ddf, ax=b, **kws)
    _same_axes(a, b)
    # the second pass is added up on the workers: one result
    assert calls[:2] == [ddf.npartitions, 1]
    # the colour bar's ticks depend on its limits alone: no pass looks for data near them
    assert len(calls) == 2


def test_rare_values_on_the_edges_moved_off_as_in_pandas(monkeypatch):
    """Rare values on the first edges the release places: it moves them, as for pandas."""
    rng = np.random.default_rng(5)
    x = np.round(rng.normal(20, 4, 4000), 1)
    lo, hi = x.min(), x.max()
    first = safe_edges(np.array([lo, hi]), 20)
    # a rare value on an inner edge and one on a bin centre of that placement
    x[:3] = [first[5], (first[9] + first[10]) / 2, first[5]]
    x = np.where(np.isin(x, x[:3]) & (np.arange(x.size) >= 3), x + 0.05, x)
    df = pd.DataFrame({"x": x})
    ddf = dd.from_pandas(df, npartitions=4)
    calls = _count_passes(monkeypatch)
    fig, a, b = _pair()
    histplot(df, x="x", bins=20, ax=a)
    histplot(ddf, x="x", bins=20, ax=b)
    _same_axes(a, b)
    edges = np.unique([p.get_x() for p in b.patches])
    assert not np.isin(x[:3], edges).any()  # the release moved off the rare values
    # the shifts by a quarter step are counted with the first edges; others (here, the
    # tails' rare values rule those out too) are counted in one more pass with every
    # shift and widening a placement tries next
    assert calls[:2] == [ddf.npartitions, 1] and len(calls) <= 3


@pytest.mark.parametrize("parts", [1, 4, 80])
def test_counts_on_the_edges_as_numpy(parts):
    """Values on, next to and between edges are binned as numpy bins them."""
    rng = np.random.default_rng(8)
    edges = sdask._fine_over(-3.0, 41.3, safe_edges(np.array([-3.0, 41.3]), 37), parts)
    v = np.concatenate(
        [
            np.round(rng.normal(10, 8, 5000), 1),
            edges,
            edges[::3],
            np.nextafter(edges, np.inf),
            np.nextafter(edges, -np.inf),
            edges * (1 + 3e-9),
            [edges[0] - 1, edges[-1] + 1],
        ]
    )
    codes = rng.integers(-1, 3, v.size)
    counts, sizes, pts, pairs = sdask._hist_counts(v, codes, 3, edges, None, points=True)
    for lv in range(3):
        assert np.array_equal(counts[lv], np.histogram(v[codes == lv], edges)[0])
        assert sizes[lv] == (codes == lv).sum()
    rows = np.where(codes >= 0, codes, 3)
    for r in range(4):
        assert np.array_equal(pts[r], [np.sum((v == e) & (rows == r)) for e in edges])
    close = {val for _, val in pairs.index}
    assert close == set(v[~np.isin(v, edges) & sdask.hit_mask(v, edges, rtol=4e-9)])


def test_continuous_column_counts_only_candidates(monkeypatch):
    """Rare values of a continuous column are counted at drawn numbers, never listed."""
    x = np.random.default_rng(6).normal(size=20_000)  # every value rare
    src = DaskColumns(dd.from_pandas(pd.DataFrame({"x": x}), npartitions=4), ["x"])
    sdask.histogram_step(src, 0, bins=40, binwidth=None, binrange=None, discrete=None, n_bins=None)
    rare = src.rare(0, 3, step=0.01)
    edges = safe_edges(src.span_values(0), 40, avoid=rare)
    assert np.array_equal(edges, safe_edges(x, 40, avoid=rare_values(x, 3)))
    assert rare._sorted is None  # the list of every rare value was never made
    assert src.passes == 2  # the summary, and the count of the edges and their numbers
    counts, sizes = src.histogram(0, edges)
    assert np.array_equal(counts[0], np.histogram(x, edges)[0]) and sizes[0] == x.size
    assert src.passes == 2


# -- NaN and inf -----------------------------------------------------------------------


def test_all_nan_partition(df):
    df = df.copy()
    df.loc[:174, "x"] = np.nan  # the first of four partitions has no value
    ddf = dd.from_pandas(df, npartitions=4)
    fig, a, b = _pair()
    histplot(df, x="x", hue="g", ax=a)
    histplot(ddf, x="x", hue="g", ax=b)
    _same_axes(a, b)
    assert b.safeplot_report.n_dropped == a.safeplot_report.n_dropped


def test_infinite_values_refused_as_in_pandas(df):
    df = df.copy()
    df.loc[600, "x"] = np.inf
    ddf = dd.from_pandas(df, npartitions=4)
    with pytest.raises(ValueError) as pandas_error:
        histplot(df, x="x")
    plt.close("all")
    before = plt.get_fignums()
    with pytest.raises(ValueError) as dask_error:
        histplot(ddf, x="x")
    assert str(dask_error.value) == str(pandas_error.value)
    assert "infinite" in str(dask_error.value)
    assert plt.get_fignums() == before


def test_empty_and_constant(df):
    empty = dd.from_pandas(df.iloc[:0], npartitions=1)
    with pytest.raises(ValueError, match="empty"):
        histplot(empty, x="x")
    const = dd.from_pandas(df.assign(x=5.0), npartitions=2)
    with pytest.raises(DisclosureError, match="constant"):
        histplot(const, x="x")


# -- density grid, heat map ------------------------------------------------------------


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_heatmap_same_grid(df, ddf, method):
    fig, a, b = _pair()
    heatmap(df, x="x", y="y", method=method, cbar=True, ax=a)
    heatmap(ddf, x="x", y="y", method=method, cbar=True, ax=b)
    ma, mb = a.collections[0], b.collections[0]
    assert np.array_equal(ma.get_array(), mb.get_array())
    assert np.array_equal(ma.get_coordinates(), mb.get_coordinates())
    _same_axes(a, b)
    ca, cb = fig.axes[2], fig.axes[3]  # the colour bars
    assert np.array_equal(ca.get_yticks(), cb.get_yticks())
    assert not scan_figure(
        fig, {"x": df["x"].to_numpy(), "y": df["y"].to_numpy()}, counts_in_colour=True
    )


def test_release_grid_numbers_with_hue(df, ddf):
    keep = df[["x", "y", "g"]].notna().all(axis=1)
    mine = release_grid(ddf["x"], ddf["y"], hue=ddf["g"], names=("x", "y"), bins=12)
    theirs = release_grid(df["x"], df["y"], hue=df["g"], names=("x", "y"), bins=12)
    assert mine.levels == theirs.levels
    assert np.array_equal(mine.counts, theirs.counts, equal_nan=True)
    assert np.array_equal(mine.xedges, theirs.xedges)
    assert np.array_equal(mine.yedges, theirs.yedges)
    assert np.array_equal(mine.xticks, theirs.xticks)
    assert mine.report.to_dict() == theirs.report.to_dict()
    # independent: shown counts are numpy's 2-D histogram of the complete rows
    sub = df[keep]
    for i, lv in enumerate(mine.levels):
        part = sub[sub["g"] == lv]
        h, _, _ = np.histogram2d(part["x"], part["y"], bins=[mine.xedges, mine.yedges])
        shown = ~np.isnan(mine.counts[i])
        assert np.array_equal(mine.counts[i][shown], h[shown])


def test_bivariate_histplot(df, ddf):
    fig, a, b = _pair()
    histplot(df, x="x", y="y", ax=a)
    histplot(ddf, x="x", y="y", ax=b)
    assert np.array_equal(a.collections[0].get_array(), b.collections[0].get_array())
    _same_axes(a, b)


# -- count plots ---------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential"])
@pytest.mark.parametrize(
    "kws",
    [{"x": "g"}, {"x": "k"}, {"x": "k", "hue": "g"}, {"y": "g", "order": ["c", "b"]}],
    ids=str,
)
def test_countplot_same_counts(df, ddf, method, kws):
    mine = release_countplot(ddf, method=method, **kws)
    theirs = release_countplot(df, method=method, **kws)
    assert mine.levels == theirs.levels and mine.hue_levels == theirs.hue_levels
    assert np.array_equal(mine.counts, theirs.counts, equal_nan=True)
    assert np.array_equal(mine.avoid_categories, theirs.avoid_categories)
    assert mine.report.to_dict() == theirs.report.to_dict()
    fig, a, b = _pair()
    countplot(df, method=method, ax=a, **kws)
    countplot(ddf, method=method, ax=b, **kws)
    _same_axes(a, b)


def test_countplot_numbers(df, ddf):
    rel = release_countplot(ddf, x="k")
    counts = df["k"].value_counts()
    for level in rel.levels:
        assert rel.count(level) == counts[level]
    assert 40 not in rel.levels  # held by one record: suppressed and left out


def test_countplot_native_scale(df, ddf):
    fig, a, b = _pair()
    countplot(df, x="k", native_scale=True, ax=a)
    countplot(ddf, x="k", native_scale=True, ax=b)
    _same_axes(a, b)


# -- kernel densities -------------------------------------------------------------------


@pytest.mark.parametrize(
    "kws",
    [
        {"x": "x"},
        {"x": "x", "hue": "g", "method": "generalize"},
        {"x": "x", "hue": "g", "hue_order": ["a", "c"]},
        {"x": "x", "y": "y"},
        {"x": "x", "y": "y", "hue": "g"},
    ],
    ids=str,
)
def test_kdeplot_same_curves(df, ddf, kws):
    kws = {"method": "suppress"} | kws
    fig, a, b = _pair()
    kdeplot(df, ax=a, **kws)
    kdeplot(ddf, ax=b, **kws)
    _same_axes(a, b)
    plotted = df[df["g"].isin(kws.get("hue_order", ["a", "b", "c"]))] if "hue" in kws else df
    raw = {"x": plotted["x"].to_numpy()}
    raw |= {"y": plotted["y"].to_numpy()} if "y" in kws else {}
    assert not scan_figure(fig, raw, count_axis=None)


def test_release_kde_weights(df, ddf):
    mine = release_kde(ddf["x"], method="suppress", labels={"x": "x"})
    theirs = release_kde(df["x"], method="suppress", labels={"x": "x"})
    pd.testing.assert_frame_equal(mine.data, theirs.data)
    # the same density, and the same axis, which keep clear of the same rare values
    assert mine.estimate.ticks.keys() == theirs.estimate.ticks.keys()
    for key in theirs.estimate.ticks:
        np.testing.assert_array_equal(mine.estimate.ticks[key], theirs.estimate.ticks[key])
    for a, b in zip(mine.estimate.density, theirs.estimate.density, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (mine.data["weights"] >= 3).all()


def test_kdeplot_log_scale_refused(ddf):
    with pytest.raises(ValueError, match="log_scale"):
        kdeplot(ddf, x="x", method="suppress", log_scale=True)


# -- leaks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_no_leaks_planted_outliers(df, ddf, method):
    fig, axes = plt.subplots(1, 3, figsize=(12, 3))
    histplot(ddf, x="x", hue="g", method=method, ax=axes[0])
    countplot(ddf, x="k", method=method, ax=axes[1])
    kdeplot(ddf, x="x", method=method, ax=axes[2])
    x, y, k = df["x"].to_numpy(), df["y"].to_numpy(), df["k"].to_numpy(dtype=float)
    findings = scan_figure(
        fig,
        {"x": x, "k": k},
        per_axes={axes[0]: {"x": x}, axes[1]: {"x": k}, axes[2]: {"x": x}},
        count_axis=None,
    )
    assert not findings, str(findings)
    fig, ax = plt.subplots()
    heatmap(ddf, x="x", y="y", method=method, cbar=True, ax=ax)
    assert not scan_figure(fig, {"x": x, "y": y}, counts_in_colour=True)


def test_scanner_flags_the_raw_version(df):
    """The same data drawn raw (pandas, raw allowed) leaks: the scan above can fail."""
    with safeplot.policy(allow_raw=True):
        fig, ax = plt.subplots()
        histplot(df, x="x", method="none", ax=ax)
    assert scan_figure(fig, {"x": df["x"].to_numpy()}).leaks


# -- refusals, floors, audit -----------------------------------------------------------------


@pytest.mark.parametrize(
    "method", ["deterministic", "probabilistic", "microaggregation", "rounding", "confidential"]
)
@pytest.mark.parametrize("function", ["histplot", "heatmap", "kdeplot"])
def test_point_methods_refused(ddf, method, function):
    before = plt.get_fignums()
    kws = {"x": "x", "y": "y"} if function == "heatmap" else {"x": "x"}
    call = {"histplot": histplot, "heatmap": heatmap, "kdeplot": kdeplot}[function]
    with pytest.raises(ValueError, match="needs every record in memory") as err:
        call(ddf, method=method, **kws)
    assert "method='suppress' or 'generalize'" in str(err.value)
    assert "data.sample(frac=...).compute()" in str(err.value)
    assert plt.get_fignums() == before and audit.entries() == []


def test_countplot_value_methods_refused(ddf):
    with pytest.raises(ValueError):
        countplot(ddf, x="g", method="deterministic")
    assert audit.entries() == []


def test_raw_refused_even_when_allowed(ddf):
    with safeplot.policy(allow_raw=True):
        for call, kws in ((histplot, {"x": "x"}), (countplot, {"x": "g"})):
            with pytest.raises(ValueError, match="compute the frame first"):
                call(ddf, method="none", **kws)
    assert audit.entries() == []


@pytest.mark.parametrize(
    "kws",
    [{"threshold": 2}, {"method": "none"}],
    ids=str,
)
def test_floors(ddf, kws):
    before = plt.get_fignums()
    for call, extra in (
        (histplot, {"x": "x"}),
        (heatmap, {"x": "x", "y": "y"}),
        (countplot, {"x": "g"}),
        (kdeplot, {"x": "x", "method": "suppress"}),
    ):
        with pytest.raises(DisclosureError):
            call(ddf, **(extra | kws))
    assert plt.get_fignums() == before and audit.entries() == []


def test_default_method_of_kdeplot_refused(ddf):
    """kdeplot's default is a point method: a dask frame needs a binned one named."""
    with pytest.raises(ValueError, match="method='deterministic' needs every record"):
        kdeplot(ddf, x="x")


def test_other_functions_refuse_dask(ddf):
    with pytest.raises(ValueError, match="does not take a dask DataFrame"):
        safeplot.scatterplot(ddf, x="x", y="y")
    with pytest.raises(ValueError, match="wide-form dask"):
        histplot(ddf)
    with pytest.raises(ValueError, match="must name one of its columns"):
        histplot(ddf, x=ddf["x"])
    with pytest.raises(ValueError, match="counts out of core"):
        safeplot.hist(ddf["x"])


def test_audit_one_entry_per_call_same_fields(df, ddf):
    def fields(e):
        return (e.function, e.variables, e.method, e.params, e.report, e.policy)

    calls = [
        lambda d, ax: histplot(d, x="x", hue="g", ax=ax),
        lambda d, ax: heatmap(d, x="x", y="y", ax=ax),
        lambda d, ax: countplot(d, x="g", ax=ax),
        lambda d, ax: kdeplot(d, x="x", method="generalize", ax=ax),
    ]
    for call in calls:
        audit.clear()
        fig, ax = plt.subplots()
        call(ddf, ax)
        mine = audit.entries()
        call(df, plt.subplots()[1])
        theirs = audit.entries()[1:]
        assert len(mine) == 1 and len(theirs) == 1
        assert fields(mine[0]) == fields(theirs[0])
        plt.close("all")


def test_report_and_note(ddf):
    ax = histplot(ddf, x="x", ax=plt.subplots()[1])
    assert ax.safeplot_report.method == "suppress"
    assert ax.safeplot_report.params["threshold"] == 3
    assert any(t.get_gid() == FOOTNOTE_GID for t in ax.figure.texts + ax.texts)
    ax = histplot(ddf, x="x", annotate=False, ax=plt.subplots()[1])
    assert not any(t.get_gid() == FOOTNOTE_GID for t in ax.figure.texts + ax.texts)


# -- many records: the density is drawn from the counts ---------------------------------------


@pytest.mark.parametrize(
    "kws",
    [
        {"x": "x"},
        {"x": "x", "hue": "g"},
        {"x": "x", "bw_method": "silverman", "bw_adjust": 0.5},
        {"x": "x", "cumulative": True},
        {"x": "x", "bw_method": 0.3},
    ],
    ids=str,
)
def test_frequency_weighted_density_equals_repeated_points(monkeypatch, df, kws):
    """Beyond _EXPAND_MAX records the counts weight the kde; the curve is the same.

    Equal to rounding (relative 1e-9): the weighted sum of kernels adds the
    same terms in another order.
    """
    import safeplot.plots.kde as kde_module

    fig, a, b = _pair()
    kdeplot(df, method="suppress", ax=a, **kws)
    monkeypatch.setattr(kde_module, "_EXPAND_MAX", 10)
    kdeplot(df, method="suppress", ax=b, **kws)
    assert len(a.lines) == len(b.lines) > 0
    for la, lb in zip(a.lines, b.lines, strict=True):
        np.testing.assert_allclose(lb.get_xydata(), la.get_xydata(), rtol=1e-9, atol=1e-300)
    assert not scan_figure(fig, {"x": df["x"].to_numpy()}, count_axis=None)


def test_safeplot_works_without_dask():
    """safeplot imports and plots pandas data when dask cannot be imported."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['dask'] = None; sys.modules['dask.dataframe'] = None\n"
        "import matplotlib; matplotlib.use('Agg')\n"
        "import numpy as np, safeplot\n"
        "ax = safeplot.histplot(x=np.random.default_rng(0).normal(size=300))\n"
        "print(ax.safeplot_report.method, 'dask' in sys.modules and sys.modules['dask'] is None)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["suppress", "True"]


@pytest.mark.parametrize("hue_order", [None, ["a", "b", "c", "tiny"]], ids=["inferred", "named"])
@pytest.mark.parametrize("roles", [("x", "y"), ("x",)], ids=["bivariate", "univariate"])
def test_kdeplot_leaves_a_small_hue_level_out_as_in_memory(df, hue_order, roles):
    """A hue level of 2 records has every grid cell (or bin) suppressed: out of core, as in
    memory, it is not drawn, the legend names it only when hue_order does, and the figure and
    the report say that groups were left out (not which)."""
    from safeplot.marks._axes import LEFT_OUT_GID
    from safeplot.release.guard import LEFT_OUT_NOTE

    small = df.copy()
    small.loc[40:41, "g"] = "tiny"
    fig, a, b = _pair()
    kws = dict(hue="g", hue_order=hue_order, method="suppress") | {r: r for r in roles}
    kdeplot(small, ax=a, **kws)
    kdeplot(dd.from_pandas(small, npartitions=4), ax=b, **kws)
    expected = ["a", "b", "c"] if hue_order is None else sorted(hue_order)
    for ax in (a, b):
        assert sorted(t.get_text() for t in ax.get_legend().get_texts()) == expected
        notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
        assert notes == [LEFT_OUT_NOTE]
        report = ax.safeplot_report
        assert report.details["groups_left_out"] == 1
        assert any("1 hue level(s) with fewer than 3 records" in w for w in report.warnings)
        assert not any("tiny" in w for w in report.warnings)
    assert a.safeplot_report.to_dict() == b.safeplot_report.to_dict()
    _same_axes(a, b)
    raw = {r: small[r].to_numpy() for r in roles}
    assert not scan_figure(fig, raw, count_axis=None)
