//! # The whole file back
//!
//! Writes the input CSV file with only the microaggregated columns replaced by their
//! released values: every other byte (header, other columns with their quotes and spaces,
//! line ends, empty lines) is copied as read, with its delimiter. `write_protected` also
//! drops or hashes the direct identifiers and writes the records in a given order (empty
//! lines and line ends stay in place, [`super::roles`]).
//! Replaced cells are written unquoted, as the shortest decimal that reads back as the
//! same double, or, with rounding on, with the most decimals any input cell of that column
//! has (`1.50` and `2` -> 2 decimals; `1.5e-3` -> 4). The values actually written are
//! returned, so that the IL of the released file can be reported.
//!
//! Before a cell is replaced its input text is decoded and parsed again and compared with
//! the value the loader read: a file the raw reader splits differently from the loader is
//! refused, never rewritten wrongly. The output is written atomically and never onto the
//! input file.
//!
//! ## Complexity
//! Two streaming passes over the file with rounding (one without); the output is built in
//! memory before its atomic write (about the size of the file).

use super::raw_csv::{RawReader, RawRecord};
use super::roles::{self, IdentifierRelease, Identifiers};
use crate::data::Instance;
use crate::error::{Error, Result};
use std::io::BufReader;
use std::path::Path;

/// What the writer wrote: the released values as written (n x d, row-major), and the
/// decimals per column when rounding was on.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub values: Vec<f64>,
    pub decimals: Option<Vec<usize>>,
    /// The direct identifiers' header names (as given with `--identifiers`).
    pub identifiers: Vec<String>,
}

/// What a release protects: the direct identifiers and their treatment, and the order of
/// the rows (`None`: the input's; else slot s holds input row `order[s]`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Protection {
    pub identifiers: Identifiers,
    pub order: Option<Vec<usize>>,
}

/// Decimals of a number's text: digits after the point, less the exponent (never below 0).
pub(crate) fn decimals_of(text: &str) -> usize {
    let t = text.trim();
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(p) => (&t[..p], t[p + 1..].parse::<i64>().unwrap_or(0)),
        None => (t, 0),
    };
    let frac = mantissa
        .split_once('.')
        .map_or(0, |(_, f)| f.chars().filter(char::is_ascii_digit).count());
    (frac as i64 - exp).clamp(0, 400) as usize
}

/// A released value as text: shortest round-trip, or `decimals` digits (no `-0`).
pub(crate) fn format_value(v: f64, decimals: Option<usize>) -> String {
    match decimals {
        None => v.to_string(),
        Some(dec) => {
            let s = format!("{v:.dec$}");
            match s.strip_prefix('-') {
                Some(rest) if rest.parse::<f64>() == Ok(0.0) => rest.to_string(),
                _ => s,
            }
        }
    }
}

fn open(input: &Path, delimiter: u8) -> Result<RawReader<BufReader<std::fs::File>>> {
    let f = std::fs::File::open(input).map_err(|e| Error::io(input, e))?;
    Ok(RawReader::new(
        BufReader::with_capacity(1 << 16, f),
        delimiter,
    ))
}

/// Positions of the instance's columns in the header record.
fn column_positions(inst: &Instance, header: &[String], input: &Path) -> Result<Vec<usize>> {
    inst.columns
        .iter()
        .map(|c| {
            header
                .iter()
                .position(|h| h.trim() == c)
                .ok_or_else(|| Error::Data {
                    file: input.display().to_string(),
                    location: "header".into(),
                    message: format!("--masked-out: column '{c}' of the run is not in the file"),
                })
        })
        .collect()
}

/// Write `input` to `out` with the instance's columns replaced by `released` (n x d,
/// row-major, original units); with `round`, to the input's decimals per column. Every
/// other column is copied as read, in input order: `write_protected` without roles.
pub fn write_whole_file(
    out: &Path,
    input: &Path,
    delimiter: u8,
    inst: &Instance,
    released: &[f64],
    round: bool,
) -> Result<Written> {
    write_protected(
        out,
        input,
        delimiter,
        inst,
        released,
        round,
        &Protection::default(),
    )
}

/// What becomes of one input column in the released file.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    /// Copied as read.
    Copy,
    /// Replaced by the released value of the run's column c.
    Replace(usize),
    /// Left out (a direct identifier).
    Drop,
    /// Replaced by its keyed hash (a direct identifier).
    Hash,
}

/// Each header column's fate: the run's columns replaced, the identifiers dropped or
/// hashed (kept: copied), the rest copied.
fn cell_roles(names: &[String], pos: &[usize], ids: &[usize], how: IdentifierRelease) -> Vec<Cell> {
    let mut role = vec![Cell::Copy; names.len()];
    for &j in ids {
        role[j] = match how {
            IdentifierRelease::Drop => Cell::Drop,
            IdentifierRelease::Hash => Cell::Hash,
            IdentifierRelease::Keep => Cell::Copy,
        };
    }
    for (c, &j) in pos.iter().enumerate() {
        role[j] = Cell::Replace(c);
    }
    role
}

