//! # The weighted column generation (Lagrangian) lower bound
//!
//! A lower bound on the weighted SSE `sum_G sum_{i in G} w_i ||x_i - c_w(G)||^2` (sampling
//! weights `w_i > 0`, weighted centroids) of every partition into groups of at least `k`
//! **records**. Splitting a group never raises its weighted SSE (P40 W1(b)), so some optimum
//! uses groups of `k..2k-1` records only; the set-partitioning master over those groups,
//! `min sum_S SSE_w(S) x_S`, `sum_{S ni i} x_S = 1`, `x >= 0`, is solved by column
//! generation (HiGHS, the unweighted colgen's [`Master`]), and its duals `y` give the
//! medoid-anchored Lagrangian bound
//!
//! `OPT_w >= sum_i y_i + (sum of the floor(n/k) smallest min(0, L_r))`,
//!
//! `L_r` a proven lower bound on the reduced cost `SSE_w(S) - y(S)` of every group whose
//! *weighted* medoid is `r` (proofs/P43). The bound holds for every `y`; HiGHS' status is
//! never used for it. The loop:
//!
//! 1. The master starts from the groups of the given feasible partitions (labels).
//! 2. Each iteration solves the master and prices at its duals heuristically
//!    ([`pricing::WeightedPricing::heuristic`]); the negative groups join the master.
//! 3. When the heuristic finds none, the exact per-anchor search
//!    ([`pricing::WeightedPricing::anchor_values`]) runs at those duals with the threshold
//!    `tau = -anchor_threshold UB / floor(n/k)` (`UB` the best start partition's weighted
//!    SSE); its values give a certified bound ([`anchored_bound`]), and its negative groups
//!    join the master. When it finds none below `-tol` the master LP is reached (up to
//!    `floor(n/k) |tau|`): the loop ends.
//! 4. At the time limit the last duals are evaluated once more (the final fraction of the
//!    time). [`WeightedColgenBound::lower_bound`] is the best certified value and the
//!    weighted nn bound (P41), whichever is larger.
//!
//! At the weighted nn duals `y_i = (w_i / 2) lambda_i` every group prices out (P43 L3), so
//! the LP value is at least the weighted nn bound; the column generation ends above it
//! unless the time limit cuts it short.
//!
//! ## Complexity
//! O(n d) memory besides the master; per iteration one simplex re-solve and the heuristic
//! (O(n^2 d) plus O(n C(width, 2k-2) k^2 d)); the exact search as in [`pricing`].
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. Journal of Global Optimization 60, 165-182 (unweighted).
//! - The unweighted bound and its rounding: proofs/P09, P10, P20; weighted identities P40,
//!   the weighted nn bound P41; this bound P43.

pub mod pricing;

use super::colgen::master::Master;
use super::colgen::observer::{ColgenObserver, Gated};
use super::colgen::start_groups;
use super::colgen::verify::VerifiedBound;
use super::colgen::ColgenError;
use super::nn_weighted::weighted_nn_bound_and_duals;
use super::UNIT_ROUNDOFF;
use crate::SolverError;
use pricing::{SearchLimits, WeightedPricing};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Options of [`weighted_colgen_bound`].
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedColgenOptions {
    /// Wall-clock seconds for the whole bound.
    pub time_limit: f64,
    /// Most master iterations.
    pub max_iterations: usize,
    /// `tau = -anchor_threshold UB / floor(n/k)` (0: exact per-anchor minima); the bound
    /// loses at most `anchor_threshold UB` against `tau = 0` (proofs/P20, P43).
    pub anchor_threshold: f64,
    /// Records of least star term per anchor that the heuristic combines.
    pub heuristic_width: usize,
    /// Most columns added per iteration (most negative first).
    pub max_columns_per_iteration: usize,
    /// Node budget of the exact search per (anchor, size) during the loop (the final
    /// evaluation has none; a cut search still proves a weaker bound).
    pub exact_nodes: u64,
    /// Fraction of the time kept for the final exact evaluation.
    pub final_fraction: f64,
    /// Relative tolerance (of `UB / floor(n/k)`) below which a reduced cost counts as
    /// negative.
    pub tol: f64,
    /// One progress line per exact evaluation, sent to the observer of
    /// [`weighted_colgen_bound`].
    pub progress: bool,
}

impl Default for WeightedColgenOptions {
    fn default() -> Self {
        WeightedColgenOptions {
            time_limit: 60.0,
            max_iterations: 100_000,
            anchor_threshold: 1e-4,
            heuristic_width: 6,
            max_columns_per_iteration: 2000,
            exact_nodes: 200_000,
            final_fraction: 0.25,
            tol: 1e-9,
            progress: false,
        }
    }
}

