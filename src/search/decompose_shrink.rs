//! # Decompose and Shrink (iterative group decomposition)
//!
//! Khomnotai, Lin, Peng and Santra (2018), Fig. 1-4. Repeat, until neither improves the
//! SSE:
//! - **Decompose** (Fig. 2): for each group in turn (slot order, as built by the
//!   initializer), move every record of the group to its nearest other group (squared
//!   distance to the current centroid) if that lowers the SSE (the exact delta of
//!   [`Dissolve`](super::moves::dissolve)); then SplitLargeGroups.
//! - **Shrink** (Fig. 4): for each group with more than k records, repeatedly move the
//!   record whose move to another group lowers the SSE the most, while that lowers it and
//!   the group has more than k records; then SplitLargeGroups.
//! - **SplitLargeGroups** (Fig. 3, CBFS): for each group p of 2k or more records, while p
//!   holds at least k records, start a new group at the record of p farthest from p's
//!   centroid and add the record of p nearest to the new group's centroid until it has k;
//!   the fewer than k records left in p join their nearest groups. (Our reading of
//!   "repeated ... until |p| <= k" followed by "the remaining records in p are added to
//!   their nearest groups": the loop runs while |p| >= k, so the remainder is below k.)
//!
//! `tfrp2` is one Decompose pass (TFRP phase 2; GSMS-T2). Each step handles one group, so
//! a time limit holds; the refiners are deterministic (no randomness used).
//!
//! ## Differences from the paper
//! Our Decompose accepts a dissolution whenever the exact SSE after moving all records of
//! the group to their nearest groups is lower. The published MDAV-NN2/NN3 rows show the
//! authors' version fired far less often (Tarragona k = 3: 16.9326 -> 16.9324, ours
//! -> 16.6122); a stricter reading (every record's own shift must lower the SSE) reproduces
//! Tarragona k = 4 and 10 but not k = 3 or 5, so we keep the exact reading. Against Tables
//! 2-4 (suffix 2 and 3, seven initializers, 252 cells) 235 cells are reproduced within 0.01
//! or bettered and 17 are more than 0.01 worse, listed with our values in
//! tests/construct/decompose_shrink_rows.rs; the MDAV-NN rows are in
//! tests/construct/decompose_shrink_published.rs.
//!
//! ## Complexity
//! One Decompose or Shrink pass O(n G d) = O(n^2 d / k); SplitLargeGroups O(s^2 d) for a
//! group of s records.
//!
//! ## References
//! - Khomnotai, L., Lin, J.-L., Peng, Z.-Q. and Santra, A. S. (2018). Iterative group
//!   decomposition for refining microaggregation solutions. Symmetry 10(7), 262.
//! - Chang, C.-C., Li, Y.-C. and Huang, W.-H. (2007). TFRP: an efficient microaggregation
//!   algorithm for statistical disclosure control. Journal of Systems and Software 80(11),
//!   1866-1878.

use super::moves::dissolve::{nearest_group, Dissolve};
use super::moves::split::grow_from;
use super::moves::MoveLog;
use super::{Ctx, Refiner, SearchState, Step};
use crate::data::Instance;
use crate::error::Result;
use crate::method::{MethodInfo, Stats};
use crate::params::NoParams;
use crate::partition::{group_stats, sq_dist, Partition};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Decompose,
    Shrink,
}

/// Decompose/Shrink passes as a resumable state machine (one group per step).
pub(crate) struct DecomposeShrink {
    name: &'static str,
    /// false: a single Decompose pass (TFRP2).
    repeat: bool,
    phase: Phase,
    cursor: usize,
    /// Slots that existed when the pass started.
    pass_slots: usize,
    pass_start_sse: f64,
    round_improved: bool,
    dissolve: Dissolve,
    log: MoveLog,
    /// Decompose passes and Shrink passes done.
    pub passes: (u64, u64),
}

impl DecomposeShrink {
    pub fn new(name: &'static str, repeat: bool) -> Self {
        DecomposeShrink {
            name,
            repeat,
            phase: Phase::Decompose,
            cursor: 0,
            pass_slots: 0,
            pass_start_sse: 0.0,
            round_improved: false,
            dissolve: Dissolve::default(),
            log: MoveLog::new(),
            passes: (0, 0),
        }
    }

