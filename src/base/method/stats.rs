//! # Stage counters
//!
//! [`Stats`]: named counters a refiner reports at the end of a stage, serialised
//! transparently as a JSON object in name order (a `BTreeMap`, so output is deterministic).
//! Moved out of [`super`] unchanged.
//!
//! ## Complexity
//! O(log c) per update with c counters.
//!
//! ## References
//! - argmin (Rust optimization library, S. Kroboth and contributors): solvers report
//!   counters that the executor's observers record.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Named counters a refiner reports at the end of a stage (iterations, accepted moves,
/// operator evaluations and applications, ...), written into run records.
///
/// ```
/// use microagg::method::Stats;
/// let mut s = Stats::default();
/// s.set("iterations", 3);
/// s.add("iterations", 2);
/// assert_eq!(s.get("iterations"), Some(5));
/// assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"iterations":5}"#);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(transparent)]
pub struct Stats(pub BTreeMap<String, u64>);

impl Stats {
    pub fn set(&mut self, name: &str, value: u64) {
        self.0.insert(name.to_string(), value);
    }
    pub fn add(&mut self, name: &str, value: u64) {
        *self.0.entry(name.to_string()).or_insert(0) += value;
    }
    pub fn get(&self, name: &str) -> Option<u64> {
        self.0.get(name).copied()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Add an operator's counters as `NAME_evaluations` and `NAME_applications`.
    pub fn operator(&mut self, name: &str, evaluations: u64, applications: u64) {
        self.add(&format!("{name}_evaluations"), evaluations);
        self.add(&format!("{name}_applications"), applications);
    }
}
