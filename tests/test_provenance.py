"""Tests of the provenance written into saved figures (safeplot.integrations.provenance)."""

from __future__ import annotations

import io
import json
import re
import warnings
import xml.etree.ElementTree as ET

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from PIL import Image

import safeplot
from safeplot import audit
from safeplot.integrations import provenance
from safeplot.keys import SecretKey
from safeplot.plots.distributions import hist
from safeplot.plots.relational import scatter
from safeplot.policy import Policy, set_policy

DC = "{http://purl.org/dc/elements/1.1/}"
MATERIAL = "very-secret-material-456"


def _data():
    rng = np.random.default_rng(3)
    x = np.r_[np.round(rng.normal(50, 10, 300), 3), 412.731, -97.113]
    y = np.r_[np.round(rng.normal(20, 4, 300), 3), -88.404, 301.219]
    return x, y


def _figure():
    x, y = _data()
    fig, (a1, a2) = plt.subplots(1, 2)
    hist(x, bins=20, ax=a1)
    scatter(x, y, method="deterministic", k=4, ax=a2)
    return fig


def _pdf_info(data: bytes) -> dict[str, str]:
    """The string entries of the PDF Info dictionary (matplotlib writes it uncompressed)."""
    info = {}
    for key in ("Creator", "Subject", "Keywords", "Title", "Producer"):
        m = re.search(rb"/" + key.encode() + rb" \(((?:\\.|[^\\)])*)\)", data)
        if m:
            info[key] = re.sub(rb"\\(.)", rb"\1", m.group(1)).decode("latin-1")
    return info


def _svg_meta(text: str) -> dict[str, str]:
    root = ET.fromstring(text)
    work = root.find(".//{http://creativecommons.org/ns#}Work")
    out = {}
    for child in work:
        tag = child.tag.replace(DC, "")
        title = child.find(f".//{DC}title")
        bag = [li.text for li in child.iter("{http://www.w3.org/1999/02/22-rdf-syntax-ns#}li")]
        out[tag] = bag if bag else (title.text if title is not None else child.text)
    return out


def _check_record(record, fig):
    assert record["safeplot_version"] == safeplot.__version__
    expected = [ax.safeplot_report.to_dict() for ax in fig.axes]
    assert record["axes"] == expected
    assert [a["method"] for a in record["axes"]] == ["suppress", "deterministic"]
    assert record["axes"][1]["params"]["k"] == 4
    assert record["audit_uids"] == [e.uid for e in audit.entries()]


def test_png_round_trip(tmp_path):
    fig = _figure()
    fig.savefig(tmp_path / "fig.png")
    with Image.open(tmp_path / "fig.png") as im:
        text = dict(im.text)
    assert text["Software"] == f"safeplot {safeplot.__version__}"
    assert "hist of x, method=suppress (threshold=3)" in text["Description"]
    _check_record(json.loads(text["safeplot"]), fig)


def test_pdf_round_trip(tmp_path):
    fig = _figure()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "unknown infodict keyword" warning
        fig.savefig(tmp_path / "fig.pdf")
    info = _pdf_info((tmp_path / "fig.pdf").read_bytes())
    assert info["Creator"] == f"safeplot {safeplot.__version__}"
    assert info["Subject"].startswith(f"safeplot {safeplot.__version__}: hist of x")
    _check_record(json.loads(info["Keywords"]), fig)


def test_svg_round_trip(tmp_path):
    fig = _figure()
    fig.savefig(tmp_path / "fig.svg")
    meta = _svg_meta((tmp_path / "fig.svg").read_text(encoding="utf-8"))
    assert meta["creator"] == f"safeplot {safeplot.__version__}"
    assert meta["subject"] == ["safeplot", "deterministic", "suppress"]
    _check_record(json.loads(meta["description"]), fig)


def test_format_from_keyword_and_file_object():
    fig = _figure()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    buf.seek(0)
    with Image.open(buf) as im:
        assert json.loads(im.text["safeplot"])["axes"][0]["method"] == "suppress"
    # a file object without a name records no file name
    assert all(e.files == () for e in audit.entries())


