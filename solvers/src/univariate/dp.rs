//! # O(nk) dynamic program for univariate microaggregation
//!
//! Hansen and Mukherjee's shortest path over the cut positions of the sorted values, pulled
//! cut by cut: `F[j] = min_{j-2k+1 <= i <= j-k} F[i] + w(i, j)`. Cuts are processed in blocks
//! of `k`; every predecessor of a block lies before the block, and all groups ending in the
//! block lie in a window of at most `3k-1` values, over which centred prefix sums give each
//! `w(i, j)` in O(1) (see `window.rs`). Ties go to the smaller predecessor (strict `<` in
//! increasing `i`). Proof of the recursion: `proofs/P04-univariate-contiguity-dp.md`.
//!
//! ## Complexity
//! O(nk) time, O(n + k) memory.
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.

use super::window::WindowSums;
use super::{finish, single_or_sizes, validate};
use crate::error::SolverError;
use crate::segmentation::Segmentation;

/// Optimal univariate microaggregation of ascending `sorted` values by the O(nk) DP.
/// Errors: `k = 0`, a non-finite value, unsorted input, `n < k`.
pub fn univariate_dp(sorted: &[f64], k: usize) -> Result<Segmentation, SolverError> {
    validate(sorted, k, true)?;
    let n = sorted.len();
    if n < 2 * k {
        return Ok(single_or_sizes(sorted, vec![n]));
    }
    let max_group = 2 * k - 1;
    let mut best = vec![f64::INFINITY; n + 1];
    let mut pred = vec![0usize; n + 1];
    best[0] = 0.0;
    let mut sums = WindowSums::new(max_group);
    let mut block_start = k;
    while block_start <= n {
        let block_end = (block_start + k - 1).min(n); // inclusive last cut of the block
        let window_start = (block_start + 1).saturating_sub(2 * k);
        sums.load(sorted, window_start, block_end);
        for j in block_start..=block_end {
            let lo = (j + 1).saturating_sub(2 * k);
            let hi = j - k;
            let mut best_value = f64::INFINITY;
            let mut best_pred = lo;
            for i in lo..=hi {
                // Prefixes of 1..k-1 values are infeasible: F[i] = inf there.
                let value = best[i] + sums.sse(i, j);
                if value < best_value {
                    best_value = value;
                    best_pred = i;
                }
            }
            best[j] = best_value;
            pred[j] = best_pred;
        }
        block_start += k;
    }
    Ok(finish(sorted, &pred))
}
