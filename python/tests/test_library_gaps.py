"""Gaps against the best bound known (issue 49): ``Result.lower_bound`` is the highest certified
bound known for (data, k), the benchmark library's stored certificate on the CASC cases, and
``bound_method`` names the method that produced it; ``gap_best_known`` is the gap to the
library's best-known SSE. The same data given as a DataFrame finds the same library entry.
(That a colgen bound which stops at its nn start is labelled nn is tested in tests/run/library.rs.)"""

import pandas as pd
import pytest

import microagg
from conftest import ROOT, casc_or_skip


def library_case(name, k):
    """(certified LB, best SSE) of the library's manifest for (name, k), read independently."""
    import tomllib

    manifest = tomllib.loads((ROOT / "instances" / "library" / "library.toml").read_text())
    case = next(c for c in manifest["case"] if c["instance"] == name and c["k"] == k)
    return case["bound"]["value"], case["partition"]["sse"]


def test_eia_k3_gap_is_taken_against_the_stored_certificate():
    casc_or_skip("eia")
    pytest.importorskip("tomllib")
    lb, best = library_case("eia", 3)
    r = microagg.run("eia", 3, method="mdav", bound="nn")
    assert r.bound_method == "library"
    assert r.bound_source.startswith("stored certificate, verified")
    assert r.lower_bound == lb
    assert r.gap == pytest.approx(100 * (r.sse - lb) / lb, rel=1e-12)
    assert r.best_known_sse == best
    assert r.gap_best_known == pytest.approx(100 * (r.sse - best) / best, rel=1e-12)
    # The nn bound asked for is kept in the record, below the stored one.
    names = [b["name"] for b in r.record["bounds"]]
    assert names == ["nn", "library"]


def test_a_dataframe_of_the_same_file_finds_the_same_entry():
    data = casc_or_skip("tarragona")
    pytest.importorskip("tomllib")
    lb, _ = library_case("tarragona", 3)
    path = data.source() if callable(data.source) else data.source
    df = pd.read_csv(path)
    r = microagg.run(df, 3, method="mdav", bound=None)
    assert r.bound_method == "library" and r.lower_bound == lb
