//! # Certified arithmetic for the exact solvers
//!
//! Error bounds that turn computed group costs, reduced costs and Lagrangian sums into values
//! that bound the exact ones (for the data as stored) from the right side, so that "proven
//! optimal" holds in floating point (`proofs/P12-certified-branch-and-bound.md`, section
//! "Floating point"). Model: IEEE-754 binary64, round to nearest, unit roundoff
//! `u = 2^-53` (`proofs/P10-outward-rounding.md`).
//!
//! - [`sse_interval`]: the two-pass SSE of a group with an interval that contains the exact
//!   SSE.
//! - [`rc_lower`]: a lower bound on the exact reduced cost `SSE(G) - y(G)`.
//! - [`partition_sse_upper`]: an upper bound on the exact SSE of a labelling.
//! - [`is_proven`]: the one place that decides "proven optimal" from a certified lower bound.
//!
//! ## Complexity
//! O(m d) per group of m records, like the SSE itself.
//!
//! ## References
//! Higham, N. J. (2002). Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM
//! (forward error of recursive summation, chapter 4).

/// Unit roundoff of `f64`.
pub(crate) const U: f64 = f64::EPSILON / 2.0;

/// "Proven optimal" means: a certified lower bound on the optimum is at least
/// `(1 - PROOF_REL_GAP)` times a certified upper bound on the exact SSE of the partition.
/// No partition is better than the reported one by more than this relative amount.
pub const PROOF_REL_GAP: f64 = 1e-9;

/// Two-pass SSE of `members` with an interval `[lo, hi]` containing the exact SSE of the
/// stored values. Returns `(lo, computed, hi)`.
///
/// The interval comes from the pairwise form `SSE = (1/m) sum_{a<b} ||x_a - x_b||^2` (P01),
/// which needs no centroid: a sum of nonnegative terms with at most `ops = 3d + m^2/2 + 2`
/// roundings on any path, so its computed value `P` satisfies
/// `P / (1 + u)^ops <= SSE <= P / (1 - u)^ops` (P10), covered by a relative `2 ops u` and one
/// `next_up` / `next_down`. (A bound through the two-pass centroid would carry the centroid's
/// rounding, up to `m (m u max|x|)^2`, which is not small against the SSE of near-identical
/// records far from the origin.) If every difference is 0 the members are identical and the
/// exact SSE is 0.
pub(crate) fn sse_interval(x: &[f64], d: usize, members: &[usize]) -> (f64, f64, f64) {
    let computed = crate::sse::group_sse(x, d, members);
    let m = members.len();
    let mut pairs = 0.0;
    for (a, &i) in members.iter().enumerate() {
        for &j in &members[a + 1..] {
            pairs += crate::sse::sq_dist(&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d]);
        }
    }
    if pairs == 0.0 {
        return (0.0, computed, 0.0);
    }
    let pairwise = pairs / m as f64;
    let ops = (3 * d + m * m / 2 + 2) as f64;
    let lo = (pairwise * (1.0 - 2.0 * ops * U)).next_down().max(0.0);
    let hi = (pairwise * (1.0 + 2.0 * ops * U)).next_up();
    (lo, computed, hi)
}

/// A lower bound on the exact reduced cost `SSE(G) - sum_{i in G} y_i`, given a lower bound
/// `cost_lo` on the exact SSE of `G` (the duals `y` are exact floating-point numbers). The
/// dual sum of `m` terms is within `(m - 1) u sum|y_i|` of its exact value, the subtraction
/// adds `u` of the result's magnitude; twice that margin and one `next_down` cover both.
pub(crate) fn rc_lower(cost_lo: f64, y: &[f64], members: impl Iterator<Item = usize>) -> f64 {
    let mut ysum = 0.0;
    let mut yabs = 0.0;
    let mut m = 0.0;
    for i in members {
        ysum += y[i];
        yabs += y[i].abs();
        m += 1.0;
    }
    let rc = cost_lo - ysum;
    let margin = 2.0 * (m + 2.0) * U * (cost_lo.abs() + yabs);
    (rc - margin).next_down()
}

