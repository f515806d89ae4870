//! # Subgradient ascent on the medoid-anchored Lagrangian bound
//!
//! The anchored bound of proofs/P20, `LB(y) = sum y + (sum of the floor(n/k) smallest
//! min(0, L_r(y)))` with `L_r(y)` the least reduced cost of a group whose medoid is `r`, is
//! the Lagrangian dual function of "cover every record once with at most floor(n/k) groups
//! of distinct medoids" with the covering rows relaxed, so it is concave in `y` and
//! `s_i = 1 - #{chosen groups holding i}` is a supergradient at `y` when the chosen groups
//! are the per-medoid minimisers. Exact per-anchor pricing at k = 10 costs seconds per
//! call, so candidates are chosen on a *model*: the same function with `L_r` replaced by the
//! least reduced cost over a pool of groups (every negative group met by the heuristic
//! pricing from every record, [`super::pricing::heuristic`], and every negative group an
//! exact pricing returned), an upper estimate of `LB(y)`, not a bound.
//!
//! [`ascend`] is a box-step method (Marsten, Hogan and Blankenship 1975): inside a box of
//! half-width `delta` around the centre (the best certified point) it takes projected
//! subgradient steps on the model and keeps the point of the best model value; exact
//! per-anchor pricing certifies that candidate (with the anchor threshold `tau <= 0` of P20,
//! which charges every anchor at most `tau` and prunes the search against it). A better
//! certified value moves the centre there and widens the box (serious step); otherwise the
//! box halves, and the exact search's negative groups have refined the model (null step).
//! The reported bound is the best certified value over all evaluated points; nothing about
//! the ascent enters its proof (proofs/P20, "Choosing the duals").
//!
//! ## Complexity
//! Per iteration: the heuristic pricing from every record (O(n L k^2), L = pool size) and
//! one pass over the pool (O(sum of group sizes)); per box one per-anchor exact pricing
//! within its share (`check_share`) of the time left.
//!
//! ## References
//! - Marsten, R. E., Hogan, W. W. and Blankenship, J. W. (1975). The boxstep method for
//!   large-scale optimization. Operations Research 23(3), 389-405.
//! - Held, M., Wolfe, P. and Crowder, H. P. (1974). Validation of subgradient optimization.
//!   Mathematical Programming 6, 62-88.

use super::anchors::anchored_best;
use super::cuts::CutDuals;
use super::pricing::{
    exact_rc_bound_anchor_local_stop, heuristic, weak_rc_bound, ExactBudget, Geometry, StopBelow,
};
use super::{lagrangian_with_cuts, rc_margin};
use crate::deadline::Deadline;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Groups with their medoid and pair sum `P(S)`, so that re-pricing is O(|S|).
#[derive(Default)]
pub struct GroupPool {
    members: Vec<Vec<u32>>,
    medoid: Vec<u32>,
    pair_sum: Vec<f64>,
    known: HashSet<Vec<u32>>,
}

impl GroupPool {
    /// A pool holding `groups` (each sorted here; groups below `k` records left out).
    pub fn seeded(geo: &Geometry, groups: &[Vec<u32>]) -> GroupPool {
        let mut pool = GroupPool::default();
        for g in groups {
            let mut g = g.clone();
            g.sort_unstable();
            pool.add(geo, g);
        }
        pool
    }

