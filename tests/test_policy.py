"""Tests of safeplot.policy: floors, checks, loading, the lock and the context manager."""

import copy
import dataclasses
import pickle
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import safeplot
import safeplot.policy as sp_policy
from safeplot.errors import DisclosureError
from safeplot.keys import SecretKey
from safeplot.policy import (
    BINNED_PLOTS,
    METHODS,
    POINT_PLOTS,
    Policy,
    get_policy,
    load_policy,
    policy,
    set_policy,
)

MATERIAL = "custodian-key-material-7f3a9c"


def write_policy(folder, text, name="policy.toml"):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


LOCKED_TOML = f"""\
    threshold = 5
    k_min = 5
    q_min = 0.3
    winsor_sd = 2.0
    sig_figs = 2
    round_n_to = 10
    allow_raw = false
    allowed_methods = ["suppress", "generalize", "deterministic", "probabilistic"]
    secret = "{MATERIAL}"
    locked = true
"""


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """Put a locked custodian policy in force through SAFEPLOT_POLICY; return it."""
    path = write_policy(tmp_path, LOCKED_TOML)
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    sp_policy._reset()
    return get_policy()


# -- defaults ---------------------------------------------------------------------------


def test_defaults():
    p = Policy()
    assert p.threshold == 3
    assert p.k_min == 3
    assert p.q_min == 0.25
    assert p.winsor_sd == 2.6
    assert p.sig_figs == 3
    assert p.allow_raw is False
    assert p.round_n_to == 5
    assert p.default_binned == "suppress"
    assert p.default_point == "deterministic"
    assert p.allowed_methods == frozenset(METHODS)
    assert p.annotate is True
    assert p.secret_key is None
    assert p.locked is False
    assert p.source == "built-in defaults"


def test_policy_in_force_without_environment_is_the_default():
    assert get_policy() == Policy()
    assert get_policy().source == "built-in defaults"


def test_public_names_exported_from_package():
    assert safeplot.Policy is Policy
    assert safeplot.get_policy is get_policy
    assert safeplot.set_policy is set_policy
    assert safeplot.load_policy is load_policy
    # safeplot.policy is the module, callable as the context manager.
    assert safeplot.policy is sp_policy
    with safeplot.policy(threshold=4) as inside:
        assert get_policy() is inside
    assert get_policy().threshold == 3


def test_policy_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Policy().threshold = 1


@pytest.mark.parametrize("kind", sorted(BINNED_PLOTS))
def test_default_method_binned(kind):
    assert Policy().default_method(kind) == "suppress"
    assert Policy(default_binned="generalize").default_method(kind) == "generalize"


@pytest.mark.parametrize("kind", sorted(POINT_PLOTS))
def test_default_method_point(kind):
    assert Policy().default_method(kind) == "deterministic"
    assert Policy(default_point="probabilistic").default_method(kind) == "probabilistic"


def test_default_method_unknown_kind():
    with pytest.raises(ValueError, match="Unknown plot kind 'pie'"):
        Policy().default_method("pie")


def test_allowed_methods_become_frozenset():
    p = Policy(allowed_methods=["suppress", "deterministic"])
    assert p.allowed_methods == frozenset({"suppress", "deterministic"})
    assert isinstance(p.allowed_methods, frozenset)


def test_numpy_integers_accepted():
    p = Policy(threshold=np.int64(5), k_min=np.int32(4))
    assert p.check_threshold(None) == 5
    assert p.check_k(np.int64(4)) == 4


@pytest.mark.parametrize(
    ("settings_", "error", "message"),
    [
        ({"threshold": 0}, ValueError, "threshold must be at least 1"),
        ({"threshold": 2.5}, TypeError, "threshold must be an integer"),
        ({"threshold": True}, TypeError, "threshold must be an integer"),
        ({"k_min": 1}, ValueError, "k_min must be at least 2"),
        ({"sig_figs": 0}, ValueError, "sig_figs must be at least 1"),
        ({"round_n_to": 0}, ValueError, "round_n_to must be at least 1"),
        ({"q_min": 0}, ValueError, "q_min must be a positive finite number"),
        ({"q_min": -0.1}, ValueError, "q_min must be a positive finite number"),
        ({"q_min": float("nan")}, ValueError, "q_min must be a positive finite number"),
        ({"winsor_sd": float("inf")}, ValueError, "winsor_sd must be a positive finite"),
        ({"q_min": "lots"}, TypeError, "q_min must be a number"),
        ({"allowed_methods": ["suppress", "blur"]}, ValueError, r"unknown method\(s\) \['blur'\]"),
        ({"default_point": "blur"}, ValueError, "default_point='blur' is not a method"),
        ({"default_binned": "blur"}, ValueError, "default_binned='blur' is not a method"),
        ({"secret_key": "plain string"}, TypeError, "secret_key must be a safeplot"),
    ],
)
def test_invalid_settings_refused(settings_, error, message):
    with pytest.raises(error, match=message):
        Policy(**settings_)


