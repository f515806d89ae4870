//! # Set-partitioning MIP over reduced-cost-filtered groups (exact, n <= 64)
//!
//! The master problem: one binary `z_G` per group `G` with `k <= |G| <= 2k-1`, cost SSE(G),
//! `min sum_G SSE(G) z_G` s.t. every record is covered exactly once. Some optimal
//! microaggregation uses only such groups (`proofs/P03-group-sizes.md`), so the master's
//! optimum is the optimal SSE. There are far too many groups to list (C(40, 9) = 2.7e8 at
//! k = 5), so:
//!
//! 1. **Column generation** on the LP relaxation (HiGHS simplex, model rebuilt each round,
//!    which costs milliseconds at n <= 64): start from the groups of each record with its
//!    `k - 1` nearest neighbours and a feasible partition (chunks along the first attribute,
//!    plus the caller's labels if given); price exactly with [`super::enumerate`]
//!    ([`Mode::Best`](super::enumerate::Mode): the `pricing_cap` most negative groups); stop
//!    when the least reduced cost is `>= -tol`. Every complete pricing pass gives the
//!    Lagrangian bound `sum_i y_i + floor(n/k) min(0, rho)` (rho = the proven least reduced
//!    cost), reported as a lower bound if the run stops early.
//! 2. **Upper bound**: the MIP over the generated columns (HiGHS), or the caller's labels if
//!    better.
//! 3. **Reduced-cost filtering** (`proofs/P11-exact-small.md`, Theorem 2): with any duals
//!    `y`, the proven least reduced cost `rho <= 0` and an upper bound `UB`, every group of an
//!    optimal partition with sizes k..2k-1 has `rc(G) <= UB - sum y - (floor(n/k) - 1) rho`.
//!    All such groups are enumerated exactly ([`Mode::All`](super::enumerate::Mode)), a small
//!    relative margin added for rounding.
//! 4. **LP, then MIP** over exactly those groups: if the LP optimum over them is integral
//!    (within 1e-9) it is optimal for the MIP; otherwise HiGHS branch and cut
//!    (`mip_rel_gap = 0`, `mip_abs_gap = 0`). If HiGHS reports optimal, the partition is
//!    optimal for the full problem: `proven_optimal = true`. The SSE is recomputed from the
//!    labels (two-pass).
//!
//! "Proven" is relative to HiGHS' feasibility tolerances (1e-6 on the binary columns; the
//! labels are rebuilt by rounding and checked to cover every record once) and to the margin
//! of step 3 (1e-9 relative), which covers the rounding of the incremental SSE.
//!
//! ## Complexity
//! Each pricing pass is a pruned enumeration (exponential worst case); the final MIP has as
//! many columns as groups within the reduced-cost gap (thousands to a few hundred thousand
//! for n = 40 on synthetic data; aborted with an error beyond `max_columns`). Measured on
//! n = 40 (`tests/exact.rs::set_partitioning_timings_n40`, release, one shared core):
//! k = 3: 0.3-0.5 s; k = 4: 0.2-1.7 s; k = 5: 3 s (uniform d = 2), 12 s (clustered d = 2,
//! 9770 final columns), 29 s (clustered d = 3, 12942 final columns). Pricing takes under
//! 0.4 s in every case; the time goes to HiGHS' MIP on the final columns (its root node).
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. J. Global Optim. 60(2), 165-182.
//! - Desrosiers, J. and Luebbecke, M. E. (2005). A primer in column generation. In Column
//!   Generation, Springer, 1-32 (Lagrangian bound during column generation).
//! - Baldacci, R., Christofides, N. and Mingozzi, A. (2008). An exact algorithm for the
//!   vehicle routing problem based on the set partitioning formulation with additional cuts.
//!   Math. Program. 115, 351-385 (enumerating the columns within the reduced-cost gap).

use super::enumerate::{enumerate, Column, Mode};
use crate::error::set_highs_option;
use crate::sse::{group_sse, sq_dist};
use crate::SolverError;
use highs::{ColProblem, HighsModelStatus, Model, Sense};
use std::collections::HashSet;
use std::time::Instant;

/// An LP value within this of 0 or 1 counts as integral.
const INTEGRAL_TOL: f64 = 1e-9;

/// Largest n of the set-partitioning method (groups are 64-bit masks).
pub const SETPART_MAX_N: usize = 64;

