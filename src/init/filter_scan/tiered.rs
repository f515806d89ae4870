//! # The tiered fixed-point copy: 8-bit passes while the pool is large, 16-bit after
//!
//! Holds the records both in 8-bit ([`Fixed<i8>`]) and in 16-bit ([`Fixed<i16>`]) fixed
//! point, both kept through every swap-removal. A pass over at least [`BYTE_FROM`] records
//! reads the 8-bit copy (10 bytes a record at d = 10 instead of 20: the pass over a large
//! pool is bound by memory traffic), a smaller one the 16-bit copy (its finer grid leaves
//! fewer candidates for the exact `f64` check, which costs more than the pass once the pool
//! sits in cache). The thresholds ([`Pass::far_floor`], [`Pass::near_ceil`]) are those of
//! the copy the last pass read, so each query's exclusions are that copy's proven ones
//! (P16 (i)) and the answers are the scan's, whichever copy answered.
//!
//! ## Complexity
//! That of [`Fixed`] per pass; O(m d) memory (3 bytes per value); a removal moves both
//! copies' last record.

use super::fixed::Fixed;
use super::Pass;
use crate::data::Instance;

/// Fewest records for a pass over the 8-bit copy.
pub const BYTE_FROM: usize = 400_000;

/// Both copies and which one the last pass read.
pub struct Tiered {
    byte: Fixed<i8>,
    fine: Fixed<i16>,
    /// Records from which a pass reads the 8-bit copy.
    byte_from: usize,
    /// True when the last pass read the 8-bit copy.
    coarse: bool,
}

impl Tiered {
    /// Passes over the 8-bit copy from `byte_from` records on (tests: both copies in one
    /// run).
    pub(super) fn set_byte_from(&mut self, byte_from: usize) {
        self.byte_from = byte_from;
    }
}

impl Pass for Tiered {
    type Value = i32;

    fn build(inst: &Instance, ids: &[usize]) -> Option<Self> {
        Some(Tiered {
            byte: Fixed::build(inst, ids)?,
            fine: Fixed::build(inst, ids)?,
            byte_from: BYTE_FROM,
            coarse: false,
        })
    }

    fn pass(&mut self, point: &[f64], out: &mut [i32], lo: &mut [i32], hi: &mut [i32]) -> bool {
        self.coarse = self.fine.len() >= self.byte_from;
        if self.coarse {
            self.byte.pass(point, out, lo, hi)
        } else {
            self.fine.pass(point, out, lo, hi)
        }
    }

    fn far_floor(&self, top: f64) -> f64 {
        if self.coarse {
            self.byte.far_floor(top)
        } else {
            self.fine.far_floor(top)
        }
    }

    fn near_ceil(&self, kth: f64) -> f64 {
        if self.coarse {
            self.byte.near_ceil(kth)
        } else {
            self.fine.near_ceil(kth)
        }
    }

    fn far_floor_exact(&self, dist: f64) -> f64 {
        if self.coarse {
            self.byte.far_floor_exact(dist)
        } else {
            self.fine.far_floor_exact(dist)
        }
    }

    fn near_ceil_exact(&self, dist: f64) -> f64 {
        if self.coarse {
            self.byte.near_ceil_exact(dist)
        } else {
            self.fine.near_ceil_exact(dist)
        }
    }

    fn swap_remove(&mut self, p: usize) {
        self.byte.swap_remove(p);
        self.fine.swap_remove(p);
    }

    fn clear(&mut self) {
        self.byte.clear();
        self.fine.clear();
    }

    fn loosen(&mut self, factor: f64) {
        self.byte.loosen(factor);
        self.fine.loosen(factor);
    }
}
