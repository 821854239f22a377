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
import io
import json
import os
import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import DisclosureError, audit, ledger
from safeplot.anonymize.grids import rare_values

# every attack runs under the built-in policy and under a locked, stricter one
pytestmark = pytest.mark.usefixtures("regime")

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


# the time of a release (ISO 8601, milliseconds): "...T06:29:58.039+00:00" is no data value
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[+-]\d{2}:\d{2}|Z)?")


def _rare_hits(text: str, rare: np.ndarray) -> list[float]:
    text = TIMESTAMP.sub("<time>", text)
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
    # five records at 20.2: a bin shown under a threshold of up to 5 (a stricter policy's)
    x = np.r_[np.round(rng.normal(10, 1, 300), 3), 20.21, 20.22, 20.23, 20.24, 20.25, 16.377]
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
    assert all(float(r["count"]) >= safeplot.get_policy().threshold for r in rows if r["count"])


def _many_releases(data: pd.DataFrame) -> None:
    """Releases of every kind the folder holds numbers for, each saved where it is a figure."""
    _save(safeplot.histplot(data=data, x="x"), "hist.png")
    _save(safeplot.histplot(data=data, x="x", hue="g"), "hist_hue.svg")
    _save(safeplot.scatterplot(data=data, x="x", y="y", method="suppress"), "grid.pdf")
    _save(
        safeplot.scatterplot(data=data, x="x", y="y", hue="g", method="deterministic"),
        "det.png",
    )
    _save(safeplot.boxplot(data=data, x="g", y="y", method="confidential"), "box.png")
    _save(safeplot.boxplot(data=data, x="g", y="y", method="deterministic"), "box_det.png")
    _save(safeplot.parallelboxplot(data=data, x="x", y="y"), "pbox.png")
    safeplot.describe(data[["x", "y"]])
    safeplot.corr(data[["x", "y"]])
    safeplot.crosstab(data.assign(h=np.where(data["y"] > 50, "hi", "lo")), "g", "h")
    audit.record_model(safeplot.safe_ols("y ~ x", data=data))


