//! # A compact assignment model with fixed-size group slots
//!
//! [`compact_partition`] solves microaggregation as one MIP whose size is polynomial in n.
//! The SSE of a group is not linear in an assignment, but for a group S of known size s it
//! is `SSE(S) = (1/s) sum_{i<j in S} ||x_i - x_j||^2`, linear in the products `x_i x_j`.
//! So the groups are *slots* of fixed size: for every s in `k..=2k-1` (some optimal
//! partition uses only these sizes, `proofs/P03-group-sizes.md`) there are `floor(n/s)`
//! slots g of size `s_g = s`, and
//!
//! - `x_ig` binary (record i in slot g), `sum_g x_ig = 1` for every record;
//! - `y_g` binary (slot g used), `sum_i x_ig = s_g y_g`; `y_g >= y_g'` for consecutive
//!   slots g, g' of the same size (the used slots of a size come first);
//! - `w_ijg >= x_ig + x_jg - 1`, `w_ijg >= 0` (Fortet's linearisation of `x_ig x_jg`; the
//!   costs are non-negative, so at an optimum w is the product);
//! - minimise `sum_g (1/s_g) sum_{i<j} d_ij w_ijg`, `d_ij = ||x_i - x_j||^2`.
//!
//! Fixed group sizes with pair costs are Rao's (1971) formulation of minimum within-group
//! sum of squares. **Limits**: `sum_s floor(n/s) · (n + n(n-1)/2)` variables (about 700 at
//! n = 12, k = 3); its LP relaxation is weak (spreading every `x_ig` thin makes every
//! `x_ig + x_jg - 1` negative, so the LP bound is 0) and slots of the same size are
//! interchangeable, so the solver proves optimality by enumeration: use it for n up to
//! about 10 (n = 9 takes seconds; [`COMPACT_MAX_N`] is a hard cap on the size of the model, not a promise of
//! speed). Costs are scaled as in [`super::exact`] ([`super::solve_rescaled`]); the SSE
//! returned is recomputed from the labels.
//!
//! ## Complexity
//! O(n^3 / k) variables and constraints; the MIP is NP-hard.
//!
//! ## References
//! - Rao, M. R. (1971). Cluster analysis and mathematical programming. Journal of the
//!   American Statistical Association 66(335), 622-626.
//! - Fortet, R. (1960). L'algèbre de Boole et ses applications en recherche
//!   opérationnelle. Cahiers du Centre d'Études de Recherche Opérationnelle 4, 5-36
//!   (linearising products of binaries).

use super::exact::{no_answer, solve_from_chunks, ModelPartition};
use super::{solve, Mip, MipRun, MipSolver};
use crate::sse::sq_dist;
use crate::SolverError;
use good_lp::{constraint, variable, Expression, ProblemVariables, Variable};

/// Largest n of [`compact_partition`].
pub const COMPACT_MAX_N: usize = 30;

/// The slot sizes: `floor(n/s)` slots of each size s in `k..=2k-1`, by size.
fn slot_sizes(n: usize, k: usize) -> Vec<usize> {
    (k..2 * k)
        .flat_map(|s| std::iter::repeat_n(s, n / s))
        .collect()
}

/// The least-SSE partition of the `n` records of `x` (row-major, `d` columns) into groups
/// of at least `k`, by the compact model (module doc).
pub fn compact_partition(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    solver: MipSolver,
    run: &MipRun,
) -> Result<ModelPartition, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if n > COMPACT_MAX_N {
        return Err(SolverError::TooLargeFor {
            method: "the compact assignment model",
            n,
            max: COMPACT_MAX_N,
        });
    }
    let slots = slot_sizes(n, k).len();
    let mut variables = 0;
    let solve_from = |start: &[usize], scale: f64, run: &MipRun| {
        let mip = model(x, n, d, k, scale, start);
        variables = mip.vars.len();
        let out = solve(mip, solver, run)?;
        let labels = assigned(&out.values, n, slots)
            .ok_or_else(|| no_answer("the compact model: no assignment", &out.status))?;
        Ok((labels, out.status))
    };
    let (labels, status) = solve_from_chunks(x, n, d, k, run, solve_from)?;
    Ok(ModelPartition::of(x, d, labels, status, variables))
}

/// The model, started from `start` (a partition with sizes `k..=2k-1`); costs times
/// `scale`. The watched variables are `x_ig`, record-major.
fn model(x: &[f64], n: usize, d: usize, k: usize, scale: f64, start: &[usize]) -> Mip {
    let sizes = slot_sizes(n, k);
    let g = sizes.len();
    let mut vars = ProblemVariables::new();
    let xv: Vec<Variable> = vars.add_vector(variable().binary(), n * g);
    let yv: Vec<Variable> = vars.add_vector(variable().binary(), g);
    let at = |i: usize, s: usize| xv[i * g + s];
    let mut constraints = Vec::new();
    for i in 0..n {
        let row: Expression = (0..g).map(|s| at(i, s)).sum();
        constraints.push(constraint::eq(row, 1.0));
    }
    for (s, &size) in sizes.iter().enumerate() {
        let members: Expression = (0..n).map(|i| at(i, s)).sum();
        constraints.push(constraint::eq(members, size as f64 * yv[s]));
        if s + 1 < g && sizes[s + 1] == size {
            constraints.push(constraint::geq(yv[s], yv[s + 1]));
        }
    }
    let mut objective = Expression::with_capacity(g * n * n / 2);
    let mut pairs = Vec::new();
    for (s, &size) in sizes.iter().enumerate() {
        for i in 0..n {
            for j in i + 1..n {
                let w = vars.add(variable().min(0.0).max(1.0));
                let dij = sq_dist(&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d]);
                objective.add_mul(scale * dij / size as f64, w);
                constraints.push(constraint::geq(w, at(i, s) + at(j, s) - 1.0));
                pairs.push((i, j, s));
            }
        }
    }
    let first = start_values(start, &sizes, n);
    let mut values = vec![0.0; vars.len()];
    values[..n * g].copy_from_slice(&first);
    for s in 0..g {
        values[n * g + s] = if (0..n).any(|i| first[i * g + s] > 0.5) {
            1.0
        } else {
            0.0
        };
    }
    for (p, &(i, j, s)) in pairs.iter().enumerate() {
        values[n * g + g + p] = first[i * g + s] * first[j * g + s];
    }
    Mip {
        vars,
        objective,
        constraints,
        watched: n * g,
        start: Some(values),
    }
}

/// `x_ig` of `start`: each of its groups in the first free slot of its size.
fn start_values(start: &[usize], sizes: &[usize], n: usize) -> Vec<f64> {
    let g = sizes.len();
    let groups = crate::merge::groups_of(start);
    let mut used = vec![false; g];
    let mut x = vec![0.0; n * g];
    for members in &groups {
        let slot = (0..g)
            .find(|&s| !used[s] && sizes[s] == members.len())
            .expect("the start's group sizes are in k..=2k-1, at most floor(n/s) of each");
        used[slot] = true;
        for &i in members {
            x[i as usize * g + slot] = 1.0;
        }
    }
    x
}

/// Labels from the values of `x_ig` (record-major), `None` unless each record is in one slot.
fn assigned(values: &[f64], n: usize, g: usize) -> Option<Vec<usize>> {
    if values.len() != n * g {
        return None;
    }
    (0..n)
        .map(|i| {
            let mut slots = (0..g).filter(|&s| values[i * g + s] > 0.5);
            match (slots.next(), slots.next()) {
                (Some(s), None) => Some(s),
                _ => None,
            }
        })
        .collect()
}
