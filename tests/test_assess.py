"""Tests for safeplot.assess, assess_plot and the ``safeplot assess`` command."""

from __future__ import annotations

import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import safeplot
import safeplot.assess
from safeplot import cli, metrics
from safeplot.assess import assess, assess_plot
from safeplot.datasets import simulate
from safeplot.errors import DisclosureError
from safeplot.keys import SecretKey
from safeplot.methods import anonymize_values
from safeplot.policy import Policy

K_SWEEP = [3, 5, 10, 20]


@pytest.fixture(scope="module")
def d2_sweep():
    """Deterministic anonymisation of D2 (n = 3000) for k = 3, 5, 10, 20.

    At this size every trend asserted below held for each of 13 seeds tried
    (0-11 and the default 1234).
    """
    return assess(simulate("D2", n=3000), ["x", "y"], sweep={"k": K_SWEEP})


def people(n=240, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {
            "age": rng.normal(50, 10, n),
            "bmi": rng.normal(27, 4, n),
            "sex": rng.choice(["f", "m"], n),
            "smoker": rng.choice([0, 1], n),
        }
    )
    df["sbp"] = 100 + 0.5 * df["age"] + 0.8 * df["bmi"] + rng.normal(0, 5, n)
    df["event"] = (rng.random(n) < 1 / (1 + np.exp(-(df["age"] - 50) / 10))).astype(int)
    return df


# -- the table ---------------------------------------------------------------------------


def test_one_row_per_setting_with_every_metric(d2_sweep):
    table = d2_sweep
    assert list(table["k"]) == K_SWEEP
    assert (table["method"] == "deterministic").all()
    assert (table["metric"] == "euclidean").all()
    expected = [
        "U",
        "U2",
        "delta_x",
        "delta_y",
        "risk1",
        "risk2",
        "IDR",
        "DDR",
        "IL1s",
        "ILMetrics",
        "IL_DR",
    ]
    assert [c for c in table.columns if c not in ("method", "k", "metric")] == expected
    assert table.attrs == {"method": "deterministic", "vars": ["x", "y"], "sweep": ["k"]}


def test_rows_match_the_metrics_called_directly():
    df = simulate("D1", n=400)
    table = assess(df, ["x", "y"], k=5)
    assert len(table) == 1 and table.attrs["sweep"] == []
    released = anonymize_values(df.to_numpy(), "deterministic", k=5).values
    x = df[["x", "y"]]
    y = pd.DataFrame(released, columns=["x", "y"])
    row = table.iloc[0]
    assert row["U"] == pytest.approx(metrics.propensity_utility(x, y), abs=1e-12)
    assert row["U2"] == pytest.approx(metrics.propensity_utility(x, y, degree=2))
    assert row["delta_x"] == pytest.approx(metrics.delta(x, y)["x"])
    r = metrics.drisk_rmd(x, y)
    assert (row["risk1"], row["risk2"]) == (r.risk1, r.risk2)
    assert row["IDR"] == metrics.interval_disclosure_risk(x, y)
    assert row["DDR"] == metrics.distance_linkage(x, y)
    assert row["IL1s"] == pytest.approx(metrics.il1s(x, y))
    assert row["ILMetrics"] == pytest.approx(metrics.il_metrics(x, y).value)
    assert row["IL_DR"] == pytest.approx(metrics.il_dr_score(x, y))


def test_deterministic_sweep_moves_in_the_published_directions(d2_sweep):
    t = d2_sweep
    # disclosure risk falls as k grows ...
    for column in ("risk1", "IDR"):
        assert (np.diff(t[column]) < 0).all(), column
    # ... and information loss rises
    for column in ("delta_x", "delta_y", "IL1s", "U", "U2"):
        assert (np.diff(t[column]) > 0).all(), column
    # the paper's rescaling lets the means drift slightly, which U sees, but barely
    assert (t["U"] > 0).all() and (t["U"] < 1e-4).all()


