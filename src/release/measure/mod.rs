//! # Measures of a released file: utility and disclosure risk
//!
//! `microagg measure --data D --masked M` compares the released (masked) values of the
//! chosen columns with the original ones: information loss ([`utility`]: the workbench's
//! SSE-based IL, IL1s, changes of means, variances, covariances, correlations and
//! eigenvalues) and disclosure risk ([`risk`]: distance-based record linkage, interval
//! disclosure, sdcMicro's `dRisk`). Each formula, and where it differs from sdcMicro, is
//! documented in its module; `docs/measures.md` collects them with the CASC figures.
//!
//! The released file is matched to the original by column *name* (the original's chosen
//! columns) and by row order (a release of `run` with shuffled rows is put back in input
//! order with `--unshuffle-seed`, [`crate::release::roles`]); other columns of the released
//! file are ignored. With `--missing ignore` empty and `NA` cells are missing, as in `run`:
//! the measures are taken over the complete records, the IL over the observed cells. Released
//! columns may be constant (a released file need not be standardisable).
//!
//! ## Complexity
//! O(n^2 p) for the record linkage, O(n p^2 + p^3) for the rest.
//!
//! ## References
//! See [`utility`] and [`risk`].

pub mod risk;
pub(crate) mod stats;
pub mod utility;

use crate::data::{self, ColumnSelection, Instance};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Utility and risk of one released file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Measures {
    pub n: usize,
    pub p: usize,
    pub utility: utility::Utility,
    pub risk: risk::Risk,
}

/// sdcMicro's default k of `dRisk`.
pub const DRISK_K: f64 = 0.05;

/// Measure the released values `y` (n x d, the instance's columns, original units) against
/// the instance's original values.
pub fn measure(inst: &Instance, y: &[f64], drisk_k: f64) -> Result<Measures> {
    if y.len() != inst.n * inst.d {
        return Err(Error::usage(format!(
            "released values: {} cells for {} records of {} columns",
            y.len(),
            inst.n,
            inst.d
        )));
    }
    if !(drisk_k >= 0.0 && drisk_k.is_finite()) {
        return Err(Error::usage(format!(
            "--drisk-k {drisk_k}: expected a finite number >= 0"
        )));
    }
    if inst.n >= 20_000 {
        // Record linkage visits every pair: say so before a long silence.
        crate::output::note(&format!(
            "measures: record linkage compares all {} x {} record pairs (O(n^2 d))",
            inst.n, inst.n
        ));
    }
    Ok(Measures {
        n: inst.n,
        p: inst.d,
        utility: utility::utility(&inst.raw, y, inst.d, &inst.columns),
        risk: risk::risk(&inst.raw, y, inst.d, drisk_k),
    })
}

/// Read the columns `names` of a released CSV file (row-major n x names.len()); errors name
/// the file, row and column. Unlike the data loader it accepts constant columns. With
/// `missing` an empty or `NA` cell is read as missing (NaN), else it is an error.
pub(crate) fn read_released(
    path: &Path,
    names: &[String],
    delimiter: u8,
    missing: bool,
) -> Result<Vec<f64>> {
    let file = path.display().to_string();
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(std::io::BufReader::new(f));
    let err = |location: String, message: String| Error::Data {
        file: file.clone(),
        location,
        message,
    };
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| err("header".into(), e.to_string()))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let pos: Vec<usize> = names
        .iter()
        .map(|c| {
            header.iter().position(|h| h == c).ok_or_else(|| {
                err(
                    "header".into(),
                    format!(
                        "no column '{c}' (a column of the original data); the file has: {}",
                        header.join(", ")
                    ),
                )
            })
        })
        .collect::<Result<_>>()?;
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut row = 0usize;
    while reader
        .read_record(&mut record)
        .map_err(|e| err(format!("row {}", row + 1), e.to_string()))?
    {
        row += 1;
        if record.len() != header.len() {
            return Err(err(
                format!("row {row}"),
                format!(
                    "ragged row: {} fields, the header has {}",
                    record.len(),
                    header.len()
                ),
            ));
        }
        for (&j, name) in pos.iter().zip(names) {
            let cell = record[j].trim();
            if missing && crate::data::missing_cells::is_missing_text(cell) {
                out.push(f64::NAN);
                continue;
            }
            let v: f64 = cell.parse().map_err(|_| {
                err(
                    format!("row {row} (line {}), column '{name}' ({})", row + 1, j + 1),
                    if cell.is_empty() {
                        "empty cell (missing value; `--missing ignore` leaves such cells out)"
                            .into()
                    } else {
                        format!("non-numeric value '{cell}'")
                    },
                )
            })?;
            if !v.is_finite() {
                return Err(err(
                    format!("row {row} (line {}), column '{name}' ({})", row + 1, j + 1),
                    format!("value '{cell}' is NaN or infinite"),
                ));
            }
            out.push(v);
        }
    }
    Ok(out)
}

