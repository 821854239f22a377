"""Tests of safeplot.audit: the log of releases and its JSON export."""

import dataclasses
import io
import json
import threading
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

import safeplot
from safeplot import audit
from safeplot.audit import AuditEntry
from safeplot.keys import SecretKey
from safeplot.policy import Policy, set_policy
from safeplot.release import DisclosureReport

MATERIAL = "very-secret-material-123"


def make_report(function="histplot", method="suppress", **kws):
    kws.setdefault("params", {"threshold": 3})
    kws.setdefault("variables", ("age",))
    return DisclosureReport(function, method, **kws)


def test_log_starts_empty():
    assert audit.entries() == []


def test_record_fills_entry_from_report():
    report = make_report(
        "scatterplot",
        "deterministic",
        params={"k": np.int64(5)},
        variables=("x", "y"),
        n=500,
        cells_suppressed=2,
        warnings=["w"],
        details={"n_coincident": 4},
        policy="built-in defaults",
    )
    entry = audit.record(report, figure="figure-1")
    assert isinstance(entry, AuditEntry)
    assert entry.function == "scatterplot"
    assert entry.variables == ("x", "y")
    assert entry.method == "deterministic"
    assert entry.params == {"k": 5}
    assert type(entry.params["k"]) is int  # plain JSON types
    assert entry.report == report.to_dict()
    assert entry.figure == "figure-1"
    assert entry.sequence == 1


def test_entry_time_is_utc_iso8601():
    before = datetime.now(timezone.utc)
    entry = audit.record(make_report())
    after = datetime.now(timezone.utc)
    stamp = datetime.fromisoformat(entry.time)
    assert stamp.utcoffset() == timedelta(0)
    assert before - timedelta(milliseconds=1) <= stamp <= after


def test_entry_is_frozen_and_hashable():
    entry = audit.record(make_report())
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.method = "none"
    assert hash(entry) == hash(audit.entries()[0])
    assert entry == audit.entries()[0]


def test_figure_defaults_to_none():
    assert audit.record(make_report()).figure is None


def test_record_refuses_other_objects():
    with pytest.raises(TypeError, match="DisclosureReport, got dict"):
        audit.record({"method": "suppress"})
    with pytest.raises(TypeError, match="figure must be a string"):
        audit.record(make_report(), figure=3)
    assert audit.entries() == []


def test_figure_is_keyword_only():
    with pytest.raises(TypeError):
        audit.record(make_report(), "figure-1")


def test_sequence_numbers_and_order():
    for i in range(5):
        audit.record(make_report(f"plot{i}"))
    logged = audit.entries()
    assert [e.sequence for e in logged] == [1, 2, 3, 4, 5]
    assert [e.function for e in logged] == [f"plot{i}" for i in range(5)]
    times = [e.time for e in logged]
    assert times == sorted(times)


def test_clear_empties_and_restarts_numbering():
    audit.record(make_report())
    audit.record(make_report())
    audit.clear()
    assert audit.entries() == []
    assert audit.record(make_report()).sequence == 1


def test_entries_is_a_copy():
    audit.record(make_report())
    logged = audit.entries()
    logged.clear()
    assert len(audit.entries()) == 1
    audit.entries()[0].params["threshold"] = 1
    audit.entries()[0].report["method"] = "none"
    assert audit.entries()[0].params == {"threshold": 3}
    assert audit.entries()[0].report["method"] == "suppress"


def test_record_result_does_not_alias_log():
    entry = audit.record(make_report())
    entry.params["threshold"] = 1
    assert audit.entries()[0].params == {"threshold": 3}


def test_report_changed_after_recording_does_not_change_log():
    report = make_report()
    audit.record(report)
    report.params["threshold"] = 1
    report.warnings.append("late")
    assert audit.entries()[0].params == {"threshold": 3}
    assert audit.entries()[0].report["warnings"] == []


