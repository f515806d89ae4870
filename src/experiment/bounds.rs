//! # Lower bounds available to suites
//!
//! The bounds a suite may list in `bounds = [...]`, each with the parameters of the bound
//! registry ([`crate::bound::BOUNDS`], `bnp` included), checked before anything runs
//! ([`BoundRequest::new`]).
//! Each is computed once per (instance, k) by [`crate::bound::compute_with`] (which rounds
//! certified bounds outward); the runner reports the gap of every run to the best (largest)
//! bound of its case.
//!
//! A bound planned but not yet in this build is rejected with a clear message, never given a
//! made-up value.
//!
//! ## Complexity
//! That of the bound computed (see [`crate::bound`]).

use crate::bound::{self, BoundOptions, BoundOutcome};
use crate::data::Instance;
use crate::error::Result;
use std::collections::BTreeMap;

pub use crate::bound::gap_percent;

/// Bounds planned but not yet in this build.
pub const PLANNED: &[&str] = &[];

/// Check a bound name: Ok when it can be computed, otherwise an error that says why.
pub fn check_name(name: &str) -> Result<(), String> {
    if bound::NAMES.contains(&name) {
        return Ok(());
    }
    let available = bound::NAMES.join(", ");
    if PLANNED.contains(&name) {
        Err(format!(
            "bound '{name}' is not available in this build yet (it is being implemented); available bounds: {available}"
        ))
    } else {
        Err(format!(
            "unknown bound '{name}'; available bounds: {available}"
        ))
    }
}

/// A bound with its parameters, validated once: the options and time limit that
/// [`BoundRequest::compute`] passes to the bound.
#[derive(Debug, Clone)]
pub struct BoundRequest {
    pub name: String,
    /// The parameters as given (`KEY` -> `VALUE` text), written into run records.
    pub params: BTreeMap<String, String>,
    pub options: BoundOptions,
    /// The `time_limit` parameter, if given (else the bound's default).
    pub time_limit: Option<f64>,
}

impl BoundRequest {
    /// Check `name` and set each `(KEY, VALUE)` through [`BoundOptions::set`], the parser
    /// of `run --bound-param KEY=VALUE` (so the registry's keys and types hold here too).
    pub fn new(name: &str, params: &[(String, String)]) -> Result<BoundRequest, String> {
        check_name(name)?;
        let mut options = BoundOptions::default();
        let mut time_limit = None;
        for (key, value) in params {
            if let Some(t) = options.set(name, key, value).map_err(|e| e.to_string())? {
                time_limit = Some(t);
            }
        }
        Ok(BoundRequest {
            name: name.to_string(),
            params: params.iter().cloned().collect(),
            options,
            time_limit,
        })
    }

    /// Compute the bound for (instance, k) with its parameters (no time limit unless one
    /// was given: suites ask for bounds that finish).
    pub fn compute(&self, inst: &Instance, k: usize) -> Result<BoundOutcome> {
        let never = std::sync::atomic::AtomicBool::new(false);
        bound::compute_with(&self.name, inst, k, self.time_limit, &self.options, &never)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_bounds_are_rejected_and_colgen_is_available() {
        assert!(check_name("colgen").is_ok());
        let unknown = check_name("magic").unwrap_err();
        assert!(unknown.contains("unknown bound 'magic'"), "{unknown}");
        assert!(check_name("nn").is_ok());
    }

    #[test]
    fn bound_requests_set_typed_parameters_through_the_registry() {
        let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
        let r = BoundRequest::new("colgen", &[kv("cuts", "3"), kv("time_limit", "2.5")]).unwrap();
        assert_eq!((r.options.cut_rounds, r.time_limit), (Some(3), Some(2.5)));
        assert_eq!(r.params.get("cuts").map(String::as_str), Some("3"));
        let e = BoundRequest::new("colgen", &[kv("cuts", "many")]).unwrap_err();
        assert!(e.contains("cuts=many: expected a count"), "{e}");
        let e = BoundRequest::new("nn", &[kv("cuts", "1")]).unwrap_err();
        assert!(e.contains("bound nn has no parameter 'cuts'"), "{e}");
    }
}
