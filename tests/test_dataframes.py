"""polars and pyarrow tables give exactly the releases of the same data in pandas."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot._validate import as_frame, to_pandas

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def penguins():
    return safeplot.load_dataset("penguins")


def frames(pandas_frame):
    return {
        "pandas": pandas_frame,
        "polars": pl.from_pandas(pandas_frame),
        "pyarrow": pa.Table.from_pandas(pandas_frame, preserve_index=False),
    }


def _array(value):
    return np.asarray(value, dtype=float).tolist()


def drawn(ax):
    """Everything an Axes shows, as plain values: artists' data, ticks, limits and texts."""
    out = {
        "xlim": ax.get_xlim(),
        "ylim": ax.get_ylim(),
        "xticks": _array(ax.get_xticks()),
        "yticks": _array(ax.get_yticks()),
        "xticklabels": [t.get_text() for t in ax.get_xticklabels()],
        "yticklabels": [t.get_text() for t in ax.get_yticklabels()],
        "labels": (ax.get_xlabel(), ax.get_ylabel()),
        "texts": [t.get_text() for t in ax.texts],
        "patches": [
            _array(p.get_patch_transform().transform(p.get_path().vertices)) for p in ax.patches
        ],
        "lines": [(_array(line.get_xdata()), _array(line.get_ydata())) for line in ax.lines],
        "collections": [
            (
                _array(np.ma.getdata(c.get_offsets())),
                [_array(path.vertices) for path in c.get_paths()],
                _array(c.get_sizes()),
                _array(c.get_facecolors()),
            )
            for c in ax.collections
        ],
    }
    legend = ax.get_legend()
    out["legend"] = [t.get_text() for t in legend.get_texts()] if legend else []
    return out


PLOTS = {
    "histplot": (safeplot.histplot, {"x": "body_mass_g", "hue": "species"}),
    "scatterplot": (
        safeplot.scatterplot,
        {"x": "bill_length_mm", "y": "body_mass_g", "hue": "sex"},
    ),
    "boxplot": (safeplot.boxplot, {"x": "species", "y": "body_mass_g"}),
    "kdeplot": (safeplot.kdeplot, {"x": "flipper_length_mm", "hue": "island"}),
    "countplot": (safeplot.countplot, {"x": "island", "hue": "sex"}),
}


@pytest.mark.parametrize("plot", list(PLOTS))
def test_polars_and_pyarrow_give_the_pandas_release(plot, penguins):
    func, kwargs = PLOTS[plot]
    results = {}
    for name, frame in frames(penguins).items():
        fig, ax = plt.subplots()
        func(data=frame, ax=ax, **kwargs)
        results[name] = (drawn(ax), ax.safeplot_report.to_dict())
        plt.close(fig)
    expected_drawing, expected_report = results["pandas"]
    assert (
        expected_drawing["patches"] or expected_drawing["collections"] or expected_drawing["lines"]
    )
    for name in ("polars", "pyarrow"):
        drawing, report = results[name]
        assert drawing == expected_drawing, name
        assert report == expected_report, name


def test_crosstab_of_polars_and_pyarrow_is_the_pandas_table():
    # plain text columns: polars' Categorical does not keep pandas' order of categories
    # (polars' Enum does: test_polars_categoricals_keep_their_order)
    tips = safeplot.load_dataset("tips").astype({"day": str, "size": int})
    tables = {
        name: safeplot.crosstab(frame, "day", "size", margins=True)
        for name, frame in frames(tips).items()
    }
    expected = tables["pandas"]
    assert np.isnan(expected.to_numpy()).any()  # something is suppressed: a real test
    for name in ("polars", "pyarrow"):
        pd.testing.assert_frame_equal(tables[name], expected)
        assert tables[name].attrs["safeplot"]["report"] == expected.attrs["safeplot"]["report"]
    # pandas' form with polars Series
    pl_frame = pl.from_pandas(tips)
    vectors = safeplot.crosstab(pl_frame["day"], pl_frame["size"], margins=True)
    pd.testing.assert_frame_equal(vectors, expected)


