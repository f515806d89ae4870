//! # Proof by reduced-cost enumeration
//!
//! Closes the gap that branching cannot (proofs/P19). Given any record duals `y`, subset-row
//! cuts with duals `sigma <= 0` and a feasible partition of certified SSE at most `U`:
//!
//! 1. the exact pricing proves `rho <= min rc(S)` and with it the Lagrangian bound `LB`
//!    (P09 / P14, rounded outward);
//! 2. every group of a partition with SSE at most `U` has reduced cost at most
//!    `T = U - LB` (P19 Part A), so `ExactSearch` with `Anchors::Below`
//!    lists all groups with computed reduced cost below `T` plus the rounding margin: the
//!    pool;
//! 3. [`super::pool_search`] enumerates every partition made of pool groups whose reduced
//!    costs sum to at most `U - (sum y + sum sigma)` (P19 Part B), and recomputes each one's
//!    SSE. The least is the optimum (P19 Part C): "proven optimal" needs no LP solver and no
//!    branching tree, only two exhaustive searches that ran to completion.
//!
//! The duals need not be optimal: they only decide how large the pool and the search get.
//! Duals at the end of branch-price-and-cut's root (its certificate) keep `T` near the
//! remaining gap.
//!
//! ## Complexity
//! One exact pricing call and one enumeration (the branch and bound of the exact pricing with
//! its incumbent held at `T`: exponential in the worst case, bounded by `max_columns` and the
//! deadline), then the pool search (exponential in the worst case, bounded by `max_nodes`).
//! Memory O(n^2) for the distance matrix plus O(pool · 2k).
//!
//! ## References
//! - Baldacci, R., Christofides, N. and Mingozzi, A. (2008). An exact algorithm for the
//!   vehicle routing problem based on the set partitioning formulation with additional cuts.
//!   Mathematical Programming 115(2), 351-385 (enumerating every route whose reduced cost is
//!   below the gap, then solving the set partitioning problem over them).
//! - proofs/P19-enumeration-proof.md (our argument and its floating-point margins).

use super::incumbent::consider;
use super::pool_search::{search_pool, PoolSearch};
use super::{BnpOptions, Incumbent, NodeProof};
use crate::bounds::colgen::cuts::{Cut, CutDuals};
use crate::bounds::colgen::pricing::{
    Anchors, ExactBudget, ExactPricing, ExactSearch, Geometry, MAX_RECORDS,
};
use crate::bounds::colgen::{lagrangian_with_cuts, rc_margin, ColgenError};
use crate::deadline::Deadline;
use crate::exact::certify::{is_proven, partition_sse_upper, U};
use std::time::{Duration, Instant};

/// Limits of [`prove_by_enumeration`].
#[derive(Debug, Clone)]
pub struct EnumerationOptions {
    /// Most groups in the pool (the enumeration stops, unproven, beyond).
    pub max_columns: usize,
    /// Most nodes of the pool search (it stops, unproven, beyond).
    pub max_nodes: u64,
    /// Wall-clock limit for the whole call, seconds.
    pub time_limit: f64,
}

impl Default for EnumerationOptions {
    fn default() -> Self {
        EnumerationOptions {
            max_columns: 5_000_000,
            max_nodes: 100_000_000,
            time_limit: 1200.0,
        }
    }
}

/// What [`prove_by_enumeration`] established.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumerationProof {
    /// Proven lower bound on the least reduced cost (`min(0, rho)`, before the margin).
    pub rc_lower_bound: f64,
    /// The rounded Lagrangian bound `LB` of the duals (a valid lower bound on its own).
    pub lagrangian: f64,
    /// Certified upper bound `U` on the SSE of the given partition.
    pub upper: f64,
    /// The reduced-cost threshold `T >= U - LB` (rounded up) and the margin `eps_rc` the
    /// enumeration added to it.
    pub threshold: f64,
    pub margin: f64,
    /// Groups in the pool, and by size (`by_size[m - k]`).
    pub columns: usize,
    pub by_size: Vec<usize>,
    /// Whether the enumeration ran to completion (no budget cut).
    pub enumeration_complete: bool,
    /// The pool search (None when the enumeration was incomplete).
    pub search: Option<PoolSearch>,
    /// Best partition known at the end (the given one unless the search found a better one),
    /// its computed SSE and certified upper bound.
    pub labels: Vec<usize>,
    pub sse: f64,
    pub sse_upper: f64,
    /// Certified lower bound on the optimum: `LB`, or, after a complete search, the least
    /// certified lower SSE over the partitions it met (capped at `U`).
    pub lower_bound: f64,
    /// `lower_bound` proves `labels` optimal (criterion of P12).
    pub proven_optimal: bool,
    /// Seconds in the exact pricing, the enumeration and the pool search.
    pub seconds: [f64; 3],
}

