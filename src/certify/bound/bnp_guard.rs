//! # The guard of `auto`'s bnp route: column generation when the root certifies nothing, the search kit when the tree stalls
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
//! The guard runs bnp and watches the bounds and incumbents bnp reports (the root reports
//! every rise of its Lagrangian bound as it is found). It stops bnp in two cases
//! ([`GuardRule`]):
//!
//! - **Nothing above nn.** If by [`GUARD_CHECKPOINT`] of bnp's time no reported bound is
//!   above nn, the time left goes to `colgen` with the `AUTO_COLGEN` preset's settings
//!   (`fallback_params`: the nn line search, then column generation, seeded with the better
//!   incumbent); the larger of the two bounds is kept.
//! - **Stalled** ([`Stall`]). If bnp's bound leaves a gap above [`STALL`]`.gap` to the best
//!   partition known and rose by less than [`STALL`]`.rise` of that gap over the last
//!   [`STALL`]`.window` of bnp's time, the time left goes to the search kit: ILS from the
//!   best partition ([`search_from`]). bnp's bound and certificate at the stop are kept. On
//!   2000 uniform records (d = 10, k = 5) the root with its cuts ends 1.4 % below the best
//!   partition and the tree raises it by 0.05 per 100 s, while ILS keeps lowering the
//!   partition (studies/study-auto-table-600.txt); below a 1 % gap, as on the CASC files, the
//!   rule never fires and branching keeps its time.
//!
//! When neither holds, bnp runs to its limit exactly as without the guard.
//!
//! ## Complexity
//! That of bnp, colgen and ILS, bounded by the time limit; the watcher polls every `POLL`,
//! O(reports) per poll.
//!
//! ## References
//! proofs/P17 (bnp), P20 (the line search's anchored bound).

use super::extras::Incumbent;
use super::presets::AUTO_COLGEN;
use super::registry::{BoundRun, Computed};
use crate::data::Instance;
use crate::error::Result;
use crate::partition::Partition;
use crate::rng::Rng;
use rand::SeedableRng;
use serde_json::{json, Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Share of bnp's time after which the guard stops bnp when it has certified nothing above
/// nn: late enough that a root which converges slowly but has passed nn keeps its whole
/// time (the guard never fires then), early enough that the line search gets a third of
/// the time (its line search needed 26 s on the uniform n = 2000, d = 10, k = 5 case, its
/// column generation about 150 s on that case and on the heavy-tailed one).
pub const GUARD_CHECKPOINT: f64 = 2.0 / 3.0;

/// The stall rule: bnp's bound is `gap` (relative to the bound) or more below the best
/// partition and rose by less than `rise` times that gap over the last `window` (a share of
/// bnp's time).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stall {
    pub gap: f64,
    pub window: f64,
    pub rise: f64,
}

/// The stall rule of `auto`: a gap above 1 %, which the tree at these sizes (minutes per
/// node) does not close, and a rise of less than 5 % of it in the last 15 % of bnp's time
/// (72 s at T = 600 s; the root's cut rounds on the uniform case raise the bound by about
/// 8 % of the gap per minute, its tree by 0.1 %).
pub const STALL: Stall = Stall {
    gap: 0.01,
    window: 0.15,
    rise: 0.05,
};

/// When the guard stops bnp (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuardRule {
    /// Share of bnp's time (0 fires at once when nothing is above nn; above 1 never).
    pub checkpoint: f64,
    pub stall: Stall,
}

impl Default for GuardRule {
    fn default() -> Self {
        GuardRule {
            checkpoint: GUARD_CHECKPOINT,
            stall: STALL,
        }
    }
}

/// How often the watcher looks at bnp's reports and the interrupt.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// Seed of the search kit after a stall (a stream other than the incumbent search's 0).
pub(crate) const SEARCH_SEED: u64 = 1;

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

impl Stall {
    /// Whether bnp has stalled `now` seconds into its run with `window` seconds of window,
    /// given its reported bounds `(seconds, bound)` in time order and the least SSE of a
    /// partition known. A bound reported no later than `now - window` must exist (before
    /// it, the rise is unknown).
    pub fn holds(&self, bounds: &[(f64, f64)], least_sse: f64, now: f64, window: f64) -> bool {
        let Some(&(_, bound)) = bounds.last() else {
            return false;
        };
        let gap = least_sse - bound;
        if !(bound > 0.0 && gap > self.gap * bound) {
            return false;
        }
        let earlier = bounds.iter().rev().find(|&&(t, _)| t <= now - window);
        earlier.is_some_and(|&(_, before)| bound - before < self.rise * gap)
    }
}