    /// Add a group (members sorted ascending); false when already present.
    pub fn add(&mut self, geo: &Geometry, members: Vec<u32>) -> bool {
        if members.len() < geo.k || self.known.contains(&members) {
            return false;
        }
        let mut best = (f64::INFINITY, 0u32);
        let mut p = 0.0;
        for &a in &members {
            let row: f64 = members.iter().map(|&b| geo.d(a as usize, b as usize)).sum();
            p += row;
            if row < best.0 {
                best = (row, a);
            }
        }
        self.known.insert(members.clone());
        self.members.push(members);
        self.medoid.push(best.1);
        self.pair_sum.push(p / 2.0);
        true
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// The groups in the order added (members ascending).
    pub fn groups(&self) -> &[Vec<u32>] {
        &self.members
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Heuristic pricing at `y` from every record: the pool takes each group found with
    /// reduced cost below `-tol`. Returns how many were new (they are the pool's last groups).
    pub fn add_heuristic_negatives(&mut self, geo: &Geometry, y: &[f64], tol: f64) -> usize {
        let before = self.len();
        for r in 0..geo.n {
            if let Some((rc, members)) = heuristic(geo, y, r) {
                if rc < -tol {
                    self.add(geo, members);
                }
            }
        }
        self.len() - before
    }

    /// Estimated anchored Lagrangian value at `y` (not a bound): `sum y` plus the
    /// `groups_max` most negative per-medoid minima over the pool; returns it with the
    /// indices of the chosen groups.
    pub fn estimate(&self, y: &[f64], groups_max: usize) -> (f64, Vec<usize>) {
        let mut per_medoid: Vec<(f64, usize)> = vec![(0.0, usize::MAX); y.len()];
        for (j, g) in self.members.iter().enumerate() {
            let rc =
                self.pair_sum[j] / g.len() as f64 - g.iter().map(|&i| y[i as usize]).sum::<f64>();
            let slot = &mut per_medoid[self.medoid[j] as usize];
            if rc < slot.0 {
                *slot = (rc, j);
            }
        }
        let mut neg: Vec<(f64, usize)> = per_medoid
            .into_iter()
            .filter(|&(_, j)| j != usize::MAX)
            .collect();
        neg.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        neg.truncate(groups_max);
        let est = y.iter().sum::<f64>() + neg.iter().map(|v| v.0).sum::<f64>();
        (est, neg.into_iter().map(|v| v.1).collect())
    }
}

/// One certified evaluation ([`certify_check`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The certified (rounded) bound.
    pub value: f64,
    /// True when the pricing search finished within its deadline (else `value` is still
    /// valid but rests on root bounds for the anchors left: a cut check says little about
    /// the point).
    pub complete: bool,
    /// Seconds of the pricing search per group size `k..` (index `m - k`).
    pub seconds_per_size: Vec<f64>,
}

/// The certified bound at duals `y` (no cuts): the larger of the plain (P09) and the
/// anchored (P20) Lagrangian bound from one per-anchor exact pricing with anchor threshold
/// `tau <= 0` (incumbent carried over the sizes, P20 "Carried incumbent"; sizes above k
/// completed from size k when nothing is below `tau` there, P20 "Size completion") and deadline
/// `until`; the negative groups it met go into `pool`.
pub fn certify_check<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
) -> Check {
    certify_check_above(geo, y, d, tau, until, pool, f64::NEG_INFINITY).0
}

/// [`certify_check`] that stops searching (root bounds for the anchors left, so the value
/// stays valid but weak) as soon as its value provably cannot exceed `level`
/// ([`StopBelow`]); the flag says whether it stopped so.
pub fn certify_check_above<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
    level: f64,
) -> (Check, bool) {
    let budget = ExactBudget {
        nodes: u64::MAX,
        deadline: until.into(),
        max_columns: 20 * geo.n,
        stop_after_columns: usize::MAX,
    };
    certify_check_budget(geo, y, d, tau, budget, pool, level)
}

/// [`certify_check_above`] with any pricing budget (a node budget cuts the search where a
/// deadline would, but reproducibly: the tests of the certificate claims use it).
pub(crate) fn certify_check_budget(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    budget: ExactBudget,
    pool: &mut GroupPool,
    level: f64,
) -> (Check, bool) {
    let cuts = CutDuals::none();
    let weak = weak_rc_bound(geo, y);
    let mut per_size = Vec::new();
    let margin = rc_margin(geo, y, d, &cuts);
    let g = geo.n / geo.k;
    let mut stop = StopBelow::new(level, y.iter().sum(), tau.min(0.0), weak, g);
    let ex =
        exact_rc_bound_anchor_local_stop(geo, y, budget, tau, margin, &mut per_size, &mut stop);
    for (_, g) in ex.columns {
        pool.add(geo, g);
    }
    let plain = lagrangian_with_cuts(geo, y, d, &cuts, g, weak.max(ex.rc_lower_bound).min(0.0));
    let check = Check {
        value: plain.max(anchored_best(geo, y, d, &cuts, &per_size, weak)),
        complete: ex.exact,
        seconds_per_size: ex.seconds_per_size,
    };
    (check, stop.fired)
}

/// [`certify_check`]'s value.
pub fn certify<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
) -> f64 {
    certify_check(geo, y, d, tau, until, pool).value
}

