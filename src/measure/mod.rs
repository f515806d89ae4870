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
//! columns) and by row order; other columns of the released file are ignored. Released
//! columns may be constant (a released file need not be standardisable).
//!
//! ## Complexity
//! O(n^2 p) for the record linkage, O(n p^2 + p^3) for the rest.
//!
//! ## References
//! See [`utility`] and [`risk`].

pub mod risk;
pub mod stats;
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
/// the file, row and column. Unlike the data loader it accepts constant columns.
pub fn read_released(path: &Path, names: &[String], delimiter: u8) -> Result<Vec<f64>> {
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
            let v: f64 = cell.parse().map_err(|_| {
                err(
                    format!("row {row} (line {}), column '{name}' ({})", row + 1, j + 1),
                    if cell.is_empty() {
                        "empty cell (missing value)".into()
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
pub struct MeasureArgs {
    /// Original data: a CSV file path or an instance id (tarragona, census, eia).
    #[arg(long)]
    pub data: String,
    /// The released (masked) CSV file: the original's chosen columns by name, same rows in
    /// the same order (other columns are ignored).
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
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// A `--delimiter` argument as a byte.
pub fn parse_delimiter(d: &str) -> Result<u8> {
    match d {
        "\\t" | "\t" | "tab" => Ok(b'\t'),
        d if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" => Ok(d.as_bytes()[0]),
        d => Err(Error::usage(format!(
            "--delimiter '{d}': expected one ASCII character such as ',' ';' or '\\t'"
        ))),
    }
}

/// `microagg measure`: load both files, measure, print (text or one JSON object).
pub fn run_cli(a: &MeasureArgs) -> Result<()> {
    let delimiter = parse_delimiter(&a.delimiter)?;
    let selection = ColumnSelection::parse(&a.columns);
    let inst = match &a.weights {
        Some(column) => data::load_weighted(&a.data, &selection, delimiter, column)?,
        None => data::load_with(&a.data, &selection, delimiter)?,
    };
    let y = read_released(&a.masked, &inst.columns, delimiter)?;
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
    let m = measure(&inst, &y, a.drisk_k)?;
    let weighted = inst.weights.as_ref().map(|w| {
        (
            w,
            utility::il_sse_weighted(&inst.raw, &y, inst.d, &w.values),
        )
    });
    if a.json {
        let mut v = serde_json::to_value(&m).expect("measures serialise");
        if let Some((w, il)) = weighted {
            v["weights"] =
                serde_json::json!({"column": w.column, "total": w.total, "il_weighted": il});
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
        crate::output::print(&t)
    }
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("n/a".into(), |v| format!("{v:.digits$}"))
}

/// The text report of `microagg measure`.
pub fn text(inst: &Instance, masked: &Path, m: &Measures) -> String {
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
