//! # O(n) univariate microaggregation by blockwise SMAWK
//!
//! The DP `F[j] = min_i F[i] + w(i, j)` over cuts of the sorted values, with admissible
//! predecessors `k <= j - i <= 2k-1`, is solved one block of `k` consecutive cuts at a time
//! (a "staggered" scheme): for the cuts `j` of block `t` (`tk <= j < (t+1)k`) every admissible
//! predecessor satisfies `i <= j - k < tk`, so its `F[i]` is already final. The block's matrix
//! `A[j][i] = F[i] + w(i, j)` over the columns `max(tk-2k+1, k) <= i <= tk-1` is Monge, because
//! `w` is (sorted data), and the size window is encoded by a lexicographic key
//! `(steps outside the window, value)` whose first component is a convex function of `j - i`,
//! which keeps the Monge property (`proofs/P08-monge-fast-univariate.md`). SMAWK then finds
//! the leftmost row minima of the `k x (2k-1)` matrix with O(k) evaluations. The first block
//! (`k <= j <= 2k-1`) has the single predecessor `0`.
//!
//! Each `w(i, j)` is O(1) from centred prefix sums rebuilt per block over the window
//! `[tk-2k+1, tk+k-1)` (see `window.rs`). A row whose computed minimum were outside the size
//! window (impossible in exact arithmetic) falls back to a direct scan of its admissible
//! predecessors, so rounding can never yield an infeasible segmentation.
//!
//! ## Complexity
//! O(n) time (O(k) per block of `k` cuts), O(n + k) memory.
//!
//! ## References
//! - Aggarwal, A., Klawe, M. M., Moran, S., Shor, P. and Wilber, R. (1987). Geometric
//!   applications of a matrix-searching algorithm. Algorithmica 2, 195-208.
//! - Wilber, R. (1988). The concave least-weight subsequence problem revisited. Journal of
//!   Algorithms 9(3), 418-425.
//! - Stamm, F. I. and Schaub, M. T. (2024). Faster optimal univariate microaggregation.
//!   arXiv preprint.

use super::window::WindowSums;
use super::{cut_tables, finish, single_or_sizes};
use crate::error::SolverError;
use crate::segmentation::Segmentation;

/// Key of a matrix entry: steps outside the size window, then `F[i] + w(i, j)` (0 when
/// outside). Compared lexicographically.
type Key = (usize, f64);

/// Lexicographic `a < b` (no NaN occurs: values are finite or the entry is penalised).
#[inline(always)]
fn less(a: Key, b: Key) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// Rows `first + step * t` for `t < count` (local row indices of a block).
#[derive(Clone, Copy)]
struct Rows {
    first: usize,
    step: usize,
    count: usize,
}

impl Rows {
    fn get(&self, t: usize) -> usize {
        self.first + self.step * t
    }
}

/// SMAWK (Aggarwal et al. 1987) for leftmost row minima of a totally monotone matrix.
/// The candidate columns of this level are `stack[cols_start..]`; reduced column lists of
/// deeper levels are pushed on top of `stack` and popped before returning.
fn smawk(
    rows: Rows,
    cols_start: usize,
    stack: &mut Vec<usize>,
    argmin: &mut [usize],
    key: &impl Fn(usize, usize) -> Key,
) {
    if rows.count == 0 {
        return;
    }
    let cols_end = stack.len();
    // REDUCE: keep at most rows.count columns, dropping columns that cannot hold a leftmost
    // minimum of any row.
    let reduced_start = cols_end;
    for p in cols_start..cols_end {
        let column = stack[p];
        while stack.len() > reduced_start {
            let depth = stack.len() - reduced_start;
            let row = rows.get(depth - 1);
            let top = stack[stack.len() - 1];
            // Ties keep the left column (leftmost minima).
            if !less(key(row, column), key(row, top)) {
                break;
            }
            stack.pop();
        }
        if stack.len() - reduced_start < rows.count {
            stack.push(column);
        }
    }
    let reduced_end = stack.len();
    // Recurse on the odd rows over the reduced columns (copied so the recursion can reduce
    // them in place on top of the stack).
    let odd = Rows {
        first: rows.first + rows.step,
        step: rows.step * 2,
        count: rows.count / 2,
    };
    if odd.count > 0 {
        stack.extend_from_within(reduced_start..reduced_end);
        smawk(odd, reduced_end, stack, argmin, key);
        stack.truncate(reduced_end);
    }
    // INTERPOLATE the even rows between the minima of their odd neighbours.
    let mut p = reduced_start;
    for t in (0..rows.count).step_by(2) {
        let row = rows.get(t);
        let stop = if t + 1 < rows.count {
            argmin[rows.get(t + 1)]
        } else {
            stack[reduced_end - 1]
        };
        let mut best_col = stack[p];
        let mut best_key = key(row, best_col);
        while stack[p] != stop && p + 1 < reduced_end {
            p += 1;
            let candidate = key(row, stack[p]);
            if less(candidate, best_key) {
                best_key = candidate;
                best_col = stack[p];
            }
        }
        argmin[row] = best_col;
    }
    stack.truncate(cols_start);
}