/// Why the guard stopped bnp.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fired {
    NothingAboveNn,
    Stalled,
}

/// What the guarded bnp run gives: bnp's result, and whether and why the guard stopped it.
pub struct Guarded {
    pub bnp: Computed,
    pub fired: Option<Fired>,
}

/// What the watcher knows of bnp's run: its reported bounds above nn (seconds since the
/// start, value) and the least SSE of a partition known.
struct Track {
    bounds: Vec<(f64, f64)>,
    least_sse: f64,
}

/// Run `bnp(run)` (a closure over a [`BoundRun`] whose interrupt is the guard's) under the
/// guard `rule` for `seconds`, with the nn bound `nn` and the SSE `start_sse` of bnp's start
/// partition. The caller's interrupt still stops it.
pub(crate) fn run_bnp(
    run: &mut BoundRun,
    (nn, start_sse): (f64, f64),
    seconds: f64,
    rule: &GuardRule,
    bnp: impl FnOnce(&mut BoundRun) -> Result<Computed>,
) -> Result<Guarded> {
    let t0 = Instant::now();
    let at = t0 + Duration::from_secs_f64((seconds * rule.checkpoint).max(0.0));
    let window = seconds * rule.stall.window;
    let stop = AtomicBool::new(false);
    let fired = Mutex::new(None);
    let track = Mutex::new(Track {
        bounds: Vec::new(),
        least_sse: start_sse,
    });
    let done = AtomicBool::new(false);
    let user = run.interrupt;
    let fire = |why| {
        *fired.lock().unwrap() = Some(why);
        stop.store(true, Ordering::SeqCst);
    };
    // Checked once before bnp starts, so a checkpoint at 0 fires whatever bnp would report.
    if should_stop(Instant::now(), at, false) {
        fire(Fired::NothingAboveNn);
    }
    let report = &mut *run.report;
    let mut watched = |p: &super::extras::BoundProgress| {
        let mut t = track.lock().unwrap();
        t.least_sse = t.least_sse.min(p.incumbent_sse);
        if p.lower_bound > nn {
            t.bounds.push((t0.elapsed().as_secs_f64(), p.lower_bound));
        }
        drop(t);
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
                let now = t0.elapsed().as_secs_f64();
                let t = track.lock().unwrap();
                if user.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                } else if should_stop(Instant::now(), at, !t.bounds.is_empty()) {
                    fire(Fired::NothingAboveNn);
                } else if rule.stall.holds(&t.bounds, t.least_sse, now, window) {
                    fire(Fired::Stalled);
                }
                drop(t);
                std::thread::sleep(POLL);
            }
        });
        let out = bnp(&mut inner);
        done.store(true, Ordering::SeqCst);
        out
    })?;
    Ok(Guarded {
        bnp: out,
        fired: fired.into_inner().unwrap(),
    })
}

