"""Ctrl-C during a solve returns the best partition so far (the GIL is released while the
solve runs on its worker thread, so Python's SIGINT handler runs on the main thread)."""

import os
import signal
import threading

import numpy as np
import pytest

import microagg
from conftest import as_array


def _sigint_after(seconds):
    t = threading.Timer(seconds, os.kill, args=(os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_ctrl_c_returns_the_best_partition_so_far():
    X = as_array(microagg.load("gauss:n=2000,d=4,clusters=40,seed=5"))
    # Without the signal this run would go on for an hour (and never stall).
    timer = _sigint_after(1.5)
    try:
        r = microagg.run(X, 3, method="mdav+ils", time_limit=3600, params={"ils.stall": 10**9}, bound="nn")
    finally:
        timer.cancel()
    assert r.interrupted
    assert r.stages["stop"].iloc[-1] == "interrupted"
    assert r.lower_bound is None and r.record["bound_skipped"]
    c = microagg.check(X, 3, r.labels)
    assert c.feasible and c.sse == pytest.approx(r.sse, rel=1e-12)
    # The refiner improved on MDAV before the signal: a real best-so-far, not the start.
    assert r.il < r.stages["il"].iloc[0]


def test_ctrl_c_stops_the_exact_solver_with_a_certified_bound():
    # Its proof takes about 10 s on a 2-core machine; the signal comes after 1 s.
    X = as_array(microagg.load("uniform:n=64,d=4,seed=2"))
    timer = _sigint_after(1.0)
    try:
        e = microagg.solve_exact(X, 4, method="set-partitioning", time_limit=3600)
    finally:
        timer.cancel()
    assert e.interrupted and not e.proven_optimal and e.note
    assert microagg.check(X, 4, e.labels).feasible and 0 < e.lower_bound <= e.sse
    # The MDAV start: a stopped search is never worse than MDAV.
    assert e.sse <= microagg.run(X, 4, method="mdav", bound=None).sse


def test_an_interrupt_handler_exception_is_kept():
    # A SIGINT handler that raises something else: the run still stops, and the result says so.
    X = as_array(microagg.load("uniform:n=1500,d=3,seed=9"))

    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop()

    old = signal.signal(signal.SIGINT, handler)
    timer = _sigint_after(1.0)
    try:
        r = microagg.run(X, 4, method="mdav+ils", time_limit=3600, params={"ils.stall": 10**9}, bound=None)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    assert r.interrupted and microagg.check(X, 4, r.labels).feasible


def test_the_gil_is_released_during_a_solve():
    # A solve of 2 s in another thread; this thread keeps running Python meanwhile (with the
    # GIL held by the solve it would wake up only once the solve ended).
    X = as_array(microagg.load("uniform:n=1000,d=3,seed=4"))
    out = {}
    worker = threading.Thread(
        target=lambda: out.setdefault("r", microagg.run(X, 3, method="mdav+ils", time_limit=2, bound=None, trace=False))
    )
    ticks = 0
    worker.start()
    while worker.is_alive():
        threading.Event().wait(0.01)
        ticks += 1
    worker.join()
    assert out["r"].stages["stop"].iloc[-1] == "time_limit"
    assert ticks >= 20
