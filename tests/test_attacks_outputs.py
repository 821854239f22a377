"""Attacks on the newest outputs, as a reader of released figures, tables and logs makes them.

DESIGN.md section 3: the reader knows the call behind each output (the
audit log says so), may hold several releases of the same data, and may
know every record but one. Each test builds its releases through public
functions only, then tries to recover a raw value, a small count, an
unrounded count or a suppressed name from what was released: the output
checker's folder (:func:`safeplot.audit.finalise`), the exported audit log,
the P-P plot, the biplot, parallel box plots, ``describe`` and
``chi2_contingency``, polars and pyarrow input, the notebook display and the
progress bars. Each asserts that nothing is recovered.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit
from safeplot.anonymize.grids import rare_values

#: Numbers as they are written in CSV and JSON text.
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")

#: Planted unique records: far from the bulk (x about 10 +/- 1, y about 50 +/- 5).
OUTLIERS = pd.DataFrame({"x": [25.123, -3.219], "y": [91.777, 7.415], "g": ["a", "b"]})


@pytest.fixture
def data() -> pd.DataFrame:
    """300 records rounded to 3 decimals, two groups, two unique outliers appended."""
    rng = np.random.default_rng(20261124)
    df = pd.DataFrame(
        {
            "x": np.round(rng.normal(10, 1, 300), 3),
            "y": np.round(rng.normal(50, 5, 300), 3),
            "g": rng.choice(["a", "b"], 300),
        }
    )
    return pd.concat([df, OUTLIERS], ignore_index=True)


def _rare(*columns: pd.Series) -> np.ndarray:
    """Rare raw values (fewer than 3 records) that are not whole numbers.

    Whole numbers are left out: uids, timestamps and counts are full of
    them, and no whole number is a rare value of data on a grid of 0.001
    unless it is a coincidence the scan would misread.
    """
    rare = np.concatenate([rare_values(np.asarray(c, dtype=float), 3) for c in columns])
    return rare[rare != np.round(rare)]


def _rare_hits(text: str, rare: np.ndarray) -> list[float]:
    numbers = np.array([float(m) for m in NUMBER.findall(text) if "." in m], dtype=float)
    return [
        float(v)
        for v in numbers
        if np.isclose(v, rare, rtol=1e-9, atol=0).any() and v != np.round(v)
    ]


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _save(ax, name: str) -> None:
    ax.figure.savefig(name)
    plt.close(ax.figure)


# -- the output checker's folder and the exported log ----------------------------------------


def test_folder_does_not_tell_a_suppressed_bin_from_an_empty_one(tmp_path, monkeypatch):
    """A record alone in a gap of the histogram: the figure draws its bin as it draws empty ones.

    Before, the CSV wrote ``count`` 0 for the empty bins and an empty field
    flagged ``suppressed`` for the record's bin, and ``results.json`` listed
    that bin's position: the reader learnt that one or two records lie in
    [16.1, 16.6), which the figure hides.
    """
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    x = np.r_[np.round(rng.normal(10, 1, 300), 3), 20.21, 20.22, 20.23, 20.24, 16.377]
    ax = safeplot.histplot(x=x, binwidth=0.5)
    heights = {round(p.get_x(), 6): p.get_height() for p in ax.patches}
    _save(ax, "hist.png")
    out = audit.finalise(tmp_path / "bundle")
    (entry,) = audit.entries()
    rows = _read_csv(out / f"{entry.uid}.csv")
    gap = [r for r in rows if 12.6 <= float(r["bin_left"]) < 20.1]
    assert len(gap) == 15
    # the figure: the same (zero-height or no) bar for the record's bin and for the empty ones
    assert {heights.get(round(float(r["bin_left"]), 6), 0.0) for r in gap} == {0.0}
    # the CSV and the log: the same row for each, nothing that picks the record's bin out
    assert {(r["count"], r["suppressed"]) for r in gap} == {("", "True")}
    assert {tuple(r[3:]) for r in entry.released["data"] if 12.6 <= r[1] < 20.1} == {(None, True)}
    sdc = json.loads((out / "results.json").read_text())["results"][entry.uid]["files"][0]["sdc"]
    flagged = {i for i, _ in sdc["cells"]["cells_suppressed"]}
    assert {i for i, r in enumerate(rows) if r in gap} <= flagged
    # the shown bins are written as drawn
    shown = {round(float(r["bin_left"]), 6): float(r["count"]) for r in rows if r["count"]}
    assert shown == {k: v for k, v in heights.items() if v > 0}
    assert all(float(r["count"]) >= 3 for r in rows if r["count"])
