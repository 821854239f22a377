"""Figure-level plots: displot, relplot, catplot and lmplot released per facet."""

from __future__ import annotations

import inspect
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgb
from matplotlib.patches import Rectangle

import safeplot
from safeplot import audit, ledger
from safeplot.anonymize.grids import hits_any, rare_values
from safeplot.errors import DisclosureError
from safeplot.plots._common import FOOTNOTE_GID
from safeplot.plots.categorical import boxplot
from safeplot.plots.distributions import histplot
from safeplot.plots.facets import catplot, displot, facet_axes_variables, lmplot, relplot
from safeplot.plots.regression import regplot
from safeplot.plots.relational import scatterplot
from safeplot.policy import get_policy

from .leakscan import scan_figure
from .refusals import Refusal, check, drawing_cells, expected

SAFE = ("suppress", "generalize", "deterministic", "probabilistic", "confidential")
VALUE = ("microaggregation", "rounding")


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield
    plt.close("all")


def _outliers() -> pd.DataFrame:
    """Two facets; planted unique outliers only in facet "b"."""
    rng = np.random.default_rng(7)
    n = 300
    x = np.round(rng.normal(50, 10, n), 3)
    y = np.round(0.5 * x + rng.normal(0, 5, n), 3)
    g = np.where(np.arange(n) % 2 == 0, "a", "b")
    h = rng.choice(["p", "q"], n)
    return pd.DataFrame(
        {
            "x": np.r_[x, 412.731, -97.113, 255.517],
            "y": np.r_[y, -88.404, 301.219, 12.5],
            "g": np.r_[g, ["b", "b", "b"]],
            "h": np.r_[h, ["p", "q", "p"]],
        }
    )


def _ties() -> pd.DataFrame:
    """Integers with heavy ties, plus rare values, in two facets."""
    rng = np.random.default_rng(8)
    return pd.DataFrame(
        {
            "x": np.r_[rng.integers(0, 12, 400), 37, 41, 19, 5].astype(float),
            "y": np.r_[rng.integers(0, 8, 400), 15, 23, -4, 3].astype(float),
            "g": np.r_[rng.choice(["a", "b"], 400), ["a", "b", "a", "b"]],
            "h": np.r_[rng.choice(["p", "q"], 400), ["p", "q", "q", "p"]],
        }
    )


SHAPES = {"outliers": _outliers(), "ties": _ties()}


def _facet_subsets(grid, df, col="g"):
    """{ax: rows of df in that facet} for a one-row grid faceted by `col`."""
    return {
        ax: df[df[col] == name] for ax, name in zip(grid.axes.flat, grid.col_names, strict=True)
    }


def _per_axes(grid, df, axes=("x", "y"), col="g"):
    return {
        ax: {
            a: sub[v].to_numpy(float)
            for a, v in zip(axes, ("x", "y"), strict=True)
            if a is not None
        }
        for ax, sub in _facet_subsets(grid, df, col).items()
    }


def _offsets(ax) -> np.ndarray:
    pts = [c.get_offsets() for c in ax.collections if isinstance(c, PathCollection)]
    pts = np.concatenate([np.asarray(p) for p in pts if len(p)])
    return pts[np.lexsort(pts.T[::-1])]


def _bars(ax) -> np.ndarray:
    rows = [
        (p.get_x(), p.get_width(), p.get_height())
        for p in ax.patches
        if isinstance(p, Rectangle) and p.get_height() > 0
    ]
    return np.array(sorted(rows))


# -- numbers: each facet is the axes-level release of its subset ------------------------


@pytest.mark.parametrize("method", ["suppress", "generalize", "deterministic", "probabilistic"])
def test_displot_facets_equal_the_hue_levels_of_one_histplot(method):
    # the facets are released together, as the hue levels of one histplot: one set of bins
    # for the figure, each facet a stratum of the method and suppressed on its own counts
    df = SHAPES["outliers"]
    g = displot(df, x="x", col="g", method=method, height=2)
    assert len(g.safeplot_reports) == 2
    lefts = np.concatenate([_bars(ax)[:, 0] for ax in g.axes.flat])
    width = _bars(g.axes.flat[0])[0, 1]
    step = width if method != "generalize" else width / 2  # generalize pairs the fine bins
    edges = np.arange(lefts.min(), lefts.max() + width + step / 2, step)
    _, ref = plt.subplots()
    levels = list(g.col_names)
    histplot(data=df, x="x", hue="g", hue_order=levels, bins=edges, method=method, ax=ref)
    for ax, sub in _facet_subsets(g, df).items():
        colour = to_rgb(f"C{levels.index(sub['g'].iloc[0])}")
        level_bars = np.array(
            sorted(
                (p.get_x(), p.get_width(), p.get_height())
                for p in ref.patches
                if isinstance(p, Rectangle)
                and p.get_height() > 0
                and np.allclose(p.get_facecolor()[:3], colour)
            )
        )
        np.testing.assert_allclose(_bars(ax), level_bars, rtol=1e-12)
        assert ax.safeplot_report.n == get_policy().round_count(len(sub))
    # common bins: both facets' bars have one width on one lattice
    widths = {round(float(b[1]), 9) for ax in g.axes.flat for b in _bars(ax)}
    assert len(widths) == 1


@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "rounding"])
def test_relplot_facets_equal_scatterplot_of_each_subset(method):
    df = SHAPES["outliers"]
    g = relplot(df, x="x", y="y", col="g", method=method, height=2)
    for ax, sub in _facet_subsets(g, df).items():
        _, ref = plt.subplots()
        scatterplot(data=sub, x="x", y="y", method=method, ax=ref)
        np.testing.assert_allclose(_offsets(ax), _offsets(ref), rtol=1e-12)
        assert ax.safeplot_report.params == ref.safeplot_report.params


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_relplot_cells_of_every_facet_are_on_one_grid(method):
    """Under the grid methods the facets are released together on one grid, as seaborn's
    facets share their bins: what each facet draws is its panel of scatter_cell_panels,
    and the cell centres of all facets lie on one lattice."""
    from safeplot.plots.relational import scatter_cell_panels

    df = safeplot.load_dataset("penguins").rename(
        columns={"bill_length_mm": "x", "bill_depth_mm": "y", "sex": "g"}
    )
    g = relplot(df, x="x", y="y", col="g", method=method, bins=10, height=2)
    with ledger.using(ledger.Ledger()):
        panels = scatter_cell_panels(df, x="x", y="y", facets=["g"], method=method, bins=10)
    for ax, level in zip(g.axes.flat, g.col_names, strict=True):
        frame = panels[(level,)].frame
        drawn = sorted(map(tuple, _offsets(ax).round(9).tolist()))
        assert len(drawn) > 3
        assert drawn == sorted(map(tuple, frame[["x", "y"]].to_numpy().round(9).tolist()))
    for j in range(2):
        centres = np.unique(np.concatenate([_offsets(ax)[:, j] for ax in g.axes.flat]))
        step = np.diff(centres).min()
        lattice = (centres - centres[0]) / step
        assert np.allclose(lattice, np.round(lattice), atol=1e-6)