/// The header record as written: its leading bytes (a byte order mark), the names of the
/// columns not dropped, its line end.
fn header_bytes(header: &super::raw_csv::RawRecord, role: &[Cell], delimiter: u8) -> Vec<u8> {
    let mut buf = header.bytes[..header.fields[0].start].to_vec();
    let kept = header
        .fields
        .iter()
        .zip(role)
        .filter(|(_, r)| **r != Cell::Drop);
    for (t, (field, _)) in kept.enumerate() {
        if t > 0 {
            buf.push(delimiter);
        }
        buf.extend_from_slice(&header.bytes[field.clone()]);
    }
    buf.extend_from_slice(&header.bytes[header.bytes.len() - header.terminator..]);
    buf
}

/// Copied columns whose every cell differs and is not a number: likely direct identifiers
/// nobody named (a warning, never a change of the file).
struct IdentifierWatch {
    seen: Vec<Option<std::collections::HashSet<String>>>,
}

impl IdentifierWatch {
    fn new(role: &[Cell]) -> Self {
        let seen = role
            .iter()
            .map(|r| (*r == Cell::Copy).then(std::collections::HashSet::new))
            .collect();
        IdentifierWatch { seen }
    }

    fn see(&mut self, j: usize, text: &str) {
        if let Some(set) = &mut self.seen[j] {
            let t = text.trim();
            if t.parse::<f64>().is_ok() || !set.insert(t.to_string()) {
                self.seen[j] = None;
            }
        }
    }

    fn warn(&self, names: &[String], n: usize, ids: &[usize]) {
        for (j, set) in self.seen.iter().enumerate() {
            if set.as_ref().is_some_and(|s| s.len() == n && n > 1) && !ids.contains(&j) {
                crate::output::note(&format!(
                    "warning: --masked-out: column '{}' has a different text in every row and \
                     is copied as read; if it identifies the respondents, name it with \
                     --identifiers (dropped by default)",
                    names[j].trim()
                ));
            }
        }
    }
}

/// The decimals of each of the run's columns in `input` (the most any cell shows), so that
/// released values can be rounded as the input was written.
fn column_decimals(inst: &Instance, input: &Path, delimiter: u8) -> Result<Vec<usize>> {
    let io = |e: std::io::Error| Error::io(input, e);
    let mut skipped = Vec::new();
    let mut r = open(input, delimiter)?;
    let (_, names) = read_header(&mut r, input, &mut skipped)?;
    let pos = column_positions(inst, &names, input)?;
    let mut dec = vec![0usize; inst.d];
    while let Some(rec) = r.next_record(&mut skipped).map_err(io)? {
        for (c, &j) in pos.iter().enumerate() {
            if j < rec.fields.len() {
                dec[c] = dec[c].max(decimals_of(&rec.decoded(j)));
            }
        }
    }
    Ok(dec)
}

/// The header record of `r` and its column names (decoded).
fn read_header(
    r: &mut RawReader<BufReader<std::fs::File>>,
    input: &Path,
    skipped: &mut Vec<u8>,
) -> Result<(RawRecord, Vec<String>)> {
    let header = r.next_record(skipped).map_err(|e| Error::io(input, e))?;
    let header = header.ok_or_else(|| Error::io(input, "empty file"))?;
    let names: Vec<String> = (0..header.fields.len())
        .map(|j| header.decoded(j))
        .collect();
    Ok((header, names))
}

/// Released value `v` of the run's column `c` as written (rounded to the input's decimals
/// when given, quoted when it contains the delimiter) and the value that text reads back as.
fn released_cell(v: f64, decimals: Option<&[usize]>, c: usize, delimiter: u8) -> (String, f64) {
    let s = format_value(v, decimals.map(|dec| dec[c]));
    let value = s.parse::<f64>().unwrap_or(v);
    if s.as_bytes().contains(&delimiter) {
        (format!("\"{s}\""), value)
    } else {
        (s, value)
    }
}

