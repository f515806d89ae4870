//! # The split `run`
//!
//! [`run_cli`]: `microagg run` with `--strata`, `--blocks` or `--part`. It loads the data
//! with its strata columns, solves the units ([`super::solve_split`]), writes the labels (a
//! part file with a part) and, like an unsplit run, the whole file back through
//! [`crate::release`] (every input column, the run's replaced by the chosen aggregation,
//! optionally rounded, with the measures on request), then prints the record
//! ([`SplitRecord`], as text by [`super::text`]).
//!
//! ## Complexity
//! That of [`super::solve_split`], plus a linear pass for the released file (and O(n^2 d)
//! for `--measures`' record linkage).
//!
//! ## References
//! None.

use super::text::split_text;
use super::{
    first_appearance_labels, solve_split, write_part, Part, PartHeader, SplitArgs, SplitOutcome,
    SplitRecord, UnitSolver,
};
use crate::data::{self, ColumnSelection, Instance, StrataColumns};
use crate::error::{Error, Result};
use crate::output;
use crate::pipeline::Pipeline;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// What `run` needs for a split run.
pub(crate) struct SplitRun<'a> {
    pub data: &'a str,
    pub columns: &'a ColumnSelection,
    pub delimiter: u8,
    pub k: usize,
    pub pipeline: &'a Pipeline,
    pub seed: u64,
    pub time_limit: Option<f64>,
    pub max_steps: Option<u64>,
    pub labels_out: Option<&'a Path>,
    pub masked_out: Option<&'a Path>,
    /// The released file's options (`--aggregate`, `--round-to-input`, `--measures`).
    pub release: &'a crate::release::ReleaseArgs,
    /// `--missing` and `--missing-release` ([`crate::missing`]).
    pub missing: crate::missing::MissingPolicy,
    pub missing_release: crate::missing::MissingRelease,
    /// `--weights COLUMN`: every unit is solved with its records' weights (as an unsplit
    /// weighted run of its rows), and the record reports the weighted figures of the whole
    /// file.
    pub weights: Option<&'a str>,
    pub json: bool,
    pub interrupt: &'a AtomicBool,
}

/// `microagg run` with `--strata`, `--blocks` or `--part`: solve, write the labels (a part
/// file with a part), print the record. Returns false when an interrupt stopped the run
/// (everything is still written; see [`SplitOutcome::interrupted`]).
pub(crate) fn run_cli(split: &SplitArgs, r: &SplitRun<'_>) -> Result<bool> {
    let (tuning, part) = check_split_options(split, r)?;
    let strata_cols = split.strata_columns();
    if split.strata.is_some() && strata_cols.is_empty() {
        return Err(Error::usage("--strata: no column named"));
    }
    let (inst, strata) = load_split_data(r, &strata_cols)?;
    inst.check_k(r.k)?;
    if inst.has_missing() && split.blocks.is_some() {
        return Err(Error::usage(
            "--blocks: the data have missing cells (--missing ignore) and the border repair \
             assumes complete data; split them with --strata only",
        ));
    }
    let solver = UnitSolver {
        time_limit: r.time_limit,
        max_steps: r.max_steps,
        repair: split.block_repair,
        cut: split.block.block_cut,
        tuning,
        ..UnitSolver::new(&inst, r.pipeline, r.k, r.seed, r.interrupt)
    };
    let out = solve_split(&solver, strata.as_ref(), split.blocks, part)?;
    let labels = first_appearance_labels(inst.n, &out.groups);
    let split_name = split_name(split, &strata_cols);
    if let Some(path) = r.labels_out {
        write_split_labels(path, part, &inst, r, &split_name, &labels)?;
    }
    // The whole file back, as in an unsplit run (a part has no masked output: refused above).
    let release = match r.masked_out {
        Some(path) => Some(crate::release::release(
            path,
            &inst,
            r.delimiter,
            &whole_labels(&labels),
            r.release,
            r.missing_release,
            r.seed,
        )?),
        None => None,
    };
    let record = split_record(r, &inst, &out, &split_name, part, release);
    if r.json {
        output::println(&serde_json::to_string(&record).expect("record serialises"))?;
    } else {
        output::print(&split_text(&record, split.blocks.is_some()))?;
    }
    Ok(!out.interrupted)
}

/// The option checks that need no data: the border repair's tuning (returned, checked) and
/// `--part` (returned) with what it cannot go with.
fn check_split_options(
    split: &SplitArgs,
    r: &SplitRun<'_>,
) -> Result<(crate::blocks::RepairTuning, Option<Part>)> {
    let tuning = split.block.repair_tuning();
    tuning.check()?;
    if split.blocks.is_none() && tuning != Default::default() {
        return Err(Error::usage(
            "--block-slab / --block-approx tune the border repair of --blocks: give --blocks SIZE",
        ));
    }
    let part = Part::from_arg(split.part.as_deref(), "--part")?;
    if part.is_some() && r.labels_out.is_none() {
        return Err(Error::usage(
            "--part writes its labels to a part file: give --labels-out FILE",
        ));
    }
    if part.is_some() && r.masked_out.is_some() {
        return Err(Error::usage(
            "--masked-out needs every group: write it from the combined labels, not from a part",
        ));
    }
    if split.strata.is_none() && split.blocks.is_none() && part.is_some_and(|p| p.count > 1) {
        return Err(Error::usage(
            "--part: nothing to split; give --strata COLUMN or --blocks SIZE",
        ));
    }
    Ok((tuning, part))
}

