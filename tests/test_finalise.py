"""Tests of the output-checker bundle: safeplot.audit.finalise and ``safeplot finalise``."""

import csv
import hashlib
import itertools
import json
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import audit, bundle
from safeplot.release import DisclosureReport


@pytest.fixture
def session(tmp_path, monkeypatch):
    """Three saved figures, a crosstab and a model summary; the working folder is tmp_path."""
    monkeypatch.chdir(tmp_path)
    penguins = safeplot.load_dataset("penguins")
    figs = {}
    fig, ax = plt.subplots()
    safeplot.histplot(data=penguins, x="flipper_length_mm", ax=ax)
    fig.savefig("hist.png")
    figs["hist"] = ax
    fig, ax = plt.subplots()
    safeplot.scatterplot(
        data=penguins, x="bill_length_mm", y="body_mass_g", method="deterministic", ax=ax
    )
    fig.savefig("scatter.pdf")
    figs["scatter"] = ax
    fig, ax = plt.subplots()
    safeplot.boxplot(data=penguins, x="species", y="body_mass_g", ax=ax)
    fig.savefig("box.svg")
    figs["box"] = ax
    table = safeplot.crosstab(penguins, "species", "island")
    fit = safeplot.safe_ols("body_mass_g ~ flipper_length_mm", data=penguins)  # logs itself
    return {"figs": figs, "table": table, "fit": fit, "entries": audit.entries()}


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def results(path: Path) -> dict:
    return json.loads((path / "results.json").read_text(encoding="utf-8"))


def record_of(doc: dict, function: str) -> dict:
    (rec,) = [r for r in doc["results"].values() if r["properties"].get("method") == function]
    return rec


# -- the bundle ------------------------------------------------------------------------------


def test_bundle_layout(session, tmp_path):
    out = audit.finalise(tmp_path / "bundle")
    names = {p.name for p in out.iterdir()}
    uids = [e.uid for e in session["entries"]]
    assert {"hist.png", "scatter.pdf", "box.svg", "results.json", "safeplot_audit.json"} <= names
    assert {f"{uid}.csv" for uid in uids} <= names
    # the copies are the saved files, byte for byte
    for name in ("hist.png", "scatter.pdf", "box.svg"):
        assert (out / name).read_bytes() == (tmp_path / name).read_bytes()
    # a checksum per file, as ACRO writes them
    for name in names - {"checksums"}:
        digest = (out / "checksums" / f"{name}.txt").read_text(encoding="utf-8")
        assert digest == hashlib.sha256((out / name).read_bytes()).hexdigest()
    doc = results(out)
    assert list(doc["results"]) == [*uids, "safeplot_audit_log-DONT_RELEASE"]
    assert doc["version"] == bundle.results_version()
    assert doc["tool"]["name"] == "safeplot"


def test_records_map_the_audit_entries(session, tmp_path):
    doc = results(audit.finalise(tmp_path / "bundle"))
    types = {
        r["properties"]["method"]: r["type"] for r in doc["results"].values() if r["properties"]
    }
    assert types == {
        "histplot": "histogram",
        "scatterplot": "custom",
        "boxplot": "custom",
        "crosstab": "table",
        "safe_ols": "regression",
    }
    for entry in session["entries"]:
        rec = doc["results"][entry.uid]
        assert rec["status"] == entry.status
        assert rec["summary"] == entry.summary
        assert rec["timestamp"] == entry.timestamp
        assert rec["properties"]["mitigation"] == entry.method
        assert rec["properties"]["parameters"] == json.loads(json.dumps(entry.params))
        assert rec["comments"] == [f"safeplot warning: {w}" for w in entry.report["warnings"]]
        names = [f["name"] for f in rec["files"]]
        assert names[-1] == f"{entry.uid}.csv"
        assert names[:-1] == [Path(f).name for f in entry.files]
    hist = record_of(doc, "histplot")
    assert hist["outcome"]["value"]["threshold"] == 3
    assert hist["outcome"]["floor"]["threshold"] == 3
    assert hist["fair"]["check_status"]["method"] == "pass"
    assert (
        hist["files"][0]["sdc"]["summary"]["cells_suppressed"]
        == (session["entries"][0].report["cells_suppressed"])
    )
    assert record_of(doc, "safe_ols")["properties"]["dof"] == session["fit"].df_resid


