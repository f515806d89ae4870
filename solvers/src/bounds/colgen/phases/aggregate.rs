//! # Phase: dynamic constraint aggregation
//!
//! Column generation on the aggregated master ([`super::super::aggregation`], proofs/P24)
//! before the column generation on the full master: the records are merged into
//! super-points (identical records always; the others along the start partitions'
//! groups), the aggregated master is solved, its duals are disaggregated to the records
//! (each member gets its super-point's value), and the records' duals are priced over the
//! full data: heuristically from every record, exactly when that finds nothing (the exact
//! search also certifies a Lagrangian bound at those duals through the state, as every
//! phase does, P09, so the bound never rests on the aggregation). Compatible negative
//! columns join the aggregated master; incompatible ones split the super-points they cut
//! ([`super::super::aggregation::Aggregation::take`]). With `incumbent_box`, the rows are
//! boxed around the incumbent's dual estimates ([`super::super::incumbent_box`]) and the
//! box is widened when it binds at convergence. The phase ends when exact pricing proves
//! no negative column with the box not binding (then the aggregated LP value is the full
//! master LP's, P24), on its deadline, or when pricing is cut short without columns; its
//! columns then seed the full master, whose column generation follows.
//!
//! ## Complexity
//! Per iteration one simplex re-solve of the aggregated master (a rebuild after a split),
//! O(n L k^2) heuristic pricing and at most two exact pricing searches.
//!
//! ## References
//! Sudoso and Aloise (2025), dynamic constraint aggregation; du Merle et al. (1999).

use super::super::aggregation::{AggSolution, Aggregation, AggregationReport, SuperPoints};
use super::super::cuts::CutDuals;
use super::super::incumbent_box::dual_brackets;
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::{group_cost, ColgenState};
use super::super::ColgenError;
use super::column_generation::price_all;
use crate::deadline::Deadline;
use std::time::Instant;

/// What one iteration decided.
enum Next {
    Continue,
    /// Exact pricing proved no negative column and the box does not bind.
    Converged,
    /// Pricing found nothing without proving it (cut short): the phase ends.
    Stuck,
}

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let start = Instant::now();
    let until = budget.until;
    let (x, d) = (state.x, state.d);
    let cost = |g: &[u32]| group_cost(x, d, g);
    let starts = &state.master.columns[..state.fixed];
    let sp = SuperPoints::from_starts(x, state.n, d, starts);
    let brackets =
        (state.opts.incumbent_box).then(|| dual_brackets(x, state.n, d, &state.best_start));
    let mut agg = Aggregation::new(sp, starts, &cost, brackets).map_err(ColgenError::Lp)?;
    let mut report = AggregationReport {
        super_points_start: agg.sp.len(),
        super_points: agg.sp.len(),
        splits: 0,
        iterations: 0,
        lp_seconds: 0.0,
        lp_value: f64::NAN,
        converged: false,
        columns: 0,
        seconds: 0.0,
        error: None,
    };
    let mut y = Vec::new();
    while !until.passed() && report.iterations < state.opts.max_iterations {
        let t = Instant::now();
        let solved = agg.master.solve(until.seconds_left());
        report.lp_seconds += t.elapsed().as_secs_f64();
        let sol = match solved {
            Ok(Some(sol)) => sol,
            Ok(None) => break,
            Err(e) => {
                obs.warning(format_args!("colgen: aggregation ends: {e}"));
                report.error = Some(e);
                break;
            }
        };
        report.iterations += 1;
        report.lp_value = sol.value;
        y = agg.sp.disaggregate(&sol.duals);
        let (next, added, splits) = iterate(state, &mut agg, &y, &sol, until, obs)?;
        report.splits += splits;
        obs.detail(format_args!(
            "colgen: {:7.1} s  aggregate it {:4}  lp {:.6}  super-points {}  +{added} cols  {splits} split  lagrangian {:.6}",
            state.start.elapsed().as_secs_f64(),
            report.iterations,
            sol.value,
            agg.sp.len(),
            state.out.lagrangian,
        ));
        match next {
            Next::Continue => {}
            Next::Converged => {
                report.converged = true;
                break;
            }
            Next::Stuck => break,
        }
    }
    report.super_points = agg.sp.len();
    report.columns = agg.master.columns.len();
    hand_over(state, &agg)?;
    if !y.is_empty() {
        state.last_y = y;
    }
    report.seconds = start.elapsed().as_secs_f64();
    state.out.aggregation = Some(report);
    obs.progress(&state.report());
    Ok(())
}

