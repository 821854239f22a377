"""Tests of safeplot.datasets: the simulated data sets and the bundled tables."""

from importlib import resources

import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from pandas.testing import assert_frame_equal
from scipy import stats

from safeplot.datasets import get_dataset_names, load_dataset, simulate

DATA_DIR = resources.files("safeplot").joinpath("data")

# -- simulate ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["D1", "D2", "D3"])
def test_simulate_shape_and_dtypes(name):
    df = simulate(name)
    assert df.shape == (500, 2)
    assert list(df.columns) == ["x", "y"]
    assert (df.dtypes == np.float64).all()
    assert df.index.equals(pd.RangeIndex(500))
    assert np.isfinite(df.to_numpy()).all()


@pytest.mark.parametrize("n", [2, 3, 17, 1000])
def test_simulate_n(n):
    assert len(simulate("D2", n=n)) == n
    assert len(simulate("D2", n=np.int64(n))) == n


@pytest.mark.parametrize("name", ["D1", "D2", "D3"])
def test_simulate_deterministic(name):
    assert_frame_equal(simulate(name, n=200, seed=5), simulate(name, n=200, seed=5))
    assert_frame_equal(simulate(name), simulate(name, n=500, seed=1234))


@pytest.mark.parametrize("name", ["D1", "D2", "D3"])
def test_simulate_seeds_differ(name):
    a = simulate(name, n=100, seed=1)
    b = simulate(name, n=100, seed=2)
    assert not np.allclose(a["x"], b["x"])
    assert not np.allclose(a["y"], b["y"])


@pytest.mark.parametrize("name", ["D1", "D2", "D3"])
def test_simulate_data_sets_differ(name):
    others = {"D1", "D2", "D3"} - {name}
    for other in others:
        assert not np.allclose(simulate(name, n=50)["x"], simulate(other, n=50)["x"])


@pytest.mark.parametrize("name", ["d1", "D1", "d2", "D3", "d3"])
def test_simulate_name_case_insensitive(name):
    assert_frame_equal(simulate(name, n=20), simulate(name.upper(), n=20))


def test_simulate_documented_draw_order():
    rng = np.random.default_rng(99)
    x = rng.normal(10, 0.5, 50)
    y = x + rng.normal(0, 1, 50)
    assert_frame_equal(simulate("D1", n=50, seed=99), pd.DataFrame({"x": x, "y": y}))

    rng = np.random.default_rng(99)
    x = rng.lognormal(0, 0.5, 50)
    y = np.log(x) + rng.uniform(0, 1, 50)
    assert_frame_equal(simulate("D2", n=50, seed=99), pd.DataFrame({"x": x, "y": y}))

    rng = np.random.default_rng(99)
    x = rng.beta(5, 2, 50)
    y = rng.beta(0.5, 0.5, 50)
    assert_frame_equal(simulate("D3", n=50, seed=99), pd.DataFrame({"x": x, "y": y}))


def test_simulate_d1_distribution():
    df = simulate("D1", n=20_000, seed=11)
    assert df["x"].mean() == pytest.approx(10, abs=0.03)
    assert df["x"].std() == pytest.approx(0.5, rel=0.05)
    resid = df["y"] - df["x"]
    assert resid.mean() == pytest.approx(0, abs=0.05)
    assert resid.std() == pytest.approx(1, rel=0.05)
    # corr(X, Y) = 0.5 / sqrt(0.25 + 1)
    assert df["x"].corr(df["y"]) == pytest.approx(0.5 / np.sqrt(1.25), abs=0.03)
    assert stats.normaltest(df["x"]).pvalue > 1e-4


