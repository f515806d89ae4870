//! # Rust parts that call Python
//!
//! One adapter per kind of part of the search kit, each implementing the Rust trait and
//! calling the Python object's methods under the GIL: [`PyPerturb`] (`perturb(view, r,
//! rng)`), [`PyAccept`] (`start`, `accept(before, delta, rng)`, `after`), [`PyOperator`]
//! (`evaluate(view, i, h)`, `apply(view, i, h, partner)`) and [`PyRefiner`] (`init(view,
//! rng)`, `step(view, rng)`). The executor drives them as it drives Rust parts (seeds,
//! budgets, stop rules, observers, traces).
//!
//! An exception in Python is kept in the run's [`Hooks`] and stops the run (the same flag
//! as Ctrl-C); from then on every adapter answers without calling Python (no move, no
//! change, reject), so the executor ends each stage with its best partition, which the
//! caller attaches to the re-raised exception. An operator's claimed delta is checked
//! against the change of the partition's SSE when its move is applied (O(1)): a wrong
//! delta stops the run with an `AlgorithmError` naming the operator and the move.
//!
//! ## Complexity
//! One Python call per perturbation, acceptance decision, (record, candidate group) pair
//! of an operator, applied move, or refiner step, plus the Python code itself.
//!
//! ## References
//! - PyO3 user guide, "Calling Python from Rust".

use super::view::{PartitionView, RngHandle, Scope};
use super::Hooks;
use microagg::data::Instance;
use microagg::method::{Ctx, Refiner, SearchState, Step};
use microagg::partition::Partition;
use microagg::rng::Rng;
use microagg::search::accept::Accept;
use microagg::search::moves::{Counters, Move, MoveLog};
use microagg::search::neighbours::Neighbours;
use microagg::search::operators::{Best, Operator, View};
use microagg::search::perturb::{Perturb, Workspace};
use microagg::search::shared_lists::Build;
use pyo3::prelude::*;
use std::sync::Arc;

/// A Python object with the handles it is called with.
pub struct PyPart {
    pub name: &'static str,
    obj: Py<PyAny>,
    hooks: Arc<Hooks>,
    view: Py<PartitionView>,
    rng: Py<RngHandle>,
}

impl PyPart {
    pub fn new(
        py: Python<'_>,
        name: &'static str,
        obj: &Py<PyAny>,
        hooks: &Arc<Hooks>,
    ) -> PyResult<Self> {
        Ok(PyPart {
            name,
            obj: obj.clone_ref(py),
            hooks: Arc::clone(hooks),
            view: Py::new(py, PartitionView::new(Arc::clone(hooks)))?,
            rng: Py::new(py, RngHandle::new())?,
        })
    }

    /// Call `f` with the object, the view over `scope` and the rng handle; `None` when the
    /// run is stopping or the call raised (the exception is kept in the hooks).
    fn call<R>(
        &self,
        scope: Option<Scope>,
        rng: Option<&mut Rng>,
        f: impl FnOnce(
            &Bound<'_, PyAny>,
            &Bound<'_, PartitionView>,
            &Bound<'_, RngHandle>,
        ) -> PyResult<R>,
    ) -> Option<R> {
        if self.hooks.stopped() {
            return None;
        }
        Python::attach(|py| {
            if let Some(s) = scope {
                self.view.borrow_mut(py).enter(s);
            }
            if let Some(r) = rng {
                self.rng.borrow_mut(py).enter(r);
            }
            let out = f(self.obj.bind(py), self.view.bind(py), self.rng.bind(py));
            self.view.borrow_mut(py).leave();
            self.rng.borrow_mut(py).leave();
            out.map_err(|e| self.hooks.fail(e)).ok()
        })
    }

    /// Stop the run with an `AlgorithmError` saying `message`.
    fn fail_with(&self, message: String) {
        Python::attach(|py| {
            let e = crate::errors::raise(py, "AlgorithmError", message);
            self.hooks.fail(e);
        });
    }
}

/// A perturbation written in Python: `perturb(view, r, rng)` returns whether it changed
/// the partition (None: whether it made a move).
pub struct PyPerturb(pub PyPart);

impl Perturb for PyPerturb {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize, ws: &mut Workspace) -> bool {
        let progress = ctx.progress();
        ws.groups.clear();
        let before = ws.log.len();
        let mut scope = Scope::write(p, ctx.inst, ctx.k, ws.log);
        scope.nb = ws.nb;
        scope.queue = &mut *ws.ls;
        scope.groups = &mut *ws.groups;
        scope.spare = &mut *ws.spare;
        scope.progress = progress;
        let said = self.0.call(Some(scope), Some(ctx.rng), |obj, view, rng| {
            let out = obj.call_method1("perturb", (view, r, rng))?;
            if out.is_none() {
                Ok(None)
            } else {
                out.is_truthy().map(Some)
            }
        });
        match said {
            Some(Some(changed)) => changed,
            Some(None) => ws.log.len() > before,
            None => false,
        }
    }
}

/// An acceptance rule written in Python.
pub struct PyAccept(pub PyPart);

impl Accept for PyAccept {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn start(&mut self, sse: f64, groups: usize, progress: Option<f64>) {
        self.0.call(None, None, |obj, _, _| {
            obj.call_method1("start", (sse, groups, progress))
                .map(|_| ())
        });
    }

    fn accept(&mut self, before: f64, delta: f64, rng: &mut Rng) -> bool {
        self.0
            .call(None, Some(rng), |obj, _, rng| {
                obj.call_method1("accept", (before, delta, rng))?
                    .is_truthy()
            })
            .unwrap_or(false)
    }

