"""Every kind of release goes through strict JSON and back unchanged, and draws the same figure.

Each case builds a real release on small seeded data, writes it with
``to_dict``, passes it through ``json.dumps(..., allow_nan=False)`` and
``json.loads``, and reads it back with ``from_dict``. The release read back
must equal the original field by field (dtypes, shapes, NaN where NaN) and,
drawn on a fresh figure by the same drawer, give the same artists: the same
offsets, path vertices, line data, patch extents, colours, texts and tick
labels.

The ECDF, correspondence-analysis, biplot, hexbin and pandas bar releases
have no drawer of their own (their plot functions draw them inline); their
figures are compared by running the plot function once as it is and once
with its release function returning the release read back.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from collections.abc import Callable
from typing import Any
from unittest import mock

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.artist import Artist
from matplotlib.axis import Axis
from matplotlib.collections import Collection
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text

import safeplot
from safeplot.datasets import simulate
from safeplot.integrations import pandas_backend
from safeplot.marks.lines import draw_estimate_lines
from safeplot.plots import (
    axisgrid,
    bar,
    boxen,
    categorical,
    confidential,
    ecdf,
    okeefe,
    point,
    relational,
    rug,
    strip,
    violin,
)
from safeplot.plots.distributions import draw_histogram, release_histogram
from safeplot.plots.grid import release_grid
from safeplot.plots.kde import draw_kde, release_kde
from safeplot.plots.line import release_lineplot
from safeplot.plots.okeefe import draw_pp, release_pp
from safeplot.plots.regression import draw_qq, release_qq
from safeplot.plots.relational import draw_scatter, release_scatter
from safeplot.release import (
    DisclosureReport,
    HistogramRelease,
    _serial,
    from_dict,
    from_json,
    release_kind,
    to_dict,
    to_json,
)

TIPS = safeplot.load_dataset("tips")
PENGUINS = safeplot.load_dataset("penguins").dropna().reset_index(drop=True)
D1 = simulate("D1", n=300, seed=7)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# -- the round trip and the comparisons ---------------------------------------------------


def roundtrip(release: Any) -> Any:
    """Write `release` as strict JSON text and read it back."""
    return from_dict(json.loads(json.dumps(to_dict(release), allow_nan=False)))


def assert_same(a: Any, b: Any, where: str = "release") -> None:
    """Assert that `a` and `b` are equal, recursively, with types, dtypes and NaN positions."""
    assert type(a) is type(b), f"{where}: {type(a).__name__} != {type(b).__name__}"
    if dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name), f"{where}.{f.name}")
    elif isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(
            a, b, check_exact=True, check_index_type=True, check_column_type=True, obj=where
        )
        assert_same(dict(a.attrs), dict(b.attrs), f"{where}.attrs")
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b, check_exact=True, check_index_type=True, obj=where)
    elif isinstance(a, pd.Index):
        pd.testing.assert_index_equal(a, b, exact=True, obj=where)
    elif isinstance(a, pd.Categorical):
        pd.testing.assert_categorical_equal(a, b, obj=where)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype, f"{where}: dtype {a.dtype} != {b.dtype}"
        assert a.shape == b.shape, f"{where}: shape {a.shape} != {b.shape}"
        if a.dtype == object:
            for i, (u, v) in enumerate(zip(a.ravel(), b.ravel(), strict=True)):
                assert_same(u, v, f"{where}[{i}]")
        else:
            np.testing.assert_array_equal(a, b, err_msg=where, strict=True)
    elif isinstance(a, dict):
        assert list(a) == list(b), f"{where}: keys {list(a)} != {list(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), f"{where}: length {len(a)} != {len(b)}"
        for i, (u, v) in enumerate(zip(a, b, strict=True)):
            assert_same(u, v, f"{where}[{i}]")
    elif a is pd.NA or a is pd.NaT:
        assert b is a, f"{where}: {a!r} != {b!r}"
    elif isinstance(a, (float, np.floating)) and math.isnan(a):
        assert math.isnan(b), f"{where}: NaN != {b!r}"
    elif isinstance(a, np.generic):
        assert a.dtype == b.dtype and a == b, f"{where}: {a!r} != {b!r}"
    else:
        assert a == b, f"{where}: {a!r} != {b!r}"


def _colours(values: Any) -> np.ndarray:
    return np.asarray(mpl.colors.to_rgba_array(values), dtype=float)


def _artist(artist: Artist) -> dict[str, Any]:
    """The data an artist draws: positions, paths, colours, texts."""
    out: dict[str, Any] = {"type": type(artist).__name__, "visible": artist.get_visible()}
    out["alpha"], out["gid"], out["label"] = artist.get_alpha(), artist.get_gid(), None
    if isinstance(artist, Text):
        out |= {
            "text": artist.get_text(),
            "position": np.asarray(artist.get_position(), dtype=float),
            "color": _colours(artist.get_color()),
            "size": artist.get_fontsize(),
            "rotation": artist.get_rotation(),
        }
    elif isinstance(artist, Line2D):
        out |= {
            "xydata": np.asarray(artist.get_xydata(), dtype=float),
            "color": _colours(artist.get_color()),
            "linestyle": artist.get_linestyle(),
            "linewidth": artist.get_linewidth(),
            "marker": str(artist.get_marker()),
            "markersize": artist.get_markersize(),
            "label": artist.get_label(),
        }
    elif isinstance(artist, Collection):
        sizes = artist.get_sizes() if hasattr(artist, "get_sizes") else None
        array = artist.get_array()
        out |= {
            "offsets": np.asarray(artist.get_offsets(), dtype=float),
            "paths": [np.asarray(p.vertices, dtype=float) for p in artist.get_paths()],
            "facecolors": np.asarray(artist.get_facecolors(), dtype=float),
            "edgecolors": np.asarray(artist.get_edgecolors(), dtype=float),
            "linewidths": np.asarray(artist.get_linewidths(), dtype=float),
            "sizes": None if sizes is None else np.asarray(sizes, dtype=float),
            "array": None if array is None else np.ma.filled(np.asarray(array, float), np.nan),
            "label": artist.get_label(),
        }
    elif isinstance(artist, Patch):
        vertices = artist.get_patch_transform().transform(artist.get_path().vertices)
        out |= {
            "vertices": np.asarray(vertices, dtype=float),
            "facecolor": _colours(artist.get_facecolor()),
            "edgecolor": _colours(artist.get_edgecolor()),
            "linewidth": artist.get_linewidth(),
            "label": artist.get_label(),
        }
    elif isinstance(artist, AxesImage):
        out |= {"array": np.ma.filled(np.asarray(artist.get_array(), float), np.nan)}
    elif isinstance(artist, Axis):
        out |= {
            "scale": artist.get_scale(),
            "major": np.asarray(artist.get_majorticklocs(), dtype=float),
            "minor": np.asarray(artist.get_minorticklocs(), dtype=float),
            "labels": [t.get_text() for t in artist.get_majorticklabels()],
            "minor_labels": [t.get_text() for t in artist.get_minorticklabels()],
            "label": artist.get_label_text(),
        }
    elif isinstance(artist, plt.Axes):
        out |= {
            "xlim": np.asarray(artist.get_xlim(), dtype=float),
            "ylim": np.asarray(artist.get_ylim(), dtype=float),
            "title": artist.get_title(),
            "aspect": artist.get_aspect(),
        }
    return out


def drawing(fig: plt.Figure) -> list[dict[str, Any]]:
    """Every artist of `fig`, depth first, as :func:`_artist` describes it."""
    fig.canvas.draw()  # tick labels are set at draw time
    out = []

    def walk(artist: Artist) -> None:
        out.append(_artist(artist))
        for child in artist.get_children():
            walk(child)

    walk(fig)
    return out


def assert_same_drawing(a: plt.Figure, b: plt.Figure) -> None:
    da, db = drawing(a), drawing(b)
    assert [d["type"] for d in da] == [d["type"] for d in db], "different artists"
    for i, (u, v) in enumerate(zip(da, db, strict=True)):
        assert_same(u, v, f"artist {i} ({u['type']})")


def _draw_twice(draw: Callable[[Any, Any], Any], a: Any, b: Any) -> tuple[plt.Figure, ...]:
    figs = []
    for rel in (a, b):
        fig, ax = plt.subplots(figsize=(5, 4))
        draw(ax, rel)
        figs.append(fig)
    return tuple(figs)


# -- the cases ----------------------------------------------------------------------------

#: kind -> cases; a case returns (release, drawer or None, replay or None)
CASES: dict[str, list[tuple[str, Callable[[], tuple[Any, Any, Any]]]]] = {}


def case(kind: str, name: str):
    def register(build):
        CASES.setdefault(kind, []).append((name, build))
        return build

    return register


def _spy(module: Any, attr: str, run: Callable[[], Any]) -> tuple[tuple, dict]:
    """Run `run` with ``module.attr`` watched; return the arguments of its first call."""
    real, calls = getattr(module, attr), []

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, copy.deepcopy(kwargs)))
        return real(*args, **kwargs)

    with mock.patch.object(module, attr, spy):
        run()
    plt.close("all")
    assert calls, f"{module.__name__}.{attr} was not called"
    return calls[0]


def _private_drawer(module: Any, attr: str, run: Callable[[], Any]) -> tuple[Any, Callable]:
    """The release a plot function hands its drawer, and that drawer with the same options."""
    args, kwargs = _spy(module, attr, run)
    real = getattr(module, attr)

    def draw(ax: Any, rel: Any) -> None:
        real(ax, rel, *copy.deepcopy(args[2:]), **copy.deepcopy(kwargs))

    return args[1], draw


def _replay(module: Any, attr: str, plot: Callable[[plt.Axes], Any]) -> tuple[Any, Callable]:
    """The release a plot function makes, and a replay of the plot with a given release.

    For a release drawn inline by its plot function: the replay runs the plot
    function with ``module.attr`` (its release function) returning the given
    release instead of making one.
    """
    real = getattr(module, attr)
    made: list[Any] = []

    def keep(*args: Any, **kwargs: Any) -> Any:
        made.append(real(*args, **kwargs))
        return made[-1]

    with mock.patch.object(module, attr, keep):
        plot(plt.subplots()[1])
    plt.close("all")

    def replay(ax: Any, rel: Any) -> None:
        with mock.patch.object(module, attr, lambda *a, **k: rel):
            plot(ax)

    return made[0], replay


@case("histogram", "suppress")
def _():
    values = TIPS["total_bill"].to_numpy()
    rel = release_histogram(values, name="total_bill", method="suppress", bins=30)
    assert np.isnan(rel.counts).any()  # suppressed bins: NaN goes through the JSON
    return rel, lambda ax, r: draw_histogram(ax, r, color="C1", label="bill"), None


@case("histogram", "generalize")
def _():
    values = TIPS["tip"].to_numpy()
    return release_histogram(values, name="tip", method="generalize"), draw_histogram, None


@case("points", "deterministic")
def _():
    rel = release_scatter(
        D1["x"].to_numpy(), D1["y"].to_numpy(), names=("x", "y"), method="deterministic"
    )
    return rel, lambda ax, r: draw_scatter(ax, r, mark_coincident=True), None


@case("points", "cells")
def _():
    rel = release_scatter(D1["x"].to_numpy(), D1["y"].to_numpy(), method="suppress")
    assert rel.sizes is not None
    return rel, draw_scatter, None


@case("box_scatter", "confidential")
def _():
    rel = release_scatter(D1["x"].to_numpy(), D1["y"].to_numpy(), method="confidential")
    return rel, draw_scatter, None


@case("grid", "suppress")
def _():
    rel = release_grid(
        PENGUINS["bill_length_mm"],
        PENGUINS["flipper_length_mm"],
        hue=PENGUINS["species"],
        names=("bill_length_mm", "flipper_length_mm"),
        method="suppress",
    )
    palette = dict(zip(rel.levels, ["C0", "C1", "C2"], strict=True))
    return rel, lambda ax, r: axisgrid._draw_mesh(ax, r, rel.levels, palette, None, {}), None


@case("scatter", "hue")
def _():
    def run():
        relational.scatterplot(
            PENGUINS, x="bill_length_mm", y="body_mass_g", hue="species", method="probabilistic"
        )

    rel, draw = _private_drawer(relational, "draw_semantic", run)
    return rel, draw, None


@case("scatter", "cells")
def _():
    def run():
        relational.scatterplot(TIPS, x="total_bill", y="tip", hue="time", method="generalize")

    rel, draw = _private_drawer(relational, "draw_semantic", run)
    assert rel.cells
    return rel, draw, None


@case("ecdf", "hue")
def _():
    def plot(ax):
        ecdf.ecdfplot(TIPS, x="total_bill", hue="sex", method="suppress", ax=ax)

    rel, replay = _replay(ecdf, "release_ecdf", plot)
    return rel, None, replay


@case("survival", "hue-at-risk")
def _():
    from lifelines.datasets import load_rossi

    from safeplot.marks.survival import draw_survival
    from safeplot.plots.survival import release_survival

    rossi = load_rossi()
    # follow-up of the fin=0 group ends at week 30: its table is NaN past its curve
    short = (rossi.fin == 0) & (rossi.week > 30)
    rossi = rossi.assign(week=rossi.week.where(~short, 30), arrest=rossi.arrest.where(~short, 0))
    rel = release_survival(rossi, duration="week", event="arrest", hue="fin")
    assert np.isnan(rel.table[0]).any()  # a count past the curve: NaN through the JSON
    return rel, lambda ax, r: draw_survival(ax, r, at_risk_counts=True), None


@case("parallel_boxes", "confidential")
def _():
    def run():
        confidential.parallelboxplot(D1, x="x", y="y", trend=True)

    rel, draw = _private_drawer(confidential, "_draw_parallel", run)
    return rel, draw, None


@case("parallel_boxes", "ordinal")
def _():
    def run():
        confidential.parallelboxplot(TIPS, x="size", y="tip", discrete=True)

    rel, draw = _private_drawer(confidential, "_draw_parallel", run)
    assert rel.ticklabels is not None
    return rel, draw, None


@case("parallel_boxes", "raw")
def _():
    def run():
        with safeplot.policy(allow_raw=True):
            confidential.parallelboxplot(D1, x="x", y="y", method="none")

    rel, draw = _private_drawer(confidential, "_draw_parallel", run)
    assert rel.raw_stats  # matplotlib's bxp dictionaries go through the JSON too
    return rel, draw, None


@case("correspondence", "tips")
def _():
    def plot(ax):
        confidential.correspondenceplot(TIPS, vars=["day", "time", "smoker"], ax=ax)

    rel, replay = _replay(confidential, "release_correspondence", plot)
    return rel, None, replay


@case("qq", "points")
def _():
    return release_qq(TIPS["tip"], line="s", method="deterministic"), draw_qq, None


@case("qq", "curve")
def _():
    rel = release_qq(TIPS["tip"], line="45", method="confidential")
    return rel, lambda ax, r: draw_qq(ax, r, color="C2"), None


@case("kde", "hue")
def _():
    rel = release_kde(TIPS["total_bill"], hue=TIPS["sex"], method="deterministic")
    return rel, lambda ax, r: draw_kde(ax, r, fill=True), None


@case("kde", "grid")
def _():
    rel = release_kde(D1["x"], D1["y"], method="suppress")
    assert rel.grid is not None  # a GridRelease inside a KdeRelease
    return rel, draw_kde, None


@case("kde", "log")
def _():
    rel = release_kde(TIPS["tip"], method="probabilistic", log_scale=True)
    return rel, lambda ax, r: draw_kde(ax, r, log_scale=True), None


@case("box", "confidential")
def _():
    def run():
        categorical.boxplot(TIPS, x="day", y="tip", hue="sex", method="confidential")

    rel, draw = _private_drawer(categorical, "_draw_boxplot", run)
    assert rel.boxes is not None
    return rel, draw, None


@case("box", "values")
def _():
    def run():
        categorical.boxplot(TIPS, x="day", y="total_bill", method="deterministic")

    rel, draw = _private_drawer(categorical, "_draw_boxplot", run)
    assert rel.values is not None
    return rel, draw, None


@case("count", "hue")
def _():
    def run():
        categorical.countplot(TIPS, x="day", hue="smoker", method="suppress", threshold=20)

    rel, draw = _private_drawer(categorical, "_draw_counts", run)
    return rel, draw, None


@case("bar", "mean")
def _():
    def run():
        bar.barplot(TIPS, x="day", y="tip", hue="time", method="deterministic")

    rel, draw = _private_drawer(bar, "_draw_bars", run)
    return rel, draw, None


@case("bar", "point")
def _():
    def run():
        point.pointplot(TIPS, x="day", y="tip", hue="sex", errorbar=("pi", 50), dodge=True)

    rel, draw = _private_drawer(point, "draw_estimates", run)
    assert rel.report.function == "pointplot"
    return rel, draw, None


@case("strip", "hue-dodged")
def _():
    def run():
        strip.stripplot(TIPS, x="day", y="tip", hue="sex", dodge=True, jitter=False)

    rel, draw = _private_drawer(strip, "draw_categorical_points", run)
    return rel, draw, None


@case("strip", "swarm-horizontal")
def _():
    def run():
        strip.swarmplot(TIPS, x="total_bill", y="time", size=2, method="probabilistic")

    rel, draw = _private_drawer(strip, "draw_categorical_points", run)
    return rel, draw, None


@case("violin", "hue-box")
def _():
    def run():
        violin.violinplot(TIPS, x="day", y="tip", hue="sex", method="confidential")

    rel, draw = _private_drawer(violin, "draw_violins", run)
    assert rel.boxes is not None
    return rel, draw, None


@case("violin", "horizontal-stick")
def _():
    def run():
        violin.violinplot(TIPS, x="total_bill", y="time", inner="stick", density_norm="count")

    rel, draw = _private_drawer(violin, "draw_violins", run)
    assert rel.values is not None
    return rel, draw, None


@case("boxen", "hue-fliers")
def _():
    def run():
        boxen.boxenplot(TIPS, x="day", y="tip", hue="sex", k_depth="proportion")

    rel, draw = _private_drawer(boxen, "draw_boxens", run)
    assert any(f.size for f in rel.fliers)
    return rel, draw, None


@case("boxen", "horizontal-confidential")
def _():
    def run():
        boxen.boxenplot(TIPS, x="total_bill", y="time", method="confidential", fill=False)

    rel, draw = _private_drawer(boxen, "draw_boxens", run)
    return rel, draw, None


@case("rug", "xy-hue")
def _():
    def run():
        rug.rugplot(TIPS, x="total_bill", y="tip", hue="time", height=0.05)

    rel, draw = _private_drawer(rug, "draw_rug", run)
    return rel, draw, None


@case("line", "hue-style-binned")
def _():
    rel = release_lineplot(
        TIPS, x="total_bill", y="tip", hue="time", style="sex", errorbar=("se", 1)
    )
    assert rel.bin_width is not None and rel.notes  # binned x, points left out

    def draw(ax, r):
        draw_estimate_lines(ax, r, markers=True, err_style="bars", legend="auto")

    return rel, draw, None


@case("line", "wide-no-band")
def _():
    wide = pd.DataFrame(
        np.random.default_rng(3).normal(size=(60, 2)).cumsum(axis=0), columns=["a", "b"]
    )
    return release_lineplot(wide, errorbar=None), draw_estimate_lines, None


@case("pp", "confidential")
def _():
    return release_pp(TIPS["tip"], line="45"), draw_pp, None


@case("biplot", "hue")
def _():
    def plot(ax):
        okeefe.biplot(
            PENGUINS,
            vars=["bill_length_mm", "bill_depth_mm", "flipper_length_mm"],
            hue="species",
            ax=ax,
        )

    rel, replay = _replay(okeefe, "release_biplot", plot)
    return rel, None, replay


@case("hexbin", "suppress")
def _():
    def plot(ax):
        pandas_backend.plot(D1, kind="hexbin", x="x", y="y", gridsize=12, ax=ax)

    rel, replay = _replay(pandas_backend, "release_hexbin", plot)
    return rel, None, replay


@case("pandas_bar", "counts")
def _():
    counts = pd.crosstab(TIPS["day"], TIPS["time"])

    def plot(ax):
        pandas_backend.plot(counts, kind="bar", method="suppress", ax=ax)

    rel, replay = _replay(pandas_backend, "release_bar_counts", plot)
    return rel, None, replay


@case("remote_call", "histplot")
def _():
    from safeplot.remote._calls import run_call
    from safeplot.remote._draw import draw

    args = {"x": "total_bill", "hue": "time"}
    return run_call("histplot", TIPS, args), lambda ax, r: draw(r, args, ax=ax), None


@case("remote_call", "boxplot")
def _():
    from safeplot.remote._calls import run_call
    from safeplot.remote._draw import draw

    args = {"x": "day", "y": "tip", "method": "confidential"}
    return run_call("boxplot", TIPS, args), lambda ax, r: draw(r, args, ax=ax), None


ALL_CASES = [
    pytest.param(build, id=f"{kind}-{name}")
    for kind, cases in CASES.items()
    for name, build in cases
]


def test_every_release_kind_has_a_case():
    assert set(CASES) == set(_serial._RELEASES)


@pytest.mark.parametrize("build", ALL_CASES)
def test_release_survives_json(build):
    rel, draw, replay = build()
    text = json.dumps(to_dict(rel), allow_nan=False)
    back = from_dict(json.loads(text))
    assert_same(rel, back)
    assert_same(rel, from_json(to_json(rel)))
    assert_same(rel, type(rel).from_json(rel.to_json(indent=1)))
    assert_same(rel, type(rel).from_dict(rel.to_dict()))
    assert_same_drawing(*_draw_twice(draw or replay, rel, back))


# -- the comparisons can fail -------------------------------------------------------------


def test_a_changed_field_fails_both_comparisons():
    rel = release_histogram(TIPS["total_bill"].to_numpy(), name="total_bill", method="suppress")
    back = roundtrip(rel)
    shown = np.flatnonzero(np.isfinite(back.counts) & (back.counts > 0))[0]
    back.counts[shown] += 1
    with pytest.raises(AssertionError):
        assert_same(rel, back)
    with pytest.raises(AssertionError):
        assert_same_drawing(*_draw_twice(draw_histogram, rel, back))


def test_a_changed_dtype_or_a_lost_nan_fails():
    rel = release_histogram(TIPS["total_bill"].to_numpy(), method="suppress", bins=30)
    assert np.isnan(rel.counts).any()
    with pytest.raises(AssertionError):
        assert_same(rel, dataclasses.replace(rel, counts=rel.counts.astype(np.float32)))
    with pytest.raises(AssertionError):
        assert_same(rel, dataclasses.replace(rel, counts=np.nan_to_num(rel.counts)))
    with pytest.raises(AssertionError):
        assert_same(rel, dataclasses.replace(rel, xlim=list(rel.xlim)))


# -- the format ---------------------------------------------------------------------------


def _report() -> DisclosureReport:
    return DisclosureReport("histplot", "suppress", {"threshold": 10}, ("x",), n=100)


def test_values_json_has_no_type_for():
    frame = pd.DataFrame(
        {
            "f": [1.5, np.nan, np.inf],
            "i": np.array([1, 2, 3], dtype=np.int32),
            "c": pd.Categorical(["b", "a", "b"], categories=["b", "a"], ordered=True),
            "s": pd.array(["x", None, "z"], dtype="string"),
            "n": pd.array([1, None, 3], dtype="Int64"),
            "o": np.array(["p", 2, None], dtype=object),
            "t": pd.to_datetime(["2020-01-01", None, "2021-06-30"]),
        },
        index=pd.Index(["r1", "r2", "r2"], name="row"),
    )
    frame.attrs["safeplot"] = {"kind": "test"}
    values = {
        "frame": frame,
        "series": pd.Series([1.0, -np.inf], index=pd.MultiIndex.from_tuples([(1, "a"), (2, "b")])),
        "range": pd.RangeIndex(2, 10, 2, name="r"),
        "array": np.arange(12, dtype=np.uint16).reshape(3, 4),
        "floats": np.array([[np.nan, -np.inf], [0.1, -0.0]], dtype=np.float32),
        "complex": np.array([1 + 2j, np.nan]),
        "strings": np.array(["a", "bc"]),
        "empty": np.empty((0, 3)),
        "scalars": [np.float64(np.nan), np.int8(-3), np.bool_(True), np.str_("s"), math.inf],
        "nested": {1: ("a", None), (2, 3): frozenset({4}), "__safeplot__": {5}},
        "dtypes": [np.dtype("<f4"), pd.CategoricalDtype(["x", "y"]), pd.Int64Dtype()],
        "missing": [pd.NA, pd.NaT, pd.Timestamp("2020-01-02", tz="UTC"), pd.Timedelta(3, "s")],
    }
    rel = HistogramRelease(
        np.array([0.0, 1.0]), np.array([np.nan]), (0.0, 1.0), np.array([0.0]), _report(), values
    )
    back = roundtrip(rel)
    assert_same(rel, back)
    assert back.level["frame"].columns.tolist() == ["f", "i", "c", "s", "n", "o", "t"]


def test_duplicate_columns_and_an_empty_frame():
    frame = pd.DataFrame([[1, 2.0], [3, 4.0]], columns=["a", "a"])
    for value in (frame, frame.iloc[:0, :0], pd.DataFrame(index=pd.Index([3, 1]))):
        rel = HistogramRelease(np.zeros(2), np.zeros(1), (0.0, 1.0), np.zeros(1), _report(), value)
        assert_same(rel, roundtrip(rel))


def test_read_only_arrays_stay_read_only():
    edges = np.array([0.0, 1.0])
    edges.flags.writeable = False
    rel = HistogramRelease(edges, np.ones(1), (0.0, 1.0), np.zeros(1), _report())
    assert not roundtrip(rel).edges.flags.writeable


def test_the_json_is_strict_and_names_the_kind():
    rel = release_histogram(TIPS["tip"].to_numpy(), name="tip", method="suppress", bins=40)
    d = to_dict(rel)
    assert d["kind"] == "histogram" and d["format"] == 1
    text = json.dumps(d, allow_nan=False)
    assert "NaN" not in text and "Infinity" not in text
    assert "safeplot.release" not in text  # a registered name, not an import path


def test_refusals():
    rel = release_histogram(TIPS["total_bill"].to_numpy(), method="suppress", bins=30)
    d = to_dict(rel)
    assert '"nan"' in json.dumps(d)
    with pytest.raises(ValueError, match="Unknown release kind"):
        from_dict({**d, "kind": "os.system"})
    with pytest.raises(ValueError, match="not a release"):
        from_dict({**d, "kind": "DisclosureReport"})
    with pytest.raises(ValueError, match="format"):
        from_dict({**d, "format": 99})
    with pytest.raises(ValueError, match="no field"):
        from_dict({**d, "fields": {**d["fields"], "extra": 1}})
    with pytest.raises(ValueError, match="non-standard number"):
        from_json(json.dumps(d).replace('"nan"', "NaN"))
    with pytest.raises(ValueError, match="Unknown tag"):
        from_dict({**d, "fields": {**d["fields"], "level": {"__safeplot__": "pickle"}}})
    with pytest.raises(ValueError, match="shape"):
        bad = copy.deepcopy(d)
        bad["fields"]["edges"]["shape"] = [1000]
        from_dict(bad)
    with pytest.raises(TypeError, match="not a registered release"):
        to_dict(_report())
    with pytest.raises(TypeError, match="Cannot write"):
        to_dict(dataclasses.replace(rel, level=object()))
    with pytest.raises(TypeError, match="not a HistogramRelease"):
        HistogramRelease.from_dict(roundtrip_dict(release_qq(TIPS["tip"])))


def roundtrip_dict(release: Any) -> dict:
    return json.loads(json.dumps(to_dict(release), allow_nan=False))


def test_release_kind_names_are_unique():
    @dataclasses.dataclass
    class Other:
        x: int

    with pytest.raises(ValueError, match="already registered"):
        release_kind("histogram")(Other)
    with pytest.raises(TypeError, match="dataclass"):
        release_kind("not_a_dataclass")(int)


# -- the counts a box release carries leave rounded -----------------------------------------


def _box_counts(tree: Any, found: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """Every ``n`` and ``n_winsorized`` in a release's JSON dictionary."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key in ("n", "n_winsorized") and isinstance(value, (int, float)):
                found.append((key, value))
            else:
                _box_counts(value, found)
    elif isinstance(tree, list):
        for value in tree:
            _box_counts(value, found)
    return found


