"""Search-kit parts written in Python, driven by the Rust executor.

Subclass one of the base classes, override its methods, and pass instances in a pipeline
given as a list::

    class MyKick(microagg.Perturb):
        def perturb(self, view, r, rng):
            j = next(j for j in view.neighbours(r) if view.group_of(j) != view.group_of(r))
            view.apply_swap(r, j)
            return True

    microagg.run(df, k=3, method=["mdav", microagg.Ils(perturb=[MyKick()])], seed=1)

The executor calls them with the run's seeds, budgets, stop rules, observers and traces.
``view`` is a ``PartitionView`` (O(d) ``delta_shift``/``delta_swap``/``apply_*``, group
members, centroids, sizes, SSE, k, n, neighbours of a record) valid during the call only;
``rng`` is the stage's random stream (``random()``, ``integers(low, high)``,
``random_bool(p)``): the same draws a Rust part makes. Moves made through a view go
through the stage's move log, so ILS undoes a rejected step.

An exception raised in a part stops the run and is re-raised with its traceback, with
``best_labels`` (numpy int64) and ``best_sse`` of the best partition found before it.
"""

from __future__ import annotations

import json
from typing import Any, List, Mapping, Optional, Sequence, Tuple, Union


class _Part:
    _microagg_kind = ""

    @property
    def name(self) -> str:
        """The name records, stats and error messages use (default: the class name).
        Two different parts of one run need different names."""
        return getattr(self, "_name", type(self).__name__)

    @name.setter
    def name(self, value: str) -> None:
        self._name = value


class Perturb(_Part):
    """A perturbation of ILS: changes the partition around a random record so that the
    descent can leave a local optimum.

    Override ``perturb(view, r, rng)``: make moves with ``view.apply_shift`` /
    ``view.apply_swap`` (they are logged for undo, the moved records are queued for the
    descent) and return True if the partition changed, False if not (None: changed if a
    move was made). ``r`` is the random record ILS drew."""

    _microagg_kind = "perturb"

    def perturb(self, view: Any, r: int, rng: Any) -> Optional[bool]:
        """Change the partition around record ``r`` through ``view``; True if it changed."""
        raise NotImplementedError(f"{type(self).__name__}.perturb(view, r, rng)")


class Accept(_Part):
    """An acceptance rule of ILS: after a perturbation and descent, keep the change or
    undo it.

    Override ``accept(before, delta, rng) -> bool`` (``before`` the SSE before the
    iteration, ``delta`` its change); optionally ``start(sse, groups, progress)`` (once)
    and ``after(current, progress)`` (after every iteration; ``progress`` the share of the
    budget used, None without a budget)."""

    _microagg_kind = "accept"

    def start(self, sse: float, groups: int, progress: Optional[float]) -> None:
        """Called once before the first decision (SSE and groups of the start)."""
        pass

    def accept(self, before: float, delta: float, rng: Any) -> bool:
        """Keep the change from ``before`` to ``before + delta``? May draw from ``rng``."""
        raise NotImplementedError(f"{type(self).__name__}.accept(before, delta, rng)")

    def after(self, current: float, progress: Optional[float]) -> None:
        """Called after every iteration with the SSE then current."""
        pass


class Operator(_Part):
    """A move of ILS's descent, asked for every record i and candidate group h (a group
    of i's nearest records, not i's own).

    Override ``evaluate(view, i, h)``: return None (no move), the exact change of SSE of
    the move (a float), or ``(delta, partner)`` for a move involving another record; the
    view is read-only. ``apply(view, i, h, partner)`` then makes the chosen move (one the
    descent picked because its delta improves; ``partner`` None for a float answer). The
    partition's SSE must change by the delta ``evaluate`` gave: a wrong delta stops the
    run with ``AlgorithmError``. A move must keep every group at k records or more."""

    _microagg_kind = "operator"

    def evaluate(self, view: Any, i: int, h: int) -> Union[None, float, Tuple[float, Optional[int]]]:
        """None, or the exact change of SSE of the move of ``i`` with group ``h``
        (a float, or ``(delta, partner)``); ``view`` is read-only here."""
        raise NotImplementedError(f"{type(self).__name__}.evaluate(view, i, h)")

    def apply(self, view: Any, i: int, h: int, partner: Optional[int]) -> None:
        """Make the move ``evaluate`` proposed, through ``view.apply_*``."""
        raise NotImplementedError(f"{type(self).__name__}.apply(view, i, h, partner)")


class Refiner(_Part):
    """A refiner stage of its own: improves the partition one ``step`` at a time.

    Override ``step(view, rng)``: return True to go on, False (or None) when converged.
    The executor records the best partition after every step; ``view.undo()`` reverts
    this step's moves. Optionally ``init(view, rng)`` (once). ``neighbours`` (default 30;
    0 for none): the nearest records ``view.neighbours(r)`` offers."""

    _microagg_kind = "refiner"
    neighbours: int = 30

    def init(self, view: Any, rng: Any) -> None:
        """Called once before the first step."""
        pass

    def step(self, view: Any, rng: Any) -> Optional[bool]:
        """One bounded unit of work; True to go on, False (or None) when converged."""
        raise NotImplementedError(f"{type(self).__name__}.step(view, rng)")


PartLike = Union[_Part, str, Mapping[str, Any]]


def _builtin(spec: Union[str, Mapping[str, Any]], what: str) -> Tuple[str, str]:
    """A built-in part by name (``"swap"``) or as ``{"name": {params}}``."""
    if isinstance(spec, str):
        return (spec, "{}")
    if isinstance(spec, Mapping) and len(spec) == 1:
        (name, params), = spec.items()
        return (name, json.dumps(dict(params)))
    raise TypeError(f"{what}: {spec!r} is neither a microagg part nor a built-in part's name")


def _part(spec: PartLike, what: str) -> Any:
    return spec if isinstance(spec, _Part) else _builtin(spec, what)


class Ils:
    """ILS composed of parts, as a pipeline stage:
    ``microagg.Ils(perturb=[...], accept=..., operators=[...], **params)``.

    ``perturb``: the weighted perturbation list; each entry a ``Perturb`` object, a
    built-in one's name (``"pool_resplit"``) or ``{"pool_resplit": {"max_pool": 8}}``, or
    a pair ``(entry, weight)`` (weight 1 when left out). ``accept``: one acceptance rule
    (an ``Accept`` or a built-in one's name/spec; default annealing). ``operators``: the
    descent's operators in order (``Operator`` objects and built-in names; default shift,
    swap, cycle3). ``params``: ILS's other parameters (``stall``, ``neighbours``, ..., as
    ``microagg.methods()`` lists them); ``params={"ils": ...}`` of ``run`` adds to them."""

    _microagg_kind = "ils"

    def __init__(
        self,
        perturb: Sequence[Union[PartLike, Tuple[PartLike, float]]] = (),
        accept: Optional[PartLike] = None,
        operators: Sequence[PartLike] = (),
        **params: Any,
    ) -> None:
        self.perturb: List[Tuple[Any, float]] = []
        for entry in perturb:
            part, weight = entry if isinstance(entry, tuple) else (entry, 1.0)
            self.perturb.append((_part(part, "perturb"), float(weight)))
        self.accept = None if accept is None else _part(accept, "accept")
        self.operators = [_part(o, "operators") for o in operators]
        self.params = params
        self._params_json = json.dumps(params)

    def __repr__(self) -> str:
        return f"Ils(perturb={self.perturb!r}, accept={self.accept!r}, operators={self.operators!r}, **{self.params!r})"
