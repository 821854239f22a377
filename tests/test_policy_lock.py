"""A locked custodian policy holds end to end, whatever route a call takes.

The custodian's file (``SAFEPLOT_POLICY``, ``locked = true``) is the floor of
the whole process. These tests try to loosen it by every route an analyst
has: :func:`safeplot.set_policy`, the :func:`safeplot.policy` block, per-call
keyword arguments (``threshold=``, ``k=``, ``q=``, ``method=``), a whole
``policy=Policy(...)`` handed to a call, and environment variables changed
after import. They also check that ``allow_raw=False`` refuses
``method="none"`` for every public plot function (the draw table of the leak
test), the pandas plotting backend, the ``"safe"`` projection and the
``import safeplot as sns`` namespace -- refused before anything is drawn, with
no figure left open and nothing in the audit log.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.text import Text

import safeplot
import safeplot.policy as sp_policy
from safeplot import DisclosureError, audit
from safeplot.anonymize.probabilistic import add_keyed_noise
from safeplot.keys import SecretKey
from safeplot.methods import anonymize_values
from safeplot.policy import Policy, get_policy, set_policy

try:  # the draw table may live in its own module
    from .cases import CASES, SHAPES
except ImportError:  # pragma: no cover - depends on the layout of the tests
    from .test_leaks import CASES, SHAPES

MATERIAL = "custodian key material 5d1e0c7a9b"

LOCKED_TOML = f"""\
threshold = 5
k_min = 5
q_min = 0.3
allow_raw = false
allowed_methods = ["suppress", "generalize", "deterministic", "probabilistic", "none"]
secret = "{MATERIAL}"
locked = true
"""

LOOSE_TOML = """\
threshold = 1
k_min = 2
q_min = 0.01
allow_raw = true
"""


@pytest.fixture
def locked(tmp_path, monkeypatch):
    """Put a locked custodian policy in force through SAFEPLOT_POLICY; return it."""
    path = tmp_path / "custodian.toml"
    path.write_text(LOCKED_TOML, encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
    sp_policy._reset()
    pol = get_policy()
    assert pol.locked and not pol.allow_raw
    return pol


@pytest.fixture
def frame():
    rng = np.random.default_rng(11)
    x = np.round(rng.normal(50, 10, 200), 2)
    return pd.DataFrame(
        {
            "x": x,
            "y": np.round(0.5 * x + rng.normal(0, 4, 200), 2),
            "g": rng.choice(["a", "b"], 200),
        }
    )


def _refused(call, error=DisclosureError, match=None):
    """Call `call`; it must raise `error` and leave no figure and no audit entry behind."""
    before = set(plt.get_fignums())
    with pytest.raises(error, match=match) as info:
        call()
    assert set(plt.get_fignums()) == before, "a refused call left a figure open"
    # a model fitted before its refused diagnostic plot is a release of its own (the fit)
    refused = [e for e in audit.entries() if e.function not in ("safe_ols", "safe_glm")]
    assert refused == [], "a refused call reached the audit log"
    return info.value


# -- set_policy, the context manager and whole policies ---------------------------------


LOOSENINGS = [
    {"allow_raw": True},
    {"threshold": 2},
    {"k_min": 2},
    {"q_min": 0.1},
    {"allowed_methods": ["confidential"]},
    {"secret_key": SecretKey("an analyst's own key material")},
    {"locked": False, "threshold": 1},
]


@pytest.mark.parametrize("changes", LOOSENINGS, ids=lambda c: ",".join(c))
def test_set_policy_and_context_cannot_loosen(locked, changes):
    with pytest.raises(DisclosureError, match="locked"):
        set_policy(**changes)
    with pytest.raises(DisclosureError, match="locked"):  # noqa: SIM117
        with safeplot.policy(**changes):
            pass  # pragma: no cover
    with pytest.raises(DisclosureError, match="locked"):
        set_policy(Policy(**{k: v for k, v in changes.items() if k != "locked"}))
    assert get_policy() is locked


def test_unlocking_then_loosening_is_refused(locked):
    """``locked=False`` is ignored (the result stays locked), so a second step cannot loosen."""
    assert set_policy(locked=False).locked is True
    with pytest.raises(DisclosureError, match="allow_raw"):
        set_policy(allow_raw=True)


# -- per-call keyword arguments ---------------------------------------------------------


def test_per_call_keywords_below_the_locked_floors_are_refused(locked, frame):
    _refused(lambda: safeplot.histplot(data=frame, x="x", threshold=4), match="threshold=5")
    _refused(
        lambda: safeplot.scatterplot(data=frame, x="x", y="y", method="deterministic", k=4),
        match="k_min=5",
    )
    _refused(
        lambda: safeplot.scatterplot(data=frame, x="x", y="y", method="probabilistic", q=0.25),
        match="q_min=0.3",
    )
    _refused(
        lambda: safeplot.boxplot(data=frame, x="g", y="x", method="confidential"),
        match="not allowed",
    )
    _refused(lambda: safeplot.histplot(data=frame, x="x", method="none"), match="allow_raw")
    # at the floors the same calls are accepted
    ax = safeplot.histplot(data=frame, x="x", threshold=5)
    assert ax.safeplot_report.params["threshold"] == 5


#: Plot calls that leave k and q out, drawn under each value method.
_PLAIN_CALLS = {
    "histplot": lambda df, m: safeplot.histplot(data=df, x="x", method=m),
    "scatterplot": lambda df, m: safeplot.scatterplot(data=df, x="x", y="y", method=m),
    "boxplot": lambda df, m: safeplot.boxplot(data=df, x="g", y="x", method=m),
    "kdeplot": lambda df, m: safeplot.kdeplot(data=df, x="x", method=m),
}


@pytest.mark.parametrize("regime", ["locked-strict"], indirect=True)
@pytest.mark.parametrize("method", ["deterministic", "probabilistic", "microaggregation"])
@pytest.mark.parametrize("function", list(_PLAIN_CALLS))
def test_calls_without_k_or_q_use_the_locked_floors(regime, frame, function, method):
    """A call that does not choose k or q draws at the custodian's floors, and says so.

    Under a locked policy with k_min=5 and q_min=0.5, leaving k and q out is
    not a request for k=3 or q=0.25 (which the policy would refuse): the
    figure is drawn, and its report, its note and its audit entry give the
    value used.
    """
    pol = get_policy()
    assert pol.locked and (pol.k_min, pol.q_min) == (5, 0.5)
    ax = _PLAIN_CALLS[function](frame, method)
    key, used = ("q", 0.5) if method == "probabilistic" else ("k", 5)
    report = ax.safeplot_report
    assert report.method == method
    assert report.params[key] == used
    assert None not in (report.params.get("k", 0), report.params.get("q", 0))
    (entry,) = audit.entries()
    assert entry.method == method and entry.params[key] == used
    note = "\n".join(t.get_text() for t in ax.figure.findobj(Text))
    assert f"{key}={used:g}" in note, note


def _calls_taking_a_policy(frame):
    return {
        "corr": lambda pol: safeplot.corr(frame[["x", "y"]], policy=pol),
        "describe": lambda pol: safeplot.describe(frame[["x", "y"]], policy=pol),
        "safe_ols": lambda pol: safeplot.safe_ols("y ~ x", data=frame, policy=pol),
        "anonymize_values": lambda pol: anonymize_values(
            frame[["x", "y"]].to_numpy(), "deterministic", k=3, policy=pol
        ),
        "add_keyed_noise": lambda pol: add_keyed_noise(frame["x"].to_numpy(), q=0.1, policy=pol),
    }


@pytest.mark.parametrize(
    "name", ["corr", "describe", "safe_ols", "anonymize_values", "add_keyed_noise"]
)
@pytest.mark.parametrize(
    "loose",
    [
        Policy(allow_raw=True, threshold=5, k_min=5, q_min=0.3),
        Policy(threshold=1, k_min=5, q_min=0.3),
        Policy(k_min=2, threshold=5, q_min=0.3),
        Policy(q_min=0.05, threshold=5, k_min=5),
        Policy(sig_figs=12, threshold=5, k_min=5, q_min=0.3),
    ],
    ids=["allow_raw", "threshold", "k_min", "q_min", "sig_figs"],
)
def test_a_looser_policy_passed_to_a_call_is_refused(locked, frame, name, loose):
    """``policy=Policy(...)`` handed to one call answers to the locked custodian policy too."""
    _refused(lambda: _calls_taking_a_policy(frame)[name](loose), match="locked")


def test_a_tighter_policy_passed_to_a_call_is_used(locked, frame):
    tight = locked.replace(k_min=6)
    values = frame[["x", "y"]].to_numpy()
    assert anonymize_values(values, "deterministic", k=6, policy=tight).values.shape == (200, 2)
    with pytest.raises(DisclosureError, match="k_min=6"):
        anonymize_values(values, "deterministic", k=5, policy=tight)


def test_unlocked_policy_passed_to_a_call_is_used_as_given(frame):
    """Without a locked custodian file, a call's own policy is used as it is."""
    out = anonymize_values(frame[["x"]].to_numpy(), "deterministic", k=2, policy=Policy(k_min=2))
    assert out.values.shape == (200, 1)


