//! # The record of a pipeline run
//!
//! [`RunRecord`] is what `microagg run` reports: the pipeline, the instance, the partition's
//! SSE and IL, each stage, the budget, and, with `--bound`, the bound and the gap. Its JSON
//! form is `run --json`; [`RunRecord::text`] is the text form.
//!
//! ## Complexity
//! Linear in the stages and trace lines.
//!
//! ## References
//! None.

use crate::pipeline::{StageRecord, StageSpec};
use crate::search::trace::TracePoint;
use serde::Serialize;

/// The JSON record of `microagg run`.
#[derive(Serialize)]
pub struct RunRecord<'a> {
    pub method: &'a str,
    pub instance: &'a str,
    pub source: &'a str,
    pub instance_sha256: &'a str,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub seed: u64,
    pub sse: f64,
    pub sst: f64,
    pub il: f64,
    pub groups: usize,
    pub min_group_size: usize,
    pub max_group_size: usize,
    pub seconds: f64,
    pub time_limit: Option<f64>,
    /// Step budget of every refiner stage (`--max-steps`); with it and no time limit the
    /// run repeats bit for bit.
    pub max_steps: Option<u64>,
    /// True when a signal (Ctrl-C, SIGTERM, SIGHUP) stopped the run: the partition is the
    /// best found until then.
    pub interrupted: bool,
    pub params: &'a [StageSpec],
    pub stages: &'a [StageRecord],
    /// Present with `--bound`: the bound, its IL, whether it is certified, and the gap
    /// 100 (SSE - LB) / LB in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub il_lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_certified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_percent: Option<f64>,
    /// Why a requested bound was not computed (the run was interrupted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_skipped: Option<&'a str>,
    /// With `--trace FILE`: the trace's lines, as in experiment records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<TracePoint>>,
    /// With `--masked-out`: the released file, its aggregation and the IL of its values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<crate::release::ReleaseRecord>,
    pub version: &'a str,
    pub git_commit: &'a str,
}

impl RunRecord<'_> {
    /// One JSON object (no newline).
    pub fn json(&self) -> String {
        serde_json::to_string(self).expect("record serialises")
    }

    /// The text form: a summary line, one line per stage, the bound and why it was
    /// skipped. `signal` names the signal that interrupted the run, if it was.
    pub fn text(&self, signal: &str) -> String {
        let mut text = format!(
            "{} on {} (n={}, d={}), k={}: SSE {:.6} IL {:.6} % in {} groups of {}..{} records, {:.3} s{}\n",
            self.method,
            self.instance,
            self.n,
            self.d,
            self.k,
            self.sse,
            self.il,
            self.groups,
            self.min_group_size,
            self.max_group_size,
            self.seconds,
            if self.interrupted {
                format!(" (interrupted by {signal}: best partition so far)")
            } else {
                String::new()
            }
        );
        for s in self.stages {
            text += &format!(
                "  stage {:<20} IL {:.6} %  {:.3} s\n",
                s.name, s.il, s.seconds
            );
        }
        if let (Some(method), Some(il_lb), Some(certified)) =
            (self.bound_method, self.il_lower_bound, self.bound_certified)
        {
            text += &format!(
                "  bound {:<20} IL >= {:.6} %  ({}certified), gap {} %\n",
                method,
                il_lb,
                if certified { "" } else { "not " },
                self.gap_percent
                    .map_or("n/a".to_string(), |g| format!("{g:.4}"))
            );
        }
        if let Some(why) = self.bound_skipped {
            text += &format!("  bound skipped: {why}\n");
        }
        if let Some(r) = &self.release {
            text += &format!(
                "  released {} ({}, {}{}): IL of the released values {:.6} %\n",
                r.file,
                r.layout,
                r.aggregation,
                if r.rounded_to_input {
                    ", rounded to the input's decimals"
                } else {
                    ""
                },
                r.il_released
            );
        }
        text
    }
}
