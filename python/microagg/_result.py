"""Result objects of ``run``, ``bound``, ``check`` and ``solve_exact``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from . import _core
from ._data import frame_columns, labels_bytes


def masked_frame(data: "_core.Data", labels: np.ndarray, df: Any = None, columns: Optional[Sequence[Any]] = None) -> Any:
    """The microaggregated data: ``df`` (a copy) with ``columns`` replaced by the group
    means of ``labels``, other columns kept; without ``df`` a new frame of the data's
    columns."""
    import pandas as pd

    values = np.frombuffer(_core.masked(data, labels_bytes(labels)), dtype=np.float64)
    values = values.reshape(data.n, data.d)
    if df is None:
        return pd.DataFrame(values, columns=data.columns)
    chosen = frame_columns(df, columns)
    if len(chosen) != data.d or len(df) != data.n:
        raise ValueError(
            f"masked: the frame has {len(df)} rows and {len(chosen)} chosen columns, the run had "
            f"{data.n} records of {data.d} attributes"
        )
    out = df.copy()
    for j, c in enumerate(chosen):
        out[c] = values[:, j]
    return out


@dataclass
class Result:
    """What ``microagg.run`` returns.

    Attributes:
        labels: group label of each record (int64, groups numbered 0..groups-1).
        sse: within-group sum of squared errors of the z-scored data.
        il: information loss, 100 * SSE / SST (percent).
        lower_bound: the best certified lower bound on the optimal SSE known for (data, k):
            the bound computed after the run or the benchmark library's stored certificate
            (instances/library, verified), whichever is higher (None without either).
        il_lower_bound: the same as IL (percent, rounded down).
        gap: 100 * (SSE - lower_bound) / lower_bound, percent (None without a bound).
        bound_certified: True when the bound has a proof path (``proofs/``).
        bound_method: the method that produced ``lower_bound`` (``"nn"``, ``"colgen"``,
            ``"bnp"``, or ``"library"`` for the stored certificate; a colgen run that did not
            pass its nn start says ``"nn"``).
        bound_source: where ``lower_bound`` comes from, in words ("stored certificate,
            verified (eia-k3.bnp.json.gz)", "colgen, 20 s", "nn").
        best_known_sse: the best-known partition's SSE for (data, k) in the benchmark
            library (None when the library has none).
        gap_best_known: 100 * (SSE - best_known_sse) / best_known_sse, percent (negative
            when the run beats it; None without a best-known SSE).
        groups, min_group_size, max_group_size: the partition's shape.
        stages: one row per pipeline stage (name, seed, sse, il, groups, seconds, stop,
            steps).
        trace: the refiners' progress (seconds since the run started, stage, step,
            current_il, best_il): a row whenever the best improved and at least every
            ``trace_interval`` seconds; empty with ``trace=False`` or for a pipeline
            without refiners.
        seconds: wall-clock time of the pipeline (the bound not included).
        interrupted: True when Ctrl-C stopped the run (the best partition so far).
        record: the run as a dict, the record of ``microagg run --json`` and of experiment
            records (one schema, ``schema/run-record.json``): method, n, d, k,
            ``seeds.run``, sse, il, params, stages (with each refiner's ``stats``), the
            bound asked for as the one entry of ``bounds`` (name, sse, il, certified,
            seconds), ``best_bound``, ``gap`` (against certified bounds), ``trace`` (with
            ``trace=True``, else absent), ``version`` and ``git_commit``; with the
            options of ``run``: ``weights`` (column, total, weighted sse, sst, il,
            objective), ``missing`` (policy, cells, per_column, records, release) and
            ``release`` (aggregation, il_released, il_released_weighted, measures; layout
            ``none``: nothing is written).
        released: with ``release=True``, the released values (original units): for a
            DataFrame input the frame with the run's columns replaced, every other column
            kept; else a frame of the run's columns. Missing cells stay NaN unless
            ``missing_release="fill"``. None without ``release``.
    """

    labels: np.ndarray
    sse: float
    il: float
    lower_bound: Optional[float]
    il_lower_bound: Optional[float]
    gap: Optional[float]
    bound_certified: Optional[bool]
    groups: int
    min_group_size: int
    max_group_size: int
    stages: Any
    trace: Any
    seconds: float
    interrupted: bool
    record: Dict[str, Any]
    released: Any = None
    bound_method: Optional[str] = None
    bound_source: Optional[str] = None
    best_known_sse: Optional[float] = None
    gap_best_known: Optional[float] = None
    _data: "_core.Data" = field(repr=False, default=None)
    _frame: Any = field(default=None, repr=False)
    _columns: Optional[List[Any]] = field(default=None, repr=False)

    def masked(self, df: Any = None) -> Any:
        """The input DataFrame (a copy) with the run's columns replaced by their group
        means (original units), the other columns kept. ``df`` defaults to the frame given
        to ``run``; for array or spec input a new frame of the data's columns is returned.
        On data with holes (``missing="ignore"``) a group's value is the mean of its observed
        cells and a missing cell stays NaN: the values of ``released`` with its defaults."""
        if df is None and self._frame is not None:
            df = self._frame
        cols = self._columns if df is not None else None
        return masked_frame(self._data, self.labels, df, cols)

    def plot(self, ax: Any = None, style: str = "one-column", font_size: Optional[float] = None) -> Any:
        """Plot the best IL so far against time (log axis; each stage's end marked) with the
        lower bound as a dashed line, in the style of ``microagg report --style`` (``style``:
        ``one-column``, ``two-columns`` or ``slide``; ``font_size`` in points); legend below
        the axes, no title. Draws into ``ax`` when given; returns the matplotlib Axes."""
        from ._figures import plot_result

        return plot_result(self, ax=ax, style_name=style, font_size=font_size)

    def __repr__(self) -> str:
        gap = f", gap={self.gap:.4f} % ({self.bound_method})" if self.gap is not None else ""
        if self.gap_best_known is not None:
            gap += f", gap to best known={self.gap_best_known:.4f} %"
        flag = ", interrupted" if self.interrupted else ""
        return (
            f"Result(method={self.record['method']!r}, k={self.record['k']}, il={self.il:.6f}, "
            f"sse={self.sse:.6f}, groups={self.groups}{gap}{flag})"
        )


@dataclass
class BoundResult:
    """What ``microagg.bound`` returns: a lower bound on the optimal SSE.

    Attributes:
        method: bound name asked for (``nn``, ``colgen``, ``bnp``, ``auto``, ...).
        produced_by: the bound whose value ``lower_bound`` is (``auto`` names its route's,
            e.g. ``bnp``; ``nn`` when a colgen run ended at its nn start).
        lower_bound: lower bound on the optimal SSE (rounded outward when certified).
        il_lower_bound: the same as IL in percent (rounded down).
        certified: True only when the bound is proven valid (``proofs/``).
        seconds: wall-clock time.
        details: method-specific details (iterations, columns, ...).
        interrupted: True when Ctrl-C cut it short (still a valid, weaker bound).
        best_partition: for the bounds that search partitions (``auto``, ``bnp``), the best
            one found: ``{"sse", "il", "gap_percent", "proven_optimal"}`` (gap
            ``100 (SSE - lower_bound) / lower_bound``); None for the others.
        labels: that partition's group labels (one per record), or None.
    """

    method: str
    lower_bound: float
    il_lower_bound: float
    certified: bool
    seconds: float
    details: Dict[str, Any]
    interrupted: bool
    produced_by: str = ""
    best_partition: Optional[Dict[str, Any]] = None
    labels: Optional[np.ndarray] = field(default=None, repr=False)

    def __repr__(self) -> str:
        status = "certified" if self.certified else "not certified"
        flag = ", interrupted" if self.interrupted else ""
        best = ""
        if self.best_partition is not None:
            p = self.best_partition
            if p["proven_optimal"]:
                best = f", best partition SSE {p['sse']:.6f} proven optimal"
            elif p["gap_percent"] is not None:
                best = f", best partition SSE {p['sse']:.6f} gap {p['gap_percent']:.4f} %"
        return (
            f"BoundResult({self.method}: SSE >= {self.lower_bound:.6f}, "
            f"IL >= {self.il_lower_bound:.6f} %, {status}, {self.seconds:.3f} s{best}{flag})"
        )


@dataclass
class CheckResult:
    """What ``microagg.check`` returns: the library's independent verification.

    Attributes:
        feasible: every group has at least k records.
        sse, il: recomputed from scratch.
        groups, min_group_size, max_group_size: the partition's shape.
        undersized: (label, size) of groups below k (the first 20).
        undersized_groups: how many groups are below k.
    """

    feasible: bool
    n: int
    k: int
    sse: float
    sst: float
    il: float
    groups: int
    min_group_size: int
    max_group_size: int
    undersized: List[tuple]
    undersized_groups: int

    def __repr__(self) -> str:
        status = "feasible" if self.feasible else f"infeasible: {self.undersized_groups} group(s) below k={self.k}"
        return (
            f"CheckResult({status}, sse={self.sse:.6f}, il={self.il:.6f}, groups={self.groups} "
            f"of {self.min_group_size}..{self.max_group_size} records)"
        )


@dataclass
class ExactResult:
    """What ``microagg.solve_exact`` returns.

    Attributes:
        labels: the partition.
        sse, il: its SSE and IL.
        proven_optimal: True when a certified lower bound is within relative 1e-9 of the
            SSE (never from a solver's status; ``proofs/P11``, ``P12``).
        lower_bound, il_lower_bound: the certified bound.
        gap: 100 * (SSE - lower_bound) / lower_bound (percent).
        method: ``subset-dp`` or ``set-partitioning``.
        note: why the search stopped before a proof, if it did.
        interrupted: Ctrl-C stopped it (best partition and bound so far).
        record: everything the library reported.
    """

    labels: np.ndarray
    sse: float
    il: float
    proven_optimal: bool
    lower_bound: float
    il_lower_bound: float
    gap: Optional[float]
    method: str
    note: Optional[str]
    interrupted: bool
    record: Dict[str, Any]

    def __repr__(self) -> str:
        status = "proven optimal" if self.proven_optimal else "not proven"
        gap = f", gap={self.gap:.6f} %" if self.gap is not None else ""
        note = f", {self.note}" if self.note else ""
        flag = ", interrupted" if self.interrupted else ""
        return (
            f"ExactResult(sse={self.sse:.6f}, il={self.il:.6f}, {status}{gap}, "
            f"method={self.method!r}{note}{flag})"
        )
