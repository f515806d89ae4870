//! # Search trace
//!
//! An observer ([`Trace`]) that records a run's progress: lines of (seconds since the trace
//! was started, stage, step, current IL, best IL), written as CSV or JSON lines (by the file
//! extension: `.jsonl`/`.json` give JSON lines, anything else CSV), or kept in memory for run
//! records and benchmarks (time to target). It receives the executor's step events; a line is
//! kept when the best improved or at least `interval` seconds passed since the last one, and
//! at the end of every refiner stage, so a trace stays small. One trace per run: `microagg run
//! --trace FILE` passes one to its run, `experiment --trace` one to each run (on any number
//! of threads).
//!
//! ## Complexity
//! O(1) per step; nothing at all when no trace is passed.
//!
//! ## References
//! - None (engineering).

use super::observe::{Event, Observer};
use crate::data::Instance;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::time::Instant;

/// One trace line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TracePoint {
    pub seconds: f64,
    pub stage: String,
    pub step: u64,
    pub current_il: f64,
    pub best_il: f64,
}

enum Output {
    Csv(std::io::BufWriter<crate::output::OutputFile>),
    Json(std::io::BufWriter<crate::output::OutputFile>),
    Memory(Vec<TracePoint>),
}

/// The trace observer.
pub struct Trace {
    out: Output,
    start: Instant,
    interval: f64,
    last: f64,
    last_best: f64,
}

impl Trace {
    fn new(out: Output, interval: f64) -> Self {
        Trace {
            out,
            start: Instant::now(),
            interval,
            last: f64::NEG_INFINITY,
            last_best: f64::INFINITY,
        }
    }

    /// Trace to a file (CSV, or JSON lines for `.jsonl`/`.json`), written as the run goes
    /// (`crate::output::OutputFile::live`: links followed, devices and pipes written in
    /// place, `-` is standard output).
    pub fn to_file(path: &std::path::Path, interval: f64) -> crate::error::Result<Self> {
        let file = crate::output::OutputFile::live(path)?;
        let mut w = std::io::BufWriter::new(file);
        let json = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("jsonl") | Some("json")
        );
        if json {
            Ok(Trace::new(Output::Json(w), interval))
        } else {
            writeln!(w, "seconds,stage,step,current_il,best_il")
                .map_err(|e| crate::error::Error::io(path, e))?;
            Ok(Trace::new(Output::Csv(w), interval))
        }
    }

    /// Trace into memory (read back with [`Trace::points`] or [`Trace::finish`]).
    pub fn in_memory(interval: f64) -> Self {
        Trace::new(Output::Memory(Vec::new()), interval)
    }

    /// The points kept in memory (empty for a file trace).
    pub fn points(&self) -> &[TracePoint] {
        match &self.out {
            Output::Memory(v) => v,
            _ => &[],
        }
    }

    /// Stop tracing; flush a file, return the in-memory points (empty for files).
    pub fn finish(self) -> Vec<TracePoint> {
        match self.out {
            Output::Memory(v) => v,
            Output::Csv(mut w) | Output::Json(mut w) => {
                let _ = w.flush();
                Vec::new()
            }
        }
    }

    fn point(
        &mut self,
        inst: &Instance,
        stage: &str,
        step: u64,
        current: f64,
        best: f64,
        force: bool,
    ) {
        let t = self.start.elapsed().as_secs_f64();
        if !(force || best < self.last_best || t - self.last >= self.interval) {
            return;
        }
        self.last = t;
        self.last_best = best;
        let point = TracePoint {
            seconds: t,
            stage: stage.to_string(),
            step,
            current_il: inst.il(current),
            best_il: inst.il(best),
        };
        // A failing trace write must not abort the search: the trace is best effort. Lines
        // are flushed as written (at most one per interval or improvement), so that a trace
        // shows progress while the run goes on and survives a killed process.
        match &mut self.out {
            Output::Csv(w) => {
                let _ = writeln!(
                    w,
                    "{:.6},{},{},{:.10},{:.10}",
                    point.seconds, point.stage, point.step, point.current_il, point.best_il
                );
                let _ = w.flush();
            }
            Output::Json(w) => {
                if let Ok(line) = serde_json::to_string(&point) {
                    let _ = writeln!(w, "{line}");
                }
                let _ = w.flush();
            }
            Output::Memory(v) => v.push(point),
        }
    }
}

impl Observer for Trace {
    fn observe(&mut self, inst: &Instance, event: &Event) {
        match *event {
            Event::Step {
                stage,
                step,
                current_sse,
                best_sse,
            } => self.point(inst, stage, step, current_sse, best_sse, false),
            // Refiner stages (those with a stop reason) end with a line of their result.
            Event::StageEnd {
                stage,
                steps,
                sse,
                stop: Some(_),
                ..
            } => self.point(inst, stage, steps, sse, sse, true),
            _ => {}
        }
    }
}
