"""Progress bars: shown for long releases when asked, never when off or not on a terminal."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import _progress, audit
from safeplot.anonymize.microaggregation import mdav, vmdav
from safeplot.errors import DisclosureError
from safeplot.policy import Policy

N_LARGE = 1_000_000


@pytest.fixture(scope="module")
def million():
    rng = np.random.default_rng(12)
    return pd.DataFrame({"x": rng.normal(size=N_LARGE), "y": rng.normal(size=N_LARGE)})


@pytest.fixture
def terminal(monkeypatch):
    """Pretend standard error is a terminal, so only the setting can turn bars off."""
    monkeypatch.setattr(_progress, "_stderr_is_terminal", lambda: True)


def scatter(data):
    fig, ax = plt.subplots()
    safeplot.scatterplot(data, x="x", y="y", method="deterministic", ax=ax)
    report = ax.safeplot_report
    plt.close(fig)
    return report


def test_a_million_row_scatterplot_shows_the_bar_when_enabled(million, capsys):
    with safeplot.policy(progress=True):
        report = scatter(million)
    captured = capsys.readouterr()
    assert report.method == "deterministic"
    assert "kNN centroids" in captured.err
    assert "100%" in captured.err  # 1e6 rows in 4 chunks of 2**18: the share, not the steps
    assert captured.out == ""


def test_a_million_row_scatterplot_shows_no_bar_when_disabled(million, capsys, terminal):
    with safeplot.policy(progress=False):
        scatter(million)
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out == ""


def test_by_default_no_bar_unless_stderr_is_a_terminal(capsys, monkeypatch):
    x = np.random.default_rng(1).normal(size=(_progress.LONG_RELEASE_ROWS, 2))
    assert safeplot.get_policy().progress is None
    safeplot.anonymize.knn_centroids(x, k=3)
    assert capsys.readouterr().err == ""  # pytest's stderr is not a terminal
    monkeypatch.setattr(_progress, "_stderr_is_terminal", lambda: True)
    safeplot.anonymize.knn_centroids(x, k=3)
    assert "kNN centroids" in capsys.readouterr().err


def test_short_releases_show_no_bar(capsys):
    x = np.random.default_rng(2).normal(size=(_progress.LONG_RELEASE_ROWS - 1, 2))
    with safeplot.policy(progress=True):
        safeplot.anonymize.knn_centroids(x, k=3)
    assert capsys.readouterr().err == ""


def test_the_bar_changes_no_release(monkeypatch):
    x = np.random.default_rng(3).normal(size=(_progress.LONG_RELEASE_ROWS + 10, 2))
    with safeplot.policy(progress=False):
        quiet = safeplot.anonymize.knn_centroids(x, k=3)
    with safeplot.policy(progress=True):
        shown = safeplot.anonymize.knn_centroids(x, k=3)
    np.testing.assert_array_equal(quiet.values, shown.values)


@pytest.mark.parametrize(("func", "name"), [(mdav, "MDAV"), (vmdav, "V-MDAV")])
def test_microaggregation_shows_a_bar_of_records_grouped(func, name, capsys, monkeypatch):
    monkeypatch.setattr(_progress, "LONG_RELEASE_ROWS", 500)
    x = np.random.default_rng(4).normal(size=(600, 2))
    with safeplot.policy(progress=False):
        quiet = func(x, k=3, per_variable=False)
    assert capsys.readouterr().err == ""
    with safeplot.policy(progress=True):
        shown = func(x, k=3, per_variable=False)
    err = capsys.readouterr().err
    assert f"microaggregation ({name})" in err
    assert "%|" in err
    assert "600" not in err  # the share of records grouped, never their exact number
    np.testing.assert_array_equal(quiet.values, shown.values)


@pytest.mark.parametrize("func", [mdav, vmdav])
def test_microaggregation_bar_counts_every_record_grouped(func, monkeypatch):
    import safeplot.anonymize.microaggregation as micro

    bars = []

    class Recorder(_progress._NoBar):
        def __init__(self, **kwargs):
            self.kwargs, self.done, self.closed = kwargs, 0, False
            bars.append(self)

        def update(self, n=1):
            self.done += n

        def close(self):
            self.closed = True

    monkeypatch.setattr(micro, "progress_bar", Recorder)
    n, k = 601, 4
    func(np.random.default_rng(5).normal(size=(n, 2)), k=k, per_variable=False)
    (bar,) = bars
    assert bar.kwargs["total"] == n and bar.kwargs["size"] == n
    # every group formed in the loop is counted; the last group (< 2k records) is not a step
    assert n - 2 * k < bar.done <= n
    assert bar.closed


def test_dask_computations_show_a_bar_of_tasks(capsys):
    dd = pytest.importorskip("dask.dataframe")
    frame = dd.from_pandas(safeplot.load_dataset("penguins"), npartitions=3)
    fig, ax = plt.subplots()
    with safeplot.policy(progress=True):
        safeplot.histplot(frame, x="body_mass_g", ax=ax)
    plt.close(fig)
    assert "dask: counting" in capsys.readouterr().err
    fig, ax = plt.subplots()
    with safeplot.policy(progress=False):
        safeplot.histplot(frame, x="body_mass_g", ax=ax)
    plt.close(fig)
    assert capsys.readouterr().err == ""


def test_finalise_shows_a_bar_of_releases(tmp_path, capsys):
    audit.clear()
    fig, ax = plt.subplots()
    safeplot.histplot(safeplot.load_dataset("penguins"), x="body_mass_g", ax=ax)
    plt.close(fig)
    with safeplot.policy(progress=True):
        audit.finalise(tmp_path / "out")
    assert "finalise" in capsys.readouterr().err
    with safeplot.policy(progress=False):
        audit.finalise(tmp_path / "again")
    assert capsys.readouterr().err == ""


def test_helpers_do_nothing_when_off():
    off = Policy(progress=False)
    assert list(_progress.progress(range(3), desc="x", size=10**9, policy=off)) == [0, 1, 2]
    with _progress.progress_bar(total=3, desc="x", size=10**9, policy=off) as bar:
        bar.update(3)
    assert isinstance(bar, _progress._NoBar)


def test_helpers_show_tqdm_when_on(capsys):
    on = Policy(progress=True)
    assert list(_progress.progress(range(3), desc="steps", size=10**9, policy=on)) == [0, 1, 2]
    assert "steps" in capsys.readouterr().err
    with _progress.progress_bar(total=2, desc="manual", policy=on) as bar:
        bar.update(2)
    assert "manual" in capsys.readouterr().err
    # below the size of a long release: nothing, even when on
    assert list(_progress.progress(range(2), desc="tiny", size=10, policy=on)) == [0, 1]
    assert capsys.readouterr().err == ""


def test_progress_enabled_follows_the_setting_and_the_terminal(monkeypatch):
    monkeypatch.setattr(_progress, "_stderr_is_terminal", lambda: False)
    assert _progress.progress_enabled(Policy()) is False
    assert _progress.progress_enabled(Policy(progress=True)) is True
    monkeypatch.setattr(_progress, "_stderr_is_terminal", lambda: True)
    assert _progress.progress_enabled(Policy()) is True
    assert _progress.progress_enabled(Policy(progress=False)) is False


def test_a_closed_stderr_is_not_a_terminal(monkeypatch):
    class Closed:
        def isatty(self):
            raise ValueError("I/O operation on closed file")

    monkeypatch.setattr("sys.stderr", Closed())
    assert _progress._stderr_is_terminal() is False


@pytest.mark.parametrize("value", ["yes", 1, 0.0])
def test_progress_setting_must_be_true_false_or_none(value):
    with pytest.raises(TypeError, match="progress must be true, false or None"):
        Policy(progress=value)


def test_progress_can_be_set_under_a_locked_policy():
    locked = Policy(locked=True)
    assert locked.replace(progress=True).progress is True


def test_a_policy_file_sets_progress(tmp_path):
    path = tmp_path / "policy.toml"
    path.write_text("progress = false\n")
    assert safeplot.load_policy(path).progress is False
    path.write_text('progress = "sometimes"\n')
    with pytest.raises(DisclosureError, match="progress must be true, false or None"):
        safeplot.load_policy(path)
