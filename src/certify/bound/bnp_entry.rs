//! # The `bnp` entry of the bound registry
//!
//! Branch-price-and-cut ([`super::bnp`], proofs/P17) as a registered bound: its parameters
//! ([`BnpParams`]) and the call that turns a run into [`Computed`]: the certified global
//! bound (least leaf bound, rounded outward), the run's figures as details
//! ([`super::bnp::details`]), the incumbent's labels and the branch-and-price certificate of
//! the leaves ([`crate::bnp_certificate`], proofs/P18). Every improvement of the incumbent
//! or the bound goes to the caller's progress sink.
//!
//! ## Complexity
//! That of the search, bounded by its time limit; the certificate is O(leaves · n + cuts).
//!
//! ## References
//! See [`microagg_solvers::bnp`].

use super::extras::{Certificate, Incumbent};
use super::registry::{entry, About, BoundInfo, BoundRun, Computed, LowerBound};
use crate::bnp_certificate::BnpCertificate;
use crate::error::Result;
use crate::params::Params;
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::models::MipSolver;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Branch-price-and-cut.
pub struct Bnp;

pub(crate) const ENTRY: BoundInfo = entry::<Bnp>(About {
    name: "bnp",
    summary: "branch-price-and-cut on the column generation master (Ryan-Foster branching, subset-row cuts at the root and at every node): the least open leaf bound, with the incumbent partition and its gap",
    certified: "always, each leaf a Lagrangian bound with cuts rounded outward (proofs/P17); certificate of the leaves for verify-bound (proofs/P18)",
    certificate: true,
    incumbent: true,
    weighted: None,
});

/// Candidates of strong branching unless set (`strong_branching`): it closed EIA k = 4 in 13
/// nodes where the most fractional pair took 1275, and proved two of eight generated cases
/// that the most fractional pair left open in 120 s (`studies/study-strong-branching.txt`).
/// The library's [`BnpOptions`] keep the most fractional pair (0) for their callers.
pub const STRONG_BRANCHING: usize = 8;

/// Branching on the group count unless set (`count_branching`): on 15 generated cases at
/// 120 s it raised the bound on 7 (up to +0.15 at k = 5), left 6 unchanged and lowered 2 by
/// at most 0.002, and on Census k = 4 it doubled the nodes of a 30-minute tree
/// (`studies/study-count-branching.txt`). The library's [`BnpOptions`] keep it off for their
/// callers.
pub const COUNT_BRANCHING: bool = true;

/// The parameters of `bnp`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BnpParams {
    pub time_limit: f64,
    pub cuts: usize,
    pub start: Option<PathBuf>,
    pub max_nodes: u64,
    pub max_cuts: usize,
    pub rank1_cuts: bool,
    pub big_cuts: usize,
    pub count_row: bool,
    pub count_branching: bool,
    pub incumbent_box: bool,
    pub enumerate: bool,
    pub rc_pool_columns: usize,
    pub rc_pool_seconds: f64,
    pub strong_branching: usize,
    pub mip_solver: String,
}

impl Default for BnpParams {
    fn default() -> Self {
        let o = BnpOptions::default();
        BnpParams {
            time_limit: super::bnp::DEFAULT_SECONDS,
            cuts: o.cut_rounds,
            start: None,
            max_nodes: o.max_nodes,
            max_cuts: o.max_cuts,
            rank1_cuts: o.rank1_cuts,
            big_cuts: o.big_cut_records,
            count_row: o.count_row,
            count_branching: COUNT_BRANCHING,
            incumbent_box: o.incumbent_box,
            enumerate: o.enumerate,
            rc_pool_columns: o.rc_pool_columns,
            rc_pool_seconds: o.rc_pool_seconds,
            strong_branching: STRONG_BRANCHING,
            mip_solver: o.mip_solver.name().to_string(),
        }
    }
}

