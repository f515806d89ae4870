//! # Filtered scan: reduced distance passes, exact double-precision answers
//!
//! The scan's queries ([`super::remaining::Scan`]) with the distance pass done on a reduced
//! copy of the records ([`Pass`]): `f32` columns ([`Single`], P16 (h)), 16-bit or 8-bit
//! fixed-point pairs of columns ([`Fixed`], P16 (i), (j)), or both fixed-point copies with
//! 8-bit passes while the pool is large ([`Tiered`], P16 (j)): fewer bytes per record and
//! more records per vector instruction. Every reduced value differs from the scan's `f64`
//! squared distance by a proven amount fixed per query point, so a query keeps as
//! candidates only the records whose value can reach the answer ([`Pass::far_floor`] of the
//! largest value for a farthest query, [`Pass::near_ceil`] of the k-th smallest for a
//! k-nearest query), recomputes their distances with the scan's `f64` operations (in the
//! order of their values, stopping once an exact distance excludes the rest:
//! [`Pass::far_floor_exact`], [`Pass::near_ceil_exact`]) and answers from those, ties by
//! lowest id. A record left out is strictly worse than a candidate, so the answer is the
//! scan's bit for bit. The candidates are the answer plus records within rounding of it
//! (about k records on continuous data, the tied ones on grids).
//!
//! Records are kept at the scan's positions (same swap-removals in the same order) and the
//! centroid is the pool's compensated running sum replayed in that order, so the centroid
//! too is bit-identical. The farthest-from-centroid query keeps the scan's anchor list.
//! The pass runs on rayon's threads in fixed chunks and each record's value is computed
//! by one thread; the selection then depends only on those values, so the thread count
//! changes nothing.
//!
//! Data a copy cannot hold (a magnitude of 10^15 or more, or a non-finite value) do not
//! build it ([`Pass::build`]); [`super::spatial::open`] then takes the next backend.
//!
//! ## Complexity
//! O(m d) per query over m remaining records, as the scan, with `f32` or 16-bit integer
//! arithmetic, plus O(c d) for c candidates; O(m d) memory (`f32`: half the pool's, 16-bit:
//! a quarter).
//!
//! ## References
//! Higham (2002), Accuracy and Stability of Numerical Algorithms, 2nd ed., ch. 3 (the
//! rounding-error bounds of sums and products).

use super::remaining::{
    anchor_budget, sq_dist_as_scan, AnchorList, MirroredCentroid, Remaining, ANCHOR_MIN,
};
use crate::data::Instance;

mod fixed;
mod kernels;
mod single;
mod tiered;
pub use fixed::{Fixed, Level};
pub use kernels::Key;
use kernels::{block_range, kth_smallest, max_of, BLOCK};
pub use single::Single;
pub use tiered::Tiered;
pub(crate) use tiered::BYTE_FROM;

/// Largest magnitude for which the reduced copy is used (squares and sums stay far below
/// `f32::MAX`; the fixed-point scale stays a normal number).
const MAX_MAGNITUDE: f64 = 1e15;

/// A reduced copy of the records and its distance pass: values that differ from the
/// scan's `f64` squared distances by a proven amount, so that thresholds on them exclude
/// only records strictly worse than the answer (P16 (h), (i)).
pub trait Pass: Sized + Send {
    /// One record's approximate value (never NaN).
    type Value: Key;
    /// The copy of the records `ids` in this order, or None when the data do not suit it.
    fn build(inst: &Instance, ids: &[usize]) -> Option<Self>;
    /// The value of every current record (positions `0..out.len()`) for `point`, with each
    /// block's least and largest; false when `point` does not suit the copy (then every
    /// record is compared exactly and `out` is not used).
    fn pass(
        &mut self,
        point: &[f64],
        out: &mut [Self::Value],
        lo: &mut [Self::Value],
        hi: &mut [Self::Value],
    ) -> bool;
    /// A value below which no record can be the farthest, given that some record holds
    /// `top` (monotone in `top`, at most `top`).
    fn far_floor(&self, top: f64) -> f64;
    /// A value above which no record can be among the k nearest, given that k records hold
    /// at most `kth` (monotone in `kth`, at least `kth`).
    fn near_ceil(&self, kth: f64) -> f64;
    /// A value below which a record's exact distance is strictly below `dist`, an exact
    /// (scan) squared distance some record has (monotone in `dist`): once the records are
    /// checked by decreasing value, the farthest query stops there.
    fn far_floor_exact(&self, dist: f64) -> f64;
    /// A value above which a record's exact distance is strictly above `dist`, an exact
    /// squared distance (monotone in `dist`): the k-nearest query, checking records by
    /// increasing value, stops there once k records hold at most `dist`.
    fn near_ceil_exact(&self, dist: f64) -> f64;
    /// Move the last record into position `p` (the pool's swap-removal).
    fn swap_remove(&mut self, p: usize);
    /// Drop every record.
    fn clear(&mut self);
    /// Multiply the error allowance by `factor`: only for the tests that show a loosened
    /// exclusion (factor < 1) changes answers.
    fn loosen(&mut self, factor: f64);
}