/// The options of `microagg measure`.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct MeasureArgs {
    /// Original data: a CSV file path or an instance id (tarragona, census, eia).
    #[arg(long)]
    pub data: String,
    /// The released (masked) CSV file: the original's chosen columns by name, same rows in
    /// the same order (other columns are ignored; a release of `run` with shuffled rows:
    /// give --unshuffle-seed).
    #[arg(long)]
    pub masked: PathBuf,
    /// Columns to compare, by name or 1-based position of the original (default: all).
    #[arg(long, default_value = "")]
    pub columns: String,
    /// Field delimiter of both CSV files: one character, e.g. ';' or '\t' (default ',').
    #[arg(long, default_value = ",")]
    pub delimiter: String,
    /// k of sdcMicro's dRisk: the interval around a released value is +- k sample standard
    /// deviations of the released column.
    #[arg(long, default_value_t = DRISK_K)]
    pub drisk_k: f64,
    /// Sampling weights: a column of the original file (name or 1-based position), not
    /// compared; adds the weighted IL of the released values (`weights` in the JSON; the
    /// other measures stay unweighted, docs/weights.md).
    #[arg(long, value_name = "COLUMN")]
    pub weights: Option<String>,
    /// Missing values (empty or NA cells) in the compared columns: refuse (stop, naming
    /// file, row and column) or ignore, as `run --missing ignore`: a cell missing in the
    /// original may be missing or filled in the released file; the measures are taken over
    /// the complete records and the IL over the observed cells (as `run --measures`).
    #[arg(long, value_enum, default_value_t = crate::missing::MissingPolicy::Refuse)]
    pub missing: crate::missing::MissingPolicy,
    /// The released file's rows are in the shuffled order of `microagg run --seed SEED`
    /// (run's default row order): put them back in input order before comparing. The order
    /// is recomputed from SEED and the original file's bytes, so --data must be the run's
    /// input file; without this option the rows are matched in file order.
    #[arg(long, value_name = "SEED")]
    pub unshuffle_seed: Option<u64>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A `--delimiter` argument as a byte.
pub(crate) fn parse_delimiter(d: &str) -> Result<u8> {
    match d {
        "\\t" | "\t" | "tab" => Ok(b'\t'),
        d if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" => Ok(d.as_bytes()[0]),
        d => Err(Error::usage(format!(
            "--delimiter '{d}': expected one ASCII character such as ',' ';' or '\\t'"
        ))),
    }
}

/// `microagg measure`: load both files, measure, print (text or one JSON object).
pub(crate) fn run_cli(a: &MeasureArgs) -> Result<()> {
    let delimiter = parse_delimiter(&a.delimiter)?;
    let selection = ColumnSelection::parse(&a.columns);
    let inst = match &a.weights {
        Some(column) => {
            data::load_weighted_split(&a.data, &selection, delimiter, &[], a.missing, column)?.0
        }
        None => data::load_missing(&a.data, &selection, delimiter, &[], a.missing)?.0,
    };
    let ignore = a.missing == crate::missing::MissingPolicy::Ignore;
    let y = read_released(&a.masked, &inst.columns, delimiter, ignore)?;
    if y.len() != inst.n * inst.d {
        return Err(Error::Data {
            file: a.masked.display().to_string(),
            location: "file".into(),
            message: format!(
                "{} data rows; the original data ({}) has {}",
                y.len() / inst.d,
                inst.source,
                inst.n
            ),
        });
    }
    let (y, file_row) = match a.unshuffle_seed {
        Some(seed) => unshuffle(&inst, &y, seed)?,
        None => (y, (0..inst.n).collect()),
    };
    check_released_holes(&inst, &y, &file_row, &a.masked)?;
    let holes = inst.has_missing();
    let m = if holes {
        crate::missing::measure_complete_rows(&inst, &y, a.drisk_k)?
    } else {
        measure(&inst, &y, a.drisk_k)?
    };
    let weighted = inst.weights.as_ref().map(|w| {
        let il = if holes {
            crate::missing::il_released(&inst, &y, Some(&w.values))
        } else {
            utility::il_sse_weighted(&inst.raw, &y, inst.d, &w.values)
        };
        (w, il)
    });
    let observed_il = holes.then(|| crate::missing::il_released(&inst, &y, None));
    if a.json {
        let mut v = serde_json::to_value(&m).expect("measures serialise");
        if let Some((w, il)) = weighted {
            v["weights"] =
                serde_json::json!({"column": w.column, "total": w.total, "il_weighted": il});
        }
        if let Some(il) = observed_il {
            v["missing"] = serde_json::json!({"records_left_out": inst.n - m.n, "il_observed": il});
        }
        v["data"] = inst.source.clone().into();
        v["instance_sha256"] = inst.sha256.clone().into();
        v["masked"] = a.masked.display().to_string().into();
        crate::output::println(&serde_json::to_string(&v).expect("measures serialise"))
    } else {
        let mut t = text(&inst, &a.masked, &m);
        if let Some((w, il)) = weighted {
            t += &format!(
                "  weighted (--weights {}, total {}): IL (SSE) {il:.4} %; the other measures are unweighted\n",
                w.column, crate::render::round_trip(w.total)
            );
        }
        if let Some(il) = observed_il {
            t += &format!(
                "  missing values: {} record(s) with missing cells left out of the measures \
                 above; IL over the observed cells {il:.6} %\n",
                inst.n - m.n
            );
        }
        crate::output::print(&t)
    }
}

