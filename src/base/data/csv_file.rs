//! # CSV loader
//!
//! Reads a comma-separated file with one header row into an [`Instance`]. Columns are chosen
//! by name or by 1-based position (default: all); strata labels (`--strata`) and sampling
//! weights (`--weights`) are read from their columns in the same pass (roles: `columns`).
//! Nothing is fixed silently: an empty file, a header without rows, a ragged row, an empty
//! or non-numeric cell, NaN or an infinite value, a duplicate or unknown column name and a
//! constant column are errors that name the file, the row (data row r is line r + 1 of the
//! file) and the column.
//!
//! The file is streamed (read in 64 KiB pieces, hashed as it is read): memory holds the
//! values read and, while they are standardised, their z-scores, never the file's text.
//!
//! ## Complexity
//! O(n d) time and memory (the raw and the standardised matrix).

use super::columns::{pick_columns, Roles};
use super::instance::Instance;
use super::missing_cells::MissingPolicy;
use super::weights::{check_weight, total_of, Weights};
use super::LoadOptions;
use crate::error::{Error, Result};
use sha2::{Digest, Sha256};
use std::io::{BufRead, Read};
use std::path::Path;

pub use super::columns::ColumnSelection;

/// Load a comma-separated file from disk.
pub fn load_csv(path: &Path, columns: &ColumnSelection) -> Result<Instance> {
    load_csv_missing(path, columns, b',', &[], MissingPolicy::Refuse).map(|(inst, _)| inst)
}

/// Load a CSV file from disk with the field delimiter `delimiter` (`--delimiter`), also
/// reading the `strata` columns (by name or 1-based position) as text: they label each
/// row's stratum and are not numeric attributes (with [`ColumnSelection::All`] they are left
/// out; selecting one is an error). The file is streamed: its text is never held in memory,
/// only the values and the checksum. `options`: a missing-value policy (`run --missing`,
/// [`crate::missing`]), or [`LoadOptions`] that also say whether to keep the original values.
pub fn load_csv_missing<'a>(
    path: &Path,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    options: impl Into<LoadOptions<'a>>,
) -> Result<(Instance, Option<StrataColumns>)> {
    let file = std::fs::File::open(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::io(path, "file not found")
        } else {
            Error::io(path, e)
        }
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    read_csv_missing(
        file,
        &path.display().to_string(),
        &name,
        columns,
        delimiter,
        strata,
        options,
    )
}

/// The header of a CSV file (names trimmed), read without the rows; errors name the file.
pub(crate) fn read_header(path: &Path, delimiter: u8) -> Result<Vec<String>> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut r = csv_reader(std::io::BufReader::with_capacity(1 << 16, f), delimiter);
    let h = r.headers().map_err(|e| Error::Data {
        file: path.display().to_string(),
        location: "header".into(),
        message: e.to_string(),
    })?;
    Ok(h.iter().map(|s| s.trim().to_string()).collect())
}

/// The reader of a CSV file with a header row and fields split at `delimiter`; rows of
/// another length are read (and refused by the caller, naming the row).
fn csv_reader<R: Read>(source: R, delimiter: u8) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(source)
}

/// Parse comma-separated bytes; `file` is used in error messages, `name` becomes the
/// instance name.
pub fn parse_csv(
    bytes: &[u8],
    file: &str,
    name: &str,
    columns: &ColumnSelection,
) -> Result<Instance> {
    parse_csv_with(bytes, file, name, columns, b',')
}

/// Parse CSV bytes with the given field delimiter. When a comma-separated read fails on a
/// file whose first line holds semicolons (or tabs), the error suggests `--delimiter`.
pub fn parse_csv_with(
    bytes: &[u8],
    file: &str,
    name: &str,
    columns: &ColumnSelection,
    delimiter: u8,
) -> Result<Instance> {
    read_csv(bytes, file, name, columns, delimiter, &[]).map(|(inst, _)| inst)
}

