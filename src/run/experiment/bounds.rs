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

use crate::bound::{self, BoundOutcome, PreparedBound};
use crate::data::Instance;
use crate::error::Result;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::bound::gap_percent;

/// Bounds planned but not yet in this build.
pub(crate) const PLANNED: &[&str] = &[];

/// Check a bound name: Ok when it can be computed, otherwise an error that says why.
pub fn check_name(name: &str) -> Result<(), String> {
    if bound::find(name).is_ok() {
        return Ok(());
    }
    let available = bound::names().join(", ");
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

/// A bound with its parameters, parsed and checked once by the bound registry.
#[derive(Debug, Clone)]
pub struct BoundRequest {
    pub name: String,
    /// The parameters as given (`KEY` -> `VALUE` as text), written into run records.
    pub params: BTreeMap<String, String>,
    pub bound: Arc<PreparedBound>,
}

impl BoundRequest {
    /// Check `name` and its typed parameters `given` through the registry
    /// ([`bound::prepare`], the parser of `bound --param` and `run --bound-param`).
    pub fn new(name: &str, given: &Map<String, Value>) -> Result<BoundRequest, String> {
        check_name(name)?;
        let bound = bound::prepare(name, given, None).map_err(|e| e.to_string())?;
        let text = |v: &Value| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        Ok(BoundRequest {
            name: name.to_string(),
            params: given.iter().map(|(k, v)| (k.clone(), text(v))).collect(),
            bound: Arc::new(bound),
        })
    }

    /// Compute the bound for (instance, k) with its parameters (the bound's default time
    /// limit unless one was given), its own progress lines shown as `show` says.
    pub fn compute(
        &self,
        inst: &Instance,
        k: usize,
        show: crate::progress::Show,
    ) -> Result<BoundOutcome> {
        let never = std::sync::atomic::AtomicBool::new(false);
        bound::compute_prepared(&self.bound, inst, k, show, &never)
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
        let given = |v: Value| v.as_object().unwrap().clone();
        let r = BoundRequest::new(
            "colgen",
            &given(serde_json::json!({"cuts": 3, "time_limit": 2.5})),
        )
        .unwrap();
        assert_eq!(r.bound.param("cuts"), 3);
        assert_eq!(r.bound.param("time_limit"), 2.5);
        assert_eq!(r.params.get("cuts").map(String::as_str), Some("3"));
        let e =
            BoundRequest::new("colgen", &given(serde_json::json!({"cuts": "many"}))).unwrap_err();
        assert!(e.contains("cuts: invalid type: string \"many\""), "{e}");
        let e = BoundRequest::new("nn", &given(serde_json::json!({"cuts": 1}))).unwrap_err();
        assert!(e.contains("bound nn has no parameter 'cuts'"), "{e}");
    }
}
