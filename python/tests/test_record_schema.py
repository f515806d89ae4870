"""The record of ``microagg.run`` is the workbench's one run record: it validates against
``schema/run-record.json`` (the schema generated from the Rust types, which
tests/run/record_schema.rs keeps in step) with a strict validator (an unknown key is an error,
as in the Rust test), as the schema's ``Record`` (the record of an unsplit run; the other
kind, ``SplitRecord``, is that of ``run --strata/--blocks/--part``), and carries the same
keys as ``microagg run --json``."""

import json

import pytest

import microagg
from conftest import ROOT, run_cli

SCHEMA = json.loads((ROOT / "schema" / "run-record.json").read_text())
# The record of an unsplit run, one of the schema's two kinds of record.
RECORD = {"$ref": "#/$defs/Record"}

TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _type_ok(value, name):
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name])


def validate(value, schema, path="$"):
    """Errors of ``value`` against ``schema`` (the keywords schemars writes): $ref, anyOf,
    type, properties/required (closed objects unless additionalProperties says otherwise),
    additionalProperties, items, minimum. Returns a list of 'path: message' strings."""
    if schema is True or schema == {}:
        return []
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return validate(value, SCHEMA["$defs"][name], path)
    if "anyOf" in schema:
        options = [validate(value, s, path) for s in schema["anyOf"]]
        return [] if any(not o for o in options) else [f"{path}: matches no option: {options}"]
    errors = []
    types = schema.get("type")
    if types is not None:
        types = types if isinstance(types, list) else [types]
        if not any(_type_ok(value, t) for t in types):
            return [f"{path}: {value!r} is not of type {types}"]
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        errors.append(f"{path}: {value} < minimum {schema['minimum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing required key '{key}'")
        extra = schema.get("additionalProperties", False if props else True)
        for key, v in value.items():
            if key in props:
                errors += validate(v, props[key], f"{path}.{key}")
            elif extra is False:
                errors.append(f"{path}: unknown key '{key}'")
            else:
                errors += validate(v, extra, f"{path}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, v in enumerate(value):
            errors += validate(v, schema["items"], f"{path}[{i}]")
    return errors


def test_run_records_validate_against_the_schema():
    r = microagg.run("gauss:n=120,d=3,clusters=6,seed=2", 3, method="mdav+ils", seed=3, max_steps=200,
                     bound="nn", trace=True)
    assert validate(r.record, SCHEMA) == [] and validate(r.record, RECORD) == []
    assert validate(r.record, {"$ref": "#/$defs/SplitRecord"}) != []
    rec = r.record
    assert rec["seeds"]["run"] == 3 and rec["bounds"][0]["name"] == "nn" and rec["trace"]
    assert rec["best_bound"] == rec["bounds"][0] and rec["gap"] == pytest.approx(r.gap)
    assert rec["stages"][1]["stats"]["iterations"] > 0
    # The keys the package used to have of its own are gone.
    assert not {"bound", "gap_percent", "package_version", "seed"} & set(rec)
    plain = microagg.run("uniform:n=40,d=2,seed=1", 3, method="mdav", bound=None, trace=False)
    assert validate(plain.record, RECORD) == [] and "trace" not in plain.record
    assert plain.record["bounds"] == [] and plain.gap is None and plain.lower_bound is None


def test_the_validator_rejects_broken_records():
    rec = microagg.run("uniform:n=40,d=2,seed=1", 3, method="mdav", bound="nn").record
    broken = [
        ({**rec, "gap_percent": 1.0}, "unknown key 'gap_percent'"),
        ({k: v for k, v in rec.items() if k != "seeds"}, "missing required key 'seeds'"),
        ({**rec, "k": "three"}, "$.k"),
        ({**rec, "bounds": [{**rec["bounds"][0], "lower_bound": 1.0}]}, "unknown key 'lower_bound'"),
    ]
    for record, needle in broken:
        errors = validate(record, RECORD)
        assert any(needle in e for e in errors), (needle, errors)
        assert validate(record, SCHEMA) != []


def test_run_record_has_the_keys_of_the_cli_record(cli, tmp_path):
    spec = "gauss:n=90,d=2,clusters=5,seed=7"
    cli_rec, _ = run_cli(cli, "run", "--data", spec, "--k", "3", "--method", "mdav+descent", "--seed", "4",
                         "--bound", "nn", tmp_path=tmp_path)
    rec = microagg.run(spec, 3, method="mdav+descent", seed=4, bound="nn", trace=False).record
    assert set(rec) == set(cli_rec)
    for key in ("sse", "il", "groups", "seeds", "params", "bounds_requested", "best_bound", "gap", "run_id"):
        if key == "best_bound":
            assert {k: v for k, v in rec[key].items() if k != "seconds"} == \
                {k: v for k, v in cli_rec[key].items() if k != "seconds"}
        else:
            assert rec[key] == cli_rec[key], key