def test_simulate_d2_distribution():
    df = simulate("D2", n=20_000, seed=11)
    assert (df["x"] > 0).all()
    logx = np.log(df["x"])
    assert logx.mean() == pytest.approx(0, abs=0.02)
    assert logx.std() == pytest.approx(0.5, rel=0.05)
    u = df["y"] - logx
    assert u.min() >= 0
    assert u.max() <= 1
    assert u.mean() == pytest.approx(0.5, abs=0.02)
    assert stats.kstest(u, "uniform").pvalue > 1e-4
    assert df["x"].skew() > 1  # lognormal: strongly right-skewed


def test_simulate_d3_distribution():
    df = simulate("D3", n=20_000, seed=11)
    for column in ("x", "y"):
        assert ((df[column] > 0) & (df[column] < 1)).all()
    assert df["x"].mean() == pytest.approx(5 / 7, abs=0.01)
    assert df["y"].mean() == pytest.approx(0.5, abs=0.02)
    assert stats.kstest(df["x"], "beta", args=(5, 2)).pvalue > 1e-4
    assert stats.kstest(df["y"], "beta", args=(0.5, 0.5)).pvalue > 1e-4
    assert abs(df["x"].corr(df["y"])) < 0.05  # independent


@pytest.mark.parametrize("seed", range(5))
def test_simulate_d3_open_unit_interval_small_n(seed):
    df = simulate("D3", seed=seed)
    assert ((df > 0) & (df < 1)).all().all()


@pytest.mark.parametrize("name", ["D4", "d0", "", "tips", None, 1])
def test_simulate_unknown_name(name):
    with pytest.raises(ValueError, match="Unknown simulated data set") as info:
        simulate(name)
    assert "['D1', 'D2', 'D3']" in str(info.value)


@pytest.mark.parametrize("n", [1, 0, -5])
def test_simulate_too_few_records(n):
    with pytest.raises(ValueError, match=f"n must be at least 2 records.*n={n}"):
        simulate("D1", n=n)


@pytest.mark.parametrize("n", [2.0, "10", True, None])
def test_simulate_n_not_an_integer(n):
    with pytest.raises(TypeError, match="n must be an integer"):
        simulate("D1", n=n)


# -- bundled tables ---------------------------------------------------------------------

EXPECTED_COLUMNS = {
    "iris": ["sepal_length", "sepal_width", "petal_length", "petal_width", "species"],
    "mpg": [
        "mpg",
        "cylinders",
        "displacement",
        "horsepower",
        "weight",
        "acceleration",
        "model_year",
        "origin",
        "name",
    ],
    "penguins": [
        "species",
        "island",
        "bill_length_mm",
        "bill_depth_mm",
        "flipper_length_mm",
        "body_mass_g",
        "sex",
    ],
    "tips": ["total_bill", "tip", "sex", "smoker", "day", "time", "size"],
    "titanic": [
        "survived",
        "pclass",
        "sex",
        "age",
        "sibsp",
        "parch",
        "fare",
        "embarked",
        "class",
        "who",
        "adult_male",
        "deck",
        "embark_town",
        "alive",
        "alone",
    ],
}

EXPECTED_ROWS = {"iris": 150, "mpg": 398, "penguins": 344, "tips": 244, "titanic": 891}

CATEGORIES = {
    ("tips", "day"): ["Thur", "Fri", "Sat", "Sun"],
    ("tips", "sex"): ["Male", "Female"],
    ("tips", "time"): ["Lunch", "Dinner"],
    ("tips", "smoker"): ["Yes", "No"],
    ("titanic", "class"): ["First", "Second", "Third"],
    ("titanic", "deck"): ["A", "B", "C", "D", "E", "F", "G"],
}


def test_get_dataset_names():
    names = get_dataset_names()
    assert names == ["iris", "mpg", "penguins", "tips", "titanic"]
    names.append("planets")  # a copy: the module's list is unchanged
    assert "planets" not in get_dataset_names()


def test_every_bundled_file_is_listed():
    files = sorted(p.name[:-4] for p in DATA_DIR.iterdir() if p.name.endswith(".csv"))
    assert files == get_dataset_names()
    assert DATA_DIR.joinpath("SOURCES.md").is_file()


