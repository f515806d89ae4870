"""ILS steps per second with a Python re-implementation of shift, as a ratio to the
built-in shift (issue 51's target; the figure is stated in docs/tutorials/python-idea.md).

Both runs are ILS on the same data, k and seed, with the descent's operators
[shift, swap]: once with the built-in shift, once with `PyShift` below (the same moves:
the same deltas, the same labels after the same number of steps). Each runs for
`--seconds`; the script prints the steps per second of both, their ratio, and the cost
per Python call (the extra time per step divided by the Python operator's calls per step).

    MICROAGG_DATA=/work/shared/instances python python/bench/python_shift.py [--data tarragona] [--seconds 10]
"""

import argparse
import time

import microagg


class PyShift(microagg.Operator):
    """Shift in Python: the record into the candidate group when its own group keeps k."""

    name = "py_shift"

    def evaluate(self, view, i, h):
        if view.size(view.group_of(i)) <= view.k or view.size(h) == 0:
            return None
        return view.delta_shift(i, h)

    def apply(self, view, i, h, partner):
        view.apply_shift(i, h)


def rate(X, k, shift, seconds):
    ils = microagg.Ils(operators=[shift, "swap"])
    t = time.perf_counter()
    r = microagg.run(X, k, method=["mdav", ils], seed=1, time_limit=seconds, bound=None, trace=False)
    stage = r.record["stages"][-1]
    steps, secs = stage["steps"], stage["seconds"]
    name = shift if isinstance(shift, str) else shift.name
    calls = stage["stats"].get(f"{name}_evaluations", 0)
    return steps / secs, calls / steps, time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="tarragona")
    ap.add_argument("-k", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=10.0)
    a = ap.parse_args()
    X = microagg.load(a.data)
    rust, rust_calls, _ = rate(X, a.k, "shift", a.seconds)
    py, py_calls, _ = rate(X, a.k, PyShift(), a.seconds)
    per_call = (1 / py - 1 / rust) / py_calls
    print(f"data {a.data}, k = {a.k}, ILS [shift, swap], {a.seconds:g} s each")
    print(f"built-in shift: {rust:10.1f} steps/s ({rust_calls:.0f} shift evaluations per step)")
    print(f"Python shift:   {py:10.1f} steps/s ({py_calls:.0f} shift evaluations per step)")
    print(f"ratio (Python / built-in): {py / rust:.4f}")
    print(f"cost per Python evaluate call: {per_call * 1e6:.2f} us")


if __name__ == "__main__":
    main()
