"""The run options of issue 22 from Python: sampling weights, the missing-value policy,
the aggregation, the released values and the measures. Figures by hand (the same cases as
tests/release/weights.rs and tests/release/missing.rs) and against the CLI on the same data."""

import io
import json
import math
import subprocess

import numpy as np
import pandas as pd
import pytest

import microagg
from conftest import ROOT, casc_or_skip, run_cli

WEIGHTED = "x,w\n-3,1\n-1,3\n1,2\n3,2\n"
FOUR = "id,a,b\nr1,0,0\nr2,1,NA\nr3,10,10\nr4,11,12\n"
# Ten records with unequal weights and holes (empty and NA cells, one record with two).
HOLES = (
    "id,w,a,b,c\n"
    "r1,1.5,0,10,3\nr2,4,1,,2.5\nr3,0.5,2,12,NA\nr4,2,9,,\nr5,3,10,30,8\n"
    "r6,1,11,28,7.5\nr7,2.5,20,NA,1\nr8,1,21,41,0.5\nr9,6,23,44,1.5\nr10,0.25,5,20,5\n"
)
AGENCY = ROOT / "examples" / "agency" / "households.csv"


def cli_json(cli, *args):
    out = subprocess.run([str(cli), *args, "--json"], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_weighted_mean_and_median_by_hand(tmp_path):
    df = pd.read_csv(io.StringIO(WEIGHTED))
    r = microagg.run(df, 2, method="univariate", bound=None, weights="w", release=True)
    # Groups {-3, -1} and {1, 3}: weighted SSE 1.4, SST 6.3 (z units), IL 100 * 7 / 31.5.
    assert list(r.labels) == [0, 0, 1, 1]
    w = r.record["weights"]
    assert w["column"] == "w" and w["objective"] == "weighted"
    assert math.isclose(w["il"], 100 * 7 / 31.5, rel_tol=1e-12)
    # Weighted means (-3 + 3 * -1) / 4 = -1.5 and 2; the weights column is kept.
    assert list(r.released["x"]) == [-1.5, -1.5, 2.0, 2.0]
    assert list(r.released["w"]) == [1, 3, 2, 2]
    assert r.record["release"]["aggregation"] == "mean"
    # sdcMicro's weighted median: rw = 1/4, 1 -> -1; rw = 2/4 exactly -> (1 + 3) / 2.
    m = microagg.run(df, 2, method="univariate", bound=None, weights="w", release=True, aggregate="median")
    assert list(m.released["x"]) == [-1.0, -1.0, 2.0, 2.0]
    rel = m.record["release"]
    assert rel["aggregation"] == "median"
    assert math.isclose(rel["il_released_weighted"], 100 * 8 / 31.5, rel_tol=1e-12)
    # The same weights as an array: the same run.
    a = microagg.run(df[["x"]], 2, method="univariate", bound=None, weights=df["w"].to_numpy(), release=True)
    assert list(a.labels) == list(r.labels) and a.record["weights"]["il"] == w["il"]


def test_weights_equal_the_cli(cli, tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(WEIGHTED)
    rec = cli_json(cli, "run", "--data", str(path), "--weights", "w", "--k", "2", "--method", "univariate",
                   "--masked-out", str(tmp_path / "m.csv"), "--aggregate", "median")
    r = microagg.run(str(path), 2, method="univariate", bound=None, weights="w", release=True, aggregate="median")
    for key in ("sse", "sst", "il", "total", "objective"):
        assert r.record["weights"][key] == rec["weights"][key], key
    assert r.record["release"]["il_released_weighted"] == rec["release"]["il_released_weighted"]
    assert r.record["release"]["il_released"] == rec["release"]["il_released"]


def weighted_records(n=40, seed=7):
    """``n`` records in three clustered attributes with unequal weights (no holes)."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 5, size=(4, 3))
    x = centres[rng.integers(0, 4, n)] + rng.normal(0, 1, size=(n, 3))
    df = pd.DataFrame(np.round(x, 4), columns=["a", "b", "c"])
    df["w"] = np.round(10 ** rng.uniform(0, 2, n), 3)
    return df


@pytest.mark.parametrize("method", ["nn", "colgen"])
def test_weighted_bounds_equal_the_cli(cli, tmp_path, method):
    """The weighted bounds (nn: proofs/P41, colgen: P43) from Python equal the CLI's:
    ``bound(..., weights=W)`` = ``microagg bound --weights W`` and ``run(..., bound=B,
    weights=W)``'s ``record["weights"]["bound"]`` = ``run --bound B --weights W``'s, to the
    last bit; the weighted bound lies below the weighted SSE and differs from the
    unweighted bound of the same data."""
    df = weighted_records()
    path = tmp_path / "w.csv"
    df.to_csv(path, index=False)
    k = 3
    b_cli = cli_json(cli, "bound", "--data", str(path), "--weights", "w", "--k", str(k), "--method", method)
    b = microagg.bound(str(path), k, method, weights="w")
    assert b.details["weighted"] is True and b.details["weights"] == "w"
    assert b.lower_bound == b_cli["lower_bound"] and b.il_lower_bound == b_cli["il_lower_bound"]
    assert b.details["sst_weighted"] == b_cli["sst_weighted"]
    # The same weights from a DataFrame column: the same nn bound (colgen's start pipeline
    # is seeded by the instance's name and checksum, so its master may end elsewhere).
    from_frame = microagg.bound(df, k, method, weights="w")
    assert from_frame.details["sst_weighted"] == b.details["sst_weighted"]
    if method == "nn":
        assert from_frame.lower_bound == b.lower_bound
    unweighted = microagg.bound(df[["a", "b", "c"]], k, method)
    assert unweighted.lower_bound != b.lower_bound

    r_cli = cli_json(cli, "run", "--data", str(path), "--weights", "w", "--k", str(k), "--method", "mdav",
                     "--bound", method)
    r = microagg.run(str(path), k, method="mdav", bound=method, weights="w", trace=False)
    assert r.record["weights"]["bound"]["lower_bound"] == r_cli["weights"]["bound"]["lower_bound"]
    assert r.record["weights"]["bound"]["gap_percent"] == r_cli["weights"]["bound"]["gap_percent"]
    assert r.lower_bound == r_cli["bounds"][0]["sse"]
    assert 0 < r.record["weights"]["bound"]["lower_bound"] <= r.record["weights"]["sse"]
    if method == "nn":
        # No start partition enters the nn bound: the run's weighted bound is bound()'s.
        assert r.record["weights"]["bound"]["lower_bound"] == b.lower_bound


def test_weights_refusals(tmp_path):
    df = pd.read_csv(io.StringIO(WEIGHTED))
    for cut in ("colgen-cuts", "bnp"):
        with pytest.raises(microagg.UsageError,
                           match=f'bound="{cut}" with weights: only "nn" .proofs/P41. and "colgen" .proofs/P43.'):
            microagg.run(df, 2, method="univariate", weights="w", bound=cut)
        with pytest.raises(microagg.UsageError, match=f'method="{cut}" with weights: only "nn"'):
            microagg.bound(df, 2, cut, weights="w")
    with pytest.raises(microagg.UsageError, match="unknown bound"):
        microagg.bound(df, 2, "nope", weights="w")
    # Data with holes: no bound covers the SSE over observed cells (as run(bound=...)).
    path = tmp_path / "four.csv"
    path.write_text(FOUR)
    holes = microagg.load(str(path), ["a", "b"], missing="ignore")
    with pytest.raises(microagg.UsageError, match="missing cells"):
        microagg.bound(holes, 2, "nn")
    with pytest.raises(microagg.UsageError, match="only the mean and the median"):
        microagg.run(df, 2, method="univariate", bound=None, weights="w", release=True, aggregate="onestep")
    with pytest.raises(microagg.UsageError, match="2 values for 4 records"):
        microagg.run(df[["x"]], 2, method="univariate", bound=None, weights=[1.0, 2.0])
    with pytest.raises(microagg.DataError):
        microagg.run(df[["x"]], 2, method="univariate", bound=None, weights=[1.0, 2.0, 0.0, 1.0])


def test_missing_values_by_hand_and_against_the_cli(cli, tmp_path):
    path = tmp_path / "four.csv"
    path.write_text(FOUR)
    masked_csv = tmp_path / "m.csv"
    rec = cli_json(cli, "run", "--data", str(path), "--columns", "a,b", "--k", "2", "--method", "mdav",
                   "--missing", "ignore", "--masked-out", str(masked_csv))
    r = microagg.run(str(path), 2, method="mdav", bound=None, columns=["a", "b"], missing="ignore", release=True)
    # MDAV, k = 2: {r1, r2} and {r3, r4}; masked SSE a: 2 * 0.5 / 25.25, b: 2 / (744 / 27).
    assert list(r.labels) == [0, 0, 1, 1]
    want = 2 * 0.5 / 25.25 + 2 / (744 / 27)
    assert math.isclose(r.sse, want, rel_tol=1e-12)
    assert r.sse == rec["sse"] and r.il == rec["il"]
    assert r.record["missing"] == rec["missing"]
    assert r.record["missing"]["cells"] == 1 and r.record["missing"]["release"] == "keep"
    assert r.record["release"]["il_released"] == rec["release"]["il_released"]
    # The hole stays a hole; the group value of b is r1's own 0 (the only observed one).
    assert math.isnan(r.released["b"][1]) and r.released["b"][0] == 0.0
    assert list(r.released["a"]) == [0.5, 0.5, 10.5, 10.5]
    fill = microagg.run(str(path), 2, method="mdav", bound=None, columns=["a", "b"], missing="ignore",
                        release=True, missing_release="fill")
    assert fill.released["b"][1] == 0.0 and fill.record["missing"]["release"] == "fill"
    # A DataFrame with NaN gives the same partition and SSE.
    df = pd.read_csv(path)
    f = microagg.run(df, 2, method="mdav", bound=None, columns=["a", "b"], missing="ignore", release=True)
    assert list(f.labels) == list(r.labels) and f.sse == r.sse
    assert list(f.released["id"]) == ["r1", "r2", "r3", "r4"]


def test_masked_on_data_with_holes_takes_the_means_of_the_observed_cells(tmp_path):
    """Result.masked() on data with holes: each group's mean over its observed cells and a
    hole kept a hole (the values of Result.released), not NaN spread over the group."""
    path = tmp_path / "four.csv"
    path.write_text(FOUR)
    r = microagg.run(str(path), 2, method="mdav", bound=None, columns=["a", "b"], missing="ignore")
    m = r.masked()
    # {r1, r2} and {r3, r4}: b of the first group is r1's own 0, r2's hole stays.
    assert list(m["a"]) == [0.5, 0.5, 10.5, 10.5]
    assert m["b"][0] == 0.0 and math.isnan(m["b"][1]) and list(m["b"][2:]) == [11.0, 11.0]
    rng = np.random.default_rng(11)
    x = rng.normal(size=(60, 3)).round(3) * [1.0, 50.0, 0.01]
    x[rng.random(x.shape) < 0.1] = np.nan
    x[np.isnan(x).all(axis=1), 0] = 1.0
    df = pd.DataFrame(x, columns=["a", "b", "c"]).assign(id=range(60))
    r = microagg.run(df, 3, method="mdav", bound=None, columns=["a", "b", "c"], missing="ignore", release=True)
    m = r.masked()
    assert m["id"].equals(df["id"])
    for j, c in enumerate("abc"):
        observed = ~np.isnan(x[:, j])
        # pandas' group mean skips NaN: the mean over each group's observed cells.
        means = df.groupby(r.labels)[c].transform("mean").to_numpy()
        assert np.array_equal(np.isnan(m[c].to_numpy()), ~observed)
        assert np.allclose(m[c].to_numpy()[observed], means[observed], rtol=1e-12, atol=0)
        assert np.array_equal(m[c].to_numpy(), r.released[c].to_numpy(), equal_nan=True)


@pytest.mark.parametrize("method", ["mdav-generic", "mdav-nc", "cbfs", "cbfs-nn"])
def test_masked_engine_methods_equal_the_cli(cli, tmp_path, method):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(40, 3)).round(3)
    x[rng.random(x.shape) < 0.15] = np.nan
    x[np.isnan(x).all(axis=1), 0] = 1.0
    df = pd.DataFrame(x, columns=["a", "b", "c"])
    path = tmp_path / "d.csv"
    df.to_csv(path, index=False, na_rep="NA")
    rec = cli_json(cli, "run", "--data", str(path), "--k", "3", "--method", method, "--missing", "ignore",
                   "--labels-out", str(tmp_path / "l.txt"))
    r = microagg.run(str(path), 3, method=method, bound=None, missing="ignore")
    assert list(r.labels) == list(np.loadtxt(tmp_path / "l.txt", dtype=np.int64))
    assert r.sse == rec["sse"] and r.record["missing"] == rec["missing"]


def test_missing_refusals():
    df = pd.read_csv(io.StringIO(FOUR))
    with pytest.raises(microagg.DataError, match="row 2"):
        microagg.run(df, 2, method="mdav", bound=None, columns=["a", "b"])
    with pytest.raises(microagg.UsageError, match="assumes complete data"):
        microagg.run(df, 2, method="mdav+ils", bound=None, columns=["a", "b"], missing="ignore")
    with pytest.raises(microagg.UsageError, match="missing cells"):
        microagg.run(df, 2, method="mdav", columns=["a", "b"], missing="ignore")
    # The masked descent runs after an engine method (a local optimum, never worse).
    r = microagg.run(df, 2, method="mdav+descent", bound=None, columns=["a", "b"], missing="ignore")
    assert list(r.stages["name"]) == ["mdav", "descent"] and r.sse <= r.stages["sse"][0]
    with pytest.raises(microagg.UsageError, match="release=True"):
        microagg.run(df, 2, method="mdav", bound=None, columns=["a", "b"], missing="ignore", aggregate="median")
    with pytest.raises(microagg.UsageError, match="'refuse' or 'ignore'"):
        microagg.run(df, 2, method="mdav", bound=None, columns=["a", "b"], missing="skip")


def test_measures_and_aggregation_equal_the_cli(cli, tmp_path):
    data = casc_or_skip("tarragona")
    rec = cli_json(cli, "run", "--data", "tarragona", "--k", "3", "--method", "mdav",
                   "--masked-out", str(tmp_path / "m.csv"), "--aggregate", "onemode", "--measures",
                   "--row-order", "input")
    r = microagg.run(data, 3, method="mdav", bound=None, release=True, aggregate="onemode", measures=True)
    assert r.record["release"]["il_released"] == rec["release"]["il_released"]
    assert r.record["release"]["measures"] == rec["release"]["measures"]
    assert r.record["release"]["layout"] == "none" and r.record["release"]["file"] == ""
    got = r.released.to_numpy()
    want = pd.read_csv(tmp_path / "m.csv", dtype=str).map(float)[data.columns].to_numpy()
    assert np.array_equal(got, want)


def weighted_masked_figures(x, w, labels):
    """The weighted SSE and SST over the observed cells, recomputed here from the
    definitions (docs/weights.md "Weights and missing values"; z-scores over each column's
    observed values with the population standard deviation, docs/missing-values.md item 1):
    a second implementation for the library's figures."""
    observed = ~np.isnan(x)
    z = (x - np.nanmean(x, axis=0)) / np.nanstd(x, axis=0)
    sse = sst = 0.0
    for j in range(x.shape[1]):
        o = observed[:, j]
        m = np.sum(w[o] * z[o, j]) / np.sum(w[o])
        sst += np.sum(w[o] * (z[o, j] - m) ** 2)
        for g in np.unique(labels):
            og = o & (labels == g)
            if og.any():
                c = np.sum(w[og] * z[og, j]) / np.sum(w[og])
                sse += np.sum(w[og] * (z[og, j] - c) ** 2)
    return sse, sst


@pytest.mark.parametrize("case", ["agency", "holes"])
def test_weights_with_missing_values_equal_the_cli(cli, tmp_path, case):
    """``weights`` with ``missing="ignore"``: the CLI's run (``--weights W --missing
    ignore``) label for label and figure for figure, from the CSV spec and from a
    DataFrame, and the weighted figures equal to a recomputation from the labels."""
    if case == "agency":
        path, wcol, cols, k = AGENCY, "weight", ["income", "expenditure", "savings"], 3
    else:
        path, wcol, cols, k = tmp_path / "holes.csv", "w", ["a", "b", "c"], 2
        path.write_text(HOLES)
    masked = tmp_path / "m.csv"
    rec, labels = run_cli(cli, "run", "--data", str(path), "--columns", ",".join(cols), "--weights", wcol,
                          "--k", str(k), "--method", "mdav", "--missing", "ignore", "--masked-out", str(masked),
                          "--measures", "--row-order", "input", tmp_path=tmp_path)
    assert rec["missing"]["cells"] > 0 and rec["weights"]["objective"] == "unweighted"
    frame = pd.read_csv(path)
    want_released = pd.read_csv(masked)[cols].to_numpy(dtype=np.float64)
    for X in (str(path), frame):
        r = microagg.run(X, k, method="mdav", bound=None, columns=cols, weights=wcol, missing="ignore",
                         release=True, measures=True)
        assert list(r.labels) == list(labels)
        assert r.sse == rec["sse"] and r.il == rec["il"] and r.groups == rec["groups"]
        assert r.record["weights"] == rec["weights"]
        assert r.record["missing"] == rec["missing"]
        for key in ("il_released", "il_released_weighted", "measures"):
            assert r.record["release"][key] == rec["release"][key], key
        # The released values (weighted group means over the observed cells, holes kept)
        # are the CLI's file, value for value.
        assert np.array_equal(r.released[cols].to_numpy(dtype=np.float64), want_released, equal_nan=True)
    x = frame[cols].to_numpy(dtype=np.float64)
    sse, sst = weighted_masked_figures(x, frame[wcol].to_numpy(dtype=np.float64), labels)
    assert math.isclose(sse, rec["weights"]["sse"], rel_tol=1e-12)
    assert math.isclose(sst, rec["weights"]["sst"], rel_tol=1e-12)
    assert math.isclose(rec["weights"]["il"], 100 * sse / sst, rel_tol=1e-12)
    # The weights given as values instead of a column: the same run.
    v = microagg.run(frame[cols], k, method="mdav", bound=None, weights=frame[wcol].to_numpy(), missing="ignore")
    assert list(v.labels) == list(labels) and v.record["weights"]["sse"] == rec["weights"]["sse"]


def test_weights_with_missing_values_run_the_weighted_descent_as_the_cli(cli, tmp_path):
    """A pipeline ending in descent over holes with unequal weights minimises the weighted
    SSE over observed cells, in Python as through the CLI (same labels, same weighted
    figures, objective "weighted"); equal weights pass too (the two objectives differ by a
    constant factor), and the bounds still refuse holes."""
    path = tmp_path / "holes.csv"
    path.write_text(HOLES)
    labels = tmp_path / "labels.txt"
    rec = cli_json(cli, "run", "--data", str(path), "--columns", "a,b,c", "--weights", "w", "--k", "2",
                   "--method", "mdav+descent", "--missing", "ignore", "--labels-out", str(labels))
    v = microagg.run(str(path), 2, method="mdav+descent", bound=None, columns=["a", "b", "c"], weights="w",
                     missing="ignore")
    assert v.record["weights"]["objective"] == "weighted" == rec["weights"]["objective"]
    assert list(v.labels) == [int(x) for x in labels.read_text().split()]
    assert v.record["weights"]["sse"] == rec["weights"]["sse"]
    start = microagg.run(str(path), 2, method="mdav", bound=None, columns=["a", "b", "c"], weights="w",
                         missing="ignore")
    assert v.record["weights"]["sse"] <= start.record["weights"]["sse"]
    equal = microagg.run(str(path), 2, method="mdav+descent", bound=None, columns=["a", "b", "c"],
                         weights=[2.0] * 10, missing="ignore")
    assert equal.record["weights"]["objective"] == "weighted"
    assert list(equal.stages["name"]) == ["mdav", "descent"]
    # Bounds still refuse the data (holes and weights), before anything runs.
    with pytest.raises(microagg.UsageError, match="bound="):
        microagg.run(str(path), 2, method="mdav", columns=["a", "b", "c"], weights="w", missing="ignore")
