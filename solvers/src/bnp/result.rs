//! # Results of branch-price-and-cut
//!
//! The run's result, its progress reports, node records and the leaves with their proving
//! duals (for certificates, proofs/P18).
//!
//! ## Complexity
//! Data only.
//!
//! ## References
//! See [`super`].

use super::{EnumerationProof, RcPoolReport};
use crate::bounds::colgen::cuts::Cut;

/// A report while the search runs (also the bound registry's `bound::BoundProgress`): an
/// improvement, or a sign of life from a long node.
#[derive(Debug, Clone, PartialEq)]
pub struct BnpProgress {
    /// What improved: "incumbent" or "bound"; or "working": a node's column generation has
    /// run [`super::WORKING_EVERY`] seconds since the last report (nothing improved).
    pub what: &'static str,
    pub seconds: f64,
    /// Nodes processed so far and nodes open.
    pub nodes: u64,
    pub open_nodes: usize,
    /// SSE of the incumbent (two-pass).
    pub incumbent_sse: f64,
    /// Certified global lower bound.
    pub lower_bound: f64,
    /// On "working" reports, the node master's last LP value (original scale) when no
    /// artificial column carries part of it; None otherwise.
    pub master: Option<f64>,
}

/// One node's decisions and its final bound (on the original scale; infinite for a node
/// with an empty region).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRecord {
    pub decisions: Vec<(u32, u32, bool)>,
    pub bound: f64,
}

/// The duals that prove a node's bound: record duals `y` and the cuts with their duals
/// `sigma <= 0` (P14 with P17: `sum y + sum sigma + floor(n/k) min(0, R)`, `R` the least
/// reduced cost over the node's compatible groups). Scaled problem inside the search,
/// original scale in [`Leaf`].
#[derive(Debug, Clone, PartialEq)]
pub struct NodeProof {
    pub y: Vec<f64>,
    pub cuts: Vec<Cut>,
    pub sigma: Vec<f64>,
}

/// A leaf of the search tree when the run ended (open, or closed: pruned, integral, or with
/// an empty region). The leaves' regions cover every partition (Ryan-Foster: each branching
/// splits a region in two), so the least leaf bound is a global bound (P17); a certificate
/// lists them.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// The together / apart decisions (a, b, together?) in the order taken.
    pub decisions: Vec<(u32, u32, bool)>,
    /// The range `(lo, hi)` of the number of groups (branching on the group count, P22
    /// Part E; `(0, usize::MAX)` without a count decision).
    pub count: (usize, usize),
    /// The leaf's certified bound (original scale; +inf for an empty region).
    pub bound: f64,
    /// The duals that prove it (original scale; None for an empty region, or when only
    /// the nn bound holds).
    pub proof: Option<NodeProof>,
    /// Still open when the run ended.
    pub open: bool,
}

/// Result of [`branch_and_price`].
#[derive(Debug, Clone, PartialEq)]
pub struct BnpResult {
    /// The incumbent: group label of each record (0-based) and its SSE (two-pass).
    pub labels: Vec<usize>,
    pub sse: f64,
    /// Certified upper bound on the incumbent's exact SSE (P12).
    pub sse_upper: f64,
    /// Certified global lower bound on the optimum.
    pub lower_bound: f64,
    /// The nn bound (P06) the search starts from: `lower_bound` equals it when no node
    /// improved on it.
    pub nn: f64,
    /// True when `lower_bound >= (1 - PROOF_REL_GAP) sse_upper` (P12, P17).
    pub proven_optimal: bool,
    /// Master LP value at the root when its column generation converged (NaN otherwise; not
    /// a bound).
    pub root_lp: f64,
    /// Master LP value at the root when its column generation last converged, with the
    /// cuts of all rounds (NaN if never; not a bound).
    pub root_lp_cuts: f64,
    /// The root node's certified bound.
    pub root_bound: f64,
    /// Cut rounds done (all nodes) and the cuts found (subset-row triples, and with
    /// `rank1_cuts` the 4- and 5-record rank-1 cuts of P21), in the order found.
    pub cut_rounds: usize,
    pub cuts: Vec<Cut>,
    /// The leaves of the tree at the end (open and closed), for certificates.
    pub leaves: Vec<Leaf>,
    /// Nodes processed, nodes left open, deepest node.
    pub nodes: u64,
    pub open_nodes: usize,
    pub max_depth: usize,
    /// Columns in the pool at the end; master solves; exact pricing calls.
    pub columns: usize,
    pub lp_solves: u64,
    pub exact_calls: u64,
    /// Why the search stopped before closing the tree (time limit, node limit, interrupted,
    /// a node whose pricing could not finish), if it did.
    pub stopped: Option<String>,
    pub seconds: f64,
    /// Every node's decisions and bound (with `record_nodes`).
    pub node_log: Vec<NodeRecord>,
    /// The proof by reduced-cost enumeration at the root's duals (with `enumerate`) and the
    /// duals it used (original scale; its cuts are a prefix of `cuts`).
    pub enumeration: Option<(EnumerationProof, NodeProof)>,
    /// What the pool MIP over reduced-cost columns did after the root (with
    /// `rc_pool_columns`).
    pub rc_pool: Option<RcPoolReport>,
}