/// Tunables of the set-partitioning method.
#[derive(Debug, Clone, PartialEq)]
pub struct SetPartOptions {
    /// Groups added per pricing pass (the most negative ones).
    pub pricing_cap: usize,
    /// Column generation stops when the least reduced cost is `>= -pricing_tol * (1 + |z|)`.
    pub pricing_tol: f64,
    /// Give up (error) when the reduced-cost gap holds more groups than this.
    pub max_columns: usize,
}

impl Default for SetPartOptions {
    fn default() -> Self {
        SetPartOptions {
            pricing_cap: 200,
            pricing_tol: 1e-9,
            max_columns: 2_000_000,
        }
    }
}

/// Outcome of the set-partitioning method.
pub(crate) struct SetPartResult {
    pub labels: Vec<usize>,
    pub proven_optimal: bool,
    /// Best proven lower bound (the optimum when proven).
    pub lower_bound: f64,
    /// Lagrangian bound at the end of column generation (`None` if no complete pricing pass).
    pub lp_bound: Option<f64>,
    pub cg_iterations: usize,
    pub nodes: u64,
    pub columns: usize,
    pub mip_nodes: i64,
    /// Seconds in pricing / final enumeration, in LP solves, in MIP solves.
    pub seconds: [f64; 3],
}

/// Two-pass SSE of the records of `mask`.
fn mask_sse(x: &[f64], d: usize, mask: u64) -> f64 {
    group_sse(x, d, &bits(mask).collect::<Vec<_>>())
}

fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// Groups of a feasible labelling as masks (labels must be a partition with sizes in
/// k..2k-1; other groups are dropped, since the master only knows those sizes).
fn masks_of_labels(labels: &[usize], k: usize) -> Vec<u64> {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut masks = vec![0u64; g];
    for (i, &l) in labels.iter().enumerate() {
        masks[l] |= 1u64 << i;
    }
    masks
        .into_iter()
        .filter(|m| (k..2 * k).contains(&(m.count_ones() as usize)))
        .collect()
}

/// Labels from chosen masks (must cover every record exactly once).
fn labels_of_masks(masks: &[u64], n: usize) -> Result<Vec<usize>, SolverError> {
    let mut labels = vec![usize::MAX; n];
    for (g, &m) in masks.iter().enumerate() {
        for i in bits(m) {
            if labels[i] != usize::MAX {
                return Err(SolverError::backend(format!(
                    "record {i} covered twice by the MIP solution"
                )));
            }
            labels[i] = g;
        }
    }
    if let Some(i) = labels.iter().position(|&l| l == usize::MAX) {
        return Err(SolverError::backend(format!(
            "record {i} not covered by the MIP solution"
        )));
    }
    Ok(labels)
}

/// Solve the master over `masks` (costs `costs`) as an LP (duals returned) or a MIP.
struct MasterSolution {
    objective: f64,
    values: Vec<f64>,
    duals: Vec<f64>,
    optimal: bool,
    mip_nodes: i64,
}

fn solve_master(
    n: usize,
    masks: &[u64],
    costs: &[f64],
    integer: bool,
    time_left: Option<f64>,
) -> Result<MasterSolution, SolverError> {
    let mut pb = ColProblem::default();
    let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
    for (&m, &c) in masks.iter().zip(costs) {
        let factors: Vec<_> = bits(m).map(|i| (rows[i], 1.0)).collect();
        if integer {
            pb.add_integer_column(c, 0.0..=1.0, factors);
        } else {
            pb.add_column(c, 0.0.., factors);
        }
    }
    let mut model = Model::try_new(pb)
        .map_err(|s| SolverError::backend(format!("could not load the master: {s:?}")))?;
    model.make_quiet();
    model.set_sense(Sense::Minimise);
    if integer {
        set_highs_option(&mut model, "mip_rel_gap", 0.0)?;
        set_highs_option(&mut model, "mip_abs_gap", 0.0)?;
    } else {
        set_highs_option(&mut model, "solver", "simplex")?;
        set_highs_option(&mut model, "dual_feasibility_tolerance", 1e-9)?;
        set_highs_option(&mut model, "primal_feasibility_tolerance", 1e-9)?;
    }
    if let Some(t) = time_left {
        set_highs_option(&mut model, "time_limit", t.max(0.01))?;
    }
    let solved = model
        .try_solve()
        .map_err(|s| SolverError::backend(format!("run failed: {s:?}")))?;
    let status = solved.status();
    let optimal = status == HighsModelStatus::Optimal;
    let sol = solved.get_solution();
    let values = sol.columns().to_vec();
    let has_solution = values.len() == masks.len()
        && (optimal || (integer && status == HighsModelStatus::ReachedTimeLimit));
    if !has_solution {
        return Err(SolverError::backend(format!("master status {status:?}")));
    }
    let mip_nodes = if integer {
        let mut v: i64 = -1;
        // SAFETY: the pointer is the live HiGHS instance owned by `solved`; the name is a
        // NUL-terminated C string and `v` a valid i64 out-parameter, as the C API requires.
        let status = unsafe {
            highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut v)
        };
        if status == highs_sys::STATUS_ERROR {
            -1
        } else {
            v
        }
    } else {
        0
    };
    Ok(MasterSolution {
        objective: solved.objective_value(),
        duals: if integer {
            Vec::new()
        } else {
            sol.dual_rows().to_vec()
        },
        values,
        optimal,
        mip_nodes,
    })
}

