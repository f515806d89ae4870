//! # Groups as bit masks (n <= 64)
//!
//! The exact set-partitioning solver ([`super::setpart`]) and its certified branch and bound
//! ([`super::branch`]) both hold a group as a `u64` mask of its records; this module turns
//! masks into record indices and labels, and picks a greedy disjoint cover from LP values.
//! It sits below both so that neither imports the other's helpers.
//!
//! ## Complexity
//! [`bits`] O(popcount); [`labels_of_masks`] O(n); [`greedy_cover`] O(G log G) for G groups.
//!
//! ## References
//! None.

use crate::SolverError;

/// The records of `mask`, in increasing order.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(i)
        }
    })
}

/// Labels from chosen masks (must cover every record exactly once).
pub(crate) fn labels_of_masks(masks: &[u64], n: usize) -> Result<Vec<usize>, SolverError> {
    let mut labels = vec![usize::MAX; n];
    for (g, &m) in masks.iter().enumerate() {
        for i in bits(m) {
            if labels[i] != usize::MAX {
                return Err(SolverError::backend(format!(
                    "record {i} covered twice by the MIP solution"
                )));
            }
            labels[i] = g;
        }
    }
    if let Some(i) = labels.iter().position(|&l| l == usize::MAX) {
        return Err(SolverError::backend(format!(
            "record {i} not covered by the MIP solution"
        )));
    }
    Ok(labels)
}

/// Groups (mask, LP value) by decreasing value (ties: earlier entry), disjoint ones kept: a
/// partition when they cover every record.
pub(crate) fn greedy_cover(groups: &[(u64, f64)], n: usize) -> Option<Vec<usize>> {
    let mut order: Vec<usize> = (0..groups.len()).filter(|&g| groups[g].1 > 1e-9).collect();
    order.sort_by(|&a, &b| groups[b].1.total_cmp(&groups[a].1).then(a.cmp(&b)));
    let mut covered = 0u64;
    let mut picked = Vec::new();
    for g in order {
        if groups[g].0 & covered == 0 {
            covered |= groups[g].0;
            picked.push(groups[g].0);
        }
    }
    labels_of_masks(&picked, n).ok()
}
