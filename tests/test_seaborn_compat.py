"""``import safeplot as sns``: seaborn's whole namespace resolves, nothing raw passes through."""

from __future__ import annotations

import inspect

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
import seaborn

import safeplot
from safeplot import audit
from safeplot.errors import UnsafePlotError
from safeplot.integrations import seaborn_compat
from safeplot.integrations.seaborn_compat import NAMESPACE, REFUSED, SAFE, is_safe_function

from .leakscan import scan_figure

PLOTTING_MODULES = (
    "distributions",
    "relational",
    "categorical",
    "regression",
    "matrix",
    "axisgrid",
)

# seaborn themes set by a script are global: each test starts from and leaves the defaults
pytestmark = pytest.mark.usefixtures("restore_theme")


def _seaborn_public() -> set[str]:
    return {n for n in dir(seaborn) if not n.startswith("_")}


def _seaborn_plotting_functions() -> dict[str, object]:
    """Every public function of seaborn's plotting modules that draws (not classes/helpers)."""
    found = {}
    for mod_name in PLOTTING_MODULES:
        mod = getattr(seaborn, mod_name)
        for name, obj in vars(mod).items():
            if name.startswith("_") or not inspect.isfunction(obj):
                continue
            if obj.__module__ != mod.__name__ or name not in _seaborn_public():
                continue
            found[name] = obj
    found["distplot"] = seaborn.distplot
    return found


def test_namespace_is_exactly_seaborns_public_names():
    assert set(NAMESPACE) == _seaborn_public()


@pytest.mark.parametrize("name", sorted(_seaborn_public()))
def test_every_seaborn_name_resolves(name):
    obj = getattr(safeplot, name)
    assert obj is not None
    assert name in dir(safeplot)
    kind = NAMESPACE[name]
    if kind == "pass":
        assert obj is getattr(seaborn, name)
    elif kind == "grid":
        assert issubclass(obj, getattr(seaborn, name)) and obj is not getattr(seaborn, name)
    elif kind in ("safe", "refused"):
        assert callable(obj) and obj is not getattr(seaborn, name)


def test_safe_names_are_safeplots_functions():
    for name in SAFE:
        obj = getattr(safeplot, name)
        assert is_safe_function(obj) or obj.__module__ == "safeplot.datasets", name
        assert not getattr(obj, "_safeplot_refused", False), name


def test_no_seaborn_plotting_function_passes_through():
    functions = _seaborn_plotting_functions()
    assert {"histplot", "stripplot", "lineplot", "pairplot", "clustermap", "lmplot"} <= set(
        functions
    )
    for name, obj in functions.items():
        mine = getattr(safeplot, name)
        assert mine is not obj, name
        assert NAMESPACE[name] in ("safe", "refused"), name
        # and through the module views too
        for mod_name in PLOTTING_MODULES:
            if name in vars(getattr(seaborn, mod_name)):
                assert getattr(getattr(safeplot, mod_name), name) is not obj


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_functions_name_the_alternative(name):
    before = plt.get_fignums()
    n_log = len(audit.entries())
    with pytest.raises(UnsafePlotError, match="safeplot\\.") as info:
        getattr(safeplot, name)(data=pd.DataFrame({"x": [1.0, 2.0]}), x="x")
    assert f"seaborn.{name}" in str(info.value)
    assert plt.get_fignums() == before
    assert len(audit.entries()) == n_log
    # seaborn's signature is kept, so help() and tab completion look the same
    assert inspect.signature(getattr(safeplot, name)) == inspect.signature(getattr(seaborn, name))


def test_specific_alternatives():
    cases = {
        "distplot": "histplot",
    }
    for name, alternative in cases.items():
        with pytest.raises(UnsafePlotError, match=alternative):
            getattr(safeplot, name)()


def test_unknown_name_is_attribute_error():
    with pytest.raises(AttributeError):
        safeplot.no_such_function  # noqa: B018
    assert not hasattr(safeplot, "no_such_function")
    with pytest.raises(AttributeError, match="only seaborn's public plotting names"):
        safeplot.categorical.Beeswarm  # noqa: B018


def test_module_views_and_passed_modules():
    assert safeplot.distributions.histplot is safeplot.histplot
    assert safeplot.palettes is seaborn.palettes
    assert safeplot.mpl is seaborn.mpl
    assert "histplot" in dir(safeplot.distributions)
    assert safeplot.categorical.violinplot is safeplot.violinplot
    assert safeplot.categorical.boxenplot is safeplot.boxenplot
    with pytest.raises(UnsafePlotError):
        safeplot.distributions.distplot()


def test_load_dataset_is_offline_and_bundled():
    assert safeplot.load_dataset is safeplot.datasets.load_dataset
    assert {"penguins", "tips", "titanic"} <= set(safeplot.get_dataset_names())


def test_status_and_unknown_status():
    assert seaborn_compat.status("barplot") == "safe"
    with pytest.raises(KeyError):
        seaborn_compat.status("nothing")


# -- grids ---------------------------------------------------------------------------------


@pytest.fixture
def penguins():
    return safeplot.load_dataset("penguins")


