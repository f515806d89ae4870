//! # Bound options
//!
//! The optional inputs of a registered bound ([`super::compute_with`]) and their setting
//! from `--bound-param KEY=VALUE` text, checked against the registry. O(1) per parameter
//! (a start labels file is read in O(n)).

use super::{colgen_params, find};
use crate::error::{Error, Result};

/// Optional inputs of [`super::compute_with`].
#[derive(Debug, Clone, Default)]
pub struct BoundOptions {
    /// `colgen`, `bnp`: a feasible partition (one label per record, every group of at least
    /// k records, e.g. a best-known labels file) whose groups seed the master next to the
    /// [`super::COLGEN_START`] partition.
    pub start: Option<Vec<usize>>,
    /// Where `start` came from (a file name), for error messages.
    pub start_source: String,
    /// Progress on stderr when it is not a terminal too ([`super::ticker`]); `colgen` adds
    /// one line per master iteration.
    pub progress: bool,
    /// No progress on stderr, even on a terminal (`--quiet`).
    pub quiet: bool,
    /// Rounds of subset-row cuts (`--cuts R`, `cuts = R`); `None`: the bound's default
    /// (colgen 0, colgen-cuts 50 after the master converged; bnp 50 at the root and one at
    /// every other node). `Some(0)` means no cuts at all (for bnp: neither at the root nor
    /// at any node, plain branch-and-price); `Some(R)`: colgen and colgen-cuts R rounds,
    /// bnp R rounds at the root (and one at every other node).
    pub cut_rounds: Option<usize>,
    /// `colgen`: the k = 10 options ([`colgen_params`]).
    pub k10: colgen_params::K10Options,
    /// `bnp`: most search nodes processed, the root included (`--max-nodes`, `max_nodes`;
    /// 0: no limit). Fewer nodes leave fewer leaves, so a smaller certificate.
    pub max_nodes: u64,
    /// `bnp`: most subset-row cuts in all (`--max-cuts`, `max_cuts`; 0: the engine's
    /// default, 4000). More cuts can raise the root bound further, each one costs master
    /// time and a dual per leaf in the certificate.
    pub max_cuts: usize,
    /// `bnp`: separate the rank-1 cuts on four and five records too (`--rank1-cuts`,
    /// `rank1_cuts`; proofs/P21).
    pub rank1_cuts: bool,
    /// `bnp`: most records of the subset-row cuts `1/q` on fractional blocks (`--big-cuts
    /// N`, `big_cuts`; 0: off; proofs/P21 Part F).
    pub big_cut_records: usize,
    /// `bnp`: the group-count row `sum x <= floor(n/k)` in every master (`--count-row`,
    /// `count_row`; proofs/P22).
    pub count_row: bool,
    /// `bnp`: try the proof by reduced-cost enumeration after the root (`bound
    /// --enumerate`, proofs/P19).
    pub enumerate: bool,
}

impl BoundOptions {
    /// When progress is shown ([`crate::progress::Show`]).
    pub fn show(&self) -> crate::progress::Show {
        crate::progress::Show::from_flags(self.progress, self.quiet)
    }

    /// Set parameter `key` of bound `name` from text (`--bound-param KEY=VALUE`), checked
    /// against the registry: an unknown key is an error naming the bound's parameters.
    /// `time_limit` is not an option of its own: it is returned for the caller to pass on.
    pub fn set(&mut self, name: &str, key: &str, value: &str) -> Result<Option<f64>> {
        let info = find(name)?;
        if !info.params.iter().any(|p| p.key == key) {
            let keys: Vec<&str> = info.params.iter().map(|p| p.key).collect();
            return Err(Error::usage(format!(
                "bound {name} has no parameter '{key}'; its parameters: {}",
                if keys.is_empty() {
                    "none".to_string()
                } else {
                    keys.join(", ")
                }
            )));
        }
        if self.k10.set(name, key, value)? {
            return Ok(None);
        }
        let bad =
            |what: &str| Error::usage(format!("bound {name}: {key}={value}: expected {what}"));
        match key {
            "time_limit" => {
                let t: f64 = value.parse().map_err(|_| bad("a number of seconds"))?;
                crate::search::check_time_limit(t)
                    .map_err(|e| Error::usage(format!("bound {name}: time_limit {e}")))?;
                return Ok(Some(t));
            }
            "cuts" => self.cut_rounds = Some(value.parse().map_err(|_| bad("a count"))?),
            "max_nodes" => self.max_nodes = value.parse().map_err(|_| bad("a count"))?,
            "max_cuts" => self.max_cuts = value.parse().map_err(|_| bad("a count"))?,
            "rank1_cuts" => self.rank1_cuts = value.parse().map_err(|_| bad("true or false"))?,
            "big_cuts" => {
                let m: usize = value.parse().map_err(|_| bad("a count 0 or 2..=32"))?;
                if m == 1 || m > 32 {
                    return Err(bad("a count 0 or 2..=32"));
                }
                self.big_cut_records = m;
            }
            "count_row" => self.count_row = value.parse().map_err(|_| bad("true or false"))?,
            "progress" => self.progress = value.parse().map_err(|_| bad("true or false"))?,
            "start" => {
                let path = std::path::Path::new(value);
                self.start = Some(crate::labels::read_labels(path)?);
                self.start_source = value.to_string();
            }
            _ => unreachable!("every registered parameter is handled"),
        }
        Ok(None)
    }
}