def test_figures_without_reports_are_untouched(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    fig.savefig(tmp_path / "plain.png")
    with Image.open(tmp_path / "plain.png") as im:
        assert "safeplot" not in im.text
        assert im.text["Software"].startswith("Matplotlib")
    fig.savefig(tmp_path / "plain.svg")
    assert "safeplot" not in (tmp_path / "plain.svg").read_text(encoding="utf-8")
    # byte for byte what matplotlib's own savefig writes
    a, b = io.BytesIO(), io.BytesIO()
    fig.savefig(a, format="png")
    Figure.savefig.__wrapped__(fig, b, format="png")
    assert a.getvalue() == b.getvalue()
    assert audit.entries() == []


def test_user_metadata_wins_except_the_record(tmp_path):
    fig = _figure()
    fig.savefig(tmp_path / "a.png", metadata={"Software": "my pipeline", "Title": "Age"})
    with Image.open(tmp_path / "a.png") as im:
        assert im.text["Software"] == "my pipeline"
        assert im.text["Title"] == "Age"
        assert "safeplot" in im.text
    with pytest.warns(UserWarning, match="cannot be replaced or removed"):
        fig.savefig(tmp_path / "b.png", metadata={"safeplot": '{"axes": []}'})
    with Image.open(tmp_path / "b.png") as im:
        assert json.loads(im.text["safeplot"])["axes"][0]["method"] == "suppress"
    with pytest.warns(UserWarning, match="'Title' or 'Subject'"):
        fig.savefig(tmp_path / "c.pdf", metadata={"Keywords": None, "Subject": "mine"})
    info = _pdf_info((tmp_path / "c.pdf").read_bytes())
    assert info["Subject"] == "mine"
    assert json.loads(info["Keywords"])["axes"]


def test_file_names_are_recorded_in_the_audit_log(tmp_path):
    fig = _figure()
    other, ax = plt.subplots()
    hist(_data()[1], ax=ax)
    fig.savefig(tmp_path / "fig.png")
    fig.savefig(str(tmp_path / "fig.pdf"))
    fig.savefig(tmp_path / "fig.png")  # saved again: listed once
    logged = audit.entries()
    assert [e.files for e in logged[:2]] == [
        (str(tmp_path / "fig.png"), str(tmp_path / "fig.pdf")),
    ] * 2
    assert logged[2].files == ()  # the other figure was not saved
    doc = json.loads(audit.export(tmp_path / "audit.json").read_text(encoding="utf-8"))
    assert doc["entries"][0]["files"] == [str(tmp_path / "fig.png"), str(tmp_path / "fig.pdf")]
    plt.close(other)


def test_safe_projection_figures_carry_provenance(tmp_path):
    fig = plt.figure()
    ax = fig.add_subplot(projection="safe")
    ax.hexbin(*_data(), gridsize=10, method="generalize")
    fig.savefig(tmp_path / "hex.png")
    with Image.open(tmp_path / "hex.png") as im:
        record = json.loads(im.text["safeplot"])
    assert record["axes"][0]["function"] == "hexbin"
    assert record["axes"][0]["method"] == "generalize"


def test_no_raw_value_and_no_key_in_the_metadata(tmp_path):
    set_policy(Policy(secret_key=SecretKey(MATERIAL, source="test")))
    x, y = _data()
    fig, ax = plt.subplots()
    scatter(x, y, method="probabilistic", ax=ax)
    for ext in ("png", "pdf", "svg"):
        fig.savefig(tmp_path / f"fig.{ext}")
        blob = (tmp_path / f"fig.{ext}").read_bytes()
        assert MATERIAL.encode() not in blob
        assert MATERIAL.encode().hex().encode() not in blob
    with Image.open(tmp_path / "fig.png") as im:
        text = im.text["safeplot"]
    numbers = {float(n) for n in re.findall(r"-?\d+\.\d+", text)}
    assert not numbers & {412.731, -97.113, -88.404, 301.219}


def test_install_is_idempotent():
    wrapped = Figure.savefig
    provenance.install()
    provenance.install()
    assert Figure.savefig is wrapped
    assert not getattr(Figure.savefig.__wrapped__, "_safeplot_provenance", False)


def test_subfigures_are_included(tmp_path):
    fig = plt.figure()
    left, right = fig.subfigures(1, 2)
    hist(_data()[0], ax=left.subplots())
    right.subplots().plot([1, 2], [3, 4])
    record = provenance.provenance(fig)
    assert [a["function"] for a in record["axes"]] == ["hist"]
