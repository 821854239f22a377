"""Key resolution, the per-user key file and the key's secrecy."""

import copy
import os
import pickle
import stat

import pytest

from safeplot import DisclosureError
from safeplot.keys import KEY_BYTES, SecretKey, default_key_path, resolve_key


def test_policy_key_wins_over_environment(monkeypatch):
    monkeypatch.setenv("SAFEPLOT_SECRET", "an environment secret of some length")
    assert resolve_key(SecretKey("policy material", source="policy")).source == "policy"


def test_environment_key(monkeypatch):
    monkeypatch.setenv("SAFEPLOT_SECRET", "an environment secret of some length")
    assert resolve_key().source == "SAFEPLOT_SECRET"


def test_short_environment_secret_refused_without_echoing_it(monkeypatch):
    monkeypatch.setenv("SAFEPLOT_SECRET", "hunter2")
    with pytest.raises(DisclosureError, match="too short") as info:
        resolve_key()
    assert "hunter2" not in str(info.value)


def test_key_file_created_once_owner_only_256_bits(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path / "new_user"))
    path = default_key_path()
    assert not path.exists()
    first = resolve_key()
    assert path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(bytes.fromhex(path.read_text().strip())) == KEY_BYTES
    assert resolve_key() == first  # read back, not re-created


def test_two_key_files_differ(tmp_path, monkeypatch):
    a = resolve_key()
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path / "other"))
    assert resolve_key() != a


def test_unreadable_key_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path))
    (tmp_path / "secret.key").mkdir()
    with pytest.raises(DisclosureError, match="Cannot read the safeplot key file"):
        resolve_key()


def test_key_never_shown_pickled_or_copied_out():
    key = SecretKey("material-that-must-not-leak", source="test")
    assert "material-that-must-not-leak" not in repr(key) + str(key) + f"{key}"
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(key)
    assert copy.deepcopy(key) is key
    assert not hasattr(key, "__dict__")


def test_xdg_default_location(monkeypatch, tmp_path):
    monkeypatch.delenv("SAFEPLOT_HOME")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert default_key_path() == tmp_path / "safeplot" / "secret.key"
    assert os.fspath(default_key_path()).endswith(os.path.join("safeplot", "secret.key"))
