//! # Functions
//!
//! One binding per high-level entry point of the library: [`run`] (a pipeline from its
//! method string, with an optional bound after it, as `microagg run --bound`), [`bound`],
//! [`check`], [`solve_exact`] (as `microagg solve-exact`: MDAV's partition as the starting
//! upper bound), [`methods`] (the registry, as `microagg list --json`), [`experiment`]
//! (a suite file through the experiment runner) and [`masked`]. Each returns JSON text
//! (and labels as int64 bytes) that the Python side turns into its result objects; every
//! solve runs off the GIL through [`crate::stop::interruptible`].
//!
//! ## Complexity
//! That of the library call, plus O(n) to return labels.
//!
//! ## References
//! None.

use crate::data::{f64_bytes, label_bytes, labels_from_bytes, Data};
use crate::errors::{to_py, usage};
use crate::kit::{self, Hooks};
use crate::stop::interruptible;
use microagg::bound as lib_bound;
use microagg::progress::{Meter, Show};
use microagg::record::{Record, SingleRun};
use microagg::search::observe::Observer;
use microagg::search::trace::Trace;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn check_limit(py: Python<'_>, time_limit: Option<f64>) -> PyResult<()> {
    match time_limit {
        Some(t) => {
            microagg::search::check_time_limit(t).map_err(|e| usage(py, format!("time_limit {e}")))
        }
        None => Ok(()),
    }
}

