//! # Parameters of the iterated local search
//!
//! [`IlsParams`]: the flat parameters of `ils` (neighbours, strategy, perturbation and
//! acceptance settings) and the part lists they stand for (perturbations, acceptance rule,
//! operators as [`PartSpec`]s), with the checks against the registry of parts
//! ([`IlsParams::check_with`]: every part known, weights valid, no flat key shadowed by an
//! explicit list).
//!
//! ## Complexity
//! O(parts) per check.
//!
//! ## References
//! See the module doc of [`super`] (Laszlo and Mukherjee 2015; Lourenco, Martin and
//! Stutzle 2003).

use super::super::descent::Strategy;
use super::super::kit::{self, PartSpec, PerturbSpec};
use super::{PoolBy, Sizes};
use crate::params::Params;
use crate::registry::Registry;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Parameters of `ils`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IlsParams {
    pub neighbours: usize,
    pub min_pool: usize,
    pub max_pool: usize,
    pub dissolve_rate: f64,
    pub temperature: f64,
    pub cooling: f64,
    pub end_ratio: f64,
    pub stall: u64,
    pub carves: usize,
    pub strategy: Strategy,
    pub pool: PoolBy,
    pub cycles: bool,
    pub settle: usize,
    pub split_large: bool,
    pub sizes: Sizes,
    pub merge_pool: usize,
    pub merge_time: f64,
    pub merge_share: f64,
    /// The weighted perturbation list; empty: the one the flat keys describe.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub perturb: Vec<PerturbSpec>,
    /// The acceptance rule; none: annealing with the flat keys' parameters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accept: Option<PartSpec>,
    /// The descent's operators; empty: shift, swap and (with `cycles`) the 3-cycle.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operators: Vec<PartSpec>,
}

impl Default for IlsParams {
    fn default() -> Self {
        IlsParams {
            neighbours: 30,
            min_pool: 2,
            max_pool: 12,
            dissolve_rate: 0.05,
            temperature: 0.1,
            cooling: 0.99999,
            end_ratio: 0.01,
            stall: 20_000,
            carves: 1,
            strategy: Strategy::First,
            pool: PoolBy::Records,
            cycles: true,
            settle: 0,
            split_large: true,
            sizes: Sizes::Balanced,
            merge_pool: 0,
            merge_time: 5.0,
            merge_share: 0.1,
            perturb: Vec::new(),
            accept: None,
            operators: Vec::new(),
        }
    }
}

impl IlsParams {
    /// The weighted perturbation list: `perturb` when given, else pool-and-re-split
    /// (weight 1 - `dissolve_rate`) and dissolve-or-distill (weight `dissolve_rate`).
    pub(crate) fn perturb_list(&self) -> Vec<PerturbSpec> {
        if !self.perturb.is_empty() {
            return self.perturb.clone();
        }
        let resplit = json!({
            "min_pool": self.min_pool, "max_pool": self.max_pool, "pool": self.pool,
            "sizes": self.sizes, "carves": self.carves, "settle": self.settle,
        });
        vec![
            PerturbSpec {
                part: PartSpec::new("pool_resplit", resplit),
                weight: 1.0 - self.dissolve_rate,
            },
            PerturbSpec {
                part: PartSpec::new("dissolve_distill", json!({})),
                weight: self.dissolve_rate,
            },
        ]
    }

    /// The acceptance rule: `accept` when given, else annealing with `temperature`,
    /// `cooling` and `end_ratio`.
    pub(crate) fn accept_spec(&self) -> PartSpec {
        self.accept.clone().unwrap_or_else(|| {
            let p = json!({
                "temperature": self.temperature, "cooling": self.cooling,
                "end_ratio": self.end_ratio,
            });
            PartSpec::new("annealing", p)
        })
    }

    /// The descent's operators: `operators` when given, else shift, swap and, with
    /// `cycles`, the 3-cycle.
    pub(crate) fn operator_list(&self) -> Vec<PartSpec> {
        if !self.operators.is_empty() {
            return self.operators.clone();
        }
        let names: &[&str] = if self.cycles {
            &["shift", "swap", "cycle3"]
        } else {
            &["shift", "swap"]
        };
        names.iter().map(|n| PartSpec::new(n, json!({}))).collect()
    }

    /// A flat key of a part given next to the nested form that replaces it.
    fn shadowed_flat_key(&self) -> Option<&'static str> {
        let d = IlsParams::default();
        let perturb_flat = [
            ("min_pool", self.min_pool != d.min_pool),
            ("max_pool", self.max_pool != d.max_pool),
            ("dissolve_rate", self.dissolve_rate != d.dissolve_rate),
            ("pool", self.pool != d.pool),
            ("sizes", self.sizes != d.sizes),
            ("carves", self.carves != d.carves),
            ("settle", self.settle != d.settle),
        ];
        let accept_flat = [
            ("temperature", self.temperature != d.temperature),
            ("cooling", self.cooling != d.cooling),
            ("end_ratio", self.end_ratio != d.end_ratio),
        ];
        let ops_flat = [("cycles", self.cycles != d.cycles)];
        let nested = [
            (!self.perturb.is_empty(), &perturb_flat[..]),
            (self.accept.is_some(), &accept_flat[..]),
            (!self.operators.is_empty(), &ops_flat[..]),
        ];
        nested
            .iter()
            .filter(|(given, _)| *given)
            .flat_map(|(_, keys)| keys.iter())
            .find(|(_, set)| *set)
            .map(|(k, _)| *k)
    }

    /// Check every part against the registry `reg` (each is built once).
    fn check_parts(&self, reg: &Registry) -> Result<(), String> {
        let list = self.perturb_list();
        kit::check_weights(&list)?;
        for s in &list {
            let info = kit::find("perturbation", &reg.perturbs, &s.part.name);
            info.and_then(|i| i.check(&s.part.params))
                .map_err(|e| format!("perturb: {e}"))?;
        }
        let a = self.accept_spec();
        let info = kit::find("acceptance rule", &reg.accepts, &a.name);
        info.and_then(|i| i.check(&a.params))
            .map_err(|e| format!("accept: {e}"))?;
        for o in self.operator_list() {
            let info = kit::find("operator", &reg.operators, &o.name);
            info.and_then(|i| i.check(&o.params))
                .map_err(|e| format!("operators: {e}"))?;
        }
        Ok(())
    }
}

