//! # The tiered fixed-point copy: 8-bit passes while the pool is large, 16-bit after
//!
//! Holds the records both in 8-bit ([`Fixed<i8>`]) and in 16-bit ([`Fixed<i16>`]) fixed
//! point, both kept through every swap-removal. A pass over at least [`BYTE_FROM`] records
//! reads the 8-bit copy (10 bytes a record at d = 10 instead of 20: the pass over a large
//! pool is bound by memory traffic), a smaller one the 16-bit copy (its finer grid leaves
//! fewer candidates for the exact `f64` check, which costs more than the pass once the pool
//! sits in cache). When one value lies far out ([`BYTE_MAX_SPREAD`]), the 8-bit grid is too
//! coarse to exclude much, and only the 16-bit copy is read. The thresholds
//! ([`Pass::far_floor`], [`Pass::near_ceil`]) are those of the copy the last pass read, so
//! each query's exclusions are that copy's proven ones (P16 (i)) and the answers are the
//! scan's, whichever copy answered.
//!
//! ## Complexity
//! That of [`Fixed`] per pass; O(m d) memory (3 bytes per value) and O(m d) to decide
//! whether the 8-bit copy is read; a removal moves both copies' last record.

use super::fixed::Fixed;
use super::Pass;
use crate::data::Instance;
use crate::partition::group_stats;

/// Fewest records for a pass over the 8-bit copy.
pub(crate) const BYTE_FROM: usize = 400_000;

/// Largest magnitude, in units of the records' spread, at which the 8-bit copy is read.
/// Its grid step is the largest magnitude / 127, so one far value (a heavy-tailed column)
/// coarsens it for every record, and most records then stay candidates of each 8-bit pass,
/// each needing an exact distance. Measured near the break-even (MDAV, d = 10,
/// `studies/study-engine.txt` section "24-final"; the Gaussian mixtures there
/// lie within 6.2).
pub(crate) const BYTE_MAX_SPREAD: f64 = 10.0;

/// True when the largest magnitude of the records `ids` is at most [`BYTE_MAX_SPREAD`]
/// times their spread (the root mean square deviation from the column means, over all
/// values). O(m d).
fn bytes_suit(inst: &Instance, ids: &[usize]) -> bool {
    if ids.is_empty() || inst.d == 0 {
        return false;
    }
    let largest = ids
        .iter()
        .flat_map(|&i| inst.row(i))
        .fold(0.0f64, |a, v| a.max(v.abs()));
    let (_, sse) = group_stats(inst, ids);
    let spread = (sse / (ids.len() * inst.d) as f64).sqrt();
    spread > 0.0 && largest <= BYTE_MAX_SPREAD * spread
}

/// `self.method(args)` on the copy the last pass read (the 8-bit one when `coarse`).
macro_rules! on_last_read {
    ($self:ident . $method:ident ( $($arg:expr),* )) => {
        if $self.coarse {
            $self.byte.$method($($arg),*)
        } else {
            $self.fine.$method($($arg),*)
        }
    };
}

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

    /// Both copies; the 8-bit one is never read when its grid is too coarse for the
    /// records' spread ([`bytes_suit`]).
    fn build(inst: &Instance, ids: &[usize]) -> Option<Self> {
        Some(Tiered {
            byte: Fixed::build(inst, ids)?,
            fine: Fixed::build(inst, ids)?,
            byte_from: if bytes_suit(inst, ids) {
                BYTE_FROM
            } else {
                usize::MAX
            },
            coarse: false,
        })
    }

    fn pass(&mut self, point: &[f64], out: &mut [i32], lo: &mut [i32], hi: &mut [i32]) -> bool {
        self.coarse = self.fine.len() >= self.byte_from;
        on_last_read!(self.pass(point, out, lo, hi))
    }

    fn far_floor(&self, top: f64) -> f64 {
        on_last_read!(self.far_floor(top))
    }

    fn near_ceil(&self, kth: f64) -> f64 {
        on_last_read!(self.near_ceil(kth))
    }

    fn far_floor_exact(&self, dist: f64) -> f64 {
        on_last_read!(self.far_floor_exact(dist))
    }

    fn near_ceil_exact(&self, dist: f64) -> f64 {
        on_last_read!(self.near_ceil_exact(dist))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(rows: &[Vec<f64>]) -> Instance {
        let d = rows[0].len();
        let columns = (0..d).map(|j| format!("c{j}")).collect();
        let raw = rows.concat();
        Instance::from_raw("t", "t", columns, raw, "t".into()).unwrap()
    }

    /// The 8-bit copy is read (from [`BYTE_FROM`] records) on evenly spread records, and
    /// never once one value sits far out (its grid would be coarser than the spread).
    #[test]
    fn a_far_value_keeps_the_passes_on_the_16_bit_copy() {
        let even: Vec<Vec<f64>> = (0..400)
            .map(|i| vec![(i % 20) as f64, (i / 20) as f64, ((i * 7) % 13) as f64])
            .collect();
        let ids: Vec<usize> = (0..even.len()).collect();
        let inst = instance(&even);
        assert!(bytes_suit(&inst, &ids));
        assert_eq!(Tiered::build(&inst, &ids).unwrap().byte_from, BYTE_FROM);

        // z-scored, the far value lies about 20 spreads out (one value of 400 cannot lie
        // beyond sqrt(399)).
        let mut far = even.clone();
        far[17][1] = 2_000.0;
        let inst = instance(&far);
        let largest = inst.z.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        assert!(largest > 1.5 * BYTE_MAX_SPREAD, "largest {largest}");
        assert!(!bytes_suit(&inst, &ids));
        assert_eq!(Tiered::build(&inst, &ids).unwrap().byte_from, usize::MAX);
    }
}
