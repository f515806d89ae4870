//! # Variable roles of a released file and the order of its rows
//!
//! sdcMicro's `createSdcObj` gives every variable of a survey file a role: key variables
//! (`keyVars`, categorical; `numVars`, numerical: here the run's `--columns`, the ones
//! microaggregated), the sampling weight (`weightVar`: `--weights`), the strata
//! (`strataVar`: `--strata`), and direct identifiers (names, addresses, household ids),
//! which are removed before release. Here the direct identifiers are named with
//! `--identifiers` and are dropped from the released file unless the office asks to
//! replace them by a keyed hash ([`keyed_hash`]: pseudonyms that only the key's holder
//! can recompute) or to keep them (with a warning). Every other column is copied as read.
//!
//! Plain hashing is no protection: identifiers come from small, guessable sets (H001 ..
//! H999, national id numbers, names), so anyone can hash every candidate and look the
//! released hashes up. An HMAC-SHA256 with a secret key cannot be recomputed without the
//! key; the same key gives the same pseudonym in every release (linkable across releases
//! by whoever holds both), a new key per release gives unlinkable pseudonyms.
//!
//! The rows are shuffled by default ([`release_order`]): a file in input order keeps what
//! the order says (households sorted by id or address, survey waves, interviewer
//! routes), and an intruder who knows it can re-identify records by position. The order
//! is a permutation derived from the run's seed and a hash of the input file's bytes, so
//! the same seed and file give the same released file, and it cannot be recomputed from
//! the released file (or from the seed alone): only from the seed and the original file,
//! which is how `microagg measure --unshuffle-seed` puts the rows back.
//!
//! ## Complexity
//! Linear in the file (one sha256 pass over the input for the order, one HMAC per
//! identifier cell).
//!
//! ## References
//! Templ, Kowarik & Meindl (2015), sdcMicro, J. Stat. Softw. 67(4) (`createSdcObj`);
//! Krawczyk, Bellare & Canetti (1997), RFC 2104: HMAC; RFC 4231 (HMAC-SHA256 test vectors).

use crate::error::{Error, Result};
use rand::seq::SliceRandom;
use sha2::{Digest, Sha256};
use std::path::Path;

/// What the released file does with the direct identifiers (`--identifier-release`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IdentifierRelease {
    /// Left out of the released file (header and cells).
    #[default]
    Drop,
    /// Each cell replaced by the hex HMAC-SHA256 of its text under the --hash-key-file key
    /// (an empty cell stays empty).
    Hash,
    /// Copied as read (a warning on stderr: the file then identifies its respondents).
    Keep,
}

impl IdentifierRelease {
    pub fn name(self) -> &'static str {
        match self {
            IdentifierRelease::Drop => "drop",
            IdentifierRelease::Hash => "hash",
            IdentifierRelease::Keep => "keep",
        }
    }
}

/// The order of the released rows (`--row-order`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowOrder {
    /// A permutation derived from --seed and the input file's bytes.
    #[default]
    Shuffled,
    /// The input's order.
    Input,
}

impl RowOrder {
    pub fn name(self) -> &'static str {
        match self {
            RowOrder::Shuffled => "shuffled",
            RowOrder::Input => "input",
        }
    }
}

/// The direct identifiers of a release and their treatment, the key of `hash` included.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identifiers {
    /// As given: column names or 1-based positions of the input file.
    pub columns: Vec<String>,
    pub release: IdentifierRelease,
    pub key: Option<Vec<u8>>,
}

/// Shortest key accepted by `--hash-key-file`, in bytes.
pub(crate) const MIN_KEY_BYTES: usize = 16;

/// The key of `--hash-key-file`: the file's bytes, a final line end left out. Refused when
/// shorter than [`MIN_KEY_BYTES`] (a short key can be guessed, and then every pseudonym
/// inverted as if hashed plainly).
pub(crate) fn read_key(path: &Path) -> Result<Vec<u8>> {
    let mut key = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    for end in [b'\n', b'\r'] {
        if key.last() == Some(&end) {
            key.pop();
        }
    }
    if key.len() < MIN_KEY_BYTES {
        return Err(Error::usage(format!(
            "--hash-key-file {}: {} bytes; a key needs at least {MIN_KEY_BYTES} random bytes \
             (e.g. `openssl rand -hex 32 > {}`)",
            path.display(),
            key.len(),
            path.display()
        )));
    }
    Ok(key)
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`, as 64 lowercase hex digits.
pub fn keyed_hash(key: &[u8], message: &[u8]) -> String {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    let outer = Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize();
    outer.iter().map(|b| format!("{b:02x}")).collect()
}

/// Positions in `header` of the columns `given` (names, else 1-based positions); errors
/// name the file and the column.
pub fn resolve(header: &[String], given: &[String], file: &str) -> Result<Vec<usize>> {
    given
        .iter()
        .map(|g| {
            let g = g.trim();
            if let Some(j) = header.iter().position(|h| h.trim() == g) {
                return Ok(j);
            }
            match g.parse::<usize>() {
                Ok(p) if (1..=header.len()).contains(&p) => Ok(p - 1),
                _ => Err(Error::Data {
                    file: file.to_string(),
                    location: "header".into(),
                    message: format!(
                        "--identifiers: no column '{g}'; the file has: {}",
                        header.join(", ")
                    ),
                }),
            }
        })
        .collect()
}

/// The secret part of the row order: sha256 of a domain tag and the input file's bytes
/// (not the record's `instance_sha256`, which is printed), or, for generated data, of the
/// instance's fingerprint.
pub fn order_secret(source: &str, fingerprint: &str) -> Result<String> {
    let path = Path::new(source);
    let mut h = Sha256::new();
    h.update(b"microagg-release-order-v1");
    if path.is_file() {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let mut reader = std::io::BufReader::with_capacity(1 << 16, f);
        std::io::copy(&mut reader, &mut h).map_err(|e| Error::io(path, e))?;
    } else {
        h.update(fingerprint.as_bytes());
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// The released order of `n` rows: slot s of the released file holds input row
/// `order[s]`. A uniform permutation (Fisher-Yates) from the workbench RNG seeded by
/// `seed` and `secret` ([`order_secret`]).
pub fn release_order(n: usize, seed: u64, secret: &str) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = crate::rng::rng_for(seed, &["release-order", secret]);
    order.shuffle(&mut rng);
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // Test case 2 (short key), and test case 6 (key longer than a block).
        assert_eq!(
            keyed_hash(b"Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            keyed_hash(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            ),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    #[test]
    fn the_order_is_a_permutation_fixed_by_seed_and_secret() {
        let a = release_order(50, 7, "s");
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(a, release_order(50, 7, "s"));
        assert_ne!(a, release_order(50, 8, "s"));
        assert_ne!(a, release_order(50, 7, "t"));
    }

    #[test]
    fn columns_resolve_by_name_then_position() {
        let h: Vec<String> = ["id", "x", "3"].iter().map(|s| s.to_string()).collect();
        assert_eq!(resolve(&h, &["x".into(), "1".into()], "f").unwrap(), [1, 0]);
        assert_eq!(resolve(&h, &["3".into()], "f").unwrap(), [2]);
        let e = resolve(&h, &["name".into()], "f.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.csv") && e.contains("'name'"), "{e}");
    }
}