def test_relplot_hue_deterministic_within_facet_and_level():
    df = SHAPES["outliers"]
    g = relplot(df, x="x", y="y", col="g", hue="h", method="deterministic", height=2)
    for ax, sub in _facet_subsets(g, df).items():
        _, ref = plt.subplots()
        scatterplot(data=sub, x="x", y="y", hue="h", method="deterministic", ax=ref)
        np.testing.assert_allclose(_offsets(ax), _offsets(ref), rtol=1e-12)
    assert g.legend is not None
    assert [t.get_text() for t in g.legend.texts] == ["p", "q"]
    assert all(ax.get_legend() is None for ax in g.axes.flat)


def test_relplot_size_column_named_size_keeps_its_name():
    """A column named like its role (tips' "size" given as size=) titles its legend section."""
    tips = safeplot.load_dataset("tips")
    g = relplot(tips, x="total_bill", y="tip", col="time", size="size", hue="smoker", height=2)
    for ax in g.axes.flat:
        texts = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "size" in texts and "_size_" not in texts
        assert "size" in ax.safeplot_report.variables
    plt.close(g.figure)


@pytest.mark.parametrize("method", ["deterministic", "confidential", "generalize"])
def test_catplot_box_facets_equal_boxplot_of_each_subset(method):
    df = SHAPES["outliers"].assign(c=lambda d: np.where(d["y"] > 25, "hi", "lo"))
    g = catplot(df, x="c", y="x", col="g", kind="box", method=method, height=2)
    for ax, sub in _facet_subsets(g, df).items():
        _, ref = plt.subplots()
        order = list(pd.unique(df["c"]))  # seaborn's order: as the levels appear
        boxplot(data=sub, x="c", y="x", order=order, method=method, ax=ref)
        lines = [ln.get_ydata() for ln in ax.lines]
        ref_lines = [ln.get_ydata() for ln in ref.lines]
        assert len(lines) == len(ref_lines)
        for a, b in zip(lines, ref_lines, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_catplot_count_facets_equal_countplot():
    df = SHAPES["ties"]
    g = catplot(df, x="y", col="g", kind="count", method="suppress", height=2)
    from safeplot.plots.categorical import countplot

    for ax, sub in _facet_subsets(g, df).items():
        _, ref = plt.subplots()
        counts = df["y"].value_counts()
        order = sorted(v for v in df["y"].unique() if counts[v] >= 3)  # rare ones get no label
        countplot(data=sub, x="y", order=order, method="suppress", ax=ref)
        heights = sorted(p.get_height() for p in ax.patches if p.get_height() > 0)
        ref_heights = sorted(p.get_height() for p in ref.patches if p.get_height() > 0)
        assert heights == ref_heights
        assert all(h >= 3 for h in heights)


@pytest.mark.parametrize("method", ["deterministic", "probabilistic"])
def test_lmplot_facets_equal_regplot_of_each_subset(method):
    df = SHAPES["outliers"]
    g = lmplot(df, x="x", y="y", col="g", method=method, height=2, n_boot=50, seed=0)
    for ax, sub in _facet_subsets(g, df).items():
        _, ref = plt.subplots()
        regplot(data=sub, x="x", y="y", method=method, n_boot=50, seed=0, ax=ref)
        np.testing.assert_allclose(_offsets(ax), _offsets(ref), rtol=1e-12)
        # the fitted line: same fit, drawn over the released range
        np.testing.assert_allclose(ax.lines[0].get_xydata(), ref.lines[0].get_xydata())


@pytest.mark.parametrize("method", ["suppress", "generalize"])
@pytest.mark.parametrize("hue", [None, "sex"])
def test_lmplot_cells_of_every_facet_and_level_are_on_one_grid(method, hue):
    """Under the grid methods lmplot releases every facet and hue level together on one
    grid, as relplot does: each regplot draws its level's cells of grid_panels (exact
    centres and counts), the fit is regplot's over that released range, and the cell
    centres of all facets lie on one lattice."""
    from safeplot.plots.facets import _panel_frame  # the facet names the ledger sees
    from safeplot.plots.grid import grid_panels
    from safeplot.plots.relational import grid_points
    from safeplot.release import guard

    df = safeplot.load_dataset("penguins").rename(
        columns={"bill_length_mm": "x", "bill_depth_mm": "y", "island": "g"}
    )
    df = df.dropna(subset=["x", "y", "g", "sex"])
    hue_order = ["Female", "Male"] if hue else None
    with guard.capturing() as seen:
        g = lmplot(
            df,
            x="x",
            y="y",
            col="g",
            hue=hue,
            hue_order=hue_order,
            method=method,
            bins=8,
            height=2,
            n_boot=20,
            seed=0,
        )
    names = {"x": "x", "y": "y", "col": "g"} | ({"hue": hue} if hue else {})
    with ledger.using(ledger.Ledger()):
        panels = grid_panels(
            _panel_frame(df, names, "x", also=["y"])[0],
            x="x",
            y="y",
            hue=hue,
            hue_order=hue_order,
            facets=["col=g"],
            method=method,
            bins=8,
            function="lmplot",
            kind="scatter",
        )
    released = [rel["release"] for _, _, rel in seen if isinstance(rel, dict)]
    expected = [
        grid_points(panels[(col,)], level)
        for col in g.col_names
        for level in (hue_order or [None])
    ]
    assert len(released) == len(expected) >= 3
    for got, want in zip(released, expected, strict=True):
        np.testing.assert_array_equal(got.x, want.x)
        np.testing.assert_array_equal(got.sizes, want.sizes)
    for j in range(2):
        centres = np.unique(np.concatenate([_offsets(ax)[:, j] for ax in g.axes.flat]))
        step = np.diff(centres).min()
        lattice = (centres - centres[0]) / step
        assert np.allclose(lattice, np.round(lattice), atol=1e-6)


def test_lmplot_hue_one_release_per_facet_and_level():
    df = SHAPES["outliers"]
    g = lmplot(df, x="x", y="y", col="g", hue="h", height=2, n_boot=50, seed=0)
    assert len(audit.entries()) == 4  # 2 facets x 2 hue levels
    for ax, sub in _facet_subsets(g, df).items():
        for level in ("p", "q"):
            _, ref = plt.subplots()
            regplot(data=sub[sub["h"] == level], x="x", y="y", n_boot=50, seed=0, ax=ref)
            drawn = np.asarray(ax.collections[0 if level == "p" else 2].get_offsets())
            ref_pts = np.asarray(ref.collections[0].get_offsets())
            np.testing.assert_allclose(np.sort(drawn, axis=0), np.sort(ref_pts, axis=0))
    assert [t.get_text() for t in g.legend.texts] == ["p", "q"]


# -- shared axes ----------------------------------------------------------------------------


@pytest.mark.parametrize("func", ["relplot", "lmplot"])
def test_shared_limits_span_every_facet_and_avoid_every_rare_value(func):
    df = SHAPES["outliers"]
    draw = {"relplot": relplot, "lmplot": lmplot}[func]
    g = draw(df, x="x", y="y", col="g", method="probabilistic", height=2)
    a, b = g.axes.flat
    assert a.get_xlim() == b.get_xlim() and a.get_ylim() == b.get_ylim()
    subsets = [df, *_facet_subsets(g, df).values()]
    rare_x = np.unique(np.concatenate([rare_values(s["x"], 3) for s in subsets]))
    xlim = a.get_xlim()
    for ax in g.axes.flat:
        pts = _offsets(ax)
        assert pts[:, 0].min() >= xlim[0] and pts[:, 0].max() <= xlim[1]  # nothing clipped
        assert not hits_any(list(ax.get_xlim()), rare_x)
        assert not hits_any(ax.get_xticks(), rare_x)


def test_unshared_axes_each_facet_its_own_limits():
    df = SHAPES["outliers"]
    g = relplot(df, x="x", y="y", col="g", facet_kws={"sharex": False}, height=2)
    a, b = g.axes.flat
    assert a.get_xlim() != b.get_xlim()
    assert b.get_xlim()[1] > 300 > a.get_xlim()[1]  # the outliers are in facet b only


def test_user_limit_on_a_rare_value_is_refused():
    df = SHAPES["outliers"]
    before = plt.get_fignums()
    with pytest.raises(DisclosureError, match="xlim"):
        relplot(df, x="x", y="y", col="g", facet_kws={"xlim": (-97.113, 500)})
    assert plt.get_fignums() == before
    assert audit.entries() == []
    g = relplot(df, x="x", y="y", col="g", facet_kws={"xlim": (-200, 500)}, height=2)
    assert g.axes.flat[0].get_xlim() == (-200, 500)


# -- leak scan -------------------------------------------------------------------------------

DRAW = {
    "displot": lambda df, m: displot(df, x="x", col="g", hue="h", method=m, height=2),
    "displot-kde": lambda df, m: displot(df, x="x", col="g", kind="kde", method=m, height=2),
    "relplot": lambda df, m: relplot(df, x="x", y="y", col="g", hue="h", method=m, height=2),
    "catplot-box": lambda df, m: catplot(
        df, x="h", y="x", col="g", kind="box", method=m, height=2
    ),
    "lmplot": lambda df, m: lmplot(
        df, x="x", y="y", col="g", method=m, height=2, n_boot=50, seed=0
    ),
}
AXES = {
    "displot": ("x", None),
    "displot-kde": ("x", None),
    "relplot": ("x", "y"),
    "catplot-box": (None, "x"),
    "lmplot": ("x", "y"),
}


def _scan(name, grid, df):
    raw_axes = AXES[name]
    per = {
        ax: {
            axis: sub[var].to_numpy(float)
            for axis, var in zip(("x", "y"), raw_axes, strict=True)
            if var
        }
        for ax, sub in _facet_subsets(grid, df).items()
    }
    count_axis = "y" if name == "displot" else None
    return scan_figure(grid.figure, {}, per_axes=per, count_axis=count_axis)


#: The facet plots refused rather than drawn, and why (every other combination must draw).
FACET_REFUSALS: list[Refusal] = [
    Refusal(
        "(relplot|lmplot)",
        "rounding",
        "ties",
        ValueError,
        r"c=10 is larger than the number of distinct values \(9\)",
        "y of the tied data has 9 distinct values: rounding to c=10 points is not possible",
    ),
]


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("method", SAFE + VALUE)
@pytest.mark.parametrize("name", list(DRAW))
def test_no_rare_value_and_no_small_count_in_any_facet(name, method, shape):
    df = SHAPES[shape]
    entry = expected(FACET_REFUSALS, name, method, shape)
    before = plt.get_fignums()
    try:
        g = DRAW[name](df, method)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"{name}|{method}|{shape}")
        assert plt.get_fignums() == before
        assert audit.entries() == []
        return
    check(entry, None, f"{name}|{method}|{shape}")
    found = _scan(name, g, df)
    assert not found, str(found)
    assert found.numbers_scanned > 0
    reports = g.safeplot_reports
    assert reports and {r.method for r in reports} == {method}
    assert all(getattr(ax, "safeplot_report", None) is not None for ax in g.axes.flat)


