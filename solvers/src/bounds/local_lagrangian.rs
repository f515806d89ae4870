//! # The anchored Lagrangian bound priced by local searches (any number of records)
//!
//! For any record duals `y`, the medoid-anchored Lagrangian bound (proofs/P20) is
//! `sum y + (sum of the floor(n/k) smallest min(0, L_r))`, where `L_r` is a lower bound on
//! the reduced cost `SSE(S) - y(S)` of every group `S` of `k..2k-1` records whose medoid is
//! `r`. Column generation computes the `L_r` with the exact pricing over the whole distance
//! matrix (O(n^2) memory, refused beyond `pricing::MAX_RECORDS`). Here the records are cut
//! into spatial blocks; a group with negative reduced cost lies within squared distance
//! `2 y(S)` of its medoid, so every such group with its medoid in block `b` lies inside the
//! block's *local set* `C_b` (the records near the block, with a radius from the duals).
//! The exact per-anchor pricing runs on the local set alone, and its values at the block's
//! own records are valid `L_r` for the whole data (proofs/P23-local-pricing.md). The bound is
//! valid for any `y`, rounded outward; good duals come from the caller (e.g. column
//! generation on blocks of the data, `microagg::bound::auto`).
//!
//! Every search is budgeted (nodes and a soft deadline per block); a search cut short keeps
//! the bounds of the nodes it did not explore, a block never searched falls back to its
//! local weak bound or to `-Y_b` (proofs/P23), so the result is always a certified bound.
//!
//! ## Complexity
//! Blocks: O(n d log n). Local sets: O(n d) per block for the box and ball tests plus
//! O(|C_b| |b| d) for the exact radius test. Per block: O(|C_b|^2 d) for its geometry, plus
//! the budgeted branch and bound. Memory O(max |C_b|^2).
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. J. Global Optim. 60, 165-182 (the master and pricing problem).
//! The local sets and the anchored sum are this project's (proofs/P20, P23).

use super::colgen::cuts::CutDuals;
use super::colgen::pricing::{
    per_anchor_minima, weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry,
};
use super::colgen::{lagrangian_rounded, rc_margin};
use super::UNIT_ROUNDOFF;
use crate::deadline::Deadline;
use crate::error::{check_rows, SolverError};
use crate::sse::sq_dist;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Relative slack of the radius tests, covering the rounding of every computed distance and
/// dual sum in them (proofs/P23 "Floating point").
const RADIUS_SLACK: f64 = 1e-6;

/// Budget and shape of [`local_lagrangian`].
#[derive(Debug, Clone, Copy)]
pub struct LocalOptions {
    /// Most records of a block (its anchors); blocks are split at the median of their
    /// widest coordinate until they fit.
    pub block_size: usize,
    /// Most records of a local set; a block whose set is larger is split again, and a
    /// single record whose set is larger is charged the weak value `-Y_b` (proofs/P23).
    pub max_local: usize,
    /// Threshold `tau <= 0` of the per-anchor search (proofs/P20): groups with reduced cost
    /// at least `tau` are not searched; an anchor is charged at most `|tau|` for it.
    pub threshold: f64,
    /// Branch-and-bound nodes of one block's search.
    pub nodes_per_block: u64,
}

impl Default for LocalOptions {
    fn default() -> Self {
        LocalOptions {
            block_size: 256,
            max_local: 3000,
            threshold: 0.0,
            nodes_per_block: 5_000_000,
        }
    }
}

/// A certified bound from [`local_lagrangian`] and what it cost.
#[derive(Debug, Clone)]
pub struct LocalBound {
    /// The bound, rounded outward.
    pub lower_bound: f64,
    /// `sum y` as computed.
    pub dual_sum: f64,
    /// The anchored charge (sum of the `floor(n/k)` smallest anchor values, <= 0).
    pub charge: f64,
    /// Blocks priced (after splits).
    pub blocks: usize,
    /// Blocks whose exact search ran (the others were charged their weak value).
    pub searched: usize,
    /// Records of the largest local set searched.
    pub largest_local: usize,
    /// Anchors with a negative value.
    pub negative_anchors: usize,
    /// True when every block's search ran to its end (nothing cut by a budget).
    pub exact: bool,
}

