//! The run record's JSON Schema (`schema/run-record.json`): the shipped file is the one
//! generated from the types, and real records, of a tiny experiment and of `run --json`,
//! validate against it; broken records do not. The validator below is a small independent
//! reading of the JSON Schema keywords the generated schema uses (`$ref`, `type`,
//! `properties`, `required`, `items`, `anyOf`/`oneOf`, `enum`/`const`, `minimum`,
//! `additionalProperties`), strict in one way: an object key the schema does not describe is
//! an error, so a field added to the records without the schema fails here.
//!
//! Regenerate the file after changing the record types:
//! `MICROAGG_UPDATE_SCHEMA=1 cargo test --release --test record_schema`.

mod common;

use microagg::experiment::{run_plan, Plan, Progress, RunOptions, Suite};
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn shipped_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(microagg::record::SCHEMA_FILE)
}

fn shipped() -> Value {
    let text = std::fs::read_to_string(shipped_path()).expect("schema/run-record.json is shipped");
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Errors of `v` against `schema` (empty: valid), with JSON-pointer-like paths.
fn validate(root: &Value, schema: &Value, v: &Value, path: &str, errors: &mut Vec<String>) {
    let s = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => {
            errors.push(format!("{path}: no value allowed"));
            return;
        }
        Value::Object(s) => s,
        other => panic!("{path}: not a schema: {other}"),
    };
    for key in s.keys() {
        assert!(
            [
                "$ref",
                "$schema",
                "title",
                "description",
                "type",
                "properties",
                "required",
                "items",
                "anyOf",
                "oneOf",
                "enum",
                "const",
                "minimum",
                "format",
                "additionalProperties",
                "$defs",
                "default",
            ]
            .contains(&key.as_str()),
            "{path}: the validator does not know the keyword {key}"
        );
    }
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local $defs reference");
        validate(root, &root["$defs"][name], v, path, errors);
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(x) => vec![x.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => panic!("{path}: bad type keyword"),
        };
        let ok = types.iter().any(|t| match *t {
            "null" => v.is_null(),
            "boolean" => v.is_boolean(),
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.is_u64() || v.is_i64(),
            other => panic!("{path}: unknown type {other}"),
        });
        if !ok {
            errors.push(format!("{path}: {v} is not of type {t}"));
            return;
        }
    }
    if let (Some(min), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < min {
            errors.push(format!("{path}: {x} < minimum {min}"));
        }
    }
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        if !e.contains(v) {
            errors.push(format!("{path}: {v} not in {e:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != v {
            errors.push(format!("{path}: {v} is not {c}"));
        }
    }
    for (kw, need_one) in [("anyOf", false), ("oneOf", true)] {
        if let Some(alts) = s.get(kw).and_then(Value::as_array) {
            let passing = alts
                .iter()
                .filter(|a| {
                    let mut e = Vec::new();
                    validate(root, a, v, path, &mut e);
                    e.is_empty()
                })
                .count();
            if passing == 0 || (need_one && passing > 1) {
                errors.push(format!("{path}: {passing} alternatives of {kw} match {v}"));
            }
        }
    }
    if let Value::Object(m) = v {
        let props = s.get("properties").and_then(Value::as_object);
        for req in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let req = req.as_str().unwrap();
            if !m.contains_key(req) {
                errors.push(format!("{path}: required key {req} missing"));
            }
        }
        for (key, value) in m {
            let sub = format!("{path}/{key}");
            match (
                props.and_then(|p| p.get(key)),
                s.get("additionalProperties"),
            ) {
                (Some(p), _) => validate(root, p, value, &sub, errors),
                (None, Some(extra)) => validate(root, extra, value, &sub, errors),
                // Strict: every key of a described object must be described.
                (None, None) if props.is_some() => {
                    errors.push(format!("{sub}: key not described by the schema"))
                }
                (None, None) => {}
            }
        }
    }
    if let (Some(items), Value::Array(a)) = (s.get("items"), v) {
        for (i, x) in a.iter().enumerate() {
            validate(root, items, x, &format!("{path}/{i}"), errors);
        }
    }
}

fn errors_of(schema: &Value, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    validate(schema, schema, v, "", &mut e);
    e
}

#[test]
fn shipped_schema_is_the_one_generated_from_the_types() {
    let generated = serde_json::to_string_pretty(&microagg::record::schema()).unwrap() + "\n";
    if std::env::var_os("MICROAGG_UPDATE_SCHEMA").is_some() {
        std::fs::create_dir_all(shipped_path().parent().unwrap()).unwrap();
        std::fs::write(shipped_path(), &generated).unwrap();
    }
    let file = std::fs::read_to_string(shipped_path()).unwrap_or_default();
    assert!(
        file == generated,
        "schema/run-record.json is stale: run MICROAGG_UPDATE_SCHEMA=1 cargo test --release --test record_schema"
    );
    // The schema names what a reader needs.
    let s = shipped();
    for key in ["run_id", "il", "sse", "seeds", "stages", "bounds", "trace"] {
        assert!(s["properties"].get(key).is_some(), "{key}");
    }
    for key in [
        "il",
        "sse",
        "k",
        "seeds",
        "stages",
        "pipeline",
        "git_commit",
    ] {
        assert!(
            s["required"]
                .as_array()
                .unwrap()
                .contains(&Value::from(key)),
            "{key}"
        );
    }
}

