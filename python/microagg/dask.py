"""Microaggregation of a Dask DataFrame, one stratum per task.

``microaggregate(ddf, k, columns, strata=[...], method=...)`` shuffles the frame so that
each stratum (a distinct combination of the ``strata`` columns) lies in one partition,
then microaggregates every stratum independently on the worker that holds it: each group
lies within one stratum (the usual practice of statistical agencies, which microaggregate
within regions or size classes). The records of a stratum are taken in index order, so a
stratum's labels equal those of ``microagg.run`` on ``df[df[strata] == key]`` of a pandas
frame with the same index (same method, seed and parameters).

Size: each stratum must fit one worker's memory and hold at least ``k`` records (a
smaller stratum is an error naming it). Splitting one large stratum into blocks is not
offered here yet (the library's block machinery, issue 24).

Complexity: the shuffle, plus the method's cost per stratum, spread over the workers.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from ._errors import UsageError


def _stratum_label(keys: Sequence[str], value: Any) -> str:
    values = value if isinstance(value, tuple) else (value,)
    return ", ".join(f"{k}={v!r}" for k, v in zip(keys, values))


def _microaggregate_partition(
    pdf: pd.DataFrame,
    k: int,
    columns: Sequence[str],
    strata: Sequence[str],
    method: str,
    seed: int,
    time_limit: Optional[float],
    max_steps: Optional[int],
    params: Optional[Mapping[str, Any]],
    label_column: str,
) -> pd.DataFrame:
    import microagg

    out = pdf.copy()
    for c in columns:
        out[c] = out[c].astype(np.float64)
    out[label_column] = np.zeros(len(out), dtype=np.int64)
    if len(pdf) == 0:
        return out
    index = pdf.index.to_numpy()
    label_at = out.columns.get_loc(label_column)
    for key, pos in pdf.groupby(list(strata), sort=True, dropna=False).indices.items():
        # The stratum's records in index order (stable for repeated index values).
        pos = np.asarray(pos)[np.argsort(index[pos], kind="stable")]
        try:
            r = microagg.run(
                pdf.iloc[pos][list(columns)],
                k,
                method=method,
                seed=seed,
                time_limit=time_limit,
                max_steps=max_steps,
                bound=None,
                params=params,
                trace=False,
            )
        except microagg.Error as e:
            raise type(e)(f"stratum {_stratum_label(strata, key)}: {e}") from None
        masked = r.masked()
        for c in columns:
            out.iloc[pos, out.columns.get_loc(c)] = masked[c].to_numpy()
        out.iloc[pos, label_at] = r.labels
    return out


def microaggregate(
    ddf: Any,
    k: int,
    columns: Sequence[str],
    strata: Sequence[str],
    method: str = "mdav",
    *,
    seed: int = 0,
    time_limit: Optional[float] = None,
    max_steps: Optional[int] = None,
    params: Optional[Mapping[str, Any]] = None,
    label_column: str = "group",
    npartitions: Optional[int] = None,
) -> Any:
    """Microaggregate every stratum of a Dask DataFrame on the workers.

    Args:
        ddf: a ``dask.dataframe.DataFrame``.
        k: minimum group size.
        columns: the numeric columns to microaggregate (replaced by their group means).
        strata: columns whose value combinations define the strata; every group lies
            within one stratum, each stratum is solved by one task.
        method, seed, time_limit, max_steps, params: as ``microagg.run`` (per stratum).
        label_column: name of the added column holding each record's group label within
            its stratum (int64; a group is identified by the strata values and this label).
        npartitions: partitions after the shuffle (default: as ``ddf``).

    Returns:
        A lazy Dask DataFrame: ``ddf``'s columns with ``columns`` masked (float64) and
        ``label_column`` added; rows are grouped by stratum (``.compute()`` it or write it
        with ``to_parquet``).

    Raises (when computed): ``microagg.UsageError`` for a stratum with fewer than k
    records (naming it), and the errors of ``microagg.run``.
    """
    columns = list(columns)
    strata = list(strata)
    if not strata:
        raise UsageError("strata: give at least one column (the whole frame in one task is microagg.run)")
    for c in columns + strata:
        if c not in ddf.columns:
            raise UsageError(f"column {c!r} is not in the frame (columns: {list(ddf.columns)})")
    overlap = set(columns) & set(strata)
    if overlap:
        raise UsageError(f"columns {sorted(overlap)} are both masked and strata")
    if label_column in ddf.columns:
        raise UsageError(f"label_column {label_column!r} already exists in the frame")
    shuffled = ddf.shuffle(on=strata, npartitions=npartitions or ddf.npartitions)
    meta = ddf._meta.copy()
    for c in columns:
        meta[c] = meta[c].astype(np.float64)
    meta[label_column] = pd.Series(dtype=np.int64)
    return shuffled.map_partitions(
        _checked_partition,
        k,
        columns,
        strata,
        method,
        seed,
        time_limit,
        max_steps,
        params,
        label_column,
        meta=meta,
    )


def _checked_partition(pdf: pd.DataFrame, k: int, columns, strata, method, seed, time_limit, max_steps, params, label_column):
    import microagg

    for key, size in pdf.groupby(list(strata), sort=True, dropna=False).size().items():
        if size < k:
            raise microagg.UsageError(
                f"stratum {_stratum_label(strata, key)}: {size} records, fewer than k = {k}"
            )
    return _microaggregate_partition(
        pdf, k, columns, strata, method, seed, time_limit, max_steps, params, label_column
    )
