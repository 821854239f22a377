"""The guides state what the code does: settings, defaults, fields, links and numbers.

The custodian guide's table of policy settings must list every field of
:class:`safeplot.policy.Policy` with its actual default; the output-checker
guide must list every field of a disclosure report, of an audit entry and of
the exported document. Each check is a function that returns the problems
it finds, and is also run on a deliberately wrong copy of the text, so the
test is seen to fail when the docs and the code part.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import numpy as np
import pytest

import safeplot
from safeplot import audit
from safeplot.policy import METHODS, Policy
from safeplot.release import DisclosureReport

from .ledgers import alone

DOCS = Path(__file__).resolve().parent.parent / "docs"
GALLERY = DOCS.parent / "gallery"
GUIDES = ("guide_analysts", "guide_custodians", "guide_output_checkers", "comparison")


def read(name: str) -> str:
    return (DOCS / f"{name}.rst").read_text(encoding="utf-8")


def table_after(text: str, anchor: str) -> str:
    """Return the list-table that follows `anchor`: its lines up to the next unindented text."""
    start = text.index(anchor)
    start = text.index(".. list-table::", start)
    lines = text[start:].splitlines()
    block = [lines[0]]
    for line in lines[1:]:
        if line and not line[0].isspace():
            break
        block.append(line)
    return "\n".join(block)


def first_cells(table: str) -> list[str]:
    """The literal in the first cell of each row (``* - ``name````)."""
    return re.findall(r"^\s*\* - ``([A-Za-z_][\w.]*)``\s*$", table, flags=re.MULTILINE)


# -- the custodian guide: every Policy setting and its default ------------------------


def render(value: object) -> str:
    """A default as the guide writes it (TOML for file settings, Python for the others)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "None"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, frozenset):
        return "[" + ", ".join(json.dumps(m) for m in METHODS if m in value) + "]"
    return repr(value)


def policy_table_problems(text: str) -> list[str]:
    """Return what the settings table gets wrong about Policy (empty when it is right)."""
    table = table_after(text, ".. list-table:: Policy settings")
    rows = dict(
        re.findall(r"^\s*\* - ``(\w+)``\s*\n\s*- ``(.*?)``\s*$", table, flags=re.MULTILINE)
    )
    problems = []
    for f in dataclasses.fields(Policy):
        default = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        if f.name not in rows:
            problems.append(f"{f.name} is not in the settings table")
        elif rows[f.name] != render(default):
            problems.append(f"{f.name}: guide says {rows[f.name]}, code says {render(default)}")
    extra = set(rows) - {f.name for f in dataclasses.fields(Policy)}
    problems += [f"{name} is in the table but is not a Policy field" for name in sorted(extra)]
    return problems


def test_every_policy_setting_is_in_the_custodian_guide_with_its_default():
    assert policy_table_problems(read("guide_custodians")) == []


def test_policy_defaults_are_what_the_guide_renders():
    # an independent statement of the defaults, so a change in either place shows
    p = Policy()
    assert (p.threshold, p.k_min, p.q_min, p.winsor_sd, p.sig_figs, p.round_n_to) == (
        3,
        3,
        0.25,
        2.6,
        3,
        5,
    )
    assert (p.allow_raw, p.annotate, p.locked, p.secret_key) == (False, True, False, None)
    assert (p.default_binned, p.default_point) == ("suppress", "deterministic")
    assert p.allowed_methods == frozenset(METHODS)
    assert render(p.allowed_methods).startswith('["suppress", "generalize"')


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("   * - ``threshold``\n     - ``3``", "   * - ``threshold``\n     - ``5``", "threshold"),
        ("   * - ``allow_raw``\n     - ``false``", "   * - ``allow_raw``\n     - ``true``", "raw"),
        ("   * - ``k_min``\n", "   * - ``k_minimum``\n", "k_min is not in"),
    ],
)
def test_the_policy_check_fails_on_a_wrong_guide(old, new, expected):
    text = read("guide_custodians")
    assert old in text
    problems = policy_table_problems(text.replace(old, new, 1))
    assert problems
    assert any(expected in p for p in problems)


def test_the_policy_check_fails_on_a_new_setting(monkeypatch):
    @dataclasses.dataclass(frozen=True)
    class Wider(Policy):
        max_levels: int = 40

    monkeypatch.setitem(globals(), "Policy", Wider)
    assert policy_table_problems(read("guide_custodians")) == [
        "max_levels is not in the settings table"
    ]


def test_policy_file_keys_are_named_in_the_custodian_guide():
    text = read("guide_custodians")
    for key in ("secret_file", "secret", "SAFEPLOT_POLICY", "SAFEPLOT_SECRET", "SAFEPLOT_HOME"):
        assert f"``{key}``" in text


def test_datashield_noise_equivalence_stated_in_the_guide_holds():
    # DataSHIELD's noise is a fraction of the variance; q is a fraction of the SD
    from safeplot.anonymize import noise_sd

    x = np.random.default_rng(0).normal(10, 3, 200)
    assert noise_sd(x, q=0.5) ** 2 / x.var(ddof=1) == pytest.approx(0.25)
    assert "0.25 is ``q_min = 0.5``" in read("guide_custodians")