/// Partition from the values of an integral master solution.
fn chosen(masks: &[u64], values: &[f64], n: usize) -> Result<Vec<usize>, SolverError> {
    let picked: Vec<u64> = masks
        .iter()
        .zip(values)
        .filter(|(_, v)| **v > 0.5)
        .map(|(m, _)| *m)
        .collect();
    labels_of_masks(&picked, n)
}

/// The set-partitioning method on validated input (`2 <= ... `, `n <= 64`).
///
/// HiGHS' tolerances are absolute (1e-7 on reduced costs, 1e-6 on integrality), so on a
/// region of near-identical records, whose optimum may be 1e-4, they are not small against
/// the costs (measured: an "optimal" MIP answer 2e-7 above the known upper bound on 30 EIA
/// records). The records are therefore scaled by a power of two `s` chosen so that the
/// initial upper bound becomes about `n` (group costs about k). Multiplying by a power of
/// two is exact in floating point (no overflow or underflow at the clamped exponents used),
/// and SSE(G; s x) = s^2 SSE(G; x), so the scaled problem has the same optimal partitions
/// and its bounds divided by s^2 are bounds of the original (`proofs/P11-exact-small.md`).
pub(crate) fn solve_setpart(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    hint: Option<&[usize]>,
    deadline: Option<Instant>,
    opts: &SetPartOptions,
) -> Result<SetPartResult, SolverError> {
    // Scaling by a positive factor keeps the order along the first attribute, so the chunk
    // partition is the same on the scaled data.
    let chunks = chunk_labels(x, n, d, k);
    let mut ub = crate::sse::partition_sse(x, d, &chunks);
    if let Some(h) = hint {
        ub = ub.min(crate::sse::partition_sse(x, d, h));
    }
    let s = crate::sse::pow2_near((n as f64 / ub).sqrt());
    if s == 1.0 {
        return solve_setpart_scaled(x, n, d, k, chunks, hint, deadline, opts);
    }
    let xs: Vec<f64> = x.iter().map(|&v| v * s).collect();
    let mut r = solve_setpart_scaled(&xs, n, d, k, chunks, hint, deadline, opts)?;
    let s2 = s * s;
    // Exact divisions by a power of two: the bounds keep their outward rounding.
    r.lower_bound /= s2;
    r.lp_bound = r.lp_bound.map(|b| b / s2);
    Ok(r)
}

/// Chunks of k records along the first attribute, the last chunk absorbing the rest: a
/// feasible partition, the first upper bound.
fn chunk_labels(x: &[f64], n: usize, d: usize, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[a * d].total_cmp(&x[b * d]).then(a.cmp(&b)));
    let groups = n / k;
    let mut labels = vec![0usize; n];
    for (p, &i) in order.iter().enumerate() {
        labels[i] = (p / k).min(groups - 1);
    }
    labels
}

