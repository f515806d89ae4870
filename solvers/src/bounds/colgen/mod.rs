//! # The column generation lower bound
//!
//! Set-partitioning master over groups of `k..2k-1` records (P03: some optimal partition
//! uses only such groups), `min sum_S SSE(S) x_S` s.t. every record is covered exactly once,
//! `x >= 0`, solved by column generation (Aloise, Hansen, Rocha and Santi 2014):
//!
//! 1. The master ([`master`]) starts from the groups of one or more feasible partitions
//!    (labels given by the caller, every group of at least `k` records; [`colgen_bound_from`]
//!    takes several, e.g. the best known partition next to a quick heuristic's), so it is
//!    feasible from the start; it is kept in HiGHS (warm basis) and grows by `Highs_addCols`.
//! 2. Each iteration reads the row duals `y_LP` and prices at the smoothed point
//!    `y_sep = alpha y_centre + (1 - alpha) y_LP` (Wentges smoothing). The stability centre
//!    `y_centre` is the dual vector of the best Lagrangian bound found so far (before the
//!    first bound: the previous separation point). Heuristic pricing ([`pricing::heuristic`])
//!    from every record adds the groups whose reduced cost w.r.t. `y_LP` is negative (at
//!    most `max_columns_per_iteration`, most negative first). On a mispricing (no such group)
//!    it prices at `y_LP` itself and halves `alpha` (Wentges' rule, so the separation point
//!    cannot stall away from the LP duals).
//! 3. The **Lagrangian bound** `LB(y) = sum_i y_i + floor(n/k) min(0, RC_lb(y))` is valid for
//!    every `y` as soon as `RC_lb(y)` is a proven lower bound on the minimum reduced cost
//!    (proofs/P09). `RC_lb` is the larger of the weak nearest-neighbour pricing bound and the
//!    branch-and-bound pricing bound (`ExactSearch`, with the medoid star bound
//!    of P09 B3), which is proven even when its budget cuts it short (`pricing_exact` says
//!    whether it was not cut). It is evaluated every `exact_every` iterations at `y_sep`
//!    (default: never), whenever heuristic pricing finds nothing (then it stops after
//!    `exact_stop_after` negative columns: their bound is valid but weaker), and once at the
//!    end with the remaining time. If exact pricing proves no negative column at `y_LP`, the
//!    master LP value is reached (converged).
//! 4. **Subset-row cuts** (optional, `cut_rounds > 0`; [`cuts`], proofs/P14): once pricing
//!    proves the master converged, the triples `C` whose cut
//!    `sum_S floor(|S ∩ C| / 2) x_S <= 1` the master solution violates are added as rows
//!    ([`cuts::separate`], at most `cuts_per_round`) and column generation resumes; pricing
//!    charges each group the penalty `-sigma_C` of the cuts it holds two records of. The
//!    Lagrangian bound becomes `sum y + sum sigma + floor(n/k) min(0, RC_lb(y, sigma))` with
//!    `sigma <= 0` (P14), so every bound evaluated before, during or after the cut rounds is
//!    valid and the best is kept. Rounds stop when none is violated, after `cut_rounds`, or
//!    at the time limit.
//! 5. **k = 10 helpers** (optional): `anchor_bound` evaluates the medoid-anchored bound
//!    ([`anchors`], proofs/P20: per-anchor exact pricing, the `floor(n/k)` most negative anchor
//!    minima instead of `floor(n/k)` times the global one); `nn_ascent` first runs a line
//!    search from the nn duals along the best start partition's slacks ([`ascent`]), whose
//!    best point starts the stability centre; `subgradient` then runs a box-step ascent on
//!    the anchored bound ([`subgrad`]); `lp_segment` ends with a line search from the best
//!    point toward the master's last duals (clipped to `[0, 4 max]`). These searches price
//!    with the anchor threshold `tau = -anchor_threshold UB / floor(n/k)` (P20), recorded in
//!    [`ColgenBound::anchor_threshold`] for the certificate.
//!    `certified_smoothing` replaces the heuristic loop after the line search by Wentges
//!    smoothing with every smoothed point certified ([`smoothing`]). The per-anchor searches
//!    skip the sizes above `k` when nothing is below `tau` at size `k`
//!    ([`pricing::completion`], P20 "Size completion").
//! 6. The bound is rounded outward with a rigorous margin (P09 section "Floating point",
//!    P10). [`ColgenBound::lower_bound`] is the best of the rounded Lagrangian bounds and the
//!    `nn` bound (both certified).
//!
//! The time limit holds: the master gets the remaining time as its HiGHS time limit (a
//! master stopped on it ends the loop with the bound found so far), heuristic and exact
//! pricing check the deadline.
//!
//! **Stopping.** Every phase's end is derived from one [`Deadline`] for the whole bound
//! (`time_limit` from the start; a phase's share never reaches past it), which also carries
//! the caller's stop flag ([`colgen_bound_stoppable`]): the master loop, the phases and the
//! heuristic pricing poll it, and an exact pricing search polls it at every node and anchor.
//! Once the flag is set or the bound's end has passed, a search gives up even its sweep of
//! root bounds over the anchors left and returns `-inf` (the weak bound stands), so the
//! bound returns within one master solve or one anchor of the search, with the best
//! certified bound it holds. An observer receives a [`ColgenProgress`] after every master
//! iteration and phase (the workbench prints it; the kernel does not).
//!
//! **Engine.** [`colgen_bound_scheduled`] builds the run's state ([`state::ColgenState`]:
//! master, geometry, centre, box, pools, best certified value, time accounting), runs a
//! [`Schedule`] of phases (one file each under [`phases`]; the options' schedule from
//! [`Schedule::from_options`], whose [`TimeShares`] turn the options' fractions into phase
//! ends) and rounds the best value outward; every report goes to a [`ColgenObserver`]. The
//! options are in `options.rs`, the result, errors and progress reports in `result.rs`, the
//! outward rounding shared by the bounds and their verifier in `rounding.rs`, and the start
//! partitions' checks in `seed.rs`.
//!
//! ## Complexity
//! O(n^2) memory for the distance matrix (refused beyond [`pricing::MAX_RECORDS`]); per
//! iteration one simplex re-solve and O(n L k^2) heuristic pricing; exact pricing as in
//! [`pricing`]. The loop stops at `time_limit` seconds (the final exact pricing takes the
//! reserved fraction `final_fraction`). Measured figures: studies/study-colgen.txt.
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. Journal of Global Optimization 60, 165-182.
//! - Wentges, P. (1997). Weighted Dantzig-Wolfe decomposition for linear mixed-integer
//!   programming. International Transactions in Operational Research 4(2), 151-162.
//! - Neame, P. J. (1999). Nonsmooth dual methods in integer programming. PhD thesis,
//!   University of Melbourne.
//! - Pessoa, A., Sadykov, R., Uchoa, E. and Vanderbeck, F. (2018). Automation and combination
//!   of linear-programming based stabilization techniques in column generation. INFORMS
//!   Journal on Computing 30(2), 339-360 (smoothing around the best-bound centre,
//!   mispricing).
//! - Jepsen, M., Petersen, B., Spoorendonk, S. and Pisinger, D. (2008). Subset-row
//!   inequalities applied to the vehicle-routing problem with time windows. Operations
//!   Research 56(2), 497-511.