def test_no_file_of_the_folder_holds_a_rare_value_or_a_small_count(data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _many_releases(data)
    out = audit.finalise(tmp_path / "bundle")
    log = audit.export(tmp_path / "audit.json")
    rare = _rare(data["x"], data["y"])
    assert rare.size > 100  # the scan has something to find
    texts = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.csv")}
    texts |= {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.json")}
    texts["exported log"] = log.read_text(encoding="utf-8")
    assert {f"{e.uid}.csv" for e in audit.entries() if e.released} <= set(texts)
    assert len([n for n in texts if n.endswith(".csv")]) >= 9
    for name, text in texts.items():
        assert not _rare_hits(text, rare), (name, _rare_hits(text, rare)[:5])
        untimed = TIMESTAMP.sub("<time>", text)  # a release at 08:18:25.123 is no record
        for value in ("25.123", "91.777", "-3.219", "7.415"):
            assert value not in untimed, (name, value)
    for path in out.glob("*.csv"):
        for row in _read_csv(path):
            count = row.get("count")
            if count:
                assert not 0 < float(count) < 3, (path.name, row)
    # counts of records are rounded or banded wherever they are written
    doc = json.loads(texts["results.json"])
    for rec in doc["results"].values():
        n = rec["properties"].get("n")
        if n is not None:
            assert isinstance(n, str) or n % 5 == 0, rec["properties"]
        dropped = rec["properties"].get("n_dropped")
        assert dropped in (None, 0) or isinstance(dropped, str) or dropped % 5 == 0


def test_the_folder_and_log_never_hold_the_noise_key(data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    key = (Path(os.environ["SAFEPLOT_HOME"]) / "secret.key").read_text().strip()
    _save(safeplot.scatterplot(data=data, x="x", y="y", method="probabilistic"), "noise.png")
    out = audit.finalise(tmp_path / "bundle", log=audit.export(tmp_path / "audit.json"))
    for path in out.rglob("*"):
        if path.is_file():
            content = path.read_bytes()
            assert key.encode() not in content and key[:16].encode() not in content, path


def _log_with(tmp_path: Path, **changes) -> Path:
    """The exported log of one saved histogram, with its entry changed as a crafted log would."""
    doc = json.loads(audit.to_json())
    doc["entries"][0].update(changes)
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_a_crafted_uid_cannot_write_outside_the_folder(data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _save(safeplot.histplot(data=data, x="x"), "hist.png")
    for uid in ("../../escaped", "/tmp/escaped", "sub/escaped", ".."):
        log = _log_with(tmp_path, uid=uid)
        with pytest.raises(ValueError, match="not a plain file name"):
            audit.finalise(tmp_path / "bundle", log=log)
        assert not (tmp_path / "bundle").exists()
    assert not list(tmp_path.parent.glob("escaped*")) and not list(tmp_path.glob("escaped*"))


def test_a_crafted_log_cannot_copy_a_data_file_into_the_folder(data, tmp_path, monkeypatch):
    """An absolute path, a relative path out of the folder, or a link dressed as a figure."""
    monkeypatch.chdir(tmp_path)
    _save(safeplot.histplot(data=data, x="x"), "hist.png")
    raw = tmp_path / "elsewhere" / "records.csv"
    raw.parent.mkdir()
    data.to_csv(raw)
    (tmp_path / "linked.png").symlink_to(raw)
    for name in (str(raw), "elsewhere/../elsewhere/records.csv", "linked.png"):
        log = _log_with(tmp_path, files=[name])
        with pytest.raises(ValueError, match="not the figure saved for that release"):
            audit.finalise(tmp_path / "bundle", log=log)
        assert not (tmp_path / "bundle").exists()
    # the figure as saved is accepted, from the log and from the session
    assert (audit.finalise(tmp_path / "ok", log=_log_with(tmp_path)) / "hist.png").is_file()


def test_a_figure_saved_over_without_safeplot_is_not_taken_as_the_release(
    data, tmp_path, monkeypatch
):
    """The raw plot saved later under the released figure's name does not enter the folder."""
    monkeypatch.chdir(tmp_path)
    _save(safeplot.histplot(data=data, x="x"), "hist.png")
    fig, ax = plt.subplots()
    ax.scatter(data["x"], data["y"])  # plain matplotlib: the raw records
    fig.savefig("hist.png")
    plt.close(fig)
    with pytest.raises(ValueError, match="not the figure saved for that release"):
        audit.finalise(tmp_path / "bundle")


def test_a_crafted_acro_folder_cannot_reach_outside_itself(tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("id,value\n1,25.123\n", encoding="utf-8")
    acro = tmp_path / "acro_out"
    acro.mkdir()
    (acro / "link.csv").symlink_to(secret)
    for name in ("../secret.csv", str(secret), "link.csv"):
        record = {"uid": "output_0", "files": [{"name": name, "sdc": {}}], "status": "pass"}
        doc = {"version": safeplot.bundle.results_version(), "results": {"output_0": record}}
        (acro / "results.json").write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(ValueError, match=r"plain file name|outside"):
            audit.finalise(tmp_path / "bundle", acro=acro)
        assert not (tmp_path / "bundle").exists()


def test_column_names_cannot_inject_rows_into_the_csv_or_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(1)
    name = 'x,"injected"\n25.123,1\n=HYPERLINK("http://e")</td><script>'
    df = pd.DataFrame({name: np.round(rng.normal(10, 1, 300), 3)})
    _save(safeplot.histplot(data=df, x=name), "hist.png")
    out = audit.finalise(tmp_path / "bundle")
    (entry,) = audit.entries()
    with open(out / f"{entry.uid}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["level", "bin_left", "bin_right", "count", "suppressed"]
    assert all(len(r) == 5 for r in rows)
    assert not any(r[0].startswith("25.123") for r in rows)
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["results"][entry.uid]["properties"]["variables"] == [name]
    assert set(doc["results"]) == {entry.uid, "safeplot_audit_log-DONT_RELEASE"}


# -- polars and pyarrow input: the same checks as a pandas frame -----------------------------


def test_polars_and_pyarrow_booleans_with_nulls_are_refused_as_pandas_booleans_are():
    """A boolean column with a missing value is held as objects once converted: still no measure.

    Before, a polars or pyarrow boolean column with a null reached pandas as
    Python objects and was drawn as the numbers 0 and 1, where pandas'
    ``boolean`` column of the same values is refused.
    """
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    values = [True, None, False] * 70
    frames = [
        pd.DataFrame({"x": pd.array(values, dtype="boolean")}),
        pl.DataFrame({"x": values}),
        pa.table({"x": pa.array(values)}),
    ]
    for frame in frames:
        for function in (safeplot.histplot, safeplot.kdeplot, safeplot.boxplot):
            with pytest.raises(ValueError, match="is boolean, not a measurement"):
                function(data=frame, x="x")
    assert audit.entries() == []


def test_polars_nan_and_null_are_both_missing_and_the_count_dropped_is_banded(data):
    pl = pytest.importorskip("polars")
    x = data["x"].to_numpy().copy()
    x[:2] = np.nan
    frames = {
        "pandas NaN": pd.DataFrame({"x": x}),
        "polars NaN": pl.DataFrame({"x": x}),  # NaN values, not nulls
        "polars null": pl.DataFrame({"x": x}).with_columns(pl.col("x").fill_nan(None)),
    }
    assert frames["polars NaN"]["x"].null_count() == 0
    assert frames["polars null"]["x"].null_count() == 2
    releases = {}
    for name, frame in frames.items():
        ax = safeplot.histplot(data=frame, x="x")
        report = ax.safeplot_report
        releases[name] = [(p.get_x(), p.get_height()) for p in ax.patches]
        plt.close(ax.figure)
        # two records dropped: written as a band (below the threshold), never as the exact count
        assert report.n_dropped == f"<{safeplot.get_policy().threshold}", (name, report.n_dropped)
        assert report.n % 5 == 0
        assert not any("2 rows" in w for w in report.warnings)
    assert releases["polars NaN"] == releases["pandas NaN"] == releases["polars null"]


def test_polars_hue_levels_are_suppressed_as_pandas_ones(data):
    pl = pytest.importorskip("polars")
    frame = data.assign(g=np.r_[data["g"].to_numpy()[:-1], ["RARELEVEL"]])
    givens = (frame, pl.from_pandas(frame), pl.from_pandas(frame.astype({"g": "category"})))
    for given in givens:
        # the histogram leaves the one-record level out, named nowhere (its bins hidden to the
        # ledger), whatever kind of frame it came in
        fig, ax = plt.subplots()
        safeplot.histplot(data=given, x="x", hue="g", ax=ax)
        legend = ax.get_legend()
        assert "RARELEVEL" not in [t.get_text() for t in legend.get_texts()]
        assert ax.safeplot_report.details["groups_left_out"] == 1
        assert not any("RARELEVEL" in w for w in ax.safeplot_report.warnings)
        plt.close(fig)
    assert not any("RARELEVEL" in repr(e) for e in audit.entries())
    # a box plot leaves the box of the rare level out, and names the level nowhere
    for given in givens:
        fig, ax = plt.subplots()
        safeplot.boxplot(data=given, x="g", y="y", ax=ax)
        assert "RARELEVEL" not in [t.get_text() for t in ax.get_xticklabels()]
        assert not any("RARELEVEL" in t.get_text() for t in ax.texts)
        assert ax.safeplot_report.details["groups_left_out"] == 1
        assert not any("RARELEVEL" in w for w in ax.safeplot_report.warnings)
        plt.close(fig)


# -- progress bars -----------------------------------------------------------------------------


def test_a_progress_bar_never_prints_the_exact_number_of_records(capsys):
    """A reader of a notebook or a terminal log reads the bar's text.

    Before, the bar of a long microaggregation printed ``97611/100003`` and
    its rate in records per second: the exact number of records, which the
    report rounds to a multiple of 5.
    """
    from safeplot.methods import anonymize_values

    x = np.random.default_rng(5).normal(size=(100_003, 2))
    with safeplot.policy(progress=True):
        released = anonymize_values(x, "microaggregation")  # k: the policy's k_min
    err = capsys.readouterr().err
    assert "microaggregation" in err and "%|" in err
    assert released.values.shape == x.shape
    for shown in re.findall(r"\d+", err):
        assert int(shown) not in (100_003, 100_002, 100_001, 100_000), shown
    assert "record/s" not in err and "/100003" not in err


# -- the P-P plot, the biplot, parallel boxes, describe and chi-square -----------------------


def test_ppplot_does_not_give_the_exact_number_of_records_by_stepping_a():
    """Before, the curve began at the first grid point inside the points' range.

    The range's low end is ``(1 - a) / (n - 2a + 1)``, so the smallest ``a``
    at which the curve gains the grid point 0.02 gave n exactly (37 records
    where the report says 35), and for small n the first grid point alone did.
    """
    from safeplot.plots.okeefe import PP_GRID, PP_POSITIONS, release_pp

    rng = np.random.default_rng(3)
    starts = {}
    # small sizes: 6 and 7 records under a threshold of 3; a stricter threshold (5) needs at
    # least 8 records for a P-P curve, so there the smallest sizes tried are 8 and 9
    small = (6, 7) if safeplot.get_policy().threshold <= 3 else (8, 9)
    for n in (*small, 37, 38, 60, 98, 99):
        v = np.round(rng.normal(50, 10, n), 3)
        for a in PP_POSITIONS:
            rel = release_pp(v, a=a)
            assert np.array_equal(rel.x, PP_GRID)  # the same grid whatever n and a
            starts[n, a] = rel.x[0]
    assert set(starts.values()) == {PP_GRID[0]}
    # a free offset is refused, so there is no step to search for
    v = np.round(rng.normal(50, 10, 37), 3)
    for a in (0.25, 0.2499, 0.6327, 1e-9):
        with pytest.raises(ValueError, match="plotting positions"):
            safeplot.ppplot(v, a=a)
    assert audit.entries() == []


def test_describe_with_and_without_one_record_is_refused(data):
    """Differencing: n * mean - (n - 1) * mean' would be the record's value, up to rounding."""
    safeplot.describe(data.iloc[:-2][["x", "y"]])
    with pytest.raises(DisclosureError, match="differ by fewer than"):
        safeplot.describe(data.iloc[:-1][["x", "y"]])
    safeplot.describe(data.iloc[:-2][["x", "y"]].sample(frac=1.0, random_state=0))  # the same


def test_describe_with_and_without_one_record_gives_no_extreme(data):
    """Differencing in two sessions: the outlier changes only rounded, winsorised numbers."""
    with ledger.using(ledger.Ledger()):
        without = safeplot.describe(data.iloc[:-2][["x", "y"]])
    with ledger.using(ledger.Ledger()):
        with_one = safeplot.describe(data.iloc[:-1][["x", "y"]])
    for table in (without.table, with_one.table):
        assert "min" not in table.index and "max" not in table.index
        assert not _rare_hits(table.to_string(), _rare(data["x"], data["y"]))
    # the count is rounded: one record more does not show
    assert without.table.loc["count", "x"] == with_one.table.loc["count", "x"]
    # a mean moved by one winsorised record: the outlier is capped at mean + 2.6 SD first
    shift = with_one.table.loc["mean", "x"] - without.table.loc["mean", "x"]
    recovered = without.table.loc["mean", "x"] + 301 * shift
    assert abs(recovered - 25.123) > 5


def test_chi2_of_nested_tables_does_not_give_a_small_cell():
    """Two tables differing by one small level: the one with a small cell is refused."""
    rng = np.random.default_rng(8)
    df = pd.DataFrame({"a": rng.choice(["p", "q"], 400), "b": rng.choice(["u", "v"], 400)})
    rare = df.iloc[:2].assign(b="w")  # a level of two records
    with pytest.raises(DisclosureError):
        safeplot.chi2_contingency(pd.concat([df, rare], ignore_index=True), "a", "b")
    safeplot.chi2_contingency(df, "a", "b")
    assert len(audit.entries()) == 1


def test_html_display_escapes_names_and_shows_no_more_than_the_text(data):
    name = "<script>alert(1)</script>"
    df = data.rename(columns={"x": name})
    ax = safeplot.histplot(data=df, x=name)
    summary = safeplot.describe(df[[name, "y"]])
    html = ax.safeplot_report._repr_html_() + summary._repr_html_()
    html += audit.summary(file=io.StringIO())._repr_html_()
    assert "<script>" not in html and "&lt;script&gt;" in html
    rare = _rare(data["x"], data["y"])
    assert not _rare_hits(html, rare)
    # the numbers of the notebook view are those of the text
    text_numbers = set(NUMBER.findall(str(ax.safeplot_report) + str(summary)))
    html_numbers = set(NUMBER.findall(re.sub(r"<[^>]+>", " ", html)))
    extra = {v for v in html_numbers - text_numbers if "." in v}
    assert not extra, extra


def test_biplot_component_choice_and_hue_do_not_show_a_record(data):
    frame = data.assign(z=np.round(np.random.default_rng(9).normal(0, 1, len(data)), 3))
    rare = _rare(frame["x"], frame["y"], frame["z"])
    for components in ((1, 2), (1, 3), (2, 3)):
        ax = safeplot.biplot(frame, vars=["x", "y", "z"], hue="g", components=components)
        texts = [t.get_text() for t in ax.texts] + [ax.get_xlabel(), ax.get_ylabel()]
        legend = ax.get_legend()
        texts += [t.get_text() for t in legend.get_texts()] if legend is not None else []
        assert not _rare_hits(" ".join(texts), rare)
        drawn = np.concatenate(
            [np.asarray(ln.get_xydata(), float).ravel() for ln in ax.lines]
            + [np.asarray(c.get_offsets(), float).ravel() for c in ax.collections]
        )
        assert not _rare_hits(" ".join(repr(float(v)) for v in drawn), rare)
        plt.close(ax.figure)
    # a level of one record: left out with a note, and named nowhere in the figure or the log
    ax = safeplot.biplot(frame.assign(g=np.r_[frame["g"][:-1], ["solo"]]), hue="g")
    shown = [t.get_text() for t in ax.texts + ax.get_legend().get_texts()]
    assert "solo" not in " ".join(shown) and set(shown) >= {"a", "b"}
    assert "solo" not in audit.to_json()
    assert any("not named" in w for w in ax.safeplot_report.warnings)