/// Run pipeline `method` on `data`; returns (record JSON, labels, released values or
/// None). A Ctrl-C during the run returns the best partition so far, marked
/// `"interrupted": true` (the bound is then skipped, as in the CLI); a Ctrl-C before the
/// first partition exists re-raises. With `release` the released values (aggregation
/// `aggregate`, missing cells by `missing_release`, `measures` on request) are computed in
/// memory, as `run --masked-out` computes them before writing (`release::release_in_memory`).
#[pyfunction]
#[pyo3(signature = (data, k, method, seed, time_limit, max_steps, bound_name, params, trace, trace_interval, release=false, aggregate=None, missing_release="keep", measures=false, progress=false))]
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    data: &Data,
    k: usize,
    method: &Bound<'py, PyAny>,
    seed: u64,
    time_limit: Option<f64>,
    max_steps: Option<u64>,
    bound_name: Option<&str>,
    params: Vec<String>,
    trace: bool,
    trace_interval: f64,
    release: bool,
    aggregate: Option<&str>,
    missing_release: &str,
    measures: bool,
    progress: bool,
) -> PyResult<(String, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>)> {
    use microagg::missing::MissingRelease;
    use microagg::release::Aggregation;
    check_limit(py, time_limit)?;
    if max_steps == Some(0) {
        return Err(usage(py, "max_steps 0: must be at least 1"));
    }
    let missing_release = match missing_release {
        "keep" => MissingRelease::Keep,
        "fill" => MissingRelease::Fill,
        other => {
            return Err(usage(
                py,
                format!("missing_release={other:?}: expected 'keep' or 'fill'"),
            ))
        }
    };
    if !release && (aggregate.is_some() || measures || missing_release == MissingRelease::Fill) {
        return Err(usage(
            py,
            "aggregate, measures and missing_release apply to the released values: pass release=True",
        ));
    }
    let agg = aggregate
        .map_or(Ok(Aggregation::Mean), Aggregation::parse)
        .map_err(|e| to_py(py, e))?;
    // The CLI's refusals, before anything runs (docs/weights.md, docs/missing-values.md).
    if let (Some(b), true) = (bound_name, data.inst.weights.is_some()) {
        check_weighted_bound(py, "bound", b)?;
    }
    if let (Some(b), true) = (bound_name, data.inst.has_missing()) {
        return Err(usage(
            py,
            format!("bound={b:?}: the data have missing cells and no bound covers the SSE over observed cells; pass bound=None"),
        ));
    }
    if data.inst.weights.is_some() && !matches!(agg, Aggregation::Mean | Aggregation::Median) {
        return Err(usage(
            py,
            format!("aggregate={:?} with weights: only the mean and the median have a weighted version; use 'mean' or 'median'", agg.name()),
        ));
    }
    // Validate everything before running, as the CLI does.
    let hooks = Arc::new(Hooks::default());
    let pipeline = kit::pipeline(py, method, &params, &hooks)?;
    let method = pipeline.spec.as_str();
    // As `run --bound`: the bound's defaults, its time limit the run's.
    let bound = bound_name
        .map(|b| lib_bound::prepare(b, &Default::default(), time_limit))
        .transpose()
        .map_err(|e| to_py(py, e))?;
    let inst = data.inst.clone();
    inst.check_k(k).map_err(|e| to_py(py, e))?;
    let done = interruptible(py, hooks.flag(), |flag| {
        // One trace observer for this run only (issue 19): concurrent runs never mix.
        let mut tracer = trace.then(|| Trace::in_memory(trace_interval));
        // Progress on stderr when asked (the Python side decides: a terminal or progress=True).
        let meter = Meter::start(&format!("run {method}"), inst.sst, shown(progress));
        let mut ticker = meter.shown().then(|| meter.observer());
        let mut observers: Vec<&mut dyn Observer> = Vec::new();
        if let Some(t) = tracer.as_mut() {
            observers.push(t);
        }
        observers.extend(ticker.as_mut().map(|t| t as &mut dyn Observer));
        let out =
            pipeline.run_observed(&inst, k, seed, time_limit, max_steps, flag, &mut observers)?;
        drop(observers);
        meter.finish();
        let points = tracer.map(Trace::finish).unwrap_or_default();
        // As the CLI: the bound after the run (not within its time limit), skipped after
        // a signal.
        let (lb, skipped) = lib_bound::after_run(bound.as_ref(), &inst, k, shown(progress), flag)?;
        // With weights, as `run --bound nn|colgen --weights`: the weighted bound on the
        // weighted SSE beside the unweighted one (P41, P43; colgen's master also starts from
        // this run's partition), skipped like it.
        let weighted = match (&lb, skipped, inst.weights.is_some()) {
            (Some(b), None, true) => Some(lib_bound::compute_weighted(
                &b.method,
                &inst,
                k,
                time_limit,
                Some(out.partition.labels()),
                flag,
            )?),
            _ => None,
        };
        Ok::<_, microagg::Error>((out, points, lb, skipped, weighted))
    })?;
    if let Some(failure) = hooks.take_failure() {
        // An exception in Python code: raised with the best partition so far.
        let best = done.value.as_ref().ok().map(|v| &v.0.partition);
        return Err(kit::with_best(py, failure, best));
    }
    let (out, points, lb, bound_skipped, weighted) = match done.value {
        Ok(v) => v,
        // Nothing to return: the KeyboardInterrupt itself is the answer to Ctrl-C.
        Err(e) => return Err(done.signal.unwrap_or_else(|| to_py(py, e))),
    };
    let interrupted = done.signal.is_some();
    // The one run record of the workbench (`microagg run --json`, experiment records),
    // schema/run-record.json.
    let mut record = Record::single_run(SingleRun {
        inst: &inst,
        method,
        k,
        seed,
        time_limit,
        max_steps,
        params: &pipeline.stages,
        outcome: &out,
        bound_requested: bound_name,
        bound_params: Default::default(),
        bound: lb.as_ref(),
        bound_skipped,
        interrupted,
        trace: trace.then_some(points),
        release: None,
    });
    if let (Some(w), Some(wb)) = (record.weights.as_mut(), &weighted) {
        w.bound = Some(microagg::weighted::WeightedBound::of(wb, w.sse));
    }
    let p = &out.partition;
    let mut released = None;
    if release {
        let (values, rec) =
            microagg::release::release_in_memory(&inst, p.labels(), agg, missing_release, measures)
                .map_err(|e| to_py(py, e))?;
        record.release = Some(rec);
        released = Some(f64_bytes(py, &values));
    }
    record.missing = inst.missing_record(release.then_some(missing_release));
    let json = microagg::render::run::run_json(&record);
    Ok((json, label_bytes(py, p.labels()), released))
}

