//! # MHM-PC1 (records sorted by the first principal component, optimal cut)
//!
//! Project the standardised records on their first principal component
//! ([`crate::init::mhm::orders::pc1_axis`]: power iteration on the covariance of the z-scores from a
//! fixed start, sign fixed so the largest component is positive), sort by the score (ties:
//! lowest index), and cut the sorted list optimally into contiguous runs of k..2k-1
//! (`microagg_solvers::segment_order`, the multivariate SSE of each run). `proj-pc1` cuts the
//! same order into fixed runs of k, so it is never better (`tests/construct/mhm_orders.rs`). The sign
//! does not change the partition (a reversed order has the same segmentations) up to ties.
//!
//! ## Complexity
//! O(n d^2) for the covariance, O(t d^2) for t power iterations, O(n log n) for the sort,
//! O(n k d) for the segmentation.
//!
//! ## References
//! Hansen & Mukherjee (2003), IEEE TKDE 15(4) (optimal univariate segmentation).
//! Domingo-Ferrer et al. (2006), The VLDB Journal 15(4) (MHM on multivariate orders). Templ
//! (2008), "Statistical disclosure control for microdata using the R-package sdcMicro",
//! Transactions on Data Privacy 1(2) (`pca` method: sort by the first principal component).

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, pc1_scores, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct MhmPc1;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "mhm-pc1",
        "records sorted by their first-principal-component score (power iteration, deterministic sign), cut optimally into runs of k..2k-1",
        "Hansen & Mukherjee 2003; Domingo-Ferrer et al. 2006; Templ 2008 (sdcMicro pca)",
        |_: NoParams| MhmPc1,
    )
    .deterministic()
}

impl Initializer for MhmPc1 {
    fn name(&self) -> &str {
        "mhm-pc1"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let order = order_by_score(&pc1_scores(inst));
        cut_order("mhm-pc1", problem, &order, Cut::Optimal)
    }
}
