//! # Raw CSV records
//!
//! Splits CSV text into records and fields *without decoding them*, so that a field can be
//! written back byte for byte (its quotes, spaces and line end kept). The rules follow the
//! `csv` crate the loader uses (RFC 4180 with its defaults): a field that starts with `"`
//! is quoted until a lone `"` (a doubled `""` is a quote inside it) and may span lines; a
//! `"` elsewhere is an ordinary byte; a record ends at `\n` (or `\r\n`) outside quotes;
//! an empty line is no record; a UTF-8 byte order mark opening the file is kept but is no
//! part of the first field. The whole-file writer checks every value it replaces
//! against the loader's, so a file where the two readings could differ is refused, not
//! rewritten wrongly.
//!
//! ## Complexity
//! O(length of the record) per record; one record in memory at a time.

use std::io::BufRead;
use std::ops::Range;

/// One record: its bytes (with the line end), the byte range of each field, and the line
/// of the file it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawRecord {
    pub bytes: Vec<u8>,
    pub fields: Vec<Range<usize>>,
    /// Length of the line end (0, 1 for `\n`, 2 for `\r\n`).
    pub terminator: usize,
    pub line: usize,
}

impl RawRecord {
    /// The text of field `j` as the `csv` crate decodes it (outer quotes removed, `""` -> `"`).
    pub fn decoded(&self, j: usize) -> String {
        let raw = String::from_utf8_lossy(&self.bytes[self.fields[j].clone()]);
        match raw.strip_prefix('"') {
            Some(inner) => {
                // The closing quote may be followed by unquoted bytes ("12"x -> 12x).
                let mut out = String::new();
                let mut chars = inner.chars().peekable();
                while let Some(c) = chars.next() {
                    if c == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            out.push('"');
                        } else {
                            out.extend(chars.by_ref());
                            break;
                        }
                    } else {
                        out.push(c);
                    }
                }
                out
            }
            None => raw.into_owned(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    FieldStart,
    Unquoted,
    Quoted,
    /// A `"` inside a quoted field: the end of the quotes, or the first of `""`.
    QuoteInQuoted,
}

/// Reads raw records from buffered text.
pub(crate) struct RawReader<R> {
    inner: R,
    delimiter: u8,
    line: usize,
}

impl<R: BufRead> RawReader<R> {
    pub fn new(inner: R, delimiter: u8) -> Self {
        RawReader {
            inner,
            delimiter,
            line: 0,
        }
    }