/// Split the records into spatial blocks of at most `max_size` records (at least 1): the
/// median split of the widest coordinate, recursively. Deterministic (ties by index).
pub fn spatial_blocks(x: &[f64], n: usize, d: usize, max_size: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut todo = vec![(0..n as u32).collect::<Vec<u32>>()];
    while let Some(mut block) = todo.pop() {
        if block.len() <= max_size.max(1) {
            out.push(block);
            continue;
        }
        let (lo, hi) = bounding_box(x, d, &block);
        let axis = (0..d)
            .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])).then(b.cmp(&a)))
            .unwrap_or(0);
        let half = block.len() / 2;
        let key = |i: &u32| x[*i as usize * d + axis];
        block.sort_unstable_by(|a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
        let right = block.split_off(half);
        todo.push(right);
        todo.push(block);
    }
    out.sort_unstable_by_key(|b| b[0]);
    out
}

/// Per-coordinate minimum and maximum of the records `ids`.
fn bounding_box(x: &[f64], d: usize, ids: &[u32]) -> (Vec<f64>, Vec<f64>) {
    let mut lo = vec![f64::INFINITY; d];
    let mut hi = vec![f64::NEG_INFINITY; d];
    for &i in ids {
        for c in 0..d {
            let v = x[i as usize * d + c];
            lo[c] = lo[c].min(v);
            hi[c] = hi[c].max(v);
        }
    }
    (lo, hi)
}

/// Squared distance from `p` to the box `[lo, hi]` (0 inside).
fn box_dist(p: &[f64], lo: &[f64], hi: &[f64]) -> f64 {
    let mut s = 0.0;
    for c in 0..p.len() {
        let g = (lo[c] - p[c]).max(p[c] - hi[c]).max(0.0);
        s += g * g;
    }
    s
}

/// The nearest-neighbour sums the local sets need: `sums[i * (2k - 1) + r]` (`r = 0..=2k-2`)
/// is the sum of the `r` smallest squared distances from record `i` to the others
/// (infinite where fewer than `r` others exist), by scan in O(n^2 d). A caller with exact
/// neighbour lists (a kd-tree) computes the same values faster.
pub fn nn_sums_by_scan(x: &[f64], n: usize, d: usize, k: usize) -> Vec<f64> {
    let w = 2 * k - 1;
    let mut out = vec![0.0; n * w];
    let mut row = Vec::with_capacity(n);
    for i in 0..n {
        row.clear();
        let xi = &x[i * d..(i + 1) * d];
        row.extend(
            (0..n)
                .filter(|&j| j != i)
                .map(|j| sq_dist(xi, &x[j * d..(j + 1) * d])),
        );
        row.sort_unstable_by(f64::total_cmp);
        let mut acc = 0.0;
        for r in 1..w {
            acc = if r <= row.len() {
                acc + row[r - 1]
            } else {
                f64::INFINITY
            };
            out[i * w + r] = acc;
        }
    }
    out
}

/// The weak terms `w_b(m) = NN_{m-1}(b) / (2m) - y_b` for the sizes `m = k..=2k-1`, row `m - k`
/// (proofs/P23: every member of a group of `m` records contributes at least its term), with
/// the duals `y` and nearest-neighbour sums `nn_sums` they come from (for the reaches).
struct WeakTerms<'a> {
    y: &'a [f64],
    nn_sums: &'a [f64],
    k: usize,
    by_size: Vec<Vec<f64>>,
}

impl<'a> WeakTerms<'a> {
    fn new(y: &'a [f64], nn_sums: &'a [f64], k: usize) -> Self {
        let w = 2 * k - 1;
        let by_size = (k..2 * k)
            .map(|m| {
                (0..y.len())
                    .map(|b| nn_sums[b * w + m - 1] / (2 * m) as f64 - y[b])
                    .collect()
            })
            .collect();
        WeakTerms {
            y,
            nn_sums,
            k,
            by_size,
        }
    }

    /// Per size, the sum of the `m - 1` smallest terms over `ids` (a lower bound on the
    /// terms of the other members of any group of `m` records drawn from `ids`) and the sum
    /// of their magnitudes (for the rounding slack).
    fn others(&self, ids: &[u32]) -> Vec<(f64, f64)> {
        let mut v = Vec::with_capacity(ids.len());
        self.by_size
            .iter()
            .enumerate()
            .map(|(s, terms)| {
                v.clear();
                v.extend(ids.iter().map(|&b| terms[b as usize]));
                sum_smallest(&mut v, self.k + s - 1)
            })
            .collect()
    }

    /// The weak pricing bound over all records, `min_m` (sum of the `m` smallest terms),
    /// lowered by the rounding slack of proofs/P23: valid for every group.
    fn floor(&self) -> f64 {
        let mut v = Vec::new();
        let mut best = f64::INFINITY;
        for (s, terms) in self.by_size.iter().enumerate() {
            v.clear();
            v.extend_from_slice(terms);
            let (sum, abs) = sum_smallest(&mut v, self.k + s);
            best = best.min(sum - RADIUS_SLACK * abs);
        }
        best.next_down()
    }