def test_every_facet_plot_draws_on_some_shape():
    cells = [(name, m, shape) for name in DRAW for m in SAFE + VALUE for shape in SHAPES]
    never = [cell for cell, n in drawing_cells(FACET_REFUSALS, cells).items() if n == 0]
    assert not never, f"refused on every data shape: {never}"


@pytest.mark.parametrize("name", list(DRAW))
def test_the_scanner_flags_the_raw_grid(name):
    if name == "displot-kde":
        pytest.skip("a raw density ends 3 bandwidths beyond the data (test_kde checks)")
    df = SHAPES["outliers"]
    with safeplot.policy(allow_raw=True):
        g = DRAW[name](df, "none")
    assert {r.method for r in g.safeplot_reports} == {"none"}
    assert _scan(name, g, df)


def test_facet_axes_variables_gives_each_facet_its_records():
    df = SHAPES["outliers"]
    g = relplot(df, x="x", y="y", col="g", height=2)
    per = facet_axes_variables(g, df)
    assert set(per) == set(g.axes.flat)
    for ax, sub in _facet_subsets(g, df).items():
        np.testing.assert_array_equal(np.sort(per[ax]["x"]), np.sort(sub["x"].to_numpy()))
    # the grid keeps no records: mapping a raw plot onto it afterwards draws nothing
    assert len(g.data) == 0
    drawn = [len(ax.collections) for ax in g.axes.flat]
    g.map(plt.scatter, "x", "y")
    assert [len(ax.collections) for ax in g.axes.flat] == drawn


