//! # MHM-ZSUM (records sorted by the sum of z-scores, optimal cut)
//!
//! Sort the records by the sum of their z-scores (ties: lowest index) and cut the sorted
//! list optimally into contiguous runs of k..2k-1 (`microagg_solvers::segment_order`, the
//! multivariate SSE of each run). `proj-zsum` cuts the same order into fixed runs of k, and
//! `semirandom` with `p = 0` is exactly this method (`tests/construct/mhm_orders.rs`).
//!
//! ## Complexity
//! O(n d) for the scores, O(n log n) for the sort, O(n k d) for the segmentation.
//!
//! ## References
//! Hansen & Mukherjee (2003), IEEE TKDE 15(4). Defays & Anwar (1998), "Masking
//! microdata using micro-aggregation", Journal of Official Statistics 14(4) (sum of
//! z-scores as the sorting criterion). Mortazavi et al. (2013), Applied Intelligence 39(3).

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, zsum_scores, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct MhmZsum;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "mhm-zsum",
        "records sorted by the sum of their z-scores, cut optimally into runs of k..2k-1",
        "Hansen & Mukherjee 2003; Domingo-Ferrer et al. 2006; Mortazavi et al. 2013",
        |_: NoParams| MhmZsum,
    )
    .deterministic()
}

impl Initializer for MhmZsum {
    fn name(&self) -> &str {
        "mhm-zsum"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let order = order_by_score(&zsum_scores(inst));
        cut_order("mhm-zsum", problem, &order, Cut::Optimal)
    }
}
