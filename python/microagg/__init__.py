"""microagg: multivariate microaggregation from Python.

Partition n records (z-scored numeric attributes) into groups of at least k records
minimising the within-group sum of squared errors (SSE); information loss
IL = 100 * SSE / SST. Bindings of the ``microagg`` Rust workbench (PyO3): the same methods,
bounds and exact solvers as its CLI, with the same labels for the same data, method and
seed.

    >>> import microagg, pandas as pd
    >>> df = pd.read_csv("tarragona.csv")
    >>> r = microagg.run(df, k=3, method="mdav+decompose-shrink+ils", time_limit=10)
    >>> r.il, r.gap          # IL in percent, gap to the certified nn bound in percent
    >>> r.plot()             # IL over time with the bound
    >>> r.masked()           # the frame with every record replaced by its group's mean

Releasing a file as a statistical office does (sampling weights, missing values, another
aggregation, utility and risk measures; the options of ``microagg run``)::

    >>> r = microagg.run(df, k=3, method="mdav", bound=None, weights="weight",
    ...                  release=True, aggregate="median", measures=True)
    >>> r.released                       # the frame back, run columns replaced
    >>> r.record["weights"]["il"]        # weighted IL; record["release"]["measures"]
    >>> r = microagg.run(df_with_nan, k=3, method="mdav", bound=None, missing="ignore",
    ...                  release=True)   # holes stay NaN in r.released (missing_release="fill")
    >>> r = microagg.run(df_with_nan, k=3, method="mdav", bound=None, missing="ignore",
    ...                  weights="weight", release=True)  # weighted figures over observed cells

Solves run with the GIL released. Ctrl-C during a run returns the best partition so far
(``Result.interrupted``); errors are the exceptions of ``microagg.Error`` with the
library's messages (data errors name the row and column).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core
from ._data import DataLike, labels_array, labels_bytes, to_data
from ._errors import AlgorithmError, DataError, Error, InfeasibleError, Interrupted, UsageError
from ._figures import report
from ._kit import Accept, Ils, Operator, Perturb, Refiner
from ._figures import show_progress as _show_progress
from ._result import BoundResult, CheckResult, ExactResult, Result

__version__ = _core.__version__

Data = _core.Data
PartitionView = _core.PartitionView
Rng = _core.Rng

__all__ = [
    "run",
    "bound",
    "check",
    "solve_exact",
    "methods",
    "experiment",
    "report",
    "load",
    "Data",
    "Result",
    "BoundResult",
    "CheckResult",
    "ExactResult",
    "Error",
    "DataError",
    "UsageError",
    "InfeasibleError",
    "AlgorithmError",
    "Interrupted",
    "Perturb",
    "Accept",
    "Operator",
    "Refiner",
    "Ils",
    "PartitionView",
    "Rng",
]


def load(
    spec: Union[str, "os.PathLike[str]"],
    columns: Optional[Sequence[Any]] = None,
    delimiter: str = ",",
    *,
    missing: str = "refuse",
    weights: Optional[str] = None,
) -> "_core.Data":
    """Load data as the CLI's ``--data`` does: a CSV path, a CASC instance id
    (``tarragona``, ``census``, ``eia``; looked up in ``$MICROAGG_DATA``, ``instances/data/``,
    ``../shared/instances/`` and checked against its sha256) or a generator spec
    (``gauss:n=1000,d=5,clusters=5,seed=1``). ``columns``: names or 1-based positions.
    ``missing``: ``"refuse"`` or ``"ignore"`` (``--missing``); ``weights``: a column of the
    CSV file (``--weights COLUMN``). The result can be passed as ``X`` to every function
    (and gets the CLI's seeds)."""
    if missing not in ("refuse", "ignore"):
        raise UsageError(f"missing={missing!r}: expected 'refuse' or 'ignore'")
    cols = None if columns is None else ",".join(str(c) for c in columns)
    return _core.Data.load(os.fspath(spec), cols, delimiter, missing == "ignore", weights)


def _param_args(params: Optional[Mapping[str, Any]]) -> List[str]:
    """``{"ils.stall": 100}`` or ``{"ils": {"stall": 100}}`` as ``--param`` strings."""
    out: List[str] = []
    for key, value in (params or {}).items():
        if isinstance(value, Mapping):
            for sub, v in value.items():
                out.append(f"{key}.{sub}={json.dumps(v)}")
        else:
            out.append(f"{key}={json.dumps(value)}")
    return out


def run(
    X: DataLike,
    k: int,
    method: Union[str, Sequence[Any]] = "mdav+decompose-shrink+ils",
    seed: int = 0,
    time_limit: Optional[float] = None,
    bound: Optional[str] = "nn",
    params: Optional[Mapping[str, Any]] = None,
    trace: bool = True,
    *,
    max_steps: Optional[int] = None,
    columns: Optional[Sequence[Any]] = None,
    trace_interval: float = 0.1,
    weights: Any = None,
    missing: str = "refuse",
    release: bool = False,
    aggregate: Optional[str] = None,
    missing_release: str = "keep",
    measures: bool = False,
    progress: Optional[bool] = None,
) -> Result:
    """Microaggregate ``X`` into groups of at least ``k`` records with pipeline ``method``.

    Args:
        X: a pandas DataFrame, a numpy array (records x attributes), a ``--data`` spec
            (CSV path, ``tarragona``/``census``/``eia``, generator spec) or ``load(...)``.
        k: minimum group size (>= 2).
        method: an initializer optionally followed by refiners joined by ``+``
            (``mdav``, ``mdav+decompose-shrink+ils``); ``methods()`` lists them. Or a list
            of stages: method names, ``Ils(perturb=[...], accept=..., operators=[...])``
            compositions with parts written in Python, and ``Refiner`` objects
            (``["mdav", microagg.Ils(perturb=[MyKick()])]``; docs/tutorials/python-idea.md).
        seed: base seed; stage seeds are derived from it, the data's sha256, k and the
            pipeline (a run with the same data, method, seed and no time limit repeats bit
            for bit, and equals the CLI's ``run --seed``).
        time_limit: seconds for the whole pipeline (refiners stop at it with their best
            partition); None: refiners run to their own stopping rule (ILS: ``stall``
            iterations without improvement).
        bound: lower bound computed after the run for the gap (``"nn"``, kd-tree neighbour lists;
            ``"colgen"``, HiGHS column generation within ``time_limit`` or 60 s; ``"colgen-cuts"``,
            the same with subset-row cuts, proofs/P14); None skips it.
        params: method parameters, ``{"ils.stall": 1000}`` or ``{"ils": {"stall": 1000}}``
            (unknown names are errors).
        trace: record the refiners' progress into ``Result.trace``.
        max_steps: step budget of every refiner stage (repeats bit for bit, unlike a time
            limit; ILS then anneals over the steps).
        columns: DataFrame column names (default all), array column indices, or for a spec
            names/1-based positions.
        trace_interval: seconds between trace rows when the best does not improve.
        weights: sampling weights (``--weights``): a column name of the DataFrame or CSV
            spec (never an attribute; left out of the default columns) or one value per
            record (finite, > 0). The record's ``weights`` gives the weighted SSE, SST and
            IL; ``univariate`` minimises the weighted SSE, other methods the unweighted one
            (``weights.objective``). With ``bound="nn"`` or ``"colgen"`` the weighted
            bound on the weighted SSE (proofs/P41, P43) is ``record["weights"]["bound"]``
            (with the weighted gap), beside the unweighted bound, as ``run --bound B
            --weights W``; ``"colgen-cuts"`` and ``"bnp"`` have no weighted version and
            are refused (docs/weights.md).
        missing: ``"refuse"`` (default: a NaN, empty or ``NA`` cell is an error naming row
            and column) or ``"ignore"`` (``--missing ignore``: distances, centroids and SSE
            over the observed cells; only the MDAV-lineage methods ``mdav``,
            ``mdav-generic``, ``mdav1``, ``mdav-a1``, ``mdav-single``, ``mdav-nc``, ``cbfs``,
            ``cbfs-nn``, no refiner, ``bound=None``; docs/missing-values.md). With
            ``weights``: the weighted SSE, SST and IL over the observed cells and weighted
            group means in ``released`` (docs/weights.md "Weights and missing values");
            the methods still minimise the unweighted SSE over the observed cells
            (``weights.objective``), and a pipeline ending in ``descent`` is refused with
            unequal weights, as in the CLI.
        release: also compute the released values (``Result.released``, ``record["release"]``
            with ``il_released``): each record's group aggregate in original units, as
            ``run --masked-out`` writes them (unrounded).
        aggregate: with ``release``: ``"mean"`` (default), ``"median"``, ``"trimmed[:ALPHA]"``,
            ``"onestep"`` or ``"onemode"``; with weights the weighted mean or sdcMicro's
            weighted median (the others refuse weights).
        missing_release: with ``release`` on data with holes: ``"keep"`` (a missing cell
            stays NaN, as sdcMicro) or ``"fill"`` (the group's value).
        measures: with ``release``: utility and risk measures of the released values in
            ``record["release"]["measures"]`` (IL1s, changes of means, variances and
            correlations, record linkage, interval disclosure; over the complete records
            when cells are missing).
        progress: a progress line on stderr (best IL, bound, gap, time, steps per second);
            None: when stderr is a terminal.

    Returns:
        ``Result`` (labels, sse, il, lower_bound, gap, bound_method, bound_source,
        best_known_sse, gap_best_known, groups, stages, trace, masked(), plot(), released).

    Raises:
        DataError, UsageError, AlgorithmError (with the library's messages);
        KeyboardInterrupt when Ctrl-C arrives before the first partition exists; the
        exception a Python part raised (its traceback kept), with ``best_labels`` (numpy
        int64, None before a partition existed) and ``best_sse`` of the best partition
        found before it; ``AlgorithmError`` (with the same attributes) when a Python
        ``Operator``'s delta disagrees with the change its move makes.
    """
    import pandas as pd

    data = to_data(X, columns, missing=missing, weights=weights)
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise UsageError(f"k = {k!r}: expected an integer")
    if k < 0 or seed < 0 or (max_steps is not None and max_steps < 0):
        raise UsageError("k, seed and max_steps must be non-negative integers")
    stages = method if isinstance(method, str) else list(method)
    try:
        record_json, raw_labels, raw_released = _core.run(
            data,
            int(k),
            stages,
            int(seed),
            None if time_limit is None else float(time_limit),
            None if max_steps is None else int(max_steps),
            bound,
            _param_args(params),
            bool(trace),
            float(trace_interval),
            bool(release),
            aggregate,
            missing_release,
            bool(measures),
            _show_progress(progress),
        )
    except BaseException as e:
        best = getattr(e, "_microagg_best", False)
        if best is not False:
            # Raised by Python code in the run: the best partition found before it.
            e.best_labels = None if best is None else labels_array(best[0])
            e.best_sse = None if best is None else best[1]
        raise
    rec = json.loads(record_json)
    # The workbench's one run record (schema/run-record.json): ``bounds`` holds the bound
    # asked for and the benchmark library's stored one for this (data, k) when there is
    # one; ``best_bound`` is the highest certified one and ``gap`` the gap to it.
    b = rec.get("best_bound") or (rec["bounds"][0] if rec["bounds"] else None)
    stages = pd.DataFrame(rec["stages"])
    trace_df = pd.DataFrame(rec.get("trace") or [], columns=["seconds", "stage", "step", "current_il", "best_il"])
    frame = X if (hasattr(X, "columns") and not isinstance(X, (str, _core.Data))) else None
    cols = list(data.columns) if (frame is not None and columns is None) else (list(columns) if columns is not None else None)
    released = None
    if raw_released is not None:
        values = np.frombuffer(raw_released, dtype=np.float64).reshape(data.n, data.d)
        released = pd.DataFrame(values, columns=data.columns)
        if frame is not None:
            # The whole frame back: the run's columns replaced, every other column kept.
            whole = frame.copy()
            for j, c in enumerate(cols):
                whole[c] = values[:, j]
            released = whole
    return Result(
        labels=labels_array(raw_labels),
        sse=rec["sse"],
        il=rec["il"],
        lower_bound=b["sse"] if b else None,
        il_lower_bound=b["il"] if b else None,
        gap=rec["gap"],
        bound_certified=b["certified"] if b else None,
        bound_method=b["name"] if b else None,
        bound_source=(b.get("source") or b["name"]) if b else None,
        best_known_sse=rec.get("best_known_sse"),
        gap_best_known=rec.get("gap_best_known"),
        groups=rec["groups"],
        min_group_size=rec["min_group_size"],
        max_group_size=rec["max_group_size"],
        stages=stages,
        trace=trace_df,
        seconds=rec["seconds"],
        interrupted=rec["interrupted"],
        record=rec,
        released=released,
        _data=data,
        _frame=frame,
        _columns=cols,
    )


def bound(
    X: DataLike,
    k: int,
    method: str = "nn",
    time_limit: Optional[float] = None,
    *,
    columns: Optional[Sequence[Any]] = None,
    weights: Any = None,
    progress: Optional[bool] = None,
    **params: Any,
) -> BoundResult:
    """A lower bound on the optimal SSE of ``X`` for ``k``.

    ``method``: ``"nn"`` (sum of each record's k-1 nearest squared distances over 2k,
    kd-tree neighbour lists, proofs/P06), ``"nn-raised"`` (nn with raised duals, proofs/P25),
    ``"colgen"`` (Lagrangian bound of a column generation master on HiGHS, proofs/P09;
    ``time_limit`` defaults to 60 s), ``"colgen-cuts"`` (the same with rounds of subset-row
    cuts, proofs/P14), ``"bnp"`` (branch-and-price, proofs/P17) or ``"auto"`` (the best
    bound in ``time_limit``, route chosen from n, k and the time). All are certified
    (rounded outward). ``auto`` and ``bnp`` also return the best partition they found
    (``labels``, ``best_partition``: its SSE, gap to the bound and whether the bound proves
    it optimal); ``produced_by`` names the bound whose value was reported.

    ``weights`` (as in ``run``: a column name or one value per record): the bound on the
    weighted SSE, as ``microagg bound --weights``: ``"nn"`` (proofs/P41) or ``"colgen"``
    (proofs/P43); the others are refused. ``il_lower_bound`` is then on the weighted SST
    (``details["sst_weighted"]``).

    ``progress``: progress lines of ``colgen`` on stderr; None: when stderr is a terminal.

    Further keywords are the bound's parameters, as ``microagg bound --param KEY=VALUE``
    (``microagg list`` shows them with their defaults), e.g.
    ``bound(X, 3, "bnp", 60, max_nodes=25, rank1_cuts=True)``; an unknown keyword or a bad
    value raises ``UsageError`` naming it.
    """
    data = to_data(X, columns, weights=weights)
    limit = None if time_limit is None else float(time_limit)
    v_json, raw = _core.bound(
        data, int(k), method, limit, json.dumps(params), _show_progress(progress)
    )
    v = json.loads(v_json)
    return BoundResult(
        method=v["method"],
        lower_bound=v["lower_bound"],
        il_lower_bound=v["il_lower_bound"],
        certified=v["certified"],
        seconds=v["seconds"],
        details=v["details"],
        interrupted=v["interrupted"],
        produced_by=v["produced_by"],
        best_partition=v.get("best_partition"),
        labels=None if raw is None else labels_array(raw),
    )


def check(X: DataLike, k: int, labels: Any, *, columns: Optional[Sequence[Any]] = None) -> CheckResult:
    """Verify ``labels`` against ``X`` from scratch: feasibility (every group at least ``k``
    records) and the SSE/IL recomputed (the library's independent check, as ``microagg
    check``). A label count that does not match the records raises ``InfeasibleError``."""
    data = to_data(X, columns)
    v = json.loads(_core.check(data, int(k), labels_bytes(labels)))
    v["undersized"] = [tuple(p) for p in v["undersized"]]
    return CheckResult(**v)


def solve_exact(
    X: DataLike,
    k: int,
    method: str = "auto",
    time_limit: Optional[float] = None,
    *,
    columns: Optional[Sequence[Any]] = None,
) -> ExactResult:
    """The exact optimum with its proof status (small instances: n up to about 40, or
    one attribute). ``method``: ``auto``, ``subset-dp`` or ``set-partitioning``. With a
    ``time_limit`` (or Ctrl-C) the answer is the best partition found (never worse than
    MDAV) with a certified bound and ``note`` saying why it stopped."""
    data = to_data(X, columns)
    v_json, raw = _core.solve_exact(data, int(k), method, None if time_limit is None else float(time_limit))
    v = json.loads(v_json)
    lb = v["lower_bound"]
    gap = 100.0 * (v["sse"] - lb) / lb if lb > 0 else None
    return ExactResult(
        labels=labels_array(raw),
        sse=v["sse"],
        il=v["il"],
        proven_optimal=v["proven_optimal"],
        lower_bound=lb,
        il_lower_bound=v["il_lower_bound"],
        gap=gap,
        method=v["method"],
        note=v["note"],
        interrupted=v["interrupted"],
        record=v,
    )


def methods() -> Any:
    """Every method of the registry as a pandas DataFrame, one row per method in the
    registry's order (initializers first), with the columns ``name``, ``kind``
    (``initializer`` or ``refiner``), ``summary``, ``reference``, ``deterministic`` (True
    when the method draws no random number: the seed does not change its result, and an
    experiment runs it once per case), ``params`` (a dict of the
    defaults) and ``params_doc`` (a dict of what each parameter does), as
    ``microagg list --json``.

    >>> microagg.methods().set_index("name").loc["ils", "params"]["stall"]
    """
    import pandas as pd

    columns = ["name", "kind", "summary", "reference", "deterministic", "params", "params_doc"]
    return pd.DataFrame(json.loads(_core.methods()), columns=columns)


def experiment(
    suite: Union[str, "os.PathLike[str]"],
    out: Optional[Union[str, "os.PathLike[str]"]] = None,
    jobs: int = 1,
    resume: bool = False,
    progress: Optional[bool] = None,
) -> Any:
    """Run an experiment suite file (TOML, as ``microagg experiment``) and return its
    records as a pandas DataFrame, one row per run (nested fields flattened with ``.``).

    ``out``: a folder to also write ``records.jsonl`` into (locked, resumable with
    ``resume=True``); None keeps the records in memory. ``jobs``: worker threads (runs are
    single-threaded, results do not depend on it). Ctrl-C stops the study and returns the
    finished runs (``df.attrs["interrupted"]`` is True). ``progress``: the bound phase and
    every finished run on stderr with the time left from the suite's budgets; None: when
    stderr is a terminal. ``df.attrs["records"]`` holds the records as dicts, for
    ``report(df)``."""
    import pandas as pd

    records_json, interrupted = _core.experiment(
        os.fspath(suite), None if out is None else os.fspath(out), int(jobs), bool(resume), _show_progress(progress)
    )
    records = json.loads(records_json)
    df = pd.json_normalize(records) if records else pd.DataFrame()
    df.attrs["interrupted"] = interrupted
    df.attrs["records"] = records
    return df


def __dir__() -> List[str]:
    """The public names (``__all__``) and the submodule ``dask``, not the helpers this
    module imports (numpy, json, os, typing)."""
    return sorted(__all__ + ["dask", "__version__"])
