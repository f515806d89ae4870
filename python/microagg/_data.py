"""Input conversion: numpy arrays, pandas DataFrames (columns by name) and ``--data``
specs (CSV path, CASC instance id, generator spec) to the library's ``Data``.

An array or frame is copied once into the library's instance (which keeps the original
values and their z-scored copy). Its sha256, which enters the seed derivation of
randomised methods, is that of its float64 values (row-major), as for the CLI's generated
data; a spec is loaded exactly as the CLI loads ``--data``, so it gets the CLI's seeds.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence, Union

import numpy as np

from . import _core
from ._errors import DataError, UsageError

DataLike = Union["_core.Data", str, "os.PathLike[str]", np.ndarray, Any]


def _is_dataframe(x: Any) -> bool:
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - pandas is a dependency
        return False
    return isinstance(x, pd.DataFrame)


def frame_columns(frame: Any, columns: Optional[Sequence[Any]]) -> list:
    """The chosen columns of a DataFrame (all when ``columns`` is None), checked."""
    chosen = list(frame.columns) if columns is None else list(columns)
    if isinstance(columns, str):
        raise UsageError(f"columns={columns!r}: give a list of column names")
    missing = [c for c in chosen if c not in frame.columns]
    if missing:
        raise DataError(
            f"DataFrame: column {missing[0]!r} not found (columns: {list(frame.columns)})"
        )
    if len(set(chosen)) != len(chosen):
        raise DataError(f"DataFrame: a column is chosen twice in {chosen}")
    return chosen


def to_data(
    X: DataLike,
    columns: Optional[Sequence[Any]] = None,
    name: Optional[str] = None,
    missing: str = "refuse",
    weights: Any = None,
) -> "_core.Data":
    """The library's ``Data`` for ``X``.

    - ``microagg`` ``Data``: as is;
    - ``str`` / path: a ``--data`` spec (``columns``: names or 1-based positions, as
      ``--columns``);
    - pandas DataFrame: ``columns`` picks columns by name (default: all; every chosen column
      must be numeric);
    - anything numpy turns into a 2-D float array (a 1-D array is one column); ``columns``
      picks column indices.

    ``missing``: ``"refuse"`` (a NaN / empty / ``NA`` cell is an error naming row and
    column) or ``"ignore"`` (such cells are missing: docs/missing-values.md).
    ``weights``: sampling weights, a column name (of the frame or the CSV spec; never an
    attribute: left out of the default columns) or one value per record.
    """
    if missing not in ("refuse", "ignore"):
        raise UsageError(f"missing={missing!r}: expected 'refuse' or 'ignore'")
    ignore = missing == "ignore"
    if isinstance(X, _core.Data):
        if columns is not None:
            raise UsageError("columns= does not apply to a loaded Data object")
        if ignore:
            raise UsageError("missing= applies when data are read: load(..., missing='ignore')")
        return _attach_weights(X, weights)
    if isinstance(X, (str, os.PathLike)):
        spec = os.fspath(X)
        cols = None if columns is None else ",".join(str(c) for c in columns)
        if isinstance(weights, str):
            return _core.Data.load(spec, cols, ",", ignore, weights)
        return _attach_weights(_core.Data.load(spec, cols, ",", ignore), weights)
    if _is_dataframe(X):
        import pandas as pd

        weight_values = None
        if isinstance(weights, str):
            if weights not in X.columns:
                raise DataError(f"DataFrame: weights column {weights!r} not found (columns: {list(X.columns)})")
            if columns is not None and weights in list(columns):
                raise DataError(f"DataFrame: the weights column {weights!r} is also chosen as an attribute")
            weight_values = X[weights].to_numpy(dtype=np.float64, na_value=np.nan)
            if columns is None:
                columns = [c for c in X.columns if c != weights]
        chosen = frame_columns(X, columns)
        for i, c in enumerate(chosen):
            dtype = X[c].dtype
            if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
                raise DataError(
                    f"{name or 'DataFrame'}: column {c!r} ({i + 1}) has dtype {dtype}, not numeric; "
                    "leave it out with columns="
                )
        values = X[chosen].to_numpy(dtype=np.float64, na_value=np.nan)
        names = [str(c) for c in chosen]
        data = _from_array(values, names, name or "DataFrame", ignore)
        if weight_values is not None:
            return _core.Data.with_weights(data, weights, list(weight_values))
        return _attach_weights(data, weights)
    try:
        values = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise DataError(f"{name or 'array'}: cannot be read as numbers: {e}") from None
    if values.ndim == 1:
        values = values.reshape(-1, 1)
    if values.ndim != 2:
        raise DataError(f"{name or 'array'}: expected a 2-D array (records x attributes), got {values.ndim}-D")
    names = [f"x{j + 1}" for j in range(values.shape[1])]
    if columns is not None:
        idx = list(columns)
        for j in idx:
            if not isinstance(j, (int, np.integer)) or not 0 <= j < values.shape[1]:
                raise DataError(f"{name or 'array'}: column index {j!r} out of range 0..{values.shape[1] - 1}")
        values = values[:, idx]
        names = [f"x{j + 1}" for j in idx]
    if isinstance(weights, str):
        raise UsageError(f"weights={weights!r}: an array has no column names; give one weight per record")
    return _attach_weights(_from_array(values, names, name or "array", ignore), weights)


def _attach_weights(data: "_core.Data", weights: Any) -> "_core.Data":
    """``data`` with one sampling weight per record (None: unchanged)."""
    if weights is None:
        return data
    if isinstance(weights, str):
        raise UsageError(f"weights={weights!r}: a column name needs a DataFrame or a CSV spec")
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1:
        raise UsageError(f"weights: expected one value per record, got shape {w.shape}")
    return data.with_weights("weights", [float(v) for v in w])


def _from_array(values: np.ndarray, names: list, name: str, missing: bool = False) -> "_core.Data":
    n, d = values.shape
    raw = np.ascontiguousarray(values, dtype=np.float64)
    return _core.Data.from_array(raw.tobytes(), n, d, names, name, missing)


# Labels travel as int64.
_LABEL_MIN, _LABEL_MAX = -(2**63), 2**63 - 1


def _bad_label(i: int, value: Any, why: str) -> UsageError:
    return UsageError(f"labels: row {i + 1}: {value!r} {why}")


def _first(bad: np.ndarray) -> int:
    return int(np.argmax(bad))


def labels_bytes(labels: Any) -> bytes:
    """Labels (any integer array-like) as native int64 bytes for the library. Text,
    fractions and integers beyond int64 raise ``UsageError`` naming the first bad row
    (negative labels are refused by the library, also by row)."""
    try:
        arr = np.asarray(labels)
    except (TypeError, ValueError) as e:
        raise UsageError(f"labels: not an array of integer group labels ({e})") from None
    if arr.ndim != 1:
        raise UsageError(f"labels: expected a 1-D array, got shape {arr.shape}")
    kind = arr.dtype.kind
    if kind == "u" and arr.size and (arr > _LABEL_MAX).any():
        i = _first(arr > _LABEL_MAX)
        raise _bad_label(i, int(arr[i]), f"is out of range (labels are 0 to {_LABEL_MAX})")
    if kind == "f":
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(arr) | (arr != np.round(arr)) | (np.abs(arr) >= 2.0**63)
        if bad.any():
            i = _first(bad)
            raise _bad_label(i, arr[i].item(), "is not an integer group label")
    if kind == "O":
        arr = np.array([_object_label(i, v) for i, v in enumerate(arr)], dtype=np.int64)
    elif kind not in "iuf":
        first = f" (row 1: {arr[0].item()!r})" if arr.size else ""
        raise UsageError(f"labels: expected integer group labels, got {arr.dtype} values{first}")
    return np.ascontiguousarray(arr, dtype=np.int64).tobytes()


def _object_label(i: int, v: Any) -> int:
    """One label of an object array (Python integers of any size, mixed types)."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise _bad_label(i, v, "is not an integer group label")
    if isinstance(v, (float, np.floating)) and not (np.isfinite(v) and v == int(v)):
        raise _bad_label(i, v, "is not an integer group label")
    label = int(v)
    if not _LABEL_MIN <= label <= _LABEL_MAX:
        raise _bad_label(i, label, f"is out of range (labels are 0 to {_LABEL_MAX})")
    return label


def labels_array(raw: bytes) -> np.ndarray:
    return np.frombuffer(raw, dtype=np.int64).copy()
