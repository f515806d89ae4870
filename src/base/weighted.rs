//! # Weighted SSE, SST and IL
//!
//! The figures of `--weights` (definitions in `crate::data::weights`,
//! `docs/weights.md`, `proofs/P40-weighted-sse.md`): weighted group centroids and SSE, the
//! weighted SST about the weighted grand mean, and the record's [`WeightedIl`]. With unit
//! weights each performs the unweighted computation's operations in the same order.
//!
//! ## Complexity
//! O(n d) for a whole partition or the SST.
//!
//! ## References
//! Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2.

use crate::data::Instance;
use microagg_solvers::sse::sq_dist;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Weighted centroid and weighted SSE of `members` (row indices of the row-major `z` with
/// `d` columns): `c = sum w_i z_i / sum w_i`, `sum w_i ||z_i - c||^2`, two passes. With unit
/// weights the operations are those of the unweighted group SSE, in the same order.
pub(crate) fn weighted_group_stats(
    z: &[f64],
    d: usize,
    w: &[f64],
    members: &[usize],
) -> (Vec<f64>, f64) {
    let mut c = vec![0.0; d];
    if members.is_empty() {
        return (c, 0.0);
    }
    let mut total = 0.0;
    for &i in members {
        total += w[i];
        c.iter_mut()
            .zip(&z[i * d..(i + 1) * d])
            .for_each(|(m, v)| *m += w[i] * v);
    }
    let inv = 1.0 / total;
    c.iter_mut().for_each(|m| *m *= inv);
    let sse = members
        .iter()
        .map(|&i| w[i] * sq_dist(&z[i * d..(i + 1) * d], &c))
        .sum();
    (c, sse)
}

/// Weighted SST of the z-scores about the weighted grand mean, column by column (two
/// passes): `sum_j sum_i w_i (z_ij - m_j)^2`, `m_j = sum_i w_i z_ij / sum_i w_i`. With
/// missing cells (`--missing ignore`) over the observed cells about the weighted means of
/// the observed values ([`crate::missing::figures::masked_sst`]).
pub(crate) fn weighted_sst(inst: &Instance, w: &[f64]) -> f64 {
    if inst.has_missing() {
        return crate::missing::figures::masked_sst(inst, Some(w));
    }
    let (n, d, z) = (inst.n, inst.d, &inst.z);
    let total: f64 = w.iter().sum();
    let mut sst = 0.0;
    for j in 0..d {
        let m = (0..n).map(|i| w[i] * z[i * d + j]).sum::<f64>() / total;
        sst += (0..n)
            .map(|i| w[i] * (z[i * d + j] - m).powi(2))
            .sum::<f64>();
    }
    sst
}

/// Weighted SSE of a labelling (groups in label order, members in record order); over the
/// observed cells when cells are missing (`weighted_sse_of_groups`).
pub fn weighted_sse_of_labels(inst: &Instance, w: &[f64], labels: &[usize]) -> f64 {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    weighted_sse_of_groups(inst, w, &members)
}

/// Weighted SSE of groups (row indices; summed in the given order). With missing cells
/// (`--missing ignore`) each group's is taken over its observed cells about its weighted
/// masked centroid ([`crate::missing::figures::masked_centroid_and_sse`]).
pub(crate) fn weighted_sse_of_groups(inst: &Instance, w: &[f64], groups: &[Vec<usize>]) -> f64 {
    if inst.has_missing() {
        return groups
            .iter()
            .map(|m| crate::missing::figures::masked_centroid_and_sse(inst, Some(w), m).1)
            .sum();
    }
    groups
        .iter()
        .map(|m| weighted_group_stats(&inst.z, inst.d, w, m).1)
        .sum()
}

/// The weighted figures of a partition, as `run --json` (the record's `weights`) and
/// `check --json` report them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct WeightedIl {
    /// The weights column (`--weights`).
    pub column: String,
    /// Sum of the weights.
    pub total: f64,
    /// Weighted SSE: sum over groups of sum w_i ||z_i - weighted centroid||^2.
    pub sse: f64,
    /// Weighted SST: sum w_i ||z_i - weighted grand mean||^2 (z-scores with unweighted
    /// moments).
    pub sst: f64,
    /// Weighted IL = 100 sse / sst (percent).
    pub il: f64,
    /// What the method minimised: `weighted` (`univariate` alone: the weighted SSE over
    /// partitions into sorted runs, globally optimal only when all weights are equal; a
    /// pipeline ending in `descent`: a local optimum of the weighted SSE) or `unweighted`
    /// (the SSE; the weighted IL is only reported). Absent in `check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
    /// `run --bound nn --weights`: the certified lower bound on the weighted SSE and the
    /// weighted gap (proofs/P41). Absent without a bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<WeightedBound>,
}

/// A lower bound on the weighted SSE with the weighted gap of the run's partition.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct WeightedBound {
    /// Bound name (`nn`: the weighted nearest-neighbour bound).
    pub method: String,
    /// Certified lower bound on the optimal weighted SSE (rounded down).
    pub lower_bound: f64,
    /// `100 lower_bound / sst` (weighted), rounded down.
    pub il_lower_bound: f64,
    /// `100 (sse - lower_bound) / lower_bound` on the weighted SSE; absent when the bound
    /// is 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_percent: Option<f64>,
    /// Wall-clock seconds the bound took.
    pub seconds: f64,
}

impl WeightedIl {
    /// The weighted figures of `weighted_sse` on `inst` (which must carry weights).
    pub fn of(inst: &Instance, weighted_sse: f64, objective: Option<&str>) -> Option<Self> {
        let w = inst.weights.as_ref()?;
        let sst = weighted_sst(inst, &w.values);
        Some(WeightedIl {
            column: w.column.clone(),
            total: w.total,
            sse: weighted_sse,
            sst,
            il: 100.0 * weighted_sse / sst,
            objective: objective.map(str::to_string),
            bound: None,
        })
    }
}