/// The filtered scan with `f32` passes (P16 (h)).
pub type FilterScan<'a> = Filtered<'a, Single>;
/// The filtered scan with 16-bit fixed-point passes (P16 (i)).
pub type FixedScan<'a> = Filtered<'a, Fixed>;
/// The filtered scan with 8-bit fixed-point passes (P16 (i) with L = 127).
pub type ByteScan<'a> = Filtered<'a, Fixed<i8>>;
/// The filtered scan with 8-bit passes over large pools and 16-bit ones after ([`Tiered`]).
pub type TieredScan<'a> = Filtered<'a, Tiered>;

/// The remaining records with a reduced copy (see the module doc).
pub struct Filtered<'a, P: Pass> {
    inst: &'a Instance,
    /// The ids by position (the pool's positions) and the pool's column sums.
    mirror: MirroredCentroid,
    copy: P,
    /// Approximate values for `last_query`, aligned with `ids`.
    approx: Vec<P::Value>,
    /// Per block of [`BLOCK`] positions, a lower and an upper bound on its `approx` values
    /// (exact after a pass; removals only widen them, so they stay bounds).
    block_min: Vec<P::Value>,
    block_max: Vec<P::Value>,
    /// The last query point (valid when `has_query`), its buffer reused across queries.
    last_query: Vec<f64>,
    has_query: bool,
    /// False when the last query point did not suit the copy (every record compared).
    filtered: bool,
    /// True while the block bounds are the blocks' exact least and largest values (from
    /// the last pass, no removal since).
    bounds_exact: bool,
    anchors: Option<(AnchorList, Vec<bool>)>,
    last_far: Option<(usize, usize)>,
    /// Buffers of the selections, kept across queries: a query allocates nothing.
    scratch: Scratch<P::Value>,
}

/// The selections' working buffers (contents meaningless between queries).
struct Scratch<V> {
    /// The k blocks with the lowest bounds.
    lowest: Vec<(V, usize)>,
    /// Values of those blocks, then the candidates' values.
    values: Vec<V>,
    /// Candidates (value, position): of a farthest query, or of a k-nearest one up to the
    /// first ceiling.
    found: Vec<(V, usize)>,
    /// Candidates by (exact distance, id, position).
    keyed: Vec<(f64, usize, usize)>,
    /// The chosen positions.
    chosen: Vec<usize>,
}

impl<V> Default for Scratch<V> {
    fn default() -> Self {
        Scratch {
            lowest: Vec::new(),
            values: Vec::new(),
            found: Vec::new(),
            keyed: Vec::new(),
            chosen: Vec::new(),
        }
    }
}

impl<'a> Filtered<'a, Tiered> {
    /// As [`Filtered::new`], with passes over the 8-bit copy from `byte_from` records on
    /// (tests: both copies in one run).
    #[doc(hidden)]
    pub fn with_byte_from(inst: &'a Instance, ids: Vec<usize>, byte_from: usize) -> Self {
        let mut s = Self::new(inst, ids);
        s.copy.set_byte_from(byte_from);
        s
    }
}

