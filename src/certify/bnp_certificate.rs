//! # Branch-and-price bound certificates
//!
//! A branch-price-and-cut bound rests on the leaves of its search tree: every partition
//! satisfies the together / apart decisions of exactly one leaf (Ryan-Foster branching splits
//! a region in two), and each leaf's bound is a Lagrangian bound over its region, proven by
//! its record duals `y` and cut duals `sigma <= 0` (proofs/P17, P14). The certificate lists
//! the cuts (record triples, one list for the whole tree), and per leaf its decisions, its
//! claimed bound, its duals and the duals of the first cuts (a leaf's master held a prefix of
//! the cut list); a leaf whose decisions leave no partition has no duals and no bound.
//!
//! A leaf may also carry a range of group counts (`min_groups`, `max_groups`: branching on
//! the number of groups, proofs/P22 Part E); leaves without one count every number.
//!
//! [`verify`] checks, without HiGHS (proofs/P18-bnp-certificates.md): the instance (sha256,
//! n, d, k); that the leaves' regions (decision lists and count ranges) cover every
//! partition, as a Ryan-Foster tree whose count splits may sit between pair decisions
//! ([`microagg_solvers::bounds::regions_cover`]); each leaf's bound, recomputed by this
//! crate's own exact pricing restricted to the groups compatible with the decisions and the
//! count, and rounded outward ([`microagg_solvers::bounds::verify_node_bound`]), at least its
//! claim (an empty region is recomputed as such); and the global claim at most the least
//! leaf claim. Any failure makes the certificate invalid.
//!
//! An optional `enumeration` section (proofs/P19; older certificates have none and verify
//! as before) carries duals and a partition: [`verify`] repeats the reduced-cost enumeration
//! and the pool search from them (no HiGHS), the section's claim must be at most the bound
//! they prove, and the global claim at most the larger of the least leaf claim and the
//! section's claim.
//!
//! A leaf without proving duals (the search closed the gap with the nn bound, or stopped
//! before a Lagrangian bound there) is written with `"nn_bound": true` and the nn bound as
//! its claim (proofs/P06, valid over every region); [`verify`] recomputes the nn bound. The
//! key is absent from every other leaf, so certificates without such leaves are written as
//! before.
//!
//! The file is JSON (`format = "microagg-bnp-certificate/1"`), numbers with round-trip
//! precision, gzip-compressed when its name ends in `.gz`. [`BnpCertificate::from_result`]
//! writes it compacted ([`BnpCertificate::compact`]), without changing any number: two
//! sibling leaves with the same claim and the same duals (children not yet processed inherit
//! their parent's proof) become their parent, whose region is their union and whose duals
//! prove that claim there; cuts with a zero dual at every leaf are dropped and the others
//! renumbered in order (so each leaf's cuts stay a prefix); trailing zero cut duals are
//! dropped. A zero cut dual contributes nothing to a Lagrangian bound, so every leaf's
//! recomputed bound is unchanged.
//!
//! ## Complexity
//! Writing and reading: O(leaves · n + cuts); compacting: O(leaves² · depth) for the sibling
//! search (each merge restarts it) plus O(leaves · (n + cuts)). Verifying: one exact pricing search per leaf
//! with a nonempty region plus O(total decisions · depth) for the tree.
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296.

use serde::{Deserialize, Serialize};

mod compact;
mod cut;
mod file;
mod from_run;
mod verify;

pub use cut::BnpCut;
pub use verify::verify;

/// Most groups the verifier enumerates (about 1 GB; beyond, the enumeration proves nothing).
pub(crate) const VERIFY_MAX_COLUMNS: usize = 10_000_000;

/// The format tag.
pub const FORMAT: &str = "microagg-bnp-certificate/1";

/// One leaf of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeafCertificate {
    /// Decisions `[a, b, together]` in the order taken (0-based input rows).
    pub decisions: Vec<(u32, u32, bool)>,
    /// Least number of groups in the leaf's region (branching on the group count, proofs/P22
    /// Part E); absent (0) in every leaf without a count decision, as in older certificates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_groups: Option<usize>,
    /// Most groups in the leaf's region; absent (no limit) as `min_groups`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_groups: Option<usize>,
    /// The claimed bound over the leaf's region (None: the decisions leave no partition).
    pub lower_bound: Option<f64>,
    /// One dual per record (empty for an empty region).
    #[serde(default)]
    pub duals: Vec<f64>,
    /// Duals (`<= 0`) of the first `cut_duals.len()` cuts of the certificate.
    #[serde(default)]
    pub cut_duals: Vec<f64>,
    /// The claim rests on the nn bound of the whole instance (proofs/P06; no duals): the
    /// search had no Lagrangian bound above it in this region (it closed the gap already, or
    /// was stopped first). Absent (false) in every other leaf, as in older certificates.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nn_bound: bool,
}

/// A branch-and-price bound certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BnpCertificate {
    /// [`FORMAT`].
    pub format: String,
    /// Instance name (informative).
    pub instance: String,
    /// sha256 of the instance as loaded.
    pub instance_sha256: String,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// The claimed lower bound on the optimal SSE (z-scored data).
    pub lower_bound: f64,
    /// The cuts: subset-row triples `[a, b, c]`, and other rank-1 cuts (proofs/P21) as
    /// `{"records", "multipliers", "denominator"}`, plus `"rhs"` when above 1 ([`BnpCut`]).
    pub cuts: Vec<BnpCut>,
    pub leaves: Vec<LeafCertificate>,
    /// Program and method that wrote it (informative).
    pub produced_by: String,
    /// A proof by reduced-cost enumeration (proofs/P19), absent from older certificates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<EnumerationCertificate>,
}

/// The data of a proof by reduced-cost enumeration (proofs/P19): duals, the partition whose
/// SSE sets the threshold, and the claimed bound. [`verify`] repeats the enumeration and the
/// pool search from them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumerationCertificate {
    /// The claimed lower bound on the optimal SSE.
    pub lower_bound: f64,
    /// Group labels of a feasible partition (its certified SSE is `U`).
    pub labels: Vec<usize>,
    /// One dual per record.
    pub duals: Vec<f64>,
    /// Duals (`<= 0`) of the first `cut_duals.len()` cuts of the certificate.
    pub cut_duals: Vec<f64>,
}

impl LeafCertificate {
    /// The leaf's group-count range `(lo, hi)` (`(0, usize::MAX)` without a count decision).
    pub fn count(&self) -> (usize, usize) {
        (
            self.min_groups.unwrap_or(0),
            self.max_groups.unwrap_or(usize::MAX),
        )
    }

    /// The fields `min_groups`, `max_groups` of a count range (None where it is open).
    pub fn count_fields((lo, hi): (usize, usize)) -> (Option<usize>, Option<usize>) {
        ((lo > 0).then_some(lo), (hi < usize::MAX).then_some(hi))
    }
}