/// As [`write_whole_file`], with the direct identifiers of `protect` dropped, hashed or
/// kept (the run's columns cannot be identifiers) and the rows in `protect.order` (slot s
/// holds input row `order[s]`; empty lines and line ends stay where they were).
pub(crate) fn write_protected(
    out: &Path,
    input: &Path,
    delimiter: u8,
    inst: &Instance,
    released: &[f64],
    round: bool,
    protect: &Protection,
) -> Result<Written> {
    let (n, d) = (inst.n, inst.d);
    check_target(out, input, released.len(), n, d)?;
    let file = input.display().to_string();
    let io = |e: std::io::Error| Error::io(input, e);
    let mut skipped = Vec::new();
    // Pass 1 (rounding only): the decimals of each chosen column.
    let decimals = if round {
        Some(column_decimals(inst, input, delimiter)?)
    } else {
        None
    };
    // Pass 2: copy, replacing the chosen cells and treating the identifiers; each record's
    // body apart from the bytes around it (empty lines before it, its line end), so that
    // the bodies can be reordered.
    let mut r = open(input, delimiter)?;
    let (header, names) = read_header(&mut r, input, &mut skipped)?;
    let mut head = std::mem::take(&mut skipped);
    let pos = column_positions(inst, &names, input)?;
    let ids = roles::resolve(&names, &protect.identifiers.columns, &file)?;
    if let Some(&j) = ids.iter().find(|j| pos.contains(j)) {
        return Err(Error::usage(format!(
            "--identifiers: column '{}' is microaggregated by the run (--columns); a direct \
             identifier is dropped, hashed or kept, never released as a group value",
            names[j].trim()
        )));
    }
    let role = cell_roles(&names, &pos, &ids, protect.identifiers.release);
    let key = protect.identifiers.key.as_deref();
    if role.contains(&Cell::Hash) && key.is_none() {
        return Err(Error::usage(
            "--identifier-release hash needs --hash-key-file",
        ));
    }
    head.extend(header_bytes(&header, &role, delimiter));
    let mut rewrite = Rewrite {
        inst,
        released,
        decimals: decimals.as_deref(),
        role: &role,
        key,
        delimiter,
        file: &file,
        watch: IdentifierWatch::new(&role),
        written: Vec::with_capacity(n * d),
    };
    let mut row = 0usize;
    let mut bodies: Vec<Vec<u8>> = Vec::with_capacity(n);
    let mut around: Vec<(Vec<u8>, Vec<u8>)> = Vec::with_capacity(n);
    while let Some(rec) = r.next_record(&mut skipped).map_err(io)? {
        let before = std::mem::take(&mut skipped);
        if row >= n {
            return Err(rewrite.mismatch(row, rec.line, format!("more than the {n} rows loaded")));
        }
        if rec.fields.len() != names.len() {
            return Err(rewrite.mismatch(
                row,
                rec.line,
                format!(
                    "{} fields where the header has {}",
                    rec.fields.len(),
                    names.len()
                ),
            ));
        }
        bodies.push(rewrite.body(&rec, row)?);
        around.push((
            before,
            rec.bytes[rec.bytes.len() - rec.terminator..].to_vec(),
        ));
        row += 1;
    }
    if row != n {
        return Err(Error::Data {
            file,
            location: "file".into(),
            message: format!(
                "--masked-out: re-reading the input gives {row} rows, the loader read {n}; \
                 the file was not written"
            ),
        });
    }
    let Rewrite { watch, written, .. } = rewrite;
    watch.warn(&names, n, &ids);
    let values = in_column_order(&written, &pos, n, d);
    let rows: Vec<usize> = protect.order.clone().unwrap_or_else(|| (0..n).collect());
    let mut buf = head;
    for (slot, &i) in rows.iter().enumerate() {
        buf.extend_from_slice(&around[slot].0);
        buf.extend_from_slice(&bodies[i]);
        buf.extend_from_slice(&around[slot].1);
    }
    buf.append(&mut skipped);
    crate::output::write_atomic(out, &buf)?;
    Ok(Written {
        values,
        decimals,
        identifiers: ids.iter().map(|&j| names[j].trim().to_string()).collect(),
    })
}

/// The checks before anything is read: one released value per record and column, and the
/// output is not the input file.
fn check_target(out: &Path, input: &Path, values: usize, n: usize, d: usize) -> Result<()> {
    if values != n * d {
        return Err(Error::usage(format!(
            "--masked-out: {values} released values for {n} records of {d} columns"
        )));
    }
    if let (Some(a), Some(b)) = (
        crate::output::canonical(out),
        crate::output::canonical(input),
    ) {
        if a == b {
            return Err(Error::usage(format!(
                "--masked-out {}: that is the input file; writing it would destroy the data",
                out.display()
            )));
        }
    }
    Ok(())
}

/// The released values in the order of the instance's columns, from `written` (row by row
/// in the file's column order: column `c` of the run stands at file position `pos[c]`).
fn in_column_order(written: &[f64], pos: &[usize], n: usize, d: usize) -> Vec<f64> {
    let mut values = vec![0.0; n * d];
    let mut order: Vec<usize> = (0..d).collect();
    order.sort_by_key(|&c| pos[c]);
    for i in 0..n {
        for (t, &c) in order.iter().enumerate() {
            values[i * d + c] = written[i * d + t];
        }
    }
    values
}

