//! # TFRP2 (one Decompose pass)
//!
//! Phase 2 of TFRP (Chang et al. 2007), as used by GSMS-T2 and as the "suffix 2" baseline
//! of Khomnotai et al. (2018): one pass over the groups that dissolves a group into the
//! nearest other groups whenever that lowers the SSE, followed by SplitLargeGroups. The
//! implementation is the Decompose pass of [`decompose_shrink`](super::decompose_shrink).
//!
//! ## Complexity
//! O(n^2 d / k) for the pass plus the splitting.
//!
//! ## References
//! - Chang, C.-C., Li, Y.-C. and Huang, W.-H. (2007). TFRP: an efficient microaggregation
//!   algorithm for statistical disclosure control. Journal of Systems and Software 80(11),
//!   1866-1878.
//! - Khomnotai, L., Lin, J.-L., Peng, Z.-Q. and Santra, A. S. (2018). Iterative group
//!   decomposition for refining microaggregation solutions. Symmetry 10(7), 262.

use super::decompose_shrink::DecomposeShrink;
use crate::method::MethodInfo;
use crate::params::NoParams;

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "tfrp2",
        "one Decompose pass (TFRP phase 2): dissolve groups into their nearest groups when that lowers the SSE",
        "Chang, Li & Huang (2007), J. Systems and Software 80(11); Khomnotai et al. (2018)",
        |_: NoParams| DecomposeShrink::new("tfrp2", false),
    )
    .deterministic()
}
