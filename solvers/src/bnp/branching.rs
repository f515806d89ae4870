//! # Ryan-Foster branching pair
//!
//! The record pair a fractional master solution is branched on (proofs/P17).
//!
//! ## Complexity
//! O(support · (2k)^2) pairs, sorted: O(P log P).
//!
//! ## References
//! Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//! Computer Scheduling of Public Transport, North-Holland, 269-280.

use crate::bounds::colgen::pairs::PairConstraints;
use std::collections::HashMap;

/// Ryan-Foster pair: among the undecided pairs sharing a fractional column, the one whose
/// together-value is closest to 1/2 (ties: smallest pair). Without a fractional column, an
/// undecided pair of one column of the solution (its "apart" child excludes the solution).
pub(super) fn choose_pair(
    support: &[(usize, f64)],
    pool: &[Vec<u32>],
    cons: &PairConstraints,
) -> Option<(u32, u32)> {
    let mut w: HashMap<(u32, u32), f64> = HashMap::new();
    for &(c, v) in support {
        if v < 1.0 - 1e-6 {
            let g = &pool[c];
            for (p, &a) in g.iter().enumerate() {
                for &b in &g[p + 1..] {
                    *w.entry((a, b)).or_insert(0.0) += v;
                }
            }
        }
    }
    let mut pairs: Vec<((u32, u32), f64)> = w
        .into_iter()
        .filter(|&(_, v)| v > 1e-6 && v < 1.0 - 1e-6)
        .collect();
    pairs.sort_by(|a, b| {
        (a.1 - 0.5)
            .abs()
            .total_cmp(&(b.1 - 0.5).abs())
            .then(a.0.cmp(&b.0))
    });
    if let Some(&(p, _)) = pairs.iter().find(|(p, _)| !cons.decided(p.0, p.1)) {
        return Some(p);
    }
    for &(c, _) in support {
        let g = &pool[c];
        for (p, &a) in g.iter().enumerate() {
            for &b in &g[p + 1..] {
                if !cons.decided(a, b) {
                    return Some((a, b));
                }
            }
        }
    }
    None
}
