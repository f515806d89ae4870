//! # MHM-VAR (records sorted by one variable, optimal cut)
//!
//! Sort the records by one standardised variable (parameter `column`: a column name as in
//! the header, or a 1-based index; default 1) with ties by lowest index, and cut the sorted
//! list optimally into contiguous runs of k..2k-1 (`microagg_solvers::segment_order`, the
//! multivariate SSE of each run: the variable only orders the records). On one-attribute
//! data this is the optimal univariate solution. A column that does not exist is a usage
//! error naming the instance's columns.
//!
//! ## Complexity
//! O(n log n) for the sort, O(n k d) for the segmentation.
//!
//! ## References
//! Hansen & Mukherjee (2003), IEEE TKDE 15(4). Templ (2008), Transactions on Data Privacy
//! 1(2) (sdcMicro's `single` method: sort by one variable).

use crate::error::Result;
use crate::init::mhm::orders::{column_scores, cut_order, order_by_score, ColumnParams, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::partition::Partition;

pub struct MhmVar(pub ColumnParams);

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "mhm-var",
        "records sorted by one standardised variable (parameter column), cut optimally into runs of k..2k-1",
        "Hansen & Mukherjee 2003; Templ 2008 (sdcMicro single)",
        MhmVar,
    )
    .deterministic()
}

impl Initializer for MhmVar {
    fn name(&self) -> &str {
        "mhm-var"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let column = self.0.column.resolve("mhm-var", inst)?;
        let order = order_by_score(&column_scores(inst, column));
        cut_order("mhm-var", problem, &order, Cut::Optimal)
    }
}