/// Proof by reduced-cost enumeration (module doc; proofs/P19) for the `n` records of `x`
/// (row-major, `d` columns), minimum group size `k`, the feasible partition `labels` (groups
/// of at least `k` records), record duals `y` and the cuts `cuts` (rank-1, P14, P21) with duals `sigma`
/// (values above 0 count as 0). `on_progress` receives one line per phase.
#[allow(clippy::too_many_arguments)]
pub fn prove_by_enumeration(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    labels: &[usize],
    y: &[f64],
    cuts: &[Cut],
    sigma: &[f64],
    opts: &EnumerationOptions,
    on_progress: &mut dyn FnMut(&str),
) -> Result<EnumerationProof, ColgenError> {
    let t0 = Instant::now();
    let duals = (y, cuts, sigma);
    check_inputs(x, n, d, k, labels, duals)?;
    // A soft end alone: the searches past it still sweep their cheap bounds.
    let deadline = Deadline::from(t0 + Duration::from_secs_f64(opts.time_limit.clamp(0.0, 1e9)));
    let proof = prove_until(x, d, k, labels, duals, opts, deadline, on_progress);
    Ok(proof.expect("a deadline without hard end or flag never stops the geometry"))
}

/// [`prove_by_enumeration`] on checked inputs within `deadline`; None when the deadline
/// stopped (its hard end or flag) before the distance matrix was built.
#[allow(clippy::too_many_arguments)]
pub(super) fn prove_until(
    x: &[f64],
    d: usize,
    k: usize,
    labels: &[usize],
    (y, cuts, sigma): (&[f64], &[Cut], &[f64]),
    opts: &EnumerationOptions,
    deadline: Deadline,
    on_progress: &mut dyn FnMut(&str),
) -> Option<EnumerationProof> {
    let t0 = Instant::now();
    let n = y.len();
    let geo = Geometry::new_until(x, n, d, k, (3 * k).max(12), &|| deadline.stopped())?;
    let cuts = CutDuals::new(n, cuts, sigma);
    let eps = rc_margin(&geo, y, d, &cuts);
    let e = Enumeration {
        x,
        d,
        k,
        y,
        groups_max: n / k,
        deadline,
        t0,
        geo,
        cuts,
        eps,
    };
    let (mut proof, exact) = e.price(labels, on_progress);
    if !exact {
        return Some(proof);
    }
    let found = e.list_pool(&mut proof, opts.max_columns, on_progress);
    if !found.exact {
        return Some(proof);
    }
    e.search(&mut proof, &found.columns, opts.max_nodes, on_progress);
    Some(proof)
}

/// The checks of [`prove_by_enumeration`]'s inputs: data, `k >= 2`, size, one finite dual
/// per record and per cut (`y`, `sigma`), cuts on records in range, `labels` a feasible
/// partition.
fn check_inputs(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    labels: &[usize],
    (y, cuts, sigma): (&[f64], &[Cut], &[f64]),
) -> Result<(), ColgenError> {
    crate::bounds::nn_bound(x, n, d, k)?; // validates x, n, d, k
    if k < 2 {
        return Err(ColgenError::Params(
            "the enumeration proof needs k >= 2 (k = 1 is solved by singletons)".into(),
        ));
    }
    if n > MAX_RECORDS {
        return Err(ColgenError::TooLarge {
            n,
            max: MAX_RECORDS,
        });
    }
    if y.len() != n || sigma.len() != cuts.len() {
        return Err(ColgenError::Params(format!(
            "{} record duals for {n} records, {} cut duals for {} cuts",
            y.len(),
            sigma.len(),
            cuts.len()
        )));
    }
    if y.iter().chain(sigma).any(|v| !v.is_finite()) {
        return Err(ColgenError::Params("a dual is not finite".into()));
    }
    if cuts
        .iter()
        .any(|t| t.records().iter().any(|&i| i as usize >= n))
    {
        return Err(ColgenError::Params(
            "a cut holds a record out of range".into(),
        ));
    }
    crate::bounds::colgen::start_groups(labels, n, k).map_err(ColgenError::BadLabels)?;
    Ok(())
}

