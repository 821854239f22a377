"""Shared test set-up (tests and doctests): an isolated environment, policy and audit log."""

import hashlib
import os
import stat

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

import safeplot.audit
import safeplot.policy


def pytest_addoption(parser):
    """Add ``--key-seed``: the seed of the noise keys the tests draw with."""
    parser.addoption(
        "--key-seed",
        default="0",
        help=(
            "Seed of the per-test noise keys (default 0). Each test gets the key "
            "sha256(seed:test id), so a run is reproducible; run the suite under other "
            "seeds to try the keyed methods under other keys."
        ),
    )


def pytest_report_header(config):
    """Print the key seed, so a failure under a keyed method can be re-run as it was."""
    return f"safeplot test keys: --key-seed={config.getoption('--key-seed')}"


@pytest.fixture(autouse=True)
def _isolated(request, tmp_path_factory, monkeypatch):
    """Give each test a private key home, the default policy and an empty audit log.

    * ``SAFEPLOT_HOME`` points at a fresh temporary folder holding a key file
      (owner-only, as safeplot writes it) whose key is derived from
      ``--key-seed`` and the test's id: every run of a test draws the same
      noise, and a test never reads or writes the real per-user key file;
    * ``SAFEPLOT_SECRET`` and ``SAFEPLOT_POLICY`` are removed;
    * the policy is reloaded before and after the test, so changes made by one
      test never reach the next;
    * the audit log and the release ledger are emptied and all figures are closed.
    """
    home = tmp_path_factory.mktemp("safeplot_home")
    os.chmod(home, stat.S_IRWXU)
    seed = request.config.getoption("--key-seed")
    key = hashlib.sha256(f"{seed}:{request.node.nodeid}".encode()).hexdigest()
    (home / "secret.key").write_text(key + "\n", encoding="utf-8")
    os.chmod(home / "secret.key", stat.S_IRUSR | stat.S_IWUSR)
    monkeypatch.setenv("SAFEPLOT_HOME", str(home))
    monkeypatch.delenv("SAFEPLOT_SECRET", raising=False)
    monkeypatch.delenv("SAFEPLOT_POLICY", raising=False)
    safeplot.policy._reset()
    safeplot.audit.clear()
    safeplot.ledger._reset()
    yield
    # A test may have pointed SAFEPLOT_POLICY at one of its files: drop it
    # before reloading, so the reload gives the built-in defaults.
    monkeypatch.delenv("SAFEPLOT_POLICY", raising=False)
    monkeypatch.delenv("SAFEPLOT_SECRET", raising=False)
    safeplot.policy._reset()
    plt.close("all")


_STRICT_TOML = """\
threshold = 5
k_min = 5
q_min = 0.5
secret = "custodian key material for the strict regime 7c41e9"
locked = true
"""


@pytest.fixture(params=["default", "locked-strict"])
def regime(request, _isolated, tmp_path, monkeypatch):
    """Run a test under the built-in policy and under a locked, stricter custodian policy.

    "locked-strict" puts a custodian file in force through ``SAFEPLOT_POLICY``
    (threshold 5, k_min 5, q_min 0.5, the custodian's own secret key,
    ``locked = true``), as a data custodian would; a test that passes under
    both shows that its call relies on no default looser than the policy.
    Returns the name of the regime.
    """
    if request.param == "locked-strict":
        path = tmp_path / "custodian-strict.toml"
        path.write_text(_STRICT_TOML, encoding="utf-8")
        monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
        safeplot.policy._reset()
        pol = safeplot.policy.get_policy()
        assert pol.locked and (pol.threshold, pol.k_min, pol.q_min) == (5, 5, 0.5)
    return request.param


@pytest.fixture
def restore_theme():
    """Undo the global theme changes a test makes (seaborn's rcParams and the colour codes).

    ``sns.set_theme`` and friends change matplotlib's rcParams and the single-letter
    colours "b", "g", ...; a test module that calls them uses this fixture so the next
    test draws with the defaults again.
    """
    import matplotlib as mpl
    import matplotlib.colors as mcolors

    plt.close("all")
    rc = mpl.rcParams.copy()
    codes = {c: mcolors._colors_full_map[c] for c in "bgrmyck"}
    yield
    plt.close("all")
    mpl.rcParams.update(rc)
    mcolors._colors_full_map.update(codes)
    mcolors._colors_full_map.cache.clear()
