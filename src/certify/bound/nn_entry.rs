//! # The `nn` entry of the bound registry
//!
//! The nearest-neighbour bound `sum_i NN_{k-1}(i) / (2k)` (proofs/P06): each record's k - 1
//! nearest from the neighbour lists (the static kd-tree from 4096 records, the same lists as
//! the scan, ties included), summed by the solvers crate with its own distance function
//! (proofs/P06, P10). It takes no parameters and runs to completion; a long pass reports
//! its progress on stderr, and Ctrl-C stops it without a value (a bound from part of the
//! lists is not computed).
//!
//! ## Complexity
//! O(n^2 d) by scan below 4096 records, about O(n log n d k) with the kd-tree above.
//!
//! ## References
//! See [`microagg_solvers::bounds::nn`].

use super::registry::{entry, About, BoundInfo, BoundRun, Computed, LowerBound};
use crate::error::{Error, Result};
use crate::params::NoParams;
use serde::Serialize;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The nearest-neighbour bound.
pub struct Nn;

pub const ENTRY: BoundInfo = entry::<Nn>(About {
    name: "nn",
    summary: "nearest-neighbour bound sum_i NN_{k-1}(i) / (2k), k-nearest lists from the kd-tree (by scan below 4096 records)",
    certified: "always (proofs/P06-nn-bound.md)",
    certificate: false,
    incumbent: false,
    weighted: Some("proofs/P41"),
});

/// The details of an `nn` bound.
#[derive(Debug, Clone, Serialize)]
pub struct NnDetails {
    /// The bound as computed, before outward rounding.
    pub computed: f64,
}

impl LowerBound for Nn {
    type Params = NoParams;

    fn compute(_: &NoParams, run: &mut BoundRun) -> Result<Computed> {
        let (inst, k) = (run.inst, run.k);
        let interrupt = run.interrupt;
        let mut report = NnProgress::new(inst.n);
        let lists = crate::geometry::neighbours::Neighbours::build_reporting(
            inst,
            k - 1,
            || interrupt.load(Ordering::SeqCst),
            |done| report.tell(done),
        )
        .ok_or_else(|| {
            Error::Interrupted(format!(
                "bound nn: stopped after the lists of {} of {} records",
                report.done, inst.n
            ))
        })?;
        let b = microagg_solvers::bounds::nn::nn_bound_from_lists(
            &inst.z,
            inst.n,
            inst.d,
            k,
            lists.as_flat(),
        )
        .map_err(|e| Error::algorithm("bound nn", e))?;
        let details = NnDetails {
            computed: b.computed,
        };
        Ok(Computed {
            lower_bound: b.lower_bound,
            details: serde_json::to_value(details).expect("details serialise"),
            certificate: Err("bound nn writes no certificate".into()),
            incumbent: None,
        })
    }
}

/// Progress of the neighbour lists on stderr: silent for the first [`NnProgress::QUIET`]
/// seconds (short runs print nothing), then one line every [`NnProgress::EVERY`] seconds.
struct NnProgress {
    n: usize,
    done: usize,
    started: Instant,
    last: f64,
}

impl NnProgress {
    const QUIET: f64 = 5.0;
    const EVERY: f64 = 10.0;

    fn new(n: usize) -> Self {
        NnProgress {
            n,
            done: 0,
            started: Instant::now(),
            last: Self::QUIET - Self::EVERY,
        }
    }

    fn tell(&mut self, done: usize) {
        self.done = done;
        let t = self.started.elapsed().as_secs_f64();
        if t >= self.last + Self::EVERY && done < self.n {
            self.last = t;
            eprintln!(
                "bound nn: neighbour lists of {done} of {} records ({:.0} %) after {t:.0} s",
                self.n,
                100.0 * done as f64 / self.n as f64
            );
        }
    }
}
