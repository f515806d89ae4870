//! # The library's manifest
//!
//! `library.toml`: one `[[instance]]` per instance (its key, name, how to load it) and one
//! `[[case]]` per (instance, k) with the best-known partition and the best certified bound,
//! each with its provenance. Written back whole (sorted) when a submission is accepted.
//!
//! ## Complexity
//! Linear in the manifest.

use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(default)]
    pub instance: Vec<InstanceEntry>,
    #[serde(default)]
    pub case: Vec<Case>,
}

/// An instance: its key ([`super::key::instance_key`]) and how to load it again.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct InstanceEntry {
    /// Short name shown in tables; unique in the library.
    pub name: String,
    /// sha256 of the standardised data and the column choice.
    pub key: String,
    /// The `--data` argument that loads it (an instance id, a generator spec or a path).
    pub data: String,
    /// The `--columns` choice (empty: the data's default columns).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    pub n: usize,
    pub d: usize,
}

/// How a result was obtained.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The command that reproduces it with today's program (a bound recipe as its
    /// `--preset`; a study probe's run with where its result is written up), or where it is
    /// described; `commit` names the build that produced it.
    pub command: String,
    /// The git commit of the build that produced it (or submitted it).
    pub commit: String,
    /// When (UTC date).
    pub date: String,
}

/// The best-known partition of a case.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StoredPartition {
    /// Labels file, relative to the library folder.
    pub file: String,
    pub sse: f64,
    /// IL in percent.
    pub il: f64,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// The best certified bound of a case.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StoredBound {
    /// Certificate file (`verify-bound` format), relative to the library folder.
    pub file: String,
    /// sha256 of the certificate file (the key of the verification cache).
    pub sha256: String,
    /// The certificate's claim: a lower bound on the optimal SSE.
    pub value: f64,
    #[serde(flatten)]
    pub provenance: Provenance,
}

/// One (instance, k).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The instance's name.
    pub instance: String,
    pub k: usize,
    /// True when the bound proves the partition optimal (`verify-bound --labels`: within
    /// the relative gap of proofs/P12).
    #[serde(default)]
    pub proven_optimal: bool,
    pub partition: Option<StoredPartition>,
    pub bound: Option<StoredBound>,
}

impl Manifest {
    pub fn read(path: &Path) -> Result<Manifest> {
        let Some(text) = super::read_if_present(path)? else {
            return Ok(Manifest::default());
        };
        toml::from_str(&text).map_err(|e| Error::Data {
            file: path.display().to_string(),
            location: "manifest".into(),
            message: e.to_string(),
        })
    }

    /// Write sorted (instances by name, cases by instance and k), atomically.
    pub fn write(&mut self, path: &Path) -> Result<()> {
        self.instance.sort_by(|a, b| a.name.cmp(&b.name));
        self.case
            .sort_by(|a, b| (&a.instance, a.k).cmp(&(&b.instance, b.k)));
        let body = toml::to_string(self).map_err(|e| Error::usage(format!("library: {e}")))?;
        let text = format!("{HEADER}{body}");
        crate::output::write_atomic(path, text.as_bytes())
    }

    pub(crate) fn instance_by_key(&self, key: &str) -> Option<&InstanceEntry> {
        self.instance.iter().find(|i| i.key == key)
    }

    pub fn instance_by_name(&self, name: &str) -> Option<&InstanceEntry> {
        self.instance.iter().find(|i| i.name == name)
    }

    pub fn case(&self, instance: &str, k: usize) -> Option<&Case> {
        self.case
            .iter()
            .find(|c| c.instance == instance && c.k == k)
    }

    /// The case, added empty when missing.
    pub(crate) fn case_mut(&mut self, instance: &str, k: usize) -> &mut Case {
        if let Some(i) = self
            .case
            .iter()
            .position(|c| c.instance == instance && c.k == k)
        {
            return &mut self.case[i];
        }
        self.case.push(Case {
            instance: instance.to_string(),
            k,
            proven_optimal: false,
            partition: None,
            bound: None,
        });
        self.case.last_mut().expect("just pushed")
    }
}

const HEADER: &str = "\
# The benchmark library (README.md beside this file): per instance, keyed by the sha256 of
# its standardised data and column choice, and per k, the best-known partition and the best
# certified bound with their provenance. Written by `microagg library submit`; verified
# values are cached in verified.tsv (`microagg library verify`).

";