/// Parameters of [`ascend`].
#[derive(Debug, Clone, PartialEq)]
pub struct SubgradOptions {
    /// Half-width of the first trust box around the centre, relative to the mean |centre|.
    pub box_width: f64,
    /// Model (pool) subgradient steps per box.
    pub inner: usize,
    /// Anchor threshold of the exact pricing as a fraction of `UB / floor(n/k)` (P20's
    /// `tau = -threshold UB / floor(n/k)`; 0: exact per-anchor minima).
    pub threshold: f64,
    /// Most of the remaining time one exact evaluation may take.
    pub check_share: f64,
}

impl Default for SubgradOptions {
    fn default() -> Self {
        SubgradOptions {
            box_width: 0.05,
            inner: 30,
            threshold: 0.002,
            check_share: 0.3,
        }
    }
}

/// Result of [`ascend`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ascent {
    /// Best certified (rounded) bound over the evaluated points (`-inf` if none).
    pub lower_bound: f64,
    /// Its duals.
    pub duals: Vec<f64>,
    /// Anchor threshold `tau` of every exact evaluation (proofs/P20).
    pub tau: f64,
    /// Model steps made.
    pub iterations: usize,
    /// (model steps so far, model estimate, certified bound, seconds) per exact evaluation.
    pub checks: Vec<(usize, f64, f64, f64)>,
}

/// Box-step ascent (Marsten, Hogan and Blankenship 1975) from `y_start` on the anchored
/// bound: within a box around the centre (the best certified point), projected subgradient
/// steps on the pool model pick a candidate; exact pricing certifies it; a better certified
/// value moves the centre and widens the box (serious step), otherwise the box halves and the
/// exact pricing's negative groups refine the model (null step). `ub` (the best known SSE)
/// scales the anchor threshold; `seed_groups` start the pool. Stops at `deadline`.
#[allow(clippy::too_many_arguments)]
pub fn ascend<'a>(
    geo: &Geometry,
    d: usize,
    y_start: &[f64],
    ub: f64,
    seed_groups: &[Vec<u32>],
    opts: &SubgradOptions,
    deadline: impl Into<Deadline<'a>>,
    progress: bool,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let t0 = Instant::now();
    let n = geo.n;
    let g = (n / geo.k).max(1);
    let tau = -(opts.threshold * ub.abs() / g as f64);
    let mut pool = GroupPool::default();
    for s in seed_groups {
        let mut s = s.clone();
        s.sort_unstable();
        pool.add(geo, s);
    }
    let mut out = Ascent {
        lower_bound: f64::NEG_INFINITY,
        duals: Vec::new(),
        tau,
        iterations: 0,
        checks: Vec::new(),
    };
    let check = |y: &[f64], est: f64, pool: &mut GroupPool, out: &mut Ascent| -> f64 {
        let t = Instant::now();
        let v = certify(geo, y, d, tau, deadline.part(opts.check_share), pool);
        let secs = t.elapsed().as_secs_f64();
        out.checks.push((out.iterations, est, v, secs));
        if progress {
            eprintln!(
                "subgradient: {:7.1} s  step {}  model {est:.6}  certified {v:.6} \
                 ({secs:.1} s, pool {})",
                t0.elapsed().as_secs_f64(),
                out.iterations,
                pool.len()
            );
        }
        if v > out.lower_bound {
            out.lower_bound = v;
            out.duals = y.to_vec();
        }
        v
    };
    let mut centre = y_start.to_vec();
    check(&centre, f64::NAN, &mut pool, &mut out);
    let mean_abs = centre.iter().map(|v| v.abs()).sum::<f64>() / n.max(1) as f64;
    let mut delta = opts.box_width * mean_abs.max(f64::MIN_POSITIVE);
    while deadline.left() > Duration::from_millis(50) {
        let mut y = centre.clone();
        let mut best: Option<(f64, Vec<f64>)> = None;
        for it in 0..opts.inner {
            if deadline.passed() {
                break;
            }
            pool.add_heuristic_negatives(geo, &y, 0.0);
            let (est, chosen) = pool.estimate(&y, g);
            out.iterations += 1;
            if it > 0 && best.as_ref().is_none_or(|b| est > b.0) {
                best = Some((est, y.clone()));
            }
            let mut s = vec![1.0; n];
            for &j in &chosen {
                for &i in &pool.members[j] {
                    s[i as usize] -= 1.0;
                }
            }
            if s.iter().all(|&v| v == 0.0) {
                break; // the chosen groups partition the records
            }
            let step = 0.5 * delta / ((it + 1) as f64).sqrt();
            for ((yi, si), ci) in y.iter_mut().zip(&s).zip(&centre) {
                *yi = (*yi + step * si).clamp(ci - delta, ci + delta);
            }
        }
        let Some((est, cand)) = best else {
            break;
        };
        if deadline.passed() {
            break;
        }
        let before = out.lower_bound;
        let v = check(&cand, est, &mut pool, &mut out);
        if v > before {
            centre = cand;
            delta *= 1.5;
        } else {
            delta *= 0.5;
        }
        if delta < 1e-9 * mean_abs {
            break;
        }
    }
    out
}