/// A bound with weights must have a weighted version (the registry's `weighted`: nn, P41;
/// colgen, P43); the refusal names those that do. `arg` is the Python argument.
fn check_weighted_bound(py: Python<'_>, arg: &str, name: &str) -> PyResult<()> {
    lib_bound::check_name(name).map_err(|e| to_py(py, e))?;
    if lib_bound::weighted_version(name).is_ok() {
        return Ok(());
    }
    let with: Vec<String> = lib_bound::BOUNDS
        .iter()
        .filter(|b| b.has_weighted_version())
        .map(|b| {
            format!(
                "{:?} ({})",
                b.name,
                b.weighted.map(|w| w.proof).unwrap_or_default()
            )
        })
        .collect();
    Err(usage(
        py,
        format!(
            "{arg}={name:?} with weights: only {} have a weighted version on the weighted SSE; \
             {name:?} bounds the unweighted SSE (docs/weights.md). Pass one of those, or leave \
             out the weights",
            with.join(" and ")
        ),
    ))
}

/// Lower bound `method` on the optimal SSE (JSON of the library's `BoundOutcome`) with the
/// bound's registry parameters `params` (a JSON object, the Python keywords), as `microagg
/// bound --param`; with weights the weighted bound on the weighted SSE, as `microagg bound
/// --weights` (which takes no parameters besides the time limit). The labels of the best
/// partition the bound found (`auto`, `bnp`), else None.
#[pyfunction]
#[pyo3(signature = (data, k, method, time_limit, params="{}", progress=false))]
pub fn bound<'py>(
    py: Python<'py>,
    data: &Data,
    k: usize,
    method: &str,
    time_limit: Option<f64>,
    params: &str,
    progress: bool,
) -> PyResult<(String, Option<Bound<'py, PyBytes>>)> {
    check_limit(py, time_limit)?;
    let given: serde_json::Map<String, Value> = serde_json::from_str(params)
        .map_err(|e| usage(py, format!("bound {method:?}: parameters: {e}")))?;
    let weighted = data.inst.weights.is_some();
    let prepared = if weighted {
        check_weighted_bound(py, "method", method)?;
        if let Some(key) = given.keys().next() {
            return Err(usage(
                py,
                format!("{key}= does not apply to the weighted {method:?} bound: it has no weighted version"),
            ));
        }
        None
    } else {
        Some(lib_bound::prepare(method, &given, time_limit).map_err(|e| to_py(py, e))?)
    };
    if data.inst.has_missing() {
        return Err(usage(
            py,
            format!("bound {method:?}: the data have missing cells and no bound covers the SSE over observed cells"),
        ));
    }
    let inst = data.inst.clone();
    let flag = AtomicBool::new(false);
    let done = interruptible(py, &flag, |flag| match &prepared {
        Some(b) => lib_bound::compute_prepared(b, &inst, k, shown(progress), flag),
        None => lib_bound::compute_weighted(method, &inst, k, time_limit, None, flag),
    })?;
    let b = match done.value {
        Ok(b) => b,
        Err(e) => return Err(done.signal.unwrap_or_else(|| to_py(py, e))),
    };
    let mut v = serde_json::to_value(&b).expect("bound serialises");
    v["interrupted"] = done.signal.is_some().into();
    v["k"] = k.into();
    v["sst"] = inst.sst.into();
    let labels = b.incumbent.as_ref().map(|i| label_bytes(py, &i.labels));
    Ok((v.to_string(), labels))
}

