//! # Instance manifest
//!
//! The named CASC instances (`instances/manifest.toml`, embedded at build time): file name,
//! sha256, shape, provenance and published values. A named file is looked up in
//! `$MICROAGG_DATA`, then `instances/data/`, then `../shared/instances/` (each relative to
//! the working directory, then to the source tree), and must match its recorded sha256.

use super::csv_file::ColumnSelection;
use super::instance::sha256_hex;
use crate::error::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

const MANIFEST_TOML: &str = include_str!("../../../instances/manifest.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub instance: Vec<InstanceEntry>,
    #[serde(default)]
    pub published: Vec<PublishedValues>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstanceEntry {
    pub id: String,
    pub file: String,
    pub sha256: String,
    pub n: usize,
    pub d: usize,
    pub description: String,
    pub source: String,
    /// Columns to use when none are given (default: all columns of the file).
    #[serde(default)]
    pub columns: Option<Vec<String>>,
}

/// Values printed in a paper for one instance and method, keyed by k.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublishedValues {
    pub instance: String,
    pub method: String,
    pub source: String,
    #[serde(default)]
    pub il: BTreeMap<String, f64>,
    #[serde(default)]
    pub sse: BTreeMap<String, f64>,
}

impl Manifest {
    /// The manifest compiled into the binary.
    pub fn embedded() -> Result<Manifest> {
        toml::from_str(MANIFEST_TOML)
            .map_err(|e| Error::usage(format!("instances/manifest.toml: {e}")))
    }

    pub fn find(&self, id: &str) -> Option<&InstanceEntry> {
        self.instance.iter().find(|e| e.id == id)
    }

    /// Published value for (instance, method, k): (il, sse, source).
    pub fn published(
        &self,
        instance: &str,
        method: &str,
        k: usize,
    ) -> Option<(Option<f64>, Option<f64>, &str)> {
        let key = k.to_string();
        self.published
            .iter()
            .filter(|p| p.instance == instance && p.method == method)
            .find_map(|p| {
                let il = p.il.get(&key).copied();
                let sse = p.sse.get(&key).copied();
                (il.is_some() || sse.is_some()).then_some((il, sse, p.source.as_str()))
            })
    }
}

impl InstanceEntry {
    pub(crate) fn default_columns(&self) -> ColumnSelection {
        match &self.columns {
            Some(c) => ColumnSelection::List(c.clone()),
            None => ColumnSelection::All,
        }
    }

    /// Directories searched for the data files, in order.
    pub fn search_dirs() -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        if let Some(d) = std::env::var_os("MICROAGG_DATA") {
            dirs.push(PathBuf::from(d));
        }
        let src_root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        for base in [PathBuf::from("."), src_root] {
            dirs.push(base.join("instances").join("data"));
            dirs.push(base.join("..").join("shared").join("instances"));
        }
        dirs
    }

    /// Find the file and check its sha256. A file with the wrong checksum is an error (not
    /// skipped), since it would silently change every published comparison.
    pub fn resolve(&self) -> Result<PathBuf> {
        self.resolve_in(&Self::search_dirs())
    }

    /// As [`InstanceEntry::resolve`], searching `dirs` in order.
    pub fn resolve_in(&self, dirs: &[PathBuf]) -> Result<PathBuf> {
        let path = self.locate_in(dirs)?;
        let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
        self.check_sha256(&path, &sha256_hex(&bytes))?;
        Ok(path)
    }

    /// The file's path, its checksum not yet checked: for a loader that hashes the bytes
    /// as it parses them and then calls [`InstanceEntry::check_sha256`] (one read, one
    /// hash instead of two).
    pub(crate) fn locate(&self) -> Result<PathBuf> {
        self.locate_in(&Self::search_dirs())
    }

    fn locate_in(&self, dirs: &[PathBuf]) -> Result<PathBuf> {
        for dir in dirs {
            let path = dir.join(&self.file);
            if path.is_file() {
                return Ok(path);
            }
        }
        Err(Error::Instance {
            id: self.id.clone(),
            message: format!(
                "file '{}' not found; looked in: {} (set MICROAGG_DATA to the folder that holds it)",
                self.file,
                dirs.iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }

    /// The error of a file at `path` whose bytes hash to `got` (hex) when that is not the
    /// manifest's checksum.
    pub(crate) fn check_sha256(&self, path: &std::path::Path, got: &str) -> Result<()> {
        if got == self.sha256 {
            return Ok(());
        }
        Err(Error::Instance {
            id: self.id.clone(),
            message: format!(
                "{} has sha256 {got}, the manifest records {}: not the reference file",
                path.display(),
                self.sha256
            ),
        })
    }
}