/// The fixed inputs of one proof: data, duals, their rounding margin `eps`, the deadline.
struct Enumeration<'a> {
    x: &'a [f64],
    d: usize,
    k: usize,
    y: &'a [f64],
    groups_max: usize,
    deadline: Deadline<'a>,
    t0: Instant,
    geo: Geometry,
    cuts: CutDuals,
    eps: f64,
}

impl<'a> Enumeration<'a> {
    /// An exact search without a node budget, ending at the deadline.
    fn unlimited(&self, stop_after: usize) -> ExactBudget<'a> {
        ExactBudget {
            nodes: u64::MAX,
            deadline: self.deadline,
            max_columns: 1,
            stop_after_columns: stop_after,
        }
    }

    /// Step 1: rho and the Lagrangian bound; the proof so far and whether the pricing
    /// proved rho (else the proof ends here).
    fn price(
        &self,
        labels: &[usize],
        on_progress: &mut dyn FnMut(&str),
    ) -> (EnumerationProof, bool) {
        let (x, d, k, y) = (self.x, self.d, self.k, self.y);
        let pricing = ExactSearch::new(&self.cuts).run(
            &self.geo,
            y,
            self.unlimited(usize::MAX),
            &mut Vec::new(),
        );
        let rho = pricing.rc_lower_bound;
        let lagrangian = lagrangian_with_cuts(&self.geo, y, d, &self.cuts, self.groups_max, rho);
        let upper = partition_sse_upper(x, d, labels);
        let t1 = self.t0.elapsed().as_secs_f64();
        on_progress(&format!(
            "pricing: rho {rho:.6e} ({}), Lagrangian bound {lagrangian:.6}, U {upper:.6}, {t1:.1} s",
            if pricing.exact { "exact" } else { "cut" }
        ));
        let proof = EnumerationProof {
            rc_lower_bound: rho,
            lagrangian,
            upper,
            threshold: f64::NAN,
            margin: self.eps,
            columns: 0,
            by_size: vec![0; k],
            enumeration_complete: false,
            search: None,
            labels: labels.to_vec(),
            sse: crate::sse::partition_sse(x, d, labels),
            sse_upper: upper,
            lower_bound: lagrangian,
            proven_optimal: is_proven(lagrangian, upper),
            seconds: [t1, 0.0, 0.0],
        };
        (proof, pricing.exact)
    }

    /// Step 2, the pool: every group with rc <= T (P19 Part A), found when its computed
    /// node bounds stay below T + 2 eps (at most `max_columns`).
    fn list_pool(
        &self,
        proof: &mut EnumerationProof,
        max_columns: usize,
        on_progress: &mut dyn FnMut(&str),
    ) -> ExactPricing {
        let threshold = ((proof.upper - proof.lagrangian).max(0.0) * (1.0 + 4.0 * U)).next_up();
        proof.threshold = threshold;
        let found = ExactSearch::new(&self.cuts)
            .anchors(Anchors::Below {
                threshold: threshold + 2.0 * self.eps,
            })
            .run(
                &self.geo,
                self.y,
                self.unlimited(max_columns),
                &mut Vec::new(),
            );
        proof.enumeration_complete = found.exact;
        proof.columns = found.columns.len();
        for (_, g) in &found.columns {
            proof.by_size[g.len() - self.k] += 1;
        }
        let took = self.end_step(proof, 1);
        on_progress(&format!(
            "enumeration: T {threshold:.6}, {} groups (by size {:?}), {}, {took:.1} s",
            proof.columns,
            proof.by_size,
            if found.exact { "complete" } else { "cut" },
        ));
        found
    }

    /// The end of step `step` (1: the enumeration, 2: the pool search): its seconds, from
    /// the end of the steps before it (`proof.seconds[..step]`) to now, go into
    /// `proof.seconds[step]` and are returned.
    fn end_step(&self, proof: &mut EnumerationProof, step: usize) -> f64 {
        let before: f64 = proof.seconds[..step].iter().sum();
        proof.seconds[step] = self.t0.elapsed().as_secs_f64() - before;
        proof.seconds[step]
    }

    /// Step 3, the pool search (P19 Part B) over the listed `groups`, its budget on the sum
    /// of computed reduced costs; a complete search proves its least lower SSE (Part C).
    fn search(
        &self,
        proof: &mut EnumerationProof,
        groups: &[(f64, Vec<u32>)],
        max_nodes: u64,
        on_progress: &mut dyn FnMut(&str),
    ) {
        let (x, d, y) = (self.x, self.d, self.y);
        let n = y.len();
        let base = lagrangian_with_cuts(&self.geo, y, d, &self.cuts, self.groups_max, 0.0); // <= sum y + sum sigma
        let slack = (4 * self.groups_max + 2 * n) as f64 * self.eps;
        let search = search_pool(
            x,
            n,
            d,
            groups,
            base,
            slack,
            proof.upper,
            max_nodes,
            self.deadline,
        );
        let took = self.end_step(proof, 2);
        on_progress(&format!(
            "pool search: {} of the groups kept, {} nodes, {} partitions within it, {}, {took:.1} s",
            search.columns_kept,
            search.nodes,
            search.partitions,
            if search.complete { "complete" } else { "cut" },
        ));
        if search.complete {
            // Every partition of certified SSE <= U was met (P19 Part C).
            proof.lower_bound = search.least_lower.max(proof.lagrangian);
            if let Some((labels, sse, sse_upper)) = &search.best {
                if *sse_upper < proof.sse_upper {
                    proof.labels = labels.clone();
                    proof.sse = *sse;
                    proof.sse_upper = *sse_upper;
                }
            }
            proof.proven_optimal = is_proven(proof.lower_bound, proof.sse_upper);
        }
        proof.search = Some(search);
    }
}