def test_histogram_csv_equals_the_drawn_bars(session, tmp_path):
    out = audit.finalise(tmp_path / "bundle")
    entry = session["entries"][0]
    rows = read_csv(out / f"{entry.uid}.csv")
    drawn = sorted(
        (p.get_x(), p.get_x() + p.get_width(), p.get_height())
        for p in session["figs"]["hist"].patches
    )
    shown = [
        (float(r["bin_left"]), float(r["bin_right"]), float(r["count"]))
        for r in rows
        if r["count"] not in ("", "0.0")
    ]
    assert shown == drawn  # exactly: floats are written at full precision
    # bins between the shown ones are in the CSV too; suppressed bins at the ends are cut
    edges = [(float(r["bin_left"]), float(r["bin_right"])) for r in rows]
    assert all(a[1] == b[0] for a, b in itertools.pairwise(edges))


def test_suppressed_bins_are_blank_and_flagged(tmp_path):
    from safeplot.release import HistogramRelease

    report = DisclosureReport("histplot", "suppress", {"threshold": 3}, ("x",), cells_suppressed=2)
    rel = HistogramRelease(
        np.array([0.0, 0.5, 1.0, 1.5, 2.0]),
        np.array([4.0, np.nan, 7.0, np.nan]),
        (0.0, 2.0),
        np.array([0.0, 1.0, 2.0]),
        report,
    )
    entry = audit.record(report, released=rel)
    out = audit.finalise(tmp_path / "bundle")
    rows = read_csv(out / f"{entry.uid}.csv")
    assert [r["count"] for r in rows] == ["4.0", "", "7.0", ""]
    assert [r["suppressed"] for r in rows] == ["False", "True", "False", "True"]
    sdc = results(out)["results"][entry.uid]["files"][0]["sdc"]
    assert sdc["cells"]["cells_suppressed"] == [[1, 3], [3, 3]]  # (row, column) in the CSV
    assert sdc["summary"]["cells_suppressed"] == 2


def test_table_model_and_points_csvs_equal_the_release(session, tmp_path):
    out = audit.finalise(tmp_path / "bundle")
    uid = {e.function: e.uid for e in session["entries"]}
    table = pd.read_csv(out / f"{uid['crosstab']}.csv", index_col=0)
    expected = session["table"]
    assert list(table.columns) == [str(c) for c in expected.columns]
    np.testing.assert_array_equal(table.to_numpy(float), expected.to_numpy(float))
    coef = pd.read_csv(out / f"{uid['safe_ols']}.csv", index_col=0)
    frame = session["fit"].summary_frame()
    np.testing.assert_array_equal(coef.to_numpy(float), frame.to_numpy(float))
    assert list(coef.index) == list(frame.index)
    points = pd.read_csv(out / f"{uid['scatterplot']}.csv")
    offsets = np.vstack([c.get_offsets() for c in session["figs"]["scatter"].collections])
    np.testing.assert_array_equal(
        np.sort(points.to_numpy(float), axis=0), np.sort(np.asarray(offsets, float), axis=0)
    )


def test_released_numbers_are_in_the_exported_log(session, tmp_path):
    crosstab = dict(
        columns=["species", "Biscoe", "Dream", "Torgersen"],
        data=[[k, *map(float, v)] for k, v in session["table"].iterrows()],
    )
    report = DisclosureReport("describe", "confidential", {}, ("x",))
    audit.record(report, released=pd.DataFrame({"x": [1.5, np.nan]}, index=["mean", "min"]))

    def refuse(name):
        raise AssertionError(f"{name} in the exported log")

    text = audit.export(tmp_path / "audit.json").read_text(encoding="utf-8")
    doc = json.loads(text, parse_constant=refuse)  # strict JSON: no NaN
    hist = doc["entries"][0]["released"]
    assert hist["columns"] == ["level", "bin_left", "bin_right", "count", "suppressed"]
    assert doc["entries"][3]["released"] == crosstab
    assert doc["entries"][-1]["released"]["data"] == [["mean", 1.5], ["min", None]]