def test_entry_to_dict():
    entry = audit.record(make_report(), figure="f")
    data = entry.to_dict()
    assert data == {
        "time": entry.time,
        "function": "histplot",
        "variables": ["age"],
        "method": "suppress",
        "params": {"threshold": 3},
        "report": entry.report,
        "figure": "f",
        "sequence": 1,
        "policy": entry.policy,
        "uid": entry.uid,
        "status": "pass",
        "type": "histogram",
        "summary": "histplot of age: suppress (threshold=3); n=0",
        "timestamp": entry.time,
        "files": [],
        "released": None,
    }
    assert data["policy"]["threshold"] == 3
    json.dumps(data)


def test_record_keeps_the_released_numbers():
    table = {"columns": ["a", "n"], "data": [["x", 4], ["y", None]]}
    entry = audit.record(make_report("crosstab"), released=table)
    assert entry.released == table
    table["data"].append(["z", 9])  # the log keeps its own copy
    assert audit.entries()[0].released["data"] == [["x", 4], ["y", None]]
    entries = audit.entries()
    entries[0].released["data"].clear()
    assert len(audit.entries()[0].released["data"]) == 2


def test_released_points_are_logged_as_read_only_rows_of_floats():
    import matplotlib.pyplot as plt
    import pandas as pd

    from safeplot._released import FloatRows

    rng = np.random.default_rng(4)
    df = pd.DataFrame({"x": rng.normal(size=300), "y": rng.normal(size=300)})
    fig, ax = plt.subplots()
    safeplot.scatterplot(data=df, x="x", y="y", method="probabilistic", ax=ax)
    plt.close(fig)
    (entry,) = audit.entries()
    rows = entry.released["data"]
    assert isinstance(rows, FloatRows)
    drawn = ax.collections[0].get_offsets()
    as_lists = np.asarray(drawn, dtype=float).tolist()
    assert rows == as_lists and len(rows) == 300
    assert rows[0] == as_lists[0] and rows[-1] == as_lists[-1] and rows[1:3] == as_lists[1:3]
    assert all(type(v) is float for row in rows for v in row)
    # read-only: the log cannot be changed through an entry
    with pytest.raises(ValueError, match="read-only"):
        rows._array[0, 0] = 0.0
    assert not hasattr(rows, "append") and not hasattr(rows, "clear")
    # the export holds plain lists, equal to the rows
    doc = json.loads(audit.to_json())
    assert doc["entries"][0]["released"]["data"] == as_lists
    assert entry.to_dict()["released"]["data"] == as_lists
    assert rows != as_lists[:-1] and rows != [*as_lists[:-1], [0.0, 0.0]]


def test_float_rows_keep_their_own_copy():
    from safeplot._released import FloatRows

    values = np.array([[1.0, 2.0], [3.0, 4.0]])
    rows = FloatRows(values)
    values[0, 0] = 99.0
    assert rows == [[1.0, 2.0], [3.0, 4.0]]
    assert rows == FloatRows([[1.0, 2.0], [3.0, 4.0]])
    assert list(rows) == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(IndexError):
        rows[2]
    with pytest.raises(ValueError, match="2-D"):
        FloatRows([1.0, 2.0])


def test_plots_and_tables_log_what_they_released():
    import matplotlib.pyplot as plt
    import pandas as pd

    df = pd.DataFrame({"x": np.random.default_rng(1).normal(size=200)})
    df["g"] = np.where(df["x"] > 0, "a", "b")
    df["h"] = np.where(np.arange(200) % 2 == 0, "p", "q")
    fig, ax = plt.subplots()
    safeplot.histplot(data=df, x="x", ax=ax)
    table = safeplot.crosstab(df, "g", "h")
    hist, cross = audit.entries()
    heights = sorted(p.get_height() for p in ax.patches)
    counts = [row[3] for row in hist.released["data"]]
    assert sorted(c for c in counts if c) == heights
    assert cross.released["columns"] == ["g", *map(str, table.columns)]
    assert [row[1:] for row in cross.released["data"]] == table.to_numpy(float).tolist()


