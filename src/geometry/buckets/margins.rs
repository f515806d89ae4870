//! # Rounding margins and blocked distances of the ball buckets
//!
//! The outward-rounded conversions between computed squared distances and bounds on exact
//! distances that make the bucket pruning of [`super`] exact (`proofs/P16-exact-spatial-queries.md`
//! (g): a relative margin plus an absolute one for underflow), the scan's tie rule (lower
//! id first) and the squared distances of up to [`BLOCK`] rows at once, each summed in the
//! scan's order so the answers are the scan's bit for bit. Moved out of [`super`] unchanged.
//!
//! ## Complexity
//! O(1) per margin; O(BLOCK d) per block of distances.
//!
//! ## References
//! Higham, N. J. (2002). Accuracy and Stability of Numerical Algorithms, 2nd ed., SIAM
//! (error bounds of floating-point sums and square roots, Ch. 2-3), as applied in P16.

use super::super::remaining::sq_dist_as_scan;

/// Relative margin on radii from computed squared distances (P16 (g)).
const SLACK: f64 = 1e-9;
/// Absolute margin on radii: covers squares that underflow (below d 2^-1074 in all, whose
/// square root is below 1e-150 for any d < 10^140).
const TINY_R: f64 = 1e-150;
/// Absolute margin on squared distances (underflow of the d squares: below d 2^-1075).
const TINY_SQ: f64 = 1e-300;

/// An upper bound on the exact distance whose computed squared distance has root `r`.
#[inline]
pub(super) fn up(r: f64) -> f64 {
    r * (1.0 + SLACK) + TINY_R
}

/// A lower bound on the exact distance whose computed squared distance has root `r`.
#[inline]
pub(super) fn down(r: f64) -> f64 {
    r * (1.0 - SLACK) - TINY_R
}

/// An upper bound on the computed squared distance of a record at exact distance <= `r`.
#[inline]
pub(super) fn square_up(r: f64) -> f64 {
    r * r * (1.0 + SLACK) + TINY_SQ
}

/// A lower bound on the computed squared distance of a record at exact distance >= `l`
/// (negative when `l <= 0`: no bound).
#[inline]
pub(super) fn square_down(l: f64) -> f64 {
    if l <= 0.0 {
        f64::NEG_INFINITY
    } else {
        l * l * (1.0 - SLACK) - TINY_SQ
    }
}

/// Records whose distances are computed together (independent sums in flight; each one
/// still adds its terms in column order from 0.0, as the scan does).
pub(super) const BLOCK: usize = 8;

/// Squared distances from `q` to the `rows.len() / d` rows of `rows` (at most [`BLOCK`]),
/// each with the scan's operations in the scan's order ([`sq_dist_as_scan`]).
#[inline]
pub(super) fn block_distances(rows: &[f64], d: usize, q: &[f64], out: &mut [f64; BLOCK]) {
    *out = [0.0; BLOCK];
    if rows.len() == BLOCK * d {
        for (j, &qj) in q.iter().enumerate() {
            for (t, o) in out.iter_mut().enumerate() {
                let v = rows[t * d + j] - qj;
                *o += v * v;
            }
        }
    } else {
        for (row, o) in rows.chunks_exact(d).zip(out.iter_mut()) {
            *o = sq_dist_as_scan(row, q);
        }
    }
}
