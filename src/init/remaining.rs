//! # Remaining records: the queries of the MDAV-lineage engine
//!
//! The seed-and-grow heuristics ([`super::engine`]) need four things of the records not yet
//! grouped: their centroid, the record farthest from a point, the k records nearest to a
//! point (removed as they are taken), and removal of given records. [`Remaining`] names
//! them; two implementations give identical answers:
//!
//! - [`Scan`]: a distance pass over every remaining record per query ([`Pool`]), best for
//!   small n or large d;
//! - [`super::kdtree::KdRemaining`]: a kd-tree with deletions, exact (bounds that hold in
//!   floating point; see its module doc).
//!
//! Both compute a squared distance the same way (the terms `(x_j - q_j)^2` added in column
//! order from 0.0), break ties by the lowest record id, and keep the centroid as the
//! compensated running sums of [`Pool`], updated in the same removal order (a batch is
//! removed from the highest pool position down, as [`Pool`] does), so every choice and every
//! centroid is bit-identical. [`open`] picks one by n and d ([`use_tree`]).
//!
//! ## Complexity
//! [`Scan`]: O(m d) per query over m remaining records. Tree: see its module doc. Removal
//! O(d) per record in both (plus the tree's box updates).

use super::kdtree::KdRemaining;
use super::pool::Pool;
use crate::data::Instance;

/// What the engine asks of the records not yet grouped. Ties: lowest record id.
pub trait Remaining {
    /// Number of remaining records.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Centroid of the remaining records (compensated running sums, as [`Pool::centroid`]).
    fn centroid(&self) -> Vec<f64>;
    /// Id of the remaining record farthest from `point`.
    fn farthest_from(&mut self, point: &[f64]) -> usize;
    /// Remove and return the `k` remaining records nearest to `point`, by increasing
    /// distance (fewer if fewer remain).
    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize>;
    /// Remove the remaining record `id` (it must be remaining).
    fn remove(&mut self, id: usize);
    /// Remove and return every remaining record, ascending ids.
    fn take_all(&mut self) -> Vec<usize>;
}

/// The quadratic path: one distance pass per query.
pub struct Scan {
    pool: Pool,
    /// The point whose distances the pool's buffer holds (the buffer stays aligned through
    /// removals), so "farthest from r" right after "nearest to r" needs no second pass.
    last_query: Option<Vec<f64>>,
    /// Id and position of the last farthest record, valid until the next removal (the
    /// engine removes a seed right after choosing it: no search for its position).
    last_far: Option<(usize, usize)>,
}

impl Scan {
    /// The records `ids` of `inst`.
    pub fn new(inst: &Instance, ids: Vec<usize>) -> Self {
        Scan {
            pool: Pool::from_ids(inst, ids),
            last_query: None,
            last_far: None,
        }
    }

    fn query(&mut self, point: &[f64]) {
        if self.last_query.as_deref() != Some(point) {
            self.pool.distances_to(point);
            self.last_query = Some(point.to_vec());
        }
    }

    fn remove_at(&mut self, p: usize) -> usize {
        self.last_far = None;
        self.pool.remove_at(p)
    }
}

impl Remaining for Scan {
    fn len(&self) -> usize {
        self.pool.len()
    }

    fn centroid(&self) -> Vec<f64> {
        self.pool.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.query(point);
        let p = self.pool.argmax_distance();
        let id = self.pool.id_at(p);
        self.last_far = Some((id, p));
        id
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.query(point);
        let chosen = self.pool.nearest_positions_by_current_distances(k);
        let ids: Vec<usize> = chosen.iter().map(|&p| self.pool.id_at(p)).collect();
        let mut desc = chosen;
        desc.sort_unstable_by(|a, b| b.cmp(a));
        for p in desc {
            self.remove_at(p);
        }
        ids
    }

    fn remove(&mut self, id: usize) {
        match self.last_far {
            Some((i, p)) if i == id => {
                self.remove_at(p);
            }
            _ => {
                self.last_far = None;
                let found = self.pool.remove_id(id);
                debug_assert!(found, "record {id} is not remaining");
            }
        }
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.last_far = None;
        self.pool.take_all()
    }
}

/// True when the kd-tree answers faster than the scan for `m` records of dimension `d`
/// (the crossover measured with `examples/remaining_crossover.rs`; see `study-engine.txt`).
pub fn use_tree(m: usize, d: usize) -> bool {
    match d {
        0..=4 => m >= 2_000,
        5..=8 => m >= 5_000,
        9..=12 => m >= 20_000,
        13..=16 => m >= 100_000,
        _ => false,
    }
}

/// Which implementation [`open`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// By n and d ([`use_tree`]).
    Auto,
    Scan,
    Tree,
}

/// The backend named by the environment variable `MICROAGG_SPATIAL` (`scan`, `tree`;
/// anything else or unset: automatic). For comparisons and benchmarks: the answers are the
/// same either way, only the time differs.
pub fn forced_backend() -> Option<Backend> {
    match std::env::var("MICROAGG_SPATIAL").as_deref() {
        Ok("scan") => Some(Backend::Scan),
        Ok("tree") => Some(Backend::Tree),
        _ => None,
    }
}

/// The remaining records `ids` of `inst` behind the chosen backend.
pub fn open(inst: &Instance, ids: Vec<usize>, backend: Backend) -> Box<dyn Remaining + '_> {
    let tree = match backend {
        Backend::Auto => match forced_backend() {
            Some(Backend::Scan) => false,
            Some(Backend::Tree) => true,
            _ => use_tree(ids.len(), inst.d),
        },
        Backend::Scan => false,
        Backend::Tree => true,
    };
    if tree {
        Box::new(KdRemaining::new(inst, ids))
    } else {
        Box::new(Scan::new(inst, ids))
    }
}
