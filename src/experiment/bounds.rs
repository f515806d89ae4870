//! # Lower bounds available to suites
//!
//! The names a suite may list in `bounds = [...]`, checked before anything runs. Each is
//! computed once per (instance, k) by [`crate::bound::compute`] (which rounds certified bounds
//! outward); the runner reports the gap of every run to the best (largest) bound of its case.
//!
//! A bound planned but not yet in this build is rejected with a clear message, never given a
//! made-up value.
//!
//! ## Complexity
//! That of the bound computed (see [`crate::bound`]).

use crate::bound::{self, BoundOutcome};
use crate::data::Instance;
use crate::error::Result;

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

/// Compute a bound by name (no time limit: suites ask for bounds that finish).
pub fn compute(name: &str, inst: &Instance, k: usize) -> Result<BoundOutcome> {
    check_name(name).map_err(crate::error::Error::usage)?;
    bound::compute(name, inst, k, None)
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
}