def test_entry_without_files_or_numbers_still_has_a_file(tmp_path):
    entry = audit.record(DisclosureReport("kdeplot", "probabilistic", {"q": 0.25}, ("x",)))
    out = audit.finalise(tmp_path / "bundle")
    rec = results(out)["results"][entry.uid]
    assert [f["name"] for f in rec["files"]] == [f"{entry.uid}_report.json"]
    assert json.loads((out / f"{entry.uid}_report.json").read_text())["method"] == "probabilistic"


def test_raw_output_fails(tmp_path):
    entry = audit.record(DisclosureReport("histplot", "none", {}, ("x",)))
    rec = results(audit.finalise(tmp_path / "bundle"))["results"][entry.uid]
    assert rec["status"] == "fail"
    assert rec["fair"]["check_status"]["method"] == "fail"


# -- ACRO's loader ------------------------------------------------------------------------


def test_acro_loads_the_bundle(session, tmp_path):
    record = pytest.importorskip("acro.record", reason="ACRO is not installed")
    out = audit.finalise(tmp_path / "bundle")
    records = record.load_records(str(out))
    doc = results(out)
    assert records.get_keys() == list(doc["results"])
    for entry in session["entries"]:
        rec = records.get(entry.uid)
        assert rec.status == entry.status
        assert rec.output_type == bundle.ACRO_TYPES.get(entry.function, "custom")
        assert rec.fair["check_status"] == doc["results"][entry.uid]["fair"]["check_status"]
        assert rec.sdc == doc["results"][entry.uid]["files"][0]["sdc"]
        assert list(rec.outcome.columns) == ["status", "value", "floor"]
        (loaded,) = rec.output  # the CSV, read back by ACRO as a DataFrame
        assert list(loaded.columns) == entry.released["columns"]
        assert len(loaded) == len(entry.released["data"])


def test_merge_with_an_acro_session(session, tmp_path):
    acro = pytest.importorskip("acro", reason="ACRO is not installed")
    from acro.record import load_records

    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"a": rng.choice(list("xyz"), 60), "b": rng.choice(list("pq"), 60)})
    acro_session = acro.ACRO(suppress=True)
    acro_session.crosstab(frame.a, frame.b)
    before = acro_session.results.get_keys()
    out = audit.finalise(tmp_path / "bundle", acro=acro_session)
    assert acro_session.results.get_keys() == before  # the session is left as it was
    records = load_records(str(out))
    uids = [e.uid for e in session["entries"]]
    assert set(uids) | {"output_0"} <= set(records.get_keys())
    assert records.get("output_0").output_type == "table"
    assert records.get("output_0").status == "review"
    assert records.get(uids[0]).output_type == "histogram"
    assert results(out)["tool"]["merged"][0]["name"] == "ACRO"


def test_merge_with_an_acro_folder_keeps_uids_unique(tmp_path, monkeypatch):
    acro = pytest.importorskip("acro", reason="ACRO is not installed")
    from acro.record import load_records

    monkeypatch.chdir(tmp_path)
    frame = pd.DataFrame({"a": list("xxxxyyyy") * 3, "b": list("pqpqpqpq") * 3})
    acro_session = acro.ACRO(suppress=True)
    acro_session.crosstab(frame.a, frame.b)
    acro_session.finalise("acro_out", "json")
    # a safeplot release whose uid and file name clash with ACRO's
    report = DisclosureReport("crosstab", "suppress", {"threshold": 3}, ("a", "b"))
    audit.record(report, released={"columns": ["a", "p"], "data": [["x", 6]]})
    monkeypatch.setattr(audit, "_log", [audit.dataclasses.replace(audit._log[0], uid="output_0")])
    out = audit.finalise(tmp_path / "bundle", acro="acro_out")
    records = load_records(str(out))
    assert {"output_0", "acro_output_0"} <= set(records.get_keys())
    assert records.get("output_0").properties["tool"].startswith("safeplot")
    assert records.get("acro_output_0").properties["method"] == "crosstab"
    names = [f["name"] for r in results(out)["results"].values() for f in r["files"]]
    assert len(names) == len(set(names))


