//! # Certificate files
//!
//! Writing and reading a [`BnpCertificate`] (JSON, gzip-compressed when the name ends in
//! `.gz`), and [`BnpCertificate::parse`]'s shape checks: format tag, lengths, finite numbers.

use super::{BnpCertificate, FORMAT};
use crate::error::Result;
use std::path::Path;

impl BnpCertificate {
    /// Write as compact JSON ([`crate::certificate::write_text`]: gzip-compressed when `path`
    /// ends in `.gz`, written atomically).
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self).expect("a certificate serialises") + "\n";
        crate::certificate::write_text(path, &text)
    }

    /// Read and parse a certificate file (gzipped or not).
    pub fn read(path: &Path) -> Result<Self> {
        Self::parse(
            &crate::certificate::read_text(path)?,
            &path.display().to_string(),
        )
    }

    /// Parse and check the shape (format, lengths, finite numbers).
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let bad = crate::certificate::shape_error(file);
        let c: BnpCertificate =
            serde_json::from_str(text).map_err(|e| bad(format!("not a bnp certificate: {e}")))?;
        if let Some(problem) = crate::certificate::format_problem(&c.format, FORMAT) {
            return Err(bad(problem));
        }
        if !c.lower_bound.is_finite() {
            return Err(bad("the claimed bound is not finite".into()));
        }
        for (j, l) in c.leaves.iter().enumerate() {
            let at = |m: String| bad(format!("leaf {j}: {m}"));
            match l.lower_bound {
                None if !l.duals.is_empty() || !l.cut_duals.is_empty() => {
                    return Err(at("duals given for an empty region".into()))
                }
                None if l.nn_bound => return Err(at("an nn bound for an empty region".into())),
                None => {}
                Some(b) if l.nn_bound => {
                    if !b.is_finite() {
                        return Err(at("the claimed bound is not finite".into()));
                    }
                    if !l.duals.is_empty() || !l.cut_duals.is_empty() {
                        return Err(at("duals given with an nn bound".into()));
                    }
                }
                Some(b) => {
                    if !b.is_finite() {
                        return Err(at("the claimed bound is not finite".into()));
                    }
                    if l.duals.len() != c.n {
                        return Err(at(format!("{} duals for n = {}", l.duals.len(), c.n)));
                    }
                    if let Some(problem) = duals_problem(&l.duals, &l.cut_duals, c.cuts.len()) {
                        return Err(at(problem));
                    }
                }
            }
        }
        if let Some(e) = &c.enumeration {
            let at = |m: String| bad(format!("enumeration: {m}"));
            if !e.lower_bound.is_finite() {
                return Err(at("the claimed bound is not finite".into()));
            }
            if e.duals.len() != c.n || e.labels.len() != c.n {
                return Err(at(format!(
                    "{} duals and {} labels for n = {}",
                    e.duals.len(),
                    e.labels.len(),
                    c.n
                )));
            }
            if let Some(problem) = duals_problem(&e.duals, &e.cut_duals, c.cuts.len()) {
                return Err(at(problem));
            }
        }
        Ok(c)
    }
}

/// What is wrong with a leaf's or the enumeration's duals, if anything: more cut duals than
/// the certificate's `cuts`, or a value that is not finite.
fn duals_problem(duals: &[f64], cut_duals: &[f64], cuts: usize) -> Option<String> {
    if cut_duals.len() > cuts {
        Some(format!("{} cut duals for {cuts} cuts", cut_duals.len()))
    } else if duals.iter().chain(cut_duals).any(|v| !v.is_finite()) {
        Some("a dual is not finite".into())
    } else {
        None
    }
}