pub mod aggregation;
pub mod anchors;
pub mod ascent;
pub mod count_row;
pub mod cuts;
pub mod incumbent_box;
pub mod master;
pub mod master_upper;
pub mod observer;
mod options;
pub mod pairs;
pub mod phases;
pub mod pool_master;
pub mod pricing;
pub mod record_share;
mod result;
mod rounding;
pub mod schedule;
mod seed;
pub mod signed_anchors;
pub mod smoothing;
pub mod state;
pub mod subgrad;
pub mod verify;

use super::nn_bound;
use crate::deadline::Deadline;
use cuts::CutDuals;
use master::Master;
use observer::Gated;
pub use observer::{ColgenObserver, Quiet};
pub use options::ColgenOptions;
use pricing::Geometry;
pub use result::{ColgenBound, ColgenError, ColgenProgress};
pub(crate) use rounding::{
    lagrangian_rounded, lagrangian_with_cuts, least_rc_lagrangian, rounded_with_cuts,
};
pub use rounding::{least_rc_margin, rc_margin, verifiable_claim};
pub use schedule::{Phase, PhaseBudget, Schedule, Share, Step, TimeShares};
use seed::seed_groups;
pub use seed::start_groups;
pub(crate) use seed::start_groups_of;
use state::{ColgenSetup, ColgenState};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Column generation lower bound for the `n` records of `x` (row-major, `d` columns) and
/// minimum group size `k`, starting from the feasible partition `labels` (any label values;
/// every group must have at least `k` records).
pub fn colgen_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    labels: &[usize],
    opts: &ColgenOptions,
) -> Result<ColgenBound, ColgenError> {
    colgen_bound_from(x, n, d, k, &[labels], opts)
}

