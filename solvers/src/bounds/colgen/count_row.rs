//! # The group-count row
//!
//! Every partition of `n` records into groups of at least `k` records has at most
//! `F = floor(n/k)` groups, so `sum_S x_S <= F` is valid for the set-partitioning master (a
//! Chvátal-Gomory rank-1 cut of the covering rows with multipliers `1/k`, as `|S| >= k`;
//! proofs/P22). The master LP violates it where `k` does not divide `n` (Tarragona k = 5:
//! 166.8 groups fractionally, `F = 166`). With its dual `mu <= 0` every group's reduced cost
//! gains the same constant: `rc'(S) = rc(S) - mu`, where `rc` is the reduced cost without the
//! row (record duals, cut penalties). So:
//!
//! - **Pricing.** The exact pricings compute (a proven lower bound on) `min(0, min rc)`; the
//!   shift is a constant, so the minimiser is the same and [`shifted_rc_bound`] turns the
//!   bound into one on `min(0, min rc')`. A group improves the master when `rc(S) < mu`
//!   ([`column_threshold`]). The size completion of P20 is redone for the shift in
//!   [`completion_value_shifted`].
//! - **Bound.** The row's own Lagrangian bound `sum y + sum sigma + F mu + F min(0, rho - mu)`
//!   ([`count_lagrangian`]) equals `sum y + sum sigma + F min(mu, rho)`, which is never above
//!   the bound the project already uses, `sum y + sum sigma + F min(0, rho)` (P09, P14): that
//!   bound already charges every partition at most `F` groups, i.e. it is the count row's
//!   Lagrangian bound at the best `mu` (0) for the same `y`. The row changes the master LP's
//!   duals `y` (the LP value rises to the row's LP value), not the formula; at the row's LP
//!   optimum `rho = mu` and both formulas give the LP value. Hence the certificates keep
//!   their format: `verify-bound` recomputes the same value from `y` and `sigma` alone.
//!
//! ## Complexity
//! O(1) per call; the master holds one more dense row (one nonzero per column).
//!
//! ## References
//! - Chvátal, V. (1973). Edmonds polytopes and a hierarchy of combinatorial problems.
//!   Discrete Mathematics 4(4), 305-337 (rank-1 rounding of `(1/k)` times the covering rows).
//! - proofs/P22-group-count-row.md (validity, the bound, the pricing shift, the completion).

use crate::bounds::UNIT_ROUNDOFF;

/// The right side `floor(n/k)` of the count row: the most groups of any partition of `n`
/// records into groups of at least `k` records (`k >= 1`).
pub fn max_groups(n: usize, k: usize) -> usize {
    n / k
}

/// The least number of groups, `ceil(n / (2k - 1))`, of a partition whose groups all have
/// `k..2k-1` records (P03: some optimal partition is one). Not a master row: the master's
/// columns already have at most `2k - 1` records, so the LP meets `sum x >= n / (2k - 1)`,
/// and its solutions press toward more groups, not fewer (P22 "Companion").
pub fn min_groups(n: usize, k: usize) -> usize {
    n.div_ceil(2 * k - 1)
}

/// A proven lower bound on `min(0, min_S rc'(S))`, `rc' = rc - mu`, from a proven lower
/// bound `rho` on `min(0, min_S rc(S))` and the count dual `mu <= 0` (positive `mu` is
/// clipped to 0, the row's admissible sign). Rounded down by one relative ulp step of the
/// operands.
pub fn shifted_rc_bound(rho: f64, mu: f64) -> f64 {
    let mu = mu.min(0.0);
    let v = rho - mu;
    let v = v - 2.0 * UNIT_ROUNDOFF * (rho.abs() + mu.abs());
    v.min(0.0)
}

/// Groups with computed `rc(S)` (without the row) below this improve the master with the
/// count row (`rc'(S) = rc(S) - mu < -tol`).
pub fn column_threshold(mu: f64, tol: f64) -> f64 {
    mu.min(0.0) - tol
}

