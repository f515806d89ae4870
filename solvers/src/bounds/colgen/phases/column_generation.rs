//! # Phase: column generation
//!
//! The loop of Aloise et al. (2014) with Wentges smoothing ([`super::super`] module doc,
//! items 2-4): each iteration re-solves the master, prices heuristically from every record
//! at the smoothed separation point (at the LP duals after a mispricing, halving `alpha`),
//! evaluates the Lagrangian bound by exact pricing when the heuristic finds nothing (and
//! every `exact_every` iterations), moves the box on a better bound, widens a binding box,
//! and once pricing proves the master converged runs a cut round ([`super::cut_round`]) or
//! ends. Columns positive for `drop_after` solves leave the master; with
//! `stall_iterations`, a master value that stopped moving ends the phase.
//!
//! ## Complexity
//! Per iteration one simplex re-solve, O(n L k^2) heuristic pricing and at most two exact
//! pricing searches.
//!
//! ## References
//! Aloise, Hansen, Rocha and Santi (2014); Wentges (1997); du Merle et al. (1999).

use super::super::cuts::CutDuals;
use super::super::master::MasterSolution;
use super::super::observer::ColgenObserver;
use super::super::pricing::{heuristic_cuts, Geometry};
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;
use super::cut_round;
use crate::deadline::Deadline;
use std::collections::HashSet;
use std::time::Instant;

/// What the exact step of an iteration decided.
enum Exact {
    /// These columns (negative at the LP duals) join the heuristic's.
    Columns(Vec<(f64, Vec<u32>)>),
    /// The master changed (box widened, cuts added): solve again.
    Resume,
    /// The master LP is reached and no cut round is due.
    Converged,
}

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let until = budget.until;
    // (iteration, master value) since which the value has not moved (`stall_iterations`).
    let mut stall = (0usize, f64::NAN);
    while !state.smoothed && state.out.iterations < state.opts.max_iterations && !until.passed() {
        obs.progress(&state.report());
        if !iterate(state, until, &mut stall, obs)? {
            break;
        }
    }
    obs.progress(&state.report());
    Ok(())
}

/// One iteration; false when the phase ends.
fn iterate(
    state: &mut ColgenState,
    until: Deadline,
    stall: &mut (usize, f64),
    obs: &mut dyn ColgenObserver,
) -> Result<bool, ColgenError> {
    let Some(mut sol) = solve(state, until) else {
        return Ok(false); // the time limit or an unsolved master: keep the bound found so far
    };
    if stalled(state, &sol, stall, obs) {
        return Ok(false);
    }
    if state.opts.drop_after > 0 {
        drop_idle_columns(state, &mut sol)?;
    }
    // Record duals, then cut duals.
    let mut y_lp = sol.duals.clone();
    y_lp.extend_from_slice(&sol.cut_duals);
    let cd_lp = CutDuals::new(state.n, &state.master.cuts, &sol.cut_duals);
    let (mut new_cols, sep) = price_heuristic(state, &y_lp, &cd_lp, until);
    let opts = state.opts;
    let periodic = opts.exact_every > 0 && state.out.iterations.is_multiple_of(opts.exact_every);
    if new_cols.is_empty() || periodic {
        match exact_step(
            state,
            &sol,
            &y_lp,
            &cd_lp,
            &sep,
            new_cols.is_empty(),
            until,
            obs,
        )? {
            Exact::Columns(negative) => new_cols.extend(negative),
            Exact::Resume => {
                state.last_y = y_lp;
                return Ok(true);
            }
            Exact::Converged => {
                state.out.converged = true;
                state.last_y = y_lp;
                state.detail_line(0, obs);
                return Ok(false);
            }
        }
    }
    new_cols.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    new_cols.dedup_by(|a, b| a.1 == b.1);
    new_cols.truncate(state.cap);
    state.detail_line(new_cols.len(), obs);
    if new_cols.is_empty() {
        // Nothing to add (exact pricing cut short and heuristics exhausted).
        state.last_y = y_lp;
        return Ok(false);
    }
    let (g, c): (Vec<Vec<u32>>, Vec<f64>) = new_cols
        .into_iter()
        .map(|(_, g)| (g.clone(), state.cost(&g)))
        .unzip();
    state.known.extend(g.iter().cloned());
    state.idle.resize(state.idle.len() + g.len(), 0);
    state.master.add_columns(g, c).map_err(ColgenError::Lp)?;
    state.y_sep_prev = Some(sep);
    state.last_y = y_lp;
    Ok(true)
}

