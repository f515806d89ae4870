//! # Start partitions of the column generation bound
//!
//! The master starts from the groups of one or more feasible partitions: each labels vector
//! is checked ([`start_groups`]: `n` labels, every group of at least `k` records), their
//! distinct groups seed the master and the partition of least SSE is kept for the phases
//! that use its slacks or its box ([`seed_groups`]).
//!
//! ## Complexity
//! O(P n log n + P n d) for `P` partitions (a B-tree of labels, one SSE per group).
//!
//! ## References
//! proofs/P09 part A (the bound is valid whatever the start columns).

use super::state::group_cost;
use super::ColgenError;
use std::collections::HashSet;

/// The groups of a labels vector (members ascending, groups in order of first appearance),
/// checked: `n` labels, every group at least `k` records.
pub fn start_groups(labels: &[usize], n: usize, k: usize) -> Result<Vec<Vec<u32>>, String> {
    if labels.len() != n {
        return Err(format!("{} labels for {n} records", labels.len()));
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut slot: std::collections::BTreeMap<usize, usize> = Default::default();
    for (i, &l) in labels.iter().enumerate() {
        let g = *slot.entry(l).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i as u32);
    }
    if let Some(g) = groups.iter().find(|g| g.len() < k) {
        return Err(format!(
            "group of record {} (label {}) has {} records, fewer than k = {k}",
            g[0],
            labels[g[0] as usize],
            g.len()
        ));
    }
    Ok(groups)
}

/// [`start_groups`] of `labels`, start partition `s` of `count`; the error a
/// [`ColgenError`] that names the partition when there are several.
pub(crate) fn start_groups_of(
    labels: &[usize],
    s: usize,
    count: usize,
    n: usize,
    k: usize,
) -> Result<Vec<Vec<u32>>, ColgenError> {
    start_groups(labels, n, k).map_err(|m| {
        ColgenError::BadLabels(if count > 1 {
            format!("start partition {}: {m}", s + 1)
        } else {
            m
        })
    })
}

/// The start partitions' distinct groups (in order of first appearance), the set of them,
/// and the partition of least SSE; every partition checked ([`start_groups`]).
#[allow(clippy::type_complexity)]
pub(super) fn seed_groups(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
) -> Result<(Vec<Vec<u32>>, HashSet<Vec<u32>>, Vec<Vec<u32>>), ColgenError> {
    if starts.is_empty() {
        return Err(ColgenError::BadLabels("no start partition".into()));
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut known: HashSet<Vec<u32>> = HashSet::new();
    let mut partitions = Vec::with_capacity(starts.len());
    for (s, labels) in starts.iter().enumerate() {
        let gs = start_groups_of(labels, s, starts.len(), n, k)?;
        for g in &gs {
            if known.insert(g.clone()) {
                groups.push(g.clone());
            }
        }
        partitions.push(gs);
    }
    let sse = |gs: &Vec<Vec<u32>>| gs.iter().map(|g| group_cost(x, d, g)).sum::<f64>();
    let best_start = partitions
        .into_iter()
        .min_by(|a, b| sse(a).total_cmp(&sse(b)))
        .expect("at least one start");
    Ok((groups, known, best_start))
}
