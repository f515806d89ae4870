//! # PROJ-ZSUM (sum of z-scores, fixed cuts of k)
//!
//! The order of `mhm-zsum` (sum of z-scores, ties by lowest index) cut into consecutive
//! groups of exactly k records, the last group absorbing the remainder of n mod k records
//! (`microagg_solvers::fixed_cut`). Never better than `mhm-zsum` (`tests/construct/mhm_orders.rs`).
//!
//! ## Complexity
//! O(n d + n log n) for the order, O(n d) for the cut.
//!
//! ## References
//! Defays & Anwar (1998), Journal of Official Statistics 14(4). Templ (2008),
//! Transactions on Data Privacy 1(2).

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, zsum_scores, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct ProjZsum;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "proj-zsum",
        "records sorted by the sum of their z-scores, cut into runs of k (the last absorbs the remainder)",
        "Templ 2008 (sdcMicro); Defays & Anwar 1998",
        |_: NoParams| ProjZsum,
    )
    .deterministic()
}

impl Initializer for ProjZsum {
    fn name(&self) -> &str {
        "proj-zsum"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let order = order_by_score(&zsum_scores(inst));
        cut_order("proj-zsum", problem, &order, Cut::Fixed)
    }
}
