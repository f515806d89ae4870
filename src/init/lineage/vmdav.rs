//! # V-MDAV (variable-size MDAV)
//!
//! The centroid of the whole data set is computed once. While at least k records remain:
//! the remaining record x_r farthest from that fixed centroid forms a group with its k - 1
//! nearest remaining records; the group is then extended while it has fewer than 2k - 1
//! records: e_min is the remaining record closest to any member of the group (distance
//! d_in), d_out is the distance from e_min to its nearest other remaining record, and e_min
//! joins when d_in < gamma * d_out; the first refusal (or an empty pool) ends the extension.
//! The fewer than k records left at the end each join the group whose centroid is nearest
//! (centroids taken before any of them joins), so one group may exceed 2k - 1. Distances are
//! Euclidean; ties go to the lowest record index. When e_min is the last remaining record
//! it has no d_out; it then joins (d_out = infinity), since it would otherwise be left alone
//! below k and handed to a nearest group anyway.
//!
//! `gamma` near 0 suits scattered data, near 1 clustered data; Solanas &
//! Martinez-Balleste suggest 0.2 for Tarragona and Census and 1.1 for EIA, the values of
//! Chettri & Borah's Table 1 row 5.
//!
//! ## Difference from the published values
//! Table 1 row 5 is reproduced on Census (k = 3, 4, 5, 10, where no group is extended at
//! gamma = 0.2) and on Tarragona k = 4. It is not on Tarragona k = 3, 5, 10 (ours 1839.1240,
//! 2480.4144, 3605.2548 vs 1839.6440, 2481.3201, 3607.2572) nor on EIA with gamma = 1.1
//! (ours 228.6900, 436.7739, 586.9516, 1262.4570 vs 229.2986, 437.8020, 588.0341,
//! 1264.4328): the published values are 0.03 % to 0.27 % higher. We did not tune the code to
//! them. Readings tried that do not reproduce them either: rejecting (instead of accepting)
//! a last record without d_out, leftover records joining with centroids updated after each
//! join, a centroid recomputed every round, squared distances in the test, d_out over all
//! records outside the group, e_min nearest to the group's centroid, and gamma = 0. The
//! extension step is the only part that differs from MDAV-single-group with a fixed
//! centroid, and the matching cases are those with few or no extensions, so the paper's
//! program most likely extends groups by some rule its Algorithm-5 does not spell out.
//! `tests/construct/mdav2k_table1.rs` pins our values and checks that they stay distinct from Table 1.
//!
//! ## Complexity
//! O(n^2 d) time: per group one pass for the k nearest, k passes to initialise each
//! remaining record's distance to the group, and one pass per extension step (it gives d_out
//! and updates the distances to the group); about (k + 2) / 2 times the work of MDAV per
//! record grouped. O(n d) memory.
//!
//! ## References
//! Solanas & Martinez-Balleste (2006), "V-MDAV: a multivariate microaggregation with
//! variable group size", COMPSTAT 2006 (17th Symposium of the IASC), Rome. Chettri & Borah
//! (2012), CS & IT 04, pp. 105-118, Algorithm-5 and Table 1 row 5.

use crate::error::Result;
use crate::init::lineage::growth::add_leftover;
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::{sq_dist, Partition};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct VmdavParams {
    /// Extension threshold: e_min joins when d_in < gamma * d_out.
    pub gamma: f64,
}

impl Default for VmdavParams {
    fn default() -> Self {
        VmdavParams { gamma: 0.2 }
    }
}

impl Params for VmdavParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "gamma",
        "extension threshold, a record joins when d_in < gamma * d_out (default 0.2; 0.2 scattered data, about 1.1 clustered)",
    )];

    fn check(&self) -> Result<(), String> {
        if self.gamma.is_finite() && self.gamma >= 0.0 {
            Ok(())
        } else {
            Err(format!("gamma must be finite and >= 0, got {}", self.gamma))
        }
    }
}

pub(crate) struct Vmdav {
    params: VmdavParams,
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "vmdav",
        "V-MDAV: k-group around the record farthest from the global centroid, extended to at most 2k-1 while d_in < gamma * d_out",
        "Solanas & Martinez-Balleste 2006; Chettri & Borah 2012 Algorithm-5",
        |params: VmdavParams| Vmdav { params },
    )
    .deterministic()
}