impl Params for IlsParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("neighbours", "nearest records per record that supply candidate groups (default 30)"),
        ("min_pool", "fewest groups pooled and re-split by one perturbation (default 2)"),
        ("max_pool", "most groups pooled and re-split by one perturbation (default 12)"),
        ("dissolve_rate", "probability that a perturbation is a dissolve or distill instead (default 0.05)"),
        ("temperature", "outer acceptance temperature at the start, as a fraction of the mean group SSE; 0 = accept only non-worsening (default 0.1; without a time limit the run starts at temperature x end_ratio)"),
        ("cooling", "without a time limit: factor applied to the temperature every iteration (default 0.99999)"),
        ("end_ratio", "with a time limit the temperature falls geometrically with elapsed time to this fraction of its start at the deadline; without one the run starts at this fraction (default 0.01)"),
        ("stall", "iterations without a new best before returning to the best and reheating; with no time limit, the search stops there (default 20000)"),
        ("carves", "random re-splits of a pool tried per perturbation, 1..=10000; the one of lowest SSE is applied (default 1)"),
        ("pool", "which groups a perturbation pools with the random record's group: \"records\" (default) the groups of its nearest records, \"centroids\" the groups of nearest centroid"),
        ("settle", "passes of a best-improvement shift/swap descent among the re-split pool's own groups before the neighbour-list descent (0 = none; default 0)"),
        ("split_large", "after each descent, split every group of 2k or more records whose CBFS split lowers the SSE, then descend again (default true)"),
        ("sizes", "group sizes of a re-split pool: \"balanced\" (default) as equal as possible, \"random\" k each plus the remainder spread at random"),
        ("cycles", "descent: when a record has no improving shift or swap, also try 3-cycles (the record into a neighbour group, a member of that group into a third group, a member of the third into the record's group; default true)"),
        ("strategy", "descent: \"first\" (default) applies a record's first improving shift/swap, \"best\" its best one"),
        ("merge_pool", "set-partitioning merge: once this many distinct groups (of k..2k-1 records) have been touched by kept iterations, solve a set-partitioning MIP (HiGHS) over them and the best partition's groups, record its answer if it beats the best, and empty the pool (0 = never; default 0)"),
        ("merge_time", "time limit in seconds of one merge; on the limit HiGHS' best solution is used, and the run then depends on the machine's speed even without a time limit of its own (default 5; never beyond the run's own limit)"),
        ("merge_share", "with a time limit, most fraction of the elapsed time spent in merges: a full pool is emptied without a merge while merges have taken more (default 0.1)"),
        ("perturb", "weighted perturbation list, e.g. [{ pool_resplit = { max_pool = 8 }, weight = 0.95 }, { dissolve_distill = {}, weight = 0.05 }] (`microagg list` names the perturbations); replaces min_pool, max_pool, dissolve_rate, pool, sizes, carves, settle (default: the list those keys describe)"),
        ("accept", "acceptance rule with its parameters, e.g. { late_acceptance = { length = 50 } }; replaces temperature, cooling, end_ratio (default: { annealing = {..} } with those keys)"),
        ("operators", "the descent's operators in order, e.g. [{ shift = {} }, { swap = {} }]; replaces cycles (default: shift, swap and, with cycles, cycle3)"),
    ];
    fn check(&self) -> Result<(), String> {
        self.check_with(&crate::registry::current())
    }
}

impl IlsParams {
    /// Every check of [`Params::check`], with the parts looked up in `reg` (a registry
    /// made for one run, e.g. holding parts written in Python).
    pub fn check_with(&self, reg: &Registry) -> Result<(), String> {
        if self.neighbours == 0 {
            return Err("neighbours must be at least 1".into());
        }
        if self.min_pool < 1 || self.max_pool < self.min_pool {
            return Err("need 1 <= min_pool <= max_pool".into());
        }
        if !(0.0..=1.0).contains(&self.dissolve_rate) {
            return Err("dissolve_rate must be in [0, 1]".into());
        }
        crate::search::accept::metropolis::check_schedule(
            self.temperature,
            self.end_ratio,
            self.cooling,
        )?;
        if self.stall == 0 {
            return Err("stall must be at least 1".into());
        }
        if !(1..=10_000).contains(&self.carves) {
            // Each carving is O(pool d); an unbounded count made one step endless (found by
            // tests/data/fuzz_parsers.rs with carves = 2^64 - 1).
            return Err("carves must be in 1..=10000".into());
        }
        if !(self.merge_time > 0.0 && self.merge_time.is_finite()) {
            return Err("merge_time must be finite and > 0".into());
        }
        if !(self.merge_share > 0.0 && self.merge_share <= 1.0) {
            return Err("merge_share must be in (0, 1]".into());
        }
        if let Some(key) = self.shadowed_flat_key() {
            return Err(format!(
                "'{key}' is given next to the nested part that replaces it (perturb, accept \
                 or operators): give it inside that part"
            ));
        }
        self.check_parts(reg)
    }
}
