//! # Strata
//!
//! sdcMicro's strata: rows are grouped by the values of one or more text columns
//! (`--strata REGION,SEX`), and microaggregation runs inside each stratum separately, so
//! that no group mixes records of two strata. A stratum with fewer than k records cannot be
//! microaggregated on its own: that is an error naming the stratum and its size, never a
//! silent merge. Strata are ordered by their value tuples (byte order of the text), which
//! fixes the order of units and labels whatever the order of the rows.
//!
//! ## Complexity
//! O(n + s log s) for n rows in s strata.
//!
//! ## References
//! Templ, Kowarik & Meindl (2015), Journal of Statistical Software 67(4) (sdcMicro,
//! `microaggregation(..., strata_variables = ...)`).

use crate::data::StrataColumns;
use crate::error::{Error, Result};

/// A unit of work: rows solved together, never mixed with another unit's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// e.g. `REGION=3,SEX=1`, or `all` for the whole data.
    pub name: String,
    /// Row indices in ascending order.
    pub rows: Vec<usize>,
}

/// Strata most listed in a "below k" error; the count covers the rest.
const LISTED: usize = 10;

/// The strata as units, ordered by value tuple; `file` names the data in errors. Every
/// stratum must hold at least k records.
pub fn strata_units(s: &StrataColumns, k: usize, file: &str) -> Result<Vec<Unit>> {
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); s.keys.len()];
    for (i, &id) in s.of_row.iter().enumerate() {
        rows[id as usize].push(i);
    }
    let mut order: Vec<usize> = (0..s.keys.len()).collect();
    order.sort_by(|&a, &b| s.keys[a].cmp(&s.keys[b]));
    let units: Vec<Unit> = order
        .into_iter()
        .map(|id| Unit {
            name: s
                .names
                .iter()
                .zip(&s.keys[id])
                .map(|(c, v)| format!("{c}={v}"))
                .collect::<Vec<_>>()
                .join(","),
            rows: std::mem::take(&mut rows[id]),
        })
        .collect();
    let small: Vec<&Unit> = units.iter().filter(|u| u.rows.len() < k).collect();
    if !small.is_empty() {
        let mut listed: Vec<String> = small
            .iter()
            .take(LISTED)
            .map(|u| format!("stratum {} has {} records", u.name, u.rows.len()))
            .collect();
        if small.len() > LISTED {
            listed.push(format!("... {} strata in all", small.len()));
        }
        return Err(Error::Data {
            file: file.into(),
            location: format!("strata column(s) '{}'", s.names.join("', '")),
            message: format!(
                "{} below k = {k}: a stratum is microaggregated on its own, so it needs at \
                 least k records (merge small strata into a coarser value, or leave the \
                 column out of --strata)",
                listed.join("; ")
            ),
        });
    }
    Ok(units)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(values: &[&str]) -> StrataColumns {
        let mut keys: Vec<Vec<String>> = Vec::new();
        let of_row = values
            .iter()
            .map(|v| {
                let key = vec![v.to_string()];
                match keys.iter().position(|k| *k == key) {
                    Some(p) => p as u32,
                    None => {
                        keys.push(key);
                        (keys.len() - 1) as u32
                    }
                }
            })
            .collect();
        StrataColumns {
            names: vec!["R".into()],
            keys,
            of_row,
        }
    }

    #[test]
    fn units_are_ordered_by_value_and_hold_their_rows() {
        let u = strata_units(&columns(&["b", "a", "b", "a", "b"]), 2, "f.csv").unwrap();
        assert_eq!(u.len(), 2);
        assert_eq!((u[0].name.as_str(), u[0].rows.clone()), ("R=a", vec![1, 3]));
        assert_eq!(
            (u[1].name.as_str(), u[1].rows.clone()),
            ("R=b", vec![0, 2, 4])
        );
    }

    #[test]
    fn a_stratum_below_k_is_an_error_naming_it_and_its_size() {
        let e = strata_units(&columns(&["b", "a", "b", "a", "b"]), 3, "f.csv")
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.csv") && e.contains("'R'"), "{e}");
        assert!(
            e.contains("stratum R=a has 2 records") && e.contains("k = 3"),
            "{e}"
        );
        assert!(!e.contains("R=b"), "{e}");
    }
}
