//! # Registry
//!
//! The one file that imports every algorithm: [`registry`] lists each module's
//! `method()` ([`MethodInfo`]), initializers first, in a stable order that `microagg list`
//! prints. Adding an algorithm is its own file plus one line here. [`find`] looks a name up
//! and suggests the nearest names for a misspelt one.
//!
//! ## Complexity
//! [`registry`] builds every entry, O(methods); [`nearest`] O(methods x |name|^2).
//!
//! ## References
//! - Damerau, F. J. (1964). A technique for computer detection and correction of spelling
//!   errors. Communications of the ACM 7(3), 171-176 (adjacent transpositions).

use crate::error::{Error, Result};
use crate::method::MethodInfo;

/// Every registered method, initializers first, in a stable order.
pub fn registry() -> Vec<MethodInfo> {
    use crate::init;
    vec![
        init::mdav::method(),
        init::mdav_generic::method(),
        init::mdav1::method(),
        init::univariate::method(),
        init::mdav_nc::method(),
        init::cbfs::method(),
        init::cbfs_nn::method(),
        init::tfrp::method(),
        init::tfrp_nc::method(),
        init::gsms::method(),
        init::mdav_a1::method(),
        init::mdav_single::method(),
        init::vmdav::method(),
        init::mdav2k::method(),
        init::md::method(),
        init::dbfs::method(),
        init::dba::method(),
        init::ps_meansort::method(),
        init::ps_multidsort::method(),
        init::mhm_mdav::method(),
        init::mhm_md::method(),
        init::mhm_cbfs::method(),
        init::mhm_npn::method(),
        init::mhm_pc1::method(),
        init::mhm_zsum::method(),
        init::mhm_var::method(),
        init::proj_pc1::method(),
        init::proj_zsum::method(),
        init::proj_var::method(),
        init::random::method(),
        init::semirandom::method(),
        init::rimhm::method(),
        init::kward::method(),
        init::mst::method(),
        init::muapprox::method(),
        init::ga::method(),
        init::fcm::method(),
        init::pcl::method(),
        crate::search::descent::method(),
        crate::search::sa::method(),
        crate::search::ils::method(),
        crate::search::tfrp2::method(),
        crate::search::decompose_shrink::method(),
        crate::search::imhm::method(),
        crate::search::lahc::method(),
    ]
}

/// Look a method up by name; for an unknown name the error suggests the nearest known
/// names (edit distance) instead of listing all of them.
pub fn find(name: &str) -> Result<MethodInfo> {
    let mut all = registry();
    match all.iter().position(|m| m.name == name) {
        Some(p) => Ok(all.swap_remove(p)),
        None => {
            let names: Vec<&str> = all.iter().map(|m| m.name).collect();
            let near = nearest(name, &names);
            let hint = if near.is_empty() {
                String::new()
            } else {
                format!(
                    "; did you mean {}?",
                    near.iter()
                        .map(|n| format!("'{n}'"))
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            };
            Err(Error::usage(format!(
                "unknown method '{name}'{hint} (`microagg list` shows all {} methods)",
                names.len()
            )))
        }
    }
}

/// Known names within a small edit distance of `name` (at most three, nearest first).
pub fn nearest<'a>(name: &str, known: &[&'a str]) -> Vec<&'a str> {
    let limit = (name.chars().count() / 3).clamp(1, 3);
    let mut scored: Vec<(usize, &str)> = known
        .iter()
        .map(|k| (edit_distance(&name.to_lowercase(), k), *k))
        .filter(|(d, _)| *d <= limit)
        .collect();
    scored.sort();
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

/// Edit distance with adjacent transpositions (optimal string alignment: insertions,
/// deletions, substitutions and swaps of neighbours each cost 1), O(|a| |b|).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut dist = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in dist.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in dist[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (dist[i - 1][j] + 1)
                .min(dist[i][j - 1] + 1)
                .min(dist[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(dist[i - 2][j - 2] + 1);
            }
            dist[i][j] = d;
        }
    }
    dist[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspelt_names_get_the_nearest_suggestion() {
        assert_eq!(edit_distance("mdav", "mdav"), 0);
        assert_eq!(edit_distance("mdva", "mdav"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(nearest("vmadv", &["vmdav", "mdav", "ils"]), vec!["vmdav"]);
        let e = find("mdva").err().unwrap().to_string();
        assert!(e.contains("did you mean") && e.contains("'mdav'"), "{e}");
        assert!(!e.contains("cbfs"), "no full list: {e}");
        let e = find("zzzzzzzz").err().unwrap().to_string();
        assert!(
            !e.contains("did you mean") && e.contains("microagg list"),
            "{e}"
        );
    }
}
