//! # The benchmark library
//!
//! One folder (`instances/library/` in the source tree; `$MICROAGG_LIBRARY` or `--library
//! DIR` names another) that holds, per instance and k, the best-known partition (a labels
//! file) and the best certified lower bound (a `verify-bound` certificate), with their
//! provenance and whether the case is proven optimal ([`manifest`]). Instances are keyed by
//! the sha256 of their standardised data and column choice (`key`), so CASC files,
//! generated families and any user CSV have entries alike. A submission is accepted only
//! after it is checked: a partition must be feasible with a strictly lower SSE, a
//! certificate must verify with a strictly higher claim ([`submit`]). Verified claims are
//! cached by certificate sha256 (`cache`); [`Library::reference`] gives `run`, suites,
//! reports and Python the best bound and best SSE known for an (instance, k).
//!
//! ## Complexity
//! Lookups are linear in the manifest plus one sha256 of the certificate file; verifying a
//! certificate costs what `verify-bound` costs (seconds to minutes).
//!
//! ## References
//! PyVRP reports the gap to the best-known solution beside its bound the same way.

pub(crate) mod cache;
pub(crate) mod key;
pub mod manifest;
pub mod submit;
pub mod verify;

pub use cache::{Cache, Verified};
pub use key::instance_key;
pub use manifest::{Case, InstanceEntry, Manifest, Provenance, StoredBound, StoredPartition};

use crate::data::{ColumnSelection, Instance};
use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// File names inside the library folder.
pub(crate) const MANIFEST_FILE: &str = "library.toml";
pub(crate) const CACHE_FILE: &str = "verified.tsv";

/// The library folder of the source tree.
pub const SOURCE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/library");

/// The library folder: `$MICROAGG_LIBRARY` when set, else the source tree's.
pub(crate) fn default_dir() -> PathBuf {
    match std::env::var_os("MICROAGG_LIBRARY") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(SOURCE_DIR),
    }
}

/// A library folder, read.
#[derive(Debug, Clone)]
pub struct Library {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub cache: Cache,
}

/// The best known of an (instance, k), for gaps.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// The stored certificate's claim, when it is in the verification cache.
    pub bound: Option<f64>,
    /// The certificate file, relative to the library folder.
    pub bound_file: Option<String>,
    /// The best-known partition's SSE.
    pub best_sse: Option<f64>,
    pub proven_optimal: bool,
}

impl Reference {
    /// The words that say where the bound comes from.
    pub(crate) const SOURCE: &'static str = "stored certificate, verified";
    /// The label of the bound (in place of a method name).
    pub(crate) const LABEL: &'static str = "library";
}

impl Library {
    /// Read `dir` (a folder without a manifest is an empty library).
    pub fn open(dir: &Path) -> Result<Library> {
        Ok(Library {
            dir: dir.to_path_buf(),
            manifest: Manifest::read(&dir.join(MANIFEST_FILE))?,
            cache: Cache::read(&dir.join(CACHE_FILE))?,
        })
    }

    /// `default_dir`, read.
    pub fn open_default() -> Result<Library> {
        Library::open(&default_dir())
    }

    pub(crate) fn save(&mut self) -> Result<()> {
        std::fs::create_dir_all(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
        self.manifest.write(&self.dir.join(MANIFEST_FILE))?;
        self.cache.write(&self.dir.join(CACHE_FILE))
    }

    /// The entry of `inst`, by its key.
    pub fn entry_of(&self, inst: &Instance) -> Option<&InstanceEntry> {
        self.manifest.instance_by_key(&instance_key(inst))
    }

    /// The stored bound's cached verification: only when the file's bytes still hash to
    /// the manifest's sha256 and that sha256 is in the cache with the same claim.
    pub fn verified(&self, bound: &StoredBound) -> Option<&Verified> {
        let v = self.cache.0.get(&bound.sha256)?;
        let sha = key::file_sha256(&self.dir.join(&bound.file)).ok()?;
        (sha == bound.sha256 && v.claimed == bound.value).then_some(v)
    }

    /// The best bound and SSE known for (instance name, k).
    pub fn reference_by_name(&self, name: &str, k: usize) -> Option<Reference> {
        let case = self.manifest.case(name, k)?;
        let verified = case.bound.as_ref().and_then(|b| self.verified(b));
        Some(Reference {
            bound: verified.map(|v| v.claimed),
            bound_file: verified.and(case.bound.as_ref().map(|b| b.file.clone())),
            best_sse: case.partition.as_ref().map(|p| p.sse),
            proven_optimal: case.proven_optimal && verified.is_some(),
        })
    }

    /// The best bound and SSE known for (`inst`, k); none for data with missing cells,
    /// whose SSE is not that of complete data.
    pub fn reference(&self, inst: &Instance, k: usize) -> Option<Reference> {
        if inst.has_missing() {
            return None;
        }
        let entry = self.entry_of(inst)?;
        self.reference_by_name(&entry.name, k)
    }

    /// Load an entry's instance again (for `verify`).
    pub fn load(&self, entry: &InstanceEntry) -> Result<Instance> {
        let columns = if entry.columns.is_empty() {
            ColumnSelection::All
        } else {
            ColumnSelection::List(entry.columns.clone())
        };
        let inst = crate::data::load(&entry.data, &columns)?;
        let got = instance_key(&inst);
        if got != entry.key {
            return Err(Error::Data {
                file: entry.data.clone(),
                location: format!("library instance '{}'", entry.name),
                message: format!(
                    "the data loaded has key {got}, the library records {}",
                    entry.key
                ),
            });
        }
        Ok(inst)
    }
}

/// The best known for (`inst`, k) in the default library, when there is one (a missing or
/// unreadable library gives none: gaps are then taken against the bounds of the run).
pub(crate) fn reference_default(inst: &Instance, k: usize) -> Option<Reference> {
    Library::open_default().ok()?.reference(inst, k)
}

/// The text of the file at `path`, or None when there is no such file (a library file not
/// written yet).
pub(crate) fn read_if_present(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}
