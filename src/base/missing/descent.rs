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
//! by the masked distance ([`crate::geometry::pool::nan_sq_dist`], ties to the lowest id), by
//! a scan. The queue starts in record order (no random order: the stage is deterministic
//! without a seed); when it is empty every record is queued again until a sweep applies no
//! move, so the result is a local optimum of the granular neighbourhood (the unmasked
//! descent sweeps only with cycles). `cycles = true` is refused (no masked 3-cycle delta).
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
use std::sync::atomic::{AtomicBool, Ordering};

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

/// The `m` nearest other records of each record by the masked distance (ties: lowest id).
pub(crate) fn masked_neighbours(
    inst: &Instance,
    m: usize,
    stop: &AtomicBool,
) -> Result<Vec<Vec<usize>>> {
    let marked = super::engine::nan_marked(inst);
    let mut lists = Vec::with_capacity(inst.n);
    for i in 0..inst.n {
        if i.is_multiple_of(256) && stop.load(Ordering::SeqCst) {
            return Err(Error::Interrupted(
                "descent (missing values): stopped while building neighbour lists".into(),
            ));
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
    Ok(lists)
}

/// What a masked descent did.
#[derive(Debug, Clone, Copy, Default)]
pub struct DescentCounts {
    pub shifts: u64,
    pub swaps: u64,
    pub evaluations: u64,
}

/// Run the descent from `labels` to a local optimum of the granular shift/swap
/// neighbourhood (or until `stop` is set: the best so far, which is the current one since
/// every applied move improves). Returns the labels and the counts.
pub fn descend(
    inst: &Instance,
    k: usize,
    labels: Vec<usize>,
    params: &DescentParams,
    stop: &AtomicBool,
) -> Result<(Vec<usize>, DescentCounts)> {
    if params.cycles {
        return Err(Error::usage(
            "descent cycles=true: the 3-cycle has no masked delta; leave out cycles with --missing ignore",
        ));
    }
    let nb = masked_neighbours(inst, params.neighbours_for(inst.n), stop)?;
    let mut groups = MaskedGroups::new(inst, labels);
    let eps = IMPROVE_EPS * inst.sst / inst.n as f64;
    let best = params.strategy == Strategy::Best;
    let mut queue: VecDeque<usize> = (0..inst.n).collect();
    let mut queued = vec![true; inst.n];
    let mut counts = DescentCounts::default();
    let mut seen = Vec::new();
    let mut examined = 0u64;
    let mut moved_since_sweep = false;
    loop {
        let Some(i) = queue.pop_front() else {
            // A record is queued again only when its own group changes, but its moves also
            // depend on the groups it could join: sweep every record until a sweep moves
            // nothing, so the result is a local optimum of the neighbourhood.
            if !moved_since_sweep {
                break;
            }
            moved_since_sweep = false;
            queue.extend(0..inst.n);
            queued.iter_mut().for_each(|q| *q = true);
            continue;
        };
        queued[i] = false;
        examined += 1;
        if examined.is_multiple_of(256) && stop.load(Ordering::SeqCst) {
            break;
        }
        let g = groups.labels[i];
        seen.clear();
        for &j in &nb[i] {
            let h = groups.labels[j];
            if h != g && !seen.contains(&h) {
                seen.push(h);
            }
        }
        // (delta, partner: None = shift, target group)
        let mut chosen: Option<(f64, Option<usize>, usize)> = None;
        'groups: for &h in &seen {
            if groups.size(g) > k {
                counts.evaluations += 1;
                let delta = groups.shift_delta(inst, i, h);
                if delta < -eps && chosen.is_none_or(|c| delta < c.0) {
                    chosen = Some((delta, None, h));
                    if !best {
                        break 'groups;
                    }
                }
            }
            for &j in groups.members(h) {
                counts.evaluations += 1;
                let delta = groups.swap_delta(inst, i, j);
                if delta < -eps && chosen.is_none_or(|c| delta < c.0) {
                    chosen = Some((delta, Some(j), h));
                    if !best {
                        break 'groups;
                    }
                }
            }
        }
        let Some((_, partner, h)) = chosen else {
            continue;
        };
        moved_since_sweep = true;
        match partner {
            None => {
                groups.apply_shift(inst, i, h);
                counts.shifts += 1;
            }
            Some(j) => {
                groups.apply_swap(inst, i, j);
                counts.swaps += 1;
            }
        }
        for t in [g, h] {
            for &r in groups.members(t) {
                if !queued[r] {
                    queued[r] = true;
                    queue.push_back(r);
                }
            }
        }
    }
    Ok((groups.labels, counts))
}