/// Optimal univariate microaggregation of ascending `sorted` values in O(n) by blockwise
/// SMAWK. Errors: `k = 0`, a non-finite value, unsorted input, `n < k`.
pub fn univariate_smawk(sorted: &[f64], k: usize) -> Result<Segmentation, SolverError> {
    let Some((mut best, mut pred)) = cut_tables(sorted, None, k)? else {
        return Ok(single_or_sizes(sorted, None, vec![sorted.len()]));
    };
    let (n, max_group) = (sorted.len(), 2 * k - 1);
    let mut sums = WindowSums::new(max_group);

    // First block: cuts k..=2k-1 have the single predecessor 0.
    sums.load(sorted, 0, max_group);
    for (j, value) in best.iter_mut().enumerate().take(max_group + 1).skip(k) {
        *value = sums.sse(0, j);
    }

    let mut stack: Vec<usize> = Vec::with_capacity(4 * k);
    let mut argmin = vec![0usize; k];
    let mut chosen = vec![(0usize, 0.0f64); k];
    let mut shifted: Vec<f64> = Vec::with_capacity(2 * k);
    let mut block_start = 2 * k;
    while block_start <= n {
        let block_end = (block_start + k - 1).min(n); // inclusive
        let col_lo = (block_start + 1 - 2 * k).max(k);
        let col_hi = block_start - 1;
        sums.load(sorted, col_lo, block_end);
        let (p1, p2, inv) = (sums.prefix_sum(), sums.prefix_sum_sq(), sums.inv_size());
        // shifted[a] = F[col_lo + a] - P2[a]: F[i] + w(i, j) = shifted[a] + P2[b] - t^2 / m.
        shifted.clear();
        shifted.extend((col_lo..=col_hi).zip(p2).map(|(i, &q)| best[i] - q));
        let key = |row: usize, i: usize| -> Key {
            let size = block_start + row - i;
            if size > max_group {
                (size - max_group, 0.0)
            } else if size < k {
                (k - size, 0.0)
            } else {
                let a = i - col_lo;
                let b = a + size;
                let t = p1[b] - p1[a];
                (0, shifted[a] + p2[b] - t * t * inv[size])
            }
        };
        let rows = Rows {
            first: 0,
            step: 1,
            count: block_end - block_start + 1,
        };
        stack.clear();
        stack.extend(col_lo..=col_hi);
        smawk(rows, 0, &mut stack, &mut argmin, &key);
        for (row, slot) in chosen.iter_mut().enumerate().take(rows.count) {
            let j = block_start + row;
            let mut i = argmin[row];
            let (outside, mut value) = key(row, i);
            if outside != 0 {
                // Unreachable in exact arithmetic; rounding must not make us infeasible.
                let first = (j + 1 - 2 * k).max(k);
                i = first;
                value = key(row, first).1;
                for candidate in first..=j - k {
                    let (_, v) = key(row, candidate);
                    if v < value {
                        value = v;
                        i = candidate;
                    }
                }
            }
            *slot = (i, value);
        }
        for (row, &(i, value)) in chosen.iter().enumerate().take(rows.count) {
            best[block_start + row] = value;
            pred[block_start + row] = i;
        }
        block_start += k;
    }
    Ok(finish(sorted, None, &pred))
}