# -- check_method -----------------------------------------------------------------------


def test_check_method_default_from_kind():
    p = Policy()
    assert p.check_method(None, kind="hist") == "suppress"
    assert p.check_method(None, kind="scatter") == "deterministic"


def test_check_method_none_without_kind():
    with pytest.raises(ValueError, match="no plot kind"):
        Policy().check_method(None)


@pytest.mark.parametrize("method", [m for m in METHODS if m != "none"])
def test_check_method_accepts_every_safe_method(method):
    assert Policy().check_method(method) == method
    assert Policy().check_method(method.upper()) == method


@pytest.mark.parametrize("method", ["blur", "", "Suppression", 3, ["suppress"]])
def test_check_method_unknown_lists_methods(method):
    with pytest.raises(ValueError, match="is not a safeplot method") as info:
        Policy().check_method(method)
    assert not isinstance(info.value, DisclosureError)
    for name in METHODS:
        assert repr(name) in str(info.value)


def test_check_method_raw_refused_by_default():
    with pytest.raises(DisclosureError, match="allow_raw=False") as info:
        Policy().check_method("none")
    assert "'suppress'" in str(info.value)  # says what to use instead


def test_check_method_raw_allowed_when_policy_allows():
    assert Policy(allow_raw=True).check_method("none") == "none"
    assert Policy(allow_raw=True).check_method("NONE") == "none"


def test_check_method_raw_needs_method_allowed_too():
    p = Policy(allow_raw=True, allowed_methods=["suppress"])
    with pytest.raises(DisclosureError, match="not allowed by the policy"):
        p.check_method("none")


def test_check_method_not_in_allowed_methods():
    p = Policy(allowed_methods=["suppress", "generalize"], source="test policy")
    with pytest.raises(DisclosureError) as info:
        p.check_method("deterministic")
    message = str(info.value)
    assert "method='deterministic' is not allowed" in message
    assert "test policy" in message
    assert "['generalize', 'suppress']" in message


def test_check_method_default_must_be_allowed():
    p = Policy(allowed_methods=["deterministic"])
    with pytest.raises(DisclosureError, match="method='suppress' is not allowed"):
        p.check_method(None, kind="hist")


# -- check_threshold / check_k / check_q ------------------------------------------------


def test_check_threshold():
    p = Policy(threshold=5)
    assert p.check_threshold(None) == 5
    assert p.check_threshold(5) == 5
    assert p.check_threshold(np.int64(9)) == 9
    assert type(p.check_threshold(np.int64(9))) is int


def test_check_threshold_below_floor_names_floor_and_value():
    p = Policy(threshold=5, source="the test policy")
    with pytest.raises(DisclosureError) as info:
        p.check_threshold(2)
    message = str(info.value)
    assert "threshold=2" in message
    assert "threshold=5" in message
    assert "the test policy" in message
    assert "Use threshold >= 5" in message


@pytest.mark.parametrize(
    ("value", "error"), [(0, ValueError), (2.5, TypeError), (True, TypeError)]
)
def test_check_threshold_invalid(value, error):
    with pytest.raises(error):
        Policy().check_threshold(value)


def test_check_k_without_n():
    p = Policy()
    assert p.check_k(3) == 3
    assert p.check_k(1000) == 1000


def test_check_k_below_floor_names_floor_and_value():
    with pytest.raises(DisclosureError) as info:
        Policy().check_k(2)
    assert "k_min=3" in str(info.value)
    assert "k=2" in str(info.value)


def test_check_k_what_names_the_parameter():
    with pytest.raises(DisclosureError, match="group_size=2 is below the policy floor k_min=3"):
        Policy().check_k(2, what="group_size")


@pytest.mark.parametrize(("value", "error"), [(0, ValueError), (3.0, TypeError), ("3", TypeError)])
def test_check_k_invalid(value, error):
    with pytest.raises(error):
        Policy().check_k(value)


def test_check_k_none_is_the_floor_and_is_checked_against_n():
    """None (a call that does not choose k) is k_min, held to the same rules as a given k."""
    assert Policy().check_k(None) == 3
    assert Policy(k_min=5).check_k(None, n=100) == 5
    with pytest.raises(DisclosureError, match="2\\*k_min=10"):
        Policy(k_min=5).check_k(None, n=9)


