//! # Lower bounds for the workbench
//!
//! The one place that maps a bound name to its kernel in `microagg-solvers::bounds` and
//! reports it uniformly: the bound on the optimal SSE, the same as IL, whether it is
//! certified (a proof path exists in `proofs/` and the value is rounded outward), time and
//! method details. Used by `microagg bound`, `microagg run --bound` and experiment suites.
//!
//! | name | what | certified | proof |
//! |---|---|---|---|
//! | `nn` | `sum_i NN_{k-1}(i) / (2k)`, O(n^2 d) | always | `proofs/P06-nn-bound.md` |
//!
//! The gap of a solution to a bound is `100 (SSE - LB) / LB` ([`gap_percent`]): how far, in
//! percent of the bound, the solution may be from optimal.

use crate::data::Instance;
use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Instant;

/// Bound names this build computes.
pub const NAMES: &[&str] = &["nn"];

/// A computed bound.
#[derive(Debug, Clone, Serialize)]
pub struct BoundOutcome {
    /// Bound name (`nn`, ...).
    pub method: String,
    /// Lower bound on the optimal SSE (rounded outward when certified).
    pub lower_bound: f64,
    /// The bound as IL in percent, rounded down.
    pub il_lower_bound: f64,
    /// True only when the bound is proven valid (see the module table).
    pub certified: bool,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Method-specific details (iterations, columns, pricing gap, ...).
    pub details: Value,
}

/// Compute bound `name` for (instance, k). `time_limit` (seconds) is honoured by the bounds
/// that iterate; `nn` runs to completion.
pub fn compute(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
) -> Result<BoundOutcome> {
    inst.check_k(k)?;
    let _ = time_limit;
    let start = Instant::now();
    let algo = |e: microagg_solvers::SolverError| Error::Algorithm {
        method: format!("bound {name}"),
        message: e.to_string(),
    };
    let (lower_bound, certified, details) = match name {
        "nn" => {
            let b = microagg_solvers::bounds::nn_bound(&inst.z, inst.n, inst.d, k).map_err(algo)?;
            (b.lower_bound, true, json!({ "computed": b.computed }))
        }
        _ => return Err(Error::usage(unknown(name))),
    };
    Ok(BoundOutcome {
        method: name.to_string(),
        lower_bound,
        il_lower_bound: (100.0 * lower_bound / inst.sst).next_down().max(0.0),
        certified,
        seconds: start.elapsed().as_secs_f64(),
        details,
    })
}

/// Check a bound name without computing it.
pub fn check_name(name: &str) -> Result<()> {
    if NAMES.contains(&name) {
        Ok(())
    } else {
        Err(Error::usage(unknown(name)))
    }
}

fn unknown(name: &str) -> String {
    format!(
        "unknown bound '{name}'; available bounds: {}",
        NAMES.join(", ")
    )
}

/// Gap of a solution to a lower bound, in percent of the bound: `100 (sse - lb) / lb`.
/// Zero when the solution is proven optimal; `None` when the bound is zero (no relative
/// statement is possible). A negative gap is kept as is: it would expose an invalid bound.
pub fn gap_percent(sse: f64, lower_bound: f64) -> Option<f64> {
    if lower_bound > 0.0 {
        Some(100.0 * (sse - lower_bound) / lower_bound)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_is_relative_to_the_bound() {
        assert_eq!(gap_percent(150.0, 100.0), Some(50.0));
        assert_eq!(gap_percent(10.0, 10.0), Some(0.0));
        assert_eq!(gap_percent(1.0, 0.0), None);
    }

    #[test]
    fn unknown_bound_names_are_rejected() {
        let e = check_name("magic").unwrap_err().to_string();
        assert!(
            e.contains("unknown bound 'magic'") && e.contains("nn"),
            "{e}"
        );
        assert!(check_name("nn").is_ok());
    }
}
