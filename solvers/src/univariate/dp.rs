//! # O(nk) dynamic program for univariate microaggregation
//!
//! Hansen and Mukherjee's shortest path over the cut positions of the sorted values, pulled
//! cut by cut: `F[j] = min_{j-2k+1 <= i <= j-k} F[i] + w(i, j)`. Cuts are processed in blocks
//! of `k`; every predecessor of a block lies before the block, and all groups ending in the
//! block lie in a window of at most `3k-2` values, over which centred prefix sums give each
//! `w(i, j)` in O(1) (see `window.rs`). Ties go to the smaller predecessor (strict `<` in
//! increasing `i`). Proof of the recursion: `proofs/P04-univariate-contiguity-dp.md`.
//!
//! ## Complexity
//! O(nk) time, O(n + k) memory.
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.

use super::{cut_tables, finish, single_or_sizes};
use crate::error::SolverError;
use crate::segmentation::Segmentation;

/// Optimal univariate microaggregation of ascending `sorted` values by the O(nk) DP.
/// Errors: `k = 0`, a non-finite value, unsorted input, `n < k`.
pub fn univariate_dp(sorted: &[f64], k: usize) -> Result<Segmentation, SolverError> {
    let Some((n, mut best, mut pred, mut sums)) = cut_tables(sorted, k)? else {
        return Ok(single_or_sizes(sorted, vec![sorted.len()]));
    };
    // Per block: shifted[a] = F[start + a] - P2[a], so that
    // F[i] + w(i, j) = shifted[a] + P2[b] - (P1[b] - P1[a])^2 / (b - a) with a, b local.
    let mut shifted: Vec<f64> = Vec::with_capacity(3 * k);
    let mut block_start = k;
    while block_start <= n {
        let block_end = (block_start + k - 1).min(n); // inclusive last cut of the block
        let window_start = (block_start + 1).saturating_sub(2 * k);
        sums.load(sorted, window_start, block_end);
        let (p1, p2, inv) = (sums.prefix_sum(), sums.prefix_sum_sq(), sums.inv_size());
        // Predecessors of this block are the cuts window_start..block_start-k+k-1 < block_start.
        shifted.clear();
        shifted.extend(
            (window_start..block_start)
                .zip(p2)
                .map(|(i, &q)| best[i] - q), // inf stays inf for infeasible prefixes
        );
        for j in block_start..=block_end {
            let lo = (j + 1).saturating_sub(2 * k);
            let hi = j - k;
            let b = j - window_start;
            let (a_lo, a_hi) = (lo - window_start, hi - window_start);
            let (p1b, p2b) = (p1[b], p2[b]);
            // Sizes run from b - a_lo down to k as a goes up.
            let sizes_inv = &inv[k..=b - a_lo];
            let mut min_value = f64::INFINITY;
            // Start from the first feasible predecessor (cuts 1..k-1 are not), so that even
            // overflowing costs (inf) yield a valid segmentation.
            let mut min_offset = if lo == 0 || lo >= k { 0 } else { k - lo };
            for (offset, ((&g, &p1a), &inv_m)) in shifted[a_lo..=a_hi]
                .iter()
                .zip(&p1[a_lo..=a_hi])
                .zip(sizes_inv.iter().rev())
                .enumerate()
            {
                let t = p1b - p1a;
                let value = g + p2b - t * t * inv_m;
                // Strict `<`: ties go to the smaller predecessor. Written as selects so the
                // compiler can avoid unpredictable branches.
                let better = value < min_value;
                min_value = if better { value } else { min_value };
                min_offset = if better { offset } else { min_offset };
            }
            let offset = min_offset;
            best[j] = min_value;
            pred[j] = lo + offset;
        }
        block_start += k;
    }
    Ok(finish(sorted, &pred))
}