# -- reports, audit, notes --------------------------------------------------------------------


def test_every_facet_has_its_report_audit_entry_and_note():
    df = SHAPES["outliers"]
    g = displot(df, x="x", row="h", col="g", method="suppress", height=2)
    assert len(g.safeplot_reports) == 4
    assert len(audit.entries()) == 4
    for ax in g.axes.flat:
        assert ax.safeplot_report.method == "suppress"
    # the figure names its method once, under the bottom-left panel (the facets' notes agree)
    notes = [(ax, t) for ax in g.axes.flat for t in ax.texts if t.get_gid() == FOOTNOTE_GID]
    assert [(ax, t.get_text()) for ax, t in notes] == [
        (g.axes[1, 0], "safeplot: suppress (threshold=3)")
    ]
    g = displot(df, x="x", col="g", annotate=False, height=2)
    assert not [t for ax in g.axes.flat for t in ax.texts if t.get_gid() == FOOTNOTE_GID]


def test_row_and_col_titles_and_labels():
    df = SHAPES["outliers"]
    g = relplot(df, x="x", y="y", row="h", col="g", height=2)
    assert g.axes.shape == (2, 2)
    assert g.axes[0, 0].get_title() == "h = p | g = a"
    assert g.axes[1, 0].get_xlabel() == "x" and g.axes[0, 0].get_xlabel() == ""


def test_col_wrap():
    df = SHAPES["ties"].assign(k=lambda d: (d.index % 3).astype(str))
    g = relplot(df, x="x", y="y", col="k", col_wrap=2, height=2)
    assert len(g.safeplot_reports) == 3


# -- refusals -------------------------------------------------------------------------------


def _refused(call, match, error=DisclosureError):
    before = plt.get_fignums()
    with pytest.raises(error, match=match):
        call()
    assert plt.get_fignums() == before
    assert audit.entries() == []


def _tiny(n=2):
    df = SHAPES["outliers"].copy()
    df.loc[: n - 1, "g"] = "tiny"  # a facet of n records, first in the data
    return df


def _drawn(ax) -> int:
    """How many artists of data a panel holds (none for a facet drawn empty)."""
    lines = [ln for ln in ax.lines if len(np.asarray(ln.get_xdata()))]
    offsets = [c for c in ax.collections if len(c.get_offsets()) or len(c.get_paths())]
    return len(lines) + len(offsets) + len(ax.patches)


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(plt.Text)]


#: Facet plots of values or summaries: a small facet is left out of them with a note.
LEFT_OUT = {
    "relplot": lambda df, **kw: relplot(df, x="x", y="y", col="g", height=2, **kw),
    "relplot-line": lambda df, **kw: relplot(
        df, x="x", y="y", col="g", kind="line", height=2, **kw
    ),
    "lmplot": lambda df, **kw: lmplot(
        df, x="x", y="y", col="g", height=2, n_boot=20, seed=0, **kw
    ),
    "catplot-box": lambda df, **kw: catplot(df, x="h", y="x", col="g", kind="box", height=2, **kw),
    "catplot-strip": lambda df, **kw: catplot(df, x="h", y="x", col="g", height=2, **kw),
    "catplot-point": lambda df, **kw: catplot(
        df, x="h", y="x", col="g", kind="point", height=2, seed=0, **kw
    ),
    "displot-kde": lambda df, **kw: displot(df, x="x", col="g", kind="kde", height=2, **kw),
}


@pytest.mark.parametrize("name", list(LEFT_OUT))
def test_a_small_facet_is_left_out_with_a_note(name):
    # invariant 10: the facet of two records is not drawn and not named; the figure says that
    # groups were left out (not which), and so do the facets' reports
    from safeplot.plots._common import LEFT_OUT_FIGURE_GID, LEFT_OUT_NOTE

    g = LEFT_OUT[name](_tiny())
    assert list(g.col_names) == ["a", "b"]
    assert not any("tiny" in t for t in _texts(g.figure))
    notes = [t.get_text() for ax in g.axes.flat for t in ax.texts]
    assert notes.count(LEFT_OUT_NOTE) == 1
    assert [t for ax in g.axes.flat for t in ax.texts if t.get_gid() == LEFT_OUT_FIGURE_GID]
    for report in g.safeplot_reports:
        assert report.details["groups_left_out"] >= 1
        assert any("1 facet(s) with fewer than" in w for w in report.warnings)
        assert not any("tiny" in w for w in report.warnings)
    assert len(audit.entries()) >= 2


@pytest.mark.parametrize("name", list(LEFT_OUT))
def test_a_small_facet_named_in_col_order_keeps_an_empty_panel(name):
    # the caller named the level: its panel stays, drawn as seaborn draws a facet of no records
    g = LEFT_OUT[name](_tiny(), col_order=["tiny", "a", "b"])
    assert list(g.col_names) == ["tiny", "a", "b"]
    empty = g.axes.flat[0]
    assert _drawn(empty) == 0
    assert getattr(empty, "safeplot_report", None) is None
    assert all(_drawn(ax) > 0 for ax in g.axes.flat[1:])
    assert len(g.safeplot_reports) == 2


def test_a_small_facet_leaves_the_same_figure_as_the_data_without_it():
    # one marker per record: the 2 records of the tiny facet, and 1 more of the largest facet
    # (its last in row order), are left out, so that the markers missing against the figure
    # without col= are at least threshold=3 (ShownGroups.keep_records)
    df = _tiny()
    g = relplot(df, x="x", y="y", col="g", height=2)
    kept = df[df["g"] != "tiny"]
    largest = kept["g"].value_counts().sort_index().idxmax()
    kept = kept.drop(kept.index[kept["g"] == largest][-1:])
    h = relplot(kept, x="x", y="y", col="g", height=2)
    for ax, bx in zip(g.axes.flat, h.axes.flat, strict=True):
        np.testing.assert_array_equal(_offsets(ax), _offsets(bx))
        assert ax.get_xlim() == bx.get_xlim() and ax.get_ylim() == bx.get_ylim()


def test_a_small_combination_of_row_and_col_is_drawn_empty():
    # a facet (r2, c2) of two records: both its levels have other facets, so their panels
    # stay and the facet's own panel is drawn empty
    df = SHAPES["outliers"].copy()
    df["c"] = np.where(np.arange(len(df)) % 3 == 0, "c1", "c2")
    df.loc[df["g"] == "b", "c"] = "c1"
    df.loc[df.index[df["g"] == "b"][:2], "c"] = "c2"
    g = relplot(df, x="x", y="y", row="g", col="c", height=2)
    assert g.axes.shape == (2, 2)
    assert [_drawn(ax) > 0 for ax in g.axes.flat] == [True, True, True, False]
    assert g.safeplot_reports[0].details["groups_left_out"] == 1