impl GroupPool {
    /// Cyclic projections of `y` onto the half-spaces `y(S) <= SSE(S)` of the pool's groups
    /// (Kaczmarz / Agmon: a group with `rc(S) < 0` lowers each member's dual by `-rc(S)/|S|`,
    /// the Euclidean projection onto its half-space), at most `passes` sweeps, stopping when
    /// no group is below `-tol`. Returns the most negative reduced cost left.
    pub fn project(&self, y: &mut [f64], passes: usize, tol: f64) -> f64 {
        let mut worst = 0.0f64;
        for _ in 0..passes {
            worst = 0.0;
            for (j, g) in self.members.iter().enumerate() {
                let rc = self.pair_sum[j] / g.len() as f64
                    - g.iter().map(|&i| y[i as usize]).sum::<f64>();
                if rc < -tol {
                    worst = worst.min(rc);
                    let drop = -rc / g.len() as f64;
                    for &i in g {
                        y[i as usize] -= drop;
                    }
                }
            }
            if worst >= -tol {
                break;
            }
        }
        worst
    }

    /// Lowers `y` as little as possible in total (least `sum z`, `y - z`, `z >= 0`) so that
    /// every group of the pool has `rc(S) >= 0`: a covering LP over the groups negative at
    /// `y` (HiGHS simplex; groups not negative at `y` stay so since duals only fall), then
    /// [`GroupPool::project`] clears what HiGHS' tolerances leave. Keeps more of `sum y` than
    /// the cyclic projections alone. `None` when HiGHS fails (`y` untouched). Returns the
    /// most negative reduced cost left.
    pub fn project_lp(&self, y: &mut [f64], tol: f64) -> Option<f64> {
        use highs::{ColProblem, HighsModelStatus, Model, Sense};
        let violated: Vec<(usize, f64)> = self
            .members
            .iter()
            .enumerate()
            .filter_map(|(j, g)| {
                let rc = self.pair_sum[j] / g.len() as f64
                    - g.iter().map(|&i| y[i as usize]).sum::<f64>();
                (rc < -tol).then_some((j, -rc))
            })
            .collect();
        if violated.is_empty() {
            return Some(0.0);
        }
        // Columns: the records of the violated groups, each with its rows.
        let mut rows_of: std::collections::BTreeMap<u32, Vec<usize>> = Default::default();
        for (r, &(j, _)) in violated.iter().enumerate() {
            for &i in &self.members[j] {
                rows_of.entry(i).or_default().push(r);
            }
        }
        // Right sides scaled by a power of two (exact) to about 1: HiGHS' tolerances are
        // absolute, and the violations may be of any magnitude.
        let largest = violated.iter().map(|&(_, v)| v).fold(0.0, f64::max);
        let scale = crate::sse::pow2_near(1.0 / largest);
        let mut pb = ColProblem::default();
        let rows: Vec<_> = violated
            .iter()
            .map(|&(_, v)| pb.add_row(v * scale..))
            .collect();
        for rs in rows_of.values() {
            pb.add_column(1.0, 0.0.., rs.iter().map(|&r| (rows[r], 1.0)));
        }
        let mut model = Model::try_new(pb).ok()?;
        model.make_quiet();
        model.set_sense(Sense::Minimise);
        let solved = model.try_solve().ok()?;
        if solved.status() != HighsModelStatus::Optimal {
            return None;
        }
        let z = solved.get_solution().columns().to_vec();
        if z.len() != rows_of.len() {
            return None;
        }
        for (&i, &zi) in rows_of.keys().zip(&z) {
            y[i as usize] -= zi.max(0.0) / scale;
        }
        Some(self.project(y, 30, tol))
    }
}

