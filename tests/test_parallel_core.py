"""The confidential scatter and the parallel box plot share one release: reports pinned."""

import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot.errors import DisclosureError
from safeplot.plots._boxes import release_boxes as _release_boxes
from safeplot.plots.confidential import release_parallelboxes
from safeplot.policy import get_policy


@pytest.fixture
def tied():
    """Heavy-tie x in two levels: level "b" needs a merged box."""
    rng = np.random.default_rng(2)
    n = 45
    x = np.round(rng.normal(50, 10, n) / 5) * 5
    y = x * 0.5 + rng.normal(0, 5, n)
    return x, y, rng.integers(0, 2, n)


def test_confidential_scatter_report(tied):
    x, y, codes = tied
    rel = _release_boxes(x, y, codes, ["a", "b"], ("x", "y"), 3, 2, "scatterplot", get_policy())
    merged = "b: two adjacent x intervals are one box, drawn over the second"
    assert rel.report.to_dict() == {
        "function": "scatterplot",
        "method": "confidential",
        "params": {"threshold": 3, "winsor_sd": 2.6},
        "variables": ["x", "y"],
        "n": 45,
        "n_dropped": "<3",
        "cells_suppressed": 0,
        "warnings": [
            "Adjacent x intervals were merged (each merged box is drawn over the interval "
            "holding most of its records; the others are left empty): " + merged,
            "fewer than 3 rows with missing values were dropped.",
        ],
        "details": {
            "values_winsorised": "<3",
            "sig_figs": 3,
            "intervals": 3,
            "intervals_merged": [merged],
        },
        "policy": "built-in defaults",
    }
    assert rel.notes == [merged]
    np.testing.assert_array_equal(rel.positions[0], [26.0, 46.0, 66.0])
    np.testing.assert_array_equal(rel.positions[1], [54.0, 74.0])
    assert rel.width == 8.0
    assert len(rel.trends) == 2


def test_parallelboxes_report(tied):
    x, y, codes = tied
    rel = release_parallelboxes(x, y, codes, ["a", "b"], trend=True)
    merged = (
        "b: two adjacent x intervals are one box, drawn over the second; the other is left empty"
    )
    assert rel.report.to_dict() == {
        "function": "parallelboxplot",
        "method": "confidential",
        "params": {"threshold": 3, "winsor_sd": 2.6, "sig": 3},
        "variables": ["x", "y"],
        "n": 45,
        "n_dropped": 0,
        "cells_suppressed": 0,
        "warnings": [
            "Adjacent intervals were merged; a merged box is drawn with the width of one "
            "interval, over the one holding most of its records, and the other intervals are "
            "left empty (O'Keefe): " + merged
        ],
        "details": {
            "values_winsorised": "<3",
            "intervals": 3,
            "interval_width": 20.0,
            "intervals_merged": [merged],
            "intervals_left_empty": 1,
            # O'Keefe's search over equal-width divisions found none without a merge
            "division": (
                "no equal-width division tried met the rules: the finest was kept and "
                "adjacent intervals were merged"
            ),
            "trend": "lowess",
        },
        "policy": "built-in defaults",
    }
    np.testing.assert_array_equal(rel.positions[0], [26.0, 46.0, 66.0])
    np.testing.assert_array_equal(rel.positions[1], [54.0, 74.0])
    assert rel.width == 8.0
    assert len(rel.trends) == 2


def test_small_level_left_out_by_both_and_refused_by_the_core(tied):
    """The shared core refuses a level too small for a box; both plots leave it out first."""
    x, y, _ = tied
    codes = np.r_[np.zeros(x.size - 2, dtype=int), 1, 1]
    small = r"hue level\(s\) \['b'\] have fewer than 3 records"
    with pytest.raises(DisclosureError, match="^" + small):
        _release_boxes(x, y, codes, ["a", "b"], ("x", "y"), 3, 0, "scatterplot", get_policy())
    parallel = release_parallelboxes(x, y, codes, ["a", "b"])
    assert parallel.levels == ["a"]
    frame = pd.DataFrame({"x": x, "y": y, "g": np.where(codes == 1, "b", "a")})
    ax = safeplot.scatterplot(frame, x="x", y="y", hue="g", method="confidential")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["a"]
    for report in (parallel.report, ax.safeplot_report):
        assert report.details["groups_left_out"] == 1
