//! # Descent over shift and swap on data with missing cells
//!
//! The `descent` refiner's neighbourhood (shift a record to a group of one of its nearest
//! neighbours when its own group keeps k records, or swap it with a member of such a group;
//! first or best improvement; a queue of records whose groups changed) on the masked SSE:
//! per group g and column j the squared deviations of the observed cells from their mean.
//! [`MaskedGroups`] keeps per group and column the observed count c_gj and mean m_gj, and
//! prices a move over the observed cells only (`proofs/P42-masked-deltas.md`):
//!
//! - shift of x from A to B: sum over the columns x observes of
//!   [c_B > 0] c_B / (c_B + 1) (x_j - m_Bj)^2 - [c_A > 1] c_A / (c_A - 1) (x_j - m_Aj)^2;
//! - swap of x in A with y in B, per column: both observed: (y - m_A)^2 - (x - m_A)^2 -
//!   (x - y)^2 / c_A plus the same for B; only one observed: that record's shift term; none:
//!   0.
//!
//! An applied move recomputes the two groups' counts, means and SSE by two passes (groups
//! hold k..2k-1 records, so O(k d)), so nothing drifts. Neighbours are the m nearest records
//! by the masked distance (`crate::geometry::pool::nan_sq_dist`, ties to the lowest id), by
//! a scan. The queue starts in record order (no random order: the stage is deterministic
//! without a seed); when it is empty every record is queued again until a sweep applies no
//! move, so the result is a local optimum of the granular neighbourhood (the unmasked
//! descent sweeps only with cycles). `cycles = true` is refused (no masked 3-cycle delta).
//! The `descent` refiner ([`crate::search::descent::Descent`]) runs [`MaskedDescent`] 256
//! records a step under the executor; chunking does not change the order of the moves, so
//! a run that is not stopped ends at the same labels whatever the steps.
//!
//! ## Complexity
//! Neighbour lists O(n^2 d) (a scan; no kd-tree, whose bounds need the triangle
//! inequality). Per record examined O(G_nb s d) for G_nb neighbour groups of size s, as the
//! unmasked descent; an applied move O(k d).
//!
//! ## References
//! Laszlo & Mukherjee (2015), J. Systems and Software 100 (the shift/swap descent);
//! Gower (1971), Biometrics 27(4) (distances over observed variables).

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::pool::nan_sq_dist;
use crate::search::descent::{DescentParams, Strategy, IMPROVE_EPS};
use std::collections::VecDeque;

/// Per-group, per-column observed counts and means of a labelling, with the masked SSE.
#[derive(Debug, Clone)]
pub struct MaskedGroups {
    d: usize,
    labels: Vec<usize>,
    members: Vec<Vec<usize>>,
    count: Vec<usize>,
    mean: Vec<f64>,
    sse: Vec<f64>,
}

impl MaskedGroups {
    /// The statistics of `labels` (0..g, every label used).
    pub fn new(inst: &Instance, labels: Vec<usize>) -> Self {
        let d = inst.d;
        let members = super::groups_of(&labels);
        let g = members.len();
        let mut s = MaskedGroups {
            d,
            labels,
            members,
            count: vec![0; g * d],
            mean: vec![0.0; g * d],
            sse: vec![0.0; g],
        };
        for h in 0..g {
            s.refresh(inst, h);
        }
        s
    }

    /// Recompute group `g`'s counts, means and SSE (two passes per column).
    fn refresh(&mut self, inst: &Instance, g: usize) {
        let d = self.d;
        let mut total = 0.0;
        for j in 0..d {
            let (mut sum, mut c) = (0.0, 0usize);
            for &i in &self.members[g] {
                if !inst.is_missing(i, j) {
                    sum += inst.z[i * d + j];
                    c += 1;
                }
            }
            let m = if c > 0 { sum / c as f64 } else { 0.0 };
            for &i in &self.members[g] {
                if !inst.is_missing(i, j) {
                    total += (inst.z[i * d + j] - m).powi(2);
                }
            }
            self.count[g * d + j] = c;
            self.mean[g * d + j] = m;
        }
        self.sse[g] = total;
    }

    pub fn labels(&self) -> &[usize] {
        &self.labels
    }

    pub fn size(&self, g: usize) -> usize {
        self.members[g].len()
    }

    pub fn members(&self, g: usize) -> &[usize] {
        &self.members[g]
    }

    /// The masked SSE (sum of the groups' cached SSE).
    pub fn sse(&self) -> f64 {
        self.sse.iter().sum()
    }

    /// Change of the masked SSE if record `i` moved to group `to`. O(d).
    pub fn shift_delta(&self, inst: &Instance, i: usize, to: usize) -> f64 {
        let from = self.labels[i];
        if from == to {
            return 0.0;
        }
        let d = self.d;
        let mut delta = 0.0;
        for j in (0..d).filter(|&j| !inst.is_missing(i, j)) {
            let v = inst.z[i * d + j];
            delta += self.join_term(to, j, v) - self.leave_term(from, j, v);
        }
        delta
    }