@pytest.mark.parametrize(
    "call",
    [
        lambda df: displot(df, x="x", col="g"),
        lambda df: displot(df, x="x", col="g", kind="ecdf"),
        lambda df: catplot(df, x="h", col="g", kind="count"),
        lambda df: catplot(df, x="h", y="x", col="g", kind="bar", estimator="sum"),
        lambda df: relplot(df, x="x", y="y", col="g", method="suppress"),
        lambda df: lmplot(df, x="x", y="y", col="g", method="generalize"),
    ],
    ids=["hist", "ecdf", "count", "bar-sum", "relplot-suppress", "lmplot-generalize"],
)
def test_a_small_facet_of_counts_is_refused_before_anything_is_drawn(call):
    # counts of the facets shown add up with the left-out facet's to the figure without col=,
    # and facets are not linked by the release ledger: a count release is refused instead
    _refused(lambda: call(_tiny()), r"g = tiny.*without row=/col=.*[Mm]erge")


def test_every_facet_too_small_is_refused():
    df = SHAPES["outliers"].iloc[:4].assign(g=["a", "a", "b", "b"])
    _refused(lambda: relplot(df, x="x", y="y", col="g"), "every facet has fewer than")


def test_a_facet_smaller_than_2k_is_left_out_under_deterministic():
    df = SHAPES["outliers"].copy()
    df.loc[:7, "g"] = "small"  # 8 records: enough for threshold=3, not for k=5
    g = relplot(df, x="x", y="y", col="g", k=5)
    assert "small" not in list(g.col_names)
    assert any("2*k=10" in w for w in g.safeplot_reports[0].warnings)


def test_a_small_hue_level_within_a_facet_is_refused_under_a_value_method():
    df = SHAPES["outliers"].copy()
    df["h"] = "p"
    df.loc[0, "h"] = "q"  # one record of q, in facet a
    _refused(lambda: displot(df, x="x", col="g", hue="h", method="rounding"), "hue level")


def _small_hue() -> pd.DataFrame:
    """Facets a and b; hue level "tiny" of 2 records, both in facet a (rows 0 and 2)."""
    df = SHAPES["outliers"].copy()
    df.loc[[0, 2], "h"] = "tiny"
    assert set(df.loc[df["h"] == "tiny", "g"]) == {"a"}
    return df


#: The facet-level calls with a hue within each facet, by the axes-level function they draw.
HUE_FACETS = {
    "hist": lambda df, **kw: displot(df, x="x", col="g", hue="h", height=2, **kw),
    "ecdf": lambda df, **kw: displot(df, x="x", col="g", hue="h", kind="ecdf", height=2, **kw),
    "kde": lambda df, **kw: displot(df, x="x", col="g", hue="h", kind="kde", height=2, **kw),
    "scatter": lambda df, **kw: relplot(df, x="x", y="y", col="g", hue="h", height=2, **kw),
}

#: Where the axes-level function leaves a small hue level out (histplot, ecdfplot: the
#: counting methods, whose hidden counts the ledger links; kdeplot and scatterplot: methods
#: that group records within each level, O'Keefe's boxes and the grid cells of a scatter)
HUE_LEFT_OUT = [
    ("hist", "suppress"),
    ("hist", "generalize"),
    ("ecdf", "suppress"),
    ("kde", "deterministic"),
    ("kde", "microaggregation"),
    ("kde", "suppress"),
    ("scatter", "deterministic"),
    ("scatter", "microaggregation"),
    ("scatter", "confidential"),
    ("scatter", "suppress"),
    ("scatter", "generalize"),
]

#: Where it refuses the level, and the safe method the refusal names.
HUE_REFUSED = [
    ("hist", "deterministic", "suppress"),
    ("hist", "probabilistic", "suppress"),
    ("hist", "confidential", "suppress"),
    ("hist", "microaggregation", "suppress"),
    ("hist", "rounding", "suppress"),
    ("ecdf", "deterministic", "suppress"),
    ("ecdf", "probabilistic", "suppress"),
    ("kde", "probabilistic", "deterministic"),
    ("kde", "confidential", "deterministic"),
    ("kde", "rounding", "deterministic"),
    ("scatter", "probabilistic", "deterministic"),
    ("scatter", "rounding", "deterministic"),
]


@pytest.mark.parametrize(("kind", "method"), HUE_LEFT_OUT)
def test_a_small_hue_level_within_a_facet_is_left_out_as_the_axes_level_plot_does(kind, method):
    # invariant 10: the level of 2 records in facet a is not drawn and named nowhere (its
    # only facet leaves it out); the figure and every facet's report and audit entry say
    # that groups were left out, not which
    from safeplot.plots._common import LEFT_OUT_NOTE

    g = HUE_FACETS[kind](_small_hue(), method=method)
    assert not any("tiny" in t for t in _texts(g.figure))
    legend = sorted(t.get_text() for t in g._legend.texts)
    assert legend == ["p", "q"]
    notes = [t.get_text() for ax in g.axes.flat for t in ax.texts]
    assert notes.count(LEFT_OUT_NOTE) == 1
    assert len(g.safeplot_reports) == 2
    said = "hue level(s) with fewer than"
    for report in g.safeplot_reports:
        assert any(said in w and "in their facet" in w for w in report.warnings)
        assert report.details["groups_left_out"] >= 1
    entries = audit.entries()
    assert len(entries) >= 2
    for entry in entries:
        assert any(said in w for w in entry.report["warnings"])
        assert entry.report["details"]["groups_left_out"] >= 1
        assert entry.status == "review"
    if not (kind == "kde" and method == "suppress"):
        # (kdeplot's own warning under a counting method names a level of no density shown)
        assert not any("tiny" in w for r in g.safeplot_reports for w in r.warnings)
    assert all(_drawn(ax) > 0 for ax in g.axes.flat)


@pytest.mark.parametrize(("kind", "method", "instead"), HUE_REFUSED)
def test_a_small_hue_level_within_a_facet_is_refused_as_the_axes_level_plot_does(
    kind, method, instead
):
    _refused(
        lambda: HUE_FACETS[kind](_small_hue(), method=method),
        rf"1 hue level\(s\) within a facet.*cannot be left out.*method='{instead}'",
    )


