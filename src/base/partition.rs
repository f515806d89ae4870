//! # Partition with incremental group statistics
//!
//! Labels plus, per group, the member list, the size, the centroid and the SSE. Shift (one
//! record to another group) and swap (two records between groups) are evaluated and applied
//! in O(d) from the centroids, by the identities of `proofs/P01-sse-identities.md` and
//! `proofs/P02-move-deltas.md`:
//!
//! - adding x to a group of size b and centroid m raises its SSE by b/(b+1) ||x - m||^2;
//! - removing x from a group of size a >= 2 lowers it by a/(a-1) ||x - m||^2;
//! - replacing x by y in a group of size a changes it by ||y-m||^2 - ||x-m||^2 - ||y-x||^2/a.
//!
//! Centroids (not raw coordinate sums) are stored and updated Welford-style, so no
//! difference of large sums appears; a full two-pass recomputation runs automatically after
//! every `refresh_interval` applied moves (default max(n, 4096), amortised O(d) per move), and
//! [`Partition::recompute`] forces one.
//!
//! On an instance with missing cells ([`Instance::has_missing`]) the statistics are the
//! masked ones (`crate::missing::group_stats`: observed means, SSE over observed cells):
//! built from scratch at construction and [`Partition::recompute`], and for the two groups
//! of every applied shift or swap (O((|A| + |B|) d), `masked_moves.rs`), whose members keep
//! their order. The O(d) deltas here are not the masked ones: the masked descent prices its
//! moves by `crate::objective::masked::MaskedSums` (P42), and only the refiners declared to
//! run there do (`crate::method::MethodInfo::runs_on_missing_cells`).
//!
//! Group ids are slots: a group emptied by moves keeps its slot (size 0) until
//! [`Partition::compact`] renumbers the non-empty groups in order of their lowest record.
//!
//! ## Complexity
//! Construction and recomputation O(n d); delta and apply O(d); member lookup O(1).

mod masked_moves;

use crate::data::Instance;
use crate::error::{Error, Result};

/// A partition of the records of one instance, with cached per-group statistics.
#[derive(Debug, Clone)]
pub struct Partition {
    d: usize,
    labels: Vec<usize>,
    /// Position of each record in its group's member list (O(1) removal).
    position: Vec<usize>,
    members: Vec<Vec<usize>>,
    /// Centroids, row-major by group slot.
    centroid: Vec<f64>,
    group_sse: Vec<f64>,
    total_sse: f64,
    moves_since_refresh: usize,
    refresh_interval: usize,
    /// The instance has missing cells: moves recompute masked statistics (`masked_moves.rs`).
    masked: bool,
}

/// The number of group slots `labels` name (the largest label plus one; 0 when empty), or
/// an error when there is not exactly one label per record of `inst`.
pub(crate) fn label_slots(inst: &Instance, labels: &[usize]) -> Result<usize> {
    if labels.len() != inst.n {
        return Err(Error::Infeasible(format!(
            "{} labels for {} records",
            labels.len(),
            inst.n
        )));
    }
    Ok(labels.iter().copied().max().map_or(0, |m| m + 1))
}

impl Partition {
    /// Build from one label per record; labels are group slots 0..g (gaps become empty slots).
    pub fn from_labels(inst: &Instance, labels: Vec<usize>) -> Result<Self> {
        let g = label_slots(inst, &labels)?;
        let mut members = vec![Vec::new(); g];
        let mut position = vec![0; inst.n];
        for (i, &l) in labels.iter().enumerate() {
            position[i] = members[l].len();
            members[l].push(i);
        }
        let mut p = Partition {
            d: inst.d,
            labels,
            position,
            members,
            centroid: vec![0.0; g * inst.d],
            group_sse: vec![0.0; g],
            total_sse: 0.0,
            moves_since_refresh: 0,
            refresh_interval: inst.n.max(4096),
            masked: inst.has_missing(),
        };
        p.recompute(inst);
        Ok(p)
    }