    fn after(&mut self, current: f64, progress: Option<f64>) {
        self.0.call(None, None, |obj, _, _| {
            obj.call_method1("after", (current, progress)).map(|_| ())
        });
    }
}

/// A descent operator written in Python: `evaluate(view, i, h)` proposes one move of
/// record i involving group h (None, a delta, or (delta, partner)); `apply(view, i, h,
/// partner)` makes it.
pub struct PyOperator {
    part: PyPart,
    counters: Counters,
    k: usize,
    /// The moves `best` kept for record `kept_for`, with their claimed deltas.
    kept: Vec<(Move, f64)>,
    kept_for: usize,
}

impl PyOperator {
    pub fn new(part: PyPart) -> Self {
        PyOperator {
            part,
            counters: Counters::default(),
            k: 0,
            kept: Vec::new(),
            kept_for: usize::MAX,
        }
    }

    /// The delta check: the partition's SSE must change by what `evaluate` claimed.
    fn check_delta(&self, inst: &Instance, mv: Move, claimed: f64, before: f64, after: f64) {
        let actual = after - before;
        let scale = before.abs().max(inst.sst / inst.n.max(1) as f64);
        if (actual - claimed).abs() <= 1e-9 * scale {
            return;
        }
        let Move::Other { a, b, to } = mv else { return };
        self.part.fail_with(format!(
            "operator '{}' claimed a change of SSE of {claimed:e} for (i = {a}, h = {to}, \
             partner = {b}), but applying it changed the SSE by {actual:e}: evaluate and \
             apply disagree (check the delta)",
            self.part.name
        ));
    }
}

impl Operator for PyOperator {
    fn name(&self) -> &'static str {
        self.part.name
    }

    fn counters(&self) -> Counters {
        self.counters
    }

    fn scan_group(&mut self, v: &View, i: usize, h: usize, first: bool, best: &mut Best) -> bool {
        self.k = v.k;
        self.counters.evaluations += 1;
        let scope = Scope::read(v.p, v.inst, v.k, v.nb);
        let got = self.part.call(Some(scope), None, |obj, view, _| {
            let out = obj.call_method1("evaluate", (view, i, h))?;
            if out.is_none() {
                return Ok(None);
            }
            if let Ok(delta) = out.extract::<f64>() {
                return Ok(Some((delta, i)));
            }
            let (delta, partner): (f64, Option<usize>) = out.extract()?;
            Ok(Some((delta, partner.unwrap_or(i))))
        });
        let Some(Some((delta, partner))) = got else {
            return false;
        };
        if partner >= v.inst.n {
            self.part.fail_with(format!(
                "operator '{}': partner {partner} out of range (n = {})",
                self.part.name, v.inst.n
            ));
            return false;
        }
        if self.kept_for != i {
            self.kept.clear();
            self.kept_for = i;
        }
        let mv = Move::Other {
            a: i,
            b: partner,
            to: h,
        };
        let kept = best.offer(delta, mv);
        if kept {
            self.kept.push((mv, delta));
        }
        kept && first
    }

    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        let Move::Other { a, b, to } = mv else {
            unreachable!("a Python operator applies its own moves, not {mv:?}")
        };
        let claimed = self.kept.iter().rev().find(|(m, _)| *m == mv).map(|m| m.1);
        self.counters.applications += 1;
        let before = p.sse();
        let scope = Scope::write(p, inst, self.k, log);
        let partner = (b != a).then_some(b);
        let done = self.part.call(Some(scope), None, |obj, view, _| {
            obj.call_method1("apply", (view, a, to, partner))
                .map(|_| ())
        });
        if let (Some(()), Some(claimed)) = (done, claimed) {
            self.check_delta(inst, mv, claimed, before, p.sse());
        }
    }
}

/// A refiner written in Python: `step(view, rng)` returns True to go on, False (or None)
/// when converged; its moves go into a log cleared at each step (`view.undo()` reverts
/// the step's moves). With `neighbours = M` (class attribute, default 30; 0 for none) the
/// view offers the run's shared neighbour lists.
pub struct PyRefiner {
    part: PyPart,
    m: usize,
    nb: Option<Arc<Neighbours>>,
    log: MoveLog,
}

impl PyRefiner {
    pub fn new(part: PyPart, m: usize) -> Self {
        PyRefiner {
            part,
            m,
            nb: None,
            log: MoveLog::new(),
        }
    }

    fn scope(&mut self, state: &mut SearchState, ctx: &Ctx) -> Scope {
        let mut scope = Scope::write(&mut state.current, ctx.inst, ctx.k, &mut self.log);
        if let Some(nb) = &self.nb {
            scope.nb = &**nb;
        }
        scope.progress = ctx.progress();
        scope
    }
}

impl Refiner for PyRefiner {
    fn name(&self) -> &str {
        self.part.name
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> microagg::Result<()> {
        if self.m > 0 {
            self.nb = ctx.neighbours(self.m, Build::Exact);
            if self.nb.is_none() {
                return Ok(()); // stopped during the build: the stage returns its input
            }
        }
        self.log.clear();
        let scope = self.scope(state, ctx);
        self.part
            .call(Some(scope), Some(ctx.rng), |obj, view, rng| {
                obj.call_method1("init", (view, rng)).map(|_| ())
            });
        state.record_if_better(ctx.k);
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> microagg::Result<Step> {
        self.log.clear();
        let scope = self.scope(state, ctx);
        let going = self
            .part
            .call(Some(scope), Some(ctx.rng), |obj, view, rng| {
                obj.call_method1("step", (view, rng))?.is_truthy()
            });
        state.record_if_better(ctx.k);
        // After an exception the executor stops at its interrupt check, with the best.
        Ok(match going {
            Some(false) => Step::Converged,
            _ => Step::Continue,
        })
    }
}
