//! # The registry listing
//!
//! What `microagg list` prints: every registered method with its kind, summary, reference
//! and parameters (defaults and docs), then every registered bound
//! ([`crate::bound::BOUNDS`]) with what it computes, when it is certified and its
//! parameters, and whether it has a weighted version (`--weights`) with that version's
//! proof ([`BoundInfo::weighted`]); as text grouped by kind or as JSON (one array, bounds
//! with kind `bound`; [`methods_json`] alone is the Python package's `methods()`).
//!
//! ## Complexity
//! Linear in the registry's entries and parameters.
//!
//! ## References
//! None.

use crate::bound::presets::{Preset, PRESETS};
use crate::bound::{BoundInfo, BOUNDS};
use crate::method::{MethodInfo, MethodKind, Randomness};
use crate::registry;
use serde_json::{json, Value};

fn kind_name(kind: MethodKind) -> &'static str {
    match kind {
        MethodKind::Initializer => "initializer",
        MethodKind::Refiner => "refiner",
    }
}

/// One JSON object per registered method: name, kind, summary, reference, whether it is
/// deterministic (draws no random number) with its default parameters and in words when it
/// is (`randomness_text`), whether it runs on data with missing cells, parameter defaults
/// and parameter docs.
pub fn methods_json() -> Vec<Value> {
    registry::registry()
        .iter()
        .map(|m| {
            json!({
                "name": m.name,
                "kind": kind_name(m.kind()),
                "summary": m.summary,
                "reference": m.reference,
                "deterministic": m.is_deterministic(&m.defaults),
                "randomness": randomness_text(m),
                "missing_cells": m.missing_cells,
                "params": m.defaults,
                "params_doc": m.params_doc.iter().map(|(k, d)| (k.to_string(), d.to_string())).collect::<std::collections::BTreeMap<_, _>>(),
            })
        })
        .collect()
}

/// One JSON object per registered bound, in the shape of [`methods_json`]: kind `bound`,
/// `reference` tells when it is certified, `params` the defaults as text, `weighted` the
/// proof of its weighted version (null: it refuses `--weights`).
pub(crate) fn bounds_json() -> Vec<Value> {
    BOUNDS
        .iter()
        .map(|b| {
            json!({
                "name": b.name,
                "kind": "bound",
                "summary": b.summary,
                "reference": b.certified,
                "weighted": b.weighted.map(|w| w.proof),
                "params": b.defaults(),
                "params_doc": b.params_doc.iter().map(|(k, d)| (k.to_string(), d.to_string())).collect::<std::collections::BTreeMap<_, _>>(),
            })
        })
        .collect()
}

/// `list --json`: the methods, then the bounds, pretty-printed.
pub(crate) fn list_json() -> String {
    let mut all = methods_json();
    all.extend(bounds_json());
    serde_json::to_string_pretty(&all).expect("list serialises")
}