    /// SSE added to group g's column j when a value v joins it.
    fn join_term(&self, g: usize, j: usize, v: f64) -> f64 {
        let c = self.count[g * self.d + j] as f64;
        if c > 0.0 {
            c / (c + 1.0) * (v - self.mean[g * self.d + j]).powi(2)
        } else {
            0.0
        }
    }

    /// SSE removed from group g's column j when its value v leaves it.
    fn leave_term(&self, g: usize, j: usize, v: f64) -> f64 {
        let c = self.count[g * self.d + j] as f64;
        if c > 1.0 {
            c / (c - 1.0) * (v - self.mean[g * self.d + j]).powi(2)
        } else {
            0.0
        }
    }

    /// Change of the masked SSE if records `i` and `j` exchanged groups. O(d).
    pub fn swap_delta(&self, inst: &Instance, i: usize, j: usize) -> f64 {
        let (a, b) = (self.labels[i], self.labels[j]);
        if a == b {
            return 0.0;
        }
        let d = self.d;
        let mut delta = 0.0;
        for t in 0..d {
            let (xo, yo) = (!inst.is_missing(i, t), !inst.is_missing(j, t));
            let (x, y) = (inst.z[i * d + t], inst.z[j * d + t]);
            delta += match (xo, yo) {
                (true, true) => {
                    let (ma, mb) = (self.mean[a * d + t], self.mean[b * d + t]);
                    let (ca, cb) = (self.count[a * d + t] as f64, self.count[b * d + t] as f64);
                    let xy = (x - y).powi(2);
                    (y - ma).powi(2) - (x - ma).powi(2) - xy / ca + (x - mb).powi(2)
                        - (y - mb).powi(2)
                        - xy / cb
                }
                (true, false) => self.join_term(b, t, x) - self.leave_term(a, t, x),
                (false, true) => self.join_term(a, t, y) - self.leave_term(b, t, y),
                (false, false) => 0.0,
            };
        }
        delta
    }

    /// Move record `i` to group `to` and recompute both groups.
    pub fn apply_shift(&mut self, inst: &Instance, i: usize, to: usize) {
        let from = self.labels[i];
        self.members[from].retain(|&r| r != i);
        self.members[to].push(i);
        self.labels[i] = to;
        self.refresh(inst, from);
        self.refresh(inst, to);
    }

    /// Exchange the groups of records `i` and `j` and recompute both groups.
    pub fn apply_swap(&mut self, inst: &Instance, i: usize, j: usize) {
        let (a, b) = (self.labels[i], self.labels[j]);
        for r in self.members[a].iter_mut().filter(|r| **r == i) {
            *r = j;
        }
        for r in self.members[b].iter_mut().filter(|r| **r == j) {
            *r = i;
        }
        self.labels[i] = b;
        self.labels[j] = a;
        self.refresh(inst, a);
        self.refresh(inst, b);
    }
}

