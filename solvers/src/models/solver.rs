//! # The MIP solvers behind the one-shot models
//!
//! [`MipSolver`] names a solver that good_lp drives; [`solve`] hands a [`Mip`] to it with
//! the settings every one-shot model wants (relative and absolute MIP gap 0, a time limit,
//! the starting solution) and reads back the values of the model's variables. HiGHS is
//! always compiled in and is driven through its own instance (good_lp's `into_inner`), which
//! keeps what good_lp's generic interface lacks: HiGHS' interrupt callback (a flag set from
//! outside stops the search with the best solution) and its node count. The other solvers
//! come with cargo features of this crate (`cbc`, `scip`, `lp-files`); choosing one that
//! was not compiled in is an error that names the feature.
//!
//! ## Complexity
//! That of the solver (MIPs are NP-hard); building the model is linear in its nonzeros.
//!
//! ## References
//! - Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
//!   Math. Program. Comput. 10, 119-142 (HiGHS).
//! - good_lp, <https://github.com/rust-or/good_lp> (the modelling layer).

use super::{Mip, MipOutcome, MipRun, MipStatus};
use crate::bounds::colgen::master::stop_when_set;
use crate::error::set_highs_option;
use crate::SolverError;
use good_lp::{highs, SolverModel};
use highs::HighsModelStatus;

/// A MIP solver that good_lp drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MipSolver {
    /// HiGHS (always compiled in).
    #[default]
    Highs,
    /// COIN-OR CBC, linked (cargo feature `cbc`).
    Cbc,
    /// SCIP, linked through russcip (cargo feature `scip`).
    Scip,
    /// A solver binary on the PATH, run on an LP file (cargo feature `lp-files`).
    LpFile(LpBinary),
}

/// A solver binary that reads LP files (good_lp's `lp-solvers` backend).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LpBinary {
    /// `cbc`.
    Cbc,
    /// `glpsol` (GLPK).
    Glpk,
    /// `gurobi_cl`.
    Gurobi,
    /// `cplex` (takes no time limit through this backend).
    Cplex,
}

impl MipSolver {
    /// Every solver, in the order of [`MipSolver::name`]'s list.
    pub const ALL: [MipSolver; 7] = [
        MipSolver::Highs,
        MipSolver::Cbc,
        MipSolver::Scip,
        MipSolver::LpFile(LpBinary::Cbc),
        MipSolver::LpFile(LpBinary::Glpk),
        MipSolver::LpFile(LpBinary::Gurobi),
        MipSolver::LpFile(LpBinary::Cplex),
    ];

    /// The name a user gives: highs, cbc, scip, lp-cbc, lp-glpk, lp-gurobi or lp-cplex.
    pub fn name(self) -> &'static str {
        match self {
            MipSolver::Highs => "highs",
            MipSolver::Cbc => "cbc",
            MipSolver::Scip => "scip",
            MipSolver::LpFile(LpBinary::Cbc) => "lp-cbc",
            MipSolver::LpFile(LpBinary::Glpk) => "lp-glpk",
            MipSolver::LpFile(LpBinary::Gurobi) => "lp-gurobi",
            MipSolver::LpFile(LpBinary::Cplex) => "lp-cplex",
        }
    }

    /// The cargo feature of this crate that compiles the solver in (`None`: always there).
    pub fn feature(self) -> Option<&'static str> {
        match self {
            MipSolver::Highs => None,
            MipSolver::Cbc => Some("cbc"),
            MipSolver::Scip => Some("scip"),
            MipSolver::LpFile(_) => Some("lp-files"),
        }
    }

    /// True when this build can run the solver.
    pub fn compiled(self) -> bool {
        match self {
            MipSolver::Highs => true,
            MipSolver::Cbc => cfg!(feature = "cbc"),
            MipSolver::Scip => cfg!(feature = "scip"),
            MipSolver::LpFile(_) => cfg!(feature = "lp-files"),
        }
    }

    /// The solver named `name` if this build has it; otherwise a message that lists the
    /// names or says which cargo feature to build with.
    pub fn parse(name: &str) -> Result<MipSolver, String> {
        let Some(s) = Self::ALL.into_iter().find(|s| s.name() == name) else {
            let names: Vec<_> = Self::ALL.iter().map(|s| s.name()).collect();
            return Err(format!(
                "unknown MIP solver '{name}': expected one of {}",
                names.join(", ")
            ));
        };
        match s.feature().filter(|_| !s.compiled()) {
            Some(f) => Err(format!(
                "MIP solver '{name}' is not in this build: rebuild with `--features {f}` \
                 (docs/developer/models.md)"
            )),
            None => Ok(s),
        }
    }
}