/// The strata columns of a file: their names and, per row, the text of each (in the order
/// the columns were named).
#[derive(Debug, Clone)]
pub struct StrataColumns {
    pub names: Vec<String>,
    /// Distinct value tuples, in order of first appearance.
    pub keys: Vec<Vec<String>>,
    /// Per row, the index of its tuple in `keys`.
    pub of_row: Vec<u32>,
}

/// Passes bytes through while hashing them and noting whether any is not whitespace, so
/// that the file is read once, in pieces.
struct HashingReader<R> {
    inner: R,
    state: std::rc::Rc<std::cell::RefCell<(Sha256, bool)>>,
}

impl<R: Read> Read for HashingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let got = self.inner.read(buf)?;
        let mut st = self.state.borrow_mut();
        st.0.update(&buf[..got]);
        if !st.1 {
            st.1 = buf[..got].iter().any(|b| !b.is_ascii_whitespace());
        }
        Ok(got)
    }
}

/// The first line of a stream (at most 64 KiB of it) without consuming it.
fn peek_first_line<R: Read>(reader: &mut std::io::BufReader<R>) -> std::io::Result<Vec<u8>> {
    let buf = reader.fill_buf()?;
    Ok(buf
        .split(|&b| b == b'\n')
        .next()
        .unwrap_or_default()
        .to_vec())
}

/// Read CSV text from `source` (streamed) into an instance and its strata columns.
pub(crate) fn read_csv<R: Read>(
    source: R,
    file: &str,
    name: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
) -> Result<(Instance, Option<StrataColumns>)> {
    read_csv_missing(
        source,
        file,
        name,
        columns,
        delimiter,
        strata,
        MissingPolicy::Refuse,
    )
}

/// As `read_csv`; under [`MissingPolicy::Ignore`] an empty or `NA` cell of a chosen
/// column is read as missing (NaN) instead of an error; [`LoadOptions`] also say whether
/// to keep the original values.
pub fn read_csv_missing<'a, R: Read>(
    source: R,
    file: &str,
    name: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    options: impl Into<LoadOptions<'a>>,
) -> Result<(Instance, Option<StrataColumns>)> {
    let options = options.into();
    let state = std::rc::Rc::new(std::cell::RefCell::new((Sha256::new(), false)));
    let mut buffered = std::io::BufReader::with_capacity(
        1 << 16,
        HashingReader {
            inner: source,
            state: state.clone(),
        },
    );
    let first_line = peek_first_line(&mut buffered).map_err(|e| Error::io(file, e))?;
    let errs = FileErrors {
        file,
        hint: delimiter_hint(&first_line, delimiter),
    };
    let mut reader = csv_reader(buffered, delimiter);
    let header: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(|h| h.trim().to_string()).collect(),
        Err(e) => {
            return Err(if is_empty_file(&state, &mut reader) {
                errs.empty()
            } else {
                errs.data("header".into(), e.to_string())
            })
        }
    };
    if header.iter().all(|h| h.is_empty()) && is_empty_file(&state, &mut reader) {
        return Err(errs.empty());
    }
    let roles = pick_columns(&header, columns, strata, options.weights, &errs)?;
    let names: Vec<String> = roles.selected.iter().map(|&j| header[j].clone()).collect();
    let cells = Cells {
        header: &header,
        roles: &roles,
        missing: options.missing,
    };
    let (raw, ids, weights, rows) = read_rows(&mut reader, &cells, &errs)?;
    if rows == 0 {
        return Err(if is_empty_file(&state, &mut reader) {
            errs.empty()
        } else {
            errs.data("file".into(), "no data rows (header only)".into())
        });
    }
    // The csv reader stops at the end of the input, so every byte has been hashed.
    let digest = state.borrow_mut().0.clone().finalize();
    let sha256: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    drop(reader);
    let mut inst = Instance::standardise_missing(name, file, names, raw, sha256, options.raw)
        .map_err(|e| errs.with_hint(e))?;
    if let Some(j) = roles.weights {
        inst.weights = Some(weights_of(&header[j], j, weights, &errs)?);
    }
    let strata = (!roles.strata.is_empty()).then(|| StrataColumns {
        names: roles.strata.iter().map(|&j| header[j].clone()).collect(),
        keys: ids.keys,
        of_row: ids.of_row,
    });
    Ok((inst, strata))
}