# -- bad inputs ---------------------------------------------------------------------------


def test_existing_non_empty_folder_is_refused(tmp_path):
    (tmp_path / "bundle").mkdir()
    (tmp_path / "bundle" / "old.txt").write_text("x")
    with pytest.raises(ValueError, match="exists and is not empty"):
        audit.finalise(tmp_path / "bundle")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is not a folder"):
        audit.finalise(tmp_path / "file")


def test_empty_folder_is_accepted(tmp_path):
    (tmp_path / "bundle").mkdir()
    assert (audit.finalise(tmp_path / "bundle") / "results.json").is_file()


def test_acro_folder_without_results_is_refused(tmp_path):
    (tmp_path / "acro_out").mkdir()
    with pytest.raises(ValueError, match=r"has no results\.json"):
        audit.finalise(tmp_path / "bundle", acro=tmp_path / "acro_out")
    assert not (tmp_path / "bundle").exists()  # nothing written
    with pytest.raises(ValueError, match="is not a folder"):
        audit.finalise(tmp_path / "bundle", acro=tmp_path / "missing")
    with pytest.raises(TypeError, match="acro must be"):
        audit.finalise(tmp_path / "bundle", acro=42)


def test_missing_figure_file_is_refused(session, tmp_path):
    (tmp_path / "hist.png").unlink()
    with pytest.raises(ValueError, match=r"'hist.png' .* does not exist"):
        audit.finalise(tmp_path / "bundle")
    assert not (tmp_path / "bundle").exists()


def test_bad_log_is_refused(tmp_path):
    (tmp_path / "log.json").write_text('{"entries": 3}')
    with pytest.raises(ValueError, match="not a safeplot audit log"):
        audit.finalise(tmp_path / "bundle", log=tmp_path / "log.json")
    with pytest.raises(ValueError, match="cannot read the audit log"):
        audit.finalise(tmp_path / "bundle", log=tmp_path / "none.json")


def test_record_model_refuses_other_objects():
    with pytest.raises(TypeError, match="fitted safe model"):
        audit.record_model(pd.DataFrame())


# -- the command line ---------------------------------------------------------------------


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "safeplot", "finalise", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_cli_finalises_an_exported_log(session, tmp_path):
    audit.export(tmp_path / "audit.json")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # run from another folder: the figures are found beside the log
    done = run_cli(str(tmp_path / "bundle"), "--log", str(tmp_path / "audit.json"), cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stdout
    doc = results(tmp_path / "bundle")
    assert list(doc["results"])[:5] == [e.uid for e in session["entries"]]
    assert (tmp_path / "bundle" / "hist.png").read_bytes() == (tmp_path / "hist.png").read_bytes()
    again = run_cli(str(tmp_path / "bundle"), "--log", str(tmp_path / "audit.json"), cwd=elsewhere)
    assert again.returncode == 1
    assert "exists and is not empty" in again.stderr


def test_cli_help_and_required_log(tmp_path):
    done = run_cli("--help", cwd=tmp_path)
    assert done.returncode == 0
    assert "--log AUDIT.json" in done.stdout and "--acro FOLDER" in done.stdout
    missing = run_cli(str(tmp_path / "b"), cwd=tmp_path)
    assert missing.returncode == 2
    assert "--log" in missing.stderr