/// One pricing round at the disaggregated duals `y` of solution `sol`: heuristic, then
/// exact when the heuristic finds nothing; returns what comes next, the columns added and
/// the super-points split.
fn iterate(
    state: &mut ColgenState,
    agg: &mut Aggregation,
    y: &[f64],
    sol: &AggSolution,
    until: Deadline,
    obs: &mut dyn ColgenObserver,
) -> Result<(Next, usize, usize), ColgenError> {
    let t = Instant::now();
    let tol = state.opts.tol;
    let none = CutDuals::none();
    let mut found = price_all(&state.geo, y, y, &none, tol, &agg.known, until);
    state.out.heuristic_seconds += t.elapsed().as_secs_f64();
    if found.is_empty() {
        let (negative, exact) = exact_columns(state, agg, y, until, obs);
        if negative.is_empty() {
            if !exact {
                return Ok((Next::Stuck, 0, 0));
            }
            if sol.artificial > 1e-9 * state.n as f64 {
                agg.widen_box().map_err(ColgenError::Lp)?;
                return Ok((Next::Continue, 0, 0));
            }
            return Ok((Next::Converged, 0, 0));
        }
        found = negative;
    }
    let (x, d) = (state.x, state.d);
    let cost = |g: &[u32]| group_cost(x, d, g);
    let (added, splits) = (agg.take(found, state.cap, &cost)).map_err(ColgenError::Lp)?;
    Ok((Next::Continue, added, splits))
}

/// Exact pricing at `y` through the state (which certifies the bound there): the groups
/// negative at `y` and not in the aggregated master, and whether the search proved the
/// minimum. It stops after `exact_stop_after` negative groups, and searches again without
/// stopping when those were all known.
fn exact_columns(
    state: &mut ColgenState,
    agg: &Aggregation,
    y: &[f64],
    until: Deadline,
    obs: &mut dyn ColgenObserver,
) -> (Vec<(f64, Vec<u32>)>, bool) {
    let tol = state.opts.tol;
    let fresh = |state: &ColgenState, cols: Vec<(f64, Vec<u32>)>| -> Vec<(f64, Vec<u32>)> {
        (cols.into_iter())
            .map(|(_, g)| (state.geo.reduced_cost(&g, y), g))
            .filter(|(rc, g)| *rc < -tol && !agg.known.contains(&agg.sp.canonical(g)))
            .collect()
    };
    let stop_after = state.opts.exact_stop_after.max(1);
    let (cols, exact, _) = state.evaluate(y, until, stop_after, obs);
    let negative = fresh(state, cols);
    if !negative.is_empty() || exact || until.passed() {
        return (negative, exact);
    }
    let (cols, exact, _) = state.evaluate(y, until, usize::MAX, obs);
    (fresh(state, cols), exact)
}

/// The aggregated master's columns that the full master does not hold join it (the full
/// column generation starts from them).
fn hand_over(state: &mut ColgenState, agg: &Aggregation) -> Result<(), ColgenError> {
    let (groups, costs): (Vec<Vec<u32>>, Vec<f64>) = (agg.master.columns.iter())
        .zip(&agg.master.costs)
        .filter(|(g, _)| !state.known.contains(*g))
        .map(|(g, &c)| (g.clone(), c))
        .unzip();
    state.known.extend(groups.iter().cloned());
    state.idle.resize(state.idle.len() + groups.len(), 0);
    state
        .master
        .add_columns(groups, costs)
        .map_err(ColgenError::Lp)
}
