//! # Ideas written in Python
//!
//! `microagg.run(X, k, method=["mdav", microagg.Ils(perturb=[MyKick()])])`: a pipeline
//! given as a list whose stages are method names, `microagg.Ils` compositions (built-in
//! parts by name and Python parts, `Perturb`, `Accept`, `Operator`) and Python `Refiner`s.
//! [`pipeline`] turns it into the library's [`Pipeline`]: each Python part is registered
//! under its name in a registry made for this run (the built-in one plus these parts), and
//! ILS builds its parts from it ([`Ils::with_registry`]); a Python refiner is a stage of
//! its own. The Rust executor then drives everything with the run's seeds, budgets, stop
//! rules, observers and traces ([`adapters`], [`view`]).
//!
//! [`Hooks`] is what a run's Python parts share with the caller: the stop flag (the one
//! Ctrl-C sets, [`crate::stop`]) and the first exception raised in Python, which stops the
//! run and is re-raised with the best partition so far.
//!
//! ## Complexity
//! Building: O(stages + parts); running: see [`adapters`].
//!
//! ## References
//! - Wouda, N. A., Lan, L. and Kool, W. (2024). PyVRP: a high-performance VRP solver
//!   package. INFORMS Journal on Computing 36(4), 943-955 (ILS composed from parts).

pub mod adapters;
pub mod twin;
pub mod view;

use adapters::{PyAccept, PyOperator, PyPart, PyPerturb, PyRefiner};
use microagg::method::Maker;
use microagg::params::group_param_args;
use microagg::pipeline::{Pipeline, StageSpec};
use microagg::registry::{self, Registry};
use microagg::search::accept::Accept;
use microagg::search::ils::{Ils, IlsParams};
use microagg::search::kit::{AcceptInfo, OperatorInfo, PartSpec, PerturbInfo, PerturbSpec};
use microagg::search::operators::Operator;
use microagg::search::perturb::Perturb;
use pyo3::prelude::*;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The stop flag of a run and the first exception raised by its Python parts.
#[derive(Default)]
pub struct Hooks {
    stop: AtomicBool,
    failure: Mutex<Option<PyErr>>,
}

impl Hooks {
    /// The run's interrupt flag (Ctrl-C and a Python exception set it).
    pub fn flag(&self) -> &AtomicBool {
        &self.stop
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Keep the first exception and stop the run.
    pub fn fail(&self, e: PyErr) {
        let mut slot = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn take_failure(&self) -> Option<PyErr> {
        self.failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// A part's name as the `&'static str` the registry keeps (each distinct name once per
/// process).
fn intern(name: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.get(name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.insert(n);
    n
}

fn usage(py: Python<'_>, message: String) -> PyErr {
    crate::errors::usage(py, message)
}

/// The kind a Python object declares (`_microagg_kind` of the base classes), if any.
fn kind_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    match obj.getattr_opt("_microagg_kind")? {
        Some(k) => Ok(Some(k.extract()?)),
        None => Ok(None),
    }
}

/// The name a Python part reports (its `name` attribute).
fn part_name(obj: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    Ok(intern(&obj.getattr("name")?.extract::<String>()?))
}

/// The run's registry under construction, and the names given to Python objects.
struct RunRegistry<'py> {
    py: Python<'py>,
    reg: Registry,
    hooks: Arc<Hooks>,
}

impl<'py> RunRegistry<'py> {
    /// One kit part of the `microagg.Ils` list: a Python object (registered here) or a
    /// built-in part's spec `(name, params JSON)`.
    fn part(&mut self, item: &Bound<'py, PyAny>, want: &str) -> PyResult<PartSpec> {
        if let Ok((name, params)) = item.extract::<(String, String)>() {
            let params: Value = serde_json::from_str(&params)
                .map_err(|e| usage(self.py, format!("parameters of '{name}': {e}")))?;
            return Ok(PartSpec::new(&name, params));
        }
        let kind = kind_of(item)?;
        if kind.as_deref() != Some(want) {
            return Err(usage(
                self.py,
                format!(
                    "{} is not a microagg.{}: subclass it, or name a built-in part",
                    item.repr()?,
                    class_of(want)
                ),
            ));
        }
        let name = part_name(item)?;
        let obj: Py<PyAny> = item.clone().unbind();
        let hooks = &self.hooks;
        let reg = self.reg.clone();
        let added = match want {
            "perturb" => reg.with_perturb(PerturbInfo::dynamic(
                name,
                "a perturbation written in Python",
                factory::<dyn Perturb>(name, obj, hooks, |p| Box::new(PyPerturb(p))),
            )),
            "accept" => reg.with_accept(AcceptInfo::dynamic(
                name,
                "an acceptance rule written in Python",
                factory::<dyn Accept>(name, obj, hooks, |p| Box::new(PyAccept(p))),
            )),
            _ => reg.with_operator(OperatorInfo::dynamic(
                name,
                "a descent operator written in Python",
                factory::<dyn Operator>(name, obj, hooks, |p| Box::new(PyOperator::new(p))),
            )),
        };
        self.reg = added.map_err(|e| {
            usage(
                self.py,
                format!("{e}: give the Python part another `name` attribute"),
            )
        })?;
        Ok(PartSpec::new(name, Value::Object(Map::new())))
    }
}

fn class_of(kind: &str) -> &'static str {
    match kind {
        "perturb" => "Perturb",
        "accept" => "Accept",
        "operator" => "Operator",
        "refiner" => "Refiner",
        _ => "Ils",
    }
}

/// The registry factory of a Python part: a fresh adapter around the same object, made
/// under the GIL (a Python part takes no registry parameters: they are its attributes).
fn factory<T: ?Sized + 'static>(
    name: &'static str,
    obj: Py<PyAny>,
    hooks: &Arc<Hooks>,
    wrap: fn(PyPart) -> Box<T>,
) -> impl Fn(&Map<String, Value>) -> microagg::Result<Box<T>> + Send + Sync + 'static {
    let hooks = Arc::clone(hooks);
    move |given| {
        no_params(name, given)?;
        let part = Python::attach(|py| PyPart::new(py, name, &obj, &hooks)).map_err(py_build)?;
        Ok(wrap(part))
    }
}

