//! # The medoid-anchored verification
//!
//! The Lagrangian bound of given duals from per-anchor exact pricing (proofs/P20: the
//! `floor(n/k)` most negative anchor minima), at an anchor threshold `tau <= 0`, and the
//! order in which a certificate's claim is re-checked by the searches the producers ran over
//! time ([`verify_lagrangian_anchored_claim`]: per-anchor size completion, size completion,
//! carried incumbent, per size).
//!
//! ## Complexity
//! Per search: O(n^2 d) for the distances plus one exact pricing pass per anchor
//! (exponential in the worst case); a claim takes at most four searches.
//!
//! ## References
//! proofs/P20-anchored-lagrangian.md; Neumaier and Shcherbina (2004), see [`super`].

use super::super::anchors::anchored_best;
use super::super::pricing::{weak_rc_bound, Anchors, ExactSearch};
use super::super::{lagrangian_with_cuts, rc_margin};
use super::inputs::{prepare, triple_cuts, unlimited_budget};
use super::{plain_bound, VerifiedBound, NOTHING_PROVEN};
use crate::SolverError;
use std::time::Instant;

/// [`verify_lagrangian_cuts`], then the medoid-anchored bound of the same duals
/// (proofs/P20: per-anchor exact pricing, the `floor(n/k)` most negative anchor minima); the
/// larger of the two. `deadline` ends both pricing searches (one deadline for the two).
#[allow(clippy::too_many_arguments)]
pub fn verify_lagrangian_anchored(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    triples: &[[u32; 3]],
    sigma: &[f64],
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    verify_lagrangian_anchored_at(x, n, d, k, y, triples, sigma, deadline, 0.0)
}

/// [`verify_lagrangian_anchored`] with the per-anchor search run at the anchor threshold
/// `tau` (proofs/P20: any `tau <= 0` gives a valid bound, up to `floor(n/k) |tau|` weaker,
/// with far fewer nodes when many groups have reduced costs in `(tau, 0)`). A `tau` above 0
/// counts as 0 and one that is not finite as 0 (callers check their input; the result is
/// valid either way).
#[allow(clippy::too_many_arguments)]
pub fn verify_lagrangian_anchored_at(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    triples: &[[u32; 3]],
    sigma: &[f64],
    deadline: Option<Instant>,
    tau: f64,
) -> Result<VerifiedBound, SolverError> {
    anchored_at(x, n, d, k, y, triples, sigma, deadline, tau, Per::Size)
}

/// [`verify_lagrangian_anchored_at`] for a certificate claiming `claim`: with a threshold
/// `tau < 0` first the search with per-anchor size completion (P20 "Per-anchor size
/// completion", what the producers run: the same values, bit for bit, when their search
/// finished), then the carried search with the global size completion (P20 "Size
/// completion", certificates written before the per-anchor one), then the per-anchor search
/// with the incumbent carried over the sizes (P20 "Carried incumbent", certificates written
/// before the completion), and only when that proves less than `claim` also the uncarried
/// search (certificates written before the carry); the first that reaches the claim, else
/// the largest. All are valid (P20), so the result is. `deadline` ends them all: no search
/// starts after it (the result is then not exact).
#[allow(clippy::too_many_arguments)]
pub fn verify_lagrangian_anchored_claim(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    triples: &[[u32; 3]],
    sigma: &[f64],
    deadline: Option<Instant>,
    tau: f64,
    claim: f64,
) -> Result<VerifiedBound, SolverError> {
    let order: &[Per] = if tau < 0.0 {
        &[Per::Local, Per::Complete, Per::Carry, Per::Size]
    } else {
        &[Per::Carry, Per::Size]
    };
    let (mut best, mut nodes, mut all_exact) = (NOTHING_PROVEN, 0, true);
    for (j, &per) in order.iter().enumerate() {
        let v = anchored_at(x, n, d, k, y, triples, sigma, deadline, tau, per)?;
        nodes += v.nodes;
        all_exact &= v.pricing_exact;
        if v.lower_bound >= claim {
            return Ok(VerifiedBound { nodes, ..v });
        }
        if v.lower_bound > best.lower_bound {
            best = v;
        }
        // One deadline for all the searches: none starts after it.
        if deadline.is_some_and(|t| Instant::now() >= t) && j + 1 < order.len() {
            all_exact = false;
            break;
        }
    }
    Ok(VerifiedBound {
        nodes,
        pricing_exact: all_exact,
        ..best
    })
}

/// Which per-anchor search a verification runs (proofs/P20).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Per {
    /// Every anchor and size searched from the threshold.
    Size,
    /// The incumbent carried over the sizes ("Carried incumbent").
    Carry,
    /// Carried, and the sizes above k completed from size k ("Size completion").
    Complete,
    /// Carried, and each anchor's sizes above k completed from its own size k ("Per-anchor
    /// size completion"; the producers' search).
    Local,
}

/// The anchored verification with the per-anchor search `per`.
#[allow(clippy::too_many_arguments)]
fn anchored_at(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    triples: &[[u32; 3]],
    sigma: &[f64],
    deadline: Option<Instant>,
    tau: f64,
    per: Per,
) -> Result<VerifiedBound, SolverError> {
    let tau = if tau.is_finite() { tau.min(0.0) } else { 0.0 };
    let Some(p) = prepare(x, n, d, k, y, (&triple_cuts(triples, n)?, sigma))? else {
        return Ok(NOTHING_PROVEN);
    };
    let weak = weak_rc_bound(&p.geo, y);
    // With a threshold the plain search (no threshold: slow where many groups are near 0) is
    // skipped; the per-anchor search's global minimum is a proven pricing bound too (P20),
    // and the plain bound from it is what the producers also take (it can exceed the
    // anchored sums by their rounding margins when every anchor sits at the threshold).
    let searched = (tau >= 0.0).then(|| plain_bound(&p, y, d, weak, deadline));
    let mut per_size = Vec::new();
    let budget = unlimited_budget(deadline);
    let anchors = match per {
        Per::Carry => Anchors::Carry { threshold: tau },
        Per::Size => Anchors::PerSize { threshold: tau },
        Per::Complete | Per::Local => {
            let margin = rc_margin(&p.geo, y, d, &p.cuts);
            if per == Per::Local {
                Anchors::CompleteLocal {
                    threshold: tau,
                    margin,
                }
            } else {
                Anchors::Complete {
                    threshold: tau,
                    margin,
                }
            }
        }
    };
    let exact = ExactSearch::new(&p.cuts)
        .anchors(anchors)
        .run(&p.geo, y, budget, &mut per_size);
    let anchored = anchored_best(&p.geo, y, d, &p.cuts, &per_size, weak);
    let plain = match searched {
        Some(plain) => plain,
        None => {
            let rc = weak.max(exact.rc_lower_bound).min(0.0);
            VerifiedBound {
                lower_bound: lagrangian_with_cuts(&p.geo, y, d, &p.cuts, n / k, rc),
                rc_lower_bound: rc,
                pricing_exact: false,
                nodes: 0,
            }
        }
    };
    Ok(if anchored > plain.lower_bound {
        VerifiedBound {
            lower_bound: anchored,
            rc_lower_bound: plain.rc_lower_bound,
            pricing_exact: exact.exact,
            nodes: plain.nodes + exact.nodes,
        }
    } else {
        VerifiedBound {
            nodes: plain.nodes + exact.nodes,
            ..plain
        }
    })
}
