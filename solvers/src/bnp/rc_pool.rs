//! # The pool MIP over reduced-cost columns (a node heuristic)
//!
//! After the root, with `rc_pool_columns > 0`: every group whose reduced cost at the root's
//! duals is at most `t` is listed (the exact pricing in listing mode, as the enumeration of
//! P19 lists its pool), and the set-partitioning MIP over those groups and the incumbent's
//! ([`crate::merge::solve_pool_with`], warm-started at the incumbent, at most
//! `rc_pool_seconds`) looks for a better partition. A lower SSE (recomputed from the labels)
//! replaces the incumbent; nothing is proven, and the bound does not depend on it.
//!
//! Why these groups: every group of a partition whose SSE is within `G` of the Lagrangian
//! bound has reduced cost at most `G` at its duals (P19 Part A). Near the root's duals, the
//! incumbent's costly regions can therefore only be replaced by cheap groups, and a listing
//! of the cheapest few thousand holds many of them, where the column pool holds only the
//! groups that priced out on the way.
//!
//! The threshold: `t` starts at `gap / 1024` (`gap` the incumbent's SSE less the root's
//! bound) and doubles until it reaches `gap`, while the listing is complete and holds at most
//! `rc_pool_columns` distinct groups ([`crate::bounds::colgen::pricing::cheap_groups`]).
//!
//! ## Complexity
//! At most 11 listings ([`crate::bounds::colgen::pricing::cheap_groups`]); then one
//! MIP over at most `rc_pool_columns` plus `n / k` columns (exponential at worst, bounded by
//! `rc_pool_seconds`). Memory O(`rc_pool_columns` · 2k).
//!
//! ## References
//! - Sudoso, A. M. and Aloise, D. (2025). A column generation algorithm with dynamic
//!   constraint aggregation for minimum sum-of-squares clustering. INFORMS J. Comput.
//!   (restricted master heuristics over generated columns).
//! - Baldacci, R., Christofides, N. and Mingozzi, A. (2008). An exact algorithm for the
//!   vehicle routing problem based on the set partitioning formulation with additional cuts.
//!   Math. Program. 115(2), 351-385 (the set partitioning problem over the columns of small
//!   reduced cost).
//! - Measured on the CASC files: `studies/study-rc-pool.txt`.

use super::incumbent::consider;
use super::tree::Run;
use super::{Incumbent, NodeProof};
use crate::bounds::colgen::cuts::CutDuals;
use crate::bounds::colgen::pricing::{cheap_groups, Geometry};
use std::time::Instant;

/// What the heuristic did (original scale), for the run's details.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RcPoolReport {
    /// The reduced-cost threshold of the listing used.
    pub threshold: f64,
    /// Groups listed below it; whether that listing was complete.
    pub columns: usize,
    pub complete: bool,
    /// The complete listing reached the whole gap (threshold = incumbent SSE less the root's
    /// bound): it holds every group of every better partition (P19 Part A), so an optimal
    /// MIP over it returns an optimal partition (not a proof: the MIP solver's optimality is
    /// taken on trust).
    pub whole_gap: bool,
    /// The MIP solver proved its partition optimal over the offered groups.
    pub mip_optimal: bool,
    /// The MIP solver's error, if it failed (the incumbent is then unchanged).
    pub mip_error: Option<String>,
    /// Incumbent SSE before and after.
    pub sse_before: f64,
    pub sse_after: f64,
    /// Seconds listing and in the MIP.
    pub seconds: [f64; 2],
}

/// The heuristic of the module doc after the root: `p` the root's proving duals (scaled
/// problem), `bound` its bound (original scale), `s2` the scale's square; improves `inc` in
/// place.
pub(super) fn improve(
    run: &Run,
    geo: &Geometry,
    p: &NodeProof,
    bound: f64,
    s2: f64,
    inc: &mut Incumbent,
) -> RcPoolReport {
    let (opts, deadline) = (run.opts, run.deadline);
    let t0 = Instant::now();
    let gap = (inc.sse - bound) * s2;
    let cuts = CutDuals::new(p.y.len(), &p.cuts, &p.sigma);
    let range = (gap.max(f64::MIN_POSITIVE) / 1024.0, gap);
    let listed = cheap_groups(geo, &p.y, &cuts, range, opts.rc_pool_columns, deadline);
    let (groups, threshold, complete) = (listed.groups, listed.threshold, listed.complete);
    let listing_seconds = t0.elapsed().as_secs_f64();
    let mip = crate::models::MipRun {
        time_limit: Some(opts.rc_pool_seconds.min(deadline.seconds_left())),
        interrupt: run.interrupt,
    };
    let sse_before = inc.sse;
    let (x, n, d, k) = (run.x, run.n, run.d, run.k);
    let solved =
        crate::merge::solve_pool_with(x, n, d, k, &groups, &inc.labels, opts.mip_solver, &mip);
    let (mut mip_optimal, mut mip_error) = (false, None);
    match solved {
        Ok(r) => {
            mip_optimal = r.optimal;
            if r.improved {
                consider(x, d, r.labels, inc);
            }
        }
        Err(e) => mip_error = Some(e.to_string()),
    }
    RcPoolReport {
        threshold: threshold / s2,
        columns: groups.len(),
        complete,
        whole_gap: complete && threshold >= gap,
        mip_optimal,
        mip_error,
        sse_before,
        sse_after: inc.sse,
        seconds: [
            listing_seconds,
            t0.elapsed().as_secs_f64() - listing_seconds,
        ],
    }
}