/// The text listing: one block per kind, one entry per method with its parameters.
pub fn list_text() -> String {
    let all = registry::registry();
    let mut text = String::new();
    for kind in [MethodKind::Initializer, MethodKind::Refiner] {
        let of_kind: Vec<&MethodInfo> = all.iter().filter(|m| m.kind() == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        text += &format!("{}s:\n", kind_name(kind));
        for m in of_kind {
            text += &method_text(m);
        }
    }
    text += &parts_text();
    text += "bounds (bound --method NAME --param KEY=VALUE, run --bound NAME --bound-param KEY=VALUE):\n";
    for b in BOUNDS {
        text += &bound_text(b);
    }
    text += "bound presets (bound --preset NAME; --param and --time-limit override them):\n";
    for p in PRESETS {
        text += &preset_text(p);
    }
    text
}

fn preset_text(p: &Preset) -> String {
    let params: Vec<String> = p.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut text = format!("  {:<16} {}: {}\n", p.name, p.bound, params.join(" "));
    text += &format!("  {:<16} {}\n", "", p.about);
    text
}

/// One part of the listing: name, summary, default parameters and their docs.
type PartRow<'a> = (&'a str, &'a str, &'a Value, &'a [(&'a str, &'a str)]);

/// The search kit's parts (ILS's perturbations, acceptance rules and descent operators)
/// with their parameters.
fn parts_text() -> String {
    let reg = registry::current();
    let mut text = String::new();
    let mut block = |title: &str, key: &str, parts: Vec<PartRow>| {
        text += &format!("{title} (ils.{key}):\n");
        for (name, summary, defaults, docs) in parts {
            text += &format!("  {name:<16} {summary}\n");
            for (k, v) in defaults.as_object().into_iter().flatten() {
                let doc = docs.iter().find(|(d, _)| d == k).map_or("", |(_, d)| *d);
                text += &format!("  {:<16}   {name}.{k} = {v}  {doc}\n", "");
            }
        }
    };
    macro_rules! rows {
        ($parts:expr) => {
            $parts
                .iter()
                .map(|p| (p.name, p.summary, &p.defaults, p.params_doc))
                .collect()
        };
    }
    block("perturbations", "perturb", rows!(reg.perturbs));
    block("acceptance rules", "accept", rows!(reg.accepts));
    block("descent operators", "operators", rows!(reg.operators));
    text
}

fn bound_text(b: &BoundInfo) -> String {
    let mut text = format!("  {:<16} {}\n", b.name, b.summary);
    text += &format!("  {:<16} certified: {}\n", "", b.certified);
    text += &format!("  {:<16} weighted: {}\n", "", weighted_text(b));
    let defaults = b.defaults();
    if b.params_doc.is_empty() {
        text += &format!("  {:<16} parameters: none\n", "");
    }
    for (key, doc) in b.params_doc {
        text += &format!(
            "  {:<16}   {} = {}  {}\n",
            "",
            key,
            shown(&defaults[key], "none"),
            doc
        );
    }
    text
}

/// The text listing's `weighted:` line of a bound.
fn weighted_text(b: &BoundInfo) -> String {
    match b.weighted {
        Some(w) => format!("yes, on the weighted SSE with --weights ({})", w.proof),
        None => "no (bounds the unweighted SSE; refuses --weights)".to_string(),
    }
}

fn method_text(m: &MethodInfo) -> String {
    let mut text = format!("  {:<16} {}\n", m.name, m.summary);
    text += &format!("  {:<16} reference: {}\n", "", m.reference);
    text += &format!("  {:<16} randomness: {}\n", "", randomness_text(m));
    if m.missing_cells {
        text += &format!("  {:<16} {MISSING_CELLS}\n", "");
    }
    let defaults = m.defaults.as_object().cloned().unwrap_or_default();
    if defaults.is_empty() {
        text += &format!("  {:<16} parameters: none\n", "");
    }
    for (key, value) in &defaults {
        let doc = m
            .params_doc
            .iter()
            .find(|(k, _)| k == key)
            .map_or("", |(_, d)| *d);
        text += &format!(
            "  {:<16}   {}.{} = {}  {}\n",
            "",
            m.name,
            key,
            shown(value, "auto"),
            doc
        );
    }
    text
}

/// How `list` and the docs mark a method that runs on data with missing cells.
pub(crate) const MISSING_CELLS: &str =
    "missing cells: runs on them with --missing ignore (masked SSE; docs/missing-values.md)";

/// Whether a method's result depends on the seed, in the words of `list` and the docs.
pub(crate) fn randomness_text(m: &MethodInfo) -> String {
    const ONCE: &str = "draws no random number; an experiment runs it once per case";
    match m.randomness {
        Randomness::Random => {
            "random (the seed changes the result; an experiment runs it once per seed)".into()
        }
        Randomness::Deterministic => format!("deterministic ({ONCE})"),
        Randomness::DeterministicWhen { otherwise, .. } => {
            format!("deterministic with the defaults ({ONCE}); {otherwise}")
        }
    }
}

/// A default as the text listing shows it, `null` (an unset Option parameter, null in
/// records and in `list --json`) as the word `null_as`: a method chooses it at run time
/// ("auto", e.g. descent's `approx` and `neighbours` by n), a bound's `start` is not given
/// ("none").
fn shown(value: &Value, null_as: &str) -> String {
    match value {
        Value::Null => null_as.to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