def test_facetgrid_maps_safe_functions_per_facet(penguins):
    g = safeplot.FacetGrid(penguins, col="species")
    assert isinstance(g, seaborn.FacetGrid)
    g.map(safeplot.histplot, "flipper_length_mm")
    per_axes = {}
    for ax, (_, sub) in zip(g.axes.flat, penguins.groupby("species"), strict=True):
        assert ax.safeplot_report.method == "suppress"
        per_axes[ax] = {"x": sub["flipper_length_mm"].dropna().to_numpy()}
    assert len(per_axes) == 3
    raw = penguins["flipper_length_mm"].dropna().to_numpy()
    assert not scan_figure(g.figure, {"x": raw}, per_axes=per_axes)
    # the shared x axis covers every facet's bars
    lo, hi = g.axes.flat[0].get_xlim()
    for ax in g.axes.flat:
        for p in ax.patches:
            assert lo <= p.get_x() and p.get_x() + p.get_width() <= hi
    entries = [e for e in audit.entries() if e.function == "histplot"]
    assert len(entries) == 3


def test_facetgrid_map_dataframe_and_hue(penguins):
    g = safeplot.FacetGrid(penguins, col="island", hue="sex")
    g.map(safeplot.scatterplot, "bill_length_mm", "body_mass_g")
    g.map_dataframe(safeplot.boxplot, x="sex", y="body_mass_g", method="confidential")
    for ax in g.axes.flat:
        assert ax.safeplot_report is not None
    # lines that draw no data are fine
    g.map(plt.axhline, y=4000)


@pytest.mark.parametrize(
    ("make", "call"),
    [
        (
            lambda df: safeplot.FacetGrid(df, col="species"),
            lambda g: g.map(plt.scatter, "bill_length_mm", "body_mass_g"),
        ),
        (
            lambda df: safeplot.FacetGrid(df, col="species"),
            lambda g: g.map_dataframe(seaborn.scatterplot, x="bill_length_mm", y="body_mass_g"),
        ),
        (
            lambda df: safeplot.PairGrid(df[["bill_length_mm", "body_mass_g"]]),
            lambda g: g.map_offdiag(plt.scatter),
        ),
        (
            lambda df: safeplot.PairGrid(df[["bill_length_mm", "body_mass_g"]]),
            lambda g: g.map_diag(plt.hist),
        ),
        (
            lambda df: safeplot.JointGrid(df, x="bill_length_mm", y="body_mass_g"),
            lambda g: g.plot_joint(seaborn.scatterplot),
        ),
        (
            lambda df: safeplot.JointGrid(df, x="bill_length_mm", y="body_mass_g"),
            lambda g: g.plot(safeplot.scatterplot, seaborn.rugplot),
        ),
    ],
)
def test_grids_refuse_raw_functions(penguins, make, call):
    g = make(penguins)
    with pytest.raises(UnsafePlotError, match="safeplot"):
        call(g)
    for ax in g.figure.axes:
        assert not ax.collections and not ax.patches and not ax.lines


def test_grids_refuse_refused_functions(penguins):
    g = safeplot.FacetGrid(penguins, col="species")
    with pytest.raises(UnsafePlotError, match="distplot"):
        g.map(safeplot.distplot, "body_mass_g")


def test_pairgrid_and_jointgrid_with_safe_functions(penguins):
    cols = ["bill_length_mm", "body_mass_g"]
    g = safeplot.PairGrid(penguins[cols])
    assert isinstance(g, seaborn.PairGrid)
    g.map_offdiag(safeplot.scatterplot, method="deterministic")
    g.map_diag(safeplot.histplot)
    clean = penguins[cols].dropna()
    per_axes = {}
    for i, yv in enumerate(cols):
        for j, xv in enumerate(cols):
            ax = g.axes[i, j]
            per_axes[ax] = {"x": clean[xv].to_numpy(), "y": clean[yv].to_numpy()}
            if i == j:  # the histogram is on seaborn's twin axes of the diagonal
                diag = g.diag_axes[i]
                assert diag.safeplot_report.method == "suppress"
                per_axes[diag] = {"x": clean[xv].to_numpy()}
            else:
                assert ax.safeplot_report.method == "deterministic"
    assert not scan_figure(g.figure, {}, count_axis=None, per_axes=per_axes)
    j = safeplot.JointGrid(penguins, x="bill_length_mm", y="body_mass_g")
    assert isinstance(j, seaborn.JointGrid)
    j.plot(safeplot.scatterplot, safeplot.histplot)
    assert j.ax_joint.safeplot_report.method == "deterministic"
    assert j.ax_marg_x.safeplot_report.method == "suppress"


def test_figure_level_functions_resolve():
    for name in ("displot", "relplot", "catplot", "lmplot", "pairplot", "jointplot"):
        func = getattr(safeplot, name)
        assert callable(func) and func is not getattr(seaborn, name)


def test_pass_through_helpers_work():
    safeplot.set_theme(style="whitegrid")
    pal = safeplot.color_palette("husl", 3)
    assert len(pal) == 3
    fig, ax = plt.subplots()
    safeplot.despine(ax=ax)
    assert np.isfinite(safeplot.xkcd_rgb and 1)


def test_clustermap_draws_only_released_matrices():
    from safeplot.plots.cluster import clustermap
    from safeplot.plots.matrix import crosstab

    tips = safeplot.load_dataset("tips")
    grid = clustermap(crosstab(tips, "day", "sex"), figsize=(4, 4))
    assert grid.ax_heatmap.safeplot_report.method == "suppress"
    assert not scan_figure(grid.figure, {}, count_axis=None, counts_in_colour=True)
    before = plt.get_fignums()
    with pytest.raises(safeplot.DisclosureError, match="did not release"):
        clustermap(tips[["total_bill", "tip"]])
    with pytest.raises(ValueError, match="suppressed"):
        clustermap(crosstab(tips, "day", "size"))
    with pytest.raises(ValueError, match="pivot_kws"):
        clustermap(crosstab(tips, "day", "sex"), pivot_kws={"index": "day"})
    assert plt.get_fignums() == before
