//! # Instance keys
//!
//! The library keys an instance by the sha256 of its standardised data and its column
//! choice: the column names, n, d and every z-score's bits. The same file read with other
//! columns is another instance; the same values under another file name are the same one.
//!
//! ## Complexity
//! O(n d).

use crate::data::Instance;
use sha2::{Digest, Sha256};

/// The library key of `inst` (64 hex digits).
pub fn instance_key(inst: &Instance) -> String {
    let mut h = Sha256::new();
    h.update(b"microagg-library-key/1\n");
    for c in &inst.columns {
        h.update((c.len() as u64).to_le_bytes());
        h.update(c.as_bytes());
    }
    h.update((inst.n as u64).to_le_bytes());
    h.update((inst.d as u64).to_le_bytes());
    for v in &inst.z {
        h.update(v.to_bits().to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// sha256 of a file's bytes (certificates are cached by it).
pub(crate) fn file_sha256(path: &std::path::Path) -> crate::error::Result<String> {
    let bytes = std::fs::read(path).map_err(|e| crate::error::Error::io(path, e))?;
    Ok(Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}