    /// Build from explicit groups of record indices; every record must appear exactly once.
    pub fn from_groups(inst: &Instance, groups: &[Vec<usize>]) -> Result<Self> {
        const UNSET: usize = usize::MAX;
        let mut labels = vec![UNSET; inst.n];
        for (g, members) in groups.iter().enumerate() {
            for &i in members {
                if i >= inst.n {
                    return Err(Error::Infeasible(format!(
                        "record {i} does not exist (n = {})",
                        inst.n
                    )));
                }
                if labels[i] != UNSET {
                    return Err(Error::Infeasible(format!(
                        "record {i} is in groups {} and {g}",
                        labels[i]
                    )));
                }
                labels[i] = g;
            }
        }
        if let Some(i) = labels.iter().position(|&l| l == UNSET) {
            return Err(Error::Infeasible(format!("record {i} is in no group")));
        }
        Self::from_labels(inst, labels)
    }

    /// Group slot of every record.
    pub fn labels(&self) -> &[usize] {
        &self.labels
    }

    #[inline]
    pub fn group_of(&self, i: usize) -> usize {
        self.labels[i]
    }

    /// Number of group slots (including emptied ones).
    pub fn slots(&self) -> usize {
        self.members.len()
    }

    /// Number of non-empty groups.
    pub fn num_groups(&self) -> usize {
        self.members.iter().filter(|m| !m.is_empty()).count()
    }

    #[inline]
    pub fn size(&self, g: usize) -> usize {
        self.members[g].len()
    }

    /// Members of group `g`, in no particular order.
    #[inline]
    pub fn members(&self, g: usize) -> &[usize] {
        &self.members[g]
    }

    #[inline]
    pub fn centroid(&self, g: usize) -> &[f64] {
        &self.centroid[g * self.d..(g + 1) * self.d]
    }

    #[inline]
    pub fn group_sse(&self, g: usize) -> f64 {
        self.group_sse[g]
    }

    /// Cached total SSE.
    #[inline]
    pub fn sse(&self) -> f64 {
        self.total_sse
    }

    /// Smallest and largest size over the non-empty groups.
    pub fn size_range(&self) -> (usize, usize) {
        let sizes = self.members.iter().map(Vec::len).filter(|&s| s > 0);
        let min = sizes.clone().min().unwrap_or(0);
        (min, sizes.max().unwrap_or(0))
    }

    /// Every non-empty group holds at least k records.
    pub fn is_feasible(&self, k: usize) -> bool {
        self.members.iter().all(|m| m.is_empty() || m.len() >= k)
    }

    /// Add an empty group slot and return its id.
    pub fn add_group(&mut self) -> usize {
        self.members.push(Vec::new());
        self.centroid.extend(std::iter::repeat_n(0.0, self.d));
        self.group_sse.push(0.0);
        self.members.len() - 1
    }

    /// Change in SSE if record `i` moved to group `to` (which may be empty). O(d).
    pub fn shift_delta(&self, inst: &Instance, i: usize, to: usize) -> f64 {
        let from = self.labels[i];
        if from == to {
            return 0.0;
        }
        let x = inst.row(i);
        let a = self.size(from) as f64;
        let b = self.size(to) as f64;
        let removal = if a > 1.0 {
            a / (a - 1.0) * sq_dist(x, self.centroid(from))
        } else {
            0.0
        };
        let addition = if b > 0.0 {
            b / (b + 1.0) * sq_dist(x, self.centroid(to))
        } else {
            0.0
        };
        addition - removal
    }

    /// Move record `i` to group `to`. O(d); with missing cells O((|A| + |B|) d).
    pub fn apply_shift(&mut self, inst: &Instance, i: usize, to: usize) {
        let from = self.labels[i];
        if from == to {
            return;
        }
        if self.masked {
            return self.apply_masked_shift(inst, i, to);
        }
        let delta = self.shift_delta(inst, i, to);
        let x = inst.row(i);
        let d = self.d;
        // Remove from `from`.
        let a = self.size(from);
        {
            let c = &mut self.centroid[from * d..(from + 1) * d];
            if a > 1 {
                let r = a as f64 / (a - 1) as f64;
                self.group_sse[from] = (self.group_sse[from] - r * sq_dist(x, c)).max(0.0);
                let inv = 1.0 / (a - 1) as f64;
                c.iter_mut().zip(x).for_each(|(m, v)| *m += (*m - v) * inv);
            } else {
                self.group_sse[from] = 0.0;
                c.iter_mut().for_each(|m| *m = 0.0);
            }
        }
        self.remove_member(i);
        // Add to `to`.
        let b = self.size(to);
        {
            let c = &mut self.centroid[to * d..(to + 1) * d];
            if b > 0 {
                let r = b as f64 / (b + 1) as f64;
                self.group_sse[to] += r * sq_dist(x, c);
                let inv = 1.0 / (b + 1) as f64;
                c.iter_mut().zip(x).for_each(|(m, v)| *m += (v - *m) * inv);
            } else {
                self.group_sse[to] = 0.0;
                c.copy_from_slice(x);
            }
        }
        self.labels[i] = to;
        self.position[i] = self.members[to].len();
        self.members[to].push(i);
        self.total_sse += delta;
        self.count_move(inst);
    }