def test_record_model_logs_the_coefficient_table():
    fit = safeplot.safe_ols("y ~ x", data=safeplot.datasets.simulate("D1", n=200, seed=1))
    entry = audit.record_model(fit)
    assert (entry.function, entry.method, entry.type) == ("safe_ols", "confidential", "regression")
    frame = fit.summary_frame()
    assert entry.released["columns"] == ["index", *frame.columns]
    assert [row[1:] for row in entry.released["data"]] == frame.to_numpy(float).tolist()
    assert entry.report["n"] == fit.nobs
    assert entry.variables == ("y", "x")
    with pytest.raises(TypeError, match="fitted safe model"):
        audit.record_model(object())


def test_export_round_trip(tmp_path):
    audit.record(make_report("histplot", n=500, cells_suppressed=3), figure="hist.png")
    audit.record(
        make_report("scatterplot", "deterministic", params={"k": 5}, variables=("x", "y"))
    )
    out = audit.export(tmp_path / "audit.json")
    assert out == tmp_path / "audit.json"
    with out.open(encoding="utf-8") as fh:
        doc = json.load(fh)
    assert set(doc) == {"safeplot_version", "created", "policy", "entries"}
    assert doc["safeplot_version"] == safeplot.__version__
    assert datetime.fromisoformat(doc["created"]).utcoffset() == timedelta(0)
    assert [e["sequence"] for e in doc["entries"]] == [1, 2]
    assert [e["function"] for e in doc["entries"]] == ["histplot", "scatterplot"]
    assert doc["entries"][0]["figure"] == "hist.png"
    assert doc["entries"][0]["report"]["cells_suppressed"] == 3
    assert doc["entries"][1]["variables"] == ["x", "y"]
    assert doc["entries"][1]["params"] == {"k": 5}
    assert doc["entries"] == [e.to_dict() for e in audit.entries()]


def test_export_accepts_string_path_and_replaces_file(tmp_path):
    target = tmp_path / "audit.json"
    target.write_text("old", encoding="utf-8")
    out = audit.export(str(target))
    assert out == target
    assert json.loads(target.read_text(encoding="utf-8"))["entries"] == []


def test_export_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        audit.export(tmp_path / "no" / "such" / "audit.json")


def test_export_text_is_sorted_indented_utf8(tmp_path):
    audit.record(make_report(variables=("größe",)), figure="Abb. 1 — Größe")
    text = audit.to_json()
    assert text.startswith("{\n  ")
    assert text.endswith("\n")
    assert "größe" in text  # not \u-escaped
    doc = json.loads(text)
    assert text.rstrip("\n") == json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False)
    out = audit.export(tmp_path / "audit.json")
    assert json.loads(out.read_bytes().decode("utf-8"))["entries"] == doc["entries"]


def test_export_policy_section():
    set_policy(
        threshold=7,
        k_min=4,
        q_min=0.5,
        winsor_sd=2.0,
        sig_figs=2,
        allowed_methods=["suppress", "deterministic"],
        locked=True,
    )
    doc = json.loads(audit.to_json())
    assert doc["policy"] == {
        "source": "built-in defaults",
        "threshold": 7,
        "k_min": 4,
        "q_min": 0.5,
        "winsor_sd": 2.0,
        "sig_figs": 2,
        "round_n_to": 5,
        "allow_raw": False,
        "allowed_methods": ["deterministic", "suppress"],
        "locked": True,
    }