    /// Record `j`'s reach (proofs/P23): `j` is a member of a group with negative reduced
    /// cost that contains `r` only if `D_rj < reach_j`, where
    /// `reach_j = max_m [2m (y_j - others_m) - NN_{m-2}(j)]` and `others_m` bounds the other
    /// members' weak terms ([`WeakTerms::others`]); widened by the slack of proofs/P23
    /// "Floating point".
    fn reach(&self, others: &[(f64, f64)], j: usize) -> f64 {
        let (y, nn_sums, k) = (self.y, self.nn_sums, self.k);
        let w = 2 * k - 1;
        let mut best = f64::NEG_INFINITY;
        for (s, &(o, o_abs)) in others.iter().enumerate() {
            let m = (k + s) as f64;
            let near = if k + s >= 2 {
                nn_sums[j * w + k + s - 2]
            } else {
                0.0
            };
            let gain = 2.0 * m * (y[j] - o);
            let slack = RADIUS_SLACK * (2.0 * m * (y[j].abs() + o_abs) + near);
            best = best.max(gain - near + slack);
        }
        best
    }
}

/// Sum of the `q` smallest values of `v` (reordering it) and of their magnitudes; over all
/// of `v` when `q` exceeds its length (then no group of that size exists among those
/// records, and any value is valid).
fn sum_smallest(v: &mut [f64], q: usize) -> (f64, f64) {
    let q = q.min(v.len());
    if q == 0 {
        return (0.0, 0.0);
    }
    if q < v.len() {
        v.select_nth_unstable_by(q - 1, f64::total_cmp);
    }
    (v[..q].iter().sum(), v[..q].iter().map(|t| t.abs()).sum())
}

/// The local set of `block` (proofs/P23): the block and every record `j` with
/// `D_rj < reach_j` for some record `r` of the block, the reaches computed from the weak
/// terms `weak` over the whole data (the `n` records of `x`, `d` columns) first and then,
/// three times, over the previous set. Ascending.
fn local_set(x: &[f64], n: usize, d: usize, weak: &WeakTerms, block: &[u32]) -> Vec<u32> {
    let (lo, hi) = bounding_box(x, d, block);
    let row = |i: u32| &x[i as usize * d..(i as usize + 1) * d];
    let mut set: Vec<u32> = (0..n as u32).collect();
    let mut in_block = vec![false; n];
    block.iter().for_each(|&r| in_block[r as usize] = true);
    for _ in 0..3 {
        let others = weak.others(&set);
        let next: Vec<u32> = set
            .iter()
            .copied()
            .filter(|&j| {
                if in_block[j as usize] {
                    return true;
                }
                let reach = weak.reach(&others, j as usize);
                reach > 0.0
                    && box_dist(row(j), &lo, &hi) < reach
                    && block.iter().any(|&r| sq_dist(row(r), row(j)) < reach)
            })
            .collect();
        let shrunk = next.len() < set.len();
        set = next;
        if !shrunk {
            break;
        }
    }
    set
}

/// Per-anchor values `t_r = min(0, L_r) - eps` for the anchors of one block (written into
/// `terms` at their record ids), from the exact per-anchor search on the block's local set
/// (proofs/P23). Returns whether nothing was cut by the budget.
#[allow(clippy::too_many_arguments)]
fn price_block(
    x: &[f64],
    d: usize,
    k: usize,
    y: &[f64],
    block: &[u32],
    set: &[u32],
    opts: &LocalOptions,
    until: Deadline,
    terms: &mut [f64],
) -> bool {
    let l = set.len();
    if l < k {
        // No group of k records lies in the set: every group with medoid here has rc >= 0.
        block.iter().for_each(|&r| terms[r as usize] = 0.0);
        return true;
    }
    let mut local_x = Vec::with_capacity(l * d);
    for &j in set {
        local_x.extend_from_slice(&x[j as usize * d..(j as usize + 1) * d]);
    }
    let local_y: Vec<f64> = set.iter().map(|&j| y[j as usize]).collect();
    let pool = k.min(l - 1).max(1);
    let Some(geo) = Geometry::new_until(&local_x, l, d, k, pool, &|| until.stopped()) else {
        return false; // stopped: the block's anchors keep the weak bound
    };
    let none = CutDuals::none();
    let eps = rc_margin(&geo, &local_y, d, &none);
    let floor = weak_rc_bound(&geo, &local_y);
    let budget = ExactBudget {
        nodes: opts.nodes_per_block,
        deadline: until,
        max_columns: 1,
        stop_after_columns: usize::MAX,
    };
    let threshold = opts.threshold.min(0.0);
    let mut per_size = Vec::new();
    let out = ExactSearch::new(&none)
        .anchors(Anchors::PerSize { threshold })
        .run(&geo, &local_y, budget, &mut per_size);
    let per_anchor = per_anchor_minima(&geo, &per_size, threshold);
    for &r in block {
        let at = set
            .binary_search(&r)
            .expect("a block lies in its local set");
        terms[r as usize] = per_anchor[at].max(floor).min(0.0) - eps;
    }
    out.exact
}