impl WeightedColgenOptions {
    fn check(&self) -> Result<(), ColgenError> {
        let bad = |m: &str| Err(ColgenError::Params(m.to_string()));
        if !(self.time_limit.is_finite() && self.time_limit > 0.0) {
            return bad("time_limit must be a positive number of seconds");
        }
        if !(self.anchor_threshold.is_finite() && self.anchor_threshold >= 0.0) {
            return bad("anchor_threshold must be finite and >= 0");
        }
        if !(0.0..1.0).contains(&self.final_fraction) {
            return bad("final_fraction must be in [0, 1)");
        }
        if self.heuristic_width == 0 || self.max_columns_per_iteration == 0 {
            return bad("heuristic_width and max_columns_per_iteration must be positive");
        }
        if !(self.tol.is_finite() && self.tol >= 0.0) {
            return bad("tol must be finite and >= 0");
        }
        Ok(())
    }
}

/// The weighted column generation bound and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedColgenBound {
    /// Certified lower bound on the optimal weighted SSE: the larger of the best certified
    /// Lagrangian value and the weighted nn bound.
    pub lower_bound: f64,
    /// Best certified Lagrangian value (`-inf` when none was computed).
    pub lagrangian: f64,
    /// The duals of that value (empty when none).
    pub duals: Vec<f64>,
    /// The threshold `tau <= 0` of the search that proved it (for the certificate).
    pub anchor_threshold: f64,
    /// The weighted nn bound (P41), certified.
    pub nn: f64,
    /// Last restricted master LP value (an upper bound on the master LP; NaN if none).
    pub lp_value: f64,
    /// Weighted SSE of the best start partition.
    pub start_sse: f64,
    pub iterations: usize,
    pub columns: usize,
    pub exact_calls: usize,
    pub exact_nodes: u64,
    /// The search behind [`Self::lagrangian`] was not cut.
    pub pricing_exact: bool,
    /// The exact search found no group below `-tol` at the master's duals.
    pub converged: bool,
    pub seconds: f64,
    pub lp_seconds: f64,
    pub pricing_seconds: f64,
    /// HiGHS failed on the master (the loop then ended with the bounds certified so far).
    pub lp_error: Option<String>,
}

/// Check data and weights as the weighted nn bound does: the weights first, then the rows.
fn check_input(x: &[f64], n: usize, d: usize, k: usize, w: &[f64]) -> Result<(), SolverError> {
    crate::error::check_weights(w, n)?;
    crate::error::check_rows(x, n, d, k)
}

/// The anchored Lagrangian bound at duals `y`, rounded outward (proofs/P43 "Floating
/// point", the rounding of P20): `per_anchor[r]` computed values (before the margin `eps`),
/// the `g` smallest of `min(0, L_r) - eps` summed and lowered by `2 (g + 1) u` of their
/// magnitude, the dual sum lowered by `2 (n + 1) u sum |y|`, the total by `2u` of its
/// magnitude, then one `next_down`.
pub fn anchored_bound(y: &[f64], per_anchor: &[f64], g: usize, eps: f64) -> f64 {
    if per_anchor.len() != y.len() {
        return f64::NEG_INFINITY;
    }
    let mut terms: Vec<f64> = per_anchor.iter().map(|&v| v.min(0.0) - eps).collect();
    let g = g.min(terms.len());
    if g > 0 && g < terms.len() {
        terms.select_nth_unstable_by(g - 1, f64::total_cmp);
    }
    // Ascending, so that elementwise larger values give a computed sum at least as large
    // (a cut search never proves more than the full one, also in floating point).
    let chosen = &mut terms[..g];
    chosen.sort_unstable_by(f64::total_cmp);
    let sum: f64 = chosen.iter().sum();
    let abs: f64 = chosen.iter().map(|v| v.abs()).sum();
    let charged = (sum - 2.0 * (g as f64 + 1.0) * UNIT_ROUNDOFF * abs).min(0.0);
    let n = y.len() as f64;
    let ysum: f64 = y.iter().sum();
    let yabs: f64 = y.iter().map(|v| v.abs()).sum();
    let ysum_low = ysum - 2.0 * (n + 1.0) * UNIT_ROUNDOFF * yabs;
    let charged_low = charged - 2.0 * UNIT_ROUNDOFF * charged.abs();
    let total = ysum_low + charged_low;
    (total - 2.0 * UNIT_ROUNDOFF * total.abs()).next_down()
}

/// The certified bound proven by duals `y` at threshold `tau <= 0` with the search limits
/// `limits`: the exact per-anchor search and [`anchored_bound`].
fn certify(
    pr: &WeightedPricing,
    y: &[f64],
    tau: f64,
    limits: SearchLimits,
) -> (f64, pricing::AnchorSearch) {
    let s = pr.anchor_values(y, tau, limits);
    let eps = pr.rc_margin(y, tau);
    let lb = anchored_bound(y, &s.per_anchor, pr.n / pr.k, eps);
    (lb, s)
}