/// [`colgen_bound`] with the master seeded by the groups of several feasible partitions
/// (`starts`, each a labels vector as in [`colgen_bound`]; groups met twice enter once). More
/// good partitions give the master better columns from the start; the bound's validity does
/// not depend on them (proofs/P09 part A holds for any duals).
pub fn colgen_bound_from(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
) -> Result<ColgenBound, ColgenError> {
    colgen_bound_stoppable(x, n, d, k, starts, opts, None, &mut Quiet)
}

/// [`colgen_bound_from`] that stops once `interrupt` is set (every phase, master iteration
/// and pricing search polls it; module doc, "Stopping") and reports to `observer` (a
/// [`ColgenProgress`] after every master iteration and phase, new certified values, and with
/// `progress` the detail lines; a closure `FnMut(&ColgenProgress)` takes the progress
/// reports only). A stopped run returns the best certified bound it holds, as at the time
/// limit. Runs the schedule [`Schedule::from_options`].
#[allow(clippy::too_many_arguments)]
pub fn colgen_bound_stoppable(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
    interrupt: Option<&AtomicBool>,
    observer: &mut dyn ColgenObserver,
) -> Result<ColgenBound, ColgenError> {
    opts.check()?;
    let schedule = Schedule::from_options(opts)?;
    colgen_bound_scheduled(x, n, d, k, starts, opts, &schedule, interrupt, observer)
}

/// [`colgen_bound_stoppable`] running `schedule` instead of the one of the options (which
/// still give every phase's parameters and the time limit): the engine that every route
/// of the column generation bound runs. The state is built (nn bound, start groups, master,
/// geometry), the schedule runs, and the best certified value is lowered to the claim a
/// certificate can verify (proofs/P13).
#[allow(clippy::too_many_arguments)]
pub fn colgen_bound_scheduled(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
    schedule: &Schedule,
    interrupt: Option<&AtomicBool>,
    observer: &mut dyn ColgenObserver,
) -> Result<ColgenBound, ColgenError> {
    let start = Instant::now();
    opts.check()?;
    let nn = nn_bound(x, n, d, k)?; // validates x, n, d, k
    if n > pricing::MAX_RECORDS {
        return Err(ColgenError::TooLarge {
            n,
            max: pricing::MAX_RECORDS,
        });
    }
    let (groups, known, best_start) = seed_groups(x, n, d, k, starts)?;
    // One deadline for every phase: each phase's end is derived from it (and never later).
    let deadline = Deadline::command(start + Duration::from_secs_f64(opts.time_limit), interrupt);
    let pool = if opts.pool == 0 {
        (3 * k).max(12)
    } else {
        opts.pool
    };
    let mut out = ColgenBound::empty(nn.lower_bound);
    // The distance matrix and neighbour lists take seconds at n = 8000: stopped there, the
    // bound is nn.
    let Some(geo) = Geometry::new_until(x, n, d, k, pool, &|| deadline.stopped()) else {
        out.seconds = start.elapsed().as_secs_f64();
        return Ok(out);
    };
    let setup = ColgenSetup {
        x,
        n,
        d,
        k,
        opts,
        interrupt,
        start,
        groups,
        known,
        best_start,
    };
    let mut obs = Gated {
        inner: observer,
        details: opts.progress,
    };
    let mut state = ColgenState::new(setup, geo, out, deadline)?;
    schedule.run(&mut state, &mut obs)?;
    let (mut out, master) = finish(state);
    obs.progress(&ColgenProgress::of(&out, start));
    if opts.master_upper_seconds > 0.0 && !deadline.interrupted() {
        out.master_upper = master_upper_after(n, &master, opts.master_upper_seconds, &mut obs);
    }
    Ok(out)
}

/// The result of a finished run: the centre's duals split into record and cut duals, the
/// best value lowered to the claim a certificate verifies (P13), the counters.
fn finish(state: ColgenState) -> (ColgenBound, Master) {
    let ColgenState {
        mut out,
        centre,
        master,
        geo,
        n,
        d,
        start,
        ..
    } = state;
    let mut duals = centre.unwrap_or_default();
    if duals.len() > n {
        out.cut_duals = duals.split_off(n);
        out.cut_triples = (master.cuts[..out.cut_duals.len()].iter())
            .map(|c| c.as_triple().expect("colgen adds triples only"))
            .collect();
    }
    out.duals = duals;
    if !out.duals.is_empty() {
        // The value the certificate claims, lowered so that verify-bound confirms it (P13).
        let cuts = CutDuals::new(n, &out.cut_triples, &out.cut_duals);
        out.lagrangian = verifiable_claim(&geo, &out.duals, d, &cuts, out.lagrangian);
    }
    out.lower_bound = out.lagrangian.max(out.nn);
    out.columns = master.columns.len();
    out.simplex_iterations = master.simplex_iterations;
    out.seconds = start.elapsed().as_secs_f64();
    (out, master)
}

