//! # Branching pairs of the certified branch and bound
//!
//! Which pair of records [`super`] branches on (Ryan-Foster: together or apart): the most
//! fractional one, or the first unfixed one when the LP is integral but its bound misses the
//! target by rounding ([`PairChoice::pair`]).
//!
//! ## Complexity
//! The most fractional pair O(n^2 + sum of squared column sizes); the first unfixed pair
//! O(n^2) at worst.
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling.
//!   In Computer Scheduling of Public Transport, North-Holland, 269-280.

use super::super::masks::bits;
use super::INTEGRAL_TOL;

/// What a node's branching pair is chosen from: its `n` records, the column masks, the
/// LP's positive columns (index, value) and which pairs the node's rules already fix.
pub(super) struct PairChoice<'a> {
    pub n: usize,
    pub masks: &'a [u64],
    pub positive: &'a [(usize, f64)],
    pub fixed: &'a dyn Fn(u64) -> bool,
}

impl PairChoice<'_> {
    /// The pair to branch on: with an `integral` LP (its bound missing the target by
    /// rounding) the first unfixed pair, else the most fractional one, else the first
    /// unfixed; None when every pair is fixed.
    pub(super) fn pair(&self, integral: bool) -> Option<u64> {
        if integral {
            self.first_unfixed()
        } else {
            self.most_fractional().or_else(|| self.first_unfixed())
        }
    }

    /// The unfixed pair whose togetherness `f = sum of z over columns holding both` is
    /// closest to 1/2 and strictly fractional; ties go to the lowest pair (as bits of the two
    /// records).
    fn most_fractional(&self) -> Option<u64> {
        let (n, masks, fixed) = (self.n, self.masks, self.fixed);
        let mut f = vec![0.0f64; n * n];
        for &(c, v) in self.positive {
            let members: Vec<usize> = bits(masks[c]).collect();
            for (a, &i) in members.iter().enumerate() {
                for &j in &members[a + 1..] {
                    f[i * n + j] += v;
                }
            }
        }
        let mut best: Option<(f64, u64)> = None;
        for i in 0..n {
            for j in i + 1..n {
                let frac = f[i * n + j].min(1.0 - f[i * n + j]);
                let pair = (1u64 << i) | (1u64 << j);
                if frac > INTEGRAL_TOL && !fixed(pair) && best.is_none_or(|(b, _)| frac > b) {
                    best = Some((frac, pair));
                }
            }
        }
        best.map(|(_, pair)| pair)
    }

    /// The first unfixed pair of records that share a positive column, else the first
    /// unfixed pair at all.
    fn first_unfixed(&self) -> Option<u64> {
        let (n, masks, fixed) = (self.n, self.masks, self.fixed);
        let pairs_within = |mask: u64| {
            bits(mask).flat_map(move |i| {
                // The members after i: clear bits 0..=i.
                bits(mask & !(u64::MAX >> (63 - i))).map(move |j| (1u64 << i) | (1u64 << j))
            })
        };
        let mut pairs = self
            .positive
            .iter()
            .flat_map(|&(c, _)| pairs_within(masks[c]));
        pairs.find(|&p| !fixed(p)).or_else(|| {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (1u64 << i) | (1u64 << j)))
                .find(|&p| !fixed(p))
        })
    }
}
