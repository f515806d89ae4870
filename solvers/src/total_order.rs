//! # Floats in heaps and sorted keys
//!
//! [`TotalF64`]: an `f64` ordered by [`f64::total_cmp`], so that a value (alone, or first in
//! a tuple key such as `(TotalF64, u64)`, compared field by field) can order a
//! [`std::collections::BinaryHeap`].
//!
//! ## Complexity
//! O(1) per comparison.
//!
//! ## References
//! IEEE 754-2008 `totalOrder`, as implemented by [`f64::total_cmp`].

use std::cmp::Ordering;

/// An `f64` ordered (and equal) by [`f64::total_cmp`]: a total order, `-0 < +0` and NaN at
/// the ends.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TotalF64(pub f64);

impl PartialEq for TotalF64 {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}
impl Eq for TotalF64 {}
impl Ord for TotalF64 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}
impl PartialOrd for TotalF64 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
