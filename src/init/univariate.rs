//! # Optimal univariate microaggregation (adapter)
//!
//! For one-attribute data: sort the standardised values and cut them optimally into
//! contiguous groups of k..2k-1 (Hansen & Mukherjee). The kernel is
//! `microagg_solvers::univariate::univariate_optimal`; this adapter checks that the instance
//! has one column (pick one with `--column`), sorts stably (ties by record index) and maps
//! the groups back to input order. The result is optimal, by
//! `proofs/P04-univariate-contiguity-dp.md`.
//!
//! With sampling weights (`--weights`) that are not all equal it minimises the weighted SSE
//! over partitions into sorted runs (`univariate_weighted_runs`, O(nk)); that is the
//! weighted optimum among sorted-run partitions but not always over all partitions
//! (`proofs/P40-weighted-sse.md` has a counterexample). Equal weights give the unweighted
//! optimum, which is then also the weighted one, with the same labels.
//!
//! ## Complexity
//! O(n log n) for the sort, O(n) for the segmentation.
//!
//! ## References
//! Hansen & Mukherjee (2003), IEEE TKDE 15(4). Stamm & Schaub (2024), "Faster optimal
//! univariate microaggregation" (arXiv).

use crate::error::{Error, Result};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;
use microagg_solvers::univariate::{sorting_order, univariate_optimal, univariate_weighted_runs};

pub(crate) struct Univariate;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "univariate",
        "Optimal univariate microaggregation (d = 1; pick a column with --column): sorted values cut optimally, O(n) after sorting; with --weights the weighted SSE over sorted runs, O(nk) (docs/weights.md)",
        "Hansen & Mukherjee 2003; Stamm & Schaub 2024",
        |_: NoParams| Univariate,
    )
    .one_attribute()
    .deterministic()
}

impl Initializer for Univariate {
    fn name(&self) -> &str {
        "univariate"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        if inst.d != 1 {
            return Err(Error::usage(format!(
                "method 'univariate' needs one attribute, '{}' has d = {} (choose one with --column NAME)",
                inst.name, inst.d
            )));
        }
        let algo = |e: microagg_solvers::SolverError| Error::algorithm("univariate", e);
        let order = sorting_order(&inst.z).map_err(algo)?;
        let sorted: Vec<f64> = order.iter().map(|&i| inst.z[i]).collect();
        let seg = match inst.weights.as_ref().filter(|w| !w.all_equal()) {
            Some(w) => {
                let ws: Vec<f64> = order.iter().map(|&i| w.values[i]).collect();
                univariate_weighted_runs(&sorted, &ws, k).map_err(algo)?
            }
            None => univariate_optimal(&sorted, k).map_err(algo)?,
        };
        let labels = seg.labels_along(&order).map_err(algo)?;
        Partition::from_labels(inst, labels)
    }
}
