//! # What a bound returns besides its value
//!
//! An entry of the bound registry returns, next to its certified value, what its kind of
//! search produces on the way: a certificate that `microagg verify-bound` re-checks without
//! HiGHS ([`Certificate`]: the Lagrangian duals of `colgen`, proofs/P13, or the leaves of the
//! branch-and-price tree of `bnp`, proofs/P18), the best partition it found ([`Incumbent`],
//! `bnp` only) and reports while it runs ([`BoundProgress`]: every improvement of an anytime
//! bound's incumbent or bound). `microagg bound`, `run --bound`, suites and the Python
//! package all receive the same [`super::BoundOutcome`]; each uses what it needs.
//!
//! ## Complexity
//! O(1) per report; writing a certificate is linear in its size.
//!
//! ## References
//! None.

use crate::bnp_certificate::BnpCertificate;
use crate::certificate::BoundCertificate;
use crate::error::Result;
use std::path::Path;

/// A certificate of a computed bound, in the format of the bound that wrote it.
#[derive(Debug, Clone)]
pub enum Certificate {
    /// `colgen`, `colgen-cuts`: duals (and cut duals) of one Lagrangian bound.
    Lagrangian(BoundCertificate),
    /// `bnp`: every leaf's decisions, claimed bound and duals.
    BranchAndPrice(BnpCertificate),
}

impl Certificate {
    /// The claimed lower bound on the optimal SSE.
    pub fn lower_bound(&self) -> f64 {
        match self {
            Certificate::Lagrangian(c) => c.lower_bound,
            Certificate::BranchAndPrice(c) => c.lower_bound,
        }
    }

    /// Write the file (a temporary file, then a rename). A branch-and-price certificate is
    /// gzip-compressed when the path ends in `.gz` (`verify-bound` reads either).
    pub fn write(&self, path: &Path) -> Result<()> {
        match self {
            Certificate::Lagrangian(c) => c.write(path),
            Certificate::BranchAndPrice(c) => c.write(path),
        }
    }

    /// One line for stderr after writing it to `path`.
    pub fn written(&self, path: &Path) -> String {
        match self {
            Certificate::Lagrangian(c) => format!(
                "certificate of the Lagrangian bound {:.12e} written to {}",
                c.lower_bound,
                path.display()
            ),
            Certificate::BranchAndPrice(c) => format!(
                "certificate of the branch-and-price bound {:.12e} ({} leaves, {} cuts) written to {}",
                c.lower_bound,
                c.leaves.len(),
                c.cuts.len(),
                path.display()
            ),
        }
    }
}

/// The best partition a searching bound (`bnp`) found on the way: an upper bound to set
/// against its lower bound.
#[derive(Debug, Clone)]
pub struct Incumbent {
    /// One group label per record (first-appearance order), every group of at least k.
    pub labels: Vec<usize>,
    pub sse: f64,
    /// True when the certified bound proves it optimal (relative 1e-9, proofs/P17).
    pub proven_optimal: bool,
}

/// One report of a bound while it runs: the anytime bound (`bnp`) sends one whenever its
/// incumbent or its global bound improves. It is the solver's own report, passed on as it is.
pub use microagg_solvers::bnp::BnpProgress as BoundProgress;