/// A lower bound on the Lagrangian bound `sum_i y_i + m_max min(0, rho)` (P09 Part A) for a
/// certified `rho <= RC*(y)`: the dual sum lowered by `2 (n + 1) u sum|y_i|` (recursive
/// summation), the product and the total each lowered by `2u` of their magnitude, then one
/// `next_down` (`proofs/P09-lagrangian-bound.md`, "Floating point").
pub(crate) fn lagrangian_lower(y: &[f64], m_max: usize, rho: f64) -> f64 {
    // The same rounding as the column generation bound, with no pricing margin (`rho` is
    // already certified).
    crate::bounds::colgen::lagrangian_rounded(y, m_max, rho, 0.0)
}

/// Members of each group of a labelling (groups `0..g`, `g` = largest label + 1).
pub(crate) fn groups_of(labels: &[usize]) -> Vec<Vec<usize>> {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members
}

/// An upper bound on the exact SSE of a labelling: the sum of the groups' upper bounds, raised
/// by the rounding of that sum of nonnegative terms (P10) and one `next_up`.
/// Labels are group indices: `groups_of` allocates one group per value up to the largest, so
/// callers with arbitrary label values renumber them first.
pub fn partition_sse_upper(x: &[f64], d: usize, labels: &[usize]) -> f64 {
    let groups = groups_of(labels);
    let sum: f64 = groups.iter().map(|m| sse_interval(x, d, m).2).sum();
    if sum == 0.0 {
        return 0.0;
    }
    (sum * (1.0 + 2.0 * (groups.len() as f64 + 1.0) * U)).next_up()
}

/// A lower bound on the exact SSE of a labelling: the sum of the groups' lower bounds,
/// lowered by the rounding of that sum (P10) and one `next_down`.
pub(crate) fn partition_sse_lower(x: &[f64], d: usize, labels: &[usize]) -> f64 {
    let groups = groups_of(labels);
    let sum: f64 = groups.iter().map(|m| sse_interval(x, d, m).0).sum();
    (sum * (1.0 - 2.0 * (groups.len() as f64 + 1.0) * U))
        .next_down()
        .max(0.0)
}

/// The proof criterion: `lower_bound` (a certified lower bound on the optimum) is within the
/// relative gap [`PROOF_REL_GAP`] of `sse_upper` (a certified upper bound on the exact SSE of
/// the partition). `sse_upper = 0` is proven by any `lower_bound >= 0` (SSE is never negative).
pub fn is_proven(lower_bound: f64, sse_upper: f64) -> bool {
    lower_bound >= sse_upper * (1.0 - PROOF_REL_GAP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_interval_contains_a_high_accuracy_value() {
        // Values near 1e8 with spreads near 1e-4: the mean's rounding matters here.
        let x = [1e8 + 1e-4, 1e8 - 2e-4, 1e8 + 3e-4, 1e8];
        let (lo, c, hi) = sse_interval(&x, 1, &[0, 1, 2, 3]);
        // Exact SSE of the stored values by compensated arithmetic on the differences to a
        // stored value (exact subtractions by Sterbenz' lemma).
        let base = x[3];
        let diffs: Vec<f64> = x.iter().map(|v| v - base).collect();
        let mean: f64 = diffs.iter().sum::<f64>() / 4.0;
        let exact: f64 = diffs.iter().map(|v| (v - mean) * (v - mean)).sum();
        assert!(
            lo <= exact && exact <= hi,
            "{lo} <= {exact} <= {hi} (computed {c})"
        );
        assert!(lo >= 0.0);
    }

    #[test]
    fn proven_criterion_is_relative_and_handles_zero() {
        assert!(is_proven(0.0, 0.0));
        assert!(is_proven(1.0 - 1e-10, 1.0));
        assert!(!is_proven(1.0 - 1e-8, 1.0));
        assert!(!is_proven(2.568e-9 * 0.4, 2.568e-9));
    }

    #[test]
    fn rc_lower_is_below_the_computed_value() {
        let y = [0.5, -0.25, 1e6];
        let lo = rc_lower(2.0, &y, [0usize, 1, 2].into_iter());
        assert!(lo < 2.0 - (0.5 - 0.25 + 1e6));
        assert!(lo > 2.0 - (0.5 - 0.25 + 1e6) - 1e-6);
    }
}
