//! # The verification cache
//!
//! `verified.tsv`: one row per certificate that `library verify` (or an accepted
//! submission) verified, keyed by the sha256 of the certificate file: the claim it proves
//! and the bound recomputed from its duals. Verifying a stored certificate can take minutes
//! (census k = 10: 3-4 min), so `list`, `run` and reports read this file instead; the test
//! suite re-verifies its rows (`tests/run/library.rs`). A row is used only for a file whose
//! bytes still hash to its key.
//!
//! ## Complexity
//! Linear in the file.

use crate::error::{Error, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// One verified certificate.
#[derive(Debug, Clone, PartialEq)]
pub struct Verified {
    /// The certificate file's name when it was verified.
    pub file: String,
    pub instance: String,
    pub k: usize,
    /// The claim, proven valid: a lower bound on the optimal SSE.
    pub claimed: f64,
    /// The bound recomputed from the duals (at least the claim).
    pub recomputed: f64,
    /// CPU-bound seconds the verification took (tests skip the slow ones by default).
    pub seconds: f64,
}

const HEADER: &str = "sha256\tfile\tinstance\tk\tclaimed\trecomputed\tseconds";

/// The cache, by certificate sha256.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cache(pub BTreeMap<String, Verified>);

impl Cache {
    pub fn read(path: &Path) -> Result<Cache> {
        let Some(text) = super::read_if_present(path)? else {
            return Ok(Cache::default());
        };
        let bad = |line: usize, message: String| Error::Data {
            file: path.display().to_string(),
            location: format!("line {line}"),
            message,
        };
        let mut rows = BTreeMap::new();
        for (i, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 7 {
                return Err(bad(
                    i + 1,
                    format!("expected 7 fields ({HEADER}), found {}", f.len()),
                ));
            }
            let num = |j: usize| -> Result<f64> {
                f[j].parse::<f64>().map_err(|_| {
                    bad(
                        i + 1,
                        format!("field {}: '{}' is not a number", j + 1, f[j]),
                    )
                })
            };
            let k = f[3]
                .parse::<usize>()
                .map_err(|_| bad(i + 1, format!("k '{}' is not a count", f[3])))?;
            rows.insert(
                f[0].to_string(),
                Verified {
                    file: f[1].to_string(),
                    instance: f[2].to_string(),
                    k,
                    claimed: num(4)?,
                    recomputed: num(5)?,
                    seconds: num(6)?,
                },
            );
        }
        Ok(Cache(rows))
    }

    /// Write sorted by sha256 (deterministic), atomically.
    pub fn write(&self, path: &Path) -> Result<()> {
        let mut text = format!("{HEADER}\n");
        for (sha, v) in &self.0 {
            text.push_str(&format!(
                "{sha}\t{}\t{}\t{}\t{:?}\t{:?}\t{:.1}\n",
                v.file, v.instance, v.k, v.claimed, v.recomputed, v.seconds
            ));
        }
        crate::output::write_atomic(path, text.as_bytes())
    }
}
