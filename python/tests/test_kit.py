"""Ideas written in Python (microagg.Perturb, Accept, Operator, Refiner, Ils) driven by the
Rust executor: the same labels as their Rust twins with the same seed, exceptions with
the best partition so far, the delta check, Ctrl-C during a Python operator."""

import os
import signal
import sys
import threading
import time
import traceback

import numpy as np
import pytest

import microagg
from conftest import ROOT, as_array

# The built-in shift in Python, as python/bench/python_shift.py times it: checked here to
# make the built-in shift's moves.
sys.path.insert(0, str(ROOT / "python" / "bench"))
from python_shift import PyShift  # noqa: E402

GAUSS = "gauss:n=600,d=3,clusters=12,seed=5"


class ChainKick(microagg.Perturb):
    """The chain kick of examples/my-idea; its Rust twin is `test_chain_kick`."""

    name = "chain_kick"

    def __init__(self, length=3):
        self.length = length
        self.calls = 0

    def perturb(self, view, r, rng):
        self.calls += 1
        at, moved = r, False
        for _ in range(self.length):
            g = view.group_of(at)
            j = next((j for j in view.neighbours(at) if view.group_of(j) != g), None)
            if j is None:
                break
            view.apply_swap(at, j)
            moved = True
            at = j if rng.random_bool(0.5) else at
        return moved


class Improving(microagg.Accept):
    """The built-in `improving` rule, in Python."""

    name = "py_improving"

    def __init__(self):
        self.decisions = 0

    def accept(self, before, delta, rng):
        self.decisions += 1
        return delta <= 1e-12 * max(abs(before), 1.0)


def _labels(X, method, **kw):
    return microagg.run(X, 3, method=method, seed=1, max_steps=400, bound=None, **kw)


def test_a_python_perturbation_gives_the_labels_of_its_rust_twin():
    microagg._core._install_test_twin()
    X = microagg.load(GAUSS)
    kick = ChainKick()
    py = _labels(X, ["mdav", microagg.Ils(perturb=[kick])])
    rust = _labels(X, "mdav+ils", params={"ils": {"perturb": [{"test_chain_kick": {}}]}})
    shipped = _labels(X, "mdav+ils")
    assert kick.calls > 100
    assert np.array_equal(py.labels, rust.labels) and py.sse == rust.sse
    # The kick changed the search: not the labels of ILS as shipped.
    assert not np.array_equal(py.labels, shipped.labels)
    assert py.record["params"][1]["params"]["perturb"] == [{"chain_kick": {}, "weight": 1.0}]


def test_a_python_operator_and_acceptance_rule_give_the_labels_of_the_built_in_ones():
    X = microagg.load(GAUSS)
    rule = Improving()
    py = _labels(X, ["mdav", microagg.Ils(accept=rule, operators=[PyShift(), "swap"])])
    rust = _labels(X, ["mdav", microagg.Ils(accept="improving", operators=["shift", "swap"])])
    assert rule.decisions > 100
    assert np.array_equal(py.labels, rust.labels) and py.sse == rust.sse
    stats = py.record["stages"][1]["stats"]
    assert stats["py_shift_applications"] > 0
    # The string form of the same pipeline is the same run.
    same = _labels(
        X, "mdav+ils", params={"ils": {"accept": {"improving": {}}, "operators": [{"shift": {}}, {"swap": {}}]}}
    )
    assert np.array_equal(same.labels, rust.labels)


def test_a_python_refiner_is_a_stage_with_its_budget_and_trace():
    class Descent(microagg.Refiner):
        name = "py_descent"

        def init(self, view, rng):
            self.order = list(range(view.n))

        def step(self, view, rng):
            # One pass of improving swaps with the nearest records in other groups.
            improved = False
            for i in self.order:
                for j in view.neighbours(i)[:5]:
                    if view.group_of(j) != view.group_of(i) and view.delta_swap(i, j) < -1e-9:
                        view.apply_swap(i, j)
                        improved = True
            return improved

    X = microagg.load(GAUSS)
    r = microagg.run(X, 3, method=["mdav", Descent()], seed=1, bound=None, trace=True)
    mdav = microagg.run(X, 3, method="mdav", bound=None)
    assert list(r.stages["name"]) == ["mdav", "py_descent"]
    assert r.stages["stop"].iloc[-1] == "converged"
    assert r.sse < mdav.sse and microagg.check(X, 3, r.labels).feasible
    assert (r.trace["stage"] == "py_descent").any()
    once = microagg.run(X, 3, method=["mdav", Descent()], seed=1, bound=None, max_steps=1)
    assert once.stages["steps"].iloc[-1] == 1 and once.stages["stop"].iloc[-1] == "step_limit"


class Fails(PyShift):
    name = "fails"

    def __init__(self, after):
        self.after = after
        self.calls = 0

    def evaluate(self, view, i, h):
        self.calls += 1
        if self.calls > self.after:
            return self.broken_formula(view, i, h)
        return super().evaluate(view, i, h)

    def broken_formula(self, view, i, h):
        return 1.0 / 0.0


