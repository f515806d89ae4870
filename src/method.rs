//! # Methods and their registry
//!
//! A method is an [`Initializer`] (builds a partition from nothing) or a
//! [`Refiner`](crate::search::Refiner) (improves one). Each algorithm module exposes a
//! `pub fn method() -> MethodInfo`; [`registry`] is the one list of them, so adding an
//! algorithm touches its own module and one line here. `microagg list` prints the registry.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::params::{parse_params, Params};
use crate::partition::Partition;
use crate::rng::Rng;
use crate::search::Refiner;
use serde_json::{Map, Value};

/// Builds a feasible partition (every group of at least k records).
pub trait Initializer: Send {
    fn name(&self) -> &str;
    fn build(&self, inst: &Instance, k: usize, rng: &mut Rng) -> Result<Partition>;
}

/// What a registered method is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodKind {
    Initializer,
    Refiner,
}

type InitFactory = Box<dyn Fn(&Map<String, Value>) -> Result<Box<dyn Initializer>> + Send + Sync>;
type ParamsResolver = Box<dyn Fn(&Map<String, Value>) -> Result<Value> + Send + Sync>;
type RefinerFactory = Box<dyn Fn(&Map<String, Value>) -> Result<Box<dyn Refiner>> + Send + Sync>;

enum Factory {
    Init(InitFactory),
    Refine(RefinerFactory),
}

/// A registry entry: name, description, parameters with defaults, and a factory.
pub struct MethodInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub reference: &'static str,
    /// (parameter, description) pairs.
    pub params_doc: &'static [(&'static str, &'static str)],
    /// Default parameters as JSON.
    pub defaults: Value,
    /// The method needs one-attribute data (d = 1).
    pub one_attribute: bool,
    /// Effective parameters (defaults filled in) for user-given ones, validated.
    effective: ParamsResolver,
    factory: Factory,
}

impl MethodInfo {
    /// Register an initializer with parameters `P`, made by `make`.
    pub fn initializer<P: Params, I: Initializer + 'static>(
        name: &'static str,
        summary: &'static str,
        reference: &'static str,
        make: fn(P) -> I,
    ) -> Self {
        MethodInfo {
            name,
            summary,
            reference,
            params_doc: P::DOC,
            defaults: serde_json::to_value(P::default()).expect("params serialise"),
            one_attribute: false,
            effective: Box::new(move |given| {
                let p: P = parse_params(name, given)?;
                Ok(serde_json::to_value(p).expect("params serialise"))
            }),
            factory: Factory::Init(Box::new(move |given| {
                let p: P = parse_params(name, given)?;
                Ok(Box::new(make(p)) as Box<dyn Initializer>)
            })),
        }
    }

    /// Register a refiner with parameters `P`, made by `make`.
    pub fn refiner<P: Params, R: Refiner + 'static>(
        name: &'static str,
        summary: &'static str,
        reference: &'static str,
        make: fn(P) -> R,
    ) -> Self {
        MethodInfo {
            name,
            summary,
            reference,
            params_doc: P::DOC,
            defaults: serde_json::to_value(P::default()).expect("params serialise"),
            one_attribute: false,
            effective: Box::new(move |given| {
                let p: P = parse_params(name, given)?;
                Ok(serde_json::to_value(p).expect("params serialise"))
            }),
            factory: Factory::Refine(Box::new(move |given| {
                let p: P = parse_params(name, given)?;
                Ok(Box::new(make(p)) as Box<dyn Refiner>)
            })),
        }
    }

    /// Mark the method as needing one-attribute data (d = 1).
    pub fn one_attribute(mut self) -> Self {
        self.one_attribute = true;
        self
    }

    pub fn kind(&self) -> MethodKind {
        match self.factory {
            Factory::Init(_) => MethodKind::Initializer,
            Factory::Refine(_) => MethodKind::Refiner,
        }
    }

    /// Validated parameters with defaults filled in.
    pub fn effective_params(&self, given: &Map<String, Value>) -> Result<Value> {
        (self.effective)(given)
    }

    pub fn make_initializer(&self, given: &Map<String, Value>) -> Result<Box<dyn Initializer>> {
        match &self.factory {
            Factory::Init(f) => f(given),
            Factory::Refine(_) => Err(Error::usage(format!(
                "'{}' is a refiner: it must follow an initializer (e.g. mdav+{})",
                self.name, self.name
            ))),
        }
    }

    pub fn make_refiner(&self, given: &Map<String, Value>) -> Result<Box<dyn Refiner>> {
        match &self.factory {
            Factory::Refine(f) => f(given),
            Factory::Init(_) => Err(Error::usage(format!(
                "'{}' is an initializer: it can only be the first stage of a pipeline",
                self.name
            ))),
        }
    }
}

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
