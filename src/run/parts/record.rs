//! # The record of a split run
//!
//! [`SplitRecord`]: what `run --json` prints for a run split by `--strata`, `--blocks` or
//! `--part` ([`super::run_cli`]). It is not a [`crate::record::Record`] (a split run has
//! units, parts and a border repair instead of one pipeline outcome with bounds), so the
//! shipped schema describes the two as the alternatives of one run record
//! ([`crate::schema`]).
//!
//! ## Complexity
//! A plain record.
//!
//! ## References
//! None.

use super::{Part, StageTotal};
use crate::blocks::RepairStats;
use schemars::JsonSchema;
use serde::Serialize;

/// The record of a split run (`run --strata/--blocks/--part --json`).
#[derive(Serialize, JsonSchema)]
pub(crate) struct SplitRecord<'a> {
    /// The pipeline (`--method`).
    pub method: &'a str,
    pub instance: &'a str,
    pub instance_sha256: &'a str,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub seed: u64,
    /// How the run was split: `strata:COLUMNS`, `blocks:SIZE`, or both joined by `;`.
    pub split: &'a str,
    /// `--part I/N`, or null for a whole run.
    pub part: Option<Part>,
    /// Units (strata, or blocks with `--blocks`) of the whole file.
    pub units: usize,
    /// Units solved by this run (all of them without `--part`).
    pub units_here: usize,
    /// Rows of the units solved here.
    pub rows_here: usize,
    /// SSE of the groups solved here (over observed cells with `--missing ignore`).
    pub sse: f64,
    /// SST of the whole file.
    pub sst: f64,
    /// 100 SSE / SST, against the whole file's SST.
    pub il: f64,
    pub groups: usize,
    pub min_group_size: usize,
    pub max_group_size: usize,
    pub seconds: f64,
    /// Each pipeline stage summed over the units.
    pub stages: &'a [StageTotal],
    /// `--blocks`: what the border repair did (absent without blocks). Objects of
    /// `blocks::RepairStats` (mode, cuts, improved, pooled_records, sse_before, sse_after,
    /// seconds, interrupted), described here as objects only: the type lives with the
    /// blocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<Vec<serde_json::Map<String, serde_json::Value>>>")]
    pub border_repair: Option<&'a [RepairStats]>,
    /// Stopped by a signal (the labels are still complete and feasible).
    pub interrupted: bool,
    /// Units grouped by `super::fallback_groups` because the interrupt came before their
    /// initializer finished.
    pub unsolved_units: &'a [String],
    /// The released file (`--masked-out`), as in an unsplit run's record.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<crate::release::ReleaseRecord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<crate::missing::MissingRecord>,
    /// `--weights`: the weighted SSE of the groups (of the part), the weighted SST of the
    /// whole file about its weighted mean, and the weighted IL, as in an unsplit run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weights: Option<crate::weighted::WeightedIl>,
    /// The crate version.
    pub version: &'a str,
}