/// How push-and-project brings a candidate onto the pool's half-spaces `y(S) <= SSE(S)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Projection {
    /// Cyclic projections of the candidate in place ([`GroupPool::project`]).
    #[default]
    Cyclic,
    /// The least total lowering of the unprojected candidate ([`GroupPool::project_lp`]),
    /// cyclic projections where HiGHS fails.
    LeastLowering,
}

/// Brings the candidate onto the pool's half-spaces: `cand` (already lowered by earlier
/// projections at this step) in place for [`Projection::Cyclic`], from the unprojected
/// `raw` for [`Projection::LeastLowering`]. Returns the most negative reduced cost left.
fn project_candidate(
    pool: &GroupPool,
    how: Projection,
    raw: &[f64],
    cand: &mut [f64],
    tol: f64,
) -> f64 {
    if how == Projection::LeastLowering {
        let mut y = raw.to_vec();
        if let Some(left) = pool.project_lp(&mut y, tol) {
            cand.copy_from_slice(&y);
            return left;
        }
    }
    pool.project(cand, 30, tol)
}

/// Most rounds of heuristic pricing and projection per candidate of [`push_project`].
const HEURISTIC_ROUNDS: usize = 20;

/// A check of [`push_project`] gets at most this many times the slowest complete check so far
/// (and at least [`MIN_CHECK_SECS`] or [`MIN_CHECK_SHARE`] of the time left): a search that
/// runs much longer is at a candidate with many negative groups, whose cut value is weak.
const CHECK_GROWTH: f64 = 3.0;

/// Least time a check of [`push_project`] is given (seconds).
const MIN_CHECK_SECS: f64 = 5.0;

/// [`push_project`] ends once its step falls below this fraction of the first step.
const MIN_STEP_RATIO: f64 = 1e-3;

/// Least share of the time left a check of [`push_project`] is given.
const MIN_CHECK_SHARE: f64 = 0.1;

/// Push-and-project ascent from `y_start` (a certified point) along `h`: the candidate
/// `y + t h` is projected onto the half-spaces of the pool's groups (`projection`;
/// the pool starts with `seed_groups` and collects every negative group the exact searches
/// meet, and the groups heuristic pricing finds at the candidate, in up to 20 rounds of
/// pricing and projection) and certified by one per-anchor exact pricing ([`certify_check`],
/// threshold `tau`, at most `check_share` of the time left and at most 3 times the slowest
/// complete check so far, at least a tenth of the time left). A better certified value moves `y` there and grows `t` by 1.5. A
/// complete check that does not improve refutes the candidate: `t` halves (the pool now
/// holds the groups that spoiled it, so the next projection avoids them). A check cut by its
/// time keeps `t` when it added groups to the pool (the next projection at the same step
/// differs), else halves it. With `stop_early` a check stops as soon as it provably cannot
/// beat the best certified value ([`certify_check_above`]; effort only: it counts as cut).
/// The ascent ends at the deadline or once `t` falls below `t_first / 1000`.
/// The reported bound is the best certified value; the steps and
/// the projections only choose the duals (proofs/P20, "Choosing the duals").
#[allow(clippy::too_many_arguments)]
pub fn push_project<'a>(
    geo: &Geometry,
    d: usize,
    y_start: &[f64],
    h: &[f64],
    t_first: f64,
    tau: f64,
    seed_groups: &[Vec<u32>],
    projection: Projection,
    check_share: f64,
    stop_early: bool,
    deadline: impl Into<Deadline<'a>>,
    progress: bool,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let mut pool = GroupPool::seeded(geo, seed_groups);
    push_project_from(
        geo,
        d,
        (y_start, None),
        h,
        t_first,
        tau,
        &mut pool,
        projection,
        check_share,
        stop_early,
        deadline,
        progress,
    )
}