impl<'a, P: Pass> Filtered<'a, P> {
    /// True when the copy can be built for the records `ids` (see [`Pass::build`]).
    pub fn suits(inst: &Instance, ids: &[usize]) -> bool {
        P::build(inst, ids).is_some()
    }

    /// The records `ids` of `inst`, or None when the data do not suit the copy.
    pub(crate) fn try_new(inst: &'a Instance, ids: Vec<usize>) -> Option<Self> {
        let copy = P::build(inst, &ids)?;
        let anchors = (ids.len() >= ANCHOR_MIN).then(|| {
            let mut here = vec![false; inst.n];
            ids.iter().for_each(|&i| here[i] = true);
            (AnchorList::new(inst, &ids), here)
        });
        let blocks = ids.len().div_ceil(BLOCK);
        let zero = P::Value::default();
        Some(Filtered {
            inst,
            approx: vec![zero; ids.len()],
            block_min: vec![zero; blocks],
            block_max: vec![zero; blocks],
            mirror: MirroredCentroid::new(inst, ids),
            copy,
            last_query: Vec::with_capacity(inst.d),
            has_query: false,
            filtered: false,
            bounds_exact: false,
            anchors,
            last_far: None,
            scratch: Scratch::default(),
        })
    }

    /// The records `ids` of `inst` (they must suit the copy: [`Filtered::suits`]).
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        Self::try_new(inst, ids).expect("the data suit the filtered scan's copy")
    }

    /// As [`Filtered::new`] with the error allowance multiplied by `factor`: only for the
    /// tests that show a loosened allowance (factor < 1) changes answers.
    #[doc(hidden)]
    pub fn with_margin_factor(inst: &'a Instance, ids: Vec<usize>, factor: f64) -> Self {
        let mut s = Self::new(inst, ids);
        s.copy.loosen(factor);
        s
    }

    /// Fill `approx` for `point` (unless it already holds it).
    fn query(&mut self, point: &[f64]) {
        if self.has_query && self.last_query == point {
            return;
        }
        let m = self.mirror.len();
        let nb = m.div_ceil(BLOCK);
        self.bounds_exact = true;
        self.filtered = self.copy.pass(
            point,
            &mut self.approx[..m],
            &mut self.block_min[..nb],
            &mut self.block_max[..nb],
        );
        self.last_query.clear();
        self.last_query.extend_from_slice(point);
        self.has_query = true;
    }

    /// The scan's distance from record `id` to the last query point.
    fn exact(&self, id: usize) -> f64 {
        debug_assert!(self.has_query, "a query point is set");
        sq_dist_as_scan(self.inst.row(id), &self.last_query)
    }

    /// Position of the record farthest from the last query point (ties: lowest id).
    fn farthest_position(&self, scratch: &mut Scratch<P::Value>) -> usize {
        let m = self.mirror.len();
        let mut best = (f64::NEG_INFINITY, usize::MAX, 0usize);
        let consider = |p: usize, best: &mut (f64, usize, usize)| {
            let id = self.mirror.ids()[p];
            let dist = self.exact(id);
            if dist > best.0 || (dist == best.0 && id < best.1) {
                *best = (dist, id, p);
            }
        };
        if !self.filtered {
            (0..m).for_each(|p| consider(p, &mut best));
            return best.2;
        }
        // A value some record has (the best block's own largest), then every block that may
        // hold a value that can be the farthest.
        let nb = m.div_ceil(BLOCK);
        let (b, _) =
            self.block_max[..nb]
                .iter()
                .enumerate()
                .fold(
                    (0, P::Value::LOWEST),
                    |a, (b, &v)| if v > a.1 { (b, v) } else { a },
                );
        let some: f64 = max_of(&self.approx[block_range(b, m)]).into();
        let floor = self.copy.far_floor(some);
        // The largest value among the blocks that may reach `floor`, then the records of
        // those blocks whose value can be the farthest given it (no record outside them
        // can: its block's bound is below `floor`, itself at most the second threshold).
        let top = self.block_max[..nb]
            .iter()
            .enumerate()
            .filter(|(_, &hi)| hi.into() >= floor)
            .fold(P::Value::LOWEST, |a, (b, _)| {
                let v = max_of(&self.approx[block_range(b, m)]);
                if v > a {
                    v
                } else {
                    a
                }
            });
        let low = self.copy.far_floor(top.into());
        let found = &mut scratch.found;
        found.clear();
        for (b, &hi) in self.block_max[..nb].iter().enumerate() {
            if hi.into() >= low {
                for p in block_range(b, m) {
                    if self.approx[p].into() >= low {
                        found.push((self.approx[p], p));
                    }
                }
            }
        }
        // By decreasing value, until no value left can reach the best exact distance.
        found.sort_unstable_by(|a, b| b.0.partial_cmp(&a.0).expect("values are never NaN"));
        for &(v, p) in found.iter() {
            if best.1 != usize::MAX && v.into() < self.copy.far_floor_exact(best.0) {
                break;
            }
            consider(p, &mut best);
        }
        best.2
    }

    /// Positions of the `k` records nearest to the last query point by increasing (scan
    /// distance, id), into `scratch.chosen`.
    fn nearest_positions(&self, k: usize, scratch: &mut Scratch<P::Value>) {
        let m = self.mirror.len();
        let k = k.min(m);
        scratch.chosen.clear();
        if k == 0 {
            return;
        }
        if self.filtered {
            self.near_candidates(k, scratch);
            self.nearest_of_candidates(k, scratch);
            return;
        }
        scratch.chosen.extend(0..m);
        let ids = self.mirror.ids();
        let keyed = &mut scratch.keyed;
        keyed.clear();
        keyed.extend(
            scratch
                .chosen
                .iter()
                .map(|&p| (self.exact(ids[p]), ids[p], p)),
        );
        let by = |a: &(f64, usize, usize), b: &(f64, usize, usize)| {
            a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
        };
        if keyed.len() > k {
            keyed.select_nth_unstable_by(k - 1, by);
            keyed.truncate(k);
        }
        keyed.sort_unstable_by(by);
        scratch.chosen.clear();
        scratch.chosen.extend(keyed.iter().map(|e| e.2));
    }

    /// Positions whose approximate value can be among the k smallest by scan distance
    /// (every value up to [`Pass::near_ceil`] of the k-th smallest), into `scratch.chosen`.
    fn near_candidates(&self, k: usize, scratch: &mut Scratch<P::Value>) {
        let m = self.mirror.len();
        let nb = m.div_ceil(BLOCK);
        // An upper bound on the k-th smallest value: the k-th smallest of the values held by
        // the k blocks with the lowest bounds (k records from distinct blocks, each at
        // most its block's smallest value from the lowest ones).
        let lowest = &mut scratch.lowest;
        lowest.clear();
        for (b, &v) in self.block_min[..nb].iter().enumerate() {
            if lowest.len() == k && v >= lowest[k - 1].0 {
                continue;
            }
            let at = lowest.partition_point(|e| e.0 <= v);
            lowest.insert(at, (v, b));
            lowest.truncate(k);
        }
        let values = &mut scratch.values;
        values.clear();
        let upper: f64 = if self.bounds_exact && lowest.len() == k {
            // Each of those k blocks holds a value equal to its bound: the largest of
            // the k bounds is at least the k-th smallest value (looser than the k-th
            // smallest value of the k blocks, so more records may be found below; the
            // exact k-th smallest among them, hence the answer, is the same).
            lowest[k - 1].0.into()
        } else {
            lowest
                .iter()
                .for_each(|&(_, b)| values.extend_from_slice(&self.approx[block_range(b, m)]));
            kth_smallest(values, k).into()
        };
        // Every value up to the ceiling of `upper` (a superset of the k smallest), then the
        // exact k-th smallest among them and the records up to its ceiling.
        let reach = self.copy.near_ceil(upper);
        let found = &mut scratch.found;
        found.clear();
        for (b, &lo) in self.block_min[..nb].iter().enumerate() {
            if lo.into() <= reach {
                for p in block_range(b, m) {
                    if self.approx[p].into() <= reach {
                        found.push((self.approx[p], p));
                    }
                }
            }
        }
        values.clear();
        values.extend(found.iter().map(|e| e.0));
        let high = self.copy.near_ceil(kth_smallest(values, k).into());
        found.retain(|e| e.0.into() <= high);
    }

    /// The k nearest among the candidates `scratch.found` (at least k of them), checked by
    /// increasing value until no value left can come within the k-th exact distance, into
    /// `scratch.chosen` by increasing (scan distance, id).
    fn nearest_of_candidates(&self, k: usize, scratch: &mut Scratch<P::Value>) {
        let ids = self.mirror.ids();
        let found = &mut scratch.found;
        found.sort_unstable_by(|a, b| a.0.partial_cmp(&b.0).expect("values are never NaN"));
        // The best k so far by (exact distance, id), sorted.
        let keyed = &mut scratch.keyed;
        keyed.clear();
        let by = |a: &(f64, usize, usize), b: &(f64, usize, usize)| {
            a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
        };
        for &(v, p) in found.iter() {
            if keyed.len() == k && v.into() > self.copy.near_ceil_exact(keyed[k - 1].0) {
                break;
            }
            let e = (self.exact(ids[p]), ids[p], p);
            if keyed.len() == k && by(&e, &keyed[k - 1]).is_gt() {
                continue;
            }
            let at = keyed.partition_point(|x| by(x, &e).is_lt());
            keyed.insert(at, e);
            keyed.truncate(k);
        }
        scratch.chosen.extend(keyed.iter().map(|e| e.2));
    }

    /// Swap-remove position `p` (the pool's removal).
    fn remove_at(&mut self, p: usize) -> usize {
        self.last_far = None;
        self.bounds_exact = false;
        let id = self.mirror.ids()[p];
        self.mirror.remove_at(p, self.inst.row(id));
        self.copy.swap_remove(p);
        self.approx.swap_remove(p);
        // The record moved into p widens p's block bounds.
        if p < self.approx.len() {
            let (b, v) = (p / BLOCK, self.approx[p]);
            if v < self.block_min[b] {
                self.block_min[b] = v;
            }
            if v > self.block_max[b] {
                self.block_max[b] = v;
            }
        }
        if let Some((_, here)) = self.anchors.as_mut() {
            here[id] = false;
        }
        id
    }
}