/// The records not yet grouped, with per-record scratch values aligned to them.
struct Remaining {
    ids: Vec<usize>,
    /// Squared distance to the fixed global centroid.
    to_centre: Vec<f64>,
    /// Squared distance to the nearest member of the group being extended.
    to_group: Vec<f64>,
}

impl Remaining {
    fn swap_remove(&mut self, p: usize) {
        self.ids.swap_remove(p);
        self.to_centre.swap_remove(p);
        self.to_group.swap_remove(p);
    }

    /// Position of the minimum (or maximum) of `values`, ties to the lowest id.
    fn arg_best(&self, values: &[f64], max: bool) -> usize {
        let mut best = 0;
        for p in 1..self.ids.len() {
            let ord = values[p].total_cmp(&values[best]);
            let better = if max { ord.is_gt() } else { ord.is_lt() };
            if better || (ord.is_eq() && self.ids[p] < self.ids[best]) {
                best = p;
            }
        }
        best
    }
}

impl Initializer for Vmdav {
    fn name(&self) -> &str {
        "vmdav"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let gamma = self.params.gamma;
        let d = inst.d;
        let mut centre = vec![0.0; d];
        for i in 0..inst.n {
            centre
                .iter_mut()
                .zip(inst.row(i))
                .for_each(|(c, v)| *c += v);
        }
        centre.iter_mut().for_each(|c| *c /= inst.n as f64);
        let mut rem = Remaining {
            ids: (0..inst.n).collect(),
            to_centre: (0..inst.n).map(|i| sq_dist(inst.row(i), &centre)).collect(),
            to_group: vec![0.0; inst.n],
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut dist = vec![0.0; inst.n];
        while rem.ids.len() >= k {
            let r = rem.ids[rem.arg_best(&rem.to_centre, true)];
            // k nearest of r (r included), by (distance, id).
            let m = rem.ids.len();
            for (dp, &i) in dist.iter_mut().zip(&rem.ids) {
                *dp = sq_dist(inst.row(i), inst.row(r));
            }
            let mut order: Vec<usize> = (0..m).collect();
            let cmp = |a: &usize, b: &usize| {
                dist[*a]
                    .total_cmp(&dist[*b])
                    .then(rem.ids[*a].cmp(&rem.ids[*b]))
            };
            if k < m {
                order.select_nth_unstable_by(k - 1, cmp);
                order.truncate(k);
            }
            order.sort_by(cmp);
            let mut group: Vec<usize> = order.iter().map(|&p| rem.ids[p]).collect();
            order.sort_unstable_by(|a, b| b.cmp(a));
            for p in order {
                rem.swap_remove(p);
            }
            if rem.ids.is_empty() || group.len() >= 2 * k - 1 {
                groups.push(group);
                continue;
            }
            for p in 0..rem.ids.len() {
                let x = inst.row(rem.ids[p]);
                rem.to_group[p] = group
                    .iter()
                    .map(|&g| sq_dist(x, inst.row(g)))
                    .fold(f64::INFINITY, f64::min);
            }
            while group.len() < 2 * k - 1 && !rem.ids.is_empty() {
                let e_pos = rem.arg_best(&rem.to_group, false);
                let e = rem.ids[e_pos];
                let d_in = rem.to_group[e_pos].sqrt();
                let mut nearest_other = f64::INFINITY;
                for (p, (dp, &i)) in dist.iter_mut().zip(&rem.ids).enumerate() {
                    *dp = sq_dist(inst.row(i), inst.row(e));
                    if p != e_pos && *dp < nearest_other {
                        nearest_other = *dp;
                    }
                }
                let d_out = nearest_other.sqrt();
                if !(d_in < gamma * d_out) {
                    break;
                }
                group.push(e);
                for (tg, &dp) in rem.to_group.iter_mut().zip(&dist) {
                    *tg = tg.min(dp);
                }
                rem.swap_remove(e_pos);
            }
            groups.push(group);
        }
        let mut leftover = rem.ids.clone();
        leftover.sort_unstable();
        add_leftover(inst, &mut groups, leftover);
        crate::init::finish("vmdav", inst, k, &groups)
    }
}