    fn start_pass(&mut self, p: &Partition, phase: Phase) {
        self.phase = phase;
        self.cursor = 0;
        self.pass_slots = p.slots();
        self.pass_start_sse = p.sse();
    }

    fn decompose_group(&mut self, p: &mut Partition, inst: &Instance, g: usize) {
        // None for an empty group or when no other group exists.
        if let Some(plan) = self.dissolve.evaluate(p, inst, g, None) {
            if plan.delta < 0.0 {
                self.dissolve.apply(p, inst, &plan, &mut self.log);
                self.log.clear();
            }
        }
    }
}

/// Fig. 4 for one group: move out the record whose move lowers the SSE most, while it does
/// and the group has more than k records.
pub(crate) fn shrink_group(p: &mut Partition, inst: &Instance, k: usize, g: usize) {
    while p.size(g) > k {
        let mut best: Option<(f64, usize, usize)> = None;
        for &i in p.members(g) {
            for h in 0..p.slots() {
                if h == g || p.size(h) == 0 {
                    continue;
                }
                let delta = p.shift_delta(inst, i, h);
                if best.is_none_or(|b| delta < b.0) {
                    best = Some((delta, i, h));
                }
            }
        }
        match best {
            Some((delta, i, h)) if delta < 0.0 => p.apply_shift(inst, i, h),
            _ => break,
        }
    }
}

/// Fig. 3: split every group of 2k or more records (see the module doc for the reading).
pub(crate) fn split_large_groups(p: &mut Partition, inst: &Instance, k: usize) {
    let slots = p.slots();
    for g in 0..slots {
        if p.size(g) < 2 * k {
            continue;
        }
        let mut rest = p.members(g).to_vec();
        rest.sort_unstable();
        while rest.len() >= k {
            let (c, _) = group_stats(inst, &rest);
            let mut far = (f64::NEG_INFINITY, usize::MAX, 0);
            for (pos, &i) in rest.iter().enumerate() {
                let dist = sq_dist(inst.row(i), &c);
                if dist > far.0 || (dist == far.0 && i < far.1) {
                    far = (dist, i, pos);
                }
            }
            let group = grow_from(inst, &mut rest, far.2, k);
            let slot = p.add_group();
            for i in group {
                p.apply_shift(inst, i, slot);
            }
            rest.sort_unstable();
        }
        for i in rest {
            if let Some(h) = nearest_group(p, inst.row(i), g) {
                p.apply_shift(inst, i, h);
            }
        }
    }
}

impl Refiner for DecomposeShrink {
    fn name(&self) -> &str {
        self.name
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        s.set("decompose_passes", self.passes.0);
        s.set("shrink_passes", self.passes.1);
        super::moves::add_counters(&mut s, &self.dissolve);
        s
    }

    fn init(&mut self, state: &mut SearchState, _ctx: &mut Ctx) -> Result<()> {
        self.start_pass(&state.current, Phase::Decompose);
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        let (inst, k) = (ctx.inst, ctx.k);
        let p = &mut state.current;
        if self.cursor < self.pass_slots {
            let g = self.cursor;
            self.cursor += 1;
            match self.phase {
                Phase::Decompose => self.decompose_group(p, inst, g),
                Phase::Shrink => shrink_group(p, inst, k, g),
            }
            return Ok(Step::Continue);
        }
        // End of a pass.
        split_large_groups(p, inst, k);
        p.compact(inst);
        let improved = p.sse() < self.pass_start_sse * (1.0 - 1e-12);
        state.record_if_better(k);
        match self.phase {
            Phase::Decompose => {
                self.passes.0 += 1;
                if !self.repeat {
                    return Ok(Step::Converged);
                }
                self.round_improved = improved;
                self.start_pass(&state.current, Phase::Shrink);
            }
            Phase::Shrink => {
                self.passes.1 += 1;
                if !(self.round_improved || improved) {
                    return Ok(Step::Converged);
                }
                self.start_pass(&state.current, Phase::Decompose);
            }
        }
        Ok(Step::Continue)
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "decompose-shrink",
        "iterative group decomposition: Decompose and Shrink passes (with CBFS splitting) until neither improves",
        "Khomnotai, Lin, Peng & Santra (2018), Symmetry 10(7) 262",
        |_: NoParams| DecomposeShrink::new("decompose-shrink", true),
    )
    .deterministic()
}