def test_check_k_needs_two_k_min_records():
    p = Policy()  # k_min = 3
    with pytest.raises(DisclosureError, match=r"2\*k_min=6"):
        p.check_k(3, n=5)
    assert p.check_k(3, n=6) == 3


def test_check_k_too_few_records_message_does_not_give_small_exact_count():
    with pytest.raises(DisclosureError) as info:
        Policy(threshold=3).check_k(3, n=2)
    assert "fewer than 3" in str(info.value)


def test_check_k_at_most_n_minus_k_min():
    p = Policy()
    assert p.check_k(7, n=10) == 7
    with pytest.raises(DisclosureError) as info:
        p.check_k(8, n=10)
    message = str(info.value)
    assert "k=8 is too large" in message
    assert "n - k_min" in message
    assert "smaller k" in message


def test_check_q():
    p = Policy()
    assert p.check_q(0.25) == 0.25
    assert p.check_q(2) == 2.0
    assert type(p.check_q(2)) is float


def test_check_q_below_floor_names_floor_and_value():
    with pytest.raises(DisclosureError) as info:
        Policy(q_min=0.3).check_q(0.1)
    assert "q=0.1" in str(info.value)
    assert "q_min=0.3" in str(info.value)


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (0, ValueError),
        (-1, ValueError),
        (float("nan"), ValueError),
        (float("inf"), ValueError),
        ("much", TypeError),
    ],
)
def test_check_q_invalid(value, error):
    with pytest.raises(error):
        Policy().check_q(value)


def test_check_q_none_is_the_floor():
    """None (a call that does not choose q) is q_min."""
    assert Policy().check_q(None) == 0.25
    assert Policy(q_min=0.5).check_q(None) == 0.5
    assert isinstance(Policy(q_min=1).check_q(None), float)


# -- counts in reports ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (0, 0),
        (1, "<3"),
        (2, "<3"),
        (3, 5),
        (7, 5),
        (8, 10),
        (12, 10),
        (13, 15),
        (498, 500),
        (502, 500),
        (503, 505),
    ],
)
def test_round_count_default(n, expected):
    assert Policy().round_count(n) == expected


def test_round_count_custom_policy():
    p = Policy(threshold=10, round_n_to=10)
    assert p.round_count(9) == "<10"
    assert p.round_count(10) == 10
    assert p.round_count(14) == 10
    assert p.round_count(15) == 20
    assert p.round_count(np.int64(1234)) == 1230


def test_describe_count():
    p = Policy()
    assert p.describe_count(0) == "0"
    assert p.describe_count(1) == "fewer than 3"
    assert p.describe_count(498) == "about 500"
    assert Policy(threshold=10).describe_count(9) == "fewer than 10"


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=10**7),
    threshold=st.integers(min_value=1, max_value=50),
    base=st.integers(min_value=1, max_value=100),
)
def test_round_count_never_shows_a_small_exact_count(n, threshold, base):
    p = Policy(threshold=threshold, round_n_to=base)
    rounded = p.round_count(n)
    if n < threshold:
        assert rounded == f"<{threshold}"
    else:
        assert isinstance(rounded, int)
        assert rounded % base == 0
        assert rounded >= base
        assert abs(rounded - n) <= base / 2 or rounded == base


# -- replace ----------------------------------------------------------------------------


def test_replace_unlocked_may_loosen():
    p = Policy(threshold=10).replace(threshold=1, allow_raw=True)
    assert p.threshold == 1
    assert p.allow_raw is True


def test_replace_unknown_setting():
    with pytest.raises(TypeError, match=r"Unknown policy setting\(s\) \['treshold'\]"):
        Policy().replace(treshold=5)


def test_replace_locked_refuses_loosening_and_stays_locked():
    p = Policy(threshold=5, locked=True)
    assert p.replace(threshold=6).threshold == 6
    assert p.replace(locked=False).locked is True
    with pytest.raises(DisclosureError, match="threshold=4 \\(locked floor threshold=5\\)"):
        p.replace(threshold=4)


# -- load_policy ------------------------------------------------------------------------


def test_load_policy_every_setting(tmp_path, monkeypatch):
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "noise.key").write_text(f"  {MATERIAL}\n", encoding="utf-8")
    path = write_policy(
        tmp_path / "conf",
        """\
        threshold = 10
        k_min = 6
        q_min = 0.5
        winsor_sd = 2.0
        sig_figs = 2
        allow_raw = true
        round_n_to = 20
        default_binned = "generalize"
        default_point = "probabilistic"
        allowed_methods = ["generalize", "probabilistic", "none"]
        annotate = false
        secret_file = "../keys/noise.key"
        locked = true
        """,
    )
    # The key file is found relative to the policy file, not the working folder.
    monkeypatch.chdir(tmp_path / "keys")
    p = load_policy(path)
    assert p.threshold == 10
    assert p.k_min == 6
    assert p.q_min == 0.5
    assert p.winsor_sd == 2.0
    assert p.sig_figs == 2
    assert p.allow_raw is True
    assert p.round_n_to == 20
    assert p.default_binned == "generalize"
    assert p.default_point == "probabilistic"
    assert p.allowed_methods == frozenset({"generalize", "probabilistic", "none"})
    assert p.annotate is False
    assert p.locked is True
    assert p.secret_key == SecretKey(MATERIAL)
    assert str(path) in p.source
    assert p.source.startswith("policy file")
    assert p.key == SecretKey(MATERIAL)


