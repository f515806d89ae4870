"""Bad input raises microagg exceptions with the library's messages."""

import numpy as np
import pandas as pd
import pytest

import microagg


@pytest.fixture
def df():
    rng = np.random.default_rng(1)
    return pd.DataFrame(rng.normal(size=(20, 3)), columns=["x", "y", "z"])


def test_nan_names_the_row_and_column(df):
    df.loc[6, "y"] = np.nan
    with pytest.raises(microagg.DataError, match=r"row 7, column 'y' \(2\).*NaN"):
        microagg.run(df, 3, method="mdav")
    assert issubclass(microagg.DataError, ValueError)


def test_constant_and_non_numeric_columns(df):
    df["y"] = 4.0
    with pytest.raises(microagg.DataError, match="constant column"):
        microagg.run(df, 3, method="mdav")
    df["y"] = "text"
    with pytest.raises(microagg.DataError, match="column 'y'.*not numeric"):
        microagg.run(df, 3, method="mdav")
    with pytest.raises(microagg.DataError, match="'w' not found"):
        microagg.run(df, 3, method="mdav", columns=["x", "w"])


def test_bad_k_method_params_and_limits(df):
    with pytest.raises(microagg.UsageError, match="larger than the number of records"):
        microagg.run(df, 21, method="mdav")
    with pytest.raises(microagg.UsageError, match="k must be at least 2"):
        microagg.run(df, 1, method="mdav")
    with pytest.raises(microagg.UsageError, match="unknown method 'mdva'.*mdav"):
        microagg.run(df, 3, method="mdva")
    with pytest.raises(microagg.UsageError, match="stall"):
        microagg.run(df, 3, method="mdav+ils", params={"ils.stal": 10})
    with pytest.raises(microagg.UsageError, match="not a stage"):
        microagg.run(df, 3, method="mdav", params={"ils": {"stall": 10}})
    with pytest.raises(microagg.UsageError, match="positive number of seconds"):
        microagg.run(df, 3, method="mdav", time_limit=-1)
    with pytest.raises(microagg.UsageError, match="refiner"):
        microagg.run(df, 3, method="ils")
    with pytest.raises(microagg.UsageError):
        microagg.bound(df, 3, "lp")
    with pytest.raises(microagg.UsageError, match="subset-dp"):
        microagg.solve_exact(df, 3, method="magic")


def test_bad_labels(df):
    with pytest.raises(microagg.InfeasibleError, match="19 labels for 20 records"):
        microagg.check(df, 3, np.zeros(19, dtype=int))
    with pytest.raises(microagg.UsageError, match="negative"):
        microagg.check(df, 3, np.full(20, -1))
    report = microagg.check(df, 3, np.arange(20) % 10)
    assert not report.feasible and report.undersized_groups == 10


def test_missing_file_and_bad_spec():
    with pytest.raises(microagg.DataError, match="no/such.csv"):
        microagg.run("no/such.csv", 3, method="mdav")
    with pytest.raises(microagg.DataError, match="3-D"):
        microagg.run(np.zeros((2, 2, 2)), 3, method="mdav")


@pytest.mark.parametrize(
    "labels, message",
    [
        ([2**70] * 30, r"row 1: 1180591620717411303424 is out of range"),
        # NumPy reads this list as floats.
        ([0] * 29 + [2**64 - 1], r"row 30: 1.8446744073709552e\+19 is not an integer group label"),
        (np.array([0] * 29 + [2**63], dtype=np.uint64), r"row 30: 9223372036854775808 is out of range"),
        (["a"] * 30, r"expected integer group labels, got <U1 values \(row 1: 'a'\)"),
        ([0] * 15 + ["x"] * 15, r"expected integer group labels, got <U21"),
        ([0] * 29 + [1.5], r"row 30: 1.5 is not an integer group label"),
        ([0] * 29 + [float("nan")], r"row 30: nan is not an integer group label"),
        ([0] * 29 + [1e30], r"row 30: 1e\+30 is not an integer group label"),
        ([0] * 29 + [None], r"row 30: None is not an integer group label"),
    ],
)
def test_labels_that_are_not_integers_raise_a_microagg_error(labels, message):
    X = np.random.default_rng(2).normal(size=(30, 2))
    with pytest.raises(microagg.UsageError, match=message):
        microagg.check(X, 3, labels)
    # Integers of any integer type, and whole floats, are labels.
    assert microagg.check(X, 3, np.repeat(np.arange(10, dtype=np.uint8), 3)).feasible
    assert microagg.check(X, 3, [float(i // 3) for i in range(30)]).feasible
