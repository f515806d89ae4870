//! # One run of an experiment and its record
//!
//! [`execute`] runs one pipeline on one case with the run's seed (single-threaded, with an
//! optional step trace that repeats with the run), checks the partition, and builds the run
//! record: the case's bounds and gaps, the library reference, and with `measures` the
//! release the partition implies.
//!
//! ## Complexity
//! The pipeline's cost; O(n d) for the implied release.
//!
//! ## References
//! None.

use super::super::expand::{Plan, Run};
use super::super::record::{BoundResult, Record, RunSeeds, StageParams, StageResult};
use crate::error::{Error, Result};
use crate::library::Reference;
use crate::release::ReleaseRecord;
use crate::search::observe::Observer;
use crate::search::trace::Trace;
use std::sync::atomic::AtomicBool;

/// Execute one run and build its record.
pub(super) fn execute(
    plan: &Plan,
    run: &Run,
    case_bounds: &[BoundResult],
    reference: Option<&Reference>,
    interrupt: &AtomicBool,
) -> Result<Record> {
    let si = &plan.instances[run.instance];
    let inst = &si.inst;
    let rp = &plan.pipelines[run.pipeline];
    // A trace of new bests and stage ends only (no clock interval), so that the trace of
    // a run repeats with the run, whatever the number of workers.
    let mut trace = plan.suite.trace.then(|| Trace::in_memory(f64::INFINITY));
    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    if let Some(t) = trace.as_mut() {
        observers.push(t);
    }
    let out = rp.pipeline.run_observed(
        inst,
        run.k,
        run.seed,
        plan.suite.time_limit,
        plan.suite.max_steps,
        interrupt,
        &mut observers,
    )?;
    drop(observers);
    // Thinned by steps (not time), so it still repeats with the run.
    let trace = trace.map(|t| super::super::thin::thin(&t.finish()));
    let p = &out.partition;
    if !p.is_feasible(run.k) {
        return Err(Error::Algorithm {
            method: rp.label.clone(),
            message: "returned an infeasible partition".into(),
        });
    }
    let stages: Vec<StageResult> = out.stages.iter().map(StageResult::from).collect();
    if !(out.partition.sse().is_finite() && inst.sst.is_finite() && inst.sst > 0.0) {
        return Err(Error::Algorithm {
            method: rp.label.clone(),
            message: format!(
                "SSE {} against SST {}: not a finite information loss",
                out.partition.sse(),
                inst.sst
            ),
        });
    }
    let release = if plan.suite.measures {
        Some(implied_release(inst, p.labels())?)
    } else {
        None
    };
    let seeds = RunSeeds {
        base: plan.suite.seeds.base,
        run: run.seed,
        replicate: run.replicate,
        stages: stages.iter().map(|s| s.seed).collect(),
    };
    Ok(Record {
        suite: plan.suite.name.clone(),
        index: run.index,
        run_id: run.run_id.clone(),
        instance: si.spec.clone(),
        pipeline: rp.label.clone(),
        method: rp.pipeline.spec.clone(),
        params: rp.stages().iter().map(StageParams::of).collect(),
        seeds,
        deterministic: run.deterministic,
        time_limit: plan.suite.time_limit,
        max_steps: plan.suite.max_steps,
        bounds_requested: plan.bounds.iter().map(|b| b.name.clone()).collect(),
        seconds: out.seconds,
        trace,
        release,
        ..Record::of_partition(inst, run.k, p, stages, case_bounds.to_vec(), reference)
    })
}

/// `measures = true`: the release a partition implies (group means, no file written) with
/// its measures: `run --masked-out`'s figures without the file.
fn implied_release(inst: &crate::data::Instance, labels: &[usize]) -> Result<ReleaseRecord> {
    let (_, record) = crate::release::release_in_memory(
        inst,
        labels,
        crate::release::Aggregation::Mean,
        crate::missing::MissingRelease::Keep,
        true,
    )?;
    Ok(record)
}