@pytest.mark.parametrize("name", sorted(EXPECTED_COLUMNS))
def test_load_dataset_rows_and_columns(name):
    df = load_dataset(name)
    with DATA_DIR.joinpath(f"{name}.csv").open("rb") as fh:
        raw = pd.read_csv(fh)
    assert len(df) == len(raw) == EXPECTED_ROWS[name]
    assert list(df.columns) == EXPECTED_COLUMNS[name]


@pytest.mark.parametrize("name", sorted(EXPECTED_COLUMNS))
def test_load_dataset_matches_seaborn(name):
    # seaborn reads a cached copy when it exists, so pointing its cache at the
    # bundled folder compares the post-processing without any download.
    expected = sns.load_dataset(name, data_home=str(DATA_DIR))
    assert_frame_equal(load_dataset(name), expected)


@pytest.mark.parametrize(("table", "column"), sorted(CATEGORIES))
def test_load_dataset_categoricals(table, column):
    values = load_dataset(table)[column]
    assert isinstance(values.dtype, pd.CategoricalDtype)
    assert list(values.cat.categories) == CATEGORIES[(table, column)]
    assert not values.cat.ordered  # as in seaborn: the order is for plotting only


def test_load_dataset_numeric_dtypes():
    tips = load_dataset("tips")
    assert tips["total_bill"].dtype == np.float64
    assert tips["size"].dtype == np.int64
    mpg = load_dataset("mpg")
    assert mpg["horsepower"].dtype == np.float64
    assert mpg["horsepower"].isna().sum() == 6
    titanic = load_dataset("titanic")
    assert titanic["age"].dtype == np.float64
    assert titanic["alone"].dtype == bool
    assert titanic["deck"].isna().sum() == 688
    iris = load_dataset("iris")
    assert (iris.dtypes.iloc[:4] == np.float64).all()
    assert pd.api.types.is_string_dtype(iris["species"])
    assert sorted(iris["species"].unique()) == ["setosa", "versicolor", "virginica"]


def test_load_dataset_penguins_sex_title_case():
    sex = load_dataset("penguins")["sex"]
    assert sorted(sex.dropna().unique()) == ["Female", "Male"]
    assert sex.isna().sum() == 11
    assert pd.api.types.is_float_dtype(load_dataset("penguins")["body_mass_g"])


def test_load_dataset_passes_read_csv_keywords():
    df = load_dataset("tips", usecols=["total_bill", "day"], nrows=10)
    assert df.shape == (10, 2)
    assert list(df["day"].cat.categories) == ["Thur", "Fri", "Sat", "Sun"]
    # Dropping a column that is post-processed is not an error.
    assert list(load_dataset("titanic", usecols=["age"]).columns) == ["age"]
    assert len(load_dataset("penguins", nrows=0)) == 0


def test_load_dataset_returns_fresh_frames():
    a = load_dataset("iris")
    a.loc[0, "sepal_length"] = -1.0
    assert load_dataset("iris").loc[0, "sepal_length"] == 5.1


@pytest.mark.parametrize("name", ["planets", "flights", "Tips", "tips.csv", "../tips", ""])
def test_load_dataset_unknown_name(name):
    with pytest.raises(ValueError) as info:
        load_dataset(name)
    message = str(info.value)
    assert repr(name) in message
    assert "['iris', 'mpg', 'penguins', 'tips', 'titanic']" in message
    assert "not bundled" in message
    assert "network" in message


def test_load_dataset_dataframe_refused():
    with pytest.raises(TypeError, match="not a DataFrame"):
        load_dataset(pd.DataFrame({"a": [1]}))


@pytest.mark.parametrize("name", [None, 3, ["tips"]])
def test_load_dataset_name_not_a_string(name):
    with pytest.raises(TypeError, match="name must be a string"):
        load_dataset(name)