fn no_params(name: &str, given: &Map<String, Value>) -> microagg::Result<()> {
    match given.keys().next() {
        None => Ok(()),
        Some(k) => Err(microagg::Error::usage(format!(
            "'{name}' is written in Python: set '{k}' on the object, not as a parameter"
        ))),
    }
}

fn py_build(e: PyErr) -> microagg::Error {
    microagg::Error::usage(format!("building a Python part: {e}"))
}

/// The pipeline `method` names: a string (`"mdav+ils"`) or a list of stages (names,
/// `microagg.Ils` objects, `microagg.Refiner` objects); `params` are the `--param`
/// strings of the named stages.
pub fn pipeline(
    py: Python<'_>,
    method: &Bound<'_, PyAny>,
    params: &[String],
    hooks: &Arc<Hooks>,
) -> PyResult<Pipeline> {
    let to_py = |e| crate::errors::to_py(py, e);
    if let Ok(spec) = method.extract::<String>() {
        return Pipeline::parse(&spec, params).map_err(to_py);
    }
    let items: Vec<Bound<'_, PyAny>> = method.extract().map_err(|_| {
        usage(
            py,
            "method: expected a string (\"mdav+ils\") or a list of stages".into(),
        )
    })?;
    if items.is_empty() {
        return Err(usage(py, "method: the list of stages is empty".into()));
    }
    let mut tables = group_param_args(params).map_err(to_py)?;
    let mut stages = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let stage = stage(py, item, &mut tables, hooks)?;
        let is_init = matches!(stage.maker, Maker::Init(_));
        if (i == 0) != is_init {
            let what = if is_init {
                "an initializer; only the first stage may be one"
            } else {
                "a refiner; start with an initializer (e.g. \"mdav\")"
            };
            return Err(usage(
                py,
                format!("method: stage {} ('{}') is {what}", i + 1, stage.name),
            ));
        }
        stages.push(stage);
    }
    if let Some(stray) = tables.keys().next() {
        return Err(usage(
            py,
            format!("params for '{stray}', which is not a stage of the pipeline"),
        ));
    }
    let spec = stages
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join("+");
    Ok(Pipeline { spec, stages })
}