def test_load_policy_secret_file_relative_to_policy_folder(tmp_path, monkeypatch):
    folder = tmp_path / "custodian"
    folder.mkdir()
    (folder / "noise.key").write_text(MATERIAL, encoding="utf-8")
    path = write_policy(folder, 'secret_file = "noise.key"\n')
    monkeypatch.chdir(tmp_path)
    assert load_policy(path).secret_key == SecretKey(MATERIAL)
    # A key file of the same name in the working folder is not used.
    (tmp_path / "noise.key").write_text("another key", encoding="utf-8")
    assert load_policy(path).secret_key == SecretKey(MATERIAL)


def test_load_policy_secret_file_absolute(tmp_path):
    key = tmp_path / "elsewhere" / "noise.key"
    key.parent.mkdir()
    key.write_text(MATERIAL, encoding="utf-8")
    path = write_policy(tmp_path / "conf", f'secret_file = "{key.as_posix()}"\n')
    assert load_policy(path).secret_key == SecretKey(MATERIAL)


def test_load_policy_secret_file_missing(tmp_path):
    path = write_policy(tmp_path, 'secret_file = "absent.key"\n')
    with pytest.raises(DisclosureError, match="Cannot read the safeplot key file"):
        load_policy(path)


def test_load_policy_inline_secret(tmp_path):
    path = write_policy(tmp_path, f'secret = "{MATERIAL}"\n')
    p = load_policy(path)
    assert p.secret_key == SecretKey(MATERIAL)
    assert p.secret_key != SecretKey("something else")


def test_load_policy_safeplot_table(tmp_path):
    path = write_policy(tmp_path, "[safeplot]\nthreshold = 7\nk_min = 4\n")
    p = load_policy(path)
    assert (p.threshold, p.k_min) == (7, 4)


def test_load_policy_single_method_string(tmp_path):
    path = write_policy(tmp_path, 'allowed_methods = "suppress"\n')
    assert load_policy(path).allowed_methods == frozenset({"suppress"})


def test_load_policy_empty_file_gives_defaults(tmp_path):
    path = write_policy(tmp_path, "")
    p = load_policy(path)
    assert p == dataclasses.replace(Policy(), source=p.source)
    assert str(path) in p.source


def test_load_policy_path_as_string(tmp_path):
    path = write_policy(tmp_path, "threshold = 4\n")
    assert load_policy(str(path)).threshold == 4


def test_load_policy_unknown_key_named(tmp_path):
    path = write_policy(tmp_path, "thresold = 10\nk_min = 5\n")
    with pytest.raises(DisclosureError, match=r"unknown setting\(s\) \['thresold'\]") as info:
        load_policy(path)
    assert "threshold" in str(info.value)  # lists the known settings


@pytest.mark.parametrize("key", ["secret_key", "source"])
def test_load_policy_internal_fields_not_settable(tmp_path, key):
    path = write_policy(tmp_path, f'{key} = "{MATERIAL}"\n')
    with pytest.raises(DisclosureError, match=key) as info:
        load_policy(path)
    assert MATERIAL not in str(info.value)


def test_load_policy_invalid_toml(tmp_path):
    path = write_policy(tmp_path, "threshold = = 3\n")
    with pytest.raises(DisclosureError, match="is not valid TOML"):
        load_policy(path)


def test_load_policy_missing_file(tmp_path):
    with pytest.raises(DisclosureError, match="Cannot read the safeplot policy file") as info:
        load_policy(tmp_path / "absent.toml")
    assert "SAFEPLOT_POLICY" in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("threshold = 0\n", "threshold must be at least 1"),
        ("threshold = 2.5\n", "threshold must be an integer"),
        ('allowed_methods = ["blur"]\n', "blur"),
        ("q_min = -1.0\n", "q_min must be a positive"),
        ('default_point = "raw"\n', "default_point='raw'"),
    ],
)
def test_load_policy_invalid_values(tmp_path, text, message):
    path = write_policy(tmp_path, text)
    with pytest.raises(DisclosureError, match="is invalid") as info:
        load_policy(path)
    assert message in str(info.value)


