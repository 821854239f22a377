"""Example data: the simulated data sets of Avraam et al. (2021) and bundled public tables.

Two kinds of data are provided for examples, tests and the gallery:

* :func:`simulate` draws the three artificial data sets used by Avraam et al.
  (2021) to compare privacy-preserving visualisations, from a seeded
  generator, so every figure can be reproduced exactly.
* :func:`load_dataset` reads one of a few public tables from the
  `seaborn-data <https://github.com/mwaskom/seaborn-data>`_ repository that are
  shipped inside safeplot. It mirrors :func:`seaborn.load_dataset` but never
  uses the network: trusted research environments usually have none.

References
----------
.. [1] Avraam D, Wilson R, Butters O, Burton T, Nicolaides C, Jones E,
   Boyd A, Burton P (2021). "Privacy preserving data visualizations".
   *EPJ Data Science* 10:2. https://doi.org/10.1140/epjds/s13688-020-00257-4
"""

from __future__ import annotations

import operator
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["get_dataset_names", "load_dataset", "simulate"]

#: Names accepted by :func:`simulate`.
SIMULATED: tuple[str, ...] = ("D1", "D2", "D3")

#: Tables shipped in ``safeplot/data`` (``{name}.csv``).
BUNDLED: tuple[str, ...] = ("iris", "mpg", "penguins", "tips", "titanic")


# -- simulated data ---------------------------------------------------------------------


def simulate(name: str, n: int = 500, seed: int | None = 1234) -> pd.DataFrame:
    """Draw one of the three simulated data sets of Avraam et al. (2021).

    Each data set has two continuous variables, ``x`` and ``y``:

    ====  ==================================  ===============================
    name  x                                   y
    ====  ==================================  ===============================
    D1    Normal, mean 10, SD 0.5             x + e, with e ~ Normal(0, 1)
    D2    Lognormal, meanlog 0, sdlog 0.5     log(x) + u, with u ~ Uniform(0, 1)
    D3    Beta(5, 2)                          Beta(0.5, 0.5), independent of x
    ====  ==================================  ===============================

    D1 is a strong linear relationship between two normal variables, D2 a
    skewed variable with a non-linear relationship, and D3 two independent
    bounded variables, one of them U-shaped.

    Parameters
    ----------
    name : {"D1", "D2", "D3"}
        The data set; case-insensitive.
    n : int, default 500
        Number of records, at least 2.
    seed : int or None, default 1234
        Seed for :func:`numpy.random.default_rng`. None draws fresh entropy
        (the result is then not reproducible).

    Returns
    -------
    pandas.DataFrame
        ``n`` rows and the float64 columns ``x`` and ``y``.

    Raises
    ------
    ValueError
        For an unknown `name` or ``n < 2``.
    TypeError
        When `n` is not an integer.

    Notes
    -----
    The draws are made from one ``numpy.random.default_rng(seed)`` generator
    in this order, each a vector of length `n`, so results are reproducible
    across platforms for a given numpy random stream:

    * D1: ``x = rng.normal(10, 0.5, n)``, then ``e = rng.normal(0, 1, n)``;
      ``y = x + e``.
    * D2: ``x = rng.lognormal(0, 0.5, n)``, then ``u = rng.uniform(0, 1, n)``;
      ``y = log(x) + u``.
    * D3: ``x = rng.beta(5, 2, n)``, then ``y = rng.beta(0.5, 0.5, n)``.

    Because the vectors are drawn one after another, the first records of a
    data set depend on `n`: ``simulate("D1", 10)`` is not the first ten rows
    of ``simulate("D1", 20)`` in ``y``.

    References
    ----------
    .. [1] Avraam D et al. (2021). "Privacy preserving data visualizations".
       *EPJ Data Science* 10:2.

    Examples
    --------
    >>> df = simulate("D1", n=5)
    >>> df.shape, list(df.columns)
    ((5, 2), ['x', 'y'])
    >>> bool(simulate("d3", n=1000, seed=7)["x"].between(0, 1).all())
    True
    """
    if not isinstance(name, str) or name.upper() not in SIMULATED:
        raise ValueError(
            f"Unknown simulated data set {name!r}; choose one of {list(SIMULATED)} "
            "(case-insensitive)."
        )
    if isinstance(n, bool):
        raise TypeError(f"n must be an integer number of records, got {n!r}.")
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"n must be an integer number of records, got {n!r}.") from None
    if n < 2:
        raise ValueError(f"n must be at least 2 records to simulate a data set, got n={n}.")

    rng = np.random.default_rng(seed)
    key = name.upper()
    if key == "D1":
        x = rng.normal(10.0, 0.5, n)
        y = x + rng.normal(0.0, 1.0, n)
    elif key == "D2":
        x = rng.lognormal(0.0, 0.5, n)
        y = np.log(x) + rng.uniform(0.0, 1.0, n)
    else:
        x = rng.beta(5.0, 2.0, n)
        y = rng.beta(0.5, 0.5, n)
    return pd.DataFrame({"x": x, "y": y})