/// One stage of a list-given pipeline.
fn stage(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    tables: &mut BTreeMap<String, Map<String, Value>>,
    hooks: &Arc<Hooks>,
) -> PyResult<StageSpec> {
    let to_py = |e| crate::errors::to_py(py, e);
    if let Ok(name) = item.extract::<String>() {
        if name.contains('+') {
            return Err(usage(
                py,
                format!("method: '{name}': one stage per list entry"),
            ));
        }
        let info = registry::find(&name).map_err(to_py)?;
        let given = tables.remove(&name).unwrap_or_default();
        return StageSpec::registered(&name, &info, &given).map_err(to_py);
    }
    match kind_of(item)?.as_deref() {
        Some("ils") => ils_stage(py, item, tables.remove("ils").unwrap_or_default(), hooks),
        Some("refiner") => {
            let name = part_name(item)?;
            let m: usize = item.getattr("neighbours")?.extract()?;
            let obj: Py<PyAny> = item.clone().unbind();
            let hooks = Arc::clone(hooks);
            let make = move || {
                let part = Python::attach(|py| PyPart::new(py, name, &obj, &hooks))
                    .expect("a Python object's handles are made under the GIL");
                Box::new(PyRefiner::new(part, m)) as Box<dyn microagg::method::Refiner>
            };
            Ok(StageSpec {
                name: name.to_string(),
                params: serde_json::json!({ "neighbours": m }),
                maker: Maker::Refine(Arc::new(make)),
                // Python code may draw from its rng handle: counted as random.
                deterministic: false,
                // Its moves are priced on the complete-data SSE.
                missing_cells: false,
            })
        }
        _ => Err(usage(
            py,
            format!(
                "method: {} is not a stage: give a method name, a microagg.Ils or a microagg.Refiner",
                item.repr()?
            ),
        )),
    }
}

/// A `microagg.Ils(perturb=[..], accept=.., operators=[..], **params)` stage: its flat
/// parameters (and `params["ils"]`) parsed as `ils`'s, its parts registered in a registry
/// for this run.
fn ils_stage(
    py: Python<'_>,
    item: &Bound<'_, PyAny>,
    mut flat: Map<String, Value>,
    hooks: &Arc<Hooks>,
) -> PyResult<StageSpec> {
    let to_py = |e| crate::errors::to_py(py, e);
    let own: String = item.getattr("_params_json")?.extract()?;
    let own: Map<String, Value> = serde_json::from_str(&own)
        .map_err(|e| usage(py, format!("microagg.Ils parameters: {e}")))?;
    flat.extend(own);
    let mut params: IlsParams = microagg::params::parse_params("ils", &flat).map_err(to_py)?;
    let mut run = RunRegistry {
        py,
        reg: (*registry::current()).clone(),
        hooks: Arc::clone(hooks),
    };
    let perturb: Vec<(Bound<'_, PyAny>, f64)> = item.getattr("perturb")?.extract()?;
    for (part, weight) in &perturb {
        let part = run.part(part, "perturb")?;
        params.perturb.push(PerturbSpec {
            part,
            weight: *weight,
        });
    }
    let accept = item.getattr("accept")?;
    if !accept.is_none() {
        params.accept = Some(run.part(&accept, "accept")?);
    }
    let operators: Vec<Bound<'_, PyAny>> = item.getattr("operators")?.extract()?;
    for o in &operators {
        let spec = run.part(o, "operator")?;
        params.operators.push(spec);
    }
    let reg = Arc::new(run.reg);
    params
        .check_with(&reg)
        .map_err(|e| usage(py, format!("microagg.Ils: {e}")))?;
    let json = serde_json::to_value(&params).expect("params serialise");
    let make = move || {
        Box::new(Ils::with_registry(params.clone(), Arc::clone(&reg)))
            as Box<dyn microagg::method::Refiner>
    };
    Ok(StageSpec {
        name: "ils".into(),
        params: json,
        maker: Maker::Refine(Arc::new(make)),
        deterministic: false,
        missing_cells: false,
    })
}

/// The exception `e` raised by Python code, with the best partition so far attached as
/// `_microagg_best = (labels as int64 bytes, sse)` (None when the run stopped before it
/// had one); `microagg.run` turns it into `best_labels` and `best_sse`.
pub fn with_best(py: Python<'_>, e: PyErr, best: Option<&microagg::partition::Partition>) -> PyErr {
    let attached = best.map(|p| (crate::data::label_bytes(py, p.labels()), p.sse()));
    // An exception object that takes no attributes is re-raised as it is.
    let _ = e.value(py).setattr("_microagg_best", attached);
    e
}
