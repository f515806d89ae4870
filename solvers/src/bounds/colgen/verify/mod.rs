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
//!
//! The inputs are checked and prepared once per verification (`inputs.rs`); the plain bound is
//! here, the medoid-anchored bounds of proofs/P20 in `anchored.rs`, a branch-and-price node's
//! bound and the Ryan-Foster tree cover of proofs/P18 in `node.rs`.

mod anchored;
mod inputs;
mod node;

use super::least_rc_lagrangian;
use super::pricing::{weak_rc_bound, ExactSearch};
use crate::SolverError;
pub use anchored::{
    verify_lagrangian_anchored, verify_lagrangian_anchored_at, verify_lagrangian_anchored_claim,
};
use inputs::{prepare, triple_cuts, unlimited_budget, Prepared};
pub use node::{regions_cover, tree_covers, verify_node_bound, LeafRegion};
use std::time::Instant;

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
    let Some(p) = prepare(x, n, d, k, y, (&triple_cuts(triples, n)?, sigma))? else {
        return Ok(NOTHING_PROVEN);
    };
    Ok(plain_bound(&p, y, d, weak_rc_bound(&p.geo, y), deadline))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::colgen::cuts::CutDuals;
    use crate::bounds::colgen::pricing::{ExactBudget, Geometry};
    use std::time::Duration;

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

    #[test]
    fn count_ranges_must_split_every_group_count() {
        let t = |a, b| (a, b, true);
        let f = |a, b| (a, b, false);
        let any = (0, usize::MAX);
        // n = 12, k = 3: at most 4 groups. "At most 3" and "at least 4" cover.
        let (fewer, most) = ((0, 3), (4, usize::MAX));
        let ok = vec![
            (vec![], fewer),
            (vec![t(0, 1)], most),
            (vec![f(0, 1)], most),
        ];
        assert!(regions_cover(&ok, 12, 3).is_ok());
        assert!(regions_cover(&[(vec![], any)], 12, 3).is_ok());
        // Up to floor(n/k) is enough for the last range; overlapping ranges cover too.
        assert!(regions_cover(&[(vec![], fewer), (vec![], (4, 4))], 12, 3).is_ok());
        assert!(regions_cover(&[(vec![], (0, 3)), (vec![], (3, 4))], 12, 3).is_ok());
        // A count split below a pair decision, on one side only.
        let deep = vec![
            (vec![t(0, 1)], fewer),
            (vec![t(0, 1), t(2, 3)], most),
            (vec![t(0, 1), f(2, 3)], most),
            (vec![f(0, 1)], any),
        ];
        assert!(regions_cover(&deep, 12, 3).is_ok());
        assert!(regions_cover(&deep[1..], 12, 3).is_err());
        assert!(regions_cover(&deep[..3], 12, 3).is_err());
        // A count left out: 4 groups; 3 groups; 0 groups.
        assert!(regions_cover(&ok[..1], 12, 3).is_err());
        assert!(regions_cover(&[(vec![], (0, 2)), (vec![], most)], 12, 3).is_err());
        assert!(regions_cover(&[(vec![], (1, 4))], 12, 3).is_err());
        assert!(regions_cover(&[], 12, 3).is_err());
        // One range's leaves do not cover its partitions.
        assert!(regions_cover(&ok[..2], 12, 3).is_err());
        // Siblings branching on different pairs within one range.
        let bad = vec![
            (vec![], fewer),
            (vec![t(0, 1)], most),
            (vec![f(0, 2)], most),
        ];
        assert!(regions_cover(&bad, 12, 3).is_err());
    }
}