# -- bundled public tables --------------------------------------------------------------


def get_dataset_names() -> list[str]:
    """Return the names of the tables bundled with safeplot.

    Unlike :func:`seaborn.get_dataset_names`, this needs no network: it lists
    only the tables shipped in the package.

    Returns
    -------
    list of str

    See Also
    --------
    load_dataset : Read one of these tables.

    Examples
    --------
    >>> get_dataset_names()
    ['iris', 'mpg', 'penguins', 'tips', 'titanic']
    """
    return list(BUNDLED)


def load_dataset(name: str, **kws: Any) -> pd.DataFrame:
    """Load a bundled example table, as :func:`seaborn.load_dataset` would.

    The tables are copies of files from the seaborn-data repository shipped
    inside safeplot (see ``safeplot/data/SOURCES.md``); nothing is downloaded.
    They receive the same post-processing as in seaborn 0.13.2:

    * ``tips``: ``day``, ``sex``, ``time`` and ``smoker`` become categoricals
      with the categories in a natural order (Thur-Sun, Male/Female,
      Lunch/Dinner, Yes/No);
    * ``titanic``: ``class`` (First-Third) and ``deck`` (A-G) become
      categoricals;
    * ``penguins``: ``sex`` is title-cased ("MALE" -> "Male");
    * ``iris`` and ``mpg``: unchanged.

    As in seaborn the categoricals are not ``ordered``: the order of the
    categories only fixes the order of plot elements.

    Parameters
    ----------
    name : str
        One of :func:`get_dataset_names`.
    **kws
        Passed to :func:`pandas.read_csv` (e.g. ``usecols``, ``nrows``).

    Returns
    -------
    pandas.DataFrame

    Raises
    ------
    ValueError
        When `name` is not a bundled table.
    TypeError
        When `name` is not a string (for example a DataFrame: your own data
        need not go through this function).

    Examples
    --------
    >>> tips = load_dataset("tips")
    >>> tips.shape
    (244, 7)
    >>> list(tips["day"].cat.categories)
    ['Thur', 'Fri', 'Sat', 'Sun']
    """
    if isinstance(name, pd.DataFrame):
        raise TypeError(
            "load_dataset takes the name of an example table, not a DataFrame. "
            "Your own data can be passed straight to the plotting functions."
        )
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {type(name).__name__}.")
    if name not in BUNDLED:
        raise ValueError(
            f"{name!r} is not a bundled example data set; choose one of {list(BUNDLED)}. "
            "seaborn's other example data sets are not bundled, and safeplot never "
            "downloads them: trusted research environments have no network access. "
            "Use safeplot.datasets.simulate() for simulated data."
        )
    resource = resources.files("safeplot").joinpath("data", f"{name}.csv")
    with resource.open("rb") as fh:
        df = pd.read_csv(fh, **kws)
    return _postprocess(name, df)


#: Categorical columns and their categories, in seaborn's order.
_CATEGORIES: dict[str, dict[str, list[str]]] = {
    "tips": {
        "day": ["Thur", "Fri", "Sat", "Sun"],
        "sex": ["Male", "Female"],
        "time": ["Lunch", "Dinner"],
        "smoker": ["Yes", "No"],
    },
    "titanic": {
        "class": ["First", "Second", "Third"],
        "deck": list("ABCDEFG"),
    },
}


def _postprocess(name: str, df: pd.DataFrame) -> pd.DataFrame:
    # Like seaborn, drop a trailing row that is entirely empty (a stray
    # line at the end of a file).
    if len(df) and df.iloc[-1].isna().all():
        df = df.iloc[:-1].copy()
    # Columns left out with ``usecols`` are skipped rather than an error.
    for column, categories in _CATEGORIES.get(name, {}).items():
        if column in df.columns:
            df[column] = pd.Categorical(df[column], categories)
    if name == "penguins" and "sex" in df.columns:
        df["sex"] = df["sex"].str.title()
    return df
