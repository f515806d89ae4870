//! # Dynamic constraint aggregation for the column generation master
//!
//! The helpers of the aggregation phase ([`super::phases::aggregate`], proofs/P24): the
//! [`SuperPoints`] that records are merged into, the weighted [`AggMaster`] over them, and
//! [`Aggregation`], the phase's state (the aggregation, its master, its columns and its
//! dual box) with the rule that turns priced columns into new columns or splits. What the
//! phase measured is returned in [`AggregationReport`].
//!
//! ## Complexity
//! See the submodules; a split rebuilds the master (O(nonzeros)).
//!
//! ## References
//! Sudoso, A. M. and Aloise, D. (2025). A column generation algorithm with dynamic
//! constraint aggregation for minimum sum-of-squares clustering. INFORMS Journal on
//! Computing.

pub mod master;
pub mod super_points;

pub use master::{AggMaster, AggSolution};
pub use super_points::SuperPoints;

use std::collections::HashSet;

/// Split along incompatible columns when the best compatible column's reduced cost is
/// above this fraction of the best incompatible one's (less negative, so the aggregation,
/// not the columns, holds the LP back; Sudoso and Aloise's column ratio).
pub const SPLIT_RATIO: f64 = 0.5;

/// At most this fraction of the super-points (and at least one) is split per round, along
/// the incompatible columns of fewest cuts first.
pub const SPLIT_FRACTION: f64 = 0.02;

/// What the aggregation phase did (`ColgenBound::aggregation`).
#[derive(Debug, Clone, PartialEq)]
pub struct AggregationReport {
    /// Super-points at the start and at the end, and the super-points split.
    pub super_points_start: usize,
    pub super_points: usize,
    pub splits: usize,
    /// Aggregated master solves, their seconds, the last value.
    pub iterations: usize,
    pub lp_seconds: f64,
    pub lp_value: f64,
    /// Exact pricing over the full data found no negative column at the disaggregated
    /// duals with the box not binding: `lp_value` is the full master LP's value (P24).
    pub converged: bool,
    /// Columns of the aggregated master at the end, and the phase's seconds.
    pub columns: usize,
    pub seconds: f64,
    /// Why an aggregated master solve failed (the phase ended there and the full column
    /// generation went on; None when every solve succeeded).
    pub error: Option<String>,
}

/// The aggregation phase's state (module doc).
pub struct Aggregation {
    pub sp: SuperPoints,
    pub master: AggMaster,
    /// Canonical columns in the master.
    pub known: HashSet<Vec<u32>>,
    /// Per-record dual brackets of the box (None: no box) and the factor its half-widths
    /// were widened by.
    pub brackets: Option<Vec<(f64, f64)>>,
    pub widen: f64,
}

impl Aggregation {
    /// The start aggregation of `sp` with the start columns `columns` (each compatible),
    /// boxed by the per-record `brackets` when given.
    pub fn new(
        sp: SuperPoints,
        columns: &[Vec<u32>],
        cost: &dyn Fn(&[u32]) -> f64,
        brackets: Option<Vec<(f64, f64)>>,
    ) -> Result<Self, String> {
        let mut known = HashSet::new();
        let mut cols = Vec::new();
        for g in columns {
            let c = sp.canonical(g);
            if known.insert(c.clone()) {
                cols.push(c);
            }
        }
        let costs: Vec<f64> = cols.iter().map(|g| cost(g)).collect();
        let mut agg = Aggregation {
            master: AggMaster::build(&sp, Vec::new(), Vec::new(), None)?,
            sp,
            known,
            brackets,
            widen: 1.0,
        };
        agg.rebuild(cols, costs)?;
        Ok(agg)
    }

    /// A new master over the current aggregation with `columns` and `costs`.
    fn rebuild(&mut self, columns: Vec<Vec<u32>>, costs: Vec<f64>) -> Result<(), String> {
        let bounds = self.row_box();
        self.master = AggMaster::build(&self.sp, columns, costs, bounds.as_deref())?;
        Ok(())
    }

