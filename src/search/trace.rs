//! # Search trace
//!
//! An optional record of a refinement's progress: lines of (seconds since the trace was
//! started, stage, step, current IL, best IL), written as CSV or JSON lines (by the file
//! extension: `.jsonl`/`.json` give JSON lines, anything else CSV), or kept in memory for
//! benchmarks (time to target). The executor ([`refine`](super::refine)) reports after every
//! step; a line is kept when the best improved or at least `interval` seconds passed since
//! the last one, so a trace stays small. One process-wide sink: `microagg run --trace FILE`
//! installs it for the duration of the run.
//!
//! ## Complexity
//! O(1) per step when no trace is installed (one atomic load).
//!
//! ## References
//! - None (engineering).

use crate::data::Instance;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// One trace line.
#[derive(Debug, Clone, serde::Serialize)]
pub struct TracePoint {
    pub seconds: f64,
    pub stage: String,
    pub step: u64,
    pub current_il: f64,
    pub best_il: f64,
}

enum Output {
    Csv(std::io::BufWriter<std::fs::File>),
    Json(std::io::BufWriter<std::fs::File>),
    Memory(Vec<TracePoint>),
}

struct Sink {
    out: Output,
    start: Instant,
    interval: f64,
    last: f64,
    last_best: f64,
}

static ACTIVE: AtomicBool = AtomicBool::new(false);
static SINK: Mutex<Option<Sink>> = Mutex::new(None);

fn install(out: Output, interval: f64) {
    let mut s = SINK.lock().unwrap_or_else(|e| e.into_inner());
    *s = Some(Sink {
        out,
        start: Instant::now(),
        interval,
        last: f64::NEG_INFINITY,
        last_best: f64::INFINITY,
    });
    ACTIVE.store(true, Ordering::Release);
}

/// Trace to a file (CSV, or JSON lines for `.jsonl`/`.json`).
pub fn to_file(path: &std::path::Path, interval: f64) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut w = std::io::BufWriter::new(file);
    let json = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("jsonl") | Some("json")
    );
    if json {
        install(Output::Json(w), interval);
    } else {
        writeln!(w, "seconds,stage,step,current_il,best_il")?;
        install(Output::Csv(w), interval);
    }
    Ok(())
}

/// Trace into memory (read back with [`finish`]).
pub fn to_memory(interval: f64) {
    install(Output::Memory(Vec::new()), interval);
}

/// Stop tracing; flush a file, return the in-memory points (empty for files).
pub fn finish() -> Vec<TracePoint> {
    ACTIVE.store(false, Ordering::Release);
    let mut s = SINK.lock().unwrap_or_else(|e| e.into_inner());
    match s.take().map(|s| s.out) {
        Some(Output::Memory(v)) => v,
        Some(Output::Csv(mut w)) | Some(Output::Json(mut w)) => {
            let _ = w.flush();
            Vec::new()
        }
        None => Vec::new(),
    }
}

/// Report a step (no-op unless a trace is installed).
#[inline]
pub fn observe(
    inst: &Instance,
    stage: &str,
    step: u64,
    current_sse: f64,
    best_sse: f64,
    force: bool,
) {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    let mut guard = SINK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(sink) = guard.as_mut() else {
        return;
    };
    let t = sink.start.elapsed().as_secs_f64();
    if !(force || best_sse < sink.last_best || t - sink.last >= sink.interval) {
        return;
    }
    sink.last = t;
    sink.last_best = best_sse;
    let point = TracePoint {
        seconds: t,
        stage: stage.to_string(),
        step,
        current_il: inst.il(current_sse),
        best_il: inst.il(best_sse),
    };
    // A failing trace write must not abort the search: the trace is best effort. Lines are
    // flushed as written (at most one per interval or improvement), so that a trace shows
    // progress while the run goes on and survives a killed process.
    match &mut sink.out {
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
