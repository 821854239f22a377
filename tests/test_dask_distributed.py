"""The binned plots of a dask DataFrame on a dask.distributed cluster.

A :class:`distributed.LocalCluster` on the loopback interface (two workers
with one thread each, in this process, no dashboard) stands for a real
cluster: ``dask.compute`` sends the work to whichever client is active. The
releases must equal those of the same data in pandas, and the partitions
must be read and counted on the workers, with their summaries added up
there.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

from safeplot.plots.categorical import countplot  # noqa: E402
from safeplot.plots.distributions import histplot  # noqa: E402
from safeplot.plots.matrix import heatmap  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        # over TCP on the loopback interface, so that tasks and results are serialised as on
        # a real cluster (in-process workers would otherwise share objects)
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
        # no memory limit: in-process workers would measure the whole test process, which
        # after a few thousand tests holds more than a limit of 1 GiB allows, and a worker
        # over 80 % of its limit pauses, so the computation waits for ever
        memory_limit=0,
    )
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture(scope="module")
def frames():
    rng = np.random.default_rng(3)
    n = 3000
    df = pd.DataFrame(
        {
            "x": np.round(rng.normal(50, 10, n), 1),  # recorded to one decimal: ties
            "y": rng.normal(0, 1, n),  # continuous: every value distinct
            "g": rng.choice(["b", "a", "c"], n, p=[0.5, 0.3, 0.2]),
        }
    )
    df.loc[5, "x"] = 151.3  # unique outliers
    df.loc[7, "y"] = -9.25
    df.loc[10:20, "x"] = np.nan
    return df, dd.from_pandas(df, npartitions=6)


def _same(a, b):
    bars = [(p.get_x(), p.get_width(), p.get_height()) for p in a.patches]
    assert bars == [(p.get_x(), p.get_width(), p.get_height()) for p in b.patches]
    assert len(a.collections) == len(b.collections)
    for ca, cb in zip(a.collections, b.collections, strict=True):
        assert np.array_equal(np.asarray(ca.get_array()), np.asarray(cb.get_array()))
    assert a.get_xlim() == b.get_xlim() and a.get_ylim() == b.get_ylim()
    assert np.array_equal(a.get_xticks(), b.get_xticks())
    assert np.array_equal(a.get_yticks(), b.get_yticks())
    assert a.safeplot_report.to_dict() == b.safeplot_report.to_dict()


CASES = [
    (histplot, {"x": "x"}),
    (histplot, {"x": "y", "bins": 40}),
    (histplot, {"x": "x", "hue": "g", "method": "generalize"}),
    (heatmap, {"x": "x", "y": "y"}),
    (countplot, {"x": "g"}),
]


@pytest.mark.parametrize(("plot", "kws"), CASES, ids=[f"{p.__name__}{k}" for p, k in CASES])
def test_release_on_the_cluster_equals_pandas(client, frames, plot, kws):
    df, ddf = frames
    fig, (a, b) = plt.subplots(1, 2)
    try:
        plot(df, ax=a, **kws)
        with distributed.get_task_stream(client) as stream:
            plot(ddf, ax=b, **kws)
        _same(a, b)
    finally:
        plt.close(fig)
    ran = {
        task["key"][0] if isinstance(task["key"], tuple) else task["key"] for task in stream.data
    }
    assert ran, "nothing ran on the cluster"
    if plot is not countplot:
        names = " ".join(map(str, ran))
        # the partitions were summarised and counted on the workers, and added up there
        assert "_summary_part" in names and "_count_part" in names and "_combine" in names


def test_two_passes_on_the_cluster(client, frames, monkeypatch):
    """A histogram reads the data twice: the summary, and one count of everything else."""
    import safeplot.sources.dask as sdask

    calls = []
    compute = sdask._compute
    monkeypatch.setattr(
        sdask, "_compute", lambda tasks: calls.append(len(tasks)) or compute(tasks)
    )
    _, ddf = frames
    fig, ax = plt.subplots()
    try:
        histplot(ddf, x="y", bins=40, ax=ax)
    finally:
        plt.close(fig)
    # the counting pass comes back as one result: the partitions are added up on the workers
    assert calls == [ddf.npartitions, 1]