def test_deterministic_sweep_record_linkage(d2_sweep):
    """Record linkage falls with k; from k = 3 to 5 only when ties count as links.

    At k = 3 about half of the records share their centroid with another, so
    the intruder's pick among equally near records (DDR's default) already
    hides them: the k = 3 to 5 step is then small and its sign varies between
    data sets. Counting every tie as a link (the worst case), DDR falls
    strictly at every step.
    """
    ddr = t_ddr = d2_sweep["DDR"].to_numpy()
    assert (np.diff(ddr[1:]) < 0).all() and ddr[-1] < ddr[0]
    df = simulate("D2", n=3000)
    x = df.to_numpy()
    linked = [
        metrics.distance_linkage(x, anonymize_values(x, "deterministic", k=k).values, ties="link")
        for k in K_SWEEP
    ]
    assert (np.diff(linked) < 0).all()
    assert (np.array(linked) >= t_ddr).all()


def test_risk2_is_part_of_risk1_and_small(d2_sweep):
    """RMDID2 needs RMDID1 plus isolation, so it never exceeds risk1.

    It is not monotone in k for this method: fewer coinciding centroids at larger
    k leave more released records isolated, offsetting the fall of risk1 (only a
    handful of records of 3000 are at risk by RMDID2 at any k).
    """
    t = d2_sweep
    assert (t["risk2"] <= t["risk1"]).all()
    assert (t["risk2"] < 0.01).all()
    assert t["risk2"].iloc[-1] < t["risk1"].iloc[-1]


def test_microaggregation_sweep_over_k():
    df = simulate("D2", n=2000)
    t = assess(df, ["x", "y"], method="microaggregation", sweep={"k": [3, 5, 10, 20]})
    # a plot releases whole records, so the default groups whole records
    assert list(t["k"]) == [3, 5, 10, 20] and (t["algorithm"] == "mdav_multivariate").all()
    assert (np.diff(t["DDR"]) < 0).all()
    assert t["risk1"].iloc[-1] < t["risk1"].iloc[0]
    for column in ("delta_x", "delta_y", "IL1s"):
        assert (np.diff(t[column]) > 0).all(), column
    # whole-record groups of k share one released record, and the original nearest to it
    # is one record of the k: at most 1/k of them is linked. One variable at a time (the
    # paper's setting, by name) a record's pair of group means is nearly unique.
    assert (t["DDR"] <= 1 / t["k"] + 1e-12).all()
    w = assess(df, ["x", "y"], method="microaggregation", algorithm="mdav", k=5)
    assert w.loc[0, "algorithm"] == "mdav"
    assert t.loc[1, "DDR"] < 0.5 < w.loc[0, "DDR"]
    v = assess(df, ["x", "y"], method="microaggregation", algorithm="vmdav", k=5)
    assert v.loc[0, "algorithm"] == "vmdav"


def test_rounding_sweep_over_c():
    df = simulate("D1", n=2000)
    t = assess(df, ["x", "y"], method="rounding", sweep={"c": [5, 10, 20, 50]})
    assert list(t["c"]) == [5, 10, 20, 50] and (t["discretizer"] == "ewd").all()
    # more representative values: more risk, less loss
    assert (np.diff(t["DDR"]) > 0).all()
    # more representative values: more originals within 0.05 SD of their rounded value
    assert (np.diff(t["IDR"]) > 0).all()
    for column in ("delta_x", "delta_y", "IL1s"):
        assert (np.diff(t[column]) < 0).all(), column
    e = assess(df, ["x", "y"], method="rounding", c=10, sweep={"discretizer": ["efd", "kmeans"]})
    assert list(e["discretizer"]) == ["efd", "kmeans"] and (e["c"] == 10).all()


def test_probabilistic_sweep_over_q():
    df = simulate("D1", n=1500)
    pol = Policy(secret_key=SecretKey("assess test key 0123456789", source="test"))
    sweep = {"q": [0.25, 0.5, 1.0]}
    t = assess(df, ["x", "y"], method="probabilistic", sweep=sweep, policy=pol)
    assert list(t["q"]) == [0.25, 0.5, 1.0]
    for column in ("delta_x", "delta_y", "IL1s", "U2"):
        assert (np.diff(t[column]) > 0).all(), column
    for column in ("DDR", "IDR"):
        assert (np.diff(t[column]) < 0).all(), column
    # noise of a quarter SD already leaves almost nothing inside the RMD intervals
    assert (np.diff(t["risk1"]) <= 0).all() and t["risk1"].iloc[0] < 0.01


