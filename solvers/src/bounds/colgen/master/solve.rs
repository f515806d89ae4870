//! # Solving the restricted master (HiGHS runs, retries, duals)
//!
//! One solve of the kept master: a HiGHS run by the strategy the last change calls for (dual
//! simplex after new rows, primal simplex after new columns, or the interior point method),
//! the retries from a cleared solver when a run ends without an optimum ([`RETRIES`]), and
//! the solution read back with the dual sign check of the module doc of [`super`]. A stop
//! flag reaches HiGHS through its interrupt callback ([`stop_when_set`]).
//!
//! ## Complexity
//! One simplex (or interior point) run per solve, at most `1 + RETRIES.len()` runs; reading
//! the solution is O(nonzeros of the columns x cuts).
//!
//! ## References
//! Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
//! Mathematical Programming Computation 10(1), 119-142 (HiGHS).

use super::{Master, MasterSolution};
use highs_sys::{
    kHighsCallbackIpmInterrupt, kHighsCallbackSimplexInterrupt, HighsCallbackDataIn,
    HighsCallbackDataOut, HighsInt, Highs_clearSolver, Highs_getModelStatus,
    Highs_getObjectiveValue, Highs_getSimplexIterationCount, Highs_getSolution, Highs_run,
    Highs_setCallback, Highs_startCallback, Highs_stopCallback, Highs_zeroAllClocks,
};
use std::cell::Cell;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const MODEL_STATUS_OPTIMAL: HighsInt = 7;
const MODEL_STATUS_TIME_LIMIT: HighsInt = 13;
const MODEL_STATUS_UNKNOWN: HighsInt = 15;
const MODEL_STATUS_INTERRUPT: HighsInt = 17;

/// HiGHS' interrupt callback: asks the run to stop once the flag behind `flag` is set.
pub(crate) unsafe extern "C" fn stop_when_set(
    _kind: c_int,
    _message: *const c_char,
    _out: *const HighsCallbackDataOut,
    data_in: *mut HighsCallbackDataIn,
    flag: *mut c_void,
) {
    // SAFETY: `flag` is the `&AtomicBool` that `Master::run` registered for the length of
    // one run; `data_in` is HiGHS' own, valid for this call when not null.
    unsafe {
        if !data_in.is_null() && (*(flag as *const AtomicBool)).load(Ordering::Relaxed) {
            (*data_in).user_interrupt = 1;
        }
    }
}

impl Master {
    /// Solve (dual simplex first, then primal simplex from the kept basis, or the interior
    /// point method when `ipm` is set) within `seconds` and read the duals; `Ok(None)` when
    /// HiGHS stopped on that time limit, or ended without an optimum even after the retries
    /// of [`RETRIES`] (then [`Master::failure`] says why; the caller keeps what it has, as
    /// on a time limit).
    pub fn solve(&mut self, seconds: f64) -> Result<Option<MasterSolution>, String> {
        self.solve_stoppable(seconds, None)
    }