/// Re-solve the master within `until`; None at the time limit or on a failure (noted).
fn solve(state: &mut ColgenState, until: Deadline) -> Option<MasterSolution> {
    let t = Instant::now();
    let sol = state
        .master
        .solve_stoppable(until.seconds_left(), state.interrupt);
    state.out.lp_seconds += t.elapsed().as_secs_f64();
    let sol = super::final_solve::solved_or_noted(&state.master, sol, &mut state.out.lp_error)?;
    state.out.iterations += 1;
    state.out.lp_value = sol.value;
    Some(sol)
}

/// Whether the master's value has stayed unchanged (relative 1e-7: the solver's noise is
/// ~5e-9) for `stall_iterations` solves; then the remaining main time goes to the final
/// phase, from these duals.
fn stalled(
    state: &mut ColgenState,
    sol: &MasterSolution,
    stall: &mut (usize, f64),
    obs: &mut dyn ColgenObserver,
) -> bool {
    let limit = state.opts.stall_iterations;
    if limit == 0 {
        return false;
    }
    let moved = (sol.value - stall.1).abs() > 1e-7 * stall.1.abs().max(1.0);
    if moved || stall.1.is_nan() {
        *stall = (state.out.iterations, sol.value);
        return false;
    }
    if state.out.iterations - stall.0 < limit {
        return false;
    }
    obs.detail(format_args!(
        "colgen: {:7.1} s  master value {:.6} unchanged for {} iterations: final phase",
        state.start.elapsed().as_secs_f64(),
        sol.value,
        limit
    ));
    state.last_y = sol.duals.clone();
    state.last_y.extend_from_slice(&sol.cut_duals);
    true
}

/// Column management: a column whose reduced cost was clearly positive (nonbasic at zero)
/// for `drop_after` consecutive solves leaves the master (the start columns stay).
fn drop_idle_columns(state: &mut ColgenState, sol: &mut MasterSolution) -> Result<(), ColgenError> {
    let drop_after = state.opts.drop_after;
    let scale = 1.0 + sol.duals.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (c, rc) in sol.reduced_costs.iter().enumerate().skip(state.fixed) {
        state.idle[c] = if *rc > 1e-6 * scale {
            state.idle[c] + 1
        } else {
            0
        };
    }
    let drop: Vec<bool> = state.idle.iter().map(|&i| i >= drop_after).collect();
    for g in state
        .master
        .delete_columns(&drop)
        .map_err(ColgenError::Lp)?
    {
        state.known.remove(&g);
        state.out.dropped_columns += 1;
    }
    // Keep the primal values aligned with the remaining columns (cut separation).
    let mut keep = drop.iter().map(|&d| !d);
    sol.primal
        .retain(|_| keep.next().expect("one flag per column"));
    state.idle.retain(|&i| i < drop_after);
    Ok(())
}

/// Heuristic pricing at the separation point (smoothed toward the stability centre, or
/// before any bound toward the previous separation point; a centre from before the last
/// cuts has no duals for them: 0), and on a mispricing at the LP duals with `alpha`
/// halved. Returns the new negative columns and the point priced at.
fn price_heuristic(
    state: &mut ColgenState,
    y_lp: &[f64],
    cd_lp: &CutDuals,
    until: Deadline,
) -> (Vec<(f64, Vec<u32>)>, Vec<f64>) {
    let n = state.n;
    let anchor = state.centre.as_ref().or(state.y_sep_prev.as_ref());
    let y_sep: Vec<f64> = match anchor {
        Some(c) if state.alpha > 0.0 => mix(&padded(c, y_lp.len()), y_lp, state.alpha),
        _ => y_lp.to_vec(),
    };
    let t = Instant::now();
    let tol = state.opts.tol;
    let (geo, known) = (&state.geo, &state.known);
    let mut new_cols = price_all(geo, &y_sep[..n], &y_lp[..n], cd_lp, tol, known, until);
    let mut sep = y_sep;
    if new_cols.is_empty() && sep != y_lp {
        // Mispricing: nothing priced at the smoothed point is negative at the LP duals.
        state.alpha = if state.alpha < 0.05 {
            0.0
        } else {
            state.alpha / 2.0
        };
        new_cols = price_all(geo, &y_lp[..n], &y_lp[..n], cd_lp, tol, known, until);
        sep = y_lp.to_vec();
    }
    state.out.heuristic_seconds += t.elapsed().as_secs_f64();
    (new_cols, sep)
}