/// After the time limit, on purpose (it measures the run, it does not take its time): the
/// run's columns as an unboxed, cut-free restricted master. A diagnostic: its failure is
/// reported as a warning, and the bound stands.
fn master_upper_after(
    n: usize,
    master: &Master,
    seconds: f64,
    obs: &mut dyn ColgenObserver,
) -> Option<master_upper::MasterUpper> {
    let solved = master_upper::restricted_master_value(n, &master.columns, &master.costs, seconds)
        .and_then(|u| u.ok_or(format!("not solved within {seconds} s")));
    match &solved {
        Ok(u) => obs.detail(format_args!(
            "colgen: restricted master without box or cuts: {u}"
        )),
        Err(e) => obs.warning(format_args!(
            "colgen: restricted master without box or cuts: {e}"
        )),
    }
    solved.ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverError;

    #[test]
    fn two_clusters_converge_to_the_optimum() {
        // Two tight triples far apart, k = 3: the optimum is the two triples, SSE 2 * 2/3 *
        // 0.01... built so that the LP is integral.
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.3];
        let labels = [0, 1, 0, 1, 0, 1]; // a bad but feasible start
        let b = colgen_bound(&x, 6, 1, 3, &labels, &ColgenOptions::default()).unwrap();
        let opt = crate::sse::partition_sse(&x, 1, &[0, 0, 0, 1, 1, 1]);
        assert!(b.converged, "{b:?}");
        assert!(b.lower_bound <= opt, "{} > {opt}", b.lower_bound);
        assert!(b.lower_bound >= opt - 1e-9, "{} << {opt}", b.lower_bound);
    }

    /// The full master LP over every group of k..2k-1 records, solved in one shot: an
    /// independent value for the converged column generation.
    fn full_master_lp(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
        use highs::{ColProblem, Sense};
        let mut pb = ColProblem::default();
        let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        for mask in 1u32..(1 << n) {
            let m = mask.count_ones() as usize;
            if m >= k && m < 2 * k {
                let members: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let c = crate::sse::group_sse(x, d, &members);
                pb.add_column(c, 0.0.., members.iter().map(|&i| (rows[i], 1.0)));
            }
        }
        let mut model = highs::Model::new(pb);
        model.make_quiet();
        model.set_sense(Sense::Minimise);
        let solved = model.solve();
        assert_eq!(solved.status(), highs::HighsModelStatus::Optimal);
        // SAFETY: valid solved HiGHS instance.
        unsafe { highs_sys::Highs_getObjectiveValue(solved.as_ptr()) }
    }

    #[test]
    fn converged_bound_equals_the_full_master_lp() {
        let mut state = 0x2014_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..12 {
            let (n, d, k) = (7 + case % 4, 1 + case % 3, 2 + case % 2);
            let x: Vec<f64> = (0..n * d).map(|_| 4.0 * next()).collect();
            let labels: Vec<usize> = (0..n).map(|i| (i / k).min(n / k - 1)).collect();
            let b = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
            let lp = full_master_lp(&x, n, d, k);
            assert!(b.converged, "case {case}");
            assert!(
                b.lagrangian <= lp,
                "case {case}: {} > LP {lp}",
                b.lagrangian
            );
            assert!(
                lp - b.lagrangian <= 1e-7 * (1.0 + lp),
                "case {case}: {} << LP {lp}",
                b.lagrangian
            );
        }
    }

    #[test]
    fn k_one_gives_zero_and_does_not_panic() {
        let x = [0.0, 1.0, 5.0];
        let b = colgen_bound(&x, 3, 1, 1, &[0, 1, 2], &ColgenOptions::default()).unwrap();
        assert!(b.lower_bound <= 0.0 && b.lower_bound > -1e-12, "{b:?}");
    }

    #[test]
    fn bad_input_is_rejected() {
        let x = [0.0, 1.0, 2.0, 3.0];
        let o = ColgenOptions::default();
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 0], &o),
            Err(ColgenError::BadLabels(_))
        ));
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 0, 1], &o),
            Err(ColgenError::BadLabels(_))
        ));
        assert!(matches!(
            colgen_bound(&x, 4, 1, 0, &[0, 0, 0, 0], &o),
            Err(ColgenError::Input(SolverError::ZeroGroupSize))
        ));
        let bad = ColgenOptions {
            smoothing: 1.0,
            ..ColgenOptions::default()
        };
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 1, 1], &bad),
            Err(ColgenError::Params(_))
        ));
    }
}
