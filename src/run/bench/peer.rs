//! # Side by side with sdcMicro's C++ MDAV
//!
//! `microagg bench --peer-sdcmicro BIN` times the bench's methods next to sdcMicro's
//! `src/Mdav.cpp`, built unchanged behind the driver of `../shared/peers/sdcmicro/` (which
//! z-scores a CSV, times only the `Mdav` call in thread CPU seconds, prints `call_s=..
//! cpu_s=.. IL=..` per call and writes one group label per row: rows with equal centroid
//! rows). Rounds are interleaved (the peer, then every method of ours, again), so that a
//! change of load on a shared machine touches both sides alike; each side keeps its least
//! CPU time. Printed per case and method: our call and whole process, the peer's call,
//! the two ratios (peer call / ours), both ILs, and whether the partitions agree.
//!
//! Both sides read the case's raw values from one CSV written here (shortest round-trip
//! decimals, so the file holds the same doubles); the peer's labels merge groups whose centroid rows
//! are equal (duplicate records), so where the groups differ the comparison asks whether
//! the released files agree up to the order of identical records ([`compare_partitions`]).
//!
//! ## Complexity
//! The peer's and our methods' time, `rounds` times; O(n d) to write the CSV and compare.
//!
//! ## References
//! sdcMicro (Templ, Kowarik & Meindl 2015, J. Stat. Softw. 67(4)), `src/Mdav.cpp`.

use super::{case, least_call, whole_process, LARGE};
use crate::data::{self, ColumnSelection, Instance};
use crate::error::{Error, Result};
use crate::labels;
use crate::output;
use crate::pipeline::Pipeline;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// How our partition relates to the peer's labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agreement {
    /// The same groups.
    Same,
    /// Other groups, but the same released file up to the order of identical records: the
    /// same multiset of (record, its group's centroid) pairs. Identical records may trade
    /// groups, and groups with equal centroids may be merged (the peer's labels do so).
    SameRelease,
    /// This many records of the sorted pairs get another centroid.
    Differs(usize),
}

impl std::fmt::Display for Agreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Agreement::Same => f.write_str("same groups"),
            Agreement::SameRelease => f.write_str("same release (identical records swapped)"),
            Agreement::Differs(m) => write!(f, "differs: {m} records get another centroid"),
        }
    }
}

/// Compare our labels with the peer's (any label values, one per record): the same
/// groups; or else the same (record, centroid) pairs once both lists are sorted by the
/// record's values and then the centroid, centroids equal to a relative 1e-9 (the two
/// means are summed in other orders, merged groups over other sets; original units); or how many differ.
pub fn compare_partitions(inst: &Instance, ours: &[usize], peer: &[usize]) -> Agreement {
    let n = inst.n;
    if ours.len() != n || peer.len() != n {
        return Agreement::Differs(n);
    }
    if dense(ours) == dense(peer) {
        return Agreement::Same;
    }
    let (Ok(a), Ok(b)) = (released_pairs(inst, ours), released_pairs(inst, peer)) else {
        return Agreement::Differs(n);
    };
    let close = |u: &f64, v: &f64| (u - v).abs() <= 1e-9 * (1.0 + u.abs().max(v.abs()));
    let differing = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| x.0 != y.0 || !x.1.iter().zip(&y.1).all(|(u, v)| close(u, v)))
        .count();
    if differing == 0 {
        Agreement::SameRelease
    } else {
        Agreement::Differs(differing)
    }
}

