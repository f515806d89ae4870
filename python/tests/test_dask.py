"""microagg.dask on a dask.distributed LocalCluster with two workers equals the
single-process result, stratum by stratum."""

import numpy as np
import pandas as pd
import pytest

import microagg
import microagg.dask

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(3)
    n = 400
    return pd.DataFrame(
        {
            "region": rng.choice(["north", "south", "east", "west"], size=n),
            "size": rng.choice([1, 2], size=n),
            "income": rng.lognormal(10, 1, size=n),
            "assets": rng.lognormal(11, 2, size=n),
            "age": rng.integers(18, 90, size=n).astype(float),
        }
    )


@pytest.mark.parametrize("method,extra", [("mdav", {}), ("mdav+ils", {"seed": 4, "max_steps": 150})])
def test_dask_equals_single_process_per_stratum(client, frame, method, extra):
    cols = ["income", "assets", "age"]
    ddf = dd.from_pandas(frame, npartitions=3)
    out = microagg.dask.microaggregate(ddf, 3, cols, strata=["region", "size"], method=method, **extra).compute()
    assert len(out) == len(frame) and out.index.sort_values().equals(frame.index)
    out = out.loc[frame.index]
    assert (out["region"] == frame["region"]).all() and (out["size"] == frame["size"]).all()
    strata = 0
    for _, part in frame.groupby(["region", "size"]):
        strata += 1
        r = microagg.run(part[cols], 3, method=method, bound=None, trace=False, **extra)
        assert np.array_equal(out.loc[part.index, "group"].to_numpy(), r.labels)
        masked = r.masked()
        for c in cols:
            assert np.array_equal(out.loc[part.index, c].to_numpy(), masked[c].to_numpy())
    assert strata == 8
    # The cluster the work ran on has its two workers.
    assert len(client.nthreads()) == 2


def test_a_small_stratum_is_an_error_naming_it(client, frame):
    small = pd.concat([frame, frame.iloc[:2].assign(region="tiny")], ignore_index=True)
    ddf = dd.from_pandas(small, npartitions=2)
    with pytest.raises(microagg.UsageError, match="region='tiny'.*fewer than k = 3"):
        microagg.dask.microaggregate(ddf, 3, ["income", "assets"], strata=["region"]).compute()
