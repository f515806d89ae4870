//! # Restarts
//!
//! The rule ILS (`stall`) and SA (`reheat_after`) share: after `after` steps in a row
//! without a new best partition, go back to the best one (observers see a `Restart` event
//! through `Ctx::restarted`). What else a restart does stays with the refiner (SA resets
//! its temperature, both drop their spare group slots).
//!
//! ```
//! use microagg::search::restart::Restart;
//! let mut r = Restart::new(2);
//! assert!(!r.tick(false));
//! assert!(r.tick(false));
//! r.reset();
//! assert!(!r.due() && !r.tick(true));
//! ```
//!
//! ## Complexity
//! O(1) per step; `Restart::restore` rebuilds the best partition, O(n d).
//!
//! ## References
//! - Lourenco, H. R., Martin, O. C. and Stutzle, T. (2003). Iterated local search. In
//!   Handbook of Metaheuristics, Kluwer, 321-353 (restart tests).

use crate::error::Result;
use crate::method::{Ctx, SearchState};

/// Counts steps without a new best and restores the best partition when asked.
#[derive(Debug, Clone)]
pub struct Restart {
    after: u64,
    since_best: u64,
}

impl Restart {
    /// Restart after `after` steps in a row without a new best.
    pub fn new(after: u64) -> Self {
        Restart {
            after,
            since_best: 0,
        }
    }

    /// Count one step (`improved`: it found a new best); true once a restart is due.
    pub fn tick(&mut self, improved: bool) -> bool {
        self.since_best = if improved { 0 } else { self.since_best + 1 };
        self.due()
    }

    /// A new best found outside the steps counted (ILS's merge): count again from zero.
    pub fn reset(&mut self) {
        self.since_best = 0;
    }

    /// True once `after` steps in a row found no new best.
    pub fn due(&self) -> bool {
        self.since_best >= self.after
    }

    /// Go back to the best partition, report the restart and count again from zero.
    pub(crate) fn restore(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        state.current = state.best(ctx.inst)?;
        ctx.restarted();
        self.since_best = 0;
        Ok(())
    }
}
