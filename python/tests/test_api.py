"""run / bound / check / solve_exact / methods / experiment / plot against independent
computations and invariants."""

import itertools
import pathlib

import numpy as np
import pandas as pd
import pytest

import microagg
from conftest import ROOT, as_array


def group_sse(X, labels):
    """SSE of the z-scored data (population std), recomputed in numpy."""
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return sum(((Z[labels == g] - Z[labels == g].mean(axis=0)) ** 2).sum() for g in np.unique(labels))


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(120, 3)) * [1.0, 5.0, 0.1] + rng.integers(0, 4, size=(120, 1)) * 3
    return pd.DataFrame(X, columns=["a", "b", "c"]).assign(region=["n", "s", "e"] * 40)


def test_run_result_fields_agree_with_numpy_and_the_check(frame):
    r = microagg.run(frame, 4, method="mdav+decompose-shrink+ils", max_steps=300, columns=["a", "b", "c"])
    X = frame[["a", "b", "c"]].to_numpy()
    assert r.labels.dtype == np.int64 and len(r.labels) == len(frame)
    assert np.isclose(r.sse, group_sse(X, r.labels), rtol=1e-9)
    assert np.isclose(r.il, 100 * r.sse / (len(X) * 3), rtol=1e-9)
    sizes = np.bincount(r.labels)
    assert r.groups == len(sizes) and sizes.min() == r.min_group_size >= 4
    # The nn bound is below the solution, and the gap is computed from it.
    assert r.bound_certified and 0 < r.lower_bound <= r.sse
    assert np.isclose(r.gap, 100 * (r.sse - r.lower_bound) / r.lower_bound)
    c = microagg.check(frame, 4, r.labels, columns=["a", "b", "c"])
    assert c.feasible and c.sse == pytest.approx(r.sse, rel=1e-12) and c.groups == r.groups
    assert list(r.stages["name"]) == ["mdav", "decompose-shrink", "ils"]
    assert r.stages["il"].iloc[-1] == pytest.approx(r.il)


def test_trace_is_monotone_and_ends_at_the_result(frame):
    r = microagg.run(frame, 3, method="mdav+ils", max_steps=500, bound=None, columns=["a", "b", "c"], trace_interval=0.0)
    t = r.trace
    assert list(t.columns) == ["seconds", "stage", "step", "current_il", "best_il"]
    assert len(t) > 0 and (t["stage"] == "ils").all()
    # Step lines carry the search's incrementally updated SSE; the stage's last line is its
    # result recomputed exactly, which may differ from it by rounding (1e-15 relative seen).
    assert (np.diff(t["best_il"]) <= 1e-12 * t["best_il"].iloc[0]).all()
    assert (np.diff(t["seconds"]) >= 0).all()
    assert t["best_il"].min() == pytest.approx(r.il, rel=1e-9)
    assert (t["current_il"] >= t["best_il"] - 1e-12).all()
    untraced = microagg.run(frame, 3, method="mdav+ils", max_steps=500, bound=None, columns=["a", "b", "c"], trace=False)
    assert len(untraced.trace) == 0 and np.array_equal(untraced.labels, r.labels)


def test_masked_replaces_the_chosen_columns_by_group_means(frame):
    r = microagg.run(frame, 3, method="mdav", columns=["a", "c"], bound=None)
    m = r.masked()
    assert list(m.columns) == list(frame.columns)
    assert m["b"].equals(frame["b"]) and m["region"].equals(frame["region"])
    for c in ["a", "c"]:
        means = frame.groupby(r.labels)[c].transform("mean").to_numpy()
        assert np.allclose(m[c].to_numpy(), means, rtol=1e-12, atol=0)


def test_bound_methods_are_below_the_exact_optimum():
    X = as_array(microagg.load("gauss:n=18,d=2,clusters=5,seed=3"))
    e = microagg.solve_exact(X, 3)
    assert e.proven_optimal
    # Brute force check of optimality on a smaller instance: every partition into groups
    # of 3..5 records of 9 records.
    Y = X[:9]
    best = min(_partitions_sse(Y, 3))
    e9 = microagg.solve_exact(Y, 3)
    assert e9.proven_optimal and e9.sse == pytest.approx(best, rel=1e-9)
    for m in ["nn", "colgen", "colgen-cuts"]:
        b = microagg.bound(Y, 3, m, time_limit=10)
        assert b.certified and 0 < b.lower_bound <= best * (1 + 1e-12), m
    mdav = microagg.run(X, 3, method="mdav", bound=None)
    assert e.sse <= mdav.sse + 1e-9 and e.lower_bound <= e.sse
    assert microagg.check(X, 3, e.labels).feasible


def _partitions_sse(Y, k):
    n = len(Y)
    Z = (Y - Y.mean(axis=0)) / Y.std(axis=0)

    def rec(rest):
        if not rest:
            yield 0.0
            return
        first, others = rest[0], rest[1:]
        for size in range(k - 1, min(2 * k - 1, len(rest))):
            for comb in itertools.combinations(others, size):
                g = [first, *comb]
                left = [i for i in others if i not in comb]
                if 0 < len(left) < k:
                    continue
                s = ((Z[g] - Z[g].mean(axis=0)) ** 2).sum()
                for t in rec(left):
                    yield s + t

    return rec(list(range(n)))


