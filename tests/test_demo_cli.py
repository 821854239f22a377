"""``safeplot demo`` and the command line."""

import contextlib
import hashlib
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.image import imread

import safeplot
from safeplot import cli
from safeplot.demo import DEMO_METHODS, DIAGNOSTIC_FIGURES, FAMILIES, diagnostics_figure, run_demo

#: Diagnostic panels: three figures, three data sets, one column per method.
N_DIAGNOSTIC = 3 * len(DIAGNOSTIC_FIGURES)
#: Rows of each data set's figure: histograms of x and y, scatter, heat map, contour, box.
N_FAMILIES = len(FAMILIES)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """One run of `safeplot demo` (n=200), shared by the tests that read what it wrote and
    printed or the policy it left.

    A demo run draws every figure of the demo and takes most of this file's time. The run
    is isolated as conftest's ``_isolated`` isolates a test: a fresh key home, no
    SAFEPLOT_SECRET or SAFEPLOT_POLICY, the default policy, an empty audit log and ledger.
    The paths are those the command prints, in the order run_demo returns them.
    """
    home = tmp_path_factory.mktemp("demo_home")
    os.chmod(home, stat.S_IRWXU)
    (home / "secret.key").write_text(hashlib.sha256(b"demo").hexdigest() + "\n")
    os.chmod(home / "secret.key", stat.S_IRUSR | stat.S_IWUSR)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SAFEPLOT_HOME", str(home))
        mp.delenv("SAFEPLOT_SECRET", raising=False)
        mp.delenv("SAFEPLOT_POLICY", raising=False)
        safeplot.policy._reset()
        safeplot.audit.clear()
        safeplot.ledger._reset()
        before = safeplot.get_policy()
        printed = io.StringIO()
        out = tmp_path_factory.mktemp("demo")
        with contextlib.redirect_stdout(printed):
            status = cli.main(["demo", "--out", str(out), "--n", "200"])
        assert status == 0
        after = safeplot.get_policy()
        safeplot.policy._reset()
        safeplot.audit.clear()
        safeplot.ledger._reset()
    plt.close("all")
    paths = [Path(line.strip()) for line in printed.getvalue().splitlines()[1:]]
    return {"paths": paths, "printed": printed.getvalue(), "before": before, "after": after}


def test_demo_writes_figures_and_audit_log(demo):
    paths = demo["paths"]
    assert [p.name for p in paths] == [
        "demo_D1.png",
        "demo_D2.png",
        "demo_D3.png",
        "demo_penguins.png",
        "demo_diagnostics_resid_fitted.png",
        "demo_diagnostics_qq.png",
        "demo_diagnostics_leverage.png",
        "audit_log.json",
    ]
    image = imread(paths[0])
    assert image.shape[0] > 300 and image.shape[1] > 1000
    for path in paths[4:7]:
        image = imread(path)
        assert image.shape[0] > 500 and image.shape[1] > 1400
    log = json.loads(paths[-1].read_text())
    # six plot families per method per data set, the six penguin panels, the
    # diagnostic panels (one per figure, data set and method) and the model fits
    # behind them (one per diagnostic figure and data set)
    fits = len(DIAGNOSTIC_FIGURES) * 3
    assert (
        len(log["entries"])
        == 3 * N_FAMILIES * len(DEMO_METHODS) + 6 + N_DIAGNOSTIC * len(DEMO_METHODS) + fits
    )
    methods = {e["method"] for e in log["entries"]}
    assert methods == set(DEMO_METHODS) | {"confidential"}
    functions = {e["function"] for e in log["entries"]}
    assert functions == {
        "histplot",
        "scatterplot",
        "heatmap",
        "kdeplot",
        "grid_contourplot",
        "boxplot",
        "countplot",
        "plot_resid_fitted",
        "plot_qq",
        "plot_resid_leverage",
        "safe_ols",
    }
    assert "demonstration key" not in paths[-1].read_text()


def test_demo_is_reproducible(demo, tmp_path):
    # a second run, in this test's own environment, draws the shared run's figures exactly
    a = demo["paths"]
    b = run_demo(tmp_path / "b", n=200)
    np.testing.assert_array_equal(imread(a[0]), imread(b[0]))
    for i in (4, 5, 6):  # the diagnostic figures
        np.testing.assert_array_equal(imread(a[i]), imread(b[i]))


def test_demo_leaves_policy_unchanged(demo):
    assert demo["after"] == demo["before"]


def test_demo_under_locked_policy_without_raw_panels(tmp_path, monkeypatch):
    policy_file = tmp_path / "policy.toml"
    policy_file.write_text(
        'locked = true\nallow_raw = false\nsecret = "custodian key 0123456789"\n'
    )
    monkeypatch.setenv("SAFEPLOT_POLICY", str(policy_file))
    safeplot.policy._reset()
    paths = run_demo(tmp_path / "out", n=150)
    log = json.loads(paths[-1].read_text())
    assert "none" not in {e["method"] for e in log["entries"]}
    fits = len(DIAGNOSTIC_FIGURES) * 3  # one model per diagnostic figure and data set
    assert (
        len(log["entries"])
        == 3 * N_FAMILIES * (len(DEMO_METHODS) - 1)
        + 6
        + N_DIAGNOSTIC * (len(DEMO_METHODS) - 1)
        + fits
    )
    assert "demo_diagnostics_qq.png" in {p.name for p in paths}


def test_cli_demo(demo):
    out = demo["printed"]
    assert "wrote 8 files" in out and "audit_log.json" in out


def test_cli_reports_errors_without_traceback(tmp_path, capsys):
    assert cli.main(["demo", "--out", str(tmp_path), "--n", "1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("safeplot: error:") and "Traceback" not in err


def test_cli_without_command_prints_help(capsys):
    assert cli.main([]) == 2
    assert "demo" in capsys.readouterr().out


def test_python_dash_m(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "safeplot", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == f"safeplot {safeplot.__version__}"


@pytest.mark.parametrize("n", [0, -5])
def test_demo_rejects_bad_n(tmp_path, n):
    with pytest.raises(ValueError):
        run_demo(tmp_path, n=n)


def test_readme_quick_start_runs(tmp_path, monkeypatch):
    """The README's example is run as written, so it cannot drift from the package."""
    import re
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text()
    code = re.search(r"## Quick start.*?```python\n(.*?)```", readme, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "audit_log.json").exists()
    functions = {e.function for e in safeplot.audit.entries()}
    expected = {"histplot", "scatterplot", "boxplot", "heatmap", "kdeplot", "countplot"}
    assert expected <= functions


def test_diagnostics_figure_layout_and_refusals():
    with safeplot.policy(safeplot.demo.demo_policy()):
        fig = diagnostics_figure("qq", ("none", "suppress"), n=60, seed=3)
    assert len(fig.axes) == 6
    assert [ax.get_title() for ax in fig.axes[:2]] == [
        "D1: raw (simulated data)",
        "D1: suppress (threshold=3)",
    ]
    # every panel is drawn (with its report) or says why it was refused
    for ax in fig.axes:
        refused = [t.get_text() for t in ax.texts if t.get_text().startswith("not released")]
        assert hasattr(ax, "safeplot_report") or refused
    with pytest.raises(ValueError, match="which must be one of"):
        diagnostics_figure("cooks")