def test_load_policy_string_boolean_refused(tmp_path):
    # "false" is a true string: read as a boolean it would allow raw output
    path = write_policy(tmp_path, 'allow_raw = "false"\n')
    with pytest.raises(DisclosureError, match="allow_raw must be true or false, got 'false'"):
        load_policy(path)


def test_load_policy_numeric_string_refused(tmp_path):
    path = write_policy(tmp_path, 'q_min = "0.5"\n')
    with pytest.raises(DisclosureError, match="q_min"):
        load_policy(path)


def test_load_policy_allowed_methods_not_a_list(tmp_path):
    path = write_policy(tmp_path, "allowed_methods = 5\n")
    with pytest.raises(DisclosureError, match="allowed_methods"):
        load_policy(path)


def test_load_policy_top_level_keys_next_to_table_not_ignored(tmp_path):
    path = write_policy(tmp_path, "threshold = 10\n\n[safeplot]\nk_min = 5\n")
    with pytest.raises(DisclosureError, match=r"\['threshold'\] outside its \[safeplot\] table"):
        load_policy(path)


# -- SAFEPLOT_POLICY and _reset ---------------------------------------------------------


def test_environment_policy_loaded_by_reset(tmp_path, monkeypatch):
    path = write_policy(tmp_path, "threshold = 8\nk_min = 4\n")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    assert get_policy().threshold == 3  # not read until reloaded
    sp_policy._reset()
    p = get_policy()
    assert (p.threshold, p.k_min) == (8, 4)
    assert str(path) in p.source


def test_environment_policy_missing_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SAFEPLOT_POLICY", str(tmp_path / "absent.toml"))
    with pytest.raises(DisclosureError, match="Cannot read the safeplot policy file"):
        sp_policy._reset()


def test_reset_with_explicit_base():
    sp_policy._reset(Policy(threshold=9, locked=True))
    assert get_policy().threshold == 9
    with pytest.raises(DisclosureError):
        set_policy(threshold=3)
    sp_policy._reset()
    assert get_policy() == Policy()


# -- the lock ---------------------------------------------------------------------------


def test_locked_policy_loaded(locked):
    assert locked.locked is True
    assert locked.threshold == 5
    assert locked.secret_key == SecretKey(MATERIAL)


TIGHTER = [
    {"threshold": 10},
    {"k_min": 6},
    {"q_min": 0.5},
    {"winsor_sd": 1.5},
    {"sig_figs": 1},
    {"round_n_to": 20},
    {"allow_raw": False},
    {"allowed_methods": ["suppress", "deterministic"]},
    {"allowed_methods": []},
    {"default_point": "probabilistic"},
    {"threshold": 10, "k_min": 10, "q_min": 1.0, "allowed_methods": ["suppress"]},
]

LOOSER = [
    ({"threshold": 4}, "threshold=4 (locked floor threshold=5)"),
    ({"k_min": 3}, "k_min=3 (locked floor k_min=5)"),
    ({"q_min": 0.25}, "q_min=0.25 (locked floor q_min=0.3)"),
    ({"winsor_sd": 2.6}, "winsor_sd=2.6 (locked floor winsor_sd=2.0)"),
    ({"sig_figs": 3}, "sig_figs=3 (locked floor sig_figs=2)"),
    ({"round_n_to": 5}, "round_n_to=5 (locked floor round_n_to=10)"),
    ({"allow_raw": True}, "allow_raw=True"),
    (
        {"allowed_methods": [*METHODS]},
        "allowed_methods adds ['confidential', 'dp', 'microaggregation'",
    ),
    ({"allowed_methods": ["suppress", "none"]}, "allowed_methods adds ['none']"),
    ({"secret_key": SecretKey("replacement key")}, "secret_key"),
    ({"secret_key": None}, "secret_key"),
    ({"annotate": False}, "annotate=False"),
]


@pytest.mark.parametrize("changes", TIGHTER)
def test_locked_set_policy_may_tighten(locked, changes):
    new = set_policy(**changes)
    assert get_policy() is new
    for name, value in changes.items():
        expected = frozenset(value) if name == "allowed_methods" else value
        assert getattr(new, name) == expected
    assert new.locked is True
    assert new.secret_key == locked.secret_key


@pytest.mark.parametrize("changes", TIGHTER)
def test_locked_context_may_tighten(locked, changes):
    with policy(**changes) as inside:
        assert get_policy() is inside
        assert inside.locked is True
        for name, value in changes.items():
            expected = frozenset(value) if name == "allowed_methods" else value
            assert getattr(inside, name) == expected
    assert get_policy() is locked


