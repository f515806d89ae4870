//! # P-S with multi-dimensional rank-sum sorting (`ps-multidsort`)
//!
//! Pairwise-systematic microaggregation ([`crate::init::mhm::pairwise_systematic`]) where, every round,
//! the remaining records are ranked on each attribute separately (1 = smallest; equal values
//! ranked by record index, as a stable sort does) and sorted by the sum of their ranks
//! (Kabir et al. 2015, Algorithm 1 "MultiDSort"). Ranks do not depend on any per-attribute
//! rescaling, so z-scores and the paper's min-max normalisation give the same order; the
//! k-nearest steps use the workbench's z-scores.
//!
//! ## The published values are not reproduced
//! The paper prints IL values far below what this algorithm gives on the CASC data, e.g.
//! 9.86 for Tarragona at k = 3 (Kabir et al. 2015 Table VI; MDAV gives 16.93 there), while
//! this implementation gives 18.70: `microagg run --data tarragona --k 3 --method
//! ps-multidsort`. The certified nn lower bound (proofs/P06) is 9.855 % IL there, just below
//! the printed 9.86, so the bound does not refute this value; the best partition known (IL
//! 14.469, instances/library) makes a 9.86 from a one-pass heuristic implausible. We report
//! the true IL of the algorithm as
//! described; `tests/construct/lineage_sanity.rs` pins it.
//!
//! ## Complexity
//! Per round O(m d) to rank the m remaining records (each attribute's order is sorted once
//! and filtered), so O(n^2 d / k) in all, like the k-nearest passes. O(n d) memory.
//!
//! ## References
//! Kabir, Mahmood, Wang & Mustafa (2015), "Microaggregation sorting framework for
//! k-anonymity statistical disclosure control in cloud computing", IEEE Transactions on
//! Cloud Computing (Algorithms 1 and 2).

use crate::data::Instance;
use crate::init::mhm::pairwise_systematic::{min_max_by_key, pairwise_systematic, Sorter};
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The `ps-multidsort` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "ps-multidsort",
    groups: ps_multidsort_groups,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "pairwise-systematic: two k-groups per round seeded by the first and last record by the sum of per-attribute ranks",
        "Kabir et al. 2015",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// Per-attribute orders of all records, filtered to the remaining ones on each query.
struct RankSum {
    by_attribute: Vec<Vec<usize>>,
    present: Vec<bool>,
    rank_sum: Vec<f64>,
}

impl RankSum {
    fn new(inst: &Instance) -> Self {
        let by_attribute = (0..inst.d)
            .map(|j| {
                let mut ids: Vec<usize> = (0..inst.n).collect();
                // Stable: equal values stay in index order.
                ids.sort_by(|&a, &b| inst.z[a * inst.d + j].total_cmp(&inst.z[b * inst.d + j]));
                ids
            })
            .collect();
        RankSum {
            by_attribute,
            present: vec![false; inst.n],
            rank_sum: vec![0.0; inst.n],
        }
    }
}

impl Sorter for RankSum {
    fn first_last(&mut self, _inst: &Instance, remaining: &[usize]) -> (usize, usize) {
        for &i in remaining {
            self.present[i] = true;
            self.rank_sum[i] = 0.0;
        }
        for order in &mut self.by_attribute {
            let present = &self.present;
            order.retain(|&i| present[i]);
            for (r, &i) in order.iter().enumerate() {
                self.rank_sum[i] += (r + 1) as f64;
            }
        }
        let out = min_max_by_key(remaining, |i| self.rank_sum[i]);
        for &i in remaining {
            self.present[i] = false;
        }
        out
    }
}

/// The groups of `ps-multidsort` (before the feasibility check).
pub(crate) fn ps_multidsort_groups(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    pairwise_systematic(inst, k, &mut RankSum::new(inst))
}

#[cfg(test)]
mod tests {
    use super::RankSum;
    use crate::init::mhm::pairwise_systematic::{kabir_example, Sorter};

    /// Kabir et al. 2015 Tables I-III: rank sums 9, 8, 4, 3, 6, so row 4 sorts first and row
    /// 1 last.
    #[test]
    fn reproduces_the_table_i_to_iii_example() {
        let inst = kabir_example();
        let mut sorter = RankSum::new(&inst);
        assert_eq!(sorter.first_last(&inst, &[0, 1, 2, 3, 4]), (3, 0));
        assert_eq!(sorter.rank_sum, vec![9.0, 8.0, 4.0, 3.0, 6.0]);
        // Without row 4 the ranks are recomputed among the rest: sums 7, 6, 3, -, 4.
        assert_eq!(sorter.first_last(&inst, &[0, 1, 2, 4]), (2, 0));
    }
}