/// The proof by reduced-cost enumeration (P19) at the root's duals `p` (scaled problem),
/// run on the original data with the duals divided by `s^2` (exact), as a verifier would,
/// within the search's `deadline` (its hard end and stop flag stop it): returns the bound
/// it proves and the proof with its duals (None when the deadline stopped it before its
/// distance matrix); a better partition it met becomes the incumbent.
#[allow(clippy::too_many_arguments)]
pub(super) fn enumerate_at_root(
    x: &[f64],
    d: usize,
    k: usize,
    p: &NodeProof,
    unscale: impl Fn(f64) -> f64,
    inc: &mut Incumbent,
    opts: &BnpOptions,
    deadline: Deadline,
) -> Option<(f64, (EnumerationProof, NodeProof))> {
    let duals = NodeProof {
        y: p.y.iter().map(|&v| unscale(v)).collect(),
        cuts: p.cuts.clone(),
        sigma: p.sigma.iter().map(|&v| unscale(v)).collect(),
    };
    let limits = EnumerationOptions {
        max_columns: opts.enumerate_columns,
        max_nodes: opts.enumerate_nodes,
        time_limit: deadline.seconds_left(),
    };
    let (y, cuts, sigma) = (&duals.y[..], &duals.cuts[..], &duals.sigma[..]);
    let e = prove_until(
        x,
        d,
        k,
        &inc.labels,
        (y, cuts, sigma),
        &limits,
        deadline,
        &mut |_| {},
    )?;
    if e.sse_upper < inc.upper {
        consider(x, d, e.labels.clone(), inc);
    }
    // Valid in every case: the Lagrangian bound of the duals, or more after a complete search.
    Some((e.lower_bound, (e, duals)))
}