@pytest.mark.parametrize(("changes", "message"), LOOSER)
def test_locked_set_policy_refuses_loosening(locked, changes, message):
    with pytest.raises(DisclosureError) as info:
        set_policy(**changes)
    text = str(info.value)
    assert message in text
    assert "locked" in text
    assert str(locked.source) in text
    assert get_policy() is locked
    assert MATERIAL not in text


@pytest.mark.parametrize(("changes", "message"), LOOSER)
def test_locked_context_refuses_loosening(locked, changes, message):
    entered = False
    with pytest.raises(DisclosureError, match="locked") as info:  # noqa: SIM117
        with policy(**changes):
            entered = True  # pragma: no cover
    assert not entered
    assert message in str(info.value)
    assert get_policy() is locked


def test_locked_refuses_whole_looser_policy(locked):
    with pytest.raises(DisclosureError) as info:
        set_policy(Policy())
    text = str(info.value)
    for floor in (
        "threshold",
        "k_min",
        "q_min",
        "winsor_sd",
        "sig_figs",
        "round_n_to",
        "allowed_methods",
        "secret_key",
    ):
        assert floor in text
    with pytest.raises(DisclosureError, match="threshold=3"):  # noqa: SIM117
        with policy(Policy()):
            pass  # pragma: no cover
    assert get_policy() is locked


def test_locked_whole_policy_without_the_custodian_key_refused(locked):
    # Every floor as strict as the custodian's, but the key left out: the
    # noise would fall back to another key, so this loosens the policy.
    tight = dataclasses.replace(locked, secret_key=None, locked=False, threshold=9)
    with pytest.raises(DisclosureError, match="secret_key"):
        set_policy(tight)


def test_locked_whole_tighter_policy_accepted_and_locked(locked):
    tight = Policy(
        threshold=6,
        k_min=5,
        q_min=0.3,
        winsor_sd=2.0,
        sig_figs=2,
        round_n_to=10,
        allowed_methods=["suppress"],
        secret_key=SecretKey(MATERIAL),
        locked=False,
        source="analyst",
    )
    new = set_policy(tight)
    assert new.threshold == 6
    assert new.locked is True
    # and back to the custodian's policy
    assert set_policy(locked) == locked


def test_locked_cannot_be_unlocked(locked):
    assert set_policy(locked=False).locked is True
    with policy(locked=False) as inside:
        assert inside.locked is True
    with pytest.raises(DisclosureError, match="threshold"):
        set_policy(threshold=1)


def test_locked_tightening_is_cumulative(locked):
    set_policy(threshold=10)
    set_policy(k_min=8)
    p = get_policy()
    assert (p.threshold, p.k_min) == (10, 8)
    assert p.secret_key == SecretKey(MATERIAL)


def test_locked_floors_enforced_by_checks(locked):
    with pytest.raises(DisclosureError, match="threshold=5"):
        get_policy().check_threshold(3)
    with pytest.raises(DisclosureError, match="k_min=5"):
        get_policy().check_k(3)
    with pytest.raises(DisclosureError, match=r"q_min=0\.3"):
        get_policy().check_q(0.25)
    with pytest.raises(DisclosureError, match="not allowed"):
        get_policy().check_method("confidential")
    with pytest.raises(DisclosureError):
        get_policy().check_method("none")


def test_locked_floor_is_the_custodian_file(locked):
    set_policy(threshold=10)
    assert set_policy(threshold=7).threshold == 7


def test_unlocked_custodian_file_may_be_loosened(tmp_path, monkeypatch):
    path = write_policy(tmp_path, "threshold = 10\nk_min = 5\n")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    sp_policy._reset()
    assert set_policy(threshold=2, k_min=2, allow_raw=True).threshold == 2
    assert set_policy(Policy()) == Policy()


def test_environment_changes_after_loading_do_not_change_policy(locked, tmp_path, monkeypatch):
    loose = write_policy(tmp_path / "other", "threshold = 1\nallow_raw = true\n")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(loose))
    monkeypatch.setenv("SAFEPLOT_SECRET", "an analyst's own key")
    assert get_policy() is locked
    assert get_policy().key == SecretKey(MATERIAL)
    # A derived policy still answers to the custodian's file.
    with pytest.raises(DisclosureError, match="threshold"):
        set_policy(threshold=1)
    assert set_policy(threshold=6).key == SecretKey(MATERIAL)


def test_key_from_environment_when_policy_has_none(monkeypatch):
    monkeypatch.setenv("SAFEPLOT_SECRET", "environment key 0123456789")
    assert get_policy().key == SecretKey("environment key 0123456789")
    assert get_policy().key.source == "SAFEPLOT_SECRET"


