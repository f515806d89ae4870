//! # Certificate files: one JSON document, plain or in one gzip member
//!
//! A certificate file holds exactly one JSON document, either as it is or compressed as a
//! single gzip member (`.json.gz`: [`write_text`] writes it so when the name ends in `.gz`,
//! for every kind of certificate). [`read_text`] refuses
//! everything else, so that what is verified is all the file says: a second gzip member
//! (which a reader of only the first would skip), bytes after the gzip stream, text whose
//! decompressed size exceeds [`MAX_TEXT_BYTES`] (a small file that inflates to gigabytes is
//! refused after reading at most that much, in that much memory) and text that is not UTF-8.
//! The typed parsers refuse anything after the JSON document. [`format_of`] reads the
//! format tag, which decides the parser, and names the field when it is missing or unknown.
//!
//! ## Complexity
//! O(size of the file + its decompressed text), memory at most [`MAX_TEXT_BYTES`] plus the
//! file.
//!
//! ## References
//! Deutsch, P. (1996). GZIP file format specification version 4.3. RFC 1952 (a file may
//! hold several members; certificates hold one).

use crate::error::{Error, Result};
use std::io::Read;
use std::path::Path;

/// Largest certificate text read, compressed or not: 64 MiB, 40 times the largest stored
/// certificate (`instances/library/eia-k4.bnp.json.gz`, 1.6 MB of JSON).
pub const MAX_TEXT_BYTES: usize = 64 << 20;

/// The format tags this program reads, each with what it certifies.
pub(crate) const FORMATS: [&str; 4] = [
    crate::certificate::FORMAT,
    crate::certificate::FORMAT_CUTS,
    crate::bnp_certificate::FORMAT,
    crate::certificate::weighted::FORMAT,
];

/// The text of a certificate file (module doc): gunzipped when it starts with the gzip
/// magic bytes; refused when it is more than one gzip member, has bytes after the gzip
/// stream, is longer than [`MAX_TEXT_BYTES`] (before or after decompression) or is not
/// UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let refuse = |message: String| Error::Data {
        file: path.display().to_string(),
        location: "certificate".into(),
        message,
    };
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let too_long = |what: &str| {
        refuse(format!(
            "{what} is longer than {} MiB, the most a certificate may hold",
            MAX_TEXT_BYTES >> 20
        ))
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_TEXT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() > MAX_TEXT_BYTES {
        return Err(too_long("the file"));
    }
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return String::from_utf8(bytes).map_err(|e| refuse(format!("not UTF-8 text: {e}")));
    }
    let mut member = flate2::bufread::GzDecoder::new(&bytes[..]);
    let mut text = Vec::new();
    (&mut member)
        .take(MAX_TEXT_BYTES as u64 + 1)
        .read_to_end(&mut text)
        .map_err(|e| refuse(format!("not a valid gzip stream: {e}")))?;
    if text.len() > MAX_TEXT_BYTES {
        return Err(too_long("the decompressed text"));
    }
    // The decoder has read the member's trailer (size and CRC checked); what follows is not
    // part of the certificate it verified.
    let rest = member.into_inner();
    if rest.starts_with(&[0x1f, 0x8b]) {
        return Err(refuse(format!(
            "a second gzip member follows the first ({} bytes); a certificate is one member",
            rest.len()
        )));
    }
    if !rest.is_empty() {
        return Err(refuse(format!(
            "{} bytes follow the end of the gzip stream",
            rest.len()
        )));
    }
    String::from_utf8(text).map_err(|e| refuse(format!("not UTF-8 text: {e}")))
}

/// Only the format tag of a certificate (every other field skipped unread).
#[derive(serde::Deserialize)]
struct Tag {
    format: Option<serde_json::Value>,
}

/// Write certificate `text` to `path` as one gzip member when the name ends in `.gz` (fixed
/// compression level, so the same text gives the same bytes), else as it is; atomically
/// ([`crate::output::write_atomic`]: an existing file is never left half-written, links are
/// followed, `-` is standard output). [`read_text`] reads either back.
pub fn write_text(path: &Path, text: &str) -> Result<()> {
    let bytes = if path.extension().is_some_and(|e| e == "gz") {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(text.as_bytes()).expect("writing to memory");
        z.finish().expect("writing to memory")
    } else {
        text.as_bytes().to_vec()
    };
    crate::output::write_atomic(path, &bytes)
}

/// The format tag of certificate `text` (from `file`): one of `FORMATS`; an error names
/// the field `format` when it is missing, not a string or not a known tag, and refuses a
/// text that is not one JSON object.
pub fn format_of(text: &str, file: &str) -> Result<&'static str> {
    let refuse = |message: String| Error::Data {
        file: file.to_string(),
        location: "certificate".into(),
        message,
    };
    let tag: Tag = serde_json::from_str(text)
        .map_err(|e| refuse(format!("not a certificate (one JSON object): {e}")))?;
    let known = FORMATS.join("', '");
    match tag.format {
        None => Err(refuse(format!(
            "no field 'format'; a certificate names its format: '{known}'"
        ))),
        Some(serde_json::Value::String(s)) => {
            FORMATS.into_iter().find(|f| *f == s).ok_or_else(|| {
                refuse(format!(
                    "field 'format' is '{s}', not a format this program reads ('{known}')"
                ))
            })
        }
        Some(other) => Err(refuse(format!(
            "field 'format' is {}, not a string; expected one of '{known}'",
            kind_of(&other)
        ))),
    }
}

/// What kind of JSON value `v` is, for messages (never the value itself, which may be long).
fn kind_of(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}
