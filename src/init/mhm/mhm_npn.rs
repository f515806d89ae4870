//! # MHM-NPN (multivariate Hansen-Mukherjee on the nearest-point-next order)
//!
//! Nearest point next: start at one extreme record and repeatedly append the unlisted record
//! nearest to the last one listed (ties: lowest index); then cut the path optimally into
//! contiguous runs of k..2k-1 records (`microagg_solvers::segment_order`).
//!
//! Reading chosen (pinned by `orders::tests::npn_on_a_line_walks_from_the_extreme`): the
//! path starts at the record farthest from the record that is farthest from the centroid
//! (the other end of MDAV's first pair, [`crate::init::mhm::orders::NpnStart::FarthestFromFarthest`]).
//!
//! ## Published values
//! Kabir et al. (2015) Tables VI-VIII row NPN-MHM (9 cells, from Domingo-Ferrer et al. 2006):
//! not reproduced. Starting at the record farthest from the centroid is closer in 1 cell,
//! the chosen start in 8 (e.g. Tarragona k = 5: 27.0105 vs printed 27.0213; the other start
//! 28.1666). No start record at all reproduces Tarragona k = 3, 5, 10 or Census k = 3 (every
//! one of the n starts was tried: `cargo run --release -p microagg-studies --example mhm_readings npn-starts
//! tarragona 3 17.3949`), so the 2006 NPN differs in more than its start; computing the path
//! on raw or min-max scaled values reproduces nothing either (`... mhm_readings scaled`).
//! The paper's exact rule is not available to us. Per-cell values: `tests/construct/mhm_published.rs`.
//!
//! ## Complexity
//! O(n^2 d) for the path (one distance pass per record), O(n k d) for the segmentation.
//!
//! ## References
//! Domingo-Ferrer, Martinez-Balleste, Mateo-Sanz & Sebe (2006), "Efficient multivariate
//! data-oriented microaggregation", The VLDB Journal 15(4):355-369 (MHM, NPN order). Kabir,
//! Wang & Bertino (2015), sorting-framework paper, Tables VI-VIII.

use crate::error::Result;
use crate::init::mhm::orders::{cut_order, npn_order, Cut, NpnStart};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct MhmNpn;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "mhm-npn",
        "MHM on the nearest-point-next path from an extreme record (the one farthest from the record farthest from the centroid), cut optimally into runs of k..2k-1",
        "Domingo-Ferrer, Martinez-Balleste, Mateo-Sanz & Sebe 2006 (VLDB J 15:355)",
        |_: NoParams| MhmNpn,
    )
    .deterministic()
}

impl Initializer for MhmNpn {
    fn name(&self) -> &str {
        "mhm-npn"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let inst = problem.inst();
        let order = npn_order(inst, NpnStart::CHOSEN);
        cut_order("mhm-npn", problem, &order, Cut::Optimal)
    }
}
