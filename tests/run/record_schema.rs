//! The run record's JSON Schema (`schema/run-record.json`): the shipped file is the one
//! generated from the types, and real records, of a tiny experiment, of `run --json` and of
//! split runs (`run --strata/--blocks/--part --json`), validate against it, each as its own
//! kind of record; broken records do not. The validator below is a small independent
//! reading of the JSON Schema keywords the generated schema uses (`$ref`, `type`,
//! `properties`, `required`, `items`, `anyOf`/`oneOf`, `enum`/`const`, `minimum`,
//! `additionalProperties`), strict in one way: an object key the schema does not describe is
//! an error, so a field added to the records without the schema fails here.
//!
//! Regenerate the file after changing the record types:
//! `MICROAGG_UPDATE_SCHEMA=1 cargo test --release --test run record_schema::`.

use crate::common;

use microagg::experiment::{run_plan, Plan, Progress, RunOptions, Suite};
use serde_json::Value;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn shipped_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(microagg::schema::SCHEMA_FILE)
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
            // Each alternative's errors: when none matches, they say where the value broke.
            let per_alt: Vec<Vec<String>> = alts
                .iter()
                .map(|a| {
                    let mut e = Vec::new();
                    validate(root, a, v, path, &mut e);
                    e
                })
                .collect();
            let passing = per_alt.iter().filter(|e| e.is_empty()).count();
            if passing == 0 || (need_one && passing > 1) {
                errors.push(format!("{path}: {passing} alternatives of {kw} match {v}"));
            }
            if passing == 0 {
                errors.extend(per_alt.into_iter().flatten());
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

/// Errors of `v` against one kind of record, `$defs/KIND` of the schema (`Record`: an
/// unsplit run or an experiment; `SplitRecord`: a split run).
fn errors_as(schema: &Value, kind: &str, v: &Value) -> Vec<String> {
    let mut e = Vec::new();
    let one = serde_json::json!({ "$ref": format!("#/$defs/{kind}") });
    validate(schema, &one, v, "", &mut e);
    e
}

/// A change that breaks a record at a place (a JSON-pointer-like path or a message part).
type Breaker = Box<dyn Fn(&mut Value)>;

/// Each broken copy of `base` is rejected as a record of `kind`, with an error naming the
/// place, and by the whole schema.
fn assert_broken_rejected(schema: &Value, kind: &str, base: &Value, broken: Vec<(&str, Breaker)>) {
    for (place, breaker) in broken {
        let mut r = base.clone();
        breaker(&mut r);
        let e = errors_as(schema, kind, &r);
        assert!(
            e.iter().any(|m| m.contains(place)),
            "broken at {place}, but: {e:?}"
        );
        assert!(!errors_of(schema, &r).is_empty(), "{place}");
    }
}

#[test]
fn shipped_schema_is_the_one_generated_from_the_types() {
    let generated = serde_json::to_string_pretty(&microagg::schema::run_record()).unwrap() + "\n";
    if std::env::var_os("MICROAGG_UPDATE_SCHEMA").is_some() {
        std::fs::create_dir_all(shipped_path().parent().unwrap()).unwrap();
        std::fs::write(shipped_path(), &generated).unwrap();
    }
    let file = std::fs::read_to_string(shipped_path()).unwrap_or_default();
    assert!(
        file == generated,
        "schema/run-record.json is stale: run MICROAGG_UPDATE_SCHEMA=1 cargo test --release --test run record_schema::"
    );
    // A record is one of two kinds, and the schema names what a reader needs of each.
    let s = shipped();
    let kinds: Vec<&str> = s["anyOf"]
        .as_array()
        .expect("anyOf at the root")
        .iter()
        .map(|a| a["$ref"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["#/$defs/Record", "#/$defs/SplitRecord"]);
    let required = |kind: &str, keys: &[&str]| {
        let def = &s["$defs"][kind];
        for key in keys {
            assert!(def["properties"].get(key).is_some(), "{kind}.{key}");
            let req = def["required"].as_array().unwrap();
            assert!(req.contains(&Value::from(*key)), "{kind}.{key}");
        }
    };
    required(
        "Record",
        &[
            "run_id",
            "il",
            "sse",
            "k",
            "seeds",
            "stages",
            "bounds",
            "pipeline",
            "git_commit",
        ],
    );
    assert!(s["$defs"]["Record"]["properties"].get("trace").is_some());
    required(
        "SplitRecord",
        &[
            "method",
            "split",
            "units",
            "units_here",
            "sse",
            "sst",
            "il",
            "stages",
            "unsolved_units",
        ],
    );
    for key in ["part", "border_repair", "release", "missing", "weights"] {
        assert!(
            s["$defs"]["SplitRecord"]["properties"].get(key).is_some(),
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
    // mdav is deterministic: one run; mdav+ils once per seed: two.
    assert_eq!(records.len(), 3);
    assert_eq!(
        records
            .iter()
            .map(|r| r["deterministic"].clone())
            .collect::<Vec<_>>(),
        [
            serde_json::json!(true),
            serde_json::json!(false),
            serde_json::json!(false)
        ]
    );
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
    let (t, m) = (trace.to_str().unwrap(), masked.to_str().unwrap());
    let extra = common::argv(
        &["--trace", t, "--masked-out", m],
        "--max-steps 300 --bound nn --measures --json",
        &[],
    );
    let data = "gauss:n=40,d=2,clusters=4,seed=3";
    let run = common::cli_json(&common::run_args(data, "3", "mdav+ils", &extra));
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
    // Each is a record of an unsplit run, not of a split one.
    for r in records.iter().chain([&run]) {
        assert_eq!(errors_as(&schema, "Record", r), Vec::<String>::new());
        assert!(!errors_as(&schema, "SplitRecord", r).is_empty());
    }

    // The check can fail: each broken copy is rejected, naming the place.
    let base = &records[0];
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
    assert_broken_rejected(&schema, "Record", base, broken);
    let mut r = ils.clone();
    r["trace"][0]["step"] = Value::from("one");
    assert!(!errors_of(&schema, &r).is_empty());
}

#[test]
fn split_run_records_validate_and_broken_ones_do_not() {
    let schema = shipped();
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // Strata with weights, holes, the released file and its measures.
    let data = common::write_file(
        dir.path(),
        "s.csv",
        "region,x,y,w\nn,1,5,1\nn,2,,2\nn,3,1,1\nn,4,4,2\ns,5,0,3\ns,6,2,1\ns,7,NA,2\n\
         s,8,3,1\ns,9,1,4\nn,2.5,2,1\n",
    );
    let data = data.to_str().unwrap();
    let (masked, part_file) = (path("m.csv"), path("p1.txt"));
    let strata = common::cli_json(&common::weighted_args(
        "run",
        data,
        "2",
        &[
            "--method",
            "mdav",
            "--strata",
            "region",
            "--missing",
            "ignore",
            "--masked-out",
            &masked,
            "--measures",
            "--json",
        ],
    ));
    assert!(strata["weights"].is_object() && strata["missing"].is_object());
    assert!(strata["release"]["measures"].is_object(), "{strata}");
    // One part of two.
    let part = common::cli_json(&common::run_args(
        data,
        "2",
        "mdav",
        &[
            "--columns",
            "x",
            "--strata",
            "region",
            "--part",
            "1/2",
            "--labels-out",
            &part_file,
            "--json",
        ],
    ));
    assert_eq!(part["part"], serde_json::json!({"index": 1, "count": 2}));
    // Blocks with the border repair.
    let blocks = common::cli_json(&common::run_args(
        "gauss:n=60,d=2,clusters=4,seed=5",
        "3",
        "mdav",
        &["--blocks", "20", "--json"],
    ));
    assert!(
        !blocks["border_repair"].as_array().unwrap().is_empty(),
        "{blocks}"
    );
    for r in [&strata, &part, &blocks] {
        assert_eq!(errors_of(&schema, r), Vec::<String>::new(), "{r}");
        assert_eq!(errors_as(&schema, "SplitRecord", r), Vec::<String>::new());
        assert!(!errors_as(&schema, "Record", r).is_empty(), "{r}");
    }
    // The check can fail on split records too.
    let broken: Vec<(&str, Breaker)> = vec![
        ("/bogus", Box::new(|r| r["bogus"] = Value::from(1))),
        (
            "required key units missing",
            Box::new(|r| {
                r.as_object_mut().unwrap().remove("units");
            }),
        ),
        ("/part", Box::new(|r| r["part"] = Value::from("1/2"))),
        (
            "/stages/0/il",
            Box::new(|r| r["stages"][0]["il"] = Value::from("5")),
        ),
        (
            "/weights/sse",
            Box::new(|r| r["weights"]["sse"] = Value::Null),
        ),
        (
            "/missing/bogus",
            Box::new(|r| r["missing"]["bogus"] = Value::from(0)),
        ),
    ];
    assert_broken_rejected(&schema, "SplitRecord", &strata, broken);
}