@pytest.mark.parametrize(("kind", "method"), [("hist", "suppress"), ("scatter", "deterministic")])
def test_the_facets_follow_the_axes_level_plot_of_each_facet(kind, method):
    # the same decision as the axes-level function drawn on the facet's records
    df = _small_hue()
    facet = df[df["g"] == "a"]
    if kind == "hist":
        ax = histplot(facet, x="x", hue="h", method=method)
    else:
        ax = scatterplot(facet, x="x", y="y", hue="h", method=method)
    assert ax.safeplot_report.details["groups_left_out"] == 1
    g = HUE_FACETS[kind](df, method=method)
    assert g.safeplot_reports[0].details["groups_left_out"] >= 1


def test_a_small_hue_level_named_in_hue_order_keeps_its_legend_entry():
    # the caller named the level: it keeps its place in the legend, drawn empty
    g = HUE_FACETS["hist"](_small_hue(), method="suppress", hue_order=["p", "q", "tiny"])
    assert [t.get_text() for t in g._legend.texts] == ["p", "q", "tiny"]
    assert g.safeplot_reports[0].details["groups_left_out"] >= 1


def test_a_hue_level_small_in_one_facet_and_drawn_in_another_stays_in_the_legend():
    df = _small_hue()
    df.loc[df.index[df["g"] == "b"][:10], "h"] = "tiny"  # 10 records of it in facet b
    g = HUE_FACETS["scatter"](df, method="deterministic")
    assert sorted(t.get_text() for t in g._legend.texts) == ["p", "q", "tiny"]
    assert g.safeplot_reports[0].details["groups_left_out"] >= 1


def test_lmplot_leaves_a_small_hue_level_out_of_its_facet():
    # each hue level of a facet is its own regplot release: a small one is left out of its
    # facet, and a level left out everywhere is not named in the legend
    df = SHAPES["outliers"].copy()
    df.loc[0, "h"] = "rare"  # one record, in facet a
    g = lmplot(df, x="x", y="y", col="g", hue="h", height=2, n_boot=20, seed=0)
    assert sorted(t.get_text() for t in g._legend.texts) == ["p", "q"]
    assert not any("rare" in t for t in _texts(g.figure))
    assert any("hue level(s) with fewer than" in w for w in g.safeplot_reports[0].warnings)
    assert len(audit.entries()) == 4  # two facets x two hue levels


def test_a_facet_refused_half_way_leaves_nothing_logged():
    df = SHAPES["outliers"].assign(c=lambda d: np.where(d["y"] > 25, "hi", "lo"))
    rows_b = df.index[df["g"] == "b"]
    # facet b (drawn second) keeps 6 records, enough for a facet (2k), in three boxes of 2:
    # a small box is left out, but a facet of nothing but small boxes is refused
    df = df.drop(rows_b[6:])
    df.loc[rows_b[:6], "c"] = ["hi", "hi", "lo", "lo", "mid", "mid"]
    assert list(pd.unique(df["g"]))[-1] == "b"
    _refused(
        lambda: catplot(df, x="c", y="x", col="g", kind="box"),
        r"[23] group\(s\) have fewer than 3 records",
    )


def test_catplot_box_leaves_a_small_box_out_of_its_facet_with_a_note():
    # invariant 10: day='Fri', smoker='No' holds 1 lunch record; its box is not drawn, the
    # figure is (seaborn's docs call, run with only the import changed)
    from safeplot.plots._common import LEFT_OUT_NOTE
    from safeplot.plots.categorical import LEFT_OUT_GID, release_boxplot

    from .leakscan import run_seaborn_script, scan_script

    namespace = run_seaborn_script(
        "import seaborn as sns\n"
        "tips = sns.load_dataset('tips')\n"
        "g = sns.catplot(data=tips, x='day', y='total_bill', hue='smoker', col='time', "
        "kind='box')\n"
    )
    g, tips = namespace["g"], namespace["tips"]
    order = list(tips["day"].cat.categories)
    for ax, time in zip(g.axes.flat, g.col_names, strict=True):
        sub = tips[tips["time"] == time]
        rel = release_boxplot(sub, x="day", y="total_bill", hue="smoker", order=order)
        sizes = sub.groupby(["day", "smoker"], observed=True).size()
        small = {key for key, n in sizes.items() if 0 < n < 3}
        assert small, time  # each facet has a box of 1 record
        assert not small & set(rel.groups)
        assert set(rel.groups) == {key for key, n in sizes.items() if n >= 3}
        # one box per released group, and none in the slot of a group left out (seaborn
        # dodges two hue levels to -0.2 and +0.2 of the category)
        boxes = [p for p in ax.patches if type(p).__name__ == "PathPatch"]
        assert len(boxes) == len(rel.groups), time
        centres = [p.get_path().get_extents().intervalx.mean() for p in boxes]
        for (day, smoker), drawn in [(key, True) for key in rel.groups] + [
            (key, False) for key in small
        ]:
            slot = order.index(day) + (-0.2 if smoker == "Yes" else 0.2)
            assert np.isclose(centres, slot, atol=0.05).any() == drawn, (time, day, smoker)
        notes = [t.get_text() for t in ax.texts if t.get_gid() == LEFT_OUT_GID]
        assert notes == [LEFT_OUT_NOTE]
        report = ax.safeplot_report
        assert report.details["groups_left_out"] == len(small)
        assert any(f"{len(small)} group(s) with fewer than 3" in w for w in report.warnings)
        assert not any("Fri" in w or "Thur" in w for w in report.warnings)
    # both hue levels are drawn in some facet: the legend names both
    assert [t.get_text() for t in g.legend.texts] == ["Yes", "No"]
    findings = scan_script(namespace)
    assert not findings, str(findings)


@pytest.mark.parametrize("kind", ["strip", "swarm"])
def test_catplot_strip_and_swarm_release_each_facet_as_stripplot_does(kind):
    from safeplot.plots.strip import release_stripplot

    df = SHAPES["outliers"]
    g = catplot(df, x="g", y="x", col="g", kind=kind, height=2, size=2)
    assert [r.function for r in g.safeplot_reports] == [f"{kind}plot"] * 2
    for ax, level in zip(g.axes.flat, ["a", "b"], strict=True):
        drawn = np.sort(np.concatenate([c.get_offsets()[:, 1] for c in ax.collections]))
        alone = release_stripplot(df[df["g"] == level], x="g", y="x", order=["a", "b"])
        np.testing.assert_array_equal(drawn, np.sort(alone.values))
    per_axes = facet_axes_variables(g, df)
    assert not scan_figure(g.figure, {"y": df["x"].to_numpy()}, per_axes=per_axes)


def test_catplot_default_kind_is_a_released_strip_plot():
    g = catplot(SHAPES["outliers"], x="g", y="x", height=2)
    assert g.safeplot_reports[0].function == "stripplot"
    assert g.safeplot_reports[0].method == "deterministic"


