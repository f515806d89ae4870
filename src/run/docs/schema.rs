//! # Format references from JSON Schemas
//!
//! The suite format (TOML) and the run record (JSON) as Markdown: one table per object type
//! of the schema (field, type, required, meaning), the types linking to each other. The
//! schemas are generated from the serde types with `schemars` (doc comments become the
//! descriptions), so these pages follow the types.
//!
//! ## Complexity
//! Linear in the size of the schema.
//!
//! ## References
//! JSON Schema draft 2020-12 (json-schema.org).

use super::methods::{cell, one_line};
use serde_json::{Map, Value};
use std::fmt::Write;

/// The suite format page.
pub(crate) fn suite_page() -> String {
    let intro = "# Suite format\n\nA suite is one TOML file describing a study, read by \
                 `microagg experiment SUITE --out DIR`. Unknown keys are errors naming the key \
                 and the file. `instances/smoke.toml` and `instances/demo.toml` are examples.\n";
    format!("{intro}{}", render(&crate::experiment::suite::schema()))
}

/// The run record page.
pub(crate) fn run_record_page() -> String {
    let intro = "# Run record\n\nThe JSON record of one run: `microagg run --json`, each line of \
                 an experiment's `records.jsonl`, and the Python `Result.record`. The schema \
                 ships as `schema/run-record.json`; a record is either a `Record` (an unsplit \
                 run) or a `SplitRecord` (`--strata`, `--blocks`, `--part`).\n";
    format!("{intro}{}", render(&crate::schema::run_record()))
}

/// The root object (when it has properties) and every definition, each as a section.
fn render(schema: &Value) -> String {
    let mut text = String::new();
    if schema.get("properties").is_some() {
        let title = schema["title"].as_str().unwrap_or("Top level");
        object(&mut text, title, schema);
    }
    if let Some(defs) = schema["$defs"].as_object() {
        for (name, def) in defs {
            object(&mut text, name, def);
        }
    }
    text
}

/// One object type: heading, description, field table (or its shape when it has none).
fn object(text: &mut String, name: &str, def: &Value) {
    let _ = write!(text, "\n## {name}\n");
    if let Some(d) = def["description"].as_str() {
        let _ = write!(text, "\n{}\n", one_line(d));
    }
    let Some(props) = def["properties"].as_object() else {
        let _ = write!(text, "\nShape: {}.\n", type_of(def));
        return;
    };
    let required: Vec<&str> = def["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    text.push_str("\n| field | type | required | meaning |\n|---|---|---|---|\n");
    for (field, prop) in props {
        let needed = if required.contains(&field.as_str()) {
            "yes"
        } else {
            "no"
        };
        let doc = prop["description"].as_str().unwrap_or("");
        let _ = writeln!(
            text,
            "| `{field}` | {} | {needed} | {} |",
            type_of(prop),
            cell(doc)
        );
    }
}

/// A schema's type in words, definitions linked by their anchors.
fn type_of(s: &Value) -> String {
    if let Some(r) = s["$ref"].as_str() {
        let name = r.rsplit('/').next().unwrap_or(r);
        return format!("[{name}](#{})", name.to_lowercase());
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alts) = s[key].as_array() {
            return alternatives(alts);
        }
    }
    if let Some(values) = s["enum"].as_array() {
        let v: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        return format!("one of {}", v.join(", "));
    }
    if let Some(c) = s.get("const") {
        return format!("`{c}`");
    }
    match &s["type"] {
        Value::String(t) => named_type(t, s.as_object()),
        Value::Array(ts) => {
            let alts: Vec<Value> = ts.iter().map(|t| with_type(s, t)).collect();
            alternatives(&alts)
        }
        _ => "any".to_string(),
    }
}

/// `s` with its `type` replaced by the single `t` (for `"type": ["string", "null"]`).
fn with_type(s: &Value, t: &Value) -> Value {
    let mut one = s.clone();
    one["type"] = t.clone();
    one
}

fn alternatives(alts: &[Value]) -> String {
    let words: Vec<String> = alts.iter().map(type_of).collect();
    words.join(" or ")
}

/// `array of T`, `map of T`, or the plain type name.
fn named_type(t: &str, s: Option<&Map<String, Value>>) -> String {
    let get = |k: &str| s.and_then(|m| m.get(k));
    match t {
        "array" => get("items").map_or("array".to_string(), |i| format!("array of {}", type_of(i))),
        "object" => match get("additionalProperties") {
            Some(v) if v.is_object() => format!("map of {}", type_of(v)),
            _ => "object".to_string(),
        },
        "integer" => get("minimum").map_or("integer".to_string(), |m| format!("integer >= {m}")),
        other => other.to_string(),
    }
}
