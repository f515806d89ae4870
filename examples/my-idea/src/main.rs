//! # My idea: a chain kick and a pair shift, tried without forking microagg
//!
//! A user's crate that adds two parts to the search kit and compares ILS with and without
//! them, in one file:
//!
//! - [`ChainKick`], a perturbation ([`Perturb`]): from a random record, swap it with its
//!   nearest record in another group, then the record that came in with its own nearest
//!   record in another group, `length` times (a short ejection chain);
//! - [`PairShift`], a descent move ([`Operator`]): move a record together with its nearest
//!   group-mate into a candidate group, when its group keeps k records. Its delta is two
//!   shift deltas (P02), the second on the centroids and sizes the first one leaves, O(d).
//!
//! Both are registered next to the built-in parts ([`Registry`]); the suite below then
//! names them in ILS's parameters (`ils.perturb`, `ils.operators`) like any built-in part.
//! With no arguments the program runs the suite (with traces and gaps to the `nn` bound)
//! and prints the comparison table; with arguments it is the whole `microagg` command line
//! over the extended registry (`my-idea run --method mdav+ils --param 'ils.perturb=...'`,
//! `my-idea experiment`, `my-idea report`, `my-idea list`).
//!
//! ## Complexity
//! ChainKick O(length m) for m neighbours per record; PairShift O(s + d) per candidate
//! group for a group of s records.
//!
//! ## References
//! - Glover, F. (1996). Ejection chains, reference structures and alternating path methods
//!   for traveling salesman problems. Discrete Applied Mathematics 65, 223-253.

use microagg::data::Instance;
use microagg::method::Ctx;
use microagg::params::Params;
use microagg::partition::{sq_dist, Partition};
use microagg::registry::Registry;
use microagg::search::kit::{OperatorInfo, PerturbInfo};
use microagg::search::moves::{Counters, Move, MoveLog};
use microagg::search::operators::{Best, Operator, View};
use microagg::search::perturb::{Perturb, Workspace};
use rand::Rng as _;
use serde::{Deserialize, Serialize};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Parameters of `chain_kick`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct ChainKickParams {
    length: usize,
}

impl Default for ChainKickParams {
    fn default() -> Self {
        ChainKickParams { length: 3 }
    }
}

impl Params for ChainKickParams {
    const DOC: &'static [(&'static str, &'static str)] =
        &[("length", "swaps in the chain, 1..=100 (default 3)")];
    fn check(&self) -> Result<(), String> {
        if !(1..=100).contains(&self.length) {
            return Err("length must be in 1..=100".into());
        }
        Ok(())
    }
}

/// The chain kick: `length` swaps, each of the record last moved in with its nearest
/// record in another group.
struct ChainKick {
    length: usize,
}

impl Perturb for ChainKick {
    fn name(&self) -> &'static str {
        "chain_kick"
    }

    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
        ws.groups.clear();
        let mut at = r;
        let mut moved = false;
        for _ in 0..self.length {
            let g = p.group_of(at);
            let Some(&j) = ws.nb.of(at).iter().find(|&&j| p.group_of(j as usize) != g) else {
                break;
            };
            let j = j as usize;
            for h in [g, p.group_of(j)] {
                if !ws.groups.contains(&h) {
                    ws.groups.push(h);
                }
            }
            ws.log.swap(p, ctx.inst, at, j);
            ws.ls.push(at);
            ws.ls.push(j);
            moved = true;
            // Go on from either record of the swap, at random.
            at = if ctx.rng.random_bool(0.5) { j } else { at };
        }
        moved
    }
}

/// The pair shift: record i and its nearest group-mate into group h.
#[derive(Default)]
struct PairShift {
    counters: Counters,
}

impl PairShift {
    /// i's nearest record in its own group, among its neighbours.
    fn mate(v: &View, i: usize) -> Option<usize> {
        let g = v.p.group_of(i);
        let j =
            v.nb.of(i)
                .iter()
                .find(|&&j| v.p.group_of(j as usize) == g)?;
        Some(*j as usize)
    }

