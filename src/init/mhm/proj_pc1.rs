//! # PROJ-PC1 (first principal component, fixed cuts of k)
//!
//! The order of `mhm-pc1` (first principal component scores, ties by lowest index) cut into
//! consecutive groups of exactly k records, the last group absorbing the remainder of
//! n mod k records (so it has k..2k-1), as `microagg_solvers::fixed_cut`: the classical
//! projection baseline. It is one of the segmentations `mhm-pc1` optimises over, so it is
//! never better than `mhm-pc1` (`tests/construct/mhm_orders.rs`).
//!
//! ## Complexity
//! O(n d^2 + n log n) for the order, O(n d) for the cut.
//!
//! ## References
//! Defays & Nanopoulos (1993), "Panels of enterprises and confidentiality: the small
//! aggregates method", Proc. Symposium on Design and Analysis of Longitudinal Surveys,
//! Statistics Canada. Templ (2008), Transactions on Data Privacy 1(2) (sdcMicro `pca`).

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, pc1_scores, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct ProjPc1;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "proj-pc1",
        "records sorted by their first-principal-component score, cut into runs of k (the last absorbs the remainder)",
        "Templ 2008 (sdcMicro pca); Defays & Anwar 1998",
        |_: NoParams| ProjPc1,
    )
    .deterministic()
}

impl Initializer for ProjPc1 {
    fn name(&self) -> &str {
        "proj-pc1"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let order = order_by_score(&pc1_scores(inst));
        cut_order("proj-pc1", problem, &order, Cut::Fixed)
    }
}