/// Exact pricing of one iteration: at the LP duals when the heuristic found nothing
/// (stopping after `exact_stop_after` columns, once more without stopping when those were
/// all known), else at the separation point; then the box step, the box's widening and
/// the convergence test with its cut round.
#[allow(clippy::too_many_arguments)]
fn exact_step(
    state: &mut ColgenState,
    sol: &MasterSolution,
    y_lp: &[f64],
    cd_lp: &CutDuals,
    sep: &[f64],
    heuristic_failed: bool,
    until: Deadline,
    obs: &mut dyn ColgenObserver,
) -> Result<Exact, ColgenError> {
    let opts = state.opts;
    let at = if heuristic_failed { y_lp } else { sep };
    // When columns are all we need (heuristic failure), stop at the first batch.
    let stop_after = if heuristic_failed {
        opts.exact_stop_after.max(1)
    } else {
        usize::MAX
    };
    let (mut cols, mut exact, mut improved) = state.evaluate(at, until, stop_after, obs);
    let fresh = |cols: &[(f64, Vec<u32>)], known: &HashSet<Vec<u32>>| {
        cols.iter()
            .any(|(rc, g)| *rc < -opts.tol && !known.contains(g))
    };
    if heuristic_failed
        && !exact
        && stop_after != usize::MAX
        && !fresh(&cols, &state.known)
        && !until.passed()
    {
        // Stopped early on columns that are all known or within the tolerance of 0
        // (degenerate duals, frequent with cuts): price again without stopping.
        let (c, e, i) = state.evaluate(at, until, usize::MAX, obs);
        (cols, exact, improved) = (c, e, improved || i);
    }
    if state.boxed && improved {
        // Serious step: the box (over the record rows) follows the best bound's duals.
        let centre = state.centre.as_ref().expect("set on improvement");
        state.box_centre.clear();
        state.box_centre.extend_from_slice(&centre[..state.n]);
        let (master, c, delta) = (&mut state.master, &state.box_centre, &state.delta);
        master.set_box(c, delta).map_err(ColgenError::Lp)?;
    }
    let negative: Vec<(f64, Vec<u32>)> = cols
        .into_iter()
        .filter(|(_, g)| !state.known.contains(g))
        .map(|(_, g)| (state.geo.reduced_cost_cuts(&g, &y_lp[..state.n], cd_lp), g))
        .filter(|(rc, _)| *rc < -opts.tol)
        .collect();
    if !(heuristic_failed && negative.is_empty() && exact) {
        return Ok(Exact::Columns(negative));
    }
    if state.boxed && sol.artificial > 1e-9 * state.n as f64 {
        // Priced out inside a binding box: widen it and re-solve.
        state.delta.iter_mut().for_each(|v| *v *= 2.0);
        let (master, c, delta) = (&mut state.master, &state.box_centre, &state.delta);
        master.set_box(c, delta).map_err(ColgenError::Lp)?;
        state.out.box_widenings += 1;
        state.detail_line(0, obs);
        return Ok(Exact::Resume);
    }
    // The master LP (with the cuts so far) is reached.
    if state.out.root_lp.is_nan() {
        state.out.root_lp = sol.value;
    }
    state.out.converged_lp = sol.value;
    if cut_round::due(state, until) && cut_round::run(state, sol, obs)? {
        return Ok(Exact::Resume);
    }
    Ok(Exact::Converged)
}

/// Heuristic pricing from every record at `y_price` (until `deadline`); keeps the new groups
/// whose reduced cost w.r.t. the LP duals `y_lp` and cuts `cuts` is below `-tol`, with that
/// reduced cost.
pub(crate) fn price_all(
    geo: &Geometry,
    y_price: &[f64],
    y_lp: &[f64],
    cuts: &CutDuals,
    tol: f64,
    known: &HashSet<Vec<u32>>,
    deadline: Deadline,
) -> Vec<(f64, Vec<u32>)> {
    let mut found: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for seed in 0..geo.n {
        if seed % 64 == 63 && deadline.passed() {
            break;
        }
        if let Some((_, g)) = heuristic_cuts(geo, y_price, cuts, seed) {
            if known.contains(&g) || seen.contains(&g) {
                continue;
            }
            let rc = geo.reduced_cost_cuts(&g, y_lp, cuts);
            if rc < -tol {
                seen.insert(g.clone());
                found.push((rc, g));
            }
        }
    }
    found
}

/// `alpha a + (1 - alpha) b`, componentwise.
fn mix(a: &[f64], b: &[f64], alpha: f64) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(u, v)| alpha * u + (1.0 - alpha) * v)
        .collect()
}

/// `v` followed by zeros up to length `len` (duals of cuts added after `v` was taken).
fn padded(v: &[f64], len: usize) -> Vec<f64> {
    let mut p = v.to_vec();
    p.resize(len.max(v.len()), 0.0);
    p
}
