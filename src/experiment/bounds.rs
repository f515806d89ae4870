//! # Lower bounds available to suites
//!
//! The names a suite may list in `bounds = [...]` and how each is computed for one
//! (instance, k). A bound value is a certified lower bound on the optimal SSE (rounded
//! outward by the module that computes it); the runner reports the gap of every run to the
//! best (largest) bound of its case. Adding a bound is one line in [`AVAILABLE`].
//!
//! `nn` and `colgen` are being built (issue 8); until they are registered here a suite that
//! asks for them is rejected with a clear message, never given a made-up value.
//!
//! ## Complexity
//! That of the bound computed.
//!
//! ## References
//! See the module of each bound.

use crate::data::Instance;
use crate::error::Result;

/// A bound computation: lower bound on the optimal SSE of (instance, k).
pub type BoundFn = fn(&Instance, usize) -> Result<f64>;

/// Bounds that exist, by name.
pub const AVAILABLE: &[(&str, BoundFn)] = &[];

/// Bounds planned but not yet in this build.
pub const PLANNED: &[&str] = &["nn", "colgen"];

/// Check a bound name: Ok when it can be computed, otherwise an error that says why.
pub fn check_name(name: &str) -> Result<(), String> {
    if AVAILABLE.iter().any(|(n, _)| *n == name) {
        return Ok(());
    }
    let available = if AVAILABLE.is_empty() {
        "none yet".to_string()
    } else {
        AVAILABLE
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
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

/// Compute a bound by name.
pub fn compute(name: &str, inst: &Instance, k: usize) -> Result<f64> {
    match AVAILABLE.iter().find(|(n, _)| *n == name) {
        Some((_, f)) => f(inst, k),
        None => Err(crate::error::Error::usage(check_name(name).unwrap_err())),
    }
}

/// Relative gap in percent between a solution's SSE and a lower bound: 100 (sse - lb) / sse.
/// Zero when the solution is proven optimal; `None` when sse is zero (then lb is zero too).
/// A negative gap is kept as is: it would expose an invalid bound.
pub fn gap_percent(sse: f64, lower_bound: f64) -> Option<f64> {
    if sse > 0.0 {
        Some(100.0 * (sse - lower_bound) / sse)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planned_and_unknown_bounds_are_rejected_with_different_messages() {
        let planned = check_name("nn").unwrap_err();
        assert!(
            planned.contains("not available in this build yet"),
            "{planned}"
        );
        let unknown = check_name("magic").unwrap_err();
        assert!(unknown.contains("unknown bound 'magic'"), "{unknown}");
    }

    #[test]
    fn gap_is_relative_to_the_solution() {
        assert_eq!(gap_percent(200.0, 150.0), Some(25.0));
        assert_eq!(gap_percent(10.0, 10.0), Some(0.0));
        assert_eq!(gap_percent(0.0, 0.0), None);
    }
}