def test_single_variable_and_confidential_method():
    df = simulate("D2", n=500)
    t = assess(df, "x", method="confidential")
    assert t.loc[0, "winsor_sd"] == pytest.approx(2.6)
    assert list(t.filter(like="delta_").columns) == ["delta_x"]
    # winsorising changes only the tails: most records keep their value exactly
    assert t.loc[0, "DDR"] > 0.95
    # risk1 standardises each data set by its own mean and SD, as sdcMicro does, so
    # the narrower SD after winsorising moves almost every value out of its interval;
    # on the original's scale most records are at risk
    x = df[["x"]].to_numpy()
    released = anonymize_values(x, "confidential").values
    assert t.loc[0, "risk1"] == metrics.drisk_rmd(x, released).risk1 < 0.1
    assert metrics.drisk_rmd(x, released, scaling="original").risk1 > 0.9
    # deterministic keeps the SD of a single variable and nearly its mean
    t = assess(df, "x", sweep={"k": [3, 5]})
    np.testing.assert_allclose(t[["U", "U2"]], 0.0, atol=1e-4)


def test_strata_are_passed_to_the_anonymiser():
    df = people()
    t = assess(df, ["age", "bmi"], strata=["sex", "smoker"], k=3)
    codes = pd.MultiIndex.from_frame(df[["sex", "smoker"]]).factorize()[0]
    released = anonymize_values(df[["age", "bmi"]].to_numpy(), "deterministic", strata=codes)
    assert t.loc[0, "delta_age"] == pytest.approx(
        metrics.delta(df["age"].to_numpy(), released.values[:, 0]).iloc[0]
    )
    # strata only within the groups: it differs from the unstratified release
    assert t.loc[0, "delta_age"] != assess(df, ["age", "bmi"], k=3).loc[0, "delta_age"]


def test_formula_compares_coefficients_and_infers_the_family():
    df = people()
    ols = assess(df, ["age", "bmi"], formula="sbp ~ age + bmi", sweep={"k": [3, 10]})
    assert {"max_std_diff", "min_ci_overlap"} <= set(ols.columns)
    released = anonymize_values(df[["age", "bmi"]].to_numpy(), "deterministic", k=3).values
    an = df.assign(age=released[:, 0], bmi=released[:, 1])
    comp = metrics.coefficient_comparison("sbp ~ age + bmi", df, an, family="ols")
    assert ols.loc[0, "max_std_diff"] == pytest.approx(comp["std_diff"].max())
    assert ols.loc[0, "min_ci_overlap"] == pytest.approx(comp["ci_overlap"].min())
    logit = assess(df, ["age", "bmi"], formula="event ~ age + C(sex)")
    comp = metrics.coefficient_comparison(
        "event ~ age + C(sex)", df, df.assign(age=released[:, 0]), family="logit"
    )
    assert logit.loc[0, "max_std_diff"] == pytest.approx(comp["std_diff"].max())


def test_rows_with_missing_values_are_dropped_consistently():
    df = people()
    df.loc[[3, 17, 40], "age"] = np.nan
    df.loc[[5], "sex"] = None
    t = assess(df, ["age", "bmi"], strata="sex", formula="sbp ~ age + bmi")
    complete = df.dropna(subset=["age", "bmi", "sex"]).reset_index(drop=True)
    again = assess(complete, ["age", "bmi"], strata="sex", formula="sbp ~ age + bmi")
    pd.testing.assert_frame_equal(t, again)


def test_method_params_are_passed_through():
    df = simulate("D1", n=300)
    t = assess(df, ["x", "y"], metric="mahalanobis")
    assert t.loc[0, "metric"] == "mahalanobis"
    with pytest.raises(ValueError, match="does not take"):
        assess(df, ["x", "y"], bogus=1)