def test_key_file_created_in_safeplot_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("SAFEPLOT_HOME", str(home))
    key = get_policy().key
    assert (home / "secret.key").is_file()
    assert get_policy().key == key


# -- set_policy and the context manager -------------------------------------------------


def test_set_policy_persists():
    new = set_policy(threshold=7)
    assert get_policy() is new
    assert get_policy().threshold == 7
    set_policy(k_min=4)
    assert (get_policy().threshold, get_policy().k_min) == (7, 4)


def test_set_policy_whole_policy():
    p = Policy(threshold=11, source="mine")
    assert set_policy(p) is p
    assert get_policy() is p


def test_set_policy_whole_policy_with_changes():
    new = set_policy(Policy(threshold=11), k_min=6)
    assert (new.threshold, new.k_min) == (11, 6)


def test_set_policy_unknown_setting():
    with pytest.raises(TypeError, match="treshold"):
        set_policy(treshold=10)
    assert get_policy() == Policy()


def test_set_policy_not_a_policy():
    with pytest.raises(TypeError, match="Expected a safeplot Policy, got dict"):
        set_policy({"threshold": 10})


def test_context_manager_restores():
    before = get_policy()
    with policy(threshold=10) as inside:
        assert get_policy() is inside
        assert inside.threshold == 10
    assert get_policy() is before


def test_context_manager_restores_when_block_raises():
    before = get_policy()
    with pytest.raises(RuntimeError, match="boom"):  # noqa: SIM117
        with policy(threshold=10, k_min=5):
            assert get_policy().threshold == 10
            raise RuntimeError("boom")
    assert get_policy() is before


def test_context_manager_nested():
    with policy(threshold=10):
        with policy(k_min=6) as inner:
            assert (inner.threshold, inner.k_min) == (10, 6)
        assert get_policy().k_min == 3
        assert get_policy().threshold == 10
    assert get_policy() == Policy()


def test_context_manager_whole_policy():
    p = Policy(threshold=4)
    with policy(p) as inside:
        assert inside is p
        assert get_policy() is p
    assert get_policy() == Policy()


def test_context_manager_from_package():
    with safeplot.policy(sig_figs=2) as inside:
        assert safeplot.get_policy() is inside
    assert safeplot.get_policy().sig_figs == 3


def test_set_policy_inside_block_returns_policy_in_force():
    with policy(threshold=10):
        new = set_policy(k_min=5)
        assert get_policy() is new


# -- the key never shows ----------------------------------------------------------------


def test_key_not_in_repr_or_str():
    p = Policy(secret_key=SecretKey(MATERIAL, source="test"))
    for text in (repr(p), str(p), f"{p}", repr(p.secret_key), str(p.secret_key)):
        assert MATERIAL not in text
    assert "secret_key" not in repr(p)


def test_key_not_in_loaded_policy_repr(locked):
    for text in (repr(locked), str(locked), repr(get_policy().key), locked.source):
        assert MATERIAL not in text


def test_key_not_in_error_messages(tmp_path):
    path = write_policy(tmp_path, f'secret = "{MATERIAL}"\nthreshold = 0\n')
    with pytest.raises(DisclosureError) as info:
        load_policy(path)
    assert MATERIAL not in str(info.value)
    path = write_policy(tmp_path, f'secret = "{MATERIAL}\nthreshold = 3\n', name="bad.toml")
    with pytest.raises(DisclosureError) as info:
        load_policy(path)
    assert MATERIAL not in str(info.value)


def test_policy_with_key_refuses_pickling():
    p = Policy(secret_key=SecretKey(MATERIAL))
    with pytest.raises(TypeError, match="cannot be pickled") as info:
        pickle.dumps(p)
    assert MATERIAL not in str(info.value)


def test_policy_without_key_pickles():
    p = Policy(threshold=7)
    assert pickle.loads(pickle.dumps(p)) == p


def test_deepcopy_keeps_key():
    p = Policy(secret_key=SecretKey(MATERIAL))
    assert copy.deepcopy(p).secret_key is p.secret_key


# -- properties -------------------------------------------------------------------------

BASE = Policy(
    threshold=5,
    k_min=5,
    q_min=0.3,
    winsor_sd=2.0,
    sig_figs=2,
    round_n_to=10,
    allowed_methods=["suppress", "generalize", "deterministic", "probabilistic"],
    secret_key=SecretKey(MATERIAL, source="test"),
    locked=True,
    source="property base",
)