/// The anchored Lagrangian bound of the duals `y` over all `n` records of `x` (row-major,
/// `d` columns), groups of `k..2k-1` records, priced by local exact searches (module doc,
/// proofs/P23), rounded outward. `nn_sums` are the exact nearest-neighbour sums of
/// [`nn_sums_by_scan`] (or the same from exact neighbour lists). Ends by `deadline` (blocks
/// not searched by then, or after `stop` is set, and a block cut there, are charged the weak
/// bound), never fails once the input is valid.
#[allow(clippy::too_many_arguments)]
pub fn local_lagrangian(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    nn_sums: &[f64],
    opts: &LocalOptions,
    deadline: Instant,
    stop: Option<&AtomicBool>,
) -> Result<LocalBound, SolverError> {
    check_rows(x, n, d, k)?;
    if y.len() != n {
        return Err(SolverError::BadDuals { len: y.len(), n });
    }
    if let Some(i) = y.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index: i });
    }
    if nn_sums.len() != n * (2 * k - 1) {
        return Err(SolverError::BadDuals {
            len: nn_sums.len(),
            n: n * (2 * k - 1),
        });
    }
    let weak = WeakTerms::new(y, nn_sums, k);
    // Until searched, an anchor is charged the weak bound (valid for every group).
    let floor = weak.floor().min(0.0);
    let mut terms = vec![floor; n];
    let mut todo = spatial_blocks(x, n, d, opts.block_size);
    todo.reverse();
    let (mut blocks, mut searched, mut largest, mut exact) = (0, 0, 0, true);
    while let Some(block) = todo.pop() {
        if stop.is_some_and(|s| s.load(Ordering::SeqCst)) || Instant::now() >= deadline {
            exact = false;
            blocks += 1 + todo.len();
            break;
        }
        let set = local_set(x, n, d, &weak, &block);
        if set.len() > opts.max_local.max(k) {
            if block.len() > 1 {
                let half = block.len() / 2;
                todo.push(block[half..].to_vec());
                todo.push(block[..half].to_vec());
            } else {
                blocks += 1;
                exact = false;
            }
            continue;
        }
        blocks += 1;
        let now = Instant::now();
        let share = deadline.duration_since(now).as_secs_f64() / (todo.len() + 1) as f64;
        // The block's share is a soft end (root bounds for the anchors left); `deadline` is
        // hard: a block still building its geometry or searching there is abandoned and its
        // anchors keep the weak bound, so the call ends at `deadline`.
        let until = Deadline::command(deadline, stop).until(now + Duration::from_secs_f64(share));
        let done = price_block(x, d, k, y, &block, &set, opts, until, &mut terms);
        searched += 1;
        exact &= done;
        largest = largest.max(set.len());
    }
    Ok(finish(y, k, terms, blocks, searched, largest, exact))
}

/// The rounded bound from the anchor terms (proofs/P20 "Floating point", P23).
fn finish(
    y: &[f64],
    k: usize,
    mut terms: Vec<f64>,
    blocks: usize,
    searched: usize,
    largest_local: usize,
    exact: bool,
) -> LocalBound {
    let n = terms.len();
    let negative_anchors = terms.iter().filter(|&&t| t < 0.0).count();
    let g = (n / k).min(n);
    if g > 0 && g < n {
        terms.select_nth_unstable_by(g - 1, f64::total_cmp);
    }
    let chosen = &terms[..g];
    let sum: f64 = chosen.iter().sum();
    let abs: f64 = chosen.iter().map(|v| v.abs()).sum();
    let charge = (sum - 2.0 * (g as f64 + 1.0) * UNIT_ROUNDOFF * abs).min(0.0);
    LocalBound {
        lower_bound: lagrangian_rounded(y, 1, charge, 0.0),
        dual_sum: y.iter().sum(),
        charge,
        blocks,
        searched,
        largest_local,
        negative_anchors,
        exact,
    }
}