def test_catplot_strip_refuses_methods_that_leave_values_raw():
    _refused(
        lambda: catplot(SHAPES["outliers"], x="g", y="x", kind="strip", method="suppress"),
        "not available for stripplots",
        ValueError,
    )


def test_displot_rug_draws_each_facets_released_rug():
    from safeplot.plots.rug import release_rugplot

    df = SHAPES["outliers"]
    g = displot(df, x="x", col="g", rug=True, rug_kws={"height": 0.1}, height=2)
    assert [r.method for r in g.safeplot_reports] == ["suppress"] * 2
    for ax, level in zip(g.axes.flat, ["a", "b"], strict=True):
        ticks = [c for c in ax.collections if c.__class__.__name__ == "LineCollection"]
        assert len(ticks) == 1
        drawn = np.sort([seg[0, 0] for seg in ticks[0].get_segments()])
        # the ticks are the facet's released values (kNN centroids), not its raw values
        alone = release_rugplot(df[df["g"] == level], x="x")
        np.testing.assert_array_equal(drawn, np.sort(alone.values["x"]))
        assert not np.isin(drawn, df["x"].to_numpy()).all()
    assert "rugplot" in {e.function for e in audit.entries()}
    per_axes = facet_axes_variables(g, df)
    assert not scan_figure(g.figure, {"x": df["x"].to_numpy()}, per_axes=per_axes)


def test_displot_rug_takes_a_value_method_and_refuses_others():
    df = SHAPES["outliers"]
    _refused(
        lambda: displot(df, x="x", rug=True, rug_kws={"method": "suppress"}),
        "not available for rug plots",
        ValueError,
    )
    g = displot(df, x="x", col="g", kind="kde", method="probabilistic", rug=True, height=2)
    assert "q" in g.safeplot_reports[0].params


def test_relplot_line_refuses_what_lineplot_refuses():
    df = SHAPES["outliers"]
    _refused(lambda: relplot(df, x="x", y="y", kind="line", units="g"), "units=", DisclosureError)
    _refused(
        lambda: relplot(df, x="x", y="y", kind="line", estimator=None),
        "estimator=None",
        DisclosureError,
    )


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"k": 2, "method": "deterministic"}, "k"),
        ({"threshold": 2}, "threshold"),
        ({"method": "none"}, "raw|none"),
    ],
)
def test_floors(kwargs, match):
    df = SHAPES["outliers"]
    for func, kws in (
        (displot, {"x": "x"}),
        (relplot, {"x": "x", "y": "y"}),
        (lmplot, {"x": "x", "y": "y"}),
        (catplot, {"x": "h", "y": "x", "kind": "box"}),
    ):
        _refused(lambda func=func, kws=kws: func(df, col="g", **kws, **kwargs), match)


# -- other kinds ---------------------------------------------------------------------------


def test_displot_ecdf_and_catplot_bar():
    df = SHAPES["outliers"]
    g = displot(df, x="x", col="g", kind="ecdf", height=2)
    assert len(g.safeplot_reports) == 2
    g = catplot(df, x="h", y="x", col="g", kind="bar", height=2)
    assert len(g.safeplot_reports) == 2
    per = _per_axes(g, df, axes=(None, "y"))
    per = {ax: {"y": v["y"]} for ax, v in per.items()}
    assert not scan_figure(g.figure, {}, per_axes=per, count_axis=None)


def test_catplot_count_and_bivariate_displot():
    df = SHAPES["ties"]
    g = catplot(df, x="h", col="g", kind="count", height=2)
    assert {r.method for r in g.safeplot_reports} == {"suppress"}
    g = displot(df, x="x", y="y", col="g", height=2)
    assert len(g.safeplot_reports) == 2


# -- signatures ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [(displot, sns.displot), (relplot, sns.relplot), (catplot, sns.catplot), (lmplot, sns.lmplot)],
)
def test_signature_matches_seaborn(ours, theirs):
    mine = inspect.signature(ours).parameters
    orig = inspect.signature(theirs).parameters
    names = [n for n in orig if orig[n].kind is not inspect.Parameter.VAR_KEYWORD]
    assert list(mine)[: len(names)] == names
    for n in names:
        if n != "ci":
            assert mine[n].default == orig[n].default, n
        assert mine[n].kind == orig[n].kind, n
    extra = [
        n for n in list(mine)[len(names) :] if mine[n].kind is not inspect.Parameter.VAR_KEYWORD
    ]
    assert "method" in extra and "annotate" in extra
    assert all(mine[n].kind is inspect.Parameter.KEYWORD_ONLY for n in extra)


@pytest.mark.parametrize("method", ["suppress", "generalize", "confidential"])
@pytest.mark.parametrize("shape", list(SHAPES))
def test_catplot_count_axis_shows_no_rare_category(method, shape):
    """Categories held by fewer than threshold records get no label on the shared axis."""
    df = SHAPES[shape]
    entry = expected(FACET_REFUSALS, "catplot-count", method, shape)
    try:
        g = catplot(df, x="x", col="g", kind="count", method=method, height=2)
    except (ValueError, TypeError) as err:  # DisclosureError included
        check(entry, err, f"catplot-count|{method}|{shape}")
        assert audit.entries() == []
        return
    check(entry, None, f"catplot-count|{method}|{shape}")
    assert not scan_figure(g.figure, {"x": df["x"].to_numpy()}, count_axis="y")


# -- shared axes from the releases -------------------------------------------------------------


@pytest.mark.parametrize("name", list(DRAW))
def test_shared_axes_are_agreed_from_the_releases(monkeypatch, name):
    """No record is read once a facet is released, and no limit is read back from matplotlib.

    The rare values every shared axis avoids are found before the first facet
    is drawn; the shared limits come from the limits each facet's release set.
    Each facet's own plot function may do as it likes inside its call.
    """
    from matplotlib.axes import Axes

    from safeplot.plots import facets

    state = {"inside": False, "drawn": 0}
    call, rare = facets._call, facets.rare_values

    def spy_call(func, **kws):
        state["inside"] = True
        try:
            return call(func, **kws)
        finally:
            state["inside"] = False
            state["drawn"] += 1

    def spy_rare(values, threshold):
        assert state["drawn"] == 0, "records read after a facet was released"
        return rare(values, threshold)

    def guard(real):
        def read(self, *args, **kwargs):
            assert state["inside"] or not state["drawn"], "limits read back from matplotlib"
            return real(self, *args, **kwargs)

        return read

    monkeypatch.setattr(facets, "_call", spy_call)
    monkeypatch.setattr(facets, "rare_values", spy_rare)
    for getter in ("get_xlim", "get_ylim"):
        monkeypatch.setattr(Axes, getter, guard(getattr(Axes, getter)))
    df = SHAPES["outliers"]
    g = DRAW[name](df, "probabilistic")
    assert state["drawn"] >= 2
    monkeypatch.undo()
    found = _scan(name, g, df)
    assert not found, str(found)