    /// The box of every row: the mean of its members' brackets, its half-width times
    /// `widen` and at least a millionth of the mean |centre| (so that widening moves it).
    fn row_box(&self) -> Option<Vec<(f64, f64)>> {
        let b = self.brackets.as_ref()?;
        let mid: Vec<(f64, f64)> = (self.sp.members.iter())
            .map(|m| {
                let (lo, hi) = m.iter().fold((0.0, 0.0), |(l, h), &i| {
                    (l + b[i as usize].0, h + b[i as usize].1)
                });
                let w = m.len() as f64;
                ((lo + hi) / (2.0 * w), (hi - lo) / (2.0 * w))
            })
            .collect();
        let scale = mid.iter().map(|(c, _)| c.abs()).sum::<f64>() / mid.len().max(1) as f64;
        let floor = (1e-6 * scale).max(f64::MIN_POSITIVE);
        Some(
            mid.into_iter()
                .map(|(c, h)| {
                    let h = self.widen * h.max(floor);
                    (c - h, c + h)
                })
                .collect(),
        )
    }

    /// Double the box's half-widths and rebuild the master (its columns kept).
    pub fn widen_box(&mut self) -> Result<(), String> {
        self.widen *= 2.0;
        let (cols, costs) = self.columns();
        self.rebuild(cols, costs)
    }

    /// The master's columns and costs.
    fn columns(&self) -> (Vec<Vec<u32>>, Vec<f64>) {
        (self.master.columns.clone(), self.master.costs.clone())
    }

    /// Take the negative columns `found` ((reduced cost, members)) of one pricing round:
    /// the compatible ones join the master (at most `cap`), unless the best of them is above
    /// [`SPLIT_RATIO`] times the best incompatible one; then the aggregation is split along
    /// incompatible columns (fewest cuts first, at most [`SPLIT_FRACTION`] of the
    /// super-points, none cut twice), which join it with the compatible ones. Returns the
    /// columns added and the super-points split.
    pub fn take(
        &mut self,
        found: Vec<(f64, Vec<u32>)>,
        cap: usize,
        cost: &dyn Fn(&[u32]) -> f64,
    ) -> Result<(usize, usize), String> {
        let (mut compatible, mut incompatible): (Vec<_>, Vec<_>) = (found.into_iter())
            .map(|(rc, g)| (rc, self.sp.canonical(&g)))
            .filter(|(_, g)| !self.known.contains(g))
            .partition(|(_, g)| self.sp.compatible(g));
        let by_rc =
            |a: &(f64, Vec<u32>), b: &(f64, Vec<u32>)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        compatible.sort_by(by_rc);
        compatible.dedup_by(|a, b| a.1 == b.1);
        compatible.truncate(cap);
        incompatible.sort_by(by_rc);
        incompatible.dedup_by(|a, b| a.1 == b.1);
        let split = match (compatible.first(), incompatible.first()) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(c), Some(i)) => c.0 > SPLIT_RATIO * i.0,
        };
        if !split {
            let added = compatible.len();
            for (_, g) in compatible {
                self.known.insert(g.clone());
                let c = cost(&g);
                self.master.add(&self.sp, g, c)?;
            }
            return Ok((added, 0));
        }
        let chosen = self.choose_splits(incompatible);
        let mut splits = 0;
        for g in &chosen {
            splits += self.sp.split_along(g);
        }
        let (mut cols, mut costs) = self.columns();
        let added = compatible.len() + chosen.len();
        for g in compatible.into_iter().map(|(_, g)| g).chain(chosen) {
            if self.known.insert(g.clone()) {
                costs.push(cost(&g));
                cols.push(g);
            }
        }
        self.rebuild(cols, costs)?;
        Ok((added, splits))
    }

    /// The incompatible columns to split along (sorted by reduced cost): fewest cut
    /// super-points first, each super-point cut by one of them at most, at most
    /// [`SPLIT_FRACTION`] of the super-points (at least one column).
    fn choose_splits(&self, incompatible: Vec<(f64, Vec<u32>)>) -> Vec<Vec<u32>> {
        let limit = ((SPLIT_FRACTION * self.sp.len() as f64).ceil() as usize).max(1);
        let mut ranked: Vec<(usize, f64, Vec<u32>)> = (incompatible.into_iter())
            .map(|(rc, g)| (self.sp.cut_by(&g).len(), rc, g))
            .collect();
        ranked.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut cut: HashSet<u32> = HashSet::new();
        let mut chosen = Vec::new();
        for (_, _, g) in ranked {
            let parts = self.sp.cut_by(&g);
            if chosen.is_empty()
                || (cut.len() + parts.len() <= limit && parts.iter().all(|p| !cut.contains(p)))
            {
                cut.extend(parts);
                chosen.push(g);
            }
            if cut.len() >= limit {
                break;
            }
        }
        chosen
    }
}
