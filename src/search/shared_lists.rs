//! # Shared neighbour lists
//!
//! The nearest-neighbour lists ([`Neighbours`]) are the costliest single step of a
//! search stage. A [`ListCache`] holds the lists built during one run, keyed by their
//! length and build (exact, or approximate with a given epsilon), so that every stage and
//! every part of a stage (descent, perturbations, operators) asks the
//! [`Ctx`](crate::method::Ctx) for them ([`Ctx::neighbours`](crate::method::Ctx::neighbours))
//! and the lists are built once per run; a pipeline passes one cache to all its stages.
//!
//! ## Complexity
//! A lookup is O(number of lists held); a build is [`Neighbours`]'s.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.

use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use std::sync::{Arc, Mutex};

/// How a list is built: exact, or (1 + eps)-approximate on the kd-tree path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Build {
    Exact,
    Approx(f64),
}

/// The neighbour lists of one run's instance, built on first request.
#[derive(Debug, Default)]
pub struct ListCache {
    held: Mutex<Vec<(usize, Build, Arc<Neighbours>)>>,
}

impl ListCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The `m` nearest records of every record built as `build`, from the cache or built
    /// now; `None` when `stop` says stop during the build (nothing is then cached).
    pub fn get(
        &self,
        inst: &Instance,
        m: usize,
        build: Build,
        stop: impl FnMut() -> bool,
    ) -> Option<Arc<Neighbours>> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, nb)) = held.iter().find(|(hm, hb, _)| *hm == m && *hb == build) {
            return Some(Arc::clone(nb));
        }
        let nb = match build {
            Build::Exact => Neighbours::build_until(inst, m, stop),
            Build::Approx(eps) => Neighbours::build_approx_until(inst, m, eps, stop),
        }?;
        let nb = Arc::new(nb);
        held.push((m, build, Arc::clone(&nb)));
        Some(nb)
    }

    /// Number of lists held.
    pub fn len(&self) -> usize {
        self.held.lock().map_or(0, |h| h.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second request for the same lists returns the same allocation; another length
    /// builds new lists; an interrupted build caches nothing.
    #[test]
    fn builds_each_list_once() {
        let inst = crate::data::load(
            "uniform:n=50,d=2,seed=1",
            &crate::data::ColumnSelection::All,
        )
        .unwrap();
        let cache = ListCache::new();
        assert!(cache.get(&inst, 5, Build::Exact, || true).is_none());
        assert!(cache.is_empty());
        let a = cache.get(&inst, 5, Build::Exact, || false).unwrap();
        let b = cache.get(&inst, 5, Build::Exact, || true).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let c = cache.get(&inst, 6, Build::Exact, || false).unwrap();
        assert!(!Arc::ptr_eq(&a, &c));
        assert_eq!(cache.len(), 2);
    }
}