# -- the output-checker guide: every field -------------------------------------------


def test_every_report_field_is_in_the_output_checker_guide():
    table = table_after(read("guide_output_checkers"), "Disclosure report fields")
    assert set(first_cells(table)) == {f.name for f in dataclasses.fields(DisclosureReport)}


def test_every_audit_entry_field_is_in_the_output_checker_guide():
    entry = audit.record(DisclosureReport("histplot", "suppress", {"threshold": 3}, ("age",)))
    keys = set(entry.to_dict()) | {f.name for f in dataclasses.fields(entry)}
    table = table_after(read("guide_output_checkers"), "Audit entry fields")
    assert set(first_cells(table)) == keys


def test_export_document_keys_are_in_the_output_checker_guide():
    doc = json.loads(audit.to_json())
    text = read("guide_output_checkers")
    for key in doc:
        assert f"``{key}``" in text
    for key in doc["policy"]:
        assert f"``{key}``" in text


def test_the_field_check_fails_when_a_field_is_missing():
    text = read("guide_output_checkers").replace("   * - ``cells_suppressed``\n", "", 1)
    table = table_after(text, "Disclosure report fields")
    assert "cells_suppressed" not in first_cells(table)
    assert set(first_cells(table)) != {f.name for f in dataclasses.fields(DisclosureReport)}


# -- links and names in all four pages -----------------------------------------------


@pytest.mark.parametrize("page", GUIDES)
def test_gallery_references_exist(page):
    for name in re.findall(r"sphx_glr_auto_gallery_(plot_\w+)\.py", read(page)):
        assert (GALLERY / f"{name}.py").is_file(), name


@pytest.mark.parametrize("page", GUIDES)
def test_api_references_exist(page):
    for target in re.findall(r":(?:func|class|mod|meth):`~?(safeplot[\w.]*)`", read(page)):
        obj = safeplot
        for part in target.split(".")[1:]:
            obj = getattr(obj, part)


@pytest.mark.parametrize("page", GUIDES)
def test_doc_references_exist(page):
    for name in re.findall(r":doc:`(?:[^`<]*<)?([\w/]+)>?`", read(page)):
        assert (DOCS / f"{name}.rst").is_file() or name == "auto_gallery/index", name


# -- numbers quoted in the analyst guide ---------------------------------------------


def test_deterministic_numbers_in_the_analyst_guide():
    from safeplot.datasets import simulate
    from safeplot.methods import anonymize_values

    df = simulate("D1", n=500, seed=1)
    raw = df[["x", "y"]].to_numpy()
    text = " ".join(read("guide_analysts").split())
    assert f"{np.corrcoef(raw.T)[0, 1]:.3f} (raw)" in text
    for k in (3, 10, 50):
        out = anonymize_values(raw, "deterministic", names=["x", "y"], k=k).values
        assert f"{np.corrcoef(out.T)[0, 1]:.3f} (``k={k}``)" in text
        assert out[:, 0].std(ddof=1) == pytest.approx(raw[:, 0].std(ddof=1))
        assert f"{out[:, 0].max():.2f}" in text


def test_suppression_numbers_in_the_analyst_guide():
    from safeplot.datasets import simulate
    from safeplot.plots.grid import release_grid

    text = " ".join(read("guide_analysts").split())
    shown = {}
    for name in ("D1", "D3"):
        df = simulate(name, n=500, seed=1)
        for method in ("suppress", "generalize"):
            with alone():  # each on its own, as the guide compares them
                grid = release_grid(df["x"].to_numpy(), df["y"].to_numpy(), method=method)
            shown[name, method] = int(np.nansum(grid.counts))
    assert f"cells holding {shown['D1', 'suppress']} of the 500 records" in text
    assert f"only {shown['D3', 'suppress']}." in text
    assert f"{shown['D1', 'generalize']} records on D1, {shown['D3', 'generalize']} on D3" in text


def test_report_example_in_the_analyst_guide():
    import matplotlib.pyplot as plt

    penguins = safeplot.load_dataset("penguins")
    fig, ax = plt.subplots()
    safeplot.histplot(data=penguins, x="flipper_length_mm", hue="species", ax=ax)
    text = read("guide_analysts")
    for line in str(ax.safeplot_report).splitlines():
        assert line.strip() in text
    plt.close(fig)


@pytest.mark.parametrize("kwargs", [{"k": 2}, {"method": "probabilistic", "q": 0.1}])
def test_refusal_messages_in_the_analyst_guide(kwargs):
    penguins = safeplot.load_dataset("penguins")
    with pytest.raises(safeplot.DisclosureError) as info:
        safeplot.scatterplot(data=penguins, x="bill_length_mm", y="body_mass_g", **kwargs)
    assert f"DisclosureError: {info.value}" in read("guide_analysts")