/// ILS (default parameters, seed [`SEARCH_SEED`]) from `start` for `seconds`: its best
/// partition when lower than the start's SSE (recomputed from the labels, as the start's).
pub(crate) fn search_from(
    inst: &Instance,
    k: usize,
    start: &Incumbent,
    seconds: f64,
    interrupt: &AtomicBool,
) -> Result<Option<Incumbent>> {
    let mut ils = crate::registry::find("ils")?.make_refiner(&Map::new())?;
    let out = crate::search::refine(
        ils.as_mut(),
        inst,
        k,
        Partition::from_labels(inst, start.labels.clone())?,
        &mut Rng::seed_from_u64(SEARCH_SEED),
        Some(Instant::now() + Duration::from_secs_f64(seconds)),
        interrupt,
    )?;
    let labels = out.partition.canonical_labels();
    let sse = Partition::from_labels(inst, labels.clone())?.sse();
    Ok((sse < start.sse).then_some(Incumbent {
        labels,
        sse,
        proven_optimal: false,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Show;
    use microagg_solvers::bnp::BnpProgress;

    /// Ten records on a line (0..9, z-scored), enough for groups of 3.
    fn line() -> Instance {
        let raw: Vec<f64> = (0..10).map(|i| i as f64).collect();
        Instance::from_raw("line", "test", vec!["x".into()], raw, String::new()).unwrap()
    }

    fn progress(lower_bound: f64, incumbent_sse: f64) -> BnpProgress {
        BnpProgress {
            what: "bound",
            seconds: 0.0,
            nodes: 0,
            open_nodes: 0,
            incumbent_sse,
            lower_bound,
        }
    }

    /// A stand-in for bnp: sends `reports` (bound, incumbent) one every 20 ms, then waits
    /// for the guard's interrupt for at most 2 s.
    fn fake_bnp(run: &mut BoundRun, reports: &[(f64, f64)]) -> Result<Computed> {
        for &(bound, sse) in reports {
            (run.report)(&progress(bound, sse));
            std::thread::sleep(Duration::from_millis(20));
        }
        let t = Instant::now();
        while !run.interrupt.load(Ordering::SeqCst) && t.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(Computed {
            lower_bound: reports.last().map_or(0.0, |r| r.0),
            details: json!({}),
            certificate: Err("none".into()),
            incumbent: None,
        })
    }

    /// Runs `fake_bnp` with `reports` under `rule` (10 s of bnp time; nn = 1): why the guard
    /// stopped it.
    fn guarded(rule: GuardRule, reports: &[(f64, f64)]) -> Option<Fired> {
        let inst = line();
        let never = AtomicBool::new(false);
        let mut run = BoundRun {
            inst: &inst,
            k: 3,
            start: None,
            show: Show::Never,
            interrupt: &never,
            report: &mut |_| {},
        };
        let g = run_bnp(&mut run, (1.0, 200.0), 10.0, &rule, |r| {
            fake_bnp(r, reports)
        })
        .unwrap();
        g.fired
    }

    #[test]
    fn a_stall_needs_a_gap_above_the_rule_a_bound_before_the_window_and_no_rise() {
        let s = STALL;
        let flat = [(1.0, 100.0), (5.0, 100.0)];
        // A 10 % gap, no rise over the last 3 s: stalled.
        assert!(s.holds(&flat, 110.0, 6.0, 3.0));
        // A gap at 0.5 %, below the rule's 1 %: not stalled.
        assert!(!s.holds(&flat, 100.5, 6.0, 3.0));
        // No bound reported before the window: the rise is unknown.
        assert!(!s.holds(&flat, 110.0, 3.5, 3.0));
        assert!(!s.holds(&[], 110.0, 6.0, 3.0));
        // A rise of 1 over the window against a gap of 10 (10 % of it): not stalled; of
        // 0.4 (4 %): stalled.
        assert!(!s.holds(&[(1.0, 99.0), (5.0, 100.0)], 110.0, 6.0, 3.0));
        assert!(s.holds(&[(1.0, 99.6), (5.0, 100.0)], 110.0, 6.0, 3.0));
    }

    #[test]
    fn the_guard_stops_a_stalled_bnp_and_says_why() {
        let quick = Stall {
            window: 0.01,
            ..STALL
        };
        let rule = GuardRule {
            checkpoint: 2.0,
            stall: quick,
        };
        // A bound 10 % below the partition that stops rising: stalled.
        assert_eq!(guarded(rule, &[(90.0, 99.0)]), Some(Fired::Stalled));
        // Within 1 % of the partition: bnp keeps its time.
        assert_eq!(guarded(rule, &[(98.5, 99.0)]), None);
        // Nothing above nn by a checkpoint at 0.5 % of the time (50 ms).
        let early = GuardRule {
            checkpoint: 0.005,
            stall: quick,
        };
        assert_eq!(guarded(early, &[]), Some(Fired::NothingAboveNn));
        // With no rule that can fire, bnp runs until it returns.
        let never = GuardRule {
            checkpoint: 2.0,
            stall: Stall {
                gap: f64::INFINITY,
                ..quick
            },
        };
        assert_eq!(guarded(never, &[(90.0, 99.0)]), None);
    }

    #[test]
    fn the_search_after_a_stall_returns_a_lower_feasible_partition_or_none() {
        let inst = line();
        let never = AtomicBool::new(false);
        // Groups of 3 or more that interleave the line: far from the optimum.
        let labels = vec![0, 1, 2, 0, 1, 2, 0, 1, 2, 0];
        let sse = Partition::from_labels(&inst, labels.clone()).unwrap().sse();
        let start = Incumbent {
            labels,
            sse,
            proven_optimal: false,
        };
        let better = search_from(&inst, 3, &start, 1.0, &never).unwrap().unwrap();
        assert!(better.sse < sse);
        crate::labels::check_labels(&inst, 3, &better.labels).unwrap();
        let again = Partition::from_labels(&inst, better.labels.clone())
            .unwrap()
            .sse();
        assert_eq!(again, better.sse);
        // From the optimum of the line (sorted runs of 3, 3, 4) nothing lower exists.
        let best = Incumbent {
            labels: vec![0, 0, 0, 1, 1, 1, 2, 2, 2, 2],
            sse: Partition::from_labels(&inst, vec![0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
                .unwrap()
                .sse(),
            proven_optimal: false,
        };
        assert!(search_from(&inst, 3, &best, 0.5, &never).unwrap().is_none());
    }
}