/// Every record's values (as bits) with its group's mean (the released row,
/// [`labels::masked_values`]), sorted by both.
fn released_pairs(inst: &Instance, labels: &[usize]) -> Result<Vec<(Vec<u64>, Vec<f64>)>> {
    let d = inst.d;
    let released = labels::masked_values(inst, labels)?;
    let mut pairs: Vec<(Vec<u64>, Vec<f64>)> = (0..inst.n)
        .map(|i| {
            (
                inst.raw[i * d..(i + 1) * d]
                    .iter()
                    .map(|v| v.to_bits())
                    .collect(),
                released[i * d..(i + 1) * d].to_vec(),
            )
        })
        .collect();
    pairs.sort_by(|x, y| {
        x.0.cmp(&y.0).then_with(|| {
            x.1.iter()
                .zip(&y.1)
                .map(|(u, v)| u.total_cmp(v))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
    });
    Ok(pairs)
}

/// Labels renumbered 0.. in order of first appearance.
fn dense(labels: &[usize]) -> Vec<usize> {
    let mut map = std::collections::HashMap::new();
    labels
        .iter()
        .map(|&l| {
            let next = map.len();
            *map.entry(l).or_insert(next)
        })
        .collect()
}

/// One call series of the peer: its least CPU seconds and its IL.
struct PeerRun {
    cpu: f64,
    il: f64,
}

impl PeerRun {
    /// Nothing measured yet (any time is less).
    const NONE: PeerRun = PeerRun {
        cpu: f64::INFINITY,
        il: f64::NAN,
    };
}

/// Run the peer on `csv` with group size `k`, `reps` calls, labels into `labels`.
fn run_peer(peer: &Path, csv: &Path, k: usize, reps: usize, labels: &Path) -> Result<PeerRun> {
    let out = std::process::Command::new(peer)
        .arg(csv)
        .arg(k.to_string())
        .arg(reps.to_string())
        .arg(labels)
        .output()
        .map_err(|e| Error::io(peer, e))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(Error::usage(format!(
            "bench: the peer `{}` failed on {} ({}): {}",
            peer.display(),
            csv.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let field = |line: &str, key: &str| -> Option<f64> {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key))
            .and_then(|v| v.parse().ok())
    };
    let mut run = PeerRun::NONE;
    for line in stdout.lines().filter(|l| l.starts_with("n=")) {
        match (field(line, "cpu_s="), field(line, "IL=")) {
            (Some(cpu), Some(il)) => {
                run.cpu = run.cpu.min(cpu);
                run.il = il;
            }
            _ => {
                return Err(Error::usage(format!(
                    "bench: the peer `{}` printed `{line}`, without cpu_s= and IL=",
                    peer.display()
                )))
            }
        }
    }
    if !run.cpu.is_finite() {
        return Err(Error::usage(format!(
            "bench: the peer `{}` printed no `n=.. cpu_s=.. IL=..` line (output: {})",
            peer.display(),
            stdout.trim()
        )));
    }
    Ok(run)
}

/// The peer's labels file ([`labels::read_labels`]), one label per record.
fn read_peer_labels(path: &Path, n: usize) -> Result<Vec<usize>> {
    let read = labels::read_labels(path)?;
    if read.len() != n {
        return Err(Error::usage(format!(
            "{}: {} labels for {n} records",
            path.display(),
            read.len()
        )));
    }
    Ok(read)
}

/// The instance's raw values as a CSV the peer reads (header, then shortest round-trip
/// decimals, which parse back to the same doubles).
fn write_csv(inst: &Instance, path: &Path) -> Result<()> {
    use std::io::Write;
    if let Some(at) = inst.raw.iter().position(|v| !v.is_finite()) {
        return Err(Error::usage(format!(
            "bench --peer-sdcmicro: {} has a missing or non-finite value (row {}, column {}), \
             which the peer's driver cannot read",
            inst.name,
            at / inst.d + 1,
            inst.columns[at % inst.d]
        )));
    }
    let file = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let mut w = std::io::BufWriter::new(file);
    let io = |e| Error::io(path, e);
    writeln!(w, "{}", inst.columns.join(",")).map_err(io)?;
    for i in 0..inst.n {
        let row = &inst.raw[i * inst.d..(i + 1) * inst.d];
        let line: Vec<String> = row.iter().map(|v| format!("{v:?}")).collect();
        writeln!(w, "{}", line.join(",")).map_err(io)?;
    }
    w.flush().map_err(io)
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Our side of one case and method, least over the rounds.
struct Ours {
    call: f64,
    process: f64,
    il: f64,
    labels: Vec<usize>,
}

/// One case's files and data, as both sides read them.
struct Case<'a> {
    inst: &'a Instance,
    /// The CSV both sides read.
    csv: &'a Path,
    /// Where the peer writes its labels.
    labels: &'a Path,
    k: usize,
}

/// `rounds` interleaved rounds on one case: the peer's least call, then each method's
/// least call and whole process (not on large cases: NaN) and its last labels.
fn measure(
    peer: &Path,
    case: &Case,
    pipelines: &[Pipeline],
    reps: usize,
    rounds: usize,
) -> Result<(PeerRun, Vec<Ours>)> {
    let (inst, k) = (case.inst, case.k);
    let large = inst.n >= LARGE;
    let reps = if large { 1 } else { reps };
    let never = AtomicBool::new(false);
    let mut best_peer = PeerRun::NONE;
    let mut ours: Vec<Ours> = pipelines
        .iter()
        .map(|_| Ours {
            call: f64::INFINITY,
            process: f64::NAN,
            il: f64::NAN,
            labels: Vec::new(),
        })
        .collect();
    for _ in 0..rounds {
        let run = run_peer(peer, case.csv, k, reps, case.labels)?;
        best_peer.cpu = best_peer.cpu.min(run.cpu);
        best_peer.il = run.il;
        for (p, side) in pipelines.iter().zip(ours.iter_mut()) {
            let (_, cpu, out) = least_call(p, inst, k, reps, &never)?;
            side.call = side.call.min(cpu);
            side.il = inst.il(out.partition.sse());
            side.labels = out.partition.labels().to_vec();
            if !large {
                let (_, cpu, _) = whole_process(&case.csv.to_string_lossy(), k, &p.spec, reps)?;
                // NaN (not yet measured) gives way to the first figure.
                side.process = side.process.min(cpu);
            }
        }
    }
    Ok((best_peer, ours))
}

/// One printed line: times, ratios ("-" where the process is not timed), ILs, agreement.
fn row(case: &str, method: &str, side: &Ours, peer: &PeerRun, agreement: Agreement) -> String {
    let figure = |v: f64, places: usize| {
        if v.is_nan() {
            "-".to_string()
        } else {
            format!("{v:.places$}")
        }
    };
    format!(
        "{:<12} {:<14} {:>10.4} {:>10} {:>10.4} {:>8.1} {:>8} {:>13.10} {:>13.10}  {}",
        case,
        method,
        side.call,
        figure(side.process, 4),
        peer.cpu,
        peer.cpu / side.call,
        figure(peer.cpu / side.process, 1),
        side.il,
        peer.il,
        agreement
    )
}

/// `microagg bench --peer-sdcmicro PEER`: the cases and methods side by side with the peer,
/// `rounds` interleaved rounds of `reps` calls each (large cases: one call).
pub(crate) fn side_by_side(
    peer: &Path,
    methods: &str,
    cases: &str,
    reps: usize,
    rounds: usize,
) -> Result<()> {
    if reps == 0 || rounds == 0 {
        return Err(Error::usage(
            "--reps and --rounds: at least one repetition and one round are needed",
        ));
    }
    let pipelines = methods
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|m| Pipeline::parse(m, &[]))
        .collect::<Result<Vec<_>>>()?;
    let dir = std::env::temp_dir().join(format!("microagg-peer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let scratch = Scratch(dir);
    output::println(&format!(
        "side by side with sdcMicro's MDAV ({}): least CPU seconds over {rounds} interleaved \
         rounds; ours on {} thread(s), the peer on one",
        peer.display(),
        crate::parallel::threads()
    ))?;
    output::println(&format!(
        "{:<12} {:<14} {:>10} {:>10} {:>10} {:>8} {:>8} {:>13} {:>13}  partition",
        "case",
        "method",
        "ours call",
        "ours proc",
        "peer call",
        "ratio",
        "ratio p",
        "IL % ours",
        "IL % peer"
    ))?;
    for name in cases.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (spec, k) = case(name)?;
        let source = match data::load(spec, &ColumnSelection::All) {
            Ok(i) => i,
            Err(e) => {
                output::println(&format!("{name:<12} skipped: {e}"))?;
                continue;
            }
        };
        let csv = scratch.0.join(format!("{name}.csv"));
        let peer_labels = scratch.0.join(format!("{name}.labels"));
        write_csv(&source, &csv)?;
        // Both sides read this file, so both start from the same doubles.
        let path = csv.to_string_lossy().into_owned();
        let inst = data::load(&path, &ColumnSelection::All)?;
        let case = Case {
            inst: &inst,
            csv: &csv,
            labels: &peer_labels,
            k,
        };
        let (best_peer, ours) = measure(peer, &case, &pipelines, reps, rounds)?;
        let peer_labels = read_peer_labels(&peer_labels, inst.n)?;
        for (p, side) in pipelines.iter().zip(&ours) {
            let agreement = compare_partitions(&inst, &side.labels, &peer_labels);
            output::println(&row(name, &p.spec, side, &best_peer, agreement))?;
        }
    }
    Ok(())
}