/// The data with their strata columns, weighted with `--weights`.
fn load_split_data(
    r: &SplitRun<'_>,
    strata_cols: &[String],
) -> Result<(Instance, Option<StrataColumns>)> {
    match r.weights {
        Some(w) => {
            data::load_weighted_split(r.data, r.columns, r.delimiter, strata_cols, r.missing, w)
        }
        None => {
            // Nothing reads the original values without a released file, missing cells or a
            // stage that reads them: standardised in place, held once (the peak memory).
            let z_only = r.pipeline.reads_only_z(r.masked_out.is_some(), false);
            let options = data::LoadOptions::for_run(r.missing, z_only);
            data::load_missing(r.data, r.columns, r.delimiter, strata_cols, options)
        }
    }
}

/// How the run was split, as the record and a part file's header name it: `strata:COLUMNS`,
/// `blocks:SIZE[:rule]`, or both joined by `;`.
fn split_name(split: &SplitArgs, strata_cols: &[String]) -> String {
    [
        split
            .strata
            .as_ref()
            .map(|_| format!("strata:{}", strata_cols.join(","))),
        // The kd rule keeps the name part files had before the cut rule was chosen.
        split.blocks.map(|b| match split.block.block_cut {
            crate::blocks::CutRule::Kd => format!("blocks:{b}"),
            rule => format!("blocks:{b}:{rule:?}").to_lowercase(),
        }),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(";")
}

/// Every row's label, for a whole (not a part) run, where every row has one.
fn whole_labels(labels: &[Option<usize>]) -> Vec<usize> {
    labels.iter().map(|l| l.expect("a whole run")).collect()
}

/// `--labels-out`: a part file with `--part`, else a plain labels file.
fn write_split_labels(
    path: &Path,
    part: Option<Part>,
    inst: &Instance,
    r: &SplitRun<'_>,
    split_name: &str,
    labels: &[Option<usize>],
) -> Result<()> {
    let Some(p) = part else {
        return crate::labels::write_labels(path, &whole_labels(labels));
    };
    let header = PartHeader {
        part: p.index,
        parts: p.count,
        n: inst.n,
        k: r.k,
        pipeline: r.pipeline.spec.clone(),
        params: serde_json::to_value(&r.pipeline.stages).expect("serialises"),
        seed: r.seed,
        split: split_name.to_string(),
        instance_sha256: inst.sha256.clone(),
        weights: inst.weights.as_ref().map(PartHeader::weights_of),
    };
    write_part(path, &header, labels)
}

/// The record of the run: the groups solved here against the whole file's SST.
fn split_record<'a>(
    r: &SplitRun<'a>,
    inst: &'a Instance,
    out: &'a SplitOutcome,
    split_name: &'a str,
    part: Option<Part>,
    release: Option<crate::release::ReleaseRecord>,
) -> SplitRecord<'a> {
    let holes = inst.has_missing();
    let sse: f64 = out
        .groups
        .iter()
        .map(|m| {
            if holes {
                crate::missing::group_sse(inst, m)
            } else {
                microagg_solvers::sse::group_sse(&inst.z, inst.d, m)
            }
        })
        .sum();
    let sizes = out.groups.iter().map(Vec::len);
    SplitRecord {
        method: &r.pipeline.spec,
        instance: &inst.name,
        instance_sha256: &inst.sha256,
        n: inst.n,
        d: inst.d,
        k: r.k,
        seed: r.seed,
        split: split_name,
        part,
        units: out.units,
        units_here: out.units_here,
        rows_here: out.groups.iter().map(Vec::len).sum(),
        sse,
        sst: inst.sst,
        il: inst.il(sse),
        groups: out.groups.len(),
        min_group_size: sizes.clone().min().unwrap_or(0),
        max_group_size: sizes.max().unwrap_or(0),
        seconds: out.seconds,
        stages: &out.stages,
        border_repair: (!out.repair.is_empty()).then_some(&out.repair[..]),
        interrupted: out.interrupted,
        unsolved_units: &out.unsolved,
        release,
        missing: inst.missing_record(r.masked_out.map(|_| r.missing_release)),
        weights: inst.weights.as_ref().and_then(|w| {
            crate::weighted::WeightedIl::of(
                inst,
                crate::weighted::weighted_sse_of_groups(inst, &w.values, &out.groups),
                Some(crate::record::weighted_objective(&r.pipeline.stages)),
            )
        }),
        version: env!("CARGO_PKG_VERSION"),
    }
}