/// The CSV reader over a stream that is hashed as it is read, and the hash state it shares
/// (the digest, and whether a byte other than white space was met).
type HashedCsv<R> = csv::Reader<std::io::BufReader<HashingReader<R>>>;
type HashState = std::rc::Rc<std::cell::RefCell<(Sha256, bool)>>;

/// Whether the file holds nothing but white space, whatever error its parse gave: the rest
/// is drained (streamed) to know.
fn is_empty_file<R: Read>(state: &HashState, reader: &mut HashedCsv<R>) -> bool {
    if state.borrow().1 {
        return false;
    }
    let mut sink = [0u8; 1 << 12];
    let inner: &mut std::io::BufReader<HashingReader<R>> = reader.get_mut();
    while let Ok(got) = inner.read(&mut sink) {
        if got == 0 || state.borrow().1 {
            break;
        }
    }
    !state.borrow().1
}

/// A hint for a header that holds no `delimiter` but another usual one (`;` or tab), added
/// to every error of the file; empty otherwise.
fn delimiter_hint(first_line: &[u8], delimiter: u8) -> String {
    [b';', b'\t']
        .into_iter()
        .find(|&c| c != delimiter && first_line.contains(&c) && !first_line.contains(&delimiter))
        .map_or(String::new(), |c| {
            format!(
                " (the header holds no '{}' but does hold '{}': try --delimiter '{}')",
                delimiter as char,
                (c as char).escape_default(),
                (c as char).escape_default()
            )
        })
}

/// The errors of one file, each message ending with the file's delimiter hint.
pub(super) struct FileErrors<'a> {
    pub(super) file: &'a str,
    hint: String,
}

impl FileErrors<'_> {
    pub(super) fn data(&self, location: String, message: String) -> Error {
        self.with_hint(Error::Data {
            file: self.file.into(),
            location,
            message,
        })
    }

    fn empty(&self) -> Error {
        self.data(
            "file".into(),
            "empty file: expected a header row and data rows".into(),
        )
    }

    /// A data error from elsewhere (column selection, the instance) with the hint added.
    pub(super) fn with_hint(&self, e: Error) -> Error {
        e.map_data(|location, message| (location, format!("{message}{}", self.hint)))
    }
}

/// What is read of each row: the numeric columns (missing cells as `missing` says), the
/// strata columns and the weights column.
struct Cells<'a> {
    header: &'a [String],
    roles: &'a Roles,
    missing: MissingPolicy,
}

/// The strata tuples met so far, interned as they come (the map is only looked up, never
/// iterated), and each row's stratum.
#[derive(Default)]
struct StrataIds {
    key_ids: std::collections::HashMap<Vec<String>, u32>,
    keys: Vec<Vec<String>>,
    of_row: Vec<u32>,
}

/// Every data row: the numeric cells row-major, the strata, the weights (empty without a
/// weights column), and the number of rows.
fn read_rows<R: Read>(
    reader: &mut HashedCsv<R>,
    cells: &Cells,
    errs: &FileErrors,
) -> Result<(Vec<f64>, StrataIds, Vec<f64>, usize)> {
    let header = cells.header;
    let mut raw = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut row = 0usize;
    let mut ids = StrataIds::default();
    let mut weights = Vec::new();
    let strata = &cells.roles.strata;
    let mut key = Vec::with_capacity(strata.len());
    loop {
        let more = reader
            .read_record(&mut record)
            .map_err(|e| errs.data(format!("row {} (line {})", row + 1, row + 2), e.to_string()))?;
        if !more {
            break;
        }
        row += 1;
        let line = record.position().map_or(row as u64 + 1, |p| p.line());
        let here = |j: usize| {
            format!(
                "row {row} (line {line}), column '{}' ({})",
                header.get(j).map_or("?", |s| s.as_str()),
                j + 1
            )
        };
        if record.len() != header.len() {
            return Err(errs.data(
                format!("row {row} (line {line})"),
                format!(
                    "ragged row: {} fields, the header has {}",
                    record.len(),
                    header.len()
                ),
            ));
        }
        numeric_cells(&record, cells, &here, errs, &mut raw)?;
        if !strata.is_empty() {
            let id = stratum(&record, strata, &here, errs, &mut key, &mut ids)?;
            ids.of_row.push(id);
        }
        if let Some(j) = cells.roles.weights {
            weights.push(weight_cell(&record[j], &here(j), errs)?);
        }
    }
    Ok((raw, ids, weights, row))
}

