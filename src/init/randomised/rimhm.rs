//! # RIMHM semi-random initialisation
//!
//! The initialisation of RIMHM (Mortazavi, Jalili and Gohargazi 2013, Sect. 5.4): sort the
//! records by the sum of their z-scores (ties: lowest index), cut the sorted order into
//! consecutive blocks of `floor(n * p)` records (at least 1; the last block takes the
//! remainder), shuffle each block with the run's seeded RNG, and segment the resulting
//! permutation optimally into groups of `k..=2k-1` consecutive records (ImprovedMHM,
//! [`microagg_solvers::segment_order`]). `p = 0` gives the deterministic z-score-sum order,
//! larger `p` more randomness.
//!
//! The paper's RIMHM is this initialisation followed by IMHM: the pipeline `rimhm+imhm`.
//! It is registered as an initializer (not as one refiner doing both) because it builds a
//! partition from nothing with the run's RNG, and so that the IMHM stage runs under the
//! executor's time limit and interrupt handling like every refiner.
//!
//! ## Complexity
//! O(n log n + n d) for the order and the shuffle, O(n k d) for the segmentation.
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 (Sect. 5.4, Table 5).

use crate::data::Instance;
use crate::error::Result;
use crate::init::mhm::orders::{cut_order, order_by_score, zsum_scores, Cut};
use crate::init::randomised::semirandom::semi_random_permutation;
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::Partition;
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Parameters of `rimhm`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct RimhmParams {
    pub p: f64,
}

impl Default for RimhmParams {
    fn default() -> Self {
        RimhmParams { p: 0.1 }
    }
}

impl Params for RimhmParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "p",
        "fraction of the records per shuffled block of the z-score-sum order, in [0, 1] (default 0.1, the paper's Table 5)",
    )];
    fn check(&self) -> std::result::Result<(), String> {
        if !(0.0..=1.0).contains(&self.p) {
            return Err(format!("p must be in [0, 1], got {}", self.p));
        }
        Ok(())
    }
}

/// The `rimhm` initializer.
pub(crate) struct Rimhm {
    params: RimhmParams,
}

/// The semi-random permutation of Sect. 5.4: the z-score-sum order with its blocks of
/// `max(1, floor(n p))` records shuffled (the permutation of `semirandom`).
pub(crate) fn semi_random_order(inst: &Instance, p: f64, rng: &mut Rng) -> Vec<usize> {
    semi_random_permutation(&order_by_score(&zsum_scores(inst)), p, rng)
}

impl Initializer for Rimhm {
    fn name(&self) -> &str {
        "rimhm"
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let order = semi_random_order(problem.inst(), self.params.p, &mut *ctx.rng);
        cut_order("rimhm", problem, &order, Cut::Optimal)
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "rimhm",
        "RIMHM initialisation: z-score-sum order shuffled in blocks of n*p records, segmented optimally (k..2k-1); the paper's RIMHM is rimhm+imhm",
        "Mortazavi, Jalili & Gohargazi (2013), Applied Intelligence 39(3), Sect. 5.4",
        |p: RimhmParams| Rimhm { params: p },
    )
}
