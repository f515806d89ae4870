//! # Checked inputs of a bound verification
//!
//! A certificate's duals, cuts and decisions are checked before any search (malformed data
//! is an error, a positive cut dual proves nothing), the distance matrix is built once for
//! every search over them ([`Prepared`]), and the searches run without a node budget until the
//! command's deadline ([`unlimited_budget`]).
//!
//! ## Complexity
//! O(n^2 d) for the distance matrix, O(n + cuts) for the checks.
//!
//! ## References
//! proofs/P13 (certificates), proofs/P14 and P21 (cuts).

use super::super::cuts::{Cut, CutDuals};
use super::super::pricing::{ExactBudget, Geometry};
use crate::SolverError;
use std::time::{Duration, Instant};

/// Why cut data cannot be used.
pub(super) fn bad_cut(message: String) -> SolverError {
    SolverError::BadCut { message }
}

/// Check the inputs of [`verify_lagrangian_cuts`] (errors as documented there): the records,
/// the duals `y` and the cuts with their duals `sigma`; and build what pricing needs. `None`
/// for a positive cut dual, which proves nothing.
pub(super) fn prepare(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    (cuts, sigma): (&[Cut], &[f64]),
) -> Result<Option<Prepared>, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if cuts.len() != sigma.len() {
        return Err(bad_cut(format!(
            "{} cuts but {} cut duals",
            cuts.len(),
            sigma.len()
        )));
    }
    // A `Cut` is well formed by construction (distinct records, right side
    // floor(p(C) / q), P21).
    for (j, t) in cuts.iter().enumerate() {
        if t.records().iter().any(|&i| i as usize >= n) {
            return Err(bad_cut(format!(
                "cut {j}: records {:?} are not all records of 0..{n}",
                t.records()
            )));
        }
    }
    if let Some(j) = sigma.iter().position(|v| !v.is_finite()) {
        return Err(bad_cut(format!("cut {j}: the dual is not finite")));
    }
    if sigma.iter().any(|&v| v > 0.0) {
        return Ok(None);
    }
    if y.len() != n {
        return Err(SolverError::BadDimension { len: y.len(), d: 1 });
    }
    if let Some(index) = y.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index });
    }
    Ok(Some(Prepared {
        geo: Geometry::new(x, n, d, k, 1),
        cuts: CutDuals::new(n, cuts, sigma),
    }))
}

/// Subset-row triples as [`Cut`]s, each checked (three distinct records of `0..n`).
pub(super) fn triple_cuts(triples: &[[u32; 3]], n: usize) -> Result<Vec<Cut>, SolverError> {
    triples
        .iter()
        .enumerate()
        .map(|(j, t)| {
            if t.iter().any(|&i| i as usize >= n) || t[0] == t[1] || t[0] == t[2] || t[1] == t[2] {
                return Err(bad_cut(format!(
                    "cut {j}: records {t:?} are not three distinct records of 0..{n}"
                )));
            }
            Ok(Cut::triple(*t))
        })
        .collect()
}

/// The checked inputs of a verification, built once for every pricing search over them.
pub(super) struct Prepared {
    /// The distance matrix (O(n^2)).
    pub(super) geo: Geometry,
    pub(super) cuts: CutDuals,
}

/// The verifier's pricing budget: no node or column limit, until `deadline` (none: no
/// limit).
pub(super) fn unlimited_budget(deadline: Option<Instant>) -> ExactBudget<'static> {
    // The command's limit is a hard end: a search cut by it skips its sweep (P13).
    let far = Instant::now() + Duration::from_secs(1_000_000_000);
    ExactBudget {
        nodes: u64::MAX,
        deadline: match deadline {
            Some(at) => crate::deadline::Deadline::command(at, None),
            None => far.into(),
        },
        max_columns: 0,
        stop_after_columns: usize::MAX,
    }
}
