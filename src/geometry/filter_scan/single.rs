//! # The single-precision copy of the filtered scan
//!
//! The records in `f32`, column by column; a pass computes the squared distances in `f32`
//! ([`super::kernels::distances_f32`]), which differ from the scan's `f64` values by at most
//! the bound E of [`error_bound`] (P16 (h)): a farthest query keeps the values within 2E of
//! the largest, a k-nearest query those within 2E of the k-th smallest. O(m d) per pass,
//! O(m d) memory (`f32`, half the pool's).

use super::kernels::{distances_f32, error_bound};
use super::{Pass, MAX_MAGNITUDE};
use crate::data::Instance;

/// The records in `f32` columns (see the module doc).
pub struct Single {
    cols: Vec<Vec<f32>>,
    /// Largest |value| of each column over the records given at the start.
    col_abs: Vec<f64>,
    /// Bound on |approx - scan distance| for the last query point (already widened for the
    /// threshold arithmetic); infinite when the point is too large for `f32`.
    margin: f64,
    /// Multiplies the margin; 1 except in the test that loosens it on purpose.
    margin_factor: f64,
}

impl Pass for Single {
    type Value = f32;

    /// None when a value is not finite or of magnitude 10^15 or more.
    fn build(inst: &Instance, ids: &[usize]) -> Option<Self> {
        let d = inst.d;
        let mut cols = vec![Vec::with_capacity(ids.len()); d];
        let mut col_abs = vec![0.0f64; d];
        for j in 0..d {
            for &i in ids {
                let v = inst.z[i * d + j];
                if !(v.is_finite() && v.abs() < MAX_MAGNITUDE) {
                    return None;
                }
                cols[j].push(v as f32);
                col_abs[j] = col_abs[j].max(v.abs());
            }
        }
        Some(Single {
            cols,
            col_abs,
            margin: f64::INFINITY,
            margin_factor: 1.0,
        })
    }

    fn pass(&mut self, point: &[f64], out: &mut [f32], lo: &mut [f32], hi: &mut [f32]) -> bool {
        self.margin = self.margin_factor * error_bound(&self.col_abs, point);
        if !self.margin.is_finite() {
            return false;
        }
        let q: Vec<f32> = point.iter().map(|&v| v as f32).collect();
        distances_f32(&self.cols, &q, out, lo, hi);
        true
    }

    fn far_floor(&self, top: f64) -> f64 {
        top - 2.0 * self.margin
    }

    fn near_ceil(&self, kth: f64) -> f64 {
        kth + 2.0 * self.margin
    }

    fn far_floor_exact(&self, dist: f64) -> f64 {
        dist - self.margin
    }

    fn near_ceil_exact(&self, dist: f64) -> f64 {
        dist + self.margin
    }

    fn swap_remove(&mut self, p: usize) {
        self.cols.iter_mut().for_each(|c| {
            c.swap_remove(p);
        });
    }

    fn clear(&mut self) {
        self.cols.iter_mut().for_each(Vec::clear);
    }

    fn loosen(&mut self, factor: f64) {
        self.margin_factor = factor;
    }
}
