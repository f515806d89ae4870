//! # Scoped handles passed to Python ideas
//!
//! A Python part is called with a [`PartitionView`] (the partition, its data and k, the
//! neighbour lists, and where moves go) and an [`RngHandle`] (the stage's random stream).
//! Both point into the Rust executor's state for the length of one call only: the adapter
//! enters a [`Scope`] before the call and leaves it after, and a handle kept past its call
//! raises instead of reading freed state. Moves made through a writable view go through
//! the stage's move log (so ILS can undo them); in a perturbation they also queue the
//! moved records for the descent and note the touched groups, as a Rust perturbation does.
//!
//! ## Complexity
//! `delta_shift`, `delta_swap`, `apply_*`, `centroid`, `row`: O(d); `members(g)`: O(|g|);
//! `neighbours(r)`: O(m); `labels()`: O(n); everything else O(1).
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26 (shift and swap deltas, proofs/P02).

use super::Hooks;
use microagg::data::Instance;
use microagg::partition::Partition;
use microagg::rng::Rng;
use microagg::search::local_search::LocalSearch;
use microagg::search::moves::{fresh_slot, MoveLog};
use microagg::search::neighbours::Neighbours;
use pyo3::exceptions::{PyIndexError, PyRuntimeError};
use pyo3::prelude::*;
use rand::Rng as _;
use std::sync::Arc;

/// What a view points at during one call. Null pointers are parts the calling context
/// does not have (no neighbour lists, no descent queue, read-only).
pub struct Scope {
    pub p: *mut Partition,
    pub writable: bool,
    pub inst: *const Instance,
    pub k: usize,
    pub nb: *const Neighbours,
    pub log: *mut MoveLog,
    pub queue: *mut LocalSearch,
    pub groups: *mut Vec<usize>,
    pub spare: *mut Vec<usize>,
    pub progress: Option<f64>,
}

// SAFETY: a Scope is only set while the Rust frame that owns the pointees is blocked in the
// Python call it was made for (on one thread, under the GIL), and cleared before that frame
// touches them again; Python cannot move it elsewhere meanwhile without the GIL.
unsafe impl Send for Scope {}
unsafe impl Sync for Scope {}

impl Scope {
    /// A read-only scope over `p` (an operator's evaluation).
    pub fn read(p: &Partition, inst: &Instance, k: usize, nb: &Neighbours) -> Self {
        Scope {
            p: p as *const Partition as *mut Partition,
            writable: false,
            inst,
            k,
            nb,
            log: std::ptr::null_mut(),
            queue: std::ptr::null_mut(),
            groups: std::ptr::null_mut(),
            spare: std::ptr::null_mut(),
            progress: None,
        }
    }

    /// A writable scope over `p` whose moves go into `log`.
    pub fn write(p: &mut Partition, inst: &Instance, k: usize, log: &mut MoveLog) -> Self {
        Scope {
            p,
            writable: true,
            inst,
            k,
            nb: std::ptr::null(),
            log,
            queue: std::ptr::null_mut(),
            groups: std::ptr::null_mut(),
            spare: std::ptr::null_mut(),
            progress: None,
        }
    }
}

/// The partition seen by a Python part during one call (a view kept past it raises
/// RuntimeError). Properties: k, n, d, progress (share of the budget used, or None).
/// Reading: group_of, size, members, centroid, row, sse, group_sse, slots, num_groups,
/// labels, neighbours; O(d) deltas: delta_shift, delta_swap; moves (through the move log,
/// not in an operator's evaluate): apply_shift, apply_swap, new_group, undo.
#[pyclass(module = "microagg._core", name = "PartitionView")]
pub struct PartitionView {
    scope: Option<Scope>,
    hooks: Arc<Hooks>,
}

impl PartitionView {
    pub fn new(hooks: Arc<Hooks>) -> Self {
        PartitionView { scope: None, hooks }
    }

    pub fn enter(&mut self, scope: Scope) {
        self.scope = Some(scope);
    }

    pub fn leave(&mut self) {
        self.scope = None;
    }

    fn s(&self) -> PyResult<&Scope> {
        self.scope.as_ref().ok_or_else(|| {
            PyRuntimeError::new_err(
                "this PartitionView was kept past the call it was passed to; use it only inside that call",
            )
        })
    }

    fn p(&self) -> PyResult<&Partition> {
        // SAFETY: see Scope.
        Ok(unsafe { &*self.s()?.p })
    }

    fn inst(&self) -> PyResult<&Instance> {
        Ok(unsafe { &*self.s()?.inst })
    }