def test_methods_lists_the_registry():
    df = microagg.methods()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == [
        "name",
        "kind",
        "summary",
        "reference",
        "deterministic",
        "params",
        "params_doc",
    ]
    ms = df.set_index("name")
    assert ms.loc["mdav", "kind"] == "initializer" and ms.loc["ils", "kind"] == "refiner"
    assert ms.loc["mdav", "deterministic"] and not ms.loc["ils", "deterministic"]
    assert "stall" in ms.loc["ils", "params"] and "stall" in ms.loc["ils", "params_doc"]
    assert df["reference"].astype(bool).all()
    assert df["name"].is_unique and df["name"].iloc[0] == "mdav"


def test_dir_shows_the_public_names_only():
    names = dir(microagg)
    for helper in ("np", "os", "json", "Any", "Optional"):
        assert helper not in names
    for public in microagg.__all__:
        assert public in names and hasattr(microagg, public)


def test_reprs_say_what_the_objects_are():
    data = microagg.load("gauss:n=30,d=2,clusters=3,seed=1")
    assert repr(data).startswith("Data('gauss")
    assert "n=30, d=2" in repr(data) and "sha256=" in repr(data)
    r = microagg.run(data, k=3, method="mdav")
    assert repr(r).startswith("Result(method='mdav', k=3, il=")
    b = microagg.bound(data, 3)
    assert repr(b).startswith("BoundResult(nn") and "certified" in repr(b)
    e = microagg.solve_exact("gauss:n=12,d=2,clusters=3,seed=1", 3)
    text = repr(e)
    assert text.startswith("ExactResult(") and "proven optimal" in text and "labels" not in text
    c = microagg.check(data, 3, r.labels)
    assert repr(c).startswith("CheckResult(feasible, ")


def test_experiment_returns_the_records(tmp_path):
    df = microagg.experiment(ROOT / "instances" / "smoke.toml", jobs=2)
    # 3 instances x 2 k x (3 deterministic pipelines once + mdav+ils x 2 replicates).
    assert len(df) == 30 and not df.attrs["interrupted"]
    assert df.groupby("pipeline")["deterministic"].all().to_dict() == {
        "mdav": True,
        "mdav-generic": True,
        "mdav1": True,
        "mdav+ils": False,
    }
    for _, row in df[df["method"] == "mdav"].iterrows():
        r = microagg.run(row["instance"], int(row["k"]), method="mdav", bound=None)
        assert r.il == row["il"]
    assert (df["gap"] >= 0).all()
    # Written to a folder too, and refused the second time without resume.
    microagg.experiment(ROOT / "instances" / "smoke.toml", out=tmp_path / "r")
    assert (tmp_path / "r" / "records.jsonl").exists()
    with pytest.raises(microagg.UsageError, match="resume"):
        microagg.experiment(ROOT / "instances" / "smoke.toml", out=tmp_path / "r")


def test_plot_draws_the_trace_and_the_bound(frame):
    import matplotlib

    matplotlib.use("Agg")
    r = microagg.run(frame, 3, method="mdav+ils", max_steps=300, columns=["a", "b", "c"])
    ax = r.plot()
    ys = [tuple(line.get_ydata()) for line in ax.get_lines()]
    assert (r.il_lower_bound, r.il_lower_bound) in ys
    assert ax.get_ylabel() == "best IL so far (%)"  # as the CLI's convergence figure


def test_traces_of_parallel_runs_do_not_mix(frame):
    # Each run has its own trace observer: two traced runs in threads keep their own lines.
    import threading

    results = {}

    def solve(method):
        results[method] = microagg.run(frame, 3, method=method, max_steps=300, bound=None, columns=["a", "b", "c"], trace_interval=0.0)

    threads = [threading.Thread(target=solve, args=(m,)) for m in ("mdav+ils", "mdav+sa")]
    [t.start() for t in threads]
    [t.join() for t in threads]
    for method, r in results.items():
        refiner = method.split("+")[1]
        assert len(r.trace) > 0 and (r.trace["stage"] == refiner).all()
        assert r.trace["best_il"].iloc[-1] == pytest.approx(r.il, rel=1e-9)


def test_auto_returns_its_best_partition_with_the_bound():
    X = as_array(microagg.load("gauss:n=18,d=2,clusters=5,seed=3"))
    Y = X[:9]
    best = min(_partitions_sse(Y, 3))
    b = microagg.bound(Y, 3, "auto", time_limit=20)
    assert b.method == "auto" and b.produced_by == "bnp"
    p = b.best_partition
    assert p["proven_optimal"] and p["sse"] == pytest.approx(best, rel=1e-9)
    assert p["gap_percent"] == pytest.approx(100 * (p["sse"] - b.lower_bound) / b.lower_bound)
    c = microagg.check(Y, 3, b.labels)
    assert c.feasible and c.sse == pytest.approx(p["sse"], rel=1e-12)
    assert "proven optimal" in repr(b)
    nn = microagg.bound(Y, 3, "nn")
    assert nn.produced_by == "nn" and nn.best_partition is None and nn.labels is None