    /// Exact change in SSE of moving i then j from their group g to h (P02 twice).
    fn delta(v: &View, i: usize, j: usize, h: usize) -> f64 {
        let (p, inst) = (v.p, v.inst);
        let g = p.group_of(i);
        let (sg, sh) = (p.size(g) as f64, p.size(h) as f64);
        let first = p.shift_delta(inst, i, h);
        // Centroids after i moved: g without i, h with i.
        let (xi, xj) = (inst.row(i), inst.row(j));
        let cg: Vec<f64> = p
            .centroid(g)
            .iter()
            .zip(xi)
            .map(|(c, x)| (sg * c - x) / (sg - 1.0))
            .collect();
        let ch: Vec<f64> = p
            .centroid(h)
            .iter()
            .zip(xi)
            .map(|(c, x)| (sh * c + x) / (sh + 1.0))
            .collect();
        let second =
            (sh + 1.0) / (sh + 2.0) * sq_dist(xj, &ch) - (sg - 1.0) / (sg - 2.0) * sq_dist(xj, &cg);
        first + second
    }
}

impl Operator for PairShift {
    fn name(&self) -> &'static str {
        "pair_shift"
    }
    fn counters(&self) -> Counters {
        self.counters
    }
    fn scan_group(&mut self, v: &View, i: usize, h: usize, first: bool, best: &mut Best) -> bool {
        if v.p.size(v.p.group_of(i)) < v.k + 2 {
            return false;
        }
        let Some(j) = Self::mate(v, i) else {
            return false;
        };
        self.counters.evaluations += 1;
        let mv = Move::Other { a: i, b: j, to: h };
        best.offer(Self::delta(v, i, j, h), mv) && first
    }
    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        let Move::Other { a, b, to } = mv else {
            unreachable!("pair_shift applies its own moves")
        };
        self.counters.applications += 1;
        log.shift(p, inst, a, to);
        log.shift(p, inst, b, to);
    }
}

/// The built-in registry with the two new parts.
fn registry() -> microagg::Result<Registry> {
    Registry::builtin()
        .with_perturb(PerturbInfo::with_params(
            "chain_kick",
            "swap a random record with its nearest record in another group, along a chain",
            |p: ChainKickParams| Box::new(ChainKick { length: p.length }),
        ))?
        .with_operator(OperatorInfo::with_params(
            "pair_shift",
            "move a record and its nearest group-mate together into a candidate group",
            |_: microagg::params::NoParams| Box::new(PairShift::default()),
        ))
}

/// The comparison: ILS as shipped against ILS with the chain kick in its perturbation
/// list and the pair shift in its descent, on synthetic data (and Tarragona when found).
const SUITE: &str = r#"
name = "my-idea"
description = "mdav+decompose-shrink+ils with and without the chain kick and the pair shift"
instances = ["gauss:n=600,d=3,clusters=12,seed=5", "uniform:n=400,d=4,seed=2"]
optional_instances = ["tarragona"]
k = [3, 5]
seeds = { base = 1, replicates = 2 }
max_steps = 1500
bounds = ["nn"]
trace = true

[[pipeline]]
name = "ils (shipped)"
method = "mdav+decompose-shrink+ils"

[[pipeline]]
name = "ils + my idea"
method = "mdav+decompose-shrink+ils"
params = { ils = { perturb = [
    { pool_resplit = {}, weight = 0.8 },
    { chain_kick = { length = 4 }, weight = 0.15 },
    { dissolve_distill = {}, weight = 0.05 },
], operators = [{ shift = {} }, { swap = {} }, { pair_shift = {} }, { cycle3 = {} }] } }
"#;

/// Run the suite (`--max-steps N` changes its step budget) and print the table.
fn compare(max_steps: Option<u64>) -> microagg::Result<()> {
    use microagg::experiment::{expand::Plan, runner, suite::Suite};
    let mut suite = Suite::parse(SUITE, std::path::Path::new("my-idea.toml"))?;
    suite.max_steps = max_steps.or(suite.max_steps);
    suite.validate()?;
    let plan = Plan::new(suite)?;
    let opts = runner::RunOptions {
        out: None,
        jobs: 1,
        shard: None,
        resume: false,
        progress: runner::Progress::Quiet,
    };
    let summary = runner::run_plan(&plan, &opts, &AtomicBool::new(false))?;
    let rows = microagg::report::summarize(&summary.records)?;
    print!(
        "{}",
        microagg::report::render(&rows, microagg::report::Format::Markdown)
    );
    Ok(())
}

fn main() -> ExitCode {
    let registry = match registry() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps = match args.as_slice() {
        [] => None,
        [flag, n] if flag == "--max-steps" => n.parse().ok(),
        _ => return microagg::cli::main_with(registry),
    };
    registry.install();
    match compare(steps) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