/// The library's independent check of `labels` (JSON of its `CheckReport`).
#[pyfunction]
pub fn check(py: Python<'_>, data: &Data, k: usize, labels: &[u8]) -> PyResult<String> {
    let labels = labels_from_bytes(py, labels)?;
    data.inst.check_k(k).map_err(|e| to_py(py, e))?;
    let report =
        microagg::labels::check_labels(&data.inst, k, &labels).map_err(|e| to_py(py, e))?;
    Ok(serde_json::to_string(&report).expect("report serialises"))
}

/// The microaggregated values (original units, n*d float64 bytes) of `labels`.
#[pyfunction]
pub fn masked<'py>(py: Python<'py>, data: &Data, labels: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let labels = labels_from_bytes(py, labels)?;
    let values = if data.inst.has_missing() {
        // The means over each group's observed cells, a missing cell kept missing: the path
        // of `Result.released` (a plain mean would take NaN from the holes).
        microagg::release::release_in_memory(
            &data.inst,
            &labels,
            microagg::release::Aggregation::Mean,
            microagg::missing::MissingRelease::Keep,
            false,
        )
        .map(|(values, _)| values)
    } else {
        microagg::labels::masked_values(&data.inst, &labels)
    }
    .map_err(|e| to_py(py, e))?;
    Ok(f64_bytes(py, &values))
}

/// The exact optimum with its proof status, as `microagg solve-exact`.
#[pyfunction]
#[pyo3(signature = (data, k, method, time_limit))]
pub fn solve_exact<'py>(
    py: Python<'py>,
    data: &Data,
    k: usize,
    method: &str,
    time_limit: Option<f64>,
) -> PyResult<(String, Bound<'py, PyBytes>)> {
    use microagg_solvers::exact::{self, ExactMethod};
    check_limit(py, time_limit)?;
    let exact_method = ExactMethod::parse(method).ok_or_else(|| {
        usage(
            py,
            format!("method {method:?}: expected auto, subset-dp or set-partitioning"),
        )
    })?;
    let inst = data.inst.clone();
    inst.check_k(k).map_err(|e| to_py(py, e))?;
    let flag = AtomicBool::new(false);
    let done = interruptible(py, &flag, |flag| {
        microagg::exact::solve_from_mdav(&inst, k, exact_method, time_limit, flag)
    })?;
    let (s, seconds) = match done.value {
        Ok(v) => v,
        Err(e) => return Err(done.signal.unwrap_or_else(|| to_py(py, e))),
    };
    let v = json!({
        "n": inst.n,
        "d": inst.d,
        "k": k,
        "sse": s.sse,
        "sst": inst.sst,
        "il": inst.il(s.sse),
        "groups": s.labels.iter().max().map_or(0, |m| m + 1),
        "proven_optimal": s.proven_optimal,
        "lower_bound": s.lower_bound,
        "il_lower_bound": lib_bound::il_lower_bound(&inst, s.lower_bound),
        "method": s.method.name(),
        "seconds": seconds,
        "time_limit": time_limit,
        "nodes": s.nodes,
        "columns": s.columns,
        "cg_iterations": s.cg_iterations,
        "lp_bound": s.lp_bound,
        "branch_nodes": s.branch_nodes,
        "proof_rel_gap": exact::PROOF_REL_GAP,
        "note": s.note,
        "interrupted": done.signal.is_some(),
    });
    Ok((v.to_string(), label_bytes(py, &s.labels)))
}

/// The method registry, as `microagg list --json`.
#[pyfunction]
pub fn methods() -> String {
    Value::Array(microagg::render::list::methods_json()).to_string()
}

