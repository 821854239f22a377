"""Input checks shared by the metrics: two finite tables of the same shape."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._validate import finite_array

__all__ = ["paired"]


def _names(data: Any) -> list[str] | None:
    if isinstance(data, pd.DataFrame):
        return [str(c) for c in data.columns]
    if isinstance(data, pd.Series):
        return [str(data.name) if data.name is not None else "x"]
    return None


def paired(original: Any, anonymised: Any) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Return the original and anonymised data as float (n, p) arrays, and the variable names.

    Both must be finite, numeric, of the same shape, with at least two
    records; every original variable must vary (the metrics divide by its
    spread). DataFrames with the same columns in another order are aligned
    by name.
    """
    if isinstance(original, pd.DataFrame) and isinstance(anonymised, pd.DataFrame):
        a, b = [str(c) for c in original.columns], [str(c) for c in anonymised.columns]
        if a != b:
            if sorted(a) != sorted(b):
                raise ValueError(
                    f"The original and anonymised data have different columns ({a} and {b}); "
                    "give the same variables in both."
                )
            anonymised = anonymised.set_axis(b, axis=1)[a]
    x = finite_array(original, min_rows=2, what="original data")
    y = finite_array(anonymised, min_rows=2, what="anonymised data")
    x = x[:, None] if x.ndim == 1 else x
    y = y[:, None] if y.ndim == 1 else y
    if x.shape != y.shape:
        raise ValueError(
            f"The original data have shape {x.shape} and the anonymised data {y.shape}; "
            "the metrics compare records row for row, so the shapes must be equal."
        )
    names = _names(original) or _names(anonymised)
    if names is None:
        names = [f"x{j}" for j in range(x.shape[1])]
    constant = np.ptp(x, axis=0) == 0
    if constant.any():
        bad = [names[j] for j in np.flatnonzero(constant)]
        raise ValueError(
            f"Original variable(s) {bad} are constant: the metrics scale by each variable's "
            "spread, which is zero. Drop constant columns."
        )
    return x, y, names


def standardise(x: np.ndarray, *others: np.ndarray) -> tuple[np.ndarray, ...]:
    """Z-score `x` by its own mean and SD (``ddof=1``) and `others` by the same scale."""
    mean = x.mean(axis=0)
    sd = x.std(axis=0, ddof=1)
    return tuple((a - mean) / sd for a in (x, *others))
