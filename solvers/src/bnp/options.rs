//! # Parameters of branch-price-and-cut
//!
//! [`BnpOptions`]: every parameter with its default (`Default`, documented field by field)
//! and the checks each run makes first. What a user sets, with its documentation, is the
//! registry's (`bnp` in the main crate's `certify/bound/bnp_entry.rs`).
//!
//! ## Complexity
//! O(1).
//!
//! ## References
//! See [`super`].

use crate::bounds::colgen::ColgenError;

/// Parameters of [`branch_and_price`].
#[derive(Debug, Clone, PartialEq)]
pub struct BnpOptions {
    /// Wall-clock limit in seconds.
    pub time_limit: f64,
    /// Most nodes processed (0: no limit).
    pub max_nodes: u64,
    /// Branch-and-bound nodes per exact pricing call.
    pub exact_nodes: u64,
    /// When heuristic pricing fails, exact pricing stops after this many negative columns.
    pub exact_stop_after: usize,
    /// Nearest neighbours per seed in heuristic pricing (0: max(3k, 12)).
    pub pool: usize,
    /// Most columns added per master iteration (0: n).
    pub max_columns_per_iteration: usize,
    /// Reduced costs above `-tol` (on the scaled problem, costs about 1024 per record in
    /// all) count as nonnegative.
    pub tol: f64,
    /// Set-partitioning MIP over the column pool every this many nodes (0: at the root only).
    pub heuristic_every: u64,
    /// Time limit in seconds of each pool MIP.
    pub mip_seconds: f64,
    /// The solver of the pool MIP ([`crate::models`]; HiGHS by default, the masters stay on
    /// HiGHS).
    pub mip_solver: crate::models::MipSolver,
    /// Keep every node's decisions and final bound in [`BnpResult::node_log`] (tests).
    pub record_nodes: bool,
    /// Rounds of subset-row cut separation at the root once its master converged (0: plain
    /// branch-and-price; proofs/P14).
    pub cut_rounds: usize,
    /// Rounds of cut separation at every other node (the cuts join every later master).
    pub node_cut_rounds: usize,
    /// Most cuts added per round.
    pub cuts_per_round: usize,
    /// Least violation (left side - 1) of a cut to be added.
    pub cut_violation: f64,
    /// Most cuts in all.
    pub max_cuts: usize,
    /// Separate the rank-1 cuts on four and five records too (proofs/P21), after the
    /// triples in each round.
    pub rank1_cuts: bool,
    /// Partners per record searched by that separation.
    pub rank1_partners: usize,
    /// Separate subset-row cuts `1/q` (right side `floor(|C| / q)`) on the fractional blocks
    /// too, with at most this many records (0: off; at most 32; proofs/P21 Part F), after
    /// the other cuts in each round.
    pub big_cut_records: usize,
    /// The group-count row `sum_S x_S <= floor(n/k)` in every node's master (proofs/P22).
    pub count_row: bool,
    /// Branch on the group count first where a master solution has between `F - 1` and
    /// `F = floor(n/k)` groups, fractionally: children "at most `F - 1` groups" (its master
    /// has the count row with right side `F - 1`) and "at least `F`" (groups of at most
    /// `n - k (F - 1)` records; all of `k` records when `k` divides `n`). Proofs/P22 Part E.
    pub count_branching: bool,
    /// A stabilised root master (du Merle): its dual box around the incumbent's dual
    /// estimates ([`crate::bounds::colgen::incumbent_box`]), following the duals of every
    /// better bound, instead of the wide box around 0 (proofs/P17 "A box that follows").
    /// The other nodes keep the wide box.
    pub incumbent_box: bool,
    /// After the root, try the proof by reduced-cost enumeration at the root's duals
    /// ([`super::prove_by_enumeration`], proofs/P19); branching goes on if it proves nothing.
    pub enumerate: bool,
    /// Most groups in the enumeration's pool.
    pub enumerate_columns: usize,
    /// Most nodes of the enumeration's pool search.
    pub enumerate_nodes: u64,
    /// After the root, the set-partitioning MIP over at most this many groups of least
    /// reduced cost at the root's duals and the incumbent's groups ([`super::rc_pool`], a
    /// node heuristic; 0: off).
    pub rc_pool_columns: usize,
    /// Time limit in seconds of that MIP.
    pub rc_pool_seconds: f64,
    /// Strong branching among this many most fractional pairs, each tried in both children
    /// on the node's restricted master (`branching.rs`); 0 or 1: the most fractional
    /// pair.
    pub strong_branching: usize,
}

impl Default for BnpOptions {
    fn default() -> Self {
        BnpOptions {
            time_limit: 60.0,
            max_nodes: 0,
            exact_nodes: 5_000_000,
            exact_stop_after: 200,
            pool: 0,
            max_columns_per_iteration: 0,
            tol: 1e-9,
            heuristic_every: 25,
            mip_seconds: 10.0,
            mip_solver: crate::models::MipSolver::Highs,
            record_nodes: false,
            cut_rounds: 50,
            node_cut_rounds: 1,
            cuts_per_round: 800,
            cut_violation: 1e-3,
            max_cuts: 4000,
            rank1_cuts: false,
            rank1_partners: 10,
            big_cut_records: 0,
            count_row: false,
            count_branching: false,
            incumbent_box: false,
            enumerate: false,
            enumerate_columns: 5_000_000,
            enumerate_nodes: 100_000_000,
            rc_pool_columns: 5000,
            rc_pool_seconds: 60.0,
            strong_branching: 0,
        }
    }
}

impl BnpOptions {
    /// Ranges the engine needs (the registry's `bnp` parameters are checked here too).
    pub fn check(&self) -> Result<(), ColgenError> {
        let bad = |m: &str| Err(ColgenError::Params(m.to_string()));
        if self.time_limit.is_nan() || self.time_limit <= 0.0 {
            return bad("time_limit must be positive");
        }
        if self.tol.is_nan() || self.tol < 0.0 {
            return bad("tol must be nonnegative");
        }
        if self.mip_seconds.is_nan() || self.mip_seconds < 0.0 {
            return bad("mip_seconds must be nonnegative");
        }
        if self.rc_pool_seconds.is_nan() || self.rc_pool_seconds < 0.0 {
            return bad("rc_pool_seconds must be nonnegative");
        }
        if self.cut_violation.is_nan() || self.cut_violation <= 0.0 {
            return bad("cut_violation must be positive");
        }
        if self.big_cut_records > crate::bounds::colgen::cuts::MAX_CUT_RECORDS {
            return bad("big_cut_records must be at most 32");
        }
        Ok(())
    }
}