# -- environment variables after import -------------------------------------------------


def test_environment_changed_after_loading_changes_nothing(locked, frame, tmp_path, monkeypatch):
    x = frame["x"].to_numpy()
    noisy_before = add_keyed_noise(x, q=0.3)
    loose = tmp_path / "loose.toml"
    loose.write_text(LOOSE_TOML, encoding="utf-8")
    monkeypatch.setenv("SAFEPLOT_POLICY", str(loose))
    monkeypatch.setenv("SAFEPLOT_SECRET", "an analyst's chosen key, long enough")
    monkeypatch.setenv("SAFEPLOT_HOME", str(tmp_path / "analyst_home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "analyst_config"))
    assert get_policy() is locked
    assert get_policy().key == SecretKey(MATERIAL)
    # the noise is still the custodian's: an analyst-chosen key would let it be regenerated
    assert np.array_equal(add_keyed_noise(x, q=0.3), noisy_before)
    _refused(lambda: safeplot.histplot(data=frame, x="x", method="none"), match="allow_raw")
    _refused(lambda: safeplot.histplot(data=frame, x="x", threshold=2), match="threshold=5")
    with pytest.raises(DisclosureError, match="locked"):
        set_policy(allow_raw=True)


def test_locked_file_read_at_import_holds_in_a_fresh_process(tmp_path):
    """The custodian file named at start-up is the floor; a looser file named later is ignored."""
    custodian = tmp_path / "custodian.toml"
    custodian.write_text(LOCKED_TOML, encoding="utf-8")
    loose = tmp_path / "loose.toml"
    loose.write_text(LOOSE_TOML, encoding="utf-8")
    script = textwrap.dedent(
        f"""
        import os
        import matplotlib
        matplotlib.use("Agg")
        import numpy as np
        import safeplot
        from safeplot import DisclosureError
        os.environ["SAFEPLOT_POLICY"] = {str(loose)!r}
        os.environ["SAFEPLOT_SECRET"] = "an analyst's chosen key, long enough"
        outcomes = []
        x = np.random.default_rng(0).normal(size=100)
        attempts = [
            lambda: safeplot.set_policy(allow_raw=True),
            lambda: safeplot.policy(threshold=1).__enter__(),
            lambda: safeplot.histplot(x=x, method="none"),
            lambda: safeplot.histplot(x=x, threshold=1),
            lambda: safeplot.corr(np.c_[x, x ** 2], policy=safeplot.Policy(allow_raw=True)),
        ]
        for attempt in attempts:
            try:
                attempt()
                outcomes.append("accepted")
            except DisclosureError:
                outcomes.append("refused")
        pol = safeplot.get_policy()
        print(outcomes.count("refused"), pol.threshold, pol.allow_raw, pol.locked)
        print(pol.key.source)
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAFEPLOT_")}
    env["SAFEPLOT_POLICY"] = str(custodian)
    env["SAFEPLOT_HOME"] = str(tmp_path / "home")
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    first, second = out.stdout.split("\n")[:2]
    assert first == "5 5 False True"
    assert "custodian.toml" in second
    assert MATERIAL not in out.stdout + out.stderr


# -- allow_raw=False blocks method="none" everywhere -------------------------------------


@pytest.fixture(params=["default", "locked"])
def no_raw(request, tmp_path, monkeypatch):
    """The built-in defaults (raw refused) and a locked custodian file that lists "none"."""
    if request.param == "locked":
        path = tmp_path / "custodian.toml"
        path.write_text(LOCKED_TOML, encoding="utf-8")
        monkeypatch.setenv("SAFEPLOT_POLICY", str(path))
        sp_policy._reset()
    assert get_policy().allow_raw is False
    return request.param


def _draw_case(case, df):
    if case.own_figure:
        return case.draw(df, "none", None)
    fig, ax = plt.subplots()
    try:
        return case.draw(df, "none", ax)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_raw_refused_for_every_public_plot_function(no_raw, case):
    df = SHAPES["D1"]
    err = _refused(lambda: _draw_case(case, df))
    assert "raw" in str(err)


def test_raw_refused_through_pandas_backend(no_raw, frame):
    calls = [
        lambda: frame["x"].plot.hist(backend="safeplot", method="none"),
        lambda: frame.plot(kind="scatter", x="x", y="y", backend="safeplot", method="none"),
        lambda: frame.plot.box(backend="safeplot", method="none"),
        lambda: frame.plot.hexbin(x="x", y="y", backend="safeplot", method="none"),
        lambda: frame["x"].plot.kde(backend="safeplot", method="none"),
        lambda: frame["g"].value_counts().plot.bar(backend="safeplot", method="none"),
        lambda: frame.hist(column="x", backend="safeplot", method="none"),
    ]
    for call in calls:
        _refused(call, match="raw")
    with pd.option_context("plotting.backend", "safeplot"):
        for call in (
            lambda: frame["x"].plot.hist(method="none"),
            lambda: frame.plot.scatter(x="x", y="y", method="none"),
            lambda: frame.plot(y="x", kind="box", method="none"),
            lambda: frame.hist(method="none"),
            lambda: frame.boxplot(column="x", method="none"),
        ):
            _refused(call, match="raw")


def test_raw_refused_on_the_safe_projection(no_raw, frame):
    fig = plt.figure()
    ax = fig.add_subplot(projection="safe")
    x, y = frame["x"], frame["y"]
    for call in (
        lambda: ax.hist(x, method="none"),
        lambda: ax.scatter(x, y, method="none"),
        lambda: ax.boxplot(x, method="none"),
        lambda: ax.hist2d(x, y, method="none"),
        lambda: ax.hexbin(x, y, method="none"),
    ):
        with pytest.raises(DisclosureError, match="raw"):
            call()
    assert audit.entries() == []
    assert not ax.patches and not ax.collections and not ax.lines
    plt.close(fig)


def test_raw_refused_through_the_seaborn_namespace(no_raw, frame):
    import safeplot as sns

    _refused(lambda: sns.distributions.histplot(data=frame, x="x", method="none"), match="raw")
    _refused(
        lambda: sns.relational.scatterplot(data=frame, x="x", y="y", method="none"), match="raw"
    )
    _refused(lambda: sns.regression.regplot(data=frame, x="x", y="y", method="none"))
    _refused(lambda: sns.matrix.heatmap(data=frame, x="x", y="y", method="none"))
    _refused(lambda: sns.categorical.boxplot(data=frame, x="g", y="x", method="none"))
    grid = sns.FacetGrid(frame, col="g")
    with pytest.raises(DisclosureError, match="raw"):
        grid.map(sns.histplot, "x", method="none")
    plt.close(grid.figure)
    assert audit.entries() == []
    # functions with no safe version are refused whatever the policy, even when raw is allowed
    for name in ("distplot",):
        _refused(lambda name=name: getattr(sns, name)(data=frame, x="x"), safeplot.UnsafePlotError)
        with safeplot.policy(allow_raw=True) if no_raw == "default" else _nothing():
            _refused(
                lambda name=name: getattr(sns, name)(data=frame, x="x", method="none"),
                safeplot.UnsafePlotError,
            )


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


def test_raw_allowed_only_when_the_policy_says_so(frame):
    """The same call draws raw output when raw is allowed, and the report and log say so."""
    with safeplot.policy(allow_raw=True):
        ax = safeplot.histplot(data=frame, x="x", method="none")
    assert ax.safeplot_report.method == "none"
    assert audit.entries()[-1].method == "none"
    assert any("Raw output" in w for w in ax.safeplot_report.warnings)
