//! # Late-acceptance hill climbing (LAHC)
//!
//! An acceptance rule without a temperature: a change is kept when its SSE is at most the
//! current SSE or at most the SSE the search had L iterations ago. A history of L costs,
//! all equal to the start's SSE at first, is read and updated in a ring: at iteration I the
//! candidate is compared with entry v = I mod L, and after the decision entry v becomes the
//! current SSE if that is lower (Burke & Bykov 2017, Fig. 2, the variant that never raises
//! an entry). A long history accepts more worsening changes early and converges later.
//!
//! An [`Accept`] like the kit's others (`search/accept/`), kept in this file with its
//! registration as the refiner `lahc`: ILS's perturbation (pool and re-split, dissolve or
//! distill) and descent with this rule in place of ILS's annealing; `lahc.length` is L,
//! the other parameters are ILS's of the same name. It draws no random number of its own,
//! so a run repeats bit for bit without a time limit.
//!
//! ## Complexity
//! O(1) per decision; O(L) memory.
//!
//! ## References
//! - Burke, E. K. and Bykov, Y. (2017). The late acceptance hill-climbing heuristic.
//!   European Journal of Operational Research 258(1), 70-78.

use super::accept::{tolerance, Accept};
use crate::method::MethodInfo;
use crate::params::Params;
use crate::rng::Rng;
use crate::search::ils::{Ils, IlsParams};
use serde::{Deserialize, Serialize};

/// The late-acceptance rule with a history of `length` costs.
#[derive(Debug, Clone)]
pub struct LateAcceptance {
    length: usize,
    history: Vec<f64>,
    iteration: usize,
}

impl LateAcceptance {
    pub fn new(length: usize) -> Self {
        LateAcceptance {
            length: length.max(1),
            history: Vec::new(),
            iteration: 0,
        }
    }

    fn slot(&self) -> usize {
        self.iteration % self.length
    }
}

impl Accept for LateAcceptance {
    fn name(&self) -> &'static str {
        "late-acceptance"
    }
    fn start(&mut self, sse: f64, _groups: usize, _has_budget: bool) {
        self.history = vec![sse; self.length];
        self.iteration = 0;
    }
    fn accept(&mut self, before: f64, delta: f64, _rng: &mut Rng) -> bool {
        delta <= tolerance(before) || before + delta <= self.history[self.slot()]
    }
    fn after(&mut self, current: f64, _progress: Option<f64>) {
        let v = self.slot();
        if current < self.history[v] {
            self.history[v] = current;
        }
        self.iteration += 1;
    }
}

/// Parameters of `lahc`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LahcParams {
    pub length: usize,
    pub neighbours: usize,
    pub min_pool: usize,
    pub max_pool: usize,
    pub dissolve_rate: f64,
    pub stall: u64,
}

impl Default for LahcParams {
    fn default() -> Self {
        let ils = IlsParams::default();
        LahcParams {
            length: 50,
            neighbours: ils.neighbours,
            min_pool: ils.min_pool,
            max_pool: ils.max_pool,
            dissolve_rate: ils.dissolve_rate,
            stall: ils.stall,
        }
    }
}

impl LahcParams {
    /// ILS's parameters with these in place (the rest at ILS's defaults).
    fn ils(&self) -> IlsParams {
        IlsParams {
            neighbours: self.neighbours,
            min_pool: self.min_pool,
            max_pool: self.max_pool,
            dissolve_rate: self.dissolve_rate,
            stall: self.stall,
            ..IlsParams::default()
        }
    }
}

impl Params for LahcParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("length", "history length L: a change is kept when its SSE is at most the current one or the one of L iterations ago, 1..=1000000 (default 50, not tuned)"),
        ("neighbours", "as ils.neighbours (default 30)"),
        ("min_pool", "as ils.min_pool (default 2)"),
        ("max_pool", "as ils.max_pool (default 12)"),
        ("dissolve_rate", "as ils.dissolve_rate (default 0.05)"),
        ("stall", "as ils.stall: iterations without a new best before returning to the best; with no budget the search stops there (default 20000)"),
    ];
    fn check(&self) -> Result<(), String> {
        if !(1..=1_000_000).contains(&self.length) {
            return Err("length must be in 1..=1000000".into());
        }
        self.ils().check()
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "lahc",
        "late-acceptance hill climbing over ILS's perturbation and descent: keep a change when its SSE is at most the current one or the one of L iterations ago",
        "Burke & Bykov (2017), European J. Operational Research 258(1)",
        |p: LahcParams| Ils::composed("lahc", p.ils(), Box::new(LateAcceptance::new(p.length))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Burke & Bykov's rule by hand with L = 2: a worse candidate passes when it is at most
    /// the cost of two iterations ago, and an entry is lowered, never raised.
    #[test]
    fn keeps_what_beats_the_cost_of_l_iterations_ago() {
        let mut rng = Rng::seed_from_u64(0);
        let mut la = LateAcceptance::new(2);
        la.start(10.0, 4, false);
        // Iteration 0 (entry 0 = 10): 9 -> 9.5 is worse than current but <= 10.
        assert!(la.accept(9.0, 0.5, &mut rng));
        la.after(9.5, None); // entry 0 := 9.5
                             // Iteration 1 (entry 1 = 10): 9.5 -> 10.5 is above both.
        assert!(!la.accept(9.5, 1.0, &mut rng));
        la.after(9.5, None); // entry 1 := 9.5
                             // Iteration 2 (entry 0 = 9.5): 9.5 -> 9.6 above 9.5: rejected; 9.5 -> 9.5 kept.
        assert!(!la.accept(9.5, 0.1, &mut rng));
        assert!(la.accept(9.5, 0.0, &mut rng));
        la.after(9.7, None); // entry 0 stays 9.5 (never raised)
        assert_eq!(la.history, vec![9.5, 9.5]);
    }

    /// The registered refiner: ILS's composition with this rule improves MDAV on clustered
    /// data under a step budget, repeats bit for bit, and its history length is validated.
    #[test]
    fn lahc_refiner_improves_mdav_and_repeats() {
        use crate::pipeline::Pipeline;
        let inst = crate::data::load(
            "gauss:n=400,d=3,clusters=8,seed=5",
            &crate::data::ColumnSelection::All,
        )
        .unwrap();
        let never = std::sync::atomic::AtomicBool::new(false);
        let run = |spec: &str| {
            Pipeline::parse(spec, &["lahc.length=20".to_string()])
                .unwrap()
                .run_with(&inst, 4, 9, None, Some(400), &never)
                .unwrap()
        };
        let mdav = Pipeline::parse("mdav", &[])
            .unwrap()
            .run(&inst, 4, 9, None, &never)
            .unwrap()
            .partition;
        let a = run("mdav+lahc");
        let b = run("mdav+lahc");
        assert!(a.partition.sse() < mdav.sse());
        assert_eq!(a.partition.labels(), b.partition.labels());
        let stats = a.stages[1].stats.as_ref().unwrap();
        assert!(stats.get("accepted").unwrap() > 0);
        let e = Pipeline::parse("mdav+lahc", &["lahc.length=0".to_string()]);
        assert!(e.is_err());
    }
}
