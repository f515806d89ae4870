//! # PROJ-VAR (one variable, fixed cuts of k)
//!
//! The order of `mhm-var` (one standardised variable, parameter `column` by name or
//! 1-based index, default 1; ties by lowest index) cut into consecutive groups of exactly k
//! records, the last group absorbing the remainder of n mod k records
//! (`microagg_solvers::fixed_cut`). Never better than `mhm-var` with the same column
//! (`tests/construct/mhm_orders.rs`).
//!
//! ## Complexity
//! O(n log n) for the order, O(n d) for the cut.
//!
//! ## References
//! Templ (2008), Transactions on Data Privacy 1(2) (sdcMicro `single`). Defays &
//! Nanopoulos (1993).

use crate::error::Result;
use crate::init::mhm::orders::{column_scores, cut_order, order_by_score, ColumnParams, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::partition::Partition;

pub struct ProjVar(pub ColumnParams);

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "proj-var",
        "records sorted by one standardised variable (parameter column), cut into runs of k (the last absorbs the remainder)",
        "Templ 2008 (sdcMicro single)",
        ProjVar,
    )
    .deterministic()
}

impl Initializer for ProjVar {
    fn name(&self) -> &str {
        "proj-var"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let column = self.0.column.resolve("proj-var", inst)?;
        let order = order_by_score(&column_scores(inst, column));
        cut_order("proj-var", problem, &order, Cut::Fixed)
    }
}
