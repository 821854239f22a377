"""`safeplot serve` and `safeplot.connect`: real servers on loopback ports, in subprocesses.

Each server is started with the command line of the deployment guide, on a
free loopback port, and stops itself (``--exit-after``) if a test run dies;
the fixture's finaliser terminates it in any case.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
from safeplot import ledger
from safeplot.errors import DisclosureError
from safeplot.release import to_json
from safeplot.remote import RemoteError, RemoteFrame, Session, run_call

ROOT = Path(__file__).resolve().parents[1]
#: Seconds after which a server started here stops by itself.
LIFETIME = 240
POLICY = """\
threshold = 5
k_min = 3
noise_draws = 1
allow_raw = true
locked = true
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cli(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "safeplot", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def _titanic() -> pd.DataFrame:
    frame = safeplot.load_dataset("titanic")
    # a transformed copy of a column, as a custodian's extract may hold one
    frame["age_months"] = frame["age"] * 12 + 6
    return frame


def _env(work: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "MPLBACKEND": "Agg",
        "SAFEPLOT_HOME": str(work / "home"),
    }
    env.pop("SAFEPLOT_POLICY", None)
    env.pop("SAFEPLOT_SECRET", None)
    return env


@contextlib.contextmanager
def _serving(work: Path, data: list[str], *options: str):
    """Run `safeplot serve` in `work` on a free loopback port; yield its address."""
    port = _free_port()
    command = [sys.executable, "-m", "safeplot", "serve"]
    for item in data:
        command += ["--data", item]
    command += ["--tokens", "analysts.toml", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--exit-after", str(LIFETIME), *options]
    proc = subprocess.Popen(
        command,
        env=_env(work),
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"safeplot serve did not start: {proc.stdout.read()}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


def _tokens(work: Path, grants: dict[str, str]) -> dict[str, str]:
    """Add the analysts with `safeplot token add`, run in this process.

    The command's own entry point (``safeplot.cli.main``) parses the same
    arguments and prints the same lines as the installed command, without
    starting a Python for each analyst; ``test_a_new_token_works_without_a_restart``
    runs the real command in a subprocess against a running server.
    """
    from safeplot import cli

    tokens = {}
    for name, datasets in grants.items():
        out = io.StringIO()
        args = ["token", "add", name, "--datasets", datasets]
        with contextlib.redirect_stdout(out):
            status = cli.main([*args, "--tokens", str(work / "analysts.toml")])
        assert status == 0, out.getvalue()
        tokens[name] = out.getvalue().strip().splitlines()[-1]
    return tokens


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A running `safeplot serve` with three analysts; yields what the tests need."""
    work = tmp_path_factory.mktemp("server")
    frame = _titanic()
    frame.to_csv(work / "titanic.csv", index=False)
    frame.iloc[:20].to_csv(work / "other.csv", index=False)
    (work / "policy.toml").write_text(POLICY)
    (work / "home").mkdir()
    tokens = _tokens(work, {"alice": "titanic", "bob": "other", "carol": "titanic,other"})
    data = ["titanic=titanic.csv", "other=other.csv"]
    options = ("--policy", str(work / "policy.toml"), "--max-body", "4096")
    with _serving(work, data, *options) as url:
        # the records as the server holds them (read from the same file)
        frame = pd.read_csv(work / "titanic.csv")
        yield {"url": url, "tokens": tokens, "work": work, "frame": frame}


@pytest.fixture(scope="module")
def policy(server):
    return safeplot.load_policy(server["work"] / "policy.toml")


def _session(server, who: str = "alice") -> Session:
    return safeplot.connect(server["url"], token=server["tokens"][who])


# -- tokens -------------------------------------------------------------------------------


def test_token_add_stores_only_a_hash_and_prints_the_token_last(server):
    text = (server["work"] / "analysts.toml").read_text()
    for token in server["tokens"].values():
        assert len(token) >= 40
        assert token not in text
    assert "[analysts.carol]" in text
    assert 'datasets = ["titanic", "other"]' in text


# -- authentication -----------------------------------------------------------------------

ROUTES = [
    ("GET", "/v1/datasets", None),
    ("GET", "/v1/datasets/titanic", None),
    ("POST", "/v1/datasets/titanic/release", {"function": "histplot", "args": {"x": "age"}}),
]


@pytest.mark.parametrize("verb, path, body", ROUTES)
@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong-token"}, {"Authorization": "Basic YWxpY2U6YWxpY2U="}],
)
def test_no_or_wrong_token_gets_401_and_nothing_else(server, verb, path, body, headers):
    r = httpx.request(verb, server["url"] + path, json=body, headers=headers, timeout=30)
    assert r.status_code == 401
    assert set(r.json()) == {"error", "detail"}
    assert "age" not in r.text and "titanic" not in r.text


@pytest.mark.parametrize("dataset", ["other", "nonexistent"])
def test_a_data_set_not_granted_gets_403_and_nothing_else(server, dataset):
    headers = {"Authorization": f"Bearer {server['tokens']['alice']}"}
    for verb, path, body in [
        ("GET", f"/v1/datasets/{dataset}", None),
        ("POST", f"/v1/datasets/{dataset}/release", {"function": "histplot", "args": {}}),
        ("POST", f"/v1/datasets/{dataset}/release", {"malformed": True}),
    ]:
        r = httpx.request(verb, server["url"] + path, json=body, headers=headers, timeout=30)
        assert r.status_code == 403, (path, r.text)
        assert set(r.json()) == {"error", "detail"}
    with _session(server, "bob") as sess:
        assert sess.datasets() == ["other"]
        with pytest.raises(RemoteError, match="403"):
            sess.dataset("titanic")


def test_every_request_is_logged_with_the_analyst(server):
    with _session(server, "carol") as sess:
        sess.dataset("other")
    lines = [json.loads(x) for x in (server["work"] / "safeplot-server-audit.jsonl").open()]
    assert any(e["analyst"] == "carol" and e["dataset"] == "other" for e in lines)
    assert any(e["analyst"] is None and e["status"] == 401 for e in lines)
    assert not any(t in json.dumps(lines) for t in server["tokens"].values())


# -- what routes return -------------------------------------------------------------------


def test_no_route_returns_more_than_a_release(server):
    schema = httpx.get(server["url"] + "/openapi.json", timeout=30).json()
    assert set(schema["paths"]) == {
        "/v1/health",
        "/v1/datasets",
        "/v1/datasets/{name}",
        "/v1/datasets/{name}/release",
        "/v1/datasets/{name}/glm-step",
    }
    answers = {}
    for path, item in schema["paths"].items():
        for verb, op in item.items():
            ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            answers[(verb, path)] = ref.rsplit("/", 1)[-1]
    assert answers == {
        ("get", "/v1/health"): "Health",
        ("get", "/v1/datasets"): "DatasetList",
        ("get", "/v1/datasets/{name}"): "DatasetInfo",
        ("post", "/v1/datasets/{name}/release"): "ReleaseResponse",
        ("post", "/v1/datasets/{name}/glm-step"): "GlmStep",
    }
    models = schema["components"]["schemas"]
    assert set(models["DatasetInfo"]["properties"]) == {"name", "n", "n_rounded_to", "columns"}
    assert set(models["Column"]["properties"]) == {"name", "dtype", "levels"}
    assert set(models["ReleaseResponse"]["properties"]) == {"function", "release"}
    assert set(models["GlmStep"]["properties"]) == {
        "names",
        "information",
        "score",
        "deviance",
        "n",
    }


def test_metadata_rounds_n_and_names_only_common_levels(server, policy):
    frame = server["frame"]
    with _session(server) as sess:
        df = sess.dataset("titanic")
    assert df.n == policy.round_count(len(frame))
    assert list(df.columns) == list(frame.columns)
    assert df.levels("class") == ["First", "Second", "Third"]
    assert df.levels("age") is None
    small = frame["deck"].value_counts()
    assert (small < policy.threshold).any() or df.levels("deck") is not None
    if (small < policy.threshold).any():
        assert df.levels("deck") is None


def test_a_release_carries_no_rare_values_or_exact_counts(server):
    with _session(server) as sess:
        df = sess.dataset("titanic")
        call = sess.release(df.name, "boxplot", {"x": "class", "y": "age", "method": "suppress"})
    (rel,) = call.releases
    assert rel.avoid.size == 0
    assert all(box.n == 0 for box in rel.boxes)


def test_a_raw_release_is_never_served_even_where_the_policy_allows_it(server):
    with _session(server) as sess, pytest.raises(DisclosureError, match="records"):
        sess.release("titanic", "histplot", {"x": "age", "method": "none"})


# -- the remote frame ---------------------------------------------------------------------


def test_the_remote_frame_refuses_every_way_to_read_values(server):
    with _session(server) as sess:
        df = sess.dataset("titanic")
    assert isinstance(df, RemoteFrame)
    attempts = [
        lambda: df.values,
        lambda: df.head(),
        lambda: df.tail(),
        lambda: df.iloc[0],
        lambda: df.loc[0],
        lambda: df.to_numpy(),
        lambda: df.to_pandas(),
        lambda: df.sample(),
        lambda: np.asarray(df),
        lambda: list(df),
        lambda: len(df),
        lambda: df.compute(),
        lambda: df["age"].to_numpy(),
        lambda: df["age"].values,
        lambda: df["age"].tolist(),
        lambda: df["age"].unique(),
        lambda: df["age"].mean(),
        lambda: df["age"][0],
        lambda: np.asarray(df["age"]),
        lambda: list(df["age"]),
        lambda: df.age.values,
        lambda: df.anything_else,
        lambda: df[df["age"] > 3],
        lambda: pd.DataFrame(df),
        lambda: __import__("pickle").dumps(df),
    ]
    for i, attempt in enumerate(attempts):
        with pytest.raises((DisclosureError, TypeError, ValueError)) as info:
            attempt()
        assert "stay" in str(info.value) or isinstance(info.value, (TypeError, ValueError)), i
    assert "Bearer" not in repr(sess) and server["tokens"]["alice"] not in repr(sess)


# -- remote == local ----------------------------------------------------------------------

CALLS = [
    ("histplot", {"x": "age", "hue": "sex"}),
    ("histplot", {"x": "fare", "method": "generalize"}),
    ("scatterplot", {"x": "age", "y": "fare"}),
    ("scatterplot", {"x": "age", "y": "fare", "method": "suppress"}),
    ("boxplot", {"x": "class", "y": "age"}),
    ("boxplot", {"x": "class", "y": "fare", "method": "confidential"}),
    ("countplot", {"x": "class", "hue": "sex"}),
    ("heatmap", {"x": "age", "y": "fare"}),
    ("kdeplot", {"x": "age", "hue": "sex"}),
    ("kdeplot", {"x": "fare", "method": "suppress"}),
    ("describe", {}),
    ("crosstab", {"index": "class", "columns": "sex"}),
    ("safe_ols", {"formula": "fare ~ age + pclass"}),
    ("safe_logit", {"formula": "survived ~ age + fare"}),
    ("diagnostics", {"formula": "fare ~ age", "model": "ols", "panel": "resid_fitted"}),
    ("diagnostics", {"formula": "fare ~ age", "model": "ols", "panel": "qq"}),
    ("diagnostics", {"formula": "survived ~ age", "model": "logit", "panel": "resid_leverage"}),
]


def test_remote_releases_equal_local_releases_exactly(server, policy):
    frame = server["frame"]
    local_book = ledger.Ledger(policy, name="local")
    with _session(server, "carol") as sess:
        for function, args in CALLS:
            columns = ["age", "fare"] if function == "describe" else None
            remote = sess.release("titanic", function, args, columns)
            data = frame if columns is None else frame[columns]
            with safeplot.policy(policy), ledger.using(local_book):
                local = run_call(function, data, args)
            assert to_json(remote) == to_json(local), function


def test_the_same_script_draws_the_same_figure_locally_and_remotely(server, policy):
    def script(df, ax):
        safeplot.histplot(data=df, x="age", hue="sex", ax=ax[0])
        safeplot.scatterplot(data=df, x="age", y="fare", ax=ax[1])
        safeplot.boxplot(data=df, x="class", y="age", ax=ax[2])
        safeplot.countplot(data=df, x="class", ax=ax[3])
        safeplot.kdeplot(data=df, x="age", hue="sex", ax=ax[4])
        fit = safeplot.safe_ols("fare ~ age", data=df)
        fit.plot_resid_fitted(ax=ax[5])
        fit.plot_qq(ax=ax[6])
        return fit, safeplot.crosstab(df, "class", "sex")

    figures, results = [], []
    with _session(server, "carol") as sess:
        for df in (server["frame"], sess.dataset("titanic")):
            fig, ax = plt.subplots(1, 7)
            with safeplot.policy(policy), ledger.using(ledger.Ledger(policy)):
                results.append(script(df, ax))
            figures.append(fig)
    (fit_l, tab_l), (fit_r, tab_r) = results
    pd.testing.assert_series_equal(fit_l.params, fit_r.params)
    assert fit_l.nobs == fit_r.nobs
    pd.testing.assert_frame_equal(tab_l, tab_r)
    for a, b in zip(figures[0].axes, figures[1].axes, strict=True):
        assert a.get_xlim() == b.get_xlim() and a.get_ylim() == b.get_ylim()
        assert [t.get_text() for t in a.get_xticklabels()] == [
            t.get_text() for t in b.get_xticklabels()
        ]
        assert len(a.patches) == len(b.patches) and len(a.collections) == len(b.collections)
        for pa, pb in zip(a.patches, b.patches, strict=True):
            np.testing.assert_allclose(pa.get_verts(), pb.get_verts())
        assert len(a.lines) == len(b.lines)
        for la, lb in zip(a.lines, b.lines, strict=True):
            np.testing.assert_array_equal(la.get_xydata(), lb.get_xydata())
        for ca, cb in zip(a.collections, b.collections, strict=True):
            np.testing.assert_array_equal(ca.get_offsets(), cb.get_offsets())
        assert a.safeplot_report.to_dict() == b.safeplot_report.to_dict()
    plt.close("all")


# -- policy and ledger on the server -------------------------------------------------------


@pytest.mark.parametrize(
    "args, floor",
    [
        ({"x": "age", "threshold": 2}, "threshold"),
        ({"x": "age", "method": "deterministic", "k": 2}, "k_min"),
        ({"x": "age", "method": "probabilistic", "q": 0.01}, "q_min"),
    ],
)
def test_the_locked_policy_holds_against_client_parameters(server, args, floor):
    with _session(server) as sess:
        df = sess.dataset("titanic")
        with pytest.raises(DisclosureError, match=floor):
            safeplot.histplot(data=df, **args)
        with pytest.raises(RemoteError, match="422"):
            sess.release("titanic", "histplot", {"x": "age", "policy": {"threshold": 1}})
    plt.close("all")


def test_the_ledger_refuses_on_the_server_what_it_refuses_locally(server, policy):
    frame = server["frame"]
    first = {"x": "age", "method": "probabilistic"}
    copy = {"x": "age_months", "method": "probabilistic"}
    with safeplot.policy(policy), ledger.using(ledger.Ledger(policy)):
        run_call("histplot", frame, first)
        with pytest.raises(DisclosureError, match="noise") as local:
            run_call("histplot", frame, copy)
    with _session(server, "carol") as sess:
        sess.release("titanic", "histplot", first)
        with pytest.raises(DisclosureError, match="noise") as remote:
            sess.release("titanic", "histplot", copy)
        # the ledger is the analyst's for this data set: another analyst is not refused
    with _session(server) as other:
        other.release("titanic", "histplot", copy)
    assert str(local.value) in str(remote.value)


# -- bad requests and load ----------------------------------------------------------------


def test_malformed_and_oversized_requests_get_a_clear_4xx_and_the_server_keeps_serving(server):
    url = server["url"] + "/v1/datasets/titanic/release"
    headers = {"Authorization": f"Bearer {server['tokens']['alice']}"}
    bad = [
        ('{"function": "histplot",', 422),
        ('{"function": "read_csv", "args": {}}', 422),
        ('{"function": "histplot", "args": {"x": "age", "data": [1, 2]}}', 422),
        ('{"function": "histplot", "args": {"x": "age", "k": "3"}}', 422),
        ('{"function": "histplot", "args": {"x": "no_such_column"}}', 422),
        ('{"function": "safe_ols", "args": {"formula": "fare ~ __import__(\'os\')"}}', 422),
        ('{"function": "safe_ols", "args": {"formula": "fare ~ I(open(\'x\'))"}}', 422),
        ('{"function": "safe_ols", "args": {"formula": "fare ~ np.random.seed(1)"}}', 422),
        ('["not", "an", "object"]', 422),
        ('{"function": "histplot", "args": {"x": "' + "a" * 5000 + '"}}', 413),
    ]
    for body, status in bad:
        r = httpx.post(url, content=body, headers=headers, timeout=30)
        assert r.status_code == status, (body[:60], r.text)
        assert set(r.json()) == {"error", "detail"}
        assert "Traceback" not in r.text
    r = httpx.post(url, json={"function": "histplot", "args": {"x": "age"}}, headers=headers)
    assert r.status_code == 200
    assert httpx.get(server["url"] + "/v1/health").json()["status"] == "ok"


#: Releases per client in the load test (SAFEPLOT_SERVER_LOAD sets another number). Twelve
#: take every client through the five calls at least twice; as the eight clients start the
#: rotation at different calls, the server computes all five calls side by side, three of
#: them for two clients at once, so state shared between concurrent releases (of the same
#: call or of different ones) shows as two different results. More rounds only repeat
#: the same overlaps (50 per client took four times as long); raise the number for a long
#: run that hunts rarer races.
LOAD_RELEASES = int(os.environ.get("SAFEPLOT_SERVER_LOAD", "12"))


def test_eight_concurrent_clients_get_identical_results(server):
    calls = [
        ("histplot", {"x": "age", "hue": "sex"}),
        ("boxplot", {"x": "class", "y": "age"}),
        ("safe_ols", {"formula": "fare ~ age"}),
        ("countplot", {"x": "class"}),
        ("describe", {}),
    ]

    def client(i: int) -> list[str]:
        with _session(server, "alice") as sess:
            out = []
            for j in range(LOAD_RELEASES):
                function, args = calls[(i + j) % len(calls)]
                out.append((function, to_json(sess.release("titanic", function, args))))
            return out

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = [r for rs in pool.map(client, range(8)) for r in rs]
    assert len(results) == 8 * LOAD_RELEASES
    by_function: dict[str, set[str]] = {}
    for function, text in results:
        by_function.setdefault(function, set()).add(text)
    assert all(len(texts) == 1 for texts in by_function.values()), {
        f: len(t) for f, t in by_function.items()
    }


# -- federation ---------------------------------------------------------------------------


@pytest.fixture
def sites(tmp_path_factory):
    """Two servers, each holding half of the records (alternate rows in order of age).

    New servers for each test: a site's release ledger remembers what it released, and
    links a test's histograms to another test's on other bins (as it must an analyst's).
    """
    whole = pd.read_csv(ROOT / "safeplot" / "data" / "titanic.csv")
    whole = whole.sort_values("age", kind="stable").reset_index(drop=True)
    halves = [whole.iloc[0::2], whole.iloc[1::2]]
    urls, tokens = [], []
    with contextlib.ExitStack() as stack:
        for i, half in enumerate(halves):
            work = tmp_path_factory.mktemp(f"site{i}")
            (work / "home").mkdir()
            half.to_csv(work / "titanic.csv", index=False)
            tokens.append(_tokens(work, {"dana": "titanic"})["dana"])
            urls.append(stack.enter_context(_serving(work, ["titanic=titanic.csv"])))
        whole = pd.read_csv(work / "titanic.csv").iloc[:0]  # dtypes as the sites read them
        yield {
            "urls": urls,
            "tokens": tokens,
            "whole": pd.concat([h.astype(whole.dtypes.to_dict()) for h in halves]),
        }


def test_a_pooled_histogram_equals_the_suppressed_histogram_of_the_whole(sites):
    with safeplot.connect(sites["urls"], tokens=sites["tokens"]) as fed:
        df = fed.dataset("titanic")
        fig, ax = plt.subplots()
        safeplot.histplot(data=df, x="age", ax=ax)
    pooled = ax.safeplot_report
    assert pooled.details["pooled_sites"] == 2
    with ledger.using(ledger.Ledger()):
        whole = run_call("histplot", sites["whole"], {"x": "age"}).releases[0]
    # the pooled bars are the whole's unsuppressed bins wherever both sites showed the bin
    heights = {round(p.get_x(), 9): p.get_height() for p in ax.patches if p.get_height() > 0}
    left = np.round(whole.edges[:-1], 9)
    shown_whole = {e: c for e, c in zip(left, whole.counts, strict=True) if c > 0}
    assert heights, "nothing pooled"
    for edge, height in heights.items():
        assert shown_whole[edge] == height
    # and a bin the whole suppresses is suppressed in the pooled histogram
    hidden_whole = {e for e, c in zip(left, whole.counts, strict=True) if np.isnan(c)}
    assert not hidden_whole & set(heights)
    # the rule: every pooled count is 0 or at least the threshold
    assert all(h >= 3 for h in heights.values())
    plt.close(fig)


def test_a_pooled_logistic_regression_equals_the_single_site_fit(sites):
    import statsmodels.formula.api as smf

    formula = "survived ~ age + fare"
    with safeplot.connect(sites["urls"], tokens=sites["tokens"]) as fed:
        fit = safeplot.safe_logit(formula, data=fed.dataset("titanic"))
    single = smf.logit(formula, data=sites["whole"]).fit(disp=0, tol=1e-12)
    np.testing.assert_allclose(fit.params.to_numpy(), single.params.to_numpy(), atol=1e-6)
    np.testing.assert_allclose(fit.bse.to_numpy(), single.bse.to_numpy(), atol=1e-6)
    assert list(fit.params.index) == list(single.params.index)


def test_a_pooled_call_that_cannot_pool_is_refused_clearly(sites):
    with safeplot.connect(sites["urls"], tokens=sites["tokens"]) as fed:
        df = fed.dataset("titanic")
        with pytest.raises(ValueError, match="cannot pool"):
            safeplot.boxplot(data=df, x="class", y="age")
        with pytest.raises(DisclosureError):
            _ = df.values


# -- the command line ---------------------------------------------------------------------


def test_a_new_token_works_without_a_restart(server):
    # the installed command, in its own process, as the deployment guide runs it
    work = server["work"]
    args = ("token", "add", "erin", "--datasets", "other", "--tokens", "analysts.toml")
    erin = _cli(*args, env=_env(work), cwd=work).stdout.strip().splitlines()[-1]
    with safeplot.connect(server["url"], token=erin) as sess:
        assert sess.datasets() == ["other"]


def test_serve_without_the_server_extra_says_what_to_install(monkeypatch, capsys, tmp_path):
    import importlib.util

    from safeplot import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "fastapi" else real(name)
    )
    status = cli.main(["serve", "--data", "t=t.csv", "--tokens", str(tmp_path / "a.toml")])
    assert status == 1
    err = capsys.readouterr().err
    assert 'pip install "safeplot[server]"' in err and "Traceback" not in err


def test_token_add_refuses_bad_names(tmp_path, capsys):
    from safeplot import cli

    path = str(tmp_path / "analysts.toml")
    assert cli.main(["token", "add", "a b", "--datasets", "x", "--tokens", path]) == 1
    assert cli.main(["token", "add", "ok", "--datasets", "../x", "--tokens", path]) == 1
    assert "not valid" in capsys.readouterr().err
    assert not Path(path).exists()


def test_pooled_histograms_with_hue_equal_the_whole_per_level(sites):
    with safeplot.connect(sites["urls"], tokens=sites["tokens"]) as fed:
        df = fed.dataset("titanic")
        calls = [
            s.session.release("titanic", "histplot", {"x": "age", "hue": "sex"}) for s in df.sites
        ]
        fig, ax = plt.subplots()
        safeplot.histplot(data=df, x="age", hue="sex", ax=ax)
        plt.close(fig)
    from safeplot.remote._federation import pool_histograms

    pooled = pool_histograms([c.releases for c in calls], 3)
    with ledger.using(ledger.Ledger()):
        whole = run_call("histplot", sites["whole"], {"x": "age", "hue": "sex"}).releases
    assert [r.level for r in pooled] == [r.level for r in whole]
    assert sorted(r.level for r in pooled) == ["female", "male"]
    compared = 0
    for p, w in zip(pooled, whole, strict=True):
        left = dict(zip(np.round(w.edges[:-1], 9), w.counts, strict=True))
        for edge, count in zip(np.round(p.edges[:-1], 9), p.counts, strict=True):
            if np.isnan(count):
                continue
            # where every site showed the bin, the pooled count is the whole's
            assert left[edge] == count, (p.level, edge)
            compared += count > 0
        # the pooling rule: a shown pooled count is 0 or at least the threshold
        assert np.all(np.isnan(p.counts) | (p.counts == 0) | (p.counts >= 3))
    assert compared >= 10
    # the figure drew the same bars (one colour per level)
    assert ax.safeplot_report.details["pooled_sites"] == 2


def test_pooled_quantiles_hold_the_whole_datas_quantiles(sites):
    from safeplot import audit
    from safeplot.remote._federation import count_bounds, quantile_bounds

    probs = [0.1, 0.25, 0.5, 0.75, 0.9]
    with safeplot.connect(sites["urls"], tokens=sites["tokens"]) as fed:
        df = fed.dataset("titanic")
        table = safeplot.remote.pooled_quantiles(df, "age", probs, binwidth=2.5)
        # the same table from the releases alone: nothing else reaches the analyst
        calls = [
            s.session.release("titanic", "histplot", {"x": "age", "binwidth": 2.5})
            for s in df.sites
        ]
    bounds = [count_bounds(c.reports[0].n, 5, 3) for c in calls]
    again = quantile_bounds([c.releases[0] for c in calls], bounds, probs)
    pd.testing.assert_frame_equal(table, again)
    ages = sites["whole"]["age"].dropna().to_numpy()
    truth = np.quantile(ages, probs, method="inverted_cdf")
    for p, t in zip(probs, truth, strict=True):
        low, estimate, high = table.loc[p]
        assert low <= t <= high
        assert abs(estimate - t) <= 2.5
    assert (table["high"] - table["low"] <= 7.5).all()
    assert audit.entries()[-1].function == "pooled_quantiles"