def test_export_policy_source_from_file(tmp_path, monkeypatch):
    path = tmp_path / "policy.toml"
    path.write_text("threshold = 10\nlocked = true\n", encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    safeplot.policy._reset()
    doc = json.loads(audit.to_json())
    assert str(path) in doc["policy"]["source"]
    assert doc["policy"]["threshold"] == 10
    assert doc["policy"]["locked"] is True


def test_secret_key_never_exported(tmp_path):
    set_policy(Policy(secret_key=SecretKey(MATERIAL, source="test")))
    assert safeplot.get_policy().key == SecretKey(MATERIAL)
    # A report that somehow carries the key object still shows only its repr.
    audit.record(
        make_report(details={"key": safeplot.get_policy().secret_key}, policy="test"),
        figure="f1",
    )
    text = audit.to_json()
    out = audit.export(tmp_path / "audit.json")
    for blob in (
        text,
        out.read_text(encoding="utf-8"),
        repr(audit.entries()),
        str(audit.entries()),
    ):
        assert MATERIAL not in blob
        assert MATERIAL.encode().hex() not in blob
    assert "secret" not in json.loads(text)["policy"]
    assert not any("key" in name for name in json.loads(text)["policy"])


def test_secret_key_from_policy_file_never_exported(tmp_path, monkeypatch):
    (tmp_path / "noise.key").write_text(MATERIAL, encoding="utf-8")
    path = tmp_path / "policy.toml"
    path.write_text('secret_file = "noise.key"\nlocked = true\n', encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    safeplot.policy._reset()
    audit.record(make_report())
    assert MATERIAL not in audit.export(tmp_path / "audit.json").read_text(encoding="utf-8")


def test_thread_safety():
    n_threads, per_thread = 8, 250
    barrier = threading.Barrier(n_threads)
    returned = [[] for _ in range(n_threads)]

    def work(i):
        barrier.wait()
        for j in range(per_thread):
            entry = audit.record(make_report(f"t{i}", params={"j": j}))
            returned[i].append(entry.sequence)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    logged = audit.entries()
    total = n_threads * per_thread
    assert len(logged) == total
    assert [e.sequence for e in logged] == list(range(1, total + 1))
    assert sorted(s for seqs in returned for s in seqs) == list(range(1, total + 1))
    for i in range(n_threads):
        # each thread's entries appear in the order it recorded them
        mine = [e.params["j"] for e in logged if e.function == f"t{i}"]
        assert mine == list(range(per_thread))
        assert returned[i] == sorted(returned[i])
    json.loads(audit.to_json())


def test_export_while_recording():
    done = threading.Event()

    def writer():
        for _ in range(1000):
            audit.record(make_report())
        done.set()

    t = threading.Thread(target=writer)
    t.start()
    try:
        while not done.is_set():
            doc = json.loads(audit.to_json())
            seqs = [e["sequence"] for e in doc["entries"]]
            assert seqs == list(range(1, len(seqs) + 1))
    finally:
        t.join()
    assert len(audit.entries()) == 1000


def test_each_entry_records_the_floors_it_was_released_under():
    audit.record(DisclosureReport("histplot", "suppress", {"threshold": 3}, ("x",)))
    with safeplot.policy(threshold=10, k_min=7):
        audit.record(DisclosureReport("histplot", "suppress", {"threshold": 10}, ("x",)))
    first, second = (e.to_dict()["policy"] for e in audit.entries())
    assert (first["threshold"], first["k_min"]) == (3, 3)
    assert (second["threshold"], second["k_min"]) == (10, 7)
    assert "secret_key" not in second


# -- fields for output checkers --------------------------------------------------------------
def test_uid_is_unique_and_starts_with_the_sequence():
    uids = [audit.record(make_report()).uid for _ in range(3)]
    assert len(set(uids)) == 3
    assert [u.split("-")[0] for u in uids] == ["0001", "0002", "0003"]
    audit.clear()
    assert audit.record(make_report()).uid not in uids


@pytest.mark.parametrize(
    ("method", "warnings", "status"),
    [
        ("suppress", [], "pass"),
        ("deterministic", ["rows dropped"], "review"),
        ("none", [], "fail"),
    ],
)
def test_status(method, warnings, status):
    entry = audit.record(make_report(method=method, warnings=warnings))
    assert entry.status == status
    assert audit.status_of(make_report(method=method, warnings=warnings)) == status
    assert status in audit.STATUSES


def test_type_summary_timestamp_files():
    entry = audit.record(
        make_report(
            "scatterplot",
            "deterministic",
            params={"k": 5},
            variables=("x", "y"),
            n=300,
            cells_suppressed=2,
            warnings=["w1", "w2"],
        ),
        figure="f",
    )
    assert entry.type == "scatter plot"
    assert entry.summary == (
        "scatterplot of x, y: deterministic (k=5); n=300; 2 cells suppressed; 2 warnings"
    )
    assert entry.timestamp == entry.time
    assert entry.files == ()
    assert audit.output_type("something_new") == "something_new"


def test_add_files():
    audit.record(make_report(), figure="fig-a")
    audit.record(make_report("scatterplot"), figure="fig-b")
    audit.record(make_report("boxplot"), figure="fig-a")
    updated = audit.add_files("fig-a", ["a.png"])
    assert [e.function for e in updated] == ["histplot", "boxplot"]
    audit.add_files("fig-a", ["a.pdf", "a.png"])
    assert [e.files for e in audit.entries()] == [("a.png", "a.pdf"), (), ("a.png", "a.pdf")]
    assert audit.add_files("no-such-figure", ["x.png"]) == []


def test_export_has_the_output_checker_fields(tmp_path):
    audit.record(make_report(n=500), figure="f1")
    audit.add_files("f1", ["hist.png"])
    doc = json.loads(audit.export(tmp_path / "audit.json").read_text(encoding="utf-8"))
    (entry,) = doc["entries"]
    for key in ("uid", "status", "type", "method", "params", "summary", "timestamp", "files"):
        assert key in entry, key
    assert entry["files"] == ["hist.png"]
    assert entry["status"] == "pass"
    assert entry["type"] == "histogram"
    assert datetime.fromisoformat(entry["timestamp"]).utcoffset() == timedelta(0)


def test_export_of_a_real_plot_and_saved_file(tmp_path):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    safeplot.histplot(x=np.random.default_rng(0).normal(size=300), ax=ax)
    fig.savefig(tmp_path / "h.png")
    doc = json.loads(audit.to_json())
    (entry,) = doc["entries"]
    assert entry["function"] == "histplot"
    assert entry["files"] == [str(tmp_path / "h.png")]
    assert entry["summary"].startswith("histplot of ")


def test_summary_prints_a_table(capsys):
    audit.record(make_report(n=500, cells_suppressed=3), figure="f1")
    audit.record(make_report("scatterplot", "none", params={}, variables=("x", "y")))
    audit.add_files("f1", ["/some/folder/hist.png"])
    text = audit.summary()
    assert capsys.readouterr().out == text + "\n"
    lines = text.splitlines()
    assert lines[0] == "safeplot audit log: 2 releases"
    assert lines[1].split() == [
        "uid",
        "status",
        "type",
        "method",
        "parameters",
        "files",
        "timestamp",
    ]
    first, second = audit.entries()
    assert lines[3].split()[:6] == [
        first.uid,
        "pass",
        "histogram",
        "suppress",
        "threshold=3",
        "hist.png",
    ]
    assert lines[4].split()[:5] == [second.uid, "fail", "scatter", "plot", "none"]
    assert (
        f"{first.uid}  histplot of age: suppress (threshold=3); n=500; 3 cells suppressed" in text
    )
    assert all(line == line.rstrip() for line in lines)


def test_summary_of_an_empty_log(capsys):
    assert audit.summary() == "safeplot audit log: 0 releases"
    assert capsys.readouterr().out == "safeplot audit log: 0 releases\n"


def test_summary_and_file_names_never_show_the_key(tmp_path):
    set_policy(Policy(secret_key=SecretKey(MATERIAL, source="test")))
    audit.record(make_report(details={"key": safeplot.get_policy().secret_key}), figure="f")
    audit.add_files("f", ["out.png"])
    text = audit.summary(file=io.StringIO())
    assert MATERIAL not in text and MATERIAL.encode().hex() not in text
    assert MATERIAL not in audit.to_json()
