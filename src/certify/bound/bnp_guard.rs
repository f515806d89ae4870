//! # The guard of `auto`'s bnp route: column generation when the root certifies nothing
//!
//! On some data the root master LP of branch-and-price is so degenerate that column
//! generation hardly moves: on 2000 uniform records in 10 dimensions with k = 5 a master
//! solve takes 20-50 s, its value stays at the start partition's SSE, and no exact pricing
//! runs, so bnp ends at the nn bound; on 2000 heavy-tailed records (`heavy:n=2000,d=10`) it
//! certified nothing above nn in 400 s on a loaded core (on a core to itself, after 75 s).
//! There the line search from the nn duals (proofs/P20) certifies above nn in seconds with
//! no LP, and `colgen`'s master, which has no artificial box and smooths its pricing duals,
//! converges in about 150 s of one core.
//!
//! The guard runs bnp as before and watches the bound bnp reports (the root reports every
//! rise of its Lagrangian bound as it is found). If by [`GUARD_CHECKPOINT`] of bnp's time
//! no reported bound is above nn, it stops bnp and gives the time left to `colgen` with
//! the `AUTO_COLGEN` preset's settings (`fallback_params`: the nn line search, then
//! column generation, seeded with the better incumbent); the larger of the two bounds is
//! kept. When bnp certifies anything above nn before the
//! checkpoint, the guard does nothing and bnp runs to its limit exactly as without it.
//!
//! ## Complexity
//! That of bnp and of colgen, bounded by the time limit; the watcher polls every
//! `POLL`.
//!
//! ## References
//! proofs/P17 (bnp), P20 (the line search's anchored bound).

use super::presets::AUTO_COLGEN;
use super::registry::{BoundRun, Computed};
use crate::error::Result;
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Share of bnp's time after which the guard stops bnp when it has certified nothing above
/// nn: late enough that a root which converges slowly but has passed nn keeps its whole
/// time (the guard never fires then), early enough that the line search gets a third of
/// the time (its line search needed 26 s on the uniform n = 2000, d = 10, k = 5 case, its
/// column generation about 150 s on that case and on the heavy-tailed one).
pub const GUARD_CHECKPOINT: f64 = 2.0 / 3.0;

/// How often the watcher looks at bnp's reported bound and the interrupt.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// The `colgen` parameters of the guard's fallback for `seconds`: the [`AUTO_COLGEN`]
/// preset's (the line search from the nn duals, then column generation).
pub(crate) fn fallback_params(seconds: f64) -> Result<Map<String, Value>> {
    let mut given = super::presets::find(AUTO_COLGEN)?.given();
    given.insert("time_limit".into(), json!(seconds));
    Ok(given)
}

/// Whether the guard stops bnp: the checkpoint has passed and bnp has reported nothing
/// above nn.
pub fn should_stop(now: Instant, checkpoint: Instant, above_nn: bool) -> bool {
    now >= checkpoint && !above_nn
}

/// What the guarded bnp run gives: bnp's result, and whether the guard stopped it.
pub struct Guarded {
    pub bnp: Computed,
    pub fired: bool,
}

/// Run `bnp(run)` (a closure over a [`BoundRun`] whose interrupt is the guard's) under the
/// guard: stopped at `checkpoint` (a share of `seconds`) when no reported bound is above
/// `nn`. The caller's interrupt still stops it.
pub(crate) fn run_bnp(
    run: &mut BoundRun,
    nn: f64,
    seconds: f64,
    checkpoint: f64,
    bnp: impl FnOnce(&mut BoundRun) -> Result<Computed>,
) -> Result<Guarded> {
    let at = Instant::now() + Duration::from_secs_f64((seconds * checkpoint).max(0.0));
    let stop = AtomicBool::new(false);
    let fired = AtomicBool::new(false);
    let above = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let user = run.interrupt;
    // Checked once before bnp starts, so a checkpoint at 0 fires whatever bnp would report.
    if should_stop(Instant::now(), at, false) {
        fired.store(true, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
    }
    let report = &mut *run.report;
    let mut watched = |p: &super::extras::BoundProgress| {
        if p.lower_bound > nn {
            above.store(true, Ordering::SeqCst);
        }
        report(p);
    };
    let mut inner = BoundRun {
        inst: run.inst,
        k: run.k,
        start: run.start,
        show: run.show,
        interrupt: &stop,
        report: &mut watched,
    };
    let out = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::SeqCst) && !stop.load(Ordering::SeqCst) {
                if user.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                } else if should_stop(Instant::now(), at, above.load(Ordering::SeqCst)) {
                    fired.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
                std::thread::sleep(POLL);
            }
        });
        let out = bnp(&mut inner);
        done.store(true, Ordering::SeqCst);
        out
    })?;
    Ok(Guarded {
        bnp: out,
        fired: fired.load(Ordering::SeqCst),
    })
}