    /// Change in SSE if records `i` and `j` exchanged groups. O(d).
    pub fn swap_delta(&self, inst: &Instance, i: usize, j: usize) -> f64 {
        let (ga, gb) = (self.labels[i], self.labels[j]);
        if ga == gb {
            return 0.0;
        }
        let (x, y) = (inst.row(i), inst.row(j));
        let xy = sq_dist(x, y);
        let (ma, mb) = (self.centroid(ga), self.centroid(gb));
        let (a, b) = (self.size(ga) as f64, self.size(gb) as f64);
        let delta_a = sq_dist(y, ma) - sq_dist(x, ma) - xy / a;
        let delta_b = sq_dist(x, mb) - sq_dist(y, mb) - xy / b;
        delta_a + delta_b
    }

    /// Exchange the groups of records `i` and `j`. O(d); with missing cells O((|A| + |B|) d).
    pub fn apply_swap(&mut self, inst: &Instance, i: usize, j: usize) {
        let (ga, gb) = (self.labels[i], self.labels[j]);
        if ga == gb {
            return;
        }
        if self.masked {
            return self.apply_masked_swap(inst, i, j);
        }
        let (x, y) = (inst.row(i), inst.row(j));
        let xy = sq_dist(x, y);
        let d = self.d;
        for (g, out, inn) in [(ga, x, y), (gb, y, x)] {
            let s = self.members[g].len() as f64;
            let c = &mut self.centroid[g * d..(g + 1) * d];
            let delta = sq_dist(inn, c) - sq_dist(out, c) - xy / s;
            self.group_sse[g] = (self.group_sse[g] + delta).max(0.0);
            self.total_sse += delta;
            let inv = 1.0 / s;
            for ((m, o), n) in c.iter_mut().zip(out).zip(inn) {
                *m += (n - o) * inv;
            }
        }
        self.exchange(i, j);
        self.count_move(inst);
    }

    /// Records `i` and `j` (in different groups) take each other's place in the member
    /// lists and labels.
    #[inline]
    fn exchange(&mut self, i: usize, j: usize) {
        let (ga, gb) = (self.labels[i], self.labels[j]);
        let (pi, pj) = (self.position[i], self.position[j]);
        self.members[ga][pi] = j;
        self.members[gb][pj] = i;
        self.position.swap(i, j);
        self.labels[i] = gb;
        self.labels[j] = ga;
    }

    /// Recompute every group's centroid and SSE by two passes; returns the largest absolute
    /// change of the cached total SSE (a measure of accumulated drift).
    pub fn recompute(&mut self, inst: &Instance) -> f64 {
        let d = self.d;
        let before = self.total_sse;
        let mut total = 0.0;
        for g in 0..self.members.len() {
            let (c, sse) = stats_from_scratch(inst, &self.members[g]);
            self.centroid[g * d..(g + 1) * d].copy_from_slice(&c);
            self.group_sse[g] = sse;
            total += sse;
        }
        self.total_sse = total;
        self.moves_since_refresh = 0;
        (before - total).abs()
    }

    /// Weighted SSE (sampling weights `w`, one per record) computed from scratch, two passes
    /// per group about the weighted centroid, groups in slot order: with unit weights the
    /// same operations in the same order as [`Partition::recompute`], so the same bits
    /// (`docs/weights.md`). The cached statistics stay unweighted.
    pub fn weighted_sse(&self, inst: &Instance, w: &[f64]) -> f64 {
        let mut total = 0.0;
        for m in &self.members {
            total += crate::weighted::weighted_group_stats(&inst.z, inst.d, w, m).1;
        }
        total
    }

    /// SSE computed from scratch (two passes per group), without touching the cache.
    pub fn fresh_sse(&self, inst: &Instance) -> f64 {
        self.members
            .iter()
            .map(|m| stats_from_scratch(inst, m).1)
            .sum()
    }