def test_module_is_callable():
    df = simulate("D1", n=200)
    pd.testing.assert_frame_equal(safeplot.assess(df, ["x", "y"]), assess(df, ["x", "y"]))
    assert callable(safeplot.assess.assess_plot)


# -- policy and bad input ----------------------------------------------------------------


def test_policy_floors_hold():
    df = simulate("D1", n=200)
    with pytest.raises(DisclosureError, match="k_min"):
        assess(df, ["x", "y"], k=2)
    with pytest.raises(DisclosureError, match="k_min=5"):
        assess(df, ["x", "y"], sweep={"k": [5, 3]}, policy=Policy(k_min=5))
    with safeplot.policy(k_min=4), pytest.raises(DisclosureError, match="k_min=4"):
        assess(df, ["x", "y"], k=3)
    with pytest.raises(DisclosureError, match="q_min"):
        assess(df, ["x", "y"], method="probabilistic", q=0.1)
    strict = Policy(allowed_methods=["suppress", "probabilistic"])
    with pytest.raises(DisclosureError, match="not allowed"):
        assess(df, ["x", "y"], policy=strict)
    with pytest.raises(DisclosureError, match="raw"):
        assess(df, ["x", "y"], method="none")


def test_small_strata_are_refused():
    df = people(60)
    df.loc[:1, "sex"] = "x"  # a stratum of two records
    with pytest.raises(DisclosureError, match="fewer than k"):
        assess(df, ["age", "bmi"], strata="sex")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"vars": ["age", "nothere"]}, ValueError, "not in the data"),
        ({"vars": ["sex"]}, ValueError, "not numeric"),
        ({"vars": []}, ValueError, "vars is empty"),
        ({"vars": ["age", "age"]}, ValueError, "twice"),
        ({"vars": ["age"], "strata": ["age"]}, ValueError, "both vars and strata"),
        ({"vars": ["age"], "method": "suppress"}, ValueError, "does not release"),
        ({"vars": ["age"], "method": "magic"}, ValueError, "not a safeplot method"),
        ({"vars": ["age"], "sweep": {"k": 5}}, ValueError, "list of values"),
        ({"vars": ["age"], "sweep": {"k": []}}, ValueError, "empty"),
        ({"vars": ["age"], "sweep": {}}, ValueError, "sweep must be"),
        ({"vars": ["age"], "formula": "sbp age"}, ValueError, "formula"),
        ({"vars": ["age"], "formula": "sbp ~ nothere"}, ValueError, "formula"),
    ],
)
def test_bad_input(kwargs, error, match):
    data = kwargs.pop("data", people())
    with pytest.raises(error, match=match):
        assess(data, **kwargs)


def test_constant_and_empty_columns_are_refused():
    df = people().assign(flat=1.0)
    with pytest.raises(DisclosureError, match="constant"):
        assess(df, ["age", "flat"])
    with pytest.raises(ValueError, match="no values"):
        assess(people().assign(age=np.nan), ["age"])


# -- the trade-off figure ----------------------------------------------------------------


def test_assess_plot_labels_each_point(d2_sweep):
    ax = assess_plot(d2_sweep, x="DDR", y="IL1s")
    assert [t.get_text() for t in ax.texts] == [f"k={k}" for k in K_SWEEP]
    (line,) = ax.lines
    np.testing.assert_array_equal(line.get_xdata(), d2_sweep["DDR"])
    np.testing.assert_array_equal(line.get_ydata(), d2_sweep["IL1s"])
    assert "record linkage" in ax.get_xlabel()
    assert "deterministic" in ax.get_title()


def test_assess_plot_defaults_and_existing_axes(d2_sweep):
    fig, ax = plt.subplots()
    out = assess_plot(d2_sweep, ax=ax, label="IL1s")
    assert out is ax
    assert ax.texts[0].get_text().startswith("IL1s=")
    assert "risk1" in ax.get_xlabel() and "U" in ax.get_ylabel()


def test_assess_plot_bad_input(d2_sweep):
    with pytest.raises(ValueError, match="not in the table"):
        assess_plot(d2_sweep, y="nothing")
    with pytest.raises(ValueError, match="non-empty"):
        assess_plot(pd.DataFrame())


