//! # Exact solves from the workbench
//!
//! [`solve_from_mdav`] is `microagg solve-exact` (and the Python `solve_exact`): MDAV's
//! partition is handed to the exact solver as its first incumbent, so that a time-limited
//! set-partitioning answer is never worse than MDAV (the subset DP ignores the hint).
//! `ExactParams` are solve-exact's `--param KEY=VALUE`: the solver of its one-shot MIPs.
//!
//! ## Complexity
//! That of the exact method (exponential in n), plus one MDAV run, O(n^2 d / k).
//!
//! ## References
//! See `microagg_solvers::exact` and `proofs/P12`.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::params::Params;
use crate::pipeline::Pipeline;
use microagg_solvers::exact::{self, ExactMethod, ExactOptions, ExactSolution, SetPartOptions};
use microagg_solvers::models::MipSolver;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// The parameters of `solve-exact` (`--param KEY=VALUE`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct ExactParams {
    pub mip_solver: String,
}

impl Default for ExactParams {
    fn default() -> Self {
        ExactParams {
            mip_solver: MipSolver::Highs.name().to_string(),
        }
    }
}

impl Params for ExactParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "mip_solver",
        "solver of the set-partitioning MIPs solved once (set-partitioning: the MIP over the generated groups that may improve the partition; branch-and-price: the MIP over the column pool): highs, or cbc, scip, lp-cbc, lp-glpk, lp-gurobi, lp-cplex when this build has them (docs/developer/models.md); the LPs and the certified search always run on HiGHS",
    )];

    fn check(&self) -> std::result::Result<(), String> {
        self.solver()
            .map(|_| ())
            .map_err(|e| format!("mip_solver: {e}"))
    }
}

impl ExactParams {
    /// The MIP solver named by `mip_solver`.
    pub fn solver(&self) -> std::result::Result<MipSolver, String> {
        MipSolver::parse(&self.mip_solver)
    }
}

/// Solve (inst, k) exactly with `method`, starting from MDAV's partition; returns the
/// solution and the wall-clock seconds spent (MDAV included). `interrupt` stops the search
/// with the best partition and bound so far.
pub fn solve_from_mdav(
    inst: &Instance,
    k: usize,
    method: ExactMethod,
    time_limit: Option<f64>,
    interrupt: &AtomicBool,
) -> Result<(ExactSolution, f64)> {
    solve_from_mdav_with(inst, k, method, time_limit, MipSolver::Highs, interrupt)
}

/// [`solve_from_mdav`] whose set-partitioning method solves its MIP with `mip_solver`.
pub(crate) fn solve_from_mdav_with(
    inst: &Instance,
    k: usize,
    method: ExactMethod,
    time_limit: Option<f64>,
    mip_solver: MipSolver,
    interrupt: &AtomicBool,
) -> Result<(ExactSolution, f64)> {
    inst.check_k(k)?;
    let start = std::time::Instant::now();
    let never = AtomicBool::new(false);
    let mdav = Pipeline::parse("mdav", &[])?
        .run(inst, k, 0, None, &never)?
        .partition
        .labels()
        .to_vec();
    let opts = ExactOptions {
        method,
        time_limit,
        hint: Some(mdav),
        interrupt: Some(interrupt),
        setpart: SetPartOptions {
            mip_solver,
            ..SetPartOptions::default()
        },
    };
    let s = exact::solve_exact_with(&inst.z, inst.n, inst.d, k, &opts)
        .map_err(|e| Error::algorithm("solve-exact", e))?;
    Ok((s, start.elapsed().as_secs_f64()))
}