/// Solve `mip` with `solver` under `run`: MIP gaps 0, the time limit, the starting
/// solution where the solver takes one, and (HiGHS only) the interrupt flag.
pub fn solve(mip: Mip, solver: MipSolver, run: &MipRun) -> Result<MipOutcome, SolverError> {
    if let Err(message) = MipSolver::parse(solver.name()) {
        return Err(SolverError::Mip {
            solver: solver.name(),
            message,
        });
    }
    match solver {
        MipSolver::Highs => solve_highs(mip, run),
        #[cfg(feature = "cbc")]
        MipSolver::Cbc => other::cbc(mip, run),
        #[cfg(feature = "scip")]
        MipSolver::Scip => other::scip(mip, run),
        #[cfg(feature = "lp-files")]
        MipSolver::LpFile(b) => other::lp_file(mip, b, run),
        #[allow(unreachable_patterns)]
        _ => unreachable!("checked by compiled()"),
    }
}

/// HiGHS on the model good_lp built, with the options and callback of the native code.
fn solve_highs(mip: Mip, run: &MipRun) -> Result<MipOutcome, SolverError> {
    let Mip {
        vars,
        objective,
        constraints,
        watched,
        start,
    } = mip;
    let mut problem = vars.minimise(objective).using(highs);
    for c in constraints {
        problem.add_constraint(c);
    }
    let mut model = problem
        .try_into_inner()
        .map_err(|e| SolverError::backend(format!("could not load the MIP: {e}")))?;
    model.make_quiet();
    set_exact_gap_and_limit(&mut model, run)?;
    if let Some(start) = start {
        model
            .try_set_solution(Some(&start), None, None, None)
            .map_err(|s| {
                SolverError::backend(format!("could not pass the starting solution: {s:?}"))
            })?;
    }
    watch_interrupt(&mut model, run);
    let solved = model
        .try_solve()
        .map_err(|s| SolverError::backend(format!("MIP failed: {s:?}")))?;
    let status = mip_status(solved.status());
    let mut values = solved.get_solution().columns().to_vec();
    if values.len() < watched {
        values.clear();
    }
    values.truncate(watched);
    Ok(MipOutcome {
        values,
        status,
        nodes: highs_node_count(&solved),
    })
}

/// HiGHS' settings for a one-shot MIP: relative and absolute gap 0 (solved to optimality
/// unless stopped) and the run's time limit (at least 0.01 s).
pub(super) fn set_exact_gap_and_limit(
    model: &mut highs::Model,
    run: &MipRun,
) -> Result<(), SolverError> {
    set_highs_option(model, "mip_rel_gap", 0.0)?;
    set_highs_option(model, "mip_abs_gap", 0.0)?;
    if let Some(t) = run.time_limit {
        set_highs_option(model, "time_limit", t.max(0.01))?;
    }
    Ok(())
}

/// With `run.interrupt`: HiGHS' MIP callback stops the search when the flag is set.
pub(super) fn watch_interrupt(model: &mut highs::Model, run: &MipRun) {
    if let Some(flag) = run.interrupt {
        let data = flag as *const std::sync::atomic::AtomicBool as *mut std::os::raw::c_void;
        // SAFETY: valid HiGHS instance; the flag outlives the model (the caller solves and
        // drops the model while it holds `run`), and the callback only reads it.
        unsafe {
            highs_sys::Highs_setCallback(model.as_mut_ptr(), Some(stop_when_set), data);
            highs_sys::Highs_startCallback(
                model.as_mut_ptr(),
                highs_sys::kHighsCallbackMipInterrupt,
            );
        }
    }
}

/// HiGHS' model status as a [`MipStatus`].
pub(super) fn mip_status(status: HighsModelStatus) -> MipStatus {
    match status {
        HighsModelStatus::Optimal => MipStatus::Optimal,
        HighsModelStatus::ReachedTimeLimit => MipStatus::TimeLimit,
        HighsModelStatus::ReachedInterrupt => MipStatus::Interrupted,
        s => MipStatus::Other(format!("{s:?}")),
    }
}

/// HiGHS' MIP node count, `None` if it does not say.
pub(super) fn highs_node_count(solved: &highs::SolvedModel) -> Option<i64> {
    let mut v: i64 = -1;
    // SAFETY: the pointer is the live HiGHS instance owned by `solved`; the name is a
    // NUL-terminated C string and `v` a valid i64 out-parameter, as the C API requires.
    let status = unsafe {
        highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut v)
    };
    (status != highs_sys::STATUS_ERROR && v >= 0).then_some(v)
}

/// The solvers reached through good_lp's generic interface (no interrupt, no node count).
#[cfg(any(feature = "cbc", feature = "scip", feature = "lp-files"))]
mod other {
    use super::super::{Mip, MipOutcome, MipRun, MipStatus};
    use crate::SolverError;
    use good_lp::{ResolutionError, Solution, SolutionStatus, SolverModel};

    /// Add the constraints, solve, read the watched values.
    fn finish<M: SolverModel<Error = ResolutionError>>(
        mut model: M,
        mip: (Vec<good_lp::Constraint>, Vec<good_lp::Variable>),
        name: &'static str,
    ) -> Result<MipOutcome, SolverError> {
        let (constraints, watched) = mip;
        for c in constraints {
            model.add_constraint(c);
        }
        let sol = model.solve().map_err(|e| SolverError::Mip {
            solver: name,
            message: e.to_string(),
        })?;
        let status = match sol.status() {
            SolutionStatus::Optimal => MipStatus::Optimal,
            SolutionStatus::TimeLimit => MipStatus::TimeLimit,
            SolutionStatus::GapLimit => MipStatus::Other("gap limit".into()),
        };
        Ok(MipOutcome {
            values: watched.iter().map(|&v| sol.value(v)).collect(),
            status,
            nodes: None,
        })
    }