/// The count row's Lagrangian value `sum_y + sum_sigma + F mu + F min(0, rho')` in plain
/// arithmetic (P22 Part B; `rho'` a lower bound on `min(0, min rc')`, `mu <= 0`): for the
/// proofs' tests, not for certified output (which uses the dominating formula without `mu`,
/// rounded outward).
pub fn count_lagrangian(sum_y_sigma: f64, groups_max: usize, mu: f64, rho_shifted: f64) -> f64 {
    let f = groups_max as f64;
    sum_y_sigma + f * mu.min(0.0) + f * rho_shifted.min(0.0)
}

/// The size completion of P20 for the shifted reduced cost (P22 Part D): when no group of
/// `k` records has `rc'` below `tau'` (a computed lower bound `g_k_shifted` before the
/// rounding margin `margin`), every group of `m >= k` records has
/// `rc' >= (m/k) tau' + (m/k - 1) mu`; returns `v` with `v - margin <=` that bound for
/// `tau' = g_k_shifted - margin`, rounded down. Without the row (`mu = 0`) this is P20's
/// `(m/k) tau'` (never above [`super::pricing::completion::completion_value`]).
pub fn completion_value_shifted(k: usize, m: usize, g_k_shifted: f64, mu: f64, margin: f64) -> f64 {
    let mu = mu.min(0.0);
    let low = g_k_shifted.min(0.0) - margin; // tau' <= 0
    let ratio = m as f64 / k as f64;
    let a = low * ratio; // <= 0
    let b = (ratio - 1.0) * mu; // <= 0
    let sum = a + b;
    let sum = sum - 8.0 * UNIT_ROUNDOFF * (a.abs() + b.abs());
    let v = sum + margin;
    (v - 2.0 * UNIT_ROUNDOFF * v.abs()).next_down()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(max_groups(834, 5), 166);
        assert_eq!(max_groups(834, 4), 208);
        assert_eq!(max_groups(4092, 10), 409);
        assert_eq!(max_groups(1080, 3), 360);
        assert_eq!(min_groups(834, 5), 93);
        assert_eq!(min_groups(9, 5), 1);
        assert_eq!(min_groups(10, 5), 2);
    }

    #[test]
    fn shift_and_threshold() {
        // rc >= -3 everywhere and mu = -2: rc' >= -1.
        let v = shifted_rc_bound(-3.0, -2.0);
        assert!(v <= -1.0 && v > -1.0 - 1e-12);
        // A positive mu is clipped: no shift.
        assert!(shifted_rc_bound(-3.0, 5.0) <= -3.0);
        // rc' >= 0: capped at 0.
        assert_eq!(shifted_rc_bound(-1.0, -2.0), 0.0);
        assert_eq!(column_threshold(-2.0, 1e-9), -2.0 - 1e-9);
        assert_eq!(column_threshold(3.0, 1e-9), -1e-9);
    }

    #[test]
    fn count_lagrangian_is_never_above_the_plain_formula() {
        // sum y + sum sigma + F min(mu, rho) <= sum y + sum sigma + F min(0, rho).
        for &(rho, mu) in &[
            (-3.0f64, -2.0f64),
            (-1.0, -2.0),
            (0.0, -4.0),
            (-2.0, -2.0),
            (-5.0, 0.0),
        ] {
            let shifted = (rho - mu).min(0.0);
            let with_row = count_lagrangian(10.0, 7, mu, shifted);
            let plain = 10.0 + 7.0 * f64::min(0.0, rho);
            assert!(with_row <= plain + 1e-12, "rho {rho} mu {mu}");
            if rho == mu {
                assert!((with_row - plain).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn completion_reduces_to_p20_without_the_row() {
        use crate::bounds::colgen::pricing::completion::completion_value;
        for &(g, m) in &[(-1.0, 6), (-0.25, 9), (0.0, 7), (-3e7, 8)] {
            let a = completion_value_shifted(5, m, g, 0.0, 1e-9);
            let b = completion_value(5, m, g, 1e-9);
            assert!(a <= b, "m {m} g {g}: {a} > {b}");
            assert!(a >= b - 1e-6 * (1.0 + b.abs()));
        }
    }
}
