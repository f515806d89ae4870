//! # Exact solve records
//!
//! What `microagg solve-exact` prints for an [`ExactSolution`](microagg_solvers::exact::ExactSolution):
//! `exact_json` (one object, with the proof status, the certified lower bound and the
//! solver's counters) and `exact_text` (one line).
//!
//! ## Complexity
//! O(n) (the group count is read off the labels).
//!
//! ## References
//! None.

use crate::data::Instance;
use microagg_solvers::exact::{ExactSolution, PROOF_REL_GAP};

/// The context of one solve that the solution does not carry.
pub(crate) struct ExactRun<'a> {
    pub inst: &'a Instance,
    pub k: usize,
    pub seconds: f64,
    pub time_limit: Option<f64>,
    pub interrupted: bool,
}

/// Groups of a solution's labels (labels are 0..groups).
pub fn groups(s: &ExactSolution) -> usize {
    s.labels.iter().max().map_or(0, |m| m + 1)
}

/// `solve-exact --json`.
pub(crate) fn exact_json(s: &ExactSolution, run: &ExactRun) -> String {
    let inst = run.inst;
    let v = serde_json::json!({
        "instance": inst.name,
        "instance_sha256": inst.sha256,
        "n": inst.n,
        "d": inst.d,
        "k": run.k,
        "sse": s.sse,
        "sst": inst.sst,
        "il": inst.il(s.sse),
        "groups": groups(s),
        "proven_optimal": s.proven_optimal,
        "lower_bound": s.lower_bound,
        "il_lower_bound": crate::bound::il_lower_bound(inst, s.lower_bound),
        "method": s.method.name(),
        "seconds": run.seconds,
        "time_limit": run.time_limit,
        "nodes": s.nodes,
        "columns": s.columns,
        "cg_iterations": s.cg_iterations,
        "lp_bound": s.lp_bound,
        "mip_nodes": s.mip_nodes,
        "branch_nodes": s.branch_nodes,
        "proof_rel_gap": PROOF_REL_GAP,
        "note": s.note,
        "interrupted": run.interrupted,
        "phase_seconds": {"pricing": s.phase_seconds[0], "lp": s.phase_seconds[1], "mip": s.phase_seconds[2]},
        "version": env!("CARGO_PKG_VERSION"),
    });
    serde_json::to_string(&v).expect("record serialises")
}

/// The one-line text form, with the proof status in words.
pub(crate) fn exact_text(s: &ExactSolution, run: &ExactRun) -> String {
    let inst = run.inst;
    format!(
        "solve-exact ({}) on {} (n={}, d={}), k={}: SSE {:.6} IL {:.6} % in {} groups, {}, {:.3} s",
        s.method.name(),
        inst.name,
        inst.n,
        inst.d,
        run.k,
        s.sse,
        inst.il(s.sse),
        groups(s),
        if s.proven_optimal {
            format!("proven optimal (certified lower bound within relative {PROOF_REL_GAP:e})")
        } else {
            format!(
                "NOT proven (certified lower bound SSE {:.6e}{})",
                s.lower_bound,
                s.note
                    .as_deref()
                    .map_or(String::new(), |w| format!("; {w}"))
            )
        },
        run.seconds
    )
}