    /// [`Master::solve`] that also stops (`Ok(None)`) within one simplex or interior point
    /// iteration of `stop` being set (HiGHS' interrupt callback): a single master solve can
    /// take many seconds.
    pub fn solve_stoppable(
        &mut self,
        seconds: f64,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<MasterSolution>, String> {
        let first = self.solves == 0;
        self.solves += 1;
        self.failure = None;
        // Dual simplex first and after new cuts, primal simplex after new columns.
        let strategy: HighsInt = if first || self.dual_restart { 1 } else { 4 };
        self.dual_restart = false;
        let ipm = !first && self.ipm && strategy == 4;
        let Some((status, ipm)) = self.run_with_retries(strategy, ipm, seconds, stop)? else {
            return Ok(None);
        };
        if status == MODEL_STATUS_TIME_LIMIT || status == MODEL_STATUS_INTERRUPT {
            return Ok(None);
        }
        let solution = self.read_solution();
        if !ipm {
            self.check_dual_signs(&solution)?;
        }
        Ok(Some(solution))
    }

    /// The first run, then the retries of [`RETRIES`] while a run ends without an optimum
    /// and not on its time limit or stop; the last run's status and whether it ran the
    /// interior point method without crossover (its duals are not a vertex's). `None` (and
    /// [`Master::failure`] set) when every retry failed.
    fn run_with_retries(
        &mut self,
        strategy: HighsInt,
        mut ipm: bool,
        seconds: f64,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<(HighsInt, bool)>, String> {
        let until = Instant::now() + Duration::from_secs_f64(seconds.clamp(0.0, 1e9));
        let mut status = self.run(strategy, ipm, false, seconds, stop)?;
        let mut retries = RETRIES.iter();
        while ![
            MODEL_STATUS_OPTIMAL,
            MODEL_STATUS_TIME_LIMIT,
            MODEL_STATUS_INTERRUPT,
        ]
        .contains(&status)
        {
            let Some(rung) = retries.next() else {
                self.set_option("presolve", "off")?;
                self.failure = Some(format!(
                    "master LP not solved to optimality (model status {status}, also after {} retries)",
                    RETRIES.len()
                ));
                return Ok(None);
            };
            self.retries += 1;
            // A fresh start (no kept basis, no factorisation) under other settings.
            // SAFETY: valid HiGHS instance owned by `model`.
            unsafe { Highs_clearSolver(self.model.as_mut_ptr()) };
            self.set_option("presolve", if rung.presolve { "on" } else { "off" })?;
            ipm = false; // a crossover's solution is a vertex, as the simplex's
            let left = until
                .saturating_duration_since(Instant::now())
                .as_secs_f64();
            status = self.run(rung.strategy, rung.ipm, true, left, stop)?;
        }
        if retries.len() < RETRIES.len() {
            self.set_option("presolve", "off")?;
        }
        Ok(Some((status, ipm)))
    }

    /// The solution of the optimal run: value, row, count and cut duals, primal values of
    /// the columns, the box columns' total and the reduced costs.
    fn read_solution(&self) -> MasterSolution {
        // SAFETY: valid HiGHS instance owned by `model`.
        let value = unsafe { Highs_getObjectiveValue(self.model.as_ptr()) };
        let ncols = self.art + self.columns.len();
        let mut primal = vec![0.0; ncols];
        let mut col_dual = vec![0.0; ncols];
        let rows = self.n + usize::from(self.count_row) + self.cuts.len();
        let mut row_value = vec![0.0; rows];
        let mut duals = vec![0.0; rows];
        // SAFETY: buffers sized to the model's columns and rows.
        unsafe {
            Highs_getSolution(
                self.model.as_ptr(),
                primal.as_mut_ptr(),
                col_dual.as_mut_ptr(),
                row_value.as_mut_ptr(),
                duals.as_mut_ptr(),
            )
        };
        let mut cut_duals = duals.split_off(self.n);
        let count_dual = if self.count_row {
            cut_duals.remove(0)
        } else {
            0.0
        };
        let artificial: f64 = primal[..self.art].iter().sum();
        let primal = primal.split_off(self.art);
        let col_dual = col_dual.split_off(self.art);
        MasterSolution {
            value,
            duals,
            cut_duals,
            primal,
            artificial,
            reduced_costs: col_dual,
            count_dual,
        }
    }

    /// The sign convention check of the module doc of [`super`]: every column at a positive
    /// value has a reduced cost of (almost) zero under the duals read.
    fn check_dual_signs(&self, s: &MasterSolution) -> Result<(), String> {
        let (duals, cut_duals, count_dual) = (&s.duals, &s.cut_duals, s.count_dual);
        let scale = 1.0 + duals.iter().fold(0.0f64, |m, y| m.max(y.abs()));
        for (col, g) in self.columns.iter().enumerate() {
            if s.primal[col] > 1e-7 {
                let rc = self.costs[col]
                    - count_dual
                    - g.iter().map(|&i| duals[i as usize]).sum::<f64>()
                    - self
                        .cuts
                        .iter()
                        .zip(cut_duals)
                        .map(|(t, s)| s * t.coefficient(g))
                        .sum::<f64>();
                if rc.abs() > 1e-6 * scale * g.len() as f64 {
                    return Err(format!(
                        "dual sign check failed: column {col} at value {} has reduced cost {rc}",
                        s.primal[col]
                    ));
                }
            }
        }
        Ok(())
    }

    /// One HiGHS run with simplex `strategy` (1 dual, 4 primal) or the interior point method
    /// (`ipm`, with or without `crossover`) within `seconds`; returns the model status.
    fn run(
        &mut self,
        strategy: HighsInt,
        ipm: bool,
        crossover: bool,
        seconds: f64,
        stop: Option<&AtomicBool>,
    ) -> Result<HighsInt, String> {
        self.model
            .try_set_option("simplex_strategy", strategy)
            .map_err(|_| "could not set option simplex_strategy".to_string())?;
        self.set_option("solver", if ipm { "ipm" } else { "simplex" })?;
        if ipm {
            self.set_option("run_crossover", if crossover { "on" } else { "off" })?;
        }
        self.model
            .try_set_option("time_limit", seconds.max(1e-3))
            .map_err(|_| "could not set option time_limit".to_string())?;
        if FAIL_RUNS.with(|f| f.replace(f.get().saturating_sub(1)) > 0) {
            return Ok(MODEL_STATUS_UNKNOWN);
        }
        // SAFETY: valid HiGHS instance owned by `model`. The clocks are zeroed so that the
        // time limit counts from this run.
        unsafe {
            Highs_zeroAllClocks(self.model.as_ptr());
            if let Some(flag) = stop {
                let data = flag as *const AtomicBool as *mut c_void;
                Highs_setCallback(self.model.as_mut_ptr(), Some(stop_when_set), data);
                Highs_startCallback(self.model.as_mut_ptr(), kHighsCallbackSimplexInterrupt);
                Highs_startCallback(self.model.as_mut_ptr(), kHighsCallbackIpmInterrupt);
            }
            Highs_run(self.model.as_mut_ptr());
            if stop.is_some() {
                // The flag is borrowed for this run only.
                Highs_stopCallback(self.model.as_mut_ptr(), kHighsCallbackSimplexInterrupt);
                Highs_stopCallback(self.model.as_mut_ptr(), kHighsCallbackIpmInterrupt);
                Highs_setCallback(self.model.as_mut_ptr(), None, std::ptr::null_mut());
            }
        };
        // SAFETY: as above.
        let (status, iters) = unsafe {
            (
                Highs_getModelStatus(self.model.as_ptr()),
                Highs_getSimplexIterationCount(self.model.as_ptr()),
            )
        };
        self.simplex_iterations += iters as i64;
        Ok(status)
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.model
            .try_set_option(name, value)
            .map_err(|_| format!("could not set option {name}"))
    }
}

thread_local! {
    /// Master runs still to fail on this thread ([`fail_next_runs_for_test`]).
    static FAIL_RUNS: Cell<usize> = const { Cell::new(0) };
}

/// Make the next `runs` master runs on this thread end with status "unknown" without
/// running HiGHS, so that tests reach the retries ([`RETRIES`]) and the callers' fallback
/// when a master cannot be solved.
#[doc(hidden)]
pub fn fail_next_runs_for_test(runs: usize) {
    FAIL_RUNS.with(|f| f.set(runs));
}

/// A retry after a run that ended without an optimum: simplex strategy (1 dual, 4 primal) or
/// the interior point method with crossover, with or without presolve.
pub(super) struct Retry {
    strategy: HighsInt,
    ipm: bool,
    presolve: bool,
}

/// The retries, in order, each from a cleared solver (no kept basis): dual simplex, primal
/// simplex, dual simplex after presolve, interior point with crossover.
pub(super) const RETRIES: [Retry; 4] = [
    Retry {
        strategy: 1,
        ipm: false,
        presolve: false,
    },
    Retry {
        strategy: 4,
        ipm: false,
        presolve: false,
    },
    Retry {
        strategy: 1,
        ipm: false,
        presolve: true,
    },
    Retry {
        strategy: 1,
        ipm: true,
        presolve: false,
    },
];
