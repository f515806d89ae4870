//! # Exact solves from the workbench
//!
//! [`solve_from_mdav`] is `microagg solve-exact` (and the Python `solve_exact`): MDAV's
//! partition is handed to the exact solver as its first incumbent, so that a time-limited
//! set-partitioning answer is never worse than MDAV (the subset DP ignores the hint).
//!
//! ## Complexity
//! That of the exact method (exponential in n), plus one MDAV run, O(n^2 d / k).
//!
//! ## References
//! See `microagg_solvers::exact` and `proofs/P12`.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::pipeline::Pipeline;
use microagg_solvers::exact::{self, ExactMethod, ExactOptions, ExactSolution};
use std::sync::atomic::AtomicBool;

/// Solve (inst, k) exactly with `method`, starting from MDAV's partition; returns the
/// solution and the wall-clock seconds spent (MDAV included). `interrupt` stops the search
/// with the best partition and bound so far.
pub fn solve_from_mdav(
    inst: &Instance,
    k: usize,
    method: ExactMethod,
    time_limit: Option<f64>,
    interrupt: &AtomicBool,
) -> Result<(ExactSolution, f64)> {
    inst.check_k(k)?;
    let start = std::time::Instant::now();
    let never = AtomicBool::new(false);
    let mdav = Pipeline::parse("mdav", &[])?
        .run(inst, k, 0, None, &never)?
        .partition
        .labels()
        .to_vec();
    let opts = ExactOptions {
        method,
        time_limit,
        hint: Some(mdav),
        interrupt: Some(interrupt),
        ..ExactOptions::default()
    };
    let s = exact::solve_exact_with(&inst.z, inst.n, inst.d, k, &opts)
        .map_err(|e| Error::algorithm("solve-exact", e))?;
    Ok((s, start.elapsed().as_secs_f64()))
}
