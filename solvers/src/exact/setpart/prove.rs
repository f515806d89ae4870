//! # Phase 2 of the set-partitioning method: the proof search
//!
//! Reduced-cost filtering (`proofs/P11-exact-small.md`, Theorem 2) with the rounding margin
//! of `proofs/P12-certified-branch-and-bound.md`, then the certified branch and bound over
//! exactly the groups within the gap ([`super::super::branch`]). Moved out of `setpart.rs`
//! unchanged.
//!
//! ## Complexity
//! The enumeration within the gap (exponential worst case) and the branch and bound over
//! its columns; [`enumeration_margin`] O(n^2 d).
//!
//! ## References
//! See [`super`].

use super::super::branch::{branch_and_bound, Columns};
use super::super::certify::{partition_sse_upper, sse_interval, U};
use super::super::enumerate::{enumerate, Mode};
use super::super::masks::bits;
use super::super::stop::Stop;
use super::{Progress, SetPartOptions, SetPartResult};
use crate::sse::sq_dist;
use std::time::Instant;

/// Absolute rounding margin of the enumeration's computed reduced costs and node bounds under
/// duals `y` (`proofs/P12-certified-branch-and-bound.md`, after P09 "Floating point"): every
/// such quantity is a sum of at most `ops` rounded operations on terms of total magnitude at
/// most `scale`, which includes the centroid's rounding through `max|x|`.
pub(super) fn enumeration_margin(x: &[f64], n: usize, d: usize, k: usize, y: &[f64]) -> f64 {
    let mut max_dist = 0.0f64;
    for a in 0..n {
        for b in a + 1..n {
            max_dist = max_dist.max(sq_dist(&x[a * d..(a + 1) * d], &x[b * d..(b + 1) * d]));
        }
    }
    let max_abs = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut abs_y: Vec<f64> = y.iter().map(|v| v.abs()).collect();
    abs_y.sort_unstable_by(|a, b| b.total_cmp(a));
    let top: f64 = abs_y.iter().take(2 * k).sum();
    let g = (2 * k * 2 * k) as f64;
    let scale = g * (max_dist + 2.0 * (d as f64 * max_dist).sqrt() * max_abs) + top;
    let ops = (3 * d + 8 * k * k + 2 * n + 16) as f64;
    4.0 * ops * U * scale
}

/// Phase 2 of [`solve_setpart`] on data already scaled: reduced-cost filtering with the
/// duals `y` and certified least reduced cost `rho` of phase 1, then the certified branch and
/// bound. Never fails (see [`generate_columns`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn prove(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    mut p: Progress,
    y: &[f64],
    rho: f64,
    stop: Stop,
    opts: &SetPartOptions,
) -> SetPartResult {
    let m_max = n / k;
    if stop.expired() {
        p.note = Some(format!("{} before the proof search", stop.reason()));
        return p.finish();
    }
    if partition_sse_upper(x, d, &p.labels) == 0.0 {
        // Groups of identical records: nothing is below zero, the bound 0 proves it.
        return p.finish();
    }

    // 3. Every group of a partition cheaper than the incumbent has rc <= delta (P11,
    // Theorem 2, with the certified upper bound of the incumbent and the certified rho).
    let ub = partition_sse_upper(x, d, &p.labels);
    let ysum: f64 = y.iter().sum();
    let yabs: f64 = y.iter().map(|v| v.abs()).sum();
    let delta = ub - ysum - (m_max as f64 - 1.0) * rho;
    let rounding = 2.0 * (n as f64 + 4.0) * U * (ub + yabs + m_max as f64 * rho.abs());
    let margin = (enumeration_margin(x, n, d, k, y) + rounding).max(1e-9 * (1.0 + ub + yabs));
    let t = Instant::now();
    let e = enumerate(
        x,
        n,
        d,
        k,
        y,
        Mode::All {
            threshold: delta + margin,
            limit: opts.max_columns,
        },
        stop,
    );
    p.seconds[0] += t.elapsed().as_secs_f64();
    p.nodes += e.nodes;
    if !e.complete {
        p.note = Some(if e.columns.len() > opts.max_columns {
            format!(
                "more than {} groups lie within the reduced-cost gap {delta:.3e}: no proof attempted (raise max_columns or give a better starting partition)",
                opts.max_columns
            )
        } else {
            format!(
                "{} while enumerating the groups within the gap",
                stop.reason()
            )
        });
        return p.finish();
    }

    // 4. Certified branch and bound over exactly those groups.
    let mut cols = Columns {
        masks: Vec::with_capacity(e.columns.len()),
        cost: Vec::with_capacity(e.columns.len()),
        cost_lo: Vec::with_capacity(e.columns.len()),
    };
    for c in &e.columns {
        let members: Vec<usize> = bits(c.mask).collect();
        // The LP sees the middle of the certified interval (from the pairwise form, more
        // accurate than the two-pass value on near-identical records).
        let (lo, _, hi) = sse_interval(x, d, &members);
        cols.masks.push(c.mask);
        cols.cost.push(0.5 * lo + 0.5 * hi);
        cols.cost_lo.push(lo);
    }
    p.columns = cols.masks.len();
    let b = branch_and_bound(x, n, d, k, &cols, p.labels.clone(), p.sse, stop);
    p.branch_nodes = b.nodes;
    p.seconds[1] += b.lp_seconds;
    p.lower_bound = p.lower_bound.max(b.lower_bound);
    if b.sse < p.sse {
        p.sse = b.sse;
        p.labels = b.labels;
    }
    if b.note.is_some() {
        p.note = b.note;
    }
    p.finish()
}