/// Recompute the bound proven by duals `y` at threshold `tau <= 0` for the `n` records of
/// `x` with weights `w` and minimum group size `k` (the verifier of a weighted certificate;
/// no HiGHS, no node budget; `deadline` cuts the search, giving a weaker bound).
/// `rc_lower_bound` is the least per-anchor value (capped at 0, before the margin).
#[allow(clippy::too_many_arguments)] // the data, the weights and the certificate fields
pub fn verify_weighted_lagrangian(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
    y: &[f64],
    tau: f64,
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    check_input(x, n, d, k, w)?;
    if y.len() != n {
        return Err(SolverError::BadDimension { len: y.len(), d: 1 });
    }
    if let Some(index) = y.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index });
    }
    let pr = WeightedPricing::new(x, n, d, k, w);
    let limits = SearchLimits {
        nodes_per_anchor: u64::MAX,
        deadline,
    };
    let (lb, s) = certify(&pr, y, tau, limits);
    Ok(VerifiedBound {
        lower_bound: lb,
        rc_lower_bound: s.per_anchor.iter().copied().fold(0.0, f64::min),
        pricing_exact: s.exact,
        nodes: s.nodes,
    })
}

/// The weighted column generation bound for the `n` records of `x` (row-major, `d`
/// columns) with weights `w`, minimum group size `k`, the master seeded by the groups of
/// the feasible partitions `starts` (labels; every group at least `k` records). The detail
/// lines (with `progress`) go to `obs` ([`Quiet`](super::colgen::Quiet) for none).
#[allow(clippy::too_many_arguments)]
pub fn weighted_colgen_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
    starts: &[&[usize]],
    opts: &WeightedColgenOptions,
    obs: &mut dyn ColgenObserver,
) -> Result<WeightedColgenBound, ColgenError> {
    let started = Instant::now();
    let obs = &mut Gated {
        inner: obs,
        details: opts.progress,
    };
    opts.check()?;
    check_input(x, n, d, k, w)?;
    let deadline = started + Duration::from_secs_f64(opts.time_limit);
    let loop_end = started + Duration::from_secs_f64(opts.time_limit * (1.0 - opts.final_fraction));
    // The weighted nn bound and its (uncertified) duals come from one scan of the pairs.
    let (nn_bound, nn_duals) = weighted_nn_bound_and_duals(x, n, d, k, w)?;
    let nn = nn_bound.lower_bound;
    let pr = WeightedPricing::new(x, n, d, k, w);
    let (groups, mut seen, start_sse) = start_columns(&pr, n, k, starts)?;
    let g_max = n / k;
    let tau = -opts.anchor_threshold * start_sse / g_max as f64;
    let tol = opts.tol * start_sse / g_max as f64;
    // The master sees costs divided by `unit` (its duals times `unit` are the duals of the
    // weighted problem): keeps HiGHS' tolerances meaningful at any data scale. Any duals
    // give a valid bound, so this changes only which duals are found.
    let unit = if start_sse > 0.0 && start_sse.is_finite() {
        start_sse / n as f64
    } else {
        1.0
    };
    let costs: Vec<f64> = groups.iter().map(|g| pr.group_cost(g) / unit).collect();
    let mut master = Master::new(n, groups, costs, None).map_err(ColgenError::Lp)?;
    let mut out = WeightedColgenBound {
        lower_bound: nn,
        lagrangian: f64::NEG_INFINITY,
        duals: Vec::new(),
        anchor_threshold: tau,
        nn,
        lp_value: f64::NAN,
        start_sse,
        iterations: 0,
        columns: master.columns.len(),
        exact_calls: 0,
        exact_nodes: 0,
        pricing_exact: false,
        converged: false,
        seconds: 0.0,
        lp_seconds: 0.0,
        pricing_seconds: 0.0,
        lp_error: None,
    };
    // The weighted nn duals are the first point evaluated (cheap: every group prices out
    // there in exact arithmetic, P43 L3).
    let mut last_y = nn_duals;
    let mut evaluated_last = false;
    let keep = |out: &mut WeightedColgenBound, y: &[f64], lb: f64, s: &pricing::AnchorSearch| {
        out.exact_calls += 1;
        out.exact_nodes += s.nodes;
        if lb > out.lagrangian {
            out.lagrangian = lb;
            out.duals = y.to_vec();
            out.pricing_exact = s.exact;
        }
    };
    {
        let t = Instant::now();
        let (lb, s) = certify(&pr, &last_y, tau, limits(opts.exact_nodes, loop_end));
        keep(&mut out, &last_y, lb, &s);
        out.pricing_seconds += t.elapsed().as_secs_f64();
    }
    while out.iterations < opts.max_iterations && Instant::now() < loop_end {
        out.iterations += 1;
        let t = Instant::now();
        let left = loop_end.saturating_duration_since(t).as_secs_f64();
        let sol = master.solve(left);
        out.lp_seconds += t.elapsed().as_secs_f64();
        let sol = match sol {
            Ok(Some(sol)) => sol,
            Ok(None) => {
                // The time limit, or HiGHS without an optimum after its retries.
                out.lp_error = master.failure().map(str::to_string);
                break;
            }
            Err(e) => {
                // The bound never rests on the LP: keep what was certified so far.
                out.lp_error = Some(e);
                break;
            }
        };
        out.lp_value = sol.value * unit;
        let y: Vec<f64> = sol.duals.iter().map(|v| v * unit).collect();
        let t = Instant::now();
        let mut found = pr.heuristic(&y, opts.heuristic_width, tol);
        evaluated_last = false;
        if found.is_empty() {
            // Heuristic dry: the exact search proves a bound and finds what it missed.
            let (lb, s) = certify(&pr, &y, tau, limits(opts.exact_nodes, loop_end));
            keep(&mut out, &y, lb, &s);
            evaluated_last = s.exact;
            found = s.negatives.into_iter().filter(|g| g.1 < -tol).collect();
            found.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
            obs.detail(format_args!(
                "weighted colgen: iteration {}, LP {:.6}, bound {:.6}, {} negative groups, exact {}",
                out.iterations,
                out.lp_value,
                lb,
                found.len(),
                s.exact
            ));
            if found.is_empty() && s.exact {
                out.converged = true;
            }
        }
        out.pricing_seconds += t.elapsed().as_secs_f64();
        last_y = y;
        if out.converged {
            break;
        }
        let (add_g, add_c) =
            new_columns(&pr, found, &mut seen, opts.max_columns_per_iteration, unit);
        if add_g.is_empty() {
            break; // nothing new: the master cannot move (a cut search found only old groups)
        }
        if let Err(e) = master.add_columns(add_g, add_c) {
            out.lp_error = Some(e);
            break;
        }
        out.columns = master.columns.len();
    }
    if !evaluated_last && !out.converged {
        // The last duals with the rest of the time and no node budget.
        let t = Instant::now();
        let lim = SearchLimits {
            nodes_per_anchor: u64::MAX,
            deadline: Some(deadline),
        };
        let (lb, s) = certify(&pr, &last_y, tau, lim);
        keep(&mut out, &last_y, lb, &s);
        out.pricing_seconds += t.elapsed().as_secs_f64();
    }
    out.lower_bound = out.lagrangian.max(nn);
    out.seconds = started.elapsed().as_secs_f64();
    Ok(out)
}