/// The `m` nearest other records of each record by the masked distance (ties: lowest id);
/// None when `stop` says so first (checked every 256 records).
pub(crate) fn masked_neighbours(
    inst: &Instance,
    m: usize,
    stop: impl Fn() -> bool,
) -> Option<Vec<Vec<usize>>> {
    let marked = super::engine::nan_marked(inst);
    let mut lists = Vec::with_capacity(inst.n);
    for i in 0..inst.n {
        if i.is_multiple_of(256) && stop() {
            return None;
        }
        let mut by: Vec<(f64, usize)> = (0..inst.n)
            .filter(|&j| j != i)
            .map(|j| (nan_sq_dist(marked.row(i), marked.row(j)), j))
            .collect();
        let m = m.min(by.len());
        if m > 0 && m < by.len() {
            by.select_nth_unstable_by(m - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        by.truncate(m);
        by.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // A fresh m-element list (collecting from `by` in place would keep its n-element buffer).
        lists.push(by.iter().map(|e| e.1).collect());
    }
    Some(lists)
}

/// What a masked descent did.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct DescentCounts {
    pub shifts: u64,
    pub swaps: u64,
    pub shift_evaluations: u64,
    pub swap_evaluations: u64,
}

impl DescentCounts {
    /// Into a refiner's counters, as the unmasked descent's operators report them.
    pub(crate) fn add_to(&self, stats: &mut crate::method::Stats) {
        stats.operator("shift", self.shift_evaluations, self.shifts);
        stats.operator("swap", self.swap_evaluations, self.swaps);
    }
}

/// The masked descent in progress: the neighbour lists, the group statistics and the queue
/// of records to examine. [`crate::search::descent::Descent`] runs it, a few hundred records
/// a step, when the instance has missing cells, so the executor's time limit, step budget
/// and observers apply as to every refiner.
pub(crate) struct MaskedDescent {
    nb: Vec<Vec<usize>>,
    groups: MaskedGroups,
    k: usize,
    eps: f64,
    best: bool,
    queue: VecDeque<usize>,
    queued: Vec<bool>,
    moved_since_sweep: bool,
    seen: Vec<usize>,
    counts: DescentCounts,
}

impl MaskedDescent {
    /// The descent from `labels` (0..g, every label used); the neighbour lists are built
    /// here, O(n^2 d): None when `stop` says so meanwhile (the stage keeps its input).
    pub(crate) fn new(
        inst: &Instance,
        k: usize,
        labels: Vec<usize>,
        params: &DescentParams,
        stop: impl Fn() -> bool,
    ) -> Result<Option<Self>> {
        if params.cycles {
            return Err(Error::usage(
                "descent cycles=true: the 3-cycle has no masked delta; leave out cycles with --missing ignore",
            ));
        }
        let Some(nb) = masked_neighbours(inst, params.neighbours_for(inst.n), stop) else {
            return Ok(None);
        };
        Ok(Some(MaskedDescent {
            nb,
            groups: MaskedGroups::new(inst, labels),
            k,
            eps: IMPROVE_EPS * inst.sst / inst.n as f64,
            best: params.strategy == Strategy::Best,
            queue: (0..inst.n).collect(),
            queued: vec![true; inst.n],
            moved_since_sweep: false,
            seen: Vec::new(),
            counts: DescentCounts::default(),
        }))
    }

    /// The current labels (every applied move lowers the masked SSE: they are the best).
    pub(crate) fn labels(&self) -> &[usize] {
        self.groups.labels()
    }

    pub(crate) fn counts(&self) -> DescentCounts {
        self.counts
    }

    /// Examine up to `records` records in queue order; true once a sweep of every record
    /// applied no move (a local optimum of the granular neighbourhood).
    pub(crate) fn run(&mut self, inst: &Instance, records: usize) -> bool {
        for _ in 0..records {
            let Some(i) = self.next_record() else {
                return true;
            };
            self.examine(inst, i);
        }
        false
    }

    /// The next record to examine; when the queue is empty every record is queued again
    /// (a record is queued again only when its own group changes, but its moves also depend
    /// on the groups it could join), until a sweep moves nothing: then None.
    fn next_record(&mut self) -> Option<usize> {
        if self.queue.is_empty() {
            if !self.moved_since_sweep {
                return None;
            }
            self.moved_since_sweep = false;
            self.queue.extend(0..self.groups.labels.len());
            self.queued.iter_mut().for_each(|q| *q = true);
        }
        let i = self.queue.pop_front()?;
        self.queued[i] = false;
        Some(i)
    }

    /// Apply the first (or best) improving shift or swap of record `i` into a group of one
    /// of its neighbours, and queue the members of the two groups it changed.
    fn examine(&mut self, inst: &Instance, i: usize) {
        let g = self.groups.labels[i];
        self.seen.clear();
        for &j in &self.nb[i] {
            let h = self.groups.labels[j];
            if h != g && !self.seen.contains(&h) {
                self.seen.push(h);
            }
        }
        let Some((partner, h)) = self.choose(inst, i, g) else {
            return;
        };
        self.moved_since_sweep = true;
        match partner {
            None => {
                self.groups.apply_shift(inst, i, h);
                self.counts.shifts += 1;
            }
            Some(j) => {
                self.groups.apply_swap(inst, i, j);
                self.counts.swaps += 1;
            }
        }
        for t in [g, h] {
            for &r in self.groups.members(t) {
                if !self.queued[r] {
                    self.queued[r] = true;
                    self.queue.push_back(r);
                }
            }
        }
    }

    /// The move of record `i` (in group `g`) to apply: (None = shift, or the swap partner;
    /// the target group), the first improving one or the best.
    fn choose(&mut self, inst: &Instance, i: usize, g: usize) -> Option<(Option<usize>, usize)> {
        let groups = &self.groups;
        let mut chosen: Option<(f64, Option<usize>, usize)> = None;
        for &h in &self.seen {
            if groups.size(g) > self.k {
                self.counts.shift_evaluations += 1;
                let delta = groups.shift_delta(inst, i, h);
                if delta < -self.eps && chosen.is_none_or(|c| delta < c.0) {
                    chosen = Some((delta, None, h));
                    if !self.best {
                        break;
                    }
                }
            }
            let mut found = false;
            for &j in groups.members(h) {
                self.counts.swap_evaluations += 1;
                let delta = groups.swap_delta(inst, i, j);
                if delta < -self.eps && chosen.is_none_or(|c| delta < c.0) {
                    chosen = Some((delta, Some(j), h));
                    if !self.best {
                        found = true;
                        break;
                    }
                }
            }
            if found {
                break;
            }
        }
        chosen.map(|(_, partner, h)| (partner, h))
    }
}
