//! # The Rust twin of a Python test idea
//!
//! `test_chain_kick`: the chain kick of `examples/my-idea` (swap the record with its
//! nearest record in another group, then go on from either record of the swap at random,
//! `length` times), registered only when a test calls `_core._install_test_twin()`. The
//! Python tests write the same idea as a `microagg.Perturb` and check that both give the
//! same labels with the same seed: the same draws from the stage's random stream, the same
//! moves through the move log, the same records queued for the descent.
//!
//! ## Complexity
//! O(length m) per perturbation for m neighbours per record.
//!
//! ## References
//! - Glover, F. (1996). Ejection chains, reference structures and alternating path methods
//!   for traveling salesman problems. Discrete Applied Mathematics 65, 223-253.

use microagg::method::Ctx;
use microagg::params::Params;
use microagg::partition::Partition;
use microagg::registry::{self, Registry};
use microagg::search::kit::PerturbInfo;
use microagg::search::perturb::{Perturb, Workspace};
use pyo3::prelude::*;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Parameters of `test_chain_kick`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct TwinParams {
    length: usize,
}

impl Default for TwinParams {
    fn default() -> Self {
        TwinParams { length: 3 }
    }
}

impl Params for TwinParams {
    const DOC: &'static [(&'static str, &'static str)] =
        &[("length", "swaps in the chain, 1..=100 (default 3)")];
    fn check(&self) -> Result<(), String> {
        if !(1..=100).contains(&self.length) {
            return Err("length must be in 1..=100".into());
        }
        Ok(())
    }
}

struct ChainKick {
    length: usize,
}

impl Perturb for ChainKick {
    fn name(&self) -> &'static str {
        "test_chain_kick"
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
            at = if ctx.rng.random_bool(0.5) { j } else { at };
        }
        moved
    }
}

/// Register `test_chain_kick` in the registry in use (once per process).
#[pyfunction]
pub fn _install_test_twin() -> PyResult<()> {
    let current = registry::current();
    if current.perturbs.iter().any(|p| p.name == "test_chain_kick") {
        return Ok(());
    }
    let reg: Registry = (*current).clone();
    let reg = reg
        .with_perturb(PerturbInfo::with_params(
            "test_chain_kick",
            "test twin of the Python chain kick (tests only)",
            |p: TwinParams| Box::new(ChainKick { length: p.length }),
        ))
        .expect("the name is free (checked above)");
    reg.install();
    Ok(())
}