/// Every group of every start partition once (checked: at least `k` records each), the set
/// of them, and the least SSE of a start partition.
#[allow(clippy::type_complexity)]
fn start_columns(
    pr: &WeightedPricing,
    n: usize,
    k: usize,
    starts: &[&[usize]],
) -> Result<(Vec<Vec<u32>>, HashSet<Vec<u32>>, f64), ColgenError> {
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let mut groups = Vec::new();
    let mut start_sse = f64::INFINITY;
    if starts.is_empty() {
        return Err(ColgenError::BadLabels("no start partition".into()));
    }
    for labels in starts {
        let gs = start_groups(labels, n, k).map_err(ColgenError::BadLabels)?;
        let sse: f64 = gs.iter().map(|g| pr.group_cost(g)).sum();
        start_sse = start_sse.min(sse);
        for g in gs {
            if seen.insert(g.clone()) {
                groups.push(g);
            }
        }
    }
    Ok((groups, seen, start_sse))
}

/// The groups of `found` not `seen` before (now seen), at most `max`, with their costs in
/// the master's unit.
fn new_columns(
    pr: &WeightedPricing,
    found: Vec<(Vec<u32>, f64)>,
    seen: &mut HashSet<Vec<u32>>,
    max: usize,
    unit: f64,
) -> (Vec<Vec<u32>>, Vec<f64>) {
    let mut add_g = Vec::new();
    let mut add_c = Vec::new();
    for (g, _) in found {
        if add_g.len() >= max {
            break;
        }
        if seen.insert(g.clone()) {
            add_c.push(pr.group_cost(&g) / unit);
            add_g.push(g);
        }
    }
    (add_g, add_c)
}

fn limits(nodes: u64, deadline: Instant) -> SearchLimits {
    SearchLimits {
        nodes_per_anchor: nodes,
        deadline: Some(deadline),
    }
}
