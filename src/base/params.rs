//! # Algorithm parameters
//!
//! Each algorithm has one serde struct of parameters with documented defaults and
//! `#[serde(deny_unknown_fields)]`; [`Params::check`] validates values before any run
//! starts. On the command line a parameter is `--param METHOD.KEY=VALUE`; values are read as
//! JSON when they parse as JSON (numbers, booleans) and as strings otherwise.

use crate::error::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// An algorithm's parameter struct.
pub trait Params: Serialize + DeserializeOwned + Default + Clone + Send + Sync + 'static {
    /// Names and one-line descriptions of the fields, for `microagg list`.
    const DOC: &'static [(&'static str, &'static str)] = &[];

    /// Validate values; an error message names the offending field.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Parameters that take no fields.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

impl Params for NoParams {}

/// Build a method's parameters from user-given key/values, rejecting unknown keys.
pub fn parse_params<P: Params>(method: &str, given: &Map<String, Value>) -> Result<P> {
    let p: P = serde_json::from_value(Value::Object(given.clone())).map_err(|e| {
        let key = culprit::<P>(given).map_or(String::new(), |k| format!("{k}: "));
        Error::usage(format!("parameters of '{method}': {key}{e}"))
    })?;
    p.check()
        .map_err(|e| Error::usage(format!("parameters of '{method}': {e}")))?;
    Ok(p)
}

/// The first given key that alone (with the defaults for the rest) does not deserialize,
/// so that a type error names its key (serde's message names only the expected type).
fn culprit<P: Params>(given: &Map<String, Value>) -> Option<&str> {
    let Ok(Value::Object(defaults)) = serde_json::to_value(P::default()) else {
        return None;
    };
    given.iter().map(|(k, _)| k.as_str()).find(|&key| {
        let mut one = defaults.clone();
        one.insert(key.to_string(), given[key].clone());
        serde_json::from_value::<P>(Value::Object(one)).is_err()
    })
}

/// `--param` arguments grouped by method: `"vmdav.gamma=1.1"` -> {"vmdav": {"gamma": 1.1}}.
pub fn group_param_args(args: &[String]) -> Result<BTreeMap<String, Map<String, Value>>> {
    let mut out: BTreeMap<String, Map<String, Value>> = BTreeMap::new();
    for arg in args {
        let (lhs, value) = arg
            .split_once('=')
            .ok_or_else(|| Error::usage(format!("--param '{arg}': expected METHOD.KEY=VALUE")))?;
        let (method, key) = lhs
            .split_once('.')
            .ok_or_else(|| Error::usage(format!("--param '{arg}': expected METHOD.KEY=VALUE")))?;
        let value = parse_value(value);
        let entry = out.entry(method.trim().to_string()).or_default();
        if entry.insert(key.trim().to_string(), value).is_some() {
            return Err(Error::usage(format!("--param '{lhs}' given twice")));
        }
    }
    Ok(out)
}

/// A parameter value from text: JSON when it parses as JSON (numbers, booleans), a string
/// otherwise (`start=instances/a.labels`).
pub(crate) fn parse_value(text: &str) -> Value {
    serde_json::from_str::<Value>(text.trim())
        .unwrap_or_else(|_| Value::String(text.trim().to_string()))
}

/// `KEY=VALUE` arguments of one algorithm (`bound --param cuts=3`, `run --bound-param`) as
/// the map [`parse_params`] reads; `flag` names the option in errors. A key given twice is
/// an error, never a silent override.
pub fn key_values(flag: &str, args: &[String]) -> Result<Map<String, Value>> {
    let mut out = Map::new();
    for arg in args {
        let (key, value) = arg.split_once('=').ok_or_else(|| {
            Error::usage(format!("{flag} '{arg}': expected KEY=VALUE, e.g. cuts=5"))
        })?;
        if out
            .insert(key.trim().to_string(), parse_value(value))
            .is_some()
        {
            return Err(Error::usage(format!("{flag} '{}' given twice", key.trim())));
        }
    }
    Ok(out)
}
