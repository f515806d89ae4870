//! # The start of a column-generation bound
//!
//! Both colgen entries (unweighted and weighted, in `colgen_entry`) seed
//! their master with a heuristic partition run for a tenth of the time limit and hand the
//! rest of the limit to the solver. Cost: the start pipeline's own.

use crate::data::Instance;
use crate::error::Result;
use crate::pipeline::{Pipeline, PipelineOutcome};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Run the start pipeline `spec` for a tenth of `limit` seconds; return its outcome and the
/// seconds left of `limit` since `started` (at least a thousandth of it; a token 1e-3 s once
/// interrupted, so the solver returns what it has at once).
pub(crate) fn start_and_remaining(
    spec: &str,
    inst: &Instance,
    k: usize,
    limit: f64,
    started: Instant,
    interrupt: &AtomicBool,
) -> Result<(PipelineOutcome, f64)> {
    let start = Pipeline::parse(spec, &[])?.run(inst, k, 0, Some(limit / 10.0), interrupt)?;
    let remaining = if interrupt.load(Ordering::SeqCst) {
        1e-3
    } else {
        (limit - started.elapsed().as_secs_f64()).max(1e-3 * limit)
    };
    Ok((start, remaining))
}