/// One row's sampling weight: a finite number > 0 (`--weights`); `here` names the cell.
fn weight_cell(cell: &str, here: &str, errs: &FileErrors) -> Result<f64> {
    let cell = cell.trim();
    let err = |message: String| errs.data(here.to_string(), message);
    if cell.is_empty() {
        return Err(err("empty cell: missing weight (--weights)".into()));
    }
    let w: f64 = cell
        .parse()
        .map_err(|_| err(format!("non-numeric weight '{cell}'")))?;
    check_weight(w, cell).map_err(err)?;
    Ok(w)
}

/// The weights read from column `j` (`name`), with their total checked.
fn weights_of(name: &str, j: usize, values: Vec<f64>, errs: &FileErrors) -> Result<Weights> {
    let total = total_of(&values)
        .map_err(|message| errs.data(format!("column '{name}' ({})", j + 1), message))?;
    Ok(Weights {
        column: name.to_string(),
        values,
        total,
    })
}

/// Append the numeric cells of one row to `raw` (a missing cell as NaN under
/// [`MissingPolicy::Ignore`]); `here(j)` names the cell of column `j` in errors.
fn numeric_cells(
    record: &csv::StringRecord,
    cells: &Cells,
    here: &dyn Fn(usize) -> String,
    errs: &FileErrors,
    raw: &mut Vec<f64>,
) -> Result<()> {
    for &j in &cells.roles.selected {
        let cell = record[j].trim();
        if cells.missing == MissingPolicy::Ignore && super::missing_cells::is_missing_text(cell) {
            raw.push(f64::NAN);
            continue;
        }
        if cell.is_empty() {
            return Err(errs.data(
                here(j),
                "empty cell (missing value; `run --missing ignore` leaves such cells out)".into(),
            ));
        }
        let v: f64 = cell.parse().map_err(|_| {
            let hint = if cell == "NA" {
                " (a missing value; `run --missing ignore` leaves such cells out)"
            } else {
                ""
            };
            errs.data(here(j), format!("non-numeric value '{cell}'{hint}"))
        })?;
        if !v.is_finite() {
            return Err(errs.data(here(j), format!("value '{cell}' is NaN or infinite")));
        }
        raw.push(v);
    }
    Ok(())
}

/// The id of one row's stratum (its strata cells, each nonempty), a new id for a tuple not
/// met before.
fn stratum(
    record: &csv::StringRecord,
    strata_cols: &[usize],
    here: &dyn Fn(usize) -> String,
    errs: &FileErrors,
    key: &mut Vec<String>,
    ids: &mut StrataIds,
) -> Result<u32> {
    key.clear();
    for &j in strata_cols {
        let cell = record[j].trim();
        if cell.is_empty() {
            return Err(errs.data(
                here(j),
                "empty cell in a strata column (--strata): every row needs a stratum".into(),
            ));
        }
        key.push(cell.to_string());
    }
    Ok(match ids.key_ids.get(key) {
        Some(&id) => id,
        None => {
            let id = u32::try_from(ids.keys.len())
                .map_err(|_| errs.data(here(strata_cols[0]), "more than 2^32 strata".into()))?;
            ids.key_ids.insert(key.clone(), id);
            ids.keys.push(key.clone());
            id
        }
    })
}
