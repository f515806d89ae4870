//! # Method reference
//!
//! Every registered initializer and refiner, then every bound, with its summary, reference
//! and parameters (default and meaning), from the same JSON that `microagg list --json`
//! prints ([`crate::render::list`]).
//!
//! ## Complexity
//! Linear in the registry's entries and parameters.
//!
//! ## References
//! None.

use crate::render::list::{bounds_json, methods_json};
use serde_json::Value;
use std::fmt::Write;

/// The method reference page.
pub(crate) fn page() -> String {
    let mut text = String::from(
        "# Methods, refiners and bounds\n\nEvery registered method with its parameters, \
         as `microagg list` prints them. A pipeline is `initializer+refiner+...` \
         (`run --method`); a parameter is set with `--param STAGE.KEY=VALUE` (a bound's with \
         `--bound-param KEY=VALUE`) or, in a suite, in the pipeline's `params` table.\n",
    );
    let methods = methods_json();
    for (kind, title) in [("initializer", "Initializers"), ("refiner", "Refiners")] {
        let _ = write!(text, "\n## {title}\n");
        for m in methods.iter().filter(|m| m["kind"] == kind) {
            entry(&mut text, m, "Reference");
        }
    }
    text += "\n## Bounds\n";
    for b in bounds_json() {
        entry(&mut text, &b, "Certified");
    }
    text
}

/// One method: heading, summary, reference line, parameter table.
fn entry(text: &mut String, m: &Value, reference: &str) {
    let _ = write!(
        text,
        "\n### {}\n\n{}\n\n{reference}: {}\n",
        str_of(&m["name"]),
        one_line(str_of(&m["summary"])),
        one_line(str_of(&m["reference"]))
    );
    if let Some(randomness) = m.get("randomness").and_then(Value::as_str) {
        let _ = writeln!(text, "\nRandomness: {randomness}");
    }
    if m.get("missing_cells").and_then(Value::as_bool) == Some(true) {
        let _ = writeln!(text, "\nMissing cells: runs on them with `--missing ignore` (masked SSE; docs/missing-values.md)");
    }
    if let Some(proof) = m.get("weighted") {
        let weighted = proof
            .as_str()
            .map_or("no (refuses `--weights`)".to_string(), |p| {
                format!("yes ({p})")
            });
        let _ = writeln!(text, "\nWeighted version: {weighted}");
    }
    let params = m["params"].as_object().cloned().unwrap_or_default();
    if params.is_empty() {
        text.push_str("\nNo parameters.\n");
        return;
    }
    text.push_str("\n| parameter | default | meaning |\n|---|---|---|\n");
    for (key, default) in &params {
        let doc = str_of(&m["params_doc"][key]);
        let _ = writeln!(
            text,
            "| `{key}` | {} | {} |",
            default_text(default),
            cell(doc)
        );
    }
}

/// A default as a table cell: the JSON value in code; `null` (unset) means what the
/// parameter's doc says (a value chosen at run time, or none).
fn default_text(value: &Value) -> String {
    match value {
        Value::Null => "`null`".to_string(),
        Value::String(s) => format!("`{s}`"),
        other => format!("`{other}`"),
    }
}

fn str_of(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// Text on one line (paragraph breaks of doc comments become spaces), rustdoc's links
/// (`` [`name`] ``) as plain code.
pub(crate) fn one_line(s: &str) -> String {
    let words = s.split_whitespace().collect::<Vec<_>>().join(" ");
    words.replace("[`", "`").replace("`]", "`")
}

/// Text fit for a Markdown table cell.
pub(crate) fn cell(s: &str) -> String {
    one_line(s).replace('|', "\\|")
}