@st.composite
def tightenings(draw):
    changes = {}
    if draw(st.booleans()):
        changes["threshold"] = draw(st.integers(BASE.threshold, 1000))
    if draw(st.booleans()):
        changes["k_min"] = draw(st.integers(BASE.k_min, 1000))
    if draw(st.booleans()):
        changes["q_min"] = draw(st.floats(BASE.q_min, 100.0))
    if draw(st.booleans()):
        changes["winsor_sd"] = draw(
            st.floats(0.0, BASE.winsor_sd, exclude_min=True, allow_subnormal=False)
        )
    if draw(st.booleans()):
        changes["sig_figs"] = draw(st.integers(1, BASE.sig_figs))
    if draw(st.booleans()):
        changes["round_n_to"] = BASE.round_n_to * draw(st.integers(1, 100))
    if draw(st.booleans()):
        changes["allow_raw"] = False
    if draw(st.booleans()):
        changes["allowed_methods"] = draw(
            st.frozensets(st.sampled_from(sorted(BASE.allowed_methods)))
        )
    return changes


@st.composite
def loosenings(draw):
    """A tightening plus one change that loosens a floor; returns (changes, floor name)."""
    changes = draw(tightenings())
    floor = draw(
        st.sampled_from(
            [
                "threshold",
                "k_min",
                "q_min",
                "winsor_sd",
                "sig_figs",
                "round_n_to",
                "allow_raw",
                "allowed_methods",
                "secret_key",
            ]
        )
    )
    if floor == "threshold":
        changes[floor] = draw(st.integers(1, BASE.threshold - 1))
    elif floor == "k_min":
        changes[floor] = draw(st.integers(2, BASE.k_min - 1))
    elif floor == "q_min":
        changes[floor] = draw(
            st.floats(0.0, BASE.q_min, exclude_min=True, exclude_max=True, allow_subnormal=False)
        )
    elif floor == "winsor_sd":
        changes[floor] = draw(st.floats(BASE.winsor_sd, 100.0, exclude_min=True))
    elif floor == "sig_figs":
        changes[floor] = draw(st.integers(BASE.sig_figs + 1, 20))
    elif floor == "round_n_to":
        changes[floor] = draw(st.integers(1, BASE.round_n_to - 1))
    elif floor == "allow_raw":
        changes[floor] = True
    elif floor == "allowed_methods":
        extra = draw(st.sampled_from(sorted(set(METHODS) - BASE.allowed_methods)))
        changes[floor] = changes.get(floor, frozenset()) | {extra}
    else:
        changes[floor] = draw(st.sampled_from([None, SecretKey("another key")]))
    return changes, floor


@settings(max_examples=150, deadline=None)
@given(changes=tightenings(), use_context=st.booleans())
def test_property_any_tightening_of_locked_policy_accepted(changes, use_context):
    sp_policy._reset(BASE)
    try:
        if use_context:
            with policy(**changes) as new:
                assert get_policy() is new
        else:
            new = set_policy(**changes)
        assert new.locked is True
        assert new.secret_key == BASE.secret_key
        for name, value in changes.items():
            assert getattr(new, name) == value
    finally:
        sp_policy._reset()


@settings(max_examples=150, deadline=None)
@given(case=loosenings(), how=st.sampled_from(["set", "context", "whole"]))
def test_property_any_loosening_of_locked_policy_refused(case, how):
    changes, floor = case
    sp_policy._reset(BASE)
    try:
        with pytest.raises(DisclosureError) as info:
            if how == "set":
                set_policy(**changes)
            elif how == "context":
                with policy(**changes):
                    pass  # pragma: no cover
            else:
                set_policy(dataclasses.replace(BASE, **changes))
        assert floor in str(info.value)
        assert MATERIAL not in str(info.value)
        assert get_policy() is BASE
    finally:
        sp_policy._reset()


def test_locked_round_n_to_must_be_a_multiple_of_the_floor():
    # counts reported under unrelated bases (10 and 11) narrow down to the exact count
    sp_policy._reset(BASE)
    try:
        with pytest.raises(DisclosureError, match="multiple of the locked 10"):
            set_policy(round_n_to=11)
        assert set_policy(round_n_to=30).round_n_to == 30
    finally:
        sp_policy._reset()


def test_both_secret_and_secret_file_refused(tmp_path):
    (tmp_path / "k").write_text("abc")
    path = write_policy(tmp_path, 'secret = "x"\nsecret_file = "k"\n')
    with pytest.raises(DisclosureError, match="both secret and secret_file"):
        load_policy(path)


def test_k_too_large_message_does_not_give_exact_n():
    with pytest.raises(DisclosureError) as info:
        Policy().check_k(61, n=63)
    assert "61" in str(info.value) and "63" not in str(info.value)


def test_whole_policy_with_unknown_setting_is_a_clear_type_error():
    with pytest.raises(TypeError, match="Unknown policy setting"):
        set_policy(Policy(), treshold=4)