impl Params for BnpParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("time_limit", "wall-clock seconds, the start pipeline included; the search returns its incumbent and bound when it ends (run --bound: the run's limit)"),
        ("cuts", "rounds of subset-row cuts at the root, and one round at every other node; 0: no cuts anywhere (plain branch-and-price)"),
        ("start", "a labels file whose groups seed the master next to the mdav+decompose-shrink partition (null: none)"),
        ("max_nodes", "most nodes processed, the root included (0: no limit); fewer nodes leave fewer leaves, a smaller certificate"),
        ("max_cuts", "most subset-row cuts in all (at least 1); more can raise the root bound, at master time and certificate size"),
        ("rank1_cuts", "also separate rank-1 cuts on 5 records (1/3 each) and 4 records (2/3, 1/3, 1/3, 1/3), proofs/P21; they share max_cuts"),
        ("big_cuts", "also separate subset-row cuts 1/q (q = 2..9) on fractional blocks of at most this many records (2..=32), right side floor(|C|/q), proofs/P21 Part F; 0: off; they share max_cuts"),
        ("count_row", "the group-count row sum x_S <= floor(n/k) in every node's master (proofs/P22); raises the LP where k does not divide n"),
        ("count_branching", "branch on the number of groups first where a node's master has between F - 1 and F = floor(n/k) groups fractionally: one child allows at most F - 1 groups (its master has the count row), the other at least F (then no group holds more than n - k (F - 1) records: all k when k divides n); pair branching goes on below (proofs/P22 Part E). Certificates record each leaf's range"),
        ("incumbent_box", "a stabilised root master: its dual box around each record's estimate from the incumbent (the saving of removing it from its group, the cost of adding it to the nearest other), following the duals of every better bound and widened where it binds (proofs/P17); the same root LP, often sooner; the bounds do not rest on it"),
        ("enumerate", "after the root, try to prove optimality by enumerating every group whose reduced cost at the root's duals is within the gap (proofs/P19)"),
        ("rc_pool_columns", "after the root, look for a better partition: list at most this many groups of least reduced cost at the root's duals (every group below a threshold, doubled while the listing stays within this count) and solve the set-partitioning MIP over them and the incumbent's groups (a heuristic: the bound does not rest on it; the details report it as rc_pool); 0: off"),
        ("rc_pool_seconds", "time limit of that MIP in seconds (within time_limit)"),
        ("strong_branching", "branch on the best of this many most fractional record pairs, each tried in both children by re-solving the node's master without pricing (the pair whose children's values rise most); 0 or 1: the most fractional pair. It changes only which pair is branched on, never how a bound is proven"),
        ("mip_solver", "solver of the set-partitioning MIPs over columns (the node heuristics): highs, or cbc, scip, lp-cbc, lp-glpk, lp-gurobi, lp-cplex when this build has them (docs/developer/models.md); the masters always run on HiGHS"),
    ];

    fn check(&self) -> std::result::Result<(), String> {
        crate::search::check_time_limit(self.time_limit).map_err(|e| format!("time_limit {e}"))?;
        if self.big_cuts == 1 || self.big_cuts > 32 {
            return Err(format!(
                "big_cuts = {}: expected 0 (off) or 2..=32",
                self.big_cuts
            ));
        }
        if self.max_cuts == 0 {
            return Err("max_cuts must be at least 1".into());
        }
        MipSolver::parse(&self.mip_solver).map_err(|e| format!("mip_solver: {e}"))?;
        // The engine's own ranges (rc_pool_seconds and the rest) are checked in one place.
        self.options().check().map_err(|e| e.to_string())
    }
}

impl BnpParams {
    /// The engine's options (its time limit is set by the runner from `time_limit`): one
    /// field per parameter, the rest `BnpOptions::default()`. `cuts = 0` means no cuts at
    /// the root nor at the other nodes.
    pub fn options(&self) -> BnpOptions {
        let mut o = BnpOptions {
            cut_rounds: self.cuts,
            max_nodes: self.max_nodes,
            max_cuts: self.max_cuts,
            rank1_cuts: self.rank1_cuts,
            big_cut_records: self.big_cuts,
            count_row: self.count_row,
            count_branching: self.count_branching,
            incumbent_box: self.incumbent_box,
            enumerate: self.enumerate,
            rc_pool_columns: self.rc_pool_columns,
            rc_pool_seconds: self.rc_pool_seconds,
            strong_branching: self.strong_branching,
            mip_solver: MipSolver::parse(&self.mip_solver).expect("checked by Params::check"),
            ..BnpOptions::default()
        };
        if self.cuts == 0 {
            o.node_cut_rounds = 0;
        }
        o
    }
}

impl LowerBound for Bnp {
    type Params = BnpParams;

    fn start_file(params: &BnpParams) -> Option<&PathBuf> {
        params.start.as_ref()
    }

    fn compute(params: &BnpParams, run: &mut BoundRun) -> Result<Computed> {
        let (inst, k) = (run.inst, run.k);
        let (start, source) = match run.start {
            Some((labels, source)) => (Some(labels), source),
            None => (None, ""),
        };
        let done = super::bnp::run_with(
            inst,
            k,
            Some(params.time_limit),
            start,
            source,
            &params.options(),
            run.interrupt,
            run.report,
        )?;
        let details = super::bnp::BnpDetails {
            start_labels: Some(start.is_some()),
            ..super::bnp::BnpDetails::of(inst, &done)
        };
        let details = serde_json::to_value(details).expect("details serialise");
        let certificate = BnpCertificate::from_result(inst, k, &done.result)
            .map(Certificate::BranchAndPrice)
            .map_err(|e| e.to_string());
        let r = done.result;
        Ok(Computed {
            lower_bound: r.lower_bound,
            details,
            certificate,
            incumbent: Some(Incumbent {
                labels: r.labels,
                sse: r.sse,
                proven_optimal: r.proven_optimal,
            }),
        })
    }
}
