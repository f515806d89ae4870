//! # Observers
//!
//! What a run reports while it goes: the executor ([`execute`](super::execute)) and the
//! pipeline send typed [`Event`]s to every [`Observer`] passed to that run, so that two
//! runs on two threads (`experiment --jobs 2`) keep two traces. The search trace
//! ([`Trace`](super::trace::Trace)) is one observer; a user's own observer (a plot, a log,
//! a time-to-target probe) is another, written against this trait alone.
//!
//! ```
//! use microagg::data::{load, ColumnSelection};
//! use microagg::pipeline::Pipeline;
//! use microagg::search::observe::{Event, Observer};
//! use std::sync::atomic::AtomicBool;
//!
//! /// Counts the new best partitions of every stage.
//! #[derive(Default)]
//! struct Improvements(u64);
//! impl Observer for Improvements {
//!     fn observe(&mut self, _inst: &microagg::data::Instance, event: &Event) {
//!         if let Event::NewBest { .. } = event {
//!             self.0 += 1;
//!         }
//!     }
//! }
//!
//! let inst = load("gauss:n=200,d=2,clusters=5,seed=1", &ColumnSelection::All).unwrap();
//! let mut seen = Improvements::default();
//! let out = Pipeline::parse("mdav+descent", &[])
//!     .unwrap()
//!     .run_observed(&inst, 3, 0, None, None, &AtomicBool::new(false), &mut [&mut seen])
//!     .unwrap();
//! assert!(seen.0 >= 1 && out.partition.is_feasible(3));
//! ```
//!
//! ## Complexity
//! One virtual call per observer and event; with no observer the executor sends nothing.
//!
//! ## References
//! - argmin (Rust optimization library): observers called per iteration with modes.

use super::stop::StopReason;
use crate::data::Instance;
use crate::method::Stats;

/// Something that happened in a run.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// A stage (initializer or refiner) starts from a partition of SSE `sse` (0 for an
    /// initializer, which starts from nothing).
    StageStart { stage: &'a str, sse: f64 },
    /// A refiner finished step `step`.
    Step {
        stage: &'a str,
        step: u64,
        current_sse: f64,
        best_sse: f64,
    },
    /// Step `step` found a partition better than any before it in this stage.
    NewBest { stage: &'a str, step: u64, sse: f64 },
    /// The refiner went back to its best partition during step `step` (ILS, SA).
    Restart { stage: &'a str, step: u64 },
    /// The stage ended with a partition of SSE `sse` after `steps` steps.
    StageEnd {
        stage: &'a str,
        steps: u64,
        sse: f64,
        stop: Option<StopReason>,
        stats: &'a Stats,
    },
}

/// Receives the events of one run.
pub trait Observer: Send {
    fn observe(&mut self, inst: &Instance, event: &Event);
}

/// Send `event` to every observer.
pub(crate) fn notify(observers: &mut [&mut dyn Observer], inst: &Instance, event: &Event) {
    for o in observers.iter_mut() {
        o.observe(inst, event);
    }
}