/// The second pass's rewriting of each record: its cells by their roles, the released
/// values written (as read back from their text), the copied columns watched.
struct Rewrite<'a> {
    inst: &'a Instance,
    released: &'a [f64],
    decimals: Option<&'a [usize]>,
    role: &'a [Cell],
    key: Option<&'a [u8]>,
    delimiter: u8,
    file: &'a str,
    watch: IdentifierWatch,
    written: Vec<f64>,
}

impl Rewrite<'_> {
    /// The error for an input that reads differently now than when it was loaded.
    fn mismatch(&self, row: usize, line: usize, what: String) -> Error {
        Error::Data {
            file: self.file.to_string(),
            location: format!("row {} (line {line})", row + 1),
            message: format!(
                "--masked-out: re-reading the input gives {what}; the file was not written \
                 (please report this file)"
            ),
        }
    }

    /// The body of record `rec` (input row `row`) as released, without its line end.
    fn body(&mut self, rec: &RawRecord, row: usize) -> Result<Vec<u8>> {
        let mut buf = Vec::with_capacity(rec.bytes.len());
        let mut first = true;
        for (j, field) in rec.fields.iter().enumerate() {
            if self.role[j] == Cell::Drop {
                continue;
            }
            if !first {
                buf.push(self.delimiter);
            }
            first = false;
            match self.role[j] {
                Cell::Drop => unreachable!("skipped above"),
                Cell::Copy => {
                    self.watch.see(j, &rec.decoded(j));
                    buf.extend_from_slice(&rec.bytes[field.clone()]);
                }
                Cell::Hash => {
                    let text = rec.decoded(j);
                    if text.trim().is_empty() {
                        buf.extend_from_slice(&rec.bytes[field.clone()]);
                    } else {
                        let key = self.key.expect("checked above");
                        buf.extend_from_slice(roles::keyed_hash(key, text.as_bytes()).as_bytes());
                    }
                }
                Cell::Replace(c) => self.replace(rec, row, (j, c), &mut buf)?,
            }
        }
        Ok(buf)
    }

    /// Field `j` of `rec`, the run's column `c`, replaced by its released value (checked
    /// against what the loader read); a missing cell (`--missing ignore`) kept as read, or
    /// filled.
    fn replace(
        &mut self,
        rec: &RawRecord,
        row: usize,
        (j, c): (usize, usize),
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        let (inst, d) = (self.inst, self.inst.d);
        let text = rec.decoded(j);
        if inst.is_missing(row, c) {
            if !crate::missing::is_missing_text(&text) {
                return Err(self.mismatch(
                    row,
                    rec.line,
                    format!(
                        "'{text}' in column '{}' where the loader read a missing value",
                        inst.columns[c]
                    ),
                ));
            }
            if self.released[row * d + c].is_nan() {
                self.written.push(f64::NAN);
                buf.extend_from_slice(&rec.bytes[rec.fields[j].clone()]);
                return Ok(());
            }
        } else if text.trim().parse::<f64>().ok() != Some(inst.raw[row * d + c]) {
            return Err(self.mismatch(
                row,
                rec.line,
                format!(
                    "'{}' in column '{}' where the loader read {}",
                    text,
                    inst.columns[c],
                    inst.raw[row * d + c]
                ),
            ));
        }
        let v = self.released[row * d + c];
        let (s, value) = released_cell(v, self.decimals, c, self.delimiter);
        self.written.push(value);
        buf.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// Write only the released columns (header = the instance's columns), for data that did
/// not come from a file (generators).
pub(crate) fn write_columns(
    out: &Path,
    inst: &Instance,
    released: &[f64],
    order: Option<&[usize]>,
) -> Result<Written> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| Error::io(out, e);
    w.write_record(&inst.columns).map_err(err)?;
    let rows: Vec<usize> = order.map_or_else(|| (0..inst.n).collect(), <[usize]>::to_vec);
    for &i in &rows {
        let record = &released[i * inst.d..(i + 1) * inst.d];
        let row: Vec<String> = record.iter().map(|&v| format_value(v, None)).collect();
        w.write_record(&row).map_err(err)?;
    }
    let bytes = w.into_inner().map_err(|e| Error::io(out, e.error()))?;
    crate::output::write_atomic(out, &bytes)?;
    Ok(Written {
        values: released.to_vec(),
        decimals: None,
        identifiers: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_and_formatting() {
        assert_eq!(decimals_of("12"), 0);
        assert_eq!(decimals_of(" 1.50 "), 2);
        assert_eq!(decimals_of("1.5e-3"), 4);
        assert_eq!(decimals_of("1.25E2"), 0);
        assert_eq!(format_value(2.345, Some(1)), "2.3");
        assert_eq!(format_value(-0.04, Some(1)), "0.0");
        assert_eq!(format_value(1.0 / 3.0, None), "0.3333333333333333");
        assert_eq!(format_value(7.0, Some(0)), "7");
    }
}