    fn record(&self, r: usize) -> PyResult<usize> {
        let n = self.inst()?.n;
        if r < n {
            Ok(r)
        } else {
            Err(PyIndexError::new_err(format!(
                "record {r} out of range (n = {n})"
            )))
        }
    }

    fn group(&self, g: usize) -> PyResult<usize> {
        let slots = self.p()?.slots();
        if g < slots {
            Ok(g)
        } else {
            Err(PyIndexError::new_err(format!(
                "group {g} out of range ({slots} group slots)"
            )))
        }
    }

    /// The scope, checked writable.
    fn w(&self) -> PyResult<&Scope> {
        let s = self.s()?;
        if !s.writable {
            return Err(PyRuntimeError::new_err(
                "this view is read-only (an operator's evaluate); make moves in apply",
            ));
        }
        Ok(s)
    }

    /// Note group `g` as touched by a perturbation (once).
    fn touch(s: &Scope, g: usize) {
        if let Some(groups) = unsafe { s.groups.as_mut() } {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
    }

    fn queue(s: &Scope, r: usize) {
        if let Some(ls) = unsafe { s.queue.as_mut() } {
            ls.push(r);
        }
    }
}

#[pymethods]
impl PartitionView {
    /// The minimum group size.
    #[getter]
    fn k(&self) -> PyResult<usize> {
        Ok(self.s()?.k)
    }

    /// The number of records.
    #[getter]
    fn n(&self) -> PyResult<usize> {
        Ok(self.inst()?.n)
    }

    /// The number of attributes.
    #[getter]
    fn d(&self) -> PyResult<usize> {
        Ok(self.inst()?.d)
    }

    /// Share of the stage's budget used, in [0, 1] (None without a time limit or step
    /// budget, and in an operator's calls).
    #[getter]
    fn progress(&self) -> PyResult<Option<f64>> {
        Ok(self.s()?.progress)
    }

    /// The group of record `r`.
    fn group_of(&self, r: usize) -> PyResult<usize> {
        Ok(self.p()?.group_of(self.record(r)?))
    }

    /// The number of records of group `g` (0 for an emptied slot).
    fn size(&self, g: usize) -> PyResult<usize> {
        Ok(self.p()?.size(self.group(g)?))
    }

    /// The records of group `g`.
    fn members(&self, g: usize) -> PyResult<Vec<usize>> {
        Ok(self.p()?.members(self.group(g)?).to_vec())
    }

    /// The centroid of group `g` (z-scores).
    fn centroid(&self, g: usize) -> PyResult<Vec<f64>> {
        Ok(self.p()?.centroid(self.group(g)?).to_vec())
    }

    /// Record `r`'s values (z-scores, as the SSE is measured).
    fn row(&self, r: usize) -> PyResult<Vec<f64>> {
        Ok(self.inst()?.row(self.record(r)?).to_vec())
    }

    /// The SSE of the partition.
    fn sse(&self) -> PyResult<f64> {
        Ok(self.p()?.sse())
    }

    /// The SSE of group `g`.
    fn group_sse(&self, g: usize) -> PyResult<f64> {
        Ok(self.p()?.group_sse(self.group(g)?))
    }

    /// Group slots (ids 0..slots; an emptied group keeps its slot with size 0).
    fn slots(&self) -> PyResult<usize> {
        Ok(self.p()?.slots())
    }

    /// The number of non-empty groups.
    fn num_groups(&self) -> PyResult<usize> {
        Ok(self.p()?.num_groups())
    }

    /// Every record's group, O(n).
    fn labels(&self) -> PyResult<Vec<usize>> {
        Ok(self.p()?.labels().to_vec())
    }

    /// The change in SSE if record `r` moved to group `g`, O(d) (proofs/P02); the size
    /// constraint is not checked.
    fn delta_shift(&self, r: usize, g: usize) -> PyResult<f64> {
        let (r, g) = (self.record(r)?, self.group(g)?);
        Ok(self.p()?.shift_delta(self.inst()?, r, g))
    }

    /// The change in SSE if records `r` and `s` exchanged groups, O(d) (proofs/P02).
    fn delta_swap(&self, r: usize, s: usize) -> PyResult<f64> {
        let (r, s) = (self.record(r)?, self.record(s)?);
        Ok(self.p()?.swap_delta(self.inst()?, r, s))
    }