    /// Consistency of labels, member lists and positions, and cached SSE against a fresh
    /// computation, within `rel_tol` relative to max(SSE, SST / n) (the floor keeps a zero
    /// SSE from demanding an exact zero of rounding noise). For tests and debug checks.
    pub fn validate(&self, inst: &Instance, rel_tol: f64) -> Result<(), String> {
        let mut count = 0;
        for (g, m) in self.members.iter().enumerate() {
            for (p, &i) in m.iter().enumerate() {
                if self.labels[i] != g || self.position[i] != p {
                    return Err(format!(
                        "record {i}: label/position disagree with group {g}"
                    ));
                }
            }
            count += m.len();
        }
        if count != self.labels.len() {
            return Err(format!("{count} members for {} records", self.labels.len()));
        }
        let fresh = self.fresh_sse(inst);
        let scale = fresh
            .abs()
            .max(inst.sst / inst.n as f64)
            .max(f64::MIN_POSITIVE);
        if (fresh - self.total_sse).abs() > rel_tol * scale {
            return Err(format!(
                "cached SSE {} differs from fresh {} (relative {:.3e})",
                self.total_sse,
                fresh,
                (fresh - self.total_sse).abs() / scale
            ));
        }
        Ok(())
    }

    /// Renumber the non-empty groups 0..g in order of their lowest record index, so equal
    /// partitions get equal labels.
    pub fn compact(&mut self, inst: &Instance) {
        let mut new_id = vec![usize::MAX; self.members.len()];
        let mut next = 0;
        for i in 0..self.labels.len() {
            let g = self.labels[i];
            if new_id[g] == usize::MAX {
                new_id[g] = next;
                next += 1;
            }
        }
        // Relabel in place and free the old lists before the new ones are built: the
        // partition is held once, not twice, at the peak (about 50 bytes a record plus
        // 8 d a group: 40 MB at n = 10^6, d = 10, k = 5).
        let mut labels = std::mem::take(&mut self.labels);
        labels.iter_mut().for_each(|g| *g = new_id[*g]);
        drop(new_id);
        self.members = Vec::new();
        self.position = Vec::new();
        self.centroid = Vec::new();
        self.group_sse = Vec::new();
        let interval = self.refresh_interval;
        *self = Partition::from_labels(inst, labels).expect("relabelled partition is valid");
        self.refresh_interval = interval;
    }

    /// Canonical labels (see [`Partition::compact`]) without changing self.
    pub fn canonical_labels(&self) -> Vec<usize> {
        let mut new_id = vec![usize::MAX; self.members.len()];
        let mut next = 0;
        self.labels
            .iter()
            .map(|&g| {
                if new_id[g] == usize::MAX {
                    new_id[g] = next;
                    next += 1;
                }
                new_id[g]
            })
            .collect()
    }

    /// Set how many applied moves trigger an automatic full recomputation.
    pub fn set_refresh_interval(&mut self, moves: usize) {
        self.refresh_interval = moves.max(1);
    }

    fn remove_member(&mut self, i: usize) {
        let g = self.labels[i];
        let p = self.position[i];
        let last = self.members[g]
            .pop()
            .expect("record is a member of its group");
        if last != i {
            self.members[g][p] = last;
            self.position[last] = p;
        }
    }

    fn count_move(&mut self, inst: &Instance) {
        self.moves_since_refresh += 1;
        if self.moves_since_refresh >= self.refresh_interval {
            self.recompute(inst);
        }
    }
}

/// Squared Euclidean distance.
#[inline]
pub fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Centroid and SSE of a set of records, two-pass.
/// A group's centroid and SSE by two passes: the masked ones when `inst` has missing cells.
fn stats_from_scratch(inst: &Instance, members: &[usize]) -> (Vec<f64>, f64) {
    if inst.has_missing() {
        crate::missing::group_stats(inst, members)
    } else {
        group_stats(inst, members)
    }
}

pub(crate) fn group_stats(inst: &Instance, members: &[usize]) -> (Vec<f64>, f64) {
    let d = inst.d;
    let mut c = vec![0.0; d];
    if members.is_empty() {
        return (c, 0.0);
    }
    for &i in members {
        c.iter_mut().zip(inst.row(i)).for_each(|(m, v)| *m += v);
    }
    let inv = 1.0 / members.len() as f64;
    c.iter_mut().for_each(|m| *m *= inv);
    let sse = members.iter().map(|&i| sq_dist(inst.row(i), &c)).sum();
    (c, sse)
}