/// Records of a tiny traced experiment with a bound (constructive and refining pipelines).
fn experiment_records() -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("tiny.toml");
    std::fs::write(
        &suite,
        "name = \"tiny\"\ninstances = [\"gauss:n=40,d=2,clusters=4,seed=3\"]\nk = [3]\n\
         seeds = { base = 1, replicates = 2 }\nbounds = [\"nn\"]\nmax_steps = 300\ntrace = true\n\
         [[pipeline]]\nmethod = \"mdav\"\n[[pipeline]]\nmethod = \"mdav+ils\"\n",
    )
    .unwrap();
    let plan = Plan::new(Suite::load(&suite).unwrap()).unwrap();
    let out = dir.path().join("r");
    let opts = RunOptions {
        out: Some(out.clone()),
        jobs: 1,
        shard: None,
        resume: false,
        progress: Progress::Quiet,
    };
    run_plan(&plan, &opts, &AtomicBool::new(false)).unwrap();
    std::fs::read_to_string(out.join("records.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn experiment_and_run_records_validate_and_broken_ones_do_not() {
    let schema = shipped();
    let records = experiment_records();
    assert_eq!(records.len(), 4);
    for r in &records {
        assert_eq!(errors_of(&schema, r), Vec::<String>::new(), "{r}");
    }
    // The refining runs carry a trace and the refiner's counters.
    let ils = records
        .iter()
        .find(|r| r["pipeline"] == "mdav+ils")
        .unwrap();
    assert!(!ils["trace"].as_array().unwrap().is_empty());
    assert!(ils["stages"][1]["stats"].is_object());

    // `run --json` writes the same record type, with a bound, a trace and a released file
    // with its measures.
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("t.csv");
    let masked = dir.path().join("masked.csv");
    let run = common::cli_json(&common::run_args(
        "gauss:n=40,d=2,clusters=4,seed=3",
        "3",
        "mdav+ils",
        &[
            "--max-steps",
            "300",
            "--bound",
            "nn",
            "--trace",
            trace.to_str().unwrap(),
            "--masked-out",
            masked.to_str().unwrap(),
            "--measures",
            "--json",
        ],
    ));
    assert_eq!(errors_of(&schema, &run), Vec::<String>::new(), "{run}");
    assert!(run["release"]["measures"].is_object(), "{run}");
    assert!(run["best_bound"]["certified"].as_bool().unwrap());
    // ... and it reads back as an experiment record.
    let back: microagg::experiment::Record = serde_json::from_value(run.clone()).unwrap();
    assert_eq!(back.il, run["il"].as_f64().unwrap());

    // A weighted run (`--weights`, issue 22): its `weights` object and the released file's
    // weighted IL validate too.
    let data = dir.path().join("w.csv");
    std::fs::write(&data, "x,y,w\n1,5,1\n2,3,2\n3,1,1\n4,4,2\n5,0,3\n6,2,1\n").unwrap();
    let masked_w = dir.path().join("masked-w.csv");
    let run = common::cli_json(&common::weighted_args(
        "run",
        data.to_str().unwrap(),
        "2",
        &[
            "--method",
            "mdav",
            "--masked-out",
            masked_w.to_str().unwrap(),
            "--json",
        ],
    ));
    assert_eq!(errors_of(&schema, &run), Vec::<String>::new(), "{run}");
    assert!(run["weights"]["il"].is_number() && run["release"]["il_released_weighted"].is_number());

    // The check can fail: each broken copy is rejected, naming the place.
    let base = &records[0];
    type Breaker = Box<dyn Fn(&mut Value)>;
    let broken: Vec<(&str, Breaker)> = vec![
        ("/il", Box::new(|r| r["il"] = Value::from("9.7"))),
        (
            "required key il",
            Box::new(|r| {
                r.as_object_mut().unwrap().remove("il");
            }),
        ),
        ("/k", Box::new(|r| r["k"] = Value::from(-3))),
        (
            "/seeds/run",
            Box::new(|r| r["seeds"]["run"] = Value::from(1.5)),
        ),
        ("/bogus", Box::new(|r| r["bogus"] = Value::from(1))),
        (
            "/stages/0/groups",
            Box::new(|r| r["stages"][0]["groups"] = Value::Null),
        ),
        (
            "/best_bound",
            Box::new(|r| r["best_bound"] = Value::from("nn")),
        ),
    ];
    for (place, breaker) in broken {
        let mut r = base.clone();
        breaker(&mut r);
        let e = errors_of(&schema, &r);
        assert!(
            e.iter().any(|m| m.contains(place)),
            "broken at {place}, but: {e:?}"
        );
    }
    let mut r = ils.clone();
    r["trace"][0]["step"] = Value::from("one");
    assert!(!errors_of(&schema, &r).is_empty());
}