/// [`solve_setpart`] on data already scaled, with the chunk partition of [`chunk_labels`].
#[allow(clippy::too_many_arguments)]
fn solve_setpart_scaled(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    chunk_labels: Vec<usize>,
    hint: Option<&[usize]>,
    deadline: Option<Instant>,
    opts: &SetPartOptions,
) -> Result<SetPartResult, SolverError> {
    if n > SETPART_MAX_N {
        return Err(SolverError::TooLargeFor {
            method: "the set-partitioning MIP",
            n,
            max: SETPART_MAX_N,
        });
    }
    let time_left = || deadline.map(|t| t.saturating_duration_since(Instant::now()).as_secs_f64());
    let expired = || deadline.is_some_and(|t| Instant::now() >= t);
    let max_groups = (n / k) as f64;
    let mut masks: Vec<u64> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut push = |m: u64, masks: &mut Vec<u64>| {
        if seen.insert(m) {
            masks.push(m);
        }
    };
    // Initial columns: each record with its k-1 nearest neighbours (sizes k), and a feasible
    // partition: chunks of k along the first attribute, the last one absorbing the rest.
    for i in 0..n {
        let mut near: Vec<(f64, usize)> = (0..n)
            .filter(|&j| j != i)
            .map(|j| (sq_dist(&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d]), j))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let m = near[..k - 1]
            .iter()
            .fold(1u64 << i, |m, &(_, j)| m | (1u64 << j));
        push(m, &mut masks);
    }
    for m in masks_of_labels(&chunk_labels, k) {
        push(m, &mut masks);
    }
    let mut best_labels = chunk_labels;
    let mut best_sse = crate::sse::partition_sse(x, d, &best_labels);
    if let Some(h) = hint {
        for m in masks_of_labels(h, k) {
            push(m, &mut masks);
        }
        let s = crate::sse::partition_sse(x, d, h);
        if s < best_sse {
            best_sse = s;
            best_labels = h.to_vec();
        }
    }
    let mut costs: Vec<f64> = masks.iter().map(|&m| mask_sse(x, d, m)).collect();

    // 1. Column generation with exact pricing.
    let mut nodes = 0u64;
    let mut secs = [0.0f64; 3];
    let mut cg_iterations = 0;
    let mut lp_bound: Option<f64> = None;
    let mut last: Option<(Vec<f64>, f64)> = None; // (duals, proven least reduced cost)
    loop {
        if expired() {
            break;
        }
        cg_iterations += 1;
        let t = Instant::now();
        let lp = solve_master(n, &masks, &costs, false, time_left())?;
        secs[1] += t.elapsed().as_secs_f64();
        let y = lp.duals;
        // Sign convention check: basic columns have zero reduced cost c - A^T y.
        for ((&m, &c), &v) in masks.iter().zip(&costs).zip(&lp.values) {
            if v > 1e-7 {
                let rc = c - bits(m).map(|i| y[i]).sum::<f64>();
                if rc.abs() > 1e-6 * (1.0 + c.abs()) {
                    return Err(SolverError::backend(format!(
                        "dual check failed: a column at value {v} has reduced cost {rc}"
                    )));
                }
            }
        }
        let tol = opts.pricing_tol * (1.0 + lp.objective.abs());
        let t = Instant::now();
        let e = enumerate(
            x,
            n,
            d,
            k,
            &y,
            Mode::Best {
                threshold: -tol,
                cap: opts.pricing_cap,
            },
            deadline,
        );
        secs[0] += t.elapsed().as_secs_f64();
        nodes += e.nodes;
        if !e.complete {
            break;
        }
        let rho = e.min_rc.min(-tol).min(0.0);
        let ysum: f64 = y.iter().sum();
        let lagrangian = ysum + max_groups * rho;
        lp_bound = Some(lp_bound.map_or(lagrangian, |b: f64| b.max(lagrangian)));
        last = Some((y, rho));
        let mut added = 0;
        for Column { mask, .. } in e.columns {
            if seen.insert(mask) {
                masks.push(mask);
                costs.push(mask_sse(x, d, mask));
                added += 1;
            }
        }
        if added == 0 {
            break;
        }
    }
    let Some((y, rho)) = last else {
        // Not one complete pricing pass: only the heuristic partition is known.
        return Ok(SetPartResult {
            labels: best_labels,
            proven_optimal: false,
            lower_bound: 0.0,
            lp_bound: None,
            cg_iterations,
            nodes,
            columns: masks.len(),
            mip_nodes: 0,
            seconds: secs,
        });
    };
    let stopped_early =
        |labels: Vec<usize>, columns: usize, nodes: u64, mip_nodes: i64, seconds: [f64; 3]| {
            Ok(SetPartResult {
                labels,
                proven_optimal: false,
                lower_bound: lp_bound.map_or(0.0, |b| outward(b).max(0.0)),
                lp_bound,
                cg_iterations,
                nodes,
                columns,
                mip_nodes,
                seconds,
            })
        };

    // 2. Upper bound: the MIP over the generated columns.
    if !expired() {
        let t = Instant::now();
        let mip = solve_master(n, &masks, &costs, true, time_left())?;
        secs[2] += t.elapsed().as_secs_f64();
        if let Ok(labels) = chosen(&masks, &mip.values, n) {
            let s = crate::sse::partition_sse(x, d, &labels);
            if s < best_sse {
                best_sse = s;
                best_labels = labels;
            }
        }
    }
    if expired() {
        return stopped_early(best_labels, masks.len(), nodes, 0, secs);
    }

    // 3. Every group of an optimal partition has rc <= delta (P11, Theorem 2).
    let ysum: f64 = y.iter().sum();
    let yabs: f64 = y.iter().map(|v| v.abs()).sum();
    let delta = best_sse - ysum - (max_groups - 1.0) * rho;
    let margin = 1e-9 * (1.0 + best_sse + yabs);
    let t = Instant::now();
    let e = enumerate(
        x,
        n,
        d,
        k,
        &y,
        Mode::All {
            threshold: delta + margin,
            limit: opts.max_columns,
        },
        deadline,
    );
    secs[0] += t.elapsed().as_secs_f64();
    nodes += e.nodes;
    if !e.complete {
        if e.columns.len() > opts.max_columns {
            return Err(SolverError::Backend {
                message: format!(
                    "more than {} groups lie within the reduced-cost gap {:.3e} (n = {n}, k = {k}): the instance is too large for the exact set-partitioning method",
                    opts.max_columns, delta
                ),
            });
        }
        return stopped_early(best_labels, masks.len(), nodes, 0, secs);
    }
    let final_masks: Vec<u64> = e.columns.iter().map(|c| c.mask).collect();
    let final_costs: Vec<f64> = final_masks.iter().map(|&m| mask_sse(x, d, m)).collect();

    // 4. The LP over exactly those groups; if its optimum is integral it is optimal for the
    // MIP (the LP relaxes the MIP), which skips HiGHS' MIP machinery (its clique detection
    // dominates the time on ten thousand set-partitioning columns). Else the MIP.
    let t = Instant::now();
    let lp = solve_master(n, &final_masks, &final_costs, false, time_left())?;
    secs[1] += t.elapsed().as_secs_f64();
    let integral = lp.optimal
        && lp
            .values
            .iter()
            .all(|&v| v.abs() <= INTEGRAL_TOL || (v - 1.0).abs() <= INTEGRAL_TOL);
    let mip = if integral {
        MasterSolution { mip_nodes: 0, ..lp }
    } else {
        let t = Instant::now();
        let mip = solve_master(n, &final_masks, &final_costs, true, time_left())?;
        secs[2] += t.elapsed().as_secs_f64();
        mip
    };
    let labels = chosen(&final_masks, &mip.values, n)?;
    let sse = crate::sse::partition_sse(x, d, &labels);
    if !mip.optimal {
        let better = if sse < best_sse { labels } else { best_labels };
        return stopped_early(better, final_masks.len(), nodes, mip.mip_nodes, secs);
    }
    // The optimal partition is among the columns, so the MIP optimum is <= UB (up to the
    // rounding of costs); a larger value means something is wrong, not a weaker optimum.
    if sse > best_sse * (1.0 + 1e-9) + 1e-12 {
        return Err(SolverError::backend(format!(
            "MIP optimum {sse} exceeds the upper bound {best_sse}: inconsistent solve"
        )));
    }
    let _ = mip.objective;
    Ok(SetPartResult {
        labels,
        proven_optimal: true,
        lower_bound: sse,
        lp_bound,
        cg_iterations,
        nodes,
        columns: final_masks.len(),
        mip_nodes: mip.mip_nodes,
        seconds: secs,
    })
}

/// Lower a computed bound by a relative margin covering the rounding of the dual sums.
fn outward(b: f64) -> f64 {
    let m = 1e-9 * (1.0 + b.abs());
    (b - m).next_down()
}