# -- the command line --------------------------------------------------------------------


@pytest.fixture
def csv(tmp_path):
    path = tmp_path / "people.csv"
    people().to_csv(path, index=False)
    return path


def test_cli_assess_prints_table_and_writes_outputs(csv, tmp_path, capsys):
    out_json, out_png = tmp_path / "table.json", tmp_path / "tradeoff.png"
    argv = [
        "assess",
        str(csv),
        "--vars",
        "age,bmi",
        "--strata",
        "sex",
        "--sweep",
        "k=3,5,10",
        "--formula",
        "sbp ~ age + bmi",
        "--json",
        str(out_json),
        "--plot",
        str(out_png),
        "--y",
        "IL1s",
    ]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert "method=deterministic" in out and "risk1" in out and "max_std_diff" in out
    lines = [line.split() for line in out.splitlines()[2:5]]
    assert [row[1] for row in lines] == ["3", "5", "10"]
    payload = json.loads(out_json.read_text())
    assert payload["sweep"] == ["k"] and payload["vars"] == ["age", "bmi"]
    assert [row["k"] for row in payload["rows"]] == [3, 5, 10]
    table = assess(pd.read_csv(csv), ["age", "bmi"], strata="sex", sweep={"k": [3, 5, 10]})
    assert [row["risk1"] for row in payload["rows"]] == pytest.approx(list(table["risk1"]))
    assert out_png.stat().st_size > 1000


def test_cli_assess_probabilistic_and_params(csv, capsys):
    argv = ["assess", str(csv), "--vars", "age,bmi", "--method", "probabilistic", "--q", "0.5"]
    assert cli.main(argv) == 0
    assert "probabilistic" in capsys.readouterr().out
    argv = ["assess", str(csv), "--vars", "age,bmi", "--param", "metric=mahalanobis"]
    assert cli.main(argv) == 0
    assert "mahalanobis" in capsys.readouterr().out


def test_cli_assess_microaggregation_and_rounding(csv, capsys):
    argv = ["assess", str(csv), "--vars", "age,bmi", "--method", "microaggregation"]
    assert cli.main([*argv, "--param", "algorithm=vmdav", "--sweep", "k=3,6"]) == 0
    out = capsys.readouterr().out
    assert "vmdav" in out and "microaggregation" in out
    argv = ["assess", str(csv), "--vars", "age,bmi", "--method", "rounding"]
    assert cli.main([*argv, "--param", "discretizer=efd", "--sweep", "c=4,8"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[2:]]
    assert [(row[1], row[2]) for row in rows] == [("4", "efd"), ("8", "efd")]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--vars", "age", "--k", "2"], "k_min"),
        (["--vars", "sex"], "not numeric"),
        (["--vars", "age,nothere"], "not in the data"),
        (["--vars", ","], "--vars needs column names"),
        (["--vars", "age", "--sweep", "k"], "--sweep takes NAME=VALUE"),
        (["--vars", "age", "--param", "metric"], "--param takes NAME=VALUE"),
        (["--vars", "age", "--param", "bogus=1"], "does not take"),
        (["--vars", "age", "--method", "suppress"], "does not release"),
        (["--vars", "age,bmi", "--formula", "sbp ~ nothere"], "formula"),
        (["--vars", "age", "--json", "/nonexistent-dir/x.json"], "cannot write"),
    ],
)
def test_cli_assess_errors_without_traceback(csv, capsys, extra, message):
    assert cli.main(["assess", str(csv), *extra]) == 1
    err = capsys.readouterr().err
    assert err.startswith("safeplot: error:") and message in err and "Traceback" not in err


def test_cli_assess_unreadable_files(tmp_path, capsys):
    assert cli.main(["assess", str(tmp_path / "missing.csv"), "--vars", "a"]) == 1
    assert "cannot read" in capsys.readouterr().err
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    assert cli.main(["assess", str(empty), "--vars", "a"]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_cli_assess_requires_vars(csv, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["assess", str(csv)])
    assert exc.value.code == 2
    assert "--vars" in capsys.readouterr().err
