//! # O(nk) dynamic program for univariate microaggregation
//!
//! Hansen and Mukherjee's shortest path over the cut positions of the sorted values, pulled
//! cut by cut: `F[j] = min_{j-2k+1 <= i <= j-k} F[i] + w(i, j)`. Cuts are processed in blocks
//! of `k`; every predecessor of a block lies before the block, and all groups ending in the
//! block lie in a window of at most `3k-2` values, over which centred prefix sums give each
//! `w(i, j)` in O(1) (see `window.rs`). Ties go to the smaller predecessor (strict `<` in
//! increasing `i`). Proof of the recursion: `proofs/P04-univariate-contiguity-dp.md`.
//!
//! [`univariate_weighted_runs`] runs the same recursion over sorted runs with weighted group
//! costs (module doc of `univariate`, "Sampling weights"). Centred prefix sums do not carry
//! over to weights, so its costs are grown leftwards from each cut with the weighted Welford
//! update `S += W w / (W + w) (x - m)^2`, `m += w (x - m) / (W + w)` (no difference of large
//! sums); ties also go to the smaller predecessor cut (P40 Lemma W2).
//!
//! ## Complexity
//! O(nk) time, O(n + k) memory (weighted runs: O(n) memory).
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.
//! - West, D. H. D. (1979). Updating mean and variance estimates: an improved method.
//!   Communications of the ACM 22(9), 532-535 (weighted incremental update).

use super::window::WindowSums;
use super::{cut_tables, finish, single_or_sizes};
use crate::error::SolverError;
use crate::segmentation::Segmentation;

/// Optimal univariate microaggregation of ascending `sorted` values by the O(nk) DP.
/// Errors: `k = 0`, a non-finite value, unsorted input, `n < k`.
pub fn univariate_dp(sorted: &[f64], k: usize) -> Result<Segmentation, SolverError> {
    let Some((mut best, mut pred)) = cut_tables(sorted, None, k)? else {
        return Ok(single_or_sizes(sorted, None, vec![sorted.len()]));
    };
    let n = sorted.len();
    let mut sums = WindowSums::new(2 * k - 1);
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
    Ok(finish(sorted, None, &pred))
}

/// Minimum weighted SSE over partitions of `sorted` (ascending; `weights[i]` belongs to
/// `sorted[i]`) into runs of consecutive values of at least `k` records each. Errors: `k = 0`,
/// a non-finite value, unsorted input, `n < k`, a weight that is not finite and positive.
pub fn univariate_weighted_runs(
    sorted: &[f64],
    weights: &[f64],
    k: usize,
) -> Result<Segmentation, SolverError> {
    let Some((mut best, mut pred)) = cut_tables(sorted, Some(weights), k)? else {
        return Ok(single_or_sizes(sorted, Some(weights), vec![sorted.len()]));
    };
    let n = sorted.len();
    for j in k..=n {
        let lo = (j + 1).saturating_sub(2 * k);
        // Grow the group sorted[i..j] leftwards from i = j - 1.
        let (mut total, mut mean, mut cost) = (0.0f64, 0.0f64, 0.0f64);
        let mut min_value = f64::INFINITY;
        let mut min_i = usize::MAX;
        for i in (lo..j).rev() {
            let (x, w) = (sorted[i], weights[i]);
            let grown = total + w;
            let dev = x - mean;
            cost += total * w / grown * dev * dev;
            mean += w * dev / grown;
            total = grown;
            if j - i < k || best[i] == f64::INFINITY {
                continue;
            }
            let value = best[i] + cost;
            // `<=` while i decreases: ties go to the smaller predecessor.
            if value <= min_value || min_i == usize::MAX {
                min_value = value;
                min_i = i;
            }
        }
        if min_i != usize::MAX {
            best[j] = min_value;
            pred[j] = min_i;
        }
    }
    Ok(finish(sorted, Some(weights), &pred))
}