/// [`push_project`] from `start = (y, value)` with the caller's `pool` (it keeps the groups
/// met): with `value = Some(v)`, `v` must be a valid bound at `y` (certified there); the start
/// is then not checked again, and until a check completes each gets the first check's
/// share of the time.
#[allow(clippy::too_many_arguments)]
pub fn push_project_from<'a>(
    geo: &Geometry,
    d: usize,
    start: (&[f64], Option<f64>),
    h: &[f64],
    t_first: f64,
    tau: f64,
    pool: &mut GroupPool,
    projection: Projection,
    check_share: f64,
    stop_early: bool,
    deadline: impl Into<Deadline<'a>>,
    progress: bool,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let (y_start, known) = start;
    let t0 = Instant::now();
    let mut out = Ascent {
        lower_bound: f64::NEG_INFINITY,
        duals: Vec::new(),
        tau,
        iterations: 0,
        checks: Vec::new(),
    };
    let scale = y_start.iter().map(|v| v.abs()).sum::<f64>() / y_start.len().max(1) as f64;
    let tol = 1e-9 * scale.max(f64::MIN_POSITIVE);
    let mut y = y_start.to_vec();
    let mut t = t_first;
    let mut first = known.is_none();
    if let Some(v) = known {
        out.lower_bound = v;
        out.duals = y.clone();
    }
    // Slowest complete check so far (seconds): scales the next checks' time.
    let mut slowest = 0.0f64;
    while deadline.left() > Duration::from_millis(50) {
        let mut cand: Vec<f64> = if first {
            y.clone()
        } else {
            y.iter().zip(h).map(|(a, b)| a + t * b).collect()
        };
        let mut left_over = 0.0;
        if !first {
            let raw = cand.clone();
            left_over = project_candidate(pool, projection, &raw, &mut cand, tol);
            // Cheap rounds before the exact check: heuristic pricing from every record finds
            // negative groups at the candidate, the pool takes them and the candidate is
            // projected again (the exact check is slow where many groups are negative).
            for _ in 0..HEURISTIC_ROUNDS {
                if deadline.passed() {
                    break;
                }
                let added = pool.add_heuristic_negatives(geo, &cand, tol);
                left_over = project_candidate(pool, projection, &raw, &mut cand, tol);
                if added == 0 {
                    break;
                }
            }
        }
        let now = Instant::now();
        let share = deadline.left().mul_f64(check_share);
        // A check without a reference gets its share: the first one (the start point), and
        // after a known start every one until a check completes.
        let cap = if first || (known.is_some() && slowest == 0.0) {
            share
        } else {
            let left = deadline.seconds_left();
            let floor = MIN_CHECK_SECS.max(MIN_CHECK_SHARE * left);
            share.min(Duration::from_secs_f64((CHECK_GROWTH * slowest).max(floor)))
        };
        let pool_before = pool.len();
        // A candidate whose sum is at or below the best value cannot improve on it (every
        // check's value is at most sum y): with `stop_early` such a check stops at once.
        let level = if stop_early {
            out.lower_bound
        } else {
            f64::NEG_INFINITY
        };
        let until = deadline.until(now + cap);
        let (check, stopped) = certify_check_above(geo, &cand, d, tau, until, pool, level);
        let v = check.value;
        let secs = now.elapsed().as_secs_f64();
        if check.complete {
            slowest = slowest.max(secs);
        }
        out.iterations += 1;
        out.checks
            .push((out.iterations, cand.iter().sum(), v, secs));
        if progress {
            let sizes: Vec<String> = check
                .seconds_per_size
                .iter()
                .map(|s| format!("{s:.1}"))
                .collect();
            eprintln!(
                "push-project: {:7.1} s  t {t:.4}  sum y {:.6}  certified {v:.6} ({secs:.1} s, \
                 {}, per size [{}] s, pool {}, left {left_over:.3e})",
                t0.elapsed().as_secs_f64(),
                cand.iter().sum::<f64>(),
                if stopped {
                    "stopped"
                } else if check.complete {
                    "complete"
                } else {
                    "cut"
                },
                sizes.join(" "),
                pool.len()
            );
        }
        if v > out.lower_bound {
            out.lower_bound = v;
            out.duals = cand.clone();
            if !first {
                y = cand;
                t *= 1.5;
            }
        } else if check.complete || pool.len() == pool_before {
            t *= 0.5;
        }
        first = false;
        // A thousandfold below the first step (about ten more halvings than growths): what
        // is left along this direction is small, and the time goes to the next phase.
        if t < MIN_STEP_RATIO * t_first || !t.is_finite() {
            break;
        }
    }
    out
}

/// Most restarts of [`slack_push`]: its study runs gained less than 1 % of the bound after
/// the third (study-colgen.txt 18-slack).
pub const SLACK_ROUNDS: usize = 4;

/// First step of each [`slack_push`] round along the slack direction (`t = 1` prices every
/// group of the partition at 0).
pub const SLACK_T_FIRST: f64 = 0.25;