    /// A solver that refused the MIP gap 0.
    fn gap_error(solver: &'static str, e: impl std::fmt::Display) -> SolverError {
        SolverError::Mip {
            solver,
            message: format!("MIP gap 0 refused: {e}"),
        }
    }

    /// The start as good_lp's (variable, value) pairs.
    fn start_pairs(mip: &Mip) -> Option<Vec<(good_lp::Variable, f64)>> {
        let start = mip.start.as_ref()?;
        Some(
            mip.vars
                .iter_variables_with_def()
                .zip(start)
                .map(|((v, _), &s)| (v, s))
                .collect(),
        )
    }

    /// The first `mip.watched` variables.
    fn watched(mip: &Mip) -> Vec<good_lp::Variable> {
        mip.vars
            .iter_variables_with_def()
            .take(mip.watched)
            .map(|(v, _)| v)
            .collect()
    }

    #[cfg(feature = "cbc")]
    pub(super) fn cbc(mip: Mip, run: &MipRun) -> Result<MipOutcome, SolverError> {
        use good_lp::{WithInitialSolution, WithMipGap, WithTimeLimit};
        let (start, w) = (start_pairs(&mip), watched(&mip));
        let mut m = mip.vars.minimise(mip.objective).using(good_lp::coin_cbc);
        m.set_parameter("log", "0");
        m.set_parameter("allowableGap", "0");
        let mut m = m.with_mip_gap(0.0).map_err(|e| gap_error("CBC", e))?;
        if let Some(t) = run.time_limit {
            m = m.with_time_limit(t.max(0.01));
        }
        if let Some(s) = start {
            m = m.with_initial_solution(s);
        }
        finish(m, (mip.constraints, w), "CBC")
    }

    #[cfg(feature = "scip")]
    pub(super) fn scip(mip: Mip, run: &MipRun) -> Result<MipOutcome, SolverError> {
        use good_lp::{WithInitialSolution, WithMipGap, WithTimeLimit};
        let (start, w) = (start_pairs(&mip), watched(&mip));
        let mut m = mip
            .vars
            .minimise(mip.objective)
            .using(good_lp::scip)
            .set_verbose(false)
            .set_option("limits/absgap", 0.0)
            .with_mip_gap(0.0)
            .map_err(|e| gap_error("SCIP", e))?;
        if let Some(t) = run.time_limit {
            m = m.with_time_limit(t.max(0.01));
        }
        if let Some(s) = start {
            m = m.with_initial_solution(s);
        }
        finish(m, (mip.constraints, w), "SCIP")
    }

    #[cfg(feature = "lp-files")]
    pub(super) fn lp_file(
        mip: Mip,
        binary: super::LpBinary,
        run: &MipRun,
    ) -> Result<MipOutcome, SolverError> {
        use super::LpBinary;
        use good_lp::solvers::lp_solvers::{
            CbcSolver, Cplex, GlpkSolver, GurobiSolver, LpSolver, WithMaxSeconds, WithMipGap,
        };
        use good_lp::WithInitialSolution;
        let seconds = run.time_limit.map(|t| t.ceil().max(1.0) as u32);
        let (start, w) = (start_pairs(&mip), watched(&mip));
        let parts = (mip.constraints, w);
        let problem = mip.vars.minimise(mip.objective);
        let gap = |e: String| gap_error("LP-file solver", e);
        match binary {
            LpBinary::Cbc => {
                let mut s = CbcSolver::new().with_mip_gap(0.0).map_err(gap)?;
                if let Some(t) = seconds {
                    s = s.with_max_seconds(t);
                }
                finish(problem.using(LpSolver(s)), parts, "cbc (LP file)")
            }
            LpBinary::Glpk => {
                let mut s = GlpkSolver::new().with_mip_gap(0.0).map_err(gap)?;
                if let Some(t) = seconds {
                    s = s.with_max_seconds(t);
                }
                finish(problem.using(LpSolver(s)), parts, "glpsol (LP file)")
            }
            LpBinary::Gurobi => {
                let mut s = GurobiSolver::new().with_mip_gap(0.0).map_err(gap)?;
                if let Some(t) = seconds {
                    s = s.with_max_seconds(t);
                }
                let m = problem.using(LpSolver(s));
                let m = match start {
                    Some(p) => m.with_initial_solution(p),
                    None => m,
                };
                finish(m, parts, "gurobi_cl (LP file)")
            }
            LpBinary::Cplex => {
                let s = Cplex::default().with_mip_gap(0.0).map_err(gap)?;
                finish(problem.using(LpSolver(s)), parts, "cplex (LP file)")
            }
        }
    }
}