def test_an_exception_in_python_stops_the_run_with_its_traceback_and_the_best_partition():
    X = microagg.load(GAUSS)
    mdav = microagg.run(X, 3, method="mdav", bound=None)
    op = Fails(after=20000)
    with pytest.raises(ZeroDivisionError) as caught:
        microagg.run(X, 3, method=["mdav", microagg.Ils(operators=[op, "swap"])], seed=1, bound=None)
    e = caught.value
    assert "broken_formula" in "".join(traceback.format_exception(type(e), e, e.__traceback__))
    assert op.calls == 20001  # no Python call after the exception
    c = microagg.check(X, 3, e.best_labels)
    assert c.feasible and c.sse == pytest.approx(e.best_sse, rel=1e-9)
    # The search ran before the exception: better than its MDAV start.
    assert e.best_sse < mdav.sse


def test_a_wrong_delta_is_caught_by_the_delta_check():
    class HalfDelta(PyShift):
        name = "half_delta"

        def evaluate(self, view, i, h):
            d = super().evaluate(view, i, h)
            return None if d is None else 0.5 * d

    X = microagg.load(GAUSS)
    with pytest.raises(microagg.AlgorithmError, match="half_delta.*claimed a change of SSE") as caught:
        microagg.run(X, 3, method=["mdav", microagg.Ils(operators=[HalfDelta(), "swap"])], seed=1, bound=None)
    assert microagg.check(X, 3, caught.value.best_labels).feasible


def test_a_view_is_read_only_in_evaluate_and_dead_after_its_call():
    kept = []

    class Writes(PyShift):
        name = "writes"

        def evaluate(self, view, i, h):
            kept.append(view)
            view.apply_shift(i, h)

    X = microagg.load(GAUSS)
    with pytest.raises(RuntimeError, match="read-only"):
        microagg.run(X, 3, method=["mdav", microagg.Ils(operators=[Writes()])], seed=1, bound=None)
    with pytest.raises(RuntimeError, match="kept past the call"):
        kept[0].sse()


def test_python_parts_are_checked_before_the_run():
    X = microagg.load(GAUSS)
    with pytest.raises(microagg.UsageError, match="already registered"):
        microagg.run(X, 3, method=["mdav", microagg.Ils(operators=[PyShift(), PyShift()])], bound=None)
    with pytest.raises(microagg.UsageError, match="not a microagg.Perturb"):
        microagg.run(X, 3, method=["mdav", microagg.Ils(perturb=[PyShift()])], bound=None)
    with pytest.raises(microagg.UsageError, match="max_pool"):
        microagg.run(X, 3, method=["mdav", microagg.Ils(perturb=[ChainKick()], max_pool=8)], bound=None)
    with pytest.raises(microagg.UsageError, match="initializer"):
        microagg.run(X, 3, method=[microagg.Ils(perturb=[ChainKick()])], bound=None)


def test_ctrl_c_during_a_python_operator_stops_the_run():
    class Slow(PyShift):
        name = "slow"

        def evaluate(self, view, i, h):
            time.sleep(0.0005)
            return super().evaluate(view, i, h)

    X = as_array(microagg.load("gauss:n=2000,d=4,clusters=40,seed=5"))
    timer = threading.Timer(1.5, os.kill, args=(os.getpid(), signal.SIGINT))
    timer.start()
    t = time.monotonic()
    try:
        r = microagg.run(
            X, 3, method=["mdav", microagg.Ils(operators=[Slow(), "swap"], stall=10**9)], time_limit=3600, bound=None
        )
    finally:
        timer.cancel()
    assert time.monotonic() - t < 60
    assert r.interrupted and r.stages["stop"].iloc[-1] == "interrupted"
    assert microagg.check(X, 3, r.labels).feasible


def test_rejected_python_moves_are_undone_through_the_move_log():
    class RejectAll(microagg.Accept):
        name = "reject_all"

        def __init__(self):
            self.seen = []

        def accept(self, before, delta, rng):
            return False

        def after(self, current, progress):
            self.seen.append((current, progress))

    class Undoes(microagg.Refiner):
        name = "undoes"

        def step(self, view, rng):
            before = view.sse()
            g = view.new_group()
            for r in view.members(view.group_of(0))[: view.k - 1]:
                view.apply_shift(r, g)
            assert view.size(g) == view.k - 1 and view.sse() != before
            view.undo()
            assert view.sse() == pytest.approx(before, rel=1e-12) and view.size(g) == 0
            return False

    X = microagg.load(GAUSS)
    rule, kick = RejectAll(), ChainKick()
    r = microagg.run(X, 3, method=["mdav", microagg.Ils(perturb=[kick], accept=rule), Undoes()], seed=1,
                     max_steps=300, bound=None)
    descended = rule.seen[0][0]
    # Every kick (and the descent after it) was undone: the current SSE never moved (but
    # for the rounding of undone moves and of the slot table's compaction).
    assert kick.calls > 100
    assert all(current == pytest.approx(descended, rel=1e-9) for current, _ in rule.seen)
    # Progress is the share of the step budget (the schedule of a budgeted run).
    assert 0 < rule.seen[0][1] < rule.seen[-1][1] <= 1
    assert r.stages["stop"].iloc[-1] == "converged" and r.sse == pytest.approx(descended, rel=1e-9)
