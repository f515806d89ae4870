//! # Semi-random permutation with optimal segmentation (RIMHM's initialisation)
//!
//! Sort the records by the sum of their z-scores (the "z-score" order; ties by record
//! index), cut the sorted list into consecutive blocks of `b = max(1, floor(n p))` records,
//! the last block absorbing the remainder (`n - (floor(n / b) - 1) b` records: "except
//! probably the last block, with more records"), shuffle each block uniformly with the
//! run's RNG (Fisher-Yates), and cut the resulting permutation optimally into contiguous
//! runs of `k..2k-1` (`microagg_solvers::segment_order`). `p = 0` (or `n p < 2`) gives
//! blocks of one record, i.e. exactly `mhm-zsum`; `p = 1` a uniformly random permutation.
//!
//! Registered twice, as `semirandom` and under the paper's name `rimhm` (one
//! implementation; the stage name enters the stage's seed, so the two names draw different
//! shuffles from the same base seed). The paper's RIMHM is this initialisation followed by
//! IMHM: the pipeline `rimhm+imhm`. It is an initializer (not one refiner doing both)
//! because it builds a partition from nothing with the run's RNG, and so that the IMHM
//! stage runs under the executor's time limit and interrupt handling like every refiner.
//!
//! Reading chosen: Mortazavi et al. do not say which "z-score" sorts the records when there
//! are several attributes; the sum of z-scores (as `mhm-zsum`) is the one scalar z-score of a
//! record used elsewhere in the MHM literature. This is only the initialisation of RIMHM: the
//! paper's Table 5 reports IL after the full IMHM iterations that follow, so our values are
//! compared only in order of magnitude (`tests/construct/mhm_orders.rs`: `semirandom` alone is 2 to 5
//! times the published Tarragona and Census values and 57 times at EIA k = 3, where the
//! z-score-sum order is poor; `semirandom+descent` is within a factor 2 of every published
//! cell of Tarragona, Census and EIA at k = 3, 5, 10).
//!
//! ## Complexity
//! O(n d + n log n) for the order, O(n) for the shuffles, O(n k d) for the segmentation.
//!
//! ## References
//! Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//! iterative optimization. Applied Intelligence 39(3), 529-544 (Sect. 5.4, Table 5).

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, zsum_scores, Cut};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::Partition;
use crate::rng::Rng;
use rand::seq::SliceRandom;

/// Parameters of `semirandom`.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct SemiRandomParams {
    /// Block size as a fraction of n.
    pub p: f64,
}

impl Default for SemiRandomParams {
    fn default() -> Self {
        SemiRandomParams { p: 0.1 }
    }
}

impl Params for SemiRandomParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "p",
        "randomness in [0, 1]: blocks of max(1, floor(n p)) consecutive records of the z-score-sum order are shuffled (default 0.1, the paper's; 0 = mhm-zsum)",
    )];

    fn check(&self) -> std::result::Result<(), String> {
        if (0.0..=1.0).contains(&self.p) {
            Ok(())
        } else {
            Err(format!("p must be in [0, 1], got {}", self.p))
        }
    }
}

/// The initializer, under the name it was registered with.
pub(crate) struct SemiRandom {
    name: &'static str,
    params: SemiRandomParams,
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "semirandom",
        "RIMHM initialisation: z-score-sum order with blocks of n*p records shuffled, cut optimally into runs of k..2k-1 (seeded)",
        "Mortazavi, Jalili & Gohargazi 2013 (Applied Intelligence 39:529), Sect. 5.4",
        |params| SemiRandom {
            name: "semirandom",
            params,
        },
    )
}

/// The same initializer under the paper's name.
pub fn rimhm_method() -> MethodInfo {
    MethodInfo::initializer(
        "rimhm",
        "RIMHM initialisation: z-score-sum order shuffled in blocks of n*p records, segmented optimally (k..2k-1); the paper's RIMHM is rimhm+imhm",
        "Mortazavi, Jalili & Gohargazi (2013), Applied Intelligence 39(3), Sect. 5.4",
        |params| SemiRandom {
            name: "rimhm",
            params,
        },
    )
}

/// The semi-random permutation: blocks of `max(1, floor(n p))` records of `order` shuffled,
/// the last block absorbing the remainder.
pub(crate) fn semi_random_permutation(order: &[usize], p: f64, rng: &mut Rng) -> Vec<usize> {
    let n = order.len();
    let block = ((n as f64 * p).floor() as usize).max(1);
    let mut out = order.to_vec();
    let blocks = (n / block).max(1);
    for b in 0..blocks {
        let end = if b + 1 == blocks { n } else { (b + 1) * block };
        out[b * block..end].shuffle(rng);
    }
    out
}

impl Initializer for SemiRandom {
    fn name(&self) -> &str {
        self.name
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let order = order_by_score(&zsum_scores(problem.inst()));
        let order = semi_random_permutation(&order, self.params.p, &mut *ctx.rng);
        cut_order(self.name, problem, &order, Cut::Optimal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn blocks_stay_in_place_and_the_last_absorbs_the_remainder() {
        let order: Vec<usize> = (0..23).collect();
        let mut rng = Rng::seed_from_u64(1);
        // n p = 5.06 -> blocks of 5: [0,5) [5,10) [10,15) [15,23).
        let perm = semi_random_permutation(&order, 0.22, &mut rng);
        for (lo, hi) in [(0, 5), (5, 10), (10, 15), (15, 23)] {
            let mut block: Vec<usize> = perm[lo..hi].to_vec();
            block.sort_unstable();
            assert_eq!(block, (lo..hi).collect::<Vec<_>>());
        }
        assert_ne!(perm, order, "some block was shuffled");
        let mut rng = Rng::seed_from_u64(1);
        assert_eq!(semi_random_permutation(&order, 0.0, &mut rng), order);
    }
}
