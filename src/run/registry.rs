//! # Registry
//!
//! The one file that imports every algorithm: `builtin_methods` lists each module's
//! `method()` ([`MethodInfo`]), initializers first, in a stable order that `microagg list`
//! prints. Adding an algorithm is its own file plus one line here. [`find`] looks a name up
//! and suggests the nearest names for a misspelt one.
//!
//! A [`Registry`] value holds the methods and the search kit's parts (perturbations,
//! acceptance rules, descent operators, [`crate::search::kit`]). A user's own crate
//! extends the built-in one ([`Registry::builtin`], [`Registry::with_method`],
//! [`Registry::with_perturb`], ..) and installs it ([`Registry::install`], or
//! `microagg::cli::main_with(registry)`), after which pipelines, suites, the experiment
//! runner, reports and `microagg list` see its entries by name.
//!
//! ```
//! use microagg::registry::Registry;
//! use microagg::search::kit::AcceptInfo;
//! use microagg::search::accept::Improving;
//! use microagg::params::NoParams;
//! let reg = Registry::builtin()
//!     .with_accept(AcceptInfo::with_params("never-worse", "keep non-worsening changes",
//!         |_: NoParams| Box::new(Improving)))
//!     .unwrap();
//! assert!(reg.accepts.iter().any(|a| a.name == "never-worse"));
//! assert!(Registry::builtin().with_method(microagg::init::lineage::mdav::method()).is_err());
//! ```
//!
//! ## Complexity
//! [`registry`] builds every entry, O(methods); `nearest` O(methods x |name|^2).
//!
//! ## References
//! - Damerau, F. J. (1964). A technique for computer detection and correction of spelling
//!   errors. Communications of the ACM 7(3), 171-176 (adjacent transpositions).

use crate::error::{Error, Result};
use crate::method::MethodInfo;
use crate::search::kit::{AcceptInfo, OperatorInfo, PartInfo, PerturbInfo};
use std::sync::{Arc, OnceLock, RwLock};

/// Methods and search-kit parts by name.
#[derive(Clone)]
pub struct Registry {
    pub methods: Vec<MethodInfo>,
    pub perturbs: Vec<PerturbInfo>,
    pub accepts: Vec<AcceptInfo>,
    pub operators: Vec<OperatorInfo>,
}

impl Registry {
    /// Everything this crate ships.
    pub fn builtin() -> Self {
        Registry {
            methods: builtin_methods(),
            perturbs: crate::search::perturb::builtin(),
            accepts: crate::search::accept::builtin(),
            operators: crate::search::operators::builtin(),
        }
    }

    /// Add a method (an error if its name is taken).
    pub fn with_method(mut self, m: MethodInfo) -> Result<Self> {
        if self.methods.iter().any(|x| x.name == m.name) {
            return Err(taken("method", m.name));
        }
        self.methods.push(m);
        Ok(self)
    }

    /// Add a perturbation (an error if its name is taken).
    pub fn with_perturb(mut self, p: PerturbInfo) -> Result<Self> {
        add_part("perturbation", &mut self.perturbs, p)?;
        Ok(self)
    }

    /// Add an acceptance rule (an error if its name is taken).
    pub fn with_accept(mut self, a: AcceptInfo) -> Result<Self> {
        add_part("acceptance rule", &mut self.accepts, a)?;
        Ok(self)
    }

    /// Add a descent operator (an error if its name is taken).
    pub fn with_operator(mut self, o: OperatorInfo) -> Result<Self> {
        add_part("operator", &mut self.operators, o)?;
        Ok(self)
    }

    /// Make this the registry every later lookup in this process uses (pipelines, suites,
    /// reports, `list`). Runs already prepared keep the parts they were built with.
    pub fn install(self) {
        *installed().write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::new(self));
    }
}

fn taken(kind: &str, name: &str) -> Error {
    Error::usage(format!("a {kind} named '{name}' is already registered"))
}

fn add_part<T: ?Sized>(kind: &str, parts: &mut Vec<PartInfo<T>>, p: PartInfo<T>) -> Result<()> {
    if parts.iter().any(|x| x.name == p.name) {
        return Err(taken(kind, p.name));
    }
    parts.push(p);
    Ok(())
}

fn installed() -> &'static RwLock<Option<Arc<Registry>>> {
    static INSTALLED: OnceLock<RwLock<Option<Arc<Registry>>>> = OnceLock::new();
    INSTALLED.get_or_init(|| RwLock::new(None))
}

/// The registry in use: the one installed ([`Registry::install`]), else the built-in one.
pub fn current() -> Arc<Registry> {
    static BUILTIN: OnceLock<Arc<Registry>> = OnceLock::new();
    let held = installed()
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    held.unwrap_or_else(|| Arc::clone(BUILTIN.get_or_init(|| Arc::new(Registry::builtin()))))
}

/// Every method of the registry in use ([`current`]), initializers first.
pub fn registry() -> Vec<MethodInfo> {
    current().methods.clone()
}

/// Every method this crate ships, initializers first, in a stable order.
pub(crate) fn builtin_methods() -> Vec<MethodInfo> {
    use crate::init;
    let before_orders = [
        init::lineage::mdav::method(),
        init::lineage::mdav_generic::method(),
        init::lineage::mdav1::method(),
        init::univariate::method(),
        init::lineage::mdav_nc::method(),
        init::lineage::cbfs::method(),
        init::lineage::cbfs_nn::method(),
        init::lineage::tfrp::method(),
        init::lineage::tfrp_nc::method(),
        init::lineage::gsms::method(),
        init::lineage::mdav_a1::method(),
        init::lineage::mdav_single::method(),
        init::lineage::vmdav::method(),
        init::lineage::mdav2k::method(),
        init::lineage::md::method(),
        init::lineage::dbfs::method(),
        init::lineage::dba::method(),
        init::mhm::ps_meansort::method(),
        init::mhm::ps_multidsort::method(),
    ];
    let after_orders = [
        init::randomised::random::method(),
        init::randomised::semirandom::method(),
        init::randomised::semirandom::rimhm_method(),
        init::clustering::kward::method(),
        init::clustering::mst::method(),
        init::clustering::muapprox::method(),
        init::clustering::ga::method(),
        init::clustering::fcm::method(),
        init::clustering::pcl::method(),
        crate::search::descent::method(),
        crate::search::sa::method(),
        crate::search::ils::method(),
        crate::search::tfrp2::method(),
        crate::search::decompose_shrink::method(),
        crate::search::imhm::method(),
        crate::search::lahc::method(),
        crate::search::exact_lns::method(),
    ];
    let mut methods = Vec::from(before_orders);
    methods.extend(init::mhm::order_cut::methods());
    methods.extend(after_orders);
    methods
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
pub(crate) fn nearest<'a>(name: &str, known: &[&'a str]) -> Vec<&'a str> {
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
