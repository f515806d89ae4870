//! # Plain CSV rows, fast
//!
//! The data rows of a small CSV file already in memory, read without the general CSV
//! reader when the text is plain: no quote character, records ended by `\n` or `\r\n`, no
//! empty line but a final one, every row as many fields as the header, every chosen cell a
//! finite number. Cells are trimmed and parsed with Rust's own `f64` parser, as the general
//! reader ([`super::csv_file`]) does, so the values are the same bits. Anything else (a
//! quote, a lone `\r`, a blank line, a ragged row, an empty, missing or non-numeric cell,
//! a byte outside ASCII after the header) returns `None`, and the caller reads the file with the general reader,
//! which gives the result or the error it always gave. Used for files up to
//! [`FAST_MAX_BYTES`], where start-up time matters (the CASC files: 64-380 KB); larger files
//! are streamed.
//!
//! ## Complexity
//! O(bytes) time, no allocation per field; O(n d) for the values.
//!
//! ## References
//! RFC 4180 (CSV); the `csv` crate's reader, whose results this path reproduces on the
//! texts it accepts.

/// Largest file read whole and parsed by [`plain_rows`].
pub const FAST_MAX_BYTES: u64 = 16 << 20;

/// The chosen cells (`selected`, in that order) of every data row of the file `bytes`,
/// row by row, when the text is plain (see the module doc), or None. The header record is
/// the first line (it must be non-empty and hold `fields` fields, the count the general
/// reader found); at least one data row is required.
pub fn plain_rows(
    bytes: &[u8],
    delimiter: u8,
    fields: usize,
    selected: &[usize],
) -> Option<Vec<f64>> {
    if bytes.contains(&b'"') || delimiter == b'"' || delimiter == b'\r' || delimiter == b'\n' {
        return None;
    }
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let header = &bytes[..end];
    let header = header.strip_suffix(b"\r").unwrap_or(header);
    if header.is_empty()
        || header.contains(&b'\r')
        || header.split(|&b| b == delimiter).count() != fields
    {
        return None;
    }
    let text = &bytes[end + 1..];
    if !text.is_ascii() {
        return None;
    }
    // Where each field goes in a row of the values (selected once each).
    let d = selected.len();
    let mut slot = vec![usize::MAX; fields];
    for (p, &j) in selected.iter().enumerate() {
        if j >= fields || slot[j] != usize::MAX {
            return None;
        }
        slot[j] = p;
    }
    let n = text.len();
    let mut raw = Vec::with_capacity(d * (n / (4 * fields.max(1)) + 1));
    let mut rows = 0usize;
    let mut i = 0;
    // One record per pass: fields end at the delimiter, the record at `\n`, `\r\n` or the
    // end of the text.
    while i < n {
        if text[i] == b'\n' || text[i] == b'\r' {
            return None; // a blank line
        }
        let base = raw.len();
        raw.resize(base + d, 0.0);
        let (mut field, mut start) = (0usize, i);
        loop {
            let b = if i < n { text[i] } else { b'\n' };
            if b != delimiter && b != b'\n' && b != b'\r' {
                i += 1;
                continue;
            }
            if field == fields {
                return None; // too many fields
            }
            if slot[field] != usize::MAX {
                raw[base + slot[field]] = cell_value(&text[start..i.min(n)])?;
            }
            field += 1;
            if b == delimiter {
                i += 1;
                start = i;
                continue;
            }
            if b == b'\r' {
                if text.get(i + 1) != Some(&b'\n') {
                    return None; // a lone carriage return
                }
                i += 1;
            }
            i += 1;
            break;
        }
        if field != fields {
            return None;
        }
        rows += 1;
    }
    (rows > 0).then_some(raw)
}

/// A cell's finite value, trimmed and parsed as the general reader does, or None.
#[inline]
fn cell_value(cell: &[u8]) -> Option<f64> {
    // SAFETY: `plain_rows` checked that the text is ASCII, hence valid UTF-8.
    let cell = unsafe { std::str::from_utf8_unchecked(cell) }.trim();
    if cell.is_empty() {
        return None;
    }
    let v: f64 = cell.parse().ok()?;
    v.is_finite().then_some(v)
}