/// Run the suite file `suite` with the experiment runner; returns its records (JSON list)
/// and whether Ctrl-C stopped it early (finished runs are kept, as in the CLI).
#[pyfunction]
#[pyo3(signature = (suite, out, jobs, resume, progress))]
pub fn experiment(
    py: Python<'_>,
    suite: &str,
    out: Option<std::path::PathBuf>,
    jobs: usize,
    resume: bool,
    progress: bool,
) -> PyResult<(String, bool)> {
    use microagg::experiment::{self as exp, Plan, Suite};
    let suite = Suite::load(std::path::Path::new(suite)).map_err(|e| to_py(py, e))?;
    let plan = Plan::new(suite).map_err(|e| to_py(py, e))?;
    let opts = exp::RunOptions {
        out,
        jobs: jobs.max(1),
        shard: None,
        resume,
        progress: exp::Progress::from_show(shown(progress)),
    };
    let flag = AtomicBool::new(false);
    let done = interruptible(py, &flag, |flag| exp::run_plan(&plan, &opts, flag))?;
    let summary = match done.value {
        Ok(s) => s,
        Err(e) => return Err(done.signal.unwrap_or_else(|| to_py(py, e))),
    };
    let records: Vec<Value> = summary.records.iter().map(exp::record::to_value).collect();
    Ok((Value::Array(records).to_string(), summary.interrupted))
}

/// Progress shown (Python decided: stderr is a terminal, or `progress=True`) or not.
fn shown(progress: bool) -> Show {
    if progress {
        Show::Always
    } else {
        Show::Never
    }
}

/// The figure style of a size preset (`one-column`, `two-columns`, `slide`) and font size,
/// as `microagg report --style`: JSON with the width in inches, the font size and the line
/// width and marker radius in points, and the palette.
#[pyfunction]
#[pyo3(signature = (size, font_pt=None))]
pub fn figure_style(py: Python<'_>, size: &str, font_pt: Option<f64>) -> PyResult<String> {
    use microagg::report::style::{self, FigureStyle};
    let st = FigureStyle::of(parse_size(py, size)?, font_pt, false);
    st.check().map_err(|e| usage(py, e))?;
    let pt = |px: f64| px * 72.0 / microagg::report::export::DPI;
    let palette: Vec<String> = style::PALETTE
        .iter()
        .map(|c| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2))
        .collect();
    Ok(json!({
        "width_in": st.size.width_in(),
        "font_pt": st.font_pt,
        "line_pt": pt(st.line() as f64),
        "marker_pt": pt(2.0 * st.mark() as f64),
        "palette": palette,
    })
    .to_string())
}

fn parse_size(py: Python<'_>, size: &str) -> PyResult<microagg::report::style::Size> {
    use microagg::report::style::Size;
    match size {
        "one-column" => Ok(Size::OneColumn),
        "two-columns" => Ok(Size::TwoColumns),
        "slide" => Ok(Size::Slide),
        _ => Err(usage(
            py,
            format!("style={size:?}: expected 'one-column', 'two-columns' or 'slide'"),
        )),
    }
}

/// `microagg report DIR`: the table (format `md`, `csv` or `latex`, optionally only
/// `columns`) and the figures written into DIR/figures in the given style; JSON with
/// `table`, `figures` (paths), `figures_error` and `notes`.
#[pyfunction]
#[pyo3(signature = (dir, format, columns, size, font_pt, title))]
pub fn report(
    py: Python<'_>,
    dir: std::path::PathBuf,
    format: &str,
    columns: Option<Vec<String>>,
    size: &str,
    font_pt: Option<f64>,
    title: bool,
) -> PyResult<String> {
    use microagg::report::{self, style::FigureStyle, Format, ReportOptions};
    let opts = ReportOptions {
        format: Format::parse(format).map_err(|e| to_py(py, e))?,
        per_run: false,
        columns,
        style: FigureStyle::of(parse_size(py, size)?, font_pt, title),
    };
    let (table, figures, notes) = report::report_with(&dir, &opts).map_err(|e| to_py(py, e))?;
    let (files, error) = match figures {
        Ok(f) => (f, None),
        Err(e) => (Vec::new(), Some(e.to_string())),
    };
    let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    Ok(
        json!({"table": table, "figures": files, "figures_error": error, "notes": notes})
            .to_string(),
    )
}
