//! # Re-checking a Lagrangian bound without an LP solver
//!
//! A column generation bound is `sum_i y_i + floor(n/k) min(0, R)` for duals `y` and a proven
//! lower bound `R` on the least reduced cost over all groups of `k..2k-1` records
//! (`proofs/P09-lagrangian-bound.md`, Part A, valid for every `y`). A certificate therefore
//! only needs the duals: [`verify_lagrangian`] recomputes `R` with this crate's own proven
//! pricing (the weak bound B1 and the branch-and-bound pricing B2, no node budget) and the
//! bound with the outward rounding of P09, without HiGHS. A claimed value is valid when it
//! is at most the recomputed one (`proofs/P13-bound-certificates.md`).
//!
//! With subset-row cuts ([`verify_lagrangian_cuts`], proofs/P14) the certificate also lists
//! the cut triples and their duals `sigma <= 0`; the bound is
//! `sum y + sum sigma + floor(n/k) min(0, R)` with `R` proven for the reduced cost that
//! includes the cut penalties. Each triple must be three distinct records (the cut is valid
//! only for `|C| <= 3`); a positive cut dual makes the certificate invalid (the proof needs
//! `sigma <= 0`). A branch-and-price node ([`verify_node_bound`]) also takes the rank-1 cuts
//! of proofs/P21 ([`Cut`]: 2..=32 records, right side `b_C = floor(p(C) / q)`, bound
//! `sum y + sum sigma b + floor(n/k) min(0, R)`).
//!
//! ## Complexity
//! One exact pricing pass: O(n^2 d) for the distances plus the pricing search (exponential in
//! the worst case; seconds to minutes on the CASC files, most at k = 10).
//!
//! ## References
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296 (bounds recomputed from given duals).

use super::anchors::anchored_best;
use super::cuts::{Cut, CutDuals};
use super::pairs::PairConstraints;
use super::pricing::{weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry};
use super::{lagrangian_with_cuts, least_rc_lagrangian, rc_margin};
use crate::SolverError;
use std::time::{Duration, Instant};

/// The bound that given duals prove.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifiedBound {
    /// Certified lower bound on the optimal SSE proven by the duals (rounded outward).
    pub lower_bound: f64,
    /// The proven lower bound on the least reduced cost, before the rounding margin.
    pub rc_lower_bound: f64,
    /// True when the pricing search finished (no node cut by the deadline): `rc_lower_bound`
    /// is then the exact minimum capped at 0; otherwise a weaker but still valid bound.
    pub pricing_exact: bool,
    /// Pricing nodes explored.
    pub nodes: u64,
}

/// Recompute the Lagrangian bound proven by duals `y` for the `n` records of `x` (row-major,
/// `d` columns) and minimum group size `k`. `deadline` (None: none) ends the pricing search;
/// when it cuts, the result is still a valid (weaker) bound and `pricing_exact` is false.
pub fn verify_lagrangian(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    verify_lagrangian_cuts(x, n, d, k, y, &[], &[], deadline)
}

/// Why cut data cannot be used.
fn bad_cut(message: String) -> SolverError {
    SolverError::BadCut { message }
}

/// [`verify_lagrangian`] with subset-row cuts: `triples[j]` (three distinct records) with
/// dual `sigma[j]`. Errors on malformed cuts (wrong length, a record out of range or
/// repeated, a non-finite dual); a positive dual is not an error but proves nothing:
/// the result is then `-infinity` (so any claim is rejected).
#[allow(clippy::too_many_arguments)]
pub fn verify_lagrangian_cuts(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    triples: &[[u32; 3]],
    sigma: &[f64],
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    let Some(p) = prepare(x, n, d, k, y, &triple_cuts(triples, n)?, sigma)? else {
        return Ok(NOTHING_PROVEN);
    };
    Ok(plain_bound(&p, y, d, weak_rc_bound(&p.geo, y), deadline))
}

