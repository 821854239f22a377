"""Shared test set-up (tests and doctests): an isolated environment, policy and audit log."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

import safeplot.audit
import safeplot.policy


@pytest.fixture(autouse=True)
def _isolated(tmp_path_factory, monkeypatch):
    """Give each test a private key home, the default policy and an empty audit log.

    * ``SAFEPLOT_HOME`` points at a fresh temporary folder, so a test that
      needs a noise key never writes the real per-user key file;
    * ``SAFEPLOT_SECRET`` and ``SAFEPLOT_POLICY`` are removed;
    * the policy is reloaded before and after the test, so changes made by one
      test never reach the next;
    * the audit log is emptied and all figures are closed.
    """
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path_factory.mktemp("safeplot_home")))
    monkeypatch.delenv("SAFEPLOT_SECRET", raising=False)
    monkeypatch.delenv("SAFEPLOT_POLICY", raising=False)
    safeplot.policy._reset()
    safeplot.audit.clear()
    yield
    # A test may have pointed SAFEPLOT_POLICY at one of its files: drop it
    # before reloading, so the reload gives the built-in defaults.
    monkeypatch.delenv("SAFEPLOT_POLICY", raising=False)
    monkeypatch.delenv("SAFEPLOT_SECRET", raising=False)
    safeplot.policy._reset()
    plt.close("all")