impl<P: Pass> Remaining for Filtered<'_, P> {
    fn len(&self) -> usize {
        self.mirror.len()
    }

    fn centroid(&self) -> Vec<f64> {
        self.mirror.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.query(point);
        let mut scratch = std::mem::take(&mut self.scratch);
        let p = self.farthest_position(&mut scratch);
        self.scratch = scratch;
        let id = self.mirror.ids()[p];
        self.last_far = Some((id, p));
        id
    }

    fn anchored_farthest(&mut self, c: &[f64]) -> Option<usize> {
        let budget = anchor_budget(self.mirror.len());
        let (list, here) = self.anchors.as_mut()?;
        list.farthest_reanchoring(self.inst, self.mirror.ids(), c, |i| here[i], budget)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.query(point);
        let mut scratch = std::mem::take(&mut self.scratch);
        self.nearest_positions(k, &mut scratch);
        let ids: Vec<usize> = scratch
            .chosen
            .iter()
            .map(|&p| self.mirror.ids()[p])
            .collect();
        scratch.chosen.sort_unstable_by(|a, b| b.cmp(a));
        for &p in &scratch.chosen {
            self.remove_at(p);
        }
        self.scratch = scratch;
        ids
    }

    fn remove(&mut self, id: usize) {
        let p = match self.last_far {
            Some((i, p)) if i == id => p,
            _ => self.mirror.position(id),
        };
        self.remove_at(p);
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.last_far = None;
        self.bounds_exact = false;
        let ids = self.mirror.take_all();
        self.copy.clear();
        self.approx.clear();
        if let Some((_, here)) = self.anchors.as_mut() {
            ids.iter().for_each(|&i| here[i] = false);
        }
        ids
    }
}

#[cfg(test)]
mod tests;