/// Check the inputs of [`verify_lagrangian_cuts`] (errors as documented there) and build
/// what pricing needs; `None` for a positive cut dual, which proves nothing.
fn prepare(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &[Cut],
    sigma: &[f64],
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
fn triple_cuts(triples: &[[u32; 3]], n: usize) -> Result<Vec<Cut>, SolverError> {
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
struct Prepared {
    /// The distance matrix (O(n^2)).
    geo: Geometry,
    cuts: CutDuals,
}

/// The verifier's pricing budget: no node or column limit, until `deadline` (none: no
/// limit).
fn unlimited_budget(deadline: Option<Instant>) -> ExactBudget<'static> {
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

/// The bound a positive cut dual gives: none.
const NOTHING_PROVEN: VerifiedBound = VerifiedBound {
    lower_bound: f64::NEG_INFINITY,
    rc_lower_bound: f64::NEG_INFINITY,
    pricing_exact: true,
    nodes: 0,
};

/// The plain Lagrangian bound of the prepared inputs (the weak pricing bound `weak` of
/// [`weak_rc_bound`] and exact pricing, P09/P14).
fn plain_bound(
    p: &Prepared,
    y: &[f64],
    d: usize,
    weak: f64,
    deadline: Option<Instant>,
) -> VerifiedBound {
    let (n, k) = (p.geo.n, p.geo.k);
    let exact =
        ExactSearch::new(&p.cuts).run(&p.geo, y, unlimited_budget(deadline), &mut Vec::new());
    let rc_lower_bound = weak.max(exact.rc_lower_bound).min(0.0);
    VerifiedBound {
        lower_bound: least_rc_lagrangian(&p.geo, y, d, &p.cuts, n / k, rc_lower_bound),
        rc_lower_bound,
        pricing_exact: exact.exact,
        nodes: exact.nodes,
    }
}

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
    let Some(p) = prepare(x, n, d, k, y, &triple_cuts(triples, n)?, sigma)? else {
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

/// The bound that duals prove over one branch-and-price node's region (proofs/P17, P18):
/// the partitions into groups of `k..2k-1` records that satisfy the together / apart
/// `decisions` `(a, b, together?)`. Inputs are checked as in [`verify_lagrangian_cuts`] (and
/// each decision must name two distinct records of `0..n`); a node whose decisions leave no
/// such partition ([`PairConstraints::infeasible`]) has the bound `+infinity` whatever the
/// duals; otherwise the bound is `sum y + sum sigma + floor(n/k) min(0, R)` with `R` the
/// least reduced cost (cut penalties included) over the groups compatible with the
/// decisions, from this crate's own pricing without a node budget, rounded outward. The cuts
/// are rank-1 cuts ([`Cut`]: subset-row triples, the 4- and 5-record cuts and the larger
/// cuts with right side `floor(p(C) / q)` of proofs/P21), each record of `0..n`.
#[allow(clippy::too_many_arguments)]
pub fn verify_node_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &[Cut],
    sigma: &[f64],
    decisions: &[(u32, u32, bool)],
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    let pairs = pair_constraints(n, decisions)?;
    crate::error::check_rows(x, n, d, k)?;
    if pairs.infeasible(k) {
        return Ok(VerifiedBound {
            lower_bound: f64::INFINITY,
            rc_lower_bound: 0.0,
            pricing_exact: true,
            nodes: 0,
        });
    }
    let Some(p) = prepare(x, n, d, k, y, cuts, sigma)? else {
        return Ok(NOTHING_PROVEN);
    };
    let weak = weak_rc_bound(&p.geo, y);
    let exact = ExactSearch::new(&p.cuts).pairs(Some(&pairs)).run(
        &p.geo,
        y,
        unlimited_budget(deadline),
        &mut Vec::new(),
    );
    // The weak bound holds over all groups, hence over the compatible ones.
    let rc_lower_bound = weak.max(exact.rc_lower_bound).min(0.0);
    Ok(VerifiedBound {
        lower_bound: least_rc_lagrangian(&p.geo, y, d, &p.cuts, n / k, rc_lower_bound),
        rc_lower_bound,
        pricing_exact: exact.exact,
        nodes: exact.nodes,
    })
}

/// The decisions as [`PairConstraints`], each checked (two distinct records of `0..n`).
fn pair_constraints(
    n: usize,
    decisions: &[(u32, u32, bool)],
) -> Result<PairConstraints, SolverError> {
    let mut pc = PairConstraints::new(n);
    for (j, &(a, b, together)) in decisions.iter().enumerate() {
        if a as usize >= n || b as usize >= n || a == b {
            return Err(SolverError::BadDecision {
                message: format!(
                    "decision {j}: ({a}, {b}) is not a pair of distinct records of 0..{n}"
                ),
            });
        }
        if together {
            pc.add_together(a, b);
        } else {
            pc.add_apart(a, b);
        }
    }
    Ok(pc)
}

/// Whether the decision lists of the leaves of a Ryan-Foster tree cover every partition
/// (proofs/P18): starting from the empty list, a set of leaves covers a region when one of
/// them is the region's own list, or all of them continue it with the same pair `(a, b)`
/// and those continuing "together" and those continuing "apart" each cover their half (the
/// two halves split the region: `a` and `b` share a group or do not). Err names the first
/// region that is not covered. O(total decisions · depth).
pub fn tree_covers(leaves: &[Vec<(u32, u32, bool)>]) -> Result<(), String> {
    fn norm(t: (u32, u32, bool)) -> (u32, u32, bool) {
        (t.0.min(t.1), t.0.max(t.1), t.2)
    }
    fn covers(
        leaves: &[&[(u32, u32, bool)]],
        depth: usize,
        path: &mut Vec<(u32, u32, bool)>,
    ) -> Result<(), String> {
        if leaves.iter().any(|l| l.len() == depth) {
            return Ok(()); // a leaf holds the whole region
        }
        let Some(first) = leaves.first() else {
            return Err(format!("no leaf covers the region of decisions {path:?}"));
        };
        let (a, b, _) = norm(first[depth]);
        if let Some(l) = leaves.iter().find(|l| {
            let t = norm(l[depth]);
            (t.0, t.1) != (a, b)
        }) {
            return Err(format!(
                "after decisions {path:?} leaves branch on both ({a}, {b}) and {:?}",
                norm(l[depth])
            ));
        }
        for side in [true, false] {
            let part: Vec<&[(u32, u32, bool)]> = leaves
                .iter()
                .copied()
                .filter(|l| l[depth].2 == side)
                .collect();
            path.push((a, b, side));
            covers(&part, depth + 1, path)?;
            path.pop();
        }
        Ok(())
    }
    let all: Vec<&[(u32, u32, bool)]> = leaves.iter().map(|l| l.as_slice()).collect();
    covers(&all, 0, &mut Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_duals_prove_zero_and_bad_duals_are_errors() {
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.2];
        let v = verify_lagrangian(&x, 6, 1, 3, &[0.0; 6], None).unwrap();
        assert!(
            v.lower_bound <= 0.0 && v.lower_bound > -1e-6 && v.pricing_exact,
            "{v:?}"
        );
        assert!(verify_lagrangian(&x, 6, 1, 3, &[0.0; 5], None).is_err());
        assert!(verify_lagrangian(&x, 6, 1, 3, &[f64::NAN; 6], None).is_err());
    }

    #[test]
    fn optimal_duals_of_two_clusters_prove_the_optimum() {
        // Two clusters of 3: optimum 0.02 + 0.02; duals 0.04/6 per record price every group
        // at rc >= 0 (the two clusters have rc 0), so the bound is 0.04 up to rounding.
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.2];
        let y = [0.04 / 6.0; 6];
        let v = verify_lagrangian(&x, 6, 1, 3, &y, None).unwrap();
        assert!(
            v.lower_bound <= 0.04 && v.lower_bound > 0.04 - 1e-9,
            "{v:?}"
        );
        // Raising one dual breaks the certificate: the recomputed bound drops.
        let mut z = y;
        z[0] += 1.0;
        let w = verify_lagrangian(&x, 6, 1, 3, &z, None).unwrap();
        assert!(w.lower_bound < v.lower_bound, "{w:?}");
    }

    /// One instance of [`claim_instances`]: rows `x`, `n`, `d`, `k` and duals `y`.
    type ClaimInstance = (Vec<f64>, usize, usize, usize, Vec<f64>);

    /// Small adversarial instances (tight clusters far apart, duplicates, an outlier, a
    /// scale of 1e-6 or 1e6) and duals around the nn duals, from a fixed-seed generator.
    fn claim_instances() -> Vec<ClaimInstance> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut unit = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut out = Vec::new();
        for case in 0..24 {
            let (n, d, k) = (10 + case % 9, 1 + case % 3, 2 + case % 3);
            let scale = [1.0, 1e-6, 1e6][case % 3];
            let clusters = 2 + case % 3;
            let mut x = Vec::with_capacity(n * d);
            for i in 0..n {
                for j in 0..d {
                    let centre = (i % clusters) as f64 * 100.0 + j as f64;
                    let v = match (case + i) % 7 {
                        0 if i > 0 => x[(i - 1) * d + j], // a duplicate of the record before
                        1 if i == n - 1 => 1e4,           // an outlier
                        _ => centre + 1e-3 * unit(),
                    };
                    x.push(v * scale);
                }
            }
            let geo = Geometry::new(&x, n, d, k, 1);
            let y: Vec<f64> = (0..n)
                .map(|i| geo.nn(i, k - 1) / (2 * k) as f64 * (1.0 + 0.6 * unit()))
                .collect();
            out.push((x, n, d, k, y));
        }
        out
    }

    /// The claim a producer writes ([`super::super::verifiable_claim`]) is confirmed by the
    /// verifier whatever cut the producer's search (node budgets from 1 to a finished search,
    /// thresholds 0 and below), and lies within a hair of the producer's value. Without the
    /// lowering, a value of a cut or completed search can exceed the verifier's recomputation
    /// in its last bits (a k = 10 certificate of `bound --tighten` did, in CI).
    #[test]
    fn a_producers_claim_is_confirmed_by_the_verifier_whatever_cut_its_search() {
        use super::super::subgrad::{certify_check_budget, GroupPool};
        use super::super::verifiable_claim;
        let (mut checked, mut raw_above) = (0, 0);
        for (x, n, d, k, y) in claim_instances() {
            let geo = Geometry::new(&x, n, d, k, (3 * k).max(12));
            let g = (n / k) as f64;
            let scale = y.iter().sum::<f64>().abs() / g;
            for tau in [0.0, -0.01 * scale, -0.3 * scale] {
                let mut nodes = 1u64;
                loop {
                    let budget = ExactBudget {
                        nodes,
                        deadline: (Instant::now() + Duration::from_secs(60)).into(),
                        max_columns: 20 * n,
                        stop_after_columns: usize::MAX,
                    };
                    let (check, _) = certify_check_budget(
                        &geo,
                        &y,
                        d,
                        tau,
                        budget,
                        &mut GroupPool::default(),
                        f64::NEG_INFINITY,
                    );
                    let claim = verifiable_claim(&geo, &y, d, &CutDuals::none(), check.value);
                    let v = verify_lagrangian_anchored_claim(
                        &x,
                        n,
                        d,
                        k,
                        &y,
                        &[],
                        &[],
                        None,
                        tau,
                        claim,
                    )
                    .unwrap();
                    assert!(
                        claim <= v.lower_bound,
                        "n {n} d {d} k {k} tau {tau} nodes {nodes}: claim {claim:e} above \
                         the recomputed {:e}",
                        v.lower_bound
                    );
                    assert!(claim <= check.value, "{claim} > {}", check.value);
                    let room = 1e-9 * (y.iter().map(|v| v.abs()).sum::<f64>() + check.value.abs());
                    assert!(
                        check.value - claim <= room,
                        "lowered too far: {claim} vs {}",
                        check.value
                    );
                    raw_above += usize::from(check.value > v.lower_bound);
                    checked += 1;
                    if check.complete {
                        break;
                    }
                    nodes *= 2;
                }
            }
        }
        assert!(
            checked > 200,
            "{checked} claims checked; {raw_above} unlowered values above the verifier's"
        );
    }

    #[test]
    fn tree_cover_needs_both_children_of_every_branching() {
        let t = |a, b| (a, b, true);
        let f = |a, b| (a, b, false);
        assert!(tree_covers(&[vec![]]).is_ok());
        let leaves = vec![
            vec![t(0, 1)],
            vec![f(0, 1), t(2, 3)],
            vec![f(1, 0), f(2, 3)],
        ];
        assert!(tree_covers(&leaves).is_ok());
        // One branch removed.
        assert!(tree_covers(&leaves[..2]).is_err());
        assert!(tree_covers(&[]).is_err());
        // Siblings branching on different pairs.
        let bad = vec![
            vec![t(0, 1)],
            vec![f(0, 1), t(2, 3)],
            vec![f(0, 1), f(2, 4)],
        ];
        assert!(tree_covers(&bad).is_err());
    }
}