    /// The nearest records of record `r`, nearest first (the run's shared lists).
    fn neighbours(&self, r: usize) -> PyResult<Vec<usize>> {
        let r = self.record(r)?;
        let nb = unsafe { self.s()?.nb.as_ref() }.ok_or_else(|| {
            PyRuntimeError::new_err(
                "no neighbour lists in this call (an operator's apply has none; a Refiner gets them with the class attribute neighbours = M > 0)",
            )
        })?;
        Ok(nb.of(r).iter().map(|&j| j as usize).collect())
    }

    /// Move record `r` to group `g` through the move log (undone if the step is rejected).
    fn apply_shift(&mut self, r: usize, g: usize) -> PyResult<()> {
        let (r, g) = (self.record(r)?, self.group(g)?);
        let s = self.w()?;
        let (p, inst, log) = unsafe { (&mut *s.p, &*s.inst, &mut *s.log) };
        Self::touch(s, p.group_of(r));
        Self::touch(s, g);
        log.shift(p, inst, r, g);
        Self::queue(s, r);
        Ok(())
    }

    /// Exchange the groups of records `r` and `s` through the move log.
    fn apply_swap(&mut self, r: usize, s: usize) -> PyResult<()> {
        let (r, t) = (self.record(r)?, self.record(s)?);
        let s = self.w()?;
        let (p, inst, log) = unsafe { (&mut *s.p, &*s.inst, &mut *s.log) };
        Self::touch(s, p.group_of(r));
        Self::touch(s, p.group_of(t));
        log.swap(p, inst, r, t);
        Self::queue(s, r);
        Self::queue(s, t);
        Ok(())
    }

    /// An empty group slot to move records into (a free one, else a new one).
    fn new_group(&mut self) -> PyResult<usize> {
        let s = self.w()?;
        let p = unsafe { &mut *s.p };
        let g = match unsafe { s.spare.as_mut() } {
            Some(spare) => fresh_slot(p, spare),
            None => p.add_group(),
        };
        Self::touch(s, g);
        Ok(g)
    }

    /// Undo every move made through the log since it was last cleared (in a perturbation:
    /// this perturbation's moves; in a Refiner: this step's).
    fn undo(&mut self) -> PyResult<()> {
        let s = self.w()?;
        let (p, inst, log) = unsafe { (&mut *s.p, &*s.inst, &mut *s.log) };
        log.undo(p, inst);
        Ok(())
    }

    /// True once the run should stop (Ctrl-C, an error elsewhere): a long loop in Python
    /// may return early.
    fn stop_requested(&self) -> bool {
        self.hooks.stopped()
    }
}

/// The stage's random stream during one call (the same ChaCha8 stream Rust parts draw
/// from, so a Python idea and its Rust twin make the same draws): random(),
/// integers(low, high), random_bool(p).
#[pyclass(module = "microagg._core", name = "Rng")]
pub struct RngHandle {
    rng: Option<RngPtr>,
}

struct RngPtr(*mut Rng);
// SAFETY: as Scope.
unsafe impl Send for RngPtr {}
unsafe impl Sync for RngPtr {}

impl RngHandle {
    pub fn new() -> Self {
        RngHandle { rng: None }
    }

    pub fn enter(&mut self, rng: &mut Rng) {
        self.rng = Some(RngPtr(rng));
    }

    pub fn leave(&mut self) {
        self.rng = None;
    }

    fn r(&mut self) -> PyResult<&mut Rng> {
        match &self.rng {
            Some(p) => Ok(unsafe { &mut *p.0 }),
            None => Err(PyRuntimeError::new_err(
                "this Rng was kept past the call it was passed to; use it only inside that call",
            )),
        }
    }
}

#[pymethods]
impl RngHandle {
    /// A float in [0, 1) (Rust: `rng.random::<f64>()`).
    fn random(&mut self) -> PyResult<f64> {
        Ok(self.r()?.random::<f64>())
    }

    /// An integer in [low, high): with low >= 0 the draw of Rust's
    /// `rng.random_range(low..high)` on `usize`, else on `i64`.
    fn integers(&mut self, low: i64, high: i64) -> PyResult<i64> {
        if low >= high {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "integers({low}, {high}): need low < high"
            )));
        }
        let rng = self.r()?;
        Ok(if low >= 0 {
            rng.random_range(low as usize..high as usize) as i64
        } else {
            rng.random_range(low..high)
        })
    }

    /// True with probability `p` in [0, 1] (Rust: `rng.random_bool(p)`).
    fn random_bool(&mut self, p: f64) -> PyResult<bool> {
        if !(0.0..=1.0).contains(&p) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "random_bool({p}): p must be in [0, 1]"
            )));
        }
        Ok(self.r()?.random_bool(p))
    }
}
