//! # Block-local centred prefix sums
//!
//! O(1) SSE of any run `sorted[i..j]` inside a window of the sorted values, from prefix sums
//! of `(v - c)` and `(v - c)^2` where `c` is the middle value of the window. Prefix sums are
//! rebuilt for every window (of at most `3k-2` values), so their magnitude is that of the
//! window's own spread, not of the whole data: the cancellation in
//! `S2 - S1^2 / m` costs at most a factor about `(window spread / group spread)^2` in
//! relative accuracy instead of `(global scale / group spread)^2`
//! (`proofs/P07-incremental-group-sse.md`, Section 4).
//!
//! ## Complexity
//! O(window) to load, O(1) per query.
//!
//! ## References
//! - Chan, T. F., Golub, G. H. and LeVeque, R. J. (1983). Algorithms for computing the sample
//!   variance: analysis and recommendations. The American Statistician 37(3), 242-247.

/// Centred prefix sums over `sorted[start..end]`.
pub(crate) struct WindowSums {
    start: usize,
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
    inv_size: Vec<f64>,
}

impl WindowSums {
    /// Buffers for groups of at most `max_group` values.
    pub(crate) fn new(max_group: usize) -> Self {
        let inv_size = (0..=max_group)
            .map(|m| if m == 0 { 0.0 } else { 1.0 / m as f64 })
            .collect();
        WindowSums {
            start: 0,
            sum: Vec::new(),
            sum_sq: Vec::new(),
            inv_size,
        }
    }

    /// Rebuilds the prefix sums for the window `sorted[start..end]` (`start < end`).
    pub(crate) fn load(&mut self, sorted: &[f64], start: usize, end: usize) {
        let window = &sorted[start..end];
        let centre = window[window.len() / 2];
        self.start = start;
        self.sum.resize(window.len() + 1, 0.0);
        self.sum_sq.resize(window.len() + 1, 0.0);
        self.sum[0] = 0.0;
        self.sum_sq[0] = 0.0;
        let (mut s1, mut s2) = (0.0, 0.0);
        for ((&v, p1), p2) in window
            .iter()
            .zip(&mut self.sum[1..])
            .zip(&mut self.sum_sq[1..])
        {
            let y = v - centre;
            s1 += y;
            s2 += y * y;
            *p1 = s1;
            *p2 = s2;
        }
    }

    /// Centred prefix sums `P1[a] = sum_{p < a} (v_p - c)` (local index `a = i - start`).
    pub(crate) fn prefix_sum(&self) -> &[f64] {
        &self.sum
    }

    /// Centred prefix sums of squares `P2[a] = sum_{p < a} (v_p - c)^2`.
    pub(crate) fn prefix_sum_sq(&self) -> &[f64] {
        &self.sum_sq
    }

    /// `1/m` for `m = 0..=max_group` (0 for `m = 0`).
    pub(crate) fn inv_size(&self) -> &[f64] {
        &self.inv_size
    }

    /// SSE of `sorted[i..j]`; requires `start <= i < j <= end` and `j - i <= max_group`.
    #[inline]
    pub(crate) fn sse(&self, i: usize, j: usize) -> f64 {
        let a = i - self.start;
        let b = j - self.start;
        let s1 = self.sum[b] - self.sum[a];
        let s2 = self.sum_sq[b] - self.sum_sq[a];
        (s2 - s1 * s1 * self.inv_size[j - i]).max(0.0)
    }
}