/// The released values of a file shuffled by `run --seed SEED` put back in input order,
/// and for each input row its row in the file (0-based).
fn unshuffle(inst: &Instance, y: &[f64], seed: u64) -> Result<(Vec<f64>, Vec<usize>)> {
    let secret = crate::release::roles::order_secret(&inst.source, &inst.sha256)?;
    let order = crate::release::roles::release_order(inst.n, seed, &secret);
    let d = inst.d;
    let mut back = vec![0.0; y.len()];
    let mut file_row = vec![0; inst.n];
    for (slot, &i) in order.iter().enumerate() {
        back[i * d..(i + 1) * d].copy_from_slice(&y[slot * d..(slot + 1) * d]);
        file_row[i] = slot;
    }
    Ok((back, file_row))
}

/// A released cell may be missing only where the original is (`--missing-release keep`):
/// the measures compare observed cells, and a value removed by the release is no cell to
/// compare.
fn check_released_holes(
    inst: &Instance,
    y: &[f64],
    file_row: &[usize],
    masked: &Path,
) -> Result<()> {
    let d = inst.d;
    for i in 0..inst.n {
        for j in 0..d {
            if y[i * d + j].is_nan() && !inst.is_missing(i, j) {
                let row = file_row[i] + 1;
                return Err(Error::Data {
                    file: masked.display().to_string(),
                    location: format!("row {row} (line {}), column '{}'", row + 1, inst.columns[j]),
                    message: format!(
                        "missing in the released file where the original ({}, row {}) has a \
                         value; the measures compare the cells observed in the original",
                        inst.source,
                        i + 1
                    ),
                });
            }
        }
    }
    Ok(())
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("n/a".into(), |v| format!("{v:.digits$}"))
}

/// The text report of `microagg measure`.
pub(crate) fn text(inst: &Instance, masked: &Path, m: &Measures) -> String {
    let (u, r) = (&m.utility, &m.risk);
    let mut t = format!(
        "{} against {} (n={}, p={}):\n",
        masked.display(),
        inst.name,
        m.n,
        m.p
    );
    t += &format!("  utility: IL (SSE) {:.4} %, IL1s {:.6} (sdcMicro dUtility IL1s {:.4}), eigen (sdcMicro) {}\n",
        u.il_sse, u.il1s, u.il1s_sdcmicro, opt(u.eigen_sdcmicro, 6));
    t += &format!(
        "           change of means {} %, variances {} %, covariances {} %, correlations {} (mean |r - r'|)\n",
        opt(u.mean_change_percent, 6),
        opt(u.variance_change_percent, 4),
        opt(u.covariance_change_percent, 4),
        opt(u.correlation_change, 6)
    );
    t += &format!(
        "  risk:    DBRL {:.4} % of records linked, SD interval disclosure {:.4} % of cells, rank interval disclosure {} % of cells, sdcMicro dRisk (k = {}) {:.6}\n",
        r.dbrl_percent, r.sdid_percent, opt(r.rid_percent, 4), r.drisk_k, r.drisk_sdcmicro
    );
    t
}

/// The measures of a released file as `run --measures` prints them: one line per figure
/// with what it means and which way is better (definitions: `docs/measures.md`).
pub(crate) fn reading_lines(m: &Measures) -> String {
    let (u, r) = (&m.utility, &m.risk);
    let mut t = format!(
        "  measures of the released values over {} records and {} columns (docs/measures.md):\n",
        m.n, m.p
    );
    let mut line = |figure: String, reading: &str| t += &format!("    {figure}: {reading}\n");
    line(
        format!("record linkage (DBRL) {:.4} % of records", r.dbrl_percent),
        "an intruder holding the original values links this share of released records to \
         their own record by nearest distance; lower is safer",
    );
    line(
        format!("interval disclosure {:.4} % of cells", r.sdid_percent),
        "share of original values within p % of a standard deviation of their released \
         value (p = 1..10 %, averaged); lower is safer",
    );
    if let Some(rid) = r.rid_percent {
        line(
            format!("rank interval disclosure {rid:.4} % of cells"),
            "share of original values within p % of the ranks of their released value \
             (p = 1..10 %, averaged); lower is safer",
        );
    }
    line(
        format!("sdcMicro dRisk (k = {}) {:.6}", r.drisk_k, r.drisk_sdcmicro),
        "share (0..1) of records whose original values all lie within k released standard \
         deviations of their released values; lower is safer",
    );
    line(
        format!("IL1s {:.6}", u.il1s),
        "mean absolute change of a cell, in units of sqrt(2) standard deviations; lower \
         keeps more of the data",
    );
    line(
        format!(
            "correlations {} (mean |r - r'|)",
            opt(u.correlation_change, 6)
        ),
        "how far the correlations between columns moved; lower keeps more of the data",
    );
    t
}