@pytest.mark.parametrize(
    "release",
    [
        lambda df: categorical.release_boxplot(df, x="g", y="x", method="confidential"),
        lambda df: categorical.release_boxplot(df, x="g", y="x", method="suppress"),
        lambda df: confidential.release_parallelboxes(
            df["x"].to_numpy(),
            df["y"].to_numpy(),
            pd.Categorical(df["g"]).codes.astype(int),
            ["a", "b", "c"],
        ),
        lambda df: relational.release_scatter(
            df["x"].to_numpy(), df["y"].to_numpy(), names=("x", "y"), method="confidential"
        ),
    ],
    ids=["boxplot-confidential", "boxplot-suppress", "parallelboxes", "scatter-confidential"],
)
def test_box_releases_carry_rounded_counts_and_a_winsorised_flag(release):
    """A box's exact record count and its number of winsorised values stay behind.

    The JSON of a release may leave the secure environment (a remote client
    draws it), so it holds the counts a report shows: records per box rounded
    to the policy's base, and whether values were winsorised, not how many.
    """
    rng = np.random.default_rng(11)
    n = 301
    df = pd.DataFrame(
        {
            "x": np.r_[rng.normal(50, 10, n - 1), 190.0],  # one far value: winsorised
            "y": rng.normal(0, 1, n),
            "g": rng.choice(["a", "b", "c"], n),
        }
    )
    counts = _box_counts(safeplot.release.to_dict(release(df)), [])
    assert any(key == "n" for key, _ in counts), counts
    base = safeplot.get_policy().round_n_to
    for key, value in counts:
        if key == "n":
            assert value % base == 0, counts
        else:
            assert value in (0, 1), counts