def test_polars_categoricals_keep_their_order(penguins):
    order = ["Gentoo", "Adelie", "Chinstrap"]
    frame = pl.from_pandas(penguins).with_columns(pl.col("species").cast(pl.Enum(order)))
    fig, ax = plt.subplots()
    safeplot.countplot(data=frame, x="species", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == order
    plt.close(fig)


def test_polars_series_as_variables(penguins):
    pl_frame = pl.from_pandas(penguins)
    fig, axes = plt.subplots(ncols=2)
    safeplot.histplot(x=pl_frame["body_mass_g"], ax=axes[0])
    safeplot.histplot(x=penguins["body_mass_g"], ax=axes[1])
    assert drawn(axes[0]) == drawn(axes[1])
    assert axes[0].get_xlabel() == "body_mass_g"
    plt.close(fig)


def test_summaries_and_models_read_polars(penguins):
    pl_frame = pl.from_pandas(penguins)
    pd.testing.assert_frame_equal(
        safeplot.corr(pl_frame, numeric_only=True), safeplot.corr(penguins, numeric_only=True)
    )
    pd.testing.assert_frame_equal(
        safeplot.describe(pl_frame).table, safeplot.describe(penguins).table
    )
    fit_pl = safeplot.safe_ols("body_mass_g ~ flipper_length_mm", data=pl_frame)
    fit_pd = safeplot.safe_ols("body_mass_g ~ flipper_length_mm", data=penguins)
    pd.testing.assert_frame_equal(fit_pl.summary_frame(), fit_pd.summary_frame())


def test_pairplot_reads_pyarrow(penguins):
    table = pa.Table.from_pandas(penguins, preserve_index=False)
    grid = safeplot.pairplot(table, vars=["bill_length_mm", "flipper_length_mm"])
    assert grid.axes.shape == (2, 2)
    plt.close(grid.figure)


def test_lazy_frames_are_refused_with_what_to_do(penguins):
    lazy = pl.from_pandas(penguins).lazy()
    for func, kwargs in [
        (safeplot.histplot, {"x": "body_mass_g"}),
        (safeplot.scatterplot, {"x": "bill_length_mm", "y": "body_mass_g"}),
        (safeplot.countplot, {"x": "island"}),
    ]:
        with pytest.raises(ValueError, match=r"lazy frame \(polars.LazyFrame\).*\.collect\(\)"):
            func(data=lazy, **kwargs)
    with pytest.raises(ValueError, match="lazy frame"):
        safeplot.describe(lazy)
    with pytest.raises(ValueError, match="lazy frame"):
        safeplot.crosstab(lazy, "species", "island")


class InterchangeOnly:
    """A table that offers only the dataframe interchange protocol."""

    def __init__(self, table):
        self._table = table

    def __dataframe__(self, nan_as_null=False, allow_copy=True):
        return self._table.__dataframe__(nan_as_null, allow_copy)


class ArrowStreamOnly:
    """A table that offers only the Arrow PyCapsule stream interface."""

    def __init__(self, table):
        self._table = table

    def __arrow_c_stream__(self, requested_schema=None):
        return self._table.__arrow_c_stream__(requested_schema)


@pytest.mark.parametrize("wrapper", [InterchangeOnly, ArrowStreamOnly])
def test_protocol_only_tables_are_read(wrapper, penguins):
    table = pa.Table.from_pandas(penguins, preserve_index=False)
    frame = to_pandas(wrapper(table), function="histplot")
    pd.testing.assert_frame_equal(frame, table.to_pandas())
    fig, axes = plt.subplots(ncols=2)
    safeplot.histplot(data=wrapper(table), x="body_mass_g", ax=axes[0])
    safeplot.histplot(data=penguins, x="body_mass_g", ax=axes[1])
    assert drawn(axes[0]) == drawn(axes[1])
    plt.close(fig)


def test_to_pandas_leaves_pandas_numpy_and_containers_alone():
    df = pd.DataFrame({"a": [1, 2]})
    for obj in (df, df["a"], np.arange(3), [1, 2], {"a": [1]}, None, "a", 3.0):
        assert to_pandas(obj) is obj


def test_as_frame_reads_polars():
    frame = as_frame(pl.DataFrame({"a": [1.0, 2.0], "b": [3.0, 4.0]}), ["b"])
    assert list(frame.columns) == ["b"]
    assert frame["b"].tolist() == [3.0, 4.0]