    /// The next record, `None` at the end. Empty lines are skipped (returned in `skipped`
    /// as their bytes, so a writer can keep them).
    pub(crate) fn next_record(
        &mut self,
        skipped: &mut Vec<u8>,
    ) -> std::io::Result<Option<RawRecord>> {
        loop {
            let mut bytes = Vec::new();
            let start_line = self.line + 1;
            let mut state = State::FieldStart;
            let mut fields = Vec::new();
            let mut field_start = 0;
            let mut scanned = 0;
            loop {
                let got = self.inner.read_until(b'\n', &mut bytes)?;
                if got == 0 {
                    break;
                }
                self.line += 1;
                // A UTF-8 byte order mark before the first record is kept in its bytes but
                // is no part of its first field (the csv crate skips it too).
                if self.line == 1 && bytes.starts_with(b"\xEF\xBB\xBF") {
                    (scanned, field_start) = (3, 3);
                }
                for (i, &b) in bytes.iter().enumerate().skip(scanned) {
                    state = match state {
                        State::FieldStart if b == b'"' => State::Quoted,
                        State::FieldStart | State::Unquoted if b == self.delimiter => {
                            fields.push(field_start..i);
                            field_start = i + 1;
                            State::FieldStart
                        }
                        State::FieldStart | State::Unquoted => State::Unquoted,
                        State::Quoted if b == b'"' => State::QuoteInQuoted,
                        State::Quoted => State::Quoted,
                        State::QuoteInQuoted if b == b'"' => State::Quoted,
                        State::QuoteInQuoted if b == self.delimiter => {
                            fields.push(field_start..i);
                            field_start = i + 1;
                            State::FieldStart
                        }
                        State::QuoteInQuoted => State::Unquoted,
                    };
                }
                scanned = bytes.len();
                if state != State::Quoted && bytes.ends_with(b"\n") {
                    break;
                }
            }
            if bytes.is_empty() {
                return Ok(None);
            }
            // An unterminated quote at the end of the file holds its last line end.
            let terminator = if state == State::Quoted {
                0
            } else if bytes.ends_with(b"\r\n") {
                2
            } else if bytes.ends_with(b"\n") {
                1
            } else {
                0
            };
            let end = bytes.len() - terminator;
            if end == 0 {
                skipped.extend_from_slice(&bytes);
                continue;
            }
            fields.push(field_start.min(end)..end);
            return Ok(Some(RawRecord {
                bytes,
                fields,
                terminator,
                line: start_line,
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<(Vec<String>, Vec<String>)> {
        let mut r = RawReader::new(text.as_bytes(), b',');
        let mut out = Vec::new();
        let mut skipped = Vec::new();
        while let Some(rec) = r.next_record(&mut skipped).unwrap() {
            let raw = rec
                .fields
                .iter()
                .map(|f| String::from_utf8_lossy(&rec.bytes[f.clone()]).into_owned())
                .collect();
            let dec = (0..rec.fields.len()).map(|j| rec.decoded(j)).collect();
            out.push((raw, dec));
        }
        out
    }

    /// The records of `text` as the csv crate decodes them (no header, any field count).
    fn csv_crate_records(text: &str) -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    }

    #[test]
    fn quoted_fields_keep_their_bytes_and_decode_as_the_csv_crate_does() {
        let text = "a,\"b,c\",d\r\n1,\"say \"\"hi\"\"\",\"two\nlines\"\n\n x ,\"\",3";
        let got = records(text);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].0, ["a", "\"b,c\"", "d"]);
        assert_eq!(got[1].1, ["1", "say \"hi\"", "two\nlines"]);
        assert_eq!(got[2].0, [" x ", "\"\"", "3"]);
        // The same decoding as the csv crate, field for field.
        let decoded: Vec<Vec<String>> = got.into_iter().map(|(_, d)| d).collect();
        assert_eq!(decoded, csv_crate_records(text));
    }

    #[test]
    fn a_byte_order_mark_is_kept_but_not_in_the_first_field() {
        let text = "\u{feff}\"a\",b\n1,2\n";
        let mut r = RawReader::new(text.as_bytes(), b',');
        let rec = r.next_record(&mut Vec::new()).unwrap().unwrap();
        assert_eq!(rec.decoded(0), "a");
        assert!(rec.bytes.starts_with("\u{feff}".as_bytes()));
        let mut rdr = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(rdr.headers().unwrap().get(0), Some("a"));
    }

    #[test]
    fn trailing_empty_field_and_mid_field_quote() {
        let got = records("1,2,\n3,a\"b,4\n");
        assert_eq!(got[0].0, ["1", "2", ""]);
        assert_eq!(got[1].0, ["3", "a\"b", "4"]);
    }

    proptest::proptest! {
        /// Records and decoded fields equal the csv crate's on text built from the bytes
        /// that matter (quotes, delimiters, line ends, spaces).
        #[test]
        fn splits_as_the_csv_crate_does(tokens in proptest::collection::vec(0usize..7, 0..60)) {
            let text: String = tokens
                .iter()
                .map(|&t| ["a", "1", ",", "\"", "\n", "\r\n", " "][t])
                .collect();
            let want = csv_crate_records(&text);
            let decoded: Vec<Vec<String>> = records(&text).into_iter().map(|(_, d)| d).collect();
            proptest::prop_assert_eq!(decoded, want, "text {:?}", text);
        }
    }
}