/// Push-and-project in rounds along the slack direction of the partition `groups` (disjoint,
/// covering every record; [`super::ascent::slack_direction`]: each group's `SSE(S) - y(S)`
/// spread evenly over its members), recomputed at the best point after each round; from
/// `start = (y, value)`, `value` a valid bound certified at `y`. A fixed direction stalls
/// once its projections stop paying; the partition's slacks at the new point give a fresh
/// one. Each of at most [`SLACK_ROUNDS`] rounds gets the time left divided by the rounds
/// left; `pool` (seeded by the caller) keeps every group met across the rounds, so a new
/// round's projections avoid the groups that refuted the last one's candidates. A round
/// without a better certified value ends it. The reported bound is the best certified value (at least
/// `value`); the directions only choose the duals (proofs/P20, "Choosing the duals").
#[allow(clippy::too_many_arguments)]
pub fn slack_push<'a>(
    geo: &Geometry,
    x: &[f64],
    d: usize,
    start: (&[f64], f64),
    groups: &[Vec<u32>],
    pool: &mut GroupPool,
    projection: Projection,
    tau: f64,
    stop_early: bool,
    deadline: impl Into<Deadline<'a>>,
    progress: bool,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let mut out = Ascent {
        lower_bound: start.1,
        duals: start.0.to_vec(),
        tau,
        iterations: 0,
        checks: Vec::new(),
    };
    for round in 0..SLACK_ROUNDS {
        if deadline.passed() {
            break;
        }
        let until = deadline.part(1.0 / (SLACK_ROUNDS - round) as f64);
        let h = super::ascent::slack_direction(x, d, groups, &out.duals);
        let asc = push_project_from(
            geo,
            d,
            (&out.duals, Some(out.lower_bound)),
            &h,
            SLACK_T_FIRST,
            tau,
            pool,
            projection,
            0.5,
            stop_early,
            until,
            progress,
        );
        out.iterations += asc.iterations;
        out.checks.extend(asc.checks);
        if progress {
            eprintln!(
                "slack-push: round {round}: sum h {:.6}, best {:.6}",
                h.iter().sum::<f64>(),
                asc.lower_bound
            );
        }
        if asc.lower_bound <= out.lower_bound {
            break;
        }
        out.lower_bound = asc.lower_bound;
        out.duals = asc.duals;
    }
    out
}

/// Each step of [`tighten`] multiplies the anchor threshold by this.
pub const TIGHTEN_FACTOR: f64 = 0.4;

/// What [`tighten`] certified: the best value over its checks and the threshold it was
/// certified at (`NEG_INFINITY` and `tau` when no check ran), and the checks run.
#[derive(Debug, Clone, PartialEq)]
pub struct Tightened {
    pub value: f64,
    pub tau: f64,
    pub checks: usize,
}

/// Re-certifies `y` at thresholds `tau` times 0.4, 0.16, ... ([`certify_check`]) until the
/// deadline, a check cut by it, or a step that does not raise the value. A search to a
/// smaller threshold costs more but loses less: a finished check certifies each anchor only
/// down to its threshold, so `floor(n/k) |tau|` is what a threshold can cost at duals whose
/// groups are all near 0 (proofs/P20: every `tau <= 0` gives a valid bound, so the best
/// value is kept with its threshold).
pub fn tighten<'a>(
    geo: &Geometry,
    d: usize,
    y: &[f64],
    tau: f64,
    deadline: impl Into<Deadline<'a>>,
    progress: bool,
) -> Tightened {
    let deadline: Deadline = deadline.into();
    let mut out = Tightened {
        value: f64::NEG_INFINITY,
        tau,
        checks: 0,
    };
    let mut at = tau;
    while at < 0.0 && !deadline.passed() {
        let t = Instant::now();
        at *= TIGHTEN_FACTOR;
        let check = certify_check(geo, y, d, at, deadline, &mut GroupPool::default());
        out.checks += 1;
        if progress {
            eprintln!(
                "tighten: threshold {at:.6}: {:.6} ({}, {:.1} s)",
                check.value,
                if check.complete { "complete" } else { "cut" },
                t.elapsed().as_secs_f64()
            );
        }
        let rose = check.value > out.value;
        if rose {
            out.value = check.value;
            out.tau = at;
        }
        if !check.complete || !rose {
            break;
        }
    }
    out
}
