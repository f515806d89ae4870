//! # Run traces
//!
//! The one place that captures a run's search trace. Today the library keeps one
//! process-wide trace sink (`microagg::search::trace`); traced runs therefore hold a lock
//! for their duration, so two traced runs of one process never mix their points. An
//! untraced run in another thread of the same process during a traced one can still add
//! its points to it: per-run observers (issue 19) will replace this module.
//!
//! ## Complexity
//! O(1) per search step (one atomic load when nothing is traced).
//!
//! ## References
//! None.

use microagg::search::trace::{self, TracePoint};
use std::sync::{Mutex, MutexGuard};

static TRACED_RUN: Mutex<()> = Mutex::new(());

/// An installed in-memory trace; [`Capture::finish`] returns its points.
pub struct Capture {
    _exclusive: MutexGuard<'static, ()>,
}

impl Capture {
    /// Start capturing when `on`: a point per improvement of the best and at least every
    /// `interval` seconds.
    pub fn start(on: bool, interval: f64) -> Option<Capture> {
        if !on {
            return None;
        }
        let guard = TRACED_RUN.lock().unwrap_or_else(|e| e.into_inner());
        trace::to_memory(interval);
        Some(Capture { _exclusive: guard })
    }

    pub fn finish(self) -> Vec<TracePoint> {
        trace::finish()
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        // An error path that skipped `finish` still uninstalls the sink (a second `finish`
        // is a no-op).
        let _ = trace::finish();
    }
}
