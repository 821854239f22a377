"""seaborn's look: the colours of categorical levels and how hue and size are mapped."""

from __future__ import annotations

import warnings
from datetime import datetime
from numbers import Number
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd

__all__ = ["level_colors", "semantic_type", "variable_type"]


def level_colors(levels: list, palette: Any) -> list:
    """Colours of categorical levels as seaborn picks them (palette name, list, dict or None).

    Parameters
    ----------
    levels : list
        The levels, in drawing order.
    palette : str, list, dict or None
        As seaborn's ``palette=``: a dictionary must name every level; None
        takes the colour cycle (husl when there are more levels than colours).

    Returns
    -------
    list
        One colour per level.

    Examples
    --------
    >>> level_colors(["a", "b"], {"a": "red", "b": "blue"})
    ['red', 'blue']
    """
    import seaborn as sns

    n = len(levels)
    if isinstance(palette, dict):
        missing = [lev for lev in levels if lev not in palette]
        if missing:
            raise ValueError(f"The palette dictionary is missing keys: {missing}.")
        return [palette[lev] for lev in levels]
    if palette is None:
        cycle = mpl.rcParams["axes.prop_cycle"].by_key().get("color", [])
        return sns.color_palette(None if n <= len(cycle) else "husl", n)
    if isinstance(palette, list):
        return [palette[i % len(palette)] for i in range(n)]
    return sns.color_palette(palette, n)


def variable_type(values: pd.Series, boolean_type: str = "numeric") -> str:
    """Return "numeric", "datetime" or "categorical", as seaborn documents its inference.

    A categorical dtype is categorical; all missing is numeric; only 0s and 1s
    are `boolean_type`; numbers (numeric dtype, or objects that are all
    numbers) are numeric; datetimes are datetime; anything else is categorical.

    Parameters
    ----------
    values : Series
    boolean_type : str, default "numeric"
        The type of a variable of 0s and 1s.

    Returns
    -------
    str
    """
    values = pd.Series(values)
    if isinstance(values.dtype, pd.CategoricalDtype):
        return "categorical"
    if values.isna().all():
        return "numeric"
    values = values.dropna()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=(FutureWarning, DeprecationWarning))
        try:
            if np.isin(values, [0, 1]).all():
                return boolean_type
        except TypeError:  # values numpy cannot compare with numbers
            pass
    if pd.api.types.is_numeric_dtype(values):
        return "numeric"
    if pd.api.types.is_datetime64_dtype(values):
        return "datetime"
    if all(isinstance(v, Number) for v in values):
        return "numeric"
    if all(isinstance(v, (datetime, np.datetime64)) for v in values):
        return "datetime"
    return "categorical"


def semantic_type(role: str, values: pd.Series, palette: Any, norm: Any, sizes: Any) -> str:
    """How seaborn maps hue or size: "numeric", "categorical" or "datetime".

    Parameters
    ----------
    role : {"hue", "size"}
    values : Series
        The variable's values.
    palette, norm, sizes
        seaborn's ``palette=``, ``hue_norm=``/``size_norm=`` and ``sizes=``:
        a qualitative palette, a list or a dictionary makes the variable
        categorical, a norm makes it numeric.

    Returns
    -------
    str
    """
    from seaborn.palettes import QUAL_PALETTES

    if role == "hue" and isinstance(palette, str) and palette in QUAL_PALETTES:
        return "categorical"
    if norm is not None:
        return "numeric"
    if isinstance(palette if role == "hue" else sizes, (dict, list)):
        return "categorical"
    return variable_type(values, boolean_type="categorical")