def test_a_small_hue_level_leaves_the_legends_kept_on_the_facets():
    # with a numeric size each facet keeps its own legend: the level left out of every facet
    # holding it leaves those legends too, and the other entries stay
    df = _small_hue()
    df["s"] = np.round(df["y"].abs(), 1)
    g = relplot(df, x="x", y="y", col="g", hue="h", size="s", height=2, method="deterministic")
    assert not any("tiny" in t for t in _texts(g.figure))
    for ax in g.axes.flat:
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert {"p", "q"} <= set(labels)
        assert len(labels) > 2  # the size entries stay


@pytest.mark.parametrize("kind", ["box", "violin", "boxen", "bar", "point"])
@pytest.mark.parametrize("method", ["suppress", "deterministic", "probabilistic", "confidential"])
def test_catplot_does_not_name_a_level_too_small_in_every_facet(kind, method, _quiet):
    # a category and a hue level of 2 records each: no facet draws a group of them, so no
    # tick label, legend entry or title names them; the note and reports say groups were
    # left out; named by the caller, a level keeps its place (drawn empty)
    from safeplot.release.guard import LEFT_OUT_NOTE

    rng = np.random.default_rng(4)
    n = 300
    df = pd.DataFrame(
        {
            "y": np.round(rng.normal(5, 1, n), 2),
            "c": rng.choice(["c1", "c2"], n),
            "g": rng.choice(["a", "b"], n),
            "f": rng.choice(["u", "v"], n),
        }
    )
    df.loc[[0, 1], "g"] = "tiny"
    df.loc[[2, 3], "c"] = "ctiny"
    g = catplot(df, x="c", y="y", hue="g", col="f", kind=kind, method=method)
    texts = [t.get_text() for t in g.figure.findobj(plt.Text)]
    assert "tiny" not in texts and "ctiny" not in texts
    assert {"a", "b", "c1", "c2"} <= set(texts)
    assert LEFT_OUT_NOTE in texts
    assert all(r.details.get("groups_left_out") for r in g.safeplot_reports)
    plt.close(g.figure)
    g = catplot(
        df, x="c", y="y", hue="g", col="f", kind=kind, method=method,
        order=["c1", "c2", "ctiny"], hue_order=["a", "b", "tiny"],
    )  # fmt: skip
    texts = [t.get_text() for t in g.figure.findobj(plt.Text)]
    # every kind keeps a named category in its place, drawn empty; bar and point plots
    # keep a named hue level in the legend too, as seaborn does
    assert "ctiny" in texts
    assert ("tiny" in texts) or kind not in ("bar", "point")
    plt.close(g.figure)


@pytest.mark.parametrize("plot", ["relplot", "lmplot"])
def test_grid_methods_give_every_facet_one_grid_chosen_by_n(plot):
    """Under suppress every facet (and lmplot's every hue level) is a grid of counts: one
    size for all, from the records of a typical facet and level, as the heat map chooses
    it; a bins= given is kept."""
    from safeplot.plots.grid import default_grid_bins

    tips = safeplot.load_dataset("tips")
    kws = {"data": tips, "x": "total_bill", "y": "tip", "col": "time", "method": "suppress"}
    if plot == "lmplot":
        kws.update(hue="sex", fit_reg=False)
    g = getattr(safeplot, plot)(**kws)
    sizes = {r.params["bins"] for r in g.safeplot_reports}
    by = ["time", "sex"] if plot == "lmplot" else ["time"]
    typical = round(len(tips) / tips.groupby(by, observed=True).ngroups)
    assert sizes == {default_grid_bins(typical, "suppress")}
    plt.close(g.figure)
    g = getattr(safeplot, plot)(**kws, bins=8)
    assert {r.params["bins"] for r in g.safeplot_reports} == {8}
    plt.close(g.figure)


@pytest.mark.parametrize("kind", ["hist", "ecdf"])
def test_a_level_missing_from_a_facet_keeps_its_colour(kind):
    # Torgersen has only Adelie penguins, Biscoe Adelie and Gentoo, Dream Adelie and
    # Chinstrap: each species is drawn in its own colour of the palette in every facet
    penguins = safeplot.load_dataset("penguins")
    order = ["Adelie", "Chinstrap", "Gentoo"]
    g = displot(penguins, x="flipper_length_mm", col="island", hue="species", kind=kind, height=2)
    colours = {to_rgb(f"C{i}") for i in range(3)}
    for ax in g.axes.flat:
        island = ax.get_title().split("= ")[-1]
        present = set(penguins.loc[penguins["island"] == island, "species"].dropna())
        artists = ax.lines if kind == "ecdf" else [p for p in ax.patches if p.get_height() > 0]
        drawn = {to_rgb(a.get_color() if kind == "ecdf" else a.get_facecolor()) for a in artists}
        assert drawn <= colours
        assert drawn == {to_rgb(f"C{order.index(s)}") for s in present}, island
    plt.close("all")


@pytest.mark.parametrize("method", ["suppress", "generalize"])
def test_facets_of_one_grid_report_their_own_dropped_rows(method):
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {"x": rng.normal(size=200), "y": rng.normal(size=200), "f": ["u"] * 100 + ["v"] * 100}
    )
    df.loc[:9, "x"] = np.nan  # ten rows of facet u
    g = safeplot.displot(df, x="x", y="y", col="f", bins=4, method=method, height=2)
    dropped = {ax.get_title(): ax.safeplot_report.n_dropped for ax in g.axes.flat}
    assert dropped == {"f = u": 10, "f = v": 0}
    warned = ["dropped" in " ".join(ax.safeplot_report.warnings) for ax in g.axes.flat]
    assert warned == [True, False]


def test_a_facet_without_complete_records_is_a_clear_error():
    df = pd.DataFrame({"x": np.arange(60.0), "y": np.arange(60.0), "f": ["u"] * 30 + ["v"] * 30})
    df.loc[df.f == "v", "x"] = np.nan
    for call in (
        lambda: safeplot.displot(df, x="x", y="y", col="f", bins=3, height=2),
        lambda: safeplot.relplot(df, x="x", y="y", col="f", method="suppress", height=2),
    ):
        with pytest.raises(ValueError, match=r"facet .*'v'.* has no record with both"):
            call()
