//! # Dissolve or distill
//!
//! ILS's second perturbation, the group-count moves of Laszlo and Mukherjee (2015): with
//! probability `dissolve_share` (default 1/2) dissolve the random record's group into the nearest other groups,
//! else distill a new group around the record from groups larger than k. The records moved
//! are queued for the descent.
//!
//! ## Complexity
//! Dissolve O(s G' d) for a group of s records and G' candidate groups; distill O(k d)
//! after the neighbour lists.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{Perturb, Workspace};
use crate::method::{Ctx, Stats};
use crate::partition::Partition;
use crate::search::moves::add_counters;
use crate::search::moves::dissolve::Dissolve;
use crate::search::moves::distill::Distill;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Parameters of `dissolve_distill`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct DissolveDistillParams {
    pub dissolve_share: f64,
}

impl Default for DissolveDistillParams {
    fn default() -> Self {
        DissolveDistillParams {
            dissolve_share: 0.5,
        }
    }
}

impl crate::params::Params for DissolveDistillParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "dissolve_share",
        "probability of a dissolve; a distill otherwise (default 0.5)",
    )];
    fn check(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.dissolve_share) {
            return Err("dissolve_share must be in [0, 1]".into());
        }
        Ok(())
    }
}

/// Dissolve the random record's group or distill one around it.
#[derive(Debug, Clone, Default)]
pub(crate) struct DissolveDistill {
    pub params: DissolveDistillParams,
    pub dissolve: Dissolve,
    pub distill: Distill,
}

impl Perturb for DissolveDistill {
    fn name(&self) -> &'static str {
        "dissolve_distill"
    }

    /// Dissolve the group of `r` or distill a group around it.
    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
        let (inst, k) = (ctx.inst, ctx.k);
        let nb = ws.nb;
        let ls = &mut *ws.ls;
        ws.groups.clear();
        if ctx.rng.random_bool(self.params.dissolve_share) {
            let g = p.group_of(r);
            let Some(plan) = self.dissolve.evaluate(p, inst, g, Some(nb)) else {
                return false;
            };
            self.dissolve.apply(p, inst, &plan, ws.log);
            ws.groups.push(g);
            for &(i, h) in &plan.targets {
                ls.push(i);
                if !ws.groups.contains(&h) {
                    ws.groups.push(h);
                }
            }
        } else {
            let Some(plan) = self.distill.evaluate(p, inst, k, r, nb) else {
                return false;
            };
            let slot = self.distill.apply(p, inst, &plan, ws.spare, ws.log);
            ws.groups.push(slot);
            for &i in &plan.records {
                ls.push(i);
            }
        }
        true
    }
    fn add_stats(&self, stats: &mut Stats) {
        add_counters(stats, &self.dissolve);
        add_counters(stats, &self.distill);
    }
}
